//! The CUDA text of a generic-mode region (see `lower::generic`): a kernel
//! whose thread 0 runs the sequential part and whose other threads wait at
//! the fork barrier, and a device function with one `case` per parallel
//! region. The host side (data environment, launch) is the one every region
//! uses (`region::host_code`).

use super::edits::Edit;
use super::namer::Namer;
use super::region::{self, RegionText};
use crate::ir::c::Attr;
use crate::ir::c::CType;
use crate::ir::generic::red_list;
use crate::ir::generic::{
    Fork, GenKind, GenRed, Generic, PrivKind, PrivVar, RtCall, Spread, WsLoop,
};
use crate::ir::staging::Home;
use crate::ir::Region;
use crate::source::mask::mentions_word as mentions;
use crate::source::{SourceFile, Span};
use std::fmt::Write;

struct Names {
    par: String,
    stage: String,
    gframe: String,
    gstack: String,
    fork: String,
    work: String,
    tid: String,
    team: String,
    trip: String,
    /// The team size parameter (a runtime team limit).
    limit: String,
    /// Per region variable: the kernel parameter's name.
    params: Vec<String>,
}

/// `code` without its `/* ... */` comments (the generated comments quote
/// pragmas, whose clauses name variables the code may not use).
fn without_comments(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            // String and character literals are copied whole.
            q @ (b'"' | b'\'') => {
                out.push(q);
                k += 1;
                while k < b.len() && b[k] != q {
                    if b[k] == b'\\' && k + 1 < b.len() {
                        out.push(b[k]);
                        k += 1;
                    }
                    out.push(b[k]);
                    k += 1;
                }
                if k < b.len() {
                    out.push(q);
                    k += 1;
                }
            }
            b'/' if b.get(k + 1) == Some(&b'*') => {
                let end = code[k + 2..].find("*/").map_or(b.len(), |j| k + 2 + j + 2);
                out.push(b' ');
                k = end;
            }
            c => {
                out.push(c);
                k += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `&x` (or `(&x)` for arrays) declared with `ty`'s derivations only.
fn ref_declarator(ty: &CType, name: &str) -> String {
    let inner = if ty.is_array() {
        format!("(&{name})")
    } else {
        format!("&{name}")
    };
    CType {
        base: String::new(),
        derivs: ty.derivs.clone(),
    }
    .declare(&inner)
    .trim()
    .to_string()
}

fn ref_decl(ty: &CType, name: &str) -> String {
    format!("{} {}", ty.base, ref_declarator(ty, name))
}

/// The reductions of one nested construct (`reduction` on a fork, or on a
/// worksharing loop inside one): their data struct and the shared slots
/// that hold one value per warp.
impl RedSite {
    /// The names the team reduction sequence reads.
    fn team(&self) -> super::orphan_team::RedSite {
        super::orphan_team::RedSite {
            ty: self.ty.clone(),
            slots: self.slots.clone(),
            value: self.value.clone(),
        }
    }
}

struct RedSite {
    /// The construct's pragma.
    pragma: Span,
    fork: u32,
    /// Combined into the original variables at the end of the fork's case
    /// (after barrier 4) rather than inside the fork.
    at_join: bool,
    ty: String,
    slots: String,
    value: String,
}

struct Gen<'a> {
    r: &'a Region,
    g: &'a Generic,
    file: &'a SourceFile,
    n: Names,
    edits: Vec<Edit>,
    sites: Vec<RedSite>,
    /// Names of the array reductions over a team (`emit::array_team`).
    arr: Vec<super::array_team::Names>,
    /// Mark the text copied from the input (`emit::lines`).
    marks: bool,
    /// The closing insertions of constructs around a statement: (offset,
    /// order, the construct's pragma or statement start), see
    /// `drop_inner_closes`.
    closes: Vec<(usize, u32, usize)>,
}

/// A worksharing loop over worker `start`'s chunks of `c` iterations
/// (`lower::chunk`), `stride` workers: within a chunk the next iteration,
/// after its last one the worker's next chunk (`stride` chunks on). `size`
/// names the chunk size's constant, `ind` indents both lines.
fn chunk_head(
    c: &crate::ir::region::Chunk,
    it: &str,
    trip: &str,
    (start, stride): (&str, &str),
    size: &str,
    ind: &str,
) -> String {
    let n = match c {
        crate::ir::region::Chunk::Size(n) | crate::ir::region::Chunk::Teams(n) => format!("{n}ull"),
        crate::ir::region::Chunk::Even => format!("(({trip} + ({stride}) - 1ull) / ({stride}))"),
    };
    format!(
        "{ind}const unsigned long long {size} = {n};\n{ind}\
         for (unsigned long long {it} = ({start}) * {size}; {it} < {trip}; \
         {it} += ({it} + 1ull) % {size} == 0ull ? (({stride}) - 1ull) * {size} + 1ull : 1ull) {{\n"
    )
}

/// A `distribute parallel for` with a schedule chunk in a teams region:
/// each team takes blocks of `team` consecutive iterations (`blockIdx.x`,
/// then every `gridDim.x`-th block: the distribute schedule, whatever the
/// loop's own), and its threads the chunks of each block as
/// [`chunk_head`] gives them. Two such loops of one trip count give
/// iteration i to the same team, as two unchunked loops do. Opens two
/// loops: the caller closes both.
fn grid_chunk_head(
    c: &crate::ir::region::Chunk,
    it: &str,
    trip: &str,
    (tid, team): (&str, &str),
    (block, block_end, size): (&str, &str, &str),
    ind: &str,
) -> String {
    let n = match c {
        crate::ir::region::Chunk::Size(n) | crate::ir::region::Chunk::Teams(n) => format!("{n}ull"),
        crate::ir::region::Chunk::Even => {
            format!("(({block_end} - {block} + ({team}) - 1ull) / ({team}))")
        }
    };
    format!(
        "{ind}for (unsigned long long {block} = (unsigned long long)blockIdx.x * {team}; {block} < {trip}; \
         {block} += (unsigned long long)gridDim.x * {team}) {{ /* the team's block of the distributed iterations */\n\
         {ind}const unsigned long long {block_end} = {block} + {team} < {trip} ? {block} + {team} : {trip};\n\
         {ind}const unsigned long long {size} = {n};\n{ind}\
         for (unsigned long long {it} = {block} + ({tid}) * {size}; {it} < {block_end}; \
         {it} += ({it} - {block} + 1ull) % {size} == 0ull ? (({team}) - 1ull) * {size} + 1ull : 1ull) {{\n"
    )
}

impl Gen<'_> {
    fn render(&self, span: Span) -> String {
        super::edits::apply_with(&self.file.text, span, &self.edits, self.marks)
    }

    /// Replaces `span` with `text`, whose lines after the first are
    /// indented like the line `like` is on (a construct's statement: its
    /// pragma is often in column 0).
    fn replace(&mut self, span: Span, like: usize, text: String) {
        let t = &self.file.text;
        let line_start = t[..like].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let indent: String = t[line_start..like]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        let mut text = text.replace('\n', &format!("\n{indent}"));
        // The pragma may sit left of its statement: start at the statement's column.
        let here = t[..span.start].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let before = &t[here..span.start];
        if before.trim().is_empty() && before.len() < indent.len() {
            text.insert_str(0, &indent[before.len()..]);
        }
        self.edits.push(Edit::replace(span, text));
    }

    fn base(&self, home: Home) -> String {
        match home {
            Home::Shared(o) => format!("{} + {o}", self.n.stage),
            Home::Global(o) => format!("{} + {o}", self.n.gframe),
        }
    }

    fn staged_expr(&self, i: usize) -> String {
        let s = &self.g.staged[i];
        format!(
            "p2c_staged<{}>({})",
            storage_type(&s.ty).type_name(),
            self.base(s.home)
        )
    }

    /// The team size when no clause of the fork says otherwise: a literal,
    /// or the kernel's parameter when the host computes it.
    fn limit(&self) -> String {
        match &self.g.runtime_limit {
            Some(_) => self.n.limit.clone(),
            None => format!("{}u", self.g.team_limit),
        }
    }

    /// The block's threads, for the named barriers that every thread meets.
    fn block_count(&self) -> String {
        block_count(self.g)
    }

    fn rt(&self, c: RtCall, in_fork: bool) -> String {
        let team = &self.n.team;
        match (c, in_fork) {
            (RtCall::ThreadNum, true) => format!("(int){}", self.n.tid),
            (RtCall::ThreadNum, false) => "0".into(),
            (RtCall::NumThreads, true) => format!("(int){team}"),
            (RtCall::NumThreads, false) => "1".into(),
            (RtCall::TeamNum, _) => "(int)blockIdx.x".into(),
            (RtCall::NumTeams, _) => "(int)gridDim.x".into(),
            (RtCall::InParallel, true) | (RtCall::ActiveLevel, true) => {
                format!("(int)({team} > 1u)")
            }
            (RtCall::InParallel, false) | (RtCall::ActiveLevel, false) => "0".into(),
            (RtCall::Level, true) => "1".into(),
            (RtCall::Level, false) => "0".into(),
            (RtCall::IsInitialDevice, _) => "0".into(),
            (RtCall::ThreadLimit, _) => match &self.g.runtime_limit {
                Some(_) => format!("(int){}", self.n.limit),
                None => self.g.team_limit.to_string(),
            },
        }
    }

    /// Arguments the kernel passes to the parallel-region function.
    fn par_args(&self, work: &str) -> String {
        let mut a = vec![work.to_string()];
        if self.g.shared_bytes > 0 {
            a.push(self.n.stage.clone());
        }
        if self.g.global_bytes > 0 {
            a.push(self.n.gframe.clone());
        }
        for (i, v) in self.r.vars.iter().enumerate() {
            if param_kind(self.r, i).is_some() {
                a.push(self.n.params[i].clone());
            }
            let _ = v;
        }
        a.extend(self.arr.iter().map(|n| n.area.clone()));
        a.extend(
            super::array_team_area::team_copies(self.r, self.g)
                .into_iter()
                .map(|(_, name)| name),
        );
        if self.g.runtime_limit.is_some() {
            a.push(self.n.limit.clone());
        }
        a.join(", ")
    }

    /// Declarations of a construct's private copies (inside its block).
    fn privates(
        &self,
        privs: &[PrivVar],
        namer: &mut Namer,
        out: &mut String,
        ind: &str,
    ) -> Vec<(String, String)> {
        let mut lastp = Vec::new();
        for p in privs {
            if let Some((lo, len)) = &p.section {
                out.push_str(&super::privarray::nested(lo, len, p, namer, ind));
                continue;
            }
            match p.kind {
                PrivKind::Private => {
                    let _ = writeln!(out, "{ind}{};", p.ty.declare(&p.name));
                }
                PrivKind::Firstprivate => {
                    let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
                    super::orphan_team::first_copy(&p.ty, &p.name, &outer, out, ind);
                }
                PrivKind::Lastprivate { .. } => {
                    let outer = namer.fresh(&format!("p2c_outer_{}", p.name));
                    let _ = writeln!(out, "{ind}auto &{outer} = {};", p.name);
                    // A scalar is value-initialized: a loop that never assigns
                    // it stores an unspecified value, not an uninitialized read (#14).
                    let init = if p.ty.is_scalar() { "{}" } else { "" };
                    let _ = writeln!(out, "{ind}{}{init};", p.ty.declare(&p.name));
                    lastp.push((p.name.clone(), outer));
                }
            }
        }
        lastp
    }

    /// The private copies of constructs run as plain code: a block around
    /// the statement opens with their declarations.
    fn in_order_privates(&mut self, namer: &mut Namer) {
        for ip in &self.g.in_order_privates {
            let mut decls = String::new();
            let _ = self.privates(&ip.privates, namer, &mut decls, "");
            let decls = decls.trim_end().replace('\n', " ");
            let open = format!("{{ /* private copies */ {decls} ");
            self.edits.push(Edit::insert(ip.stmt.start, 1, open));
            self.edits.push(Edit::insert(ip.stmt.end, 1000, " }"));
            self.closes.push((ip.stmt.end, 1000, ip.stmt.start));
        }
    }

    fn site(&self, pragma: Span) -> &RedSite {
        self.sites
            .iter()
            .find(|s| s.pragma == pragma)
            .expect("every construct with reductions has a site")
    }

    /// Each thread's private copies at the identity (see `orphan_team`,
    /// which holds the team reduction sequence both kinds of team use).
    fn red_privates(&self, reds: &[GenRed], out: &mut String, ind: &str) {
        super::orphan_team::red_privates(reds, out, ind);
    }

    /// Every thread of the team: its private copies to its warp's tree,
    /// the warp's value to the site's slot.
    fn red_warps(&self, site: &RedSite, reds: &[GenRed], out: &mut String, ind: &str) {
        out.push_str(&super::orphan_team::red_warps(
            &site.team(),
            reds,
            &self.n.tid,
            &self.n.team,
            ind,
        ));
    }

    /// Thread 0 (the master), after a barrier: the warps' values into the
    /// original variables (`targets`, one per reduction).
    fn red_fold(
        &self,
        site: &RedSite,
        reds: &[GenRed],
        targets: &[String],
        out: &mut String,
        ind: &str,
    ) {
        out.push_str(&super::orphan_team::red_fold(
            &site.team(),
            reds,
            targets,
            &self.n.tid,
            &self.n.team,
            ind,
            "original variable",
        ));
    }

    /// A loop construct: iterations spread as the lowering decided.
    fn ws_loop(&self, w: &WsLoop, in_fork: bool, namer: &mut Namer) -> String {
        let mut s = String::new();
        let ind = "    ";
        let _ = writeln!(
            s,
            "{{ /* {}: {} */",
            crate::source::pragma_text::pragma_one_line(self.file.slice(w.pragma)),
            w.spread.describe()
        );
        let (per, total) = region::nest_bounds(w.nest.iter().zip(&w.types), namer, &mut s, ind);
        let own: Vec<PrivVar> = (w.privates.iter())
            .filter(|p| !super::lastprivate_value::is_loop_var(w, p))
            .cloned()
            .collect();
        let mut lastp = self.privates(&own, namer, &mut s, ind);
        super::lastprivate_value::loop_var_aliases(w, &mut lastp, namer, &mut s, ind);
        let conds = super::gen_lastprivate::declare(&w.privates, &mut lastp, namer, &mut s, ind);
        // reduction on a worksharing loop: the original variables under
        // other names when thread 0 combines into them after the loop.
        let mut red_outer = Vec::new();
        if !w.reductions.is_empty() {
            for r in &w.reductions {
                if w.red_at_join {
                    red_outer.push(r.name.clone());
                } else {
                    let outer = namer.fresh(&format!("p2c_outer_{}", r.name));
                    let _ = writeln!(s, "{ind}auto &{outer} = {};", r.name);
                    red_outer.push(outer);
                }
            }
            self.red_privates(&w.reductions, &mut s, ind);
        }
        // Array reductions (`emit::array_team`): at the join of their fork,
        // or between team barriers around the loop.
        let arr = super::array_team::of(self.g, &self.arr, w.pragma);
        let arr_team = in_fork && !super::array_team::at_join(self.g, w.pragma);
        if arr_team {
            s.push_str(&super::array_team::alloc(&arr, &self.n.work, ind));
            s.push_str(&super::array_team::outer_aliases(&arr, ind));
        }
        s.push_str(&super::array_team::bind(&arr, &self.n.tid, ind));
        let last = namer.fresh("p2c_last");
        if !lastp.is_empty() {
            let _ = writeln!(s, "{ind}bool {last} = false;");
        }
        let it = namer.fresh("p2c_iter");
        let (tid, team) = (&self.n.tid, &self.n.team);
        let (start, stride) = match w.spread {
            Spread::Team => (tid.clone(), team.to_string()),
            Spread::Grid => (
                format!("(unsigned long long)blockIdx.x * {team} + {tid}"),
                format!("(unsigned long long)gridDim.x * {team}"),
            ),
            Spread::Teams => ("blockIdx.x".into(), "gridDim.x".into()),
        };
        let grid_chunks = w.spread == Spread::Grid && w.chunk.is_some();
        if let (Some(c), true) = (&w.chunk, grid_chunks) {
            let size = namer.fresh("p2c_chunk");
            let (block, block_end) = (namer.fresh("p2c_dist"), namer.fresh("p2c_dist_end"));
            let _ = write!(
                s,
                "{}",
                grid_chunk_head(
                    c,
                    &it,
                    &total,
                    (tid, team),
                    (&block, &block_end, &size),
                    ind
                )
            );
        } else if let Some(c) = &w.chunk {
            let size = namer.fresh("p2c_chunk");
            let _ = write!(
                s,
                "{}",
                chunk_head(c, &it, &total, (&start, &stride), &size, ind)
            );
        } else if w.spread == Spread::Team {
            let end = namer.fresh("p2c_end");
            let head = super::counter::team_head(
                w.narrow_counter,
                &it,
                &end,
                &start,
                &stride,
                &total,
                ind,
            );
            let _ = writeln!(s, "{head}");
        } else {
            let _ = writeln!(
                s,
                "{ind}for (unsigned long long {it} = {start}; {it} < {total}; {it} += {stride}) {{"
            );
        }
        if !lastp.is_empty() {
            let _ = writeln!(s, "{ind}    {last} = {it} == {total} - 1;");
        }
        let depth = w.nest.len();
        let rest = namer.fresh("p2c_rest");
        if depth > 1 {
            let _ = writeln!(s, "{ind}    unsigned long long {rest} = {it};");
        }
        let body = w.nest.last().map(|l| l.body).unwrap_or(w.stmt);
        // An unbraced body that is itself a construct (`for (...)` then
        // `#pragma omp parallel for` then its loop): the construct's edit
        // starts at its pragma, between the loop's header and the body, so
        // the rendered span starts there too (else the edit would not lie
        // inside it and the construct would be silently dropped).
        let from = self.body_from(w, body);
        let body_text = super::gen_lastprivate::mark(
            &w.privates,
            &conds,
            &it,
            self.render(Span::new(from, body.end)),
        );
        self.nest_vars(w, in_fork, &per, &body_text, &it, &rest, &mut s, ind);
        let _ = writeln!(
            s,
            "{ind}    {}",
            region::reindent(&body_text, &format!("{ind}    "))
        );
        let _ = writeln!(s, "{ind}}}");
        if grid_chunks {
            let _ = writeln!(s, "{ind}}}");
        }
        self.ws_reductions_end(w, &arr, arr_team, &red_outer, &mut s, ind);
        for (name, outer) in &lastp {
            let _ = writeln!(
                s,
                "{ind}if ({last})\n{ind}    {};",
                super::lastprivate_value::assign_back(w, &per, name, outer)
            );
        }
        super::gen_lastprivate::combine(&conds, &self.n.tid, &self.n.team, namer, &mut s, ind);
        s.push('}');
        if w.barrier_after && in_fork {
            let _ = write!(s, "\np2c_team_barrier({team});");
        }
        s
    }

    /// Where the rendered body of a worksharing loop starts: an unbraced
    /// body that is itself a construct (`for (...)` then `#pragma omp
    /// parallel for` then its loop) has its edit start at its pragma,
    /// between the loop's header and the body, so the rendered span starts
    /// there too (else the edit would not lie inside it and the construct
    /// would be silently dropped).
    fn body_from(&self, w: &WsLoop, body: Span) -> usize {
        self.edits
            .iter()
            .filter(|e| {
                !e.span.is_empty()
                    && e.span.end == body.end
                    && e.span.start < body.start
                    && e.span.start >= w.stmt.start
            })
            .map(|e| e.span.start)
            .min()
            .unwrap_or(body.start)
    }

    /// The loop variables of a worksharing loop's nest, from the iteration
    /// number `it` (innermost first); in the master's loops a staged loop
    /// variable is bound to its slot of the team's frame.
    #[allow(clippy::too_many_arguments)]
    fn nest_vars(
        &self,
        w: &WsLoop,
        in_fork: bool,
        per: &[(String, String, String)],
        body_text: &str,
        it: &str,
        rest: &str,
        s: &mut String,
        ind: &str,
    ) {
        let depth = w.nest.len();
        for idx in (0..depth).rev() {
            let l = &w.nest[idx];
            let ty = &w.types[idx];
            let trip = &per[idx].2;
            let value = region::nest_var_value(l, ty, &per[idx], idx, depth, it, rest);
            match w.staged_vars.get(idx).copied().flatten() {
                Some(si) if !in_fork => {
                    let st = &self.g.staged[si];
                    let _ = writeln!(
                        s,
                        "{ind}    {} = p2c_staged_init<{}>({}, {value}); (void){};",
                        ref_decl(ty, &l.var),
                        ty.type_name(),
                        self.base(st.home),
                        l.var
                    );
                }
                _ => {
                    let _ = writeln!(
                        s,
                        "{ind}    {}{} = {value};",
                        region::unused_mark(body_text, &l.var),
                        ty.declare(&l.var)
                    );
                }
            }
            if depth > 1 && idx > 0 {
                let _ = writeln!(s, "{ind}    {rest} /= {trip};");
            }
        }
    }

    /// After a worksharing loop: its scalar reductions (the warps' values,
    /// then thread 0 folds them unless the fork's join does) and its array
    /// reductions between team barriers.
    fn ws_reductions_end(
        &self,
        w: &WsLoop,
        arr: &[(
            &crate::ir::reduction::TeamArrayRed,
            &super::array_team::Names,
        )],
        arr_team: bool,
        red_outer: &[String],
        s: &mut String,
        ind: &str,
    ) {
        if !w.reductions.is_empty() {
            let site = self.site(w.pragma);
            self.red_warps(site, &w.reductions, s, ind);
            if !w.red_at_join {
                let _ = writeln!(
                    s,
                    "{ind}p2c_team_barrier({}); /* the warps' values are in {} */",
                    self.n.team, site.slots
                );
                self.red_fold(site, &w.reductions, red_outer, s, ind);
            }
        }
        if arr_team {
            let bar = format!("p2c_team_barrier({});", self.n.team);
            s.push_str(&super::array_team::combine(
                arr,
                &self.n.work,
                &self.n.tid,
                &self.n.team,
                &self.n.team,
                &bar,
                true,
                ind,
            ));
        }
    }

    /// The fork sequence that replaces a parallel construct in the master's code.
    fn fork_call(&self, f: &Fork, namer: &mut Namer) -> String {
        let b = self.block_count();
        let w = namer.fresh(&format!("p2c_work{}", f.id));
        let limit = self.limit();
        let mut team = match &f.num_threads {
            Some(e) => format!("p2c_team_size((long long)({e}), {limit})"),
            None => limit,
        };
        if let Some(c) = &f.if_cond {
            team = format!("({c}) ? {team} : 1u");
        }
        // Device functions called in the region run their parallel
        // constructs with one thread (nested in an active region).
        let (off, on) = if self.g.orphan_cases.is_empty() {
            ("", "")
        } else {
            (
                "\n    p2c_orphan.master = 0u; /* parallel regions in called functions: one thread */",
                "\n    p2c_orphan.master = 1u;",
            )
        };
        format!(
            "{{ /* fork: parallel region {id}, `{p}` */\n    const unsigned {w} = p2c_fork_word({id}u, {team});{off}\n    {fork} = {w};\n    p2c_barrier_sync<1>({b});\n    {par}({args});\n    p2c_barrier_sync<2>({b}); /* join */{on}\n}}",
            id = f.id,
            p = crate::source::pragma_text::pragma_one_line(self.file.slice(f.pragma)),
            fork = self.n.fork,
            par = self.n.par,
            args = self.par_args(&w),
        )
    }
}

