/* The paper's LP solved exactly as a chain (chain.h, stage.c).
 *
 * At the optimum most positions either take as much load as they can finish by the
 * makespan (the "greedy" decision: r = lo(Z), or the domain start of the rest) or take
 * nothing (r = Z: the rest uses the link time better, as on platforms where the link is
 * the bottleneck). Under such decisions f_1(T) and its slope are one forward pass over the
 * models, so the makespan comes from Newton's iteration (regula falsi where the decisions'
 * value is not concave). One backward pass of the slopes sigma_i = f_i'(W_i) along the
 * trajectory then checks every decision: taking all is optimal when the rest's slope
 * sigma_{i+1} is at most 1 / C_i, taking nothing when it is at least 1 / C_i (h = f_{i+1} -
 * r / C_i concave), with slopes at near-ties taken on the conservative side.
 *
 * Decisions that fail the check are changed (policy iteration): in the same backward
 * sweep, so that the stages above see the rest under its new decisions, and only where
 * sigma C is past 1 by a margin that narrows from round to round; a round whose changes
 * make the makespan worse (or cannot reach V) is undone and the margin widened. A stage
 * that keeps failing, a first failing stage with few stages below it, or any failure after
 * DLS__CHAIN_ROUNDS_MAX rounds, makes the chain from that stage K on explicit (stage.c):
 * value functions restricted to the times it can have (the best makespan found less the
 * startups above K). The answer is exact in every case: the rounds end only when every
 * decision passes the check, or when the chain is explicit from the first stage.
 *
 * dls__paper_solve (AUTO) runs this policy iteration first as a try: a probe (Newton's
 * first steps, one check) and at most DLS__CHAIN_GREEDY_ROUNDS rounds without explicit
 * stages; where it does not prove its answer, the sweep (sweep.c) decides. */
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
    unsigned char *skip; /* n: stages above K that take no load (the rest uses the time
                            better); the others take as much as they can */
    unsigned char *best; /* n: the decisions of the best makespan so far */
    unsigned char *flips; /* n: how often a stage's decision changed */
    double margin;       /* a decision changes when sigma C is past 1 by this factor */
    dls__pwl buf[2];
    dls__pwl *tailf;     /* f_K (K = n: zero) */
    dls__vcurve vc;
    unsigned passes, rounds; /* passes over the positions (evaluations, forward passes,
                                checks); rounds of the check */
    unsigned try_rounds;  /* > 0: policy iteration gives up after this many rounds instead
                             of making stages explicit (the greedy try before the sweep) */
    int given_up;         /* the try gave up: no answer */
    /* Newton's last point left of the root (paper_newton, when it stops without a
     * bracket), and whether the next paper_newton starts there (the probe hands it to the
     * try's first round: the same decisions) */
    double last_T, last_dF;
    long double last_F;
    int last_ok, warm;
    size_t pieces_total, pieces_max, max_work;
} paper;

