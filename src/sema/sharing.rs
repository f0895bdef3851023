//! Data-sharing attributes of the variables an offloaded region uses.
//!
//! Explicit clauses first (map / copy* / create / present, private,
//! firstprivate, reduction), then the predetermined rule (loop iteration
//! variables are private), then the implicit rules: scalars firstprivate
//! (OpenACC `kernels`: copy), arrays of known extent mapped tofrom (to when
//! their elements are const), pointers (OpenMP) a zero-length section that
//! attaches to the mapped block containing their value, pointers (OpenACC)
//! an error unless a section is mapped.
//! An OpenMP `defaultmap` clause replaces the implicit rule of its variable
//! category ([`Category`]); the rule name says so.

use super::arith::{self, Arith};
use super::symbols::Symbol;
use super::uses::Use;
use super::{CType, Deriv};
use crate::diag::{codes, Diagnostic};
use crate::directives::{Clause, Directive, ListItem, Model};
use crate::source::Span;
use std::collections::{HashMap, HashSet};

pub use crate::ir::c::{
    Attr, MapKind, MapMods, RedOp, VarAttr, ARRAY_PARAM_WHOLE, DEVICE_PTR, ENCLOSING_DEVICE_PTR,
    EXPLICIT, HAS_DEVICE_ADDR, LOOP_VAR, POINTER_ATTACH, POINTER_ITSELF,
};

/// The map-type modifiers of clause `name` (only OpenMP `map` has them).
fn map_mods(model: Model, name: &str, modifiers: &[crate::directives::Word]) -> MapMods {
    let has = |w: &str| modifiers.iter().any(|m| m.text == w);
    if model == Model::Acc && acc_zero_clause(name) {
        return MapMods {
            zero: has("zero"),
            ..MapMods::default()
        };
    }
    if model != Model::Omp || name != "map" {
        return MapMods::default();
    }
    MapMods {
        always: has("always"),
        present: has("present"),
        ..MapMods::default()
    }
}

type Claimed = HashMap<String, (Span, String, bool, Option<MapKind>)>;

/// A map clause naming a range another map clause of the construct mapped
/// already: the two become one map (`map_merge.rs`). True when merged.
fn merge_into_map(
    out: &mut [VarAttr],
    claimed: &mut Claimed,
    item: &ListItem,
    kind: Option<MapKind>,
    mods: MapMods,
) -> bool {
    let (Some(k2), Some((_, _, ok, Some(_)))) = (kind, claimed.get_mut(&item.name)) else {
        return false;
    };
    let Some(v) = out.iter_mut().find(|v| v.sym.name == item.name) else {
        return false;
    };
    let Attr::Mapped {
        kind: k1,
        sections,
        mods: m1,
    } = &mut v.attr
    else {
        return false;
    };
    let Some((k, m)) = super::map_merge::merge((*k1, sections, *m1), (k2, &item.sections, mods))
    else {
        return false;
    };
    *k1 = k;
    *m1 = m;
    *ok = *ok && m.is_none();
    if let Some(entry) = claimed.get_mut(&item.name) {
        entry.3 = Some(k);
    }
    true
}

/// How a variable in both `firstprivate` and a map clause of a combined
/// `target` construct is lowered.
enum FpPair {
    /// The firstprivate came first: this map clause adds nothing.
    KeepFirst,
    /// The map came first: the firstprivate replaces it.
    ReplaceMap,
}

/// OpenMP 5.1+ (combined constructs, 17.2 in 5.2): on a combined `target`
/// construct a variable may be in `firstprivate` and `map`; the map applies
/// to `target` and the firstprivate to the inner leaf (teams, distribute,
/// parallel, for), whose private copies start from the device copy. When
/// that device copy is created by this map (the variable is in no enclosing
/// data construct, not `declare target`, and the file maps nothing
/// dynamically) and the map is `to` / `tofrom` without modifiers, the
/// device copy equals the host's and nothing writes it (every reference in
/// the region is to a private copy): the result is the firstprivate alone,
/// copied from the host. Other forms stay "not supported yet".
#[allow(clippy::too_many_arguments)]
fn firstprivate_map_pair(
    dir: &Directive,
    env: &DataEnv,
    out: &[VarAttr],
    claimed: &Claimed,
    name: &str,
    kind: Option<MapKind>,
    mods: MapMods,
    sym: &Symbol,
) -> Option<FpPair> {
    let (_, prev_clause, _, _) = claimed.get(&sym.name)?;
    let combined_target = dir.model == Model::Omp
        && dir.name.starts_with("target ")
        && !dir.name.starts_with("target data")
        && !dir.name.starts_with("target update")
        && !dir.name.starts_with("target enter")
        && !dir.name.starts_with("target exit");
    let not_present = !env.unstructured
        && !env.enclosing.contains(&sym.name)
        && !env.declared.contains(&sym.name);
    let shape = sym.ty.is_scalar() || sym.ty.is_array();
    if !(combined_target && not_present && shape) {
        return None;
    }
    let copies_in =
        |k: MapKind, m: MapMods| matches!(k, MapKind::To | MapKind::ToFrom) && m.is_none();
    if prev_clause == "firstprivate" {
        return kind
            .filter(|k| copies_in(*k, mods))
            .map(|_| FpPair::KeepFirst);
    }
    if name != "firstprivate" {
        return None;
    }
    match &out.iter().find(|v| v.sym.name == sym.name)?.attr {
        Attr::Mapped { kind, mods, .. } if copies_in(*kind, *mods) => Some(FpPair::ReplaceMap),
        _ => None,
    }
}

/// The OpenACC data clauses that take the `zero` modifier (3.3, 2.7.7 and
/// 2.7.9, with their `p` / `present_or_` aliases).
pub fn acc_zero_clause(name: &str) -> bool {
    matches!(
        name,
        "create" | "pcreate" | "present_or_create" | "copyout" | "pcopyout" | "present_or_copyout"
    )
}

