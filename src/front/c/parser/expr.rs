//! Expressions, by precedence climbing with tree-sitter-c's precedences:
//! comma < assignment < conditional < binary levels < cast / pointer <
//! sizeof < unary / update < call < field < subscript.

use super::*;

/// The binary operators and their levels (1: `||` ... 11: `*`).
const BINARY: [(&str, u8); 18] = [
    ("||", 1),
    ("&&", 2),
    ("|", 3),
    ("^", 4),
    ("&", 5),
    ("==", 6),
    ("!=", 6),
    ("<", 7),
    (">", 7),
    ("<=", 7),
    (">=", 7),
    ("<<", 9),
    (">>", 9),
    ("+", 10),
    ("-", 10),
    ("*", 11),
    ("/", 11),
    ("%", 11),
];

const ASSIGN: [&str; 11] = [
    "=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=",
];

impl P<'_> {
    /// The level of binary operator `k` tokens ahead.
    pub(super) fn binary_prec(&self, k: usize) -> Option<u8> {
        let Some(Tok::Punct(_)) = self.kind_at(k) else {
            return None;
        };
        let w = self.word(k);
        BINARY
            .iter()
            .find(|(o, _)| o.as_bytes() == w)
            .map(|&(_, p)| p)
    }

    /// `expression` or `comma_expression`.
    pub(super) fn comma_expression(&mut self) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.expression()?;
            if p.is(0, ",") {
                p.b.field(F_LEFT);
                p.bump();
                p.comma_expression()?;
                p.b.field(F_RIGHT);
                p.finish(mark, COMMA_EXPRESSION);
            }
            Ok(())
        })
    }

    /// `expression`: an assignment, conditional or binary expression.
    pub(super) fn expression(&mut self) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.conditional()?;
            if ASSIGN.iter().any(|o| p.is(0, o)) {
                p.b.field(F_LEFT);
                p.bump();
                p.b.field(F_OPERATOR);
                p.expression()?;
                p.b.field(F_RIGHT);
                p.finish(mark, ASSIGNMENT_EXPRESSION);
            }
            Ok(())
        })
    }

    pub(super) fn conditional(&mut self) -> PResult {
        let mark = self.b.mark();
        self.binary(1)?;
        if self.is(0, "?") {
            self.b.field(F_CONDITION);
            self.bump();
            if !self.is(0, ":") {
                self.comma_expression()?;
                self.b.field(F_CONSEQUENCE);
            }
            self.expect(":")?;
            self.nested(|p| p.conditional())?;
            self.b.field(F_ALTERNATIVE);
            self.finish(mark, CONDITIONAL_EXPRESSION);
        }
        Ok(())
    }

    /// Binary expressions of level `min` and above (left associative).
    pub(super) fn binary(&mut self, min: u8) -> PResult {
        let mark = self.b.mark();
        self.unary(true)?;
        while let Some(prec) = self.binary_prec(0).filter(|&p| p >= min) {
            self.b.field(F_LEFT);
            self.bump();
            self.b.field(F_OPERATOR);
            self.nested(|p| p.binary(prec + 1))?;
            self.b.field(F_RIGHT);
            self.finish(mark, BINARY_EXPRESSION);
        }
        Ok(())
    }

    /// A prefix expression or a primary one, then its postfix operators
    /// (`++` / `--` after it only when `update`).
    pub(super) fn unary(&mut self, update: bool) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.prefix()?;
            p.postfix(mark, update)
        })
    }

    pub(super) fn prefix(&mut self) -> PResult {
        let mark = self.b.mark();
        let signed_number = (self.is(0, "-") || self.is(0, "+"))
            && self.kind_at(1) == Some(Tok::Number)
            && self
                .tok(0)
                .zip(self.tok(1))
                .is_some_and(|(a, b)| a.end == b.start);
        if signed_number {
            let (a, b) = (self.tok(0).ok_or(Fail)?, self.tok(1).ok_or(Fail)?);
            self.bump_as(NUMBER_LITERAL);
            self.pos += 1;
            self.done = self.sig[self.pos - 1] as usize + 1;
            self.b.rekind(NUMBER_LITERAL);
            self.b.extend_last(b.end);
            let _ = a;
            return Ok(());
        }
        let (kind, update) = if ["!", "~", "-", "+"].iter().any(|o| self.is(0, o)) {
            (UNARY_EXPRESSION, false)
        } else if self.is(0, "*") || self.is(0, "&") {
            (POINTER_EXPRESSION, true)
        } else if self.is(0, "++") || self.is(0, "--") {
            (UPDATE_EXPRESSION, true)
        } else {
            return self.primary();
        };
        self.bump();
        self.b.field(F_OPERATOR);
        self.unary(update)?;
        self.b.field(F_ARGUMENT);
        self.finish(mark, kind);
        Ok(())
    }

    pub(super) fn postfix(&mut self, mark: usize, update: bool) -> PResult {
        loop {
            if self.is(0, "[") {
                self.b.field(F_ARGUMENT);
                self.bump();
                self.expression()?;
                self.b.field(F_INDEX);
                self.expect("]")?;
                self.finish(mark, SUBSCRIPT_EXPRESSION);
            } else if self.is(0, "(") {
                self.b.field(F_FUNCTION);
                self.argument_list()?;
                self.b.field(F_ARGUMENTS);
                self.finish(mark, CALL_EXPRESSION);
            } else if self.is(0, ".") || self.is(0, "->") {
                self.b.field(F_ARGUMENT);
                self.bump();
                self.b.field(F_OPERATOR);
                self.word_as(FIELD_IDENTIFIER)?;
                self.b.field(F_FIELD);
                self.finish(mark, FIELD_EXPRESSION);
            } else if update && (self.is(0, "++") || self.is(0, "--")) {
                self.b.field(F_ARGUMENT);
                self.bump();
                self.b.field(F_OPERATOR);
                self.finish(mark, UPDATE_EXPRESSION);
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn argument_list(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("(")?;
        if !self.is(0, ")") {
            loop {
                if self.is(0, "{") {
                    self.compound_statement()?;
                } else {
                    self.expression()?;
                }
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect(")")?;
        self.finish(mark, ARGUMENT_LIST);
        Ok(())
    }

    pub(super) fn primary(&mut self) -> PResult {
        let mark = self.b.mark();
        let t = self.tok(0).ok_or(Fail)?;
        match t.tok {
            Tok::Number => self.bump_as(NUMBER_LITERAL),
            Tok::Char => self.char_literal(),
            Tok::Str => self.strings(mark)?,
            Tok::Punct(_) if self.is(0, "(") => return self.parenthesized_or_cast(),
            Tok::Ident => return self.word_primary(mark),
            _ => return Err(Fail),
        }
        Ok(())
    }

    pub(super) fn word_primary(&mut self, mark: usize) -> PResult {
        match self.word(0) {
            b"true" | b"TRUE" => self.bump_as(TRUE),
            b"false" | b"FALSE" => self.bump_as(FALSE),
            b"NULL" | b"nullptr" => {
                self.bump();
                self.finish(mark, NULL);
            }
            b"sizeof" => return self.sizeof_expression(),
            b"__alignof__" | b"__alignof" | b"_alignof" | b"alignof" | b"_Alignof" => {
                self.bump();
                self.expect("(")?;
                self.type_descriptor()?;
                self.b.field(F_TYPE);
                self.expect(")")?;
                self.finish(mark, ALIGNOF_EXPRESSION);
            }
            b"offsetof" => {
                self.bump();
                self.expect("(")?;
                self.type_descriptor()?;
                self.b.field(F_TYPE);
                self.expect(",")?;
                self.ident_as(FIELD_IDENTIFIER)?;
                self.b.field(F_MEMBER);
                self.expect(")")?;
                self.finish(mark, OFFSETOF_EXPRESSION);
            }
            b"__extension__" => {
                self.bump();
                self.expression()?;
                self.finish(mark, EXTENSION_EXPRESSION);
            }
            b"asm" | b"__asm__" | b"__asm" => return self.gnu_asm(),
            _ if self.is_ident(0) => {
                if self.kind_at(1) == Some(Tok::Str) {
                    return self.strings(mark);
                }
                self.bump_as(IDENTIFIER);
            }
            _ => return Err(Fail),
        }
        Ok(())
    }

    pub(super) fn sizeof_expression(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        // `sizeof(name)` and `sizeof(name[2])` read as expressions, but
        // `sizeof(name)(x)` as a call of `sizeof(type)`.
        let type_like = self.is(2, "*") || self.is_ident(2) || (self.is(2, ")") && self.is(3, "("));
        let expr_first = self.is_ident(1) && !type_like;
        if self.is(0, "(") && (self.starts_type(1) || (self.is_ident(1) && !expr_first)) {
            let typed = self.attempt(|p| {
                p.bump();
                p.type_descriptor()?;
                p.b.field(F_TYPE);
                p.expect(")")?;
                if p.is(0, "{") {
                    return Err(Fail);
                }
                Ok(())
            });
            if typed.is_ok() {
                self.finish(mark, SIZEOF_EXPRESSION);
                return Ok(());
            }
        }
        self.unary(true)?;
        self.b.field(F_VALUE);
        self.finish(mark, SIZEOF_EXPRESSION);
        Ok(())
    }

    pub(super) fn parenthesized_expression(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("(")?;
        if self.is(0, "{") {
            self.compound_statement()?;
        } else {
            self.comma_expression()?;
        }
        self.expect(")")?;
        self.finish(mark, PARENTHESIZED_EXPRESSION);
        Ok(())
    }

    /// `(type) value`, `(type) { ... }` or `( expression )`.
    pub(super) fn parenthesized_or_cast(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.starts_type(1)
            || (self.is_ident(1) && self.is(2, ")") && self.cast_follows(3))
            || (self.is_ident(1) && (self.is(2, "*") && (self.is(3, ")") || self.is(3, "*"))))
        {
            let s = self.state();
            if self.cast_or_literal(mark).is_ok() {
                return Ok(());
            }
            self.restore(s);
        }
        self.parenthesized_expression()
    }

    /// Whether token `k` can start the operand of a cast `(name)` and not
    /// continue `(name)` as an expression.
    pub(super) fn cast_follows(&self, k: usize) -> bool {
        match self.kind_at(k) {
            Some(Tok::Ident) => !self.is_word(k, "else"),
            Some(Tok::Number | Tok::Char | Tok::Str) => true,
            // `(name)(x)` is a call, `(name) - x` a binary expression.
            Some(Tok::Punct(_)) => ["!", "~", "{", "++", "--"].iter().any(|o| self.is(k, o)),
            _ => false,
        }
    }

    pub(super) fn cast_or_literal(&mut self, mark: usize) -> PResult {
        self.bump();
        self.type_descriptor()?;
        self.b.field(F_TYPE);
        self.expect(")")?;
        if self.is(0, "{") {
            self.initializer_list()?;
            self.b.field(F_VALUE);
            self.finish(mark, COMPOUND_LITERAL_EXPRESSION);
            return Ok(());
        }
        self.unary(true)?;
        self.b.field(F_VALUE);
        self.finish(mark, CAST_EXPRESSION);
        Ok(())
    }

    /// A string literal, or strings and names side by side.
    pub(super) fn strings(&mut self, mark: usize) -> PResult {
        let mut n = 0;
        loop {
            match self.kind_at(0) {
                Some(Tok::Str) => self.string_literal(),
                Some(Tok::Ident)
                    if self.is_ident(0) && (n > 0 || self.kind_at(1) == Some(Tok::Str)) =>
                {
                    self.bump_as(IDENTIFIER)
                }
                _ => break,
            }
            n += 1;
        }
        if n > 1 {
            self.finish(mark, CONCATENATED_STRING);
        }
        Ok(())
    }

    /// A string literal: its opening quote, contents and escapes, closing
    /// quote.
    pub(super) fn string_literal(&mut self) {
        self.quoted_literal(STRING_LITERAL, b'"');
    }

    pub(super) fn char_literal(&mut self) {
        self.quoted_literal(CHAR_LITERAL, b'\'');
    }

    pub(super) fn quoted_literal(&mut self, kind: u16, quote: u8) {
        let Some(&i) = self.sig.get(self.pos) else {
            return;
        };
        self.comments_up_to(i as usize);
        self.done = i as usize + 1;
        self.pos += 1;
        let t = self.toks[i as usize];
        let mark = self.b.mark();
        super::super::literal::pieces(&mut self.b, self.src, t, quote);
        self.finish(mark, kind);
    }

    pub(super) fn gnu_asm(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        while self.is_any_word(&["volatile", "__volatile__", "inline", "goto"]) {
            let q = self.b.mark();
            self.bump();
            self.finish(q, GNU_ASM_QUALIFIER);
        }
        self.expect("(")?;
        let s = self.b.mark();
        self.strings(s)?;
        self.b.field(F_ASSEMBLY_CODE);
        let lists = [
            (GNU_ASM_OUTPUT_OPERAND_LIST, F_OUTPUT_OPERANDS),
            (GNU_ASM_INPUT_OPERAND_LIST, F_INPUT_OPERANDS),
            (GNU_ASM_CLOBBER_LIST, F_CLOBBERS),
            (GNU_ASM_GOTO_LIST, F_GOTO_LABELS),
        ];
        for (kind, field) in lists {
            if !self.is(0, ":") {
                break;
            }
            let l = self.b.mark();
            self.bump();
            while !self.is(0, ":") && !self.is(0, ")") {
                self.asm_item(kind)?;
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
            self.finish(l, kind);
            self.b.field(field);
        }
        self.expect(")")?;
        self.finish(mark, GNU_ASM_EXPRESSION);
        Ok(())
    }

    pub(super) fn asm_item(&mut self, list: u16) -> PResult {
        let mark = self.b.mark();
        match list {
            GNU_ASM_CLOBBER_LIST => {
                self.strings(mark)?;
                self.b.field(F_REGISTER);
                return Ok(());
            }
            GNU_ASM_GOTO_LIST => {
                self.ident_as(IDENTIFIER)?;
                self.b.field(F_LABEL);
                return Ok(());
            }
            _ => {}
        }
        if self.is(0, "[") {
            self.bump();
            self.ident_as(IDENTIFIER)?;
            self.b.field(F_SYMBOL);
            self.expect("]")?;
        }
        self.string_literal();
        self.b.field(F_CONSTRAINT);
        self.expect("(")?;
        self.expression()?;
        self.b.field(F_VALUE);
        self.expect(")")?;
        let kind = if list == GNU_ASM_OUTPUT_OPERAND_LIST {
            GNU_ASM_OUTPUT_OPERAND
        } else {
            GNU_ASM_INPUT_OPERAND
        };
        self.finish(mark, kind);
        self.b.field(F_OPERAND);
        Ok(())
    }

    pub(super) fn is_any_word(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.is_word(0, w))
    }
}
