// Every shuffle kind, every width 1..32, parameters 0..32, six value types, a full warp
// and a partial one (blockDim 40: warp 1 has lanes 0..7). Expected values follow the
// CUDA definitions, computed on the host.
#include <cuda_runtime.h>
#include <cstring>
#include <vector>
#include "check.h"

constexpr int kThreads = 40;
constexpr int kWidths[] = {1, 2, 4, 8, 16, 32};
constexpr int kNW = 6, kNP = 33, kModes = 4;

template <class T>
__global__ void shfl_kernel(const T *in, T *out) {
    const int t = threadIdx.x;
    // Lanes that exist in this thread's warp.
    const int warp_base = t / 32 * 32;
    const int nlanes = (kThreads - warp_base) < 32 ? (kThreads - warp_base) : 32;
    const unsigned mask = nlanes == 32 ? 0xffffffffu : ((1u << nlanes) - 1u);
    T v = in[t];
    for (int m = 0; m < kModes; ++m)
        for (int wi = 0; wi < kNW; ++wi)
            for (int p = 0; p < kNP; ++p) {
                const int w = kWidths[wi];
                T r;
                switch (m) {
                case 0: r = __shfl_sync(mask, v, p, w); break;
                case 1: r = __shfl_up_sync(mask, v, (unsigned)p, w); break;
                case 2: r = __shfl_down_sync(mask, v, (unsigned)p, w); break;
                default: r = __shfl_xor_sync(mask, v, p % w, w); break;
                }
                out[((m * kNW + wi) * kNP + p) * kThreads + t] = r;
            }
}

// Source thread of lane `t` by the CUDA definition, or -1 when the value is undefined
// (the source lane does not exist); `own` means the caller's own value.
static int expected_source(int m, int w, int p, int t) {
    const int lane = t % 32, warp_base = t / 32 * 32;
    const int seg = lane / w * w, pos = lane % w;
    int src;
    switch (m) {
    case 0: src = seg + p % w; break;
    case 1: src = pos >= p ? lane - p : lane; break;
    case 2: src = pos + p < w ? lane + p : lane; break;
    default: src = seg + (pos ^ (p % w)); break;
    }
    const int th = warp_base + src;
    return th < kThreads ? th : -1;
}

template <class T>
static void run(const char *tname, T (*make)(int)) {
    std::vector<T> h_in(kThreads);
    for (int t = 0; t < kThreads; ++t) h_in[t] = make(t);
    const size_t nout = size_t(kModes) * kNW * kNP * kThreads;
    T *d_in, *d_out;
    CUDA_OK(cudaMalloc(&d_in, kThreads * sizeof(T)));
    CUDA_OK(cudaMalloc(&d_out, nout * sizeof(T)));
    CUDA_OK(cudaMemcpy(d_in, h_in.data(), kThreads * sizeof(T), cudaMemcpyHostToDevice));
    p2c_sim_launch(shfl_kernel<T>, 1, kThreads, 0)(d_in, d_out);
    CUDA_OK(cudaGetLastError());
    std::vector<T> h_out(nout);
    CUDA_OK(cudaMemcpy(h_out.data(), d_out, nout * sizeof(T), cudaMemcpyDeviceToHost));
    static const char *modes[] = {"idx", "up", "down", "xor"};
    int checked = 0;
    for (int m = 0; m < kModes; ++m)
        for (int wi = 0; wi < kNW; ++wi)
            for (int p = 0; p < kNP; ++p)
                for (int t = 0; t < kThreads; ++t) {
                    const int src = expected_source(m, kWidths[wi], p, t);
                    if (src < 0) continue;
                    const T got = h_out[((m * kNW + wi) * kNP + p) * kThreads + t];
                    ++checked;
                    CHECK(std::memcmp(&got, &h_in[src], sizeof(T)) == 0,
                          "%s %s width %d param %d thread %d: expected value of thread %d",
                          tname, modes[m], kWidths[wi], p, t, src);
                }
    CHECK(checked > 20000, "%s: only %d values checked", tname, checked);
    cudaFree(d_in);
    cudaFree(d_out);
}

int main() {
    run<int>("int", [](int t) { return t * 7 - 100; });
    run<unsigned>("unsigned", [](int t) { return 0x80000000u + unsigned(t) * 3u; });
    run<long long>("long long", [](int t) { return (-1LL << 40) + t * 1000003LL; });
    run<unsigned long long>("unsigned long long",
                            [](int t) { return (0xABCDull << 44) | unsigned(t); });
    run<float>("float", [](int t) { return t * 0.25f - 3.0f; });
    run<double>("double", [](int t) { return 1e10 + t * 1.5; });
    return finish("shfl");
}
