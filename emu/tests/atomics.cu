// Every atomic op on every CUDA type under contention: 4 blocks x 256 threads hammer the
// same words. Expected results come from a serial host computation of the definitions.
#include <cuda_runtime.h>
#include <algorithm>
#include <vector>
#include "check.h"

constexpr int kBlocks = 4, kThreads = 256, kN = kBlocks * kThreads;
constexpr unsigned kIncLimit = 99, kDecLimit = 57;

struct Acc {
    int add_i, sub_i, min_i, max_i, and_i, or_i, xor_i, exch_i, cas_i;
    unsigned add_u, sub_u, min_u, max_u, and_u, or_u, xor_u, exch_u, cas_u, inc_u, dec_u;
    unsigned long long add_ull, min_ull, max_ull, and_ull, or_ull, xor_ull, exch_ull, cas_ull;
    long long min_ll, max_ll;
    float add_f, exch_f;
    double add_d;
    unsigned short cas_us;
};

struct Olds {
    int exch_i;
    unsigned exch_u, inc_u, dec_u;
    unsigned long long exch_ull;
    float exch_f;
};

__global__ void hammer(Acc *a, Olds *olds) {
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&a->add_i, g % 7 - 3);
    atomicSub(&a->sub_i, g % 5);
    atomicMin(&a->min_i, (g * 7919) % 2001 - 1000);
    atomicMax(&a->max_i, (g * 7919) % 2001 - 1000);
    atomicAnd(&a->and_i, ~(1 << (g % 31)));
    atomicOr(&a->or_i, 1 << (g % 29));
    atomicXor(&a->xor_i, g * 2654435761u);
    olds[g].exch_i = atomicExch(&a->exch_i, g + 1);
    // CAS loops start from a guess (a plain read would race with the CASes).
    for (int old = 0;;) {  // CAS-based increment by 3
        int seen = atomicCAS(&a->cas_i, old, old + 3);
        if (seen == old) break;
        old = seen;
    }
    atomicAdd(&a->add_u, unsigned(g) * 3u);
    atomicSub(&a->sub_u, unsigned(g));
    atomicMin(&a->min_u, unsigned(g * 2654435761u));
    atomicMax(&a->max_u, unsigned(g * 2654435761u));
    atomicAnd(&a->and_u, ~(1u << (g % 32)) | (g == 5 ? 0u : 0x80000000u));
    atomicOr(&a->or_u, 1u << (g % 32));
    atomicXor(&a->xor_u, unsigned(g) * 40503u);
    olds[g].exch_u = atomicExch(&a->exch_u, unsigned(g) + 7u);
    for (unsigned old = 0;;) {
        unsigned seen = atomicCAS(&a->cas_u, old, old * 3u + 1u);
        if (seen == old) break;
        old = seen;
    }
    olds[g].inc_u = atomicInc(&a->inc_u, kIncLimit);
    olds[g].dec_u = atomicDec(&a->dec_u, kDecLimit);
    atomicAdd(&a->add_ull, 0x100000001ull * unsigned(g));
    atomicMin(&a->min_ull, 0xF000000000000000ull - unsigned(g) * 3ull);
    atomicMax(&a->max_ull, 0x1000000000000000ull + unsigned(g) * 5ull);
    atomicAnd(&a->and_ull, ~(1ull << (g % 64)));
    atomicOr(&a->or_ull, 1ull << ((g * 3) % 64));
    atomicXor(&a->xor_ull, 0x9E3779B97F4A7C15ull * unsigned(g));
    olds[g].exch_ull = atomicExch(&a->exch_ull, (1ull << 40) + unsigned(g));
    for (unsigned long long old = 0;;) {
        unsigned long long seen = atomicCAS(&a->cas_ull, old, old + (1ull << 33));
        if (seen == old) break;
        old = seen;
    }
    atomicMin(&a->min_ll, -(1LL << 40) + (g * 7919LL) % 100000 - 50000);
    atomicMax(&a->max_ll, (1LL << 40) - (g * 7919LL) % 100000);
    atomicAdd(&a->add_f, 0.5f);
    olds[g].exch_f = atomicExch(&a->exch_f, float(g) * 2.0f);
    atomicAdd(&a->add_d, 0.25 * (g % 3));
    for (unsigned short old = 0;;) {
        unsigned short seen = atomicCAS(&a->cas_us, old, (unsigned short)(old + 1));
        if (seen == old) break;
        old = seen;
    }
}

