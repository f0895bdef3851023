/* ---- pragma2cuda device prelude (templates/p2c_device.cuh) ----------------
 * Every target-specific primitive the generated kernels use goes through this
 * prelude: on a GPU they are PTX or CUDA built-ins, under the CPU SIMT
 * emulator (-DP2C_SIMT_EMULATOR) they are the emulator's p2c_sim_* hooks. The
 * reduction trees below are the same code on both.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

/* A launch goes to p2c_stream: the stream of the running construct's OpenACC
 * queue, 0 (the default stream) otherwise, and stops the program while the
 * OpenACC host device is selected (p2c_device_grid, templates/p2c_host.cuh). */
#if defined(P2C_SIMT_EMULATOR)
#define P2C_LAUNCH(kernel, grid, block, shmem) p2c_sim_launch((kernel), p2c_device_grid(grid), (block), (shmem), p2c_stream)
#else
#define P2C_LAUNCH(kernel, grid, block, shmem) kernel<<<p2c_device_grid(grid), (block), (shmem), p2c_stream>>>
#endif

/* `#pragma unroll 1` before a loop whose body keeps many registers live (one
 * load per reduction per iteration): nvcc unrolls such loops by 4 and issues
 * all the loads first, which raises the kernel's register count (ptxas -v)
 * for a loop that runs once per launch in one block. g++ (emulator) has no
 * such pragma. */
#if defined(P2C_SIMT_EMULATOR) || !defined(__CUDACC__)
#define P2C_NO_UNROLL
#define P2C_UNROLL_2
#else
#define P2C_NO_UNROLL _Pragma("unroll 1")
/* `#pragma unroll 2`: two loads in flight, not four (p2c_red_array). */
#define P2C_UNROLL_2 _Pragma("unroll 2")
#endif

/* Every helper is an inline function or variable (no unused-static warnings,
 * one copy per program when several translated files are linked together),
 * inside a namespace named after the prelude's version so that files from
 * different pragma2cuda versions never share a definition. */
inline namespace p2c_prelude_2 {

/* A copy of `bytes` bytes (a multiple of `A`, both addresses aligned to `A`)
 * in words of min(A, 8) bytes, not unrolled: a whole array's lastprivate
 * store (emit/lastprivate_array.rs). nvcc's memcpy unrolled it and kept 20-32
 * registers for a copy one thread runs once (ptxas, sm_90). */
template <int A> struct p2c_word_of { typedef unsigned char type; };
template <> struct p2c_word_of<2> { typedef unsigned short type; };
template <> struct p2c_word_of<4> { typedef unsigned type; };
template <> struct p2c_word_of<8> { typedef unsigned long long type; };
template <int A>
__device__ __forceinline__ void p2c_copy_words(void *dst, const void *src, unsigned long long bytes)
{
    typedef typename p2c_word_of<(A >= 8 ? 8 : A >= 4 ? 4 : A >= 2 ? 2 : 1)>::type W;
    P2C_NO_UNROLL
    for (unsigned long long c = 0; c < bytes / sizeof(W); c++)
        ((W *)dst)[c] = ((const W *)src)[c];
}

/* bar.sync id, count: wait until `count` threads (a multiple of 32) arrive at barrier `id`. */
__device__ __forceinline__ void p2c_bar_sync(unsigned id, unsigned count)
{
#if defined(P2C_SIMT_EMULATOR)
    p2c_sim_bar_sync(id, count);
#elif defined(__CUDA_ARCH__)
    asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(count) : "memory");
#else
    (void)id; (void)count;
#endif
}

/* bar.arrive id, count: signal barrier `id` without waiting. */
__device__ __forceinline__ void p2c_bar_arrive(unsigned id, unsigned count)
{
#if defined(P2C_SIMT_EMULATOR)
    p2c_sim_bar_arrive(id, count);
#elif defined(__CUDA_ARCH__)
    asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(count) : "memory");
#else
    (void)id; (void)count;
#endif
}

/* The launch's dynamic shared memory. */
__device__ __forceinline__ unsigned char *p2c_dynamic_shared(void)
{
#if defined(P2C_SIMT_EMULATOR)
    return p2c_sim_dynamic_shared();
#else
    extern __shared__ unsigned char p2c_dynamic_smem[];
    return p2c_dynamic_smem;
#endif
}

