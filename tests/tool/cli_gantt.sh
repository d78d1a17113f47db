#!/bin/sh
# Gantt charts a person reads without hovering (issue 36, item 6): every processor's load
# written as visible text on its lane (not only in a <title> tooltip) and in the table
# under the chart, bars at least 2 px wide, text inside the canvas, the subtitle naming
# the method that made the schedule; the SVG is well-formed XML and, where rsvg-convert
# is installed, turns into a PNG of the chart's size. Needs python3 (skipped without it).
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

# A send of 0.009 s in a chart of about 20 s (a bar far below a pixel), and a processor
# whose startup alone outlasts the others' work (unused).
cat >"$tmp/tiny.json" <<'EOF'
{"processors": [
  {"name": "fast-link", "time": [[0, 1e-4]], "link": {"startup": 0.009, "rate": 1e-9}},
  {"name": "slow", "time": [[0, 2e-4]], "link": {"startup": 0.5, "rate": 2e-5}},
  {"name": "far-away-node-with-a-rather-long-name", "time": [[0, 1e-3]],
   "link": {"startup": 60, "rate": 1e-3}}]}
EOF

# check_chart WHAT SVG JSON [SUBTITLE]: the chart against the schedule's --json report.
check_chart() {
    py_check "$1" "$2" "$3" "${4-}" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
svg, report, want = sys.argv[1], sys.argv[2], sys.argv[3]
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()             # well-formed XML
W, H = float(root.get("width")), float(root.get("height"))
d = json.load(open(report))
loads = {p["name"]: p["load"] for p in d["processors"]}
order = d.get("send_order") or [p["name"] for p in d["processors"]]
order += [n for n in loads if n not in order]
texts = root.iter(ns + "text")
visible = [(t, t.text or "") for t in root.iter(ns + "text")]   # <title> children left out
# the loads on the lanes, in send order
labels = [s for t, s in visible if t.get("class") == "load-label"]
assert len(labels) == len(loads), ("load labels", labels, loads)
for name, s in zip(order, labels):
    m = re.match(r"load ([-+0-9.e]+)", s)
    assert m, ("no load in the label", name, s)
    v = float(m.group(1))
    assert abs(v - loads[name]) <= 1e-5 * max(loads[name], 1), (name, s, loads[name])
    if loads[name] > 0:
        share = 100 * loads[name] / sum(loads.values())
        assert re.search(r"\(([0-9.e+-]+)%\)", s), ("no share", s)
        assert abs(float(re.search(r"\(([0-9.e+-]+)%\)", s).group(1)) - share) <= 1e-2 * share + 1e-3, (s, share)
# the table under the chart: a row per processor with its load (its name possibly cut)
table = next(g for g in root.iter(ns + "g") if g.get("class") == "table")
rows = {}
for t in table.iter(ns + "text"):
    rows.setdefault(t.get("y"), []).append(t.text or "")
heads = rows.pop(min(rows, key=float))
assert heads[:3] == ["processor", "load (units)", "share (%)"], heads
for name, ld in loads.items():
    hits = [r for r in rows.values()
            if r[0] == name or ("\u2026" in r[0] and name.startswith(r[0].split("\u2026")[0])
                                and name.endswith(r[0].split("\u2026")[1]))]
    assert hits, ("no table row", name, list(rows.values()))
    assert abs(float(hits[0][1]) - ld) <= max(0.51, 1e-5 * ld), (name, hits[0], ld)
# every bar visible, every text inside the canvas (6 px a character at most)
for r in root.iter(ns + "rect"):
    if r.get("class") in ("send", "receive", "compute", "idle"):
        assert float(r.get("width")) >= 2 - 1e-9, ("a bar narrower than 2 px", r.attrib)
        assert float(r.get("x")) >= 0 and float(r.get("x")) + float(r.get("width")) <= W + 0.01, r.attrib
for t, s in visible:
    if t.get("x") is None or not s:
        continue
    x, w = float(t.get("x")), 6.0 * len(s) * float(t.get("font-size", 12)) / 12
    a = t.get("text-anchor", "start")
    lo, hi = (x, x + w) if a == "start" else (x - w, x) if a == "end" else (x - w / 2, x + w / 2)
    assert lo >= -1 and hi <= W + 1, ("text outside the canvas", s, lo, hi, W)
    assert 0 <= float(t.get("y")) <= H, ("text below the canvas", s)
sub = next(s for t, s in visible if t.get("class") == "subtitle")
assert "LP optimum" not in sub, sub
if want:
    assert sub.startswith(want), ("subtitle", sub, "expected", want)
PY
}

