"""Divisible-load scheduling on a star network (dlsched/schedule.h, ``dlsched schedule``,
``dlsched evaluate``, ``dlsched export``).

An originator holds V units of load and sends each processor its share in turn, one send
at a time (startup + rate x share seconds over its link); each processor computes once its
data has arrived. :func:`schedule` finds the loads of least makespan (the chain solver,
exact, by default; GLPK's simplex on request; whole-unit loads or a MIP), :func:`evaluate`
replays loads you give, :func:`curve` gives the makespan as a function of the load, and
:func:`export_lp` writes the LP for other solvers.
"""

import json
import math
import os
import warnings
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

import numpy as np

from ._dlsched import ffi, lib
from ._core import (as_doubles, check, doubles, ints, new_error, path_bytes, ptr_of, sizes,
                    take_string, text_or_file, to_json_text)
from . import _args
from .errors import InputOutputError, MalformedInput
from .platform import Platform, as_platform

__all__ = ["Schedule", "Curve", "schedule", "evaluate", "curve", "export_lp",
           "measured", "Measurement", "compare_measured", "send_orders", "star_solvers",
           "export_formats"]

#: An order as :func:`schedule` takes it: "given", "rate", "best", or the processors in
#: the order they are served (names or platform indices, every processor once).
Order = Union[None, str, Sequence[Union[str, int]], np.ndarray]

# tool/cmd_schedule.c: --mip auto tries the MIP on platforms of at most this many processors
_MIP_AUTO_PROCESSORS = 8
# tool/cmd_schedule.c: --curve's range by default, V / 100 to 2 V (within the capacity)
_CURVE_FROM_DIVISOR, _CURVE_TO_FACTOR = 100, 2
# the CLI's reason for refusing "best" where one order is evaluated or exported
_NO_BEST = ("the best order is searched by schedule(order=\"best\"); give here the order it "
            "found (its sequence), as a list of names")


def send_orders() -> List[str]:
    """The keywords ``order=`` takes: "given", "rate", "best" (and "sequence", which stands
    for a list of processors)."""
    return _args.names_of(lib.dls_send_order_name)


def star_solvers() -> List[str]:
    """The names ``solver=`` takes: "chain" (the default, exact) and "glpk"."""
    return _args.names_of(lib.dls_star_solver_name)


def export_formats() -> List[str]:
    """The names ``export_lp(format=...)`` takes: "lp", "mps", "glpk", "mathprog"."""
    return _args.names_of(lib.dls_export_format_name)


def _text(ptr) -> str:
    return "" if ptr == ffi.NULL else _args.name_text(ptr)


def _names(pl: Platform) -> List[str]:
    return [_args.name_text(lib.dls_platform_name(pl._ptr, i)) for i in range(len(pl))]


class _Order:
    """``order=`` read against the platform: the enum, the sequence array (kept alive while
    the call runs) and what the program's JSON says was asked ("best", "list"; None when
    the report says nothing of the order)."""

    def __init__(self, pl: Platform, order: Order, allow_best: bool):
        self.value, self.seq, self.asked = None, None, None
        if order is None:
            return
        if isinstance(order, str):
            out = ffi.new("dls_send_order *")
            if (order != "sequence"
                    and lib.dls_send_order_from_name(order.encode(), out) == lib.DLS_OK):
                self._keyword(int(out[0]), allow_best)
                return
            if "," not in order and order not in pl:
                raise _args.invalid("order: %r is not given, rate%s, a processor's name or a "
                                    "list of them" % (order, ", best" if allow_best else ""))
            # the program's list form NAME,NAME,... (one trailing comma allowed); a single
            # name is the order of a one-processor platform
            order = order[:-1].split(",") if order.endswith(",") else order.split(",")
        self._sequence(pl, order)

    def _keyword(self, value: int, allow_best: bool) -> None:
        if value == lib.DLS_ORDER_BEST and not allow_best:
            raise _args.invalid("order=\"best\": " + _NO_BEST)
        self.value = value
        if value == lib.DLS_ORDER_BEST:
            self.asked = "best"

    def _sequence(self, pl: Platform, order: Any) -> None:
        p = len(pl)
        if isinstance(order, np.ndarray) and order.dtype.kind in "iu":
            idx = order.astype(np.int64, copy=False).ravel()
        else:
            idx = np.array([self._index(pl, x) for x in order], dtype=np.int64)
        if idx.size and (idx.min() < 0 or idx.max() >= p):
            raise _args.invalid("order: index %d is not a processor (0 to %d)"
                                % (int(idx[(idx < 0) | (idx >= p)][0]), p - 1))
        seen = np.bincount(idx, minlength=p) if idx.size else np.zeros(p, dtype=np.int64)
        if (seen > 1).any():
            raise _args.invalid("order: %r is named twice; each processor is served once"
                                % pl.names[int(np.argmax(seen > 1))])
        if (seen == 0).any():
            left = [pl.names[i] for i in np.flatnonzero(seen == 0)[:8].tolist()]
            raise _args.invalid("order leaves out %d of the %d processors: %s (name every "
                                "processor once)" % (int((seen == 0).sum()), p,
                                                     ", ".join(map(repr, left))))
        self.value, self.asked = lib.DLS_ORDER_SEQUENCE, "list"
        self.seq = idx.astype(np.uintp)

    @staticmethod
    def _index(pl: Platform, x: Any) -> int:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            return int(x)
        if isinstance(x, str):
            for name in (x, x.strip()):  # as the program: the name, or it without blanks
                if name in pl:
                    return pl.index(name)
            raise _args.invalid("order: no processor is named %r" % (x,))
        raise _args.invalid("order: a processor's name or index is needed, not %r" % (x,))

    def apply(self, par) -> None:
        if self.value is None:
            return
        par.order = self.value
        if self.seq is not None:
            par.sequence = ffi.cast("const size_t *", ptr_of(self.seq, "size_t[]"))
            par.sequence_count = self.seq.shape[0]


