#!/bin/sh
# shellcheck disable=SC2016 # (the backquotes in single quotes are Markdown's)
# doc/ARCHITECTURE.md, the map of the tree, checked against the tree, so that it cannot
# drift again:
#   1. every module of src/LAYERS and every folder under src/ has its row in the layer
#      table (| LAYER | `module` | ...), and the number of modules stated ("`src/` holds N
#      modules", "the N modules of `src/LAYERS`") is the number there is;
#   2. every fuzz target of fuzz/local.mk (FUZZ_TARGETS) is listed (`target`), every
#      fuzz/fuzz_*.c source of fuzz/local.mk is named, and their number is stated right
#      ("N fuzz targets");
#   3. the fuzz duration is written once, FUZZ_SECONDS in fuzz/local.mk: the page and
#      fuzz/README.md quote its value, .ci/run reads it there and writes no number of its own;
#   4. the counts of the reference suite (instances, distinct platform files, weights files:
#      validation/manifest.json) and of the program (commands in tool/main.c, the cmd_*.c
#      files that define them) are the ones the page states; README.md points to the page.
#
# Usage: check_map.sh [SRCDIR]   (default: $top_srcdir, or .). Plain sh, grep, sed, awk.
# check_map.sh --self-test runs the checker on a copy of the tree's files, then on copies
# broken in each of those ways, and fails unless it accepts the first and rejects the rest.
set -u

# the value of a make variable of fuzz/local.mk, continuation lines joined
mk_var() {
    awk -v v="$1" '
        cont { line = line " " $0 }
        !cont && $1 == v && $2 == "=" { line = $0; cont = 1 }
        cont { if ($0 ~ /\\$/) { sub(/\\$/, "", line); next } cont = 0; done = 1 }
        END { if (done) { sub(/^[^=]*=/, "", line); print line } }' "$2"
}

# the number N in the first "PREFIX N SUFFIX" of a file ("" when there is none)
stated() {
    sed -n "s#.*$2 \\([0-9][0-9,]*\\) $3.*#\\1#p" "$1" | head -n 1 | tr -d ,
}

