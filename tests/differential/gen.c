/* The differential suite's instances: the generator, random platforms over the input
 * domain (biased toward its edges: one processor, startups or rates of 0, limits holding
 * the load exactly or within 1e-12, magnitudes far apart, measured speeds with bands), and
 * the replay of a distribution written from the platform format's definition alone. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "xoshiro.h"

/* ---------------------------------------------------------------------------------- */
/* The generator */

void diff_rng_init(diff_rng *r, uint64_t seed, uint64_t stream)
{
    test_xoshiro_seed(r->s, seed, stream);
}

uint64_t diff_next(diff_rng *r)
{
    return test_xoshiro_next(r->s);
}

double diff_unif(diff_rng *r) { return (double)(diff_next(r) >> 11) * 0x1.0p-53; }
double diff_range(diff_rng *r, double lo, double hi) { return lo + (hi - lo) * diff_unif(r); }
double diff_log(diff_rng *r, double lo, double hi) { return exp(diff_range(r, log(lo), log(hi))); }
uint64_t diff_below(diff_rng *r, uint64_t n) { return n ? diff_next(r) % n : 0; }
int diff_chance(diff_rng *r, double p) { return diff_unif(r) < p; }

double diff_load(diff_rng *r)
{
    switch (diff_below(r, 8)) {
    case 0:
        return 1; /* the smallest load of whole units */
    case 1:
        return diff_log(r, 1, 100);
    case 2:
        return 1e12 * diff_range(r, 0.5, 1); /* the top of the domain */
    default:
        return diff_log(r, 1, 1e12);
    }
}

size_t diff_count(diff_rng *r, size_t max)
{
    if (max <= 1 || diff_chance(r, 0.12))
        return 1;
    if (max <= 12 || diff_chance(r, 0.8))
        return 2 + (size_t)diff_below(r, (max < 12 ? max : 12) - 1);
    return 13 + (size_t)diff_below(r, max - 12);
}

/* ---------------------------------------------------------------------------------- */
/* Platforms */