def _flag(par, field: str, value: Optional[bool]) -> None:
    if value is not None:
        setattr(par, field, 1 if value else 0)


def _seconds(value: Any, name: str) -> float:
    v = _args.real(value, name)
    if not 0 < v <= lib.DLS_TIME_LIMIT_MAX:
        raise _args.invalid("%s must be in (0, %g] seconds, not %r"
                            % (name, lib.DLS_TIME_LIMIT_MAX, value))
    return v


def _load(value: Any, name: str = "load") -> float:
    v = _args.real(value, name)
    if not (math.isfinite(v) and v > 0):
        raise _args.invalid("%s must be a finite number of units > 0, not %r" % (name, value))
    return v


def _params(pl: Platform, order: Order, allow_best: bool, *, originator_computes=None,
            use_limits=None, drop_unused=None, exact=None, solver=None, max_pieces=None,
            time_limit=None, iteration_limit=None, order_exact_max=None,
            order_candidates=None, order_time_limit=None, check_tol=None, verbose=None):
    """A dls_schedule_params: the library's defaults, then the keywords given (None: the
    default). Returns it with the _Order that must outlive the call."""
    par = ffi.new("dls_schedule_params *")
    lib.dls_schedule_params_init(par)
    ordr = _Order(pl, order, allow_best)
    ordr.apply(par)
    _flag(par, "originator_computes", originator_computes)
    _flag(par, "use_limits", use_limits)
    _flag(par, "drop_unused", drop_unused)
    _flag(par, "exact", exact)
    _flag(par, "verbose", verbose)
    if solver is not None:
        par.solver = _args.choice(solver, "solver", lib.dls_star_solver_from_name,
                                  "dls_star_solver", lib.dls_star_solver_name)
    elif exact:  # as the program: --exact certifies GLPK's basis, so it picks GLPK
        par.solver = lib.DLS_SOLVER_GLPK
    if max_pieces is not None:
        par.max_pieces = _args.count(max_pieces, "max_pieces", 16, 2 ** 63 - 1)
    if time_limit is not None:
        par.time_limit = _seconds(time_limit, "time_limit")
    if iteration_limit is not None:
        par.iteration_limit = _args.count(iteration_limit, "iteration_limit", 0, 2 ** 32 - 1)
    if order_exact_max is not None:
        par.order_exact_max = _args.count(order_exact_max, "order_exact_max", 1,
                                          lib.DLS_ORDER_EXACT_MAX)
    if order_candidates is not None:
        par.order_max_candidates = _args.count(order_candidates, "order_candidates", 1,
                                               2 ** 63 - 1)
    if order_time_limit is not None:
        par.order_time_limit = _seconds(order_time_limit, "order_time_limit")
    if check_tol is not None:
        par.check_tol = _args.real(check_tol, "check_tol")
    return par, ordr


def _solver_info(s) -> Optional[Dict[str, Any]]:
    si = ffi.new("dls_schedule_solver_info *")
    if lib.dls_schedule_get_solver_info(s, si, ffi.NULL) != lib.DLS_OK:
        return None
    return {
        "solver": ffi.string(lib.dls_star_solver_name(si.solver)).decode(),
        "selection": bool(si.selection), "optimal": bool(si.optimal),
        "passes": int(si.passes), "lower_bound": float(si.lower_bound),
        "marginal_left": float(si.marginal_left), "marginal_right": float(si.marginal_right),
        "used": int(si.used), "pieces_total": int(si.pieces_total),
        "pieces_max": int(si.pieces_max), "flushed": int(si.flushed),
        "order_method": ffi.string(lib.dls_order_method_name(si.order_method)).decode(),
        "order_optimal": bool(si.order_optimal),
        "given_makespan": float(si.given_makespan), "rate_makespan": float(si.rate_makespan),
        "order_lower_bound": float(si.order_lower_bound),
        "order_candidates": int(si.order_candidates)}


def _mip_info(s) -> Optional[Dict[str, Any]]:
    mi = ffi.new("dls_schedule_mip_info *")
    if lib.dls_schedule_get_mip_info(s, mi, ffi.NULL) != lib.DLS_OK:
        return None
    d = {k: float(getattr(mi, k)) for k in ("lp_makespan", "lp_true_makespan",
                                             "rounded_makespan", "mip_makespan", "mip_bound",
                                             "mip_seconds", "lower_bound")}
    d["mip_status"] = (_args.status_name(mi.mip_status)
                       if mi.mip_status != lib.DLS_SOLUTION_NONE else None)
    d["mip_relaxed"] = bool(mi.mip_relaxed)
    return d


def _certificate(s, names_of: Callable[[], List[str]]) -> Optional[Dict[str, Any]]:
    """The rational certificate as the program's JSON gives it (exact fractions as text)."""
    def item(kind, i=0):
        return _text(lib.dls_schedule_certificate(s, kind, i)) or None
    if item(lib.DLS_CERTIFICATE_MAKESPAN) is None:
        return None
    procs = []
    for i, name in enumerate(names_of()):
        load = item(lib.DLS_CERTIFICATE_LOAD, i)
        if load is not None:  # None: not in the LP (dropped)
            procs.append({"name": name, "load": load,
                          "finish_weight": item(lib.DLS_CERTIFICATE_FINISH_WEIGHT, i),
                          "limit_price": item(lib.DLS_CERTIFICATE_LIMIT_PRICE, i)})
    return {"makespan": item(lib.DLS_CERTIFICATE_MAKESPAN),
            "load_price": item(lib.DLS_CERTIFICATE_LOAD_PRICE), "processors": procs}


