//! OpenMP `metadirective` in host code, resolved at translation time: the
//! directive whose context selector matches replaces it, so the pipeline
//! lowers (or passes through) that variant as if it were written. The
//! metadirective stands in host code (no construct of the file encloses
//! it), where the selectors this resolver knows are static:
//! - `device={kind(k, ...)}`: the device that runs the code, the host
//!   (`host`, `cpu`, `any` match; `nohost`, `gpu`, `fpga` do not);
//! - `target_device={kind(k, ...)}` (5.1): the default device, the GPU
//!   (`gpu`, `nohost`, `any` match; `host`, `cpu`, `fpga` do not).
//!
//! Every other selector (`arch`, `isa`, `device_num`, `vendor`,
//! `condition`, `construct`, scores) is refused with a located E0901, as
//! is a metadirective where two matching variants differ (OpenMP ranks them
//! by score) or a metadirective nested in a construct (its context is not
//! the host's alone). `nothing`, or no directive, is the empty variant.

use super::attach::Attached;
use crate::diag::{codes, Diagnostic};
use crate::directives::ast::{Directive, Model};
use crate::source::{SourceFile, Span};

/// A metadirective replaced by its variant.
#[derive(Clone, Debug)]
pub struct Resolved {
    pub pragma: Span,
    /// The metadirective on one line.
    pub text: String,
    /// The selected variant (`omp` and the directive), on one line.
    pub variant: String,
}

/// Replaces each resolvable host metadirective in `attached` by its variant
/// (the pragma's span kept).
pub fn resolve(
    file: &SourceFile,
    attached: &mut [Attached],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Resolved> {
    let mut out = Vec::new();
    for k in 0..attached.len() {
        let d = &attached[k].directive;
        if d.model != Model::Omp || d.name != "metadirective" {
            continue;
        }
        if nested(attached, k) {
            continue;
        }
        match variant(file, d) {
            Ok((v, variant)) => {
                let text = crate::source::pragma_text::pragma_one_line(file.slice(d.span));
                out.push(Resolved {
                    pragma: d.span,
                    text,
                    variant,
                });
                attached[k].directive = v;
            }
            Err((at, why)) => diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    at,
                    format!("`omp metadirective` with {why} is not supported yet"),
                )
                .with_label("not resolved at translation time")
                .with_note("resolved: device={kind(...)} (the host) and target_device={kind(...)} (the GPU) in host code"),
            ),
        }
    }
    out
}

/// Whether another directive's construct encloses directive `k`.
fn nested(attached: &[Attached], k: usize) -> bool {
    let at = attached[k].directive.span;
    attached.iter().enumerate().any(|(j, o)| {
        j != k
            && o.stmt.is_some_and(|s| {
                o.directive.span.start < at.start && at.end <= s.end && s.start <= at.start
            })
    })
}

type Refusal = (Span, String);

/// The selected variant as a directive spanning the metadirective's pragma,
/// and its text.
fn variant(file: &SourceFile, d: &Directive) -> Result<(Directive, String), Refusal> {
    if !file.slice(d.span).trim_start().starts_with('#') {
        return Err((d.name_span, "a `_Pragma` spelling".into()));
    }
    let mut chosen: Option<(Span, String)> = None;
    let mut fallback: Option<Span> = None;
    for c in &d.clauses {
        let Some(e) = arg_span(file, c) else {
            return Err((c.span, format!("clause `{}` without an argument", c.name)));
        };
        match c.name.as_str() {
            "when" => {
                let (sel, body) = split_selector(file, e)
                    .ok_or_else(|| (c.span, "a `when` clause it cannot read".to_string()))?;
                if matches(file.slice(sel)).map_err(|why| (c.span, why))? {
                    let text = norm(file.slice(body));
                    match &chosen {
                        Some((_, t)) if *t != text => {
                            return Err((c.span, "two matching variants that differ".into()))
                        }
                        Some(_) => {}
                        None => chosen = Some((body, text)),
                    }
                }
            }
            "default" | "otherwise" => fallback = Some(e),
            other => return Err((c.span, format!("clause `{other}`"))),
        }
    }
    let body = match (chosen, fallback) {
        (Some((b, _)), _) => Some(b),
        (None, f) => f,
    };
    let (mut v, text) = match body.filter(|b| !norm(file.slice(*b)).is_empty()) {
        Some(b) => (
            parse_variant(file, b)
                .ok_or_else(|| (d.name_span, "a variant it cannot parse".to_string()))?,
            format!("omp {}", norm(file.slice(b))),
        ),
        None => (nothing(d), "omp nothing".to_string()),
    };
    v.span = d.span;
    Ok((v, text))
}

