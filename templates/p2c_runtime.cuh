/* ---- pragma2cuda runtime API (templates/p2c_runtime.cuh) ------------------
 * The OpenMP and OpenACC runtime routines a translated program calls, on the
 * device and on the host, so the output needs neither libgomp nor an offload
 * runtime. The translator replaces `#include <omp.h>` and `#include
 * <openacc.h>` in the user's file with this prelude. It includes the host
 * compiler's own omp.h / openacc.h when there is one (for omp_get_wtime,
 * locks, the acc_device_t values), then defines p2c_* routines and maps the
 * standard names onto them with macros, so calls in kernels, in declare
 * target functions and in host code all reach a routine that works there.
 *
 * Host side: thread-related OpenMP routines (omp_get_thread_num, ...) ask the
 * host OpenMP runtime when the host side is compiled with -fopenmp
 * (`nvcc -Xcompiler -fopenmp`, _OPENMP defined) and answer for one thread
 * otherwise; device-related ones (omp_get_num_devices, omp_target_*,
 * acc_copyin, ...) always answer from CUDA and the present table.
 * Device side: the thread's place in the launch (teams = blocks, threads of
 * a team = threads of a block).
 */
#if defined(__has_include)
#if __has_include(<omp.h>)
#include <omp.h>
#define P2C_HAVE_OMP_H 1
#endif
#if __has_include(<openacc.h>)
#include <openacc.h>
#define P2C_HAVE_OPENACC_H 1
#endif
#endif
#include <limits.h>
#include <time.h>

#if !defined(P2C_HAVE_OPENACC_H) && !defined(_OPENACC_H)
/* No openacc.h here (clang): the OpenACC types, with libgomp's values. */
typedef enum acc_device_t {
    acc_device_current = -1,
    acc_device_none = 0,
    acc_device_default = 1,
    acc_device_host = 2,
    acc_device_not_host = 4,
    acc_device_nvidia = 5
} acc_device_t;
typedef enum acc_async_t { acc_async_noval = -1, acc_async_sync = -2 } acc_async_t;
typedef enum acc_device_property_t {
    acc_property_memory = 1,
    acc_property_free_memory = 2,
    acc_property_name = 0x10001,
    acc_property_vendor = 0x10002,
    acc_property_driver = 0x10003
} acc_device_property_t;
#endif
/* OpenACC 3.x's acc_async_default, which gcc 12's openacc.h lacks: a macro,
 * so that every use (the runtime's own included) means this one value. */
#ifndef acc_async_default
#define acc_async_default (-3)
#endif

/* (device expression, host expression): the one that applies where the code
 * runs. CUDA compiles each side separately (__CUDA_ARCH__); the emulator runs
 * both in one program and asks at run time. */
#if defined(__CUDA_ARCH__)
#define P2C_DEVICE_OR_HOST(dev, host) (dev)
#elif defined(P2C_SIMT_EMULATOR)
#define P2C_DEVICE_OR_HOST(dev, host) (p2c_sim_on_device() ? (dev) : (host))
#else
#define P2C_DEVICE_OR_HOST(dev, host) (host)
#endif

/* A declare target variable named in device code: its __device__ mirror on
 * the device, the host variable on the host. */
#define P2C_DECLARED_VAR(host_var, dev_var) (*P2C_DEVICE_OR_HOST(&(dev_var), &(host_var)))

/* A host OpenMP routine when the host side has OpenMP, a one-thread answer otherwise. */
#if defined(_OPENMP) && defined(P2C_HAVE_OMP_H)
#define P2C_HOST_OMP(call, serial) (call)
#else
#define P2C_HOST_OMP(call, serial) (serial)
#endif

inline namespace p2c_prelude_1 {

/* ---- OpenMP: where a thread is ---- */
__host__ __device__ inline int p2c_omp_get_thread_num(void)
{
    return P2C_DEVICE_OR_HOST((int)p2c_thread_id(), P2C_HOST_OMP(omp_get_thread_num(), 0));
}

__host__ __device__ inline int p2c_omp_get_num_threads(void)
{
    return P2C_DEVICE_OR_HOST((int)p2c_block_threads(), P2C_HOST_OMP(omp_get_num_threads(), 1));
}

__host__ __device__ inline int p2c_omp_get_max_threads(void)
{
    return P2C_DEVICE_OR_HOST((int)p2c_block_threads(), P2C_HOST_OMP(omp_get_max_threads(), 1));
}

__host__ __device__ inline int p2c_omp_get_thread_limit(void)
{
    return P2C_DEVICE_OR_HOST((int)p2c_block_threads(), P2C_HOST_OMP(omp_get_thread_limit(), INT_MAX));
}

/* nteams-var: its initial value, zero, on the device (a host
 * omp_set_num_teams sets the host's copy only); the host's own on the host. */
__host__ __device__ inline int p2c_omp_get_max_teams(void)
{
    return P2C_DEVICE_OR_HOST(0, P2C_HOST_OMP(omp_get_max_teams(), 0));
}

__host__ __device__ inline int p2c_omp_get_team_num(void)
{
    return P2C_DEVICE_OR_HOST((int)blockIdx.x, P2C_HOST_OMP(omp_get_team_num(), 0));
}

__host__ __device__ inline int p2c_omp_get_num_teams(void)
{
    return P2C_DEVICE_OR_HOST((int)gridDim.x, P2C_HOST_OMP(omp_get_num_teams(), 1));
}

/* A kernel's threads form one parallel region when a block has more than one. */
__host__ __device__ inline int p2c_omp_in_parallel(void)
{
    return P2C_DEVICE_OR_HOST(p2c_block_threads() > 1 ? 1 : 0, P2C_HOST_OMP(omp_in_parallel(), 0));
}

__host__ __device__ inline int p2c_omp_get_level(void)
{
    return P2C_DEVICE_OR_HOST(p2c_block_threads() > 1 ? 1 : 0, P2C_HOST_OMP(omp_get_level(), 0));
}

__host__ __device__ inline int p2c_omp_get_active_level(void)
{
    return P2C_DEVICE_OR_HOST(p2c_block_threads() > 1 ? 1 : 0, P2C_HOST_OMP(omp_get_active_level(), 0));
}

__host__ __device__ inline int p2c_omp_is_initial_device(void)
{
    return P2C_DEVICE_OR_HOST(0, 1);
}

/* ---- OpenMP: devices and device memory (host) ---- */
inline int p2c_omp_get_num_devices(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        (void)cudaGetLastError();
        n = 0;
    }
    return n;
}

/* OpenMP 5.2: the host's device number is omp_get_num_devices(). */
inline int p2c_omp_get_initial_device(void)
{
    return p2c_omp_get_num_devices();
}

inline int p2c_omp_get_default_device(void)
{
    return p2c_omp_get_num_devices() > 0 ? 0 : p2c_omp_get_initial_device();
}

