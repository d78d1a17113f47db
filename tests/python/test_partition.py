"""partition() and partition_matrix() against `dlsched partition --json`, their arrays,
edge cases, refusals and defaults; plot() against `dlsched plot`."""

import json
import math
import os

import numpy as np
import pytest

import dlsched
from dlsched._dlsched import ffi, lib
from conftest import TOP_SRCDIR, example, run_cli


def data(name):
    return os.path.join(TOP_SRCDIR, "tests", "data", name)


def cli_partition(*args):
    """The program's JSON, also when it exits 1 (a set the limits cannot hold)."""
    rc, out, err = run_cli("partition", *args, "--json", check=False)
    assert rc in (0, 1), err
    return rc, json.loads(out)


ONE_D = [example("star_ten.json"), example("star_cluster.json"), example("star_two.json"),
         example("memory_levels.json"), example("four_node_cluster.json"),
         data("balance_paging.json"), data("lu_constant.json"), data("shape_warning.json")]


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
@pytest.mark.parametrize("n", [1, 3, 1000, 123457, 10 ** 9])  # (the program refuses 0)
def test_equal_elements_as_the_program(path, n):
    rc, want = cli_partition(path, "--elements", n)
    got = dlsched.partition(path, n)
    assert got.to_dict() == want
    assert json.loads(got.to_json()) == want
    assert (got.status in ("infeasible", "not-found")) == (rc == 1)


@pytest.mark.parametrize("path", ONE_D[:5], ids=os.path.basename)
@pytest.mark.parametrize("options,kw", [
    (["--method", "bisection"], {"method": "bisection"}),
    (["--method", "newton"], {"method": "newton"}),
    (["--no-limits"], {"use_limits": False}),
    (["--ordered"], {"ordered": True}),
    (["--ordered", "--reorder"], {"ordered": True, "reorder": True}),
])
def test_options_as_the_program(path, options, kw):
    _, want = cli_partition(path, "--elements", 5003, *options)
    got = dlsched.partition(path, 5003, **kw)
    assert got.to_dict() == want
    if kw.get("ordered"):
        assert got.first is not None and got.first.dtype == np.uint64
        assert (got.order is not None) == bool(kw.get("reorder"))
    else:
        assert got.first is None and got.order is None


def weights_file(tmp_path, w):
    path = tmp_path / "weights.txt"
    path.write_text(" ".join(repr(float(x)) for x in w))
    return str(path)


@pytest.mark.parametrize("path", ONE_D[:4], ids=os.path.basename)
@pytest.mark.parametrize("ordered", [False, True])
def test_weights_as_the_program(tmp_path, path, ordered):
    w = np.random.default_rng(7).uniform(0.25, 3.75, 97)
    extra = ["--ordered"] if ordered else []
    _, want = cli_partition(path, "--weights", weights_file(tmp_path, w), *extra)
    got = dlsched.partition(path, weights=w, ordered=ordered)
    assert got.to_dict() == want
    assert got.weighted and got.total == 97
    assert np.isclose(got.sizes.sum(), w.sum())
    if ordered:
        assert got.assignment is None
    else:
        assert got.assignment.shape == (97,) and got.assignment.dtype == np.int64
        for i in range(len(got)):  # each processor's weight is that of its elements
            assert np.isclose(got.sizes[i], w[got.assignment == i].sum())
    # n may be given too, when it agrees
    assert dlsched.partition(path, 97, weights=list(w), ordered=ordered).to_dict() == want


MATRIX = [example("striped_mm.json"), example("cluster.json"), example("lu_cluster.json"),
          data("bumpy_rows.json"), example("star_ten.json")]


@pytest.mark.parametrize("path", MATRIX, ids=os.path.basename)
@pytest.mark.parametrize("options,exact", [([], None), (["--exact"], "always"),
                                           (["--geometric"], "never")])
@pytest.mark.parametrize("n", [1, 7, 500])
def test_matrix_as_the_program(path, options, exact, n):
    _, want = cli_partition(path, "--matrix", n, *options)
    got = dlsched.partition_matrix(path, n, exact=exact)
    assert got.to_dict() == want
    assert got.matrix == n
    if exact == "always":
        assert got.exact and got.status == "optimal"
    if exact == "never":
        assert not got.exact


