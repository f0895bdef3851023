#!/usr/bin/env bash
# Installs the toolchains the verification harness needs, once, idempotently:
#   - nvcc 13 (PyPI wheels, pinned) into $P2C_CACHE/cu13
#   - a CUDA 12 root for clang-19 (PyPI wheels, pinned) into $P2C_CACHE/cu12, assembled as $P2C_CACHE/cuda12-root
#   - clang-19, libomp-19-dev, g++, neovim (Debian packages), when apt-get is available and they are missing
# Prints nothing but progress lines; writes $P2C_CACHE/env.sh that the test runner sources.
set -euo pipefail
P2C_CACHE=${P2C_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pragma2cuda}
mkdir -p "$P2C_CACHE"
PY=${PYTHON:-python3}

CU13_PKGS="nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-crt==13.5.37 nvidia-cuda-runtime==13.5.37 nvidia-cuda-cccl==13.3.5.0.6"
CU12_PKGS="nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86 nvidia-cuda-cccl-cu12==12.9.27 nvidia-curand-cu12==10.3.10.19"

need_apt=()
command -v clang-19 >/dev/null 2>&1 || need_apt+=(clang-19)
[ -e /usr/lib/llvm-19/lib/libomptarget.so ] || [ -e /usr/lib/llvm-19/lib/libomp.so ] || need_apt+=(libomp-19-dev)
command -v llvm-config-19 >/dev/null 2>&1 || need_apt+=(llvm-19)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
# The editor plugin's test runs in Debian's Neovim (scripts/test-nvim.sh).
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
if [ ${#need_apt[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "toolchain: apt-get install ${need_apt[*]}"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
  else
    echo "toolchain: missing ${need_apt[*]} and cannot apt-get install them" >&2
  fi
fi

stamp13="$P2C_CACHE/cu13/.stamp"
if [ "$(cat "$stamp13" 2>/dev/null)" != "$CU13_PKGS" ]; then
  echo "toolchain: pip install nvcc 13 wheels into $P2C_CACHE/cu13"
  rm -rf "$P2C_CACHE/cu13"
  $PY -m pip install -q --disable-pip-version-check --no-deps --target "$P2C_CACHE/cu13" $CU13_PKGS
  echo "$CU13_PKGS" > "$stamp13"
fi
stamp12="$P2C_CACHE/cu12/.stamp"
if [ "$(cat "$stamp12" 2>/dev/null)" != "$CU12_PKGS" ]; then
  echo "toolchain: pip install CUDA 12 wheels for clang into $P2C_CACHE/cu12"
  rm -rf "$P2C_CACHE/cu12"
  $PY -m pip install -q --disable-pip-version-check --no-deps --target "$P2C_CACHE/cu12" $CU12_PKGS
  echo "$CU12_PKGS" > "$stamp12"
fi

CU13="$P2C_CACHE/cu13/nvidia/cu13"
chmod +x "$CU13"/bin/* "$CU13"/nvvm/bin/* 2>/dev/null || true
# nvcc looks for libcudart / libcudadevrt under lib64 of its root
[ -e "$CU13/lib64" ] || ln -s lib "$CU13/lib64"

# CUDA root for clang-19: include/, bin/ptxas, nvvm/libdevice, lib64
R="$P2C_CACHE/cuda12-root"
if [ ! -e "$R/.done" ]; then
  rm -rf "$R"; mkdir -p "$R/include" "$R/bin" "$R/nvvm/libdevice" "$R/lib64"
  N="$P2C_CACHE/cu12/nvidia"
  for d in cuda_runtime cuda_nvcc cuda_cccl curand; do
    [ -d "$N/$d/include" ] && cp -rs --remove-destination "$N/$d/include/." "$R/include/"
  done
  for d in cuda_runtime curand; do
    [ -d "$N/$d/lib" ] && cp -rs "$N/$d/lib/." "$R/lib64/"
  done
  cp -rs "$N/cuda_nvcc/bin/." "$R/bin/"
  cp -rs "$N/cuda_nvcc/nvvm/libdevice/." "$R/nvvm/libdevice/"
  chmod +x "$N/cuda_nvcc/bin/"* 2>/dev/null || true
  echo "CUDA Version 12.9.86" > "$R/version.txt"
  touch "$R/.done"
fi

cat > "$P2C_CACHE/env.sh" <<ENV
export P2C_NVCC="$CU13/bin/nvcc"
export P2C_CUDA13="$CU13"
export P2C_CLANG_CUDA_ROOT="$R"
export P2C_CLANG="\$(command -v clang-19 || true)"
ENV
echo "toolchain: ready ($P2C_CACHE/env.sh)"
