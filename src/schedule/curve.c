/* The makespan as a function of the load (dls_schedule_curve): the chain solver's value
 * function of the whole sequence, read as T(V) over a range. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chain/chain.h"
#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"

struct dls_curve {
    size_t n;
    double *load, *makespan;
    int exact;
};

void dls_curve_free(dls_curve *c)
{
    if (c == NULL)
        return;
    free(c->load);
    free(c->makespan);
    free(c);
}

static dls_status dls_schedule_curve_impl(const dls_platform *platform, double load_min,
                                          double load_max, const dls_schedule_params *params,
                                          dls_curve **out, dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve: NULL argument");
    dls_status st = dls__schedule_params_check(params, err);
    if (st != DLS_OK)
        return st;
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve: the platform has no processor");
    if (params->solver != DLS_SOLVER_CHAIN)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve: the curve comes from the chain "
                         "solver's value function, not from %s",
                         dls_star_solver_name(params->solver));
    if (!(load_min > 0) || !(load_max > load_min) || !isfinite(load_max))
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve: the range of loads must have 0 < "
                         "load_min < load_max, finite, not [%.10g, %.10g]", load_min, load_max);
    char *note = NULL;
    dls__star star;
    st = dls__star_build(platform, load_max, params, 1, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    dls__chain_params cp;
    dls__chain_params_init(&cp);
    cp.mode = params->drop_unused ? DLS__CHAIN_SELECT : DLS__CHAIN_PAPER;
    cp.max_work = params->max_pieces;
    if (cp.max_work != 0 && cp.max_work < cp.max_pieces)
        cp.max_pieces = cp.max_work;
    cp.platform = platform;
    dls__chain_curve cv;
    st = dls__chain_curve_build(&star, &cp, load_min, load_max, &cv, err);
    dls__star_free(&star);
    if (st != DLS_OK)
        return st;
    dls_curve *c = malloc(sizeof *c);
    if (c == NULL) {
        dls__chain_curve_free(&cv);
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_curve: out of memory");
    }
    c->n = cv.n;
    c->load = cv.load;
    c->makespan = cv.makespan;
    c->exact = cv.exact;
    *out = c;
    return DLS_OK;
}

dls_status dls_schedule_curve(const dls_platform *platform, double load_min, double load_max,
                              const dls_schedule_params *params, dls_curve **out,
                              dls_error *err)
{
    dls_status st = dls_schedule_curve_impl(platform, load_min, load_max, params, out, err);
    return dls__error_retag(err, st, "dls_schedule_curve");
}

size_t dls_curve_count(const dls_curve *c) { return c->n; }
const double *dls_curve_loads(const dls_curve *c) { return c->load; }
const double *dls_curve_makespans(const dls_curve *c) { return c->makespan; }
int dls_curve_exact(const dls_curve *c) { return c->exact; }

double dls_curve_makespan_at(const dls_curve *c, double load)
{
    if (!(load >= c->load[0] && load <= c->load[c->n - 1]))
        return NAN;
    /* the last point at or below the load (the larger value where T jumps) */
    size_t lo = 0, hi = c->n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->load[mid] <= load)
            lo = mid;
        else
            hi = mid;
    }
    if (c->load[hi] <= load)
        return c->makespan[hi];
    double span = c->load[hi] - c->load[lo];
    if (!(span > 0))
        return c->makespan[hi];
    return c->makespan[lo] + (c->makespan[hi] - c->makespan[lo]) * ((load - c->load[lo]) / span);
}
