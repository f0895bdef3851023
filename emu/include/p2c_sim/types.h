// pragma2cuda SIMT emulator: CUDA keywords, built-in vector types and the error enum.
// Included by cuda_runtime.h after the standard headers (see the note there about why
// the keyword macros must come after them).
#pragma once
#pragma GCC system_header

// ---- keywords -------------------------------------------------------------------------
// Host and device code are the same C++ here, so the execution-space specifiers vanish.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
// P2C_SIM_CONCURRENT_BLOCKS=K (default 1) runs up to K blocks of a grid at once.
#ifndef P2C_SIM_CONCURRENT_BLOCKS
#define P2C_SIM_CONCURRENT_BLOCKS 1
#endif
#if P2C_SIM_CONCURRENT_BLOCKS < 1 || P2C_SIM_CONCURRENT_BLOCKS > 16
#error "pragma2cuda SIMT emulator: P2C_SIM_CONCURRENT_BLOCKS must be 1..16"
#endif
#if P2C_SIM_CONCURRENT_BLOCKS == 1
// Blocks of a grid run one after another, so one copy of each __shared__ variable serves
// every block: a function-local static is shared by the threads of the running block.
#define __shared__ static
#else
// Concurrent blocks need a copy of each __shared__ variable per running block: `pragma2cuda
// verify` rewrites every declaration into a p2c_sim::block_shared<T, align, id>() reference
// before compiling. One that is left is a compile error, never a variable shared by blocks.
#define __shared__ p2c_sim_shared_needs_the_per_block_rewrite_of_pragma2cuda_verify
#endif
// __restrict__ is a GCC keyword already.

namespace p2c_sim {}

// ---- vector types ---------------------------------------------------------------------
#define P2C_SIM_VEC(T, NAME, A2, A4)                                                          \
    struct NAME##1 { T x; };                                                                  \
    struct alignas(A2) NAME##2 { T x, y; };                                                   \
    struct NAME##3 { T x, y, z; };                                                            \
    struct alignas(A4) NAME##4 { T x, y, z, w; };                                             \
    inline NAME##1 make_##NAME##1(T x) { return NAME##1{x}; }                                 \
    inline NAME##2 make_##NAME##2(T x, T y) { return NAME##2{x, y}; }                         \
    inline NAME##3 make_##NAME##3(T x, T y, T z) { return NAME##3{x, y, z}; }                 \
    inline NAME##4 make_##NAME##4(T x, T y, T z, T w) { return NAME##4{x, y, z, w}; }

P2C_SIM_VEC(signed char, char, 2, 4)
P2C_SIM_VEC(unsigned char, uchar, 2, 4)
P2C_SIM_VEC(short, short, 4, 8)
P2C_SIM_VEC(unsigned short, ushort, 4, 8)
P2C_SIM_VEC(int, int, 8, 16)
P2C_SIM_VEC(long, long, 2 * sizeof(long), 16)
P2C_SIM_VEC(unsigned long, ulong, 2 * sizeof(long), 16)
P2C_SIM_VEC(long long, longlong, 16, 16)
P2C_SIM_VEC(unsigned long long, ulonglong, 16, 16)
P2C_SIM_VEC(float, float, 8, 16)
P2C_SIM_VEC(double, double, 16, 16)
#undef P2C_SIM_VEC
// uint3 is written out because dim3 converts from it.
struct uint1 { unsigned x; };
struct alignas(8) uint2 { unsigned x, y; };
struct uint3 { unsigned x, y, z; };
struct alignas(16) uint4 { unsigned x, y, z, w; };
inline uint1 make_uint1(unsigned x) { return uint1{x}; }
inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return uint4{x, y, z, w}; }

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// ---- errors ---------------------------------------------------------------------------
// Values are those of the CUDA runtime so that printed codes mean the same thing.
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorSynchronizationError = 25,
    cudaErrorNotYetImplemented = 31,
    cudaErrorInsufficientDriver = 35,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

// The device attributes cudaDeviceGetAttribute answers (CUDA's own values).
enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrUnifiedAddressing = 41,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrPageableMemoryAccess = 88
};

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

struct CUstream_st;
struct CUevent_st;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaHostAllocDefault 0x00
#define cudaMemAttachGlobal 0x01

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int concurrentManagedAccess;
    size_t sharedMemPerBlockOptin;
    int maxBlocksPerMultiProcessor;
};
