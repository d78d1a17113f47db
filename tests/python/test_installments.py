"""dlsched.installments against `dlsched installments --json` (and --lp --json)."""

import json
import math
import os
import shutil
import subprocess

import numpy as np
import pytest

import dlsched
from conftest import TOP_SRCDIR, Ordered, example, ordered_json, run_cli

MEM = example("memory_levels.json")
RETURNS = {"old-xeon": (0.5, 0.01, 1e-6), "new-epyc": (1, 0.02, 2e-6)}
RETURNS_TEXT = "# name fraction startup rate\nold-xeon 0.5 0.01 1e-6\nnew-epyc 1 0.02 2e-6\n"


def cli_json(*args):
    """The parsed output of ``dlsched ARGS --json``, compared key order included."""
    return ordered_json(run_cli(*args, "--json")[1])


def _lp_same(mine, theirs):
    # the search's wall time differs from run to run; everything else must not
    assert list(mine) == list(theirs)
    mine, theirs = dict(mine), Ordered(theirs)
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


DATA = ["dlt/star5.json", "limits_hold/two_binding.json", "balance_paging.json",
        "units/four_node_cluster_seconds.json", "shape_warning.json", "stall/issue_1.json"]


def data(name):
    """A file of tests/data."""
    return os.path.join(TOP_SRCDIR, "tests", "data", name)


@pytest.mark.parametrize("name", DATA)
@pytest.mark.parametrize("lp", [False, True])
def test_test_data_as_the_program(name, lp):
    args, kw = (["--lp", "--max-lps", 20], {"lp": True, "max_lps": 20}) if lp else ([], {})
    r = dlsched.installments(data(name), 1000, **kw)
    theirs = cli_json("installments", data(name), "--load", 1000, *args)
    if lp:
        _lp_same(r.to_dict(), theirs)
    else:
        assert r.to_dict() == theirs
    assert math.isclose(r.loads.sum(), 1000, rel_tol=1e-9)
    assert r.chunk_counts.sum() == r.chunks
    # every chunk, in send order: one send at a time, computed after it arrives
    assert np.all(r.send_start[1:] >= r.send_end[:-1] - 1e-9 * r.makespan)
    assert np.all(r.compute_start >= r.send_end)
    assert math.isclose(r.chunk_load.sum(), 1000, rel_tol=1e-9)
    assert np.array_equal(np.bincount(r.chunk_processor, minlength=len(r)), r.chunk_counts)


def test_chunk_at_matches_the_arrays():
    r = dlsched.installments(example("star_ten.json"), 1e10, chunk=3e8)
    for k in (0, 7, r.chunks - 1):
        c = r.chunk_at(k)
        assert c["chunk"] == k and c["processor"] == r.chunk_processor[k]
        assert c["compute_end"] == r.compute_end[k] and c["size"] == r.chunk_load[k]
    assert r.chunk_load[-1] == r.last_chunk
    with pytest.raises(dlsched.InvalidArgument, match="beyond"):
        r.chunk_at(r.chunks)
    with pytest.raises(dlsched.InvalidArgument, match="index"):
        r.chunk_at(-1)


def test_a_platform_object_a_dict_and_arrays_are_the_same_input():
    d = json.loads(open(example("star_two.json")).read())
    a = dlsched.installments(example("star_two.json"), 2, chunk=0.1)
    b = dlsched.installments(d, 2, chunk=0.1)
    c = dlsched.installments(dlsched.Platform(example("star_two.json")), 2, chunk=0.1)
    assert a.to_dict() == b.to_dict() == c.to_dict()
    assert json.loads(a.to_json()) == a.to_dict()
    assert json.loads(a.to_json(indent=None)) == a.to_dict()


def test_a_single_chunk_and_more_processors_than_chunks():
    r = dlsched.installments(example("star_ten.json"), 1e10, chunk=1e11)
    assert r.chunks == 1 and r.rounds == 1 and r.last_chunk == 1e10
    assert r.to_dict() == cli_json("installments", example("star_ten.json"), "--load", 1e10,
                                   "--chunk", 1e11)
    assert r.roles.count("works") == 1 and "no chunk" in r.roles
    assert np.isnan(r.first_arrival[r.chunk_counts == 0]).all()