int main() {
    Acc init{};
    init.and_i = -1;
    init.min_i = 1 << 30;
    init.max_i = -(1 << 30);
    init.exch_i = -5;
    init.sub_u = 1000000000u;
    init.min_u = 0xffffffffu;
    init.and_u = 0xffffffffu;
    init.exch_u = 3;
    init.cas_u = 1;
    init.dec_u = 0;
    init.min_ull = ~0ull;
    init.and_ull = ~0ull;
    init.exch_ull = 11;
    init.min_ll = 0;
    init.max_ll = 0;
    init.exch_f = -1.0f;
    Acc *d_acc;
    Olds *d_olds;
    CUDA_OK(cudaMalloc(&d_acc, sizeof(Acc)));
    CUDA_OK(cudaMalloc(&d_olds, kN * sizeof(Olds)));
    CUDA_OK(cudaMemcpy(d_acc, &init, sizeof init, cudaMemcpyHostToDevice));
    p2c_sim_launch(hammer, kBlocks, kThreads, 0)(d_acc, d_olds);
    CUDA_OK(cudaGetLastError());
    Acc a;
    std::vector<Olds> olds(kN);
    CUDA_OK(cudaMemcpy(&a, d_acc, sizeof a, cudaMemcpyDeviceToHost));
    CUDA_OK(cudaMemcpy(olds.data(), d_olds, kN * sizeof(Olds), cudaMemcpyDeviceToHost));

    // Serial reference: order does not matter for these (commutative) ops.
    Acc e = init;
    for (int g = 0; g < kN; ++g) {
        e.add_i += g % 7 - 3;
        e.sub_i -= g % 5;
        e.min_i = std::min(e.min_i, (g * 7919) % 2001 - 1000);
        e.max_i = std::max(e.max_i, (g * 7919) % 2001 - 1000);
        e.and_i &= ~(1 << (g % 31));
        e.or_i |= 1 << (g % 29);
        e.xor_i ^= int(g * 2654435761u);
        e.cas_i += 3;
        e.add_u += unsigned(g) * 3u;
        e.sub_u -= unsigned(g);
        e.min_u = std::min(e.min_u, unsigned(g * 2654435761u));
        e.max_u = std::max(e.max_u, unsigned(g * 2654435761u));
        e.and_u &= ~(1u << (g % 32)) | (g == 5 ? 0u : 0x80000000u);
        e.or_u |= 1u << (g % 32);
        e.xor_u ^= unsigned(g) * 40503u;
        e.cas_u = e.cas_u * 3u + 1u;
        e.add_ull += 0x100000001ull * unsigned(g);
        e.min_ull = std::min(e.min_ull, 0xF000000000000000ull - unsigned(g) * 3ull);
        e.max_ull = std::max(e.max_ull, 0x1000000000000000ull + unsigned(g) * 5ull);
        e.and_ull &= ~(1ull << (g % 64));
        e.or_ull |= 1ull << ((g * 3) % 64);
        e.xor_ull ^= 0x9E3779B97F4A7C15ull * unsigned(g);
        e.cas_ull += 1ull << 33;
        e.min_ll = std::min(e.min_ll, -(1LL << 40) + (g * 7919LL) % 100000 - 50000);
        e.max_ll = std::max(e.max_ll, (1LL << 40) - (g * 7919LL) % 100000);
        e.add_f += 0.5f;
        e.add_d += 0.25 * (g % 3);
        e.cas_us = (unsigned short)(e.cas_us + 1);
    }
    // atomicInc/atomicDec: serial sequence of old values by the CUDA definition.
    std::vector<unsigned> inc_seq, dec_seq;
    unsigned inc = 0, dec = 0;
    for (int g = 0; g < kN; ++g) {
        inc_seq.push_back(inc);
        inc = inc >= kIncLimit ? 0 : inc + 1;
        dec_seq.push_back(dec);
        dec = (dec == 0 || dec > kDecLimit) ? kDecLimit : dec - 1;
    }
    e.inc_u = inc;
    e.dec_u = dec;

#define EQ(f) CHECK(a.f == e.f, #f ": got %lld expected %lld", (long long)a.f, (long long)e.f)
    EQ(add_i); EQ(sub_i); EQ(min_i); EQ(max_i); EQ(and_i); EQ(or_i); EQ(xor_i); EQ(cas_i);
    EQ(add_u); EQ(sub_u); EQ(min_u); EQ(max_u); EQ(and_u); EQ(or_u); EQ(xor_u);
    EQ(inc_u); EQ(dec_u);
    EQ(add_ull); EQ(min_ull); EQ(max_ull); EQ(and_ull); EQ(or_ull); EQ(xor_ull); EQ(cas_ull);
    EQ(min_ll); EQ(max_ll); EQ(cas_us);
    CHECK(a.add_f == e.add_f, "add_f %f vs %f", a.add_f, e.add_f);
    CHECK(a.add_d == e.add_d, "add_d %f vs %f", a.add_d, e.add_d);
    // CAS on unsigned: x -> 3x+1 is not commutative in general, but every thread applies
    // the same map, so any order gives the same result.
    EQ(cas_u);

    // Exchange: old values plus the final value are exactly the initial value and all
    // values written (a permutation).
    {
        std::vector<long long> got, want;
        for (int g = 0; g < kN; ++g) { got.push_back(olds[g].exch_i); want.push_back(g + 1); }
        got.push_back(a.exch_i); want.push_back(init.exch_i);
        std::sort(got.begin(), got.end()); std::sort(want.begin(), want.end());
        CHECK(got == want, "atomicExch(int) values are not a permutation");
    }
    {
        std::vector<unsigned long long> got, want;
        for (int g = 0; g < kN; ++g) { got.push_back(olds[g].exch_u); want.push_back(unsigned(g) + 7u); }
        got.push_back(a.exch_u); want.push_back(init.exch_u);
        std::sort(got.begin(), got.end()); std::sort(want.begin(), want.end());
        CHECK(got == want, "atomicExch(unsigned) values are not a permutation");
        got.clear(); want.clear();
        for (int g = 0; g < kN; ++g) { got.push_back(olds[g].exch_ull); want.push_back((1ull << 40) + unsigned(g)); }
        got.push_back(a.exch_ull); want.push_back(init.exch_ull);
        std::sort(got.begin(), got.end()); std::sort(want.begin(), want.end());
        CHECK(got == want, "atomicExch(unsigned long long) values are not a permutation");
    }
    {
        std::vector<float> got, want;
        for (int g = 0; g < kN; ++g) { got.push_back(olds[g].exch_f); want.push_back(float(g) * 2.0f); }
        got.push_back(a.exch_f); want.push_back(init.exch_f);
        std::sort(got.begin(), got.end()); std::sort(want.begin(), want.end());
        CHECK(got == want, "atomicExch(float) values are not a permutation");
    }
    {
        std::vector<unsigned> gi, gd;
        for (int g = 0; g < kN; ++g) { gi.push_back(olds[g].inc_u); gd.push_back(olds[g].dec_u); }
        std::sort(gi.begin(), gi.end()); std::sort(gd.begin(), gd.end());
        std::sort(inc_seq.begin(), inc_seq.end()); std::sort(dec_seq.begin(), dec_seq.end());
        CHECK(gi == inc_seq, "atomicInc old values differ from the serial sequence");
        CHECK(gd == dec_seq, "atomicDec old values differ from the serial sequence");
    }
    return finish("atomics");
}
