#!/bin/sh
# Checks `dlsched lu` from the outside: the table, the costs in the JSON output, --compare,
# limits and bad usage. cli_lu_json.sh reads the JSON contract with python3 (with the cost
# recomputed from the owners on a platform of constant speeds).
. "${top_srcdir:-.}/tests/support/cli.sh"

# The table.
run lu "$ex/lu_cluster.json" --columns 300
expect_rc 0 "table"
expect_out "gpu" "table lacks a processor"
expect_out "^cost .* lower bound .* (gap" "table lacks the cost line"
expect_out "^owners of columns" "table lacks the owners"
run lu "$ex/lu_cluster.json" --columns 300 --owners
[ "$(grep -c '\.\.\. (--owners' "$tmp/out")" -eq 0 ] || fail "--owners still truncates" "$(cat "$tmp/out")"

# Constant speeds (tests/data/lu_constant.json): every algorithm's JSON output, and the
# costs of the optimal ones.
const=$top_srcdir/tests/data/lu_constant.json
for alg in gb dp reverse fr fdp fgb exact; do
    run lu "$const" --columns 40 --algorithm $alg --json
    expect_rc 0 "json $alg"
    cp "$tmp/out" "$tmp/$alg.json"
done
# with constant speeds DP, Reverse, FR and FDP are optimal
for alg in dp reverse fr fdp; do
    a=$(sed -n 's/.*"cost": \(.*\),/\1/p' "$tmp/$alg.json")
    b=$(sed -n 's/.*"cost": \(.*\),/\1/p' "$tmp/exact.json")
    [ "$a" = "$b" ] || fail "$alg costs $a, the optimum $b"
    grep -q '"status": "optimal"' "$tmp/$alg.json" || fail "$alg not reported optimal"
done

# --compare: every algorithm, the exact one at gap 0.
run lu "$ex/lu_cluster.json" --columns 120 --compare
expect_rc 0 "compare"
for alg in gb dp reverse fr fdp fgb exact; do
    expect_out "^  $alg " "compare lacks $alg"
done
expect_out "^  exact .* 0  optimal" "compare: exact not at gap 0"
run lu "$ex/lu_cluster.json" --columns 120 --compare --json
expect_rc 0 "compare json"
# too large for the exact method: reported, not fatal
run lu "$ex/lu_cluster.json" --columns 3000 --compare --max-memory 1000000
expect_rc 0 "compare without exact"
expect_out "^  exact .*not computed" "compare: exact should be skipped"
expect_out "GAP TO BOUND" "compare: gaps should be to the bound"

# Limits: infeasible (exit 1), Group Block over a limit (exit 1), ignored limits.
cat > "$tmp/tight.json" <<'JSON'
{"processors": [{"name": "a", "speed": 5, "limit": 3}, {"name": "b", "speed": 1, "limit": 4}]}
JSON
run lu "$tmp/tight.json" --columns 8
expect_refused 1 "infeasible" "at most 7 columns"
run lu "$tmp/tight.json" --columns 7 --algorithm gb
expect_rc 1 "gb over a limit"
expect_err "limit" "gb: message"
run lu "$tmp/tight.json" --columns 8 --no-limits --algorithm dp
expect_rc 0 "no limits"

# Bad usage.
run lu "$ex/lu_cluster.json"
expect_rc 2 "missing --columns"
run lu "$ex/lu_cluster.json" --columns 0
expect_rc 2 "zero columns"
run lu "$ex/lu_cluster.json" --columns 10 --algorithm simplex
expect_rc 2 "unknown algorithm"
run lu "$ex/lu_cluster.json" --columns 10 --algorithm dp --heuristic cycl
expect_rc 2 "heuristic without fr"
run lu "$ex/lu_cluster.json" --columns 10 --compare --algorithm fr
expect_rc 2 "compare with an algorithm"
run lu "$ex/lu_cluster.json" --columns 5000 --algorithm exact --max-memory 1000000
expect_rc 2 "exact over the memory cap"
expect_err "memory cap" "exact cap: message"
run lu "$tmp/missing.json" --columns 10
expect_rc 2 "missing platform"

cli_summary
