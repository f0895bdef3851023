//! E0216 `map_type`: the map type must fit the directive.
//!
//! OpenMP map types say when data moves: `to` and `alloc` at the start of a
//! data lifetime, `from`, `release` and `delete` at its end, `tofrom` both.
//! Each directive takes only the types that make sense for it:
//!
//! - `target` (and its combined forms), `target data`, `declare mapper`:
//!   `to`, `from`, `tofrom`, `alloc`;
//! - `target enter data`: `to`, `alloc`;
//! - `target exit data`: `from`, `release`, `delete`.
//!
//! Bad:
//!
//! ```c
//! #pragma omp target enter data map(from: a[0:n])
//! ```
//!
//! Data is only copied back at the end of its lifetime. Fix: map it `to` (or
//! `alloc`) here and `from` on the matching `#pragma omp target exit data`.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{table, Model};

pub const CODES: &[Code] = &[codes::BAD_MAP_TYPE];

fn allowed(first_leaf: &str) -> Option<&'static [&'static str]> {
    match first_leaf {
        "target" | "target data" | "declare mapper" => Some(&["to", "from", "tofrom", "alloc"]),
        "target enter data" => Some(&["to", "alloc"]),
        "target exit data" => Some(&["from", "release", "delete"]),
        _ => None,
    }
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp {
            continue;
        }
        let first = spec::leaves_of(d).first().copied().unwrap_or("");
        let Some(ok) = allowed(first) else {
            continue;
        };
        for c in d.clauses_named("map") {
            let Some(ty) = c
                .modifiers()
                .iter()
                .rev()
                .find(|m| table::MAP_TYPES.contains(&m.text.as_str()))
            else {
                continue;
            };
            if ok.contains(&ty.text.as_str()) {
                continue;
            }
            let help = match (first, ty.text.as_str()) {
                (_, "from" | "release" | "delete") if first == "target enter data" => {
                    "copy data back or free it on `target exit data`".to_string()
                }
                (_, "to" | "alloc" | "tofrom") if first == "target exit data" => {
                    "map data in on `target enter data`; here use `from`, `release` or `delete`"
                        .to_string()
                }
                _ => format!(
                    "`{}` ends a data lifetime: use it on `target exit data`; here use `tofrom` or `from`",
                    ty.text
                ),
            };
            let list = ok
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ");
            out.push(
                i,
                Diagnostic::new(
                    codes::BAD_MAP_TYPE,
                    ty.span,
                    format!(
                        "map type `{}` is not allowed on `{}`",
                        ty.text,
                        cx.title(i)
                    ),
                )
                .with_label(format!("allowed here: {list}"))
                .with_help(help),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn map_types_per_directive() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target enter data map(from: a[0:n])\n\
            #pragma omp target enter data map(to: a[0:n])\n\
            #pragma omp target exit data map(delete: a[0:n])\n\
            #pragma omp target exit data map(tofrom: a[0:n])\n\
            #pragma omp target teams distribute parallel for map(release: a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            }\n";
        assert_codes("map_type", src, "E0216", &[2, 5, 6]);
    }
}
