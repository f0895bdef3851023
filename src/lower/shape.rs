//! The launch shape of an SPMD loop construct: its schedule, the levels of
//! parallelism it uses, blocks and threads per block, from the construct's
//! name and its clauses.

use crate::diag::{codes, Diagnostic};
use crate::directives::Directive;
use crate::ir::{Level, Schedule, Size};
use crate::sema::loops::int_literal;

/// How an SPMD loop is spread over the GPU.
pub(super) struct Shape {
    pub schedule: Schedule,
    pub levels: Vec<Level>,
    pub blocks: Size,
    pub threads_x: Size,
    pub threads_y: Size,
}

/// OpenMP constructs lowered to kernels, with their schedule.
pub(super) fn omp_schedule(name: &str) -> Option<Schedule> {
    match name {
        "target teams distribute parallel for" | "target teams distribute parallel for simd" => {
            Some(Schedule::GridStride)
        }
        "target parallel for" | "target parallel for simd" => Some(Schedule::BlockStride),
        "target teams distribute" => Some(Schedule::BlockOnly),
        // `loop` bound to the teams (the distribute parallel for form) and
        // to the parallel region (the for form): OpenMP 5.2, 11.7.
        "target teams loop" => Some(Schedule::GridStride),
        "target parallel loop" => Some(Schedule::BlockStride),
        // One thread runs the simd loop in order (a SIMD width of 1 meets
        // every `safelen` and `simdlen`).
        "target simd" => Some(Schedule::Sequential),
        _ => None,
    }
}

/// A clause's argument as a launch size: a literal from 1 up, or the
/// expression evaluated on the host.
pub(super) fn clause_size(d: &Directive, name: &str) -> Option<Size> {
    let c = d.clause(name)?;
    let e = c.expr()?;
    Some(match int_literal(&e.text) {
        Some(v) if v >= 1 && v <= u32::MAX as i128 => Size::Fixed(v as u32),
        _ => Size::Clause {
            clause: name.to_string(),
            expr: e.text.clone(),
            span: e.span,
        },
    })
}

/// An OpenMP combined construct: the schedule from its name, threads from
/// `num_threads` and `thread_limit` (the smaller of the two), blocks from
/// `num_teams` or the trip count.
pub(super) fn omp(d: &Directive) -> Option<Shape> {
    let schedule = omp_schedule(&d.name)?;
    let mut levels = match schedule {
        Schedule::GridStride => vec![Level::Gang, Level::Worker],
        Schedule::BlockStride => vec![Level::Worker],
        Schedule::BlockOnly => vec![Level::Gang],
        Schedule::Sequential => vec![],
    };
    if d.name.ends_with(" simd") && schedule != Schedule::Sequential {
        levels.push(Level::Vector);
    }
    let threads = omp_threads(d);
    let teams = || clause_size(d, "num_teams").unwrap_or(Size::FromTrip);
    let (blocks, threads_x) = match schedule {
        Schedule::GridStride => (teams(), threads),
        Schedule::BlockStride => (Size::Fixed(1), threads),
        Schedule::Sequential => (Size::Fixed(1), Size::Fixed(1)),
        _ => (teams(), Size::Fixed(1)),
    };
    Some(Shape {
        schedule,
        levels,
        blocks,
        threads_x,
        threads_y: Size::Fixed(1),
    })
}

/// Threads per team: `num_threads`, `thread_limit`, the smaller of both, or
/// 256.
fn omp_threads(d: &Directive) -> Size {
    match (
        clause_size(d, "num_threads"),
        clause_size(d, "thread_limit"),
    ) {
        (None, None) => Size::Fixed(256),
        (Some(s), None) | (None, Some(s)) => s,
        (Some(Size::Fixed(a)), Some(Size::Fixed(b))) => Size::Fixed(a.min(b)),
        (Some(_), Some(_)) => {
            let e = |n: &str| {
                d.clause(n)
                    .and_then(|c| c.expr())
                    .map(|e| (e.text.clone(), e.span))
            };
            let ((a, span), (b, _)) = (
                e("num_threads").unwrap_or_default(),
                e("thread_limit").unwrap_or_default(),
            );
            Size::Clause {
                clause: "num_threads".into(),
                expr: format!("({a}) < ({b}) ? ({a}) : ({b})"),
                span,
            }
        }
    }
}

