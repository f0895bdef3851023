//! The directive front end from the outside: every directive and clause shape,
//! exact spans, continuations / comments / `_Pragma`, error recovery and
//! suggestions, print->parse identity on generated directives, and no panics
//! on random or mutated input.

use pragma2cuda::diag::{codes, Diagnostic};
use pragma2cuda::directives::{
    parse_pragma, print, Arg, ClauseArgs, Directive, ExprText, ListItem, Model, Word,
};
use pragma2cuda::source::mask::{find_pragmas, mask};
use pragma2cuda::source::Span;

fn parse(s: &str) -> (Option<Directive>, Vec<Diagnostic>) {
    parse_pragma(s, Span::new(0, s.len()))
}

fn ok(s: &str) -> Directive {
    let (d, diags) = parse(s);
    assert!(diags.is_empty(), "{s}: {diags:#?}");
    d.unwrap_or_else(|| panic!("no directive for {s}"))
}

fn slice(s: &str, sp: Span) -> &str {
    &s[sp.start..sp.end]
}

const OMP_NAMES: &[&str] = &[
    "target",
    "target data",
    "target enter data",
    "target exit data",
    "target update",
    "declare target",
    "begin declare target",
    "end declare target",
    "teams",
    "distribute",
    "parallel",
    "for",
    "simd",
    "loop",
    "sections",
    "section",
    "single",
    "master",
    "masked",
    "critical",
    "atomic",
    "barrier",
    "taskwait",
    "task",
    "taskloop",
    "taskloop simd",
    "ordered",
    "flush",
    "declare reduction",
    "declare simd",
    "declare variant",
    "begin declare variant",
    "end declare variant",
    "requires",
    "threadprivate",
    "scan",
    "metadirective",
    "begin metadirective",
    "end metadirective",
    "taskgroup",
    "taskyield",
    "cancel",
    "cancellation point",
    "depobj",
    "scope",
    "tile",
    "unroll",
    "allocate",
    "allocators",
    "error",
    "nothing",
    "interop",
    "dispatch",
    "assume",
    "assumes",
    "begin assumes",
    "end assumes",
    "declare mapper",
    "for simd",
    "distribute simd",
    "distribute parallel for",
    "distribute parallel for simd",
    "parallel for",
    "parallel for simd",
    "parallel sections",
    "parallel loop",
    "parallel master",
    "parallel masked",
    "master taskloop",
    "master taskloop simd",
    "masked taskloop",
    "masked taskloop simd",
    "parallel master taskloop",
    "parallel master taskloop simd",
    "parallel masked taskloop",
    "parallel masked taskloop simd",
    "teams distribute",
    "teams distribute simd",
    "teams distribute parallel for",
    "teams distribute parallel for simd",
    "teams loop",
    "target parallel",
    "target parallel for",
    "target parallel for simd",
    "target parallel loop",
    "target simd",
    "target teams",
    "target teams distribute",
    "target teams distribute simd",
    "target teams loop",
    "target teams distribute parallel for",
    "target teams distribute parallel for simd",
];

const ACC_NAMES: &[&str] = &[
    "parallel",
    "kernels",
    "serial",
    "data",
    "enter data",
    "exit data",
    "host_data",
    "loop",
    "parallel loop",
    "kernels loop",
    "serial loop",
    "atomic",
    "declare",
    "init",
    "shutdown",
    "set",
    "update",
    "wait",
    "routine",
    "end parallel",
    "end kernels",
    "end serial",
    "end data",
    "end host_data",
    "end parallel loop",
    "end kernels loop",
    "end serial loop",
    "end atomic",
];

/// Directives whose argument in parentheses is required.
fn needs_arg(model: &str, name: &str) -> Option<&'static str> {
    match (model, name) {
        ("omp", "threadprivate") | ("omp", "allocate") => Some("(x)"),
        ("omp", "depobj") => Some("(o)"),
        ("omp", "declare reduction") => Some("(myadd : int : omp_out += omp_in)"),
        ("omp", "declare mapper") => Some("(struct s v)"),
        ("omp", "declare variant") => Some("(fgpu)"),
        ("acc", "cache") => Some("(a[0:4])"),
        _ => None,
    }
}

#[test]
fn every_directive_name_parses() {
    for (model, names) in [("omp", OMP_NAMES), ("acc", ACC_NAMES)] {
        for name in names {
            let src = format!(
                "#pragma {model} {name}{}",
                needs_arg(model, name).unwrap_or("")
            );
            let d = ok(&src);
            assert_eq!(d.name, *name, "{src}");
            assert_eq!(d.model.as_str(), model);
            assert_eq!(slice(&src, d.name_span), *name);
            assert_eq!(d.span, Span::new(0, src.len()));
        }
    }
    let d = ok("#pragma acc cache(a[0:4])");
    assert_eq!(print(&d), "acc cache(a[0:4])");
}

