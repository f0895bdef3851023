/* ---- pragma2cuda generic mode (templates/p2c_generic.cuh) ------------------
 * Regions with sequential code around nested parallel constructs (seed 002).
 * Thread 0 of each block runs the sequential part; at a parallel construct
 * it writes one shared word (region id, team size) and meets the other
 * threads at named barrier 1 (fork); every thread runs the selected region,
 * then all meet at named barrier 2 (join); barrier 3 is the team barrier
 * inside a region, barrier 4 (every thread of the block) lets the team's
 * thread 0 read the warps' reduction values at the end of a region, barrier
 * 0 stays __syncthreads'. Variables the sequential part shares with parallel
 * regions live in the team's frame: a __shared__ byte array laid out by the
 * translator, or the team's slice of a global stack.
 */
#include <assert.h>

inline namespace p2c_prelude_1 {

/* barrier.sync Id, count: the unaligned form of bar.sync (PTX ISA 6.0,
 * sm_70 and later). bar.sync is barrier.sync.aligned, which requires every
 * thread of a warp to execute the same barrier instruction; at a fork the
 * team's initial thread (lane 0 of warp 0) reaches the barrier from the
 * sequential code while the other lanes of its warp wait in the workers'
 * loop. The unaligned barrier waits for the non-exited threads of the warp
 * wherever they arrive from and then counts the warp, which is also what the
 * emulator's p2c_sim_bar_sync does. `count` is a multiple of 32. */
template <unsigned Id>
__device__ __forceinline__ void p2c_barrier_sync(unsigned count)
{
#if defined(P2C_SIMT_EMULATOR)
    p2c_sim_bar_sync(Id, count);
#elif defined(__CUDA_ARCH__)
    /* The id is an immediate, so ptxas counts only the barriers used. */
    asm volatile("barrier.sync %0, %1;" : : "n"(Id), "r"(count) : "memory");
#else
    (void)count;
#endif
}

/* The fork word: region id in the low 16 bits, team size in the high 16. */
__device__ __forceinline__ unsigned p2c_fork_word(unsigned region, unsigned threads)
{
    return (threads << 16) | region;
}

__device__ __forceinline__ unsigned p2c_fork_region(unsigned word)
{
    return word & 0xffffu;
}

__device__ __forceinline__ unsigned p2c_fork_threads(unsigned word)
{
    return word >> 16;
}

/* num_threads(requested) in a team of at most `limit` threads. */
__device__ __forceinline__ unsigned p2c_team_size(long long requested, unsigned limit)
{
    return requested < 1 ? 1u : (requested > (long long)limit ? limit : (unsigned)requested);
}

/* A team of n threads whose last warp is partial (n > 32, n % 32 != 0).
 * A named barrier counts whole warps: a thread arriving at it waits for
 * every non-exited thread of its warp (PTX ISA, barrier), so a named barrier
 * cannot hold the team's threads alone. Such a team's barriers are a
 * software barrier in shared memory over its whole warps (p2c_team_phase_or):
 * the lanes of the last warp beyond the team take part in every phase with a
 * false predicate (p2c_team_idle) until the team's threads end the region
 * with a true one (p2c_team_release). The idle lanes spin rather than wait at
 * a named barrier: on an H200, lanes idling at `barrier.red` while the team's
 * lanes of their warp shuffle between two phases hung the warp or stopped the
 * kernel with an illegal instruction at the next named barrier. */
__device__ __forceinline__ bool p2c_team_partial(unsigned n)
{
    return n > 32u && n % 32u != 0u;
}

__device__ __forceinline__ unsigned p2c_team_warps_threads(unsigned n)
{
    return (n + 31u) & ~31u;
}

/* The software barrier's state, one per block: arrivals in this phase, the
 * phase number, the OR of this phase's predicates, the last phase's result. */
struct p2c_team_phases {
    unsigned count, gen, any, result;
};

__device__ __forceinline__ p2c_team_phases *p2c_team_phase_state()
{
    __shared__ p2c_team_phases state;
    return &state;
}

/* One phase among `count` threads: waits until all have arrived and returns
 * whether any passed a true predicate (what barrier.red.or does), with the
 * memory ordering of a barrier among them. The last to arrive resets the
 * count and publishes the result, then starts the next phase. */
__device__ __forceinline__ bool p2c_team_phase_or(unsigned count, bool pred)
{
    p2c_team_phases *s = p2c_team_phase_state();
    const unsigned gen = atomicAdd(&s->gen, 0u);
    if (pred)
        atomicOr(&s->any, 1u);
    __threadfence_block(); /* this thread's writes before its arrival */
    if (atomicAdd(&s->count, 1u) == count - 1u) {
        __threadfence_block();
        *(volatile unsigned *)&s->result = atomicExch(&s->any, 0u);
        atomicExch(&s->count, 0u);
        __threadfence_block();
        atomicAdd(&s->gen, 1u);
    } else {
        while (atomicAdd(&s->gen, 0u) == gen)
            p2c_lock_pause();
    }
    __threadfence_block(); /* the others' writes before theirs */
    return *(volatile unsigned *)&s->result != 0u;
}

/* Every thread of the team's warps at the start of a region with team
 * barriers: thread 0 zeroes the software barrier of a partial team, and a
 * named barrier over the whole warps (no lane busy elsewhere yet) publishes it. */
__device__ __forceinline__ void p2c_team_enter(unsigned tid, unsigned n)
{
    if (p2c_team_partial(n) && tid < p2c_team_warps_threads(n)) {
        if (tid == 0u) {
            p2c_team_phases *s = p2c_team_phase_state();
            s->count = 0u;
            s->any = 0u;
        }
        p2c_barrier_sync<3>(p2c_team_warps_threads(n));
    }
}

/* Barrier among threads 0 .. n-1 of a parallel region (the others wait at
 * the join): a warp-level barrier when they fit in warp 0, named barrier 3
 * when they are whole warps, and with a partial last warp the software
 * barrier over the whole warps with that warp's idle lanes. */
__device__ __forceinline__ void p2c_team_barrier(unsigned n)
{
    if (n <= 1u)
        return;
    if (n <= 32u) {
        __syncwarp(n == 32u ? 0xffffffffu : ((1u << n) - 1u));
        return;
    }
    if (p2c_team_partial(n)) {
        (void)p2c_team_phase_or(p2c_team_warps_threads(n), false);
        return;
    }
    p2c_barrier_sync<3>(n);
}

/* The team's threads, at the end of a region with team barriers: releases
 * the idle lanes of a partial last warp. */
__device__ __forceinline__ void p2c_team_release(unsigned n)
{
    if (p2c_team_partial(n))
        (void)p2c_team_phase_or(p2c_team_warps_threads(n), true);
}

/* A thread beyond the team (tid >= n) of a region with team barriers: the
 * lanes of a partial last warp take part in every team barrier until the
 * release. */
__device__ __forceinline__ void p2c_team_idle(unsigned tid, unsigned n)
{
    if (p2c_team_partial(n) && tid < p2c_team_warps_threads(n))
        while (!p2c_team_phase_or(p2c_team_warps_threads(n), false)) {
        }
}

/* Lane 0 of each warp of the team: the warp's value `v` (after the trees)
 * into slots[warp]. */
template <class R>
__device__ __forceinline__ void p2c_team_red_store(const R &v, R *slots, unsigned tid)
{
    if ((tid & 31u) == 0u)
        slots[tid >> 5] = v;
}

/* reduction(...) on a construct whose threads are threads 0 .. n-1 of the
 * block (a parallel region's team): every one of them calls this with its
 * private copies packed in `v` (a reduction data struct, see the device
 * prelude). A shuffle tree in each warp over the warp's team lanes (a
 * contiguous range from lane 0), then lane 0 of each warp stores the warp's
 * value in slots[warp] (p2c_team_red_store). The lanes beyond the team are
 * waiting elsewhere (at the join); the member mask leaves them out. The
 * generated code uses it for values whose fields combine together
 * (p2c_lastcond, complex variables); other reductions take one
 * p2c_team_warp_tree per variable. */
template <class R>
__device__ inline void p2c_team_red_warps(R &v, R *slots, unsigned tid, unsigned n)
{
    unsigned lane = tid & 31u, first = tid - lane;
    unsigned len = n - first < 32u ? n - first : 32u, mask = p2c_lanes_mask(len);
    /* p2c_tree's steps, not unrolled: unrolled, the five shuffles of every
     * reduction were the peak of generic-mode kernels (ptxas -v, sm_90:
     * omp_orphan_reduction_small main_L45 30 registers, 27 not unrolled;
     * omp_generic_reduction main_L44 35, 31). It runs once per construct. */
    P2C_NO_UNROLL
    for (unsigned off = 16u; off > 0u; off >>= 1) {
        R other = R::p2c_down(mask, v, off, 32);
        if (lane + off < len)
            R::p2c_combine(v, other);
    }
    p2c_team_red_store(v, slots, tid);
}

/* p2c_team_red_warps' tree for one reduction variable `x` of type T and
 * operator Op (a functor of the device prelude), in place: after it, lane 0
 * of each warp holds the warp's value (same steps, same order of combines).
 * One tree per variable instead of one tree of the packed value: ptxas keeps
 * every field and its shuffled partner live at once in the packed tree
 * (sm_90: omp_target_parallel_reduction main_L54, eight variables, 32
 * registers; 24 with one tree per variable). It runs once per construct. */
template <class Op, class T>
__device__ __forceinline__ void p2c_team_warp_tree(T &x, unsigned tid, unsigned n)
{
    unsigned lane = tid & 31u, first = tid - lane;
    unsigned len = n - first < 32u ? n - first : 32u, mask = p2c_lanes_mask(len);
    P2C_NO_UNROLL
    for (unsigned off = 16u; off > 0u; off >>= 1) {
        T other = p2c_shfl_down(mask, x, off, 32);
        if (lane + off < len)
            x = Op::template combine<T>(x, other);
    }
}

/* The team's value: the warps' values in warp order. The caller (thread 0)
 * reads the slots after a barrier that orders the stores before it. The
 * loop is not unrolled: with a run-time team size nvcc unrolled it by 16
 * and loaded every slot first (sm_90: omp_target_parallel_reduction
 * main_L87, 29 registers; 18 not unrolled). It runs once per construct. */
template <class R>
__device__ inline R p2c_team_red_value(const R *slots, unsigned n)
{
    R acc = slots[0];
    P2C_NO_UNROLL
    for (unsigned w = 1u; w < (n + 31u) >> 5; w++)
        R::p2c_combine(acc, slots[w]);
    return acc;
}

/* lastprivate(conditional:) in a parallel region: a thread's last assigning
 * iteration (iteration + 1; 0 when it never assigned) and its value.
 * Combining keeps the later iteration, so the team's reduction trees
 * (p2c_team_red_warps, p2c_team_red_value) end with the value of the last
 * iteration that assigned the variable. T is an arithmetic scalar. */
template <class T>
struct p2c_lastcond {
    unsigned long long mine;
    T value;
    __device__ static __forceinline__ void p2c_combine(p2c_lastcond &a, const p2c_lastcond &b)
    {
        if (b.mine > a.mine)
            a = b;
    }
    __device__ static __forceinline__ p2c_lastcond p2c_down(unsigned mask, const p2c_lastcond &v, unsigned delta, int width)
    {
        p2c_lastcond o;
        o.mine = p2c_shfl_down(mask, v.mine, delta, width);
        o.value = p2c_shfl_down(mask, v.value, delta, width);
        return o;
    }
};

/* A variable of the team's frame at `at`. */
template <class T>
__device__ __forceinline__ T &p2c_staged(unsigned char *at)
{
    return *reinterpret_cast<T *>(at);
}

/* The same, initialised (declaration with an initializer). */
template <class T>
__device__ __forceinline__ T &p2c_staged_init(unsigned char *at, const T &value)
{
    memcpy(at, &value, sizeof(T));
    return *reinterpret_cast<T *>(at);
}

/* A variable-length array of the sequential part that parallel regions use:
 * its elements live on the device heap (global memory) while the master is
 * in its block; the team's frame holds its address. */
template <class T>
struct p2c_vla {
    T *data;
    __device__ explicit p2c_vla(size_t n) : data((T *)malloc(n ? n * sizeof(T) : 1))
    {
        assert(data && "pragma2cuda: the device heap cannot hold a variable-length array");
    }
    __device__ ~p2c_vla() { free(data); }
    p2c_vla(const p2c_vla &) = delete;
    p2c_vla &operator=(const p2c_vla &) = delete;
};

/* Array reductions over the threads of a team (reduction(OP: a[lo:len]) on a
 * parallel region or a worksharing loop in one): the host allocates one
 * private copy of the section per thread of every block before the launch
 * (emit/array_team_area.rs); each thread fills its copy with OP's identity
 * and reduces into it. */

/* Values a parallel region computes from the kernel's parameters, computed
 * at each fork. The workers run the parallel-region function in a loop, and
 * nvcc and ptxas compute every expression of it that does not depend on the
 * fork word once, before that loop, keeping the result in registers through
 * every region (an array reduction's bounds, 64-bit length and block slice:
 * 38 registers instead of 29 for a one-team section max, BENCHMARKS.md).
 * p2c_fork_zero(work) is 0 (bits 27..31 of a fork word: a team has at most
 * 1024 threads) but opaque to both compilers (a volatile asm: neither
 * hoisted nor merged with another one), and p2c_per_fork(v, zero) is v
 * computed from it (unsigned arithmetic in v's type, which the compilers
 * cannot split to hoist a part), so what is built on it is computed where
 * it is written, and again where it is written again. The translator uses
 * them for values that name a variable (a constant needs no register). */
__device__ __forceinline__ unsigned p2c_fork_zero(unsigned work)
{
#if defined(__CUDA_ARCH__) && !defined(P2C_SIMT_EMULATOR)
    unsigned zero;
    asm volatile("shr.u32 %0, %1, 27;" : "=r"(zero) : "r"(work));
    return zero;
#else
    (void)work;
    return 0u;
#endif
}

__device__ __forceinline__ int p2c_per_fork(int v, unsigned zero)
{
    return (int)((unsigned)v + zero);
}

__device__ __forceinline__ unsigned p2c_per_fork(unsigned v, unsigned zero)
{
    return v + zero;
}

__device__ __forceinline__ long p2c_per_fork(long v, unsigned zero)
{
    return (long)((unsigned long)v + zero);
}

__device__ __forceinline__ unsigned long p2c_per_fork(unsigned long v, unsigned zero)
{
    return v + zero;
}

__device__ __forceinline__ long long p2c_per_fork(long long v, unsigned zero)
{
    return (long long)((unsigned long long)v + zero);
}

__device__ __forceinline__ unsigned long long p2c_per_fork(unsigned long long v, unsigned zero)
{
    return v + zero;
}

/* Other types (char, short, enums): the value itself. */
template <class T>
__device__ __forceinline__ T p2c_per_fork(T v, unsigned zero)
{
    (void)zero;
    return v;
}

/* After a barrier: threads tid = 0 .. threads-1 combine the team's copies
 * (copies + t * len for thread t < team) element by element, in thread order,
 * into res[0 .. len) (the original section); elements are spread over the
 * threads, so no atomics touch the data and the result does not depend on
 * scheduling. A barrier must follow before the copies are freed. */
template <class Op, class T>
__device__ inline void p2c_team_red_array(T *res, const T *copies, unsigned team, long long len, unsigned tid,
                                          unsigned threads)
{
    unsigned long long ulen = len > 0 ? (unsigned long long)len : 0ull;
    for (unsigned long long k = tid; k < ulen; k += threads) {
        T acc = res[k];
        /* Not unrolled: nvcc unrolled this loop by 4 with the four loads first,
         * the peak of the kernels of one-team array reductions (ptxas -v:
         * 32 registers, 24 to 31 without; BENCHMARKS.md). It runs once per
         * element at the end of the construct. */
        P2C_NO_UNROLL
        for (unsigned t = 0u; t < team; t++)
            acc = Op::template combine<T>(acc, copies[t * ulen + k]);
        res[k] = acc;
    }
}

/* lastprivate(conditional:): the thread whose last assigning iteration
 * (`mine`, iteration + 1; 0 when it never assigned) is the highest writes its
 * value. scratch[0] holds the highest iteration so far, scratch[1] a lock;
 * both start at 0 (p2c_lastprivate_scratch). */
template <class T>
__device__ inline void p2c_lastprivate_cond(T *dst, unsigned long long *scratch, unsigned long long mine, T value)
{
    if (mine == 0)
        return;
    unsigned *lock = (unsigned *)(scratch + 1);
    while (atomicCAS(lock, 0u, 1u) != 0u) {
    }
    __threadfence();
    if (mine > *(volatile unsigned long long *)scratch) {
        *(volatile unsigned long long *)scratch = mine;
        *(volatile T *)dst = value;
    }
    __threadfence();
    atomicExch(lock, 0u);
}

/* Host: zeroed scratch for lastprivate(conditional:) variable `slot` of the
 * next launch (launches are synchronous, so slots are reused). */
enum { P2C_MAX_LASTPRIVATE = 64 };
inline unsigned long long *p2c_lastprivate_buf;

inline unsigned long long *p2c_lastprivate_scratch(unsigned slot, const char *where)
{
    if (slot >= P2C_MAX_LASTPRIVATE)
        p2c_fail(where, "too many lastprivate(conditional:) variables in one region", NULL);
    if (!p2c_lastprivate_buf)
        p2c_check(cudaMalloc((void **)&p2c_lastprivate_buf, 2 * P2C_MAX_LASTPRIVATE * sizeof(unsigned long long)), where, "cudaMalloc");
    p2c_check(cudaMemset(p2c_lastprivate_buf + 2 * slot, 0, 2 * sizeof(unsigned long long)), where, "cudaMemset");
    return p2c_lastprivate_buf + 2 * slot;
}

/* Host: the per-team stack in global memory for the staged variables that
 * do not fit the shared-memory budget; one buffer grown as needed and
 * reused by every launch (launches are synchronous). */
inline unsigned char *p2c_team_stack_buf;
inline size_t p2c_team_stack_bytes;

inline unsigned char *p2c_team_stack(size_t per_team, unsigned teams, const char *where)
{
    size_t need = per_team * (size_t)teams;
    if (need > p2c_team_stack_bytes) {
        if (p2c_team_stack_buf)
            p2c_check(cudaFree(p2c_team_stack_buf), where, "cudaFree");
        p2c_check(cudaMalloc((void **)&p2c_team_stack_buf, need), where, "cudaMalloc");
        p2c_team_stack_bytes = need;
    }
    return p2c_team_stack_buf;
}
} /* namespace p2c_prelude_1 */
/* ---- end of generic mode ---- */
