//! The CUDA text of one region: its kernel (placed before the enclosing
//! function) and the host code that replaces the pragma and its loop.

use super::fold;
use super::namer::Namer;
use super::reduction::{self, RedNames};
use crate::ir::c::CType;
use crate::ir::c::{Attr, MapKind};
use crate::ir::c::{CanonLoop, TestOp};
use crate::ir::region::Chunk;
use crate::ir::{Region, Schedule, Size};
use std::fmt::Write;

/// Names the region's generated code uses, chosen once by the namer.
struct Names {
    trip: String,
    iter: String,
    end: String, // the 32-bit bound of a narrow block-only loop (emit/counter.rs), else empty
    where_: String,
    block: String,
    blocks: String,
    per_loop: Vec<(String, String, String)>, // (trip, lb, step) per loop
    dev: Vec<String>,                        // per var: device pointer / param name
    red: Option<RedNames>,                   // the reduction code's names
    fp: Vec<String>,                         // per var: firstprivate saved copy (host fallback)
    last: String,                            // lastprivate: this thread ran the last iteration
    lin: Vec<(String, String)>,              // per r.linear: the original's value, the step
    cond: Vec<String>, // per var: lastprivate(conditional) last assigning iteration + 1
    lpc: Vec<String>,  // per var: lastprivate(conditional) device scratch
    arr: Vec<ArrNames>, // per array reduction (r.array_reductions order)
    privs: Vec<super::privarray::PrivNames>, // per array privatization
    team_areas: Vec<super::array_team_area::HostNames>, // generic mode's team array reductions
}

/// Names of one array reduction's code.
struct ArrNames {
    /// Kernel parameters (and host locals): the device address of the
    /// variable (host indexing), the section's start and length, every
    /// thread's private copies, the arrival counter.
    dev: String,
    lo: String,
    len: String,
    copies: String,
    arrived: String,
    /// Kernel local: this thread's copy.
    mine: String,
}

impl ArrNames {
    /// The names around the device address `dev` of array `var`.
    fn new(dev: String, var: &str, namer: &mut Namer) -> ArrNames {
        ArrNames {
            lo: format!("{dev}_lo"),
            len: format!("{dev}_len"),
            dev,
            copies: namer.fresh(&format!("p2c_copies_{var}")),
            arrived: namer.fresh(&format!("p2c_arrived_{var}")),
            mine: namer.fresh(&format!("p2c_mine_{var}")),
        }
    }
}

pub struct RegionText {
    pub kernel: String,
    pub host: String,
}

fn names(r: &Region, namer: &mut Namer) -> Names {
    let per_loop = r
        .nest
        .iter()
        .map(|l| {
            (
                namer.fresh(&format!("p2c_trip_{}", l.var)),
                namer.fresh(&format!("p2c_lb_{}", l.var)),
                namer.fresh(&format!("p2c_step_{}", l.var)),
            )
        })
        .collect();
    let dev: Vec<String> = r
        .vars
        .iter()
        .map(|v| namer.fresh(&format!("p2c_dev_{}", v.sym.name)))
        .collect();
    let red = reduction::names(r, namer);
    let fp = r
        .vars
        .iter()
        .map(|v| namer.fresh(&format!("p2c_first_{}", v.sym.name)))
        .collect();
    let lp = |v: &crate::ir::c::VarAttr| matches!(v.attr, Attr::Lastprivate { conditional: true });
    let mut per_lp = |prefix: &str| -> Vec<String> {
        r.vars
            .iter()
            .map(|v| match lp(v) {
                true => namer.fresh(&format!("{prefix}{}", v.sym.name)),
                false => String::new(),
            })
            .collect()
    };
    let cond = per_lp("p2c_assigned_");
    let lpc = per_lp("p2c_lastp_");
    let last = if r
        .vars
        .iter()
        .any(|v| matches!(v.attr, Attr::Lastprivate { conditional: false }))
    {
        namer.fresh("p2c_last")
    } else {
        String::new()
    };
    let arr = r
        .array_reductions
        .iter()
        .map(|a| {
            let dev = r
                .vars
                .iter()
                .position(|v| v.sym.name == a.var)
                .map(|i| dev[i].clone())
                .unwrap_or_else(|| namer.fresh(&format!("p2c_dev_{}", a.var)));
            ArrNames::new(dev, &a.var, namer)
        })
        .collect();
    Names {
        lin: super::linear::names(r, namer),
        privs: super::privarray::names(r, namer),
        team_areas: super::array_team_area::host_names(r, namer),
        arr,
        last,
        cond,
        lpc,
        trip: namer.fresh("p2c_trip"),
        iter: namer.fresh("p2c_iter"),
        end: if narrow_blocks(r) {
            namer.fresh("p2c_bound")
        } else {
            String::new()
        },
        where_: namer.fresh("p2c_where"),
        block: namer.fresh("p2c_block"),
        blocks: namer.fresh("p2c_blocks"),
        per_loop,
        dev,
        red,
        fp,
    }
}

/// Whether the region's loop is a block-only loop (one thread per block)
/// that compares its counter with a 32-bit bound the host checked
/// (`emit/counter.rs`, `blocks_head` and `host_check32`). Not generic
/// mode, whose kernel `emit/generic.rs` writes (`host_code`).
fn narrow_blocks(r: &Region) -> bool {
    r.generic.is_none()
        && r.schedule == Schedule::BlockOnly
        && r.tile.is_empty()
        && r.narrow_counter
}

/// Whether the region's loop runs over the threads of the grid or of one
/// block with a 32-bit counter (`emit/counter.rs`, `threads_head` and
/// `host_check_stride`). SPMD kernels only, as [`narrow_blocks`]; not with
/// reductions or per-thread array copies, whose kernels it made larger
/// (ptxas, sm_90: `omp_reduction_unmapped_block`'s kernels 24 -> 28,
/// `omp_firstprivate_arrays`' `main_L54` 24 -> 26).
fn narrow_threads(r: &Region) -> bool {
    r.generic.is_none()
        && matches!(r.schedule, Schedule::GridStride | Schedule::BlockStride)
        && r.tile.is_empty()
        && r.reductions.is_empty()
        && r.array_reductions.is_empty()
        && r.array_privates.is_empty()
        && r.narrow_counter
}

/// The value of loop `idx` of a collapsed nest of `depth` loops (bounds
/// from [`nest_bounds`]) at the flat iteration `it`: the outermost takes
/// what `rest` holds after the inner loops divided it by their trip counts
/// (innermost first), the others `rest % trip`.
pub(crate) fn nest_var_value(
    l: &CanonLoop,
    ty: &CType,
    (lb, step, trip): &(String, String, String),
    idx: usize,
    depth: usize,
    it: &str,
    rest: &str,
) -> String {
    let sign = if l.test.increasing() { "+" } else { "-" };
    let src = if depth == 1 {
        it.to_string()
    } else if idx == 0 {
        rest.to_string()
    } else {
        format!("{rest} % {trip}")
    };
    format!("{lb} {sign} {}", fold::scaled(&ty.type_name(), &src, step))
}

