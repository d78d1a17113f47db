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


class Ordered(dict):
    """A dict of the program's JSON whose == also asks for the same keys in the same order
    (to_dict() writes its keys as the program does); nested objects compare alike."""

    __hash__ = None  # type: ignore[assignment]

    def __eq__(self, other):
        return isinstance(other, dict) and list(self) == list(other) and \
            dict.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)


def ordered_json(text):
    """JSON text parsed into Ordered dicts."""
    return json.loads(text, object_pairs_hook=Ordered)


@pytest.fixture
def star_cluster():
    return example("star_cluster.json")
