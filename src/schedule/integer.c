/* Integer loads and exact shapes for the star schedule: the LP schedule rounded to whole
 * units with a refinement that accounts for the sends (in the spirit of Algorithm 1.2 of
 * Lastovetsky and Reddy 2007a), and the entry points of the mixed-integer programs (solver/mip.c).
 * */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"
#include "solver/solver.h"
#include "chain/chain.h"
#include "dlsched/partition.h"

/* A makespan counts as lower when it is below by more than this relative amount (the
 * replay's own rounding). */
#define DLS__INT_IMPROVE_RTOL 1e-12
/* Two makespans of the same loads computed two ways (a MIP's objective and its replay, a
 * bound and a schedule) agree within this (relative), beyond the models' own tolerance. */
#define DLS__INT_CHECK_RTOL 1e-9
/* The relative gap within which an integer schedule without a MIP is optimal (the MIP's
 * default, dls_mip_params::rel_gap). */
#define DLS__INT_DEFAULT_GAP 1e-9
/* Work (units moved times positions) allowed for trying to leave processors out. */
#define DLS__INT_DROP_WORK 4e6
/* At most this many refinement moves per position. */
#define DLS__INT_MOVES_PER_POSITION 16

void dls_mip_params_init(dls_mip_params *p)
{
    memset(p, 0, sizeof *p);
    p->integer = 0;
    p->exact_shape = 0;
    p->time_limit = 60;
    p->rel_gap = 1e-9;
    p->shape_tol = 1e-4;
    p->max_binaries = 20000;
}

