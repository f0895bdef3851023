// pragma2cuda SIMT emulator: device-side primitives (barriers, warp intrinsics, atomics,
// fences, bit and math intrinsics, dynamic shared memory).
#pragma once
#pragma GCC system_header

// ---- block barriers ---------------------------------------------------------------------
inline void __syncthreads() {
    p2c_sim::Block &L = *p2c_sim::ctx("__syncthreads").blk;
    p2c_sim::barrier("__syncthreads", 0, L.nwarps * 32, true, true, 0);
}
inline int __syncthreads_count(int pred) {
    p2c_sim::Block &L = *p2c_sim::ctx("__syncthreads_count").blk;
    return static_cast<int>(
        p2c_sim::barrier("__syncthreads_count", 0, L.nwarps * 32, true, true, pred).count);
}
inline int __syncthreads_and(int pred) {
    p2c_sim::Block &L = *p2c_sim::ctx("__syncthreads_and").blk;
    return static_cast<int>(
        p2c_sim::barrier("__syncthreads_and", 0, L.nwarps * 32, true, true, pred).all);
}
inline int __syncthreads_or(int pred) {
    p2c_sim::Block &L = *p2c_sim::ctx("__syncthreads_or").blk;
    return static_cast<int>(
        p2c_sim::barrier("__syncthreads_or", 0, L.nwarps * 32, true, true, pred).any);
}

// PTX `bar.sync id, count` / `bar.arrive id, count`.
inline void p2c_sim_bar_sync(unsigned id, unsigned count) {
    p2c_sim::barrier("p2c_sim_bar_sync", id, count, true, false, 0);
}
inline void p2c_sim_bar_arrive(unsigned id, unsigned count) {
    p2c_sim::barrier("p2c_sim_bar_arrive", id, count, false, false, 0);
}
// PTX `barrier.red.or.pred p, id, count, pred`: waits like bar.sync and returns whether any
// thread of the completed phase arrived with a true predicate.
inline int p2c_sim_bar_red_or(unsigned id, unsigned count, int pred) {
    return static_cast<int>(
        p2c_sim::barrier("p2c_sim_bar_red_or", id, count, true, false, pred).any);
}

// ---- warp primitives ----------------------------------------------------------------------
inline void __syncwarp(unsigned mask = 0xffffffffu) {
    p2c_sim::warp_collective("__syncwarp", p2c_sim::WarpOp::Sync, mask, 0,
                             [](const uint64_t *, unsigned) { return 0; });
}

inline unsigned __ballot_sync(unsigned mask, int pred) {
    return p2c_sim::warp_collective("__ballot_sync", p2c_sim::WarpOp::Vote, mask, pred != 0,
                                    [mask](const uint64_t *v, unsigned) {
                                        unsigned r = 0;
                                        for (unsigned l = 0; l < 32; ++l)
                                            if ((mask >> l & 1u) && v[l]) r |= 1u << l;
                                        return r;
                                    });
}
inline int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
inline int __all_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) == mask; }

// Without lock-step execution "active" means: lanes of this warp that exist and have not
// returned from the kernel.
inline unsigned __activemask() {
    p2c_sim::ThreadCtx &c = p2c_sim::ctx("__activemask");
    return p2c_sim::live_lanes(*c.blk, c.warp);
}

