//! Canonical loop nests (OpenMP 5.2 section 4.4.1, OpenACC 3.3 loop rules).
//!
//! A loop is accepted when it has the form
//! `for (init; var relop ub; incr)` with `init` one of `T var = lb` /
//! `var = lb`, `relop` one of `< <= > >= !=` (either operand order), and
//! `incr` one of `var++ ++var var-- --var var += s var -= s var = var + s
//! var = s + var var = var - s`. Anything else is diagnosed (E0301) with a
//! label on the part that is not canonical.

use super::ctype::{declarator, specifiers_and_declarators, CType};
use crate::diag::{codes, Diagnostic};
use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::source::Span;

pub use crate::ir::c::{CanonLoop, TestOp};

fn t<'a>(text: &'a str, n: Node<'_>) -> &'a str {
    text.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

fn span(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn strip_parens<'t>(mut n: Node<'t>) -> Node<'t> {
    while n.kind_name() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

fn not_canonical(at: Span, what: &str, help: &str) -> Diagnostic {
    Diagnostic::new(
        codes::LOOP_NOT_CANONICAL,
        at,
        format!("loop is not in canonical form: {what}"),
    )
    .with_label(what.to_string())
    .with_help(help.to_string())
}

/// An integer literal's value, if `s` is one (with an optional sign).
pub fn int_literal(s: &str) -> Option<i128> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim()),
        None => (false, s.strip_prefix('+').unwrap_or(s).trim()),
    };
    let body = body.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i128::from_str_radix(h, 16).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Analyses one `for_statement` node.
