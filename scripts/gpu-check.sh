#!/usr/bin/env bash
# Runs on a bare GPU machine over the working tree with .gpu/ (scripts/gpu-prepare.sh)
# and, when present, .bench/ (scripts/bench-reduce.sh prepare). Needs no cargo and
# no CUDA toolkit; uses the machine's compute-sanitizer when it has one.
# Phases, each in parallel, each skipped past the deadline (P2C_GPU_BUDGET seconds
# from the start, default 420), so one call fits a short lease:
#   1. run    every prebuilt fixture; exit status and stdout against the gcc reference
#   2. bench  scripts/bench-reduce.sh run at 2^20, 2^24 and 2^28 elements
#   3. memcheck, 4. racecheck, 5. synccheck (compute-sanitizer) on every fixture that ran
# Writes $OUT/gpu-results.tsv (fixture run exit ref_exit stdout memcheck racecheck
# synccheck detail) and $OUT/gpu-logs.tar.gz; prints `N passed, M failed` last, where a
# fixture passes when it ran like the reference and every sanitizer that ran is clean.
set -uo pipefail
cd "$(dirname "$0")/.."
START=$(date +%s)
export DEADLINE=$((START + ${P2C_GPU_BUDGET:-420}))
OUTDIR=${OUT:-$PWD/.gpu-out}
mkdir -p "$OUTDIR"
# The binaries travel as one archive (the tree a device run carries is limited).
[ -f .gpu/bin.tar.gz ] && [ ! -d .gpu/bin ] && tar xzf .gpu/bin.tar.gz -C .gpu
[ -d .gpu/bin ] || { echo "gpu-check: .gpu/bin missing: run scripts/gpu-prepare.sh here and carry .gpu" >&2; exit 2; }
export LD_LIBRARY_PATH=$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2> /dev/null | head -1 || true)
export CS
export W=$PWD/.gpu/work
rm -rf "$W" && mkdir -p "$W"
nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total,clocks.sm,clocks.mem --format=csv | tee "$OUTDIR/device.txt"
echo "gpu-check: compute-sanitizer: ${CS:-none}; budget ${P2C_GPU_BUDGET:-420} s"

late() { [ "$(date +%s)" -ge "$DEADLINE" ]; }
export -f late

run_one() {
    local name=$1 rc=0
    late && { echo skipped > "$W/$name.run"; return; }
    mkdir -p "$W/$name" && cd "$W/$name" || return
    timeout 60 "$OLDPWD/.gpu/bin/$name" > out 2> err || rc=$?
    echo "$rc" > rc
    if [ "$rc" = "$(cat "$OLDPWD/.gpu/ref/$name.rc")" ] && cmp -s out "$OLDPWD/.gpu/ref/$name.out"; then
        echo PASS > "$W/$name.run"
    else
        echo FAIL > "$W/$name.run"
    fi
}
export -f run_one

