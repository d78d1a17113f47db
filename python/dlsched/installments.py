"""Multi-installment processing on a star network (dlsched/installment.h,
``dlsched installments``).

The originator sends the load in chunks, one send at a time, round after round over the
processors; each processor computes its chunks in arrival order. Without ``lp`` the chunks
are equal (a size given, the published heuristic's, or the best of a sweep) and the
simulation is exact whatever their number; with ``lp=True`` every chunk is sized by an LP
over a searched (or given) sequence of installments, optionally with release times and
results returned to the originator.
"""

import math
import numbers
import os
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from ._dlsched import ffi, lib
from ._core import (check, doubles, ints, new_error, path_bytes, ptr_of,
                    take_string, text_or_file, to_json_text, uint64s)
from . import _args
from .errors import Error, InputOutputError, InvalidData, MalformedInput
from .platform import as_platform

__all__ = ["Installments", "installments", "installments_lp_model", "return_orders", "MAX_CHUNKS",
           "LP_MAX_CHUNKS"]

#: The most chunks a simulation of equal chunks accepts: 2^53.
MAX_CHUNKS: int = int(lib.DLS_INSTALLMENT_MAX_CHUNKS)
#: The most chunks the LP sizes (``max_chunks`` and ``sequence`` lengths).
LP_MAX_CHUNKS: int = int(lib.DLS_INSTALLMENT_LP_MAX_CHUNKS)
# Per-chunk arrays of equal chunks are built on demand up to this many chunks (a schedule
# may have 2 x 10^10 of them; the times of any one are in chunk_at()).
_CHUNK_ARRAYS_MAX = 10_000_000


def return_orders() -> List[str]:
    """The names ``return_order=`` takes besides a list of processors ("fifo", "lifo")."""
    return [n for n in _args.names_of(lib.dls_return_order_name) if n != "given"]