__host__ __device__ inline int p2c_omp_get_device_num(void)
{
    return P2C_DEVICE_OR_HOST(0, p2c_omp_get_initial_device());
}

inline int p2c_omp_is_host_device(int device_num)
{
    return device_num == p2c_omp_get_initial_device();
}

inline void *p2c_omp_target_alloc(size_t size, int device_num)
{
    if (p2c_omp_is_host_device(device_num))
        return malloc(size);
    void *p = NULL;
    if (device_num != 0 || cudaMalloc(&p, size ? size : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return p;
}

inline void p2c_omp_target_free(void *p, int device_num)
{
    if (!p)
        return;
    if (p2c_omp_is_host_device(device_num))
        free(p);
    else
        p2c_check(cudaFree(p), "omp_target_free", "cudaFree");
}

inline int p2c_omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset, size_t src_offset,
                                 int dst_device_num, int src_device_num)
{
    const int dh = p2c_omp_is_host_device(dst_device_num), sh = p2c_omp_is_host_device(src_device_num);
    if ((!dh && dst_device_num != 0) || (!sh && src_device_num != 0))
        return 1;
    const cudaMemcpyKind kind = dh ? (sh ? cudaMemcpyHostToHost : cudaMemcpyDeviceToHost)
                                   : (sh ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice);
    if (length == 0)
        return 0;
    if (cudaMemcpy((char *)dst + dst_offset, (const char *)src + src_offset, length, kind) != cudaSuccess) {
        (void)cudaGetLastError();
        return 1;
    }
    return 0;
}

/* OpenMP 5.1 omp_target_memcpy_async: the copy is done before the call
 * returns (the task it creates is complete at once, which OpenMP allows).
 * Its dependences come only from depend objects, and the translation
 * refuses the `depobj` construct, so a program can have none to give. */
inline int p2c_omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                                       size_t src_offset, int dst_device_num, int src_device_num,
                                       int depobj_count, const void *depobj_list)
{
    (void)depobj_list;
    if (depobj_count != 0)
        p2c_fail("omp_target_memcpy_async", "depend objects are not supported", NULL);
    return p2c_omp_target_memcpy(dst, src, length, dst_offset, src_offset, dst_device_num, src_device_num);
}

/* omp_target_memcpy_rect: a num_dims-dimensional block of `volume`
 * elements, each dimension at its offset in the arrays of the given
 * dimensions; the last two dimensions are one pitched copy, the others a
 * loop. Both pointers NULL: the number of dimensions supported (any). */
inline int p2c_omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                                      const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                                      const size_t *dst_dimensions, const size_t *src_dimensions, int dst_device_num,
                                      int src_device_num)
{
    if (!dst && !src)
        return INT_MAX;
    if (!dst || !src || num_dims < 1 || !volume || !dst_offsets || !src_offsets || !dst_dimensions ||
        !src_dimensions)
        return 1;
    const int dh = p2c_omp_is_host_device(dst_device_num), sh = p2c_omp_is_host_device(src_device_num);
    if ((!dh && dst_device_num != 0) || (!sh && src_device_num != 0))
        return 1;
    const cudaMemcpyKind kind = dh ? (sh ? cudaMemcpyHostToHost : cudaMemcpyDeviceToHost)
                                   : (sh ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice);
    for (int k = 0; k < num_dims; k++) {
        if (volume[k] == 0)
            return 0;
        if (dst_offsets[k] + volume[k] > dst_dimensions[k] || src_offsets[k] + volume[k] > src_dimensions[k])
            return 1;
    }
    const int last = num_dims - 1;
    const size_t width = volume[last] * element_size;
    const size_t rows = num_dims > 1 ? volume[last - 1] : 1;
    const size_t dpitch = dst_dimensions[last] * element_size, spitch = src_dimensions[last] * element_size;
    /* The outer dimensions (all but the last two), counted like an odometer. */
    const int outer = num_dims > 2 ? num_dims - 2 : 0;
    size_t index[64] = {0};
    if (outer > 64)
        return 1;
    for (;;) {
        size_t d = 0, s = 0;
        for (int k = 0; k < num_dims; k++) {
            const size_t i = k < outer ? index[k] : 0;
            d = d * dst_dimensions[k] + dst_offsets[k] + i;
            s = s * src_dimensions[k] + src_offsets[k] + i;
        }
        if (cudaMemcpy2D((char *)dst + d * element_size, dpitch, (const char *)src + s * element_size, spitch, width,
                         rows, kind) != cudaSuccess) {
            (void)cudaGetLastError();
            return 1;
        }
        int k = outer - 1;
        while (k >= 0 && ++index[k] == volume[k])
            index[k--] = 0;
        if (k < 0)
            return 0;
    }
}

/* omp_target_memcpy_rect_async: done before the call returns, as
 * omp_target_memcpy_async. */
inline int p2c_omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                            const size_t *volume, const size_t *dst_offsets,
                                            const size_t *src_offsets, const size_t *dst_dimensions,
                                            const size_t *src_dimensions, int dst_device_num, int src_device_num,
                                            int depobj_count, const void *depobj_list)
{
    (void)depobj_list;
    if (depobj_count != 0)
        p2c_fail("omp_target_memcpy_rect_async", "depend objects are not supported", NULL);
    return p2c_omp_target_memcpy_rect(dst, src, element_size, num_dims, volume, dst_offsets, src_offsets,
                                      dst_dimensions, src_dimensions, dst_device_num, src_device_num);
}

inline int p2c_omp_target_is_present(const void *ptr, int device_num)
{
    if (p2c_omp_is_host_device(device_num))
        return 1;
    return p2c_find(p2c_bytes(ptr, 1, NULL), "omp_target_is_present") != NULL;
}

/* OpenMP 5.1: the device address of the mapped `ptr` (the host's own address
 * for the host device), NULL where it is not mapped or no such device. */
inline void *p2c_omp_get_mapped_ptr(const void *ptr, int device_num)
{
    if (ptr == NULL)
        return NULL;
    if (p2c_omp_is_host_device(device_num))
        return (void *)ptr;
    if (device_num != 0 || p2c_omp_get_num_devices() == 0)
        return NULL;
    struct p2c_mapping *m = p2c_find(p2c_bytes(ptr, 0, NULL), "omp_get_mapped_ptr");
    return m ? (void *)(m->dev + ((const char *)ptr - m->host)) : NULL;
}

/* OpenMP 5.1: whether the device can read and write host memory at `ptr`
 * directly: always the host; the GPU where it accesses pageable memory
 * (cudaDevAttrPageableMemoryAccess: HMM, or a shared address space). */
