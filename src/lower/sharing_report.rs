//! `--emit=sharing` and `--emit=sharing-json`: for every offloaded region
//! and every construct in it, each variable's data-sharing attribute, where
//! it lives on the GPU (a register, the team's shared-memory frame at an
//! offset, the team's frame in global memory, or the device copy of mapped
//! data), and the rule that decided it (explicit clause, predetermined, or
//! implicit, by OpenMP 5.2 / OpenACC 3.3), with source positions.

use crate::directives::Model;
use crate::directives::Section;
use crate::front::CTree;
use crate::ir::generic::{GenKind, Generic, RuleKind, ScopeVar, VarHome};
use crate::ir::staging::Home;
use crate::ir::Region;
use crate::sema::sharing::{Attr, MapKind, VarAttr};
use crate::source::{SourceFile, Span};
use serde::Serialize;
use std::fmt::Write;

#[derive(Serialize)]
pub struct Report {
    pub file: String,
    pub regions: Vec<RegionReport>,
}

#[derive(Serialize)]
pub struct RegionReport {
    pub kernel: String,
    pub directive: String,
    pub function: String,
    pub at: Pos,
    /// `spmd` (a loop construct: every thread runs the loop) or `generic`.
    pub mode: &'static str,
    pub shared_frame_bytes: u64,
    pub global_frame_bytes: u64,
    pub scopes: Vec<ScopeReport>,
}

#[derive(Serialize)]
pub struct ScopeReport {
    pub construct: String,
    pub at: Pos,
    pub variables: Vec<VarReport>,
}

#[derive(Serialize)]
pub struct VarReport {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub attribute: String,
    pub location: Location,
    pub rule: String,
    pub rule_kind: &'static str,
    pub spec: &'static str,
    pub at: Pos,
    pub declared: Option<Pos>,
}

#[derive(Serialize)]
pub struct Location {
    /// `register`, `shared` or `global`.
    pub kind: &'static str,
    pub offset: Option<u64>,
    pub bytes: Option<u64>,
    pub detail: String,
}

#[derive(Serialize, Clone, Copy)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
    pub start: usize,
    pub end: usize,
}

fn pos(file: &SourceFile, s: Span) -> Pos {
    let (line, column) = file.line_col(s.start);
    Pos {
        line,
        column,
        start: s.start,
        end: s.end,
    }
}

fn spec(model: Model) -> &'static str {
    match model {
        Model::Omp => "OpenMP 5.2",
        Model::Acc => "OpenACC 3.3",
    }
}

fn rule_kind(rule: &str) -> RuleKind {
    if rule.starts_with("explicit clause") {
        RuleKind::Explicit
    } else if rule.contains("predetermined") {
        RuleKind::Predetermined
    } else {
        RuleKind::Implicit
    }
}

fn map_word(model: Model, k: MapKind) -> &'static str {
    match (model, k) {
        (Model::Omp, k) => match k {
            MapKind::Alloc => "map(alloc)",
            MapKind::To => "map(to)",
            MapKind::From => "map(from)",
            MapKind::ToFrom => "map(tofrom)",
            MapKind::Present => "map(present)",
            MapKind::Attach => "map(tofrom: [:0]) attach",
        },
        (Model::Acc, k) => match k {
            MapKind::Alloc => "create",
            MapKind::To => "copyin",
            MapKind::From => "copyout",
            MapKind::ToFrom => "copy",
            MapKind::Present => "present",
            MapKind::Attach => "attach",
        },
    }
}

fn location(g: Option<&Generic>, h: &VarHome) -> Location {
    match h {
        VarHome::Register(d) => Location {
            kind: "register",
            offset: None,
            bytes: None,
            detail: d.to_string(),
        },
        VarHome::Copies(d) => Location {
            kind: "global",
            offset: None,
            bytes: None,
            detail: d.to_string(),
        },
        VarHome::Device => Location {
            kind: "global",
            offset: None,
            bytes: None,
            detail: "device copy".into(),
        },
        VarHome::DeviceZeroed => Location {
            kind: "global",
            offset: None,
            bytes: None,
            detail: "device copy, zero-filled when this entry allocates it".into(),
        },
        VarHome::Staged(i) => match g.and_then(|g| g.staged.get(*i)) {
            Some(s) => match s.home {
                Home::Shared(o) => Location {
                    kind: "shared",
                    offset: Some(o),
                    bytes: Some(s.layout.size),
                    detail: "the team's frame".into(),
                },
                Home::Global(o) => Location {
                    kind: "global",
                    offset: Some(o),
                    bytes: Some(s.layout.size),
                    detail: "the team's frame in global memory: over the shared-memory budget"
                        .into(),
                },
            },
            None => Location {
                kind: "register",
                offset: None,
                bytes: None,
                detail: String::new(),
            },
        },
    }
}

