#!/bin/sh
# `dlsched schedule` against `dlsched check` on the same large star platform (issue 13: at
# 10^6 processors the schedule, default mode, takes at most 1.5 times the check, which reads
# and validates the file). Both commands run in turn and the ratio is taken pair by pair
# (farm-bench where the workplace has it, else /usr/bin/time-free wall clocks of `date`).
# The platform is tests/bench/gen_star.sh's; the load is 10^6 units per processor, so that
# the link is the bottleneck and the selection matters.
#
# usage: bench_schedule_cli.sh DLSCHED [N] [RUNS]     (default N 100000, RUNS 3)
# exit status 1 when the median ratio exceeds the goal.
set -eu
dlsched=${1:?usage: bench_schedule_cli.sh DLSCHED [N] [RUNS]}
n=${2:-100000}
runs=${3:-3}
goal=1.5
here=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
sh "$here/gen_star.sh" "$n" > "$tmp/star.json"
load=$(awk -v n="$n" 'BEGIN { printf "%.17g", n * 1e6 }')
echo "# dlsched schedule (default: the chain, best set) vs dlsched check, $n processors, load $load"
"$dlsched" schedule "$tmp/star.json" --load "$load" --json > "$tmp/s.json" 2> "$tmp/s.err"
sed -n 's/^  "\(makespan\|optimal\|used\|pieces\)": \(.*\),$/#   \1 \2/p' "$tmp/s.json"
if command -v farm-bench >/dev/null 2>&1; then
    farm-bench -n "$runs" --timeout 1800 --vs "$dlsched check $tmp/star.json" -- \
        "$dlsched" schedule "$tmp/star.json" --load "$load" | tee "$tmp/fb"
    ratio=$(awk '$1 == "A/B" && $2 == "wall" { print $4 }' "$tmp/fb" | head -n 1)
else
    ratio=$(
        for k in $(seq "$runs"); do
            t0=$(date +%s.%N); "$dlsched" schedule "$tmp/star.json" --load "$load" >/dev/null 2>&1
            t1=$(date +%s.%N); "$dlsched" check "$tmp/star.json" >/dev/null 2>&1
            t2=$(date +%s.%N)
            echo "$t0 $t1 $t2" | awk '{ print ($2 - $1) / ($3 - $2) }'
        done | sort -g | awk '{ r[NR] = $1 } END { print r[int((NR + 1) / 2)] }')
fi
echo "# median ratio schedule / check: ${ratio:-?} (goal <= $goal)"
[ -n "$ratio" ] && awk -v r="$ratio" -v g="$goal" 'BEGIN { exit !(r <= g) }'