/// What the file's data environment adds to the implicit rules of a region.
#[derive(Clone, Debug, Default)]
pub struct DataEnv {
    /// File-scope variables with a device copy (`declare target`, file-scope
    /// `acc declare`): a region uses that copy, whatever the variable's type.
    pub declared: std::collections::BTreeSet<String>,
    /// Variables listed by enclosing data constructs (`target data`, `acc
    /// data`, `acc declare` earlier in the function).
    pub enclosing: std::collections::BTreeSet<String>,
    /// The file maps data without a structured construct (enter data,
    /// acc_copyin, ...): a pointer may point into data mapped elsewhere.
    pub unstructured: bool,
    /// Local pointers of the region's function that cannot point into mapped
    /// data (`sema::fresh_pointer`): `unstructured` does not make them present.
    pub never_mapped: std::collections::BTreeSet<String>,
    /// Pointers in `deviceptr` of an enclosing `acc data`: device addresses.
    pub device_ptrs: std::collections::BTreeSet<String>,
    /// The file has `omp requires unified_shared_memory` or
    /// `unified_address`: a pointer mapped itself may keep a host value the
    /// region dereferences (`sema::pointer_itself`).
    pub unified: bool,
}

/// The variable categories of OpenMP's `defaultmap` clause (5.2, 5.8.7),
/// for C: pointers, aggregates (arrays, structures, unions) and the other
/// scalars (arithmetic and enumeration types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Scalar,
    Aggregate,
    Pointer,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Scalar => "scalar",
            Category::Aggregate => "aggregate",
            Category::Pointer => "pointer",
        }
    }
}

/// The `defaultmap` category of a variable of type `ty`; typedef names are
/// resolved through `typedef_of` (the type a typedef name stands for).
/// `None` when the type cannot be told (a typedef name not visible here).
pub fn category(ty: &CType, typedef_of: &dyn Fn(&str) -> Option<CType>) -> Option<Category> {
    let mut ty = ty.clone();
    for _ in 0..16 {
        match ty.derivs.first() {
            Some(Deriv::Pointer { .. }) => return Some(Category::Pointer),
            Some(Deriv::Array(_)) => return Some(Category::Aggregate),
            Some(Deriv::Function) => return None,
            None => {}
        }
        let words: Vec<&str> = ty
            .base
            .split_whitespace()
            .filter(|w| {
                !matches!(
                    *w,
                    "const" | "volatile" | "restrict" | "__restrict" | "__restrict__" | "register"
                )
            })
            .collect();
        if words.iter().any(|w| matches!(*w, "struct" | "union")) {
            return Some(Category::Aggregate);
        }
        if words.iter().any(|w| matches!(*w, "enum" | "_Complex"))
            || arith::classify(&ty.base, &super::symbols::Scope::default()).is_some()
        {
            return Some(Category::Scalar);
        }
        let [name] = words.as_slice() else {
            return None;
        };
        ty = typedef_of(name)?;
    }
    None
}

/// The implicit behaviours of OpenMP's `defaultmap` clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behavior {
    Alloc,
    To,
    From,
    ToFrom,
    Firstprivate,
    None,
    Default,
    Present,
}

impl Behavior {
    fn parse(text: &str) -> Option<Behavior> {
        Some(match text {
            "alloc" => Behavior::Alloc,
            "to" => Behavior::To,
            "from" => Behavior::From,
            "tofrom" => Behavior::ToFrom,
            "firstprivate" => Behavior::Firstprivate,
            "none" => Behavior::None,
            "default" => Behavior::Default,
            "present" => Behavior::Present,
            _ => return None,
        })
    }
}

/// The `defaultmap` clause of an OpenMP directive that applies to variables
/// of category `cat`: the one naming the category, else one naming `all` or
/// no category (validation allows only one of them). `allocatable` names no
/// C variable.
/// With `cat` `None` (a type that cannot be told) only the clause for every
/// category applies.
pub fn defaultmap_for(dir: &Directive, cat: Option<Category>) -> Option<(Behavior, &Clause)> {
    if dir.model != Model::Omp {
        return None;
    }
    fn of(c: &Clause) -> Option<(Behavior, Option<&str>)> {
        let mut args = c.positional_args();
        let b = Behavior::parse(&args.next()?.text)?;
        Some((b, args.next().map(|a| a.text.as_str())))
    }
    let mut general = None;
    for c in dir.clauses_named("defaultmap") {
        match of(c) {
            Some((b, None | Some("all"))) => general = general.or(Some((b, c))),
            Some((b, Some(w))) if Some(w) == cat.map(Category::as_str) => return Some((b, c)),
            _ => {}
        }
    }
    general
}

/// `defaultmap(behavior: category)` as written (canonical spacing).
pub fn defaultmap_text(c: &Clause) -> String {
    let args: Vec<&str> = c.positional_args().map(|a| a.text.as_str()).collect();
    format!("defaultmap({})", args.join(": "))
}

/// The rule name of an attribute that a `defaultmap` clause decided.
/// `keep`: the variable is const, so nothing is copied back.
fn defaultmap_rule(b: Behavior, cat: Category, keep: bool) -> &'static str {
    macro_rules! rule {
        ($c:literal, $b:literal, $what:literal) => {
            concat!($c, " under defaultmap(", $b, "): implicit ", $what)
        };
    }
    use Behavior as B;
    use Category as C;
    match (cat, b, keep) {
        (C::Scalar, B::Alloc, _) => rule!("scalar", "alloc", "map alloc"),
        (C::Scalar, B::To, _) => rule!("scalar", "to", "map to"),
        (C::Scalar, B::From, false) => rule!("scalar", "from", "map from"),
        (C::Scalar, B::From, true) => rule!("scalar", "from", "map alloc (const: not copied back)"),
        (C::Scalar, B::ToFrom, false) => rule!("scalar", "tofrom", "map tofrom"),
        (C::Scalar, B::ToFrom, true) => {
            rule!("scalar", "tofrom", "map to (const: not copied back)")
        }
        (C::Scalar, B::Present, _) => rule!("scalar", "present", "map present"),
        (C::Scalar, B::Firstprivate, _) => rule!("scalar", "firstprivate", "firstprivate"),
        (C::Aggregate, B::Alloc, _) => rule!("aggregate", "alloc", "map alloc"),
        (C::Aggregate, B::To, _) => rule!("aggregate", "to", "map to"),
        (C::Aggregate, B::From, false) => rule!("aggregate", "from", "map from"),
        (C::Aggregate, B::From, true) => {
            rule!("aggregate", "from", "map alloc (const: not copied back)")
        }
        (C::Aggregate, B::ToFrom, false) => rule!("aggregate", "tofrom", "map tofrom"),
        (C::Aggregate, B::ToFrom, true) => {
            rule!("aggregate", "tofrom", "map to (const: not copied back)")
        }
        (C::Aggregate, B::Present, _) => rule!("aggregate", "present", "map present"),
        (C::Aggregate, B::Firstprivate, _) => {
            rule!("aggregate", "firstprivate", "firstprivate")
        }
        (C::Pointer, B::Alloc, _) => rule!("pointer", "alloc", "map alloc of the pointer itself"),
        (C::Pointer, B::To, _) => rule!("pointer", "to", "map to of the pointer itself"),
        (C::Pointer, B::From, _) => rule!("pointer", "from", "map from of the pointer itself"),
        (C::Pointer, B::ToFrom, _) => {
            rule!("pointer", "tofrom", "map tofrom of the pointer itself")
        }
        (C::Pointer, B::Present, _) => {
            rule!("pointer", "present", "map present of the pointer itself")
        }
        _ => "defaultmap",
    }
}