static void paper_free(paper *w)
{
    free(w->d);
    free(w->rmin);
    free(w->rho);
    free(w->W);
    free(w->skip);
    free(w->best);
    free(w->flips);
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
    w->skip = calloc(n + 1, 1);
    w->best = calloc(n + 1, 1);
    w->flips = calloc(n + 1, 1);
    w->vc.r = malloc((c->pb->max_lines + 2) * sizeof *w->vc.r);
    w->vc.al = malloc((c->pb->max_lines + 2) * sizeof *w->vc.al);
    if (!w->d || !w->rmin || !w->rho || !w->W || !w->skip || !w->best || !w->flips || !w->vc.r ||
        !w->vc.al)
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
        if (w->skip[k]) {
            W = fmax(Z, w->rmin[k]);
            continue;
        }
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

/* The least T with f_1(T) >= V under the current decisions (*F_at: the value at the T
 * returned, below V when the decisions cannot reach V): Newton's iteration from the
 * domain start (from the left it never overshoots f_1, which is concave when the greedy
 * decisions are optimal); should it overshoot (decisions that the check will reject), the
 * root is bracketed and found by regula falsi (Illinois), so that the check is made where
 * the decisions' value is V. */
static double paper_newton(paper *w, long double *F_at, int max_it)
{
    double V = w->V, lo, dF, hi = INFINITY;
    long double Flo, Fhi = 0;
    if (w->warm && w->last_F < V) {
        lo = w->last_T;
        Flo = w->last_F;
        dF = w->last_dF;
    } else {
        lo = w->d[0];
        Flo = paper_eval(w, lo, 0, &dF);
    }
    w->warm = 0;
    w->last_ok = 0;
    *F_at = Flo;
    if (Flo >= V)
        return lo;
    int side = 0, flat = 0; /* flat: hi lies on a flat piece of F, at V */
    for (int it = 0; it < max_it; it++) {
        double T;
        if (isfinite(hi)) {
            /* regula falsi between lo and hi, halving the stale end's excess; bisection
             * when hi is on the flat top (the secant would land next to hi) */
            double t = (double)((V - Flo) / (Fhi - Flo));
            T = lo + t * (hi - lo);
            if (flat || !(T > lo && T < hi))
                T = lo + 0.5 * (hi - lo);
        } else {
            if (!(dF > 0))
                break;
            T = lo + (double)((V - Flo) / dF);
            if (!(T > lo))
                break;
        }
        double dFn, dleft;
        long double F = paper_eval(w, T, 0, &dFn);
        if (F >= V * (1 - DLS__CHAIN_NEWTON_TOL)) {
            *F_at = F;
            /* at V, and the least such T unless F is flat just left of it: where the
             * limits hold V exactly or a hair more, F stays at their sum from where the
             * last position reaches its limit on, and a step that lands past that point
             * (F is convex where a position reaches its limit) is not the root: the root
             * is bracketed instead, and the flat top bisected */
            if (F <= V * (1 + DLS__CHAIN_NEWTON_TOL)) {
                paper_eval(w, T, -1, &dleft);
                if (dleft > 0)
                    return T;
                flat = 1;
            } else {
                flat = !(dFn > 0); /* past V on the flat top: limits holding a hair more */
            }
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
            /* Newton's steps from the left stall (no bracket): T is the root to rounding;
             * with a bracket, hi (at V) is the answer once the bracket is that narrow (F
             * can rise by more than the tolerance within one ulp of T: a position with a
             * free link and a fast processor) */
            if (!isfinite(hi) && step <= DLS__CHAIN_NEWTON_TOL * fabs(T)) {
                *F_at = F;
                return T;
            }
        }
        if (isfinite(hi) && hi - lo <= DLS__CHAIN_NEWTON_TOL * hi) {
            *F_at = Fhi;
            return hi;
        }
    }
    if (!isfinite(hi)) {
        w->last_T = lo;
        w->last_F = Flo;
        w->last_dF = dF;
        w->last_ok = 1;
    }
    *F_at = isfinite(hi) ? Fhi : Flo;
    return isfinite(hi) ? hi : lo;
}

/* The load a of position p, whose compute must end within `room` seconds, lowered by a
 * few ulps where rounding put its time past them: a time line with a huge slope and an
 * intercept far below 0 (a hopeless processor) loses every digit of its time to
 * cancellation, and the replay would see the makespan rounded up by it. */
static double paper_shave(const dls__cprob *pb, size_t p, double a, double room)
{
    const dls__star *st = pb->st;
    for (int i = 0; i < DLS__CHAIN_SHAVE_STEPS && a > 0; i++) {
        double top = -INFINITY;
        for (size_t l = st->off[p]; l < st->off[p + 1]; l++)
            top = fmax(top, pb->a[l] + pb->b[l] * a);
        if (top <= room)
            break;
        a = nextafter(a, 0);
    }
    return a;
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
            if (k < w->K)
                r = w->skip[k] ? fmax(Z, w->rmin[k]) : lo;
            else
                r = fmin(fmax(w->rho[k], lo), Z);
            a = r == rg ? ag : (Z - r) / C;
        }
        alpha[k] = a > 0 ? paper_shave(pb, p, a, C == 0 ? Z : r) : 0;
        W = r;
    }
    w->W[w->n] = W;
    w->passes++;
}

