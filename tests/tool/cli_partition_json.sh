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

# Matrix rows with the exact row programme (cli_partition_exact.sh checks the rest): the
# "exact" key, the switch's note, gap 0.
cp "$top_srcdir/tests/data/bumpy_rows.json" "$tmp/bumpy.json"
run partition "$tmp/bumpy.json" --matrix 19 --json
expect_rc 0 "matrix auto json"
py_json "matrix auto json" <<'PY'
assert d["exact"] is True, d
assert d["status"] == "optimal" and d["gap"] == 0 and d["lower_bound"] == d["makespan"], d
assert d["shape_ok"] is False
assert "the exact row programme was used" in d["note"], d["note"]
assert sum(p["elements"] for p in d["processors"]) == 19
PY
run partition "$tmp/bumpy.json" --matrix 19 --geometric --json
expect_rc 0 "matrix geometric json"
py_json "matrix geometric json" <<'PY'
assert d["exact"] is False, d
assert d["status"] == "feasible"
assert "may not be optimal" in d["note"]
PY
run partition "$ex/memory_levels.json" --elements 1000 --json
py_json "elements: exact false" <<'PY'
assert d["exact"] is False, d
PY

run partition "$ex/star_cluster.json" --elements 1000000 --json
py_json "links said in the JSON" <<'PY'
assert "partition problem leaves out" in d["links"] and "dlsched schedule" in d["links"], d
PY
printf '{"processors": [{"name": "a", "speed": 5e8}, {"name": "b", "speed": 3e7}]}\n' \
    > "$tmp/nolinks.json"
run partition "$tmp/nolinks.json" --elements 1000 --json
py_json "no links, no word of them" <<'PY'
assert "links" not in d, d
PY

cli_summary
