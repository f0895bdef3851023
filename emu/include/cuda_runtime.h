// pragma2cuda SIMT emulator — entry point.
//
// Lets g++ compile a CUDA .cu file unchanged and run it on the CPU:
//   g++ -std=c++20 -O1 -pthread -DP2C_SIMT_EMULATOR -I emu/include -x c++ prog.cu -o prog
// The CUDA threads of a block are fibers of one OS thread (OS threads under ThreadSanitizer
// or with -DP2C_SIM_FIBERS=0); blocks of a grid run one after another (or up to K at once,
// on K OS threads, with -DP2C_SIM_CONCURRENT_BLOCKS=K).
// See emu/README.md for what is supported and the known limits.
#ifndef P2C_SIM_CUDA_RUNTIME_H
#define P2C_SIM_CUDA_RUNTIME_H
#pragma GCC system_header

#if !defined(__cplusplus) || __cplusplus < 202002L
#error "pragma2cuda SIMT emulator: compile as C++20 (g++ -std=c++20 -x c++)"
#endif

// Standard headers come first: the keyword macros below (__noinline__ in particular)
// would break library headers parsed after them.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cassert>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <assert.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "p2c_sim/fiber.h"
#include "p2c_sim/types.h"
#include "p2c_sim/sched.h"
#include "p2c_sim/device.h"
#include "p2c_sim/runtime.h"
#include "p2c_sim/streams.h"
#include "p2c_sim/unsupported.h"

#endif
