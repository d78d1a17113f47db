/* The search for the chunk size with the smallest makespan. The makespan is a
 * discontinuous function of the chunk size (it jumps whenever the number of chunks or the
 * processor that gets the last one changes), so the search evaluates candidates exactly
 * rather than trusting derivatives: a log-spaced grid over every useful size, the sizes that
 * cut the load into whole rounds next to each grid point (no short last round), the range
 * ends and the heuristic; then passes between the neighbours of the best size so far. Each
 * evaluation is the O(p) closed form. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"
#include "installment/installment_impl.h"

/* Room for the samples of a first allocation (a default sweep tries about 700 sizes). */

typedef struct sample {
    double chunk, makespan;
} sample;

typedef struct sweep {
    const dls_platform *pl;
    const dls_installment_params *par;
    double V;
    dls__inst_plan plan;
    sample *s;
    size_t n, cap;
    int nomem;
} sweep;

static void add(sweep *w, double chunk)
{
    if (w->nomem || !(chunk > 0) || !isfinite(chunk))
        return;
    sample *g = dls__grow(w->s, &w->cap, w->n + 1, sizeof *g);
    if (g == NULL) {
        w->nomem = 1;
        return;
    }
    w->s = g;
    w->s[w->n].chunk = chunk;
    w->s[w->n].makespan = NAN; /* not evaluated yet */
    w->n++;
}

/* Number of processors whose limit holds a chunk of this size (at least 1 so that the
 * whole-round sizes stay defined; the evaluation sees the truth). */
static size_t rotation_at(const sweep *w, double chunk)
{
    double full = fmin(chunk, w->V);
    size_t p = 0;
    for (size_t i = 0; i < dls_platform_count(w->pl); i++)
        p += dls__inst_limit(w->pl, i, w->par) >= full;
    return p > 0 ? p : 1;
}

/* The whole-round sizes V / (p r) on either side of a chunk size. */
static void add_whole_rounds(sweep *w, double chunk)
{
    double p = (double)rotation_at(w, chunk);
    double r = w->V / (p * chunk);
    double lo = floor(r), hi = ceil(r);
    if (lo >= 1)
        add(w, w->V / (p * lo));
    if (hi >= 1 && hi != lo)
        add(w, w->V / (p * hi));
}

static int by_chunk(const void *a, const void *b)
{
    double x = ((const sample *)a)->chunk, y = ((const sample *)b)->chunk;
    return (x > y) - (x < y);
}

/* Evaluates the samples from `from` on (those outside [lo, hi] are dropped), then sorts
 * all of them and removes duplicates. A size that cannot be simulated (dls__inst_plan_make
 * fails only when no processor holds it or it makes too many chunks) gets INFINITY. */
static void evaluate(sweep *w, size_t from, double lo, double hi)
{
    for (size_t k = from; k < w->n; k++) {
        sample *s = &w->s[k];
        if (s->chunk < lo || s->chunk > hi)
            s->chunk = NAN;
        else if (dls__inst_plan_make(w->pl, w->V, s->chunk, w->par, &w->plan, NULL) == DLS_OK)
            s->makespan = dls__inst_makespan(&w->plan);
        else
            s->makespan = INFINITY;
    }
    size_t keep = 0;
    for (size_t k = 0; k < w->n; k++)
        if (!isnan(w->s[k].chunk))
            w->s[keep++] = w->s[k];
    w->n = keep;
    qsort(w->s, w->n, sizeof *w->s, by_chunk);
    keep = 0;
    for (size_t k = 0; k < w->n; k++)
        if (keep == 0 || w->s[k].chunk != w->s[keep - 1].chunk)
            w->s[keep++] = w->s[k];
    w->n = keep;
}

/* The best sample: the smallest makespan, the larger chunk among equal ones (fewer
 * messages for the same result). */
static size_t best(const sweep *w)
{
    size_t b = 0;
    for (size_t k = 1; k < w->n; k++)
        if (w->s[k].makespan <= w->s[b].makespan)
            b = k;
    return b;
}

/* count log-spaced sizes strictly inside (a, b), a < b. */
static void add_between(sweep *w, double a, double b, unsigned count)
{
    double la = log(a), lb = log(b);
    for (unsigned q = 1; q <= count; q++)
        add(w, exp(la + (lb - la) * q / (count + 1)));
}

/* Whole-round sizes V / (p r) inside [a, b]: all of them when they are few, else count of
 * them spread evenly in log r. */
static void add_rounds_between(sweep *w, double a, double b, unsigned count)
{
    double p = (double)rotation_at(w, sqrt(a * b));
    double r_lo = ceil(w->V / (p * b)), r_hi = floor(w->V / (p * a));
    if (r_lo < 1)
        r_lo = 1;
    if (!(r_hi >= r_lo) || count == 0)
        return;
    if (r_hi - r_lo + 1 <= count) {
        for (double r = r_lo; r <= r_hi; r++)
            add(w, w->V / (p * r));
        return;
    }
    double l0 = log(r_lo), l1 = log(r_hi), last = count > 1 ? count - 1 : 1;
    for (unsigned q = 0; q < count; q++)
        add(w, w->V / (p * floor(exp(l0 + (l1 - l0) * q / last))));
}

/* After stage done of total (the grid, then each refinement pass): the progress callback,
 * which may cancel the sweep (returns non-zero then). */
static int sweep_progress(const dls_installment_params *par, unsigned done, unsigned total)
{
    return par->progress != NULL &&
           par->progress((double)done / (double)total, par->progress_data) != 0;
}

/* The first grid: sizes from V / max_chunks (or 2^-52 of the load) up to the whole load or
 * the largest limit (*widest), evenly on a log scale, each with its whole-round neighbours,
 * and the analysis's sizes. [*lo, *hi] is the range. */
