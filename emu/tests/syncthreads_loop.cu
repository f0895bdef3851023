// __syncthreads in a loop with a 2-D block (16x16) and a 2-D grid: rotating reads of a
// shared tile, then a shared-memory tree reduction per block.
#include <cuda_runtime.h>
#include <vector>
#include "check.h"

constexpr int kIters = 60;

__global__ void rotate_reduce(long long *out_rot, long long *out_sum) {
    __shared__ long long tile[256];
    __shared__ long long red[256];
    const int tid = threadIdx.x + threadIdx.y * blockDim.x;
    const int blk = blockIdx.x + blockIdx.y * gridDim.x;
    long long acc = 0;
    for (int it = 0; it < kIters; ++it) {
        tile[tid] = (long long)it * 100000 + blk * 1000 + tid;
        __syncthreads();
        acc += tile[(tid + it) % 256];
        __syncthreads();
    }
    out_rot[blk * 256 + tid] = acc;
    red[tid] = acc;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (tid < s) red[tid] += red[tid + s];
        __syncthreads();
    }
    if (tid == 0) out_sum[blk] = red[0];
}

int main() {
    const dim3 grid(3, 2), block(16, 16);
    const int nblk = 6;
    long long *d_rot, *d_sum;
    CUDA_OK(cudaMalloc(&d_rot, nblk * 256 * sizeof(long long)));
    CUDA_OK(cudaMalloc(&d_sum, nblk * sizeof(long long)));
    p2c_sim_launch(rotate_reduce, grid, block, 0)(d_rot, d_sum);
    CUDA_OK(cudaGetLastError());
    std::vector<long long> rot(nblk * 256), sum(nblk);
    CUDA_OK(cudaMemcpy(rot.data(), d_rot, rot.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(sum.data(), d_sum, sum.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    for (int b = 0; b < nblk; ++b) {
        long long total = 0;
        for (int t = 0; t < 256; ++t) {
            long long e = 0;
            for (int it = 0; it < kIters; ++it) e += (long long)it * 100000 + b * 1000 + (t + it) % 256;
            CHECK(rot[b * 256 + t] == e, "block %d thread %d: %lld vs %lld", b, t, rot[b * 256 + t], e);
            total += e;
        }
        CHECK(sum[b] == total, "block %d sum %lld vs %lld", b, sum[b], total);
    }
    return finish("syncthreads_loop");
}
