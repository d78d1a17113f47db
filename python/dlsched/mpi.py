"""dlsched's MPI layer (dlsched/mpi.h) on mpi4py communicators: partitioning over the
ranks, balancing an iterative program while it runs, and moving its elements.

Every function is collective: call it on every rank of ``comm`` with the same arguments
(where they say so). An argument that is bad on one rank only fails every rank (each raises
the exception), never leaves the others waiting. Import it explicitly (``import
dlsched.mpi``): it initialises MPI through mpi4py. It raises ImportError, with the reason,
where mpi4py is missing or dlsched was built without its MPI layer.
"""

import numbers
from typing import Any, Optional, Tuple

import numpy as np

try:
    from mpi4py import MPI
except ImportError as _e:  # pragma: no cover - depends on the machine
    raise ImportError("dlsched.mpi needs mpi4py (the Debian package python3-mpi4py): %s"
                      % _e) from _e
try:
    from ._dlsched_mpi import ffi as _mffi, lib as _mlib
except ImportError as _e:  # pragma: no cover - depends on the build
    raise ImportError("dlsched.mpi: this dlsched was built without its MPI layer (configure "
                      "found no MPI, or no Python binding): %s" % _e) from _e

from ._dlsched import ffi, lib
from ._core import check, new_error, ptr_of
from . import _args
from .balance import Balancer, MovePlan, _counts
from .errors import Error
from .partition import _params
from .platform import as_platform

__all__ = ["balance", "move", "partition"]


def _comm(comm: Any):
    """A pointer to the communicator's MPI_Comm handle (mpi4py keeps it in the object)."""
    if not isinstance(comm, MPI.Comm):
        raise _args.invalid("comm: an mpi4py communicator (mpi4py.MPI.Comm) is needed, not %r"
                            % (comm,))
    if comm == MPI.COMM_NULL:
        raise _args.invalid("comm: MPI.COMM_NULL has no ranks")
    return _mffi.cast("void *", MPI._addressof(comm))


def balance(comm: Any, balancer: Balancer, my_time: float) -> Tuple[int, int]:
    """One step of every rank's balancer with every rank's time (dls_mpi_balance): the
    times are gathered, and each rank's :class:`Balancer` (created alike on every rank,
    with p = the communicator's size) steps with all of them, so that all hold the same
    next distribution, moves (``balancer.moves()``) and figures.

    Args:
        comm: an mpi4py communicator.
        balancer: this rank's :class:`Balancer`.
        my_time: this rank's time for its current share (``balancer.shares[rank]``),
            seconds: finite and > 0 with work, 0 without.

    Returns ``(my_share, my_first)``: this rank's next share in elements and the index of
    its first element in the 1-D block layout. Raises InvalidArgument on every rank when
    any rank's input is bad (the message names the lowest such rank and its value); every
    balancer is then unchanged.
    """
    c = _comm(comm)
    ok = isinstance(my_time, numbers.Real) and not isinstance(my_time, bool)
    t = float(my_time) if ok else float("nan")  # the library refuses NaN on every rank
    ptr = balancer._ptr if isinstance(balancer, Balancer) else ffi.NULL
    share, first = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    err = new_error()
    st = _mlib.dlspy_mpi_balance(c, ptr, t, share, first, err)
    _local_first(ok, "my_time: seconds are needed, not %r" % (my_time,), st, err)
    _local_first(ptr != ffi.NULL, "balancer: a dlsched.Balancer is needed, not %r"
                 % (balancer,), st, err)
    check(st, err)
    return int(share[0]), int(first[0])


def _local_first(ok: bool, message: str, st: int, err) -> None:
    """This rank's own mistake, raised here after the collective call failed everywhere
    (with the library's account as its cause)."""
    if ok:
        return
    cause: Optional[Error] = None
    try:
        check(st, err)
    except Error as e:
        cause = e
    raise _args.invalid(message) from cause


def _element_shape(old: np.ndarray) -> Tuple[Tuple[int, ...], int]:
    """The shape and bytes of one element: a row of the buffer past its first axis."""
    shape = old.shape[1:]
    return shape, old.dtype.itemsize * int(np.prod(shape, dtype=np.int64))


