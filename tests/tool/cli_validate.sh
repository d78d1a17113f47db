#!/bin/sh
# `dlsched validate`: the scorecard of a scheduler over a suite (here a small manifest of
# four instances, tests/data/validate/; the reference suite itself is scored by `make
# validate`): both example schedulers scored, dlsched itself at gap 0, the gaps against the
# makespans computed here, failures, time limits, resuming, the JSON and the SVG chart.
# Needs python3 (the proportional scheduler is a Python script; the checks read JSON).
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
need_program ./examples/even_split
M=$top_srcdir/tests/data/validate/manifest.json
EVEN='./examples/even_split {platform} {load} {output} {kind}'

run validate --suite "$M" --scheduler "$EVEN" --json
expect_rc 0 "the even split: every plan valid"
py_json "the even split's scorecard" <<'PY'
fam = {f["family"]: f for f in d["families"]}
assert fam["all"]["instances"] == 4 and fam["all"]["valid"] == 4, fam["all"]
inst = {i["id"]: i for i in d["instances"]}
# star_cluster, 200 units each (paper 003's model, replayed by `dlsched evaluate` in
# cli_verify.sh): 0.6196 s against the optimum 0.064 s
assert abs(inst["star"]["makespan"] - 0.6196) < 1e-9, inst["star"]
assert abs(inst["star"]["gap_percent"] - 100 * (0.6196 - 0.064) / 0.064) < 1e-6, inst["star"]
PY
run validate --suite "$M" --scheduler "$EVEN"
expect_rc 0 "the text scorecard"
expect_out "scorecard of: ./examples/even_split" "the scheduler named"
expect_out "^  all  *4  *4  *0  *0  *0" "the totals line"

run validate --suite "$M" --scheduler "${PYTHON3} $top_srcdir/examples/proportional_split.py {platform} {load} {output} {kind}" --json --svg "$tmp/score.svg"
expect_rc 0 "the proportional split"
py_json "the proportional split: valid, gaps = 100 (makespan - optimum) / optimum" <<'PY'
for i in d["instances"]:
    assert i["status"] == "valid", i
    assert abs(i["gap_percent"] - 100 * (i["makespan"] - i["optimum"]) / i["optimum"]) < 1e-9, i
PY
py_check "the chart is SVG" "$tmp/score.svg" <<'PY'
import sys, xml.dom.minidom
doc = xml.dom.minidom.parse(sys.argv[1])
assert doc.documentElement.tagName == "svg"
assert "paper" in doc.toxml() and "matrix" in doc.toxml()
PY

# dlsched's own answers: gap 0 to the certified optima (within the tolerance rule)
cat > "$tmp/dls.sh" <<SH
case \$3 in
schedule) exec $DLSCHED schedule "\$1" --load "\$2" --json > "\$4" ;;
partition) exec $DLSCHED partition "\$1" --elements "\$2" --json > "\$4" ;;
matrix) exec $DLSCHED partition "\$1" --matrix "\$2" --json > "\$4" ;;
esac
SH
run validate --suite "$M" --scheduler "sh $tmp/dls.sh {platform} {load} {kind} {output}" --json
expect_rc 0 "dlsched scored"
py_json "dlsched: gap 0 everywhere" <<'PY'
for i in d["instances"]:
    assert i["status"] == "valid" and abs(i["gap_percent"]) < 1e-6, i
PY

# The reference suite's weighted family, verified element by element: dlsched's own
# partitioner valid everywhere, its makespans within the suite's tolerance of the optima
# certified by exhaustive search (validation/certify.py, without dlsched); the example
# schedulers' plans judged (valid or invalid with gaps), none skipped.
S=$top_srcdir/validation/manifest.json
cat > "$tmp/dlsw.sh" <<SH
o=; [ "\$3" = ordered ] && o=--ordered
exec $DLSCHED partition "\$1" --weights "\$2" \$o --json > "\$4"
SH
run validate --suite "$S" --family weighted --scheduler "sh $tmp/dlsw.sh {platform} {weights} {ordered} {output}" --json
expect_rc 0 "dlsched over the weighted family"
py_json "dlsched: 16 weighted instances valid, at the certified optima" <<'PY'
fam = {f["family"]: f for f in d["families"]}
assert fam["weighted"]["instances"] == 16 and fam["weighted"]["valid"] == 16, fam
assert fam["weighted"]["skipped"] == 0, fam
for i in d["instances"]:
    # the manifest's tolerance for dlsched's answers: 1e-9 relative
    assert i["status"] == "valid" and abs(i["gap_percent"]) <= 100 * 1e-9, i
PY
run validate --suite "$S" --family weighted --scheduler "$EVEN {weights} {ordered}" --json
expect_rc 1 "the even split over the weighted family (it ignores the limits)"
py_json "the even split: every weighted plan judged, gaps >= 0" <<'PY'
fam = {f["family"]: f for f in d["families"]}["weighted"]
assert fam["valid"] + fam["invalid"] == 16 and fam["valid"] >= 12 and fam["skipped"] == 0, fam
for i in d["instances"]:
    assert i["status"] in ("valid", "invalid"), i
    if i["status"] == "valid":
        assert i["gap_percent"] >= -1e-7, i
    else:
        assert "limit" in i["why"], i
PY
run validate --suite "$S" --family weighted --first 4 --scheduler "${PYTHON3} $top_srcdir/examples/proportional_split.py {platform} {load} {output} {kind} {weights} {ordered}" --json
py_json "the proportional split: weighted plans judged" <<'PY'
for i in d["instances"]:
    assert i["status"] in ("valid", "invalid"), i
PY

# failures: a scheduler that fails, one that writes nonsense, one past the time limit
run validate --suite "$M" --scheduler 'exit 3'
expect_rc 1 "a failing scheduler"
expect_out "failed two: the scheduler exited with status 3" "the failure named"
run validate --suite "$M" --scheduler 'echo nonsense > {output}' --first 1
expect_rc 1 "an unreadable plan"
expect_out "failed two: its output:" "the unreadable plan named"
run validate --suite "$M" --scheduler 'sleep 30' --time-limit 0.3 --first 1
expect_rc 1 "a scheduler past its time"
expect_out "timeout two: stopped after the time limit of 0.3 s" "the timeout"
run validate --suite "$M" --scheduler "$EVEN" --family matrix --json
py_json "--family: only that family" <<'PY'
assert [i["id"] for i in d["instances"]] == ["mm"], d["instances"]
PY

# resuming: results in the log are not run again
cat > "$tmp/count.sh" <<SH
echo run >> "$tmp/runs"
exec ./examples/even_split "\$@"
SH
run validate --suite "$M" --scheduler "sh $tmp/count.sh {platform} {load} {output} {kind}" --resume "$tmp/log" --first 2
expect_rc 0 "a first part"
run validate --suite "$M" --scheduler "sh $tmp/count.sh {platform} {load} {output} {kind}" --resume "$tmp/log"
expect_rc 0 "resumed"
expect_out "^  all  *4  *4" "all four in the scorecard"
[ "$(wc -l < "$tmp/runs")" -eq 4 ] || fail "resume: the scheduler ran $(wc -l < "$tmp/runs") times, not 4" ""

# bad usage
run validate --suite "$M"
expect_rc 2 "no --scheduler"
run validate --suite "$tmp/none.json" --scheduler "$EVEN"
expect_rc 2 "no suite"

cli_summary