/* What the backward check found: the first stage whose decision is not optimal (n: none),
 * how many decisions it changed, how many failed by less than the margin (left as they
 * are this round), and the first stage it could not change again (n: none). */
typedef struct paper_verdict {
    size_t first, flipped, pending, stuck, failed;
} paper_verdict;

/* The backward check of the decisions above K along the trajectory, with the slopes sigma
 * of the rest: taking all it can is optimal when sigma C <= 1, taking nothing when
 * sigma C >= 1 (within DLS__CHAIN_CHECK_TOL). With `flip`, a stage that fails by more than
 * w->margin changes its decision (at most DLS__CHAIN_FLIPS_MAX times), and the stages above
 * see the rest's slope under the new decisions (a backward sweep of policy iteration). */
static paper_verdict paper_check(paper *w, int flip)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    size_t K = w->K;
    paper_verdict v = {w->n, 0, 0, w->n, 0};
    double sigma = dls__pwl_slope_right(w->tailf, w->W[K]);
    for (size_t k = K; k-- > 0;) {
        size_t p = dls__chain_pos(c, k);
        double Z = w->W[k] - pb->S[p], C = pb->C[p], s;
        if (C == 0) {
            dls__cprob_fill(pb, p, Z, -1, &s);
            sigma += s;
            continue;
        }
        int fails = w->skip[k] ? sigma * C < 1 - DLS__CHAIN_CHECK_TOL
                               : sigma * C > 1 + DLS__CHAIN_CHECK_TOL;
        if (fails) {
            double g = 1 + w->margin;
            int clear = w->skip[k] ? sigma * C * g < 1 : sigma * C > g;
            v.first = k;
            v.failed++;
            if (!flip || w->flips[k] >= DLS__CHAIN_FLIPS_MAX) {
                v.stuck = k;
            } else if (!clear) {
                v.pending++;
            } else {
                w->flips[k]++;
                w->skip[k] ^= 1;
                v.flipped++;
            }
        }
        /* the slope of this stage under its new decision (a backward sweep: the stages
         * above see the rest as it will be) */
        if (w->skip[k])
            continue; /* it takes nothing: the time goes to the rest */
        double a = dls__cprob_fill(pb, p, Z, -1, &s);
        double r = Z - C * a, rm = w->rmin[k];
        if (r <= rm + DLS__CHAIN_SLOPE_TOL * fabs(rm))
            sigma = 1 / C; /* capped: the position takes all the extra time */
        else
            sigma = s + sigma * (1 - C * s);
    }
    w->passes++;
    return v;
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
        return dls__oom(err, "schedule");
    g->tail = 0;
    double wm = top; /* the window of stage k + 1 */
    for (size_t k = n; k-- > K;) {
        size_t p = dls__chain_pos(c, k);
        wm += pb->S[p];
        if (dls__stage_paper(pb, p, g, w->vcap, wm, &w->vc, f, &w->rho[k]) != 0)
            return dls__oom(err, "schedule");
        w->pieces_total += f->n;
        if (f->n > w->pieces_max)
            w->pieces_max = f->n;
        if (w->max_work > 0 && w->pieces_total > w->max_work)
            return dls__fail(err, DLS_ELIMIT, "schedule", "the exact curve needs more than %zu "
                             "pieces of value functions", w->max_work);
        dls__pwl *t = g;
        g = f;
        f = t;
    }
    w->tailf = g;
    w->K = K;
    return DLS_OK;
}

/* The explicit chain from the first stage the decisions cannot fix (all of it after
 * DLS__CHAIN_ROUNDS_MAX rounds); its window: T less the startups above K (T, the makespan
 * of a feasible schedule, bounds the optimum), with a margin for rounding. */