class Schedule:
    """A schedule of a divisible load over a star (from :func:`schedule` or
    :func:`evaluate`). Arrays are float64 in platform order, shape (p,), unless said.

    Attributes:
        load: the total load V in units.
        makespan: when the last processor finishes, in seconds, under the true models (inf
            when infeasible).
        status: "optimal", "feasible" (an evaluation, or not proven best) or "infeasible"
            (the limits cannot hold the load: loads and times are then not meaningful).
        kind: which call made it: "lp" (solved), "evaluated", "integer" or "mip".
        loads: each processor's load in units (whole numbers for ``integer=True``).
        send_start, send_end: when its send starts and ends, in seconds (NaN when it is sent
            nothing).
        compute_time: its computation in seconds; finish: when it finishes (0 when unused);
        idle: makespan - finish, in seconds.
        levels: int32 array: the 1-based time line (memory level) that binds, 0 for speed
            models and unused processors.
        sequence: the processors' names in the order they are served.
        sequence_index: int64 array of shape (p,): the same as platform indices.
        paper_makespan: the makespan of the paper's LP, every processor charged (s).
        true_makespan: the makespan of the loads under the true models (s; = makespan).
        lp_makespan: the LP's own makespan on the speed models' envelopes (s; NaN for an
            evaluated, integer or MIP schedule).
        envelope_deviation: the largest relative deviation of the envelopes used.
        iterations, solves: GLPK's simplex iterations and LP solves (0 and 1 for the chain).
        residual: the largest relative residual of the answer's checks.
        kkt_primal, kkt_dual: GLPK's largest relative KKT residuals (0 for the chain).
        capacity: the sum of the limits in units (inf without limits).
        exact_verified: glp_exact confirmed the optimum (``exact=True``).
        certificate: ``exact=True`` with GMP: the rational certificate as a dict of exact
            fractions in text ("p/q"), as the program's JSON gives it; else None.
        solver_info: how a solved schedule was found (solver, optimal, lower_bound,
            marginal_left/right in s per unit, used, pieces, the order search's figures), a
            dict; None for the other kinds and infeasible schedules.
        mip_info: integer and MIP schedules: the LP's makespan, the rounded and MIP
            makespans, the MIP's bound, status and seconds, the proven lower bound; else None.
        note: warnings (infeasibility, envelopes that change the answer), or "".
        details: explanations that do not change the answer, or "".
        platform: the :class:`Platform` scheduled over.
    """

    def __init__(self, platform: Platform, s, mode: int, solved: bool,
                 asked: Optional[str]) -> None:
        # keep the C schedule (freed with this object) only for gantt(); the figures are
        # copied out now
        self._s = ffi.gc(s, lib.dls_schedule_free)
        self._mode, self._solved, self._asked = mode, solved, asked
        self.platform = platform
        p = int(lib.dls_schedule_count(s))
        self.load = float(lib.dls_schedule_load(s))
        self.makespan = float(lib.dls_schedule_makespan(s))
        self.status: str = _args.status_name(lib.dls_schedule_status(s))
        self.kind: str = ffi.string(lib.dls_schedule_kind_name(lib.dls_schedule_get_kind(s))
                                    ).decode()
        self.loads = doubles(lib.dls_schedule_loads(s), p)
        self.send_start = doubles(lib.dls_schedule_send_start(s), p)
        self.send_end = doubles(lib.dls_schedule_send_end(s), p)
        self.compute_time = doubles(lib.dls_schedule_compute_time(s), p)
        self.finish = doubles(lib.dls_schedule_finish(s), p)
        self.idle = doubles(lib.dls_schedule_idle(s), p)
        self.levels = ints(lib.dls_schedule_levels(s), p)
        self.sequence_index = sizes(lib.dls_schedule_sequence(s), p)
        self._name_list: Optional[List[str]] = None  # read on first use (10^5 names: 60 ms)
        self._figures(s)

    def _figures(self, s) -> None:
        self.paper_makespan = float(lib.dls_schedule_paper_makespan(s))
        self.true_makespan = float(lib.dls_schedule_true_makespan(s))
        self.lp_makespan = float(lib.dls_schedule_lp_makespan(s))
        self.envelope_deviation = float(lib.dls_schedule_envelope_deviation(s))
        self.iterations = int(lib.dls_schedule_iterations(s))
        self.solves = int(lib.dls_schedule_solves(s))
        self.residual = float(lib.dls_schedule_residual(s))
        self.kkt_primal = float(lib.dls_schedule_kkt_primal(s))
        self.kkt_dual = float(lib.dls_schedule_kkt_dual(s))
        self.capacity = float(lib.dls_schedule_capacity(s))
        self.exact_verified = bool(lib.dls_schedule_exact_confirmed(s))
        self.certificate = _certificate(s, lambda: self._names)
        self.solver_info = _solver_info(s)
        self.mip_info = _mip_info(s)
        self.note: str = _text(lib.dls_schedule_note(s))
        self.details: str = _text(lib.dls_schedule_details(s))

    @property
    def _names(self) -> List[str]:
        if self._name_list is None:
            self._name_list = _names(self.platform)
        return self._name_list

    @property
    def sequence(self) -> List[str]:
        """The processors' names in the order they are served (see ``sequence_index``)."""
        names = self._names
        return [names[i] for i in self.sequence_index.tolist()]

    def __len__(self) -> int:
        """The number of processors."""
        return self.loads.shape[0]

    def __repr__(self) -> str:
        used = int(np.count_nonzero(self.loads))
        return ("<dlsched.Schedule (%s) of %.6g units over %d of %d processors: makespan "
                "%.9g s, %s>" % (self.kind, self.load, used, len(self), self.makespan,
                                 self.status))

    def gantt(self, path: Any = None) -> Optional[str]:
        """Draws the schedule as an SVG Gantt chart: written to ``path`` (str or PathLike;
        replaced atomically) and None returned, or returned as text when ``path`` is None.
        Raises InputOutputError or WriteFailed when the file cannot be written."""
        err = new_error()
        if path is None:
            out = ffi.new("char **")
            check(lib.dls_schedule_gantt_to_string(self._s, self.platform._ptr, out, err), err)
            return take_string(out[0])
        check(lib.dls_schedule_gantt_write_file(self._s, self.platform._ptr,
                                                path_bytes(path), err), err)
        return None

    def to_dict(self) -> Dict[str, Any]:
        """The schedule as ``dlsched schedule --json`` (or ``dlsched evaluate --json``)
        writes it: same keys in the same order, non-finite numbers as None."""
        return _schedule_dict(self)

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _processors(r: Schedule) -> List[Dict[str, Any]]:
    num = _args.number
    cols = [a.tolist() for a in (r.loads, r.send_start, r.send_end, r.compute_time,
                                 r.finish, r.idle)]
    whole = r._mode == 1  # whole-unit loads are written as integers
    out = []
    for i, (ld, ss, se, ct, fin, idle) in enumerate(zip(*cols)):
        out.append({"name": r._names[i], "load": int(ld) if whole else num(ld),
                    "send_start": num(ss), "send_end": num(se), "compute_time": num(ct),
                    "finish": num(fin), "idle": num(idle), "level": int(r.levels[i])})
    return out


