#!/bin/sh
# `make check`'s run of the differential suite: DLS_DIFF_N cases (600 by default) of seed
# DLS_DIFF_SEED (a fixed default), DLS_DIFF_SECONDS at most when set. The instances of
# failing cases go to tests/differential/failures/ in the build tree, and the log names the
# seed and the case, and how to run it again.
set -eu
out=tests/differential/failures
mkdir -p "$out"
exec ./tests/differential/differential --out "$out" ${DLS_DIFF_SECONDS:+--seconds "$DLS_DIFF_SECONDS"}
