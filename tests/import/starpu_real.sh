#!/bin/sh
# `dlsched import starpu` and `dlsched export-model --format starpu` against StarPU itself:
# tests/import/starpu_calibrate calibrates a history-based model into a temporary StarPU
# home, and what dlsched reads from it is compared with what starpu_perfmodel_display shows;
# what dlsched writes is read back by starpu_perfmodel_display and by dlsched. Reported as
# SKIP (77) with configure's reason without StarPU, and without python3 (which reads the
# JSON and the tool's output, with tests/import/starpu_model.py).
. "${top_srcdir:-.}/tests/support/cli.sh"

# By hand from the top of a built tree, the defaults serve.
: "${DLS_STARPU_CALIBRATE=tests/import/starpu_calibrate}"
: "${DLS_STARPU_DISPLAY=$(command -v starpu_perfmodel_display || true)}"
if [ -z "$DLS_STARPU_CALIBRATE" ] || [ ! -x "$DLS_STARPU_CALIBRATE" ] || [ -z "$DLS_STARPU_DISPLAY" ]; then
    echo "$cli_name: SKIP: the checks against StarPU: ${DLS_STARPU_WHY:-StarPU was not found at configure time (tests/import/starpu_calibrate was not built)}"
    exit 77
fi
need_python3
. "$top_srcdir/tests/import/starpu_lib.sh"

# StarPU, alone in a home of its own: one CPU worker, not bound, no accelerator, quiet; the
# host name fixed so that the model file's name is known. dlsched's symbol lookup sees the
# same home and nothing else.
home=$tmp/home
mkdir -p "$home" "$tmp/nohome"
unset STARPU_PERF_MODEL_DIR STARPU_PERF_MODEL_PATH XDG_CACHE_HOME
STARPU_HOME=$home
HOME=$tmp/nohome
STARPU_HOSTNAME=dlstest
STARPU_NCPU=1
STARPU_NCUDA=0
STARPU_NOPENCL=0
STARPU_SCHED=eager
STARPU_SILENT=1
STARPU_WORKERS_NOBIND=1
export STARPU_HOME HOME STARPU_HOSTNAME STARPU_NCPU STARPU_NCUDA STARPU_NOPENCL STARPU_SCHED \
    STARPU_SILENT STARPU_WORKERS_NOBIND
models=$home/.starpu/sampling/codelets/45
sym=dls_sptest

cal_rc=0
STARPU_CALIBRATE=1 "$DLS_STARPU_CALIBRATE" "$sym" >"$tmp/cal.out" 2>&1 || cal_rc=$?
if [ "$cal_rc" -eq 77 ]; then
    echo "$cli_name: SKIP: StarPU cannot run here: $(cat "$tmp/cal.out")"
    exit 77
fi
checks=$((checks + 1))
if [ "$cal_rc" -ne 0 ] || [ ! -s "$models/$sym.dlstest" ]; then
    fail "starpu_calibrate $sym: exit status $cal_rc, model file $models/$sym.dlstest" \
        "$(cat "$tmp/cal.out"; ls -lR "$home" 2>&1)"
    cli_summary
fi
model=$models/$sym.dlstest

display() { # SYMBOL OUT: starpu_perfmodel_display -s SYMBOL, a failure recorded
    checks=$((checks + 1))
    if ! "$DLS_STARPU_DISPLAY" -s "$1" >"$2" 2>"$tmp/display.err"; then
        fail "starpu_perfmodel_display -s $1" "$(cat "$2" "$tmp/display.err")"
        return 1
    fi
}
display "$sym" "$tmp/display.txt" || cli_summary
# what StarPU's own reader shows is what the file says (the check of the checker)
py_sp "the model file read as starpu_perfmodel_display reads it" "$model" "$tmp/display.txt" <<'PY'
secs = m.read_model(args[0])
shown = m.read_display(open(args[1]).read())
assert len(secs) == 1 and secs[0]["arch"] == "cpu0", secs
got = sorted((e["size"], e["mean"], e["dev"], e["n"]) for e in shown["cpu0_impl0"])
want = sorted((e["size"], e["mean"], e["dev"], e["n"]) for e in secs[0]["entries"])
assert got == want, (got, want)
assert any(e["n"] >= 2 for e in shown["cpu0_impl0"]), "no entry of two samples or more"
assert any(e["n"] == 1 for e in shown["cpu0_impl0"]), "no entry of one sample"
PY

