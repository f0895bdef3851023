//! Translation-level checks of the data environment that the runnable
//! fixtures cannot show (gcc 12 rejects the OpenMP 5.1 spellings, device-only
//! functions cannot run on the host): what the output declares, and which
//! inputs are errors.

use expect_test::expect;
use pragma2cuda::source::SourceFile;
use pragma2cuda::{translate, Emit, Options};

/// The lines of `text` that hold `needle`, trimmed, one per line
/// (what a snapshot of a rendered fragment compares).
fn lines_with(text: &str, needle: &str) -> String {
    text.lines()
        .filter(|l| l.contains(needle))
        .map(|l| format!("{}\n", l.trim()))
        .collect()
}

/// The translated part of a CUDA output (after the prelude).
fn translated(out: &str) -> &str {
    let start = "/* ---- translated source ---- */";
    &out[out.find(start).expect("the translated source")..]
}

fn cuda(src: &str) -> (Option<String>, Vec<String>) {
    let t = translate(&SourceFile::new("t.c", src), &Options::default());
    let codes = t
        .diagnostics
        .iter()
        .map(|d| d.code.as_str().to_string())
        .collect();
    let failed = t.has_errors();
    (t.output.filter(|_| !failed), codes)
}

fn plan(src: &str) -> String {
    translate(
        &SourceFile::new("t.c", src),
        &Options {
            emit: Emit::Plan,
            ..Default::default()
        },
    )
    .output
    .unwrap_or_default()
}

