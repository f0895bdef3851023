//! Sequences of items: the file's top level, a block's items, a struct's
//! fields; the choice between a declaration and an expression statement;
//! recovery from what no rule reads.

use super::*;

/// What a sequence of items is made of.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ctx {
    Top,
    Block,
    Field,
}

impl P<'_> {
    /// Items up to the end, a `}` (in a block or field list), or (when
    /// `in_pp`) a directive that continues or ends a conditional.
    pub(super) fn items(&mut self, ctx: Ctx, in_pp: bool) {
        while !self.at_end() && self.too_deep.is_none() {
            if ctx != Ctx::Top && self.is(0, "}") {
                return;
            }
            if let Some(pp) = self.is_directive(0) {
                let alt = matches!(
                    pp,
                    Pp::Elif | Pp::Elifdef | Pp::Elifndef | Pp::Else | Pp::Endif
                );
                if alt && in_pp {
                    return;
                }
            }
            let mark = self.b.mark();
            let s = self.state();
            if self.item(ctx).is_err() {
                self.restore(s);
                self.recover(mark, ctx);
            }
        }
    }

    pub(super) fn item(&mut self, ctx: Ctx) -> PResult {
        if let Some(pp) = self.is_directive(0) {
            return self.preproc(pp, ctx);
        }
        match ctx {
            Ctx::Field => self.field_declaration(),
            Ctx::Top | Ctx::Block => self.block_item(ctx == Ctx::Top),
        }
    }

    /// A declaration, definition or statement.
    pub(super) fn block_item(&mut self, top: bool) -> PResult {
        if self.is_word(0, "typedef")
            || (self.is_word(0, "__extension__") && self.is_word(1, "typedef"))
        {
            return self.type_definition();
        }
        if self.is_word(0, "extern") && self.kind_at(1) == Some(Tok::Str) {
            return self.linkage_specification();
        }
        if self.starts_declaration(0) {
            return self.declaration_or_definition();
        }
        if self.is_ident(0) && !self.is(1, ":") {
            return self.declaration_or_statement(top);
        }
        self.statement_in(top)
    }

    /// A statement that may be read as a declaration (it starts with a name):
    /// both readings are tried; tree-sitter keeps the one of higher dynamic
    /// precedence.
    pub(super) fn declaration_or_statement(&mut self, top: bool) -> PResult {
        let s = self.state();
        let decl = self.declaration_or_definition();
        let decl_prec = self.b.dyn_prec(s.built);
        if decl.is_ok() && decl_prec >= 0 {
            return Ok(());
        }
        let decl_end = self.state();
        let decl_kept = decl.is_ok().then(|| self.b.take_since(s.built));
        self.restore(s);
        let stmt = self.attempt(|p| p.statement_in(top));
        if stmt.is_ok() && self.b.dyn_prec(s.built) >= decl_prec {
            return Ok(());
        }
        let Some(kept) = decl_kept else { return stmt };
        self.restore(s);
        self.b.put_back(kept);
        self.pos = decl_end.pos;
        self.done = decl_end.done;
        Ok(())
    }

    /// Skips to the end of the broken item (a `;` or `}` outside brackets,
    /// or a directive), as one ERROR node.
    pub(super) fn recover(&mut self, mark: usize, ctx: Ctx) {
        let mut depth = 0i32;
        let start = self.pos;
        while let Some(t) = self.tok(0) {
            if self.pos > start && depth == 0 && matches!(t.tok, Tok::Directive(_)) {
                break;
            }
            if depth == 0 && self.is(0, "}") && ctx != Ctx::Top {
                break;
            }
            let w = self.word(0);
            if matches!(t.tok, Tok::Punct(_)) {
                match w {
                    b"(" | b"[" | b"{" => depth += 1,
                    b")" | b"]" | b"}" => depth -= 1,
                    _ => {}
                }
            }
            self.bump();
            if depth <= 0 && (w == b";" || w == b"}") {
                break;
            }
        }
        if self.pos == start {
            self.bump();
        }
        self.finish(mark, ERROR);
    }
}