def _schedule_dict(r: Schedule) -> Dict[str, Any]:
    """tool/cmd_schedule.c's schedule_json, key for key."""
    num = _args.number
    d: Dict[str, Any] = {
        "load": num(r.load), "makespan": num(r.makespan), "status": r.status,
        "paper_makespan": num(r.paper_makespan), "true_makespan": num(r.true_makespan),
        "envelope_deviation": num(r.envelope_deviation), "iterations": r.iterations,
        "solves": r.solves, "residual": num(r.residual), "send_order": list(r.sequence),
        "processors": _processors(r)}
    if r._solved and r._mode == 0:
        d["lp_makespan"] = num(r.lp_makespan)
    if r._solved:
        d["kkt_primal"], d["kkt_dual"] = num(r.kkt_primal), num(r.kkt_dual)
    d["kind"] = r.kind
    si = r.solver_info
    if r._mode == 0 and si is not None:
        d.update({"solver": si["solver"], "optimal": si["optimal"],
                  "lower_bound": num(si["lower_bound"]), "used": si["used"],
                  "marginal_cost": {"below": num(si["marginal_left"]),
                                    "above": num(si["marginal_right"])}})
        if si["solver"] == "chain" and si["selection"]:
            d["pieces"] = si["pieces_total"]
    if r.exact_verified:
        d["exact_verified"] = True
    if r.certificate is not None:
        d["certificate"] = r.certificate
    if r._mode != 0 and r.mip_info is not None:
        d.update(_mip_dict(r.mip_info, r.makespan))
    if r._asked is not None:
        d["order"] = _order_dict(r)
    if r.note:
        d["note"] = r.note
    if r.details:
        d["details"] = r.details
    return d


def _mip_dict(mi: Dict[str, Any], makespan: float) -> Dict[str, Any]:
    num, lp = _args.number, mi["lp_makespan"]
    d: Dict[str, Any] = {"lp_makespan": num(lp),
                         "gap": num((makespan - lp) / lp if lp > 0 else math.nan),
                         "lp_true_makespan": num(mi["lp_true_makespan"]),
                         "lower_bound": num(mi["lower_bound"])}
    if not math.isnan(mi["rounded_makespan"]):
        d["rounded_makespan"] = num(mi["rounded_makespan"])
    d["mip_status"] = mi["mip_status"] or "not solved"
    if mi["mip_status"] is not None:
        d.update({"mip_makespan": num(mi["mip_makespan"]), "mip_bound": num(mi["mip_bound"]),
                  "mip_seconds": num(mi["mip_seconds"]), "mip_relaxed": mi["mip_relaxed"]})
    return d


def _order_dict(r: Schedule) -> Dict[str, Any]:
    """How the send order was found (the "order" key: asked for best or a list)."""
    num, si = _args.number, r.solver_info
    known = si is not None or r._asked != "best"
    if si is None:  # evaluated, integer, MIP or infeasible: the order was as asked
        si = {"order_method": "fixed", "order_optimal": False, "given_makespan": math.nan,
              "rate_makespan": math.nan, "order_lower_bound": math.nan,
              "order_candidates": 0}
    return {"asked": r._asked, "method": si["order_method"] if known else None,
            "optimal": si["order_optimal"] if known else None, "sequence": list(r.sequence),
            "given_makespan": num(si["given_makespan"]),
            "rate_makespan": num(si["rate_makespan"]),
            "lower_bound": num(si["order_lower_bound"]),
            "candidates": si["order_candidates"]}


def _mip_params(mip_time_limit, rel_gap, shape_tol, max_binaries, integer, exact_shape):
    mp = ffi.new("dls_mip_params *")
    lib.dls_mip_params_init(mp)
    mp.integer, mp.exact_shape = int(integer), int(exact_shape)
    if mip_time_limit is not None:
        mp.time_limit = _seconds(mip_time_limit, "mip_time_limit")
    if rel_gap is not None:
        mp.rel_gap = _args.real(rel_gap, "rel_gap")
    if shape_tol is not None:
        mp.shape_tol = _args.real(shape_tol, "shape_tol")
    if max_binaries is not None:
        mp.max_binaries = _args.count(max_binaries, "max_binaries", 0, 2 ** 63 - 1)
    return mp


def _check_modes(par, kw: Dict[str, Any], integer: bool, exact_shape: bool,
                 asked: Optional[str]) -> None:
    """The combinations the program refuses with a usage error (tool/cmd_schedule.c)."""
    glpk = par.solver == lib.DLS_SOLVER_GLPK
    if kw.get("exact") and kw.get("solver") is not None and not glpk:
        raise _args.invalid("exact=True certifies GLPK's optimum with its exact simplex: "
                            "it needs solver=\"glpk\"")
    if kw.get("max_pieces") is not None and glpk:
        raise _args.invalid("max_pieces bounds the chain solver's selection, not GLPK")
    if asked == "best" and (integer or exact_shape):
        raise _args.invalid("order=\"best\" and %s=True do not go together: the best order "
                            "is searched for the schedule of real loads, and %s works in one "
                            "send order (give it the sequence order=\"best\" found)"
                            % (("integer",) * 2 if integer else ("exact_shape",) * 2))


