//! The CUDA spelling of a region's reduction form: the generated reduction
//! data type (seed 000's ReduceData with its shuffle and combine functions),
//! the kernel code of each builtin's expansion in step order, and the host
//! code of the gang-level RED_SETUP / RED_TEARDOWN. It walks
//! [`RedForm::steps`] and decides nothing: every choice is in the form.

use super::namer::Namer;
use crate::ir::c::Arith;
use crate::ir::c::RedOp;
use crate::ir::reduction::{Builtin, Exp, Gang, Holders, RedForm, Step};
use crate::ir::{Level, Region};
use std::fmt::Write;

/// Names of one region's reduction code, chosen once by the namer.
pub struct RedNames {
    /// The reduction data struct and the RES_PTR struct.
    pub ty: String,
    pub res_ty: String,
    /// Kernel locals: the packed LOCAL objects, warp-master slots, worker
    /// buffer and its lock.
    pub value: String,
    pub scratch: String,
    pub wbuf: String,
    pub wlock: String,
    /// Kernel parameters (and the host locals passed to them).
    pub res: String,
    pub partials: String,
    pub counter: String,
    pub lock: String,
    /// Host: the device copy of each reduction variable.
    pub results: Vec<String>,
}

pub fn names(r: &Region, namer: &mut Namer) -> Option<RedNames> {
    if r.red.is_empty() {
        return None;
    }
    Some(RedNames {
        ty: namer.fresh(&format!("p2c_red_{}", r.kernel)),
        res_ty: namer.fresh(&format!("p2c_res_{}", r.kernel)),
        value: namer.fresh("p2c_red"),
        scratch: namer.fresh("p2c_scratch"),
        wbuf: namer.fresh("p2c_worker_buffer"),
        wlock: namer.fresh("p2c_worker_lock"),
        res: namer.fresh("p2c_res"),
        partials: namer.fresh("p2c_red_partials"),
        counter: namer.fresh("p2c_red_counter"),
        lock: namer.fresh("p2c_red_lock"),
        results: r
            .reductions
            .iter()
            .map(|x| namer.fresh(&format!("p2c_result_{}", x.var)))
            .collect(),
    })
}

/// One field of a reduction data struct: a reduction's LOCAL object.
pub struct Field {
    /// The variable's type (unqualified).
    pub ty: String,
    pub op: RedOp,
    /// The variable's name (the field's name, or the stem of its parts').
    pub name: String,
    /// A C99 complex variable: the type of its real and imaginary parts.
    /// Seed 001 decomposes such an object into two instances of the
    /// underlying type, so the struct holds two fields (`p2c_re_NAME`,
    /// `p2c_im_NAME`) that the trees shuffle, store and load one by one,
    /// while the combine recombines them into the complex value.
    pub part: Option<&'static str>,
}

impl Field {
    pub fn new(ty: String, op: RedOp, name: String, arith: Arith) -> Field {
        Field {
            ty,
            op,
            name,
            part: arith.is_complex().then(|| arith.part_name()),
        }
    }

    /// The struct members of the field: `(type, member)`.
    fn members(&self) -> Vec<(String, String)> {
        match self.part {
            Some(p) => vec![
                (p.to_string(), re_member(&self.name)),
                (p.to_string(), im_member(&self.name)),
            ],
            None => vec![(self.ty.clone(), self.name.clone())],
        }
    }
}

/// The members holding the real and imaginary parts of a complex LOCAL.
pub fn re_member(name: &str) -> String {
    format!("p2c_re_{name}")
}

pub fn im_member(name: &str) -> String {
    format!("p2c_im_{name}")
}

/// The initializer list of a packed value from the variables' LOCALs (a
/// complex variable gives its two parts).
pub fn pack_list(fields: &[Field]) -> String {
    let v: Vec<String> = fields
        .iter()
        .map(|f| match f.part {
            Some(_) => format!("__real__ {n}, __imag__ {n}", n = f.name),
            None => f.name.clone(),
        })
        .collect();
    v.join(", ")
}

