"""The reference models of the suite, written from the papers' statements and the man page,
independently of dlsched's solvers: the star LP of Drozdowski and Wolniewicz (2003) (written here as
CPLEX LP text and solved with `glpsol --exact`, its optimum then rebuilt exactly in rationals from
the final basis), the subsets of a send order (processor selection), the closed forms of
linear and homogeneous stars, and the integer min-max of partitions (exhaustive).

Every number of a platform is taken as the double dlsched reads (Fraction(float) is exact),
so the optima are the exact optima of the problem dlsched is given."""

import itertools
import os
import subprocess
import tempfile
from fractions import Fraction as F

REL_TOL = F(1, 10**9)  # DLS_REL_TOL, doc/NUMERICS.md


class CertError(Exception):
    pass


# The numbers of a platform as the decimals its file writes (default: the suite's optima),
# or, set by certify.py --certificates, as the doubles dlsched reads them, exactly: the LP
# whose optimum dlsched's rational certificate proves.
EXACT_DOUBLES = False


def fx(v):
    """A platform number exactly as the file writes it (the shortest decimal that gives the
    double dlsched reads): decimal data keep GLPK's ties exact. With EXACT_DOUBLES, the
    double itself."""
    return F(float(v)) if EXACT_DOUBLES else F(repr(float(v)))


def dec(q, digits=21):
    """An exact rational as a decimal string of `digits` significant digits (rounded)."""
    q = F(q)
    if q == 0:
        return "0"
    sign = "-" if q < 0 else ""
    q = abs(q)
    e = 0
    # scale into [10^(digits-1), 10^digits)
    while q >= 10**digits:
        q /= 10
        e += 1
    while q < 10**(digits - 1):
        q *= 10
        e -= 1
    n = q.numerator * 2 + q.denominator
    n //= 2 * q.denominator  # round half up
    if n >= 10**digits:
        n //= 10
        e += 1
    s = str(n)
    return f"{sign}{s[0]}.{s[1:]}e{e + digits - 1:+d}"


def parse_num(s):
    if "/" in s:
        p, q = s.split("/")
        return F(int(p), int(q))
    return F(s)


# ----------------------------------------------------------------------------------
# The star: processors in send order


def star_sequence(procs, order, originator_computes):
    """The send order (indices into procs) as the man page defines it: with the originator
    computing, the processors without a link first (platform order), then the others; by
    increasing link rate with order 'rate' (equal rates in platform order; processors
    without a link have rate 0)."""
    idx = list(range(len(procs)))
    first = [i for i in idx if originator_computes and "link" not in procs[i]]
    rest = [i for i in idx if i not in first]
    if order == "rate":
        rest.sort(key=lambda i: (float(procs[i].get("link", {}).get("rate", 0)), i))
    return first + rest


def star_data(procs, seq, V):
    """(S, C, B, lines) by position, exact; limits that hold V only within the tolerance
    rule are scaled to hold it exactly (dlsched stretches them the same way)."""
    S, C, B, lines = [], [], [], []
    for i in seq:
        p = procs[i]
        link = p.get("link")
        S.append(fx(link["startup"]) if link else F(0))
        C.append(fx(link["rate"]) if link else F(0))
        B.append(fx(p["limit"]) if "limit" in p else None)
        if "time" not in p:
            raise CertError("schedules of the suite use time lines only")
        lines.append([(fx(a), fx(b)) for a, b in p["time"]])
    return S, C, B, lines


def stretch_limits(B, V):
    if any(b is None for b in B):
        return B
    held = sum(B)
    if held < V and (V - held) <= REL_TOL * V:
        return [b * V / held for b in B]
    return B


def lp_text(S, C, B, lines, V):
    """The paper's LP (cumulative form of lp/star.mod) in CPLEX LP format."""
    m = len(S)

    def num(q):
        return repr(float(q))

    out = ["\\ star LP of paper 003 (validation/refmodel.py)", "Minimize", " obj: cmax",
           "Subject To"]
    for k in range(m):
        # T_k - T_{k-1} - C_k alpha_k = S_k
        t = f" s{k}: t{k}"
        if k > 0:
            t += f" - t{k - 1}"
        t += f" - {num(C[k])} a{k} = {num(S[k])}"
        out.append(t)
    for k in range(m):
        for l, (a, b) in enumerate(lines[k]):
            out.append(f" f{k}_{l}: t{k} + {num(b)} a{k} - cmax <= {num(-a)}")
    out.append(" load: " + " + ".join(f"a{k}" for k in range(m)) + f" = {num(V)}")
    out.append("Bounds")
    for k in range(m):
        if B[k] is not None:
            out.append(f" 0 <= a{k} <= {num(B[k])}")
    out.append("End")
    return "\n".join(out) + "\n"


