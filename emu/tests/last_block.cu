// Cross-block reduction in one launch: each block writes its partial sum, __threadfence,
// then atomicInc on a counter; the block that sees gridDim.x-1 is last and sums the
// partials (the CUDA "threadFenceReduction" pattern). atomicInc wraps the counter to 0.
#include <cuda_runtime.h>
#include <vector>
#include "check.h"

__device__ unsigned int g_count = 0;

__global__ void sum_kernel(const float *in, int n, float *partial, float *result, int *last_block) {
    __shared__ float red[128];
    __shared__ bool am_last;
    const int t = threadIdx.x;
    float v = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) v += in[i];
    red[t] = v;
    __syncthreads();
    for (int s = 64; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        __syncthreads();
    }
    if (t == 0) {
        partial[blockIdx.x] = red[0];
        __threadfence();
        unsigned ticket = atomicInc(&g_count, gridDim.x);
        am_last = (ticket == gridDim.x - 1);
    }
    __syncthreads();
    if (am_last) {
        float s = 0;
        for (int i = t; i < (int)gridDim.x; i += blockDim.x) s += partial[i];
        red[t] = s;
        __syncthreads();
        for (int k = 64; k > 0; k >>= 1) {
            if (t < k) red[t] += red[t + k];
            __syncthreads();
        }
        if (t == 0) {
            *result = red[0];
            *last_block = blockIdx.x;
            g_count = 0;
        }
    }
}

int main() {
    const int n = 100000, blocks = 37;
    std::vector<float> h(n);
    for (int i = 0; i < n; ++i) h[i] = float(i % 17);  // small integers: exact in float
    float *d_in, *d_part, *d_res;
    int *d_last;
    CUDA_OK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_OK(cudaMalloc(&d_part, blocks * sizeof(float)));
    CUDA_OK(cudaMalloc(&d_res, sizeof(float)));
    CUDA_OK(cudaMalloc(&d_last, sizeof(int)));
    CUDA_OK(cudaMemcpy(d_in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    double expect = 0;
    for (int i = 0; i < n; ++i) expect += i % 17;
    for (int rep = 0; rep < 2; ++rep) {
        p2c_sim_launch(sum_kernel, blocks, 128, 0)(d_in, n, d_part, d_res, d_last);
        CUDA_OK(cudaGetLastError());
        float res = 0;
        int last = -1;
        CUDA_OK(cudaMemcpy(&res, d_res, sizeof res, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(&last, d_last, sizeof last, cudaMemcpyDeviceToHost));
        CHECK(double(res) == expect, "rep %d: sum %f vs %f", rep, res, expect);
        CHECK(last >= 0 && last < blocks, "last block %d", last);
        unsigned cnt = 99;
        CUDA_OK(cudaMemcpyFromSymbol(&cnt, g_count, sizeof cnt));
        CHECK(cnt == 0, "counter not reset: %u", cnt);
    }
    return finish("last_block");
}
