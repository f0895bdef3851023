//! Facts of the two specifications that several rules share: how a combined
//! directive name splits into leaf constructs, which constructs have a
//! structured block, which clauses each leaf construct takes, and which
//! clauses are data clauses.
//!
//! Written for pragma2cuda from the OpenMP 5.2 and OpenACC 3.3 clause tables
//! (`grammar/openmp.md`, `grammar/openacc.md` are the readable form).

use crate::directives::{Directive, Model};

const OMP_LEAVES: &[&str] = &[
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
    "end assumes",
    "end declare target",
    "end declare variant",
    "end metadirective",
    "error",
    "flush",
    "for",
    "interop",
    "loop",
    "masked",
    "master",
    "metadirective",
    "nothing",
    "ordered",
    "parallel",
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
    "target update",
    "task",
    "taskgroup",
    "taskloop",
    "taskwait",
    "taskyield",
    "teams",
    "threadprivate",
    "tile",
    "unroll",
];

const ACC_LEAVES: &[&str] = &[
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
    "loop",
    "parallel",
    "routine",
    "serial",
    "set",
    "shutdown",
    "update",
    "wait",
];

/// The length of the longest name in `table`.
const fn longest(table: &[&str]) -> usize {
    let mut n = 0;
    let mut k = 0;
    while k < table.len() {
        if table[k].len() > n {
            n = table[k].len();
        }
        k += 1;
    }
    n
}

const OMP_LONGEST: usize = longest(OMP_LEAVES);
const ACC_LONGEST: usize = longest(ACC_LEAVES);

/// The leaf constructs of a directive name, outermost first:
/// `target teams distribute parallel for` -> `target`, `teams`, `distribute`,
/// `parallel`, `for`; `target enter data` -> `target enter data`.
pub fn leaves(model: Model, name: &str) -> Leaves {
    with_leaves(model, name, Leaves::new)
}

/// Most names have this many leaves or fewer: they are kept without an
/// allocation.
const INLINE_LEAVES: usize = 8;

