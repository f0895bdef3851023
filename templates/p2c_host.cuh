/* ---- pragma2cuda host helpers (templates/p2c_host.cuh) -------------------
 * The device data environment: a present table of mapped host ranges with
 * reference counts (OpenMP map / OpenACC data clauses, enter/exit data,
 * update, declare target), kernel launch checks, launch-size helpers and
 * reduction scratch buffers.
 */
#include <string.h>

inline namespace p2c_prelude_2 {

/* What a map clause does on entry and on exit. The kind is the low four bits;
 * the modifiers are flags above it. */
enum p2c_map_kind {
    P2C_MAP_ALLOC = 0,      /* map(alloc:)  / create     */
    P2C_MAP_TO = 1,         /* map(to:)     / copyin     */
    P2C_MAP_FROM = 2,       /* map(from:)   / copyout    */
    P2C_MAP_TOFROM = 3,     /* map(tofrom:) / copy       */
    P2C_MAP_PRESENT = 4,    /* present: must already be mapped; no transfer */
    P2C_MAP_RELEASE = 5,    /* map(release:) / acc delete: one reference less, no transfer */
    P2C_MAP_DELETE = 6,     /* map(delete:): every reference dropped, no transfer */
    P2C_MAP_NO_CREATE = 7,  /* acc no_create: one reference more if present, nothing otherwise */
    P2C_MAP_ATTACH = 8,     /* OpenMP's implicit zero-length section of a pointer: the device
                               address inside the mapping that contains it, else the host
                               value (OpenMP 5.2, 5.8.6); no reference, no transfer */
    P2C_MAP_KIND = 15,
    P2C_MAP_ALWAYS = 16,    /* always: transfer even when the data was or stays present */
    P2C_MAP_MUST_BE_PRESENT = 32, /* map(present, ...): an error when not present */
    P2C_MAP_FINALIZE = 64,  /* acc exit data finalize: the dynamic count drops to zero */
    P2C_MAP_IMPLICIT = 128, /* an implicitly mapped whole array: a section of it already
                               present stands for it (the kernel uses only that part) */
    P2C_MAP_ZERO = 256      /* acc `zero:` on create / copyout: a device copy this entry
                               allocates is filled with zero bytes (OpenACC 3.3, 2.7.7) */
};

/* Which reference count an entry or exit changes. OpenACC 3.3 keeps two per
 * mapping: structured (data and compute constructs) and dynamic (enter/exit
 * data, acc_copyin and friends); the data is freed when both are zero.
 * OpenMP 5.2 has one count: its enter/exit data change the sum, taking from
 * the dynamic part first. A structured exit whose own count is already zero
 * (OpenMP only: `exit data` released the reference a data region took) takes
 * from the dynamic part, so the sum stays OpenMP's count. */
enum p2c_ref {
    P2C_REF_STRUCTURED = 0,
    P2C_REF_ACC_DYNAMIC = 1,
    P2C_REF_OMP_DYNAMIC = 2
};

struct p2c_mapping {
    const char *host;
    size_t bytes;
    char *dev;
    long structured, dynamic;
    int permanent; /* declare target / acc declare variables, acc_map_data: never unmapped by counts */
    int owned;     /* dev was allocated here (freed when the mapping ends) */
    const char *name;
};

/* A host range as a map clause names it: `rows` rows of `pitch` bytes from
 * `host`, of which bytes [off, off + width) of each row are transferred (a
 * 2-D section a[lo:n][lo2:n2]; one row for anything else). The device copy
 * always covers whole rows, so kernels index it as the host array. */
struct p2c_range {
    const char *host;
    size_t pitch, rows, off, width;
    const char *name;
};

inline struct p2c_mapping *p2c_present_table;
inline size_t p2c_present_count, p2c_present_capacity;

inline void p2c_fail(const char *where, const char *what, const char *detail)
{
    fprintf(stderr, "%s: pragma2cuda runtime error: %s%s%s\n", where, what, detail ? ": " : "", detail ? detail : "");
    exit(EXIT_FAILURE);
}

/* An error about one variable: "`a` is not present on the device (...)". */
inline void p2c_fail_var(const char *where, const char *name, const char *what, const char *detail)
{
    char msg[512];
    if (name)
        snprintf(msg, sizeof msg, "`%s` %s", name, what);
    else
        snprintf(msg, sizeof msg, "the data %s", what);
    p2c_fail(where, msg, detail);
}

inline void p2c_check(cudaError_t err, const char *where, const char *what)
{
    if (err != cudaSuccess)
        p2c_fail(where, what, cudaGetErrorString(err));
}

/* ---- the OpenACC current device type ----------------------------------------
 * 1 while `acc set device_type(host)` or acc_set_device_type(acc_device_host)
 * selects the host device (templates/p2c_runtime.cuh). The translation runs
 * compute constructs and data clauses on the GPU only, so a kernel launch or
 * a present-table look-up while the host is selected stops the program
 * rather than run on the device the program did not select. */
inline int p2c_acc_host_selected;

inline void p2c_require_device(const char *where)
{
    if (p2c_acc_host_selected)
        p2c_fail(where, "a compute construct or data operation while `acc set device_type(host)` selects the host device",
                 "the translation runs them on the GPU only; select the GPU again first (device_type(nvidia) or device_type(default))");
}

/* The grid of a launch (P2C_LAUNCH), after the check above. */
template <class G>
inline G p2c_device_grid(G grid)
{
    p2c_require_device("kernel launch");
    return grid;
}

/* ---- asynchrony (#21) ------------------------------------------------------
 * The stream the data movement and the launches of the running construct go
 * to: 0, the default stream (each operation completes before the host goes
 * on), unless an OpenACC `async` construct or routine set its queue's stream
 * for its duration (p2c_acc_queue, templates/p2c_runtime.cuh). */
inline thread_local cudaStream_t p2c_stream = 0;

/* Device copies whose last reference an operation on a stream dropped: freed
 * once the stream has passed that point (an event recorded after the copy
 * back), never before; checked at every wait and before every allocation. */
struct p2c_deferred_free {
    char *dev;
    cudaEvent_t passed;
};
inline struct p2c_deferred_free *p2c_deferred;
inline size_t p2c_deferred_count, p2c_deferred_capacity;

/* Frees the deferred copies the streams have passed (every one when `all`,
 * waiting for the streams). */
inline void p2c_reap_frees(int all, const char *where)
{
    size_t kept = 0;
    for (size_t i = 0; i < p2c_deferred_count; i++) {
        struct p2c_deferred_free d = p2c_deferred[i];
        cudaError_t e = all ? cudaEventSynchronize(d.passed) : cudaEventQuery(d.passed);
        if (e == cudaErrorNotReady) {
            p2c_deferred[kept++] = d;
            continue;
        }
        p2c_check(e, where, "waiting for an async queue");
        p2c_check(cudaEventDestroy(d.passed), where, "cudaEventDestroy");
        p2c_check(cudaFree(d.dev), where, "cudaFree");
    }
    p2c_deferred_count = kept;
}

/* OpenACC queues created so far (templates/p2c_runtime.cuh). */
inline int p2c_queues_created;

/* Frees a device copy now, or when p2c_stream gets there. Now: after every
 * queue's work (a kernel queued inside a synchronous data region may still
 * read it), as cudaFree waits for the whole device on a GPU anyway. */
inline void p2c_free_device(char *dev, const char *where)
{
    if (!p2c_stream) {
        if (p2c_queues_created)
            p2c_check(cudaDeviceSynchronize(), where, "waiting for the async queues before a free");
        p2c_check(cudaFree(dev), where, "cudaFree");
        return;
    }
    if (p2c_deferred_count == p2c_deferred_capacity) {
        size_t cap = p2c_deferred_capacity ? 2 * p2c_deferred_capacity : 16;
        struct p2c_deferred_free *t = (struct p2c_deferred_free *)realloc(p2c_deferred, cap * sizeof *t);
        if (!t)
            p2c_fail(where, "out of host memory", NULL);
        p2c_deferred = t;
        p2c_deferred_capacity = cap;
    }
    struct p2c_deferred_free *d = &p2c_deferred[p2c_deferred_count++];
    d->dev = dev;
    p2c_check(cudaEventCreateWithFlags(&d->passed, cudaEventDisableTiming), where, "cudaEventCreate");
    p2c_check(cudaEventRecord(d->passed, p2c_stream), where, "cudaEventRecord");
}

inline size_t p2c_range_bytes(struct p2c_range r)
{
    return r.pitch * r.rows;
}

/* The whole object at `host`. */
inline struct p2c_range p2c_bytes(const void *host, size_t bytes, const char *name)
{
    struct p2c_range r = {(const char *)host, bytes, 1, 0, bytes, name};
    return r;
}

template <class T>
inline struct p2c_range p2c_object(T *var, const char *name)
{
    return p2c_bytes(var, sizeof(T), name);
}

/* base[lo : len] with elements (or rows) of type T. */
template <class T>
inline struct p2c_range p2c_section(T *base, long long lo, long long len, const char *where, const char *name)
{
    if (len < 0)
        p2c_fail_var(where, name, "has an array section with a negative length", NULL);
    struct p2c_range r = {(const char *)(base + lo), sizeof(T), (size_t)len, 0, sizeof(T), name};
    return r;
}

/* base[lo : len][lo2 : len2] where T is a row (an array type). */
template <class T>
inline struct p2c_range p2c_section2(T *base, long long lo, long long len, long long lo2, long long len2, const char *where, const char *name)
{
    const size_t elem = sizeof((*base)[0]);
    const long long extent = (long long)(sizeof(T) / elem);
    struct p2c_range r = p2c_section(base, lo, len, where, name);
    if (len2 < 0)
        p2c_fail_var(where, name, "has an array section with a negative length", NULL);
    if (lo2 < 0 || lo2 + len2 > extent) {
        char msg[96];
        snprintf(msg, sizeof msg, "[%lld:%lld] in a row of %lld elements", lo2, len2, extent);
        p2c_fail_var(where, name, "has a section outside the array", msg);
    }
    r.off = (size_t)lo2 * elem;
    r.width = (size_t)len2 * elem;
    return r;
}

/* ---- declare target / acc declare variables -------------------------------
 * Each such variable has a __device__ mirror. A registration record (made by
 * a constructor before main, without touching CUDA) is turned into a
 * permanent present-table entry linking the two addresses the first time the
 * table is used, so that map clauses and `update` find the mirror. */
enum { P2C_DECLARED_LINK = 1 };

struct p2c_declared {
    const void *host;
    size_t bytes;
    void *(*device)(void);
    const char *name;
    int link;
    struct p2c_declared *next;
    p2c_declared(const void *h, size_t n, void *(*d)(void), const char *nm, int lk = 0);
};

inline struct p2c_declared *p2c_declared_pending;

inline p2c_declared::p2c_declared(const void *h, size_t n, void *(*d)(void), const char *nm, int lk)
    : host(h), bytes(n), device(d), name(nm), link(lk), next(p2c_declared_pending)
{
    p2c_declared_pending = this;
}

/* `declare target link` variables: not present by themselves; a map of a
 * range inside one uses its mirror as the device copy (no allocation). */
struct p2c_link {
    const char *host;
    size_t bytes;
    char *dev;
};
inline struct p2c_link *p2c_links;
inline size_t p2c_link_count;

inline struct p2c_mapping *p2c_table_add(const void *host, size_t bytes, char *dev, const char *name, const char *where)
{
    if (p2c_present_count == p2c_present_capacity) {
        size_t cap = p2c_present_capacity ? 2 * p2c_present_capacity : 16;
        struct p2c_mapping *t = (struct p2c_mapping *)realloc(p2c_present_table, cap * sizeof *t);
        if (!t)
            p2c_fail(where, "out of host memory", NULL);
        p2c_present_table = t;
        p2c_present_capacity = cap;
    }
    struct p2c_mapping *m = &p2c_present_table[p2c_present_count++];
    m->host = (const char *)host;
    m->bytes = bytes;
    m->dev = dev;
    m->structured = 0;
    m->dynamic = 0;
    m->permanent = 0;
    m->owned = 1;
    m->name = name;
    return m;
}

inline void p2c_register_declared(void)
{
    while (p2c_declared_pending) {
        struct p2c_declared *d = p2c_declared_pending;
        p2c_declared_pending = d->next;
        void *dev = d->device();
        if (!dev)
            p2c_fail_var("pragma2cuda", d->name, "(declare target): its device copy cannot be found", NULL);
        if (d->link) {
            struct p2c_link *t = (struct p2c_link *)realloc(p2c_links, (p2c_link_count + 1) * sizeof *t);
            if (!t)
                p2c_fail("pragma2cuda", "out of host memory", NULL);
            p2c_links = t;
            p2c_links[p2c_link_count++] = {(const char *)d->host, d->bytes, (char *)dev};
            continue;
        }
        struct p2c_mapping *m = p2c_table_add(d->host, d->bytes, (char *)dev, d->name, d->name);
        m->permanent = 1;
        m->owned = 0;
    }
}

/* The mapping that contains `r` (its whole rows), or NULL. A range that
 * overlaps a mapping without lying inside it is an error (OpenMP leaves it
 * unspecified, OpenACC makes it an error): the device copy would be split;
 * except for an implicitly mapped array (`implicit`), which then uses the
 * part of it that is present, as OpenMP and OpenACC say. */
inline struct p2c_mapping *p2c_find(struct p2c_range r, const char *where, int implicit = 0)
{
    p2c_require_device(where);
    if (p2c_declared_pending)
        p2c_register_declared();
    const char *h = r.host;
    const size_t bytes = p2c_range_bytes(r);
    for (size_t i = 0; i < p2c_present_count; i++) {
        struct p2c_mapping *m = &p2c_present_table[i];
        const char *end = m->host + m->bytes;
        if (bytes == 0) {
            if (h == m->host || (h > m->host && h < end))
                return m;
            continue;
        }
        if (h >= m->host && h + bytes <= end)
            return m;
        if (h < end && h + bytes > m->host && m->bytes) {
            if (implicit)
                return m;
            char msg[256];
            snprintf(msg, sizeof msg, "it overlaps the device copy of `%s` without lying inside it; a mapped section must lie inside one mapping or outside all",
                     m->name ? m->name : "other data");
            p2c_fail_var(where, r.name, "is partly present on the device", msg);
        }
    }
    return NULL;
}

/* Copies the named bytes of `r` between the host and the mapping `m`. */
inline void p2c_transfer(struct p2c_mapping *m, struct p2c_range r, int to_device, const char *where)
{
    if (r.rows == 0 || r.width == 0)
        return;
    char *dev = m->dev + (r.host - m->host) + r.off;
    char *host = (char *)r.host + r.off;
    const cudaMemcpyKind dir = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    void *dst = to_device ? (void *)dev : (void *)host;
    const void *src = to_device ? (const void *)host : (const void *)dev;
    cudaError_t e;
    /* On a queue the copy is the stream's: the host must not touch the host
     * range until it waits for the queue (the program's wait, as OpenACC
     * says). */
    if (r.rows == 1 || r.width == r.pitch)
        e = p2c_stream ? cudaMemcpyAsync(dst, src, r.pitch * (r.rows - 1) + r.width, dir, p2c_stream)
                       : cudaMemcpy(dst, src, r.pitch * (r.rows - 1) + r.width, dir);
    else
        e = p2c_stream ? cudaMemcpy2DAsync(dst, r.pitch, src, r.pitch, r.width, r.rows, dir, p2c_stream)
                       : cudaMemcpy2D(dst, r.pitch, src, r.pitch, r.width, r.rows, dir);
    p2c_check(e, where, to_device ? "copy to device" : "copy from device");
}

/* Map-entering: the device address of r.host. A range already present gets
 * one more reference (of kind `ref`) and is not copied again (unless
 * `always`); otherwise it is allocated, copied in for to/tofrom, and starts
 * with one reference. NULL only for no_create of absent data. */
inline char *p2c_enter(struct p2c_range r, int kind, int ref, const char *where)
{
    const int k = kind & P2C_MAP_KIND;
    struct p2c_mapping *m = p2c_find(r, where, kind & P2C_MAP_IMPLICIT);
    if (k == P2C_MAP_ATTACH) {
        if (m)
            return m->dev + (r.host - m->host);
#if defined(P2C_SIMT_EMULATOR)
        p2c_sim_host_value(r.host, 1); /* a value the kernel may hold, not read */
#endif
        return (char *)r.host;
    }
    if (!m) {
        if (k == P2C_MAP_NO_CREATE)
            return NULL;
        if (k == P2C_MAP_PRESENT || (kind & P2C_MAP_MUST_BE_PRESENT))
            p2c_fail_var(where, r.name, "is not present on the device", "a `present` clause or modifier requires it to be mapped already");
        void *dev = NULL;
        const size_t bytes = p2c_range_bytes(r);
        const struct p2c_link *link = NULL;
        for (size_t i = 0; i < p2c_link_count && !link; i++)
            if (r.host >= p2c_links[i].host && r.host + bytes <= p2c_links[i].host + p2c_links[i].bytes)
                link = &p2c_links[i];
        if (link) {
            dev = link->dev + (r.host - link->host);
        } else {
            if (p2c_deferred_count)
                p2c_reap_frees(0, where);
            p2c_check(cudaMalloc(&dev, bytes ? bytes : 1), where, "cudaMalloc");
        }
        if (kind & P2C_MAP_ZERO)
            p2c_check(p2c_stream ? cudaMemsetAsync(dev, 0, bytes ? bytes : 1, p2c_stream)
                                 : cudaMemset(dev, 0, bytes ? bytes : 1),
                      where, "zero-filling the device copy");
        m = p2c_table_add(r.host, bytes, (char *)dev, r.name, where);
        m->owned = !link;
        if (k == P2C_MAP_TO || k == P2C_MAP_TOFROM)
            p2c_transfer(m, r, 1, where);
    } else if ((kind & P2C_MAP_ALWAYS) && (k == P2C_MAP_TO || k == P2C_MAP_TOFROM)) {
        p2c_transfer(m, r, 1, where);
    }
    if (!m->permanent) {
        if (ref == P2C_REF_STRUCTURED)
            m->structured++;
        else
            m->dynamic++;
    }
    return m->dev + (r.host - m->host);
}

/* OpenACC attachment (OpenACC 3.3, 2.6.8 and 2.7.2): a host pointer `host`
 * lying inside a mapping, whose device copy holds the device address
 * `target` instead of the host value, and its attachment counter. */
struct p2c_attachment {
    void **host;
    char *target;
    long count;
};

inline struct p2c_attachment *p2c_attached;
inline size_t p2c_attached_count, p2c_attached_capacity;

inline struct p2c_attachment *p2c_attachment_of(void **host)
{
    for (size_t i = 0; i < p2c_attached_count; i++)
        if (p2c_attached[i].host == host)
            return &p2c_attached[i];
    return NULL;
}

/* Writes `value` into the device copy (in mapping `m`) of the host pointer
 * at `hp`; after what the current queue has, before anything later. */
inline void p2c_set_device_pointer(struct p2c_mapping *m, void **hp, const void *value, const char *where)
{
    char *dev = m->dev + ((const char *)hp - m->host);
    if (p2c_stream)
        p2c_check(cudaStreamSynchronize(p2c_stream), where, "cudaStreamSynchronize");
    p2c_check(cudaMemcpy(dev, &value, sizeof value, cudaMemcpyHostToDevice), where, "setting a pointer's device copy");
}

/* The device copy of `m` ends (or is copied back for the last time): the
 * pointers attached inside it get their host values back first, so a copy
 * back never writes a device address into host memory, and their
 * attachments end with it. */
inline void p2c_detach_inside(struct p2c_mapping *m, const char *where)
{
    size_t i = 0;
    while (i < p2c_attached_count) {
        struct p2c_attachment *a = &p2c_attached[i];
        const char *h = (const char *)a->host;
        if (h >= m->host && h < m->host + m->bytes) {
            p2c_set_device_pointer(m, a->host, *a->host, where);
            *a = p2c_attached[--p2c_attached_count];
        } else {
            i++;
        }
    }
}

/* Map-exiting. Absent data is left alone (it may have been deleted by an
 * exit data inside the region). The last reference copies back (from /
 * tofrom, not release or delete) and frees the device copy; `always` copies
 * back regardless. */
inline void p2c_exit(struct p2c_range r, int kind, int ref, const char *where)
{
    const int k = kind & P2C_MAP_KIND;
    if (k == P2C_MAP_ATTACH) {
#if defined(P2C_SIMT_EMULATOR)
        if (!p2c_find(r, where))
            p2c_sim_host_value(r.host, 0);
#endif
        return;
    }
    struct p2c_mapping *m = p2c_find(r, where, kind & P2C_MAP_IMPLICIT);
    if (!m)
        return;
    const int copy_back = k == P2C_MAP_FROM || k == P2C_MAP_TOFROM;
    if (m->permanent) {
        if ((kind & P2C_MAP_ALWAYS) && copy_back)
            p2c_transfer(m, r, 0, where);
        return;
    }
    if (k == P2C_MAP_DELETE) {
        m->structured = 0;
        m->dynamic = 0;
    } else if (ref == P2C_REF_ACC_DYNAMIC) {
        if (m->dynamic == 0)
            return; /* OpenACC: no dynamic reference, no action */
        if (kind & P2C_MAP_FINALIZE)
            m->dynamic = 0;
        else
            m->dynamic--;
    } else if (ref == P2C_REF_OMP_DYNAMIC) {
        if (m->dynamic > 0)
            m->dynamic--;
        else if (m->structured > 0)
            m->structured--;
    } else {
        if (m->structured > 0)
            m->structured--;
        else if (m->dynamic > 0)
            m->dynamic--;
    }
    if (m->structured + m->dynamic > 0) {
        if ((kind & P2C_MAP_ALWAYS) && copy_back)
            p2c_transfer(m, r, 0, where);
        return;
    }
    if (p2c_attached_count)
        p2c_detach_inside(m, where);
    if (copy_back)
        p2c_transfer(m, r, 0, where);
    /* The data is no longer present from here on; on a queue its device
     * copy lives until the queue has passed the copy back. */
    if (m->owned)
        p2c_free_device(m->dev, where);
    *m = p2c_present_table[--p2c_present_count];
}

/* The attach action on the host pointer at `hp` (OpenACC 3.3, 2.7.2): when
 * the pointer lies in device memory (inside a mapping) and `probe`, an
 * address of the data it points to, is present, its device copy is set to
 * the device address that corresponds to its host value, with attachment
 * counter one; attached to that address already, the counter grows.
 * Otherwise nothing happens. */
inline void p2c_attach_at(void **hp, const void *probe, const char *where, const char *name)
{
    if (!*hp)
        return;
    struct p2c_mapping *m = p2c_find(p2c_bytes(hp, sizeof *hp, name), where);
    if (!m)
        return;
    struct p2c_mapping *t = p2c_find(p2c_bytes(probe, 0, name), where);
    if (!t)
        return;
    char *target = t->dev + ((const char *)*hp - t->host);
    struct p2c_attachment *a = p2c_attachment_of(hp);
    if (a && a->target == target) {
        a->count++;
        return;
    }
    p2c_set_device_pointer(m, hp, target, where);
    if (!a) {
        if (p2c_attached_count == p2c_attached_capacity) {
            size_t cap = p2c_attached_capacity ? 2 * p2c_attached_capacity : 16;
            struct p2c_attachment *t2 = (struct p2c_attachment *)realloc(p2c_attached, cap * sizeof *t2);
            if (!t2)
                p2c_fail(where, "out of host memory", NULL);
            p2c_attached = t2;
            p2c_attached_capacity = cap;
        }
        a = &p2c_attached[p2c_attached_count++];
        a->host = hp;
    }
    a->target = target;
    a->count = 1;
}

/* The detach action: nothing for a pointer not in device memory or not
 * attached; else the counter drops by one (to zero with finalize) and at
 * zero the device copy gets the pointer's host value back. */
inline void p2c_detach_at(void **hp, int kind, const char *where, const char *name)
{
    struct p2c_mapping *m = p2c_find(p2c_bytes(hp, sizeof *hp, name), where);
    struct p2c_attachment *a = p2c_attachment_of(hp);
    if (!m || !a)
        return;
    a->count = (kind & P2C_MAP_FINALIZE) ? 0 : a->count - 1;
    if (a->count > 0)
        return;
    p2c_set_device_pointer(m, hp, *hp, where);
    *a = p2c_attached[--p2c_attached_count];
}

/* attach(p) / detach(p) clauses: `p` must be a pointer. */
template <class T>
inline void p2c_attach_ptr(T **hp, const void *probe, const char *where, const char *name)
{
    p2c_attach_at((void **)hp, probe, where, name);
}

template <class T>
inline void p2c_attach_ptr(T *, const void *, const char *where, const char *name)
{
    p2c_fail_var(where, name, "is not a pointer", "attach and detach take a pointer");
}

template <class T>
inline void p2c_detach_ptr(T **hp, int kind, const char *where, const char *name)
{
    p2c_detach_at((void **)hp, kind, where, name);
}

template <class T>
inline void p2c_detach_ptr(T *, int, const char *where, const char *name)
{
    p2c_fail_var(where, name, "is not a pointer", "attach and detach take a pointer");
}

/* A section of a member, `s.p[lo:n]`: a pointer reference when the member
 * is a pointer (attached / detached); an array member lies inside the
 * structure and has nothing to attach. */
template <class T>
inline void p2c_attach_member(T **hp, const void *probe, const char *where, const char *name)
{
    p2c_attach_at((void **)hp, probe, where, name);
}

template <class T>
inline void p2c_attach_member(T *, const void *, const char *, const char *)
{
}

template <class T>
inline void p2c_detach_member(T **hp, int kind, const char *where, const char *name)
{
    p2c_detach_at((void **)hp, kind, where, name);
}

template <class T>
inline void p2c_detach_member(T *, int, const char *, const char *)
{
}

enum p2c_update_dir { P2C_TO_HOST = 0, P2C_TO_DEVICE = 1 };
enum p2c_absent { P2C_ABSENT_IS_ERROR = 0, P2C_ABSENT_IS_SKIPPED = 1 };

/* `target update` / `acc update`: copies a present range one way. Absent data
 * is skipped when `absent_ok` (OpenMP, acc if_present), an error otherwise. */
inline void p2c_update(struct p2c_range r, int to_device, int absent_ok, const char *where)
{
    struct p2c_mapping *m = p2c_find(r, where);
    if (!m) {
        if (absent_ok)
            return;
        p2c_fail_var(where, r.name, "is not present on the device", to_device ? "there is no device copy to update" : "there is no device copy to read back");
    }
    p2c_transfer(m, r, to_device, where);
}

/* use_device_ptr / use_device_addr (OpenMP target data), use_device (acc
 * host_data): the device address that corresponds to the host address `h`,
 * found in the mapping that contains it; NULL stays NULL. Absent data keeps
 * the host address when `absent_ok` (OpenMP, acc if_present), else it is an
 * error. */
template <class T>
inline T *p2c_use_device(T *h, int absent_ok, const char *where, const char *name)
{
    if (!h)
        return h;
    struct p2c_mapping *m = p2c_find(p2c_bytes((const void *)h, 0, name), where);
    if (m)
        return (T *)(m->dev + ((const char *)h - m->host));
    if (!absent_ok)
        p2c_fail_var(where, name, "is not present on the device", "use_device needs the data mapped by an enclosing data construct (or if_present)");
    return h;
}

/* The entry points the kernels' host code uses (structured references). */
inline void *p2c_map_enter(const void *host, size_t bytes, int kind, const char *where)
{
    return p2c_enter(p2c_bytes(host, bytes, NULL), kind, P2C_REF_STRUCTURED, where);
}

inline void p2c_map_exit(const void *host, size_t bytes, int kind, const char *where)
{
    p2c_exit(p2c_bytes(host, bytes, NULL), kind, P2C_REF_STRUCTURED, where);
}

/* Array section base[lo : len] of element type T: maps it and returns the
 * device address that corresponds to `base`, so kernels index as on the host. */
template <class T>
inline T *p2c_map_section(T *base, long long lo, long long len, int kind, const char *where, const char *name = NULL)
{
    T *dev = (T *)p2c_enter(p2c_section(base, lo, len, where, name), kind, P2C_REF_STRUCTURED, where);
    return dev - lo;
}

template <class T>
inline void p2c_unmap_section(T *base, long long lo, long long len, int kind, const char *where, const char *name = NULL)
{
    p2c_exit(p2c_section(base, lo, len, where, name), kind, P2C_REF_STRUCTURED, where);
}

/* A 2-D section base[lo : len][lo2 : len2]: whole rows on the device, only the
 * named columns transferred. */
template <class T>
inline T *p2c_map_section2(T *base, long long lo, long long len, long long lo2, long long len2, int kind, const char *where, const char *name = NULL)
{
    T *dev = (T *)p2c_enter(p2c_section2(base, lo, len, lo2, len2, where, name), kind, P2C_REF_STRUCTURED, where);
    return dev - lo;
}

template <class T>
inline void p2c_unmap_section2(T *base, long long lo, long long len, long long lo2, long long len2, int kind, const char *where, const char *name = NULL)
{
    p2c_exit(p2c_section2(base, lo, len, lo2, len2, where, name), kind, P2C_REF_STRUCTURED, where);
}

/* A mapped scalar: its device copy. */
template <class T>
inline T *p2c_map_scalar(T *var, int kind, const char *where, const char *name = NULL)
{
    return (T *)p2c_enter(p2c_object(var, name), kind, P2C_REF_STRUCTURED, where);
}

template <class T>
inline void p2c_unmap_scalar(T *var, int kind, const char *where, const char *name = NULL)
{
    p2c_exit(p2c_object(var, name), kind, P2C_REF_STRUCTURED, where);
}

/* acc declare inside a function: the data lives until the function returns
 * (by any path), so the exits run from a destructor, newest first. */
struct p2c_declare_scope {
    struct p2c_range items[32];
    int kinds[32];
    int count;
    const char *where;
    p2c_declare_scope(const char *w) : count(0), where(w) {}
    p2c_declare_scope(const p2c_declare_scope &) = delete;
    p2c_declare_scope &operator=(const p2c_declare_scope &) = delete;
    void add(struct p2c_range r, int kind)
    {
        if (count == 32)
            p2c_fail(where, "more than 32 variables in the `acc declare` directives of one function", NULL);
        p2c_enter(r, kind, P2C_REF_STRUCTURED, where);
        items[count] = r;
        kinds[count] = kind;
        count++;
    }
    ~p2c_declare_scope()
    {
        while (count > 0) {
            count--;
            p2c_exit(items[count], kinds[count], P2C_REF_STRUCTURED, where);
        }
    }
};

/* Reports a failed launch or a fault in the kernel, with the region's place.
 * A kernel on a queue is not waited for (its faults show at the wait); one
 * on the default stream is, and only it: the queues run on. */
inline void p2c_check_launch(const char *where)
{
    p2c_check(cudaGetLastError(), where, "kernel launch");
    if (!p2c_stream)
        p2c_check(cudaStreamSynchronize(0), where, "kernel execution");
}

/* How many threads the device keeps resident at once (SMs x threads per SM),
 * asked once; 0 when the device cannot say (then nothing is capped). */
inline unsigned long long p2c_resident_threads(void)
{
    static const unsigned long long resident = [] {
        int dev = 0, sms = 0, per_sm = 0;
        if (cudaGetDevice(&dev) != cudaSuccess
            || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess
            || cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxThreadsPerMultiProcessor, dev) != cudaSuccess
            || sms < 1 || per_sm < 1) {
            (void)cudaGetLastError();
            return 0ull;
        }
        return (unsigned long long)sms * (unsigned long long)per_sm;
    }();
    return resident;
}

