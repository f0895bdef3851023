// A named barrier count that is not a multiple of the warp size is rejected.
// EXPECT-STDERR: must be a nonzero multiple of 32
#include <cuda_runtime.h>

__global__ void k() { p2c_sim_bar_sync(1, 48); }

int main() {
    p2c_sim_launch(k, 1, 64, 0)();
    return 0;
}
