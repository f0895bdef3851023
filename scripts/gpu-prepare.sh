#!/usr/bin/env bash
# Prepares, on this (GPU-less) machine, everything scripts/gpu-check.sh needs on a
# bare GPU machine, so that the short device lease is spent running, not building.
# Into .gpu/ (ignored by git):
#   cu/NAME.cu         every fixtures/in/NAME.c translated (release build, NAME.opts honoured)
#   ref/NAME.out|.rc   stdout and exit status of the gcc 12 build of the original: host
#                      OpenMP/OpenACC, or the sequential build where the fixture says
#                      `p2c-reference: sequential` (as the harness judges it)
#   bin/NAME           the .cu built with nvcc 13 for sm_90 (+ compute_90 PTX), shared cudart
#   lib/               libcudart.so.13 of the wheels and this machine's libgomp, so the
#                      prebuilt binaries need nothing from the device machine's image
#   translate.tsv      fixture, status (ok / translate-error / nvcc-error), first message
# With --bench, also .bench/ (scripts/bench-reduce.sh prepare).
# Then, with the device tool (cu/ and log/ stay here; .gpu is over the 64 MiB a run carries):
#   run(command="scripts/gpu-check.sh", carry=[".gpu/bin.tar.gz", ".gpu/cu.tar.xz", ".gpu/ref", ".gpu/lib", ".bench"])
set -euo pipefail
cd "$(dirname "$0")/.."
P2C_CACHE=${P2C_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pragma2cuda}
[ -f "$P2C_CACHE/env.sh" ] || scripts/toolchain.sh
# shellcheck disable=SC1091
source "$P2C_CACHE/env.sh"
cargo build --release -q
export P2C=$PWD/target/release/pragma2cuda P2C_NVCC

rm -rf .gpu && mkdir -p .gpu/cu .gpu/ref .gpu/bin .gpu/lib .gpu/log
cp -L "$P2C_CUDA13"/lib/libcudart.so.13 .gpu/lib/
cp -L "$(gcc -print-file-name=libgomp.so.1)" .gpu/lib/
# For the link here only (a link travels as a link).
ln -s libcudart.so.13 .gpu/lib/libcudart.so

prepare_one() {
    local c=$1 name dir flags=() opts=() ompflags=() ref
    name=$(basename "$c" .c) dir=$(dirname "$c")
    # X.opts: the options of the fixture's golden; `--line-directives` there is the
    # command line's default already.
    [ -f "$dir/$name.opts" ] && read -r -a opts < <(grep -v -e '^--line-directives' -e '^#' "$dir/$name.opts" | tr '\n' ' ')
    if ! grep -q 'p2c-reference: sequential' "$c"; then
        grep -Eq '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+omp|<omp.h>' "$c" && flags+=(-fopenmp)
        grep -Eq '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+acc|<openacc.h>' "$c" && flags+=(-fopenacc)
    fi
    ref=$(mktemp -d)
    if gcc "${flags[@]}" -I"$dir" "$c" -o "$ref/bin" -lm 2> ".gpu/log/$name.ref.log"; then
        local rc=0
        (cd "$ref" && timeout 60 ./bin > out 2> /dev/null) || rc=$?
        cp "$ref/out" ".gpu/ref/$name.out"
        echo "$rc" > ".gpu/ref/$name.rc"
    else
        echo "reference build failed" > ".gpu/ref/$name.rc"
    fi
    rm -rf "$ref"
    if ! "$P2C" "${opts[@]}" --diagnostics-format=gcc "$c" -o ".gpu/cu/$name.cu" 2> ".gpu/log/$name.p2c.log"; then
        printf '%s\ttranslate-error\t%s\n' "$name" "$(grep -m1 error ".gpu/log/$name.p2c.log" | tr '\t' ' ')"
        return 0
    fi
    grep -Eq '#[[:space:]]*pragma[[:space:]]+omp|<omp.h>' ".gpu/cu/$name.cu" && ompflags=(-Xcompiler=-fopenmp -lgomp)
    if "$P2C_NVCC" -O3 -cudart shared -gencode 'arch=compute_90,code=[sm_90,compute_90]' -lineinfo \
        -L"$PWD/.gpu/lib" "${ompflags[@]}" -I"$dir" ".gpu/cu/$name.cu" -o ".gpu/bin/$name" -lm 2> ".gpu/log/$name.nvcc.log"; then
        printf '%s\tok\t\n' "$name"
    else
        printf '%s\tnvcc-error\t%s\n' "$name" "$(grep -m1 error ".gpu/log/$name.nvcc.log" | tr '\t' ' ')"
    fi
}
export -f prepare_one

{
    printf 'fixture\tstatus\tmessage\n'
    ls fixtures/in/*.c | xargs -P "${P2C_JOBS:-$(nproc)}" -I{} bash -c 'prepare_one "$1"' _ {} | sort
} > .gpu/translate.tsv

tar czf .gpu/bin.tar.gz -C .gpu bin
tar cJf .gpu/cu.tar.xz -C .gpu cu
[ "${1:-}" = --bench ] && scripts/bench-reduce.sh prepare
echo "gpu-prepare: $(grep -c $'\tok\t' .gpu/translate.tsv) built, $(grep -vc -e $'\tok\t' -e '^fixture' .gpu/translate.tsv) not; .gpu $(du -sh .gpu | cut -f1)"
