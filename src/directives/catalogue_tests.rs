//! Tests driven by the grammar tables themselves (`table.rs`), so that a
//! directive or clause added there is covered without editing a list:
//!
//! - print -> parse is the identity on generated directives: every directive
//!   name of both models, carrying every clause of its model (with arguments
//!   generated from the clause's shape, and blanks, comments and continuations
//!   between tokens), and the directive's own argument where it takes one;
//! - the catalogue fixtures (`fixtures/directives`, whose rendering is golden)
//!   name every directive and every clause of the tables.

use super::ast::{Arg, ClauseArgs, Directive, ExprText, ListItem, Model, Word};
use super::table::{self, Shape};
use super::{parse_pragma, print};
use crate::source::mask::find_pragmas;
use crate::source::Span;
use std::collections::BTreeSet;

/// xorshift64*: a tiny deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
}

/// Nothing, blanks, a comment or a continuation: what may stand between tokens.
fn gap(r: &mut Rng) -> &'static str {
    ["", "", " ", "  ", "\t", " /* c */ ", " \\\n  ", "/**/"][r.below(8)]
}

fn expr(r: &mut Rng) -> String {
    r.pick(&[
        "n",
        "2",
        "n * 2",
        "(a + b)",
        "f(x, y)",
        "c ? 1 : 2",
        "s.v",
        "p->v",
        "a[i]",
        "n - 1",
        "0x1f",
    ])
    .to_string()
}

fn list(r: &mut Rng) -> String {
    let items = ["a", "b[0:n]", "q[i][0:m]", "s.v", "p[1:n:2]", "r[:n]", "x"];
    let k = 1 + r.below(3);
    (0..k)
        .map(|_| r.pick(&items).to_string())
        .collect::<Vec<_>>()
        .join(&format!(",{}", gap(r)))
}

/// A modifier of a `ListMod` set: `mapper(` entries take an argument.
fn modifier(r: &mut Rng, set: &[&str]) -> String {
    let m = r.pick(set);
    match m.strip_suffix('(') {
        Some("iterator") => "iterator(k = 0:n)".to_string(),
        Some(name) => format!("{name}(m{})", r.below(3)),
        None => m.to_string(),
    }
}

