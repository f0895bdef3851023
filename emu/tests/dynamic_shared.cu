// Dynamic shared memory: per-block buffer of the launch's size, 16-byte aligned, shared by
// the threads of a block (reversal through it), also at the 48 KiB maximum.
#include <cuda_runtime.h>
#include <cstdint>
#include <vector>
#include "check.h"

__global__ void reverse(const int *in, int *out, int *misaligned) {
    int *s = reinterpret_cast<int *>(p2c_sim_dynamic_shared());
    if (reinterpret_cast<uintptr_t>(s) % 16 != 0) atomicAdd(misaligned, 1);
    const int t = threadIdx.x, n = blockDim.x, base = blockIdx.x * n;
    s[t] = in[base + t];
    __syncthreads();
    out[base + t] = s[n - 1 - t];
}

__global__ void fill_big(int *out) {
    // 48 KiB = 12288 ints, 256 threads x 48 each.
    int *s = reinterpret_cast<int *>(p2c_sim_dynamic_shared());
    for (int i = threadIdx.x; i < 12288; i += blockDim.x) s[i] = i * 3 + blockIdx.x;
    __syncthreads();
    long long sum = 0;
    for (int i = 0; i < 12288; ++i) sum += s[i];
    if (threadIdx.x == 0) out[blockIdx.x] = int(sum % 1000003);
}

int main() {
    const int nb = 5, nt = 100, n = nb * nt;
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = i * 31 + 7;
    int *d_in, *d_out, *d_mis, *d_big;
    CUDA_OK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_mis, sizeof(int)));
    CUDA_OK(cudaMalloc(&d_big, 3 * sizeof(int)));
    CUDA_OK(cudaMemset(d_mis, 0, sizeof(int)));
    CUDA_OK(cudaMemcpy(d_in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    p2c_sim_launch(reverse, nb, nt, nt * sizeof(int))(d_in, d_out, d_mis);
    CUDA_OK(cudaGetLastError());
    std::vector<int> o(n);
    int mis = -1;
    CUDA_OK(cudaMemcpy(o.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(&mis, d_mis, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(mis == 0, "%d threads saw a misaligned buffer", mis);
    for (int b = 0; b < nb; ++b)
        for (int t = 0; t < nt; ++t)
            CHECK(o[b * nt + t] == h[b * nt + nt - 1 - t], "block %d thread %d", b, t);

    p2c_sim_launch(fill_big, 3, 256, 48 * 1024)(d_big);
    CUDA_OK(cudaGetLastError());
    int big[3];
    CUDA_OK(cudaMemcpy(big, d_big, sizeof big, cudaMemcpyDeviceToHost));
    for (int b = 0; b < 3; ++b) {
        long long sum = 0;
        for (int i = 0; i < 12288; ++i) sum += i * 3 + b;
        CHECK(big[b] == int(sum % 1000003), "48 KiB block %d: %d", b, big[b]);
    }
    return finish("dynamic_shared");
}
