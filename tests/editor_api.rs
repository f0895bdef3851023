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
