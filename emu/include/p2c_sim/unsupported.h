// pragma2cuda SIMT emulator: CUDA primitives it does not provide fail at compile time
// with a message naming them. (Names the emulator never declares fail anyway, as
// undeclared identifiers; the ones listed here would otherwise resolve to something else
// or give a confusing message.)
#pragma once
#pragma GCC system_header

namespace p2c_sim {
template <class... T>
inline constexpr bool unsupported_v = false;
}

#define P2C_SIM_UNSUPPORTED(name)                                                              \
    ([](auto &&...a) -> int {                                                                 \
        static_assert(p2c_sim::unsupported_v<decltype(a)...>,                                  \
                      "pragma2cuda SIMT emulator: " #name " is not supported");                 \
        return 0;                                                                              \
    })

// Pre-Volta warp primitives without a mask (removed in CUDA 9+ for sm_70+).
#define __shfl(...) P2C_SIM_UNSUPPORTED(__shfl)(__VA_ARGS__)
#define __shfl_up(...) P2C_SIM_UNSUPPORTED(__shfl_up)(__VA_ARGS__)
#define __shfl_down(...) P2C_SIM_UNSUPPORTED(__shfl_down)(__VA_ARGS__)
#define __shfl_xor(...) P2C_SIM_UNSUPPORTED(__shfl_xor)(__VA_ARGS__)
#define __ballot(...) P2C_SIM_UNSUPPORTED(__ballot)(__VA_ARGS__)
#define __any(...) P2C_SIM_UNSUPPORTED(__any)(__VA_ARGS__)
#define __all(...) P2C_SIM_UNSUPPORTED(__all)(__VA_ARGS__)
// Host-side C clock() exists, but device clock() is a cycle counter: use clock64().
// Texture/surface objects, cooperative launch and dynamic parallelism.
#define tex1Dfetch(...) P2C_SIM_UNSUPPORTED(tex1Dfetch)(__VA_ARGS__)
#define tex1D(...) P2C_SIM_UNSUPPORTED(tex1D)(__VA_ARGS__)
#define tex2D(...) P2C_SIM_UNSUPPORTED(tex2D)(__VA_ARGS__)
#define tex3D(...) P2C_SIM_UNSUPPORTED(tex3D)(__VA_ARGS__)
#define surf2Dwrite(...) P2C_SIM_UNSUPPORTED(surf2Dwrite)(__VA_ARGS__)
#define surf2Dread(...) P2C_SIM_UNSUPPORTED(surf2Dread)(__VA_ARGS__)
#define cudaLaunchCooperativeKernel(...) P2C_SIM_UNSUPPORTED(cudaLaunchCooperativeKernel)(__VA_ARGS__)
#define cudaLaunchKernel(...) P2C_SIM_UNSUPPORTED(cudaLaunchKernel)(__VA_ARGS__)
#define cudaFuncSetAttribute(...) P2C_SIM_UNSUPPORTED(cudaFuncSetAttribute)(__VA_ARGS__)
#define cudaFuncSetCacheConfig(...) P2C_SIM_UNSUPPORTED(cudaFuncSetCacheConfig)(__VA_ARGS__)
#define cudaMallocPitch(...) P2C_SIM_UNSUPPORTED(cudaMallocPitch)(__VA_ARGS__)
#define cudaMemcpy3D(...) P2C_SIM_UNSUPPORTED(cudaMemcpy3D)(__VA_ARGS__)
#define cudaDeviceSetLimit(...) P2C_SIM_UNSUPPORTED(cudaDeviceSetLimit)(__VA_ARGS__)