class Installments:
    """A multi-installment schedule (the result of :func:`installments`). Per-processor
    arrays are in platform order, shape (p,); per-chunk arrays in send order, shape (N,).

    Attributes:
        method: "rounds" (equal chunks sent round after round) or "lp" (chunks sized by
            the LP).
        chunk_source: equal chunks: "given", "formula" or "sweep" (how the size was
            chosen); None for the LP.
        load: the load V (units).
        makespan: when the last chunk finishes, or with results returned when the last
            result is back (s).
        chunks: the number of chunks N.
        rounds: the most chunks any one processor receives.
        last_chunk: the size of the last chunk sent (units).
        note: the library's warnings, one a line, or "".
        names: the processors' names.
        roles: each processor's role: "works", "no chunk" or "left out" (equal chunks).
        chunk_counts: uint64 array: chunks each processor receives.
        loads: float64 array: each processor's load (units).
        first_arrival, finish: float64 arrays: when each processor's first chunk has
            arrived, when it finishes its last (s; NaN when it gets none).
        busy, wait: float64 arrays: time each processor computes, and waits for data
            between its first arrival and its finish (s).
        chunk, round_time, rotation: equal chunks: the chunk size (units), a full round of
            sends (s), the processors in the rotation; NaN / NaN / None for the LP.
        chunk_time, levels: equal chunks: float64 array t_i(chunk) (s) and int32 array of
            the memory level at the chunk size; None for the LP.
        deepest_levels: the LP: int32 array, the deepest memory level each processor's
            chunks reach; None otherwise.
        sweep_chunks, sweep_makespans: a sweep: the chunk sizes tried and their makespans;
            None otherwise.
        analysis: equal chunks: the chunk-size range and heuristic, as the "range" and
            "formula" of the program's JSON (a dict with those two keys); None for the LP.
        single_installment_makespan: the single-installment LP's makespan (s; NaN when not
            compared or infeasible); for the LP, the single-installment start of the search.
        single_installment_status: equal chunks: "optimal", "infeasible", "skipped" (with
            ``compare=False``), "failed", ...; None for the LP.
        lp: the LP's figures (lp_makespan, replay_residual, lower_bound, gap, lps, ...) as
            a dict in the program's key order; None for equal chunks.
        platform: the :class:`Platform` scheduled on.
    """

    def __init__(self, platform: Any, s, src: Optional[str], analysis: Optional[Dict],
                 single: Any) -> None:
        self.platform, self._s = platform, s
        p = int(lib.dls_installment_count(s))
        self.method = "lp" if src is None else "rounds"
        self.chunk_source = src
        self.load = float(lib.dls_installment_load(s))
        self.makespan = float(lib.dls_installment_makespan(s))
        self.chunks = int(lib.dls_installment_chunks(s))
        self.rounds = int(lib.dls_installment_rounds(s))
        self.last_chunk = float(lib.dls_installment_last_chunk(s))
        self.note: str = _args.name_text(lib.dls_installment_note(s))
        self._names: Optional[List[str]] = None
        self._role_codes = ints(ffi.cast("int *", lib.dls_installment_roles(s)), p)
        self.chunk_counts = uint64s(lib.dls_installment_chunk_counts(s), p)
        self.loads = doubles(lib.dls_installment_loads(s), p)
        self.first_arrival = doubles(lib.dls_installment_first_arrival(s), p)
        self.finish = doubles(lib.dls_installment_finish(s), p)
        self.busy = doubles(lib.dls_installment_busy(s), p)
        self.wait = doubles(lib.dls_installment_wait(s), p)
        self.analysis = analysis
        self.single_installment_makespan, self.single_installment_status = single
        self.chunk, self.round_time = math.nan, math.nan
        self.rotation: Optional[int] = None
        self.chunk_time: Optional[np.ndarray] = None
        self.levels: Optional[np.ndarray] = None
        self.deepest_levels: Optional[np.ndarray] = None
        self.sweep_chunks: Optional[np.ndarray] = None
        self.sweep_makespans: Optional[np.ndarray] = None
        self.lp: Optional[Dict[str, Any]] = None
        if src is None:
            self._read_lp(s, p)
        else:
            self._read_rounds(s, p, src)
        self._events: Optional[Dict[str, np.ndarray]] = None

    def _read_rounds(self, s, p: int, src: str) -> None:
        info = ffi.new("dls_installment_rounds_info *")
        err = new_error()
        check(lib.dls_installment_get_rounds_info(s, info, err), err)
        self.chunk, self.round_time = float(info.chunk), float(info.round_time)
        self.rotation = int(info.rotation)
        self.chunk_time = doubles(info.chunk_time, p)
        self.levels = ints(info.levels, p)
        if src == "sweep":
            sw = ffi.new("dls_installment_sweep_info *")
            check(lib.dls_installment_get_sweep_info(s, sw, err), err)
            self.sweep_chunks = doubles(sw.chunk, sw.samples)
            self.sweep_makespans = doubles(sw.makespan, sw.samples)

    def _read_lp(self, s, p: int) -> None:
        info = ffi.new("dls_installment_lp_info *")
        err = new_error()
        check(lib.dls_installment_get_lp_info(s, info, err), err)
        self.deepest_levels = ints(info.deepest_levels, p)
        self.single_installment_makespan = float(info.single_makespan)
        n = _args.number
        self.lp = {
            "lp_makespan": n(info.lp_makespan), "replay_residual": n(info.replay_residual),
            "single_installment_makespan": n(info.single_makespan),
            "lower_bound": n(info.lower_bound), "gap": n(info.gap), "chunks": self.chunks,
            "lps": int(info.lps), "warm_starts": int(info.warm_starts),
            "exhaustive_length": int(info.exhaustive_length), "exact": bool(info.exact),
            "rounds_tried": int(info.rounds_tried), "best_rounds": int(info.best_rounds),
            "moves_gain": n(info.moves_gain), "iterations": int(info.iterations),
            "limited": bool(info.limited), "seconds": n(info.seconds)}

    @property
    def names(self) -> List[str]:
        """The processors' names, in platform order, as the program's JSON writes them
        (read once, when first asked)."""
        if self._names is None:
            ptr = self.platform._ptr
            self._names = [_args.name_text(lib.dls_platform_name(ptr, i))
                           for i in range(len(self))]
        return self._names

    @property
    def roles(self) -> List[str]:
        """Each processor's role, in platform order: "works", "no chunk" or "left out"."""
        table = {c: ffi.string(lib.dls_installment_role_name(c)).decode()
                 for c in set(self._role_codes.tolist())}
        return [table[c] for c in self._role_codes.tolist()]

    def __len__(self) -> int:
        """The number of processors."""
        return int(self._role_codes.shape[0])

    def __repr__(self) -> str:
        what = ("chunks sized by the LP" if self.method == "lp"
                else "chunks of %.6g units (%s)" % (self.chunk, self.chunk_source))
        return ("<dlsched.Installments of %.6g units over %d processors: %d %s, makespan "
                "%.6g s>" % (self.load, len(self), self.chunks, what, self.makespan))

    def chunk_at(self, index: int) -> Dict[str, Any]:
        """The times of chunk ``index`` (0-based, in send order), computed in O(1): a dict
        with chunk, round, processor (index), size (units), send_start, send_end,
        compute_start, compute_end, return_start, return_end (s; the return times NaN when
        nothing returns)."""
        k = _args.count(index, "index", 0)
        if k >= self.chunks:
            raise _args.invalid("index: %d is beyond the %d chunks" % (k, self.chunks))
        ev = ffi.new("dls_installment_event *")
        rs, re = ffi.new("double *"), ffi.new("double *")
        err = new_error()
        check(lib.dls_installment_event_at(self._s, k, ev, err), err)
        check(lib.dls_installment_return_at(self._s, k, rs, re, err), err)
        return {"chunk": int(ev.chunk), "round": int(ev.round), "processor": int(ev.processor),
                "size": ev.size, "send_start": ev.send_start, "send_end": ev.send_end,
                "compute_start": ev.compute_start, "compute_end": ev.compute_end,
                "return_start": rs[0], "return_end": re[0]}

    def _chunk_arrays(self) -> Dict[str, np.ndarray]:
        # built once, on demand (equal chunks may number billions), by a loop in C
        if self._events is None:
            n = self.chunks
            if n > _CHUNK_ARRAYS_MAX:
                raise _args.invalid("the schedule has %d chunks, more than the %d whose "
                                    "arrays are built: read chunks with chunk_at()"
                                    % (n, _CHUNK_ARRAYS_MAX))
            proc = np.empty(n, dtype=np.int64)
            rnd = np.empty(n, dtype=np.int64)
            rows = np.empty((7, n))
            err = new_error()
            if n > 0:
                check(lib.dlspy_installment_events(self._s, n, ptr_of(proc, "int64_t[]"),
                                                   ptr_of(rnd, "int64_t[]"), ptr_of(rows),
                                                   err), err)
            keys = ("size", "send_start", "send_end", "compute_start", "compute_end",
                    "return_start", "return_end")
            out = {k: rows[j] for j, k in enumerate(keys)}
            out["processor"], out["round"] = proc, rnd
            self._events = out
        return self._events

    @property
    def chunk_processor(self) -> np.ndarray:
        """int64 array (N,): the platform index of the processor each chunk goes to."""
        return self._chunk_arrays()["processor"]

    @property
    def chunk_round(self) -> np.ndarray:
        """int64 array (N,): the 0-based installment (round) of each chunk."""
        return self._chunk_arrays()["round"]

    @property
    def chunk_load(self) -> np.ndarray:
        """float64 array (N,): the size of each chunk (units)."""
        return self._chunk_arrays()["size"]

    @property
    def send_start(self) -> np.ndarray:
        """float64 array (N,): when the originator starts sending each chunk (s)."""
        return self._chunk_arrays()["send_start"]

    @property
    def send_end(self) -> np.ndarray:
        """float64 array (N,): when each chunk has arrived (s)."""
        return self._chunk_arrays()["send_end"]

    @property
    def compute_start(self) -> np.ndarray:
        """float64 array (N,): when each chunk's computation starts (s)."""
        return self._chunk_arrays()["compute_start"]

    @property
    def compute_end(self) -> np.ndarray:
        """float64 array (N,): when each chunk's computation ends (s)."""
        return self._chunk_arrays()["compute_end"]

    @property
    def return_start(self) -> np.ndarray:
        """float64 array (N,): when each chunk's results start coming back (s; NaN when
        nothing returns)."""
        return self._chunk_arrays()["return_start"]

    @property
    def return_end(self) -> np.ndarray:
        """float64 array (N,): when each chunk's results are back (s; NaN when nothing
        returns)."""
        return self._chunk_arrays()["return_end"]

    def gantt(self, path: Any = None, *, rounds: Optional[int] = None,
              title: Optional[str] = None) -> Optional[str]:
        """Draws the schedule as an SVG Gantt chart: returns the document when ``path`` is
        None, else writes it to ``path`` (replaced atomically) and returns None.
        ``rounds``: with more than 2 x rounds rounds, only the first and last ``rounds``
        are drawn (1 to 1000, default 3); ``title``: default one giving the load, the
        chunk size and the makespan."""
        gp = ffi.new("dls_installment_gantt_params *")
        lib.dls_installment_gantt_params_init(gp)
        if rounds is not None and self.method == "lp":
            raise _args.invalid("rounds applies to equal chunks: the chart of lp=True draws "
                                "every chunk")
        if rounds is not None:
            gp.rounds = _args.count(rounds, "rounds", 1, 1000)
        keep = ffi.new("char[]", title.encode("utf-8")) if title is not None else ffi.NULL
        gp.title = keep
        err = new_error()
        if path is None:
            out = ffi.new("char **")
            check(lib.dls_installment_gantt_to_string(self._s, self.platform._ptr, gp, out,
                                                      err), err)
            return take_string(out[0])
        check(lib.dls_installment_gantt_write_file(self._s, self.platform._ptr, gp,
                                                   path_bytes(path), err), err)
        return None

    def svg(self, **kw: Any) -> str:
        """The SVG Gantt chart as text (``gantt()`` without a path)."""
        return self.gantt(None, **kw)  # type: ignore[return-value]

    def to_dict(self) -> Dict[str, Any]:
        """The result as ``dlsched installments --json`` (``--lp --json``) writes it: same
        keys, same order."""
        return _lp_dict(self) if self.method == "lp" else _rounds_dict(self)

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _find(pl: Any, name: str) -> Optional[int]:
    """The index of the processor called name, or None (the library's lookup, not a scan
    of the names)."""
    try:
        return pl.index(name)
    except KeyError:
        return None


