//! The recursive-descent directive parser; `grammar/openmp.md` and
//! `grammar/openacc.md` are the grammar it follows, `table.rs` its catalogue.
//!
//! Structure: the lexer gives tokens with absolute spans; the directive name
//! is the longest known name made of the leading words; then each clause is a
//! name and, optionally, one balanced parenthesised group. Because a clause's
//! arguments are confined to its group, an error inside one clause never
//! spills into the next: the parser reports it and goes on with the next
//! clause, so every error in a pragma is reported in one run.

use super::ast::{
    Arg, Clause, ClauseArgs, Directive, DirectiveArg, ExprText, ListItem, Model, Section, Word,
};
use super::lexer::{lex, Form, Kind, Token};
use super::suggest::closest;
use super::table::{self, Shape};
use crate::diag::{codes, Code, Diagnostic};
use crate::source::Span;

/// Parses the pragma whose text is `src[span]` (from `#` or `_Pragma` to the
/// end of its last continuation line). Returns `None` when the pragma is not
/// an `omp`/`acc` pragma at all. Offsets in the result are absolute.
///
/// Also accepted: `_Pragma("omp ...")` (offsets map into the literal) and the
/// bare text `omp ...` that [`super::print`] produces.
pub fn parse_pragma(src: &str, span: Span) -> (Option<Directive>, Vec<Diagnostic>) {
    let lexed = lex(src, span);
    let toks = &lexed.tokens;
    let mut pos = 0;
    if lexed.form == Form::Hash {
        if !toks.get(1).is_some_and(|t| t.is("pragma")) {
            return (None, lexed.diags);
        }
        pos = 2;
    }
    let model = match toks.get(pos).map(|t| t.text.as_str()) {
        Some("omp") => Model::Omp,
        Some("acc") => Model::Acc,
        _ => return (None, lexed.diags),
    };
    let mut p = Parser {
        toks,
        diags: lexed.diags,
        model,
        directive: String::new(),
        group: Span::default(),
    };
    let whole = whole_span(src, span);
    let d = p.directive(pos, whole);
    // One error per place: a missing word can trip two checks of the same group.
    let mut seen = std::collections::HashSet::new();
    let mut diags = p.diags;
    diags.retain(|d| seen.insert((d.code, d.primary_span())));
    (d, diags)
}

/// No directive name is longer (in bytes): the longest-match loop stops there.
const LONGEST_NAME: usize = 64;

/// The given span clamped to the text, leading whitespace dropped.
fn whole_span(src: &str, span: Span) -> Span {
    let end = span.end.min(src.len());
    let start = span.start.min(end);
    let lead = src.as_bytes()[start..end]
        .iter()
        .take_while(|b| b.is_ascii_whitespace())
        .count();
    Span::new(start + lead, end)
}

struct Parser<'t> {
    toks: &'t [Token<'t>],
    diags: Vec<Diagnostic>,
    model: Model,
    /// The canonical name of the directive being parsed.
    directive: String,
    /// The parenthesised group being read, where errors about missing text point.
    group: Span,
}

fn model_name(m: Model) -> &'static str {
    match m {
        Model::Omp => "OpenMP",
        Model::Acc => "OpenACC",
    }
}

/// Index of the token closing the group opened at `open`, if any.
fn matching(toks: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits `ts` at top-level `sep` tokens. For `:`, a colon that closes a
/// `? :` conditional is not a separator.
fn split_top<'a, 's>(ts: &'a [Token<'s>], sep: &str) -> Vec<&'a [Token<'s>]> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut ternary = 0usize;
    let mut start = 0;
    for (i, t) in ts.iter().enumerate() {
        if t.kind != Kind::Punct {
            continue;
        }
        match t.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth = depth.saturating_sub(1),
            "?" if depth == 0 => ternary += 1,
            ":" if depth == 0 && sep == ":" && ternary > 0 => ternary -= 1,
            s if s == sep && depth == 0 => {
                out.push(&ts[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&ts[start..]);
    out
}

/// Splits at the first top-level `:` (ternaries excepted).
fn split_colon<'a, 's>(ts: &'a [Token<'s>]) -> (Option<&'a [Token<'s>]>, &'a [Token<'s>]) {
    let parts = split_top(ts, ":");
    if parts.len() < 2 {
        return (None, ts);
    }
    let n = parts[0].len();
    (Some(&ts[..n]), &ts[n + 1..])
}