def _mip_wanted(mip: Any, p: int) -> Optional[bool]:
    """mip= as a decision: True, False, or None for "auto" (the MIP with at most 8
    processors, the rounded schedule alone when it is too large)."""
    if mip in ("auto", None):
        return None
    if mip in (True, "yes"):
        return True
    if mip in (False, "no"):
        return False
    raise _args.invalid("mip: %r is not auto, yes or no (or True, False)" % (mip,))


def _run(fn, prog: "_args.Progress", *args) -> Any:
    """Calls a solver of the library (the GIL released by cffi) and returns its schedule;
    raises the error, the progress callback's own exception first."""
    out = ffi.new("dls_schedule **")
    err = new_error()
    st = fn(*args, out, err)
    if st == lib.DLS_OK and prog.error is not None:
        lib.dls_schedule_free(out[0])  # the callback's exception wins: nothing leaks
    prog.reraise()
    check(st, err)
    return out[0]


def _solve_integer(pl, n: int, par, mp, mip: Any, prog) -> Any:
    want = _mip_wanted(mip, len(pl))
    if want is None:
        want = len(pl) <= _MIP_AUTO_PROCESSORS
        try:
            return _run(lib.dls_schedule_solve_integer, prog, pl._ptr, n, par,
                        mp if want else ffi.NULL)
        except Exception as e:  # noqa: B902 - the program's fallback for --mip auto
            if not want or getattr(e, "status", None) != lib.DLS_ELIMIT:
                raise
            # stacklevel 4: the caller of schedule()
            warnings.warn("%s; the rounded schedule alone follows" % e, RuntimeWarning, 4)
            want = False
    return _run(lib.dls_schedule_solve_integer, prog, pl._ptr, n, par,
                mp if want else ffi.NULL)


def schedule(platform: Any, load: float, *, order: Order = None,
             solver: Optional[str] = None, integer: bool = False, exact_shape: bool = False,
             mip: Union[str, bool] = "auto", exact: Optional[bool] = None,
             drop_unused: Optional[bool] = None, use_limits: Optional[bool] = None,
             originator_computes: Optional[bool] = None, max_pieces: Optional[int] = None,
             time_limit: Optional[float] = None, iteration_limit: Optional[int] = None,
             order_exact_max: Optional[int] = None, order_candidates: Optional[int] = None,
             order_time_limit: Optional[float] = None, mip_time_limit: Optional[float] = None,
             rel_gap: Optional[float] = None, shape_tol: Optional[float] = None,
             max_binaries: Optional[int] = None, check_tol: Optional[float] = None,
             verbose: Optional[bool] = None,
             progress: Optional[Callable[[float], Any]] = None) -> Schedule:
    """The schedule of least makespan of ``load`` units over ``platform``, as ``dlsched
    schedule PLATFORM --load V`` computes it. None for a keyword means the library's
    default (dls_schedule_params_init, dls_mip_params_init).

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes (a path, a dict).
        load: the load V in units, finite and > 0 (whole, at most 2^53, with ``integer``).
        order: the send order: "given" (the platform's, default), "rate" (fastest links
            first), "best" (searched: see ``solver_info``), or every processor once, as a
            list of names or platform indices (or "NAME,NAME,..." as the program takes it).
        solver: "chain" (default: exact) or "glpk" (the LP with GLPK's simplex; the
            default with ``exact``).
        integer: whole-unit loads: the LP schedule rounded, improved, and with ``mip`` the
            MIP (``dls_schedule_solve_integer``); the program's ``--integer``.
        exact_shape: the MIP with the true (non-convex) time of speed models instead of
            their envelopes (``dls_schedule_solve_mip``); the program's ``--exact-shape``.
        mip: with ``integer``: "auto" (the MIP with at most 8 processors, the rounded
            schedule alone, with a RuntimeWarning, when it is too large), "yes" or "no".
        exact: certify the optimum with GLPK's exact rational simplex (``certificate``).
        drop_unused: a processor sent nothing costs nothing (True, default); False: the
            paper's LP, every processor charged its startup (``--keep-unused``).
        use_limits: respect the processors' limits (True, default; ``--no-limits``).
        originator_computes: processors without a link are the originator's own.
        max_pieces: the chain's selection bound (pieces of its value functions, >= 16).
        time_limit: seconds for GLPK's LP work (default 600); iteration_limit: its
            simplex iterations (0: automatic).
        order_exact_max, order_candidates, order_time_limit: bounds of ``order="best"``'s
            search (processors searched exactly, candidate orders, seconds).
        mip_time_limit, rel_gap, shape_tol, max_binaries: the MIP's (seconds, relative
            gap, chords' relative error, binaries).
        check_tol: relative tolerance of the answer's checks; verbose: GLPK's output.
        progress: ``progress(fraction)`` called while GLPK works; a true return stops it
            (Canceled is raised).

    Returns a :class:`Schedule`, also when the limits cannot hold the load (its status is
    then "infeasible"). Raises InvalidArgument for a bad argument (the message names it;
    a 2-D model), OutOfRange, SolverFailure, NumericalFailure, LimitExceeded, Canceled.
    """
    kw = dict(originator_computes=originator_computes, use_limits=use_limits,
              drop_unused=drop_unused, exact=exact, solver=solver, max_pieces=max_pieces,
              time_limit=time_limit, iteration_limit=iteration_limit,
              order_exact_max=order_exact_max, order_candidates=order_candidates,
              order_time_limit=order_time_limit, check_tol=check_tol, verbose=verbose)
    mp = _mip_params(mip_time_limit, rel_gap, shape_tol, max_binaries, integer, exact_shape)
    return _schedule(as_platform(platform), load, order, kw, mp, mip, progress)