inline int p2c_omp_target_is_accessible(const void *ptr, size_t size, int device_num)
{
    (void)ptr;
    (void)size;
    if (p2c_omp_is_host_device(device_num))
        return 1;
    int pageable = 0;
    if (device_num != 0 || p2c_omp_get_num_devices() == 0)
        return 0;
    if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return pageable != 0;
}

/* `omp requires unified_shared_memory`: host memory no map clause covers
 * reaches the GPU by its host address, so the GPU must access pageable host
 * memory (cudaDevAttrPageableMemoryAccess: HMM or ATS). A static object the
 * translation puts in place of the directive checks it at program start. The
 * emulator then models such a system (its launches accept host addresses). */
struct p2c_requires_pageable {
    explicit p2c_requires_pageable(const char *where)
    {
#ifdef P2C_SIMT_EMULATOR
        p2c_sim_model_pageable_memory();
#endif
        if (p2c_omp_get_num_devices() == 0)
            return;
        int pageable = 0;
        if (cudaDeviceGetAttribute(&pageable, cudaDevAttrPageableMemoryAccess, 0) != cudaSuccess) {
            (void)cudaGetLastError();
            pageable = 0;
        }
        if (!pageable)
            p2c_fail(where, "`omp requires unified_shared_memory`: this GPU cannot access pageable host memory", "cudaDevAttrPageableMemoryAccess is 0 (it needs HMM or ATS)");
    }
};

/* `omp requires unified_address`: device and host pointers in one address
 * space (CUDA's unified virtual addressing), checked at program start. */
struct p2c_requires_unified_address {
    explicit p2c_requires_unified_address(const char *where)
    {
        if (p2c_omp_get_num_devices() == 0)
            return;
        int unified = 0;
        if (cudaDeviceGetAttribute(&unified, cudaDevAttrUnifiedAddressing, 0) != cudaSuccess) {
            (void)cudaGetLastError();
            unified = 0;
        }
        if (!unified)
            p2c_fail(where, "`omp requires unified_address`: this GPU has no unified virtual addressing", "cudaDevAttrUnifiedAddressing is 0");
    }
};

/* A `device(n)` clause of a data construct: 1 to act on the GPU (device 0),
 * 0 when n is the host's device number (the construct does nothing); any
 * other number is an error. */
inline int p2c_device_arg(long long n, const char *where)
{
    if (n == 0 && p2c_omp_get_num_devices() > 0)
        return 1;
    if (n == p2c_omp_get_initial_device())
        return 0;
    char msg[64];
    snprintf(msg, sizeof msg, "device(%lld)", n);
    p2c_fail(where, "no such device: only device 0 and the host are available", msg);
    return 0;
}

/* A `device(n)` clause of a compute construct that has no host copy (a
 * league of teams, privatised arrays): 1 for device 0; any other number,
 * the host's included, is an error. */
inline int p2c_device_gpu_only(long long n, const char *where)
{
    if (n == 0 && p2c_omp_get_num_devices() > 0)
        return 1;
    char msg[64];
    snprintf(msg, sizeof msg, "device(%lld)", n);
    if (n == p2c_omp_get_initial_device())
        p2c_fail(where, "this region has no host version: it runs on device 0 only", msg);
    p2c_fail(where, "no such device: only device 0 and the host are available", msg);
    return 0;
}

#if !(defined(_OPENMP) && defined(P2C_HAVE_OMP_H))
/* Without host OpenMP: the host routines a program commonly calls, for one thread. */
inline double p2c_omp_get_wtime(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

inline double p2c_omp_get_wtick(void)
{
    return 1e-9;
}

inline void p2c_omp_set_num_threads(int n)
{
    (void)n;
}

inline int p2c_omp_get_num_procs(void)
{
    return 1;
}
#endif

/* ---- OpenACC ---- */
__host__ __device__ inline int p2c_acc_on_device(int dev)
{
    return P2C_DEVICE_OR_HOST(dev == acc_device_not_host || dev == acc_device_nvidia ? 1 : 0,
                              dev == acc_device_host ? 1 : 0);
}

inline int p2c_acc_get_num_devices(int dev)
{
    if (dev == acc_device_host)
        return 1;
    if (dev == acc_device_none)
        return 0;
    return p2c_omp_get_num_devices();
}

inline acc_device_t p2c_acc_get_device_type(void)
{
    if (p2c_acc_host_selected)
        return acc_device_host;
    return p2c_omp_get_num_devices() > 0 ? acc_device_nvidia : acc_device_host;
}

/* The current device type (p2c_acc_host_selected, templates/p2c_host.cuh):
 * the host, or the GPU again; other types name no device here and keep it. */
inline void p2c_acc_select_type(int dev)
{
    if (dev == acc_device_host)
        p2c_acc_host_selected = 1;
    else if (dev == acc_device_nvidia || dev == acc_device_not_host || dev == acc_device_default)
        p2c_acc_host_selected = 0;
}

inline void p2c_acc_set_device_type(int dev)
{
    p2c_acc_select_type(dev);
}

inline int p2c_acc_get_device_num(int dev)
{
    (void)dev;
    return 0;
}

inline void p2c_acc_set_device_num(int num, int dev)
{
    (void)dev;
    if (num > 0)
        p2c_fail("acc_set_device_num", "only device 0 is supported", NULL);
}

inline void p2c_acc_init(int dev)
{
    (void)dev;
    p2c_check(cudaFree(0), "acc_init", "CUDA initialisation");
}

inline void p2c_acc_shutdown(int dev)
{
    (void)dev;
    p2c_check(cudaDeviceSynchronize(), "acc_shutdown", "cudaDeviceSynchronize");
}

/* acc_get_property / acc_get_property_string (OpenACC 2.6), with libgomp's
 * property values: the device's memory and free memory from CUDA, its name,
 * vendor and driver as strings; 0 / NULL for a device that is not there. */
inline int p2c_acc_property_device(int num, int dev)
{
    return num == 0 && dev != acc_device_host && dev != acc_device_none && p2c_omp_get_num_devices() > 0;
}

inline size_t p2c_acc_get_property(int num, int dev, int prop)
{
    size_t free_bytes = 0, total = 0;
    if (!p2c_acc_property_device(num, dev) || (prop != 1 && prop != 2))
        return 0;
    if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return prop == 1 ? total : free_bytes;
}

inline const char *p2c_acc_get_property_string(int num, int dev, int prop)
{
    static char name[256];
    static char driver[64];
    if (!p2c_acc_property_device(num, dev))
        return NULL;
    if (prop == 0x10001) {
        cudaDeviceProp p;
        if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
            (void)cudaGetLastError();
            return NULL;
        }
        snprintf(name, sizeof name, "%s", p.name);
        return name;
    }
    if (prop == 0x10002)
        return "NVIDIA";
    if (prop == 0x10003) {
        int v = 0;
        if (cudaRuntimeGetVersion(&v) != cudaSuccess) {
            (void)cudaGetLastError();
            return NULL;
        }
        snprintf(driver, sizeof driver, "CUDA runtime %d.%d", v / 1000, v % 1000 / 10);
        return driver;
    }
    return NULL;
}

