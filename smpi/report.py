#!/usr/bin/env python3
"""smpi/report.py: the report of smpi/flow.sh, in Markdown on standard output.

Holds what was measured under SMPI against the platform as SimGrid itself reads it
(dlsched-simgrid --routes: each host's speed, the latency and bandwidth of the route from
rank 0's host), and the examples' predicted against simulated-measured times:

  report.py --platform XML --routes FILE --measured platform.json --unit-bytes B
            [--matmul FILE] [--divisible FILE] [--json FILE]

Speeds: each rank's measured speed function is read at the largest size it measured, and
its ratio to rank 0's at that size is held against the ratio of their hosts' speeds. Links: the fitted startup against the route's latency, the fitted rate
(per unit of B bytes) against B / the route's bandwidth. With more than 16 ranks the tables
group the ranks whose hosts have the same speed and route. --json writes the same figures
for scripts (tests/simgrid/smpi_flow.sh checks them)."""
import argparse
import json
import math
import statistics
import sys


def read_routes(path):
    hosts = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                hosts.append({"host": parts[0], "speed": float(parts[1]),
                              "latency": float(parts[2]), "bandwidth": float(parts[3])})
    return hosts


def speed_at(points, x):
    """The speed function of dlsched's point models: linear between points, constant
    beyond the first and the last."""
    pts = sorted((p[0], p[1]) for p in points)
    if x <= pts[0][0]:
        return pts[0][1]
    for (x0, s0), (x1, s1) in zip(pts, pts[1:]):
        if x <= x1:
            return s0 + (s1 - s0) * (x - x0) / (x1 - x0)
    return pts[-1][1]


def read_results(path):
    """The key=value lines of the examples: result lines per rank, makespan lines, and the
    'split NAME: ..., right|WRONG' lines."""
    ranks, spans, right = {}, {}, {}
    if path is None:
        return ranks, spans, right
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words:
                continue
            if words[0] == "split" and len(words) > 1:
                name = words[1].rstrip(":")
                right[name] = "WRONG" not in line
                continue
            if words[0] not in ("result", "makespan"):
                continue
            kv = dict(w.split("=", 1) for w in words[1:] if "=" in w)
            if words[0] == "result":
                ranks.setdefault(kv["split"], []).append(kv)
            else:
                spans[kv["split"]] = kv
    return ranks, spans, right


def rel(a, b):
    return a / b - 1 if b else math.nan


def fmt(x, digits=4):
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}g}"


def pct(x):
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:+.2f}%"


def classes(hosts):
    """Ranks grouped by (speed, latency, bandwidth), in order of first appearance."""
    groups = {}
    for r, h in enumerate(hosts):
        key = (h["speed"], h["latency"], h["bandwidth"])
        groups.setdefault(key, []).append(r)
    return list(groups.values())


