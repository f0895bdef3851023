//! `omp atomic` and `acc atomic` inside offloaded regions (SPMD loops and
//! generic-mode kernels alike): the statement's form (read, write, update,
//! capture) is recognised on the C tree, the variable's type is found from
//! its declaration, and the emitter spells one call of the prelude's
//! `p2c_atom_*` helpers (templates/p2c_atomic.cuh): native CUDA atomics
//! where they compute what C computes, a compare-and-swap loop otherwise.
//!
//! Lowered: the four forms of OpenMP 5.2 / OpenACC 3.3 for a variable that
//! is a name, an array element or `*p` of a 4- or 8-byte arithmetic type,
//! with the operators `+ - * / & | ^ << >>` (`x++`, `x op= e`, `x = x op e`,
//! `x = e op x`), and the capture forms (`v = x++`, `v = x op= e`,
//! `{v = x; x op= e;}`, `{x op= e; v = x;}`, `{v = x; x = e;}`). Memory-order
//! clauses other than `relaxed` add `__threadfence()` before and after.
//! OpenMP 5.1 `atomic compare` (no `capture`): `if (e < x) { x = e; }`,
//! `>`, x on either side, and `if (x == e) { x = d; }`, as a
//! compare-and-swap loop that stores the new value only when the comparison
//! holds (the old value otherwise, no change).
//! Everything else (`compare capture`, the conditional-expression forms of
//! `compare`, `if`, 1- and 2-byte types, structure members, pointers) is a
//! located E0901.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::front::c::Node;
use crate::front::fields::NodeFields;
use crate::front::CTree;
use crate::ir::atomic::{AtomicKind, AtomicOp, AtomicSite, Operand};
use crate::sema::{arith, symbols, Arith, CType, Deriv};
use crate::source::{SourceFile, Span};

/// Whether a directive is an atomic construct.
pub fn is_atomic(d: &Directive) -> bool {
    d.name == "atomic"
}

fn span_of(n: Node<'_>) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn unparen(mut n: Node<'_>) -> Node<'_> {
    while n.kind_name() == "parenthesized_expression" {
        match n.named_child(0) {
            Some(c) => n = c,
            None => break,
        }
    }
    n
}

fn not_supported(at: Span, msg: impl Into<String>) -> Diagnostic {
    Diagnostic::new(codes::NOT_SUPPORTED, at, msg)
        .with_label("not lowered yet")
        .with_note("lowered: atomic read, write, update and capture of a name, an array element or `*p` of a 4- or 8-byte arithmetic type")
}

/// The operator token of an assignment or update expression.
fn operator_text<'s>(n: Node<'_>, text: &'s str) -> &'s str {
    n.field("operator")
        .and_then(|o| text.get(o.start_byte()..o.end_byte()))
        .unwrap_or("")
}

/// `x op= e`, `x = x op e`, `x = e op x`, `x++`, `++x`, `x--`, `--x`:
/// (x, op, operand, reversed, prefix).
struct Upd<'t> {
    x: Node<'t>,
    op: AtomicOp,
    e: Operand,
    reversed: bool,
    /// `++x` / `--x` / `x op= e` / `x = x op e`: the expression's value is
    /// the new value.
    value_is_new: bool,
}

fn parse_update<'t>(n: Node<'t>, text: &str) -> Option<Upd<'t>> {
    let n = unparen(n);
    match n.kind_name() {
        "update_expression" => {
            let arg = n.field("argument")?;
            let op = match operator_text(n, text) {
                "++" => AtomicOp::Add,
                "--" => AtomicOp::Sub,
                _ => return None,
            };
            let prefix = n.start_byte() < arg.start_byte();
            Some(Upd {
                x: unparen(arg),
                op,
                e: Operand::One,
                reversed: false,
                value_is_new: prefix,
            })
        }
        "assignment_expression" => {
            let left = unparen(n.field("left")?);
            let right = n.field("right")?;
            let o = operator_text(n, text);
            if o == "=" {
                let b = unparen(right);
                if b.kind_name() != "binary_expression" {
                    return None;
                }
                let op = AtomicOp::from_c(operator_text(b, text))?;
                let (bl, br) = (b.field("left")?, b.field("right")?);
                let lx = squash(text.get(left.start_byte()..left.end_byte())?);
                let same = |m: Node<'_>| {
                    let m = unparen(m);
                    text.get(m.start_byte()..m.end_byte())
                        .is_some_and(|t| squash(t) == lx)
                };
                if same(bl) {
                    Some(Upd {
                        x: left,
                        op,
                        e: Operand::Expr(span_of(br)),
                        reversed: false,
                        value_is_new: true,
                    })
                } else if same(br) {
                    Some(Upd {
                        x: left,
                        op,
                        e: Operand::Expr(span_of(bl)),
                        reversed: !op.commutative(),
                        value_is_new: true,
                    })
                } else {
                    None
                }
            } else {
                let op = AtomicOp::from_c(o.strip_suffix('=')?)?;
                Some(Upd {
                    x: left,
                    op,
                    e: Operand::Expr(span_of(right)),
                    reversed: false,
                    value_is_new: true,
                })
            }
        }
        _ => None,
    }
}