pub fn analyse(for_node: Node<'_>, text: &str) -> Result<CanonLoop, Diagnostic> {
    let whole = span(for_node);
    if for_node.kind_name() != "for_statement" {
        return Err(Diagnostic::new(
            codes::NO_ASSOCIATED_LOOP,
            whole,
            "a loop directive must be followed by a `for` loop",
        )
        .with_label("this is not a for loop"));
    }
    let body_node = for_node.field("body");
    let head_end = body_node.map(|b| b.start_byte()).unwrap_or(whole.end);
    let head = Span::new(whole.start, head_end);
    // init
    let init = for_node.field("initializer").ok_or_else(|| {
        not_canonical(
            head,
            "the loop has no initializer",
            "write `for (int i = lb; i < ub; i++)`",
        )
    })?;
    let (var, var_span, declared_type, lb) = match init.kind_name() {
        "declaration" => {
            // The specifiers and the declarators in one walk.
            let mut decls: Vec<Node<'_>> = Vec::new();
            let (base, ..) = specifiers_and_declarators(init, text, Some(&mut decls));
            if decls.len() != 1 || decls[0].kind_name() != "init_declarator" {
                return Err(not_canonical(
                    span(init),
                    "the initializer must declare one variable with a value",
                    "write `int i = lb`",
                ));
            }
            let d = decls[0];
            let (name, nspan, derivs) = declarator(d, text).ok_or_else(|| {
                not_canonical(
                    span(init),
                    "cannot read the loop variable",
                    "write `int i = lb`",
                )
            })?;
            if !derivs.is_empty() {
                return Err(not_canonical(
                    span(init),
                    "the loop variable must be an integer",
                    "pointer loop variables are not supported yet",
                ));
            }
            let value = d
                .field("value")
                .map(|v| t(text, v).to_string())
                .unwrap_or_default();
            (name, nspan, Some(CType { base, derivs }), value)
        }
        "assignment_expression" => {
            let left = init.field("left").map(strip_parens);
            let op = init.field("operator").map(|o| t(text, o)).unwrap_or("");
            match left {
                Some(l) if l.kind_name() == "identifier" && op == "=" => {
                    let value = init
                        .field("right")
                        .map(|v| t(text, v).to_string())
                        .unwrap_or_default();
                    (t(text, l).to_string(), span(l), None, value)
                }
                _ => {
                    return Err(not_canonical(
                        span(init),
                        "the initializer must be `var = lb`",
                        "write `i = lb`",
                    ))
                }
            }
        }
        _ => {
            return Err(not_canonical(
                span(init),
                "the initializer must be `var = lb` or a declaration",
                "write `int i = lb`",
            ))
        }
    };
    // test
    let cond = for_node.field("condition").ok_or_else(|| {
        not_canonical(head, "the loop has no test", "write a test such as `i < n`")
    })?;
    let cond = strip_parens(cond);
    let bad_test = || {
        not_canonical(
            span(cond),
            "the test must compare the loop variable with `<`, `<=`, `>`, `>=` or `!=`",
            "write `i < n`",
        )
    };
    if cond.kind_name() != "binary_expression" {
        return Err(bad_test());
    }
    let (l, r) = match (cond.field("left"), cond.field("right")) {
        (Some(l), Some(r)) => (strip_parens(l), strip_parens(r)),
        _ => return Err(bad_test()),
    };
    let op = cond.field("operator").map(|o| t(text, o)).unwrap_or("");
    let (ub, op, swapped) = if l.kind_name() == "identifier" && t(text, l) == var {
        (t(text, r).to_string(), op, false)
    } else if r.kind_name() == "identifier" && t(text, r) == var {
        (t(text, l).to_string(), op, true)
    } else {
        return Err(bad_test());
    };
    let Some(op) = test_op(op, swapped) else {
        return Err(bad_test());
    };
    // increment
    let upd = for_node.field("update").ok_or_else(|| {
        not_canonical(
            head,
            "the loop has no increment",
            "write `i++` or `i += step`",
        )
    })?;
    let bad_incr = || {
        not_canonical(
            span(upd),
            "the increment must be `var++`, `var--`, `var += s`, `var -= s` or `var = var + s`",
            "write `i++` or `i += step`",
        )
    };
    let is_var = |n: Node<'_>| n.kind_name() == "identifier" && t(text, n) == var;
    // (step text, sign: +1 / -1)
    let (step, sign): (String, i32) = match upd.kind_name() {
        "update_expression" => {
            let arg = upd.field("argument").map(strip_parens);
            let o = upd.field("operator").map(|o| t(text, o)).unwrap_or("");
            match arg {
                Some(a) if is_var(a) => ("1".into(), if o == "++" { 1 } else { -1 }),
                _ => return Err(bad_incr()),
            }
        }
        "assignment_expression" => {
            let left = upd.field("left").map(strip_parens);
            let right = upd.field("right").map(strip_parens);
            let o = upd.field("operator").map(|o| t(text, o)).unwrap_or("");
            match (left, right, o) {
                (Some(l), Some(r), "+=") if is_var(l) => (t(text, r).to_string(), 1),
                (Some(l), Some(r), "-=") if is_var(l) => (t(text, r).to_string(), -1),
                (Some(l), Some(r), "=") if is_var(l) && r.kind_name() == "binary_expression" => {
                    let (a, b) = match (r.field("left"), r.field("right")) {
                        (Some(a), Some(b)) => (strip_parens(a), strip_parens(b)),
                        _ => return Err(bad_incr()),
                    };
                    let bo = r.field("operator").map(|o| t(text, o)).unwrap_or("");
                    match bo {
                        "+" if is_var(a) => (t(text, b).to_string(), 1),
                        "+" if is_var(b) => (t(text, a).to_string(), 1),
                        "-" if is_var(a) => (t(text, b).to_string(), -1),
                        _ => return Err(bad_incr()),
                    }
                }
                _ => return Err(bad_incr()),
            }
        }
        _ => return Err(bad_incr()),
    };
    // Fold a literal step's sign into the direction; the step text becomes its magnitude.
    let (step, sign, literal_step) = match int_literal(&step) {
        Some(0) => {
            return Err(not_canonical(
                span(upd),
                "the step is zero",
                "the loop would not terminate",
            ))
        }
        Some(v) => (
            (v.abs()).to_string(),
            if v < 0 { -sign } else { sign },
            true,
        ),
        None => (step, sign, false),
    };
    let test = match op {
        Some(o) => o,
        None if sign > 0 => TestOp::Lt,
        None => TestOp::Gt,
    };
    if (test.increasing() && sign < 0) || (!test.increasing() && sign > 0) {
        return Err(not_canonical(
            span(upd),
            "the increment moves the loop variable away from its bound",
            "make the step's direction match the test (`<`/`<=` with an increasing step, `>`/`>=` with a decreasing one)",
        ));
    }
    let written_test = op.map(|o| o.as_str()).unwrap_or("!=").to_string();
    let body = body_node.map(span).unwrap_or(whole);
    Ok(CanonLoop {
        var,
        var_span,
        declared_type,
        lb,
        ub,
        test,
        written_test,
        step,
        literal_step,
        span: whole,
        body,
    })
}

