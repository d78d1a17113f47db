/* The chain solver's entry points (chain.h): parameters, the answer in the star's units
 * (loads summing to V, the replayed makespan checked against the chain's), and the curve
 * T(V). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chain/chain_impl.h"

void dls__chain_params_init(dls__chain_params *par)
{
    memset(par, 0, sizeof *par);
    par->mode = DLS__CHAIN_SELECT;
    par->max_pieces = DLS__CHAIN_DEFAULT_MAX_PIECES;
    par->max_work = 0;
    par->platform = NULL;
}

static dls_status check_params(const dls__chain_params *par, const dls__star *st,
                               dls_error *err)
{
    if (st == NULL || st->m == 0)
        return dls__fail(err, DLS_EINVAL, "schedule", "the star has no processor");
    if (par->mode != DLS__CHAIN_PAPER && par->mode != DLS__CHAIN_SELECT)
        return dls__fail(err, DLS_EINVAL, "schedule", "unknown chain mode %d", (int)par->mode);
    if (par->paper_method != DLS__CHAIN_PAPER_AUTO && par->paper_method != DLS__CHAIN_PAPER_SWEEP &&
        par->paper_method != DLS__CHAIN_PAPER_POLICY)
        return dls__fail(err, DLS_EINVAL, "schedule", "unknown method %d for the paper's LP",
                         (int)par->paper_method);
    if (par->max_pieces < DLS__CHAIN_MIN_PIECES)
        return dls__fail(err, DLS_EINVAL, "schedule", "max_pieces must be at least %d, not %zu",
                         DLS__CHAIN_MIN_PIECES, par->max_pieces);
    if (par->max_work != 0 && par->max_work < par->max_pieces)
        return dls__fail(err, DLS_EINVAL, "schedule", "max_work (%zu) must be 0 (the default) "
                         "or at least max_pieces (%zu)", par->max_work, par->max_pieces);
    return DLS_OK;
}

void dls__chain_answer_free(dls__chain_answer *ans)
{
    free(ans->alpha);
    ans->alpha = NULL;
}

/* Loads in the star's units summing to V: loads below V's rounding are none, what is above
 * V is taken from the last loads (less load never delays anyone), a deficit of rounding
 * goes to the loads with room under their limits (the largest first, then the others given
 * a load), and the largest load (with room, if one has) closes the sum. */
/* The position that would end the whole load V soonest alone (its send and its compute,
 * after the startups of the positions before it in the paper's LP, which charges them)
 * among those whose limit holds it, else the first with the largest limit. */
static size_t fastest_alone(const dls__star *st, int paper)
{
    size_t best = 0;
    double best_t = INFINITY, before = 0;
    for (size_t k = 0; k < st->m; before += paper ? st->S[k] : 0, k++) {
        if (!(st->B[k] >= st->V)) {
            if (!isfinite(best_t) && st->B[k] > st->B[best])
                best = k;
            continue;
        }
        double t = -INFINITY;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            t = fmax(t, st->a[l] + st->b[l] * st->V);
        t += before + st->S[k] + st->C[k] * st->V;
        if (t < best_t) {
            best_t = t;
            best = k;
        }
    }
    return best;
}

