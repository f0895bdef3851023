// The calling lane must be in the mask.
// EXPECT-STDERR: is not in mask
#include <cuda_runtime.h>

__global__ void k(int *out) { out[threadIdx.x] = __shfl_sync(0x1u, (int)threadIdx.x, 0); }

int main() {
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    p2c_sim_launch(k, 1, 32, 0)(d);
    return 0;
}
