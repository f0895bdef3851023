#!/usr/bin/env bash
# ptxas figures of pragma2cuda's kernels (nvcc) next to clang-19's own OpenMP
# offload of the same C file, for sm_90: registers, shared bytes, spills.
#
#   scripts/ptxas-vs-clang.sh [FILE.c ...]     (default: fixtures/in/omp_*reduc*.c)
#
# Needs the toolchain of scripts/toolchain.sh (source ~/.cache/pragma2cuda/env.sh)
# and Debian's libomp-19-dev (the nvptx device runtime bitcode). Kernels are
# matched by function and line: ours are <function>_L<line>, clang's
# __omp_offloading_<id>_<function>_l<line>. Prints one TSV line per kernel;
# "-" in the clang columns: clang-19 made no such kernel (OpenACC regions, which
# clang-19 does not offload, and constructs it refuses, see clang_figures).
#
# Files are compared P2C_JOBS at a time (default: every core); the table keeps
# the order of the arguments. A file with no word `omp` (an OpenACC program)
# and no local `#include "..."` is not given to clang: clang-19 offloads
# nothing from it. P2C_PTXAS_TSV=target/p2c-report/ptxas.tsv (scripts/test,
# right after the harness compiled every fixture): our figures of a file the
# harness compiled cleanly (its fixtures.tsv beside it says so) come from that
# report instead of a second translation and nvcc run; the figures are the
# same (same translation, same ptxas for sm_90), the other files are compiled
# here as before. P2C_CLANG_RUNTIME=1: clang's figures with its device
# runtime linked (see clang_run_linked; the default counts kernel entries
# without their outlined parallel regions).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$HOME/.cache/pragma2cuda/env.sh" ] && . "$HOME/.cache/pragma2cuda/env.sh"
p2c=${P2C_BIN:-$here/target/release/pragma2cuda}
arch=${ARCH:-sm_90}
bc=${LIBOMPTARGET_BC:-/usr/lib/llvm-19/lib}
report=${P2C_PTXAS_TSV:-}

# ptxas -v output -> "kernel<TAB>registers<TAB>smem<TAB>spill stores<TAB>spill loads"
figures() {
    awk '/Compiling entry function/ { match($0, /\x27[^\x27]*\x27/); k = substr($0, RSTART + 1, RLENGTH - 2) }
         /bytes spill stores/ { st = $5; ld = $9 }
         /Used [0-9]+ registers/ { r = $5; s = 0; if (match($0, /[0-9]+ bytes smem/)) s = substr($0, RSTART, RLENGTH) + 0
                                   if (k != "") print k "\t" r "\t" s "\t" st "\t" ld; k = "" }'
}

# clang-19's figures for one file. clang refuses some constructs (a reduction
# on an array section of runtime length: "cannot generate code for reduction
# on array section, which requires a variable length array") and then compiles
# no kernel of the file; the lines it reports are blanked (line numbers kept,
# so its other kernels keep their names) and the file is compiled again. The
# refused kernels get no clang figures ("-"), and neither does a kernel whose
# region holds a refused line (a nested `for reduction(+: a[0:n])`): clang's
# kernel of the blanked file is a different program (its loop no longer
# parallel, its reduction gone), so comparing registers with it says nothing.
# The refused lines go to $work/$b.refused, one per line.
clang_figures() {
    local src=$1 b=$2 lines
    clang_run() {
        if [ -n "${P2C_CLANG_RUNTIME:-}" ]; then clang_run_linked "$1"; return; fi
        clang-19 -O2 -fopenmp --offload-arch="$arch" --offload-device-only --cuda-path="$P2C_CLANG_CUDA_ROOT" \
            --libomptarget-nvptx-bc-path="$bc" -Xcuda-ptxas -v -I "$(dirname "$f")" -c "$1" -o "$work/$b.clang.o" 2>&1
    }
    # P2C_CLANG_RUNTIME=1: the device runtime linked in, as clang's link step
    # does. `-c` alone leaves every call into libomptarget external, so ptxas
    # reports the kernel's entry stub only: the body of a `parallel` region
    # is an outlined function reached through `__kmpc_parallel_51`, whose
    # registers no kernel figure counts (omp_lastprivate main_L32: 4 for the
    # stub, 10 with the runtime linked). `-emit-llvm` links the runtime
    # bitcode and runs OpenMPOpt (the outlined region inlined where the
    # kernel is SPMD, generic kernels SPMDized where it can); the runtime
    # functions OpenMPOpt's rewrite calls anew are linked again (not
    # optimized a second time: a second `opt -O2` over the linked runtime
    # folded omp_lastprivate's kernels to an empty `ret`), then llc and the
    # same ptxas, at clang's -O2.
    clang_run_linked() {
        local ll=${LLVM_BIN:-/usr/lib/llvm-19/bin}
        clang-19 -O2 -fopenmp --offload-arch="$arch" --offload-device-only --cuda-path="$P2C_CLANG_CUDA_ROOT" \
            --libomptarget-nvptx-bc-path="$bc" -I "$(dirname "$f")" -emit-llvm -c "$1" -o "$work/$b.clang.bc" 2>&1 &&
            "$ll/llvm-link" --only-needed "$work/$b.clang.bc" "$bc/libomptarget-nvptx-$arch.bc" -o "$work/$b.clang2.bc" 2>&1 &&
            "$ll/llc" -O2 -mcpu="$arch" "$work/$b.clang2.bc" -o "$work/$b.clang.s" 2>&1 &&
            "$P2C_CLANG_CUDA_ROOT/bin/ptxas" -arch="$arch" -v "$work/$b.clang.s" -o "$work/$b.clang.cubin" 2>&1
    }
    clang_run "$src" > "$work/$b.clang.log"
    lines=$(grep -oE "^[^:]*$b\.c:[0-9]+:[0-9]+: error:" "$work/$b.clang.log" | cut -d: -f2 | sort -u | tr '\n' ' ')
    if [ -n "$lines" ]; then
        awk -v L=" $lines" 'index(L, " " FNR " ") { print ""; next } { print }' "$src" > "$work/$b.blanked.c"
        printf '%s\n' $lines > "$work/$b.refused"
        clang_run "$work/$b.blanked.c" > "$work/$b.clang.log"
    fi
    figures < "$work/$b.clang.log"
}

