#!/bin/sh
# The JSON side of --order (issue 18), read by python3 (skipped without it); cli_order.sh
# checks the rest. An explicit order gives, processor by processor, the loads of the
# platform rewritten in that order, and the report's "order" object; given and rate keep
# their report; names with blanks, commas, quotes, '#', keywords and UTF-8 are all reached by
# the file form; the best order (when the library has it) is the best of every permutation.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

P=$tmp/p4.json
cat >"$P" <<'JSON'
{"processors": [
 {"name": "a", "time": [[0.3, 1.1e-3], [-40, 4.3e-3]], "link": {"startup": 0.21, "rate": 2.3e-4}},
 {"name": "b", "time": [[0.1, 2.9e-3]], "link": {"startup": 0.05, "rate": 1.7e-4}, "limit": 900},
 {"name": "c", "time": [[0.7, 0.6e-3], [-25, 2.9e-3]], "link": {"startup": 0.43, "rate": 3.1e-4}},
 {"name": "d", "time": [[0, 1.9e-3]], "link": {"startup": 0.02, "rate": 0.9e-4}}
]}
JSON
V=3000

# reorder PLATFORM OUT ORDER: PLATFORM with its processors in the order of ORDER (a JSON
# array of names), in OUT.
reorder() {
    py_check "reorder $1" "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
by = {p["name"]: p for p in d["processors"]}
d["processors"] = [by[n] for n in json.load(open(sys.argv[3], encoding="utf-8"))]
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
PY
}

# same_loads WHAT REFERENCE: the last report's loads, by name, are REFERENCE's (a JSON
# report of the reordered platform), and so are the makespan and the send order.
same_loads() {
    py_json "$1" "$tmp/out" "$2" <<'PY'
ref = json.load(open(sys.argv[2], encoding="utf-8"))
got = {p["name"]: p["load"] for p in d["processors"]}
want = {p["name"]: p["load"] for p in ref["processors"]}
assert got.keys() == want.keys(), (got, want)
for n in want:
    assert abs(got[n] - want[n]) <= 1e-12 * abs(want[n]), (n, got[n], want[n])
assert abs(d["makespan"] - ref["makespan"]) <= 1e-12 * ref["makespan"]
assert d["send_order"] == ref["send_order"], (d["send_order"], ref["send_order"])
PY
}

echo '["c", "a", "d", "b"]' >"$tmp/cadb.json"
reorder "$P" "$tmp/p4r.json" "$tmp/cadb.json"
run schedule "$tmp/p4r.json" --load "$V" --json
expect_rc 0 "the reordered platform"
cp "$tmp/out" "$tmp/ref.json"

# The list form and its "order" object.
run schedule "$P" --load "$V" --order c,a,d,b --json
expect_rc 0 "--order LIST --json"
same_loads "--order LIST: the loads of the reordered platform" "$tmp/ref.json"
py_json "--order LIST: the order object" <<'PY'
o = d["order"]
assert o["asked"] == "list" and o["method"] == "fixed" and o["optimal"] is False, o
assert o["sequence"] == ["c", "a", "d", "b"] == d["send_order"], o
for k in ("given_makespan", "rate_makespan", "lower_bound"):
    assert k in o and o[k] is None, (k, o)
assert o["candidates"] == 0 and "file" not in o, o
PY

# The file form.
printf '# R\nc\n\na, d\nb\n' >"$tmp/order.txt"
run schedule "$P" --load "$V" --order "$tmp/order.txt" --json
expect_rc 0 "--order FILE --json"
same_loads "--order FILE: the loads of the reordered platform" "$tmp/ref.json"
py_json "--order FILE: the order object" "$tmp/out" "$tmp/order.txt" <<'PY'
o = d["order"]
assert o["asked"] == "file" and o["file"] == sys.argv[2] and o["method"] == "fixed", o
assert o["sequence"] == ["c", "a", "d", "b"], o
PY

# evaluate: the same object, and the timeline of the reordered platform.
run evaluate "$tmp/p4r.json" --loads 3,1,4,2 --json
cp "$tmp/out" "$tmp/ref_eval.json"
run evaluate "$P" --loads 1,2,3,4 --order c,a,d,b --json
expect_rc 0 "evaluate --order LIST --json"
py_json "evaluate --order LIST: the timeline of the reordered platform" "$tmp/out" "$tmp/ref_eval.json" <<'PY'
ref = json.load(open(sys.argv[2]))
want = {p["name"]: p for p in ref["processors"]}
for p in d["processors"]:
    for k in ("load", "send_start", "send_end", "finish"):
        assert abs(p[k] - want[p["name"]][k]) <= 1e-12 * max(1, abs(p[k])), (p, k)
assert d["order"]["asked"] == "list" and d["order"]["method"] == "fixed", d["order"]
PY

# given and rate: no "order" object; send_order as before.
for o in given rate; do
    run schedule "$P" --load "$V" --order "$o" --json
    expect_rc 0 "--order $o --json"
    py_json "--order $o: the report as before" "$tmp/out" "$o" <<'PY'
assert "order" not in d, d["order"]
want = ["a", "b", "c", "d"] if sys.argv[2] == "given" else ["d", "b", "a", "c"]
assert d["send_order"] == want, d["send_order"]
PY
done

# Hostile names: blanks inside and at the ends, a comma, quotes, '#', a backslash, the
# keywords, an option's look, UTF-8. The file form, one name per line, reaches them all,
# with comments and blank lines around.
H=$tmp/names.json
"$PYTHON3" - "$H" "$tmp/names.txt" "$tmp/names_order.json" <<'PY'
import json, sys
names = ["with space", "a,b", 'quo"te', "it's", "#hash", " lead", "trail ", "best", "rate",
         "-o", "back\\slash", "Gr\u00fc\u00dfe \u20ac \U0001F600 \u65e5\u672c"]
