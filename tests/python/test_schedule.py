"""schedule(), evaluate(), curve() and export_lp() against `dlsched schedule`, `dlsched
evaluate` and `dlsched export` for the same inputs; the Schedule's arrays, the order's
forms, edge cases (limits exactly at the load, one processor), refusals and defaults."""

import json
import math
import os
import re

import numpy as np
import pytest

import dlsched
from dlsched._dlsched import ffi, lib
from conftest import TOP_SRCDIR, example, run_cli

ONE_D = [example("star_cluster.json"), example("star_ten.json"), example("star_two.json"),
         example("memory_levels.json"), example("four_node_cluster.json")]
TWO_D = [example("cluster.json"), example("lu_cluster.json"), example("striped_mm.json")]


def without_clock(d):
    """The JSON less what measures the machine's clock (the MIP's seconds)."""
    if isinstance(d, dict):
        return {k: without_clock(v) for k, v in d.items() if k != "mip_seconds"}
    return d


def cli_schedule(*args):
    """`dlsched schedule ARGS --json`, also when it exits 1 (the limits cannot hold V)."""
    rc, out, err = run_cli("schedule", *args, "--json", check=False)
    assert rc in (0, 1), err
    return rc, json.loads(out)


def write_platform(tmp_path, procs, name="platform.json"):
    path = tmp_path / name
    path.write_text(json.dumps({"processors": procs}))
    return str(path)


LIMITED = [  # two processors whose limits hold 1000 units exactly
    {"name": "a", "time": [[0, 1e-3]], "limit": 400, "link": {"startup": 0.01, "rate": 1e-4}},
    {"name": "b", "time": [[0, 2e-3]], "limit": 600, "link": {"startup": 0.02, "rate": 2e-4}}]


def test_acceptance_star_cluster_1e6_exactly_as_the_program():
    path = example("star_cluster.json")
    want = json.loads(run_cli("schedule", path, "--load", "1e6", "--json")[1])
    got = dlsched.schedule(dlsched.Platform(path), 1e6)
    assert got.makespan == want["makespan"]  # the same library: the same floats
    assert got.loads.tolist() == [p["load"] for p in want["processors"]]
    assert got.to_dict() == want


MODES = [
    ([], {}),
    (["--order", "rate"], {"order": "rate"}),
    (["--order", "best"], {"order": "best"}),
    (["--order", "given"], {"order": "given"}),
    (["--solver", "glpk"], {"solver": "glpk"}),
    (["--solver", "glpk", "--order", "rate"], {"solver": "glpk", "order": "rate"}),
    (["--keep-unused"], {"drop_unused": False}),
    (["--no-limits"], {"use_limits": False}),
    (["--originator-computes"], {"originator_computes": True}),
    (["--exact"], {"exact": True}),
    (["--integer"], {"integer": True}),
    (["--integer", "--mip", "no"], {"integer": True, "mip": "no"}),
    (["--integer", "--mip", "yes"], {"integer": True, "mip": True}),
    (["--exact-shape"], {"exact_shape": True}),
    (["--order", "best", "--order-exact-max", "2", "--order-candidates", "5"],
     {"order": "best", "order_exact_max": 2, "order_candidates": 5}),
]


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
@pytest.mark.parametrize("options,kw", MODES, ids=lambda x: " ".join(x) if isinstance(x, list)
                         else None)
@pytest.mark.parametrize("load", [1000, 1e6])
def test_modes_as_the_program(path, options, kw, load):
    if kw.get("integer") and kw.get("mip") is True and "star_ten" in path:
        pytest.skip("the MIP on 10 processors: slow, and --mip auto covers it")
    rc, want = cli_schedule(path, "--load", repr(float(load)), *options)
    got = dlsched.schedule(path, load, **kw)
    assert without_clock(got.to_dict()) == without_clock(want)
    assert without_clock(json.loads(got.to_json())) == without_clock(want)
    assert (got.status == "infeasible") == (rc == 1)


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
def test_explicit_orders_as_the_program(path):
    pl = dlsched.Platform(path)
    names = pl.names[::-1]
    _, want = cli_schedule(path, "--load", "5000", "--order", ",".join(names))
    idx = [pl.index(n) for n in names]
    for order in (names, ",".join(names), idx, np.array(idx), tuple(names)):
        got = dlsched.schedule(pl, 5000, order=order)
        assert got.to_dict() == want
        assert got.sequence == names and got.sequence_index.tolist() == idx
    # the order "best" found, given back, gives its schedule
    best = dlsched.schedule(pl, 5000, order="best")
    again = dlsched.schedule(pl, 5000, order=best.sequence)
    assert again.makespan == pytest.approx(best.makespan, rel=1e-9)


