"""The programs of examples/python/ run, and what they print is what the program computes
for the same inputs (the figures of doc/TUTORIAL.md, step 9)."""

import os
import re
import subprocess
import sys

import pytest

import dlsched

from conftest import TOP_SRCDIR, cli_json, example


def _run(name, *args, cwd):
    script = os.path.join(TOP_SRCDIR, "examples", "python", name)
    res = subprocess.run([sys.executable, script] + [str(a) for a in args], cwd=cwd,
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, "%s: exit %d\n%s%s" % (name, res.returncode, res.stdout,
                                                        res.stderr)
    return res.stdout


def _figure(out, pattern):
    m = re.search(pattern, out, re.M)
    assert m, "no line matching %r in:\n%s" % (pattern, out)
    return float(m.group(1))


def test_platform_schedule(tmp_path):
    star = example("star_cluster.json")
    out = _run("platform_schedule.py", star, 10**6, 1e6, tmp_path, cwd=tmp_path)
    assert out.startswith("5 processors\n")
    part = cli_json("partition", star, "--elements", "1000000")
    sched = cli_json("schedule", star, "--load", "1e6")
    assert _figure(out, r"^partition of 1000000 elements: makespan (\S+) s") == \
        pytest.approx(part["makespan"], rel=1e-5)
    assert _figure(out, r"^schedule of 1e\+06 units: makespan (\S+) s") == \
        pytest.approx(sched["makespan"], rel=1e-5)
    for p in part["processors"]:
        assert re.search(r"^  %s +%d elements" % (re.escape(p["name"]), p["elements"]), out, re.M)
    for svg in ("schedule.svg", "speeds.svg"):
        assert "<svg" in (tmp_path / svg).read_text()[:400]


def test_measure_kernel(tmp_path):
    out = _run("measure_kernel.py", 2, tmp_path / "m.json", cwd=tmp_path)
    m = re.search(r"^measured (\d+) sizes in (\S+) s \((.+)\); the model keeps (\d+) points:",
                  out, re.M)
    assert m and int(m.group(1)) >= int(m.group(4)) >= 1
    shares = re.search(r"^10\^7 elements: numpy-dot (\d+), twice (\d+); makespan", out, re.M)
    assert shares and int(shares.group(1)) + int(shares.group(2)) == 10**7
    measured = dlsched.Platform(tmp_path / "m.json")
    assert measured.names == ["numpy-dot"] and measured[0].model_kind == "points"


def test_balance_loop(tmp_path):
    platform = example("memory_levels.json")
    out = _run("balance_loop.py", platform, 150_000_000, 10, 1, cwd=tmp_path)
    rows = re.findall(r"^ +(\d+) +(\S+) +(\S+) +(\d+)( +converged)?$", out, re.M)
    assert [int(r[0]) for r in rows] == list(range(1, 11))
    # the optimum it compares with is the program's partition of the true models
    optimum = cli_json("partition", platform, "--elements", "150000000")["makespan"]
    last = float(rows[-1][1])
    assert float(rows[-1][2]) == pytest.approx(last / optimum, abs=1e-3)
    assert last / optimum < 1.05 and rows[-1][4]
    final = re.search(r"^final shares: (.*)$", out, re.M).group(1)
    assert sum(int(s.split()[-1]) for s in final.split(", ")) == 150_000_000


def _tutorial_block(first_line):
    """The output block of doc/TUTORIAL.md's step 9 that starts with ``first_line``."""
    text = open(os.path.join(TOP_SRCDIR, "doc", "TUTORIAL.md"), encoding="utf-8").read()
    step = text[text.index("## 9. "):]
    start = step.index("```\n" + first_line) + 4
    return step[start:step.index("```", start)]


@pytest.mark.parametrize("script, args, first", [
    ("platform_schedule.py", ["examples/star_cluster.json", "1e6", "1e6", "."], "5 processors"),
    ("balance_loop.py", [], "iteration  makespan"),
])
def test_tutorial_shows_the_examples_output(tmp_path, script, args, first):
    args = [os.path.join(TOP_SRCDIR, a) if a.startswith("examples/") else a for a in args]
    if script == "balance_loop.py":
        args = [example("memory_levels.json")]
    out = _run(script, *args, cwd=tmp_path)
    assert _tutorial_block(first) == out
