#!/usr/bin/env bash
# Instruction counts of the directive front end against the tree-sitter parse
# of a generated 10 MB C file (benches/front_end.rs), under cachegrind: the
# counts do not depend on the machine's load, unlike times. Prints the
# instructions of every stage and the ratios BENCHMARKS.md records.
#   scripts/bench-front-end.sh [WORKDIR]      (default: a temporary directory;
#   counts in WORKDIR newer than the bench binary are reused)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
mkdir -p "$work"
cargo build --release --bench front_end >&2
bench=$(cargo bench --bench front_end --no-run --message-format=json 2>/dev/null |
    sed -n 's/.*"executable":"\([^"]*front_end[^"]*\)".*/\1/p' | tail -1)
[ -x "$bench" ] || { echo "cannot find the bench binary" >&2; exit 1; }
"$bench" --write "$work/big.c"
declare -A ir
for stage in none parse directives parse-masked front validate render translate; do
    # A count newer than the bench binary is reused (rerun after a failure).
    [ "$work/cg.$stage" -nt "$bench" ] ||
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$work/cg.$stage" \
        "$bench" --input "$work/big.c" --only "$stage" 2>"$work/log.$stage"
    ir[$stage]=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$work/cg.$stage")
    printf '%-13s %15s instructions\n' "$stage" "${ir[$stage]}"
done
awk -v none="${ir[none]}" -v parse="${ir[parse]}" -v dirs="${ir[directives]}" \
    -v pm="${ir[parse-masked]}" -v front="${ir[front]}" -v val="${ir[validate]}" \
    -v rd="${ir[render]}" \
    -v tr="${ir[translate]}" 'BEGIN {
    base = parse - none
    d = dirs - none; a = front - pm; m = pm - dirs; v = val - front
    printf "tree-sitter parse of the file:          %14.0f  100.00 %%\n", base
    printf "find + parse directives + mask:         %14.0f  %6.2f %%\n", d, 100 * d / base
    printf "tree-sitter parse of the masked text:   %14.0f  %6.2f %%\n", m, 100 * m / base
    printf "attach:                                 %14.0f  %6.2f %%\n", a, 100 * a / base
    printf "validate:                               %14.0f  %6.2f %%\n", v, 100 * v / base
    printf "directive front end (find+parse+mask+attach+validate): %14.0f  %6.2f %%\n", d + a + v, 100 * (d + a + v) / base
    printf "render --emit=directives text:          %14.0f  %6.2f %%\n", rd - val, 100 * (rd - val) / base
    printf "translate --emit=directives beyond the parse: %8.2f %%\n", 100 * (tr - none - base) / base
}'