/// (pragma, canonical print) for every clause shape.
const SHAPES: &[(&str, &str)] = &[
    // bare, optional and required expressions
    ("omp for nowait", "omp for nowait"),
    ("omp for ordered", "omp for ordered"),
    ("omp for ordered(2)", "omp for ordered(2)"),
    ("omp parallel num_threads( n*2 )", "omp parallel num_threads(n*2)"),
    ("omp target device(ancestor:1)", "omp target device(ancestor: 1)"),
    ("omp taskloop grainsize(strict: 4) num_tasks(8)", "omp taskloop grainsize(strict: 4) num_tasks(8)"),
    ("omp target if(n > 100)", "omp target if(n > 100)"),
    ("omp target parallel if(target data:c) if(parallel: d)", "omp target parallel if(target data: c) if(parallel: d)"),
    ("omp teams num_teams(4:8) thread_limit(64)", "omp teams num_teams(4: 8) thread_limit(64)"),
    ("omp teams num_teams(n)", "omp teams num_teams(n)"),
    // lists
    ("omp parallel private(a, b) firstprivate(c) shared(d)", "omp parallel private(a, b) firstprivate(c) shared(d)"),
    ("omp for lastprivate(conditional: x)", "omp for lastprivate(conditional: x)"),
    ("omp target map(a)", "omp target map(a)"),
    ("omp target map(to:a[0:n])", "omp target map(to: a[0:n])"),
    ("omp target map(always close tofrom: s.x[1:2][:m], p->q[i])", "omp target map(always, close, tofrom: s.x[1:2][:m], p->q[i])"),
    ("omp target map(present, mapper(mine), from: a[lo:][::2])", "omp target map(present, mapper(mine), from: a[lo:][::2])"),
    ("omp target update to(present: a[0:n]) from(b)", "omp target update to(present: a[0:n]) from(b)"),
    ("omp parallel for reduction(+:s) reduction(max: m) reduction(&&: f, g)", "omp parallel for reduction(+: s) reduction(max: m) reduction(&&: f, g)"),
    ("omp for reduction(inscan, +: s)", "omp for reduction(inscan, +: s)"),
    ("omp taskgroup task_reduction(*: p)", "omp taskgroup task_reduction(*: p)"),
    ("omp task in_reduction(myop: q)", "omp task in_reduction(myop: q)"),
    ("omp simd linear(i:2) aligned(a, b: 64) nontemporal(c)", "omp simd linear(i: 2) aligned(a, b: 64) nontemporal(c)"),
    ("omp simd linear(x, y: val, step(4))", "omp simd linear(x, y: val, step(4))"),
    ("omp task depend(in: a, b[i]) depend(iterator(it=0:n), out: c[it])", "omp task depend(in: a, b[i]) depend(iterator(it=0:n), out: c[it])"),
    ("omp ordered depend(sink: i-1, j) ", "omp ordered depend(sink: i-1, j)"),
    ("omp ordered depend(source)", "omp ordered depend(source)"),
    ("omp ordered doacross(source:)", "omp ordered doacross(source:)"),
    ("omp ordered doacross(sink: i - 1)", "omp ordered doacross(sink: i - 1)"),
    ("omp target data use_device_ptr(p) use_device_addr(q)", "omp target data use_device_ptr(p) use_device_addr(q)"),
    ("omp target is_device_ptr(p) has_device_addr(q)", "omp target is_device_ptr(p) has_device_addr(q)"),
    ("omp parallel allocate(omp_high_bw_mem_alloc: x) allocate(y)", "omp parallel allocate(omp_high_bw_mem_alloc: x) allocate(y)"),
    ("omp declare target enter(f) link(g) device_type(nohost) indirect", "omp declare target enter(f) link(g) device_type(nohost) indirect"),
    ("omp declare target to(f, g)", "omp declare target to(f, g)"),
    ("omp declare target(f, g)", "omp declare target(f, g)"),
    // keywords and argument lists
    ("omp parallel default(none) proc_bind(spread)", "omp parallel default(none) proc_bind(spread)"),
    ("omp target defaultmap(tofrom:scalar) defaultmap(firstprivate)", "omp target defaultmap(tofrom: scalar) defaultmap(firstprivate)"),
    ("omp for schedule(static) schedule(dynamic, 4)", "omp for schedule(static) schedule(dynamic, 4)"),
    ("omp for schedule(monotonic, simd: guided, n/2)", "omp for schedule(monotonic, simd: guided, n/2)"),
    ("omp distribute dist_schedule(static, 64)", "omp distribute dist_schedule(static, 64)"),
    ("omp loop order(concurrent) bind(thread)", "omp loop order(concurrent) bind(thread)"),
    ("omp for order(reproducible: concurrent)", "omp for order(reproducible: concurrent)"),
    ("omp tile sizes(4, 8)", "omp tile sizes(4, 8)"),
    ("omp unroll partial(4)", "omp unroll partial(4)"),
    ("omp atomic update seq_cst", "omp atomic update seq_cst"),
    ("omp atomic compare capture fail(relaxed)", "omp atomic compare capture fail(relaxed)"),
    ("omp requires unified_shared_memory atomic_default_mem_order(seq_cst)", "omp requires unified_shared_memory atomic_default_mem_order(seq_cst)"),
    ("omp flush acq_rel", "omp flush acq_rel"),
    ("omp flush(a, b)", "omp flush(a, b)"),
    ("omp critical(name) hint(omp_sync_hint_contended)", "omp critical(name) hint(omp_sync_hint_contended)"),
    ("omp cancel parallel if(c)", "omp cancel parallel if(c)"),
    ("omp cancellation point for", "omp cancellation point for"),
    ("omp masked filter(1)", "omp masked filter(1)"),
    ("omp scan inclusive(s)", "omp scan inclusive(s)"),
    ("omp scan exclusive(s)", "omp scan exclusive(s)"),
    ("omp threadprivate(t1, t2)", "omp threadprivate(t1, t2)"),
    ("omp depobj(o) depend(inout: x)", "omp depobj(o) depend(inout: x)"),
    ("omp depobj(o) update(in)", "omp depobj(o) update(in)"),
    ("omp declare reduction(merge : struct s : omp_out = omp_in.v > omp_out.v ? omp_in : omp_out) initializer(omp_priv = omp_orig)",
     "omp declare reduction(merge : struct s : omp_out = omp_in.v > omp_out.v ? omp_in : omp_out) initializer(omp_priv = omp_orig)"),
    ("omp declare simd uniform(p) simdlen(8) notinbranch", "omp declare simd uniform(p) simdlen(8) notinbranch"),
    ("omp declare variant(fgpu) match(device={arch(nvptx)})", "omp declare variant(fgpu) match(device={arch(nvptx)})"),
    ("omp metadirective when(device={kind(gpu)}: target teams) default(parallel for)",
     "omp metadirective when(device={kind(gpu)}: target teams) default(parallel for)"),
    ("omp task untied mergeable final(d > 3) priority(2) detach(ev) affinity(a[0:4])",
     "omp task untied mergeable final(d > 3) priority(2) detach(ev) affinity(a[0:4])"),
    ("omp target uses_allocators(omp_default_mem_alloc) nowait", "omp target uses_allocators(omp_default_mem_alloc) nowait"),
    ("omp single copyprivate(x)", "omp single copyprivate(x)"),
    ("omp parallel copyin(tp)", "omp parallel copyin(tp)"),
    ("omp error at(compilation) severity(warning) message(\"no\")", "omp error at(compilation) severity(warning) message(\"no\")"),
    // OpenACC
    ("acc parallel loop gang vector", "acc parallel loop gang vector"),
    ("acc loop gang(num:4, static:*) worker(num: 2) vector(length: 128)", "acc loop gang(num: 4, static: *) worker(num: 2) vector(length: 128)"),
    ("acc loop gang(8) worker(4) vector(32)", "acc loop gang(8) worker(4) vector(32)"),
    ("acc routine gang(dim: 2) nohost", "acc routine gang(dim: 2) nohost"),
    ("acc loop seq", "acc loop seq"),
    ("acc loop auto independent", "acc loop auto independent"),
    ("acc loop tile(8, *) collapse(force: 2)", "acc loop tile(8, *) collapse(force: 2)"),
    ("acc loop collapse(3) private(t) reduction(+: s)", "acc loop collapse(3) private(t) reduction(+: s)"),
    ("acc parallel async async(2) wait wait(1, 2) wait(devnum: d : queues: 3)",
     "acc parallel async async(2) wait wait(1, 2) wait(devnum: d : queues: 3)"),
    ("acc wait(1) async(2)", "acc wait(1) async(2)"),
    ("acc wait", "acc wait"),
    ("acc kernels device_type(nvidia, host) num_gangs(4) dtype(*) num_workers(2) vector_length(64)",
     "acc kernels device_type(nvidia, host) num_gangs(4) dtype(*) num_workers(2) vector_length(64)"),
    ("acc parallel num_gangs(1, 2, 3)", "acc parallel num_gangs(1, 2, 3)"),
    ("acc data copy(a) copyin(readonly: b[0:n]) copyout(zero: c[0:n]) create(zero: d) no_create(e) present(f) deviceptr(g) attach(h)",
     "acc data copy(a) copyin(readonly: b[0:n]) copyout(zero: c[0:n]) create(zero: d) no_create(e) present(f) deviceptr(g) attach(h)"),
    ("acc enter data copyin(a[0:n]) create(b) if(c) async", "acc enter data copyin(a[0:n]) create(b) if(c) async"),
    ("acc exit data copyout(a[0:n]) delete(b) detach(p) finalize", "acc exit data copyout(a[0:n]) delete(b) detach(p) finalize"),
    ("acc update self(a[0:n]) host(b) device(c) if_present", "acc update self(a[0:n]) host(b) device(c) if_present"),
    ("acc parallel self(on_host) default(present) firstprivate(x)", "acc parallel self(on_host) default(present) firstprivate(x)"),
    ("acc serial self", "acc serial self"),
    ("acc host_data use_device(a)", "acc host_data use_device(a)"),
    ("acc declare device_resident(x) link(y) create(z)", "acc declare device_resident(x) link(y) create(z)"),
    ("acc init device_type(nvidia) device_num(0)", "acc init device_type(nvidia) device_num(0)"),
    ("acc set default_async(1) device_num(0)", "acc set default_async(1) device_num(0)"),
    ("acc routine(f) seq bind(\"g\")", "acc routine(f) seq bind(\"g\")"),
    ("acc atomic capture", "acc atomic capture"),
    ("acc cache(readonly: a[i:4])", "acc cache(readonly: a[i:4])"),
    ("acc parallel pcopy(a) present_or_copyin(b) pcreate(c)", "acc parallel pcopy(a) present_or_copyin(b) pcreate(c)"),
];

