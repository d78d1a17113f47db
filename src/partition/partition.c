/* The partitioning API: parameters, validation, the result object, quality metrics, and
 * the striped matrix multiplication front end. The algorithms are in
 * partition/geometric.c (equal elements) and partition/weighted.c (weighted elements). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "partition/partition_impl.h"
#include "platform/platform_impl.h"

/* Default bound on improvement moves of the weighted heuristics. */
#define DLS__PARTITION_DEFAULT_MAX_MOVES 100000
/* Equal elements: the root-finder may stop with the sizes summing to n within half an
 * element, or within p / DLS__EQUAL_FTOL_PROCESSORS elements when that is more: the greedy
 * completion places those in O(p / 64 log p), less than one more pass over the models. */
#define DLS__EQUAL_FTOL_MIN 0.5
#define DLS__EQUAL_FTOL_PROCESSORS 64

DLS__ENUM_NAMES(dls_partition_method, dls_partition_method, DLS_PARTITION_METHOD_MAP)
DLS__ENUM_NAMES(dls_partition_exact, dls_partition_exact, DLS_PARTITION_EXACT_MAP)

void dls_partition_params_init(dls_partition_params *params)
{
    memset(params, 0, sizeof *params);
    params->use_limits = 1;
    params->method = DLS_PARTITION_NEWTON;
    params->max_moves = DLS__PARTITION_DEFAULT_MAX_MOVES;
    params->exact = DLS_PARTITION_EXACT_AUTO;
}

static dls_status check_params(const dls_partition_params *par, const char *fn,
                               dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(par, fn, dls_partition_params, err);
    if (st != DLS_OK)
        return st;
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, "partition", "use_limits must be 0 or 1, not %d",
                         par->use_limits);
    if (par->ordered != 0 && par->ordered != 1)
        return dls__fail(err, DLS_EINVAL, "partition", "ordered must be 0 or 1, not %d",
                         par->ordered);
    if (par->reorder != 0 && par->reorder != 1)
        return dls__fail(err, DLS_EINVAL, "partition", "reorder must be 0 or 1, not %d",
                         par->reorder);
    if (par->reorder && !par->ordered)
        return dls__fail(err, DLS_EINVAL, "partition", "reorder applies to ordered sets only "
                         "(set ordered too)");
    if (par->method != DLS_PARTITION_NEWTON && par->method != DLS_PARTITION_BISECTION)
        return dls__fail(err, DLS_EINVAL, "partition", "unknown method %d", (int)par->method);
    if (par->exact != DLS_PARTITION_EXACT_AUTO && par->exact != DLS_PARTITION_EXACT_ALWAYS &&
        par->exact != DLS_PARTITION_EXACT_NEVER)
        return dls__fail(err, DLS_EINVAL, "partition", "exact must be auto (%d), always (%d) or "
                         "never (%d), not %d", (int)DLS_PARTITION_EXACT_AUTO,
                         (int)DLS_PARTITION_EXACT_ALWAYS, (int)DLS_PARTITION_EXACT_NEVER,
                         (int)par->exact);
    return DLS_OK;
}

void dls_partition_free(dls_partition *r)
{
    if (r == NULL)
        return;
    free(r->elements);
    free(r->sizes);
    free(r->times);
    free(r->ideal);
    free(r->first);
    free(r->assignment);
    free(r->order);
    free(r);
}

/* A result with every share empty: the arrays zero, and for ordered sets first zero (every
 * chunk [0, 0)) and the order the platform's, so that a result with no valid distribution
 * (infeasible, not found) reads as defined values from every getter. */
