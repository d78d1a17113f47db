/* Random instances for the unit tests: a seeded generator and every random platform and
 * model the suites draw. The numbers come from xoshiro256** seeded through splitmix64,
 * identical on every platform; the seed is the program's (test_init_seed in testutil.h:
 * --random-seed N, else DLS_TEST_SEED, else a fixed default, printed so that a failure can
 * be replayed), mixed with a salt per test. Every generator draws in a fixed order, so a
 * seed and a salt always give the same instances. */
#ifndef DLSCHED_GEN_H
#define DLSCHED_GEN_H

#include "testutil.h"
#include "xoshiro.h"

/* ---------------------------------------------------------------------------------- */
/* The generator */

typedef struct test_rng {
    uint64_t s[4];
} test_rng;

static inline void test_rng_init(test_rng *r, uint64_t salt)
{
    test_xoshiro_seed(r->s, test_seed_value, salt);
}

/* A generator seeded with salt, for `test_rng r = test_rng_salted(SALT);`. */
static inline test_rng test_rng_salted(uint64_t salt)
{
    test_rng r;
    test_rng_init(&r, salt);
    return r;
}

static inline uint64_t test_next(test_rng *r)
{
    return test_xoshiro_next(r->s);
}

/* Uniform in [0, 1). */
static inline double test_unif(test_rng *r)
{
    return (double)(test_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [lo, hi). */
static inline double test_range(test_rng *r, double lo, double hi)
{
    return lo + (hi - lo) * test_unif(r);
}

/* Log-uniform in [lo, hi), lo > 0. */
static inline double test_logrange(test_rng *r, double lo, double hi)
{
    return exp(test_range(r, log(lo), log(hi)));
}

/* Uniform integer in [0, n). */
static inline uint64_t test_below(test_rng *r, uint64_t n)
{
    return n ? test_next(r) % n : 0;
}

/* A test of `count` random trials drawn in turn from one generator seeded with `salt`:
 *     RANDOM_TEST(test_name, salt, count) { one trial, from test_rng *r; int trial }
 * (a trial that returns early ends that trial only). */
#define RANDOM_TEST(name, salt, count)                                                     \
    static void name##_trial(test_rng *r, int trial);                                      \
    TEST(name)                                                                             \
    {                                                                                      \
        test_rng rng_;                                                                     \
        test_rng_init(&rng_, (salt));                                                      \
        for (int trial_ = 0; trial_ < (count); trial_++)                                   \
            name##_trial(&rng_, trial_);                                                   \
    }                                                                                      \
    static void name##_trial(test_rng *r, int trial TEST_UNUSED_)

/* ---------------------------------------------------------------------------------- */
/* Building blocks */

/* Adds model m (which it frees) as processor "<prefix><number>"; returns its index. */
static inline size_t gen_add(dls_platform *pl, const char *prefix, size_t number, dls_model *m)
{
    dls_error err;
    char name[32];
    size_t i;
    snprintf(name, sizeof name, "%s%zu", prefix, number);
    assert_ok(dls_platform_add(pl, name, m, &i, &err), &err);
    dls_model_free(m);
    return i;
}

static inline void gen_link(dls_platform *pl, size_t i, double startup, double rate)
{
    dls_error err;
    assert_ok(dls_platform_set_link(pl, i, startup, rate, &err), &err);
}

static inline void gen_limit(dls_platform *pl, size_t i, double limit)
{
    dls_error err;
    assert_ok(dls_platform_set_limit(pl, i, limit, &err), &err);
}

/* Limits on about half the processors of a platform being built, when on, with the
 * capacity kept at least V: gen_limits_step for each processor i (a limit of scale times
 * lo..hi, log-uniform), gen_limits_end after the last (processor 0 loses its limit when
 * every processor has one and they cannot hold V). */
typedef struct gen_limits {
    int on, unlimited;
    double sum;
} gen_limits;

static inline void gen_limits_step(test_rng *r, dls_platform *pl, size_t i, gen_limits *g,
                                   double scale, double lo, double hi)
{
    if (g->on && test_below(r, 2)) {
        double lim = scale * test_logrange(r, lo, hi);
        gen_limit(pl, i, lim);
        g->sum += lim;
    } else {
        g->unlimited = 1;
    }
}

static inline void gen_limits_end(dls_platform *pl, const gen_limits *g, double V)
{
    if (g->on && !g->unlimited && g->sum < V)
        gen_limit(pl, 0, INFINITY);
}

static inline dls_model *gen_constant(double speed)
{
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_constant(speed, &m, &err), &err);
    return m;
}

static inline dls_model *gen_points(size_t n, const double *x, const double *s)
{
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_points(n, x, s, NULL, NULL, &m, &err), &err);
    return m;
}

