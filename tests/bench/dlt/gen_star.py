#!/usr/bin/env python3
"""Write one random star platform both as a dlsched platform (PREFIX.json) and as a
DLT-Studio instance (PREFIX.dlt), for comparing the two tools (tests/bench/dlt/README.md).

Distribution, per processor (all draws from Python's random.Random(seed), stdlib only):
  in-core slope   b1 ~ log-uniform [1e-3, 1e-2] s/unit, intercept 0
  out-of-core     b2 = b1 * r, r ~ log-uniform [2, 20]
  swap point      w  ~ log-uniform [200, 5000] units; second line a2 = (b1 - b2) * w < 0,
                  so time(x) = max(b1 x, a2 + b2 x) bends at x = w
  link startup    S  ~ uniform [0, 0.05) s
  link rate       C  ~ log-uniform [1e-5, 1e-4] s/unit
  memory limit    exactly round(N/5) processors, chosen at random, get
                  L ~ log-uniform [500, 5000] units; the others none
The load (default 1e5) goes into the DLT file ("V" line); dlsched takes it on the
command line (--load).

Units: the DLT file counts load in units of K dlsched units (--dlt-unit, default 100):
V/K, C*K, slopes*K, B/K; intercepts and startups (seconds) unchanged, so every time and
makespan is the same. This is needed, not cosmetic: DLT-Studio's dependency-free LP
(lib/core/simplex.h) zeroes tableau entries below 1e-5 (EPSILON) after every pivot, and
at K = 1 its LP answers are visibly wrong already on 5 processors (a violated send
chain, a makespan 0.1% too small); at K = 100 they match an exact replay there (on
~100 installments no K makes them exact: replay them, as run_dlt.sh does). K = 1000
is too far the other way (best-rate's LP then fails on N = 100, and online's minimum
chunk of 1 DLT unit exceeds the limits). The file records K in a "# dlsched-unit K"
comment, which run_dlt.sh reads.

Mapping (K = 1): dlsched "time": [[0, b1], [a2, b2]] == DLT row "S C b1 B" + "pieces 0,b1 a2,b2"
(DLT's computeRate A is set to b1, the in-core slope; DLT's LP uses A where it has no
pieces: the carried-load row, see README.md). No limit == DLT B = 1e18 (DLT's LP
enforces alpha + y <= B literally, so 0 would mean "nothing"). dlsched's limit bounds a
processor's whole share; DLT's B bounds the load held at one installment (chunk +
carried backlog): identical for single-installment schedules only.

usage: gen_star.py N [SEED] [--load V] [--dlt-unit K] [-o PREFIX]
       (default PREFIX star_N_SEED)
"""
import argparse
import json
import math
import random


def logu(rng, lo, hi):
    return math.exp(math.log(lo) + rng.random() * (math.log(hi) - math.log(lo)))


def generate(n, seed):
    rng = random.Random(seed)
    procs = []
    for i in range(n):
        b1 = logu(rng, 1e-3, 1e-2)
        b2 = b1 * logu(rng, 2.0, 20.0)
        w = logu(rng, 200.0, 5000.0)
        a2 = (b1 - b2) * w
        s = rng.random() * 0.05
        c = logu(rng, 1e-5, 1e-4)
        procs.append({"name": "p%d" % i, "b1": b1, "a2": a2, "b2": b2, "swap": w,
                      "S": s, "C": c, "limit": None})
    k = int(round(n / 5.0))
    for i in sorted(rng.sample(range(n), k)):
        procs[i]["limit"] = logu(rng, 500.0, 5000.0)
    return procs


def write_dlsched(path, procs):
    out = []
    for p in procs:
        d = {"name": p["name"], "time": [[0, p["b1"]], [p["a2"], p["b2"]]],
             "link": {"startup": p["S"], "rate": p["C"]}}
        if p["limit"] is not None:
            d["limit"] = p["limit"]
        out.append(d)
    with open(path, "w") as f:
        f.write('{"processors": [\n')
        f.write(",\n".join("  " + json.dumps(d) for d in out))
        f.write("\n]}\n")


def write_dlt(path, procs, load, n, seed, k):
    with open(path, "w") as f:
        f.write("# DLT-Studio instance written by dlsched tests/bench/dlt/gen_star.py"
                " N=%d seed=%d load=%r\n" % (n, seed, float(load)))
        f.write("# processor i (0-based) == dlsched name p<i>; row: S C A B, pieces a,b;\n"
                "# load in units of K dlsched units (swap points below in dlsched units)\n")
        f.write("# dlsched-unit %r\n" % float(k))
        f.write("V %r\n" % (float(load) / k))
        for p in procs:
            b = p["limit"] / k if p["limit"] is not None else 1e18
            f.write("%r %r %r %r  # p%s swap %.6g\n"
                    % (p["S"], p["C"] * k, p["b1"] * k, b, p["name"][1:], p["swap"]))
            f.write("pieces 0,%r %r,%r\n" % (p["b1"] * k, p["a2"], p["b2"] * k))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", type=int)
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--load", type=float, default=1e5)
    ap.add_argument("--dlt-unit", type=float, default=100.0, metavar="K")
    ap.add_argument("-o", "--prefix")
    a = ap.parse_args()
    if a.n < 1:
        ap.error("N must be >= 1")
    if not a.dlt_unit > 0:
        ap.error("--dlt-unit must be > 0")
    prefix = a.prefix or "star_%d_%d" % (a.n, a.seed)
    procs = generate(a.n, a.seed)
    write_dlsched(prefix + ".json", procs)
    write_dlt(prefix + ".dlt", procs, a.load, a.n, a.seed, a.dlt_unit)
    print("%s.json %s.dlt" % (prefix, prefix))


if __name__ == "__main__":
    main()
