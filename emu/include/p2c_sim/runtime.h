// pragma2cuda SIMT emulator: the host runtime API subset and kernel launch.
// Device memory is host memory; work on the default stream is synchronous (streams and
// events: p2c_sim/streams.h).
#pragma once
#pragma GCC system_header

namespace p2c_sim {

// Last error, per host thread as in CUDA.
inline thread_local cudaError_t last_error = cudaSuccess;

inline cudaError_t set_error(cudaError_t e) {
    if (e != cudaSuccess) last_error = e;
    return e;
}

// Allocations made by cudaMalloc* so that device-side ranges of copies can be checked.
struct Allocations {
    std::mutex m;
    std::map<uintptr_t, size_t> blocks;   // start -> size
    std::map<uintptr_t, size_t> symbols;  // __device__ variables whose address was taken

    void add(void *p, size_t n) {
        std::lock_guard<std::mutex> g(m);
        blocks[reinterpret_cast<uintptr_t>(p)] = n;
    }
    // A __device__ variable is device memory too (cudaGetSymbolAddress), but never freed.
    void add_symbol(const void *p, size_t n) {
        std::lock_guard<std::mutex> g(m);
        symbols[reinterpret_cast<uintptr_t>(p)] = n;
    }
    bool remove(void *p) {
        std::lock_guard<std::mutex> g(m);
        return blocks.erase(reinterpret_cast<uintptr_t>(p)) == 1;
    }
    // Bytes of the live allocations, each rounded up to whole pages as the arena holds them.
    size_t live_bytes() {
        std::lock_guard<std::mutex> g(m);
        size_t sum = 0;
        for (const auto &b : blocks) sum += (b.second + 4095) / 4096 * 4096;
        return sum;
    }
    // Host addresses that a kernel may be handed by value without reading them: an
    // OpenMP pointer whose zero-length section found no mapping keeps its host value
    // (OpenMP 5.2, 5.8.6). Added before the launch, removed after it (a count each).
    std::map<uintptr_t, size_t> host_values;
    void host_value(const void *p, bool add) {
        std::lock_guard<std::mutex> g(m);
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        if (add) {
            host_values[a]++;
        } else {
            auto it = host_values.find(a);
            if (it != host_values.end() && --it->second == 0) host_values.erase(it);
        }
    }
    bool is_host_value(const void *p) {
        std::lock_guard<std::mutex> g(m);
        return host_values.count(reinterpret_cast<uintptr_t>(p)) != 0;
    }
    static bool inside(const std::map<uintptr_t, size_t> &in, uintptr_t a, size_t n) {
        auto it = in.upper_bound(a);
        if (it == in.begin()) return false;
        --it;
        return a >= it->first && a - it->first <= it->second && n <= it->second - (a - it->first);
    }
    // True when [p, p+n) lies inside one allocation (or one device variable).
    bool contains(const void *p, size_t n) {
        std::lock_guard<std::mutex> g(m);
        uintptr_t a = reinterpret_cast<uintptr_t>(p);
        return inside(blocks, a, n) || inside(symbols, a, n);
    }
};

inline Allocations &allocations() {
    static Allocations a;
    return a;
}

// Device memory comes from one range of the address space reserved for it, apart from
// everything the host program can point at (its stack, heap and static data). So the
// launcher can tell a device pointer from a host one even when generated code hands a
// kernel a biased base (`dev - lo`, indexed from lo upwards), which lies outside its
// allocation but inside the range: the first allocation starts kGuard bytes in.
// Pages are backed only when touched; freed blocks are returned to the OS and reused.
struct Arena {
    static constexpr size_t kGuard = size_t(16) << 30;
    static constexpr size_t kSize = size_t(80) << 30;
    static constexpr size_t kPage = 4096;
    std::mutex m;
    char *base = nullptr;
    size_t next = kGuard;
    std::multimap<size_t, char *> free_blocks;  // rounded size -> start
    std::map<char *, size_t> sizes;              // start -> rounded size