@pytest.mark.parametrize("path", TWO_D, ids=os.path.basename)
def test_two_d_models_refused_as_the_program(path):
    rc, _, err = run_cli("schedule", path, "--load", "1000", check=False)
    assert rc == 2 and "2-D speed model" in err
    with pytest.raises(dlsched.InvalidArgument, match="2-D speed model"):
        dlsched.schedule(path, 1000)


def test_schedule_arrays_and_figures():
    pl = dlsched.Platform(example("star_cluster.json"))
    s = dlsched.schedule(pl, 1e6)
    p = len(pl)
    assert len(s) == p and s.platform is pl
    for name in ("loads", "send_start", "send_end", "compute_time", "finish", "idle"):
        arr = getattr(s, name)
        assert arr.shape == (p,) and arr.dtype == np.float64, name
    assert s.levels.shape == (p,) and s.levels.dtype.kind == "i"
    assert s.sequence == pl.names and s.sequence_index.tolist() == list(range(p))
    assert s.loads.sum() == pytest.approx(1e6, rel=1e-12)
    assert s.status == "optimal" and s.kind == "lp" and s.load == 1e6
    used = s.loads > 0
    assert np.allclose(s.finish[used], s.send_end[used] + s.compute_time[used], rtol=1e-12)
    assert np.allclose(s.idle, s.makespan - s.finish, rtol=1e-12, atol=1e-12)
    assert s.makespan == pytest.approx(s.finish.max(), rel=1e-12)
    assert s.residual < 1e-9 and s.certificate is None and s.mip_info is None
    assert s.solver_info["solver"] == "chain" and s.solver_info["optimal"]
    assert s.capacity == math.inf
    assert repr(s).startswith("<dlsched.Schedule (lp) of 1e+06 units over ")
    assert "makespan" in repr(s) and "optimal" in repr(s)


def test_integer_mip_and_exact_objects():
    path = example("star_two.json")
    s = dlsched.schedule(path, 1001, integer=True)
    assert s.kind in ("integer", "mip") and s.loads.sum() == 1001
    assert np.array_equal(s.loads, np.round(s.loads))
    assert s.mip_info is not None and s.mip_info["lp_makespan"] <= s.makespan
    d = s.to_dict()
    assert all(isinstance(pr["load"], int) for pr in d["processors"])
    e = dlsched.schedule(path, 1000, exact=True)
    assert e.solver_info["solver"] == "glpk"
    if e.certificate is not None:  # built with GMP: exact fractions as text
        assert e.certificate["makespan"] == "40281/7"
        assert [p["name"] for p in e.certificate["processors"]] == ["P1", "P2"]
        assert e.makespan == pytest.approx(40281 / 7, rel=1e-12)


def test_mip_auto_falls_back_as_the_program():
    path = example("star_two.json")
    with pytest.warns(RuntimeWarning, match="rounded schedule alone follows") as rec:
        s = dlsched.schedule(path, 1000, integer=True, max_binaries=1)
    assert rec[0].filename == __file__  # the warning points at the caller
    assert s.to_dict() == dlsched.schedule(path, 1000, integer=True, mip="no").to_dict()
    assert s.mip_info["mip_status"] is None and s.to_dict()["mip_status"] == "not solved"
    with pytest.raises(dlsched.LimitExceeded, match="binary variables"):
        dlsched.schedule(path, 1000, integer=True, mip="yes", max_binaries=1)


