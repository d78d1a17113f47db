/* The best set of processors for the send order, exactly, with explicit value functions
 * (stage.c) restricted to the times below an incumbent's makespan and to loads up to V;
 * within the bounds of the parameters on their pieces. Past the bounds, the heuristic: the
 * paper's LP, then the processors it gives nothing dropped and the LP solved again until
 * each gets a load; its answer is never worse than the paper's LP, and the paper's LP with
 * no startups and no positive intercepts (where leaving a processor out costs nothing and
 * using it costs less than in truth) bounds the optimum from below. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "chain/chain_impl.h"

/* The makespan of loads (scaled, by position) through the scaled problem: positions with
 * no load are sent nothing unless charge_all (the paper's model), as dls__replay does. */
static double replay_scaled(const dls__cprob *pb, const double *alpha, int charge_all)
{
    const dls__star *st = pb->st;
    double clock = 0, mk = 0;
    for (size_t k = 0; k < pb->m; k++) {
        double x = alpha[k];
        if (!(x > 0) && !charge_all)
            continue;
        clock += pb->S[k] + pb->C[k] * x;
        double t = 0;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            t = fmax(t, pb->a[l] + pb->b[l] * x);
        mk = fmax(mk, clock + t);
    }
    return mk;
}

/* Loads of rounding noise (at most DLS__CHAIN_DUST of V), which the paper's LP may leave
 * on processors it has no use for, are moved to the largest load: a processor sent them
 * would be charged its startup. */
static void drop_dust(double *alpha, size_t m, double V)
{
    double moved = 0;
    size_t big = 0;
    for (size_t k = 0; k < m; k++) {
        if (alpha[k] > 0 && alpha[k] <= DLS__CHAIN_DUST * V) {
            moved += alpha[k];
            alpha[k] = 0;
        }
        if (alpha[k] > alpha[big])
            big = k;
    }
    alpha[big] += moved;
}

/* ---------------------------------------------------------------------------------- */
/* The value functions of every position, kept for the forward pass                   */

typedef struct arena {
    double *x, *y;
    size_t n, cap;
    size_t *off, *cnt;  /* by stage 0..m: where f_k's points are */
    double *tail;
} arena;

static void arena_free(arena *a)
{
    free(a->x);
    free(a->y);
    free(a->off);
    free(a->cnt);
    free(a->tail);
}

static int arena_store(arena *a, size_t k, const dls__pwl *f)
{
    if (a->n + f->n > a->cap) {
        size_t cx = a->cap, cy = a->cap;
        double *nx = dls__grow(a->x, &cx, a->n + f->n, sizeof *nx);
        if (nx == NULL)
            return -1;
        a->x = nx;
        double *ny = dls__grow(a->y, &cy, a->n + f->n, sizeof *ny);
        if (ny == NULL)
            return -1;
        a->y = ny;
        a->cap = cx < cy ? cx : cy;
    }
    memcpy(a->x + a->n, f->x, f->n * sizeof *f->x);
    memcpy(a->y + a->n, f->y, f->n * sizeof *f->y);
    a->off[k] = a->n;
    a->cnt[k] = f->n;
    a->tail[k] = f->tail;
    a->n += f->n;
    return 0;
}

static dls__pwl arena_view(const arena *a, size_t k)
{
    dls__pwl f = {a->cnt[k], 0, a->x + a->off[k], a->y + a->off[k], a->tail[k]};
    return f;
}

/* The DP from the last position to the first. Returns 1 when it went through within the
 * bounds, 0 when a bound stopped it, -1 when out of memory. With store NULL only the
 * function of the first position is kept (in *f1). */
static int select_dp(const dls__cprob *pb, double vcap, double wmax, size_t max_pieces,
                     size_t max_work, arena *store, dls__pwl *f1, size_t *pieces_total,
                     size_t *pieces_max)
{
    size_t m = pb->m;
    dls__pwl work[2] = {{0}}, scratch[3] = {{0}};
    dls__vcurve vc = {0, NULL, NULL, NULL, 0};
    vc.r = malloc((pb->max_lines + 2) * sizeof *vc.r);
    vc.al = malloc((pb->max_lines + 2) * sizeof *vc.al);
    int rc = vc.r && vc.al && dls__pwl_push(&work[0], 0, 0) == 0 ? 1 : -1;
    work[0].tail = 0;
    if (rc == 1 && store && arena_store(store, m, &work[0]) != 0)
        rc = -1;
    dls__pwl *g = &work[0], *f = &work[1];
    for (size_t k = m; k-- > 0 && rc == 1;) {
        dls__pwl view = store ? arena_view(store, k + 1) : *g;
        if (dls__stage_select(pb, k, &view, vcap, wmax, &vc, f, scratch) != 0) {
            rc = -1;
            break;
        }
        *pieces_total += f->n;
        if (f->n > *pieces_max)
            *pieces_max = f->n;
        /* past a bound, or on course to pass max_work: the functions grow from the last
         * position on, so the work so far per stage underestimates what is to come */
        size_t done = m - k;
        if (f->n > max_pieces || *pieces_total > max_work ||
            (double)*pieces_total * ((double)m / (double)done) > (double)max_work) {
            rc = 0;
            break;
        }
        if (store && arena_store(store, k, f) != 0) {
            rc = -1;
            break;
        }
        dls__pwl *t = g;
        g = f;
        f = t;
    }
    if (rc == 1 && f1 != NULL) {
        f1->n = 0;
        for (size_t i = 0; i < g->n && rc == 1; i++)
            if (dls__pwl_push(f1, g->x[i], g->y[i]) != 0)
                rc = -1;
        f1->tail = g->tail;
    }
    dls__pwl_free(&work[0]);
    dls__pwl_free(&work[1]);
    for (int i = 0; i < 3; i++)
        dls__pwl_free(&scratch[i]);
    free(vc.r);
    free(vc.al);
    return rc;
}

