//! Validation: every directive checked against the OpenMP 5.2 and OpenACC
//! 3.3 rules before anything is lowered.
//!
//! One rule per file, like a linter: the file's doc comment is the user
//! documentation of the rule (what it checks, why, a bad example and the
//! fix), printed by `pragma2cuda --explain CODE`; [`RULES`] lists them all.
//! `spec.rs` holds the facts several rules share (leaf constructs, clause
//! tables).
//!
//! Place in the pipeline: validation runs after the front end has attached
//! each directive to its statement, because some rules need C: the symbols
//! visible at a directive (list items), the loops after it (loop
//! association), the variables its region uses (`default(none)`), and which
//! directive encloses which (nesting, computed here from the spans of the
//! attached statements). It reads the directives, the C tree and sema's
//! answers; it never changes them and never looks at lowering.
//!
//! Invariant: validation never panics and reports every violation of every
//! directive in one run; each diagnostic belongs to one directive, and the
//! driver does not lower a directive that has a validation error (lowering
//! would only report the consequences again).

pub(crate) mod spec;

use crate::diag::{codes, Code, Diagnostic};
use crate::directives::Directive;
use crate::front::c::Node;
use crate::front::{Attached, CTree};
use crate::sema::symbols::{FileScope, Locals, Visible};
use crate::source::{SourceFile, Span};
use std::cell::OnceCell;

/// One rule: its name (the file name), the codes it reports, its
/// documentation and its check.
pub struct Rule {
    pub name: &'static str,
    pub codes: &'static [Code],
    source: &'static str,
    check: fn(&Context, &mut Sink),
}

impl Rule {
    /// The rule's documentation: the `//!` comment at the top of its file.
    pub fn doc(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }
}

macro_rules! rules {
    ($($m:ident),* $(,)?) => {
        $(mod $m;)*
        /// Every rule, in the order they run.
        pub static RULES: &[Rule] = &[$(Rule {
            name: stringify!($m),
            codes: $m::CODES,
            source: include_str!(concat!(stringify!($m), ".rs")),
            check: $m::check,
        }),*];
    };
}

rules! {
    clause_allowed,
    clause_once,
    exclusive_clauses,
    required_clause,
    map_type,
    positive_argument,
    literal_range,
    list_items_declared,
    conflicting_clauses,
    reduction_identifier,
    reduction_type,
    loop_association,
    default_none,
    teams_nesting,
    distribute_nesting,
    target_in_target,
    copyin_on_device,
    declare_target_pairs,
    omp_region_nesting,
    acc_loop_levels,
    acc_loop_outside_compute,
    acc_runtime_in_compute,
    standalone_as_body,
    split_across_arms,
}

/// What the rules report, each diagnostic with the directive it belongs to.
#[derive(Default)]
pub struct Sink {
    items: Vec<(usize, Diagnostic)>,
    /// Directives rejected with another one's error (one construct).
    also: Vec<usize>,
}

impl Sink {
    pub fn push(&mut self, directive: usize, d: Diagnostic) {
        self.items.push((directive, d));
    }

    /// Directive `other` is not lowered either: it belongs to the construct
    /// that `directive`'s error (pushed with [`Sink::push`]) is about.
    pub fn reject_with(&mut self, other: usize) {
        self.also.push(other);
    }
}

/// The result of validating a file.
pub struct Report {
    pub diagnostics: Vec<Diagnostic>,
    /// Per attached directive (same order): whether its pragma had a syntax
    /// error or validation found an error in it.
    pub rejected: Vec<bool>,
}

/// Everything a rule may look at: the file, the C tree, the attached
/// directives, and which directive encloses which.
pub struct Context<'a> {
    pub file: &'a SourceFile,
    pub tree: &'a CTree,
    pub dirs: &'a [Attached],
    malformed: &'a [bool],
    region: Vec<Option<Span>>,
    parent: Vec<Option<usize>>,
    file_scope: Option<FileScope<'a>>,
    locals: Vec<OnceCell<Locals<'a>>>,
}