/// `var = init_val(OP)` for a declared LOCAL (`decl` is its declarator text
/// with the type, e.g. `float _Complex s`). A complex LOCAL gets its parts
/// one by one: nvcc has no device conversion from a real to a complex value.
pub fn declare_identity(ind: &str, decl: &str, name: &str, f: &Field) -> String {
    let functor = f.op.functor();
    match f.part {
        Some(p) => format!(
            "{ind}{decl};\n{ind}__real__ {name} = {functor}::identity<{p}>();\n{ind}__imag__ {name} = ({p})0;\n"
        ),
        None => format!("{ind}{decl} = {functor}::identity<{t}>();
", t = f.ty),
    }
}

/// Statements `a = OP(a, b)` for a complex reduction given as parts
/// (lvalues `a_re`, `a_im`; values `b_re`, `b_im`): `+` and `-` add part by
/// part (which is the complex sum); `*` recombines both values and
/// multiplies them as complex numbers.
pub fn complex_combine(ind: &str, f: &Field, a: (&str, &str), b: (&str, &str)) -> String {
    let p = f.part.unwrap_or("double");
    let functor = f.op.functor();
    if f.op == RedOp::Mul {
        format!(
            "{ind}{{ /* complex multiply of the recombined values */\n\
             {ind}    {p} _Complex p2c_a, p2c_b;\n\
             {ind}    __real__ p2c_a = {ar};\n\
             {ind}    __imag__ p2c_a = {ai};\n\
             {ind}    __real__ p2c_b = {br};\n\
             {ind}    __imag__ p2c_b = {bi};\n\
             {ind}    p2c_a = {functor}::combine<{p} _Complex>(p2c_a, p2c_b);\n\
             {ind}    {ar} = __real__ p2c_a;\n\
             {ind}    {ai} = __imag__ p2c_a;\n\
             {ind}}}\n",
            ar = a.0,
            ai = a.1,
            br = b.0,
            bi = b.1
        )
    } else {
        format!(
            "{ind}{ar} = {functor}::combine<{p}>({ar}, {br});
{ind}{ai} = {functor}::combine<{p}>({ai}, {bi});
",
            ar = a.0,
            ai = a.1,
            br = b.0,
            bi = b.1
        )
    }
}

/// A reduction data struct (seed 000's ReduceData): one field per
/// reduction (two for a complex one) with the static members the
/// prelude's trees use. `what` is the first line of its comment.
pub fn data_struct(ty: &str, what: &str, fields: &[Field]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "/* {what}");
    let _ = writeln!(
        o,
        " * the prelude's trees move and combine every field in the same pass. */"
    );
    let _ = writeln!(o, "struct {ty} {{");
    for f in fields {
        for (t, m) in f.members() {
            let _ = writeln!(o, "    {t} {m};");
        }
    }
    let _ = writeln!(
        o,
        "    static __device__ __forceinline__ {ty} p2c_identity()\n    {{\n        {ty} r;"
    );
    for f in fields {
        let fun = f.op.functor();
        match f.part {
            Some(p) => {
                let _ = writeln!(
                    o,
                    "        r.{} = {fun}::identity<{p}>();\n        r.{} = ({p})0;",
                    re_member(&f.name),
                    im_member(&f.name)
                );
            }
            None => {
                let _ = writeln!(
                    o,
                    "        r.{v} = {fun}::identity<{t}>();",
                    v = f.name,
                    t = f.ty
                );
            }
        }
    }
    o.push_str("        return r;\n    }\n");
    let _ = writeln!(
        o,
        "    static __device__ __forceinline__ void p2c_combine({ty} &a, const {ty} &b)\n    {{"
    );
    for f in fields {
        match f.part {
            Some(_) => {
                let (re, im) = (re_member(&f.name), im_member(&f.name));
                o.push_str(&complex_combine(
                    "        ",
                    f,
                    (&format!("a.{re}"), &format!("a.{im}")),
                    (&format!("b.{re}"), &format!("b.{im}")),
                ));
            }
            None => {
                let _ = writeln!(
                    o,
                    "        a.{v} = {fun}::combine<{t}>(a.{v}, b.{v});",
                    v = f.name,
                    t = f.ty,
                    fun = f.op.functor()
                );
            }
        }
    }
    o.push_str("    }\n");
    let _ = writeln!(
        o,
        "    static __device__ __forceinline__ {ty} p2c_down(unsigned mask, const {ty} &v, unsigned delta, int width)\n    {{\n        {ty} r;"
    );
    for f in fields {
        for (_, v) in f.members() {
            let _ = writeln!(
                o,
                "        r.{v} = p2c_shfl_down(mask, v.{v}, delta, width);"
            );
        }
    }
    o.push_str("        return r;\n    }\n");
    let _ = writeln!(
        o,
        "    static __device__ __forceinline__ {ty} p2c_idx(unsigned mask, const {ty} &v, int lane)\n    {{\n        {ty} r;"
    );
    for f in fields {
        for (_, v) in f.members() {
            let _ = writeln!(o, "        r.{v} = p2c_shfl_idx(mask, v.{v}, lane);");
        }
    }
    o.push_str("        return r;\n    }\n");
    let _ = writeln!(
        o,
        "    static __device__ __forceinline__ {ty} p2c_load(const {ty} *p)\n    {{\n        {ty} r;"
    );
    for f in fields {
        for (t, v) in f.members() {
            let _ = writeln!(o, "        r.{v} = *(const volatile {t} *)&p->{v};");
        }
    }
    o.push_str("        return r;\n    }\n};\n");
    o
}

