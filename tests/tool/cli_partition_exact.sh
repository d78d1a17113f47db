#!/bin/sh
# `dlsched partition --matrix` with the exact row programme: the automatic switch when a
# shape breaks (warning and "exact" key), --exact and --geometric, their usage errors and
# the bound. Its JSON keys are checked in cli_partition_json.sh.
. "${top_srcdir:-.}/tests/support/cli.sh"

# Two processors whose time of r rows falls and rises along the rows (19 rows: the
# geometric answer is about 26% above the best split; tests/partition/test_partition_exact.c
# has the same case).
cp "$top_srcdir/tests/data/bumpy_rows.json" "$tmp/bumpy.json"

# The default switches to the exact programme and says why.
run partition "$tmp/bumpy.json" --matrix 19
expect_rc 0 "auto"
expect_out "method: exact row programme" "auto: no method line"
expect_out "optimal" "auto: not optimal"
expect_err "the exact row programme was used" "auto: no switch note"
auto_out=$(grep makespan "$tmp/out")

# --geometric keeps the old answer: feasible, higher.
run partition "$tmp/bumpy.json" --matrix 19 --geometric
expect_rc 0 "geometric"
expect_out "method: geometric" "geometric: no method line"
expect_out "feasible" "geometric: not feasible"
expect_err "may not be optimal" "geometric: no warning"

# --exact on a platform whose shapes hold: no warning, same makespan as the default.
run partition "$ex/striped_mm.json" --matrix 3000
expect_out "method: geometric" "striped default: not geometric"
m1=$(sed -n 's/^makespan \([^ ]*\) s.*/\1/p' "$tmp/out")
run partition "$ex/striped_mm.json" --matrix 3000 --exact
expect_rc 0 "striped exact"
expect_out "method: exact row programme" "striped exact: no method line"
m2=$(sed -n 's/^makespan \([^ ]*\) s.*/\1/p' "$tmp/out")
[ "$m1" = "$m2" ] || fail "striped: geometric $m1 and exact $m2 differ"
[ -s "$tmp/err" ] && fail "striped exact: unexpected warning" "$(cat "$tmp/err")"

# Usage errors.
run partition "$ex/striped_mm.json" --matrix 30 --exact --geometric
expect_refused 2 "--exact with --geometric" "cannot be combined"
run partition "$ex/memory_levels.json" --elements 30 --exact
expect_refused 2 "--exact without --matrix" "applies to --matrix"

# Past the programme's bound: --exact fails, the default keeps the geometric answer.
run partition "$tmp/bumpy.json" --matrix 8388608 --exact
expect_refused 2 "--exact past the bound" "the exact row programme would store"
run partition "$tmp/bumpy.json" --matrix 8388608
expect_rc 0 "auto past the bound"
expect_err "would store" "auto past the bound: no warning"
expect_out "method: geometric" "auto past the bound: not geometric"

cli_summary
