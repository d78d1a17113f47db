#!/bin/sh
# The JSON contract of `dlsched partition`, read by python3 (skipped without it);
# cli_partition.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

run partition "$ex/memory_levels.json" --elements 100000000 --json
expect_rc 0 "json"
py_json "json contract" <<'PY'
assert d["elements"] == 100000000
assert d["makespan"] >= d["lower_bound"] > 0
names = [p["name"] for p in d["processors"]]
assert names == ["old-xeon", "new-epyc", "laptop", "gpu"], names
assert sum(p["elements"] for p in d["processors"]) == 100000000
assert max(p["time"] for p in d["processors"]) == d["makespan"]
assert all(p["time"] == 0 for p in d["processors"] if p["elements"] == 0)
assert d["status"] == "optimal"
assert all(isinstance(p["elements"], int) for p in d["processors"])
PY

cli_summary