static inline dls_model *gen_lines(size_t n, const double *a, const double *b)
{
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_time_lines(n, a, b, &m, &err), &err);
    return m;
}

/* Memory levels: from line 0 on, each time line `steeper` times as steep as the one before
 * (log-uniform in [steeper_lo, steeper_hi)) meets it at the swap point, and each swap point
 * is `further` times the one before. */
static inline void gen_levels(test_rng *r, size_t levels, double *a, double *b, double swap,
                              double steeper_lo, double steeper_hi, double further_lo,
                              double further_hi)
{
    for (size_t l = 1; l < levels; l++) {
        b[l] = b[l - 1] * test_logrange(r, steeper_lo, steeper_hi);
        /* the new line meets the previous one at the swap point */
        a[l] = a[l - 1] + (b[l - 1] - b[l]) * swap;
        swap *= test_logrange(r, further_lo, further_hi);
    }
}

/* Measured speed points: from (at, sp), each size `step` times the one before, each speed
 * a factor times the one before, drawn from the rise range for the first `rising` steps
 * and from the fall range after them (uniform draws but for log_steps). */
typedef struct gen_walk {
    int log_steps;
    double step_lo, step_hi;
    size_t rising;
    double rise_lo, rise_hi, fall_lo, fall_hi;
} gen_walk;

static inline void gen_walk_points(test_rng *r, const gen_walk *w, size_t n, double at,
                                   double sp, double *x, double *s)
{
    for (size_t k = 0; k < n; k++) {
        x[k] = at;
        s[k] = sp;
        at *= w->log_steps ? test_logrange(r, w->step_lo, w->step_hi)
                           : test_range(r, w->step_lo, w->step_hi);
        sp *= k < w->rising ? test_range(r, w->rise_lo, w->rise_hi)
                            : test_range(r, w->fall_lo, w->fall_hi);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Stars with memory levels (the scheduler, the cross-checks, lp_solve): the magnitudes of
 * Drozdowski and Wolniewicz (2003) and of measured clusters, in-core rates around 1e-3 s per unit,
 * each further memory level 3 to 30 times slower from a swap point near an equal share, startups
 * around 1e-3 s, rates around 1e-6 s per unit. m processors with 1 to max_levels time lines each,
 * for a load V; about half of them get a limit when `limits` is set (keeping the capacity
 * >= V). */
static inline dls_platform *gen_star(test_rng *r, size_t m, size_t max_levels, double V,
                                     int limits)
{
    dls_platform *pl = test_platform_new();
    double share = V / (double)m;
    gen_limits lim = {limits, 0, 0};
    for (size_t i = 0; i < m; i++) {
        size_t levels = 1 + test_below(r, max_levels);
        double a[8], b[8];
        b[0] = test_logrange(r, 1e-4, 1e-2);
        a[0] = test_below(r, 3) == 0 ? test_logrange(r, 1e-4, 1e-1) : 0;
        gen_levels(r, levels, a, b, share * test_logrange(r, 0.1, 3), 3, 30, 2, 10);
        gen_add(pl, "node", i, gen_lines(levels, a, b));
        gen_link(pl, i, test_logrange(r, 1e-4, 1e-2), test_logrange(r, 1e-7, 1e-5));
        gen_limits_step(r, pl, i, &lim, share, 0.3, 3);
    }
    gen_limits_end(pl, &lim, V);
    return pl;
}

/* Measured speeds that rise, then fall (cache, then paging), with links (the
 * cross-checks): p processors for a load V. */
static inline dls_platform *gen_bumpy(test_rng *r, size_t p, double V)
{
    static const gen_walk walk = {1, 1.5, 4, 2, 1.0, 4.0, 0.2, 1.0};
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        double x[5], s[5];
        double at = V * test_logrange(r, 0.01, 0.1), sp = test_logrange(r, 1, 10);
        gen_walk_points(r, &walk, 5, at, sp, x, s);
        gen_add(pl, "b", i, gen_points(5, x, s));
        gen_link(pl, i, test_logrange(r, 1e-3, 1e-1) / s[0], test_logrange(r, 1e-4, 1e-2) / s[0]);
    }
    return pl;
}

/* Constant or falling speeds (weighted partitions): p processors for a set of total weight
 * `total`, a third of them with a limit when `limits` is set. */
static inline dls_platform *gen_falling(test_rng *r, size_t p, double total, int limits)
{
    static const gen_walk walk = {0, 1.5, 3, 0, 0, 0, 0.3, 1};
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        dls_model *m;
        if (test_below(r, 2)) {
            m = gen_constant(test_logrange(r, 0.1, 10));
        } else {
            /* falling speed: time increasing and convex */
            double x[4], s[4], at = test_range(r, 0.5, 2), sp = test_logrange(r, 0.1, 10);
            gen_walk_points(r, &walk, 4, at, sp, x, s);
            m = gen_points(4, x, s);
        }
        gen_add(pl, "w", i, m);
        if (limits && test_below(r, 3) == 0)
            gen_limit(pl, i, floor(test_range(r, 0.3, 1.2) * total) + 0.5);
    }
    return pl;
}