static void settle_loads(const dls__star *st, double lu, const double *scaled, int paper,
                         double *alpha)
{
    size_t m = st->m;
    long double sum = 0;
    for (size_t k = 0; k < m; k++) {
        alpha[k] = fmin(scaled[k] * lu, st->B[k]);
        /* a load V cannot tell from none, whose time only cancellation could give (a line
         * -9 + 1e24 x at x = 9e-24), is none */
        if (alpha[k] < DLS__CHAIN_LOAD_ULP * st->V)
            alpha[k] = 0;
        sum += alpha[k];
    }
    long double excess = sum - st->V;
    for (size_t k = m; k-- > 0 && excess > 0;) {
        double take = (double)fminl(excess, alpha[k]);
        alpha[k] -= take;
        excess -= take;
    }
    /* the largest load, among those below their limits when there is a deficit to close */
    size_t big = m;
    for (int pass = 0; pass < 2 && big == m; pass++)
        for (size_t k = 0; k < m; k++)
            if ((pass == 1 || alpha[k] < st->B[k]) && (big == m || alpha[k] > alpha[big]))
                big = k;
    if (big < m && alpha[big] == 0)
        /* every load below what V can tell (a load of 1e-53 whose time is its startup's):
         * the whole load where it ends first alone, not on the first position */
        big = fastest_alone(st, paper);
    /* a deficit beyond the room of that load (the chain's loads a hair short of V where a
     * position fills within one ulp of the makespan) goes to the others used with room (a
     * position given nothing would pay its startup for it) */
    for (size_t i = 0; excess < 0 && i <= m; i++) {
        size_t k = i == 0 ? big : i - 1;
        double add = (double)fminl(-excess, st->B[k] - alpha[k]);
        if (add > 0 && (alpha[k] > 0 || k == big)) {
            alpha[k] += add;
            excess += add;
        }
    }
    long double rest = 0;
    for (size_t k = 0; k < m; k++)
        if (k != big)
            rest += alpha[k];
    alpha[big] = (double)fmaxl(st->V - rest, 0);
}

/* The paper's LP on its own problem: SELECT's gives its hopeless positions no room (and no
 * startup), which the paper's LP charges. */
static dls_status paper_apart(const dls__star *st, const dls__chain_params *par,
                              double *makespan, dls_error *err)
{
    dls__chain_params pp = *par;
    pp.mode = DLS__CHAIN_PAPER;
    dls__cprob pb;
    dls_status rc = dls__cprob_build(st, st->V, &pp, &pb, err);
    if (rc != DLS_OK)
        return rc;
    double *scaled = malloc(st->m * sizeof *scaled);
    if (scaled == NULL) {
        dls__cprob_free(&pb);
        return dls__oom(err, "schedule");
    }
    dls__chain_result res;
    memset(&res, 0, sizeof res);
    dls__chain c = {&pb, st->m, NULL};
    rc = dls__paper_solve(&c, pb.V, scaled, &res, err);
    if (rc == DLS_OK)
        *makespan = res.infeasible ? INFINITY : res.T * pb.tu;
    free(scaled);
    dls__cprob_free(&pb);
    return rc;
}