    Arena() {
        void *p = mmap(nullptr, kSize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        base = p == MAP_FAILED ? nullptr : static_cast<char *>(p);
    }
    void *alloc(size_t n) {
        size_t rounded = (std::max<size_t>(n, 1) + kPage - 1) / kPage * kPage;
        std::lock_guard<std::mutex> g(m);
        if (!base) return nullptr;
        char *q = nullptr;
        auto it = free_blocks.lower_bound(rounded);
        if (it != free_blocks.end() && it->first <= 2 * rounded) {
            q = it->second;
            rounded = it->first;
            free_blocks.erase(it);
        } else {
            if (rounded > kSize - next) return nullptr;
            q = base + next;
            next += rounded;
        }
        sizes[q] = rounded;
        // cudaMalloc'd memory is undefined: a pattern, so nothing relies on zeros.
        std::memset(q, 0xA5, n);
        return q;
    }
    void release(void *p) {
        std::lock_guard<std::mutex> g(m);
        auto it = sizes.find(static_cast<char *>(p));
        if (it == sizes.end()) return;
        madvise(it->first, it->second, MADV_DONTNEED);
        free_blocks.emplace(it->second, it->first);
        sizes.erase(it);
    }
    bool holds(const void *p) const {
        auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(base);
        return base && a >= b && a - b < kSize;
    }
};

inline Arena &arena() {
    static Arena a;
    return a;
}

inline cudaError_t device_malloc(void **p, size_t n) {
    if (!p) return set_error(cudaErrorInvalidValue);
    void *q = arena().alloc(n);
    if (!q) {
        *p = nullptr;
        return set_error(cudaErrorMemoryAllocation);
    }
    allocations().add(q, n);
    *p = q;
    return cudaSuccess;
}

inline cudaError_t check_copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
    if (n == 0) return cudaSuccess;
    if (!dst || !src) return cudaErrorInvalidValue;
    bool dst_dev = false, src_dev = false;
    switch (kind) {
    case cudaMemcpyHostToHost: break;
    case cudaMemcpyHostToDevice: dst_dev = true; break;
    case cudaMemcpyDeviceToHost: src_dev = true; break;
    case cudaMemcpyDeviceToDevice: dst_dev = src_dev = true; break;
    case cudaMemcpyDefault: break;
    default: return cudaErrorInvalidMemcpyDirection;
    }
    if (dst_dev && !allocations().contains(dst, n)) return cudaErrorInvalidValue;
    if (src_dev && !allocations().contains(src, n)) return cudaErrorInvalidValue;
    return cudaSuccess;
}

}  // namespace p2c_sim

// ---- errors -------------------------------------------------------------------------------
inline cudaError_t cudaGetLastError() {
    cudaError_t e = p2c_sim::last_error;
    p2c_sim::last_error = cudaSuccess;
    return e;
}
inline cudaError_t cudaPeekAtLastError() { return p2c_sim::last_error; }