/* Blocks for a grid-stride loop of `trip` iterations at `threads` per block:
 * one iteration per thread, but no more blocks than the device runs at once
 * (the loop hands the rest to the same threads, and a reduction then has
 * fewer partials to combine); at least 1, at most `cap`. */
inline unsigned p2c_blocks_for(unsigned long long trip, unsigned threads, unsigned cap)
{
    unsigned long long b = (trip + threads - 1) / threads;
    unsigned long long resident = p2c_resident_threads() / threads;
    if (resident > 0 && b > resident)
        b = resident;
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

/* A team size from a num_threads / thread_limit / vector_length ... clause:
 * a request the implementation may grant in part (OpenMP 5.2 12.1.3, OpenACC
 * 3.3 2.5.10), so a value above what a block can hold gets `limit`; a value
 * below 1 is an error. */
inline unsigned p2c_at_most(long long v, unsigned limit, const char *where, const char *clause)
{
    if (v < 1) {
        char msg[96];
        snprintf(msg, sizeof msg, "%s(%lld) is not positive", clause, v);
        p2c_fail(where, "invalid launch size", msg);
    }
    return (unsigned long long)v > limit ? limit : (unsigned)v;
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

/* Array reductions: every thread of every block has a private copy of each
 * reduced section in global memory. A launch sized from the trip count gets
 * no more blocks than keep the copies within P2C_ARRAY_COPIES_BYTES (the loop
 * hands the rest of the iterations to the same threads); at least 1. */
enum : unsigned long long { P2C_ARRAY_COPIES_BYTES = 256ull << 20 };

inline unsigned p2c_array_red_blocks(unsigned blocks, unsigned threads, unsigned long long bytes_per_thread)
{
    unsigned long long per_block = (unsigned long long)threads * bytes_per_thread;
    if (per_block == 0)
        return blocks;
    unsigned long long fit = P2C_ARRAY_COPIES_BYTES / per_block;
    if (fit < 1)
        fit = 1;
    return blocks > fit ? (unsigned)fit : blocks;
}

/* The private copies of an array reduction (`elems` elements), in slot
 * `slot` of the reduction storage, reused by every launch. */
template <class T>
inline T *p2c_array_copies(unsigned slot, unsigned long long elems, const char *where)
{
    size_t need = (size_t)(elems > 0 ? elems : 1) * sizeof(T);
    if (slot >= P2C_MAX_REDUCTIONS)
        p2c_fail(where, "too many reductions in one region", NULL);
    if (p2c_partials_bytes[slot] < need) {
        if (p2c_partials_buf[slot])
            p2c_check(cudaFree(p2c_partials_buf[slot]), where, "cudaFree");
        p2c_check(cudaMalloc(&p2c_partials_buf[slot], need), where, "cudaMalloc");
        p2c_partials_bytes[slot] = need;
    }
    return (T *)p2c_partials_buf[slot];
}
} /* namespace p2c_prelude_2 */
/* ---- end of host helpers ---- */
