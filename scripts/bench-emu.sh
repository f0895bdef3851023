#!/usr/bin/env bash
# Side-by-side CPU time of `pragma2cuda verify --device emulate` (gcc reference build,
# emulator build, both runs, comparison) for the old and the new emulator on a fixed set
# of fixtures, one fixture after the other, old and new alternating (a shared, noisy
# machine: CPU time of the command and all its children, from getrusage via
# /usr/bin/time, not the wall clock). Like the harness, reduction fixtures and those of
# fixtures/tsan.list run with P2C_EMU_BLOCKS=2.
# Usage: scripts/bench-emu.sh OLD_BINARY OLD_EMU_INCLUDE [fixture...]
# A FAIL of the old side is usually verify's 60 s wall-clock limit on a loaded machine: its
# CPU figure is then only what it used until killed.
# The new side is target/release/pragma2cuda with emu/include, its precompiled header
# cache fresh (P2C_CACHE in a temporary directory: building the PCHs is counted).
set -euo pipefail
cd "$(dirname "$0")/.."
old_bin=$1 old_inc=$2
shift 2
fixtures=("$@")
if [ ${#fixtures[@]} -eq 0 ]; then
  fixtures=(omp_reduction_small omp_reduce_double acc_reduction_gang_vector acc_reduction_worker
    acc_reduce_char omp_generic_fig1b omp_generic_fig5_s4 omp_generic_fig6_a1 omp_generic_multi
    omp_generic_partial_warp_barrier omp_generic_teams_reduction omp_generic_lastprivate_conditional
    acc_generic_workers acc_generic_gang acc_gang_worker_vector omp_atomic_forms acc_atomic_forms
    omp_reduce_atomic_ops omp_teams_threads omp_saxpy acc_saxpy omp_collapse3)
fi
# BENCH_PCH_CACHE=DIR: reuse the precompiled headers there (built once per flag set, about
# 5 s CPU each, not counted then); default a fresh directory (their builds are counted).
if [ -n "${BENCH_PCH_CACHE:-}" ]; then
  cache=$BENCH_PCH_CACHE
else
  cache=$(mktemp -d)
  trap 'rm -rf "$cache"' EXIT
fi
cpu() { # prints "CPU_SECONDS STATUS" of one verify
  local bin=$1 inc=$2 f=$3 blocks=1 t
  case "$f" in *reduction*) blocks=2 ;; esac
  grep -qx "$f" fixtures/tsan.list && blocks=2
  t=$(mktemp)
  if env P2C_EMU_INCLUDE="$inc" P2C_CACHE="$cache" P2C_EMU_BLOCKS=$blocks \
      /usr/bin/time -f "%U %S" -o "$t" "$bin" verify "fixtures/in/$f.c" --device emulate >/dev/null 2>&1; then
    s=pass
  else
    s=FAIL
  fi
  tail -1 "$t" | awk -v s=$s '{ printf "%.2f %s\n", $1 + $2, s }'
  rm -f "$t"
}
printf '%-36s %10s %10s %7s\n' fixture "old cpu s" "new cpu s" ratio
to=0 tn=0
for f in "${fixtures[@]}"; do
  read -r o os < <(cpu "$old_bin" "$old_inc" "$f")
  read -r n ns < <(cpu target/release/pragma2cuda "$PWD/emu/include" "$f")
  printf '%-36s %7s %-4s %7s %-4s %5.1fx\n' "$f" "$o" "$os" "$n" "$ns" "$(echo "$o / $n" | bc -l)"
  to=$(echo "$to + $o" | bc -l) tn=$(echo "$tn + $n" | bc -l)
done
printf '%-36s %10.2f %10.2f %6.1fx\n' total "$to" "$tn" "$(echo "$to / $tn" | bc -l)"