static dls_partition *result_alloc(size_t p, uint64_t n, const dls_partition_params *par)
{
    dls_partition *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->p = p;
    r->n = n;
    r->elements = calloc(p, sizeof *r->elements);
    r->sizes = calloc(p, sizeof *r->sizes);
    r->times = calloc(p, sizeof *r->times);
    r->ideal = calloc(p, sizeof *r->ideal);
    if (par->ordered)
        r->first = calloc(p, sizeof *r->first);
    if (par->reorder)
        r->order = malloc(p * sizeof *r->order);
    if (r->elements == NULL || r->sizes == NULL || r->times == NULL || r->ideal == NULL ||
        (par->ordered && r->first == NULL) || (par->reorder && r->order == NULL)) {
        dls_partition_free(r);
        return NULL;
    }
    for (size_t i = 0; par->reorder && i < p; i++)
        r->order[i] = i;
    r->shape_ok = 1;
    return r;
}

/* The default metric: weighted Euclidean deviation with relative speeds as weights. */
static double euclidean_metric(size_t p, const double *speeds, const double *actual,
                               const double *ideal)
{
    double total = 0, sum = 0;
    for (size_t i = 0; i < p; i++)
        if (isfinite(speeds[i]))
            total += speeds[i];
    for (size_t i = 0; i < p; i++) {
        double w = total > 0 && isfinite(speeds[i]) ? speeds[i] / total : 1.0 / (double)p;
        double d = actual[i] - ideal[i];
        sum += w * d * d;
    }
    return sqrt(sum);
}

/* Makespan, gap and metric from the filled arrays. t_cont is the continuous optimum at which
 * r->ideal was taken: processors below their caps all finish then, so their speed at the
 * ideal size is ideal / t_cont without evaluating the model. */
static dls_status finish(dls_partition *r, const dls_model *const *models, const double *cap,
                         double t_cont, const dls_partition_params *par, double *scratch,
                         dls_error *err)
{
    r->makespan = 0;
    for (size_t i = 0; i < r->p; i++)
        if (r->times[i] > r->makespan)
            r->makespan = r->times[i];
    if (r->lower_bound > r->makespan)
        r->lower_bound = r->makespan; /* rounding of the continuous root */
    r->gap = r->lower_bound > 0 ? (r->makespan - r->lower_bound) / r->lower_bound : 0;
    double *speeds = scratch ? scratch : malloc(r->p * sizeof *speeds);
    if (speeds == NULL)
        return dls__partition_nomem(err);
    for (size_t i = 0; i < r->p; i++) {
        double x = r->ideal[i];
        speeds[i] = x > 0 && x < cap[i] && t_cont > 0 ? x / t_cont : dls_model_speed(models[i], x);
    }
    r->metric = par->metric ? par->metric(r->p, speeds, r->sizes, r->ideal, par->metric_data)
                            : euclidean_metric(r->p, speeds, r->sizes, r->ideal);
    if (speeds != scratch)
        free(speeds);
    return DLS_OK;
}

/* Whether processor i's time increases strictly up to its cap; notes the first that does
 * not, ending with what follows for the answer. */
static void check_shapes(dls_partition *r, const dls_platform *pl, const dls_model *const *models,
                         const double *cap, const char *consequence)
{
    for (size_t i = 0; i < r->p; i++) {
        if (cap[i] <= 0 || !(models[i]->increasing_to < cap[i]))
            continue;
        if (r->shape_ok) {
            size_t count = dls_model_check_shape(models[i], NULL, 0);
            dls_shape_issue is;
            double from = models[i]->increasing_to, to = cap[i];
            if (count > 0 && dls_model_check_shape(models[i], &is, 1) > 0) {
                from = is.from;
                to = fmin(is.to, cap[i]);
            }
            snprintf(r->note, sizeof r->note,
                     "processor \"%s\": x/s(x) is not strictly increasing for sizes in "
                     "[%.6g, %.6g], below the largest share it could get (%.6g): %s",
                     dls_platform_name(pl, i), from, to, cap[i], consequence);
        }
        r->shape_ok = 0;
    }
}

/* What a note says of a geometric distribution when a shape breaks. */
#define GEOMETRIC_CONSEQUENCE "the distribution is valid but may not be optimal"

/* Matrix rows: replaces the geometric distribution in r by the exact row programme's when
 * params->exact asks for it (AUTO: when a shape breaks). With AUTO, a programme that would
 * pass its bounds leaves the geometric answer, and the note says so. */