sanitize_one() {
    local tool=$1 name=$2 r=0 log summary
    late && { echo skipped > "$W/$name.$tool"; return; }
    cd "$W/$name" || return
    log=$W/$name.$tool.log
    local left=$((DEADLINE + 60 - $(date +%s)))
    [ "$left" -gt 180 ] && left=180
    timeout "$left" "$CS" --tool "$tool" --error-exitcode 99 "$OLDPWD/.gpu/bin/$name" > "$log" 2>&1 || r=$?
    summary=$(grep -m1 -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+' "$log")
    if [ "$r" = 124 ]; then echo timeout > "$W/$name.$tool"
    elif [ "$r" = 99 ] || { [ -n "$summary" ] && ! [[ "$summary" =~ :\ 0$ ]]; }; then echo "FAIL(${summary:-exit $r})" > "$W/$name.$tool"
    elif grep -q 'Device not supported\|Error: ' "$log"; then echo "tool-error" > "$W/$name.$tool"
    else echo clean > "$W/$name.$tool"; fi
}
export -f sanitize_one

# The prebuilt binaries use the CUDA 13 runtime of the wheels (.gpu/lib). Where the
# machine's driver is older than that runtime, rebuild everything with the machine's
# own nvcc (static runtime) from .gpu/cu.tar.xz, and the benchmark from .bench/.
probe=$(ls .gpu/bin | grep -m1 vadd || ls .gpu/bin | head -1)
if (cd "$W" && timeout 60 "$OLDPWD/.gpu/bin/$probe" 2>&1 >/dev/null) | grep -q "driver version is insufficient"; then
    NVCC=$(command -v nvcc || ls /usr/local/cuda*/bin/nvcc 2> /dev/null | head -1)
    echo "gpu-check: the driver is older than the wheels' runtime: rebuilding with ${NVCC:-no nvcc}"
    rm -f .gpu/lib/libcudart.so.13
    tar xJf .gpu/cu.tar.xz -C .gpu
    rebuild_one() {
        local name=$1 omp=()
        grep -Eq '#[[:space:]]*pragma[[:space:]]+omp|<omp.h>' ".gpu/cu/$name.cu" && omp=(-Xcompiler=-fopenmp -lgomp)
        "$NVCC" -O3 -arch=sm_90 -lineinfo -Ifixtures/in "${omp[@]}" ".gpu/cu/$name.cu" -o ".gpu/bin/$name" -lm > "$W/$name.build.log" 2>&1 || rm -f ".gpu/bin/$name"
    }
    export -f rebuild_one
    export NVCC
    ls .gpu/bin | xargs -P 16 -I{} bash -c 'rebuild_one {}'
    for s in tree atomic; do
        [ -f .bench/reduce-$s.cu ] && "$NVCC" -std=c++17 -O3 -arch=sm_90 -DP2C_TRANSLATED="\"$PWD/.bench/reduce-$s.cu\"" \
            -I bench -x cu bench/driver.cu -o .bench/bench-p2c-$s > "$W/bench-$s.build.log" 2>&1
    done
    echo "   rebuilt at +$(($(date +%s) - START)) s: $(ls .gpu/bin | wc -l) binaries"
fi

names=$(cd .gpu/bin && ls)
echo "== 1. run: $(echo "$names" | wc -w) fixtures"
echo "$names" | xargs -P 8 -I{} bash -c 'run_one {}'
echo "   done at +$(($(date +%s) - START)) s: $(cat "$W"/*.run | grep -c PASS) ran like the reference"

if [ -x .bench/bench-p2c-tree ]; then
    echo "== 2. bench"
    for n in 1048576 16777216 268435456; do
        late && break
        OUT=$W/bench-$n scripts/bench-reduce.sh run "$n" > /dev/null 2>&1 || echo "bench at $n failed"
    done
    cat "$W"/bench-*/bench-reduce.tsv > "$OUTDIR/bench-reduce.tsv" 2> /dev/null
    cat "$OUTDIR/bench-reduce.tsv"
    echo "   done at +$(($(date +%s) - START)) s"
fi

ran=$(for n in $names; do [ -f "$W/$n/rc" ] && echo "$n"; done)
if [ -n "$CS" ]; then
    for tool in memcheck racecheck synccheck; do
        echo "== $tool"
        echo "$ran" | xargs -P 8 -I{} bash -c "sanitize_one $tool {}"
        echo "   done at +$(($(date +%s) - START)) s"
    done
fi

RESULTS=$OUTDIR/gpu-results.tsv
printf 'fixture\trun\texit\tref_exit\tstdout\tmemcheck\tracecheck\tsynccheck\tdetail\n' > "$RESULTS"
pass=0 fail=0
field() { cat "$W/$1" 2> /dev/null || echo "${2:--}"; }
for n in $names; do
    run=$(field "$n.run" skipped) rc=$(field "$n/rc") ref=$(cat ".gpu/ref/$n.rc")
    out=-
    [ -f "$W/$n/out" ] && { cmp -s "$W/$n/out" ".gpu/ref/$n.out" && out=same || out=differs; }
    mem=$(field "$n.memcheck") race=$(field "$n.racecheck") sync=$(field "$n.synccheck")
    detail=""
    [ "$out" = differs ] && detail=$(diff ".gpu/ref/$n.out" "$W/$n/out" | grep -m2 '^[<>]' | tr '\n\t' '  ' | cut -c1-200)
    [ -s "$W/$n/err" ] && detail="$detail stderr: $(head -c 200 "$W/$n/err" | tr '\n\t' '  ')"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$run" "$rc" "$ref" "$out" "$mem" "$race" "$sync" "$detail" >> "$RESULTS"
    ok=1
    [ "$run" = PASS ] || ok=0
    for v in "$mem" "$race" "$sync"; do case $v in clean | - | skipped) ;; *) ok=0 ;; esac; done
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
(cd "$W" && tar czf "$OUTDIR/gpu-logs.tar.gz" --exclude='*/out' ./*.log ./*/err 2> /dev/null)
echo "== not passing"
awk -F'\t' 'NR > 1 && !($2 == "PASS" && $6 ~ /^(clean|-|skipped)$/ && $7 ~ /^(clean|-|skipped)$/ && $8 ~ /^(clean|-|skipped)$/)' "$RESULTS" | cut -c1-400
echo "sanitizer verdicts: memcheck $(cut -f6 "$RESULTS" | sort | uniq -c | tr '\n' ' '); racecheck $(cut -f7 "$RESULTS" | sort | uniq -c | tr '\n' ' '); synccheck $(cut -f8 "$RESULTS" | sort | uniq -c | tr '\n' ' ')"
echo "gpu-check: +$(($(date +%s) - START)) s; results in $RESULTS"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