/// The fields of a region's reduction data struct.
fn region_fields(r: &Region) -> Vec<Field> {
    r.reductions
        .iter()
        .map(|x| Field::new(x.ty.unqualified_base(), x.op, x.var.clone(), x.arith))
        .collect()
}

/// The generated types, placed before the kernel.
pub fn types(r: &Region, n: &RedNames) -> String {
    let ty = &n.ty;
    let fields = region_fields(r);
    let mut o = data_struct(
        ty,
        &format!(
            "The LOCAL objects of {}'s reductions as one value (seed 000's ReduceData):",
            r.kernel
        ),
        &fields,
    );
    let res = &n.res_ty;
    let parts = if fields.iter().any(|f| f.part.is_some()) {
        "\n * (a complex one as its two parts: real at [0], imaginary at [1])"
    } else {
        ""
    };
    let _ = writeln!(
        o,
        "/* RES_PTR of each reduction of {}: the device copies of the RESULT objects{parts}. */",
        r.kernel
    );
    let _ = writeln!(o, "struct {res} {{");
    for f in &fields {
        let _ = writeln!(o, "    {} *{};", f.part.unwrap_or(&f.ty), f.name);
    }
    let _ = writeln!(
        o,
        "    __device__ __forceinline__ void p2c_fold(const {ty} &v) const\n    {{"
    );
    for f in &fields {
        let v = &f.name;
        match f.part {
            Some(p) => {
                o.push_str(&complex_combine(
                    "        ",
                    f,
                    (
                        &format!("*(volatile {p} *)&{v}[0]"),
                        &format!("*(volatile {p} *)&{v}[1]"),
                    ),
                    (
                        &format!("v.{}", re_member(v)),
                        &format!("v.{}", im_member(v)),
                    ),
                ));
            }
            None => {
                let t = &f.ty;
                let fun = f.op.functor();
                let _ = writeln!(
                    o,
                    "        *(volatile {t} *){v} = {fun}::combine<{t}>(*(volatile {t} *){v}, v.{v});"
                );
            }
        }
    }
    o.push_str("    }\n");
    if r.red.gang == Gang::Atomic {
        let _ = writeln!(
            o,
            "    __device__ __forceinline__ void p2c_fold_atomic(const {ty} &v) const\n    {{"
        );
        for f in &fields {
            let v = &f.name;
            let fun = f.op.atomic_fn();
            match f.part {
                // Only `+`/`-` get here: the complex sum is the sum of each part.
                Some(_) => {
                    let _ = writeln!(o, "        {fun}(&{v}[0], v.{});", re_member(v));
                    let _ = writeln!(o, "        {fun}(&{v}[1], v.{});", im_member(v));
                }
                None => {
                    let _ = writeln!(o, "        {fun}({v}, v.{v});");
                }
            }
        }
        o.push_str("    }\n");
    }
    o.push_str("};\n");
    o
}

/// Kernel parameters of the reduction code.
pub fn params(r: &Region, n: &RedNames) -> Vec<String> {
    let mut v = vec![format!("{} {}", n.res_ty, n.res)];
    match r.red.gang {
        Gang::Partials => {
            v.push(format!("{} *{}", n.ty, n.partials));
            v.push(format!("unsigned *{}", n.counter));
        }
        Gang::Lock => v.push(format!("unsigned *{}", n.lock)),
        Gang::Atomic | Gang::Single => {}
    }
    v
}

