"""Column distributions for parallel LU factorization (dlsched/lu.h, ``dlsched lu``).

At step k of a right-looking factorization of n column panels, each processor updates
the columns it owns in the trailing matrix; the step lasts as long as its slowest
processor, and a distribution costs the sum of its steps (seconds).
"""

import math
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ._dlsched import ffi, lib
from ._core import check, new_error, doubles, uint64s, sizes, ptr_of, to_json_text
from . import _args
from .errors import LimitExceeded
from .platform import as_platform

__all__ = ["LU", "LUComparison", "lu", "lu_compare", "lu_evaluate", "lu_algorithms",
           "lu_heuristics"]


def lu_algorithms() -> List[str]:
    """The names of the distribution algorithms, as ``algorithm=`` takes them."""
    return _args.names_of(lib.dls_lu_algorithm_name)


def lu_heuristics() -> List[str]:
    """The names of Functional Reverse's group orders, as ``heuristic=`` takes them."""
    return _args.names_of(lib.dls_lu_heuristic_name)


class LU:
    """A column distribution (the result of :func:`lu`).

    Attributes:
        columns: number of column panels n.
        algorithm: the algorithm's name ("fr", "exact", ...).
        heuristic: Functional Reverse's group order ("auto", ...); None for the others.
        status: "optimal", "feasible", "infeasible" or "not-found".
        cost: the total cost in seconds (inf without a distribution).
        lower_bound: a lower bound on the optimal cost in seconds (nan when none).
        gap: (cost - lower_bound) / lower_bound (nan without a bound).
        groups: column groups (see dlsched/lu.h's dls_lu_groups).
        states: states examined by the exact method or exhaustive group searches.
        note: a sentence on what limits the answer, or "".
        counts: uint64 array of shape (p,): the columns each processor owns.
        owners: int64 array of shape (n,): owners[j] owns column j + 1 (empty without a
            distribution).
        step_costs: float64 array of shape (n - 1,): the cost of steps 1 .. n-1 in seconds
            (empty for n = 1 or without a distribution).
        platform: the Platform distributed over.
    """

    def __init__(self, platform: Any, r) -> None:
        n, p = int(lib.dls_lu_columns(r)), int(lib.dls_lu_count(r))
        alg = lib.dls_lu_get_algorithm(r)
        self.platform = platform
        self.columns = n
        self.algorithm: str = ffi.string(lib.dls_lu_algorithm_name(alg)).decode()
        self.heuristic: Optional[str] = None
        if alg == lib.DLS_LU_FR:
            self.heuristic = ffi.string(
                lib.dls_lu_heuristic_name(lib.dls_lu_get_heuristic(r))).decode()
        self.status: str = _args.status_name(lib.dls_lu_status(r))
        self.cost = float(lib.dls_lu_cost(r))
        self.lower_bound = float(lib.dls_lu_lower_bound(r))
        self.gap = float(lib.dls_lu_gap(r))
        self.groups = int(lib.dls_lu_groups(r))
        self.states = int(lib.dls_lu_states(r))
        self.note: str = _args.name_text(lib.dls_lu_note(r))
        self.counts = uint64s(lib.dls_lu_counts(r), p)
        own = lib.dls_lu_owners(r)
        self.owners = sizes(own, n) if own != ffi.NULL else np.zeros(0, dtype=np.int64)
        steps = lib.dls_lu_step_costs(r)
        self.step_costs = doubles(steps, n - 1) if steps != ffi.NULL else np.zeros(0)

    def __repr__(self) -> str:
        return "<dlsched.LU %s: %d columns, cost %.6g s, %s>" % (
            self.algorithm, self.columns, self.cost, self.status)

    def to_dict(self) -> Dict[str, Any]:
        """The result as ``dlsched lu --json`` writes it (same keys, same order)."""
        names = self.platform.names
        d: Dict[str, Any] = {"columns": self.columns, "algorithm": self.algorithm}
        if self.heuristic is not None:
            d["heuristic"] = self.heuristic
        d["cost"] = _args.number(self.cost)
        d["status"] = self.status
        d["lower_bound"] = _args.number(self.lower_bound)
        d["gap"] = _args.number(self.gap)
        d["groups"] = self.groups
        if self.note:
            d["note"] = self.note
        d["counts"] = {names[i]: int(c) for i, c in enumerate(self.counts)}
        d["owners"] = [names[i] for i in self.owners]
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _params(algorithm, heuristic, use_limits, max_memory, max_group_states):
    par = ffi.new("dls_lu_params *")
    lib.dls_lu_params_init(par)
    if algorithm is not None:
        par.algorithm = _args.choice(algorithm, "algorithm", lib.dls_lu_algorithm_from_name,
                                     "dls_lu_algorithm", lib.dls_lu_algorithm_name)
    if heuristic is not None:
        # as the program says: only Functional Reverse orders groups
        if par.algorithm != lib.DLS_LU_FR:
            raise _args.invalid("heuristic applies to Functional Reverse (algorithm='fr'), "
                                "not to algorithm=%r" % (algorithm,))
        par.heuristic = _args.choice(heuristic, "heuristic", lib.dls_lu_heuristic_from_name,
                                     "dls_lu_heuristic", lib.dls_lu_heuristic_name)
    par.use_limits = 1 if use_limits else 0
    if max_memory is not None:
        par.max_memory = _args.count(max_memory, "max_memory", 1, 2 ** 63 - 1)
    if max_group_states is not None:
        par.max_group_states = _args.count(max_group_states, "max_group_states", 1,
                                           2 ** 63 - 1)
    return par


