//! The node kinds and field names of the C tree: the names tree-sitter-c
//! 0.24 gives them (facts of its grammar), numbered for this crate. Named
//! kinds come first, then the anonymous tokens, sorted, so a token's kind
//! is found by binary search.

/// Kind names by id: named kinds below [`NAMED_KINDS`], then anonymous tokens.
pub const KINDS: [&str; 269] = [
    "ERROR",
    "abstract_array_declarator",
    "abstract_function_declarator",
    "abstract_parenthesized_declarator",
    "abstract_pointer_declarator",
    "alignas_qualifier",
    "alignof_expression",
    "argument_list",
    "array_declarator",
    "assignment_expression",
    "attribute",
    "attribute_declaration",
    "attribute_specifier",
    "attributed_declarator",
    "attributed_statement",
    "binary_expression",
    "bitfield_clause",
    "break_statement",
    "call_expression",
    "case_statement",
    "cast_expression",
    "char_literal",
    "character",
    "comma_expression",
    "comment",
    "compound_literal_expression",
    "compound_statement",
    "concatenated_string",
    "conditional_expression",
    "continue_statement",
    "declaration",
    "declaration_list",
    "do_statement",
    "else_clause",
    "enum_specifier",
    "enumerator",
    "enumerator_list",
    "escape_sequence",
    "expression_statement",
    "extension_expression",
    "false",
    "field_declaration",
    "field_declaration_list",
    "field_designator",
    "field_expression",
    "field_identifier",
    "for_statement",
    "function_declarator",
    "function_definition",
    "generic_expression",
    "gnu_asm_clobber_list",
    "gnu_asm_expression",
    "gnu_asm_goto_list",
    "gnu_asm_input_operand",
    "gnu_asm_input_operand_list",
    "gnu_asm_output_operand",
    "gnu_asm_output_operand_list",
    "gnu_asm_qualifier",
    "goto_statement",
    "identifier",
    "if_statement",
    "init_declarator",
    "initializer_list",
    "initializer_pair",
    "labeled_statement",
    "linkage_specification",
    "macro_type_specifier",
    "ms_based_modifier",
    "ms_call_modifier",
    "ms_declspec_modifier",
    "ms_pointer_modifier",
    "ms_restrict_modifier",
    "ms_signed_ptr_modifier",
    "ms_unaligned_ptr_modifier",
    "ms_unsigned_ptr_modifier",
    "null",
    "number_literal",
    "offsetof_expression",
    "parameter_declaration",
    "parameter_list",
    "parenthesized_declarator",
    "parenthesized_expression",
    "pointer_declarator",
    "pointer_expression",
    "preproc_arg",
    "preproc_call",
    "preproc_def",
    "preproc_defined",
    "preproc_directive",
    "preproc_elif",
    "preproc_elifdef",
    "preproc_else",
    "preproc_function_def",
    "preproc_if",
    "preproc_ifdef",
    "preproc_include",
    "preproc_params",
    "primitive_type",
    "return_statement",
    "seh_except_clause",
    "seh_finally_clause",
    "seh_leave_statement",
    "seh_try_statement",
    "sized_type_specifier",
    "sizeof_expression",
    "statement_identifier",
    "storage_class_specifier",
    "string_content",
    "string_literal",
    "struct_specifier",
    "subscript_designator",
    "subscript_expression",
    "subscript_range_designator",
    "switch_statement",
    "system_lib_string",
    "translation_unit",
    "true",
    "type_definition",
    "type_descriptor",
    "type_identifier",
    "type_qualifier",
    "unary_expression",
    "union_specifier",
    "update_expression",
    "variadic_parameter",
    "while_statement",
    "\n",
    "!",
    "!=",
    "\"",
    "#define",
    "#elif",
    "#elifdef",
    "#elifndef",
    "#else",
    "#endif",
    "#if",
    "#ifdef",
    "#ifndef",
    "#include",
    "%",
    "%=",
    "&",
    "&&",
    "&=",
    "'",
    "(",
    ")",
    "*",
    "*=",
    "+",
    "++",
    "+=",
    ",",
    "-",
    "--",
    "-=",
    "->",
    ".",
    "...",
    "/",
    "/=",
    ":",
    "::",
    ";",
    "<",
    "<<",
    "<<=",
    "<=",
    "=",
    "==",
    ">",
    ">=",
    ">>",
    ">>=",
    "?",
    "L\"",
    "L'",
    "NULL",
    "U\"",
    "U'",
    "[",
    "[[",
    "]",
    "]]",
    "^",
    "^=",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Nonnull",
    "_Noreturn",
    "__alignof",
    "__alignof__",
    "__asm",
    "__asm__",
    "__attribute",
    "__attribute__",
    "__based",
    "__cdecl",
    "__clrcall",
    "__declspec",
    "__except",
    "__extension__",
    "__fastcall",
    "__finally",
    "__forceinline",
    "__inline",
    "__inline__",
    "__leave",
    "__restrict__",
    "__stdcall",
    "__thiscall",
    "__thread",
    "__try",
    "__unaligned",
    "__vectorcall",
    "__volatile__",
    "_alignof",
    "_unaligned",
    "alignas",
    "alignof",
    "asm",
    "auto",
    "break",
    "case",
    "const",
    "constexpr",
    "continue",
    "default",
    "defined",
    "do",
    "else",
    "enum",
    "extern",
    "for",
    "goto",
    "if",
    "inline",
    "long",
    "noreturn",
    "nullptr",
    "offsetof",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "thread_local",
    "typedef",
    "u\"",
    "u'",
    "u8\"",
    "u8'",
    "union",
    "unsigned",
    "volatile",
    "while",
    "{",
    "|",
    "|=",
    "||",
    "}",
    "~",
];