/// An OpenACC loop construct: the schedule from its `gang` / `worker` /
/// `vector` / `seq` / `auto` clauses (gang vector when none is given, with a
/// note saying so), sizes from `num_gangs`, `num_workers`, `vector_length`.
pub(super) fn acc(d: &Directive, notes: &mut Vec<String>) -> Shape {
    let has = |n: &str| d.clause(n).is_some();
    let (gang, worker, vector) = (has("gang"), has("worker"), has("vector"));
    let implicit = !gang && !worker && !vector;
    let schedule = acc_schedule(d, notes);
    let tx = if vector || (implicit && schedule == Schedule::GridStride) {
        clause_size(d, "vector_length").unwrap_or(Size::Fixed(if worker { 32 } else { 256 }))
    } else {
        Size::Fixed(1)
    };
    let ty = if worker && schedule != Schedule::Sequential {
        clause_size(d, "num_workers").unwrap_or(Size::Fixed(if vector { 8 } else { 256 }))
    } else {
        Size::Fixed(1)
    };
    let gangs = clause_size(d, "num_gangs");
    let blocks = match schedule {
        _ if d.name == "serial loop" => Size::Fixed(1),
        Schedule::GridStride | Schedule::BlockOnly => gangs.unwrap_or(Size::FromTrip),
        _ => gangs.unwrap_or(Size::Fixed(1)),
    };
    let (tx, ty) = if matches!(schedule, Schedule::Sequential | Schedule::BlockOnly) {
        (Size::Fixed(1), Size::Fixed(1))
    } else {
        (tx, ty)
    };
    let levels = match schedule {
        Schedule::Sequential => vec![],
        Schedule::BlockOnly => vec![Level::Gang],
        _ => [
            (gang || implicit, Level::Gang),
            (worker, Level::Worker),
            (vector || implicit, Level::Vector),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, l)| *l)
        .collect(),
    };
    Shape {
        schedule,
        levels,
        blocks,
        threads_x: tx,
        threads_y: ty,
    }
}

fn acc_schedule(d: &Directive, notes: &mut Vec<String>) -> Schedule {
    let has = |n: &str| d.clause(n).is_some();
    let (gang, worker, vector) = (has("gang"), has("worker"), has("vector"));
    if d.name == "serial loop" || has("seq") {
        Schedule::Sequential
    } else if has("auto") && !gang && !worker && !vector {
        notes.push(
            "`auto`: pragma2cuda runs the loop sequentially in each gang (always correct)"
                .to_string(),
        );
        Schedule::Sequential
    } else if !gang && !worker && !vector {
        notes.push("no gang/worker/vector clause: pragma2cuda chose gang vector".to_string());
        Schedule::GridStride
    } else if gang && (worker || vector) {
        Schedule::GridStride
    } else if gang {
        Schedule::BlockOnly
    } else {
        Schedule::BlockStride
    }
}

/// E0104 for more than CUDA's 1024 threads per block.
pub(super) fn check_block_size(d: &Directive, shape: &Shape, diags: &mut Vec<Diagnostic>) {
    let (tx, ty) = (&shape.threads_x, &shape.threads_y);
    for (s, what) in [(tx, "threads"), (ty, "workers")] {
        if let Size::Fixed(v) = s {
            if *v > 1024 {
                diags.push(
                    Diagnostic::new(
                        codes::BAD_CLAUSE_ARG,
                        d.span,
                        format!("{v} {what} per block is more than CUDA's 1024"),
                    )
                    .with_label("in this directive"),
                );
            }
        }
    }
    if let (Size::Fixed(x), Size::Fixed(y)) = (tx, ty) {
        if x * y > 1024 {
            diags.push(
                Diagnostic::new(
                    codes::BAD_CLAUSE_ARG,
                    d.span,
                    format!("{x} x {y} threads per block is more than CUDA's 1024"),
                )
                .with_label("in this directive"),
            );
        }
    }
}
