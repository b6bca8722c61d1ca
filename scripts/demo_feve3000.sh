#!/usr/bin/env bash
# demo_feve3000.sh — the FEVE 3000 locomotive part of `make demo` (issue 8):
# compile the model (into a scratch folder, to show the compile time; the
# run uses the committed generated/feve3000/), run vehicles/feve3000/demo.scn
# (seed 003's reference run: 19.5 s at 23.7 m/s over the irregular S-curve
# track), write the CSV and the plots of the seed's Figs. 11-14, and say
# where they are.
#
#   scripts/demo_feve3000.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1%/}
out=${2%/}
railsym=$build/railsym
mkdir -p "$out"

echo "--- compiling vehicles/feve3000/feve3000.vdl (30 coordinates, 8 wheel-rail contacts)"
start=$(date +%s.%N)
"$railsym" compile vehicles/feve3000/feve3000.vdl -o "$out/feve3000"
end=$(date +%s.%N)
printf -- "--- compiled in %.2f s (seed 003's generator: 26 min for the same vehicle)\n" \
    "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
if diff -rq "$out/feve3000" generated/feve3000 >/dev/null; then
    echo "--- generated/feve3000/ is current (byte-identical)"
else
    echo "--- note: generated/feve3000/ differs from a fresh compile: run"
    echo "    $railsym compile vehicles/feve3000/feve3000.vdl"
fi
"$railsym" ops generated/feve3000 | head -20

echo "--- running vehicles/feve3000/demo.scn (seed 003's reference run)"
csv=$out/feve3000.csv
"$railsym" run generated/feve3000 --scenario vehicles/feve3000/demo.scn --out "$csv"

plot() { "$railsym" plot "$csv" "$@"; }
plot y --x x -o "$out/feve3000_trajectory.png" \
    --title "FEVE 3000 (seed 003 Fig. 11): carbody centre y (m) against x (m) over the reference track"
plot y --x x --xrange 330:470 -o "$out/feve3000_zoom.png" \
    --title "FEVE 3000 (Fig. 12): zoom on the final straight - lateral hunting of the carbody y (m)"
plot z --x x --xrange 330:470 -o "$out/feve3000_vertical.png" \
    --title "FEVE 3000 (Fig. 12): carbody height z (m) - the 10 m vertical irregularities"
plot rear.wf.right.xi_x rear.wf.right.xi_y -o "$out/feve3000_creepages.png" \
    --title "FEVE 3000 (Fig. 13): longitudinal and lateral creepages, rear bogie front-right wheel"
plot rear.wf.right.spin -o "$out/feve3000_spin.png" \
    --title "FEVE 3000 (Fig. 13): spin creepage (1/m), rear bogie front-right wheel"
plot rear.wf.right.fx rear.wf.right.fy -o "$out/feve3000_creep.png" \
    --title "FEVE 3000 (Fig. 13): creep forces (N), rear bogie front-right wheel"
plot newton_contact newton_position -o "$out/feve3000_newton.png" \
    --title "FEVE 3000 (Fig. 14): Newton iterations per step - contact points (phi_d) and positions (phi)"
plot front.wf.right.N front.wf.left.N rear.wf.right.N rear.wf.left.N -o "$out/feve3000_normal.png" \
    --title "FEVE 3000: normal forces (N) of the leading wheelsets"
plot front.wf.right.u_w front.wf.left.u_w rear.wf.right.u_w -o "$out/feve3000_contact_point.png" \
    --title "FEVE 3000: contact points on the wheels u_w (m; flange contact below -0.03)"
echo "--- FEVE 3000 results: $csv"
ls "$out"/feve3000_*.png | sed 's/^/    /'
