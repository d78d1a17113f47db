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
# star_cluster, 200 units each (Drozdowski and Wolniewicz's (2003) model, replayed by `dlsched
# evaluate` in cli_verify.sh): 0.6196 s against the optimum 0.064 s
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

# Misbehaving schedulers (issue 35, items 4, 12, 14): each ends within 10 s with exit 1 and
# the instance failed with its reason, --json parses, validate's temporary folder is gone
# ($TMPDIR is ours here) and the suite's files are as they were (the scheduler gets copies).
# A private suite, so that the suite's files are ours to checksum: one schedule, one
# weighted set.
mkdir "$tmp/suite" "$tmp/t"
cp "$ex/star_two.json" "$tmp/suite/two.json"
cp "$top_srcdir/validation/instances/weighted-00.json" "$tmp/suite/w.json"
cp "$top_srcdir/validation/instances/weighted-00.weights.json" "$tmp/suite/w.weights.json"
cat > "$tmp/suite/m.json" <<'JSON'
{"version": 1, "instances": [
 {"id": "two", "family": "paper", "kind": "schedule", "platform": "two.json", "load": 2,
  "mode": {"order": "given", "originator_computes": false, "selection": true}, "optimum": "5.75"},
 {"id": "w", "family": "weighted", "kind": "weighted", "platform": "w.json",
  "weights": "w.weights.json", "ordered": true, "optimum": "3.95462962962962962963e+0"}
]}
JSON
suite_sum() { cat "$tmp/suite/"* | cksum; }
sum0=$(suite_sum)
TO=; command -v timeout >/dev/null && TO="timeout 30"
# misbehave SCHEDULER WHY WHAT: the scheduler's instances all fail with WHY (a pattern)
misbehave() {
    t0=$(date +%s)
    rc=0
    TMPDIR="$tmp/t" $TO "$DLSCHED" validate --suite "$tmp/suite/m.json" --time-limit 0.5 \
        --json --quiet --scheduler "$1" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    checks=$((checks + 1))
    t1=$(date +%s)
    expect_rc 1 "$3: exit 1"
    [ $((t1 - t0)) -le 10 ] || fail "$3: took $((t1 - t0)) s"
    py_json "$3: the JSON parses, every instance failed: $2" "$tmp/out" "$2" <<'PY'
import re
for i in d["instances"]:
    assert i["status"] in ("failed", "timeout") and re.search(sys.argv[2], i["why"]), i
PY
    left=$(ls -A "$tmp/t")
    [ -z "$left" ] || fail "$3: left $left in TMPDIR"
    chmod -R u+rwx "$tmp/t" 2>/dev/null || true
    rm -rf "$tmp/t" && mkdir "$tmp/t"
    [ "$(suite_sum)" = "$sum0" ] || fail "$3: the suite's files changed"
}
misbehave 'mkfifo {output}' '{output} is a FIFO, not a regular file' "a FIFO at {output}"
misbehave 'ln -s /dev/zero {output}' '{output} is a symbolic link' "{output} a link to /dev/zero"
misbehave 'mkdir {output}; touch {output}/x; chmod 0 {output}' '{output} is a folder' \
    "{output} a folder"
misbehave 'chmod 0 "$(dirname {output})"; mkdir -p {output}/a/b/c; chmod 0 {output}/a' \
    '{output} is a folder' "a folder that cannot be read"
misbehave 'cd "$(dirname {output})"; for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do mkdir -p d; cd d; done; cd; mkfifo {output}' \
    'FIFO' "a deep tree"
misbehave 'ln -s {platform} {output}; echo junk > {output}' '{output} is a symbolic link' \
    "writing through a link to {platform}"
misbehave 'echo junk > {platform}; echo junk > {weights}; exit 5' 'status 5' \
    "writing over {platform} and {weights}"
misbehave 'rm -rf "$(dirname {output})"; echo LEAK; echo LEAK >&2' \
    "removed or replaced validate's temporary folder" "a scheduler that removes the folder"
grep -qx LEAK "$tmp/out" && fail "the scheduler's output in validate's" "$(cat "$tmp/out")"
misbehave 'head -c 5000000 /dev/zero > {output}' 'holds 5000000 bytes, more than the' \
    "a plan too large"
# (on a loaded machine or under the sanitizers, draining 5 MB may outlast the 0.5 s limit:
# then the reason is the limit, with the last line drained)
misbehave 'yes | head -c 5000000; echo last words >&2; exit 4' \
    'status 4 \(its last line: "last words"\)|stopped after the time limit of 0.5 s' \
    "a scheduler that writes a lot"
grep -qx y "$tmp/out" && fail "the scheduler's output in validate's" "$(head -c 300 "$tmp/out")"
misbehave 'trap "" TERM; sleep 29.25' 'stopped after the time limit of 0.5 s' \
    "a scheduler that ignores SIGTERM"
