//! E0203 `omp_region_nesting`: OpenMP's rules on which region may be closely
//! nested in which.
//!
//! "Closely nested" means the closest enclosing OpenMP construct; for a
//! combined directive the innermost construct counts (the region of
//! `target teams distribute parallel for` is, inside, a `for` region).
//! Checked, following the nesting restrictions of OpenMP 5.2:
//!
//! - a worksharing construct (`for`, `sections`, `single`, `scope`) or a
//!   `barrier` may not be closely nested in a worksharing, `loop`, `task`,
//!   `taskloop`, `critical`, `ordered`, `atomic` or `masked` region;
//! - `masked` (`master`) may not be closely nested in a worksharing, `loop`,
//!   `atomic`, `task` or `taskloop` region;
//! - except that a `scope` region encloses worksharing and `masked`
//!   constructs freely: OpenMP 5.1 defines `scope` (2.9) apart from the
//!   worksharing constructs (2.10), so its nesting rule (2.22) lets a `for`
//!   be closely nested in a `scope`, as gcc accepts; 5.2 (11.2) gives
//!   `scope` the worksharing property, which would forbid it. A 5.1
//!   program is taken as written;
//! - only `distribute`, `parallel`, `loop` and `atomic` constructs may be
//!   strictly nested in a `teams` region;
//! - only `simd`, `loop`, `atomic`, `scan` and `ordered simd` may be nested
//!   in a `simd` region;
//! - only `loop`, `parallel`, `simd` and `atomic` may be nested in a `loop`
//!   region or a region with `order(concurrent)`;
//! - `ordered` must be closely nested in a loop with an `ordered` clause
//!   (`ordered simd` in a `simd` loop); `section` in `sections`; `scan` in a
//!   loop with a `reduction(inscan, ...)`;
//! - `cancel` and `cancellation point` name the construct they are closely
//!   nested in;
//! - a `critical` region may not be nested in a `critical` region of the
//!   same name (it would deadlock).
//!
//! Bad:
//!
//! ```c
//! #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
//! for (int i = 0; i < n; i++) {
//! #pragma omp for
//!     for (int j = 0; j < m; j++) a[i] += b[j];
//! }
//! ```
//!
//! The inner `for` would share its iterations among threads that are already
//! sharing the outer loop. Fix: drop the inner `#pragma omp for` (the inner
//! loop runs in each thread), or `collapse(2)` a perfectly nested pair.

use super::{spec, Context, Sink};
use crate::diag::{codes, Code, Diagnostic};
use crate::directives::{ClauseArgs, Directive, Model};

pub const CODES: &[Code] = &[codes::BAD_NESTING];

const WORKSHARING: &[&str] = &["for", "sections", "single", "scope"];

fn critical_name(d: &Directive) -> String {
    match d.arg.as_ref().map(|a| &a.args) {
        Some(ClauseArgs::Expr { expr, .. }) => expr.text.clone(),
        _ => String::new(),
    }
}

/// What is wrong with directive `d` closely nested in `p`, if anything.
fn violation(d: &Directive, p: &Directive) -> Option<String> {
    let dl = spec::leaves_of(d);
    let pl = spec::leaves_of(p);
    let first = *dl.first()?;
    let inner = *pl.last()?;
    let has = |n: &str| d.clause(n).is_some();
    if first == "section" {
        return (inner != "sections")
            .then(|| "`section` must be closely nested in `sections`".into());
    }
    if first == "teams" {
        // teams_nesting reports this one.
        return None;
    }
    if pl.contains(&"simd") {
        let ok = matches!(first, "simd" | "loop" | "atomic" | "scan")
            || (first == "ordered" && has("simd"));
        return (!ok).then(|| {
            "only `simd`, `loop`, `atomic`, `scan` and `ordered simd` may appear in a simd region"
                .into()
        });
    }
    let concurrent = inner == "loop"
        || p.clause("order").is_some_and(|c| {
            c.positional_args().any(|a| a.text == "concurrent")
        });
    if concurrent && !matches!(first, "loop" | "parallel" | "simd" | "atomic") {
        return Some(format!(
            "only `loop`, `parallel`, `simd` and `atomic` may appear in {}",
            if inner == "loop" {
                "a `loop` region"
            } else {
                "a region with `order(concurrent)`"
            }
        ));
    }
    if inner == "teams" && !matches!(first, "distribute" | "parallel" | "loop" | "atomic") {
        return Some(
            "only `distribute`, `parallel`, `loop` and `atomic` may be closely nested in a teams region"
                .into(),
        );
    }
    // `scope` binds like a worksharing construct only as the inner one
    // (see the module comment).
    let ws_parent = WORKSHARING.contains(&inner) && inner != "scope";
    let binding_ws = ws_parent
        || matches!(
            inner,
            "loop" | "task" | "taskloop" | "critical" | "ordered" | "atomic" | "masked" | "master"
        );
    if (WORKSHARING.contains(&first) || first == "barrier") && binding_ws {
        return Some(format!(
            "`{first}` may not be closely nested in a `{inner}` region"
        ));
    }
    if matches!(first, "masked" | "master")
        && (ws_parent
            || matches!(inner, "loop" | "atomic" | "task" | "taskloop"))
    {
        return Some(format!(
            "`{first}` may not be closely nested in a `{inner}` region"
        ));
    }
    if first == "ordered" {
        let ok = if has("simd") && !has("threads") {
            pl.contains(&"simd")
        } else {
            pl.contains(&"for") && p.clause("ordered").is_some()
        };
        return (!ok).then(|| {
            "`ordered` must be closely nested in a loop construct with an `ordered` clause".into()
        });
    }
    if first == "scan" {
        let inscan = p.clauses_named("reduction").any(|c| {
            c.modifiers().iter().any(|m| m.text == "inscan")
        });
        return (!inscan).then(|| {
            "`scan` must be closely nested in a loop with a `reduction(inscan, ...)` clause".into()
        });
    }
    if matches!(first, "cancel" | "cancellation point") {
        let kind = ["parallel", "sections", "for", "taskgroup"]
            .into_iter()
            .find(|k| has(k))?;
        let ok = match kind {
            "parallel" => inner == "parallel",
            "sections" => matches!(inner, "sections" | "section"),
            "for" => inner == "for",
            _ => matches!(inner, "task" | "taskloop"),
        };
        return (!ok).then(|| {
            format!("`{first} {kind}` must be closely nested in a `{kind}` region")
        });
    }
    None
}