def _distribute(pl: Any, n: int, par, prog: "_args.Progress") -> LU:
    out = ffi.new("dls_lu **")
    err = new_error()
    st = lib.dls_lu_distribute(pl._ptr, n, par, out, err)
    try:
        prog.reraise()  # the callback's own exception rather than Canceled
        check(st, err)
        return LU(pl, out[0])
    finally:
        if st == lib.DLS_OK:
            lib.dls_lu_free(out[0])


def lu(platform: Any, n: int, *, algorithm: Optional[str] = None,
       heuristic: Optional[str] = None, use_limits: bool = True,
       max_memory: Optional[int] = None, max_group_states: Optional[int] = None,
       progress: Optional[Callable[[float], Any]] = None) -> LU:
    """Distributes ``n`` column panels over the processors for parallel LU factorization.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes (a path, a dict).
        n: number of column panels, >= 1.
        algorithm: "gb", "dp", "reverse" (constant speeds), "fr" (the library's default),
            "fdp", "fgb" or "exact" (see :func:`lu_algorithms`); None for the default.
        heuristic: with "fr", the order of a group of columns assigned together ("auto",
            the default, "cycl", "ftos", "stof", "dflt", "exhaustive").
        use_limits: a processor owns at most floor(limit) columns (True, the default).
        max_memory: bytes the exact method may use (default 1 GiB).
        max_group_states: largest exhaustive search of one group (default 10^6).
        progress: called now and then with the fraction done; a true return stops the
            computation and raises :class:`Canceled`.

    Returns an :class:`LU`, also when the limits cannot hold the columns (its status then
    says "infeasible"). Raises InvalidArgument (bad argument), LimitExceeded (the exact
    method or an exhaustive search past its cap), Canceled, OutOfMemory.
    """
    pl = as_platform(platform)
    n = _args.count(n, "n", 1)
    par = _params(algorithm, heuristic, use_limits, max_memory, max_group_states)
    prog = _args.Progress(progress)
    par.progress = prog.c
    return _distribute(pl, n, par, prog)


