//! Recursive descent over the tokens, building tree-sitter-c's tree shape.
//! Where the grammar is ambiguous (a statement that starts with an
//! identifier, `(name)` before an operand) both readings are tried and the
//! one tree-sitter keeps is chosen by its dynamic precedence.

mod decl;
mod expr;
mod items;
mod preproc;
mod stmt;

use super::build::{Builder, Saved};
use super::kinds::{self, *};
use super::lexer::{Pp, Tok, Token};
use super::tree::Tree;

/// Nesting of the parser's own recursion that is refused (the tree would be
/// at least this deep, beyond `front::depth`'s limit).
pub const MAX_PARSE_DEPTH: u32 = 100_001;

/// A failed reading: the caller restores and tries another or recovers.
pub(super) struct Fail;

pub(super) type PResult = Result<(), Fail>;

pub(super) struct P<'s> {
    src: &'s [u8],
    toks: Vec<Token>,
    /// Indices in `toks` of the tokens that are not comments.
    sig: Vec<u32>,
    /// The next significant token, an index in `sig`.
    pos: usize,
    /// The first token of `toks` not yet in the tree.
    done: usize,
    b: Builder,
    depth: u32,
    too_deep: Option<usize>,
}

/// Where the parser is, to come back to.
#[derive(Clone, Copy)]
pub(super) struct State {
    pos: usize,
    done: usize,
    built: Saved,
}

/// Parses `src` (C with preprocessor lines) into a tree.
pub fn parse(src: &[u8], toks: Vec<Token>) -> Tree {
    let sig = toks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.tok != Tok::Comment)
        .map(|(i, _)| i as u32)
        .collect();
    let mut p = P {
        src,
        b: Builder::with_capacity(toks.len() * 2),
        toks,
        sig,
        pos: 0,
        done: 0,
        depth: 0,
        too_deep: None,
    };
    p.translation_unit();
    let too_deep = p.too_deep;
    p.b.into_tree(TRANSLATION_UNIT, src, too_deep)
}

impl<'s> P<'s> {
    fn translation_unit(&mut self) {
        self.items(items::Ctx::Top, false);
        self.comments_up_to(self.toks.len());
        if let Some(at) = self.too_deep {
            self.b = Builder::default();
            self.b.leaf(ERROR, at as u32, self.src.len() as u32);
        }
    }

    fn state(&self) -> State {
        State {
            pos: self.pos,
            done: self.done,
            built: self.b.save(),
        }
    }

    fn restore(&mut self, s: State) {
        self.pos = s.pos;
        self.done = s.done;
        self.b.restore(s.built);
    }

    /// The `k`-th significant token ahead.
    fn tok(&self, k: usize) -> Option<Token> {
        let i = *self.sig.get(self.pos + k)?;
        Some(self.toks[i as usize])
    }

    fn at_end(&self) -> bool {
        self.pos >= self.sig.len()
    }

    fn kind_at(&self, k: usize) -> Option<Tok> {
        self.tok(k).map(|t| t.tok)
    }

