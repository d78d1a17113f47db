"""Geometric partitioning of a set of elements over the processors (dlsched/partition.h,
``dlsched partition``).

Processor i given x units of work takes t_i(x) = x / s_i(x) seconds (its speed function);
the partitioners find the distribution whose slowest processor finishes first, never
giving a processor more than its limit. Links play no part here (see ``schedule``).
"""

import os
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from ._dlsched import ffi, lib
from ._core import as_doubles, check, doubles, new_error, ptr_of, sizes, to_json_text, uint64s
from . import _args
from .platform import as_platform

__all__ = ["Partition", "partition", "partition_matrix", "partition_methods",
           "MAX_ELEMENTS"]

#: The largest number of elements the partitioners accept: 2^53.
MAX_ELEMENTS: int = int(lib.DLS_PARTITION_MAX_ELEMENTS)

def partition_methods() -> List[str]:
    """The names of the root-finding methods for equal elements, as ``method=`` takes them."""
    return _args.names_of(lib.dls_partition_method_name)


class Partition:
    """A distribution of elements over the processors (the result of :func:`partition`
    and :func:`partition_matrix`). Arrays are in platform order, shape (p,) unless said.

    Attributes:
        total: number of elements distributed (n).
        elements: uint64 array: the elements of each processor.
        sizes: float64 array: the size each processor's time is computed at (its elements,
            or the sum of its weights for weighted sets), in units of load.
        times: float64 array: each processor's predicted time in seconds (0 when unused).
        ideal: float64 array: the continuous optimum's size of each processor.
        first: ordered sets: uint64 array, the index of each processor's first element
            (its chunk is [first, first + elements)); None otherwise.
        order: ordered sets with ``reorder``: int64 array, the processors in chunk order;
            None otherwise.
        assignment: weighted unordered sets: int64 array of shape (n,), the processor of
            each element; None otherwise.
        makespan: the largest predicted time in seconds (inf when infeasible).
        lower_bound: a lower bound on the optimal makespan in seconds.
        gap: (makespan - lower_bound) / lower_bound (0 when the bound is 0).
        status: "optimal", "feasible", "infeasible" or "not-found".
        note: a sentence on what limits the answer (infeasibility, a broken shape), or "".
        steps: root-finding steps taken.
        metric: the quality metric's value (deviation from the ideal distribution).
        shape_ok: every speed function keeps the shape assumption where it matters.
        exact: the rows were placed by the exact row programme (matrix partitions).
        capacity: the sum of the limits in elements (or weight); inf without limits.
        weighted: the elements had weights.
        matrix: the matrix order n for :func:`partition_matrix`, else None.
        platform: the :class:`Platform` partitioned over.
        source: the platform's path when it was given as one, else None (the program's
            JSON quotes it in its "links" sentence).
    """

    def __init__(self, platform: Any, r, weighted: bool, matrix: Optional[int],
                 source: Optional[str]) -> None:
        p, n = int(lib.dls_partition_count(r)), int(lib.dls_partition_total(r))
        self.platform, self.source, self.weighted, self.matrix = platform, source, weighted, matrix
        self.total = n
        # one copy of each array, straight from the C memory (no loop over processors)
        self.elements = uint64s(lib.dls_partition_elements(r), p)
        self.sizes = doubles(lib.dls_partition_sizes(r), p)
        self.times = doubles(lib.dls_partition_times(r), p)
        self.ideal = doubles(lib.dls_partition_ideal(r), p)
        first = lib.dls_partition_first(r)
        self.first: Optional[np.ndarray] = uint64s(first, p) if first != ffi.NULL else None
        order = lib.dls_partition_order(r)
        self.order: Optional[np.ndarray] = sizes(order, p) if order != ffi.NULL else None
        assign = lib.dls_partition_assignment(r)
        self.assignment: Optional[np.ndarray] = (sizes(assign, n) if assign != ffi.NULL
                                                 else None)
        self.makespan = float(lib.dls_partition_makespan(r))
        self.lower_bound = float(lib.dls_partition_lower_bound(r))
        self.gap = float(lib.dls_partition_gap(r))
        self.status: str = _args.status_name(lib.dls_partition_status(r))
        self.note: str = _args.name_text(lib.dls_partition_note(r))
        self.steps = int(lib.dls_partition_steps(r))
        self.metric = float(lib.dls_partition_metric_value(r))
        self.shape_ok = bool(lib.dls_partition_shape_ok(r))
        self.exact = bool(lib.dls_partition_exact_used(r))
        self.capacity = float(lib.dls_partition_capacity(r))

    def __len__(self) -> int:
        """The number of processors."""
        return self.elements.shape[0]

    def __repr__(self) -> str:
        return "<dlsched.Partition of %d elements over %d processors: makespan %.6g s, %s>" % (
            self.total, len(self), self.makespan, self.status)

    def links(self) -> Optional[str]:
        """The program's sentence on the platform's links, which the partition problem
        leaves out (the "links" key of its JSON); None when no link costs anything."""
        return _links_note(self)

    def to_dict(self) -> Dict[str, Any]:
        """The result as ``dlsched partition --json`` writes it (same keys, same order)."""
        d: Dict[str, Any] = {
            "elements": self.total, "makespan": _args.number(self.makespan),
            "lower_bound": _args.number(self.lower_bound), "gap": _args.number(self.gap),
            "status": self.status, "steps": self.steps,
            "metric": _args.number(self.metric), "shape_ok": self.shape_ok,
            "exact": self.exact}
        if self.matrix is not None:
            d["matrix"] = self.matrix
        if self.note:
            d["note"] = self.note
        links = self.links()
        if links is not None:
            d["links"] = links
        names = _names(self.platform)
        if self.order is not None:
            d["order"] = [names[i] for i in self.order.tolist()]
        if self.assignment is not None:
            d["assignment"] = self.assignment.tolist()
        d["processors"] = _processors(self, names)
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _names(platform: Any) -> List[str]:
    # as the program writes them: stray bytes as \xNN
    ptr = platform._ptr
    return [_args.name_text(lib.dls_platform_name(ptr, i)) for i in range(len(platform))]