/* Linear thread id and thread count of the block (x fastest). */
__device__ __forceinline__ unsigned p2c_thread_id(void)
{
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ unsigned p2c_block_threads(void)
{
    return blockDim.x * blockDim.y * blockDim.z;
}

/* A 32-bit loop counter's step (emit/counter.rs: a worksharing loop over a
 * team, one variable of at most 32 bits, trip count below 2^32): saturates
 * at 2^32 - 1, which is never below the trip count, so the counter never
 * wraps around to an iteration it already ran. */
__device__ __forceinline__ unsigned p2c_next32(unsigned it, unsigned stride)
{
    return (it < ~stride ? it : ~stride) + stride;
}

/* A trip count the device computed (a worksharing loop in a parallel region)
 * for a 32-bit counter: below 2^32 unless the loop overflows its variable
 * (`i <= INT_MAX`); then the kernel stops (the launch fails and the host
 * reports it) rather than run a counter that wraps around. */
__device__ __forceinline__ unsigned p2c_trip32(unsigned long long trip)
{
    if (trip > 0xffffffffull) {
#if defined(P2C_SIMT_EMULATOR)
        abort();
#elif defined(__CUDA_ARCH__)
        __trap();
#endif
    }
    return (unsigned)trip;
}

/* ---- reduction operators: identity and combine per OpenMP/OpenACC ---- */
template <class T> struct p2c_limits;
#define P2C_LIMITS(T, LO, HI) \
    template <> struct p2c_limits<T> { \
        static __host__ __device__ __forceinline__ T lowest() { return (LO); } \
        static __host__ __device__ __forceinline__ T highest() { return (HI); } \
    };
P2C_LIMITS(bool, false, true)
P2C_LIMITS(signed char, -128, 127)
P2C_LIMITS(unsigned char, 0, 255)
P2C_LIMITS(char, (char)(((char)-1) < 0 ? -128 : 0), (char)(((char)-1) < 0 ? 127 : 255))
P2C_LIMITS(short, -32768, 32767)
P2C_LIMITS(unsigned short, 0, 65535)
P2C_LIMITS(int, -2147483647 - 1, 2147483647)
P2C_LIMITS(unsigned, 0u, 4294967295u)
P2C_LIMITS(long, (long)(~0ul >> 1) * -1 - 1, (long)(~0ul >> 1))
P2C_LIMITS(unsigned long, 0ul, ~0ul)
P2C_LIMITS(long long, -9223372036854775807ll - 1, 9223372036854775807ll)
P2C_LIMITS(unsigned long long, 0ull, ~0ull)
P2C_LIMITS(float, -__builtin_huge_valf(), __builtin_huge_valf())
P2C_LIMITS(double, -__builtin_huge_val(), __builtin_huge_val())
#undef P2C_LIMITS

/* combine(a, b) is C's `a OP b` converted back to T, as `x = x OP y` does in
 * the user's loop (types narrower than int wrap as they do there). */
struct p2c_op_add {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)0; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a + b); }
};
struct p2c_op_mul {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)1; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a * b); }
};
struct p2c_op_max {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return p2c_limits<T>::lowest(); }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a > b ? a : b; }
};
struct p2c_op_min {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return p2c_limits<T>::highest(); }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a < b ? a : b; }
};
struct p2c_op_and {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)-1; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a & b); }
};
struct p2c_op_or {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)0; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a | b); }
};
struct p2c_op_xor {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)0; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a ^ b); }
};
struct p2c_op_land {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)1; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a && b); }
};
struct p2c_op_lor {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)0; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return (T)(a || b); }
};

/* ---- shuffles of every reducible scalar ----
 * __shfl_*_sync exchange 32-bit registers and have native overloads for int,
 * unsigned, long, unsigned long, long long, unsigned long long, float and
 * double (the 64-bit ones are two 32-bit shuffles); narrower types are
 * promoted to int / unsigned and converted back. */
