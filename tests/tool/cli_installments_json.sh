#!/bin/sh
# The JSON contract of `dlsched installments` and its Gantt charts as XML, read by python3
# (skipped without it); cli_installments.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
paper=$ex/star_ten.json

# delta = 5 on 1e11 units: 2e9 rounds of 0.014995 s, plus the last chunk's 0.005 s.
run installments "$paper" --load 1e11 --chunk 5 --json
expect_rc 0 "delta = 5"
py_json "json contract" <<'PY'
for k in ("load", "chunk", "makespan", "single_installment_makespan", "rounds", "chunks",
          "range", "formula", "processors", "ratio", "round_time", "last_chunk", "rotation",
          "chunk_source", "single_installment_status"):
    assert k in d, k
assert d["load"] == 1e11 and d["chunk"] == 5 and d["chunk_source"] == "given"
assert d["chunks"] == 2 * 10**10 and d["rounds"] == 2 * 10**9 and d["rotation"] == 10
assert abs(d["makespan"] - 29990000.005) < 1e-6 * 29990000
assert d["single_installment_status"] == "optimal"
assert d["single_installment_makespan"] > 20 * d["makespan"]
assert abs(d["ratio"] - d["makespan"] / d["single_installment_makespan"]) < 1e-12
r = d["range"]
assert abs(r["lower"] - 0.01 / (0.1 - 9.99e-4)) < 1e-9 and abs(r["upper"] - 1e8) < 1e-3
assert r["lower_status"] == "defined" and r["upper_processor"] == "P1"
assert r["upper_kind"] == "swap point" and r["empty"] is False
f = d["formula"]
assert f["status"] == "defined" and abs(f["value"] - 1e4) < 1e-5 and f["in_range"] is True
assert f["processor"] == "P1" and f["bad_value"] is None
p = d["processors"]
assert [x["name"] for x in p] == ["P%d" % i for i in range(1, 11)]
for x in p:
    for k in ("role", "chunks", "load", "first_arrival", "finish", "busy", "wait",
              "chunk_time", "level", "in_core", "out_of_core_rate", "swap_point"):
        assert k in x, k
    assert x["role"] == "works" and x["chunks"] == 2 * 10**9 and x["level"] == 1
assert abs(sum(x["load"] for x in p) - 1e11) < 1e-3
assert p[0]["in_core"] == [0, 1e-3] and p[0]["out_of_core_rate"] == 0.1
PY

# The sweep: never worse than the formula's chunk.
run installments "$paper" --load 1e10 --chunk sweep --json --no-compare
expect_rc 0 "sweep"
py_json "sweep json" <<'PY'
assert d["chunk_source"] == "sweep" and d["sweep"]["evaluated"] > 200
assert d["makespan"] <= 1000010 * (1 + 1e-12)
assert d["single_installment_makespan"] is None and d["ratio"] is None
assert d["single_installment_status"] == "skipped"
PY

# The Gantt charts, long (with a break) and short, are well-formed XML.
run installments "$paper" --load 1e10 --gantt "$tmp/long.svg" --no-compare
expect_rc 0 "gantt"
run installments "$paper" --load 3e5 --gantt "$tmp/short.svg" --gantt-rounds 5 --no-compare
expect_rc 0 "gantt short"
py_check "gantt charts are not well-formed XML" "$tmp/long.svg" "$tmp/short.svg" <<'PY'
import sys, xml.etree.ElementTree as E
[E.parse(f) for f in sys.argv[1:]]
PY

cli_summary
