#!/usr/bin/env bash
# Prepares, on this (GPU-less) machine, what scripts/gpu-check.sh needs on a
# bare GPU machine, into two folders ignored by git:
#   .gpu/cu/NAME.cu        every fixtures/in/NAME.c translated (pragma2cuda, release build)
#   .gpu/ref/NAME.out|.rc  stdout and exit code of the gcc build of the original (the reference)
#   .gpu/bin/NAME          the .cu prebuilt with nvcc 13 for sm_80 and sm_90 (+ compute_90 PTX),
#                          with the shared CUDA runtime, for when no nvcc is carried
#   .gpu/translate.tsv     fixture, status (ok / translate-error / nvcc-error), first message
#   .whl/                  wheels: nvidia-cuda-runtime (libcudart.so.13) and
#                          nvidia-cuda-sanitizer-api (compute-sanitizer lives in it, under
#                          nvidia/cu13/compute-sanitizer/, with nvidia/cu13/bin/compute-sanitizer)
# With --with-nvcc, the nvcc wheels go to .whl/ too and gpu-check.sh builds for the
# GPU's own arch there; they are about 125 MB, over the 64 MiB a device run carries,
# so the default is the prebuilt binaries.
# Then, with the device tool:  run(command="scripts/gpu-check.sh", carry=[".gpu", ".whl"])
set -euo pipefail
cd "$(dirname "$0")/.."
with_nvcc=0
[ "${1:-}" = "--with-nvcc" ] && with_nvcc=1

P2C_CACHE=${P2C_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pragma2cuda}
[ -f "$P2C_CACHE/env.sh" ] || scripts/toolchain.sh
# shellcheck disable=SC1091
source "$P2C_CACHE/env.sh"
cargo build --release -q
P2C=target/release/pragma2cuda

rm -rf .gpu && mkdir -p .gpu/cu .gpu/ref .gpu/bin
printf 'fixture\tstatus\tmessage\n' > .gpu/translate.tsv
shopt -s nullglob
for c in fixtures/in/*.c; do
  name=$(basename "$c" .c)
  flags=()
  grep -Eq '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+omp' "$c" && flags+=(-fopenmp)
  grep -Eq '^[[:space:]]*#[[:space:]]*pragma[[:space:]]+acc' "$c" && flags+=(-fopenacc)
  if gcc "${flags[@]}" -I"$(dirname "$c")" "$c" -o ".gpu/ref/$name.bin" -lm 2>".gpu/ref/$name.log"; then
    rc=0; (cd .gpu/ref && timeout 60 "./$name.bin" > "$name.out" 2>/dev/null) || rc=$?
    echo "$rc" > ".gpu/ref/$name.rc"
  else
    echo "reference build failed" > ".gpu/ref/$name.rc"
  fi
  rm -f ".gpu/ref/$name.bin"
  if ! "$P2C" --diagnostics-format=gcc "$c" -o ".gpu/cu/$name.cu" 2>".gpu/cu/$name.log"; then
    printf '%s\ttranslate-error\t%s\n' "$name" "$(grep -m1 error ".gpu/cu/$name.log" | tr '\t' ' ')" >> .gpu/translate.tsv
    continue
  fi
  ompflags=()
  grep -Eq '#[[:space:]]*pragma[[:space:]]+omp|<omp.h>' ".gpu/cu/$name.cu" && ompflags=(-Xcompiler=-fopenmp -lgomp)
  if "$P2C_NVCC" -cudart shared -gencode arch=compute_80,code=sm_80 -gencode 'arch=compute_90,code=[sm_90,compute_90]' \
      "${ompflags[@]}" -I"$(dirname "$c")" ".gpu/cu/$name.cu" -o ".gpu/bin/$name" -lm 2>".gpu/bin/$name.log"; then
    printf '%s\tok\t\n' "$name" >> .gpu/translate.tsv
  else
    printf '%s\tnvcc-error\t%s\n' "$name" "$(grep -m1 error ".gpu/bin/$name.log" | tr '\t' ' ')" >> .gpu/translate.tsv
  fi
done

mkdir -p .whl
wheels="nvidia-cuda-runtime==13.5.37 nvidia-cuda-sanitizer-api==13.4.92"
[ $with_nvcc = 1 ] && wheels="$wheels nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-crt==13.5.37 nvidia-cuda-cccl==13.3.5.0.6"
# shellcheck disable=SC2086
python3 -m pip download -q --disable-pip-version-check --no-deps -d .whl $wheels
cus=(.gpu/cu/*.cu); bins=(.gpu/bin/*); logs=(.gpu/bin/*.log)
echo "gpu-prepare: ${#cus[@]} translated, $(( ${#bins[@]} - ${#logs[@]} )) prebuilt; .gpu $(du -sh .gpu | cut -f1), .whl $(du -sh .whl | cut -f1)"
