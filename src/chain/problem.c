/* The star in the chain's units: loads in a power of two near V, times in a power of two
 * near a typical time (scaling by powers of two adds no rounding), the magnitude rule of
 * chain.h, and what each position can take: the load it can finish when its send starts
 * with Z seconds left, and the load it computes in r seconds (the inverse of its time). */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_impl.h"
#include "chain/chain_impl.h"

void dls__cprob_free(dls__cprob *pb)
{
    free(pb->S);
    free(pb->C);
    free(pb->Bt);
    free(pb->amax);
    free(pb->a);
    free(pb->b);
    free(pb->w);
    memset(pb, 0, sizeof *pb);
}

const char *dls__cprob_name(const dls__chain_params *par, const dls__star *st, size_t k,
                            char *buf, size_t size)
{
    if (par != NULL && par->platform != NULL && st->proc != NULL &&
        st->proc[k] < par->platform->n)
        snprintf(buf, size, "processor \"%s\"", par->platform->procs[st->proc[k]].name);
    else
        snprintf(buf, size, "position %zu of the send order", k + 1);
    return buf;
}

/* The power of two nearest to t (t > 0, finite). */
static double nearest_pow2(double t)
{
    int e;
    double mant = frexp(t, &e); /* t = mant 2^e, mant in [0.5, 1) */
    return ldexp(1.0, mant < M_SQRT1_2 ? e - 1 : e);
}

/* A value beyond the range of the rule: the message names the processor, what and how
 * big. */
static dls_status too_big(const dls__chain_params *par, const dls__star *st, size_t k,
                          const char *what, double raw, double scaled, double tu,
                          dls_error *err)
{
    char name[160];
    return dls__fail_at(err, DLS_ERANGE, 0, 0, (long)st->proc[k], "schedule",
                        "%s: %s %.6g is %.3g times the typical time of this "
                        "platform (%.3g s), beyond the range the chain computes in (2^500, "
                        "about 3e150): no double-precision solver can weigh it against the "
                        "other processors", dls__cprob_name(par, st, k, name, sizeof name),
                        what, raw, scaled, tu);
}

/* With selection, a position that cannot finish any load before the best processor alone
 * finishes all of it (its startup and its smallest time are beyond that) is never used: it
 * gets no room, and it does not set the time unit, which a startup of 10^18 s beside
 * makespans of 100 s would make 2^60, leaving the others' times below the unit's precision.
 * Sets pb->single and pb->hopeless; *hopeless (by position) stays NULL when none can be. */
static dls_status find_hopeless(const dls__star *st, double vmax, const dls__chain_params *par,
                                dls__cprob *pb, unsigned char **hopeless, dls_error *err)
{
    size_t m = st->m;
    *hopeless = NULL;
    pb->single = m;
    if (par == NULL || par->mode != DLS__CHAIN_SELECT || m <= 1)
        return DLS_OK;
    double U = INFINITY;
    for (size_t k = 0; k < m; k++) {
        if (!(st->B[k] >= vmax))
            continue;
        double t = -INFINITY;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            t = fmax(t, st->a[l] + st->b[l] * vmax);
        if (st->S[k] + st->C[k] * vmax + t < U) {
            U = st->S[k] + st->C[k] * vmax + t;
            pb->single = k;
        }
    }
    if (U < INFINITY && (*hopeless = calloc(m, 1)) == NULL)
        return dls__oom(err, "schedule");
    for (size_t k = 0; *hopeless != NULL && k < m; k++) {
        double amax = 0;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
            amax = fmax(amax, st->a[l]);
        (*hopeless)[k] = st->S[k] + amax > U * (1 + DLS__CHAIN_HOPELESS_MARGIN);
        pb->hopeless += (*hopeless)[k];
    }
    return DLS_OK;
}

/* The units: V lands in [1, 2); the typical time is the larger of the sends' startups (with
 * the largest intercept) and V over the total speed. Sets pb's lu, tu, V, capacity and
 * max_lines. */
