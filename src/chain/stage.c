/* One position's transform of a value function: f_i from f_{i+1} = g (chain.h).
 *
 * With Z = W - S the time left once the send to position p has started, r the time left
 * once it has ended, and the load alpha = (Z - r) / C, position p must finish its compute
 * within r: alpha <= v(r), i.e. Z <= psi(r) = r + C v(r). So
 *     f(Z + S) = max over r in [lo(Z), Z], r >= rmin, of (Z - r) / C + g(r),
 * lo = psi^-1, rmin = max(amax, start of g) (the paper charges the compute time of a zero
 * load, amax). Written with h(r) = g(r) - r / C, the best r maximises h over a window whose
 * two ends rise with Z.
 *
 * PAPER (g concave): h is concave, its maximum over [rmin, inf) is at rho = max(r*, rmin),
 * r* where the slope of g falls to 1 / C. Then, as Z grows:
 *   Z <= rho:            r = Z, p gets nothing, f = g(Z)              (g's points, shifted)
 *   rho <= Z <= psi(rho): r = rho, f = (Z - rho) / C + g(rho)        (one piece, slope 1/C)
 *   Z >= psi(rho):       r = lo(Z), p gets v(r), f = v(r) + g(r) at Z = psi(r)
 * and the last part is the curve r -> (psi(r), v(r) + g(r)), whose points are those of g
 * and of v past rho. With C = 0 the send takes S whatever the load: f = v(Z) + g(Z).
 *
 * SELECT (g any nondecreasing function): f = max(g(W), use(W - S)), where use(Z) is the
 * best of: the left end r = lo(Z) (the same curve P), the left end rmin while
 * Z <= psi(rmin), and the points r0 of g where h stops rising, each on the Z in
 * [r0, psi(r0)] whose window holds it: pieces of slope 1 / C whose upper envelope is a
 * sliding-window maximum (a monotone queue). The right end r = Z gives g(Z) <= g(Z + S):
 * never better than leaving p out. */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "chain/chain_impl.h"

/* g at r, with a cursor that only moves forward (*i: last point <= r). */
static double g_at(const dls__pwl *g, size_t *i, double r)
{
    size_t n = g->n;
    while (*i + 1 < n && g->x[*i + 1] <= r)
        ++*i;
    size_t k = *i;
    if (k + 1 == n || r == g->x[k])
        return g->y[k] + (r > g->x[k] ? g->tail * (r - g->x[k]) : 0);
    double t = (r - g->x[k]) / (g->x[k + 1] - g->x[k]);
    return g->y[k] + t * (g->y[k + 1] - g->y[k]);
}

/* v at r with a forward cursor. */
static double v_at(const dls__vcurve *vc, size_t *j, double r)
{
    size_t n = vc->n;
    while (*j + 1 < n && vc->r[*j + 1] <= r)
        ++*j;
    size_t k = *j;
    if (r <= vc->r[0])
        return vc->al[0];
    if (k + 1 == n || r == vc->r[k])
        return vc->al[k];
    double t = (r - vc->r[k]) / (vc->r[k + 1] - vc->r[k]);
    return vc->al[k] + t * (vc->al[k + 1] - vc->al[k]);
}

/* The curve r -> (psi(r) + S, v(r) + g(r)) for r >= from (g's value at `from` taken as its
 * upper value), through the points of g and v past `from`, into f; stops after the first
 * point past wmax or at vcap. Jumps of g stay jumps. */
