//! Known failures of suite files that are not the translation's: a test that
//! is wrong (its checker rejects a result the specification allows, it reads
//! past an allocation), or a feature that the translation passes through
//! unchanged to the host compiler, which lacks it (gcc 12 rejects or ignores
//! it on the host as well), or a test the suite builds with more than its
//! own file (a library of the suite linked in). `pragma2cuda suite --known FILE` reads the list
//! (`scripts/known-failures.tsv`): such a file still counts as failed,
//! and its line says which known failure it is. An entry names the exact
//! failure it explains, so a file that fails differently is reported as a
//! plain failure, and a listed file that passes says the entry is stale.

use std::collections::HashMap;

/// What kind of known failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnownKind {
    /// The test program is wrong.
    TestDefect,
    /// The host compiler (gcc 12) lacks a host feature passed through to it.
    HostCompiler,
    /// The suite builds the test in a way the runner does not (a library of
    /// its own linked in).
    RunnerSetup,
    /// The test program is wrong in a way that makes it fail at random (a
    /// time-seeded input that its checker mishandles): gcc's host run fails
    /// at the same rate. A pass of such a file is not a stale entry.
    Random,
}

impl KnownKind {
    fn parse(s: &str) -> Option<KnownKind> {
        match s {
            "test-defect" => Some(KnownKind::TestDefect),
            "host-compiler" => Some(KnownKind::HostCompiler),
            "runner-setup" => Some(KnownKind::RunnerSetup),
            "random-test-defect" => Some(KnownKind::Random),
            _ => None,
        }
    }

    /// How a result line names it.
    pub fn label(self) -> &'static str {
        match self {
            KnownKind::TestDefect => "test defect",
            KnownKind::HostCompiler => "host compiler lacks the feature",
            KnownKind::RunnerSetup => "built differently by the suite",
            KnownKind::Random => "test defect that fails at random, on the host too",
        }
    }
}

/// One entry: the failure (the text after `FAIL path: `) it explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Known {
    pub kind: KnownKind,
    pub failure: String,
    pub why: String,
}

impl Known {
    /// Whether `failure` (the text after `FAIL path: `) is the one this entry
    /// names. A racy test defect can end in more than one way: the column may
    /// list alternatives separated by ` | `, each an exact failure.
    pub fn explains(&self, failure: &str) -> bool {
        self.failure.split(" | ").any(|alt| alt.trim() == failure)
    }
}

/// Reads the list: a TSV `file kind failure why` with a header line; blank
/// lines and lines starting with `#` are skipped. An error names the line.
pub fn parse_known(text: &str) -> Result<HashMap<String, Known>, String> {
    let mut out = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_end_matches('\r');
        if t.trim().is_empty() || t.starts_with('#') || t.starts_with("file\t") {
            continue;
        }
        let f: Vec<&str> = t.split('\t').collect();
        let bad = |m: &str| format!("line {}: {m}", i + 1);
        if f.len() != 4 || f.iter().any(|c| c.trim().is_empty()) {
            return Err(bad(
                "expected 4 tab-separated columns: file kind failure why",
            ));
        }
        let kind = KnownKind::parse(f[1].trim())
            .ok_or_else(|| {
                bad("the kind is `test-defect`, `random-test-defect`, `host-compiler` or `runner-setup`")
            })?;
        let known = Known {
            kind,
            failure: f[2].trim().to_string(),
            why: f[3].trim().to_string(),
        };
        if out.insert(f[0].trim().to_string(), known).is_some() {
            return Err(bad("the file is listed twice"));
        }
    }
    Ok(out)
}

