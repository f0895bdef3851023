// Two threads of one block write the same word with no barrier between them: a data race
// that ThreadSanitizer must report (with fibers too: they switch without synchronizing).
// The plain build runs and exits 0.
#include <cuda_runtime.h>

__global__ void racy(int *out) {
    if (threadIdx.x == 0) out[0] = 1;
    __syncwarp();  // orders only warp 0; warp 1 is not ordered with it
    if (threadIdx.x == 32) out[0] = 2;
}

int main() {
    int *d;
    cudaMalloc(&d, sizeof(int));
    p2c_sim_launch(racy, 1, 64, 0)(d);
    cudaDeviceSynchronize();
    return 0;
}