def _proc_common(r: Installments, i: int) -> Dict[str, Any]:
    n = _args.number
    return {"chunks": int(r.chunk_counts[i]), "load": n(r.loads[i]),
            "first_arrival": n(r.first_arrival[i]), "finish": n(r.finish[i]),
            "busy": n(r.busy[i]), "wait": n(r.wait[i])}


def _rounds_procs(r: Installments) -> List[Dict[str, Any]]:
    out = []
    lv = ffi.new("dls_installment_levels *")
    n = _args.number
    roles = r.roles
    for i, name in enumerate(r.names):
        o: Dict[str, Any] = {"name": name, "role": roles[i]}
        o.update(_proc_common(r, i))
        o["chunk_time"] = n(r.chunk_time[i])  # type: ignore[index]
        o["level"] = int(r.levels[i])  # type: ignore[index]
        if lib.dls_installment_memory_levels(r.platform._ptr, i, lv, ffi.NULL) == lib.DLS_OK \
                and lv.supported:
            o["in_core"] = [n(lv.in_core_a), n(lv.in_core_b)]
            o["out_of_core_rate"] = n(lv.out_of_core_b)
            o["swap_point"] = n(lv.swap_point)
        out.append(o)
    return out


def _rounds_dict(r: Installments) -> Dict[str, Any]:
    n = _args.number
    single = r.single_installment_makespan
    d: Dict[str, Any] = {
        "load": n(r.load), "chunk": n(r.chunk), "chunk_source": r.chunk_source,
        "makespan": n(r.makespan), "single_installment_makespan": n(single),
        "single_installment_status": r.single_installment_status,
        "ratio": n(r.makespan / single) if single == single and single != 0 else None,
        "rounds": r.rounds, "chunks": r.chunks, "last_chunk": n(r.last_chunk),
        "round_time": n(r.round_time), "rotation": r.rotation,
        "range": r.analysis["range"], "formula": r.analysis["formula"],  # type: ignore[index]
        "processors": _rounds_procs(r)}
    if r.sweep_chunks is not None:
        d["sweep"] = {"evaluated": int(r.sweep_chunks.shape[0])}
    if r.note:
        d["note"] = r.note
    return d