/// A first clause whose name continues the directive name (`simd`, `for`,
/// `parallel`, `taskgroup` are clauses of `cancel` and `ordered` too) is
/// printed after a comma, so it does not read back as a longer directive.
#[test]
fn clause_that_extends_the_directive_name_prints_with_a_comma() {
    for (src, want, name) in [
        (
            "#pragma omp parallel for, simd",
            "omp parallel for, simd",
            "parallel for",
        ),
        (
            "#pragma omp target ,parallel",
            "omp target, parallel",
            "target",
        ),
        (
            "#pragma omp parallel, for nowait",
            "omp parallel, for nowait",
            "parallel",
        ),
        (
            "#pragma omp cancel parallel",
            "omp cancel parallel",
            "cancel",
        ),
        ("#pragma omp ordered simd", "omp ordered simd", "ordered"),
    ] {
        let d = ok(src);
        assert_eq!(d.name, name, "{src}");
        assert_eq!(print(&d), want, "{src}");
        let again = ok(want);
        assert_eq!(again.name, name, "{want}");
        assert_eq!(strip(&again), strip(&d), "{want}");
    }
}

#[test]
fn every_clause_shape_parses_and_prints() {
    for (src, want) in SHAPES {
        let full = format!("#pragma {src}");
        let d = ok(&full);
        assert_eq!(print(&d), *want, "{full}");
        let again = ok(want);
        assert_eq!(strip(&again), strip(&d), "{want}");
    }
}

