/* LU column distributions: parameters, the step-time evaluator, the entry point that
 * dispatches to the algorithms, the cost of a distribution, and the result accessors. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu/lu_impl.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

static const char *const algorithm_names[DLS_LU_ALGORITHM_COUNT] = {
    "gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"};
static const char *const heuristic_names[] = {"auto", "cycl",  "ftos",
                                              "stof", "dflt", "exhaustive"};
#define HEURISTIC_COUNT (sizeof heuristic_names / sizeof heuristic_names[0])

void dls_lu_params_init(dls_lu_params *params)
{
    memset(params, 0, sizeof *params);
    params->algorithm = DLS_LU_FR;
    params->heuristic = DLS_LU_AUTO;
    params->use_limits = 1;
    params->max_memory = (size_t)1 << 30;
    params->max_group_states = 1000000;
}

const char *dls_lu_algorithm_name(dls_lu_algorithm a)
{
    return (unsigned)a < DLS_LU_ALGORITHM_COUNT ? algorithm_names[a] : "?";
}

const char *dls_lu_heuristic_name(dls_lu_heuristic h)
{
    return (unsigned)h < HEURISTIC_COUNT ? heuristic_names[h] : "?";
}

dls_status dls_lu_algorithm_from_name(const char *name, dls_lu_algorithm *out)
{
    for (unsigned k = 0; name != NULL && out != NULL && k < DLS_LU_ALGORITHM_COUNT; k++)
        if (strcmp(name, algorithm_names[k]) == 0) {
            *out = (dls_lu_algorithm)k;
            return DLS_OK;
        }
    return DLS_EINVAL;
}

dls_status dls_lu_heuristic_from_name(const char *name, dls_lu_heuristic *out)
{
    for (unsigned k = 0; name != NULL && out != NULL && k < HEURISTIC_COUNT; k++)
        if (strcmp(name, heuristic_names[k]) == 0) {
            *out = (dls_lu_heuristic)k;
            return DLS_OK;
        }
    return DLS_EINVAL;
}

/* ---------------------------------------------------------------------------------- */
/* The evaluator                                                                      */

/* Largest size up to which the speeds (s_k at size x_k) give a nondecreasing time
 * x / s(x): linear speed pieces make the time monotone on each piece, in the direction
 * of its end values. */
static double monotone_extent(size_t n, const double *x, const double *s, size_t stride)
{
    for (size_t k = 0; k + 1 < n; k++)
        if (x[k + 1] * s[k * stride] < x[k] * s[(k + 1) * stride])
            return x[k];
    return INFINITY;
}

void dls__lu_eval_free(lu_eval *e)
{
    if (e->mono_row)
        for (size_t i = 0; i < e->p; i++)
            free(e->mono_row[i]);
    free(e->mono_row);
    free(e->model);
    free(e->speed);
    free(e->two_d);
    free(e->cap);
    free(e->mono_x);
    memset(e, 0, sizeof *e);
}

dls_status dls__lu_eval_init(lu_eval *e, const dls_platform *pl, int use_limits,
                             const double *constant_speed, dls_error *err)
{
    size_t p = dls_platform_count(pl);
    memset(e, 0, sizeof *e);
    e->pl = pl;
    e->p = p;
    e->two_d = calloc(p, sizeof *e->two_d);
    e->cap = malloc(p * sizeof *e->cap);
    e->mono_x = malloc(p * sizeof *e->mono_x);
    e->mono_row = calloc(p, sizeof *e->mono_row);
    if (constant_speed)
        e->speed = malloc(p * sizeof *e->speed);
    else
        e->model = malloc(p * sizeof *e->model);
    if (!e->two_d || !e->cap || !e->mono_x || !e->mono_row || (!e->speed && !e->model))
        goto nomem;
    e->all_monotone = 1;
    for (size_t i = 0; i < p; i++) {
        const dls__proc *pr = &pl->procs[i];
        e->cap[i] = use_limits && isfinite(pr->limit) ? floor(pr->limit) : INFINITY;
        e->mono_x[i] = INFINITY;
        if (constant_speed) {
            e->speed[i] = constant_speed[i];
            continue;
        }
        const dls_model *m = pr->model;
        e->model[i] = m;
        e->two_d[i] = pr->two_d;
        if (m->kind == DLS_MODEL_POINTS) {
            e->mono_x[i] = monotone_extent(m->n, m->size, m->speed, 1);
            e->all_monotone &= isinf(e->mono_x[i]);
        } else if (m->kind == DLS_MODEL_SPEED2D) {
            e->mono_row[i] = malloc(m->n * sizeof **e->mono_row);
            if (e->mono_row[i] == NULL)
                goto nomem;
            for (size_t r = 0; r < m->n; r++) {
                e->mono_row[i][r] = monotone_extent(m->ny, m->gy, m->gv + r * m->ny, 1);
                e->all_monotone &= isinf(e->mono_row[i][r]);
            }
        }
        /* time lines have slopes >= 0: always nondecreasing */
    }
    return DLS_OK;
nomem:
    dls__lu_eval_free(e);
    return dls__fail(err, DLS_ENOMEM, "lu: out of memory");
}

