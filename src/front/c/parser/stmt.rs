//! Statements.

use super::items::Ctx;
use super::*;

impl P<'_> {
    pub(super) fn compound_statement(&mut self) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.expect("{")?;
            p.items(Ctx::Block, false);
            p.expect("}")?;
            p.finish(mark, COMPOUND_STATEMENT);
            Ok(())
        })
    }

    /// A statement (`statement`: no declaration).
    pub(super) fn statement(&mut self) -> PResult {
        self.statement_in(false)
    }

    /// A statement; at the top level an expression statement has no binary
    /// expression at its root.
    pub(super) fn statement_in(&mut self, top: bool) -> PResult {
        self.nested(|p| p.statement_inner(top))
    }

    pub(super) fn statement_inner(&mut self, top: bool) -> PResult {
        let mark = self.b.mark();
        if self.is(0, "{") {
            return self.compound_statement();
        }
        if self.is(0, ";") {
            self.bump();
            self.finish(mark, EXPRESSION_STATEMENT);
            return Ok(());
        }
        if self.kind_at(0) == Some(Tok::Ident) {
            match self.word(0) {
                b"if" => return self.if_statement(),
                b"while" => return self.while_statement(),
                b"do" => return self.do_statement(),
                b"for" => return self.for_statement(),
                b"switch" => return self.switch_statement(),
                b"case" | b"default" => return self.case_statement(),
                b"return" => return self.return_statement(),
                b"break" | b"continue" => {
                    let kind = if self.word(0) == b"break" {
                        BREAK_STATEMENT
                    } else {
                        CONTINUE_STATEMENT
                    };
                    self.bump();
                    self.expect(";")?;
                    self.finish(mark, kind);
                    return Ok(());
                }
                b"goto" => {
                    self.bump();
                    self.ident_as(STATEMENT_IDENTIFIER)?;
                    self.b.field(F_LABEL);
                    self.expect(";")?;
                    self.finish(mark, GOTO_STATEMENT);
                    return Ok(());
                }
                _ => {}
            }
            if self.is_ident(0) && self.is(1, ":") {
                return self.labeled_statement();
            }
        }
        self.expression_statement(top)
    }

    pub(super) fn expression_statement(&mut self, top: bool) -> PResult {
        let mark = self.b.mark();
        self.comma_expression()?;
        if top && self.b.last_kind(mark) == Some(BINARY_EXPRESSION) {
            return Err(Fail);
        }
        self.expect(";")?;
        self.finish(mark, EXPRESSION_STATEMENT);
        Ok(())
    }

    pub(super) fn labeled_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump_as(STATEMENT_IDENTIFIER);
        self.b.field(F_LABEL);
        self.bump();
        if self.starts_declaration(0) {
            self.declaration_or_definition()?;
        } else {
            self.statement()?;
        }
        self.finish(mark, LABELED_STATEMENT);
        Ok(())
    }

    pub(super) fn condition(&mut self) -> PResult {
        self.parenthesized_expression()?;
        self.b.field(F_CONDITION);
        Ok(())
    }

    pub(super) fn if_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.condition()?;
        self.statement()?;
        self.b.field(F_CONSEQUENCE);
        if self.is_word(0, "else") {
            let e = self.b.mark();
            self.bump();
            self.statement()?;
            self.finish(e, ELSE_CLAUSE);
            self.b.field(F_ALTERNATIVE);
        }
        self.finish(mark, IF_STATEMENT);
        Ok(())
    }

    pub(super) fn while_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.condition()?;
        self.statement()?;
        self.b.field(F_BODY);
        self.finish(mark, WHILE_STATEMENT);
        Ok(())
    }

    pub(super) fn do_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.statement()?;
        self.b.field(F_BODY);
        self.expect_word("while")?;
        self.condition()?;
        self.expect(";")?;
        self.finish(mark, DO_STATEMENT);
        Ok(())
    }

    pub(super) fn switch_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.condition()?;
        self.compound_statement()?;
        self.b.field(F_BODY);
        self.finish(mark, SWITCH_STATEMENT);
        Ok(())
    }

    pub(super) fn case_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.is_word(0, "case") {
            self.bump();
            self.expression()?;
            self.b.field(F_VALUE);
        } else {
            self.bump();
        }
        self.expect(":")?;
        while !self.at_end()
            && !self.is(0, "}")
            && !self.is_word(0, "case")
            && !self.is_word(0, "default")
            && self.is_directive(0).is_none()
        {
            let s = self.state();
            if self.is_word(0, "typedef") {
                self.type_definition()?;
            } else if self.starts_declaration(0) {
                self.declaration_or_definition()?;
            } else if self.block_item(false).is_err() {
                self.restore(s);
                let m = self.b.mark();
                self.recover(m, Ctx::Block);
            }
        }
        self.finish(mark, CASE_STATEMENT);
        Ok(())
    }

    pub(super) fn return_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        if !self.is(0, ";") {
            self.comma_expression()?;
        }
        self.expect(";")?;
        self.finish(mark, RETURN_STATEMENT);
        Ok(())
    }

    pub(super) fn for_statement(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.expect("(")?;
        self.for_initializer()?;
        if !self.is(0, ";") {
            self.comma_expression()?;
            self.b.field(F_CONDITION);
        }
        self.expect(";")?;
        if !self.is(0, ")") {
            self.comma_expression()?;
            self.b.field(F_UPDATE);
        }
        self.expect(")")?;
        self.statement()?;
        self.b.field(F_BODY);
        self.finish(mark, FOR_STATEMENT);
        Ok(())
    }

    /// A declaration, or an optional expression and `;`.
    pub(super) fn for_initializer(&mut self) -> PResult {
        if self.is(0, ";") {
            self.bump();
            return Ok(());
        }
        let decl = self.starts_declaration(0)
            || (self.is_ident(0)
                && self
                    .attempt(|p| {
                        let s = p.b.save();
                        p.declaration_or_definition()?;
                        if p.b.dyn_prec(s) < 0 {
                            return Err(Fail);
                        }
                        Ok(())
                    })
                    .is_ok()
                && {
                    self.b.field(F_INITIALIZER);
                    return Ok(());
                });
        if decl {
            self.declaration_or_definition()?;
            self.b.field(F_INITIALIZER);
            return Ok(());
        }
        self.comma_expression()?;
        self.b.field(F_INITIALIZER);
        self.expect(";")
    }
}