# Imported by symbol (found under $STARPU_HOME) and by path: the same platform
run import starpu "$sym" -o "$tmp/p.json"
rc_is 0 "import starpu $sym (the symbol)" || cli_summary
cp "$tmp/err" "$tmp/import.err"
run import starpu "$model" -o "$tmp/p2.json"
if rc_is 0 "import starpu FILE"; then
    cmp -s "$tmp/p.json" "$tmp/p2.json" ||
        fail "import by symbol and by path differ" "$(diff "$tmp/p.json" "$tmp/p2.json")"
fi

# Each entry of two samples or more is a point, speed = size / mean (the mean in us as
# starpu_perfmodel_display shows it), band as import.h says; the others are dropped, and
# the warning says how many.
py_sp "imported points against starpu_perfmodel_display" "$tmp/display.txt" "$tmp/p.json" "$sym.cpu0" "$tmp/import.err" <<'PY'
shown = m.read_display(open(args[0]).read())["cpu0_impl0"]
pts = {p[0]: p for p in m.points(args[1], args[2])}
bad = []
kept = [e for e in shown if e["n"] >= 2]
few = [e for e in shown if e["n"] < 2]
for e in kept:
    p = pts.get(e["size"])
    if p is None:
        bad.append("size %d (n %d): no point" % (e["size"], e["n"]))
        continue
    speed, low, high = m.band(e["size"], e["mean"] * 1e-6, e["dev"] * 1e-6, e["n"])
    if m.rel(p[1], speed) > 1e-9:
        bad.append("size %d: speed %.17g, expected size / (mean %g us) = %.17g" % (e["size"], p[1], e["mean"], speed))
    if p[2] is None or m.rel(p[2], low) > 1e-7 or m.rel(p[3], high) > 1e-7:
        bad.append("size %d n %d: band %s %s, expected %.17g %.17g" % (e["size"], e["n"], p[2], p[3], low, high))
for e in few:
    if e["size"] in pts:
        bad.append("size %d of %d sample(s) kept: %s" % (e["size"], e["n"], pts[e["size"]]))
if len(pts) != len(kept):
    bad.append("%d points for %d entries of 2 samples or more" % (len(pts), len(kept)))
# StarPU keeps a size's first run out (an entry of none) and flushes an entry whose runs stray
# too far (a loaded machine leaves entries of none or one anywhere): the warnings give both
# counts, each exactly
warnings = "".join(l for l in open(args[3]) if "warning:" in l)
empty = [e for e in few if e["n"] == 0]
lone = [e for e in few if e["n"] > 0]
said = re.search(r"(\d+) entr(?:y|ies) without a sample", warnings)
if (int(said.group(1)) if said else 0) != len(empty):
    bad.append("%d entries without a sample, the warnings say %s: %s" % (len(empty), said and said.group(1), warnings))
said = re.search(r"(\d+) of (\d+) entr(?:y|ies) with fewer than 2 samples dropped", warnings)
got = (int(said.group(1)), int(said.group(2))) if said else (0, len(shown) - len(empty))
if got != (len(lone), len(shown) - len(empty)):
    bad.append("%d of %d entries of one sample, the warnings say %s: %s" % (len(lone), len(shown) - len(empty), got, warnings))
assert not bad, "\n".join(bad)
PY

# --keep-few: the entry of one sample too (an entry of none has no time: never a point)
run import starpu "$sym" --keep-few -o "$tmp/few.json"
if rc_is 0 "--keep-few"; then
    py_sp "--keep-few" "$tmp/display.txt" "$tmp/few.json" "$sym.cpu0" <<'PY'
shown = m.read_display(open(args[0]).read())["cpu0_impl0"]
pts = {p[0]: p for p in m.points(args[1], args[2])}
want = sorted(e["size"] for e in shown if e["n"] >= 1)
assert sorted(pts) == want, (sorted(pts), want)
for e in shown:
    if e["n"] >= 1:
        assert m.rel(pts[e["size"]][1], e["size"] / (e["mean"] * 1e-6)) < 1e-9, (e, pts[e["size"]])
PY
fi

# The platform is one dlsched takes
run check "$tmp/p.json" --json
if rc_is 0 "check"; then
    py_json "check --json: valid, one processor of points" <<'PY'
