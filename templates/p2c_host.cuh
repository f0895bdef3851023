/* ---- pragma2cuda host helpers (templates/p2c_host.cuh) -------------------
 * The device data environment: a present table of mapped host ranges with
 * reference counts (OpenMP map / OpenACC data clauses), kernel launch checks,
 * launch-size helpers and reduction scratch buffers.
 */
#include <string.h>

inline namespace p2c_prelude_2 {

enum p2c_map_kind {
    P2C_MAP_ALLOC = 0,  /* map(alloc:)  / create  */
    P2C_MAP_TO = 1,     /* map(to:)     / copyin  */
    P2C_MAP_FROM = 2,   /* map(from:)   / copyout */
    P2C_MAP_TOFROM = 3, /* map(tofrom:) / copy    */
    P2C_MAP_PRESENT = 4 /* present: must already be mapped */
};

struct p2c_mapping {
    const char *host;
    size_t bytes;
    char *dev;
    long refcount;
};

inline struct p2c_mapping *p2c_present_table;
inline size_t p2c_present_count, p2c_present_capacity;

inline void p2c_fail(const char *where, const char *what, const char *detail)
{
    fprintf(stderr, "%s: pragma2cuda runtime error: %s%s%s\n", where, what, detail ? ": " : "", detail ? detail : "");
    exit(EXIT_FAILURE);
}

inline void p2c_check(cudaError_t err, const char *where, const char *what)
{
    if (err != cudaSuccess)
        p2c_fail(where, what, cudaGetErrorString(err));
}

/* The mapping that contains [host, host + bytes), or NULL. */
inline struct p2c_mapping *p2c_lookup(const void *host, size_t bytes)
{
    const char *h = (const char *)host;
    for (size_t i = 0; i < p2c_present_count; i++) {
        struct p2c_mapping *m = &p2c_present_table[i];
        if (h >= m->host && h + bytes <= m->host + m->bytes)
            return m;
    }
    return NULL;
}

/* Maps [host, host + bytes) and returns its device address. A range already
 * present is reused with its reference count raised and is not copied again. */
inline void *p2c_map_enter(const void *host, size_t bytes, int kind, const char *where)
{
    struct p2c_mapping *m = p2c_lookup(host, bytes);
    if (m) {
        m->refcount++;
        return m->dev + ((const char *)host - m->host);
    }
    if (kind == P2C_MAP_PRESENT)
        p2c_fail(where, "data is not present on the device", NULL);
    if (p2c_present_count == p2c_present_capacity) {
        size_t cap = p2c_present_capacity ? 2 * p2c_present_capacity : 16;
        struct p2c_mapping *t = (struct p2c_mapping *)realloc(p2c_present_table, cap * sizeof *t);
        if (!t)
            p2c_fail(where, "out of host memory", NULL);
        p2c_present_table = t;
        p2c_present_capacity = cap;
    }
    void *dev = NULL;
    p2c_check(cudaMalloc(&dev, bytes ? bytes : 1), where, "cudaMalloc");
    if ((kind == P2C_MAP_TO || kind == P2C_MAP_TOFROM) && bytes)
        p2c_check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), where, "copy to device");
    m = &p2c_present_table[p2c_present_count++];
    m->host = (const char *)host;
    m->bytes = bytes;
    m->dev = (char *)dev;
    m->refcount = 1;
    return dev;
}

/* Ends one reference to [host, host + bytes); the last one copies back
 * (from / tofrom) and frees the device copy. */
inline void p2c_map_exit(const void *host, size_t bytes, int kind, const char *where)
{
    struct p2c_mapping *m = p2c_lookup(host, bytes);
    if (!m)
        p2c_fail(where, "data is not present on the device", NULL);
    if (--m->refcount > 0)
        return;
    if ((kind == P2C_MAP_FROM || kind == P2C_MAP_TOFROM) && m->bytes)
        p2c_check(cudaMemcpy((void *)m->host, m->dev, m->bytes, cudaMemcpyDeviceToHost), where, "copy from device");
    p2c_check(cudaFree(m->dev), where, "cudaFree");
    *m = p2c_present_table[--p2c_present_count];
}

/* Array section base[lo : len] of element type T: maps it and returns the
 * device address that corresponds to `base`, so kernels index as on the host. */
