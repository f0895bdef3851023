#!/usr/bin/env bash
# The register ratchet (issue 20): no kernel may use more registers than
# clang-19's own OpenMP offload of the same C file unless it is listed in the
# ratchet file, and a listed one may not rise above its listed count.
#
#   scripts/ptxas-vs-clang.sh fixtures/in/*.c | scripts/register-ratchet.sh [RATCHET]
#
# RATCHET (default fixtures/registers-above-clang.tsv): `file<TAB>kernel<TAB>ours<TAB>clang`
# per kernel above clang, `#` comments. Reads the table of ptxas-vs-clang.sh
# (file, kernel, p2c_regs, p2c_smem, p2c_spill, clang_regs, ...) on stdin;
# kernels without a clang kernel ("-") are not compared. Prints one line per
# failure (a kernel newly above clang, or above its ratchet value) and per
# entry that can be tightened (fewer registers now, or at or below clang:
# lower or remove the line), then a summary; exits 1 on a failure.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
ratchet=${1:-$here/fixtures/registers-above-clang.tsv}
[ -r "$ratchet" ] || { echo "register ratchet: cannot read $ratchet" >&2; exit 2; }
awk -F'\t' -v ratchet="$ratchet" '
  BEGIN {
    while ((getline line < ratchet) > 0) {
      sub(/#.*/, "", line)
      if (line ~ /^[ \t]*$/) continue
      split(line, f, "\t")
      limit[f[1] "\t" f[2]] = f[3] + 0
    }
  }
  $1 == "file" || $6 == "-" || $6 == "" || $3 !~ /^[0-9]+$/ { next }
  {
    k = $1 "\t" $2; ours = $3 + 0; clang = $6 + 0; n++
    if (ours > clang && !(k in limit)) {
      bad++; printf "  FAIL %s %s: %d registers, clang-19 %d (not in the ratchet file)\n", $1, $2, ours, clang
    } else if (k in limit && ours > limit[k]) {
      bad++; printf "  FAIL %s %s: %d registers, above its ratchet value %d (clang-19 %d)\n", $1, $2, ours, limit[k], clang
    } else if (k in limit && ours <= clang) {
      printf "  note %s %s: %d registers, clang-19 %d: at or below clang now, remove its ratchet line\n", $1, $2, ours, clang
    } else if (k in limit && ours < limit[k]) {
      printf "  note %s %s: %d registers, ratchet %d: lower its ratchet line\n", $1, $2, ours, limit[k]
    }
    if (ours > clang) above++
  }
  END {
    printf "  register ratchet: %d kernels compared with clang-19, %d above it, %d failures\n", n, above, bad
    exit bad > 0
  }' 