def _processors(r: Partition, names: List[str]) -> List[Dict[str, Any]]:
    els, times = r.elements.tolist(), r.times.tolist()
    sizes_ = r.sizes.tolist() if r.weighted else None
    first = r.first.tolist() if r.first is not None else None
    out = []
    for i, name in enumerate(names):
        o = {"name": name, "elements": els[i], "time": _args.number(times[i])}
        if sizes_ is not None:
            o["weight"] = _args.number(sizes_[i])
        if first is not None:
            o["first"] = first[i]
        out.append(o)
    return out


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _links_note(r: Partition) -> Optional[str]:
    """tool/cmd_partition.c's links_note, word for word."""
    ptr, p = r.platform._ptr, len(r)
    S, C = ffi.new("double *"), ffi.new("double *")
    linked, worst, longest = 0, p, -1.0
    els = r.elements.tolist()
    for i in range(p):
        if (not lib.dls_platform_has_link(ptr, i)
                or lib.dls_platform_link(ptr, i, S, C) != lib.DLS_OK
                or (S[0] == 0 and C[0] == 0)):
            continue
        linked += 1
        t = S[0] + C[0] * float(els[i]) if els[i] > 0 else 0.0
        if t > longest:
            longest, worst = t, i
    if linked == 0:
        return None
    parts = ["%d of %d %s %s a link, which the partition problem leaves out (the data are "
             "taken to be where they are computed)" % (linked, p, _plural(p, "processor",
                                                                          "processors"),
                                                       _plural(linked, "has", "have"))]
    if worst < p and longest > 0:
        parts.append(": sending \"%s\" its %d %s alone would take %.3g s, against a "
                     "makespan of %.3g s here"
                     % (_args.name_text(lib.dls_platform_name(ptr, worst)), els[worst],
                        _plural(els[worst], "element", "elements"), longest, r.makespan))
    parts.append("; `dlsched schedule %s --load %d` schedules the sends too"
                 % (r.source if r.source is not None else "PLATFORM", r.total))
    return _in_buffer(parts, 1024)


def _in_buffer(parts: List[str], size: int) -> str:
    """The parts as the program's snprintf calls put them in a buffer of ``size`` bytes:
    each after the first only while the text so far fits, the whole cut to size - 1."""
    out = b""
    for k, part in enumerate(parts):
        if k > 0 and len(out) >= size:
            break
        out += part.encode("utf-8")
    return out[:size - 1].decode("utf-8", "backslashreplace")


class _Metric:
    """A Python quality metric as the library's callback: ``fn(speeds, actual, ideal)``
    with three float64 arrays of shape (p,), returning a float (smaller is better)."""

    def __init__(self, fn: Optional[Callable[..., float]]):
        self.fn, self.error, self.c = fn, None, ffi.NULL
        if fn is not None:
            if not callable(fn):
                raise _args.invalid("metric: a callable is needed, not %r" % (fn,))
            self.c = ffi.callback("double(size_t, const double *, const double *, "
                                  "const double *, void *)", self._call)

    def _call(self, p, speeds, actual, ideal, data):
        try:
            return float(self.fn(doubles(speeds, p), doubles(actual, p), doubles(ideal, p)))
        except BaseException as e:  # noqa: B902 - raised again once the call returns
            self.error = e
            return float("nan")

    def reraise(self) -> None:
        if self.error is not None:
            e, self.error = self.error, None
            raise e


def _source_of(platform: Any) -> Optional[str]:
    if isinstance(platform, (str, bytes, os.PathLike)):
        return os.fsdecode(platform)
    return None


