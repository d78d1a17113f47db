#!/usr/bin/env python3
"""Measure the speed function of your own Python kernel, then use it: the Python side of
doc/TUTORIAL.md, step 7. The kernel here is a numpy dot product of two vectors of `size`
doubles, whose speed falls when they leave the caches; replace it with yours (a GPU kernel
returns its own time in seconds, read from its events after a synchronisation).

    measure_kernel.py [SECONDS] [OUT.json]
"""
import json
import sys

import numpy as np

import dlsched

MAX = 1 << 22                      # 4 Mi doubles a vector, 32 MiB
a = np.random.default_rng(1).random(MAX)
b = np.random.default_rng(2).random(MAX)


def dot(size):
    """One run: the dot product of the first `size` doubles. A run much shorter than a
    millisecond is repeated in a loop and its mean time returned."""
    n = int(size)
    reps = max(1, (1 << 16) // n)
    import time
    start = time.perf_counter()
    for _ in range(reps):
        np.dot(a[:n], b[:n])
    return (time.perf_counter() - start) / reps


def main(argv):
    seconds = float(argv[1]) if len(argv) > 1 else 5.0
    out = argv[2] if len(argv) > 2 else None
    m = dlsched.bench(dot, min_size=1024, max_size=MAX, integer_sizes=True,
                      time_budget=seconds, name="numpy-dot")
    print("measured %d sizes in %.1f s (%s); the model keeps %d points:"
          % (len(m.points), m.elapsed, m.stop, len(m.model.sizes)))
    for size, speed in zip(m.model.sizes, m.model.speeds):
        print("  %10d elements  %10.4g elements/s" % (size, speed))
    # the measured processor, next to a second one twice as fast, shares 10^7 elements
    platform = dlsched.Platform.from_dict({"processors": [
        m.processor(), {"name": "twice", "speed": 2 * float(m.model.speeds[-1])}]})
    part = dlsched.partition(platform, 10**7, use_limits=False)
    print("10^7 elements: %s; makespan %.4g s" % (
        ", ".join("%s %d" % (n, e) for n, e in zip(platform.names, part.elements)),
        part.makespan))
    if out:
        with open(out, "w") as f:
            json.dump({"processors": [m.processor()]}, f, indent=2)
        print("wrote", out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
