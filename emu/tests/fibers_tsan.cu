// ThreadSanitizer with fibers (-DP2C_SIM_FIBERS=1 also under -fsanitize=thread): the
// emulator's own barriers, warp collectives and a spin lock order the threads of a block
// as CUDA does, so TSan must stay silent, and the results must be right.
// EMU-FLAGS: -DP2C_SIM_FIBERS=1
#include <cuda_runtime.h>
#include "check.h"

__device__ unsigned lock_word;

__global__ void ordered(int *out, int *sum) {
    __shared__ int buf[128];
    const unsigned t = threadIdx.x;
    buf[t] = static_cast<int>(t);
    __syncthreads();
    int v = buf[(t + 1) % 128];        // another thread's write, after the barrier
    v = __shfl_xor_sync(0xffffffffu, v, 1);
    p2c_sim_bar_sync(1, 128);
    buf[t] = v;
    __syncthreads();
    out[t] = buf[127 - t];
    while (atomicCAS(&lock_word, 0u, 1u) != 0u) __nanosleep(10);  // a critical section
    __threadfence();
    *sum += static_cast<int>(t);      // plain accesses, ordered by the lock
    __threadfence();
    atomicExch(&lock_word, 0u);
}

int main() {
    int *out, *sum;
    CUDA_OK(cudaMalloc(&out, 128 * sizeof(int)));
    CUDA_OK(cudaMalloc(&sum, sizeof(int)));
    CUDA_OK(cudaMemset(sum, 0, sizeof(int)));
    p2c_sim_launch(ordered, 1, 128, 0)(out, sum);
    int h[128], s = 0;
    CUDA_OK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(&s, sum, sizeof s, cudaMemcpyDeviceToHost));
    for (int t = 0; t < 128; ++t) {
        int u = 127 - t;  // out[t] = buf[u] = v of thread u: buf[(partner(u) + 1) % 128]
        int expect = ((u ^ 1) + 1) % 128;
        CHECK(h[t] == expect, "out[%d] = %d, expected %d", t, h[t], expect);
    }
    CHECK(s == 127 * 128 / 2, "sum %d", s);
    return finish("fibers_tsan");
}