/* Models whose time is strictly increasing (the shape assumption of the partitioners):
 * constant, decreasing or rising-then-falling points, time lines; `scale` is about the
 * size each processor gets. */
enum { GEN_CONSTANT, GEN_DECREASING, GEN_RISE_FALL, GEN_LINES, GEN_KINDS };

static inline dls_model *gen_shaped_model(test_rng *r, int kind, double scale)
{
    double x[16], s[16];
    size_t np = 2 + test_below(r, 14);
    double speed = test_logrange(r, 1e-2, 1e9);
    if (kind == GEN_CONSTANT)
        return gen_constant(speed);
    if (kind == GEN_DECREASING || kind == GEN_RISE_FALL) {
        double at = scale * test_logrange(r, 1e-4, 1e-1);
        size_t peak = kind == GEN_RISE_FALL ? 1 + test_below(r, np - 1) : 0;
        for (size_t k = 0; k < np; k++) {
            x[k] = at;
            s[k] = speed;
            double grow = test_range(r, 1.3, 4);
            at *= grow;
            /* rising: less than proportionally, so x/s still increases */
            speed *= k < peak ? test_range(r, 1.0, 0.9 * grow) : test_range(r, 0.2, 1.0);
        }
        return gen_points(np, x, s);
    }
    size_t nl = 1 + test_below(r, 3);
    double a[3], b[3];
    double slope = 1 / speed, start = test_range(r, 0, 1e-3) * slope * scale;
    a[0] = start;
    b[0] = slope;
    double swap = scale * test_logrange(r, 1e-3, 1);
    for (size_t l = 1; l < nl; l++) {
        double nb = b[l - 1] * test_range(r, 2, 20);
        /* meets the previous line at the swap point */
        a[l] = a[l - 1] + b[l - 1] * swap - nb * swap;
        b[l] = nb;
        swap *= test_range(r, 2, 10);
    }
    return gen_lines(nl, a, b);
}

/* p processors for n elements, all of one kind of gen_shaped_model unless `mixed`, half of
 * them with a limit when `limits` is set. */
static inline dls_platform *gen_shaped(test_rng *r, size_t p, uint64_t n, int limits, int mixed)
{
    dls_platform *pl = test_platform_new();
    int kind = (int)test_below(r, GEN_KINDS);
    for (size_t i = 0; i < p; i++) {
        dls_model *m = gen_shaped_model(r, mixed ? (int)test_below(r, GEN_KINDS) : kind,
                                        (double)n / (double)p + 1);
        gen_add(pl, "p", i, m);
        if (limits && test_below(r, 2))
            gen_limit(pl, i, fmax(1, test_range(r, 0.2, 2.5) * (double)n / (double)p));
    }
    return pl;
}

/* LU column distributions: p processors for n columns, constant speeds (small integers
 * half of the time, so that exact ties are common) or, when `functional`, a mix of
 * decreasing and bumpy points, 2-D grids and time lines over sizes up to about n^2
 * columns-by-height, so that the shapes matter; a third of them with a limit when
 * `limits` is set. */