/// The block's threads as the kernel spells them: a literal, or `blockDim.x`
/// when the host computes the team size.
fn block_count(g: &Generic) -> String {
    match &g.runtime_limit {
        Some(_) => "blockDim.x".into(),
        None => g.block_threads.to_string(),
    }
}

/// How region variable `i` reaches the kernel, if it does.
fn param_kind(r: &Region, i: usize) -> Option<()> {
    let v = &r.vars[i];
    if !r.in_kernel(v) {
        return None;
    }
    match v.attr {
        Attr::Firstprivate | Attr::Mapped { .. } | Attr::ArrayPrivate { .. } => Some(()),
        _ => None,
    }
}

/// The names of the region's generated code, chosen once.
fn names(r: &Region, g: &Generic, namer: &mut Namer) -> Names {
    let params = r
        .vars
        .iter()
        .map(|v| {
            let staged = g
                .staged
                .iter()
                .any(|s| s.region_var && s.name == v.sym.name);
            match &v.attr {
                Attr::Firstprivate if staged => namer.fresh(&format!("p2c_first_{}", v.sym.name)),
                Attr::Mapped { .. } if v.maps_one_object() => {
                    namer.fresh(&format!("p2c_dev_{}", v.sym.name))
                }
                _ => v.sym.name.clone(),
            }
        })
        .collect();
    Names {
        par: namer.fresh(&format!("{}_parallel", r.kernel)),
        stage: namer.fresh("p2c_stage"),
        gframe: namer.fresh("p2c_frame"),
        gstack: namer.fresh("p2c_team_stack_base"),
        fork: namer.fresh("p2c_fork"),
        work: namer.fresh("p2c_work"),
        tid: namer.fresh("p2c_tid"),
        team: namer.fresh("p2c_team"),
        trip: namer.fresh("p2c_trip"),
        limit: namer.fresh("p2c_limit"),
        params,
    }
}

