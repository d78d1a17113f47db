/* Installments sized by an LP over a searched sequence (issue 25): the parameters, the
 * single-installment start, the replay that every answer goes through, a lower bound, and
 * the schedule object with its chunks listed one by one. The LP and the search are the
 * solver module's (src/solver/lp_multi.c). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/names.h"
#include "core/sort.h"
#include "installment/installment_impl.h"
#include "platform/platform_impl.h"
#include "solver/solver.h"
#include "star/star.h"

#define DLS__INSTALLMENT_LP_DEFAULT_WINDOW 2u
#define DLS__INSTALLMENT_LP_DEFAULT_MAX_CHUNKS 4096
#define DLS__INSTALLMENT_LP_DEFAULT_TIME_LIMIT 1.0
#define DLS__INSTALLMENT_LP_MAX_CHECK_TOL 1e-3
/* The replay of a long chain of sends and computations departs from the LP's optimum by
 * the LP's own tolerances (1e-10 on scaled values) times the chain's length. */
#define DLS__INSTALLMENT_LP_DEFAULT_CHECK_TOL 1e-6
/* The share of the time limit the single-installment order search may take. */
#define DLS__INSTALLMENT_LP_ORDER_SHARE 0.25
/* Bisection steps of the lower bound (each halves the bracket). */
#define DLS__INSTALLMENT_LP_BOUND_STEPS 100
/* ... or until the bracket is this narrow (relative). */
#define DLS__INSTALLMENT_LP_BOUND_TOL 1e-15
#define DLS__INSTALLMENT_LP_DEFAULT_EXHAUSTIVE 2048
#define DLS__INSTALLMENT_LP_MAX_EXHAUSTIVE 10000000

DLS__ENUM_NAMES(dls_return_order, dls_return_order, DLS_RETURN_ORDER_MAP)

void dls_installment_lp_params_init(dls_installment_lp_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->use_limits = 1;
    params->window = DLS__INSTALLMENT_LP_DEFAULT_WINDOW;
    params->moves = 1;
    params->order = DLS_ORDER_BEST;
    params->max_chunks = DLS__INSTALLMENT_LP_DEFAULT_MAX_CHUNKS;
    params->time_limit = DLS__INSTALLMENT_LP_DEFAULT_TIME_LIMIT;
    params->check_tol = DLS__INSTALLMENT_LP_DEFAULT_CHECK_TOL;
    params->exhaustive_max = DLS__INSTALLMENT_LP_DEFAULT_EXHAUSTIVE;
}

/* Whether v, the `what` of processor i (a release time, a return's fraction, startup or
 * rate), is not finite, >= 0 and in the domain, as the platform's own keys must be (issue
 * 35, item 9: a return fraction of 1e-300 made the LP's answer wrong); 1 with err filled. */
static int bad_value(double v, const char *what, const char *who, const dls_platform *pl,
                     size_t i, dls_error *err)
{
    char why[200];
    if (!(isfinite(v) && v >= 0))
        snprintf(why, sizeof why, "the %s must be a finite number >= 0, not %.10g", what, v);
    else if (!dls__domain_value(v, what, why, sizeof why))
        return 0;
    dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, who, "processor \"%s\": %s", pl->procs[i].name,
                 why);
    return 1;
}