#[test]
fn begin_declare_target_and_device_type() {
    let src = "#pragma omp begin declare target\nint lut[3] = {1, 2, 3};\nint get(int i) { return lut[i]; }\n#pragma omp end declare target\n\
               int only_dev(int x);\n#pragma omp declare target to(only_dev) device_type(nohost)\nint only_dev(int x) { return x; }\n\
               int main(void) { int a[4];\n#pragma omp target teams distribute parallel for map(from: a)\n for (int i = 0; i < 4; i++) a[i] = get(i % 3) + only_dev(i);\n return a[0]; }\n";
    let (out, codes) = cuda(src);
    let out = out.unwrap_or_else(|| panic!("errors: {codes:?}"));
    expect![[r#"
        int lut[3] = {1, 2, 3};
        __device__ int p2c_mirror_lut[3] = {1, 2, 3}; /* pragma2cuda: the device copy of `lut` (declare target (lines 1-4)) */
        static p2c_declared p2c_mirror_lut_entry(&lut, sizeof(lut), []() -> void * { void *p = NULL; cudaGetSymbolAddress(&p, p2c_mirror_lut); return p; }, "lut");
        __host__ __device__ int get(int i) { return P2C_DECLARED_VAR(lut, p2c_mirror_lut)[i]; }
    "#]].assert_eq(&lines_with(translated(&out), "lut"));
    // nohost: device only, on the prototype and the definition.
    assert_eq!(
        out.matches("__device__ int only_dev(int x)").count(),
        2,
        "{out}"
    );
    assert!(!out.contains("__host__ __device__ int only_dev"), "{out}");
}

#[test]
fn link_mirror_is_not_present_and_library_routines_need_no_device_copy() {
    let src = "#include <math.h>\n#pragma acc routine(fmin) seq\nint big[100];\n#pragma omp declare target link(big)\nint main(void) { return 0; }\n";
    let (out, codes) = cuda(src);
    let out = out.unwrap_or_else(|| panic!("errors: {codes:?}"));
    // A link variable's mirror is registered as a link: the present table
    // does not count it as mapped until a map clause maps it.
    assert!(out.contains("\"big\", P2C_DECLARED_LINK);"), "{out}");
    expect![[r#"
        device variable big : int [100] -- __device__ copy, present only where a map clause maps it [declare target link (line 4)]
        note: `fmin` (acc routine (line 2)) is not declared in this file: a library function needs no marking
    "#]].assert_eq(&plan(src));
}

#[test]
fn runtime_headers_come_from_the_prelude() {
    let src = "#include <stdio.h>\n#include <omp.h>\n#include <openacc.h>\nint main(void) { printf(\"%d\\n\", omp_get_num_devices()); return 0; }\n";
    let (out, _) = cuda(src);
    let out = out.unwrap();
    expect![[r#"
        #include <stdio.h>
        /* #include <omp.h>: provided by the pragma2cuda prelude (p2c_runtime.cuh) */
        /* #include <openacc.h>: provided by the pragma2cuda prelude (p2c_runtime.cuh) */
    "#]]
    .assert_eq(&lines_with(translated(&out), "#include"));
    assert!(out.contains("#define omp_get_num_devices p2c_omp_get_num_devices"));
}

#[test]
fn data_construct_errors_are_located() {
    // A map type an exit cannot have; a variable defined in another file.
    let (_, codes) =
        cuda("void f(int *a, int n) {\n#pragma omp target enter data map(from: a[0:n])\n}\n");
    assert_eq!(codes, vec!["E0216"]);
    let (_, codes) =
        cuda("extern int v;\n#pragma omp declare target(v)\nint main(void) { return 0; }\n");
    assert_eq!(codes, vec!["E0901"]);
    // A data construct inside a kernel region.
    let (_, codes) = cuda("int main(void) { int a[8];\n#pragma acc parallel loop copy(a)\nfor (int i = 0; i < 8; i++) {\n#pragma acc update self(a)\n a[i] = i; }\n return 0; }\n");
    assert_eq!(codes, vec!["E0901"]);
    // An executable data construct at file scope.
    let (_, codes) =
        cuda("int v[4];\n#pragma omp target update to(v)\nint main(void) { return 0; }\n");
    assert_eq!(codes, vec!["E0203"]);
    // Declarative directives inside a function are reported, not dropped.
    let (_, codes) =
        cuda("int f(int x);\nint main(void) {\n#pragma acc routine(f) seq\n return 0; }\n");
    assert_eq!(codes, vec!["E0901"]);
    // A section of a pointer needs its length.
    let (_, codes) = cuda("void f(int *a) {\n#pragma acc enter data copyin(a[2:])\n}\n");
    assert_eq!(codes, vec!["E0402"]);
}

#[test]
fn structured_regions_nest_and_close_in_order() {
    let src = "int x[8], y[8];\nint main(void) {\n#pragma acc data copy(x)\n#pragma acc data copyin(y)\n#pragma acc parallel loop\n for (int i = 0; i < 8; i++) x[i] += y[i];\n return x[1]; }\n";
    let (out, codes) = cuda(src);
    let out = out.unwrap_or_else(|| panic!("errors: {codes:?}"));
    let exit_y = out.find("p2c_exit(p2c_range_y").unwrap();
    let exit_x = out.find("p2c_exit(p2c_range_x").unwrap();
    let enter_x = out.find("p2c_enter(p2c_range_x").unwrap();
    let enter_y = out.find("p2c_enter(p2c_range_y").unwrap();
    assert!(
        enter_x < enter_y && enter_y < exit_y && exit_y < exit_x,
        "{out}"
    );
    // The kernel's arrays are implicit maps that find the data present.
    assert!(out.contains("P2C_MAP_TOFROM | P2C_MAP_IMPLICIT"), "{out}");
}

/// defaultmap: the attribute of what the construct does not list, per
/// category (gcc 12 does not know `present`, so no runnable fixture).
#[test]
fn defaultmap_behaviours_per_category() {
    let src = "typedef struct { int x, y; } pt;\ntypedef double real;\nenum color { RED, GREEN };\n\
               int main(void) { int out[8]; int s = 2; real r = 1.5; enum color c = GREEN; pt p = {1, 2};\n\
               #pragma omp target data map(to: s)\n{\n\
               #pragma omp target teams distribute parallel for defaultmap(present: scalar) map(from: out)\n\
               for (int i = 0; i < 8; i++) out[i] = s;\n}\n\
               #pragma omp target teams distribute parallel for defaultmap(tofrom: aggregate) defaultmap(to: scalar)\n\
               for (int i = 0; i < 8; i++) out[i] = p.x + (int)r + c;\n\
               return out[0]; }\n";
    let (out, codes) = cuda(src);
    let out = out.unwrap_or_else(|| panic!("errors: {codes:?}"));
    // A structure is an aggregate; a typedef of double and an enum are scalars.
    expect![[r#"
            int *p2c_dev_s = p2c_map_scalar(&s, P2C_MAP_PRESENT, p2c_where, "s");
            pt *p2c_dev_p = p2c_map_scalar(&p, P2C_MAP_TOFROM, p2c_where_2, "p");
            real *p2c_dev_r = p2c_map_scalar(&r, P2C_MAP_TO, p2c_where_2, "r");
            enum color *p2c_dev_c = p2c_map_scalar(&c, P2C_MAP_TO, p2c_where_2, "c");
    "#]]
    .assert_eq(&lines_with(translated(&out), "p2c_map_scalar("));
    expect![[r#"
          var:       out : int [8] -- map from (device memory) [explicit clause]
          var:       s : int -- map present (device memory) [scalar under defaultmap(present): implicit map present]
          var:       out : int [8] -- map tofrom (device memory) [aggregate under defaultmap(tofrom): implicit map tofrom]
          var:       p : pt -- map tofrom (device memory) [aggregate under defaultmap(tofrom): implicit map tofrom]
          var:       r : real -- map to (device memory) [scalar under defaultmap(to): implicit map to]
          var:       c : enum color -- map to (device memory) [scalar under defaultmap(to): implicit map to]
    "#]].assert_eq(&lines_with(&plan(src), "var:"));
}

#[test]
fn defaultmap_keeps_const_data_and_reports_what_is_not_lowered() {
    // A const array is not copied back, whatever the behaviour says.
    let src = "static const int lut[4] = {1, 2, 3, 4};\nint main(void) { int out[4];\n\
               #pragma omp target teams distribute parallel for defaultmap(tofrom) map(from: out)\n\
               for (int i = 0; i < 4; i++) out[i] = lut[i];\nreturn out[0]; }\n";
    let (out, codes) = cuda(src);
    let out = out.unwrap_or_else(|| panic!("errors: {codes:?}"));
    expect![[r#"
            int *p2c_dev_out = p2c_map_section(out, p2c_dev_out_lo, p2c_dev_out_len, P2C_MAP_FROM, p2c_where, "out");
            const int *p2c_dev_lut = p2c_map_section(lut, p2c_dev_lut_lo, p2c_dev_lut_len, P2C_MAP_TO | P2C_MAP_IMPLICIT, p2c_where, "lut");
    "#]].assert_eq(&lines_with(translated(&out), "p2c_map_section("));
    // firstprivate of an array: each thread's copy, filled from the
    // original, never copied back; of a pointer: its value, by itself.
    let src = "int main(void) { int a[4] = {0}, out[4]; int *q = out;\n\
               #pragma omp target teams distribute parallel for defaultmap(firstprivate: aggregate) map(from: out)\n\
               for (int i = 0; i < 4; i++) out[i] = a[i];\n\
               #pragma omp target teams distribute parallel for defaultmap(firstprivate: pointer) map(to: a)\n\
               for (int i = 0; i < 4; i++) a[i] = q[i];\nreturn 0; }\n";
    let (out, codes) = cuda(src);
    assert!(codes.is_empty(), "{codes:?}");
    let out = out.expect("translates");
    // a firstprivate array goes to the device and never back
    expect![[r#"
            int *p2c_dev_out = p2c_map_section(out, p2c_dev_out_lo, p2c_dev_out_len, P2C_MAP_FROM, p2c_where, "out");
            int *p2c_src_a = p2c_map_section(a, p2c_lo_a, p2c_len_a, P2C_MAP_TO, p2c_where, "a");
            int *p2c_dev_a_2 = p2c_map_section(a, p2c_dev_a_2_lo, p2c_dev_a_2_len, P2C_MAP_TO, p2c_where_2, "a");
    "#]].assert_eq(&lines_with(translated(&out), "p2c_map_section("));
    let report = pragma2cuda::translate(
        &pragma2cuda::source::SourceFile::new("t.c", src),
        &pragma2cuda::Options {
            emit: pragma2cuda::Emit::Sharing,
            ..Default::default()
        },
    )
    .output
    .expect("a report");
    expect![[r#"
            out : int [4] -- map(from); global memory (device copy)
            a : int [4] -- firstprivate(a); global memory (each thread's copy, a slice of a per-launch area (threads x section), filled from the original)
            i : int -- private; register (each thread's copy)
            a : int [4] -- map(to); global memory (device copy)
            q : int * -- firstprivate; register (kernel parameter: each thread's copy)
            i : int -- private; register (each thread's copy)
    "#]].assert_eq(&lines_with(&report, " -- "));
    // `default` changes nothing; `none` for another category neither.
    let src = "int main(void) { int out[4]; int s = 3;\n\
               #pragma omp target teams distribute parallel for defaultmap(default: scalar) defaultmap(none: pointer) map(from: out)\n\
               for (int i = 0; i < 4; i++) out[i] = s;\nreturn out[0]; }\n";
    let (out, codes) = cuda(src);
    assert!(out.is_some(), "{codes:?}");
    expect![[r#"
          var:       out : int [4] -- map from (device memory) [explicit clause]
          var:       s : int -- firstprivate (by value) [scalar (implicit firstprivate)]
    "#]]
    .assert_eq(&lines_with(&plan(src), "var:"));
}

#[test]
fn defaultmap_none_spares_declare_target_variables() {
    let src = "#pragma omp declare target\nint g = 3;\n#pragma omp end declare target\nint h = 4;\n#pragma omp declare target enter(h)\n\
               int main(void) { int out[4]; int s = 1;\n\
               #pragma omp target teams distribute parallel for defaultmap(none) map(from: out)\n\
               for (int i = 0; i < 4; i++) out[i] = g + h + s;\nreturn out[0]; }\n";
    assert_eq!(cuda(src).1, ["E0206"]);
}

/// A local pointer that holds only what malloc returned and never escapes
/// cannot be present, even in a file that maps data dynamically: E0401 at
/// translation (sema/fresh_pointer.rs). With `if` the region may run on the
/// host, where the pointer is fine: the run-time lookup stays.
#[test]
fn fresh_malloc_pointer_is_refused_unless_an_if_may_keep_it_on_the_host() {
    let file = |region: &str| {
        format!(
            "#include <stdlib.h>\nstatic double *d;\nvoid setup(void)\n{{\n    d = (double *)malloc(8);\n\
             #pragma acc enter data create(d[0:1])\n}}\nint f(int on)\n{{\n    double *c = (double *)malloc(8);\n\
             {region}\n    c[0] = d[0];\n    free(c);\n    return on;\n}}\n"
        )
    };
    let (out, codes) = cuda(&file("#pragma acc serial"));
    assert!(out.is_none());
    assert_eq!(codes, vec!["E0401".to_string()]);
    let (out, codes) = cuda(&file("#pragma acc serial if(on)"));
    assert!(out.is_some(), "{codes:?}");
    // A pointer that escapes (here to acc_copyin) may be present: no error.
    let escaped = file("#pragma acc serial").replace("free(c);", "free(c);\n    acc_copyin(c, 8);");
    let (out, codes) = cuda(&escaped);
    assert!(out.is_some(), "{codes:?}");
}
