//! `pragma2cuda suite` (being written).
