// __syncwarp orders shared-memory exchanges inside a warp (full mask, and two half-warps
// with their own masks running independently), __match_any_sync, __reduce_add_sync.
#include <cuda_runtime.h>
#include <vector>
#include "check.h"

constexpr int kRounds = 30;

__global__ void exchange(int *out, unsigned *match, int *sum) {
    __shared__ int s[64];
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    int acc = 0;
    for (int r = 0; r < kRounds; ++r) {
        s[t] = r * 100 + t;
        __syncwarp();
        acc += s[warp * 32 + (lane + r) % 32];
        __syncwarp();
    }
    // Half warps, each with its own mask and its own number of rounds.
    const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    const int rounds = lane < 16 ? 7 : 13;
    for (int r = 0; r < rounds; ++r) {
        s[t] = r + t;
        __syncwarp(half);
        acc += s[warp * 32 + (lane / 16) * 16 + (lane + 1) % 16];
        __syncwarp(half);
    }
    out[t] = acc;
    match[t] = __match_any_sync(0xffffffffu, lane % 3);
    sum[t] = __reduce_add_sync(0xffffffffu, lane + 1);
}

int main() {
    int *d_out, *d_sum;
    unsigned *d_match;
    CUDA_OK(cudaMalloc(&d_out, 64 * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_sum, 64 * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_match, 64 * sizeof(unsigned)));
    p2c_sim_launch(exchange, 2, 64, 0)(d_out, d_match, d_sum);
    CUDA_OK(cudaGetLastError());
    std::vector<int> out(64), sum(64);
    std::vector<unsigned> match(64);
    CUDA_OK(cudaMemcpy(out.data(), d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(sum.data(), d_sum, 64 * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(match.data(), d_match, 64 * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int t = 0; t < 64; ++t) {
        const int lane = t % 32, warp = t / 32;
        int e = 0;
        for (int r = 0; r < kRounds; ++r) e += r * 100 + warp * 32 + (lane + r) % 32;
        const int rounds = lane < 16 ? 7 : 13;
        for (int r = 0; r < rounds; ++r) e += r + warp * 32 + (lane / 16) * 16 + (lane + 1) % 16;
        CHECK(out[t] == e, "thread %d: %d vs %d", t, out[t], e);
        unsigned em = 0;
        for (int l = 0; l < 32; ++l) if (l % 3 == lane % 3) em |= 1u << l;
        CHECK(match[t] == em, "match_any thread %d: %08x vs %08x", t, match[t], em);
        CHECK(sum[t] == 32 * 33 / 2, "reduce_add thread %d: %d", t, sum[t]);
    }
    return finish("warp_misc");
}
