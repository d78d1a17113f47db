"""dlsched.verify against `dlsched verify --json`."""

import json
import math
import os

import numpy as np
import pytest

import dlsched
from conftest import TOP_SRCDIR, example, ordered_json, run_cli

STAR = example("star_cluster.json")


def verify_cli(platform, claim, *args):
    """`dlsched verify PLATFORM CLAIM ARGS --json`, parsed (exit 0 valid, 1 invalid)."""
    rc, out, err = run_cli("verify", platform, claim, *args, "--json", check=False)
    assert rc in (0, 1), err
    return ordered_json(out)


def written(tmp_path, name, *args):
    """The JSON of `dlsched ARGS --json` in a file of tmp_path."""
    path = tmp_path / name
    path.write_text(run_cli(*args, "--json")[1])
    return path


@pytest.fixture
def schedule_file(tmp_path):
    return written(tmp_path, "s.json", "schedule", STAR, "--load", 1000)


@pytest.mark.parametrize("args, kw", [
    ([], {}),
    (["--best-order"], {"best_order": True}),
    (["--exact"], {"exact": True}),
    (["--no-optimum"], {"optimum": False}),
    (["--order", "rate"], {"order": "rate"}),
    (["--no-limits", "--tolerance", "1e-6"], {"use_limits": False, "tolerance": 1e-6}),
    (["--originator-computes", "--time-limit", "30"],
     {"originator_computes": True, "time_limit": 30}),
    (["--load", "900"], {"load": 900}),
])
def test_schedule_as_the_program(schedule_file, args, kw):
    v = dlsched.verify(STAR, schedule_file, **kw)
    assert v.to_dict() == verify_cli(STAR, schedule_file, *args)
    assert v.valid == (kw.get("load") is None) and bool(v) == v.valid


@pytest.mark.parametrize("name, load", [("star_two.json", 2), ("star_ten.json", 1e6),
                                        ("memory_levels.json", 1e7)])
def test_schedules_of_other_examples(tmp_path, name, load):
    s = written(tmp_path, "s.json", "schedule", example(name), "--load", load)
    v = dlsched.verify(example(name), s)
    assert v.to_dict() == verify_cli(example(name), s)
    assert v.valid and v.kind == "schedule"
    # the same claim as a dict, and the verdict's JSON text
    assert dlsched.verify(example(name), json.loads(s.read_text())).to_dict() == v.to_dict()
    assert json.loads(v.to_json()) == v.to_dict()


def test_invalid_schedule_names_the_violations(schedule_file):
    d = json.loads(schedule_file.read_text())
    d["processors"][0]["load"] += 50
    v = dlsched.verify(STAR, d)
    assert not v.valid and v.violation_count >= 1
    kinds = {x["kind"] for x in v.violations}
    assert kinds <= set(dlsched.violation_kinds()) and "load-sum" in kinds
    assert all(x["message"] for x in v.violations)
    assert v.messages == [x["message"] for x in v.violations] and len(v.messages) >= 1
    assert "invalid" in repr(v)
    path = schedule_file.parent / "bad.json"
    path.write_text(json.dumps(d))
    assert v.to_dict() == verify_cli(STAR, path)


def test_partition_as_the_program(tmp_path):
    p = written(tmp_path, "p.json", "partition", STAR, "--elements", 1000)
    v = dlsched.verify(STAR, p)
    assert v.kind == "partition" and v.valid
    assert v.to_dict() == verify_cli(STAR, p)
    # the Partition of the binding is the same claim
    assert dlsched.verify(STAR, dlsched.partition(STAR, 1000)).to_dict() == v.to_dict()


def test_installments_as_the_program(tmp_path):
    f = written(tmp_path, "i.json", "installments", STAR, "--load", 1000, "--chunk", 10)
    v = dlsched.verify(STAR, f)
    assert v.kind == "installments" and v.valid
    assert v.to_dict() == verify_cli(STAR, f)
    r = dlsched.installments(STAR, 1000, chunk=10)
    assert dlsched.verify(STAR, r).to_dict() == v.to_dict()


