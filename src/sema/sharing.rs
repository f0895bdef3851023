//! Data-sharing attributes of the variables an offloaded region uses.
//!
//! Explicit clauses first (map / copy* / create / present, private,
//! firstprivate, reduction), then the predetermined rule (loop iteration
//! variables are private), then the implicit rules: scalars firstprivate
//! (OpenACC `kernels`: copy), arrays of known extent mapped tofrom (to when
//! their elements are const), pointers an error unless a section is mapped.

use super::symbols::Symbol;
use super::uses::Use;
use crate::diag::{codes, Diagnostic};
use crate::directives::{Directive, ListItem, Model, Section};
use crate::source::Span;
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MapKind {
    Alloc,
    To,
    From,
    ToFrom,
    Present,
}

impl MapKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MapKind::Alloc => "alloc",
            MapKind::To => "to",
            MapKind::From => "from",
            MapKind::ToFrom => "tofrom",
            MapKind::Present => "present",
        }
    }

    pub fn runtime_name(self) -> &'static str {
        match self {
            MapKind::Alloc => "P2C_MAP_ALLOC",
            MapKind::To => "P2C_MAP_TO",
            MapKind::From => "P2C_MAP_FROM",
            MapKind::ToFrom => "P2C_MAP_TOFROM",
            MapKind::Present => "P2C_MAP_PRESENT",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedOp {
    Add,
    Mul,
    Max,
    Min,
}

impl RedOp {
    pub fn as_str(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Mul => "*",
            RedOp::Max => "max",
            RedOp::Min => "min",
        }
    }

    /// The functor in the device prelude.
    pub fn functor(self) -> &'static str {
        match self {
            RedOp::Add => "p2c_op_add",
            RedOp::Mul => "p2c_op_mul",
            RedOp::Max => "p2c_op_max",
            RedOp::Min => "p2c_op_min",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Attr {
    /// Each thread has its own uninitialised copy.
    Private,
    /// Each thread has its own copy initialised from the host value (passed by value).
    Firstprivate,
    /// Lives in device memory: a mapped array section or a mapped scalar.
    Mapped {
        kind: MapKind,
        sections: Vec<Section>,
    },
    /// Reduced into the variable's device copy.
    Reduction { op: RedOp },
    /// Each thread has its own copy; the value of the sequentially last
    /// iteration (`conditional`: the last iteration that assigned it) is
    /// written back to the variable.
    Lastprivate { conditional: bool },
}

/// A variable of a region, its attribute, and the rule that decided it.
#[derive(Clone, Debug)]
pub struct VarAttr {
    pub sym: Symbol,
    pub attr: Attr,
    pub rule: &'static str,
    /// The clause item, or the first use when implicit.
    pub span: Span,
}

fn map_kind_of(
    model: Model,
    clause: &str,
    modifiers: &[crate::directives::Word],
) -> Option<MapKind> {
    match (model, clause) {
        (Model::Omp, "map") => {
            let ty = modifiers
                .iter()
                .rev()
                .find(|m| matches!(m.text.as_str(), "to" | "from" | "tofrom" | "alloc"));
            Some(match ty.map(|m| m.text.as_str()) {
                Some("to") => MapKind::To,
                Some("from") => MapKind::From,
                Some("alloc") => MapKind::Alloc,
                _ => MapKind::ToFrom,
            })
        }
        (Model::Acc, "copy") | (Model::Acc, "pcopy") | (Model::Acc, "present_or_copy") => {
            Some(MapKind::ToFrom)
        }
        (Model::Acc, "copyin") | (Model::Acc, "pcopyin") | (Model::Acc, "present_or_copyin") => {
            Some(MapKind::To)
        }
        (Model::Acc, "copyout") | (Model::Acc, "pcopyout") | (Model::Acc, "present_or_copyout") => {
            Some(MapKind::From)
        }
        (Model::Acc, "create") | (Model::Acc, "pcreate") | (Model::Acc, "present_or_create") => {
            Some(MapKind::Alloc)
        }
        (Model::Acc, "present") => Some(MapKind::Present),
        _ => None,
    }
}

fn red_op(text: &str) -> Option<RedOp> {
    match text {
        "+" | "-" => Some(RedOp::Add),
        "*" => Some(RedOp::Mul),
        "max" => Some(RedOp::Max),
        "min" => Some(RedOp::Min),
        _ => None,
    }
}

const REDUCIBLE_BASES: &[&str] = &[
    "char",
    "signed char",
    "unsigned char",
    "short",
    "short int",
    "unsigned short",
    "unsigned short int",
    "int",
    "signed",
    "signed int",
    "unsigned",
    "unsigned int",
    "long",
    "long int",
    "unsigned long",
    "unsigned long int",
    "long long",
    "long long int",
    "unsigned long long",
    "unsigned long long int",
    "float",
    "double",
    "size_t",
];

/// Decides the attribute of every variable in `uses` (and every clause item).
/// `loop_vars` are the iteration variables of the associated loop nest.
pub fn decide(
    dir: &Directive,
    is_kernels: bool,
    uses: &[Use],
    symbols: &HashMap<String, Symbol>,
    loop_vars: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<VarAttr> {
    let mut out: Vec<VarAttr> = Vec::new();
    let mut claimed: HashMap<String, Span> = HashMap::new();
    let lookup = |item: &ListItem, diags: &mut Vec<Diagnostic>| -> Option<Symbol> {
        match symbols.get(&item.name) {
            Some(s) if !s.is_typedef && !s.ty.is_function() => Some(s.clone()),
            _ => {
                diags.push(
                    Diagnostic::new(
                        codes::UNDECLARED,
                        item.name_span,
                        format!("`{}` is not a declared variable", item.name),
                    )
                    .with_label("not declared before this directive"),
                );
                None
            }
        }
    };
    for clause in &dir.clauses {
        let name = clause.name.as_str();
        let kind = map_kind_of(dir.model, name, clause.modifiers());
        let is_list = kind.is_some()
            || matches!(name, "private" | "firstprivate" | "reduction")
            || (name == "lastprivate" && dir.model == Model::Omp);
        if !is_list {
            continue;
        }
        let op = if name == "reduction" {
            let m = clause.modifiers().last();
            match m.and_then(|m| red_op(&m.text)) {
                Some(op) => Some(op),
                None => {
                    let (span, text) = m
                        .map(|m| (m.span, m.text.as_str()))
                        .unwrap_or((clause.span, "?"));
                    diags.push(
                        Diagnostic::new(
                            codes::NOT_SUPPORTED,
                            span,
                            format!("reduction operator `{text}` is not supported yet"),
                        )
                        .with_label("not lowered yet")
                        .with_note("supported so far: `+`, `-`, `*`, `max`, `min`"),
                    );
                    continue;
                }
            }
        } else {
            None
        };
        for item in clause.items() {
            if !item.path.is_empty() {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        item.span,
                        "struct members in data clauses are not supported yet",
                    )
                    .with_label("member access"),
                );
                continue;
            }
            let Some(sym) = lookup(item, diags) else {
                continue;
            };
            if let Some(prev) = claimed.get(&item.name) {
                diags.push(
                    Diagnostic::new(
                        codes::CONFLICTING_CLAUSES,
                        item.name_span,
                        format!("`{}` appears in more than one data clause", item.name),
                    )
                    .with_label("second clause")
                    .with_secondary(*prev, "first clause"),
                );
                continue;
            }
            claimed.insert(item.name.clone(), item.name_span);
            let attr = match (name, kind, op) {
                ("private", ..) => Attr::Private,
                ("firstprivate", ..) => Attr::Firstprivate,
                ("lastprivate", ..) => {
                    if !sym.ty.is_scalar() {
                        diags.push(
                            Diagnostic::new(
                                codes::NOT_SUPPORTED,
                                item.name_span,
                                format!("lastprivate of `{}`, which is not a scalar, is not supported yet", item.name),
                            )
                            .with_label("not lowered yet"),
                        );
                        continue;
                    }
                    let conditional = clause.modifiers().iter().any(|m| m.text == "conditional");
                    if conditional && dir.words().any(|w| w == "distribute") {
                        diags.push(
                            Diagnostic::new(
                                codes::BAD_CLAUSE_ARG,
                                clause.span,
                                "the `conditional` modifier of lastprivate is not allowed on a distribute construct",
                            )
                            .with_label("on a construct with distribute"),
                        );
                        continue;
                    }
                    Attr::Lastprivate { conditional }
                }
                ("reduction", _, Some(op)) => {
                    let base = sym.ty.unqualified_base();
                    if !sym.ty.is_scalar() || !REDUCIBLE_BASES.contains(&base.as_str()) {
                        diags.push(
                            Diagnostic::new(
                                codes::BAD_REDUCTION_TYPE,
                                item.name_span,
                                format!(
                                    "cannot reduce `{}` of type `{}` with `{}`",
                                    item.name,
                                    sym.ty.type_name(),
                                    op.as_str()
                                ),
                            )
                            .with_label("not an arithmetic scalar")
                            .with_secondary(sym.span, "declared here"),
                        );
                        continue;
                    }
                    Attr::Reduction { op }
                }
                (_, Some(kind), _) => {
                    if !check_sections(item, &sym, diags) {
                        continue;
                    }
                    Attr::Mapped {
                        kind,
                        sections: item.sections.clone(),
                    }
                }
                _ => continue,
            };
            if !item.sections.is_empty() && !matches!(attr, Attr::Mapped { .. }) {
                diags.push(
                    Diagnostic::new(
                        codes::BAD_SECTION,
                        item.span,
                        "array sections are only allowed in data clauses here",
                    )
                    .with_label("section"),
                );
                continue;
            }
            out.push(VarAttr {
                sym,
                attr,
                rule: "explicit clause",
                span: clause.span,
            });
        }
    }
    for u in uses {
        if out.iter().any(|v| v.sym.name == u.name) {
            continue;
        }
        let Some(sym) = symbols.get(&u.name) else {
            continue;
        };
        if sym.is_typedef || sym.ty.is_function() {
            continue;
        }
        if loop_vars.contains(&u.name) {
            out.push(VarAttr {
                sym: sym.clone(),
                attr: Attr::Private,
                rule: "loop iteration variable (predetermined private)",
                span: u.span,
            });
            continue;
        }
        let (attr, rule) = if sym.ty.is_scalar() {
            if is_kernels {
                (
                    Attr::Mapped {
                        kind: MapKind::ToFrom,
                        sections: vec![],
                    },
                    "scalar in a kernels construct (implicit copy)",
                )
            } else {
                (Attr::Firstprivate, "scalar (implicit firstprivate)")
            }
        } else if sym.ty.is_array() {
            if sym
                .ty
                .array_sizes()
                .first()
                .map(|s| s.is_none())
                .unwrap_or(true)
            {
                diags.push(
                    Diagnostic::new(
                        codes::POINTER_NO_EXTENT,
                        u.span,
                        format!("the extent of array `{}` is not known here", u.name),
                    )
                    .with_label("used in an offloaded region")
                    .with_secondary(sym.span, "declared without a size")
                    .with_help(format!(
                        "map an array section, e.g. `map(tofrom: {}[0:n])`",
                        u.name
                    )),
                );
                continue;
            }
            let kind = if sym.ty.is_const_base() {
                MapKind::To
            } else {
                MapKind::ToFrom
            };
            (
                Attr::Mapped {
                    kind,
                    sections: vec![],
                },
                if kind == MapKind::To {
                    "array of known extent with const elements (implicit map to)"
                } else {
                    "array of known extent (implicit map tofrom)"
                },
            )
        } else {
            diags.push(
                Diagnostic::new(codes::POINTER_NO_EXTENT, u.span, format!("pointer `{}` is used in an offloaded region but what it points to is not mapped", u.name))
                    .with_label("pointer used here")
                    .with_secondary(sym.span, "declared here")
                    .with_help(format!(
                        "map the data it points to with an array section, e.g. `{}`",
                        if dir.model == Model::Omp { format!("map(tofrom: {}[0:n])", u.name) } else { format!("copy({}[0:n])", u.name) }
                    )),
            );
            continue;
        };
        out.push(VarAttr {
            sym: sym.clone(),
            attr,
            rule,
            span: u.span,
        });
    }
    out
}

/// Sections must fit the variable: one per subscriptable dimension at most;
/// a pointer needs a section; pointers below the first level are not followed.
fn check_sections(item: &ListItem, sym: &Symbol, diags: &mut Vec<Diagnostic>) -> bool {
    let dims = sym.ty.dims();
    if item.sections.len() > dims {
        diags.push(
            Diagnostic::new(
                codes::BAD_SECTION,
                item.span,
                format!(
                    "`{}` has {} subscriptable dimension(s) but the section has {}",
                    item.name,
                    dims,
                    item.sections.len()
                ),
            )
            .with_label("too many dimensions")
            .with_secondary(sym.span, "declared here"),
        );
        return false;
    }
    if sym.ty.is_pointer() && item.sections.is_empty() {
        diags.push(
            Diagnostic::new(
                codes::POINTER_NO_EXTENT,
                item.span,
                format!(
                    "mapping pointer `{}` maps the pointer itself, not the data it points to",
                    item.name
                ),
            )
            .with_label("no array section")
            .with_help(format!(
                "map the data with an array section, e.g. `{}[0:n]`",
                item.name
            )),
        );
        return false;
    }
    let ptr_levels = sym
        .ty
        .derivs
        .iter()
        .filter(|d| matches!(d, super::Deriv::Pointer { .. }))
        .count();
    if ptr_levels > 1 || (ptr_levels == 1 && !sym.ty.is_pointer()) {
        diags.push(
            Diagnostic::new(codes::UNSUPPORTED_TYPE, item.span, format!("`{}` has type `{}`: mapping data behind more than one level of pointers is not supported yet", item.name, sym.ty.type_name()))
                .with_label("deep copy needed"),
        );
        return false;
    }
    for s in &item.sections {
        if s.stride.is_some() {
            diags.push(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    s.span,
                    "strided array sections are not supported yet",
                )
                .with_label("stride"),
            );
            return false;
        }
    }
    true
}