def test_result_arrays_and_figures():
    pl = dlsched.Platform(example("star_cluster.json"))
    r = dlsched.partition(pl, 10 ** 6)
    p = len(pl)
    assert len(r) == p and r.total == 10 ** 6
    for name, dtype in (("elements", np.uint64), ("sizes", np.float64),
                        ("times", np.float64), ("ideal", np.float64)):
        arr = getattr(r, name)
        assert arr.shape == (p,) and arr.dtype == dtype, name
    assert int(r.elements.sum()) == 10 ** 6
    assert np.array_equal(r.sizes, r.elements.astype(np.float64))
    assert r.makespan == pytest.approx(r.times.max(), rel=0, abs=0)
    assert 0 <= r.lower_bound <= r.makespan and r.gap >= 0
    assert r.status == "optimal" and r.shape_ok and not r.exact
    assert r.capacity >= 10 ** 6 and r.note == "" and r.steps >= 1
    assert r.platform is pl and r.source is None
    assert "star_cluster.json" not in (r.links() or "")
    assert repr(r).startswith("<dlsched.Partition of 1000000 elements")


def test_edge_cases_one_processor_and_fewer_elements_than_processors():
    one = dlsched.Platform.from_arrays([2.5], names=["solo"])
    r = dlsched.partition(one, 7)
    assert r.elements.tolist() == [7] and r.times[0] == pytest.approx(7 / 2.5)
    assert r.to_dict()["processors"] == [{"name": "solo", "elements": 7,
                                          "time": r.times[0]}]
    zero = dlsched.partition(one, 0)
    assert zero.elements.tolist() == [0] and zero.makespan == 0 and zero.times[0] == 0
    many = dlsched.Platform.from_arrays(np.linspace(1.0, 9.0, 9))
    few = dlsched.partition(many, 3)
    assert int(few.elements.sum()) == 3 and int((few.elements > 0).sum()) <= 3
    # the fastest processors take them
    assert few.elements[-1] >= 1 and few.elements[0] == 0
    big = dlsched.partition(one, dlsched.MAX_ELEMENTS)
    assert big.elements.tolist() == [dlsched.MAX_ELEMENTS]
    assert dlsched.partition(one, 1e6).total == 10 ** 6  # a whole float, as the program


def test_limits_that_cannot_hold_the_set():
    pl = dlsched.Platform.from_arrays([1.0, 2.0], limits=[3.0, 4.0])
    r = dlsched.partition(pl, 10)
    assert r.status == "infeasible" and math.isinf(r.makespan)
    assert r.capacity == 7 and "7" in r.note
    d = r.to_dict()
    assert d["makespan"] is None and d["note"] == r.note
    free = dlsched.partition(pl, 10, use_limits=False)
    assert free.status == "optimal" and int(free.elements.sum()) == 10
    held = dlsched.partition(pl, 7)
    assert held.elements.tolist() == [3, 4]


def test_infeasible_as_the_program(tmp_path):
    path = str(tmp_path / "small.json")
    dlsched.Platform.from_arrays([1.0, 2.0, 4.0], limits=[3.0, 4.0, 5.5]).write(path)
    for options, kw in (([], {}), (["--ordered"], {"ordered": True}),
                        (["--ordered", "--reorder"], {"ordered": True, "reorder": True})):
        rc, want = cli_partition(path, "--elements", 13, *options)
        got = dlsched.partition(path, 13, **kw)
        assert rc == 1 and got.status == "infeasible"
        assert got.to_dict() == want
    rc, want = cli_partition(path, "--matrix", 13)
    assert rc == 1 and dlsched.partition_matrix(path, 13).to_dict() == want
    with pytest.raises(dlsched.InvalidArgument, match="n must be at least 1"):
        dlsched.partition_matrix(path, 0)


def test_keyword_defaults_are_the_library_s():
    par = ffi.new("dls_partition_params *")
    lib.dls_partition_params_init(par)
    assert dlsched.partition_methods()[par.method] == "newton"
    assert dlsched.partition_methods() == ["newton", "bisection"]
    path = example("memory_levels.json")
    base = dlsched.partition(path, 4321).to_dict()
    assert dlsched.partition(path, 4321, method="newton", use_limits=True, ordered=False,
                             reorder=False, max_moves=None, metric=None).to_dict() == base
    assert dlsched.partition_matrix(example("striped_mm.json"), 300).to_dict() == \
        dlsched.partition_matrix(example("striped_mm.json"), 300, exact="auto").to_dict()


def test_platform_forms_are_all_taken():
    path = example("star_two.json")
    want = dlsched.partition(path, 999).to_dict()
    with open(path) as f:
        as_dict = json.load(f)
    from_dict = dlsched.partition(as_dict, 999)
    assert from_dict.source is None
    d = from_dict.to_dict()
    # the links sentence quotes the path only when there is one
    assert d.pop("links").replace("PLATFORM", path) == want.pop("links")
    assert d == want


