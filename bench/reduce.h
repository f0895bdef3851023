/* bench/reduce.h: the benchmark's reductions (bench/reduce.c). */
#ifndef BENCH_REDUCE_H
#define BENCH_REDUCE_H
#ifdef __cplusplus
extern "C" {
#endif
double sum_d(const double *x, long n);
float sum_f(const float *x, long n);
double dot_d(const double *x, const double *y, long n);
float dot_f(const float *x, const float *y, long n);
#ifdef __cplusplus
}
#endif
#endif