def move(comm: Any, plan: Any, before: Any, old_buf: Any,
         new_buf: Optional[np.ndarray] = None) -> np.ndarray:
    """Carries out a 1-D block move plan (dls_mpi_move): this rank's old block, its
    ``before[rank]`` elements in ``old_buf``, becomes its new block in ``new_buf``.

    Args:
        comm: an mpi4py communicator of p ranks.
        plan: a :class:`MovePlan` (``balancer.moves()`` or :func:`dlsched.move_plan`), or
            a :class:`Balancer` for its last moves; equal on every rank.
        before: the p counts the plan starts from (the shares run before the step: copy
            ``balancer.shares`` before :func:`balance`); equal on every rank.
        old_buf: this rank's old block, a C-contiguous numpy array of ``before[rank]``
            elements along its first axis (an element may be a row: shape (k, ...)).
        new_buf: room for the new block, a writable C-contiguous array of the same dtype
            and element shape with ``before[rank] + plan.changes[rank]`` elements; None:
            allocated here.

    Returns the new block (``new_buf``). Raises InvalidArgument on every rank, before
    anything moves, when the arguments differ between ranks or a rank's buffer does not
    fit its block (that rank's message names its buffer).
    """
    c = _comm(comm)
    p, rank = comm.Get_size(), comm.Get_rank()
    if isinstance(plan, Balancer):
        plan = plan.moves()
    if not isinstance(plan, MovePlan):
        raise _args.invalid("plan: a dlsched.MovePlan or Balancer is needed, not %r" % (plan,))
    b = _counts(before, "before", p)
    after = b.astype(np.int64) + (plan.changes if plan.changes.shape[0] == p else 0)
    fits = plan.changes.shape[0] == p and bool(np.all(after >= 0))
    # an inconsistent plan still enters the collective (as the counts before, unchanged):
    # the ranks then disagree and all of them fail, none waits
    cplan = _c_plan(p, b, after if fits else b)
    old = np.ascontiguousarray(old_buf)
    shape, size = _element_shape(old)
    if new_buf is None:
        new_buf = np.empty((int(after[rank]) if fits else 0,) + shape, dtype=old.dtype)
    problem = _buffer_problem(old, new_buf, int(b[rank]), int(after[rank]) if fits else 0)
    if not fits:
        problem = problem or ("plan: a plan of %d processors whose changes fit the counts "
                              "before is needed" % plan.changes.shape[0])
    err = new_error()
    st = _mlib.dlspy_mpi_move(c, cplan, ptr_of(b, "uint64_t[]"),
                              _ptr(old) if problem is None else ffi.NULL,
                              _ptr(new_buf) if problem is None else ffi.NULL, max(size, 1), err)
    _local_first(problem is None, problem or "", st, err)
    check(st, err)
    return new_buf


def _c_plan(p: int, before: np.ndarray, after: np.ndarray):
    out = ffi.new("dls_move_plan **")
    err = new_error()
    check(lib.dls_move_plan_create(p, ptr_of(before, "uint64_t[]"),
                                   ptr_of(np.ascontiguousarray(after, dtype=np.uint64),
                                          "uint64_t[]"), out, err), err)
    return ffi.gc(out[0], lib.dls_move_plan_free)


def _buffer_problem(old: np.ndarray, new: Any, n_old: int, n_new: int) -> Optional[str]:
    if old.ndim == 0 or old.shape[0] != n_old:
        return "old_buf: %d elements along its first axis are needed (before[rank]), not %s" % (
            n_old, old.shape[0] if old.ndim else "a scalar")
    if not isinstance(new, np.ndarray) or not new.flags.c_contiguous or not new.flags.writeable:
        return "new_buf: a writable C-contiguous numpy array is needed"
    if new.dtype != old.dtype or new.shape[1:] != old.shape[1:]:
        return "new_buf: elements of dtype %s and shape %s as in old_buf, not %s and %s" % (
            old.dtype, old.shape[1:], new.dtype, new.shape[1:])
    if new.ndim == 0 or new.shape[0] != n_new:
        return "new_buf: %d elements along its first axis are needed, not %s" % (
            n_new, new.shape[0] if new.ndim else "a scalar")
    return None


def _ptr(arr: np.ndarray):
    return ffi.from_buffer(arr) if arr.size else ffi.NULL


def partition(comm: Any, platform: Any, n: int, *, use_limits: bool = True,
              method: Optional[str] = None) -> Tuple[int, int, np.ndarray]:
    """Partitions ``n`` equal elements over the ranks (dls_mpi_partition): computed once on
    rank 0 with :func:`dlsched.partition` and broadcast, so that every rank gets the same
    counts bit for bit, contiguous chunks in rank order.

    Args:
        comm: an mpi4py communicator.
        platform: on rank 0, a :class:`Platform` (or what ``Platform()`` takes) of exactly
            as many processors as ``comm`` has ranks; ignored elsewhere (None).
        n: the number of elements (equal on every rank).
        use_limits, method: as for :func:`dlsched.partition` (equal on every rank).

    Returns ``(my_count, my_offset, counts)``: this rank's elements, the index of its
    first, and every rank's count (uint64 array of shape (p,)). Raises on every rank:
    InvalidData when the limits cannot hold n elements, InvalidArgument for a platform of
    another size; a platform that cannot be read raises its own error on rank 0.
    """
    c = _comm(comm)
    n = _args.count(n, "n", 0, int(lib.DLS_PARTITION_MAX_ELEMENTS))
    par = _params(use_limits, False, False, method, None, None)
    pl, problem = None, None
    if comm.Get_rank() == 0 and platform is not None:
        try:
            pl = as_platform(platform)
        except Exception as e:  # noqa: B902 - raised again once every rank has failed
            problem = e
    count, offset = ffi.new("uint64_t *"), ffi.new("uint64_t *")
    counts = np.zeros(comm.Get_size(), dtype=np.uint64)
    err = new_error()
    st = _mlib.dlspy_mpi_partition(c, pl._ptr if pl is not None else ffi.NULL, n, par, count,
                                   offset, ptr_of(counts, "uint64_t[]"), err)
    if problem is not None:
        raise problem
    check(st, err)
    return int(count[0]), int(offset[0]), counts
