// Threads that return before a __syncthreads the others reach: undefined in CUDA, reported.
// EXPECT-STDERR: __syncthreads
#include <cuda_runtime.h>

__global__ void k(int n) {
    if ((int)threadIdx.x >= n) return;
    __syncthreads();
}

int main() {
    p2c_sim_launch(k, 1, 64, 0)(40);
    return 0;
}
