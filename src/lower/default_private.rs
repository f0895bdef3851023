//! OpenMP `default(private)` / `default(firstprivate)` (5.1; 5.2, 5.4.1) on
//! a combined offloaded loop construct: the clause goes to its `teams` and
//! `parallel` leaves, so every variable the construct references without a
//! predetermined attribute or a clause of its own is privatized there as if
//! it were listed in `private` / `firstprivate`. A loop construct's private
//! copy is each thread's, as for an explicit clause.
//!
//! Taken: local scalars (structures included) and local arrays of known
//! extent, which an explicit clause privatizes the same way. Refused
//! (E0901): a pointer (its private copy would hold a host address, or
//! nothing, where the device dereferences it), and a variable of static
//! storage (5.2 requires it to be listed in a data-sharing clause under
//! these defaults), and a variable in a `map` clause but in no data-sharing
//! clause (the target leaf maps it, the teams / parallel leaves privatize
//! it: what the map copies back is not what the loop wrote; list it in
//! `shared`). Variables named in a data-sharing clause keep what that clause
//! gives them; `default(shared | none)` change nothing here.

use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, ListItem, Model};
use crate::sema::sharing::{self, Attr, VarAttr};
use crate::sema::symbols::{Scope, Storage};

/// `Some(true)` for `default(firstprivate)`, `Some(false)` for
/// `default(private)`, else `None`.
fn privatizing(d: &Directive) -> Option<bool> {
    if d.model != Model::Omp {
        return None;
    }
    match d.clause("default")?.keyword()? {
        "firstprivate" => Some(true),
        "private" => Some(false),
        _ => None,
    }
}

/// Whether `c` (of a directive of `model`) is `default(private |
/// firstprivate)`: generic mode lowers it on tasks and on the compute
/// construct only.
pub fn privatizing_clause(model: Model, c: &crate::directives::Clause) -> bool {
    model == Model::Omp
        && c.name == "default"
        && matches!(c.keyword(), Some("private") | Some("firstprivate"))
}

/// Whether `default` on `d` is one this module lowers.
pub fn lowered(d: &Directive) -> bool {
    privatizing(d).is_some()
}

/// Rewrites the implicit attributes of `vars` under `default(private |
/// firstprivate)` of `d`.
pub fn apply(d: &Directive, vars: &mut [VarAttr], symbols: &Scope, diags: &mut Vec<Diagnostic>) {
    let Some(first) = privatizing(d) else {
        return;
    };
    let clause = if first { "firstprivate" } else { "private" };
    let rule = if first {
        "default(firstprivate): private copy initialised from the original"
    } else {
        "default(private): private copy, uninitialised"
    };
    // The data-sharing clauses of the teams / parallel leaves; a `map`
    // clause is the target leaf's and does not exempt a variable.
    let listed = |name: &str| {
        d.clauses
            .iter()
            .filter(|c| {
                matches!(
                    c.name.as_str(),
                    "shared" | "private" | "firstprivate" | "lastprivate" | "reduction" | "linear"
                )
            })
            .any(|c| c.items().iter().any(|i| i.name == name))
    };
    for v in vars.iter_mut() {
        if v.rule == sharing::LOOP_VAR || v.rule == sharing::DEVICE_PTR || listed(&v.sym.name) {
            continue;
        }
        let refuse = |why: &str| {
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                v.span,
                format!(
                    "`default({clause})` of `{}` ({why}) is not supported yet",
                    v.sym.name
                ),
            )
            .with_label("used here")
            .with_secondary(v.sym.span, "declared here")
            .with_help(format!(
                "name `{}` in a data-sharing clause of the construct (`shared`, `firstprivate`, ...)",
                v.sym.name
            ))
        };
        if v.rule == sharing::EXPLICIT {
            diags.push(refuse(
                "mapped by the target leaf and privatized by the others",
            ));
            continue;
        }
        if v.sym.storage == Storage::Global || v.sym.is_static || v.sym.is_extern {
            diags.push(refuse("a variable of static storage, which must be listed"));
            continue;
        }
        if v.sym.ty.is_pointer() {
            diags.push(refuse("a pointer"));
            continue;
        }
        let attr = if v.sym.ty.is_array() {
            let item = ListItem {
                name: v.sym.name.clone(),
                name_span: v.span,
                path: String::new(),
                sections: vec![],
                span: v.span,
            };
            if first {
                match crate::sema::privarray::attr(d, true, &item, &v.sym, symbols) {
                    Ok(a) => a,
                    Err(e) => {
                        diags.push(*e);
                        continue;
                    }
                }
            } else {
                Attr::Private
            }
        } else if v.sym.ty.is_scalar() {
            if first {
                Attr::Firstprivate
            } else {
                Attr::Private
            }
        } else {
            diags.push(refuse("neither a scalar nor an array"));
            continue;
        };
        v.attr = attr;
        v.rule = rule;
    }
}
