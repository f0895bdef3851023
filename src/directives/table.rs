//! The directive and clause catalogue the parser and the printer share.
//!
//! This is the machine form of `grammar/openmp.md` and `grammar/openacc.md`:
//! every directive name (combined forms spelled out, so the parser can take
//! the longest match) and, for every clause, the shape of its argument. Which
//! clause is allowed on which directive is validation's business, not this
//! table's: the parser accepts any known clause on any directive.

use super::ast::Model;

/// How the text inside a clause's (or directive's) parentheses is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// No parentheses: `nowait`, `seq`.
    Bare,
    /// Optional `(expr)`: `async`, `ordered`, `partial`.
    OptExpr,
    /// `(expr)`.
    Expr,
    /// `([modifier :] expr)` with the modifier from the set: `device(ancestor: 1)`.
    ExprMod(&'static [&'static str]),
    /// `if([directive-name-modifier :] expr)`; the modifier may be several words.
    If,
    /// `(expr)` or several expressions (`num_teams(lo : hi)`, `num_gangs(a, b, c)`).
    ExprOrArgs,
    /// `(list)`.
    List,
    /// `([modifier[,] ... :] list)` with modifiers from the set; entries ending in
    /// `(` (`mapper(`) take a parenthesised argument. An empty set with `any`
    /// means any expression is accepted as a modifier (`allocate(alloc: x)`).
    ListMod(&'static [&'static str], bool),
    /// `map`: like `ListMod`, the map type checked.
    Map,
    /// `([modifier,] identifier : list)`.
    Reduction,
    /// `(list [: modifiers])`: `linear`, `aligned`.
    ListPost,
    /// `depend`: a `ListMod` of dependence types, or `source` / `sink : vector`.
    Depend,
    /// `doacross(source :)`, `doacross(sink : vector)`.
    Doacross,
    /// `(keyword)` from the set.
    Keyword(&'static [&'static str]),
    /// Optional `(keyword)`.
    OptKeyword(&'static [&'static str]),
    /// `schedule([modifier[, modifier] :] kind[, chunk])`.
    Schedule,
    /// `dist_schedule(kind[, chunk])`.
    DistSchedule,
    /// `defaultmap(behavior[: category])`.
    Defaultmap,
    /// `order([modifier :] concurrent)`.
    Order,
    /// Comma-separated expressions: `tile(4, *)`, `device_type(nvidia, host)`, `sizes(4, 8)`.
    ExprList,
    /// Optional named arguments: `gang(num: 4, static: *)`, `worker(num: 2)`, `vector(length: 32)`.
    Named(&'static [&'static str]),
    /// OpenACC `wait([devnum: e :] [queues:] e, ...)`, optional.
    Wait,
    /// `declare reduction(identifier : types : combiner)`.
    DeclareReduction,
    /// Anything balanced, kept as one expression text: `match(...)`, `when(...)`, `initializer(...)`.
    Raw,
}

pub(crate) const MAP_TYPES: &[&str] = &["to", "from", "tofrom", "alloc", "release", "delete"];
pub(crate) const MAP_MODIFIERS: &[&str] = &[
    "always",
    "close",
    "present",
    "ompx_hold",
    "mapper(",
    "iterator(",
];
pub(crate) const REDUCTION_MODIFIERS: &[&str] = &["inscan", "task", "default"];
pub(crate) const REDUCTION_OPS: &[&str] = &["+", "*", "-", "&", "|", "^", "&&", "||", "min", "max"];
pub(crate) const SCHEDULE_MODIFIERS: &[&str] = &["monotonic", "nonmonotonic", "simd"];
pub(crate) const SCHEDULE_KINDS: &[&str] = &["static", "dynamic", "guided", "auto", "runtime"];
pub(crate) const DEFAULTMAP_BEHAVIORS: &[&str] = &[
    "alloc",
    "to",
    "from",
    "tofrom",
    "firstprivate",
    "none",
    "default",
    "present",
];
pub(crate) const DEFAULTMAP_CATEGORIES: &[&str] =
    &["scalar", "aggregate", "pointer", "all", "allocatable"];
pub(crate) const ORDER_MODIFIERS: &[&str] = &["reproducible", "unconstrained"];
pub(crate) const DEPEND_TYPES: &[&str] = &[
    "in",
    "out",
    "inout",
    "mutexinoutset",
    "inoutset",
    "depobj",
    "iterator(",
];