/* acc init / acc shutdown with a device number (acc_init_device,
 * acc_shutdown_device). The host needs no initialisation; the GPU is device
 * 0 of acc_device_nvidia (and of acc_device_default when there is a GPU).
 * num < 0: the current device. */
inline int p2c_acc_device_is_gpu(int num, int dev, const char *where)
{
    int gpus = p2c_omp_get_num_devices();
    int gpu = dev == acc_device_nvidia || dev == acc_device_not_host ||
              (dev == acc_device_default && gpus > 0);
    int count = gpu ? gpus : 1;
    if (gpu && gpus == 0)
        p2c_fail(where, "no NVIDIA device is available", NULL);
    if (num >= count)
        p2c_fail(where, "the device number is not that of an available device", NULL);
    return gpu;
}

inline void p2c_acc_init_device(int num, int dev, const char *where)
{
    if (p2c_acc_device_is_gpu(num, dev, where))
        p2c_check(cudaFree(0), where, "CUDA initialisation");
}

inline void p2c_acc_shutdown_device(int num, int dev, const char *where)
{
    if (p2c_acc_device_is_gpu(num, dev, where))
        p2c_check(cudaDeviceSynchronize(), where, "cudaDeviceSynchronize");
}

/* acc set device_type(t) / device_num(n): one GPU and the host; selecting
 * the host makes later compute constructs and data clauses stop the program
 * (p2c_require_device) until the GPU or the default type is selected again;
 * an unavailable device is an error. */
inline void p2c_acc_set_device_type_at(int dev, const char *where)
{
    (void)p2c_acc_device_is_gpu(-1, dev, where);
    p2c_acc_select_type(dev);
}

inline void p2c_acc_set_device_num_at(int num, int dev, const char *where)
{
    (void)p2c_acc_device_is_gpu(num, dev, where);
}

/* Data routines: dynamic references, as enter/exit data. */
inline void *p2c_acc_copyin(const void *h, size_t bytes)
{
    return p2c_enter(p2c_bytes(h, bytes, NULL), P2C_MAP_TO, P2C_REF_ACC_DYNAMIC, "acc_copyin");
}

inline void *p2c_acc_create(const void *h, size_t bytes)
{
    return p2c_enter(p2c_bytes(h, bytes, NULL), P2C_MAP_ALLOC, P2C_REF_ACC_DYNAMIC, "acc_create");
}

inline void p2c_acc_copyout(const void *h, size_t bytes)
{
    p2c_exit(p2c_bytes(h, bytes, NULL), P2C_MAP_FROM, P2C_REF_ACC_DYNAMIC, "acc_copyout");
}

inline void p2c_acc_copyout_finalize(const void *h, size_t bytes)
{
    p2c_exit(p2c_bytes(h, bytes, NULL), P2C_MAP_FROM | P2C_MAP_FINALIZE, P2C_REF_ACC_DYNAMIC, "acc_copyout_finalize");
}

inline void p2c_acc_delete(const void *h, size_t bytes)
{
    p2c_exit(p2c_bytes(h, bytes, NULL), P2C_MAP_RELEASE, P2C_REF_ACC_DYNAMIC, "acc_delete");
}

inline void p2c_acc_delete_finalize(const void *h, size_t bytes)
{
    p2c_exit(p2c_bytes(h, bytes, NULL), P2C_MAP_RELEASE | P2C_MAP_FINALIZE, P2C_REF_ACC_DYNAMIC, "acc_delete_finalize");
}

inline int p2c_acc_is_present(const void *h, size_t bytes)
{
    return p2c_find(p2c_bytes(h, bytes ? bytes : 1, NULL), "acc_is_present") != NULL;
}

inline void *p2c_acc_deviceptr(const void *h)
{
    struct p2c_mapping *m = p2c_find(p2c_bytes(h, 0, NULL), "acc_deviceptr");
    return m ? m->dev + ((const char *)h - m->host) : NULL;
}

inline void *p2c_acc_hostptr(const void *d)
{
    const char *p = (const char *)d;
    if (p2c_declared_pending)
        p2c_register_declared();
    for (size_t i = 0; i < p2c_present_count; i++) {
        struct p2c_mapping *m = &p2c_present_table[i];
        if (p >= m->dev && p < m->dev + (m->bytes ? m->bytes : 1))
            return (void *)(m->host + (p - m->dev));
    }
    return NULL;
}

inline void p2c_acc_update_device(const void *h, size_t bytes)
{
    p2c_update(p2c_bytes(h, bytes, NULL), 1, 0, "acc_update_device");
}

inline void p2c_acc_update_self(const void *h, size_t bytes)
{
    p2c_update(p2c_bytes(h, bytes, NULL), 0, 0, "acc_update_self");
}

inline void *p2c_acc_malloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        return NULL;
    }
    return p;
}

inline void p2c_acc_free(void *d)
{
    if (d)
        p2c_check(cudaFree(d), "acc_free", "cudaFree");
}

/* acc_map_data: the user's device memory becomes the device copy of h; only
 * acc_unmap_data ends the mapping, and never frees the memory. */
inline void p2c_acc_map_data(const void *h, void *d, size_t bytes)
{
    if (p2c_find(p2c_bytes(h, bytes, NULL), "acc_map_data"))
        p2c_fail("acc_map_data", "the host data is already present on the device", NULL);
    struct p2c_mapping *m = p2c_table_add(h, bytes, (char *)d, NULL, "acc_map_data");
    m->permanent = 1;
    m->owned = 0;
}

inline void p2c_acc_unmap_data(const void *h)
{
    struct p2c_mapping *m = p2c_find(p2c_bytes(h, 0, NULL), "acc_unmap_data");
    if (!m || m->host != (const char *)h || m->owned)
        p2c_fail("acc_unmap_data", "the data was not mapped by acc_map_data", NULL);
    *m = p2c_present_table[--p2c_present_count];
}

inline void p2c_acc_memcpy_to_device(void *d, const void *h, size_t bytes)
{
    if (bytes)
        p2c_check(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), "acc_memcpy_to_device", "copy to device");
}

inline void p2c_acc_memcpy_from_device(void *h, const void *d, size_t bytes)
{
    if (bytes)
        p2c_check(cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost), "acc_memcpy_from_device", "copy from device");
}

/* Device to device: acc_memcpy_device (OpenACC 2.5), acc_memcpy_d2d (3.3;
 * one device, so both device numbers must be 0). */
inline void p2c_acc_memcpy_device(void *dst, const void *src, size_t bytes)
{
    if (bytes)
        p2c_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "acc_memcpy_device", "copy on the device");
}

