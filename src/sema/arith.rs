//! Arithmetic scalar types as reductions see them: which kind of value a
//! declaration's specifiers name (`unsigned long int`, `char signed`,
//! `size_t`, a typedef of one of them), so that the lowering knows the
//! operators it may apply, how to shuffle it and whether a native atomic
//! exists. Sizes are those of the LP64 data model nvcc and clang use on Linux
//! (host and device agree: `long` is 8 bytes on both).

/// An arithmetic scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arith {
    /// `_Bool` (spelled `bool` in the C++ output).
    Bool,
    /// An integer type of `bytes` bytes (plain `char` is signed, as on x86-64).
    Int {
        bytes: u8,
        signed: bool,
    },
    Float,
    Double,
    /// `long double`: CUDA device code has none.
    LongDouble,
    /// C99 `float _Complex`: two `float`s, the real and the imaginary part.
    ComplexFloat,
    /// C99 `double _Complex`: two `double`s.
    ComplexDouble,
}

impl Arith {
    pub fn is_integer(self) -> bool {
        matches!(self, Arith::Bool | Arith::Int { .. })
    }

    pub fn is_floating(self) -> bool {
        matches!(self, Arith::Float | Arith::Double | Arith::LongDouble)
    }

    /// A C99 complex type: reductions move it as two values of [`Arith::part`].
    pub fn is_complex(self) -> bool {
        matches!(self, Arith::ComplexFloat | Arith::ComplexDouble)
    }

    /// The type of the real and imaginary parts of a complex type (the type
    /// itself otherwise).
    pub fn part(self) -> Arith {
        match self {
            Arith::ComplexFloat => Arith::Float,
            Arith::ComplexDouble => Arith::Double,
            a => a,
        }
    }

    /// The C spelling of a real floating type or of the parts of a complex one.
    pub fn part_name(self) -> &'static str {
        match self.part() {
            Arith::Float => "float",
            _ => "double",
        }
    }

    /// Bytes of the value (LP64).
    pub fn bytes(self) -> u8 {
        match self {
            Arith::Bool => 1,
            Arith::Int { bytes, .. } => bytes,
            Arith::Float => 4,
            Arith::Double => 8,
            Arith::LongDouble => 16,
            Arith::ComplexFloat => 8,
            Arith::ComplexDouble => 16,
        }
    }

    /// Narrower than the 32-bit registers `__shfl_*_sync` exchanges: such
    /// values are promoted to `int`/`unsigned` for a shuffle and converted back.
    pub fn promoted_for_shuffle(self) -> bool {
        self.part().bytes() < 4
    }

    /// How the reduction form prints the type's class.
    pub fn describe(self) -> String {
        match self {
            Arith::Bool => "_Bool, promoted to 32 bits for shuffles".into(),
            Arith::Int { bytes, signed } => {
                let s = if signed { "signed" } else { "unsigned" };
                if bytes < 4 {
                    format!(
                        "{s} {}-bit integer, promoted to 32 bits for shuffles",
                        bytes * 8
                    )
                } else {
                    format!("{s} {}-bit integer", bytes * 8)
                }
            }
            Arith::Float => "32-bit float".into(),
            Arith::Double => "64-bit double".into(),
            Arith::LongDouble => "long double".into(),
            Arith::ComplexFloat => {
                "float _Complex, moved as two 32-bit floats (real, imaginary)".into()
            }
            Arith::ComplexDouble => {
                "double _Complex, moved as two 64-bit doubles (real, imaginary)".into()
            }
        }
    }
}

/// Standard typedef names of arithmetic types (stddef.h, stdint.h, sys/types.h).
fn standard_typedef(name: &str) -> Option<Arith> {
    let int = |bytes, signed| Some(Arith::Int { bytes, signed });
    match name {
        "size_t" | "uintptr_t" | "uintmax_t" | "uint64_t" | "u_int64_t" => int(8, false),
        "ssize_t" | "ptrdiff_t" | "intptr_t" | "intmax_t" | "int64_t" | "off_t" => int(8, true),
        "int8_t" => int(1, true),
        "uint8_t" | "u_int8_t" => int(1, false),
        "int16_t" => int(2, true),
        "uint16_t" | "u_int16_t" => int(2, false),
        "int32_t" | "wchar_t" => int(4, true),
        "uint32_t" | "u_int32_t" => int(4, false),
        "bool" => Some(Arith::Bool),
        _ => None,
    }
}

/// Classifies the specifier text of a declaration (qualifiers ignored).
/// Typedef names are resolved through `symbols` (user typedefs visible at
/// the region, a few levels deep) and the standard headers' names.
pub fn classify(base: &str, symbols: &crate::sema::symbols::Scope) -> Option<Arith> {
    classify_depth(base, symbols, 0)
}

