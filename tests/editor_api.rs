//! The library entry an editor uses: `lower_region_at` lowers the one region
//! under the cursor, by itself, and never panics wherever the cursor is.

use pragma2cuda::source::SourceFile;
use pragma2cuda::{lower_region_at, translate, Options};

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
    let whole = translate(&f, &Options::default())
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
