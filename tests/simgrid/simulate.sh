#!/bin/sh
# dlsched simulate against dlsched's own predictions and against an independent replay
# (issue 22): random star platforms (2 to 12 processors: constant speeds, one time line with
# an intercept, two memory levels; startups, rates, free links, limits) scheduled in every
# mode (the chain's selection, the paper's LP, the rate order, the best order, GLPK, the
# originator computing), each schedule replayed in SimGrid with --network exact: every send
# and finish agrees with dlsched's prediction within 1e-9 of the makespan, and with a
# replay of the star model written here (python, from the platform and the loads alone).
# Then multi-installment schedules, the SimGrid platform read back by SimGrid, the
# realistic network, and every bad input refused before any simulation.
# SKIP without SimGrid (configure's reason) or python3. DLS_SIMGRID_PLATFORMS sets the
# number of platforms (500 by default), DLS_TEST_SEED the seed.
. "${top_srcdir:-.}/tests/support/cli.sh"
need_python3
skip_unless "${DLSCHED_SIMGRID:-}" "${DLS_SIMGRID_WHY:-dlsched-simgrid was not built}"
count=${DLS_SIMGRID_PLATFORMS:-500}
seed=${DLS_TEST_SEED:-20261122}

"$PYTHON3" - "$DLSCHED" "$tmp" "$count" "$seed" <<'PY' || fail "the random platforms (see above)"
import json, random, subprocess, sys
dlsched, tmp, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
rng = random.Random(seed)
print(f"# seed {seed}: {count} platforms")

def platform(k):
    m = rng.randint(2, 12)
    procs = []
    for i in range(m):
        kind = rng.choice(["speed", "line", "levels"])
        p = {"name": f"n{i}" if k % 7 else f"node {i} & <{i}>"}
        if kind == "speed":
            p["speed"] = 10 ** rng.uniform(2, 5)
        elif kind == "line":
            p["time"] = [[rng.choice([0, 10 ** rng.uniform(-3, 0)]), 10 ** rng.uniform(-5, -2)]]
        else:
            b1 = 10 ** rng.uniform(-5, -3)
            b2 = b1 * rng.uniform(3, 30)
            swap = 10 ** rng.uniform(2, 5)
            p["time"] = [[0, b1], [-(b2 - b1) * swap, b2]]
        if rng.random() < 0.85:
            rate = 0 if rng.random() < 0.1 else 10 ** rng.uniform(-7, -4)
            p["link"] = {"startup": rng.choice([0, 10 ** rng.uniform(-4, -1)]), "rate": rate}
        if rng.random() < 0.2:
            p["limit"] = 10 ** rng.uniform(3, 6)
        procs.append(p)
    return {"processors": procs}

modes = [[], ["--keep-unused"], ["--order", "rate"], ["--order", "best"],
         ["--solver", "glpk"], ["--originator-computes"]]

def model_time(p, x):
    if "speed" in p:
        return x / p["speed"]
    return max(a + b * x for a, b in p["time"])

def own_replay(plat, loads, order):
    """The star model written here: sends one after the other in `order`, each lasting
    S + C x; computing from the arrival, for the model's time."""
    procs = {p["name"]: p for p in plat["processors"]}
    t, out = 0.0, {}
    for name in order:
        x = loads[name]
        if x <= 0:
            continue
        link = procs[name].get("link", {"startup": 0, "rate": 0})
        end = t + link["startup"] + link["rate"] * x
        out[name] = (end, end + model_time(procs[name], x))
        t = end
    return out

