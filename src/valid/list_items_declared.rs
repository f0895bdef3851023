//! E0302 `list_items_declared`: list items name declared variables.
//!
//! Every variable in a clause list (`private(x)`, `map(to: a[0:n])`,
//! `copyin(b)`, `reduction(+: s)`, `threadprivate(t)`, ...) must be declared
//! before the directive and visible where it stands: a name the compiler
//! cannot find, a type name or a function name is an error. For a member
//! access (`s.a[0:n]`) the base variable is checked.
//!
//! A name this file does not declare may come from a header pragma2cuda does
//! not read. For an offloaded directive (OpenACC, OpenMP `target`, `teams`,
//! `distribute` or anything inside a target region) it is reported anyway,
//! since lowering needs its type (declare it in the file or translate with
//! the preprocessor); for host-only OpenMP, which is passed through to the
//! host compiler, it is reported only when the file includes no header.
//!
//! Not checked: the list items of `declare simd`, `declare reduction`,
//! `declare mapper` and `declare variant` (they name the parameters of the
//! function that follows or special identifiers such as `omp_in`), and items
//! of clauses with an `iterator(...)` modifier. `declare target` lists and
//! its `enter`, `to` and `link` clauses may also name functions.
//!
//! Bad:
//!
//! ```c
//! void scale(int n, double *a)
//! {
//! #pragma omp target teams distribute parallel for map(tofrom: b[0:n])
//!     for (int i = 0; i < n; i++) a[i] *= 2;
//! }
//! ```
//!
//! Fix: name the variable the region uses, `map(tofrom: a[0:n])`.

use super::{Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ClauseArgs, ListItem};

pub const CODES: &[Code] = &[codes::UNDECLARED];

const SKIPPED: &[&str] = &[
    "declare simd",
    "declare reduction",
    "declare mapper",
    "declare variant",
    "begin declare variant",
];

pub fn check(cx: &Context, out: &mut Sink) {
    if cx.tree.root().is_none() {
        return;
    }
    let headers = cx.includes_headers(false);
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if SKIPPED.contains(&d.name.as_str()) {
            continue;
        }
        let declare_target = d.name.ends_with("declare target");
        let mut items: Vec<(&ListItem, bool)> = Vec::new();
        if let Some(arg) = &d.arg {
            if let ClauseArgs::List { items: its, .. } = &arg.args {
                items.extend(its.iter().map(|it| (it, declare_target)));
            }
        }
        for c in &d.clauses {
            if c.modifiers().iter().any(|m| m.text.starts_with("iterator")) {
                continue;
            }
            let functions_ok =
                declare_target && matches!(c.name.as_str(), "enter" | "to" | "link");
            // `omp_all_memory` is a reserved locator of `depend`, no variable.
            let locator = |it: &&ListItem| c.name == "depend" && it.name == "omp_all_memory";
            items.extend(c.items().iter().filter(|it| !locator(it)).map(|it| (it, functions_ok)));
        }
        if items.is_empty() {
            continue;
        }
        let Some(symbols) = cx.symbols_at(i) else {
            continue;
        };
        let unknown_is_error = !headers || cx.offloaded(i);
        for (item, functions_ok) in items {
            // The class is enough here (the type is read only for a diagnostic).
            let problem = match symbols.class(&item.name) {
                None if !unknown_is_error => None,
                None => Some((
                    format!("`{}` is not a declared variable", item.name),
                    "not declared before this directive",
                )),
                Some(s) if s.is_typedef => Some((
                    format!("`{}` is a type, not a variable", item.name),
                    "a type name",
                )),
                Some(s) if s.is_function && !functions_ok => Some((
                    format!("`{}` is a function, not a variable", item.name),
                    "a function name",
                )),
                Some(_) => None,
            };
            if let Some((msg, label)) = problem {
                let mut diag =
                    Diagnostic::new(codes::UNDECLARED, item.name_span, msg).with_label(label);
                if let Some(s) = symbols.get(&item.name) {
                    diag = diag.with_secondary(s.span, "declared here");
                }
                out.push(i, diag);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn undeclared_types_and_functions() {
        let src = "typedef double real;\n\
            int g;\n\
            int h(int);\n\
            #pragma omp threadprivate(g)\n\
            #pragma omp declare target(h)\n\
            void f(int n, double *a) {\n\
            #pragma omp target teams distribute parallel for map(tofrom: b[0:n]) firstprivate(real, h, g)\n\
            for (int i = 0; i < n; i++) a[i] += 1;\n\
            int late = 0;\n\
            #pragma acc parallel loop copy(a[0:n]) private(late, later)\n\
            for (int i = 0; i < n; i++) a[i] += late;\n\
            #pragma omp flush(a)\n\
            }\n\
            #pragma omp declare simd uniform(p)\n\
            void k(int *p);\n";
        assert_codes("list_items_declared", src, "E0302", &[7, 7, 7, 10]);
    }

    #[test]
    fn names_from_headers_on_host_directives() {
        let src = "#include \"grid.h\"\n\
            void f(int n, double *a) {\n\
            #pragma omp parallel for shared(grid)\n\
            for (int i = 0; i < n; i++) a[i] += grid[i];\n\
            #pragma omp target teams distribute parallel for map(to: grid[0:n]) map(tofrom: a[0:n])\n\
            for (int i = 0; i < n; i++) a[i] += grid[i];\n\
            }\n";
        assert_codes("list_items_declared", src, "E0302", &[5]);
    }

    #[test]
    fn omp_all_memory_is_a_locator_of_depend_only() {
        let src = "void f(int n, double *a) {\n\
            #pragma omp target depend(inout: omp_all_memory) map(tofrom: a[0:n])\n\
            a[0] += 1;\n\
            #pragma omp target map(tofrom: omp_all_memory)\n\
            a[0] += 1;\n\
            }\n";
        assert_codes("list_items_declared", src, "E0302", &[4]);
    }
}
