/* The divisible-load scheduler's API: parameters, the LP schedule, the evaluation of given
 * loads and the LP's export. The star model is in src/star, the LP in src/solver. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/sort.h"
#include "chain/chain.h"
#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"
#include "solver/solver.h"

/* Default relative tolerance of the answer checks. */
#define DLS__SCHEDULE_DEFAULT_CHECK_TOL DLS_REL_TOL
/* Largest check tolerance accepted: beyond it a check would not catch wrong optima. */
#define DLS__SCHEDULE_MAX_CHECK_TOL 1e-3
/* Default seconds for GLPK in one call: the LP of 2 x 10^4 processors takes about a minute
 * on the project's machine (doc/BENCHMARKS.md), the stalls this limit ends ran for hours. */
#define DLS__SCHEDULE_DEFAULT_TIME_LIMIT 600

void dls_schedule_params_init(dls_schedule_params *params)
{
    memset(params, 0, sizeof *params);
    params->order = DLS_ORDER_GIVEN;
    params->use_limits = 1;
    params->drop_unused = 1;
    params->check_tol = DLS__SCHEDULE_DEFAULT_CHECK_TOL;
    dls_envelope_params_init(&params->envelope);
    params->time_limit = DLS__SCHEDULE_DEFAULT_TIME_LIMIT;
    params->iteration_limit = 0;
    params->solver = DLS_SOLVER_CHAIN;
    params->max_pieces = 0;
    params->order_time_limit = DLS_ORDER_DEFAULT_TIME_LIMIT;
}