namespace p2c_sim {

enum class ShflMode { Idx, Up, Down, Xor };

// Source lane per PTX shfl.sync with CUDA's c operand for `width`; -1 = keep own value.
inline int shfl_source(ShflMode mode, unsigned lane, unsigned b, unsigned width) {
    const unsigned segmask = (32u - width) & 31u;  // bits selecting the segment
    const unsigned cval = (mode == ShflMode::Up) ? 0u : 31u;
    const int max_lane = static_cast<int>((lane & segmask) | (cval & ~segmask));
    const int min_lane = static_cast<int>(lane & segmask);
    const unsigned bv = b & 31u;
    int j = static_cast<int>(lane);
    bool ok = false;
    switch (mode) {
    case ShflMode::Up: j = static_cast<int>(lane) - static_cast<int>(bv); ok = j >= max_lane; break;
    case ShflMode::Down: j = static_cast<int>(lane) + static_cast<int>(bv); ok = j <= max_lane; break;
    case ShflMode::Xor: j = static_cast<int>(lane ^ bv); ok = j <= max_lane; break;
    case ShflMode::Idx: j = min_lane | static_cast<int>(bv & ~segmask); ok = j <= max_lane; break;
    }
    return ok ? j : -1;
}

// Value a lane gets when it reads a lane that is not in the mask (undefined in CUDA).
constexpr uint64_t kUndefinedBits = 0xA5A5A5A5A5A5A5A5ull;

template <class T>
inline T shfl(const char *what, ShflMode mode, unsigned mask, T var, unsigned b, int width) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0)
        fail_at(what, "width %d is not a power of two in 1..32", width);
    uint64_t bits = 0;
    std::memcpy(&bits, &var, sizeof(T));
    uint64_t got = warp_collective(
        what, WarpOp::Shfl, mask, bits,
        [mode, mask, b, width](const uint64_t *v, unsigned lane) -> uint64_t {
            int j = shfl_source(mode, lane, b, static_cast<unsigned>(width));
            if (j < 0) j = static_cast<int>(lane);
            if (!(mask >> j & 1u)) return kUndefinedBits;
            return v[j];
        });
    T out;
    std::memcpy(&out, &got, sizeof(T));
    return out;
}

}  // namespace p2c_sim

#define P2C_SIM_SHFL(T)                                                                    \
    inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = warpSize) {       \
        return p2c_sim::shfl<T>("__shfl_sync", p2c_sim::ShflMode::Idx, mask, var,         \
                                static_cast<unsigned>(srcLane), width);                   \
    }                                                                                      \
    inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = warpSize) { \
        return p2c_sim::shfl<T>("__shfl_up_sync", p2c_sim::ShflMode::Up, mask, var, delta, \
                                width);                                                   \
    }                                                                                      \
    inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = warpSize) { \
        return p2c_sim::shfl<T>("__shfl_down_sync", p2c_sim::ShflMode::Down, mask, var,   \
                                delta, width);                                            \
    }                                                                                      \
    inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = warpSize) {  \
        return p2c_sim::shfl<T>("__shfl_xor_sync", p2c_sim::ShflMode::Xor, mask, var,     \
                                static_cast<unsigned>(laneMask), width);                  \
    }
P2C_SIM_SHFL(int)
P2C_SIM_SHFL(unsigned int)
P2C_SIM_SHFL(long)
P2C_SIM_SHFL(unsigned long)
P2C_SIM_SHFL(long long)
P2C_SIM_SHFL(unsigned long long)
P2C_SIM_SHFL(float)
P2C_SIM_SHFL(double)
#undef P2C_SIM_SHFL

// __match_any_sync / __match_all_sync (sm_70) and __reduce_*_sync (sm_80).
#define P2C_SIM_MATCH(T)                                                                   \
    inline unsigned __match_any_sync(unsigned mask, T value) {                             \
        uint64_t bits = 0;                                                                 \
        std::memcpy(&bits, &value, sizeof(T));                                             \
        return p2c_sim::warp_collective(                                                   \
            "__match_any_sync", p2c_sim::WarpOp::Match, mask, bits,                        \
            [mask](const uint64_t *v, unsigned lane) {                                     \
                unsigned r = 0;                                                            \
                for (unsigned l = 0; l < 32; ++l)                                          \
                    if ((mask >> l & 1u) && v[l] == v[lane]) r |= 1u << l;                 \
                return r;                                                                  \
            });                                                                            \
    }                                                                                      \
    inline unsigned __match_all_sync(unsigned mask, T value, int *pred) {                  \
        uint64_t bits = 0;                                                                 \
        std::memcpy(&bits, &value, sizeof(T));                                             \
        unsigned r = p2c_sim::warp_collective(                                             \
            "__match_all_sync", p2c_sim::WarpOp::Match, mask, bits,                        \
            [mask](const uint64_t *v, unsigned lane) {                                     \
                for (unsigned l = 0; l < 32; ++l)                                          \
                    if ((mask >> l & 1u) && v[l] != v[lane]) return 0u;                    \
                return mask;                                                               \
            });                                                                            \
        *pred = r != 0;                                                                    \
        return r;                                                                          \
    }