static dls_status check_params(const dls_platform *pl, const dls_installment_lp_params *par,
                               const char *who, dls_error *err)
{
    dls_status rs = DLS__CHECK_RESERVED(par, who, dls_installment_lp_params, err);
    if (rs != DLS_OK)
        return rs;
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, who, "use_limits must be 0 or 1, not %d",
                         par->use_limits);
    if (par->moves != 0 && par->moves != 1)
        return dls__fail(err, DLS_EINVAL, who, "moves must be 0 or 1, not %d", par->moves);
    if (par->window < 1 || par->window > DLS_INSTALLMENT_MAX_WINDOW)
        return dls__fail(err, DLS_EINVAL, who, "window must be in [1, %d], not %u",
                         DLS_INSTALLMENT_MAX_WINDOW, par->window);
    if (par->max_chunks < 1 || par->max_chunks > DLS_INSTALLMENT_LP_MAX_CHUNKS)
        return dls__fail(err, DLS_EINVAL, who, "max_chunks must be in [1, %d], not %zu",
                         DLS_INSTALLMENT_LP_MAX_CHUNKS, par->max_chunks);
    if (!(par->time_limit > 0 && par->time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, who, "time_limit must be in (0, %g] s, not %.10g",
                         DLS_TIME_LIMIT_MAX, par->time_limit);
    if (!(par->check_tol > 0 && par->check_tol <= DLS__INSTALLMENT_LP_MAX_CHECK_TOL))
        return dls__fail(err, DLS_EINVAL, who, "check_tol must be in (0, %g], not %.10g",
                         DLS__INSTALLMENT_LP_MAX_CHECK_TOL, par->check_tol);
    if (par->exhaustive_max > DLS__INSTALLMENT_LP_MAX_EXHAUSTIVE)
        return dls__fail(err, DLS_EINVAL, who, "exhaustive_max must be at most %d, not %zu",
                         DLS__INSTALLMENT_LP_MAX_EXHAUSTIVE, par->exhaustive_max);
    if (par->order != DLS_ORDER_GIVEN && par->order != DLS_ORDER_RATE &&
        par->order != DLS_ORDER_BEST)
        return dls__fail(err, DLS_EINVAL, who, "order must be given, rate or best, not %d",
                         (int)par->order);
    if (par->sequence != NULL) {
        if (par->sequence_length < 1 || par->sequence_length > par->max_chunks)
            return dls__fail(err, DLS_EINVAL, who, "the sequence must have 1 to max_chunks "
                             "(%zu) chunks, not %zu", par->max_chunks,
                             par->sequence_length);
        for (size_t k = 0; k < par->sequence_length; k++)
            if (par->sequence[k] >= pl->n)
                return dls__fail(err, DLS_EINVAL, who, "chunk %zu of the sequence names "
                                 "processor %zu; the platform has %zu", k + 1,
                                 par->sequence[k], pl->n);
    } else if (par->sequence_length != 0) {
        return dls__fail(err, DLS_EINVAL, who, "sequence_length is %zu without a sequence",
                         par->sequence_length);
    }
    int given = (par->return_fraction != NULL) + (par->return_startup != NULL) +
                (par->return_rate != NULL);
    if (given != 0 && given != 3)
        return dls__fail(err, DLS_EINVAL, who, "give return_fraction, return_startup and "
                         "return_rate together, or none");
    if (par->return_order != DLS_RETURN_FIFO && par->return_order != DLS_RETURN_LIFO &&
        par->return_order != DLS_RETURN_GIVEN)
        return dls__fail(err, DLS_EINVAL, who, "return_order must be fifo, lifo or given, not %d",
                         (int)par->return_order);
    if ((par->return_order == DLS_RETURN_GIVEN) != (par->return_sequence != NULL))
        return dls__fail(err, DLS_EINVAL, who, "a return_sequence goes with return_order given, "
                         "and only with it");
    if (par->return_sequence != NULL) {
        if (par->sequence == NULL)
            return dls__fail(err, DLS_EINVAL, who, "a return_sequence needs a given sequence "
                             "(the search changes the chunks)");
        size_t n = par->sequence_length;
        unsigned char *seen = calloc(n ? n : 1, 1);
        if (seen == NULL)
            return dls__oom(err, who);
        for (size_t j = 0; j < n; j++) {
            size_t k = par->return_sequence[j];
            if (k >= n || seen[k]) {
                free(seen);
                return dls__fail(err, DLS_EINVAL, who, "return_sequence[%zu] is %zu: it must "
                                 "name each of the %zu chunks once", j, k, n);
            }
            seen[k] = 1;
        }
        free(seen);
    }
    if (par->two_port != 0 && par->two_port != 1)
        return dls__fail(err, DLS_EINVAL, who, "two_port must be 0 or 1, not %d", par->two_port);
    if (given == 3)
        for (size_t i = 0; i < pl->n; i++) {
            const double v[3] = {par->return_fraction[i], par->return_startup[i],
                                 par->return_rate[i]};
            static const char *const what[3] = {"return fraction", "return startup",
                                                "return rate"};
            for (int j = 0; j < 3; j++)
                if (bad_value(v[j], what[j], who, pl, i, err))
                    return DLS_EINVAL;
        }
    if (par->release != NULL)
        for (size_t i = 0; i < pl->n; i++)
            if (bad_value(par->release[i], "release time", who, pl, i, err))
                return DLS_EINVAL;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The replay                                                                          */

/* The earliest-start timeline of chunks seq (platform indices) of sizes x: each send when
 * the link is free and, for a processor with a limit, once its chunk `window` back is
 * computed; each computation after its arrival, the processor's previous chunk and its
 * release. True models (dls_model_time). ev (n) and level (n) are filled; held receives the
 * largest ratio of a window's load to its processor's limit (0 without limits). Returns the
 * makespan. scratch: 2 n sizes. */
static double replay(const dls_platform *pl, const size_t *seq, const double *x, size_t n,
                     const dls_installment_lp_params *par, dls_installment_event *ev,
                     int *level, double *ret_start, double *ret_end, size_t *prev,
                     size_t *last, double *held)
{
    size_t m = pl->n, W = par->window;
    for (size_t i = 0; i < m; i++)
        last[i] = SIZE_MAX;
    double link = 0, makespan = 0;
    *held = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = seq[k];
        const dls__proc *pr = &pl->procs[i];
        double limit = par->use_limits ? pr->limit : INFINITY;
        prev[k] = last[i];
        last[i] = k;
        double start = link, window = x[k];
        size_t h = prev[k];
        for (size_t d = 1; d < W && h != SIZE_MAX; d++, h = prev[h])
            window += x[h];
        if (isfinite(limit)) {
            if (h != SIZE_MAX && ev[h].compute_end > start)
                start = ev[h].compute_end;
            *held = fmax(*held, limit > 0 ? window / limit : (window > 0 ? INFINITY : 0));
        }
        memset(&ev[k], 0, sizeof ev[k]);
        ev[k].chunk = k;
        ev[k].processor = i;
        ev[k].size = x[k];
        ev[k].round = prev[k] == SIZE_MAX ? 0 : ev[prev[k]].round + 1;
        ev[k].send_start = start;
        ev[k].send_end = start + pr->startup + pr->rate * x[k];
        link = ev[k].send_end;
        double cs = ev[k].send_end;
        if (prev[k] != SIZE_MAX)
            cs = fmax(cs, ev[prev[k]].compute_end);
        else if (par->release != NULL)
            cs = fmax(cs, par->release[i]);
        ev[k].compute_start = cs;
        ev[k].compute_end = cs + dls__inst_time_level(pr->model, x[k], &level[k]);
        makespan = fmax(makespan, ev[k].compute_end);
    }
    /* the results, in return order: after their computation, one at a time, and with one
     * port after the last send */
    double port = par->two_port ? 0 : link, back = 0;
    for (size_t j = 0; j < n; j++) {
        size_t k = par->return_order == DLS_RETURN_GIVEN ? par->return_sequence[j]
                   : par->return_order == DLS_RETURN_LIFO ? n - 1 - j
                                                           : j;
        size_t i = seq[k];
        ret_start[k] = ret_end[k] = NAN;
        if (par->return_fraction == NULL || !(par->return_fraction[i] > 0))
            continue;
        ret_start[k] = fmax(fmax(ev[k].compute_end, back), port);
        back = ret_end[k] = ret_start[k] + par->return_startup[i] +
                            par->return_rate[i] * par->return_fraction[i] * x[k];
        makespan = fmax(makespan, back);
    }
    return makespan;
}

