//! Canonical pragma text for a parsed directive.
//!
//! `print` writes `omp target teams map(tofrom: a[0:n])`: one space between
//! words and clauses, `, ` between list entries, `: ` after modifiers.
//! Parsing the printed text gives back the same directive (spans aside);
//! tests check that on generated directives. Used by `--emit=directives` and
//! by lowering when it leaves a host pragma in the output.

use super::ast::{Arg, Clause, ClauseArgs, Directive, ListItem, Model};
use super::table::{self, Shape};

/// The directive as canonical pragma text, without `#pragma`.
pub fn print(d: &Directive) -> String {
    let mut s = format!("{} {}", d.model.as_str(), d.name);
    if let Some(a) = &d.arg {
        let shape = table::directive_arg(d.model, &d.name)
            .map(|(s, _)| s)
            .unwrap_or(Shape::Raw);
        s.push('(');
        s.push_str(&args_text(d.model, shape, &a.args));
        s.push(')');
    }
    for (k, c) in d.clauses.iter().enumerate() {
        // `parallel for, simd` (the clause `simd`) must not read back as the
        // directive `parallel for simd`: the parser takes the longest name.
        if k == 0 && d.arg.is_none() && extends_name(d.model, &d.name, &c.name) {
            s.push(',');
        }
        s.push(' ');
        s.push_str(&clause_text(d.model, &d.name, c));
    }
    s
}

/// Whether `directive clause` begins a longer directive name.
fn extends_name(model: Model, directive: &str, clause: &str) -> bool {
    let longer = format!("{directive} {clause}");
    table::directives(model)
        .iter()
        .any(|n| *n == longer || n.starts_with(&format!("{longer} ")))
}

/// One clause as canonical text: `map(always, tofrom: a[0:n])`.
pub(crate) fn clause_text(model: Model, directive: &str, c: &Clause) -> String {
    if c.args == ClauseArgs::None {
        return c.name.clone();
    }
    let shape = table::clause_shape(model, directive, &c.name).unwrap_or(Shape::Raw);
    format!("{}({})", c.name, args_text(model, shape, &c.args))
}

/// A list item as written canonically: `s.b[0:n][i]`.
pub fn item_text(it: &ListItem) -> String {
    let mut s = format!("{}{}", it.name, it.path);
    for sec in &it.sections {
        let t = |e: &Option<super::ExprText>| {
            e.as_ref()
                .map(|e| e.text.as_str())
                .unwrap_or("")
                .to_string()
        };
        if sec.is_index {
            s.push_str(&format!("[{}]", t(&sec.lower)));
        } else if sec.stride.is_some() {
            s.push_str(&format!(
                "[{}:{}:{}]",
                t(&sec.lower),
                t(&sec.length),
                t(&sec.stride)
            ));
        } else {
            s.push_str(&format!("[{}:{}]", t(&sec.lower), t(&sec.length)));
        }
    }
    s
}

fn arg_text(a: &Arg) -> String {
    match &a.name {
        Some(n) if a.value.text.is_empty() => format!("{}:", n.text),
        Some(n) => format!("{}: {}", n.text, a.value.text),
        None => a.value.text.clone(),
    }
}

fn join_args(args: &[Arg], sep: &str) -> String {
    args.iter().map(arg_text).collect::<Vec<_>>().join(sep)
}

/// The text inside a clause's parentheses.
fn args_text(model: Model, shape: Shape, args: &ClauseArgs) -> String {
    match args {
        ClauseArgs::None => String::new(),
        ClauseArgs::Expr {
            modifier: Some(m),
            expr,
        } => format!("{}: {}", m.text, expr.text),
        ClauseArgs::Expr {
            modifier: None,
            expr,
        } => expr.text.clone(),
        ClauseArgs::Keyword(w) => w.text.clone(),
        ClauseArgs::List { modifiers, items } => {
            let items = items.iter().map(item_text).collect::<Vec<_>>().join(", ");
            let mods = modifiers
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if modifiers.is_empty() {
                items
            } else if shape == Shape::ListPost {
                format!("{items}: {mods}")
            } else {
                format!("{mods}: {items}")
            }
        }
        ClauseArgs::Args(args) => match shape {
            Shape::Schedule => {
                let n = args
                    .iter()
                    .take_while(|a| {
                        a.name.is_none()
                            && table::SCHEDULE_MODIFIERS.contains(&a.value.text.as_str())
                    })
                    .count();
                if n == 0 {
                    join_args(args, ", ")
                } else {
                    format!(
                        "{}: {}",
                        join_args(&args[..n], ", "),
                        join_args(&args[n..], ", ")
                    )
                }
            }
            Shape::Defaultmap | Shape::Order => join_args(args, ": "),
            Shape::ExprOrArgs if model == Model::Omp => join_args(args, ": "),
            Shape::DeclareReduction => join_args(args, " : "),
            Shape::Wait => match args.first() {
                Some(a) if a.name.as_ref().is_some_and(|n| n.text == "devnum") => {
                    format!("{} : {}", arg_text(a), join_args(&args[1..], ", "))
                }
                _ => join_args(args, ", "),
            },
            _ => join_args(args, ", "),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::directives::parse_pragma;
    use crate::source::Span;

    fn roundtrip(src: &str) -> String {
        let (d, diags) = parse_pragma(src, Span::new(0, src.len()));
        assert!(diags.is_empty(), "{src}: {diags:#?}");
        print(&d.unwrap())
    }

    #[test]
    fn canonical_text() {
        assert_eq!(
            roundtrip("#pragma omp target teams map( tofrom :a[0:n])"),
            "omp target teams map(tofrom: a[0:n])"
        );
        assert_eq!(
            roundtrip("#pragma omp for schedule(monotonic:dynamic,4) linear(i:2) reduction(+:s)"),
            "omp for schedule(monotonic: dynamic, 4) linear(i: 2) reduction(+: s)"
        );
        assert_eq!(
            roundtrip("#pragma acc wait(devnum:1:queues:2,3) async"),
            "acc wait(devnum: 1 : queues: 2, 3) async"
        );
        assert_eq!(
            roundtrip("#pragma acc loop gang(num:4,static:*) vector(32)"),
            "acc loop gang(num: 4, static: *) vector(32)"
        );
        assert_eq!(
            roundtrip("#pragma omp ordered depend(sink:i-1,j)"),
            "omp ordered depend(sink: i-1, j)"
        );
        assert_eq!(
            roundtrip("#pragma omp critical(lock) hint(1)"),
            "omp critical(lock) hint(1)"
        );
    }
}
