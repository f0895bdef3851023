// A host array handed to a kernel: the emulator shares the host's address space, so
// without a check this would run and agree with the host; a GPU cannot read it.
// EXPECT-STDERR: argument 2 is the host address
#include <cuda_runtime.h>

__global__ void scale(int n, int *a) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] *= 2;
}

int main() {
    static int host[64];
    int *dev = nullptr;
    cudaMalloc(&dev, sizeof host);
    p2c_sim_launch(scale, 1, 64, 0)(64, dev);     // device memory: fine
    p2c_sim_launch(scale, 1, 64, 0)(0, nullptr);  // null: fine
    p2c_sim_launch(scale, 1, 64, 0)(0, dev + 64); // one past the end: fine (nothing read)
    p2c_sim_launch(scale, 1, 64, 0)(64, host);    // host memory: must stop here
    return 0;
}
