/* LU column distributions: parameters, the table of algorithms, the entry point that
 * dispatches to them, and the result accessors. The cost model is in cost.c. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "lu/lu_impl.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

/* The algorithms: their names, whether they work with constant speeds (a platform of
 * other models is then read at its even share), and how each is run. */
typedef dls_status (*lu_run)(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                             lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err);

static dls_status run_gb(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                         lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    (void)par, (void)pr;
    return dls__lu_group_block(e, n, owners, r, err);
}

static dls_status run_dp(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                         lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    (void)par, (void)pr, (void)r;
    return dls__lu_dp(e, n, owners, err);
}

static dls_status run_reverse(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                              lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    return dls__lu_reverse(e, n, DLS_LU_DFLT, par->max_group_states, pr, owners, r, err);
}

static dls_status run_fr(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                         lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    return dls__lu_reverse(e, n, par->heuristic, par->max_group_states, pr, owners, r, err);
}

static dls_status run_fdp(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                          lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    (void)par;
    return dls__lu_fdp(e, n, pr, owners, r, err);
}

static dls_status run_fgb(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                          lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    (void)par, (void)pr;
    return dls__lu_fgb(e, n, owners, r, err);
}

static dls_status run_exact(const lu_eval *e, uint64_t n, const dls_lu_params *par,
                            lu_progress *pr, size_t *owners, dls_lu *r, dls_error *err)
{
    return dls__lu_exact(e, n, par->max_memory, pr, owners, r, err);
}

/* The record of each algorithm, by its value (names come from DLS_LU_ALGORITHM_MAP). */
static const struct lu_algorithm_record {
    dls_lu_algorithm id;
    int constant_speeds;
    lu_run run;
} algorithms[DLS_LU_ALGORITHM_COUNT] = {
    {DLS_LU_GB, 1, run_gb},
    {DLS_LU_DP, 1, run_dp},
    {DLS_LU_REVERSE, 1, run_reverse},
    {DLS_LU_FR, 0, run_fr},
    {DLS_LU_FDP, 0, run_fdp},
    {DLS_LU_FGB, 0, run_fgb},
    {DLS_LU_EXACT, 0, run_exact},
};

DLS__ENUM_NAMES(dls_lu_algorithm, dls_lu_algorithm, DLS_LU_ALGORITHM_MAP)
DLS__ENUM_NAMES(dls_lu_heuristic, dls_lu_heuristic, DLS_LU_HEURISTIC_MAP)

/* Whether h is one of the heuristics. */
static int heuristic_known(dls_lu_heuristic h)
{
    dls_lu_heuristic back;
    return dls_lu_heuristic_from_name(dls_lu_heuristic_name(h), &back) == DLS_OK;
}

/* Defaults of dls_lu_params. */
#define LU_DEFAULT_MAX_MEMORY ((size_t)1 << 30)  /* bytes: the exact method's table */
#define LU_DEFAULT_MAX_GROUP_STATES 1000000      /* an exhaustive group order's states */

void dls_lu_params_init(dls_lu_params *params)
{
    memset(params, 0, sizeof *params);
    params->algorithm = DLS_LU_FR;
    params->heuristic = DLS_LU_AUTO;
    params->use_limits = 1;
    params->max_memory = LU_DEFAULT_MAX_MEMORY;
    params->max_group_states = LU_DEFAULT_MAX_GROUP_STATES;
}

/* ---------------------------------------------------------------------------------- */
/* Entry point                                                                        */

static dls_status check_params(const dls_lu_params *par, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(par, "dls_lu_distribute", dls_lu_params, err);
    if (st != DLS_OK)
        return st;
    if ((unsigned)par->algorithm >= DLS_LU_ALGORITHM_COUNT)
        return dls__fail(err, DLS_EINVAL, "lu", "unknown algorithm %d", (int)par->algorithm);
    if (!heuristic_known(par->heuristic))
        return dls__fail(err, DLS_EINVAL, "lu", "unknown heuristic %d", (int)par->heuristic);
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, "lu", "use_limits must be 0 or 1, not %d",
                         par->use_limits);
    if (par->max_group_states == 0)
        return dls__fail(err, DLS_EINVAL, "lu", "max_group_states must be >= 1");
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

