//! The parsed form of one directive: what every later stage reads.
//!
//! Every node keeps the byte span of the text it came from (absolute offsets
//! into the input file), so diagnostics can put a caret under the exact clause,
//! list item or section bound. Expressions inside clauses are kept as C text:
//! the directive parser does not parse C; sema reads them when it needs to.

use crate::source::Span;
use serde::Serialize;

pub use crate::ir::c::{ExprText, Section};
pub use crate::source::Model;

/// A word as written, with its span (directive-name words, clause modifiers,
/// keywords such as `none` or `static`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Word {
    pub text: String,
    pub span: Span,
}

/// A list item: a variable name, optionally with member accesses
/// (`s.a`, `p->b`, kept in `path` as written) and array-section dimensions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListItem {
    /// The base variable name.
    pub name: String,
    pub name_span: Span,
    /// Member accesses after the base name, as written (`.x`, `->y`); empty for a plain variable.
    pub path: String,
    pub sections: Vec<Section>,
    pub span: Span,
}

/// `name: value` or a bare value inside clause parentheses whose arguments
/// are neither a list nor a single expression: `schedule(static, 4)`,
/// `gang(num: 4, static: *)`, `device_type(nvidia, host)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arg {
    pub name: Option<Word>,
    pub value: ExprText,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "form", content = "value", rename_all = "lowercase")]
pub enum ClauseArgs {
    /// No parentheses: `nowait`, `seq`, `independent`, `gang`.
    None,
    /// One expression, with an optional `modifier:` prefix:
    /// `num_teams(n)`, `collapse(2)`, `if(target: n > 10)`.
    Expr {
        modifier: Option<Word>,
        expr: ExprText,
    },
    /// A variable list with optional modifiers before a colon:
    /// `private(x, y)`, `map(always, tofrom: a[0:n])` (modifiers `always`, `tofrom`),
    /// `reduction(+: s)` (modifier `+`), `copyin(readonly: a)`.
    List {
        modifiers: Vec<Word>,
        items: Vec<ListItem>,
    },
    /// One keyword: `default(none)`, `proc_bind(close)`, `defaultmap(tofrom: scalar)` is `Args`.
    Keyword(Word),
    /// Any other argument shape, kept as a list of optionally named values.
    Args(Vec<Arg>),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Clause {
    /// The clause name as written, lower case (`map`, `num_gangs`, `copyin`).
    pub name: String,
    pub name_span: Span,
    pub args: ClauseArgs,
    /// The whole clause, name and parentheses.
    pub span: Span,
}

/// One `#pragma omp ...` / `#pragma acc ...` / `_Pragma("...")` directive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Directive {
    pub model: Model,
    /// The canonical directive name, words separated by one space:
    /// `target teams distribute parallel for simd`, `parallel loop`,
    /// `end declare target`, `enter data`.
    pub name: String,
    pub name_span: Span,
    pub clauses: Vec<Clause>,
    /// The whole pragma, from `#` (or `_Pragma`) to the end of its last line.
    pub span: Span,
    /// The parenthesised argument of the directive itself, for the few that
    /// take one: `critical(name)`, `flush(a, b)`, `threadprivate(x)`,
    /// `declare target(f)`, `declare reduction(...)`, `acc cache(a[0:4])`,
    /// `acc wait(1)`, `acc routine(f)`. `None` for all others.
    pub arg: Option<DirectiveArg>,
}

/// The argument in parentheses right after a directive name (see [`Directive::arg`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DirectiveArg {
    pub args: ClauseArgs,
    /// From `(` to `)` inclusive.
    pub span: Span,
}

impl Directive {
    pub fn clauses_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Clause> + 'a {
        self.clauses.iter().filter(move |c| c.name == name)
    }

    pub fn clause(&self, name: &str) -> Option<&Clause> {
        self.clauses.iter().find(|c| c.name == name)
    }

    /// Whether an OpenMP declare-target directive opens a range that `end
    /// declare target` closes: `begin declare target`, or `declare target`
    /// with no list and no `to` / `enter` / `link` clause.
    pub fn opens_declare_target_range(&self) -> bool {
        let listed = self.arg.is_some()
            || self
                .clauses
                .iter()
                .any(|c| matches!(c.name.as_str(), "to" | "enter" | "link"));
        self.name == "begin declare target" || self.name == "declare target" && !listed
    }

    /// The directive name split into its words.
    pub fn words(&self) -> impl Iterator<Item = &str> {
        self.name.split(' ')
    }
}

impl Clause {
    pub fn items(&self) -> &[ListItem] {
        match &self.args {
            ClauseArgs::List { items, .. } => items,
            _ => &[],
        }
    }

    pub fn modifiers(&self) -> &[Word] {
        match &self.args {
            ClauseArgs::List { modifiers, .. } => modifiers,
            _ => &[],
        }
    }

    /// The modifier of an expression clause (`force` in `collapse(force: 2)`).
    pub fn expr_modifier(&self) -> Option<&Word> {
        match &self.args {
            ClauseArgs::Expr { modifier, .. } => modifier.as_ref(),
            _ => None,
        }
    }

    pub fn expr(&self) -> Option<&ExprText> {
        match &self.args {
            ClauseArgs::Expr { expr, .. } => Some(expr),
            _ => None,
        }
    }

    /// The `Args` entries of this clause (empty for other shapes).
    pub fn args_list(&self) -> &[Arg] {
        match &self.args {
            ClauseArgs::Args(a) => a,
            _ => &[],
        }
    }

    /// The value of the argument written `name: value` (`gang(num: 4)` -> `4`).
    pub fn named_arg(&self, name: &str) -> Option<&ExprText> {
        self.args_list()
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|n| n.text == name))
            .map(|a| &a.value)
    }

    /// The values of the arguments written without a name, in order
    /// (`schedule(dynamic, 4)` -> `dynamic`, `4`; `tile(4, *)` -> `4`, `*`).
    pub fn positional_args(&self) -> impl Iterator<Item = &ExprText> {
        self.args_list()
            .iter()
            .filter(|a| a.name.is_none())
            .map(|a| &a.value)
    }

    /// The keyword of a `Keyword` clause (`default(none)` -> `none`).
    pub fn keyword(&self) -> Option<&str> {
        match &self.args {
            ClauseArgs::Keyword(w) => Some(&w.text),
            _ => None,
        }
    }
}