static dls_status paper_fallback(paper *w, size_t K, double T, double *alpha, int *done,
                                 dls_error *err)
{
    double wmax = T;
    for (size_t k = 0; k < K; k++)
        wmax -= w->pb->S[dls__chain_pos(w->c, k)];
    wmax = wmax * (1 + DLS__CHAIN_WINDOW_SLACK) + DLS__CHAIN_WINDOW_SLACK * T;
    dls_status st = paper_explicit(w, K, wmax, err);
    *done = 0;
    if (st == DLS_OK && K == 0) {
        /* everything explicit: f_1 itself */
        double Tf = dls__pwl_reach(w->tailf, w->V);
        paper_forward(w, Tf, alpha);
        w->rounds++;
        *done = 1;
    }
    return st;
}

static void paper_finish(paper *w, double T, dls__chain_result *res);

/* Policy iteration on the decisions above K (each stage takes all it can, or nothing):
 * Newton's iteration on the makespan, the forward pass, the backward check that changes
 * the decisions that fail it by more than the margin. A round whose changes make the
 * makespan worse is undone and the margin widened; otherwise it narrows to 0. Stages that
 * keep failing, or every stage after DLS__CHAIN_ROUNDS_MAX rounds, go explicit. */
static dls_status paper_run(paper *w, double *alpha, dls__chain_result *res, dls_error *err)
{
    size_t n = w->n;
    double T = 0, best_T = INFINITY;
    int changed = 0, done = 0;
    w->margin = DLS__CHAIN_FLIP_MARGIN;
    while (!done) {
        long double F;
        T = paper_newton(w, &F, DLS__CHAIN_NEWTON_MAX);
        /* changes that make the makespan worse, or that cannot reach V (a stage left out
         * whose limit was needed), are undone */
        if (changed && (!(T <= best_T) || F < w->V * (1 - DLS__CHAIN_REACH_TOL))) {
            if (w->try_rounds > 0) {
                w->given_up = 1;
                return DLS_OK;
            }
            memcpy(w->skip, w->best, w->K);
            w->margin = fmax(w->margin * DLS__CHAIN_FLIP_BACKOFF, DLS__CHAIN_FLIP_RETRY);
            w->rounds++;
            changed = 0;
            continue;
        }
        best_T = T;
        memcpy(w->best, w->skip, w->K);
        paper_forward(w, T, alpha);
        w->rounds++;
        int flip = w->rounds < DLS__CHAIN_ROUNDS_MAX;
        paper_verdict v = paper_check(w, flip);
        w->margin = w->margin / 2 < DLS__CHAIN_FLIP_MARGIN_MIN ? 0 : w->margin / 2;
        if (v.first == n)
            break;
        DLS__ASSERT(v.first < w->K);
        if (w->try_rounds > 0 && (w->rounds >= w->try_rounds || v.flipped == 0)) {
            w->given_up = 1; /* no explicit stages in a try: the sweep decides */
            return DLS_OK;
        }
        /* a short chain below the first failing stage is cheaper made explicit */
        int cheap = w->K - v.first <= DLS__CHAIN_EXPLICIT_CHEAP;
        changed = v.flipped > 0 && !cheap;
        if (changed || (v.pending > 0 && v.stuck == n && !cheap))
            continue;
        size_t K = !flip ? 0 : cheap ? v.first : v.stuck;
        dls_status st = paper_fallback(w, K, best_T, alpha, &done, err);
        if (st != DLS_OK)
            return st;
        if (done)
            T = dls__pwl_reach(w->tailf, w->V);
    }
    paper_finish(w, T, res);
    return DLS_OK;
}

