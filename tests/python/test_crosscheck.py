"""crosscheck() against `dlsched crosscheck --json`: the five checks on shipped platforms,
in both fixed send orders, with and without limits; refusals and defaults."""

import json
import os

import pytest

import dlsched
from dlsched._dlsched import ffi, lib
from conftest import TOP_SRCDIR, example, run_cli

PLATFORMS = [example("star_two.json"), example("star_cluster.json"), example("star_ten.json"),
             example("memory_levels.json"), example("four_node_cluster.json"),
             os.path.join(TOP_SRCDIR, "tests", "data", "shape_warning.json"),
             os.path.join(TOP_SRCDIR, "tests", "data", "balance_paging.json")]
# the seconds a MIP took are measured, not computed: left out of the comparison
TIMED = ("integer-mip", "order")


def comparable(d):
    d = json.loads(json.dumps(d))  # a copy: the caller's dict stays whole
    for c in d["checks"]:
        if c["name"] in TIMED:
            c.pop("extra")
            c.pop("detail")
    return d


def cli_crosscheck(*args):
    rc, out, err = run_cli("crosscheck", *args, "--json", check=False)
    assert rc in (0, 1), err
    return rc, json.loads(out)


@pytest.mark.parametrize("path", PLATFORMS, ids=os.path.basename)
@pytest.mark.parametrize("load", [1000, 1234.5])
@pytest.mark.parametrize("order", ["given", "rate"])
def test_as_the_program(path, load, order):
    rc, want = cli_crosscheck(path, "--load", load, "--order", order)
    got = dlsched.crosscheck(path, load, order=order)
    assert comparable(got.to_dict()) == comparable(want)
    assert comparable(json.loads(got.to_json())) == comparable(want)
    assert bool(got) == got.agree == (rc == 0)


@pytest.mark.parametrize("path", PLATFORMS[:4], ids=os.path.basename)
def test_options_as_the_program(path):
    _, want = cli_crosscheck(path, "--load", 777, "--no-limits", "--tolerance", 1e-5,
                             "--time-limit", 30)
    got = dlsched.crosscheck(path, 777, use_limits=False, rel_tol=1e-5, time_limit=30)
    assert comparable(got.to_dict()) == comparable(want)


def test_either_solver_agrees():
    for solver in ("chain", "glpk"):
        r = dlsched.crosscheck(example("star_cluster.json"), 1000, solver=solver)
        assert r.agree and r["replay"].ran
    with pytest.raises(dlsched.InvalidArgument, match="solver: 'simplex' is not one of"):
        dlsched.crosscheck(example("star_cluster.json"), 1000, solver="simplex")


def test_checks_by_name_and_their_figures():
    r = dlsched.crosscheck(example("star_cluster.json"), 1000)
    names = [c.name for c in r.checks]
    assert names == ["zero-communication", "integer-mip", "replay", "solvers", "order"]
    replay = r["replay"]
    assert replay.ran and replay.agree and replay.proven is None
    assert replay.first == pytest.approx(replay.second, rel=1e-7)
    assert replay.detail and "replay" in repr(replay)
    assert r.load == 1000.0 and "agree" in repr(r)
    with pytest.raises(KeyError):
        r["no-such-check"]


def test_order_check_skipped_past_eight_processors(tmp_path):
    path = str(tmp_path / "nine.json")
    speeds = [1.5 + i for i in range(9)]
    dlsched.Platform.from_arrays(speeds, startup=[0.01] * 9, rate=[0.001] * 9).write(path)
    _, want = cli_crosscheck(path, "--load", 100)
    got = dlsched.crosscheck(path, 100)
    assert comparable(got.to_dict()) == comparable(want)
    order = got["order"]
    assert not order.ran and order.agree and order.detail


def test_keyword_defaults_are_the_library_s():
    par = ffi.new("dls_crosscheck_params *")
    lib.dls_crosscheck_params_init(par)
    assert par.schedule.order == lib.DLS_ORDER_GIVEN and par.schedule.use_limits == 1
    path = example("star_two.json")
    base = comparable(dlsched.crosscheck(path, 5).to_dict())
    same = dlsched.crosscheck(path, 5, order="given", use_limits=True, rel_tol=par.rel_tol)
    assert comparable(same.to_dict()) == base


@pytest.mark.parametrize("call,cls,words", [
    (lambda: dlsched.crosscheck(example("cluster.json"), 10), dlsched.InvalidArgument,
     "gpu0"),
    (lambda: dlsched.crosscheck(example("star_two.json"), 0), dlsched.InvalidArgument, ""),
    (lambda: dlsched.crosscheck(example("star_two.json"), float("inf")),
     dlsched.InvalidArgument, ""),
    (lambda: dlsched.crosscheck(example("star_two.json"), "10"), dlsched.InvalidArgument,
     "load: a number"),
    (lambda: dlsched.crosscheck(example("star_two.json"), 10, order="best"),
     dlsched.InvalidArgument, "order must be 'given' or 'rate'"),
    (lambda: dlsched.crosscheck(example("star_two.json"), 10, order="sideways"),
     dlsched.InvalidArgument, "order: 'sideways' is not one of given, rate, best"),
    (lambda: dlsched.crosscheck(example("star_two.json"), 10, rel_tol=0.5),
     dlsched.InvalidArgument, ""),
    (lambda: dlsched.crosscheck(example("star_two.json"), 10, time_limit=-1),
     dlsched.InvalidArgument, ""),
    (lambda: dlsched.crosscheck("/nonexistent.json", 10), dlsched.InputOutputError,
     "/nonexistent.json"),
])
def test_refusals(call, cls, words):
    with pytest.raises(cls) as info:
        call()
    assert words in str(info.value)
