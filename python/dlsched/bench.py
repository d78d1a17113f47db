"""Measuring a Python kernel's speed function (dlsched/bench.h, ``dlsched bench``).

The kernel is a Python callable ``kernel(size)`` that does the work of ``size`` units
(rows, elements, blocks: the unit of the speed function) once. The library chooses the
sizes (a log-spaced ladder, then the midpoints where the model is least accurate), repeats
each until its mean time is known within ``precision``, and returns the speed function as
points with bands: a processor of a :class:`Platform`.
"""

import dataclasses
import math
import numbers
import socket
import time as _time
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from ._dlsched import ffi, lib
from ._core import check, new_error, text, to_json_text
from . import _args
from .balance import SpeedModel
from .errors import Error
from .platform import Platform

__all__ = ["Bench", "BenchSummary", "bench"]


class _Kernel:
    """What dls_py_kernel_run needs: the callable, and the first exception it raised."""

    def __init__(self, fn: Callable[[Any], Any], integer_sizes: bool):
        self.fn, self.integer_sizes = fn, integer_sizes
        self.error: Optional[BaseException] = None
        self.clock = _time.perf_counter


@ffi.def_extern()
def dls_py_kernel_run(size, work, data):
    """The library's side of a Python kernel: one run of ``size`` units, timed."""
    k = ffi.from_handle(data)
    x = int(size) if k.integer_sizes else size
    try:
        t0 = k.clock()
        r = k.fn(x)
        t = k.clock() - t0
        if r is not None:  # the kernel timed itself
            if isinstance(r, bool) or not isinstance(r, numbers.Real):
                raise TypeError("the kernel returned %r at size %r: None, or its time in "
                                "seconds, is expected" % (r, x))
            t = float(r)
    except BaseException as e:  # noqa: B902 - raised again by bench(), KeyboardInterrupt too
        if k.error is None:
            k.error = e
        return -1.0
    work[0] = size
    return t


_POINT = np.dtype({"names": ["size", "speed", "low", "high", "time", "ci", "reps"],
                   "formats": ["f8"] * 6 + [np.uintc],
                   "offsets": [ffi.offsetof("dls_bench_point", f)
                               for f in ("size", "speed", "low", "high", "time", "ci", "reps")],
                   "itemsize": ffi.sizeof("dls_bench_point")})
_CHECK_FIELDS = ("size", "speed", "low", "high", "predicted", "model_low", "model_high",
                 "error", "within")
_CHECK = np.dtype({"names": list(_CHECK_FIELDS), "formats": ["f8"] * 8 + [np.intc],
                   "offsets": [ffi.offsetof("dls_bench_check", f) for f in _CHECK_FIELDS],
                   "itemsize": ffi.sizeof("dls_bench_check")})


def _records(ptr, n: int, dtype: np.dtype) -> np.ndarray:
    """A copy of n C records as a numpy structured array (only the named fields)."""
    names = list(dtype.names)
    plain = np.dtype([(f, dtype.fields[f][0]) for f in names])
    if ptr == ffi.NULL or n == 0:
        return np.zeros(0, dtype=plain)
    view = np.frombuffer(ffi.buffer(ptr, n * dtype.itemsize), dtype=dtype)
    out = np.empty(n, dtype=plain)
    for f in names:
        out[f] = view[f]
    return out


@dataclasses.dataclass(frozen=True)
class BenchSummary:
    """A true account of a build (dls_bench_summary). Sizes in the kernel's units,
    times in seconds.

    Attributes:
        stop: what stopped it: "converged", "max points", "time budget" or "model points".
        measured: sizes measured for the model (held-out sizes apart).
        kept: points the model keeps.
        smallest, largest: the range measured.
        limit: the largest size the kernel may take (the processor's limit).
        top_by_budget: the budget afforded no size up to the limit (the model keeps the
            last speed from ``largest`` to ``limit``).
        top_run_time: seconds of one run at the largest size.
        fine: intervals accepted though their midpoint disagreed (finer than the
            resolution, or the model's point cap); fine_error: the largest disagreement.
        widened: model points whose band was widened; widening: the largest widening.
        unexamined: intervals left unexamined (budget or cap).
        held_out, within, held_out_error: held-out sizes measured, how many the model
            predicts within its accuracy or band, the largest relative error.
        accuracy: the model's accuracy asked for.
        elapsed: seconds the build took.
    """

    stop: str
    measured: int
    kept: int
    smallest: float
    largest: float
    limit: float
    top_by_budget: bool
    top_run_time: float
    fine: int
    fine_error: float
    widened: int
    widening: float
    unexamined: int
    held_out: int
    within: int
    held_out_error: float
    accuracy: float
    elapsed: float

    def to_dict(self) -> Dict[str, Any]:
        """The summary as ``dlsched bench --json`` writes it (its "summary" key)."""
        d = dataclasses.asdict(self)
        d["limit"] = _args.number(self.limit)
        return d