inline const char *cudaGetErrorName(cudaError_t e) {
    switch (e) {
#define P2C_SIM_NAME(x) case x: return #x;
        P2C_SIM_NAME(cudaSuccess)
        P2C_SIM_NAME(cudaErrorInvalidValue)
        P2C_SIM_NAME(cudaErrorMemoryAllocation)
        P2C_SIM_NAME(cudaErrorInitializationError)
        P2C_SIM_NAME(cudaErrorCudartUnloading)
        P2C_SIM_NAME(cudaErrorInvalidConfiguration)
        P2C_SIM_NAME(cudaErrorInvalidPitchValue)
        P2C_SIM_NAME(cudaErrorInvalidSymbol)
        P2C_SIM_NAME(cudaErrorInvalidHostPointer)
        P2C_SIM_NAME(cudaErrorInvalidDevicePointer)
        P2C_SIM_NAME(cudaErrorInvalidMemcpyDirection)
        P2C_SIM_NAME(cudaErrorSynchronizationError)
        P2C_SIM_NAME(cudaErrorNotYetImplemented)
        P2C_SIM_NAME(cudaErrorInsufficientDriver)
        P2C_SIM_NAME(cudaErrorMissingConfiguration)
        P2C_SIM_NAME(cudaErrorInvalidDeviceFunction)
        P2C_SIM_NAME(cudaErrorNoDevice)
        P2C_SIM_NAME(cudaErrorInvalidDevice)
        P2C_SIM_NAME(cudaErrorInvalidKernelImage)
        P2C_SIM_NAME(cudaErrorNoKernelImageForDevice)
        P2C_SIM_NAME(cudaErrorInvalidResourceHandle)
        P2C_SIM_NAME(cudaErrorNotReady)
        P2C_SIM_NAME(cudaErrorIllegalAddress)
        P2C_SIM_NAME(cudaErrorLaunchOutOfResources)
        P2C_SIM_NAME(cudaErrorLaunchTimeout)
        P2C_SIM_NAME(cudaErrorAssert)
        P2C_SIM_NAME(cudaErrorLaunchFailure)
        P2C_SIM_NAME(cudaErrorNotSupported)
        P2C_SIM_NAME(cudaErrorUnknown)
#undef P2C_SIM_NAME
    }
    return "cudaErrorUnknown";
}

inline const char *cudaGetErrorString(cudaError_t e) {
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidPitchValue: return "invalid pitch argument";
    case cudaErrorInvalidSymbol: return "invalid device symbol";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorNotSupported: return "operation not supported";
    default: return cudaGetErrorName(e);
    }
}

// ---- device management ----------------------------------------------------------------------
inline cudaError_t cudaGetDeviceCount(int *count) {
    if (!count) return p2c_sim::set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}
inline cudaError_t cudaSetDevice(int device) {
    return device == 0 ? cudaSuccess : p2c_sim::set_error(cudaErrorInvalidDevice);
}
inline cudaError_t cudaGetDevice(int *device) {
    if (!device) return p2c_sim::set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}
// The CUDA version the emulator stands for (CUDA 12.0), for runtime and driver alike.
inline cudaError_t cudaRuntimeGetVersion(int *version) {
    if (!version) return p2c_sim::set_error(cudaErrorInvalidValue);
    *version = 12000;
    return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *version) { return cudaRuntimeGetVersion(version); }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
    if (!prop) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (device != 0) return p2c_sim::set_error(cudaErrorInvalidDevice);
    std::memset(prop, 0, sizeof *prop);
    std::snprintf(prop->name, sizeof prop->name, "%s", "pragma2cuda SIMT emulator");
    prop->totalGlobalMem = size_t(16) << 30;
    prop->sharedMemPerBlock = p2c_sim::kMaxShared;
    prop->sharedMemPerBlockOptin = p2c_sim::kMaxShared;
    prop->sharedMemPerMultiprocessor = p2c_sim::kMaxShared;
    prop->regsPerBlock = 65536;
    prop->regsPerMultiprocessor = 65536;
    prop->warpSize = 32;
    prop->memPitch = SIZE_MAX;
    prop->maxThreadsPerBlock = 1024;
    prop->maxThreadsDim[0] = 1024;
    prop->maxThreadsDim[1] = 1024;
    prop->maxThreadsDim[2] = 64;
    prop->maxGridSize[0] = 2147483647;
    prop->maxGridSize[1] = 65535;
    prop->maxGridSize[2] = 65535;
    prop->clockRate = 1000000;
    prop->totalConstMem = 65536;
    prop->major = 8;
    prop->minor = 0;
    prop->multiProcessorCount = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    prop->maxThreadsPerMultiProcessor = 1024;
    prop->maxBlocksPerMultiProcessor = 1;
    prop->concurrentKernels = 0;
    prop->unifiedAddressing = 1;
    prop->managedMemory = 1;
    prop->canMapHostMemory = 1;
    prop->l2CacheSize = 0;
    return cudaSuccess;
}
namespace p2c_sim {
// Whether the emulated GPU accesses pageable host memory (HMM or ATS): off (a
// discrete GPU) until the program calls p2c_sim_model_pageable_memory().
inline std::atomic<bool> &pageable_memory() {
    static std::atomic<bool> on{false};
    return on;
}
} // namespace p2c_sim