/// The reduction sites of the forks and of the worksharing loops in them.
fn red_sites(r: &Region, g: &Generic, namer: &mut Namer) -> Vec<RedSite> {
    let mut sites = Vec::new();
    for f in &g.forks {
        if !f.reductions.is_empty() {
            sites.push(RedSite {
                pragma: f.pragma,
                fork: f.id,
                at_join: true,
                ty: namer.fresh(&format!("p2c_red_{}_{}", r.kernel, f.id)),
                slots: namer.fresh(&format!("p2c_red_slots{}", f.id)),
                value: namer.fresh("p2c_red"),
            });
        }
        for (_, w) in g.inner_loops.iter().filter(|(id, _)| *id == f.id) {
            if !w.reductions.is_empty() {
                let k = sites.iter().filter(|s| s.fork == f.id).count() + 1;
                sites.push(RedSite {
                    pragma: w.pragma,
                    fork: f.id,
                    at_join: w.red_at_join,
                    ty: namer.fresh(&format!("p2c_red_{}_{}_{k}", r.kernel, f.id)),
                    slots: namer.fresh(&format!("p2c_red_slots{}_{k}", f.id)),
                    value: namer.fresh("p2c_red"),
                });
            }
        }
    }
    sites
}

/// The generic-mode kernel's parameter lists and what binds them.
struct KernelParams {
    /// The kernel's parameters.
    params: Vec<String>,
    /// The parallel-region function's parameters.
    par_params: Vec<String>,
    /// Rebuilds complex values from the parts the kernel takes.
    complex_prologue: String,
    rn: Option<super::reduction::RedNames>,
    arr_init: String,
    arr_fini: String,
    privs: Vec<super::privarray::PrivNames>,
}

