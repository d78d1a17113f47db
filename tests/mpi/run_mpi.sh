#!/bin/sh
# The MPI tests: tests/mpi/test_mpi (libdlsched_mpi) under the MPI launcher with 3 and 4
# ranks, on one machine (Open MPI: --oversubscribe, and --allow-run-as-root as root).
# Reported as SKIP (77) with the reason when configure built no MPI layer.
set -u
if [ -z "${MPIEXEC:-}" ] || [ ! -x tests/mpi/test_mpi ]; then
    echo "SKIP: the MPI tests: ${MPI_SKIP_WHY:-the MPI layer was not built}"
    exit 77
fi
flags=
if "$MPIEXEC" --version 2>&1 | grep -q "Open MPI"; then
    flags="--oversubscribe"
    [ "$(id -u)" = 0 ] && flags="$flags --allow-run-as-root"
fi
# under the sanitizers: what MPI itself keeps until exit is not ours to report
LSAN_OPTIONS="suppressions=${srcdir:-.}/tests/mpi/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-mpi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fails=0
for n in 3 4; do
    mkdir "$tmp/$n"
    # a bound on the whole run: a collective left waiting is a failure, not a hang
    # shellcheck disable=SC2086
    if ! timeout 300 "$MPIEXEC" $flags -np "$n" tests/mpi/test_mpi "$tmp/$n"; then
        echo "FAIL: test_mpi with $n ranks"
        fails=$((fails + 1))
    fi
done
[ "$fails" = 0 ]