def _lp_dict(r: Installments) -> Dict[str, Any]:
    n = _args.number
    d: Dict[str, Any] = {"load": n(r.load), "method": "lp", "makespan": n(r.makespan)}
    d.update(r.lp)  # type: ignore[arg-type]
    procs = []
    for i, name in enumerate(r.names):
        o: Dict[str, Any] = {"name": name}
        o.update(_proc_common(r, i))
        o["deepest_level"] = int(r.deepest_levels[i])  # type: ignore[index]
        procs.append(o)
    d["processors"] = procs
    ev = r._chunk_arrays()
    cols = {k: ev[k].tolist() for k in ("size", "send_start", "send_end", "compute_start",
                                         "compute_end", "return_start", "return_end")}
    who = ev["processor"].tolist()
    d["installments"] = [
        {"processor": r.names[who[k]], "size": n(cols["size"][k]),
         "send_start": n(cols["send_start"][k]), "send_end": n(cols["send_end"][k]),
         "compute_start": n(cols["compute_start"][k]),
         "compute_end": n(cols["compute_end"][k]),
         "return_start": n(cols["return_start"][k]), "return_end": n(cols["return_end"][k])}
        for k in range(r.chunks)]
    if r.note:
        d["note"] = r.note
    return d


def _name_or_none(pl: Any, i: int) -> Optional[str]:
    return _args.name_text(lib.dls_platform_name(pl._ptr, i)) if i >= 0 else None


def _analysis(pl: Any, use_limits: bool) -> Dict[str, Any]:
    """The chunk-size range and heuristic as the "range" and "formula" of the JSON."""
    par = ffi.new("dls_installment_params *")
    lib.dls_installment_params_init(par)
    par.use_limits = 1 if use_limits else 0
    an = ffi.new("dls_installment_analysis *")
    err = new_error()
    check(lib.dls_installment_analyze(pl._ptr, par, an, err), err)
    n = _args.number
    reason = lambda v: ffi.string(lib.dls_installment_reason_name(v)).decode()  # noqa: E731
    up = int(an.upper_processor)
    rng: Dict[str, Any] = {
        "lower": n(an.lower), "lower_status": reason(an.lower_reason), "upper": n(an.upper),
        "upper_processor": _name_or_none(pl, up),
        "upper_kind": None if up < 0 else ("limit" if an.upper_is_limit else "swap point"),
        "empty": bool(an.range_empty)}
    if an.lower_note[0] != b"\0":
        rng["note"] = _args.name_text(an.lower_note)
    fm: Dict[str, Any] = {
        "value": n(an.formula), "status": reason(an.formula_reason),
        "processor": _name_or_none(pl, int(an.formula_processor)),
        "bad_value": n(an.formula_bad_value), "in_range": bool(an.formula_in_range)}
    if an.formula_note[0] != b"\0":
        fm["note"] = _args.name_text(an.formula_note)
    return {"range": rng, "formula": fm}