pub fn emit_generic(
    r: &Region,
    g: &Generic,
    file: &SourceFile,
    cxx: &[Edit],
    namer: &mut Namer,
    marks: bool,
) -> RegionText {
    let n = names(r, g, namer);
    let sites = red_sites(r, g, namer);
    let mut gen = Gen {
        arr: super::array_team::names(r, g, namer),
        sites,
        r,
        g,
        file,
        n,
        edits: cxx
            .iter()
            .filter(|e| e.span.start >= g.block.start && e.span.end <= g.block.end)
            .cloned()
            .collect(),
        marks,
        closes: Vec::new(),
    };
    gen.construct_edits(namer);
    gen.staged_decls(namer);
    gen.inner_loop_edits(namer);
    // Fork bodies (rendered before the master's edits replace them).
    let mut cases = String::new();
    for f in &g.forks {
        cases.push_str(&gen.fork_case(f, namer));
    }
    let master = gen.master(namer);
    let kp = gen.kernel_params(namer);
    let mut k = gen.kernel_preamble(&kp.rn);
    let has_workers = !g.forks.is_empty() || g.reaches_orphans;
    k.push_str(&gen.parallel_fn(&mut cases, &kp.par_params, has_workers));
    k.push_str(&gen.kernel_head(&kp));
    let prologue = gen.master_prologue(&master);
    k.push_str(&gen.kernel_run(&master, &prologue, has_workers));
    k.push_str(&gen.kernel_end(&kp));
    k.push_str("}\n\n");
    let fallback = super::host_fallback::block(r, g, file, cxx, namer);
    let host = match kp.rn {
        Some(rn) => region::host_code_red(r, &fallback, &file.name, namer, rn),
        None => region::host_code(r, &fallback, &file.name, namer),
    };
    let types: String = r.local_types.iter().map(|h| h.def.as_str()).collect();
    RegionText {
        kernel: types + &k,
        host,
    }
}

impl<'a> Gen<'a> {
    /// The edits of runtime calls, atomics, stripped pragmas and barriers.
    fn construct_edits(&mut self, namer: &mut Namer) {
        let (r, g, file) = (self.r, self.g, self.file);
        // Atomic edits: runtime queries, stripped pragmas, barriers.
        for (sp, c, in_fork) in &g.calls {
            let in_fork = *in_fork || g.kind == GenKind::OmpParallel;
            let t = self.rt(*c, in_fork);
            self.edits.push(Edit::replace(*sp, t));
        }
        // Atomic constructs (their operands rendered with the edits above).
        for site in &r.atomics {
            let t = super::atomic::spell(site, &|s| self.render(s), namer);
            self.edits.extend(super::atomic::edits(site, t));
        }
        // lastprivate(conditional:) in worksharing loops: mark the assignments.
        self.edits.extend(super::gen_lastprivate::marker_edits(g));
        // A pragma line is indented like the statement after it.
        let next_stmt = |sp: &Span| {
            let rest = &file.text[sp.end..];
            sp.end + (rest.len() - rest.trim_start().len())
        };
        for (sp, why) in &g.stripped {
            let t = format!(
                "/* {}: {why} */",
                crate::source::pragma_text::pragma_one_line(file.slice(*sp))
            );
            let like = next_stmt(sp);
            self.replace(*sp, like, t);
        }
        self.in_order_privates(namer);
        for (sp, in_fork) in &g.barriers {
            let written = crate::source::pragma_text::pragma_one_line(file.slice(*sp));
            let t = if *in_fork || g.kind == GenKind::OmpParallel {
                format!("p2c_team_barrier({}); /* {written} */", self.n.team)
            } else {
                format!("/* {written}: barrier of a team of one thread */")
            };
            let like = next_stmt(sp);
            self.replace(*sp, like, t);
        }
        self.serial_edits(namer);
    }

