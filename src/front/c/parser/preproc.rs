//! Preprocessor lines: `#include`, `#define`, the conditionals (whose
//! branches hold items of the enclosing list) and any other directive as
//! `preproc_call`.

use super::items::Ctx;
use super::*;

impl P<'_> {
    pub(super) fn preproc(&mut self, pp: Pp, ctx: Ctx) -> PResult {
        match pp {
            Pp::Include => self.preproc_include(),
            Pp::Define => self.preproc_define(),
            Pp::If | Pp::Ifdef | Pp::Ifndef => self.preproc_if(ctx),
            Pp::Other => self.preproc_call(),
            _ => Err(Fail),
        }
    }

    /// The directive token, as the kind `#name`.
    pub(super) fn directive_token(&mut self, name: &str) {
        self.bump_as(kinds::anon(name).unwrap_or(ERROR));
    }

    /// The newline that ends a directive's node.
    /// Hidden in the tree: only the node's range includes it.
    pub(super) fn pp_end(&mut self, mark: usize, kind: u16) -> PResult {
        match self.kind_at(0) {
            Some(Tok::PpEnd) => {
                let t = self.tok(0).ok_or(Fail)?;
                let i = self.sig[self.pos] as usize;
                self.comments_up_to(i);
                self.done = i + 1;
                self.pos += 1;
                self.b.finish_to(mark, kind, Some(t.end));
                Ok(())
            }
            None => {
                self.finish(mark, kind);
                Ok(())
            }
            _ => Err(Fail),
        }
    }

    pub(super) fn preproc_include(&mut self) -> PResult {
        let mark = self.b.mark();
        self.directive_token("#include");
        match self.kind_at(0) {
            Some(Tok::SysLib) => self.bump_as(SYSTEM_LIB_STRING),
            Some(Tok::Str) => self.string_literal(),
            Some(Tok::Ident) if self.is(1, "(") => self.pp_primary()?,
            Some(Tok::Ident) => self.bump_as(IDENTIFIER),
            _ => return Err(Fail),
        }
        self.b.field(F_PATH);
        self.pp_end(mark, PREPROC_INCLUDE)
    }

    pub(super) fn preproc_define(&mut self) -> PResult {
        let mark = self.b.mark();
        let dir_end = self.tok(0).ok_or(Fail)?.end;
        self.directive_token("#define");
        let name = self.tok(0).ok_or(Fail)?;
        if name.tok != Tok::Ident {
            return Err(Fail);
        }
        self.bump_as(IDENTIFIER);
        self.b.field(F_NAME);
        let _ = dir_end;
        let function = self.is(0, "(") && self.tok(0).is_some_and(|t| t.start == name.end);
        if function {
            self.preproc_params()?;
            self.b.field(F_PARAMETERS);
        }
        if self.kind_at(0) == Some(Tok::PpArg) {
            self.bump_as(PREPROC_ARG);
            self.b.field(F_VALUE);
        }
        let kind = if function {
            PREPROC_FUNCTION_DEF
        } else {
            PREPROC_DEF
        };
        self.pp_end(mark, kind)
    }

    pub(super) fn preproc_params(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("(")?;
        if !self.is(0, ")") {
            loop {
                if self.is(0, "...") {
                    self.bump();
                } else {
                    self.ident_as(IDENTIFIER)?;
                }
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect(")")?;
        self.finish(mark, PREPROC_PARAMS);
        Ok(())
    }

    pub(super) fn preproc_call(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump_as(PREPROC_DIRECTIVE);
        self.b.field(F_DIRECTIVE);
        if self.kind_at(0) == Some(Tok::PpArg) {
            self.bump_as(PREPROC_ARG);
            self.b.field(F_ARGUMENT);
        }
        self.pp_end(mark, PREPROC_CALL)
    }

    /// `#if` / `#ifdef` / `#ifndef` with its branches and `#endif`.
    pub(super) fn preproc_if(&mut self, ctx: Ctx) -> PResult {
        let mark = self.b.mark();
        let kind = self.pp_condition()?;
        self.items(ctx, true);
        self.pp_alternative(ctx)?;
        if self.is_directive(0) != Some(Pp::Endif) {
            return Err(Fail);
        }
        self.directive_token("#endif");
        self.finish(mark, kind);
        Ok(())
    }

    /// The directive of a branch and its condition or name; the kind of
    /// node the branch makes.
    pub(super) fn pp_condition(&mut self) -> Result<u16, Fail> {
        let pp = self.is_directive(0).ok_or(Fail)?;
        let (name, kind, cond) = match pp {
            Pp::If => ("#if", PREPROC_IF, true),
            Pp::Elif => ("#elif", PREPROC_ELIF, true),
            Pp::Ifdef => ("#ifdef", PREPROC_IFDEF, false),
            Pp::Ifndef => ("#ifndef", PREPROC_IFDEF, false),
            Pp::Elifdef => ("#elifdef", PREPROC_ELIFDEF, false),
            Pp::Elifndef => ("#elifndef", PREPROC_ELIFDEF, false),
            _ => return Err(Fail),
        };
        self.directive_token(name);
        if cond {
            self.pp_expr(0)?;
            self.b.field(F_CONDITION);
            if self.kind_at(0) != Some(Tok::PpNl) {
                return Err(Fail);
            }
            self.bump_as(kinds::anon("\n").unwrap_or(ERROR));
        } else {
            self.ident_as(IDENTIFIER)?;
            self.b.field(F_NAME);
        }
        Ok(kind)
    }

    /// An optional `#elif...` / `#else` branch (field `alternative`).
    pub(super) fn pp_alternative(&mut self, ctx: Ctx) -> PResult {
        let mark = self.b.mark();
        match self.is_directive(0) {
            Some(Pp::Else) => {
                self.directive_token("#else");
                self.items(ctx, true);
                self.finish(mark, PREPROC_ELSE);
            }
            Some(Pp::Elif | Pp::Elifdef | Pp::Elifndef) => {
                let kind = self.pp_condition()?;
                self.items(ctx, true);
                self.pp_alternative(ctx)?;
                self.finish(mark, kind);
            }
            _ => return Ok(()),
        }
        self.b.field(F_ALTERNATIVE);
        Ok(())
    }

    /// A preprocessor condition, by precedence climbing.
    pub(super) fn pp_expr(&mut self, min: u8) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.pp_unary()?;
            while let Some(prec) = p.binary_prec(0).filter(|&q| q >= min.max(1)) {
                p.b.field(F_LEFT);
                p.bump();
                p.b.field(F_OPERATOR);
                p.pp_expr(prec + 1)?;
                p.b.field(F_RIGHT);
                p.finish(mark, BINARY_EXPRESSION);
            }
            Ok(())
        })
    }

    pub(super) fn pp_unary(&mut self) -> PResult {
        let mark = self.b.mark();
        if ["!", "~", "-", "+"].iter().any(|o| self.is(0, o)) {
            self.bump();
            self.b.field(F_OPERATOR);
            self.nested(|p| p.pp_unary())?;
            self.b.field(F_ARGUMENT);
            self.finish(mark, UNARY_EXPRESSION);
            return Ok(());
        }
        self.pp_primary()
    }

    pub(super) fn pp_primary(&mut self) -> PResult {
        let mark = self.b.mark();
        match self.kind_at(0).ok_or(Fail)? {
            Tok::Number => self.bump_as(NUMBER_LITERAL),
            Tok::Char => self.char_literal(),
            Tok::Ident if self.word(0) == b"defined" => {
                self.bump();
                if self.is(0, "(") {
                    self.bump();
                    self.ident_as(IDENTIFIER)?;
                    self.expect(")")?;
                } else {
                    self.ident_as(IDENTIFIER)?;
                }
                self.finish(mark, PREPROC_DEFINED);
            }
            Tok::Ident => {
                self.bump_as(IDENTIFIER);
                if self.is(0, "(") {
                    self.b.field(F_FUNCTION);
                    let args = self.b.mark();
                    self.bump();
                    if !self.is(0, ")") {
                        loop {
                            self.pp_expr(0)?;
                            if !self.is(0, ",") {
                                break;
                            }
                            self.bump();
                        }
                    }
                    self.expect(")")?;
                    self.finish(args, ARGUMENT_LIST);
                    self.b.field(F_ARGUMENTS);
                    self.finish(mark, CALL_EXPRESSION);
                }
            }
            Tok::Punct(_) if self.is(0, "(") => {
                self.bump();
                self.pp_expr(0)?;
                self.expect(")")?;
                self.finish(mark, PARENTHESIZED_EXPRESSION);
            }
            _ => return Err(Fail),
        }
        Ok(())
    }
}
