//! Rendering diagnostics for people (codespan-reporting), for tools that read
//! gcc's one-line format, and as JSON for editors.

use super::{Diagnostic, Severity};
use crate::source::SourceFile;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Gcc,
    Json,
}

/// Renders `diags` in `format`. `color` applies to the human format only.
pub fn render(file: &SourceFile, diags: &[Diagnostic], format: Format, color: bool) -> String {
    match format {
        Format::Human => human(file, diags, color),
        Format::Gcc => gcc(file, diags),
        Format::Json => json(file, diags),
    }
}

fn human(file: &SourceFile, diags: &[Diagnostic], color: bool) -> String {
    let files = SimpleFile::new(file.name.as_str(), file.text.as_str());
    let config = term::Config::default();
    let mut buf: Vec<u8> = Vec::new();
    for d in diags {
        let sev = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
        };
        let len = file.text.len();
        let labels = d
            .labels
            .iter()
            .map(|l| {
                let (s, e) = (l.span.start.min(len), l.span.end.min(len));
                let style = if l.primary {
                    cs::LabelStyle::Primary
                } else {
                    cs::LabelStyle::Secondary
                };
                cs::Label::new(style, (), s..e.max(s)).with_message(l.message.clone())
            })
            .collect();
        let mut notes: Vec<String> = d.help.iter().map(|h| format!("help: {h}")).collect();
        notes.extend(d.notes.iter().map(|n| format!("note: {n}")));
        let csd = cs::Diagnostic::new(sev)
            .with_code(d.code.as_str())
            .with_message(d.message.clone())
            .with_labels(labels)
            .with_notes(notes);
        if color {
            let mut w = term::termcolor::Ansi::new(&mut buf);
            let _ = term::emit(&mut w, &config, &files, &csd);
        } else {
            let mut w = term::termcolor::NoColor::new(&mut buf);
            let _ = term::emit(&mut w, &config, &files, &csd);
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn sev_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

fn gcc(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let (l, c) = file.line_col(d.primary_span().start.min(file.text.len()));
        out.push_str(&format!(
            "{}:{}:{}: {}: {} [{}]\n",
            file.name,
            l,
            c,
            sev_word(d.severity),
            d.message,
            d.code.as_str()
        ));
        for lab in d.labels.iter().filter(|l| !l.primary) {
            let (l, c) = file.line_col(lab.span.start.min(file.text.len()));
            out.push_str(&format!(
                "{}:{}:{}: note: {}\n",
                file.name, l, c, lab.message
            ));
        }
        if let Some(h) = &d.help {
            out.push_str(&format!("{}:{}:{}: note: {}\n", file.name, l, c, h));
        }
    }
    out
}

fn json(file: &SourceFile, diags: &[Diagnostic]) -> String {
    let items: Vec<serde_json::Value> = diags
        .iter()
        .map(|d| {
            let labels: Vec<serde_json::Value> = d
                .labels
                .iter()
                .map(|l| {
                    let (sl, sc) = file.line_col(l.span.start.min(file.text.len()));
                    let (el, ec) = file.line_col(l.span.end.min(file.text.len()));
                    serde_json::json!({
                        "start": l.span.start, "end": l.span.end,
                        "line": sl, "column": sc, "end_line": el, "end_column": ec,
                        "primary": l.primary, "message": l.message,
                    })
                })
                .collect();
            serde_json::json!({
                "file": file.name, "code": d.code, "severity": d.severity,
                "message": d.message, "labels": labels, "help": d.help, "notes": d.notes,
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&items).unwrap_or_else(|_| "[]".into());
    s.push('\n');
    s
}