    /// `single`, `master`, `masked`, `critical`: see `emit::serial`.
    fn serial_edits(&mut self, namer: &mut Namer) {
        for s in &self.g.serials {
            let written = crate::source::pragma_text::pragma_one_line(self.file.slice(s.pragma));
            let filter = match &s.kind {
                crate::ir::generic::SerialKind::Masked { filter: Some(f) } => Some(self.render(*f)),
                _ => None,
            };
            let in_fork = s.in_fork || self.g.kind == GenKind::OmpParallel;
            let s2 = crate::ir::generic::Serial {
                in_fork,
                ..s.clone()
            };
            let held = namer.fresh(match s.kind {
                crate::ir::generic::SerialKind::Sections { .. } => "p2c_section",
                _ => "p2c_held",
            });
            let file = self.file;
            let quote = |sp: Span| crate::source::pragma_text::pragma_one_line(file.slice(sp));
            for e in super::serial::section_edits(s, quote) {
                if e.span.is_empty() {
                    self.edits.push(e);
                } else {
                    let rest = &self.file.text[e.span.end..];
                    let like = e.span.end + (rest.len() - rest.trim_start().len());
                    self.replace(e.span, like, e.text);
                }
            }
            let (open, close) =
                super::serial::texts(&s2, &written, &self.n.tid, &self.n.team, filter, &held);
            // A construct that is a fork's whole statement or the region's
            // block (`target parallel` directly over `single`) has its pragma
            // before the rendered span: open it at the statement instead.
            let outside = self.g.block == s.stmt || self.g.forks.iter().any(|f| f.stmt == s.stmt);
            if outside {
                self.replace(
                    Span::new(s.stmt.start, s.stmt.start),
                    s.stmt.start,
                    open + "\n",
                );
            } else {
                let rest = &self.file.text[s.pragma.end..];
                let like = s.pragma.end + (rest.len() - rest.trim_start().len());
                self.replace(s.pragma, like, open);
            }
            // Constructs that end together close innermost first.
            let order = 1_000_000_000 - u32::try_from(s.pragma.start).unwrap_or(0).min(999_000_000);
            if !close.is_empty() {
                self.edits.push(Edit::insert(s.stmt.end, order, close));
                self.closes.push((s.stmt.end, order, s.pragma.start));
            }
        }
    }

    /// The staged declarations of the sequential part.
    fn staged_decls(&mut self, namer: &mut Namer) {
        let (g, file) = (self.g, self.file);
        let mut decl_edits = Vec::new();
        for (i, s) in g.staged.iter().enumerate() {
            let Some(decl) = s.declarator else { continue };
            let u = storage_type(&s.ty).type_name();
            let refd = ref_declarator(&s.ty, &s.name);
            if let (Some(ext), Some(start)) = (s.vla_extent, s.decl_start) {
                // The elements on the device heap, owned by a guard in the master's block.
                let guard = namer.fresh(&format!("p2c_vla_{}", s.name));
                let elem = storage_type(&s.ty).element().type_name();
                decl_edits.push(Edit::insert(
                    start,
                    40,
                    format!("p2c_vla<{elem}> {guard}((size_t)({})); ", self.render(ext)),
                ));
                decl_edits.push(Edit::replace(
                    decl,
                    format!(
                        "{refd} = p2c_staged_init<{u}>({}, {guard}.data)",
                        self.base(s.home)
                    ),
                ));
                continue;
            }
            let t = match s.init {
                Some(init) => format!(
                    "{refd} = p2c_staged_init<{u}>({}, {})",
                    self.base(s.home),
                    self.render(init)
                ),
                None => format!("{refd} = {}", self.staged_expr(i)),
            };
            decl_edits.push(Edit::replace(decl, t));
            // A variable only the parallel regions use: say so to -Wunused.
            if let Some(end) = s.decl_end {
                let mut named = false;
                let mut from = end;
                let mut forks: Vec<Span> = g.forks.iter().map(|f| f.stmt).collect();
                forks.sort();
                for f in forks.iter().filter(|f| f.start >= end) {
                    named |= mentions(&file.text[from..f.start], &s.name);
                    from = from.max(f.end);
                }
                named |= mentions(&file.text[from.min(g.block.end)..g.block.end], &s.name);
                // A loop over it that has its own copy in the frame does not use it.
                let own_loop = g.master_loops.iter().any(|w| {
                    w.nest
                        .iter()
                        .zip(&w.staged_vars)
                        .any(|(l, sv)| l.var == s.name && sv.is_some_and(|k| g.staged[k].loop_var))
                });
                if !named || own_loop {
                    decl_edits.push(Edit::insert(end, 50, format!(" (void){};", s.name)));
                }
            }
        }
        self.edits.extend(decl_edits);
    }

    fn inner_loop_edits(&mut self, namer: &mut Namer) {
        let g = self.g;
        // Worksharing loops inside forks, innermost first.
        let mut inner: Vec<&(u32, WsLoop)> = g.inner_loops.iter().collect();
        inner.sort_by_key(|(_, w)| w.stmt.end - w.pragma.start);
        for (_, w) in inner {
            let t = self.ws_loop(w, true, namer);
            self.drop_inner_closes(w.pragma.end, w.stmt.end);
            self.replace(Span::new(w.pragma.start, w.stmt.end), w.stmt.start, t);
        }
    }

    /// The reductions of site `s` of fork `f`.
    fn reds_of<'b>(&'b self, f: &'b Fork, s: &RedSite) -> &'b [GenRed] {
        if s.pragma == f.pragma {
            &f.reductions
        } else {
            self.g
                .inner_loops
                .iter()
                .find(|(_, w)| w.pragma == s.pragma)
                .map(|(_, w)| w.reductions.as_slice())
                .unwrap_or(&[])
        }
    }

    /// The `case` of fork `f` in the parallel-region function.
    fn fork_case(&self, f: &Fork, namer: &mut Namer) -> String {
        let (r, g) = (self.r, self.g);
        let ind = "        ";
        let mut cases = self.case_head(f);
        let fork_sites: Vec<&RedSite> = self.sites.iter().filter(|s| s.fork == f.id).collect();
        // Array reductions combined at the end of the case (the fork's own,
        // and loops that end the region): copies allocated before the team starts.
        let arr_join: Vec<_> = g
            .team_array_reds
            .iter()
            .zip(&self.arr)
            .filter(|(x, _)| {
                (x.construct == f.pragma
                    || g.inner_loops
                        .iter()
                        .any(|(id, w)| *id == f.id && w.pragma == x.construct))
                    && super::array_team::at_join(g, x.construct)
            })
            .collect();
        let bar4 = format!("p2c_barrier_sync<4>({});", block_count(g));
        cases.push_str(&super::array_team::alloc(&arr_join, &self.n.work, ind));
        if f.has_barrier {
            super::partial_warp::enter(&mut cases, ind, &self.n.tid, &self.n.team);
        }
        let _ = writeln!(cases, "{ind}if ({} < {}) {{", self.n.tid, self.n.team);
        let ind2 = "            ";
        if g.kind == GenKind::OmpParallel {
            for v in &r.vars {
                if v.attr == Attr::Private && r.in_kernel(v) {
                    let _ = writeln!(
                        cases,
                        "{ind2}{};",
                        storage_type(&v.sym.ty).declare(&v.sym.name)
                    );
                }
            }
        }
        let body = self.fork_body(f, namer);
        for line in body.lines() {
            if line.trim().is_empty() {
                cases.push('\n');
            } else {
                let _ = writeln!(cases, "{ind2}{line}");
            }
        }
        if f.has_barrier {
            super::partial_warp::release(&mut cases, ind2, &self.n.team);
            let _ = writeln!(cases, "{ind}}} else {{");
            super::partial_warp::idle(&mut cases, ind2, &self.n.tid, &self.n.team);
        }
        let _ = writeln!(cases, "{ind}}}");
        cases.push_str(&super::array_team::combine(
            &arr_join,
            &self.n.work,
            &self.n.tid,
            &block_count(g),
            &self.n.team,
            &bar4,
            false,
            ind,
        ));
        let join_sites: Vec<&&RedSite> = fork_sites.iter().filter(|s| s.at_join).collect();
        if !join_sites.is_empty() {
            let _ = writeln!(
                cases,
                "{ind}p2c_barrier_sync<4>({}); /* every thread of the block: the warps' reduction values are stored */",
                block_count(g)
            );
            for s in join_sites {
                let reds = self.reds_of(f, s);
                let targets: Vec<String> = reds.iter().map(|r| r.name.clone()).collect();
                self.red_fold(s, reds, &targets, &mut cases, ind);
            }
        }
        let _ = writeln!(cases, "{ind}break;");
        let _ = writeln!(cases, "    }}");
        cases
    }

