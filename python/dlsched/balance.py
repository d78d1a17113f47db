"""Balancing an iterative application while it runs, from the times of its own iterations
(dlsched/balance.h), and the plans that move its elements between distributions.

An application gives processor i a share d_i of its n elements at each iteration and
times it; :meth:`Balancer.step` takes those times and returns the next distribution.
Sizes are in elements (or in weight, with ``weights``), times in seconds.
"""

import dataclasses
import os
from typing import Any, Dict, Optional, Union

import numpy as np

from ._dlsched import ffi, lib
from ._core import as_doubles, check, doubles, new_error, ptr_of, to_json_text, uint64s
from . import _args
from .errors import InvalidData
from .platform import as_platform

__all__ = ["Balancer", "BalanceInfo", "MovePlan", "SpeedModel", "move_plan",
           "balance_modes", "MAX_BALANCE_PROCESSORS", "BalanceSimulation",
           "simulate_balance"]

#: The largest number of processors a balancer takes (2^24).
MAX_BALANCE_PROCESSORS: int = int(lib.DLS_BALANCE_MAX_PROCESSORS)


def balance_modes() -> list:
    """The names of the balancing rules, as ``mode=`` takes them ("functional", "constant")."""
    return _args.names_of(lib.dls_balance_mode_name)


class SpeedModel:
    """A copy of a 1-D speed model (a balancer's partial speed function, or a measured one).

    Attributes:
        kind: "constant", "points", "time"...
        sizes: float64 array of shape (k,): the points' sizes in units (empty unless
            ``kind`` is "points").
        speeds: float64 array of shape (k,): the speeds there, units per second.
        low, high: float64 arrays of shape (k,): each point's measured band (the slowest and
            fastest speeds seen), or None when the points carry no band.
        constant: the speed of a constant model in units per second (NaN for other kinds).
    """

    def __init__(self, ptr) -> None:
        # ptr is owned here (ffi.gc): speed() and time() evaluate the library's model
        self._ptr = ffi.gc(ptr, lib.dls_model_free)
        self.kind: str = ffi.string(lib.dls_model_kind_name(lib.dls_model_get_kind(ptr))).decode()
        self.constant = float(lib.dls_model_constant_speed(ptr))
        n = ffi.new("size_t *")
        arrs = [ffi.new("double **") for _ in range(4)]
        self.low: Optional[np.ndarray] = None
        self.high: Optional[np.ndarray] = None
        if lib.dls_model_get_points(ptr, n, *arrs) == lib.DLS_OK:
            k = int(n[0])
            self.sizes, self.speeds = doubles(arrs[0][0], k), doubles(arrs[1][0], k)
            if arrs[2][0] != ffi.NULL:
                self.low, self.high = doubles(arrs[2][0], k), doubles(arrs[3][0], k)
        else:
            self.sizes = self.speeds = np.zeros(0)

    def speed(self, x: Union[float, np.ndarray]) -> Union[float, np.ndarray]:
        """The speed in units per second at size ``x`` units (a number or an array)."""
        return _apply(lib.dls_model_speed, self._ptr, x)

    def time(self, x: Union[float, np.ndarray]) -> Union[float, np.ndarray]:
        """The time in seconds to compute ``x`` units (a number or an array)."""
        return _apply(lib.dls_model_time, self._ptr, x)

    def __len__(self) -> int:
        """The number of points (1 for a constant model)."""
        return int(lib.dls_model_count(self._ptr))

    def __repr__(self) -> str:
        return "<dlsched.SpeedModel %s, %d points>" % (self.kind, len(self))


def _apply(fn, ptr, x):
    if np.ndim(x) == 0:
        return float(fn(ptr, float(x)))
    arr = np.asarray(x, dtype=np.float64)
    return np.array([fn(ptr, float(v)) for v in arr.ravel()]).reshape(arr.shape)