/// The leaves of a directive name (a slice of leaf names), kept inline when
/// there are few (the rules ask for them for every clause).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaves {
    Inline(u8, [&'static str; INLINE_LEAVES]),
    Heap(Vec<&'static str>),
}

impl Leaves {
    fn new(ls: &[&'static str]) -> Self {
        if ls.len() <= INLINE_LEAVES {
            let mut a = [""; INLINE_LEAVES];
            a[..ls.len()].copy_from_slice(ls);
            Leaves::Inline(ls.len() as u8, a)
        } else {
            Leaves::Heap(ls.to_vec())
        }
    }
}

impl std::ops::Deref for Leaves {
    type Target = [&'static str];
    fn deref(&self) -> &[&'static str] {
        match self {
            Leaves::Inline(n, a) => &a[..*n as usize],
            Leaves::Heap(v) => v,
        }
    }
}

impl<const N: usize> PartialEq<[&str; N]> for Leaves {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == *other
    }
}

impl PartialEq<Vec<&str>> for Leaves {
    fn eq(&self, other: &Vec<&str>) -> bool {
        **self == **other
    }
}

impl<'a> IntoIterator for &'a Leaves {
    type Item = &'a &'static str;
    type IntoIter = std::slice::Iter<'a, &'static str>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl IntoIterator for Leaves {
    type Item = &'static str;
    type IntoIter = LeavesIter;
    fn into_iter(self) -> LeavesIter {
        LeavesIter {
            leaves: self,
            next: 0,
        }
    }
}

/// The leaves, by value.
pub struct LeavesIter {
    leaves: Leaves,
    next: usize,
}

impl Iterator for LeavesIter {
    type Item = &'static str;
    fn next(&mut self) -> Option<&'static str> {
        let l = self.leaves.get(self.next).copied()?;
        self.next += 1;
        Some(l)
    }
}

/// Calls `f` with [`leaves`]`(model, name)`, without copying them.
pub fn with_leaves<R>(model: Model, name: &str, f: impl Fn(&[&'static str]) -> R) -> R {
    // The rules ask for the leaves of the same few names again and again
    // (every clause of every directive): the last names are remembered.
    const MEMO: usize = 16;
    type Memo = Vec<(Model, String, Vec<&'static str>)>;
    thread_local! {
        static LAST: std::cell::RefCell<(Memo, usize)> = const { std::cell::RefCell::new((Vec::new(), 0)) };
    }
    LAST.try_with(|last| {
        let mut last = last.borrow_mut();
        let k = match last.0.iter().position(|(m, n, _)| *m == model && n == name) {
            Some(k) => k,
            None => {
                let ls = split_leaves(model, name);
                let (memo, next) = &mut *last;
                let entry = (model, name.to_string(), ls);
                if memo.len() < MEMO {
                    memo.push(entry);
                    memo.len() - 1
                } else {
                    let k = *next;
                    memo[k] = entry;
                    *next = (*next + 1) % MEMO;
                    k
                }
            }
        };
        f(&last.0[k].2)
    })
    .unwrap_or_else(|_| f(&split_leaves(model, name)))
}

/// [`leaves`], computed.
fn split_leaves(model: Model, name: &str) -> Vec<&'static str> {
    let (table, longest) = match model {
        Model::Omp => (OMP_LEAVES, OMP_LONGEST),
        Model::Acc => (ACC_LEAVES, ACC_LONGEST),
    };
    // The words are separated by single spaces, so the longest run of words
    // from a word on is the rest of the name, and each shorter run ends
    // before a space of it: no word list, no joined candidates. Runs longer
    // than the longest leaf are not looked up; the tables are sorted.
    let mut out = Vec::new();
    let mut rest = Some(name);
    while let Some(r) = rest {
        let mut cand = r;
        let found = loop {
            if cand.len() <= longest {
                if let Ok(k) = table.binary_search(&cand) {
                    break Some(table[k]);
                }
            }
            match cand.rfind(' ') {
                Some(p) => cand = &cand[..p],
                None => break None,
            }
        };
        // Past the matched run, or past the first word when none matched.
        let taken = match found {
            Some(l) => {
                out.push(l);
                cand.len()
            }
            None => r.find(' ').unwrap_or(r.len()),
        };
        rest = r.get(taken + 1..);
    }
    out
}

/// The leaf constructs of `d`.
pub fn leaves_of(d: &Directive) -> Leaves {
    leaves(d.model, &d.name)
}

/// Whether the directive governs the statement after it (a construct with a
/// structured block or an associated loop), as opposed to a stand-alone or
/// declarative directive whose "next statement" is just the code that follows.
pub fn has_block(d: &Directive) -> bool {
    let first = leaves_of(d).first().copied().unwrap_or("");
    match d.model {
        Model::Omp => match first {
            "ordered" => d.clause("depend").is_none() && d.clause("doacross").is_none(),
            _ => matches!(
                first,
                "allocators"
                    | "assume"
                    | "atomic"
                    | "critical"
                    | "dispatch"
                    | "distribute"
                    | "for"
                    | "loop"
                    | "masked"
                    | "master"
                    | "parallel"
                    | "scope"
                    | "section"
                    | "sections"
                    | "simd"
                    | "single"
                    | "target"
                    | "target data"
                    | "task"
                    | "taskgroup"
                    | "taskloop"
                    | "teams"
                    | "tile"
                    | "unroll"
            ),
        },
        Model::Acc => matches!(
            first,
            "parallel" | "kernels" | "serial" | "data" | "host_data" | "loop" | "atomic"
        ),
    }
}

/// Whether the directive is associated with a loop nest.
pub fn is_loop_directive(d: &Directive) -> bool {
    let ls = leaves_of(d);
    match d.model {
        Model::Omp => ls.iter().any(|l| {
            matches!(
                *l,
                "for" | "simd" | "distribute" | "loop" | "taskloop" | "tile" | "unroll"
            )
        }),
        Model::Acc => ls.contains(&"loop"),
    }
}

/// OpenACC compute constructs, combined forms included.
pub fn is_acc_compute(d: &Directive) -> bool {
    d.model == Model::Acc
        && leaves_of(d)
            .iter()
            .any(|l| matches!(*l, "parallel" | "kernels" | "serial"))
}

/// The clauses a leaf construct takes (OpenMP 5.2).
pub fn omp_leaf_clauses(leaf: &str) -> &'static [&'static str] {
    match leaf {
        "target" => &[
            "if",
            "device",
            "thread_limit",
            "private",
            "firstprivate",
            "in_reduction",
            "map",
            "is_device_ptr",
            "has_device_addr",
            "defaultmap",
            "nowait",
            "depend",
            "allocate",
            "uses_allocators",
        ],
        "target data" => &["if", "device", "map", "use_device_ptr", "use_device_addr"],
        "target enter data" | "target exit data" => &["if", "device", "map", "depend", "nowait"],
        "target update" => &["if", "device", "to", "from", "depend", "nowait"],
        "declare target" => &["enter", "to", "link", "device_type", "indirect"],
        "begin declare target" => &["device_type", "indirect"],
        "teams" => &[
            "num_teams",
            "thread_limit",
            "default",
            "private",
            "firstprivate",
            "shared",
            "reduction",
            "allocate",
            "if",
        ],
        "distribute" => &[
            "private",
            "firstprivate",
            "lastprivate",
            "collapse",
            "dist_schedule",
            "allocate",
            "order",
        ],
        "requires" => &[
            "reverse_offload",
            "unified_address",
            "unified_shared_memory",
            "atomic_default_mem_order",
            "dynamic_allocators",
        ],
        "declare mapper" => &["map"],
        "declare variant" => &["match", "adjust_args", "append_args"],
        "begin declare variant" => &["match"],
        "dispatch" => &[
            "device",
            "depend",
            "nowait",
            "novariants",
            "nocontext",
            "is_device_ptr",
            "has_device_addr",
        ],
        "interop" => &["init", "use", "destroy", "device", "depend", "nowait"],
        "parallel" => &[
            "if",
            "num_threads",
            "default",
            "private",
            "firstprivate",
            "shared",
            "copyin",
            "reduction",
            "proc_bind",
            "allocate",
        ],
        "for" => &[
            "private",
            "firstprivate",
            "lastprivate",
            "linear",
            "reduction",
            "schedule",
            "collapse",
            "ordered",
            "nowait",
            "allocate",
            "order",
        ],
        "simd" => &[
            "if",
            "safelen",
            "simdlen",
            "linear",
            "aligned",
            "nontemporal",
            "private",
            "lastprivate",
            "reduction",
            "collapse",
            "order",
        ],
        "loop" => &[
            "bind",
            "collapse",
            "order",
            "private",
            "lastprivate",
            "reduction",
        ],
        "sections" => &[
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "allocate",
            "nowait",
        ],
        "single" => &[
            "private",
            "firstprivate",
            "copyprivate",
            "allocate",
            "nowait",
        ],
        "scope" => &["private", "firstprivate", "reduction", "allocate", "nowait"],
        "masked" => &["filter"],
        "tile" => &["sizes"],
        "unroll" => &["full", "partial"],
        "task" => &[
            "if",
            "final",
            "untied",
            "default",
            "mergeable",
            "private",
            "firstprivate",
            "shared",
            "in_reduction",
            "depend",
            "priority",
            "allocate",
            "detach",
            "affinity",
        ],
        "taskloop" => &[
            "if",
            "shared",
            "private",
            "firstprivate",
            "lastprivate",
            "reduction",
            "in_reduction",
            "default",
            "grainsize",
            "num_tasks",
            "collapse",
            "final",
            "priority",
            "untied",
            "mergeable",
            "nogroup",
            "allocate",
        ],
        "taskgroup" => &["task_reduction", "allocate"],
        "taskwait" => &["depend", "nowait"],
        "critical" => &["hint"],
        "atomic" => &[
            "read", "write", "update", "capture", "compare", "seq_cst", "acq_rel", "release",
            "acquire", "relaxed", "hint", "fail", "weak",
        ],
        "flush" => &["seq_cst", "acq_rel", "release", "acquire"],
        "ordered" => &["doacross", "depend", "threads", "simd"],
        "depobj" => &["depend", "destroy", "update"],
        "cancel" => &["parallel", "sections", "for", "taskgroup", "if"],
        "cancellation point" => &["parallel", "sections", "for", "taskgroup"],
        "scan" => &["inclusive", "exclusive"],
        "declare reduction" => &["initializer"],
        "declare simd" => &[
            "simdlen",
            "linear",
            "aligned",
            "uniform",
            "inbranch",
            "notinbranch",
        ],
        "allocate" => &["allocator", "align"],
        "allocators" => &["allocate"],
        "metadirective" | "begin metadirective" => &["when", "otherwise", "default"],
        "assume" | "assumes" | "begin assumes" => &[
            "absent",
            "contains",
            "holds",
            "no_openmp",
            "no_openmp_routines",
            "no_parallelism",
        ],
        "error" => &["at", "severity", "message"],
        _ => &[],
    }
}

const ACC_DATA: &[&str] = &[
    "copy",
    "copyin",
    "copyout",
    "create",
    "no_create",
    "present",
    "deviceptr",
    "attach",
    "pcopy",
    "pcopyin",
    "pcopyout",
    "pcreate",
    "present_or_copy",
    "present_or_copyin",
    "present_or_copyout",
    "present_or_create",
];

/// The clauses a leaf construct takes (OpenACC 3.3); deprecated aliases
/// (`pcopy`, `present_or_copy`, ...) go wherever their modern form does.
pub fn acc_leaf_clauses(leaf: &str) -> Vec<&'static str> {
    let mut v = acc_leaf_own(leaf).to_vec();
    if acc_leaf_has_data(leaf) {
        v.extend_from_slice(ACC_DATA);
    }
    v
}

fn acc_leaf_own(leaf: &str) -> &'static [&'static str] {
    match leaf {
        "parallel" => &[
            "async",
            "wait",
            "num_gangs",
            "num_workers",
            "vector_length",
            "device_type",
            "dtype",
            "if",
            "self",
            "reduction",
            "private",
            "firstprivate",
            "default",
        ],
        "kernels" => &[
            "async",
            "wait",
            "num_gangs",
            "num_workers",
            "vector_length",
            "device_type",
            "dtype",
            "if",
            "self",
            "default",
        ],
        "serial" => &[
            "async",
            "wait",
            "device_type",
            "dtype",
            "if",
            "self",
            "reduction",
            "private",
            "firstprivate",
            "default",
        ],
        "loop" => &[
            "collapse",
            "gang",
            "worker",
            "vector",
            "seq",
            "independent",
            "auto",
            "tile",
            "device_type",
            "dtype",
            "private",
            "reduction",
        ],
        "data" => &["if", "async", "wait", "device_type", "dtype", "default"],
        "enter data" => &[
            "if",
            "async",
            "wait",
            "copyin",
            "create",
            "attach",
            "pcopyin",
            "pcreate",
            "present_or_copyin",
            "present_or_create",
        ],
        "exit data" => &[
            "if",
            "async",
            "wait",
            "copyout",
            "delete",
            "detach",
            "finalize",
            "pcopyout",
            "present_or_copyout",
        ],
        "host_data" => &["use_device", "if", "if_present"],
        "update" => &[
            "async",
            "wait",
            "device_type",
            "dtype",
            "if",
            "if_present",
            "self",
            "host",
            "device",
        ],
        "declare" => &[
            "copy",
            "copyin",
            "copyout",
            "create",
            "present",
            "deviceptr",
            "device_resident",
            "link",
            "pcopy",
            "pcopyin",
            "pcopyout",
            "pcreate",
            "present_or_copy",
            "present_or_copyin",
            "present_or_copyout",
            "present_or_create",
        ],
        "atomic" => &["read", "write", "update", "capture", "if"],
        "init" | "shutdown" => &["device_type", "dtype", "device_num", "if"],
        "set" => &["default_async", "device_num", "device_type", "dtype", "if"],
        "wait" => &["async", "if"],
        "routine" => &[
            "gang",
            "worker",
            "vector",
            "seq",
            "bind",
            "device_type",
            "dtype",
            "nohost",
        ],
        _ => &[],
    }
}

/// Whether the leaf's clauses include the data clauses.
fn acc_leaf_has_data(leaf: &str) -> bool {
    matches!(leaf, "parallel" | "kernels" | "serial" | "data")
}

/// Whether `clause` is in [`acc_leaf_clauses`]`(leaf)`, without building it.
fn acc_leaf_allows(leaf: &str, clause: &str) -> bool {
    acc_leaf_own(leaf).contains(&clause) || (acc_leaf_has_data(leaf) && ACC_DATA.contains(&clause))
}

/// Whether clause `clause` is allowed on the directive `model name` by the
/// clause tables (the union over its leaf constructs, with the
/// combined-construct exceptions).
pub fn allowed_on(model: Model, name: &str, clause: &str) -> bool {
    with_leaves(model, name, |ls| allowed_on_leaves(model, ls, clause))
}

/// [`allowed_on`] for the leaves `ls` of the directive's name.
fn allowed_on_leaves(model: Model, ls: &[&'static str], clause: &str) -> bool {
    match model {
        Model::Omp => {
            // A combined parallel worksharing construct takes no `nowait`
            // unless `target` is its outermost leaf (then it goes to target).
            if clause == "nowait"
                && ls.contains(&"parallel")
                && ls.len() > 1
                && ls.first() != Some(&"target")
            {
                return false;
            }
            ls.iter().any(|l| omp_leaf_clauses(l).contains(&clause))
        }
        Model::Acc => ls.iter().any(|l| acc_leaf_allows(l, clause)),
    }
}

/// Whether clause `clause` is allowed on directive `d`.
pub fn clause_allowed(d: &Directive, clause: &str) -> bool {
    allowed_on(d.model, &d.name, clause)
}

/// The leaf constructs of a model that take `clause`, in table order.
pub fn leaves_taking(model: Model, clause: &str) -> Vec<&'static str> {
    let table = match model {
        Model::Omp => OMP_LEAVES,
        Model::Acc => ACC_LEAVES,
    };
    table
        .iter()
        .copied()
        .filter(|l| match model {
            Model::Omp => omp_leaf_clauses(l).contains(&clause),
            Model::Acc => acc_leaf_clauses(l).contains(&clause),
        })
        .collect()
}

/// OpenACC: the clauses that may follow a `device_type` clause on `d`
/// (`None` when the directive does not group clauses by device type).
pub fn acc_device_type_clauses(d: &Directive) -> Option<Vec<&'static str>> {
    let ls = leaves_of(d);
    let mut v = Vec::new();
    let mut any = false;
    for l in ls {
        match l {
            "parallel" | "kernels" | "serial" => {
                any = true;
                v.extend(["async", "wait", "num_gangs", "num_workers", "vector_length"]);
            }
            "loop" => {
                any = true;
                v.extend([
                    "collapse",
                    "gang",
                    "worker",
                    "vector",
                    "seq",
                    "independent",
                    "auto",
                    "tile",
                ]);
            }
            "data" | "update" => {
                any = true;
                v.extend(["async", "wait"]);
            }
            "routine" => {
                any = true;
                v.extend(["gang", "worker", "vector", "seq", "bind"]);
            }
            _ => {}
        }
    }
    any.then_some(v)
}

/// Data-sharing attribute clauses: a variable in one of them gets a private
/// or shared copy decided by that clause.
pub fn is_sharing_clause(model: Model, name: &str) -> bool {
    match model {
        Model::Omp => matches!(
            name,
            "private"
                | "firstprivate"
                | "lastprivate"
                | "shared"
                | "reduction"
                | "linear"
                | "in_reduction"
                | "copyprivate"
        ),
        Model::Acc => matches!(name, "private" | "firstprivate" | "reduction"),
    }
}

/// Data-mapping clauses: the variable lives in device memory.
pub fn is_map_clause(model: Model, name: &str) -> bool {
    match model {
        Model::Omp => matches!(
            name,
            "map" | "is_device_ptr" | "has_device_addr" | "use_device_ptr" | "use_device_addr"
        ),
        Model::Acc => ACC_DATA.contains(&name) || name == "delete" || name == "detach",
    }
}

/// The built-in reduction operators of a model.
pub fn reduction_operators(model: Model) -> &'static [&'static str] {
    match model {
        Model::Omp => &["+", "*", "-", "&", "|", "^", "&&", "||", "min", "max"],
        Model::Acc => &["+", "*", "&", "|", "^", "&&", "||", "min", "max"],
    }
}

