//! `--emit=directives`: what the parser understood, for people and tools.
//!
//! Text: one block per directive, a line per clause, then its modifiers,
//! list items and sections, each with `line:col`. JSON: an array of
//! directives, each with its canonical text, position and the serialised
//! clause arguments (byte spans included).

use super::ast::{ClauseArgs, Directive, ExprText, ListItem, Word};
use super::print::{clause_text, item_text, print};
use crate::source::{SourceFile, Span};
use std::fmt::Write;

/// `line:col` of a span's start (the line in the original file of a
/// preprocessed input, see [`SourceFile::origin`]).
fn at(file: &SourceFile, s: Span) -> String {
    let c = file.line_col(s.start.min(file.text.len())).1;
    format!("{}:{c}", file.origin(s.start).1)
}

fn expr_line(out: &mut String, file: &SourceFile, indent: &str, what: &str, e: &ExprText) {
    let _ = writeln!(out, "{indent}{what} `{}` @{}", e.text, at(file, e.span));
}

fn word_line(out: &mut String, file: &SourceFile, indent: &str, what: &str, w: &Word) {
    let _ = writeln!(out, "{indent}{what} `{}` @{}", w.text, at(file, w.span));
}

fn item_lines(out: &mut String, file: &SourceFile, indent: &str, it: &ListItem) {
    let _ = writeln!(
        out,
        "{indent}item `{}` @{}",
        item_text(it),
        at(file, it.span)
    );
    for s in &it.sections {
        let ind = format!("{indent}  ");
        if s.is_index {
            let _ = writeln!(out, "{ind}index @{}", at(file, s.span));
        } else {
            let _ = writeln!(out, "{ind}section @{}", at(file, s.span));
        }
        for (what, e) in [
            ("lower", &s.lower),
            ("length", &s.length),
            ("stride", &s.stride),
        ] {
            if let Some(e) = e {
                expr_line(
                    out,
                    file,
                    &format!("{ind}  "),
                    if s.is_index { "index" } else { what },
                    e,
                );
            }
        }
    }
}

fn args_lines(out: &mut String, file: &SourceFile, indent: &str, args: &ClauseArgs) {
    match args {
        ClauseArgs::None => {}
        ClauseArgs::Expr { modifier, expr } => {
            if let Some(m) = modifier {
                word_line(out, file, indent, "modifier", m);
            }
            expr_line(out, file, indent, "expr", expr);
        }
        ClauseArgs::Keyword(w) => word_line(out, file, indent, "keyword", w),
        ClauseArgs::List { modifiers, items } => {
            for m in modifiers {
                word_line(out, file, indent, "modifier", m);
            }
            for it in items {
                item_lines(out, file, indent, it);
            }
        }
        ClauseArgs::Args(args) => {
            for a in args {
                let what = match &a.name {
                    Some(n) => format!("arg {}:", n.text),
                    None => "arg".to_string(),
                };
                expr_line(out, file, indent, &what, &a.value);
            }
        }
    }
}

/// One readable block per directive.
pub fn render_text<'a>(file: &SourceFile, dirs: impl IntoIterator<Item = &'a Directive>) -> String {
    let mut out = String::new();
    for (k, d) in dirs.into_iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "{}:{}: {}",
            file.origin(d.span.start).0,
            at(file, d.span),
            print(d)
        );
        let _ = writeln!(
            out,
            "  directive `{} {}` @{} bytes {}..{}",
            d.model.as_str(),
            d.name,
            at(file, d.name_span),
            d.span.start,
            d.span.end
        );
        if let Some(a) = &d.arg {
            let _ = writeln!(out, "  argument @{}", at(file, a.span));
            args_lines(&mut out, file, "    ", &a.args);
        }
        for c in &d.clauses {
            let _ = writeln!(
                out,
                "  clause {} @{} bytes {}..{}",
                clause_text(d.model, &d.name, c),
                at(file, c.span),
                c.span.start,
                c.span.end
            );
            args_lines(&mut out, file, "    ", &c.args);
        }
    }
    out
}

fn span_json(file: &SourceFile, s: Span) -> serde_json::Value {
    let c = file.line_col(s.start.min(file.text.len())).1;
    let l = file.origin(s.start).1;
    serde_json::json!({ "start": s.start, "end": s.end, "line": l, "column": c })
}

/// The directives as a JSON array.
pub fn render_json<'a>(file: &SourceFile, dirs: impl IntoIterator<Item = &'a Directive>) -> String {
    let items: Vec<serde_json::Value> = dirs
        .into_iter()
        .map(|d| {
            let clauses: Vec<serde_json::Value> = d
                .clauses
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "name": c.name,
                        "text": clause_text(d.model, &d.name, c),
                        "span": span_json(file, c.span),
                        "name_span": span_json(file, c.name_span),
                        "args": serde_json::to_value(&c.args).unwrap_or(serde_json::Value::Null),
                    })
                })
                .collect();
            let arg = d.arg.as_ref().map(|a| {
                serde_json::json!({
                    "span": span_json(file, a.span),
                    "args": serde_json::to_value(&a.args).unwrap_or(serde_json::Value::Null),
                })
            });
            serde_json::json!({
                "file": file.origin(d.span.start).0,
                "model": d.model,
                "name": d.name,
                "text": print(d),
                "span": span_json(file, d.span),
                "name_span": span_json(file, d.name_span),
                "arg": arg,
                "clauses": clauses,
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directives::parse_pragma;

    fn dirs(file: &SourceFile) -> Vec<Directive> {
        crate::source::mask::find_pragmas(&file.text)
            .iter()
            .filter_map(|p| parse_pragma(&file.text, p.span).0)
            .collect()
    }

    #[test]
    fn text_block() {
        let f = SourceFile::new("a.c", "int x;\n#pragma omp target map(to: a[0:n]) nowait\n");
        let t = render_text(&f, &dirs(&f));
        assert!(
            t.starts_with("a.c:2:1: omp target map(to: a[0:n]) nowait\n"),
            "{t}"
        );
        assert!(
            t.contains("  clause map(to: a[0:n]) @2:20 bytes 26..41\n"),
            "{t}"
        );
        assert!(t.contains("        length `n` @2:32\n"), "{t}");
    }

    #[test]
    fn json_has_positions_and_args() {
        let f = SourceFile::new(
            "a.c",
            "#pragma acc parallel loop gang(num: 4) copyin(readonly: a[0:n])\n",
        );
        let v: serde_json::Value = serde_json::from_str(&render_json(&f, &dirs(&f))).unwrap();
        assert_eq!(v[0]["name"], "parallel loop");
        assert_eq!(v[0]["clauses"][0]["args"]["form"], "args");
        assert_eq!(
            v[0]["clauses"][0]["args"]["value"][0]["name"]["text"],
            "num"
        );
        assert_eq!(
            v[0]["clauses"][1]["args"]["value"]["modifiers"][0]["text"],
            "readonly"
        );
        assert_eq!(v[0]["clauses"][1]["span"]["column"], 40);
    }
}
