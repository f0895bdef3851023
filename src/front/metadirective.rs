//! OpenMP `metadirective` resolved at translation time: the directive
//! whose context selector matches replaces it, so the pipeline lowers (or
//! passes through) that variant as if it were written. A metadirective in
//! host code (no construct encloses it) runs on the host; one nested in an
//! offload construct (`target ...`) runs on the GPU, and the region's
//! lowering takes its variant over. The selectors this resolver knows:
//! - `device={kind(k, ...)}`: the device that runs the code (`host`, `cpu`
//!   match on the host, `nohost`, `gpu` on the GPU; `any` everywhere;
//!   `fpga` nowhere); `device={arch(a)}`: `nvptx` / `nvptx64` hold on the
//!   GPU only, `amdgcn` nowhere;
//! - `target_device={kind(k, ...)}` (5.1): the default device, the GPU;
//!   `target_device={device_num(n)}` alone (it only names the device the
//!   other traits would be about) holds;
//! - `implementation={vendor(v)}`: false for the vendors this translator is
//!   not (`amd`, `arm`, `bsc`, `cray`, `fujitsu`, `ibm`, `intel`, `nec`,
//!   `pgi`, `ti`);
//! - `user={condition(c)}` with an integer literal.
//!
//! A trait whose value depends on the compiler that builds the output
//! (`vendor(nvidia)`, `vendor(gnu)`, other `arch` names, `isa`) is
//! undecided: it is refused (E0901) only when it could change the variant
//! selected. Every other selector (`construct`, `condition` of a run-time
//! expression, `device_num` with other traits, scores) is refused with a
//! located E0901, as is a metadirective where two matching variants differ
//! (OpenMP ranks them by score) or a metadirective nested in a host
//! construct. `nothing`, or no directive, is the empty variant.

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
    /// Nested in an offload construct: the region's lowering takes the
    /// variant over.
    pub on_device: bool,
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
        // Nested in an offload construct, the code runs on the GPU; nested
        // in a host construct, it is not resolved (left for lowering to
        // refuse).
        let on_device = match enclosing(attached, k) {
            Enclosing::None => false,
            Enclosing::Offload => true,
            Enclosing::Host => continue,
        };
        match variant(file, d, on_device) {
            Ok((v, variant)) => {
                let text = crate::source::pragma_text::pragma_one_line(file.slice(d.span));
                out.push(Resolved {
                    pragma: d.span,
                    text,
                    variant,
                    on_device,
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

/// What encloses directive `k`.
enum Enclosing {
    None,
    /// An OpenMP construct that offloads its block (`target`, `target
    /// teams ...`, `target parallel ...`, `target simd`).
    Offload,
    /// Host constructs only.
    Host,
}

fn enclosing(attached: &[Attached], k: usize) -> Enclosing {
    let at = attached[k].directive.span;
    let mut out = Enclosing::None;
    for (j, o) in attached.iter().enumerate() {
        let encloses = j != k
            && o.stmt.is_some_and(|s| {
                o.directive.span.start < at.start && at.end <= s.end && s.start <= at.start
            });
        if !encloses {
            continue;
        }
        let n = o.directive.name.as_str();
        let offload = o.directive.model == Model::Omp
            && (n == "target"
                || n.starts_with("target teams")
                || n.starts_with("target parallel")
                || n == "target simd");
        if offload {
            return Enclosing::Offload;
        }
        out = Enclosing::Host;
    }
    out
}

type Refusal = (Span, String);

/// The selected variant as a directive spanning the metadirective's pragma,
/// and its text.
fn variant(
    file: &SourceFile,
    d: &Directive,
    on_device: bool,
) -> Result<(Directive, String), Refusal> {
    if !file.slice(d.span).trim_start().starts_with('#') {
        return Err((d.name_span, "a `_Pragma` spelling".into()));
    }
    let mut chosen: Option<(Span, String)> = None;
    // Variants whose selector may hold (a trait this resolver cannot
    // decide): the text of each, and what could not be decided.
    let mut maybe: Vec<(Span, String, String)> = Vec::new();
    let mut fallback: Option<Span> = None;
    for c in &d.clauses {
        let Some(e) = arg_span(file, c) else {
            return Err((c.span, format!("clause `{}` without an argument", c.name)));
        };
        match c.name.as_str() {
            "when" => {
                let (sel, body) = split_selector(file, e)
                    .ok_or_else(|| (c.span, "a `when` clause it cannot read".to_string()))?;
                let holds = matches(file.slice(sel), on_device).map_err(|why| (c.span, why))?;
                if let Err(why) = holds {
                    maybe.push((c.span, norm(file.slice(body)), why));
                    continue;
                }
                if holds == Ok(true) {
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
    // A selector it cannot decide matters unless a decided one selects
    // the same variant.
    if let Some((at, text, why)) = maybe
        .into_iter()
        .find(|(_, t, _)| chosen.as_ref().map_or(true, |(_, c)| c != t))
    {
        let _ = text;
        return Err((at, why));
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
pub(crate) fn arg_span(file: &SourceFile, c: &crate::directives::ast::Clause) -> Option<Span> {
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

/// Whether a context selector holds in host code (`on_device` false) or
/// in a target region (true): `Ok(Ok(b))` decided, `Ok(Err(what))` a trait
/// whose value this resolver cannot know (it matters only when it would
/// change the selected variant), `Err` a selector it does not evaluate.
fn matches(sel: &str, on_device: bool) -> Result<Result<bool, String>, String> {
    selector_holds(sel, on_device, None)
}

/// [`matches`] with the construct set of the context (`constructs`,
/// outermost first): a `construct={a, b}` selector holds when its
/// constructs appear in that order among them. Without `constructs`, the
/// `construct` selector set is refused.
pub(crate) fn selector_holds(
    sel: &str,
    on_device: bool,
    constructs: Option<&[&str]>,
) -> Result<Result<bool, String>, String> {
    let sel = norm(sel);
    let mut all: Result<bool, String> = Ok(true);
    let mut and = |v: Result<bool, String>| {
        all = match (&all, v) {
            (Ok(false), _) | (_, Ok(false)) => Ok(false),
            (Err(w), _) => Err(w.clone()),
            (Ok(true), v) => v,
        }
    };
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
        let list = split_top(inner, ',');
        if let ("construct", Some(set)) = (name, constructs) {
            and(Ok(construct_holds(&list, set)
                .map_err(|t| format!("the trait `{t}` in `construct`"))?));
            continue;
        }
        for t in &list {
            let t = t.trim();
            let (trait_name, args) = t
                .split_once('(')
                .and_then(|(n, a)| Some((n.trim(), a.trim().strip_suffix(')')?)))
                .ok_or_else(|| format!("the trait `{t}` in `{name}`"))?;
            if args.contains("score") {
                return Err(format!("the trait `{t}` in `{name}` (scores)"));
            }
            let undecided = || Err(format!("the trait `{t}` in `{name}`"));
            for a in split_top(args, ',')
                .into_iter()
                .map(|a| a.trim().trim_matches('"'))
            {
                let v = match (name, trait_name) {
                    ("device" | "target_device", "kind") => {
                        // The device that runs the code (`device`), the
                        // default device, the GPU (`target_device`).
                        let gpu = name == "target_device" || on_device;
                        match a {
                            "any" => Ok(true),
                            "host" | "cpu" => Ok(!gpu),
                            "nohost" | "gpu" => Ok(gpu),
                            "fpga" => Ok(false),
                            _ => return Err(format!("the device kind `{a}`")),
                        }
                    }
                    ("device" | "target_device", "arch") => {
                        let gpu = name == "target_device" || on_device;
                        match (a, gpu) {
                            ("nvptx" | "nvptx64", g) => Ok(g),
                            ("amdgcn", _) => Ok(false),
                            _ => undecided(),
                        }
                    }
                    ("device" | "target_device", "isa") => undecided(),
                    // Alone, `device_num` only names the device the other
                    // traits are about: the selector holds for any device.
                    ("target_device", "device_num") if list.len() == 1 => Ok(true),
                    ("implementation", "vendor") => match a {
                        "amd" | "arm" | "bsc" | "cray" | "fujitsu" | "ibm" | "intel" | "nec"
                        | "pgi" | "ti" => Ok(false),
                        _ => undecided(),
                    },
                    ("user", "condition") => match a.parse::<i64>() {
                        Ok(n) => Ok(n != 0),
                        Err(_) => return Err(format!("the trait `{t}` in `{name}`")),
                    },
                    ("device" | "target_device" | "implementation" | "user", _) => {
                        return Err(format!("the trait `{t}` in `{name}`"))
                    }
                    _ => return Err(format!("the `{name}` selector set")),
                };
                and(v);
            }
        }
    }
    Ok(all)
}

/// Whether the constructs of `list` appear in this order in `set`; `Err`
/// with a trait that has properties (`simd(...)`) or a name this resolver
/// does not know.
fn construct_holds<'t>(list: &[&'t str], set: &[&str]) -> Result<bool, &'t str> {
    let mut rest = set.iter();
    let mut all = true;
    for t in list {
        let t = t.trim();
        if !matches!(t, "target" | "teams" | "parallel" | "for") {
            return Err(t);
        }
        all &= rest.any(|c| c == &t);
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
        let host = |s: &str| matches(s, false);
        assert_eq!(host("device = {kind(nohost)}"), Ok(Ok(false)));
        assert_eq!(host("device={kind(host)}"), Ok(Ok(true)));
        assert_eq!(host("target_device={kind(gpu)}"), Ok(Ok(true)));
        assert_eq!(host("target_device={kind(host, cpu)}"), Ok(Ok(false)));
        assert_eq!(
            host("device={kind(any)}, target_device={kind(nohost)}"),
            Ok(Ok(true))
        );
        assert_eq!(host("device={arch(nvptx)}"), Ok(Ok(false)));
        assert!(host("user={condition(n > 4)}").is_err());
        assert_eq!(host("user={condition(1)}"), Ok(Ok(true)));
        assert!(host("device={isa(avx)}").unwrap().is_err());
        assert!(host("construct={parallel}").is_err());
        assert_eq!(host("target_device={device_num(dev)}"), Ok(Ok(true)));
        assert!(host("target_device={device_num(dev), kind(host)}").is_err());
    }

    #[test]
    fn in_a_target_region_the_device_is_the_gpu() {
        let dev = |s: &str| matches(s, true);
        assert_eq!(dev("device={kind(nohost)}"), Ok(Ok(true)));
        assert_eq!(dev("device={kind(host)}"), Ok(Ok(false)));
        assert_eq!(dev("device={arch(\"nvptx\")}"), Ok(Ok(true)));
        assert_eq!(dev("implementation={vendor(amd)}"), Ok(Ok(false)));
        assert!(dev("implementation={vendor(nvidia)}").unwrap().is_err());
        assert_eq!(
            dev("device={kind(host)}, implementation={vendor(nvidia)}"),
            Ok(Ok(false))
        );
    }
}
