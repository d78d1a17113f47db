#!/bin/sh
# Checks `dlsched installments` from the outside: the paper's setting (formula (5) gives 1e4,
# Fig. 10's makespans against the LP), the JSON contract, the sweep and the fallback to it,
# the Gantt chart, limits, and exit status 2 for bad usage and bad input.
set -eu
: "${DLSCHED:=./tool/dlsched}"
: "${top_srcdir:=.}"
ex=$top_srcdir/examples
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dlsched-inst.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { failures=$((failures + 1)); printf 'FAIL: %s\n' "$1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    /'; }
run() { rc=0; "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?; }
expect_rc() { [ "$rc" -eq "$1" ] || fail "$2: exit $rc, expected $1" "$(cat "$tmp/err")"; }
expect_out() { grep -q -- "$1" "$tmp/out" || fail "$2: no \"$1\" in the output" "$(cat "$tmp/out")"; }
expect_err() { grep -q -- "$1" "$tmp/err" || fail "$2: no \"$1\" in the messages" "$(cat "$tmp/err")"; }
have_python=no
command -v python3 >/dev/null 2>&1 && have_python=yes
paper=$ex/paper003_ten.json

# The paper's setting: formula (5) gives 1e4; at 1e10 units a round and a chunk both last
# 10 s, so the last processor finishes round 1e5 - 1 at 10 + 10 + 10 (1e5 - 1) s.
run installments "$paper" --load 1e10
expect_rc 0 "paper setting"
expect_out "chunk-size range: (0.101009, 1e+08\] (upper end: the swap point of \"P1\")" "range"
expect_out "formula (5): 10000 (set by \"P1\"), in the range" "formula"
expect_out "chunk: 10000 (formula)" "chunk used"
expect_out "1000000 chunks in 100000 rounds of 10 s over 10 processors" "rounds"
expect_out "makespan 1000010 s" "makespan"
expect_out "single-installment LP makespan 9" "LP makespan"
expect_out "multi-installment / LP = 0.011" "ratio"
expect_out "P10 .*works .*100000 " "processor table"
[ ! -s "$tmp/err" ] || fail "paper setting: unexpected messages" "$(cat "$tmp/err")"

# delta = 5 on 1e11 units: 2e9 rounds of 0.014995 s, plus the last chunk's 0.005 s.
run installments "$paper" --load 1e11 --chunk 5 --json
expect_rc 0 "delta = 5"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "json contract" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("load", "chunk", "makespan", "single_installment_makespan", "rounds", "chunks",
          "range", "formula", "processors", "ratio", "round_time", "last_chunk", "rotation",
          "chunk_source", "single_installment_status"):
    assert k in d, k
assert d["load"] == 1e11 and d["chunk"] == 5 and d["chunk_source"] == "given"
assert d["chunks"] == 2 * 10**10 and d["rounds"] == 2 * 10**9 and d["rotation"] == 10
assert abs(d["makespan"] - 29990000.005) < 1e-6 * 29990000
assert d["single_installment_status"] == "optimal"
assert d["single_installment_makespan"] > 20 * d["makespan"]
assert abs(d["ratio"] - d["makespan"] / d["single_installment_makespan"]) < 1e-12
r = d["range"]
assert abs(r["lower"] - 0.01 / (0.1 - 9.99e-4)) < 1e-9 and abs(r["upper"] - 1e8) < 1e-3
assert r["lower_status"] == "defined" and r["upper_processor"] == "P1"
assert r["upper_kind"] == "swap point" and r["empty"] is False
f = d["formula"]
assert f["status"] == "defined" and abs(f["value"] - 1e4) < 1e-5 and f["in_range"] is True
assert f["processor"] == "P1" and f["bad_value"] is None
p = d["processors"]
assert [x["name"] for x in p] == ["P%d" % i for i in range(1, 11)]
for x in p:
    for k in ("role", "chunks", "load", "first_arrival", "finish", "busy", "wait",
              "chunk_time", "level", "in_core", "out_of_core_rate", "swap_point"):
        assert k in x, k
    assert x["role"] == "works" and x["chunks"] == 2 * 10**9 and x["level"] == 1
assert abs(sum(x["load"] for x in p) - 1e11) < 1e-3
assert p[0]["in_core"] == [0, 1e-3] and p[0]["out_of_core_rate"] == 0.1
PY
fi

# One chunk below delta: only P1 works, with warnings.
run installments "$paper" --load 5e3
expect_rc 0 "one chunk"
expect_out "makespan 5.5005 s" "one chunk makespan"
expect_err "only 1 of the 10 processors in the rotation gets one" "one chunk note"
expect_err "chunk sweep finds a better chunk size" "one chunk hint"

# The sweep: never worse than the formula's chunk.
run installments "$paper" --load 1e10 --chunk sweep --json --no-compare
expect_rc 0 "sweep"
if [ "$have_python" = yes ]; then
    python3 - "$tmp/out" <<'PY' || fail "sweep json" "$(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["chunk_source"] == "sweep" and d["sweep"]["evaluated"] > 200
assert d["makespan"] <= 1000010 * (1 + 1e-12)
assert d["single_installment_makespan"] is None and d["ratio"] is None
assert d["single_installment_status"] == "skipped"
PY
fi
run installments "$paper" --load 1e6 --chunk sweep
expect_rc 0 "sweep text"
expect_out "(sweep, best of [0-9]* sizes simulated)" "sweep text"

# A network too slow for the formula: warning, then the sweep.
sed 's/9.99e-5/2e-4/g' "$paper" >"$tmp/slow.json"
run installments "$tmp/slow.json" --load 1e8 --json --no-compare
expect_rc 0 "formula undefined"
expect_err "formula (5) is undefined: processor \"P1\": the denominator" "formula undefined warning"
expect_err "sweeping the chunk size instead" "fallback"
grep -q '"chunk_source": "sweep"' "$tmp/out" || fail "fallback source" "$(cat "$tmp/out")"
grep -q '"status": "denominator"' "$tmp/out" || fail "formula status" "$(cat "$tmp/out")"

# The formula beyond a limit: out of the range, swept; the LP cannot hold the load.
cat >"$tmp/limits.json" <<'JSON'
{"processors": [
  {"name": "a", "time": [[0, 1e-3], [-9.9e6, 0.1]], "link": {"startup": 1e-3, "rate": 9.99e-5}, "limit": 1},
  {"name": "b", "time": [[0, 1e-3], [-9.9e6, 0.1]], "link": {"startup": 1e-3, "rate": 9.99e-5}, "limit": 2e4}
]}
JSON
run installments "$tmp/limits.json" --load 1e6
expect_rc 0 "limits"
expect_err "is out of the range: the formula gives 2.49938, above the upper end 1 of the range (the limit of processor \"a\")" "out of range"
expect_out "upper end: the limit of \"a\"" "limit sets the upper end"
expect_out "single-installment LP: infeasible" "LP infeasible"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e4
expect_rc 0 "a processor left out"
expect_err "processor \"a\": its limit 1 is below the chunk size 10000: left out" "left-out note"
expect_out "a .*left out" "left-out role"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e5
expect_rc 2 "no processor holds the chunk"
expect_err "no processor can hold a chunk of 100000 units: the largest limit is 20000" "no processor message"
run installments "$tmp/limits.json" --load 1e6 --chunk 1e5 --no-limits --no-compare
expect_rc 0 "--no-limits"
expect_out "single-installment LP: skipped" "--no-compare"

# The Gantt chart, long (with a break) and short.
run installments "$paper" --load 1e10 --gantt "$tmp/long.svg" --no-compare
expect_rc 0 "gantt"
grep -q "<svg" "$tmp/long.svg" && grep -q "originator (sends)" "$tmp/long.svg" &&
    grep -q "99994 rounds left out" "$tmp/long.svg" || fail "gantt chart (long)"
run installments "$paper" --load 3e5 --gantt "$tmp/short.svg" --gantt-rounds 5 --no-compare
expect_rc 0 "gantt short"
n=$(grep -c "<title>chunk " "$tmp/short.svg" || true)
[ "$n" -eq 30 ] || fail "gantt chart (short): $n chunks drawn, expected 30"
if [ "$have_python" = yes ]; then
    python3 -c 'import sys, xml.etree.ElementTree as E; [E.parse(f) for f in sys.argv[1:]]' \
        "$tmp/long.svg" "$tmp/short.svg" || fail "gantt charts are not well-formed XML"
fi
run installments "$paper" --load 1e10 --gantt /nonexistent/dir/g.svg
expect_rc 2 "unwritable gantt"
expect_err "/nonexistent/dir/g.svg" "unwritable gantt message"

# Usage errors and bad input.
run installments "$paper"
expect_rc 2 "no --load"
run installments "$paper" --load -3
expect_rc 2 "negative load"
for c in abc 0 -1 inf nan 1e4x; do
    run installments "$paper" --load 1e6 --chunk "$c"
    expect_rc 2 "--chunk $c"
    expect_err "chunk must be a number > 0, formula or sweep" "--chunk $c message"
done
run installments "$paper" --load 1e20 --chunk 1
expect_rc 2 "too many chunks"
expect_err "more than 2^53" "too many chunks message"
run installments "$paper" --load 1e6 --gantt-rounds 0
expect_rc 2 "--gantt-rounds 0"
run installments "$paper" --load 1e6 --bogus
expect_rc 2 "unknown option"
run installments "$ex/cluster.json" --load 10
expect_rc 2 "2-D model"
expect_err 'processor "gpu0" has a 2-D speed model' "2-D message"
run installments "$tmp/missing.json" --load 10
expect_rc 2 "missing platform"
run help installments
expect_rc 0 "help"
expect_out "Usage: dlsched installments PLATFORM --load V" "help text"

if [ "$failures" -ne 0 ]; then
    echo "cli_installments: $failures check(s) failed"
    exit 1
fi
echo "cli_installments: all checks passed"
