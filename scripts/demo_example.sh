#!/usr/bin/env bash
# demo_example.sh — the `make demo` step for a shipped example: compile the
# spinning top from its description, run its scenario, plot the result.
#
#   scripts/demo_example.sh [BUILD_DIR [OUT_DIR]]     (defaults: build, BUILD_DIR/demo-out)
#
# Writes OUT_DIR/spinning_top/ (the compiled model), OUT_DIR/spinning_top.csv
# and OUT_DIR/spinning_top.png, and fails if any step fails or leaves an
# empty file.  Run from anywhere; it works from the repository root.
set -euo pipefail

build=${1:-build}
build=${build%/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=${2:-$build/demo-out}
railsym=${RAILSYM_BIN:-$build/railsym}
model=spinning_top
mkdir -p "$out"

show() { echo "    \$ $*"; "$@"; }

show "$railsym" compile "vehicles/examples/$model.vdl" -o "$out/$model"
show "$railsym" run "$out/$model" --scenario "vehicles/examples/$model.scn" --out "$out/$model.csv"
show "$railsym" plot "$out/$model.csv" psi theta -o "$out/$model.png" --title "spinning top: precession psi and nutation theta [rad]"

for f in "$out/$model.csv" "$out/$model.png"; do
    if [[ ! -s $f ]]; then
        echo "demo_example.sh: $f is missing or empty" >&2
        exit 1
    fi
done
echo "    results: $out/$model.csv ($(( $(wc -l < "$out/$model.csv") - 1 )) rows), plot: $out/$model.png"
