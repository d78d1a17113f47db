"""The schedulers and the partitioners checking each other (dlsched/crosscheck.h,
``dlsched crosscheck``): five independent comparisons on one platform and load."""

from typing import Any, Dict, List, Optional

from ._dlsched import ffi, lib
from ._core import check, new_error, to_json_text
from . import _args
from .platform import as_platform

__all__ = ["Check", "Crosscheck", "crosscheck"]


class Check:
    """The outcome of one check of :func:`crosscheck`.

    Attributes:
        name: "zero-communication", "integer-mip", "replay", "solvers" or "order".
        ran: False when the check was skipped (``detail`` says why).
        agree: the two sides agree (True for a skipped check, as the program reports it).
        first, second: the two sides' figures in seconds (see dlsched/crosscheck.h).
        relative_difference: (first - second) / second.
        extra: the check's additional figure (envelope deviation, MIP seconds, ...).
        detail: a sentence on the outcome.
        proven: where the sides differ, the side a replayed distribution proves ("first"
            or "second"), else None.
    """

    def __init__(self, r) -> None:
        self.name: str = ffi.string(lib.dls_check_kind_name(r.kind)).decode()
        self.ran = bool(r.ran)
        self.agree = not r.ran or bool(r.agree)
        self.first = float(r.first)
        self.second = float(r.second)
        self.relative_difference = float(r.rel_diff)
        self.extra = float(r.extra)
        self.detail: str = _args.name_text(r.detail)
        side = int(r.proven_side)
        self.proven: Optional[str] = "first" if side == 1 else "second" if side == 2 else None

    def __repr__(self) -> str:
        state = "skipped" if not self.ran else "agree" if self.agree else "DIFFER"
        return "<dlsched.Check %s: %s>" % (self.name, state)

    def to_dict(self) -> Dict[str, Any]:
        """The check as ``dlsched crosscheck --json`` writes it."""
        return {"name": self.name, "ran": self.ran, "agree": self.agree,
                "first": _args.number(self.first), "second": _args.number(self.second),
                "relative_difference": _args.number(self.relative_difference),
                "extra": _args.number(self.extra), "detail": self.detail,
                "proven": self.proven}


class Crosscheck:
    """The outcome of :func:`crosscheck`: ``load`` (units), ``agree`` (every check that ran
    agrees) and ``checks``, a list of :class:`Check` in the library's order; a check is
    also found by name: ``result["replay"]``."""

    def __init__(self, load: float, c) -> None:
        self.load = load
        self.agree = bool(lib.dls_crosscheck_all_agree(c))
        self.checks: List[Check] = [Check(lib.dls_crosscheck_result(c, k))
                                    for k in range(lib.DLS_CHECK_COUNT)]

    def __getitem__(self, name: str) -> Check:
        for c in self.checks:
            if c.name == name:
                return c
        raise KeyError(name)

    def __bool__(self) -> bool:
        return self.agree

    def __repr__(self) -> str:
        return "<dlsched.Crosscheck load %g: %s>" % (
            self.load, "all checks agree" if self.agree else "the checks disagree")

    def to_dict(self) -> Dict[str, Any]:
        """The outcome as ``dlsched crosscheck --json`` writes it (same keys and order)."""
        return {"load": _args.number(self.load), "agree": self.agree,
                "checks": [c.to_dict() for c in self.checks]}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _params(order, use_limits, rel_tol, time_limit, solver):
    par = ffi.new("dls_crosscheck_params *")
    lib.dls_crosscheck_params_init(par)
    if order is not None:
        o = _args.choice(order, "order", lib.dls_send_order_from_name, "dls_send_order",
                         lib.dls_send_order_name)
        # the checks compare solvers in one fixed order, as the program says
        if o not in (lib.DLS_ORDER_GIVEN, lib.DLS_ORDER_RATE):
            raise _args.invalid("order must be 'given' or 'rate', not %r: the checks compare "
                                "the solvers and the partitioners in one fixed send order; "
                                "the best order is searched by schedule(order='best')"
                                % (order,))
        par.schedule.order = o
    par.schedule.use_limits = 1 if use_limits else 0
    if solver is not None:
        par.schedule.solver = _args.choice(solver, "solver", lib.dls_star_solver_from_name,
                                           "dls_star_solver", lib.dls_star_solver_name)
    if rel_tol is not None:
        par.rel_tol = _args.real(rel_tol, "rel_tol")
    if time_limit is not None:
        # one figure for the LPs and the MIP, as the program's --time-limit
        par.mip.time_limit = par.schedule.time_limit = _args.real(time_limit, "time_limit")
    return par


def crosscheck(platform: Any, load: float, *, order: Optional[str] = None,
               use_limits: bool = True, rel_tol: Optional[float] = None,
               time_limit: Optional[float] = None, solver: Optional[str] = None
               ) -> Crosscheck:
    """Runs the five cross-checks of dlsched/crosscheck.h for a load of ``load`` units.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes.
        load: the load in units, finite and > 0.
        order: the send sequence, "given" (the library's default) or "rate".
        use_limits: respect the processors' limits (True, the default).
        rel_tol: relative tolerance of the comparisons, in (0, 1e-3]; default 1e-7.
        time_limit: seconds GLPK may take, for each LP's runs together and for the MIP
            (defaults: the library's, 600 s for the LPs and 60 s for the MIP).
        solver: the schedule's solver, "chain" (the library's default) or "glpk".

    Returns a :class:`Crosscheck` (a disagreement is a result, not an exception). Raises
    InvalidArgument, SolverFailure, NumericalFailure, LimitExceeded, OutOfMemory.
    """
    pl = as_platform(platform)
    load = _args.real(load, "load")
    par = _params(order, use_limits, rel_tol, time_limit, solver)
    out = ffi.new("dls_crosscheck **")
    err = new_error()
    check(lib.dls_crosscheck_run(pl._ptr, load, par, out, err), err)
    try:
        return Crosscheck(load, out[0])
    finally:
        lib.dls_crosscheck_free(out[0])
