/* The differential suite's paths for the star scheduler: the chain against GLPK, the
 * selection against every subset, integer schedules against brute force and the exact
 * integer optimum of constant speeds, and evaluations against the replay written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

/* The relative agreement asked of two exact solvers of one LP (GLPK's simplex answers to
 * about 1e-10 on these scaled problems; the rule). */
#define DIFF_LP_TOL 1e-9
/* Two makespans of the same loads through the same models, computed in other orders. */
#define DIFF_REPLAY_TOL 1e-11

/* par's send order (seq for SEQUENCE: every processor of pl) and originator rule. */
static void set_order(dls_schedule_params *par, const dls_platform *pl, dls_send_order order,
                      const size_t *seq, int orig)
{
    par->order = order;
    par->originator_computes = orig;
    if (order == DLS_ORDER_SEQUENCE) {
        par->sequence = seq;
        par->sequence_count = dls_platform_count(pl);
    }
}

/* A schedule of pl at V by solver with the order, originator rule and model asked; NULL
 * after a failure (err filled). */
static dls_schedule *solve(const dls_platform *pl, double V, dls_star_solver solver,
                           dls_send_order order, const size_t *seq, int orig, int drop,
                           dls_status *st, dls_error *err)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = solver;
    par.drop_unused = drop;
    set_order(&par, pl, order, seq, orig);
    dls_schedule *s = NULL;
    *st = dls_schedule_solve(pl, V, &par, &s, err);
    return *st == DLS_OK ? s : NULL;
}

static void random_order(diff_rng *r, size_t *seq, size_t m)
{
    for (size_t i = 0; i < m; i++)
        seq[i] = i;
    for (size_t i = m; i-- > 1;) {
        size_t j = (size_t)diff_below(r, i + 1), t = seq[i];
        seq[i] = seq[j];
        seq[j] = t;
    }
}

/* The schedule's own timeline against the replay written here (the paper's model charges
 * the processors it keeps with no load). */
static void check_replay(diff_case *c, const dls_platform *pl, const dls_schedule *s,
                         int charge_all, const char *what)
{
    double mine = diff_replay(pl, dls_schedule_sequence(s), dls_schedule_loads(s), charge_all);
    if (!diff_close(mine, dls_schedule_true_makespan(s), DIFF_REPLAY_TOL))
        diff_fail(c, "%s: the schedule's makespan under the true models %.17g, the replay of "
                  "its loads %.17g", what, dls_schedule_true_makespan(s), mine);
}

/* ---------------------------------------------------------------------------------- */
/* The chain against GLPK: the paper's LP in every order and originator rule, equal within
 * 1e-9; the chain's exact selection no longer than the paper's LP nor GLPK's heuristic. */

/* Params for the paper's LP (every processor charged) by GLPK's exact simplex. */
static void exact_lp_params(dls_schedule_params *par)
{
    dls_schedule_params_init(par);
    par->solver = DLS_SOLVER_GLPK;
    par->exact = 1;
    par->drop_unused = 0;
}

/* The chain and GLPK's simplex (in doubles) differ by more than 1e-9: GLPK's exact simplex
 * (rational arithmetic) on the same LP decides; the chain must be its optimum within
 * rounding (GLPK's own answer in doubles was seen 3e-9 off on platforms of magnitudes far
 * apart). */
static void arbiter(diff_case *c, const dls_platform *pl, double V, dls_send_order order,
                    const size_t *seq, int orig, double chain, double glpk, const char *what)
{
    dls_schedule_params par;
    exact_lp_params(&par);
    set_order(&par, pl, order, seq, orig);
    dls_schedule *s = NULL;
    dls_error err;
    if (dls_schedule_solve(pl, V, &par, &s, &err) != DLS_OK || !dls_schedule_exact_confirmed(s))
        diff_fail(c, "%s: the paper's LP: the chain %.17g, GLPK %.17g, and no exact answer to "
                  "decide", what, chain, glpk);
    else if (!diff_close(chain, dls_schedule_lp_makespan(s), DIFF_REPLAY_TOL))
        diff_fail(c, "%s: the paper's LP: the chain %.17g, GLPK %.17g, GLPK's exact simplex "
                  "%.17g", what, chain, glpk, dls_schedule_lp_makespan(s));
    dls_schedule_free(s);
}

