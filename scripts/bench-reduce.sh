#!/usr/bin/env bash
# The GPU reduction benchmark of issue 5: sum and dot over 2^28 doubles and
# floats, written in plain C (bench/reduce.c), translated by pragma2cuda, timed
# against CUB's DeviceReduce::Sum on the same device data (bench/driver.cu),
# and, when it builds, against clang-19's own OpenMP offload of the same C
# (bench/driver_omp.c), and against gcc-12's nvptx offload of it (gcc-12-offload-nvptx).
# Bandwidth ratios in one run.
#
#   scripts/bench-reduce.sh prepare      here (toolchain, no GPU): builds .bench/
#   scripts/bench-reduce.sh run [N]      on the GPU machine: runs .bench/, prints
#                                        the table, writes $OUT/bench-reduce.tsv
#
# With the device tool: run(command="scripts/bench-reduce.sh run", carry=[".bench"]).
# Record the figures, with the device named, in BENCHMARKS.md.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
    P2C_CACHE=${P2C_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pragma2cuda}
    # shellcheck disable=SC1091
    source "$P2C_CACHE/env.sh"
    cargo build --release -q || exit 1
    rm -rf .bench && mkdir -p .bench
    target/release/pragma2cuda bench/reduce.c -o .bench/reduce.cu || exit 1
    for s in tree atomic; do
        target/release/pragma2cuda --reduction-strategy=$s bench/reduce.c -o .bench/reduce-$s.cu || exit 1
        "$P2C_NVCC" -std=c++17 -O3 -cudart static \
            -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
            -gencode arch=compute_90,code=compute_90 -Xptxas -v \
            -DP2C_TRANSLATED="\"$PWD/.bench/reduce-$s.cu\"" -I bench -x cu bench/driver.cu \
            -o .bench/bench-p2c-$s 2> .bench/nvcc-$s.log || { cat .bench/nvcc-$s.log; exit 1; }
    done
    if clang-19 -O2 -fopenmp --offload-arch=sm_90 --cuda-path="$P2C_CLANG_CUDA_ROOT" \
        --libomptarget-nvptx-bc-path=/usr/lib/llvm-19/lib -I bench bench/reduce.c bench/driver_omp.c \
        -o .bench/bench-clang 2> .bench/clang.log; then
        mkdir -p .bench/lib
        cp -L /usr/lib/llvm-19/lib/libomp.so.5 /usr/lib/llvm-19/lib/libomptarget.so* \
            /usr/lib/llvm-19/lib/libomptarget.rtl.cuda.so* .bench/lib/ 2>/dev/null
        echo "bench-reduce: clang-19 offload build: .bench/bench-clang"
    else
        echo "bench-reduce: clang-19 offload build failed (see .bench/clang.log); the run skips it"
    fi
    # GCC's own GPU offload of the same C (gcc-12-offload-nvptx), the runtime reference.
    if gcc -O3 -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -I bench \
        bench/reduce.c bench/driver_omp.c -o .bench/bench-gcc -lm 2> .bench/gcc.log; then
        mkdir -p .bench/lib
        cp -L "$(gcc -print-file-name=libgomp.so.1)" .bench/lib/
        cp -L /usr/lib/x86_64-linux-gnu/libgomp-plugin-nvptx.so.1 .bench/lib/
        echo "bench-reduce: gcc-12 nvptx offload build: .bench/bench-gcc"
    else
        echo "bench-reduce: gcc-12 nvptx offload build failed (see .bench/gcc.log; apt-get install gcc-12-offload-nvptx); the run skips it"
    fi
    du -sh .bench
    ;;
run)
    n=${2:-268435456}
    [ -x .bench/bench-p2c-tree ] || { echo "bench-reduce: run 'scripts/bench-reduce.sh prepare' first and carry .bench" >&2; exit 2; }
    out=${OUT:-.}/bench-reduce.tsv
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out.device"
    {
        for s in tree atomic; do
            echo "# pragma2cuda --reduction-strategy=$s vs CUB DeviceReduce::Sum"
            .bench/bench-p2c-$s "$n"
        done
        if [ -x .bench/bench-gcc ]; then
            echo "# gcc-12 nvptx offload (OMP_TARGET_OFFLOAD=MANDATORY)"
            OMP_TARGET_OFFLOAD=MANDATORY LD_LIBRARY_PATH=$PWD/.bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} .bench/bench-gcc "$n"
        else
            echo "# gcc-12 nvptx offload: not built"
        fi
        if [ -x .bench/bench-clang ]; then
            echo "# clang-19 OpenMP offload"
            LD_LIBRARY_PATH=$PWD/.bench/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} .bench/bench-clang "$n"
        else
            echo "# clang-19 OpenMP offload: not built"
        fi
    } | tee "$out"
    ;;
*)
    sed -n '2,13p' "$0"
    exit 2
    ;;
esac
