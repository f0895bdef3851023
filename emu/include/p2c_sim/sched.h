// pragma2cuda SIMT emulator: threads, blocks, barriers and warp collectives.
//
// One OS thread runs one CUDA thread of a block. A launch wakes blockDim threads of a
// persistent pool per block slot (P2C_SIM_CONCURRENT_BLOCKS slots, default 1); the threads
// of a slot run their thread of one block after another, with a block-end barrier between
// blocks, and take the next block of the grid (in increasing order) when one ends. With
// one slot blocks never overlap and __shared__ statics are safe; with several, blocks run
// at once as on a GPU and __shared__ variables live per slot (block_shared below).
// Every wait sleeps on a futex (no busy spinning) and every wait inside a kernel has a
// deadline: past it the emulator prints who waited where and aborts.
#pragma once
#pragma GCC system_header

#ifndef P2C_SIM_YIELDS
#define P2C_SIM_YIELDS 2
#endif

// P2C_SIM_FIBERS=1 (the default): the threads of a block are fibers of one OS thread
// (fiber.h), switched at every barrier, warp collective and spin-wait point. 0: one OS
// thread per CUDA thread (the default under ThreadSanitizer, which then sees real threads).
#ifndef P2C_SIM_FIBERS
#ifdef __SANITIZE_THREAD__
#define P2C_SIM_FIBERS 0
#else
#define P2C_SIM_FIBERS 1
#endif
#endif

namespace p2c_sim {

// ---- diagnostics ----------------------------------------------------------------------
[[noreturn]] inline void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] inline void fail(const char *fmt, ...) {
    static std::mutex m;
    std::lock_guard<std::mutex> g(m);
    std::fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    std::fputs("p2c-sim: error: ", stderr);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::fflush(stderr);
    std::abort();
}

// Seconds a thread may wait at a barrier or warp primitive before it is called a deadlock.
inline double deadlock_seconds() {
    static const double s = [] {
        const char *e = std::getenv("P2C_SIM_DEADLOCK_SECONDS");
        double v = e ? std::atof(e) : 0.0;
        return v > 0.0 ? v : 10.0;
    }();
    return s;
}

// How much slower than an idle machine this one runs now: the 1-minute load average per
// online CPU, at least 1, at most 30. A wait is called a deadlock only after
// deadlock_seconds() times this factor, so a loaded machine (a 2-core CI machine running
// hundreds of emulator threads beside other jobs) does not turn slowness into a deadlock.
inline double load_factor() {
    double load = 0.0;
    if (FILE *f = std::fopen("/proc/loadavg", "r")) {
        if (std::fscanf(f, "%lf", &load) != 1) load = 0.0;
        std::fclose(f);
    }
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const double r = cpus > 0 ? load / static_cast<double>(cpus) : 1.0;
    return r < 1.0 ? 1.0 : (r > 30.0 ? 30.0 : r);
}

// Why a wait is called a deadlock, for the message (set just before describing it).
inline thread_local char deadlock_reason[128] = "";
inline const char *deadlock_why() { return deadlock_reason; }
inline void set_deadlock_why_timeout() {
    std::snprintf(deadlock_reason, sizeof deadlock_reason, "waited more than %g s",
                  deadlock_seconds());
}

// ---- futex ----------------------------------------------------------------------------
static_assert(sizeof(std::atomic<uint32_t>) == sizeof(uint32_t));

inline void futex_wake_all(std::atomic<uint32_t> *a) {
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(a), FUTEX_WAKE_PRIVATE, INT_MAX, nullptr,
            nullptr, 0);
}

inline void futex_wait(std::atomic<uint32_t> *a, uint32_t old, const struct timespec *ts) {
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(a), FUTEX_WAIT_PRIVATE, old, ts, nullptr, 0);
}

// Yielding a few times first is much cheaper than sleeping when the threads we wait for
// are runnable and only need the CPU (hundreds of threads on a few cores).
inline bool yield_while_equal(std::atomic<uint32_t> &a, uint32_t old) {
    for (int i = 0; i < P2C_SIM_YIELDS; ++i) {
        if (a.load(std::memory_order_acquire) != old) return true;
        sched_yield();
    }
    return a.load(std::memory_order_acquire) != old;
}

