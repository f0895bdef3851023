// pragma2cuda SIMT emulator: streams and events, truly asynchronous (#21).
//
// Every stream other than the legacy default stream (nullptr) has a worker thread of its own
// that runs the stream's work (launches, async copies and memsets, event records and waits,
// host functions, stream-ordered frees) in order, while the host goes on. An event is a pair
// of counters (records issued by the host, records reached by their stream) under a mutex,
// so cudaStreamWaitEvent, cudaEventSynchronize and cudaStreamSynchronize are real
// synchronisation: a program that reads a stream's results without waiting reads them
// before they are written (a wrong result, or a race ThreadSanitizer reports).
// Work on the legacy default stream (launches, async operations on stream 0, and the synchronous
// cudaMemcpy, cudaMemcpy2D, cudaMemset and symbol copies) runs at once on the calling thread,
// after the work of every blocking stream (cudaStreamDefault flags) issued before it, as CUDA's
// legacy stream does; non-blocking streams (cudaStreamNonBlocking) are not waited for.
#pragma once
#pragma GCC system_header

#include <condition_variable>
#include <deque>
#include <optional>

typedef void (*cudaHostFn_t)(void *);
#ifndef CUDART_CB
#define CUDART_CB
#endif

namespace p2c_sim {

// How long queued work waits before its worker starts it (env P2C_SIM_STREAM_DELAY_MS,
// default 20): a GPU starts work later than the host goes on, so a program that reads a
// result without waiting reads it before it is written, every run, not by chance. The delay
// is cut short whenever the host waits (a synchronize, an event wait) or queries the stream.
inline std::chrono::milliseconds stream_delay() {
    static const std::chrono::milliseconds d{[] {
        const char *v = std::getenv("P2C_SIM_STREAM_DELAY_MS");
        return v ? std::atol(v) : 20L;
    }()};
    return d;
}
// Host threads blocked in a wait now: while there is one, no worker delays its work.
inline std::atomic<int> &waiting_hosts() {
    static std::atomic<int> n{0};
    return n;
}
struct HostWait {
    HostWait() { waiting_hosts().fetch_add(1); }
    ~HostWait() { waiting_hosts().fetch_sub(1); }
    HostWait(const HostWait &) = delete;
    HostWait &operator=(const HostWait &) = delete;
};

// Whether this thread is a stream's worker (its work is that stream's, not the legacy stream's).
inline bool &on_worker() {
    static thread_local bool w = false;
    return w;
}

// One stream's work, run in order by its worker thread.
struct StreamWork {
    struct Item {
        std::function<void()> f;
        std::chrono::steady_clock::time_point ready;
    };
    std::mutex m;
    std::condition_variable cv;  // work queued, an item done, stop asked
    std::deque<Item> work;
    bool busy = false, stop = false, urgent = false;
    std::thread worker;

    void run() {
        on_worker() = true;
        std::unique_lock<std::mutex> lk(m);
        for (;;) {
            cv.wait(lk, [&] { return !work.empty() || stop; });
            if (work.empty()) return;
            while (!stop && !urgent && waiting_hosts().load() == 0 &&
                   std::chrono::steady_clock::now() < work.front().ready)
                cv.wait_for(lk, std::chrono::milliseconds(1));
            std::function<void()> f = std::move(work.front().f);
            work.pop_front();
            busy = true;
            lk.unlock();
            f();
            lk.lock();
            busy = false;
            if (work.empty()) urgent = false;
            cv.notify_all();
        }
    }
    void push(std::function<void()> f) {
        std::lock_guard<std::mutex> g(m);
        if (!worker.joinable()) worker = std::thread([this] { run(); });
        work.push_back({std::move(f), std::chrono::steady_clock::now() + stream_delay()});
        cv.notify_all();
    }
    void drain() {
        HostWait w;
        std::unique_lock<std::mutex> lk(m);
        urgent = true;
        cv.notify_all();
        cv.wait(lk, [&] { return work.empty() && !busy; });
    }
    // Whether all work is done; work not started yet is started now.
    bool idle() {
        std::lock_guard<std::mutex> g(m);
        if (work.empty() && !busy) return true;
        urgent = true;
        cv.notify_all();
        return false;
    }
    void finish() {
        drain();
        {
            std::lock_guard<std::mutex> g(m);
            stop = true;
            cv.notify_all();
        }
        if (worker.joinable()) worker.join();
    }
};

}  // namespace p2c_sim

