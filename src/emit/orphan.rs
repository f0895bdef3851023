//! The CUDA text of orphaned parallel regions (`lower::orphan`): the
//! block-wide state they share (one `__shared__` struct and the orphan
//! frame), the fork in the device function (taken only by a block's master
//! whose kernel's workers wait), the team-of-one path (the original
//! statement under its pragma), and the outlined body the workers dispatch.

use super::edits::{apply, Edit};
use super::namer::Namer;
use super::orphan_team::{self, RedEnd, RedSite};
use super::region;
use crate::ir::c::{CType, Deriv};
use crate::ir::orphan::Inner;
use crate::ir::orphan::{Orphan, OrphanPlan};
use crate::source::{SourceFile, Span};
use std::fmt::Write;

fn is_array(ty: &CType) -> bool {
    matches!(ty.derivs.first(), Some(Deriv::Array(_)))
}

/// `T &name` (or `T (&name)[N]`).
fn ref_decl(ty: &CType, name: &str) -> String {
    let inner = if is_array(ty) {
        format!("(&{name})")
    } else {
        format!("&{name}")
    };
    ty.declare(&inner)
}

/// The declarations every orphaned region uses, after the prelude.
pub fn support(plan: &OrphanPlan) -> String {
    let mut s = String::new();
    s.push_str(
        "/* ---- pragma2cuda: parallel regions in device functions (lower/orphan.rs) ----\n\
         * A block's master that calls such a function from the sequential part of a\n\
         * generic-mode region forks the block's waiting workers: `master` is 1 only\n\
         * there (kernels that reach these functions set it: 0 in SPMD kernels and\n\
         * inside parallel regions), `fork` is that kernel's fork word, `block` its\n\
         * threads (the barriers' count), `limit` its team size. The function's\n\
         * variables that the region uses are copied into the frame for the region. */\n",
    );
    s.push_str(
        "struct p2c_orphan_team {\n    unsigned master, block, limit;\n    unsigned *fork;\n};\n",
    );
    s.push_str("__shared__ p2c_orphan_team p2c_orphan;\n");
    let _ = writeln!(
        s,
        "alignas(16) __shared__ unsigned char p2c_orphan_frame[{}];",
        plan.frame_bytes.max(16)
    );
    s.push_str(
        "__device__ inline void p2c_orphan_begin(unsigned region, unsigned team)\n{\n    \
         p2c_orphan.master = 0u;\n    *p2c_orphan.fork = p2c_fork_word(region, team);\n    \
         p2c_barrier_sync<1>(p2c_orphan.block);\n}\n",
    );
    // Arrays are copied whole, also when the function has not set every
    // element yet (the region may be what sets them): a call the compiler
    // does not look into, so that it does not warn about reading them.
    s.push_str(
        "__device__ __noinline__ inline void p2c_orphan_copy(void *dst, void *src, size_t bytes)\n{\n    memcpy(dst, src, bytes);\n}\n",
    );
    s.push_str(
        "__device__ inline void p2c_orphan_end(void)\n{\n    \
         p2c_barrier_sync<2>(p2c_orphan.block); /* join */\n    p2c_orphan.master = 1u;\n}\n",
    );
    for o in &plan.orphans {
        let _ = writeln!(
            s,
            "__device__ inline void {}(unsigned, unsigned); /* line {} in {}() */",
            o.outlined, o.line, o.function
        );
    }
    s.push_str("/* ---- end of orphaned parallel regions ---- */\n");
    s
}

/// In a kernel that reaches these functions and has no master that forks:
/// every thread says so before anything runs.
pub fn reset_in_kernel(kernel_text: &str, kernel: &str) -> String {
    let head = format!("__global__ void {kernel}(");
    let Some(at) = kernel_text.find(&head) else {
        return kernel_text.to_string();
    };
    let Some(open) = kernel_text[at..].find("\n{\n") else {
        return kernel_text.to_string();
    };
    let pos = at + open + 3;
    format!(
        "{}    if (p2c_thread_id() == 0u) /* only thread 0 reads it */\n        p2c_orphan.master = 0u; /* parallel regions in called device functions: one thread each */\n{}",
        &kernel_text[..pos],
        &kernel_text[pos..]
    )
}

