//! Stage: emit (being written).
