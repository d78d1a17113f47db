#!/bin/sh
# `dlsched verify`: every JSON that dlsched schedule, evaluate and partition write verifies
# as it is (exit 0); broken copies of them are refused (exit 1) naming the processor and the
# amount; CSV tables verify; bad input exits 2. Needs python3 to break the copies (skipped
# without it).
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

# Every schedule dlsched writes, in every mode, verifies as written.
for f in star_cluster memory_levels star_ten star_two; do
    P=$ex/$f.json
    for mode in "" "--order rate" "--keep-unused" "--solver glpk" "--originator-computes"; do
        # shellcheck disable=SC2086 # the mode is words
        run schedule "$P" --load 1000 $mode --json
        expect_rc 0 "schedule $f $mode"
        cp "$tmp/out" "$tmp/s.json"
        case $mode in --order* | --originator*) vmode=$mode ;; *) vmode= ;; esac
        # shellcheck disable=SC2086
        run verify "$P" "$tmp/s.json" $vmode
        expect_rc 0 "verify of schedule $f $mode"
    done
    run partition "$P" --elements 1000 --json
    cp "$tmp/out" "$tmp/p.json"
    run verify "$P" "$tmp/p.json"
    expect_rc 0 "verify of partition $f"
done
# --best-order: a schedule in the platform's order measured against the best order, which
# schedule --order best finds on its own; without the flag no best_order key.
P=$ex/star_ten.json
run schedule "$P" --load 1000 --order best --json
cp "$tmp/out" "$tmp/best.json"
run schedule "$P" --load 1000 --json
cp "$tmp/out" "$tmp/given.json"
run verify "$P" "$tmp/given.json" --best-order --json
expect_rc 0 "verify --best-order of the platform's order"
py_json "the best order's optimum is schedule --order best's makespan" "$tmp/out" "$tmp/best.json" <<'PY'
b = json.load(open(sys.argv[2]))
o = d["best_order"]
assert abs(o["optimum"] - b["makespan"]) <= 1e-9 * b["makespan"], (o, b["makespan"])
assert o["proven"] and o["lower_bound"] <= o["optimum"] * (1 + 1e-9), o
assert abs(d["best"] - min(d["selection_optimum"], o["optimum"])) <= 1e-12 * d["best"], d
assert abs(d["gap"] - (d["makespan"] - d["best"])) <= 1e-9 * d["best"], d
PY
run verify "$P" "$tmp/best.json" --best-order
expect_rc 0 "verify --best-order of the best order"
expect_out "best send order and set of processors: .* (proven; no order below" "the best order's line"
expect_out "gap to the optimum .*: 0 s" "the best order at gap 0"
run verify "$P" "$tmp/given.json" --json
py_json "no best_order key without --best-order" <<'PY'
assert "best_order" not in d, d
PY
run verify "$P" "$tmp/given.json" --order best
expect_rc 2 "verify --order best"
expect_err "add --best-order" "verify --order best points to --best-order"

# Weighted partitions: each processor's time for the weight it holds (which elements is not
# said in the JSON, so no optimum: a note says so).
printf '{"processors": [{"name": "w1", "time": [[0, 0.5]]}, {"name": "w2", "speed": 4}]}' > "$tmp/wp.json"
printf '[3, 1, 4, 1, 5, 9, 2, 6]' > "$tmp/weights.json"
run partition "$tmp/wp.json" --weights "$tmp/weights.json" --ordered --json
expect_rc 0 "a weighted partition"
cp "$tmp/out" "$tmp/w.json"
run verify "$tmp/wp.json" "$tmp/w.json"
expect_rc 0 "verify of a weighted partition"
expect_err "no optimum is computed" "the note on weighted partitions"
"$PYTHON3" - "$tmp/w.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["processors"][0]
p["time"] = p["weight"] * 0.5 - 1
json.dump(d, open(sys.argv[1], "w"))
PY
run verify "$tmp/wp.json" "$tmp/w.json"
expect_rc 1 "a weighted partition claiming 1 s less"
expect_out 'finish: processor "w1": claimed to take .* for a weight of .* (by 1 s)' "the weighted finish"

# With --weights: element by element, dlsched's own ordered and unordered partitions at gap 0
printf '{"processors": [{"name": "w1", "time": [[0, 0.5]]}, {"name": "w2", "speed": 4},
 {"name": "w3", "speed": 2.5, "limit": 30}]}' > "$tmp/wp3.json"