// Sleeps while *a == old. Without a describer it waits forever; with one, it calls
// describer() (which reports and aborts) once the deadlock deadline has passed.
template <class Describe>
inline void wait_while_equal(std::atomic<uint32_t> &a, uint32_t old, Describe &&describe) {
    using clock = std::chrono::steady_clock;
    if (yield_while_equal(a, old)) return;
    const auto start = clock::now();
    auto allowed = [&](double factor) {
        return start + std::chrono::duration_cast<clock::duration>(
                           std::chrono::duration<double>(deadlock_seconds() * factor));
    };
    auto deadline = allowed(1.0);
    while (a.load(std::memory_order_acquire) == old) {
        auto now = clock::now();
        if (now >= deadline) {
            // Past the limit: scaled by the machine's load it may not be a deadlock yet.
            deadline = allowed(load_factor());
            if (now >= deadline) {
                set_deadlock_why_timeout();
                describe();
            }
        }
        auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline - now);
        if (left > std::chrono::seconds(1)) left = std::chrono::seconds(1);
        struct timespec ts;
        ts.tv_sec = static_cast<time_t>(left.count() / 1000000000);
        ts.tv_nsec = static_cast<long>(left.count() % 1000000000);
        futex_wait(&a, old, &ts);
    }
}

inline void wait_forever_while_equal(std::atomic<uint32_t> &a, uint32_t old) {
    if (yield_while_equal(a, old)) return;
    while (a.load(std::memory_order_acquire) == old) futex_wait(&a, old, nullptr);
}

// ---- per-launch state -----------------------------------------------------------------
constexpr unsigned kMaxThreads = 1024;
constexpr unsigned kMaxWarps = kMaxThreads / 32;
constexpr unsigned kNamedBarriers = 16;
constexpr size_t kMaxShared = 48 * 1024;

// PTX named barrier: arrival is counted per warp (a warp has arrived when all its
// non-exited threads have); the barrier completes when count/32 warps have arrived.
struct NamedBarrier {
    std::mutex m;
    unsigned expected = 0;            // thread count of the phase in progress; 0 = idle
    bool all_threads = false;         // phase started by __syncthreads*
    unsigned warps_arrived = 0;
    unsigned lanes[kMaxWarps] = {};   // lanes of each warp that arrived this phase
    unsigned counted[kMaxWarps / 32] = {};  // bit per warp: arrival already counted
    unsigned red_count = 0, red_and = 1, red_or = 0;  // __syncthreads_count/and/or
    unsigned result_count[2] = {}, result_and[2] = {}, result_or[2] = {};
    std::atomic<uint32_t> gen{0};

    void reset() {
        expected = 0;
        all_threads = false;
        warps_arrived = 0;
        std::memset(lanes, 0, sizeof lanes);
        std::memset(counted, 0, sizeof counted);
        red_count = 0, red_and = 1, red_or = 0;
    }
};

enum class WarpOp : int { Sync, Shfl, Vote, Match, Reduce };

inline const char *warp_op_name(WarpOp op) {
    switch (op) {
    case WarpOp::Sync: return "__syncwarp";
    case WarpOp::Shfl: return "__shfl*_sync";
    case WarpOp::Vote: return "__ballot_sync/__any_sync/__all_sync";
    case WarpOp::Match: return "__match_*_sync";
    case WarpOp::Reduce: return "__reduce_*_sync";
    }
    return "?";
}

// One pending warp collective: the lanes of `mask` deposit a value each; once all have,
// every one of them reads the deposits; the last reader frees the slot. A lane is in at
// most one slot at a time, so 32 slots per warp always suffice.
struct WarpSlot {
    bool in_use = false;
    WarpOp op = WarpOp::Sync;
    unsigned mask = 0, arrived = 0, readers = 0;
    std::atomic<uint32_t> done{0};
    uint64_t vals[32] = {};
};

struct Warp {
    std::mutex m;
    unsigned existing = 0;                  // lanes that exist (partial last warp)
    std::atomic<uint32_t> exited{0};        // lanes whose kernel returned (this block)
    std::atomic<uint32_t> pending{0};       // slots still waiting for lanes
    WarpSlot slots[32];
};

constexpr unsigned kSlots = P2C_SIM_CONCURRENT_BLOCKS;

