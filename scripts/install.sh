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
#   PREFIX/lib/librailsym_core.a     the runtime core + contact, what an
#                                    embedded program links (no libtcc, no libdl)
#   PREFIX/lib/librailsym_rt.a       the whole runtime (loaders, trains, driver)
#   PREFIX/lib/librailsym_sym.a      the modeler and code generator
#   PREFIX/include/railsym/          abi/, runtime/core/ and runtime/contact/
#                                    headers: what generated code and an
#                                    embedded program include; `railsym` finds
#                                    the ABI headers here when run from
#                                    PREFIX/bin (cli/model_dir.cpp)
#   PREFIX/lib/pkgconfig/railsym.pc  for embedded users:
#       cc main.c generated/MODEL/*.c $(pkg-config --cflags --libs railsym)
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

for f in railsym librailsym_core.a librailsym_rt.a librailsym_sym.a; do
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

install -d "$destdir$bindir" "$destdir$libdir" "$destdir$includedir/railsym" "$destdir$pkgconfigdir"
install -m 755 "$build/railsym" "$destdir$bindir/railsym"
install -m 644 "$build/librailsym_core.a" "$build/librailsym_rt.a" "$build/librailsym_sym.a" \
    "$destdir$libdir/"
install -m 644 abi/*.h runtime/core/*.h runtime/contact/*.h "$destdir$includedir/railsym/"

# pkg-config's own variables, so that a relocated tree can be fixed by
# editing the prefix line alone.
cat >"$destdir$pkgconfigdir/railsym.pc" <<EOF
prefix=$prefix
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include

Name: railsym
Description: railsym's runtime core for embedded programs: a generated model's workspace and step, KLU, wheel-rail contact
Version: $version
Cflags: -I\${includedir}/railsym
Libs: -L\${libdir} -lrailsym_core -lklu -lm
EOF
chmod 644 "$destdir$pkgconfigdir/railsym.pc"

echo "install: railsym $version in $destdir$prefix (bin, lib, include/railsym, lib/pkgconfig/railsym.pc)"