static dls_status maybe_exact(const dls_platform *pl, const dls_model *const *models,
                              const double *cap, uint64_t n, const dls_partition_params *par,
                              int shape_ok, dls_partition *r, dls_error *err)
{
    if (par->exact == DLS_PARTITION_EXACT_NEVER ||
        (par->exact == DLS_PARTITION_EXACT_AUTO && shape_ok))
        return DLS_OK;
    size_t p = r->p;
    /* the geometric makespan: the programme never does worse. Taken with dls_model_time,
     * as the programme takes its times, so that this distribution is surely within it. */
    double upper = 0;
    for (size_t i = 0; i < p; i++)
        if (r->elements[i] > 0)
            upper = fmax(upper, dls_model_time(models[i], (double)r->elements[i]));
    dls_error sub;
    unsigned tests = 0;
    dls_status st = dls__partition_exact(models, cap, p, n, upper, r->elements, r->times,
                                         &tests, &sub);
    if (st == DLS_ELIMIT && par->exact == DLS_PARTITION_EXACT_AUTO) {
        /* sub.message starts with "partition: " */
        char why[DLS_ERROR_MESSAGE_MAX + 64];
        snprintf(why, sizeof why, GEOMETRIC_CONSEQUENCE " (%s)", sub.message);
        check_shapes(r, pl, models, cap, why);
        return DLS_OK;
    }
    if (st != DLS_OK) {
        if (err != NULL)
            *err = sub;
        return st;
    }
    r->exact_used = 1;
    r->steps += tests;
    if (!shape_ok)
        check_shapes(r, pl, models, cap, "the exact row programme was used");
    return DLS_OK;
}

/* Equal elements; matrix: rows of a striped matrix product (the exact row programme may
 * apply). */
static dls_status partition_equal(const dls_platform *pl, const dls_model *const *models,
                                  const double *cap, uint64_t n, const dls_partition_params *par,
                                  int matrix, dls_partition *r, dls_error *err)
{
    size_t p = r->p;
    if (n == 0) {
        r->status = DLS_SOLUTION_OPTIMAL; /* nothing to place: everyone idle is optimal */
        return finish(r, models, cap, 0, par, NULL, err);
    }
    dls__root root;
    double ftol = fmax(DLS__EQUAL_FTOL_MIN, (double)p / DLS__EQUAL_FTOL_PROCESSORS);
    /* one scratch block: derivatives then next times, heap items, then speeds */
    double *scratch = malloc(2 * p * sizeof *scratch);
    if (scratch == NULL)
        return dls__partition_nomem(err);
    double *D = scratch;
    size_t *items = (size_t *)(scratch + p);
    int shape_ok = 1;
    dls_status st = dls__continuous_root(models, cap, p, (double)n, par->method, ftol, 1,
                                         r->ideal, D, &root, err);
    if (st == DLS_OK) {
        /* the bisection method leaves no derivatives: its ideal sizes stay at its line U */
        double dt = par->method == DLS_PARTITION_NEWTON ? root.t_root - root.t_eval : 0;
        if (dt == 0)
            memset(D, 0, p * sizeof *D);
        st = dls__integer_fill(models, cap, p, n, r->ideal, D, dt, r->elements, r->times, items,
                               &shape_ok, err);
    }
    if (st != DLS_OK) {
        free(scratch);
        return st;
    }
    r->steps = root.steps;
    r->lower_bound = root.t_root;
    if (matrix)
        st = maybe_exact(pl, models, cap, n, par, shape_ok, r, err);
    if (st != DLS_OK) {
        free(scratch);
        return st;
    }
    for (size_t i = 0; i < p; i++)
        r->sizes[i] = (double)r->elements[i];
    if (!shape_ok && !r->exact_used && r->shape_ok)
        check_shapes(r, pl, models, cap, GEOMETRIC_CONSEQUENCE);
    if (r->exact_used) {
        r->status = DLS_SOLUTION_OPTIMAL;
        r->lower_bound = INFINITY; /* finish() lowers it to the makespan: gap 0 */
    } else {
        r->status = r->shape_ok ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
    }
    if (par->ordered) {
        /* equal elements: every order is as good, r->order stays the platform's */
        uint64_t at = 0;
        for (size_t i = 0; i < p; i++) {
            r->first[i] = at;
            at += r->elements[i];
        }
        DLS__ASSERT(at == n); /* the chunks cover the set */
    }
    st = finish(r, models, cap, root.t_root, par, scratch, err);
    free(scratch);
    return st;
}

