"""dlsched.mpi on mpi4py communicators: a script run under mpiexec with 3 ranks balances a
simulated iterative program, moves its elements and partitions, and checks the ranks agree
with the serial binding. Skipped, with the reason, without MPI, mpi4py or the MPI layer."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest


RANKS = 3

SCRIPT = r'''
import sys
import numpy as np
from mpi4py import MPI
import dlsched
import dlsched.mpi as dmpi

comm = MPI.COMM_WORLD
rank, p = comm.Get_rank(), comm.Get_size()
path = sys.argv[1]

# partition: the same counts on every rank as the serial partitioner's (a limit binds)
three = dlsched.Platform.from_arrays([1e6, 2e6, 3e6], limits=[np.inf, np.inf, 2e5])
if rank == 0:
    three.write(path)
comm.Barrier()
platform = path if rank == 0 else None
serial = dlsched.partition(three, 1000000)
assert serial.elements[2] == 200000
count, offset, counts = dmpi.partition(comm, platform, 1000000)
assert counts.tolist() == serial.elements.tolist(), counts
assert count == counts[rank] and offset == int(counts[:rank].sum())

# balance a simulated program: rank r is r + 1 times slower, elements carry their index
n = 3000
b = dlsched.Balancer(p, n)
serial_b = dlsched.Balancer(p, n)
block = np.arange(int(b.first[rank]), int(b.first[rank] + b.shares[rank]), dtype=np.float64)
for it in range(4):
    before = b.shares
    my_time = (rank + 1) * before[rank] / 1000.0 if before[rank] > 0 else 0.0
    share, first = dmpi.balance(comm, b, my_time)
    times = np.array([(r + 1) * before[r] / 1000.0 for r in range(p)])
    serial_b.step(times)
    assert b.shares.tolist() == serial_b.shares.tolist()
    assert (share, first) == (int(b.shares[rank]), int(b.first[rank]))
    block = dmpi.move(comm, b.moves(), before, block)
    assert block.tolist() == list(range(first, first + share)), (it, block[:5])
assert b.shares[0] > b.shares[1] > b.shares[2]

# rows as elements, into a buffer of the caller's
rows = np.stack([block, -block], axis=1)
plan = dlsched.move_plan(b.shares, [n - 2 * (n // 3), n // 3, n // 3])
new = np.empty((int(b.shares[rank]) + int(plan.changes[rank]), 2))
out = dmpi.move(comm, plan, b.shares, rows, new)
assert out is new
start = [0, n - 2 * (n // 3), n - (n // 3)][rank]
assert new[:, 0].tolist() == list(range(start, start + new.shape[0]))
assert np.array_equal(new[:, 1], -new[:, 0])

# a bad time on one rank fails every rank, every balancer unchanged
shares = b.shares.tolist()
try:
    dmpi.balance(comm, b, -1.0 if rank == 1 else 1.0)
    raise AssertionError("accepted")
except dlsched.InvalidArgument as e:
    assert "1" in str(e), str(e)
assert b.shares.tolist() == shares
try:
    dmpi.balance(comm, b, "slow" if rank == 2 else 1.0)
    raise AssertionError("accepted")
except dlsched.InvalidArgument as e:
    assert rank != 2 or "my_time" in str(e), str(e)

# a buffer of the wrong size on one rank fails every rank before anything moves; that
# rank's message names its buffer
try:
    dmpi.move(comm, plan, b.shares, rows[:-1] if rank == 0 else rows)
    raise AssertionError("accepted")
except dlsched.InvalidArgument as e:
    assert rank != 0 or "old_buf: %d elements" % rows.shape[0] in str(e), str(e)

# a platform rank 0 cannot read: rank 0 raises its error, the others InvalidArgument
try:
    dmpi.partition(comm, "/nonexistent.json" if rank == 0 else None, 10)
    raise AssertionError("accepted")
except dlsched.InputOutputError:
    assert rank == 0
except dlsched.InvalidArgument:
    assert rank != 0
comm.Barrier()
# (a file per rank: the launcher may interleave the ranks' standard output mid-line)
with open("%s.rank%d.ok" % (path, rank), "w") as f:
    f.write("rank %d ok\n" % rank)
'''


def _launcher():
    # (configure's order: mpirun first)
    mpiexec = os.environ.get("MPIEXEC") or shutil.which("mpirun") or shutil.which("mpiexec")
    if not mpiexec:
        pytest.skip("no mpiexec or mpirun (install the Debian package openmpi-bin)")
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        pytest.skip("no mpi4py for %s (install the Debian package python3-mpi4py)"
                    % sys.executable)
    try:
        import dlsched._dlsched_mpi  # noqa: F401
    except ImportError:
        pytest.skip("dlsched was built without its MPI layer (configure found no MPI)")
    flags = []
    version = subprocess.run([mpiexec, "--version"], capture_output=True, text=True)
    text = version.stdout + version.stderr
    # as tests/support/mpi_flags.sh (Open MPI's mpiexec says "OpenRTE")
    if "Open MPI" in text or "OpenRTE" in text or "open-mpi.org" in text:
        flags.append("--oversubscribe")
        if os.getuid() == 0:
            flags.append("--allow-run-as-root")
    return [mpiexec] + flags


def test_balance_move_and_partition_under_mpiexec(tmp_path):
    cmd = _launcher()
    script = tmp_path / "mpi_script.py"
    script.write_text(textwrap.dedent(SCRIPT))
    # (-m mpi4py: an exception aborts every rank instead of leaving them waiting)
    res = subprocess.run(cmd + ["-n", str(RANKS), sys.executable, "-m", "mpi4py", str(script),
                                str(tmp_path / "three.json")],
                         capture_output=True, text=True, timeout=120)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    done = sorted(p.name for p in tmp_path.glob("three.json.rank*.ok"))
    assert done == ["three.json.rank%d.ok" % r for r in range(RANKS)], out


SINGLE = r'''
import numpy as np
from mpi4py import MPI
import dlsched
import dlsched.mpi as dmpi

try:
    dmpi.balance(42, dlsched.Balancer(1, 10), 1.0)
    raise AssertionError("accepted")
except dlsched.InvalidArgument as e:
    assert "comm: an mpi4py communicator" in str(e), str(e)
b = dlsched.Balancer(1, 10)
assert dmpi.balance(MPI.COMM_SELF, b, 0.5) == (10, 0)
block = dmpi.move(MPI.COMM_SELF, b.moves(), [10], np.arange(10.0))
assert block.tolist() == list(range(10))
assert dmpi.partition(MPI.COMM_SELF, dlsched.Platform.from_arrays([1.0]), 7)[:2] == (7, 0)
try:
    dmpi.move(MPI.COMM_SELF, "plan", [10], np.arange(10.0))
    raise AssertionError("accepted")
except dlsched.InvalidArgument as e:
    assert "plan: a dlsched.MovePlan" in str(e), str(e)
print("single ok")
'''


def test_one_rank_and_argument_errors_without_a_launcher(tmp_path):
    """COMM_SELF in a process of its own (MPI is not started inside pytest's)."""
    _launcher()
    script = tmp_path / "single.py"
    script.write_text(SINGLE)
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0 and "single ok" in res.stdout, res.stdout + res.stderr