def test_limits_exactly_at_the_load(tmp_path):
    path = write_platform(tmp_path, LIMITED)
    rc, want = cli_schedule(path, "--load", "1000")
    s = dlsched.schedule(path, 1000)
    assert rc == 0 and s.to_dict() == want
    assert s.status == "optimal" and s.loads.tolist() == [400.0, 600.0]
    assert s.capacity == 1000
    for solver in ("chain", "glpk"):
        assert dlsched.schedule(path, 1000, solver=solver).loads.tolist() == [400, 600]
    # one unit more than the limits hold: infeasible, as the program (which exits 1)
    rc, want = cli_schedule(path, "--load", "1001")
    over = dlsched.schedule(path, 1001)
    assert rc == 1 and over.to_dict() == want
    assert over.status == "infeasible" and over.makespan == math.inf
    assert "limits" in over.note
    # without the limits it fits
    assert dlsched.schedule(path, 1001, use_limits=False).status == "optimal"


def test_one_processor(tmp_path):
    path = write_platform(tmp_path, [LIMITED[0]])
    # the program takes one name with a comma (without, it is a file of names)
    for order, extra in ((None, []), ("best", ["--order", "best"]), ("a", ["--order", "a,"]),
                         (["a"], ["--order", "a,"]), ([0], ["--order", "a,"]),
                         ("a,", ["--order", "a,"])):
        _, want = cli_schedule(path, "--load", "250", *extra)
        got = dlsched.schedule(path, 250, order=order)
        assert got.to_dict() == want
        assert got.loads.tolist() == [250.0] and got.sequence == ["a"]
    # startup + rate x 250 to send, then 250 x 1e-3 to compute
    assert got.makespan == pytest.approx(0.01 + 1e-4 * 250 + 1e-3 * 250, rel=1e-12)


def test_keyword_defaults_are_the_librarys():
    par = ffi.new("dls_schedule_params *")
    lib.dls_schedule_params_init(par)
    assert par.order == lib.DLS_ORDER_GIVEN and par.solver == lib.DLS_SOLVER_CHAIN
    assert par.use_limits and par.drop_unused and not par.exact
    path = example("star_cluster.json")
    base = dlsched.schedule(path, 1e5).to_dict()
    explicit = dlsched.schedule(path, 1e5, order="given", solver="chain", integer=False,
                                exact_shape=False, mip="auto", exact=False, drop_unused=True,
                                use_limits=True, originator_computes=False,
                                time_limit=600, iteration_limit=0, verbose=False)
    assert explicit.to_dict() == base
    nones = dlsched.schedule(path, 1e5, order=None, solver=None, exact=None,
                             drop_unused=None, use_limits=None, max_pieces=None,
                             time_limit=None, check_tol=None, progress=None)
    assert nones.to_dict() == base
    assert dlsched.send_orders()[:3] == ["given", "rate", "best"]
    assert dlsched.star_solvers() == ["chain", "glpk"]
    assert set(dlsched.export_formats()) >= {"lp", "mps", "glpk", "mathprog"}


@pytest.mark.parametrize("load", [-1, 0, -0.0, math.nan, math.inf, "1000", None, True])
def test_bad_load_refused(load):
    with pytest.raises(dlsched.InvalidArgument, match="load"):
        dlsched.schedule(example("star_two.json"), load)


@pytest.mark.parametrize("kw,match", [
    ({"order": "zz"}, "order: 'zz' is not given, rate, best"),
    ({"order": ["P1", "zz"]}, "no processor is named 'zz'"),
    ({"order": ["P1", "P1"]}, "named twice"),
    ({"order": ["P1"]}, "leaves out 1 of the 2"),
    ({"order": [0, 2]}, "index 2 is not a processor"),
    ({"order": [0, 1.5]}, "name or index"),
    ({"solver": "simplex"}, "solver: 'simplex' is not one of chain, glpk"),
    ({"solver": "chain", "exact": True}, "needs solver=\"glpk\""),
    ({"solver": "glpk", "max_pieces": 100}, "max_pieces"),
    ({"max_pieces": 3}, "max_pieces must be at least 16"),
    ({"mip": "maybe", "integer": True}, "mip: 'maybe'"),
    ({"order": "best", "integer": True}, "order=\"best\" and integer"),
    ({"order": "best", "exact_shape": True}, "exact_shape"),
    ({"time_limit": -1}, "time_limit"),
    ({"order_exact_max": 0, "order": "best"}, "order_exact_max"),
    ({"progress": 3}, "progress: a callable"),
])
def test_bad_keywords_refused(kw, match):
    with pytest.raises(dlsched.InvalidArgument, match=re.escape(match)):
        dlsched.schedule(example("star_two.json"), 1000, **kw)