struct CUstream_st {
    unsigned flags = 0;
    p2c_sim::StreamWork q;
};
struct CUevent_st {
    std::mutex m;
    std::condition_variable cv;
    unsigned long long issued = 0, reached = 0;  // records asked by the host / reached
    bool recorded = false;
    std::chrono::steady_clock::time_point when{};

    void reach(unsigned long long gen) {
        std::lock_guard<std::mutex> g(m);
        if (reached < gen) reached = gen;
        recorded = true;
        when = std::chrono::steady_clock::now();
        cv.notify_all();
    }
    void wait_for(unsigned long long gen, bool host) {
        std::optional<p2c_sim::HostWait> w;
        if (host) w.emplace();
        std::unique_lock<std::mutex> lk(m);
        cv.wait(lk, [&] { return reached >= gen; });
    }
};

namespace p2c_sim {

// Every live stream (a leaked registry: workers may outlive static destruction).
struct Streams {
    std::mutex m;
    std::vector<cudaStream_t> all;
    void add(cudaStream_t s) {
        std::lock_guard<std::mutex> g(m);
        all.push_back(s);
    }
    void remove(cudaStream_t s) {
        std::lock_guard<std::mutex> g(m);
        all.erase(std::remove(all.begin(), all.end(), s), all.end());
    }
    std::vector<cudaStream_t> snapshot() {
        std::lock_guard<std::mutex> g(m);
        return all;
    }
};
inline Streams &streams() {
    static Streams *s = new Streams;
    return *s;
}

// Waits for the blocking streams (before work on the legacy default stream), or all.
inline void drain_streams(bool blocking_only) {
    for (cudaStream_t s : streams().snapshot())
        if (!blocking_only || !(s->flags & cudaStreamNonBlocking)) s->q.drain();
}

inline void legacy_stream_turn() {
    if (!on_worker()) drain_streams(true);
}

// Runs `f` on stream `s`: queued on its worker, or now after the blocking streams.
inline void on_stream(cudaStream_t s, std::function<void()> f) {
    if (s) {
        s->q.push(std::move(f));
        return;
    }
    drain_streams(true);
    f();
}

// A launch on a stream: the arguments are converted and kept until the worker runs it.
template <class... P>
struct StreamLauncher {
    Launcher<P...> launch;
    cudaStream_t stream;

    template <class... A>
    void operator()(A &&...args) const {
        if (!valid_config(launch.grid, launch.block, launch.shmem)) {
            set_error(cudaErrorInvalidConfiguration);
            return;
        }
        auto bound = std::make_shared<std::tuple<std::decay_t<P>...>>(std::forward<A>(args)...);
        const Launcher<P...> l = launch;
        on_stream(stream, [l, bound] { std::apply(l, *bound); });
    }
};

}  // namespace p2c_sim

// p2c_sim_launch(kernel, grid, block, shmem[, stream])(args...) runs kernel<<<...>>>(args...).
template <class... P, class G, class B>
inline p2c_sim::StreamLauncher<P...> p2c_sim_launch(void (*kernel)(P...), G grid, B block,
                                                    size_t shmem = 0, cudaStream_t stream = nullptr) {
    return {p2c_sim::Launcher<P...>{kernel, p2c_sim::to_dim3(grid), p2c_sim::to_dim3(block), shmem},
            stream};
}

inline cudaError_t cudaDeviceSynchronize() {
    p2c_sim::drain_streams(false);
    return cudaSuccess;
}
inline cudaError_t cudaThreadSynchronize() { return cudaDeviceSynchronize(); }