/// `a = b` with `=`: (left, right).
fn plain_assign<'t>(n: Node<'t>, text: &str) -> Option<(Node<'t>, Node<'t>)> {
    let n = unparen(n);
    if n.kind_name() != "assignment_expression" || operator_text(n, text) != "=" {
        return None;
    }
    Some((unparen(n.field("left")?), n.field("right")?))
}

/// The expression of an expression statement.
fn expr_of(n: Node<'_>) -> Option<Node<'_>> {
    if n.kind_name() != "expression_statement" {
        return None;
    }
    n.named_child(0)
}

/// The type of an lvalue: a name, `a[i]...`, `*p`, parenthesised.
fn lvalue_type(n: Node<'_>, text: &str, syms: &crate::sema::symbols::Scope) -> Option<CType> {
    let n = unparen(n);
    match n.kind_name() {
        "identifier" => syms
            .get(text.get(n.start_byte()..n.end_byte())?)
            .map(|s| s.ty.clone()),
        "subscript_expression" => {
            let t = lvalue_type(n.field("argument")?, text, syms)?;
            match t.derivs.first() {
                Some(Deriv::Array(_) | Deriv::Pointer { .. }) => Some(t.element()),
                _ => None,
            }
        }
        "pointer_expression" if operator_text(n, text) == "*" => {
            let t = lvalue_type(n.field("argument")?, text, syms)?;
            match t.derivs.first() {
                Some(Deriv::Array(_) | Deriv::Pointer { .. }) => Some(t.element()),
                _ => None,
            }
        }
        _ => None,
    }
}

fn node_at<'t>(tree: &'t CTree, span: Span) -> Option<Node<'t>> {
    let root = tree.root()?;
    let mut n = root.descendant_for_byte_range(span.start, span.end)?;
    while let Some(p) = n.parent() {
        if p.start_byte() == span.start && p.end_byte() == span.end {
            n = p;
        } else {
            break;
        }
    }
    Some(n)
}