@dataclasses.dataclass(frozen=True)
class BalanceInfo:
    """What the last :meth:`Balancer.step` found (dls_balance_info). Times in seconds;
    NaN where there is nothing yet (before the first step, or while a processor has no
    model).

    Attributes:
        steps: steps taken so far.
        measured_makespan: the largest time given to the last step.
        measured_imbalance: the last step's largest time over smallest, minus 1.
        predicted_current: the predicted makespan of the distribution just run.
        predicted_makespan: the predicted makespan of the next distribution.
        predicted_imbalance: its predicted imbalance.
        band: the relative half-width of the bands that decided.
        gain: the predicted gain per iteration of the new distribution, seconds.
        move_cost: the predicted cost of its moves, seconds.
        moved: elements that change processor for the next iteration.
        changed: the last step changed the distribution.
        converged: the distribution just run has converged.
        drifted: the number of processors whose time left its band (points forgotten).
    """

    steps: int
    measured_makespan: float
    measured_imbalance: float
    predicted_current: float
    predicted_makespan: float
    predicted_imbalance: float
    band: float
    gain: float
    move_cost: float
    moved: int
    changed: bool
    converged: bool
    drifted: int

    def to_dict(self) -> Dict[str, Any]:
        """The figures as a dict (non-finite reals as None, as the program's JSON)."""
        return {f.name: (_args.number(v) if isinstance(v, float) else v)
                for f, v in ((f, getattr(self, f.name)) for f in dataclasses.fields(self))}


class MovePlan:
    """How the elements of a 1-D block layout move from one distribution to another
    (processor i holds [first_i, first_i + d_i), in processor order): the fewest moves
    any plan can make for the new counts.

    Attributes:
        count_processors: p.
        moved: elements that change owner (the sum of ``count``).
        source, destination: int64 arrays of shape (m,): each transfer's old and new owner.
        first: uint64 array of shape (m,): the global index of each transfer's first
            element (increasing).
        count: uint64 array of shape (m,): the elements each transfer moves (> 0).
        boundaries: int64 array of shape (p - 1,): the elements crossing the boundary
            between i and i + 1, positive from i to i + 1.
        changes: int64 array of shape (p,): each processor's new count minus its old one.
    """

    def __init__(self, ptr) -> None:
        p = int(lib.dls_move_plan_count(ptr))
        self.count_processors = p
        self.moved = int(lib.dls_move_plan_moved(ptr))
        m = ffi.new("size_t *")
        mv = lib.dls_move_plan_moves(ptr, m)
        k = int(m[0]) if mv != ffi.NULL else 0
        # a structured view of the C records, copied out column by column
        rec = np.dtype({"names": ["from", "to", "first", "count"],
                        "formats": [np.uintp, np.uintp, np.uint64, np.uint64],
                        "offsets": [ffi.offsetof("dls_move", f)
                                    for f in ("from", "to", "first", "count")],
                        "itemsize": ffi.sizeof("dls_move")})
        arr = (np.frombuffer(ffi.buffer(mv, k * rec.itemsize), dtype=rec) if k
               else np.zeros(0, dtype=rec))
        self.source = arr["from"].astype(np.int64)
        self.destination = arr["to"].astype(np.int64)
        self.first = arr["first"].astype(np.uint64)
        self.count = arr["count"].astype(np.uint64)
        b = lib.dls_move_plan_boundaries(ptr)
        self.boundaries = _int64s(b, p - 1)
        self.changes = _int64s(lib.dls_move_plan_changes(ptr), p)

    def __len__(self) -> int:
        """The number of transfers."""
        return int(self.source.shape[0])

    def __repr__(self) -> str:
        return "<dlsched.MovePlan: %d elements in %d transfers over %d processors>" % (
            self.moved, len(self), self.count_processors)

    def to_dict(self) -> Dict[str, Any]:
        """The transfers as a dict: "moved" and "moves" (a list of {"from", "to", "first",
        "count"} with processor indices, as ``dlsched balance --json`` lists them by name)."""
        return {"moved": self.moved,
                "moves": [{"from": f, "to": t, "first": a, "count": c} for f, t, a, c in
                          zip(self.source.tolist(), self.destination.tolist(),
                              self.first.tolist(), self.count.tolist())]}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _int64s(ptr, n: int) -> np.ndarray:
    if ptr == ffi.NULL or n <= 0:
        return np.zeros(max(n, 0), dtype=np.int64)
    return np.frombuffer(ffi.buffer(ptr, n * 8), dtype=np.int64).copy()


