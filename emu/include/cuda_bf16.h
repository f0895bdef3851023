#error "pragma2cuda SIMT emulator: <cuda_bf16.h> is not supported"
