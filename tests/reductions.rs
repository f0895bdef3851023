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

#[test]
fn reduction_on_the_parallel_construct_is_the_null_outermost_loop() {
    let f = form(
        "acc parallel loop gang vector copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    expect_test::expect![[r#"
        region f_L5 at t.c:5:1 in f()
          directive:  acc parallel loop
          levels:     GANG = CUDA block (blocks: from the trip count, at most 1024); VECTOR = threadIdx.x (256 lanes)
          strategy:   tree
          reduction:  rid 0 + s : int (signed 32-bit integer)
          reduction:  rid 1 * t : int (signed 32-bit integer)
          objects:    RESULT = the copy objects s t (RES_PTR &s, &t = their device copies); LOCAL = each thread's private copy

          // reduction on the parallel construct of `acc parallel loop`: the NULL outermost loop, lid 0
          s = RED_SETUP (&s, s, GANG, +, 0, 0)
          t = RED_SETUP (&t, t, GANG, *, 0, 1)
          s = RED_INIT (&s, s, GANG, +, 0, 0)
          t = RED_INIT (&t, t, GANG, *, 0, 1)
          // loop i, lid 1: gang vector; its GANG level is the construct's reduction (no second RED_SETUP / RED_INIT)
          // VECTOR RESULT is private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost
          s = RED_SETUP (NULL, s, VECTOR, +, 1, 0)
          t = RED_SETUP (NULL, t, VECTOR, *, 1, 1)
          FORK (VECTOR)
          s = RED_INIT (NULL, s, VECTOR, +, 1, 0)
          t = RED_INIT (NULL, t, VECTOR, *, 1, 1)
          for (i = 0; i < n; i += 1) { ... }
          RED_LOCK (VECTOR, 1)
          s = RED_FINI (NULL, s, VECTOR, +, 1, 0)
          t = RED_FINI (NULL, t, VECTOR, *, 1, 1)
          RED_UNLOCK (VECTOR, 1)
          JOIN (VECTOR)
          s = RED_TEARDOWN (NULL, s, VECTOR, +, 1, 0)
          t = RED_TEARDOWN (NULL, t, VECTOR, *, 1, 1)
          // end of the construct: the NULL outermost loop, lid 0
          RED_LOCK (GANG, 0)
          s = RED_FINI (&s, s, GANG, +, 0, 0)
          t = RED_FINI (&t, t, GANG, *, 0, 1)
          RED_UNLOCK (GANG, 0)
          s = RED_TEARDOWN (&s, s, GANG, +, 0, 0)
          t = RED_TEARDOWN (&t, t, GANG, *, 0, 1)

          expansion:
            RED_SETUP (GANG, 0)        host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom); per-block partials of the reduction data and an arrival counter
            RED_INIT (GANG, 0)         V = init_val(OP) in every thread: the private LOCAL objects (s = 0, t = 1)
            RED_SETUP (VECTOR, 1)      V = LOCAL
            FORK (VECTOR)              the lanes run from the kernel's start
            RED_INIT (VECTOR, 1)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_LOCK (VECTOR, 1)       vector reductions need no lock
            RED_FINI (VECTOR, 1)       seed 000's block reduction: a contiguous shuffle tree in each warp (offsets 16, 8, 4, 2, 1; lanes whose partner is past a partial warp keep their value); warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0; the 2 reductions go through it in one pass (one shuffle each per step)
            RED_UNLOCK (VECTOR, 1)     no lock
            JOIN (VECTOR)              nothing
            RED_TEARDOWN (VECTOR, 1)   V = LOCAL: the value is in the holder lanes
            RED_LOCK (GANG, 0)         no lock: each block writes its own partial; the last block to arrive combines them
            RED_FINI (GANG, 0)         thread 0 stores the block's reduction data into partials[blockIdx.x], __threadfence, atomicInc on the arrival counter (it wraps back to 0 for the next launch); the last block to arrive reads every partial in block order, reduces them with the block tree and folds the result into *RES_PTR: no atomics on the data, a result independent of block scheduling
            RED_UNLOCK (GANG, 0)       no lock
            RED_TEARDOWN (GANG, 0)     host, after the launch: the device copy goes back into the RESULT (unmap)
            host fallback              none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does

    "#]].assert_eq(&f);
}

