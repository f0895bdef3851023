//! The library entry an editor uses: `lower_region_at` lowers the one region
//! under the cursor, by itself, and never panics wherever the cursor is.

use pragma2cuda::source::SourceFile;
use pragma2cuda::{lower_region_at, translate, EditorSession, Options};

const TWO_REGIONS: &str = r#"#include <stdio.h>
#define N 64
int a[N], b[N];
int main(void)
{
    for (int i = 0; i < N; i++) a[i] = i;   /* host loop */
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (int i = 0; i < N; i++)
        a[i] += 1;
    int s = 0;
#pragma acc parallel loop gang vector copyin(a) copyout(b) reduction(+: s)
    for (int i = 0; i < N; i++) {
        b[i] = 2 * a[i];
        s += b[i];
    }
    printf("%d %d\n", b[N - 1], s);
    return 0;
}
"#;

fn file() -> SourceFile {
    SourceFile::new("two.c", TWO_REGIONS)
}

#[test]
fn the_region_under_the_cursor_is_lowered_alone() {
    let f = file();
    let second = TWO_REGIONS.find("#pragma acc").unwrap();
    let in_body = TWO_REGIONS.find("s += b[i]").unwrap();
    for offset in [second, second + 12, in_body] {
        let (view, diags) = lower_region_at(&f, offset);
        assert!(diags.is_empty(), "{diags:?}");
        let view = view.expect("a region at the cursor");
        assert_eq!(view.pragma.start, second);
        assert!(
            view.cuda.contains("__global__ void main_L11("),
            "{}",
            view.cuda
        );
        assert!(
            !view.cuda.contains("main_L7"),
            "only the region under the cursor"
        );
        assert!(view.plan.contains("reduction"), "{}", view.plan);
    }
    let first = TWO_REGIONS.find("#pragma omp").unwrap();
    let (view, _) = lower_region_at(&f, first + 3);
    assert_eq!(view.expect("the first region").pragma.start, first);
}

#[test]
fn host_code_is_not_a_region() {
    let f = file();
    for needle in ["#include", "host loop", "printf"] {
        let (view, _) = lower_region_at(&f, TWO_REGIONS.find(needle).unwrap());
        assert!(view.is_none(), "{needle}");
    }
}

/// The kernel the editor shows is the kernel the whole translation writes
/// (the first region's names are the same either way).
#[test]
fn the_view_matches_the_whole_translation() {
    let f = file();
    let whole = translate(
        &f,
        &Options {
            line_directives: false,
            ..Options::default()
        },
    )
    .output
    .expect("translates");
    let (view, _) = lower_region_at(&f, TWO_REGIONS.find("a[i] += 1").unwrap());
    let cuda = view.expect("a region").cuda;
    let kernel_end = cuda.find("\n}\n").expect("kernel text") + 3;
    assert!(
        whole.contains(&cuda[..kernel_end]),
        "{}",
        &cuda[..kernel_end]
    );
}

#[test]
fn never_panics_at_any_offset() {
    let f = file();
    for offset in 0..=TWO_REGIONS.len() + 2 {
        let _ = lower_region_at(&f, offset);
    }
    let broken = SourceFile::new(
        "broken.c",
        "#pragma omp target teams distribute parallel for map(\nfor (int i = 0; i <",
    );
    for offset in 0..=broken.text.len() {
        let _ = lower_region_at(&broken, offset);
    }
}