/* The common entry: models already 1-D; caps from the limits. */
static dls_status run(const dls_platform *pl, const dls_model *const *models, uint64_t n,
                      const dls_partition_params *par, int matrix, dls_partition **out,
                      dls_error *err)
{
    size_t p = dls_platform_count(pl);
    dls_partition *r = result_alloc(p, n, par);
    double *cap = malloc(p * sizeof *cap);
    if (r == NULL || cap == NULL) {
        dls_partition_free(r);
        free(cap);
        return dls__partition_nomem(err);
    }
    int weighted = par->weights != NULL;
    double need = (double)n;
    if (weighted) {
        need = 0;
        for (uint64_t e = 0; e < n; e++)
            need += par->weights[e];
    }
    r->capacity = 0;
    for (size_t i = 0; i < p; i++) {
        double lim = par->use_limits ? pl->procs[i].limit : INFINITY;
        if (!weighted) /* equal elements: whole elements only; weights: the limit itself */
            lim = dls__whole_units(lim);
        cap[i] = weighted || lim < (double)n ? lim : (double)n;
        r->capacity += lim;
    }
    dls_status st = DLS_OK;
    /* whole elements: the caps took the tolerance rule already (dls__whole_units), and a
     * unit short is a unit short: their sum must reach n itself */
    if (weighted ? !dls__holds(r->capacity, need) : r->capacity < need) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        r->makespan = INFINITY;
        r->lower_bound = INFINITY;
        r->gap = 0;
        r->metric = NAN;
        if (weighted)
            snprintf(r->note, sizeof r->note,
                     "infeasible: the limits hold a total weight of at most %.*g, less than the "
                     "total weight %.*g of the %llu elements (beyond the relative tolerance %g)",
                     dls__distinct_digits(r->capacity, need), r->capacity,
                     dls__distinct_digits(r->capacity, need), need, (unsigned long long)n,
                     DLS_REL_TOL);
        else
            snprintf(r->note, sizeof r->note,
                     "infeasible: the limits hold at most %.0f elements in total, fewer than the "
                     "%llu to distribute", r->capacity, (unsigned long long)n);
    } else if (weighted) {
        st = dls__partition_weighted(models, cap, p, n, par->weights, par, r, err);
        if (st == DLS_OK && r->status != DLS_SOLUTION_NOT_FOUND &&
            r->status != DLS_SOLUTION_INFEASIBLE)
            st = finish(r, models, cap, r->t_cont, par, NULL, err);
    } else {
        st = partition_equal(pl, models, cap, n, par, matrix, r, err);
    }
    free(cap);
    if (st != DLS_OK) {
        dls_partition_free(r);
        return st;
    }
    *out = r;
    return DLS_OK;
}

