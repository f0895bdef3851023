//! The text of `pragma2cuda --help` (clap parses; this text explains).

pub const HELP: &str = "\
pragma2cuda: translate C with OpenMP/OpenACC offload pragmas into CUDA C

USAGE:
    pragma2cuda [OPTIONS] INPUT.c [-o OUTPUT.cu]
    pragma2cuda verify FILE.c [--device auto|emulate|gpu] [--keep DIR] [--timeout SECS] [-- FLAGS... EXTRA.c...]
    pragma2cuda suite DIR LIST [--jobs N] [--device auto|emulate|gpu] [--timeout SECS] [--known FILE] [-- FLAGS...]
    pragma2cuda lsp                      (the language server over stdio; README, section Editor)

ARGUMENTS:
    INPUT.c     the C file to translate; `-` reads standard input

    Without --preprocess the file is read as written: pragmas in every arm of #if/#ifdef/#else are
    translated and the preprocessor lines are kept, and pragmas spelled through macros defined in
    the file (`#define PAR _Pragma(\"omp ...\")`, `_Pragma(#x)`) are found. A name alone before a
    loop that the file does not define may be a pragma macro from a header: it is reported, and
    --preprocess handles it.

OPTIONS:
    -o, --output FILE           write the result to FILE (written to a temporary file in the same
                                directory, then renamed: a failed run never leaves a partial file and
                                never touches an existing one, which keeps its permissions). A symbolic
                                link is followed; a device (/dev/null), FIFO or socket is written into,
                                never replaced. FILE may not be the input file (exit 2). Without -o,
                                or with `-o -`, the result goes to standard output.
    --emit KIND                 what to produce: cuda (default), directives (the parsed pragmas),
                                directives-json, plan (the lowering plan of each region), plan-json (the
                                same as JSON, keys in README.md; with --ptxas also each kernel's
                                registers, spills and stack from nvcc -Xptxas -v, sm_80 and sm_90),
                                reductions (each region's reductions in the abstract form of
                                RED_SETUP / RED_INIT / RED_FINI / RED_TEARDOWN, and their expansion),
                                sharing (each variable's data-sharing attribute, where it lives on
                                the GPU and the rule that decided it), sharing-json
    --reduction-strategy S      how reductions combine across workers and gangs: tree (default:
                                warp shuffles, warp masters through shared memory, last block
                                combines the per-block partials), lock (shared-memory buffer and
                                global value under spin locks), atomic (tree, with native atomics
                                at the gang level where every reduction of the loop has one)
    --shared-budget BYTES       shared memory a team's staged variables may use in generic mode
                                (variables of the sequential part used by nested parallel regions);
                                the largest ones beyond it go to a per-team frame in global memory.
                                Default 32768: 32 KiB of the 48 KiB of static shared memory a block
                                always has, leaving 16 KiB for reduction scratch and user __shared__
    --diagnostics-format FMT    human (default; colored when stderr is a terminal and NO_COLOR is
                                unset), gcc (file:line:col: error: message [CODE]), json (an array,
                                its shape in README.md), sarif (SARIF 2.1.0, for code-scanning tools)
    --explain CODE              print the documentation of a diagnostic code (E0201, ...): what the
                                check is, why, an example and the fix; `--explain all` lists every code
    --max-errors N, -fmax-errors=N
                                show at most N errors (default 50; 0 shows all), then one line counting
                                the errors (and warnings) not shown, like gcc's -fmax-errors
    -w                          show no warnings
    -Werror                     treat every warning (shown) as an error: exit 1, nothing written
    -Wno-CODE, -WCODE           turn warning CODE (W0003, W0004, W0005: `--explain all`) off, or on
                                again; the last one naming a code wins
    --max-input-size BYTES      refuse an input larger than BYTES (default 256M; suffixes K, M, G;
                                0: no limit). The input is read up to the limit and no further, so
                                /dev/zero or an endless pipe fails fast. A FIFO given as INPUT waits
                                at most 10 s for a program to open it for writing, then fails.
                                Input that is not UTF-8 text or holds a NUL byte is refused (E0001)
    --preprocess                run the C preprocessor (`cc -E`, else gcc or clang; or $P2C_CPP) on the
                                input first, then translate what it produced: macros are expanded
                                (pragmas from macros in headers are found) and only the arms of
                                #if/#ifdef that the flags select remain. The output then holds the
                                contents of the user's headers (it is self-contained); system headers
                                stay as #include lines. Diagnostics name the original files and lines.
    -I DIR, -D NAME[=VAL], -U NAME
                                preprocessor flags, passed in order (also joined: -Idir, -DN=4);
                                any of them implies --preprocess
    -MD                         also write a make rule: the output depends on the input and every
                                header it includes (`#include \"...\"`, found beside the file that
                                includes it; with --preprocess, every file the preprocessor read)
    -MMD                        as -MD, without system headers (with --preprocess)
    -MF FILE                    write the rule to FILE (default: the output with `.d` for its
                                extension, or the input's name with `.d` when writing to stdout)
    -MT TARGET                  the rule's target (repeatable; default: the output file)
    -MP                         add an empty rule per header, so make does not fail on a deleted one
    --prelude MODE              embed (default): the output holds the prelude (the CUDA helpers every
                                translation uses); include: it has `#include \"pragma2cuda_prelude.cuh\"`
                                instead, checked at compile time against this version
    --print-prelude             write pragma2cuda_prelude.cuh to standard output
    --no-line-directives        no `#line` directives in the output. By default, every line copied
                                from the input (host code and kernel bodies) is preceded, where the
                                numbering breaks, by `#line N \"FILE.c\"`, so nvcc, clang and cuda-gdb
                                name the user's file and line; generated lines get `#line N \"OUT\"`,
                                their own place in the output (`<stdout>` when writing to stdout)
    -h, --help                  print this help
    -V, --version               print the version (and the git commit it was built from)

SUBCOMMANDS:
    verify      translate FILE.c, build and run the original with gcc (reference) and the translation
                on the CPU SIMT emulator (and on a GPU: --device gpu, or auto when nvidia-smi lists one
                and nvcc is found); compare the exit status, standard output and standard error, each
                stream read whole (a difference on stderr alone fails). Arguments after `--` are
                compiler flags for every build; the ones ending in .c are extra C files of the program,
                compiled with gcc and linked into every build. --keep DIR keeps the .cu, binaries and
                logs in DIR. --timeout limits each program run (default 60 s); the program runs in its
                own process group and, when it times out or ends, that group and every process it
                started (those that called setsid included) are killed. An output stream beyond
                1 GiB stops the program (SIGXFSZ) and fails the run.
                Verdicts: PASS; FAIL (a difference, a failed build or run, or offload pragmas left in
                the translation: an OpenMP target/teams/distribute or any OpenACC directive, which the
                -fopenmp/-fopenacc builds would run on the host); REFERENCE-FAILED (exit 1: gcc's
                build of the original failed to build, was killed by a signal or timed out, so there
                is nothing to compare with, whatever the translation did). A reference that exits
                normally with a non-zero code (a test that prints FAIL and returns 1) is compared
                like any other: the translation must exit with the same code and print the same.
    suite       run every file listed in LIST (one path per line relative to DIR, or a TSV whose first
                column is the path; a header line `file...` and lines starting with # are skipped)
                through the translation and the emulator (and GPU); a file passes when the translated
                program exits with 0. Prints PASS / FAIL / TRANSLATE-ERROR per file and `N passed, M failed`.
                An OpenMP_VV test named `test_<var>_env_<value>.c` runs with <VAR>=<value>, as the suite's
                own Makefile runs it. --known FILE (scripts/known-failures.tsv: file, kind
                test-defect|host-compiler|runner-setup, the exact failure, why) marks a listed file that
                fails exactly so `[known: ...]`; it still counts as failed; the summary counts them.

    A file literally named `verify` or `suite` can be translated as `./verify`.

ENVIRONMENT:
    P2C_NVCC, P2C_CLANG_CUDA_ROOT, P2C_CLANG   tools for verify (read from ~/.cache/pragma2cuda/env.sh when unset)
    P2C_EMU_INCLUDE                            the emulator's include directory
    P2C_EMU_BLOCKS                             verify/suite: the emulator runs up to this many (1-16)
                                               blocks of a grid at once, as a GPU does, so races between
                                               gangs/teams can show (default: one after another)
    P2C_CPP                                    the preprocessor command for --preprocess (default: cc, gcc, clang;
                                               it is run with -E -C -dD -x c and must write GNU
                                               line markers, as gcc and clang do)

EXIT STATUS:
    0   success (warnings allowed); verify: all runs agree; suite: every file passed
    1   the diagnostics contain errors; verify/suite: a disagreement or a failed build or run
    2   usage error, or the input cannot be read or the output cannot be written, or the
        preprocessor of --preprocess cannot be run (an error it reports in the input is 1)
";
