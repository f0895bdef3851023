// EMU-FLAGS: -DP2C_SIM_CONCURRENT_BLOCKS=2
// EXPECT-RACE
// Thread 0 of every block adds to one global without an atomic: a race between blocks
// (gangs / teams) that a GPU shows as a lost update. With concurrent blocks ThreadSanitizer
// must report it; with blocks run one after another (the default) it cannot see it.
#include <cuda_runtime.h>
#include "check.h"

__global__ void racy(int *sum) {
    if (threadIdx.x == 0) *sum += 1;
}

int main() {
    int *d;
    CUDA_OK(cudaMalloc(&d, sizeof(int)));
    CUDA_OK(cudaMemset(d, 0, sizeof(int)));
    p2c_sim_launch(racy, 8, 32, 0)(d);
    int h = 0;
    CUDA_OK(cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("sum %d\n", h);
    return 0;
}
