#!/bin/sh
# The JSON contract of `dlsched lu`, read by python3 (skipped without it): the owners, the
# counts and the cost recomputed from the owners on a platform of constant speeds, and
# --compare. cli_lu.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

for alg in gb dp reverse fr fdp fgb exact; do
    run lu "$top_srcdir/tests/data/lu_constant.json" --columns 40 --algorithm $alg --json
    expect_rc 0 "json $alg"
    py_json "json contract ($alg)" "$tmp/out" "$alg" <<'PY'
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
done

run lu "$ex/lu_cluster.json" --columns 120 --compare --json
expect_rc 0 "compare json"
py_json "compare json" <<'PY'
rows = {r["algorithm"]: r for r in d["results"]}
assert set(rows) == {"gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"}
best = d["exact_cost"]
assert rows["exact"]["cost"] == best and rows["exact"]["gap"] == 0
assert all(r["cost"] >= best * (1 - 1e-12) for r in rows.values())
assert d["lower_bound"] <= best * (1 + 1e-12)
PY

cli_summary
