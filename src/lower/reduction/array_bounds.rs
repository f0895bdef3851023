//! The flat extent of an array reduction item (`reduction(op: a[lo:len])`,
//! `reduction(op: h)`, `reduction(op: m[lo:n][0:M])`, `reduction(op: m)`).
//!
//! Why flat: every array reduction scheme (SPMD `p2c_red_array`, the team
//! combine of generic mode) treats the item as one run of `len` scalars
//! starting `lo` scalars after the variable's first element, so the private
//! copies are plain arrays of the element type and the combine is one loop
//! over them. A multi-dimensional array or section is therefore reduced when
//! its elements are contiguous in memory: only the outermost named
//! dimension may be partial; every inner one must be whole (omitted, or
//! lower bound 0 and length its extent). A section that is not contiguous
//! (`m[0:4][1:2]`) is a located E0901.

use crate::diag::{codes, Diagnostic};
use crate::directives::ast::Section;
use crate::ir::reduction::Bounds;
use crate::sema::{CType, Deriv};

/// The extents of the array dimensions of `ty` after the first one (`[N][M]`
/// gives `["M"]`); `None` when one is unknown.
fn inner_extents(ty: &CType) -> Option<Vec<String>> {
    ty.derivs
        .iter()
        .skip(1)
        .take_while(|d| matches!(d, Deriv::Array(_)))
        .map(|d| match d {
            Deriv::Array(Some(n)) => Some(n.clone()),
            _ => None,
        })
        .collect()
}

fn paren(e: &str) -> String {
    if e.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        e.to_string()
    } else {
        format!("({e})")
    }
}

/// A section dimension that covers the whole dimension of extent `extent`.
fn whole(s: &Section, extent: &str) -> bool {
    if s.is_index {
        return false;
    }
    let lo_zero = s.lower.as_ref().map_or(true, |e| {
        crate::sema::loops::int_literal(&e.text) == Some(0)
    });
    let len_full = s.length.as_ref().map_or(true, |e| {
        let t = e.text.trim();
        t == extent.trim()
            || matches!(
                (crate::sema::loops::int_literal(t), crate::sema::loops::int_literal(extent)),
                (Some(a), Some(b)) if a == b
            )
    });
    lo_zero && len_full
}

