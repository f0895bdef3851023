//! The options of a fixture: `fixtures/in/X.opts` beside `X.c` (see
//! fixtures/README.md). Shared by tests/golden.rs and tests/harness.rs, so a
//! fixture's golden and its compiled, run translation use the same options.

use pragma2cuda::{Emit, Options};
use std::fs;
use std::path::Path;

/// The options of fixture `p` (`X.opts` beside `X.c`, see the module doc).
pub fn options(p: &Path, emit: Emit) -> Result<Options, String> {
    let mut o = Options {
        emit,
        ..Default::default()
    };
    let Ok(text) = fs::read_to_string(p.with_extension("opts")) else {
        return Ok(o);
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || {
            format!(
                "{}: unknown option `{line}`",
                p.with_extension("opts").display()
            )
        };
        let (flag, value) = line.split_once('=').ok_or_else(bad)?;
        match flag {
            "--reduction-strategy" => {
                o.reduction_strategy =
                    pragma2cuda::ir::reduction::Strategy::parse(value).ok_or_else(bad)?
            }
            "--shared-budget" => o.shared_budget = value.parse().map_err(|_| bad())?,
            _ => return Err(bad()),
        }
    }
    Ok(o)
}