// The prelude's check of `omp requires unified_shared_memory` calls it before
// querying cudaDevAttrPageableMemoryAccess: from then on the emulator models a
// system whose GPU reads and writes host memory in place (the attribute is 1
// and a kernel launch accepts host addresses).
inline void p2c_sim_model_pageable_memory() { p2c_sim::pageable_memory() = true; }

inline cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
    if (!value) return p2c_sim::set_error(cudaErrorInvalidValue);
    cudaDeviceProp prop;
    if (cudaError_t e = cudaGetDeviceProperties(&prop, device); e != cudaSuccess) return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = prop.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(prop.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = prop.warpSize; break;
    case cudaDevAttrMultiProcessorCount: *value = prop.multiProcessorCount; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = prop.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = prop.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = prop.minor; break;
    case cudaDevAttrUnifiedAddressing: *value = prop.unifiedAddressing; break;
    // A discrete GPU's (kernel arguments that are host addresses are refused),
    // unless the program asked for a system with HMM or ATS (see below).
    case cudaDevAttrPageableMemoryAccess: *value = p2c_sim::pageable_memory() ? 1 : 0; break;
    default: return p2c_sim::set_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}
inline cudaError_t cudaDeviceReset() { return cudaSuccess; }

// ---- memory ---------------------------------------------------------------------------------
namespace p2c_sim {
// A synchronous copy or memset is work on the legacy default stream: it starts after the work
// of every blocking stream issued before it, as on CUDA (streams.h; nothing on a stream's worker).
inline void legacy_stream_turn();
}  // namespace p2c_sim
inline cudaError_t cudaMalloc(void **p, size_t n) { return p2c_sim::device_malloc(p, n); }
template <class T>
inline cudaError_t cudaMalloc(T **p, size_t n) {
    return p2c_sim::device_malloc(reinterpret_cast<void **>(p), n);
}
inline cudaError_t cudaMallocManaged(void **p, size_t n, unsigned = cudaMemAttachGlobal) {
    return p2c_sim::device_malloc(p, n);
}
template <class T>
inline cudaError_t cudaMallocManaged(T **p, size_t n, unsigned flags = cudaMemAttachGlobal) {
    return cudaMallocManaged(reinterpret_cast<void **>(p), n, flags);
}
inline cudaError_t cudaMallocHost(void **p, size_t n) { return p2c_sim::device_malloc(p, n); }
template <class T>
inline cudaError_t cudaMallocHost(T **p, size_t n) {
    return p2c_sim::device_malloc(reinterpret_cast<void **>(p), n);
}
inline cudaError_t cudaHostAlloc(void **p, size_t n, unsigned) { return p2c_sim::device_malloc(p, n); }
inline cudaError_t cudaFree(void *p) {
    if (!p) return cudaSuccess;
    if (!p2c_sim::allocations().remove(p)) return p2c_sim::set_error(cudaErrorInvalidValue);
    p2c_sim::arena().release(p);
    return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void *p) { return cudaFree(p); }
// Free memory is the total less what the program holds, so an allocation shows in it.
inline cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
    const size_t all = size_t(16) << 30, held = p2c_sim::allocations().live_bytes();
    if (free_bytes) *free_bytes = held < all ? all - held : 0;
    if (total) *total = all;
    return cudaSuccess;
}

inline cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, cudaMemcpyKind kind) {
    cudaError_t e = p2c_sim::check_copy(dst, src, n, kind);
    if (e != cudaSuccess) return p2c_sim::set_error(e);
    p2c_sim::legacy_stream_turn();
    if (n) std::memmove(dst, src, n);
    return cudaSuccess;
}