/// For every region of every fixture, the editor's view is the text the
/// whole translation writes for it: its lines appear in the output in the
/// same order (the host block is indented where it lands, so lines are
/// compared without their leading blanks). Regions with atomics, splits of
/// combined constructs and generic mode are among the fixtures.
#[test]
fn every_fixture_region_view_is_in_the_whole_translation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/in");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/in")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    let mut views = 0;
    let mut problems = Vec::new();
    for p in &paths {
        let text = std::fs::read_to_string(p).expect("fixture");
        let f = SourceFile::new(p.display().to_string(), text.clone());
        let Some(whole) = translate(
            &f,
            &Options {
                line_directives: false,
                ..Options::default()
            },
        )
        .output
        else {
            continue;
        };
        let out: Vec<&str> = whole.lines().map(str::trim_start).collect();
        let mut seen = std::collections::BTreeSet::new();
        for (at, _) in text.match_indices("#pragma") {
            let (view, _) = lower_region_at(&f, at);
            let Some(view) = view else { continue };
            if !seen.insert(view.pragma.start) {
                continue;
            }
            views += 1;
            let mut k = 0;
            for line in view.cuda.lines().map(str::trim_start) {
                // A pragma after a comment on its line (`/* c */ #pragma`)
                // lands after that comment.
                let same = |o: &&str| *o == line || o.ends_with(&format!("*/ {line}"));
                match out[k..].iter().position(same) {
                    Some(i) => k += i + 1,
                    None => {
                        problems.push(format!(
                            "{}: view line not in the output: {line}",
                            p.display()
                        ));
                        break;
                    }
                }
            }
        }
    }
    assert!(views > 150, "only {views} region views");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 15: a session answers every look-up as `lower_region_at` does
/// (view and diagnostics), for every pragma of every fixture, from one
/// analysis of the file.
#[test]
fn a_session_answers_as_lower_region_at_for_every_fixture() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/in");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/in")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    let mut views = 0;
    for p in &paths {
        let text = std::fs::read_to_string(p).expect("fixture");
        let f = SourceFile::new(p.display().to_string(), text.clone());
        let session = EditorSession::new(f.clone());
        let mut offsets: Vec<usize> = text.match_indices("#pragma").map(|(at, _)| at).collect();
        offsets.extend(text.match_indices("for (").map(|(at, _)| at));
        offsets.push(0);
        for at in offsets {
            let (v1, d1) = lower_region_at(&f, at);
            let (v2, d2) = session.region_at(at);
            views += usize::from(v1.is_some());
            assert_eq!(
                format!("{v1:?}"),
                format!("{v2:?}"),
                "{} at {at}",
                p.display()
            );
            assert_eq!(
                format!("{d1:?}"),
                format!("{d2:?}"),
                "{} at {at}",
                p.display()
            );
        }
    }
    assert!(views > 150, "only {views} region views");
}

/// After an edit the session answers for the edited text.
#[test]
fn a_session_follows_an_edit() {
    let mut s = EditorSession::new(file());
    let at = TWO_REGIONS.find("b[i] = 2 * a[i];").unwrap();
    s.edit(at, at + "b[i] = 2 * a[i];".len(), "b[i] = 3 * a[i];");
    let edited = TWO_REGIONS.replace("b[i] = 2 * a[i];", "b[i] = 3 * a[i];");
    let f = SourceFile::new("two.c", edited.as_str());
    let off = edited.find("#pragma acc").unwrap();
    let (v1, d1) = lower_region_at(&f, off);
    let (v2, d2) = s.region_at(off);
    assert!(v2.as_ref().expect("a view").cuda.contains("3 * a[i]"));
    assert_eq!(format!("{v1:?}{d1:?}"), format!("{v2:?}{d2:?}"));
    // Offsets past the end are clamped, never a panic.
    s.edit(usize::MAX - 1, usize::MAX, "\n");
    assert_eq!(s.file().text.len(), edited.len() + 1);
}