/// The flat bounds of the item `name` (type `ty`) with `sections` as
/// written, or the located diagnostic saying why it cannot be reduced.
pub fn bounds(
    name: &str,
    ty: &CType,
    sections: &[Section],
    span: crate::source::Span,
) -> Result<Bounds, Box<Diagnostic>> {
    let refuse = |msg: String, label: &str| {
        Box::new(
            Diagnostic::new(codes::NOT_SUPPORTED, span, msg)
                .with_label(label.to_string())
                .with_help(format!(
                    "name a contiguous part: whole inner dimensions, e.g. `{name}[lo:len]` over whole rows"
                )),
        )
    };
    let inner = inner_extents(ty).ok_or_else(|| {
        refuse(
            format!("a reduction of `{name}`, whose inner dimensions have no extent, is not supported yet"),
            "an inner dimension has no extent",
        )
    })?;
    // Scalars per element of the first dimension.
    let row = if inner.is_empty() {
        String::new()
    } else {
        inner
            .iter()
            .map(|e| paren(e))
            .collect::<Vec<_>>()
            .join(" * ")
    };
    let scaled = |e: &str| {
        if row.is_empty() {
            e.to_string()
        } else {
            format!("{} * {row}", paren(e))
        }
    };
    let extent = match ty.derivs.first() {
        Some(Deriv::Array(Some(n))) => Some(n.clone()),
        _ => None,
    };
    for (k, s) in sections.iter().enumerate().skip(1) {
        let Some(ext) = inner.get(k - 1) else {
            return Err(refuse(
                format!("a section of `{name}` with more dimensions than its type is not valid"),
                "too many dimensions",
            ));
        };
        if !whole(s, ext) {
            return Err(refuse(
                format!(
                    "a reduction over the section of `{name}` whose elements are not contiguous is not supported yet"
                ),
                "an inner dimension of the section is partial",
            ));
        }
    }
    let s = sections.first();
    let lo = s
        .and_then(|s| s.lower.as_ref())
        .map(|e| e.text.clone())
        .unwrap_or_else(|| "0".into());
    let len = match (s, s.and_then(|s| s.length.as_ref()), &extent) {
        (_, Some(e), _) => e.text.clone(),
        (Some(s), None, _) if s.is_index => "1".into(),
        (None, None, Some(n)) => n.clone(),
        (Some(_), None, Some(n)) => format!("({n}) - ({lo})"),
        _ => {
            return Err(Box::new(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    span,
                    format!(
                    "an array-section reduction of `{name}` without a length is not supported yet"
                ),
                )
                .with_label("no length, and the extent is not known")
                .with_help(format!("name the length: `{name}[lo:len]`")),
            ))
        }
    };
    let mut text = match s {
        None => name.to_string(),
        Some(s) if s.is_index => format!("{name}[{lo}]"),
        Some(_) => format!("{name}[{lo}:{len}]"),
    };
    for s in sections.iter().skip(1) {
        let l = s.lower.as_ref().map(|e| e.text.as_str()).unwrap_or("");
        let n = s.length.as_ref().map(|e| e.text.as_str()).unwrap_or("");
        text.push_str(&format!("[{l}:{n}]"));
    }
    let (lo, len) = if row.is_empty() {
        (lo, len)
    } else if lo == "0" {
        ("0".to_string(), scaled(&len))
    } else {
        (scaled(&lo), scaled(&len))
    };
    Ok(Bounds { lo, len, text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directives::ast::ExprText;
    use crate::source::Span;

    fn sec(lo: Option<&str>, len: Option<&str>) -> Section {
        let e = |t: &str| ExprText {
            text: t.to_string(),
            span: Span::new(0, 0),
        };
        Section {
            lower: lo.map(e),
            length: len.map(e),
            stride: None,
            is_index: false,
            span: Span::new(0, 0),
        }
    }

    fn arr(dims: &[&str]) -> CType {
        CType {
            base: "int".into(),
            derivs: dims
                .iter()
                .map(|d| Deriv::Array(Some(d.to_string())))
                .collect(),
        }
    }

    #[test]
    fn one_dimension() {
        let b = bounds(
            "a",
            &arr(&["16"]),
            &[sec(Some("2"), Some("n"))],
            Span::new(0, 0),
        )
        .unwrap();
        assert_eq!(
            (b.lo.as_str(), b.len.as_str(), b.text.as_str()),
            ("2", "n", "a[2:n]")
        );
        let b = bounds("h", &arr(&["K"]), &[], Span::new(0, 0)).unwrap();
        assert_eq!((b.lo.as_str(), b.len.as_str()), ("0", "K"));
    }

    #[test]
    fn rows_are_linearized() {
        let t = arr(&["8", "M"]);
        let b = bounds("m", &t, &[], Span::new(0, 0)).unwrap();
        assert_eq!((b.lo.as_str(), b.len.as_str()), ("0", "8 * M"));
        let b = bounds(
            "m",
            &t,
            &[sec(Some("i + 1"), Some("2")), sec(Some("0"), Some("M"))],
            Span::new(0, 0),
        )
        .unwrap();
        assert_eq!((b.lo.as_str(), b.len.as_str()), ("(i + 1) * M", "2 * M"));
        assert_eq!(b.text, "m[i + 1:2][0:M]");
        let b = bounds(
            "m",
            &arr(&["8", "4", "2"]),
            &[sec(None, Some("3"))],
            Span::new(0, 0),
        )
        .unwrap();
        assert_eq!(b.len, "3 * 4 * 2");
    }

    #[test]
    fn partial_inner_dimension_is_refused() {
        let t = arr(&["8", "4"]);
        assert!(bounds(
            "m",
            &t,
            &[sec(Some("0"), Some("8")), sec(Some("1"), Some("2"))],
            Span::new(0, 0)
        )
        .is_err());
        assert!(bounds(
            "m",
            &t,
            &[sec(Some("0"), Some("8")), sec(Some("0"), Some("3"))],
            Span::new(0, 0)
        )
        .is_err());
        assert!(bounds(
            "m",
            &t,
            &[sec(Some("0"), Some("8")), sec(None, Some("4"))],
            Span::new(0, 0)
        )
        .is_ok());
    }
}