// The state of one running block (one slot of concurrently running blocks).
struct Block {
    unsigned index = 0;                     // slot number
    unsigned nwarps = 0;
    unsigned long long current = 0;         // the block it runs; >= nblocks: none left
    unsigned char *dyn_shared = nullptr;
    NamedBarrier bars[kNamedBarriers];
    Warp warps[kMaxWarps];
    std::atomic<uint32_t> exited_threads{0};
    std::atomic<uint32_t> pending_bars{0};  // bit per barrier with a phase in progress
    std::atomic<uint32_t> end_arrived{0};
    std::atomic<uint32_t> end_gen{0};

    // Called by the last thread to finish a block, while all others wait for end_gen.
    void reset_block() {
        for (auto &b : bars) b.reset();
        for (unsigned w = 0; w < nwarps; ++w) {
            warps[w].exited.store(0, std::memory_order_relaxed);
            warps[w].pending.store(0, std::memory_order_relaxed);
            for (auto &s : warps[w].slots) s.in_use = false;
        }
        exited_threads.store(0, std::memory_order_relaxed);
        pending_bars.store(0, std::memory_order_relaxed);
    }
};

struct Launch {
    void (*invoke)(const void *) = nullptr;
    const void *args = nullptr;
    dim3 grid, block;
    unsigned nthreads = 0, nwarps = 0, nslots = 1;
    unsigned long long nblocks = 0;
    size_t shmem = 0;
    Block slots[kSlots];
    std::atomic<unsigned long long> next_block{0};
    std::atomic<uint32_t> remaining{0};
    std::atomic<uint32_t> done{0};
};

struct ThreadCtx {
    Launch *launch = nullptr;
    Block *blk = nullptr;
    unsigned linear = 0, warp = 0, lane = 0;
};

inline thread_local ThreadCtx *tctx = nullptr;

}  // namespace p2c_sim

// CUDA built-in variables: per OS thread, set by the worker before each block.
inline thread_local uint3 threadIdx = {0, 0, 0};
inline thread_local uint3 blockIdx = {0, 0, 0};
inline thread_local dim3 blockDim = dim3(1, 1, 1);
inline thread_local dim3 gridDim = dim3(1, 1, 1);
constexpr int warpSize = 32;

