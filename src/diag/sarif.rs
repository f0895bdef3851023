//! `--diagnostics-format=sarif`: SARIF 2.1.0, the format code-scanning tools
//! read. Built from the JSON rendering (so a preprocessed input's positions
//! are already those of the original files): one run, the tool's rules are
//! the codes that occur (with their one-line documentation), one result per
//! diagnostic with its primary location and related locations for the
//! secondary labels.

use serde_json::{json, Value};

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// SARIF for the JSON rendering `items` (see `render::json`).
pub fn from_json(items: &[Value]) -> String {
    let mut rules: Vec<String> = items
        .iter()
        .filter_map(|d| d["code"].as_str().map(str::to_string))
        .collect();
    rules.sort();
    rules.dedup();
    let rule_objs: Vec<Value> = rules.iter().map(|c| rule(c)).collect();
    let results: Vec<Value> = items.iter().map(|d| result(d, &rules)).collect();
    let log = json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "pragma2cuda",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rule_objs,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

fn rule(code: &str) -> Value {
    let doc = super::codes::ALL
        .iter()
        .find(|(c, _)| c.as_str() == code)
        .map(|(_, d)| *d)
        .unwrap_or("");
    json!({
        "id": code,
        "shortDescription": { "text": doc },
        "help": { "text": format!("pragma2cuda --explain {code}") },
    })
}

fn level(severity: &str) -> &'static str {
    match severity {
        "error" => "error",
        "warning" => "warning",
        _ => "note",
    }
}

fn location(file: &Value, l: &Value) -> Value {
    json!({
        "physicalLocation": {
            "artifactLocation": { "uri": uri(file.as_str().unwrap_or("")) },
            "region": {
                "startLine": l["line"], "startColumn": l["column"],
                "endLine": l["end_line"], "endColumn": l["end_column"],
            },
        },
        "message": { "text": l["message"] },
    })
}

/// A relative URI reference for a file name (spaces and `%` escaped).
fn uri(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '%' => out.push_str("%25"),
            '#' => out.push_str("%23"),
            '?' => out.push_str("%3F"),
            _ => out.push(c),
        }
    }
    out
}

fn result(d: &Value, rules: &[String]) -> Value {
    let code = d["code"].as_str().unwrap_or("");
    let labels = d["labels"].as_array().cloned().unwrap_or_default();
    let primary: Vec<Value> = labels
        .iter()
        .filter(|l| l["primary"] == true)
        .take(1)
        .map(|l| location(&d["file"], l))
        .collect();
    let related: Vec<Value> = labels
        .iter()
        .filter(|l| l["primary"] != true)
        .enumerate()
        .map(|(i, l)| {
            let mut loc = location(&d["file"], l);
            loc["id"] = json!(i);
            loc
        })
        .collect();
    let mut text = d["message"].as_str().unwrap_or("").to_string();
    if let Some(h) = d["help"].as_str() {
        text.push_str(&format!("\nhelp: {h}"));
    }
    for n in d["notes"].as_array().into_iter().flatten() {
        text.push_str(&format!("\nnote: {}", n.as_str().unwrap_or("")));
    }
    let mut r = json!({
        "ruleId": code,
        "ruleIndex": rules.iter().position(|c| c == code).unwrap_or(0),
        "level": level(d["severity"].as_str().unwrap_or("")),
        "message": { "text": text },
        "locations": primary,
    });
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    r
}
