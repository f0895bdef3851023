#!/usr/bin/env bash
# Full translation against the compilers (issue 15). For C files written by
# scripts/gen-large-c.py (one offload pragma per 50 lines, per 10 lines, and
# plain C with no pragma) it records, in one run:
#   - instructions (cachegrind --cache-sim=no; independent of the machine's
#     load) of `pragma2cuda F.c -o F.cu`, `gcc -fsyntax-only -fopenmp F.c`
#     and `clang-19 -fsyntax-only -fopenmp F.c`, and the ratios to gcc;
#   - peak RSS of each (/usr/bin/time -v, native runs);
#   - the growth table: pragma2cuda's instructions per MB at each size.
#   scripts/bench-translate.sh [WORKDIR] [SIZES_MB] [DENSITIES]
#     defaults: a temporary directory, "1 2 5", "50 10 0"
#   e.g. scripts/bench-translate.sh /tmp/bt "1 2 5 10 20" "50"
#   P2C=path: measure that pragma2cuda binary (e.g. an older build) instead
#   of this checkout's; ONLY_P2C=1: skip gcc and clang (the growth table).
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
sizes=${2:-"1 2 5"}
dens=${3:-"50 10 0"}
mkdir -p "$work"
[ -f "$HOME/.cache/pragma2cuda/env.sh" ] && source "$HOME/.cache/pragma2cuda/env.sh"
[ -n "${P2C:-}" ] || cargo build --release >&2
p2c=${P2C:-$PWD/target/release/pragma2cuda}
clang=$(command -v clang-19 || command -v clang || true)
only=${ONLY_P2C:-0}

# Instructions of one command (children included: gcc runs cc1).
instr() {
    local out=$work/cg.$$
    rm -f "$out".*
    valgrind --tool=cachegrind --cache-sim=no --trace-children=yes \
        --cachegrind-out-file="$out.%p" "$@" >/dev/null 2>"$work/vg.log" || true
    cat "$out".* | sed -n 's/^summary: *\([0-9]*\).*/\1/p' | awk '{s += $1} END {printf "%.0f\n", s}'
    rm -f "$out".*
}
# Peak RSS in KB of one command (the largest process: gcc's cc1).
rss() {
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time.log" || true
    sed -n 's/.*Maximum resident set size (kbytes): *//p' "$work/time.log"
}

printf '%-8s %5s %16s %16s %16s %8s %8s %10s %10s %10s %14s\n' \
    density MB p2c_instr gcc_instr clang_instr p2c/gcc p2c/clg p2c_rss_kb gcc_rss_kb clg_rss_kb p2c_per_MB
for d in $dens; do
    for mb in $sizes; do
        f=$work/gen-$d-$mb.c
        [ -f "$f" ] || scripts/gen-large-c.py --bytes $((mb * 1048576)) --per "$d" >"$f"
        # Every region lowered: exit 0 and no diagnostic at all.
        if ! "$p2c" "$f" -o "$work/out.cu" 2>"$work/p2c.log" || [ -s "$work/p2c.log" ]; then
            echo "pragma2cuda refused or warned on $f:" >&2
            head "$work/p2c.log" >&2
            exit 1
        fi
        pi=$(instr "$p2c" "$f" -o "$work/out.cu")
        pr=$(rss "$p2c" "$f" -o "$work/out.cu")
        gi=1 ci=0 gr=0 cr=0
        if [ "$only" != 1 ]; then
            gi=$(instr gcc -fsyntax-only -fopenmp "$f")
            [ -n "$clang" ] && ci=$(instr "$clang" -fsyntax-only -fopenmp "$f")
            gr=$(rss gcc -fsyntax-only -fopenmp "$f")
            [ -n "$clang" ] && cr=$(rss "$clang" -fsyntax-only -fopenmp "$f")
        fi
        awk -v d="$d" -v mb="$mb" -v pi="$pi" -v gi="$gi" -v ci="$ci" \
            -v pr="$pr" -v gr="$gr" -v cr="$cr" 'BEGIN {
            printf "%-8s %5s %16.0f %16.0f %16.0f %8.3f %8.3f %10s %10s %10s %14.0f\n",
                (d == 0 ? "none" : "1/" d), mb, pi, (gi > 1 ? gi : 0), ci,
                (gi > 1 ? pi / gi : 0), (ci > 0 ? pi / ci : 0), pr, gr, cr, pi / mb
        }'
    done
done