def _counts(values: Any, name: str, p: Optional[int] = None) -> np.ndarray:
    """Whole counts as a contiguous uint64 array (refusing negatives and fractions)."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as e:
        raise _args.invalid("%s: not an array of counts (%s)" % (name, e)) from None
    if arr.ndim != 1:
        raise _args.invalid("%s: a one-dimensional array is needed, not shape %s"
                            % (name, arr.shape))
    if p is not None and arr.shape[0] != p:
        raise _args.invalid("%s: %d values for %d processors" % (name, arr.shape[0], p))
    if arr.dtype.kind not in "ui":
        if arr.dtype.kind != "f" or not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
            raise _args.invalid("%s: whole numbers of elements are needed" % name)
    if arr.size and arr.min() < 0:
        i = int(np.argmin(arr))
        raise _args.invalid("%s[%d] is negative: %s" % (name, i, arr[i]))
    return np.ascontiguousarray(arr, dtype=np.uint64)


def move_plan(before: Any, after: Any) -> MovePlan:
    """The plan that takes a 1-D block layout from the counts ``before`` to the counts
    ``after`` (two arrays of shape (p,), whole elements, with the same sum).

    Raises InvalidArgument when the shapes or the sums differ (the message gives both).
    """
    b = _counts(before, "before")
    a = _counts(after, "after", b.shape[0])
    if b.shape[0] == 0:
        raise _args.invalid("move_plan: before and after are empty (no processor)")
    out = ffi.new("dls_move_plan **")
    err = new_error()
    check(lib.dls_move_plan_create(b.shape[0], ptr_of(b, "uint64_t[]"), ptr_of(a, "uint64_t[]"),
                                   out, err), err)
    try:
        return MovePlan(out[0])
    finally:
        lib.dls_move_plan_free(out[0])


def _set_real(par, field: str, value: Optional[float]) -> None:
    if value is not None:
        setattr(par, field, _args.real(value, field))


def _balance_params(mode, prior, use_limits, noise, tolerance, move_cost, horizon, trust,
                    max_points):
    par = ffi.new("dls_balance_params *")
    lib.dls_balance_params_init(par)
    par.mode = _args.choice(mode, "mode", lib.dls_balance_mode_from_name, "dls_balance_mode",
                            lib.dls_balance_mode_name)
    par.use_limits = 1 if use_limits else 0
    if prior is not None:
        par.prior = prior._ptr
    for field, v in (("noise", noise), ("tolerance", tolerance), ("move_cost", move_cost),
                     ("horizon", horizon), ("trust", trust)):
        _set_real(par, field, v)
    if max_points is not None:
        par.max_points = _args.count(max_points, "max_points", 0)
    return par


def _default(field: str) -> Any:
    par = ffi.new("dls_balance_params *")
    lib.dls_balance_params_init(par)
    return getattr(par, field)


_D = ffi.new("dls_balance_params *")
lib.dls_balance_params_init(_D)


class Balancer:
    """Balances an iterative application of ``n`` elements over ``p`` processors from the
    measured times of its iterations (dls_balance).

    At each iteration processor i runs ``shares[i]`` elements (a contiguous block starting
    at ``first[i]`` in a 1-D layout) and times it; :meth:`step` takes the p times in
    seconds and returns the next shares. :meth:`moves` says which elements move.

    Args:
        p: number of processors, 1 to :data:`MAX_BALANCE_PROCESSORS`.
        n: number of elements, 1 to 2^53.
        mode: "functional" (partial speed functions from every point seen, the default)
            or "constant" (the traditional rule, speed d_i / t_i of the last iteration).
        prior: None, or a :class:`Platform` (or what ``Platform()`` takes) of exactly p
            processors with 1-D models: the first distribution is its partition and each
            model serves until the processor is measured; its limits count, its links
            price the moves.
        use_limits: no processor ever gets more than its limit (True, the default).
        limits: None, or a float64 array of shape (p,): the elements (or weight) each
            processor may hold, > 0 or inf for none.
        weights: None for equal elements, or a float64 array of shape (n,), each > 0:
            a processor's size is then the sum of its block's weights.
        start: None (the even split, or the prior's partition) or an array of shape (p,)
            of counts summing to n: the application's current distribution.
        noise: the relative variation of a measured time expected, in [0, 0.5).
        tolerance: converged when no distribution is predicted to finish sooner by more
            than this share of the makespan, in (0, 1).
        move_cost: seconds to move one element (when the prior has no link), >= 0.
        horizon: iterations a new distribution is expected to serve, >= 1.
        trust: a share never grows beyond this many times the largest size measured, > 1.
        max_points: points kept per processor, >= 2.

    Every default is the library's (dls_balance_params_init); None also means it.
    Raises InvalidArgument for a bad argument (the message names it), InvalidData when
    the limits cannot hold the n elements.
    """

    def __init__(self, p: int, n: int, *, mode: str = "functional", prior: Any = None,
                 use_limits: bool = True, limits: Any = None, weights: Any = None,
                 start: Any = None, noise: Optional[float] = _D.noise,
                 tolerance: Optional[float] = _D.tolerance,
                 move_cost: Optional[float] = _D.move_cost,
                 horizon: Optional[float] = _D.horizon, trust: Optional[float] = _D.trust,
                 max_points: Optional[int] = int(_D.max_points)) -> None:
        p = _args.count(p, "p", 1, MAX_BALANCE_PROCESSORS)
        n = _args.count(n, "n", 1, int(lib.DLS_PARTITION_MAX_ELEMENTS))
        self.prior = as_platform(prior) if prior is not None else None
        par = _balance_params(mode, self.prior, use_limits, noise, tolerance, move_cost,
                              horizon, trust, max_points)
        keep = []  # arrays the parameters point into, alive until the balancer copied them
        if limits is not None:
            keep.append(as_doubles(limits, "limits", p))
            par.limits = ptr_of(keep[-1])
        if weights is not None:
            keep.append(as_doubles(weights, "weights"))
            if keep[-1].shape[0] != n:
                raise _args.invalid("weights: %d values for n = %d elements"
                                    % (keep[-1].shape[0], n))
            par.weights = ptr_of(keep[-1])
        if start is not None:
            keep.append(_counts(start, "start", p))
            par.start = ptr_of(keep[-1], "uint64_t[]")
        out = ffi.new("dls_balance **")
        err = new_error()
        check(lib.dls_balance_create(p, n, par, out, err), err)
        self._ptr = ffi.gc(out[0], lib.dls_balance_free)
        self.p, self.n = p, n
        self.mode: str = ffi.string(lib.dls_balance_mode_name(par.mode)).decode()

    def step(self, times: Any, counts: Any = None) -> np.ndarray:
        """One iteration: ``times``, a float64 array of shape (p,), the seconds each
        processor took for its share (finite and > 0 with work, 0 without), and
        optionally ``counts``, the shares it ran (they must be :attr:`shares`).

        Returns the next shares (uint64 array of shape (p,), summing to n). Raises
        InvalidArgument naming the processor and the value for a bad time or count;
        the balancer is then unchanged.
        """
        t = as_doubles(times, "times", self.p)
        c = _counts(counts, "counts", self.p) if counts is not None else None
        err = new_error()
        check(lib.dls_balance_step(self._ptr, self.p,
                                   ptr_of(c, "uint64_t[]") if c is not None else ffi.NULL,
                                   ptr_of(t), err), err)
        return self.shares

    @property
    def shares(self) -> np.ndarray:
        """The distribution to run next: uint64 array of shape (p,), summing to n."""
        return uint64s(lib.dls_balance_shares(self._ptr), self.p)

    @property
    def first(self) -> np.ndarray:
        """The first element of each processor's block (1-D layout): uint64, shape (p,)."""
        return uint64s(lib.dls_balance_first(self._ptr), self.p)

    @property
    def predicted(self) -> np.ndarray:
        """Each processor's predicted time for its next share, seconds: float64, shape
        (p,); NaN without a model yet, 0 without work."""
        return doubles(lib.dls_balance_predicted(self._ptr), self.p)

    @property
    def info(self) -> BalanceInfo:
        """The figures of the last step (a :class:`BalanceInfo`)."""
        c = ffi.new("dls_balance_info *")
        err = new_error()
        check(lib.dls_balance_get_info(self._ptr, c, err), err)
        return BalanceInfo(
            steps=int(c.steps), measured_makespan=c.measured_makespan,
            measured_imbalance=c.measured_imbalance, predicted_current=c.predicted_current,
            predicted_makespan=c.predicted_makespan,
            predicted_imbalance=c.predicted_imbalance, band=c.band, gain=c.gain,
            move_cost=c.move_cost, moved=int(c.moved), changed=bool(c.changed),
            converged=bool(c.converged), drifted=int(c.drifted))

    @property
    def drifted(self) -> np.ndarray:
        """The processors that drifted at the last step (their old points forgotten):
        int64 array of indices, increasing."""
        k = ffi.new("size_t *")
        ptr = lib.dls_balance_drifted(self._ptr, k)
        if ptr == ffi.NULL:
            return np.zeros(0, dtype=np.int64)
        return np.frombuffer(ffi.buffer(ptr, int(k[0]) * ffi.sizeof("size_t")),
                             dtype=np.uintp).astype(np.int64)

    def model(self, i: int) -> SpeedModel:
        """A copy of processor ``i``'s model now (its points with their bands; the
        prior's model before its first measurement; constant in the constant mode).
        Raises InvalidArgument for a bad index or before any time or prior gives one."""
        i = _args.count(i, "i", 0, self.p - 1)
        out = ffi.new("dls_model **")
        err = new_error()
        check(lib.dls_balance_get_model(self._ptr, i, out, err), err)
        return SpeedModel(out[0])

    def moves(self) -> MovePlan:
        """The moves from the distribution run at the last step to the next one (empty
        before the first step, or when the distribution was kept)."""
        return MovePlan(lib.dls_balance_moves(self._ptr))

    def __len__(self) -> int:
        """The number of processors, p."""
        return self.p

    def __repr__(self) -> str:
        return "<dlsched.Balancer of %d elements over %d processors, %s mode, %d steps>" % (
            self.n, self.p, self.mode, self.info.steps)


_MASK64 = (1 << 64) - 1


def _splitmix(state: list) -> float:
    """tool/cmd_balance.c's noise: a uniform number in [0, 1) (splitmix64), so that a
    seed gives the program's measured times."""
    state[0] = (state[0] + 0x9E3779B97F4A7C15) & _MASK64
    z = state[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return ((z ^ (z >> 31)) >> 11) * 2.0 ** -53


#: A distribution is within the optimum when its makespan is at most this times it.
WITHIN = 1.05


class BalanceSimulation:
    """An iterative application simulated on a platform's models taken as the truth, and
    balanced by a :class:`Balancer` that sees only the measured times (the result of
    :func:`simulate_balance`, ``dlsched balance``). Arrays have shape (K, p) for K
    iterations and p processors unless said; times in seconds.

    Attributes:
        shares: uint64: the distribution each iteration ran.
        times: the measured times (the truth with the noise).
        true_times: the times on the true models.
        predicted: the balancer's prediction of each time before the iteration (NaN
            without a model).
        makespan, true_makespan, ratio: shape (K,): measured, true, and true over the
            optimum.
        infos: the :class:`BalanceInfo` of each step; moves: the :class:`MovePlan` after
            each iteration; drifted: each step's drifted processors (int64 arrays).
        optimum: the optimal makespan on the true models (the partitioner's, limits
            included); optimal: uint64 shape (p,), its distribution.
        within_from: the first iteration (1-based) from which every true makespan is
            within 5% of the optimum; None when the last one is not.
        balancer: the :class:`Balancer` after the last iteration.
    """

    def __init__(self, platform: Any, source: Optional[str], n: int, noise: float, seed: int,
                 start: Any, balancer: "Balancer") -> None:
        self.platform, self.source, self.n = platform, source, n
        self.noise, self.seed, self.start, self.balancer = noise, seed, start, balancer
        self.infos: list = []
        self.moves: list = []
        self.drifted: list = []
        rows: Dict[str, list] = {"shares": [], "times": [], "true_times": [], "predicted": []}
        self._rows = rows

    def _finish(self, optimum: float, optimal: np.ndarray) -> None:
        r = self._rows
        self.shares = np.array(r["shares"], dtype=np.uint64)
        for key in ("times", "true_times", "predicted"):
            setattr(self, key, np.array(r[key], dtype=np.float64))
        self.optimum, self.optimal = optimum, optimal
        self.makespan = self.times.max(axis=1) if len(self.times) else np.zeros(0)
        self.true_makespan = self.true_times.max(axis=1) if len(self.times) else np.zeros(0)
        self.ratio = self.true_makespan / optimum if optimum > 0 else np.ones(len(self.times))
        k = len(self.ratio)
        while k > 0 and self.ratio[k - 1] <= WITHIN:
            k -= 1
        self.within_from: Optional[int] = None if k == len(self.ratio) else k + 1

    def __repr__(self) -> str:
        return "<dlsched.BalanceSimulation of %d iterations over %d processors: within 5%% " \
               "from %s>" % (len(self.shares), len(self.platform), self.within_from)

    def to_dict(self) -> Dict[str, Any]:
        """The simulation as ``dlsched balance --json`` writes it (same keys, same order;
        "start" is "even", or "given" for counts given here)."""
        names = [_args.name_text(lib.dls_platform_name(self.platform._ptr, i))
                 for i in range(len(self.platform))]
        num = _args.number
        its = []
        for k, info in enumerate(self.infos):
            its.append({
                "iteration": k + 1, "makespan": num(self.makespan[k]),
                "true_makespan": num(self.true_makespan[k]), "ratio": num(self.ratio[k]),
                "imbalance": num(info.measured_imbalance),
                "predicted_makespan": num(info.predicted_makespan), "moved": info.moved,
                "changed": info.changed, "converged": info.converged,
                "drifted": [names[i] for i in self.drifted[k].tolist()],
                "moves": [{"from": names[f], "to": names[t], "first": a, "count": c}
                          for f, t, a, c in zip(*(getattr(self.moves[k], x).tolist() for x in
                                                  ("source", "destination", "first", "count")))],
                "processors": [{"name": names[i], "elements": e, "time": num(t),
                                "true_time": num(tt), "predicted": num(pr)}
                               for i, (e, t, tt, pr) in enumerate(zip(
                                   self.shares[k].tolist(), self.times[k].tolist(),
                                   self.true_times[k].tolist(), self.predicted[k].tolist()))]})
        return {
            "platform": self.source, "elements": self.n, "mode": self.balancer.mode,
            "noise": num(self.noise), "seed": self.seed,
            "start": "even" if self.start is None else "given", "within": WITHIN,
            "optimum": {"makespan": num(self.optimum),
                        "processors": [{"name": nm, "elements": e}
                                       for nm, e in zip(names, self.optimal.tolist())]},
            "iterations": its,
            "summary": {"within_from": self.within_from,
                        "total_time": num(_total(self.true_makespan)),
                        "total_measured": num(_total(self.makespan)),
                        "optimal_total_time": num(self.optimum * len(self.infos)),
                        "moved": sum(i.moved for i in self.infos)}}

    def to_json(self, indent: Optional[int] = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return to_json_text(self.to_dict(), indent)


def _total(values: np.ndarray) -> float:
    """A sum in order, as the program adds (bit for bit the same)."""
    t = 0.0
    for v in values.tolist():
        t += v
    return t


def _true_times(platform: Any, shares: np.ndarray) -> np.ndarray:
    ptr = platform._ptr
    return np.array([lib.dls_model_time(lib.dls_platform_model(ptr, i), float(d)) if d else 0.0
                     for i, d in enumerate(shares.tolist())], dtype=np.float64)


def _optimum(platform: Any, n: int) -> np.ndarray:
    from .partition import partition  # (partition imports nothing of this module)
    r = partition(platform, n)
    if r.status in ("infeasible", "not-found"):
        raise InvalidData("simulate_balance: %s" % r.note, status=lib.DLS_EDATA)
    return r.elements


def simulate_balance(platform: Any, n: int, *, iterations: int = 20, start: Any = None,
                     noise: float = 0.0, seed: int = 1, mode: str = "functional",
                     tolerance: Optional[float] = _D.tolerance,
                     trust: Optional[float] = _D.trust,
                     move_cost: Optional[float] = _D.move_cost,
                     horizon: Optional[float] = _D.horizon) -> BalanceSimulation:
    """Simulates balancing an iterative application of ``n`` elements on ``platform``'s
    models taken as the truth (``dlsched balance``): at each iteration processor i takes
    the time its model gives for its share, times 1 + noise u (u uniform in [-1, 1], the
    program's generator from ``seed``); a :class:`Balancer` with the platform's limits
    sees only those times and gives the next distribution.

    Args:
        platform: a :class:`Platform` (or what ``Platform()`` takes) with 1-D models.
        n: number of elements, 1 to 2^53.
        iterations: iterations to run (the program's default, 20).
        start: None for the even split, or p counts summing to n.
        noise: relative half-width of the noise on each time, in [0, 0.5); when > 0 also
            the balancer's ``noise``.
        seed: the noise's seed: the same seed gives the program's output.
        mode, tolerance, trust, move_cost, horizon: the :class:`Balancer`'s.

    Returns a :class:`BalanceSimulation` whose ``to_dict()`` is the program's JSON. Raises
    InvalidArgument for a bad argument, InvalidData when the limits cannot hold n.
    """
    source = os.fsdecode(platform) if isinstance(platform, (str, bytes, os.PathLike)) else None
    pl = as_platform(platform)
    K = _args.count(iterations, "iterations", 1, 100000)
    noise = _args.real(noise, "noise")
    if not 0 <= noise < 0.5:
        raise _args.invalid("noise must be in [0, 0.5) (a time may not vanish), not %g" % noise)
    seed = _args.count(seed, "seed", 0, _MASK64)
    n = _args.count(n, "n", 1, int(lib.DLS_PARTITION_MAX_ELEMENTS))
    optimal = _optimum(pl, n)
    b = Balancer(len(pl), n, mode=mode, limits=pl.limits, start=start,
                 noise=noise if noise > 0 else None, tolerance=tolerance, trust=trust,
                 move_cost=move_cost, horizon=horizon)
    sim = BalanceSimulation(pl, source, n, noise, seed, start, b)
    state, rows = [seed], sim._rows
    for _ in range(K):
        ran, predicted = b.shares, b.predicted
        truth = _true_times(pl, ran)
        u = np.array([2 * _splitmix(state) - 1 for _ in range(len(pl))])
        measured = truth * (1 + noise * u)
        b.step(measured, ran)
        for key, v in (("shares", ran), ("times", measured), ("true_times", truth),
                       ("predicted", predicted)):
            rows[key].append(v)
        sim.infos.append(b.info)
        sim.moves.append(b.moves())
        sim.drifted.append(b.drifted)
    sim._finish(float(_true_times(pl, optimal).max()) if len(pl) else 0.0, optimal)
    return sim