def test_metric_callable():
    seen = []

    def metric(speeds, actual, ideal):
        seen.append((speeds.shape, actual.copy(), ideal.copy()))
        return float(np.abs(actual - ideal).max())

    r = dlsched.partition(example("star_cluster.json"), 1000, metric=metric)
    assert seen and seen[-1][0] == (5,)
    assert r.metric == pytest.approx(np.abs(r.sizes - r.ideal).max())


def test_metric_exception_is_raised_again():
    def broken(speeds, actual, ideal):
        raise ZeroDivisionError("mine")

    with pytest.raises(ZeroDivisionError, match="mine"):
        dlsched.partition(example("star_cluster.json"), 1000, metric=broken)


@pytest.mark.parametrize("call,cls,words", [
    (lambda: dlsched.partition(example("cluster.json"), 10), dlsched.InvalidArgument,
     "gpu0"),
    (lambda: dlsched.partition(example("star_two.json"), 10, method="secant"),
     dlsched.InvalidArgument, "method: 'secant' is not one of newton, bisection"),
    (lambda: dlsched.partition(example("star_two.json"), -1), dlsched.InvalidArgument,
     "n must be at least 0"),
    (lambda: dlsched.partition(example("star_two.json"), 2.5), dlsched.InvalidArgument,
     "n: a whole number"),
    (lambda: dlsched.partition(example("star_two.json"), "10"), dlsched.InvalidArgument,
     "n: a whole number"),
    (lambda: dlsched.partition(example("star_two.json"), dlsched.MAX_ELEMENTS + 1),
     dlsched.InvalidArgument, "n must be at most 9007199254740992"),
    (lambda: dlsched.partition(example("star_two.json")), dlsched.InvalidArgument,
     "give n"),
    (lambda: dlsched.partition(example("star_two.json"), weights=[1.0, -2.0]),
     dlsched.InvalidArgument, "weight 2"),
    (lambda: dlsched.partition(example("star_two.json"), weights=[1.0, float("nan")]),
     dlsched.InvalidArgument, "weight 2"),
    (lambda: dlsched.partition(example("star_two.json"), 3, weights=[1.0, 2.0]),
     dlsched.InvalidArgument, "n is 3 but weights holds 2 values"),
    (lambda: dlsched.partition(example("star_two.json"), weights=[[1.0]]),
     dlsched.InvalidArgument, "weights: a one-dimensional array"),
    (lambda: dlsched.partition(example("star_two.json"), weights="abc"),
     dlsched.InvalidArgument, "weights"),
    (lambda: dlsched.partition(example("star_two.json"), 5, reorder=True),
     dlsched.InvalidArgument, "ordered=True"),
    (lambda: dlsched.partition(example("star_two.json"), 5, metric=3),
     dlsched.InvalidArgument, "metric: a callable"),
    (lambda: dlsched.partition_matrix(example("striped_mm.json"), 5, exact="sometimes"),
     dlsched.InvalidArgument, "exact: 'sometimes' is not one of auto, always, never"),
    (lambda: dlsched.partition("/nonexistent/platform.json", 5), dlsched.InputOutputError,
     "/nonexistent/platform.json"),
    (lambda: dlsched.partition(dlsched.Platform(), 5), dlsched.InvalidArgument,
     "no processor"),
])
def test_refusals(call, cls, words):
    with pytest.raises(cls) as info:
        call()
    assert words in str(info.value)
    assert info.value.status == cls.status


def test_the_program_refuses_what_the_binding_refuses():
    rc, _, err = run_cli("partition", example("cluster.json"), "--elements", 10,
                         check=False)
    assert rc == 2 and "gpu0" in err


def test_exact_always_past_its_bounds_is_a_limit():
    # 2^23 stored times at most: 64 processors of 2^17 + 1 rows each pass it
    speeds = np.linspace(1.0, 2.0, 64)
    pl = dlsched.Platform.from_arrays(speeds)
    with pytest.raises(dlsched.LimitExceeded):
        dlsched.partition_matrix(pl, 1 << 17, exact="always")


