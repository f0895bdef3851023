//! A canonical loop nest as semantic analysis reads it (`sema::loops`).

use super::CType;
use crate::source::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestOp {
    Lt,
    Le,
    Gt,
    Ge,
}

impl TestOp {
    pub fn as_str(self) -> &'static str {
        match self {
            TestOp::Lt => "<",
            TestOp::Le => "<=",
            TestOp::Gt => ">",
            TestOp::Ge => ">=",
        }
    }

    pub fn increasing(self) -> bool {
        matches!(self, TestOp::Lt | TestOp::Le)
    }
}

/// One loop of a canonical nest.
#[derive(Clone, Debug)]
pub struct CanonLoop {
    pub var: String,
    pub var_span: Span,
    /// The type from a declaration in the init clause; `None` when the
    /// variable is declared before the loop (look it up in the symbols).
    pub declared_type: Option<CType>,
    pub lb: String,
    pub ub: String,
    /// The test, normalised to `var OP ub` (`!=` becomes `<` or `>` by the step's sign).
    pub test: TestOp,
    /// The written test operator (for the plan).
    pub written_test: String,
    /// The step's magnitude, as C text (always positive).
    pub step: String,
    /// The step is an integer literal (`step` is then its decimal value).
    pub literal_step: bool,
    pub span: Span,
    pub body: Span,
}
