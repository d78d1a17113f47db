#!/bin/sh
# Installs, on Debian 12, the packages needed to build and test dlsched: only those that
# are missing, so that running it again costs nothing. Run it as root (or with sudo).
set -eu

# (Open MPI is optional for dlsched; it is installed so that the MPI layer is built and its
# tests run. StarPU is for the tests only: dlsched reads and writes its model files without
# it; the tests calibrate a codelet with it and check against starpu_perfmodel_display.
# Doxygen and mandoc are optional too: Doxygen makes the man3 pages and the HTML reference
# from the header comments, mandoc lints the man pages in make docs-check.
# python3-jsonschema is for the tests only: tests/doc/schemas.sh checks doc/schema/ with it.
# librsvg2-bin too: tests/tool/cli_gantt.sh turns the SVG pictures into PNG with rsvg-convert.
# universal-ctags too: tests/layout/check_lengths.sh measures every function with it.
# SimGrid is optional: dlsched simulate replays schedules in it.
# The Python binding (python/) is optional too: python3-dev, python3-cffi and python3-numpy
# build it, python3-pytest runs its tests, python3-mpi4py binds the MPI layer.)
packages="build-essential autoconf automake libtool pkgconf clang doxygen mandoc
libglpk-dev libgmp-dev glpk-utils libopenblas-dev libjansson-dev libsimdjson-dev libcsv-dev libcmocka-dev lp-solve liblpsolve55-dev
libopenmpi-dev openmpi-bin libsimgrid-dev
libstarpu-dev starpu-tools
python3-jsonschema librsvg2-bin universal-ctags
python3-dev python3-cffi python3-numpy python3-pytest python3-mpi4py"

missing=""
for p in $packages; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    case "$status" in
        *"install ok installed"*) ;;
        *) missing="$missing $p" ;;
    esac
done

if [ -z "$missing" ]; then
    echo "setup-debian: every package is already installed"
    exit 0
fi

echo "setup-debian: installing$missing"
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=sudo
    else
        echo "setup-debian: run as root to install:$missing" >&2
        exit 1
    fi
else
    SUDO=
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