#define P2C_SHFL(T, P) \
    __device__ __forceinline__ T p2c_shfl_down(unsigned mask, T v, unsigned delta, int width) \
    { return (T)__shfl_down_sync(mask, (P)v, delta, width); } \
    __device__ __forceinline__ T p2c_shfl_idx(unsigned mask, T v, int lane) \
    { return (T)__shfl_sync(mask, (P)v, lane); }
P2C_SHFL(bool, int)
P2C_SHFL(char, int)
P2C_SHFL(signed char, int)
P2C_SHFL(unsigned char, unsigned)
P2C_SHFL(short, int)
P2C_SHFL(unsigned short, unsigned)
P2C_SHFL(int, int)
P2C_SHFL(unsigned, unsigned)
P2C_SHFL(long, long)
P2C_SHFL(unsigned long, unsigned long)
P2C_SHFL(long long, long long)
P2C_SHFL(unsigned long long, unsigned long long)
P2C_SHFL(float, float)
P2C_SHFL(double, double)
#undef P2C_SHFL

/* ---- native atomics where the type and operator have one (sm_70+): add on
 * 32/64-bit integers, float and double; min, max, and, or, xor on 32/64-bit
 * integers. 64-bit signed add and bitwise operators go through the unsigned
 * long long atomics (two's complement); long is 64 bits (LP64). */
#define P2C_ATOMIC(NAME, FN, T, U) \
    __device__ __forceinline__ void NAME(T *p, T v) { FN((U *)p, (U)v); }
P2C_ATOMIC(p2c_atomic_add, atomicAdd, int, int)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, unsigned, unsigned)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, long, unsigned long long)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, unsigned long, unsigned long long)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, long long, unsigned long long)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, unsigned long long, unsigned long long)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, float, float)
P2C_ATOMIC(p2c_atomic_add, atomicAdd, double, double)
#define P2C_ATOMIC_INTS(NAME, FN, SIGNED64) \
    P2C_ATOMIC(NAME, FN, int, int) \
    P2C_ATOMIC(NAME, FN, unsigned, unsigned) \
    P2C_ATOMIC(NAME, FN, long, SIGNED64) \
    P2C_ATOMIC(NAME, FN, unsigned long, unsigned long long) \
    P2C_ATOMIC(NAME, FN, long long, SIGNED64) \
    P2C_ATOMIC(NAME, FN, unsigned long long, unsigned long long)
P2C_ATOMIC_INTS(p2c_atomic_max, atomicMax, long long)
P2C_ATOMIC_INTS(p2c_atomic_min, atomicMin, long long)
P2C_ATOMIC_INTS(p2c_atomic_and, atomicAnd, unsigned long long)
P2C_ATOMIC_INTS(p2c_atomic_or, atomicOr, unsigned long long)
P2C_ATOMIC_INTS(p2c_atomic_xor, atomicXor, unsigned long long)
#undef P2C_ATOMIC_INTS
#undef P2C_ATOMIC

/* ---- spin locks of seed 001 (ptx_lock / ptx_unlock): compare-and-swap
 * 0 -> 1, a fence after taking the lock and before releasing it. Correct on
 * sm_70+, whose independent thread scheduling lets a lane wait for another
 * lane of its own warp. ---- */
__device__ __forceinline__ void p2c_lock_pause(void)
{
#if defined(P2C_SIMT_EMULATOR)
    __nanosleep(1000);
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    __nanosleep(32);
#endif
}

__device__ __forceinline__ void p2c_lock_global(unsigned *lock)
{
    while (atomicCAS(lock, 0u, 1u) != 0u)
        p2c_lock_pause();
    __threadfence();
}

__device__ __forceinline__ void p2c_unlock_global(unsigned *lock)
{
    __threadfence();
    atomicExch(lock, 0u);
}

__device__ __forceinline__ void p2c_lock_shared(unsigned *lock)
{
    while (atomicCAS(lock, 0u, 1u) != 0u)
        p2c_lock_pause();
    __threadfence_block();
}

__device__ __forceinline__ void p2c_unlock_shared(unsigned *lock)
{
    __threadfence_block();
    atomicExch(lock, 0u);
}

