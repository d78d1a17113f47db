#!/usr/bin/env python3
"""Issue 39's speed goal: a platform of 10^5 processors built from numpy arrays and
partitioned through the Python binding in at most 1.5 times the same in C
(tests/bench/bench_python_c.c: the same arrays, the same calls of the public API).

Runs the C program and the binding in turns, R rounds, and compares the fastest of each
(the machine is noisy: ratios from one run). Exits 1 when the ratio passes 1.5 or when the
two makespans differ.

    bench_python.py BENCH_PYTHON_C [--processors N] [--elements E] [--rounds R]
"""
import argparse
import subprocess
import sys
import time

import numpy as np

import dlsched

GOAL = 1.5
SIZES = np.array([1e3, 1e4, 1e5, 1e6])
SHAPE = np.array([1.0, 1.0, 0.8, 0.3])


def arrays(n):
    """The speed functions of bench_python_c.c, as numpy arrays of shape (n, 4)."""
    x = np.arange(n, dtype=np.float64) * 0.6180339887498949
    scale = 10.0 + 990.0 * (x - np.floor(x))
    return np.tile(SIZES, (n, 1)), scale[:, None] * SHAPE


def run_python(n, elements):
    """One run: the arrays, the platform, the partition; (build s, partition s, makespan)."""
    t0 = time.perf_counter()
    sizes, speeds = arrays(n)
    platform = dlsched.Platform.from_arrays(speeds, sizes=sizes)
    t1 = time.perf_counter()
    part = dlsched.partition(platform, elements)
    t2 = time.perf_counter()
    assert part.elements.shape == (n,) and int(part.elements.sum()) == elements
    return t1 - t0, t2 - t1, part.makespan


def run_c(program, n, elements):
    """The C program's best of 3 runs in one process: warm, as the Python side is after
    its first round."""
    out = subprocess.run([program, str(n), str(elements), "3"], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("program")
    ap.add_argument("--processors", type=int, default=100000)
    ap.add_argument("--elements", type=int, default=10**9)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    best_c = best_py = float("inf")
    parts_c = parts_py = None
    for _ in range(a.rounds):
        c = run_c(a.program, a.processors, a.elements)
        py = run_python(a.processors, a.elements)
        if c[2] != py[2]:
            print("bench_python: makespans differ: C %.17g, Python %.17g" % (c[2], py[2]))
            return 1
        if c[0] + c[1] < best_c:
            best_c, parts_c = c[0] + c[1], c
        if py[0] + py[1] < best_py:
            best_py, parts_py = py[0] + py[1], py
    ratio = best_py / best_c
    print("bench_python: %d processors (4-point speed functions), %d elements, best of %d rounds"
          % (a.processors, a.elements, a.rounds))
    print("  C:      %.4f s (build %.4f s, partition %.4f s)" % (best_c, parts_c[0], parts_c[1]))
    print("  Python: %.4f s (numpy arrays and build %.4f s, partition %.4f s)"
          % (best_py, parts_py[0], parts_py[1]))
    print("  ratio Python / C: %.2f (goal <= %.1f): %s; makespan %.17g s in both"
          % (ratio, GOAL, "met" if ratio <= GOAL else "MISSED", parts_c[2]))
    return 0 if ratio <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
