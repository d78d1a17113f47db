#!/usr/bin/env python3
"""Balance an iterative application while it runs, from its own times: the Python side of
doc/TUTORIAL.md, step 8. The "application" is simulated on a platform file's models (each
processor takes the time its model gives for its share, give or take 2% of noise); the
balancer sees only those times, never the models.

    balance_loop.py [PLATFORM] [ELEMENTS] [ITERATIONS] [SEED]
"""
import sys

import numpy as np

import dlsched


def main(argv):
    path = argv[1] if len(argv) > 1 else "examples/memory_levels.json"
    n = int(float(argv[2])) if len(argv) > 2 else 150_000_000
    iterations = int(argv[3]) if len(argv) > 3 else 10
    rng = np.random.default_rng(int(argv[4]) if len(argv) > 4 else 1)
    platform = dlsched.Platform(path)
    optimum = dlsched.partition(platform, n).makespan   # what a perfect oracle would do

    # the limits (memory) are known; the speeds are not
    balancer = dlsched.Balancer(len(platform), n, limits=platform.limits, noise=0.02)
    print("iteration  makespan (s)  / optimum  elements moved")
    for it in range(1, iterations + 1):
        shares = balancer.shares
        # run the iteration: each processor computes its block and times it
        times = np.array([proc.time(float(s)) if s else 0.0
                          for proc, s in zip(platform, shares)])
        times *= 1.0 + 0.02 * rng.uniform(-1.0, 1.0, len(times))
        true_makespan = max(proc.time(float(s)) for proc, s in zip(platform, shares))
        balancer.step(times)
        moved = balancer.moves().moved
        print("%9d  %12.4f  %9.3f  %14d%s" % (it, true_makespan, true_makespan / optimum, moved,
                                             "  converged" if balancer.info.converged else ""))
    print("final shares:", ", ".join("%s %d" % (name, s)
                                     for name, s in zip(platform.names, balancer.shares)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