static int curve(const dls__pwl *g, const dls__vcurve *vc, double C, double S, double from,
                 double vcap, double wmax, dls__pwl *f)
{
    size_t gi = dls__pwl_find(g, from), vj = 0, n = g->n;
    /* the upper value of g at `from` */
    while (gi + 1 < n && g->x[gi + 1] <= from)
        gi++;
    double v = v_at(vc, &vj, from), y = g_at(g, &gi, from);
    if (dls__pwl_push(f, from + C * v + S, v + y) != 0)
        return -1;
    size_t i = gi + 1; /* next point of g */
    while (vj < vc->n && vc->r[vj] <= from)
        vj++;
    size_t j = vj; /* next point of v */
    size_t gc = gi, vcur = vj > 0 ? vj - 1 : 0;
    while (f->x[f->n - 1] <= wmax && f->y[f->n - 1] < vcap) {
        double rg = i < n ? g->x[i] : INFINITY, rv = j < vc->n ? vc->r[j] : INFINITY;
        double r = fmin(rg, rv);
        if (!isfinite(r))
            break;
        double vv = v_at(vc, &vcur, r);
        if (rg <= rv) {
            /* g's points at r: a jump gives two */
            while (i < n && g->x[i] == r) {
                if (dls__pwl_push(f, r + C * vv + S, vv + g->y[i]) != 0)
                    return -1;
                i++;
            }
            gc = i - 1;
            if (rv == r)
                j++;
        } else {
            if (dls__pwl_push(f, r + C * vv + S, vv + g_at(g, &gc, r)) != 0)
                return -1;
            j++;
        }
    }
    f->tail = g->tail; /* past v's last point v is constant (Bt <= V) */
    return 0;
}

int dls__stage_paper(const dls__cprob *pb, size_t p, const dls__pwl *g, double vcap,
                     double wmax, dls__vcurve *vc, dls__pwl *f, double *rho_out)
{
    double S = pb->S[p], C = pb->C[p];
    size_t n = g->n;
    double rmin = fmax(pb->amax[p], g->x[0]);
    if (vc->pb != pb || vc->p != p)
        dls__vcurve_build(pb, p, vc);
    f->n = 0;
    double rho = rmin;
    if (C > 0) {
        /* r*: the first point whose right slope is at most 1 / C (slopes fall) */
        size_t lo = 0, hi = n; /* the answer is in [lo, hi]; hi = n: none */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            double s = mid + 1 < n ? (g->y[mid + 1] - g->y[mid]) / (g->x[mid + 1] - g->x[mid])
                                   : g->tail;
            if (s * C <= 1)
                hi = mid;
            else
                lo = mid + 1;
        }
        double rstar = lo < n ? g->x[lo] : INFINITY;
        rho = fmax(rstar, rmin);
        /* Z <= rho: p gets nothing, f is g shifted */
        size_t gi = dls__pwl_find(g, rmin);
        if (dls__pwl_push(f, rmin + S, g_at(g, &gi, rmin)) != 0)
            return -1;
        for (size_t i = gi + 1; i < n && g->x[i] < rho; i++) {
            if (dls__pwl_push(f, g->x[i] + S, g->y[i]) != 0)
                return -1;
            if (g->x[i] + S > wmax)
                break;
        }
        *rho_out = rho;
        if (!isfinite(rho) || rho + S > wmax) {
            f->tail = g->tail;
            dls__pwl_finish(f, vcap, wmax);
            return 0;
        }
        if (rho > rmin && dls__pwl_push(f, rho + S, g_at(g, &gi, rho)) != 0)
            return -1;
    }
    *rho_out = rho;
    /* the piece of slope 1 / C to psi(rho), then the curve (C = 0: the curve only) */
    if (curve(g, vc, C, S, rho, vcap, wmax, f) != 0)
        return -1;
    dls__pwl_finish(f, vcap, wmax);
    return 0;
}

/* ---------------------------------------------------------------------------------- */
/* SELECT                                                                             */

/* The upper envelope of the pieces of slope 1 / C over [r0, psi(r0)] for the points r0
 * where h = g - r / C stops rising (and rmin), as a function with jumps; -1 where no
 * piece lies (the curve P is there, and it is >= 0). */
