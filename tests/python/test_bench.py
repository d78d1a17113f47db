"""dlsched.bench with Python kernels: against `dlsched bench --kernel synthetic --json` (the
same simulated processor, run through a Python callable), against a known speed function,
with a numpy kernel, and its error paths."""

import inspect
import math
import time

import numpy as np
import pytest

import dlsched
from dlsched._dlsched import ffi, lib

from conftest import cli_json

# tool/cmd_bench.c's synthetic processor (synthetic_model) and its defaults
SYN_SIZES = [1e2, 1e3, 1e4, 1e5, 1e6, 3e6, 1e7, 3e7, 1e8]
SYN_SPEEDS = [2e8, 9e8, 1.6e9, 2e9, 2e9, 1.7e9, 9e8, 4e8, 1.5e8]


class Synthetic:
    """The program's synthetic kernel (dls_model_kernel_create, noise 0.02) as a Python
    callable that returns the time of its run: the library's own simulated timings."""

    def __init__(self, noise=0.02):
        model = ffi.new("dls_model **")
        err = ffi.new("dls_error *")
        x = ffi.new("double[]", SYN_SIZES)
        s = ffi.new("double[]", SYN_SPEEDS)
        assert lib.dls_model_create_points(len(x), x, s, ffi.NULL, ffi.NULL, model, err) == 0
        self.model = ffi.gc(model[0], lib.dls_model_free)
        self.k = ffi.new("dls_kernel *")
        assert lib.dls_model_kernel_create(self.model, noise, 0.0, self.k, err) == 0
        self.work = ffi.new("double *")

    def __call__(self, size):
        return self.k.run(size, self.work, self.k.data)

    def __del__(self):
        lib.dls_kernel_free(self.k)


def _cli(tmp_path, *args):
    return cli_json("bench", "--kernel", "synthetic", "--quiet", "--name", "syn", "--log",
                    str(tmp_path / "bench.log"), *args)


@pytest.mark.parametrize("args,kw", [
    ([], {}),
    (["--validate", "3", "--accuracy", "0.1"], {"validate": 3, "accuracy": 0.1}),
    (["--max-size", "1e6", "--precision", "0.01", "--model-points", "6"],
     {"max_size": 1e6, "precision": 0.01, "max_model_points": 6}),
])
def test_same_as_the_program_on_its_synthetic_kernel(tmp_path, args, kw):
    doc = _cli(tmp_path, *args)
    kw.setdefault("max_size", 1e8)
    b = dlsched.bench(Synthetic(), min_size=1e2, name="syn", **kw)
    d = b.to_dict()
    assert list(d) == [k for k in doc if k != "log"]
    for key in ["points", "kept", "stop", "held_out", "name", "limit", "platform"]:
        assert d[key] == doc[key], key
    for key, value in doc["summary"].items():
        if key != "elapsed":
            assert d["summary"][key] == value, key
    assert b.processor("syn") == doc["platform"]["processors"][0]
    assert b.model.sizes.tolist() == [p[0] for p in doc["platform"]["processors"][0]
                                      ["speed"]["points"]]
    assert len(b.points) == len(doc["points"]) and b.points["reps"].min() >= 3


def true_speed(x):
    """A processor that rises, keeps a plateau and pages past 2e5 units."""
    x = np.asarray(x, dtype=float)
    return 1e6 * x / (x + 1e3) / np.where(x > 2e5, 4.0, 1.0)


def test_a_self_timed_kernel_gives_its_speed_function():
    sizes_seen = []

    def kernel(size):
        sizes_seen.append(size)
        return size / float(true_speed(size))

    b = dlsched.bench(kernel, min_size=10, max_size=1e6, name="known")
    # the cliff keeps the build splitting until the model's cap of points
    assert b.stop in ("converged", "model points") and b.limit == 1e6
    assert all(10 <= s <= 1e6 for s in sizes_seen)
    # exact times: every mean is the truth, and the model holds it within its accuracy
    assert np.allclose(b.points["speed"], true_speed(b.points["size"]), rtol=1e-12)
    assert np.allclose(b.model.speeds, true_speed(b.model.sizes), rtol=1e-12)
    xs = np.geomspace(10, 1e6, 200)
    # away from the cliff, which falls between two of the model's points
    k = int(np.searchsorted(b.model.sizes, 2e5))
    xs = xs[(xs <= b.model.sizes[k - 1]) | (xs >= b.model.sizes[k])]
    err = np.abs(b.model.speed(xs) / true_speed(xs) - 1)
    assert err.max() <= 0.05 + 1e-9, xs[np.argmax(err)]
    assert b.summary.kept == len(b.model) == b.to_dict()["kept"]
    assert b.summary.accuracy == 0.05 and b.summary.to_dict()["limit"] == 1e6
    # the processor entry builds a platform that partitions
    pl = dlsched.Platform({"processors": [b.processor("a"), b.processor("b")]})
    assert pl.names == ["a", "b"] and pl[0].limit == 1e6
    assert pl[0].speed(5e4) == pytest.approx(float(b.model.speed(5e4)))
    part = dlsched.partition(pl, 100000)
    assert part.elements.tolist() == [50000, 50000]