namespace p2c_sim {

inline ThreadCtx &ctx(const char *what) {
    ThreadCtx *c = tctx;
    if (!c) fail("%s called outside a kernel (host code)", what);
    return *c;
}

[[noreturn]] inline void fail_at(const char *what, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
[[noreturn]] inline void fail_at(const char *what, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    fail("%s in thread (%u,%u,%u) of block (%u,%u,%u): %s", what, threadIdx.x, threadIdx.y,
         threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, buf);
}

// ---- fibers: waiting inside a block ----------------------------------------------------
#if P2C_SIM_FIBERS
enum class FiberState : uint8_t { Ready, Blocked, Done };

// One CUDA thread run as a fiber of its block slot's OS thread.
struct Fiber {
    FiberContext context;
    FiberStack stack;
    ThreadCtx tc;
    uint3 tid{0, 0, 0};
    FiberState state = FiberState::Ready;
    bool deadlocked = false;  // resumed only to report the deadlock it is part of
    bool spun = false;        // its last switch was a spin-wait point (no progress)
    unsigned atomics = 0;     // atomics since its last switch
    std::atomic<uint32_t> *wait_word = nullptr;  // Blocked: runnable once *wait_word != wait_old
    uint32_t wait_old = 0;
    std::chrono::steady_clock::time_point blocked_since{};
};

// The scheduler of one block slot: its OS thread's own context and the block's fibers.
struct FiberSched {
    FiberContext main;
    std::vector<std::unique_ptr<Fiber>> fibers;
    Fiber *cur = nullptr;
    Launch *launch = nullptr;
};

// Set on a slot's OS thread while it runs blocks; cur is the running fiber.
inline thread_local FiberSched *tsched = nullptr;

// Back to the scheduler; returns when it resumes this fiber (after what the scheduler
// did before resuming it: TSan edge from fiber_resume).
inline void fiber_yield(FiberSched &S, Fiber &f) {
    fiber_switch(f.context, S.main);
    tsan_acquire(&f.tc);
}

// Atomics between yields; 1 with env P2C_SIM_INTERLEAVE=1 (a switch at every atomic and
// fence, which interleaves the threads of a block as finely as the emulator can).
inline unsigned atomics_per_yield() {
    static const unsigned n = [] {
        const char *e = std::getenv("P2C_SIM_INTERLEAVE");
        return e && *e && *e != '0' ? 1u : 64u;
    }();
    return n;
}
#endif

// A thread of a block waits while a == old: a fiber yields to its block's scheduler, which
// resumes it once the word changed (or, when no thread of the block can run, to describe
// the deadlock); an OS thread sleeps on a futex with a deadline.
template <class Describe>
inline void block_wait(std::atomic<uint32_t> &a, uint32_t old, Describe &&describe) {
#if P2C_SIM_FIBERS
    FiberSched &S = *tsched;
    Fiber &f = *S.cur;
    while (a.load(std::memory_order_acquire) == old) {
        f.state = FiberState::Blocked;
        f.wait_word = &a;
        f.wait_old = old;
        f.blocked_since = std::chrono::steady_clock::now();
        fiber_yield(S, f);
        if (f.deadlocked) describe();
    }
#else
    wait_while_equal(a, old, describe);
#endif
}

// A spin-wait point (__nanosleep, a failed atomicCAS, clock64): let the other threads of
// the block run. Only fibers need it; OS threads are preempted.
inline void spin_point() {
#if P2C_SIM_FIBERS
    if (FiberSched *S = tsched; S && S->cur) {
        S->cur->spun = true;
        fiber_yield(*S, *S->cur);
    }
#endif
}

// Every atomic and fence: a fiber yields after atomics_per_yield() of them, so a polling
// loop on an atomic (or P2C_SIM_INTERLEAVE) lets the others run.
inline void atomic_point() {
#if P2C_SIM_FIBERS
    if (FiberSched *S = tsched; S && S->cur && ++S->cur->atomics >= atomics_per_yield())
        fiber_yield(*S, *S->cur);
#endif
}

// ---- named barriers / __syncthreads -------------------------------------------------------
inline unsigned live_lanes(Block &L, unsigned w) {
    return L.warps[w].existing & ~L.warps[w].exited.load(std::memory_order_seq_cst);
}

// Completes the phase if enough warps have arrived. Caller holds b.m.
inline bool barrier_try_complete(Block &L, unsigned id) {
    NamedBarrier &b = L.bars[id];
    if (b.expected == 0 || b.warps_arrived * 32 < b.expected) return false;
    L.pending_bars.fetch_and(~(1u << id), std::memory_order_seq_cst);
    unsigned slot = b.gen.load(std::memory_order_relaxed) & 1u;
    b.result_count[slot] = b.red_count;
    b.result_and[slot] = b.red_and;
    b.result_or[slot] = b.red_or;
    b.reset();
    b.gen.fetch_add(1, std::memory_order_release);
    futex_wake_all(&b.gen);
    return true;
}

// Marks warp w arrived if all its live lanes have. Caller holds b.m.
inline void barrier_count_warp(Block &L, NamedBarrier &b, unsigned w) {
    unsigned live = live_lanes(L, w);
    if (b.lanes[w] == 0 || (b.lanes[w] & live) != live) return;
    unsigned &c = b.counted[w / 32];
    if (c & (1u << (w % 32))) return;
    c |= 1u << (w % 32);
    ++b.warps_arrived;
}

struct BarrierResult {
    unsigned count, all, any;
};

inline BarrierResult barrier(const char *what, unsigned id, unsigned count, bool wait,
                             bool all_threads, int pred) {
    ThreadCtx &c = ctx(what);
    Block &L = *c.blk;
    if (id >= kNamedBarriers)
        fail_at(what, "barrier id %u out of range (0..%u)", id, kNamedBarriers - 1);
    if (!all_threads) {
        if (count == 0 || count % 32 != 0)
            fail_at(what, "thread count %u of barrier %u must be a nonzero multiple of 32",
                    count, id);
        if (count > L.nwarps * 32)
            fail_at(what, "thread count %u of barrier %u exceeds the block's %u warps", count,
                    id, L.nwarps);
    }
    NamedBarrier &b = L.bars[id];
    uint32_t my_gen;
    bool completed;
    {
        std::lock_guard<std::mutex> g(b.m);
        if (b.expected == 0) {
            b.expected = count;
            b.all_threads = all_threads;
            // Published before reading exit state; thread_exit does the converse.
            L.pending_bars.fetch_or(1u << id, std::memory_order_seq_cst);
        } else if (b.expected != count || b.all_threads != all_threads) {
            fail_at(what, "barrier %u used with thread count %u while a phase with count %u%s "
                          "is in progress",
                    id, count, b.expected, b.all_threads ? " (__syncthreads)" : "");
        }
        if (all_threads && L.exited_threads.load(std::memory_order_seq_cst) != 0)
            fail_at(what, "reached while some threads of the block have already returned "
                          "(every thread must reach __syncthreads)");
        unsigned bit = 1u << c.lane;
        if (b.lanes[c.warp] & bit)
            fail_at(what, "thread arrived twice at barrier %u before the barrier completed", id);
        b.lanes[c.warp] |= bit;
        b.red_count += pred != 0;
        b.red_and &= pred != 0;
        b.red_or |= pred != 0;
        barrier_count_warp(L, b, c.warp);
        my_gen = b.gen.load(std::memory_order_relaxed);
        completed = barrier_try_complete(L, id);
    }
    if (wait && !completed) {
        block_wait(b.gen, my_gen, [&] {
            unsigned arrived = 0;
            {
                std::lock_guard<std::mutex> g(b.m);
                arrived = b.warps_arrived;
            }
            fail_at(what,
                    "deadlock: %s at barrier %u (expects %u threads = %u "
                    "warps, %u warps complete)",
                    deadlock_why(), id, count, count / 32, arrived);
        });
    }
    if (!wait) return {0, 0, 0};
    unsigned slot = my_gen & 1u;
    return {b.result_count[slot], b.result_and[slot], b.result_or[slot]};
}

// A thread's kernel returned: check nobody waits for it, and let the warp's barrier
// arrivals count without it.
inline void thread_exit(ThreadCtx &c) {
    Block &L = *c.blk;
    unsigned bit = 1u << c.lane;
    L.exited_threads.fetch_add(1, std::memory_order_seq_cst);
    L.warps[c.warp].exited.fetch_or(bit, std::memory_order_seq_cst);
    if (L.warps[c.warp].pending.load(std::memory_order_seq_cst) != 0) {
        Warp &w = L.warps[c.warp];
        std::lock_guard<std::mutex> g(w.m);
        for (auto &s : w.slots)
            if (s.in_use && s.arrived != s.mask && (s.mask & bit) && !(s.arrived & bit))
                fail_at("kernel return",
                        "lane %u of warp %u returned while lanes 0x%08x wait for it in %s "
                        "(mask 0x%08x)",
                        c.lane, c.warp, s.arrived, warp_op_name(s.op), s.mask);
    }
    const uint32_t pending = L.pending_bars.load(std::memory_order_seq_cst);
    for (unsigned id = 0; id < kNamedBarriers; ++id) {
        if (!(pending >> id & 1u)) continue;
        NamedBarrier &b = L.bars[id];
        std::lock_guard<std::mutex> g(b.m);
        if (b.expected == 0) continue;
        if (b.all_threads)
            fail_at("kernel return",
                    "thread returned while other threads of the block wait in __syncthreads");
        barrier_count_warp(L, b, c.warp);
        barrier_try_complete(L, id);
    }
}

// ---- warp collectives -----------------------------------------------------------------
// Runs one collective: deposits `val`, waits for every lane of `mask`, then returns
// read(vals, arrived_mask) computed from the deposits of all lanes.
template <class Read>
inline auto warp_collective(const char *what, WarpOp op, unsigned mask, uint64_t val,
                            Read &&read) {
    ThreadCtx &c = ctx(what);
    Block &L = *c.blk;
    Warp &w = L.warps[c.warp];
    const unsigned bit = 1u << c.lane;
    if (!(mask & bit))
        fail_at(what, "calling lane %u is not in mask 0x%08x", c.lane, mask);
    if (mask & ~w.existing)
        fail_at(what, "mask 0x%08x names lanes that do not exist in warp %u (lanes 0x%08x)",
                mask, c.warp, w.existing);
    WarpSlot *slot = nullptr;
    bool completed = false;
    {
        std::lock_guard<std::mutex> g(w.m);
        for (auto &s : w.slots) {
            if (s.in_use && s.arrived != s.mask && s.mask == mask && !(s.arrived & bit)) {
                if (s.op != op)
                    fail_at(what,
                            "lanes 0x%08x of warp %u wait in %s with the same mask 0x%08x "
                            "(divergent warp primitives)",
                            s.arrived, c.warp, warp_op_name(s.op), mask);
                slot = &s;
                break;
            }
        }
        if (!slot) {
            for (auto &s : w.slots)
                if (!s.in_use) {
                    slot = &s;
                    break;
                }
            if (!slot) fail_at(what, "internal error: no free warp slot");
            slot->in_use = true;
            slot->op = op;
            slot->mask = mask;
            slot->arrived = 0;
            slot->readers = static_cast<unsigned>(__builtin_popcount(mask));
            slot->done.store(0, std::memory_order_relaxed);
            w.pending.fetch_add(1, std::memory_order_seq_cst);
        }
        // Read after the slot is published in w.pending; thread_exit does the converse.
        unsigned gone = w.exited.load(std::memory_order_seq_cst) & mask;
        if (gone)
            fail_at(what, "mask 0x%08x names lanes 0x%08x that have already returned", mask,
                    gone);
        slot->vals[c.lane] = val;
        slot->arrived |= bit;
        if (slot->arrived == mask) {
            w.pending.fetch_sub(1, std::memory_order_seq_cst);
            slot->done.store(1, std::memory_order_release);
            completed = true;
        }
    }
    if (completed) {
        if (mask != bit) futex_wake_all(&slot->done);
    } else {
        block_wait(slot->done, 0, [&] {
            unsigned arrived;
            {
                std::lock_guard<std::mutex> g(w.m);
                arrived = slot->arrived;
            }
            fail_at(what,
                    "deadlock: %s (warp %u, mask 0x%08x, arrived 0x%08x, "
                    "missing 0x%08x)",
                    deadlock_why(), c.warp, mask, arrived, mask & ~arrived);
        });
    }
    auto result = read(static_cast<const uint64_t *>(slot->vals), c.lane);
    {
        std::lock_guard<std::mutex> g(w.m);
        if (--slot->readers == 0) slot->in_use = false;
    }
    return result;
}

// ---- fiber scheduler --------------------------------------------------------------------
#if P2C_SIM_FIBERS
inline void fiber_main(void *p) {
    Fiber &f = *static_cast<Fiber *>(p);
    tsan_acquire(&f.tc);
    FiberSched &S = *tsched;
    S.launch->invoke(S.launch->args);
    thread_exit(f.tc);
    f.state = FiberState::Done;
    tsan_release(&f.state);  // the block's end happens after everything this thread did
    fiber_yield(S, f);
    __builtin_unreachable();
}

inline void fiber_resume(FiberSched &S, Fiber &f) {
    S.cur = &f;
    tctx = &f.tc;
    threadIdx = f.tid;
    f.state = FiberState::Ready;
    f.spun = false;
    f.atomics = 0;
    tsan_release(&f.tc);
    tsan_ignore_end();
    fiber_switch(S.main, f.context);
    tsan_ignore_begin();
    S.cur = nullptr;
    tctx = nullptr;
}

// No thread of the block can run: resume a blocked one to print what it waits for (its
// wait describes and aborts).
[[noreturn]] inline void fiber_deadlock(FiberSched &S, Fiber &f, const char *why) {
    std::snprintf(deadlock_reason, sizeof deadlock_reason, "%s", why);
    f.deadlocked = true;
    fiber_resume(S, f);
    fail("internal error: a deadlocked thread did not report");
}

// One pass over the block's fibers: resumes every runnable one once. Returns how many ran
// and whether any made progress (ran other than from a spin-wait point); *oldest: the
// longest blocked fiber.
inline unsigned fiber_pass(FiberSched &S, unsigned n, unsigned &live, bool &progress,
                           Fiber *&oldest) {
    unsigned ran = 0;
    for (unsigned t = 0; t < n; ++t) {
        Fiber &f = *S.fibers[t];
        if (f.state == FiberState::Done) continue;
        if (f.state == FiberState::Blocked &&
            f.wait_word->load(std::memory_order_relaxed) == f.wait_old) {
            if (!oldest || f.blocked_since < oldest->blocked_since) oldest = &f;
            continue;
        }
        fiber_resume(S, f);
        ++ran;
        if (f.state == FiberState::Done) --live;
        if (!f.spun) progress = true;
    }
    return ran;
}

// Runs block B.current of L to its end: one fiber per thread, round robin.
inline void fiber_block(FiberSched &S, Launch &L, Block &B) {
    const unsigned n = L.nthreads, bx = L.block.x, by = L.block.y;
    tsan_ignore_begin();
    for (unsigned t = 0; t < n; ++t) {
        Fiber &f = *S.fibers[t];
        f.tc = ThreadCtx{&L, &B, t, t / 32, t % 32};
        f.tid = uint3{t % bx, (t / bx) % by, t / (bx * by)};
        f.state = FiberState::Ready;
        f.deadlocked = false;
        fiber_start(f.context, f.stack, fiber_main, &f);
    }
    unsigned live = n;
    unsigned passes = 0;
    while (live > 0) {
        bool progress = false;
        Fiber *oldest = nullptr;
        if (fiber_pass(S, n, live, progress, oldest) == 0)
            fiber_deadlock(S, *oldest, "every thread of the block waits, none can run");
        if (progress && ++passes < 256) continue;  // check the clock now and then only
        passes = 0;
        if (!progress) sched_yield();  // spinning on another block (another OS thread)
        if (!oldest) continue;
        const double waited = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - oldest->blocked_since)
                                  .count();
        if (waited > deadlock_seconds() && waited > deadlock_seconds() * load_factor()) {
            set_deadlock_why_timeout();
            fiber_deadlock(S, *oldest, deadlock_why());
        }
    }
    tsan_ignore_end();
    for (unsigned t = 0; t < n; ++t) tsan_acquire(&S.fibers[t]->state);
}

// The OS thread of block slot `slot`: runs the grid's blocks it takes, one at a time.
inline void fiber_slot(Launch &L, unsigned slot) {
    static thread_local FiberSched *mine = nullptr;
    if (!mine) mine = new FiberSched;  // never freed: exit() may run on a fiber's stack
    FiberSched &S = *mine;
    fiber_tsan_init(S.main, true);
    while (S.fibers.size() < L.nthreads) S.fibers.push_back(std::make_unique<Fiber>());
    S.launch = &L;
    tsched = &S;
    Block &B = L.slots[slot];
    blockDim = L.block;
    gridDim = L.grid;
    const unsigned long long gx = L.grid.x, gy = L.grid.y;
    for (;;) {
        const unsigned long long b = B.current;
        if (b >= L.nblocks) break;
        blockIdx = uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>((b / gx) % gy),
                         static_cast<unsigned>(b / (gx * gy))};
        fiber_block(S, L, B);
        B.reset_block();
        B.current = L.next_block.fetch_add(1, std::memory_order_relaxed);
    }
    tsched = nullptr;
    threadIdx = blockIdx = uint3{0, 0, 0};
    blockDim = gridDim = dim3(1, 1, 1);
    if (L.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        L.done.store(1, std::memory_order_release);
        futex_wake_all(&L.done);
    }
}
#endif

