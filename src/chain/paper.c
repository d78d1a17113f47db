/* The paper's LP solved exactly as a chain (chain.h, stage.c).
 *
 * Most positions, at the optimum, take as much load as they can finish by the makespan
 * (the "greedy" decision: r = lo(Z), or the domain start of the rest). Under greedy
 * decisions f_1(T) and its slope are one forward pass over the models, so the makespan
 * comes from Newton's iteration on the concave f_1 (from the left it never overshoots).
 * Then one backward pass of the slopes sigma_i = f_i'(W_i+) along the trajectory checks
 * every decision: greedy is optimal at position i exactly when the rest's slope
 * sigma_{i+1} is at most 1 / C_i (h = f_{i+1} - r / C_i does not rise to the right of the
 * chosen r; f_{i+1} is concave, so that is enough), for the decision at W_i and just right
 * of it; slopes at near-ties are taken on the conservative side. Where a check fails
 * (typically at the end of the chain, where positions have little time left and the LP
 * hands the slack to the fastest links), the chain from the first failing position K on
 * is solved with explicit value functions (stage.c), each restricted to the times it can
 * still have: W_j <= W_K - (startups of K..j-1), where W_K is the current trajectory's,
 * an upper bound because the makespan only falls from round to round. Newton's iteration
 * and the check are repeated on the greedy head above K; after DLS__CHAIN_ROUNDS_MAX
 * rounds the whole chain is made explicit. The answer is exact in every case. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chain/chain_impl.h"

typedef struct paper {
    const dls__chain *c;
    const dls__cprob *pb;
    size_t n, K;         /* stages; first explicit stage (n: none) */
    double V, vcap;      /* the load; the cap of explicit value functions */
    double *d;           /* n + 1: where f_k starts (the paper charges every position) */
    double *rmin;        /* n: max(amax, d[k + 1]) */
    double *rho;         /* n: explicit stages: where the rest gets exactly rho */
    double *W;           /* n + 1: the trajectory */
    dls__pwl buf[2];
    dls__pwl *tailf;     /* f_K (K = n: zero) */
    dls__vcurve vc;
    unsigned passes, rounds;
    size_t pieces_total, pieces_max, max_work;
} paper;

static void paper_free(paper *w)
{
    free(w->d);
    free(w->rmin);
    free(w->rho);
    free(w->W);
    free(w->vc.r);
    free(w->vc.al);
    dls__pwl_free(&w->buf[0]);
    dls__pwl_free(&w->buf[1]);
}

static int paper_init(paper *w, const dls__chain *c, double V)
{
    size_t n = c->n;
    memset(w, 0, sizeof *w);
    w->c = c;
    w->pb = c->pb;
    w->n = n;
    w->V = V;
    w->vcap = V * DLS__CHAIN_VCAP;
    w->d = malloc((n + 1) * sizeof *w->d);
    w->rmin = malloc(n * sizeof *w->rmin);
    w->rho = malloc(n * sizeof *w->rho);
    w->W = malloc((n + 1) * sizeof *w->W);
    w->vc.r = malloc((c->pb->max_lines + 2) * sizeof *w->vc.r);
    w->vc.al = malloc((c->pb->max_lines + 2) * sizeof *w->vc.al);
    if (!w->d || !w->rmin || !w->rho || !w->W || !w->vc.r || !w->vc.al)
        return -1;
    w->d[n] = 0;
    for (size_t k = n; k-- > 0;) {
        size_t p = dls__chain_pos(c, k);
        w->rmin[k] = fmax(c->pb->amax[p], w->d[k + 1]);
        w->d[k] = c->pb->S[p] + w->rmin[k];
    }
    /* no explicit stage yet: f_n = 0 from 0 on */
    w->K = n;
    w->tailf = &w->buf[0];
    if (dls__pwl_push(w->tailf, 0, 0) != 0)
        return -1;
    w->tailf->tail = 0;
    return 0;
}

/* f_1(T) under greedy decisions above K and the explicit f_K below, with its slope: just
 * right of T (dir >= 0; dir = 0 breaks ties by the first term found) or just left (dir < 0,
 * also the conservative side for the checks). */