failures, worst, worst_own, runs = 0, 0.0, 0.0, 0
for k in range(count):
    plat = platform(k)
    pf, sf = f"{tmp}/p{k}.json", f"{tmp}/s{k}.json"
    json.dump(plat, open(pf, "w"))
    cap = sum(p.get("limit", float("inf")) for p in plat["processors"])
    V = min(10 ** rng.uniform(2, 6), 0.9 * cap)
    mode = modes[k % len(modes)]
    r = subprocess.run([dlsched, "schedule", pf, "--load", repr(V), "--json"] + mode,
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(f"platform {k}: schedule {mode} exit {r.returncode}: {r.stderr.strip()}")
        failures += 1
        continue
    open(sf, "w").write(r.stdout)
    sched = json.loads(r.stdout)
    r = subprocess.run([dlsched, "simulate", pf, sf, "--json"], capture_output=True, text=True)
    if r.returncode not in (0, 1) or not r.stdout:
        print(f"platform {k} {mode}: simulate exit {r.returncode}: {r.stderr.strip()}")
        failures += 1
        continue
    d = json.loads(r.stdout)
    runs += 1
    worst = max(worst, d["largest_difference"])
    if not d["agree"] or d["largest_difference"] > 1e-9:
        print(f"platform {k} {mode}: simulated {d['simulated_makespan']!r}, predicted "
              f"{d['makespan']!r}: difference {d['largest_difference']:.3g}")
        failures += 1
    # the independent replay, from the loads and the order the schedule gives (the
    # originator's own processors, served first when it computes, have no link)
    loads = {p["name"]: p["load"] for p in sched["processors"]}
    order = [s["processor"] for s in d["sends"]]
    mine = own_replay(plat, loads, order)
    T = d["simulated_makespan"]
    for s in d["sends"]:
        a, f = mine[s["processor"]]
        e = max(abs(a - s["simulated_send_end"]), abs(f - s["simulated_finish"])) / T
        worst_own = max(worst_own, e)
        if e > 1e-9:
            print(f"platform {k} {mode}: {s['processor']}: simulated arrival "
                  f"{s['simulated_send_end']!r} finish {s['simulated_finish']!r}, the star "
                  f"model here {a!r} {f!r}")
            failures += 1
            break
print(f"# {runs} schedules replayed; largest difference to dlsched {worst:.3g}, to the replay "
      f"here {worst_own:.3g} (of the makespan)")
sys.exit(1 if failures else 0)
PY

# Multi-installment schedules replay chunk by chunk.
for chunk in 10 37.5; do
    run installments "$ex/star_ten.json" --load 1000 --chunk $chunk --json
    cp "$tmp/out" "$tmp/inst.json"
    run simulate "$ex/star_ten.json" "$tmp/inst.json" --json
    expect_rc 0 "installments of $chunk replayed"
    py_json "every chunk replayed as predicted ($chunk)" "$tmp/out" "$chunk" <<'PY'
import math
assert d["agree"] and d["largest_difference"] <= 1e-9, d["largest_difference"]
assert len(d["sends"]) == math.ceil(1000 / float(sys.argv[2])), len(d["sends"])
assert abs(sum(s["load"] for s in d["sends"]) - 1000) < 1e-9
PY
done

# The platform SimGrid reads: every example, written and replayed (the names of the
# processors, the ids of SimGrid's hosts, escaped in the XML)
for f in star_cluster memory_levels star_ten star_two; do
    run export "$ex/$f.json" --format simgrid -o "$tmp/$f.xml"
    expect_rc 0 "export --format simgrid $f"
    run schedule "$ex/$f.json" --load 1000 --json
    cp "$tmp/out" "$tmp/$f.s.json"
    run simulate "$ex/$f.json" "$tmp/$f.s.json"
    expect_rc 0 "simulate $f"
    expect_out "agrees within 1e-9" "simulate $f agrees"
done
run export "$ex/cluster.json" --format simgrid -o "$tmp/cluster.xml"
expect_rc 2 "a 2-D model has no SimGrid host"
expect_err "has a 2-D model" "the 2-D model named"
grep -q '<platform version="4.1">' "$tmp/star_cluster.xml" || fail "the exported platform's version"
grep -q 'route src="originator" dst="epyc"' "$tmp/star_cluster.xml" || fail "the exported routes"

# The realistic network: SimGrid's TCP model is slower than affine links, and says by how much.
run simulate "$ex/star_cluster.json" "$tmp/star_cluster.s.json" --network realistic --bytes-per-unit 8 --json
expect_rc 0 "realistic network"
py_json "the realistic network takes longer than the plan" <<'PY'
assert d["network"] == "realistic" and d["simulated_makespan"] > d["makespan"], d
PY
run simulate "$ex/star_cluster.json" "$tmp/star_cluster.s.json" --network realistic
expect_rc 2 "realistic without --bytes-per-unit"
expect_err "needs --bytes-per-unit" "why it needs it"

# Bad schedules are refused, naming the processor, before any simulation.
printf 'name,load\nxeon-a,500\nnobody,500\n' > "$tmp/unknown.csv"
run simulate "$ex/star_cluster.json" "$tmp/unknown.csv"
expect_rc 2 "an unknown processor"
expect_err "nobody" "the unknown processor named"
printf 'name,load\nxeon-a,-5\nepyc,1005\n' > "$tmp/negative.csv"
run simulate "$ex/star_cluster.json" "$tmp/negative.csv"
expect_rc 2 "a negative load"
expect_err "xeon-a" "the negative load's processor named"
printf 'name,load\nxeon-a,500\nepyc,400\n' > "$tmp/short.csv"
run simulate "$ex/star_cluster.json" "$tmp/short.csv" --load 1000
expect_rc 2 "loads not summing to the load"
expect_err "load-sum\|sum" "the sum named"
run partition "$ex/star_cluster.json" --elements 100 --json
cp "$tmp/out" "$tmp/part.json"
run simulate "$ex/star_cluster.json" "$tmp/part.json"
expect_rc 2 "a partition is no star schedule"

# Issue 34: from the build tree, without DLSCHED_SIMGRID, the replay the build made is found
# (tool/dlsched runs tool/.libs/dlsched through libtool's wrapper: simgrid/dlsched-simgrid)
saved_replay=$DLSCHED_SIMGRID
unset DLSCHED_SIMGRID
run simulate "$ex/star_cluster.json" "$tmp/star_cluster.s.json"
expect_rc 0 "simulate from the build tree, without DLSCHED_SIMGRID"
DLSCHED_SIMGRID=$saved_replay
export DLSCHED_SIMGRID

# A SimGrid failure is reported, not an abort of the caller: a replay that is not there
DLSCHED_SIMGRID=/nonexistent/dlsched-simgrid
export DLSCHED_SIMGRID
run simulate "$ex/star_cluster.json" "$tmp/star_cluster.s.json"
expect_rc 2 "no replay program"
expect_err "dlsched-simgrid (the replay) is not found" "where the replay was looked for"

cli_summary