/* The evaluators of one distribution: the truth (the platform's models, or its constant
 * speeds), and the constant speeds at the even share for a constant-speed algorithm on a
 * platform of other models. */
typedef struct lu_setup {
    lu_eval truth, algo;
    const lu_eval *ev;   /* the one the algorithm uses */
    int constant_alg, constant_pl;
    double *speed;       /* reference speeds, p */
} lu_setup;

static void setup_free(lu_setup *su)
{
    if (su->truth.p)
        dls__lu_eval_free(&su->truth);
    if (su->algo.p)
        dls__lu_eval_free(&su->algo);
    free(su->speed);
}

static dls_status setup_init(lu_setup *su, const dls_platform *platform, uint64_t n,
                             const dls_lu_params *params, dls_error *err)
{
    memset(su, 0, sizeof *su);
    size_t p = dls_platform_count(platform);
    su->constant_alg = algorithms[params->algorithm].constant_speeds;
    su->constant_pl = dls__lu_all_constant(platform);
    su->speed = malloc(p * sizeof *su->speed);
    if (su->speed == NULL)
        return dls__oom(err, "dls_lu_distribute");
    dls__lu_reference_speeds(platform, n, su->speed);
    dls_status st = dls__lu_eval_init(&su->truth, platform, params->use_limits,
                                      su->constant_pl ? su->speed : NULL, err);
    if (st == DLS_OK && su->constant_alg && !su->constant_pl)
        st = dls__lu_eval_init(&su->algo, platform, params->use_limits, su->speed, err);
    if (st != DLS_OK) {
        setup_free(su);
        return st;
    }
    su->ev = su->constant_alg && !su->constant_pl ? &su->algo : &su->truth;
    return DLS_OK;
}

/* The cost of the algorithm's distribution under the truth, and its status. */
static dls_status finish(dls_lu *r, const lu_setup *su, dls_error *err)
{
    size_t p = r->p;
    uint64_t n = r->n;
    /* the bound of the algorithm's own evaluator holds for the truth only when they are
     * the same models */
    if (su->ev != &su->truth)
        r->lower_bound = NAN;
    if (su->constant_pl && isnan(r->lower_bound))
        r->lower_bound = dls__lu_constant_bound(&su->truth, n);
    if (r->costs_known && su->ev == &su->truth) {
        /* the algorithm's step times are the truth's: only count and sum */
        memset(r->counts, 0, p * sizeof *r->counts);
        for (uint64_t j = 0; j < n; j++)
            r->counts[r->owners[j]]++;
        r->cost = 0;
        for (uint64_t k = 1; k < n; k++)
            r->cost += r->step_cost[k - 1];
    } else {
        uint64_t *trail = malloc(p * sizeof *trail);
        if (trail == NULL)
            return dls__oom(err, "dls_lu_distribute");
        dls__lu_evaluate(&su->truth, n, r->owners, r->counts, trail, r->step_cost, &r->cost);
        free(trail);
    }
    DLS__ASSERT(isnan(r->lower_bound) || !(r->cost < r->lower_bound * (1 - 1e-9)));
    if (r->algorithm == DLS_LU_EXACT) {
        r->status = DLS_SOLUTION_OPTIMAL;
        r->lower_bound = r->cost;
    } else if (r->lower_bound >= 0 &&
               r->cost <= r->lower_bound + DLS__LU_BOUND_RTOL * r->lower_bound) {
        r->status = DLS_SOLUTION_OPTIMAL;
    }
    if (su->constant_alg && !su->constant_pl && r->note[0] == '\0')
        snprintf(r->note, sizeof r->note, "%s uses constant speeds: each processor's speed at "
                 "the even share s(%llu, %.6g); the cost is that of the true models",
                 dls_lu_algorithm_name(r->algorithm), (unsigned long long)n,
                 (double)n / (double)p);
    return DLS_OK;
}

