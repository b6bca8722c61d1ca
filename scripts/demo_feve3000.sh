#!/usr/bin/env bash
# demo_feve3000.sh — the FEVE 3000 locomotive part of `make demo` (issue 8):
# compile the model (into a scratch folder, to show the compile time; the
# run uses the committed generated/feve3000/), run vehicles/feve3000/demo.scn
# (20 s at 23.7 m/s on the irregular metre-gauge straight), write the CSV and
# the plots, and say where they are.
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

echo "--- running vehicles/feve3000/demo.scn"
csv=$out/feve3000.csv
"$railsym" run generated/feve3000 --scenario vehicles/feve3000/demo.scn --out "$csv"

"$railsym" plot "$csv" y -o "$out/feve3000_lateral.png" \
    --title "FEVE 3000: carbody lateral position y (m), 23.7 m/s, irregular straight"
"$railsym" plot "$csv" yaw front.yaw rear.yaw -o "$out/feve3000_yaw.png" \
    --title "FEVE 3000: carbody and slider yaw angles (rad)"
"$railsym" plot "$csv" lambda_rear.wf.right.phi_n lambda_rear.wf.left.phi_n \
    lambda_front.wf.right.phi_n lambda_front.wf.left.phi_n -o "$out/feve3000_normal.png" \
    --title "FEVE 3000: contact multipliers (N = -lambda, N) of the leading wheelsets"
"$railsym" plot "$csv" rear.wf.right.fx rear.wf.right.fy -o "$out/feve3000_creep.png" \
    --title "FEVE 3000: creep forces of the rear bogie's front-right wheel (N)"
"$railsym" plot "$csv" rear.wf.right.u_w rear.wf.right.u_r -o "$out/feve3000_contact_point.png" \
    --title "FEVE 3000: contact point of the rear bogie's front-right wheel (m)"
echo "--- FEVE 3000 results: $csv"
ls "$out"/feve3000_*.png | sed 's/^/    /'
