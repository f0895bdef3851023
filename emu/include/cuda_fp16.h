#error "pragma2cuda SIMT emulator: <cuda_fp16.h> is not supported"
