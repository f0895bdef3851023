//! The CUDA text of array privatization (`lower/privarray.rs`): the host
//! allocates one area per launch (copies x section), maps a firstprivate's
//! section `to` as its source, and passes source, bounds and area after the
//! other arguments; the kernel, before anything else runs, takes its slice,
//! fills it (firstprivate) and binds the variable's name to it, indexed as
//! the original.

use super::namer::Namer;
use super::region::{HostParts, LaunchSize};
use crate::ir::c::{CType, Deriv};
use crate::ir::privarray::{ArrayPrivate, Per};
use crate::ir::Region;
use std::fmt::Write;

/// Generated names of one privatized array.
#[derive(Clone, Debug)]
pub struct PrivNames {
    pub src: String,
    pub lo: String,
    pub len: String,
    pub area: String,
    pub mine: String,
    pub k: String,
}

pub fn names(r: &Region, namer: &mut Namer) -> Vec<PrivNames> {
    r.array_privates
        .iter()
        .map(|a| PrivNames {
            src: namer.fresh(&format!("p2c_src_{}", a.var)),
            lo: namer.fresh(&format!("p2c_lo_{}", a.var)),
            len: namer.fresh(&format!("p2c_len_{}", a.var)),
            area: namer.fresh(&format!("p2c_copies_{}", a.var)),
            mine: namer.fresh(&format!("p2c_mine_{}", a.var)),
            k: namer.fresh("p2c_k"),
        })
        .collect()
}

fn elem(a: &ArrayPrivate) -> String {
    a.elem.type_name()
}

/// Host code before the launch (after the block count `blocks` and the
/// threads per block `per_block` are known); pushes the launch arguments
/// and the code to run after the kernel (freeing the area, unmapping the
/// source) onto `exits`.
#[allow(clippy::too_many_arguments)]
/// The comment line that names an array privatization and its home.
fn header(a: &ArrayPrivate, ind: &str) -> String {
    let clause = if a.first { "firstprivate" } else { "private" };
    format!("{ind}/* {clause}({}): {} */\n", a.text, a.home())
}

pub fn host(r: &Region, pn: &[PrivNames], size: &LaunchSize<'_>, out: HostParts<'_>) {
    let LaunchSize {
        blocks,
        per_block,
        w,
        ind,
    } = *size;
    let HostParts {
        code: h,
        args,
        exits,
    } = out;
    for (a, n) in r.array_privates.iter().zip(pn) {
        let t = elem(a);
        let name = &a.var;
        let copies = match a.per {
            Per::Team => blocks.to_string(),
            Per::Thread => format!("{blocks} * {per_block}"),
        };
        h.push_str(&header(a, ind));
        let _ = writeln!(
            h,
            "{ind}const long long {} = {}, {} = {};",
            n.lo, a.lo, n.len, a.len
        );
        if a.first {
            let _ = writeln!(
                h,
                "{ind}{} = p2c_map_section({name}, {}, {}, P2C_MAP_TO, {w}, \"{name}\");",
                a.ty.decayed().declare(&n.src),
                n.lo,
                n.len
            );
            args.push(n.src.clone());
        }
        let _ = writeln!(
            h,
            "{ind}{t} *{area} = nullptr;\n{ind}p2c_check(cudaMalloc((void **)&{area}, (size_t)({copies}) * (size_t)({len} > 0 ? {len} : 1) * sizeof({t})), {w}, \"cudaMalloc\");",
            area = n.area,
            len = n.len,
        );
        args.extend([n.lo.clone(), n.len.clone(), n.area.clone()]);
        if a.first {
            exits.push(format!(
                "p2c_unmap_section({name}, {}, {}, P2C_MAP_TO, {w}, \"{name}\");",
                n.lo, n.len
            ));
        }
        exits.push(format!(
            "p2c_check(cudaFree({}), {w}, \"cudaFree\");",
            n.area
        ));
    }
}

/// The kernel parameters, in the order of [`host`]'s arguments.
pub fn params(r: &Region, pn: &[PrivNames]) -> Vec<String> {
    let mut out = Vec::new();
    for (a, n) in r.array_privates.iter().zip(pn) {
        let t = elem(a);
        if a.first {
            out.push(format!("const {t} *{}", n.src));
        }
        out.push(format!("long long {}", n.lo));
        out.push(format!("long long {}", n.len));
        out.push(format!("{t} *{}", n.area));
    }
    out
}

