//! Combined loop constructs with directives nested in their loop body
//! (`acc parallel loop gang` over a body holding `acc loop vector`,
//! `omp target teams distribute` over a body holding `omp parallel`) are
//! not SPMD: the code of the body outside the nested constructs is
//! gang-redundant / vector-single (OpenACC) or run by each team's initial
//! thread (OpenMP), and only one thread may run it. Such a construct is
//! split into its compute construct (`acc parallel`, `omp target teams`, ...)
//! with a structured block and a loop construct over the same statement
//! (`acc loop gang`, `omp distribute`), which generic mode lowers: thread 0
//! of each block runs the loop's iterations of its gang (or team) and forks
//! the block's threads at each nested construct.
//!
//! Clauses go where OpenACC 3.3 (2.11) and OpenMP 5.2 (17.2) put them: the
//! loop takes its level clauses, `collapse`, `tile`, `reduction`,
//! `lastprivate`, `dist_schedule`, `schedule`, `num_threads` of a nested
//! `parallel` leaf; the compute construct takes the data clauses, the
//! launch shape and `if`. `private` / `firstprivate` go to the compute
//! construct when the loop runs on the gangs' masters only (one copy per
//! gang serves every iteration the gang runs, each starting from the
//! clause's value: the loop body cannot see the difference), to the loop when
//! its iterations spread over threads.
//!
//! A `reduction` of a loop spread over the gangs / teams also goes on the
//! compute construct (seed 001's reduction on the parallel construct: the
//! gangs' copies are combined once, at the end of the kernel).
//!
//! An OpenACC `parallel loop` / `kernels loop` without a level clause over a
//! body with nested `acc loop` constructs is a gang loop (the
//! implementation's choice OpenACC 3.3 2.9.7 allows: the nested loops take
//! the worker and vector levels).

use crate::directives::{Clause, ClauseArgs, Directive, Model};
use crate::front::Attached;
use crate::source::Span;
use crate::valid::spec;

/// (compute construct over the statement, loop construct over the same
/// statement); `None` when the construct is not a combined loop construct
/// this lowers in generic mode.
pub fn split(at: &Attached, nested: &[&Attached]) -> Option<(Attached, Attached)> {
    let d = &at.directive;
    let stmt = at.stmt?;
    let (compute, looped): (&str, &str) = match (d.model, d.name.as_str()) {
        (Model::Acc, "parallel loop") => ("parallel", "loop"),
        (Model::Acc, "kernels loop") => ("kernels", "loop"),
        (Model::Acc, "serial loop") => ("serial", "loop"),
        (Model::Omp, "target teams distribute") => ("target teams", "distribute"),
        (Model::Omp, "target teams distribute simd") => ("target teams", "distribute simd"),
        (Model::Omp, "target teams distribute parallel for") => {
            ("target teams", "distribute parallel for")
        }
        (Model::Omp, "target teams distribute parallel for simd") => {
            ("target teams", "distribute parallel for simd")
        }
        (Model::Omp, "target parallel for") => ("target parallel", "for"),
        (Model::Omp, "target parallel for simd") => ("target parallel", "for simd"),
        _ => return None,
    };
    // `default(private | firstprivate)` goes to the teams and the parallel
    // leaves: split, the loop's threads would share the team's copies.
    if crate::lower::default_private::lowered(d) && looped.contains("for") {
        return None;
    }
    let mut loop_clauses: Vec<Clause> = Vec::new();
    let mut compute_clauses: Vec<Clause> = Vec::new();
    let has = |n: &str| d.clauses.iter().any(|c| c.name == n);
    // Does the loop spread iterations over threads (rather than run on the
    // gangs' / teams' masters)?
    let threads = match d.model {
        Model::Acc => has("worker") || has("vector"),
        Model::Omp => looped.contains("for"),
    };
    // A reduction over a loop spread over the gangs (teams) is a reduction
    // of the compute construct too (OpenACC 3.3 2.11: on a combined
    // construct it implies `copy`; OpenMP 5.2 17.2: it applies to `teams`):
    // the compute construct's NULL outermost gang loop combines the gangs'
    // copies at the end of the kernel (seed 001), and the loop's own
    // reduction gets no second setup. `acc kernels` has no reduction clause
    // and `target parallel` runs one team: those keep it on the loop only.
    let gang_loop = match d.model {
        Model::Acc => !has("worker") && !has("vector") && !has("seq") || has("gang"),
        Model::Omp => looped.starts_with("distribute"),
    };
    let gangs_reduce_on_construct =
        gang_loop && matches!(compute, "parallel" | "serial" | "target teams");
    for c in &d.clauses {
        let to_loop = match (d.model, c.name.as_str()) {
            (_, "private" | "firstprivate") => threads,
            (Model::Acc, n) => matches!(
                n,
                "gang"
                    | "worker"
                    | "vector"
                    | "seq"
                    | "auto"
                    | "independent"
                    | "collapse"
                    | "tile"
                    | "reduction"
            ),
            (Model::Omp, "reduction" | "lastprivate" | "collapse") => true,
            (Model::Omp, n) => {
                spec::allowed_on(Model::Omp, looped, n) && !spec::allowed_on(Model::Omp, compute, n)
            }
        };
        if to_loop {
            loop_clauses.push(c.clone());
            if c.name == "reduction" && gangs_reduce_on_construct {
                compute_clauses.push(c.clone());
            }
        } else {
            compute_clauses.push(c.clone());
        }
    }
    let levels = ["gang", "worker", "vector", "seq", "auto"];
    if d.model == Model::Acc
        && compute != "serial"
        && !levels.iter().any(|l| has(l))
        && nested
            .iter()
            .any(|n| n.directive.model == Model::Acc && n.directive.name == "loop")
    {
        loop_clauses.push(Clause {
            name: "gang".into(),
            name_span: d.name_span,
            args: ClauseArgs::None,
            span: d.name_span,
        });
    }
    let compute_d = Directive {
        name: compute.into(),
        clauses: compute_clauses,
        ..d.clone()
    };
    // The loop's pragma is the combined pragma without its `#pragma model`:
    // a span of its own (the compute construct's is the whole pragma) that
    // lies before the statement, which the emitter knows.
    let loop_d = Directive {
        name: looped.into(),
        clauses: loop_clauses,
        span: Span::new(d.name_span.start, d.span.end),
        ..d.clone()
    };
    Some((
        Attached {
            directive: compute_d,
            stmt: Some(stmt),
            function: at.function.clone(),
        },
        Attached {
            directive: loop_d,
            stmt: Some(stmt),
            function: at.function.clone(),
        },
    ))
}
