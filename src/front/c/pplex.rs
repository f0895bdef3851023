//! The tokens of a preprocessor line: the directive, then what the
//! grammar reads after it (a path, a name and value, a condition, or the
//! raw rest of the line), then the newline where the grammar has one.

use super::lexer::{is_ident_char, is_ident_start, Lexer, Pp, Tok};

impl Lexer<'_> {
    /// A directive at `#`; false (nothing consumed) when `#` starts none.
    pub(super) fn directive(&mut self) -> bool {
        let start = self.at;
        let mut k = 1;
        while matches!(self.peek(k), b' ' | b'\t') {
            k += 1;
        }
        let word_at = self.at + k;
        let mut end = word_at;
        while end < self.src.len() && is_ident_char(self.src[end]) {
            end += 1;
        }
        if end == word_at {
            return false;
        }
        let pp = match &self.src[word_at..end] {
            b"include" => Pp::Include,
            b"define" => Pp::Define,
            b"if" => Pp::If,
            b"ifdef" => Pp::Ifdef,
            b"ifndef" => Pp::Ifndef,
            b"elif" => Pp::Elif,
            b"elifdef" => Pp::Elifdef,
            b"elifndef" => Pp::Elifndef,
            b"else" => Pp::Else,
            b"endif" => Pp::Endif,
            _ => Pp::Other,
        };
        self.at = end;
        self.push(Tok::Directive(pp), start);
        match pp {
            Pp::Include => self.line_tokens(true, Some(Tok::PpEnd)),
            Pp::If | Pp::Elif => self.line_tokens(false, Some(Tok::PpNl)),
            Pp::Ifdef | Pp::Ifndef | Pp::Elifdef | Pp::Elifndef | Pp::Else | Pp::Endif => {
                self.line_tokens(false, None)
            }
            Pp::Define => self.define(),
            Pp::Other => self.arg_line(),
        }
        true
    }

    /// Ordinary tokens up to the end of the line, then `end` (the newline).
    fn line_tokens(&mut self, include: bool, end: Option<Tok>) {
        loop {
            self.skip_space(false);
            if self.at >= self.src.len() {
                return;
            }
            if self.newline_here() {
                return self.newline(end);
            }
            if include && self.peek(0) == b'<' {
                self.system_lib_string();
                continue;
            }
            self.token();
        }
    }

    fn newline_here(&self) -> bool {
        self.peek(0) == b'\n' || (self.peek(0) == b'\r' && self.peek(1) == b'\n')
    }

    fn newline(&mut self, end: Option<Tok>) {
        let start = self.at;
        self.at += if self.peek(0) == b'\r' { 2 } else { 1 };
        if let Some(tok) = end {
            self.push(tok, start);
        }
    }

    fn system_lib_string(&mut self) {
        let start = self.at;
        let mut k = 1;
        loop {
            match self.peek(k) {
                b'>' => {
                    self.at += k + 1;
                    return self.push(Tok::SysLib, start);
                }
                b'\\' if self.peek(k + 1) == b'>' => k += 2,
                b'\n' | 0 => break,
                _ => k += 1,
            }
        }
        self.token();
    }

    /// `#define NAME`, its parameters when `(` follows at once, its value.
    fn define(&mut self) {
        self.skip_space(false);
        if !is_ident_start(self.peek(0)) {
            return self.arg_line();
        }
        let start = self.at;
        while is_ident_char(self.peek(0)) {
            self.at += 1;
        }
        self.push(Tok::Ident, start);
        if self.peek(0) == b'(' {
            loop {
                self.skip_space(false);
                if self.at >= self.src.len() || self.newline_here() {
                    break;
                }
                let close = self.peek(0) == b')';
                self.token();
                if close {
                    break;
                }
            }
        }
        self.arg_line();
    }

    /// The rest of the line as one argument (comments apart), then the
    /// newline.
    fn arg_line(&mut self) {
        loop {
            self.skip_space(false);
            if self.at >= self.src.len() {
                return;
            }
            if self.newline_here() {
                return self.newline(Some(Tok::PpEnd));
            }
            if self.peek(0) == b'/' && matches!(self.peek(1), b'*' | b'/') {
                self.token();
                continue;
            }
            self.preproc_arg();
        }
    }

    /// A non-blank, then anything but a newline or the start of `/*`; a
    /// backslash-newline continues it.
    fn preproc_arg(&mut self) {
        let start = self.at;
        self.at += 1;
        while self.at < self.src.len() {
            match self.peek(0) {
                b'\n' => break,
                b'\\' if self.peek(1) == b'\n' => self.at += 2,
                b'\\' if self.peek(1) == b'\r' && self.peek(2) == b'\n' => self.at += 3,
                b'/' if self.peek(1) == b'*' => break,
                b'/' if self.at + 1 < self.src.len() => self.at += 2,
                _ => self.at += 1,
            }
        }
        self.push(Tok::PpArg, start);
    }
}
