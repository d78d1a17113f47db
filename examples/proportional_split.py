#!/usr/bin/env python3
"""proportional_split: a deliberately naive scheduler for `dlsched validate` to score.

It gives each processor a share of the load proportional to its speed at an even share,
and ignores everything else: the links (startups and rates), the send order, the memory
levels beyond the even share, and the processors' limits. It reads the platform file
itself (no dlsched), as a scheduler written in another language would, and writes the
plan as CSV (name,load or name,elements).

    proportional_split.py PLATFORM LOAD OUTPUT [schedule|partition|matrix|weighted
                          [WEIGHTS [ordered|unordered]]]
    dlsched validate --scheduler 'python3 examples/proportional_split.py {platform} {load} {output} {kind} {weights} {ordered}'

For kind weighted, the elements of WEIGHTS (a JSON array, or numbers separated by white
space) are given to the processors in proportion to their speeds at an even share of the
weight: contiguous chunks in platform order when ORDERED, else the heaviest element first to
the processor furthest below its share; the plan is the JSON of
`dlsched partition --weights --json`, with its "assignment".
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


def read_weights(path):
    """A JSON array, or numbers separated by white space ('#' starts a comment)."""
    text = open(path, encoding="utf-8").read()
    if text.lstrip().startswith("["):
        return [float(x) for x in json.loads(text)]
    return [float(x) for line in text.splitlines() for x in line.split("#")[0].split()]


def weighted(procs, weights, ordered, output):
    """Weight in proportion to speed at an even share; the JSON of partition --weights."""
    n, p, total = len(weights), len(procs), sum(weights)
    s = [speed(q, total / p) for q in procs]
    target = [total * x / sum(s) for x in s]
    owner = [0] * n
    held = [0.0] * p
    if ordered:  # cut where the running weight passes each processor's share
        bounds, acc = [], 0.0
        for t in target:
            acc += t
            bounds.append(acc)
        before, i = 0.0, 0
        for e, w in enumerate(weights):
            while i < p - 1 and before + w / 2 > bounds[i]:
                i += 1
            owner[e] = i
            held[i] += w
            before += w
    else:
        for e in sorted(range(n), key=lambda e: (-weights[e], e)):
            i = max(range(p), key=lambda i: (target[i] - held[i], -i))
            owner[e] = i
            held[i] += weights[e]
    count = [owner.count(i) for i in range(p)]
    plan = {"elements": n, "assignment": owner,
            "processors": [{"name": q["name"], "elements": count[i], "weight": held[i]}
                           for i, q in enumerate(procs)]}
    with open(output, "w", encoding="utf-8") as f:
        json.dump(plan, f)


def main():
    if len(sys.argv) not in (4, 5, 6, 7):
        sys.exit(__doc__)
    platform, load, output = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    kind = sys.argv[4] if len(sys.argv) >= 5 else "schedule"
    procs = json.load(open(platform, encoding="utf-8"))["processors"]
    if kind == "weighted":
        if len(sys.argv) < 6 or not sys.argv[5]:
            sys.exit("weighted: give the weights file")
        ordered = len(sys.argv) == 7 and sys.argv[6] == "ordered"
        weighted(procs, read_weights(sys.argv[5]), ordered, output)
        return
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
