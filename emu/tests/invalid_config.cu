// Invalid launch configurations are not run and set cudaErrorInvalidConfiguration, which
// cudaPeekAtLastError keeps and cudaGetLastError returns once and clears.
#include <cuda_runtime.h>
#include "check.h"

__global__ void mark(int *flag) { atomicAdd(flag, 1); }

int main() {
    int *flag;
    CUDA_OK(cudaMalloc(&flag, sizeof(int)));
    CUDA_OK(cudaMemset(flag, 0, sizeof(int)));
    struct Cfg { dim3 g, b; size_t shmem; const char *what; };
    const Cfg bad[] = {
        {dim3(1), dim3(1025), 0, "1025 threads"},
        {dim3(1), dim3(32, 33), 0, "32x33 threads"},
        {dim3(1), dim3(1, 1, 65), 0, "blockDim.z 65"},
        {dim3(1), dim3(0), 0, "blockDim.x 0"},
        {dim3(0), dim3(32), 0, "gridDim.x 0"},
        {dim3(2, 0), dim3(32), 0, "gridDim.y 0"},
        {dim3(1), dim3(32), 48 * 1024 + 1, "shmem 48 KiB + 1"},
    };
    for (const Cfg &c : bad) {
        p2c_sim_launch(mark, c.g, c.b, c.shmem)(flag);
        CHECK(cudaPeekAtLastError() == cudaErrorInvalidConfiguration, "%s: peek", c.what);
        CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "%s: get", c.what);
        CHECK(cudaGetLastError() == cudaSuccess, "%s: error not cleared", c.what);
    }
    p2c_sim_launch(mark, -1, 32, 0)(flag);  // negative int grid converts to a huge value
    CHECK(cudaGetLastError() == cudaErrorInvalidConfiguration, "negative grid");
    int ran = -1;
    CUDA_OK(cudaMemcpy(&ran, flag, sizeof ran, cudaMemcpyDeviceToHost));
    CHECK(ran == 0, "an invalid launch ran %d threads", ran);
    CHECK(std::string(cudaGetErrorName(cudaErrorInvalidConfiguration)) == "cudaErrorInvalidConfiguration", "name");
    CHECK(cudaErrorInvalidConfiguration == 9 && cudaErrorInvalidValue == 1 && cudaSuccess == 0, "values");

    // The limits themselves are valid.
    p2c_sim_launch(mark, dim3(2, 1, 1), dim3(8, 8, 16), 48 * 1024)(flag);
    CHECK(cudaGetLastError() == cudaSuccess, "1024 threads / 48 KiB rejected");
    CUDA_OK(cudaMemcpy(&ran, flag, sizeof ran, cudaMemcpyDeviceToHost));
    CHECK(ran == 2048, "valid launch ran %d threads, expected 2048", ran);
    return finish("invalid_config");
}