/* ---- reduction algorithms (seed 000). They are the same for every region:
 * each region's reductions are one generated struct R (seed 000's
 * ReduceData) with static members p2c_identity(), p2c_combine(a, b) (a = a OP
 * b field by field), p2c_down(mask, v, delta, width) and p2c_idx(mask, v,
 * lane) (one shuffle per field) and p2c_load(p) (volatile loads), so several
 * reductions go through each tree in one pass. ---- */

/* The caller's lane, and the lanes of its warp that exist (a partial last warp has fewer). */
__device__ __forceinline__ unsigned p2c_lane(void)
{
    return p2c_thread_id() & 31u;
}

__device__ __forceinline__ unsigned p2c_warp_lanes(void)
{
    unsigned n = p2c_block_threads(), first = p2c_thread_id() & ~31u;
    return n - first < 32u ? n - first : 32u;
}

__device__ __forceinline__ unsigned p2c_lanes_mask(unsigned nlanes)
{
    return nlanes >= 32u ? 0xffffffffu : (1u << nlanes) - 1u;
}

/* The thread count of bar.sync over the whole block: warps count whole. */
__device__ __forceinline__ unsigned p2c_bar_threads(void)
{
    return (p2c_block_threads() + 31u) & ~31u;
}

/* Contiguous tree (seed 000's contiguous partial-warp algorithm, generalised
 * to a segment): the caller's segment holds values in its first `len` lanes,
 * `r` is the caller's lane relative to the segment's start. Offsets `first`,
 * first/2, ..., `last`; a lane whose partner is past the segment keeps its
 * value, so any len works. The segment's value ends in its first lane. Every
 * lane of `mask` calls. */
template <class R>
__device__ __forceinline__ void p2c_tree(R &v, unsigned mask, unsigned r, unsigned len, unsigned first, unsigned last, int width)
{
    for (unsigned off = first; off >= last && off > 0u; off >>= 1) {
        R other = R::p2c_down(mask, v, off, width);
        if (r + off < len)
            R::p2c_combine(v, other);
    }
}

/* Dispersed partial warp (seed 000): the lanes of `active` (any set; all of
 * them call) hold values; the result ends in the lowest of them. Each round
 * every even-ranked live lane takes the value of the next live lane above it;
 * the odd-ranked ones drop out. */
template <class R>
__device__ __forceinline__ void p2c_dispersed(R &v, unsigned active)
{
    unsigned lane = p2c_lane(), live = active;
    while (live & (live - 1u)) {
        unsigned below = lane ? live & (0xffffffffu >> (32u - lane)) : 0u;
        unsigned above = live & ~below & ~(1u << lane);
        bool mine = ((live >> lane) & 1u) && (__popc(below) & 1) == 0;
        int src = above ? __ffs((int)above) - 1 : (int)lane;
        R other = R::p2c_idx(active, v, src);
        if (mine && above)
            R::p2c_combine(v, other);
        live = __ballot_sync(active, mine);
    }
}

/* RED_FINI at VECTOR, a vector of `width` lanes (a power of two up to 32):
 * a shuffle tree in segments of `width` lanes, member mask = the warp's
 * existing lanes; the value ends in lane 0 of each segment. */
template <class R>
__device__ __forceinline__ void p2c_red_vector(R &v, unsigned width)
{
    unsigned lane = p2c_lane(), nl = p2c_warp_lanes(), first = lane & ~(width - 1u);
    unsigned len = nl - first < width ? nl - first : width;
    p2c_tree(v, p2c_lanes_mask(nl), lane - first, len, width >> 1, 1u, (int)width);
}

/* RED_FINI at VECTOR when a vector (threadIdx.x of one threadIdx.y) may
 * straddle warps: each warp's piece of each vector, a contiguous lane range,
 * is reduced into the piece's first lane; p2c_red_block_pieces combines the
 * pieces. */
template <class R>
__device__ __forceinline__ void p2c_red_vector_pieces(R &v)
{
    unsigned tid = p2c_thread_id(), lane = tid & 31u, nl = p2c_warp_lanes();
    unsigned warp0 = tid - lane, vec0 = tid - threadIdx.x;
    unsigned lo = vec0 > warp0 ? vec0 - warp0 : 0u;
    unsigned hi = vec0 + blockDim.x - warp0;
    hi = hi < nl ? hi : nl;
    p2c_tree(v, p2c_lanes_mask(nl), lane - lo, hi - lo, 16u, 1u, 32);
}

