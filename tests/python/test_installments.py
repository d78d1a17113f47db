"""dlsched.installments against `dlsched installments --json` (and --lp --json)."""

import math

import numpy as np
import pytest

import dlsched
from conftest import cli_json, example, run_cli

MEM = example("memory_levels.json")
RETURNS = {"old-xeon": (0.5, 0.01, 1e-6), "new-epyc": (1, 0.02, 2e-6)}
RETURNS_TEXT = "# name fraction startup rate\nold-xeon 0.5 0.01 1e-6\nnew-epyc 1 0.02 2e-6\n"


def _lp_same(mine, theirs):
    # the search's wall time differs from run to run; everything else must not
    mine, theirs = dict(mine), dict(theirs)
    assert isinstance(mine.pop("seconds"), float)
    theirs.pop("seconds")
    assert mine == theirs


@pytest.mark.parametrize("name, load, args, kw", [
    ("star_ten.json", 1e10, [], {}),
    ("star_ten.json", 1e10, ["--chunk", "2e7"], {"chunk": 2e7}),
    ("star_ten.json", 1e10, ["--chunk", "sweep"], {"chunk": "sweep"}),
    ("star_two.json", 2, [], {}),
    ("memory_levels.json", 1e7, [], {}),
    ("memory_levels.json", 1e7, ["--no-limits", "--chunk", "1e5"],
     {"use_limits": False, "chunk": 1e5}),
    ("star_cluster.json", 1000, ["--no-compare", "--chunk", "10"],
     {"compare": False, "chunk": 10}),
])
def test_equal_chunks_as_the_program(name, load, args, kw):
    r = dlsched.installments(example(name), load, **kw)
    assert r.to_dict() == cli_json("installments", example(name), "--load", load, *args)
    assert r.method == "rounds"
    assert r.loads.shape == (len(r),) and r.loads.dtype == np.float64
    assert math.isclose(r.loads.sum(), load, rel_tol=1e-9)


def test_equal_chunks_attributes_and_chunk_arrays():
    r = dlsched.installments(example("star_cluster.json"), 1000, chunk=10)
    assert r.chunk_source == "given" and r.chunk == 10
    assert r.chunks == 100 and r.chunk_load.shape == (100,)
    assert np.all(r.chunk_load > 0) and math.isclose(r.chunk_load.sum(), 1000)
    assert np.all(r.send_end >= r.send_start) and np.all(r.compute_start >= r.send_end)
    assert math.isclose(r.compute_end.max(), r.makespan, rel_tol=1e-12)
    assert np.all(np.isnan(r.return_end))  # equal chunks return nothing
    assert r.chunk_processor.dtype == np.int64 and r.chunk_round[0] == 0
    first = r.chunk_at(0)
    assert first["send_start"] == 0 and first["processor"] == r.chunk_processor[0]
    assert "makespan" in repr(r) and "given" in repr(r)
    assert set(r.roles) <= {"works", "no chunk", "left out"}


def test_formula_falls_back_to_a_sweep_as_the_program():
    r = dlsched.installments(example("star_two.json"), 2)
    assert r.chunk_source == "sweep" and r.sweep_chunks is not None
    assert r.sweep_chunks.shape == r.sweep_makespans.shape
    assert r.analysis["formula"]["status"] != "defined"


def test_billions_of_chunks_are_exact_but_not_listed():
    r = dlsched.installments(example("star_ten.json"), 1e11, chunk=5)
    assert r.chunks == 2 * 10 ** 10
    assert r.chunk_at(r.chunks - 1)["compute_end"] == pytest.approx(r.makespan)
    with pytest.raises(dlsched.InvalidArgument, match="chunk_at"):
        r.send_start


def test_lp_as_the_program():
    r = dlsched.installments(example("star_two.json"), 2, lp=True, max_lps=50)
    _lp_same(r.to_dict(), cli_json("installments", example("star_two.json"), "--load", 2,
                                   "--lp", "--max-lps", 50))
    assert r.method == "lp" and r.chunk_source is None and math.isnan(r.chunk)
    assert r.chunk_load.shape == (r.chunks,) and r.deepest_levels.shape == (2,)


