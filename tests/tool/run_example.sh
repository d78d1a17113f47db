#!/bin/sh
# Runs the example programs on the shipped platforms, so that examples never rot.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_program ./examples/platform_info ./examples/partition_rows ./examples/schedule_star \
    ./examples/lu_columns

# expect_line WHAT PATTERN COMMAND...: runs COMMAND; a line of its output matches PATTERN.
expect_line() {
    cli_what=$1
    cli_pattern=$2
    shift 2
    checks=$((checks + 1))
    rc=0
    "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
    if [ "$rc" -ne 0 ]; then
        fail "$cli_what: exit status $rc" "$(cat "$tmp/out" "$tmp/err")"
    elif ! grep -q -- "$cli_pattern" "$tmp/out"; then
        fail "$cli_what: unexpected output" "$(cat "$tmp/out")"
    fi
}

for f in "$ex"/*.json; do
    expect_line "platform_info on $f" "" ./examples/platform_info "$f" 1e6
done
# time of 2 units on P1 is max(1 + 2, -9 + 20) = 11
expect_line "platform_info" "time 11 s" ./examples/platform_info "$ex/star_two.json" 2
expect_line "partition_rows" "makespan .* optimal" \
    ./examples/partition_rows "$ex/striped_mm.json" 6000
expect_line "schedule_star" "makespan 5.750 s" \
    ./examples/schedule_star "$ex/star_two.json" 2 "$tmp/schedule.svg"
grep -q "<svg" "$tmp/schedule.svg" || fail "schedule_star: no Gantt chart written"
expect_line "lu_columns" "cost .* lower bound" ./examples/lu_columns "$ex/lu_cluster.json" 500

cli_summary