static void chain_units(const dls__star *st, double vmax, const unsigned char *hopeless,
                        dls__cprob *pb)
{
    int e;
    frexp(vmax, &e);
    double lu = ldexp(1.0, e - 1);
    double sum_s = 0, top_a = 0, speed = 0;
    pb->capacity = 0;
    for (size_t k = 0; k < st->m; k++) {
        pb->capacity += st->B[k];
        if (hopeless != NULL && hopeless[k])
            continue;
        double bmin = INFINITY;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            bmin = fmin(bmin, st->b[l]);
            top_a = fmax(top_a, st->a[l]);
        }
        sum_s += st->S[k];
        speed += 1.0 / (st->C[k] + bmin);
        pb->max_lines = st->off[k + 1] - st->off[k] > pb->max_lines ? st->off[k + 1] - st->off[k]
                                                                    : pb->max_lines;
    }
    double typical = fmax(sum_s + top_a, vmax / speed);
    if (!(typical > 0) || !isfinite(typical))
        typical = isfinite(sum_s + top_a) && sum_s + top_a > 0 ? sum_s + top_a : 1.0;
    pb->lu = lu;
    pb->tu = nearest_pow2(typical);
    pb->V = vmax / lu;
}

/* A position never used: no room, and numbers that cannot disturb the others. */
static void hopeless_position(const dls__star *st, size_t k, dls__cprob *pb)
{
    pb->S[k] = pb->C[k] = 0;
    pb->Bt[k] = 0;
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
        pb->a[l] = pb->b[l] = 0;
        pb->w[l] = INFINITY;
    }
    pb->amax[k] = 0;
}

/* Position k in the chain's units, within the magnitude rule (DLS_ERANGE beyond it);
 * coefficients too small to matter are flushed to 0 (counted in pb->flushed). */
static dls_status scale_position(const dls__star *st, size_t k, double vmax,
                                 const dls__chain_params *par, dls__cprob *pb, dls_error *err)
{
    const double range = DLS__CHAIN_RANGE, tiny = 1.0 / DLS__CHAIN_RANGE;
    double lu = pb->lu, tu = pb->tu;
    double S = st->S[k] / tu, C = st->C[k] * (lu / tu);
    if (!(S <= range))
        return too_big(par, st, k, "its startup (s)", st->S[k], S, tu, err);
    if (!(C * pb->V <= range))
        return too_big(par, st, k, "its rate (s per unit) times the load", st->C[k] * vmax,
                       C * pb->V, tu, err);
    if (C > 0 && C * pb->V < tiny) {
        C = 0;
        pb->flushed++;
    }
    pb->S[k] = S;
    pb->C[k] = C;
    pb->Bt[k] = fmin(st->B[k] / lu, 2 * pb->V); /* finite; never binding below 2 V */
    double amax = -INFINITY;
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
        double a = st->a[l] / tu, b = st->b[l] * (lu / tu);
        if (!(fabs(a) <= range))
            return too_big(par, st, k, "a time line's intercept (s)", st->a[l], a, tu, err);
        if (!(b * pb->V <= range))
            return too_big(par, st, k, "a time line's slope (s per unit) times the load",
                           st->b[l] * vmax, b * pb->V, tu, err);
        if (b > 0 && b * pb->V < tiny) {
            b = 0;
            pb->flushed++;
        }
        pb->a[l] = a;
        pb->b[l] = b;
        pb->w[l] = 1.0 / (C + b); /* INFINITY: the line bounds no load */
        amax = fmax(amax, a);
    }
    DLS__ASSERT(amax >= 0);
    pb->amax[k] = amax;
    return DLS_OK;
}