#[test]
fn kernels_gang_loop_reduces_at_its_own_gang_level() {
    let f = form(
        "acc kernels loop gang vector copyin(v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    expect_test::expect![[r#"
        region f_L5 at t.c:5:1 in f()
          directive:  acc kernels loop
          levels:     GANG = CUDA block (blocks: from the trip count, at most 1024); VECTOR = threadIdx.x (256 lanes)
          strategy:   tree
          reduction:  rid 0 + s : int (signed 32-bit integer)
          reduction:  rid 1 * t : int (signed 32-bit integer)
          objects:    RESULT = the copy objects s t (RES_PTR &s, &t = their device copies); LOCAL = each thread's private copy

          // loop i, lid 0: gang vector; gang reduction of a copy object
          s = RED_SETUP (&s, s, GANG, +, 0, 0)
          t = RED_SETUP (&t, t, GANG, *, 0, 1)
          FORK (GANG)
          s = RED_INIT (&s, s, GANG, +, 0, 0)
          t = RED_INIT (&t, t, GANG, *, 0, 1)
          // VECTOR RESULT is private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost
          s = RED_SETUP (NULL, s, VECTOR, +, 0, 0)
          t = RED_SETUP (NULL, t, VECTOR, *, 0, 1)
          FORK (VECTOR)
          s = RED_INIT (NULL, s, VECTOR, +, 0, 0)
          t = RED_INIT (NULL, t, VECTOR, *, 0, 1)
          for (i = 0; i < n; i += 1) { ... }
          RED_LOCK (VECTOR, 0)
          s = RED_FINI (NULL, s, VECTOR, +, 0, 0)
          t = RED_FINI (NULL, t, VECTOR, *, 0, 1)
          RED_UNLOCK (VECTOR, 0)
          JOIN (VECTOR)
          s = RED_TEARDOWN (NULL, s, VECTOR, +, 0, 0)
          t = RED_TEARDOWN (NULL, t, VECTOR, *, 0, 1)
          RED_LOCK (GANG, 0)
          s = RED_FINI (&s, s, GANG, +, 0, 0)
          t = RED_FINI (&t, t, GANG, *, 0, 1)
          RED_UNLOCK (GANG, 0)
          JOIN (GANG)
          s = RED_TEARDOWN (&s, s, GANG, +, 0, 0)
          t = RED_TEARDOWN (&t, t, GANG, *, 0, 1)

          expansion:
            RED_SETUP (GANG, 0)        host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom); per-block partials of the reduction data and an arrival counter
            FORK (GANG)                every block runs from the start
            RED_INIT (GANG, 0)         V = init_val(OP) in every thread: the private LOCAL objects (s = 0, t = 1)
            RED_SETUP (VECTOR, 0)      V = LOCAL
            FORK (VECTOR)              the lanes run from the kernel's start
            RED_INIT (VECTOR, 0)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_LOCK (VECTOR, 0)       vector reductions need no lock
            RED_FINI (VECTOR, 0)       seed 000's block reduction: a contiguous shuffle tree in each warp (offsets 16, 8, 4, 2, 1; lanes whose partner is past a partial warp keep their value); warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0; the 2 reductions go through it in one pass (one shuffle each per step)
            RED_UNLOCK (VECTOR, 0)     no lock
            JOIN (VECTOR)              nothing
            RED_TEARDOWN (VECTOR, 0)   V = LOCAL: the value is in the holder lanes
            RED_LOCK (GANG, 0)         no lock: each block writes its own partial; the last block to arrive combines them
            RED_FINI (GANG, 0)         thread 0 stores the block's reduction data into partials[blockIdx.x], __threadfence, atomicInc on the arrival counter (it wraps back to 0 for the next launch); the last block to arrive reads every partial in block order, reduces them with the block tree and folds the result into *RES_PTR: no atomics on the data, a result independent of block scheduling
            RED_UNLOCK (GANG, 0)       no lock
            JOIN (GANG)                the kernel ends
            RED_TEARDOWN (GANG, 0)     host, after the launch: the device copy goes back into the RESULT (unmap)
            host fallback              none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does

    "#]].assert_eq(&f);
}

