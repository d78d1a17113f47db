#!/bin/sh
# Every command, any input (issue 20): the inputs the issue found, one coefficient of an
# example made absurd, end with an answer (exit 0), an infeasibility (1) or a located
# rejection (2), never exit 3 or a signal; a number outside the input domain is refused at
# reading with file:line:column, the processor, the value and the range; one inside it but
# far from what machines do is used with a warning. Needs python3 to write the inputs.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3

# edited_copy SRC DST STATEMENT: DST is the JSON file SRC with the python STATEMENT applied
# to its document d.
edited_copy() {
    "$PYTHON3" - "$1" "$2" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

"$PYTHON3" - "$ex" "$tmp" <<'PY'
import json, sys
ex, tmp = sys.argv[1], sys.argv[2]
def edit(src, dst, change):
    d = json.load(open(f"{ex}/{src}"))
    change(d["processors"])
    json.dump(d, open(f"{tmp}/{dst}", "w"), indent=1)
edit("star_cluster.json", "lu_1e308.json", lambda p: p[0].__setitem__("time", [[1e308, 3e-4]]))
edit("memory_levels.json", "fr_1e-308.json",
     lambda p: p[3]["speed"]["points"][0].__setitem__(1, 1e-308))
def ten(p):
    p[2]["link"]["startup"] = 2147483648
    p[5]["time"][0][1] = 1e23
edit("star_ten.json", "installments.json", ten)
edit("star_cluster.json", "out_of_core.json", lambda p: p[2]["time"][2].__setitem__(1, 2147483648))
edit("star_two.json", "slope.json", lambda p: p[0]["time"][0].__setitem__(1, 9007199254740993))
edit("star_two.json", "startup.json", lambda p: p[0]["link"].__setitem__("startup", 2147483648))
edit("star_cluster.json", "intercept.json", lambda p: p[1]["time"][0].__setitem__(0, 2.0 ** 64))
edit("star_cluster.json", "first_1e18.json", lambda p: p[0]["link"].__setitem__("startup", 1e18))
PY

# Outside the domain: refused where the number is, naming the processor and the range.
run lu "$tmp/lu_1e308.json" --columns 64 --algorithm reverse
expect_rc 2 "lu with an intercept of 1e308"
expect_err 'lu_1e308.json:[0-9]*:[0-9]*: processor "xeon-a": time line 1: the intercept 1e+308 s is outside the domain' "the located refusal of 1e308"
run lu "$tmp/fr_1e-308.json" --columns 64 --algorithm fr
expect_rc 2 "lu fr with a speed of 1e-308"
expect_err 'processor "gpu": speed point 1: the speed 1e-308 units per second is outside the domain \[1e-60, 1e+60\]' "the located refusal of 1e-308"
# Inside the domain: answers (the slow processors get nothing), with a warning, never
# exit 3. A startup of 2^31 s and a slope of 1e23 s per unit made installments sweep for
# minutes.
for chunk in formula sweep 10; do
    run installments "$tmp/installments.json" --load 1e3 --chunk $chunk
    expect_rc 0 "installments --chunk $chunk with a startup of 2^31 s and a slope of 1e23"
done
expect_err 'processor "P3" has a link startup of 2.14748e+09 s (more than 1e+06 s)' "the unusual startup said"
expect_err 'processor "P6" has a slope of 1e+23 s per unit (more than 1e+06)' "the unusual slope said"

run crosscheck "$tmp/out_of_core.json" --load 1e6
expect_rc 0 "crosscheck with a memory level of 2^31 s per unit"
expect_err 'processor "epyc" has a slope of 2.14748e+09 s per unit' "the unusual slope said"
for f in slope startup; do
    run crosscheck "$tmp/$f.json" --load 1000
    expect_rc 0 "crosscheck, star_two with an absurd $f"
    run schedule "$tmp/$f.json" --load 1000 --integer
    expect_rc 0 "schedule --integer, star_two with an absurd $f"
    run schedule "$tmp/$f.json" --load 1000 --solver glpk
    expect_rc 0 "schedule --solver glpk, star_two with an absurd $f"
done
run crosscheck "$tmp/intercept.json" --load 1e6
expect_rc 0 "crosscheck with an intercept of 2^64 s"
run schedule "$tmp/intercept.json" --load 1e6 --integer
expect_rc 0 "schedule --integer with an intercept of 2^64 s"
for alg in gb dp reverse fr fdp fgb exact; do
    run lu "$tmp/out_of_core.json" --columns 64 --algorithm $alg
    expect_rc 0 "lu --algorithm $alg with a memory level of 2^31 s per unit"
done
run evaluate "$tmp/intercept.json" --loads 1,2,3,4,5
expect_rc 0 "evaluate with an intercept of 2^64 s"

# A startup of 1e18 s first in the send order: the selection leaves it out (it took the
# chain's time unit to 2^60 and kept it, 1e18 s instead of 95 s), GLPK's too, and the
# paper's LP, which charges it, says 1e18 s.
run schedule "$tmp/first_1e18.json" --load 1e6 --json
expect_rc 0 "a startup of 1e18 s first"
py_json "the chain's selection without it" <<'PY'
assert d["makespan"] < 100 and d["paper_makespan"] >= 1e18, (d["makespan"], d["paper_makespan"])
assert d["processors"][0]["load"] == 0, d["processors"][0]
PY
run schedule "$tmp/first_1e18.json" --load 1e6 --solver glpk --json
py_json "GLPK's selection without it" <<'PY'
assert d["makespan"] < 100 and d["paper_makespan"] >= 1e18, (d["makespan"], d["paper_makespan"])
PY
run crosscheck "$tmp/first_1e18.json" --load 1e6
expect_rc 0 "crosscheck with a startup of 1e18 s first"

# Issue 35, item 10: finite loads whose finishes overflow were dropped from evaluate's JSON
# (json_real gives NULL for infinity); each load is now held to 0 or the domain, and so is
# their sum, before anything is written.
run evaluate "$ex/star_two.json" --loads 1e308,1 --json
expect_rc 2 "evaluate --loads 1e308,1"
expect_err 'processor "P1"), 1e308, is outside the domain' "the located refusal of a load of 1e308"
test ! -s "$tmp/out" || fail "evaluate wrote JSON for a refused load" "$(cat "$tmp/out")"
run evaluate "$ex/star_two.json" --loads 1e60,1e-60 --json
expect_rc 0 "evaluate at both ends of the domain"
py_json "evaluate at both ends: every processor, finite times" <<'PY'
assert len(d["processors"]) == 2, d
assert all(isinstance(p["finish"], float) for p in d["processors"]), d["processors"]
PY
# Item 11: the simgrid export's options times the platform's numbers gave speed="inff" and
# bandwidth="0Bps"; the options are held to the domain and the products checked.
for opt in --bytes-per-unit --flops-per-unit; do
    for v in 1e-300 1e300; do
        run export "$ex/star_cluster.json" --format simgrid $opt $v -o "$tmp/sg.xml"
        expect_rc 2 "export simgrid $opt $v"
        expect_err "$opt must be in \[1e-60, 1e+60\]" "the refusal of $opt $v"
    done
done
run export "$ex/memory_levels.json" --format simgrid --bytes-per-unit 1e60 --flops-per-unit 1e-60 -o "$tmp/sg.xml"
expect_rc 0 "export simgrid at the domain's ends"
if grep -E 'speed="(inf|nan|0f)|bandwidth="(inf|nan|0B)' "$tmp/sg.xml" >/dev/null; then
    fail "the simgrid file holds a speed or bandwidth that is not finite and > 0" "$(cat "$tmp/sg.xml")"
fi

# Item 8: loads at both ends of the domain with every solver, and a time line of slope 1e20.
printf '{"processors": [{"name": "P1", "time": [[1, 1], [-9, 10]], "link": {"startup": 1, "rate": 1}}]}\n' > "$tmp/one.json"
edited_copy "$ex/star_cluster.json" "$tmp/slope_1e20.json" 'd["processors"][0]["time"][0][1] = 1e20'
for load in 1e-60 1e-24 1e60; do
    for p in one.json; do
        run schedule "$tmp/$p" --load $load --solver glpk --exact
        expect_rc 0 "schedule $p --load $load --solver glpk --exact"
        run installments "$tmp/$p" --load $load --lp
        expect_rc 0 "installments $p --load $load --lp"
    done
    run schedule "$ex/star_cluster.json" --load $load --solver glpk --exact
    expect_rc 0 "schedule star_cluster --load $load --solver glpk --exact"
    run schedule "$ex/star_cluster.json" --load $load --solver glpk --exact --keep-unused
    expect_rc 0 "schedule star_cluster --load $load --solver glpk --exact --keep-unused"
    run schedule "$tmp/slope_1e20.json" --load $load
    expect_rc 0 "the chain on a time line of slope 1e20, load $load"
done
for load in 1e-61 1e61 1e-300 1e300; do
    run schedule "$ex/star_cluster.json" --load $load
    expect_rc 2 "schedule --load $load, outside the domain"
    expect_err "\[1e-60, 1e+60\]" "the range named for --load $load"
done

# Item 8: where GLPK's simplex fails (a slope of 1e20 s per unit beside loads of 1e-60, or
# beside an intercept of -9e5 s), --exact gives the chain's answer to the same LP, not
# confirmed by the exact simplex, as the solver does without --exact; never exit 3.
printf '{"processors": [{"name": "a", "time": [[0, 1e20]], "link": {"startup": 0.01, "rate": 1e-3}}, {"name": "b", "time": [[0, 1]], "link": {"startup": 0.02, "rate": 1}}]}\n' > "$tmp/s20.json"
edited_copy "$ex/memory_levels.json" "$tmp/cliff.json" 'd["processors"][0]["time"][1][1] = 1e20'
for load in 1e-60 1e-30; do
    run schedule "$tmp/s20.json" --load $load --solver glpk --exact --json
    expect_rc 0 "glpk --exact, a slope of 1e20 at a load of $load"
    expect_err "not confirmed by the exact simplex" "the chain's answer, said unconfirmed ($load)"
    py_json "no exact_verified where the exact simplex did not run ($load)" <<'PY'
assert "exact_verified" not in d, d
assert abs(d["makespan"] - 0.01) <= 1e-9, d["makespan"]
PY
done
run schedule "$tmp/cliff.json" --load 1e-10 --solver glpk --exact
expect_rc 0 "glpk --exact, a cliff of slope 1e20 after -9e5 s"

# The chain's loads all below what the load can tell (a load of 1e-53 whose time is a
# startup's): the whole load went to the first position, whose replay was 20 times the
# chain's makespan (exit 3); it goes where it ends first alone.
dom="${top_srcdir:-.}/tests/data/domain"
run schedule "$dom/chain_loads_below_resolution_a.json" --load 6.84e-53
expect_rc 0 "the chain's loads below the load's resolution (a)"
run schedule "$dom/chain_loads_below_resolution_b.json" --load 3.76e-43
expect_rc 0 "the chain's loads below the load's resolution (b)"

run schedule "$dom/chain_paper_startup_8e18.json" --load 2.94 --keep-unused
expect_rc 0 "the paper's LP behind a startup of 8.4e18 s (its time unit 2^63)"

# Where the chain's check and GLPK both fail (a startup of 2.4e31 s beside rates of
# 1e-32 s per unit), the best of simple distributions, not called optimal; --order best
# keeps the platform's order when its search fails. installments --lp starts from it.
f="$dom/chain_and_glpk_fail_startup_2e31.json"
for o in p0,p2,p1 best; do
    run schedule "$f" --load 2.99e43 --order $o --json
    expect_rc 0 "schedule --order $o where both solvers fail"
    py_json "not optimal, the simple distribution's replay" <<'PY'
assert d["status"] != "optimal", d["status"]
assert abs(d["makespan"] - 2.592047293102784e31) <= 1e-9 * d["makespan"], d["makespan"]
PY
done
run installments "$f" --load 2.99e43 --lp --max-lps 60
expect_rc 0 "installments --lp from that start"

cli_summary
