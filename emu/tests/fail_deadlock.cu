// Lane 0 waits in a full-warp shuffle while the other lanes wait at __syncthreads: a
// deadlock, which the emulator must report (primitive, block, thread) and abort.
// EXPECT-STDERR: deadlock
#include <cuda_runtime.h>

__global__ void stuck(int *out) {
    if (threadIdx.x == 0)
        out[0] = __shfl_sync(0xffffffffu, 1, 0);
    else
        __syncthreads();
}

int main() {
    int *d;
    cudaMalloc(&d, sizeof(int));
    p2c_sim_launch(stuck, 1, 32, 0)(d);
    return 0;
}