#[test]
fn clause_structures() {
    let d = ok("#pragma omp target map(always, tofrom: a[1:n:2], s.b[:m][k]) reduction(max: r)");
    let map = d.clause("map").unwrap();
    let mods: Vec<&str> = map.modifiers().iter().map(|w| w.text.as_str()).collect();
    assert_eq!(mods, ["always", "tofrom"]);
    let a = &map.items()[0];
    assert_eq!((a.name.as_str(), a.path.as_str()), ("a", ""));
    let s0 = &a.sections[0];
    assert_eq!(s0.lower.as_ref().unwrap().text, "1");
    assert_eq!(s0.length.as_ref().unwrap().text, "n");
    assert_eq!(s0.stride.as_ref().unwrap().text, "2");
    assert!(!s0.is_index);
    let b = &map.items()[1];
    assert_eq!((b.name.as_str(), b.path.as_str()), ("s", ".b"));
    assert!(b.sections[0].lower.is_none());
    assert_eq!(b.sections[0].length.as_ref().unwrap().text, "m");
    assert!(b.sections[1].is_index);
    assert_eq!(b.sections[1].lower.as_ref().unwrap().text, "k");
    let r = d.clause("reduction").unwrap();
    assert_eq!(r.modifiers()[0].text, "max");
    assert_eq!(r.items()[0].name, "r");

    let d = ok("#pragma acc loop gang(num: 4, static: *) vector(length: 32) worker(8) tile(4, *)");
    let g = d.clause("gang").unwrap();
    assert_eq!(g.named_arg("num").unwrap().text, "4");
    assert_eq!(g.named_arg("static").unwrap().text, "*");
    assert_eq!(
        d.clause("vector")
            .unwrap()
            .named_arg("length")
            .unwrap()
            .text,
        "32"
    );
    assert_eq!(
        d.clause("worker")
            .unwrap()
            .positional_args()
            .next()
            .unwrap()
            .text,
        "8"
    );
    let tile: Vec<&str> = d
        .clause("tile")
        .unwrap()
        .positional_args()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(tile, ["4", "*"]);

    let d = ok("#pragma omp for schedule(nonmonotonic: dynamic, 16) default(none)");
    let sched: Vec<&str> = d
        .clause("schedule")
        .unwrap()
        .positional_args()
        .map(|e| e.text.as_str())
        .collect();
    assert_eq!(sched, ["nonmonotonic", "dynamic", "16"]);
    assert_eq!(d.clause("default").unwrap().keyword(), Some("none"));

    let d = ok("#pragma omp target if(target data: n > 10)");
    match &d.clauses[0].args {
        ClauseArgs::Expr {
            modifier: Some(m),
            expr,
        } => {
            assert_eq!(m.text, "target data");
            assert_eq!(expr.text, "n > 10");
        }
        other => panic!("{other:?}"),
    }
    assert!(ok("#pragma omp for nowait").clauses[0].args == ClauseArgs::None);
    assert!(ok("#pragma acc loop gang").clauses[0].args == ClauseArgs::None);
}

#[test]
fn spans_point_at_the_written_bytes() {
    let s =
        "  #  pragma  omp   target teams  map( tofrom : a[ 0 : n ] , p->x[i] ) num_teams(  4*k )";
    let d = ok(s);
    assert_eq!(slice(s, d.span), &s[2..]);
    assert_eq!(slice(s, d.name_span), "target teams");
    let m = &d.clauses[0];
    assert_eq!(slice(s, m.span), "map( tofrom : a[ 0 : n ] , p->x[i] )");
    assert_eq!(slice(s, m.name_span), "map");
    assert_eq!(slice(s, m.modifiers()[0].span), "tofrom");
    let a = &m.items()[0];
    assert_eq!(slice(s, a.span), "a[ 0 : n ]");
    assert_eq!(slice(s, a.name_span), "a");
    assert_eq!(slice(s, a.sections[0].span), "[ 0 : n ]");
    assert_eq!(slice(s, a.sections[0].length.as_ref().unwrap().span), "n");
    let p = &m.items()[1];
    assert_eq!(slice(s, p.span), "p->x[i]");
    assert_eq!(p.path, "->x");
    let e = d.clauses[1].expr().unwrap();
    assert_eq!(e.text, "4*k");
    assert_eq!(slice(s, e.span), "4*k");
}

#[test]
fn spans_are_absolute_inside_a_file() {
    let file =
        "int main() {\n  int a[10];\n#pragma acc parallel loop copy(a[0:10])\n  for (;;) {}\n}\n";
    let ps = find_pragmas(file);
    assert_eq!(ps.len(), 1);
    let (d, diags) = parse_pragma(file, ps[0].span);
    assert!(diags.is_empty());
    let d = d.unwrap();
    assert_eq!(
        slice(file, d.span),
        "#pragma acc parallel loop copy(a[0:10])"
    );
    assert_eq!(slice(file, d.clauses[0].items()[0].span), "a[0:10]");
}