printf '3 1 4 1 5 9 2 6 5 3.5 # digits\n8.25 9.75\n' > "$tmp/w12.txt"
for mode in "" "--ordered" "--ordered --reorder"; do
    # shellcheck disable=SC2086 # the mode is words
    run partition "$tmp/wp3.json" --weights "$tmp/w12.txt" $mode --json
    expect_rc 0 "a weighted partition $mode"
    cp "$tmp/out" "$tmp/w$$.json"
    # shellcheck disable=SC2086
    run verify "$tmp/wp3.json" "$tmp/w$$.json" --weights "$tmp/w12.txt" $mode --json
    expect_rc 0 "verify --weights of partition $mode"
    py_json "valid at gap 0, the weight the weights' sum ($mode)" <<'PY'
assert d["valid"] and abs(d["gap"]) <= 1e-9 * d["best"], d
assert abs(d["load"] - 57.5) < 1e-12, d["load"]
PY
done
run partition "$tmp/wp3.json" --weights "$tmp/w12.txt" --json
cp "$tmp/out" "$tmp/wu.json"
# element 4 moved to another processor; element 11 dropped
"$PYTHON3" - "$tmp/wu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a = d["assignment"]
a[4] = (a[4] + 1) % 3
json.dump(d, open(sys.argv[1] + ".moved", "w"))
d["assignment"] = a[:11]
d["elements"] = 11
json.dump(d, open(sys.argv[1] + ".dropped", "w"))
PY
run verify "$tmp/wp3.json" "$tmp/wu.json.moved" --weights "$tmp/w12.txt" --no-limits
expect_rc 1 "an element moved"
expect_out 'weight-sum: processor "w.": claimed to hold a weight of .*, but its .* elements weigh .* (.* by 5)' "the weights off by element 4's"
run verify "$tmp/wp3.json" "$tmp/wu.json.dropped" --weights "$tmp/w12.txt" --json
expect_rc 1 "an element dropped"
py_json "the missing element named" <<'PY'
m = [v for v in d["violations"] if v["kind"] == "element-missing"]
assert len(m) == 1 and m[0]["element"] == 11 and m[0]["processor"] is None, m
assert "element 11 (weight 9.75)" in m[0]["message"], m
PY
run verify "$tmp/wp3.json" "$tmp/wu.json" --weights "$tmp/w12.txt" --ordered
expect_rc 1 "an unordered partition checked as ordered"
expect_out "^  chunk: processor" "the chunk violation"
run verify "$tmp/wp3.json" "$tmp/wu.json" --ordered
expect_rc 2 "--ordered without --weights"
run verify "$tmp/wp3.json" "$tmp/wu.json" --weights "$tmp/none.txt"
expect_rc 2 "an unreadable weights file"
expect_err "none.txt: cannot open" "the weights file named"
printf '3 x 4\n' > "$tmp/bad.txt"
run verify "$tmp/wp3.json" "$tmp/wu.json" --weights "$tmp/bad.txt"
expect_rc 2 "a malformed weights file"
expect_err 'bad.txt:1: "x" is not a number' "the bad weight named as partition names it"
"$PYTHON3" - "$tmp/wu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["assignment"][3] = 7
json.dump(d, open(sys.argv[1], "w"))
PY
run verify "$tmp/wp3.json" "$tmp/wu.json" --weights "$tmp/w12.txt"
expect_rc 2 "a processor out of range in the assignment"
expect_err "element 3: the processor must be an index in 0 .. 2" "the element and processor named"

# Multi-installment schedules, as `installments --json` writes them.
for f in star_cluster memory_levels; do
    for chunk in "" "--chunk 333.3" "--chunk formula"; do
        # shellcheck disable=SC2086
        run installments "$ex/$f.json" --load 1e6 $chunk --json
        expect_rc 0 "installments $f $chunk"
        cp "$tmp/out" "$tmp/i.json"
        run verify "$ex/$f.json" "$tmp/i.json"
        expect_rc 0 "verify of installments $f $chunk"
        expect_out "valid installments" "the verdict on installments $f $chunk"
    done
done
"$PYTHON3" - "$tmp/i.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["makespan"] *= 0.9
json.dump(d, open(sys.argv[1], "w"))
PY
run verify "$ex/memory_levels.json" "$tmp/i.json"
expect_rc 1 "installments claiming 10% less than they take"
expect_out "makespan: the claimed makespan" "the makespan violation"