def test_a_numpy_kernel_with_whole_sizes():
    rng = np.random.default_rng(1)
    data = rng.random(20000)
    seen = []

    def kernel(n):
        seen.append(n)
        for _ in range(5):  # long enough against the clock
            np.sort(data[:n])

    b = dlsched.bench(kernel, min_size=100, max_size=20000, integer_sizes=True,
                      time_budget=5, precision=0.2, max_points=12)
    assert all(isinstance(n, int) and 100 <= n <= 20000 for n in seen)
    assert np.all(b.points["size"] == np.round(b.points["size"]))
    assert np.all(b.model.speeds > 0) and np.all(b.points["time"] > 0)
    assert b.stop in ("converged", "max points", "time budget", "model points")
    assert len(b.points) <= 12 and b.name.endswith("-kernel")
    assert b.to_json().startswith("{")


def test_defaults_are_the_library_s():
    par = ffi.new("dls_bench_params *")
    lib.dls_bench_params_init(par)
    sig = inspect.signature(dlsched.bench)
    for name in ["min_size", "memory_fraction", "precision", "confidence", "min_reps",
                 "max_reps", "size_time_cap", "initial_points", "max_points", "time_budget",
                 "passes", "accuracy", "resolution", "max_model_points", "validate"]:
        assert sig.parameters[name].default == getattr(par, name), name
    # None means the default too
    b = dlsched.bench(lambda x: x / 1e6, max_size=1e3, precision=None, accuracy=None)
    assert b.summary.accuracy == par.accuracy


def test_the_kernel_s_exception_is_raised_again_with_the_library_s_account():
    def kernel(size):
        if size > 500:
            raise ValueError("out of memory on the card")
        return size / 1e6

    with pytest.raises(ValueError, match="out of memory on the card") as info:
        dlsched.bench(kernel, max_size=1e4, name="gpu")
    cause = info.value.__cause__
    assert isinstance(cause, dlsched.InputOutputError)
    assert "gpu" in str(cause) and "size" in str(cause)


def test_an_exception_with_its_own_cause_keeps_it():
    def kernel(size):
        try:
            raise KeyError(size)
        except KeyError as e:
            raise RuntimeError("lookup") from e

    with pytest.raises(RuntimeError) as info:
        dlsched.bench(kernel, max_size=1e4)
    assert isinstance(info.value.__cause__, KeyError)


def test_a_bad_return_value():
    with pytest.raises(TypeError):
        dlsched.bench(lambda x: "fast", max_size=1e4)
    with pytest.raises(dlsched.InputOutputError):
        dlsched.bench(lambda x: -1.0, max_size=1e4)


def test_progress_cancels():
    fractions = []

    def progress(f):
        fractions.append(f)
        return len(fractions) > 3

    with pytest.raises(dlsched.Canceled):
        dlsched.bench(lambda x: x / 1e6, max_size=1e6, progress=progress)
    assert len(fractions) == 4 and all(0 <= f <= 1 for f in fractions)


def test_memory_formula_sets_the_largest_size():
    b = dlsched.bench(lambda x: x / 1e9, memory=lambda x: 8.0 * x, memory_fraction=1e-6,
                      min_size=10)
    assert 10 < b.limit < math.inf
    with pytest.raises(ZeroDivisionError):
        dlsched.bench(lambda x: x / 1e9, memory=lambda x: 1 / 0)


@pytest.mark.parametrize("kw,words", [
    ({}, "max_size: give the largest size"),
    ({"max_size": 1e4, "precision": -1.0}, "precision"),
    ({"max_size": 1e4, "confidence": 1.5}, "confidence"),
    ({"max_size": 1e4, "min_reps": 1}, "min_reps"),
    ({"max_size": 1e4, "min_reps": 2.5}, "min_reps: a whole number"),
    ({"max_size": 1e4, "precision": "high"}, "precision: a number is needed"),
    ({"max_size": 1e4, "name": ""}, "name"),
    ({"max_size": 1e4, "memory": 3}, "memory: a callable"),
    ({"max_size": 1e4, "progress": 3}, "progress: a callable"),
])
def test_bad_parameters(kw, words):
    with pytest.raises(dlsched.InvalidArgument) as info:
        dlsched.bench(lambda x: x / 1e6, **kw)
    assert words.lower() in str(info.value).lower()


def test_a_kernel_that_is_not_callable():
    with pytest.raises(dlsched.InvalidArgument, match="kernel: a callable"):
        dlsched.bench(42, max_size=1e3)


def test_other_threads_run_while_a_kernel_is_measured():
    import threading
    ticks = []
    stop = threading.Event()

    def other():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=other)
    t.start()
    try:
        b = dlsched.bench(lambda x: time.sleep(0.0005), max_size=1e3, min_size=10,
                          max_points=6)
    finally:
        stop.set()
        t.join()
    assert len(ticks) > 5 and len(b.points) <= 6


def test_no_growth_over_many_builds():
    import gc
    import os

    def rss_kib():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024

    def boom(x):
        raise ValueError(x)

    def once():
        dlsched.bench(lambda x: x / 1e6, max_size=1e3, max_points=6).to_dict()
        try:
            dlsched.bench(boom, max_size=1e3)
        except ValueError:
            pass

    for _ in range(300):
        once()
    gc.collect()
    rss0, objects0 = rss_kib(), len(gc.get_objects())
    for _ in range(3000):
        once()
    gc.collect()
    assert len(gc.get_objects()) - objects0 < 100
    assert rss_kib() - rss0 < 2048, "resident size grew by %d KiB" % (rss_kib() - rss0)
