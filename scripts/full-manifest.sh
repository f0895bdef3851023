#!/usr/bin/env bash
# The nightly-style campaign: every C test of OpenMP_VV and OpenACCV-V
# (shared/suites/full-manifest.tsv, 883 files) translated, built and run on the
# emulator, then counted per suite against gcc 12's own host results
# (shared/suites/full-gcc12-host-reference.tsv). Not part of scripts/test: it
# takes about an hour on a 2-core machine. OpenMP_VV's `*_env_*` tests run with
# the variable their name sets; the failures scripts/known-failures.tsv
# explains (not the translation's) are counted apart, still as failures.
#
# Usage:
#   scripts/full-manifest.sh [--omp GITDIR --acc GITDIR] [--suites DIR]
#                            [--jobs N] [--timeout SECS] [--results FILE]
#   scripts/full-manifest.sh --summarize FILE   (counts of an earlier run)
# With --omp/--acc the programs are first checked out into DIR (default
# .suites-full) by scripts/fetch-suites.sh; without them DIR must hold them.
# The per-file lines go to FILE (default target/full-manifest.txt); the
# summary is printed and written beside it as FILE.summary.
set -euo pipefail
cd "$(dirname "$0")/.."

omp="" acc="" suites=".suites-full" jobs=2 timeout=180
results="target/full-manifest.txt" only_summary=""
while [ $# -gt 0 ]; do
  case "$1" in
    --omp) omp=$2; shift 2 ;;
    --acc) acc=$2; shift 2 ;;
    --suites) suites=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --summarize) only_summary=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "full-manifest: unknown argument $1" >&2; exit 2 ;;
  esac
done

manifest=shared/suites/full-manifest.tsv
reference=shared/suites/full-gcc12-host-reference.tsv

summarize() { # results file -> summary on stdout
  awk -F'\t' -v ref="$reference" '
    BEGIN { while ((getline line < ref) > 0) { split(line, f, "\t"); gcc[f[1]] = f[2] } }
    {
      status = $0; sub(/ .*/, "", status)
      if (status != "PASS" && status != "FAIL" && status != "TRANSLATE-ERROR") next
      file = $0; sub(/^[^ ]+ /, "", file); sub(/:( .*)?$/, "", file)
      suite = file; sub(/\/.*/, "", suite)
      g = (file in gcc) ? gcc[file] : "?"; sub(/ .*/, "", g)
      n[suite]++; s[suite, status]++
      if (g == "PASS") { gp[suite]++; gs[suite, status]++ }
      # Failures scripts/known-failures.tsv explains (not the translation).
      if (status == "FAIL" && index($0, " [known: ") > 0) { kn[suite]++; if (g == "PASS") gkn[suite]++ }
      if (status == "TRANSLATE-ERROR" && match($0, /error\[E[0-9]+\]/))
        code[suite, substr($0, RSTART + 6, RLENGTH - 7)]++
    }
    END {
      printf "0 %-10s %6s %6s %8s %12s %6s | %9s %6s %8s %12s %6s\n", "suite", "files", "pass",
        "refused", "transl+fail", "known", "gcc-pass", "pass", "refused", "transl+fail", "known"
      for (x in n)
        printf "1 %-10s %6d %6d %8d %12d %6d | %9d %6d %8d %12d %6d\n", x, n[x], s[x, "PASS"],
          s[x, "TRANSLATE-ERROR"], s[x, "FAIL"], kn[x], gp[x], gs[x, "PASS"],
          gs[x, "TRANSLATE-ERROR"], gs[x, "FAIL"], gkn[x]
      print "2 known: transl+fail files that scripts/known-failures.tsv explains (still failures)"
      print "2 refusals by code:"
      for (k in code) { split(k, p, SUBSEP); printf "3   %-10s %s %d\n", p[1], p[2], code[k] }
    }' "$1" | sort | cut -c3-
}

if [ -n "$only_summary" ]; then summarize "$only_summary"; exit 0; fi

if [ -n "$omp" ] || [ -n "$acc" ]; then
  scripts/fetch-suites.sh --omp "$omp" --acc "$acc" --manifest "$manifest" --out "$suites"
fi
[ -d "$suites/openmp_vv" ] && [ -d "$suites/openaccvv" ] || {
  echo "full-manifest: $suites lacks the programs (give --omp and --acc, see scripts/fetch-suites.sh)" >&2
  exit 2
}
cargo build --release --quiet
mkdir -p "$(dirname "$results")"
# The suite command exits non-zero when any file fails; the counts say how many.
target/release/pragma2cuda suite "$suites" "$manifest" --jobs "$jobs" --timeout "$timeout" \
  --known scripts/known-failures.tsv \
  > "$results" 2>&1 || true
summarize "$results" | tee "$results.summary"
