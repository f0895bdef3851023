//! The library's diagnostics as LSP diagnostics (code, link to the
//! code's documentation, secondary labels as related information), and
//! the quick fixes of the ones whose help is a replacement
//! (`did you mean `map`?`).

use super::text::Lines;
use crate::diag::{self, Severity};
use lsp_types::{
    CodeAction, CodeActionKind, CodeDescription, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, Range, TextEdit, Url, WorkspaceEdit,
};
use std::collections::HashMap;

/// `d` on the document `uri` with text `text`.
pub fn to_lsp(uri: &Url, text: &str, lines: &Lines, d: &diag::Diagnostic) -> Diagnostic {
    let span = d.primary_span();
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|l| !l.primary)
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), lines.range(text, l.span.start, l.span.end)),
            message: l.message.clone(),
        })
        .collect();
    let mut message = d.message.clone();
    for extra in d.help.iter().chain(&d.notes) {
        message.push('\n');
        message.push_str(extra);
    }
    Diagnostic {
        range: lines.range(text, span.start, span.end),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        code_description: explain_uri(d.code.as_str()).map(|href| CodeDescription { href }),
        source: Some("pragma2cuda".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: Some(serde_json::json!({
            "explain": d.code.doc(),
            "replacement": replacement(text, d),
        })),
    }
}

/// `pragmacuda:explain/E0103`: the code's `--explain` text, which the
/// clients open as a virtual document (request `pragma2cuda/explain`).
pub fn explain_uri(code: &str) -> Option<Url> {
    Url::parse(&format!("{}:explain/{code}", super::SCHEME)).ok()
}

/// The `--explain` text of `code` (`None` for an unknown code).
pub fn explain(code: &str) -> Option<String> {
    let up = code.to_ascii_uppercase();
    diag::codes::ALL
        .iter()
        .find(|(c, _)| c.as_str() == up)
        .map(|(c, doc)| format!("{}: {doc}\n", c.as_str()))
}

/// The word that replaces the primary span when the help is
/// "did you mean `WORD`?" and the span is one word.
fn replacement(text: &str, d: &diag::Diagnostic) -> Option<String> {
    let help = d.help.as_deref()?;
    let word = help.strip_prefix("did you mean `")?.strip_suffix("`?")?;
    let s = d.primary_span();
    let old = text.get(s.start..s.end)?;
    let is_word =
        |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (is_word(word) && is_word(old) && old != word).then(|| word.to_string())
}

/// The quick fixes of the document's diagnostics (`to_lsp`'s, each with
/// its replacement in `data`) that touch `range`.
pub fn quick_fixes(uri: &Url, diags: &[Diagnostic], range: Range) -> Vec<CodeAction> {
    diags
        .iter()
        .filter(|d| d.range.start <= range.end && range.start <= d.range.end)
        .filter_map(|d| {
            let word = d.data.as_ref()?.get("replacement")?.as_str()?;
            Some(fix(uri, d, d.range, word))
        })
        .collect()
}

fn fix(uri: &Url, d: &Diagnostic, range: Range, word: &str) -> CodeAction {
    let mut changes = HashMap::new();
    changes.insert(uri.clone(), vec![TextEdit::new(range, word.to_string())]);
    CodeAction {
        title: format!("Replace with `{word}`"),
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        edit: Some(WorkspaceEdit {
            changes: Some(changes),
            ..WorkspaceEdit::default()
        }),
        is_preferred: Some(true),
        ..CodeAction::default()
    }
}
