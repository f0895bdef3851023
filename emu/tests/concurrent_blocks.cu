// EMU-FLAGS: -DP2C_SIM_CONCURRENT_BLOCKS=3
// Concurrent blocks (P2C_SIM_CONCURRENT_BLOCKS=3): blocks overlap in time, each running
// block has its own __shared__ storage (block_shared, what `pragma2cuda verify` rewrites
// `__shared__` declarations into), a block spinning on a lower-numbered block terminates
// with more blocks than slots (blocks start in increasing order), and a last-block
// reduction over atomics is exact.
#include <cuda_runtime.h>
#include "check.h"

__device__ unsigned g_count = 0;

// Block 0 waits (bounded) until block 1 has started: only possible when blocks overlap.
__global__ void overlap(int *saw) {
    int *flag = saw + 1;
    if (threadIdx.x == 0) {
        if (blockIdx.x == 1) atomicExch(flag, 1);
        if (blockIdx.x == 0) {
            // At most about 20 s: with blocks one after another block 1 never starts.
            for (long spin = 0; spin < 200000L && atomicAdd(flag, 0) == 0; ++spin)
                __nanosleep(100000);
            saw[0] = atomicAdd(flag, 0);
        }
    }
}

// Each block keeps its own number in shared memory across a barrier and a pause in which
// other blocks run.
__global__ void private_shared(int *bad) {
    auto &mine = *p2c_sim::block_shared<int, 4, 1>();
    if (threadIdx.x == 0) mine = static_cast<int>(blockIdx.x);
    __syncthreads();
    for (int k = 0; k < 200; ++k) __nanosleep(1000);
    if (mine != static_cast<int>(blockIdx.x)) atomicAdd(bad, 1);
    __syncthreads();
}

// Block b waits for block b-1 to finish its part: a chain through all 40 blocks, more
// than the 3 slots.
__global__ void chain(int *done, int *order_bad) {
    if (threadIdx.x == 0) {
        const unsigned b = blockIdx.x;
        if (b > 0)
            while (atomicAdd(&done[b - 1], 0) == 0) __nanosleep(100);
        if (b > 0 && atomicAdd(&done[b - 1], 0) != 1) atomicAdd(order_bad, 1);
        atomicExch(&done[b], 1);
    }
}

__global__ void last_block_sum(const int *in, int *partial, int *result) {
    auto &is_last = *p2c_sim::block_shared<int, 4, 2>();
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        __threadfence();
        is_last = atomicInc(&g_count, gridDim.x) == gridDim.x - 1;
    }
    __syncthreads();
    if (is_last && threadIdx.x == 0) {
        int s = 0;
        for (unsigned i = 0; i < gridDim.x; ++i) s += atomicAdd(&partial[i], 0);
        *result = s;
    }
}

int main() {
    int *d;
    CUDA_OK(cudaMalloc(&d, 4 * sizeof(int)));
    CUDA_OK(cudaMemset(d, 0, 4 * sizeof(int)));
    p2c_sim_launch(overlap, 2, 32, 0)(d);
    int saw = 0;
    CUDA_OK(cudaMemcpy(&saw, d, sizeof saw, cudaMemcpyDeviceToHost));
    CHECK(saw == 1, "block 0 never saw block 1 running: blocks did not overlap");

    CUDA_OK(cudaMemset(d, 0, sizeof(int)));
    p2c_sim_launch(private_shared, 9, 64, 0)(d);
    int bad = -1;
    CUDA_OK(cudaMemcpy(&bad, d, sizeof bad, cudaMemcpyDeviceToHost));
    CHECK(bad == 0, "%d threads saw another block's shared value", bad);

    const int n = 40;
    int *done;
    CUDA_OK(cudaMalloc(&done, (n + 1) * sizeof(int)));
    CUDA_OK(cudaMemset(done, 0, (n + 1) * sizeof(int)));
    p2c_sim_launch(chain, n, 32, 0)(done, done + n);
    int h[n + 1];
    CUDA_OK(cudaMemcpy(h, done, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) CHECK(h[i] == 1, "block %d of the chain did not finish", i);
    CHECK(h[n] == 0, "chain order broken %d times", h[n]);

    const int blocks = 25;
    int hin[blocks], expect = 0;
    for (int i = 0; i < blocks; ++i) expect += hin[i] = i * 7 + 1;
    int *in, *part, *res;
    CUDA_OK(cudaMalloc(&in, sizeof hin));
    CUDA_OK(cudaMalloc(&part, sizeof hin));
    CUDA_OK(cudaMalloc(&res, sizeof(int)));
    CUDA_OK(cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice));
    p2c_sim_launch(last_block_sum, blocks, 64, 0)(in, part, res);
    int got = 0;
    CUDA_OK(cudaMemcpy(&got, res, sizeof got, cudaMemcpyDeviceToHost));
    CHECK(got == expect, "last-block sum %d, expected %d", got, expect);
    return finish("concurrent_blocks");
}