/// Token text joined with one space wherever the source had whitespace or a comment.
fn text_of(ts: &[Token]) -> String {
    if let [t] = ts {
        return t.text.as_str().to_owned();
    }
    let len: usize = ts.iter().map(|t| t.text.len() + 1).sum();
    let mut s = String::with_capacity(len);
    for (i, t) in ts.iter().enumerate() {
        if i > 0 && t.space_before {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

fn span_of(ts: &[Token]) -> Span {
    match (ts.first(), ts.last()) {
        (Some(a), Some(b)) => Span::new(a.span.start, b.span.end),
        _ => Span::default(),
    }
}

fn expr_of(ts: &[Token]) -> ExprText {
    ExprText {
        text: text_of(ts),
        span: span_of(ts),
    }
}

fn word_of(ts: &[Token]) -> Word {
    Word {
        text: text_of(ts),
        span: span_of(ts),
    }
}

fn is_single_ident(ts: &[Token]) -> bool {
    ts.len() == 1 && ts[0].is_ident()
}

/// Splits a modifier list into units: an identifier with an optional
/// parenthesised group, or a single operator token. Commas are optional.
fn units<'a, 's>(ts: &'a [Token<'s>]) -> Vec<&'a [Token<'s>]> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < ts.len() {
        if ts[i].is(",") {
            i += 1;
            continue;
        }
        let s = i;
        if ts[i].is_ident() && ts.get(i + 1).is_some_and(|t| t.is("(")) {
            i = matching(ts, i + 1).map(|c| c + 1).unwrap_or(ts.len());
        } else {
            i += 1;
        }
        out.push(&ts[s..i]);
    }
    out
}

/// The name a modifier unit is looked up by: `mapper(` for `mapper(id)`.
fn unit_key(u: &[Token]) -> String {
    if u.len() > 1 && u[1].is("(") {
        format!("{}(", u[0].text)
    } else {
        text_of(u)
    }
}