def test_integer_load_must_be_whole():
    with pytest.raises(dlsched.InvalidArgument, match="load: a whole number"):
        dlsched.schedule(example("star_two.json"), 10.5, integer=True)
    assert dlsched.schedule(example("star_two.json"), 1e3, integer=True).loads.sum() == 1000


def test_load_outside_the_domain():
    with pytest.raises(dlsched.InvalidArgument, match="domain"):
        dlsched.schedule(example("star_two.json"), 1e70)


def test_gantt_as_the_program(tmp_path):
    path = example("memory_levels.json")
    chart = tmp_path / "cli.svg"
    run_cli("schedule", path, "--load", "5e6", "--gantt", chart)
    s = dlsched.schedule(path, 5e6)
    svg = s.gantt()
    assert svg == chart.read_text() and svg.lstrip().startswith("<")
    mine = tmp_path / "py.svg"
    assert s.gantt(mine) is None and mine.read_text() == svg
    assert s.gantt(str(mine)) is None
    with pytest.raises((dlsched.InputOutputError, dlsched.WriteFailed)):
        s.gantt(tmp_path / "no" / "such" / "dir.svg")


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
@pytest.mark.parametrize("order", [None, "rate", "reversed"])
def test_evaluate_as_the_program(path, order):
    pl = dlsched.Platform(path)
    loads = dlsched.schedule(pl, 20000).loads
    if order == "reversed":
        order = pl.names[::-1]
    extra = [] if order is None else ["--order", order if isinstance(order, str)
                                      else ",".join(order)]
    want = json.loads(run_cli("evaluate", path, "--loads",
                              ",".join(repr(x) for x in loads.tolist()), *extra,
                              "--json")[1])
    got = dlsched.evaluate(pl, loads, order=order)
    assert got.to_dict() == want
    assert got.kind == "evaluated" and got.status == "feasible"
    assert dlsched.evaluate(path, loads.tolist(), order=order).to_dict() == want


def test_evaluate_refusals(tmp_path):
    path = write_platform(tmp_path, LIMITED)
    rc, _, err = run_cli("evaluate", path, "--loads", "500,500", check=False)
    assert rc == 2 and "exceeds its limit" in err
    with pytest.raises(dlsched.InvalidArgument, match="exceeds its limit"):
        dlsched.evaluate(path, [500, 500])
    assert dlsched.evaluate(path, [500, 500], use_limits=False).loads.tolist() == [500, 500]
    with pytest.raises(dlsched.InvalidArgument, match="loads"):
        dlsched.evaluate(path, [1, 2, 3])
    with pytest.raises(dlsched.InvalidArgument):
        dlsched.evaluate(path, [-1, 2])
    with pytest.raises(dlsched.InvalidArgument, match="best"):
        dlsched.evaluate(path, [1, 2], order="best")


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
@pytest.mark.parametrize("fmt", ["lp", "mps", "glpk", "mathprog"])
def test_export_as_the_program(tmp_path, path, fmt):
    want = run_cli("export", path, "--load", "1000", "--format", fmt, "-o", "-")[1]
    assert dlsched.export_lp(path, 1000, fmt) == want
    out = tmp_path / ("lp." + fmt)
    assert dlsched.export_lp(path, 1000, format=fmt, path=out) is None
    assert out.read_text() == want
    rate = run_cli("export", path, "--load", "1000", "--format", fmt, "--order", "rate",
                   "--no-limits", "-o", "-")[1]
    assert dlsched.export_lp(path, 1000, fmt, order="rate", use_limits=False) == rate


def test_export_defaults_and_refusals():
    path = example("star_two.json")
    assert dlsched.export_lp(path, 1000) == dlsched.export_lp(path, 1000, "lp")
    with pytest.raises(dlsched.InvalidArgument, match="format: 'simgrid'"):
        dlsched.export_lp(path, 1000, "simgrid")
    with pytest.raises(dlsched.InvalidArgument, match="best"):
        dlsched.export_lp(path, 1000, order="best")
    with pytest.raises(dlsched.InvalidArgument, match="load"):
        dlsched.export_lp(path, -5)