    /// The `case` line and the fork's bindings: staged variables, mapped
    /// scalars, the warps' reduction slots.
    fn case_head(&self, f: &Fork) -> String {
        let (r, g, file) = (self.r, self.g, self.file);
        let mut cases = String::new();
        let _ = writeln!(
            cases,
            "    case {}: {{ /* line {}: `{}` */",
            f.id,
            f.line,
            crate::source::pragma_text::pragma_one_line(file.slice(f.pragma))
        );
        let ind = "        ";
        for &si in &f.staged {
            let s = &g.staged[si];
            let _ = writeln!(
                cases,
                "{ind}{} = {};",
                ref_decl(&s.ty, &s.name),
                self.staged_expr(si)
            );
        }
        for &vi in &f.mapped_scalars {
            let v = &r.vars[vi];
            if !r.in_kernel(v) {
                continue;
            }
            let _ = writeln!(
                cases,
                "{ind}{} = *{};",
                v.sym.ty.declare(&format!("&{}", v.sym.name)),
                self.n.params[vi]
            );
        }
        for s in self.sites.iter().filter(|s| s.fork == f.id) {
            let _ = writeln!(
                cases,
                "{ind}__shared__ {} {}[32]; /* line {}: {}: one value per warp */",
                s.ty,
                s.slots,
                file.line_of(s.pragma.start),
                red_list(self.reds_of(f, s))
            );
        }
        cases
    }

    /// What a thread of the team runs in fork `f`.
    fn fork_body(&self, f: &Fork, namer: &mut Namer) -> String {
        let g = self.g;
        let mut body = String::new();
        let _ = self.privates(&f.privates, namer, &mut body, "");
        if !f.reductions.is_empty() {
            self.red_privates(&f.reductions, &mut body, "");
        }
        if f.ws.is_none() {
            let own = super::array_team::of(g, &self.arr, f.pragma);
            body.push_str(&super::array_team::bind(&own, &self.n.tid, ""));
        }
        // A worksharing loop that is the construct's statement itself
        // (`parallel` directly over `for`) is not inside the rendered span.
        let whole = g
            .inner_loops
            .iter()
            .find(|(id, w)| *id == f.id && w.stmt == f.stmt)
            .map(|(_, w)| w);
        body.push_str(&match (&f.ws, whole) {
            (Some(w), _) | (None, Some(w)) => self.ws_loop(w, true, namer),
            (None, None) => self.render(Span::new(self.fork_body_from(f), f.stmt.end)),
        });
        if !f.reductions.is_empty() {
            body.push('\n');
            self.red_warps(self.site(f.pragma), &f.reductions, &mut body, "");
        }
        body
    }

    /// Where the rendered body of a fork starts: at the first construct
    /// between its pragma and its statement (`parallel` then `single` then
    /// the block: the `single` pragma is the body's), else the statement.
    fn fork_body_from(&self, f: &Fork) -> usize {
        self.edits
            .iter()
            .filter(|e| {
                !e.span.is_empty() && e.span.start >= f.pragma.end && e.span.start < f.stmt.start
            })
            .map(|e| e.span.start)
            .min()
            .unwrap_or(f.stmt.start)
    }

    /// Before a construct that ends at `end` is replaced by its rendered
    /// text: the closing insertions at `end` of the constructs inside it
    /// (starting from `from` on) are in that text already, and would
    /// otherwise follow it a second time.
    fn drop_inner_closes(&mut self, from: usize, end: usize) {
        let inner: Vec<(usize, u32)> = self
            .closes
            .iter()
            .filter(|(at, _, owner)| *at == end && *owner >= from && *owner < end)
            .map(|(at, order, _)| (*at, *order))
            .collect();
        self.edits
            .retain(|e| !(e.span.is_empty() && inner.contains(&(e.span.start, e.order))));
    }

    /// The sequential part, with its forks and loops replaced.
    fn master(&mut self, namer: &mut Namer) -> String {
        let g = self.g;
        // The master's edits: forks, then the loops of the sequential part.
        if g.kind != GenKind::OmpParallel {
            for f in g.forks.iter().filter(|f| f.stmt != g.block) {
                let t = self.fork_call(f, namer);
                self.drop_inner_closes(f.pragma.end, f.stmt.end);
                self.replace(Span::new(f.pragma.start, f.stmt.end), f.stmt.start, t);
            }
            let mut ml: Vec<&WsLoop> = g
                .master_loops
                .iter()
                .filter(|w| w.stmt != g.block)
                .collect();
            ml.sort_by_key(|w| w.stmt.end - w.pragma.start);
            for w in ml {
                let t = self.ws_loop(w, false, namer);
                self.drop_inner_closes(w.pragma.end, w.stmt.end);
                self.replace(Span::new(w.pragma.start, w.stmt.end), w.stmt.start, t);
            }
        }
        // A fork or loop construct whose statement is the whole block
        // (`acc parallel` directly over `acc loop`, or a combined construct
        // split by the driver): its pragma lies before the block.
        match (
            g.forks.iter().find(|f| f.stmt == g.block),
            g.master_loops.iter().find(|w| w.stmt == g.block),
        ) {
            (Some(f), _) if g.kind != GenKind::OmpParallel => self.fork_call(f, namer),
            (_, Some(w)) => self.ws_loop(w, false, namer),
            _ => self.render(g.block),
        }
    }

