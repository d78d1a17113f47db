/* The chunk-size analysis of multi-installment processing (Drozdowski and Wolniewicz 2003, section
 * 2): each processor's in-core line, out-of-core slope and swap point; the range of reasonable
 * chunk sizes; the heuristic chunk size (formula (5) and its general form), with the reason and
 * the processor when a value is undefined. The derivations are in dlsched/installment.h. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "installment/installment_impl.h"
#include "platform/platform_impl.h"

DLS__ENUM_NAMES(dls_installment_reason, dls_installment_reason, DLS_INSTALLMENT_REASON_MAP)
DLS__ENUM_NAMES(dls_installment_role, dls_installment_role, DLS_INSTALLMENT_ROLE_MAP)

/* The levels of a 1-D model (the caller has excluded 2-D ones). */
static dls_status model_levels(const dls_model *m, dls_installment_levels *lv, dls_error *err)
{
    memset(lv, 0, sizeof *lv);
    lv->supported = 0;
    lv->in_core_a = lv->in_core_b = lv->out_of_core_b = lv->swap_point = NAN;
    switch (dls_model_get_kind(m)) {
    case DLS_MODEL_CONSTANT:
        /* time x / s: one line through the origin, no memory level to swap to */
        lv->supported = 1;
        lv->in_core_a = 0;
        lv->in_core_b = 1 / dls_model_constant_speed(m);
        lv->out_of_core_b = lv->in_core_b;
        lv->swap_point = INFINITY;
        return DLS_OK;
    case DLS_MODEL_TIME_LINES: {
        /* the envelope over every size lists the lines on top from left to right: the first
         * is in core, the second takes over at the first kink */
        dls_model *env;
        dls_status st = dls_model_convex_envelope(m, DBL_MAX, NULL, &env, NULL, err);
        if (st != DLS_OK)
            return st;
        size_t n;
        const double *a, *b;
        dls_model_get_lines(env, &n, &a, &b);
        lv->supported = 1;
        lv->in_core_a = a[0];
        lv->in_core_b = b[0];
        if (n >= 2) {
            lv->out_of_core_b = b[1];
            lv->swap_point = (a[0] - a[1]) / (b[1] - b[0]);
        } else {
            lv->out_of_core_b = b[0];
            lv->swap_point = INFINITY;
        }
        dls_model_free(env);
        return DLS_OK;
    }
    case DLS_MODEL_POINTS:
    case DLS_MODEL_SPEED2D:
        break;
    }
    return DLS_OK;
}

dls_status dls_installment_memory_levels(const dls_platform *pl, size_t i,
                                         dls_installment_levels *out, dls_error *err)
{
    static const char who[] = "dls_installment_memory_levels";
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, who, "NULL argument");
    if (i >= pl->n)
        return dls__fail(err, DLS_EINVAL, who, "no processor %zu (the platform has %zu)", i,
                         pl->n);
    if (pl->procs[i].two_d)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, who,
                            "processor \"%s\" has a 2-D speed model: it has no memory levels "
                            "of one size (take a section)", pl->procs[i].name);
    dls_installment_levels lv;
    dls_status st = model_levels(pl->procs[i].model, &lv, err);
    if (st == DLS_OK)
        *out = lv;
    return st;
}

/* Sum with Neumaier's compensation: platforms of 10^6 processors keep every digit that
 * matters in the differences the formulas take. */
typedef struct sum {
    double s, c;
} sum;

static void sum_add(sum *a, double v)
{
    double t = a->s + v;
    if (fabs(a->s) >= fabs(v))
        a->c += (a->s - t) + v;
    else
        a->c += (v - t) + a->s;
    a->s = t;
}

static double sum_value(const sum *a)
{
    return a->s + a->c;
}

