#!/usr/bin/env bash
# check-layout.sh — the folder rules of docs/architecture.md, checked on the
# sources themselves.
#
#   scripts/check-layout.sh              check the tree; exit 1 on a violation
#   scripts/check-layout.sh --self-test  also prove the checks can fail: a
#                                        forbidden include and an include
#                                        cycle planted in a scratch copy must
#                                        be reported, and the compiler, given
#                                        core's include paths, must refuse a
#                                        contact header
#
# What it checks, for every C/C++ source and header under abi/, modeler/,
# codegen/, runtime/ and cli/:
#   1. each #include "NAME" names a file of a folder the includer's folder
#      may use (the RULES table; the build's include paths say the same, so
#      the compiler refuses a violation too: this gives the clearer message);
#   2. no cycle between files (file A includes B includes ... A);
#   3. no cycle between the C runtime's modules: a module is a file's name without its
#      extension and an `_impl` suffix (rs_ws.h, rs_ws.c and rs_ws_impl.h are
#      the module rs_ws), so rs_ws.c including rs_klu.h while rs_klu.c
#      includes rs_ws_impl.h is a cycle even though no file includes itself;
#   4. no cycle between folders (runtime/core uses runtime/contact uses core).
# Quoted includes with a path ("../x.h") are refused: the layers' include
# paths are the only way across folders.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# folder: the folders it may include from (itself always).
RULES='
abi:
common:
runtime/core: abi
runtime/contact: runtime/core abi common
runtime/load: runtime/core abi
runtime/train: runtime/contact runtime/core abi common
runtime/coupled: runtime/core abi
runtime/app: runtime/train runtime/load runtime/coupled runtime/contact runtime/core abi common
runtime/api: runtime/app runtime/train runtime/load runtime/coupled runtime/contact runtime/core abi common
modeler/algebra: common
modeler/kinematics: modeler/algebra common
modeler/mechanics: modeler/kinematics modeler/algebra common
modeler/vdl: modeler/mechanics modeler/kinematics modeler/algebra common
codegen: modeler/vdl modeler/mechanics modeler/kinematics modeler/algebra abi common
cli: codegen modeler/vdl modeler/mechanics modeler/kinematics modeler/algebra runtime/api runtime/app runtime/train runtime/load runtime/coupled runtime/contact runtime/core abi common
'

