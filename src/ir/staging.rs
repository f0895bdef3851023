//! The team's frame: where staged variables of generic mode live.

/// One variable to place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub size: u64,
    pub align: u64,
    /// Byte offsets in the source of the variable's lifetime, `[start, end)`.
    pub live: (usize, usize),
}

/// A laid-out frame: offsets per candidate (same order as the input),
/// total bytes and the alignment the frame needs.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Frame {
    pub offsets: Vec<u64>,
    pub bytes: u64,
    pub align: u64,
}

/// Where a staged variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Home {
    /// In the team's shared-memory frame at this offset.
    Shared(u64),
    /// In the team's frame of the per-team stack in global memory.
    Global(u64),
}

/// The result of staging: a home per candidate and the two frames (whose
/// `offsets` follow the order of the candidates each holds).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Staging {
    pub homes: Vec<Home>,
    pub shared: Frame,
    pub global: Frame,
}
