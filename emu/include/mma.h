#error "pragma2cuda SIMT emulator: <mma.h> is not supported"
