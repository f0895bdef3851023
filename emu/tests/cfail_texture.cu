// Texture fetches are not emulated.
// EXPECT-COMPILE-ERROR: tex1Dfetch is not supported
#include <cuda_runtime.h>

__global__ void k(float *out, unsigned long long tex) { out[0] = tex1Dfetch(tex, 0); }

int main() { return 0; }