pub fn check(cx: &Context, out: &mut Sink) {
    for i in 0..cx.len() {
        let d = cx.directive(i);
        if d.model != Model::Omp {
            continue;
        }
        if let Some(p) = cx.enclosing(i) {
            if let Some(why) = violation(d, cx.directive(p)) {
                out.push(
                    i,
                    Diagnostic::new(
                        codes::BAD_NESTING,
                        d.name_span,
                        format!("`{}` is not allowed here: {why}", cx.title(i)),
                    )
                    .with_label("nested directive")
                    .with_secondary(
                        cx.directive(p).name_span,
                        format!("closely nested in `{}`", cx.title(p)),
                    ),
                );
                continue;
            }
        } else if let Some(why) = orphan(d) {
            out.push(
                i,
                Diagnostic::new(
                    codes::BAD_NESTING,
                    d.name_span,
                    format!("`{}` is not allowed here: {why}", cx.title(i)),
                )
                .with_label("not inside the construct it needs"),
            );
            continue;
        }
        if d.name == "critical" {
            let name = critical_name(d);
            let same = cx.ancestors(i).find(|&j| {
                let a = cx.directive(j);
                a.model == Model::Omp && a.name == "critical" && critical_name(a) == name
            });
            if let Some(j) = same {
                out.push(
                    i,
                    Diagnostic::new(
                        codes::BAD_NESTING,
                        d.name_span,
                        "a `critical` region inside a `critical` region of the same name deadlocks",
                    )
                    .with_label("waits for itself")
                    .with_secondary(cx.directive(j).name_span, "outer critical region"),
                );
            }
        }
    }
}

/// Directives that are wrong with no enclosing OpenMP construct in the file
/// (the few whose binding region must be lexically visible).
fn orphan(d: &Directive) -> Option<String> {
    match d.name.as_str() {
        "section" => Some("`section` must be closely nested in `sections`".into()),
        "scan" => Some(
            "`scan` must be closely nested in a loop with a `reduction(inscan, ...)` clause".into(),
        ),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use crate::valid::testing::assert_codes;

    #[test]
    fn closely_nested_regions() {
        let src = "void f(int n, int m, double *a, double *b) {\n\
            #pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma omp for\n\
            for (int j = 0; j < m; j++) a[i] += b[j];\n\
            }\n\
            #pragma omp target teams\n\
            {\n\
            #pragma omp single\n\
            a[0] = 1;\n\
            }\n\
            #pragma omp simd\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma omp critical\n\
            a[0] += i;\n\
            }\n\
            #pragma omp parallel\n\
            {\n\
            #pragma omp for\n\
            for (int i = 0; i < n; i++) a[i] = 0;\n\
            #pragma omp barrier\n\
            #pragma omp masked\n\
            a[0] = 1;\n\
            }\n\
            #pragma omp critical(x)\n\
            {\n\
            #pragma omp critical(x)\n\
            a[0] = 1;\n\
            }\n\
            #pragma omp parallel for\n\
            for (int i = 0; i < n; i++) {\n\
            #pragma omp ordered\n\
            a[i] = 1;\n\
            }\n\
            }\n";
        assert_codes("omp_region_nesting", src, "E0203", &[4, 9, 14, 27, 32]);
    }
}