    /// The kernel's and the parallel-region function's parameters.
    fn kernel_params(&self, namer: &mut Namer) -> KernelParams {
        let (r, g) = (self.r, self.g);
        let mut params: Vec<String> = vec![format!("unsigned long long {}", self.n.trip)];
        let mut par_params: Vec<String> = vec![format!("unsigned {}", self.n.work)];
        let mut complex_prologue = String::new();
        if g.shared_bytes > 0 {
            par_params.push(format!("unsigned char *{}", self.n.stage));
        }
        if g.global_bytes > 0 {
            par_params.push(format!("unsigned char *{}", self.n.gframe));
        }
        for (i, v) in r.vars.iter().enumerate() {
            if param_kind(r, i).is_none() {
                continue;
            }
            let p = &self.n.params[i];
            if let Some(a) = r.array_privates.iter().find(|a| a.var == v.sym.name) {
                // The kernel binds the name to the team's copy; the
                // parallel-region function takes it as a pointer.
                par_params.push(super::privarray::par_param(a));
                continue;
            }
            let decl = match &v.attr {
                Attr::Mapped { .. } if v.maps_one_object() => v.sym.ty.pointer_to().declare(p),
                Attr::Mapped { .. } => v.sym.ty.decayed().declare(p),
                _ => v.sym.ty.declare(p),
            };
            par_params.push(decl.clone());
            if !v.sym.ty.base.split_whitespace().any(|w| w == "_Complex") {
                params.push(decl);
                continue;
            }
            // nvcc's host stub cannot take a parameter of a complex type (nor a
            // pointer to one): the kernel gets `void *` or the value's two parts.
            if v.sym.ty.is_scalar() && !matches!(v.attr, Attr::Mapped { .. }) {
                let t = v.sym.ty.unqualified_base();
                let part = if t.split_whitespace().any(|w| w == "float") {
                    "float"
                } else {
                    "double"
                };
                params.push(format!("{part} p2c_re_{p}, {part} p2c_im_{p}"));
                let _ = writeln!(
                    complex_prologue,
                    "    {t} {p};\n    __real__ {p} = p2c_re_{p};\n    __imag__ {p} = p2c_im_{p};"
                );
            } else {
                params.push(format!("void *p2c_v_{p}"));
                let ty_name = decl.strip_suffix(p.as_str()).unwrap_or(&decl).trim_end();
                let _ = writeln!(complex_prologue, "    {decl} = ({ty_name})p2c_v_{p};");
            }
        }
        // A reduction on the construct: RES_PTR and the gang storage (the host
        // passes them after the variables, as for SPMD kernels).
        let rn = super::reduction::names(r, namer);
        if let Some(rn) = &rn {
            params.extend(super::reduction::params(r, rn));
        }
        // Array reductions on the construct (`region::generic_arrays`).
        let (arr_params, arr_init, arr_fini) = region::generic_arrays(r, namer);
        params.extend(arr_params);
        let privs = super::privarray::names(r, namer);
        params.extend(super::privarray::params(r, &privs));
        let areas = super::array_team_area::params(g, &self.arr);
        params.extend(areas.iter().cloned());
        par_params.extend(areas);
        par_params.extend(
            super::array_team_area::team_copies(r, g)
                .into_iter()
                .map(|(decl, _)| decl),
        );
        if g.global_bytes > 0 {
            params.push(format!("unsigned char *{}", self.n.gstack));
        }
        if g.runtime_limit.is_some() {
            params.push(format!("unsigned {}", self.n.limit));
            par_params.push(format!("unsigned {}", self.n.limit));
        }
        KernelParams {
            params,
            par_params,
            complex_prologue,
            rn,
            arr_init,
            arr_fini,
            privs,
        }
    }

    /// The reduction types and the comment before the kernel.
    fn kernel_preamble(&self, rn: &Option<super::reduction::RedNames>) -> String {
        let (r, g, file) = (self.r, self.g, self.file);
        let mut k = String::new();
        if let Some(rn) = rn {
            k.push_str(&super::reduction::types(r, rn));
        }
        for s in &self.sites {
            let reds: &[GenRed] = g
                .forks
                .iter()
                .find(|f| f.pragma == s.pragma)
                .map(|f| f.reductions.as_slice())
                .or_else(|| {
                    g.inner_loops
                        .iter()
                        .find(|(_, w)| w.pragma == s.pragma)
                        .map(|(_, w)| w.reductions.as_slice())
                })
                .unwrap_or(&[]);
            let fields: Vec<super::reduction::Field> = reds.iter().map(gen_field).collect();
            k.push_str(&super::reduction::data_struct(
                &s.ty,
                &format!(
                    "The private copies of line {}'s `{}` as one value:",
                    file.line_of(s.pragma.start),
                    crate::source::pragma_text::pragma_one_line(file.slice(s.pragma))
                        .trim_start_matches("#pragma ")
                ),
                &fields,
            ));
        }
        let _ = writeln!(
            k,
            "/* line {} in {}(): `{}`",
            r.line, r.function, r.pragma_text
        );
        let _ = writeln!(k, " * execution: {}", g.kind.describe());
        let shared_list: Vec<String> = g
            .staged
            .iter()
            .map(|s| match s.home {
                Home::Shared(o) => format!("{} at {o} ({} B)", s.name, s.layout.size),
                Home::Global(o) => format!("{} at global {o} ({} B)", s.name, s.layout.size),
            })
            .collect();
        if !shared_list.is_empty() {
            let _ = writeln!(k, " * team frame: {}", shared_list.join(", "));
        }
        k.push_str(" */\n");
        k
    }

    /// The parallel-region function (one `case` per fork), if the team has
    /// workers.
    fn parallel_fn(&self, cases: &mut String, par_params: &[String], has_workers: bool) -> String {
        let g = self.g;
        let mut k = String::new();
        for (id, outlined) in &g.orphan_cases {
            let _ = writeln!(
            cases,
            "    case {id}u: /* a parallel region of a called device function (lower/orphan.rs); threads beyond the team skip its body */\n        {outlined}({tid}, {team});\n        break;",
            tid = self.n.tid,
            team = self.n.team
        );
        }
        if has_workers {
            let _ = writeln!(
                k,
                "static __device__ void {}({})\n{{",
                self.n.par,
                par_params.join(", ")
            );
            let _ = writeln!(k, "    const unsigned {} = p2c_thread_id();", self.n.tid);
            let _ = writeln!(
                k,
                "    const unsigned {} = p2c_fork_threads({});",
                self.n.team, self.n.work
            );
            if g.forks.is_empty() && g.orphan_cases.is_empty() {
                // Workers for parallel constructs of called functions that run
                // with one thread (W0004): no region to dispatch.
                let _ = writeln!(k, "    (void){};\n    (void){};", self.n.tid, self.n.team);
            }
            let _ = writeln!(k, "    switch (p2c_fork_region({})) {{", self.n.work);
            k.push_str(cases);
            k.push_str("    default:\n        break;\n    }\n}\n\n");
        }
        k
    }

    /// The kernel's signature, frame and team reductions' private copies.
    fn kernel_head(&self, kp: &KernelParams) -> String {
        let (r, g) = (self.r, self.g);
        let mut k = String::new();
        let _ = writeln!(
            k,
            "static __global__ void {}({})\n{{",
            r.kernel,
            kp.params.join(", ")
        );
        let ind = "    ";
        k.push_str(&region::local_type_scopes(r));
        k.push_str(&kp.complex_prologue);
        let _ = writeln!(k, "{ind}(void){};", self.n.trip);
        for s in &g.staged {
            if s.assert_size {
                let _ = writeln!(
                k,
                "{ind}static_assert(sizeof({}) == {}, \"pragma2cuda laid out `{}` as {} bytes\");",
                storage_type(&s.ty).type_name(),
                s.layout.size,
                s.name,
                s.layout.size
            );
            }
        }
        if g.shared_bytes > 0 {
            let _ = writeln!(
                k,
                "{ind}alignas({}) __shared__ unsigned char {}[{}]; /* the team's frame */",
                g.shared_align, self.n.stage, g.shared_bytes
            );
        }
        if g.global_bytes > 0 {
            let _ = writeln!(
            k,
            "{ind}unsigned char *{} = {} + (size_t)blockIdx.x * {}u; /* the team's frame in global memory */",
            self.n.gframe, self.n.gstack, g.global_bytes
        );
        }
        k.push_str(&super::privarray::bind(r, &kp.privs, ind));
        // RED_INIT (GANG) of a construct reduction no parallel region uses: the
        // team's private copy in a register, declared where the end of the
        // kernel (RED_FINI) sees it.
        for x in &g.team_reds {
            if g.staged.iter().any(|s| s.region_var && s.name == x.name) {
                continue;
            }
            let t = x.ty.type_name();
            let _ = writeln!(
            k,
            "{ind}{t} {} = {}::identity<{t}>(); /* RED_INIT (GANG, lid 0): the team's private copy */",
            x.name,
            x.op.functor()
        );
        }
        k.push_str(&kp.arr_init);
        k
    }

