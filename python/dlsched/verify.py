"""Checking a schedule, partition or multi-installment schedule written by any tool
against the platform's models, and measuring it against the optimum (dlsched/verify.h,
``dlsched verify``).
"""

import json
import math
import os
from typing import Any, Dict, List, Optional

import numpy as np

from ._dlsched import ffi, lib
from ._core import as_doubles, check, new_error, path_bytes, ptr_of, to_json_text
from . import _args
from .platform import as_platform

__all__ = ["Verdict", "verify", "violation_kinds", "claim_kinds"]


def violation_kinds() -> List[str]:
    """The names of the violations a verdict reports ("negative-load", "limit", ...)."""
    return _args.names_of(lib.dls_violation_kind_name)


def claim_kinds() -> List[str]:
    """The kinds of claim: "schedule", "partition", "installments"."""
    return _args.names_of(lib.dls_claim_kind_name)


class Verdict:
    """What :func:`verify` found (times in seconds, loads in units, elements for a
    partition).

    Attributes:
        kind: "schedule", "partition" or "installments": what the claim is.
        valid: no violation found.
        violations: list of dicts, one per violation, as the program's JSON writes them:
            kind, processor (name or None), element (or None), expected, found, excess
            (how far the bound is broken, in the values' unit), message.
        load: the load checked against.
        makespan: the makespan the claimed schedule really reaches.
        claimed_makespan: what the claim says (NaN when it says nothing).
        paper_optimum, selection_optimum, own_order_optimum, best: the optima computed
            (NaN when not computed): the paper's LP, the best set of processors for the
            mode's order and for the claim's own order, and the least of them.
        gap, gap_percent: makespan - best (s), and 100 gap / best.
        proven: ``best`` is proven optimal.
        exact_confirmed, exact_stopped: with ``exact``: the exact simplex confirmed the
            paper's optimum; it was stopped before it could.
        best_order_optimum, order_lower_bound, best_order_proven: with ``best_order``.
        certificate: the paper's optimum as an exact fraction (text), or None.
        note: the library's remarks, or "".
    """

    def __init__(self, pl: Any, claim, v, par) -> None:
        self._best_order, self._exact = bool(par.best_order), bool(par.exact)
        self.kind: str = ffi.string(lib.dls_claim_kind_name(lib.dls_claim_get_kind(claim))
                                    ).decode()
        self.valid = bool(lib.dls_verification_valid(v))
        n = int(lib.dls_verification_count(v))
        self.violations: List[Dict[str, Any]] = []
        for k in range(n):
            x = lib.dls_verification_violation(v, k)
            if x != ffi.NULL:
                self.violations.append(_violation(pl, x))
        self.violation_count = n
        q = ffi.new("dls_verify_quality *")
        lib.dls_verification_get_quality(v, q)
        for key in ("load", "makespan", "claimed_makespan", "paper_optimum",
                    "selection_optimum", "own_order_optimum", "best", "gap", "gap_percent",
                    "best_order_optimum", "order_lower_bound"):
            setattr(self, key, float(getattr(q, key)))
        self.proven = bool(q.proven)
        self.exact_confirmed = bool(q.exact_confirmed)
        self.exact_stopped = bool(q.exact_stopped)
        self.best_order_proven = bool(q.best_order_proven)
        cert = lib.dls_verification_certificate(v)
        self.certificate: Optional[str] = ffi.string(cert).decode() if cert != ffi.NULL else None
        self.note: str = _args.name_text(lib.dls_verification_note(v))

    @property
    def messages(self) -> List[str]:
        """The violations' sentences, in the order found ([] for a valid claim)."""
        return [x["message"] for x in self.violations]

    def __bool__(self) -> bool:
        """True when the claim is valid."""
        return self.valid

    def __repr__(self) -> str:
        if not self.valid:
            return "<dlsched.Verdict: invalid %s, %d violations>" % (self.kind,
                                                                     self.violation_count)
        gap = "" if math.isnan(self.gap_percent) else ", gap %.4g%%" % self.gap_percent
        return "<dlsched.Verdict: valid %s, makespan %.6g s%s>" % (self.kind, self.makespan,
                                                                   gap)

    def to_dict(self) -> Dict[str, Any]:
        """The verdict as ``dlsched verify --json`` writes it (same keys, same order)."""
        n = _args.number
        d: Dict[str, Any] = {
            "kind": self.kind, "valid": self.valid, "violation_count": self.violation_count,
            "violations": [dict(x) for x in self.violations]}
        for key in ("load", "makespan", "claimed_makespan", "paper_optimum",
                    "selection_optimum", "own_order_optimum", "best", "gap", "gap_percent"):
            d[key] = n(getattr(self, key))
        d["proven"] = self.proven
        d["note"] = self.note
        if self._best_order and self.kind == "schedule" and not math.isnan(
                self.best_order_optimum):
            d["best_order"] = {"optimum": n(self.best_order_optimum),
                               "lower_bound": n(self.order_lower_bound),
                               "proven": self.best_order_proven}
        if not math.isnan(self.paper_optimum):
            d["exact_confirmed"] = self.exact_confirmed
            if self._exact:
                d["exact_stopped"] = self.exact_stopped
        if self.certificate is not None:
            d["certified_paper_optimum"] = self.certificate
        return d

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _violation(pl: Any, x) -> Dict[str, Any]:
    n = _args.number
    proc = int(x.processor)
    return {
        "kind": ffi.string(lib.dls_violation_kind_name(x.kind)).decode(),
        "processor": (_args.name_text(lib.dls_platform_name(pl._ptr, proc)) if proc >= 0
                      else None),
        "element": int(x.element) if x.element >= 0 else None,
        "expected": n(x.expected), "found": n(x.found), "excess": n(x.excess),
        "message": _args.name_text(x.text)}