const OMP_DIRECTIVES: &[&str] = &[
    "allocate",
    "allocators",
    "assume",
    "assumes",
    "atomic",
    "barrier",
    "begin assumes",
    "begin declare target",
    "begin declare variant",
    "begin metadirective",
    "cancel",
    "cancellation point",
    "critical",
    "declare mapper",
    "declare reduction",
    "declare simd",
    "declare target",
    "declare variant",
    "depobj",
    "dispatch",
    "distribute",
    "distribute parallel for",
    "distribute parallel for simd",
    "distribute simd",
    "end assumes",
    "end declare target",
    "end declare variant",
    "end metadirective",
    "error",
    "flush",
    "for",
    "for simd",
    "interop",
    "loop",
    "masked",
    "masked taskloop",
    "masked taskloop simd",
    "master",
    "master taskloop",
    "master taskloop simd",
    "metadirective",
    "nothing",
    "ordered",
    "parallel",
    "parallel for",
    "parallel for simd",
    "parallel loop",
    "parallel masked",
    "parallel masked taskloop",
    "parallel masked taskloop simd",
    "parallel master",
    "parallel master taskloop",
    "parallel master taskloop simd",
    "parallel sections",
    "requires",
    "scan",
    "scope",
    "section",
    "sections",
    "simd",
    "single",
    "target",
    "target data",
    "target enter data",
    "target exit data",
    "target parallel",
    "target parallel for",
    "target parallel for simd",
    "target parallel loop",
    "target simd",
    "target teams",
    "target teams distribute",
    "target teams distribute parallel for",
    "target teams distribute parallel for simd",
    "target teams distribute simd",
    "target teams loop",
    "target update",
    "task",
    "taskgroup",
    "taskloop",
    "taskloop simd",
    "taskwait",
    "taskyield",
    "teams",
    "teams distribute",
    "teams distribute parallel for",
    "teams distribute parallel for simd",
    "teams distribute simd",
    "teams loop",
    "threadprivate",
    "tile",
    "unroll",
];

const ACC_DIRECTIVES: &[&str] = &[
    "atomic",
    "cache",
    "data",
    "declare",
    "end atomic",
    "end data",
    "end host_data",
    "end kernels",
    "end kernels loop",
    "end parallel",
    "end parallel loop",
    "end serial",
    "end serial loop",
    "enter data",
    "exit data",
    "host_data",
    "init",
    "kernels",
    "kernels loop",
    "loop",
    "parallel",
    "parallel loop",
    "routine",
    "serial",
    "serial loop",
    "set",
    "shutdown",
    "update",
    "wait",
];

/// Every directive name of `model`, in a fixed order.
pub(crate) fn directives(model: Model) -> &'static [&'static str] {
    match model {
        Model::Omp => OMP_DIRECTIVES,
        Model::Acc => ACC_DIRECTIVES,
    }
}

/// The shape of the parenthesised argument the directive itself takes, if any.
/// `required` says whether the parentheses must be there.
pub(crate) fn directive_arg(model: Model, name: &str) -> Option<(Shape, bool)> {
    match (model, name) {
        (Model::Omp, "critical") => Some((Shape::Expr, false)),
        (Model::Omp, "flush") => Some((Shape::List, false)),
        (Model::Omp, "threadprivate") => Some((Shape::List, true)),
        (Model::Omp, "declare target") => Some((Shape::List, false)),
        (Model::Omp, "allocate") => Some((Shape::List, true)),
        (Model::Omp, "depobj") => Some((Shape::Expr, true)),
        (Model::Omp, "declare reduction") => Some((Shape::DeclareReduction, true)),
        (Model::Omp, "declare mapper") => Some((Shape::Raw, true)),
        (Model::Omp, "declare variant") => Some((Shape::Raw, true)),
        (Model::Omp, "declare simd") => Some((Shape::Expr, false)),
        (Model::Acc, "cache") => Some((Shape::ListMod(&["readonly"], false), true)),
        (Model::Acc, "wait") => Some((Shape::Wait, false)),
        (Model::Acc, "routine") => Some((Shape::Expr, false)),
        _ => None,
    }
}