/// Lowers one atomic construct; every form it cannot lower is a located E0901.
pub fn lower(
    file: &SourceFile,
    tree: &CTree,
    d: &Directive,
    stmt: Option<Span>,
    default_order: Option<&str>,
    diags: &mut Vec<Diagnostic>,
) -> Option<AtomicSite> {
    let text = &file.text;
    let mut form = "update";
    let mut compare = false;
    // `omp requires atomic_default_mem_order(...)` orders the OpenMP
    // atomics that name no order; an explicit clause overrides it.
    let mut fence =
        d.model == crate::directives::Model::Omp && default_order.is_some_and(|o| o != "relaxed");
    for c in &d.clauses {
        match c.name.as_str() {
            "read" | "write" | "update" | "capture" => form = leak(&c.name),
            "seq_cst" | "acq_rel" | "acquire" | "release" => fence = true,
            "relaxed" => fence = false,
            "hint" => {}
            "compare" if d.model == crate::directives::Model::Omp => compare = true,
            _ => {
                diags.push(not_supported(
                    c.name_span,
                    format!(
                        "clause `{}` on `{} atomic` is not supported yet",
                        c.name,
                        d.model.as_str()
                    ),
                ));
                return None;
            }
        }
    }
    let Some(stmt) = stmt else {
        diags.push(not_supported(
            d.span,
            "an atomic construct needs a statement",
        ));
        return None;
    };
    let n = node_at(tree, stmt)?;
    let bad = |diags: &mut Vec<Diagnostic>| {
        diags.push(
            not_supported(
                stmt,
                format!(
                    "this statement is not a form of `{} atomic {}` that pragma2cuda lowers",
                    d.model.as_str(),
                    if compare { "compare" } else { form }
                ),
            )
            .with_secondary(d.span, "atomic construct"),
        );
        None
    };
    let (x, kind) = match form {
        _ if compare && form != "update" => {
            diags.push(not_supported(
                d.span,
                format!("`omp atomic compare {form}` is not supported yet"),
            ));
            return None;
        }
        _ if compare => match compare_form(n, text) {
            Some(r) => r,
            None => return bad(diags),
        },
        "read" => {
            let Some((v, x)) = expr_of(n).and_then(|e| plain_assign(e, text)) else {
                return bad(diags);
            };
            (unparen(x), AtomicKind::Read { v: span_of(v) })
        }
        "write" => {
            let Some((x, e)) = expr_of(n).and_then(|e| plain_assign(e, text)) else {
                return bad(diags);
            };
            (
                x,
                AtomicKind::Write {
                    e: span_of(e),
                    capture: None,
                },
            )
        }
        "update" => {
            let Some(u) = expr_of(n).and_then(|e| parse_update(e, text)) else {
                return bad(diags);
            };
            (
                u.x,
                AtomicKind::Update {
                    op: u.op,
                    e: u.e,
                    reversed: u.reversed,
                    capture: None,
                },
            )
        }
        _ => match capture(n, text) {
            Some(r) => r,
            None => return bad(diags),
        },
    };
    let root = tree.root()?;
    let syms = symbols::visible_at(root, text, n);
    let ty = lvalue_type(x, text, &syms).filter(|t| t.is_scalar());
    let ok = ty.as_ref().and_then(|t| {
        let a = arith::classify(&t.unqualified_base(), &syms)?;
        match a {
            Arith::Int { bytes: 4 | 8, .. } | Arith::Float | Arith::Double => Some(a),
            _ => None,
        }
    });
    let (Some(ty), Some(a)) = (ty, ok) else {
        diags.push(
            not_supported(
                span_of(x),
                "atomic on a variable that is not a 4- or 8-byte arithmetic name, array element or `*p` is not supported yet",
            )
            .with_secondary(d.span, "atomic construct"),
        );
        return None;
    };
    if let AtomicKind::Update { op, .. } = &kind {
        if a.is_floating()
            && matches!(
                op,
                AtomicOp::And | AtomicOp::Or | AtomicOp::Xor | AtomicOp::Shl | AtomicOp::Shr
            )
        {
            return bad(diags);
        }
    }
    Some(AtomicSite {
        pragma: d.span,
        stmt,
        x: span_of(x),
        ty: ty.unqualified_base(),
        kind,
        fence,
        pragma_text: crate::source::pragma_text::pragma_one_line(file.slice(d.span)),
    })
}

/// OpenMP 5.1's conditional update statements (`atomic compare`):
/// `if (e OP x) { x = e; }`, `if (x OP e) { x = e; }` with OP `<` or `>`,
/// and `if (x == e) { x = d; }` (braces optional, no `else`); `e` written
/// the same way twice. Returns x and the kind.
fn compare_form<'t>(n: Node<'t>, text: &str) -> Option<(Node<'t>, AtomicKind)> {
    if n.kind_name() != "if_statement" || n.field("alternative").is_some() {
        return None;
    }
    let cond = unparen(n.field("condition")?);
    if cond.kind_name() != "binary_expression" {
        return None;
    }
    let op = match operator_text(cond, text) {
        "<" => "<",
        ">" => ">",
        "==" => "==",
        _ => return None,
    };
    let mut then = n.field("consequence")?;
    if then.kind_name() == "compound_statement" {
        if then.named_child_count() != 1 {
            return None;
        }
        then = then.named_child(0)?;
    }
    let (x, rhs) = expr_of(then).and_then(|e| plain_assign(e, text))?;
    let t = |n: Node<'_>| squash(text.get(n.start_byte()..n.end_byte()).unwrap_or(""));
    let (l, r) = (unparen(cond.field("left")?), unparen(cond.field("right")?));
    let x_left = if t(l) == t(x) {
        true
    } else if t(r) == t(x) {
        false
    } else {
        return None;
    };
    let e = if x_left { r } else { l };
    if op != "==" && t(e) != t(rhs) {
        return None;
    }
    let d = (op == "==").then(|| span_of(rhs));
    Some((
        x,
        AtomicKind::Compare {
            op,
            e: span_of(e),
            x_left,
            d,
        },
    ))
}

fn leak(s: &str) -> &'static str {
    match s {
        "read" => "read",
        "write" => "write",
        "update" => "update",
        _ => "capture",
    }
}