def test_an_array_of_loads():
    p = dlsched.Platform(STAR)
    s = json.loads(run_cli("schedule", STAR, "--load", 1000, "--json")[1])
    loads = np.zeros(len(p))
    for q in s["processors"]:
        loads[p.index(q["name"])] = q["load"]
    v = dlsched.verify(p, loads)
    assert v.valid and math.isclose(v.load, 1000) and v.claimed_makespan != v.claimed_makespan
    assert math.isclose(v.makespan, s["makespan"], rel_tol=1e-6)
    # a claimed makespan below what the loads can reach is a violation
    bad = dlsched.verify(p, loads, makespan=s["makespan"] / 2)
    assert not bad.valid and "makespan" in {x["kind"] for x in bad.violations}
    # times, a send order and the kind
    t = np.full((len(p), 4), np.nan)
    assert dlsched.verify(p, list(loads), times=t, send_order=list(range(len(p)))).valid
    part = dlsched.verify(p, np.full(len(p), 200.0), kind="partition")
    assert part.kind == "partition"


def test_a_csv_claim(tmp_path):
    csv = tmp_path / "c.csv"
    csv.write_text("name,load\nxeon-a,500\nxeon-b,500\n")
    v = dlsched.verify(STAR, csv)
    assert v.to_dict() == verify_cli(STAR, csv)


def test_defaults_are_the_program_s(schedule_file):
    a = dlsched.verify(STAR, schedule_file)
    b = dlsched.verify(STAR, str(schedule_file), load=None, tolerance=None, use_limits=True,
                       optimum=True, exact=False, order=None, best_order=False)
    assert a.to_dict() == b.to_dict()
    assert "exact_stopped" not in a.to_dict() and "best_order" not in a.to_dict()
    assert dlsched.claim_kinds() == ["schedule", "partition", "installments"]


def test_unreadable_claims(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"processors": [\n  {"name": "xeon-a",, "load": 1}]}')
    with pytest.raises(dlsched.MalformedInput) as e:
        dlsched.verify(STAR, bad)
    assert e.value.line == 2 and e.value.column is not None and e.value.column > 0
    assert str(bad) in str(e.value)
    unknown = tmp_path / "unknown.json"
    unknown.write_text('{"processors": [{"name": "tpu", "load": 1}]}')
    with pytest.raises(dlsched.InvalidData, match="tpu"):
        dlsched.verify(STAR, unknown)
    with pytest.raises(dlsched.InputOutputError):
        dlsched.verify(STAR, tmp_path / "missing.json")
    with pytest.raises(dlsched.InvalidData, match="<dict>:1:1"):
        dlsched.verify(STAR, {"processors": 3})


@pytest.mark.parametrize("claim, kw, match", [
    (None, {}, "claim"),
    (3.5, {}, "claim"),
    ({"x": math.nan}, {}, "claim"),
    ([1, 2], {}, "loads"),
    (np.ones(5), {"times": np.ones((5, 3))}, "times"),
    (np.ones(5), {"kind": "plan"}, "kind"),
    (np.ones(5), {"send_order": [0, 0]}, ""),
    (np.ones(5), {"makespan": -1}, ""),
    (np.array([1, math.inf, 1, 1, 1]), {}, ""),
    ("s.json", {"times": np.ones((5, 4))}, "array of loads"),
    ("s.json", {"order": "best"}, "best_order"),
    ("s.json", {"reorder": True}, "ordered"),
    ("s.json", {"ordered": True}, "weights"),
    ("s.json", {"weights": [1, 2], "load": 3}, "weights"),
    ("s.json", {"optimum": False, "exact": True}, "optimum"),
    ("s.json", {"tolerance": 1.0}, "tolerance"),
    ("s.json", {"matrix": 0}, "matrix"),
])
def test_bad_arguments(schedule_file, claim, kw, match):
    if isinstance(claim, str) and claim == "s.json":
        claim = schedule_file
    with pytest.raises(dlsched.InvalidArgument, match=match):
        dlsched.verify(STAR, claim, **kw)


@pytest.mark.parametrize("args, kw", [([], {}), (["--ordered"], {"ordered": True}),
                                      (["--ordered", "--reorder"],
                                       {"ordered": True, "reorder": True})])
def test_weighted_partition_as_the_program(tmp_path, args, kw):
    w = np.arange(1.0, 9.0)
    wfile = tmp_path / "w.txt"
    wfile.write_text("".join("%g\n" % x for x in w))
    p = written(tmp_path, "p.json", "partition", STAR, "--weights", wfile, *args)
    v = dlsched.verify(STAR, p, weights=w, **kw)
    assert v.valid and v.kind == "partition"
    assert v.to_dict() == verify_cli(STAR, p, "--weights", wfile, *args)
    mine = dlsched.partition(STAR, weights=w, **kw)
    assert dlsched.verify(STAR, mine, weights=w, **kw).to_dict() == v.to_dict()


