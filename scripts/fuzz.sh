#!/usr/bin/env bash
# fuzz.sh HARNESS SECONDS — runs a libFuzzer harness for a bounded time over
# a seed corpus: for fuzz_vdl the shipped models and the .vdl error corpus;
# for fuzz_inputs the shipped scenario, track, profile and train files, each
# behind the byte that selects its reader (tests/fuzz/fuzz_inputs.c).
# Fails on any crash, hang (10 s per input) or sanitizer report; the crashing
# input is left in the harness's folder as crash-* for the regression corpus.
set -euo pipefail
harness=$1
seconds=${2:-60}
dir=$(dirname "$harness")
name=$(basename "$harness")
corpus=$dir/corpus_$name
mkdir -p "$corpus"
max_len=4096
case $name in
fuzz_vdl)
    cp -n vehicles/examples/*.vdl "$corpus"/ 2>/dev/null || true
    for f in tests/vdl_errors/*.vdl; do cp -n "$f" "$corpus/err_$(basename "$f")"; done
    what="the .vdl parser"
    ;;
fuzz_inputs)
    seed() {   # seed SELECTOR FILE...
        local sel=$1; shift
        for f in "$@"; do
            [ -e "$corpus/${sel}_$(basename "$f")" ] ||
                { printf "\\x$(printf %02x "$sel")"; cat "$f"; } > "$corpus/${sel}_$(basename "$f")"
        done
    }
    seed 0 vehicles/examples/*.scn vehicles/feve3000/*.scn
    seed 1 vehicles/tracks/*.trk
    seed 2 vehicles/profiles/*.prf
    seed 3 vehicles/trains/*.train
    max_len=16384
    what="the scenario, track, profile and train file readers"
    ;;
*)
    echo "fuzz.sh: unknown harness '$name'" >&2
    exit 2
    ;;
esac
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/scripts/lsan.supp}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
log=$dir/$name.log
if "$harness" -max_total_time="$seconds" -timeout=10 -max_len="$max_len" -print_final_stats=1 \
        -artifact_prefix="$dir/$name-" "$corpus" > "$log" 2>&1; then
    tail -n 12 "$log" | grep -E "stat::number_of_executed_units|Done" || true
    echo "fuzz: $what: no crash, hang or sanitizer report in ${seconds} s"
else
    tail -n 60 "$log"
    echo "fuzz: $what: FAILED (see $log and $dir/$name-crash-*)" >&2
    exit 1
fi