/// The bounds of a worksharing loop nest as constants its threads read:
/// each loop's lower bound, its step (a literal stays inline) and its trip
/// count, written to `s`; then the collapsed nest's total trip count.
/// Returns `(lb, step, trip)` per loop and the total's name.
pub(crate) fn nest_bounds<'a>(
    nest: impl Iterator<Item = (&'a CanonLoop, &'a CType)>,
    namer: &mut Namer,
    s: &mut String,
    ind: &str,
) -> (Vec<(String, String, String)>, String) {
    let mut per = Vec::new();
    for (l, ty) in nest {
        let t = ty.type_name();
        let lb = namer.fresh(&format!("p2c_lb_{}", l.var));
        let _ = writeln!(
            s,
            "{ind}const {} = {};",
            ty.declare(&lb),
            fold::cast(ty, &l.lb)
        );
        let step = if literal_step(l) {
            l.step.clone()
        } else {
            let st = namer.fresh(&format!("p2c_step_{}", l.var));
            let _ = writeln!(s, "{ind}const {} = ({t})({});", ty.declare(&st), l.step);
            st
        };
        let trip = namer.fresh(&format!("p2c_trip_{}", l.var));
        let _ = writeln!(
            s,
            "{ind}const unsigned long long {trip} = {};",
            trip_expr(l, ty, &lb, &step)
        );
        per.push((lb, step, trip));
    }
    let total = namer.fresh("p2c_trips");
    let trips: Vec<&str> = per.iter().map(|(_, _, t)| t.as_str()).collect();
    let _ = writeln!(
        s,
        "{ind}const unsigned long long {total} = {};",
        trips.join(" * ")
    );
    (per, total)
}

/// One loop's trip count (host and kernels). The bounds are compared in
/// the loop variable's type, and their distance is taken in `unsigned long
/// long`: C converts any integer to it modulo 2^64, so the difference of
/// the converted bounds is the exact distance whenever the test holds
/// (`for (int i = -2; i < INT_MAX; i++)` has 2^31 + 1 iterations, where a
/// subtraction in `int` overflows). A pointer variable keeps the
/// subtraction in its own type (elements, not bytes). Folded (issue 20):
/// a small literal bound loses its cast (`fold::cast`), and a step of 1
/// gives the distance plus one (`(d - 1) / 1 + 1` is `d` modulo 2^64, and
/// `d + 1` for <= and >=, which the test keeps below 2^64).
pub(crate) fn trip_expr(l: &CanonLoop, ty: &CType, lb: &str, step: &str) -> String {
    let ub = fold::cast(ty, &l.ub);
    let dist = |hi: &str, lo: &str| {
        if ty.is_pointer() {
            format!("(unsigned long long)({hi} - {lo})")
        } else {
            format!("((unsigned long long)({hi}) - (unsigned long long)({lo}))")
        }
    };
    let test = match l.test {
        TestOp::Lt => "<",
        TestOp::Le => "<=",
        TestOp::Gt => ">",
        TestOp::Ge => ">=",
    };
    let (hi, lo) = if l.test.increasing() {
        (ub.as_str(), lb)
    } else {
        (lb, ub.as_str())
    };
    let inclusive = matches!(l.test, TestOp::Le | TestOp::Ge);
    let count = match (fold::unit_step(step), inclusive) {
        (true, false) => dist(hi, lo),
        (true, true) => format!("{} + 1", dist(hi, lo)),
        (false, false) => format!("({} - 1) / (unsigned long long)({step}) + 1", dist(hi, lo)),
        (false, true) => format!("({}) / (unsigned long long)({step}) + 1", dist(hi, lo)),
    };
    format!("{lb} {test} {ub} ? {count} : 0")
}

/// A launch dimension. Team sizes (`what` is "threads" or "workers") are
/// requests: more than `limit` gets `limit`; a count of teams beyond `limit`
/// is an error.
fn size_expr(s: &Size, limit: u32, where_: &str, what: &str, fallback: &str) -> String {
    let team = matches!(what, "threads" | "workers");
    match s {
        Size::Fixed(v) if team => (*v).min(limit).to_string(),
        Size::Fixed(v) => v.to_string(),
        Size::Clause { clause, expr, .. } if team => {
            format!("p2c_at_most((long long)({expr}), {limit}u, {where_}, \"{clause}\")")
        }
        Size::Clause { clause, expr, .. } => {
            format!("p2c_positive((long long)({expr}), {limit}u, {where_}, \"{clause}\")")
        }
        Size::FromTrip => {
            let _ = what;
            fallback.to_string()
        }
    }
}

/// Is the literal step used inline (a constant) or passed as a parameter?
pub(crate) fn literal_step(l: &CanonLoop) -> bool {
    l.literal_step
}

/// A loop's step as the kernel spells it (the literal, or the parameter
/// `param`) and the sign of the direction it runs in.
pub(crate) fn step_sign(l: &CanonLoop, param: &str) -> (String, &'static str) {
    let step = if literal_step(l) {
        l.step.clone()
    } else {
        param.to_string()
    };
    (step, if l.test.increasing() { "+" } else { "-" })
}

/// The section bounds of a mapped variable as host expressions: (lo, len)
/// of the first dimension, and of the second when a section names one.
fn section_bounds(
    name: &str,
    sections: &[crate::ir::c::Section],
    is_array: bool,
) -> ((String, String), Option<(String, String)>) {
    let bounds = |s: Option<&crate::ir::c::Section>, extent: String, known: bool| {
        let lo = s
            .and_then(|s| s.lower.as_ref())
            .map(|e| e.text.clone())
            .unwrap_or_else(|| "0".into());
        let len = match s.and_then(|s| s.length.as_ref()) {
            Some(e) => e.text.clone(),
            None if s.is_some_and(|s| s.is_index) => "1".into(),
            None if known => {
                if lo == "0" {
                    extent
                } else {
                    format!("{extent} - ({lo})")
                }
            }
            None => "0".into(),
        };
        (lo, len)
    };
    let first = bounds(
        sections.first(),
        format!("(long long)(sizeof({name}) / sizeof({name}[0]))"),
        is_array,
    );
    let second = sections.get(1).map(|s| {
        bounds(
            Some(s),
            format!("(long long)(sizeof({name}[0]) / sizeof({name}[0][0]))"),
            true,
        )
    });
    (first, second)
}

pub fn emit_region(
    r: &Region,
    body: &str,
    fallback: &str,
    file_name: &str,
    namer: &mut Namer,
) -> RegionText {
    let n = names(r, namer);
    let kernel = kernel_text(r, body, &n);
    let host = host_text(r, fallback, file_name, &n);
    let types: String = r.local_types.iter().map(|h| h.def.as_str()).collect();
    RegionText {
        kernel: types + &kernel,
        host,
    }
}

/// The host block of a region whose kernel another module wrote
/// (generic mode): data environment, launch shape, launch.
pub(crate) fn host_code(r: &Region, fallback: &str, file_name: &str, namer: &mut Namer) -> String {
    let n = names(r, namer);
    host_text(r, fallback, file_name, &n)
}

/// [`host_code`] with the reduction names the kernel was written with (a
/// generic-mode kernel with a reduction on its construct).
pub(crate) fn host_code_red(
    r: &Region,
    fallback: &str,
    file_name: &str,
    namer: &mut Namer,
    red: RedNames,
) -> String {
    let mut n = names(r, namer);
    n.red = Some(red);
    host_text(r, fallback, file_name, &n)
}

/// `[[maybe_unused]] ` before the declaration of a loop variable its body
/// never names (`for (int i = 0; i < n; i++) count += 1;`), so that the
/// compilers' unused-variable warnings stay quiet for code the user wrote
/// without one (nvcc still warns "set but never used" after `(void)i;`).
pub(crate) fn unused_mark(body: &str, var: &str) -> &'static str {
    if crate::source::mask::mentions_word(body, var) {
        ""
    } else {
        "[[maybe_unused]] "
    }
}

