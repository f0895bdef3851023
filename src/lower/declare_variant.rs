//! `omp declare variant` resolved at translation time: each direct call of
//! a base function names the variant whose context selector holds where
//! the call runs (the selectors of `front::metadirective`, with the
//! `construct` set: the OpenMP constructs enclosing the call, outermost
//! first, `target` first in a device function). In an offloaded region or
//! a device function the call names `P2C_DEVICE_OR_HOST(device, host)`
//! when the GPU and the host select differently; in host code the host's
//! variant. A selector that cannot be decided, two matching variants that
//! differ (OpenMP ranks them by score), `adjust_args` / `append_args`, or
//! a variant for the device that is not a device function: E0901.

use crate::diag::{codes, Diagnostic};
use crate::directives::ast::{Directive, Model};
use crate::front::metadirective::{arg_span, selector_holds};
use crate::front::{Attached, CTree};
use crate::ir::declare::DeclarePlan;
use crate::ir::edit::Edit;
use crate::ir::region::Region;
use crate::source::{SourceFile, Span};
use crate::valid::spec;
use std::collections::BTreeMap;

/// Whether `d` is `omp declare variant`.
pub fn is_declare_variant(d: &Directive) -> bool {
    d.model == Model::Omp && d.name == "declare variant"
}

/// A variant: its function and the selector of its `match` clause.
struct Variant {
    name: String,
    selector: Span,
}

