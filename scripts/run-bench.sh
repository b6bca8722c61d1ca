#!/usr/bin/env bash
# run-bench.sh — run every benchmark program of one build.
#
#   scripts/run-bench.sh BUILD_DIR
#
# Runs each BUILD_DIR/bench/bench_* in name order from the repository root.
# Their standard output (the `BENCH <subject>.<figure> <value> <unit>` lines)
# passes through untouched; this script writes only to stderr, so
#   make bench 2>/dev/null | grep ^BENCH
# gives the figures alone.  Keeps going after a failing program; exits 1 if
# any failed.  Benchmarks never fail on time: a program fails only by its
# exit status.
set -uo pipefail

if (( $# != 1 )); then
    echo "usage: scripts/run-bench.sh BUILD_DIR" >&2
    exit 2
fi
build=${1%/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1
export RAILSYM_BUILD_DIR=$build
export RAILSYM_BIN=$build/railsym

failed=()
count=0
shopt -s nullglob
for prog in "$build"/bench/bench_*; do
    [[ -f $prog && -x $prog ]] || continue
    count=$(( count + 1 ))
    echo "--- $prog" >&2
    "$prog"
    status=$?
    if (( status != 0 )); then
        echo "--- ${prog##*/}: FAILED (exit status $status)" >&2
        failed+=("${prog##*/}")
    fi
done

if (( ${#failed[@]} > 0 )); then
    echo "run-bench ($build): ${#failed[@]} of $count programs failed: ${failed[*]}" >&2
    exit 1
fi
echo "run-bench ($build): $count programs" >&2