def test_matrix_partition_as_the_program(tmp_path):
    p = written(tmp_path, "p.json", "partition", STAR, "--matrix", 200)
    v = dlsched.verify(STAR, p, matrix=200)
    assert v.to_dict() == verify_cli(STAR, p, "--matrix", 200)


def _arrays_of(p, doc, load_key, time_key=None):
    """The loads (and finishes) of the program's JSON as arrays in platform order."""
    loads = np.zeros(len(p))
    times = np.full((len(p), 4), np.nan)
    for q in doc["processors"]:
        loads[p.index(q["name"])] = q[load_key]
        if time_key is not None:
            times[p.index(q["name"]), 3] = q[time_key]
    return loads, times


def test_installments_from_arrays_as_the_program(tmp_path):
    f = written(tmp_path, "i.json", "installments", STAR, "--load", 1000, "--chunk", 10)
    doc = json.loads(f.read_text())
    p = dlsched.Platform(STAR)
    loads, _ = _arrays_of(p, doc, "load")
    v = dlsched.verify(p, loads, kind="installments", chunk=10, total=1000)
    theirs = verify_cli(STAR, f)
    assert v.kind == "installments" and v.valid == theirs["valid"] is True
    assert v.makespan == pytest.approx(theirs["makespan"], rel=1e-12)
    # a processor given more than the round-robin gives it (with 1010 units the extra
    # chunk is the first processor's, so give it to the second)
    loads[1] += 10
    bad = dlsched.verify(p, loads, kind="installments", chunk=10)
    assert not bad.valid and "gap" not in repr(v)
    with pytest.raises(dlsched.InvalidArgument, match="chunk"):
        dlsched.verify(p, loads, kind="schedule", chunk=10)


@pytest.mark.parametrize("ordered", [False, True])
def test_weighted_partition_from_arrays_as_the_program(tmp_path, ordered):
    w = np.arange(1.0, 9.0)
    wfile = tmp_path / "w.txt"
    wfile.write_text("".join("%g\n" % x for x in w))
    args = ["--ordered"] if ordered else []
    f = written(tmp_path, "p.json", "partition", STAR, "--weights", wfile, *args)
    doc = json.loads(f.read_text())
    p = dlsched.Platform(STAR)
    held, times = _arrays_of(p, doc, "weight", "time")
    if ordered:
        first, count = (np.zeros(len(p), dtype=np.int64) for _ in range(2))
        for q in doc["processors"]:
            first[p.index(q["name"])] = q["first"]
            count[p.index(q["name"])] = q["elements"]
        where = dict(chunks=(first, count))
    else:
        where = dict(owners=np.array(doc["assignment"]))
    kw = dict(weights=w, ordered=ordered)
    v = dlsched.verify(p, held, kind="partition", times=times, makespan=doc["makespan"],
                       total=len(w), **where, **kw)
    theirs = verify_cli(STAR, f, "--weights", wfile, *args)
    assert v.valid and theirs["valid"]
    for key in ("kind", "makespan", "claimed_makespan", "best", "gap", "proven"):
        assert v.to_dict()[key] == pytest.approx(theirs[key], rel=1e-12), key
    # the same element held twice, or a chunk past the set
    if ordered:
        count[count.argmax()] += 1
        bad = dlsched.verify(p, held, kind="partition", chunks=(first, count), **kw)
    else:
        own = np.array(doc["assignment"])
        own[0] = (own[0] + 1) % len(p)  # moved: the weights held no longer add up
        bad = dlsched.verify(p, held, kind="partition", owners=own, **kw)
    assert not bad.valid and bad.violations


@pytest.mark.parametrize("kw, match", [
    (dict(owners=[0, 9]), "owners"),
    (dict(owners=["xeon-a", "tpu"]), "tpu"),
    (dict(owners=np.array([0, -1])), "owners"),
    (dict(owners=[0], chunks=([0] * 5, [1] * 5)), "one"),
    (dict(chunks=[0] * 5), "chunks"),
    (dict(chunks=([0] * 4, [1] * 4)), "first"),
    (dict(chunks=([0] * 5, [-1] * 5)), "count"),
    (dict(chunks=([0.5] * 5, [1] * 5)), "first"),
    (dict(send_order=["xeon-a", "tpu"]), "tpu"),
    (dict(total=-3), ""),
])
def test_bad_array_claims(kw, match):
    with pytest.raises(dlsched.InvalidArgument, match=match):
        dlsched.verify(STAR, np.full(5, 1.0), kind="partition", weights=np.ones(5), **kw)