/* The loads along the stored functions at makespan T: each position used when that gives
 * more than leaving it out. */
static void select_forward(const dls__cprob *pb, const arena *ar, double T, double *alpha)
{
    double W = T;
    for (size_t k = 0; k < pb->m; k++) {
        dls__pwl g = arena_view(ar, k + 1);
        double skip = dls__pwl_at(&g, W), a, r;
        double best = dls__stage_forward(pb, k, &g, W, &a, &r);
        if (best > skip && a > 0) {
            alpha[k] = a;
            W = r;
        } else {
            alpha[k] = 0;
        }
    }
}

/* ---------------------------------------------------------------------------------- */
/* The heuristic and the lower bound                                                  */

/* The paper's LP on the positions that the loads alpha use, again until each gets a
 * load; alpha (by position) is replaced when the result is better. */
static dls_status drop_idle(const dls__cprob *pb, double V, double *alpha, double *best_T,
                            unsigned *passes, double slopes[2], int *have_slopes,
                            dls_error *err)
{
    size_t m = pb->m;
    size_t *pos = malloc(m * sizeof *pos);
    double *sub = malloc(m * sizeof *sub), *full = malloc(m * sizeof *full);
    dls_status st = DLS_OK;
    if (pos == NULL || sub == NULL || full == NULL) {
        st = dls__oom(err, "schedule");
        goto done;
    }
    memcpy(full, alpha, m * sizeof *full);
    for (int round = 0; round < 8; round++) {
        size_t n = 0;
        for (size_t k = 0; k < m; k++)
            if (full[k] > 0)
                pos[n++] = k;
        if (n == 0 || n == m)
            break;
        dls__chain c = {pb, n, pos};
        dls__chain_result r;
        st = dls__paper_solve(&c, V, sub, &r, err);
        if (st != DLS_OK)
            break;
        *passes += r.passes;
        memset(full, 0, m * sizeof *full);
        drop_dust(sub, n, V);
        size_t idle = 0;
        for (size_t k = 0; k < n; k++) {
            full[pos[k]] = sub[k];
            idle += !(sub[k] > 0);
        }
        double T = replay_scaled(pb, full, 0);
        if (T < *best_T) {
            *best_T = T;
            memcpy(alpha, full, m * sizeof *alpha);
            /* the marginal costs of this set, when it uses every position it was given
             * (else its set is smaller than its chain, and they are recomputed) */
            *have_slopes = idle == 0;
            slopes[0] = r.slope_left;
            slopes[1] = r.slope_right;
        }
        if (idle == 0)
            break;
    }
done:
    free(pos);
    free(sub);
    free(full);
    return st;
}

/* The paper's LP with no startups and intercepts cut to at most 0: a lower bound. */
static dls_status relaxed_bound(const dls__cprob *pb, double V, double *lower, dls_error *err)
{
    size_t m = pb->m, nl = pb->st->off[m];
    dls__cprob r = *pb;
    r.S = calloc(m, sizeof *r.S);
    r.amax = malloc(m * sizeof *r.amax);
    r.a = malloc((nl ? nl : 1) * sizeof *r.a);
    double *alpha = malloc(m * sizeof *alpha);
    dls_status st = DLS_OK;
    if (r.S == NULL || r.amax == NULL || r.a == NULL || alpha == NULL) {
        st = dls__oom(err, "schedule");
    } else {
        for (size_t k = 0; k < m; k++) {
            r.amax[k] = -INFINITY;
            for (size_t l = pb->st->off[k]; l < pb->st->off[k + 1]; l++) {
                r.a[l] = fmin(pb->a[l], 0);
                r.amax[k] = fmax(r.amax[k], r.a[l]);
            }
        }
        dls__chain c = {&r, m, NULL};
        dls__chain_result res;
        st = dls__paper_solve(&c, V, alpha, &res, err);
        if (st == DLS_OK)
            *lower = res.unproven ? NAN : res.T; /* an unproven optimum bounds nothing */
    }
    free(r.S);
    free(r.amax);
    free(r.a);
    free(alpha);
    return st;
}

