//! Stage: sema (being written).