/* ---------------------------------------------------------------------------------- */
/* The lower bound                                                                     */

/* What the relaxations below share: per position the slope of its steepest line with a
 * non-negative intercept (every chunk's time is at least slope x), the release times, the
 * positions by link rate, room for sorting by another key, the least startup. */
typedef struct bound_ctx {
    const dls__star *st;
    const double *slope, *release;
    const dls__keyed *by_rate;
    dls__keyed *by_cost;
    double smin;
} bound_ctx;

/* The earliest position k can compute (its first startup, its release) into *ready, and
 * the most it can compute by T: (T - ready) / slope, at least 0; unbounded for a slope of
 * 0. */
static double bound_cap(const bound_ctx *b, size_t k, double T, double *ready)
{
    *ready = fmax(b->st->S[k], b->release ? b->release[b->st->proc[k]] : 0);
    return b->slope[k] > 0 ? fmax(0, T - *ready) / b->slope[k] : INFINITY;
}

/* Whether some schedule could finish V by T under the relaxation: processor i computes
 * at most its cap (bound_cap), and the link carries all units in T - min S. Fractional
 * knapsack over the link, cheapest rate first. */
static int bound_holds(const bound_ctx *b, double T)
{
    const dls__star *st = b->st;
    double room = T - b->smin, got = 0, ready;
    if (room < 0)
        return 0;
    for (size_t r = 0; r < st->m; r++) {
        size_t k = b->by_rate[r].index;
        double cap = bound_cap(b, k, T, &ready);
        double take = st->C[k] > 0 ? fmin(cap, room / st->C[k]) : cap;
        got += take;
        room -= take * st->C[k];
        if (got >= st->V)
            return 1;
        if (room <= 0)
            break;
    }
    return got >= st->V;
}

/* The same with each processor's startup counted: a processor given any load is sent at
 * least one chunk, so the link is busy for at least S_i y_i + C_i x_i, where x_i is its
 * load and y_i in {0, 1} says whether it has any; relaxed to y_i >= x_i / cap_i (cap_i its
 * most load by T, as above), the link's time per unit of processor i is C_i + S_i / cap_i,
 * and the most load the link can carry by T is again a fractional knapsack, in the order of
 * that cost (which depends on T). Where startups dominate, this is the stronger bound;
 * where rates do, the one above (it charges only the first startup, but on every unit). */
static int bound_startups_holds(const bound_ctx *b, double T)
{
    const dls__star *st = b->st;
    size_t n = 0;
    double ready;
    for (size_t k = 0; k < st->m; k++) {
        double cap = bound_cap(b, k, T, &ready);
        if (!(T > ready))
            continue;
        double cost = st->C[k] + (isinf(cap) ? 0 : st->S[k] / cap);
        if (cost == 0)
            return 1; /* a processor that takes any load at no cost to the link */
        b->by_cost[n].key = cost;
        b->by_cost[n].index = k;
        n++;
    }
    dls__keyed_sort(b->by_cost, n);
    double room = T, got = 0;
    for (size_t r = 0; r < n && room > 0; r++) {
        double cap = bound_cap(b, b->by_cost[r].index, T, &ready);
        double take = fmin(cap, room / b->by_cost[r].key);
        got += take;
        room -= take * b->by_cost[r].key;
        if (got >= st->V)
            return 1;
    }
    return got >= st->V;
}

