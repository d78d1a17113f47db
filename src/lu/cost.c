/* The cost model of LU column distributions (Lastovetsky and Reddy 2007b): the step-time evaluator
 * T_i(h, c) every algorithm uses, progress reporting, and the cost of a distribution. The
 * algorithms (constant.c, reverse.c, functional.c, exact.c) build on this file, and lu.c
 * dispatches to them; nothing here calls back. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu/lu_impl.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

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
        e->cap[i] = use_limits && isfinite(pr->limit) ? dls__whole_units(pr->limit) : INFINITY;
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
    return dls__oom(err, "lu");
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
        return dls__fail(err, DLS_ECANCELED, "lu", "canceled by the progress callback");
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Cost of a distribution                                                             */

void dls__lu_evaluate(const lu_eval *e, uint64_t n, const size_t *owners, uint64_t *counts,
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

int dls__lu_all_constant(const dls_platform *pl)
{
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (dls_model_get_kind(dls_platform_model(pl, i)) != DLS_MODEL_CONSTANT)
            return 0;
    return 1;
}

void dls__lu_reference_speeds(const dls_platform *pl, uint64_t n, double *speed)
{
    size_t p = dls_platform_count(pl);
    double x = (double)n, y = (double)n / (double)p;
    for (size_t i = 0; i < p; i++) {
        const dls_model *m = dls_platform_model(pl, i);
        speed[i] = dls_model_get_kind(m) == DLS_MODEL_CONSTANT ? dls_model_constant_speed(m)
                                                               : dls_model_speed2d(m, x, y);
    }
}

static dls_status dls_lu_evaluate_impl(const dls_platform *platform, uint64_t n, const size_t *owners,
                                       double *cost, double *step_costs, dls_error *err)
{
    if (platform == NULL || owners == NULL || cost == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate", "NULL argument");
    if (n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate", "the number of columns must be >= 1");
    size_t p = dls_platform_count(platform);
    for (uint64_t j = 0; j < n; j++)
        if (owners[j] >= p)
            return dls__fail(err, DLS_EINVAL, "dls_lu_evaluate", "column %llu has owner %zu, but "
                             "the platform has %zu processors", (unsigned long long)j + 1,
                             owners[j], p);
    /* the evaluator dls_lu_distribute() uses, so that costs agree to the last bit */
    double *speed = NULL;
    if (dls__lu_all_constant(platform)) {
        speed = malloc(p * sizeof *speed);
        if (speed == NULL)
            return dls__oom(err, "dls_lu_evaluate");
        dls__lu_reference_speeds(platform, n, speed);
    }
    lu_eval e;
    dls_status st = dls__lu_eval_init(&e, platform, 0, speed, err);
    free(speed);
    if (st != DLS_OK)
        return st;
    uint64_t *counts = malloc(2 * p * sizeof *counts);
    if (counts == NULL) {
        dls__lu_eval_free(&e);
        return dls__oom(err, "dls_lu_evaluate");
    }
    double total;
    dls__lu_evaluate(&e, n, owners, counts, counts + p, step_costs, &total);
    *cost = total;
    free(counts);
    dls__lu_eval_free(&e);
    return DLS_OK;
}

dls_status dls_lu_evaluate(const dls_platform *platform, uint64_t n, const size_t *owners,
                           double *cost, double *step_costs, dls_error *err)
{
    dls_status st = dls_lu_evaluate_impl(platform, n, owners, cost, step_costs, err);
    return dls__error_retag(err, st, "dls_lu_evaluate");
}

/* The best distribution of every step alone is the greedy one (smallest next ratio first,
 * caps respected), which is one chain of count vectors growing by one column. */
double dls__lu_constant_bound(const lu_eval *e, uint64_t n)
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

