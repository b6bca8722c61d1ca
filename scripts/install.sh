#!/usr/bin/env bash
# install.sh — install one build of railsym (`make install` runs it after
# building).
#
#   scripts/install.sh BUILD_DIR
#
# Variables (as `make install` passes them):
#   PREFIX   where railsym will live (default /usr/local); written into railsym.pc
#   DESTDIR  a staging root prepended to every path written (packaging);
#            the installed files still name PREFIX, not DESTDIR
#
# Installs:
#   PREFIX/bin/railsym
#   PREFIX/lib/librailsym.a          the C API (railsym.h, docs/api.md) and the
#                                    runtime above the core (loaders, scenarios,
#                                    results, trains); static, linked before
#                                    librailsym_core.a; its member
#                                    rs_api_paths.c.o is compiled again here to
#                                    name PREFIX/include/railsym (the loaders'
#                                    ABI headers)
#   PREFIX/lib/librailsym_core.a     the runtime core + contact, what an
#                                    embedded program links (no libtcc, no libdl)
#   PREFIX/lib/librailsym_rt.a       the whole runtime (loaders, trains, driver)
#   PREFIX/lib/librailsym_sym.a      the modeler and code generator
#   PREFIX/include/railsym/          railsym.h (the API), abi/, runtime/core/ and
#                                    runtime/contact/ headers: what generated code and an
#                                    embedded program include; `railsym` finds
#                                    the ABI headers here when run from
#                                    PREFIX/bin (cli/model_dir.cpp)
#   PREFIX/lib/pkgconfig/railsym.pc  for programs using the API:
#       cc main.c $(pkg-config --cflags --libs railsym)
#                                    and for embedded users of the core:
#       cc main.c generated/MODEL/*.c $(pkg-config --cflags --libs railsym)
#                                    (nothing of librailsym.a is linked then)
set -euo pipefail

if (( $# != 1 )); then
    echo "usage: [PREFIX=/usr/local] [DESTDIR=] scripts/install.sh BUILD_DIR" >&2
    exit 2
fi
build=${1%/}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

prefix=${PREFIX:-/usr/local}
prefix=${prefix%/}
destdir=${DESTDIR:-}
case $prefix in
    /*) ;;
    *) echo "install: PREFIX must be an absolute path (got '$prefix')" >&2; exit 2 ;;
esac

bindir=$prefix/bin
libdir=$prefix/lib
includedir=$prefix/include
pkgconfigdir=$libdir/pkgconfig

for f in railsym librailsym.a librailsym_core.a librailsym_rt.a librailsym_sym.a; do
    if [[ ! -f $build/$f ]]; then
        echo "install: $build/$f is missing: build it first (make, or make install)" >&2
        exit 1
    fi
done
version=$(sed -n 's/^#define RAILSYM_VERSION "\(.*\)"$/\1/p' cli/version.hpp)
if [[ -z $version ]]; then
    echo "install: no RAILSYM_VERSION in cli/version.hpp" >&2
    exit 1
fi

api_version=$(sed -n 's/^#define RAILSYM_API_VERSION_\(MAJOR\|MINOR\) \([0-9]*\)$/\2/p' runtime/api/railsym.h |
    paste -sd.)
install -d "$destdir$bindir" "$destdir$libdir" "$destdir$includedir/railsym" "$destdir$pkgconfigdir"
install -m 755 "$build/railsym" "$destdir$bindir/railsym"
install -m 644 "$build/librailsym_core.a" "$build/librailsym_rt.a" "$build/librailsym_sym.a" \
    "$destdir$libdir/"
install -m 644 abi/*.h runtime/core/*.h runtime/contact/*.h runtime/api/railsym.h \
    "$destdir$includedir/railsym/"

# The API's library, knowing where its ABI headers are installed: the build
# cannot know PREFIX, so its one member that names it is compiled again
# (a quote or a backslash in PREFIX would break its C string: refused).
case $prefix in
    *[\"\\]*) echo "install: PREFIX must not hold a quote or a backslash (got '$prefix')" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/librailsym.a" "$tmp/librailsym.a"
${CC:-cc} -std=c99 -O2 -I runtime/api -DRS_API_ABI_DIR="\"$includedir/railsym\"" \
    -c runtime/api/rs_api_paths.c -o "$tmp/rs_api_paths.c.o"
ar r "$tmp/librailsym.a" "$tmp/rs_api_paths.c.o" 2>/dev/null
install -m 644 "$tmp/librailsym.a" "$destdir$libdir/"

# pkg-config's own variables, so that a relocated tree can be fixed by
# editing the prefix line alone.
cat >"$destdir$pkgconfigdir/railsym.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include
api_version=$api_version

Name: railsym
Description: railsym's C API (railsym.h: open a compiled model folder, step, read results) and runtime core (a generated model's workspace and step, KLU, wheel-rail contact)
Version: $version
Requires: matio hdf5
Cflags: -I\${includedir}/railsym
Libs: -L\${libdir} -lrailsym -lrailsym_core -ltcc -ldl -lklu -lm -lpthread
EOF
chmod 644 "$destdir$pkgconfigdir/railsym.pc"

echo "install: railsym $version in $destdir$prefix (bin, lib, include/railsym, lib/pkgconfig/railsym.pc)"