double dls__lu_time(const lu_eval *e, size_t i, double h, double c)
{
    if (c <= 0)
        return 0;
    if (e->model == NULL) /* c / s first: the order of the times is the same at every h */
        return h * (c / e->speed[i]);
    if (e->two_d[i])
        return h * c / dls_model_speed2d(e->model[i], h, c);
    return dls_model_time(e->model[i], h * c);
}

void dls__lu_time_pair(const lu_eval *e, size_t i, double h, double c, double *t0, double *t1)
{
    double c1 = c + 1;
    if (e->model == NULL) {
        *t0 = c <= 0 ? 0 : h * (c / e->speed[i]);
        *t1 = h * (c1 / e->speed[i]);
        return;
    }
    const dls_model *m = e->model[i];
    if (e->two_d[i]) {
        double s0, s1;
        dls__grid_speed_pair(m, h, c, c1, &s0, &s1);
        *t0 = c <= 0 ? 0 : h * c / s0;
        *t1 = h * c1 / s1;
    } else if (m->kind == DLS_MODEL_POINTS) {
        double s0, s1;
        dls__points_speed_pair(m, h * c, h * c1, &s0, &s1);
        *t0 = c <= 0 ? 0 : h * c / s0;
        *t1 = h * c1 / s1;
    } else {
        *t0 = dls__lu_time(e, i, h, c);
        *t1 = dls__lu_time(e, i, h, c1);
    }
}

int dls__lu_monotone(const lu_eval *e, size_t i, double h, double cmax)
{
    if (e->model == NULL || e->all_monotone)
        return 1;
    if (!e->two_d[i])
        return h * cmax <= e->mono_x[i];
    /* bilinear in x: the section at h mixes the two grid rows around it, and a mix of
     * rows whose times are nondecreasing keeps its speed pieces' intercepts >= 0 */
    const dls_model *m = e->model[i];
    const double *row = e->mono_row[i];
    double lim;
    if (m->n == 1 || h <= m->gx[0])
        lim = row[0];
    else if (h >= m->gx[m->n - 1])
        lim = row[m->n - 1];
    else {
        size_t r = dls__segment(m->gx, m->n, h);
        lim = h == m->gx[r] ? row[r] : fmin(row[r], row[r + 1]);
    }
    return cmax <= lim;
}

