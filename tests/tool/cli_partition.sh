#!/bin/sh
# Checks `dlsched partition` from the outside: tables, the JSON contract, ordered and
# weighted sets, striped matrices, infeasibility (exit 1) and bad usage (exit 2).
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-part.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# A table with one line per processor and the summary.
run partition "$ex/memory_levels.json" --elements 100000000
expect_rc 0 "table"
grep -q "new-epyc" "$tmp/out" || fail "table lacks a processor" "$(cat "$tmp/out")"
grep -q "makespan .* lower bound .* optimal" "$tmp/out" || fail "table lacks the summary" "$(cat "$tmp/out")"

# The JSON contract.
run partition "$ex/memory_levels.json" --elements 100000000 --json
expect_rc 0 "json"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "json contract" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["elements"] == 100000000
assert d["makespan"] >= d["lower_bound"] > 0
names = [p["name"] for p in d["processors"]]
assert names == ["old-xeon", "new-epyc", "laptop", "gpu"], names
assert sum(p["elements"] for p in d["processors"]) == 100000000
assert max(p["time"] for p in d["processors"]) == d["makespan"]
assert all(p["time"] == 0 for p in d["processors"] if p["elements"] == 0)
assert d["status"] == "optimal"
assert all(isinstance(p["elements"], int) for p in d["processors"])
PY
fi

# Both root-finding methods give the same makespan.
run partition "$ex/memory_levels.json" --elements 123456789 --json
m1=$(grep '"makespan"' "$tmp/out")
run partition "$ex/memory_levels.json" --elements 123456789 --json --method bisection
m2=$(grep '"makespan"' "$tmp/out")
[ "$m1" = "$m2" ] || fail "methods disagree: $m1 / $m2"

# Ordered sets add "first".
run partition "$ex/memory_levels.json" --elements 1000 --ordered --json
expect_rc 0 "ordered"
grep -q '"first": 0' "$tmp/out" || fail "ordered: no first" "$(cat "$tmp/out")"

# Weighted sets, from plain numbers and from a JSON array.
printf '# weights\n5 3 8\n2.5\n1 1 1\n' > "$tmp/w.txt"
run partition "$ex/paper003_two.json" --weights "$tmp/w.txt" --json
expect_rc 0 "weights"
grep -q '"weight"' "$tmp/out" || fail "weights: no weight field" "$(cat "$tmp/out")"
grep -q '"assignment"' "$tmp/out" || fail "weights: no assignment" "$(cat "$tmp/out")"
printf '[5, 3, 8, 2.5, 1, 1, 1]' > "$tmp/w.json"
run partition "$ex/paper003_two.json" --weights "$tmp/w.json" --ordered
expect_rc 0 "weights json ordered"
run partition "$ex/paper003_two.json" --weights "$tmp/w.json" --elements 6
expect_rc 2 "weights count mismatch"
grep -q "holds 7 weights" "$tmp/err" || fail "mismatch message" "$(cat "$tmp/err")"
printf '1 2\nthree\n' > "$tmp/bad.txt"
run partition "$ex/paper003_two.json" --weights "$tmp/bad.txt"
expect_rc 2 "bad weight"
grep -q "bad.txt:2: \"three\" is not a number" "$tmp/err" || fail "bad weight message" "$(cat "$tmp/err")"
printf '1 -2\n' > "$tmp/neg.txt"
run partition "$ex/paper003_two.json" --weights "$tmp/neg.txt"
expect_rc 2 "negative weight"

# Striped matrix multiplication needs --matrix with 2-D models.
run partition "$ex/striped_mm.json" --matrix 6000 --json
expect_rc 0 "matrix"
run partition "$ex/striped_mm.json" --elements 6000
expect_rc 2 "2-D model without --matrix"
grep -q 'processor "X1" has a 2-D speed model' "$tmp/err" || fail "2-D message" "$(cat "$tmp/err")"

# Infeasible: the limits cannot hold the set.
cat > "$tmp/small.json" <<'JSON'
{"processors": [{"name": "a", "speed": 10, "limit": 100}, {"name": "b", "speed": 5, "limit": 50.5}]}
JSON
run partition "$tmp/small.json" --elements 151
expect_rc 1 "infeasible"
grep -q "at most 150 elements" "$tmp/err" || fail "infeasible message" "$(cat "$tmp/err")"
run partition "$tmp/small.json" --elements 151 --no-limits
expect_rc 0 "--no-limits"
run partition "$tmp/small.json" --elements 150
expect_rc 0 "exactly the capacity"

# Usage errors.
run partition "$tmp/small.json"
expect_rc 2 "no --elements"
run partition "$tmp/small.json" --elements 10 --reorder
expect_rc 2 "--reorder without --ordered"
run partition "$tmp/small.json" --elements ten
expect_rc 2 "--elements not a number"
run partition "$tmp/small.json" --elements 1e300
expect_rc 2 "--elements too large"
run partition "$tmp/small.json" --elements 10 --method magic
expect_rc 2 "unknown method"
run partition "$tmp/small.json" --matrix 10 --elements 3
expect_rc 2 "--matrix with --elements"
run help partition
expect_rc 0 "help partition"
grep -q -- "--weights" "$tmp/out" || fail "help lacks --weights"

if [ "$failures" -ne 0 ]; then
    echo "cli_partition: $failures check(s) failed"
    exit 1
fi
echo "cli_partition: all checks passed"