check_tree() {   # check_tree DIR: prints violations, returns 1 if any
    local dir=$1 bad=0
    declare -A allowed home
    local line folder deps
    while IFS= read -r line; do
        [[ -z $line ]] && continue
        folder=${line%%:*}
        deps=${line#*:}
        allowed[$folder]="$folder $deps"
    done <<< "$RULES"

    # Which folder holds each header name; a name in two folders is an error
    # (a bare include would be ambiguous).
    local f name d
    while IFS= read -r f; do
        name=${f##*/}
        d=${f%/*}
        if [[ -n ${home[$name]:-} && ${home[$name]} != "$d" ]]; then
            echo "check-layout: $name exists in both ${home[$name]}/ and $d/: rename one" >&2
            bad=1
        fi
        home[$name]=$d
    done < <(cd "$dir" && find abi common modeler codegen runtime cli -type f \( -name '*.h' -o -name '*.hpp' \) 2>/dev/null | sort)

    local edges folder_edges module_edges
    edges=$(mktemp)
    folder_edges=$(mktemp)
    module_edges=$(mktemp)
    local src n inc target from
    while IFS= read -r src; do
        from=${src%/*}
        if [[ -z ${allowed[$from]+x} ]]; then
            echo "check-layout: $src: folder $from/ has no rule in scripts/check-layout.sh (and docs/architecture.md)" >&2
            bad=1
            continue
        fi
        n=0
        while IFS= read -r line; do
            n=$((n + 1))
            [[ $line =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
            inc=${BASH_REMATCH[1]}
            if [[ $inc == */* ]]; then
                echo "$src:$n: #include \"$inc\" has a path: include by name, through the layer's include paths" >&2
                bad=1
                continue
            fi
            target=${home[$inc]:-}
            [[ -z $target ]] && continue   # not a project header (generated, system)
            if [[ " ${allowed[$from]} " != *" $target "* ]]; then
                echo "$src:$n: #include \"$inc\" reaches $target/, which $from/ may not use (allowed: ${allowed[$from]})" >&2
                bad=1
            fi
            echo "$src $target/$inc" >> "$edges"
            local m_from=${src##*/} m_to=${inc}
            m_from=${m_from%.*}; m_from=${m_from%_impl}
            m_to=${m_to%.*}; m_to=${m_to%_impl}
            # C runtime only: in the modeler, System and its elements' laws
            # (forces.cpp, contact.cpp take a System&) are one unit by design
            if [[ $from == runtime/* && $m_from != "$m_to" ]]; then
                echo "$from/$m_from $target/$m_to" >> "$module_edges"
            fi
            [[ $target != "$from" ]] && echo "$from $target" >> "$folder_edges"
        done < "$dir/$src"
    done < <(cd "$dir" && find abi common modeler codegen runtime cli -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.c' -o -name '*.cpp' \) 2>/dev/null | sort)

    # Cycles: tsort reports a loop on stderr.
    local loops
    loops=$(tsort "$edges" 2>&1 >/dev/null)
    if [[ -n $loops ]]; then
        echo "check-layout: include cycle between files:" >&2
        echo "$loops" | sed 's/^/  /' >&2
        bad=1
    fi
    loops=$(sort -u "$module_edges" | tsort 2>&1 >/dev/null)
    if [[ -n $loops ]]; then
        echo "check-layout: include cycle between modules (NAME.c, NAME.h, NAME_impl.h):" >&2
        echo "$loops" | sed 's/^/  /' >&2
        bad=1
    fi
    loops=$(sort -u "$folder_edges" | tsort 2>&1 >/dev/null)
    if [[ -n $loops ]]; then
        echo "check-layout: include cycle between folders:" >&2
        echo "$loops" | sed 's/^/  /' >&2
        bad=1
    fi
    rm -f "$edges" "$folder_edges" "$module_edges"
    return $bad
}

if ! check_tree "$root"; then
    echo "check-layout: FAILED (rules: docs/architecture.md)" >&2
    exit 1
fi

if [[ ${1:-} == --self-test ]]; then
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    (cd "$root" && cp -r --parents abi common modeler codegen runtime cli "$tmp"/) || exit 1
    # 1. the core reaching up into contact
    echo '#include "rs_contact.h"' >> "$tmp/runtime/core/rs_status.c"
    if check_tree "$tmp" 2>"$tmp/out1"; then
        echo "check-layout --self-test: a forbidden include (core -> contact) was not reported" >&2
        exit 1
    fi
    grep -q 'rs_status.c:.*rs_contact.h.*runtime/contact/, which runtime/core/ may not use' "$tmp/out1" || {
        echo "check-layout --self-test: wrong report for the forbidden include:" >&2
        cat "$tmp/out1" >&2
        exit 1
    }
    # 2. a cycle inside one folder (allowed by the rules, refused as a cycle)
    sed -i '$d' "$tmp/runtime/core/rs_status.c"
    echo '#include "rs_ws.h"' >> "$tmp/runtime/core/rs_status.h"
    if check_tree "$tmp" 2>"$tmp/out2"; then
        echo "check-layout --self-test: an include cycle (rs_status.h -> rs_ws.h -> rs_status.h) was not reported" >&2
        exit 1
    fi
    grep -q 'include cycle between files' "$tmp/out2" || {
        echo "check-layout --self-test: wrong report for the cycle:" >&2
        cat "$tmp/out2" >&2
        exit 1
    }
    # 3. the build's own guard: with core's include paths, a contact header
    #    is not found
    if printf '#include "rs_contact.h"\n' |
        ${CC:-cc} -fsyntax-only -I "$root/abi" -I "$root/runtime/core" -x c - 2>/dev/null; then
        echo "check-layout --self-test: the compiler found rs_contact.h with core's include paths" >&2
        exit 1
    fi
    echo "check-layout: rules hold; self-test: a forbidden include, a cycle and the compiler's guard all caught"
else
    echo "check-layout: rules hold, no include cycle"
fi