/// Whether [`analyse`] accepts `for_node`, read without building the loop
/// (no strings, no type): validation asks only this. `false` may also mean
/// "not sure" (a declaration with a comma in it); callers then run
/// [`analyse`] for the diagnostic.
pub fn is_canonical(for_node: Node<'_>, text: &str) -> bool {
    is_canonical_opt(for_node, text).unwrap_or(false)
}

fn is_canonical_opt(for_node: Node<'_>, text: &str) -> Option<bool> {
    if for_node.kind_name() != "for_statement" {
        return Some(false);
    }
    let init = for_node.field("initializer")?;
    let var = match init.kind_name() {
        "declaration" => {
            // One declarator unless the text has a comma (then let `analyse`
            // count them).
            if t(text, init).contains(',') {
                return Some(false);
            }
            let d = init.field("declarator")?;
            if d.kind_name() != "init_declarator" {
                return Some(false);
            }
            // `declarator` of an init declarator: no derivations means the
            // inner declarator is the identifier itself.
            let inner = d.field("declarator").or_else(|| d.named_child(0))?;
            if inner.kind_name() != "identifier" {
                return Some(false);
            }
            t(text, inner)
        }
        "assignment_expression" => {
            let l = strip_parens(init.field("left")?);
            let op = init.field("operator").map(|o| t(text, o)).unwrap_or("");
            if l.kind_name() != "identifier" || op != "=" {
                return Some(false);
            }
            t(text, l)
        }
        _ => return Some(false),
    };
    let cond = strip_parens(for_node.field("condition")?);
    if cond.kind_name() != "binary_expression" {
        return Some(false);
    }
    let l = strip_parens(cond.field("left")?);
    let r = strip_parens(cond.field("right")?);
    let op = cond.field("operator").map(|o| t(text, o)).unwrap_or("");
    let is_var = |n: Node<'_>| n.kind_name() == "identifier" && t(text, n) == var;
    let swapped = if is_var(l) {
        false
    } else if is_var(r) {
        true
    } else {
        return Some(false);
    };
    let Some(op) = test_op(op, swapped) else {
        return Some(false);
    };
    let upd = for_node.field("update")?;
    let (step, sign): (&str, i32) = match upd.kind_name() {
        "update_expression" => {
            let a = strip_parens(upd.field("argument")?);
            let o = upd.field("operator").map(|o| t(text, o)).unwrap_or("");
            if !is_var(a) {
                return Some(false);
            }
            ("1", if o == "++" { 1 } else { -1 })
        }
        "assignment_expression" => {
            let l = strip_parens(upd.field("left")?);
            let r = strip_parens(upd.field("right")?);
            let o = upd.field("operator").map(|o| t(text, o)).unwrap_or("");
            if !is_var(l) {
                return Some(false);
            }
            match o {
                "+=" => (t(text, r), 1),
                "-=" => (t(text, r), -1),
                "=" if r.kind_name() == "binary_expression" => {
                    let a = strip_parens(r.field("left")?);
                    let b = strip_parens(r.field("right")?);
                    let bo = r.field("operator").map(|o| t(text, o)).unwrap_or("");
                    match bo {
                        "+" if is_var(a) => (t(text, b), 1),
                        "+" if is_var(b) => (t(text, a), 1),
                        "-" if is_var(a) => (t(text, b), -1),
                        _ => return Some(false),
                    }
                }
                _ => return Some(false),
            }
        }
        _ => return Some(false),
    };
    let sign = match int_literal(step) {
        Some(0) => return Some(false),
        Some(v) if v < 0 => -sign,
        _ => sign,
    };
    let test = match op {
        Some(o) => o,
        None if sign > 0 => TestOp::Lt,
        None => TestOp::Gt,
    };
    Some(!((test.increasing() && sign < 0) || (!test.increasing() && sign > 0)))
}