static int window_pieces(const dls__pwl *g, const dls__vcurve *vc, double C, double rmin,
                         double wmax, dls__pwl *E)
{
    size_t n = g->n;
    E->n = 0;
    size_t gi = dls__pwl_find(g, rmin), vj = 0;
    while (gi + 1 < n && g->x[gi + 1] <= rmin)
        gi++;
    /* candidate list: (r0, h0, end0); at most n + 1 */
    double *cr = malloc((n + 1) * 3 * sizeof *cr);
    size_t *dq = malloc((n + 1) * sizeof *dq);
    if (cr == NULL || dq == NULL) {
        free(cr);
        free(dq);
        return -1;
    }
    double *ch = cr + (n + 1), *ce = ch + (n + 1);
    size_t nc = 0;
    {
        double y = g_at(g, &gi, rmin);
        cr[nc] = rmin;
        ch[nc] = y - rmin / C;
        ce[nc] = rmin + C * v_at(vc, &vj, rmin);
        nc++;
    }
    for (size_t i = gi + 1; i < n && g->x[i] <= wmax; i++) {
        if (i + 1 < n && g->x[i + 1] == g->x[i])
            continue; /* the left limit of a jump: its upper value follows */
        double s = i + 1 < n ? (g->y[i + 1] - g->y[i]) / (g->x[i + 1] - g->x[i]) : g->tail;
        if (s * C > 1)
            continue; /* h still rises: not a maximum */
        cr[nc] = g->x[i];
        ch[nc] = g->y[i] - g->x[i] / C;
        ce[nc] = g->x[i] + C * v_at(vc, &vj, g->x[i]);
        nc++;
    }
    /* the sweep over the starts cr[] and ends ce[] (both increasing) */
    size_t head = 0, tail = 0, next = 0;
    int rc = 0;
    double z = cr[0];
    while (rc == 0) {
        /* the left limit at z: pieces started before z and ending at or after it */
        while (head < tail && ce[dq[head]] < z)
            head++;
        double L = head < tail ? z / C + ch[dq[head]] : -1;
        /* start the pieces at z */
        while (next < nc && cr[next] <= z) {
            while (tail > head && ch[dq[tail - 1]] <= ch[next])
                tail--;
            dq[tail++] = next++;
        }
        double value = head < tail ? z / C + ch[dq[head]] : -1;
        /* the right limit: pieces ending at z are done */
        while (head < tail && ce[dq[head]] <= z)
            head++;
        double R = head < tail ? z / C + ch[dq[head]] : -1;
        if (E->n > 0 && dls__pwl_push(E, z, L) != 0)
            rc = -1;
        else if (dls__pwl_push(E, z, value) != 0 || (R != value && dls__pwl_push(E, z, R) != 0))
            rc = -1;
        if (rc != 0 || z > wmax)
            break;
        /* the next event: a start, or the end of the piece on top */
        double zs = next < nc ? cr[next] : INFINITY;
        double ze = head < tail ? ce[dq[head]] : INFINITY;
        double zn = fmin(zs, ze);
        if (!isfinite(zn))
            break;
        z = zn;
    }
    E->tail = 0; /* past the last piece: -1 */
    free(cr);
    free(dq);
    return rc;
}

/* U(Z) = the most load p and the rest finish when Z remains after p's startup and p is sent
 * a load (use(Z) above, shifted back by S), on Z >= rmin within wmax - S; scratch[1..2]
 * are work functions. */
static int use(const dls__cprob *pb, size_t p, const dls__pwl *g, double rmin, double vcap,
               double wmax, dls__vcurve *vc, dls__pwl *U, dls__pwl *scratch)
{
    double S = pb->S[p], C = pb->C[p];
    if (vc->pb != pb || vc->p != p)
        dls__vcurve_build(pb, p, vc);
    if (C == 0)
        return curve(g, vc, 0, 0, rmin, vcap, wmax - S, U);
    dls__pwl *P = &scratch[1], *E = &scratch[2];
    P->n = 0;
    if (curve(g, vc, C, 0, rmin, vcap, wmax - S, P) != 0 ||
        window_pieces(g, vc, C, rmin, wmax - S, E) != 0 || dls__pwl_max2(P, E, 0, U) != 0)
        return -1;
    return 0;
}

