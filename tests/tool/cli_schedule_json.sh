#!/bin/sh
# The JSON contract of `dlsched schedule` on the paper's worked example, read by python3
# (skipped without it); cli_schedule.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

run schedule "$ex/star_two.json" --load 2 --json --exact --gantt "$tmp/g.svg"
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

# JSON numbers in the shortest form that reads back as the same double (issue 36, item 2):
# never 17 digits where fewer do (5.0000000000000002e-5), for every command's JSON
for cmd in "schedule $ex/star_cluster.json --load 1e6" "evaluate $ex/star_two.json --loads 1.25,0.75" \
           "partition $ex/memory_levels.json --elements 1e8" "installments $ex/star_ten.json --load 1e10" \
           "lu $ex/lu_cluster.json --columns 100"; do
    # shellcheck disable=SC2086
    run $cmd --json
    expect_rc 0 "$cmd --json"
    py_check "$cmd --json: each number in its shortest form" "$tmp/out" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
json.loads(text)
# the number tokens outside strings
bare = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)
def digits(t):
    m = t.lstrip("-").split("e")[0].split("E")[0].replace(".", "").lstrip("0").rstrip("0")
    return len(m)
for tok in re.findall(r"-?[0-9][0-9.eE+-]*", bare):
    v = float(tok)
    assert digits(tok) <= max(digits(repr(v)), 1), (tok, repr(v))
    assert float(tok) == v
PY
done

cli_summary