def _single(pl: Any, load: float, use_limits: bool, compare: bool):
    """The single-installment LP's makespan and status, as the program compares them."""
    if not compare:
        return math.nan, "skipped"
    par = ffi.new("dls_schedule_params *")
    lib.dls_schedule_params_init(par)
    par.use_limits = 1 if use_limits else 0
    out = ffi.new("dls_schedule **")
    err = new_error()
    if lib.dls_schedule_solve(pl._ptr, load, par, out, err) != lib.DLS_OK:
        return math.nan, "failed"
    try:
        st = lib.dls_schedule_status(out[0])
        if st == lib.DLS_SOLUTION_INFEASIBLE:
            return math.nan, "infeasible"
        return float(lib.dls_schedule_makespan(out[0])), _args.status_name(st)
    finally:
        lib.dls_schedule_free(out[0])


def _owned(out) -> Any:
    # the schedule is freed with its Python object (chunk_at and gantt read it later)
    return ffi.gc(out[0], lib.dls_installment_free)


def _rounds(pl: Any, load: float, chunk: Any, use_limits: bool, compare: bool,
            extra: Dict[str, Any]) -> Installments:
    par = ffi.new("dls_installment_params *")
    lib.dls_installment_params_init(par)
    par.use_limits = 1 if use_limits else 0
    for key in ("snap_tol", "max_chunks"):
        if extra.get(key) is not None:
            setattr(par, key, _args.real(extra[key], key))
    for key in ("grid_per_decade", "refine_points", "refine_passes"):
        if extra.get(key) is not None:
            setattr(par, key, _args.count(extra[key], key, 0, 2 ** 32 - 1))
    analysis = _analysis(pl, use_limits)
    if isinstance(chunk, str) and chunk in ("formula", "sweep"):
        src = chunk
        fm = analysis["formula"]
        if src == "formula" and not (fm["status"] == "defined" and fm["in_range"]):
            src = "sweep"  # as the program: the heuristic is undefined or out of range
        size = fm["value"] if src == "formula" else None
    elif isinstance(chunk, numbers.Real) and not isinstance(chunk, bool):
        src, size = "given", float(chunk)
        if not (math.isfinite(size) and size > 0):
            raise _args.invalid("chunk must be a number > 0, formula or sweep, not %r" % chunk)
    else:
        raise _args.invalid("chunk must be a number > 0, formula or sweep, not %r" % (chunk,))
    progress = _args.Progress(extra.get("progress"))
    par.progress = progress.c
    out = ffi.new("dls_installment **")
    err = new_error()
    if src == "sweep":
        st = lib.dls_installment_sweep(pl._ptr, load, par, out, err)
    else:
        st = lib.dls_installment_simulate(pl._ptr, load, size, par, out, err)
    s = _owned(out) if st == lib.DLS_OK else None
    progress.reraise()
    check(st, err)
    return Installments(pl, s, src, analysis, _single(pl, load, use_limits, compare))


def _index(pl: Any, who: Any, what: str) -> int:
    """A processor given by name or index as its platform index."""
    if isinstance(who, str):
        # as the program: the name as it is, else without the blanks at its ends
        for name in (who, who.strip(" \t\r")):
            i = _find(pl, name)
            if i is not None:
                return i
        raise _args.invalid("%s: the platform has no processor %r" % (what, who))
    i = _args.count(who, what, 0)
    if i >= len(pl):
        raise _args.invalid("%s: processor %d is beyond the platform's %d" % (what, i, len(pl)))
    return i