check() {
    root=$1
    map=$root/doc/ARCHITECTURE.md
    fails=0
    bad() {
        echo "check_map: $*"
        fails=$((fails + 1))
    }
    for f in "$map" "$root/src/LAYERS" "$root/fuzz/local.mk"; do
        [ -f "$f" ] || { echo "check_map: $f is missing"; return 1; }
    done
    expect() { # WHAT STATED ACTUAL
        if [ -z "$2" ]; then
            bad "doc/ARCHITECTURE.md does not state $1 (it is $3)"
        elif [ "$2" != "$3" ]; then
            bad "doc/ARCHITECTURE.md says $2 $1, the tree has $3"
        fi
    }

    # 1. modules
    modules=$(grep -v '^#' "$root/src/LAYERS" | awk 'NF { print $1 }')
    folders=$(cd "$root/src" && for d in */; do [ -d "$d" ] && echo "${d%/}"; done)
    for m in $(printf '%s\n%s\n' "$modules" "$folders" | sort -u); do
        grep -q "^| [0-9][0-9]* | \`$m\` |" "$map" ||
            bad "module $m (src/LAYERS or src/$m/) has no row in the layer table of doc/ARCHITECTURE.md"
    done
    n=$(echo "$modules" | grep -c .)
    expect "modules (\`src/\` holds N modules)" "$(stated "$map" '`src/` holds' modules)" "$n"
    expect "modules (the N modules of \`src/LAYERS\`)" "$(stated "$map" 'the' 'modules of `src/LAYERS`')" "$n"

    # 2. fuzz targets and sources
    targets=$(mk_var FUZZ_TARGETS "$root/fuzz/local.mk")
    [ -n "$targets" ] || bad "fuzz/local.mk: no FUZZ_TARGETS"
    n=0
    for t in $targets; do
        n=$((n + 1))
        grep -q "\`$t\`" "$map" || bad "fuzz target $t (fuzz/local.mk) is not listed in doc/ARCHITECTURE.md"
    done
    expect "fuzz targets" "$(stated "$map" 'makes' 'fuzz targets')" "$n"
    for c in $(grep -o 'fuzz/fuzz_[a-z_0-9]*\.c' "$root/fuzz/local.mk" | sort -u); do
        grep -q "\`${c#fuzz/}\`" "$map" || bad "$c (fuzz/local.mk) is not named in doc/ARCHITECTURE.md"
    done

    # 3. one fuzz duration
    secs=$(sed -n 's/^FUZZ_SECONDS = *\([0-9][0-9]*\) *$/\1/p' "$root/fuzz/local.mk")
    if [ -z "$secs" ] || [ "$(echo "$secs" | wc -l)" -ne 1 ]; then
        bad "fuzz/local.mk: not one line FUZZ_SECONDS = N"
    else
        expect "seconds of fuzzing a target (\`FUZZ_SECONDS\` = N s)" \
            "$(stated "$map" '`FUZZ_SECONDS` =' s)" "$secs"
        if [ -f "$root/fuzz/README.md" ]; then
            r=$(stated "$root/fuzz/README.md" 'each target for' s)
            [ "$r" = "$secs" ] || bad "fuzz/README.md says each target for ${r:-?} s, fuzz/local.mk $secs"
        fi
        if [ -f "$root/.ci/run" ]; then
            grep -q 'FUZZ_SECONDS.*fuzz/local\.mk' "$root/.ci/run" ||
                bad ".ci/run does not read FUZZ_SECONDS from fuzz/local.mk"
            ! grep -q 'FUZZ_SECONDS:*=[0-9]' "$root/.ci/run" ||
                bad ".ci/run writes a fuzz duration of its own"
        fi
    fi

    # 4. counts of the reference suite and of the program
    man=$root/validation/manifest.json
    if [ -f "$man" ]; then
        expect "instances (N instances on M platform files)" \
            "$(stated "$map" 'suite:' 'instances on')" "$(grep -c '"id":' "$man")"
        expect "platform files (N instances on M platform files)" \
            "$(stated "$map" 'instances on' 'platform files')" \
            "$(grep -o '"platform": *"[^"]*"' "$man" | sort -u | grep -c .)"
        expect "weights files" "$(stated "$map" '(and' 'weights files')" \
            "$(grep -o '"weights": *"[^"]*"' "$man" | sort -u | grep -c .)"
    fi
    if [ -f "$root/tool/main.c" ]; then
        expect "commands (N commands in M \`cmd_*.c\` files)" \
            "$(stated "$map" 'program:' commands)" "$(grep -c '^ *&tool_cmd_[a-z_0-9]*,' "$root/tool/main.c")"
        expect "files of commands (N commands in M \`cmd_*.c\` files)" \
            "$(stated "$map" 'commands in' '`cmd_\*\.c` files')" \
            "$(grep -l '^const tool_cmd tool_cmd_[a-z_0-9]* = ' "$root"/tool/cmd_*.c | grep -c .)"
    fi
    if [ -f "$root/README.md" ]; then
        grep -q 'doc/ARCHITECTURE\.md' "$root/README.md" || bad "README.md does not point to doc/ARCHITECTURE.md"
    fi

    [ "$fails" -eq 0 ] || return 1
    echo "check_map: doc/ARCHITECTURE.md agrees with the tree ($(echo "$modules" | grep -c .) modules, $n fuzz targets, ${secs:-?} s each)"
}

if [ "${1:-}" = "--self-test" ]; then
    src=${top_srcdir:-.}
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_map.XXXXXX") || exit 1
    trap 'rm -rf "$tmp"' EXIT
    copy() { # a fresh copy of the files the checker reads
        rm -rf "$tmp/t"
        mkdir -p "$tmp/t/doc" "$tmp/t/fuzz" "$tmp/t/.ci" "$tmp/t/validation" "$tmp/t/tool" "$tmp/t/src"
        for f in doc/ARCHITECTURE.md src/LAYERS fuzz/local.mk fuzz/README.md .ci/run \
            validation/manifest.json README.md tool/main.c; do
            [ ! -f "$src/$f" ] || cp "$src/$f" "$tmp/t/$f"
        done
        cp "$src"/tool/cmd_*.c "$tmp/t/tool/" 2>/dev/null
        for d in "$src"/src/*/; do mkdir "$tmp/t/src/$(basename "$d")"; done
    }
    copy
    out=$(check "$tmp/t" 2>&1) || { echo "self-test: the tree's own files were rejected: $out"; exit 1; }
    fail=0
    rejects() { # WHAT, after a breaking edit of $tmp/t
        if out=$(check "$tmp/t" 2>&1); then
            echo "self-test: not rejected: $1"
            fail=1
        else
            echo "self-test: rejected as it should: $1: $(echo "$out" | head -n 1)"
        fi
        copy
    }
    mkdir "$tmp/t/src/newmodule"
    rejects "a folder under src/ without its row"
    echo "newmodule 3 core" >> "$tmp/t/src/LAYERS"
    rejects "a module of src/LAYERS without its row"
    sed -i.bak '/^| [0-9]* | `verify` |/d' "$tmp/t/doc/ARCHITECTURE.md"
    rejects "a module's row removed"
    sed -i.bak 's/^FUZZ_TARGETS = /FUZZ_TARGETS = newtarget /' "$tmp/t/fuzz/local.mk"
    rejects "a fuzz target not listed"
    sed -i.bak 's/`fuzz_import\.c`/the import target/' "$tmp/t/doc/ARCHITECTURE.md"
    rejects "a fuzz source not named"
    sed -i.bak 's/^FUZZ_SECONDS = .*/FUZZ_SECONDS = 7/' "$tmp/t/fuzz/local.mk"
    rejects "the fuzz duration changed in fuzz/local.mk alone"
    sed -i.bak 's/FUZZ_SECONDS:=\$(sed/FUZZ_SECONDS:=35}" #$(sed/' "$tmp/t/.ci/run"
    rejects "a duration of CI's own"
    sed -i.bak 's/`src\/` holds [0-9]* modules/`src\/` holds 17 modules/' "$tmp/t/doc/ARCHITECTURE.md"
    rejects "a wrong number of modules"
    sed -i.bak 's/instances on [0-9]* platform files/instances on 264 platform files/' "$tmp/t/doc/ARCHITECTURE.md"
    rejects "a wrong number of platform files"
    sed -i.bak 's/[0-9]* commands in [0-9]* `cmd_/15 commands in 15 `cmd_/' "$tmp/t/doc/ARCHITECTURE.md"
    rejects "a wrong number of command files"
    exit "$fail"
fi

check "${1:-${top_srcdir:-.}}"
