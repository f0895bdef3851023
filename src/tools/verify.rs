//! `pragma2cuda verify` (being written).
