// Named barriers with PTX semantics: in a 4-warp block, warps 0-1 exchange data through
// shared memory with bar.sync 1,64 while warps 2-3 do the same on barrier 2 at their own
// pace; then warp 2 produces and warp 3 consumes through a double-signalled buffer using
// bar.sync / bar.arrive (barriers 3 = full, 4 = empty). Missing ordering would show as
// wrong values (and as a TSan report).
#include <cuda_runtime.h>
#include <vector>
#include "check.h"

constexpr int kRounds = 40;

__global__ void named(long long *pair_sum, long long *consumed) {
    __shared__ int buf_a[64];
    __shared__ int buf_b[64];
    __shared__ int box[32];
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    long long acc = 0;
    if (warp < 2) {
        for (int r = 0; r < kRounds; ++r) {
            buf_a[t] = r * 1000 + t;
            p2c_sim_bar_sync(1, 64);
            acc += buf_a[63 - t];
            p2c_sim_bar_sync(1, 64);
        }
        pair_sum[t] = acc;
    } else {
        const int u = t - 64;
        for (int r = 0; r < kRounds; ++r) {
            buf_b[u] = r * 7 + u * 3;
            p2c_sim_bar_sync(2, 64);
            acc += buf_b[(u + 5) % 64];
            p2c_sim_bar_sync(2, 64);
        }
        pair_sum[t] = acc;
        // producer / consumer
        if (warp == 2) {
            for (int r = 0; r < kRounds; ++r) {
                p2c_sim_bar_sync(4, 64);     // wait until the box is empty
                box[lane] = r * 32 + lane;
                p2c_sim_bar_arrive(3, 64);   // box is full
            }
        } else {
            long long got = 0;
            p2c_sim_bar_arrive(4, 64);       // the box starts empty
            for (int r = 0; r < kRounds; ++r) {
                p2c_sim_bar_sync(3, 64);     // wait until full
                got += box[31 - lane];
                p2c_sim_bar_arrive(4, 64);   // box is empty again
            }
            consumed[lane] = got;
        }
    }
}

int main() {
    long long *d_pair, *d_cons;
    CUDA_OK(cudaMalloc(&d_pair, 128 * sizeof(long long)));
    CUDA_OK(cudaMalloc(&d_cons, 32 * sizeof(long long)));
    for (int rep = 0; rep < 3; ++rep) {
        CUDA_OK(cudaMemset(d_pair, 0, 128 * sizeof(long long)));
        CUDA_OK(cudaMemset(d_cons, 0, 32 * sizeof(long long)));
        p2c_sim_launch(named, 2, 128, 0)(d_pair, d_cons);
        CUDA_OK(cudaGetLastError());
        std::vector<long long> pair(128), cons(32);
        CUDA_OK(cudaMemcpy(pair.data(), d_pair, 128 * sizeof(long long), cudaMemcpyDeviceToHost));
        CUDA_OK(cudaMemcpy(cons.data(), d_cons, 32 * sizeof(long long), cudaMemcpyDeviceToHost));
        for (int t = 0; t < 128; ++t) {
            long long e = 0;
            for (int r = 0; r < kRounds; ++r)
                e += t < 64 ? (r * 1000 + (63 - t)) : (r * 7 + ((t - 64 + 5) % 64) * 3);
            CHECK(pair[t] == e, "pair sum of thread %d: %lld vs %lld", t, pair[t], e);
        }
        for (int l = 0; l < 32; ++l) {
            long long e = 0;
            for (int r = 0; r < kRounds; ++r) e += r * 32 + (31 - l);
            CHECK(cons[l] == e, "consumer lane %d: %lld vs %lld", l, cons[l], e);
        }
    }
    return finish("named_barrier");
}