static void chain_glpk_one(diff_case *c, const dls_platform *pl, double V, dls_send_order order,
                           const size_t *seq, int orig)
{
    char what[96];
    snprintf(what, sizeof what, "order %s%s", dls_send_order_name(order),
             orig ? ", originator computes" : "");
    dls_status sc, sg, ss;
    dls_error ec, eg, es;
    dls_schedule *chain = solve(pl, V, DLS_SOLVER_CHAIN, order, seq, orig, 0, &sc, &ec);
    dls_schedule *glpk = solve(pl, V, DLS_SOLVER_GLPK, order, seq, orig, 0, &sg, &eg);
    dls_schedule *sel = solve(pl, V, DLS_SOLVER_CHAIN, order, seq, orig, 1, &ss, &es);
    if (sc != DLS_OK || ss != DLS_OK) {
        diff_fail(c, "%s: the chain failed: %s", what, sc != DLS_OK ? ec.message : es.message);
    } else if (dls_schedule_status(chain) == DLS_SOLUTION_INFEASIBLE) {
        if (dls_schedule_capacity(chain) >= V * (1 + 1e-9))
            diff_fail(c, "%s: infeasible, with limits holding %.17g", what,
                      dls_schedule_capacity(chain));
        if (glpk && dls_schedule_status(glpk) != DLS_SOLUTION_INFEASIBLE)
            diff_fail(c, "%s: the chain says infeasible, GLPK does not", what);
    } else {
        /* the LPs' own makespans (on the envelopes of speed models) */
        double tc = dls_schedule_lp_makespan(chain), ts = dls_schedule_lp_makespan(sel);
        if (glpk == NULL)
            diff_skip(c, "%s: GLPK failed (%s)", what, eg.message);
        else if (!diff_close(tc, dls_schedule_lp_makespan(glpk), DIFF_LP_TOL))
            arbiter(c, pl, V, order, seq, orig, tc, dls_schedule_lp_makespan(glpk), what);
        if (!(ts <= tc * (1 + DIFF_LP_TOL)))
            diff_fail(c, "%s: the chain's selection %.17g is longer than its paper's LP %.17g",
                      what, ts, tc);
        /* optimal exactly when the loads' true time is no more than the LP's (where an
         * envelope's chords lie above a speed model, a little less: optimal within the
         * envelope's accuracy, as documented) */
        int same = dls_schedule_makespan(chain) <= tc * (1 + 1e-9);
        if ((dls_schedule_status(chain) == DLS_SOLUTION_OPTIMAL) != same)
            diff_fail(c, "%s: the chain's paper LP is %s optimal, its loads taking %.17g s "
                      "against the LP's %.17g s", what, same ? "not called" : "called",
                      dls_schedule_makespan(chain), tc);
        check_replay(c, pl, chain, 1, what);
        check_replay(c, pl, sel, 0, what);
    }
    dls_schedule_free(chain);
    dls_schedule_free(glpk);
    dls_schedule_free(sel);
}

void diff_path_chain_glpk(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 40), diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    size_t *seq = malloc(sh.m * sizeof *seq);
    random_order(r, seq, sh.m);
    for (int variant = 0; variant < 6 && pl && seq; variant++) {
        dls_send_order order = variant % 3 == 0   ? DLS_ORDER_GIVEN
                               : variant % 3 == 1 ? DLS_ORDER_RATE
                                                  : DLS_ORDER_SEQUENCE;
        chain_glpk_one(c, pl, sh.load, order, seq, variant >= 3);
    }
    free(seq);
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* The chain's exact selection against every subset of up to 7 processors, each solved as
 * the paper's LP by GLPK in the same order. */