# check_png WHAT SVG: rsvg-convert draws it, in the size the SVG says
check_png() {
    command -v rsvg-convert >/dev/null 2>&1 || return 0
    rm -f "$tmp/chart.png"
    rsvg-convert "$2" -o "$tmp/chart.png" 2>"$tmp/rsvg.err" || {
        fail "$1: rsvg-convert failed" "$(cat "$tmp/rsvg.err")"
        return 0
    }
    py_check "$1: the PNG" "$tmp/chart.png" "$2" <<'PY'
import struct, sys, xml.etree.ElementTree as ET
png = open(sys.argv[1], "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
w, h = struct.unpack(">II", png[16:24])
root = ET.parse(sys.argv[2]).getroot()
assert (w, h) == (round(float(root.get("width"))), round(float(root.get("height")))), (w, h)
assert 500 <= w <= 4000 and 150 <= h <= 4000, (w, h)
assert len(png) > 5000, "an empty picture"
PY
}

# gantt WHAT SUBTITLE ARGS...: schedule ARGS, its chart and its report checked
gantt() {
    what=$1 sub=$2
    shift 2
    run "$@" --gantt "$tmp/g.svg"
    expect_rc 0 "$what"
    run "$@" --json
    cp "$tmp/out" "$tmp/g.json"
    check_chart "$what" "$tmp/g.svg" "$tmp/g.json" "$sub"
    check_png "$what" "$tmp/g.svg"
}

gantt "the tiny send and the unused processor" "optimal, chain solver" \
    schedule "$tmp/tiny.json" --load 3e5
grep -q 'load 0: unused' "$tmp/g.svg" || fail "the unused processor is not said so on its lane"
gantt "the README's cluster" "optimal, chain solver" schedule "$ex/star_cluster.json" --load 1e6
gantt "three processors left unused" "optimal, chain solver" \
    schedule "$ex/memory_levels.json" --load 1e6
gantt "--solver chain" "optimal, chain solver" schedule "$ex/star_ten.json" --load 1e6 \
    --solver chain
gantt "--solver glpk" "optimal, GLPK simplex" schedule "$ex/star_ten.json" --load 1e6 \
    --solver glpk --keep-unused
gantt "--solver glpk, processors left out" "GLPK simplex, " schedule "$ex/star_cluster.json" \
    --load 1e4 --solver glpk
gantt "--keep-unused (startups paid)" "optimal, chain solver" schedule "$ex/star_cluster.json" \
    --load 1e4 --keep-unused
gantt "--integer with the MIP" "whole-unit loads, optimal: MIP (GLPK branch and bound)" \
    schedule "$ex/star_cluster.json" --load 10000 --integer --mip yes
gantt "--integer, rounded" "whole-unit loads, not proven optimal: the LP's loads rounded" \
    schedule "$ex/star_cluster.json" --load 10000 --integer --mip no
gantt "--exact-shape" "exact shapes, optimal: MIP (GLPK branch and bound)" \
    schedule "$ex/star_cluster.json" --load 10000 --exact-shape
# without links the integer problem is the geometric partitioner's, whose answer is kept
cat >"$tmp/nolink.json" <<'EOF'
{"processors": [
  {"name": "a", "time": [[0, 1e-3], [-50, 2e-3]]},
  {"name": "b", "speed": {"points": [[10, 300], [1000, 900], [5000, 400]]}},
  {"name": "c", "speed": 700}]}
EOF
gantt "--integer without links" "whole-unit loads, optimal: the geometric partitioner's" \
    schedule "$tmp/nolink.json" --load 1001 --integer --mip no
gantt "evaluate" "a given distribution, replayed" \
    evaluate "$ex/star_cluster.json" --loads 1e5,2e5,0,3e5,1e3

# The comparison of a prediction with a measurement, and multi-installment charts: the
# loads written on the lanes and the table under the chart.
cp "$top_srcdir/tests/data/measured/star_two.json" "$tmp/measured.json"
run evaluate "$ex/star_two.json" --measured "$tmp/measured.json" --gantt "$tmp/cmp.svg"
expect_rc 0 "evaluate --measured"
py_check "the comparison chart" "$tmp/cmp.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
labels = [t.text for t in root.iter(ns + "text") if t.get("class") == "load-label"]
p1, p2 = "load 1.66667 (83.3%), level 2", "load 0.333333 (16.7%), level 1"
assert labels == [p1, p2, p1, p2], labels  # the predicted lanes, then the measured ones
cells = [t.text for g in root.iter(ns + "g") if g.get("class") == "table" for t in g]
assert "measured finish (s)" in cells and "10.9000" in cells and "+0.5667" in cells, cells
PY
check_png "the comparison chart" "$tmp/cmp.svg"
for args in "$ex/star_ten.json --load 1e10" "$ex/star_cluster.json --load 1e6" \
    "$ex/memory_levels.json --load 1e7 --lp --max-lps 30"; do
    # shellcheck disable=SC2086
    run installments $args --gantt "$tmp/inst.svg"
    expect_rc 0 "installments $args"
    # shellcheck disable=SC2086
    run installments $args --json
    cp "$tmp/out" "$tmp/inst.json"
    py_check "installments $args: the loads" "$tmp/inst.svg" "$tmp/inst.json" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
d = json.load(open(sys.argv[2]))
procs = d["processors"]
labels = [t.text for t in root.iter(ns + "text") if t.get("class") == "load-label"]
working = [p for p in procs if p.get("chunks", 0) > 0]
assert len(labels) == len(working), (labels, working)
for p, s in zip(working, labels):
    v = float(re.match(r"load ([-+0-9.e]+)", s).group(1))
    assert abs(v - p["load"]) <= 1e-5 * p["load"], (p, s)
cells = [t.text for g in root.iter(ns + "g") if g.get("class") == "table" for t in g]
for p in procs:
    assert p["name"] in cells, (p["name"], cells)
PY
    check_png "installments $args" "$tmp/inst.svg"
done

cli_summary
