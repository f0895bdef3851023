//! Stage: lower (being written).
