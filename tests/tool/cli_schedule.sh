#!/bin/sh
# Checks `dlsched schedule`, `evaluate` and `export` from the outside: the paper's worked
# example, the Gantt chart, exports solved again by glpsol, infeasibility (exit 1) and bad
# usage (exit 2). The JSON contract is read by python3 in cli_schedule_json.sh.
. "${top_srcdir:-.}/tests/support/cli.sh"

# The paper's worked example: loads 1.25 and 0.75, makespan 5.75.
run schedule "$ex/star_two.json" --load 2
expect_rc 0 "paper example"
expect_out "makespan 5.75 s, optimal" "paper example makespan"
run schedule "$ex/star_two.json" --load 2 --json --exact --gantt "$tmp/g.svg"
expect_rc 0 "paper example json"
grep -q "<svg" "$tmp/g.svg" && grep -q "originator (sends)" "$tmp/g.svg" || fail "gantt chart"

# The two standard-DLT distributions of the paper, evaluated: 10.333 and 5.905.
run evaluate "$ex/star_two.json" --loads 1.6666666666666667,0.3333333333333333
expect_rc 0 "evaluate in core"
expect_out "makespan 10.333333" "evaluate 10.333"
run evaluate "$ex/star_two.json" --loads 1.0952380952380953,0.9047619047619048 --json
expect_rc 0 "evaluate out of core"
expect_out '"makespan": 5.90476' "evaluate 5.905"
run evaluate "$ex/star_two.json" --loads 1,2,3
expect_rc 2 "evaluate: too many loads"
run evaluate "$ex/star_two.json" --loads 1,abc
expect_rc 2 "evaluate: not a number"
run evaluate "$ex/star_two.json" --loads 1,-1
expect_rc 2 "evaluate: negative load"
expect_err 'processor "P2"' "negative load message"
# issue 35: every load held to the domain (0 allowed: a processor sent nothing)
for l in 1e-300 1e61 1e-400; do
    run evaluate "$ex/star_two.json" --loads 1,$l
    expect_refused 2 "evaluate: a load of $l" "--loads: number 2 (processor \"P2\"), $l, is outside the domain"
done
run evaluate "$ex/star_two.json" --loads 2,0
expect_rc 0 "evaluate: a load of 0"

# A measured timeline against its prediction (the paper's example: the in-core loads,
# predicted 10.333 s): each finish, the makespans and their error, the chart of both.
cp "$top_srcdir/tests/data/measured/star_two.json" "$tmp/measured.json"
run evaluate "$ex/star_two.json" --measured "$tmp/measured.json" --gantt "$tmp/cmp.svg"
expect_rc 0 "evaluate --measured"
expect_out "makespan: predicted 10.3333 s, measured 10.9 s (+5.5%)" "evaluate --measured makespans"
grep -q "Predicted against measured" "$tmp/cmp.svg" && grep -q "P2, measured" "$tmp/cmp.svg" ||
    fail "evaluate --measured: the chart"
run evaluate "$ex/star_two.json" --measured "$tmp/measured.json" --json
expect_rc 0 "evaluate --measured --json"
expect_out '"kind": "measured"' "evaluate --measured --json: the measured schedule"
printf '{"processors": [{"load": 1, "send_start": 0, "send_end": 1, "finish": 2}]}' > "$tmp/m1.json"
run evaluate "$ex/star_two.json" --measured "$tmp/m1.json"
expect_rc 2 "evaluate --measured: one timeline for two processors"
expect_err "must be an array of 2 timelines" "evaluate --measured: count message"
printf '{"processors": [{"load": 1, "send_start": 0, "send_end": 1},\n {"load": 1}]}' > "$tmp/m2.json"
run evaluate "$ex/star_two.json" --measured "$tmp/m2.json"
expect_rc 2 "evaluate --measured: no finish"
expect_err 'processor 1: "finish" must be a number' "evaluate --measured: missing key message"
printf '{"processors": [{"load": 1, "send_start": 2, "send_end": 1, "finish": 3},\n {"load": 0, "send_start": null, "send_end": null, "finish": null}]}' > "$tmp/m3.json"
run evaluate "$ex/star_two.json" --measured "$tmp/m3.json"
expect_rc 2 "evaluate --measured: times out of order"
expect_err 'dlsched: processor "P1"' "evaluate --measured: times message"
printf '{"processors": [\n  {"load": 1,}\n]}' > "$tmp/m4.json"
run evaluate "$ex/star_two.json" --measured "$tmp/m4.json"
expect_rc 2 "evaluate --measured: malformed"
expect_err "m4.json:2:" "evaluate --measured: malformed file's line"
run evaluate "$ex/star_two.json" --measured "$tmp/measured.json" --loads 1,1
expect_rc 2 "evaluate: --loads and --measured together"

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
expect_err "at most 1.5" "infeasible message"
run schedule "$tmp/small.json" --load 2 --no-limits
expect_rc 0 "--no-limits"
run schedule "$tmp/small.json" --load 1.2 --order rate --originator-computes --json
expect_rc 0 "order and originator"
expect_out '"send_order": \[' "send order in json"