/// How many kinds are named.
pub const NAMED_KINDS: u16 = 126;

pub const ERROR: u16 = 0;
pub const ABSTRACT_ARRAY_DECLARATOR: u16 = 1;
pub const ABSTRACT_FUNCTION_DECLARATOR: u16 = 2;
pub const ABSTRACT_PARENTHESIZED_DECLARATOR: u16 = 3;
pub const ABSTRACT_POINTER_DECLARATOR: u16 = 4;
pub const ALIGNAS_QUALIFIER: u16 = 5;
pub const ALIGNOF_EXPRESSION: u16 = 6;
pub const ARGUMENT_LIST: u16 = 7;
pub const ARRAY_DECLARATOR: u16 = 8;
pub const ASSIGNMENT_EXPRESSION: u16 = 9;
pub const ATTRIBUTE: u16 = 10;
pub const ATTRIBUTE_DECLARATION: u16 = 11;
pub const ATTRIBUTE_SPECIFIER: u16 = 12;
pub const ATTRIBUTED_DECLARATOR: u16 = 13;
pub const ATTRIBUTED_STATEMENT: u16 = 14;
pub const BINARY_EXPRESSION: u16 = 15;
pub const BITFIELD_CLAUSE: u16 = 16;
pub const BREAK_STATEMENT: u16 = 17;
pub const CALL_EXPRESSION: u16 = 18;
pub const CASE_STATEMENT: u16 = 19;
pub const CAST_EXPRESSION: u16 = 20;
pub const CHAR_LITERAL: u16 = 21;
pub const CHARACTER: u16 = 22;
pub const COMMA_EXPRESSION: u16 = 23;
pub const COMMENT: u16 = 24;
pub const COMPOUND_LITERAL_EXPRESSION: u16 = 25;
pub const COMPOUND_STATEMENT: u16 = 26;
pub const CONCATENATED_STRING: u16 = 27;
pub const CONDITIONAL_EXPRESSION: u16 = 28;
pub const CONTINUE_STATEMENT: u16 = 29;
pub const DECLARATION: u16 = 30;
pub const DECLARATION_LIST: u16 = 31;
pub const DO_STATEMENT: u16 = 32;
pub const ELSE_CLAUSE: u16 = 33;
pub const ENUM_SPECIFIER: u16 = 34;
pub const ENUMERATOR: u16 = 35;
pub const ENUMERATOR_LIST: u16 = 36;
pub const ESCAPE_SEQUENCE: u16 = 37;
pub const EXPRESSION_STATEMENT: u16 = 38;
pub const EXTENSION_EXPRESSION: u16 = 39;
pub const FALSE: u16 = 40;
pub const FIELD_DECLARATION: u16 = 41;
pub const FIELD_DECLARATION_LIST: u16 = 42;
pub const FIELD_DESIGNATOR: u16 = 43;
pub const FIELD_EXPRESSION: u16 = 44;
pub const FIELD_IDENTIFIER: u16 = 45;
pub const FOR_STATEMENT: u16 = 46;
pub const FUNCTION_DECLARATOR: u16 = 47;
pub const FUNCTION_DEFINITION: u16 = 48;
pub const GENERIC_EXPRESSION: u16 = 49;
pub const GNU_ASM_CLOBBER_LIST: u16 = 50;
pub const GNU_ASM_EXPRESSION: u16 = 51;
pub const GNU_ASM_GOTO_LIST: u16 = 52;
pub const GNU_ASM_INPUT_OPERAND: u16 = 53;
pub const GNU_ASM_INPUT_OPERAND_LIST: u16 = 54;
pub const GNU_ASM_OUTPUT_OPERAND: u16 = 55;
pub const GNU_ASM_OUTPUT_OPERAND_LIST: u16 = 56;
pub const GNU_ASM_QUALIFIER: u16 = 57;
pub const GOTO_STATEMENT: u16 = 58;
pub const IDENTIFIER: u16 = 59;
pub const IF_STATEMENT: u16 = 60;
pub const INIT_DECLARATOR: u16 = 61;
pub const INITIALIZER_LIST: u16 = 62;
pub const INITIALIZER_PAIR: u16 = 63;
pub const LABELED_STATEMENT: u16 = 64;
pub const LINKAGE_SPECIFICATION: u16 = 65;
pub const MACRO_TYPE_SPECIFIER: u16 = 66;
pub const MS_BASED_MODIFIER: u16 = 67;
pub const MS_CALL_MODIFIER: u16 = 68;
pub const MS_DECLSPEC_MODIFIER: u16 = 69;
pub const MS_POINTER_MODIFIER: u16 = 70;
pub const MS_RESTRICT_MODIFIER: u16 = 71;
pub const MS_SIGNED_PTR_MODIFIER: u16 = 72;
pub const MS_UNALIGNED_PTR_MODIFIER: u16 = 73;
pub const MS_UNSIGNED_PTR_MODIFIER: u16 = 74;
pub const NULL: u16 = 75;
pub const NUMBER_LITERAL: u16 = 76;
pub const OFFSETOF_EXPRESSION: u16 = 77;
pub const PARAMETER_DECLARATION: u16 = 78;
pub const PARAMETER_LIST: u16 = 79;
pub const PARENTHESIZED_DECLARATOR: u16 = 80;
pub const PARENTHESIZED_EXPRESSION: u16 = 81;
pub const POINTER_DECLARATOR: u16 = 82;
pub const POINTER_EXPRESSION: u16 = 83;
pub const PREPROC_ARG: u16 = 84;
pub const PREPROC_CALL: u16 = 85;
pub const PREPROC_DEF: u16 = 86;
pub const PREPROC_DEFINED: u16 = 87;
pub const PREPROC_DIRECTIVE: u16 = 88;
pub const PREPROC_ELIF: u16 = 89;
pub const PREPROC_ELIFDEF: u16 = 90;
pub const PREPROC_ELSE: u16 = 91;
pub const PREPROC_FUNCTION_DEF: u16 = 92;
pub const PREPROC_IF: u16 = 93;
pub const PREPROC_IFDEF: u16 = 94;
pub const PREPROC_INCLUDE: u16 = 95;
pub const PREPROC_PARAMS: u16 = 96;
pub const PRIMITIVE_TYPE: u16 = 97;
pub const RETURN_STATEMENT: u16 = 98;
pub const SEH_EXCEPT_CLAUSE: u16 = 99;
pub const SEH_FINALLY_CLAUSE: u16 = 100;
pub const SEH_LEAVE_STATEMENT: u16 = 101;
pub const SEH_TRY_STATEMENT: u16 = 102;
pub const SIZED_TYPE_SPECIFIER: u16 = 103;
pub const SIZEOF_EXPRESSION: u16 = 104;
pub const STATEMENT_IDENTIFIER: u16 = 105;
pub const STORAGE_CLASS_SPECIFIER: u16 = 106;
pub const STRING_CONTENT: u16 = 107;
pub const STRING_LITERAL: u16 = 108;
pub const STRUCT_SPECIFIER: u16 = 109;
pub const SUBSCRIPT_DESIGNATOR: u16 = 110;
pub const SUBSCRIPT_EXPRESSION: u16 = 111;
pub const SUBSCRIPT_RANGE_DESIGNATOR: u16 = 112;
pub const SWITCH_STATEMENT: u16 = 113;
pub const SYSTEM_LIB_STRING: u16 = 114;
pub const TRANSLATION_UNIT: u16 = 115;
pub const TRUE: u16 = 116;
pub const TYPE_DEFINITION: u16 = 117;
pub const TYPE_DESCRIPTOR: u16 = 118;
pub const TYPE_IDENTIFIER: u16 = 119;
pub const TYPE_QUALIFIER: u16 = 120;
pub const UNARY_EXPRESSION: u16 = 121;
pub const UNION_SPECIFIER: u16 = 122;
pub const UPDATE_EXPRESSION: u16 = 123;
pub const VARIADIC_PARAMETER: u16 = 124;
pub const WHILE_STATEMENT: u16 = 125;

