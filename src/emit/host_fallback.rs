//! The host copy of a generic-mode region's block, run when its `if`
//! clause is false (`lower::generic::host_if` decided what it rewrites).
//! It is kept apart from `generic.rs`, which spells the kernel, because it
//! is host code: the block as written with the file's C → C++ edits and
//! the nested OpenACC pragmas turned into comments (loops and atomics),
//! an OpenMP block under a team of one thread;
//! `region.rs` privatises the construct's variables around it.

use super::edits::{apply, Edit};
use super::namer::Namer;
use crate::ir::c::CType;
use crate::ir::c::Model;
use crate::ir::generic::Generic;
use crate::ir::Region;
use crate::source::SourceFile;
use std::fmt::Write;

/// The block for the `else` branch; empty without an `if` clause.
pub(crate) fn block(
    r: &Region,
    g: &Generic,
    file: &SourceFile,
    cxx_edits: &[Edit],
    namer: &mut Namer,
) -> String {
    if r.if_cond.is_none() {
        return String::new();
    }
    let mut edits = cxx_edits.to_vec();
    for (sp, t) in &g.host_edits {
        edits.push(Edit::replace(*sp, t.clone()));
    }
    // OpenACC atomics: the local thread alone runs the block, and the host
    // compiler may not take `acc atomic` outside a compute construct.
    if r.model == Model::Acc {
        for a in &r.atomics {
            edits.push(Edit::replace(
                a.pragma,
                format!(
                    "/* {}: one thread runs it on the host */",
                    a.pragma_text.replace("*/", "* /")
                ),
            ));
        }
    }
    let block = reduced(r, apply(&file.text, r.stmt, &edits), namer);
    if r.model == Model::Omp {
        // The target region's initial thread is a new one, alone in its
        // team (gcc's host fallback too): worksharing and thread queries in
        // the block must not bind to a host team the construct is in.
        format!(
            "#pragma omp parallel num_threads(1) /* the target region's initial thread */\n{block}"
        )
    } else {
        block
    }
}

/// The construct's scalar reductions (OpenACC `parallel` / `serial`) under
/// host execution: one gang, so the block updates a private copy at the
/// identity, combined into the original after it (OpenACC 3.3 2.5.15, as
/// seed 001's gang level with one gang); lowering refused complex values
/// and arrays.
fn reduced(r: &Region, block: String, namer: &mut Namer) -> String {
    if r.reductions.is_empty() {
        return block;
    }
    let mut pre = String::new();
    let mut inner = String::new();
    let mut post = String::new();
    let mut fini = String::new();
    for x in &r.reductions {
        let ty = CType {
            base: x.ty.unqualified_base(),
            derivs: vec![],
        };
        let t = ty.type_name();
        let f = x.op.functor();
        let orig = namer.fresh(&format!("p2c_orig_{}", x.var));
        let _ = write!(pre, "{} = {}; ", ty.declare(&orig), x.var);
        let _ = write!(inner, "{} = {f}::identity<{t}>(); ", ty.declare(&x.var));
        let _ = write!(fini, "{orig} = {f}::combine<{t}>({orig}, {}); ", x.var);
        let _ = write!(post, "{} = {orig}; ", x.var);
    }
    format!(
        "{{ {pre}/* reduction: one gang on the host */\n{{ {inner}\n{block}\n{fini}}}\n{post}}}"
    )
}
