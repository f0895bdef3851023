// __ballot_sync / __any_sync / __all_sync / __activemask on full and partial warps
// (blockDim 72 = 2 full warps + 8 lanes), __syncthreads_count/_and/_or, bit intrinsics.
#include <cuda_runtime.h>
#include <vector>
#include "check.h"

constexpr int kThreads = 72, kRounds = 20;

__device__ int pred_of(int t, int r) { return ((t * 37 + r * 11) % 5) < 2; }

__global__ void vote_kernel(unsigned *ballot, int *any, int *all, int *all_true,
                            unsigned *active, int *cnt, int *and_, int *or_) {
    const int t = threadIdx.x;
    const int nlanes = (kThreads - t / 32 * 32) < 32 ? (kThreads - t / 32 * 32) : 32;
    const unsigned mask = nlanes == 32 ? 0xffffffffu : ((1u << nlanes) - 1u);
    for (int r = 0; r < kRounds; ++r) {
        const int p = pred_of(t, r);
        ballot[r * kThreads + t] = __ballot_sync(mask, p);
        any[r * kThreads + t] = __any_sync(mask, p && (t % 32) == r);
        all[r * kThreads + t] = __all_sync(mask, p);
        all_true[r * kThreads + t] = __all_sync(mask, r >= 0);
        cnt[r * kThreads + t] = __syncthreads_count(p);
        and_[r * kThreads + t] = __syncthreads_and(r == 0 ? 1 : p);
        or_[r * kThreads + t] = __syncthreads_or(r == 1 ? 0 : (p && t == 5 + r));
    }
    // Nobody has returned yet: all existing lanes are active.
    active[t] = __activemask();
    __syncthreads();
}

static int host_pred(int t, int r) { return ((t * 37 + r * 11) % 5) < 2; }
static int host_popc(unsigned long long x) {
    int n = 0;
    for (; x; x >>= 1) n += int(x & 1);
    return n;
}

__global__ void bits_kernel(const unsigned long long *in, int *out, int n) {
    int i = threadIdx.x;
    if (i < n) {
        unsigned long long v = in[i];
        out[6 * i + 0] = __popc(unsigned(v));
        out[6 * i + 1] = __popcll(v);
        out[6 * i + 2] = __ffs(int(unsigned(v)));
        out[6 * i + 3] = __ffsll((long long)v);
        out[6 * i + 4] = __clz(int(unsigned(v)));
        out[6 * i + 5] = __clzll((long long)v);
    }
}

int main() {
    const int n = kRounds * kThreads;
    unsigned *ballot, *active;
    int *any, *all, *all_true, *cnt, *and_, *or_;
    CUDA_OK(cudaMalloc(&ballot, n * 4));
    CUDA_OK(cudaMalloc(&any, n * 4));
    CUDA_OK(cudaMalloc(&all, n * 4));
    CUDA_OK(cudaMalloc(&all_true, n * 4));
    CUDA_OK(cudaMalloc(&cnt, n * 4));
    CUDA_OK(cudaMalloc(&and_, n * 4));
    CUDA_OK(cudaMalloc(&or_, n * 4));
    CUDA_OK(cudaMalloc(&active, kThreads * 4));
    p2c_sim_launch(vote_kernel, 1, kThreads, 0)(ballot, any, all, all_true, active, cnt, and_, or_);
    CUDA_OK(cudaGetLastError());
    for (int r = 0; r < kRounds; ++r) {
        int count = 0, and_v = 1, or_v = 0;
        for (int t = 0; t < kThreads; ++t) {
            count += host_pred(t, r);
            and_v &= r == 0 ? 1 : host_pred(t, r);
            or_v |= r == 1 ? 0 : (host_pred(t, r) && t == 5 + r);
        }
        for (int t = 0; t < kThreads; ++t) {
            const int base = t / 32 * 32;
            const int nl = kThreads - base < 32 ? kThreads - base : 32;
            unsigned eb = 0;
            int eany = 0, eall = 1;
            for (int l = 0; l < nl; ++l) {
                if (host_pred(base + l, r)) eb |= 1u << l;
                if (host_pred(base + l, r) && l == r) eany = 1;
                if (!host_pred(base + l, r)) eall = 0;
            }
            const int i = r * kThreads + t;
            CHECK(ballot[i] == eb, "ballot r%d t%d: %08x vs %08x", r, t, ballot[i], eb);
            CHECK(any[i] == eany, "any r%d t%d", r, t);
            CHECK(all[i] == eall, "all r%d t%d", r, t);
            CHECK(all_true[i] == 1, "all(true) r%d t%d", r, t);
            CHECK(cnt[i] == count, "syncthreads_count r%d t%d: %d vs %d", r, t, cnt[i], count);
            CHECK((and_[i] != 0) == (and_v != 0), "syncthreads_and r%d t%d", r, t);
            CHECK((or_[i] != 0) == (or_v != 0), "syncthreads_or r%d t%d", r, t);
        }
    }
    CHECK(active[0] == 0xffffffffu && active[40] == 0xffffffffu && active[70] == 0xffu,
          "activemask %08x %08x %08x", active[0], active[40], active[70]);

    const unsigned long long vals[] = {0, 1, 0x80000000ull, 0xffffffffffffffffull,
                                       0x0000000100000000ull, 0x00f0000000000100ull, 12345};
    const int nv = sizeof vals / sizeof vals[0];
    unsigned long long *d_in;
    int *d_out;
    CUDA_OK(cudaMalloc(&d_in, sizeof vals));
    CUDA_OK(cudaMalloc(&d_out, nv * 6 * sizeof(int)));
    CUDA_OK(cudaMemcpy(d_in, vals, sizeof vals, cudaMemcpyHostToDevice));
    p2c_sim_launch(bits_kernel, 1, 32, 0)(d_in, d_out, nv);
    std::vector<int> h(nv * 6);
    CUDA_OK(cudaMemcpy(h.data(), d_out, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nv; ++i) {
        unsigned long long v = vals[i];
        unsigned lo = unsigned(v);
        int ffs = 0, ffsll = 0, clz = 32, clzll = 64;
        for (int b = 0; b < 32; ++b) if (lo >> b & 1) { ffs = b + 1; break; }
        for (int b = 0; b < 64; ++b) if (v >> b & 1) { ffsll = b + 1; break; }
        for (int b = 31; b >= 0; --b) if (lo >> b & 1) { clz = 31 - b; break; }
        for (int b = 63; b >= 0; --b) if (v >> b & 1) { clzll = 63 - b; break; }
        const int e[6] = {host_popc(lo), host_popc(v), ffs, ffsll, clz, clzll};
        for (int k = 0; k < 6; ++k)
            CHECK(h[6 * i + k] == e[k], "bit op %d of %llx: %d vs %d", k, v, h[6 * i + k], e[k]);
    }
    return finish("vote");
}