def test_lp_with_a_sequence_and_options_as_the_program():
    kw = dict(lp=True, sequence=["old-xeon", "new-epyc", "old-xeon"], window=1,
              use_limits=False)
    r = dlsched.installments(MEM, 1e7, **kw)
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--sequence",
                                   "old-xeon,new-epyc,old-xeon", "--window", 1,
                                   "--no-limits"))
    assert [r.names[i] for i in r.chunk_processor] == kw["sequence"]
    # a comma-separated string and indices say the same
    s = dlsched.installments(MEM, 1e7, lp=True, sequence="old-xeon,new-epyc,old-xeon",
                             window=1, use_limits=False)
    assert np.array_equal(s.chunk_load, r.chunk_load)


def test_lp_search_options_as_the_program():
    r = dlsched.installments(MEM, 1e7, lp=True, max_lps=30, rounds=2, moves=False,
                             order="rate", max_chunks=20, exhaustive=0)
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--max-lps",
                                   30, "--rounds", 2, "--no-moves", "--order", "rate",
                                   "--max-chunks", 20, "--exhaustive", 0))


def test_release_times_as_the_program(tmp_path):
    rel = tmp_path / "release.txt"
    rel.write_text("old-xeon 0.5\n")
    r = dlsched.installments(MEM, 1e7, lp=True, max_lps=30, release={"old-xeon": 0.5})
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--max-lps", 30,
                                   "--release", rel))
    p = dlsched.Platform(MEM)
    arr = np.zeros(len(p))
    arr[p.index("old-xeon")] = 0.5
    s = dlsched.installments(p, 1e7, lp=True, max_lps=30, release=arr)
    assert s.makespan == r.makespan
    k = np.flatnonzero(s.chunk_processor == p.index("old-xeon"))
    assert k.size == 0 or s.compute_start[k].min() >= 0.5


@pytest.mark.parametrize("order", ["fifo", "lifo"])
def test_returns_as_the_program(tmp_path, order):
    ret = tmp_path / "ret.txt"
    ret.write_text(RETURNS_TEXT)
    seq = "old-xeon,new-epyc,laptop,old-xeon"
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, returns=RETURNS,
                             return_order=order)
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--sequence",
                                   seq, "--returns", ret, "--return-order", order))
    back = ~np.isnan(r.return_end)
    assert back.any() and np.all(r.return_start[back] >= r.compute_end[back])
    assert math.isclose(np.nanmax(r.return_end), r.makespan, rel_tol=1e-9)


def test_returns_given_order_and_two_port_as_the_program(tmp_path):
    ret = tmp_path / "ret.txt"
    ret.write_text(RETURNS_TEXT)
    seq = ["old-xeon", "new-epyc", "old-xeon"]
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, returns=RETURNS,
                             return_order=["old-xeon", "old-xeon", "new-epyc"])
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--sequence",
                                   ",".join(seq), "--returns", ret, "--return-order",
                                   "old-xeon,old-xeon,new-epyc"))
    t = dlsched.installments(MEM, 1e7, lp=True, max_lps=40, returns=RETURNS, two_port=True)
    _lp_same(t.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--max-lps", 40,
                                   "--returns", ret, "--two-port"))


def test_returns_as_an_array():
    p = dlsched.Platform(MEM)
    arr = np.zeros((len(p), 3))
    for name, v in RETURNS.items():
        arr[p.index(name)] = v
    seq = "old-xeon,new-epyc"
    a = dlsched.installments(p, 1e7, lp=True, sequence=seq, returns=arr)
    b = dlsched.installments(p, 1e7, lp=True, sequence=seq, returns=RETURNS)
    assert a.makespan == b.makespan


def test_gantt(tmp_path):
    r = dlsched.installments(example("star_cluster.json"), 1000, chunk=10)
    svg = r.svg(rounds=2, title="mine")
    assert svg.startswith("<") and "</svg>" in svg and "mine" in svg
    out = tmp_path / "g.svg"
    assert r.gantt(out) is None
    run_cli("installments", example("star_cluster.json"), "--load", 1000, "--chunk", 10,
            "--gantt", tmp_path / "cli.svg")
    assert out.read_text() == (tmp_path / "cli.svg").read_text()
    with pytest.raises(dlsched.InvalidArgument, match="rounds"):
        r.gantt(rounds=0)
    with pytest.raises(dlsched.InputOutputError):
        r.gantt(tmp_path / "no" / "such" / "dir.svg")


