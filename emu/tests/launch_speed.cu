// An empty 400 x 256 launch (102400 OS-thread block-steps) must be fast; prints the time.
// The bound is loose (TSan builds are several times slower); the plain figure is reported
// in the README.
#include <cuda_runtime.h>
#include <chrono>
#include "check.h"

__global__ void empty() {}

int main() {
    p2c_sim_launch(empty, 1, 256, 0)();  // creates the pool threads
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        p2c_sim_launch(empty, 400, 256, 0)();
        auto t1 = std::chrono::steady_clock::now();
        double s = std::chrono::duration<double>(t1 - t0).count();
        if (s < best) best = s;
    }
    CUDA_OK(cudaGetLastError());
    std::printf("empty 400x256 launch: %.3f s (best of 3)\n", best);
    CHECK(best < 10.0, "launch took %.3f s", best);
    return finish("launch_speed");
}