misbehave '(trap "" TERM; sleep 29.5; echo late > {output}) & mkfifo {output}' 'FIFO' \
    "a scheduler that leaves a process behind"
# (numbers of seconds no other test sleeps)
ps -eo args | grep -q '[s]leep 29.[25]' && fail "a scheduler's process left running"
# a plan through a hard link to its own copy of the platform: read as a plan, not valid
misbehave 'ln {platform} {output}' 'no "load"' "{output} a hard link to {platform}"

# malformed manifests (issue 35, item 13): located exit 2, naming the instance and the key
export TMPDIR="$tmp/t"
bad_manifest() {
    printf '{"version": 1, "instances": [%s]}\n' "$1" > "$tmp/suite/bad.json"
    run validate --suite "$tmp/suite/bad.json" --scheduler 'exit 0'
    expect_rc 2 "$3"
    expect_err "$2" "$3: located"
}
I='"id": "x", "family": "f", "platform": "two.json", "optimum": "5.75"'
bad_manifest "{$I, \"kind\": \"bogus\", \"load\": 2}" \
    'bad.json: instances\[0\] ("x"): "kind" is "bogus": schedule, partition, matrix or weighted expected' \
    "an unknown kind"
bad_manifest "{$I, \"kind\": \"weighted\"}" \
    'instances\[0\] ("x"): "weights" is missing' "a weighted instance without weights"
bad_manifest "{$I, \"kind\": \"weighted\", \"weights\": 3}" \
    'instances\[0\] ("x"): "weights" is a number, not a string' "weights a number"
bad_manifest "{$I, \"kind\": \"weighted\", \"weights\": \"w.weights.json\", \"ordered\": 1}" \
    '"ordered" is a number, not true or false' "ordered a number"
bad_manifest "{$I, \"kind\": \"schedule\", \"load\": 0}" \
    '"load" 0 is outside the domain of loads' "a load of 0"
bad_manifest "{$I, \"kind\": \"schedule\", \"load\": 1e61}" \
    '"load" .* is outside the domain of loads' "a load of 1e61"
bad_manifest "{$I, \"kind\": \"schedule\", \"load\": \"2\"}" \
    '"load" is a string, not a number' "a load in a string"
bad_manifest "{$I, \"kind\": \"partition\", \"elements\": 2.5}" \
    '"elements" 2.5 is not a whole number' "elements 2.5"
bad_manifest "{$I, \"kind\": \"matrix\", \"matrix\": 0}" \
    '"matrix" 0 is not a whole number from 1' "a matrix of order 0"
bad_manifest "{$I, \"kind\": \"schedule\", \"load\": 2, \"mode\": {\"order\": \"best\"}}" \
    '"mode": "order" is "best": given or rate expected' "an unknown order"
bad_manifest "{$I, \"kind\": \"schedule\", \"load\": 2, \"mode\": {\"selection\": 1}}" \
    '"mode": "selection" is a number, not true or false' "selection a number"
bad_manifest '{"id": "x", "platform": "two.json", "kind": "schedule", "load": 2, "optimum": "1/0"}' \
    '"optimum" "1/0" is not a makespan' "an optimum 1/0"
bad_manifest '{"id": "x", "platform": "two.json", "kind": "schedule", "load": 2, "optimum": 1e-70}' \
    '"optimum" 1e-70 is not a makespan' "an optimum outside the domain"
bad_manifest '{"id": "x", "platform": "two.json", "kind": "schedule", "load": 2}' \
    '"optimum" is missing' "no optimum"
bad_manifest '{"id": "x", "platform": 3, "kind": "schedule", "load": 2, "optimum": 1}' \
    '"platform" is a number, not a string' "a platform that is not a path"
bad_manifest '{"id": "x", "platform": "two.json", "kind": "schedule", "load": 2, "optimum": 1}, {"id": "x", "platform": "two.json", "kind": "schedule", "load": 3, "optimum": 1}' \
    'instances\[0\] and instances\[1\] have the same "id", "x"' "an id twice"
bad_manifest '7' 'instances\[0\]: is a number, not an object' "an instance that is not an object"
mkfifo "$tmp/suite/fifo.json"
bad_manifest '{"id": "x", "platform": "fifo.json", "kind": "schedule", "load": 2, "optimum": 1}' \
    'instances\[0\] ("x"): the platform file .*fifo.json is a FIFO, not a regular file' \
    "a FIFO for a platform"
[ -z "$(ls -A "$tmp/t")" ] || fail "a malformed manifest left a temporary folder"

# bad usage
run validate --suite "$M"
expect_rc 2 "no --scheduler"
run validate --suite "$tmp/none.json" --scheduler "$EVEN"
expect_rc 2 "no suite"

cli_summary