#[test]
fn no_gang_level_gets_the_dummy_gang_reduction() {
    let f = form(
        "omp target parallel for map(to: v) reduction(+: s) reduction(*: t)",
        Strategy::Tree,
    );
    expect_test::expect![[r#"
        region f_L5 at t.c:5:1 in f()
          directive:  omp target parallel for
          levels:     GANG = CUDA block (blocks: 1); WORKER = each of the block's 256 threads (parallel for)
          strategy:   tree
          reduction:  rid 0 + s : int (signed 32-bit integer)
          reduction:  rid 1 * t : int (signed 32-bit integer)
          objects:    RESULT = the copy objects s t (RES_PTR &s, &t = their device copies); LOCAL = each thread's private copy

          // dummy gang reduction around the worker reduction of a copy object (same lid and rid as the loop)
          s = RED_SETUP (&s, s, GANG, +, 0, 0)
          t = RED_SETUP (&t, t, GANG, *, 0, 1)
          s = RED_INIT (&s, s, GANG, +, 0, 0)
          t = RED_INIT (&t, t, GANG, *, 0, 1)
          // loop i, lid 0: worker
          // WORKER RESULT is private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost
          s = RED_SETUP (NULL, s, WORKER, +, 0, 0)
          t = RED_SETUP (NULL, t, WORKER, *, 0, 1)
          FORK (WORKER)
          s = RED_INIT (NULL, s, WORKER, +, 0, 0)
          t = RED_INIT (NULL, t, WORKER, *, 0, 1)
          for (i = 0; i < n; i += 1) { ... }
          RED_LOCK (WORKER, 0)
          s = RED_FINI (NULL, s, WORKER, +, 0, 0)
          t = RED_FINI (NULL, t, WORKER, *, 0, 1)
          RED_UNLOCK (WORKER, 0)
          JOIN (WORKER)
          s = RED_TEARDOWN (NULL, s, WORKER, +, 0, 0)
          t = RED_TEARDOWN (NULL, t, WORKER, *, 0, 1)
          // dummy gang reduction at the end (locked too: several gangs may update *RES_PTR)
          RED_LOCK (GANG, 0)
          s = RED_FINI (&s, s, GANG, +, 0, 0)
          t = RED_FINI (&t, t, GANG, *, 0, 1)
          RED_UNLOCK (GANG, 0)
          s = RED_TEARDOWN (&s, s, GANG, +, 0, 0)
          t = RED_TEARDOWN (&t, t, GANG, *, 0, 1)

          expansion:
            RED_SETUP (GANG, 0)        host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom)
            RED_INIT (GANG, 0)         V = init_val(OP) in every thread: the private LOCAL objects (s = 0, t = 1)
            RED_SETUP (WORKER, 0)      V = LOCAL
            FORK (WORKER)              the workers run from the kernel's start
            RED_INIT (WORKER, 0)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_LOCK (WORKER, 0)       the tree needs no lock: warp shuffles, then named barrier 1
            RED_FINI (WORKER, 0)       seed 000's block reduction: a contiguous shuffle tree in each warp (offsets 16, 8, 4, 2, 1; lanes whose partner is past a partial warp keep their value); warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0; the 2 reductions go through it in one pass (one shuffle each per step)
            RED_UNLOCK (WORKER, 0)     no lock
            JOIN (WORKER)              the tree ends with a named barrier
            RED_TEARDOWN (WORKER, 0)   V = LOCAL: the block's value is in thread 0
            RED_LOCK (GANG, 0)         no lock: the launch has one gang
            RED_FINI (GANG, 0)         thread 0 of the launch's only block: V = OP(*RES_PTR, LOCAL); *RES_PTR = V
            RED_UNLOCK (GANG, 0)       no lock
            RED_TEARDOWN (GANG, 0)     host, after the launch: the device copy goes back into the RESULT (unmap)
            host fallback              none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does

    "#]].assert_eq(&f);
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
    expect_test::expect![[r#"
        region f_L5 at t.c:5:1 in f()
          directive:  omp target teams distribute parallel for simd
          levels:     GANG = CUDA block (blocks: from the trip count, at most 1024); WORKER = the warps of the block's 256 threads (parallel for); VECTOR = the 32 lanes of a warp (simd)
          strategy:   tree
          reduction:  rid 0 + s : int (signed 32-bit integer)
          objects:    RESULT = the copy object s (RES_PTR &s = its device copy); LOCAL = each thread's private copy

          // reduction on the teams construct (teams = gang) of `omp target teams distribute parallel for simd`: the NULL outermost loop, lid 0
          s = RED_SETUP (&s, s, GANG, +, 0, 0)
          s = RED_INIT (&s, s, GANG, +, 0, 0)
          // loop i, lid 1: gang worker vector; its GANG level is the construct's reduction (no second RED_SETUP / RED_INIT)
          // WORKER and VECTOR RESULTs are private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost
          s = RED_SETUP (NULL, s, WORKER, +, 1, 0)
          FORK (WORKER)
          s = RED_INIT (NULL, s, WORKER, +, 1, 0)
          s = RED_SETUP (NULL, s, VECTOR, +, 1, 0)
          FORK (VECTOR)
          s = RED_INIT (NULL, s, VECTOR, +, 1, 0)
          for (i = 0; i < n; i += 1) { ... }
          RED_LOCK (VECTOR, 1)
          s = RED_FINI (NULL, s, VECTOR, +, 1, 0)
          RED_UNLOCK (VECTOR, 1)
          JOIN (VECTOR)
          s = RED_TEARDOWN (NULL, s, VECTOR, +, 1, 0)
          RED_LOCK (WORKER, 1)
          s = RED_FINI (NULL, s, WORKER, +, 1, 0)
          RED_UNLOCK (WORKER, 1)
          JOIN (WORKER)
          s = RED_TEARDOWN (NULL, s, WORKER, +, 1, 0)
          // end of the construct: the NULL outermost loop, lid 0
          RED_LOCK (GANG, 0)
          s = RED_FINI (&s, s, GANG, +, 0, 0)
          RED_UNLOCK (GANG, 0)
          s = RED_TEARDOWN (&s, s, GANG, +, 0, 0)

          expansion:
            RED_SETUP (GANG, 0)        host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom); per-block partials of the reduction data and an arrival counter
            RED_INIT (GANG, 0)         V = init_val(OP) in every thread: the private LOCAL objects (s = 0)
            RED_SETUP (WORKER, 1)      V = LOCAL
            FORK (WORKER)              the workers run from the kernel's start
            RED_INIT (WORKER, 1)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_SETUP (VECTOR, 1)      V = LOCAL
            FORK (VECTOR)              the lanes run from the kernel's start
            RED_INIT (VECTOR, 1)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_LOCK (VECTOR, 1)       vector reductions need no lock
            RED_FINI (VECTOR, 1)       shuffle tree: __shfl_down_sync offsets 16, 8, 4, 2, 1, member mask = the warp's existing lanes; a partial last warp uses the contiguous algorithm (seed 000); the vector's value ends in its lane 0
            RED_UNLOCK (VECTOR, 1)     no lock
            JOIN (VECTOR)              nothing
            RED_TEARDOWN (VECTOR, 1)   V = LOCAL: the value is in the holder lanes
            RED_LOCK (WORKER, 1)       the tree needs no lock: warp shuffles, then named barrier 1
            RED_FINI (WORKER, 1)       seed 000's block reduction: lane 0 of each warp already holds the warp's value; warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0
            RED_UNLOCK (WORKER, 1)     no lock
            JOIN (WORKER)              the tree ends with a named barrier
            RED_TEARDOWN (WORKER, 1)   V = LOCAL: the block's value is in thread 0
            RED_LOCK (GANG, 0)         no lock: each block writes its own partial; the last block to arrive combines them
            RED_FINI (GANG, 0)         thread 0 stores the block's reduction data into partials[blockIdx.x], __threadfence, atomicInc on the arrival counter (it wraps back to 0 for the next launch); the last block to arrive reads every partial in block order, reduces them with the block tree and folds the result into *RES_PTR: no atomics on the data, a result independent of block scheduling
            RED_UNLOCK (GANG, 0)       no lock
            RED_TEARDOWN (GANG, 0)     host, after the launch: the device copy goes back into the RESULT (unmap)
            host fallback              none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does

    "#]].assert_eq(&f);
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
    expect_test::expect![[r#"
        region f_L6 at t.c:6:1 in f()
          directive:  acc parallel loop
          levels:     GANG = CUDA block (blocks: from the trip count, at most 1024); VECTOR = threadIdx.x (256 lanes)
          strategy:   tree
          reduction:  rid 0 & a : unsigned char (unsigned 8-bit integer, promoted to 32 bits for shuffles)
          reduction:  rid 1 | o : unsigned char (unsigned 8-bit integer, promoted to 32 bits for shuffles)
          reduction:  rid 2 ^ x : unsigned char (unsigned 8-bit integer, promoted to 32 bits for shuffles)
          reduction:  rid 3 && l : _Bool (_Bool, promoted to 32 bits for shuffles)
          reduction:  rid 4 || m : _Bool (_Bool, promoted to 32 bits for shuffles)
          objects:    RESULT = the copy objects a o x l m (RES_PTR &a, &o, &x, &l, &m = their device copies); LOCAL = each thread's private copy

          // reduction on the parallel construct of `acc parallel loop`: the NULL outermost loop, lid 0
          a = RED_SETUP (&a, a, GANG, &, 0, 0)
          o = RED_SETUP (&o, o, GANG, |, 0, 1)
          x = RED_SETUP (&x, x, GANG, ^, 0, 2)
          l = RED_SETUP (&l, l, GANG, &&, 0, 3)
          m = RED_SETUP (&m, m, GANG, ||, 0, 4)
          a = RED_INIT (&a, a, GANG, &, 0, 0)
          o = RED_INIT (&o, o, GANG, |, 0, 1)
          x = RED_INIT (&x, x, GANG, ^, 0, 2)
          l = RED_INIT (&l, l, GANG, &&, 0, 3)
          m = RED_INIT (&m, m, GANG, ||, 0, 4)
          // loop i, lid 1: gang vector; its GANG level is the construct's reduction (no second RED_SETUP / RED_INIT)
          // VECTOR RESULT is private (RES_PTR NULL): each level's RESULT is the LOCAL of the level around it, GANG's LOCAL outermost
          a = RED_SETUP (NULL, a, VECTOR, &, 1, 0)
          o = RED_SETUP (NULL, o, VECTOR, |, 1, 1)
          x = RED_SETUP (NULL, x, VECTOR, ^, 1, 2)
          l = RED_SETUP (NULL, l, VECTOR, &&, 1, 3)
          m = RED_SETUP (NULL, m, VECTOR, ||, 1, 4)
          FORK (VECTOR)
          a = RED_INIT (NULL, a, VECTOR, &, 1, 0)
          o = RED_INIT (NULL, o, VECTOR, |, 1, 1)
          x = RED_INIT (NULL, x, VECTOR, ^, 1, 2)
          l = RED_INIT (NULL, l, VECTOR, &&, 1, 3)
          m = RED_INIT (NULL, m, VECTOR, ||, 1, 4)
          for (i = 0; i < 100; i += 1) { ... }
          RED_LOCK (VECTOR, 1)
          a = RED_FINI (NULL, a, VECTOR, &, 1, 0)
          o = RED_FINI (NULL, o, VECTOR, |, 1, 1)
          x = RED_FINI (NULL, x, VECTOR, ^, 1, 2)
          l = RED_FINI (NULL, l, VECTOR, &&, 1, 3)
          m = RED_FINI (NULL, m, VECTOR, ||, 1, 4)
          RED_UNLOCK (VECTOR, 1)
          JOIN (VECTOR)
          a = RED_TEARDOWN (NULL, a, VECTOR, &, 1, 0)
          o = RED_TEARDOWN (NULL, o, VECTOR, |, 1, 1)
          x = RED_TEARDOWN (NULL, x, VECTOR, ^, 1, 2)
          l = RED_TEARDOWN (NULL, l, VECTOR, &&, 1, 3)
          m = RED_TEARDOWN (NULL, m, VECTOR, ||, 1, 4)
          // end of the construct: the NULL outermost loop, lid 0
          RED_LOCK (GANG, 0)
          a = RED_FINI (&a, a, GANG, &, 0, 0)
          o = RED_FINI (&o, o, GANG, |, 0, 1)
          x = RED_FINI (&x, x, GANG, ^, 0, 2)
          l = RED_FINI (&l, l, GANG, &&, 0, 3)
          m = RED_FINI (&m, m, GANG, ||, 0, 4)
          RED_UNLOCK (GANG, 0)
          a = RED_TEARDOWN (&a, a, GANG, &, 0, 0)
          o = RED_TEARDOWN (&o, o, GANG, |, 0, 1)
          x = RED_TEARDOWN (&x, x, GANG, ^, 0, 2)
          l = RED_TEARDOWN (&l, l, GANG, &&, 0, 3)
          m = RED_TEARDOWN (&m, m, GANG, ||, 0, 4)

          expansion:
            RED_SETUP (GANG, 0)        host, before the launch: RES_PTR = the device copy of each RESULT (map tofrom); per-block partials of the reduction data and an arrival counter
            RED_INIT (GANG, 0)         V = init_val(OP) in every thread: the private LOCAL objects (a = ~0, o = 0, x = 0, l = 1, m = 0)
            RED_SETUP (VECTOR, 1)      V = LOCAL
            FORK (VECTOR)              the lanes run from the kernel's start
            RED_INIT (VECTOR, 1)       LOCAL already holds init_val(OP) (RED_INIT at GANG): keeping it or taking init_val(OP) is the same
            RED_LOCK (VECTOR, 1)       vector reductions need no lock
            RED_FINI (VECTOR, 1)       seed 000's block reduction: a contiguous shuffle tree in each warp (offsets 16, 8, 4, 2, 1; lanes whose partner is past a partial warp keep their value); warp masters copy to `__shared__` slots (one per warp), named barrier 1 counting the block's threads (p2c_bar_sync), warp 0 reduces the slots with the contiguous tree; the block's value ends in thread 0; the 5 reductions go through it in one pass (one shuffle each per step)
            RED_UNLOCK (VECTOR, 1)     no lock
            JOIN (VECTOR)              nothing
            RED_TEARDOWN (VECTOR, 1)   V = LOCAL: the value is in the holder lanes
            RED_LOCK (GANG, 0)         no lock: each block writes its own partial; the last block to arrive combines them
            RED_FINI (GANG, 0)         thread 0 stores the block's reduction data into partials[blockIdx.x], __threadfence, atomicInc on the arrival counter (it wraps back to 0 for the next launch); the last block to arrive reads every partial in block order, reduces them with the block tree and folds the result into *RES_PTR: no atomics on the data, a result independent of block scheduling
            RED_UNLOCK (GANG, 0)       no lock
            RED_TEARDOWN (GANG, 0)     host, after the launch: the device copy goes back into the RESULT (unmap)
            host fallback              none (no if clause): seed 001's host expansion (V = LOCAL, the loop updates the variables in place) is what gcc's host build of the same file does

    "#]].assert_eq(&f);
}
