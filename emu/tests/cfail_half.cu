// Half precision is not emulated: including cuda_fp16.h is a compile error naming it.
// EXPECT-COMPILE-ERROR: cuda_fp16.h> is not supported
#include <cuda_runtime.h>
#include <cuda_fp16.h>

int main() { return 0; }
