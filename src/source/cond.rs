//! Preprocessor conditional groups: `#if` / `#ifdef` / `#ifndef`, then any
//! `#elif` / `#elifdef` / `#elifndef` / `#else`, then `#endif`.
//!
//! pragma2cuda does not evaluate conditions: every arm of a group is
//! translated and the directive lines are kept. The one case that needs the
//! group's shape is a pragma that ends an arm and governs the statement after
//! the `#endif`:
//!
//! ```c
//! #ifdef USE_ACC
//! #pragma acc parallel loop copy(a[0:n])
//! #else
//! #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
//! #endif
//! for (int i = 0; i < n; i++) a[i] += 1;
//! ```
//!
//! Each pragma governs the loop only in its own arm, so the front end
//! attaches both to the loop ([`shared_statement`]) and the emitter gives
//! every arm its own copy of it (see `emit`).

use super::mask::{directive_word, scan};
use super::Span;

/// One conditional group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CondGroup {
    /// The directive lines in order: the opening `#if...`, any `#elif...` /
    /// `#else`, and the `#endif` when the file has one.
    pub lines: Vec<Span>,
    /// The group ends with `#endif` (false when the file ends first).
    pub closed: bool,
    /// One of the arms is an `#else`.
    pub has_else: bool,
}

impl CondGroup {
    /// The text of each arm: from the end of one directive line to the start
    /// of the next (the newline after the directive line included).
    pub fn arms(&self) -> Vec<Span> {
        self.lines
            .windows(2)
            .map(|w| Span::new(w[0].end, w[1].start))
            .collect()
    }

    /// The `#endif` line, if the group has one.
    pub fn endif(&self) -> Option<Span> {
        if self.closed {
            self.lines.last().copied()
        } else {
            None
        }
    }

    /// The whole group, from `#if` to the end of `#endif`.
    pub fn span(&self) -> Span {
        let start = self.lines.first().map(|s| s.start).unwrap_or(0);
        let end = self.lines.last().map(|s| s.end).unwrap_or(start);
        Span::new(start, end)
    }
}

/// Every conditional group of the text, in the order their `#if` lines
/// appear. Directive lines inside comments are not directives; an `#elif`,
/// `#else` or `#endif` without an open group is ignored.
pub fn groups(text: &str) -> Vec<CondGroup> {
    let b = text.as_bytes();
    let mut out: Vec<CondGroup> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    scan(
        text,
        |span| {
            let (w, _) = directive_word(&b[span.start..span.end]);
            match w {
                b"if" | b"ifdef" | b"ifndef" => {
                    open.push(out.len());
                    out.push(CondGroup {
                        lines: vec![span],
                        closed: false,
                        has_else: false,
                    });
                }
                b"elif" | b"elifdef" | b"elifndef" | b"else" => {
                    if let Some(&g) = open.last() {
                        out[g].lines.push(span);
                        out[g].has_else |= w == b"else";
                    }
                }
                b"endif" => {
                    if let Some(g) = open.pop() {
                        out[g].lines.push(span);
                        out[g].closed = true;
                    }
                }
                _ => {}
            }
        },
        |_, _| {},
    );
    out
}

/// The innermost group and arm whose text contains `pos`.
pub fn arm_at(groups: &[CondGroup], pos: usize) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize, usize)> = None; // (group, arm, arm length)
    for (g, grp) in groups.iter().enumerate() {
        if !grp.span().contains(pos) {
            continue;
        }
        for (k, arm) in grp.arms().iter().enumerate() {
            let len = arm.end.saturating_sub(arm.start);
            let better = match best {
                None => true,
                Some((_, _, l)) => len < l,
            };
            if arm.contains(pos) && better {
                best = Some((g, k, len));
            }
        }
    }
    best.map(|(g, k, _)| (g, k))
}

