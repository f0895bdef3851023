#!/usr/bin/env bash
# Builds every test program of the SIMT emulator twice (plain and -fsanitize=thread),
# runs both and prints one line per test, then "N passed, M failed". Exit 1 on failure.
#
# Kinds of tests, by file name:
#   NAME.cu        must build, run, exit 0; under TSan no report may appear.
#   fail_NAME.cu   must build, then exit nonzero with stderr containing the text after
#                  "// EXPECT-STDERR: " (deadlocks, misuse the emulator must diagnose).
#   cfail_NAME.cu  must NOT compile, and the compiler output must contain the text after
#                  "// EXPECT-COMPILE-ERROR: ".
#   race_NAME.cu   must build; under TSan it must report a data race (a race the emulator
#                  has to expose); the plain build must run and exit 0.
# A line "// EMU-FLAGS: ..." adds compiler flags (e.g. -DP2C_SIM_CONCURRENT_BLOCKS=2).
# Usage: run.sh [test-name-substring]
set -u
here="$(cd "$(dirname "$0")" && pwd)"
inc="$(cd "$here/../include" && pwd)"
out="${P2C_SIM_TEST_OUT:-$(mktemp -d)}"
mkdir -p "$out"
CXX="${CXX:-g++}"
flags=(-std=c++20 -O1 -pthread -DP2C_SIMT_EMULATOR -I "$inc" -x c++)
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}"
export P2C_SIM_DEADLOCK_SECONDS="${P2C_SIM_DEADLOCK_SECONDS:-2}"
filter="${1:-}"
pass=0
fail=0

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2fs", b - a }'; }

# run_mode MODE BIN LOG EXPECT -> prints a status word, returns 0 when ok
run_mode() {
    local bin="$1" log="$2" expect="$3"
    timeout 120 "$bin" >"$log.out" 2>"$log.err"
    local rc=$?
    if grep -q "ThreadSanitizer" "$log.err"; then echo "tsan-report"; return 1; fi
    if [ -z "$expect" ]; then
        [ $rc -eq 0 ] && { echo ok; return 0; }
        echo "exit-$rc"; return 1
    fi
    if [ $rc -ne 0 ] && grep -qF -- "$expect" "$log.err"; then echo ok; return 0; fi
    echo "exit-$rc-without-expected-message"; return 1
}

for src in "$here"/*.cu; do
    name="$(basename "$src" .cu)"
    [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && continue
    t0="$(now)"
    # shellcheck disable=SC2207
    extra=($(sed -n 's|^// EMU-FLAGS: ||p' "$src" | head -1))
    status=ok
    detail=""
    case "$name" in
    cfail_*)
        expect="$(sed -n 's|^// EXPECT-COMPILE-ERROR: ||p' "$src" | head -1)"
        if "$CXX" "${flags[@]}" "${extra[@]}" "$src" -o "$out/$name" >"$out/$name.cc.log" 2>&1; then
            status=FAIL; detail="compiled but must not"
        elif ! grep -qF -- "$expect" "$out/$name.cc.log"; then
            status=FAIL; detail="compile error lacks: $expect"
        else
            detail="compile error names it"
        fi
        ;;
    *)
        expect=""
        case "$name" in fail_*) expect="$(sed -n 's|^// EXPECT-STDERR: ||p' "$src" | head -1)" ;; esac
        "$CXX" "${flags[@]}" "${extra[@]}" "$src" -o "$out/$name.plain" >"$out/$name.plain.cc.log" 2>&1 &
        p1=$!
        "$CXX" "${flags[@]}" "${extra[@]}" -fsanitize=thread "$src" -o "$out/$name.tsan" >"$out/$name.tsan.cc.log" 2>&1 &
        p2=$!
        wait $p1; b1=$?
        wait $p2; b2=$?
        if [ $b1 -ne 0 ] || [ $b2 -ne 0 ]; then
            status=FAIL; detail="build failed (see $out/$name.*.cc.log)"
        else
            r1="$(run_mode "$out/$name.plain" "$out/$name.plain" "$expect")" || status=FAIL
            case "$name" in
            race_*)
                timeout 120 "$out/$name.tsan" >"$out/$name.tsan.out" 2>"$out/$name.tsan.err"
                if grep -q "WARNING: ThreadSanitizer: data race" "$out/$name.tsan.err"; then
                    r2="race reported"
                else
                    r2="no race reported"; status=FAIL
                fi
                ;;
            *) r2="$(run_mode "$out/$name.tsan" "$out/$name.tsan" "$expect")" || status=FAIL ;;
            esac
            detail="plain $r1, tsan $r2"
            [ "$status" = FAIL ] && detail="$detail (logs: $out/$name.*.err)"
        fi
        ;;
    esac
    printf '%-4s %-28s %s [%s]\n' "$status" "$name" "$detail" "$(elapsed "$t0")"
    if [ "$status" = ok ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
