//! The stable diagnostic codes, each with its severity and one-line doc.
//!
//! Codes never change meaning once released; retired codes stay reserved.
//! Families: `E00xx` input and output, `E01xx` pragma syntax, `E02xx`
//! directive validation, `E03xx` C code and loops, `E04xx` data mapping,
//! `E05xx` C that is not valid C++, `E09xx` not supported yet, `W..` warnings.

use super::Severity;
use serde::{Serialize, Serializer};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(&'static str);

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl Code {
    pub const fn as_str(&self) -> &'static str {
        self.0
    }

    pub fn severity(&self) -> Severity {
        match self.0.as_bytes().first() {
            Some(b'W') => Severity::Warning,
            Some(b'N') => Severity::Note,
            _ => Severity::Error,
        }
    }

    /// The one-line documentation of this code.
    pub fn doc(&self) -> &'static str {
        ALL.iter()
            .find(|(c, _)| c.0 == self.0)
            .map(|(_, d)| *d)
            .unwrap_or("")
    }
}

macro_rules! codes {
    ($($name:ident = $code:literal : $doc:literal;)*) => {
        $(#[doc = $doc] pub const $name: Code = Code($code);)*
        /// Every code with its documentation, in code order.
        pub const ALL: &[(Code, &str)] = &[$(($name, $doc)),*];
    };
}

codes! {
    IO_READ = "E0001": "The input file cannot be read (missing, unreadable, or not UTF-8).";
    IO_WRITE = "E0002": "The output file cannot be written (directory missing, no permission).";
    C_PARSE = "E0003": "tree-sitter could not parse the C code of an offloaded region; no code is generated for it.";

    PRAGMA_SYNTAX = "E0101": "The pragma text is malformed: a clause, parenthesis or argument is missing or misplaced.";
    UNKNOWN_DIRECTIVE = "E0102": "The directive name is not an OpenMP 5.2 or OpenACC 3.3 directive.";
    UNKNOWN_CLAUSE = "E0103": "The clause name is not an OpenMP 5.2 or OpenACC 3.3 clause.";
    BAD_CLAUSE_ARG = "E0104": "A clause argument is not of the form the clause takes (map type, reduction identifier, list item, expression).";
    MACRO_PRAGMA = "E0105": "A pragma comes from a macro this file does not define; rerun with --preprocess.";

    CLAUSE_NOT_ALLOWED = "E0201": "The clause is not allowed on this directive.";
    CLAUSE_REPEATED = "E0202": "The clause may appear at most once on this directive.";
    BAD_NESTING = "E0203": "The directive is not allowed where it is nested.";
    CONFLICTING_CLAUSES = "E0204": "A variable appears in clauses whose data-sharing attributes conflict.";
    NO_ASSOCIATED_LOOP = "E0205": "A loop directive must be followed by a for loop (or by as many nested loops as collapse asks for).";
    DEFAULT_NONE = "E0206": "default(none) is in effect and a referenced variable is listed in no data-sharing clause.";

    LOOP_NOT_CANONICAL = "E0301": "The loop is not in OpenMP canonical form (init; test with < <= > >= !=; increment by a loop-invariant step).";
    UNDECLARED = "E0302": "A name used in a clause or an offloaded region has no visible declaration.";
    UNSUPPORTED_TYPE = "E0303": "The type of a variable used in an offloaded region cannot be passed to a kernel (local type, variable-length array, pointer to pointer).";
    BAD_REDUCTION_TYPE = "E0304": "The reduction operator is not defined for the variable's type.";

    POINTER_NO_EXTENT = "E0401": "A pointer is used in an offloaded region with no extent; map an array section such as map(tofrom: p[0:n]).";
    BAD_SECTION = "E0402": "The array section does not fit the variable (too many dimensions, or a section of a scalar).";
    DEVICE_THREADPRIVATE = "E0450": "A threadprivate variable is used in an offloaded region; threadprivate variables do not exist on the device.";
    DEVICE_COPYIN = "E0451": "`copyin` on a parallel region inside an offloaded region: threadprivate variables do not exist on the device.";

    NOT_CXX = "E0501": "This C construct is not valid C++ and pragma2cuda cannot rewrite it (C linkage name that is a C++ keyword, implicit void* conversion from a call other than malloc/calloc/realloc).";

    NOT_SUPPORTED = "E0901": "The construct is valid but pragma2cuda does not lower it yet.";

    HOST_PASSTHROUGH = "W0001": "The pragma is not offloaded and is passed through to the host compiler unchanged.";
    CXX_REWRITE = "W0002": "C code that is not valid C++ was rewritten (cast added, identifier renamed).";
}