def _schedule(pl: Platform, load: Any, order: Order, kw: Dict[str, Any], mp, mip: Any,
              progress) -> Schedule:
    integer, exact_shape = bool(mp.integer), bool(mp.exact_shape)
    if integer:  # a whole number of units, as the program's --integer asks
        n = _args.count(load, "load", 1, 2 ** 53)
        v = float(n)
    else:
        v = _load(load)
    par, ordr = _params(pl, order, True, **kw)
    _check_modes(par, kw, integer, exact_shape, ordr.asked)
    _mip_wanted(mip, len(pl))  # refuse a bad mip= whatever the mode
    prog = _args.Progress(progress)
    par.progress = mp.progress = prog.c
    if exact_shape:
        s = _run(lib.dls_schedule_solve_mip, prog, pl._ptr, v, par, mp)
    elif integer:
        s = _solve_integer(pl, n, par, mp, mip, prog)
    else:
        s = _run(lib.dls_schedule_solve, prog, pl._ptr, v, par)
    # the program's report mode: whole loads (also with exact_shape), exact shapes, the LP
    return Schedule(pl, s, 1 if integer else 2 if exact_shape else 0, True, ordr.asked)


def evaluate(platform: Any, loads: Any, *, order: Order = None,
             use_limits: Optional[bool] = None,
             originator_computes: Optional[bool] = None) -> Schedule:
    """The exact timeline of the loads given, under the true models, as ``dlsched evaluate
    PLATFORM --loads A1,A2,...`` replays it: the sends one after the other in the send
    order, each processor computing once its data has arrived.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        loads: float64 array of shape (p,), units per processor in platform order, each
            finite, >= 0 and within its limit (unless ``use_limits=False``).
        order: "given" (default), "rate", or every processor once as a list of names or
            indices ("best" is :func:`schedule`'s: give the ``sequence`` it found).
        use_limits, originator_computes: as for :func:`schedule`.

    Returns a :class:`Schedule` of kind "evaluated" (status "feasible"). Raises
    InvalidArgument naming the processor and value of a bad load.
    """
    pl = as_platform(platform)
    arr = as_doubles(loads, "loads", len(pl))
    par, ordr = _params(pl, order, False, use_limits=use_limits,
                        originator_computes=originator_computes)
    out = ffi.new("dls_schedule **")
    err = new_error()
    check(lib.dls_schedule_evaluate(pl._ptr, ptr_of(arr), par, out, err), err)
    return Schedule(pl, out[0], 0, False, ordr.asked)


def export_lp(platform: Any, load: float, format: str = "lp", path: Any = None, *,
              order: Order = None, use_limits: Optional[bool] = None,
              originator_computes: Optional[bool] = None) -> Optional[str]:
    """The paper's LP for ``load`` units over ``platform`` (every processor, in send order,
    in the platform's units), as ``dlsched export PLATFORM --load V --format FORMAT -o
    PATH`` writes it: returned as text when ``path`` is None, else written to ``path``
    (replaced atomically) and None returned.

    Args:
        format: "lp" (CPLEX LP, default), "mps" (free MPS), "glpk" (GLPK's own format) or
            "mathprog" (data for the model lp/star.mod); see :func:`export_formats`.
        order: "given" (default), "rate", or every processor once (names or indices).
        use_limits, originator_computes: as for :func:`schedule`.

    Raises InvalidArgument, InputOutputError or WriteFailed (naming the path),
    SolverFailure.
    """
    pl = as_platform(platform)
    v = _load(load)
    fmt = _args.choice(format, "format", lib.dls_export_format_from_name,
                       "dls_export_format", lib.dls_export_format_name)
    par, ordr = _params(pl, order, False, use_limits=use_limits,
                        originator_computes=originator_computes)
    return text_or_file(lib.dls_schedule_lp_to_string, lib.dls_schedule_lp_write_file, path,
                        pl._ptr, v, par, fmt)


def measured(platform: Any, loads: Any, send_start: Any, send_end: Any,
             finish: Any) -> Schedule:
    """A :class:`Schedule` holding a timeline measured in a real run (kind "measured",
    status "feasible"), to report and draw beside a prediction (dls_schedule_measured):
    the send order is that of the send starts, the makespan the latest finish.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        loads: float64 array of shape (p,): units per processor in platform order.
        send_start, send_end, finish: float64 arrays of shape (p,): seconds from a common
            origin, finite with 0 <= send_start <= send_end <= finish where the load is
            > 0 (ignored, NaN allowed, where it is 0).

    Raises InvalidArgument naming the processor and value.
    """
    pl = as_platform(platform)
    arrs = [as_doubles(a, name, len(pl)) for a, name in ((loads, "loads"),
                                                       (send_start, "send_start"),
                                                       (send_end, "send_end"),
                                                       (finish, "finish"))]
    out = ffi.new("dls_schedule **")
    err = new_error()
    check(lib.dls_schedule_measured(pl._ptr, *[ptr_of(a) for a in arrs], out, err), err)
    return Schedule(pl, out[0], 0, False, None)