dls_status dls__chain_solve(const dls__star *st, const dls__chain_params *par,
                            dls__chain_answer *ans, dls_error *err)
{
    dls__chain_params defaults;
    if (par == NULL) {
        dls__chain_params_init(&defaults);
        par = &defaults;
    }
    memset(ans, 0, sizeof *ans);
    dls_status rc = check_params(par, st, err);
    if (rc != DLS_OK)
        return rc;
    if (!(st->V > 0) || !isfinite(st->V))
        return dls__fail(err, DLS_EINVAL, "schedule", "the load must be a finite number > 0, "
                         "not %.10g", st->V);
    size_t m = st->m;
    dls__cprob pb;
    rc = dls__cprob_build(st, st->V, par, &pb, err);
    if (rc != DLS_OK)
        return rc;
    ans->capacity = pb.capacity;
    ans->flushed = pb.flushed;
    ans->paper_makespan = NAN;
    if (pb.capacity < st->V * (1 - DLS__CHAIN_CAP_TOL)) {
        ans->infeasible = 1;
        ans->makespan = ans->chain_makespan = ans->lower_bound = INFINITY;
        dls__cprob_free(&pb);
        return DLS_OK;
    }
    double *scaled = malloc(m * sizeof *scaled);
    ans->alpha = malloc(m * sizeof *ans->alpha);
    if (scaled == NULL || ans->alpha == NULL) {
        free(scaled);
        dls__chain_answer_free(ans);
        dls__cprob_free(&pb);
        return dls__oom(err, "schedule");
    }
    dls__chain_result res;
    memset(&res, 0, sizeof res);
    int exact = 1;
    double lower = NAN, paper_T = NAN;
    if (par->mode == DLS__CHAIN_PAPER) {
        dls__chain c = {&pb, m, NULL};
        rc = dls__paper_solve(&c, pb.V, scaled, &res, err);
        paper_T = lower = res.T;
        if (res.unproven) {
            exact = 0;
            lower = NAN; /* no bound: the sweep's answer is all there is */
        }
    } else {
        rc = dls__select_solve(&pb, par, scaled, &res, &exact, &lower, &paper_T, err);
    }
    if (rc == DLS_OK && res.infeasible) {
        ans->infeasible = 1;
        ans->makespan = ans->chain_makespan = ans->lower_bound = INFINITY;
        dls__chain_answer_free(ans);
    } else if (rc == DLS_OK) {
        int paper = par->mode == DLS__CHAIN_PAPER;
        settle_loads(st, pb.lu, scaled, paper, ans->alpha);
        ans->makespan = dls__replay(st, ans->alpha, NULL, paper, 0, NULL, NULL, NULL, NULL, NULL);
        /* the heuristic's makespan is its loads' replay (in the chain's units it differs
         * by rounding, a few 1e-12) */
        ans->chain_makespan = exact ? res.T * pb.tu : ans->makespan;
        ans->paper_makespan = paper_T * pb.tu;
        if (!paper && pb.hopeless > 0)
            rc = paper_apart(st, par, &ans->paper_makespan, err);
        ans->lower_bound = isnan(lower) ? NAN : fmin(lower * pb.tu, ans->makespan);
        ans->exact = exact;
        double scale = fmax(fabs(ans->makespan), fabs(ans->chain_makespan));
        if (exact && !(fabs(ans->makespan - ans->chain_makespan) <= DLS__CHAIN_AGREE_TOL * scale))
            rc = dls__fail(err, DLS_ENUMERIC, "schedule", "the chain's makespan %.17g s and the "
                           "replay of its loads, %.17g s, differ by more than %g (relative)",
                           ans->chain_makespan, ans->makespan, DLS__CHAIN_AGREE_TOL);
        for (size_t k = 0; k < m; k++)
            ans->used += ans->alpha[k] > 0;
        /* dT/dV = 1 / (df_1/dT), in s per unit */
        double unit = pb.tu / pb.lu;
        ans->slope_right = res.slope_right > 0 ? unit / res.slope_right : INFINITY;
        ans->slope_left = res.slope_left > 0 ? unit / res.slope_left : INFINITY;
        /* the limits hold the load (within rounding, and the stretch of limits a hair
         * short of V, star.c): not one unit more at any time (f_1 reaches V where it
         * stops rising, and its slope read there is the one below) */
        if (pb.capacity <= st->V * (1 + 2 * DLS__CHAIN_CAP_TOL))
            ans->slope_right = INFINITY;
        ans->pieces_total = res.pieces_total;
        ans->pieces_max = res.pieces_max;
        ans->explicit_stages = res.explicit_stages;
        ans->passes = res.passes;
        ans->rounds = res.rounds;
        if (rc != DLS_OK)
            dls__chain_answer_free(ans);
    } else {
        dls__chain_answer_free(ans);
    }
    free(scaled);
    dls__cprob_free(&pb);
    return rc;
}

void dls__chain_curve_free(dls__chain_curve *cv)
{
    free(cv->load);
    free(cv->makespan);
    memset(cv, 0, sizeof *cv);
}

