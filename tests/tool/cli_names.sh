#!/bin/sh
# Names are free text (any printable Unicode character, up to 4096 bytes), so every file
# written from a platform must be read back whatever its names: a platform whose names
# hold quotes, apostrophes, backslashes, spaces, colons, semicolons, markup, comment
# markers, Unicode and 1,000 bytes is scheduled, exported in the four formats, and each
# export is solved by glpsol and by lp_solve (the formats lp_solve cannot read are turned
# into free MPS by glpsol first) to the makespan dlsched finds; its JSON report gives the
# names back, its Gantt chart and plot are XML, and its text table keeps its columns.
# Needs python3 (to write and read the files), glpsol and lp_solve: skipped without them.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
for prog in glpsol lp_solve; do
    if ! command -v "$prog" >/dev/null 2>&1; then
        echo "$cli_name: SKIP: $prog is missing (Debian packages glpk-utils and lp-solve)"
        exit 77
    fi
done

# The platform: one processor per kind of hostile name, links and two memory levels so
# that the LP has every kind of row.
"$PYTHON3" - "$tmp/names.json" <<'PY'
import json, sys
names = ['a"quote', "it's", "back\\slash", "with space", "colon: semi;", "<&> markup",
         "*/ --comment /* \\* *\\", "Gr\u00fc\u00dfe \u20ac \U0001F600 \u65e5\u672c",
         "n" * 994 + "\u00e9t\u00e9", "-o", "'", '"']
procs = []
for k, n in enumerate(names):
    p = {"name": n, "time": [[0.01 * k, 1e-4 * (1 + k % 4)], [-5 - k, 2e-3 * (1 + k % 3)]],
         "link": {"startup": 0.05 * (k % 5), "rate": 1e-5 * (1 + k % 7)}}
    if k % 4 == 1:
        p["limit"] = 2e3 + 100 * k
    procs.append(p)
json.dump({"processors": procs}, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
PY
P=$tmp/names.json
V=1e5

run check "$P"
expect_rc 0 "the hostile names are accepted"

# the reference: the paper's LP (every processor charged its startup), which is what the
# exports state
run schedule "$P" --load "$V" --keep-unused --json
expect_rc 0 "schedule"
mk=$("$PYTHON3" -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["paper_makespan"]))' "$tmp/out")
py_json "the JSON report gives every name back" "$tmp/out" "$P" <<'PY'
names = [p["name"] for p in json.load(open(sys.argv[2], encoding="utf-8"))["processors"]]
got = [p["name"] for p in d["processors"]]
assert sorted(got) == sorted(names), (got, names)
PY

# same_value WHAT VALUE: VALUE agrees with the reference makespan to 1e-7 (the solvers
# print 8 to 17 digits)
same_value() {
    checks=$((checks + 1))
    if ! "$PYTHON3" -c 'import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-7 * abs(b))' "$2" "$mk" 2>/dev/null; then
        fail "$1: makespan $2, dlsched found $mk"
    fi
}

for fmt in lp mps glpk mathprog; do
    f=$tmp/star.$fmt
    run export "$P" --load "$V" --format "$fmt" -o "$f"
    expect_rc 0 "export $fmt"
    case $fmt in
    lp) read_opt="--lp $f" ;;
    mps) read_opt="--freemps $f" ;;
    glpk) read_opt="--glp $f" ;;
    mathprog) read_opt="-m $top_srcdir/lp/star.mod -d $f" ;;
    esac
    # glpsol solves it; -w writes the solution with 17 digits ("s bas rows cols p f OBJ")
    # shellcheck disable=SC2086
    if glpsol $read_opt -w "$tmp/sol.$fmt" --wfreemps "$tmp/conv.$fmt.mps" >"$tmp/glpsol.$fmt" 2>&1; then
        obj=$(awk '$1 == "s" { print $NF; exit }' "$tmp/sol.$fmt")
        same_value "glpsol on the $fmt export" "${obj:-none}"
    else
        fail "glpsol cannot read the $fmt export" "$(tail -5 "$tmp/glpsol.$fmt")"
        continue
    fi
    # lp_solve solves the MPS export itself, the other formats as glpsol wrote them in MPS
    src=$tmp/conv.$fmt.mps
    [ "$fmt" = mps ] && src=$f
    if lp_solve -fmps "$src" -S3 -e 1e-9 >"$tmp/lps.$fmt" 2>&1; then
        obj=$(awk '/Value of objective function:/ { print $NF; exit }' "$tmp/lps.$fmt")
        same_value "lp_solve on the $fmt export" "${obj:-none}"
    else
        fail "lp_solve cannot read the $fmt export" "$(tail -5 "$tmp/lps.$fmt")"
    fi
done

# the MathProg model prints every name: glpsol gives them back (the 1,000-byte one cut to
# the 100 bytes a MathProg literal holds)
glpsol -m "$top_srcdir/lp/star.mod" -d "$tmp/star.mathprog" >"$tmp/model-out" 2>&1
py_check "glpsol prints the names of the MathProg data" "$tmp/model-out" "$P" <<'PY'
import json, sys
out = open(sys.argv[1], encoding="utf-8").read()
for p in json.load(open(sys.argv[2], encoding="utf-8"))["processors"]:
    n = p["name"]
    want = n if len(n.encode()) <= 100 else None
    if want is not None:
        assert "load " + want + " " in out, n
    else:
        assert "load " + n[:97] + "... " in out, "the long name, cut"
PY

# the pictures are XML whatever the names
run schedule "$P" --load "$V" --gantt "$tmp/g.svg"
expect_rc 0 "schedule --gantt"
run plot "$P" -o "$tmp/p.svg"
expect_rc 0 "plot"
for svg in g p; do
    py_check "the $svg.svg picture is XML" "$tmp/$svg.svg" <<'PY'
import sys, xml.dom.minidom
xml.dom.minidom.parse(sys.argv[1])
PY
done

# the text table keeps its columns: every row as many characters as the header
run schedule "$P" --load "$V"
expect_rc 0 "schedule, text"
py_check "the schedule table keeps its columns" "$tmp/out" <<'PY'
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
table = [l for l in lines if l.startswith("  ")]
assert len(table) == 13, len(table)
head = table[0]
start = head.index("LOAD (units)") + len("LOAD (units)")
for l in table[1:]:
    assert len(l) >= start and l[start - 1] != " ", ("a row shifted", l)
PY

cli_summary