def test_a_2d_model_is_refused_naming_the_processor():
    for lp in (False, True):
        with pytest.raises(dlsched.InvalidArgument, match="epyc.*2-D"):
            dlsched.installments(example("lu_cluster.json"), 1000, lp=lp)


def test_unreadable_platforms_say_where(tmp_path):
    with pytest.raises(dlsched.MalformedInput) as e:
        dlsched.installments(data("bad/duplicate_key.json"), 1)
    assert (e.value.line, e.value.column) == (5, 53)
    assert e.value.file.endswith("duplicate_key.json")
    with pytest.raises(dlsched.InvalidData, match="name"):
        dlsched.installments(data("measured/star_two.json"), 1)


def test_the_lp_search_stops_at_max_lps():
    # the program says the same: "no sequence was sized within the limits"
    rc, _, err = run_cli("installments", data("limits_hold/four_orders.json"), "--load", 1000,
                         "--lp", "--max-lps", 20, check=False)
    assert rc != 0 and "within the limits" in err
    with pytest.raises(dlsched.LimitExceeded, match="within the limits"):
        dlsched.installments(data("limits_hold/four_orders.json"), 1000, lp=True, max_lps=20)


def _glpsol_optimum(tmp_path, text, fmt):
    """The optimum glpsol finds for a model (None without glpsol)."""
    if shutil.which("glpsol") is None:
        return None
    model, out = tmp_path / ("m." + fmt), tmp_path / "out.txt"
    model.write_text(text)
    flag = {"lp": "--lp", "mps": "--freemps", "glpk": "--glp", "mathprog": "--math"}[fmt]
    subprocess.run(["glpsol", flag, str(model), "-o", str(out)], check=True,
                   capture_output=True)
    for line in out.read_text().splitlines():
        if line.startswith("Objective:"):
            return float(line.split("=")[1].split()[0])
    raise AssertionError("no objective in glpsol's output")


@pytest.mark.parametrize("fmt", ["lp", "mps", "glpk", "mathprog"])
def test_lp_model_has_the_lp_makespan(tmp_path, fmt):
    seq = "old-xeon,new-epyc,laptop,old-xeon"
    kw = dict(returns=RETURNS, release={"laptop": 2.0}, window=1)
    text = dlsched.installments_lp_model(MEM, 1e7, seq, format=fmt, **kw)
    assert isinstance(text, str) and text
    path = tmp_path / "written"
    assert dlsched.installments_lp_model(MEM, 1e7, seq, format=fmt, path=path, **kw) is None
    assert path.read_text() == text
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, **kw)
    opt = _glpsol_optimum(tmp_path, text, fmt)
    if opt is not None:
        assert opt == pytest.approx(r.lp["lp_makespan"], rel=1e-6)


def test_lp_model_errors(tmp_path):
    with pytest.raises(dlsched.InvalidArgument, match="format"):
        dlsched.installments_lp_model(MEM, 1e7, [0, 1], format="xlsx")
    with pytest.raises(dlsched.InvalidArgument, match="sequence"):
        dlsched.installments_lp_model(MEM, 1e7, None)
    with pytest.raises(dlsched.InvalidArgument, match="P9"):
        dlsched.installments_lp_model(MEM, 1e7, ["P9"])
    with pytest.raises(dlsched.InputOutputError):
        dlsched.installments_lp_model(MEM, 1e7, [0], path=tmp_path / "no" / "m.lp")


def test_release_and_returns_files_as_the_program(tmp_path):
    rel, ret = tmp_path / "release.txt", tmp_path / "ret.txt"
    rel.write_text("# name seconds\n\nold-xeon 0.5\n  laptop\t2 \n")
    ret.write_text(RETURNS_TEXT)
    seq = "old-xeon,new-epyc,laptop,old-xeon"
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, release=rel, returns=str(ret))
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--sequence",
                                   seq, "--release", rel, "--returns", ret))
    s = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, returns=RETURNS,
                             release={"old-xeon": 0.5, "laptop": 2})
    assert s.makespan == r.makespan