/* What both entries check first; a NULL *params becomes the defaults, filled in *defaults. */
static dls_status check_call(const dls_platform *pl, uint64_t n,
                             const dls_partition_params **params, dls_partition_params *defaults,
                             dls_partition **out, const char *fn, dls_error *err)
{
    if (*params == NULL) {
        dls_partition_params_init(defaults);
        *params = defaults;
    }
    const dls_partition_params *par = *params;
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (dls_platform_count(pl) == 0)
        return dls__fail(err, DLS_EINVAL, fn, "the platform has no processor");
    if (n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "%llu elements is more than the largest count "
                         "supported, 2^53", (unsigned long long)n);
    dls_status st = check_params(par, fn, err);
    if (st != DLS_OK)
        return st;
    if (par->weights == NULL)
        return DLS_OK;
    /* each weight in the domain, and their sum, the load the processors share (issue 35) */
    double total = 0;
    for (uint64_t e = 0; e < n; e++) {
        char why[200];
        double w = par->weights[e];
        if (!isfinite(w) || w <= 0)
            return dls__fail(err, DLS_EINVAL, fn, "weight %llu is %.10g; weights must be "
                             "finite and > 0", (unsigned long long)e + 1, w);
        if (dls__domain_value(w, "weight", why, sizeof why))
            return dls__fail(err, DLS_EINVAL, fn, "weight %llu: %s", (unsigned long long)e + 1,
                             why);
        total += w;
    }
    if (total > DLS_DOMAIN_MAX)
        return dls__fail(err, DLS_EINVAL, fn, "the weights sum to %.10g, more than %g, the "
                         "largest load of the domain that dlsched computes in", total,
                         DLS_DOMAIN_MAX);
    return DLS_OK;
}

static dls_status dls_partition_solve_impl(const dls_platform *platform, uint64_t n,
                                           const dls_partition_params *params, dls_partition **out,
                                           dls_error *err)
{
    dls_partition_params defaults;
    dls_status st = check_call(platform, n, &params, &defaults, out, "dls_partition_solve", err);
    if (st != DLS_OK)
        return st;
    if (params->exact == DLS_PARTITION_EXACT_ALWAYS)
        return dls__fail(err, DLS_EINVAL, "dls_partition_solve", "exact = always applies to the "
                         "rows of matrix partitions (dls_partition_solve_matrix) only");
    size_t p = dls_platform_count(platform);
    const dls_model **models = malloc(p * sizeof *models);
    if (models == NULL)
        return dls__oom(err, "dls_partition_solve");
    for (size_t i = 0; i < p; i++) {
        models[i] = platform->procs[i].model;
        if (platform->procs[i].two_d) {
            free(models);
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_partition_solve",
                                "processor \"%s\" has a 2-D speed model: "
                                "cut it at a fixed size first (striped matrix partitioning "
                                "does so at the matrix order)", dls_platform_name(platform, i));
        }
    }
    st = run(platform, models, n, params, 0, out, err);
    free(models);
    return st;
}

dls_status dls_partition_solve(const dls_platform *platform, uint64_t n,
                               const dls_partition_params *params, dls_partition **out,
                               dls_error *err)
{
    dls_status st = dls_partition_solve_impl(platform, n, params, out, err);
    return dls__error_retag(err, st, "dls_partition_solve");
}

dls_status dls__model_scale_time(const dls_model *m, double factor, dls_model **out, dls_error *err)
{
    dls_model *c;
    dls_status st = dls_model_copy(m, &c, err);
    if (st != DLS_OK)
        return st;
    switch (c->kind) {
    case DLS_MODEL_CONSTANT:
        c->constant /= factor;
        break;
    case DLS_MODEL_POINTS:
        for (size_t k = 0; k < c->n; k++) {
            c->speed[k] /= factor;
            if (c->bands) {
                c->low[k] /= factor;
                c->high[k] /= factor;
            }
        }
        break;
    case DLS_MODEL_TIME_LINES:
        for (size_t l = 0; l < c->n; l++) {
            c->a[l] *= factor;
            c->b[l] *= factor;
        }
        break;
    case DLS_MODEL_SPEED2D:
        for (size_t k = 0; k < c->n * c->ny; k++)
            c->gv[k] /= factor;
        break;
    }
    dls__problem pb;
    int bad = (c->kind == DLS_MODEL_CONSTANT && dls__check_speed(c->constant, &pb)) ||
              (c->kind == DLS_MODEL_POINTS &&
               dls__check_points(c->n, c->size, c->speed, c->low, c->high, &pb)) ||
              (c->kind == DLS_MODEL_TIME_LINES && dls__check_lines(c->n, c->a, c->b, &pb));
    if (bad) {
        dls_model_free(c);
        return dls__fail(err, DLS_ERANGE, NULL, "scaling a model by %.10g: %s", factor, pb.text);
    }
    dls__set_increasing_extent(c);
    *out = c;
    return DLS_OK;
}