static void append(char *what, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void append(char *what, size_t size, const char *fmt, ...)
{
    size_t n = strlen(what);
    if (n + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what + n, size - n, fmt, ap);
    va_end(ap);
}

/* Time lines: 1 to 3 memory levels from slope b, each next one 2 to 20 times steeper past
 * a swap point near the share; a positive intercept now and then. */
static dls_model *lines_model(diff_rng *r, const diff_shape *sh, double b, double share,
                              double T0)
{
    size_t L = 1 + (size_t)diff_below(r, 3);
    double a[3], bb[3], swap = share * diff_log(r, 0.05, 3);
    a[0] = sh->intercepts && diff_chance(r, 0.25) ? T0 * diff_log(r, 1e-5, 1e-1) : 0;
    bb[0] = b;
    for (size_t l = 1; l < L; l++) {
        bb[l] = bb[l - 1] * diff_log(r, 2, 20);
        a[l] = a[l - 1] + (bb[l - 1] - bb[l]) * swap;
        swap *= diff_log(r, 1.5, 10);
    }
    dls_model *m = NULL;
    dls_error err;
    dls_model_create_time_lines(L, a, bb, &m, &err);
    return m;
}

/* Measured speeds: 2 to 6 sizes around the share, a random walk of speeds around 1 / b,
 * with bands half of the time. */
static dls_model *points_model(diff_rng *r, double b, double share)
{
    size_t n = 2 + (size_t)diff_below(r, 5);
    double x[6], s[6], lo[6], hi[6], at = share * diff_log(r, 1e-3, 0.1);
    double top = share * diff_log(r, 1, 10), step = pow(top / at, 1.0 / (double)(n - 1));
    double sp = diff_log(r, 0.5, 2) / b;
    int bands = diff_chance(r, 0.5);
    for (size_t k = 0; k < n; k++) {
        x[k] = k == 0 ? at : x[k - 1] * step;
        s[k] = sp;
        lo[k] = sp * (1 - diff_range(r, 0, 0.1));
        hi[k] = sp * (1 + diff_range(r, 0, 0.1));
        sp *= diff_log(r, 0.5, 1.6);
    }
    dls_model *m = NULL;
    dls_error err;
    dls_model_create_points(n, x, s, bands ? lo : NULL, bands ? hi : NULL, &m, &err);
    return m;
}

/* The limits: none, on some processors, or on all of them summing to V (1 + delta) for a
 * delta from -2^-53 to 1e-9 (the loads then fill every limit, within rounding). */
static void add_limits(diff_rng *r, dls_platform *pl, const diff_shape *sh, char *what,
                       size_t size)
{
    size_t m = sh->m;
    dls_error err;
    double u = diff_unif(r);
    if (u < 0.4)
        return;
    if (u < 0.7) {
        append(what, size, " limits=some");
        for (size_t i = 0; i < m; i++)
            if (diff_chance(r, 0.5))
                dls_platform_set_limit(pl, i, sh->load / (double)m * diff_log(r, 0.3, 3), &err);
        return;
    }
    static const double deltas[] = {0, 0, 0x1p-52, 1e-15, 1e-12, -0x1p-53, 1e-9};
    double delta = deltas[diff_below(r, sizeof deltas / sizeof deltas[0])];
    double w[4096], sum = 0;
    size_t n = m < 4096 ? m : 4096;
    for (size_t i = 0; i < n; i++)
        sum += w[i] = diff_range(r, 0.05, 1.05);
    append(what, size, " limits=sum(delta=%g)", delta);
    for (size_t i = 0; i < n; i++)
        dls_platform_set_limit(pl, i, sh->load * (1 + delta) * w[i] / sum, &err);
}

/* A link: none, free of startup, free of rate, or both, their magnitudes spread widely. */
static void add_link(diff_rng *r, dls_platform *pl, size_t i, double b, double T0)
{
    dls_error err;
    double S = T0 * diff_log(r, 1e-6, 1e-1), C = b * diff_log(r, 1e-3, 3);
    switch (diff_below(r, 8)) {
    case 0:
        return;
    case 1:
        S = 0;
        break;
    case 2:
        C = 0;
        break;
    case 3:
        S = C = 0;
        break;
    default:
        break;
    }
    dls_platform_set_link(pl, i, S, C, &err);
}

dls_platform *diff_platform(diff_rng *r, const diff_shape *sh, char *what, size_t size)
{
    dls_platform *pl = NULL;
    dls_error err;
    if (dls_platform_create(&pl, &err) != DLS_OK)
        return NULL;
    /* the typical makespan, and the share's time on a typical processor */
    double T0 = diff_log(r, 1e-3, 1e4), share = sh->load / (double)sh->m;
    int wide = diff_chance(r, 0.05); /* magnitudes 10^8 apart */
    append(what, size, "m=%zu V=%.17g T0=%.3g%s", sh->m, sh->load, T0, wide ? " wide" : "");
    for (size_t i = 0; i < sh->m; i++) {
        double b = T0 / share * (wide ? diff_log(r, 1e-4, 1e4) : diff_log(r, 0.1, 10));
        dls_model *m;
        double u = sh->constant_only ? 0 : diff_unif(r);
        if (u < 0.3)
            dls_model_create_constant(1 / b, &m, &err);
        else if (u < 0.8 || !sh->points)
            m = lines_model(r, sh, b, share, T0);
        else
            m = points_model(r, b, share);
        char name[32];
        snprintf(name, sizeof name, "p%zu", i);
        size_t at;
        if (m == NULL || dls_platform_add(pl, name, m, &at, &err) != DLS_OK) {
            dls_model_free(m);
            dls_platform_free(pl);
            return NULL;
        }
        dls_model_free(m);
        if (sh->links)
            add_link(r, pl, at, b, T0);
    }
    if (sh->limits)
        add_limits(r, pl, sh, what, size);
    return pl;
}

/* ---------------------------------------------------------------------------------- */
/* The replay from the definition */

/* The time of processor i's model at size 0+ (the paper's model charges it to a processor
 * sent nothing): the largest intercept of its time lines, 0 for speed models. */
double diff_least_time(const dls_model *m)
{
    size_t n;
    const double *a, *b;
    if (dls_model_get_lines(m, &n, &a, &b) != DLS_OK)
        return 0;
    double t = 0;
    for (size_t l = 0; l < n; l++)
        t = fmax(t, a[l]);
    return t;
}

double diff_replay(const dls_platform *pl, const size_t *seq, const double *x, int charge_all)
{
    size_t p = dls_platform_count(pl);
    double clock = 0, makespan = 0;
    for (size_t k = 0; k < p; k++) {
        size_t i = seq[k];
        double S = 0, C = 0;
        if (dls_platform_has_link(pl, i))
            dls_platform_link(pl, i, &S, &C);
        if (x[i] > 0) {
            clock += S + C * x[i];
            makespan = fmax(makespan, clock + dls_model_time(dls_platform_model(pl, i), x[i]));
        } else if (charge_all) {
            clock += S;
            makespan = fmax(makespan, clock + diff_least_time(dls_platform_model(pl, i)));
        }
    }
    return makespan;
}

dls_platform *diff_case_platform(diff_rng *r, const diff_shape *sh, diff_case *c)
{
    dls_platform *pl = diff_platform(r, sh, c->what, sizeof c->what);
    c->platform = pl;
    c->load = sh->load;
    return pl;
}