def _rows_cols(S, C, B, lines, V):
    """The same LP as exact rows [(coefs dict, lo, hi)] and column bounds, in glpsol's
    order of rows and of columns (columns appear in the order of first use)."""
    m = len(S)
    rows = []
    for k in range(m):
        c = {f"t{k}": F(1), f"a{k}": -C[k]}
        if k > 0:
            c[f"t{k - 1}"] = F(-1)
        rows.append((c, S[k], S[k]))
    for k in range(m):
        for a, b in lines[k]:
            rows.append(({f"t{k}": F(1), f"a{k}": b, "cmax": F(-1)}, None, -a))
    rows.append(({f"a{k}": F(1) for k in range(m)}, V, V))
    cols = ["cmax"]
    for k in range(m):
        for v in (f"t{k}", f"a{k}"):
            if v not in cols:
                cols.append(v)
    bounds = {v: (F(0), None) for v in cols}
    for k in range(m):
        if B[k] is not None:
            bounds[f"a{k}"] = (F(0), B[k])
    return rows, cols, bounds


def _solve_exact_system(A, rhs):
    n = len(A)
    M = [row[:] + [r] for row, r in zip(A, rhs)]
    for c in range(n):
        piv = next((r for r in range(c, n) if M[r][c] != 0), None)
        if piv is None:
            raise CertError("singular basis")
        M[c], M[piv] = M[piv], M[c]
        pv = M[c][c]
        for r in range(n):
            if r != c and M[r][c] != 0:
                f = M[r][c] / pv
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def glpsol_exact(S, C, B, lines, V, glpsol="glpsol"):
    """The LP's exact optimum: glpsol --exact finds the optimal basis, and the basic solution
    is recomputed here in rationals (glpsol prints 15 digits). None when infeasible."""
    txt = lp_text(S, C, B, lines, V)
    with tempfile.TemporaryDirectory() as d:
        lp = os.path.join(d, "star.lp")
        sol = os.path.join(d, "star.sol")
        with open(lp, "w") as f:
            f.write(txt)
        r = subprocess.run([glpsol, "--lp", lp, "--exact", "-w", sol],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            raise CertError("glpsol failed:\n" + r.stdout[-2000:])
        with open(sol) as f:
            sol_lines = f.read().splitlines()
    rows, cols, bounds = _rows_cols(S, C, B, lines, V)
    rstat, cstat = [], []
    for ln in sol_lines:
        w = ln.split()
        if not w:
            continue
        if w[0] == "s":
            if w[4] != "f":  # primal status: f feasible
                return None
        elif w[0] == "i":
            rstat.append(w[2])
        elif w[0] == "j":
            cstat.append(w[2])
    if len(rstat) != len(rows) or len(cstat) != len(cols):
        raise CertError("glpsol's solution does not match the LP written")
    # unknowns: columns then row activities; each row: sum a_ij x_j - r_i = 0
    nvar = len(cols) + len(rows)
    fixed = {}
    for j, (v, st) in enumerate(zip(cols, cstat)):
        lo, hi = bounds[v]
        if st in ("l", "s"):
            fixed[j] = lo
        elif st == "u":
            fixed[j] = hi
        elif st == "f":
            fixed[j] = F(0)
    for i, ((c, lo, hi), st) in enumerate(zip(rows, rstat)):
        j = len(cols) + i
        if st == "l" or (st == "s" and lo is not None):
            fixed[j] = lo
        elif st in ("u", "s"):
            fixed[j] = hi
        elif st == "f":
            fixed[j] = F(0)
    basic = [j for j in range(nvar) if j not in fixed]
    if len(basic) != len(rows):
        raise CertError("basis of the wrong size")
    pos = {j: t for t, j in enumerate(basic)}
    A, rhs = [], []
    for i, (c, lo, hi) in enumerate(rows):
        row = [F(0)] * len(basic)
        r = F(0)
        for v, a in c.items():
            j = cols.index(v)
            if j in pos:
                row[pos[j]] += a
            else:
                r -= a * fixed[j]
        j = len(cols) + i
        if j in pos:
            row[pos[j]] -= 1
        else:
            r += fixed[j]
        A.append(row)
        rhs.append(r)
    x = _solve_exact_system(A, rhs)
    # optimality, exactly: the reduced costs of the nonbasic variables have the right signs
    # (minimisation; columns of [A | -I], objective cmax)
    nb = len(basic)
    BT = [[A[i][t] for i in range(len(rows))] for t in range(nb)]
    cB = [F(1) if (j < len(cols) and cols[j] == "cmax") else F(0) for j in basic]
    y = _solve_exact_system(BT, cB)
    for j, v in fixed.items():
        if j < len(cols):
            c = F(1) if cols[j] == "cmax" else F(0)
            d = c - sum(y[i] * rows[i][0].get(cols[j], F(0)) for i in range(len(rows)))
            st = cstat[j]
        else:
            i = j - len(cols)
            d = y[i]  # the column of r_i is -e_i, its cost 0
            st = rstat[i]
        if (st == "l" and d < 0) or (st == "u" and d > 0) or (st == "f" and d != 0):
            raise CertError("the basis glpsol found is not optimal in exact arithmetic")
    val = {j: x[pos[j]] for j in basic}
    val.update(fixed)
    xs = {v: val[j] for j, v in enumerate(cols)}
    # the basic solution must be feasible, exactly
    for v in cols:
        lo, hi = bounds[v]
        if xs[v] < lo or (hi is not None and xs[v] > hi):
            raise CertError(f"rebuilt solution breaks the bound of {v}")
    for c, lo, hi in rows:
        act = sum(a * xs[v] for v, a in c.items())
        if (lo is not None and act < lo) or (hi is not None and act > hi):
            raise CertError("rebuilt solution breaks a row")
    # and its makespan is the replay of its loads
    loads = [xs[f"a{k}"] for k in range(len(S))]
    rep = replay(S, C, lines, loads)
    if rep != xs["cmax"]:
        raise CertError("rebuilt makespan differs from the replay of its loads")
    return xs["cmax"], loads


def replay(S, C, lines, loads):
    """Makespan of loads by position, every position charged (the paper's LP)."""
    clock, mk = F(0), F(0)
    for k, x in enumerate(loads):
        clock += S[k] + C[k] * x
        top = max(a + b * x for a, b in lines[k])
        mk = max(mk, clock + max(top, F(0)))
    return mk


def schedule_optimum(procs, V, mode, glpsol="glpsol", max_subsets=4096):
    """The certified optimum of a schedule instance: (value, method, info)."""
    seq = star_sequence(procs, mode["order"], mode["originator_computes"])
    S, C, B, lines = star_data(procs, seq, fx(V))
    V = fx(V)
    B = stretch_limits(B, V)
    if not mode["selection"]:
        r = glpsol_exact(S, C, B, lines, V, glpsol)
        if r is None:
            raise CertError("infeasible")
        return r[0], {"loads": r[1], "set": list(range(len(S)))}
    # processor selection: every subset of the send order, each an exact LP; subsets that
    # give the same sequence of processors (identical ones) are solved once
    m = len(S)
    best, best_set, seen = None, None, {}
    count = 0
    for mask in range(1, 1 << m):
        ks = [k for k in range(m) if mask >> k & 1]
        if all(B[k] is not None for k in ks) and sum(B[k] for k in ks) < V * (1 - REL_TOL):
            continue
        key = tuple((S[k], C[k], B[k], tuple(lines[k])) for k in ks)
        if key in seen:
            continue
        count += 1
        if count > max_subsets:
            raise CertError("too many subsets to enumerate")
        sub = [S[k] for k in ks], [C[k] for k in ks], [B[k] for k in ks], [lines[k] for k in ks]
        Bs = stretch_limits(sub[2], V)
        r = glpsol_exact(sub[0], sub[1], Bs, sub[3], V, glpsol)
        seen[key] = r
        if r is not None and (best is None or r[0] < best):
            best, best_set = r[0], ks
    if best is None:
        raise CertError("infeasible")
    return best, {"set": best_set, "lps": count}


# ----------------------------------------------------------------------------------
# Closed forms


def linear_closed_form(S, C, b, V):
    """Every processor (time b_k x, link S_k + C_k x) used and finishing together:
    S_{k+1} + (C_{k+1} + b_{k+1}) x_{k+1} = b_k x_k. Loads are affine in x_1; the sum fixes
    x_1. Returns (makespan, loads), or None when a load would be negative (then the
    equal-finish form is not the optimum and the instance is not of this family)."""
    m = len(S)
    p, q = [F(1)], [F(0)]  # x_k = p_k x_1 + q_k
    for k in range(1, m):
        den = C[k] + b[k]
        p.append(b[k - 1] * p[-1] / den)
        q.append((b[k - 1] * q[-1] - S[k]) / den)
    x1 = (V - sum(q)) / sum(p)
    x = [pk * x1 + qk for pk, qk in zip(p, q)]
    if any(v <= 0 for v in x):
        return None
    return S[0] + (C[0] + b[0]) * x[0], x


def homogeneous_closed_form(m, S, C, a, b, V, selection):
    """m identical processors, one line a + b x (a >= 0): the linear recurrence above with
    constant coefficients, x_{k+1} = r x_k - s with r = b/(b+C), s = S/(b+C), so
    x_k = r^(k-1) x_1 - s (1 - r^(k-1)) / (1 - r) and the sum gives x_1. With selection the
    best set of identical processors is the first n of them for the best n."""
    def f(n):
        if C == 0:
            r = F(1)
            # x_k = x_1 - (k-1) s
            s = S / b
            x1 = (V + s * n * (n - 1) / 2) / n
            xs = [x1 - k * s for k in range(n)]
        else:
            r = b / (b + C)
            s = S / (b + C)
            geo = (1 - r**n) / (1 - r)            # sum r^(k-1)
            lin = s * (n - geo) / (1 - r)          # sum s (1 - r^(k-1)) / (1 - r)
            x1 = (V + lin) / geo
            xs = [r**k * x1 - s * (1 - r**k) / (1 - r) for k in range(n)]
        if any(v <= 0 for v in xs):
            return None
        return S + C * xs[0] + a + b * xs[0]
    if not selection:
        return f(m)
    vals = [v for v in (f(n) for n in range(1, m + 1)) if v is not None]
    return min(vals) if vals else None


# ----------------------------------------------------------------------------------
# Partitions


def speed_time(model, x):
    """Time of x > 0 units under a 1-D model, exact (man page PLATFORM FILES)."""
    x = F(x)
    if "time" in model:
        return max(max(fx(a) + fx(b) * x for a, b in model["time"]), F(0))
    sp = model["speed"]
    if not isinstance(sp, dict):
        return x / fx(sp)
    pts = [(fx(p[0]), fx(p[1])) for p in sp["points"]]
    if x <= pts[0][0]:
        s = pts[0][1]
    elif x >= pts[-1][0]:
        s = pts[-1][1]
    else:
        for (x0, s0), (x1, s1) in zip(pts, pts[1:]):
            if x0 <= x <= x1:
                s = s0 + (s1 - s0) * (x - x0) / (x1 - x0)
                break
    return x / s


def bilinear(model, X, Y):
    g = model["speed2d"]
    xs = [fx(v) for v in g["x"]]
    ys = [fx(v) for v in g["y"]]
    vals = [[fx(v) for v in row] for row in g["values"]]
    X = min(max(F(X), xs[0]), xs[-1])
    Y = min(max(F(Y), ys[0]), ys[-1])

    def seg(grid, v):
        for i in range(len(grid) - 1):
            if grid[i] <= v <= grid[i + 1]:
                return i, (v - grid[i]) / (grid[i + 1] - grid[i])
        return 0, F(0)
    if len(xs) == 1:
        i, u = 0, F(0)
    else:
        i, u = seg(xs, X)
    if len(ys) == 1:
        j, w = 0, F(0)
    else:
        j, w = seg(ys, Y)
    i1 = min(i + 1, len(xs) - 1)
    j1 = min(j + 1, len(ys) - 1)
    return ((1 - u) * (1 - w) * vals[i][j] + u * (1 - w) * vals[i1][j]
            + (1 - u) * w * vals[i][j1] + u * w * vals[i1][j1])


def whole_units(limit):
    """Whole units a limit holds under the rule (doc/NUMERICS.md)."""
    L = fx(limit)
    c = -(-L.numerator // L.denominator)  # ceil
    if c - L <= REL_TOL * c and c - L < 1:
        return c
    return L.numerator // L.denominator


def minmax_integer(times, N):
    """min over integer splits n_1 + ... + n_p = N, 0 <= n_i <= len(times[i]) - 1, of
    max_i times[i][n_i] (times[i][0] = 0): the candidate values in increasing order,
    feasibility of each by the sumset of {n : times[i][n] <= T} (bitsets), binary search.
    Exhaustive over the splits in effect: a candidate is feasible iff some split attains it."""
    cands = sorted({t for ts in times for t in ts})
    full = (1 << (N + 1)) - 1

    def feasible(T):
        acc = 1
        for ts in times:
            nxt = 0
            for n, t in enumerate(ts):
                if n > N:
                    break
                if t <= T:
                    nxt |= acc << n
            acc = nxt & full
            if acc == 0:
                return False
        return bool(acc >> N & 1)
    lo, hi = 0, len(cands) - 1
    if not feasible(cands[hi]):
        raise CertError("infeasible partition")
    while lo < hi:
        mid = (lo + hi) // 2
        if feasible(cands[mid]):
            hi = mid
        else:
            lo = mid + 1
    return cands[lo]


def partition_optimum(procs, N):
    times = []
    for p in procs:
        cap = whole_units(p["limit"]) if "limit" in p else N
        cap = min(cap, N)
        times.append([F(0)] + [speed_time(p, n) for n in range(1, cap + 1)])
    return minmax_integer(times, N)


def matrix_optimum(procs, N):
    times = []
    N2 = F(N) * N
    for p in procs:
        cap = whole_units(p["limit"]) if "limit" in p else N
        cap = min(cap, N)
        if "speed2d" in p:
            ts = [F(0)] + [r * N2 / bilinear(p, N, r) for r in range(1, cap + 1)]
        else:  # s(x, y) = s(x y) for 1-D models
            ts = [F(0)] + [r * N2 / (F(N * r) / speed_time(p, N * r)) for r in range(1, cap + 1)]
        times.append(ts)
    return minmax_integer(times, N)


def weighted_optimum(procs, weights, ordered):
    """Exhaustive: every assignment of the elements (p^n), or every cut of the sequence into
    p contiguous chunks in platform order (C(n+p-1, p-1)); processor i takes t_i(W_i) for its
    weight W_i (0 for none), W_i within its limit."""
    w = [fx(v) for v in weights]
    p = len(procs)
    caps = [fx(q["limit"]) if "limit" in q else None for q in procs]

    def cost(W):
        mk = F(0)
        for i in range(p):
            if W[i] > 0:
                if caps[i] is not None and W[i] > caps[i] * (1 + REL_TOL):
                    return None
                mk = max(mk, speed_time(procs[i], W[i]))
        return mk
    best = None
    if ordered:
        n = len(w)
        pre = [F(0)]
        for v in w:
            pre.append(pre[-1] + v)
        for cuts in itertools.combinations_with_replacement(range(n + 1), p - 1):
            b = (0,) + cuts + (n,)
            W = [pre[b[i + 1]] - pre[b[i]] for i in range(p)]
            c = cost(W)
            if c is not None and (best is None or c < best):
                best = c
    else:
        memo = {}
        for assign in itertools.product(range(p), repeat=len(w)):
            W = [F(0)] * p
            for e, i in enumerate(assign):
                W[i] += w[e]
            key = tuple(W)
            if key in memo:
                continue
            c = memo[key] = cost(W)
            if c is not None and (best is None or c < best):
                best = c
    if best is None:
        raise CertError("infeasible weighted partition")
    return best
