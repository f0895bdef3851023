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
    PREPROCESSOR = "E0004": "The C preprocessor of --preprocess cannot be run, or it failed on the input (its own messages precede this one).";
    NESTING_TOO_DEEP = "E0005": "Brackets `{ ( [` nest more than 256 deep (clang's default -fbracket-depth), #if groups more than 256 deep, or the C syntax tree is deeper than 100000 levels (an `else if` chain of about 50000 arms); pragma2cuda refuses such a file rather than exhaust its stack. Split the expression or the block.";
    TOO_MANY_ERRORS = "E0006": "More errors than --max-errors (default 50) allows: the rest are counted, not shown; `--max-errors 0` shows them all.";

    PRAGMA_SYNTAX = "E0101": "The pragma text is malformed: a clause, parenthesis or argument is missing or misplaced.";
    UNKNOWN_DIRECTIVE = "E0102": "The directive name is not an OpenMP 5.2 or OpenACC 3.3 directive.";
    UNKNOWN_CLAUSE = "E0103": "The clause name is not an OpenMP 5.2 or OpenACC 3.3 clause.";
    BAD_CLAUSE_ARG = "E0104": "A clause argument is not of the form the clause takes (map type, reduction identifier, list item, expression).";
    MACRO_PRAGMA = "E0105": "A pragma comes from a macro this file does not define, or defines in a form pragma2cuda does not expand (other tokens around `_Pragma`); rerun with --preprocess.";

    CLAUSE_NOT_ALLOWED = "E0201": "The clause is not allowed on this directive.";
    CLAUSE_REPEATED = "E0202": "The clause may appear at most once on this directive.";
    BAD_NESTING = "E0203": "The directive is not allowed where it is nested.";
    CONFLICTING_CLAUSES = "E0204": "A variable appears in clauses whose data-sharing attributes conflict.";
    NO_ASSOCIATED_LOOP = "E0205": "A loop directive must be followed by a for loop (or by as many nested loops as collapse asks for).";
    DEFAULT_NONE = "E0206": "default(none) or OpenMP defaultmap(none) is in effect and a referenced variable is listed in no data-sharing or data-mapping clause.";
    TEAMS_NESTING = "E0207": "An OpenMP `teams` construct is nested somewhere other than directly in a `target` construct that holds nothing else.";
    DISTRIBUTE_NESTING = "E0208": "An OpenMP `distribute` construct is not closely nested in a `teams` region.";
    TARGET_IN_TARGET = "E0209": "An OpenMP `target` directive (or `target data`, `target update`, ...) appears inside a `target` region.";
    ACC_LOOP_LEVEL = "E0210": "OpenACC loop levels are out of order: a gang loop inside a gang, worker or vector loop, a worker loop inside a worker or vector loop, or a vector loop inside a vector loop.";
    ACC_ORPHAN = "E0211": "An OpenACC `loop` is outside any compute construct in a function without `acc routine`, or an `acc cache` directive is not inside a loop.";
    ACC_RUNTIME_IN_COMPUTE = "E0212": "An OpenACC `init`, `shutdown` or `set` directive appears inside a compute construct.";
    NOT_POSITIVE = "E0213": "A clause argument that must be a positive integer (collapse, tile sizes, launch sizes, ...) is zero or negative.";
    EXCLUSIVE_CLAUSES = "E0214": "Two clauses that exclude each other appear on one directive (`seq` with `gang`, `read` with `write`, `full` with `partial`, ...).";
    MISSING_CLAUSE = "E0215": "The directive needs a clause it does not have (`target update` needs `to` or `from`, `acc enter data` a data clause, ...).";
    BAD_MAP_TYPE = "E0216": "The map type is not allowed on this directive (`from` on `target enter data`, `delete` on `target`, ...).";
    UNKNOWN_REDUCTION = "E0217": "The reduction identifier is not a built-in operator of the model and no `declare reduction` before it defines it.";
    NO_STATEMENT = "E0218": "A construct with a structured block (target data, acc data) must be followed by a statement, not a declaration or the end of a block.";
    UNMATCHED_DECLARE = "E0219": "begin declare target / declare target without clauses has no matching end declare target, or an end has no begin.";
    STANDALONE_AS_BODY = "E0220": "A stand-alone directive (`target update`, `acc update`, `enter/exit data`, `barrier`, `wait`, ...) is the unbraced body of `if`, `else`, `for`, `while` or `do`; it may only be used in a compound statement.";
    SPLIT_ACROSS_ARMS = "E0221": "The pragmas of one construct are in different `#if` arms (`#ifdef GPU` / `#pragma omp target` / `#endif` / `#pragma omp teams`): each arm would need its own translation of the statement.";

    LOOP_NOT_CANONICAL = "E0301": "The loop is not in OpenMP canonical form (init; test with < <= > >= !=; increment by a loop-invariant step).";
    UNDECLARED = "E0302": "A name used in a clause or an offloaded region has no visible declaration.";
    UNSUPPORTED_TYPE = "E0303": "The type of a variable used in an offloaded region cannot be passed to a kernel (local type, variable-length array, pointer to pointer).";
    BAD_REDUCTION_TYPE = "E0304": "The reduction operator is not defined for the variable's type.";
    GLOBAL_NOT_ON_DEVICE = "E0311": "A device function uses a file-scope variable that has no device copy; name it in `declare target` (or a file-scope `acc declare create`), or pass its value as a parameter.";
    CALL_NOT_ON_DEVICE = "E0310": "An offloaded region calls a function that has no definition in the file and is not in the CUDA device library, so it cannot run on the device.";
    UNTERMINATED_COMMENT = "E0320": "A `/*` comment is never closed: the rest of the file would be a comment (gcc: unterminated comment).";

    POINTER_NO_EXTENT = "E0401": "A pointer is used in an offloaded region with no extent; map an array section such as map(tofrom: p[0:n]).";
    BAD_SECTION = "E0402": "The array section does not fit the variable (too many dimensions, or a section of a scalar).";
    DEVICE_THREADPRIVATE = "E0450": "A threadprivate variable is used in an offloaded region; threadprivate variables do not exist on the device.";
    DEVICE_COPYIN = "E0451": "`copyin` on a parallel region inside an offloaded region: threadprivate variables do not exist on the device.";

    NOT_CXX = "E0501": "This C construct is not valid C++ and pragma2cuda cannot rewrite it (C linkage name that is a C++ keyword, implicit void* conversion from a call other than malloc/calloc/realloc).";

    NOT_SUPPORTED = "E0901": "The construct is valid but pragma2cuda does not lower it yet.";
    USER_REDUCTION = "E0902": "A user-defined reduction (`declare reduction`) is used in offloaded code, which pragma2cuda does not lower yet.";
    LOST_CONSTRUCT = "E0990": "Internal check: the CUDA written for an offloaded region does not account for a directive nested in it, or leaves an `omp`/`acc` directive as a pragma in device code (a kernel, or an offload construct in a device function), where it would have no effect (a translator bug); pragma2cuda refuses to write the file rather than drop the directive. Please report it with the input.";

    // W0001 (host pragma passed through) and W0002 (C rewritten as C++) were
    // documented but never emitted: retired, and reserved.
    ORPHAN_ONE_THREAD = "W0004": "A parallel construct in a device function runs with the calling thread only on the device: what a team does not honour yet (clauses other than num_threads, if, shared, default(shared|none), proc_bind, private, firstprivate, lastprivate without modifier, scalar reduction, schedule, rectangular collapse; nested constructs other than for, simd without data clauses, barrier); results are correct.";
    RESULT_DISCARDED = "W0005": "A reduction inside `target { ... }` combines into a scalar the `target` does not map: the scalar is firstprivate on `target`, so the result stays on the device and the host keeps its value. Add `map(tofrom: x)` to the `target` to get the result back.";
    UNKNOWN_MACRO = "W0003": "A name this file does not define stands alone before a loop: a macro from a header that may hide a pragma; rerun with --preprocess.";
}