/// The host locals passed to [`params`], in the same order.
pub fn args(r: &Region, n: &RedNames) -> Vec<String> {
    let mut v = vec![n.res.clone()];
    match r.red.gang {
        Gang::Partials => {
            v.push(n.partials.clone());
            v.push(n.counter.clone());
        }
        Gang::Lock => v.push(n.lock.clone()),
        Gang::Atomic | Gang::Single => {}
    }
    v
}

fn step_name(s: &Step) -> String {
    match s {
        Step::Red {
            builtin,
            level,
            lid,
            ..
        } => format!("{} ({}, lid {lid})", builtin.as_str(), level.as_str()),
        Step::Lock {
            level, lid, unlock, ..
        } => format!(
            "{} ({}, lid {lid})",
            if *unlock { "RED_UNLOCK" } else { "RED_LOCK" },
            level.as_str()
        ),
        Step::Fork { level, join, .. } => {
            format!(
                "{} ({})",
                if *join { "JOIN" } else { "FORK" },
                level.as_str()
            )
        }
        _ => String::new(),
    }
}

/// The condition under which a thread holds a value for the worker level.
fn holder_test(h: Holders) -> Option<String> {
    match h {
        Holders::All => None,
        Holders::Stride(n) => Some(format!("(p2c_thread_id() & {}u) == 0u", n - 1)),
        Holders::Pieces => Some("p2c_red_piece_start()".into()),
    }
}

/// Kernel code of the steps before the loop (`before`) or after it.
pub fn kernel_steps(r: &Region, n: &RedNames, before: bool) -> String {
    let f: &RedForm = &r.red;
    let body_at = f
        .steps
        .iter()
        .position(|s| matches!(s, Step::Body { .. }))
        .unwrap_or(f.steps.len());
    let (steps, mut ind) = if before {
        (&f.steps[..body_at], "    ".to_string())
    } else {
        (
            &f.steps[(body_at + 1).min(f.steps.len())..],
            "    ".to_string(),
        )
    };
    let mut o = String::new();
    let ty = &n.ty;
    let v = &n.value;
    if before && f.needs_worker_buffer() {
        let _ = writeln!(
            o,
            "{ind}__shared__ {ty} {}; /* seed 001's worker buffer: slot (lid, rid) = field rid */",
            n.wbuf
        );
        let _ = writeln!(o, "{ind}__shared__ unsigned {};", n.wlock);
    }
    if !before {
        let fields = region_fields(r);
        let lid = f.loops.last().map(|l| l.lid).unwrap_or(0);
        let _ = writeln!(
            o,
            "{ind}/* The LOCAL objects of lid {lid}, packed: each tree below reduces them all in one pass. */"
        );
        let _ = writeln!(o, "{ind}{ty} {v} = {{{}}};", pack_list(&fields));
        if f.needs_scratch() {
            let _ = writeln!(
                o,
                "{ind}__shared__ {ty} {}[32]; /* warp masters' slots (seed 000) */",
                n.scratch
            );
        }
    }
    for s in steps {
        let exp = match s {
            Step::Red { exp, .. } | Step::Lock { exp, .. } | Step::Fork { exp, .. } => *exp,
            _ => continue,
        };
        kernel_step(r, n, exp, &step_name(s), &mut ind, &mut o);
    }
    o
}