    fn text(&self, t: Token) -> &'s [u8] {
        &self.src[t.start as usize..t.end as usize]
    }

    /// The text of the `k`-th token ahead ("" past the end).
    fn word(&self, k: usize) -> &'s [u8] {
        self.tok(k).map_or(b"", |t| self.text(t))
    }

    /// Whether the `k`-th token ahead is punctuation `p`.
    fn is(&self, k: usize, p: &str) -> bool {
        match self.tok(k) {
            Some(Token {
                tok: Tok::Punct(_), ..
            }) => self.word(k) == p.as_bytes(),
            _ => false,
        }
    }

    /// Whether the `k`-th token ahead is identifier-like with text `w`.
    fn is_word(&self, k: usize, w: &str) -> bool {
        self.kind_at(k) == Some(Tok::Ident) && self.word(k) == w.as_bytes()
    }

    fn is_directive(&self, k: usize) -> Option<Pp> {
        match self.kind_at(k) {
            Some(Tok::Directive(pp)) => Some(pp),
            _ => None,
        }
    }

    /// An identifier that is not a keyword.
    fn is_ident(&self, k: usize) -> bool {
        self.kind_at(k) == Some(Tok::Ident) && !is_keyword(self.word(k))
    }

    /// Puts the comments before token index `upto` into the tree.
    fn comments_up_to(&mut self, upto: usize) {
        while self.done < upto {
            let t = self.toks[self.done];
            if t.tok == Tok::Comment {
                self.b.leaf(COMMENT, t.start, t.end);
            }
            self.done += 1;
        }
    }

    /// Consumes the next token as a leaf of kind `kind`.
    fn bump_as(&mut self, kind: u16) {
        let Some(&i) = self.sig.get(self.pos) else {
            return;
        };
        self.comments_up_to(i as usize);
        let t = self.toks[i as usize];
        self.b.leaf(kind, t.start, t.end);
        self.done = i as usize + 1;
        self.pos += 1;
    }

    /// Consumes the next token as the anonymous token it spells.
    fn bump(&mut self) {
        let Some(t) = self.tok(0) else { return };
        let kind = match t.tok {
            Tok::Punct(k) => k,
            Tok::Number => NUMBER_LITERAL,
            Tok::Ident if is_primitive(self.text(t)) => PRIMITIVE_TYPE,
            Tok::Ident => {
                kinds::anon(std::str::from_utf8(self.text(t)).unwrap_or("")).unwrap_or(IDENTIFIER)
            }
            Tok::Str => return self.string_literal(),
            Tok::Char => return self.char_literal(),
            Tok::Comment => COMMENT,
            Tok::SysLib => SYSTEM_LIB_STRING,
            Tok::PpArg => PREPROC_ARG,
            _ => ERROR,
        };
        self.bump_as(kind);
    }

    /// Consumes punctuation `p` or fails.
    fn expect(&mut self, p: &str) -> PResult {
        if self.is(0, p) {
            self.bump();
            Ok(())
        } else {
            Err(Fail)
        }
    }

    /// Consumes keyword `w` or fails.
    fn expect_word(&mut self, w: &str) -> PResult {
        if self.is_word(0, w) {
            self.bump();
            Ok(())
        } else {
            Err(Fail)
        }
    }

    /// Consumes an identifier as a leaf of kind `kind` or fails.
    fn ident_as(&mut self, kind: u16) -> PResult {
        if self.is_ident(0) {
            self.bump_as(kind);
            Ok(())
        } else {
            Err(Fail)
        }
    }

    /// Consumes any word as a leaf of kind `kind` (where tree-sitter
    /// expects only a name, a keyword is read as one: `enum { false }`).
    fn word_as(&mut self, kind: u16) -> PResult {
        if self.kind_at(0) == Some(Tok::Ident) {
            self.bump_as(kind);
            Ok(())
        } else {
            Err(Fail)
        }
    }

    fn finish(&mut self, mark: usize, kind: u16) {
        self.b.finish(mark, kind);
    }

    /// Enters one level of recursion; fails past [`MAX_PARSE_DEPTH`].
    fn enter(&mut self) -> PResult {
        self.depth += 1;
        if self.depth > MAX_PARSE_DEPTH {
            if self.too_deep.is_none() {
                self.too_deep = Some(self.tok(0).map_or(self.src.len(), |t| t.start as usize));
            }
            self.depth -= 1;
            return Err(Fail);
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Runs `f` one recursion level deeper.
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> PResult) -> PResult {
        self.enter()?;
        let r = if self.too_deep.is_some() {
            Err(Fail)
        } else {
            f(self)
        };
        self.leave();
        r
    }

    /// Runs `f`; on failure puts the parser back where it was.
    fn attempt(&mut self, f: impl FnOnce(&mut Self) -> PResult) -> PResult {
        let s = self.state();
        let r = f(self);
        if r.is_err() {
            self.restore(s);
        }
        r
    }
}

/// Words the grammar reads as keywords wherever they appear.
pub(super) fn is_keyword(w: &[u8]) -> bool {
    let Ok(w) = std::str::from_utf8(w) else {
        return false;
    };
    if w == "defined" {
        return false;
    }
    kinds::anon(w).is_some()
        || is_primitive(w.as_bytes())
        || matches!(w, "true" | "false" | "TRUE" | "FALSE")
}

pub(super) fn is_primitive(w: &[u8]) -> bool {
    matches!(
        w,
        b"bool"
            | b"char"
            | b"int"
            | b"float"
            | b"double"
            | b"void"
            | b"size_t"
            | b"ssize_t"
            | b"ptrdiff_t"
            | b"intptr_t"
            | b"uintptr_t"
            | b"charptr_t"
            | b"nullptr_t"
            | b"max_align_t"
            | b"int8_t"
            | b"int16_t"
            | b"int32_t"
            | b"int64_t"
            | b"uint8_t"
            | b"uint16_t"
            | b"uint32_t"
            | b"uint64_t"
            | b"char8_t"
            | b"char16_t"
            | b"char32_t"
            | b"char64_t"
    )
}
