#!/bin/bash
# PolyBench-ACC, OpenACC version: translate every program and verify it on
# the emulator against gcc -fopenacc's host run (the arrays dumped to stderr).
# Usage: scripts/polybench-acc.sh [DIR] [DATASET]
#   DIR      the suite's OpenACC folder (default /work/realapps/PolyBench-ACC/OpenACC)
#   DATASET  MINI_DATASET (default), SMALL_DATASET, ... (the programs' own sizes)
# Prints one line per program: file, then verify's verdict line.
# Environment: P2C (the pragma2cuda binary; default target/release/pragma2cuda).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-/work/realapps/PolyBench-ACC/OpenACC}
size=${2:-MINI_DATASET}
p2c=${P2C:-$here/target/release/pragma2cuda}
[ -f "$HOME/.cache/pragma2cuda/env.sh" ] && . "$HOME/.cache/pragma2cuda/env.sh"
cd "$dir" || exit 2
find . -name '*.c' -not -path './utilities/*' | sort | while read -r f; do
    d=$(dirname "$f")
    verdict=$("$p2c" verify "$f" --preprocess --device emulate --timeout 120 -- \
        -I"$dir/utilities" -I"$dir/$d" -D"$size" -DPOLYBENCH_DUMP_ARRAYS \
        "$dir/utilities/polybench.c" 2>&1 | tail -1)
    printf '%s\t%s\n' "$f" "$verdict"
done