// ---- worker pool ----------------------------------------------------------------------
inline void run_thread(Launch &L, unsigned slot, unsigned t) {
    Block &B = L.slots[slot];
    ThreadCtx c;
    c.launch = &L;
    c.blk = &B;
    c.linear = t;
    c.warp = t / 32;
    c.lane = t % 32;
    const unsigned bx = L.block.x, by = L.block.y;
    threadIdx = uint3{t % bx, (t / bx) % by, t / (bx * by)};
    blockDim = L.block;
    gridDim = L.grid;
    tctx = &c;
    const unsigned long long gx = L.grid.x, gy = L.grid.y;
    for (;;) {
        const unsigned long long b = B.current;
        if (b >= L.nblocks) break;
        blockIdx = uint3{static_cast<unsigned>(b % gx), static_cast<unsigned>((b / gx) % gy),
                         static_cast<unsigned>(b / (gx * gy))};
        L.invoke(L.args);
        thread_exit(c);
        // Block-end barrier: nobody of this slot starts its next block before every thread
        // finished this one. The last thread takes the grid's next block for the slot.
        uint32_t g = B.end_gen.load(std::memory_order_acquire);
        if (B.end_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == L.nthreads) {
            B.end_arrived.store(0, std::memory_order_relaxed);
            B.reset_block();
            B.current = L.next_block.fetch_add(1, std::memory_order_relaxed);
            B.end_gen.fetch_add(1, std::memory_order_release);
            futex_wake_all(&B.end_gen);
        } else {
            wait_forever_while_equal(B.end_gen, g);
        }
    }
    tctx = nullptr;
    threadIdx = blockIdx = uint3{0, 0, 0};
    blockDim = gridDim = dim3(1, 1, 1);
    if (L.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        L.done.store(1, std::memory_order_release);
        futex_wake_all(&L.done);
    }
}

