#!/bin/sh
# `dlsched check` read by python3 (skipped without it): on every shipped example the
# processor count it reports is the file's and its --json output is valid JSON; on
# tests/data/shape_warning.json the warning is filed under the processor it concerns.
# cli_check.sh checks the rest.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

for f in "$ex"/*.json; do
    name=examples/${f##*/}
    run check "$f"
    expect_rc 0 "check $name"
    n=$(sed -n '1s/^.*: \([0-9][0-9]*\) processors\{0,1\}$/\1/p' "$tmp/out")
    py_json "check $name: reports \"$n\" processors, not the file's count" "$f" "$n" <<'PY'
assert str(len(d["processors"])) == sys.argv[2], len(d["processors"])
PY
    run check "$f" --json
    expect_rc 0 "check --json $name"
    py_json "check --json $name: the output is not valid JSON" <<'PY'
PY
done

run check "$top_srcdir/tests/data/shape_warning.json" --json
expect_rc 0 "check --json on a platform with a shape warning"
py_json "check --json: the warning on [1, 2] is not in the warnings of \"steep\"" <<'PY'
procs = {p["name"]: p for p in d["processors"]}
assert d["valid"] is True
assert any("[1, 2]" in w for w in procs["steep"]["warnings"]), procs["steep"]
assert procs["flat"]["warnings"] == [], procs["flat"]
PY

cli_summary
