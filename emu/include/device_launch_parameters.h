// pragma2cuda SIMT emulator: the driver API is not emulated; only the runtime is.
#include "cuda_runtime.h"
