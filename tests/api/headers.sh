#!/bin/sh
# Every public header compiles on its own (it includes what it needs), as C99 with
# pedantic warnings as errors, and as C++ (extern "C", no C-only constructs); and
# dlsched.h includes them all but dlsched/mpi.h, the optional MPI layer's, which needs
# MPI's headers (MPI_CFLAGS: checked when configure found MPI, skipped otherwise).
. "${top_srcdir:-.}/tests/support/cli.sh"

inc="-I$top_srcdir/include -I${top_builddir:-.}/include"
cc=${CC:-cc}
cxx=${CXX_FOR_TESTS:-}
headers=$(cd "$top_srcdir/include" && ls dlsched/*.h | grep -v '^dlsched/mpi\.h$')
note=""
if [ -n "${MPI_CFLAGS_FOR_TESTS:-}" ]; then
    headers="$headers dlsched/mpi.h"
else
    note="dlsched/mpi.h skipped (no MPI layer)"
fi
[ -f "${top_builddir:-.}/include/dlsched/version.h" ] && headers="$headers dlsched/version.h"
headers="$headers dlsched.h"

compile() { # WHAT COMPILER FLAGS... (the source in $tmp/src)
    what=$1
    shift
    checks=$((checks + 1))
    # shellcheck disable=SC2086
    if ! "$@" $inc $mpi_inc -fsyntax-only "$tmp/src" 2>"$tmp/cc.err"; then
        fail "$what" "$(cat "$tmp/cc.err")"
    fi
}

for h in $headers; do
    mpi_inc=
    [ "$h" = dlsched/mpi.h ] && mpi_inc=$MPI_CFLAGS_FOR_TESTS
    printf '#include <%s>\nint dls_header_test_(void);\nint dls_header_test_(void) { return 0; }\n' "$h" >"$tmp/src"
    compile "$h alone, as C99" "$cc" -x c -std=c99 -pedantic -Wall -Wextra -Werror
    printf '#include <%s>\n#include <%s>\n' "$h" "$h" >"$tmp/src"
    compile "$h twice (include guard)" "$cc" -x c -std=c99 -Werror
    if [ -n "$cxx" ]; then
        printf '#include <%s>\nint main() { return 0; }\n' "$h" >"$tmp/src"
        compile "$h alone, as C++" "$cxx" -x c++ -std=c++11 -pedantic -Wall -Wextra -Werror
    fi
done

# dlsched.h includes every public header
for h in $(cd "$top_srcdir/include" && ls dlsched/*.h | grep -v '^dlsched/mpi\.h$'); do
    checks=$((checks + 1))
    grep -q "<$h>" "$top_srcdir/include/dlsched.h" || fail "dlsched.h does not include $h"
done

[ -n "$cxx" ] || note="${note:+$note; }no C++ compiler: the C++ checks were skipped"
cli_summary "$note"
