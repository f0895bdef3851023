//! The CUDA text in `templates/`, embedded at build time.

/// Device primitives and reduction trees.
pub const DEVICE_PRELUDE: &str = include_str!("../../templates/p2c_device.cuh");
/// Host data environment, launch checks and reduction scratch.
pub const HOST_PRELUDE: &str = include_str!("../../templates/p2c_host.cuh");
/// The OpenMP / OpenACC runtime routines on the device and the host, and the
/// standard names mapped onto them (replaces `<omp.h>` / `<openacc.h>`).
pub const RUNTIME_PRELUDE: &str = include_str!("../../templates/p2c_runtime.cuh");
/// Spellings that make C valid C++ without touching the user's text.
pub const CXX_COMPAT: &str = include_str!("../../templates/p2c_cxx_compat.cuh");
/// Generic mode: fork/join words, team barriers, the team's frame.
pub const GENERIC_PRELUDE: &str = include_str!("../../templates/p2c_generic.cuh");
/// Atomic constructs: native atomics and compare-and-swap loops.
pub const ATOMIC_PRELUDE: &str = include_str!("../../templates/p2c_atomic.cuh");

/// Every fixed block the emitter may write before the translated source,
/// named, in the order it writes them. The golden tests keep these once
/// (`fixtures/out/prelude.cuh`) and each CUDA golden names the blocks it has.
pub const PRELUDE_BLOCKS: [(&str, &str); 7] = [
    ("p2c_device.cuh", DEVICE_PRELUDE),
    ("p2c_host.cuh", HOST_PRELUDE),
    ("p2c_runtime.cuh", RUNTIME_PRELUDE),
    ("p2c_generic.cuh", GENERIC_PRELUDE),
    ("p2c_atomic.cuh", ATOMIC_PRELUDE),
    ("p2c_cxx_compat.cuh", CXX_COMPAT),
    ("complex", super::complex::COMPLEX_COMPAT),
];
