#!/bin/sh
# make docs-check: the reference made from the header comments is complete and clean.
# Fails on
# - any Doxygen warning (an undocumented public function, type, field or enum value, a link
#   that does not resolve, a malformed command): fix the comment in the header;
# - a function exported by libdlsched (or libdlsched_mpi, when built) without a man3 page,
#   or a link page whose target is missing;
# - anything mandoc -T lint reports at level warning or above in doc/dlsched.1, doc/dlsched.3
#   and the generated pages, but for two kinds of warning that come from how Doxygen lays
#   out every page (empty or doubled paragraph macros, a date not in mandoc's format) and
#   say nothing about the comments.
# Usage: docs-check.sh SRCDIR APIDIR, from the build tree, after make man3. Skipped (exit 0,
# saying why) without Doxygen (DOXYGEN empty); the lint is skipped without mandoc.
set -u
srcdir=$1
api=$2
if [ -z "${DOXYGEN:-}" ]; then
    echo "docs-check: skipped: ${doxygen_why:-doxygen not found}"
    exit 0
fi
fail=0
bad() { echo "docs-check: FAIL: $*"; fail=1; }

if [ -s "$api/man-warnings.log" ]; then
    bad "Doxygen warnings (fix the header comments):"
    cat "$api/man-warnings.log"
fi

pages="$api/man3"
checked=0
for lib in .libs/libdlsched.so .libs/libdlsched_mpi.so; do
    [ -f "$lib" ] || continue
    for sym in $(nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^dls_/ { print $3 }'); do
        checked=$((checked + 1))
        [ -f "$pages/$sym.3" ] || bad "$sym (exported by $lib) has no man3 page"
    done
done
if [ "$checked" -eq 0 ]; then
    echo "docs-check: exported functions not checked: no shared library in .libs (--disable-shared?)"
fi
real=""
for f in "$pages"/*.3; do
    first=$(sed -n 1p "$f")
    case $first in
        ".so man3/"*) [ -f "$pages/${first#.so man3/}" ] || bad "${f##*/} points to a missing page: $first" ;;
        *) real="$real $f" ;;
    esac
done

if [ -z "${MANDOC:-}" ]; then
    echo "docs-check: man pages not linted: mandoc not found (install the Debian package mandoc)"
else
    out=$("$MANDOC" -T lint -W warning "$srcdir/doc/dlsched.1" "$srcdir/doc/dlsched.3" 2>&1)
    [ -z "$out" ] || bad "mandoc on the hand-written pages:
$out"
    # shellcheck disable=SC2086
    out=$("$MANDOC" -T lint -W warning $real 2>&1 |
        grep -v -e 'WARNING: skipping paragraph macro' -e 'WARNING: cannot parse date')
    [ -z "$out" ] || bad "mandoc on the generated pages (fix the header comments):
$out"
fi

npages=$(find "$pages" -name "*.3" | wc -l)
if [ "$fail" -eq 0 ]; then
    echo "docs-check: OK: no Doxygen warning; $checked exported functions, each with its page;" \
        "$npages man3 pages${MANDOC:+ and the hand-written pages} clean under mandoc -T lint"
fi
exit "$fail"