/* The processors of pl in mask, in platform order. */
static dls_platform *subset(const dls_platform *pl, unsigned mask)
{
    dls_platform *sub;
    dls_error err;
    if (dls_platform_create(&sub, &err) != DLS_OK)
        return NULL;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        if (!(mask >> i & 1))
            continue;
        size_t at;
        dls_platform_add(sub, dls_platform_name(pl, i), dls_platform_model(pl, i), &at, &err);
        if (isfinite(dls_platform_limit(pl, i)))
            dls_platform_set_limit(sub, at, dls_platform_limit(pl, i), &err);
        double S, C;
        if (dls_platform_has_link(pl, i) && dls_platform_link(pl, i, &S, &C) == DLS_OK)
            dls_platform_set_link(sub, at, S, C, &err);
    }
    return sub;
}

/* The least makespan of the paper's LP over every subset (GLPK); NaN when GLPK failed on
 * one (nothing can be concluded), INFINITY when no subset holds V. */
static double best_subset(const dls_platform *pl, double V, unsigned *best_mask, char *why,
                          size_t size)
{
    size_t m = dls_platform_count(pl);
    double best = INFINITY;
    for (unsigned mask = 1; mask < (1u << m); mask++) {
        dls_platform *sub = subset(pl, mask);
        dls_status st;
        dls_error err;
        dls_schedule *s = sub ? solve(sub, V, DLS_SOLVER_GLPK, DLS_ORDER_GIVEN, NULL, 0, 0,
                                      &st, &err)
                              : NULL;
        if (s == NULL) {
            snprintf(why, size, "GLPK on the subset 0x%x: %.200s", mask, err.message);
            dls_platform_free(sub);
            return NAN;
        }
        if (dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE &&
            dls_schedule_lp_makespan(s) < best) {
            best = dls_schedule_lp_makespan(s);
            *best_mask = mask;
        }
        dls_schedule_free(s);
        dls_platform_free(sub);
    }
    return best;
}

/* The paper's LP of the processors in mask by GLPK's exact simplex; NaN when it does not
 * confirm. */
static double exact_subset(const dls_platform *pl, double V, unsigned mask)
{
    dls_platform *sub = subset(pl, mask);
    dls_schedule_params par;
    exact_lp_params(&par);
    dls_schedule *s = NULL;
    dls_error err;
    double T = NAN;
    if (sub && dls_schedule_solve(sub, V, &par, &s, &err) == DLS_OK &&
        dls_schedule_exact_confirmed(s))
        T = dls_schedule_lp_makespan(s);
    dls_schedule_free(s);
    dls_platform_free(sub);
    return T;
}

void diff_path_selection(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 7), diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    dls_status st;
    dls_error err;
    dls_schedule *s = pl ? solve(pl, sh.load, DLS_SOLVER_CHAIN, DLS_ORDER_GIVEN, NULL, 0, 1, &st,
                                 &err)
                         : NULL;
    char why[256] = "";
    unsigned best_mask = 0;
    double best = s ? best_subset(pl, sh.load, &best_mask, why, sizeof why) : NAN;
    if (s == NULL) {
        diff_fail(c, "the chain's selection failed: %s", err.message);
    } else if (isnan(best)) {
        diff_skip(c, "%s", why);
    } else if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        if (isfinite(best))
            diff_fail(c, "the chain says infeasible, a subset takes %.17g", best);
    } else if (!diff_close(dls_schedule_lp_makespan(s), best, DIFF_LP_TOL)) {
        /* GLPK's simplex in doubles may be off by more than 1e-9 on magnitudes far apart:
         * its exact simplex decides, on the chain's set where the chain is below and on
         * GLPK's best where it is above */
        double T = dls_schedule_lp_makespan(s);
        unsigned mask = 0;
        for (size_t i = 0; i < sh.m; i++)
            mask |= (dls_schedule_loads(s)[i] > 0) << i;
        double exact = exact_subset(pl, sh.load, T < best ? mask : best_mask);
        if (!diff_close(T, exact, DIFF_REPLAY_TOL) && !(T > best && exact > T))
            diff_fail(c, "the chain's best set takes %.17g, the best subset by GLPK %.17g "
                      "(exactly: %.17g)", T, best, exact);
    }
    dls_schedule_free(s);
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* Integer schedules: against brute force over every whole distribution of small loads;
 * and, for constant speeds without communication at any load up to 10^12, against the
 * exact integer optimum computed here (the least T with sum floor(s_i T) >= n). */