def test_large_platform_is_the_c_call_s_result():
    """10^5 processors: the binding's result is the C call's, array for array (its speed
    against C is measured by tests/bench/bench_python.py in make bench, never here)."""
    rng = np.random.default_rng(3)
    pl = dlsched.Platform.from_arrays(rng.uniform(1.0, 100.0, 100000))
    n = 10 ** 9
    out = ffi.new("dls_partition **")
    err = ffi.new("dls_error *")
    assert lib.dls_partition_solve(pl._ptr, n, ffi.NULL, out, err) == lib.DLS_OK
    try:
        want = np.frombuffer(ffi.buffer(lib.dls_partition_elements(out[0]), 8 * 100000),
                             dtype=np.uint64).copy()
        makespan = lib.dls_partition_makespan(out[0])
    finally:
        lib.dls_partition_free(out[0])
    r = dlsched.partition(pl, n)
    assert int(r.elements.sum()) == n and r.elements.shape == (100000,)
    assert np.array_equal(r.elements, want) and r.makespan == makespan


def test_plot_is_the_program_s_picture(tmp_path):
    path = example("cluster.json")
    rc, want, _ = run_cli("plot", path, "-o", "-", "--title", "Mine", "--x-scale", "log")
    got = dlsched.plot(path, title="Mine", x_scale="log")
    assert got == want
    out = tmp_path / "speeds.svg"
    assert dlsched.plot(dlsched.Platform(path), out, title="Mine", x_scale="log") is None
    assert out.read_text() == want
    svg = dlsched.plot(path, width=640, height=400, y_scale="linear", sections=2,
                       size_unit="rows", speed_unit="rows/s")
    assert 'width="640"' in svg and "rows/s" in svg


@pytest.mark.parametrize("kw,words", [({"width": 10}, "width"), ({"x_scale": "cubic"},
                                      "x_scale: 'cubic' is not one of auto, linear, log"),
                                      ({"sections": 0}, "sections must be at least 1"),
                                      ({"title": 3}, "title: a string")])
def test_plot_refusals(kw, words):
    with pytest.raises(dlsched.InvalidArgument) as info:
        dlsched.plot(example("cluster.json"), **kw)
    assert words in str(info.value)


def test_plot_unwritable_path(tmp_path):
    with pytest.raises(dlsched.InputOutputError):
        dlsched.plot(example("cluster.json"), tmp_path / "no" / "such" / "dir.svg")


@pytest.mark.parametrize("depth", [2, 4, 6])
def test_links_sentence_cut_as_the_program_s(tmp_path, depth):
    """The program's sentence lives in a buffer of 1024 bytes: a long path cuts it."""
    folder = tmp_path
    for k in range(depth):
        folder = folder / ("d%d_" % k + "x" * 180)
    folder.mkdir(parents=True)
    path = str(folder / "star.json")
    dlsched.Platform(example("star_cluster.json")).write(path)
    _, want = cli_partition(path, "--elements", 1000)
    got = dlsched.partition(path, 1000).to_dict()
    assert got == want
    assert len(got["links"].encode()) <= 1023


def test_metric_callbacks_from_threads_at_once():
    """Each thread's callback sees its own call (the library calls back with the GIL
    released around the call)."""
    from concurrent.futures import ThreadPoolExecutor
    path = example("star_cluster.json")

    def one(k):
        def metric(speeds, actual, ideal):
            return float(k) + float(actual.sum()) * 0.0
        return dlsched.partition(path, 1000 + k, metric=metric)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(one, range(16)))
    for k, r in enumerate(results):
        assert r.metric == k and r.total == 1000 + k
        assert r.to_dict()["processors"] == dlsched.partition(path, 1000 + k).to_dict()[
            "processors"]


def test_max_moves_bounds_the_weighted_heuristic():
    w = np.random.default_rng(11).uniform(0.5, 5.5, 301)
    path = example("star_cluster.json")
    none = dlsched.partition(path, weights=w, max_moves=0)
    full = dlsched.partition(path, weights=w)
    for r in (none, full):
        assert np.isclose(r.sizes.sum(), w.sum()) and r.makespan >= r.lower_bound
    assert full.makespan <= none.makespan


def test_callbacks_that_raise_leak_nothing():
    import resource

    def rss_kib():
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    pl = dlsched.Platform(example("star_cluster.json"))

    def bad(*args):
        raise ValueError("no")

    def calls(k):
        for _ in range(k):
            with pytest.raises(ValueError):
                dlsched.partition(pl, 1000, metric=bad)
            with pytest.raises(ValueError):
                dlsched.lu(pl, 40, algorithm="exact", progress=bad)

    calls(1000)  # warm up (allocator pools, caches)
    before = rss_kib()
    calls(4000)
    assert rss_kib() - before < 4096