static long double paper_eval(paper *w, double T, int dir, double *slope)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    double W = T, dW = 1;
    long double sum = 0, dsum = 0;
    for (size_t k = 0; k < w->K; k++) {
        size_t p = dls__chain_pos(c, k);
        double Z = W - pb->S[p], C = pb->C[p], s;
        double a = dls__cprob_fill(pb, p, Z, dir, &s);
        if (C == 0) {
            sum += a;
            dsum += s * dW;
            W = fmax(Z, w->rmin[k]);
            continue;
        }
        double r = Z - C * a, rm = w->rmin[k];
        int capped = r < rm || (dir < 0 && r <= rm + DLS__CHAIN_SLOPE_TOL * fabs(rm));
        if (capped) {
            a = (Z - rm) / C;
            dsum += dW / C;
            W = rm;
            dW = 0;
        } else {
            dsum += s * dW;
            W = r;
            dW *= 1 - C * s;
        }
        sum += a;
    }
    w->passes++;
    double fs = dir < 0 ? dls__pwl_slope_left(w->tailf, W) : dls__pwl_slope_right(w->tailf, W);
    if (slope)
        *slope = (double)(dsum + (dW > 0 ? fs * dW : 0));
    return sum + dls__pwl_at(w->tailf, W);
}

/* The least T with f_1(T) >= V under the current decisions: Newton's iteration from the
 * domain start (from the left it never overshoots f_1, which is concave when the greedy
 * decisions are optimal); should it overshoot (decisions that the check will reject), the
 * root is bracketed and found by regula falsi (Illinois), so that the check is made where
 * the decisions' value is V. */
static double paper_newton(paper *w)
{
    double V = w->V, lo = w->d[0], dF, hi = INFINITY;
    long double Flo = paper_eval(w, lo, 0, &dF), Fhi = 0;
    if (Flo >= V)
        return lo;
    int side = 0;
    for (int it = 0; it < DLS__CHAIN_NEWTON_MAX; it++) {
        double T;
        if (isfinite(hi)) {
            /* regula falsi between lo and hi, halving the stale end's excess */
            double t = (double)((V - Flo) / (Fhi - Flo));
            T = lo + t * (hi - lo);
            if (!(T > lo && T < hi))
                T = lo + 0.5 * (hi - lo);
        } else {
            if (!(dF > 0))
                break;
            T = lo + (double)((V - Flo) / dF);
            if (!(T > lo))
                break;
        }
        double dFn;
        long double F = paper_eval(w, T, 0, &dFn);
        if (F >= V * (1 - DLS__CHAIN_NEWTON_TOL)) {
            if (F <= V * (1 + DLS__CHAIN_NEWTON_TOL))
                return T;
            hi = T;
            Fhi = F;
            if (side == 1)
                Flo = V - (V - Flo) / 2;
            side = 1;
        } else {
            double step = T - lo;
            lo = T;
            Flo = F;
            dF = dFn;
            if (side == -1 && isfinite(hi))
                Fhi = V + (Fhi - V) / 2;
            side = -1;
            if (step <= DLS__CHAIN_NEWTON_TOL * fabs(T))
                return T;
        }
        if (isfinite(hi) && hi - lo <= DLS__CHAIN_NEWTON_TOL * hi)
            return hi;
    }
    return isfinite(hi) ? hi : lo;
}

/* The loads at makespan T (by stage), and the trajectory W. */
static void paper_forward(paper *w, double T, double *alpha)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    double W = T;
    for (size_t k = 0; k < w->n; k++) {
        size_t p = dls__chain_pos(c, k);
        w->W[k] = W;
        double Z = W - pb->S[p], C = pb->C[p];
        double ag = dls__cprob_fill(pb, p, Z, 0, NULL), a, r;
        if (C == 0) {
            a = ag;
            r = fmax(Z, w->rmin[k]);
        } else {
            double rg = Z - C * ag, lo = fmax(rg, w->rmin[k]);
            r = k < w->K ? lo : fmin(fmax(w->rho[k], lo), Z);
            a = r == rg ? ag : (Z - r) / C;
        }
        alpha[k] = a > 0 ? a : 0;
        W = r;
    }
    w->W[w->n] = W;
}

/* The backward check of the greedy decisions above K along the trajectory: returns the
 * first (smallest) stage that fails it, or n. */
static size_t paper_check(paper *w)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    size_t K = w->K, first = w->n;
    double sigma = dls__pwl_slope_right(w->tailf, w->W[K]);
    for (size_t k = K; k-- > 0;) {
        size_t p = dls__chain_pos(c, k);
        double Z = w->W[k] - pb->S[p], C = pb->C[p], s;
        double a = dls__cprob_fill(pb, p, Z, -1, &s);
        if (C == 0) {
            sigma += s;
            continue;
        }
        if (sigma * C > 1 + DLS__CHAIN_CHECK_TOL)
            first = k;
        double r = Z - C * a, rm = w->rmin[k];
        if (r <= rm + DLS__CHAIN_SLOPE_TOL * fabs(rm))
            sigma = 1 / C; /* capped: the position takes all the extra time */
        else
            sigma = s + sigma * (1 - C * s);
    }
    return first;
}