def test_lp_gantt_as_the_program(tmp_path):
    seq = "old-xeon,new-epyc,old-xeon"
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq)
    run_cli("installments", MEM, "--load", 1e7, "--lp", "--sequence", seq, "--gantt",
            tmp_path / "cli.svg")
    assert r.svg() == (tmp_path / "cli.svg").read_text()
    with pytest.raises(dlsched.InvalidArgument, match="every chunk"):
        r.svg(rounds=2)


def test_defaults_are_the_program_s():
    a = dlsched.installments(example("star_ten.json"), 1e10)
    b = dlsched.installments(example("star_ten.json"), 1e10, chunk="formula", use_limits=True,
                             compare=True, snap_tol=None, max_chunks=None)
    assert a.to_dict() == b.to_dict()
    assert a.chunk_source == "formula" and a.single_installment_status == "optimal"
    assert dlsched.return_orders() == ["fifo", "lifo"]


@pytest.mark.parametrize("kw, match", [
    (dict(chunk=0), "chunk"),
    (dict(chunk="best"), "chunk"),
    (dict(chunk=math.inf), "chunk"),
    (dict(lp=True, chunk=5), "chunk"),
    (dict(lp=True, compare=False), "compare"),
    (dict(window=2), "window"),
    (dict(moves=False), "moves"),
    (dict(release=[0, 0]), "release"),
    (dict(lp=True, snap_tol=1e-6), "snap_tol"),
    (dict(lp=True, order="fastest"), "order"),
    (dict(lp=True, sequence=["P1", "P9"]), "P9"),
    (dict(lp=True, sequence=[]), "sequence"),
    (dict(lp=True, sequence=[5]), "sequence"),
    (dict(lp=True, window=0), "window"),
    (dict(lp=True, release=[1, 2, 3]), "release"),
    (dict(lp=True, returns={"P1": (0.5, 0)}), "returns"),
    (dict(lp=True, return_order="lifo"), "returns"),
    (dict(lp=True, two_port=True), "returns"),
    (dict(lp=True, returns={"P1": (0.5, 0, 1)}, return_order=["P1"]), "sequence"),
    (dict(lp=True, returns={"P1": (0.5, 0, 1)}, return_order="sideways"), "return_order"),
    (dict(lp=True, sequence="P1,P2", returns={"P1": (0.5, 0, 1)},
          return_order="P1,P1"), "more often"),
    (dict(lp=True, sequence="P1,P2", returns={"P1": (0.5, 0, 1)},
          return_order=["P1"]), "names 1 chunks"),
    (dict(lp=True, sequence="P1,P2", returns={"P1": (0.5, 0, 1)},
          return_order="given"), "fifo, lifo"),
    (dict(lp=True, release={"P1": -1}), "release"),
])
def test_bad_arguments(kw, match):
    with pytest.raises(dlsched.InvalidArgument, match=match):
        dlsched.installments(example("star_two.json"), 2, **kw)


def test_errors_of_the_library():
    with pytest.raises(dlsched.InvalidArgument, match="load"):
        dlsched.installments(example("star_two.json"), -1)
    with pytest.raises(dlsched.InvalidArgument, match="load"):
        dlsched.installments(example("star_two.json"), "many")
    # no processor's limit holds a chunk of 100 units
    small = dlsched.Platform.from_arrays([1.0, 2.0], limits=[10.0, 10.0], startup=[0.1, 0.1],
                                         rate=[0.01, 0.01])
    with pytest.raises(dlsched.OutOfRange, match="limit"):
        dlsched.installments(small, 1000, chunk=100)
    # a given sequence that cannot hold the load within the limits
    with pytest.raises(dlsched.OutOfRange):
        dlsched.installments(small, 1000, lp=True, sequence=[0, 1])
    with pytest.raises(dlsched.InputOutputError):
        dlsched.installments(example("no_such_platform.json"), 1)


def test_progress_can_stop_a_sweep():
    seen = []
    with pytest.raises(dlsched.Canceled):
        dlsched.installments(example("star_ten.json"), 1e10, chunk="sweep",
                             progress=lambda f: seen.append(f) or True)
    assert seen
    with pytest.raises(ZeroDivisionError):
        dlsched.installments(example("star_ten.json"), 1e10, chunk="sweep",
                             progress=lambda f: 1 / 0)
