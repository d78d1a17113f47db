#!/bin/sh
# Checks `dlsched installments` from the outside: the paper's setting (formula (5) gives 1e4,
# Fig. 10's makespans against the LP), the sweep and the fallback to it, the Gantt chart,
# limits, and exit status 2 for bad usage and bad input. cli_installments_json.sh reads
# the JSON contract and the charts with python3.
. "${top_srcdir:-.}/tests/support/cli.sh"
paper=$ex/star_ten.json

# The paper's setting: the suggested chunk size (formula (5)) is 1e4; at 1e10 units a round and a chunk both last
# 10 s, so the last processor finishes round 1e5 - 1 at 10 + 10 + 10 (1e5 - 1) s.
run installments "$paper" --load 1e10
expect_rc 0 "paper setting"
expect_out "chunk sizes worth trying: above 0.101009 and up to 100000000 units (above it, \"P1\" runs out of memory" "range"
expect_out "suggested chunk size: 10000 units, the smallest with which no processor waits for its next chunk (set by \"P1\")" "formula"
expect_out "chunk size: 10000 units (the suggested one)" "chunk used"
expect_out "the load is sent as 1000000 chunks in 100000 rounds over 10 processors: in each round every processor" "rounds"
expect_out "receives one chunk in turn" "what a round is"
expect_out "a full round of sends takes 10 s" "round time"
expect_out "makespan 1000010 s: when the last processor finishes its last chunk" "makespan"
expect_out "makespan 9[0-9.]* s (optimal); this schedule takes 0.011" "LP makespan and ratio"
expect_out "P10 .*works .*100000 " "processor table"
expect_out "LOAD (units) .*FINISH (s)" "units in the headers"
# no paper numbers or symbols in the report (issue 36, item 4)
if grep -q -E "formula \(|A_i|sum C|sum S|paper'|paper [0-9]" "$tmp/out" "$tmp/err"; then
    fail "paper setting: a paper's number or symbol in the report" "$(cat "$tmp/out" "$tmp/err")"
fi
[ ! -s "$tmp/err" ] || fail "paper setting: unexpected messages" "$(cat "$tmp/err")"

# delta = 5 on 1e11 units: 2e9 rounds of 0.014995 s, plus the last chunk's 0.005 s.
run installments "$paper" --load 1e11 --chunk 5 --json
expect_rc 0 "delta = 5"

# One chunk below delta: only P1 works, with warnings.
run installments "$paper" --load 5e3
expect_rc 0 "one chunk"
expect_out "makespan 5.5005 s" "one chunk makespan"
expect_err "only 1 of the 10 processors in the rotation gets one" "one chunk note"
expect_err "chunk sweep finds a better chunk size" "one chunk hint"

# The sweep: never worse than the formula's chunk.
run installments "$paper" --load 1e10 --chunk sweep --json --no-compare
expect_rc 0 "sweep"
run installments "$paper" --load 1e6 --chunk sweep
expect_rc 0 "sweep text"
expect_out "(swept: the best of [0-9]* sizes simulated)" "sweep text"

# A network too slow for the formula: warning, then the sweep.
sed 's/9.99e-5/2e-4/g' "$paper" >"$tmp/slow.json"
run installments "$tmp/slow.json" --load 1e8 --json --no-compare
expect_rc 0 "formula undefined"
expect_err "no chunk size can be suggested: processor \"P1\": it computes a unit in" "formula undefined warning"
if grep -q -E "A_i|sum C|denominator" "$tmp/err"; then
    fail "formula undefined: a paper's symbol in the warning" "$(cat "$tmp/err")"
fi
expect_err "sweeping the chunk size instead" "fallback"
expect_out '"chunk_source": "sweep"' "fallback source"
expect_out '"status": "denominator"' "formula status"

# The formula beyond a limit: out of the range, swept; the LP cannot hold the load.
cat >"$tmp/limits.json" <<'JSON'
{"processors": [
  {"name": "a", "time": [[0, 1e-3], [-9.9e6, 0.1]], "link": {"startup": 1e-3, "rate": 9.99e-5}, "limit": 1},
  {"name": "b", "time": [[0, 1e-3], [-9.9e6, 0.1]], "link": {"startup": 1e-3, "rate": 9.99e-5}, "limit": 2e4}
]}
JSON
run installments "$tmp/limits.json" --load 1e6
expect_rc 0 "limits"
expect_err "is not among those worth trying: the suggested chunk size 2.49938 is above the largest worth considering, 1 (the limit of processor \"a\")" "out of range"
expect_out "(above it, \"a\" cannot hold a chunk: its limit)" "limit sets the upper end"
expect_out "single installment (sized by the LP): infeasible" "LP infeasible"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e4
expect_rc 0 "a processor left out"
expect_err "processor \"a\": its limit 1 is below the chunk size 10000: left out" "left-out note"
expect_out "a .*left out" "left-out role"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e5
expect_rc 2 "no processor holds the chunk"
expect_err "no processor can hold a chunk of 100000 units: the largest limit is 20000" "no processor message"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e5 --no-limits --no-compare
expect_rc 0 "--no-limits"
expect_out "single installment (sized by the LP): skipped" "--no-compare"

# The Gantt chart, long (with a break) and short.
run installments "$paper" --load 1e10 --gantt "$tmp/long.svg" --no-compare
expect_rc 0 "gantt"
grep -q "<svg" "$tmp/long.svg" && grep -q "originator (sends)" "$tmp/long.svg" &&
    grep -q "99994 rounds left out" "$tmp/long.svg" || fail "gantt chart (long)"
run installments "$paper" --load 3e5 --gantt "$tmp/short.svg" --gantt-rounds 5 --no-compare
expect_rc 0 "gantt short"
n=$(grep -c "<title>chunk " "$tmp/short.svg" || true)
[ "$n" -eq 30 ] || fail "gantt chart (short): $n chunks drawn, expected 30"
run installments "$paper" --load 1e10 --gantt /nonexistent/dir/g.svg
expect_rc 2 "unwritable gantt"
expect_err "/nonexistent/dir/g.svg" "unwritable gantt message"

# Usage errors and bad input.
run installments "$paper"
expect_rc 2 "no --load"
run installments "$paper" --load -3
expect_rc 2 "negative load"
for c in abc 0 -1 inf nan 1e4x; do
    run installments "$paper" --load 1e6 --chunk "$c"
    expect_rc 2 "--chunk $c"
    expect_err "chunk must be a number > 0, formula or sweep" "--chunk $c message"
done
run installments "$paper" --load 1e20 --chunk 1
expect_rc 2 "too many chunks"
expect_err "more than 2^53" "too many chunks message"
run installments "$paper" --load 1e6 --gantt-rounds 0
expect_rc 2 "--gantt-rounds 0"
run installments "$paper" --load 1e6 --bogus
expect_rc 2 "unknown option"
run installments "$ex/cluster.json" --load 10
expect_rc 2 "2-D model"
expect_err 'processor "gpu0" has a 2-D speed model' "2-D message"
run installments "$tmp/missing.json" --load 10
expect_rc 2 "missing platform"
run help installments
expect_rc 0 "help"
expect_out "Usage: dlsched installments PLATFORM --load V" "help text"

cli_summary