/// Whether a clause names pointers whose values are device addresses.
pub fn is_device_ptr_clause(model: Model, name: &str) -> bool {
    matches!(
        (model, name),
        (Model::Omp, "is_device_ptr") | (Model::Acc, "deviceptr")
    )
}

/// The attribute of an `is_device_ptr` / `deviceptr` item: a firstprivate
/// pointer (its device address). Only whole pointer variables are lowered.
fn device_ptr_attr(
    dir: &Directive,
    clause: &str,
    item: &ListItem,
    sym: &Symbol,
) -> Result<Attr, Box<Diagnostic>> {
    if sym.ty.is_pointer() && item.sections.is_empty() {
        return Ok(Attr::Firstprivate);
    }
    Err(Box::new(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            item.span,
            format!(
                "`{}` in `{clause}` on `{} {}` is not supported yet: only a pointer variable is lowered",
                item.name,
                dir.model.as_str(),
                dir.name
            ),
        )
        .with_label("not a pointer variable"),
    ))
}

/// The attribute of a `has_device_addr` item: the variable at its device
/// address, nothing mapped. Only whole variables that are not pointers.
fn has_device_addr_attr(item: &ListItem, sym: &Symbol) -> Result<Attr, Box<Diagnostic>> {
    if !sym.ty.is_pointer() && item.sections.is_empty() && item.path.is_empty() {
        return Ok(Attr::Mapped {
            kind: MapKind::ToFrom,
            sections: vec![],
            mods: MapMods {
                device_addr: true,
                ..MapMods::default()
            },
        });
    }
    Err(Box::new(
        Diagnostic::new(
            codes::NOT_SUPPORTED,
            item.span,
            format!(
                "`{}` in `has_device_addr` is not supported yet: only a whole variable that is not a pointer is lowered",
                item.name
            ),
        )
        .with_label("a pointer, a section or a member")
        .with_help("for a pointer holding a device address, use `is_device_ptr`"),
    ))
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

/// The operator of a `reduction` clause whose modifiers are `op` alone or
/// `task` / `default` then `op` (OpenMP 5.0's reduction modifiers; `task`
/// lets `in_reduction` tasks contribute, which included tasks do by
/// updating the encountering thread's copy). `inscan` gives `None`.
pub fn red_op_with_modifier(mods: &[crate::directives::Word]) -> Option<RedOp> {
    match mods {
        [m] => red_op(&m.text),
        [k, m] if matches!(k.text.as_str(), "task" | "default") => red_op(&m.text),
        _ => None,
    }
}

pub fn red_op(text: &str) -> Option<RedOp> {
    match text {
        "+" => Some(RedOp::Add),
        "-" => Some(RedOp::Sub),
        "*" => Some(RedOp::Mul),
        "max" => Some(RedOp::Max),
        "min" => Some(RedOp::Min),
        "&" => Some(RedOp::BitAnd),
        "|" => Some(RedOp::BitOr),
        "^" => Some(RedOp::BitXor),
        "&&" => Some(RedOp::LogAnd),
        "||" => Some(RedOp::LogOr),
        _ => None,
    }
}

/// Whether `text` declares `name` with a C99 complex type (`float _Complex
/// name`): tree-sitter-c misreads some such declarations (the symbol is then
/// missing), and the honest message is "not supported", not "undeclared".
fn declared_complex(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices("_Complex").any(|(i, w)| {
        let rest = &text[i + w.len()..];
        let after = rest.trim_start();
        after.len() < rest.len()
            && after.starts_with(name)
            && !after[name.len()..].starts_with(ident)
    })
}

/// Decides the attribute of every variable in `uses` (and every clause item).
/// `loop_vars` are the iteration variables of the associated loop nest;
/// `text` is the file's text (to recognise declarations the C parser misses).
#[allow(clippy::too_many_arguments)]
pub fn decide(
    dir: &Directive,
    is_kernels: bool,
    uses: &[Use],
    symbols: &crate::sema::symbols::Scope,
    loop_vars: &[String],
    env: &DataEnv,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) -> Vec<VarAttr> {
    let mut out: Vec<VarAttr> = Vec::new();
    // The first clause of each variable: its item, the clause name, and
    // whether it is a scalar's reduction or whole `map(tofrom)` / `copy`
    // (see `reduction_and_tofrom` below).
    // Per variable: the first clause's item span and name, whether it may
    // pair with a second clause (a whole scalar in `reduction` or a map
    // clause), and the map kind of that map clause.
    let mut claimed: Claimed = HashMap::new();
    // Whole array parameters whose extent was refused: already reported,
    // so their uses get no second diagnostic.
    let mut refused_extent: HashSet<String> = HashSet::new();
    let lookup = |item: &ListItem,
                  reduction: bool,
                  diags: &mut Vec<Diagnostic>|
     -> Option<Symbol> {
        match symbols.get(&item.name) {
            Some(s) if !s.is_typedef && !s.ty.is_function() => Some(s.clone()),
            _ if reduction && declared_complex(text, &item.name) => {
                diags.push(
                    Diagnostic::new(
                        codes::NOT_SUPPORTED,
                        item.name_span,
                        format!(
                            "reduction over the C99 complex variable `{}` is not supported yet",
                            item.name
                        ),
                    )
                    .with_label("complex reduction")
                    .with_note("the C parser did not read this complex declaration (complex reductions work for `float _Complex v` / `double _Complex v` declarations it reads)")
                    .with_help("declare the variable on its own line: `double _Complex v = 0;`"),
                );
                None
            }
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
        // OpenMP 5.2 `always` / `present` (never on a reduction or
        // lastprivate pair, which has one attribute).
        let mods = map_mods(dir.model, name, clause.modifiers());
        let device_ptr = is_device_ptr_clause(dir.model, name);
        let device_addr = dir.model == Model::Omp && name == "has_device_addr";
        let is_list = kind.is_some()
            || device_ptr
            || device_addr
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
                        .with_note(
                            "supported: `+`, `-`, `*`, `max`, `min`, `&`, `|`, `^`, `&&`, `||`",
                        ),
                    );
                    continue;
                }
            }
        } else {
            None
        };
        // A name repeated in this clause is reported once, however often.
        let mut reported_here: HashSet<&str> = HashSet::new();
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
            let Some(sym) = lookup(item, op.is_some(), diags) else {
                continue;
            };
            // A whole scalar in `reduction` and in a map clause (`map`,
            // `copy`, `copyin`, ...) of the same construct has one attribute:
            // the reduction, whose RESULT is the device copy that map
            // creates or finds present. OpenMP 5.2 (combined target
            // constructs, 17.2): a reduction list item is treated as if it
            // appeared in a map clause with map-type tofrom only when no map
            // clause of the construct names it; with one, that map-type
            // governs: the reduction's original list item is the device copy
            // (initialised from the host for to/tofrom, as it stands for
            // from/alloc, whose value is then unspecified unless the copy was
            // already present), the combined value is stored into it, and it
            // is copied back to the host only for from/tofrom (and only when
            // the mapping ends, as for any map). OpenACC 3.3 2.5.15 likewise
            // implies `copy` only for a variable in no data clause.
            // `lastprivate` of a whole scalar or array already maps it tofrom
            // on a combined target construct (OpenMP 5.2 5.4.5): a
            // `map(tofrom)` of the same variable adds nothing, and the
            // lastprivate is its one attribute.
            let whole = item.sections.is_empty();
            let pairable = match name {
                "reduction" => whole && sym.ty.is_scalar(),
                "lastprivate" => whole && (sym.ty.is_scalar() || sym.ty.is_array()),
                _ => {
                    kind.is_some()
                        && whole
                        && mods.is_none()
                        && (sym.ty.is_scalar() || sym.ty.is_array())
                }
            };
            if merge_into_map(&mut out, &mut claimed, item, kind, mods) {
                continue;
            }
            let mut map_of_pair = None;
            if let Some((_, prev_clause, prev_ok, prev_kind)) = claimed.get(&item.name) {
                let red_pair = (name == "reduction" && prev_kind.is_some())
                    || (prev_clause == "reduction" && kind.is_some());
                let last_pair = (name == "lastprivate" && *prev_kind == Some(MapKind::ToFrom))
                    || (prev_clause == "lastprivate" && kind == Some(MapKind::ToFrom));
                let pair = *prev_ok && pairable && (red_pair || last_pair);
                if pair && kind.is_some() {
                    // The reduction came first: it takes this map's kind.
                    if let (true, Some(k), Some(v)) = (
                        red_pair,
                        kind,
                        out.iter_mut().find(|v| v.sym.name == item.name),
                    ) {
                        if let Attr::Reduction { map, .. } = &mut v.attr {
                            *map = k;
                        }
                    }
                    continue;
                }
                if pair {
                    map_of_pair = *prev_kind;
                    out.retain(|v| v.sym.name != item.name);
                    claimed.remove(&item.name);
                }
            }
            match firstprivate_map_pair(dir, env, &out, &claimed, name, kind, mods, &sym) {
                Some(FpPair::KeepFirst) => continue,
                Some(FpPair::ReplaceMap) => {
                    out.retain(|v| v.sym.name != item.name);
                    claimed.remove(&item.name);
                }
                None => {}
            }
            if let Some((prev, prev_clause, _, prev_kind)) = claimed.get(&item.name) {
                if !reported_here.insert(item.name.as_str()) {
                    continue;
                }
                // Validation has rejected the combinations the specifications
                // forbid (E0204); what is left is valid but has one attribute
                // per variable here.
                let red_and_map = (name == "reduction" && prev_kind.is_some())
                    || (prev_clause == "reduction" && kind.is_some());
                let mut dg = Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    item.name_span,
                    format!(
                        "`{}` in both `{prev_clause}` and `{name}` is not supported yet",
                        item.name
                    ),
                )
                .with_label("second clause")
                .with_secondary(*prev, "first clause")
                .with_note("pragma2cuda gives each variable of a region one data attribute");
                if red_and_map {
                    dg = dg.with_note(
                        "lowered: a whole scalar in both, whose reduction combines into the mapped device copy; an array or section in both, or a map with `always` or `present`, is not lowered yet",
                    );
                } else if prev_kind.is_some() && kind.is_some() {
                    dg = dg.with_note(
                        "lowered: two map clauses of the same range (their transfers united); two different ranges of one variable, or OpenACC `present` with another data clause, are not lowered yet",
                    );
                }
                diags.push(dg);
                continue;
            }
            claimed.insert(
                item.name.clone(),
                (item.name_span, name.to_string(), pairable, kind),
            );
            let mut whole_param = false;
            let mut itself = false;
            let attr = match (name, kind, op) {
                _ if device_addr => match has_device_addr_attr(item, &sym) {
                    Ok(a) => a,
                    Err(d) => {
                        diags.push(*d);
                        continue;
                    }
                },
                _ if device_ptr => match device_ptr_attr(dir, name, item, &sym) {
                    Ok(a) => a,
                    Err(d) => {
                        diags.push(*d);
                        continue;
                    }
                },
                ("private" | "firstprivate", ..)
                    if !item.sections.is_empty()
                        || (name == "firstprivate" && sym.ty.is_array()) =>
                {
                    match super::privarray::attr(dir, name == "firstprivate", item, &sym, symbols) {
                        Ok(a) => a,
                        Err(d) => {
                            diags.push(*d);
                            continue;
                        }
                    }
                }
                ("private", ..) => Attr::Private,
                ("firstprivate", ..) => Attr::Firstprivate,
                ("lastprivate", ..) => {
                    let conditional = clause.modifiers().iter().any(|m| m.text == "conditional");
                    if let Err(d) =
                        super::lastprivate_array::check(item, &sym, conditional, symbols)
                    {
                        diags.push(*d);
                        continue;
                    }
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
                ("reduction", _, Some(op)) => match reduction_type(item, &sym, op, symbols) {
                    Ok((arith, false)) => Attr::Reduction {
                        op,
                        arith,
                        map: map_of_pair.unwrap_or(MapKind::ToFrom),
                    },
                    Ok((arith, true)) => {
                        if !check_sections(dir.model, item, &sym, diags) {
                            continue;
                        }
                        Attr::ArrayReduction {
                            op,
                            arith,
                            sections: item.sections.clone(),
                        }
                    }
                    Err(d) => {
                        diags.push(*d);
                        continue;
                    }
                },
                (_, Some(kind), _) => {
                    let sections =
                        match super::param_extent::declared_section(dir.model, item, &sym, symbols)
                        {
                            Ok(Some(whole)) => {
                                whole_param = true;
                                vec![whole]
                            }
                            Ok(None)
                                if super::pointer_itself::is_pointer_itself(
                                    dir.model, item, &sym,
                                ) =>
                            {
                                let u = uses.iter().find(|u| u.name == item.name);
                                if let Some(d) =
                                    super::pointer_itself::refusal(&item.name, item.span, u, env)
                                {
                                    diags.push(d);
                                    continue;
                                }
                                itself = true;
                                vec![]
                            }
                            Ok(None) if check_sections(dir.model, item, &sym, diags) => {
                                item.sections.clone()
                            }
                            Ok(None) => continue,
                            Err(d) => {
                                diags.push(*d);
                                refused_extent.insert(item.name.clone());
                                continue;
                            }
                        };
                    Attr::Mapped {
                        kind,
                        sections,
                        mods: MapMods { itself, ..mods },
                    }
                }
                _ => continue,
            };
            if !item.sections.is_empty()
                && !matches!(
                    attr,
                    Attr::Mapped { .. } | Attr::ArrayReduction { .. } | Attr::ArrayPrivate { .. }
                )
            {
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
                rule: if device_ptr {
                    DEVICE_PTR
                } else if device_addr {
                    HAS_DEVICE_ADDR
                } else if whole_param {
                    ARRAY_PARAM_WHOLE
                } else if itself {
                    POINTER_ITSELF
                } else {
                    EXPLICIT
                },
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
        if sym.is_typedef || sym.ty.is_function() || refused_extent.contains(&u.name) {
            continue;
        }
        if loop_vars.contains(&u.name) {
            out.push(VarAttr {
                sym: sym.clone(),
                attr: Attr::Private,
                rule: LOOP_VAR,
                span: u.span,
            });
            continue;
        }
        let mapped = |kind| Attr::Mapped {
            kind,
            sections: vec![],
            mods: MapMods::default(),
        };
        // OpenMP's defaultmap changes the implicit rule of its category;
        // declare target variables keep their device copy.
        let declared_var = sym.storage == super::Storage::Global && env.declared.contains(&u.name);
        if dir.model == Model::Omp && !declared_var && dir.clause("defaultmap").is_some() {
            match by_defaultmap(dir, u, sym, symbols, env, diags) {
                DefaultmapRule::Decided(attr, rule) => {
                    out.push(VarAttr {
                        sym: sym.clone(),
                        attr,
                        rule,
                        span: u.span,
                    });
                    continue;
                }
                DefaultmapRule::Reported => continue,
                DefaultmapRule::NoEffect => {}
            }
        }
        let (attr, rule) = if sym.storage == super::Storage::Global
            && env.declared.contains(&u.name)
        {
            (
                mapped(MapKind::ToFrom),
                "declare target / acc declare variable (the region uses its device copy)",
            )
        } else if sym.ty.is_pointer() && env.device_ptrs.contains(&u.name) {
            (Attr::Firstprivate, ENCLOSING_DEVICE_PTR)
        } else if sym.ty.is_pointer() && dir.model == Model::Omp {
            (mapped(MapKind::Attach), POINTER_ATTACH)
        } else if sym.ty.is_pointer() && env.enclosing.contains(&u.name) {
            (
                mapped(MapKind::Present),
                "pointer listed by an enclosing data construct (zero-length section: must be present)",
            )
        } else if sym.ty.is_pointer() && env.unstructured && !env.never_mapped.contains(&u.name) {
            (
                mapped(MapKind::Present),
                "pointer into data mapped elsewhere (zero-length section: must be present)",
            )
        } else if sym.ty.is_scalar() && dir.model == Model::Acc && env.enclosing.contains(&u.name) {
            (
                mapped(MapKind::ToFrom),
                "scalar listed by an enclosing data construct (present: the device copy)",
            )
        } else if acc_default_present(dir)
            && ((sym.ty.is_scalar() && is_struct(sym, symbols))
                || (sym.ty.is_array() && !unknown_extent(sym)))
        {
            (mapped(MapKind::Present), ACC_DEFAULT_PRESENT)
        } else if sym.ty.is_scalar() && is_struct(sym, symbols) {
            if sym.ty.is_const_base() {
                (mapped(MapKind::To), STRUCT_CONST_TO)
            } else {
                (mapped(MapKind::ToFrom), STRUCT_TOFROM)
            }
        } else if sym.ty.is_scalar() {
            if is_kernels {
                (
                    Attr::Mapped {
                        kind: MapKind::ToFrom,
                        sections: vec![],
                        mods: MapMods::default(),
                    },
                    "scalar in a kernels construct (implicit copy)",
                )
            } else {
                (Attr::Firstprivate, "scalar (implicit firstprivate)")
            }
        } else if sym.ty.is_array() {
            if unknown_extent(sym) {
                diags.push(no_extent(u, sym));
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
                    mods: MapMods::default(),
                },
                if kind == MapKind::To {
                    "array of known extent with const elements (implicit map to)"
                } else {
                    "array of known extent (implicit map tofrom)"
                },
            )
        } else {
            let mut d = Diagnostic::new(codes::POINTER_NO_EXTENT, u.span, format!("pointer `{}` is used in an offloaded region but what it points to is not mapped", u.name))
                    .with_label("pointer used here")
                    .with_secondary(sym.span, "declared here")
                    .with_help(format!(
                        "map the data it points to with an array section, e.g. `{}`",
                        if dir.model == Model::Omp { format!("map(tofrom: {}[0:n])", u.name) } else { format!("copy({}[0:n])", u.name) }
                    ));
            if dir.model == Model::Acc {
                d = d.with_note(
                    "OpenACC 3.3 2.6.2: a pointer with no data clause is a scalar (firstprivate in parallel and serial constructs, copy in kernels): only its value goes to the device, the data it points to is not mapped, so the device would use a host address (write `present(p[0:n])` when a caller maps the data)",
                );
            }
            diags.push(d);
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

/// OpenACC `default(present)` (OpenACC 3.3 2.6.2): an array or composite
/// variable with no data clause and no enclosing data construct is treated
/// as if it appeared in a `present` clause. Scalars keep their rules.
pub const ACC_DEFAULT_PRESENT: &str =
    "array or structure under default(present) (present: the device copy must exist)";

fn acc_default_present(dir: &Directive) -> bool {
    dir.model == Model::Acc
        && dir
            .clause("default")
            .is_some_and(|c| c.keyword() == Some("present"))
}

/// The rule of a structure or union used in a region with no clause: an
/// aggregate, mapped tofrom (OpenMP 5.2 5.8.9) or copied (OpenACC 3.3 2.6.2),
/// never a firstprivate scalar.
pub const STRUCT_TOFROM: &str =
    "structure or union (aggregate: implicit map tofrom / copy; the region writes the host's copy)";

/// A const structure or union: copied in only (its host copy is never written).
pub const STRUCT_CONST_TO: &str = "const structure or union (aggregate: implicit map to / copyin)";

/// Whether `sym` is a structure or union (through typedef names this file
/// shows), not a pointer or array of one.
fn is_struct(sym: &Symbol, symbols: &super::symbols::Scope) -> bool {
    let typedef_of = |n: &str| {
        symbols
            .get(n)
            .filter(|s| s.is_typedef)
            .map(|s| s.ty.clone())
    };
    category(&sym.ty, &typedef_of) == Some(Category::Aggregate)
}

/// Whether `sym` is an array whose first extent is not written (`int a[]`).
fn unknown_extent(sym: &Symbol) -> bool {
    sym.ty
        .array_sizes()
        .first()
        .map(|s| s.is_none())
        .unwrap_or(true)
}

fn no_extent(u: &Use, sym: &Symbol) -> Diagnostic {
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
    ))
}