impl<'a> Context<'a> {
    /// `malformed[i]`: the parser reported an error in directive `i` (it may
    /// have dropped a clause).
    pub fn new(
        file: &'a SourceFile,
        tree: &'a CTree,
        dirs: &'a [Attached],
        malformed: &'a [bool],
    ) -> Self {
        let region: Vec<Option<Span>> = dirs
            .iter()
            .map(|at| {
                let stmt = at.stmt?;
                spec::has_block(&at.directive).then(|| Span::new(at.directive.span.start, stmt.end))
            })
            .collect();
        // Regions nest like the statements they end with: a stack finds the
        // closest one around each directive.
        let mut order: Vec<usize> = (0..dirs.len()).collect();
        order.sort_by_key(|&i| (dirs[i].directive.span.start, i));
        let mut parent = vec![None; dirs.len()];
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for i in order {
            let pos = dirs[i].directive.span.start;
            while stack.last().is_some_and(|&(_, end)| end <= pos) {
                stack.pop();
            }
            parent[i] = stack.last().map(|&(j, _)| j);
            if let Some(r) = region[i] {
                stack.push((i, r.end));
            }
        }
        let file_scope = tree.root().map(|r| FileScope::new(r, &file.text));
        Context {
            file,
            tree,
            dirs,
            malformed,
            region,
            parent,
            file_scope,
            locals: (0..dirs.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    /// Whether the parser reported an error in directive `i`: it may have
    /// dropped a clause, so rules that reason about missing clauses skip it.
    pub fn malformed(&self, i: usize) -> bool {
        self.malformed.get(i).copied().unwrap_or(false)
    }

    pub fn len(&self) -> usize {
        self.dirs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    pub fn directive(&self, i: usize) -> &'a Directive {
        &self.dirs[i].directive
    }

    /// From the pragma to the end of its statement, for directives with a
    /// structured block or loop; `None` for stand-alone and declarative ones.
    pub fn region(&self, i: usize) -> Option<Span> {
        self.region[i]
    }

    /// The closest directive whose region contains directive `i`.
    pub fn parent(&self, i: usize) -> Option<usize> {
        self.parent[i]
    }

    /// The enclosing directives, closest first.
    pub fn ancestors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        ancestors_in(&self.parent, i)
    }

    /// The closest enclosing directive of the same model as `i`.
    pub fn enclosing(&self, i: usize) -> Option<usize> {
        let model = self.directive(i).model;
        self.ancestors(i)
            .find(|&j| self.directive(j).model == model)
    }

    /// The directives whose closest enclosing directive is `i`.
    pub fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        // (The iterators borrow `parent` only: `Context` is invariant in its
        // lifetime, which they would otherwise have to name.)
        let parent = &self.parent;
        (0..parent.len()).filter(move |&j| parent[j] == Some(i))
    }

    /// The directives inside the region of `i`, at any depth.
    pub fn descendants(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let parent = &self.parent;
        (0..parent.len()).filter(move |&j| ancestors_in(parent, j).any(|a| a == i))
    }

    /// The statement the directive is attached to, as a tree node.
    pub fn stmt_node(&self, i: usize) -> Option<Node<'a>> {
        let span = self.dirs[i].stmt?;
        // The walk down to the symbols met it already, if it ran.
        if let Some(n) = self.locals.get(i)?.get().and_then(|l| l.stmt()) {
            return Some(n);
        }
        self.file_scope.as_ref()?.node_at(span.start, span.end)
    }

    /// The declarations visible at directive `i` (at its statement, or at
    /// the pragma when it has none); computed once per directive.
    pub fn symbols_at(&self, i: usize) -> Option<Visible<'_, 'a>> {
        let scope = self.file_scope.as_ref()?;
        let locals = self.locals.get(i)?.get_or_init(|| {
            let (start, end) = match self.dirs[i].stmt {
                Some(s) => (s.start, s.end),
                None => {
                    let p = self.directive(i).span.start;
                    (p, p)
                }
            };
            scope.locals(&self.file.text, start, end)
        });
        Some(scope.visible(locals))
    }

