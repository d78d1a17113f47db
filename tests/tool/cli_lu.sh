#!/bin/sh
# Checks `dlsched lu` from the outside: the table, the JSON contract (with the cost
# recomputed from the owners on a platform of constant speeds), --compare, limits and
# bad usage.
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-lu.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/out" "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# The table.
run lu "$ex/lu_cluster.json" --columns 300
expect_rc 0 "table"
grep -q "gpu" "$tmp/out" || fail "table lacks a processor" "$(cat "$tmp/out")"
grep -q "^cost .* lower bound .* (gap" "$tmp/out" || fail "table lacks the cost line" "$(cat "$tmp/out")"
grep -q "^owners of columns" "$tmp/out" || fail "table lacks the owners" "$(cat "$tmp/out")"
run lu "$ex/lu_cluster.json" --columns 300 --owners
[ "$(grep -c '\.\.\. (--owners' "$tmp/out")" -eq 0 ] || fail "--owners still truncates" "$(cat "$tmp/out")"

# The JSON contract, on constant speeds where the cost is easy to recompute here.
cat > "$tmp/const.json" <<'JSON'
{"processors": [{"name": "a", "speed": 3}, {"name": "b", "speed": 1},
                {"name": "c", "speed": 1.5, "limit": 13}]}
JSON
for alg in gb dp reverse fr fdp fgb exact; do
    run lu "$tmp/const.json" --columns 40 --algorithm $alg --json
    expect_rc 0 "json $alg"
    cp "$tmp/out" "$tmp/$alg.json"
    if [ "$have_python" = yes ]; then
        python3 - "$tmp/out" "$alg" <<'PY' || fail "json contract ($alg)" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
alg = sys.argv[2]
assert d["columns"] == 40 and d["algorithm"] == alg
own = d["owners"]
assert len(own) == 40 and set(own) <= {"a", "b", "c"}
assert own.count("c") <= 13                      # the limit
assert d["counts"] == {k: own.count(k) for k in "abc"}
speed = {"a": 3.0, "b": 1.0, "c": 1.5}
cost = 0.0
for k in range(1, 40):                           # steps 1 .. n-1
    h = 40 - k
    cost += max((h * own[k:].count(q) / speed[q]) for q in "abc")
assert abs(cost - d["cost"]) <= 1e-12 * cost, (cost, d["cost"])
PY
    fi
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
    grep -q "^  $alg " "$tmp/out" || fail "compare lacks $alg" "$(cat "$tmp/out")"
done
grep -q "^  exact .* 0%  optimal" "$tmp/out" || fail "compare: exact not at gap 0" "$(cat "$tmp/out")"
run lu "$ex/lu_cluster.json" --columns 120 --compare --json
expect_rc 0 "compare json"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "compare json" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["algorithm"]: r for r in d["results"]}
assert set(rows) == {"gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"}
best = d["exact_cost"]
assert rows["exact"]["cost"] == best and rows["exact"]["gap"] == 0
assert all(r["cost"] >= best * (1 - 1e-12) for r in rows.values())
assert d["lower_bound"] <= best * (1 + 1e-12)
PY
fi
# too large for the exact method: reported, not fatal
run lu "$ex/lu_cluster.json" --columns 3000 --compare --max-memory 1000000
expect_rc 0 "compare without exact"
grep -q "^  exact .*not computed" "$tmp/out" || fail "compare: exact should be skipped" "$(cat "$tmp/out")"
grep -q "GAP TO BOUND" "$tmp/out" || fail "compare: gaps should be to the bound" "$(cat "$tmp/out")"

# Limits: infeasible (exit 1), Group Block over a limit (exit 1), ignored limits.
cat > "$tmp/tight.json" <<'JSON'
{"processors": [{"name": "a", "speed": 5, "limit": 3}, {"name": "b", "speed": 1, "limit": 4}]}
JSON
run lu "$tmp/tight.json" --columns 8
expect_rc 1 "infeasible"
grep -q "at most 7 columns" "$tmp/err" || fail "infeasible: message" "$(cat "$tmp/err")"
run lu "$tmp/tight.json" --columns 7 --algorithm gb
expect_rc 1 "gb over a limit"
grep -q "limit" "$tmp/err" || fail "gb: message" "$(cat "$tmp/err")"
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
grep -q "memory cap" "$tmp/err" || fail "exact cap: message" "$(cat "$tmp/err")"
run lu "$tmp/missing.json" --columns 10
expect_rc 2 "missing platform"

if [ "$failures" -ne 0 ]; then
    printf '%d failure(s)\n' "$failures"
    exit 1
fi
echo "cli_lu: all checks passed"