run evaluate "$ex/star_cluster.json" --loads 100,200,300,400,0 --json
cp "$tmp/out" "$tmp/e.json"
run verify "$ex/star_cluster.json" "$tmp/e.json" --json
expect_rc 0 "verify of evaluate"
py_json "verify --json of an even split: valid, a positive gap to the best optimum" <<'PY'
assert d["valid"] is True and d["violations"] == [], d
assert abs(d["makespan"] - 0.6186) < 1e-9, d["makespan"]
assert d["best"] == min(d["selection_optimum"], d["own_order_optimum"])
assert d["gap"] > 0 and abs(d["gap_percent"] - 100 * d["gap"] / d["best"]) < 1e-9
PY
run partition "$ex/striped_mm.json" --matrix 300 --json
cp "$tmp/out" "$tmp/m.json"
run verify "$ex/striped_mm.json" "$tmp/m.json"
expect_rc 0 "verify of partition --matrix (the file says the matrix order)"

# Broken copies of the evaluated schedule: each refused, naming processor and amount.
break_copy() { # NAME PYTHON: writes $tmp/NAME.json from $tmp/e.json
    "$PYTHON3" - "$tmp/e.json" "$tmp/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["name"]: x for x in d["processors"]}
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}
expect_violation() { # NAME KIND PROCESSOR AMOUNT
    run verify "$ex/star_cluster.json" "$tmp/$1.json" --json
    expect_rc 1 "verify of the broken copy $1"
    py_json "broken copy $1: not one $2 violation of $3 by $4" "$tmp/out" "$2" "$3" "$4" <<'PY'
v = d["violations"]
assert d["valid"] is False and len(v) == 1, v
kind, proc, amount = sys.argv[2], sys.argv[3], float(sys.argv[4])
assert v[0]["kind"] == kind, v
assert v[0]["processor"] == (None if proc == "-" else proc), v
assert abs(v[0]["excess"] - amount) <= 1e-9 * max(1, amount), v
PY
}
break_copy sum 'd["load"] = 1010'
expect_violation sum load-sum - 10
break_copy overlap 'p["xeon-b"]["send_start"] -= 0.01'
expect_violation overlap send-overlap xeon-b 0.01
break_copy duration 'p["epyc"]["send_end"] -= 0.002'
expect_violation duration send-duration epyc 0.002
break_copy early 'p["old-node"]["compute_time"] += 0.003; p["old-node"]["finish"] -= 0'
expect_violation early early-compute old-node 0.003
break_copy makespan 'd["makespan"] *= 0.5'
expect_violation makespan makespan - 0.3093
cat > "$tmp/limited.json" <<'JSON'
{"processors": [
  {"name": "a", "time": [[0, 0.01]], "link": {"startup": 0.1, "rate": 0.001}, "limit": 300},
  {"name": "b", "time": [[0, 0.02]], "link": {"startup": 0.1, "rate": 0.001}}]}
JSON
printf 'name,load\na,350\nb,650\n' > "$tmp/over.csv"
run verify "$tmp/limited.json" "$tmp/over.csv" --load 1000
expect_rc 1 "a CSV load over its limit"
expect_out "limit: processor \"a\": load 350 exceeds its limit 300 by 50" "the limit violation"

# A CSV table with times; rows in send order.
printf 'name,load,send_start,compute_start,finish\nb,700,0,,\na,300,,,\n' > "$tmp/ok.csv"
run verify "$tmp/limited.json" "$tmp/ok.csv"
expect_rc 0 "a valid CSV schedule"
expect_out "valid schedule: load 1000" "the verdict"

# Bad input: exit 2, the file and what is wrong named.
printf 'name,load\nzz,1\n' > "$tmp/unknown.csv"
run verify "$tmp/limited.json" "$tmp/unknown.csv"
expect_rc 2 "an unknown processor"
expect_err 'unknown.csv:2: the platform has no processor "zz"' "the unknown processor named"
run verify "$tmp/limited.json" "$tmp/nothing.csv"
expect_rc 2 "a missing file"
run verify "$tmp/limited.json"
expect_rc 2 "no schedule"

# Issue 35: verify at the edges. timeout(1), where there is one, turns a hang into a failure
# (exit 124) instead of a suite that never ends.
guard=
if command -v timeout >/dev/null 2>&1; then
    guard="timeout 30"
fi
grun() {
    rc=0
    $guard "$DLSCHED" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    checks=$((checks + 1))
}

# Item 1: an installments claim whose load / chunk passes 2^53 is refused at its "chunk"
# (the round-robin's count was corrected in doubles that no longer changed: a hang); below
# 2^53 it is replayed in closed form at once.
run installments "$ex/star_two.json" --load 2 --json
cp "$tmp/out" "$tmp/inst.json"
"$PYTHON3" - "$tmp/inst.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for chunk, name in ((1e-17, "i17"), (1e-15, "i15"), (1e-13, "i13")):
    d["chunk"] = chunk
    json.dump(d, open(sys.argv[1][:-9] + name + ".json", "w"))