class Bench:
    """A measured speed function (the result of :func:`bench`).

    Attributes:
        name: the processor's name (for :meth:`processor` and :meth:`to_dict`).
        model: the :class:`SpeedModel` built: points (``model.sizes``, ``model.speeds``,
            float64 arrays of shape (k,), units and units per second) with their bands
            (``model.low``, ``model.high``).
        points: every point measured, kept or not, by increasing size: a numpy structured
            array of shape (m,) with fields size, speed, low, high (units per second),
            time and ci (seconds: a run's mean time and its confidence half-width) and reps.
        held_out: the held-out sizes (``validate``): structured array with fields size,
            speed, low, high, predicted, model_low, model_high, error and within.
        limit: the largest size measured, units: the processor's limit.
        stop: why the build stopped ("converged", "max points", "time budget",
            "model points").
        summary: a :class:`BenchSummary`.
        elapsed: seconds the build took.
        budget_top: with a time budget, the size the budget brought the largest
            measurement down to; 0 when the range was measured up to the limit.
    """

    def __init__(self, b, name: str, accuracy: float) -> None:
        self.name = name
        out = ffi.new("dls_model **")
        err = new_error()
        check(lib.dls_model_copy(lib.dls_bench_model(b), out, err), err)
        self.model = SpeedModel(out[0])
        n = ffi.new("size_t *")
        pts = lib.dls_bench_points(b, n)
        self.points = _records(pts, int(n[0]) if pts != ffi.NULL else 0, _POINT)
        chk = lib.dls_bench_held_out(b, n)
        self.held_out = _records(chk, int(n[0]) if chk != ffi.NULL else 0, _CHECK)
        self.limit = float(lib.dls_bench_limit(b))
        self.stop: str = text(lib.dls_bench_stop_name(lib.dls_bench_stopped(b)))
        self.elapsed = float(lib.dls_bench_elapsed(b))
        self.budget_top = float(lib.dls_bench_budget_top(b))
        u = ffi.new("dls_bench_summary *")
        lib.dls_bench_get_summary(b, u)
        self.summary = BenchSummary(
            stop=text(lib.dls_bench_stop_name(u.stop)), measured=int(u.measured),
            kept=int(u.kept), smallest=u.smallest, largest=u.largest, limit=u.limit,
            top_by_budget=bool(u.top_by_budget), top_run_time=u.top_run_time,
            fine=int(u.fine), fine_error=u.fine_error, widened=int(u.widened),
            widening=u.widening, unexamined=int(u.unexamined), held_out=int(u.held_out),
            within=int(u.within), held_out_error=u.held_out_error, accuracy=accuracy,
            elapsed=u.elapsed)

    def __repr__(self) -> str:
        return "<dlsched.Bench %r: %d points measured, %d kept, up to %g (%s)>" % (
            self.name, len(self.points), len(self.model), self.limit, self.stop)

    def platform(self, name: Optional[str] = None) -> Platform:
        """A :class:`Platform` of one processor, ``name`` (default :attr:`name`), with the
        measured speed function and the limit, as ``dlsched bench -o`` writes it."""
        name = self.name if name is None else name
        if not isinstance(name, str) or not name or "\0" in name:
            raise _args.invalid("name: a processor name is needed, not %r" % (name,))
        pl = Platform()
        idx = ffi.new("size_t *")
        err = new_error()
        check(lib.dls_platform_add(pl._ptr, name.encode("utf-8"), self.model._ptr, idx, err),
              err)
        if math.isfinite(self.limit):
            check(lib.dls_platform_set_limit(pl._ptr, idx[0], self.limit, err), err)
        return pl

    def processor(self, name: Optional[str] = None) -> Dict[str, Any]:
        """The processor's entry of a platform file (a dict: "name", "speed" with its
        points and bands, "limit"), to put into a platform's "processors" list."""
        return self.platform(name).to_dict()["processors"][0]

    def to_dict(self) -> Dict[str, Any]:
        """The result as ``dlsched bench --json`` writes it, as far as it applies (no
        "log": nothing is logged; "platform" is the one-processor platform)."""
        d: Dict[str, Any] = {
            "points": [{"size": p["size"], "speed": p["speed"], "low": p["low"],
                        "high": p["high"], "time": p["time"], "reps": p["reps"]}
                       for p in _dicts(self.points)],
            "kept": len(self.model), "stop": self.stop,
            "elapsed": _args.number(self.elapsed), "summary": self.summary.to_dict(),
            "held_out": [dict(c, within=bool(c["within"])) for c in _dicts(self.held_out)]}
        if self.budget_top > 0:
            d["budget_top"] = _args.number(self.budget_top)
        d["name"] = self.name
        d["limit"] = _args.number(self.limit)
        d["platform"] = self.platform().to_dict()
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _dicts(arr: np.ndarray) -> List[Dict[str, Any]]:
    names = arr.dtype.names
    return [dict(zip(names, row)) for row in arr.tolist()]


