//! `--emit=plan`: the region IR as text, for people and golden tests.

use super::ir::{Region, Size};
use crate::sema::sharing::Attr;
use crate::source::SourceFile;
use std::fmt::Write;

fn size(s: &Size) -> String {
    match s {
        Size::Fixed(v) => v.to_string(),
        Size::Clause { clause, expr, .. } => format!("{clause}({expr})"),
        Size::FromTrip => "from trip count".into(),
    }
}

pub fn render(file: &SourceFile, regions: &[Region]) -> String {
    let mut o = String::new();
    for r in regions {
        let (l, c) = file.line_col(r.pragma.start);
        let _ = writeln!(
            o,
            "region {} at {}:{}:{} in {}()",
            r.kernel, file.name, l, c, r.function
        );
        let _ = writeln!(o, "  directive: {} {}", r.model.as_str(), r.construct);
        if r.generic.is_none() {
            let _ = writeln!(o, "  schedule:  {}", r.schedule.as_str());
        }
        let _ = writeln!(
            o,
            "  launch:    blocks {}, threads {} x {}",
            size(&r.blocks),
            size(&r.threads_x),
            size(&r.threads_y)
        );
        for (lp, ty) in r.nest.iter().zip(&r.nest_types) {
            let dir = if lp.test.increasing() { "+" } else { "-" };
            let _ = writeln!(
                o,
                "  loop:      {} {} from {} while {} {} {} step {}{}",
                ty.type_name(),
                lp.var,
                lp.lb,
                lp.var,
                lp.written_test,
                lp.ub,
                dir,
                lp.step
            );
        }
        if let Some(c) = &r.if_cond {
            let _ = writeln!(o, "  if:        {c} (else the loop runs on the host)");
        }
        for v in &r.vars {
            let what = match &v.attr {
                Attr::Private => "private".to_string(),
                Attr::Firstprivate => "firstprivate (by value)".to_string(),
                Attr::Mapped { kind, sections } => {
                    let secs: Vec<String> = sections
                        .iter()
                        .map(|s| {
                            format!(
                                "[{}:{}]",
                                s.lower.as_ref().map(|e| e.text.as_str()).unwrap_or(""),
                                s.length.as_ref().map(|e| e.text.as_str()).unwrap_or("")
                            )
                        })
                        .collect();
                    format!("map {}{} (device memory)", kind.as_str(), secs.join(""))
                }
                Attr::Reduction { op } => format!("reduction {}", op.as_str()),
                Attr::Lastprivate { conditional } => format!(
                    "lastprivate{} (private; the {} iteration's value is written back)",
                    if *conditional { "(conditional)" } else { "" },
                    if *conditional {
                        "last assigning"
                    } else {
                        "last"
                    }
                ),
            };
            let _ = writeln!(
                o,
                "  var:       {} : {} -- {} [{}]",
                v.sym.name,
                v.sym.ty.type_name(),
                what,
                v.rule
            );
        }
        for x in &r.reductions {
            let levels: Vec<&str> = r.schedule.levels().iter().map(|l| l.as_str()).collect();
            let _ = writeln!(
                o,
                "  reduction: {} {} lid {} rid {}: RED_SETUP/INIT/FINI/TEARDOWN at {}",
                x.op.as_str(),
                x.var,
                x.lid,
                x.rid,
                if levels.is_empty() {
                    "GANG (dummy)".to_string()
                } else {
                    levels.join(", ")
                }
            );
        }
        if let Some(g) = &r.generic {
            for l in super::generic::plan_lines(g, file) {
                let _ = writeln!(o, "  {l}");
            }
        }
        for n in &r.notes {
            let _ = writeln!(o, "  note:      {n}");
        }
        o.push('\n');
    }
    o
}