/* The least T in [lo, hi] where holds (monotone in T) says yes, by bisection: the largest
 * point found where it says no (a lower bound); NaN when it fails at hi, lo itself when it
 * holds there. */
static double bound_bisect(int (*holds)(const bound_ctx *, double), const bound_ctx *b,
                           double lo, double hi)
{
    if (!holds(b, hi))
        return NAN;
    if (holds(b, lo))
        return lo;
    for (int s = 0; s < DLS__INSTALLMENT_LP_BOUND_STEPS && hi - lo > DLS__INSTALLMENT_LP_BOUND_TOL * hi;
         s++) {
        double mid = 0.5 * (lo + hi);
        if (holds(b, mid))
            hi = mid;
        else
            lo = mid;
    }
    return lo;
}

static double lower_bound(const dls__star *st, const double *release, double upper)
{
    size_t m = st->m;
    double *slope = malloc(m * sizeof *slope);
    dls__keyed *by_rate = malloc(m * sizeof *by_rate);
    dls__keyed *by_cost = malloc(m * sizeof *by_cost);
    double lb = NAN;
    if (slope != NULL && by_rate != NULL && by_cost != NULL && isfinite(upper)) {
        bound_ctx b = {st, slope, release, by_rate, by_cost, INFINITY};
        for (size_t k = 0; k < m; k++) {
            slope[k] = 0;
            for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
                if (st->a[l] >= 0)
                    slope[k] = fmax(slope[k], st->b[l]);
            by_rate[k].key = st->C[k];
            by_rate[k].index = k;
            b.smin = fmin(b.smin, st->S[k]);
        }
        dls__keyed_sort(by_rate, m);
        lb = bound_bisect(bound_holds, &b, 0, upper);
        /* the bound counting startups, where it is stronger */
        double ls = bound_bisect(bound_startups_holds, &b, isfinite(lb) ? lb : 0, upper);
        if (!isnan(ls))
            lb = isfinite(lb) ? fmax(lb, ls) : ls;
    }
    free(slope);
    free(by_rate);
    free(by_cost);
    return lb;
}

/* ---------------------------------------------------------------------------------- */
/* The schedule                                                                        */

static dls_status make_result(const dls_platform *pl, double V, const size_t *seq,
                              const double *x, size_t n, const dls_installment_lp_params *par,
                              const dls_installment_lp_info *info, double *makespan_out,
                              dls_installment **out, dls_error *err)
{
    size_t m = pl->n;
    dls_installment *s = calloc(1, sizeof *s);
    size_t *prev = malloc((n ? n : 1) * sizeof *prev), *last = malloc(m * sizeof *last);
    if (s != NULL) {
        s->n = m;
        s->role = malloc(m * sizeof *s->role);
        s->chunks = calloc(m, sizeof *s->chunks);
        s->load = calloc(m, sizeof *s->load);
        s->first = malloc(m * sizeof *s->first);
        s->finish = malloc(m * sizeof *s->finish);
        s->busy = calloc(m, sizeof *s->busy);
        s->wait = calloc(m, sizeof *s->wait);
        s->ctime = malloc(m * sizeof *s->ctime);
        s->level = calloc(m, sizeof *s->level);
        s->ev = malloc((n ? n : 1) * sizeof *s->ev);
        s->ev_level = malloc((n ? n : 1) * sizeof *s->ev_level);
        s->ret_start = malloc((n ? n : 1) * sizeof *s->ret_start);
        s->ret_end = malloc((n ? n : 1) * sizeof *s->ret_end);
        s->lp = malloc(sizeof *s->lp);
    }
    if (s == NULL || !s->role || !s->chunks || !s->load || !s->first || !s->finish ||
        !s->busy || !s->wait || !s->ctime || !s->level || !s->ev || !s->ev_level || !s->lp ||
        !s->ret_start || !s->ret_end ||
        !prev || !last) {
        dls_installment_free(s);
        free(prev);
        free(last);
        return dls__oom(err, "dls_installment_solve_lp");
    }
    double held;
    s->makespan = replay(pl, seq, x, n, par, s->ev, s->ev_level, s->ret_start, s->ret_end,
                         prev, last, &held);
    *s->lp = *info;
    for (size_t i = 0; i < m; i++) {
        s->role[i] = DLS_INSTALLMENT_NO_CHUNK;
        s->first[i] = s->finish[i] = s->ctime[i] = NAN;
    }
    uint64_t most = 0;
    size_t used = 0;
    for (size_t k = 0; k < n; k++) {
        const dls_installment_event *e = &s->ev[k];
        size_t i = e->processor;
        if (s->chunks[i] == 0) {
            s->first[i] = e->send_end;
            s->role[i] = DLS_INSTALLMENT_WORKS;
            used++;
        }
        s->chunks[i]++;
        most = s->chunks[i] > most ? s->chunks[i] : most;
        s->load[i] += e->size;
        s->busy[i] += e->compute_end - e->compute_start;
        s->finish[i] = e->compute_end;
        if (s->ev_level[k] > s->level[i])
            s->level[i] = s->ev_level[k];
    }
    for (size_t i = 0; i < m; i++)
        if (s->chunks[i] > 0)
            s->wait[i] = fmax(0, s->finish[i] - s->first[i] - s->busy[i]);
    s->plan.V = V;
    s->plan.delta = NAN;
    s->plan.N = n;
    s->plan.rounds = most;
    s->plan.last = n > 0 ? x[n - 1] : NAN;
    s->plan.p = used;
    s->plan.R = NAN;
    free(prev);
    free(last);
    *makespan_out = s->makespan;
    if (held > 1 + par->check_tol)
        dls__note_add(&s->note, "a processor holds %.6g times its limit at once", held);
    *out = s;
    return DLS_OK;
}

