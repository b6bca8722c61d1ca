#!/usr/bin/env bash
# demo.sh — what `make demo` shows, step by step.
#
#   scripts/demo.sh BUILD_DIR
#
# `make demo` builds everything first, then runs this from the repository
# root.  To extend the demo, add a step at the end of the list below: a step
# is a title and a command; it runs with BUILD_DIR's railsym in $RAILSYM and
# stops the demo if it fails.  Outputs belong under $BUILD/demo-out/.
set -euo pipefail

if (( $# != 1 )); then
    echo "usage: scripts/demo.sh BUILD_DIR" >&2
    exit 2
fi
build=${1%/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
export RAILSYM_BUILD_DIR=$build
export RAILSYM_BIN=$build/railsym
RAILSYM=$build/railsym
OUT=$build/demo-out
mkdir -p "$OUT"

step_no=0
step() {            # step TITLE COMMAND [ARGS...]
    local title=$1
    shift
    step_no=$(( step_no + 1 ))
    echo
    echo "==> demo step $step_no: $title"
    echo "    \$ $*"
    "$@"
}

# ---------------------------------------------------------------- the steps
step "the railsym command" "$RAILSYM" --version

# Every demo program built from tests/demo_*.cpp|c, in name order.
shopt -s nullglob
for prog in "$build"/demo/demo_*; do
    [[ -f $prog && -x $prog ]] || continue
    step "${prog##*/}" "$prog"
done

step "compile, run and plot a shipped example" scripts/demo_example.sh "$build" "$OUT"

step "the FEVE 3000 locomotive: compile, run, plot" scripts/demo_feve3000.sh "$build" "$OUT"

echo
echo "==> demo: done ($step_no steps; outputs in $OUT/)"