def clean(x):
    """NaN (no link: rank 0) as null, for strict JSON."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--platform", required=True)
    ap.add_argument("--routes", required=True)
    ap.add_argument("--measured", required=True)
    ap.add_argument("--unit-bytes", type=float, required=True)
    ap.add_argument("--matmul")
    ap.add_argument("--divisible")
    ap.add_argument("--json")
    a = ap.parse_args()

    hosts = read_routes(a.routes)
    with open(a.measured) as f:
        procs = json.load(f)["processors"]
    if len(procs) != len(hosts):
        sys.exit(f"report.py: {a.measured} has {len(procs)} processors, the hostfile "
                 f"{len(hosts)} hosts")
    p = len(hosts)
    # each rank at the largest size it measured (its longest runs, the least noisy), rank 0
    # at the same size
    at = [max(pt[0] for pt in pr["speed"]["points"]) for pr in procs]
    ratio = [speed_at(procs[r]["speed"]["points"], at[r])
             / speed_at(procs[0]["speed"]["points"], at[r]) for r in range(p)]
    ratio_err = [rel(ratio[r], hosts[r]["speed"] / hosts[0]["speed"]) for r in range(p)]
    startup, rate, s_err, c_err = [], [], [], []
    for r, pr in enumerate(procs):
        link = pr.get("link")
        if r == 0 or link is None:
            startup.append(math.nan)
            rate.append(math.nan)
            s_err.append(math.nan)
            c_err.append(math.nan)
            continue
        startup.append(link["startup"])
        rate.append(link["rate"] / a.unit_bytes)
        s_err.append(rel(link["startup"], hosts[r]["latency"]))
        c_err.append(rel(link["rate"] / a.unit_bytes, 1 / hosts[r]["bandwidth"]))

    # The speeds the run itself shows: under the even split of mpi_divisible every rank
    # processes the same number of units in one stretch of computation (from its data's
    # arrival on), a burst long enough for SMPI's rescaling to hold; units / compute time.
    run_ratio_err = [math.nan] * p
    dranks, _, _ = read_results(a.divisible)
    even = dranks.get("even", [])
    if len(even) == p and all(float(k["compute"]) > 0 for k in even):
        rate0 = float(even[0]["units"]) / float(even[0]["compute"])
        run_ratio_err = [rel(float(k["units"]) / float(k["compute"]) / rate0,
                             hosts[r]["speed"] / hosts[0]["speed"])
                         for r, k in enumerate(even)]
    out = []
    w = out.append
    w(f"# {a.platform}: {p} ranks under SMPI\n")
    w(f"## Hosts and links: SimGrid's platform against `bench --mpi --links`\n")
    w(f"Speeds, as ratios to rank 0's against the ratios of the hosts' speeds: the gemm-rows "
      f"speed function `bench --mpi` measured, at the largest size the rank measured; and "
      f"the run's, units / computing time of each rank under mpi_divisible's even split "
      f"(the same units everywhere, in one stretch). "
      f"Links: the fitted startup S and cost per byte C against the route from rank 0 "
      f"(latency, 1 / bandwidth).\n")
    per_rank = p <= 16
    if per_rank:
        w("| rank | host | host Gflop/s | speed ratio: hosts | bench (rows) | error | run | "
          "error | latency us | fitted S us | error | bandwidth MB/s | fitted 1/C MB/s | error |")
        w("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r, h in enumerate(hosts):
            hr = h['speed'] / hosts[0]['speed']
            w(f"| {r} | {h['host']} | {h['speed'] / 1e9:g} | {hr:.4g} | "
              f"{ratio[r]:.4g} ({fmt(at[r])}) | {pct(ratio_err[r])} | "
              f"{fmt(hr * (1 + run_ratio_err[r]))} | {pct(run_ratio_err[r])} | "
              f"{fmt(h['latency'] * 1e6)} | {fmt(startup[r] * 1e6)} | "
              f"{pct(s_err[r])} | {fmt(h['bandwidth'] / 1e6)} | "
              f"{fmt(1 / rate[r] / 1e6 if rate[r] else math.nan)} | {pct(c_err[r])} |")
    else:
        w("| ranks | hosts | host Gflop/s | latency us | bandwidth MB/s | speed ratio error, "
          "bench: median | worst | run: median | worst | S error: worst | C error: worst |")
        w("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for g in classes(hosts):
            h = hosts[g[0]]
            worst = lambda v: max((v[r] for r in g if not math.isnan(v[r])), key=abs,
                                  default=math.nan)
            w(f"| {len(g)} | {h['host']} ... | {h['speed'] / 1e9:g} | "
              f"{fmt(h['latency'] * 1e6)} | {fmt(h['bandwidth'] / 1e6)} | "
              f"{pct(statistics.median(ratio_err[r] for r in g))} | {pct(worst(ratio_err))} | "
              f"{pct(statistics.median(run_ratio_err[r] for r in g))} | {pct(worst(run_ratio_err))} | "
              f"{pct(worst(s_err))} | {pct(worst(c_err))} |")
    w("")

    report = {"ranks": p, "speed_size": at, "speed_ratio_error": ratio_err,
              "run_speed_ratio_error": run_ratio_err,
              "startup_error": s_err, "rate_error": c_err, "examples": {}}
    for name, path, unit in (("matmul", a.matmul, "rows"), ("divisible", a.divisible, "units")):
        ranks, spans, right = read_results(path)
        if not spans:
            continue
        w(f"## mpi_{name}\n")
        w("Predicted: what the distribution's own model says (the even split is predicted "
          "with the measured functions); measured: simulated by SMPI. error = measured / "
          "predicted - 1; against fpm: the measured makespan over the functional model's.\n")
        w("| split | right | makespan predicted s | measured s | error | against fpm | "
          "worst rank error |")
        w("|---|---|---:|---:|---:|---:|---:|")
        fpm = float(spans["fpm"]["measured"]) if "fpm" in spans else math.nan
        ex = report["examples"][name] = {}
        for split, kv in spans.items():
            errs = [rel(float(k["measured"]), float(k["predicted"])) for k in ranks[split]
                    if float(k[unit]) > 0]
            worst = max(errs, key=abs, default=math.nan)
            measured = float(kv["measured"])
            ex[split] = {"predicted": float(kv["predicted"]), "measured": measured,
                         "error": float(kv["error"]), "right": right.get(split, False),
                         "worst_rank_error": worst,
                         "units": [float(k[unit]) for k in ranks[split]],
                         "rank_predicted": [float(k["predicted"]) for k in ranks[split]],
                         "rank_measured": [float(k["measured"]) for k in ranks[split]]}
            w(f"| {split} | {'yes' if right.get(split) else 'NO'} | {fmt(float(kv['predicted']))} | "
              f"{fmt(measured)} | {pct(float(kv['error']))} | {fmt(measured / fpm, 3)} | "
              f"{pct(worst)} |")
        w("")
        if per_rank:
            splits = list(spans)
            w("| rank | host | " + " | ".join(f"{s}: {unit} | predicted s | measured s"
                                           for s in splits) + " |")
            w("|---:|---|" + "---:|---:|---:|" * len(splits))
            for r, h in enumerate(hosts):
                cells = []
                for s in splits:
                    k = ranks[s][r]
                    cells += [k[unit], fmt(float(k["predicted"])), fmt(float(k["measured"]))]
                w(f"| {r} | {h['host']} | " + " | ".join(cells) + " |")
            w("")
    print("\n".join(out))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(clean(report), f, indent=1)


if __name__ == "__main__":
    main()