/* The exact answer from the stored value functions: the set of the forward pass, its
 * paper's LP (the polish), the marginal costs from f_1. */
static dls_status select_exact(const dls__cprob *pb, arena *ar, double *alpha, double *trial,
                               dls__chain_result *res, int *exact, double *lower,
                               dls_error *err)
{
    size_t m = pb->m;
    double V = pb->V;
    dls__pwl f1 = arena_view(ar, 0);
    /* the set: from the forward pass where f_1 reaches V less rounding (a set whose
     * limits hold V up to rounding is a set that holds V) */
    double T = dls__pwl_reach(&f1, V);
    select_forward(pb, ar, dls__pwl_reach(&f1, V * (1 - DLS__CHAIN_CAP_TOL)), trial);
    /* the set found, polished: the paper's LP on it (exact, and the loads of the
     * forward pass are one of its solutions, so it can only be as good or better) */
    size_t n = 0;
    size_t *pos = (size_t *)ar->cnt; /* m + 1 entries, no longer needed */
    for (size_t k = 0; k < m; k++)
        if (trial[k] > 0)
            pos[n++] = k;
    dls__chain c = {pb, n, pos};
    dls__chain_result r;
    dls_status st = n > 0 ? dls__paper_solve(&c, V, alpha, &r, err) : DLS_OK;
    if (st == DLS_OK && n > 0 && !r.infeasible) {
        memset(trial, 0, m * sizeof *trial);
        for (size_t k = n; k-- > 0;)
            trial[pos[k]] = alpha[k];
        T = r.T;
        res->passes += r.passes;
    } else if (st == DLS_OK) {
        select_forward(pb, ar, T, trial);
    }
    memcpy(alpha, trial, m * sizeof *alpha);
    res->T = T;
    res->explicit_stages = m;
    /* a little either side of T, which carries rounding (paper.c) */
    double eta = DLS__CHAIN_SLOPE_STEP * T;
    res->slope_right = dls__pwl_slope_right(&f1, T + eta);
    res->slope_left = dls__pwl_slope_left(&f1, T - eta);
    if (dls__pwl_at(&f1, T) > V * (1 + DLS__CHAIN_REACH_TOL))
        res->slope_left = res->slope_right = INFINITY; /* inside a jump of f_1 */
    else if (dls__pwl_left_limit(&f1, T) < V * (1 - DLS__CHAIN_REACH_TOL))
        res->slope_left = INFINITY; /* at the top of a jump: T flat to the left */
    *exact = 1;
    *lower = T;
    return st;
}

/* Past the bounds: the heuristic (drop_idle), the relaxation's lower bound, and the
 * marginal costs of the heuristic's set (its own paper's LP). */
static dls_status select_heuristic(const dls__cprob *pb, arena *ar, double T_inc, double *alpha,
                                   double *trial, dls__chain_result *res, int *exact,
                                   double *lower, dls_error *err)
{
    size_t m = pb->m;
    double V = pb->V;
    double T_best = T_inc, slopes[2];
    int have_slopes = 0;
    dls_status st = drop_idle(pb, V, alpha, &T_best, &res->passes, slopes, &have_slopes, err);
    if (st == DLS_OK)
        st = relaxed_bound(pb, V, lower, err);
    if (st == DLS_OK && have_slopes) {
        res->T = T_best;
        *exact = T_best <= *lower * (1 + DLS__CHAIN_AGREE_TOL);
        res->slope_left = slopes[0];
        res->slope_right = slopes[1];
    } else if (st == DLS_OK) {
        res->T = T_best;
        *exact = T_best <= *lower * (1 + DLS__CHAIN_AGREE_TOL);
        /* the marginal cost of the heuristic's set: its own paper's LP */
        size_t n = 0;
        size_t *pos = (size_t *)ar->off; /* m + 1 entries, free now */
        for (size_t k = 0; k < m; k++)
            if (alpha[k] > 0)
                pos[n++] = k;
        dls__chain c = {pb, n, pos};
        dls__chain_result r;
        st = dls__paper_solve(&c, V, trial, &r, err);
        if (st == DLS_OK) {
            res->slope_left = r.slope_left;
            res->slope_right = r.slope_right;
        }
    }
    return st;
}