/* The base order: the best single-installment schedule's processors with a load, in its
 * order (all of its sequence when the limits cannot hold the load in one installment). */
static dls_status single_start(const dls_platform *pl, double V,
                               const dls_installment_lp_params *par, size_t *base,
                               size_t *nbase, double *single, double **single_x,
                               dls_error *err)
{
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = par->order;
    sp.use_limits = par->use_limits;
    sp.order_time_limit = fmax(DLS__INSTALLMENT_LP_ORDER_SHARE * par->time_limit, 1e-3);
    sp.time_limit = par->time_limit;
    dls_schedule *s = NULL;
    dls_status st = dls_schedule_solve(pl, V, &sp, &s, err);
    if (st != DLS_OK)
        return st;
    const size_t *seq = dls_schedule_sequence(s);
    const double *load = dls_schedule_loads(s);
    int feasible = dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE;
    *nbase = 0;
    for (size_t k = 0; k < pl->n; k++)
        if (!feasible || load[seq[k]] > 0)
            base[(*nbase)++] = seq[k];
    *single = feasible ? dls_schedule_lp_makespan(s) : INFINITY;
    if (feasible) {
        *single_x = malloc(pl->n * sizeof **single_x);
        if (*single_x != NULL)
            for (size_t k = 0; k < *nbase; k++)
                (*single_x)[k] = load[base[k]];
    }
    dls_schedule_free(s);
    if (*nbase == 0)
        for (size_t k = 0; k < pl->n; k++)
            base[(*nbase)++] = seq[k];
    return DLS_OK;
}

/* The parameters with the platform's release times and results returned filled in where
 * the caller gave none (params win: they are the caller's what-if). *buf, owned by the
 * caller, holds the arrays (NULL when none were needed). */
static dls_status effective(const dls_platform *pl, const dls_installment_lp_params *par,
                            dls_installment_lp_params *eff, double **buf)
{
    *eff = *par;
    *buf = NULL;
    size_t m = pl->n;
    int rel = 0, ret = 0;
    for (size_t i = 0; i < m; i++) {
        rel |= pl->procs[i].release > 0;
        ret |= pl->procs[i].ret_frac > 0;
    }
    rel &= par->release == NULL;
    ret &= par->return_fraction == NULL;
    if (!rel && !ret)
        return DLS_OK;
    *buf = malloc(4 * m * sizeof **buf);
    if (*buf == NULL)
        return DLS_ENOMEM;
    for (size_t i = 0; i < m; i++) {
        (*buf)[i] = pl->procs[i].release;
        (*buf)[m + i] = pl->procs[i].ret_frac;
        (*buf)[2 * m + i] = pl->procs[i].ret_startup;
        (*buf)[3 * m + i] = pl->procs[i].ret_rate;
    }
    if (rel)
        eff->release = *buf;
    if (ret) {
        eff->return_fraction = *buf + m;
        eff->return_startup = *buf + 2 * m;
        eff->return_rate = *buf + 3 * m;
    }
    return DLS_OK;
}

static dls_status lp_run_checked(const dls_platform *pl, double V,
                                 const dls_installment_lp_params *par, dls_installment **out,
                                 dls_error *err, double t0);

static dls_status lp_impl(const dls_platform *pl, double V, const dls_installment_lp_params *given,
                          dls_installment **out, dls_error *err)
{
    static const char who[] = "dls_installment_solve_lp";
    double t0 = dls__clock_now();
    dls_status rc = dls__inst_check_load(V, who, err);
    if (rc == DLS_OK)
        rc = dls__inst_check_platform(pl, who, err);
    if (rc == DLS_OK)
        rc = check_params(pl, given, who, err);
    if (rc != DLS_OK)
        return rc;
    dls_installment_lp_params par;
    double *buf;
    if (effective(pl, given, &par, &buf) != DLS_OK)
        return dls__oom(err, who);
    rc = lp_run_checked(pl, V, &par, out, err, t0);
    free(buf);
    return rc;
}