fn kernel_text(r: &Region, body: &str, n: &Names) -> String {
    let (params, prologue) = kernel_params(r, body, n);
    let mut k = String::new();
    if let Some(rn) = &n.red {
        k.push_str(&reduction::types(r, rn));
    }
    let _ = writeln!(
        k,
        "/* line {} in {}(): `{}`",
        r.line, r.function, r.pragma_text
    );
    let _ = writeln!(k, " * schedule: {} */", r.schedule.as_str());
    let _ = writeln!(
        k,
        "static __global__ void {}({})",
        r.kernel,
        params.join(", ")
    );
    k.push_str("{\n");
    k.push_str(&local_type_scopes(r));
    k.push_str(&prologue);
    k.push_str(&loop_head(r, body, n));
    k.push_str(&loop_vars(r, body, n));
    let mut body = body.to_string();
    for (i, v) in r.vars.iter().enumerate() {
        if matches!(v.attr, Attr::Lastprivate { conditional: true }) {
            body = body.replace(
                &lastprivate_marker(i),
                &format!("({} = {} + 1, ", n.cond[i], n.iter),
            );
        }
    }
    let _ = writeln!(k, "        {}", reindent(&body, "        "));
    k.push_str("    }\n");
    k.push_str(&kernel_epilogue(r, n));
    k.push_str("}\n\n");
    k
}

/// The kernel's parameters (the total trip count first, then the per-loop
/// trip counts of a collapsed nest, bounds, variables, reduction and array
/// storage) and the prologue that binds the variables to them.
fn kernel_params(r: &Region, body: &str, n: &Names) -> (Vec<String>, String) {
    let mut params: Vec<String> = vec![format!("unsigned long long {}", n.trip)];
    // For collapse(>1) the per-loop trip counts are parameters too.
    if r.nest.len() > 1 {
        params.extend(
            n.per_loop
                .iter()
                .skip(1)
                .map(|(trip, _, _)| format!("unsigned long long {trip}")),
        );
    }
    for (l, (ty, (_, lb, step))) in r.nest.iter().zip(r.nest_types.iter().zip(&n.per_loop)) {
        params.push(ty.declare(lb));
        if !literal_step(l) {
            params.push(ty.declare(step));
        }
    }
    let mut prologue = String::new();
    for (i, v) in r.vars.iter().enumerate().filter(|(_, v)| r.in_kernel(v)) {
        let name = &v.sym.name;
        match &v.attr {
            Attr::Firstprivate if is_complex_scalar(&v.sym.ty) => {
                // Two values of the part type: nvcc's host stub cannot take
                // a parameter of a complex type.
                let t = v.sym.ty.unqualified_base();
                let p = complex_part(&t);
                let d = &n.dev[i];
                params.push(format!("{p} {d}_re, {p} {d}_im"));
                let _ = writeln!(
                    prologue,
                    "    {t} {name};\n    __real__ {name} = {d}_re;\n    __imag__ {name} = {d}_im;"
                );
            }
            Attr::Firstprivate => params.push(v.sym.ty.declare(name)),
            Attr::Private => {
                if !r.nest.iter().any(|l| &l.var == name) {
                    let ty = CType {
                        base: v.sym.ty.unqualified_base(),
                        derivs: v.sym.ty.derivs.clone(),
                    };
                    let _ = writeln!(prologue, "    {};", ty.declare(name));
                }
            }
            Attr::Mapped { .. } if mentions_complex(&v.sym.ty) => {
                // nvcc's host stub cannot take a parameter of a complex
                // type (nor a pointer to one): the kernel gets `void *`.
                let d = &n.dev[i];
                params.push(format!("void *{d}"));
                if v.maps_one_object() {
                    let t = v.sym.ty.type_name();
                    let _ = writeln!(prologue, "    {t} &{name} = *({t} *){d};");
                } else {
                    let ty = v.sym.ty.decayed();
                    let _ = writeln!(
                        prologue,
                        "    {} = ({}){d};",
                        ty.declare(name),
                        ty.type_name()
                    );
                }
            }
            Attr::Mapped { .. } => {
                if v.maps_one_object() {
                    params.push(v.sym.ty.pointer_to().declare(&n.dev[i]));
                    let _ = writeln!(
                        prologue,
                        "    {} = *{};",
                        v.sym.ty.declare(&format!("&{name}")),
                        n.dev[i]
                    );
                } else {
                    params.push(v.sym.ty.decayed().declare(name));
                }
            }
            Attr::Reduction { .. } | Attr::ArrayReduction { .. } | Attr::ArrayPrivate { .. } => {}
            Attr::Lastprivate { .. } if v.sym.ty.is_array() => {
                params.push(super::lastprivate_array::param(&v.sym.ty, &n.dev[i]));
                prologue.push_str(&super::lastprivate_array::local(&v.sym.ty, name));
            }
            Attr::Lastprivate { conditional } => {
                let t = v.sym.ty.unqualified_base();
                params.push(format!("{t} *{}", n.dev[i]));
                params.extend(super::linear::params(r, i, &n.lin));
                if *conditional {
                    // Read after the loop even by threads that never assign it.
                    let _ = writeln!(prologue, "    {t} {name}{{}}; /* lastprivate */");
                } else if !crate::source::mask::mentions_word(body, name) {
                    // Never assigned by the loop: its value after the loop
                    // is unspecified; value-initialized, not read uninitialized.
                    let _ = writeln!(
                        prologue,
                        "    {t} {name}{{}}; /* lastprivate, not named by the loop */"
                    );
                } else if !r.nest.iter().any(|l| &l.var == name) {
                    let _ = writeln!(prologue, "    {t} {name}; /* lastprivate */");
                }
                if *conditional {
                    params.push(format!("unsigned long long *{}", n.lpc[i]));
                    let _ = writeln!(prologue, "    unsigned long long {} = 0;", n.cond[i]);
                }
            }
        }
    }
    if !n.last.is_empty() {
        let _ = writeln!(prologue, "    bool {} = false;", n.last);
    }
    if let Some(rn) = &n.red {
        params.extend(reduction::params(r, rn));
        prologue.push_str(&reduction::kernel_steps(r, rn, true));
    }
    for (a, an) in r.array_reductions.iter().zip(&n.arr) {
        params.extend(array_params(a, an));
        prologue.push_str(&array_init(r, a, an, false));
    }
    params.extend(super::privarray::params(r, &n.privs));
    prologue.push_str(&super::privarray::bind(r, &n.privs, "    "));
    (params, prologue)
}

/// The loop over the linear iteration number, by schedule.
fn loop_head(r: &Region, body: &str, n: &Names) -> String {
    let (start, stride) = match r.schedule {
        Schedule::GridStride => (
            "(unsigned long long)blockIdx.x * p2c_block_threads() + p2c_thread_id()",
            "(unsigned long long)gridDim.x * p2c_block_threads()",
        ),
        Schedule::BlockStride => ("p2c_thread_id()", "p2c_block_threads()"),
        Schedule::BlockOnly => ("blockIdx.x", "gridDim.x"),
        Schedule::Sequential => ("0", "1"),
    };
    let threads = match r.schedule {
        Schedule::GridStride => Some((
            "blockIdx.x * p2c_block_threads() + p2c_thread_id()",
            "gridDim.x * p2c_block_threads()",
        )),
        Schedule::BlockStride => Some(("p2c_thread_id()", "p2c_block_threads()")),
        _ => None,
    };
    let mut k = String::new();
    if let Some(c) = &r.chunk {
        // schedule / dist_schedule: chunks round-robin over the workers (lower/chunk.rs).
        let narrow = threads.filter(|_| narrow_threads(r));
        k.push_str(&chunk_head(c, &n.iter, &n.trip, (start, stride), narrow));
    } else if !r.tile.is_empty() {
        // OpenACC tile: tiles to blocks, elements to threads (emit/tile.rs).
        k.push_str(&super::tile::loop_head(
            r,
            &n.iter,
            &n.trip,
            start,
            stride,
            &n.per_loop,
            body,
        ));
    } else if r.schedule == Schedule::BlockOnly {
        // One thread per block: a 32-bit bound where the nest allows it.
        let _ = writeln!(
            k,
            "{}",
            super::counter::blocks_head(r.narrow_counter, &n.iter, &n.end, &n.trip, "    ")
        );
    } else if let Some((start32, stride32)) = threads.filter(|_| narrow_threads(r)) {
        // Every thread of the grid or block: a 32-bit counter the host checked.
        let _ = writeln!(
            k,
            "{}",
            super::counter::threads_head(
                r.narrow_counter,
                &n.iter,
                &n.trip,
                start32,
                stride32,
                "    "
            )
        );
    } else {
        let _ = writeln!(
            k,
            "    for (unsigned long long {it} = {start}; {it} < {trip}; {it} += {stride}) {{",
            it = n.iter,
            trip = n.trip
        );
    }
    if !n.last.is_empty() {
        let _ = writeln!(k, "        {} = {} + 1 == {};", n.last, n.iter, n.trip);
    }
    k
}

