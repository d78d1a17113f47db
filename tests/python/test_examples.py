"""The programs of examples/python/ run, and what they print is what the program computes
for the same inputs (the figures of doc/TUTORIAL.md, step 9)."""

import os
import re
import subprocess
import sys

import pytest

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
