//! The C tokens of the masked text, comments and preprocessor lines
//! included. Whitespace and backslash-newlines separate tokens; a `#` that
//! starts a directive switches to the line mode of that directive (see
//! [`super::pplex`]).

use super::kinds;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident,
    Number,
    /// A character literal, its prefix included.
    Char,
    /// A string literal, its prefix included.
    Str,
    /// Punctuation or an operator: its anonymous kind.
    Punct(u16),
    Comment,
    /// `<...>` after `#include`.
    SysLib,
    /// `#` and the directive's name.
    Directive(Pp),
    /// The rest of a `#define` or unknown directive's line.
    PpArg,
    /// The newline ending `#if` / `#elif` (a visible `\n` token).
    PpNl,
    /// The newline ending `#include`, `#define` or an unknown directive
    /// (part of the directive's node, not a node of its own).
    PpEnd,
    /// A byte no token starts with.
    Unknown,
}

/// The directives the grammar knows; anything else is [`Pp::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pp {
    Include,
    Define,
    If,
    Ifdef,
    Ifndef,
    Elif,
    Elifdef,
    Elifndef,
    Else,
    Endif,
    Other,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub tok: Tok,
    pub start: u32,
    pub end: u32,
}

/// The tokens of `src`.
pub fn lex(src: &[u8]) -> Vec<Token> {
    let mut lx = Lexer {
        src,
        at: 0,
        out: Vec::with_capacity(src.len() / 4),
    };
    lx.run();
    lx.out
}

pub(super) struct Lexer<'s> {
    pub src: &'s [u8],
    pub at: usize,
    pub out: Vec<Token>,
}

/// `]]` is two tokens: the parser joins them where an attribute ends
/// (`a[b[i]]` is two subscripts).
const PUNCTS: [&str; 53] = [
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=",
    "-=", "*=", "/=", "%=", "&=", "^=", "|=", "[[", "::", "(", ")", "[", "]", "{", "}", ",", ";",
    ":", "?", "=", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "<", ">", ".", "\"", "'",
    "L\"", "u\"", "U\"",
];

impl<'s> Lexer<'s> {
    pub(super) fn peek(&self, k: usize) -> u8 {
        self.src.get(self.at + k).copied().unwrap_or(0)
    }

    pub(super) fn push(&mut self, tok: Tok, start: usize) {
        self.out.push(Token {
            tok,
            start: start as u32,
            end: self.at as u32,
        });
    }

    fn run(&mut self) {
        loop {
            self.skip_space(true);
            if self.at >= self.src.len() {
                return;
            }
            if self.peek(0) == b'#' && self.directive() {
                continue;
            }
            self.token();
        }
    }

    /// Skips blanks and backslash-newlines; newlines too when `newlines`.
    /// Returns false at a newline that ends a line in line mode.
    pub fn skip_space(&mut self, newlines: bool) -> bool {
        loop {
            match self.peek(0) {
                b' ' | b'\t' | 0x0b | 0x0c => self.at += 1,
                b'\r' if self.peek(1) != b'\n' || newlines => self.at += 1,
                b'\n' if newlines => self.at += 1,
                b'\\' if self.peek(1) == b'\n' => self.at += 2,
                b'\\' if self.peek(1) == b'\r' && self.peek(2) == b'\n' => self.at += 3,
                _ => return true,
            }
        }
    }

    /// One token at `self.at` (not whitespace, not end of input).
    pub fn token(&mut self) {
        let start = self.at;
        let c = self.peek(0);
        if c == b'/' && self.peek(1) == b'/' {
            self.line_comment();
            return self.push(Tok::Comment, start);
        }
        if c == b'/' && self.peek(1) == b'*' {
            self.block_comment();
            return self.push(Tok::Comment, start);
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) {
            self.number();
            return self.push(Tok::Number, start);
        }
        if is_ident_start(c) {
            while is_ident_char(self.peek(0)) {
                self.at += 1;
            }
            let word = &self.src[start..self.at];
            let q = self.peek(0);
            if matches!(word, b"L" | b"u" | b"U" | b"u8") && (q == b'"' || q == b'\'') {
                self.at += 1;
                self.quoted(q);
                let tok = if q == b'"' { Tok::Str } else { Tok::Char };
                return self.push(tok, start);
            }
            return self.push(Tok::Ident, start);
        }
        if c == b'"' || c == b'\'' {
            self.at += 1;
            self.quoted(c);
            let tok = if c == b'"' { Tok::Str } else { Tok::Char };
            return self.push(tok, start);
        }
        for p in PUNCTS {
            if self.src[self.at..].starts_with(p.as_bytes()) && !p.contains(['"', '\'']) {
                self.at += p.len();
                let kind = kinds::anon(p).unwrap_or(kinds::ERROR);
                return self.push(Tok::Punct(kind), start);
            }
        }
        // One character (a whole UTF-8 sequence).
        self.at += 1;
        while self.peek(0) & 0xc0 == 0x80 {
            self.at += 1;
        }
        self.push(Tok::Unknown, start)
    }

    fn line_comment(&mut self) {
        while self.at < self.src.len() {
            match self.peek(0) {
                b'\n' => return,
                b'\\' if self.peek(1) == b'\n' => self.at += 2,
                b'\\' if self.peek(1) == b'\r' && self.peek(2) == b'\n' => self.at += 3,
                _ => self.at += 1,
            }
        }
    }

    fn block_comment(&mut self) {
        self.at += 2;
        while self.at < self.src.len() {
            if self.peek(0) == b'*' && self.peek(1) == b'/' {
                self.at += 2;
                return;
            }
            self.at += 1;
        }
    }

    /// The rest of a pp-number: digits, letters, `'`, `.` and exponent signs.
    fn number(&mut self) {
        loop {
            let c = self.peek(0);
            if matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(self.peek(1), b'+' | b'-') {
                self.at += 2;
            } else if c.is_ascii_alphanumeric()
                || c == b'.'
                || c == b'_'
                || (c == b'\'' && self.peek(1).is_ascii_alphanumeric())
            {
                self.at += 1;
            } else {
                return;
            }
        }
    }

    /// The rest of a quoted literal after its opening quote `q`; stops at
    /// an unescaped newline.
    fn quoted(&mut self, q: u8) {
        while self.at < self.src.len() {
            match self.peek(0) {
                c if c == q => {
                    self.at += 1;
                    return;
                }
                b'\n' => return,
                b'\\' if self.at + 1 < self.src.len() => self.at += 2,
                _ => self.at += 1,
            }
        }
    }
}

pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

pub fn is_ident_char(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}