/// A loop over worker `start`'s chunks of `c` iterations, `stride`
/// workers: within a chunk the next iteration, after its last one the
/// worker's next chunk (`stride` chunks on).
fn chunk_head(
    c: &Chunk,
    it: &str,
    trip: &str,
    (start, stride): (&str, &str),
    narrow: Option<(&str, &str)>,
) -> String {
    let size = match c {
        Chunk::Size(n) => format!("{n}ull"),
        Chunk::Even => return even_chunk_head(it, trip, (start, stride), narrow),
        Chunk::Teams(n) => {
            // The team's chunks (blocks round-robin), its threads within each.
            return format!(
                "    const unsigned long long p2c_chunk = {n}ull;\n    \
                 for (unsigned long long p2c_chunk_lo = (unsigned long long)blockIdx.x * p2c_chunk; p2c_chunk_lo < {trip}; \
                 p2c_chunk_lo += (unsigned long long)gridDim.x * p2c_chunk)\n    \
                 for (unsigned long long {it} = p2c_chunk_lo + p2c_thread_id(); {it} < {trip} && {it} < p2c_chunk_lo + p2c_chunk; \
                 {it} += p2c_block_threads()) {{\n"
            );
        }
    };
    format!(
        "    const unsigned long long p2c_chunk = {size};\n    \
         for (unsigned long long {it} = ({start}) * p2c_chunk; {it} < {trip}; \
         {it} += ({it} + 1ull) % p2c_chunk == 0ull ? (({stride}) - 1ull) * p2c_chunk + 1ull : 1ull) {{\n"
    )
}

/// An even split (`schedule(static)` with no chunk size): each worker runs
/// one contiguous chunk of ceil(trip / workers) iterations, a plain range
/// with no division per iteration. `narrow` (32-bit thread numbers): the
/// host checked that `trip` plus the workers is at most 2^32
/// ([`super::counter::host_check_stride`]), so every bound below fits in
/// 32 bits (workers * chunk < trip + workers).
///
/// Measured (ptxas -v, sm_90): `omp_schedule_chunks`' main_L67 32 -> 22
/// registers (clang-19 24), main_L82 30 -> 20 (clang-19 18).
fn even_chunk_head(
    it: &str,
    trip: &str,
    (start, stride): (&str, &str),
    narrow: Option<(&str, &str)>,
) -> String {
    let (ty, one, start, stride, trip) = match narrow {
        Some((s, w)) => ("unsigned", "1u", s, w, format!("(unsigned){trip}")),
        None => (
            "unsigned long long",
            "1ull",
            start,
            stride,
            trip.to_string(),
        ),
    };
    format!(
        "    const {ty} p2c_chunk = ({trip} + ({stride}) - {one}) / ({stride});\n    \
         const {ty} p2c_chunk_hi = (({start}) + {one}) * p2c_chunk;\n    \
         const {ty} p2c_chunk_end = p2c_chunk_hi < {trip} ? p2c_chunk_hi : {trip};\n    \
         for ({ty} {it} = ({start}) * p2c_chunk; {it} < p2c_chunk_end; {it}++) {{\n"
    )
}

/// The loop variables from the linear iteration number, innermost fastest.
fn loop_vars(r: &Region, body: &str, n: &Names) -> String {
    let mut k = String::new();
    if !r.tile.is_empty() {
        // emit/tile.rs declared the loop variables.
        return k;
    }
    let depth = r.nest.len();
    // A counter the host checked below 2^32 (a collapsed nest of constant
    // bounds, lower/counter.rs): 32-bit divisions (ptxas, sm_90:
    // `omp_collapse3`'s main_L13 28 -> 17 registers, clang-19 16).
    let narrow = narrow_blocks(r) || narrow_threads(r);
    if depth != 1 {
        let (ty, iter) = if narrow_blocks(r) {
            ("unsigned", format!("(unsigned){}", n.iter))
        } else if narrow {
            ("unsigned", n.iter.clone())
        } else {
            ("unsigned long long", n.iter.clone())
        };
        let _ = writeln!(k, "        {ty} p2c_rest = {iter};");
    }
    for idx in (0..depth).rev() {
        let l = &r.nest[idx];
        let ty = &r.nest_types[idx];
        let (trip, lb, step) = &n.per_loop[idx];
        let (step, sign) = step_sign(l, step);
        let trip = if narrow && depth != 1 {
            format!("(unsigned){trip}")
        } else {
            trip.clone()
        };
        let index = match (depth, idx) {
            (1, _) => n.iter.clone(),
            (_, 0) => "p2c_rest".to_string(),
            _ => format!("p2c_rest % {trip}"),
        };
        let _ = writeln!(
            k,
            "        {}{} = {lb} {sign} {};",
            unused_mark(body, &l.var),
            ty.declare(&l.var),
            fold::scaled(&ty.type_name(), &index, &step)
        );
        if idx > 0 {
            let _ = writeln!(k, "        p2c_rest /= {trip};");
        }
    }
    k.push_str(&super::linear::iteration_starts(r, &n.lin, &n.iter));
    k
}

/// The trip count of loop `li` of the nest in the kernel: the total for
/// one loop; in a collapsed nest the inner loops' are parameters and the
/// outermost's is the total over their product (read only by the thread
/// that ran the last iteration, so no inner trip count is zero).
fn loop_trip(r: &Region, n: &Names, li: usize) -> String {
    match (r.nest.len(), li) {
        (1, _) => n.trip.clone(),
        (_, 0) => {
            let inner: Vec<&str> = n.per_loop[1..].iter().map(|p| p.0.as_str()).collect();
            format!("{} / ({})", n.trip, inner.join(" * "))
        }
        _ => n.per_loop[li].0.clone(),
    }
}

