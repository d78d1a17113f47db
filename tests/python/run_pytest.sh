#!/bin/sh
# The Python binding's tests (tests/python/test_*.py), run by pytest on the package as the
# build tree holds it (python/build). Its summary line ends this suite's log, and make
# check prints it (tests/local.mk, check-local). SKIP (77) when the binding or pytest was
# not built (configure says why).
set -eu
if [ -z "${DLS_PYTHON:-}" ]; then
    echo "SKIP: the Python binding is not built: ${DLS_PYTHON_WHY:-configure found no python3 with cffi and numpy}"
    exit 77
fi
if [ -z "${DLS_PYTEST:-}" ]; then
    echo "SKIP: pytest is missing for $DLS_PYTHON (install the Debian package python3-pytest)"
    exit 77
fi
here=$(pwd)
PYTHONPATH="$here/python/build${PYTHONPATH:+:$PYTHONPATH}"
DLSCHED=$(cd "$(dirname "$DLSCHED")" && pwd)/$(basename "$DLSCHED")
DLS_TOP_SRCDIR=$(cd "$top_srcdir" && pwd)
DLS_TOP_BUILDDIR=$here
export PYTHONPATH DLSCHED DLS_TOP_SRCDIR DLS_TOP_BUILDDIR
# (-p no:cacheprovider: nothing written into the source tree, which distcheck makes read-only)
exec "$DLS_PYTHON" -m pytest -p no:cacheprovider -q -rs ${DLS_PYTEST_ARGS:-} "$DLS_TOP_SRCDIR/tests/python"
