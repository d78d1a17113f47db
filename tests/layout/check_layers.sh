#!/bin/sh
# The layering of the library, checked from the code itself:
#   1. every private include "module/header.h" in src/MODULE/ names MODULE or a module
#      that src/LAYERS lets MODULE use;
#   2. the headers of GLPK, jansson, simdjson, OpenBLAS and libcsv appear only in the module that
#      src/LAYERS gives them (the dlsched program in tool/ may use jansson for its JSON output;
#      the MPI examples examples/mpi_*.c may use BLAS, with which they compute);
#   3. tool/, examples/ and the MPI layer mpi/ include only public headers (the tool its own
#      tool.h, mpi/ its own mpi_impl.h);
#   4. the calls between the library's object files (read with nm) follow the same rules
#      between modules, and form no cycle between files, inside modules too.
#
# Usage: check_layers.sh [SRCDIR [BUILDDIR]]   (defaults: $top_srcdir and $top_builddir,
# or .). Without built objects in BUILDDIR/src, part 4 is skipped with a message.
# check_layers.sh --self-test runs the checker on small trees that break each rule and
# fails unless it rejects every one of them.
set -u

self=$0

check() {
    src=$1
    build=$2
    layers=$src/src/LAYERS
    fails=0
    bad() {
        echo "check_layers: $*"
        fails=$((fails + 1))
    }
    if [ ! -f "$layers" ]; then
        echo "check_layers: $layers is missing"
        return 1
    fi
    # module -> "uses", module -> third-party, module -> layer
    rules=$(grep -v '^#' "$layers" | grep -v '^[[:space:]]*$')
    modules=$(echo "$rules" | awk '{print $1}')
    uses() { echo "$rules" | awk -v m="$1" '$1 == m { for (i = 3; i <= NF && $i != "|"; i++) print $i }'; }
    third() { echo "$rules" | awk -v m="$1" '$1 == m { for (i = 3; i <= NF; i++) if ($i == "|") { for (j = i + 1; j <= NF; j++) print $j } }'; }
    layer() { echo "$rules" | awk -v m="$1" '$1 == m { print $2 }'; }
    allowed() { # may module $1 use module $2?
        [ "$1" = "$2" ] && return 0
        uses "$1" | grep -qx "$2" || return 1
        [ "$(layer "$2")" -lt "$(layer "$1")" ]
    }
    for d in "$src"/src/*/; do
        m=$(basename "$d")
        echo "$modules" | grep -qx "$m" || bad "src/$m/ is not a module of src/LAYERS"
    done
    for f in "$src"/src/*.c "$src"/src/*.h "$src"/src/*.cc; do
        [ -e "$f" ] && bad "${f#"$src"/}: a source file at the top of src/ (each belongs to a module)"
    done

    # 1. private includes
    for m in $modules; do
        for f in "$src"/src/"$m"/*.[ch] "$src"/src/"$m"/*.cc; do
            [ -e "$f" ] || continue
            rel=${f#"$src"/}
            grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
                inc=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
                case $inc in
                dlsched.h | dlsched/*) continue ;;
                */*) to=${inc%%/*} ;;
                *) echo "check_layers: $rel:${line%%:*}: \"$inc\" does not name its module (write \"module/header.h\")"; continue ;;
                esac
                if ! echo "$modules" | grep -qx "$to"; then
                    echo "check_layers: $rel:${line%%:*}: \"$inc\" is not in a module of src/LAYERS"
                elif ! allowed "$m" "$to"; then
                    echo "check_layers: $rel:${line%%:*}: module $m may not include \"$inc\" (src/LAYERS: $m uses $(uses "$m" | tr '\n' ' '))"
                fi
            done
        done
    done > "$tmp/includes"
    while IFS= read -r l; do bad "${l#check_layers: }"; done < "$tmp/includes"

    # 2. third-party headers in their one module
    for lib in glpk gmp jansson simdjson openblas libcsv; do
        case $lib in
        glpk) pat='<glpk\.h>' ;;
        gmp) pat='<gmp\.h>' ;;
        jansson) pat='<jansson\.h>' ;;
        simdjson) pat='<simdjson\.h>' ;;
        openblas) pat='<cblas\.h>\|<openblas[^>]*>\|<lapacke\.h>' ;;
        libcsv) pat='<csv\.h>' ;;
        esac
        home=$(for m in $modules; do third "$m" | grep -qx "$lib" && echo "$m"; done)
        grep -ln "^[[:space:]]*#[[:space:]]*include[[:space:]]*\($pat\)" "$src"/src/*/*.[ch] \
            "$src"/src/*/*.cc 2>/dev/null |
            while IFS= read -r f; do
                m=$(basename "$(dirname "$f")")
                [ "$m" = "$home" ] || echo "${f#"$src"/}: uses $lib, which belongs to src/$home/ only"
            done > "$tmp/third"
        while IFS= read -r l; do bad "$l"; done < "$tmp/third"
    done
    # (except BLAS in the MPI examples, examples/mpi_*.c: they are the user's own MPI programs,
    # which compute with BLAS themselves and use dlsched only to decide who computes what)
    grep -ln '^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(glpk\.h\|gmp\.h\|cblas\.h\|openblas\|lpsolve\|simdjson\|csv\.h\)' \
        "$src"/tool/*.[ch] "$src"/examples/*.c "$src"/mpi/*.[ch] 2>/dev/null | while IFS= read -r f; do
        case ${f#"$src"/} in
        examples/mpi_*.c)
            grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*<\(glpk\.h\|openblas\|lpsolve\|simdjson\)' \
                "$f" > /dev/null || continue ;;
        esac
        echo "${f#"$src"/}: the program and the examples use the library, not its dependencies"
    done > "$tmp/third"
    while IFS= read -r l; do bad "$l"; done < "$tmp/third"

    # 3. the program, the examples and the MPI layer see the public headers only
    for f in "$src"/tool/*.[ch] "$src"/examples/*.c "$src"/mpi/*.[ch]; do
        [ -e "$f" ] || continue
        rel=${f#"$src"/}
        grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
            inc=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
            case $rel:$inc in
            */*:dlsched.h | */*:dlsched/*.h | tool/*:tool.h | mpi/*:mpi_impl.h) ;;
            *) echo "$rel:${line%%:*}: \"$inc\" is not a public header" ;;
            esac
        done
    done > "$tmp/public"
    while IFS= read -r l; do bad "$l"; done < "$tmp/public"

    # 4. calls between object files
    objs=$(ls "$build"/src/*/libdlsched_core_la-*.o 2>/dev/null)
    if [ -z "$objs" ]; then
        echo "check_layers: no objects under $build/src: the calls between files were not checked"
    elif ! command -v nm >/dev/null 2>&1; then
        echo "check_layers: no nm: the calls between files were not checked"
    else
        for o in $objs; do
            m=$(basename "$(dirname "$o")")
            f=$(basename "$o" .o | sed 's/^libdlsched_core_la-//')
            nm "$o" | awk -v id="$m/$f" '$1 == "U" { print "U", id, $2 } NF == 3 && $2 ~ /^[TDBRCG]$/ { print "D", id, $3 }'
        done > "$tmp/symbols"
        awk '$1 == "D" { def[$3] = $2 } $1 == "U" { n++; from[n] = $2; sym[n] = $3 }
             END { for (k = 1; k <= n; k++) if (sym[k] in def && def[sym[k]] != from[k]) print from[k], def[sym[k]], sym[k] }' \
            "$tmp/symbols" | sort -u > "$tmp/edges"
        while read -r a b s; do
            ma=${a%%/*}
            mb=${b%%/*}
            allowed "$ma" "$mb" || echo "src/$a.c calls $s of src/$b.c: module $ma may not use $mb"
        done < "$tmp/edges" | sort -u > "$tmp/calls"
        while IFS= read -r l; do bad "$l"; done < "$tmp/calls"
        awk '{ print $1, $2 }' "$tmp/edges" | sort -u > "$tmp/pairs"
        if ! tsort "$tmp/pairs" > /dev/null 2> "$tmp/loops"; then
            bad "a cycle between files: $(grep -v 'input contains a loop' "$tmp/loops" | sed 's/^tsort: //' | tr '\n' ' ')"
        fi
    fi
    [ "$fails" -eq 0 ]
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-layers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [ "${1:-}" = "--self-test" ]; then
    # a tiny tree that follows the rules, then one broken copy per rule
    root=$tmp/tree
    mkdir -p "$root/src/low" "$root/src/high" "$root/tool" "$root/examples"
    printf 'low 0\nhigh 1 low | glpk\n' > "$root/src/LAYERS"
    printf '#include "low/low.h"\n' > "$root/src/low/low.c"
    printf '#include "high/high.h"\n#include "low/low.h"\n#include <glpk.h>\n' > "$root/src/high/high.c"
    printf '#include "tool.h"\n#include <dlsched.h>\n' > "$root/tool/main.c"
    printf '#include <dlsched.h>\n' > "$root/examples/ex.c"
    printf '#include <dlsched/mpi.h>\n#include <cblas.h>\n' > "$root/examples/mpi_ok.c"
    check_copy() { check "$1" "$1"; }
    . "$(dirname "$0")/selftest.sh"
    expect_accept "a tree that follows the rules was rejected"
    expect_reject "an upward include" 'printf "#include \"high/high.h\"\n" >> src/low/low.c'
    expect_reject "an include without its module" 'printf "#include \"high.h\"\n" >> src/high/high.c'
    expect_reject "GLPK outside its module" 'printf "#include <glpk.h>\n" >> src/low/low.c'
    expect_reject "a private header in the tool" 'printf "#include \"../src/low/low.h\"\n" >> tool/main.c'
    expect_reject "a private header in an example" 'printf "#include \"low/low.h\"\n" >> examples/ex.c'
    expect_reject "BLAS in an example that is not an MPI one" 'printf "#include <cblas.h>\n" >> examples/ex.c'
    expect_reject "GLPK in an MPI example" 'printf "#include <cblas.h>\n#include <glpk.h>\n" > examples/mpi_ex.c'
    expect_reject "a source file at the top of src/" 'touch src/loose.c'
    expect_reject "a folder that is no module" 'mkdir src/other && touch src/other/x.c'
    # the calls, from objects compiled here
    if can_compile; then
        obj() { compile_to "$root/src/$1/libdlsched_core_la-$2.o" "$3"; } # module, file, C text
        obj low low 'void low(void); void low(void) {}'
        obj high high 'void low(void); void high(void); void high(void) { low(); }'
        expect_accept "rules-abiding objects rejected"
        expect_reject "an upward call" "printf 'void high(void); void low2(void); void low2(void) { high(); }\n' > x.c && ${CC:-cc} -c -o src/low/libdlsched_core_la-low2.o x.c"
        expect_reject "a cycle between two files of one module" "printf 'void high(void); void h2(void); void h2(void) { high(); }\n' > x.c && ${CC:-cc} -c -o src/high/libdlsched_core_la-h2.o x.c && printf 'void low(void); void h2(void); void high(void); void high(void) { low(); h2(); }\n' > y.c && ${CC:-cc} -c -o src/high/libdlsched_core_la-high.o y.c"
    else
        echo "self-test: no C compiler or nm: the checks of calls were not tried"
    fi
    exit $failed
fi

top_src=${1:-${top_srcdir:-.}}
top_build=${2:-${top_builddir:-.}}
if check "$top_src" "$top_build"; then
    echo "check_layers: the layering of src/LAYERS holds"
    exit 0
fi
exit 1
