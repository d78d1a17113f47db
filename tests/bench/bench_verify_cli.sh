#!/bin/sh
# `dlsched verify` on a large star (issue 17 asks for a referee at the scale of issue 13's
# million processors): the platform of tests/bench/gen_star.sh and its schedule by
# `dlsched schedule --json` (load 10^6 units per processor), then, in turn and RUNS times,
# `dlsched check` (reads and validates the platform), `dlsched verify --no-optimum` (the
# platform, the schedule's JSON and every check) and `dlsched verify` (the same and the three
# optima it measures the schedule against). Prints each command's median wall time and peak
# memory, and the ratios to `check` (the machine is noisy: compare the ratios of one run).
#
# usage: bench_verify_cli.sh DLSCHED [N] [RUNS]     (default N 100000, RUNS 3)
set -eu
dlsched=${1:?usage: bench_verify_cli.sh DLSCHED [N] [RUNS]}
n=${2:-100000}
runs=${3:-3}
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
sh "$here/gen_star.sh" "$n" > "$tmp/star.json"
load=$(awk -v n="$n" 'BEGIN { printf "%.17g", n * 1e6 }')
"$dlsched" schedule "$tmp/star.json" --load "$load" --json > "$tmp/s.json" 2> /dev/null
echo "# dlsched verify, $n processors, load $load: platform $(wc -c < "$tmp/star.json") bytes, schedule $(wc -c < "$tmp/s.json") bytes"
# one command's wall time (s) and peak memory (KiB), by GNU time when there is one
measure() { # OUT ARGS...
    out=$1
    shift
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%e %M" -o "$out" "$@" > /dev/null 2>&1 || true
    else
        t0=$(date +%s.%N)
        "$@" > /dev/null 2>&1 || true
        t1=$(date +%s.%N)
        echo "$t0 $t1" | awk '{ print $2 - $1, "-" }' > "$out"
    fi
}
: > "$tmp/all"
for k in $(seq "$runs"); do
    measure "$tmp/c" "$dlsched" check "$tmp/star.json"
    measure "$tmp/n" "$dlsched" verify "$tmp/star.json" "$tmp/s.json" --no-optimum
    measure "$tmp/v" "$dlsched" verify "$tmp/star.json" "$tmp/s.json"
    echo "$(cat "$tmp/c") $(cat "$tmp/n") $(cat "$tmp/v")" >> "$tmp/all"
done
"$dlsched" verify "$tmp/star.json" "$tmp/s.json" | sed 's/^/#   /'
sort -g -k 5 "$tmp/all" | awk -v runs="$runs" '
    { c[NR] = $1; cm[NR] = $2; n[NR] = $3; nm[NR] = $4; v[NR] = $5; vm[NR] = $6
      rn[NR] = $3 / $1; rv[NR] = $5 / $1 }
    END {
        m = int((NR + 1) / 2)
        printf "| command | wall s (median of %d) | peak memory MiB | / check |\n", runs
        printf "|---|---:|---:|---:|\n"
        printf "| check | %.2f | %s | 1 |\n", c[m], cm[m] == "-" ? "-" : sprintf("%.0f", cm[m] / 1024)
        printf "| verify --no-optimum | %.2f | %s | %.2f |\n", n[m], nm[m] == "-" ? "-" : sprintf("%.0f", nm[m] / 1024), rn[m]
        printf "| verify | %.2f | %s | %.2f |\n", v[m], vm[m] == "-" ? "-" : sprintf("%.0f", vm[m] / 1024), rv[m]
    }'