/// The verdict on one result: its line with the known failure named, and
/// whether it is a known failure.
pub fn annotate(line: &str, rel: &str, passed: bool, known: Option<&Known>) -> (String, bool) {
    let Some(k) = known else {
        return (line.to_string(), false);
    };
    if passed && k.kind == KnownKind::Random {
        return (line.to_string(), false);
    }
    if passed {
        return (
            format!("{line} (listed as a known failure: the entry is stale)"),
            false,
        );
    }
    let detail = line
        .strip_prefix("FAIL ")
        .and_then(|l| l.strip_prefix(rel))
        .and_then(|l| l.strip_prefix(": "));
    match detail {
        Some(d) if k.explains(d) => (
            format!("{line} [known: {}: {}]", k.kind.label(), k.why),
            true,
        ),
        _ => (
            format!(
                "{line} (listed as a known failure with another failure: `{}`)",
                k.failure
            ),
            false,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "file\tkind\tfailure\twhy\n\
        # comment\n\
        a/t.c\ttest-defect\temulator: exit code 1\tthe checker is wrong\n\
        a/u.c\thost-compiler\tthe emulator build failed\tgcc 12 lacks it\n";

    #[test]
    fn list_is_read() {
        let k = parse_known(LIST).unwrap();
        assert_eq!(k.len(), 2);
        assert_eq!(k["a/t.c"].kind, KnownKind::TestDefect);
        assert_eq!(k["a/u.c"].failure, "the emulator build failed");
    }

    #[test]
    fn bad_lists_are_refused_with_the_line() {
        let e = parse_known("file\tkind\tfailure\twhy\na.c\tflaky\tx\ty\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_known("a.c\ttest-defect\tx\n").unwrap_err();
        assert!(e.contains("4 tab-separated"), "{e}");
        let e = parse_known("a.c\ttest-defect\tx\ty\na.c\ttest-defect\tx\ty\n").unwrap_err();
        assert!(e.contains("twice"), "{e}");
    }

    #[test]
    fn only_the_listed_failure_is_known() {
        let k = parse_known(LIST).unwrap();
        let (l, known) = annotate(
            "FAIL a/t.c: emulator: exit code 1",
            "a/t.c",
            false,
            k.get("a/t.c"),
        );
        assert!(known);
        assert_eq!(
            l,
            "FAIL a/t.c: emulator: exit code 1 [known: test defect: the checker is wrong]"
        );
        // Another failure of a listed file stays a plain failure.
        let (l, known) = annotate(
            "FAIL a/t.c: emulator: exit code 2",
            "a/t.c",
            false,
            k.get("a/t.c"),
        );
        assert!(!known);
        assert!(
            l.starts_with("FAIL a/t.c: emulator: exit code 2 (listed"),
            "{l}"
        );
        // A failure column may list exact alternatives (a racy test defect).
        let k2 =
            parse_known("r.c\ttest-defect\temulator: exit code 8 | emulator: exit code 24\tracy\n")
                .unwrap();
        for (code, want) in [(8, true), (24, true), (16, false), (2, false)] {
            let (_, known) = annotate(
                &format!("FAIL r.c: emulator: exit code {code}"),
                "r.c",
                false,
                k2.get("r.c"),
            );
            assert_eq!(known, want, "exit code {code}");
        }
        // A file that fails at random may pass: no stale entry then.
        let k3 = parse_known("z.c\trandom-test-defect\temulator: exit code 1\tseeded\n").unwrap();
        let (l, known) = annotate("PASS z.c", "z.c", true, k3.get("z.c"));
        assert_eq!((l.as_str(), known), ("PASS z.c", false));
        let (l, known) = annotate(
            "FAIL z.c: emulator: exit code 1",
            "z.c",
            false,
            k3.get("z.c"),
        );
        assert!(known && l.contains("at random"), "{l}");
        // A listed file that passes says so.
        let (l, known) = annotate("PASS a/t.c", "a/t.c", true, k.get("a/t.c"));
        assert!(!known && l.contains("stale"), "{l}");
        // An unlisted file is untouched.
        let (l, known) = annotate("FAIL b.c: x", "b.c", false, None);
        assert_eq!((l.as_str(), known), ("FAIL b.c: x", false));
    }
}
