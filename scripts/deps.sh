#!/usr/bin/env bash
# deps.sh — the dependency step every make target runs first.
#
#   scripts/deps.sh [STAMP]            what building and testing need (`make deps`)
#   scripts/deps.sh --bench [STAMP]    what `make bench` needs on top (its own step)
#
# Checks with dpkg-query that the Debian packages railsym needs are installed.
# Missing ones are installed with apt-get when running as root (CI, fresh
# containers); otherwise it stops and prints the exact command to run.
#
# To stay cheap on every `make`, a successful check writes STAMP (default
# build/.deps.stamp, with --bench build/.deps-bench.stamp) holding the
# package list.  The check is skipped while the
# stamp exists, holds the same list and is newer than this script; editing the
# list below (or this file) forces a new check.  Set RAILSYM_SKIP_DEPS=1 to
# skip the step entirely (for non-Debian systems where you installed the
# equivalents yourself).
set -euo pipefail

# What building and testing need (`make`, `make test`), and why:
#   libginac-dev libcln-dev   symbolic core (modeler/, codegen/)
#   libtcc-dev tcc            in-memory compilation of generated code; tcc ships
#                             libtcc1.a, without which tcc_relocate fails
#   libsuitesparse-dev        KLU sparse LU (runtime/)
#   check pkg-config          unit tests, compiler/linker flags
#   openmpi-bin libopenmpi-dev  parameter sweeps across machines (the command
#                             links libmpi; tests/e2e/test_sweep_mpi runs mpirun)
#   gnuplot-nox               `railsym plot` and the demo's PNG (tested)
#   libmatio-dev libhdf5-dev  result files `--out X.mat` (libmatio) and `--out X.h5`
#                             (libhdf5) of `railsym run` (docs/results.md)
#   libfftw3-dev              FFTs of the spectra: Welch PSD, comfort weighting
#                             filters, track-irregularity synthesis (docs/analyses.md)
#   hdf5-tools                h5dump, which tests/e2e/test_results_files reads them with
#   zip unzip                 `railsym export-fmu` writes the FMU (a zip) with zip;
#                             tests/e2e/test_fmu's importer unpacks it with unzip (docs/fmi.md)
#   g++ gcc make              the toolchain
#   clang libclang-rt-14-dev  libFuzzer for the fuzz pass of `make test`
PACKAGES=(
    libginac-dev libcln-dev libtcc-dev tcc libsuitesparse-dev check pkg-config
    openmpi-bin libopenmpi-dev gnuplot-nox g++ gcc make
    libmatio-dev libhdf5-dev hdf5-tools libfftw3-dev zip unzip
    clang libclang-rt-14-dev
)
# What `make bench` needs on top, checked by its own step only (a build
# installs no benchmark tool):
#   valgrind                  callgrind's instruction counts (bench_feve3000)
BENCH_PACKAGES=(
    valgrind
)

default_stamp=build/.deps.stamp
if [[ ${1:-} == --bench ]]; then
    shift
    PACKAGES=("${BENCH_PACKAGES[@]}")
    default_stamp=build/.deps-bench.stamp
fi
stamp=${1:-$default_stamp}
self=${BASH_SOURCE[0]}
want="${PACKAGES[*]}"

if [[ ${RAILSYM_SKIP_DEPS:-0} == 1 ]]; then
    exit 0
fi

# Fast path: a stamp newer than this script, for the same package list.
if [[ -f $stamp && $stamp -nt $self && "$(cat "$stamp")" == "$want" ]]; then
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: dpkg-query not found: this is not a Debian system." >&2
    echo "deps: install the equivalents of: $want" >&2
    echo "deps: then run make with RAILSYM_SKIP_DEPS=1" >&2
    exit 1
fi

# Packages whose status is not "installed" (absent ones print nothing).
missing_packages() {
    local installed
    installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null \
                | awk '$2 == "installed" { print $1 }' || true)
    local p
    for p in "${PACKAGES[@]}"; do
        if ! grep -qx -- "$p" <<<"$installed"; then
            printf '%s\n' "$p"
        fi
    done
}

mapfile -t missing < <(missing_packages)

if (( ${#missing[@]} > 0 )); then
    if (( EUID == 0 )) && command -v apt-get >/dev/null 2>&1; then
        echo "deps: installing missing Debian packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update
        apt-get install -y "${missing[@]}"
        mapfile -t missing < <(missing_packages)
        if (( ${#missing[@]} > 0 )); then
            echo "deps: still missing after apt-get install: ${missing[*]}" >&2
            exit 1
        fi
    else
        echo "deps: missing Debian packages: ${missing[*]}" >&2
        echo "deps: install them with:" >&2
        echo "" >&2
        echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
        echo "" >&2
        echo "deps: then run make again." >&2
        exit 1
    fi
fi

mkdir -p "$(dirname "$stamp")"
printf '%s\n' "$want" > "$stamp.tmp"
mv -f "$stamp.tmp" "$stamp"