# Our figures for $f from the harness's report, in the order ptxas printed
# them; fails when the report does not cover $f (not given, not compiled
# cleanly by the harness).
report_figures() {
    local name dir
    [ -n "$report" ] && [ -r "$report" ] || return 1
    name=$(basename "$f"); dir=$(dirname "$report")
    awk -F'\t' -v n="$name" '$1 == n && $3 ~ /(^| )compile( |$)/ { ok = 1 } END { exit !ok }' "$dir/fixtures.tsv" 2>/dev/null || return 1
    awk -F'\t' -v n="$name" -v a="$arch" '$1 == n && $3 == a { print $2 "\t" $4 "\t" $6 "\t" $7 "\t" $8 }' "$report"
}

# Could clang-19 offload anything from $f? Only a file that names `omp`
# (a pragma, _Pragma or a macro that builds one) or includes a local header.
clang_offloads() {
    grep -Eq '(^|[^[:alnum:]_])omp([[:space:]]|$)|#[[:space:]]*include[[:space:]]*"' "$f"
}

# The table lines of one file.
compare_file() {
    f=$1
    local b
    b=$(basename "$f" .c)
    if ! report_figures > "$work/$b.p2c"; then
        "$p2c" "$f" -o "$work/$b.cu" 2>/dev/null || { printf '%s\t(translation failed)\n' "$b"; return; }
        "$P2C_NVCC" -arch="$arch" -Xptxas -v -I "$(dirname "$f")" -c "$work/$b.cu" -o "$work/$b.o" 2>&1 | figures > "$work/$b.p2c"
    fi
    : > "$work/$b.refused"
    if clang_offloads; then clang_figures "$f" "$b" > "$work/$b.clang"; else : > "$work/$b.clang"; fi
    # Our kernels' start lines in order: a refused line belongs to the region
    # of the last kernel that starts at or before it. (A refused line after a
    # region's end, in code between two regions, would mark that kernel too:
    # a missing comparison, never a wrong one.)
    starts=$(sed -E 's/^_Z[0-9]+//; s/^[^\t]*_L([0-9]+).*/\1/' "$work/$b.p2c" | sort -n -u)
    spoiled=" "
    while read -r r; do
        [ -n "$r" ] || continue
        owner=$(printf '%s\n' $starts | awk -v r="$r" '$1 <= r { o = $1 } END { print o }')
        [ -n "$owner" ] && spoiled="$spoiled$owner "
    done < "$work/$b.refused"
    while IFS=$'\t' read -r k r s st ld; do
        # _Z15dev_sum_int_L44... (C++ mangling) -> dev_sum_int_L44 -> function dev_sum_int, line 44
        if [[ $k =~ ^_Z([0-9]+)(.*)$ ]]; then k=${BASH_REMATCH[2]:0:${BASH_REMATCH[1]}}; fi
        fn=${k%_L*}; line=${k##*_L}
        c=$(grep -E "_${fn}_l${line}	" "$work/$b.clang" | head -1)
        [[ $spoiled == *" $line "* ]] && c=""
        if [ -n "$c" ]; then
            IFS=$'\t' read -r _ cr cs cst cld <<< "$c"
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$b" "$k" "$r" "$s" "$((st + ld))" "$cr" "$cs" "$((cst + cld))"
        else
            printf '%s\t%s\t%s\t%s\t%s\t-\t-\t-\n' "$b" "$k" "$r" "$s" "$((st + ld))"
        fi
    done < "$work/$b.p2c"
}

if [ "${1:-}" = --one ]; then
    # One file of a parallel run: $2 its index, $3 the file, in its own work directory.
    work=$P2C_VS_WORK/$2; mkdir -p "$work"
    compare_file "$3" > "$P2C_VS_WORK/$2.out"
    exit 0
fi

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
files=("$@"); [ ${#files[@]} -gt 0 ] || files=("$here"/fixtures/in/omp_*reduc*.c)
jobs=${P2C_JOBS:-$(nproc 2>/dev/null || echo 1)}
printf 'file\tkernel\tp2c_regs\tp2c_smem\tp2c_spill\tclang_regs\tclang_smem\tclang_spill\n'
for i in "${!files[@]}"; do printf '%s\0%s\0' "$i" "${files[$i]}"; done |
    P2C_VS_WORK=$work P2C_PTXAS_TSV=$report xargs -0 -n 2 -P "$jobs" "$here/scripts/ptxas-vs-clang.sh" --one
for i in "${!files[@]}"; do cat "$work/$i.out"; done
