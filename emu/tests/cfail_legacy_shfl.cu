// Maskless pre-Volta shuffles are not provided; using one is a compile error naming it.
// EXPECT-COMPILE-ERROR: __shfl_down is not supported
#include <cuda_runtime.h>

__global__ void k(int *out) { out[threadIdx.x] = __shfl_down(out[threadIdx.x], 1); }

int main() { return 0; }