int dls__stage_select(const dls__cprob *pb, size_t p, const dls__pwl *g, double vcap,
                      double wmax, dls__vcurve *vc, dls__pwl *f, dls__pwl *scratch)
{
    double S = pb->S[p];
    double rmin = fmax(pb->amax[p], g->x[0]);
    dls__pwl *U = &scratch[0];
    U->n = 0;
    if (rmin + S > wmax) {
        /* p cannot be used within the window: f = g */
        f->n = 0;
        for (size_t i = 0; i < g->n; i++)
            if (dls__pwl_push(f, g->x[i], g->y[i]) != 0)
                return -1;
        f->tail = g->tail;
        dls__pwl_finish(f, vcap, wmax);
        return 0;
    }
    if (use(pb, p, g, rmin, vcap, wmax, vc, U, scratch) != 0)
        return -1;
    if (dls__pwl_max2(g, U, S, f) != 0)
        return -1;
    dls__pwl_finish(f, vcap, wmax);
    return 0;
}

/* ---------------------------------------------------------------------------------- */
/* CHARGED: the paper's transform on any g (the best-order search, order.c)          */

int dls__stage_charged(const dls__cprob *pb, size_t p, const dls__pwl *g, double vcap,
                       double wmax, dls__vcurve *vc, dls__pwl *f, dls__pwl *scratch)
{
    double S = pb->S[p];
    double rmin = fmax(pb->amax[p], g->x[0]);
    f->n = 0;
    f->tail = 0;
    if (rmin + S > wmax)
        return 0; /* p is charged past the window: nothing within it */
    dls__pwl *U = &scratch[0], *R = &scratch[3], *M = &scratch[4];
    U->n = R->n = 0;
    if (use(pb, p, g, rmin, vcap, wmax, vc, U, scratch) != 0)
        return -1;
    /* the right end of the window, r = Z: p is charged and sent nothing, the rest gets Z
     * (SELECT leaves p out instead, which is never worse; here p is always charged) */
    size_t gi = dls__pwl_find(g, rmin);
    if (dls__pwl_push(R, rmin, g_at(g, &gi, rmin)) != 0)
        return -1;
    for (size_t i = gi + 1; i < g->n && g->x[i] <= wmax - S; i++)
        if (g->x[i] > rmin && dls__pwl_push(R, g->x[i], g->y[i]) != 0)
            return -1;
    R->tail = g->tail;
    if (dls__pwl_max2(U, R, 0, M) != 0)
        return -1;
    for (size_t i = 0; i < M->n; i++)
        if (dls__pwl_push(f, M->x[i] + S, M->y[i]) != 0)
            return -1;
    f->tail = M->tail;
    dls__pwl_finish(f, vcap, wmax);
    return 0;
}

double dls__stage_forward(const dls__cprob *pb, size_t k, const dls__pwl *g, double W,
                          double *alpha, double *r)
{
    double S = pb->S[k], C = pb->C[k], Z = W - S;
    double rmin = fmax(pb->amax[k], g->x[0]);
    *alpha = 0;
    *r = W;
    if (!(Z >= rmin))
        return -INFINITY;
    double ag = dls__cprob_fill(pb, k, Z, 0, NULL);
    /* the right end: sent nothing, the rest has Z */
    double best = dls__pwl_at(g, Z), best_a = 0, best_r = Z;
    if (C == 0) {
        double v = ag + dls__pwl_at(g, Z);
        if (v > best) {
            best = v;
            best_a = ag;
        }
    } else {
        double rg = Z - C * ag, lo = fmax(rg, rmin);
        double a0 = lo == rg ? ag : (Z - lo) / C, v0 = a0 + dls__pwl_at(g, lo);
        if (v0 > best) {
            best = v0;
            best_a = a0;
            best_r = lo;
        }
        /* the points of g inside the window (their upper values) */
        size_t i = dls__pwl_find(g, lo);
        for (i = i + 1; i < g->n && g->x[i] < Z; i++) {
            if (i + 1 < g->n && g->x[i + 1] == g->x[i])
                continue;
            double a = (Z - g->x[i]) / C, v = a + g->y[i];
            if (v > best) {
                best = v;
                best_a = a;
                best_r = g->x[i];
            }
        }
    }
    *alpha = best_a;
    *r = best_r;
    return best;
}
