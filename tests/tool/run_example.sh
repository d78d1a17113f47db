#!/bin/sh
# Runs the example programs on the shipped platforms, so that examples never rot.
set -eu
: "${top_srcdir:=.}"
for f in "$top_srcdir"/examples/*.json; do
    ./examples/platform_info "$f" 1e6 > /dev/null || { echo "platform_info failed on $f"; exit 1; }
done
out=$(./examples/platform_info "$top_srcdir/examples/paper003_two.json" 2)
# time of 2 units on P1 is max(1 + 2, -9 + 20) = 11
echo "$out" | grep -q "time 11 s" || { echo "unexpected output: $out"; exit 1; }
rows=$(./examples/partition_rows "$top_srcdir/examples/striped_mm.json" 6000)
echo "$rows" | grep -q "makespan .* optimal" || { echo "unexpected output: $rows"; exit 1; }
out=$(./examples/schedule_star "$top_srcdir/examples/paper003_two.json" 2 ./examples/schedule.svg)
echo "$out" | grep -q "makespan 5.750 s" || { echo "unexpected output: $out"; exit 1; }
grep -q "<svg" ./examples/schedule.svg || { echo "no Gantt chart written"; exit 1; }
rm -f ./examples/schedule.svg
out=$(./examples/lu_columns "$top_srcdir/examples/lu_cluster.json" 500)
echo "$out" | grep -q "cost .* lower bound" || { echo "unexpected output: $out"; exit 1; }
echo "examples: ok"