/// The kernel's first statements (every thread of the block runs them):
/// this copy's slice, filled for a firstprivate, and the variable's name
/// bound to it as the original is indexed.
pub fn bind(r: &Region, pn: &[PrivNames], ind: &str) -> String {
    let mut o = String::new();
    let mut sync = false;
    for (a, n) in r.array_privates.iter().zip(pn) {
        let t = elem(a);
        let index = match a.per {
            Per::Team => "(unsigned long long)blockIdx.x",
            Per::Thread => {
                "((unsigned long long)blockIdx.x * p2c_block_threads() + p2c_thread_id())"
            }
        };
        o.push_str(&header(a, ind));
        let _ = writeln!(
            o,
            "{ind}{t} *{mine} = {area} + {index} * (unsigned long long){len};",
            mine = n.mine,
            area = n.area,
            len = n.len
        );
        if a.first {
            let (start, step) = match a.per {
                Per::Team => (
                    "(long long)p2c_thread_id()",
                    "(long long)p2c_block_threads()",
                ),
                Per::Thread => ("0", "1"),
            };
            // Not unrolled: nvcc unrolled the copy by 4 and kept four
            // 64-bit addresses live (ptxas, sm_90: `omp_firstprivate_arrays`'
            // main_L74 28 -> 20 registers, clang-19 16).
            let _ = writeln!(
                o,
                "{ind}P2C_NO_UNROLL\n{ind}for (long long {k} = {start}; {k} < {len}; {k} += {step})\n{ind}    {mine}[{k}] = {src}[{lo} + {k}];",
                k = n.k,
                len = n.len,
                mine = n.mine,
                src = n.src,
                lo = n.lo
            );
            sync |= a.per == Per::Team;
        }
    }
    if sync {
        let _ = writeln!(
            o,
            "{ind}__syncthreads(); /* every team's copies are filled before its code runs */"
        );
    }
    for (a, n) in r.array_privates.iter().zip(pn) {
        let _ = writeln!(o, "{ind}{}; (void){};", binding(a, &n.mine, &n.lo), a.var);
    }
    o
}

/// `T *c = mine - lo` for a pointer, `T (&a)[N] = *(T (*)[N])(mine - lo)`
/// for an array (so `sizeof(a)` and `a[i]` keep their meaning).
fn binding(a: &ArrayPrivate, mine: &str, lo: &str) -> String {
    match a.ty.derivs.first() {
        Some(Deriv::Array(n)) => {
            let arr = CType {
                base: a.elem.base.clone(),
                derivs: vec![Deriv::Array(n.clone())],
            };
            let ptr = CType {
                base: a.elem.base.clone(),
                derivs: vec![Deriv::Pointer { quals: vec![] }, Deriv::Array(n.clone())],
            };
            format!(
                "{} = *({})({mine} - {lo})",
                arr.declare(&format!("(&{})", a.var)),
                ptr.type_name()
            )
        }
        _ => format!("{} = {mine} - {lo}", a.ty.declare(&a.var)),
    }
}

/// The declaration a parallel-region function takes the bound copy with.
pub fn par_param(a: &ArrayPrivate) -> String {
    a.ty.decayed().declare(&a.var)
}

/// The private copy of a section for a construct nested in a generic-mode
/// region (`lower/privarray.rs`, `nested_section`): `len` elements on the
/// device heap for the thread that runs the construct, freed at the end of
/// its block, the name bound to it as the original is indexed; a
/// firstprivate copy is filled from the enclosing variable.
pub fn nested(
    lo: &str,
    len: &str,
    p: &crate::ir::generic::PrivVar,
    namer: &mut Namer,
    ind: &str,
) -> String {
    let elem = CType {
        base: p.ty.unqualified_base(),
        derivs: vec![],
    }
    .type_name();
    let guard = namer.fresh(&format!("p2c_vla_{}", p.name));
    let lo_n = namer.fresh(&format!("p2c_lo_{}", p.name));
    let len_n = namer.fresh(&format!("p2c_len_{}", p.name));
    let mut o = String::new();
    let first = p.kind == crate::ir::generic::PrivKind::Firstprivate;
    let _ = writeln!(
        o,
        "{ind}/* {}({}[{lo}:{len}]): this thread's copy on the device heap */",
        if first { "firstprivate" } else { "private" },
        p.name
    );
    let _ = writeln!(
        o,
        "{ind}const long long {lo_n} = {lo}, {len_n} = {len};\n{ind}p2c_vla<{elem}> {guard}((size_t)({len_n} > 0 ? {len_n} : 0));"
    );
    if first {
        let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
        let k = namer.fresh("p2c_k");
        let _ = writeln!(
            o,
            "{ind}auto &{outer} = {};\n{ind}for (long long {k} = 0; {k} < {len_n}; {k}++)\n{ind}    {guard}.data[{k}] = {outer}[{lo_n} + {k}];",
            p.name
        );
    }
    let _ = writeln!(o, "{ind}{elem} *{} = {guard}.data - {lo_n};", p.name);
    o
}
