#!/usr/bin/env bash
# Checks out the validation-suite programs listed in a manifest into .suites/
# (ignored by git), from local git directories. Uses no network itself.
#
# Where the git directories come from: the programs are third-party
# (OpenMP_VV: BSD-3-Clause; OpenACCV-V: BSD-3-Clause) and are never committed
# here. In this workplace they are brought in with the search tool's `fetch`:
#     fetch github:OpenMP-Validation-and-Verification/OpenMP_VV
#     fetch github:OpenACCUserGroup/OpenACCV-V
# which answer with git directories such as
#     /work/.mirror/OpenMP-Validation-and-Verification+OpenMP_VV/repo
# Elsewhere a `git clone --bare` of the same repositories does.
#
# Usage:
#   scripts/fetch-suites.sh --omp GITDIR --acc GITDIR [--manifest FILE] [--out DIR]
# The manifest (default shared/suites/public-manifest.tsv) is a TSV with a
# header; column 1 is the path under DIR (openmp_vv/... or openaccvv/...),
# column 3 the source repository, column 4 the commit. Each listed file is
# taken at its commit; the suites' headers (ompvv/*, Tests/acc_testsuite*.h)
# come from the same commits. Then:
#   pragma2cuda suite .suites shared/suites/public-manifest.tsv
set -euo pipefail
cd "$(dirname "$0")/.."

omp="" acc="" manifest="shared/suites/public-manifest.tsv" out=".suites"
while [ $# -gt 0 ]; do
  case "$1" in
    --omp) omp=$2; shift 2 ;;
    --acc) acc=$2; shift 2 ;;
    --manifest) manifest=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "fetch-suites: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$manifest" ] || { echo "fetch-suites: manifest $manifest not found (give --manifest)" >&2; exit 2; }

gitdir_for() { # prefix -> git dir
  case "$1" in
    openmp_vv) echo "$omp" ;;
    openaccvv) echo "$acc" ;;
    *) echo "" ;;
  esac
}

n=0 missing=0
declare -A headers_done=()
while IFS=$'\t' read -r file _kind _repo commit _rest; do
  [ "$file" = file ] && continue
  case "$file" in ''|'#'*) continue ;; esac
  prefix=${file%%/*}
  inner=${file#*/}
  gd=$(gitdir_for "$prefix")
  if [ -z "$gd" ]; then
    echo "fetch-suites: no git directory for $prefix (give --omp / --acc): $file" >&2
    missing=$((missing + 1)); continue
  fi
  mkdir -p "$out/$(dirname "$file")"
  if ! git --git-dir="$gd" show "$commit:$inner" > "$out/$file.part" 2>/dev/null; then
    rm -f "$out/$file.part"
    echo "fetch-suites: $inner not found at $commit in $gd" >&2
    missing=$((missing + 1)); continue
  fi
  mv "$out/$file.part" "$out/$file"
  n=$((n + 1))
  key="$prefix@$commit"
  if [ -z "${headers_done[$key]:-}" ]; then
    headers_done[$key]=1
    case "$prefix" in
      openmp_vv) hdrs=$(git --git-dir="$gd" ls-tree --name-only "$commit" ompvv/) ;;
      openaccvv) hdrs=$(git --git-dir="$gd" ls-tree --name-only "$commit" Tests/ | grep -E '^Tests/acc_testsuite.*\.h$' || true) ;;
    esac
    for h in $hdrs; do
      mkdir -p "$out/$prefix/$(dirname "$h")"
      git --git-dir="$gd" show "$commit:$h" > "$out/$prefix/$h"
    done
  fi
done < "$manifest"
echo "fetch-suites: $n files into $out/, $missing missing"
[ "$missing" = 0 ]