def test_array_options_apply_to_arrays_only(schedule_file):
    with pytest.raises(dlsched.InvalidArgument, match="total, chunk apply"):
        dlsched.verify(STAR, schedule_file, total=5, chunk=1)
    with pytest.raises(dlsched.InvalidArgument, match="kind apply"):
        dlsched.verify(STAR, schedule_file, kind="partition")


def _data(name):
    """A file of tests/data."""
    return os.path.join(TOP_SRCDIR, "tests", "data", name)


PLATFORMS = [example("star_two.json"), example("star_ten.json"), example("memory_levels.json"),
             example("four_node_cluster.json"), _data("dlt/star5.json"),
             _data("limits_hold/two_binding.json"), _data("balance_paging.json"),
             _data("units/four_node_cluster_seconds.json")]
CLAIMS = [("schedule", "--load", 1000), ("schedule", "--load", 1000, "--order", "best"),
          ("partition", "--elements", 1000), ("installments", "--load", 1000)]


@pytest.mark.parametrize("platform", PLATFORMS)
@pytest.mark.parametrize("claim", CLAIMS)
def test_claims_on_shipped_platforms_as_the_program(tmp_path, platform, claim):
    f = written(tmp_path, "c.json", claim[0], platform, *claim[1:])
    for args, kw in (([], {}), (["--best-order", "--exact"], {"best_order": True,
                                                             "exact": True})):
        v = dlsched.verify(platform, f, **kw)
        assert v.to_dict() == verify_cli(platform, f, *args)
        assert v.valid and v.kind == claim[0]
    assert dlsched.verify(platform, json.loads(f.read_text())).to_dict() == \
        dlsched.verify(platform, f).to_dict()


def test_evaluate_output_as_the_program(tmp_path):
    f = written(tmp_path, "e.json", "evaluate", STAR, "--loads", "400,300,200,100,0")
    v = dlsched.verify(STAR, f, best_order=True)
    assert v.to_dict() == verify_cli(STAR, f, "--best-order")
    assert v.valid and v.gap > 0  # a made-up distribution is worse than the optimum


def test_lp_installments_are_refused_as_by_the_program(tmp_path):
    f = written(tmp_path, "lp.json", "installments", STAR, "--load", 1000, "--lp", "--max-lps",
                20)
    rc, _, err = run_cli("verify", STAR, f, check=False)
    assert rc == 2 and "--lp" in err
    with pytest.raises(dlsched.InvalidData, match="--lp") as e:
        dlsched.verify(STAR, f)
    assert e.value.line is not None and e.value.file == str(f)
    with pytest.raises(dlsched.InvalidData, match="<Installments>"):
        dlsched.verify(STAR, dlsched.installments(STAR, 1000, lp=True, max_lps=20))


def test_a_broken_installments_claim(tmp_path):
    d = dlsched.installments(STAR, 1000, chunk=10).to_dict()
    d["makespan"] /= 2
    v = dlsched.verify(STAR, d)
    assert not v.valid and "makespan" in {x["kind"] for x in v.violations}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    assert v.to_dict() == verify_cli(STAR, path)


def test_schedules_of_the_binding_are_claims(tmp_path, schedule_file):
    # dlsched.schedule's and dlsched.evaluate's results, as the program's files of them
    s = dlsched.schedule(STAR, 1000)
    assert dlsched.verify(STAR, s).to_dict() == verify_cli(STAR, schedule_file)
    e = dlsched.evaluate(STAR, [400, 300, 200, 100, 0])
    f = written(tmp_path, "e.json", "evaluate", STAR, "--loads", "400,300,200,100,0")
    v = dlsched.verify(STAR, e, best_order=True)
    assert v.to_dict() == verify_cli(STAR, f, "--best-order")
    assert v.valid and v.gap_percent > 100


def test_an_array_claim_names_the_processor_refused():
    with pytest.raises(dlsched.InvalidArgument, match="epyc.*domain") as e:
        dlsched.verify(STAR, np.array([1, 1, 1e-300, 1, 1.0]))
    assert e.value.processor == 2
    t = np.full((5, 4), np.nan)
    t[4, 1] = math.inf
    with pytest.raises(dlsched.InvalidArgument, match="laptop") as e:
        dlsched.verify(STAR, np.ones(5), times=t)
    assert e.value.processor == 4
