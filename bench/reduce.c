/* bench/reduce.c: the reductions of the GPU benchmark (scripts/bench-reduce.sh),
 * plain C with OpenMP offload pragmas. pragma2cuda translates this file; clang-19
 * compiles it as is for its own OpenMP offload. The data is made resident by the
 * driver beforehand, so each call moves only the reduction variable. */
#include "reduce.h"

double sum_d(const double *x, long n)
{
    double s = 0.0;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(+: s)
    for (long i = 0; i < n; i++)
        s += x[i];
    return s;
}

float sum_f(const float *x, long n)
{
    float s = 0.0f;
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(+: s)
    for (long i = 0; i < n; i++)
        s += x[i];
    return s;
}

double dot_d(const double *x, const double *y, long n)
{
    double s = 0.0;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+: s)
    for (long i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

float dot_f(const float *x, const float *y, long n)
{
    float s = 0.0f;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) reduction(+: s)
    for (long i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}