def _read_named(pl: Any, path: Any, what: str, width: int) -> Dict[str, Any]:
    """A file of lines "NAME V1 .. Vwidth" as the program reads --release and --returns:
    the values are the last fields (a name may hold blanks), blank lines and lines starting
    with # that name no processor are skipped; a processor named once at most."""
    name = os.fsdecode(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise InputOutputError("%s: cannot read %s: %s" % (what, name, e.strerror or e),
                               status=lib.DLS_EIO) from None
    out: Dict[str, Any] = {}
    first: Dict[int, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        fields = line.rstrip(" \t\r").rsplit(None, width)
        head = line.lstrip(" \t")
        if not head.strip():
            continue
        values = None
        if len(fields) == width + 1 and fields[0].strip():
            try:
                values = [float(x) for x in fields[1:]]
            except ValueError:
                pass
        who = fields[0].strip() if values is not None else None
        known = who is not None and _find(pl, who) is not None
        if head.startswith("#") and not known:
            continue
        where = "%s:%d: %s" % (name, no, what)
        if values is None:
            raise MalformedInput("%s: expected NAME and %d number%s" % (
                where, width, "s" if width > 1 else ""), status=lib.DLS_ESYNTAX, line=no)
        if not known:
            raise InvalidData("%s: %r is not a processor of the platform" % (where, who),
                              status=lib.DLS_EDATA, line=no)
        i = pl.index(who)
        if i in first:
            raise InvalidData("%s: processor %r is named twice (first on line %d)"
                              % (where, who, first[i]), status=lib.DLS_EDATA, line=no)
        if not all(math.isfinite(v) and v >= 0 for v in values):
            raise InvalidData("%s: processor %r: the values must be finite and >= 0"
                              % (where, who), status=lib.DLS_EDATA, line=no)
        first[i] = no
        out[who] = values
    return out


def _per_processor(pl: Any, values: Any, what: str, width: int) -> np.ndarray:
    """A file of lines "NAME V1 ..", a mapping {name or index: value(s)} (others 0, as
    the program's files leave them) or an array of shape (p,) / (p, width) as a float64
    array of shape (p, width)."""
    p = len(pl)
    if isinstance(values, (str, os.PathLike)):
        values = _read_named(pl, values, what, width)
    if isinstance(values, Mapping):
        arr = np.zeros((p, width))
        for who, v in values.items():
            row = np.atleast_1d(np.asarray(v, dtype=np.float64))
            if row.shape != (width,):
                raise _args.invalid("%s: %d values are needed for %r, not %d"
                                    % (what, width, who, row.size))
            arr[_index(pl, who, what)] = row
        return arr
    try:
        arr = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise _args.invalid("%s: a mapping or an array of numbers is needed" % what) from None
    if arr.shape == (p,) and width == 1:
        arr = arr.reshape(p, 1)
    if arr.shape != (p, width):
        raise _args.invalid("%s: shape (%d, %d) is needed for %d processors, not %s"
                            % (what, p, width, p, arr.shape))
    return arr


def _list_names(text: str) -> List[str]:
    """NAME,NAME,... as the program splits it (one trailing comma allowed)."""
    items = text.split(",")
    if len(items) > 1 and items[-1] == "":
        items.pop()
    return items


def _file_names(pl: Any, path: Any, what: str) -> List[Union[str, int]]:
    """A file of names as the program reads --sequence FILE: a line that is exactly a
    processor's name names it; other lines lose their end blanks, are skipped when empty
    or starting with #, else are lists NAME,NAME,..."""
    name = os.fsdecode(path)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise InputOutputError("%s: cannot read %s: %s" % (what, name, e.strerror or e),
                               status=lib.DLS_EIO) from None
    out: List[Union[str, int]] = []
    for no, line in enumerate(lines, 1):
        exact = _find(pl, line)
        if exact is not None:
            out.append(exact)
            continue
        text = line.strip(" \t\r")
        if text == "" or text.startswith("#"):
            continue
        for item in _list_names(text):
            try:
                out.append(_index(pl, item, what))
            except Error:
                raise InvalidData("%s:%d: %s: %r is not a processor of the platform"
                                  % (name, no, what, item.strip(" \t\r")),
                                  status=lib.DLS_EDATA, line=no) from None
    return out


def _sequence(pl: Any, seq: Any, what: str) -> np.ndarray:
    """Processors by name or index: a list, "NAME,NAME,..." or a file of names (a
    path-like object, as the program's --sequence FILE)."""
    if isinstance(seq, os.PathLike):
        seq = _file_names(pl, seq, what)
    elif isinstance(seq, str):
        seq = _list_names(seq)
    out = np.array([_index(pl, x, what) for x in seq], dtype=np.uintp)
    if out.size == 0:
        raise _args.invalid("%s: the sequence names no processor" % what)
    return out


def _return_perm(seq: Optional[np.ndarray], names: np.ndarray) -> np.ndarray:
    """The j-th time a processor is named, its j-th chunk of the sequence (the program's
    --return-order NAME,...)."""
    if seq is None:
        raise _args.invalid("return_order: a list of processors needs sequence= (the "
                            "search changes the chunks)")
    if names.size != seq.size:
        raise _args.invalid("return_order names %d chunks, the sequence has %d"
                            % (names.size, seq.size))
    used = np.zeros(seq.size, dtype=bool)
    perm = np.empty(seq.size, dtype=np.uintp)
    for j, who in enumerate(names.tolist()):
        free = np.flatnonzero((seq == who) & ~used)
        if free.size == 0:
            raise _args.invalid("return_order names processor %d more often than the "
                                "sequence sends it chunks" % who)
        used[free[0]] = True
        perm[j] = free[0]
    return perm


def _lp_params(pl: Any, use_limits: bool, kw: Dict[str, Any], keep: List[Any]):
    """The LP's parameters from the keywords; arrays the C side points into go to keep."""
    par = ffi.new("dls_installment_lp_params *")
    lib.dls_installment_lp_params_init(par)
    par.use_limits = 1 if use_limits else 0
    par.moves = 1 if kw["moves"] else 0
    par.two_port = 1 if kw["two_port"] else 0
    for key, lo, hi in (("window", 1, int(lib.DLS_INSTALLMENT_MAX_WINDOW)),
                        ("rounds", 1, 10 ** 6), ("max_lps", 1, 4 * 10 ** 9),
                        ("max_chunks", 1, LP_MAX_CHUNKS), ("exhaustive", 0, 10 ** 7)):
        if kw[key] is not None:
            setattr(par, "exhaustive_max" if key == "exhaustive" else key,
                    _args.count(kw[key], key, lo, hi))
    for key in ("time_limit", "check_tol"):
        if kw[key] is not None:
            setattr(par, key, _args.real(kw[key], key))
    if kw["order"] is not None:
        par.order = _args.choice(kw["order"], "order", lib.dls_send_order_from_name,
                                 "dls_send_order", lib.dls_send_order_name)
    seq = None
    if kw["sequence"] is not None:
        seq = _sequence(pl, kw["sequence"], "sequence")
        keep.append(seq)
        par.sequence, par.sequence_length = ffi.from_buffer("size_t[]", seq), seq.size
        if seq.size > par.max_chunks:  # as the program: room for the whole sequence
            par.max_chunks = min(seq.size, LP_MAX_CHUNKS)
    if kw["release"] is not None:
        rel = np.ascontiguousarray(_per_processor(pl, kw["release"], "release", 1)[:, 0])
        keep.append(rel)
        par.release = ptr_of(rel)
    _lp_returns(pl, par, kw, seq, keep)
    return par


def _lp_returns(pl: Any, par, kw: Dict[str, Any], seq: Optional[np.ndarray],
                keep: List[Any]) -> None:
    if kw["returns"] is None:
        if kw["return_order"] is not None or kw["two_port"]:
            raise _args.invalid("return_order and two_port apply to returns=")
        return
    ret = np.ascontiguousarray(_per_processor(pl, kw["returns"], "returns", 3).T)
    keep.append(ret)
    par.return_fraction = ptr_of(ret[0])
    par.return_startup = ptr_of(ret[1])
    par.return_rate = ptr_of(ret[2])
    ro = kw["return_order"]
    if ro is None:
        return
    if isinstance(ro, str) and ro in return_orders():
        par.return_order = _args.choice(ro, "return_order", lib.dls_return_order_from_name,
                                        "dls_return_order", lib.dls_return_order_name)
        return
    if isinstance(ro, str) and "," not in ro and _find(pl, ro.strip(" \t\r")) is None:
        raise _args.invalid("return_order must be fifo, lifo or the processors in the "
                            "order their results come back (a list), not %r" % ro)
    perm = _return_perm(seq, _sequence(pl, ro, "return_order"))
    keep.append(perm)
    par.return_order = lib.DLS_RETURN_GIVEN
    par.return_sequence = ffi.from_buffer("size_t[]", perm)


def _solve_lp(pl: Any, load: float, use_limits: bool, kw: Dict[str, Any]) -> Installments:
    keep: List[Any] = []
    par = _lp_params(pl, use_limits, kw, keep)
    progress = _args.Progress(kw["progress"])
    par.progress = progress.c
    out = ffi.new("dls_installment **")
    err = new_error()
    st = lib.dls_installment_solve_lp(pl._ptr, load, par, out, err)
    s = _owned(out) if st == lib.DLS_OK else None
    progress.reraise()
    check(st, err)
    return Installments(pl, s, None, None, (math.nan, None))


_ROUNDS_ONLY = ("snap_tol", "grid_per_decade", "refine_points", "refine_passes")
_LP_ONLY = ("rounds", "time_limit", "window", "max_lps", "order", "sequence", "release",
            "returns", "return_order", "exhaustive", "check_tol")


def installments(platform: Any, load: float, *, chunk: Union[float, str] = "formula",
                 lp: bool = False, use_limits: bool = True, compare: bool = True,
                 rounds: Optional[int] = None, time_limit: Optional[float] = None,
                 window: Optional[int] = None, moves: bool = True,
                 max_lps: Optional[int] = None, order: Optional[str] = None,
                 sequence: Optional[Sequence[Union[str, int]]] = None,
                 release: Any = None, returns: Any = None,
                 return_order: Union[str, Sequence[Union[str, int]], None] = None,
                 two_port: bool = False, max_chunks: Optional[float] = None,
                 exhaustive: Optional[int] = None, check_tol: Optional[float] = None,
                 snap_tol: Optional[float] = None, grid_per_decade: Optional[int] = None,
                 refine_points: Optional[int] = None, refine_passes: Optional[int] = None,
                 progress: Any = None) -> Installments:
    """Sends ``load`` units in installments, as ``dlsched installments`` does.

    Args:
        platform: a :class:`Platform`, or what ``Platform()`` takes (a path, a dict).
        load: the load V (units), finite and > 0.
        chunk: equal chunks: a size in units (> 0), "formula" (the published heuristic's
            size; a sweep when it is undefined or out of range; the default) or "sweep"
            (the best of many sizes). Not with ``lp``.
        lp: size every chunk by the LP over a searched (or given) sequence.
        use_limits: respect the processors' limits (the program's --no-limits is False).
        compare: equal chunks: also solve the single-installment schedule (--no-compare
            is False).
        rounds, time_limit, window, moves, max_lps, order, max_chunks, exhaustive: the LP
            search's --rounds K (1 .. K rounds; default while rounds help), --time-limit
            (seconds for the search, default 1), --window (chunks a processor with a limit
            holds, default 2), --no-moves (moves=False), --max-lps, --order ("given",
            "rate" or "best", the default), --max-chunks (default 4096), --exhaustive.
        sequence: the LP: the installments to size instead of searching, processors by
            name or index, in send order (names may repeat); also "A,B,A", or a
            path-like object (pathlib.Path): the program's --sequence FILE of names.
        release: the LP: release times (s), a mapping {name: seconds} (others 0), an
            array of shape (p,), or the path of the program's --release file (lines
            "NAME SECONDS").
        returns: the LP: results returned, a mapping {name: (fraction, startup s,
            rate s per unit)} (others return nothing), an array of shape (p, 3), or the
            path of the program's --returns file (lines "NAME FRACTION STARTUP RATE").
        return_order: with ``returns``: "fifo" (default), "lifo", or the processors in the
            order their results come back (needs ``sequence``), the j-th time a processor
            is named its j-th chunk: a list, "A,B,..." or a file of names (path-like).
        two_port: with ``returns``: results come back while the sends go on.
        check_tol: the LP's tolerance between its makespan and the replay's.
        snap_tol, max_chunks, grid_per_decade, refine_points, refine_passes: equal chunks:
            the simulation's and sweep's parameters (library defaults when None).
        progress: a callable taking the fraction done; a true return stops the call
            (raises Canceled).

    Returns an :class:`Installments`. Raises InvalidArgument (a bad argument, a 2-D model,
    an unknown processor), OutOfRange (no processor's limit holds a chunk, a sequence
    that cannot hold the load), LimitExceeded, SolverFailure, Canceled, OutOfMemory.
    """
    pl = as_platform(platform)
    v = _args.real(load, "load")
    kw = dict(rounds=rounds, time_limit=time_limit, window=window, moves=moves,
              max_lps=max_lps, order=order, sequence=sequence, release=release,
              returns=returns, return_order=return_order, two_port=two_port,
              max_chunks=max_chunks, exhaustive=exhaustive, check_tol=check_tol,
              snap_tol=snap_tol, grid_per_decade=grid_per_decade,
              refine_points=refine_points, refine_passes=refine_passes, progress=progress)
    if lp:
        if chunk != "formula":
            raise _args.invalid("chunk applies to equal chunks, not lp=True: the LP sizes "
                                "every chunk")
        _refuse(kw, _ROUNDS_ONLY, "equal chunks, not lp=True")
        if not compare:
            raise _args.invalid("compare=False does not apply to lp=True: the LP compares "
                                "with the single-installment schedule it starts from")
        return _solve_lp(pl, v, use_limits, kw)
    _refuse(kw, _LP_ONLY + ("two_port",), "lp=True")
    if not moves:
        raise _args.invalid("moves=False applies to lp=True")
    return _rounds(pl, v, chunk, use_limits, compare, kw)


def _refuse(kw: Dict[str, Any], keys: Sequence[str], where: str) -> None:
    for k in keys:
        if kw[k] is not None and kw[k] is not False:
            raise _args.invalid("%s applies to %s" % (k, where))


def installments_lp_model(platform: Any, load: float, sequence: Sequence[Union[str, int]], *,
                          format: str = "lp", path: Any = None, use_limits: bool = True,
                          window: Optional[int] = None, release: Any = None,
                          returns: Any = None,
                          return_order: Union[str, Sequence[Union[str, int]], None] = None,
                          two_port: bool = False) -> Optional[str]:
    """The LP that sizes the chunks of ``sequence`` for ``load`` units (the LP that
    ``installments(..., lp=True, sequence=...)`` solves), for other solvers and for people:
    returns its text when ``path`` is None, else writes it to ``path`` and returns None.

    Args:
        platform, load, sequence, use_limits, window, release, returns, return_order,
            two_port: as for :func:`installments` with ``lp=True`` (the sequence is
            required: the model is that of one sequence).
        format: "lp" (CPLEX LP, default), "mps" (free MPS), "glpk" or "mathprog".

    Loads are in units and times in seconds; columns x_k (the size of chunk k), A_k (its
    arrival), F_k (its finish) and T (the makespan). Raises InvalidArgument (a bad
    argument or format), InputOutputError, WriteFailed, SolverFailure, OutOfMemory.
    """
    pl = as_platform(platform)
    v = _args.real(load, "load")
    if sequence is None:
        raise _args.invalid("sequence: the model is that of one sequence of installments")
    kw: Dict[str, Any] = {k: None for k in _LP_ONLY + ("max_lps", "max_chunks")}
    kw.update(sequence=sequence, window=window, release=release, returns=returns,
              return_order=return_order, two_port=two_port, moves=True)
    keep: List[Any] = []
    par = _lp_params(pl, use_limits, kw, keep)
    fmt = _args.choice(format, "format", lib.dls_export_format_from_name,
                       "dls_export_format", lib.dls_export_format_name)
    return text_or_file(lib.dls_installment_lp_to_string, lib.dls_installment_lp_write_file, path,
                        pl._ptr, v, par, fmt)