/// The kernel code of one step's expansion; lock steps open or close a
/// block and change `ind`.
fn kernel_step(r: &Region, n: &RedNames, exp: Exp, name: &str, ind: &mut String, o: &mut String) {
    let ty = &n.ty;
    let v = &n.value;
    match exp {
        Exp::Local(_) | Exp::NoLock(_) | Exp::HostSetup | Exp::HostTeardown => {}
        Exp::Declare => declare_locals(r, ind, name, o),
        Exp::BufferStore => buffer_store(r, n, ind, name, o),
        Exp::Barrier => {
            let _ = writeln!(o, "{ind}p2c_bar_sync(1u, p2c_bar_threads()); /* {name} */");
        }
        Exp::VectorTree { width, .. } => {
            let _ = writeln!(
                o,
                "{ind}p2c_red_vector({v}, {width}u); /* {name}: shuffle tree, width {width} */"
            );
        }
        Exp::VectorPieces => {
            let _ = writeln!(
                o,
                "{ind}p2c_red_vector_pieces({v}); /* {name}: each warp's piece of each vector */"
            );
        }
        Exp::BlockTree(h) => match h {
            Holders::All => {
                let _ = writeln!(
                    o,
                    "{ind}p2c_red_block({v}, {}, 1u); /* {name}: warps, then warp masters */",
                    n.scratch
                );
            }
            Holders::Stride(w) => {
                let _ = writeln!(
                    o,
                    "{ind}p2c_red_block({v}, {}, {w}u); /* {name}: lanes 0, {w}, ... of each warp, then warp masters */",
                    n.scratch
                );
            }
            Holders::Pieces => {
                let _ = writeln!(
                    o,
                    "{ind}p2c_red_block_pieces({v}, {}); /* {name}: dispersed piece starts, then warp masters */",
                    n.scratch
                );
            }
        },
        Exp::SharedLock(h) => {
            match holder_test(h) {
                Some(t) => {
                    let _ = writeln!(o, "{ind}if ({t}) {{ /* the threads holding a value */");
                }
                None => {
                    let _ = writeln!(o, "{ind}{{");
                }
            }
            ind.push_str("    ");
            let _ = writeln!(o, "{ind}p2c_lock_shared(&{}); /* {name} */", n.wlock);
        }
        Exp::BufferCombine => {
            let _ = writeln!(
                o,
                "{ind}{ty}::p2c_combine({}, {v}); /* {name}: buffer = OP(buffer, LOCAL) */",
                n.wbuf
            );
        }
        Exp::SharedUnlock => {
            let _ = writeln!(o, "{ind}p2c_unlock_shared(&{}); /* {name} */", n.wlock);
            ind.truncate(ind.len().saturating_sub(4));
            let _ = writeln!(o, "{ind}}}");
        }
        Exp::BufferLoad => {
            let _ = writeln!(o, "{ind}{v} = {}; /* {name}: V = buffer */", n.wbuf);
        }
        Exp::GlobalLock => {
            let _ = writeln!(o, "{ind}if (p2c_thread_id() == 0u) {{");
            ind.push_str("    ");
            let _ = writeln!(o, "{ind}p2c_lock_global({}); /* {name} */", n.lock);
        }
        Exp::LockedUpdate => {
            let _ = writeln!(
                o,
                "{ind}{}.p2c_fold({v}); /* {name}: *RES_PTR = OP(*RES_PTR, LOCAL) */",
                n.res
            );
        }
        Exp::GlobalUnlock => {
            let _ = writeln!(o, "{ind}p2c_unlock_global({}); /* {name} */", n.lock);
            ind.truncate(ind.len().saturating_sub(4));
            let _ = writeln!(o, "{ind}}}");
        }
        Exp::LastBlock { one_thread: false } => {
            let _ = writeln!(
                o,
                "{ind}p2c_red_last_block({v}, {}, {}, {}, {}); /* {name}: per-block partials, the last block combines */",
                n.partials, n.counter, n.res, n.scratch
            );
        }
        Exp::LastBlock { one_thread: true } => {
            let _ = writeln!(
                o,
                "{ind}p2c_red_last_block_1({v}, {}, {}, {}); /* {name}: per-block partials, the last block combines */",
                n.partials, n.counter, n.res
            );
        }
        Exp::OneGang => {
            let _ = writeln!(
                o,
                "{ind}if (p2c_thread_id() == 0u) /* {name}: one gang, *RES_PTR = OP(*RES_PTR, LOCAL) */"
            );
            let _ = writeln!(o, "{ind}    {}.p2c_fold({v});", n.res);
        }
        Exp::Atomics => {
            let _ = writeln!(
                o,
                "{ind}if (p2c_thread_id() == 0u) /* {name}: native atomics into *RES_PTR */"
            );
            let _ = writeln!(o, "{ind}    {}.p2c_fold_atomic({v});", n.res);
        }
    }
}