/// After the loop: lastprivate stores, array and scalar reductions.
fn kernel_epilogue(r: &Region, n: &Names) -> String {
    let mut k = String::new();
    for (i, v) in r.vars.iter().enumerate() {
        match v.attr {
            Attr::Lastprivate { .. } if v.sym.ty.is_array() => {
                k.push_str(&super::lastprivate_array::store(
                    &n.last,
                    &n.dev[i],
                    &v.sym.name,
                ));
            }
            Attr::Lastprivate { conditional: false } => {
                // The loop variable's value after the loop is the one past the last iteration.
                let value = match r.nest.iter().position(|l| l.var == v.sym.name) {
                    Some(li) => {
                        let (step, sign) = step_sign(&r.nest[li], &n.per_loop[li].2);
                        format!(
                            "{} {sign} {}",
                            n.per_loop[li].1,
                            fold::scaled(
                                &r.nest_types[li].type_name(),
                                &loop_trip(r, n, li),
                                &step
                            )
                        )
                    }
                    None => v.sym.name.clone(),
                };
                let _ = writeln!(
                    k,
                    "    if ({}) /* lastprivate: this thread ran the last iteration */\n        *{} = {value};",
                    n.last, n.dev[i]
                );
            }
            Attr::Lastprivate { conditional: true } => {
                let _ = writeln!(
                    k,
                    "    p2c_lastprivate_cond({}, {}, {}, {}); /* the last assigning iteration wins */",
                    n.dev[i], n.lpc[i], n.cond[i], v.sym.name
                );
            }
            _ => {}
        }
    }
    for (a, an) in r.array_reductions.iter().zip(&n.arr) {
        k.push_str(&array_fini(
            a,
            an,
            "each block combines its threads' copies element by element\n     * (thread order),",
        ));
    }
    if let Some(rn) = &n.red {
        k.push_str(&reduction::kernel_steps(r, rn, false));
    }
    k
}

/// A type spelled with C99 `_Complex` (a complex scalar, or an array of or
/// pointer to complex values).
fn mentions_complex(ty: &CType) -> bool {
    ty.base.split_whitespace().any(|w| w == "_Complex")
}

fn is_complex_scalar(ty: &CType) -> bool {
    ty.is_scalar() && mentions_complex(ty)
}

/// The type of the parts of a complex type's spelling.
fn complex_part(base: &str) -> &'static str {
    if base.split_whitespace().any(|w| w == "float") {
        "float"
    } else {
        "double"
    }
}

/// The element type of an array reduction, unqualified.
fn array_elem(a: &crate::ir::ArrayReduction) -> String {
    CType {
        base: a.ty.unqualified_base(),
        derivs: vec![],
    }
    .type_name()
}

/// The kernel parameters of an array reduction.
fn array_params(a: &crate::ir::ArrayReduction, an: &ArrNames) -> Vec<String> {
    let t = array_elem(a);
    vec![
        format!("{t} *{}", an.dev),
        format!("long long {}", an.lo),
        format!("long long {}", an.len),
        format!("{t} *{}", an.copies),
        format!("unsigned *{}", an.arrived),
    ]
}

/// RED_INIT of an array reduction: this thread's private copy of the
/// section, every element init_val(OP), and the variable's name bound to it
/// (a pointer, or a reference to an array of the declared extent, so that
/// `sizeof` and indexing mean what they mean on the host).
fn array_init(r: &Region, a: &crate::ir::ArrayReduction, an: &ArrNames, team_copy: bool) -> String {
    let t = array_elem(a);
    let mut o = String::new();
    let _ = writeln!(
        o,
        "    /* reduction({}: {}), rid {}: one RID covers the section; RED_INIT (GANG) gives this thread\n     * its private copy of the section, every element init_val({}); `{}` names it in the loop */",
        a.op.as_str(),
        a.text,
        a.rid,
        a.op.as_str(),
        a.var
    );
    // The block's threads fill the block's copies together (coalesced), then
    // a barrier: see p2c_red_array_init.
    // Generic mode names thread 0's copy (the team's) below, not its own.
    let mine = if team_copy {
        String::new()
    } else {
        format!("{t} *{} = ", an.mine)
    };
    let _ = writeln!(
        o,
        "    {mine}p2c_red_array_init<{op}>({copies}, {len}); /* the block's copies filled together (coalesced) */",
        op = a.op.functor(),
        copies = an.copies,
        len = an.len
    );
    let _ = writeln!(
        o,
        "    {}",
        super::bind::bind(
            &t,
            &a.var,
            &a.ty,
            &if team_copy {
                // Generic mode: every thread names thread 0's copy, the team's.
                format!(
                    "({} + (unsigned long long)blockIdx.x * p2c_block_threads() * (unsigned long long){}) - {}",
                    an.copies, an.len, an.lo
                )
            } else {
                format!("{} - {}", an.mine, an.lo)
            }
        )
    );
    let _ = r;
    o
}

/// RED_FINI at GANG of one array reduction: every thread of every block
/// calls `p2c_red_array` after the loop; `how` says how the block combines.
fn array_fini(a: &crate::ir::ArrayReduction, an: &ArrNames, how: &str) -> String {
    format!(
        "    /* RED_FINI (GANG, rid {rid}) of {text}: {how} the last block to arrive folds the blocks' copies (block order) into the device copy */\n    p2c_red_array<{op}>({dev} + {lo}, {copies}, {len}, {arrived});\n",
        rid = a.rid,
        text = a.text,
        op = a.op.functor(),
        dev = an.dev,
        lo = an.lo,
        len = an.len,
        copies = an.copies,
        arrived = an.arrived,
    )
}

/// A generic-mode kernel's array reductions on its compute construct
/// (`lower::reduction::array_generic::construct_arrays`): the kernel
/// parameters (after the scalar reductions', as the host passes them),
/// RED_INIT by every thread at the kernel's start (its copy at the
/// identity; the name bound to thread 0's copy, the team's), and RED_FINI
/// by every thread of the block at its end (`p2c_red_array`).
pub(crate) fn generic_arrays(r: &Region, namer: &mut Namer) -> (Vec<String>, String, String) {
    let (mut params, mut init, mut fini) = (Vec::new(), String::new(), String::new());
    for a in &r.array_reductions {
        let dev = namer.fresh(&format!("p2c_dev_{}", a.var));
        let an = ArrNames::new(dev, &a.var, namer);
        params.extend(array_params(a, &an));
        init.push_str(&array_init(r, a, &an, true));
        fini.push_str(&array_fini(
            a,
            &an,
            "each block combines its threads' copies (thread 0's is the team's)\n     * element by element,",
        ));
    }
    (params, init, fini)
}

/// Marks, in the rendered loop body, where an assignment to the
/// `lastprivate(conditional:)` variable `var_index` starts (its end gets a
/// `)`): replaced by the kernel with the store of the iteration number.
pub(crate) fn lastprivate_marker(var_index: usize) -> String {
    format!("\u{0}P2C_LP{var_index}\u{0}")
}

/// Re-indents a multi-line statement so its first line sits at `indent`.
pub(crate) fn reindent(body: &str, indent: &str) -> String {
    let lines: Vec<&str> = body.lines().collect();
    if lines.len() <= 1 {
        return body.trim().to_string();
    }
    // The common indentation of the continuation lines.
    let common = lines[1..]
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let last_indent = lines
        .last()
        .map(|l| l.len() - l.trim_start().len())
        .unwrap_or(0);
    let base = common.min(last_indent);
    let mut out = lines[0].trim().to_string();
    for l in &lines[1..] {
        out.push('\n');
        if !l.trim().is_empty() {
            out.push_str(indent);
            out.push_str(
                l.get(base.min(l.len() - l.trim_start().len())..)
                    .unwrap_or(l),
            );
        }
    }
    out
}

