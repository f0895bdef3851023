//! `declare target` / `acc declare` / `acc routine`: device functions and
//! variables with a device copy.

use super::c::CType;
use crate::source::Span;

/// A function compiled for the device.
#[derive(Clone, Debug)]
pub struct DeviceFn {
    pub name: String,
    /// `__host__ __device__`, or `__device__` for nohost.
    pub spec: &'static str,
    pub rule: String,
    /// Where the specifier goes: the start of each top-level declaration of
    /// the function and of its definition.
    pub decl_starts: Vec<usize>,
    /// Free uses of device variables in the definition's body, rewritten to
    /// the mirror on the device: (variable, span).
    pub var_uses: Vec<(String, Span)>,
    /// The definition's body (`{ ... }`), when this file defines it.
    pub body: Option<Span>,
}

/// A file-scope variable with a device copy.
#[derive(Clone, Debug)]
pub struct DeviceVar {
    pub name: String,
    pub ty: CType,
    pub is_static: bool,
    /// The initializer as written, if any (the mirror starts with the same value).
    pub init: Option<String>,
    /// End of the defining declaration: the mirror is declared after it.
    pub after: usize,
    pub rule: String,
    /// `declare target link`: the mirror is not present by itself; a map
    /// clause that maps the variable uses it as the device copy (copies in
    /// and back, reference counts as for any mapping) instead of allocating.
    pub link: bool,
}

/// Everything declared for the device in one file.
#[derive(Clone, Debug, Default)]
pub struct DeclarePlan {
    pub fns: Vec<DeviceFn>,
    pub vars: Vec<DeviceVar>,
    /// Declarative pragmas: their effect is in `fns` and `vars`; the output
    /// keeps them as comments. (span, pragma on one line)
    pub pragmas: Vec<(Span, String)>,
    /// Pragmas replaced by other text: assumption directives (`assume`,
    /// `assumes`, `begin`/`end assumes`) kept as comments, metadirectives
    /// resolved to host code. (pragma, its replacement)
    pub rewrites: Vec<(Span, String)>,
    pub notes: Vec<String>,
    /// Parallel constructs in the device functions (`lower::orphan`).
    pub orphans: super::orphan::OrphanPlan,
}
