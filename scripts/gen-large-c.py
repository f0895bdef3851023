#!/usr/bin/env python3
"""Writes a large C file for the translation benchmarks (issue 15).

    scripts/gen-large-c.py --bytes N --per LINES [--seed S] > F.c

About N bytes of C made of small functions; one offload pragma per LINES
lines (LINES = 0: plain C, no pragma). The regions mix OpenMP and OpenACC
kinds that pragma2cuda lowers: combined loops (with and without a
reduction), data constructs around a loop, and generic-mode regions (a
target region with sequential code and a nested parallel loop). gcc
-fopenmp, clang -fopenmp and pragma2cuda accept every one of them, with no
refusal. The output is deterministic for a given size, density and seed.
"""
import argparse
import random
import sys

HEADER = """#include <stdio.h>
#include <stdlib.h>

#define N 1024

double ga[N], gb[N];
static int counter;

"""

# Each region: text with {f} (function name), {k} (a number). Every one is a
# function of its own, taking arrays and a size.
REGIONS = [
    # OpenMP combined loop
    """void {f}(double *a, const double *b, int n)
{{
    double s = {k}.0;
#pragma omp target teams distribute parallel for map(to: b[0:n]) map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = s * b[i] + a[i];
}}
""",
    # OpenMP combined loop with a reduction
    """double {f}(const double *a, int n)
{{
    double t = 0.0;
#pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(+: t)
    for (int i = 0; i < n; i++)
        t += a[i] * {k}.0;
    return t;
}}
""",
    # OpenACC combined loop with a reduction
    """int {f}(const int *v, int n)
{{
    int m = 0;
#pragma acc parallel loop gang vector copyin(v[0:n]) reduction(max: m)
    for (int i = 0; i < n; i++)
        m = v[i] > m ? v[i] : m;
    return m + {k};
}}
""",
    # OpenACC data construct around a kernels loop
    """void {f}(float *x, const float *y, int n)
{{
#pragma acc data copy(x[0:n]) copyin(y[0:n])
    {{
#pragma acc kernels loop independent
        for (int i = 0; i < n; i++)
            x[i] = x[i] + {k}.0f * y[i];
    }}
}}
""",
    # OpenMP data construct around a combined loop
    """void {f}(double *a, int n)
{{
#pragma omp target data map(tofrom: a[0:n])
    {{
#pragma omp target teams distribute parallel for
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 0.5 + {k};
    }}
}}
""",
    # OpenMP generic region: sequential code, then a parallel loop
    """void {f}(int *out, int n)
{{
    int base = {k};
#pragma omp target map(tofrom: out[0:n])
    {{
        int twice = base * 2;
#pragma omp parallel for
        for (int i = 0; i < n; i++)
            out[i] = twice + i;
    }}
}}
""",
    # OpenACC parallel loop over a global array
    """void {f}(void)
{{
#pragma acc parallel loop copy(ga) copyin(gb)
    for (int i = 0; i < N; i++)
        ga[i] += gb[i] * {k};
}}
""",
]

PLAIN = [
    """static int {f}(int x, int y)
{{
    int r = x * {k} + y;
    if (r < 0)
        r = -r;
    counter += r & 7;
    return r % 1000;
}}
""",
    """double {f}(const double *v, int n)
{{
    double acc = 0.0;
    for (int i = 0; i < n; i++) {{
        if (v[i] > {k}.0)
            acc += v[i];
        else
            acc -= v[i] * 0.5;
    }}
    return acc;
}}
""",
    """void {f}(char *buf, int len)
{{
    double *tmp = malloc(sizeof(double) * (len + 1));
    if (!tmp)
        return;
    for (int i = 0; i < len; i++)
        tmp[i] = buf[i] + {k};
    for (int i = 0; i < len; i++)
        buf[i] = (char)(tmp[i] / 2);
    free(tmp);
}}
""",
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bytes", type=int, required=True)
    ap.add_argument("--per", type=int, default=50,
                    help="one offload pragma per this many lines; 0: none")
    ap.add_argument("--seed", type=int, default=15)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    out = [HEADER]
    size = len(HEADER)
    lines = HEADER.count("\n")
    pragmas = 0
    k = 0
    while size < args.bytes:
        k += 1
        want_region = args.per > 0 and lines >= (pragmas + 1) * args.per
        pool = REGIONS if want_region else PLAIN
        text = rnd.choice(pool).format(f=f"fn{k}", k=k % 97 + 1)
        if want_region:
            pragmas += 1
        out.append(text + "\n")
        size += len(text) + 1
        lines += text.count("\n") + 1
    out.append("int main(void)\n{\n    printf(\"%d\\n\", counter);\n    return 0;\n}\n")
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main()