def _params(use_limits: bool, ordered: bool, reorder: bool, method: Optional[str],
            max_moves: Optional[int], exact: Optional[str]):
    par = ffi.new("dls_partition_params *")
    lib.dls_partition_params_init(par)
    par.use_limits = 1 if use_limits else 0
    par.ordered = 1 if ordered else 0
    par.reorder = 1 if reorder else 0
    if reorder and not ordered:  # the program's rule: --reorder needs --ordered
        raise _args.invalid("reorder=True applies to ordered sets: give ordered=True too")
    if method is not None:
        par.method = _args.choice(method, "method", lib.dls_partition_method_from_name,
                                  "dls_partition_method", lib.dls_partition_method_name)
    if max_moves is not None:
        par.max_moves = _args.count(max_moves, "max_moves", 0, 2 ** 63 - 1)
    if exact is not None:
        par.exact = _args.choice(exact, "exact", lib.dls_partition_exact_from_name,
                                 "dls_partition_exact", lib.dls_partition_exact_name)
    return par


def _solve(solve_fn, platform: Any, n: int, par, metric, weighted: bool,
           matrix: Optional[int]) -> Partition:
    pl = as_platform(platform)
    m = _Metric(metric)
    par.metric = m.c
    out = ffi.new("dls_partition **")
    err = new_error()
    st = solve_fn(pl._ptr, n, par, out, err)
    try:
        m.reraise()  # the metric's own exception first: the call went on without it
        check(st, err)
        return Partition(pl, out[0], weighted, matrix, _source_of(platform))
    finally:
        if st == lib.DLS_OK:
            lib.dls_partition_free(out[0])


def partition(platform: Any, n: Optional[int] = None, *, weights: Any = None,
              ordered: bool = False, reorder: bool = False, use_limits: bool = True,
              method: Optional[str] = None, max_moves: Optional[int] = None,
              metric: Optional[Callable[[np.ndarray, np.ndarray, np.ndarray], float]] = None
              ) -> Partition:
    """Distributes ``n`` elements (or weighted elements) over the processors so that the
    slowest finishes first, each within its limit.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes (a path, a dict).
            Every processor needs a 1-D model.
        n: number of equal elements, 0 to :data:`MAX_ELEMENTS` (2^53); may be left out
            with ``weights``, else it must equal their number.
        weights: weighted elements: a float64 array of shape (n,), each finite and > 0,
            in the models' size unit. Unordered sets get a heuristic with a proven lower
            bound (see ``gap``); ordered sets the optimum, or valid chunks with a note.
        ordered: each processor gets one contiguous chunk (``first`` in the result).
        reorder: with ``ordered``, the chunks may follow another processor order.
        use_limits: respect each processor's limit (True, the default).
        method: equal elements' root finding, "newton" (the library's default) or
            "bisection" (see :func:`partition_methods`).
        max_moves: bound on the weighted heuristics' improvement moves (default 100000).
        metric: the quality metric, ``metric(speeds, actual, ideal) -> float`` on float64
            arrays of shape (p,); default the weighted Euclidean deviation.

    Returns a :class:`Partition`, also when the limits cannot hold the set (its status is
    then "infeasible", its makespan inf). Raises InvalidArgument for a bad argument (a
    2-D model, a weight that is not finite and > 0, n too large), OutOfMemory.
    """
    w = None
    if weights is not None:
        w = as_doubles(weights, "weights")
        if n is not None and _args.count(n, "n", 0) != w.shape[0]:
            raise _args.invalid("n is %d but weights holds %d values" % (n, w.shape[0]))
        n = w.shape[0]
    elif n is None:
        raise _args.invalid("partition: give n (the number of elements) or weights")
    n = _args.count(n, "n", 0, MAX_ELEMENTS)
    par = _params(use_limits, ordered, reorder, method, max_moves, None)
    par.weights = ptr_of(w) if w is not None else ffi.NULL
    return _solve(lib.dls_partition_solve, platform, n, par, metric, w is not None, None)


def partition_matrix(platform: Any, n: int, *, exact: Optional[str] = None,
                     use_limits: bool = True, method: Optional[str] = None,
                     metric: Optional[Callable[[np.ndarray, np.ndarray, np.ndarray], float]]
                     = None) -> Partition:
    """Distributes the ``n`` rows of an n x n matrix product (Lastovetsky and Reddy 2007a,
    section 3.2): processor i given r rows takes r n^2 / s_i(n, r) seconds, its 2-D speed
    cut at x = n (1-D models: the speed of n r elements); never more than floor(limit) rows.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        n: the matrix order (rows), 1 to :data:`MAX_ELEMENTS`.
        exact: "auto" (the library's default: the geometric algorithm where every shape
            holds, else the exact row programme), "always" (the programme; LimitExceeded
            past its bounds) or "never" (the geometric algorithm).
        use_limits, method, metric: as for :func:`partition`.

    Returns a :class:`Partition` (``matrix`` is n, ``exact`` says which algorithm ran).
    """
    n = _args.count(n, "n", 1, MAX_ELEMENTS)
    par = _params(use_limits, False, False, method, None, exact)
    return _solve(lib.dls_partition_solve_matrix, platform, n, par, metric, False, n)
