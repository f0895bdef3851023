//! Stage: front (being written).
