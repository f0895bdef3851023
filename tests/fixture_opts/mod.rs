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
        if line == LINE_DIRECTIVES {
            o.line_directives = true;
            continue;
        }
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

/// The option that keeps the `#line` directives in a fixture's CUDA golden.
const LINE_DIRECTIVES: &str = "--line-directives";

/// The options of fixture `p` for its goldens: as [`options`], but without
/// `#line` directives unless `X.opts` has a `--line-directives` line (the
/// harness compiles every fixture with them, the default), and then with the
/// prelude included rather than embedded.
#[allow(dead_code)]
pub fn golden_options(p: &Path, emit: Emit) -> Result<Options, String> {
    let mut o = options(p, emit)?;
    o.line_directives = fs::read_to_string(p.with_extension("opts")).is_ok_and(|t| {
        t.lines()
            .any(|l| l.split('#').next().unwrap_or("").trim() == LINE_DIRECTIVES)
    });
    // A golden does not depend on where it is written, nor (with `#line`
    // numbering the output's own lines) on the prelude's length: the
    // prelude is included, not embedded, in those goldens.
    o.output_name = Some("out.cu".to_string());
    if o.line_directives {
        o.prelude = pragma2cuda::emit::prelude::Mode::Include;
    }
    Ok(o)
}