/* Explicit value functions for the stages from K on, within the windows that start from
 * wmax at K; the function of stage K is left in w->tailf. */
static dls_status paper_explicit(paper *w, size_t K, double wmax, dls_error *err)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    size_t n = w->n;
    double top = wmax;
    for (size_t k = K; k < n; k++)
        top -= pb->S[dls__chain_pos(c, k)];
    dls__pwl *g = &w->buf[0], *f = &w->buf[1];
    g->n = 0;
    if (dls__pwl_push(g, 0, 0) != 0)
        return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
    g->tail = 0;
    double wm = top; /* the window of stage k + 1 */
    for (size_t k = n; k-- > K;) {
        size_t p = dls__chain_pos(c, k);
        wm += pb->S[p];
        if (dls__stage_paper(pb, p, g, w->vcap, wm, &w->vc, f, &w->rho[k]) != 0)
            return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
        w->pieces_total += f->n;
        if (f->n > w->pieces_max)
            w->pieces_max = f->n;
        if (w->max_work > 0 && w->pieces_total > w->max_work)
            return dls__fail(err, DLS_ELIMIT, "schedule: the exact curve needs more than %zu "
                             "pieces of value functions", w->max_work);
        dls__pwl *t = g;
        g = f;
        f = t;
    }
    w->tailf = g;
    w->K = K;
    return DLS_OK;
}

static dls_status paper_run(paper *w, double *alpha, dls__chain_result *res, dls_error *err)
{
    size_t n = w->n;
    double T = 0;
    for (;;) {
        T = paper_newton(w);
        paper_forward(w, T, alpha);
        w->rounds++;
        size_t fail = paper_check(w);
        if (fail == n)
            break;
        DLS_ASSERT(fail < w->K);
        size_t K = w->rounds >= DLS__CHAIN_ROUNDS_MAX ? 0 : fail;
        /* the window: the current time left at K (the makespan only falls), with a margin
         * for rounding */
        double wmax = w->W[K] * (1 + 0x1p-30) + 0x1p-30 * T;
        dls_status st = paper_explicit(w, K, wmax, err);
        if (st != DLS_OK)
            return st;
        if (K == 0) {
            /* everything explicit: f_1 itself */
            T = dls__pwl_reach(w->tailf, w->V);
            paper_forward(w, T, alpha);
            w->rounds++;
            break;
        }
    }
    res->T = T;
    paper_eval(w, T, 1, &res->slope_right);
    long double F = paper_eval(w, T, -1, &res->slope_left);
    if (F > w->V * (1 + 0x1p-30))
        /* the domain start binds: more load takes no more time, up to F */
        res->slope_left = res->slope_right = INFINITY;
    res->pieces_total = w->pieces_total;
    res->pieces_max = w->pieces_max;
    res->explicit_stages = n - w->K;
    res->passes = w->passes;
    res->rounds = w->rounds;
    return DLS_OK;
}

dls_status dls__paper_solve(const dls__chain *c, double V, double *alpha, dls__chain_result *res,
                            dls_error *err)
{
    memset(res, 0, sizeof *res);
    double cap = 0;
    for (size_t k = 0; k < c->n; k++)
        cap += c->pb->Bt[dls__chain_pos(c, k)];
    if (cap < V * (1 - 0x1p-40)) {
        res->infeasible = 1;
        res->T = INFINITY;
        return DLS_OK;
    }
    paper w;
    if (paper_init(&w, c, fmin(V, cap)) != 0) {
        paper_free(&w);
        return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
    }
    dls_status st = paper_run(&w, alpha, res, err);
    paper_free(&w);
    return st;
}

dls_status dls__paper_function(const dls__chain *c, double vcap, double wmax, size_t max_work,
                               dls__pwl *f1, size_t *pieces, dls_error *err)
{
    paper w;
    if (paper_init(&w, c, vcap) != 0) {
        paper_free(&w);
        return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
    }
    w.max_work = max_work;
    w.vcap = vcap;
    dls_status st = paper_explicit(&w, 0, wmax, err);
    if (st == DLS_OK) {
        f1->n = 0;
        for (size_t i = 0; i < w.tailf->n && st == DLS_OK; i++)
            if (dls__pwl_push(f1, w.tailf->x[i], w.tailf->y[i]) != 0)
                st = dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
        f1->tail = w.tailf->tail;
    }
    *pieces = w.pieces_total;
    paper_free(&w);
    return st;
}
