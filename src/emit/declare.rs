//! Edits for the device declarations (lower::declare): execution-space
//! specifiers on device functions, a `__device__` mirror and its present-table
//! registration after each device variable, the mirror named in device
//! function bodies, and the declarative pragmas kept as comments.

use super::edits::Edit;
use super::namer::Namer;
use crate::ir::declare::DeclarePlan;
use crate::source::Span;
use std::collections::BTreeMap;

/// Insertion order at a declaration's start: after a kernel placed before the
/// function (10) and after `extern "C" {` (20).
const SPEC_ORDER: u32 = 30;

pub fn declare_edits(plan: &DeclarePlan, namer: &mut Namer) -> Vec<Edit> {
    let mut edits = Vec::new();
    for (span, text) in &plan.pragmas {
        edits.push(Edit::replace(
            *span,
            format!("/* pragma2cuda: `{text}` (applied to the declarations it names) */"),
        ));
    }
    for (span, text) in &plan.rewrites {
        edits.push(Edit::replace(*span, text.clone()));
    }
    let mut mirrors: BTreeMap<&str, String> = BTreeMap::new();
    for v in &plan.vars {
        let mirror = namer.fresh(&format!("p2c_mirror_{}", v.name));
        let entry = namer.fresh(&format!("p2c_mirror_{}_entry", v.name));
        let decl = v.ty.declare(&mirror);
        let init = v
            .init
            .as_ref()
            .map(|i| format!(" = {i}"))
            .unwrap_or_default();
        let stat = if v.is_static { "static " } else { "" };
        let n = &v.name;
        edits.push(Edit::insert(
            v.after,
            SPEC_ORDER,
            format!(
                "\n{stat}__device__ {decl}{init}; /* pragma2cuda: the device copy of `{n}` ({}) */\n\
                 static p2c_declared {entry}(&{n}, sizeof({n}), []() -> void * {{ void *p = NULL; cudaGetSymbolAddress(&p, {mirror}); return p; }}, \"{n}\"{});",
                v.rule,
                if v.link { ", P2C_DECLARED_LINK" } else { "" }
            ),
        ));
        mirrors.insert(&v.name, mirror);
    }
    for f in &plan.fns {
        for start in &f.decl_starts {
            edits.push(Edit::insert(*start, SPEC_ORDER, format!("{} ", f.spec)));
        }
        for (name, span) in &f.var_uses {
            if let Some(m) = mirrors.get(name.as_str()) {
                edits.push(Edit::replace(
                    Span::new(span.start, span.end),
                    format!("P2C_DECLARED_VAR({name}, {m})"),
                ));
            }
        }
    }
    edits
}
