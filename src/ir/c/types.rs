//! The C values semantic analysis finds: types, variables and their
//! storage. Plain data with accessors; reading them from the syntax tree is
//! `sema`'s (`sema::ctype`, `sema::symbols`, `sema::arith::classify`).

use crate::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deriv {
    /// `*` with its qualifiers (`const`, `restrict`), as written.
    Pointer { quals: Vec<String> },
    /// `[size]`; `None` for `[]`.
    Array(Option<String>),
    /// A function declarator: the symbol is a function (or pointer to one).
    Function,
}

/// `base` is the specifier text without storage class (`const double`,
/// `unsigned long`, `struct point`); `derivs` read from the name outward:
/// `double (*a)[M]` is `[Pointer, Array(M)]`, `int *p[4]` is `[Array(4), Pointer]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CType {
    pub base: String,
    pub derivs: Vec<Deriv>,
}

impl CType {
    pub fn is_scalar(&self) -> bool {
        self.derivs.is_empty()
    }

    /// A pointer to this type (`int *` for `int`, `int **` for `int *`).
    pub fn pointer_to(&self) -> CType {
        let mut derivs = vec![Deriv::Pointer { quals: vec![] }];
        derivs.extend(self.derivs.iter().cloned());
        CType {
            base: self.base.clone(),
            derivs,
        }
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self.derivs.first(), Some(Deriv::Pointer { .. }))
    }

    pub fn is_array(&self) -> bool {
        matches!(self.derivs.first(), Some(Deriv::Array(_)))
    }

    pub fn is_function(&self) -> bool {
        self.derivs.iter().any(|d| matches!(d, Deriv::Function))
    }

    /// Number of leading array-or-pointer levels (subscriptable dimensions).
    pub fn dims(&self) -> usize {
        self.derivs
            .iter()
            .take_while(|d| !matches!(d, Deriv::Function))
            .count()
    }

    /// Any array dimension without a compile-time-looking size (VLA)?
    pub fn array_sizes(&self) -> Vec<Option<&str>> {
        self.derivs
            .iter()
            .filter_map(|d| match d {
                Deriv::Array(s) => Some(s.as_deref()),
                _ => None,
            })
            .collect()
    }

    pub fn is_const_base(&self) -> bool {
        self.base.split_whitespace().any(|w| w == "const")
    }

    /// The base type with qualifiers removed (for value copies).
    pub fn unqualified_base(&self) -> String {
        self.base
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "const" | "volatile" | "restrict" | "__restrict" | "__restrict__"
                )
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The type with the first derivation removed: the element type of an
    /// array or the pointee of a pointer.
    pub fn element(&self) -> CType {
        CType {
            base: self.base.clone(),
            derivs: self.derivs.iter().skip(1).cloned().collect(),
        }
    }

    /// The same type with the outermost array turned into a pointer (how it is
    /// passed to a function).
    pub fn decayed(&self) -> CType {
        let mut t = self.clone();
        if let Some(Deriv::Array(_)) = t.derivs.first() {
            t.derivs[0] = Deriv::Pointer { quals: vec![] };
        }
        t
    }

    /// Writes a declaration of `name` with this type: `double (*a)[M]`.
    pub fn declare(&self, name: &str) -> String {
        let mut s = name.to_string();
        let mut prev_ptr = false;
        for d in &self.derivs {
            match d {
                Deriv::Pointer { quals } => {
                    let q = if quals.is_empty() {
                        String::new()
                    } else {
                        format!("{} ", quals.join(" "))
                    };
                    s = format!("*{q}{s}");
                    prev_ptr = true;
                }
                Deriv::Array(n) => {
                    if prev_ptr {
                        s = format!("({s})");
                    }
                    s = format!("{s}[{}]", n.as_deref().unwrap_or(""));
                    prev_ptr = false;
                }
                Deriv::Function => {
                    if prev_ptr {
                        s = format!("({s})");
                    }
                    s = format!("{s}()");
                    prev_ptr = false;
                }
            }
        }
        format!("{} {}", self.base, s)
    }

    /// The type name alone (for casts and template arguments): `double (*)[M]`.
    pub fn type_name(&self) -> String {
        self.declare("").trim_end().replace(" ()", "()").to_string()
    }
}

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

/// Size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Global,
    Param,
    Local,
}

#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub ty: CType,
    pub storage: Storage,
    pub is_static: bool,
    pub is_extern: bool,
    pub is_typedef: bool,
    /// The declared name's span.
    pub span: Span,
    /// The whole declaration's span.
    pub decl_span: Span,
    /// For a parameter declared as an array (`double a[N][M]`, adjusted to
    /// `double (*a)[M]` in `ty`): the outer bound as written, `Some("N")`,
    /// or `None` for `a[][M]`. `None` outside (not an array parameter).
    pub param_bound: Option<Option<String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(base: &str, derivs: Vec<Deriv>) -> CType {
        CType {
            base: base.into(),
            derivs,
        }
    }

    #[test]
    fn declares_pointer_to_array() {
        let t = ty(
            "double",
            vec![
                Deriv::Pointer { quals: vec![] },
                Deriv::Array(Some("M".into())),
            ],
        );
        assert_eq!(t.declare("a"), "double (*a)[M]");
    }

    #[test]
    fn declares_array_of_pointers() {
        let t = ty(
            "int",
            vec![
                Deriv::Array(Some("4".into())),
                Deriv::Pointer { quals: vec![] },
            ],
        );
        assert_eq!(t.declare("p"), "int *p[4]");
    }

    #[test]
    fn decays_outer_array() {
        let t = ty(
            "double",
            vec![
                Deriv::Array(Some("N".into())),
                Deriv::Array(Some("M".into())),
            ],
        );
        assert_eq!(t.decayed().declare("a"), "double (*a)[M]");
    }
}
