//! Arrays and sections privatized with their elements.

use super::c::CType;
use crate::source::Span;

/// Whose copy a slice of the area is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Per {
    /// One copy per team / gang (CUDA block).
    Team,
    /// One copy per thread of every block.
    Thread,
}

impl Per {
    pub fn as_str(self) -> &'static str {
        match self {
            Per::Team => "per team",
            Per::Thread => "per thread",
        }
    }
}

/// One privatized array or section of a region.
#[derive(Clone, Debug)]
pub struct ArrayPrivate {
    /// The variable's name (the copy is bound to it in the kernel).
    pub var: String,
    /// Its declared type (an array or a pointer).
    pub ty: CType,
    /// The element type, unqualified.
    pub elem: CType,
    /// Initialised from the original (`firstprivate`).
    pub first: bool,
    /// Host expressions: the section's first index and its length.
    pub lo: String,
    pub len: String,
    /// The item as written (`c[0:n]`, or the name of a whole array).
    pub text: String,
    pub per: Per,
    pub span: Span,
}

impl ArrayPrivate {
    /// Where `--emit=sharing` and `--emit=plan` say the copies live.
    pub fn home(&self) -> &'static str {
        match (self.per, self.first) {
            (Per::Team, false) => "each team's copy, a slice of a per-launch area (blocks x section)",
            (Per::Team, true) => "each team's copy, a slice of a per-launch area (blocks x section), filled from the original by the team's threads",
            (Per::Thread, false) => "each thread's copy, a slice of a per-launch area (threads x section)",
            (Per::Thread, true) => "each thread's copy, a slice of a per-launch area (threads x section), filled from the original",
        }
    }
}