/// The capture forms.
fn capture<'t>(n: Node<'t>, text: &str) -> Option<(Node<'t>, AtomicKind)> {
    if let Some(e) = expr_of(n) {
        // v = x++ / v = ++x / v = x op= e / v = x = x op e
        let (v, rhs) = plain_assign(e, text)?;
        let u = parse_update(rhs, text)?;
        return Some((
            u.x,
            AtomicKind::Update {
                op: u.op,
                e: u.e,
                reversed: u.reversed,
                capture: Some((span_of(v), u.value_is_new)),
            },
        ));
    }
    if n.kind_name() != "compound_statement" {
        return None;
    }
    let mut cur = n.walk();
    let stmts: Vec<Node<'t>> = n
        .named_children(&mut cur)
        .filter(|c| c.kind_name() != "comment")
        .collect();
    let [s1, s2] = stmts.as_slice() else {
        return None;
    };
    let (e1, e2) = (expr_of(*s1)?, expr_of(*s2)?);
    let t = |m: Node<'_>| squash(text.get(m.start_byte()..m.end_byte()).unwrap_or(""));
    // { v = x; x op= e; } / { v = x; x = e; }
    if let Some((v, x)) = plain_assign(e1, text) {
        let x = unparen(x);
        if let Some(u) = parse_update(e2, text) {
            if t(u.x) == t(x) {
                return Some((
                    u.x,
                    AtomicKind::Update {
                        op: u.op,
                        e: u.e,
                        reversed: u.reversed,
                        capture: Some((span_of(v), false)),
                    },
                ));
            }
        }
        if let Some((x2, e)) = plain_assign(e2, text) {
            if t(x2) == t(x) {
                return Some((
                    x2,
                    AtomicKind::Write {
                        e: span_of(e),
                        capture: Some(span_of(v)),
                    },
                ));
            }
        }
    }
    // { x op= e; v = x; }
    let u = parse_update(e1, text)?;
    let (v, x) = plain_assign(e2, text)?;
    if t(unparen(x)) != t(u.x) {
        return None;
    }
    Some((
        u.x,
        AtomicKind::Update {
            op: u.op,
            e: u.e,
            reversed: u.reversed,
            capture: Some((span_of(v), true)),
        },
    ))
}

#[cfg(test)]
mod tests {
    use crate::driver::{translate, Options};
    use crate::source::SourceFile;

    /// The CUDA of a parallel loop whose body is `body`, or the error codes.
    fn lower(decls: &str, body: &str) -> Result<String, Vec<String>> {
        let src = format!(
            "{decls}\nvoid f(int n) {{\n#pragma omp target teams distribute parallel for map(tofrom: x, v, a)\n    for (int i = 0; i < n; i++) {{\n{body}\n    }}\n}}\n"
        );
        let t = translate(&SourceFile::new("t.c", src), &Options::default());
        match t.output {
            Some(o) if !t.has_errors() => Ok(o),
            _ => Err(t
                .diagnostics
                .iter()
                .map(|d| d.code.as_str().to_string())
                .collect()),
        }
    }

    fn line_of(out: &str) -> String {
        out.lines()
            .find(|l| l.contains("/* #pragma omp atomic"))
            .unwrap_or("")
            .trim()
            .to_string()
    }

