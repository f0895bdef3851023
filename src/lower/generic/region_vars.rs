//! Phase 2: the region's variables. The block's free identifiers (and the
//! host variables nested `num_threads` / `if` clauses name) get their
//! data-sharing attributes; local types are hoisted; the attributes the
//! construct cannot lower yet are refused. Also records which variables
//! the block writes as a whole and which it declares, which later phases
//! ask to decide where each variable lives.

use super::construct::Construct;
use super::construct_reductions::construct_red_ok;
use super::syntax::{address_taken, clause_uses, declared_in, direct_writes};
use super::{not_supported, Ctx};
use crate::ir::generic::GenKind;
use crate::ir::localtype::Hoisted;
use crate::sema::sharing::{self, Attr};
use crate::sema::{symbols, uses};
use crate::source::Span;
use std::collections::BTreeSet;

/// The region's variables and what the block does with them.
pub(super) struct RegionVars {
    /// Free identifiers of the block and of nested clauses.
    pub used: Vec<uses::Use>,
    /// Functions the block calls.
    pub region_calls: Vec<(String, Span)>,
    /// The symbols visible at the block.
    pub symbols_at_region: crate::sema::symbols::Scope,
    /// Each variable's attribute.
    pub vars: Vec<sharing::VarAttr>,
    /// Local types the kernel names through a file-scope copy.
    pub hoisted: Vec<Hoisted>,
    /// Variables assigned as a whole (not through a subscript) or whose
    /// address is taken: a kernel parameter cannot hold them for the team.
    pub written: BTreeSet<String>,
    /// Names declared in the block.
    pub locals: Vec<String>,
    /// Variables the block names only as iteration variables of nested
    /// loop constructs (`loop_only_vars`): private to the region.
    pub loop_only: Vec<String>,
}

/// Decides the attribute of every variable the region uses.
pub(super) fn decide(
    cx: &mut Ctx<'_>,
    rc: &Construct<'_>,
    kernel: &str,
    env: &sharing::DataEnv,
) -> RegionVars {
    let (d, kind, block, stmt, text) = (rc.d, rc.kind, rc.block, rc.stmt, rc.text);
    let symbols_at_region = symbols::visible_at(rc.root, text, stmt);
    let (mut used, region_calls) = uses::free_identifiers(stmt, text);
    clause_uses(cx.tree, text, rc.root, block, &rc.nested, &mut used);
    crate::lower::privarray::drop_nested_private_uses(&mut used, &rc.nested, block, text);
    let loop_only = super::loop_only_vars::loop_only_vars(cx.tree, text, block, &rc.nested, &used);
    let mut vars = sharing::decide(
        d,
        rc.is_kernels,
        &used,
        &symbols_at_region,
        &loop_only,
        env,
        text,
        cx.diags,
    );
    crate::lower::default_private::apply(d, &mut vars, &symbols_at_region, cx.diags);
    let block_text = text.get(block.start..block.end).unwrap_or("");
    crate::lower::device_complex::refuse(
        d,
        &vars,
        &symbols_at_region,
        block_text,
        block.start,
        cx.diags,
    );
    crate::lower::device_long_double::refuse(
        d,
        &vars,
        &symbols_at_region,
        block_text,
        block.start,
        cx.diags,
    );
    let hoisted = crate::lower::build::local_types(
        cx.file,
        rc.at,
        &symbols_at_region,
        &mut vars,
        kernel,
        block,
        cx.diags,
    );
    for v in &vars {
        if matches!(v.attr, Attr::Lastprivate { .. }) {
            cx.diags.push(not_supported(
                v.span,
                "lastprivate on a compute construct with a structured block is not supported yet",
            ));
        }
        let refuse = match v.attr {
            Attr::Reduction { .. } | Attr::ArrayReduction { .. } => {
                !construct_red_ok(kind) && kind != GenKind::OmpParallel
            }
            _ => false,
        };
        if refuse {
            cx.diags.push(not_supported(
                v.span,
                if matches!(v.attr, Attr::ArrayReduction { .. }) {
                    "array reductions on a compute construct with a structured block are not supported yet"
                } else {
                    "reductions on a compute construct with a structured block are not supported yet"
                },
            ).with_note("lowered: `reduction` on `acc parallel`, `acc serial` and `omp target teams` with a structured block"));
        }
    }
    // Variables assigned as a whole (not through a subscript) or whose
    // address is taken: a kernel parameter cannot hold them for the team.
    let mut written: BTreeSet<String> = BTreeSet::new();
    direct_writes(stmt, text, &mut written);
    address_taken(stmt, text, &mut written);
    let mut locals = Vec::new();
    declared_in(stmt, text, &mut locals);
    let locals: Vec<String> = locals.into_iter().map(|s| s.name).collect();
    RegionVars {
        used,
        region_calls,
        symbols_at_region,
        vars,
        hoisted,
        written,
        locals,
        loop_only,
    }
}
