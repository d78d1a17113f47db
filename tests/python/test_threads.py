"""Threads calling the binding at once: every call releases the GIL (cffi does for each
call into C), results are the same as one thread's, and a long call lets other Python
threads run."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import dlsched
from conftest import example


def _work(seed):
    rng = np.random.default_rng(seed)
    speeds = rng.uniform(1.0, 100.0, 50)
    p = dlsched.Platform.from_arrays(speeds, limits=np.full(50, 1e4))
    out = [p.to_json()]
    if callable(getattr(dlsched, "partition", None)):
        out.append(dlsched.partition(p, 10**5).to_json())
    if callable(getattr(dlsched, "schedule", None)):
        q = dlsched.Platform(example("star_cluster.json"))
        out.append(dlsched.schedule(q, 1e6 + seed).to_json())
    return out


def test_threads_give_the_results_of_one_thread():
    seeds = list(range(32))
    alone = [_work(s) for s in seeds]
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(_work, seeds))
    assert together == alone


def test_errors_in_threads_stay_in_their_thread():
    def bad(i):
        try:
            dlsched.Platform.from_arrays([1.0, -float(i + 1)])
        except dlsched.InvalidArgument as e:
            return str(e)
        return None
    with ThreadPoolExecutor(max_workers=8) as pool:
        messages = list(pool.map(bad, range(64)))
    for i, m in enumerate(messages):
        assert m is not None and "not -%d" % (i + 1) in m


def test_a_long_call_lets_other_threads_run():
    # 10^6 processors: building them takes long enough (a few tenths of a second) for a
    # thread that only counts to count many times, which it could not if the GIL were held
    speeds = np.linspace(1.0, 1000.0, 10**6)
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0)

    t = threading.Thread(target=count)
    t.start()
    try:
        before = ticks
        start = time.perf_counter()
        p = dlsched.Platform.from_arrays(speeds)
        elapsed = time.perf_counter() - start
        during = ticks - before
    finally:
        stop.set()
        t.join()
    assert len(p) == 10**6
    if elapsed < 0.05:
        pytest.skip("the call took %.3f s: too short to tell" % elapsed)
    assert during > 10, "the counting thread ran %d times in %.2f s" % (during, elapsed)
