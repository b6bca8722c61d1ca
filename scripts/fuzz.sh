#!/usr/bin/env bash
# fuzz.sh HARNESS SECONDS — runs the .vdl parser's libFuzzer harness for a
# bounded time over a seed corpus (the shipped models and the error corpus).
# Fails on any crash, hang (10 s per input) or sanitizer report; the crashing
# input is left in the harness's folder as crash-* for the regression corpus.
set -euo pipefail
harness=$1
seconds=${2:-60}
dir=$(dirname "$harness")
corpus=$dir/corpus
mkdir -p "$corpus"
cp -n vehicles/examples/*.vdl "$corpus"/ 2>/dev/null || true
for f in tests/vdl_errors/*.vdl; do cp -n "$f" "$corpus/err_$(basename "$f")"; done
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
log=$dir/fuzz.log
if "$harness" -max_total_time="$seconds" -timeout=10 -max_len=4096 -print_final_stats=1 \
        -artifact_prefix="$dir/" "$corpus" > "$log" 2>&1; then
    tail -n 12 "$log" | grep -E "stat::number_of_executed_units|Done" || true
    echo "fuzz: no crash, hang or sanitizer report in ${seconds} s"
else
    tail -n 60 "$log"
    echo "fuzz: FAILED (see $log and $dir/crash-*)" >&2
    exit 1
fi