/* The result at makespan T: the marginal costs, the counts. */
static void paper_finish(paper *w, double T, dls__chain_result *res)
{
    res->T = T;
    /* the slopes a little either side of T: T carries rounding, and a breakpoint within
     * it would give the slope of the wrong side */
    double eta = DLS__CHAIN_SLOPE_STEP * T;
    paper_eval(w, T + eta, 1, &res->slope_right);
    paper_eval(w, T - eta, -1, &res->slope_left);
    long double F = paper_eval(w, T, -1, NULL);
    if (F > w->V * (1 + 0x1p-30))
        /* the domain start binds: more load takes no more time, up to F */
        res->slope_left = res->slope_right = INFINITY;
    res->pieces_total = w->pieces_total;
    res->pieces_max = w->pieces_max;
    res->explicit_stages = w->n - w->K;
    res->passes = w->passes;
    res->rounds = w->rounds;
}

/* Back to no explicit stage and every stage taking all it can (the start of paper_run). */
static int paper_restart(paper *w)
{
    w->K = w->n;
    w->tailf = &w->buf[1];
    w->tailf->n = 0;
    w->tailf->tail = 0;
    memset(w->skip, 0, w->n);
    memset(w->flips, 0, w->n);
    w->warm = 0;
    return dls__pwl_push(w->tailf, 0, 0);
}

/* Proves the sweep's answer: the loads alpha, replayed in the chain's units, sum to V and
 * finish by T (within DLS__CHAIN_PROOF_TOL), and every decision of the forward pass passes
 * the check of paper_check along the trajectory: a position given nothing has the rest's
 * slope sigma >= 1 / C, one given all it can has sigma <= 1 / C, one on the piece of slope
 * 1 / C (r = rho) ties. With concave value functions this is the optimality of the
 * paper's LP, as for policy iteration. */
static int paper_sweep_proven(paper *w, double T, const double *alpha)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    const dls__star *st = pb->st;
    double clock = 0, fin = 0;
    long double sum = 0;
    for (size_t k = 0; k < w->n; k++) {
        size_t p = dls__chain_pos(c, k);
        double x = alpha[k], top = 0;
        clock += pb->S[p] + pb->C[p] * x;
        for (size_t l = st->off[p]; l < st->off[p + 1]; l++)
            top = fmax(top, pb->a[l] + pb->b[l] * x);
        fin = fmax(fin, clock + top);
        sum += x;
    }
    w->passes++;
    if (!(fabs(fin - T) <= DLS__CHAIN_PROOF_TOL * T) ||
        !(fabsl(sum - w->V) <= DLS__CHAIN_PROOF_TOL * w->V))
        return 0;
    double sigma = 0; /* f_{n+1} = 0 */
    for (size_t k = w->n; k-- > 0;) {
        size_t p = dls__chain_pos(c, k);
        double Z = w->W[k] - pb->S[p], C = pb->C[p], s, r = w->W[k + 1];
        double ag = dls__cprob_fill(pb, p, Z, -1, &s);
        if (C == 0) {
            sigma += s;
            continue;
        }
        double rm = w->rmin[k], rg = Z - C * ag;
        double tol = DLS__CHAIN_SLOPE_TOL * fmax(fabs(Z), fabs(rm));
        /* rho comes through the sweep's composed maps, a few ulps per stage: a rest within
         * that of rho is at rho (where the slope from the left is 1 / C), not on the piece
         * right of it */
        double rho_tol = DLS__CHAIN_PROOF_TOL * fmax(fabs(Z), fabs(rm));
        int at_rho = r > rm + tol && fabs(r - w->rho[k]) <= rho_tol;
        if (at_rho && r <= rg + tol) {
            /* rho at the bottom of p's window, within the sweep's rounding: p takes all it
             * can, or sits at rho, the same point. The rest's slope from the left may then
             * be on either side of 1 / C (it is where they cross), and only the right side
             * decides taking all: that holds by the choice of rho, as for r = rho below.
             * From the left (the side the stages above are checked with) p's share grows
             * when W falls: 1 / C. */
            sigma = 1 / C;
        } else if (at_rho) {
            /* r = rho (also where rho is the end of p's window): the piece of slope 1 / C;
             * the rest's slope from the left must be at least 1 / C (from the right it is
             * at most 1 / C by the choice of rho), up to a kink's side (KINK_TOL) */
            if (sigma * C < 1 - DLS__CHAIN_KINK_TOL)
                return 0;
            sigma = 1 / C;
        } else if (r >= Z - tol && r > rm + tol) {
            /* nothing: the rest uses the time better */
            if (sigma * C < 1 - DLS__CHAIN_CHECK_TOL)
                return 0;
        } else if (r <= rm + tol) {
            sigma = 1 / C; /* capped at the domain: the extra time is all p's */
        } else if (r <= rg + tol) {
            if (sigma * C > 1 + DLS__CHAIN_CHECK_TOL)
                return 0;
            sigma = s + sigma * (1 - C * s);
        } else {
            return 0; /* between the ends and not at rho: not the sweep's decision */
        }
    }
    w->passes++;
    return 1;
}