inline void p2c_acc_memcpy_d2d(void *dst, const void *src, size_t bytes, int dst_num, int src_num)
{
    if (dst_num != 0 || src_num != 0)
        p2c_fail("acc_memcpy_d2d", "only device 0 is supported", NULL);
    if (bytes)
        p2c_check(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), "acc_memcpy_d2d", "copy on the device");
}

/* ---- OpenACC async queues on CUDA streams (#21) ---------------------------
 * Each queue number q >= 0, and acc_async_noval when acc-default-async-var
 * is acc_async_noval, is a blocking stream, created the first time the
 * queue is used and kept in a table by queue number, so a queue is always
 * the same stream. acc_async_sync is the legacy default stream: the
 * operation completes before the host goes on, and, the queues' streams
 * being blocking ones, after the work queued on them so far (a synchronous
 * copy-out at the end of a data region follows an `async` kernel that
 * writes the data, as on the OpenACC implementations the suites test). */

/* acc-default-async-var: queue 0 until acc_set_default_async or `acc set
 * default_async` changes it. */
static int p2c_acc_default_async_var = 0;

struct p2c_acc_stream_entry {
    int queue;
    cudaStream_t stream;
};
inline struct p2c_acc_stream_entry *p2c_acc_streams;
inline int p2c_acc_stream_count, p2c_acc_stream_capacity;

/* The queue an async argument names: acc_async_noval is the default queue,
 * acc_async_default the initial one (queue 0). */
inline int p2c_acc_resolve(long long async, const char *where)
{
    if (async == acc_async_noval)
        async = p2c_acc_default_async_var;
    if (async == acc_async_default)
        async = 0;
    if (async < acc_async_sync || async > INT_MAX) {
        char msg[64];
        snprintf(msg, sizeof msg, "%lld", async);
        p2c_fail(where, "an async argument is not a queue number, acc_async_noval or acc_async_sync", msg);
    }
    return (int)async;
}

/* The stream of a queue; NULL for a queue never used (nothing to wait for). */
inline cudaStream_t p2c_acc_find_stream(int queue)
{
    for (int i = 0; i < p2c_acc_stream_count; i++)
        if (p2c_acc_streams[i].queue == queue)
            return p2c_acc_streams[i].stream;
    return NULL;
}

/* The stream of a queue, created on first use; 0 for acc_async_sync. */
inline cudaStream_t p2c_acc_stream_of(int queue, const char *where)
{
    if (queue == acc_async_sync)
        return 0;
    cudaStream_t s = p2c_acc_find_stream(queue);
    if (s)
        return s;
    if (p2c_acc_stream_count == p2c_acc_stream_capacity) {
        int cap = p2c_acc_stream_capacity ? 2 * p2c_acc_stream_capacity : 8;
        struct p2c_acc_stream_entry *t = (struct p2c_acc_stream_entry *)realloc(p2c_acc_streams, cap * sizeof *t);
        if (!t)
            p2c_fail(where, "out of host memory", NULL);
        p2c_acc_streams = t;
        p2c_acc_stream_capacity = cap;
    }
    p2c_check(cudaStreamCreateWithFlags(&s, cudaStreamDefault), where, "cudaStreamCreateWithFlags");
    p2c_acc_streams[p2c_acc_stream_count].queue = queue;
    p2c_acc_streams[p2c_acc_stream_count].stream = s;
    p2c_acc_stream_count++;
    p2c_queues_created = 1;
    return s;
}

/* Stream `to` (the host when 0) waits for the work queued on `from` so far. */
inline void p2c_stream_after(cudaStream_t to, cudaStream_t from, const char *where)
{
    if (!from || from == to)
        return;
    if (!to) {
        p2c_check(cudaStreamSynchronize(from), where, "waiting for an async queue");
        p2c_reap_frees(0, where);
        return;
    }
    cudaEvent_t ev;
    p2c_check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), where, "cudaEventCreate");
    p2c_check(cudaEventRecord(ev, from), where, "cudaEventRecord");
    p2c_check(cudaStreamWaitEvent(to, ev, 0), where, "cudaStreamWaitEvent");
    p2c_check(cudaEventDestroy(ev), where, "cudaEventDestroy");
}

/* An OpenACC construct's `async` / `wait`, for the extent of its host code:
 * its data movement and kernel go to the queue's stream (p2c_stream), after
 * the queues named by `wait` (an event each; the host waits for them when
 * the construct is synchronous). */
struct p2c_acc_queue {
    cudaStream_t stream, saved;
    const char *where;
    p2c_acc_queue(long long async, const char *w)
        : stream(p2c_acc_stream_of(p2c_acc_resolve(async, w), w)), saved(p2c_stream), where(w)
    {
        p2c_stream = stream;
    }
    ~p2c_acc_queue()
    {
        p2c_stream = saved;
    }
    p2c_acc_queue(const p2c_acc_queue &) = delete;
    p2c_acc_queue &operator=(const p2c_acc_queue &) = delete;
    /* wait(q) */
    void after(long long queue)
    {
        p2c_stream_after(stream, p2c_acc_find_stream(p2c_acc_resolve(queue, where)), where);
    }
    /* wait: every queue */
    void after_all(void)
    {
        for (int i = 0; i < p2c_acc_stream_count; i++)
            p2c_stream_after(stream, p2c_acc_streams[i].stream, where);
    }
    /* A kernel that shares device scratch with other launches (reduction
     * partials, private copies, team frames) runs on the default stream,
     * after the queue's earlier work: synchronous, which `async` allows. */
    void serial(void)
    {
        p2c_stream_after(0, stream, where);
        p2c_stream = 0;
    }
    /* The end of a data region: its exits go to the queue again. */
    void resume(void)
    {
        p2c_stream = stream;
    }
    /* Between a data region's entries and its body: the entries complete
     * first (the body's constructs without `async` use the data at once),
     * then the body's constructs choose their own queues. */
    void pause(void)
    {
        p2c_stream_after(0, stream, where);
        p2c_stream = saved;
    }
};

inline void p2c_acc_wait(int queue)
{
    p2c_stream_after(0, p2c_acc_find_stream(p2c_acc_resolve(queue, "acc_wait")), "acc_wait");
}

inline void p2c_acc_wait_all(void)
{
    for (int i = 0; i < p2c_acc_stream_count; i++)
        p2c_stream_after(0, p2c_acc_streams[i].stream, "acc_wait_all");
    p2c_reap_frees(0, "acc_wait_all");
}

/* Whether the queue's work is complete (a queue never used is). */
inline int p2c_acc_stream_idle(cudaStream_t s, const char *where)
{
    if (!s)
        return 1;
    cudaError_t e = cudaStreamQuery(s);
    if (e == cudaErrorNotReady)
        return 0;
    p2c_check(e, where, "cudaStreamQuery");
    return 1;
}

