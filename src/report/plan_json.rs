//! `--emit=plan-json`: the lowering plan of every region as JSON, with
//! stable keys (README.md documents them). The variables, their homes and
//! the shared bytes are the sharing view's (`--emit=sharing-json`), so the
//! two never disagree.

use crate::front::CTree;
use crate::ir::{Region, Size};
use crate::lower::sharing_report;
use crate::source::SourceFile;
use serde_json::{json, Value};

fn size(s: &Size) -> Value {
    match s {
        Size::Fixed(v) => json!(v),
        Size::Clause { clause, expr, .. } => json!(format!("{clause}({expr})")),
        Size::FromTrip => json!("trip"),
    }
}

/// `GridStride` -> `grid_stride`: an enum variant as a stable value.
fn snake(debug: String) -> String {
    let mut out = String::new();
    for (i, c) in debug.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn region(file: &SourceFile, r: &Region, sharing: Option<&Value>) -> Value {
    let (name, line) = file.origin(r.pragma.start);
    let end = r.stmt.end.max(r.pragma.end);
    let (end_name, end_line) = file.origin(end.saturating_sub(1));
    let reductions: Vec<Value> = r
        .reductions
        .iter()
        .map(|red| {
            json!({
                "variable": red.var,
                "operator": red.op.as_str(),
                "type": red.ty.type_name(),
            })
        })
        .collect();
    let variables: Vec<Value> = sharing
        .and_then(|s| s["scopes"].as_array())
        .into_iter()
        .flatten()
        .flat_map(|scope| {
            let construct = scope["construct"].clone();
            scope["variables"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .map(move |v| {
                    json!({
                        "name": v["name"], "construct": construct,
                        "attribute": v["attribute"], "home": v["location"],
                        "rule": v["rule"],
                    })
                })
        })
        .collect();
    json!({
        "kernel": r.kernel,
        "function": r.function,
        "model": r.model.as_str(),
        "construct": r.construct,
        "range": {
            "file": name, "start_line": line, "start_column": file.line_col(r.pragma.start).1,
            "end_file": end_name, "end_line": end_line,
            "start": r.pragma.start, "end": end,
        },
        "mode": if r.generic.is_some() { "generic" } else { "spmd" },
        "schedule": if r.generic.is_some() { Value::Null } else { json!(snake(format!("{:?}", r.schedule))) },
        "launch": {
            "blocks": size(&r.blocks), "max_blocks": r.max_blocks,
            "threads_x": size(&r.threads_x), "threads_y": size(&r.threads_y),
        },
        "reductions": {
            "strategy": r.red.strategy.as_str(),
            "gang": snake(format!("{:?}", r.red.gang)),
            "items": reductions,
        },
        "shared_bytes": sharing.map_or(Value::Null, |s| s["shared_frame_bytes"].clone()),
        "global_frame_bytes": sharing.map_or(Value::Null, |s| s["global_frame_bytes"].clone()),
        "variables": variables,
    })
}

/// The plan of `regions` as a JSON document.
pub fn render(file: &SourceFile, tree: &CTree, regions: &[Region]) -> String {
    let sharing: Value =
        serde_json::from_str(&sharing_report::render_json(file, Some(tree), regions))
            .unwrap_or(Value::Null);
    let by_kernel = |k: &str| {
        sharing["regions"]
            .as_array()
            .and_then(|rs| rs.iter().find(|s| s["kernel"] == k))
    };
    let items: Vec<Value> = regions
        .iter()
        .map(|r| region(file, r, by_kernel(&r.kernel)))
        .collect();
    let doc = json!({ "file": file.name, "version": 1, "regions": items });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}