dls_status dls__lu_progress(lu_progress *pr, double fraction, dls_error *err)
{
    if (pr == NULL || pr->fn == NULL || fraction < pr->next)
        return DLS_OK;
    pr->next = fraction + 1.0 / 256;
    if (pr->fn(fraction > 1 ? 1 : fraction, pr->data) != 0)
        return dls__fail(err, DLS_ECANCELED, "lu: canceled by the progress callback");
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Cost of a distribution                                                             */

/* Step costs of owners under e; counts receives the columns of each processor and trail
 * is scratch of p values. */
static void evaluate(const lu_eval *e, uint64_t n, const size_t *owners, uint64_t *counts,
                     uint64_t *trail, double *step_cost, double *total)
{
    size_t p = e->p;
    memset(counts, 0, p * sizeof *counts);
    for (uint64_t j = 0; j < n; j++)
        counts[owners[j]]++;
    /* the trailing counts start as the totals and lose one column per step */
    memcpy(trail, counts, p * sizeof *trail);
    double sum = 0;
    for (uint64_t k = 1; k < n; k++) {
        trail[owners[k - 1]]--;
        double h = (double)(n - k), worst = 0;
        for (size_t i = 0; i < p; i++) {
            double t = dls__lu_time(e, i, h, (double)trail[i]);
            worst = t > worst ? t : worst;
        }
        if (step_cost)
            step_cost[k - 1] = worst;
        sum += worst;
    }
    *total = sum;
}

static int all_constant(const dls_platform *pl)
{
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (dls_model_get_kind(dls_platform_model(pl, i)) != DLS_MODEL_CONSTANT)
            return 0;
    return 1;
}

/* The constant speeds the constant-model algorithms use (see dls_lu_distribute()). */
static void reference_speeds(const dls_platform *pl, uint64_t n, double *speed)
{
    size_t p = dls_platform_count(pl);
    double x = (double)n, y = (double)n / (double)p;
    for (size_t i = 0; i < p; i++) {
        const dls_model *m = dls_platform_model(pl, i);
        speed[i] = dls_model_get_kind(m) == DLS_MODEL_CONSTANT ? dls_model_constant_speed(m)
                                                               : dls_model_speed2d(m, x, y);
    }
}

dls_status dls_lu_evaluate(const dls_platform *platform, uint64_t n, const size_t *owners,
                           double *cost, double *step_costs, dls_error *err)
{
    if (platform == NULL || owners == NULL || cost == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate: NULL argument");
    if (n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate: the number of columns must be >= 1");
    size_t p = dls_platform_count(platform);
    for (uint64_t j = 0; j < n; j++)
        if (owners[j] >= p)
            return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate: column %llu has owner %zu, but "
                             "the platform has %zu processors", (unsigned long long)j + 1,
                             owners[j], p);
    /* the evaluator dls_lu_distribute() uses, so that costs agree to the last bit */
    double *speed = NULL;
    if (all_constant(platform)) {
        speed = malloc(p * sizeof *speed);
        if (speed == NULL)
            return dls__fail(err, DLS_ENOMEM, "dls_lu_evaluate: out of memory");
        reference_speeds(platform, n, speed);
    }
    lu_eval e;
    dls_status st = dls__lu_eval_init(&e, platform, 0, speed, err);
    free(speed);
    if (st != DLS_OK)
        return st;
    uint64_t *counts = malloc(2 * p * sizeof *counts);
    if (counts == NULL) {
        dls__lu_eval_free(&e);
        return dls__fail(err, DLS_ENOMEM, "dls_lu_evaluate: out of memory");
    }
    double total;
    evaluate(&e, n, owners, counts, counts + p, step_costs, &total);
    *cost = total;
    free(counts);
    dls__lu_eval_free(&e);
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Entry point                                                                        */

static dls_status check_params(const dls_lu_params *par, dls_error *err)
{
    if ((unsigned)par->algorithm >= DLS_LU_ALGORITHM_COUNT)
        return dls__fail(err, DLS_EINVAL, "lu: unknown algorithm %d", (int)par->algorithm);
    if ((unsigned)par->heuristic >= HEURISTIC_COUNT)
        return dls__fail(err, DLS_EINVAL, "lu: unknown heuristic %d", (int)par->heuristic);
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, "lu: use_limits must be 0 or 1, not %d",
                         par->use_limits);
    if (par->max_group_states == 0)
        return dls__fail(err, DLS_EINVAL, "lu: max_group_states must be >= 1");
    return DLS_OK;
}

void dls_lu_free(dls_lu *r)
{
    if (r == NULL)
        return;
    free(r->owners);
    free(r->counts);
    free(r->step_cost);
    free(r);
}

/* Lower bound of a platform of constant speeds: the best distribution of every step
 * alone is the greedy one (smallest next ratio first, caps respected), which is one chain
 * of count vectors growing by one column. */
static double constant_bound(const lu_eval *e, uint64_t n)
{
    size_t p = e->p;
    uint64_t *c = calloc(p, sizeof *c);
    if (c == NULL)
        return NAN;
    double sum = 0, ratio = 0;
    for (uint64_t m = 1; m < n; m++) {
        size_t best = p;
        double br = INFINITY;
        for (size_t i = 0; i < p; i++)
            if ((double)c[i] < e->cap[i]) {
                double rr = (double)(c[i] + 1) / e->speed[i];
                if (rr < br) {
                    br = rr;
                    best = i;
                }
            }
        if (best == p)
            break;
        c[best]++;
        ratio = br > ratio ? br : ratio;
        sum += (double)m * ratio;
    }
    free(c);
    return sum;
}

dls_status dls_lu_distribute(const dls_platform *platform, uint64_t n,
                             const dls_lu_params *params, dls_lu **out, dls_error *err)
{
    dls_lu_params defaults;
    if (params == NULL) {
        dls_lu_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute: NULL argument");
    size_t p = dls_platform_count(platform);
    if (p == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute: the platform has no processor");
    if (n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute: the number of columns must be "
                         ">= 1");
    if (n > (uint64_t)(SIZE_MAX / sizeof(size_t)) || n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute: %llu columns is more than this "
                         "machine can index", (unsigned long long)n);
    dls_status st = check_params(params, err);
    if (st != DLS_OK)
        return st;
    dls_lu_algorithm alg = params->algorithm;
    int constant_alg = alg == DLS_LU_GB || alg == DLS_LU_DP || alg == DLS_LU_REVERSE;
    int constant_pl = all_constant(platform);

    dls_lu *r = calloc(1, sizeof *r);
    double *speed = malloc(p * sizeof *speed);
    if (r == NULL || speed == NULL) {
        free(r);
        free(speed);
        return dls__fail(err, DLS_ENOMEM, "dls_lu_distribute: out of memory");
    }
    r->algorithm = alg;
    r->heuristic = params->heuristic;
    r->p = p;
    r->n = n;
    r->cost = INFINITY;
    r->lower_bound = NAN;
    r->counts = calloc(p, sizeof *r->counts);
    reference_speeds(platform, n, speed);
    lu_eval truth, algo;
    memset(&algo, 0, sizeof algo);
    st = r->counts ? dls__lu_eval_init(&truth, platform, params->use_limits,
                                       constant_pl ? speed : NULL, err)
                   : dls__fail(err, DLS_ENOMEM, "dls_lu_distribute: out of memory");
    if (st == DLS_OK && constant_alg && !constant_pl)
        st = dls__lu_eval_init(&algo, platform, params->use_limits, speed, err);
    if (st != DLS_OK) {
        if (r->counts)
            dls__lu_eval_free(&truth);
        free(speed);
        dls_lu_free(r);
        return st;
    }
    const lu_eval *ev = constant_alg && !constant_pl ? &algo : &truth;

    double capacity = 0;
    for (size_t i = 0; i < p; i++)
        capacity += truth.cap[i];
    if (capacity < (double)n) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        snprintf(r->note, sizeof r->note, "infeasible: the limits hold at most %.0f columns in "
                 "total, fewer than the %llu to distribute", capacity, (unsigned long long)n);
        goto done;
    }
    r->owners = malloc((size_t)n * sizeof *r->owners);
    r->step_cost = n > 1 ? malloc((size_t)(n - 1) * sizeof *r->step_cost) : NULL;
    if (r->owners == NULL || (n > 1 && r->step_cost == NULL)) {
        st = dls__fail(err, DLS_ENOMEM, "dls_lu_distribute: out of memory for %llu columns",
                       (unsigned long long)n);
        goto done;
    }
    lu_progress pr = {params->on_progress, params->on_progress_data, 0};
    r->status = DLS_SOLUTION_FEASIBLE;
    switch (alg) {
    case DLS_LU_GB:
        st = dls__lu_group_block(ev, n, r->owners, r, err);
        break;
    case DLS_LU_DP:
        st = dls__lu_dp(ev, n, r->owners, err);
        break;
    case DLS_LU_REVERSE:
        st = dls__lu_reverse(ev, n, DLS_LU_DFLT, params->max_group_states, &pr, r->owners, r,
                             err);
        break;
    case DLS_LU_FR:
        st = dls__lu_reverse(ev, n, params->heuristic, params->max_group_states, &pr,
                             r->owners, r, err);
        break;
    case DLS_LU_FDP:
        st = dls__lu_fdp(ev, n, &pr, r->owners, r, err);
        break;
    case DLS_LU_FGB:
        st = dls__lu_fgb(ev, n, r->owners, r, err);
        break;
    case DLS_LU_EXACT:
        st = dls__lu_exact(ev, n, params->max_memory, &pr, r->owners, r, err);
        break;
    }
    if (st != DLS_OK)
        goto done;
    if (r->status == DLS_SOLUTION_NOT_FOUND) {
        free(r->owners);
        free(r->step_cost);
        r->owners = NULL;
        r->step_cost = NULL;
        goto done;
    }
    /* the bound of the algorithm's own evaluator holds for the truth only when they are
     * the same models */
    if (ev != &truth)
        r->lower_bound = NAN;
    if (constant_pl && isnan(r->lower_bound))
        r->lower_bound = constant_bound(&truth, n);
    if (r->costs_known && ev == &truth) {
        /* the algorithm's step times are the truth's: only count and sum */
        memset(r->counts, 0, p * sizeof *r->counts);
        for (uint64_t j = 0; j < n; j++)
            r->counts[r->owners[j]]++;
        r->cost = 0;
        for (uint64_t k = 1; k < n; k++)
            r->cost += r->step_cost[k - 1];
    } else {
        uint64_t *trail = malloc(p * sizeof *trail);
        if (trail == NULL) {
            st = dls__fail(err, DLS_ENOMEM, "dls_lu_distribute: out of memory");
            goto done;
        }
        evaluate(&truth, n, r->owners, r->counts, trail, r->step_cost, &r->cost);
        free(trail);
    }
    if (alg == DLS_LU_EXACT) {
        r->status = DLS_SOLUTION_OPTIMAL;
        r->lower_bound = r->cost;
    } else if (r->lower_bound >= 0 &&
               r->cost <= r->lower_bound + DLS_LU_BOUND_RTOL * r->lower_bound) {
        r->status = DLS_SOLUTION_OPTIMAL;
    }
    if (constant_alg && !constant_pl && r->note[0] == '\0')
        snprintf(r->note, sizeof r->note, "%s uses constant speeds: each processor's speed at "
                 "the even share s(%llu, %.6g); the cost is that of the true models",
                 dls_lu_algorithm_name(alg), (unsigned long long)n, (double)n / (double)p);
done:
    dls__lu_eval_free(&truth);
    if (algo.p)
        dls__lu_eval_free(&algo);
    free(speed);
    if (st != DLS_OK) {
        dls_lu_free(r);
        return st;
    }
    *out = r;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Accessors                                                                          */

dls_lu_algorithm dls_lu_get_algorithm(const dls_lu *r) { return r->algorithm; }
dls_lu_heuristic dls_lu_get_heuristic(const dls_lu *r) { return r->heuristic; }
dls_solution_status dls_lu_status(const dls_lu *r) { return r->status; }
const char *dls_lu_note(const dls_lu *r) { return r->note; }
uint64_t dls_lu_columns(const dls_lu *r) { return r->n; }
size_t dls_lu_count(const dls_lu *r) { return r->p; }
const size_t *dls_lu_owners(const dls_lu *r) { return r->owners; }
const uint64_t *dls_lu_counts(const dls_lu *r) { return r->counts; }
double dls_lu_cost(const dls_lu *r) { return r->cost; }
const double *dls_lu_step_costs(const dls_lu *r) { return r->step_cost; }
double dls_lu_lower_bound(const dls_lu *r) { return r->lower_bound; }
size_t dls_lu_groups(const dls_lu *r) { return r->groups; }
uint64_t dls_lu_states(const dls_lu *r) { return r->states; }

double dls_lu_gap(const dls_lu *r)
{
    if (isnan(r->lower_bound) || !isfinite(r->cost))
        return NAN;
    if (r->lower_bound <= 0)
        return r->cost > 0 ? INFINITY : 0;
    double g = (r->cost - r->lower_bound) / r->lower_bound;
    return g > 0 ? g : 0;
}