P2C_SIM_MATCH(int)
P2C_SIM_MATCH(unsigned int)
P2C_SIM_MATCH(long)
P2C_SIM_MATCH(unsigned long)
P2C_SIM_MATCH(long long)
P2C_SIM_MATCH(unsigned long long)
P2C_SIM_MATCH(float)
P2C_SIM_MATCH(double)
#undef P2C_SIM_MATCH

namespace p2c_sim {
template <class T, class F>
inline T warp_reduce(const char *what, unsigned mask, T value, F op) {
    uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof(T));
    return warp_collective(what, WarpOp::Reduce, mask, bits,
                           [mask, op](const uint64_t *v, unsigned) {
                               bool first = true;
                               T acc{};
                               for (unsigned l = 0; l < 32; ++l) {
                                   if (!(mask >> l & 1u)) continue;
                                   T x;
                                   std::memcpy(&x, &v[l], sizeof(T));
                                   acc = first ? x : op(acc, x);
                                   first = false;
                               }
                               return acc;
                           });
}
}  // namespace p2c_sim

inline unsigned __reduce_add_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_add_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a + b; });
}
inline int __reduce_add_sync(unsigned mask, int v) {
    return static_cast<int>(__reduce_add_sync(mask, static_cast<unsigned>(v)));
}
inline unsigned __reduce_min_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_min_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a < b ? a : b; });
}
inline int __reduce_min_sync(unsigned mask, int v) {
    return p2c_sim::warp_reduce<int>("__reduce_min_sync", mask, v,
                                     [](int a, int b) { return a < b ? a : b; });
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_max_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a > b ? a : b; });
}
inline int __reduce_max_sync(unsigned mask, int v) {
    return p2c_sim::warp_reduce<int>("__reduce_max_sync", mask, v,
                                     [](int a, int b) { return a > b ? a : b; });
}
inline unsigned __reduce_and_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_and_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a & b; });
}
inline unsigned __reduce_or_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_or_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a | b; });
}
inline unsigned __reduce_xor_sync(unsigned mask, unsigned v) {
    return p2c_sim::warp_reduce<unsigned>("__reduce_xor_sync", mask, v,
                                          [](unsigned a, unsigned b) { return a ^ b; });
}

// ---- where code runs -----------------------------------------------------------------------
// Whether the caller runs as a CUDA thread of a kernel (the emulator's __CUDA_ARCH__ test,
// made at run time because host and device code are one compilation here).
inline bool p2c_sim_on_device() { return p2c_sim::tctx != nullptr; }

// ---- dynamic shared memory --------------------------------------------------------------
inline unsigned char *p2c_sim_dynamic_shared() {
    return p2c_sim::ctx("p2c_sim_dynamic_shared").blk->dyn_shared;
}

// ---- fences ---------------------------------------------------------------------------------
namespace p2c_sim {
// A seq_cst read-modify-write on one shared word next to the fence: ThreadSanitizer does
// not model stand-alone fences, but it does model this, so fence-based publication
// patterns (write; fence; flag) are seen as ordered.
inline std::atomic<uint32_t> fence_word{0};
inline void fence() {
    atomic_point();
    fence_word.fetch_add(1, std::memory_order_seq_cst);
#ifndef __SANITIZE_THREAD__
    std::atomic_thread_fence(std::memory_order_seq_cst);
#endif
}
}  // namespace p2c_sim
inline void __threadfence() { p2c_sim::fence(); }
inline void __threadfence_block() { p2c_sim::fence(); }
inline void __threadfence_system() { p2c_sim::fence(); }