template <class T>
inline T *p2c_map_section(T *base, long long lo, long long len, int kind, const char *where)
{
    if (len < 0)
        p2c_fail(where, "array section has a negative length", NULL);
    T *dev = (T *)p2c_map_enter(base + lo, (size_t)len * sizeof(T), kind, where);
    return dev - lo;
}

template <class T>
inline void p2c_unmap_section(T *base, long long lo, long long len, int kind, const char *where)
{
    p2c_map_exit(base + lo, (size_t)len * sizeof(T), kind, where);
}

/* A mapped scalar: its device copy. */
template <class T>
inline T *p2c_map_scalar(T *var, int kind, const char *where)
{
    return (T *)p2c_map_enter(var, sizeof(T), kind, where);
}

template <class T>
inline void p2c_unmap_scalar(T *var, int kind, const char *where)
{
    p2c_map_exit(var, sizeof(T), kind, where);
}

/* Reports a failed launch or a fault in the kernel, with the region's place. */
inline void p2c_check_launch(const char *where)
{
    p2c_check(cudaGetLastError(), where, "kernel launch");
    p2c_check(cudaDeviceSynchronize(), where, "kernel execution");
}

/* Blocks for `trip` iterations at `threads` per block, at least 1, at most `cap`. */
inline unsigned p2c_blocks_for(unsigned long long trip, unsigned threads, unsigned cap)
{
    unsigned long long b = (trip + threads - 1) / threads;
    if (b < 1)
        b = 1;
    return (unsigned)(b > cap ? cap : b);
}

/* A value from a num_teams / num_threads / num_gangs ... clause, checked. */
inline unsigned p2c_positive(long long v, unsigned limit, const char *where, const char *clause)
{
    if (v < 1 || (unsigned long long)v > limit) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s(%lld) is outside 1..%u", clause, v, limit);
        p2c_fail(where, "invalid launch size", msg);
    }
    return (unsigned)v;
}

/* Device storage for gang-level reductions (RED_SETUP at GANG): per-block
 * partials and a counter that the kernels return to zero, reused by every
 * launch (launches are synchronous). Slot `lid` holds the reduction data of
 * loop `lid` of the running region. */
enum { P2C_MAX_REDUCTIONS = 64 };
inline void *p2c_partials_buf[P2C_MAX_REDUCTIONS];
inline size_t p2c_partials_bytes[P2C_MAX_REDUCTIONS];
inline unsigned *p2c_counters;

template <class T>
inline T *p2c_partials(unsigned lid, unsigned blocks, const char *where)
{
    size_t need = (size_t)blocks * sizeof(T);
    if (lid >= P2C_MAX_REDUCTIONS)
        p2c_fail(where, "too many reduction loops in one region", NULL);
    if (p2c_partials_bytes[lid] < need) {
        if (p2c_partials_buf[lid])
            p2c_check(cudaFree(p2c_partials_buf[lid]), where, "cudaFree");
        p2c_check(cudaMalloc(&p2c_partials_buf[lid], need), where, "cudaMalloc");
        p2c_partials_bytes[lid] = need;
    }
    return (T *)p2c_partials_buf[lid];
}

/* The global lock of gang reductions with --reduction-strategy=lock (seed
 * 001: one lock for the whole program), zero when no kernel holds it. */
inline unsigned *p2c_gang_lock_word;

inline unsigned *p2c_gang_lock(const char *where)
{
    if (!p2c_gang_lock_word) {
        p2c_check(cudaMalloc((void **)&p2c_gang_lock_word, sizeof(unsigned)), where, "cudaMalloc");
        p2c_check(cudaMemset(p2c_gang_lock_word, 0, sizeof(unsigned)), where, "cudaMemset");
    }
    return p2c_gang_lock_word;
}

inline unsigned *p2c_counter(unsigned lid, const char *where)
{
    if (!p2c_counters) {
        p2c_check(cudaMalloc((void **)&p2c_counters, P2C_MAX_REDUCTIONS * sizeof(unsigned)), where, "cudaMalloc");
        p2c_check(cudaMemset(p2c_counters, 0, P2C_MAX_REDUCTIONS * sizeof(unsigned)), where, "cudaMemset");
    }
    return p2c_counters + lid;
}
} /* namespace p2c_prelude_2 */
/* ---- end of host helpers ---- */