    /// The master's prologue: mapped scalars, staged region variables.
    fn master_prologue(&self, master: &str) -> String {
        let (r, g) = (self.r, self.g);
        let mut prologue = String::new();
        let master_code = without_comments(master);
        for (i, v) in r.vars.iter().enumerate() {
            if !r.in_kernel(v) {
                continue;
            }
            let staged = g
                .staged
                .iter()
                .position(|s| s.region_var && s.name == v.sym.name);
            let named = mentions(&master_code, &v.sym.name);
            match (&v.attr, staged) {
                (Attr::Mapped { .. }, _) if v.maps_one_object() && named => {
                    let _ = writeln!(
                        prologue,
                        "{} = *{};",
                        v.sym.ty.declare(&format!("&{}", v.sym.name)),
                        self.n.params[i]
                    );
                }
                (Attr::Firstprivate, Some(si)) => {
                    let s = &g.staged[si];
                    let init = format!(
                        "p2c_staged_init<{}>({}, {})",
                        storage_type(&s.ty).type_name(),
                        self.base(s.home),
                        self.n.params[i]
                    );
                    if named {
                        let _ = writeln!(prologue, "{} = {init};", ref_decl(&s.ty, &s.name));
                    } else {
                        let _ = writeln!(prologue, "{init};");
                    }
                }
                (Attr::Private, Some(si)) if named => {
                    let _ = writeln!(
                        prologue,
                        "{} = {};",
                        ref_decl(&g.staged[si].ty, &v.sym.name),
                        self.staged_expr(si)
                    );
                }
                (Attr::Reduction { op, .. }, Some(si)) => {
                    // RED_INIT (GANG): the team's private copy, in the frame.
                    let s = &g.staged[si];
                    let t = storage_type(&s.ty).type_name();
                    let init = format!(
                        "p2c_staged_init<{t}>({}, {}::identity<{t}>())",
                        self.base(s.home),
                        op.functor()
                    );
                    if named {
                        // `named` also matches the pragma text in a fork's comment.
                        let _ = writeln!(
                        prologue,
                        "{} = {init}; /* RED_INIT (GANG, lid 0): the team's private copy */ (void){};",
                        ref_decl(&s.ty, &s.name),
                        s.name
                    );
                    } else {
                        let _ = writeln!(prologue, "{init}; /* RED_INIT (GANG, lid 0) */");
                    }
                }
                (Attr::Private, None) if g.kind != GenKind::OmpParallel && named => {
                    // A loop variable the region's loops may all declare themselves.
                    let _ = writeln!(
                        prologue,
                        "{}{};",
                        if v.rule == crate::ir::c::LOOP_VAR {
                            "[[maybe_unused]] "
                        } else {
                            ""
                        },
                        storage_type(&v.sym.ty).declare(&v.sym.name)
                    );
                }
                _ => {}
            }
        }
        prologue
    }

    /// The sequential part on thread 0 and the workers' loop.
    fn kernel_run(&self, master: &str, prologue: &str, has_workers: bool) -> String {
        let g = self.g;
        let mut k = String::new();
        let ind = "    ";
        let b = block_count(g);
        let master_block = |ind: &str| -> String {
            let mut s = String::new();
            for l in prologue.lines() {
                let _ = writeln!(s, "{ind}{l}");
            }
            let _ = writeln!(s, "{ind}{}", region::reindent(master, ind));
            s
        };
        if g.kind == GenKind::OmpParallel {
            let limit = self.limit();
            let _ = writeln!(
                k,
                "{ind}/* every thread runs the block: parallel region 1 of {} threads */",
                limit.trim_end_matches('u')
            );
            let _ = writeln!(
                k,
                "{ind}{}({});",
                self.n.par,
                self.par_args(&format!("p2c_fork_word(1u, {limit})"))
            );
        } else if !has_workers {
            k.push_str(&master_block(ind));
        } else {
            let _ = writeln!(
            k,
            "{ind}__shared__ unsigned {}; /* the next parallel region and its team size; 0 = done */",
            self.n.fork
        );
            let _ = writeln!(
                k,
                "{ind}if (p2c_thread_id() == 0) {{ /* the team's initial thread */"
            );
            if !g.orphan_cases.is_empty() {
                let _ = writeln!(
                k,
                "        /* parallel regions in called device functions fork this block's workers */\n        p2c_orphan.fork = &{};\n        p2c_orphan.block = {b};\n        p2c_orphan.limit = {};\n        p2c_orphan.master = 1u;",
                self.n.fork,
                self.limit()
            );
            }
            k.push_str(&master_block("        "));
            if !g.orphan_cases.is_empty() {
                let _ = writeln!(k, "        p2c_orphan.master = 0u;");
            }
            let _ = writeln!(k, "        {} = 0u;", self.n.fork);
            let _ = writeln!(
                k,
                "        p2c_barrier_sync<1>({b}); /* release the workers */"
            );
            let _ = writeln!(
                k,
                "{ind}}} else {{ /* workers: wait for a parallel region */"
            );
            let _ = writeln!(k, "        for (;;) {{");
            let _ = writeln!(k, "            p2c_barrier_sync<1>({b});");
            let _ = writeln!(
                k,
                "            const unsigned {} = {};",
                self.n.work, self.n.fork
            );
            let _ = writeln!(
                k,
                "            if ({} == 0u)\n                break;",
                self.n.work
            );
            let _ = writeln!(
                k,
                "            {}({});",
                self.n.par,
                self.par_args(&self.n.work)
            );
            let _ = writeln!(k, "            p2c_barrier_sync<2>({b});");
            let _ = writeln!(k, "        }}");
            let _ = writeln!(k, "{ind}}}");
        }
        k
    }

    /// The end of the construct: reductions combined.
    fn kernel_end(&self, kp: &KernelParams) -> String {
        let (r, g) = (self.r, self.g);
        let mut k = String::new();
        let ind = "    ";
        if let Some(rn) = &kp.rn {
            // RED_FINI (GANG) at the end of the construct, by every thread of
            // the block; thread 0 holds the team's value.
            let _ = writeln!(
                k,
                "{ind}{{ /* end of the construct: the NULL outermost loop, lid 0 */"
            );
            if !g.forks.is_empty() {
                let _ = writeln!(
                k,
                "{ind}    __syncwarp(); /* the master's warp reconverges before the block-wide barriers */"
            );
            }
            for x in &g.team_reds {
                if let Some(si) = g
                    .staged
                    .iter()
                    .position(|s| s.region_var && s.name == x.name)
                {
                    let _ = writeln!(
                        k,
                        "{ind}    {} = {};",
                        ref_decl(&g.staged[si].ty, &x.name),
                        self.staged_expr(si)
                    );
                }
            }
            for l in super::reduction::kernel_steps(r, rn, false).lines() {
                let _ = writeln!(k, "{ind}{l}");
            }
            let _ = writeln!(k, "{ind}}}");
        }
        if !kp.arr_fini.is_empty() {
            if !g.forks.is_empty() && kp.rn.is_none() {
                let _ = writeln!(
                k,
                "{ind}__syncwarp(); /* the master's warp reconverges before the block-wide barriers */"
            );
            }
            k.push_str(&kp.arr_fini);
        }
        k
    }
}

/// The reduction data struct's field of a generic-mode reduction.
fn gen_field(x: &GenRed) -> super::reduction::Field {
    super::reduction::Field::new(x.ty.type_name(), x.op, x.name.clone(), x.arith)
}

/// A type with the qualifiers of its base removed (what the frame stores).
fn storage_type(ty: &CType) -> CType {
    CType {
        base: ty.unqualified_base(),
        derivs: ty.derivs.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_dropped_and_literals_kept() {
        let code = "a = 1; /* fork: reduction(+:total) */ b = \"/* total */\"; c = '/';";
        let got = without_comments(code);
        assert!(!mentions(&got, "fork"));
        assert!(mentions(&got, "total"), "the string literal stays: {got}");
        assert_eq!(without_comments("x /* y"), "x  ");
        assert!(!mentions(&without_comments("int t; /* total */"), "total"));
    }
}