/// Between the parentheses of a clause.
fn arg_span(file: &SourceFile, c: &crate::directives::ast::Clause) -> Option<Span> {
    let text = file.slice(Span::new(c.name_span.end, c.span.end));
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    (open < close).then(|| Span::new(c.name_span.end + open + 1, c.name_span.end + close))
}

fn norm(s: &str) -> String {
    s.replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `nothing` directive in place of `d`.
fn nothing(d: &Directive) -> Directive {
    Directive {
        model: Model::Omp,
        name: "nothing".into(),
        name_span: d.name_span,
        clauses: Vec::new(),
        span: d.span,
        arg: None,
    }
}

/// (selector, variant) of a `when` argument: split at the first `:` outside
/// braces and parentheses.
fn split_selector(file: &SourceFile, arg: Span) -> Option<(Span, Span)> {
    let text = file.slice(arg);
    let mut depth = 0i32;
    for (i, ch) in text.char_indices() {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            ':' if depth == 0 => {
                let cut = arg.start + i;
                return Some((Span::new(arg.start, cut), Span::new(cut + 1, arg.end)));
            }
            _ => {}
        }
    }
    None
}

/// The variant's directive, its offsets those of the file.
fn parse_variant(file: &SourceFile, body: Span) -> Option<Directive> {
    let text = file.slice(body);
    let lead = text.len() - text.trim_start().len();
    let start = body.start + lead;
    if start < 4 {
        return None;
    }
    let mut src = " ".repeat(start - 4);
    src.push_str("omp ");
    src.push_str(&file.text[start..body.end]);
    let (d, ds) = crate::directives::parse_pragma(&src, Span::new(start - 4, body.end));
    if ds.iter().any(Diagnostic::is_error) {
        return None;
    }
    d.filter(|d| d.model == Model::Omp && d.name != "metadirective")
}

/// Whether a context selector holds in host code; `Err` names what this
/// resolver does not evaluate.
fn matches(sel: &str) -> Result<bool, String> {
    let sel = norm(sel);
    let mut all = true;
    for set in split_top(&sel, ',') {
        let (name, traits) = set
            .split_once('=')
            .ok_or_else(|| format!("the selector `{set}`"))?;
        let name = name.trim();
        let traits = traits.trim();
        let inner = traits
            .strip_prefix('{')
            .and_then(|t| t.strip_suffix('}'))
            .ok_or_else(|| format!("the selector `{set}`"))?;
        let host_site = match name {
            "device" => true,
            "target_device" => false,
            _ => return Err(format!("the `{name}` selector set")),
        };
        for t in split_top(inner, ',') {
            let t = t.trim();
            let kinds = t
                .strip_prefix("kind")
                .map(str::trim)
                .and_then(|t| t.strip_prefix('('))
                .and_then(|t| t.strip_suffix(')'))
                .ok_or_else(|| format!("the trait `{t}` in `{name}`"))?;
            for k in kinds.split(',').map(str::trim) {
                let on_host = match k {
                    "any" => true,
                    "host" | "cpu" => host_site,
                    "nohost" | "gpu" => !host_site,
                    "fpga" => false,
                    _ => return Err(format!("the device kind `{k}`")),
                };
                all &= on_host;
            }
        }
    }
    Ok(all)
}

/// `s` split at `sep` outside braces and parentheses.
fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut from) = (0i32, 0);
    for (i, ch) in s.char_indices() {
        match ch {
            '{' | '(' => depth += 1,
            '}' | ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[from..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_resolve_for_the_host_and_the_gpu() {
        assert_eq!(matches("device = {kind(nohost)}"), Ok(false));
        assert_eq!(matches("device={kind(host)}"), Ok(true));
        assert_eq!(matches("target_device={kind(gpu)}"), Ok(true));
        assert_eq!(matches("target_device={kind(host, cpu)}"), Ok(false));
        assert_eq!(
            matches("device={kind(any)}, target_device={kind(nohost)}"),
            Ok(true)
        );
        assert!(matches("device={arch(nvptx)}").is_err());
        assert!(matches("user={condition(n > 4)}").is_err());
    }
}