// ---- atomics ------------------------------------------------------------------------------
// All atomics are sequentially consistent (CUDA's are relaxed): stronger, never weaker.
namespace p2c_sim {
template <class T>
inline std::atomic_ref<T> aref(T *p) {
    atomic_point();
    return std::atomic_ref<T>(*p);
}
template <class T, class F>
inline T atomic_update(T *p, F f) {
    auto r = aref(p);
    T old = r.load(std::memory_order_seq_cst);
    while (!r.compare_exchange_weak(old, f(old), std::memory_order_seq_cst)) {
    }
    return old;
}
}  // namespace p2c_sim

#define P2C_SIM_ATOMIC_SCOPES(RET, NAME, PARAMS, ARGS)                                      \
    inline RET NAME##_block PARAMS { return NAME ARGS; }                                   \
    inline RET NAME##_system PARAMS { return NAME ARGS; }

#define P2C_SIM_ATOMIC_ADD(T)                                                              \
    inline T atomicAdd(T *address, T val) {                                                \
        return p2c_sim::aref(address).fetch_add(val, std::memory_order_seq_cst);          \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicAdd, (T * a, T v), (a, v))
P2C_SIM_ATOMIC_ADD(int)
P2C_SIM_ATOMIC_ADD(unsigned int)
P2C_SIM_ATOMIC_ADD(unsigned long long)
P2C_SIM_ATOMIC_ADD(float)
P2C_SIM_ATOMIC_ADD(double)
#undef P2C_SIM_ATOMIC_ADD

#define P2C_SIM_ATOMIC_SUB(T)                                                              \
    inline T atomicSub(T *address, T val) {                                                \
        return p2c_sim::aref(address).fetch_sub(val, std::memory_order_seq_cst);          \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicSub, (T * a, T v), (a, v))
P2C_SIM_ATOMIC_SUB(int)
P2C_SIM_ATOMIC_SUB(unsigned int)
#undef P2C_SIM_ATOMIC_SUB

#define P2C_SIM_ATOMIC_EXCH(T)                                                             \
    inline T atomicExch(T *address, T val) {                                               \
        return p2c_sim::aref(address).exchange(val, std::memory_order_seq_cst);           \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicExch, (T * a, T v), (a, v))
P2C_SIM_ATOMIC_EXCH(int)
P2C_SIM_ATOMIC_EXCH(unsigned int)
P2C_SIM_ATOMIC_EXCH(unsigned long long)
P2C_SIM_ATOMIC_EXCH(float)
#undef P2C_SIM_ATOMIC_EXCH

#define P2C_SIM_ATOMIC_MINMAX(T)                                                           \
    inline T atomicMin(T *address, T val) {                                                \
        return p2c_sim::atomic_update(address, [val](T o) { return val < o ? val : o; }); \
    }                                                                                      \
    inline T atomicMax(T *address, T val) {                                                \
        return p2c_sim::atomic_update(address, [val](T o) { return val > o ? val : o; }); \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicMin, (T * a, T v), (a, v))                              \
    P2C_SIM_ATOMIC_SCOPES(T, atomicMax, (T * a, T v), (a, v))
P2C_SIM_ATOMIC_MINMAX(int)
P2C_SIM_ATOMIC_MINMAX(unsigned int)
P2C_SIM_ATOMIC_MINMAX(long long)
P2C_SIM_ATOMIC_MINMAX(unsigned long long)
#undef P2C_SIM_ATOMIC_MINMAX

#define P2C_SIM_ATOMIC_BITS(T)                                                             \
    inline T atomicAnd(T *address, T val) {                                                \
        return p2c_sim::aref(address).fetch_and(val, std::memory_order_seq_cst);          \
    }                                                                                      \
    inline T atomicOr(T *address, T val) {                                                 \
        return p2c_sim::aref(address).fetch_or(val, std::memory_order_seq_cst);           \
    }                                                                                      \
    inline T atomicXor(T *address, T val) {                                                \
        return p2c_sim::aref(address).fetch_xor(val, std::memory_order_seq_cst);          \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicAnd, (T * a, T v), (a, v))                              \
    P2C_SIM_ATOMIC_SCOPES(T, atomicOr, (T * a, T v), (a, v))                               \
    P2C_SIM_ATOMIC_SCOPES(T, atomicXor, (T * a, T v), (a, v))
