// Device-side assert works (aborts the program with the assertion text).
// EXPECT-STDERR: threadIdx.x != 17
#include <cuda_runtime.h>
#include <cassert>

__global__ void k() { assert(threadIdx.x != 17); }

int main() {
    p2c_sim_launch(k, 1, 32, 0)();
    return 0;
}
