//! The reduction form (`--emit=reductions`) of small regions: where the
//! builtins go (NULL outermost loop, dummy gang reduction, loop gang
//! reduction), their loop and reduction ids, and the expansion chosen for
//! each level and strategy.

use pragma2cuda::ir::reduction::Strategy;
use pragma2cuda::source::SourceFile;
use pragma2cuda::{translate, Emit, Options};

fn form(pragma: &str, strategy: Strategy) -> String {
    form_of(pragma, "int", strategy)
}

fn form_of(pragma: &str, ty: &str, strategy: Strategy) -> String {
    let text = format!(
        "int v[1000];\nint f(int n)\n{{\n    {ty} s = 0, t = 1;\n#pragma {pragma}\n    for (int i = 0; i < n; i++) {{\n        s += v[i];\n        t *= v[i];\n    }}\n    return s + t;\n}}\n"
    );
    let t = translate(
        &SourceFile::new("t.c", text),
        &Options {
            emit: Emit::Reductions,
            reduction_strategy: strategy,
            ..Default::default()
        },
    );
    assert!(!t.has_errors(), "{pragma}: {:?}", t.diagnostics);
    t.output.unwrap_or_default()
}

fn has(text: &str, line: &str) {
    assert!(
        text.lines().any(|l| l.trim_start().starts_with(line)),
        "no line starting with `{line}` in:\n{text}"
    );
}

fn lacks(text: &str, what: &str) {
    assert!(!text.contains(what), "`{what}` in:\n{text}");
}

