//! The functions an offloaded region calls, and whether each can run on the
//! device.
//!
//! OpenMP 5.2 (declare target, implicit) and OpenACC 3.3 (routine, implicit
//! in the same compilation unit) both let a region call a function defined in
//! the same file: the compiler makes a device version of it. pragma2cuda does
//! the same: every function defined in this file and reached from a region,
//! directly or through other such functions, becomes `__host__ __device__`.
//! A call the device cannot make is a located error, never a file nvcc
//! rejects: a function with no definition in the file (unless the CUDA
//! device library provides it, see [`device_lib`](super::device_lib)), a call
//! through a function pointer, or a device function that uses a file-scope
//! variable with no device copy (one not named by `declare target`).

use super::device_lib;
use super::symbols::{declared_by, Storage, Symbol};
use super::uses;
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::source::Span;
use std::collections::{BTreeMap, BTreeSet};

/// A function of the file: where each of its declarations starts (the
/// prototypes and the definition), and its body.
#[derive(Clone, Debug)]
pub struct FileFunction {
    pub name: String,
    /// Start offsets of every top-level declaration of the name, in order.
    pub decl_starts: Vec<usize>,
    /// The definition's body, when the file defines it.
    pub body: Option<Span>,
    /// The definition's name, for labels.
    pub name_span: Span,
}

/// Every function declared at file scope, by name.
pub fn file_functions(root: Node<'_>, text: &str) -> BTreeMap<String, FileFunction> {
    let mut out: BTreeMap<String, FileFunction> = BTreeMap::new();
    let mut c = root.walk();
    for item in root.children(&mut c) {
        let (syms, body) = match item.kind_name() {
            "function_definition" => {
                let mut syms = Vec::new();
                declared_by(item, text, Storage::Global, &mut syms);
                let body = item
                    .field("body")
                    .map(|b| Span::new(b.start_byte(), b.end_byte()));
                (syms, body)
            }
            "declaration" => {
                let mut syms = Vec::new();
                declared_by(item, text, Storage::Global, &mut syms);
                (syms, None)
            }
            _ => continue,
        };
        for s in syms
            .into_iter()
            .filter(|s| s.ty.is_function() && !s.is_typedef)
        {
            let f = out.entry(s.name.clone()).or_insert_with(|| FileFunction {
                name: s.name.clone(),
                decl_starts: Vec::new(),
                body: None,
                name_span: s.span,
            });
            if !f.decl_starts.contains(&item.start_byte()) {
                f.decl_starts.push(item.start_byte());
            }
            if body.is_some() {
                f.body = body;
                f.name_span = s.span;
            }
        }
    }
    out
}

fn node_at(root: Node<'_>, span: Span) -> Option<Node<'_>> {
    root.descendant_for_byte_range(span.start, span.end)
        .and_then(|mut n| loop {
            if n.start_byte() == span.start && n.end_byte() == span.end {
                return Some(n);
            }
            n = n.parent()?;
        })
}

/// The device functions reached from the regions' calls: the functions of
/// this file to compile for the device too. Calls that cannot run there are
/// reported. `visible` resolves a name at the call site (to tell a function
/// pointer from a function).
pub fn device_functions(
    root: Node<'_>,
    text: &str,
    calls: &[(String, Span)],
    visible: &dyn Fn(&str, Span) -> Option<Symbol>,
    device_vars: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<FileFunction> {
    let funcs = file_functions(root, text);
    let mut reached: BTreeSet<String> = BTreeSet::new();
    // (callee, call site, the region's call that leads there, the function
    // the call is in when it is not the region itself)
    let mut work: Vec<(String, Span, Span, Option<String>)> = calls
        .iter()
        .map(|(n, at)| (n.clone(), *at, *at, None))
        .collect();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    while let Some((name, at, origin, caller)) = work.pop() {
        if reached.contains(&name) {
            continue;
        }
        if let Some(sym) = visible(&name, at) {
            if !sym.ty.is_function() {
                if reported.insert(name.clone()) {
                    diags.push(
                        Diagnostic::new(
                            codes::NOT_SUPPORTED,
                            at,
                            format!("calling `{name}` through a function pointer in an offloaded region is not supported yet"),
                        )
                        .with_label("call through a pointer")
                        .with_secondary(sym.span, "declared here"),
                    );
                }
                continue;
            }
        }
        match funcs.get(&name) {
            Some(f) if f.body.is_some() => {
                reached.insert(name.clone());
                let Some(body) = f.body.and_then(|b| node_at(root, b)) else {
                    continue;
                };
                let (used, inner) = uses::free_identifiers(body, text);
                // The body's own names are its parameters and locals; what
                // remains free is file scope.
                let params = params_of(root, text, f);
                for u in used {
                    if params.contains(&u.name) || funcs.contains_key(&u.name) {
                        continue;
                    }
                    if let Some(sym) = visible(&u.name, u.span) {
                        if sym.storage == Storage::Global
                            && !sym.ty.is_function()
                            && !sym.is_typedef
                            && !device_vars.contains(&u.name)
                        {
                            diags.push(
                                Diagnostic::new(
                                    codes::GLOBAL_NOT_ON_DEVICE,
                                    origin,
                                    format!(
                                        "`{}` uses the file-scope variable `{}` on the device, which has no device copy",
                                        f.name, u.name
                                    ),
                                )
                                .with_label("called on the device")
                                .with_secondary(u.span, "file-scope variable used here")
                                .with_secondary(sym.span, "declared here")
                                .with_help(format!(
                                    "name it in `#pragma omp declare target({})` (or `#pragma acc declare create({})`), or pass the value as a parameter",
                                    u.name, u.name
                                )),
                            );
                        }
                    }
                }
                work.extend(
                    inner
                        .into_iter()
                        .map(|(n, site)| (n, site, origin, Some(f.name.clone()))),
                );
            }
            _ if device_lib::is_device_callable(&name) => {}
            _ => {
                if reported.insert(name.clone()) {
                    let mut d = match &caller {
                        None => Diagnostic::new(
                            codes::CALL_NOT_ON_DEVICE,
                            at,
                            format!("`{name}` is called in an offloaded region but has no definition in this file, so it cannot run on the device"),
                        )
                        .with_label("called on the device"),
                        Some(via) => Diagnostic::new(
                            codes::CALL_NOT_ON_DEVICE,
                            origin,
                            format!("`{via}` calls `{name}`, which has no definition in this file, so it cannot run on the device"),
                        )
                        .with_label("called on the device")
                        .with_secondary(at, format!("`{name}` called here")),
                    };
                    if let Some(f) = funcs.get(&name) {
                        d = d.with_secondary(f.name_span, "declared here, defined elsewhere");
                    }
                    diags.push(d.with_help(
                        "define the function in this file (it is then compiled for the device too)",
                    ));
                }
            }
        }
    }
    reached
        .iter()
        .filter_map(|n| funcs.get(n).cloned())
        .collect()
}

/// The parameter names of `f`'s definition.
fn params_of(root: Node<'_>, text: &str, f: &FileFunction) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let Some(body) = f.body.and_then(|b| node_at(root, b)) else {
        return out;
    };
    let Some(def) = body.parent() else {
        return out;
    };
    let mut stack = vec![def.field("declarator")];
    while let Some(Some(n)) = stack.pop() {
        if n.kind_name() == "parameter_declaration" {
            let mut syms = Vec::new();
            declared_by(n, text, Storage::Param, &mut syms);
            out.extend(syms.into_iter().map(|s| s.name));
            continue;
        }
        let mut c = n.walk();
        for ch in n.named_children(&mut c) {
            stack.push(Some(ch));
        }
    }
    out
}