assert d["valid"] is True, d
assert [p["model"] for p in d["processors"]] == ["points"], d
PY
fi
run partition "$tmp/p.json" --elements 1e6
expect_rc 0 "partition --elements 1e6"
run schedule "$tmp/p.json" --load 1e6
expect_rc 0 "schedule --load 1e6 (no link: sent at no cost)"
cp "$ex/memory_levels.json" "$tmp/merged.json"
run import starpu "$sym" --merge "$tmp/merged.json"
if rc_is 0 "--merge into examples/memory_levels.json"; then
    run schedule "$tmp/merged.json" --load 1e6 --json
    expect_rc 0 "schedule of the merged platform"
    expect_out "$sym.cpu0" "schedule of the merged platform: the imported processor"
fi

# Export, read back by StarPU: every point an entry of mean size / speed (us), the deviation
# the file claims, the count asked for, and the footprint StarPU gave the same size (a task
# of one vector of size / 8 doubles).
exported=$models/exported.dlstest
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu -o "$exported"
if rc_is 0 "export-model --format starpu" && display exported "$tmp/exported.txt"; then
    py_sp "exported file as starpu_perfmodel_display shows it" "$tmp/p.json" "$sym.cpu0" "$exported" "$tmp/exported.txt" "$model" 10 <<'PY'
pts = m.points(args[0], args[1])
claimed = {e["size"]: e for s in m.read_model(args[2]) for e in s["entries"]}
shown = m.read_display(open(args[3]).read())
calibrated = {e["size"]: e for e in m.read_model(args[4])[0]["entries"]}
assert list(shown) == ["cpu0_impl0"], list(shown)
shown = {e["size"]: e for e in shown["cpu0_impl0"]}
bad = []
assert sorted(shown) == sorted(int(p[0]) for p in pts), (sorted(shown), pts)
for p in pts:
    e = shown[int(p[0])]
    want = p[0] / p[1] * 1e6
    if m.rel(e["mean"], want) > 1e-6:
        bad.append("size %d: mean %.7g us shown, size / speed = %.17g us" % (p[0], e["mean"], want))
    c = claimed[int(p[0])]
    if abs(e["dev"] - c["dev"]) > 1e-6 * c["dev"]:
        bad.append("size %d: deviation %.7g shown, %.17g in the file" % (p[0], e["dev"], c["dev"]))
    if e["n"] != int(args[5]):
        bad.append("size %d: %d samples shown, %s expected" % (p[0], e["n"], args[5]))
    if e["hash"] != calibrated[int(p[0])]["hash"]:
        bad.append("size %d: footprint %s, StarPU's %s" % (p[0], e["hash"], calibrated[int(p[0])]["hash"]))
assert not bad, "\n".join(bad)
PY
fi
# ... and by dlsched: the same speeds and lower band edges
run import starpu exported -o "$tmp/back.json"
if rc_is 0 "import of the exported file"; then
    py_sp "export and import again: speeds and lower edges" "$tmp/p.json" "$sym.cpu0" "$tmp/back.json" exported.cpu0 <<'PY'
a, b = m.points(args[0], args[1]), m.points(args[2], args[3])
assert [p[0] for p in a] == [p[0] for p in b], (a, b)
bad = []
for p, q in zip(a, b):
    if m.rel(p[1], q[1]) > 1e-12:
        bad.append("size %g: speed %.17g, back %.17g" % (p[0], p[1], q[1]))
    if (p[2] is None) != (q[2] is None) or (p[2] is not None and m.rel(p[2], q[2]) > 1e-9):
        bad.append("size %g: low %s, back %s" % (p[0], p[2], q[2]))
    if q[3] is not None and not q[2] <= q[1] <= q[3]:
        bad.append("size %g: back band %s %s does not hold %s" % (p[0], q[2], q[3], q[1]))
assert not bad, "\n".join(bad)
PY
fi
# to stdout, the same text
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu
if rc_is 0 "export-model to stdout"; then
    cmp -s "$tmp/out" "$exported" || fail "export-model: stdout and -o differ" "$(diff "$tmp/out" "$exported")"