const OMP_CLAUSES: &[(&str, Shape)] = &[
    ("absent", Shape::Raw),
    ("acq_rel", Shape::Bare),
    ("acquire", Shape::Bare),
    ("adjust_args", Shape::Raw),
    ("affinity", Shape::ListMod(&["iterator("], false)),
    ("align", Shape::Expr),
    ("aligned", Shape::ListPost),
    ("allocate", Shape::ListMod(&["allocator(", "align("], true)),
    ("allocator", Shape::Expr),
    ("append_args", Shape::Raw),
    ("at", Shape::Keyword(&["compilation", "execution"])),
    (
        "atomic_default_mem_order",
        Shape::Keyword(&["seq_cst", "acq_rel", "relaxed", "acquire", "release"]),
    ),
    ("bind", Shape::Keyword(&["teams", "parallel", "thread"])),
    ("capture", Shape::Bare),
    ("collapse", Shape::Expr),
    ("compare", Shape::Bare),
    ("contains", Shape::Raw),
    ("copyin", Shape::List),
    ("copyprivate", Shape::List),
    (
        "default",
        Shape::Keyword(&["shared", "none", "private", "firstprivate"]),
    ),
    ("defaultmap", Shape::Defaultmap),
    ("depend", Shape::Depend),
    ("destroy", Shape::OptExpr),
    ("detach", Shape::Expr),
    ("device", Shape::ExprMod(&["ancestor", "device_num"])),
    ("device_type", Shape::Keyword(&["host", "nohost", "any"])),
    ("dist_schedule", Shape::DistSchedule),
    ("doacross", Shape::Doacross),
    ("dynamic_allocators", Shape::Bare),
    ("enter", Shape::List),
    ("exclusive", Shape::List),
    ("fail", Shape::Keyword(&["seq_cst", "acquire", "relaxed"])),
    ("filter", Shape::Expr),
    ("final", Shape::Expr),
    ("firstprivate", Shape::List),
    ("for", Shape::Bare),
    (
        "from",
        Shape::ListMod(&["present", "mapper(", "iterator("], false),
    ),
    ("full", Shape::Bare),
    ("grainsize", Shape::ExprMod(&["strict"])),
    ("has_device_addr", Shape::List),
    ("hint", Shape::Expr),
    ("holds", Shape::Expr),
    ("if", Shape::If),
    ("in_reduction", Shape::Reduction),
    ("inbranch", Shape::Bare),
    ("inclusive", Shape::List),
    ("indirect", Shape::OptExpr),
    ("init", Shape::Raw),
    ("initializer", Shape::Raw),
    ("is_device_ptr", Shape::List),
    ("lastprivate", Shape::ListMod(&["conditional"], false)),
    ("linear", Shape::ListPost),
    ("link", Shape::List),
    ("map", Shape::Map),
    ("match", Shape::Raw),
    ("mergeable", Shape::Bare),
    ("message", Shape::Expr),
    ("no_openmp", Shape::Bare),
    ("no_openmp_routines", Shape::Bare),
    ("no_parallelism", Shape::Bare),
    ("nocontext", Shape::Expr),
    ("nogroup", Shape::Bare),
    ("nontemporal", Shape::List),
    ("notinbranch", Shape::Bare),
    ("novariants", Shape::Expr),
    ("nowait", Shape::Bare),
    ("num_tasks", Shape::ExprMod(&["strict"])),
    ("num_teams", Shape::ExprOrArgs),
    ("num_threads", Shape::Expr),
    ("order", Shape::Order),
    ("ordered", Shape::OptExpr),
    ("otherwise", Shape::Raw),
    ("parallel", Shape::Bare),
    ("partial", Shape::OptExpr),
    ("priority", Shape::Expr),
    ("private", Shape::List),
    (
        "proc_bind",
        Shape::Keyword(&["primary", "master", "close", "spread"]),
    ),
    ("read", Shape::Bare),
    ("reduction", Shape::Reduction),
    ("relaxed", Shape::Bare),
    ("release", Shape::Bare),
    ("reverse_offload", Shape::Bare),
    ("safelen", Shape::Expr),
    ("schedule", Shape::Schedule),
    ("sections", Shape::Bare),
    ("seq_cst", Shape::Bare),
    ("severity", Shape::Keyword(&["fatal", "warning"])),
    ("shared", Shape::List),
    ("simd", Shape::Bare),
    ("simdlen", Shape::Expr),
    ("sizes", Shape::ExprList),
    ("task_reduction", Shape::Reduction),
    ("taskgroup", Shape::Bare),
    ("thread_limit", Shape::Expr),
    ("threads", Shape::Bare),
    (
        "to",
        Shape::ListMod(&["present", "mapper(", "iterator("], false),
    ),
    ("unified_address", Shape::Bare),
    ("unified_shared_memory", Shape::Bare),
    ("uniform", Shape::List),
    ("untied", Shape::Bare),
    (
        "update",
        Shape::OptKeyword(&["in", "out", "inout", "mutexinoutset", "inoutset"]),
    ),
    ("use", Shape::Expr),
    ("use_device_addr", Shape::List),
    ("use_device_ptr", Shape::List),
    ("uses_allocators", Shape::Raw),
    ("weak", Shape::Bare),
    ("when", Shape::Raw),
    ("write", Shape::Bare),
];

