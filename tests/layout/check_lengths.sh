#!/bin/sh
# Functions that read in one sitting: no function of the tracked C and C++ sources (src/,
# tool/, mpi/, simgrid/, smpi/, lp/, examples/, fuzz/, tests/ but tests/data/) runs over
# 120 lines, from its first line to its closing brace, as universal-ctags measures it
# (a test written with the TEST(name) macro shows under the name TEST).
# The exceptions are the ALLOWED list below, each with its reason: a reader with one case
# per key of its format, and generated files (a function name "*" allows a whole file).
# The five longest functions are printed for the record.
#
# Usage: check_lengths.sh [SRCDIR]   (default: $top_srcdir, or .). Without ctags (universal
# ctags: scripts/setup-debian.sh installs it) the check is skipped (exit 77).
# check_lengths.sh --self-test runs the checker on small trees and fails unless it accepts
# a function of 120 lines and an allowed one, and rejects one of 121 lines.
set -u

LIMIT=120

# FILE FUNCTION REASON (FUNCTION "*": every function of a generated FILE)
ALLOWED='
src/io/platform_simdjson.cc read_processor one case per key of a processor object of the platform format
src/io/platform_simdjson.cc read_speed2d one case per key of a two-dimensional speed function
'

FOLDERS="src tool mpi simgrid smpi lp examples fuzz tests"

# the C and C++ sources to measure, relative to the tree: the tracked ones where git knows
# the tree, else those on disk (a distribution tree), tests/data/ left out either way
sources() {
    if command -v git >/dev/null 2>&1 && git -C "$1" rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
        [ "$(cd "$1" && git rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$1" && pwd -P)" ]; then
        # shellcheck disable=SC2086 # (the folders, one word each)
        (cd "$1" && git ls-files -- $FOLDERS)
    else
        (cd "$1" && for d in $FOLDERS; do [ -d "$d" ] && find "$d" -type f; done)
    fi | grep -E '\.(c|cc|cpp|h|hh|hpp)$' | grep -v '^tests/data/' | sort
}

check() {
    root=$1
    sources "$root" > "$tmp/files"
    if [ ! -s "$tmp/files" ]; then
        echo "check_lengths: no C or C++ sources under $root"
        return 1
    fi
    tab=$(printf '\t')
    # NAME FILE LINE LENGTH, one line a function, tab-separated (a name may hold spaces:
    # "operator []")
    (cd "$root" && xargs ctags --output-format=u-ctags --fields=+ne --c-kinds=f --c++-kinds=f \
        -o - < "$tmp/files" 2>/dev/null) | awk -F'\t' '
        /^!_/ { next }
        { l = ""; e = ""
          for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
          if (l != "" && e != "") print $1 "\t" $2 "\t" l "\t" (e - l + 1) }' > "$tmp/lengths"
    if [ ! -s "$tmp/lengths" ]; then
        echo "check_lengths: ctags found no function (is it universal-ctags?)"
        return 1
    fi
    echo "check_lengths: the five longest functions:"
    sort -t "$tab" -k4,4nr -k2,2 -k3,3n "$tmp/lengths" | head -n 5 | awk -F'\t' '{ printf "    %4d lines  %s:%s %s\n", $4, $2, $3, $1 }'
    echo "$ALLOWED" > "$tmp/allowed"
    awk -F'\t' -v limit="$LIMIT" -v out="$tmp/over" '
        NR == FNR { if (split($0, a, " ") >= 2) { k = a[1] " " a[2]; ok[k] = 1; r = $0; sub(/^ *[^ ]+ +[^ ]+ +/, "", r); why[k] = r } next }
        $4 > limit {
            k = $2 " " $1
            if (!(k in ok)) k = $2 " *"
            if (k in ok) printf "check_lengths: allowed: %s:%s: %s, %d lines: %s\n", $2, $3, $1, $4, why[k]
            else printf "check_lengths: %s:%s: %s is %d lines (at most %d)\n", $2, $3, $1, $4, limit > out
        }' "$tmp/allowed" "$tmp/lengths"
    [ -f "$tmp/over" ] || return 0
    sort -t: -k1,1 -k2,2n "$tmp/over"
    return 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-lengths.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! command -v ctags >/dev/null 2>&1 || ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "check_lengths: SKIP: universal-ctags is not installed (scripts/setup-debian.sh installs it): the lengths of functions were not checked"
    exit 77
fi

if [ "${1:-}" = "--self-test" ]; then
    # FILE NAME LINES: append a C function of LINES lines to FILE
    fn() {
        mkdir -p "$(dirname "$1")"
        awk -v name="$2" -v n="$3" 'BEGIN { print "int " name "(int x)"; print "{"
            for (i = 1; i <= n - 4; i++) print "    x += " i ";"; print "    return x;"; print "}" }' >> "$1"
    }
    root=$tmp/tree
    fn "$root/src/low/low.c" brief 120
    fn "$root/tests/low/test_low.c" fine 10
    fn "$root/src/io/platform_simdjson.cc" read_processor 200
    fn "$root/tests/data/big.c" data 300
    out=$(check "$root" 2>&1) || { echo "self-test: a tree that follows the rule was rejected: $out"; exit 1; }
    check_copy() { check "$1"; }
    rejection() { grep -v 'allowed:\|five longest\|^    ' | head -n 1; }
    . "$(dirname "$0")/selftest.sh"
    expect_reject "a function of 121 lines in src/" 'fn src/low/low.c lengthy 121'
    expect_reject "a long function in tests/" 'fn tests/low/test_low.c lengthy 200'
    expect_reject "a long function in the tool" 'fn tool/main.c lengthy 200'
    expect_reject "a long function of an allowed file, not allowed itself" 'fn src/io/platform_simdjson.cc read_other 200'
    expect_reject "an allowed name in another file" 'fn src/io/other.cc read_processor 200'
    exit $failed
fi

if check "${1:-${top_srcdir:-.}}"; then
    echo "check_lengths: no function is over $LIMIT lines but the allowed ones"
    exit 0
fi
exit 1
