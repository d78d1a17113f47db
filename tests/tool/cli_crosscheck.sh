#!/bin/sh
# Checks `dlsched crosscheck` and `dlsched schedule --integer / --exact-shape` from the
# outside: verdicts and exit codes, whole-number loads, bad usage. The JSON contracts are
# read by python3 in cli_crosscheck_json.sh.
. "${top_srcdir:-.}/tests/support/cli.sh"

# The paper's example: everything agrees, exit 0.
run crosscheck "$ex/star_two.json" --load 2
expect_rc 0 "crosscheck paper"
for name in zero-communication integer-mip replay; do
    expect_out "^  $name  *agree" "crosscheck lacks $name"
done
expect_out "all checks agree" "crosscheck verdict"
# A measured model that is not convex: the LP is a lower bound there.
run crosscheck "$ex/star_cluster.json" --load 20000
expect_rc 0 "crosscheck non-convex"
expect_out "not convex" "crosscheck: non-convex not said"
# A load that is not whole: the integer check stands aside.
run crosscheck "$ex/star_cluster.json" --load 2000.5 --json
expect_rc 0 "crosscheck json"
run crosscheck "$ex/cluster.json" --load 10
expect_rc 2 "crosscheck with a 2-D model"
expect_err "2-D" "crosscheck 2-D message"
run crosscheck "$ex/star_cluster.json"
expect_rc 2 "crosscheck without a load"

# Whole-unit schedules: integer loads summing to V, the LP's makespan and the MIP.
run schedule "$ex/star_cluster.json" --load 100000 --integer --json
expect_rc 0 "integer schedule"
run schedule "$ex/star_cluster.json" --load 100000 --integer --mip no --json
expect_rc 0 "integer without MIP"
expect_out '"mip_status": "not solved"' "--mip no"
run schedule "$ex/star_cluster.json" --load 100000 --integer
expect_rc 0 "integer table"
expect_out "^whole-unit loads: .* gap" "integer summary"
run schedule "$ex/star_cluster.json" --load 1000.5 --integer
expect_rc 2 "integer with a fractional load"
run schedule "$ex/star_cluster.json" --load 1000 --mip yes
expect_rc 2 "--mip without --integer"

# Issue 34: two processors of 2e8 and 3e7 units per second, no links, 10^8 units: the MIP
# once called all of them on the slow one (3.33 s) optimal, and the cross-check differed
# without saying which side was proven. The integer schedule is the partitioner's optimum
# (0.43478261 s, proven), and every check agrees, at 10^8 as at 10 and 10^12 units.
printf '{"processors": [{"name": "fast", "speed": 2e8}, {"name": "slow", "speed": 3e7}]}\n' \
    > "$tmp/two.json"
for v in 10 100000000 1000000000000; do
    run crosscheck "$tmp/two.json" --load $v
    expect_rc 0 "crosscheck of two constant speeds at $v units"
    expect_out "^all checks agree" "crosscheck at $v: all agree"
done
run schedule "$tmp/two.json" --load 1e8 --integer --mip yes
expect_rc 0 "integer schedule at 1e8 units"
expect_out "^whole-unit loads: 0.43478261 s (optimal: lower bound 0.43478261 s)" \
    "integer schedule at 1e8: the partitioner's optimum, proven"
expect_out "^MIP: 0.43478261 s" "integer schedule at 1e8: the MIP agrees"
run crosscheck "$ex/star_cluster.json" --load 1e8
expect_rc 0 "crosscheck of star_cluster at 1e8 units"
run crosscheck "$ex/star_cluster.json" --load 1e8 --json
expect_out '"proven": null' "crosscheck --json: no side proven where the sides agree"

# The exact shape: never worse than the LP's loads under the true models.
run schedule "$ex/star_cluster.json" --load 1000000 --exact-shape --json
expect_rc 0 "exact shape"

cli_summary
