//! `pragma2cuda suite` (being written).
use crate::cli::SuiteArgs;
pub fn main(_a: &SuiteArgs) -> i32 { 2 }