static inline dls_model *gen_lu_model(test_rng *rng, uint64_t n, int functional)
{
    dls_error err;
    dls_model *m;
    double big = (double)(n * n) + 1;
    int which = !functional ? 0 : 1 + (int)test_below(rng, 4);
    if (which == 0 || (functional && test_below(rng, 8) == 0))
        return gen_constant(test_below(rng, 2) ? (double)(1 + test_below(rng, 6))
                                               : test_logrange(rng, 0.5, 20));
    if (which == 1 || which == 2) {
        /* decreasing (paging), or rising now and then (cache effects) */
        const gen_walk walk = {1, 1.5, 1 + big / 4, which == 1 ? 0 : SIZE_MAX, 0.3, 3.0,
                               0.2, 1.0};
        size_t k = 2 + (size_t)test_below(rng, 4);
        double x[8], s[8], at = test_range(rng, 0.5, 3);
        gen_walk_points(rng, &walk, k, at, test_logrange(rng, 1, 20), x, s);
        return gen_points(k, x, s);
    }
    if (which == 3) {
        double gx[4], gy[4], v[16];
        size_t nx = 2 + (size_t)test_below(rng, 3), ny = 2 + (size_t)test_below(rng, 3);
        double at = 1;
        for (size_t q = 0; q < nx; q++, at += test_range(rng, 1, (double)n))
            gx[q] = at;
        at = 1;
        for (size_t q = 0; q < ny; q++, at += test_range(rng, 1, (double)n))
            gy[q] = at;
        for (size_t q = 0; q < nx * ny; q++)
            v[q] = test_logrange(rng, 1, 30);
        assert_ok(dls_model_create_speed2d(nx, gx, ny, gy, v, &m, &err), &err);
        return m;
    }
    double a[3], b[3];
    size_t k = 1 + (size_t)test_below(rng, 3);
    for (size_t q = 0; q < k; q++) {
        a[q] = test_range(rng, -5, 2);
        b[q] = test_logrange(rng, 0.05, 2) * (double)(q + 1);
    }
    a[0] = fabs(a[0]) + 0.1; /* positive time from the first column on */
    return gen_lines(k, a, b);
}

static inline dls_platform *gen_lu(test_rng *rng, size_t p, uint64_t n, int functional,
                                   int limits)
{
    dls_platform *pl = test_platform_new();
    assert_non_null(pl);
    for (size_t i = 0; i < p; i++) {
        gen_add(pl, "p", i + 1, gen_lu_model(rng, n, functional));
        if (limits && test_below(rng, 3) == 0)
            gen_limit(pl, i, (double)(1 + test_below(rng, n)) + 0.5);
    }
    return pl;
}

/* Multi-installment processing: m processors around a chunk size delta, with startups and
 * rates of 0 now and then, computing per unit from much faster to much slower than a round
 * sends it: constant speeds, three points, or 1 to 3 memory levels with swap points around
 * the chunk. *use_limits says whether the schedule should heed the limits, which some
 * processors get below the chunk (never all of them). */
static inline dls_platform *gen_chunked(test_rng *r, size_t m, double delta, int *use_limits)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < m; i++) {
        double S = test_below(r, 4) == 0 ? 0 : test_logrange(r, 1e-3, 1);
        double C = test_below(r, 4) == 0 ? 0 : test_logrange(r, 1e-3, 1);
        double rate = test_logrange(r, 1e-3, 10);
        switch (test_below(r, 4)) {
        case 0:
            gen_add(pl, "n", i, gen_constant(1 / rate));
            break;
        case 1: {
            const double size[] = {0.5 * delta, 2 * delta, 5 * delta},
                         speed[] = {test_range(r, 0.5, 2) / rate, test_range(r, 0.5, 2) / rate,
                                    test_range(r, 0.1, 1) / rate};
            dls_model *mo;
            assert_ok(dls_model_create_points(3, size, speed, NULL, NULL, &mo, &err), &err);
            gen_add(pl, "n", i, mo);
            break;
        }
        default: {
            size_t levels = 1 + test_below(r, 3);
            double a[3], b[3], swap = delta * test_logrange(r, 0.3, 3);
            a[0] = test_below(r, 2) ? test_logrange(r, 1e-3, 1) : 0;
            b[0] = rate;
            gen_levels(r, levels, a, b, swap, 2, 20, 2, 5);
            gen_add(pl, "n", i, gen_lines(levels, a, b));
            break;
        }
        }
        gen_link(pl, i, S, C);
    }
    *use_limits = test_below(r, 3) != 0;
    if (test_below(r, 2))
        for (size_t i = 0; i < m; i++)
            if (test_below(r, 3) == 0 && i != m - 1)
                gen_limit(pl, i, delta * test_range(r, 0.2, 0.9));
    return pl;
}