#[test]
fn reduction_on_the_parallel_construct_is_the_null_outermost_loop() {
    let f = form(
        "acc parallel loop gang vector copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    has(&f, "// reduction on the parallel construct of `acc parallel loop`: the NULL outermost loop, lid 0");
    has(&f, "s = RED_SETUP (&s, s, GANG, +, 0, 0)");
    has(&f, "t = RED_INIT (&t, t, GANG, *, 0, 1)");
    has(
        &f,
        "// loop i, lid 1: gang vector; its GANG level is the construct's reduction",
    );
    has(&f, "s = RED_FINI (NULL, s, VECTOR, +, 1, 0)");
    has(&f, "RED_LOCK (GANG, 0)");
    has(&f, "t = RED_TEARDOWN (&t, t, GANG, *, 0, 1)");
    lacks(&f, "RED_SETUP (&s, s, GANG, +, 1");
    lacks(&f, "FORK (GANG)");
}

#[test]
fn kernels_gang_loop_reduces_at_its_own_gang_level() {
    let f = form(
        "acc kernels loop gang vector copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    has(
        &f,
        "// loop i, lid 0: gang vector; gang reduction of a copy object",
    );
    has(&f, "FORK (GANG)");
    has(&f, "JOIN (GANG)");
    has(&f, "s = RED_SETUP (&s, s, GANG, +, 0, 0)");
    has(&f, "s = RED_SETUP (NULL, s, VECTOR, +, 0, 0)");
    lacks(&f, "NULL outermost");
}

#[test]
fn no_gang_level_gets_the_dummy_gang_reduction() {
    let f = form(
        "omp target parallel for map(to: v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    has(
        &f,
        "// dummy gang reduction around the worker reduction of a copy object",
    );
    has(&f, "s = RED_SETUP (&s, s, GANG, +, 0, 0)");
    has(&f, "s = RED_SETUP (NULL, s, WORKER, +, 0, 0)");
    has(&f, "t = RED_FINI (&t, t, GANG, *, 0, 1)");
    has(
        &f,
        "RED_FINI (WORKER, 0)       seed 000's block reduction: a contiguous shuffle tree",
    );
}

#[test]
fn worker_and_vector_nest_inner_first() {
    let f = form(
        "acc parallel loop gang worker vector num_workers(3) vector_length(8) copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    let pos = |l: &str| {
        f.lines()
            .position(|x| x.trim() == l)
            .unwrap_or_else(|| panic!("no `{l}` in\n{f}"))
    };
    assert!(pos("FORK (WORKER)") < pos("FORK (VECTOR)"));
    assert!(pos("JOIN (VECTOR)") < pos("JOIN (WORKER)"));
    assert!(pos("JOIN (WORKER)") < pos("RED_LOCK (GANG, 0)"));
    has(
        &f,
        "RED_FINI (VECTOR, 1)       shuffle tree: __shfl_down_sync offsets 4, 2, 1 with width 8",
    );
    has(&f, "RED_FINI (WORKER, 1)       seed 000's block reduction: the tree continues over lanes 0, 8, 16");
    has(&f, "RED_FINI (VECTOR, 1)       shuffle tree");
    assert!(
        f.contains("the 2 reductions go through it in one pass"),
        "{f}"
    );
}

#[test]
fn vectors_that_straddle_warps_use_pieces_and_the_dispersed_algorithm() {
    let f = form(
        "acc parallel loop gang worker vector num_workers(5) vector_length(24) copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    has(
        &f,
        "RED_FINI (VECTOR, 1)       a vector's 24 lanes may straddle warps",
    );
    assert!(f.contains("the dispersed algorithm (seed 000)"), "{f}");
    let runtime = form(
        "acc parallel loop gang worker vector num_workers(2) vector_length(n) copyin(v) reduction(+: s)",
        Strategy::Tree,
    );
    has(
        &runtime,
        "RED_FINI (VECTOR, 1)       a vector's vector_length(n) lanes may straddle warps",
    );
    let whole = form(
        "acc parallel loop gang vector vector_length(96) copyin(v) reduction(+: s)",
        Strategy::Tree,
    );
    has(&whole, "RED_FINI (VECTOR, 1)       seed 000's block reduction: a contiguous shuffle tree in each warp");
}

#[test]
fn openmp_simd_is_the_vector_level_of_a_warp() {
    let f = form(
        "omp target teams distribute parallel for simd map(to: v) reduction(+: s)",
        Strategy::Tree,
    );
    has(&f, "levels:     GANG = CUDA block (blocks: from the trip count, at most 1024); WORKER = the warps of the block's 256 threads (parallel for); VECTOR = the 32 lanes of a warp (simd)");
    has(&f, "RED_FINI (VECTOR, 1)       shuffle tree: __shfl_down_sync offsets 16, 8, 4, 2, 1, member mask");
    has(
        &f,
        "RED_FINI (WORKER, 1)       seed 000's block reduction: lane 0 of each warp already holds",
    );
    has(&f, "// reduction on the teams construct (teams = gang) of `omp target teams distribute parallel for simd`");
}

#[test]
fn lock_strategy_is_seed_001s_design() {
    let f = form(
        "acc parallel loop gang worker vector num_workers(4) vector_length(32) copyin(v) reduction(+: s)",
        Strategy::Lock,
    );
    has(&f, "RED_SETUP (WORKER, 1)      thread 0 stores LOCAL into the `__shared__` buffer slot (LID, RID)");
    has(&f, "FORK (WORKER)              named barrier 1");
    has(
        &f,
        "RED_LOCK (WORKER, 1)       lane 0 of each warp take the `__shared__` spin lock",
    );
    has(&f, "RED_TEARDOWN (WORKER, 1)   V = buffer(LID, RID)");
    has(
        &f,
        "RED_LOCK (GANG, 0)         thread 0 takes the global spin lock",
    );
    has(&f, "RED_FINI (VECTOR, 1)       shuffle tree");
}

#[test]
fn atomic_strategy_needs_an_atomic_for_every_reduction_of_the_loop() {
    let all = form(
        "omp target teams distribute parallel for map(to: v) reduction(+: s)",
        Strategy::Atomic,
    );
    has(&all, "RED_FINI (GANG, 0)         thread 0 combines LOCAL into *RES_PTR with a native atomic: p2c_atomic_add s");
    let mixed = form(
        "omp target teams distribute parallel for map(to: v) reduction(+: s) reduction(*: t)",
        Strategy::Atomic,
    );
    has(&mixed, "note:       atomic: no native atomic for `*` on t");
    has(
        &mixed,
        "RED_FINI (GANG, 0)         thread 0 stores the block's reduction data",
    );
    let small = form_of(
        "omp target teams distribute parallel for map(to: v) reduction(+: s)",
        "short",
        Strategy::Atomic,
    );
    has(&small, "note:       atomic: no native atomic for `+` on s");
}

#[test]
fn bitwise_and_logical_operators_have_their_identities() {
    let text = "unsigned char v[100];\nint f(void)\n{\n    unsigned char a = 1, o = 0, x = 0;\n    _Bool l = 1, m = 0;\n#pragma acc parallel loop copyin(v) reduction(&: a) reduction(|: o) reduction(^: x) reduction(&&: l) reduction(||: m)\n    for (int i = 0; i < 100; i++) {\n        a &= v[i];\n        o |= v[i];\n        x ^= v[i];\n        l = l && v[i];\n        m = m || v[i];\n    }\n    return a + o + x + l + m;\n}\n";
    let t = translate(
        &SourceFile::new("t.c", text),
        &Options {
            emit: Emit::Reductions,
            ..Default::default()
        },
    );
    let f = t.output.unwrap_or_default();
    assert!(f.contains("(a = ~0, o = 0, x = 0, l = 1, m = 0)"), "{f}");
    has(&f, "reduction:  rid 0 & a : unsigned char (unsigned 8-bit integer, promoted to 32 bits for shuffles)");
    has(
        &f,
        "reduction:  rid 3 && l : _Bool (_Bool, promoted to 32 bits for shuffles)",
    );
}