/// Whether [`nest`] returns the loops (no diagnostic) for `depth` loops at
/// `stmt`; `false` may also mean "not sure" (see [`is_canonical`]).
pub fn nest_is_canonical(stmt: Node<'_>, text: &str, depth: usize) -> bool {
    let mut node = stmt;
    for level in 0..depth {
        if !is_canonical(node, text) {
            return false;
        }
        if level + 1 < depth {
            match nested_loop(node) {
                Some(inner) => node = inner,
                None => return false,
            }
        }
    }
    true
}

/// The loop perfectly nested in `for_node`'s body, if any: the body is a
/// `for`, or a block holding exactly one statement that is a `for`.
pub fn nested_loop<'t>(for_node: Node<'t>) -> Option<Node<'t>> {
    let body = for_node.field("body")?;
    match body.kind_name() {
        "for_statement" => Some(body),
        "compound_statement" => {
            let mut c = body.walk();
            let stmts: Vec<Node<'t>> = body
                .named_children(&mut c)
                .filter(|n| n.kind_name() != "comment")
                .collect();
            if stmts.len() == 1 && stmts[0].kind_name() == "for_statement" {
                Some(stmts[0])
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The `depth` perfectly nested canonical loops starting at `stmt` (the
/// statement after a loop directive). When the nest is too shallow, the
/// message starts with `what` (`collapse(2)`) and a secondary label
/// `label` goes on `asked` (the clause that asked for the depth).
pub fn nest(
    stmt: Node<'_>,
    text: &str,
    depth: usize,
    what: &str,
    asked: Span,
    label: &str,
) -> Result<Vec<CanonLoop>, Diagnostic> {
    let mut out: Vec<CanonLoop> = Vec::new();
    let mut node = stmt;
    for level in 0..depth {
        match analyse(node, text) {
            Ok(l) => out.push(l),
            Err(e) if level > 0 && e.code == codes::NO_ASSOCIATED_LOOP => {
                return Err(Diagnostic::new(
                    codes::NO_ASSOCIATED_LOOP,
                    span(node),
                    format!("{what} needs {depth} perfectly nested loops; found {level}"),
                )
                .with_label("not a perfectly nested for loop")
                .with_secondary(asked, label.to_string()));
            }
            Err(e) => return Err(e),
        }
        if level + 1 < depth {
            match nested_loop(node) {
                Some(inner) => node = inner,
                None => {
                    let body = out.last().map(|l| l.body).unwrap_or(span(stmt));
                    return Err(Diagnostic::new(
                        codes::NO_ASSOCIATED_LOOP,
                        body,
                        format!(
                            "{what} needs {depth} perfectly nested loops; found {}",
                            level + 1
                        ),
                    )
                    .with_label("this body is not a single for loop")
                    .with_secondary(asked, label.to_string()));
                }
            }
        }
    }
    Ok(out)
}

/// The relational operator of a loop test, read with the loop variable on
/// the left (`swapped`: it was on the right). `Some(None)` is `!=`; `None`
/// is an operator a canonical loop cannot have.
fn test_op(op: &str, swapped: bool) -> Option<Option<TestOp>> {
    Some(match (op, swapped) {
        ("<", false) | (">", true) => Some(TestOp::Lt),
        ("<=", false) | (">=", true) => Some(TestOp::Le),
        (">", false) | ("<", true) => Some(TestOp::Gt),
        (">=", false) | ("<=", true) => Some(TestOp::Ge),
        ("!=", _) => None,
        _ => return None,
    })
}