// ---- async memory operations ----------------------------------------------------------------
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                                   cudaStream_t s = nullptr) {
    if (cudaError_t e = p2c_sim::check_copy(dst, src, n, kind); e != cudaSuccess)
        return p2c_sim::set_error(e);
    p2c_sim::on_stream(s, [=] {
        if (n) std::memmove(dst, src, n);
    });
    return cudaSuccess;
}
inline cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t s = nullptr) {
    p2c_sim::on_stream(s, [=] {
        if (cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind) != cudaSuccess)
            p2c_sim::fail("cudaMemcpy2DAsync: invalid copy (%zu x %zu bytes)", width, height);
    });
    return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *p, int value, size_t n, cudaStream_t s = nullptr) {
    if (n && !p2c_sim::allocations().contains(p, n)) return p2c_sim::set_error(cudaErrorInvalidValue);
    p2c_sim::on_stream(s, [=] {
        if (n) std::memset(p, value, n);
    });
    return cudaSuccess;
}
// Stream-ordered allocation: the memory is allocated at once, freed when the stream gets there.
inline cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
template <class T>
inline cudaError_t cudaMallocAsync(T **p, size_t n, cudaStream_t s) {
    return cudaMallocAsync(reinterpret_cast<void **>(p), n, s);
}
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t s) {
    p2c_sim::on_stream(s, [p] {
        if (cudaFree(p) != cudaSuccess) p2c_sim::fail("cudaFreeAsync: %p is not device memory", p);
    });
    return cudaSuccess;
}
inline cudaError_t cudaLaunchHostFunc(cudaStream_t s, cudaHostFn_t fn, void *data) {
    if (!fn) return p2c_sim::set_error(cudaErrorInvalidValue);
    p2c_sim::on_stream(s, [fn, data] { fn(data); });
    return cudaSuccess;
}

// ---- streams and events ----------------------------------------------------------------------
inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags) {
    if (!s) return p2c_sim::set_error(cudaErrorInvalidValue);
    *s = new CUstream_st{};
    (*s)->flags = flags;
    p2c_sim::streams().add(*s);
    return cudaSuccess;
}
inline cudaError_t cudaStreamCreate(cudaStream_t *s) {
    return cudaStreamCreateWithFlags(s, cudaStreamDefault);
}
inline cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int) {
    return cudaStreamCreateWithFlags(s, flags);
}
// Work queued before the destroy still runs (CUDA lets it complete); then the worker ends.
inline cudaError_t cudaStreamDestroy(cudaStream_t s) {
    if (!s) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    p2c_sim::streams().remove(s);
    s->q.finish();
    delete s;
    return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    if (s)
        s->q.drain();
    else
        p2c_sim::drain_streams(true);
    return cudaSuccess;
}
inline cudaError_t cudaStreamQuery(cudaStream_t s) {
    if (!s) return cudaSuccess;
    return s->q.idle() ? cudaSuccess : cudaErrorNotReady;
}

inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidValue);
    *e = new CUevent_st{};
    return cudaSuccess;
}
inline cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned) { return cudaEventCreate(e); }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    unsigned long long gen;
    {
        std::lock_guard<std::mutex> g(e->m);
        gen = ++e->issued;
    }
    p2c_sim::on_stream(s, [e, gen] { e->reach(gen); });
    return cudaSuccess;
}
// The stream (or, for the legacy stream, the host) waits for the event's latest record.
inline cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned = 0) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    unsigned long long gen;
    {
        std::lock_guard<std::mutex> g(e->m);
        gen = e->issued;
    }
    if (gen == 0) return cudaSuccess;
    if (s)
        s->q.push([e, gen] { e->wait_for(gen, false); });
    else
        e->wait_for(gen, true);
    return cudaSuccess;
}
inline cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    unsigned long long gen;
    {
        std::lock_guard<std::mutex> g(e->m);
        gen = e->issued;
    }
    e->wait_for(gen, true);
    return cudaSuccess;
}
inline cudaError_t cudaEventQuery(cudaEvent_t e) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    std::lock_guard<std::mutex> g(e->m);
    return e->reached >= e->issued ? cudaSuccess : cudaErrorNotReady;
}
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    if (!ms) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (!start || !end) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    std::chrono::steady_clock::time_point a, b;
    {
        std::lock_guard<std::mutex> g(start->m);
        if (!start->recorded || start->reached < start->issued) return p2c_sim::set_error(cudaErrorNotReady);
        a = start->when;
    }
    {
        std::lock_guard<std::mutex> g(end->m);
        if (!end->recorded || end->reached < end->issued) return p2c_sim::set_error(cudaErrorNotReady);
        b = end->when;
    }
    *ms = std::chrono::duration<float, std::milli>(b - a).count();
    return cudaSuccess;
}
// The event is not freed: a stream may still wait on it (a few bytes per event).
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
    if (!e) return p2c_sim::set_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}
