// barrier.red.or.pred on a named barrier (p2c_sim_bar_red_or): in a 2-warp block, threads
// 0..39 are a team that meets at barrier 3 (count 64) five times with a false predicate,
// then once with a true one; lanes 40..63 of the second warp arrive with false until the
// result is true. Every participant of a phase gets the same OR, so the idle lanes arrive
// exactly six times, and the team sees false, false, ..., true. Values written before a
// phase are visible after it.
#include <cuda_runtime.h>
#include "check.h"

__global__ void team(int *rounds, int *seen, int *vals) {
    __shared__ int box[2][64];
    const int t = threadIdx.x;
    if (t < 40) {
        int bits = 0;
        for (int r = 0; r < 5; ++r) {
            box[r % 2][t] = r * 100 + t;   // two buffers: a phase separates reuse
            bits |= p2c_sim_bar_red_or(3, 64, 0) << r;
            vals[r * 40 + t] = box[r % 2][(t + 1) % 40];
        }
        bits |= p2c_sim_bar_red_or(3, 64, 1) << 5;
        seen[t] = bits;
    } else {
        int n = 0;
        do {
            ++n;
        } while (!p2c_sim_bar_red_or(3, 64, 0));
        rounds[t - 40] = n;
    }
}

int main() {
    int *d_rounds, *d_seen, *d_vals;
    CUDA_OK(cudaMalloc(&d_rounds, 24 * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_seen, 40 * sizeof(int)));
    CUDA_OK(cudaMalloc(&d_vals, 200 * sizeof(int)));
    for (int rep = 0; rep < 3; ++rep) {
        p2c_sim_launch(team, 2, 64, 0)(d_rounds, d_seen, d_vals);
        CUDA_OK(cudaDeviceSynchronize());
        int rounds[24], seen[40], vals[200];
        CUDA_OK(cudaMemcpy(rounds, d_rounds, sizeof rounds, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(seen, d_seen, sizeof seen, cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(vals, d_vals, sizeof vals, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 24; ++i)
            CHECK(rounds[i] == 6, "idle lane %d arrived %d times", 40 + i, rounds[i]);
        for (int t = 0; t < 40; ++t)
            CHECK(seen[t] == 32, "thread %d saw results 0x%x", t, seen[t]);
        for (int r = 0; r < 5; ++r)
            for (int t = 0; t < 40; ++t)
                CHECK(vals[r * 40 + t] == r * 100 + (t + 1) % 40, "round %d thread %d: %d", r, t,
                      vals[r * 40 + t]);
    }
    CUDA_OK(cudaFree(d_rounds));
    CUDA_OK(cudaFree(d_seen));
    CUDA_OK(cudaFree(d_vals));
    return finish("bar_red_or");
}