/// Field names by id; id 0 is "no field".
pub const FIELDS: [&str; 40] = [
    "",
    "alternative",
    "argument",
    "arguments",
    "assembly_code",
    "body",
    "clobbers",
    "condition",
    "consequence",
    "constraint",
    "declarator",
    "designator",
    "directive",
    "end",
    "field",
    "filter",
    "function",
    "goto_labels",
    "index",
    "initializer",
    "input_operands",
    "label",
    "left",
    "member",
    "name",
    "operand",
    "operator",
    "output_operands",
    "parameters",
    "path",
    "prefix",
    "register",
    "right",
    "size",
    "start",
    "symbol",
    "type",
    "underlying_type",
    "update",
    "value",
];

pub const F_ALTERNATIVE: u16 = 1;
pub const F_ARGUMENT: u16 = 2;
pub const F_ARGUMENTS: u16 = 3;
pub const F_ASSEMBLY_CODE: u16 = 4;
pub const F_BODY: u16 = 5;
pub const F_CLOBBERS: u16 = 6;
pub const F_CONDITION: u16 = 7;
pub const F_CONSEQUENCE: u16 = 8;
pub const F_CONSTRAINT: u16 = 9;
pub const F_DECLARATOR: u16 = 10;
pub const F_DESIGNATOR: u16 = 11;
pub const F_DIRECTIVE: u16 = 12;
pub const F_END: u16 = 13;
pub const F_FIELD: u16 = 14;
pub const F_FILTER: u16 = 15;
pub const F_FUNCTION: u16 = 16;
pub const F_GOTO_LABELS: u16 = 17;
pub const F_INDEX: u16 = 18;
pub const F_INITIALIZER: u16 = 19;
pub const F_INPUT_OPERANDS: u16 = 20;
pub const F_LABEL: u16 = 21;
pub const F_LEFT: u16 = 22;
pub const F_MEMBER: u16 = 23;
pub const F_NAME: u16 = 24;
pub const F_OPERAND: u16 = 25;
pub const F_OPERATOR: u16 = 26;
pub const F_OUTPUT_OPERANDS: u16 = 27;
pub const F_PARAMETERS: u16 = 28;
pub const F_PATH: u16 = 29;
pub const F_PREFIX: u16 = 30;
pub const F_REGISTER: u16 = 31;
pub const F_RIGHT: u16 = 32;
pub const F_SIZE: u16 = 33;
pub const F_START: u16 = 34;
pub const F_SYMBOL: u16 = 35;
pub const F_TYPE: u16 = 36;
pub const F_UNDERLYING_TYPE: u16 = 37;
pub const F_UPDATE: u16 = 38;
pub const F_VALUE: u16 = 39;

/// The kind of the anonymous token spelled `text`.
pub fn anon(text: &str) -> Option<u16> {
    let anon = &KINDS[NAMED_KINDS as usize..];
    anon.binary_search(&text)
        .ok()
        .map(|k| k as u16 + NAMED_KINDS)
}

/// The id of field `name`.
pub fn field(name: &str) -> Option<u16> {
    FIELDS[1..].binary_search(&name).ok().map(|k| k as u16 + 1)
}

/// The id of named kind `name`.
pub fn named(name: &str) -> Option<u16> {
    KINDS[..NAMED_KINDS as usize]
        .iter()
        .position(|k| *k == name)
        .map(|k| k as u16)
}