/* The search's time unit: a makespan some schedule reaches (the single-installment one),
 * else the load on the fastest processor, else 1. */
static double time_unit(const dls__star *st, size_t m, double V, double single)
{
    double tau = single;
    if (isfinite(tau) && tau > 0)
        return tau;
    tau = INFINITY;
    for (size_t i = 0; i < m; i++) {
        double t = st->S[i] + st->C[i] * V;
        for (size_t l = st->off[i]; l < st->off[i + 1]; l++)
            t = fmax(t, st->S[i] + st->C[i] * V + st->a[l] + st->b[l] * V);
        tau = fmin(tau, t);
    }
    return isfinite(tau) && tau > 0 ? tau : 1;
}

/* What the phases of lp_run_checked share. */
typedef struct lp_run {
    const dls_platform *pl;
    double V;
    const dls_installment_lp_params *par;
    dls__star st;
    size_t *base, nbase;       /* the single-installment start's sequence */
    double single, *single_x;  /* its makespan and chunk sizes */
    double t0;
} lp_run;

/* The answer when the time ran out before the first LP ended: the start, replayed. */
static dls_status lp_result_single(lp_run *r, dls_installment **out, dls_error *err)
{
    dls_installment_lp_info info;
    memset(&info, 0, sizeof info);
    info.limited = 1;
    double T;
    dls_status rc = make_result(r->pl, r->V, r->base, r->single_x, r->nbase, r->par, &info, &T,
                                out, err);
    if (rc != DLS_OK)
        return rc;
    dls_installment *s = *out;
    s->lp->lp_makespan = s->lp->single_makespan = T; /* a replay, no LP */
    s->lp->replay_residual = 0;
    s->lp->lower_bound = lower_bound(&r->st, r->par->release, T);
    s->lp->gap = isfinite(s->lp->lower_bound) ? (T - s->lp->lower_bound) / T : NAN;
    s->lp->seconds = dls__clock_now() - r->t0;
    dls__note_add(&s->note, "the time limit ended before the first LP: the "
                  "single-installment schedule, one chunk a processor");
    return DLS_OK;
}

/* The start, replayed in this model (results and release times included): the answer is
 * never worse than it. *T is the answer's makespan. */
static void keep_better_than_single(lp_run *r, dls_installment_lp_info *info, double *T,
                                    dls_installment **out)
{
    dls_installment *one = NULL;
    double T1;
    if (make_result(r->pl, r->V, r->base, r->single_x, r->nbase, r->par, info, &T1, &one,
                    NULL) == DLS_OK) {
        (*out)->lp->single_makespan = T1;
        if (*T > T1 * (1 + r->par->check_tol)) {
            dls_installment_free(*out);
            *out = one;
            one = NULL;
            *T = T1;
            (*out)->lp->lp_makespan = T1; /* a replay, not an LP optimum */
            (*out)->lp->single_makespan = T1;
            dls__note_add(&(*out)->note, "the search found nothing better than the "
                          "single-installment schedule");
        }
    }
    dls_installment_free(one);
}

/* The answer from the LPs' best: the schedule, its replay's residual, bound and notes. */
static dls_status lp_result_answer(lp_run *r, const dls__mlp_answer *ans, const char *note,
                                   dls_installment **out, dls_error *err)
{
    const dls_installment_lp_params *par = r->par;
    dls_installment_lp_info info;
    memset(&info, 0, sizeof info);
    info.lp_makespan = ans->objective;
    info.single_makespan = r->single;
    info.lps = ans->lps;
    info.warm_starts = ans->warm;
    info.exhaustive_length = ans->exhaustive_length;
    info.exact = ans->exact;
    info.rounds_tried = ans->rounds;
    info.best_rounds = ans->best_rounds;
    info.moves_gain = ans->search_gain;
    info.iterations = ans->iterations;
    info.limited = ans->time_limited;
    double T;
    dls_status rc = make_result(r->pl, r->V, ans->seq, ans->x, ans->n, par, &info, &T, out, err);
    if (rc != DLS_OK)
        return rc;
    if (r->single_x != NULL)
        keep_better_than_single(r, &info, &T, out);
    dls_installment *s = *out;
    double s_lp_makespan = s->lp->lp_makespan; /* what the message names */
    s->lp->replay_residual = fabs(T - s_lp_makespan) / s_lp_makespan;
    int envelope = r->st.envelope_dev > 0;
    if (s->lp->replay_residual > par->check_tol &&
        !(envelope && T <= s->lp->lp_makespan * (1 + r->st.envelope_dev + par->check_tol)))
        /* the replay is the direct computation of the chunks' times: it is what is
         * reported, and the LP's claim is what is doubted (found by the differential
         * suite: GLPK's polished LP 2.5e-6 from its own sizes' replay, with a release
         * time; this once failed the call) */
        dls__note_add(&s->note, "the LP said %.10g s, its chunks' replay ends at %.10g "
                      "s (relative %.3g, beyond %.3g): the times given are the replay's, "
                      "and the chunk sizes the LP's", s_lp_makespan, T,
                      s->lp->replay_residual, par->check_tol);
    s->lp->lower_bound = par->sequence == NULL ? lower_bound(&r->st, par->release, T) : NAN;
    s->lp->gap = isfinite(s->lp->lower_bound) ? (T - s->lp->lower_bound) / T : NAN;
    s->lp->seconds = dls__clock_now() - r->t0;
    if (ans->note[0] != '\0')
        dls__note_add(&s->note, "%s", ans->note);
    if (note != NULL)
        dls__note_add(&s->note, "%s", note);
    return DLS_OK;
}