/// The text inside a clause's parentheses, or `None` for the bare form.
fn args(r: &mut Rng, model: Model, shape: Shape) -> Option<String> {
    let g = gap(r);
    Some(match shape {
        Shape::Bare => return None,
        Shape::OptExpr if r.chance(40) => return None,
        Shape::OptExpr | Shape::Expr => expr(r),
        Shape::ExprMod(mods) => {
            if r.chance(50) {
                format!("{}:{g}{}", r.pick(mods), expr(r))
            } else {
                expr(r)
            }
        }
        Shape::If => {
            if model == Model::Omp && r.chance(60) {
                let d = r.pick(&["target", "parallel", "target data", "simd", "taskloop"]);
                format!("{d}:{g}{}", expr(r))
            } else {
                expr(r)
            }
        }
        Shape::ExprOrArgs => match r.below(3) {
            0 => expr(r),
            1 => format!("{},{g}{}", expr(r), expr(r)),
            _ => format!("{}, {}, {}", expr(r), expr(r), expr(r)),
        },
        Shape::List => list(r),
        Shape::ListMod(mods, any) => {
            if mods.is_empty() && !any || r.chance(40) {
                list(r)
            } else if any && (mods.is_empty() || r.chance(30)) {
                format!("omp_default_mem_alloc:{g}{}", list(r))
            } else {
                format!("{}:{g}{}", modifier(r, mods), list(r))
            }
        }
        Shape::Map => {
            let mut mods: Vec<String> = Vec::new();
            for m in table::MAP_MODIFIERS {
                if r.chance(15) {
                    mods.push(modifier(r, &[m]));
                }
            }
            if r.chance(80) {
                mods.push(r.pick(table::MAP_TYPES).to_string());
            }
            if mods.is_empty() {
                list(r)
            } else {
                format!("{}:{g}{}", mods.join(r.pick(&[", ", ","])), list(r))
            }
        }
        Shape::Reduction => {
            let op = if r.chance(90) {
                r.pick(table::REDUCTION_OPS)
            } else {
                "myop"
            };
            if r.chance(30) {
                let m = r.pick(table::REDUCTION_MODIFIERS);
                format!("{m}, {op}:{g}{}", list(r))
            } else {
                format!("{op}:{g}{}", list(r))
            }
        }
        Shape::ListPost => match r.below(3) {
            0 => list(r),
            1 => format!("x:{g}{}", r.below(64) + 1),
            _ => format!("x, y: {}", r.pick(&["val", "step(3)", "val, step(n)", "2"])),
        },
        Shape::Depend => match r.below(4) {
            0 => "source".to_string(),
            1 => "sink: i - 1, j".to_string(),
            2 => format!(
                "iterator(k = 0:n), out: a[k]{}",
                if r.chance(50) { ", b" } else { "" }
            ),
            _ => {
                let t: Vec<&str> = table::DEPEND_TYPES
                    .iter()
                    .copied()
                    .filter(|t| !t.ends_with('('))
                    .collect();
                format!("{}:{g}{}", r.pick(&t), list(r))
            }
        },
        Shape::Doacross => r
            .pick(&["source:", "sink: i - 1", "sink: i, j + 1"])
            .to_string(),
        Shape::Keyword(set) => r.pick(set).to_string(),
        Shape::OptKeyword(set) => {
            if r.chance(40) {
                return None;
            }
            r.pick(set).to_string()
        }
        Shape::Schedule => {
            let kind = r.pick(table::SCHEDULE_KINDS);
            match r.below(3) {
                0 => kind.to_string(),
                1 => format!("{kind},{g}{}", expr(r)),
                _ => format!(
                    "{}: {kind}, {}",
                    r.pick(&["monotonic", "nonmonotonic", "simd", "monotonic, simd"]),
                    expr(r)
                ),
            }
        }
        Shape::DistSchedule => {
            if r.chance(50) {
                "static".to_string()
            } else {
                format!("static,{g}{}", expr(r))
            }
        }
        Shape::Defaultmap => {
            let b = r.pick(table::DEFAULTMAP_BEHAVIORS);
            if r.chance(50) {
                b.to_string()
            } else {
                format!("{b}:{g}{}", r.pick(table::DEFAULTMAP_CATEGORIES))
            }
        }
        Shape::Order => {
            if r.chance(50) {
                "concurrent".to_string()
            } else {
                format!("{}: concurrent", r.pick(table::ORDER_MODIFIERS))
            }
        }
        Shape::ExprList => match r.below(3) {
            0 => expr(r),
            1 => format!("{}, *", r.below(16) + 1),
            _ => "nvidia, host".to_string(),
        },
        Shape::Named(keys) => match r.below(3) {
            0 => return None,
            1 => expr(r),
            _ => format!("{}:{g}{}", r.pick(keys), r.pick(&["4", "n", "*"])),
        },
        Shape::Wait => match r.below(5) {
            0 => return None,
            1 => expr(r),
            2 => "1, 2".to_string(),
            3 => "devnum: d : queues: 1, 2".to_string(),
            _ => "queues: q".to_string(),
        },
        Shape::DeclareReduction => "myadd : int, long : omp_out += omp_in".to_string(),
        Shape::Raw => r
            .pick(&["device={kind(gpu)}", "x", "construct={parallel}", "f(1, 2)"])
            .to_string(),
    })
}

fn z() -> Span {
    Span::default()
}
fn sw(w: &Word) -> Word {
    Word {
        text: w.text.clone(),
        span: z(),
    }
}
fn se(e: &ExprText) -> ExprText {
    ExprText {
        text: e.text.clone(),
        span: z(),
    }
}
fn si(i: &ListItem) -> ListItem {
    let mut i = i.clone();
    i.span = z();
    i.name_span = z();
    for s in &mut i.sections {
        s.span = z();
        for e in [&mut s.lower, &mut s.length, &mut s.stride]
            .into_iter()
            .flatten()
        {
            e.span = z();
        }
    }
    i
}
fn sa(a: &ClauseArgs) -> ClauseArgs {
    match a {
        ClauseArgs::None => ClauseArgs::None,
        ClauseArgs::Expr { modifier, expr } => ClauseArgs::Expr {
            modifier: modifier.as_ref().map(sw),
            expr: se(expr),
        },
        ClauseArgs::List { modifiers, items } => ClauseArgs::List {
            modifiers: modifiers.iter().map(sw).collect(),
            items: items.iter().map(si).collect(),
        },
        ClauseArgs::Keyword(w) => ClauseArgs::Keyword(sw(w)),
        ClauseArgs::Args(args) => ClauseArgs::Args(
            args.iter()
                .map(|a| Arg {
                    name: a.name.as_ref().map(sw),
                    value: se(&a.value),
                    span: z(),
                })
                .collect(),
        ),
    }
}

/// The directive with every span zeroed.
fn strip(d: &Directive) -> Directive {
    let mut d = d.clone();
    d.span = z();
    d.name_span = z();
    if let Some(a) = &mut d.arg {
        a.span = z();
        a.args = sa(&a.args);
    }
    for c in &mut d.clauses {
        c.span = z();
        c.name_span = z();
        c.args = sa(&c.args);
    }
    d
}