fn scope_var(file: &SourceFile, model: Model, g: Option<&Generic>, v: &ScopeVar) -> VarReport {
    VarReport {
        name: v.name.clone(),
        ty: v.ty.type_name(),
        attribute: v.attribute.clone(),
        location: location(g, &v.home),
        rule: v.rule.to_string(),
        rule_kind: v.kind.as_str(),
        spec: spec(model),
        at: pos(file, v.span),
        declared: v.decl.map(|d| pos(file, d)),
    }
}

/// The sharing report of every region (`tree`: the C tree, for the
/// variables declared inside loop bodies).
pub fn build(file: &SourceFile, tree: Option<&CTree>, regions: &[Region]) -> Report {
    Report {
        file: file.name.clone(),
        regions: regions
            .iter()
            .map(|r| region_report(file, tree, r))
            .collect(),
    }
}

/// One region: its own variables, then one scope per parallel region it forks.
fn region_report(file: &SourceFile, tree: Option<&CTree>, r: &Region) -> RegionReport {
    let g = r.generic.as_deref();
    let mut top: Vec<VarReport> = r.vars.iter().map(|v| region_var(file, r, v)).collect();
    match g {
        Some(g) => generic_privates(file, r, g, &mut top),
        None => loop_privates(file, tree, r, &mut top),
    }
    let mut scopes = vec![ScopeReport {
        construct: format!("{} {}", r.model.as_str(), r.construct),
        at: pos(file, r.pragma),
        variables: top,
    }];
    if let Some(g) = g {
        for f in &g.forks {
            scopes.push(ScopeReport {
                construct: format!(
                    "parallel region {}: {}",
                    f.id,
                    crate::source::pragma_text::pragma_one_line(file.slice(f.pragma))
                        .trim_start_matches("#pragma ")
                ),
                at: pos(file, f.pragma),
                variables: f
                    .vars
                    .iter()
                    .map(|v| scope_var(file, r.model, Some(g), v))
                    .collect(),
            });
        }
    }
    RegionReport {
        kernel: r.kernel.clone(),
        directive: format!("{} {}", r.model.as_str(), r.construct),
        function: r.function.clone(),
        at: pos(file, r.pragma),
        mode: if g.is_some() { "generic" } else { "spmd" },
        shared_frame_bytes: g.map(|g| g.shared_bytes).unwrap_or(0),
        global_frame_bytes: g.map(|g| g.global_bytes).unwrap_or(0),
        scopes,
    }
}

/// A variable the sharing rules decided for the region.
fn region_var(file: &SourceFile, r: &Region, v: &VarAttr) -> VarReport {
    let g = r.generic.as_deref();
    let staged = g.and_then(|g| {
        g.staged
            .iter()
            .position(|s| s.region_var && s.name == v.sym.name)
    });
    let home = var_home(r, v, staged, g);
    VarReport {
        name: v.sym.name.clone(),
        ty: v.sym.ty.type_name(),
        attribute: attribute_text(r, v),
        location: location(g, &home),
        rule: v.rule.to_string(),
        rule_kind: rule_kind(v.rule).as_str(),
        spec: spec(r.model),
        at: pos(file, v.span),
        declared: Some(pos(file, v.sym.span)),
    }
}

/// `[lower:length]` per section, as written.
fn sections_text(sections: &[Section]) -> String {
    sections
        .iter()
        .map(|s| {
            format!(
                "[{}:{}]",
                s.lower.as_ref().map(|e| e.text.as_str()).unwrap_or(""),
                s.length.as_ref().map(|e| e.text.as_str()).unwrap_or("")
            )
        })
        .collect()
}