    /// Whether directive `i` is offloaded code or drives it: OpenACC, OpenMP
    /// with a `target...`, `teams` or `distribute` construct, or any directive
    /// inside a device region (an OpenACC compute construct, an OpenMP
    /// `target` or `teams` region).
    pub fn offloaded(&self, i: usize) -> bool {
        use crate::directives::Model;
        let d = self.directive(i);
        let itself = d.model == Model::Acc
            || spec::leaves_of(d)
                .iter()
                .any(|l| l.starts_with("target") || matches!(*l, "teams" | "distribute"));
        itself
            || self.ancestors(i).any(|j| {
                let a = self.directive(j);
                spec::is_acc_compute(a)
                    || (a.model == Model::Omp
                        && matches!(spec::leaves_of(a).first(), Some(&"target") | Some(&"teams")))
            })
    }

    /// Whether the file includes headers (declarations pragma2cuda does not
    /// read); `quoted_only`: only `#include "..."` counts.
    pub fn includes_headers(&self, quoted_only: bool) -> bool {
        self.file.text.lines().any(|l| {
            l.trim_start()
                .strip_prefix('#')
                .and_then(|r| r.trim_start().strip_prefix("include"))
                .is_some_and(|r| !quoted_only || r.trim_start().starts_with('"'))
        })
    }

    /// The `model name` of directive `i`, for messages: `omp target teams`.
    pub fn title(&self, i: usize) -> String {
        let d = self.directive(i);
        format!("{} {}", d.model.as_str(), d.name)
    }
}

/// The ancestors of `i` in a parent table, closest first.
fn ancestors_in(parent: &[Option<usize>], i: usize) -> impl Iterator<Item = usize> + '_ {
    std::iter::successors(parent[i], move |&j| parent[j])
}

/// Runs every rule over the attached directives of a file. `malformed[i]`
/// says the parser reported an error in directive `i`; such a directive is
/// validated too (its other errors are reported in the same run) and counts
/// as rejected.
pub fn validate(file: &SourceFile, tree: &CTree, dirs: &[Attached], malformed: &[bool]) -> Report {
    let cx = Context::new(file, tree, dirs, malformed);
    let mut sink = Sink::default();
    for rule in RULES {
        (rule.check)(&cx, &mut sink);
    }
    let mut rejected: Vec<bool> = (0..dirs.len()).map(|i| cx.malformed(i)).collect();
    let mut diagnostics = Vec::new();
    for (i, d) in sink.items {
        if d.is_error() {
            if let Some(r) = rejected.get_mut(i) {
                *r = true;
            }
        }
        diagnostics.push(d);
    }
    for i in sink.also {
        if let Some(r) = rejected.get_mut(i) {
            *r = true;
        }
    }
    Report {
        diagnostics,
        rejected,
    }
}