fn host_text(r: &Region, fallback: &str, file_name: &str, n: &Names) -> String {
    let mut h = String::new();
    if let Some(t) = &r.task_wait {
        let _ = writeln!(
            h,
            "{t} /* depend: the tasks this construct depends on complete first */"
        );
    }
    let here = format!("\"{}:{}\"", escape(file_name), r.line);
    if let Some(t) = r
        .omp_task
        .as_ref()
        .and_then(|t| super::target_task::before_undeferred(t, &here))
    {
        let _ = writeln!(h, "{t}");
    }
    if let Some(t) = &r.reduction_task {
        let _ = writeln!(
            h,
            "{t} /* in_reduction: the launch is an included host task of the enclosing task reduction */"
        );
    }
    let w = &n.where_;
    let _ = writeln!(
        h,
        "{{ /* pragma2cuda: `{}` runs as kernel {}() */",
        r.pragma_text, r.kernel
    );
    let ind = "    ";
    let _ = writeln!(
        h,
        "{ind}const char *{w} = \"{}:{}\";",
        escape(file_name),
        r.line
    );
    let queue_at = h.len();
    let mut args = host_trips(r, n, &mut h);
    if narrow_blocks(r) {
        h.push_str(&super::counter::host_check32(&n.trip, w, ind));
    }
    // The device data environment.
    let mut exits = Vec::new();
    data_env(r, n, &mut h, &mut args, &mut exits);
    let (per_block, runtime_limit) = launch_shape(r, n, &mut h);
    if narrow_threads(r) {
        let stride = match r.schedule {
            // In 64 bits: a grid of 2^22 blocks of 1024 threads has 2^32.
            Schedule::GridStride => format!("(unsigned long long){} * {per_block}", n.blocks),
            _ => per_block.clone(),
        };
        h.push_str(&super::counter::host_check_stride(&n.trip, &stride, w, ind));
    }
    host_storage(r, n, &per_block, &mut h, &mut args, &mut exits);
    args.extend(runtime_limit);
    let _ = writeln!(h, "{ind}if ({} > 0) {{", n.trip);
    let _ = writeln!(
        h,
        "{ind}    P2C_LAUNCH({}, {}, {}, 0)({});",
        r.kernel,
        n.blocks,
        n.block,
        args.join(", ")
    );
    let _ = writeln!(h, "{ind}    p2c_check_launch({w});");
    let _ = writeln!(h, "{ind}}}");
    for e in exits.iter().rev() {
        let _ = writeln!(h, "{ind}{e}");
    }
    if let Some(q) = &r.acc_queue {
        let mut open = super::queue::open(q, "p2c_queue", w, ind);
        if q.queue.is_some() && super::queue::shares_scratch(&h[queue_at..]) {
            let _ = writeln!(
                open,
                "{ind}p2c_queue.serial(); /* device scratch shared with other launches: after the queue, synchronously */"
            );
        }
        h.insert_str(queue_at, &open);
    }
    if let Some(t) = r.omp_task.as_ref().filter(|t| t.deferred) {
        let mut open = super::target_task::open_deferred(t, w, ind);
        if super::queue::shares_scratch(&h[queue_at..]) {
            let _ = writeln!(
                open,
                "{ind}p2c_task.serial(); /* device scratch shared with other launches: after its dependences, synchronously */"
            );
        }
        h.insert_str(queue_at, &open);
    }
    h.push_str(&untouched_note(r));
    h.push('}');
    match (&r.if_cond, &r.device_check) {
        (None, None) => h,
        (None, Some(check)) => format!("if ({check}) {h}"),
        (Some(cond), _) => host_if(r, n, cond, fallback, h),
    }
}

/// The loop bounds, steps and trip counts on the host; the launch
/// arguments they give (the total trip count first).
fn host_trips(r: &Region, n: &Names, h: &mut String) -> Vec<String> {
    let ind = "    ";
    let mut args: Vec<String> = vec![n.trip.clone()];
    let mut trips = Vec::new();
    for (l, (ty, (trip, lb, step))) in r.nest.iter().zip(r.nest_types.iter().zip(&n.per_loop)) {
        let t = ty.type_name();
        let _ = writeln!(
            h,
            "{ind}const {} = {};",
            ty.declare(lb),
            fold::cast(ty, &l.lb)
        );
        let step_text = if literal_step(l) {
            l.step.clone()
        } else {
            let _ = writeln!(h, "{ind}const {} = ({t})({});", ty.declare(step), l.step);
            step.clone()
        };
        let _ = writeln!(
            h,
            "{ind}const unsigned long long {trip} = {};",
            trip_expr(l, ty, lb, &step_text)
        );
        trips.push(trip.clone());
    }
    if r.nest.len() > 1 {
        args.extend(trips.iter().skip(1).cloned());
    }
    for (l, (_, lb, step)) in r.nest.iter().zip(&n.per_loop) {
        args.push(lb.clone());
        if !literal_step(l) {
            args.push(step.clone());
        }
    }
    let _ = writeln!(
        h,
        "{ind}const unsigned long long {} = {};",
        n.trip,
        if trips.is_empty() {
            "1".to_string()
        } else {
            trips.join(" * ")
        }
    );
    args
}

/// The launch shape (`dim3` block, block count) written to `h`: the
/// threads of a block as an expression, and the team size a generic-mode
/// kernel takes at run time.
fn launch_shape(r: &Region, n: &Names, h: &mut String) -> (String, Option<String>) {
    let ind = "    ";
    let w = &n.where_;
    let mut threads_x = size_expr(&r.threads_x, 1024, w, "threads", "256");
    // Generic mode with a team size known at run time: blocks are that size
    // rounded up to whole warps, and the kernel gets the size.
    let runtime_limit = r
        .generic
        .as_ref()
        .and_then(|g| g.runtime_limit.as_ref())
        .map(|l| {
            let name = format!("{}_limit", n.block);
            let _ = writeln!(h, "{ind}const unsigned {name} = {};", l.host_expr(w));
            threads_x = format!("({name} + 31u) / 32u * 32u");
            name
        });
    let threads_y = size_expr(&r.threads_y, 1024, w, "workers", "1");
    let _ = writeln!(h, "{ind}const dim3 {}({threads_x}, {threads_y});", n.block);
    let per_block = match (&r.threads_x, &r.threads_y) {
        (_, Size::Fixed(1)) => format!("{}.x", n.block),
        _ => format!("{b}.x * {b}.y", b = n.block),
    };
    let from_trip = format!("p2c_blocks_for({}, {per_block}, {}u)", n.trip, r.max_blocks);
    // Every thread has its own copy of each reduced or privatized section:
    // fewer blocks keep the copies within the prelude's budget.
    let bytes: Vec<String> = r
        .array_reductions
        .iter()
        .zip(&n.arr)
        .map(|(a, an)| format!("(unsigned long long){} * sizeof({})", an.len, array_elem(a)))
        .chain(
            r.array_privates
                .iter()
                .filter(|a| a.per == crate::ir::privarray::Per::Thread)
                .map(|a| {
                    format!(
                        "(unsigned long long)({}) * sizeof({})",
                        a.len,
                        a.elem.type_name()
                    )
                }),
        )
        .chain(super::array_team_area::bytes_per_thread(r))
        .collect();
    let from_trip = if bytes.is_empty() {
        from_trip
    } else {
        format!(
            "p2c_array_red_blocks({from_trip}, {per_block}, {})",
            bytes.join(" + ")
        )
    };
    let blocks = size_expr(&r.blocks, 2147483647, w, "blocks", &from_trip);
    let _ = writeln!(h, "{ind}const unsigned {} = {blocks};", n.blocks);
    (per_block, runtime_limit)
}

/// The launch's size as host expressions (blocks, threads per block), the
/// region's location for runtime messages and the indentation: what the
/// storage sized by the launch is written with.
#[derive(Clone, Copy)]
pub struct LaunchSize<'a> {
    pub blocks: &'a str,
    pub per_block: &'a str,
    pub w: &'a str,
    pub ind: &'a str,
}