/// The data-sharing attribute as a clause would spell it.
fn attribute_text(r: &Region, v: &VarAttr) -> String {
    match &v.attr {
        Attr::Private => "private".to_string(),
        Attr::Firstprivate => "firstprivate".to_string(),
        Attr::ArrayPrivate { first, .. } => {
            let text = r
                .array_privates
                .iter()
                .find(|a| a.var == v.sym.name)
                .map(|a| a.text.clone())
                .unwrap_or_else(|| v.sym.name.clone());
            if *first {
                format!("firstprivate({text})")
            } else {
                format!("private({text})")
            }
        }
        Attr::Mapped {
            kind,
            sections,
            mods,
        } => {
            let zero = if mods.zero { "(zero)" } else { "" };
            if mods.device_addr {
                return "has_device_addr".to_string();
            }
            format!(
                "{}{zero}{}",
                map_word(r.model, *kind),
                sections_text(sections)
            )
        }
        Attr::Reduction { op, map, .. } => match map {
            MapKind::ToFrom => format!("reduction({})", op.as_str()),
            _ => format!("reduction({}), {}", op.as_str(), map_word(r.model, *map)),
        },
        Attr::ArrayReduction { op, sections, .. } => {
            format!("reduction({}){}", op.as_str(), sections_text(sections))
        }
        Attr::Lastprivate { conditional: false } => "lastprivate".to_string(),
        Attr::Lastprivate { conditional: true } => "lastprivate(conditional)".to_string(),
    }
}

/// Where a region variable lives on the device.
fn var_home(r: &Region, v: &VarAttr, staged: Option<usize>, g: Option<&Generic>) -> VarHome {
    match (&v.attr, staged, g) {
        (_, Some(si), _) => VarHome::Staged(si),
        (
            Attr::Mapped {
                kind: MapKind::Attach,
                ..
            },
            ..,
        ) => VarHome::Register(
            "kernel parameter: the device address inside the mapped block that contains the pointer's value (present-table lookup at the launch), else the host value",
        ),
        (Attr::Mapped { mods, .. }, ..) if mods.device_addr => VarHome::Register(
            "kernel parameter: the variable's device address (has_device_addr: its storage is the device copy use_device_addr gave; nothing mapped)",
        ),
        (Attr::Mapped { mods, .. }, ..) if mods.zero => VarHome::DeviceZeroed,
        (Attr::Mapped { .. }, ..) => VarHome::Device,
        (Attr::ArrayReduction { .. }, ..) => VarHome::Device,
        (Attr::ArrayPrivate { .. }, ..) => VarHome::Copies(
            r.array_privates
                .iter()
                .find(|a| a.var == v.sym.name)
                .map(crate::ir::privarray::ArrayPrivate::home)
                .unwrap_or("private copies"),
        ),
        (Attr::Reduction { .. }, ..) => VarHome::Register(
            "each thread's private copy, combined through shared memory and per-block partials",
        ),
        (Attr::Firstprivate, None, Some(_)) => {
            VarHome::Register("kernel parameter: every thread holds the value")
        }
        (Attr::Firstprivate, None, None) => VarHome::Register("kernel parameter: each thread's copy"),
        (Attr::Private, None, Some(g)) if g.kind != GenKind::OmpParallel => {
            VarHome::Register(if r.model == Model::Acc {
                "the gang's master thread"
            } else {
                "the team's initial thread"
            })
        }
        (Attr::Private, ..) => VarHome::Register("each thread's copy"),
        (Attr::Lastprivate { .. }, ..) => VarHome::Register(
            "each thread's copy; the thread that ran the last iteration writes it to the device copy",
        ),
    }
}

/// Generic mode: the staged variables declared in the construct and the
/// locals of its sequential part (predetermined private).
fn generic_privates(file: &SourceFile, r: &Region, g: &Generic, top: &mut Vec<VarReport>) {
    let private_rule = match (r.model, g.kind) {
        (Model::Acc, _) => {
            "declared in the compute construct: one copy per gang (predetermined private)"
        }
        (_, GenKind::OmpTeams) => {
            "declared in the construct: one copy per team (predetermined private)"
        }
        _ => "declared in the construct (predetermined private)",
    };
    for (si, s) in g.staged.iter().enumerate().filter(|(_, s)| !s.region_var) {
        let mut l = location(Some(g), &VarHome::Staged(si));
        l.detail = format!("{}; {}", l.detail, s.why);
        top.push(VarReport {
            name: s.name.clone(),
            ty: s.ty.type_name(),
            attribute: "private".into(),
            location: l,
            rule: if s.loop_var {
                "loop iteration variable of a loop over the teams (predetermined private): one copy per team, the current iteration's value".into()
            } else {
                private_rule.into()
            },
            rule_kind: RuleKind::Predetermined.as_str(),
            spec: spec(r.model),
            at: pos(file, s.span),
            declared: (!s.loop_var).then(|| pos(file, s.span)),
        });
    }
    for l in &g.locals {
        top.push(VarReport {
            name: l.name.clone(),
            ty: l.ty.type_name(),
            attribute: "private".into(),
            location: location(
                Some(g),
                &VarHome::Register(match (g.kind, r.model) {
                    (GenKind::OmpParallel, _) => "each thread's copy",
                    (_, Model::Acc) => "the gang's master thread; no partitioned loop uses it",
                    _ => "the team's initial thread; no parallel region uses it",
                }),
            ),
            rule: private_rule.into(),
            rule_kind: RuleKind::Predetermined.as_str(),
            spec: spec(r.model),
            at: pos(file, l.span),
            declared: Some(pos(file, l.span)),
        });
    }
}

