#!/bin/sh
# Checks `dlsched schedule`, `evaluate` and `export` from the outside: the paper's worked
# example, the JSON contract, the Gantt chart, exports solved again by glpsol, infeasibility
# (exit 1) and bad usage (exit 2).
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-sched.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# The paper's worked example: loads 1.25 and 0.75, makespan 5.75.
run schedule "$ex/paper003_two.json" --load 2
expect_rc 0 "paper example"
grep -q "makespan 5.75 s, optimal" "$tmp/out" || fail "paper example makespan" "$(cat "$tmp/out")"
run schedule "$ex/paper003_two.json" --load 2 --json --exact --gantt "$tmp/g.svg"
expect_rc 0 "paper example json"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "schedule json contract" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
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
fi
grep -q "<svg" "$tmp/g.svg" && grep -q "originator (sends)" "$tmp/g.svg" || fail "gantt chart"

# The two standard-DLT distributions of the paper, evaluated: 10.333 and 5.905.
run evaluate "$ex/paper003_two.json" --loads 1.6666666666666667,0.3333333333333333
expect_rc 0 "evaluate in core"
grep -q "makespan 10.333333" "$tmp/out" || fail "evaluate 10.333" "$(cat "$tmp/out")"
run evaluate "$ex/paper003_two.json" --loads 1.0952380952380953,0.9047619047619048 --json
expect_rc 0 "evaluate out of core"
grep -q '"makespan": 5.90476' "$tmp/out" || fail "evaluate 5.905" "$(cat "$tmp/out")"
run evaluate "$ex/paper003_two.json" --loads 1,2,3
expect_rc 2 "evaluate: too many loads"
run evaluate "$ex/paper003_two.json" --loads 1,abc
expect_rc 2 "evaluate: not a number"
run evaluate "$ex/paper003_two.json" --loads 1,-1
expect_rc 2 "evaluate: negative load"
grep -q 'processor "P2"' "$tmp/err" || fail "negative load message" "$(cat "$tmp/err")"

# Exports, solved again by glpsol.
for f in lp mps glpk mathprog; do
    run export "$ex/memory_levels.json" --load 1e9 --format "$f" -o "$tmp/x.$f"
    expect_rc 0 "export $f"
    [ -s "$tmp/x.$f" ] || fail "export $f wrote nothing"
done
run schedule "$ex/memory_levels.json" --load 1e9 --keep-unused --json
want=$(sed -n 's/^  "paper_makespan": \(.*\),$/\1/p' "$tmp/out")
if command -v glpsol >/dev/null 2>&1 && [ -n "$want" ]; then
    got=$(glpsol -m "$top_srcdir/lp/star.mod" -d "$tmp/x.mathprog" 2>&1 | sed -n 's/^makespan //p')
    awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-7 * a) }' ||
        fail "glpsol on the MathProg export: $got, dlsched $want"
fi
run export "$ex/memory_levels.json" --load 1e9 --format lp
expect_rc 2 "export without -o"
run export "$ex/memory_levels.json" --load 1e9 --format xls -o "$tmp/x"
expect_rc 2 "export: unknown format"
run export "$ex/memory_levels.json" --load 1e9 --format lp -o /nonexistent/dir/x.lp
expect_rc 2 "export: unwritable"

# Infeasible: the limits cannot hold the load.
cat > "$tmp/small.json" <<'JSON'
{"processors": [{"name": "a", "time": [[0, 1]], "limit": 1, "link": {"startup": 0, "rate": 0.1}},
                {"name": "b", "time": [[0, 2]], "limit": 0.5}]}
JSON
run schedule "$tmp/small.json" --load 2
expect_rc 1 "infeasible"
grep -q "at most 1.5" "$tmp/err" || fail "infeasible message" "$(cat "$tmp/err")"
run schedule "$tmp/small.json" --load 2 --no-limits
expect_rc 0 "--no-limits"
run schedule "$tmp/small.json" --load 1.2 --order rate --originator-computes --json
expect_rc 0 "order and originator"
grep -q '"send_order": \[' "$tmp/out" || fail "send order in json" "$(cat "$tmp/out")"

# Usage errors.
run schedule "$tmp/small.json"
expect_rc 2 "schedule without --load"
run schedule "$tmp/small.json" --load -3
expect_rc 2 "negative load"
run schedule "$tmp/small.json" --load 1 --order random
expect_rc 2 "unknown order"
run schedule "$ex/cluster.json" --load 1
expect_rc 2 "2-D model"
grep -q 'processor "gpu0" has a 2-D speed model' "$tmp/err" || fail "2-D message" "$(cat "$tmp/err")"

if [ "$failures" -ne 0 ]; then
    echo "cli_schedule: $failures check(s) failed"
    exit 1
fi
echo "cli_schedule: all checks passed"
