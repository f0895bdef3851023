// The synchronous copies and memsets are work on the legacy default stream (#21): they start
// after the work every blocking stream (cudaStreamDefault) queued before them, as on CUDA, with
// no explicit synchronisation. A kernel queued on a blocking stream, then cudaMemcpy of its
// result, reads the kernel's values; cudaMemset, cudaMemcpy2D and the symbol copies likewise.
// (Before, the copy ran at once and read the old values: the stream's work starts 20 ms late.)
#include <cuda_runtime.h>
#include "check.h"

__device__ int sym[4];

__global__ void fill(int *a, int n, int v) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] = v + i;
}
__global__ void fill_sym(int v) {
    if (threadIdx.x < 4) sym[threadIdx.x] = v + threadIdx.x;
}

int main() {
    const int n = 4096;
    cudaStream_t s;
    CUDA_OK(cudaStreamCreate(&s));
    int *a;
    CUDA_OK(cudaMalloc(&a, n * sizeof(int)));
    std::vector<int> h(n, -1);

    p2c_sim_launch(fill, 4, 64, 0, s)(a, n, 7);
    CUDA_OK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) CHECK(h[i] == 7 + i, "cudaMemcpy: h[%d] = %d", i, h[i]);

    // The memset follows the kernel: it is not overwritten by it.
    p2c_sim_launch(fill, 4, 64, 0, s)(a, n, 3);
    CUDA_OK(cudaMemset(a, 0, n * sizeof(int)));
    CUDA_OK(cudaStreamSynchronize(s));
    CUDA_OK(cudaMemcpy(h.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) CHECK(h[i] == 0, "cudaMemset: h[%d] = %d", i, h[i]);

    p2c_sim_launch(fill, 4, 64, 0, s)(a, n, 5);
    CUDA_OK(cudaMemcpy2D(h.data(), 8 * sizeof(int), a, 8 * sizeof(int), 8 * sizeof(int), n / 8,
                         cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) CHECK(h[i] == 5 + i, "cudaMemcpy2D: h[%d] = %d", i, h[i]);

    int hs[4] = {0, 0, 0, 0};
    p2c_sim_launch(fill_sym, 1, 32, 0, s)(9);
    CUDA_OK(cudaMemcpyFromSymbol(hs, sym, sizeof hs));
    for (int i = 0; i < 4; ++i) CHECK(hs[i] == 9 + i, "cudaMemcpyFromSymbol: sym[%d] = %d", i, hs[i]);

    CUDA_OK(cudaStreamDestroy(s));
    CUDA_OK(cudaFree(a));
    return finish("legacy_stream_copy");
}
