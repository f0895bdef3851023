//! The host copy of a generic-mode region's block, run when its `if`
//! clause is false (`lower::generic::host_if` decided what it rewrites).
//! It is kept apart from `generic.rs`, which spells the kernel, because it
//! is host code: the block as written with the file's C → C++ edits and
//! the nested OpenACC pragmas turned into comments (loops and atomics),
//! an OpenMP block under a team of one thread;
//! `region.rs` privatises the construct's variables around it.

use super::edits::{apply, Edit};
use crate::directives::Model;
use crate::lower::generic::Generic;
use crate::lower::Region;
use crate::source::SourceFile;

/// The block for the `else` branch; empty without an `if` clause.
pub(crate) fn block(r: &Region, g: &Generic, file: &SourceFile, cxx_edits: &[Edit]) -> String {
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
    let block = apply(&file.text, r.stmt, &edits);
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