/* The whole units a limit holds under the tolerance rule of dlsched/common.h
 * (DLS_REL_TOL): the integer just above it when within the rule, else the one below. */
static double whole_units(double limit)
{
    double up = ceil(limit);
    return up - limit <= DLS_REL_TOL * limit ? up : floor(limit);
}

/* The best makespan of every whole distribution of n units (at most 3 processors, in
 * platform order, within the limits); INFINITY when none fits. */
static double brute(const dls_platform *pl, const size_t *seq, uint64_t n)
{
    size_t p = dls_platform_count(pl);
    double best = INFINITY;
    uint64_t amax = p == 1 ? 0 : n;
    for (uint64_t a = 0; a <= amax; a++) {
        uint64_t bmax = p == 3 ? n - a : 0;
        for (uint64_t b = 0; b <= bmax; b++) {
            /* the first p - 1 loads chosen, the last takes the rest */
            double x[3] = {(double)a, (double)b, 0};
            x[p - 1] = (double)(n - (p > 1 ? a : 0) - (p > 2 ? b : 0));
            int ok = 1;
            for (size_t i = 0; i < p; i++)
                ok &= x[i] <= whole_units(dls_platform_limit(pl, i));
            if (ok)
                best = fmin(best, diff_replay(pl, seq, x, 0));
        }
    }
    return best;
}

static void check_whole(diff_case *c, const dls_platform *pl, const dls_schedule *s, uint64_t n)
{
    const double *x = dls_schedule_loads(s);
    double sum = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        if (x[i] != floor(x[i]) || x[i] < 0 || x[i] > whole_units(dls_platform_limit(pl, i)))
            diff_fail(c, "processor %zu: load %.17g is not whole within its limit", i, x[i]);
        sum += x[i];
    }
    if (sum != (double)n)
        diff_fail(c, "the whole loads sum to %.17g, not %llu", sum, (unsigned long long)n);
    check_replay(c, pl, s, 0, "integer");
}

static void integer_small(diff_rng *r, diff_case *c)
{
    diff_shape sh = {1 + (size_t)diff_below(r, 3), 0, 1, 1, 1, 1, 0};
    uint64_t n = 1 + diff_below(r, sh.m == 3 ? 12 : 30);
    sh.load = (double)n;
    dls_platform *pl = diff_case_platform(r, &sh, c);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.integer = 1;
    mp.exact_shape = 1;
    mp.time_limit = 20;
    dls_schedule *s = NULL;
    dls_error err;
    dls_status st = pl ? dls_schedule_solve_integer(pl, n, NULL, &mp, &s, &err) : DLS_ENOMEM;
    size_t seq[3] = {0, 1, 2};
    double best = pl ? brute(pl, seq, n) : NAN;
    if (st != DLS_OK) {
        diff_fail(c, "the integer schedule failed: %s", err.message);
    } else if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        if (isfinite(best))
            diff_fail(c, "the integer schedule says infeasible, brute force takes %.17g", best);
    } else {
        check_whole(c, pl, s, n);
        double mk = dls_schedule_makespan(s);
        dls_schedule_mip_info mi;
        dls_schedule_get_mip_info(s, &mi, &err);
        if (mk < best * (1 - DIFF_REPLAY_TOL))
            diff_fail(c, "the integer schedule %.17g beats brute force %.17g", mk, best);
        if (dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL && !diff_close(mk, best, 1e-9))
            diff_fail(c, "the integer schedule %.17g is called optimal, brute force %.17g", mk,
                      best);
        if (mi.lower_bound > best * (1 + 1e-9))
            diff_fail(c, "the lower bound %.17g is above brute force's optimum %.17g",
                      mi.lower_bound, best);
    }
    dls_schedule_free(s);
    diff_done(c, pl);
}

