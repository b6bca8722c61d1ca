#!/bin/sh
# Regenerate the shipped wheel and rail profiles (vehicles/profiles/*.prf)
# from their geometric definitions; tests/unit/test_contact_profiles.c checks that
# the committed files equal this output byte for byte.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-gcc} -std=c11 -O2 -Wall -Wextra tests/tools/gen_profiles.c -lm -o "$tmp/gen_profiles"
mkdir -p vehicles/profiles
"$tmp/gen_profiles" vehicles/profiles