/* f_1(T) under the sweep's decisions, by the forward pass over the models (no lazy maps):
 * each stage k gives the rest r = min(max(rho_k, lo), Z) (nothing below rho_k, exactly
 * rho_k on the piece of slope 1 / C, all it can above), as paper_forward does; with its
 * slope just right of T (dir >= 0) or just left (dir < 0). */
static long double paper_fixed_eval(paper *w, double T, int dir, double *slope)
{
    const dls__cprob *pb = w->pb;
    const dls__chain *c = w->c;
    double W = T, dW = 1;
    long double sum = 0, dsum = 0;
    for (size_t k = 0; k < w->n; k++) {
        size_t p = dls__chain_pos(c, k);
        double Z = W - pb->S[p], C = pb->C[p], s, rm = w->rmin[k], rho = w->rho[k];
        double a = dls__cprob_fill(pb, p, Z, dir, &s);
        if (C == 0) {
            sum += a;
            dsum += s * dW;
            W = fmax(Z, rm);
            continue;
        }
        double rg = Z - C * a, lo = fmax(rg, rm);
        if (dir >= 0 ? Z < rho : Z <= rho) {
            W = fmax(Z, rm); /* nothing: the time goes to the rest */
            continue;
        }
        if (dir >= 0 ? lo >= rho : lo > rho) {
            if (rg < rm || (dir < 0 && rg <= rm + DLS__CHAIN_SLOPE_TOL * fabs(rm))) {
                a = (Z - rm) / C; /* capped at the domain */
                dsum += dW / C;
                W = rm;
                dW = 0;
            } else {
                dsum += s * dW;
                W = rg;
                dW *= 1 - C * s;
            }
        } else {
            a = (Z - rho) / C; /* the rest gets exactly rho */
            dsum += dW / C;
            W = rho;
            dW = 0;
        }
        sum += a;
    }
    w->passes++;
    if (slope)
        *slope = (double)dsum;
    return sum;
}

/* The polish: the makespan T0 read off the sweep's f_1 carries the rounding of the lazy
 * maps composed over the stages; with the sweep's decisions fixed, Newton's iteration on
 * the forward pass (paper_fixed_eval) finds where the loads sum to V, to the rounding of
 * one pass. From the right it steps with the slope from the left and lands at or below
 * the root (the value is concave near it), then climbs with the slope from the right; at
 * most DLS__CHAIN_POLISH_MAX passes. Returns T0 when it cannot improve on it. */
static double paper_polish(paper *w, double T0)
{
    double V = w->V, T = T0, best = T0;
    long double best_gap = INFINITY;
    for (int it = 0; it < DLS__CHAIN_POLISH_MAX; it++) {
        double d;
        long double F = paper_fixed_eval(w, T, 0, &d);
        long double gap = fabsl(F - V);
        if (gap < best_gap) {
            best_gap = gap;
            best = T;
        }
        if (gap <= DLS__CHAIN_NEWTON_TOL * V)
            break;
        if (F > V)
            paper_fixed_eval(w, T, -1, &d);
        if (!(d > 0) || !isfinite(d))
            break;
        double step = (double)((V - F) / d);
        if (!(fabs(step) > DLS__CHAIN_NEWTON_TOL * fabs(T)))
            break;
        T += step;
    }
    return best;
}