class Measurement:
    """A measured run beside the prediction of its loads (from :func:`compare_measured`).

    Attributes:
        predicted: the :class:`Schedule` :func:`evaluate` gives for the measured loads.
        measured: the measured timeline as a :class:`Schedule` (kind "measured").
        predicted_makespan, measured_makespan: their makespans in seconds.
        makespan_error: (measured - predicted) / predicted, a fraction.
    """

    def __init__(self, predicted: Schedule, measured_: Schedule) -> None:
        self.predicted, self.measured = predicted, measured_
        self.predicted_makespan = predicted.makespan
        self.measured_makespan = measured_.makespan
        tp, tm = self.predicted_makespan, self.measured_makespan
        self.makespan_error = (tm - tp) / tp if tp != 0 else math.nan

    def __repr__(self) -> str:
        return ("<dlsched.Measurement of %d processors: makespan predicted %.6g s, measured "
                "%.6g s (%+.1f%%)>" % (len(self.predicted), self.predicted_makespan,
                                       self.measured_makespan, 100 * self.makespan_error))

    def gantt(self, path: Any = None) -> Optional[str]:
        """Both timelines on one time axis as an SVG chart, the predicted lane (faded) above
        the measured one, with a table of the finishes under it: written to ``path``
        (replaced atomically) and None returned, or returned as text when ``path`` is None.
        Raises InputOutputError or WriteFailed when the file cannot be written."""
        pred, meas, pl = self.predicted._s, self.measured._s, self.predicted.platform
        err = new_error()
        if path is None:
            out = ffi.new("char **")
            check(lib.dls_schedule_gantt_compare_to_string(pred, meas, pl._ptr, out, err), err)
            return take_string(out[0])
        check(lib.dls_schedule_gantt_compare_write_file(pred, meas, pl._ptr, path_bytes(path),
                                                        err), err)
        return None

    def to_dict(self) -> Dict[str, Any]:
        """As ``dlsched evaluate PLATFORM --measured TIMELINE.json --json`` writes it."""
        num = _args.number
        return {"predicted": self.predicted.to_dict(), "measured": self.measured.to_dict(),
                "predicted_makespan": num(self.predicted_makespan),
                "measured_makespan": num(self.measured_makespan),
                "makespan_error": num(self.makespan_error)}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


_TIMELINE_KEYS = ("load", "send_start", "send_end", "finish")


def _timeline(timeline: Any, p: int) -> List[np.ndarray]:
    """The four arrays of a measured timeline: a path to its JSON (as the MPI layer writes
    it), or that JSON as a dict: {"processors": [{"load", "send_start", "send_end",
    "finish"}, ...]}, one per processor in platform order (times null where the load is 0)."""
    name = "timeline"
    if not isinstance(timeline, dict):
        name = os.fsdecode(timeline) if isinstance(timeline, (str, bytes, os.PathLike)) \
            else None
        if name is None:
            raise _args.invalid("timeline: a path or a dict is needed, not %r" % (timeline,))
        timeline = _read_json(name)
    procs = timeline.get("processors")
    if not isinstance(procs, list) or len(procs) != p:
        raise _args.invalid("%s: \"processors\" must be a list of %d timelines, one per "
                            "processor of the platform in its order" % (name, p))
    cols = [np.empty(p) for _ in _TIMELINE_KEYS]
    for i, o in enumerate(procs):
        for k, key in enumerate(_TIMELINE_KEYS):
            v = o.get(key) if isinstance(o, dict) else None
            if v is None and k > 0 and isinstance(o, dict):
                v = math.nan
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise _args.invalid("%s: processor %d: \"%s\" must be a number%s"
                                    % (name, i + 1, key, " (or null when the load is 0)"
                                       if k > 0 else ""))
            cols[k][i] = v
    return cols


def _read_json(path: str) -> Dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return json.loads(f.read())
    except OSError as e:
        raise InputOutputError("%s: cannot open: %s" % (path, e.strerror),
                               status=lib.DLS_EIO) from None
    except ValueError as e:
        line, col = getattr(e, "lineno", 0), getattr(e, "colno", 0)
        raise MalformedInput("%s:%d:%d: %s" % (path, line, col, getattr(e, "msg", e)),
                             status=lib.DLS_ESYNTAX, line=line, column=col) from None


def compare_measured(platform: Any, timeline: Any, *, order: Order = None,
                     use_limits: Optional[bool] = None,
                     originator_computes: Optional[bool] = None) -> Measurement:
    """A measured run beside the prediction of its loads, as ``dlsched evaluate PLATFORM
    --measured TIMELINE.json`` compares them.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        timeline: the path of the run's timeline JSON (as the MPI layer writes it), or that
            JSON as a dict: {"processors": [{"load": units, "send_start": s, "send_end": s,
            "finish": s}, ...]}, one per processor in platform order.
        order, use_limits, originator_computes: the prediction's, as for :func:`evaluate`.

    Raises InvalidArgument (a timeline of another size, a bad value), InputOutputError,
    MalformedInput (a file that is not JSON).
    """
    pl = as_platform(platform)
    loads, ss, se, fin = _timeline(timeline, len(pl))
    pred = evaluate(pl, loads, order=order, use_limits=use_limits,
                    originator_computes=originator_computes)
    return Measurement(pred, measured(pl, loads, ss, se, fin))