/// A small deterministic generator (xorshift64*), so a failure names the
/// edit that made it and reruns the same way.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random edit of one line of `text`: (start, end, new text). Bytes
/// changed, inserted or deleted inside the line, the line deleted,
/// doubled or split, a keyword used as a name (renamed by the
/// translation), a pragma or a declaration inserted.
fn one_line_edit(text: &str, rng: &mut Rng) -> (usize, usize, String) {
    const INSERTS: &[&str] = &[
        "x",
        "1",
        " ",
        ";",
        "{",
        "}",
        "(",
        ")",
        " + 1",
        "new ",
        "int q = 0; ",
        "/* c */",
        "#pragma omp target teams distribute parallel for\n",
        "#pragma acc parallel loop\n",
        "\n",
    ];
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&s| s < text.len())
        .collect();
    let Some(&start) = starts.get(rng.below(starts.len())) else {
        return (0, 0, "x".into());
    };
    let end = text[start..].find('\n').map_or(text.len(), |k| start + k);
    let line = &text[start..end];
    let cols: Vec<usize> = line
        .char_indices()
        .map(|(i, _)| start + i)
        .chain(std::iter::once(end))
        .collect();
    let at = cols[rng.below(cols.len())];
    let next = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
    let word = INSERTS[rng.below(INSERTS.len())].to_string();
    match rng.below(6) {
        0 => (at, next.min(end.max(at)), word),
        1 => (at, at, word),
        2 => (at, next.min(end.max(at)), String::new()),
        3 => (start, (end + 1).min(text.len()), String::new()),
        4 => (start, start, format!("{line}\n")),
        _ => (at, at, "\n".into()),
    }
}

/// Every answer of a session, as text: diagnostics, region summaries, and
/// the view, diagnostics and details at every pragma and line start.
fn answers(s: &EditorSession) -> String {
    let text = &s.file().text;
    let mut out = format!("{:?}\n", s.diagnostics());
    for r in s.regions() {
        out.push_str(&format!("{r:?}\n"));
    }
    let offsets = text
        .match_indices("#pragma")
        .map(|(at, _)| at)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1));
    for at in offsets {
        let (v, d) = s.region_at(at);
        if v.is_some() || !d.is_empty() {
            out.push_str(&format!("{at}: {v:?} {d:?} {:?}\n", s.details(at)));
        }
    }
    out
}

/// Issues 15 and 19: after any one-line edit the session answers exactly
/// as a session made from scratch on the edited text (every view, summary,
/// detail and diagnostic), across many random edits of fixtures (chained:
/// each edit applies to the text the last one left), including edits that
/// add or remove regions, declarations, keyword names and lines.
#[test]
fn an_edited_session_answers_as_a_fresh_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/in");
    let fixtures = [
        "omp_sharing_rules_generic",
        "acc_sharing_rules",
        "omp_atomic_forms",
        "omp_orphan_clauses",
        "omp_cxx_keyword_in_region",
        "acc_async_queues",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut compared = 0;
    for name in fixtures {
        let path = dir.join(format!("{name}.c"));
        let original = std::fs::read_to_string(&path).expect("fixture");
        let mut text = original.clone();
        let mut s = EditorSession::new(SourceFile::new(name, text.clone()));
        for k in 0..40 {
            // Every tenth edit starts again from the fixture, so most
            // edits land in a file with its regions.
            let (start, end, new) = if k % 10 == 9 {
                (0, text.len(), original.clone())
            } else {
                one_line_edit(&text, &mut rng)
            };
            s.edit(start, end, &new);
            text.replace_range(start..end, &new);
            assert_eq!(s.file().text, text, "{name}, edit {k}");
            let fresh = EditorSession::new(SourceFile::new(name, text.clone()));
            let (a, b) = (answers(&s), answers(&fresh));
            assert!(
                a == b,
                "{name}, edit {k} ({start}..{end} -> {new:?}): the edited session differs from a fresh one\n{}",
                first_difference(&a, &b)
            );
            compared += s.regions().count();
        }
    }
    assert!(compared > 500, "only {compared} regions compared");
}

fn first_difference(a: &str, b: &str) -> String {
    a.lines().zip(b.lines()).find(|(x, y)| x != y).map_or_else(
        || format!("lengths {} and {}", a.len(), b.len()),
        |(x, y)| format!("edited: {x}\nfresh:  {y}"),
    )
}