/// The host side of a launch as it is built: the code before the launch,
/// the kernel's arguments, and the clean-up to run after it.
pub struct HostParts<'a> {
    pub code: &'a mut String,
    pub args: &'a mut Vec<String>,
    pub exits: &'a mut Vec<String>,
}

/// Device storage sized by the launch: reduction scratch, every thread's
/// copies of reduced or privatized arrays, generic mode's team frames.
fn host_storage(
    r: &Region,
    n: &Names,
    per_block: &str,
    h: &mut String,
    args: &mut Vec<String>,
    exits: &mut Vec<String>,
) {
    let ind = "    ";
    let w = &n.where_;
    if let Some(rn) = &n.red {
        h.push_str(&reduction::host_setup(r, rn, w, &n.blocks, ind, exits));
        args.extend(reduction::args(r, rn));
    }
    for (a, an) in r.array_reductions.iter().zip(&n.arr) {
        let t = array_elem(a);
        let _ = writeln!(
            h,
            "{ind}/* rid {}: a private copy of {} for every thread of every block, and the blocks' arrival counter */",
            a.rid, a.text
        );
        let _ = writeln!(
            h,
            "{ind}{t} *{} = p2c_array_copies<{t}>({}u, (unsigned long long){} * {per_block} * {}, {w});",
            an.copies,
            32 + a.rid,
            n.blocks,
            an.len
        );
        let _ = writeln!(
            h,
            "{ind}unsigned *{} = p2c_counter({}u, {w});",
            an.arrived,
            32 + a.rid
        );
        args.extend([
            an.dev.clone(),
            an.lo.clone(),
            an.len.clone(),
            an.copies.clone(),
            an.arrived.clone(),
        ]);
    }
    let size = LaunchSize {
        blocks: &n.blocks,
        per_block,
        w,
        ind,
    };
    super::privarray::host(
        r,
        &n.privs,
        &size,
        HostParts {
            code: h,
            args,
            exits,
        },
    );
    super::array_team_area::host(
        r,
        &n.team_areas,
        &size,
        HostParts {
            code: h,
            args,
            exits,
        },
    );
    if let Some(g) = r.generic.as_ref().filter(|g| g.global_bytes > 0) {
        // Generic mode: the per-team frames in global memory.
        args.push(format!(
            "p2c_team_stack({}u, {}, {w})",
            g.global_bytes, n.blocks
        ));
    }
}

/// `(void)&x;` for the variables the region does not write on the host.
fn untouched_note(r: &Region) -> String {
    let ind = "    ";
    let mut h = String::new();
    // Private variables and loop variables declared before the region are
    // not written by it (their value afterwards is unspecified in both
    // models); the host code may no longer name them at all.
    let untouched: Vec<&str> = r
        .nest
        .iter()
        .filter(|l| l.declared_type.is_none())
        .map(|l| l.var.as_str())
        .chain(
            r.vars
                .iter()
                .filter(|v| {
                    v.attr == Attr::Private
                        || matches!(v.attr, Attr::ArrayPrivate { first: false, .. })
                })
                .map(|v| v.sym.name.as_str()),
        )
        .fold(Vec::new(), |mut acc, name| {
            if !acc.contains(&name) {
                acc.push(name);
            }
            acc
        });
    if !untouched.is_empty() {
        let list: Vec<String> = untouched.iter().map(|v| format!("(void)&{v};")).collect();
        let _ = writeln!(
            h,
            "{ind}{} /* private in the region: the host copies are not written */",
            list.join(" ")
        );
    }
    h
}

/// `if (cond) { device block } else { the code on the host }` (an `if`
/// clause): the host runs `fallback` with its own firstprivate copies.
fn host_if(r: &Region, n: &Names, cond: &str, fallback: &str, h: String) -> String {
    let ind = "    ";
    let mut out = format!("if ({cond}) ");
    out.push_str(&h);
    out.push_str(if r.generic.is_some() {
        " else { /* if clause false: the block runs on the host */\n"
    } else {
        " else { /* if clause false: the loop runs on the host */\n"
    });
    for (i, v) in r.vars.iter().enumerate() {
        let ty = CType {
            base: v.sym.ty.unqualified_base(),
            derivs: v.sym.ty.derivs.clone(),
        };
        match v.attr {
            Attr::Private if !r.nest.iter().any(|l| l.var == v.sym.name) => {
                let _ = writeln!(out, "{ind}{};", ty.declare(&v.sym.name));
            }
            _ => {}
        }
        let _ = i;
    }
    let firsts: Vec<(usize, &crate::ir::c::VarAttr)> = r
        .vars
        .iter()
        .enumerate()
        // Implicit firstprivate too (OpenMP target scalars, OpenACC
        // parallel scalars): the body may write its copy, and the host
        // variable must not see it. Those the body never names need
        // no copy.
        .filter(|(_, v)| {
            v.attr == Attr::Firstprivate
                && v.sym.ty.is_scalar()
                && (!v.is_implicit() || r.body_names.contains(&v.sym.name))
        })
        .collect();
    // The host names a hoisted local type as the function spells it.
    let host_ty = |v: &crate::ir::c::VarAttr| CType {
        base: r
            .local_types
            .iter()
            .find(|h| h.var == v.sym.name)
            .map(|h| h.host_ty.clone())
            .unwrap_or_else(|| v.sym.ty.unqualified_base()),
        derivs: vec![],
    };
    for (i, v) in &firsts {
        let ty = host_ty(v);
        let _ = writeln!(out, "{ind}{} = {};", ty.declare(&n.fp[*i]), v.sym.name);
    }
    let mut inner = String::new();
    for (i, v) in &firsts {
        let ty = host_ty(v);
        let _ = write!(inner, "{} = {}; ", ty.declare(&v.sym.name), n.fp[*i]);
    }
    if firsts.is_empty() {
        let _ = writeln!(out, "{ind}{}", reindent(fallback, ind));
    } else {
        let _ = writeln!(
            out,
            "{ind}{{ {inner}\n{ind}{}\n{ind}}}",
            reindent(fallback, ind)
        );
    }
    out.push('}');
    out
}

/// The device data environment of the region: each variable mapped (or
/// passed by value) before the launch, its kernel argument, and the unmap
/// calls to run after it (`exits`, in order of mapping).
fn data_env(
    r: &Region,
    n: &Names,
    h: &mut String,
    args: &mut Vec<String>,
    exits: &mut Vec<String>,
) {
    let w = &n.where_;
    let ind = "    ";
    for (i, v) in r.vars.iter().enumerate() {
        let name = &v.sym.name;
        let dev = &n.dev[i];
        match &v.attr {
            Attr::Firstprivate if r.in_kernel(v) && is_complex_scalar(&v.sym.ty) => {
                args.push(format!("__real__ {name}, __imag__ {name}"))
            }
            Attr::Firstprivate if r.in_kernel(v) => {
                args.push(host_arg(&r.local_types, name).unwrap_or_else(|| name.clone()))
            }
            Attr::Firstprivate => {}
            Attr::Private | Attr::ArrayPrivate { .. } => {}
            Attr::Mapped {
                kind,
                sections,
                mods,
            } => map_var(r, v, dev, (*kind, sections, mods), h, args, exits, w),
            Attr::Reduction { .. } => {}
            Attr::ArrayReduction { op, .. } => map_array_reduction(r, n, v, *op, h, exits, w),
            Attr::Lastprivate { .. } if v.sym.ty.is_array() => {
                let (map, unmap) = super::lastprivate_array::host_map(&v.sym.ty, name, dev, w, ind);
                h.push_str(&map);
                args.push(dev.clone());
                exits.push(unmap);
            }
            Attr::Lastprivate { conditional } => {
                let t = v.sym.ty.unqualified_base();
                let _ = writeln!(
                    h,
                    "{ind}{t} *{dev} = p2c_map_scalar(&{name}, P2C_MAP_TOFROM, {w}); /* lastprivate */"
                );
                args.push(dev.clone());
                args.extend(super::linear::host_args(r, i, &n.lin, dev, w, h));
                if *conditional {
                    let slot = r.vars[..i]
                        .iter()
                        .filter(|x| matches!(x.attr, Attr::Lastprivate { conditional: true }))
                        .count();
                    let _ = writeln!(
                        h,
                        "{ind}unsigned long long *{} = p2c_lastprivate_scratch({slot}, {w});",
                        n.lpc[i]
                    );
                    args.push(n.lpc[i].clone());
                }
                exits.push(format!("p2c_unmap_scalar(&{name}, P2C_MAP_TOFROM, {w});"));
            }
        }
    }
}