dls_status dls__schedule_params_check(const dls_schedule_params *par, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(par, "schedule", dls_schedule_params, err);
    if (st == DLS_OK)
        st = DLS__CHECK_RESERVED(&par->envelope, "schedule", dls_envelope_params, err);
    if (st != DLS_OK)
        return st;
    if (par->order != DLS_ORDER_GIVEN && par->order != DLS_ORDER_RATE &&
        par->order != DLS_ORDER_BEST && par->order != DLS_ORDER_SEQUENCE)
        return dls__fail(err, DLS_EINVAL, "schedule", "unknown send order %d", (int)par->order);
    if ((par->sequence != NULL || par->sequence_count != 0) && par->order != DLS_ORDER_SEQUENCE)
        return dls__fail(err, DLS_EINVAL, "schedule", "a sequence is given but the order is "
                         "\"%s\", not \"sequence\"", dls_send_order_name(par->order));
    if (par->order == DLS_ORDER_SEQUENCE && par->sequence == NULL)
        return dls__fail(err, DLS_EINVAL, "schedule", "the order \"sequence\" needs the "
                         "sequence (NULL)");
    if (par->order_exact_max > DLS_ORDER_EXACT_MAX)
        return dls__fail(err, DLS_EINVAL, "schedule", "order_exact_max must be at most %d (the "
                         "exact search's memory doubles with each processor), not %zu",
                         DLS_ORDER_EXACT_MAX, par->order_exact_max);
    if (!(par->order_time_limit > 0 && par->order_time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, "schedule", "the order search's time limit "
                         "(order_time_limit) must be a number of seconds in (0, %g], not %.10g",
                         DLS_TIME_LIMIT_MAX, par->order_time_limit);
    if (par->solver != DLS_SOLVER_CHAIN && par->solver != DLS_SOLVER_GLPK)
        return dls__fail(err, DLS_EINVAL, "schedule", "unknown solver %d", (int)par->solver);
    if (par->exact == 1 && par->solver != DLS_SOLVER_GLPK)
        return dls__fail(err, DLS_EINVAL, "schedule", "exact certification (exact = 1) is GLPK's "
                         "glp_exact: it needs the GLPK solver, not the %s solver",
                         dls_star_solver_name(par->solver));
    if (par->max_pieces != 0 && par->max_pieces < DLS__CHAIN_MIN_PIECES)
        return dls__fail(err, DLS_EINVAL, "schedule", "max_pieces must be 0 (automatic) or at "
                         "least %d, not %zu", DLS__CHAIN_MIN_PIECES, par->max_pieces);
    const int *flags[] = {&par->originator_computes, &par->use_limits, &par->drop_unused,
                          &par->exact, &par->verbose};
    const char *names[] = {"originator_computes", "use_limits", "drop_unused", "exact", "verbose"};
    for (int k = 0; k < 5; k++)
        if (*flags[k] != 0 && *flags[k] != 1)
            return dls__fail(err, DLS_EINVAL, "schedule", "%s must be 0 or 1, not %d", names[k],
                             *flags[k]);
    if (!(par->check_tol > 0 && par->check_tol <= DLS__SCHEDULE_MAX_CHECK_TOL))
        return dls__fail(err, DLS_EINVAL, "schedule", "check_tol must be in (0, %g], not %.10g",
                         DLS__SCHEDULE_MAX_CHECK_TOL, par->check_tol);
    if (!(par->time_limit > 0 && par->time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, "schedule",
                         "the time limit (time_limit) must be a number "
                         "of seconds in (0, %g], not %.10g", DLS_TIME_LIMIT_MAX, par->time_limit);
    if (!(par->envelope.rel_tol > 0 && par->envelope.rel_tol < 1) || par->envelope.max_lines < 2)
        return dls__fail(err, DLS_EINVAL, "schedule", "bad envelope parameters (rel_tol %.10g, "
                         "max_lines %zu)", par->envelope.rel_tol, par->envelope.max_lines);
    return DLS_OK;
}

dls_status dls__schedule_check(const dls_platform *pl, dls_schedule **out,
                               const dls_schedule_params *par, const char *fn, dls_error *err)
{
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (pl->n == 0)
        return dls__fail(err, DLS_EINVAL, fn, "the platform has no processor");
    dls_status st = dls__schedule_params_check(par, err);
    if (st != DLS_OK || par->order != DLS_ORDER_SEQUENCE)
        return st;
    return dls__sequence_check(pl, par->sequence, par->sequence_count, fn, err);
}

/* The rational certificate of the optimum GLPK's exact simplex found (on the LP of the
 * positions kept), into s; its loads and makespan replace the floating-point ones in ans.
 * A certificate that cannot be had is said in the note; then glp_exact's own figure must
 * agree with the floating-point optimum within check_tol, as before certificates. */
static dls_status certify(dls__lp_answer *ans, const dls_schedule_params *params,
                          dls_schedule *s, dls_error *err)
{
    const dls__star *X = &ans->kept;
    dls__certificate c;
    dls_error e;
    dls_error_clear(&e);
    dls_status st = dls__lp_certify(X, &ans->basis, params->time_limit, &c, &e);
    if (st == DLS_OK) {
        for (int j = 0; j < 3 && st == DLS_OK; j++)
            if ((s->cert_proc[j] = calloc(s->p, sizeof *s->cert_proc[j])) == NULL)
                st = DLS_ENOMEM;
    }
    if (st == DLS_OK) {
        if (!(fabs(c.makespan_value - ans->cmax) <= params->check_tol * c.makespan_value))
            dls__note_add(&s->note, "the certified optimum, %.17g s, is the schedule's; the "
                          "floating-point one was %.17g s", c.makespan_value, ans->cmax);
        if (ans->paper_cmax == ans->cmax)
            ans->paper_cmax = c.makespan_value;
        ans->cmax = c.makespan_value;
        s->cert_makespan = c.makespan;
        s->cert_load_price = c.load_price;
        c.makespan = c.load_price = NULL;
        for (size_t i = 0; i < X->m; i++) {
            size_t proc = X->proc[i];
            ans->alpha[ans->kept_pos[i]] = c.load_value[i];
            s->cert_proc[0][proc] = c.load[i];
            s->cert_proc[1][proc] = c.weight[i];
            s->cert_proc[2][proc] = c.limit_price[i];
            c.load[i] = c.weight[i] = c.limit_price[i] = NULL;
        }
    } else if (st != DLS_ENOMEM) {
        dls__note_add(&s->note, "%s", e.message);
        st = DLS_OK;
        if (fabs(ans->exact_cmax - ans->cmax) > params->check_tol * fabs(ans->exact_cmax))
            st = dls__fail(err, DLS_ENUMERIC, "schedule", "the exact (rational) simplex finds a "
                           "makespan of %.17g, the floating-point one %.17g", ans->exact_cmax,
                           ans->cmax);
    }
    dls__certificate_free(&c);
    if (st == DLS_ENOMEM) {
        dls__schedule_cert_clear(s);
        return dls__oom(err, "schedule");
    }
    return st;
}

/* The schedule by GLPK: the paper's LP, then (drop_unused) the unused processors dropped. */
static dls_status solve_glpk(const dls_platform *platform, const dls__star *star,
                             const dls_schedule_params *params, dls_schedule *s, dls_error *err)
{
    dls__lp_answer ans;
    memset(&ans, 0, sizeof ans);
    dls__star_opts so = dls__star_opts_from_params(params);
    dls_status st = dls__lp_solve_star(star, &so, &ans, err);
    if (st == DLS_OK && params->exact && ans.exact == 1)
        st = certify(&ans, params, s, err);
    if (st == DLS_OK) {
        /* the loads' timeline under the true models (the paper's charges idle processors
         * when kept); the LP's own makespan beside it */
        st = dls__fill_timeline(s, star, ans.alpha, ans.active, !params->drop_unused, 1, err);
    }
    if (st == DLS_OK) {
        s->lp_makespan = ans.cmax;
        s->paper_makespan = ans.paper_cmax;
        if (ans.hopeless > 0) {
            /* GLPK solved without the processors the selection never uses: the paper's LP,
             * which charges them, comes from the chain */
            dls_schedule_params pp = *params;
            pp.drop_unused = 0;
            dls__chain_params cp;
            dls__schedule_chain_params(platform, &pp, &cp);
            dls__chain_answer pa;
            st = dls__chain_solve(star, &cp, &pa, err);
            if (st == DLS_OK) {
                s->paper_makespan = pa.makespan;
                dls__chain_answer_free(&pa);
            }
        }
    }
    if (st == DLS_OK) {
        s->true_makespan = s->makespan;
        s->residual = ans.residual;
        s->kkt_pe = ans.kkt_pe;
        s->kkt_de = ans.kkt_de;
        s->iterations = ans.iterations;
        s->solves = ans.solves;
        s->exact = ans.exact;
        /* processors left unused are part of the answer (their loads are 0, the paper's
         * makespan is kept), not something to warn of: the note says nothing of them */
        for (size_t k = 0; k < star->m; k++)
            s->solver.used += ans.alpha[k] > 0;
        s->solver.optimal = !params->drop_unused;
        s->solver.lower_bound = params->drop_unused ? NAN : ans.cmax;
        if (ans.negligible > 0) {
            char name[128], more[48] = "";
            dls__quote_name(platform->procs[star->proc[ans.first_negligible]].name, name,
                            sizeof name);
            if (ans.negligible > 1)
                snprintf(more, sizeof more, " and %zu more", ans.negligible - 1);
            dls__note_add(&s->note, "processor \"%s\"%s could take at most 1e-12 of the load "
                          "by the makespan: given none, %s coefficients left out of the LP "
                          "(magnitudes so far from the others' make it singular)", name, more,
                          ans.negligible == 1 ? "its" : "their");
        }
    }
    dls__lp_answer_free(&ans);
    return st;
}

void dls__schedule_chain_params(const dls_platform *platform, const dls_schedule_params *params,
                                dls__chain_params *cp)
{
    dls__chain_params_init(cp);
    cp->mode = params->drop_unused ? DLS__CHAIN_SELECT : DLS__CHAIN_PAPER;
    /* max_pieces bounds the selection: the paper's value functions have a few pieces per
     * time line and processor, which the automatic bound holds */
    cp->max_work = params->drop_unused ? params->max_pieces : 0;
    if (cp->max_work != 0 && cp->max_work < cp->max_pieces)
        cp->max_pieces = cp->max_work;
    cp->platform = platform;
}

/* The largest relative residual of the chain's answer: the loads' sum against V, and the
 * replayed makespan against the chain's own. */
static double chain_residual(const dls__star *star, const dls__chain_answer *a)
{
    long double sum = 0;
    for (size_t k = 0; k < star->m; k++)
        sum += a->alpha[k];
    double r = fabs((double)(sum - star->V)) / star->V;
    if (a->makespan > 0)
        r = fmax(r, fabs(a->makespan - a->chain_makespan) / a->makespan);
    return r;
}

/* The schedule by the chain solver (src/chain): the paper's LP exactly, or the exact best
 * set of processors for the send order (drop_unused). */
static dls_status solve_chain(const dls_platform *platform, const dls__star *star,
                              const dls_schedule_params *params, dls_schedule *s,
                              dls_error *err)
{
    dls__chain_params cp;
    dls__schedule_chain_params(platform, params, &cp);
    dls__chain_answer a;
    dls_status st = dls__chain_solve(star, &cp, &a, err);
    if (st != DLS_OK)
        return st;
    if (a.infeasible) /* the limits hold V (checked before): the chain must find a schedule */
        return dls__fail(err, DLS_ENUMERIC, "schedule", "the chain solver found no schedule "
                         "although the limits hold %.10g (the load is %.10g)", a.capacity,
                         star->V);
    int paper = cp.mode == DLS__CHAIN_PAPER;
    st = dls__fill_timeline(s, star, a.alpha, NULL, paper, 1, err);
    if (st == DLS_OK) {
        s->lp_makespan = a.makespan;
        s->paper_makespan = paper ? a.makespan : a.paper_makespan;
        s->true_makespan = s->makespan;
        s->residual = chain_residual(star, &a);
        s->solves = 1;
        dls_schedule_solver_info *si = &s->solver;
        si->optimal = a.exact;
        si->passes = a.passes;
        si->lower_bound = a.lower_bound;
        si->marginal_left = a.slope_left;
        si->marginal_right = a.slope_right;
        si->used = a.used;
        si->pieces_total = a.pieces_total;
        si->pieces_max = a.pieces_max;
        si->flushed = a.flushed;
        if (!a.exact && paper)
            dls__note_add(&s->note, "the paper's LP is not proven optimal: the check of the "
                          "chain's sweep along the answer failed (rounding where the answer "
                          "passes a bend of a later processor's time); %zu processors are too "
                          "many for the exact fallback", star->m);
        else if (!a.exact && isnan(a.lower_bound))
            dls__note_add(&s->note, "the set of processors is not proven the best for the send "
                          "order: the exact selection needed more than its bound on pieces "
                          "(max_pieces); never above the paper's LP, no lower bound proven");
        else if (!a.exact)
            dls__note_add(&s->note, "the set of processors is not proven the best for the send "
                          "order: the exact selection needed more than its bound on pieces "
                          "(max_pieces); the makespan is within %.3g%% of the lower bound "
                          "%.10g s, and never above the paper's LP",
                          100 * (s->makespan - a.lower_bound) / s->makespan, a.lower_bound);
        if (a.flushed > 0)
            dls__note_add(&s->note, "%zu rate%s or slope%s so small that %s time for the whole "
                          "load is below 2^-500 of the makespan: taken as 0", a.flushed,
                          a.flushed == 1 ? "" : "s", a.flushed == 1 ? "" : "s",
                          a.flushed == 1 ? "its" : "their");
    }
    dls__chain_answer_free(&a);
    return st;
}

/* Most processors for which a failed check of the chain's answer hands the problem to GLPK
 * (its simplex grows about m^2: 10^4 processors take about 10 s). */
#define DLS__CHAIN_FALLBACK_GLPK_MAX 20000

/* A failure caught to try another way: err's (its origin kept, to pass it on), or otherwise
 * when err is NULL. */
static void caught(dls_error *why, const dls_error *err, const char *otherwise)
{
    if (err != NULL) {
        *why = *err;
        return;
    }
    dls_error_clear(why);
    snprintf(why->message, sizeof why->message, "%s", otherwise);
}

dls_status dls__schedule_chain_fallback(const dls_platform *platform, const dls__star *star,
                                        const dls_schedule_params *params, dls_schedule *s,
                                        dls_error *err)
{
    dls_error why;
    caught(&why, err, "the chain's check failed");
    if (star->m > DLS__CHAIN_FALLBACK_GLPK_MAX)
        return dls__fail(err, DLS_ENUMERIC, why.origin, "%s; %zu processors are too many for "
                         "GLPK's simplex to take over (at most %d)", dls__error_text(&why),
                         star->m, DLS__CHAIN_FALLBACK_GLPK_MAX);
    s->solver.solver = DLS_SOLVER_GLPK;
    dls_status st = solve_glpk(platform, star, params, s, err);
    if (st != DLS_OK) {
        char glpk[DLS_ERROR_MESSAGE_MAX];
        snprintf(glpk, sizeof glpk, "%s", err != NULL ? err->message : "GLPK failed");
        return dls__fail(err, st == DLS_ELIMIT ? DLS_ELIMIT : DLS_ENUMERIC, why.origin,
                         "%s; GLPK on the same LP: %s", dls__error_text(&why), glpk);
    }
    dls__note_add(&s->note, "the chain solver's answer failed its check (%s); GLPK's answer "
                  "to the same LP is given%s", why.message,
                  params->drop_unused ? ", with its set of processors (not proven the best)"
                                      : "");
    return DLS_OK;
}

/* The last resort where the chain's answer fails its check and GLPK fails on the same LP
 * (coefficients 1e60 apart): the best of simple distributions, each replayed exactly (the
 * whole load on one processor whose limit holds it, or loads in proportion to the speeds
 * within the limits); a schedule that holds, not called optimal, and the note says why. */
static dls_status simple_fallback(const dls__star *st, const dls_schedule_params *params,
                                  dls_schedule *s, const dls_error *why, dls_error *err)
{
    size_t m = st->m;
    int paper = !params->drop_unused;
    double *x = malloc(3 * (m ? m : 1) * sizeof *x), *best = x + m, *w = x + 2 * m;
    dls__keyed *order = malloc((m ? m : 1) * sizeof *order);
    double best_t = INFINITY;
    if (x == NULL || order == NULL) {
        free(x);
        free(order);
        return dls__oom(err, "schedule");
    }
    /* candidate c < m: the whole load on position c; c == m: the speeds' water-filling */
    for (size_t c = 0; c <= m; c++) {
        if (c < m && !(st->B[c] >= st->V))
            continue;
        if (c < m)
            for (size_t k = 0; k < m; k++)
                x[k] = k == c ? st->V : 0;
        else
            dls__simple_distribution(st, x, w, order);
        double t = dls__replay(st, x, NULL, paper, 0, NULL, NULL, NULL, NULL, NULL);
        if (t < best_t) {
            best_t = t;
            memcpy(best, x, m * sizeof *x);
        }
    }
    free(order);
    dls_status rc = isfinite(best_t)
                        ? dls__fill_timeline(s, st, best, NULL, paper, 1, err)
                        : dls__fail(err, DLS_ENUMERIC, why->origin, "%s; and no simple "
                                    "distribution holds the load within the limits",
                                    dls__error_text(why));
    if (rc == DLS_OK) {
        dls_schedule_solver_info *si = &s->solver;
        si->solver = DLS_SOLVER_CHAIN;
        si->optimal = 0;
        si->lower_bound = si->marginal_left = si->marginal_right = NAN;
        si->used = 0;
        for (size_t k = 0; k < m; k++)
            si->used += best[k] > 0;
    }
    free(x);
    if (rc == DLS_OK)
        dls__note_add(&s->note, "not proven optimal: neither solver could solve this LP "
                      "(%s); the best of simple distributions (the whole load on one "
                      "processor, or loads in proportion to the speeds) is given",
                      why->message);
    return rc;
}

/* The best order: searched on star (the platform's order), which becomes the star in the
 * order found. */
static dls_status order_best(const dls_platform *platform, const dls_schedule_params *params,
                             dls__star *star, dls__order_result *best, dls_schedule *s,
                             dls_error *err)
{
    dls__chain_params cp;
    dls__schedule_chain_params(platform, params, &cp);
    dls_status st = dls__order_best(platform, star, params, &cp, best, err);
    if (st != DLS_OK)
        return st;
    /* the positions of the order found, from the platform indices */
    size_t m = star->m;
    size_t *pos = malloc(m * sizeof *pos), *at = malloc(platform->n * sizeof *at);
    if (pos == NULL || at == NULL) {
        free(pos);
        free(at);
        return dls__oom(err, "dls_schedule_solve");
    }
    for (size_t k = 0; k < m; k++)
        at[star->proc[k]] = k;
    for (size_t k = 0; k < m; k++)
        pos[k] = at[best->seq[k]];
    dls__star perm;
    st = dls__star_permute(star, pos, &perm, err);
    free(pos);
    free(at);
    if (st != DLS_OK)
        return st;
    dls__star_free(star);
    *star = perm;
    if (best->note)
        dls__note_add(&s->note, "%s", best->note);
    return DLS_OK;
}

/* What the schedule says of its order. */
static void order_report(const dls__order_result *best, const dls_schedule_params *params,
                         dls_schedule *s)
{
    dls_schedule_solver_info *si = &s->solver;
    si->order_method = best->method;
    si->given_makespan = best->given;
    si->rate_makespan = best->rate;
    si->order_candidates = best->candidates;
    /* proven when the order is (rule, exact search) and the schedule's own answer is exact
     * for it and agrees with the search's optimum within the answer checks' tolerance */
    si->order_optimal = best->proven && si->optimal &&
                        s->makespan <= best->found * (1 + params->check_tol);
    si->order_lower_bound = si->order_optimal ? fmin(s->makespan, best->found)
                                              : fmin(best->bound, s->makespan);
}

void dls__schedule_place_shape(dls_schedule *s, char *shape, int changed)
{
    if (shape == NULL)
        return;
    dls__note_add(changed ? &s->note : &s->details, "%s", shape);
    if (!changed)
        dls__note_add(&s->details, "the loads lie where the envelopes equal the true times "
                      "(the true models' makespan is the LP's): the answer is exact");
    free(shape);
}

/* The answer where the limits cannot hold the load: the star's order, no loads, and why. */
static void infeasible_answer(dls_schedule *s, const dls__star *star, char *shape, double load)
{
    dls__schedule_place_shape(s, shape, 0);
    s->status = DLS_SOLUTION_INFEASIBLE;
    s->makespan = s->paper_makespan = s->true_makespan = INFINITY;
    for (size_t k = 0; k < star->m; k++)
        s->seq[k] = star->proc[k];
    int dg = dls__distinct_digits(s->capacity, load);
    dls__note_add(&s->note, "infeasible: the limits hold a load of at most %.*g, less than "
                  "the %.*g to distribute (beyond the relative tolerance %g)", dg,
                  s->capacity, dg, load, DLS_REL_TOL);
}

/* The best order searched (order = BEST), star then served in it. Where the search's solver
 * fails on an order, the platform's order stays, with the note, and *failed is set. */
static dls_status order_phase(const dls_platform *platform, const dls_schedule_params *params,
                              dls__star *star, dls__order_result *best, dls_schedule *s,
                              int *failed, dls_error *err)
{
    dls_status st = order_best(platform, params, star, best, s, err);
    if (st == DLS_ENUMERIC || st == DLS_ESOLVER) {
        dls__note_add(&s->note, "the search for the best send order failed (%s): the "
                      "platform's order is used", err != NULL ? err->message : "");
        dls__order_result_free(best);
        memset(best, 0, sizeof *best);
        st = DLS_OK;
        *failed = 1;
    }
    return st;
}

/* The LP by the solver asked, each failure handed on: GLPK's to the chain, the chain's
 * check to GLPK, both solvers' to the simple distributions (*simple then set). */
static dls_status solve_star(const dls_platform *platform, const dls__star *star,
                             const dls_schedule_params *params, dls_schedule *s, int *simple,
                             dls_error *err)
{
    dls_status st = params->solver == DLS_SOLVER_GLPK ? solve_glpk(platform, star, params, s, err)
                                                      : solve_chain(platform, star, params, s, err);
    if (params->solver == DLS_SOLVER_GLPK && (st == DLS_ESOLVER || st == DLS_ENUMERIC)) {
        /* GLPK's simplex cannot always cope with coefficients many decades apart (a
         * processor too slow to matter, in a unit mixed up): the chain solves the same LP
         * exactly, so its answer is given, and what GLPK said is kept in the note. With
         * --exact too: the exact simplex starts from the floating-point optimum's basis,
         * and without one the answer is the chain's, not confirmed (the note and
         * exact_verified say so) */
        char why[DLS_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", err != NULL ? err->message : "GLPK failed");
        s->solver.solver = DLS_SOLVER_CHAIN;
        st = solve_chain(platform, star, params, s, err);
        if (st == DLS_OK)
            dls__note_add(&s->note, "GLPK failed on this LP (%s); the chain solver's answer "
                          "to the same LP is given%s", why,
                          params->exact ? ", not confirmed by the exact simplex" : "");
    }
    if (params->solver == DLS_SOLVER_CHAIN && st == DLS_ENUMERIC)
        st = dls__schedule_chain_fallback(platform, star, params, s, err);
    *simple = 0;
    if (st == DLS_ENUMERIC || st == DLS_ESOLVER) {
        dls_error why;
        caught(&why, err, "the solvers failed");
        st = simple_fallback(star, params, s, &why, err);
        *simple = st == DLS_OK;
    }
    return st;
}

/* The solved schedule's status and what the models' shapes changed (star_above: what the
 * envelopes lie above the true times). */
static void solved_status(dls_schedule *s, const dls_schedule_params *params, char *shape,
                          int simple, int order_failed, double star_above)
{
    /* the chain's selection past its bound is a heuristic's schedule; loads sized on an
     * envelope that departs from a speed model's true time are feasible, not optimal */
    s->status = (s->solver.solver == DLS_SOLVER_CHAIN && !s->solver.optimal) || simple ||
                        order_failed
                    ? DLS_SOLUTION_FEASIBLE : DLS_SOLUTION_OPTIMAL;
    int changed = s->makespan > s->lp_makespan * (1 + params->check_tol);
    dls__schedule_place_shape(s, shape, changed);
    if (changed) {
        s->status = DLS_SOLUTION_FEASIBLE;
        dls__note_add(&s->note, "not proven optimal: the loads were sized on the convex "
                      "envelopes of speed models (the LP's makespan %.10g s), and under the "
                      "true speeds they take %.10g s, %.3g%% more; the optimum lies between "
                      "the LP's makespan (less %.3g%%, what the envelopes lie above the true "
                      "times) and this schedule's", s->lp_makespan, s->makespan,
                      100 * (s->makespan - s->lp_makespan) / s->lp_makespan,
                      100 * star_above);
    }
    dls__fill_idle(s);
}

static dls_status dls_schedule_solve_impl(const dls_platform *platform, double load,
                                          const dls_schedule_params *params, dls_schedule **out,
                                          dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_solve", err);
    if (st != DLS_OK)
        return st;
    if ((st = dls__domain_load(load, "dls_schedule_solve", err)) != DLS_OK)
        return st;
    dls_schedule *s = dls__schedule_alloc(platform->n, load);
    if (s == NULL)
        return dls__oom(err, "dls_schedule_solve");
    s->capacity = 0;
    for (size_t i = 0; i < platform->n; i++)
        s->capacity += params->use_limits ? platform->procs[i].limit : INFINITY;
    s->solver.solver = params->solver;
    s->solver.selection = params->drop_unused;
    /* the best order is searched on the star in the platform's order, then served */
    dls__star_opts given = dls__star_opts_from_params(params);
    if (params->order == DLS_ORDER_BEST)
        given.order = DLS_ORDER_GIVEN;
    dls__star star;
    /* what the star says of the models' shapes waits for the answer: a warning only where
     * it changes it (see dls__schedule_place_shape) */
    char *shape = NULL;
    st = dls__star_build(platform, load, &given, 1, &star, &shape, err);
    if (st != DLS_OK) {
        free(shape);
        dls_schedule_free(s);
        return st;
    }
    dls__star_note_unmodelled(platform, &s->note);
    s->envelope_dev = star.envelope_dev;
    if (!dls__holds(s->capacity, load)) {
        infeasible_answer(s, &star, shape, load);
        dls__star_free(&star);
        *out = s;
        return DLS_OK;
    }
    dls__order_result best;
    memset(&best, 0, sizeof best);
    int order_failed = 0, simple = 0;
    if (params->order == DLS_ORDER_BEST)
        st = order_phase(platform, params, &star, &best, s, &order_failed, err);
    if (st == DLS_OK)
        st = solve_star(platform, &star, params, s, &simple, err);
    double star_above = star.envelope_above;
    dls__star_free(&star);
    if (st == DLS_OK && params->order == DLS_ORDER_BEST && !order_failed)
        order_report(&best, params, s);
    dls__order_result_free(&best);
    if (st != DLS_OK) {
        free(shape);
        dls_schedule_free(s);
        return st;
    }
    solved_status(s, params, shape, simple, order_failed, star_above);
    *out = s;
    return DLS_OK;
}

dls_status dls_schedule_solve(const dls_platform *platform, double load,
                              const dls_schedule_params *params, dls_schedule **out,
                              dls_error *err)
{
    dls_status st = dls_schedule_solve_impl(platform, load, params, out, err);
    return dls__error_retag(err, st, "dls_schedule_solve");
}

static dls_status dls_schedule_evaluate_impl(const dls_platform *platform, const double *loads,
                                             const dls_schedule_params *params, dls_schedule **out,
                                             dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_evaluate", err);
    if (st != DLS_OK)
        return st;
    if (loads == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_evaluate", "NULL loads");
    double V = 0;
    for (size_t i = 0; i < platform->n; i++) {
        const dls__proc *pr = &platform->procs[i];
        char why[256];
        if (!isfinite(loads[i]) || loads[i] < 0)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_schedule_evaluate",
                                "processor \"%s\": the load must be a finite number >= 0, not "
                                "%.10g", pr->name, loads[i]);
        if (dls__domain_value(loads[i], "load", why, sizeof why))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_schedule_evaluate",
                                "processor \"%s\": %s", pr->name, why);
        if (params->use_limits && !dls__within(loads[i], pr->limit))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_schedule_evaluate",
                                "processor \"%s\": the load %.10g exceeds its limit %.10g",
                                pr->name, loads[i], pr->limit);
        V += loads[i];
    }
    dls_error sum; /* no origin: the sum's words go after the public name */
    if (V > 0 && (st = dls__domain_load(V, "", &sum)) != DLS_OK)
        return dls__fail(err, st, "dls_schedule_evaluate", "the loads' sum: %s", sum.message);
    dls_schedule *s = dls__schedule_alloc(platform->n, V);
    if (s == NULL)
        return dls__oom(err, "dls_schedule_evaluate");
    s->kind = DLS_SCHEDULE_EVALUATED;
    dls__star star;
    dls__star_opts so = dls__star_opts_from_params(params);
    st = dls__star_build(platform, V, &so, 0, &star, &s->note, err);
    if (st == DLS_OK)
        dls__star_note_unmodelled(platform, &s->note);
    double *alpha = NULL;
    if (st == DLS_OK) {
        alpha = calloc(star.m, sizeof *alpha);
        if (alpha == NULL)
            st = dls__oom(err, "dls_schedule_evaluate");
    }
    if (st == DLS_OK) {
        for (size_t k = 0; k < star.m; k++)
            alpha[k] = loads[star.proc[k]];
        st = dls__fill_timeline(s, &star, alpha, NULL, 0, 1, err);
    }
    if (st == DLS_OK && !isfinite(s->makespan))
        /* loads in the domain on models in the domain stay below 1e120 s each; a sum of
         * them overflowing is refused rather than written as infinity */
        st = dls__fail(err, DLS_EINVAL, "dls_schedule_evaluate", "the finish times of these "
                       "loads overflow a double (%.10g s)", s->makespan);
    if (st == DLS_OK) {
        s->status = DLS_SOLUTION_FEASIBLE;
        s->paper_makespan = s->true_makespan = s->makespan;
        s->capacity = 0;
        for (size_t i = 0; i < platform->n; i++)
            s->capacity += params->use_limits ? platform->procs[i].limit : INFINITY;
        dls__fill_idle(s);
    }
    free(alpha);
    if (star.proc)
        dls__star_free(&star);
    if (st != DLS_OK) {
        dls_schedule_free(s);
        return st;
    }
    *out = s;
    return DLS_OK;
}

dls_status dls_schedule_evaluate(const dls_platform *platform, const double *loads,
                                 const dls_schedule_params *params, dls_schedule **out,
                                 dls_error *err)
{
    dls_status st = dls_schedule_evaluate_impl(platform, loads, params, out, err);
    return dls__error_retag(err, st, "dls_schedule_evaluate");
}

/* The LP of dls_schedule_lp_write_file and dls_schedule_lp_to_string: checks the arguments,
 * builds the star and writes the format's text into out. fn names the public call. */
static dls_status export_text(const dls_platform *platform, double load,
                              const dls_schedule_params *params, dls_export_format format,
                              dls__buf *out, const char *fn, dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, fn, "the platform has no processor");
    dls_status st = dls__schedule_params_check(params, err);
    if (st != DLS_OK)
        return st;
    if ((st = dls__domain_load(load, fn, err)) != DLS_OK)
        return st;
    if (format < DLS_EXPORT_LP || format > DLS_EXPORT_MATHPROG)
        return dls__fail(err, DLS_EINVAL, fn, "unknown format %d", (int)format);
    dls__star star;
    char *note = NULL;
    dls__star_opts so = dls__star_opts_from_params(params);
    st = dls__star_build(platform, load, &so, 1, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    st = dls__lp_text(&star, platform, params->verbose, format, out, err);
    dls__star_free(&star);
    if (st == DLS_ENOMEM)
        dls__fail(err, st, fn, "out of memory");
    return st;
}

static dls_status dls_schedule_lp_write_file_impl(const dls_platform *platform, double load,
                                                  const dls_schedule_params *params,
                                                  dls_export_format format, const char *path,
                                                  dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_lp_write_file", "NULL argument");
    dls__buf text = DLS__BUF_INIT;
    dls_status st = export_text(platform, load, params, format, &text, "dls_schedule_lp_write_file",
                                err);
    if (st == DLS_OK)
        st = dls__write_output(path, text.s ? text.s : "", text.len, err);
    dls__buf_free(&text);
    return st;
}

dls_status dls_schedule_lp_write_file(const dls_platform *platform, double load,
                                      const dls_schedule_params *params, dls_export_format format,
                                      const char *path, dls_error *err)
{
    dls_status st = dls_schedule_lp_write_file_impl(platform, load, params, format, path, err);
    return dls__error_retag(err, st, "dls_schedule_lp_write_file");
}

static dls_status dls_schedule_lp_to_string_impl(const dls_platform *platform, double load,
                                                 const dls_schedule_params *params,
                                                 dls_export_format format, char **out,
                                                 dls_error *err)
{
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_lp_to_string", "NULL argument");
    dls__buf text = DLS__BUF_INIT;
    dls_status st = export_text(platform, load, params, format, &text,
                                "dls_schedule_lp_to_string", err);
    if (st != DLS_OK) {
        dls__buf_free(&text);
        return st;
    }
    char *doc = dls__buf_take(&text);
    if (doc == NULL)
        return dls__oom(err, "dls_schedule_lp_to_string");
    *out = doc;
    return DLS_OK;
}

dls_status dls_schedule_lp_to_string(const dls_platform *platform, double load,
                                     const dls_schedule_params *params, dls_export_format format,
                                     char **out, dls_error *err)
{
    dls_status st = dls_schedule_lp_to_string_impl(platform, load, params, format, out, err);
    return dls__error_retag(err, st, "dls_schedule_lp_to_string");
}


/* ---------------------------------------------------------------------------------- */
/* A measured timeline                                                                */

/* The time line of a time model that binds at load x (1-based), 0 for other models. */
static int binding_level(const dls_model *m, double x)
{
    size_t n = 0;
    const double *a, *b;
    if (dls_model_get_lines(m, &n, &a, &b) != DLS_OK)
        return 0;
    int best = 0;
    for (size_t l = 0; l < n; l++)
        if (best == 0 || a[l] + b[l] * x > a[best - 1] + b[best - 1] * x)
            best = (int)l + 1;
    return best;
}

static dls_status dls_schedule_measured_impl(const dls_platform *pl, const double *loads,
                                             const double *ss, const double *se,
                                             const double *fin, dls_schedule **out,
                                             dls_error *err)
{
    if (pl == NULL || loads == NULL || ss == NULL || se == NULL || fin == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, NULL, "NULL argument");
    size_t p = pl->n;
    double V = 0, T = 0;
    for (size_t i = 0; i < p; i++) {
        const char *name = pl->procs[i].name;
        if (!isfinite(loads[i]) || loads[i] < 0)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, NULL, "processor \"%s\": the load "
                                "must be a finite number >= 0, not %.10g", name, loads[i]);
        char why[256];
        if (dls__domain_value(loads[i], "load", why, sizeof why))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, NULL, "processor \"%s\": %s", name,
                                why);
        if (loads[i] == 0)
            continue;
        if (!(isfinite(ss[i]) && isfinite(se[i]) && isfinite(fin[i]) && ss[i] >= 0 &&
              ss[i] <= se[i] && se[i] <= fin[i]))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, NULL,
                                "processor \"%s\": the times "
                                "must be finite with 0 <= send start <= send end <= finish, "
                                "not %.10g, %.10g, %.10g", name, ss[i], se[i], fin[i]);
        const double t3[3] = {ss[i], se[i], fin[i]};
        static const char *const what[3] = {"send start", "send end", "finish"};
        for (int k = 0; k < 3; k++)
            if (dls__domain_value(t3[k], what[k], why, sizeof why))
                return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, NULL, "processor \"%s\": %s",
                                    name, why);
        V += loads[i];
        T = fmax(T, fin[i]);
    }
    dls_schedule *s = dls__schedule_alloc(p, V);
    dls__keyed *order = malloc((p ? p : 1) * sizeof *order);
    if (s == NULL || order == NULL) {
        dls_schedule_free(s);
        free(order);
        return dls__oom(err, NULL);
    }
    s->kind = DLS_SCHEDULE_MEASURED;
    s->status = DLS_SOLUTION_FEASIBLE;
    size_t used = 0;
    for (size_t i = 0; i < p; i++) {
        s->load[i] = loads[i];
        if (loads[i] > 0) {
            s->send_start[i] = ss[i];
            s->send_end[i] = se[i];
            s->finish[i] = fin[i];
            s->compute[i] = fin[i] - se[i];
            s->level[i] = binding_level(pl->procs[i].model, loads[i]);
            order[used].key = ss[i];
            order[used++].index = i;
        }
    }
    dls__keyed_sort(order, used);
    for (size_t k = 0; k < used; k++)
        s->seq[k] = order[k].index;
    for (size_t i = 0, k = used; i < p; i++)
        if (!(loads[i] > 0))
            s->seq[k++] = i;
    free(order);
    s->makespan = s->paper_makespan = s->true_makespan = T;
    s->envelope_dev = 0;
    s->capacity = NAN;
    dls__fill_idle(s);
    *out = s;
    return DLS_OK;
}

dls_status dls_schedule_measured(const dls_platform *platform, const double *loads,
                                 const double *send_start, const double *send_end,
                                 const double *finish, dls_schedule **out, dls_error *err)
{
    dls_status st = dls_schedule_measured_impl(platform, loads, send_start, send_end, finish,
                                               out, err);
    return dls__error_retag(err, st, "dls_schedule_measured");
}
