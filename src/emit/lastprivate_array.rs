//! `lastprivate` of a whole array of constant extents on an SPMD loop
//! construct (see `sema::lastprivate_array` for what is lowered and why a
//! local array per thread): the kernel's parameter (the device copy, which
//! the host maps tofrom like a mapped array so that a loop with no
//! iterations leaves the original unchanged), each thread's copy, and the
//! last iteration's thread copying all of it back after the loop.

use crate::ir::c::CType;

/// The array's type with its qualifiers dropped (a copy the thread writes).
fn own_type(ty: &CType) -> CType {
    CType {
        base: ty.unqualified_base(),
        derivs: ty.derivs.clone(),
    }
}

/// The kernel parameter: a pointer to the device copy's first element.
pub fn param(ty: &CType, dev: &str) -> String {
    own_type(ty).decayed().declare(dev)
}

/// The kernel prologue: this thread's copy.
pub fn local(ty: &CType, name: &str) -> String {
    format!(
        "    {}; /* lastprivate: this thread's copy of the array */\n",
        own_type(ty).declare(name)
    )
}

/// After the loop: the thread that ran the last iteration copies its array
/// into the device copy, in words of its alignment (`p2c_copy_words`, not
/// unrolled; ptxas, sm_90: `omp_lastprivate_array`'s main_L54 32 -> 22
/// registers with a byte loop, clang-19 22; `memcpy` unrolled).
pub fn store(last: &str, dev: &str, name: &str) -> String {
    format!(
        "    if ({last}) /* lastprivate: this thread ran the last iteration; the whole array */\n        p2c_copy_words<__alignof__({name})>({dev}, {name}, sizeof {name});\n"
    )
}

/// The host: the whole array mapped tofrom (declaration of `dev` and its
/// unmap call).
pub fn host_map(ty: &CType, name: &str, dev: &str, w: &str, ind: &str) -> (String, String) {
    let len = format!("(long long)(sizeof({name}) / sizeof({name}[0]))");
    (
        format!(
            "{ind}{} = p2c_map_section({name}, 0, {len}, P2C_MAP_TOFROM, {w}, \"{name}\"); /* lastprivate */\n",
            param(ty, dev)
        ),
        format!("p2c_unmap_section({name}, 0, {len}, P2C_MAP_TOFROM, {w}, \"{name}\");"),
    )
}