static void sweep_grid(sweep *w, const dls_installment_analysis *an, double *lo, double *hi,
                       double *widest)
{
    const dls_installment_params *params = w->par;
    double load = w->V;
    *widest = 0;
    for (size_t i = 0; i < dls_platform_count(w->pl); i++)
        *widest = fmax(*widest, dls__inst_limit(w->pl, i, params));
    *hi = fmin(load, *widest);
    *lo = fmin(load / params->max_chunks, *hi);
    /* below 2^-53 of the load the chunk count would not be exact */
    *lo = fmax(*lo, load / (double)DLS_INSTALLMENT_MAX_CHUNKS * 2);
    if (*lo > *hi)
        *lo = *hi;
    double decades = log10(*hi / *lo);
    unsigned steps = (unsigned)ceil(decades * params->grid_per_decade);
    for (unsigned q = 0; q <= steps; q++) {
        double c = q == 0 ? *lo : q == steps ? *hi : *lo * pow(*hi / *lo, (double)q / steps);
        add(w, c);
        add_whole_rounds(w, c);
    }
    if (an->formula_reason == DLS_INSTALLMENT_DEFINED) {
        add(w, an->formula);
        add_whole_rounds(w, an->formula);
    }
    if (an->lower_reason == DLS_INSTALLMENT_DEFINED)
        add(w, an->lower);
    if (isfinite(an->upper))
        add(w, an->upper);
}

/* The grid evaluated, then refined around the best size; 1 when the progress callback
 * canceled the sweep. */
static int sweep_refine(sweep *w, double lo, double hi)
{
    const dls_installment_params *params = w->par;
    evaluate(w, 0, lo, hi);
    unsigned stages = 1 + params->refine_passes;
    int canceled = sweep_progress(params, 1, stages);
    for (unsigned pass = 0; !w->nomem && !canceled && pass < params->refine_passes; pass++) {
        if (w->n < 2)
            break;
        size_t b = best(w), before = w->n;
        double a = w->s[b > 0 ? b - 1 : b].chunk, c = w->s[b + 1 < w->n ? b + 1 : b].chunk;
        if (a < c) {
            add_between(w, a, c, params->refine_points);
            add_rounds_between(w, a, c, params->refine_points);
        }
        if (w->n == before)
            break;
        evaluate(w, before, lo, hi);
        canceled = sweep_progress(params, 2 + pass, stages);
    }
    return canceled;
}

/* The schedule of the best size, with the samples tried. */
static dls_status sweep_result(sweep *w, const char *who, dls_installment **out,
                               dls_error *err)
{
    dls_installment *res = NULL;
    double chunk = w->s[best(w)].chunk;
    dls_status st = dls__inst_plan_make(w->pl, w->V, chunk, w->par, &w->plan, err);
    if (st == DLS_OK)
        st = dls__inst_result(w->pl, w->par, &w->plan, &res, err);
    if (st != DLS_OK)
        return st;
    double *xs = malloc(w->n * sizeof *xs), *ys = malloc(w->n * sizeof *ys);
    if (xs == NULL || ys == NULL) {
        free(xs);
        free(ys);
        dls_installment_free(res);
        return dls__oom(err, who);
    }
    for (size_t k = 0; k < w->n; k++) {
        xs[k] = w->s[k].chunk;
        ys[k] = w->s[k].makespan;
    }
    dls__inst_set_samples(res, w->n, xs, ys);
    *out = res;
    return DLS_OK;
}

static dls_status dls_installment_sweep_impl(const dls_platform *platform, double load,
                                             const dls_installment_params *params,
                                             dls_installment **out, dls_error *err)
{
    static const char who[] = "dls_installment_sweep";
    dls_installment_params defaults;
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, who, "NULL argument");
    if (params == NULL) {
        dls_installment_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__inst_check_params(params, who, err);
    if (st == DLS_OK)
        st = dls__inst_check_load(load, who, err);
    if (st != DLS_OK)
        return st;
    st = dls__inst_check_platform(platform, who, err);
    if (st != DLS_OK)
        return st;
    dls_installment_analysis an;
    st = dls_installment_analyze(platform, params, &an, err);
    if (st != DLS_OK)
        return st;
    sweep w;
    memset(&w, 0, sizeof w);
    w.pl = platform;
    w.par = params;
    w.V = load;
    if (dls__inst_plan_alloc(&w.plan, dls_platform_count(platform)) != 0)
        return dls__oom(err, who);
    double lo, hi, widest;
    sweep_grid(&w, &an, &lo, &hi, &widest);
    int canceled = sweep_refine(&w, lo, hi);
    if (canceled)
        st = dls__fail(err, DLS_ECANCELED, who, "canceled by the progress callback");
    else if (w.nomem)
        st = dls__oom(err, who);
    if (st == DLS_OK && (w.n == 0 || !isfinite(w.s[best(&w)].makespan)))
        st = dls__fail(err, DLS_ERANGE, who, "no chunk size from %.10g to %.10g can be simulated: "
                       "the largest limit, %.10g, cuts a load of %.10g into more than 2^53 "
                       "chunks", lo, hi, widest, load);
    if (st == DLS_OK)
        st = sweep_result(&w, who, out, err);
    free(w.s);
    dls__inst_plan_free(&w.plan);
    return st;
}

dls_status dls_installment_sweep(const dls_platform *platform, double load,
                                 const dls_installment_params *params, dls_installment **out,
                                 dls_error *err)
{
    dls_status st = dls_installment_sweep_impl(platform, load, params, out, err);
    return dls__error_retag(err, st, "dls_installment_sweep");
}
