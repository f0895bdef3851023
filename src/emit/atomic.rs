//! Spelling of atomic constructs (`lower::atomic`): one call of the
//! prelude's `p2c_atom_*` helpers (templates/p2c_atomic.cuh) in place of
//! the pragma and its statement. The operand expressions are rendered by the
//! caller, so edits inside them (runtime queries of generic mode, C → C++
//! edits) are kept.

use super::edits::Edit;
use super::namer::Namer;
use crate::ir::atomic::{AtomicKind, AtomicSite, Operand};
use crate::source::Span;

/// The edits that put `spelled` (from [`spell`]) in place of the pragma and
/// its statement: the pragma (up to the statement) goes, the statement
/// becomes the call. Two edits, not one over both: an unbraced loop whose
/// body is the atomic construct renders only the statement's span, and one
/// edit starting at the pragma would fall outside it and be dropped.
pub fn edits(site: &AtomicSite, spelled: String) -> [Edit; 2] {
    [
        Edit::replace(Span::new(site.pragma.start, site.stmt.start), ""),
        Edit::replace(site.stmt, spelled),
    ]
}

/// The replacement of `site.pragma.start .. site.stmt.end`.
pub fn spell(site: &AtomicSite, render: &dyn Fn(Span) -> String, namer: &mut Namer) -> String {
    let x = render(site.x);
    let ty = &site.ty;
    let body = match &site.kind {
        AtomicKind::Read { v } => format!("{} = p2c_atom_read(&({x}));", render(*v)),
        AtomicKind::Write { e, capture } => {
            let call = format!("p2c_atom_write(&({x}), ({}))", render(*e));
            match capture {
                Some(v) => format!("{} = {call};", render(*v)),
                None => format!("(void){call};"),
            }
        }
        AtomicKind::Update {
            op,
            e,
            reversed,
            capture,
        } => {
            let ev = namer.fresh("p2c_atomic_e");
            let (decl, val) = match e {
                Operand::One => (String::new(), "1".to_string()),
                Operand::Expr(s) => (format!("const auto {ev} = ({}); ", render(*s)), ev.clone()),
            };
            let call = match (op.helper(), reversed) {
                (Some(h), false) => format!("{h}(&({x}), {val})"),
                _ => {
                    let o = namer.fresh("p2c_atomic_old");
                    let expr = if *reversed {
                        format!("{val} {} {o}", op.c())
                    } else {
                        format!("{o} {} {val}", op.c())
                    };
                    format!("p2c_atom_apply(&({x}), [&]({ty} {o}) {{ return ({ty})({expr}); }})")
                }
            };
            match capture {
                None => format!("{{ {decl}(void){call}; }}"),
                Some((v, false)) => format!("{{ {decl}{} = {call}; }}", render(*v)),
                Some((v, true)) => {
                    let old = namer.fresh("p2c_atomic_was");
                    let new = if *reversed {
                        format!("{val} {} {old}", op.c())
                    } else {
                        format!("{old} {} {val}", op.c())
                    };
                    format!(
                        "{{ {decl}const {ty} {old} = {call}; {} = ({ty})({new}); }}",
                        render(*v)
                    )
                }
            }
        }
        AtomicKind::Compare { op, e, x_left, d } => {
            let ev = namer.fresh("p2c_atomic_e");
            let o = namer.fresh("p2c_atomic_old");
            let (ddecl, dv) = match d {
                Some(d) => {
                    let dv = namer.fresh("p2c_atomic_d");
                    (format!("const auto {dv} = ({}); ", render(*d)), dv)
                }
                None => (String::new(), ev.clone()),
            };
            let test = if *x_left {
                format!("{o} {op} {ev}")
            } else {
                format!("{ev} {op} {o}")
            };
            format!(
                "{{ const auto {ev} = ({}); {ddecl}(void)p2c_atom_apply(&({x}), [&]({ty} {o}) {{ return ({ty})(({test}) ? {dv} : {o}); }}); }}",
                render(*e)
            )
        }
    };
    if site.fence {
        format!(
            "__threadfence(); {body} __threadfence(); /* {} */",
            site.pragma_text
        )
    } else {
        format!("{body} /* {} */", site.pragma_text)
    }
}
