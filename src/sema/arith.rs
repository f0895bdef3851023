//! Arithmetic scalar types as reductions see them: which kind of value a
//! declaration's specifiers name (`unsigned long int`, `char signed`,
//! `size_t`, a typedef of one of them), so that the lowering knows the
//! operators it may apply, how to shuffle it and whether a native atomic
//! exists. Sizes are those of the LP64 data model nvcc and clang use on Linux
//! (host and device agree: `long` is 8 bytes on both).

pub use crate::ir::c::Arith;

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