impl Parser<'_> {
    fn err(&mut self, code: Code, span: Span, msg: impl Into<String>, label: impl Into<String>) {
        self.diags
            .push(Diagnostic::new(code, span, msg).with_label(label));
    }

    fn err_help(
        &mut self,
        code: Code,
        span: Span,
        msg: impl Into<String>,
        label: impl Into<String>,
        help: Option<String>,
    ) {
        let mut d = Diagnostic::new(code, span, msg).with_label(label);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.diags.push(d);
    }

    fn directive(&mut self, pos: usize, whole: Span) -> Option<Directive> {
        let toks = self.toks;
        let model_tok = &toks[pos];
        let mut i = pos + 1;
        let words: Vec<&Token> = toks[i..].iter().take_while(|t| t.is_ident()).collect();
        if words.is_empty() {
            let (span, found) = match toks.get(i) {
                Some(t) => (t.span, format!(", found `{}`", t.text)),
                None => (model_tok.span, String::new()),
            };
            self.err(
                codes::PRAGMA_SYNTAX,
                span,
                format!(
                    "expected a directive name after `{}`{found}",
                    model_tok.text
                ),
                "expected a directive name",
            );
            return None;
        }
        let names = table::directives(self.model);
        let mut best = 0;
        let mut joined = String::new();
        for (k, w) in words.iter().enumerate() {
            if k > 0 {
                joined.push(' ');
            }
            joined.push_str(&w.text);
            if names.contains(&joined.as_str()) {
                best = k + 1;
            }
            if joined.len() > LONGEST_NAME {
                break;
            }
        }
        if best == 0 {
            self.unknown_directive(&words);
            return None;
        }
        let name = words[..best]
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        let name_span = Span::new(words[0].span.start, words[best - 1].span.end);
        self.directive = name.clone();
        i += best;

        let mut arg = None;
        if let Some((shape, required)) = table::directive_arg(self.model, &name) {
            if toks.get(i).is_some_and(|t| t.is("(")) {
                match matching(toks, i) {
                    Some(c) => {
                        let span = Span::new(toks[i].span.start, toks[c].span.end);
                        let what = name.clone();
                        if let Some(args) = self.args(shape, &toks[i + 1..c], span, &what) {
                            arg = Some(DirectiveArg { args, span });
                        }
                        i = c + 1;
                    }
                    None => {
                        self.unclosed(i);
                        i = toks.len();
                    }
                }
            } else if required {
                self.err(
                    codes::PRAGMA_SYNTAX,
                    name_span,
                    format!("`{name}` needs an argument in parentheses"),
                    format!("expected `{name}(...)`"),
                );
            }
        }

        let mut clauses = Vec::with_capacity(8);
        let mut first_clause = true;
        while i < toks.len() {
            let t = &toks[i];
            if t.is(",") {
                i += 1;
                continue;
            }
            if !t.is_ident() {
                self.err(
                    codes::PRAGMA_SYNTAX,
                    t.span,
                    format!("expected a clause name, found `{}`", t.text),
                    "expected a clause",
                );
                i = if t.is("(") || t.is("[") || t.is("{") {
                    matching(toks, i).map(|c| c + 1).unwrap_or(toks.len())
                } else {
                    i + 1
                };
                continue;
            }
            let (clause, next) = self.clause(i, first_clause);
            first_clause = false;
            if let Some(c) = clause {
                clauses.push(c);
            }
            i = next;
        }
        Some(Directive {
            model: self.model,
            name,
            name_span,
            clauses,
            span: whole,
            arg,
        })
    }

    fn unknown_directive(&mut self, words: &[&Token]) {
        let names = table::directives(self.model);
        // The first word that no directive name continues with is the bad one.
        let mut bad = 0;
        let mut prefix = String::new();
        for (k, w) in words.iter().enumerate() {
            let cand = if k == 0 {
                w.text.as_str().to_owned()
            } else {
                format!("{prefix} {}", w.text)
            };
            if names
                .iter()
                .any(|n| *n == cand || n.starts_with(&format!("{cand} ")))
            {
                prefix = cand;
                bad = k + 1;
            } else {
                break;
            }
        }
        let bad = bad.min(words.len() - 1);
        let w = words[bad];
        let mut guess = None;
        // Directive names have at most six words: longer runs cannot be close.
        for k in (1..=words.len().min(8)).rev() {
            let joined = words[..k]
                .iter()
                .map(|w| w.text.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if let Some(c) = closest(&joined, names.iter().copied()) {
                guess = Some(c);
                break;
            }
        }
        if guess.is_none() && !prefix.is_empty() {
            // `acc enter copyin(a)`: the words so far only begin a directive name.
            let p = format!("{prefix} ");
            guess = names.iter().copied().find(|n| n.starts_with(&p));
        }
        let m = model_name(self.model);
        self.err_help(
            codes::UNKNOWN_DIRECTIVE,
            w.span,
            format!(
                "unknown {m} directive `{}`",
                words[..=bad]
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "unknown directive",
            guess.map(|g| format!("did you mean `{g}`?")),
        );
    }

    fn unclosed(&mut self, open: usize) {
        self.err(
            codes::PRAGMA_SYNTAX,
            self.toks[open].span,
            "unclosed `(` in pragma",
            "this `(` is never closed",
        );
    }

    /// Parses the clause whose name is at `i`; returns it (if usable) and the
    /// index of the token after it.
    fn clause(&mut self, i: usize, first: bool) -> (Option<Clause>, usize) {
        let toks = self.toks;
        let name_tok = &toks[i];
        let name = name_tok.text.as_str().to_owned();
        let mut next = i + 1;
        let mut group = None;
        if toks.get(next).is_some_and(|t| t.is("(")) {
            match matching(toks, next) {
                Some(c) => {
                    group = Some((next, c));
                    next = c + 1;
                }
                None => {
                    self.unclosed(next);
                    return (None, toks.len());
                }
            }
        }
        let span = Span::new(name_tok.span.start, toks[next - 1].span.end);
        let Some(shape) = table::clause_shape(self.model, &self.directive, &name) else {
            self.unknown_clause(name_tok, first);
            return (None, next);
        };
        let args = match group {
            None => match shape {
                Shape::Bare
                | Shape::OptExpr
                | Shape::OptKeyword(_)
                | Shape::Named(_)
                | Shape::Wait => ClauseArgs::None,
                _ => {
                    self.err(
                        codes::PRAGMA_SYNTAX,
                        name_tok.span,
                        format!("clause `{name}` needs an argument in parentheses"),
                        format!("expected `{name}(...)`"),
                    );
                    return (None, next);
                }
            },
            Some((o, c)) => {
                let gspan = Span::new(toks[o].span.start, toks[c].span.end);
                if shape == Shape::Bare {
                    self.err(
                        codes::BAD_CLAUSE_ARG,
                        gspan,
                        format!("clause `{name}` takes no argument"),
                        "unexpected argument",
                    );
                    return (None, next);
                }
                match self.args(shape, &toks[o + 1..c], gspan, &name) {
                    Some(a) => a,
                    None => return (None, next),
                }
            }
        };
        (
            Some(Clause {
                name,
                name_span: name_tok.span,
                args,
                span,
            }),
            next,
        )
    }

    fn unknown_clause(&mut self, t: &Token, first: bool) {
        let m = model_name(self.model);
        let names = table::clauses(self.model).iter().map(|(n, _)| *n);
        let mut help = closest(&t.text, names).map(|c| format!("did you mean `{c}`?"));
        if first {
            // `target teams distrbute`: a misspelt word of a longer directive name.
            let prefix = format!("{} ", self.directive);
            let longer = table::directives(self.model)
                .iter()
                .filter_map(|n| n.strip_prefix(&prefix).map(|rest| (n, rest)));
            for (full, rest) in longer {
                let next_word = rest.split(' ').next().unwrap_or("");
                if closest(&t.text, [next_word]).is_some() {
                    help = Some(format!("did you mean the directive `{full}`?"));
                    break;
                }
            }
        }
        let other = match self.model {
            Model::Omp => Model::Acc,
            Model::Acc => Model::Omp,
        };
        let mut d = Diagnostic::new(
            codes::UNKNOWN_CLAUSE,
            t.span,
            format!("unknown {m} clause `{}`", t.text),
        )
        .with_label("unknown clause");
        if let Some(h) = help {
            d = d.with_help(h);
        }
        if table::clauses(other)
            .iter()
            .any(|(n, _)| *n == t.text.as_str())
        {
            d = d.with_note(format!("`{}` is an {} clause", t.text, model_name(other)));
        }
        self.diags.push(d);
    }

    /// Parses the contents `ts` of a parenthesised group (whose span, parentheses
    /// included, is `gspan`) as `shape`. `None` when nothing usable is left.
    fn args(
        &mut self,
        shape: Shape,
        ts: &[Token],
        gspan: Span,
        clause: &str,
    ) -> Option<ClauseArgs> {
        self.group = gspan;
        if ts.is_empty() {
            self.err(
                codes::BAD_CLAUSE_ARG,
                gspan,
                format!("`{clause}(...)` needs an argument"),
                "empty parentheses",
            );
            return None;
        }
        match shape {
            Shape::Bare => None,
            Shape::Expr | Shape::OptExpr | Shape::Raw => Some(ClauseArgs::Expr {
                modifier: None,
                expr: expr_of(ts),
            }),
            Shape::ExprMod(set) => {
                let (pre, rest) = split_colon(ts);
                let modifier = match pre {
                    None => None,
                    Some(p) => {
                        let key = text_of(p);
                        if !is_single_ident(p) || !set.contains(&key.as_str()) {
                            self.bad_word(p, &format!("modifier of `{clause}`"), set);
                        }
                        Some(word_of(p))
                    }
                };
                self.need_expr(rest, gspan, clause)?;
                Some(ClauseArgs::Expr {
                    modifier,
                    expr: expr_of(rest),
                })
            }
            Shape::If => {
                let (pre, rest) = split_colon(ts);
                let modifier = match pre {
                    None => None,
                    Some(p) => {
                        let key = text_of(p);
                        if !p.iter().all(Token::is_ident) || !table::is_if_modifier(&key) {
                            self.bad_word(
                                p,
                                "directive-name modifier of `if`",
                                table::directives(Model::Omp),
                            );
                        }
                        Some(word_of(p))
                    }
                };
                self.need_expr(rest, gspan, clause)?;
                Some(ClauseArgs::Expr {
                    modifier,
                    expr: expr_of(rest),
                })
            }
            Shape::ExprOrArgs => {
                let parts = if self.model == Model::Omp {
                    split_top(ts, ":")
                } else {
                    split_top(ts, ",")
                };
                if parts.len() == 1 {
                    return Some(ClauseArgs::Expr {
                        modifier: None,
                        expr: expr_of(ts),
                    });
                }
                self.positional(&parts, gspan, clause)
            }
            Shape::List => {
                let items = self.list(ts, gspan);
                Some(ClauseArgs::List {
                    modifiers: Vec::new(),
                    items,
                })
            }
            Shape::ListMod(set, any) => {
                let (pre, rest) = split_colon(ts);
                let mut modifiers = Vec::new();
                if let Some(p) = pre {
                    if any {
                        for e in split_top(p, ",") {
                            if e.is_empty() {
                                self.err(
                                    codes::BAD_CLAUSE_ARG,
                                    gspan,
                                    format!("empty modifier in `{clause}`"),
                                    "empty modifier",
                                );
                            } else {
                                modifiers.push(word_of(e));
                            }
                        }
                    } else {
                        for u in units(p) {
                            if !set.contains(&unit_key(u).as_str()) {
                                self.bad_word(u, &format!("modifier of `{clause}`"), set);
                            }
                            modifiers.push(word_of(u));
                        }
                    }
                }
                if clause == "depend" && modifiers.is_empty() {
                    self.err(
                        codes::BAD_CLAUSE_ARG,
                        gspan,
                        "`depend` needs a dependence type: `depend(in: ...)`",
                        "expected `in:`, `out:`, `inout:`, ...",
                    );
                }
                let items = self.list(rest, gspan);
                Some(ClauseArgs::List { modifiers, items })
            }
            Shape::Map => {
                let (pre, rest) = split_colon(ts);
                let mut modifiers = Vec::new();
                if let Some(p) = pre {
                    let us = units(p);
                    for (k, u) in us.iter().enumerate() {
                        let key = unit_key(u);
                        let is_type = table::MAP_TYPES.contains(&key.as_str());
                        if !is_type && !table::MAP_MODIFIERS.contains(&key.as_str()) {
                            let all = table::MAP_TYPES.iter().chain(table::MAP_MODIFIERS.iter());
                            self.bad_word(
                                u,
                                "map type or modifier",
                                &all.copied().collect::<Vec<_>>(),
                            );
                        } else if is_type && k + 1 != us.len() {
                            self.err(
                                codes::BAD_CLAUSE_ARG,
                                span_of(u),
                                format!("the map type `{key}` must come last, right before `:`"),
                                "map type not last",
                            );
                        }
                        modifiers.push(word_of(u));
                    }
                    if us.is_empty() {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            gspan,
                            "expected a map type before `:`",
                            "missing map type",
                        );
                    }
                }
                let items = self.list(rest, gspan);
                Some(ClauseArgs::List { modifiers, items })
            }
            Shape::Reduction => {
                let (pre, rest) = split_colon(ts);
                let mut modifiers = Vec::new();
                match pre {
                    None => self.err(
                        codes::BAD_CLAUSE_ARG,
                        gspan,
                        format!("`{clause}` needs an operator: `{clause}(+: ...)`"),
                        "expected `operator:` before the list",
                    ),
                    Some(p) => {
                        let entries = split_top(p, ",");
                        let op = entries[entries.len() - 1];
                        let mods = &entries[..entries.len() - 1];
                        for m in mods {
                            if !is_single_ident(m)
                                || !table::REDUCTION_MODIFIERS.contains(&text_of(m).as_str())
                            {
                                self.bad_word(
                                    m,
                                    &format!("modifier of `{clause}`"),
                                    table::REDUCTION_MODIFIERS,
                                );
                            }
                            modifiers.push(word_of(m));
                        }
                        let optext = text_of(op);
                        if op.is_empty() {
                            self.err(
                                codes::BAD_CLAUSE_ARG,
                                gspan,
                                "expected a reduction operator before `:`",
                                "missing operator",
                            );
                        } else if !(table::REDUCTION_OPS.contains(&optext.as_str())
                            || is_single_ident(op))
                        {
                            self.err_help(
                                codes::BAD_CLAUSE_ARG,
                                span_of(op),
                                format!("`{optext}` is not a reduction operator"),
                                "not a reduction operator",
                                Some("reduction operators are `+ * - & | ^ && || min max` or a declared reduction identifier".into()),
                            );
                        }
                        if !op.is_empty() {
                            modifiers.push(word_of(op));
                        }
                    }
                }
                let items = self.list(rest, gspan);
                Some(ClauseArgs::List { modifiers, items })
            }
            Shape::ListPost => {
                let parts = split_top(ts, ":");
                let items = self.list(parts[0], gspan);
                let mut modifiers = Vec::new();
                if parts.len() > 1 {
                    let n = parts[0].len();
                    for e in split_top(&ts[n + 1..], ",") {
                        if e.is_empty() {
                            self.err(
                                codes::BAD_CLAUSE_ARG,
                                gspan,
                                format!("empty argument after `:` in `{clause}`"),
                                "empty argument",
                            );
                        } else {
                            modifiers.push(word_of(e));
                        }
                    }
                }
                Some(ClauseArgs::List { modifiers, items })
            }
            Shape::Depend => {
                if ts.len() == 1 && ts[0].is("source") {
                    return Some(ClauseArgs::Args(vec![Arg {
                        name: None,
                        value: expr_of(ts),
                        span: span_of(ts),
                    }]));
                }
                if ts[0].is("sink") || ts[0].is("source") {
                    return self.doacross(ts, gspan, clause);
                }
                self.args(
                    Shape::ListMod(table::DEPEND_TYPES, false),
                    ts,
                    gspan,
                    clause,
                )
            }
            Shape::Doacross => self.doacross(ts, gspan, clause),
            Shape::Keyword(set) | Shape::OptKeyword(set) => {
                if !is_single_ident(ts) || !set.contains(&ts[0].text.as_str()) {
                    self.bad_word(ts, &format!("argument of `{clause}`"), set);
                }
                Some(ClauseArgs::Keyword(word_of(ts)))
            }
            Shape::Schedule => {
                let (pre, rest) = split_colon(ts);
                let mut parts: Vec<&[Token]> = Vec::new();
                if let Some(p) = pre {
                    for m in split_top(p, ",") {
                        if !is_single_ident(m)
                            || !table::SCHEDULE_MODIFIERS.contains(&text_of(m).as_str())
                        {
                            self.bad_word(m, "schedule modifier", table::SCHEDULE_MODIFIERS);
                        }
                        parts.push(m);
                    }
                }
                let main = split_top(rest, ",");
                if !is_single_ident(main[0])
                    || !table::SCHEDULE_KINDS.contains(&text_of(main[0]).as_str())
                {
                    self.bad_word(main[0], "schedule kind", table::SCHEDULE_KINDS);
                }
                self.too_many(&main, 2, clause);
                parts.extend(main);
                self.positional(&parts, gspan, clause)
            }
            Shape::DistSchedule => {
                let main = split_top(ts, ",");
                if !main[0].iter().map(|t| t.text.as_str()).eq(["static"]) {
                    self.bad_word(main[0], "dist_schedule kind", &["static"]);
                }
                self.too_many(&main, 2, clause);
                self.positional(&main, gspan, clause)
            }
            Shape::Defaultmap => {
                let parts = split_top(ts, ":");
                if !is_single_ident(parts[0])
                    || !table::DEFAULTMAP_BEHAVIORS.contains(&text_of(parts[0]).as_str())
                {
                    self.bad_word(parts[0], "defaultmap behavior", table::DEFAULTMAP_BEHAVIORS);
                }
                if let Some(c) = parts.get(1) {
                    if !is_single_ident(c)
                        || !table::DEFAULTMAP_CATEGORIES.contains(&text_of(c).as_str())
                    {
                        self.bad_word(c, "defaultmap category", table::DEFAULTMAP_CATEGORIES);
                    }
                }
                self.too_many(&parts, 2, clause);
                self.positional(&parts, gspan, clause)
            }
            Shape::Order => {
                let parts = split_top(ts, ":");
                let last = parts[parts.len() - 1];
                if parts.len() == 2
                    && (!is_single_ident(parts[0])
                        || !table::ORDER_MODIFIERS.contains(&text_of(parts[0]).as_str()))
                {
                    self.bad_word(parts[0], "order modifier", table::ORDER_MODIFIERS);
                }
                if !last.iter().map(|t| t.text.as_str()).eq(["concurrent"]) {
                    self.bad_word(last, "order kind", &["concurrent"]);
                }
                self.too_many(&parts, 2, clause);
                self.positional(&parts, gspan, clause)
            }
            Shape::ExprList => {
                let parts = split_top(ts, ",");
                self.positional(&parts, gspan, clause)
            }
            Shape::Named(keys) => {
                let mut args = Vec::new();
                for e in split_top(ts, ",") {
                    if e.is_empty() {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            gspan,
                            format!("empty argument in `{clause}`"),
                            "empty argument",
                        );
                        continue;
                    }
                    if e.len() >= 2 && e[0].is_ident() && e[1].is(":") {
                        if !keys.contains(&e[0].text.as_str()) {
                            self.bad_word(&e[..1], &format!("argument name of `{clause}`"), keys);
                        }
                        let v = &e[2..];
                        if v.is_empty() {
                            self.err(
                                codes::BAD_CLAUSE_ARG,
                                e[1].span,
                                format!("expected a value after `{}:`", e[0].text),
                                "missing value",
                            );
                            continue;
                        }
                        args.push(Arg {
                            name: Some(word_of(&e[..1])),
                            value: expr_of(v),
                            span: span_of(e),
                        });
                    } else {
                        args.push(Arg {
                            name: None,
                            value: expr_of(e),
                            span: span_of(e),
                        });
                    }
                }
                Some(ClauseArgs::Args(args))
            }
            Shape::Wait => {
                let mut args = Vec::new();
                let mut rest = ts;
                if rest.len() >= 2 && rest[0].is("devnum") && rest[1].is(":") {
                    let after = &rest[2..];
                    let parts = split_top(after, ":");
                    if parts.len() < 2 {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            span_of(&rest[..2]),
                            "expected `:` after the `devnum` value",
                            "devnum without `:`",
                        );
                        return None;
                    }
                    let v = parts[0];
                    if v.is_empty() {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            rest[1].span,
                            "expected a value after `devnum:`",
                            "missing value",
                        );
                        return None;
                    }
                    args.push(Arg {
                        name: Some(word_of(&rest[..1])),
                        value: expr_of(v),
                        span: span_of(&rest[..2 + v.len()]),
                    });
                    rest = &after[v.len() + 1..];
                }
                let mut first = true;
                for e in split_top(rest, ",") {
                    if e.is_empty() {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            gspan,
                            format!("empty argument in `{clause}`"),
                            "empty argument",
                        );
                        continue;
                    }
                    if first && e.len() >= 2 && e[0].is("queues") && e[1].is(":") {
                        let v = &e[2..];
                        if v.is_empty() {
                            self.err(
                                codes::BAD_CLAUSE_ARG,
                                e[1].span,
                                "expected a value after `queues:`",
                                "missing value",
                            );
                            continue;
                        }
                        args.push(Arg {
                            name: Some(word_of(&e[..1])),
                            value: expr_of(v),
                            span: span_of(e),
                        });
                    } else {
                        args.push(Arg {
                            name: None,
                            value: expr_of(e),
                            span: span_of(e),
                        });
                    }
                    first = false;
                }
                Some(ClauseArgs::Args(args))
            }
            Shape::DeclareReduction => {
                let parts = split_top(ts, ":");
                if parts.len() < 3 || parts[..2].iter().any(|p| p.is_empty()) {
                    self.err(
                        codes::BAD_CLAUSE_ARG,
                        gspan,
                        "expected `declare reduction(identifier : type-list : combiner)`",
                        "malformed declare reduction",
                    );
                    return None;
                }
                let n0 = parts[0].len();
                let n1 = parts[1].len();
                let comb = &ts[n0 + n1 + 2..];
                if comb.is_empty() {
                    self.err(
                        codes::BAD_CLAUSE_ARG,
                        gspan,
                        "expected a combiner expression",
                        "missing combiner",
                    );
                    return None;
                }
                let ps = [parts[0], parts[1], comb];
                self.positional(&ps, gspan, clause)
            }
        }
    }

    fn doacross(&mut self, ts: &[Token], gspan: Span, clause: &str) -> Option<ClauseArgs> {
        let (pre, rest) = split_colon(ts);
        let Some(p) = pre else {
            self.err(
                codes::BAD_CLAUSE_ARG,
                gspan,
                format!("`{clause}` needs `source:` or `sink: vector`"),
                "expected `source:` or `sink:`",
            );
            return None;
        };
        if !is_single_ident(p) || !["source", "sink"].contains(&text_of(p).as_str()) {
            self.bad_word(
                p,
                &format!("dependence type of `{clause}`"),
                &["source", "sink"],
            );
        }
        let mut args = Vec::new();
        let entries = split_top(rest, ",");
        for (k, e) in entries.iter().enumerate() {
            if k == 0 {
                let value = if e.is_empty() {
                    let at = span_of(p).end + 1;
                    ExprText {
                        text: String::new(),
                        span: Span::new(at, at),
                    }
                } else {
                    expr_of(e)
                };
                let span = Span::new(span_of(p).start, value.span.end.max(span_of(p).end));
                args.push(Arg {
                    name: Some(word_of(p)),
                    value,
                    span,
                });
            } else if e.is_empty() {
                self.err(
                    codes::BAD_CLAUSE_ARG,
                    gspan,
                    format!("empty entry in `{clause}`"),
                    "empty entry",
                );
            } else {
                args.push(Arg {
                    name: None,
                    value: expr_of(e),
                    span: span_of(e),
                });
            }
        }
        Some(ClauseArgs::Args(args))
    }

    fn need_expr(&mut self, ts: &[Token], gspan: Span, clause: &str) -> Option<()> {
        if ts.is_empty() {
            self.err(
                codes::BAD_CLAUSE_ARG,
                gspan,
                format!("`{clause}` needs an expression"),
                "missing expression",
            );
            return None;
        }
        Some(())
    }

    fn too_many(&mut self, parts: &[&[Token]], max: usize, clause: &str) {
        if parts.len() > max {
            let extra: Vec<Token> = parts[max..]
                .iter()
                .flat_map(|p| p.iter().cloned())
                .collect();
            let span = if extra.is_empty() {
                self.group
            } else {
                span_of(&extra)
            };
            self.err(
                codes::BAD_CLAUSE_ARG,
                span,
                format!("too many arguments in `{clause}`"),
                "unexpected argument",
            );
        }
    }

    /// Unnamed `Args`, one per part; empty parts are reported and dropped.
    fn positional(&mut self, parts: &[&[Token]], gspan: Span, clause: &str) -> Option<ClauseArgs> {
        let mut args = Vec::new();
        for p in parts {
            if p.is_empty() {
                self.err(
                    codes::BAD_CLAUSE_ARG,
                    gspan,
                    format!("empty argument in `{clause}`"),
                    "empty argument",
                );
            } else {
                args.push(Arg {
                    name: None,
                    value: expr_of(p),
                    span: span_of(p),
                });
            }
        }
        if args.is_empty() {
            return None;
        }
        Some(ClauseArgs::Args(args))
    }

    /// E0104 for a word not in `allowed`, with a suggestion.
    fn bad_word(&mut self, ts: &[Token], what: &str, allowed: &[&str]) {
        let text = text_of(ts);
        let span = if ts.is_empty() {
            self.group
        } else {
            span_of(ts)
        };
        let key = ts.first().map(|t| t.text.as_str()).unwrap_or("");
        let guess = closest(key, allowed.iter().map(|a| a.trim_end_matches('(')));
        let help = match guess {
            Some(g) => Some(format!("did you mean `{g}`?")),
            None if allowed.len() <= 12 => Some(format!(
                "expected one of: {}",
                allowed
                    .iter()
                    .map(|a| format!("`{}`", a.trim_end_matches('(')))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            None => None,
        };
        let msg = if text.is_empty() {
            format!("missing {what}")
        } else {
            format!("`{text}` is not a valid {what}")
        };
        self.err_help(
            codes::BAD_CLAUSE_ARG,
            span,
            msg,
            format!("unknown {what}"),
            help,
        );
    }

    /// A comma-separated variable list. Bad items are reported and dropped.
    fn list(&mut self, ts: &[Token], gspan: Span) -> Vec<ListItem> {
        let mut items = Vec::new();
        if ts.is_empty() {
            self.err(
                codes::BAD_CLAUSE_ARG,
                gspan,
                "expected a list of variables",
                "empty list",
            );
            return items;
        }
        for e in split_top(ts, ",") {
            if e.is_empty() {
                self.err(
                    codes::BAD_CLAUSE_ARG,
                    gspan,
                    "empty list item",
                    "empty list item",
                );
                continue;
            }
            if let Some(item) = self.item(e) {
                items.push(item);
            }
        }
        items
    }

    /// `name (. member | -> member | [section])*`; trailing subscripts are the
    /// sections, anything between the name and them is the member path.
    fn item(&mut self, e: &[Token]) -> Option<ListItem> {
        if !e[0].is_ident() {
            self.err(
                codes::BAD_CLAUSE_ARG,
                span_of(e),
                format!("expected a variable name, found `{}`", e[0].text),
                "not a list item",
            );
            return None;
        }
        // Units after the name: (start, end, is_subscript).
        let mut parts: Vec<(usize, usize, bool)> = Vec::new();
        let mut i = 1;
        while i < e.len() {
            let t = &e[i];
            if (t.is(".") || t.is("->")) && e.get(i + 1).is_some_and(Token::is_ident) {
                parts.push((i, i + 2, false));
                i += 2;
            } else if t.is("[") {
                let Some(c) = matching(e, i) else {
                    self.err(
                        codes::PRAGMA_SYNTAX,
                        t.span,
                        "unclosed `[` in list item",
                        "this `[` is never closed",
                    );
                    return None;
                };
                if !e[c].is("]") {
                    self.err(
                        codes::PRAGMA_SYNTAX,
                        e[c].span,
                        "mismatched bracket in list item",
                        "expected `]`",
                    );
                    return None;
                }
                parts.push((i, c + 1, true));
                i = c + 1;
            } else {
                self.err(
                    codes::BAD_CLAUSE_ARG,
                    t.span,
                    format!(
                        "unexpected `{}` in list item; expected `[`, `.`, `->`, `,` or `)`",
                        t.text
                    ),
                    "unexpected token",
                );
                return None;
            }
        }
        let trailing = parts.iter().rev().take_while(|p| p.2).count();
        let split = parts.len() - trailing;
        let path_end = if split == 0 { 1 } else { parts[split - 1].1 };
        let path = if path_end > 1 {
            text_of(&e[1..path_end])
        } else {
            String::new()
        };
        let mut sections = Vec::new();
        for &(s, end, _) in &parts[split..] {
            let inner = &e[s + 1..end - 1];
            let span = Span::new(e[s].span.start, e[end - 1].span.end);
            let pieces = split_top(inner, ":");
            let opt = |ts: &[Token]| {
                if ts.is_empty() {
                    None
                } else {
                    Some(expr_of(ts))
                }
            };
            let section = match pieces.len() {
                1 => {
                    if inner.is_empty() {
                        self.err(
                            codes::BAD_CLAUSE_ARG,
                            span,
                            "empty subscript in list item",
                            "empty `[]`",
                        );
                        return None;
                    }
                    Section {
                        lower: Some(expr_of(inner)),
                        length: None,
                        stride: None,
                        is_index: true,
                        span,
                    }
                }
                2 | 3 => Section {
                    lower: opt(pieces[0]),
                    length: opt(pieces[1]),
                    stride: pieces.get(2).and_then(|p| opt(p)),
                    is_index: false,
                    span,
                },
                _ => {
                    self.err(
                        codes::BAD_CLAUSE_ARG,
                        span,
                        "an array section has at most three parts: `[lower : length : stride]`",
                        "too many `:`",
                    );
                    return None;
                }
            };
            if pieces.len() == 3 && pieces[2].is_empty() {
                self.err(
                    codes::BAD_CLAUSE_ARG,
                    span,
                    "expected a stride after the second `:`",
                    "missing stride",
                );
            }
            sections.push(section);
        }
        Some(ListItem {
            name: e[0].text.as_str().to_owned(),
            name_span: e[0].span,
            path,
            sections,
            span: span_of(e),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> (Option<Directive>, Vec<Diagnostic>) {
        parse_pragma(s, Span::new(0, s.len()))
    }

    fn ok(s: &str) -> Directive {
        let (d, diags) = parse(s);
        assert!(diags.is_empty(), "{s}: {diags:#?}");
        d.unwrap_or_else(|| panic!("no directive for {s}"))
    }

    #[test]
    fn longest_directive_name() {
        let d = ok("#pragma omp target teams distribute parallel for simd collapse(2)");
        assert_eq!(d.name, "target teams distribute parallel for simd");
        assert_eq!(d.clauses[0].name, "collapse");
        assert_eq!(ok("#pragma acc parallel loop gang").name, "parallel loop");
        assert_eq!(ok("#pragma omp cancel for").clauses[0].name, "for");
    }

    #[test]
    fn not_a_directive_pragma() {
        assert!(parse("#pragma once").0.is_none());
        assert!(parse("#pragma once").1.is_empty());
        assert!(parse("#define X 1").0.is_none());
    }

    #[test]
    fn map_clause() {
        let s = "#pragma omp target map(always, tofrom: a[0:n], s.b[:m][2]) ";
        let d = ok(s);
        let c = &d.clauses[0];
        let mods: Vec<&str> = c.modifiers().iter().map(|w| w.text.as_str()).collect();
        assert_eq!(mods, ["always", "tofrom"]);
        assert_eq!(c.items().len(), 2);
        assert_eq!(c.items()[1].path, ".b");
        assert_eq!(c.items()[1].sections.len(), 2);
        assert!(c.items()[1].sections[1].is_index);
        let sec = &c.items()[0].sections[0];
        assert_eq!(&s[sec.span.start..sec.span.end], "[0:n]");
    }

    #[test]
    fn ternary_in_expression() {
        let d = ok("#pragma omp parallel if(parallel: n > 1 ? a : b) num_threads(x ? 2 : 4)");
        let (m, e) = match &d.clauses[0].args {
            ClauseArgs::Expr { modifier, expr } => {
                (modifier.clone().unwrap().text, expr.text.clone())
            }
            a => panic!("{a:?}"),
        };
        assert_eq!((m.as_str(), e.as_str()), ("parallel", "n > 1 ? a : b"));
        assert_eq!(d.clauses[1].expr().unwrap().text, "x ? 2 : 4");
    }

    #[test]
    fn unclosed_paren_reports_and_stops() {
        let (d, diags) = parse("#pragma omp parallel private(a");
        assert!(d.unwrap().clauses.is_empty());
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].code, codes::PRAGMA_SYNTAX);
    }
}