inline int p2c_acc_async_test(int queue)
{
    return p2c_acc_stream_idle(p2c_acc_find_stream(p2c_acc_resolve(queue, "acc_async_test")), "acc_async_test");
}

inline int p2c_acc_async_test_all(void)
{
    for (int i = 0; i < p2c_acc_stream_count; i++)
        if (!p2c_acc_stream_idle(p2c_acc_streams[i].stream, "acc_async_test_all"))
            return 0;
    return 1;
}

/* Queue `async` waits for queue `queue` (an event; the host when async is
 * acc_async_sync). */
inline void p2c_acc_wait_async(int queue, int async)
{
    p2c_acc_queue q(async, "acc_wait_async");
    q.after(queue);
}

inline void p2c_acc_wait_all_async(int async)
{
    p2c_acc_queue q(async, "acc_wait_all_async");
    q.after_all();
}

/* The _device forms: one device (dev is not checked, as before). */
inline void p2c_acc_wait_device(int queue, int dev)
{
    (void)dev;
    p2c_acc_wait(queue);
}

inline void p2c_acc_wait_device_async(int queue, int async, int dev)
{
    (void)dev;
    p2c_acc_wait_async(queue, async);
}

inline void p2c_acc_wait_all_device(int dev)
{
    (void)dev;
    p2c_acc_wait_all();
}

inline void p2c_acc_wait_all_device_async(int async, int dev)
{
    (void)dev;
    p2c_acc_wait_all_async(async);
}

inline int p2c_acc_async_test_device(int queue, int dev)
{
    (void)dev;
    return p2c_acc_async_test(queue);
}

inline int p2c_acc_async_test_all_device(int dev)
{
    (void)dev;
    return p2c_acc_async_test_all();
}

/* ---- OpenMP target tasks (#21) ----------------------------------------------
 * A deferred target task (`nowait`, in the sequential part of the program:
 * omp_get_level() == 0) runs on one of P2C_OMP_TASK_STREAMS blocking streams,
 * taken in turn; it waits (an event each) for the sibling target tasks its
 * `depend` items depend on and records an event after its own work. The
 * dependence table maps an item's address to the event of its last writer
 * (out / inout / mutexinoutset / inoutset, ordered as inout) and those of
 * its readers since. An undeferred construct with `depend` waits on the host
 * (its work then runs synchronously). Inside a parallel region every target
 * task runs undeferred and no table is kept: tasks there are no siblings of
 * the sequential part's. taskwait, barrier (lowered to
 * p2c_omp_target_tasks_wait first) and program exit wait for every pending
 * task and empty the table. */
#define P2C_OMP_TASK_STREAMS 4
struct p2c_omp_dep_entry {
    const void *addr;
    cudaEvent_t writer;
    cudaEvent_t *readers;
    int reader_count, reader_capacity;
};
inline struct p2c_omp_dep_entry *p2c_omp_deps;
inline int p2c_omp_dep_count, p2c_omp_dep_capacity;
inline cudaStream_t p2c_omp_task_streams[P2C_OMP_TASK_STREAMS];
inline int p2c_omp_next_task_stream, p2c_omp_exit_wait_registered;
/* Events of the pending deferred tasks (destroyed at the next full wait). */
inline cudaEvent_t *p2c_omp_task_events;
inline int p2c_omp_task_event_count, p2c_omp_task_event_capacity;

inline int p2c_omp_sequential_part(void)
{
    return P2C_HOST_OMP(omp_get_level(), 0) == 0;
}

inline void *p2c_omp_grow(void *p, int *capacity, size_t size, const char *where)
{
    int cap = *capacity ? 2 * *capacity : 8;
    void *t = realloc(p, (size_t)cap * size);
    if (!t)
        p2c_fail(where, "out of host memory", NULL);
    *capacity = cap;
    return t;
}

inline struct p2c_omp_dep_entry *p2c_omp_dep_of(const void *addr, int create, const char *where)
{
    for (int i = 0; i < p2c_omp_dep_count; i++)
        if (p2c_omp_deps[i].addr == addr)
            return &p2c_omp_deps[i];
    if (!create)
        return NULL;
    if (p2c_omp_dep_count == p2c_omp_dep_capacity)
        p2c_omp_deps = (struct p2c_omp_dep_entry *)p2c_omp_grow(p2c_omp_deps, &p2c_omp_dep_capacity,
                                                                 sizeof *p2c_omp_deps, where);
    struct p2c_omp_dep_entry *e = &p2c_omp_deps[p2c_omp_dep_count++];
    e->addr = addr;
    e->writer = NULL;
    e->readers = NULL;
    e->reader_count = e->reader_capacity = 0;
    return e;
}

/* Every pending deferred target task completes; the table is emptied. A
 * no-op inside a parallel region (no task is deferred there). */
inline void p2c_omp_target_tasks_wait(const char *where)
{
    if (!p2c_omp_sequential_part())
        return;
    for (int i = 0; i < P2C_OMP_TASK_STREAMS; i++)
        if (p2c_omp_task_streams[i])
            p2c_check(cudaStreamSynchronize(p2c_omp_task_streams[i]), where, "waiting for the target tasks");
    for (int i = 0; i < p2c_omp_task_event_count; i++)
        p2c_check(cudaEventDestroy(p2c_omp_task_events[i]), where, "cudaEventDestroy");
    p2c_omp_task_event_count = 0;
    for (int i = 0; i < p2c_omp_dep_count; i++)
        free(p2c_omp_deps[i].readers);
    p2c_omp_dep_count = 0;
    p2c_reap_frees(0, where);
}

/* The implicit barrier at the end of the program. */
inline void p2c_omp_target_tasks_at_exit(void)
{
    p2c_omp_target_tasks_wait("program exit");
}

inline cudaStream_t p2c_omp_task_stream(const char *where)
{
    int i = p2c_omp_next_task_stream;
    p2c_omp_next_task_stream = (i + 1) % P2C_OMP_TASK_STREAMS;
    if (!p2c_omp_task_streams[i]) {
        p2c_check(cudaStreamCreateWithFlags(&p2c_omp_task_streams[i], cudaStreamDefault), where,
                  "cudaStreamCreateWithFlags");
        if (!p2c_omp_exit_wait_registered)
            p2c_omp_exit_wait_registered = !atexit(p2c_omp_target_tasks_at_exit);
        p2c_queues_created = 1;
    }
    return p2c_omp_task_streams[i];
}

/* One target task, for the extent of its construct's host code: deferred,
 * its data movement and kernel go to its stream (p2c_stream) after the
 * events of its dependences; undeferred, the host waits for them. At the
 * end of the block the table records it for the later tasks. */