/* The ends of the range and the formula once every processor is supported. */
static void analyze_supported(const dls_platform *pl, const dls_installment_params *par,
                              const dls_installment_levels *lv, dls_installment_analysis *an)
{
    size_t m = pl->n;
    double sumS = an->sum_startup, sumC = an->sum_rate;
    /* lower end: m delta units per round against the out-of-core speed */
    sum speed = {0, 0};
    int instant = 0;
    for (size_t i = 0; i < m; i++) {
        if (lv[i].out_of_core_b > 0)
            sum_add(&speed, 1 / lv[i].out_of_core_b);
        else
            instant = 1;
    }
    an->out_of_core_speed = instant ? INFINITY : sum_value(&speed);
    double ooc_rate = instant ? 0 : (double)m / an->out_of_core_speed;
    double den = ooc_rate - sumC;
    if (den > 0) {
        an->lower_reason = DLS_INSTALLMENT_DEFINED;
        an->lower = sumS / den;
    } else {
        an->lower_reason = DLS_INSTALLMENT_DENOMINATOR;
        an->lower = NAN;
        snprintf(an->lower_note, sizeof an->lower_note,
                 "no lower end: sending one unit to every processor takes %.6g s, no less "
                 "than the %.6g s the processors together take to compute that many units once "
                 "their memory is full: the sends are slower than the computing whatever the "
                 "chunk size", sumC, ooc_rate);
    }
    /* upper end: every processor's core (and memory) must hold a chunk */
    an->upper = INFINITY;
    an->upper_processor = -1;
    an->upper_is_limit = 0;
    for (size_t i = 0; i < m; i++) {
        double lim = dls__inst_limit(pl, i, par);
        if (lv[i].swap_point < an->upper) {
            an->upper = lv[i].swap_point;
            an->upper_processor = (long)i;
            an->upper_is_limit = 0;
        }
        if (lim < an->upper) {
            an->upper = lim;
            an->upper_processor = (long)i;
            an->upper_is_limit = 1;
        }
    }
    an->range_empty = an->lower_reason == DLS_INSTALLMENT_DEFINED && an->lower >= an->upper;
    /* the heuristic: each processor computes through a whole round */
    an->formula_reason = DLS_INSTALLMENT_DEFINED;
    an->formula = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        double num = sumS - lv[i].in_core_a, dn = lv[i].in_core_b - sumC;
        const char *name = pl->procs[i].name;
        if (!(num > 0)) {
            an->formula_reason = DLS_INSTALLMENT_NUMERATOR;
            an->formula_bad_value = num;
            snprintf(an->formula_note, sizeof an->formula_note,
                     "processor \"%s\": starting a chunk takes it %.6g s, no less than the "
                     "%.6g s of the startups of a whole round, so no chunk size keeps it busy "
                     "exactly through a round", name, lv[i].in_core_a, sumS);
        } else if (!(dn > 0)) {
            an->formula_reason = DLS_INSTALLMENT_DENOMINATOR;
            an->formula_bad_value = dn;
            snprintf(an->formula_note, sizeof an->formula_note,
                     "processor \"%s\": it computes a unit in %.6g s, no slower than the "
                     "%.6g s a round takes to send a unit to every processor, so it waits for "
                     "its next chunk whatever the chunk size", name,
                     lv[i].in_core_b, sumC);
        } else if (num / dn > an->formula) {
            an->formula = num / dn;
            an->formula_processor = (long)i;
        }
        if (an->formula_reason != DLS_INSTALLMENT_DEFINED) {
            an->formula = NAN;
            an->formula_processor = (long)i;
            return;
        }
    }
    int above = an->lower_reason != DLS_INSTALLMENT_DEFINED || an->formula > an->lower;
    int below = an->formula <= an->upper;
    an->formula_in_range = above && below;
    if (!above)
        snprintf(an->formula_note, sizeof an->formula_note,
                 "the suggested chunk size %.6g is not above the smallest worth considering, "
                 "%.6g", an->formula, an->lower);
    else if (!below)
        snprintf(an->formula_note, sizeof an->formula_note,
                 "the suggested chunk size %.6g is above the largest worth considering, %.6g "
                 "(the %s of processor \"%s\")", an->formula, an->upper,
                 an->upper_is_limit ? "limit" : "size past which it runs out of memory",
                 pl->procs[an->upper_processor].name);
}

static dls_status dls_installment_analyze_impl(const dls_platform *pl, const dls_installment_params *params,
                                               dls_installment_analysis *out, dls_error *err)
{
    static const char who[] = "dls_installment_analyze";
    dls_installment_params defaults;
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, who, "NULL argument");
    if (params == NULL) {
        dls_installment_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__inst_check_params(params, who, err);
    if (st != DLS_OK)
        return st;
    st = dls__inst_check_platform(pl, who, err);
    if (st != DLS_OK)
        return st;
    dls_installment_levels *lv = malloc(pl->n * sizeof *lv);
    if (lv == NULL)
        return dls__oom(err, who);
    dls_installment_analysis an;
    memset(&an, 0, sizeof an);
    an.processors = pl->n;
    an.upper_processor = -1;
    an.formula_processor = -1;
    an.formula_bad_value = NAN;
    sum sS = {0, 0}, sC = {0, 0};
    long unsupported = -1;
    for (size_t i = 0; i < pl->n && st == DLS_OK; i++) {
        st = model_levels(pl->procs[i].model, &lv[i], err);
        if (st == DLS_OK && !lv[i].supported && unsupported < 0)
            unsupported = (long)i;
        sum_add(&sS, pl->procs[i].startup);
        sum_add(&sC, pl->procs[i].rate);
    }
    if (st == DLS_OK) {
        an.sum_startup = sum_value(&sS);
        an.sum_rate = sum_value(&sC);
        if (unsupported >= 0) {
            an.out_of_core_speed = an.lower = an.upper = an.formula = NAN;
            an.lower_reason = an.formula_reason = DLS_INSTALLMENT_NO_LINES;
            an.upper_processor = an.formula_processor = unsupported;
            snprintf(an.formula_note, sizeof an.formula_note,
                     "processor \"%s\" has a %s model: the chunk-size analysis needs time lines "
                     "(memory levels) or a constant speed", pl->procs[unsupported].name,
                     dls_model_kind_name(dls_model_get_kind(pl->procs[unsupported].model)));
            memcpy(an.lower_note, an.formula_note, sizeof an.lower_note);
        } else {
            analyze_supported(pl, params, lv, &an);
        }
        *out = an;
    }
    free(lv);
    return st;
}

dls_status dls_installment_analyze(const dls_platform *pl, const dls_installment_params *params,
                                   dls_installment_analysis *out, dls_error *err)
{
    dls_status st = dls_installment_analyze_impl(pl, params, out, err);
    return dls__error_retag(err, st, "dls_installment_analyze");
}