class LUComparison:
    """Every algorithm of :func:`lu` on one problem (the result of :func:`lu_compare`).

    Attributes:
        columns: number of column panels n.
        results: dict from algorithm name to its :class:`LU`, or to None where the exact
            method was out of reach (``notes`` says why).
        seconds: dict from algorithm name to its run time in seconds (measured).
        notes: dict from algorithm name to the reason it was not computed.
        exact_cost: the optimum in seconds (nan when the exact method did not run).
        lower_bound: the best lower bound of the other algorithms in seconds (nan if none).
    """

    def __init__(self, n: int) -> None:
        self.columns = n
        self.results: Dict[str, Optional[LU]] = {}
        self.seconds: Dict[str, float] = {}
        self.notes: Dict[str, str] = {}
        self.exact_cost = math.nan
        self.lower_bound = math.nan

    @property
    def reference(self) -> float:
        """What gaps are measured against: the optimum, else the best lower bound."""
        return self.lower_bound if math.isnan(self.exact_cost) else self.exact_cost

    def gap(self, algorithm: str) -> float:
        """(cost - reference) / reference for ``algorithm`` (nan when unknown)."""
        r, ref = self.results.get(algorithm), self.reference
        return (r.cost - ref) / ref if r is not None and ref > 0 else math.nan

    def to_dict(self) -> Dict[str, Any]:
        """The comparison as ``dlsched lu --compare --json`` writes it (the "seconds" are
        this run's own measurements)."""
        rows = []
        for name, r in self.results.items():
            o: Dict[str, Any] = {"algorithm": name}
            if r is None:
                o.update(cost=None, note=self.notes[name])
            else:
                o.update(cost=_args.number(r.cost), seconds=_args.number(self.seconds[name]),
                         gap=_args.number(self.gap(name)), status=r.status)
                if r.note:
                    o["note"] = r.note
            rows.append(o)
        return {"columns": self.columns, "exact_cost": _args.number(self.exact_cost),
                "lower_bound": _args.number(self.lower_bound),
                "gap_to": "lower_bound" if math.isnan(self.exact_cost) else "exact",
                "results": rows}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def lu_compare(platform: Any, n: int, *, use_limits: bool = True,
               max_memory: Optional[int] = None, max_group_states: Optional[int] = None
               ) -> LUComparison:
    """Runs every algorithm of :func:`lu` on ``n`` columns (``dlsched lu --compare``): their
    costs, run times and gaps to the optimum (or to the best lower bound where the exact
    method is refused past ``max_memory``, which is part of the answer, not an error).
    Keywords as for :func:`lu`."""
    pl = as_platform(platform)
    n = _args.count(n, "n", 1)
    c = LUComparison(n)
    for name in lu_algorithms():
        par = _params(name, None, use_limits, max_memory, max_group_states)
        t0 = time.perf_counter()
        try:
            r: Optional[LU] = _distribute(pl, n, par, _args.Progress(None))
        except LimitExceeded as e:
            r = None
            c.notes[name] = e.message
        c.seconds[name] = time.perf_counter() - t0
        c.results[name] = r
        if r is None:
            continue
        if name == "exact":
            c.exact_cost = r.cost
        elif math.isnan(c.lower_bound) or r.lower_bound > c.lower_bound:
            c.lower_bound = r.lower_bound
    return c


def lu_evaluate(platform: Any, owners: Sequence[int]) -> Tuple[float, np.ndarray]:
    """The cost of a given column distribution under the model of :func:`lu`.

    ``owners``: n processor indices (owners[j] owns column j + 1), an integer array of
    shape (n,) with n >= 1. Returns (cost in seconds, float64 array of shape (n - 1,) with
    the cost of steps 1 .. n-1).
    """
    pl = as_platform(platform)
    own = np.asarray(owners)
    if own.ndim != 1 or own.size == 0 or own.dtype.kind not in "iu":
        raise _args.invalid("owners: a non-empty one-dimensional array of processor "
                            "indices is needed")
    if own.min() < 0:
        raise _args.invalid("owners: index %d is negative" % own.min())
    own = np.ascontiguousarray(own, dtype=np.uintp)
    n = own.shape[0]
    steps = np.zeros(n - 1, dtype=np.float64)
    cost = ffi.new("double *")
    err = new_error()
    check(lib.dls_lu_evaluate(pl._ptr, n, ptr_of(own, "size_t[]"), cost,
                              ptr_of(steps), err), err)
    return float(cost[0]), steps
