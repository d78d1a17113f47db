#!/usr/bin/env python3
"""proportional_split: a deliberately naive scheduler for `dlsched validate` to score.

It gives each processor a share of the load proportional to its speed at an even share,
and ignores everything else: the links (startups and rates), the send order, the memory
levels beyond the even share, and the processors' limits. It reads the platform file
itself (no dlsched), as a scheduler written in another language would, and writes the
plan as CSV (name,load or name,elements).

    proportional_split.py PLATFORM LOAD OUTPUT [schedule|partition|matrix|weighted]
    dlsched validate --scheduler 'python3 examples/proportional_split.py {platform} {load} {output} {kind}'
"""
import csv
import json
import sys


def speed(proc, x, order=None):
    """The processor's speed at size x (units per second); order: the matrix order."""
    if "time" in proc:
        t = max(a + b * x for a, b in proc["time"])
        return x / t if t > 0 else float("inf")
    s = proc.get("speed", proc.get("speed2d"))
    if isinstance(s, (int, float)):
        return float(s)
    if "points" in s:
        pts = s["points"]
        if x <= pts[0][0]:
            return pts[0][1]
        for (x0, s0), (x1, s1) in zip(pts, pts[1:]):
            if x <= x1:
                return s0 + (s1 - s0) * (x - x0) / (x1 - x0)
        return pts[-1][1]
    # a 2-D speed: the value at the grid point nearest (order, rows)
    xs, ys, vals = s["x"], s["y"], s["values"]
    ix = min(range(len(xs)), key=lambda k: abs(xs[k] - (order or x)))
    iy = min(range(len(ys)), key=lambda k: abs(ys[k] - x))
    return vals[ix][iy]


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    platform, load, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    kind = sys.argv[4] if len(sys.argv) == 5 else "schedule"
    procs = json.load(open(platform, encoding="utf-8"))["processors"]
    n = len(procs)
    order = load if kind == "matrix" else None
    even = load / n
    w = [speed(p, even, order) for p in procs]
    total = sum(w)
    share = [load * x / total for x in w]
    whole = kind != "schedule"
    if whole:  # largest remainders
        base = [int(s) for s in share]
        left = int(load) - sum(base)
        for k in sorted(range(n), key=lambda k: share[k] - base[k], reverse=True)[:left]:
            base[k] += 1
        share = base
    with open(output, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["name", "elements" if whole else "load"])
        for p, s in zip(procs, share):
            out.writerow([p["name"], s if whole else repr(float(s))])


if __name__ == "__main__":
    main()
