//! Binding a variable's name to its private copy, keeping its shape.

use crate::ir::c::{CType, Deriv};

/// The declarator that binds `var` to a private copy whose first element
/// is at `first` (an element pointer), keeping the variable's declared
/// shape so subscripts and `sizeof` mean what they mean on the host:
/// `T (&h)[N][M] = *(T (*)[N][M])(first)` for an array with extents,
/// `T *a = first` otherwise.
pub(crate) fn bind(elem: &str, var: &str, ty: &CType, first: &str) -> String {
    let dims: Option<Vec<String>> = ty
        .derivs
        .iter()
        .take_while(|d| matches!(d, Deriv::Array(_)))
        .map(|d| match d {
            Deriv::Array(Some(n)) => Some(format!("[{n}]")),
            _ => None,
        })
        .collect();
    match dims {
        Some(d) if !d.is_empty() && d.len() == ty.dims() => {
            let d = d.concat();
            format!("{elem} (&{var}){d} = *({elem} (*){d})({first});")
        }
        _ => format!("{elem} *{var} = {first};"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binding_keeps_the_shape() {
        assert_eq!(
            bind(
                "int",
                "m",
                &CType {
                    base: "int".into(),
                    derivs: vec![
                        Deriv::Array(Some("8".into())),
                        Deriv::Array(Some("M".into()))
                    ],
                },
                "p - 0"
            ),
            "int (&m)[8][M] = *(int (*)[8][M])(p - 0);"
        );
        let p = CType {
            base: "double".into(),
            derivs: vec![Deriv::Pointer { quals: vec![] }],
        };
        assert_eq!(bind("double", "a", &p, "p - lo"), "double *a = p - lo;");
    }
}