struct p2c_omp_task {
    int active, deferred, count, capacity;
    cudaStream_t stream, saved;
    const char *where;
    const void **addrs;
    int *writes;
    p2c_omp_task(int nowait, const char *w)
        : active(p2c_omp_sequential_part()), deferred(0), count(0), capacity(0), stream(0), saved(p2c_stream),
          where(w), addrs(NULL), writes(NULL)
    {
        if (nowait && active) {
            deferred = 1;
            stream = p2c_omp_task_stream(w);
            p2c_stream = stream;
        }
    }
    p2c_omp_task(const p2c_omp_task &) = delete;
    p2c_omp_task &operator=(const p2c_omp_task &) = delete;
    void after(cudaEvent_t ev)
    {
        if (!ev)
            return;
        if (deferred)
            p2c_check(cudaStreamWaitEvent(stream, ev, 0), where, "cudaStreamWaitEvent");
        else
            p2c_check(cudaEventSynchronize(ev), where, "waiting for a target task");
    }
    void dep(const void *addr, int write)
    {
        if (!active)
            return;
        struct p2c_omp_dep_entry *e = p2c_omp_dep_of(addr, 0, where);
        if (e) {
            after(e->writer);
            if (write)
                for (int i = 0; i < e->reader_count; i++)
                    after(e->readers[i]);
        }
        if (count == capacity) {
            int cap = capacity;
            addrs = (const void **)p2c_omp_grow(addrs, &cap, sizeof *addrs, where);
            writes = (int *)p2c_omp_grow(writes, &capacity, sizeof *writes, where);
        }
        addrs[count] = addr;
        writes[count++] = write;
    }
    /* depend(in: x) */
    void in(const void *addr)
    {
        dep(addr, 0);
    }
    /* depend(out / inout / mutexinoutset / inoutset: x) */
    void out(const void *addr)
    {
        dep(addr, 1);
    }
    /* A kernel that shares device scratch with other launches runs on the
     * default stream after its dependences (the task is then undeferred). */
    void serial(void)
    {
        p2c_check(cudaStreamSynchronize(stream), where, "waiting for a target task's dependences");
        p2c_stream = saved;
    }
    ~p2c_omp_task()
    {
        cudaEvent_t ev = NULL;
        if (deferred) {
            p2c_check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), where, "cudaEventCreate");
            p2c_check(cudaEventRecord(ev, stream), where, "cudaEventRecord");
            if (p2c_omp_task_event_count == p2c_omp_task_event_capacity)
                p2c_omp_task_events = (cudaEvent_t *)p2c_omp_grow(
                    p2c_omp_task_events, &p2c_omp_task_event_capacity, sizeof *p2c_omp_task_events, where);
            p2c_omp_task_events[p2c_omp_task_event_count++] = ev;
            p2c_stream = saved;
        }
        for (int i = 0; i < count; i++) {
            struct p2c_omp_dep_entry *e = p2c_omp_dep_of(addrs[i], 1, where);
            if (writes[i]) {
                e->writer = ev;
                e->reader_count = 0;
            } else if (ev) {
                if (e->reader_count == e->reader_capacity)
                    e->readers = (cudaEvent_t *)p2c_omp_grow(e->readers, &e->reader_capacity, sizeof *e->readers,
                                                             where);
                e->readers[e->reader_count++] = ev;
            }
        }
        free(addrs);
        free(writes);
    }
};

/* acc_wait_any: waits until a queue of the list has completed its work and
 * returns its index (entries acc_async_sync are skipped); -1 when every
 * entry is acc_async_sync. */
inline int p2c_acc_wait_any(int count, int *queues)
{
    int any = 0;
    for (int i = 0; i < count; i++)
        any |= queues[i] != acc_async_sync;
    if (!any)
        return -1;
    for (;;) {
        for (int i = 0; i < count; i++)
            if (queues[i] != acc_async_sync &&
                p2c_acc_stream_idle(p2c_acc_find_stream(p2c_acc_resolve(queues[i], "acc_wait_any")), "acc_wait_any"))
                return i;
    }
}

inline int p2c_acc_wait_any_device(int count, int *queues, int dev)
{
    (void)dev;
    return p2c_acc_wait_any(count, queues);
}

inline int p2c_acc_get_default_async(void)
{
    return p2c_acc_default_async_var;
}

inline void p2c_acc_set_default_async(int queue)
{
    p2c_acc_default_async_var = queue == acc_async_default ? 0 : queue;
}

/* `acc set default_async(q)` together with other `set` clauses. */
inline void p2c_acc_set_default_async_at(int queue, const char *where)
{
    (void)where;
    p2c_acc_set_default_async(queue);
}

/* The data routines with a queue: the routine's data movement on it. */
inline void p2c_acc_copyin_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_copyin_async");
    (void)p2c_acc_copyin(h, bytes);
}

inline void p2c_acc_create_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_create_async");
    (void)p2c_acc_create(h, bytes);
}

inline void p2c_acc_copyout_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_copyout_async");
    p2c_acc_copyout(h, bytes);
}

inline void p2c_acc_copyout_finalize_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_copyout_finalize_async");
    p2c_acc_copyout_finalize(h, bytes);
}

inline void p2c_acc_delete_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_delete_async");
    p2c_acc_delete(h, bytes);
}

inline void p2c_acc_delete_finalize_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_delete_finalize_async");
    p2c_acc_delete_finalize(h, bytes);
}

inline void p2c_acc_update_device_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_update_device_async");
    p2c_acc_update_device(h, bytes);
}

inline void p2c_acc_update_self_async(const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_update_self_async");
    p2c_acc_update_self(h, bytes);
}

inline void p2c_acc_memcpy_to_device_async(void *d, const void *h, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_memcpy_to_device_async");
    if (bytes)
        p2c_check(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, q.stream), "acc_memcpy_to_device_async", "copy to device");
}

inline void p2c_acc_memcpy_from_device_async(void *h, const void *d, size_t bytes, int async)
{
    p2c_acc_queue q(async, "acc_memcpy_from_device_async");
    if (bytes)
        p2c_check(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, q.stream), "acc_memcpy_from_device_async", "copy from device");
}

/* acc_attach / acc_detach (OpenACC 3.3, 3.2.29): the attach and detach
 * actions on the pointer at `ptr_addr` (templates/p2c_host.cuh). */
template <class T>
inline void p2c_acc_attach(T **ptr_addr)
{
    p2c_attach_at((void **)ptr_addr, (const void *)*ptr_addr, "acc_attach", "the pointer");
}

template <class T>
inline void p2c_acc_attach_async(T **ptr_addr, int async)
{
    p2c_acc_queue q(async, "acc_attach_async");
    p2c_attach_at((void **)ptr_addr, (const void *)*ptr_addr, "acc_attach_async", "the pointer");
}

template <class T>
inline void p2c_acc_detach(T **ptr_addr)
{
    p2c_detach_at((void **)ptr_addr, 0, "acc_detach", "the pointer");
}

