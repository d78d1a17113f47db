#!/bin/sh
# Defects the differential suite (tests/differential/) found, from the command line, on the
# instances it wrote (tests/data/differential/):
# - envelope_deviates: a speed model whose convex envelope lies 26% below its true time at
#   the load it gets: `schedule --json` gave the envelope's finish times, which `verify`
#   refuted (invalid schedule); the schedule now gives the loads' timeline under the true
#   models, and says it is not proven optimal (the LP's makespan beside it);
# - export_*: LPs written in the platform's units that glpsol solved wrong: a rate of 4e-13
#   s per unit its MPS reader drops (below 1e-12), loads of 10^11 (a point 2% off called
#   optimal), a makespan of a millisecond (its presolver called the optimum 0); the exports
#   now choose their units, and glpsol reaches the LP's optimum (--nopresol: GLPK 5.0's
#   presolver also drops near-parallel memory-level rows, export_presolve);
# - partition_whole_capacity: limits whose whole elements hold one fewer than the elements
#   asked, within the tolerance rule on their sum: a processor was given one element past
#   its limit (time infinite, "optimal"); now infeasible.
# And issue 34's import csv from the command line.
. "${top_srcdir:-.}/tests/support/cli.sh"
data=$top_srcdir/tests/data/differential

# --- the schedule's timeline is the true models', and verify accepts it
v=568692932707.58398
run schedule "$data/envelope_deviates.json" --load $v --json
expect_rc 0 "schedule with a deviating envelope"
cp "$tmp/out" "$tmp/claim.json"
expect_out '"status": "feasible"' "the deviating envelope: feasible, not optimal"
expect_out '"lp_makespan": 4.57410831' "the deviating envelope: the LP's makespan beside"
expect_out '"makespan": 4.96924658' "the deviating envelope: the loads' true makespan"
run verify "$data/envelope_deviates.json" "$tmp/claim.json"
expect_rc 0 "verify of schedule --json"
expect_out "^valid schedule" "verify accepts the schedule's own output"
run schedule "$data/envelope_deviates.json" --load $v
expect_out "makespan 4.96924658 s, not proven optimal by the chain solver" \
    "the text: the true makespan, not proven optimal"
expect_out "the LP, on the speed models' convex envelopes, 4.57410832 s" "the text: the LP's"
expect_err "not proven optimal: the loads were sized on the convex envelopes" \
    "the note says why"

# --- exports that glpsol reads back to the LP's optimum
makespan_lp() { # PLATFORM LOAD: the paper's LP makespan (the chain's)
    "$DLSCHED" schedule "$1" --load "$2" --keep-unused --json 2>/dev/null |
        sed -n 's/.*"lp_makespan": \([0-9.e+-]*\).*/\1/p'
}
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-7 * b) }'; }
for c in export_tiny_rate:243906090.33137029 export_large_loads:300137804143.9884 \
    export_short_times:2.9598670424321183 export_presolve:1; do
    f=$data/${c%%:*}.json
    v=${c#*:}
    want=$(makespan_lp "$f" "$v")
    run export "$f" --load "$v" --format mps -o "$tmp/e.mps"
    expect_rc 0 "export mps of ${c%%:*}"
    run export "$f" --load "$v" --format mathprog -o "$tmp/e.dat"
    expect_rc 0 "export mathprog of ${c%%:*}"
    if [ -n "${GLPSOL:-}" ]; then
        tu=$(sed -n 's/.*times, in units of \([0-9.e+-]*\) s.*/\1/p' "$tmp/e.mps")
        got=$("$GLPSOL" --nopresol --freemps "$tmp/e.mps" -o /dev/stdout 2>&1 |
            sed -n 's/^Objective:  makespan = \([0-9.e+-]*\).*/\1/p')
        got=$(awk -v g="$got" -v t="${tu:-1}" 'BEGIN { printf "%.17g", g * t }')
        same "$got" "$want" || fail "glpsol on the MPS of ${c%%:*}: $got s, the LP $want s"
        got=$("$GLPSOL" --nopresol -m "$top_srcdir/lp/star.mod" -d "$tmp/e.dat" 2>&1 |
            sed -n 's/^makespan \([0-9.e+-]*\)$/\1/p')
        same "$got" "$want" || fail "glpsol on the MathProg of ${c%%:*}: $got s, the LP $want s"
    fi
done

# --- whole elements one short of the load: infeasible, said
run partition "$data/partition_whole_capacity.json" --elements 1118678977
expect_rc 1 "partition: whole elements one short"
expect_err "infeasible: the limits hold at most 1118678976 elements" "the count said"
run schedule "$data/partition_whole_capacity.json" --load 1118678977 --integer
expect_rc 1 "integer schedule: whole units one short"

# --- issue 34's import csv: rows of two nodes under "node" became one averaged processor
printf 'node,size,time\na,100,1.0\na,200,2.0\nb,100,4.0\nb,200,8.1\n' > "$tmp/nodes.csv"
run import csv "$tmp/nodes.csv" -o "$tmp/nodes.json"
expect_rc 0 "import csv with a node column"
run check "$tmp/nodes.json"
expect_out "^  a .*points" "import csv: node a"
expect_out "^  b .*points" "import csv: node b"
printf 'size,seconds,date\n100,1.0,x\n' > "$tmp/date.csv"
run import csv "$tmp/date.csv" -o "$tmp/date.json"
expect_rc 2 "import csv with an unknown column"
expect_err 'column 3, "date", is not a column dlsched reads; accepted: size; time (or seconds' \
    "import csv: the accepted columns named"

cli_summary "${GLPSOL:+glpsol read the exports}"
