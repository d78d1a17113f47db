"""Platforms from files, JSON text, dicts and numpy arrays, checked against the program's
reading of the same files (dlsched check) and against the platform format."""

import json
import math

import numpy as np
import pytest

import dlsched
from conftest import example, run_cli

EXAMPLES = ["star_cluster.json", "cluster.json", "four_node_cluster.json",
            "memory_levels.json", "star_ten.json", "star_two.json", "lu_cluster.json"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_read_as_the_program_reads_them(name):
    p = dlsched.Platform(example(name))
    _, out, _ = run_cli("check", example(name))
    assert "%d processors" % len(p) in out or "%d processor" % len(p) in out
    for proc in p:
        assert proc.name in out
    again = dlsched.Platform.from_json(p.to_json())
    assert again == p
    assert dlsched.Platform.from_dict(p.to_dict()) == p
    assert dlsched.Platform(p) == p and dlsched.Platform(p) is not p


def test_processors_by_index_and_name():
    p = dlsched.Platform(example("star_cluster.json"))
    assert p.names == ["xeon-a", "xeon-b", "epyc", "old-node", "laptop"]
    assert p["epyc"].index == 2 and p[-1].name == "laptop"
    assert p["epyc"].limit == 8e5 and math.isinf(p["xeon-a"].limit)
    assert p["epyc"].link == (0.02, 4e-6)
    assert "laptop" in p and "gpu" not in p
    with pytest.raises(KeyError):
        p["gpu"]
    with pytest.raises(IndexError):
        p[5]
    # the laptop's speed points (units per second) are what the file says
    assert list(p["laptop"].speed([1e3, 5e4])) == [2e3, 6e3]
    # xeon-a: time = max(1e-4 x, 1e-3 x - 180) seconds
    assert p["xeon-a"].time(1e5) == pytest.approx(10.0)
    assert p["xeon-a"].time(1e6) == pytest.approx(820.0)


def test_from_arrays_matches_the_same_file(tmp_path):
    speeds = np.array([100.0, 250.0, 40.0])
    limits = np.array([np.inf, 500.0, np.inf])
    p = dlsched.Platform.from_arrays(speeds, limits=limits, startup=[0.1, 0.2, 0.3],
                                     rate=[1e-3, 2e-3, 3e-3], names=["a", "b", "c"])
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"processors": [
        {"name": "a", "speed": 100, "link": {"startup": 0.1, "rate": 1e-3}},
        {"name": "b", "speed": 250, "limit": 500, "link": {"startup": 0.2, "rate": 2e-3}},
        {"name": "c", "speed": 40, "link": {"startup": 0.3, "rate": 3e-3}}]}))
    assert p == dlsched.Platform(f)
    assert list(p.limits) == list(limits)
    p.write(tmp_path / "q.json")
    assert dlsched.read_platform(tmp_path / "q.json") == p


def test_from_arrays_points_and_default_names():
    sizes = np.array([[1e3, 1e5], [1e3, 1e5]])
    speeds = np.array([[10.0, 5.0], [20.0, 20.0]])
    p = dlsched.Platform.from_arrays(speeds, sizes=sizes)
    assert p.names == ["p0", "p1"]
    assert p[0].model_kind == "points" and p[0].speed(1e5) == 5.0


@pytest.mark.parametrize("kwargs, where", [
    (dict(speeds=[1.0, -2.0]), "processor 1 (p1)"),
    (dict(speeds=[1.0, float("nan")]), "processor 1 (p1)"),
    (dict(speeds=[1.0, 2.0], limits=[1.0, -1.0]), "processor 1 (p1)"),
    (dict(speeds=[1.0, 2.0], names=["a", "a"]), "processor 1 (a)"),
])
def test_from_arrays_refuses_bad_values(kwargs, where):
    with pytest.raises(dlsched.InvalidArgument) as info:
        dlsched.Platform.from_arrays(**kwargs)
    assert where in str(info.value) and info.value.processor == int(where.split()[1])


def test_from_arrays_refuses_bad_shapes():
    with pytest.raises(dlsched.InvalidArgument, match="limits: 1 values for 2"):
        dlsched.Platform.from_arrays([1.0, 2.0], limits=[3.0])
    with pytest.raises(dlsched.InvalidArgument, match="2 names for 3"):
        dlsched.Platform.from_arrays([1.0, 2.0, 3.0], names=["a", "b"])
    with pytest.raises(dlsched.InvalidArgument, match="one-dimensional"):
        dlsched.Platform.from_arrays([[1.0, 2.0]])
    with pytest.raises(dlsched.InvalidArgument, match="not an array of numbers"):
        dlsched.Platform.from_arrays(["fast"])


def test_bad_file_raises_with_file_line_and_column(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{"processors": [\n  {"name": "a", "speed": 10},\n  {"name": "b", "speed": -3}\n]}\n')
    with pytest.raises(dlsched.InvalidData) as info:
        dlsched.Platform(f)
    e = info.value
    assert (e.file, e.line) == (str(f), 3) and e.column > 0
    assert str(e).startswith("%s:3:%d:" % (f, e.column))
    rc, _, err = run_cli("check", f, check=False)
    assert rc != 0 and str(e) in err


def test_malformed_json_is_a_syntax_error(tmp_path):
    with pytest.raises(dlsched.MalformedInput) as info:
        dlsched.Platform.from_json('{"processors": [\n  {"name": "a" "speed": 1}]}', "mine.json")
    e = info.value
    assert e.file == "mine.json" and e.line == 2 and e.column > 0


def test_from_dict_refuses_what_json_cannot_hold():
    with pytest.raises(dlsched.InvalidArgument, match="not a platform in JSON terms"):
        dlsched.Platform.from_dict({"processors": [{"name": "a", "speed": float("nan")}]})
    with pytest.raises(TypeError):
        dlsched.Platform(42)


def test_missing_file():
    with pytest.raises(dlsched.InputOutputError) as info:
        dlsched.Platform("/nonexistent/platform.json")
    assert "/nonexistent/platform.json" in str(info.value)


def test_set_limit_and_link_checked_and_unchanged_on_error():
    p = dlsched.Platform.from_arrays([1.0, 2.0])
    p.set_limit("p1", 10.0)
    p.set_link(0, 0.5, 1e-3)
    assert p[1].limit == 10.0 and p[0].link == (0.5, 1e-3)
    before = p.to_json()
    with pytest.raises(dlsched.InvalidArgument):
        p.set_limit(1, -5.0)
    assert p.to_json() == before