d["chunk"] = 0.5
del d["load"]
for p in d["processors"]:
    p["load"] = 0
json.dump(d, open(sys.argv[1][:-9] + "izero.json", "w"))
PY
grun verify "$ex/star_two.json" "$tmp/i17.json"
expect_rc 2 "an installments claim of 2e17 chunks"
expect_err 'i17.json:1:[0-9]*: the chunk 1e-17 divides the load 2 into 2e+17 chunks, more than 2^53' "the chunk located"
grun verify "$ex/star_two.json" "$tmp/i15.json" --json
expect_rc 1 "an installments claim of 2e15 chunks (its loads are not theirs)"
py_json "2e15 chunks replayed" <<'PY'
assert not d["valid"] and d["violations"][0]["kind"] == "round-robin", d
assert "2000000000000000 chunks" in d["violations"][0]["message"], d
PY
grun verify "$ex/star_two.json" "$tmp/i13.json" --load 1e4
expect_rc 2 "--load making 1e17 chunks of the claim's"
expect_err "the claim's chunk 1e-13 divides the load 10000 into 1e+17 chunks" "the count named"
grun verify "$ex/star_two.json" "$tmp/izero.json"
expect_rc 2 "an installments claim of no load (was: out of memory, exit 3)"
expect_err "the claim distributes no load" "no load said"

# Item 2: --time-limit bounds the optima; when it stops the exact simplex the paper's
# optimum is the chain's, said NOT confirmed, and the verdict stands (exit 0).
"$PYTHON3" - "$tmp/p2k.json" "$tmp/c2k.csv" <<'PY'
import json, sys
n = 2000
json.dump({"processors": [{"name": "p%d" % i, "speed": 1 + (i % 7) * 0.1,
                           "link": {"startup": 0, "rate": 1e-4 * (1 + i % 3)}}
                          for i in range(n)]}, open(sys.argv[1], "w"))
with open(sys.argv[2], "w") as f:
    f.write("name,load\n" + "".join("p%d,1\n" % i for i in range(n)))
PY
grun verify "$tmp/p2k.json" "$tmp/c2k.csv" --exact --time-limit 0.05
expect_rc 0 "verify --exact stopped by its time limit"
expect_out "valid schedule: load 2000" "the verdict stands"
expect_out "NOT confirmed: the exact simplex did not finish within the time limit" "the stop said"
expect_err "could not prove the paper's optimum within the time limit of 0.05 s" "the note"
grun verify "$tmp/p2k.json" "$tmp/c2k.csv" --exact --time-limit 0.05 --json
expect_rc 0 "verify --exact --json stopped by its time limit"
py_json "exact_stopped, not confirmed, the chain's optimum" <<'PY'
assert d["valid"] and d["exact_stopped"] is True and d["exact_confirmed"] is False, d
assert d["paper_optimum"] > 0 and "certified_paper_optimum" not in d, d
PY
grun verify "$ex/star_two.json" "$tmp/i15.json" --time-limit 0
expect_rc 2 "--time-limit 0"
expect_err "time-limit must be in \[0.001, 1e+09\]" "the range said"
run verify --help
tr '\n' ' ' <"$tmp/out" | tr -s ' ' | grep -q 'time-limit S .*(default 600)' ||
    fail "--time-limit in --help, its default the library's" "$(cat "$tmp/out")"
run schedule "$ex/star_cluster.json" --load 1000 --json
cp "$tmp/out" "$tmp/sc.json"
grun verify "$ex/star_cluster.json" "$tmp/sc.json" --exact --json
expect_rc 0 "verify --exact within the default limit"
py_json "confirmed, not stopped" <<'PY'
assert d["exact_confirmed"] is True and d["exact_stopped"] is False, d
PY

