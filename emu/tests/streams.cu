// Streams run asynchronously (#21): each stream's work runs in order on a worker of its own;
// events, cudaStreamWaitEvent, cudaStreamSynchronize, cudaStreamQuery and host functions
// order it. A stream held back by an event waiting on a host function shows that the host
// goes on before the stream's work is done (cudaStreamQuery says not ready), and the
// results checked after the waits show that the waits order the work.
#include <cuda_runtime.h>
#include <atomic>
#include "check.h"

__global__ void fill(int *a, int n, int v) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a[i] = v + i;
}
__global__ void add(int *dst, const int *a, const int *b, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        dst[i] = a[i] + b[i];
}

static std::atomic<int> gate{0};
static void CUDART_CB hold(void *) {
    while (!gate.load()) std::this_thread::yield();
}
static void CUDART_CB mark(void *p) { *static_cast<int *>(p) = 1; }

int main() {
    const int n = 4096;
    cudaStream_t s1, s2;
    CUDA_OK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CUDA_OK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t e;
    CUDA_OK(cudaEventCreate(&e));
    int *a, *b, *c;
    CUDA_OK(cudaMalloc(&a, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&b, n * sizeof(int)));
    CUDA_OK(cudaMalloc(&c, n * sizeof(int)));
    std::vector<int> h(n, -1);
    int marked = 0;

    // s1 is held by a host function until the host opens the gate.
    CUDA_OK(cudaLaunchHostFunc(s1, hold, nullptr));
    p2c_sim_launch(fill, 4, 64, 0, s1)(a, n, 10);
    CUDA_OK(cudaEventRecord(e, s1));
    p2c_sim_launch(fill, 4, 64, 0, s2)(b, n, 100);
    CUDA_OK(cudaStreamWaitEvent(s2, e, 0));
    p2c_sim_launch(add, 4, 64, 0, s2)(c, a, b, n);
    CUDA_OK(cudaMemcpyAsync(h.data(), c, n * sizeof(int), cudaMemcpyDeviceToHost, s2));
    CUDA_OK(cudaLaunchHostFunc(s2, mark, &marked));
    CHECK(cudaStreamQuery(s1) == cudaErrorNotReady, "s1 finished while held");
    CHECK(cudaStreamQuery(s2) == cudaErrorNotReady, "s2 did not wait for the event");
    CHECK(cudaEventQuery(e) == cudaErrorNotReady, "event reached while s1 is held");
    gate.store(1);
    CUDA_OK(cudaStreamSynchronize(s2));
    CHECK(marked == 1, "host function of s2 not run before the synchronize returned");
    CHECK(cudaStreamQuery(s1) == cudaSuccess && cudaEventQuery(e) == cudaSuccess, "s1 not done");
    for (int i = 0; i < n; ++i) CHECK(h[i] == 110 + 2 * i, "c[%d] = %d", i, h[i]);

    // Stream-ordered free and device-wide synchronisation.
    p2c_sim_launch(fill, 2, 32, 0, s1)(a, n, 1);
    CUDA_OK(cudaFreeAsync(a, s1));
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(cudaStreamQuery(s1) == cudaSuccess, "s1 busy after cudaDeviceSynchronize");
    CUDA_OK(cudaStreamDestroy(s1));
    CUDA_OK(cudaStreamDestroy(s2));
    CUDA_OK(cudaEventDestroy(e));
    CUDA_OK(cudaFree(b));
    CUDA_OK(cudaFree(c));
    return finish("streams");
}
