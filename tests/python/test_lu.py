"""lu() and lu_evaluate() against `dlsched lu --json`: every algorithm and heuristic,
limits, refusals, cancellation and the library's defaults."""

import json
import math
import os

import numpy as np
import pytest

import dlsched
from dlsched._dlsched import ffi, lib
from conftest import TOP_SRCDIR, example, run_cli

LU_CLUSTER = example("lu_cluster.json")
CONSTANT = os.path.join(TOP_SRCDIR, "tests", "data", "lu_constant.json")
PLATFORMS = [LU_CLUSTER, CONSTANT, example("star_cluster.json"), example("cluster.json")]


def cli_lu(*args):
    """The program's JSON, also when it exits 1 (no distribution fits the limits)."""
    rc, out, err = run_cli("lu", *args, "--json", "--quiet", check=False)
    assert rc in (0, 1), err
    return rc, json.loads(out)


@pytest.mark.parametrize("path", PLATFORMS, ids=os.path.basename)
@pytest.mark.parametrize("algorithm", ["gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"])
@pytest.mark.parametrize("n", [1, 2, 13])
def test_every_algorithm_as_the_program(path, algorithm, n):
    rc, want = cli_lu(path, "--columns", n, "--algorithm", algorithm)
    got = dlsched.lu(path, n, algorithm=algorithm)
    assert got.to_dict() == want
    assert json.loads(got.to_json()) == want
    assert got.algorithm == algorithm and got.columns == n
    assert (got.status in ("infeasible", "not-found")) == (rc == 1)


@pytest.mark.parametrize("heuristic", ["auto", "cycl", "ftos", "stof", "dflt", "exhaustive"])
@pytest.mark.parametrize("path", [LU_CLUSTER, CONSTANT], ids=os.path.basename)
def test_every_heuristic_as_the_program(path, heuristic):
    _, want = cli_lu(path, "--columns", 40, "--algorithm", "fr", "--heuristic", heuristic)
    got = dlsched.lu(path, 40, algorithm="fr", heuristic=heuristic)
    assert got.to_dict() == want and got.heuristic == heuristic


@pytest.mark.parametrize("path", [LU_CLUSTER, CONSTANT], ids=os.path.basename)
def test_limits_as_the_program(path):
    for algorithm in ("fr", "gb", "dp"):
        _, want = cli_lu(path, "--columns", 30, "--algorithm", algorithm, "--no-limits")
        assert dlsched.lu(path, 30, algorithm=algorithm,
                          use_limits=False).to_dict() == want


def test_arrays():
    pl = dlsched.Platform(LU_CLUSTER)
    r = dlsched.lu(pl, 25)
    assert r.counts.dtype == np.uint64 and r.counts.shape == (len(pl),)
    assert r.owners.dtype == np.int64 and r.owners.shape == (25,)
    assert r.step_costs.dtype == np.float64 and r.step_costs.shape == (24,)
    assert np.array_equal(np.bincount(r.owners, minlength=len(pl)), r.counts)
    assert r.cost == pytest.approx(r.step_costs.sum(), rel=1e-12)
    assert r.lower_bound <= r.cost * (1 + 1e-12)
    assert r.platform is pl and "fr" in repr(r)
    one = dlsched.lu(pl, 1)
    assert one.step_costs.shape == (0,) and one.cost == 0


def test_evaluate_gives_the_cost_of_a_distribution():
    pl = dlsched.Platform(LU_CLUSTER)
    for algorithm in ("fr", "gb", "exact"):
        r = dlsched.lu(pl, 20, algorithm=algorithm)
        cost, steps = dlsched.lu_evaluate(pl, r.owners)
        assert cost == pytest.approx(r.cost, rel=1e-12)
        np.testing.assert_allclose(steps, r.step_costs, rtol=1e-12)
    cost, steps = dlsched.lu_evaluate(LU_CLUSTER, [1])
    assert cost == 0 and steps.shape == (0,)


def test_exact_is_the_optimum():
    exact = dlsched.lu(LU_CLUSTER, 12, algorithm="exact")
    assert exact.status == "optimal" and exact.states > 0
    for algorithm in dlsched.lu_algorithms():
        assert dlsched.lu(LU_CLUSTER, 12, algorithm=algorithm).cost >= \
            exact.cost * (1 - 1e-12)


def test_infeasible_limits_as_the_program(tmp_path):
    path = str(tmp_path / "small.json")
    dlsched.Platform.from_arrays([1.0, 2.0], limits=[2.0, 3.0]).write(path)
    rc, want = cli_lu(path, "--columns", 9)
    got = dlsched.lu(path, 9)
    assert rc == 1 and got.status == "infeasible" and math.isinf(got.cost)
    assert got.to_dict() == want and got.note
    assert got.owners.shape == (0,) and got.to_dict()["cost"] is None


