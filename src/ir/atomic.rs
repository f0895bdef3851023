//! Atomic constructs of a region: the form recognised and the variable's type.

use crate::source::Span;

/// The operator of an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Add,
    Sub,
    Mul,
    Div,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl AtomicOp {
    pub fn from_c(s: &str) -> Option<AtomicOp> {
        Some(match s {
            "+" => AtomicOp::Add,
            "-" => AtomicOp::Sub,
            "*" => AtomicOp::Mul,
            "/" => AtomicOp::Div,
            "&" => AtomicOp::And,
            "|" => AtomicOp::Or,
            "^" => AtomicOp::Xor,
            "<<" => AtomicOp::Shl,
            ">>" => AtomicOp::Shr,
            _ => return None,
        })
    }

    /// The C operator.
    pub fn c(self) -> &'static str {
        match self {
            AtomicOp::Add => "+",
            AtomicOp::Sub => "-",
            AtomicOp::Mul => "*",
            AtomicOp::Div => "/",
            AtomicOp::And => "&",
            AtomicOp::Or => "|",
            AtomicOp::Xor => "^",
            AtomicOp::Shl => "<<",
            AtomicOp::Shr => ">>",
        }
    }

    /// The prelude helper that may use a native atomic.
    pub fn helper(self) -> Option<&'static str> {
        Some(match self {
            AtomicOp::Add => "p2c_atom_add",
            AtomicOp::Sub => "p2c_atom_sub",
            AtomicOp::And => "p2c_atom_and",
            AtomicOp::Or => "p2c_atom_or",
            AtomicOp::Xor => "p2c_atom_xor",
            _ => return None,
        })
    }

    pub fn commutative(self) -> bool {
        matches!(
            self,
            AtomicOp::Add | AtomicOp::Mul | AtomicOp::And | AtomicOp::Or | AtomicOp::Xor
        )
    }
}

/// The second operand of an update.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    Expr(Span),
    /// `x++` / `x--`.
    One,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AtomicKind {
    /// `v = x;`
    Read { v: Span },
    /// `x = e;`, with `{v = x; x = e;}` capturing the old value.
    Write { e: Span, capture: Option<Span> },
    /// `x = x op e` (`reversed`: `x = e op x`), capturing the old
    /// (`new` false) or new value into `capture`.
    Update {
        op: AtomicOp,
        e: Operand,
        reversed: bool,
        capture: Option<(Span, bool)>,
    },
    /// OpenMP 5.1 `atomic compare`: `if (e OP x) { x = e; }` or `if (x OP
    /// e) { x = e; }` with OP `<` / `>` (`x_left`: x is the comparison's
    /// left operand), and `if (x == e) { x = d; }` (`d` set, OP `==`).
    Compare {
        op: &'static str,
        e: Span,
        x_left: bool,
        d: Option<Span>,
    },
}

/// One atomic construct, replaced from its pragma to the end of its statement.
#[derive(Clone, Debug)]
pub struct AtomicSite {
    pub pragma: Span,
    pub stmt: Span,
    /// The variable (an lvalue).
    pub x: Span,
    /// Its type as written (a typedef name stays).
    pub ty: String,
    pub kind: AtomicKind,
    /// A memory order stronger than relaxed: fences around the operation.
    pub fence: bool,
    /// The pragma on one line (the comment of the code that replaces it).
    pub pragma_text: String,
}

impl AtomicSite {
    /// What the plan says.
    pub fn describe(&self, text: &str) -> String {
        let what = match &self.kind {
            AtomicKind::Read { .. } => "read: compare-and-swap of 0 by 0".to_string(),
            AtomicKind::Write { capture, .. } => format!(
                "write{}: atomic exchange",
                if capture.is_some() { " (capture)" } else { "" }
            ),
            AtomicKind::Update { op, capture, .. } => format!(
                "update `{}`{}: {}",
                op.c(),
                if capture.is_some() { " (capture)" } else { "" },
                if op.helper().is_some() {
                    "native atomic when C's arithmetic stays in the type, else compare-and-swap loop"
                } else {
                    "compare-and-swap loop"
                }
            ),
            AtomicKind::Compare { .. } => String::new(),
        };
        let what = match &self.kind {
            AtomicKind::Compare { op, .. } => format!(
                "compare `{op}`: compare-and-swap loop storing the new value only when the comparison holds"
            ),
            _ => what,
        };
        format!(
            "atomic on `{}` ({}): {what}",
            text.get(self.x.start..self.x.end).unwrap_or(""),
            self.ty
        )
    }
}