/* Runs the algorithm on a feasible instance and evaluates its distribution. */
static dls_status distribute(dls_lu *r, const lu_setup *su, const dls_lu_params *params,
                             dls_error *err)
{
    uint64_t n = r->n;
    r->owners = malloc((size_t)n * sizeof *r->owners);
    r->step_cost = n > 1 ? malloc((size_t)(n - 1) * sizeof *r->step_cost) : NULL;
    if (r->owners == NULL || (n > 1 && r->step_cost == NULL))
        return dls__fail(err, DLS_ENOMEM, "dls_lu_distribute", "out of memory for %llu columns",
                         (unsigned long long)n);
    lu_progress pr = {params->progress, params->progress_data, 0};
    r->status = DLS_SOLUTION_FEASIBLE;
    DLS__ASSERT(algorithms[params->algorithm].id == params->algorithm);
    dls_status st = algorithms[params->algorithm].run(su->ev, n, params, &pr, r->owners, r, err);
    if (st != DLS_OK)
        return st;
    if (r->status == DLS_SOLUTION_NOT_FOUND) {
        free(r->owners);
        free(r->step_cost);
        r->owners = NULL;
        r->step_cost = NULL;
        return DLS_OK;
    }
    return finish(r, su, err);
}

static dls_status check_arguments(const dls_platform *platform, uint64_t n,
                                  const dls_lu_params *params, dls_lu **out, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute", "NULL argument");
    if (dls_platform_count(platform) == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute", "the platform has no processor");
    if (n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute", "the number of columns must be "
                         ">= 1");
    if (n > (uint64_t)(SIZE_MAX / sizeof(size_t)) || n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, "dls_lu_distribute", "%llu columns is more than this "
                         "machine can index", (unsigned long long)n);
    return check_params(params, err);
}

static dls_status dls_lu_distribute_impl(const dls_platform *platform, uint64_t n,
                                         const dls_lu_params *params, dls_lu **out, dls_error *err)
{
    dls_lu_params defaults;
    if (params == NULL) {
        dls_lu_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = check_arguments(platform, n, params, out, err);
    if (st != DLS_OK)
        return st;
    size_t p = dls_platform_count(platform);
    dls_lu *r = calloc(1, sizeof *r);
    if (r == NULL || (r->counts = calloc(p, sizeof *r->counts)) == NULL) {
        free(r);
        return dls__oom(err, "dls_lu_distribute");
    }
    r->algorithm = params->algorithm;
    r->heuristic = params->heuristic;
    r->p = p;
    r->n = n;
    r->cost = INFINITY;
    r->lower_bound = NAN;
    lu_setup su;
    st = setup_init(&su, platform, n, params, err);
    if (st != DLS_OK) {
        dls_lu_free(r);
        return st;
    }
    double capacity = 0;
    for (size_t i = 0; i < p; i++)
        capacity += su.truth.cap[i];
    if (capacity < (double)n) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        snprintf(r->note, sizeof r->note, "infeasible: the limits hold at most %.0f columns in "
                 "total, fewer than the %llu to distribute", capacity, (unsigned long long)n);
    } else {
        st = distribute(r, &su, params, err);
    }
    setup_free(&su);
    if (st != DLS_OK) {
        dls_lu_free(r);
        return st;
    }
    *out = r;
    return DLS_OK;
}

dls_status dls_lu_distribute(const dls_platform *platform, uint64_t n,
                             const dls_lu_params *params, dls_lu **out, dls_error *err)
{
    dls_status st = dls_lu_distribute_impl(platform, n, params, out, err);
    return dls__error_retag(err, st, "dls_lu_distribute");
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