/* Whether the caller starts a piece of a vector (see p2c_red_vector_pieces). */
__device__ __forceinline__ bool p2c_red_piece_start(void)
{
    return threadIdx.x == 0u || p2c_lane() == 0u;
}

/* Seed 000's interWarpCpyFn and last step: lane 0 of each warp holds its
 * warp's value; they go through `scratch` (one slot per warp) to warp 0,
 * named barrier 1 counting the block's threads between the steps, and warp
 * 0 reduces them. The block's value ends in thread 0. Every thread calls. */
template <class R>
__device__ inline void p2c_red_masters(R &v, R *scratch)
{
    unsigned tid = p2c_thread_id(), lane = tid & 31u, warp = tid >> 5;
    unsigned nwarps = (p2c_block_threads() + 31u) >> 5;
    if (nwarps == 1u)
        return;
    if (lane == 0u)
        scratch[warp] = v;
    p2c_bar_sync(1u, nwarps << 5);
    if (warp == 0u) {
        if (lane < nwarps)
            v = scratch[lane];
        p2c_tree(v, 0xffffffffu, lane, nwarps, 16u, 1u, 32);
    }
    p2c_bar_sync(1u, nwarps << 5);
}

/* RED_FINI at WORKER (seed 000's block reduction): the threads whose linear
 * id is a multiple of `stride` hold values (1: every thread; after a vector
 * tree of `stride` lanes: lane 0 of each vector). A contiguous tree in each
 * warp over them (offsets 16 .. stride), then the warp masters. */
template <class R>
__device__ inline void p2c_red_block(R &v, R *scratch, unsigned stride)
{
    unsigned nl = p2c_warp_lanes();
    p2c_tree(v, p2c_lanes_mask(nl), p2c_lane(), nl, 16u, stride, 32);
    p2c_red_masters(v, scratch);
}

/* RED_FINI at WORKER after p2c_red_vector_pieces: the piece starts are an
 * arbitrary lane set of each warp (dispersed algorithm), then the warp masters
 * (lane 0 always starts a piece). */
template <class R>
__device__ inline void p2c_red_block_pieces(R &v, R *scratch)
{
    bool start = p2c_red_piece_start();
    unsigned starts = __ballot_sync(p2c_lanes_mask(p2c_warp_lanes()), start);
    if (start)
        p2c_dispersed(v, starts);
    p2c_red_masters(v, scratch);
}

/* RED_FINI at GANG: every thread of every block calls this with its block's
 * value in thread 0. Each block stores its partial; the last block to arrive
 * (counted with atomicInc, which wraps the counter back to 0 for the next
 * launch) reduces the partials in block order, so the result does not depend
 * on scheduling, and folds it into the RESULT objects (res.p2c_fold). No
 * atomics touch the data; no block waits for another, so any number of
 * blocks is correct. */
template <class R, class Res>
__device__ inline void p2c_red_last_block(const R &v, R *partials, unsigned *counter, const Res &res, R *scratch)
{
    __shared__ int p2c_is_last;
    unsigned tid = p2c_thread_id(), n = p2c_block_threads();
    if (tid == 0u) {
        partials[blockIdx.x] = v;
        __threadfence();
        unsigned ticket = atomicInc(counter, gridDim.x - 1u);
        p2c_is_last = ticket == gridDim.x - 1u;
    }
    p2c_bar_sync(1u, p2c_bar_threads());
    if (!p2c_is_last)
        return;
    __threadfence();
    R acc = R::p2c_identity();
    P2C_NO_UNROLL
    for (unsigned b = tid; b < gridDim.x; b += n)
        R::p2c_combine(acc, R::p2c_load(partials + b));
    p2c_red_block(acc, scratch, 1u);
    if (tid == 0u)
        res.p2c_fold(acc);
}

/* p2c_red_last_block for blocks of a single thread (gang-only loops): the
 * same scheme with no block tree and no barrier. */
