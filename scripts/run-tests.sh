#!/usr/bin/env bash
# run-tests.sh — run every test program of one build, several at a time.
#
#   scripts/run-tests.sh BUILD_DIR
#
# Runs each BUILD_DIR/tests/test_* with the repository root as working
# directory, RAILSYM_TEST_JOBS programs at a time (default: the number of
# cores), keeps going after a failure, and ends with one summary line.
# Exit status: 0 when every program passed, 1 otherwise.
#
# The programs that took longest last time start first (their times are kept
# in BUILD_DIR/test-logs/NAME.result), so that a long one does not start
# last and run alone at the end.
#
# Each program's output goes to BUILD_DIR/test-logs/NAME.log; the terminal
# gets one result line per program as it finishes ("--- NAME: ok (3 s)"),
# and the whole log of each program that failed.  The programs in
# RUN_ALONE below run one at a time after the others, each for its reason.
#
# A program fails when it exits non-zero, is killed (a sanitizer abort, a
# crash, the time limit RAILSYM_TEST_TIMEOUT seconds, default 900), or prints
# a sanitizer report anywhere in its output (this catches reports from
# subprocesses whose exit status the program did not check).
#
# Programs find the build they belong to through RAILSYM_BUILD_DIR and the
# command under test through RAILSYM_BIN (tests/e2e/test_cli.c uses it), so the
# sanitizer pass tests the sanitizer-built railsym.
set -uo pipefail

if (( $# != 1 )); then
    echo "usage: scripts/run-tests.sh BUILD_DIR" >&2
    exit 2
fi
build=${1%/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1

# Programs that must not share the machine with other tests, and why.  No
# test asserts wall time (timing figures are `make bench`'s), so only a
# program that needs the cores themselves belongs here.
declare -A RUN_ALONE=(
)

export RAILSYM_BUILD_DIR=$build
export RAILSYM_BIN=$build/railsym
# `--loader dlopen` keeps built models in a cache (docs/scenario.md): the
# tests use their own under the build folder, never the user's
if [[ $build == /* ]]; then export RAILSYM_CACHE_DIR=$build/test-so-cache
else export RAILSYM_CACHE_DIR=$root/$build/test-so-cache; fi
# Sanitizer settings (ignored by programs built without sanitizers).  Leaks are
# errors; the only suppressions are for GiNaC/CLN's own global data.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
timeout_s=${RAILSYM_TEST_TIMEOUT:-900}
jobs=${RAILSYM_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
if ! [[ $jobs =~ ^[1-9][0-9]*$ ]]; then
    echo "run-tests: RAILSYM_TEST_JOBS must be a positive number of programs (got '$jobs')" >&2
    exit 2
fi

logdir=$build/test-logs
mkdir -p "$logdir"

sanitizer_report='^==[0-9]+==ERROR: [A-Za-z]+Sanitizer|^SUMMARY: [A-Za-z]+Sanitizer|: runtime error: '

# Runs one program; writes its log, and to NAME.result its time in seconds
# and its verdict ("ok" or the reason it failed); prints its result line
# (and its log if it failed).
run_one() {
    local prog=$1 name=${1##*/}
    local log=$logdir/$name.log result=$logdir/$name.result
    local start=$SECONDS status why=""
    timeout -k 10 "$timeout_s" "$prog" >"$log" 2>&1 </dev/null
    status=$?
    local secs=$(( SECONDS - start ))
    if (( status == 124 || status == 137 )); then
        why="timed out after ${timeout_s} s"
    elif (( status != 0 )); then
        why="exit status $status"
    elif grep -Eq "$sanitizer_report" "$log"; then
        why="sanitizer report in its output"
    fi
    if [[ -z $why ]]; then
        echo "$secs ok" >"$result"
        echo "--- $name: ok (${secs} s)"
    else
        echo "$secs $why" >"$result"
        # One write for the whole block, so that it is not interleaved with
        # the result lines of programs finishing meanwhile.
        printf -- '--- %s: FAILED: %s (%s s; output in %s):\n%s\n--- end of %s\n' \
            "$name" "$why" "$secs" "$log" "$(cat "$log")" "$name"
    fi
}

# The programs by decreasing time of their last run (never run: first).
shopt -s nullglob
listing=""
for prog in "$build"/tests/test_*; do
    [[ -f $prog && -x $prog ]] || continue
    name=${prog##*/}
    secs=999999
    if [[ -f $logdir/$name.result ]]; then
        read -r secs _ <"$logdir/$name.result" || true
        [[ $secs =~ ^[0-9]+$ ]] || secs=999999
        rm -f "$logdir/$name.result"
    fi
    listing+="$secs $prog"$'\n'
done
parallel=()
alone=()
while read -r _ prog; do
    [[ -n $prog ]] || continue
    if [[ -n ${RUN_ALONE[${prog##*/}]:-} ]]; then
        alone+=("$prog")
    else
        parallel+=("$prog")
    fi
done < <(printf '%s' "$listing" | sort -k1,1nr -k2,2)

echo "run-tests ($build): ${#parallel[@]} programs, $jobs at a time, then ${#alone[@]} alone"
for prog in "${parallel[@]}"; do
    while (( $(jobs -rp | wc -l) >= jobs )); do
        wait -n
    done
    run_one "$prog" &
done
wait
for prog in "${alone[@]}"; do
    echo "--- ${prog##*/}: run alone (${RUN_ALONE[${prog##*/}]})"
    run_one "$prog"
done

passed=()
failed=()
for prog in $(printf '%s\n' "${parallel[@]}" "${alone[@]}" | sort); do
    name=${prog##*/}
    verdict=""
    [[ -f $logdir/$name.result ]] && read -r _ verdict <"$logdir/$name.result"
    if [[ $verdict == ok ]]; then
        passed+=("$name")
    else
        failed+=("$name")
    fi
done

total=$(( ${#passed[@]} + ${#failed[@]} ))
if (( ${#failed[@]} == 0 )); then
    echo "run-tests ($build): $total programs, ${#passed[@]} passed, 0 failed"
    exit 0
fi
echo "run-tests ($build): $total programs, ${#passed[@]} passed, ${#failed[@]} failed: ${failed[*]}"
exit 1