def _read_claim(pl: Any, claim: Any, out) -> None:
    """A claim from a path, a dict in the program's JSON shape, or an object with
    to_dict() (a Schedule, Partition or Installments of this package)."""
    err = new_error()
    if isinstance(claim, (str, bytes, os.PathLike)):
        check(lib.dls_claim_read_file(pl._ptr, path_bytes(claim), out, err), err)
        return
    if isinstance(claim, dict):
        d, source = claim, "<dict>"
    elif callable(getattr(claim, "to_dict", None)):
        d, source = claim.to_dict(), "<%s>" % type(claim).__name__
    else:
        raise _args.invalid("claim: a path, a dict, an object with to_dict() or an array of "
                            "loads is needed, not %s" % type(claim).__name__)
    try:
        text = json.dumps(d, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise _args.invalid("claim: not JSON the program writes (%s)" % e) from None
    check(lib.dls_claim_read_string(pl._ptr, text, len(text), source.encode(), out, err), err)


def _build_claim(pl: Any, loads: Any, more: Dict[str, Any], out) -> None:
    """A claim from arrays: loads (p,), times (p, 4) of send_start, send_end,
    compute_start, finish (NaN: not given), a send order, a total, a makespan, a chunk,
    and a weighted partition's placement (owners, or chunks as (first, count))."""
    p = len(pl)
    x = as_doubles(loads, "loads", p)
    times = more["times"]
    t = np.full((p, 4), np.nan) if times is None else np.asarray(times, dtype=np.float64)
    if t.shape != (p, 4):
        raise _args.invalid("times: shape (%d, 4) is needed (send_start, send_end, "
                            "compute_start, finish), not %s" % (p, t.shape))
    k = _args.choice(more["kind"], "kind", lib.dls_claim_kind_from_name, "dls_claim_kind",
                     lib.dls_claim_kind_name)
    err = new_error()
    check(lib.dls_claim_create(pl._ptr, k, out, err), err)
    c = out[0]
    t = np.ascontiguousarray(t)
    # the loop over processors in C (the library sets one at a time)
    check(lib.dlspy_claim_set_all(c, p, ptr_of(x), ptr_of(t), err), err)
    if more["send_order"] is not None:
        idx = _indices(pl, more["send_order"], "send_order")
        check(lib.dls_claim_set_order(c, ffi.from_buffer("size_t[]", idx), idx.size, err),
              err)
    for key, setter in (("total", lib.dls_claim_set_total),
                        ("makespan", lib.dls_claim_set_makespan),
                        ("chunk", lib.dls_claim_set_chunk)):
        if more[key] is not None:
            check(setter(c, _args.real(more[key], key), err), err)
    _placement(pl, c, more["owners"], more["chunks"], err)


def _indices(pl: Any, who: Any, what: str) -> np.ndarray:
    """Processors by name or index as a size_t array of platform indices."""
    if isinstance(who, np.ndarray) and who.dtype.kind in "iu":
        if who.size and (who.min() < 0 or who.max() >= len(pl)):
            raise _args.invalid("%s: indices must be in 0 .. %d" % (what, len(pl) - 1))
        return np.ascontiguousarray(who, dtype=np.uintp).ravel()
    out = []
    for w in who:
        if isinstance(w, str):
            try:
                out.append(pl.index(w))
            except Exception:
                raise _args.invalid("%s: the platform has no processor %r"
                                    % (what, w)) from None
        else:
            out.append(_args.count(w, what, 0, len(pl) - 1))
    return np.array(out, dtype=np.uintp)


def _placement(pl: Any, c, owners: Any, chunks: Any, err) -> None:
    """Which elements each processor holds, for a partition of weighted elements."""
    if owners is not None and chunks is not None:
        raise _args.invalid("owners and chunks are two ways of saying the same: give one")
    if owners is not None:
        own = _indices(pl, owners, "owners")
        check(lib.dls_claim_set_assignment(c, ptr_of(own, "size_t[]"), own.size, err), err)
    elif chunks is not None:
        try:
            first, count = chunks
        except (TypeError, ValueError):
            raise _args.invalid("chunks: a pair (first, count) of arrays of shape (p,) is "
                                "needed") from None
        arrs = []
        for name, a in (("chunks' first", first), ("chunks' count", count)):
            v = np.asarray(a)
            if v.shape != (len(pl),) or (v.size and (v.dtype.kind not in "iu" or v.min() < 0)):
                raise _args.invalid("%s: %d whole numbers >= 0 are needed (one a processor)"
                                    % (name, len(pl)))
            arrs.append(np.ascontiguousarray(v, dtype=np.uint64))
        check(lib.dls_claim_set_chunks(c, ptr_of(arrs[0], "uint64_t[]"),
                                       ptr_of(arrs[1], "uint64_t[]"), len(pl), err), err)


def _params(load, tolerance, use_limits, optimum, exact, order, originator_computes,
            matrix, ordered, reorder, best_order, time_limit):
    # the program's rules (verify_rules) first, in the user's words
    if reorder and not ordered:
        raise _args.invalid("reorder=True applies to ordered sets: give ordered=True too")
    if not optimum and (exact or best_order or time_limit is not None):
        raise _args.invalid("exact, best_order and time_limit concern the optima, which "
                            "optimum=False does not compute")
    par = ffi.new("dls_verify_params *")
    lib.dls_verify_params_init(par)
    if load is not None:
        par.load = _args.real(load, "load")
    if tolerance is not None:
        par.tolerance = _args.real(tolerance, "tolerance")
    if time_limit is not None:
        par.time_limit = _args.real(time_limit, "time_limit")
    if order is not None:
        if order not in ("given", "rate"):
            raise _args.invalid("order: the schedule is measured against the optima of one "
                                "fixed send order, 'given' or 'rate', not %r (add "
                                "best_order=True to measure it against the best order)"
                                % (order,))
        par.order = _args.choice(order, "order", lib.dls_send_order_from_name,
                                 "dls_send_order", lib.dls_send_order_name)
    if matrix is not None:
        par.matrix = _args.count(matrix, "matrix", 1, 2 ** 53)
    par.use_limits, par.optimum, par.exact = int(bool(use_limits)), int(bool(optimum)), \
        int(bool(exact))
    par.originator_computes = int(bool(originator_computes))
    par.ordered, par.reorder, par.best_order = int(bool(ordered)), int(bool(reorder)), \
        int(bool(best_order))
    return par


_VERIFY = {"partition": lib.dls_partition_verify,
           "installments": lib.dls_installment_verify}


def verify(platform: Any, claim: Any, *, load: Optional[float] = None,
           tolerance: Optional[float] = None, use_limits: bool = True, optimum: bool = True,
           exact: bool = False, order: Optional[str] = None,
           originator_computes: bool = False, matrix: Optional[int] = None,
           weights: Any = None, ordered: bool = False, reorder: bool = False,
           best_order: bool = False, time_limit: Optional[float] = None,
           times: Any = None, send_order: Any = None, makespan: Optional[float] = None,
           total: Optional[float] = None, chunk: Optional[float] = None,
           owners: Any = None, chunks: Any = None, kind: str = "schedule") -> Verdict:
    """Checks ``claim`` against the platform's models and measures it against the
    optimum, as ``dlsched verify`` does.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes (a path, a dict).
        claim: what is checked: a path to the JSON of ``dlsched schedule``, ``evaluate``,
            ``partition`` or ``installments`` (or a CSV table ``name,load,...``); a dict
            of that JSON; an object with ``to_dict()`` giving it (a Schedule, Partition,
            Installments); or an array of loads of shape (p,) in platform order (units;
            elements with ``kind="partition"``), with ``times``, ``send_order`` and
            ``makespan`` saying more.
        load: the load the schedule must distribute (default: the claim's total, else the
            sum of its loads).
        tolerance: relative tolerance of every comparison (library default 1e-9).
        use_limits: loads within the limits (--no-limits is False).
        optimum: compute the optima (--no-optimum is False).
        exact: certify the paper's LP optimum with GLPK's exact simplex.
        order: the send order of the optima, "given" (default) or "rate".
        originator_computes: optima with processors without a link served first.
        matrix: a partition of the rows of an n x n matrix product.
        weights: a partition of weighted elements: float64 array (n,) of their weights.
        ordered, reorder: with ``weights``: one contiguous chunk per processor (in any
            processor order with ``reorder``).
        best_order: a schedule: also measure it against the best send order.
        time_limit: seconds the optima may take (default 600).
        times: with an array of loads: float64 array (p, 4) of send_start, send_end,
            compute_start and finish (s; NaN where not claimed).
        send_order: with an array of loads: the processors (names or indices) in send order.
        makespan: with an array of loads: the claimed makespan (s).
        total: with an array of loads: the total load the claim says it distributes
            (units; elements for a partition).
        chunk: with an array of loads and ``kind="installments"``: the chunk size (units).
        owners: with an array of loads, ``kind="partition"`` and ``weights``: int array
            (n,), the processor (index or name) holding each element; the loads are then
            the weights each processor holds.
        chunks: the same for an ordered set: a pair (first, count) of int arrays (p,),
            processor i holding elements first[i] .. first[i] + count[i] - 1.
        kind: with an array of loads: "schedule" (default), "partition" or
            "installments".

    Returns a :class:`Verdict` (``valid`` False with the violations when the claim breaks
    the model: that is an answer, not an error). Raises MalformedInput (file, line,
    column) or InvalidData (a processor the platform lacks) for a claim that cannot be
    read, InputOutputError, InvalidArgument, OutOfMemory.
    """
    pl = as_platform(platform)
    w = None
    if weights is not None:
        if load is not None or matrix is not None:
            raise _args.invalid("weights excludes load and matrix")
        w = as_doubles(weights, "weights")
    elif ordered:
        raise _args.invalid("ordered=True applies to weights=")
    par = _params(load, tolerance, use_limits, optimum, exact, order, originator_computes,
                  matrix, ordered, reorder, best_order, time_limit)
    if w is not None:
        par.weights, par.n_weights = ptr_of(w), w.shape[0]
    out = ffi.new("dls_claim **")
    more = dict(times=times, send_order=send_order, makespan=makespan, total=total,
                chunk=chunk, owners=owners, chunks=chunks)
    arrayish = isinstance(claim, (np.ndarray, list, tuple))
    if kind != "schedule":
        more["kind"] = kind  # the claim's kind comes from its JSON otherwise
    if not arrayish and any(v is not None for v in more.values()):
        raise _args.invalid("%s apply to an array of loads" % ", ".join(
            k for k, v in more.items() if v is not None))
    more["kind"] = kind
    try:
        if arrayish:
            _build_claim(pl, claim, more, out)
        else:
            _read_claim(pl, claim, out)
        return _run(pl, out[0], par)
    finally:
        if out[0] != ffi.NULL:
            lib.dls_claim_free(out[0])


def _run(pl: Any, c, par) -> Verdict:
    kind = ffi.string(lib.dls_claim_kind_name(lib.dls_claim_get_kind(c))).decode()
    fn = _VERIFY.get(kind, lib.dls_schedule_verify)
    v = ffi.new("dls_verification **")
    err = new_error()
    check(fn(pl._ptr, c, par, v, err), err)
    try:
        return Verdict(pl, c, v[0], par)
    finally:
        lib.dls_verification_free(v[0])