/// Every (group, arm) whose text contains `pos`, outermost first.
pub fn arms_around(groups: &[CondGroup], pos: usize) -> Vec<(usize, usize)> {
    let mut v: Vec<(usize, usize, Span)> = Vec::new();
    for (g, grp) in groups.iter().enumerate() {
        if !grp.span().contains(pos) {
            continue;
        }
        for (k, arm) in grp.arms().iter().enumerate() {
            if arm.contains(pos) {
                v.push((g, k, *arm));
            }
        }
    }
    v.sort_by_key(|(_, _, a)| (a.start, std::cmp::Reverse(a.end)));
    v.into_iter().map(|(g, k, _)| (g, k)).collect()
}

/// When the pragma `pragma` is the last thing in an arm and governs `stmt`,
/// which follows that group's `#endif`: the group and the arm of the pragma.
/// `None` for a pragma and statement in the same arm (or outside any group).
pub fn shared_statement(groups: &[CondGroup], pragma: Span, stmt: Span) -> Option<(usize, usize)> {
    let (g, k) = arm_at(groups, pragma.start)?;
    let endif = groups[g].endif()?;
    (endif.end <= stmt.start).then_some((g, k))
}

/// When the pragma starting at `pragma_start` is the last thing in its arm
/// and `next` (the first non-blank byte after it) starts the next directive
/// line of that group: the end of the group's `#endif`, where the statement
/// the pragma governs begins (after blanks).
pub fn after_arm(groups: &[CondGroup], pragma_start: usize, next: usize) -> Option<usize> {
    let (g, k) = arm_at(groups, pragma_start)?;
    let grp = &groups[g];
    if grp.lines.get(k + 1)?.start != next {
        return None;
    }
    grp.endif().map(|e| e.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_arms() {
        let t = "a\n#ifdef X\nb\n#elif Y\nc\n#else\nd\n#endif\n#if 1\n# if 2\nzzz\n# endif\n#endif\n/*\n#if 3\n*/\n#else\n";
        let g = groups(t);
        assert_eq!(g.len(), 3);
        assert!(g.iter().all(|g| g.closed));
        let sl = |s: Span| &t[s.start..s.end];
        assert_eq!(
            g[0].lines.iter().map(|s| sl(*s)).collect::<Vec<_>>(),
            ["#ifdef X", "#elif Y", "#else", "#endif"]
        );
        assert!(g[0].has_else && !g[1].has_else);
        assert_eq!(
            g[0].arms().iter().map(|s| sl(*s)).collect::<Vec<_>>(),
            ["\nb\n", "\nc\n", "\nd\n"]
        );
        let e = t.find("zzz").unwrap();
        assert_eq!(arm_at(&g, e), Some((2, 0)));
        assert_eq!(arm_at(&g, t.find('c').unwrap()), Some((0, 1)));
        assert_eq!(arm_at(&g, 0), None);
    }

    #[test]
    fn shared_statement_after_endif() {
        let t = "#ifdef A\n#pragma acc loop\n#else\n#pragma omp for\n#endif\nfor(;;);\n#if B\n#pragma omp for\nfor(;;);\n#endif\n";
        let g = groups(t);
        let p1 = t.find("#pragma acc").unwrap();
        let p2 = t.find("#pragma omp").unwrap();
        let s = t.find("for(").unwrap();
        let stmt = Span::new(s, s + 8);
        assert_eq!(
            shared_statement(&g, Span::new(p1, p1 + 16), stmt),
            Some((0, 0))
        );
        assert_eq!(
            shared_statement(&g, Span::new(p2, p2 + 15), stmt),
            Some((0, 1))
        );
        let p3 = t.rfind("#pragma").unwrap();
        let s3 = t.rfind("for(").unwrap();
        assert_eq!(
            shared_statement(&g, Span::new(p3, p3 + 15), Span::new(s3, s3 + 8)),
            None
        );
    }

    #[test]
    fn unbalanced_input() {
        for t in ["#endif\n#else\n", "#if X\n", "#if\n#elif\n", "#", ""] {
            let _ = groups(t);
        }
        let g = groups("#if X\na\n");
        assert_eq!(g.len(), 1);
        assert!(!g[0].closed && g[0].endif().is_none());
    }
}
