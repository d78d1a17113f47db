#!/bin/sh
# The JSON contract of `dlsched schedule` on the paper's worked example, read by python3
# (skipped without it); cli_schedule.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

run schedule "$ex/paper003_two.json" --load 2 --json --exact --gantt "$tmp/g.svg"
expect_rc 0 "paper example json"
py_json "schedule json contract" <<'PY'
assert d["load"] == 2 and abs(d["makespan"] - 5.75) < 1e-9 and d["status"] == "optimal"
p = d["processors"]
assert [x["name"] for x in p] == ["P1", "P2"]
assert abs(p[0]["load"] - 1.25) < 1e-9 and abs(p[1]["load"] - 0.75) < 1e-9
for x in p:
    for k in ("send_start", "send_end", "compute_time", "finish", "idle", "level"):
        assert k in x, k
assert p[0]["level"] == 2 and p[1]["level"] == 1
assert abs(p[1]["send_start"] - 2.25) < 1e-9 and abs(p[1]["send_end"] - 4) < 1e-9
assert d["exact_verified"] is True
PY

cli_summary