const ACC_CLAUSES: &[(&str, Shape)] = &[
    ("async", Shape::OptExpr),
    ("attach", Shape::List),
    ("auto", Shape::Bare),
    ("bind", Shape::Expr),
    ("capture", Shape::Bare),
    ("collapse", Shape::ExprMod(&["force"])),
    ("copy", Shape::List),
    ("copyin", Shape::ListMod(&["readonly"], false)),
    ("copyout", Shape::ListMod(&["zero"], false)),
    ("create", Shape::ListMod(&["zero"], false)),
    ("default", Shape::Keyword(&["none", "present"])),
    ("default_async", Shape::Expr),
    ("delete", Shape::List),
    ("detach", Shape::List),
    ("device", Shape::List),
    ("device_num", Shape::Expr),
    ("device_resident", Shape::List),
    ("device_type", Shape::ExprList),
    ("deviceptr", Shape::List),
    ("dtype", Shape::ExprList),
    ("finalize", Shape::Bare),
    ("firstprivate", Shape::List),
    ("gang", Shape::Named(&["num", "static", "dim"])),
    ("host", Shape::List),
    ("if", Shape::Expr),
    ("if_present", Shape::Bare),
    ("independent", Shape::Bare),
    ("link", Shape::List),
    ("no_create", Shape::List),
    ("nohost", Shape::Bare),
    ("num_gangs", Shape::ExprOrArgs),
    ("num_workers", Shape::Expr),
    ("pcopy", Shape::List),
    ("pcopyin", Shape::ListMod(&["readonly"], false)),
    ("pcopyout", Shape::ListMod(&["zero"], false)),
    ("pcreate", Shape::ListMod(&["zero"], false)),
    ("present", Shape::List),
    ("present_or_copy", Shape::List),
    ("present_or_copyin", Shape::ListMod(&["readonly"], false)),
    ("present_or_copyout", Shape::ListMod(&["zero"], false)),
    ("present_or_create", Shape::ListMod(&["zero"], false)),
    ("private", Shape::List),
    ("read", Shape::Bare),
    ("reduction", Shape::Reduction),
    ("self", Shape::OptExpr),
    ("seq", Shape::Bare),
    ("tile", Shape::ExprList),
    ("update", Shape::Bare),
    ("use_device", Shape::List),
    ("vector", Shape::Named(&["length"])),
    ("vector_length", Shape::Expr),
    ("wait", Shape::Wait),
    ("worker", Shape::Named(&["num"])),
    ("write", Shape::Bare),
];

/// Every clause name of `model` with its shape, in a fixed order.
pub(crate) fn clauses(model: Model) -> &'static [(&'static str, Shape)] {
    match model {
        Model::Omp => OMP_CLAUSES,
        Model::Acc => ACC_CLAUSES,
    }
}

/// The shape of clause `name` on directive `directive`, `None` for an unknown clause.
/// A few clauses read differently on some directives.
pub(crate) fn clause_shape(model: Model, directive: &str, name: &str) -> Option<Shape> {
    match (model, name) {
        (Model::Omp, "default") if directive.ends_with("metadirective") => return Some(Shape::Raw),
        (Model::Omp, "to") if directive.ends_with("declare target") => return Some(Shape::List),
        (Model::Acc, "self") if directive == "update" => return Some(Shape::List),
        _ => {}
    }
    clauses(model)
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
}

/// Whether `words` (space-joined) is a directive-name modifier `if` accepts:
/// any OpenMP directive name, and `cancel`/`simd` constituents.
pub(crate) fn is_if_modifier(words: &str) -> bool {
    OMP_DIRECTIVES.contains(&words)
}