/// The text `pragma2cuda --explain CODE` prints: the code's one-line doc and
/// the documentation of every rule that reports it. `None` for an unknown code.
pub fn explain(code: &str) -> Option<String> {
    let upper = code.trim().to_ascii_uppercase();
    let (c, doc) = codes::ALL.iter().find(|(c, _)| c.as_str() == upper)?;
    let mut out = format!("{}: {doc}\n", c.as_str());
    for r in RULES.iter().filter(|r| r.codes.contains(c)) {
        out.push_str(&format!(
            "\nRule `{}` (src/valid/{}.rs)\n\n{}",
            r.name,
            r.name,
            r.doc()
        ));
    }
    Some(out)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Runs the pipeline up to validation on a snippet, for the rules' unit tests.
    use super::*;
    use crate::directives::parse_pragma;
    use crate::front::{attach, parse_c};
    use crate::source::mask;

    /// The validation diagnostics of `text` with `rule` only: (code, line, message).
    pub fn run_rule(rule: &str, text: &str) -> Vec<(String, usize, String)> {
        let file = SourceFile::new("t.c", text);
        let raw = mask::find_pragmas(&file.text);
        let dirs: Vec<_> = raw
            .iter()
            .filter_map(|p| parse_pragma(&file.text, p.span).0)
            .collect();
        let tree = parse_c(mask::mask(&file.text, &raw));
        let attached = attach(&tree, dirs);
        let cx = Context::new(&file, &tree, &attached, &[]);
        let mut sink = Sink::default();
        let r = RULES
            .iter()
            .find(|r| r.name == rule)
            .unwrap_or_else(|| panic!("no rule {rule}"));
        (r.check)(&cx, &mut sink);
        let mut v: Vec<_> = sink
            .items
            .into_iter()
            .map(|(_, d)| {
                (
                    d.code.as_str().to_string(),
                    file.line_of(d.primary_span().start),
                    d.message,
                )
            })
            .collect();
        v.sort();
        v
    }

    /// Just the codes and lines.
    pub fn codes_of(rule: &str, text: &str) -> Vec<(String, usize)> {
        run_rule(rule, text)
            .into_iter()
            .map(|(c, l, _)| (c, l))
            .collect()
    }

    /// Asserts that `rule` reports `code` on exactly `lines` of `text` (in
    /// order, a line once per diagnostic) and nothing else.
    #[track_caller]
    pub fn assert_codes(rule: &str, text: &str, code: &str, lines: &[usize]) {
        let want: Vec<(String, usize)> = lines.iter().map(|l| (code.to_string(), *l)).collect();
        assert_eq!(codes_of(rule, text), want, "rule {rule}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_documented_and_owns_known_codes() {
        for r in RULES {
            let doc = r.doc();
            assert!(
                doc.lines().count() >= 5,
                "rule {} has too short a doc:\n{doc}",
                r.name
            );
            assert!(
                doc.contains("```c"),
                "rule {} has no example in its doc",
                r.name
            );
            assert!(!r.codes.is_empty(), "rule {} reports no code", r.name);
            for c in r.codes {
                assert!(
                    !c.doc().is_empty(),
                    "rule {}: {} has no doc",
                    r.name,
                    c.as_str()
                );
            }
        }
    }

    #[test]
    fn explain_prints_the_rule_doc() {
        let t = explain("e0201").expect("E0201 is known");
        assert!(t.starts_with("E0201: "));
        assert!(t.contains("Rule `clause_allowed`"));
        let t = explain("E0401").expect("E0401 is known");
        assert!(t.starts_with("E0401: "));
        assert!(!t.contains("Rule `"));
        assert!(explain("E9999").is_none());
    }

    #[test]
    fn nesting_is_computed_from_statement_spans() {
        let text = "void f(int n, double *a) {\n\
            #pragma omp target\n\
            {\n\
            #pragma omp teams\n\
            {\n\
            #pragma omp distribute\n\
            for (int i = 0; i < n; i++) a[i] = 0;\n\
            }\n\
            }\n\
            #pragma omp barrier\n\
            n++;\n\
            }\n";
        let file = SourceFile::new("t.c", text);
        let raw = crate::source::mask::find_pragmas(&file.text);
        let dirs: Vec<_> = raw
            .iter()
            .filter_map(|p| crate::directives::parse_pragma(&file.text, p.span).0)
            .collect();
        let tree = crate::front::parse_c(crate::source::mask::mask(&file.text, &raw));
        let attached = crate::front::attach(&tree, dirs);
        let cx = Context::new(&file, &tree, &attached, &[]);
        assert_eq!(cx.len(), 4);
        assert_eq!(cx.parent(0), None);
        assert_eq!(cx.parent(1), Some(0));
        assert_eq!(cx.parent(2), Some(1));
        assert_eq!(cx.ancestors(2).collect::<Vec<_>>(), vec![1, 0]);
        // A stand-alone directive has no region, so it encloses nothing.
        assert_eq!(cx.region(3), None);
        assert_eq!(cx.parent(3), None);
        assert_eq!(cx.descendants(0).collect::<Vec<_>>(), vec![1, 2]);
    }
}