dls_status dls__chain_curve_build(const dls__star *st, const dls__chain_params *par,
                                  double v_lo, double v_hi, dls__chain_curve *cv,
                                  dls_error *err)
{
    dls__chain_params defaults;
    if (par == NULL) {
        dls__chain_params_init(&defaults);
        par = &defaults;
    }
    memset(cv, 0, sizeof *cv);
    dls_status rc = check_params(par, st, err);
    if (rc != DLS_OK)
        return rc;
    if (!(v_lo > 0) || !(v_hi > v_lo) || !isfinite(v_hi))
        return dls__fail(err, DLS_EINVAL, "schedule", "the range of loads must have 0 < low < "
                         "high, finite, not [%.10g, %.10g]", v_lo, v_hi);
    dls__cprob pb;
    rc = dls__cprob_build(st, v_hi, par, &pb, err);
    if (rc != DLS_OK)
        return rc;
    if (!dls__holds(pb.capacity, v_hi)) {
        double capacity = pb.capacity;
        dls__cprob_free(&pb);
        int dg = dls__distinct_digits(capacity, v_hi);
        return dls__fail(err, DLS_EINVAL, "schedule", "the limits hold a load of at most %.*g, "
                         "less than the top of the range %.*g (beyond the relative tolerance "
                         "%g)", dg, capacity, dg, v_hi, DLS_REL_TOL);
    }
    size_t m = st->m, max_work = par->max_work;
    if (max_work == 0) {
        max_work = DLS__CHAIN_DEFAULT_WORK_PER_LINE * st->off[m];
        if (max_work < DLS__CHAIN_DEFAULT_MIN_WORK)
            max_work = DLS__CHAIN_DEFAULT_MIN_WORK;
    }
    /* the window: the makespan of v_hi (the paper's LP bounds the selection's) */
    double *scaled = malloc(m * sizeof *scaled);
    dls__pwl f1 = {0};
    size_t pieces = 0;
    if (scaled == NULL) {
        rc = dls__oom(err, "schedule");
    } else {
        dls__chain c = {&pb, m, NULL};
        dls__chain_result res;
        rc = dls__paper_solve(&c, pb.V, scaled, &res, err);
        double wmax = res.T * (1 + DLS__CHAIN_WINDOW_SLACK);
        if (rc == DLS_OK && par->mode == DLS__CHAIN_PAPER)
            rc = dls__paper_function(&c, pb.V, wmax, max_work, &f1, &pieces, err);
        else if (rc == DLS_OK)
            rc = dls__select_function(&pb, pb.V, wmax, par->max_pieces, max_work, &f1,
                                      &pieces, err);
    }
    free(scaled);
    if (rc == DLS_OK) {
        /* T(V) at v_lo, at every point of f_1 between, and at v_hi */
        double lo = v_lo / pb.lu, hi = pb.V;
        size_t cap = f1.n + 2;
        cv->load = malloc(cap * sizeof *cv->load);
        cv->makespan = malloc(cap * sizeof *cv->makespan);
        if (cv->load == NULL || cv->makespan == NULL) {
            dls__chain_curve_free(cv);
            rc = dls__oom(err, "schedule");
        } else {
            size_t n = 0;
            cv->load[n] = v_lo;
            cv->makespan[n++] = dls__pwl_reach(&f1, lo) * pb.tu;
            for (size_t i = 0; i < f1.n; i++) {
                /* f_1's points as (load, T): where f_1 is flat T jumps, and the curve has
                 * two points of the same load, the least T first; where f_1 jumps T is flat */
                double y = f1.y[i], x = f1.x[i] * pb.tu, v = y * pb.lu;
                double dv = v - cv->load[n - 1], dt = x - cv->makespan[n - 1];
                /* the same point up to rounding: a piece that short has no slope; the same
                 * load or the same makespan up to rounding (either way: f_1's values may
                 * fall by rounding along a flat piece): a jump of T, or T flat */
                int same_v = fabs(dv) <= DLS__CHAIN_SLOPE_STEP * v;
                int same_t = fabs(dt) <= DLS__CHAIN_SLOPE_STEP * x;
                if (!(y > lo && y < hi) || (dv < 0 && !same_v) || (dt < 0 && !same_t))
                    continue;
                if (same_v && same_t)
                    continue;
                if (same_v)
                    v = cv->load[n - 1];
                if (same_t)
                    x = cv->makespan[n - 1];
                cv->load[n] = v;
                cv->makespan[n++] = x;
            }
            cv->load[n] = v_hi;
            cv->makespan[n++] = dls__pwl_reach(&f1, hi) * pb.tu;
            cv->n = n;
            cv->exact = 1;
            cv->pieces_total = pieces;
        }
    }
    dls__pwl_free(&f1);
    dls__cprob_free(&pb);
    return rc;
}