inline cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
    if (width > dpitch || width > spitch) return p2c_sim::set_error(cudaErrorInvalidPitchValue);
    if (width == 0 || height == 0) return cudaSuccess;
    const size_t dspan = dpitch * (height - 1) + width, sspan = spitch * (height - 1) + width;
    if (!dst || !src) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice)
        if (!p2c_sim::allocations().contains(dst, dspan)) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)
        if (!p2c_sim::allocations().contains(src, sspan)) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (kind > cudaMemcpyDefault) return p2c_sim::set_error(cudaErrorInvalidMemcpyDirection);
    p2c_sim::legacy_stream_turn();
    for (size_t r = 0; r < height; ++r)
        std::memmove(static_cast<unsigned char *>(dst) + r * dpitch,
                     static_cast<const unsigned char *>(src) + r * spitch, width);
    return cudaSuccess;
}

inline cudaError_t cudaMemset(void *p, int value, size_t n) {
    if (n == 0) return cudaSuccess;
    if (!p2c_sim::allocations().contains(p, n)) return p2c_sim::set_error(cudaErrorInvalidValue);
    p2c_sim::legacy_stream_turn();
    std::memset(p, value, n);
    return cudaSuccess;
}

template <class T>
inline cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t n,
                                      size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    if (offset > sizeof(T) || n > sizeof(T) - offset) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDeviceToHost) return p2c_sim::set_error(cudaErrorInvalidMemcpyDirection);
    p2c_sim::legacy_stream_turn();
    std::memmove(reinterpret_cast<unsigned char *>(const_cast<T *>(&symbol)) + offset, src, n);
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t n, size_t offset = 0,
                                        cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    if (offset > sizeof(T) || n > sizeof(T) - offset) return p2c_sim::set_error(cudaErrorInvalidValue);
    if (kind == cudaMemcpyHostToDevice) return p2c_sim::set_error(cudaErrorInvalidMemcpyDirection);
    p2c_sim::legacy_stream_turn();
    std::memmove(dst, reinterpret_cast<const unsigned char *>(&symbol) + offset, n);
    return cudaSuccess;
}
template <class T>
inline cudaError_t cudaGetSymbolAddress(void **p, const T &symbol) {
    if (!p) return p2c_sim::set_error(cudaErrorInvalidValue);
    *p = const_cast<T *>(&symbol);
    // The address is device memory from now on: copies to and from it are checked as such.
    p2c_sim::allocations().add_symbol(&symbol, sizeof(T));
    return cudaSuccess;
}


// ---- launch ---------------------------------------------------------------------------------
namespace p2c_sim {

inline bool valid_config(dim3 g, dim3 b, size_t shmem) {
    if (b.x == 0 || b.y == 0 || b.z == 0 || g.x == 0 || g.y == 0 || g.z == 0) return false;
    if (b.x > 1024 || b.y > 1024 || b.z > 64) return false;
    if (static_cast<unsigned long long>(b.x) * b.y * b.z > kMaxThreads) return false;
    if (g.x > 2147483647u || g.y > 65535u || g.z > 65535u) return false;
    if (shmem > kMaxShared) return false;
    return true;
}

// A kernel may only dereference device memory. Host and device share one address
// space here, so a host pointer handed to a kernel would work in the emulator and
// fault (or read stale data) on a GPU: every pointer argument must be null, point
// into the device arena (see Arena: biased bases included) or into a __device__
// variable whose address was taken. Pointers inside struct arguments are not seen.
template <std::size_t I = 0, class Tuple>
inline void check_pointer_args(const Tuple &args) {
    if constexpr (I < std::tuple_size_v<Tuple>) {
        using T = std::tuple_element_t<I, Tuple>;
        if constexpr (std::is_pointer_v<T> && !std::is_function_v<std::remove_pointer_t<T>>) {
            const void *p = static_cast<const void *>(std::get<I>(args));
            if (p && !pageable_memory() && !arena().holds(p) && !allocations().contains(p, 0) &&
                !allocations().is_host_value(p))
                fail("kernel launch: argument %zu is the host address %p, not device memory "
                     "(cudaMalloc it and copy, or map it); a GPU cannot read it",
                     I + 1, p);
        }
        check_pointer_args<I + 1>(args);
    }
}

template <class... P>
struct Launcher {
    void (*kernel)(P...);
    dim3 grid, block;
    size_t shmem;

