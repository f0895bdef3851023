/* bench/driver.cu: the GPU benchmark of scripts/bench-reduce.sh. Includes the
 * translation of bench/reduce.c (P2C_TRANSLATED) and times its reductions
 * against CUB's DeviceReduce::Sum on the same device data.
 *
 * pragma2cuda: the arrays are made resident once with the prelude's present
 * table (p2c_map_enter), so a call moves only the reduction variable; the
 * kernel time is estimated as best(t(n)) - best(t(0)) (t(0) maps and unmaps
 * the variable without a launch). CUB: cudaEvent time of DeviceReduce::Sum
 * (dot: over a transform iterator x[i] * y[i]). Best of REPS runs each.
 * Prints one TSV line per reduction. Build with -DBENCH_NO_CUB to run the
 * pragma2cuda part alone (for instance on the CPU SIMT emulator). */
#include P2C_TRANSLATED
#ifndef BENCH_NO_CUB
#include <cub/cub.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#endif
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

static const int REPS = 10;

static double now_s()
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <class F>
static double best_of(F f)
{
    double best = 1e30;
    for (int r = 0; r < REPS; r++) {
        double t0 = now_s();
        f();
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    return best;
}

#ifndef BENCH_NO_CUB
template <class T>
struct DotOp {
    const T *x, *y;
    __host__ __device__ T operator()(long i) const { return x[i] * y[i]; }
};

/* Best cudaEvent time (s) of a CUB sum over `in`; the sum goes to *result. */
template <class It, class T>
static double cub_sum(It in, long n, T *result)
{
    T *dout = nullptr;
    void *tmp = nullptr;
    size_t bytes = 0;
    cudaMalloc(&dout, sizeof(T));
    cub::DeviceReduce::Sum(tmp, bytes, in, dout, n);
    cudaMalloc(&tmp, bytes);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    float best = 1e30f;
    for (int r = 0; r < REPS; r++) {
        cudaEventRecord(a);
        cub::DeviceReduce::Sum(tmp, bytes, in, dout, n);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        best = ms < best ? ms : best;
    }
    cudaMemcpy(result, dout, sizeof(T), cudaMemcpyDeviceToHost);
    cudaFree(tmp);
    cudaFree(dout);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return best / 1e3;
}
#endif

static void row(const char *what, long n, double bytes, double p2c_s, double p2c_raw_s, double cub_s, double p2c_val, double cub_val, double exact)
{
    double gbs = bytes / p2c_s / 1e9;
    printf("%s\t%ld\t%.0f\t%.4f\t%.4f\t%.1f", what, n, bytes, p2c_raw_s * 1e3, p2c_s * 1e3, gbs);
    if (cub_s > 0)
        printf("\t%.4f\t%.1f\t%.3f", cub_s * 1e3, bytes / cub_s / 1e9, cub_s / p2c_s);
    else
        printf("\t-\t-\t-");
    double rel = std::fabs(p2c_val - exact) / (std::fabs(exact) > 1 ? std::fabs(exact) : 1);
    printf("\t%.17g\t%.17g\t%.17g\t%s\n", p2c_val, cub_val, exact, rel < 1e-3 ? "ok" : "WRONG");
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : (1L << 28);
    std::vector<double> xd(n), yd(n);
    std::vector<float> xf(n), yf(n);
    double sum_exact = 0, dot_exact = 0;
    for (long i = 0; i < n; i++) {
        xd[i] = (double)(i % 7) * 0.5;
        yd[i] = (double)(i % 5) - 2.0;
        xf[i] = (float)xd[i];
        yf[i] = (float)yd[i];
        sum_exact += xd[i];
        dot_exact += xd[i] * yd[i];
    }
    const char *where = "bench";
    double *dxd = (double *)p2c_map_enter(xd.data(), n * sizeof(double), P2C_MAP_TO, where);
    double *dyd = (double *)p2c_map_enter(yd.data(), n * sizeof(double), P2C_MAP_TO, where);
    float *dxf = (float *)p2c_map_enter(xf.data(), n * sizeof(float), P2C_MAP_TO, where);
    float *dyf = (float *)p2c_map_enter(yf.data(), n * sizeof(float), P2C_MAP_TO, where);
#ifndef BENCH_NO_CUB
    {
        /* The ceiling: a device-to-device copy, bytes read plus bytes written. */
        size_t bytes = n * sizeof(double);
        void *scratch = nullptr;
        cudaMalloc(&scratch, bytes);
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        float best = 1e30f;
        for (int r = 0; r < REPS; r++) {
            cudaEventRecord(a);
            cudaMemcpy(scratch, dxd, bytes, cudaMemcpyDeviceToDevice);
            cudaEventRecord(b);
            cudaEventSynchronize(b);
            float ms = 0;
            cudaEventElapsedTime(&ms, a, b);
            best = ms < best ? ms : best;
        }
        printf("# device copy of %zu bytes: %.1f GB/s read + written (best of %d)\n", bytes, 2.0 * bytes / (best / 1e3) / 1e9, REPS);
        cudaFree(scratch);
        cudaEventDestroy(a);
        cudaEventDestroy(b);
    }
#endif
    printf("what\tn\tbytes\tp2c_call_ms\tp2c_kernel_ms\tp2c_GBps\tcub_ms\tcub_GBps\tp2c_vs_cub\tp2c_value\tcub_value\texact\tcheck\n");
    double v = 0, cv = 0;
    {
        double t0 = best_of([&] { sum_d(xd.data(), 0); });
        double t = best_of([&] { v = sum_d(xd.data(), n); });
        double c = 0;
#ifndef BENCH_NO_CUB
        c = cub_sum(dxd, n, &cv);
#endif
        row("sum double", n, n * 8.0, t - t0, t, c, v, cv, sum_exact);
    }
    {
        float fv = 0, fc = 0;
        double t0 = best_of([&] { sum_f(xf.data(), 0); });
        double t = best_of([&] { fv = sum_f(xf.data(), n); });
        double c = 0;
#ifndef BENCH_NO_CUB
        c = cub_sum(dxf, n, &fc);
#endif
        row("sum float", n, n * 4.0, t - t0, t, c, fv, fc, sum_exact);
    }
    {
        double t0 = best_of([&] { dot_d(xd.data(), yd.data(), 0); });
        double t = best_of([&] { v = dot_d(xd.data(), yd.data(), n); });
        double c = 0;
#ifndef BENCH_NO_CUB
        auto it = thrust::make_transform_iterator(thrust::counting_iterator<long>(0), DotOp<double>{dxd, dyd});
        c = cub_sum(it, n, &cv);
#endif
        row("dot double", n, n * 16.0, t - t0, t, c, v, cv, dot_exact);
    }
    {
        float fv = 0, fc = 0;
        double t0 = best_of([&] { dot_f(xf.data(), yf.data(), 0); });
        double t = best_of([&] { fv = dot_f(xf.data(), yf.data(), n); });
        double c = 0;
#ifndef BENCH_NO_CUB
        auto it = thrust::make_transform_iterator(thrust::counting_iterator<long>(0), DotOp<float>{dxf, dyf});
        c = cub_sum(it, n, &fc);
#endif
        row("dot float", n, n * 8.0, t - t0, t, c, fv, fc, dot_exact);
    }
    return 0;
}
