#!/bin/sh
# Checks `dlsched crosscheck` and `dlsched schedule --integer / --exact-shape` from the
# outside: verdicts and exit codes, the JSON contracts, whole-number loads, bad usage.
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-cc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/out" "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes

# The paper's example: everything agrees, exit 0.
run crosscheck "$ex/paper003_two.json" --load 2
expect_rc 0 "crosscheck paper"
for name in zero-communication integer-mip replay; do
    grep -q "^  $name  *agree" "$tmp/out" || fail "crosscheck lacks $name" "$(cat "$tmp/out")"
done
grep -q "all checks agree" "$tmp/out" || fail "crosscheck verdict" "$(cat "$tmp/out")"
# A measured model that is not convex: the LP is a lower bound there.
run crosscheck "$ex/star_cluster.json" --load 20000
expect_rc 0 "crosscheck non-convex"
grep -q "not convex" "$tmp/out" || fail "crosscheck: non-convex not said" "$(cat "$tmp/out")"
# A load that is not whole: the integer check stands aside.
run crosscheck "$ex/star_cluster.json" --load 2000.5 --json
expect_rc 0 "crosscheck json"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "crosscheck json" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["agree"] is True and d["load"] == 2000.5
c = {x["name"]: x for x in d["checks"]}
assert set(c) == {"zero-communication", "integer-mip", "replay"}
assert c["integer-mip"]["ran"] is False and "whole" in c["integer-mip"]["detail"]
assert c["replay"]["ran"] and abs(c["replay"]["relative_difference"]) <= 1e-7
PY
fi
run crosscheck "$ex/cluster.json" --load 10
expect_rc 2 "crosscheck with a 2-D model"
grep -q "2-D" "$tmp/err" || fail "crosscheck 2-D message" "$(cat "$tmp/err")"
run crosscheck "$ex/star_cluster.json"
expect_rc 2 "crosscheck without a load"

# Whole-unit schedules: integer loads summing to V, the LP's makespan and the MIP.
run schedule "$ex/star_cluster.json" --load 100000 --integer --json
expect_rc 0 "integer schedule"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "integer json" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
loads = [p["load"] for p in d["processors"]]
assert all(isinstance(x, int) and x >= 0 for x in loads), loads
assert sum(loads) == 100000
assert d["lp_makespan"] > 0 and d["makespan"] > 0
assert d["mip_status"] in ("optimal", "feasible")
assert d["rounded_makespan"] >= d["makespan"] * (1 - 1e-12)
assert abs(d["gap"] - (d["makespan"] - d["lp_makespan"]) / d["lp_makespan"]) < 1e-12
PY
fi
run schedule "$ex/star_cluster.json" --load 100000 --integer --mip no --json
expect_rc 0 "integer without MIP"
grep -q '"mip_status": "not solved"' "$tmp/out" || fail "--mip no" "$(cat "$tmp/out")"
run schedule "$ex/star_cluster.json" --load 100000 --integer
expect_rc 0 "integer table"
grep -q "^whole-unit loads: .* gap" "$tmp/out" || fail "integer summary" "$(cat "$tmp/out")"
run schedule "$ex/star_cluster.json" --load 1000.5 --integer
expect_rc 2 "integer with a fractional load"
run schedule "$ex/star_cluster.json" --load 1000 --mip yes
expect_rc 2 "--mip without --integer"

# The exact shape: never worse than the LP's loads under the true models.
run schedule "$ex/star_cluster.json" --load 1000000 --exact-shape --json
expect_rc 0 "exact shape"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "exact-shape json" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["makespan"] <= d["lp_true_makespan"] * (1 + 1e-12)
assert d["mip_status"] in ("optimal", "feasible")
assert abs(sum(p["load"] for p in d["processors"]) - 1e6) <= 1e-6
PY
fi

if [ "$failures" -ne 0 ]; then
    printf '%d failure(s)\n' "$failures"
    exit 1
fi
echo "cli_crosscheck: all checks passed"