/// Clauses taking a reduction identifier.
pub fn is_reduction_clause(name: &str) -> bool {
    matches!(name, "reduction" | "in_reduction" | "task_reduction")
}

/// The reduction identifier of a reduction clause (written last before `:`).
pub fn reduction_identifier(c: &crate::directives::Clause) -> Option<&crate::directives::Word> {
    if is_reduction_clause(&c.name) {
        c.modifiers().last()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combined_names_split_into_leaves() {
        assert_eq!(
            leaves(Model::Omp, "target teams distribute parallel for simd"),
            ["target", "teams", "distribute", "parallel", "for", "simd"]
        );
        assert_eq!(
            leaves(Model::Omp, "target enter data"),
            ["target enter data"]
        );
        assert_eq!(
            leaves(Model::Omp, "parallel masked taskloop simd"),
            ["parallel", "masked", "taskloop", "simd"]
        );
        assert_eq!(leaves(Model::Omp, "declare simd"), ["declare simd"]);
        assert_eq!(leaves(Model::Acc, "kernels loop"), ["kernels", "loop"]);
        assert_eq!(leaves(Model::Acc, "enter data"), ["enter data"]);
        assert_eq!(
            leaves(Model::Acc, "end parallel loop"),
            ["end parallel loop"]
        );
    }

    /// The first version: words, and every run of them joined and looked up.
    fn leaves_by_joining(model: Model, name: &str) -> Vec<&'static str> {
        let table = match model {
            Model::Omp => OMP_LEAVES,
            Model::Acc => ACC_LEAVES,
        };
        let words: Vec<&str> = name.split(' ').collect();
        let mut out = Vec::new();
        let mut k = 0;
        while k < words.len() {
            let mut best: Option<(&'static str, usize)> = None;
            for n in (1..=words.len() - k).rev() {
                let cand = words[k..k + n].join(" ");
                if let Some(l) = table.iter().find(|l| **l == cand) {
                    best = Some((l, n));
                    break;
                }
            }
            match best {
                Some((l, n)) => {
                    out.push(l);
                    k += n;
                }
                None => k += 1,
            }
        }
        out
    }

    #[test]
    fn leaf_tables_are_sorted() {
        // `leaves` binary-searches them.
        assert!(OMP_LEAVES.windows(2).all(|w| w[0] < w[1]));
        assert!(ACC_LEAVES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn leaves_agree_with_joining_words() {
        let mut names: Vec<String> = [
            "",
            " ",
            "  ",
            "target",
            "target ",
            " target",
            "target  teams",
            "end declare target",
            "begin declare  variant",
            "parallel loop gang",
            "cancellation point x parallel",
            "x y z",
            "target data x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for a in OMP_LEAVES.iter().chain(ACC_LEAVES) {
            for b in OMP_LEAVES.iter().chain(ACC_LEAVES).step_by(3) {
                names.push(format!("{a} {b}"));
                names.push(format!("{a} {b} data"));
            }
        }
        for n in &names {
            for m in [Model::Omp, Model::Acc] {
                assert_eq!(split_leaves(m, n), leaves_by_joining(m, n), "{m:?} {n:?}");
                assert_eq!(leaves(m, n), leaves_by_joining(m, n), "{m:?} {n:?}");
                assert_eq!(leaves(m, n), leaves_by_joining(m, n), "{m:?} {n:?}");
            }
        }
    }
}