    template <class... A>
    void operator()(A &&...args) const {
        static_assert(sizeof...(A) == sizeof...(P),
                      "p2c_sim_launch: wrong number of kernel arguments");
        // Converted once to the parameter types; each CUDA thread gets its own copy.
        using Args = std::tuple<std::decay_t<P>...>;
        struct Bound {
            void (*kernel)(P...);
            Args args;
        };
        Bound bound{kernel, Args(std::forward<A>(args)...)};
        if (tctx)
            fail_at("p2c_sim_launch", "kernel launch from device code (dynamic parallelism) "
                                      "is not supported");
        if (!valid_config(grid, block, shmem)) {
            set_error(cudaErrorInvalidConfiguration);
            return;
        }
        check_pointer_args(bound.args);
        Pool &pool = p2c_sim::pool();
        std::lock_guard<std::mutex> guard(pool.launch_mutex);
        Launch &L = *pool.state;
        L.invoke = [](const void *p) {
            const Bound &b = *static_cast<const Bound *>(p);
            std::apply(b.kernel, b.args);
        };
        L.args = &bound;
        L.grid = grid;
        L.block = block;
        L.nthreads = block.x * block.y * block.z;
        L.nwarps = (L.nthreads + 31) / 32;
        L.nblocks = static_cast<unsigned long long>(grid.x) * grid.y * grid.z;
        L.shmem = shmem;
        L.nslots = static_cast<unsigned>(
            std::min<unsigned long long>(kSlots, std::max<unsigned long long>(L.nblocks, 1)));
        // Dynamic shared memory (one buffer per block slot) starts with a recognisable
        // pattern, as it is undefined.
        const size_t dyn_bytes = (shmem + 15) / 16 * 16 + 16;
        std::unique_ptr<unsigned char, void (*)(void *)> dyn(
            static_cast<unsigned char *>(std::aligned_alloc(16, dyn_bytes * L.nslots)),
            std::free);
        std::memset(dyn.get(), 0xA5, dyn_bytes * L.nslots);
        for (unsigned k = 0; k < L.nslots; ++k) {
            Block &B = L.slots[k];
            B.index = k;
            B.nwarps = L.nwarps;
            B.current = k;
            B.dyn_shared = dyn.get() + k * dyn_bytes;
            for (unsigned w = 0; w < L.nwarps; ++w) {
                unsigned n = std::min(32u, L.nthreads - w * 32);
                B.warps[w].existing = n == 32 ? 0xffffffffu : ((1u << n) - 1u);
            }
            B.end_arrived.store(0, std::memory_order_relaxed);
            B.reset_block();
        }
        L.next_block.store(L.nslots, std::memory_order_relaxed);
        pool.run(L);
        for (unsigned k = 0; k < L.nslots; ++k) L.slots[k].dyn_shared = nullptr;
        L.args = nullptr;
    }
};

inline dim3 to_dim3(dim3 d) { return d; }
inline dim3 to_dim3(uint3 d) { return dim3(d); }
template <class I>
    requires std::is_integral_v<I>
inline dim3 to_dim3(I n) {
    return dim3(static_cast<unsigned>(n));
}

}  // namespace p2c_sim

// The generated code's hook for a pointer that keeps its host value in a region (see
// Allocations::host_values): `add` before the launch, not after it.
inline void p2c_sim_host_value(const void *p, int add) { p2c_sim::allocations().host_value(p, add != 0); }

