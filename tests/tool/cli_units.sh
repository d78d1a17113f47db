#!/bin/sh
# Platform files in the units a person has (issue 36, item 1) and `check` saying every
# warning (item 3): the four-node cluster of the issue written with bandwidths, bytes per
# unit, memory sizes and paging (examples/four_node_cluster.json) schedules exactly as the
# same platform in seconds per unit and time lines solved by hand
# (tests/data/units/four_node_cluster_seconds.json), at loads where the old node pages and
# where it does not; quantities with units read to the double a person means; `check`
# shows the units and counts the warnings the other commands give. python3 reads the JSON
# (skipped without it).
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

units=$ex/four_node_cluster.json
seconds=$top_srcdir/tests/data/units/four_node_cluster_seconds.json
# The old node pages from 8 GiB / 8 bytes = 2^30 units on.
paging_point=1073741824

# ------------------------------------------------------------------------------------
# 1. The same schedules, to 1e-12, at loads below and beyond the paging point.
for V in 1e6 1e9 5e9 1e10 2e10 5e10; do
    run schedule "$units" --load "$V" --json
    expect_rc 0 "schedule four_node_cluster.json --load $V"
    cp "$tmp/out" "$tmp/units.json"
    run schedule "$seconds" --load "$V" --json
    expect_rc 0 "schedule four_node_cluster_seconds.json --load $V"
    py_json "--load $V: the file in units and the file in seconds give different schedules" \
        "$tmp/out" "$tmp/units.json" <<'PY'
u = json.load(open(sys.argv[2]))
def close(a, b):
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)
assert close(u["makespan"], d["makespan"]), (u["makespan"], d["makespan"])
got = {p["name"]: p["load"] for p in u["processors"]}
want = {p["name"]: p["load"] for p in d["processors"]}
assert got.keys() == want.keys(), (got, want)
for k in want:
    assert close(got[k], want[k]), (k, got[k], want[k])
PY
    cp "$tmp/units.json" "$tmp/out"
    case $V in
        5e9 | 1e10 | 2e10 | 5e10) pages=1 ;;
        *) pages=0 ;;
    esac
    py_json "--load $V: the old node does not page as expected ($pages)" "$tmp/out" \
        "$pages" "$paging_point" <<'PY'
old = [p for p in d["processors"] if p["name"] == "old"][0]
assert (old["load"] > float(sys.argv[3])) == (sys.argv[2] == "1"), old
PY
done

# ------------------------------------------------------------------------------------
# 2. check shows the units: bytes per unit, memory, latency and bandwidth, paging point.
run check "$units"
expect_rc 0 "check four_node_cluster.json"
for want in 'LIMIT (units)' ' UNIT ' 'MEMORY' 'PAGING' \
    'from 1073741824 units (8 GiB), 10x slower' 'latency 100 us, 1.25 GB/s' \
    'latency 3 ms, 6.25 MB/s' '64 GB ' '16 GB ' 'speed 1e+07 units/s'; do
    checks=$((checks + 1))
    grep -qF -- "$want" "$tmp/out" || fail "check four_node_cluster.json does not show '$want'" \
        "$(cat "$tmp/out")"
done
# without bytes per unit, the link in seconds, with its units said
run check "$seconds"
expect_rc 0 "check four_node_cluster_seconds.json"
checks=$((checks + 1))
grep -qF 'startup 0.0001 s, rate 6.4e-09 s/unit' "$tmp/out" ||
    fail "check in seconds: no 'startup 0.0001 s, rate 6.4e-09 s/unit'" "$(cat "$tmp/out")"
checks=$((checks + 1))
! grep -q 'PAGING\|MEMORY' "$tmp/out" ||
    fail "check in seconds: columns of memory or paging for a file without them" "$(cat "$tmp/out")"

run check "$units" --json
expect_rc 0 "check four_node_cluster.json --json"
py_json "check --json: the units of the four-node cluster" <<'PY'
p = {q["name"]: q for q in d["processors"]}
assert p["old"]["paging"] == {"from": 1073741824, "factor": 10}, p["old"]
assert p["old"]["memory"] == 8 * 2**30 and p["old"]["bytes_per_unit"] == 8, p["old"]
assert p["old"]["limit"] is None and p["old"]["model"] == "time" and p["old"]["count"] == 2
assert p["fast1"]["paging"] is None and p["fast1"]["limit"] == 8e9, p["fast1"]
assert p["fast1"]["memory"] == 64e9, p["fast1"]
assert p["laptop"]["link"]["rate"] == 1.28e-6 and p["laptop"]["link"]["startup"] == 3e-3
assert abs(p["laptop"]["link"]["bandwidth"] - 6.25e6) <= 1e-9 * 6.25e6, p["laptop"]["link"]
assert d["warnings"] == [], d["warnings"]
PY

