#!/bin/sh
# The JSON contracts of `dlsched crosscheck` and `dlsched schedule --integer /
# --exact-shape`, read by python3 (skipped without it); cli_crosscheck.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

# A load that is not whole: the integer check stands aside.
run crosscheck "$ex/star_cluster.json" --load 2000.5 --json
expect_rc 0 "crosscheck json"
py_json "crosscheck json" <<'PY'
assert d["agree"] is True and d["load"] == 2000.5
c = {x["name"]: x for x in d["checks"]}
assert set(c) == {"zero-communication", "integer-mip", "replay", "solvers", "order"}
assert c["integer-mip"]["ran"] is False and "whole" in c["integer-mip"]["detail"]
assert c["replay"]["ran"] and abs(c["replay"]["relative_difference"]) <= 1e-7
s = c["solvers"]
assert s["ran"] and abs(s["relative_difference"]) <= 1e-7 and s["extra"] <= 1e-7
PY

# Whole-unit schedules: integer loads summing to V, the LP's makespan and the MIP.
run schedule "$ex/star_cluster.json" --load 100000 --integer --json
expect_rc 0 "integer schedule"
py_json "integer json" <<'PY'
loads = [p["load"] for p in d["processors"]]
assert all(isinstance(x, int) and x >= 0 for x in loads), loads
assert sum(loads) == 100000
assert d["lp_makespan"] > 0 and d["makespan"] > 0
assert d["mip_status"] in ("optimal", "feasible")
assert d["rounded_makespan"] >= d["makespan"] * (1 - 1e-12)
assert abs(d["gap"] - (d["makespan"] - d["lp_makespan"]) / d["lp_makespan"]) < 1e-12
PY

# The exact shape: never worse than the LP's loads under the true models.
run schedule "$ex/star_cluster.json" --load 1000000 --exact-shape --json
expect_rc 0 "exact shape"
py_json "exact-shape json" <<'PY'
assert d["makespan"] <= d["lp_true_makespan"] * (1 + 1e-12)
assert d["mip_status"] in ("optimal", "feasible")
assert abs(sum(p["load"] for p in d["processors"]) - 1e6) <= 1e-6
PY

cli_summary