/// Loop constructs: the loop variables and the variables declared in the
/// body are private to each iteration's thread.
fn loop_privates(file: &SourceFile, tree: Option<&CTree>, r: &Region, top: &mut Vec<VarReport>) {
    let private =
        |name: &str, ty: String, rule: &str, at: Span, declared: Option<Span>| VarReport {
            name: name.to_string(),
            ty,
            attribute: "private".into(),
            location: location(None, &VarHome::Register("each thread's copy")),
            rule: rule.into(),
            rule_kind: RuleKind::Predetermined.as_str(),
            spec: spec(r.model),
            at: pos(file, at),
            declared: declared.map(|d| pos(file, d)),
        };
    for (l, ty) in r.nest.iter().zip(&r.nest_types) {
        if top.iter().any(|v| v.name == l.var) {
            continue;
        }
        top.push(private(
            &l.var,
            ty.type_name(),
            "loop iteration variable (predetermined private)",
            l.var_span,
            None,
        ));
    }
    let Some(body) = tree.and_then(|t| super::generic::node_in(t, r.body)) else {
        return;
    };
    let mut decls = Vec::new();
    super::generic::declared_in(body, &file.text, &mut decls);
    for d in decls {
        if top.iter().any(|v| v.name == d.name) {
            continue;
        }
        top.push(private(
            &d.name,
            d.ty.type_name(),
            "declared inside the construct (predetermined private)",
            d.span,
            Some(d.span),
        ));
    }
}

fn location_text(l: &Location) -> String {
    match (l.kind, l.offset, l.bytes) {
        ("shared", Some(o), Some(b)) => {
            format!("shared memory at offset {o} ({b} B, {})", l.detail)
        }
        ("global", Some(o), Some(b)) => {
            format!("global memory at offset {o} ({b} B, {})", l.detail)
        }
        ("global", ..) => format!("global memory ({})", l.detail),
        _ => format!("register ({})", l.detail),
    }
}

/// The report as text.
pub fn render_text(file: &SourceFile, tree: Option<&CTree>, regions: &[Region]) -> String {
    let rep = build(file, tree, regions);
    let mut o = String::new();
    for r in &rep.regions {
        let _ = writeln!(
            o,
            "region {} at {}:{}:{} in {}(): {} ({} mode)",
            r.kernel, rep.file, r.at.line, r.at.column, r.function, r.directive, r.mode
        );
        if r.mode == "generic" {
            let _ = writeln!(
                o,
                "  team frame: {} B in shared memory, {} B in global memory",
                r.shared_frame_bytes, r.global_frame_bytes
            );
        }
        for s in &r.scopes {
            let _ = writeln!(o, "  {} (line {}):", s.construct, s.at.line);
            if s.variables.is_empty() {
                let _ = writeln!(o, "    (no variables)");
            }
            for v in &s.variables {
                let decl = match v.declared {
                    Some(d) if d.start != v.at.start => {
                        format!(", declared at {}:{}", d.line, d.column)
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    o,
                    "    {} : {} -- {}; {}",
                    v.name,
                    v.ty,
                    v.attribute,
                    location_text(&v.location)
                );
                let _ = writeln!(
                    o,
                    "        {}: {} [{}]; at {}:{}{}",
                    v.rule_kind, v.rule, v.spec, v.at.line, v.at.column, decl
                );
            }
        }
        o.push('\n');
    }
    o
}

/// The report as JSON (one object, pretty-printed, with a final newline).
pub fn render_json(file: &SourceFile, tree: Option<&CTree>, regions: &[Region]) -> String {
    let rep = build(file, tree, regions);
    let mut s = serde_json::to_string_pretty(&rep).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}