class Pool {
    struct Worker {
        std::thread th;
        std::atomic<uint32_t> seq{0};
    };
    std::vector<std::unique_ptr<Worker>> workers_;
    Launch *current_ = nullptr;
    std::atomic<bool> shutdown_{false};
    uint32_t seq_ = 0;

    void worker_main(Worker *w, unsigned index, uint32_t seen) {
        for (;;) {
            wait_forever_while_equal(w->seq, seen);
            seen = w->seq.load(std::memory_order_acquire);
            if (shutdown_.load(std::memory_order_acquire)) return;
#if P2C_SIM_FIBERS
            fiber_slot(*current_, index);
#else
            run_thread(*current_, index / current_->nthreads, index % current_->nthreads);
#endif
        }
    }

  public:
    std::mutex launch_mutex;  // one launch at a time, even from several host threads
    std::unique_ptr<Launch> state = std::make_unique<Launch>();

    ~Pool() {
        shutdown_.store(true, std::memory_order_release);
        const bool from_worker = tctx != nullptr;  // exit() called inside a kernel
        for (auto &w : workers_) {
            w->seq.fetch_add(1, std::memory_order_release);
            futex_wake_all(&w->seq);
        }
        for (auto &w : workers_) {
            if (from_worker)
                w->th.detach();
            else
                w->th.join();
        }
        if (from_worker) (void)state.release();  // workers may still touch it
    }

