// pragma2cuda SIMT emulator: user-level fibers (one per CUDA thread of a block).
//
// A fiber is a stack and a saved stack pointer. p2c_sim_fiber_switch saves the callee-saved
// registers, the SSE and x87 control words and the stack pointer of the running context,
// loads those of another and returns there: a user-level context switch (no system call).
// On other machines (or with -DP2C_SIM_UCONTEXT=1) swapcontext does the same, slower.
// Fibers never move between OS threads, so thread_local variables stay valid in them.
#pragma once
#pragma GCC system_header

#if !defined(__x86_64__) && !defined(P2C_SIM_UCONTEXT)
#define P2C_SIM_UCONTEXT 1
#endif
#ifndef P2C_SIM_UCONTEXT
#define P2C_SIM_UCONTEXT 0
#endif
#if P2C_SIM_UCONTEXT
#include <ucontext.h>
#endif

#if !P2C_SIM_UCONTEXT
// void p2c_sim_fiber_switch(void **save_sp, void *load_sp);
// void p2c_sim_fiber_entry(): first code of a new fiber; calls r13(r12) and never returns.
// Weak: several objects of one program may carry the same definitions.
asm(R"(
    .text
    .weak p2c_sim_fiber_switch
    .type p2c_sim_fiber_switch, @function
p2c_sim_fiber_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $8, %rsp
    stmxcsr (%rsp)
    fnstcw 4(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr (%rsp)
    fldcw 4(%rsp)
    addq $8, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size p2c_sim_fiber_switch, .-p2c_sim_fiber_switch
    .weak p2c_sim_fiber_entry
    .type p2c_sim_fiber_entry, @function
p2c_sim_fiber_entry:
    movq %r12, %rdi
    callq *%r13
    ud2
    .size p2c_sim_fiber_entry, .-p2c_sim_fiber_entry
)");
extern "C" void p2c_sim_fiber_switch(void **save_sp, void *load_sp);
extern "C" void p2c_sim_fiber_entry();
#endif

// ThreadSanitizer's fiber API: each fiber is a TSan context of its own, switched without
// synchronization (__tsan_switch_to_fiber_no_sync), so races between the threads of a
// block stay visible; the emulator's barriers and collectives synchronize through mutexes
// and atomics that TSan sees. tsan_* are no-ops in plain builds.
#ifdef __SANITIZE_THREAD__
extern "C" {
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void AnnotateIgnoreReadsBegin(const char *f, int l);
void AnnotateIgnoreReadsEnd(const char *f, int l);
void AnnotateIgnoreWritesBegin(const char *f, int l);
void AnnotateIgnoreWritesEnd(const char *f, int l);
}
#endif

namespace p2c_sim {

#ifdef __SANITIZE_THREAD__
inline void tsan_acquire(void *a) { __tsan_acquire(a); }
inline void tsan_release(void *a) { __tsan_release(a); }
// The scheduler's own reads and writes of fiber state are not checked (it runs between
// fibers on their OS thread; its edges to them are the explicit acquire/release below).
inline void tsan_ignore_begin() {
    AnnotateIgnoreReadsBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
}
inline void tsan_ignore_end() {
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreReadsEnd(__FILE__, __LINE__);
}
#else
inline void tsan_acquire(void *) {}
inline void tsan_release(void *) {}
inline void tsan_ignore_begin() {}
inline void tsan_ignore_end() {}
#endif

// Bytes of stack per fiber (a CUDA thread): env P2C_SIM_STACK_KB, default 8 MiB like an OS
// thread's. Reserved, not committed: pages are backed only when touched.
inline size_t fiber_stack_bytes() {
    static const size_t n = [] {
        const char *e = std::getenv("P2C_SIM_STACK_KB");
        long kb = e ? std::atol(e) : 0;
        return static_cast<size_t>(kb >= 64 ? kb : 8192) * 1024;
    }();
    return n;
}

// One execution context: a fiber, or the OS thread's own stack (the scheduler).
struct FiberContext {
#if P2C_SIM_UCONTEXT
    ucontext_t uc;
#else
    void *sp = nullptr;
#endif
#ifdef __SANITIZE_THREAD__
    void *tsan = nullptr;  // its TSan context: the OS thread's own, or a created fiber's
#endif
};

// Before switching into `to` (TSan: its context, with no implied synchronization).
// Contexts get their TSan context on first use, under the scheduler's ignore (fiber_start,
// FiberSched); the switch reads it unchecked as well.
inline void fiber_switch_hook(FiberContext &to) {
#ifdef __SANITIZE_THREAD__
    tsan_ignore_begin();
    void *t = to.tsan;
    tsan_ignore_end();
    __tsan_switch_to_fiber(t, 1 /* __tsan_switch_to_fiber_no_sync */);
#else
    (void)to;
#endif
}
inline void fiber_tsan_init(FiberContext &c, bool own_thread) {
#ifdef __SANITIZE_THREAD__
    if (!c.tsan) c.tsan = own_thread ? __tsan_get_current_fiber() : __tsan_create_fiber(0);
#else
    (void)c;
    (void)own_thread;
#endif
}

// A fiber's stack: mapped once with a guard page below it, reused for every block.
struct FiberStack {
    char *base = nullptr;  // lowest address (the guard page)
    size_t bytes = 0;

    void ensure() {
        if (base) return;
        const size_t guard = 4096;
        bytes = fiber_stack_bytes() + guard;
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
        if (p == MAP_FAILED) {
            std::fputs("p2c-sim: error: cannot map a fiber stack\n", stderr);
            std::abort();
        }
        base = static_cast<char *>(p);
        mprotect(base, guard, PROT_NONE);
    }
    ~FiberStack() {
        if (base) munmap(base, bytes);
    }
};

#if P2C_SIM_UCONTEXT
inline void fiber_start(FiberContext &f, FiberStack &s, void (*fn)(void *), void *arg) {
    s.ensure();
    fiber_tsan_init(f, false);
    getcontext(&f.uc);
    f.uc.uc_stack.ss_sp = s.base + 4096;
    f.uc.uc_stack.ss_size = s.bytes - 4096;
    f.uc.uc_link = nullptr;
    // makecontext passes ints: the pointer travels in two halves.
    auto p = reinterpret_cast<uintptr_t>(arg);
    auto f2 = reinterpret_cast<uintptr_t>(fn);
    makecontext(&f.uc, reinterpret_cast<void (*)()>(+[](unsigned a0, unsigned a1, unsigned b0,
                                                         unsigned b1) {
                    auto fun = reinterpret_cast<void (*)(void *)>(
                        (static_cast<uintptr_t>(b1) << 32) | b0);
                    fun(reinterpret_cast<void *>((static_cast<uintptr_t>(a1) << 32) | a0));
                }),
                4, static_cast<unsigned>(p), static_cast<unsigned>(p >> 32),
                static_cast<unsigned>(f2), static_cast<unsigned>(f2 >> 32));
}
inline void fiber_switch(FiberContext &from, FiberContext &to) {
    fiber_switch_hook(to);
    swapcontext(&from.uc, &to.uc);
}
#else
// Lays out a frame that p2c_sim_fiber_switch "returns" through into p2c_sim_fiber_entry
// with r12 = arg and r13 = fn, the stack 16-byte aligned at the call.
inline void fiber_start(FiberContext &f, FiberStack &s, void (*fn)(void *), void *arg) {
    s.ensure();
    fiber_tsan_init(f, false);
    uintptr_t top = reinterpret_cast<uintptr_t>(s.base + s.bytes) & ~uintptr_t(15);
    auto *w = reinterpret_cast<uint64_t *>(top);
    uint32_t mxcsr;
    uint16_t fcw;
    asm volatile("stmxcsr %0" : "=m"(mxcsr));
    asm volatile("fnstcw %0" : "=m"(fcw));
    w[-1] = 0;
    w[-2] = 0;
    w[-3] = reinterpret_cast<uint64_t>(&p2c_sim_fiber_entry);  // return address
    w[-4] = 0;                                                  // rbp
    w[-5] = 0;                                                  // rbx
    w[-6] = reinterpret_cast<uint64_t>(arg);                    // r12
    w[-7] = reinterpret_cast<uint64_t>(fn);                     // r13
    w[-8] = 0;                                                  // r14
    w[-9] = 0;                                                  // r15
    w[-10] = static_cast<uint64_t>(mxcsr) | (static_cast<uint64_t>(fcw) << 32);
    f.sp = &w[-10];
}
inline void fiber_switch(FiberContext &from, FiberContext &to) {
    fiber_switch_hook(to);
    p2c_sim_fiber_switch(&from.sp, to.sp);
}
#endif

}  // namespace p2c_sim