/// The edits of every declare variant in the file: each pragma as a
/// comment, each call of a base function renamed.
pub fn edits(
    file: &SourceFile,
    tree: &CTree,
    attached: &[Attached],
    regions: &[Region],
    declare: &DeclarePlan,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Edit> {
    let mut out = Vec::new();
    let Some(root) = tree.root() else {
        return out;
    };
    let mut bases: BTreeMap<String, Vec<Variant>> = BTreeMap::new();
    for at in attached.iter().filter(|a| is_declare_variant(&a.directive)) {
        let d = &at.directive;
        match read(file, root, d) {
            Ok((base, v)) => {
                let one_line = crate::source::pragma_text::pragma_one_line(file.slice(d.span));
                out.push(Edit::replace(
                    d.span,
                    format!("/* pragma2cuda: `{one_line}` (resolved at each call of `{base}`) */"),
                ));
                bases.entry(base).or_default().push(v);
            }
            Err((at, why)) => diags.push(refusal(at, &why)),
        }
    }
    if bases.is_empty() {
        return out;
    }
    let mut calls = Vec::new();
    find_calls(root, file.text.as_str(), &bases, &mut calls);
    for (base, at) in calls {
        let in_region = regions
            .iter()
            .any(|r| r.stmt.start <= at.start && at.end <= r.stmt.end);
        let in_fn = declare.fns.iter().any(|f| {
            f.body
                .is_some_and(|b| b.start <= at.start && at.end <= b.end)
        });
        let lexical: Vec<&str> = attached
            .iter()
            // Constructs only: a declarative directive's "statement" (the
            // code after `end declare target`) encloses nothing.
            .filter(|a| a.directive.model == Model::Omp && spec::has_block(&a.directive))
            .filter(|a| {
                a.stmt
                    .is_some_and(|s| s.start <= at.start && at.end <= s.end)
            })
            .flat_map(|a| a.directive.words())
            .collect();
        let variants = &bases[&base];
        let host = match choose(file, &base, variants, false, &lexical) {
            Ok(h) => h,
            Err(why) => {
                diags.push(refusal(at, &why));
                continue;
            }
        };
        let text = if in_region || in_fn {
            let mut set = lexical.clone();
            if !in_region {
                set.insert(0, "target");
            }
            let dev = match choose(file, &base, variants, true, &set) {
                Ok(d) => d,
                Err(why) => {
                    diags.push(refusal(at, &why));
                    continue;
                }
            };
            if dev != base && !declare.fns.iter().any(|f| f.name == dev) {
                diags.push(refusal(
                    at,
                    &format!("the variant `{dev}`, which is not a device function, on the device"),
                ));
                continue;
            }
            if dev == host {
                host
            } else {
                format!("P2C_DEVICE_OR_HOST({dev}, {host})")
            }
        } else {
            host
        };
        if text != base {
            out.push(Edit::replace(at, text));
        }
    }
    out
}

fn refusal(at: Span, why: &str) -> Diagnostic {
    Diagnostic::new(
        codes::NOT_SUPPORTED,
        at,
        format!("`omp declare variant` with {why} is not supported yet"),
    )
    .with_label("not resolved at translation time")
    .with_note("resolved: the device, implementation and user selectors of `omp metadirective`, and `construct={target, teams, parallel, for}`")
}

/// The base function a declare variant pragma precedes, and its variant.
fn read(
    file: &SourceFile,
    root: crate::front::c::Node<'_>,
    d: &Directive,
) -> Result<(String, Variant), (Span, String)> {
    if let Some(c) = d.clauses.iter().find(|c| c.name != "match") {
        return Err((c.span, format!("the clause `{}`", c.name)));
    }
    let name = d
        .arg
        .as_ref()
        .map(|a| file.slice(a.span).trim_matches(['(', ')', ' ']).to_string())
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .ok_or((
            d.name_span,
            "a variant that is not a function name".to_string(),
        ))?;
    let selector = d
        .clause("match")
        .and_then(|c| arg_span(file, c))
        .ok_or((d.name_span, "no `match` clause".to_string()))?;
    let mut cur = root.walk();
    let next = root
        .named_children(&mut cur)
        .find(|n| n.start_byte() >= d.span.end && n.kind() != "comment");
    let base = next
        .filter(|n| matches!(n.kind(), "function_definition" | "declaration"))
        .and_then(|n| declarator_name(n, file.text.as_str()))
        .ok_or((d.name_span, "no function declaration after it".to_string()))?;
    Ok((base, Variant { name, selector }))
}

/// The name a function's declarator declares.
fn declarator_name(n: crate::front::c::Node<'_>, text: &str) -> Option<String> {
    let mut d = n.child_by_field_name("declarator")?;
    if d.kind() != "function_declarator" {
        while d.kind() != "function_declarator" {
            d = d.child_by_field_name("declarator")?;
        }
    }
    let id = d.child_by_field_name("declarator")?;
    (id.kind() == "identifier").then(|| text[id.byte_range()].to_string())
}

/// The direct calls of the base functions: (base, the callee's span).
fn find_calls(
    n: crate::front::c::Node<'_>,
    text: &str,
    bases: &BTreeMap<String, Vec<Variant>>,
    out: &mut Vec<(String, Span)>,
) {
    if n.kind() == "call_expression" {
        if let Some(f) = n
            .child_by_field_name("function")
            .filter(|f| f.kind() == "identifier")
        {
            let name = &text[f.byte_range()];
            if bases.contains_key(name) {
                out.push((name.to_string(), Span::new(f.start_byte(), f.end_byte())));
            }
        }
    }
    let mut cur = n.walk();
    for c in n.children(&mut cur) {
        find_calls(c, text, bases, out);
    }
}

/// The function a call of `base` names where the selectors see the device
/// (`on_device`) and the constructs `set`.
fn choose(
    file: &SourceFile,
    base: &str,
    variants: &[Variant],
    on_device: bool,
    set: &[&str],
) -> Result<String, String> {
    let mut chosen: Option<&str> = None;
    for v in variants {
        let holds = selector_holds(file.slice(v.selector), on_device, Some(set))?;
        match holds {
            Ok(false) => {}
            Ok(true) => match chosen {
                Some(c) if c != v.name => {
                    return Err(format!("two matching variants (`{c}`, `{}`)", v.name))
                }
                _ => chosen = Some(&v.name),
            },
            Err(why) => return Err(why),
        }
    }
    Ok(chosen.unwrap_or(base).to_string())
}
