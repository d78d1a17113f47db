#!/usr/bin/env python3
"""Generates the certified reference suite: platform files under validation/instances/ and
validation/manifest.json, each instance with its optimum certified independently of dlsched
(refmodel.py: exact LPs with glpsol --exact, enumeration of subsets or integer splits,
closed forms). Deterministic: the same --seed gives the same files, byte for byte.

    python3 validation/generate.py [--seed 17] [--dir validation] [--glpsol glpsol]
    python3 validation/generate.py --large 10000|1000000 --out DIR [--seed 17]

--large writes one large platform (time lines and links) with a small manifest whose
reference is dlsched's chain solver: such instances are never stored nor certified."""

import argparse
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import refmodel as R  # noqa: E402

DEFAULT_SEED = 17


def nice(v, digits=3):
    """v rounded to a few significant digits, as a float (readable JSON)."""
    return float(f"{v:.{digits - 1}e}")


def lu(rng, lo, hi):
    """Log-uniform in [lo, hi]."""
    import math
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def dump_platform(procs):
    lines = ['{', '  "processors": [']
    for i, p in enumerate(procs):
        lines.append("    " + json.dumps(p, separators=(", ", ": "))
                     + ("," if i + 1 < len(procs) else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


class Suite:
    def __init__(self, root, glpsol):
        self.root = root
        self.glpsol = glpsol
        self.entries = []
        self.files = {}

    def platform(self, name, procs):
        path = f"instances/{name}.json"
        self.files[path] = dump_platform(procs)
        return path

    def add(self, e):
        self.entries.append(e)

    def write(self, seed):
        inst = os.path.join(self.root, "instances")
        os.makedirs(inst, exist_ok=True)
        for f in os.listdir(inst):
            os.remove(os.path.join(inst, f))
        for path, text in sorted(self.files.items()):
            with open(os.path.join(self.root, path), "w") as f:
                f.write(text)
        man = {"version": 1, "seed": seed,
               "tolerance": {"dlsched": 1e-9, "recertify": 1e-12},
               "instances": self.entries}
        with open(os.path.join(self.root, "manifest.json"), "w") as f:
            json.dump(man, f, indent=1)
            f.write("\n")


def mode(order="given", orig=False, sel=True):
    return {"order": order, "originator_computes": orig, "selection": sel}


def sched_entry(suite, iid, family, procs, V, md, method=None, pname=None, note=None):
    """Certifies a schedule instance and records it; returns (optimum, info) or None when the
    instance is rejected (infeasible)."""
    try:
        val, info = R.schedule_optimum(procs, V, md, suite.glpsol)
    except R.CertError:
        return None
    by = method or ("exhaustive" if md["selection"] else "glp_exact")
    e = {"id": iid, "family": family, "kind": "schedule",
         "platform": pname or suite.platform(iid, procs), "load": V, "mode": md,
         "optimum": R.dec(val), "certified_by": by}
    if md["selection"]:
        e["best_set"] = [p for p in info["set"]]
    if note:
        e["note"] = note
    return e, val, info


def time_proc(name, lines, S=None, Cr=None, limit=None):
    p = {"name": name, "time": [[a, b] for a, b in lines]}
    if limit is not None:
        p["limit"] = limit
    if S is not None:
        p["link"] = {"startup": S, "rate": Cr}
    return p


# ----------------------------------------------------------------------------------
# Families of schedules


def fam_paper(s, rng):
    here = os.path.dirname(os.path.abspath(__file__))
    ex = os.path.join(here, "..", "examples")
    # (the instances keep the names they had when the examples were called so)
    for src, name, loads in (("star_two", "paper003_two", [0.5, 1, 2, 3.7, 20]),
                             ("star_ten", "paper003_ten", [1e3, 1e5, 1e6, 3.3e6, 1e8])):
        with open(os.path.join(ex, src + ".json")) as f:
            procs = json.load(f)["processors"]
        pname = s.platform(name, procs)
        for j, V in enumerate(loads):
            for sel in (False, True):
                iid = f"paper-{name[9:]}-{j}-{'sel' if sel else 'lp'}"
                r = sched_entry(s, iid, "paper", procs, V, mode(sel=sel), pname=pname)
                s.add(r[0])


def fam_homogeneous(s, rng):
    n = 0
    while n < 24:
        m = rng.randint(2, 10)
        b = nice(lu(rng, 1e-4, 1e-1))
        a = 0.0 if rng.random() < 0.6 else nice(lu(rng, 1e-3, 1))
        S = nice(lu(rng, 1e-4, 1e-1))
        C = nice(b * rng.uniform(0.01, 0.5))
        V = nice(lu(rng, 10, 1e5))
        sel = n % 2 == 1
        val = R.homogeneous_closed_form(m, R.fx(S), R.fx(C), R.fx(a), R.fx(b), R.fx(V), sel)
        if val is None:
            continue
        procs = [time_proc(f"H{k + 1}", [(a, b)], S, C) for k in range(m)]
        iid = f"homogeneous-{n:02d}"
        r = sched_entry(s, iid, "homogeneous", procs, V, mode(sel=sel), method="closed_form")
        if r is None:
            continue
        e, lpval, info = r
        if lpval != val:  # the closed form must be the LP's (exact) optimum
            raise SystemExit(f"{iid}: closed form {R.dec(val)} != exact LP {R.dec(lpval)}")
        e["also_checked_by"] = "exhaustive" if sel else "glp_exact"
        s.add(e)
        n += 1


def fam_linear(s, rng):
    n = 0
    while n < 24:
        m = rng.randint(2, 9)
        order = "rate" if n % 3 == 2 else "given"
        procs = []
        for k in range(m):
            b = nice(lu(rng, 1e-4, 1e-1))
            procs.append(time_proc(f"L{k + 1}", [(0.0, b)], nice(lu(rng, 1e-4, 1e-1)),
                                   nice(b * rng.uniform(0.005, 0.5))))
        V = nice(lu(rng, 100, 1e6))
        md = mode(order=order, sel=False)
        seq = R.star_sequence(procs, order, False)
        S, C, B, lines = R.star_data(procs, seq, R.fx(V))
        cf = R.linear_closed_form(S, C, [ln[0][1] for ln in lines], R.fx(V))
        if cf is None:
            continue
        iid = f"linear-{n:02d}"
        e, lpval, info = sched_entry(s, iid, "linear", procs, V, md, method="closed_form")
        if lpval != cf[0]:
            # equal finish is not always optimal in a given order (a slow link early in
            # the order can make an early finish better): such draws are not of the family
            continue
        e["also_checked_by"] = "glp_exact"
        s.add(e)
        n += 1


def memory_lines(rng, levels):
    """Convex time lines: in core a0 + b0 x, then steeper lines crossing at swap points."""
    b = nice(lu(rng, 1e-5, 1e-2))
    a = 0.0 if rng.random() < 0.7 else nice(lu(rng, 1e-3, 1))
    lines = [(a, b)]
    x = nice(lu(rng, 1e2, 1e4))
    for _ in range(levels - 1):
        nb = nice(b * rng.uniform(3, 30))
        # the new line meets the previous one at x: a + b x = na + nb x
        na = nice(a + (b - nb) * x, 6)
        lines.append((na, nb))
        a, b = na, nb
        x = nice(x * rng.uniform(2, 10))
    return lines


def fam_memory(s, rng):
    n = 0
    while n < 30:
        m = rng.randint(2, 5 if n % 2 else 6)
        procs = [time_proc(f"M{k + 1}", memory_lines(rng, rng.randint(2, 3)),
                           nice(lu(rng, 1e-4, 1e-2)), nice(lu(rng, 1e-7, 1e-4)))
                 for k in range(m)]
        V = nice(lu(rng, 1e3, 1e6))
        sel = n % 2 == 1
        md = mode(order="rate" if n % 5 == 4 else "given", sel=sel)
        iid = f"memory-{n:02d}"
        r = sched_entry(s, iid, "memory", procs, V, md)
        if r is None:
            continue
        e, val, info = r
        # keep instances where a memory level beyond the first binds at the optimum
        loads = info.get("loads")
        if loads is not None:
            seq = R.star_sequence(procs, md["order"], False)
            binds = False
            for k, x in enumerate(loads):
                ln = procs[seq[k]]["time"]
                tops = [R.fx(a) + R.fx(b) * x for a, b in ln]
                if x > 0 and max(tops) > tops[0]:
                    binds = True
            if not binds:
                continue
        s.add(e)
        n += 1


def fam_startup(s, rng):
    n = 0
    while n < 24:
        m = rng.randint(3, 6)
        procs = []
        for k in range(m):
            b = nice(lu(rng, 1e-4, 1e-2))
            procs.append(time_proc(f"P{k + 1}", [(0.0, b)], nice(lu(rng, 0.1, 20)),
                                   nice(b * rng.uniform(0.01, 1))))
        V = nice(lu(rng, 100, 1e4))
        md = mode(order="rate" if n % 4 == 3 else "given", sel=True)
        iid = f"startup-{n:02d}"
        r = sched_entry(s, iid, "startup", procs, V, md)
        if r is None or len(r[2]["set"]) in (m, 1):
            continue  # selection must matter: a strict subset, more than one processor
        s.add(r[0])
        n += 1


def fam_limits(s, rng):
    n = 0
    while n < 16:
        m = rng.randint(3, 6)
        procs = []
        V = nice(lu(rng, 1e3, 1e5))
        for k in range(m):
            b = nice(lu(rng, 1e-4, 1e-2))
            lines = memory_lines(rng, 2) if rng.random() < 0.3 else [(0.0, b)]
            procs.append(time_proc(f"B{k + 1}", lines, nice(lu(rng, 1e-4, 1e-2)),
                                   nice(lines[0][1] * rng.uniform(0.01, 0.3)),
                                   limit=nice(V * rng.uniform(0.1, 0.6))))
        sel = n % 2 == 1
        md = mode(order="rate" if n % 4 == 2 else "given", sel=sel)
        iid = f"limits-{n:02d}"
        r = sched_entry(s, iid, "limits", procs, V, md)
        if r is None:
            continue
        e, val, info = r
        # at least one limit binds at the optimum (for the LP: its loads; for selection:
        # the LP of the best set again)
        seq = R.star_sequence(procs, md["order"], False)
        S, C, B, lines = R.star_data(procs, seq, R.fx(V))
        ks = info["set"]
        sub = R.glpsol_exact([S[k] for k in ks], [C[k] for k in ks], [B[k] for k in ks],
                             [lines[k] for k in ks], R.fx(V), s.glpsol)
        if sub is None or sub[0] != val or not any(x == B[k] for x, k in zip(sub[1], ks)):
            continue
        s.add(e)
        n += 1
    # exactly tight: k limits of V/k (the sum is V or one unit in the last place below)
    tight = [(7, 3000), (7, 30), (9, 30), (3, 1), (11, 1e6), (6, 1e4), (13, 7e5), (5, 0.7)]
    for j, (k, V) in enumerate(tight):
        lim = V / k
        procs = []
        for i in range(k):
            b = nice(lu(rng, 1e-4, 1e-2))
            procs.append(time_proc(f"T{i + 1}", [(0.0, b)], nice(lu(rng, 1e-4, 1e-2)),
                                   nice(b * rng.uniform(0.01, 0.3)), limit=lim))
        iid = f"limits-tight-{j}"
        md = mode(sel=j % 2 == 1)
        if k > 6 and md["selection"]:
            md["selection"] = False  # every processor is needed anyway: one LP
        r = sched_entry(s, iid, "limits", procs, V, md,
                        note=f"{k} limits of {V}/{k}: every processor at its limit")
        s.add(r[0])


def fam_originator(s, rng):
    n = 0
    while n < 18:
        m = rng.randint(3, 6)
        own = rng.randint(1, 2)
        procs = []
        for k in range(m):
            lines = memory_lines(rng, 2) if rng.random() < 0.3 else \
                [(0.0, nice(lu(rng, 1e-4, 1e-2)))]
            if k % 3 == 1 and own > 0:
                own -= 1
                procs.append(time_proc(f"O{k + 1}", lines))
            else:
                procs.append(time_proc(f"W{k + 1}", lines, nice(lu(rng, 1e-4, 1e-1)),
                                       nice(lines[0][1] * rng.uniform(0.05, 0.5))))
        V = nice(lu(rng, 100, 1e5))
        md = mode(order="rate" if n % 3 == 2 else "given", orig=True, sel=n % 2 == 1)
        if m > 5 and md["selection"]:
            m = 5
            procs = procs[:5]
        r = sched_entry(s, f"originator-{n:02d}", "originator", procs, V, md)
        if r is None:
            continue
        s.add(r[0])
        n += 1


def fam_free(s, rng):
    n = 0
    while n < 14:
        m = rng.randint(3, 5)
        procs = []
        for k in range(m):
            lines = [(0.0, nice(lu(rng, 1e-4, 1e-2)))]
            if rng.random() < 0.4:
                procs.append(time_proc(f"F{k + 1}", lines))
            else:
                procs.append(time_proc(f"N{k + 1}", lines, nice(lu(rng, 1e-3, 1)),
                                       nice(lines[0][1] * rng.uniform(0.05, 0.5))))
        if all("link" in p for p in procs):
            continue
        V = nice(lu(rng, 100, 1e5))
        md = mode(order="rate" if n % 3 == 2 else "given", sel=n % 2 == 1)
        r = sched_entry(s, f"free-{n:02d}", "free", procs, V, md)
        if r is None:
            continue
        s.add(r[0])
        n += 1


def fam_extreme(s, rng):
    n = 0
    while n < 16:
        m = rng.randint(2, 5)
        scale = 10.0 ** rng.randint(-6, 12)  # the load's magnitude
        procs = []
        for k in range(m):
            # each processor takes between 1e-3 and 1e3 seconds for the whole load
            b = nice(lu(rng, 1e-3, 1e3) / scale)
            S = nice(lu(rng, 1e-9, 1e2))
            procs.append(time_proc(f"X{k + 1}", [(0.0, b)], S, nice(b * lu(rng, 1e-6, 1))))
        V = nice(scale * rng.uniform(1, 9))
        md = mode(order="rate" if n % 4 == 3 else "given", sel=n % 2 == 1)
        r = sched_entry(s, f"extreme-{n:02d}", "extreme", procs, V, md,
                        note=f"load {V:g}; slopes {min(p['time'][0][1] for p in procs):g} to "
                             f"{max(p['time'][0][1] for p in procs):g} s/unit")
        if r is None:
            continue
        s.add(r[0])
        n += 1


# ----------------------------------------------------------------------------------
# Partitions


def increasing_speed_points(rng, N):
    """Speed points whose time x/s(x) increases strictly over the whole units up to N."""
    while True:
        k = rng.randint(2, 4)
        xs = sorted({max(1, int(lu(rng, 1, N))) for _ in range(k)})
        if len(xs) < 2:
            continue
        s0 = lu(rng, 10, 1e4)
        pts, s = [], s0
        for x in xs:
            pts.append([float(x), nice(s)])
            s *= rng.uniform(0.3, 1.6)
        p = {"speed": {"points": pts}}
        ts = [R.speed_time(p, n) for n in range(1, N + 1)]
        if all(t1 > t0 for t0, t1 in zip(ts, ts[1:])):
            return p


def fam_functional(s, rng):
    n = 0
    while n < 20:
        p = rng.randint(2, 5)
        N = rng.randint(20, 1500)
        procs = []
        for k in range(p):
            r = rng.random()
            if r < 0.6:
                q = increasing_speed_points(rng, N)
            elif r < 0.8:
                q = {"speed": nice(lu(rng, 10, 1e4))}
            else:
                q = {"time": [[a, b] for a, b in memory_lines(rng, 2)]}
            procs.append(dict({"name": f"S{k + 1}"}, **q))
        iid = f"functional-{n:02d}"
        val = R.partition_optimum(procs, N)
        s.add({"id": iid, "family": "functional", "kind": "partition",
               "platform": s.platform(iid, procs), "elements": N, "optimum": R.dec(val),
               "certified_by": "exhaustive"})
        n += 1


def fam_bounded(s, rng):
    n = 0
    while n < 14:
        p = rng.randint(2, 5)
        N = rng.randint(20, 1200)
        procs = []
        for k in range(p):
            q = increasing_speed_points(rng, N) if rng.random() < 0.6 else \
                {"speed": nice(lu(rng, 10, 1e4))}
            q = dict({"name": f"S{k + 1}"}, **q)
            q["limit"] = float(int(N * rng.uniform(0.15, 0.7))) if n % 4 else \
                nice(N * rng.uniform(0.15, 0.7), 4)
            procs.append(q)
        if sum(int(q["limit"]) for q in procs) < N:
            continue
        iid = f"bounded-{n:02d}"
        try:
            val = R.partition_optimum(procs, N)
        except R.CertError:
            continue
        s.add({"id": iid, "family": "bounded", "kind": "partition",
               "platform": s.platform(iid, procs), "elements": N, "optimum": R.dec(val),
               "certified_by": "exhaustive"})
        n += 1


def fam_weighted(s, rng):
    n = 0
    while n < 16:
        ordered = n % 2 == 0
        p = rng.randint(2, 3)
        ne = rng.randint(5, 12 if ordered else 9)
        w = [nice(lu(rng, 1, 100)) for _ in range(ne)]
        procs = []
        for k in range(p):
            q = {"speed": nice(lu(rng, 1, 100))} if rng.random() < 0.6 else \
                {"time": [[a, b] for a, b in memory_lines(rng, 2)]}
            q = dict({"name": f"W{k + 1}"}, **q)
            if rng.random() < 0.3:
                q["limit"] = nice(sum(w) * rng.uniform(0.4, 0.8))
            procs.append(q)
        try:
            val = R.weighted_optimum(procs, w, ordered)
        except R.CertError:
            continue
        iid = f"weighted-{n:02d}"
        wpath = f"instances/{iid}.weights.json"
        s.files[wpath] = json.dumps(w) + "\n"
        s.add({"id": iid, "family": "weighted", "kind": "weighted",
               "platform": s.platform(iid, procs), "weights": wpath, "ordered": ordered,
               "optimum": R.dec(val), "certified_by": "exhaustive"})
        n += 1


def speed2d(rng, N, shape_ok):
    xs = sorted({nice(N * f) for f in (0.5, 1, 2)})
    ys = sorted({max(1, int(N * f)) for f in (0.05, 0.3, 1.0)})
    vals = []
    base = lu(rng, 1e6, 1e9)
    for i, _ in enumerate(xs):
        row, v = [], base * rng.uniform(0.7, 1.3)
        for j, _ in enumerate(ys):
            row.append(nice(v))
            # rows' time r N^2 / s grows when s falls or grows less than linearly in r;
            # a speed that grows faster than the rows breaks the shape conditions
            v *= rng.uniform(0.3, 1.1) if shape_ok else rng.uniform(8, 30)
        vals.append(row)
    return {"x": xs, "y": [float(y) for y in ys], "values": vals}


def fam_matrix(s, rng):
    n = 0
    while n < 20:
        shape_ok = n % 2 == 0
        p = rng.randint(2, 4)
        N = rng.randint(20, 300)
        procs = [{"name": f"X{k + 1}", "speed2d": speed2d(rng, N, shape_ok)} for k in range(p)]
        if rng.random() < 0.3:
            procs[0]["limit"] = float(int(N * rng.uniform(0.3, 0.8)))
        # the shape: every processor's time of r rows increases strictly with r
        ok = True
        for q in procs:
            N2 = R.F(N) * N
            cap = min(R.whole_units(q["limit"]) if "limit" in q else N, N)
            ts = [r * N2 / R.bilinear(q, N, r) for r in range(1, cap + 1)]
            ok = ok and all(b > a for a, b in zip(ts, ts[1:]))
        if ok != shape_ok:
            continue
        iid = f"matrix-{n:02d}"
        try:
            val = R.matrix_optimum(procs, N)
        except R.CertError:
            continue
        s.add({"id": iid, "family": "matrix", "kind": "matrix",
               "platform": s.platform(iid, procs), "matrix": N, "shape_ok": shape_ok,
               "optimum": R.dec(val), "certified_by": "exhaustive"})
        n += 1


FAMILIES = [fam_paper, fam_homogeneous, fam_linear, fam_memory, fam_startup, fam_limits,
            fam_originator, fam_free, fam_extreme, fam_functional, fam_bounded, fam_weighted,
            fam_matrix]


def large(n, out, seed):
    rng = random.Random(seed * 1000003 + n)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, f"large-{n}.json")
    with open(path, "w") as f:
        f.write('{"processors": [\n')
        for k in range(n):
            b = nice(lu(rng, 1e-6, 1e-3))
            lines = [[0.0, b]]
            if k % 3 == 0:
                lines.append([nice(-b * 1e4 * 9, 4), nice(b * 10, 4)])
            p = {"name": f"P{k + 1}", "time": lines,
                 "link": {"startup": nice(lu(rng, 1e-6, 1e-3)), "rate": nice(b * 1e-3)}}
            f.write("  " + json.dumps(p, separators=(",", ":"))
                    + (",\n" if k + 1 < n else "\n"))
        f.write("]}\n")
    man = {"version": 1, "seed": seed, "instances": [{
        "id": f"large-{n}", "family": "large", "kind": "schedule",
        "platform": os.path.basename(path), "load": 1e9,
        "mode": mode(sel=False), "optimum": None,
        "reference": "dlsched's chain solver", "certified_by": None}]}
    with open(os.path.join(out, f"large-{n}.manifest.json"), "w") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    print(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--dir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--glpsol", default="glpsol")
    ap.add_argument("--large", type=int, choices=[10000, 1000000])
    ap.add_argument("--out")
    a = ap.parse_args()
    if a.large:
        if not a.out:
            ap.error("--large needs --out DIR (large instances are never stored)")
        large(a.large, a.out, a.seed)
        return
    s = Suite(a.dir, a.glpsol)
    for k, fam in enumerate(FAMILIES):
        rng = random.Random(a.seed * 100 + k)
        before = len(s.entries)
        fam(s, rng)
        print(f"{fam.__name__[4:]}: {len(s.entries) - before}", file=sys.stderr)
    s.write(a.seed)
    print(f"{len(s.entries)} instances", file=sys.stderr)


if __name__ == "__main__":
    main()