/* The LPs' search (or the given sequence's LP) from the single-installment start. */
static dls_status lp_search(lp_run *r, dls__mlp_answer *ans, dls_error *err)
{
    const dls_installment_lp_params *par = r->par;
    double tau = time_unit(&r->st, r->pl->n, r->V, r->single);
    double left = par->time_limit - (dls__clock_now() - r->t0);
    dls__mlp_spec ms = {
        .st = &r->st, .release = par->release, .window = par->window,
        .ret_frac = par->return_fraction, .ret_S = par->return_startup,
        .ret_C = par->return_rate, .ret_lifo = par->return_order == DLS_RETURN_LIFO,
        .ret_perm = par->return_sequence,
        .two_port = par->two_port, .search = par->sequence == NULL, .seq = par->sequence,
        .nseq = par->sequence_length, .base = r->base, .nbase = r->nbase,
        .max_rounds = par->rounds, .moves = par->moves, .max_chunks = par->max_chunks,
        .max_lps = par->max_lps, .exhaustive_max = par->exhaustive_max,
        .time_limit = fmax(left, 1e-3), .time_unit = tau,
        .verbose = par->verbose, .progress = par->progress,
        .progress_data = par->progress_data,
    };
    return dls__mlp_solve(&ms, ans, err);
}

/* dls_installment_solve_lp once its arguments are checked and the platform's release times and
 * results are in par. */
static dls_status lp_run_checked(const dls_platform *pl, double V,
                                 const dls_installment_lp_params *par, dls_installment **out,
                                 dls_error *err, double t0)
{
    static const char who[] = "dls_installment_solve_lp";
    lp_run r = {.pl = pl, .V = V, .par = par, .single = NAN, .t0 = t0};
    dls__star_opts so = {.order = DLS_ORDER_GIVEN, .use_limits = par->use_limits};
    dls_envelope_params_init(&so.envelope);
    char *note = NULL;
    dls_status rc = dls__star_build(pl, V, &so, 1, &r.st, &note, err);
    r.base = malloc(pl->n * sizeof *r.base);
    if (rc == DLS_OK && r.base == NULL)
        rc = dls__oom(err, who);
    if (rc == DLS_OK && par->sequence == NULL)
        rc = single_start(pl, V, par, r.base, &r.nbase, &r.single, &r.single_x, err);
    dls__mlp_answer ans;
    memset(&ans, 0, sizeof ans);
    if (rc == DLS_OK)
        rc = lp_search(&r, &ans, err);
    if (rc == DLS_ELIMIT && r.single_x != NULL && par->sequence == NULL) {
        /* the time ran out before the first LP ended: the start is an answer still */
        if (err != NULL)
            dls_error_clear(err);
        rc = lp_result_single(&r, out, err);
    } else if (rc == DLS_OK && !isfinite(ans.makespan)) {
        rc = dls__fail(err, DLS_ERANGE, who, "the sequence of %zu chunks cannot hold a load of "
                       "%.10g within the limits", par->sequence_length, V);
    } else if (rc == DLS_OK) {
        rc = lp_result_answer(&r, &ans, note, out, err);
    }
    dls__mlp_answer_free(&ans);
    dls__star_free(&r.st);
    free(r.base);
    free(r.single_x);
    free(note);
    return rc;
}

dls_status dls_installment_solve_lp(const dls_platform *platform, double load,
                                    const dls_installment_lp_params *params,
                                    dls_installment **out, dls_error *err)
{
    dls_installment_lp_params defaults;
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_solve_lp", "NULL argument");
    if (params == NULL) {
        dls_installment_lp_params_init(&defaults);
        params = &defaults;
    }
    dls_installment *s = NULL;
    dls_status rc = lp_impl(platform, load, params, &s, err);
    if (rc == DLS_OK)
        *out = s;
    return dls__error_retag(err, rc, "dls_installment_solve_lp");
}