fi
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu -o -
expect_rc 0 "export-model -o -"
# --count, --arch
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu --count 12 -o "$models/count12.dlstest"
if rc_is 0 "export-model --count 12" && display count12 "$tmp/count12.txt"; then
    py_sp "--count 12: every entry of 12 samples" "$tmp/count12.txt" <<'PY'
shown = m.read_display(open(args[0]).read())["cpu0_impl0"]
assert shown and all(e["n"] == 12 for e in shown), shown
PY
fi
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu --count 1 -o "$tmp/c1.txt"
expect_rc 2 "export-model --count 1"
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format starpu --arch cuda0 -o "$models/ascuda.dlstest"
if rc_is 0 "export-model --arch cuda0" && display ascuda "$tmp/ascuda.txt"; then
    grep -q "^# performance model for cuda0_impl0" "$tmp/ascuda.txt" ||
        fail "export-model --arch cuda0: no cuda0 section shown" "$(cat "$tmp/ascuda.txt")"
fi

# A platform in elements, with bands of its own: sizes in bytes = elements x 8
cat >"$tmp/w.json" <<'JSON'
{"processors": [
  {"name": "w", "speed": {"points": [[1000, 2.385e8, 2.113e8, 2.517e8], [25000, 3.171e8, 2.894e8, 3.302e8],
                                     [400000, 2.907e8, 2.216e8, 3.049e8]]}},
  {"name": "t", "time": [[0, 1e-9]]}
]}
JSON
run export-model "$tmp/w.json" --processor w --format starpu --size-unit elements --element-size 8 -o "$models/welem.dlstest"
if rc_is 0 "export-model --size-unit elements" && display welem "$tmp/welem.txt"; then
    py_sp "elements: StarPU shows bytes, mean = elements / speed" "$tmp/w.json" "$tmp/welem.txt" <<'PY'
pts = m.points(args[0], "w")
shown = {e["size"]: e for e in m.read_display(open(args[1]).read())["cpu0_impl0"]}
assert sorted(shown) == [int(p[0] * 8) for p in pts], sorted(shown)
for p in pts:
    e = shown[int(p[0] * 8)]
    assert m.rel(e["mean"], p[0] / p[1] * 1e6) < 1e-6, (p, e)
    assert e["dev"] > 0, ("a band but no deviation", p, e)
PY
    run import starpu welem --size-unit elements --element-size 8 -o "$tmp/wback.json"
    if rc_is 0 "import of the elements export"; then
        py_sp "elements: speeds and lower edges back" "$tmp/w.json" "$tmp/wback.json" <<'PY'
a, b = m.points(args[0], "w"), m.points(args[1], "welem.cpu0")
assert [p[0] for p in a] == [p[0] for p in b], (a, b)
for p, q in zip(a, b):
    assert m.rel(p[1], q[1]) < 1e-12 and m.rel(p[2], q[2]) < 1e-9, (p, q)
PY
    fi
fi
run export-model "$tmp/w.json" --processor w --format starpu -o "$tmp/frac.txt" --size-unit elements --element-size 2.5e-1
expect_rc 0 "export-model --element-size 0.25 (whole bytes)"
run export-model "$tmp/w.json" --processor w --format starpu --size-unit elements --element-size 0.0011 -o "$tmp/frac.txt"
expect_rc 2 "export-model: a size of a fraction of a byte"
run export-model "$tmp/w.json" --processor t --format starpu -o "$tmp/t.txt"
expect_rc 2 "export-model of a processor without points"
run export-model "$tmp/w.json" --processor nosuch --format starpu -o "$tmp/t.txt"
expect_rc 2 "export-model of an unknown processor"

# CSV: what the platform says, to the last digit
run export-model "$tmp/p.json" --processor "$sym.cpu0" --format csv -o "$tmp/p.csv"
if rc_is 0 "export-model --format csv"; then
    py_sp "csv: the points" "$tmp/p.json" "$sym.cpu0" "$tmp/p.csv" <<'PY'
import csv
rows = list(csv.reader(open(args[2])))
assert rows[0] == ["name", "size", "speed", "low", "high"], rows[0]
pts = m.points(args[0], args[1])
got = [(r[0], float(r[1]), float(r[2]), float(r[3]) if r[3] else None, float(r[4]) if r[4] else None) for r in rows[1:]]
assert got == [(args[1],) + tuple(p) for p in pts], (got, pts)
PY
fi

cli_summary