# Item 8b: every number of a claim, and the loads' sum, 0 or inside [1e-60, 1e60], located.
printf 'name,load\nP1,1\nP2,1e308\n' > "$tmp/huge.csv"
grun verify "$ex/star_two.json" "$tmp/huge.csv"
expect_rc 2 "a CSV load of 1e308 (was: the chain failed on inf, exit 3)"
expect_err 'huge.csv:3: processor "P2": the load 1e+308 is outside the domain' "the load located"
printf 'name,load\nP1,6e59\nP2,6e59\n' > "$tmp/sum.csv"
grun verify "$ex/star_two.json" "$tmp/sum.csv" --no-limits
expect_rc 2 "loads summing past 1e60"
expect_err 'sum.csv: the loads sum to 1.2e+60, outside the domain' "the sum named"
printf 'name,load,send_start,finish\nP1,1,1e-70,\nP2,1,,\n' > "$tmp/tiny.csv"
grun verify "$ex/star_two.json" "$tmp/tiny.csv"
expect_rc 2 "a send start of 1e-70 s"
expect_err 'tiny.csv:2: processor "P1": the send_start 1e-70 is outside the domain' "the time located"
printf 'name,elements\nP1,1\nP2,1e50\n' > "$tmp/elems.csv"
grun verify "$ex/star_two.json" "$tmp/elems.csv" --no-limits
expect_rc 2 "a partition of 1e50 elements (was: a wrong optimum of 0)"
expect_err 'elems.csv: the elements sum to 1e+50, more than 2^53' "the count named"
for key in load makespan; do
    "$PYTHON3" - "$tmp/sc.json" "$tmp/k.json" "$key" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d[sys.argv[3]] = {"load": 1e61, "makespan": 1e-61}[sys.argv[3]]
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
    grun verify "$ex/star_cluster.json" "$tmp/k.json"
    expect_rc 2 "a JSON $key outside the domain"
    expect_err "k.json:[0-9]*:[0-9]*: the $key 1e[-+]61 is outside the domain" "the $key located"
done
"$PYTHON3" - "$tmp/sc.json" "$tmp/k.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["processors"][1]["finish"] = 1e70
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
grun verify "$ex/star_cluster.json" "$tmp/k.json"
expect_rc 2 "a JSON finish of 1e70"
expect_err 'k.json:[0-9]*:[0-9]*: processor "xeon-b": the finish 1e+70 is outside the domain' "the finish located"
grun verify "$ex/star_cluster.json" "$tmp/sc.json" --tolerance 1e-61
expect_rc 2 "--tolerance below the domain"
expect_err "tolerance must be in \[1e-60, 0.001\]" "the tolerance's range"

# Item 16: CSV cells have no length limit: a name of 300 and of 4096 bytes (the most a
# name has) verifies in CSV as in JSON; one of 4097 bytes is no processor of the platform.
for len in 300 4096; do
    "$PYTHON3" - "$tmp/long.json" "$len" <<'PY'
import json, sys
n = int(sys.argv[2])
json.dump({"processors": [
    {"name": "a" * (n - 1) + "1", "speed": 2, "link": {"startup": 0.1, "rate": 0.01}},
    {"name": "b" * (n - 1) + "2", "speed": 1, "link": {"startup": 0.1, "rate": 0.02}}]},
    open(sys.argv[1], "w"))
PY
    run schedule "$tmp/long.json" --load 100 --json
    cp "$tmp/out" "$tmp/long_s.json"
    "$PYTHON3" - "$tmp/long_s.json" "$tmp/long.csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as f:
    f.write("name,load,send_start,send_end,finish\n")
    for p in d["processors"]:
        f.write("%s,%r,%r,%r,%r\n" % (p["name"], p["load"], p["send_start"], p["send_end"],
                                      p["finish"]))
PY
    grun verify "$tmp/long.json" "$tmp/long_s.json" --json
    cp "$tmp/out" "$tmp/long_vj.json"
    grun verify "$tmp/long.json" "$tmp/long.csv" --json
    expect_rc 0 "a CSV claim naming processors of $len bytes"
    py_json "the CSV claim verifies as the JSON one ($len bytes)" "$tmp/out" "$tmp/long_vj.json" <<'PY'
j = json.load(open(sys.argv[2]))
assert d["valid"] and j["valid"], (d, j)
for k in ("load", "makespan", "paper_optimum", "best"):
    assert abs(d[k] - j[k]) <= 1e-12 * j[k], (k, d[k], j[k])
PY
done
"$PYTHON3" - "$tmp/long.csv" <<'PY'
import sys
rows = open(sys.argv[1]).read().split("\n")
rows[1] = "b" + rows[1]
open(sys.argv[1], "w").write("\n".join(rows))
PY
grun verify "$tmp/long.json" "$tmp/long.csv"
expect_rc 2 "a name of 4097 bytes"
expect_err 'long.csv:2: the platform has no processor "b' "the long name refused, located"

# installments --lp's own JSON (chunks sized one by one) was read as a schedule and judged
# invalid; it is refused where it says what it is.
run installments "$ex/star_two.json" --load 10 --lp --json
cp "$tmp/out" "$tmp/inlp.json"
run verify "$ex/star_two.json" "$tmp/inlp.json"
expect_rc 2 "verify of installments --lp's JSON"
expect_err 'the JSON of installments --lp' "the refusal of an installments --lp claim"

cli_summary
