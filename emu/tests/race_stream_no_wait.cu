// EXPECT-RACE
// A kernel on a stream writes; the host reads the result without waiting for the stream
// (#21). Streams run on workers of their own and start their work late (streams.h), so the
// host reads before the kernel writes, and ThreadSanitizer must report the race (the plain
// run only prints the stale value it read).
#include <cuda_runtime.h>
#include "check.h"

__global__ void put(int *a, int v) { a[threadIdx.x] = v; }

int main() {
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *d;
    CUDA_OK(cudaMallocManaged(&d, 32 * sizeof(int)));
    p2c_sim_launch(put, 1, 32, 0, s)(d, 7);
    std::printf("read %d without a wait\n", d[5]);
    // Nothing orders the read before the kernel's write: the host touches no stream until
    // the kernel has run.
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CUDA_OK(cudaStreamSynchronize(s));
    return 0;
}