    #[test]
    fn update_forms() {
        let d = "int x; int v; int a[4];";
        let o = lower(d, "#pragma omp atomic\n x++;").unwrap();
        assert!(
            line_of(&o).starts_with("{ (void)p2c_atom_add(&(x), 1); }"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic update\n a[i % 4] = a[i % 4] * 3;").unwrap();
        assert!(
            line_of(&o).contains("p2c_atom_apply(&(a[i % 4])"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic\n x = 5 - x;").unwrap();
        assert!(
            line_of(&o).contains("(int)(p2c_atomic_e - p2c_atomic_old)"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic\n x = 5 + x;").unwrap();
        assert!(
            line_of(&o).contains("p2c_atom_add(&(x), p2c_atomic_e)"),
            "{}",
            line_of(&o)
        );
    }

    #[test]
    fn read_write_capture_forms() {
        let d = "double x; double v; double a[4];";
        let o = lower(d, "#pragma omp atomic read\n v = x;").unwrap();
        assert!(line_of(&o).starts_with("v = p2c_atom_read(&(x));"));
        let o = lower(d, "#pragma omp atomic write\n x = i;").unwrap();
        assert!(line_of(&o).starts_with("(void)p2c_atom_write(&(x), (i));"));
        let o = lower(d, "#pragma omp atomic capture\n v = x += 2.0;").unwrap();
        assert!(
            line_of(&o).contains("v = (double)(p2c_atomic_was + p2c_atomic_e);"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic capture\n { v = x; x *= 2.0; }").unwrap();
        assert!(
            line_of(&o).contains("v = p2c_atom_apply("),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic capture\n { x -= 1.0; v = x; }").unwrap();
        assert!(
            line_of(&o).contains("v = (double)(p2c_atomic_was - p2c_atomic_e);"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic capture\n { v = x; x = 7.0; }").unwrap();
        assert!(
            line_of(&o).starts_with("v = p2c_atom_write(&(x), (7.0));"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic capture seq_cst\n v = x++;").unwrap();
        assert!(
            line_of(&o)
                .starts_with("__threadfence(); { v = p2c_atom_add(&(x), 1); } __threadfence();"),
            "{}",
            line_of(&o)
        );
    }

    #[test]
    fn parenthesised_variable_is_the_variable() {
        let d = "int x; int v; int a[4];";
        let o = lower(
            d,
            "#pragma omp atomic capture\n { v = a[i % 4]; (a[i % 4])--; }",
        )
        .unwrap();
        assert!(
            line_of(&o).starts_with("{ v = p2c_atom_sub(&(a[i % 4]), 1); }"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic capture\n { (x)--; v = x; }").unwrap();
        assert!(
            line_of(&o).contains("p2c_atom_sub(&(x), 1); v = (int)(p2c_atomic_was - 1);"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic\n (x) = (x) + 3;").unwrap();
        assert!(line_of(&o).contains("p2c_atom_add(&(x)"), "{}", line_of(&o));
        let o = lower(d, "#pragma omp atomic read\n v = (x);").unwrap();
        assert!(line_of(&o).starts_with("v = p2c_atom_read(&(x));"));
        // Different variables stay refused.
        assert!(lower(d, "#pragma omp atomic capture\n { v = a[0]; (a[1])--; }").is_err());
    }

    #[test]
    fn requires_sets_the_default_memory_order() {
        let d = "#pragma omp requires atomic_default_mem_order(seq_cst)\nint x, v, a[4];";
        let o = lower(d, "#pragma omp atomic\n x++;").unwrap();
        assert!(
            line_of(&o).starts_with("__threadfence();"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic relaxed\n x++;").unwrap();
        assert!(!line_of(&o).contains("__threadfence"), "{}", line_of(&o));
        let d = "#pragma omp requires atomic_default_mem_order(relaxed)\nint x, v, a[4];";
        let o = lower(d, "#pragma omp atomic\n x++;").unwrap();
        assert!(!line_of(&o).contains("__threadfence"), "{}", line_of(&o));
    }

    #[test]
    fn compare_forms() {
        let d = "int x; int v; int a[4];";
        let o = lower(
            d,
            "#pragma omp atomic compare\n if (a[i % 4] > x) { x = a[i % 4]; }",
        )
        .unwrap();
        assert!(
            line_of(&o).contains(
                "return (int)((p2c_atomic_e > p2c_atomic_old) ? p2c_atomic_e : p2c_atomic_old)"
            ),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic compare\n if (x < v) x = v;").unwrap();
        assert!(
            line_of(&o).contains("(p2c_atomic_old < p2c_atomic_e)"),
            "{}",
            line_of(&o)
        );
        let o = lower(d, "#pragma omp atomic compare\n if (x == 3) { x = v; }").unwrap();
        assert!(
            line_of(&o)
                .contains("(p2c_atomic_old == p2c_atomic_e) ? p2c_atomic_d : p2c_atomic_old"),
            "{}",
            line_of(&o)
        );
        // Different expressions in the test and the assignment.
        let e = lower(d, "#pragma omp atomic compare\n if (x < v) x = v + 1;").unwrap_err();
        assert_eq!(e, vec!["E0901"]);
        let e = lower(
            d,
            "#pragma omp atomic compare\n if (x < v) x = v; else x = 0;",
        )
        .unwrap_err();
        assert_eq!(e, vec!["E0901"]);
    }

    #[test]
    fn unsupported_forms_are_located_e0901() {
        let e = lower("short x; int v; int a[4];", "#pragma omp atomic\n x += 1;").unwrap_err();
        assert_eq!(e, vec!["E0901"]);
        let e = lower(
            "double x; int v; int a[4];",
            "#pragma omp atomic\n x = x & 1;",
        )
        .unwrap_err();
        assert_eq!(e, vec!["E0901"]);
        let e = lower(
            "int x; int v; int a[4];",
            "#pragma omp atomic update\n x = v + 1;",
        )
        .unwrap_err();
        assert_eq!(e, vec!["E0901"]);
        let e = lower(
            "int x; int v; int a[4];",
            "#pragma omp atomic capture\n { v = x; a[0] += 1; }",
        )
        .unwrap_err();
        assert_eq!(e, vec!["E0901"]);
    }
}