# Usage errors.
run schedule "$tmp/small.json"
expect_rc 2 "schedule without --load"
run schedule "$tmp/small.json" --load -3
expect_rc 2 "negative load"
run schedule "$tmp/small.json" --load 1 --order random
expect_rc 2 "unknown order"
run schedule "$ex/cluster.json" --load 1
expect_rc 2 "2-D model"
expect_err 'processor "gpu0" has a 2-D speed model' "2-D message"

# Platforms on which GLPK's simplex used to run for minutes (tests/data/stall/, see
# tests/schedule/test_limits.c): each ends with a schedule, the paper's LP and the MIPs
# too. timeout(1), where there is one, turns a hang into a failure after 30 s (exit 124);
# the times themselves are in doc/BENCHMARKS.md.
guard=
if command -v timeout >/dev/null 2>&1; then
    guard="timeout 30"
fi
for f in "$top_srcdir"/tests/data/stall/*.json; do
    for mode in "" --keep-unused --integer --exact-shape; do
        rc=0
        $guard "$DLSCHED" schedule "$f" --load 100 $mode >"$tmp/out" 2>"$tmp/err" </dev/null ||
            rc=$?
        checks=$((checks + 1))
        expect_rc 0 "stall ${f##*/} $mode"
    done
done
run schedule "$top_srcdir/tests/data/stall/issue_1.json" --load 100 --solver glpk
expect_err 'processor "w1" could take at most 1e-12 of the load' "negligible processor note"

# One time limit for the LP, the MIP and the order search, its defaults read from the library.
run schedule --help
tr '\n' ' ' <"$tmp/out" | tr -s ' ' | grep -q 'time-limit S .*(default 600 for the LP, 60 for each MIP, 60 for the order search)' ||
    fail "time limit default" "$(cat "$tmp/out")"
run crosscheck --help
tr '\n' ' ' <"$tmp/out" | tr -s ' ' | grep -q 'time-limit S .*(default 600 for each LP, 60 for the MIP)' ||
    fail "crosscheck time limit" "$(cat "$tmp/out")"
run schedule "$ex/star_two.json" --load 2 --time-limit 0
expect_rc 2 "time limit 0"
run schedule "$ex/star_two.json" --load 2 --time-limit 5
expect_rc 0 "time limit 5"
expect_out "makespan 5.75 s, optimal" "time limit 5 makespan"

# The solvers: the chain by default, GLPK on demand and for --exact.
run schedule "$ex/star_two.json" --load 2
expect_out "optimal by the chain solver" "chain by default"
expect_out "dT/dV 1.83333 s per unit" "marginal cost"
run schedule "$ex/star_two.json" --load 2 --solver glpk
expect_rc 0 "--solver glpk"
expect_out "makespan 5.75 s, optimal, [0-9]* simplex iterations" "--solver glpk report"
run schedule "$ex/star_two.json" --load 2 --exact
expect_out "confirmed by the exact simplex" "--exact picks GLPK"
run schedule "$ex/star_two.json" --load 2 --exact --solver chain
expect_rc 2 "--exact with the chain"
expect_err "needs --solver glpk" "--exact with the chain message"
run schedule "$ex/star_two.json" --load 2 --solver simplex
expect_rc 2 "unknown solver"
run schedule "$ex/star_two.json" --load 2 --solver glpk --max-pieces 100
expect_rc 2 "--max-pieces with GLPK"
run schedule "$ex/star_two.json" --load 2 --max-pieces 3
expect_rc 2 "--max-pieces too small"

