#!/usr/bin/env bash
# run-tests.sh — run every test program of one build.
#
#   scripts/run-tests.sh BUILD_DIR
#
# Runs each BUILD_DIR/tests/test_* in name order with the repository root as
# working directory, keeps going after a failure, and ends with one summary
# line.  Exit status: 0 when every program passed, 1 otherwise.
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

export RAILSYM_BUILD_DIR=$build
export RAILSYM_BIN=$build/railsym
# Sanitizer settings (ignored by programs built without sanitizers).  Leaks are
# errors; the only suppressions are for GiNaC/CLN's own global data.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/scripts/lsan.supp:print_suppressions=0}
timeout_s=${RAILSYM_TEST_TIMEOUT:-900}

logdir=$build/test-logs
mkdir -p "$logdir"

sanitizer_report='^==[0-9]+==ERROR: [A-Za-z]+Sanitizer|^SUMMARY: [A-Za-z]+Sanitizer|: runtime error: '

passed=()
failed=()
shopt -s nullglob
for prog in "$build"/tests/test_*; do
    [[ -f $prog && -x $prog ]] || continue
    name=${prog##*/}
    log=$logdir/$name.log
    echo "--- $prog"
    start=$SECONDS
    timeout -k 10 "$timeout_s" "$prog" 2>&1 | tee "$log"
    status=${PIPESTATUS[0]}
    secs=$(( SECONDS - start ))
    why=""
    if (( status == 124 || status == 137 )); then
        why="timed out after ${timeout_s} s"
    elif (( status != 0 )); then
        why="exit status $status"
    elif grep -Eq "$sanitizer_report" "$log"; then
        why="sanitizer report in its output"
    fi
    if [[ -z $why ]]; then
        echo "--- $name: ok (${secs} s)"
        passed+=("$name")
    else
        echo "--- $name: FAILED: $why (${secs} s; output in $log)"
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
