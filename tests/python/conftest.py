"""Shared fixtures of the binding's tests: the program to compare with, the examples."""

import json
import os
import subprocess

import pytest

TOP_SRCDIR = os.environ.get("DLS_TOP_SRCDIR",
                            os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
TOP_BUILDDIR = os.environ.get("DLS_TOP_BUILDDIR", TOP_SRCDIR)
DLSCHED = os.environ.get("DLSCHED", os.path.join(TOP_BUILDDIR, "tool", "dlsched"))


def example(name):
    """The path of a shipped example file (examples/NAME)."""
    return os.path.join(TOP_SRCDIR, "examples", name)


def run_cli(*args, check=True):
    """Runs the program; returns (exit status, stdout, stderr)."""
    res = subprocess.run([DLSCHED] + [str(a) for a in args], capture_output=True, text=True)
    if check and res.returncode != 0:
        raise AssertionError("dlsched %s: exit %d\n%s" % (" ".join(map(str, args)),
                                                          res.returncode, res.stderr))
    return res.returncode, res.stdout, res.stderr


def cli_json(*args):
    """The parsed output of ``dlsched ARGS --json``."""
    return json.loads(run_cli(*args, "--json")[1])


@pytest.fixture
def star_cluster():
    return example("star_cluster.json")