/* The whole units processor i finishes within T: the largest x with x / s <= T (the model's
 * time of a constant speed). */
static double units_within(double s, double T)
{
    double x = floor(s * T);
    while (x > 0 && x / s > T)
        x--;
    while ((x + 1) / s <= T)
        x++;
    return x;
}

/* The exact integer optimum of constant speeds without communication: the least T (a
 * double) with sum_i units_within(s_i, T) >= n, by bisection between the continuous
 * optimum and it plus the slowest unit. */
static double constant_integer_optimum(const double *s, size_t p, uint64_t n)
{
    double total = 0, unit = 0;
    for (size_t i = 0; i < p; i++) {
        total += s[i];
        unit = fmax(unit, 1 / s[i]);
    }
    double lo = (double)n / total * (1 - 1e-12), hi = ((double)n / total + unit) * (1 + 1e-12);
    for (int it = 0; it < 200; it++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        double got = 0;
        for (size_t i = 0; i < p; i++)
            got += units_within(s[i], mid);
        if (got >= (double)n)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

static void integer_constant(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 12), 0, 0, 0, 0, 0, 1};
    uint64_t n = (uint64_t)floor(diff_log(r, 10, 1e12));
    sh.load = (double)n;
    dls_platform *pl = diff_case_platform(r, &sh, c);
    double s[64];
    for (size_t i = 0; pl && i < sh.m; i++)
        s[i] = dls_model_constant_speed(dls_platform_model(pl, i));
    double opt = pl ? constant_integer_optimum(s, sh.m, n) : NAN;
    int with_mip = diff_chance(r, 0.3) && sh.m <= 8;
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.integer = 1;
    dls_schedule *sc = NULL;
    dls_error err;
    dls_status st = pl ? dls_schedule_solve_integer(pl, n, NULL, with_mip ? &mp : NULL, &sc, &err)
                       : DLS_ENOMEM;
    if (st != DLS_OK) {
        diff_fail(c, "the integer schedule failed%s: %s", with_mip ? " (MIP)" : "", err.message);
    } else {
        check_whole(c, pl, sc, n);
        double mk = dls_schedule_makespan(sc);
        if (!diff_close(mk, opt, 1e-12))
            diff_fail(c, "the integer schedule%s takes %.17g, the exact integer optimum %.17g",
                      with_mip ? " (MIP)" : "", mk, opt);
        if (dls_schedule_status(sc) != DLS_SOLUTION_OPTIMAL)
            diff_fail(c, "the integer optimum of constant speeds is not called optimal");
    }
    dls_schedule_free(sc);
    diff_done(c, pl);
}

void diff_path_integer(diff_rng *r, diff_case *c)
{
    if (diff_chance(r, 0.5))
        integer_small(r, c);
    else
        integer_constant(r, c);
}

/* ---------------------------------------------------------------------------------- */
/* Evaluations: a schedule's loads evaluated again give its makespan under the true models,
 * and the replay written here. */

void diff_path_evaluate(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 60), diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    int orig = diff_chance(r, 0.3), drop = diff_chance(r, 0.7);
    dls_status st;
    dls_error err;
    dls_schedule *s = pl ? solve(pl, sh.load, DLS_SOLVER_CHAIN, DLS_ORDER_RATE, NULL, orig, drop,
                                 &st, &err)
                         : NULL;
    if (s == NULL) {
        diff_fail(c, "the schedule failed: %s", err.message);
    } else if (dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE) {
        check_replay(c, pl, s, !drop, "the schedule");
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.order = DLS_ORDER_SEQUENCE;
        par.sequence = dls_schedule_sequence(s);
        par.sequence_count = sh.m;
        par.originator_computes = orig;
        dls_schedule *ev = NULL;
        if (dls_schedule_evaluate(pl, dls_schedule_loads(s), &par, &ev, &err) != DLS_OK)
            diff_fail(c, "the evaluation of the schedule's loads failed: %s", err.message);
        else
            check_replay(c, pl, ev, 0, "the evaluation");
        dls_schedule_free(ev);
    }
    dls_schedule_free(s);
    diff_done(c, pl);
}