/// A variable of a map clause (or mapped implicitly): a scalar or a section
/// (one or two dimensions) mapped, its unmap call, and its device pointer
/// as an argument when the kernel names it.
#[allow(clippy::too_many_arguments)]
fn map_var(
    r: &Region,
    v: &crate::ir::c::VarAttr,
    dev: &String,
    (kind, sections, mods): (MapKind, &[crate::ir::c::Section], &crate::ir::c::MapMods),
    h: &mut String,
    args: &mut Vec<String>,
    exits: &mut Vec<String>,
    w: &str,
) {
    let ind = "    ";
    let name = &v.sym.name;
    // A variable the kernel never names is still mapped (its data moves
    // as the clause says) but gets no device pointer.
    let bind = |decl: String| {
        if r.in_kernel(v) {
            format!("{decl} = ")
        } else {
            String::new()
        }
    };
    // An implicitly mapped whole array may find a section of itself present.
    let mut k = if v.is_implicit() && v.sym.ty.is_array() {
        format!("{} | P2C_MAP_IMPLICIT", kind.runtime_name())
    } else {
        kind.runtime_name().to_string()
    };
    // `always`: copied in and back even when present;
    // `present`: a runtime error when absent.
    k.push_str(&mods.runtime_flags());
    // A hoisted local type: the device address is cast to the kernel's copy.
    let cast = r
        .local_types
        .iter()
        .find(|t| t.var == *name)
        .map(|t| format!("({} *)", t.ty_name))
        .unwrap_or_default();
    let bind = |decl: String| {
        if r.in_kernel(v) {
            format!("{}{cast}", bind(decl))
        } else {
            String::new()
        }
    };
    if mods.device_addr {
        // has_device_addr: the address is a device address already.
        if r.in_kernel(v) {
            let (decl, addr) = if v.sym.ty.is_array() {
                (v.sym.ty.decayed().declare(dev), name.clone())
            } else {
                (v.sym.ty.pointer_to().declare(dev), format!("&{name}"))
            };
            let _ = writeln!(h, "{ind}{}{addr}; /* has_device_addr */", bind(decl));
            args.push(dev.clone());
        }
        return;
    }
    if v.maps_one_object() {
        let _ = writeln!(
            h,
            "{ind}{}p2c_map_scalar(&{name}, {k}, {w}, \"{name}\");",
            bind(v.sym.ty.pointer_to().declare(dev))
        );
        exits.push(format!("p2c_unmap_scalar(&{name}, {k}, {w}, \"{name}\");"));
    } else {
        let ((lo, len), second) = section_bounds(name, sections, v.sym.ty.is_array());
        let lo_n = format!("{dev}_lo");
        let len_n = format!("{dev}_len");
        match second {
            None => {
                let _ = writeln!(h, "{ind}const long long {lo_n} = {lo}, {len_n} = {len};");
                let _ = writeln!(
                    h,
                    "{ind}{}p2c_map_section({name}, {lo_n}, {len_n}, {k}, {w}, \"{name}\");",
                    bind(v.sym.ty.decayed().declare(dev))
                );
                exits.push(format!(
                    "p2c_unmap_section({name}, {lo_n}, {len_n}, {k}, {w}, \"{name}\");"
                ));
            }
            Some((lo2, len2)) => {
                let lo2_n = format!("{dev}_lo2");
                let len2_n = format!("{dev}_len2");
                let _ = writeln!(
                    h,
                    "{ind}const long long {lo_n} = {lo}, {len_n} = {len}, {lo2_n} = {lo2}, {len2_n} = {len2};"
                );
                let _ = writeln!(
                    h,
                    "{ind}{}p2c_map_section2({name}, {lo_n}, {len_n}, {lo2_n}, {len2_n}, {k}, {w}, \"{name}\");",
                    bind(v.sym.ty.decayed().declare(dev))
                );
                exits.push(format!(
                    "p2c_unmap_section2({name}, {lo_n}, {len_n}, {lo2_n}, {len2_n}, {k}, {w}, \"{name}\");"
                ));
            }
        }
    }
    if r.in_kernel(v) {
        args.push(dev.clone());
    }
}

/// `reduction(op: section)` of the construct: RED_SETUP maps the section
/// tofrom (RES_PTR is its device copy), RED_TEARDOWN unmaps it.
fn map_array_reduction(
    r: &Region,
    n: &Names,
    v: &crate::ir::c::VarAttr,
    op: crate::ir::c::RedOp,
    h: &mut String,
    exits: &mut Vec<String>,
    w: &str,
) {
    let ind = "    ";
    let name = &v.sym.name;
    if let Some((a, an)) = r
        .array_reductions
        .iter()
        .zip(&n.arr)
        .find(|(a, _)| a.var == *name)
    {
        let _ = writeln!(
            h,
            "{ind}/* reduction({}: {}): RED_SETUP (GANG, rid {}) maps the section tofrom; RES_PTR = its device copy */",
            op.as_str(),
            a.text,
            a.rid
        );
        let _ = writeln!(
            h,
            "{ind}const long long {} = {}, {} = {};",
            an.lo, a.lo, an.len, a.len
        );
        // An array of arrays is reduced as its run of scalars.
        let (decl, base) = if v.sym.ty.dims() >= 2 {
            let t = array_elem(a);
            (format!("{t} *{}", an.dev), format!("({t} *){name}"))
        } else {
            (v.sym.ty.decayed().declare(&an.dev), name.to_string())
        };
        let _ = writeln!(
            h,
            "{ind}{decl} = p2c_map_section({base}, {}, {}, P2C_MAP_TOFROM, {w}, \"{name}\");",
            an.lo, an.len
        );
        exits.push(format!(
            "p2c_unmap_section({base}, {}, {}, P2C_MAP_TOFROM, {w}, \"{name}\"); /* RED_TEARDOWN (GANG, rid {}) */",
            an.lo, an.len, a.rid
        ));
    }
}

fn escape(s: &str) -> String {
    crate::source::literal::c_string(s)
}

#[allow(dead_code)]
fn map_word(k: MapKind) -> &'static str {
    k.as_str()
}

/// `using namespace` of each hoisted local enum, so the kernel's body
/// names its constants (`lower/localtype.rs`).
pub(crate) fn local_type_scopes(r: &Region) -> String {
    r.local_types
        .iter()
        .filter_map(|h| h.scope.as_ref())
        .map(|ns| format!("    using namespace {ns};\n"))
        .collect()
}

/// The host's argument for variable `name` of a region with hoisted types.
fn host_arg(hoisted: &[crate::ir::localtype::Hoisted], name: &str) -> Option<String> {
    hoisted
        .iter()
        .find(|h| h.var == name)
        .map(|h| format!("*({} *)&{name}", h.ty_name))
}