dls_status dls__cprob_build(const dls__star *st, double vmax, const dls__chain_params *par,
                            dls__cprob *pb, dls_error *err)
{
    size_t m = st->m, nl = st->off[m];
    memset(pb, 0, sizeof *pb);
    pb->st = st;
    pb->m = m;
    pb->paper_method = par != NULL ? par->paper_method : DLS__CHAIN_PAPER_AUTO;
    pb->S = malloc(m * sizeof *pb->S);
    pb->C = malloc(m * sizeof *pb->C);
    pb->Bt = malloc(m * sizeof *pb->Bt);
    pb->amax = malloc(m * sizeof *pb->amax);
    pb->a = malloc((nl ? nl : 1) * sizeof *pb->a);
    pb->b = malloc((nl ? nl : 1) * sizeof *pb->b);
    pb->w = malloc((nl ? nl : 1) * sizeof *pb->w);
    if (!pb->S || !pb->C || !pb->Bt || !pb->amax || !pb->a || !pb->b || !pb->w) {
        dls__cprob_free(pb);
        return dls__oom(err, "schedule");
    }
    unsigned char *hopeless;
    dls_status rc = find_hopeless(st, vmax, par, pb, &hopeless, err);
    if (rc == DLS_OK)
        chain_units(st, vmax, hopeless, pb);
    for (size_t k = 0; k < m && rc == DLS_OK; k++) {
        if (hopeless != NULL && hopeless[k])
            hopeless_position(st, k, pb);
        else
            rc = scale_position(st, k, vmax, par, pb, err);
    }
    free(hopeless);
    if (rc != DLS_OK)
        dls__cprob_free(pb);
    return rc;
}

void dls__vcurve_build(const dls__cprob *pb, size_t p, dls__vcurve *vc)
{
    const dls__star *st = pb->st;
    size_t lo = st->off[p], hi = st->off[p + 1];
    double Bt = pb->Bt[p];
    vc->pb = pb;
    vc->p = p;
    /* the line on top at 0: the largest intercept, then the steepest */
    size_t top = lo;
    for (size_t l = lo + 1; l < hi; l++)
        if (pb->a[l] > pb->a[top] || (pb->a[l] == pb->a[top] && pb->b[l] > pb->b[top]))
            top = l;
    size_t n = 0;
    double at = 0;
    vc->r[n] = pb->a[top];
    vc->al[n++] = 0;
    for (;;) {
        /* the next line to rise above the top one */
        size_t next = hi;
        double when = INFINITY;
        for (size_t l = lo; l < hi; l++) {
            if (!(pb->b[l] > pb->b[top]))
                continue;
            double x = (pb->a[top] - pb->a[l]) / (pb->b[l] - pb->b[top]);
            if (x > at && (x < when || (x == when && pb->b[l] > pb->b[next])))
                next = l, when = x;
        }
        if (next == hi || !(when < Bt))
            break;
        at = when;
        top = next;
        vc->r[n] = pb->a[top] + pb->b[top] * at;
        vc->al[n++] = at;
    }
    vc->r[n] = pb->b[top] > 0 ? pb->a[top] + pb->b[top] * Bt : pb->a[top];
    vc->al[n++] = Bt;
    /* equal times (a flat start, a line with slope 0 on top): v takes the largest load */
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
        if (k > 0 && vc->r[j] <= vc->r[k - 1])
            k--;
        vc->r[k] = vc->r[j];
        vc->al[k++] = vc->al[j];
    }
    vc->n = k;
}

double dls__vcurve_at(const dls__vcurve *vc, double r)
{
    size_t n = vc->n;
    if (r >= vc->r[n - 1])
        return vc->al[n - 1];
    if (r <= vc->r[0])
        return vc->al[0];
    size_t lo = 0, hi = n - 1; /* r[lo] < r < r[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (vc->r[mid] <= r)
            lo = mid;
        else
            hi = mid;
    }
    double t = (r - vc->r[lo]) / (vc->r[hi] - vc->r[lo]);
    return vc->al[lo] + t * (vc->al[hi] - vc->al[lo]);
}
