#!/bin/sh
# A bounded soak of the differential suite, as CI runs it: SECONDS of cases (default 180)
# from a seed that changes with every run (the time, unless a second argument gives one),
# printed first so that a failure can be run again. Run from the top of a built tree;
# failing instances go to tests/differential/failures/.
#
# usage: tests/differential/soak.sh [SECONDS [SEED]]
set -eu
seconds=${1:-180}
seed=${2:-$(date +%s)}
echo "differential soak: seed $seed, $seconds s (run again: tests/differential/soak.sh $seconds $seed)"
out=tests/differential/failures
mkdir -p "$out"
exec ./tests/differential/differential --seed "$seed" --cases 100000000 --seconds "$seconds" \
    --out "$out"
