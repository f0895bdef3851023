/* bench/driver_omp.c: the benchmark of bench/reduce.c built by an OpenMP offload
 * compiler itself, clang-19's or gcc-12's nvptx offload (scripts/bench-reduce.sh). The arrays are made resident with
 * `target enter data`; the kernel time is estimated as best(t(n)) - best(t(0)),
 * as bench/driver.cu does for pragma2cuda. Prints one TSV line per reduction. */
#include "reduce.h"
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define REPS 10

#define BEST(var, call)                                  \
    do {                                                 \
        var = 1e30;                                      \
        for (int r_ = 0; r_ < REPS; r_++) {              \
            double t0_ = omp_get_wtime();                \
            call;                                        \
            double t_ = omp_get_wtime() - t0_;           \
            var = t_ < var ? t_ : var;                   \
        }                                                \
    } while (0)

static void row(const char *what, long n, double bytes, double t, double t0, double v, double exact)
{
    double rel = fabs(v - exact) / (fabs(exact) > 1 ? fabs(exact) : 1);
    printf("%s\t%ld\t%.0f\t%.4f\t%.4f\t%.1f\t%.17g\t%.17g\t%s\n", what, n, bytes, t * 1e3, (t - t0) * 1e3,
           bytes / (t - t0) / 1e9, v, exact, rel < 1e-3 ? "ok" : "WRONG");
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 28);
    double *xd = malloc(n * sizeof *xd), *yd = malloc(n * sizeof *yd);
    float *xf = malloc(n * sizeof *xf), *yf = malloc(n * sizeof *yf);
    if (!xd || !yd || !xf || !yf)
        return 1;
    double sum_exact = 0, dot_exact = 0;
    for (long i = 0; i < n; i++) {
        xd[i] = (double)(i % 7) * 0.5;
        yd[i] = (double)(i % 5) - 2.0;
        xf[i] = (float)xd[i];
        yf[i] = (float)yd[i];
        sum_exact += xd[i];
        dot_exact += xd[i] * yd[i];
    }
#pragma omp target enter data map(to: xd[0:n], yd[0:n], xf[0:n], yf[0:n])
    printf("what\tn\tbytes\tomp_call_ms\tomp_kernel_ms\tomp_GBps\tomp_value\texact\tcheck\n");
    double t, t0, v = 0;
    float fv = 0;
    BEST(t0, sum_d(xd, 0));
    BEST(t, v = sum_d(xd, n));
    row("sum double", n, n * 8.0, t, t0, v, sum_exact);
    BEST(t0, sum_f(xf, 0));
    BEST(t, fv = sum_f(xf, n));
    row("sum float", n, n * 4.0, t, t0, fv, sum_exact);
    BEST(t0, dot_d(xd, yd, 0));
    BEST(t, v = dot_d(xd, yd, n));
    row("dot double", n, n * 16.0, t, t0, v, dot_exact);
    BEST(t0, dot_f(xf, yf, 0));
    BEST(t, fv = dot_f(xf, yf, n));
    row("dot float", n, n * 8.0, t, t0, fv, dot_exact);
#pragma omp target exit data map(release: xd[0:n], yd[0:n], xf[0:n], yf[0:n])
    free(xd);
    free(yd);
    free(xf);
    free(yf);
    return 0;
}