# The curve T(V): the paper's example, checked against GLPK at a load between two bends
# (1.1: 4 + 0.1 x 4/3) and past the last (3: 6.5444 + 0.5667 x 5.7619).
run schedule "$ex/star_two.json" --load 2 --curve --from 0.5 --to 4
expect_rc 0 "curve"
expect_out "1.166666667 *4.222222222 *1.83333333" "curve bend"
expect_out "at load 2 units: makespan 5.75 s; dT/dV 1.83333 s per unit" "curve at V"
for v in 1.1 3; do
    run schedule "$ex/star_two.json" --load $v --solver glpk --json
    g=$(sed -n 's/^  "makespan": \(.*\),$/\1/p' "$tmp/out")
    run schedule "$ex/star_two.json" --load 2 --curve --from 0.5 --to 4 --json
    c=$(python3 -c "
import json, sys
d = json.load(open('$tmp/out'))
p = d['points']
v = $v
for (a, ta), (b, tb) in zip(p, p[1:]):
    if a <= v <= b and b > a:
        print(ta + (tb - ta) * (v - a) / (b - a)); break
" 2>/dev/null)
    if [ -n "$c" ]; then
        awk -v a="$g" -v b="$c" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * a) }' ||
            fail "curve at $v: $c, GLPK $g"
    fi
done
run schedule "$ex/star_two.json" --load 2 --curve --svg "$tmp/curve.svg"
expect_rc 0 "curve svg"
grep -q "V = 2:" "$tmp/curve.svg" || fail "curve svg marks the load"
run schedule "$ex/star_two.json" --load 2 --curve --svg - --json
expect_out "</svg>" "curve svg on standard output"
run schedule "$ex/star_two.json" --load 2 --svg "$tmp/c.svg"
expect_rc 2 "--svg without --curve"
run schedule "$ex/star_two.json" --load 2 --curve --integer
expect_rc 2 "--curve with --integer"
run schedule "$ex/star_two.json" --load 2 --curve --solver glpk
expect_rc 2 "--curve with GLPK"
run schedule "$ex/star_two.json" --load 2 --curve --from 3 --to 1
expect_rc 2 "--curve with an empty range"
run schedule "$tmp/small.json" --load 1 --curve --to 2
expect_rc 2 "--curve beyond the capacity"
expect_err "at most 1.5" "--curve beyond the capacity message"