/* Awkward numbers for round trips through text: short and long decimals, extremes, values
 * that need 17 digits. */
static inline double gen_awkward(test_rng *r, double lo, double hi)
{
    switch (test_below(r, 5)) {
    case 0: return lo + (hi - lo) * 0.1;
    case 1: return test_range(r, lo, hi);
    case 2: return nextafter(test_logrange(r, lo > 0 ? lo : DLS_DOMAIN_MIN, hi), hi);
    case 3: return test_logrange(r, lo > 0 ? lo : DLS_DOMAIN_MIN, hi);
    default: return (lo + hi) / 3.0;
    }
}

/* A model of any kind made of awkward numbers (bands half of the time on points). */
static inline dls_model *gen_awkward_model(test_rng *r)
{
    dls_error err;
    dls_model *m = NULL;
    double x[6], s[6], lo[6], hi[6], v[36];
    size_t n = 1 + test_below(r, 6), ny = 1 + test_below(r, 6);
    switch (test_below(r, 5)) {
    case 0:
        return gen_constant(gen_awkward(r, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX));
    case 1:
    case 2: {
        double at = gen_awkward(r, 1e-10, 1e10);
        for (size_t k = 0; k < n; k++) {
            x[k] = at;
            at = nextafter(at * test_range(r, 1.0, 3.0), INFINITY);
            s[k] = gen_awkward(r, 1e-5, 1e12);
            lo[k] = s[k] * test_range(r, 0.5, 1.0);
            hi[k] = s[k] * test_range(r, 1.0, 1.5);
        }
        int bands = test_below(r, 2);
        assert_ok(dls_model_create_points(n, x, s, bands ? lo : NULL, bands ? hi : NULL, &m, &err),
                  &err);
        return m;
    }
    case 3: {
        for (size_t l = 0; l < n; l++) {
            x[l] = gen_awkward(r, -1e6, 1e6);
            s[l] = gen_awkward(r, 0, 1e3);
        }
        x[0] = gen_awkward(r, 1e-9, 1e3);
        return gen_lines(n, x, s);
    }
    default: {
        double at = gen_awkward(r, 1, 100);
        for (size_t k = 0; k < n; k++, at *= 2.5)
            x[k] = at;
        at = gen_awkward(r, 1, 100);
        for (size_t k = 0; k < ny; k++, at *= 1.7)
            s[k] = at;
        for (size_t k = 0; k < n * ny; k++)
            v[k] = gen_awkward(r, 1, 1e12);
        assert_ok(dls_model_create_speed2d(n, x, ny, s, v, &m, &err), &err);
        return m;
    }
    }
}

/* n strictly increasing sizes from [1e-3, 1e6), each 1.01 to 5 times the last. */
static inline void gen_sizes(test_rng *r, size_t n, double *x)
{
    double v = test_logrange(r, 1e-3, 1e6);
    for (size_t k = 0; k < n; k++) {
        x[k] = v;
        v *= test_range(r, 1.01, 5.0);
    }
}

/* n speed points whose pieces each clearly raise or lower x/s(x) (shape checks): the next
 * speed is the proportional one (same x/s) times a factor below 0.9 (time rises) or above
 * 1.1 (time falls). fails[k] says whether piece k (from point k to k + 1) lowers it. */
static inline dls_model *gen_shape_pieces(test_rng *r, size_t n, double *x, double *s,
                                          int *fails)
{
    x[0] = test_logrange(r, 1, 1e4);
    s[0] = test_logrange(r, 1e3, 1e9);
    for (size_t k = 1; k < n; k++) {
        x[k] = x[k - 1] * test_range(r, 1.2, 4.0);
        int up = test_unif(r) < 0.3;
        fails[k - 1] = up;
        double factor = up ? test_range(r, 1.1, 1.5) : test_range(r, 0.2, 0.9);
        s[k] = s[k - 1] * (x[k] / x[k - 1]) * factor;
    }
    return gen_points(n, x, s);
}

#endif /* DLSCHED_GEN_H */