class Curve:
    """The optimal makespan as a function of the load, T(V), over a range of loads (from
    :func:`curve`): exact and piecewise linear, linear between consecutive points. Speed
    models enter through their convex envelopes on (0, min(limit, load_max)], as in the LP
    of :func:`schedule` at ``load_max``: below load_max, T may then differ from the
    schedule's makespan at that load (whose envelopes end at the load).

    Attributes:
        loads: float64 array of shape (n,), n >= 2: the loads of the points where T bends,
            increasing from the range's start to its end, in units (two points may share a
            load where T jumps: a processor's startup).
        makespans: float64 array of shape (n,): T at those points, in seconds.
        exact: the curve is exact for its model.
        model: "selection" (processors given no load cost nothing) or "paper" (every
            processor charged, ``drop_unused=False``).
        schedule: the :class:`Schedule` at ``load`` when one was given, else None.
        load: that load in units, or None; makespan: T there in seconds, or None;
        marginal_cost: (below, above): dT/dV at ``load`` in seconds per unit, or None.
    """

    def __init__(self, c, model: str, sched: Optional[Schedule]) -> None:
        self._c = ffi.gc(c, lib.dls_curve_free)  # kept for makespan_at() and svg()
        n = int(lib.dls_curve_count(c))
        self.loads = doubles(lib.dls_curve_loads(c), n)
        self.makespans = doubles(lib.dls_curve_makespans(c), n)
        self.exact = bool(lib.dls_curve_exact(c))
        self.model, self.schedule = model, sched
        self.load = sched.load if sched is not None else None
        self.makespan = sched.makespan if sched is not None else None
        si = sched.solver_info if sched is not None else None
        self.marginal_cost = ((si["marginal_left"], si["marginal_right"]) if si is not None
                              else None)

    def __len__(self) -> int:
        """The number of points."""
        return self.loads.shape[0]

    def __repr__(self) -> str:
        return ("<dlsched.Curve of %d points, loads %.6g to %.6g units: makespan %.6g to "
                "%.6g s>" % (len(self), self.loads[0], self.loads[-1], self.makespans[0],
                             self.makespans[-1]))

    def makespan_at(self, load: Any) -> Union[float, np.ndarray]:
        """T at ``load`` (units; a number or an array of any shape) in seconds, linear
        between points; at a jump, T at the load itself; NaN outside the range."""
        if np.ndim(load) == 0:
            return float(lib.dls_curve_makespan_at(self._c, _args.real(load, "load")))
        arr = np.asarray(load, dtype=np.float64)
        return np.array([lib.dls_curve_makespan_at(self._c, x) for x in arr.ravel().tolist()],
                        dtype=np.float64).reshape(arr.shape)

    def _mark(self, mark: Any) -> float:
        if mark is None:  # as the program: the load scheduled, when within the range
            v = self.load
            return v if v is not None and self.loads[0] <= v <= self.loads[-1] else math.nan
        return _args.real(mark, "mark")

    def svg(self, mark: Optional[float] = None) -> str:
        """The curve as an SVG document: T(V) from 0, the bends as dots, and a dashed line
        at the load ``mark`` (default the curve's ``load`` when within the range; NaN for
        none). Raises InvalidArgument for a mark outside the range."""
        out = ffi.new("char **")
        err = new_error()
        check(lib.dls_curve_svg_to_string(self._c, self._mark(mark), out, err), err)
        return take_string(out[0])

    def plot(self, path: Any, mark: Optional[float] = None) -> None:
        """:meth:`svg` written to ``path`` (replaced atomically). Raises InputOutputError
        or WriteFailed when it cannot be written."""
        err = new_error()
        check(lib.dls_curve_svg_write_file(self._c, self._mark(mark), path_bytes(path), err),
              err)

    def to_dict(self) -> Dict[str, Any]:
        """The curve as ``dlsched schedule PLATFORM --load V --curve --json`` writes it;
        without a ``load``, "load", "makespan" and "marginal_cost"'s figures are None."""
        num = _args.number
        mc = self.marginal_cost or (math.nan, math.nan)
        return {"load": num(self.load) if self.load is not None else None,
                "makespan": num(self.makespan) if self.makespan is not None else None,
                "marginal_cost": {"below": num(mc[0]), "above": num(mc[1])},
                "model": self.model, "exact": self.exact,
                "points": [[num(v), num(t)] for v, t in zip(self.loads.tolist(),
                                                            self.makespans.tolist())]}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def curve(platform: Any, load_min: Optional[float] = None, load_max: Optional[float] = None,
          *, load: Optional[float] = None, order: Order = None,
          drop_unused: Optional[bool] = None, use_limits: Optional[bool] = None,
          originator_computes: Optional[bool] = None, max_pieces: Optional[int] = None,
          order_exact_max: Optional[int] = None, order_candidates: Optional[int] = None,
          order_time_limit: Optional[float] = None) -> Curve:
    """The optimal makespan T(V) for every load V in [``load_min``, ``load_max``] at once,
    from the chain solver's value function: ``dlsched schedule PLATFORM --load V --curve
    [--from V0] [--to V1]``.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        load_min, load_max: the range in units, 0 < load_min < load_max <= the capacity
            (sum of the limits); with ``load``, by default load / 100 and min(2 load,
            capacity), as the program's.
        load: a load to schedule too (the curve's ``schedule``, ``makespan`` and
            ``marginal_cost``, and the mark of :meth:`Curve.svg`).
        order: "given" (default), "rate", or every processor once (names or indices).
        drop_unused, use_limits, originator_computes, max_pieces and the order
            search's bounds: as for :func:`schedule` (the chain solver only).

    Raises InvalidArgument (a range beyond the capacity, a load the limits cannot hold),
    OutOfRange, LimitExceeded (the value function past ``max_pieces``: ``drop_unused=False``
    always fits).
    """
    pl = as_platform(platform)
    if isinstance(order, str) and order == "best":
        raise _args.invalid("curve: order=\"best\" does not go with a curve, which is of one "
                            "send order: give it the sequence schedule(order=\"best\") found")
    if load is None and (load_min is None or load_max is None):
        raise _args.invalid("curve: give the range load_min and load_max, or a load")
    kw = dict(originator_computes=originator_computes, use_limits=use_limits,
              drop_unused=drop_unused, max_pieces=max_pieces, order_exact_max=order_exact_max,
              order_candidates=order_candidates, order_time_limit=order_time_limit)
    sched = None
    if load is not None:  # the schedule at V first, as the program's (its dT/dV, the mark)
        sched = _schedule(pl, load, order, kw, _mip_params(None, None, None, None, 0, 0),
                          "auto", None)
        if sched.status == "infeasible":
            raise _args.invalid("curve: load %.17g: %s" % (sched.load, sched.note))
    lo, hi = _range(load_min, load_max, sched)
    par, ordr = _params(pl, order, False, **kw)
    out = ffi.new("dls_curve **")
    err = new_error()
    check(lib.dls_schedule_curve(pl._ptr, lo, hi, par, out, err), err)
    return Curve(out[0], "selection" if par.drop_unused else "paper", sched)


def _range(load_min: Any, load_max: Any, sched: Optional[Schedule]):
    """The range of the curve: as given, else the program's default around the load."""
    if sched is not None:
        lo = sched.load / _CURVE_FROM_DIVISOR
        hi = min(sched.load * _CURVE_TO_FACTOR, sched.capacity)
    lo = _load(load_min, "load_min") if load_min is not None else lo
    hi = _load(load_max, "load_max") if load_max is not None else hi
    if not lo < hi:
        raise _args.invalid("curve: a range of loads with load_min below load_max is needed, "
                            "not %.10g to %.10g" % (lo, hi))
    return lo, hi