procs = []
for k, n in enumerate(names):
    procs.append({"name": n, "time": [[0.01 * k, 1e-4 * (1 + k % 4)], [-5 - k, 2e-3 * (1 + k % 3)]],
                  "link": {"startup": 0.05 * (k % 5), "rate": 1e-5 * (1 + k % 7)}})
json.dump({"processors": procs}, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False)
order = [names[(5 * k + 3) % len(names)] for k in range(len(names))]
assert sorted(order) == sorted(names)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    f.write("# every name on its own line, as written\n\n")
    for n in order:
        f.write(n + "\n")
        f.write("\n")
json.dump(order, open(sys.argv[3], "w", encoding="utf-8"), ensure_ascii=False)
PY
run schedule "$H" --load 1e4 --order "$tmp/names.txt" --json
expect_rc 0 "hostile names by file"
py_json "hostile names: the order of the file" "$tmp/out" "$tmp/names_order.json" <<'PY'
want = json.load(open(sys.argv[2], encoding="utf-8"))
assert d["send_order"] == want, (d["send_order"], want)
assert d["order"]["sequence"] == want
PY
reorder "$H" "$tmp/names_r.json" "$tmp/names_order.json"
run schedule "$tmp/names_r.json" --load 1e4 --json
cp "$tmp/out" "$tmp/names_ref.json"
run schedule "$H" --load 1e4 --order "$tmp/names.txt" --json
same_loads "hostile names: the loads of the reordered platform" "$tmp/names_ref.json"
# The list form reaches every name without a comma, blanks at the ends included; the one
# with a comma is refused with the way to write it.
list=$("$PYTHON3" -c 'import json, sys; print(",".join(n for n in json.load(open(sys.argv[1], encoding="utf-8")) if n != "a,b"))' "$tmp/names_order.json")
run schedule "$H" --load 1e4 --order "$list,a,b"
expect_rc 2 "a name with a comma in a list"
expect_err "\"a\" is not a processor of .* (a name holding a comma is written in a FILE" \
    "a name with a comma in a list: the message"
run schedule "$H" --load 1e4 --order "$list," --json
expect_rc 2 "a list without the name holding a comma"
expect_err 'leaves out 1 of the 12 processors of .*: "a,b"' "the name holding a comma left out"

# The best order, on a platform where it beats both the given and the rate orders and
# leaves a processor out.
# (P with b's limit 400 and d's startup 0.9)
B=$tmp/p4b.json
sed -e 's/"limit": 900/"limit": 400/' -e 's/"startup": 0.02,/"startup": 0.9,/' "$P" >"$B"
run schedule "$B" --load "$V" --order best --json
expect_rc 0 "--order best --json"
cp "$tmp/out" "$tmp/best.json"
# every order of the four processors, by the list form
"$PYTHON3" -c 'import itertools; print("\n".join(",".join(p) for p in itertools.permutations("abcd")))' \
    >"$tmp/perms.txt"
: >"$tmp/all.txt"
while read -r perm; do
    run schedule "$B" --load "$V" --order "$perm" --json
    expect_rc 0 "the order $perm"
    "$PYTHON3" -c 'import json, sys; print(repr(json.load(open(sys.argv[1]))["makespan"]))' \
        "$tmp/out" >>"$tmp/all.txt"
done <"$tmp/perms.txt"
run schedule "$B" --load "$V" --json
cp "$tmp/out" "$tmp/given.json"
run schedule "$B" --load "$V" --order rate --json
cp "$tmp/out" "$tmp/rate.json"
py_json "--order best: the best of the 24 orders, proven, against given and rate" \
    "$tmp/best.json" "$tmp/all.txt" "$tmp/given.json" "$tmp/rate.json" <<'PY'
T = [float(x) for x in open(sys.argv[2]).read().split()]
assert len(T) == 24, len(T)
given = json.load(open(sys.argv[3]))["makespan"]
rate = json.load(open(sys.argv[4]))["makespan"]
assert min(T) < given * (1 - 1e-3) and min(T) < rate * (1 - 1e-3), (min(T), given, rate)
o, mk = d["order"], d["makespan"]
assert abs(mk - min(T)) <= 1e-9 * min(T), (mk, min(T))
assert o["asked"] == "best" and o["method"] in ("exact", "rule") and o["optimal"] is True, o
assert o["sequence"] == d["send_order"], o
assert abs(o["given_makespan"] - given) <= 1e-9 * given, (o, given)
assert abs(o["rate_makespan"] - rate) <= 1e-9 * rate, (o, rate)
assert abs(o["lower_bound"] - mk) <= 1e-9 * mk, o
assert isinstance(o["candidates"], int) and o["candidates"] >= 0, o
PY
run schedule "$B" --load "$V" --order best --order-exact-max 1 --order-candidates 3 --json
expect_rc 0 "--order best by the local search --json"
py_json "--order best by the local search: never worse than given and rate, bounded" <<'PY'
o, mk = d["order"], d["makespan"]
assert o["method"] in ("search", "rule"), o
assert o["candidates"] <= 3, o
assert mk <= min(o["given_makespan"], o["rate_makespan"]) * (1 + 1e-12), o
assert o["lower_bound"] is None or o["lower_bound"] <= mk * (1 + 1e-12), o
assert o["method"] != "search" or o["optimal"] is False, o
PY

cli_summary
