//! Byte ranges into the original input.

use serde::Serialize;

/// A half-open byte range `[start, end)` into the original source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(&self) -> bool {
        self.end <= self.start
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Whether the whole span lies inside `outer` (ends included).
    pub fn within(self, outer: Span) -> bool {
        outer.start <= self.start && self.end <= outer.end
    }

    pub fn contains(&self, offset: usize) -> bool {
        self.start <= offset && offset < self.end
    }

    /// Shifts a span that is relative to some sub-text to file offsets.
    pub fn offset(self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }
}