dls_status dls__select_solve(const dls__cprob *pb, const dls__chain_params *par, double *alpha,
                             dls__chain_result *res, int *exact, double *lower, double *paper_T,
                             dls_error *err)
{
    size_t m = pb->m;
    double V = pb->V;
    dls__chain all = {pb, m, NULL};
    dls_status st = dls__paper_solve(&all, V, alpha, res, err);
    if (st != DLS_OK || res->infeasible)
        return st;
    *paper_T = res->T;
    drop_dust(alpha, m, V);
    double T_inc = replay_scaled(pb, alpha, 0);
    double *trial = malloc(m * sizeof *trial);
    double *part = malloc(m * sizeof *part);
    if (trial == NULL || part == NULL) {
        free(trial);
        free(part);
        return dls__oom(err, "schedule");
    }
    /* The incumbent bounds the window of the value functions. The paper's LP over every
     * position charges every startup: where a few early positions could do the work, the
     * paper's LP over the first 1, 2, 4, ... positions (startups of the prefix only) finds
     * a far better one (10 processors first of 10^6: the heuristic's answer went from
     * 400 s to 5.6 s), and with it a narrower window, fewer pieces and a better heuristic
     * start. Every prefix up to DLS__CHAIN_PREFIX_ALL positions (at most the work of the
     * LP over them all again); beyond, those of at most m / DLS__CHAIN_PREFIX_SHARE (an
     * eighth of it), where the gains are: a few processors doing the work. */
    for (size_t k = 1; k < m && st == DLS_OK
                       && (m <= DLS__CHAIN_PREFIX_ALL || k <= m / DLS__CHAIN_PREFIX_SHARE);
         k *= 2) {
        dls__chain prefix = {pb, k, NULL};
        dls__chain_result r;
        st = dls__paper_solve(&prefix, V, part, &r, err);
        if (st != DLS_OK || r.infeasible)
            continue;
        memcpy(trial, part, k * sizeof *trial);
        memset(trial + k, 0, (m - k) * sizeof *trial);
        drop_dust(trial, m, V);
        double T = replay_scaled(pb, trial, 0);
        if (T < T_inc) {
            T_inc = T;
            memcpy(alpha, trial, m * sizeof *alpha);
        }
    }
    free(part);
    if (st != DLS_OK) {
        free(trial);
        return st;
    }
    /* and the best processor alone (whatever its position): the bound of problem.c's
     * hopeless rule, so that the heuristic's answer is never above it (nor, then, above
     * the paper's LP of any prefix that holds a position the rule left out) */
    if (pb->single < m && pb->Bt[pb->single] >= V) {
        memset(trial, 0, m * sizeof *trial);
        trial[pb->single] = V;
        double T = replay_scaled(pb, trial, 0);
        if (T < T_inc) {
            T_inc = T;
            memcpy(alpha, trial, m * sizeof *alpha);
        }
    }
    size_t max_work = par->max_work;
    if (max_work == 0) {
        max_work = DLS__CHAIN_DEFAULT_WORK_PER_LINE * pb->st->off[m];
        if (max_work < DLS__CHAIN_DEFAULT_MIN_WORK)
            max_work = DLS__CHAIN_DEFAULT_MIN_WORK;
    }
    arena ar;
    memset(&ar, 0, sizeof ar);
    ar.off = malloc((m + 1) * sizeof *ar.off);
    ar.cnt = malloc((m + 1) * sizeof *ar.cnt);
    ar.tail = malloc((m + 1) * sizeof *ar.tail);
    if (!ar.off || !ar.cnt || !ar.tail || !trial) {
        arena_free(&ar);
        free(trial);
        return dls__oom(err, "schedule");
    }
    res->pieces_total = res->pieces_max = 0;
    int rc = select_dp(pb, V * DLS__CHAIN_VCAP, T_inc * (1 + DLS__CHAIN_WINDOW_SLACK),
                       par->max_pieces, max_work, &ar, NULL, &res->pieces_total,
                       &res->pieces_max);
    if (rc < 0) {
        st = dls__oom(err, "schedule");
    } else if (rc == 1) {
        st = select_exact(pb, &ar, alpha, trial, res, exact, lower, err);
    } else {
        st = select_heuristic(pb, &ar, T_inc, alpha, trial, res, exact, lower, err);
    }
    arena_free(&ar);
    free(trial);
    return st;
}

dls_status dls__select_function(const dls__cprob *pb, double vcap, double wmax,
                                size_t max_pieces, size_t max_work, dls__pwl *f1,
                                size_t *pieces, dls_error *err)
{
    size_t pmax = 0;
    *pieces = 0;
    int rc = select_dp(pb, vcap, wmax, max_pieces, max_work, NULL, f1, pieces, &pmax);
    if (rc < 0)
        return dls__oom(err, "schedule");
    if (rc == 0)
        return dls__fail(err, DLS_ELIMIT, "schedule", "the exact curve needs more pieces of "
                         "value functions than allowed (%zu in one, %zu in all, at the rate "
                         "they grew), %zu built", max_pieces, max_work, *pieces);
    return DLS_OK;
}