def test_keyword_defaults_are_the_library_s():
    par = ffi.new("dls_lu_params *")
    lib.dls_lu_params_init(par)
    assert dlsched.lu_algorithms()[par.algorithm] == "fr"
    assert dlsched.lu_heuristics()[par.heuristic] == "auto"
    assert dlsched.lu_algorithms() == ["gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"]
    base = dlsched.lu(LU_CLUSTER, 30).to_dict()
    assert dlsched.lu(LU_CLUSTER, 30, algorithm="fr", heuristic="auto", use_limits=True,
                      max_memory=par.max_memory,
                      max_group_states=par.max_group_states).to_dict() == base


def test_exact_past_its_memory_is_a_limit():
    with pytest.raises(dlsched.LimitExceeded) as info:
        dlsched.lu(LU_CLUSTER, 60, algorithm="exact", max_memory=1000)
    assert "memory cap" in str(info.value)
    rc, _, err = run_cli("lu", LU_CLUSTER, "--columns", 60, "--algorithm", "exact",
                         "--max-memory", 1000, check=False)
    assert rc == 2 and "memory cap" in err


def test_progress_is_called_and_can_cancel():
    fractions = []
    dlsched.lu(LU_CLUSTER, 60, algorithm="exact", progress=fractions.append)
    assert fractions and all(0 <= f <= 1 for f in fractions)
    with pytest.raises(dlsched.Canceled):
        dlsched.lu(LU_CLUSTER, 60, algorithm="exact", progress=lambda f: True)

    def broken(f):
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback"):
        dlsched.lu(LU_CLUSTER, 60, algorithm="exact", progress=broken)


@pytest.mark.parametrize("call,cls,words", [
    (lambda: dlsched.lu(LU_CLUSTER, 0), dlsched.InvalidArgument, "n must be at least 1"),
    (lambda: dlsched.lu(LU_CLUSTER, 3.5), dlsched.InvalidArgument, "n: a whole number"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, algorithm="lu"), dlsched.InvalidArgument,
     "algorithm: 'lu' is not one of gb, dp, reverse, fr, fdp, fgb, exact"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, heuristic="best"), dlsched.InvalidArgument,
     "heuristic: 'best' is not one of auto, cycl"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, algorithm="gb", heuristic="cycl"),
     dlsched.InvalidArgument, "heuristic applies to Functional Reverse"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, max_memory=0), dlsched.InvalidArgument,
     "max_memory must be at least 1"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, max_group_states=-5), dlsched.InvalidArgument,
     "max_group_states must be at least 1"),
    (lambda: dlsched.lu(LU_CLUSTER, 10, progress="yes"), dlsched.InvalidArgument,
     "progress: a callable"),
    (lambda: dlsched.lu(dlsched.Platform(), 10), dlsched.InvalidArgument, ""),
    (lambda: dlsched.lu("/nonexistent.json", 10), dlsched.InputOutputError,
     "/nonexistent.json"),
    (lambda: dlsched.lu_evaluate(LU_CLUSTER, [0, 9]), dlsched.InvalidArgument, ""),
    (lambda: dlsched.lu_evaluate(LU_CLUSTER, [0, -1]), dlsched.InvalidArgument,
     "negative"),
    (lambda: dlsched.lu_evaluate(LU_CLUSTER, []), dlsched.InvalidArgument, "owners"),
    (lambda: dlsched.lu_evaluate(LU_CLUSTER, [0.5]), dlsched.InvalidArgument, "owners"),
])
def test_refusals(call, cls, words):
    with pytest.raises(cls) as info:
        call()
    assert words in str(info.value)


def without_seconds(d):
    d = json.loads(json.dumps(d))
    for row in d["results"]:
        assert row.pop("seconds", 0) >= 0  # measured, not computed
    return d


@pytest.mark.parametrize("path,n,extra", [
    (LU_CLUSTER, 30, []), (CONSTANT, 12, []), (LU_CLUSTER, 60, ["--max-memory", 100000]),
    (CONSTANT, 20, ["--no-limits"])], ids=["lu_cluster", "constant", "exact-refused",
                                           "no-limits"])
def test_compare_as_the_program(path, n, extra):
    _, want = cli_lu(path, "--columns", n, "--compare", *extra)
    kw = {"max_memory": 100000} if "--max-memory" in extra else {}
    got = dlsched.lu_compare(path, n, use_limits="--no-limits" not in extra, **kw)
    assert without_seconds(got.to_dict()) == without_seconds(want)
    assert without_seconds(json.loads(got.to_json())) == without_seconds(want)
    assert list(got.results) == dlsched.lu_algorithms()
    if kw:
        assert got.results["exact"] is None and "memory cap" in got.notes["exact"]
        assert math.isnan(got.exact_cost) and got.reference == got.lower_bound
    else:
        assert got.results["exact"].cost == got.exact_cost == got.reference
        assert got.gap("exact") == 0
