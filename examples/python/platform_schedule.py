#!/usr/bin/env python3
"""Read a platform, partition N elements over it, schedule a divisible load from its
source, and draw both: the Python side of doc/TUTORIAL.md, steps 1 to 3.

    platform_schedule.py PLATFORM [ELEMENTS] [LOAD] [OUTDIR]
"""
import os
import sys

import dlsched


def main(argv):
    path = argv[1] if len(argv) > 1 else "examples/star_cluster.json"
    elements = int(float(argv[2])) if len(argv) > 2 else 10**6
    load = float(argv[3]) if len(argv) > 3 else 1e6
    outdir = argv[4] if len(argv) > 4 else "."

    platform = dlsched.Platform(path)
    print("%d processors" % len(platform))
    for proc in platform:
        print("  %-9s %-6s limit %-8g t(1e5) = %g s"
              % (proc.name, proc.model_kind, proc.limit, proc.time(1e5)))

    # Equal elements, each processor's time from its speed function: all finish together.
    part = dlsched.partition(platform, elements)
    print("partition of %d elements: makespan %.6g s (%s)" % (elements, part.makespan, part.status))
    for name, count, seconds in zip(platform.names, part.elements, part.times):
        print("  %-9s %8d elements  %.6g s" % (name, count, seconds))

    # A divisible load sent from the source over each processor's link, one after another.
    sched = dlsched.schedule(platform, load)
    print("schedule of %g units: makespan %.6g s (%s)" % (load, sched.makespan, sched.status))
    for name, share, finish in zip(platform.names, sched.loads, sched.finish):
        print("  %-9s %12.1f units  finishes at %.4f s" % (name, share, finish))

    sched.gantt(os.path.join(outdir, "schedule.svg"))
    dlsched.plot(platform, os.path.join(outdir, "speeds.svg"))
    print("wrote schedule.svg and speeds.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
