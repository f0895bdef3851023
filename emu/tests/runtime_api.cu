// Runtime API: cudaMemcpy2D (H2D, D2D, D2H with pitches), memset, memcpy kinds incl.
// Default and range checking, __constant__ + cudaMemcpyToSymbol, device properties,
// streams, events, 3-D index built-ins, device printf.
#include <cuda_runtime.h>
#include <cstring>
#include <string>
#include <vector>
#include "check.h"

__constant__ int c_table[8];
__device__ int d_scale = 3;

__global__ void use_constant(int *out) {
    out[threadIdx.x] = c_table[threadIdx.x] * d_scale;
}

__global__ void indices(uint3 *tid, uint3 *bid, dim3 *bdim, dim3 *gdim) {
    const unsigned b = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
    const unsigned t = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
    const unsigned g = b * (blockDim.x * blockDim.y * blockDim.z) + t;
    tid[g] = threadIdx;
    bid[g] = blockIdx;
    bdim[g] = blockDim;
    gdim[g] = gridDim;
}

__global__ void where(int *out) { out[threadIdx.x] = p2c_sim_on_device() ? 1 : 0; }

__global__ void hello(int v) {
    if (threadIdx.x == 0) printf("device printf %d\n", v);
}

int main() {
    // cudaMemcpy2D: host 7 rows x 10 bytes (pitch 13) -> device pitch 16 -> device pitch 12 -> host pitch 10.
    const size_t w = 10, h = 7, hp = 13, dp1 = 16, dp2 = 12;
    std::vector<unsigned char> src(hp * h), dst(w * h, 0);
    for (size_t i = 0; i < src.size(); ++i) src[i] = (unsigned char)(i * 7 + 1);
    unsigned char *d1, *d2;
    CUDA_OK(cudaMalloc(&d1, dp1 * h));
    CUDA_OK(cudaMalloc(&d2, dp2 * h));
    CUDA_OK(cudaMemset(d1, 0xEE, dp1 * h));
    CUDA_OK(cudaMemcpy2D(d1, dp1, src.data(), hp, w, h, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy2D(d2, dp2, d1, dp1, w, h, cudaMemcpyDeviceToDevice));
    CUDA_OK(cudaMemcpy2D(dst.data(), w, d2, dp2, w, h, cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < h; ++r)
        for (size_t c = 0; c < w; ++c)
            CHECK(dst[r * w + c] == src[r * hp + c], "2D copy row %zu col %zu", r, c);
    std::vector<unsigned char> pad(dp1 * h);
    CUDA_OK(cudaMemcpy(pad.data(), d1, dp1 * h, cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < h; ++r)
        for (size_t c = w; c < dp1; ++c)
            CHECK(pad[r * dp1 + c] == 0xEE, "2D copy wrote padding row %zu col %zu", r, c);
    CHECK(cudaMemcpy2D(d1, 8, src.data(), hp, w, h, cudaMemcpyHostToDevice) == cudaErrorInvalidPitchValue,
          "width > pitch accepted");
    CHECK(cudaGetLastError() == cudaErrorInvalidPitchValue, "pitch error not recorded");

    // memcpy kinds and range checks.
    int *di;
    CUDA_OK(cudaMalloc(&di, 16 * sizeof(int)));
    int hi[16], ho[16];
    for (int i = 0; i < 16; ++i) hi[i] = i * i;
    CUDA_OK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyDefault));
    CUDA_OK(cudaMemcpyAsync(ho, di, sizeof ho, cudaMemcpyDeviceToHost, 0));
    CHECK(std::memcmp(hi, ho, sizeof hi) == 0, "memcpy round trip");
    CHECK(cudaMemcpy(di, hi, 17 * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
          "copy past the end of an allocation accepted");
    CHECK(cudaMemcpy(ho, hi, sizeof hi, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue,
          "host pointer accepted as device source");
    CHECK(cudaFree(hi) == cudaErrorInvalidValue, "cudaFree of a host pointer accepted");
    cudaGetLastError();
    CUDA_OK(cudaMemset(di, 0, 16 * sizeof(int)));
    CUDA_OK(cudaMemcpy(ho, di, sizeof ho, cudaMemcpyDeviceToHost));
    CHECK(ho[0] == 0 && ho[15] == 0, "memset");

    // __constant__ / __device__ symbols.
    const int table[8] = {1, 2, 3, 5, 8, 13, 21, 34};
    CUDA_OK(cudaMemcpyToSymbol(c_table, table, sizeof table));
    int four = 4;
    CUDA_OK(cudaMemcpyToSymbol(d_scale, &four, sizeof four));
    p2c_sim_launch(use_constant, 1, 8, 0)(di);
    CUDA_OK(cudaMemcpy(ho, di, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; ++i) CHECK(ho[i] == table[i] * 4, "constant %d", i);
    CHECK(cudaMemcpyToSymbol(c_table, table, sizeof table + 4) == cudaErrorInvalidValue,
          "symbol overflow accepted");
    cudaGetLastError();
    // A symbol's address is device memory: plain copies to and from it work, in its bounds.
    int *scale_addr = nullptr;
    CUDA_OK(cudaGetSymbolAddress((void **)&scale_addr, d_scale));
    int five = 5, back = 0;
    CUDA_OK(cudaMemcpy(scale_addr, &five, sizeof five, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(&back, scale_addr, sizeof back, cudaMemcpyDeviceToHost));
    CHECK(back == 5 && d_scale == 5, "copy through a symbol address: %d", back);
    CHECK(cudaMemcpy(scale_addr, table, 2 * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
          "copy past the end of a symbol accepted");
    CHECK(cudaFree(scale_addr) == cudaErrorInvalidValue, "cudaFree of a symbol accepted");
    cudaGetLastError();
    CUDA_OK(cudaMemcpy(scale_addr, &four, sizeof four, cudaMemcpyHostToDevice));

    // Built-in index variables in 3-D.
    const dim3 grid(2, 3, 2), block(4, 2, 3);
    const int nthr = 12 * 24;
    uint3 *tid, *bid;
    dim3 *bd, *gd;
    CUDA_OK(cudaMalloc(&tid, nthr * sizeof(uint3)));
    CUDA_OK(cudaMalloc(&bid, nthr * sizeof(uint3)));
    CUDA_OK(cudaMalloc(&bd, nthr * sizeof(dim3)));
    CUDA_OK(cudaMalloc(&gd, nthr * sizeof(dim3)));
    p2c_sim_launch(indices, grid, block, 0)(tid, bid, bd, gd);
    CUDA_OK(cudaGetLastError());
    std::vector<uint3> htid(nthr), hbid(nthr);
    std::vector<dim3> hbd(nthr), hgd(nthr);
    CUDA_OK(cudaMemcpy(htid.data(), tid, nthr * sizeof(uint3), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hbid.data(), bid, nthr * sizeof(uint3), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hbd.data(), bd, nthr * sizeof(dim3), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(hgd.data(), gd, nthr * sizeof(dim3), cudaMemcpyDeviceToHost));
    int g = 0;
    for (unsigned bz = 0; bz < 2; ++bz) for (unsigned by = 0; by < 3; ++by) for (unsigned bx = 0; bx < 2; ++bx)
    for (unsigned tz = 0; tz < 3; ++tz) for (unsigned ty = 0; ty < 2; ++ty) for (unsigned tx = 0; tx < 4; ++tx, ++g) {
        CHECK(htid[g].x == tx && htid[g].y == ty && htid[g].z == tz, "threadIdx at %d", g);
        CHECK(hbid[g].x == bx && hbid[g].y == by && hbid[g].z == bz, "blockIdx at %d", g);
        CHECK(hbd[g].x == 4 && hbd[g].y == 2 && hbd[g].z == 3, "blockDim at %d", g);
        CHECK(hgd[g].x == 2 && hgd[g].y == 3 && hgd[g].z == 2, "gridDim at %d", g);
    }

    // Device queries.
    int count = 0, dev = -1;
    CUDA_OK(cudaGetDeviceCount(&count));
    CHECK(count == 1, "device count %d", count);
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaGetDevice(&dev));
    CHECK(dev == 0, "device %d", dev);
    CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice, "cudaSetDevice(1) accepted");
    cudaGetLastError();
    cudaDeviceProp prop;
    CUDA_OK(cudaGetDeviceProperties(&prop, 0));
    CHECK(std::string(prop.name) == "pragma2cuda SIMT emulator", "name %s", prop.name);
    CHECK(prop.maxThreadsPerBlock == 1024 && prop.warpSize == 32 && prop.sharedMemPerBlock == 48 * 1024 &&
          prop.multiProcessorCount >= 1, "properties");
    CHECK(warpSize == 32, "warpSize");

    // Streams and events.
    cudaStream_t s;
    cudaEvent_t e0, e1;
    CUDA_OK(cudaStreamCreate(&s));
    CUDA_OK(cudaEventCreate(&e0));
    CUDA_OK(cudaEventCreate(&e1));
    CUDA_OK(cudaEventRecord(e0, s));
    p2c_sim_launch(use_constant, 1, 8, 0, s)(di);
    CUDA_OK(cudaMemsetAsync(di, 0, sizeof(int), s));
    CUDA_OK(cudaEventRecord(e1, s));
    CUDA_OK(cudaEventSynchronize(e1));
    CUDA_OK(cudaStreamSynchronize(s));
    float ms = -1;
    CUDA_OK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(ms >= 0.0f, "elapsed %f", ms);
    CUDA_OK(cudaMemcpy(ho, di, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(ho[0] == 0 && ho[1] == table[1] * 4, "stream order");
    CUDA_OK(cudaEventDestroy(e0));
    CUDA_OK(cudaEventDestroy(e1));
    CUDA_OK(cudaStreamDestroy(s));

    // Where code runs: kernel threads see p2c_sim_on_device(), the host does not.
    CHECK(!p2c_sim_on_device(), "host code reported as device code");
    CUDA_OK(cudaMemset(di, 0, 8 * sizeof(int)));
    p2c_sim_launch(where, 1, 8, 0)(di);
    CUDA_OK(cudaMemcpy(ho, di, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 8; ++i) CHECK(ho[i] == 1, "kernel thread %d not on the device", i);

    hello(0);  // device code called on the host is plain C++
    p2c_sim_launch(hello, 1, 32, 0)(42);
    CUDA_OK(cudaDeviceSynchronize());
    CHECK(std::string(cudaGetErrorString(cudaSuccess)) == "no error", "error string");

    // cudaMemGetInfo: an allocation shows in the free memory, its release gives it back.
    size_t free0 = 0, free1 = 0, free2 = 0, total = 0;
    CUDA_OK(cudaMemGetInfo(&free0, &total));
    void *big = nullptr;
    CUDA_OK(cudaMalloc(&big, 100000));
    CUDA_OK(cudaMemGetInfo(&free1, nullptr));
    CUDA_OK(cudaFree(big));
    CUDA_OK(cudaMemGetInfo(&free2, nullptr));
    CHECK(total == (size_t(16) << 30) && free0 <= total, "cudaMemGetInfo total");
    int rt = 0, drv = 0;
    CUDA_OK(cudaRuntimeGetVersion(&rt));
    CUDA_OK(cudaDriverGetVersion(&drv));
    CHECK(rt == 12000 && drv == 12000, "CUDA versions %d %d", rt, drv);
    CHECK(free1 + 100000 <= free0 && free2 == free0, "cudaMemGetInfo free %zu %zu %zu", free0, free1, free2);
    CUDA_OK(cudaFree(d1));
    CUDA_OK(cudaFree(d2));
    CUDA_OK(cudaFree(di));
    return finish("runtime_api");
}
