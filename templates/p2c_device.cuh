/* ---- pragma2cuda device prelude (templates/p2c_device.cuh) ----------------
 * Every target-specific primitive the generated kernels use goes through this
 * prelude: on a GPU they are PTX or CUDA built-ins, under the CPU SIMT
 * emulator (-DP2C_SIMT_EMULATOR) they are the emulator's p2c_sim_* hooks. The
 * reduction trees below are the same code on both.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(P2C_SIMT_EMULATOR)
#define P2C_LAUNCH(kernel, grid, block, shmem) p2c_sim_launch((kernel), (grid), (block), (shmem))
#else
#define P2C_LAUNCH(kernel, grid, block, shmem) kernel<<<(grid), (block), (shmem)>>>
#endif

/* Every helper is an inline function or variable (no unused-static warnings,
 * one copy per program when several translated files are linked together),
 * inside a namespace named after the prelude's version so that files from
 * different pragma2cuda versions never share a definition. */
inline namespace p2c_prelude_1 {

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

/* ---- reduction operators: identity and combine per OpenMP/OpenACC ---- */
template <class T> struct p2c_limits;
#define P2C_LIMITS(T, LO, HI) \
    template <> struct p2c_limits<T> { \
        static __host__ __device__ __forceinline__ T lowest() { return (LO); } \
        static __host__ __device__ __forceinline__ T highest() { return (HI); } \
    };
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

struct p2c_op_add {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)0; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a + b; }
};
struct p2c_op_mul {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return (T)1; }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a * b; }
};
struct p2c_op_max {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return p2c_limits<T>::lowest(); }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a > b ? a : b; }
};
struct p2c_op_min {
    template <class T> static __host__ __device__ __forceinline__ T identity() { return p2c_limits<T>::highest(); }
    template <class T> static __host__ __device__ __forceinline__ T combine(T a, T b) { return a < b ? a : b; }
};

/* ---- reduction trees (seed 000: warp shuffle, then warp masters through
 * shared memory, then a last-block combine of per-block partials) ---- */

/* Contiguous (partial) warp: lanes [0, nlanes) of `mask` hold values; the
 * result ends in lane 0. A lane whose partner is past nlanes keeps its value. */
template <class Op, class T>
__device__ __forceinline__ T p2c_warp_reduce(T v, unsigned mask, unsigned nlanes)
{
    unsigned lane = p2c_thread_id() & 31u;
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
        T other = __shfl_down_sync(mask, v, offset);
        if (lane + offset < nlanes)
            v = Op::template combine<T>(v, other);
    }
    return v;
}

/* Every thread of the block calls this; the result is valid in thread 0.
 * `scratch` is a __shared__ array of at least 32 elements. */
template <class Op, class T>
__device__ inline T p2c_block_reduce(T v, T *scratch)
{
    unsigned tid = p2c_thread_id(), n = p2c_block_threads();
    unsigned warp = tid >> 5, lane = tid & 31u, nwarps = (n + 31u) >> 5;
    unsigned nlanes = n - (warp << 5) < 32u ? n - (warp << 5) : 32u;
    unsigned mask = nlanes == 32u ? 0xffffffffu : ((1u << nlanes) - 1u);
    v = p2c_warp_reduce<Op, T>(v, mask, nlanes);
    if (nwarps == 1)
        return v;
    if (lane == 0)
        scratch[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < nwarps ? scratch[lane] : Op::template identity<T>();
        v = p2c_warp_reduce<Op, T>(v, mask, nwarps);
    }
    __syncthreads();
    return v;
}

/* Gang level: every thread of every block calls this with its block's value
 * (valid in thread 0). Each block stores its partial; the last block to
 * arrive (counted with atomicInc, which wraps the counter back to 0 for the
 * next launch) combines the partials in block order, so the result does not
 * depend on scheduling, and folds it into *result. No atomics touch the data. */
template <class Op, class T>
__device__ inline void p2c_grid_reduce(T block_value, T *partials, unsigned *counter, T *result, T *scratch)
{
    __shared__ int p2c_is_last;
    unsigned tid = p2c_thread_id(), n = p2c_block_threads();
    if (tid == 0) {
        partials[blockIdx.x] = block_value;
        __threadfence();
        unsigned ticket = atomicInc(counter, gridDim.x - 1u);
        p2c_is_last = (ticket == gridDim.x - 1u);
    }
    __syncthreads();
    if (!p2c_is_last)
        return;
    __threadfence();
    T acc = Op::template identity<T>();
    for (unsigned b = tid; b < gridDim.x; b += n)
        acc = Op::template combine<T>(acc, ((volatile T *)partials)[b]);
    acc = p2c_block_reduce<Op, T>(acc, scratch);
    if (tid == 0)
        *result = Op::template combine<T>(*result, acc);
}
} /* namespace p2c_prelude_1 */
/* ---- end of device prelude ---- */