P2C_SIM_ATOMIC_BITS(int)
P2C_SIM_ATOMIC_BITS(unsigned int)
P2C_SIM_ATOMIC_BITS(unsigned long long)
#undef P2C_SIM_ATOMIC_BITS

#define P2C_SIM_ATOMIC_CAS(T)                                                              \
    inline T atomicCAS(T *address, T compare, T val) {                                     \
        if (!p2c_sim::aref(address).compare_exchange_strong(compare, val,                  \
                                                             std::memory_order_seq_cst))   \
            p2c_sim::spin_point(); /* a failed CAS is how spin locks wait */               \
        return compare;                                                                    \
    }                                                                                      \
    P2C_SIM_ATOMIC_SCOPES(T, atomicCAS, (T * a, T c, T v), (a, c, v))
P2C_SIM_ATOMIC_CAS(int)
P2C_SIM_ATOMIC_CAS(unsigned int)
P2C_SIM_ATOMIC_CAS(unsigned long long)
P2C_SIM_ATOMIC_CAS(unsigned short)
#undef P2C_SIM_ATOMIC_CAS

// atomicInc: old >= val ? 0 : old + 1.  atomicDec: (old == 0 || old > val) ? val : old - 1.
inline unsigned atomicInc(unsigned *address, unsigned val) {
    return p2c_sim::atomic_update(address, [val](unsigned o) { return o >= val ? 0u : o + 1u; });
}
inline unsigned atomicDec(unsigned *address, unsigned val) {
    return p2c_sim::atomic_update(address,
                                  [val](unsigned o) { return (o == 0u || o > val) ? val : o - 1u; });
}
P2C_SIM_ATOMIC_SCOPES(unsigned, atomicInc, (unsigned *a, unsigned v), (a, v))
P2C_SIM_ATOMIC_SCOPES(unsigned, atomicDec, (unsigned *a, unsigned v), (a, v))
#undef P2C_SIM_ATOMIC_SCOPES

// ---- bit intrinsics --------------------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) {
    return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
inline unsigned __brev(unsigned x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned long long __brevll(unsigned long long x) {
    unsigned long long r = 0;
    for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
    return r;
}
inline int __mul24(int x, int y) {
    return static_cast<int>(static_cast<int32_t>(static_cast<uint32_t>(x) << 8) >> 8) *
           static_cast<int>(static_cast<int32_t>(static_cast<uint32_t>(y) << 8) >> 8);
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) {
    return static_cast<int>((static_cast<long long>(x) * y) >> 32);
}
inline unsigned __umulhi(unsigned x, unsigned y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}

// ---- reinterpretation, loads, timing ----------------------------------------------------------
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
template <class T>
inline T __ldg(const T *p) { return *p; }
inline long long clock64() {
    p2c_sim::atomic_point();  // clock polling loops must let the other threads run
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
// A fiber yields to the other threads of its block instead of sleeping.
inline void __nanosleep(unsigned ns) {
#if P2C_SIM_FIBERS
    (void)ns;
    if (p2c_sim::tsched) {
        p2c_sim::spin_point();
        return;
    }
#endif
    std::this_thread::sleep_for(std::chrono::nanoseconds(ns));
}

// ---- math ---------------------------------------------------------------------------------
// CUDA's global min/max overloads (the host has only std::min/std::max).
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(static_cast<double>(a), b); }
inline double max(float a, double b) { return std::fmax(static_cast<double>(a), b); }
inline double min(double a, float b) { return std::fmin(a, static_cast<double>(b)); }
inline double max(double a, float b) { return std::fmax(a, static_cast<double>(b)); }

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float __fdividef(float a, float b) { return a / b; }
inline float fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline void __sincosf(float x, float *s, float *c) { *s = std::sin(x); *c = std::cos(x); }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fsqrt_rn(float a) { return std::sqrt(a); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __dsqrt_rn(double a) { return std::sqrt(a); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }
