//! Rendering diagnostics for people (codespan-reporting), for tools that read
//! gcc's one-line format, and as JSON for editors.

use super::{Diagnostic, Severity};
use crate::source::{SourceFile, Span};
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Human,
    Gcc,
    Json,
    /// SARIF 2.1.0 (see `sarif.rs`).
    Sarif,
}

/// Renders `diags` in `format`. `color` applies to the human format only.
///
/// For a preprocessed input (a file with a line map) each diagnostic names
/// the original file and line: see [`mapped`].
pub fn render(file: &SourceFile, diags: &[Diagnostic], format: Format, color: bool) -> String {
    if format == Format::Sarif {
        let json = render(file, diags, Format::Json, false);
        let items: Vec<serde_json::Value> = serde_json::from_str(&json).unwrap_or_default();
        return super::sarif::from_json(&items);
    }
    if file.origins().is_some() {
        return mapped(file, diags, format, color);
    }
    render_plain(file, diags, format, color)
}

fn render_plain(file: &SourceFile, diags: &[Diagnostic], format: Format, color: bool) -> String {
    match format {
        Format::Human => human(file, diags, color),
        Format::Gcc => gcc(file, diags),
        Format::Json | Format::Sarif => json(file, diags),
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

/// One original file seen through a preprocessed text: a text whose line `l`
/// holds the preprocessed lines that came from line `l` of the file (joined
/// by a space when a macro expansion split one line into several), so the
/// renderers above show the original file name and line numbers.
struct View {
    file: SourceFile,
    /// Preprocessed line (1-based) -> offset of its text in `file`.
    starts: HashMap<usize, usize>,
    /// With the file's text as written: preprocessed line -> the span of
    /// its original line in `file` (then `starts` is unused).
    lines: Option<HashMap<usize, Span>>,
}

/// The view of `name` as written, when the map holds its text.
fn original_view(pre: &SourceFile, name: &str) -> Option<View> {
    let map = pre.origins()?;
    let text = map.original(name)?;
    let file = SourceFile::new(name, text.to_string());
    let lines = map
        .lines_of(name)
        .into_iter()
        .map(|(pl, ol)| {
            let s = file.line_start(ol.max(1)).min(text.len());
            let e = file.line_start(ol.max(1) + 1).min(text.len());
            let e = s + text[s..e].trim_end_matches(['\n', '\r']).len();
            (pl, Span::new(s, e))
        })
        .collect();
    Some(View {
        file,
        starts: HashMap::new(),
        lines: Some(lines),
    })
}

/// Offset in `orig` of column `col` (a byte offset) of `pre`, when the two
/// lines hold the same characters apart from whitespace (the preprocessor
/// re-spaces `#  pragma   omp`); None when a macro expansion changed it.
fn align(pre: &str, orig: &str, col: usize) -> Option<usize> {
    let (p, o) = (pre.as_bytes(), orig.as_bytes());
    let (mut i, mut j) = (0, 0);
    loop {
        while i < col && i < p.len() && p[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= col {
            if i < p.len() && !p[i].is_ascii_whitespace() {
                while j < o.len() && o[j].is_ascii_whitespace() {
                    j += 1;
                }
            }
            return Some(j);
        }
        while j < o.len() && o[j].is_ascii_whitespace() {
            j += 1;
        }
        if i >= p.len() || j >= o.len() || p[i] != o[j] {
            return None;
        }
        i += 1;
        j += 1;
    }
}

fn view(pre: &SourceFile, name: &str) -> View {
    if let Some(v) = original_view(pre, name) {
        return v;
    }
    let lines = pre.origins().map(|m| m.lines_of(name)).unwrap_or_default();
    let max = lines.iter().map(|(_, l)| *l).max().unwrap_or(1).max(1);
    let mut rows: Vec<String> = vec![String::new(); max + 1];
    let mut at: Vec<(usize, usize, usize)> = Vec::new(); // (pre line, row, offset in row)
    for (pl, ol) in lines {
        let row = ol.max(1);
        let text = pre_line(pre, pl);
        if !rows[row].is_empty() {
            rows[row].push(' ');
        }
        at.push((pl, row, rows[row].len()));
        rows[row].push_str(text);
    }
    let mut row_start = vec![0usize; max + 2];
    let mut text = String::new();
    for (r, row) in rows.iter().enumerate().skip(1) {
        row_start[r] = text.len();
        text.push_str(row);
        text.push('\n');
    }
    let starts = at
        .into_iter()
        .map(|(pl, row, off)| (pl, row_start[row] + off))
        .collect();
    View {
        file: SourceFile::new(name, text),
        starts,
        lines: None,
    }
}

/// Line `line` (1-based) of `f`, without its line end.
fn pre_line(f: &SourceFile, line: usize) -> &str {
    let s = f.line_start(line);
    let e = f.line_start(line + 1).min(f.text.len());
    f.text
        .get(s..e)
        .unwrap_or("")
        .trim_end_matches(['\n', '\r'])
}

impl View {
    fn offset(&self, pre: &SourceFile, off: usize) -> Option<usize> {
        let off = off.min(pre.text.len());
        let line = pre.line_of(off);
        let col = off - pre.line_start(line);
        if let Some(lines) = &self.lines {
            let l = lines.get(&line)?;
            let orig = &self.file.text[l.start..l.end];
            let at = align(pre_line(pre, line), orig, col).unwrap_or(col.min(orig.len()));
            return Some(l.start + at);
        }
        self.starts
            .get(&line)
            .map(|s| s + col.min(pre_line(pre, line).len()))
    }

    fn span(&self, pre: &SourceFile, s: Span) -> Option<Span> {
        let start = self.offset(pre, s.start)?;
        let end = self
            .offset(pre, s.end)
            .filter(|e| *e >= start)
            .unwrap_or(start);
        Some(Span::new(start, end))
    }
}

/// Renders each diagnostic against the view of its primary label's original
/// file; a secondary label in another file becomes a note naming its place.
fn mapped(pre: &SourceFile, diags: &[Diagnostic], format: Format, color: bool) -> String {
    let mut views: HashMap<String, View> = HashMap::new();
    let mut out = String::new();
    let mut json: Vec<serde_json::Value> = Vec::new();
    for d in diags {
        let name = pre.origin(d.primary_span().start).0.to_string();
        let v = views
            .entry(name.clone())
            .or_insert_with(|| view(pre, &name));
        let mut m = d.clone();
        m.labels.clear();
        for l in &d.labels {
            match v.span(pre, l.span) {
                Some(s) => {
                    let mut l = l.clone();
                    l.span = s;
                    m.labels.push(l);
                }
                None => {
                    let (f, line) = pre.origin(l.span.start);
                    m.notes.push(format!("{f}:{line}: {}", l.message));
                }
            }
        }
        let text = render_plain(&v.file, std::slice::from_ref(&m), format, color);
        if format == Format::Json {
            if let Ok(serde_json::Value::Array(items)) = serde_json::from_str(&text) {
                json.extend(items);
            }
        } else {
            out.push_str(&text);
        }
    }
    if format == Format::Json {
        out = serde_json::to_string_pretty(&json).unwrap_or_else(|_| "[]".into());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::codes;
    use crate::source::linemap::unmark;

    #[test]
    fn preprocessed_input_names_original_places() {
        let cpp = "# 1 \"m.c\"\nint a;\n# 1 \"inc/h.h\" 1\nint h;\n# 3 \"m.c\" 2\nint main(void) {\n# 9 \"m.c\"\n#pragma omp bogus\n}\n";
        let u = unmark(cpp, "m.c", |_, _| None);
        let f = SourceFile::with_origins("m.c", u.text.clone(), u.map);
        let p = f.text.find("bogus").unwrap();
        let h = f.text.find("int h").unwrap();
        let d = Diagnostic::new(codes::UNKNOWN_DIRECTIVE, Span::new(p, p + 5), "unknown")
            .with_label("here")
            .with_secondary(Span::new(h, h + 5), "header");
        let g = render(&f, std::slice::from_ref(&d), Format::Gcc, false);
        assert!(g.starts_with("m.c:9:13: error: unknown [E0102]\n"), "{g}");
        let j = render(&f, &[d.clone(), d.clone()], Format::Json, false);
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v.as_array().unwrap().len(), 2);
        assert_eq!(v[0]["labels"][0]["line"], 9);
        assert_eq!(v[0]["notes"][0], "inc/h.h:1: header");
        let h = render(&f, &[d], Format::Human, false);
        assert!(h.contains("m.c:9:13"), "{h}");
        assert!(h.contains("9 │ #pragma omp bogus"), "{h}");
    }
}