template <class T>
inline void p2c_acc_detach_async(T **ptr_addr, int async)
{
    p2c_acc_queue q(async, "acc_detach_async");
    p2c_detach_at((void **)ptr_addr, 0, "acc_detach_async", "the pointer");
}

template <class T>
inline void p2c_acc_detach_finalize(T **ptr_addr)
{
    p2c_detach_at((void **)ptr_addr, P2C_MAP_FINALIZE, "acc_detach_finalize", "the pointer");
}

template <class T>
inline void p2c_acc_detach_finalize_async(T **ptr_addr, int async)
{
    p2c_acc_queue q(async, "acc_detach_finalize_async");
    p2c_detach_at((void **)ptr_addr, P2C_MAP_FINALIZE, "acc_detach_finalize_async", "the pointer");
}

} /* namespace p2c_prelude_1 */

/* The standard names. */
#define omp_get_thread_num p2c_omp_get_thread_num
#define omp_get_num_threads p2c_omp_get_num_threads
#define omp_get_max_threads p2c_omp_get_max_threads
#define omp_get_thread_limit p2c_omp_get_thread_limit
#define omp_get_team_num p2c_omp_get_team_num
#define omp_get_num_teams p2c_omp_get_num_teams
#define omp_get_max_teams p2c_omp_get_max_teams
#define omp_in_parallel p2c_omp_in_parallel
#define omp_get_level p2c_omp_get_level
#define omp_get_active_level p2c_omp_get_active_level
#define omp_is_initial_device p2c_omp_is_initial_device
#define omp_get_num_devices p2c_omp_get_num_devices
#define omp_get_initial_device p2c_omp_get_initial_device
#define omp_get_default_device p2c_omp_get_default_device
#define omp_get_device_num p2c_omp_get_device_num
#define omp_target_alloc p2c_omp_target_alloc
#define omp_target_free p2c_omp_target_free
#define omp_target_memcpy p2c_omp_target_memcpy
#define omp_target_memcpy_async p2c_omp_target_memcpy_async
#define omp_target_memcpy_rect p2c_omp_target_memcpy_rect
#define omp_target_memcpy_rect_async p2c_omp_target_memcpy_rect_async
#define omp_target_is_present p2c_omp_target_is_present
#define omp_get_mapped_ptr p2c_omp_get_mapped_ptr
#define omp_target_is_accessible p2c_omp_target_is_accessible
#if !(defined(_OPENMP) && defined(P2C_HAVE_OMP_H))
#define omp_get_wtime p2c_omp_get_wtime
#define omp_get_wtick p2c_omp_get_wtick
#define omp_set_num_threads p2c_omp_set_num_threads
#define omp_get_num_procs p2c_omp_get_num_procs
#endif
#define acc_on_device p2c_acc_on_device
#define acc_get_num_devices p2c_acc_get_num_devices
#define acc_get_device_type p2c_acc_get_device_type
#define acc_set_device_type p2c_acc_set_device_type
#define acc_get_device_num p2c_acc_get_device_num
#define acc_set_device_num p2c_acc_set_device_num
#define acc_get_property p2c_acc_get_property
#define acc_get_property_string p2c_acc_get_property_string
#define acc_init p2c_acc_init
#define acc_memcpy_device p2c_acc_memcpy_device
#define acc_memcpy_d2d p2c_acc_memcpy_d2d
#define acc_shutdown p2c_acc_shutdown
#define acc_init_device(num, dev) p2c_acc_init_device((num), (dev), "acc_init_device")
#define acc_shutdown_device(num, dev) p2c_acc_shutdown_device((num), (dev), "acc_shutdown_device")
#define acc_copyin p2c_acc_copyin
#define acc_present_or_copyin p2c_acc_copyin
#define acc_pcopyin p2c_acc_copyin
#define acc_create p2c_acc_create
#define acc_present_or_create p2c_acc_create
#define acc_pcreate p2c_acc_create
#define acc_copyout p2c_acc_copyout
#define acc_copyout_finalize p2c_acc_copyout_finalize
#define acc_delete p2c_acc_delete
#define acc_delete_finalize p2c_acc_delete_finalize
#define acc_is_present p2c_acc_is_present
#define acc_deviceptr p2c_acc_deviceptr
#define acc_hostptr p2c_acc_hostptr
#define acc_update_device p2c_acc_update_device
#define acc_update_self p2c_acc_update_self
#define acc_malloc p2c_acc_malloc
#define acc_free p2c_acc_free
#define acc_map_data p2c_acc_map_data
#define acc_unmap_data p2c_acc_unmap_data
#define acc_memcpy_to_device p2c_acc_memcpy_to_device
#define acc_memcpy_from_device p2c_acc_memcpy_from_device
#define acc_wait p2c_acc_wait
#define acc_wait_all p2c_acc_wait_all
#define acc_async_test p2c_acc_async_test
#define acc_async_test_all p2c_acc_async_test_all
#define acc_async_wait p2c_acc_wait
#define acc_async_wait_all p2c_acc_wait_all
#define acc_wait_async p2c_acc_wait_async
#define acc_wait_all_async p2c_acc_wait_all_async
#define acc_wait_device p2c_acc_wait_device
#define acc_wait_device_async p2c_acc_wait_device_async
#define acc_wait_all_device p2c_acc_wait_all_device
#define acc_wait_all_device_async p2c_acc_wait_all_device_async
#define acc_async_test_device p2c_acc_async_test_device
#define acc_async_test_all_device p2c_acc_async_test_all_device
#define acc_wait_any p2c_acc_wait_any
#define acc_wait_any_device p2c_acc_wait_any_device
#define acc_get_default_async p2c_acc_get_default_async
#define acc_set_default_async p2c_acc_set_default_async
#define acc_copyin_async p2c_acc_copyin_async
#define acc_create_async p2c_acc_create_async
#define acc_copyout_async p2c_acc_copyout_async
#define acc_copyout_finalize_async p2c_acc_copyout_finalize_async
#define acc_delete_async p2c_acc_delete_async
#define acc_delete_finalize_async p2c_acc_delete_finalize_async
#define acc_update_device_async p2c_acc_update_device_async
#define acc_update_self_async p2c_acc_update_self_async
#define acc_memcpy_to_device_async p2c_acc_memcpy_to_device_async
#define acc_memcpy_from_device_async p2c_acc_memcpy_from_device_async
#define acc_attach p2c_acc_attach
#define acc_attach_async p2c_acc_attach_async
#define acc_detach p2c_acc_detach
#define acc_detach_async p2c_acc_detach_async
#define acc_detach_finalize p2c_acc_detach_finalize
#define acc_detach_finalize_async p2c_acc_detach_finalize_async
/* ---- end of runtime API ---- */