fn slot(o: usize) -> String {
    format!("p2c_orphan_frame + {o}")
}

/// The edits of every orphaned region: the fork and team-of-one paths in
/// place of the construct, and the outlined body after its function.
/// `body_edits` are the edits other modules make in device code (C++ and
/// mirror names).
pub fn edits(
    plan: &OrphanPlan,
    file: &SourceFile,
    body_edits: &[Edit],
    namer: &mut Namer,
) -> Vec<Edit> {
    let mut out = Vec::new();
    for o in &plan.orphans {
        let t = &file.text;
        let line_start = t[..o.pragma.start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let indent: String = t[line_start..o.pragma.start]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        // Lines after the first get the construct's indentation (not the
        // preprocessor lines), and the pragma keeps its own.
        let mut fork = String::new();
        for (i, l) in fork_text(o, namer).lines().enumerate() {
            if i > 0 {
                fork.push('\n');
                if !l.starts_with('#') {
                    fork.push_str(&indent);
                }
            }
            fork.push_str(l);
        }
        fork.push('\n');
        fork.push_str(&indent);
        out.push(Edit::insert(o.pragma.start, 40, fork));
        out.push(Edit::insert(
            o.stmt.end,
            60,
            format!("\n{indent}}}\n{indent}}}"),
        ));
        // The team-of-one path on the device: thread 0 of a team of one
        // (the device runtime's answers are the block's).
        for (sp, num) in &o.rt_calls {
            let (dev, host) = if *num {
                ("0", "omp_get_thread_num()")
            } else {
                ("1", "omp_get_num_threads()")
            };
            out.push(Edit::replace(
                *sp,
                format!("P2C_DEVICE_OR_HOST({dev}, {host})"),
            ));
        }
        out.push(Edit::insert(
            o.fn_end,
            70,
            outlined_text(o, file, body_edits, namer),
        ));
    }
    out
}

fn fork_text(o: &Orphan, namer: &mut Namer) -> String {
    let team = namer.fresh("p2c_team");
    let mut t = match &o.num_threads {
        Some(e) => format!("p2c_team_size((long long)({e}), p2c_orphan.limit)"),
        None => "p2c_orphan.limit".to_string(),
    };
    if let Some(c) = &o.if_cond {
        t = format!("({c}) ? {t} : 1u");
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{{ /* line {}, `{}`: the block's team runs it when the master of a target region's sequential part calls {}(); anywhere else the statement below (host OpenMP on the host, the calling thread alone on the device) */",
        o.line, o.construct, o.function
    );
    s.push_str("#if defined(__CUDA_ARCH__) || defined(P2C_SIMT_EMULATOR)\n");
    s.push_str(
        "if (P2C_DEVICE_OR_HOST(p2c_thread_id() == 0u && p2c_orphan.master == 1u, false)) {\n",
    );
    let _ = writeln!(s, "    const unsigned {team} = {t};");
    // A lastprivate variable may be unset before the region (the copy
    // back keeps its value when no iteration runs): a raw copy.
    let lastp = |n: &str| {
        o.privs
            .iter()
            .chain(o.lp.iter().flat_map(|l| l.privs.iter()))
            .any(|p| p.last && p.name == n)
    };
    for v in &o.vars {
        let (n, at) = (&v.name, slot(v.offset as usize));
        if !is_array(&v.ty) && lastp(&v.name) {
            let _ = writeln!(s, "    p2c_orphan_copy({at}, &{n}, sizeof {n});");
        } else if is_array(&v.ty) {
            let _ = writeln!(s, "    p2c_orphan_copy({at}, {n}, sizeof {n});");
        } else {
            let ty = v.ty.type_name();
            let _ = writeln!(s, "    p2c_staged_init<{ty}>({at}, {n});");
        }
    }
    let _ = writeln!(s, "    p2c_orphan_begin({}u, {team});", o.id);
    let _ = writeln!(
        s,
        "    {}(0u, {team}); /* the master is thread 0 of the team */",
        o.outlined
    );
    s.push_str("    p2c_orphan_end();\n");
    for v in o.vars.iter().filter(|v| v.copy_back) {
        let (n, at) = (&v.name, slot(v.offset as usize));
        if is_array(&v.ty) {
            let _ = writeln!(s, "    memcpy({n}, {at}, sizeof {n});");
        } else {
            let ty = v.ty.type_name();
            let _ = writeln!(s, "    {n} = p2c_staged<{ty}>({at});");
        }
    }
    s.push_str("} else\n#endif\n{\n");
    // The calling thread alone: private copies still (host OpenMP
    // privatizes these same copies again); lastprivate and reductions
    // give the sequential values already.
    let privs: Vec<_> = o
        .privs
        .iter()
        .chain(o.lp.iter().flat_map(|l| l.privs.iter()))
        .filter(|p| !p.last)
        .cloned()
        .collect();
    if !privs.is_empty() {
        let _ = writeln!(s, "/* the construct's private copies */");
        for p in privs.iter().filter(|p| !p.first) {
            let _ = writeln!(s, "(void){};", p.name);
        }
        let _ = orphan_team::privates(&privs, namer, &mut s, "");
    }
    s
}

/// The indentation of the line `at` is on.
fn indent_at(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    text[line_start..at]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// The start of the code after `at` (the statement after a pragma).
fn next_line(text: &str, at: usize) -> usize {
    let rest = &text[at..];
    at + (rest.len() - rest.trim_start().len())
}

/// `t` in place of text starting at `at`, indented like the line `like`
/// is on (a pragma in column 0 takes its statement's indentation).
fn indented_like(text: &str, at: usize, like: usize, t: &str) -> String {
    let ind = indent_at(text, like.min(text.len()));
    let col = indent_at(text, at).len();
    let line_start = text[..at].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let mut out = String::new();
    if at - line_start == col && col < ind.len() {
        out.push_str(&ind[col..]);
    }
    out.push_str(&indent_rest(t, &ind));
    out
}

/// `text` with every line after the first indented by `ind`.
fn indent_rest(text: &str, ind: &str) -> String {
    text.replace('\n', &format!("\n{ind}"))
}

fn outlined_text(o: &Orphan, file: &SourceFile, body_edits: &[Edit], namer: &mut Namer) -> String {
    let tid = namer.fresh("p2c_tid");
    let team = namer.fresh("p2c_team");
    let (edits, simds) = outlined_body_edits(o, file, body_edits, &tid, &team);
    let mut edits = edits;
    let mut pre = String::new();
    let mut site_of = |reds: &[crate::ir::generic::GenRed], what: String, namer: &mut Namer| {
        if reds.is_empty() {
            return None;
        }
        let site = RedSite {
            ty: namer.fresh(&format!("p2c_red_{}_L{}", o.function, o.line)),
            slots: namer.fresh(&format!("p2c_red_slots_{}_L{}", o.function, o.line)),
            value: "p2c_red".to_string(),
        };
        pre.push_str(&orphan_team::red_site_decls(&site, reds, &what));
        Some(site)
    };
    let mut loop_texts = Vec::new();
    for i in &o.inner {
        let Inner::For(l) = i else { continue };
        let site = site_of(
            &l.reds,
            format!(
                "line {}: `{}`'s reductions:",
                file.line_of(l.pragma.start),
                l.construct
            ),
            namer,
        );
        let red = match &site {
            Some(s) => RedEnd::Inside(s),
            None => RedEnd::None,
        };
        let body = orphan_team::ws_loop(l, file, &edits, &simds, &tid, &team, red, namer);
        let mut t = format!(
            "/* {}: iterations over the team's threads */\n{body}",
            l.construct
        );
        if !l.nowait || site.is_some() {
            let _ = write!(
                t,
                "\np2c_team_barrier({team}); /* the end of `{}` */",
                l.construct
            );
        }
        loop_texts.push(Edit::replace(
            Span::new(l.pragma.start, l.stmt.end),
            indented_like(&file.text, l.pragma.start, l.stmt.start, &t),
        ));
    }
    edits.extend(loop_texts);
    let (join_reds, what) = match &o.lp {
        Some(l) => (&l.reds, "`parallel for`"),
        None => (&o.reds, "`parallel`"),
    };
    let join_site = site_of(
        join_reds,
        format!("line {}: {what}'s reductions:", o.line),
        namer,
    );
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n\n/* line {} in {}(): `{}`, run by each thread of the block (the team: threads below {team}); {}'s variables live in the orphan frame */",
        o.line, o.function, o.construct, o.function
    );
    s.push_str(&pre);
    // C++ linkage, as forward-declared, even inside an `extern "C"` block.
    let _ = writeln!(
        s,
        "extern \"C++\" __device__ inline void {}(unsigned {tid}, unsigned {team})\n{{",
        o.outlined
    );
    frame_bindings(o, &mut s);
    let _ = writeln!(s, "    if ({tid} < {team}) {{");
    let ind = "        ";
    let _ = orphan_team::privates(&o.privs, namer, &mut s, ind);
    if !o.reds.is_empty() {
        orphan_team::red_privates(&o.reds, &mut s, ind);
    }
    match &o.lp {
        None => {
            let body = apply(&file.text, o.stmt, &edits);
            let _ = writeln!(s, "{ind}{}", region::reindent(&body, ind));
            if let Some(site) = &join_site {
                s.push_str(&orphan_team::red_warps(site, &o.reds, &tid, &team, ind));
            }
        }
        Some(l) => {
            let red = match &join_site {
                Some(site) => RedEnd::AtJoin(site),
                None => RedEnd::None,
            };
            let body = orphan_team::ws_loop(l, file, &edits, &simds, &tid, &team, red, namer);
            let _ = writeln!(s, "{ind}{}", indent_rest(&body, ind));
        }
    }
    s.push_str("    }\n");
    if let Some(site) = &join_site {
        s.push_str("    p2c_barrier_sync<4>(p2c_orphan.block); /* every thread of the block: the warps' values are in the slots */\n");
        let targets: Vec<String> = join_reds.iter().map(|r| r.name.clone()).collect();
        s.push_str(&orphan_team::red_fold(
            site,
            join_reds,
            &targets,
            &tid,
            &team,
            "    ",
            "shared variable",
        ));
    }
    s.push('}');
    s
}

/// The edits of an orphaned construct's body: the cxx and declare edits
/// inside it, runtime queries answered with the thread's and team's
/// numbers, nested `simd` run in order and `barrier` as the team's. Also
/// returns the `simd` pragmas.
fn outlined_body_edits(
    o: &Orphan,
    file: &SourceFile,
    body_edits: &[Edit],
    tid: &str,
    team: &str,
) -> (Vec<Edit>, Vec<Span>) {
    let mut edits: Vec<Edit> = body_edits
        .iter()
        .filter(|e| e.span.start >= o.stmt.start && e.span.end <= o.stmt.end)
        .cloned()
        .collect();
    for (sp, num) in &o.rt_calls {
        let t = if *num {
            format!("(int){tid}")
        } else {
            format!("(int){team}")
        };
        edits.push(Edit::replace(Span::new(sp.start, sp.end), t));
    }
    // Nested constructs: `simd` runs in order, `barrier` is the team's.
    let mut simds = Vec::new();
    for i in &o.inner {
        match i {
            Inner::Simd { pragma, construct } => {
                simds.push(*pragma);
                edits.push(Edit::replace(
                    *pragma,
                    indented_like(
                        &file.text,
                        pragma.start,
                        next_line(&file.text, pragma.end),
                        &format!("/* {construct}: each thread runs the loop in order */"),
                    ),
                ));
            }
            Inner::Barrier { pragma } => edits.push(Edit::replace(
                *pragma,
                indented_like(
                    &file.text,
                    pragma.start,
                    next_line(&file.text, pragma.end),
                    &format!("p2c_team_barrier({team}); /* omp barrier */"),
                ),
            )),
            Inner::For(_) => {}
        }
    }
    (edits, simds)
}

/// The size checks and the references that bind the function's variables
/// to their slots in the orphan frame.
fn frame_bindings(o: &Orphan, s: &mut String) {
    for v in &o.vars {
        if let Some(n) = v.assert_size {
            let _ = writeln!(
                s,
                "    static_assert(sizeof({}) == {n}, \"pragma2cuda laid out `{}` as {n} bytes\");",
                v.ty.type_name(),
                v.name
            );
        }
    }
    for v in &o.vars {
        let _ = writeln!(
            s,
            "    {} = p2c_staged<{}>({});",
            ref_decl(&v.ty, &v.name),
            v.ty.type_name(),
            slot(v.offset as usize)
        );
    }
}