_B = ffi.new("dls_bench_params *")
lib.dls_bench_params_init(_B)


def _default_name(kernel: Any) -> str:
    """HOST-KERNEL, as the program names a processor (the callable's name when it is one)."""
    fn = getattr(kernel, "__name__", "")
    host = socket.gethostname().split(".")[0] or "localhost"
    return "%s-%s" % (host, fn if fn.isidentifier() else "python")


def _bench_params(kw: Dict[str, Any]):
    par = ffi.new("dls_bench_params *")
    lib.dls_bench_params_init(par)
    for field in ("min_size", "max_size", "memory_fraction", "precision", "confidence",
                  "size_time_cap", "time_budget", "accuracy", "resolution"):
        if kw[field] is not None:
            setattr(par, field, _args.real(kw[field], field))
    for field in ("min_reps", "max_reps", "initial_points", "max_points", "passes",
                  "max_model_points", "validate"):
        if kw[field] is not None:
            limit = 2 ** 32 - 1 if field in ("min_reps", "max_reps", "passes") else 2 ** 63 - 1
            setattr(par, field, _args.count(kw[field], field, 0, limit))
    return par


class _Memory:
    """A Python memory formula ``memory(size) -> bytes`` as the kernel's callback."""

    def __init__(self, fn: Optional[Callable[[float], float]]):
        self.fn, self.error, self.c = fn, None, ffi.NULL
        if fn is not None:
            if not callable(fn):
                raise _args.invalid("memory: a callable is needed, not %r" % (fn,))
            self.c = ffi.callback("double(double, void *)", self._call)

    def _call(self, size, data):
        try:
            return float(self.fn(size))
        except BaseException as e:  # noqa: B902 - raised again once the call returns
            self.error = self.error or e
            return float("nan")


