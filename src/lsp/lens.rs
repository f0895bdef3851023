//! A code lens above every offload pragma; its command asks the client to
//! show the region's lowered code (`pragma2cuda.showLowered` with the
//! document URI and the pragma's position).
//!
//! The lenses of a document are written as JSON text directly (kept by
//! `documents` until the next analysis): a file with 1,000 regions answers
//! with about 250 kB, and building `lsp_types` values and serialising them
//! cost more than the lenses themselves. The test below holds the text to
//! what `lsp_types::CodeLens` serialises to.

use super::text::Lines;
use crate::EditorSession;
use lsp_types::{Position, Url};
use std::fmt::Write;

/// The code lenses of `s` (the analysis of `text`, at `uri`), a JSON array
/// of `CodeLens`.
pub fn lenses_json(uri: &Url, text: &str, lines: &Lines, s: &EditorSession) -> String {
    let uri = json_string(uri.as_str());
    let command = json_string(super::SHOW_LOWERED);
    let mut out = String::with_capacity(64 + 256 * s.regions().count());
    out.push('[');
    for (i, r) in s.regions().enumerate() {
        let range = lines.range(text, r.pragma.start, r.pragma.end);
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"range\":{\"start\":");
        position(&mut out, range.start);
        out.push_str(",\"end\":");
        position(&mut out, range.end);
        out.push_str("},\"command\":{\"title\":");
        out.push_str(&json_string(&super::hover::title(r)));
        out.push_str(",\"command\":");
        out.push_str(&command);
        out.push_str(",\"arguments\":[");
        out.push_str(&uri);
        out.push(',');
        position(&mut out, range.start);
        out.push_str("]}}");
    }
    out.push(']');
    out
}

fn position(out: &mut String, p: Position) {
    let _ = write!(out, "{{\"line\":{},\"character\":{}}}", p.line, p.character);
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;
    use lsp_types::{CodeLens, Command};

    /// The lenses as `lsp_types` values (what the text must parse to).
    fn typed(uri: &Url, text: &str, lines: &Lines, s: &EditorSession) -> Vec<CodeLens> {
        s.regions()
            .map(|r| {
                let range = lines.range(text, r.pragma.start, r.pragma.end);
                CodeLens {
                    range,
                    command: Some(Command {
                        title: super::super::hover::title(r),
                        command: super::super::SHOW_LOWERED.into(),
                        arguments: Some(vec![
                            serde_json::json!(uri),
                            serde_json::json!(range.start),
                        ]),
                    }),
                    data: None,
                }
            })
            .collect()
    }

    /// The text is the JSON of the typed lenses, on a file with regions
    /// of both models, a generic-mode region, a reduction, non-ASCII
    /// text before a pragma (UTF-16 columns) and a URI that needs escapes
    /// in no JSON but percent-encoding in the URI.
    #[test]
    fn lens_text_is_the_json_of_the_typed_lenses() {
        let text = "/* \u{e9}t\u{e9} \u{1f600} */ int a[8];\nint main(void)\n{\n    int s = 0;\n  #pragma omp target teams distribute parallel for map(tofrom: a) reduction(+: s)\n    for (int i = 0; i < 8; i++) { a[i] = i; s += i; }\n/*\u{e9}*/ #pragma acc parallel loop copy(a)\n    for (int i = 0; i < 8; i++) a[i] += 1;\n#pragma omp target teams map(tofrom: a)\n    {\n        a[0] = 1;\n#pragma omp parallel for\n        for (int i = 0; i < 8; i++) a[i] += 2;\n    }\n    return s;\n}\n";
        let s = EditorSession::new(SourceFile::new("t.c", text));
        assert!(s.regions().count() >= 3, "{:?}", s.diagnostics());
        let uri = Url::parse("file:///tmp/a%20b/%C3%A9t%C3%A9.c").unwrap();
        let lines = Lines::new(text);
        let fast = lenses_json(&uri, text, &lines, &s);
        // As values: the typed lenses' arguments went through a `Value`,
        // whose objects order their keys (`character` before `line`).
        let parsed: serde_json::Value = serde_json::from_str(&fast).unwrap();
        let slow = serde_json::to_value(typed(&uri, text, &lines, &s)).unwrap();
        assert_eq!(parsed, slow);
        assert!(fast.contains("\"character\":2}"), "{fast}");
        // After `/*é*/ `: six UTF-16 units, seven bytes.
        assert!(fast.contains("\"character\":6}"), "{fast}");
    }
}