/* The name before issue 37's renames, kept for one release. */
dls_status dls_installment_lp(const dls_platform *platform, double load,
                              const dls_installment_lp_params *params, dls_installment **out,
                              dls_error *err)
{
    return dls_installment_solve_lp(platform, load, params, out, err);
}

dls_status dls_installment_get_lp_info(const dls_installment *s, dls_installment_lp_info *out,
                                       dls_error *err)
{
    if (s == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_lp_info", "NULL argument");
    if (s->lp == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_lp_info", "the schedule is not "
                         "from dls_installment_solve_lp() but from %s (see "
                         "dls_installment_get_rounds_info%s)",
                         s->nsamples > 0 ? "dls_installment_sweep" : "dls_installment_simulate",
                         s->nsamples > 0 ? " and dls_installment_get_sweep_info" : "");
    *out = *s->lp;
    out->deepest_levels = s->level;
    return DLS_OK;
}

/* The text of the LP of params->sequence; fn names the public call. */
static dls_status lp_text(const dls_platform *pl, double V, const dls_installment_lp_params *params,
                          dls_export_format format, dls__buf *out, const char *fn,
                          dls_error *err)
{
    dls_installment_lp_params defaults;
    if (pl == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (params == NULL) {
        dls_installment_lp_params_init(&defaults);
        params = &defaults;
    }
    dls_status rc = dls__inst_check_load(V, fn, err);
    if (rc == DLS_OK)
        rc = dls__inst_check_platform(pl, fn, err);
    if (rc == DLS_OK)
        rc = check_params(pl, params, fn, err);
    if (rc != DLS_OK)
        return rc;
    if (params->sequence == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "the LP is that of a sequence of installments: "
                         "give one");
    dls_installment_lp_params eff;
    double *buf;
    if (effective(pl, params, &eff, &buf) != DLS_OK)
        return dls__oom(err, fn);
    params = &eff;
    if (format < DLS_EXPORT_LP || format > DLS_EXPORT_MATHPROG)
        return dls__fail(err, DLS_EINVAL, fn, "unknown format %d", (int)format);
    dls__star_opts so = {.order = DLS_ORDER_GIVEN, .use_limits = params->use_limits};
    dls_envelope_params_init(&so.envelope);
    dls__star st;
    char *note = NULL;
    rc = dls__star_build(pl, V, &so, 1, &st, &note, err);
    if (rc == DLS_OK) {
        dls__mlp_spec ms = {
            .st = &st, .release = params->release, .window = params->window,
            .ret_frac = params->return_fraction, .ret_S = params->return_startup,
            .ret_C = params->return_rate,
            .ret_lifo = params->return_order == DLS_RETURN_LIFO, .two_port = params->two_port,
            .ret_perm = params->return_sequence,
            .seq = params->sequence, .nseq = params->sequence_length, .time_unit = 1,
            .time_limit = INFINITY, .verbose = params->verbose,
        };
        rc = dls__mlp_text(&ms, format, out, err);
    }
    dls__star_free(&st);
    free(note);
    free(buf);
    return rc;
}

dls_status dls_installment_lp_write_file(const dls_platform *pl, double V,
                                         const dls_installment_lp_params *params,
                                         dls_export_format format, const char *path,
                                         dls_error *err)
{
    static const char fn[] = "dls_installment_lp_write_file";
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    dls__buf text = DLS__BUF_INIT;
    dls_status rc = lp_text(pl, V, params, format, &text, fn, err);
    if (rc == DLS_OK)
        rc = dls__write_output(path, text.s ? text.s : "", text.len, err);
    dls__buf_free(&text);
    return dls__error_retag(err, rc, fn);
}

dls_status dls_installment_lp_to_string(const dls_platform *pl, double V,
                                        const dls_installment_lp_params *params,
                                        dls_export_format format, char **out, dls_error *err)
{
    static const char fn[] = "dls_installment_lp_to_string";
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    dls__buf text = DLS__BUF_INIT;
    dls_status rc = lp_text(pl, V, params, format, &text, fn, err);
    if (rc == DLS_OK) {
        char *doc = dls__buf_take(&text);
        if (doc == NULL)
            rc = dls__oom(err, fn);
        else
            *out = doc;
    }
    dls__buf_free(&text);
    return dls__error_retag(err, rc, fn);
}

dls_status dls_installment_return_at(const dls_installment *s, uint64_t index, double *start,
                                     double *end, dls_error *err)
{
    if (s == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_return_at", "NULL schedule");
    if (index >= s->plan.N)
        return dls__fail(err, DLS_EINVAL, "dls_installment_return_at", "chunk %llu does not "
                         "exist (the schedule has %llu chunks)", (unsigned long long)index,
                         (unsigned long long)s->plan.N);
    double a = NAN, b = NAN;
    if (s->ret_start != NULL) {
        a = s->ret_start[index];
        b = s->ret_end[index];
    }
    if (start != NULL)
        *start = a;
    if (end != NULL)
        *end = b;
    return DLS_OK;
}