# Limits that hold the load exactly or within rounding (issue 34; tests/data/limits_hold/:
# three stars on which the chain once stepped past the point where the last processor
# reaches its limit, or closed the sum of the loads over a limit): every mode answers, and
# the paper's LP (--keep-unused) equals GLPK's within 1e-9 in both orders.
makespan_of() { sed -n 's/^makespan \([0-9.e+-]*\) s.*/\1/p' "$tmp/out"; }
for c in two_binding:33239.290555440864 four_orders:20.92270456270729 \
    free_link:2.4263589241524866; do
    f=$top_srcdir/tests/data/limits_hold/${c%%:*}.json
    v=${c#*:}
    for mode in "" "--order best" "--order rate" "--originator-computes" \
        "--order best --originator-computes"; do
        # shellcheck disable=SC2086
        run schedule "$f" --load "$v" $mode
        expect_rc 0 "limits holding the load: ${c%%:*} $mode"
    done
    for order in given rate; do
        run schedule "$f" --load "$v" --keep-unused --order $order --solver glpk
        g=$(makespan_of)
        run schedule "$f" --load "$v" --keep-unused --order $order
        expect_rc 0 "limits holding the load: ${c%%:*}, the paper's LP, $order order"
        awk -v a="$g" -v b="$(makespan_of)" \
            'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-8 * a) }' ||
            fail "limits holding the load: ${c%%:*}, $order order: chain $(makespan_of), GLPK $g"
    done
done

# Tables for people (issue 36, item 2): the load in all its digits in the title, units in
# every header, each column with one count of decimals (none of 8e+09, 1.77636e-15), a share
# in percent, a legend for LEVEL, --digits, and an unused processor a word of the table (not a
# warning); plurals right.
run schedule "$ex/memory_levels.json" --load 1e9
expect_rc 0 "table for people"
expect_out "load 1000000000 units over 4 processors" "table: the load in the title"
expect_out "LOAD (units)  SHARE (%)  SEND START (s)  SEND END (s)  FINISH (s)  COMPUTE TIME (s)  IDLE TIME (s)  LEVEL" "table: units in the headers"
expect_out "^LEVEL: the time line" "table: the LEVEL legend"
if grep -q -E "^  .*[0-9]e[-+]?[0-9]" "$tmp/out"; then
    fail "table: a number in exponent form" "$(cat "$tmp/out")"
fi
# table_decimals DIGITS: every numeric column of the table has one count of decimals, and its
# largest value DIGITS significant digits at least (the part before the point in full)
table_decimals() {
    [ -n "$PYTHON3" ] || return 0
    py_check "table: one count of decimals per column (--digits $1)" "$tmp/out" "$1" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
digits = int(sys.argv[2])
head = next(l for l in lines if l.startswith("  NAME"))
ends = [m.end() for m in re.finditer(r"\)", head)]  # each numeric heading ends with its unit
rows = [l for l in lines[lines.index(head) + 1:] if l.startswith("  ")]
assert rows, lines
for end in ends:
    cells = [re.findall(r"[^ ]+$", r[:end])[0] for r in rows]
    nums = [c for c in cells if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", c)]
    decimals = {len(c.split(".")[1]) if "." in c else 0 for c in nums}
    assert len(decimals) == 1, (head[:end], cells)
    top = max(nums, key=lambda c: abs(float(c)))
    sig = len(top.replace("-", "").replace(".", "").lstrip("0"))
    assert float(top) == 0 or sig >= digits, (head[:end], top, digits)
PY
}
table_decimals 6
run schedule "$ex/star_cluster.json" --load 1e6
expect_rc 0 "table: rounding noise"
if grep -q -E "e-1[0-9]" "$tmp/out"; then
    fail "table: rounding noise shown instead of 0" "$(cat "$tmp/out")"
fi
table_decimals 6
run schedule "$ex/star_cluster.json" --load 1e6 --digits 3
expect_rc 0 "table: --digits 3"
table_decimals 3
expect_out "^  xeon-a  *228644  *22.9 " "table: --digits 3, a share of 22.9%"
cat > "$tmp/unused.json" <<'EOF2'
{"processors": [
  {"name": "near", "speed": 100, "link": {"startup": 0.01, "rate": 0.001}},
  {"name": "far", "speed": 1, "link": {"startup": 50, "rate": 0.1}}]}
EOF2
run schedule "$tmp/unused.json" --load 1000
expect_rc 0 "table: an unused processor"
expect_out "^  far  *0.00  *0.000  *-  *-  *unused  *-  *-  *-" "table: the word unused"
expect_out "^1 processor unused (given no load" "table: the unused processor said"
expect_out "1 of 2 processors used" "table: 1 of 2 processors"
if grep -q "warning" "$tmp/err"; then
    fail "table: an unused processor is a warning" "$(cat "$tmp/err")"
fi
printf '{"processors": [{"name": "only", "speed": 10, "link": {"startup": 1, "rate": 0.01}}]}\n' > "$tmp/one.json"
run schedule "$tmp/one.json" --load 100
expect_rc 0 "table: one processor"
expect_out "load 100 units over 1 processor, in send order" "table: 1 processor in the title"
expect_out "1 of 1 processor used" "table: 1 of 1 processor"
run evaluate "$tmp/one.json" --loads 1,2
expect_rc 2 "evaluate: two loads for one processor"
expect_err "--loads must be 1 number (one per processor" "evaluate: 1 number"

cli_summary