# ------------------------------------------------------------------------------------
# 3. Quantities read to the double a person means; what is refused, located.
cat >"$tmp/spell.json" <<'EOF'
{"bytes_per_unit": "8 B",
 "processors": [
  {"name": "a", "speed": 1e9, "memory": "512 MiB", "link": {"latency": "0.1 ms", "bandwidth": "100 Mbit/s"}},
  {"name": "b", "speed": 1e9, "memory": "1.5e9 B", "bytes_per_unit": 4,
   "link": {"latency": "1.5 µs", "bandwidth": "10 GB/s"}},
  {"name": "c", "speed": 1e9, "memory": "8 GB", "link": {"startup": "250 us", "bandwidth": 1.25e8}},
  {"name": "d", "speed": 1e9, "memory": "2 TiB", "release": "2 s",
   "link": {"latency": "20 ns", "rate": 1e-9}}
 ]}
EOF
run check "$tmp/spell.json" --json
expect_rc 0 "check with units spelled in every way"
py_json "check --json: quantities with units" <<'PY'
p = {q["name"]: q for q in d["processors"]}
assert p["a"]["memory"] == 512 * 2**20 and p["a"]["limit"] == 2**26, p["a"]
assert p["a"]["link"]["startup"] == 1e-4 and p["a"]["link"]["rate"] == 8 / 12.5e6, p["a"]
assert p["b"]["memory"] == 1.5e9 and p["b"]["bytes_per_unit"] == 4 and p["b"]["limit"] == 3.75e8
assert p["b"]["link"]["startup"] == 1.5e-6 and p["b"]["link"]["rate"] == 4 / 1e10, p["b"]
assert p["c"]["link"]["startup"] == 2.5e-4 and p["c"]["link"]["rate"] == 6.4e-8, p["c"]
assert p["d"]["memory"] == 2 * 2**40 and p["d"]["link"]["startup"] == 2e-8, p["d"]
# a release time is a warning of schedule, which check counts
assert any('"d" has a release time' in w for w in d["warnings"]), d["warnings"]
PY

printf '%s\n' '{"bytes_per_unit": 8, "processors": [' \
    '  {"name": "x", "speed": 1e9, "link": {"latency": "250 uS", "bandwidth": "1 GB/s"}}]}' \
    >"$tmp/badunit.json"
run check "$tmp/badunit.json"
expect_rc 2 "a time with an unknown unit"
expect_err ':2:51: processor "x": the link latency "250 uS" has an unknown unit "uS" for a time: give one of s, ms, us' \
    "the unknown unit, located, with the units accepted"
printf '%s\n' '{"processors": [{"name": "x", "speed": 1e9, "memory": "-1 GB", "bytes_per_unit": 8}]}' \
    >"$tmp/neg.json"
run check "$tmp/neg.json"
expect_rc 2 "a negative memory"
expect_err '"memory" must be > 0 bytes, not -1000000000' "a negative memory, in bytes"
# the platform's bytes per unit may come after the processors that need it
printf '%s\n' '{"processors": [{"name": "x", "speed": 1e9, "memory": "8 GiB", "paging": 4,' \
    '  "link": {"latency": "1 ms", "bandwidth": "1 GB/s"}}], "bytes_per_unit": 8}' >"$tmp/late.json"
run check "$tmp/late.json"
expect_rc 0 "bytes_per_unit after the processors"
expect_out 'from 1073741824 units (8 GiB), 4x slower' "paging with the platform's bytes per unit written last"

# ------------------------------------------------------------------------------------
# 4. check counts every warning the other commands give for the file, and says the
#    notes apart: unusual values, a release time, an older bench's speeds, a convex envelope.
cat >"$tmp/warn.json" <<'EOF'
{"processors": [
  {"name": "slowpoke", "speed": 1e-9},
  {"name": "busy", "speed": 1e9, "release": 5},
  {"name": "host-gemm-rows", "speed": {"points": [[10, 1e9], [100, 1e9]]}},
  {"name": "gpu", "speed": {"points": [[1e4, 5e5], [1e6, 8e6], [1e7, 1.2e7], [2e7, 1.1e7]]}}
]}
EOF
run check "$tmp/warn.json"
expect_rc 0 "check on a platform with warnings"
expect_out 'is valid (3 warnings, 1 note)' "check's count of warnings and notes"
expect_out '^warning: processor "slowpoke" has a speed of 1e-09' "the unusual speed"
expect_out '^warning: processor "busy" has a release time' "the release time schedule leaves out"
expect_out '^warning: processor "host-gemm-rows" has speeds measured by an older' "the older bench"
expect_out '^note: processor "gpu": its time x/s(x) is not convex' "the convex envelope, as a note"
checks=$((checks + 1))
[ ! -s "$tmp/err" ] || fail "check printed its warnings to the standard error too" "$(cat "$tmp/err")"
run schedule "$tmp/warn.json" --load 1e6
checks=$((checks + 1))
grep -q 'release time' "$tmp/err" ||
    fail "schedule no longer warns of the release time: check's warning is stale" "$(cat "$tmp/err")"

cli_summary
