#!/usr/bin/env bash
# Runs on a bare GPU machine (no cargo, no CUDA toolkit; the repository's working
# tree is copied there with .gpu/ and .whl/ from scripts/gpu-prepare.sh).
# For every translated fixture in .gpu/cu/: builds it with nvcc for the GPU's arch
# when nvcc wheels were carried (else uses the binary prebuilt in .gpu/bin/), runs it,
# compares exit code and stdout with the gcc reference in .gpu/ref/, and runs
# compute-sanitizer memcheck and racecheck on it. Writes one TSV:
#   fixture build run exit ref_exit stdout memcheck racecheck detail
# to the path given as $1, else $OUT/gpu-results.tsv, else ./gpu-results.tsv.
# Prints `N passed, M failed` last; exits 1 when any fixture failed.
set -uo pipefail
cd "$(dirname "$0")/.."
RESULTS=${1:-${OUT:-.}/gpu-results.tsv}
LIMIT=${P2C_GPU_TIMEOUT:-120}
[ -d .gpu/cu ] || { echo "gpu-check: .gpu/cu missing: run scripts/gpu-prepare.sh here and carry .gpu and .whl" >&2; exit 2; }

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
for w in .whl/*.whl; do
  [ -e "$w" ] || continue
  if command -v unzip >/dev/null; then unzip -q -o "$w" -d "$tools"; else python3 -m zipfile -e "$w" "$tools"; fi
done
CU="$tools/nvidia/cu13"
chmod -R u+x "$CU/bin" "$CU/compute-sanitizer" "$CU/nvvm/bin" 2>/dev/null || true
[ -e "$CU/lib" ] && [ ! -e "$CU/lib64" ] && ln -s lib "$CU/lib64"
export LD_LIBRARY_PATH="$CU/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
CS=""
[ -x "$CU/compute-sanitizer/compute-sanitizer" ] && CS="$CU/compute-sanitizer/compute-sanitizer"
NVCC=""
[ -x "$CU/bin/nvcc" ] && NVCC="$CU/bin/nvcc"

smi=$(nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader 2>/dev/null | head -1)
cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -dc '0-9')
arch=${cap:+sm_$cap}
echo "gpu-check: GPU: ${smi:-none}; arch ${arch:-unknown}; nvcc: ${NVCC:-none (prebuilt binaries)}; compute-sanitizer: ${CS:-none}"

work=$(mktemp -d)
mkdir -p "$(dirname "$RESULTS")"
printf 'fixture\tbuild\trun\texit\tref_exit\tstdout\tmemcheck\tracecheck\tdetail\n' > "$RESULTS"
pass=0 fail=0
for cu in .gpu/cu/*.cu; do
  [ -e "$cu" ] || continue
  name=$(basename "$cu" .cu)
  bin="$work/$name" build=prebuilt detail=""
  if [ -n "$NVCC" ] && [ -n "$arch" ]; then
    omp=()
    grep -Eq '#[[:space:]]*pragma[[:space:]]+omp|<omp.h>' "$cu" && omp=(-Xcompiler=-fopenmp -lgomp)
    if "$NVCC" -arch="$arch" "${omp[@]}" "$cu" -o "$bin" -lm > "$work/$name.build.log" 2>&1; then build=nvcc-$arch
    else build=FAIL; detail=$(grep -m1 -i error "$work/$name.build.log"); fi
  elif [ -x ".gpu/bin/$name" ]; then cp ".gpu/bin/$name" "$bin"
  else build=FAIL; detail="no nvcc carried and no prebuilt binary"; fi
  run=- rc=- out=- mem=- race=-
  ref_rc=$(cat ".gpu/ref/$name.rc" 2>/dev/null || echo missing)
  if [ "$build" != FAIL ]; then
    rc=0; (cd "$work" && timeout "$LIMIT" "$bin" > "$name.out" 2> "$name.err") || rc=$?
    [ "$rc" = 124 ] && detail="timed out after $LIMIT s"
    grep -qi "driver version is insufficient" "$work/$name.err" && detail="the driver is older than the CUDA 13 runtime"
    if cmp -s "$work/$name.out" ".gpu/ref/$name.out"; then out=same; else
      out=differs
      first=$(diff <(cat ".gpu/ref/$name.out" 2>/dev/null) "$work/$name.out" | grep -m2 '^[<>]' | tr '\n\t' '  ')
      detail="${detail:+$detail; }first difference: $first"
    fi
    if [ "$rc" = "$ref_rc" ] && [ "$out" = same ]; then run=PASS; else run=FAIL; fi
    if [ -n "$CS" ]; then
      for tool in memcheck racecheck; do
        r=0
        (cd "$work" && timeout $((LIMIT * 5)) "$CS" --tool "$tool" --error-exitcode 99 "$bin" > "$name.$tool.log" 2>&1) || r=$?
        errs=$(grep -m1 -Eo 'ERROR SUMMARY: [0-9]+|RACECHECK SUMMARY: [0-9]+ hazard' "$work/$name.$tool.log" | head -1)
        if [ "$r" = 99 ] || { [ -n "$errs" ] && ! echo "$errs" | grep -Eq ': 0( |$)'; }; then v="FAIL(${errs:-exit $r})"
        elif [ "$r" = 124 ]; then v="TIMEOUT"
        else v=clean; fi
        [ "$tool" = memcheck ] && mem=$v || race=$v
      done
    else mem=no-tool; race=no-tool; fi
  fi
  if [ "$run" = PASS ] && [ "$mem" = clean ] && [ "$race" = clean ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$build" "$run" "$rc" "$ref_rc" "$out" "$mem" "$race" "$(echo "$detail" | tr '\t\n' '  ' | cut -c1-300)" >> "$RESULTS"
done
rm -rf "$work"
if command -v column >/dev/null; then column -t -s $'\t' "$RESULTS"; else cat "$RESULTS"; fi
echo "gpu-check: results in $RESULTS"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
