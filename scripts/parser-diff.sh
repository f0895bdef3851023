#!/bin/sh
# Compares front::c's tree with tree-sitter-c's on every C file under a
# suite directory (default /work/.suites-full); prints the differing files
# and a count. Usage: scripts/parser-diff.sh [DIR]
set -eu
dir=${1:-/work/.suites-full}
list=$(mktemp)
(cd "$dir" && find . -name '*.c' | sort) > "$list"
P2C_PARSER_DIFF_LIST="$list" P2C_PARSER_DIFF_BASE="$dir" \
    cargo test -q --release --test parser_diff -- --nocapture
rm -f "$list"
