#error "pragma2cuda SIMT emulator: <cooperative_groups.h> is not supported"