fn classify_depth(base: &str, symbols: &crate::sema::symbols::Scope, depth: u32) -> Option<Arith> {
    let words: Vec<&str> = base
        .split_whitespace()
        .filter(|w| {
            !matches!(
                *w,
                "const" | "volatile" | "restrict" | "__restrict" | "__restrict__" | "register"
            )
        })
        .collect();
    let count = |w: &str| words.iter().filter(|x| **x == w).count();
    let (unsigned, signed) = (count("unsigned"), count("signed"));
    let (char_, short, int, long) = (count("char"), count("short"), count("int"), count("long"));
    let (float, double, bool_) = (count("float"), count("double"), count("_Bool"));
    let known =
        unsigned + signed + char_ + short + int + long + float + double + bool_ + count("_Complex");
    if count("_Complex") > 0 {
        // `float _Complex`, `_Complex double` (in any order); not `long
        // double _Complex` (no device long double) nor integer complex types.
        return match (float, double, known == words.len()) {
            (1, 0, true) if known == 2 => Some(Arith::ComplexFloat),
            (0, 1, true) if known == 2 => Some(Arith::ComplexDouble),
            _ => None,
        };
    }
    if unsigned + signed > 1 {
        return None;
    }
    if known == 0 {
        // One typedef name.
        let [name] = words.as_slice() else {
            return None;
        };
        if let Some(a) = standard_typedef(name) {
            return Some(a);
        }
        let s = symbols.get(name)?;
        if !s.is_typedef || !s.ty.is_scalar() || depth > 8 {
            return None;
        }
        return classify_depth(&s.ty.base, symbols, depth + 1);
    }
    if known != words.len() {
        return None;
    }
    let is_signed = unsigned == 0;
    match (char_, short, int, long, float, double, bool_) {
        (0, 0, 0, 0, 0, 0, 1) if unsigned + signed == 0 => Some(Arith::Bool),
        (1, 0, 0, 0, 0, 0, 0) => Some(Arith::Int {
            bytes: 1,
            signed: is_signed,
        }),
        (0, 1, 0 | 1, 0, 0, 0, 0) => Some(Arith::Int {
            bytes: 2,
            signed: is_signed,
        }),
        (0, 0, 0 | 1, 0, 0, 0, 0) => Some(Arith::Int {
            bytes: 4,
            signed: is_signed,
        }),
        (0, 0, 0 | 1, 1 | 2, 0, 0, 0) => Some(Arith::Int {
            bytes: 8,
            signed: is_signed,
        }),
        (0, 0, 0, 0, 1, 0, 0) if unsigned + signed == 0 => Some(Arith::Float),
        (0, 0, 0, 0, 0, 1, 0) if unsigned + signed == 0 => Some(Arith::Double),
        (0, 0, 0, 1, 0, 1, 0) if unsigned + signed == 0 => Some(Arith::LongDouble),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(base: &str) -> Option<Arith> {
        classify(base, &super::super::symbols::Scope::default())
    }

    #[test]
    fn spellings_of_integers() {
        let i = |bytes, signed| Some(Arith::Int { bytes, signed });
        assert_eq!(c("char"), i(1, true));
        assert_eq!(c("char signed"), i(1, true));
        assert_eq!(c("unsigned char"), i(1, false));
        assert_eq!(c("short int"), i(2, true));
        assert_eq!(c("unsigned short"), i(2, false));
        assert_eq!(c("const int"), i(4, true));
        assert_eq!(c("unsigned"), i(4, false));
        assert_eq!(c("signed"), i(4, true));
        assert_eq!(c("long unsigned int"), i(8, false));
        assert_eq!(c("long long"), i(8, true));
        assert_eq!(c("unsigned long long int"), i(8, false));
        assert_eq!(c("size_t"), i(8, false));
        assert_eq!(c("uint16_t"), i(2, false));
    }

    #[test]
    fn other_arithmetic_and_not() {
        assert_eq!(c("_Bool"), Some(Arith::Bool));
        assert_eq!(c("volatile float"), Some(Arith::Float));
        assert_eq!(c("double"), Some(Arith::Double));
        assert_eq!(c("long double"), Some(Arith::LongDouble));
        assert_eq!(c("struct pair"), None);
        assert_eq!(c("float _Complex"), Some(Arith::ComplexFloat));
        assert_eq!(c("_Complex double"), Some(Arith::ComplexDouble));
        assert_eq!(c("long double _Complex"), None);
        assert_eq!(c("int _Complex"), None);
        assert_eq!(c("unsigned double"), None);
        assert_eq!(c("mystery_t"), None);
        assert_eq!(c("signed unsigned int"), None);
    }
}
