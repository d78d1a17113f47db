"""Reference counting and memory: 10^5 calls of the bindings, successes and refusals
mixed, leave the process no bigger (the resident size after a warm-up, and the objects
Python tracks), so that the C objects behind results and errors are all freed."""

import gc
import os

import numpy as np

import dlsched
from conftest import example

CALLS = int(os.environ.get("DLS_PY_MEMORY_CALLS", "100000"))


def _rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def _calls():
    """One callable per binding (the ones this build has), each a few microseconds."""
    star = dlsched.Platform(example("star_cluster.json"))
    small = np.array([10.0, 20.0, 40.0])
    calls = [
        lambda: dlsched.Platform.from_arrays(small).to_json(),
        lambda: dlsched.Platform.from_json('{"processors": [{"name": "a", "speed": 1}]}'),
        lambda: star["epyc"].link,
        lambda: _refused(lambda: dlsched.Platform.from_arrays([1.0, -1.0])),
        lambda: _refused(lambda: dlsched.Platform.from_json('{"processors": [}', "x.json")),
    ]
    if callable(getattr(dlsched, "partition", None)):
        calls.append(lambda: dlsched.partition(star, 1000).elements)
        calls.append(lambda: _refused(lambda: dlsched.partition(star, -1)))
    if callable(getattr(dlsched, "schedule", None)):
        calls.append(lambda: dlsched.schedule(star, 1e6).loads)
        calls.append(lambda: _refused(lambda: dlsched.schedule(star, -5.0)))
    if callable(getattr(dlsched, "evaluate", None)):
        calls.append(lambda: dlsched.evaluate(star, np.full(5, 2e5)).makespan)
    if callable(getattr(dlsched, "verify", None)):
        calls.append(lambda: dlsched.verify(star, np.full(5, 2e5)).valid)
    if callable(getattr(dlsched, "installments", None)):
        two = dlsched.Platform(example("star_two.json"))
        calls.append(lambda: dlsched.installments(two, 1e4, chunk=1e3).makespan)
    if hasattr(dlsched, "Balancer"):
        def balance():
            b = dlsched.Balancer(3, 1000)
            b.step(b.shares / np.array([10.0, 20.0, 40.0]))
            return b.moves().moved
        calls.append(balance)
        calls.append(lambda: _refused(lambda: dlsched.Balancer(0, 10)))
    if callable(getattr(dlsched, "move_plan", None)):
        calls.append(lambda: dlsched.move_plan([5, 5], [3, 7]).moved)
    return calls


def _refused(fn):
    try:
        fn()
    except (dlsched.Error, ValueError, TypeError):
        return
    raise AssertionError("expected a refusal")


def test_no_growth_over_many_calls():
    calls = _calls()
    warm = max(len(calls) * 200, CALLS // 10)
    for i in range(warm):
        calls[i % len(calls)]()
    gc.collect()
    rss0 = _rss_kib()
    objects0 = len(gc.get_objects())
    for i in range(CALLS):
        calls[i % len(calls)]()
    gc.collect()
    grown = _rss_kib() - rss0
    objects = len(gc.get_objects()) - objects0
    # a leak of one small C object per call would be several MiB here
    assert grown < 2048, "resident size grew by %d KiB over %d calls" % (grown, CALLS)
    assert objects < 100, "%d more objects tracked after %d calls" % (objects, CALLS)


def test_results_outlive_their_platform():
    p = dlsched.Platform.from_arrays([1.0, 2.0, 3.0])
    proc = p[1]
    del p
    gc.collect()
    assert proc.name == "p1" and proc.speed(10.0) == 2.0
