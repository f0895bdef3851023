//! `--prelude=include`: the prelude as one header, `pragma2cuda_prelude.cuh`
//! (`pragma2cuda --print-prelude` writes it), and the lines a translation
//! writes in its place. The header defines `P2C_PRELUDE_ID`, a hash of its
//! text; the translation checks it at compile time, so a header printed by
//! another version of pragma2cuda is an `#error`, not a miscompilation.

use super::templates;

/// Whether a translation embeds the prelude or includes the header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Embed,
    Include,
}

/// The header's file name, as the translation includes it.
pub const HEADER_NAME: &str = "pragma2cuda_prelude.cuh";

/// The parts of the prelude every translation may use, in the order a
/// translation embeds them (the generic and atomic parts are embedded only
/// where used; the header holds them all).
fn parts() -> [&'static str; 6] {
    [
        templates::DEVICE_PRELUDE,
        templates::HOST_PRELUDE,
        templates::RUNTIME_PRELUDE,
        templates::GENERIC_PRELUDE,
        templates::ATOMIC_PRELUDE,
        templates::CXX_COMPAT,
    ]
}

/// FNV-1a (32 bits) of the prelude's parts and the version: a number the
/// preprocessor can compare.
pub fn id() -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    let version = env!("CARGO_PKG_VERSION");
    for part in parts().iter().chain(std::iter::once(&version)) {
        for b in part.bytes() {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
    }
    h
}

/// The text of `pragma2cuda_prelude.cuh`.
pub fn header() -> String {
    let mut out = format!(
        "/* pragma2cuda_prelude.cuh: the prelude of pragma2cuda {} (--prelude=include).\n * Written by `pragma2cuda --print-prelude`. Do not edit: print it again after\n * updating pragma2cuda (translations check P2C_PRELUDE_ID when compiled). */\n#ifndef P2C_PRELUDE_ID\n#define P2C_PRELUDE_ID {}u\n",
        env!("CARGO_PKG_VERSION"),
        id()
    );
    for p in parts() {
        out.push_str(p);
    }
    out.push_str("#endif /* P2C_PRELUDE_ID */\n");
    out
}

/// What a translation writes in place of the embedded prelude.
pub fn include_lines() -> String {
    format!(
        "#include \"{HEADER_NAME}\"\n#if !defined(P2C_PRELUDE_ID) || P2C_PRELUDE_ID != {}u\n#error \"{HEADER_NAME} is not the one this file was translated with (pragma2cuda {}): write it again with pragma2cuda --print-prelude\"\n#endif\n",
        id(),
        env!("CARGO_PKG_VERSION")
    )
}