/* The whole chain in one backward sweep of lazily mapped value functions (sweep.c), the
 * makespan where f_1 reaches V, polished by Newton's iteration on the forward pass with the
 * sweep's decisions, one forward pass for the loads: exact, O(m L log m). */
static dls_status paper_sweep_run(paper *w, double *alpha, dls__chain_result *res,
                                  dls_error *err)
{
    dls__pwl *f = &w->buf[0];
    if (dls__paper_sweep(w->c, w->vcap, INFINITY, w->rho, f, &w->pieces_total, &w->pieces_max) != 0)
        return dls__oom(err, "schedule");
    w->tailf = f;
    w->K = 0;
    double T = dls__pwl_reach(f, w->V);
    if (!isfinite(T))
        T = dls__pwl_reach(f, w->V * (1 - DLS__CHAIN_CAP_TOL)); /* limits holding V */
    int proven = 0;
    if (isfinite(T)) {
        double Tp = paper_polish(w, T);
        if (Tp != T) {
            paper_forward(w, Tp, alpha);
            proven = paper_sweep_proven(w, Tp, alpha);
            if (proven)
                T = Tp;
        }
        if (!proven) {
            paper_forward(w, T, alpha);
            proven = paper_sweep_proven(w, T, alpha);
        }
    }
    w->rounds++;
    if (!proven && isfinite(T) && w->n > DLS__CHAIN_FALLBACK_MAX) {
        /* policy iteration would be quadratic here: the sweep's answer, said unproven */
        paper_finish(w, T, res);
        res->unproven = 1;
        return DLS_OK;
    }
    if (!proven) {
        /* rounding in the lazy maps (extreme magnitudes): the policy iteration decides */
        size_t pt = w->pieces_total, pm = w->pieces_max;
        unsigned passes = w->passes;
        if (paper_restart(w) != 0)
            return dls__oom(err, "schedule");
        w->pieces_total = pt;
        w->pieces_max = pm;
        w->passes = passes;
        return paper_run(w, alpha, res, err);
    }
    paper_finish(w, T, res);
    return DLS_OK;
}

/* Whether the greedy decisions (every position takes all it can) nearly pass the check
 * near the makespan: Newton's first steps, the forward pass and the check there, a few
 * passes. Few decisions change between there and the root, so where many fail here the
 * try's rounds are saved (the sweep decides); this proves nothing (the try checks again at
 * the root). */
static int paper_greedy_probe(paper *w, double *alpha)
{
    long double F;
    double T = paper_newton(w, &F, DLS__CHAIN_PROBE_STEPS);
    w->warm = w->last_ok; /* the try's first round goes on from there */
    paper_forward(w, T, alpha);
    return paper_check(w, 0).failed <= w->n * DLS__CHAIN_PROBE_FAILS;
}

dls_status dls__paper_solve(const dls__chain *c, double V, double *alpha, dls__chain_result *res,
                            dls_error *err)
{
    memset(res, 0, sizeof *res);
    double cap = 0;
    for (size_t k = 0; k < c->n; k++)
        cap += c->pb->Bt[dls__chain_pos(c, k)];
    if (cap < V * (1 - DLS__CHAIN_CAP_TOL)) {
        res->infeasible = 1;
        res->T = INFINITY;
        return DLS_OK;
    }
    paper w;
    if (paper_init(&w, c, fmin(V, cap)) != 0) {
        paper_free(&w);
        return dls__oom(err, "schedule");
    }
    dls_status st;
    if (c->pb->paper_method == DLS__CHAIN_PAPER_SWEEP) {
        st = paper_sweep_run(&w, alpha, res, err);
    } else if (c->pb->paper_method == DLS__CHAIN_PAPER_AUTO) {
        /* the greedy try first (a few passes), the sweep where it cannot prove */
        w.try_rounds = DLS__CHAIN_GREEDY_ROUNDS;
        w.given_up = !paper_greedy_probe(&w, alpha);
        st = w.given_up ? DLS_OK : paper_run(&w, alpha, res, err);
        w.try_rounds = 0;
        if (st == DLS_OK && w.given_up) {
            if (paper_restart(&w) != 0) {
                paper_free(&w);
                return dls__oom(err, "schedule");
            }
            st = paper_sweep_run(&w, alpha, res, err); /* its counts go on from the try's */
        }
    } else {
        st = paper_run(&w, alpha, res, err);
    }
    paper_free(&w);
    return st;
}