/// RED_INIT at GANG: each thread's LOCAL declared with init_val(OP).
fn declare_locals(r: &Region, ind: &str, name: &str, o: &mut String) {
    let _ = writeln!(
        o,
        "{ind}/* {name}: V = init_val(OP), each thread's LOCAL */"
    );
    for f in region_fields(r) {
        let decl = format!("{} {}", f.ty, f.name);
        o.push_str(&declare_identity(ind, &decl, &f.name, &f));
    }
}

/// Seed 001's worker buffer: thread 0 stores LOCAL in it and clears the lock.
fn buffer_store(r: &Region, n: &RedNames, ind: &str, name: &str, o: &mut String) {
    let _ = writeln!(
        o,
        "{ind}/* {name}: thread 0 stores LOCAL in the worker buffer, clears the lock */"
    );
    let _ = writeln!(o, "{ind}if (p2c_thread_id() == 0u) {{");
    for f in region_fields(r) {
        match f.part {
            Some(_) => {
                let _ = writeln!(
                    o,
                    "{ind}    {b}.{} = __real__ {x};\n{ind}    {b}.{} = __imag__ {x};",
                    re_member(&f.name),
                    im_member(&f.name),
                    b = n.wbuf,
                    x = f.name
                );
            }
            None => {
                let _ = writeln!(o, "{ind}    {}.{x} = {x};", n.wbuf, x = f.name);
            }
        }
    }
    let _ = writeln!(o, "{ind}    {} = 0u;", n.wlock);
    let _ = writeln!(o, "{ind}}}");
}

/// Host code of RED_SETUP at GANG (before the launch); the RED_TEARDOWN
/// lines (to run after it, in reverse order) go to `exits`.
pub fn host_setup(
    r: &Region,
    n: &RedNames,
    where_: &str,
    blocks: &str,
    ind: &str,
    exits: &mut Vec<String>,
) -> String {
    let mut h = String::new();
    for s in &r.red.steps {
        let Step::Red {
            builtin: Builtin::Setup | Builtin::Teardown,
            level: Level::Gang,
            lid,
            exp,
            ..
        } = s
        else {
            continue;
        };
        match exp {
            Exp::HostSetup => {
                let what = match r.red.gang {
                    Gang::Partials => "; per-block partials and arrival counter",
                    Gang::Lock => "; the global lock",
                    Gang::Atomic | Gang::Single => "",
                };
                let _ = writeln!(
                    h,
                    "{ind}/* {}: RES_PTR = the device copy of each RESULT{what} */",
                    step_name(s)
                );
                for (x, dev) in r.reductions.iter().zip(&n.results) {
                    let t = x.ty.unqualified_base();
                    if x.arith.is_complex() {
                        // The kernel sees the two parts (nvcc's host stub
                        // cannot take a complex type).
                        let p = x.arith.part_name();
                        let _ = writeln!(
                            h,
                            "{ind}{p} *{dev} = ({p} *)p2c_map_scalar(&{}, {}, {where_});",
                            x.var,
                            x.map.runtime_name()
                        );
                    } else {
                        let _ = writeln!(
                            h,
                            "{ind}{t} *{dev} = p2c_map_scalar(&{}, {}, {where_});",
                            x.var,
                            x.map.runtime_name()
                        );
                    }
                }
                let _ = writeln!(
                    h,
                    "{ind}const {} {} = {{{}}};",
                    n.res_ty,
                    n.res,
                    n.results.join(", ")
                );
                match r.red.gang {
                    Gang::Partials => {
                        let _ = writeln!(
                            h,
                            "{ind}{ty} *{} = p2c_partials<{ty}>({lid}, {blocks}, {where_});",
                            n.partials,
                            ty = n.ty
                        );
                        let _ = writeln!(
                            h,
                            "{ind}unsigned *{} = p2c_counter({lid}, {where_});",
                            n.counter
                        );
                    }
                    Gang::Lock => {
                        let _ = writeln!(h, "{ind}unsigned *{} = p2c_gang_lock({where_});", n.lock);
                    }
                    Gang::Atomic | Gang::Single => {}
                }
            }
            Exp::HostTeardown => {
                for x in &r.reductions {
                    exits.push(format!(
                        "p2c_unmap_scalar(&{}, {}, {where_}); /* {} */",
                        x.var,
                        x.map.runtime_name(),
                        step_name(s)
                    ));
                }
            }
            _ => {}
        }
    }
    h
}