static dls_status dls_partition_solve_matrix_impl(const dls_platform *platform, uint64_t n,
                                                  const dls_partition_params *params,
                                                  dls_partition **out, dls_error *err)
{
    dls_partition_params defaults;
    dls_status st = check_call(platform, n, &params, &defaults, out, "dls_partition_solve_matrix",
                               err);
    if (st != DLS_OK)
        return st;
    if (params->weights != NULL)
        return dls__fail(err, DLS_EINVAL, "dls_partition_solve_matrix", "rows are equal elements; "
                         "weights must be NULL");
    if (n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_partition_solve_matrix",
                         "the matrix order must be > 0");
    size_t p = dls_platform_count(platform);
    dls_model **models = calloc(p, sizeof *models);
    if (models == NULL)
        return dls__oom(err, "dls_partition_solve_matrix");
    double order = (double)n;
    for (size_t i = 0; i < p && st == DLS_OK; i++) {
        /* the speed in rows per second is s(n, r) / n^2 */
        dls_model *section;
        st = dls_model_section(dls_platform_model(platform, i), order, &section, err);
        if (st == DLS_OK) {
            st = dls__model_scale_time(section, order * order, &models[i], err);
            dls_model_free(section);
        }
        if (st != DLS_OK && err != NULL) {
            char msg[DLS_ERROR_MESSAGE_MAX];
            snprintf(msg, sizeof msg, "%s", err->message);
            dls__fail_at(err, st, 0, 0, (long)i, "dls_partition_solve_matrix",
                         "processor \"%s\": %s", dls_platform_name(platform, i), msg);
        }
    }
    if (st == DLS_OK)
        st = run(platform, (const dls_model *const *)models, n, params, 1, out, err);
    for (size_t i = 0; i < p; i++)
        dls_model_free(models[i]);
    free(models);
    return st;
}

dls_status dls_partition_solve_matrix(const dls_platform *platform, uint64_t n,
                                      const dls_partition_params *params, dls_partition **out,
                                      dls_error *err)
{
    dls_status st = dls_partition_solve_matrix_impl(platform, n, params, out, err);
    return dls__error_retag(err, st, "dls_partition_solve_matrix");
}

/* ---------------------------------------------------------------------------------- */
/* Accessors                                                                          */

dls_solution_status dls_partition_status(const dls_partition *r) { return r->status; }
int dls_partition_shape_ok(const dls_partition *r) { return r->shape_ok; }
int dls_partition_exact_used(const dls_partition *r) { return r->exact_used; }
const char *dls_partition_note(const dls_partition *r) { return r->note; }
size_t dls_partition_count(const dls_partition *r) { return r->p; }
uint64_t dls_partition_total(const dls_partition *r) { return r->n; }
const uint64_t *dls_partition_elements(const dls_partition *r) { return r->elements; }
const double *dls_partition_sizes(const dls_partition *r) { return r->sizes; }
const double *dls_partition_times(const dls_partition *r) { return r->times; }
const uint64_t *dls_partition_first(const dls_partition *r) { return r->first; }
const size_t *dls_partition_assignment(const dls_partition *r) { return r->assignment; }
double dls_partition_makespan(const dls_partition *r) { return r->makespan; }
double dls_partition_lower_bound(const dls_partition *r) { return r->lower_bound; }
double dls_partition_gap(const dls_partition *r) { return r->gap; }
const double *dls_partition_ideal(const dls_partition *r) { return r->ideal; }
double dls_partition_metric_value(const dls_partition *r) { return r->metric; }
unsigned dls_partition_steps(const dls_partition *r) { return r->steps; }
double dls_partition_capacity(const dls_partition *r) { return r->capacity; }
const size_t *dls_partition_order(const dls_partition *r) { return r->order; }