@pytest.mark.parametrize("path", ONE_D, ids=os.path.basename)
@pytest.mark.parametrize("options,kw", [
    ([], {}),
    (["--from", "50", "--to", "5000"], {"load_min": 50, "load_max": 5000}),
    (["--order", "rate", "--keep-unused"], {"order": "rate", "drop_unused": False}),
])
def test_curve_as_the_program(tmp_path, path, options, kw):
    svg = tmp_path / "curve.svg"
    _, want = cli_schedule(path, "--load", "1000", "--curve", *options, "--svg", svg)
    c = dlsched.curve(path, load=1000, **kw)
    assert c.to_dict() == want
    assert c.svg() == svg.read_text()
    mine = tmp_path / "mine.svg"
    c.plot(mine)
    assert mine.read_text() == svg.read_text()
    assert c.loads.shape == c.makespans.shape == (len(c),) and len(c) >= 2
    assert c.makespan_at(1000) == pytest.approx(c.makespan, rel=1e-9)
    at = c.makespan_at(np.array([[c.loads[0], c.loads[-1]]]))
    assert at.shape == (1, 2) and at[0, 1] == pytest.approx(c.makespans[-1], rel=1e-12)
    assert repr(c).startswith("<dlsched.Curve of %d points" % len(c))


def test_curve_by_range_alone():
    path = example("star_cluster.json")
    c = dlsched.curve(path, 100, 1e6)
    assert c.loads[0] == 100 and c.loads[-1] == 1e6 and c.schedule is None
    assert c.load is None and c.to_dict()["load"] is None
    # speed models enter through their envelopes up to load_max, as the LP's at load_max
    assert c.makespan_at(1e6) == pytest.approx(dlsched.schedule(path, 1e6).lp_makespan,
                                               rel=1e-9)
    ten = example("star_ten.json")  # time models alone: T is the schedule's everywhere
    t = dlsched.curve(ten, 100, 1e6)
    for v in (100, 3e3, 5e5, 1e6):
        assert t.makespan_at(v) == pytest.approx(dlsched.schedule(ten, v).makespan, rel=1e-9)
    assert math.isnan(c.makespan_at(2e6))
    with pytest.raises(dlsched.InvalidArgument, match="load_min below load_max"):
        dlsched.curve(path, 10, 5)
    with pytest.raises(dlsched.InvalidArgument, match="give the range"):
        dlsched.curve(path, 10)
    with pytest.raises(dlsched.InvalidArgument, match="best"):
        dlsched.curve(path, 10, 100, order="best")
    with pytest.raises(dlsched.InvalidArgument, match="load_min"):
        dlsched.curve(path, -1, 100)


def test_progress_callback_and_capacity(tmp_path):
    path = example("star_ten.json")
    seen = []
    # GLPK calls it about every 0.2 s of simplex work: a fast solve may not call it at all
    s = dlsched.schedule(path, 1e5, solver="glpk", progress=seen.append)
    assert s.status == "optimal" and all(0 <= f <= 1 for f in seen)
    limited = write_platform(tmp_path, LIMITED)  # limits hold 1000 units
    assert dlsched.curve(limited, 1, 1000).makespans[-1] == pytest.approx(
        dlsched.schedule(limited, 1000).makespan, rel=1e-9)
    with pytest.raises(dlsched.InvalidArgument):  # a range beyond the capacity
        dlsched.curve(limited, 1, 1001)
    with pytest.raises(dlsched.InvalidArgument, match="limits"):  # a load beyond it
        dlsched.curve(limited, load=1001)


MEASURED = os.path.join(TOP_SRCDIR, "tests", "data", "measured", "star_two.json")