    // Runs L on nthreads pool threads per slot and returns when all blocks are done.
    void run(Launch &L) {
#if P2C_SIM_FIBERS
        const unsigned total = L.nslots;  // one OS thread per block slot
#else
        const unsigned total = L.nthreads * L.nslots;
#endif
        while (workers_.size() < total) {
            auto w = std::make_unique<Worker>();
            Worker *raw = w.get();
            unsigned index = static_cast<unsigned>(workers_.size());
            const uint32_t start = seq_;
            raw->seq.store(start, std::memory_order_relaxed);
            raw->th = std::thread([this, raw, index, start] { worker_main(raw, index, start); });
            workers_.push_back(std::move(w));
        }
        current_ = &L;
        ++seq_;
        L.done.store(0, std::memory_order_relaxed);
        L.remaining.store(total, std::memory_order_relaxed);
        for (unsigned i = 0; i < total; ++i) {
            workers_[i]->seq.store(seq_, std::memory_order_release);
            futex_wake_all(&workers_[i]->seq);
        }
        wait_forever_while_equal(L.done, 0);
    }
};

inline Pool &pool() {
    static Pool p;
    return p;
}

// The storage of one __shared__ variable (declaration `Id`, type T) for the calling
// thread's block slot: allocated zero-filled on first use, kept for the process (a slot's
// blocks reuse it, as they would a static). `pragma2cuda verify` rewrites `__shared__ T x;`
// into `auto &x = *p2c_sim::block_shared<T, align, id>();` for concurrent blocks.
template <class T, size_t Align, unsigned Id>
inline T *block_shared() {
    static std::atomic<void *> per_slot[kSlots];
    std::atomic<void *> &s = per_slot[ctx("a __shared__ variable").blk->index];
    void *p = s.load(std::memory_order_acquire);
    if (p) return static_cast<T *>(p);
    constexpr size_t a0 = Align > alignof(T) ? Align : alignof(T);
    constexpr size_t a = a0 > 16 ? a0 : 16;
    const size_t bytes = (sizeof(T) + a - 1) / a * a;
    void *fresh = std::aligned_alloc(a, bytes);
    if (!fresh) fail("out of memory for a __shared__ variable");
    std::memset(fresh, 0, bytes);
    if (s.compare_exchange_strong(p, fresh, std::memory_order_acq_rel,
                                  std::memory_order_acquire))
        return static_cast<T *>(fresh);
    std::free(fresh);
    return static_cast<T *>(p);
}

}  // namespace p2c_sim