/// What a `defaultmap` clause does to one variable.
enum DefaultmapRule {
    /// The clause decided the attribute.
    Decided(Attr, &'static str),
    /// A diagnostic was reported; the variable gets no attribute.
    Reported,
    /// No clause applies (or `default` / `none`, which validation checked):
    /// the implicit rules decide.
    NoEffect,
}

/// The attribute that the `defaultmap` clause of `dir` for the category of
/// `sym` gives it (OpenMP 5.2, 5.8.7): a map type maps the variable as a
/// whole, `firstprivate` copies it, `present` requires its device copy.
/// What cannot be lowered is a located E0901.
fn by_defaultmap(
    dir: &Directive,
    u: &Use,
    sym: &Symbol,
    symbols: &crate::sema::symbols::Scope,
    env: &DataEnv,
    diags: &mut Vec<Diagnostic>,
) -> DefaultmapRule {
    let typedef_of = |n: &str| {
        symbols
            .get(n)
            .filter(|s| s.is_typedef)
            .map(|s| s.ty.clone())
    };
    let not_supported = |span: Span, clause: &Clause, msg: String| {
        Diagnostic::new(codes::NOT_SUPPORTED, span, msg)
            .with_label("used in the offloaded region")
            .with_secondary(clause.span, "defaultmap clause")
    };
    let Some(cat) = category(&sym.ty, &typedef_of) else {
        // A typedef this file does not show: the category is unknown, so
        // only a clause whose behaviour does not change anything is fine.
        let changing = dir.clauses_named("defaultmap").find(|c| {
            !matches!(
                c.positional_args().next().map(|a| a.text.as_str()),
                Some("default" | "none")
            )
        });
        return match changing {
            Some(c) => {
                diags.push(
                    not_supported(
                        u.span,
                        c,
                        format!(
                            "`defaultmap` on `{}`, whose type `{}` is not known here, is not supported yet",
                            u.name,
                            sym.ty.type_name()
                        ),
                    )
                    .with_help(format!("list `{}` in a map or firstprivate clause", u.name)),
                );
                DefaultmapRule::Reported
            }
            None => DefaultmapRule::NoEffect,
        };
    };
    let Some((behavior, clause)) = defaultmap_for(dir, Some(cat)) else {
        return DefaultmapRule::NoEffect;
    };
    let kind = match behavior {
        Behavior::Default | Behavior::None => return DefaultmapRule::NoEffect,
        Behavior::Alloc => MapKind::Alloc,
        Behavior::To => MapKind::To,
        Behavior::From => MapKind::From,
        Behavior::ToFrom => MapKind::ToFrom,
        Behavior::Present => MapKind::Present,
        Behavior::Firstprivate => MapKind::To,
    };
    if cat == Category::Pointer && behavior == Behavior::Firstprivate {
        // OpenMP 5.2 5.8.7: the pointer's value is copied (a host address,
        // which the region may only assign before it dereferences it).
        return DefaultmapRule::Decided(
            Attr::Firstprivate,
            "pointer under defaultmap(firstprivate): implicit firstprivate (the pointer's value)",
        );
    }
    if cat == Category::Pointer {
        // OpenMP 5.2 5.8.7: as if in a map clause, which maps the pointer
        // variable itself (`sema::pointer_itself`).
        if let Some(d) = super::pointer_itself::refusal(&u.name, u.span, Some(u), env) {
            diags.push(d.with_secondary(clause.span, "defaultmap clause"));
            return DefaultmapRule::Reported;
        }
        return DefaultmapRule::Decided(
            Attr::Mapped {
                kind,
                sections: vec![],
                mods: MapMods {
                    itself: true,
                    ..MapMods::default()
                },
            },
            defaultmap_rule(behavior, cat, false),
        );
    }
    let keep = sym.ty.is_const_base();
    let rule = defaultmap_rule(behavior, cat, keep);
    if behavior == Behavior::Firstprivate {
        if sym.ty.is_array() {
            // One copy of the array for the region, initialised from the
            // host and never copied back (lower/privarray.rs).
            return match super::privarray::whole_array(sym, symbols) {
                Ok(()) => DefaultmapRule::Decided(
                    Attr::ArrayPrivate {
                        first: true,
                        sections: vec![],
                    },
                    rule,
                ),
                Err(why) => {
                    diags.push(
                        not_supported(
                            u.span,
                            clause,
                            format!(
                                "firstprivate of the array `{}` (from `defaultmap`): {why}",
                                u.name
                            ),
                        )
                        .with_help(format!("map it, e.g. `map(to: {})`", u.name)),
                    );
                    DefaultmapRule::Reported
                }
            };
        }
        return DefaultmapRule::Decided(Attr::Firstprivate, rule);
    }
    if sym.ty.is_array() && unknown_extent(sym) {
        diags.push(no_extent(u, sym));
        return DefaultmapRule::Reported;
    }
    let kind = match (kind, keep) {
        (MapKind::ToFrom, true) => MapKind::To,
        (MapKind::From, true) => MapKind::Alloc,
        (k, _) => k,
    };
    DefaultmapRule::Decided(
        Attr::Mapped {
            kind,
            sections: vec![],
            mods: MapMods::default(),
        },
        rule,
    )
}

/// The scalar type of a reduction item (for an array or array section, its
/// element type, with `true`), or the located error that says why it cannot
/// be reduced.
pub fn reduction_type(
    item: &ListItem,
    sym: &Symbol,
    op: RedOp,
    symbols: &crate::sema::symbols::Scope,
) -> Result<(Arith, bool), Box<Diagnostic>> {
    if !item.sections.is_empty() || sym.ty.is_array() {
        let what = if item.sections.is_empty() {
            "array"
        } else {
            "array-section"
        };
        let unsupported = |msg: String, label: String| {
            Box::new(
                Diagnostic::new(codes::NOT_SUPPORTED, item.span, msg)
                    .with_label(label)
                    .with_secondary(sym.span, "declared here")
                    .with_help("reduce a one-dimensional array or section, or accumulate per element in the loop body"),
            )
        };
        // One dimension (an array or a pointer), or an array of arrays
        // whose elements are scalars: lowering reduces its elements as one
        // contiguous run (lower/reduction/array_bounds.rs).
        let dims = sym.ty.dims();
        let all_arrays = sym
            .ty
            .derivs
            .iter()
            .all(|d| matches!(d, super::Deriv::Array(_)));
        let elem = if dims >= 2 && all_arrays {
            super::CType {
                base: sym.ty.base.clone(),
                derivs: vec![],
            }
        } else {
            sym.ty.element()
        };
        if (dims != 1 && !all_arrays) || item.sections.len() > dims || !elem.is_scalar() {
            return Err(unsupported(
                format!("{what} reductions over more than one dimension of pointers are not supported yet"),
                format!("`{}` has type `{}`", item.name, sym.ty.type_name()),
            ));
        }
        // The per-thread copies of an array reduction are built and combined
        // element by element as the element type (p2c_red_array), which nvcc
        // cannot do for a complex type in device code (no real-to-complex
        // conversion for the identity).
        if arith::classify(&elem.base, symbols).is_some_and(|a| a.is_complex()) {
            return Err(unsupported(
                format!("{what} reductions over complex elements are not supported yet"),
                format!("`{}` has type `{}`", item.name, sym.ty.type_name()),
            ));
        }
        if item.sections.is_empty()
            && matches!(sym.ty.derivs.first(), Some(super::Deriv::Array(None)))
        {
            return Err(unsupported(
                "array reductions over an array of unknown extent are not supported yet"
                    .to_string(),
                format!(
                    "`{}` has no extent here: name a section such as `{}[0:n]`",
                    item.name, item.name
                ),
            ));
        }
        // A variable-length array: the kernel cannot name its extent.
        for extent in sym.ty.derivs.iter().filter_map(|d| match d {
            super::Deriv::Array(Some(e)) => Some(e),
            _ => None,
        }) {
            let vla = extent
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|w| {
                    symbols
                        .get(w)
                        .is_some_and(|s| !s.is_typedef && !s.ty.is_function())
                });
            if vla {
                return Err(unsupported(
                    format!("{what} reductions over a variable-length array are not supported yet"),
                    format!("`{}` has type `{}`", item.name, sym.ty.type_name()),
                ));
            }
        }
        let elem_sym = Symbol {
            ty: elem,
            ..sym.clone()
        };
        return reduction_type(
            &ListItem {
                sections: vec![],
                ..item.clone()
            },
            &elem_sym,
            op,
            symbols,
        )
        .map(|(a, _)| (a, true));
    }
    let bad = |label: &str| {
        Box::new(
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
            .with_label(label.to_string())
            .with_secondary(sym.span, "declared here"),
        )
    };
    let arith = match arith::classify(&sym.ty.base, symbols) {
        Some(a) if sym.ty.is_scalar() => a,
        _ => return Err(bad("not an arithmetic scalar")),
    };
    if arith == Arith::LongDouble {
        // nvcc and clang compute a device `long double` as `double`: the
        // reduced value would lose the host's extra precision.
        return Err(Box::new(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                item.name_span,
                format!(
                    "`{}` reductions (of `{}`) are not supported yet",
                    sym.ty.type_name(),
                    item.name
                ),
            )
            .with_label("CUDA device code computes `long double` as `double`")
            .with_secondary(sym.span, "declared here")
            .with_note("the host's `long double` has a 64-bit significand (x86-64), the device's `double` 53 bits, so the result would differ from the host's")
            .with_help("reduce a `double` copy in the region if its precision is enough"),
        ));
    }
    if arith.is_complex() {
        // `+ - *` combine complex values (seed 001: two parts of the
        // underlying type); validation reports `min max & | ^` (E0304).
        if matches!(op, RedOp::LogAnd | RedOp::LogOr) {
            return Err(Box::new(
                Diagnostic::new(
                    codes::NOT_SUPPORTED,
                    item.name_span,
                    format!(
                        "`{}` reductions over the complex variable `{}` are not supported yet",
                        op.as_str(),
                        item.name
                    ),
                )
                .with_label("complex operand")
                .with_secondary(sym.span, "declared here")
                .with_help("reduce `__real__ v != 0 || __imag__ v != 0` into an `int`"),
            ));
        }
        if !op.allowed(arith) {
            return Err(bad(&format!("`{}` needs a real type", op.as_str())));
        }
        return Ok((arith, false));
    }
    if !op.allowed(arith) {
        return Err(bad(&format!("`{}` needs an integer type", op.as_str())));
    }
    Ok((arith, false))
}

