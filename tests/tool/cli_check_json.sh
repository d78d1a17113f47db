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

# Strings from outside are not always UTF-8: a file name, a header cell. The JSON reports
# must still parse, each stray byte written \xNN (jansson refuses such strings: the report
# was lost with an "out of memory" until the fuzzer found it).
odd=$tmp/$(printf 'odd\377')
cp "$ex/cluster.json" "$odd.json"
run check "$odd.json" --json
expect_rc 0 "check --json on a file whose name is not UTF-8"
py_json "check --json: the file name is not written \\xff" <<'PY'
assert d["file"].endswith("odd\\xff.json"), d["file"]
PY
printf 'size,time,-\n4,3,1\n8,5,1\n' > "$odd.csv"
run import csv "$odd.csv" --name p -o "$tmp/imported.json" --json
expect_rc 0 "import csv --json, a file name not UTF-8"
py_json "import csv --json: the source does not carry \\xff" <<'PY'
assert "odd\\xff.csv" in d["processors"][0]["source"], d["processors"][0]
assert d["platform"].endswith("imported.json"), d["platform"]
PY
# a header cell not UTF-8 is no column dlsched reads: refused, the cell written \xNN
printf 'size,time,%s\n4,3,1\n8,5,1\n' "$(printf 'h\230\365')" > "$odd.csv"
run import csv "$odd.csv" --name p -o "$tmp/imported.json" --json
expect_rc 2 "import csv --json, a header cell not UTF-8"
expect_err 'column 3, "h\\x98\\xf5", is not a column dlsched reads' \
    "import csv: the header cell not UTF-8 named in the refusal"

cli_summary