fn parse_ok(src: &str) -> Directive {
    let (d, diags) = parse_pragma(src, Span::new(0, src.len()));
    assert!(diags.is_empty(), "{src:?}:\n{diags:#?}");
    d.unwrap_or_else(|| panic!("no directive for {src:?}"))
}

#[test]
fn print_then_parse_is_identity_for_every_directive_and_clause() {
    let mut r = Rng(0x0DDB_A11C_A7A1_0606);
    let mut seen: BTreeSet<(&str, &str, &str)> = BTreeSet::new();
    for model in [Model::Omp, Model::Acc] {
        let clauses = table::clauses(model);
        for round in 0..40 {
            for (k, name) in table::directives(model).iter().enumerate() {
                let mut src = format!(
                    "#{}pragma {}{}{name}",
                    r.pick(&["", " ", "\t", " \\\n "]),
                    model.as_str(),
                    r.pick(&[" ", "  ", " /* m */ "])
                );
                if let Some((shape, required)) = table::directive_arg(model, name) {
                    if required || r.chance(60) {
                        let a = args(&mut r, model, shape).unwrap_or_else(|| expr(&mut r));
                        src.push_str(&format!("({a})"));
                    }
                }
                // A window of the clause table, moving with the directive and
                // the round, so every clause meets many directives.
                let start = (k * 7 + round * 13) % clauses.len();
                for j in 0..1 + r.below(5) {
                    let (cname, _) = clauses[(start + j * 3) % clauses.len()];
                    let Some(shape) = table::clause_shape(model, name, cname) else {
                        continue;
                    };
                    // A first clause that continues the directive name needs a
                    // comma (`parallel for, simd`), in the source as in print.
                    let longer = format!("{name} {cname}");
                    let extends = table::directives(model)
                        .iter()
                        .any(|n| *n == longer || n.starts_with(&format!("{longer} ")));
                    if j == 0 && extends {
                        src.push(',');
                    }
                    src.push_str(r.pick(&[" ", ", ", " ,", "  "]));
                    src.push_str(gap(&mut r));
                    src.push_str(cname);
                    if let Some(a) = args(&mut r, model, shape) {
                        src.push_str(&format!("({}{a}{})", gap(&mut r), gap(&mut r)));
                    }
                    seen.insert((model.as_str(), name, cname));
                }
                let d = parse_ok(&src);
                assert_eq!(d.name, *name, "{src:?}");
                let printed = print(&d);
                let again = parse_ok(&printed);
                assert_eq!(
                    strip(&again),
                    strip(&d),
                    "\nsource:  {src:?}\nprinted: {printed}"
                );
                assert_eq!(print(&again), printed, "{src:?}");
                // The operator form of the printed text parses the same.
                let op = format!(
                    "_Pragma(\"{}\")",
                    printed.replace('\\', "\\\\").replace('"', "\\\"")
                );
                assert_eq!(strip(&parse_ok(&op)), strip(&d), "{op}");
            }
        }
        // Every clause was generated, on several directives.
        for (cname, _) in clauses {
            let on = seen
                .iter()
                .filter(|(m, _, c)| *m == model.as_str() && c == cname)
                .count();
            assert!(on >= 3, "{} {cname}: on {on} directives", model.as_str());
        }
    }
}

/// The catalogue fixtures name every directive and clause of the tables.
#[test]
fn every_grammar_name_is_in_the_catalogue() {
    for (model, text) in [
        (
            Model::Omp,
            include_str!("../../fixtures/directives/omp_every_directive.c"),
        ),
        (
            Model::Acc,
            include_str!("../../fixtures/directives/acc_every_directive.c"),
        ),
    ] {
        let mut directives = BTreeSet::new();
        let mut clauses = BTreeSet::new();
        for p in find_pragmas(text) {
            let (d, diags) = parse_pragma(text, p.span);
            assert!(diags.is_empty(), "{diags:#?}");
            let d = d.expect("a directive");
            assert_eq!(d.model, model);
            clauses.extend(d.clauses.iter().map(|c| c.name.clone()));
            directives.insert(d.name);
        }
        let missing: Vec<&str> = table::directives(model)
            .iter()
            .copied()
            .filter(|n| !directives.contains(*n))
            .collect();
        assert!(
            missing.is_empty(),
            "{model:?} directives missing: {missing:?}"
        );
        let missing: Vec<&str> = table::clauses(model)
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| !clauses.contains(*n))
            .collect();
        assert!(missing.is_empty(), "{model:?} clauses missing: {missing:?}");
    }
}