dls_status dls__mip_params_check(const dls_mip_params *p, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, "mip", dls_mip_params, err);
    if (st != DLS_OK)
        return st;
    if ((p->integer != 0 && p->integer != 1) || (p->exact_shape != 0 && p->exact_shape != 1))
        return dls__fail(err, DLS_EINVAL, "mip", "integer and exact_shape must be 0 or 1, not %d "
                         "and %d", p->integer, p->exact_shape);
    if (!(p->time_limit > 0 && p->time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, "mip", "the time limit (time_limit) must be a number of "
                         "seconds in (0, %g], not %.10g", DLS_TIME_LIMIT_MAX, p->time_limit);
    if (!(p->rel_gap >= 0 && p->rel_gap < 1))
        return dls__fail(err, DLS_EINVAL, "mip", "rel_gap must be in [0, 1), not %.10g",
                         p->rel_gap);
    if (!(p->shape_tol > 0 && p->shape_tol <= 0.1))
        return dls__fail(err, DLS_EINVAL, "mip", "shape_tol must be in (0, 0.1], not %.10g",
                         p->shape_tol);
    if (p->max_binaries == 0)
        return dls__fail(err, DLS_EINVAL, "mip", "max_binaries must be >= 1");
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Rounding                                                                           */

/* The replay of whole loads x (by position) under the true models, with what the
 * greedy steps need: each position's send end and finish, the clock before it, and the
 * largest finish before and after it. */
typedef struct timeline {
    size_t m;
    double *end, *fin, *before, *pre, *suf;
} timeline;

static void replay(const dls__star *st, const double *x, timeline *tl)
{
    size_t m = st->m;
    double clock = 0;
    for (size_t k = 0; k < m; k++) {
        tl->before[k] = clock;
        if (x[k] > 0) {
            clock += st->S[k] + st->C[k] * x[k];
            tl->end[k] = clock;
            tl->fin[k] = clock + dls_model_time(st->model[k], x[k]);
        } else {
            tl->end[k] = clock;
            tl->fin[k] = 0;
        }
    }
    double run = 0;
    for (size_t k = 0; k < m; k++) {
        tl->pre[k] = run;
        run = fmax(run, tl->fin[k]);
    }
    run = 0;
    for (size_t k = m; k-- > 0;) {
        tl->suf[k] = run;
        run = fmax(run, tl->fin[k]);
    }
}

static double makespan_of(const timeline *tl)
{
    size_t m = tl->m;
    return m ? fmax(tl->pre[m - 1], tl->fin[m - 1]) : 0;
}

/* The makespan with one more unit at position k: the later sends shift by its rate (and
 * its startup if it was sent nothing). */
static double with_one_more(const dls__star *st, const double *x, const timeline *tl, size_t k)
{
    double shift, end;
    if (x[k] > 0) {
        shift = st->C[k];
        end = tl->end[k] + shift;
    } else {
        shift = st->S[k] + st->C[k];
        end = tl->before[k] + shift;
    }
    double fin = end + dls_model_time(st->model[k], x[k] + 1);
    /* only positions that are sent something have a finish, and they all move */
    double later = tl->suf[k] > 0 ? tl->suf[k] + shift : 0;
    return fmax(fmax(tl->pre[k], fin), later);
}

/* Best position for one more unit (lowest position on ties); m when none has room. */
static size_t best_receiver(const dls__star *st, const double *x, const double *cap,
                            const timeline *tl, double *mk)
{
    size_t best = st->m;
    double bm = INFINITY;
    for (size_t k = 0; k < st->m; k++) {
        if (!(x[k] + 1 <= cap[k]))
            continue;
        double v = with_one_more(st, x, tl, k);
        if (v < bm) {
            bm = v;
            best = k;
        }
    }
    *mk = bm;
    return best;
}

/* The rounding's scratch: each position's cap in whole units, a trial copy of the loads,
 * and the timeline of the loads being changed. */
typedef struct rounding {
    const dls__star *st;
    double n;
    double *cap, *y;
    timeline tl;
} rounding;

static void rounding_free(rounding *rd)
{
    free(rd->cap);
    free(rd->y);
    free(rd->tl.end);
    free(rd->tl.fin);
    free(rd->tl.before);
    free(rd->tl.pre);
    free(rd->tl.suf);
}

static int rounding_alloc(rounding *rd, const dls__star *st, double n)
{
    size_t m = st->m;
    rd->st = st;
    rd->n = n;
    rd->cap = malloc(m * sizeof *rd->cap);
    rd->y = malloc(m * sizeof *rd->y);
    rd->tl = (timeline){m, malloc(m * sizeof(double)), malloc(m * sizeof(double)),
                        malloc(m * sizeof(double)), malloc(m * sizeof(double)),
                        malloc(m * sizeof(double))};
    return rd->cap && rd->y && rd->tl.end && rd->tl.fin && rd->tl.before && rd->tl.pre &&
                   rd->tl.suf
               ? 0
               : -1;
}

/* Floors the LP's loads (within the caps), takes back any excess from the last, then
 * places each remaining unit where the makespan grows least. */
static void floor_and_fill(rounding *rd, const double *alpha, double *x)
{
    const dls__star *st = rd->st;
    size_t m = st->m;
    double n = rd->n, sum = 0;
    for (size_t k = 0; k < m; k++) {
        rd->cap[k] = fmin(dls__whole_units(st->B[k]), n);
        x[k] = fmin(floor(alpha[k] + DLS__INT_IMPROVE_RTOL * n), rd->cap[k]);
        if (x[k] < 0)
            x[k] = 0;
        sum += x[k];
    }
    /* too much (the LP's loads within rounding of whole numbers): take back from the last */
    for (size_t k = m; sum > n && k-- > 0;) {
        double back = fmin(x[k], sum - n);
        x[k] -= back;
        sum -= back;
    }
    replay(st, x, &rd->tl);
    while (sum < n) {
        double mk;
        size_t k = best_receiver(st, x, rd->cap, &rd->tl, &mk);
        if (k == m)
            break; /* cannot happen: the capacity was checked */
        x[k] += 1;
        sum += 1;
        replay(st, x, &rd->tl);
    }
}

/* Moves single units from a position at or before the last to finish while that lowers
 * the makespan (at most DLS__INT_MOVES_PER_POSITION moves per position). */
static void move_units(rounding *rd, double *x)
{
    const dls__star *st = rd->st;
    size_t m = st->m, moves = 0, max_moves = DLS__INT_MOVES_PER_POSITION * m;
    for (int improved = 1; improved && moves < max_moves;) {
        improved = 0;
        double cur = makespan_of(&rd->tl);
        size_t crit = 0;
        for (size_t k = 0; k < m; k++)
            if (rd->tl.fin[k] >= cur)
                crit = k;
        double best = cur * (1 - DLS__INT_IMPROVE_RTOL);
        size_t from = m, to = m;
        for (size_t j = 0; j <= crit; j++) {
            if (x[j] < 1)
                continue;
            memcpy(rd->y, x, m * sizeof *rd->y);
            rd->y[j] -= 1;
            replay(st, rd->y, &rd->tl);
            double mk;
            size_t k = best_receiver(st, rd->y, rd->cap, &rd->tl, &mk);
            if (k != m && k != j && mk < best) {
                best = mk;
                from = j;
                to = k;
            }
        }
        if (from != m) {
            x[from] -= 1;
            x[to] += 1;
            moves++;
            improved = 1;
        }
        replay(st, x, &rd->tl);
    }
}

/* Whether sending processor j nothing, its units going one by one where the makespan
 * grows least, shortens the makespan below cur; the trial loads are left in rd->y. */
static int drop_helps(rounding *rd, const double *x, size_t j, double cur)
{
    const dls__star *st = rd->st;
    size_t m = st->m;
    memcpy(rd->y, x, m * sizeof *rd->y);
    double give = rd->y[j], ycap = rd->cap[j];
    rd->y[j] = 0;
    rd->cap[j] = 0; /* the dropped processor takes none back */
    replay(st, rd->y, &rd->tl);
    int ok = 1;
    for (double u = 0; u < give && ok; u++) {
        double mk;
        size_t k = best_receiver(st, rd->y, rd->cap, &rd->tl, &mk);
        if (k == m || mk >= cur) {
            ok = 0;
            break;
        }
        rd->y[k] += 1;
        replay(st, rd->y, &rd->tl);
    }
    rd->cap[j] = ycap;
    return ok && makespan_of(&rd->tl) < cur * (1 - DLS__INT_IMPROVE_RTOL);
}

/* A processor may cost more in startup than it brings: tries sending each nothing, in
 * send order, while the work stays within a budget. */
static void drop_processors(rounding *rd, double *x)
{
    size_t m = rd->st->m;
    double budget = DLS__INT_DROP_WORK;
    for (int again = 1; again;) {
        again = 0;
        double cur = makespan_of(&rd->tl);
        for (size_t j = 0; j < m; j++) {
            if (x[j] < 1 || x[j] * (double)m > budget)
                continue;
            budget -= x[j] * (double)m;
            if (drop_helps(rd, x, j, cur)) {
                memcpy(x, rd->y, m * sizeof *x);
                again = 1;
                break;
            }
        }
        replay(rd->st, x, &rd->tl);
    }
}

/* Rounds the LP loads alpha (by position) to whole units summing to n; x receives them. */
static dls_status round_loads(const dls__star *st, const double *alpha, double n, double *x,
                              dls_error *err)
{
    rounding rd;
    memset(&rd, 0, sizeof rd);
    if (rounding_alloc(&rd, st, n) != 0) {
        rounding_free(&rd);
        return dls__oom(err, "schedule");
    }
    floor_and_fill(&rd, alpha, x);
    move_units(&rd, x);
    drop_processors(&rd, x);
    rounding_free(&rd);
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Entry points                                                                       */

/* GLPK's troubles that another method answers: numerical failure (a limit the caller set
 * stays an error: it says what stopped the call). */
static int glpk_trouble(dls_status st)
{
    return st == DLS_ESOLVER || st == DLS_ENUMERIC;
}

/* The LP's answer by the chain solver, for when GLPK fails on it: the same LP (the paper's,
 * or the best set for the order with drop_unused), solved exactly. */
static dls_status chain_answer(const dls_platform *pl, const dls_schedule_params *par,
                               const dls__star *star, dls__lp_answer *ans, dls_error *err)
{
    dls__chain_params cp;
    dls__schedule_chain_params(pl, par, &cp);
    dls__chain_answer a;
    dls_status st = dls__chain_solve(star, &cp, &a, err);
    if (st != DLS_OK)
        return st;
    if (a.infeasible) {
        dls__chain_answer_free(&a);
        return dls__fail(err, DLS_ENUMERIC, "schedule", "the chain solver found no schedule "
                         "although the limits hold the load");
    }
    memset(ans, 0, sizeof *ans);
    ans->alpha = malloc(star->m * sizeof *ans->alpha);
    ans->active = malloc(star->m ? star->m : 1);
    if (ans->alpha == NULL || ans->active == NULL) {
        dls__chain_answer_free(&a);
        dls__lp_answer_free(ans);
        return dls__oom(err, "schedule");
    }
    for (size_t k = 0; k < star->m; k++) {
        ans->alpha[k] = a.alpha[k];
        ans->active[k] = !par->drop_unused || a.alpha[k] > 0;
    }
    ans->cmax = a.makespan;
    ans->paper_cmax = a.paper_makespan;
    ans->first_negligible = star->m;
    dls__chain_answer_free(&a);
    return DLS_OK;
}

/* Builds the star and solves its LP; on infeasibility fills s and returns with *done. */
static dls_status lp_first(const dls_platform *pl, double V, const dls_schedule_params *par,
                           int whole, dls_schedule *s, dls__star *star, dls__lp_answer *ans,
                           int *done, dls_error *err)
{
    *done = 0;
    s->capacity = 0;
    for (size_t i = 0; i < pl->n; i++) {
        double lim = par->use_limits ? pl->procs[i].limit : INFINITY;
        s->capacity += whole ? dls__whole_units(lim) : lim;
    }
    /* the models' shapes are said once the LP's loads are replayed (a warning only where
     * the envelopes changed the answer) */
    char *shape = NULL;
    dls__star_opts so = dls__star_opts_from_params(par);
    dls_status st = dls__star_build(pl, V, &so, 1, star, &shape, err);
    if (st == DLS_OK)
        dls__star_note_unmodelled(pl, &s->note);
    if (st != DLS_OK) {
        free(shape);
        return st;
    }
    s->envelope_dev = star->envelope_dev;
    /* whole units: each limit took the tolerance rule already (dls__whole_units), so their
     * sum must reach V itself (a unit short cannot be placed) */
    if (whole ? s->capacity < V : !dls__holds(s->capacity, V)) {
        s->status = DLS_SOLUTION_INFEASIBLE;
        s->makespan = s->paper_makespan = s->true_makespan = INFINITY;
        for (size_t k = 0; k < star->m; k++)
            s->seq[k] = star->proc[k];
        int dg = dls__distinct_digits(s->capacity, V);
        dls__schedule_place_shape(s, shape, 0);
        dls__note_add(&s->note, "infeasible: the limits hold a load of at most %.*g%s, less "
                      "than the %.*g to distribute (beyond the relative tolerance %g)", dg,
                      s->capacity, whole ? " whole units" : "", dg, V, DLS_REL_TOL);
        *done = 1;
        return DLS_OK;
    }
    memset(ans, 0, sizeof *ans);
    st = dls__lp_solve_star(star, &so, ans, err);
    if (glpk_trouble(st)) {
        /* coefficients many decades apart can defeat GLPK's simplex; the chain solves the
         * same LP exactly */
        char why[DLS_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", err != NULL ? err->message : "GLPK failed");
        dls__lp_answer_free(ans);
        st = chain_answer(pl, par, star, ans, err);
        if (st == DLS_OK)
            dls__note_add(&s->note, "GLPK failed on the LP (%s); the chain solver's answer to "
                          "the same LP is rounded instead", why);
    }
    if (st != DLS_OK) {
        free(shape);
        return st;
    }
    s->mip.lp_makespan = ans->cmax;
    s->paper_makespan = ans->paper_cmax;
    s->iterations = ans->iterations;
    s->solves = ans->solves;
    for (size_t k = 0; k < star->m; k++) /* a dropped processor gets nothing */
        if (!ans->active[k])
            ans->alpha[k] = 0;
    s->mip.lp_true_makespan = dls__replay(star, ans->alpha, NULL, 0, 1, NULL, NULL, NULL, NULL, NULL);
    dls__schedule_place_shape(s, shape, s->mip.lp_true_makespan >
                                            s->mip.lp_makespan * (1 + par->check_tol));
    return DLS_OK;
}

static void mip_spec(const dls_mip_params *mp, const dls_schedule_params *par, int integer,
                     double time_unit, const double *start, dls__mip_spec *sp)
{
    memset(sp, 0, sizeof *sp);
    sp->integer = integer;
    sp->exact_shape = mp->exact_shape;
    sp->communication = 1;
    sp->verbose = par->verbose;
    sp->time_limit = mp->time_limit;
    sp->iteration_limit = par->iteration_limit;
    sp->rel_gap = mp->rel_gap;
    sp->shape_tol = mp->shape_tol;
    sp->max_binaries = mp->max_binaries;
    sp->time_unit = time_unit;
    sp->start = start;
    sp->progress = mp->progress;
    sp->progress_data = mp->progress_data;
}

/* ---------------------------------------------------------------------------------- */
/* Bounds and candidates, each checked by another method                               */

/* What the integer and MIP entry points know while they work: the loads kept (by
 * position), their replay under the true models, the best proven lower bound and what
 * proved it. */
typedef struct outcome {
    const dls__star *st;
    double *x;          /* the loads kept */
    double makespan;    /* their replay (s) */
    double lower;       /* s; NaN: none */
    const char *lower_by;
} outcome;

static void raise_lower(outcome *o, double bound, const char *by)
{
    if (isfinite(bound) && (isnan(o->lower) || bound > o->lower)) {
        o->lower = bound;
        o->lower_by = by;
    }
}

/* Keeps loads y (by position) when their replay is shorter than the kept ones'. */
static int offer(outcome *o, const double *y)
{
    double mk = dls__replay(o->st, y, NULL, 0, 1, NULL, NULL, NULL, NULL, NULL);
    if (!(mk < o->makespan * (1 - DLS__INT_IMPROVE_RTOL)))
        return 0;
    memcpy(o->x, y, o->st->m * sizeof *y);
    o->makespan = mk;
    return 1;
}

/* The continuous optimum with the exact best set of processors for the order (the chain:
 * exact, and independent of GLPK, which solved the LP), lowered by the envelopes'
 * deviation: no schedule of whole or real loads is shorter. */
static dls_status chain_lower(const dls_platform *pl, const dls_schedule_params *par,
                              const dls__star *star, outcome *o, dls_error *err)
{
    dls_schedule_params sel = *par;
    sel.drop_unused = 1;
    dls__chain_params cp;
    dls__schedule_chain_params(pl, &sel, &cp);
    dls__chain_answer a;
    dls_status st = dls__chain_solve(star, &cp, &a, err);
    if (st == DLS_ENUMERIC || st == DLS_ERANGE) {
        dls_error_clear(err); /* no bound from the chain: the others may still give one */
        return DLS_OK;
    }
    if (st != DLS_OK)
        return st;
    if (!a.infeasible)
        raise_lower(o, a.lower_bound / (1 + star->envelope_above), "the continuous LP");
    dls__chain_answer_free(&a);
    return DLS_OK;
}

/* Whether the star has no communication: every send free (no links, or links of 0). */
static int no_communication(const dls__star *st)
{
    for (size_t k = 0; k < st->m; k++)
        if (st->S[k] != 0 || st->C[k] != 0)
            return 0;
    return 1;
}

/* Without communication the problem is the geometric partitioner's (Lastovetsky and Reddy 2007a and
 * 2005), which finds the integer optimum exactly by another method: its distribution is a
 * candidate, and its optimum, when it claims one, a bound. */
static dls_status partition_candidate(const dls_platform *pl, const dls_schedule_params *par,
                                      outcome *o, double *y, dls_error *err)
{
    const dls__star *st = o->st;
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.use_limits = par->use_limits;
    dls_partition *part;
    dls_status rc = dls_partition_solve(pl, (uint64_t)st->V, &pp, &part, err);
    if (rc != DLS_OK)
        return rc;
    if (dls_partition_status(part) != DLS_SOLUTION_INFEASIBLE) {
        const uint64_t *el = dls_partition_elements(part);
        for (size_t k = 0; k < st->m; k++)
            y[k] = (double)el[st->proc[k]];
        offer(o, y);
        if (dls_partition_status(part) == DLS_SOLUTION_OPTIMAL)
            raise_lower(o, dls_partition_makespan(part), "the partitioner's integer optimum");
    }
    dls_partition_free(part);
    return DLS_OK;
}

/* What the MIP's answer is worth, checked against what is known without it: its loads
 * replayed must give its objective (within its model's tolerance), and its bound may not
 * exceed a schedule found another way; a MIP "infeasible" while a schedule exists is
 * GLPK's numerical failure. The bound that passes raises the lower bound. */
static void check_mip(dls_schedule *s, outcome *o, const dls__mip_answer *ma, double mk)
{
    double tol = ma->model_tol + DLS__INT_CHECK_RTOL, bound = ma->bound / (1 + ma->model_tol);
    if (ma->status == DLS_SOLUTION_INFEASIBLE) {
        s->mip.mip_status = DLS_SOLUTION_NOT_FOUND;
        dls__note_add(&s->note, "GLPK's branch and bound called the MIP infeasible, which "
                      "the schedule of %.10g s refutes: a numerical failure of GLPK's, its "
                      "answer not used", o->makespan);
        return;
    }
    if (ma->status != DLS_SOLUTION_OPTIMAL && ma->status != DLS_SOLUTION_FEASIBLE)
        return;
    if (isfinite(bound) && bound > fmin(o->makespan, mk) * (1 + tol)) {
        s->mip.mip_status = DLS_SOLUTION_FEASIBLE;
        dls__note_add(&s->note, "GLPK's branch and bound proved a bound of %.10g s, which "
                      "the schedule of %.10g s refutes: its %s is not used", bound,
                      fmin(o->makespan, mk), ma->status == DLS_SOLUTION_OPTIMAL
                                                 ? "claim of optimality" : "bound");
        return;
    }
    if (ma->status == DLS_SOLUTION_OPTIMAL && !ma->relaxed &&
        !(fabs(mk - ma->objective) <= tol * mk)) {
        s->mip.mip_status = DLS_SOLUTION_FEASIBLE;
        dls__note_add(&s->note, "the MIP's answer, replayed under the true models, takes "
                      "%.10g s, not the %.10g s of its objective: its claim of optimality is "
                      "not used", mk, ma->objective);
        return;
    }
    raise_lower(o, bound, ma->relaxed ? "the MIP's bound (real loads)" : "the MIP's bound");
}

/* The MIP from the loads kept: its answer (rounded when it was solved with real loads)
 * offered, its outcome checked and recorded in s. */
static dls_status mip_candidate(dls_schedule *s, const dls_schedule_params *par,
                                const dls_mip_params *mip, int whole, int mip_entry,
                                outcome *o, double *y, dls_error *err)
{
    dls__mip_spec sp;
    mip_spec(mip, par, whole, s->mip.lp_makespan, o->x, &sp);
    dls__mip_answer ma;
    dls_status st = dls__mip_solve_star(o->st, &sp, &ma, err);
    /* a cap the caller set (binaries) stays an error; GLPK's own failures do not */
    if (st == DLS_ESOLVER || st == DLS_ENUMERIC) {
        dls__note_add(&s->note, "the MIP could not be solved (%s); the %s kept",
                      err != NULL ? err->message : "GLPK failed",
                      whole ? "rounded LP schedule is" : "LP schedule is");
        s->mip.mip_status = DLS_SOLUTION_NOT_FOUND;
        return DLS_OK;
    }
    if (st != DLS_OK)
        return st;
    s->mip.mip_status = ma.status;
    s->mip.mip_seconds = ma.seconds;
    s->mip.mip_relaxed = ma.relaxed;
    s->mip_binaries = ma.binaries;
    s->mip.mip_bound = ma.bound;
    double mk = INFINITY;
    if (ma.status == DLS_SOLUTION_OPTIMAL || ma.status == DLS_SOLUTION_FEASIBLE) {
        if (ma.relaxed)
            st = round_loads(o->st, ma.alpha, o->st->V, y, err);
        else
            memcpy(y, ma.alpha, o->st->m * sizeof *y);
        mk = dls__replay(o->st, y, NULL, 0, 1, NULL, NULL, NULL, NULL, NULL);
        s->mip.mip_makespan = mk;
    }
    if (st == DLS_OK) {
        check_mip(s, o, &ma, mk);
        double before = o->makespan;
        if (isfinite(mk) && offer(o, y) && !mip_entry)
            dls__note_add(&s->note, "the MIP's schedule (%.10g s) is better than the rounded "
                          "LP schedule (%.10g s)", mk, before);
        if (ma.time_limited)
            dls__note_add(&s->note, "the MIP stopped at its time limit (%.3g s): best bound "
                          "%.10g s", mip->time_limit, ma.bound);
        if (ma.relaxed)
            dls__note_add(&s->note, "whole loads beyond %.0f units were solved by the MIP as "
                          "real loads (GLPK's integrality tolerance is absolute) and rounded",
                          DLS_MIP_INTEGER_MAX);
    }
    free(ma.alpha);
    return st;
}

/* The verdict: optimal when the kept loads are within the relative gap of the best lower
 * bound, said in the note otherwise; a bound above the answer (which no method should
 * give) is said and proves nothing. */
static void verdict(dls_schedule *s, const outcome *o, double gap)
{
    s->mip.lower_bound = o->lower;
    s->status = DLS_SOLUTION_FEASIBLE;
    if (isnan(o->lower)) {
        dls__note_add(&s->note, "no lower bound is known: the schedule is feasible, not "
                      "proven optimal");
        return;
    }
    if (o->lower > o->makespan * (1 + DLS__INT_CHECK_RTOL)) {
        dls__note_add(&s->note, "%s, %.10g s, lies above the schedule's %.10g s: one of them "
                      "is wrong, and nothing is proven", o->lower_by, o->lower, o->makespan);
        s->mip.lower_bound = NAN;
        return;
    }
    if (o->makespan <= o->lower * (1 + gap + DLS__INT_CHECK_RTOL))
        s->status = DLS_SOLUTION_OPTIMAL;
    else
        dls__note_add(&s->note, "not proven optimal: %.10g s, %.3g%% above the lower bound "
                      "%.10g s (%s)", o->makespan, 100 * (o->makespan - o->lower) / o->lower,
                      o->lower, o->lower_by);
}

/* Both entry points: the LP, its loads rounded to whole units (or kept when real); without
 * communication the partitioner's integer optimum; with mip the MIP from the best so far.
 * The shortest replay is kept, and it is optimal when within the gap of the best bound
 * proven by an independent method. */
static dls_status solve(const dls_platform *pl, double V, const dls_schedule_params *par,
                        const dls_mip_params *mip, int whole, int mip_entry,
                        dls_schedule **out, dls_error *err)
{
    dls_schedule *s = dls__schedule_alloc(pl->n, V);
    if (s == NULL)
        return dls__oom(err, "schedule");
    s->kind = mip_entry ? DLS_SCHEDULE_MIP : DLS_SCHEDULE_INTEGER;
    dls__star star;
    memset(&star, 0, sizeof star);
    dls__lp_answer ans;
    memset(&ans, 0, sizeof ans);
    outcome o = {&star, NULL, INFINITY, NAN, NULL};
    double *y = NULL;
    int done;
    dls_status st = lp_first(pl, V, par, whole, s, &star, &ans, &done, err);
    if (st != DLS_OK || done)
        goto out;
    o.x = malloc(star.m * sizeof *o.x);
    y = malloc(star.m * sizeof *y);
    if (o.x == NULL || y == NULL) {
        st = dls__oom(err, "schedule");
        goto out;
    }
    if (whole)
        st = round_loads(&star, ans.alpha, V, o.x, err);
    else
        memcpy(o.x, ans.alpha, star.m * sizeof *o.x);
    if (st != DLS_OK)
        goto out;
    o.makespan = dls__replay(&star, o.x, NULL, 0, 1, NULL, NULL, NULL, NULL, NULL);
    if (whole)
        s->mip.rounded_makespan = o.makespan;
    st = chain_lower(pl, par, &star, &o, err);
    if (st == DLS_OK && whole && no_communication(&star))
        st = partition_candidate(pl, par, &o, y, err);
    if (st == DLS_OK && mip)
        st = mip_candidate(s, par, mip, whole, mip_entry, &o, y, err);
    if (st != DLS_OK)
        goto out;
    verdict(s, &o, mip ? mip->rel_gap : DLS__INT_DEFAULT_GAP);
    st = dls__fill_timeline(s, &star, o.x, NULL, 0, 1, err);
    if (st != DLS_OK)
        goto out;
    s->true_makespan = s->makespan;
    dls__fill_idle(s);
out:
    free(o.x);
    free(y);
    dls__lp_answer_free(&ans);
    dls__star_free(&star);
    if (st != DLS_OK) {
        dls_schedule_free(s);
        return st;
    }
    *out = s;
    return DLS_OK;
}

static dls_status dls_schedule_solve_integer_impl(const dls_platform *platform, uint64_t n,
                                                  const dls_schedule_params *params,
                                                  const dls_mip_params *mip, dls_schedule **out,
                                                  dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_solve_integer", err);
    if (st != DLS_OK)
        return st;
    if (n == 0 || n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_solve_integer", "the load must be a whole "
                         "number of units from 1 to 2^53, not %llu", (unsigned long long)n);
    if (mip && (st = dls__mip_params_check(mip, err)) != DLS_OK)
        return st;
    return solve(platform, (double)n, params, mip, 1, 0, out, err);
}

dls_status dls_schedule_solve_integer(const dls_platform *platform, uint64_t n,
                                      const dls_schedule_params *params, const dls_mip_params *mip,
                                      dls_schedule **out, dls_error *err)
{
    dls_status st = dls_schedule_solve_integer_impl(platform, n, params, mip, out, err);
    return dls__error_retag(err, st, "dls_schedule_solve_integer");
}

static dls_status dls_schedule_solve_mip_impl(const dls_platform *platform, double load,
                                              const dls_schedule_params *params,
                                              const dls_mip_params *mip, dls_schedule **out,
                                              dls_error *err)
{
    dls_schedule_params defaults;
    dls_mip_params mdef;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    if (mip == NULL) {
        dls_mip_params_init(&mdef);
        mip = &mdef;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_solve_mip", err);
    if (st != DLS_OK)
        return st;
    if ((st = dls__mip_params_check(mip, err)) != DLS_OK)
        return st;
    if ((st = dls__domain_load(load, "dls_schedule_solve_mip", err)) != DLS_OK)
        return st;
    if (!isfinite(load) || load <= 0 || (mip->integer && load != floor(load)) ||
        load > (double)DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_solve_mip",
                         "the load must be a finite number " "> 0%s, not %.10g",
                         mip->integer ? ", whole, at most 2^53" : "", load);
    return solve(platform, load, params, mip, mip->integer, 1, out, err);
}

dls_status dls_schedule_solve_mip(const dls_platform *platform, double load,
                                  const dls_schedule_params *params, const dls_mip_params *mip,
                                  dls_schedule **out, dls_error *err)
{
    dls_status st = dls_schedule_solve_mip_impl(platform, load, params, mip, out, err);
    return dls__error_retag(err, st, "dls_schedule_solve_mip");
}