@pytest.mark.parametrize("text, cls, match, line", [
    ("old-xeon\n", dlsched.MalformedInput, "expected NAME", 1),
    ("\nold-xeon soon\n", dlsched.MalformedInput, "expected NAME", 2),
    ("tpu 1\n", dlsched.InvalidData, "tpu", 1),
    ("old-xeon 1\nold-xeon 2\n", dlsched.InvalidData, "twice .first on line 1", 2),
    ("old-xeon -1\n", dlsched.InvalidData, ">= 0", 1),
    ("old-xeon nan\n", dlsched.InvalidData, ">= 0", 1),
])
def test_bad_release_files(tmp_path, text, cls, match, line):
    rel = tmp_path / "release.txt"
    rel.write_text(text)
    # the program refuses them too
    rc, _, _ = run_cli("installments", MEM, "--load", 1e7, "--lp", "--release", rel,
                       check=False)
    assert rc == 2
    with pytest.raises(cls, match=match) as e:
        dlsched.installments(MEM, 1e7, lp=True, max_lps=10, release=rel)
    assert e.value.line == line and e.value.file == str(rel)
    assert str(e.value).startswith("%s:%d: release" % (rel, line))


def test_missing_release_file(tmp_path):
    with pytest.raises(dlsched.InputOutputError, match="missing"):
        dlsched.installments(MEM, 1e7, lp=True, release=tmp_path / "missing.txt")


def test_sequence_and_return_order_files_as_the_program(tmp_path):
    seq, ro, ret = tmp_path / "seq.txt", tmp_path / "ro.txt", tmp_path / "ret.txt"
    seq.write_text("# the chunks\nold-xeon\n new-epyc , laptop,\n\nold-xeon\n")
    ro.write_text("laptop,new-epyc\nold-xeon,old-xeon\n")
    ret.write_text(RETURNS_TEXT)
    r = dlsched.installments(MEM, 1e7, lp=True, sequence=seq, returns=ret, return_order=ro)
    # (the program takes a list only for --return-order)
    _lp_same(r.to_dict(), cli_json("installments", MEM, "--load", 1e7, "--lp", "--sequence",
                                   seq, "--returns", ret, "--return-order",
                                   "laptop,new-epyc,old-xeon,old-xeon"))
    names = ["old-xeon", "new-epyc", "laptop", "old-xeon"]
    assert [r.names[i] for i in r.chunk_processor] == names
    # the same as lists with blanks and a trailing comma, as the program reads them
    s = dlsched.installments(MEM, 1e7, lp=True,
                             sequence=" old-xeon,new-epyc ,laptop,old-xeon,", returns=RETURNS,
                             return_order="laptop,new-epyc,old-xeon,old-xeon")
    assert s.makespan == r.makespan


def test_bad_sequence_files(tmp_path):
    seq = tmp_path / "seq.txt"
    seq.write_text("old-xeon\n\nold-xeon,tpu\n")
    with pytest.raises(dlsched.InvalidData, match="tpu") as e:
        dlsched.installments(MEM, 1e7, lp=True, sequence=seq)
    assert e.value.line == 3 and e.value.file == str(seq)
    seq.write_text("# nothing\n")
    with pytest.raises(dlsched.InvalidArgument, match="names no processor"):
        dlsched.installments(MEM, 1e7, lp=True, sequence=seq)
    with pytest.raises(dlsched.InputOutputError):
        dlsched.installments(MEM, 1e7, lp=True, sequence=tmp_path / "missing.txt")


def test_the_comparison_sees_the_key_order():
    theirs = ordered_json('{"a": 1, "b": {"c": 2, "d": 3}}')
    assert {"a": 1, "b": {"c": 2, "d": 3}} == theirs
    assert {"b": {"c": 2, "d": 3}, "a": 1} != theirs
    assert {"a": 1, "b": {"d": 3, "c": 2}} != theirs


def test_chunk_arrays_are_chunk_at_for_every_chunk():
    r = dlsched.installments(example("memory_levels.json"), 1e7, chunk=3e4)
    keys = {"size": r.chunk_load, "send_start": r.send_start, "send_end": r.send_end,
            "compute_start": r.compute_start, "compute_end": r.compute_end,
            "processor": r.chunk_processor, "round": r.chunk_round}
    for k in range(0, r.chunks, 37):
        c = r.chunk_at(k)
        for key, arr in keys.items():
            assert arr[k] == c[key], (k, key)
    assert r.compute_end.max() == r.makespan