/// Sections must fit the variable: one per subscriptable dimension at most;
/// a pointer needs a section; pointers below the first level are not followed.
pub fn check_sections(
    model: Model,
    item: &ListItem,
    sym: &Symbol,
    diags: &mut Vec<Diagnostic>,
) -> bool {
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
    if super::pointer_itself::is_pointer_itself(model, item, sym) {
        // OpenMP 5.2 maps the pointer variable itself, one object like a
        // scalar (`sema::pointer_itself`).
        return true;
    }
    if sym.ty.is_pointer() && item.sections.is_empty() && model == Model::Omp {
        // A member path ending in a pointer: not lowered.
        diags.push(
            Diagnostic::new(
                codes::NOT_SUPPORTED,
                item.span,
                format!(
                    "mapping `{}{}`, a member reached through the pointer `{}`, with no array section is not supported yet",
                    item.name, item.path, item.name
                ),
            )
            .with_label("not lowered yet")
            .with_help(format!(
                "to map the data it points to, name a section, e.g. `{}[0:n]`; with no clause at all the region attaches the pointer to the mapped data that contains its value",
                item.name
            )),
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

#[cfg(test)]
mod tests {
    use crate::source::SourceFile;

    fn codes(src: &str) -> Vec<String> {
        let t = crate::translate(&SourceFile::new("t.c", src), &crate::Options::default());
        t.diagnostics
            .iter()
            .map(|d| d.code.as_str().to_string())
            .collect()
    }

    /// defaultmap categories: typedefs resolved, structures are aggregates,
    /// enumerations and complex numbers scalars.
    #[test]
    fn defaultmap_categories() {
        use super::{category, Category};
        use crate::sema::{CType, Deriv};
        let ty = |base: &str, derivs: Vec<Deriv>| CType {
            base: base.to_string(),
            derivs,
        };
        let ptr = || Deriv::Pointer { quals: vec![] };
        let typedefs = |n: &str| match n {
            "real" => Some(ty("double", vec![])),
            "pt" => Some(ty("struct pt", vec![])),
            "iptr" => Some(ty("int", vec![ptr()])),
            "vec3" => Some(ty("real", vec![Deriv::Array(Some("3".into()))])),
            _ => None,
        };
        let cat = |base: &str, derivs: Vec<Deriv>| category(&ty(base, derivs), &typedefs);
        assert_eq!(cat("const unsigned long", vec![]), Some(Category::Scalar));
        assert_eq!(cat("enum color", vec![]), Some(Category::Scalar));
        assert_eq!(cat("double _Complex", vec![]), Some(Category::Scalar));
        assert_eq!(cat("size_t", vec![]), Some(Category::Scalar));
        assert_eq!(cat("real", vec![]), Some(Category::Scalar));
        assert_eq!(cat("struct pt", vec![]), Some(Category::Aggregate));
        assert_eq!(cat("union u", vec![]), Some(Category::Aggregate));
        assert_eq!(cat("pt", vec![]), Some(Category::Aggregate));
        assert_eq!(cat("vec3", vec![]), Some(Category::Aggregate));
        assert_eq!(
            cat("int", vec![Deriv::Array(None)]),
            Some(Category::Aggregate)
        );
        assert_eq!(cat("pt", vec![ptr()]), Some(Category::Pointer));
        assert_eq!(cat("iptr", vec![]), Some(Category::Pointer));
        assert_eq!(cat("unknown_t", vec![]), None);
    }

    /// Arrays (of any number of dimensions) and sections are lowered; a
    /// pointer to arrays, an array of pointers, a variable-length array and
    /// a pointer without a section are not.
    #[test]
    fn array_reductions() {
        let region = |decl: &str, item: &str| {
            format!(
                "#define K 8\nint main(void) {{\n  int n = 8;\n  {decl}\n\
                 #pragma omp target teams distribute parallel for reduction(+: {item})\n\
                 for (int i = 0; i < 8; i++) h[i % 2] += 1;\n  return 0;\n}}\n"
            )
        };
        let none: [&str; 0] = [];
        assert_eq!(codes(&region("int h[K] = {0};", "h")), none);
        assert_eq!(codes(&region("int h[K] = {0};", "h[2:3]")), none);
        assert_eq!(
            codes(&region("int g[K] = {0}; int *h = g;", "h[0:n]")),
            none
        );
        assert_eq!(codes(&region("double h[K];", "h[1]")), none);
        // Arrays of arrays are reduced as their contiguous run of scalars
        // (the contiguity of a section is lowering's check).
        assert_eq!(codes(&region("int h[2][K];", "h")), none);
        assert_eq!(codes(&region("int h[2][K];", "h[0:2][0:K]")), none);
        assert_eq!(codes(&region("int *h[K];", "h")), ["E0304"]);
        assert_eq!(codes(&region("int h[n];", "h")), ["E0901"]);
        assert_eq!(codes(&region("int g[K]; int *h = g;", "h")), ["E0304"]);
        assert_eq!(
            codes(&region("double h[K];", "h[0:2]").replace("+:", "|:")),
            ["E0304"]
        );
    }

    /// What the specifications allow but one attribute per variable cannot
    /// express is "not supported yet"; what they forbid is E0204 (validation).
    #[test]
    fn second_clause_on_a_variable() {
        let covered = "double a[8];\nint main(void) {\n  double s = 0;\n\
            #pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)\n\
            for (int i = 0; i < 8; i++) s += a[i];\n  return 0;\n}\n";
        assert!(codes(covered).is_empty(), "the reduction maps s tofrom");
        for kind in ["to", "from", "alloc"] {
            let mapped = covered.replace("map(tofrom: s)", &format!("map({kind}: s)"));
            assert!(
                codes(&mapped).is_empty(),
                "the reduction's RESULT is map({kind})"
            );
        }
        // An array in both is not lowered yet, whatever the map-type.
        let array = covered
            .replace("double s = 0;", "double s[2] = {0};")
            .replace("s += a[i]", "s[i % 2] += a[i]");
        assert_eq!(codes(&array), ["E0901"]);
        assert_eq!(
            codes(&array.replace("map(tofrom: s)", "map(to: s)")),
            ["E0901"]
        );
        let forbidden = "double a[8];\nint main(void) {\n  double s = 0;\n\
            #pragma omp target teams distribute parallel for private(s) reduction(+: s)\n\
            for (int i = 0; i < 8; i++) s += a[i];\n  return 0;\n}\n";
        assert_eq!(codes(forbidden), ["E0204"]);
    }
}
