//! Declarations: specifiers, declarators (plain, field, typedef, abstract),
//! function definitions, struct / union / enum bodies, type descriptors.

use super::*;

/// Which declarator rule is read.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// `_declarator` (definitions, init declarators, parameters).
    Plain,
    /// `_field_declarator`.
    Field,
    /// `_type_declarator` (typedef names).
    Type,
    /// `_abstract_declarator`.
    Abstract,
}

const STORAGE: [&str; 11] = [
    "extern",
    "static",
    "auto",
    "register",
    "inline",
    "__inline",
    "__inline__",
    "__forceinline",
    "thread_local",
    "__thread",
    "",
];
const QUALIFIERS: [&str; 10] = [
    "const",
    "constexpr",
    "volatile",
    "restrict",
    "__restrict__",
    "__extension__",
    "_Atomic",
    "_Noreturn",
    "noreturn",
    "_Nonnull",
];
const SIZED: [&str; 4] = ["signed", "unsigned", "long", "short"];

impl P<'_> {
    pub(super) fn is_any(&self, k: usize, words: &[&str]) -> bool {
        self.kind_at(k) == Some(Tok::Ident)
            && words.iter().any(|w| !w.is_empty() && self.is_word(k, w))
    }

    pub(super) fn is_qualifier(&self, k: usize) -> bool {
        self.is_any(k, &QUALIFIERS) || self.is_any(k, &["alignas", "_Alignas"])
    }

    /// Whether token `k` can only start a declaration.
    pub(super) fn starts_declaration(&self, k: usize) -> bool {
        let Some(Tok::Ident) = self.kind_at(k) else {
            return self.is(k, "[[");
        };
        let w = self.word(k);
        is_primitive(w)
            || self.is_any(k, &STORAGE)
            || (self.is_qualifier(k)
                && !(self.is_word(k, "__extension__")
                    && !self.starts_declaration(k + 1)
                    && !self.is_ident(k + 1)))
            || self.is_any(k, &SIZED)
            || self.is_any(
                k,
                &[
                    "struct",
                    "union",
                    "enum",
                    "__attribute__",
                    "__attribute",
                    "__declspec",
                ],
            )
    }

    /// Whether token `k` starts a type (for `(type)` and `sizeof(type)`).
    pub(super) fn starts_type(&self, k: usize) -> bool {
        let w = self.word(k);
        self.kind_at(k) == Some(Tok::Ident)
            && (is_primitive(w)
                || self.is_qualifier(k) && !self.is_word(k, "__extension__")
                || self.is_any(k, &SIZED)
                || self.is_any(k, &["struct", "union", "enum"]))
    }

    /// A declaration or, when a body follows a function declarator, a
    /// function definition.
    pub(super) fn declaration_or_definition(&mut self) -> PResult {
        let mark = self.b.mark();
        self.specifiers()?;
        if self.is(0, ";") && self.b.since(mark) == 1 {
            if self.b.last_kind(mark) == Some(TYPE_IDENTIFIER) {
                // `name;` is an expression statement.
                return Err(Fail);
            }
            // `struct s { ... };` is `_empty_declaration`, a hidden rule:
            // its children belong to the enclosing list.
            self.b.field(0);
            self.bump();
            return Ok(());
        }
        if self.old_style_follows() {
            return self.old_style_definition(mark);
        }
        let first = self.b.mark();
        self.declarator(Mode::Plain)?;
        if self.is(0, "{") {
            self.b.field(F_DECLARATOR);
            self.compound_statement()?;
            self.b.field(F_BODY);
            self.finish(mark, FUNCTION_DEFINITION);
            return Ok(());
        }
        self.init_declarator_rest(first)?;
        while self.is(0, ",") {
            self.bump();
            let d = self.b.mark();
            self.declarator(Mode::Plain)?;
            self.init_declarator_rest(d)?;
        }
        self.expect(";")?;
        self.finish(mark, DECLARATION);
        Ok(())
    }

    /// Whether `name(a, b)` and a declaration follow: a K&R definition
    /// (`_old_style_function_definition`).
    pub(super) fn old_style_follows(&self) -> bool {
        if !self.is_ident(0) || !self.is(1, "(") {
            return false;
        }
        let mut k = 2;
        while self.is_ident(k) {
            k += 1;
            if self.is(k, ",") && self.is_ident(k + 1) {
                k += 1;
            }
        }
        k > 2 && self.is(k, ")") && (self.starts_declaration(k + 1) || self.is_ident(k + 1))
    }

    /// `name(a, b)`, its parameters' declarations, the body.
    pub(super) fn old_style_definition(&mut self, mark: usize) -> PResult {
        let d = self.b.mark();
        self.bump_as(IDENTIFIER);
        self.b.field(F_DECLARATOR);
        let list = self.b.mark();
        self.bump();
        while !self.is(0, ")") {
            self.bump_as(IDENTIFIER);
            if self.is(0, ",") {
                self.bump();
            }
        }
        self.bump();
        self.finish(list, PARAMETER_LIST);
        self.b.field(F_PARAMETERS);
        self.finish(d, FUNCTION_DECLARATOR);
        self.b.field(F_DECLARATOR);
        while !self.is(0, "{") {
            let m = self.b.mark();
            self.specifiers()?;
            loop {
                self.declarator(Mode::Plain)?;
                self.b.field(F_DECLARATOR);
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
            self.expect(";")?;
            self.finish(m, DECLARATION);
        }
        self.compound_statement()?;
        self.b.field(F_BODY);
        self.finish(mark, FUNCTION_DEFINITION);
        Ok(())
    }

    /// After a declarator: `= value` makes an init declarator.
    pub(super) fn init_declarator_rest(&mut self, d: usize) -> PResult {
        if self.is_any(0, &["asm", "__asm__", "__asm"]) {
            self.gnu_asm()?;
        }
        if self.is(0, "=") {
            self.b.field(F_DECLARATOR);
            self.bump();
            self.initializer()?;
            self.b.field(F_VALUE);
            self.finish(d, INIT_DECLARATOR);
        }
        self.b.field(F_DECLARATOR);
        Ok(())
    }

    /// An initializer list or an expression.
    pub(super) fn initializer(&mut self) -> PResult {
        if self.is(0, "{") {
            self.initializer_list()
        } else {
            self.expression()
        }
    }

    pub(super) fn initializer_list(&mut self) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.expect("{")?;
            while !p.is(0, "}") {
                p.initializer_item()?;
                if !p.is(0, ",") {
                    break;
                }
                p.bump();
            }
            p.expect("}")?;
            p.finish(mark, INITIALIZER_LIST);
            Ok(())
        })
    }

    pub(super) fn initializer_item(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.is_ident(0) && self.is(1, ":") {
            self.bump_as(FIELD_IDENTIFIER);
            self.b.field(F_DESIGNATOR);
            self.bump();
        } else if self.is(0, "[") || self.is(0, ".") {
            while self.is(0, "[") || self.is(0, ".") {
                self.designator()?;
                self.b.field(F_DESIGNATOR);
            }
            self.expect("=")?;
        } else {
            return self.initializer();
        }
        self.initializer()?;
        self.b.field(F_VALUE);
        self.finish(mark, INITIALIZER_PAIR);
        Ok(())
    }

    pub(super) fn designator(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.is(0, ".") {
            self.bump();
            self.word_as(FIELD_IDENTIFIER)?;
            self.finish(mark, FIELD_DESIGNATOR);
            return Ok(());
        }
        self.expect("[")?;
        self.expression()?;
        if self.is(0, "...") {
            self.b.field(F_START);
            self.bump();
            self.expression()?;
            self.b.field(F_END);
            self.expect("]")?;
            self.finish(mark, SUBSCRIPT_RANGE_DESIGNATOR);
            return Ok(());
        }
        self.expect("]")?;
        self.finish(mark, SUBSCRIPT_DESIGNATOR);
        Ok(())
    }

    /// `_declaration_specifiers`: modifiers around one type specifier.
    pub(super) fn specifiers(&mut self) -> PResult {
        let mut typed = false;
        loop {
            if self.modifier()? {
                continue;
            }
            if typed || !self.type_specifier()? {
                break;
            }
            self.b.field(F_TYPE);
            typed = true;
        }
        if typed {
            Ok(())
        } else {
            Err(Fail)
        }
    }

    /// A storage class, qualifier or attribute; false when none is next.
    pub(super) fn modifier(&mut self) -> Result<bool, Fail> {
        let mark = self.b.mark();
        if self.is_any(0, &STORAGE) {
            self.bump();
            self.finish(mark, STORAGE_CLASS_SPECIFIER);
        } else if self.is_qualifier(0) {
            self.type_qualifier()?;
        } else if self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        } else if self.is(0, "[[") {
            self.attribute_declaration()?;
        } else if self.is_word(0, "__declspec") {
            self.bump();
            self.expect("(")?;
            self.ident_as(IDENTIFIER)?;
            self.expect(")")?;
            self.finish(mark, MS_DECLSPEC_MODIFIER);
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    pub(super) fn type_qualifier(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.is_any(0, &["alignas", "_Alignas"]) {
            let inner = self.b.mark();
            self.bump();
            self.expect("(")?;
            if self.starts_type(0) {
                self.type_descriptor()?;
            } else {
                self.expression()?;
            }
            self.expect(")")?;
            self.finish(inner, ALIGNAS_QUALIFIER);
        } else {
            self.bump();
        }
        self.finish(mark, TYPE_QUALIFIER);
        Ok(())
    }

    pub(super) fn attribute_specifier(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.expect("(")?;
        self.argument_list()?;
        self.expect(")")?;
        self.finish(mark, ATTRIBUTE_SPECIFIER);
        Ok(())
    }

    pub(super) fn attribute_declaration(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("[[")?;
        loop {
            let a = self.b.mark();
            self.ident_as(IDENTIFIER)?;
            if self.is(0, "::") {
                self.b.field(F_PREFIX);
                self.bump();
                self.ident_as(IDENTIFIER)?;
            }
            self.b.field(F_NAME);
            if self.is(0, "(") {
                self.argument_list()?;
            }
            self.finish(a, ATTRIBUTE);
            if !self.is(0, ",") {
                break;
            }
            self.bump();
        }
        self.close_attribute()?;
        self.finish(mark, ATTRIBUTE_DECLARATION);
        Ok(())
    }

    /// `]]`, lexed as two `]` next to each other: one token of the tree.
    pub(super) fn close_attribute(&mut self) -> PResult {
        let (Some(a), Some(b)) = (self.tok(0), self.tok(1)) else {
            return Err(Fail);
        };
        if !self.is(0, "]") || !self.is(1, "]") || a.end != b.start {
            return Err(Fail);
        }
        self.bump_as(kinds::anon("]]").unwrap_or(ERROR));
        self.pos += 1;
        self.done = self.sig[self.pos - 1] as usize + 1;
        self.b.extend_last(b.end);
        Ok(())
    }

    /// A type specifier; false when none is next.
    pub(super) fn type_specifier(&mut self) -> Result<bool, Fail> {
        if self.is_any(0, &SIZED) {
            self.sized_type()?;
        } else if self.is_word(0, "struct") || self.is_word(0, "union") {
            self.struct_specifier()?;
        } else if self.is_word(0, "enum") {
            self.enum_specifier()?;
        } else if self.kind_at(0) == Some(Tok::Ident) && is_primitive(self.word(0)) {
            self.bump_as(PRIMITIVE_TYPE);
        } else if self.is_ident(0) {
            self.bump_as(TYPE_IDENTIFIER);
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    pub(super) fn sized_type(&mut self) -> PResult {
        let mark = self.b.mark();
        while self.is_any(0, &SIZED) {
            self.bump();
        }
        while self.is_qualifier(0) && self.kind_at(1) == Some(Tok::Ident) {
            self.type_qualifier()?;
        }
        if self.kind_at(0) == Some(Tok::Ident) && is_primitive(self.word(0)) {
            self.bump_as(PRIMITIVE_TYPE);
            self.b.field(F_TYPE);
        } else if self.is_ident(0) && (self.is_ident(1) || self.is(1, "*")) {
            self.bump_as(TYPE_IDENTIFIER);
            self.b.field(F_TYPE);
        }
        while self.is_any(0, &SIZED) {
            self.bump();
        }
        self.finish(mark, SIZED_TYPE_SPECIFIER);
        Ok(())
    }

    pub(super) fn struct_specifier(&mut self) -> PResult {
        let mark = self.b.mark();
        let kind = if self.is_word(0, "struct") {
            STRUCT_SPECIFIER
        } else {
            UNION_SPECIFIER
        };
        self.bump();
        if self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        if self.is_ident(0) {
            self.bump_as(TYPE_IDENTIFIER);
            self.b.field(F_NAME);
        } else if !self.is(0, "{") {
            return Err(Fail);
        }
        if self.is(0, "{") {
            self.field_declaration_list()?;
            self.b.field(F_BODY);
        }
        if self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        self.finish(mark, kind);
        Ok(())
    }

    pub(super) fn field_declaration_list(&mut self) -> PResult {
        self.nested(|p| {
            let mark = p.b.mark();
            p.expect("{")?;
            p.items(super::items::Ctx::Field, false);
            p.expect("}")?;
            p.finish(mark, FIELD_DECLARATION_LIST);
            Ok(())
        })
    }

    pub(super) fn field_declaration(&mut self) -> PResult {
        let mark = self.b.mark();
        self.specifiers()?;
        if !self.is(0, ";") && !self.is_any(0, &["__attribute__", "__attribute"]) {
            loop {
                if !self.is(0, ":") {
                    self.declarator(Mode::Field)?;
                    self.b.field(F_DECLARATOR);
                }
                if self.is(0, ":") {
                    let m = self.b.mark();
                    self.bump();
                    self.expression()?;
                    self.finish(m, BITFIELD_CLAUSE);
                }
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
        }
        if self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        self.expect(";")?;
        self.finish(mark, FIELD_DECLARATION);
        Ok(())
    }

    pub(super) fn enum_specifier(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        if self.is_ident(0) {
            self.bump_as(TYPE_IDENTIFIER);
            self.b.field(F_NAME);
            if self.is(0, ":") {
                self.bump();
                self.bump_as(PRIMITIVE_TYPE);
                self.b.field(F_UNDERLYING_TYPE);
            }
        } else if !self.is(0, "{") {
            return Err(Fail);
        }
        if self.is(0, "{") {
            self.enumerator_list()?;
            self.b.field(F_BODY);
        }
        if self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        self.finish(mark, ENUM_SPECIFIER);
        Ok(())
    }

    pub(super) fn enumerator_list(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("{")?;
        while !self.is(0, "}") {
            if self.is_directive(0) == Some(Pp::Other) {
                self.preproc(Pp::Other, super::items::Ctx::Field)?;
            } else {
                let e = self.b.mark();
                self.word_as(IDENTIFIER)?;
                self.b.field(F_NAME);
                if self.is(0, "=") {
                    self.bump();
                    self.expression()?;
                    self.b.field(F_VALUE);
                }
                self.finish(e, ENUMERATOR);
            }
            if !self.is(0, ",") {
                break;
            }
            self.bump();
        }
        self.expect("}")?;
        self.finish(mark, ENUMERATOR_LIST);
        Ok(())
    }

    /// `typedef` type declarators `;`.
    pub(super) fn type_definition(&mut self) -> PResult {
        let mark = self.b.mark();
        if self.is_word(0, "__extension__") {
            self.bump();
        }
        self.expect_word("typedef")?;
        while self.is_qualifier(0) {
            self.type_qualifier()?;
        }
        if !self.type_specifier()? {
            return Err(Fail);
        }
        self.b.field(F_TYPE);
        while self.is_qualifier(0) {
            self.type_qualifier()?;
        }
        loop {
            self.declarator(Mode::Type)?;
            self.b.field(F_DECLARATOR);
            if !self.is(0, ",") {
                break;
            }
            self.bump();
        }
        while self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        self.expect(";")?;
        self.finish(mark, TYPE_DEFINITION);
        Ok(())
    }

    /// `extern "C"` and a definition, declaration or `{ ... }`.
    pub(super) fn linkage_specification(&mut self) -> PResult {
        let mark = self.b.mark();
        self.bump();
        self.string_literal();
        self.b.field(F_VALUE);
        if self.is(0, "{") {
            let list = self.b.mark();
            self.bump();
            self.items(super::items::Ctx::Block, false);
            self.expect("}")?;
            self.finish(list, DECLARATION_LIST);
        } else {
            self.declaration_or_definition()?;
        }
        self.b.field(F_BODY);
        self.finish(mark, LINKAGE_SPECIFICATION);
        Ok(())
    }

    /// A type name: qualifiers, type, qualifiers, abstract declarator.
    pub(super) fn type_descriptor(&mut self) -> PResult {
        let mark = self.b.mark();
        while self.is_qualifier(0) {
            self.type_qualifier()?;
        }
        if !self.type_specifier()? {
            return Err(Fail);
        }
        self.b.field(F_TYPE);
        while self.is_qualifier(0) {
            self.type_qualifier()?;
        }
        if self.is(0, "*") || self.is(0, "(") || self.is(0, "[") {
            self.declarator(Mode::Abstract)?;
            self.b.field(F_DECLARATOR);
        }
        self.finish(mark, TYPE_DESCRIPTOR);
        Ok(())
    }

    /// A declarator of rule `mode`.
    pub(super) fn declarator(&mut self, mode: Mode) -> PResult {
        self.nested(|p| p.declarator_inner(mode))
    }

    pub(super) fn declarator_inner(&mut self, mode: Mode) -> PResult {
        let mark = self.b.mark();
        if self.is(0, "*") {
            self.bump();
            while self.is_qualifier(0) {
                self.type_qualifier()?;
            }
            if mode != Mode::Abstract {
                self.declarator(mode)?;
                self.b.field(F_DECLARATOR);
                self.finish(mark, POINTER_DECLARATOR);
            } else {
                if self.is(0, "*") || self.is(0, "(") || self.is(0, "[") {
                    self.declarator(mode)?;
                    self.b.field(F_DECLARATOR);
                }
                self.finish(mark, ABSTRACT_POINTER_DECLARATOR);
            }
            return Ok(());
        }
        self.direct_declarator(mode)?;
        self.declarator_suffixes(mark, mode)
    }

    pub(super) fn direct_declarator(&mut self, mode: Mode) -> PResult {
        let mark = self.b.mark();
        if mode == Mode::Abstract {
            if self.is(0, "(") && (self.is(1, "*") || self.is(1, "[") || self.is(1, "(")) {
                self.bump();
                self.declarator(mode)?;
                self.expect(")")?;
                self.finish(mark, ABSTRACT_PARENTHESIZED_DECLARATOR);
            }
            return Ok(());
        }
        if self.is(0, "(") {
            self.bump();
            self.declarator(mode)?;
            self.expect(")")?;
            self.finish(mark, PARENTHESIZED_DECLARATOR);
            return Ok(());
        }
        match mode {
            Mode::Field => self.ident_as(FIELD_IDENTIFIER),
            Mode::Type if self.kind_at(0) == Some(Tok::Ident) && is_primitive(self.word(0)) => {
                self.bump_as(PRIMITIVE_TYPE);
                Ok(())
            }
            Mode::Type => self.ident_as(TYPE_IDENTIFIER),
            _ => self.ident_as(IDENTIFIER),
        }
    }

    /// Parameter lists and array sizes after a declarator.
    pub(super) fn declarator_suffixes(&mut self, mark: usize, mode: Mode) -> PResult {
        let abstract_ = mode == Mode::Abstract;
        loop {
            let has_inner = self.b.since(mark) > 0;
            if self.is(0, "(") {
                if has_inner {
                    self.b.field(F_DECLARATOR);
                }
                self.parameter_list()?;
                self.b.field(F_PARAMETERS);
                if mode == Mode::Plain {
                    self.function_declarator_tail()?;
                }
                let kind = if abstract_ {
                    ABSTRACT_FUNCTION_DECLARATOR
                } else {
                    FUNCTION_DECLARATOR
                };
                self.finish(mark, kind);
            } else if self.is(0, "[") {
                if has_inner {
                    self.b.field(F_DECLARATOR);
                }
                self.bump();
                while self.is_qualifier(0) || self.is_word(0, "static") {
                    if self.is_word(0, "static") {
                        self.bump();
                    } else {
                        self.type_qualifier()?;
                    }
                }
                if self.is(0, "*") && self.is(1, "]") {
                    self.bump();
                    self.b.field(F_SIZE);
                } else if !self.is(0, "]") {
                    self.expression()?;
                    self.b.field(F_SIZE);
                }
                self.expect("]")?;
                let kind = if abstract_ {
                    ABSTRACT_ARRAY_DECLARATOR
                } else {
                    ARRAY_DECLARATOR
                };
                self.finish(mark, kind);
            } else if self.is(0, "[[") && !abstract_ {
                while self.is(0, "[[") {
                    self.attribute_declaration()?;
                }
                self.finish(mark, ATTRIBUTED_DECLARATOR);
            } else {
                return if self.b.since(mark) > 0 {
                    Ok(())
                } else {
                    Err(Fail)
                };
            }
        }
    }

    /// What may follow a function declarator's parameters: asm,
    /// attributes, macro names.
    pub(super) fn function_declarator_tail(&mut self) -> PResult {
        if self.is_any(0, &["asm", "__asm__", "__asm"]) {
            self.gnu_asm()?;
        }
        loop {
            if self.is_any(0, &["__attribute__", "__attribute"]) {
                self.attribute_specifier()?;
            } else if self.is_ident(0)
                && !self.is(1, "=")
                && !self.is(1, ";")
                && !self.is(1, ",")
                && self.is(1, "(")
            {
                let m = self.b.mark();
                self.bump_as(IDENTIFIER);
                self.b.field(F_FUNCTION);
                self.argument_list()?;
                self.b.field(F_ARGUMENTS);
                self.finish(m, CALL_EXPRESSION);
            } else if self.is_ident(0) && (self.is(1, "{") || self.is(1, ";") || self.is_ident(1)) {
                self.bump_as(IDENTIFIER);
            } else {
                return Ok(());
            }
        }
    }

    pub(super) fn parameter_list(&mut self) -> PResult {
        let mark = self.b.mark();
        self.expect("(")?;
        if self.is(0, "{") {
            self.compound_statement()?;
        } else if !self.is(0, ")") {
            loop {
                if self.is(0, "...") {
                    let m = self.b.mark();
                    self.bump();
                    self.finish(m, VARIADIC_PARAMETER);
                } else {
                    self.parameter_declaration()?;
                }
                if !self.is(0, ",") {
                    break;
                }
                self.bump();
            }
        }
        self.expect(")")?;
        self.finish(mark, PARAMETER_LIST);
        Ok(())
    }

    pub(super) fn parameter_declaration(&mut self) -> PResult {
        let mark = self.b.mark();
        self.specifiers()?;
        if !self.is(0, ",")
            && !self.is(0, ")")
            && !self.is_any(0, &["__attribute__", "__attribute"])
        {
            if self.attempt(|p| p.declarator(Mode::Plain)).is_err() {
                self.declarator(Mode::Abstract)?;
            }
            self.b.field(F_DECLARATOR);
        }
        while self.is_any(0, &["__attribute__", "__attribute"]) {
            self.attribute_specifier()?;
        }
        self.finish(mark, PARAMETER_DECLARATION);
        Ok(())
    }
}