def bench(kernel: Callable[[Any], Optional[float]], *, min_size: Optional[float] = _B.min_size,
          max_size: Optional[float] = None,
          memory: Optional[Callable[[float], float]] = None,
          memory_fraction: Optional[float] = _B.memory_fraction,
          precision: Optional[float] = _B.precision,
          confidence: Optional[float] = _B.confidence, min_reps: Optional[int] = _B.min_reps,
          max_reps: Optional[int] = _B.max_reps,
          size_time_cap: Optional[float] = _B.size_time_cap,
          initial_points: Optional[int] = int(_B.initial_points),
          max_points: Optional[int] = int(_B.max_points),
          time_budget: Optional[float] = _B.time_budget, passes: Optional[int] = _B.passes,
          accuracy: Optional[float] = _B.accuracy, resolution: Optional[float] = _B.resolution,
          max_model_points: Optional[int] = int(_B.max_model_points),
          validate: Optional[int] = int(_B.validate), integer_sizes: bool = False,
          name: Optional[str] = None,
          progress: Optional[Callable[[float], Any]] = None) -> Bench:
    """Measures the speed function of ``kernel`` on this machine (dls_bench_build).

    ``kernel(size)`` does the work of ``size`` units once (an int with ``integer_sizes``,
    else a float). Its time is measured around the call with ``time.perf_counter``, or,
    when it returns a number, that number is the time in seconds (a kernel that times
    only its own region, or a GPU kernel that synchronises and reads its events). The
    speed is size / time, units per second. A run should last well above the clock's
    resolution: repeat a short run in a loop and return the time divided.

    Args:
        kernel: the callable.
        min_size, max_size: the range of sizes, units (``max_size`` None or 0: the
            largest that fits ``memory_fraction`` of the memory available, which needs
            ``memory``).
        memory: ``memory(size) -> bytes`` the kernel needs at a size, or None.
        memory_fraction: share of the available memory a run may use.
        precision: relative half-width of each mean time's confidence interval, at the
            ``confidence`` level.
        min_reps, max_reps: runs per size (the warm-up run apart).
        size_time_cap: seconds spent at one size at most.
        initial_points: log-spaced sizes measured first.
        max_points: points measured at most; max_model_points: points the model keeps
            (0: the library's choice).
        time_budget: seconds for the whole build, 0 for none.
        passes: measure every point this many times, one pass after the other.
        accuracy: the model's relative accuracy; resolution: sizes closer than a factor
            1 + resolution are not told apart.
        validate: held-out sizes measured at the end and compared with the model.
        integer_sizes: sizes are whole numbers (rows, blocks).
        name: the processor's name (default HOST-NAME, as the program's HOST-KERNEL).
        progress: ``progress(fraction)`` before every run; a true return cancels
            (raises Canceled).

    Every default is the library's (dls_bench_params_init); None also means it.
    Returns a :class:`Bench`. An exception raised by ``kernel`` (or ``memory``, or
    ``progress``) stops the build and is raised again here, its ``__cause__`` the
    library's error naming the size (unless it had a cause of its own). Raises
    InvalidArgument for a bad parameter (the message names it).
    """
    if not callable(kernel):
        raise _args.invalid("kernel: a callable kernel(size) is needed, not %r" % (kernel,))
    par = _bench_params(dict(locals()))
    if not par.max_size and memory is None:
        raise _args.invalid("max_size: give the largest size to measure (a Python kernel "
                            "has no memory formula: give memory=f(size) -> bytes to take "
                            "what fits in the memory instead)")
    name = _default_name(kernel) if name is None else name
    if not isinstance(name, str) or not name:
        raise _args.invalid("name: a processor name is needed, not %r" % (name,))
    prog = _args.Progress(progress)
    par.progress = prog.c
    state, mem = _Kernel(kernel, bool(integer_sizes)), _Memory(memory)
    handle, cname = ffi.new_handle(state), ffi.new("char[]", name.encode("utf-8"))
    k = ffi.new("dls_kernel *")
    k.name, k.run, k.data = cname, lib.dls_py_kernel_run, handle
    k.integer_sizes, k.memory = 1 if integer_sizes else 0, mem.c
    out = ffi.new("dls_bench **")
    err = new_error()
    st = lib.dls_bench_build(k, par, out, err)
    try:
        _reraise(st, err, state.error or mem.error or prog.error)
        check(st, err)
        return Bench(out[0], name, float(par.accuracy))
    finally:
        if st == lib.DLS_OK:
            lib.dls_bench_free(out[0])


def _reraise(st: int, err, error: Optional[BaseException]) -> None:
    """The kernel's own exception, with the library's account as its cause."""
    if error is None:
        return
    cause: Optional[Error] = None
    if st != lib.DLS_OK:
        try:
            check(st, err)
        except Error as e:
            cause = e
    if error.__cause__ is None and cause is not None:
        raise error from cause
    raise error