/* Whether f_1 from the sweep reaches load v where dls__paper_solve (proven, or solved by
 * policy iteration) puts the makespan: -1 out of memory, 0 no, 1 yes. */
static int paper_function_agrees(const dls__chain *c, const dls__pwl *f1, double v,
                                 double *alpha, dls_error *err)
{
    dls__chain_result res;
    dls_status st = dls__paper_solve(c, v, alpha, &res, err);
    if (st == DLS_ENOMEM)
        return -1;
    if (st != DLS_OK || res.infeasible)
        return 0;
    double T = dls__pwl_reach(f1, v);
    return fabs(T - res.T) <= DLS__CHAIN_PROOF_TOL * res.T;
}

/* f_1 from the sweep, checked at vcap and vcap / 2: DLS_OK, DLS_ENOMEM, or DLS_ENUMERIC
 * (f1 left empty) when it disagrees with the solver. */
static dls_status paper_function_sweep(const dls__chain *c, double vcap, double wmax,
                                       dls__pwl *f1, size_t *pieces, dls_error *err)
{
    double *rho = malloc(c->n * sizeof *rho), *alpha = malloc(c->n * sizeof *alpha);
    size_t pm = 0;
    dls_status st = DLS_OK;
    if (rho == NULL || alpha == NULL ||
        dls__paper_sweep(c, vcap, wmax, rho, f1, pieces, &pm) != 0) {
        st = dls__oom(err, "schedule");
    } else {
        int top = paper_function_agrees(c, f1, vcap, alpha, err);
        int mid = top == 1 ? paper_function_agrees(c, f1, vcap / 2, alpha, err) : top;
        if (top < 0 || mid < 0)
            st = dls__oom(err, "schedule");
        else if (!top || !mid)
            st = DLS_ENUMERIC;
    }
    if (st != DLS_OK)
        f1->n = 0;
    free(rho);
    free(alpha);
    return st;
}

dls_status dls__paper_function(const dls__chain *c, double vcap, double wmax, size_t max_work,
                               dls__pwl *f1, size_t *pieces, dls_error *err)
{
    if (c->pb->paper_method != DLS__CHAIN_PAPER_POLICY) {
        dls_status sst = paper_function_sweep(c, vcap, wmax, f1, pieces, err);
        if (sst != DLS_ENUMERIC)
            return sst;
        /* the sweep's rounding (extreme magnitudes): the value functions stage by stage */
    }

    paper w;
    if (paper_init(&w, c, vcap) != 0) {
        paper_free(&w);
        return dls__oom(err, "schedule");
    }
    w.max_work = max_work;
    w.vcap = vcap;
    dls_status st = paper_explicit(&w, 0, wmax, err);
    if (st == DLS_OK) {
        f1->n = 0;
        for (size_t i = 0; i < w.tailf->n && st == DLS_OK; i++)
            if (dls__pwl_push(f1, w.tailf->x[i], w.tailf->y[i]) != 0)
                st = dls__oom(err, "schedule");
        f1->tail = w.tailf->tail;
    }
    *pieces = w.pieces_total;
    paper_free(&w);
    return st;
}