@pytest.mark.parametrize("order", [None, "rate", ["P2", "P1"]])
def test_compare_measured_as_the_program(tmp_path, order):
    path = example("star_two.json")
    extra = [] if order is None else ["--order", order if isinstance(order, str)
                                      else ",".join(order)]
    chart = tmp_path / "cli.svg"
    want = json.loads(run_cli("evaluate", path, "--measured", MEASURED, *extra, "--json")[1])
    run_cli("evaluate", path, "--measured", MEASURED, *extra, "--gantt", chart)
    m = dlsched.compare_measured(path, MEASURED, order=order)
    assert m.to_dict() == want and json.loads(m.to_json()) == want
    assert m.gantt() == chart.read_text()
    mine = tmp_path / "py.svg"
    assert m.gantt(mine) is None and mine.read_text() == chart.read_text()
    assert m.measured.kind == "measured" and m.predicted.kind == "evaluated"
    assert m.measured_makespan == 10.9
    assert m.makespan_error == pytest.approx((10.9 - m.predicted_makespan)
                                             / m.predicted_makespan)
    with open(MEASURED) as f:  # the timeline as a dict
        assert dlsched.compare_measured(path, json.load(f), order=order).to_dict() == want
    assert repr(m).startswith("<dlsched.Measurement of 2 processors")


def test_measured_arrays_and_refusals(tmp_path):
    path = example("star_two.json")
    nan = math.nan
    m = dlsched.measured(path, [2.0, 0.0], [0, nan], [3, nan], [23, nan])
    assert m.kind == "measured" and m.makespan == 23 and m.sequence == ["P1", "P2"]
    assert m.loads.tolist() == [2.0, 0.0]
    with pytest.raises(dlsched.InvalidArgument, match="send_end: 1 values for 2"):
        dlsched.measured(path, [1, 1], [0, 1], [1], [2, 3])
    with pytest.raises(dlsched.InvalidArgument):
        dlsched.measured(path, [1, 1], [0, 3], [1, 2], [2, 3])  # a send ending before it starts
    with pytest.raises(dlsched.InvalidArgument, match="must be a list of 2 timelines"):
        dlsched.compare_measured(path, {"processors": []})
    with pytest.raises(dlsched.InvalidArgument, match="processor 1: \"load\" must be a number"):
        dlsched.compare_measured(path, {"processors": [{}, {}]})
    bad = tmp_path / "bad.json"
    bad.write_text("{\"processors\": [")
    with pytest.raises(dlsched.MalformedInput, match="bad.json:1:"):
        dlsched.compare_measured(path, bad)
    with pytest.raises(dlsched.InputOutputError, match="cannot open"):
        dlsched.compare_measured(path, tmp_path / "none.json")
    with pytest.raises(dlsched.InvalidArgument, match="a path or a dict"):
        dlsched.compare_measured(path, 3)


def test_curve_within_the_limits_as_the_program(tmp_path):
    path = write_platform(tmp_path, LIMITED)
    _, want = cli_schedule(path, "--load", "600", "--curve")
    c = dlsched.curve(path, load=600)
    assert c.to_dict() == want
    assert c.loads[-1] == 1000  # 2 V is beyond the limits: the range stops at them
    assert c.makespan_at(1000) == pytest.approx(dlsched.schedule(path, 1000).makespan)
    with pytest.raises(dlsched.InvalidArgument, match="load 1001"):
        dlsched.curve(path, load=1001)
    with pytest.raises(dlsched.InvalidArgument):
        dlsched.curve(path, 10, 2000)  # beyond the capacity
    paper = dlsched.curve(path, 10, 1000, drop_unused=False)
    assert paper.model == "paper" and c.model == "selection"


def big_platform(n=3000):
    """A star large enough that GLPK works past 0.2 s, when it calls progress."""
    rng = np.random.default_rng(1)
    return dlsched.Platform.from_arrays(rng.uniform(1, 10, n), startup=rng.uniform(0, 1e-3, n),
                                        rate=rng.uniform(1e-6, 1e-5, n))


def test_progress_stops_glpk():
    pl = big_platform()
    seen = []

    def stop(fraction):
        seen.append(fraction)
        return True
    with pytest.raises(dlsched.Canceled):
        dlsched.schedule(pl, 1e7, solver="glpk", progress=stop)
    assert len(seen) == 1 and 0 <= seen[0] <= 1

    def boom(fraction):
        raise KeyError("from the callback")
    with pytest.raises(KeyError, match="from the callback"):
        dlsched.schedule(pl, 1e7, solver="glpk", progress=boom)