template <class R, class Res>
__device__ inline void p2c_red_last_block_1(const R &v, R *partials, unsigned *counter, const Res &res)
{
    partials[blockIdx.x] = v;
    __threadfence();
    if (atomicInc(counter, gridDim.x - 1u) != gridDim.x - 1u)
        return;
    __threadfence();
    R acc = R::p2c_identity();
    P2C_NO_UNROLL
    for (unsigned b = 0; b < gridDim.x; b++)
        R::p2c_combine(acc, R::p2c_load(partials + b));
    res.p2c_fold(acc);
}

/* RED_INIT at GANG of an array reduction: the block's private copies of the
 * section (n threads x len elements, contiguous, thread t's at t * len) set
 * to OP's identity by all the block's threads together, consecutive threads
 * writing consecutive elements: coalesced stores, where each thread filling
 * its own copy would store with a stride of len elements between the lanes
 * of a warp. Named barrier 1 then makes every copy complete before any thread
 * starts its loop. Returns the caller's copy. Every thread of the block calls. */
template <class Op, class T>
__device__ inline T *p2c_red_array_init(T *copies, long long len)
{
    unsigned tid = p2c_thread_id(), n = p2c_block_threads();
    unsigned long long ulen = len > 0 ? (unsigned long long)len : 0ull;
    T *block = copies + (unsigned long long)blockIdx.x * n * ulen;
    unsigned long long total = (unsigned long long)n * ulen;
    for (unsigned long long e = tid; e < total; e += n)
        block[e] = Op::template identity<T>();
    p2c_bar_sync(1u, p2c_bar_threads());
    return block + (unsigned long long)tid * ulen;
}

/* RED_FINI at GANG of an array reduction (reduction(OP: a[lo:len]) or a whole
 * array; one RID covers the section): every thread of every block reduced into
 * its own private copy, copies + (block * threads + thread) * len, which
 * RED_INIT filled with OP's identity. Every thread of every block calls this
 * after the loop. Each block combines its threads' copies element by element,
 * in thread order, into its thread 0's copy; the last block to arrive
 * (atomicInc, as p2c_red_last_block) folds the blocks' copies, in block
 * order, into res[0 .. len) (the section of the device copy). Elements are
 * spread over the block's threads; no atomics touch the data, no block waits
 * for another, and the result does not depend on scheduling. */
template <class Op, class T>
__device__ inline void p2c_red_array(T *res, T *copies, long long len, unsigned *counter)
{
    __shared__ int p2c_is_last;
    unsigned tid = p2c_thread_id(), n = p2c_block_threads();
    unsigned long long ulen = (unsigned long long)len;
    T *block = copies + (unsigned long long)blockIdx.x * n * ulen;
    p2c_bar_sync(1u, p2c_bar_threads()); /* every thread's copy is complete */
    for (unsigned long long k = tid; k < ulen; k += n) {
        T acc = block[k];
        /* Unrolled by 2, not 4 (nvcc's choice, the four loads first), here
         * and in the last block's fold below: these loops were the peak of
         * generic-mode kernels with array reductions over the teams (32
         * registers, 29 to 30 by 2; ptxas -v sm_90, BENCHMARKS.md). They run
         * once per launch. */
        P2C_UNROLL_2
        for (unsigned t = 1u; t < n; t++)
            acc = Op::template combine<T>(acc, block[t * ulen + k]);
        block[k] = acc;
    }
    __threadfence();
    p2c_bar_sync(1u, p2c_bar_threads()); /* the block's copy is written and visible */
    if (tid == 0u)
        p2c_is_last = atomicInc(counter, gridDim.x - 1u) == gridDim.x - 1u;
    p2c_bar_sync(1u, p2c_bar_threads());
    if (!p2c_is_last)
        return;
    __threadfence();
    for (unsigned long long k = tid; k < ulen; k += n) {
        T acc = res[k];
        P2C_UNROLL_2
        for (unsigned b = 0u; b < gridDim.x; b++)
            acc = Op::template combine<T>(acc, *(volatile T *)(copies + (unsigned long long)b * n * ulen + k));
        res[k] = acc;
    }
}
} /* namespace p2c_prelude_2 */
/* ---- end of device prelude ---- */