#[test]
fn continuations_and_comments() {
    let s =
        "#pragma omp target \\\n    map(to: a[0:n]) /* a comment ) ( */ \\\n    nowait // trailing";
    let d = ok(s);
    assert_eq!(d.name, "target");
    assert_eq!(d.clauses.len(), 2);
    assert_eq!(slice(s, d.clauses[0].span), "map(to: a[0:n])");
    assert_eq!(slice(s, d.clauses[1].span), "nowait");
    // A word split by a continuation keeps one span over both pieces.
    let s = "#pragma omp parallel for num_thr\\\neads(a +\\\n b)";
    let d = ok(s);
    assert_eq!(slice(s, d.clauses[0].name_span), "num_thr\\\neads");
    assert_eq!(d.clauses[0].name, "num_threads");
    assert_eq!(d.clauses[0].expr().unwrap().text, "a + b");
    // Comments inside expressions become one space.
    let d = ok("#pragma omp parallel num_threads(a/*x*/+/**/b)");
    assert_eq!(d.clauses[0].expr().unwrap().text, "a + b");
    // CRLF continuation.
    let d = ok("#pragma acc loop \\\r\n gang");
    assert_eq!(d.clauses[0].name, "gang");
}

#[test]
fn pragma_operator_form() {
    let s = r#"f(); _Pragma("omp parallel for map(to: s[0:n]) if(c == \"x\")") g();"#;
    let ps = find_pragmas(s);
    assert_eq!(ps.len(), 1);
    let (d, diags) = parse_pragma(s, ps[0].span);
    assert!(diags.is_empty(), "{diags:?}");
    let d = d.unwrap();
    assert_eq!(
        slice(s, d.span),
        r#"_Pragma("omp parallel for map(to: s[0:n]) if(c == \"x\")")"#
    );
    assert_eq!(slice(s, d.name_span), "parallel for");
    assert_eq!(slice(s, d.clauses[0].items()[0].span), "s[0:n]");
    let e = d.clauses[1].expr().unwrap();
    assert_eq!(e.text, "c == \"x\"");
    assert_eq!(slice(s, e.span), r#"c == \"x\""#);
    let d = ok(r#"_Pragma ( "acc loop seq" )"#);
    assert_eq!(d.model, Model::Acc);
    // Malformed operators are reported, not panicked on.
    for bad in [
        r#"_Pragma("omp for"#,
        r#"_Pragma(omp for)"#,
        r#"_Pragma("omp for""#,
    ] {
        let (_, diags) = parse(bad);
        assert!(
            diags.iter().any(|d| d.code == codes::PRAGMA_SYNTAX),
            "{bad}"
        );
    }
    // Masking keeps the offsets.
    assert_eq!(mask(s, &ps).len(), s.len());
}

#[test]
fn not_omp_or_acc() {
    for s in [
        "#pragma once",
        "#pragma GCC ivdep",
        "#include <x.h>",
        "",
        "   ",
        "#",
        "#pragma",
        "_Pragma(\"once\")",
    ] {
        let (d, diags) = parse(s);
        assert!(d.is_none() && diags.is_empty(), "{s}: {diags:?}");
    }
}

fn codes_of(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn recovery_reports_every_error() {
    let s = "#pragma omp target teams map(tofro: a[0:n]) nowiat num_teams() private(1x, y) 42 collapse(2) firstprivate(z";
    let (d, diags) = parse(s);
    let d = d.unwrap();
    assert_eq!(
        codes_of(&diags),
        ["E0104", "E0103", "E0104", "E0104", "E0101", "E0101"]
    );
    // What could be recovered is kept.
    let names: Vec<&str> = d.clauses.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["map", "private", "collapse"]);
    assert_eq!(d.clause("private").unwrap().items()[0].name, "y");
    let spans: Vec<&str> = diags.iter().map(|d| slice(s, d.primary_span())).collect();
    assert_eq!(spans, ["tofro", "nowiat", "()", "1x", "42", "("]);
}

#[test]
fn suggestions() {
    let help = |s: &str| {
        let (_, diags) = parse(s);
        assert_eq!(diags.len(), 1, "{s}: {diags:?}");
        (
            diags[0].code.as_str(),
            slice(s, diags[0].primary_span()).to_string(),
            diags[0].help.clone(),
        )
    };
    assert_eq!(
        help("#pragma omp target map(tofro: a)"),
        (
            "E0104",
            "tofro".into(),
            Some("did you mean `tofrom`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp parallel for firstprivte(x)"),
        (
            "E0103",
            "firstprivte".into(),
            Some("did you mean `firstprivate`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp parallel for qwertyuiop(x)"),
        ("E0103", "qwertyuiop".into(), None)
    );
    assert_eq!(
        help("#pragma omp paralel for"),
        (
            "E0102",
            "paralel".into(),
            Some("did you mean `parallel for`?".into())
        )
    );
    assert_eq!(
        help("#pragma acc paralel loop"),
        (
            "E0102",
            "paralel".into(),
            Some("did you mean `parallel loop`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp frobnicate"),
        ("E0102", "frobnicate".into(), None)
    );
    assert_eq!(
        help("#pragma acc enter copyin(a)"),
        (
            "E0102",
            "copyin".into(),
            Some("did you mean `enter data`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp parallel NUM_THREADS(4)"),
        (
            "E0103",
            "NUM_THREADS".into(),
            Some("did you mean `num_threads`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp target teams distrbute"),
        (
            "E0103",
            "distrbute".into(),
            Some("did you mean the directive `target teams distribute`?".into())
        )
    );
    assert_eq!(
        help("#pragma omp for schedule(dynamik, 4)"),
        (
            "E0104",
            "dynamik".into(),
            Some("did you mean `dynamic`?".into())
        )
    );
    assert_eq!(
        help("#pragma acc loop gang(nmu: 4)"),
        ("E0104", "nmu".into(), Some("did you mean `num`?".into()))
    );
    assert_eq!(
        help("#pragma omp parallel default(nnone)"),
        ("E0104", "nnone".into(), Some("did you mean `none`?".into()))
    );
    let (_, diags) = parse("#pragma acc parallel num_threads(4)");
    assert_eq!(diags[0].notes, ["`num_threads` is an OpenMP clause"]);
    let (_, diags) = parse("#pragma omp parallel for reduction(/: s)");
    assert_eq!(codes_of(&diags), ["E0104"]);
    let (_, diags) = parse("#pragma omp target map(to, always: a)");
    assert_eq!(codes_of(&diags), ["E0104"]);
    let (_, diags) = parse("#pragma omp");
    assert_eq!(codes_of(&diags), ["E0101"]);
    let (_, diags) = parse("#pragma omp threadprivate");
    assert_eq!(codes_of(&diags), ["E0101"]);
    let (_, diags) = parse("#pragma omp for nowait(1)");
    assert_eq!(codes_of(&diags), ["E0104"]);
    // Missing words are reported at the parentheses, not at offset 0.
    let s = "#pragma omp for schedule(monotonic:) device(: 2)";
    let (_, diags) = parse(s);
    let spans: Vec<&str> = diags.iter().map(|d| slice(s, d.primary_span())).collect();
    assert_eq!(spans, ["(monotonic:)", "(: 2)"]);
    let (_, diags) = parse("#pragma omp target map(to: a[1:2:3:4], b[])");
    assert_eq!(codes_of(&diags), ["E0104", "E0104"]);
}

// ---------------------------------------------------------------------------
// print -> parse identity on generated directives

/// xorshift64*: a tiny deterministic generator.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, pct: usize) -> bool {
        self.below(100) < pct
    }
}

/// Whitespace, a comment or a continuation, or nothing.
fn gap(r: &mut Rng) -> &'static str {
    ["", "", "", " ", "  ", "\t", " /* c */ ", " \\\n ", "/**/"][r.below(9)]
}

fn ident(r: &mut Rng) -> String {
    let base = r.pick(&["a", "b", "n", "x_1", "arr", "p", "s", "len", "omp_in"]);
    base.to_string()
}

fn expr(r: &mut Rng, depth: usize) -> String {
    match if depth > 2 { r.below(2) } else { r.below(6) } {
        0 => ident(r),
        1 => format!("{}", r.below(1000)),
        2 => format!(
            "{}{}{}{}{}",
            expr(r, depth + 1),
            gap(r),
            r.pick(&["+", "-", "*", " / ", "<", ">=", "&&", "%"]),
            gap(r),
            expr(r, depth + 1)
        ),
        3 => format!("({}{})", gap(r), expr(r, depth + 1)),
        4 => format!(
            "{}({}, {})",
            ident(r),
            expr(r, depth + 1),
            expr(r, depth + 1)
        ),
        _ => format!(
            "{} ? {} : {}",
            expr(r, depth + 1),
            expr(r, depth + 1),
            expr(r, depth + 1)
        ),
    }
}

fn item(r: &mut Rng) -> String {
    let mut s = ident(r);
    if r.chance(20) {
        s.push_str(r.pick(&[".f", "->g", ".h.k"]));
    }
    for _ in 0..r.below(3) {
        s.push('[');
        s.push_str(gap(r));
        match r.below(6) {
            0 => s.push_str(&expr(r, 1)),
            1 => s.push_str(&format!("{}:{}", expr(r, 1), expr(r, 1))),
            2 => s.push_str(&format!(":{}", expr(r, 1))),
            3 => s.push_str(&format!("{}:", expr(r, 1))),
            4 => s.push_str(&format!("{}:{}:{}", expr(r, 1), expr(r, 1), expr(r, 1))),
            _ => s.push(':'),
        }
        s.push(']');
    }
    s
}

fn list(r: &mut Rng) -> String {
    let n = 1 + r.below(3);
    (0..n)
        .map(|_| item(r))
        .collect::<Vec<_>>()
        .join(&format!(",{}", gap(r)))
}

fn omp_clause(r: &mut Rng) -> String {
    match r.below(16) {
        0 => r
            .pick(&["nowait", "untied", "mergeable", "nogroup"])
            .to_string(),
        1 => format!(
            "{}({})",
            r.pick(&["private", "firstprivate", "shared", "is_device_ptr"]),
            list(r)
        ),
        2 => {
            let mut mods = Vec::new();
            for m in ["always", "close", "present"] {
                if r.chance(25) {
                    mods.push(m.to_string());
                }
            }
            if r.chance(70) {
                mods.push(
                    r.pick(&["to", "from", "tofrom", "alloc", "release", "delete"])
                        .to_string(),
                );
            }
            if mods.is_empty() {
                format!("map({})", list(r))
            } else {
                format!(
                    "map({}{}:{}{})",
                    mods.join(r.pick(&[", ", ",", " "])),
                    gap(r),
                    gap(r),
                    list(r)
                )
            }
        }
        3 => format!(
            "reduction({}:{})",
            r.pick(&["+", "*", "-", "&", "|", "^", "&&", "||", "min", "max", "myop"]),
            list(r)
        ),
        4 => format!(
            "{}({})",
            r.pick(&[
                "num_threads",
                "num_teams",
                "thread_limit",
                "collapse",
                "safelen",
                "priority"
            ]),
            expr(r, 0)
        ),
        5 => format!(
            "if({}{})",
            r.pick(&["", "target:", "target data :", "parallel: ", "simd:"]),
            expr(r, 0)
        ),
        6 => match r.below(3) {
            0 => format!(
                "schedule({})",
                r.pick(&["static", "dynamic", "guided", "auto", "runtime"])
            ),
            1 => format!(
                "schedule({}, {})",
                r.pick(&["static", "dynamic", "guided"]),
                expr(r, 1)
            ),
            _ => format!(
                "schedule({}: {}, {})",
                r.pick(&["monotonic", "nonmonotonic", "simd", "monotonic, simd"]),
                r.pick(&["static", "dynamic"]),
                expr(r, 1)
            ),
        },
        7 => format!(
            "default({})",
            r.pick(&["none", "shared", "private", "firstprivate"])
        ),
        8 => format!(
            "defaultmap({}{})",
            r.pick(&["tofrom", "firstprivate", "none", "alloc"]),
            r.pick(&["", ": scalar", ":pointer", " : aggregate"])
        ),
        9 => format!(
            "linear({}{})",
            ident(r),
            r.pick(&["", ": 2", ": val", ": step(3)", ": val, step(n)"])
        ),
        10 => format!(
            "depend({}: {})",
            r.pick(&["in", "out", "inout", "mutexinoutset"]),
            list(r)
        ),
        11 => format!(
            "device({}{})",
            r.pick(&["", "device_num: ", "ancestor:"]),
            expr(r, 1)
        ),
        12 => format!(
            "dist_schedule(static{})",
            if r.chance(50) {
                format!(", {}", expr(r, 1))
            } else {
                String::new()
            }
        ),
        13 => format!(
            "{}({}{})",
            r.pick(&["to", "from"]),
            r.pick(&["", "present: ", "mapper(m): "]),
            list(r)
        ),
        14 => format!(
            "order({}concurrent)",
            r.pick(&["", "reproducible: ", "unconstrained:"])
        ),
        _ => format!("proc_bind({})", r.pick(&["primary", "close", "spread"])),
    }
}

fn acc_clause(r: &mut Rng) -> String {
    match r.below(12) {
        0 => r
            .pick(&[
                "seq",
                "auto",
                "independent",
                "gang",
                "worker",
                "vector",
                "async",
                "wait",
                "finalize",
                "if_present",
            ])
            .to_string(),
        1 => format!(
            "{}({})",
            r.pick(&[
                "copy",
                "present",
                "deviceptr",
                "private",
                "firstprivate",
                "no_create",
                "attach"
            ]),
            list(r)
        ),
        2 => format!("copyin({}{})", r.pick(&["", "readonly: "]), list(r)),
        3 => format!(
            "{}({}{})",
            r.pick(&["copyout", "create"]),
            r.pick(&["", "zero:"]),
            list(r)
        ),
        4 => format!(
            "gang({})",
            r.pick(&["num: 4", "static: *", "num: n, static: 2", "dim: 2", "8"])
        ),
        5 => format!("worker({})", r.pick(&["num: 4", "n"])),
        6 => format!("vector({})", r.pick(&["length: 32", "128"])),
        7 => format!("tile({})", r.pick(&["4", "4, *", "*, *, 8"])),
        8 => format!(
            "{}({})",
            r.pick(&["num_gangs", "num_workers", "vector_length", "async", "if"]),
            expr(r, 0)
        ),
        9 => format!(
            "wait({})",
            r.pick(&[
                "1",
                "1, 2",
                "devnum: 0 : queues: 1, 2",
                "queues: q",
                "devnum: d : 3"
            ])
        ),
        10 => format!(
            "{}({})",
            r.pick(&["collapse", "collapse"]),
            r.pick(&["2", "force: 3"])
        ),
        _ => format!(
            "reduction({}:{})",
            r.pick(&["+", "*", "max", "min", "&&", "||", "^", "|", "&"]),
            list(r)
        ),
    }
}

fn generate(r: &mut Rng) -> String {
    let omp = r.chance(50);
    let (model, name) = if omp {
        (
            "omp",
            r.pick(&[
                "target teams distribute parallel for",
                "parallel for",
                "target",
                "teams",
                "for simd",
                "task",
                "target data",
                "simd",
                "loop",
            ]),
        )
    } else {
        (
            "acc",
            r.pick(&[
                "parallel loop",
                "kernels",
                "loop",
                "data",
                "serial loop",
                "update",
            ]),
        )
    };
    let mut s = format!(
        "#{}pragma {}{model} {name}",
        r.pick(&["", " ", "  ", "\t", " /* c */ ", " \\\n "]),
        if r.chance(20) { " " } else { "" }
    );
    for _ in 0..r.below(6) {
        s.push_str(r.pick(&[" ", "  ", ", ", " ,"]));
        s.push_str(gap(r));
        s.push_str(&if omp { omp_clause(r) } else { acc_clause(r) });
    }
    if r.chance(30) {
        s.push_str(" // end");
    }
    s
}

fn z() -> Span {
    Span::default()
}
fn sw(w: &Word) -> Word {
    Word {
        text: w.text.clone(),
        span: z(),
    }
}
fn se(e: &ExprText) -> ExprText {
    ExprText {
        text: e.text.clone(),
        span: z(),
    }
}
fn si(i: &ListItem) -> ListItem {
    let mut i = i.clone();
    i.span = z();
    i.name_span = z();
    for s in &mut i.sections {
        s.span = z();
        for e in [&mut s.lower, &mut s.length, &mut s.stride]
            .into_iter()
            .flatten()
        {
            e.span = z();
        }
    }
    i
}
fn sa(a: &ClauseArgs) -> ClauseArgs {
    match a {
        ClauseArgs::None => ClauseArgs::None,
        ClauseArgs::Expr { modifier, expr } => ClauseArgs::Expr {
            modifier: modifier.as_ref().map(sw),
            expr: se(expr),
        },
        ClauseArgs::List { modifiers, items } => ClauseArgs::List {
            modifiers: modifiers.iter().map(sw).collect(),
            items: items.iter().map(si).collect(),
        },
        ClauseArgs::Keyword(w) => ClauseArgs::Keyword(sw(w)),
        ClauseArgs::Args(args) => ClauseArgs::Args(
            args.iter()
                .map(|a| Arg {
                    name: a.name.as_ref().map(sw),
                    value: se(&a.value),
                    span: z(),
                })
                .collect(),
        ),
    }
}

/// The directive with every span zeroed.
fn strip(d: &Directive) -> Directive {
    let mut d = d.clone();
    d.span = z();
    d.name_span = z();
    if let Some(a) = &mut d.arg {
        a.span = z();
        a.args = sa(&a.args);
    }
    for c in &mut d.clauses {
        c.span = z();
        c.name_span = z();
        c.args = sa(&c.args);
    }
    d
}

#[test]
fn print_then_parse_is_identity_on_generated_directives() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut clauses = 0;
    for _ in 0..3000 {
        let src = generate(&mut r);
        let d = ok(&src);
        clauses += d.clauses.len();
        let printed = print(&d);
        let again = ok(&printed);
        assert_eq!(
            strip(&again),
            strip(&d),
            "\nsource:  {src}\nprinted: {printed}"
        );
        assert_eq!(print(&again), printed);
        let wrapped = format!(
            "_Pragma(\"{}\")",
            printed.replace('\\', "\\\\").replace('"', "\\\"")
        );
        assert_eq!(strip(&ok(&wrapped)), strip(&d), "{wrapped}");
    }
    assert!(clauses > 5000, "generator too weak: {clauses} clauses");
}

/// Found by fuzzing: a long run of unknown words made the "did you mean"
/// search try every prefix of the run against every name (84 s of CPU for one
/// pragma of 3000 words), and the one-error-per-place filter was quadratic in
/// the number of diagnostics. Both are now linear; the bound is generous.
#[test]
fn long_runs_of_unknown_words_are_fast() {
    let words: String = (0..20_000).map(|i| format!("w{i} ")).collect();
    let start = std::time::Instant::now();
    let (d, diags) = parse(&format!("#pragma omp {words}"));
    assert!(d.is_none());
    assert_eq!(codes_of(&diags), ["E0102"]);
    let (d, diags) = parse(&format!("#pragma omp parallel {words}"));
    assert_eq!(d.map(|d| d.name), Some("parallel".to_string()));
    assert_eq!(diags.len(), 20_000);
    let secs = start.elapsed().as_secs_f64();
    assert!(secs < 30.0, "{secs} s");
}

// ---------------------------------------------------------------------------
// no panics

#[test]
fn no_panic_on_random_and_mutated_input() {
    let mut r = Rng(0xDEAD_BEEF_1234_5678);
    let alphabet: &[u8] =
        b"#pragma omp acc _Pragma()[]{}:,;\"'\\\n\r\t */+-<>?.0123456789abcdefxyz\xC3\xA9";
    let seeds: Vec<String> = SHAPES.iter().map(|(s, _)| format!("#pragma {s}")).collect();
    let mut runs = 0;
    for k in 0..20000 {
        let bytes: Vec<u8> = if k % 2 == 0 {
            let mut b = seeds[r.below(seeds.len())].clone().into_bytes();
            for _ in 0..1 + r.below(4) {
                let pos = r.below(b.len() + 1);
                match r.below(3) {
                    0 if pos < b.len() => {
                        b.remove(pos);
                    }
                    1 if pos < b.len() => b[pos] = alphabet[r.below(alphabet.len())],
                    _ => b.insert(pos, alphabet[r.below(alphabet.len())]),
                }
            }
            b
        } else {
            let mut b = b"#pragma omp ".to_vec();
            for _ in 0..r.below(60) {
                b.push(alphabet[r.below(alphabet.len())]);
            }
            b
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let len = text.len();
        let (d, diags) = parse_pragma(&text, Span::new(0, len));
        for diag in &diags {
            let sp = diag.primary_span();
            assert!(sp.start <= sp.end && sp.end <= len, "{text:?}: {diag:?}");
        }
        if let Some(d) = d {
            assert!(d.name_span.end <= len && d.span.end <= len);
            for c in &d.clauses {
                assert!(c.span.start <= c.span.end && c.span.end <= len);
            }
        }
        let _ = parse_pragma(&text, Span::new(r.below(len + 3), r.below(len + 3)));
        let ps = find_pragmas(&text);
        assert_eq!(mask(&text, &ps).len(), len);
        runs += 1;
    }
    assert_eq!(runs, 20000);
}
