/* Tests of the balancer (dlsched/balance.h) against the full-model optimum: an iterative
 * application runs on random platforms with memory heterogeneity (two time lines per
 * processor: speeds 100 times apart, 3 to 30 times slower past a paging point within a
 * factor 2 of the even share), the balancer seeing only the measured times (relative noise,
 * uniform in [-F, F]); the makespan of each distribution on the true models is compared
 * with dls_partition_solve on the true models. Then no oscillation, limits, weights, drift,
 * the prior, determinism, the worth of a move, every refused input, the edges and the
 * models it gives back. The seed: --random-seed N or DLS_TEST_SEED (printed). */
#include "gen.h"

#define ELEMENTS 1000000
#define WITHIN 1.05
#define AFTER_STEP 6
#define DIVERGED 2.0
#define PLATFORMS 60
#define ITERATIONS 20

/* ---------------------------------------------------------------------------------- */
/* The application */

/* A processor in core at speed s (elements/s) up to R elements, k times slower beyond. */
static dls_model *paging_model(double s, double k, double R)
{
    double a[2] = {0, -(k - 1) * R / s}, b[2] = {1 / s, k / s};
    return gen_lines(2, a, b);
}

/* One random memory-heterogeneous platform (the idea of tests/bench/bench_balance.c). */
static dls_platform *paging_platform(test_rng *r, size_t p, uint64_t n)
{
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        double s = test_logrange(r, 1, 100) * 1e4;
        double k = test_range(r, 3, 30);
        double R = (double)n / (double)p * test_logrange(r, 0.5, 2);
        gen_add(pl, "p", i, paging_model(s, k, R));
    }
    return pl;
}

/* A platform of constant speeds. */
static dls_platform *constant_platform(size_t p, const double *speed)
{
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++)
        gen_add(pl, "c", i, gen_constant(speed[i]));
    return pl;
}

/* The true time of processor i for size x (0 without work). */
static double true_time(const dls_platform *pl, size_t i, double x)
{
    return x > 0 ? dls_model_time(dls_platform_model(pl, i), x) : 0;
}

/* The size of each processor's chunk: its count, or the sum of its weights. */
static void sizes_of(size_t p, const uint64_t *d, const double *w, double *x)
{
    uint64_t e = 0;
    for (size_t i = 0; i < p; i++) {
        x[i] = 0;
        if (w == NULL)
            x[i] = (double)d[i];
        for (uint64_t k = 0; w != NULL && k < d[i]; k++)
            x[i] += w[e + k];
        e += d[i];
    }
}

static double makespan_w(const dls_platform *pl, const uint64_t *d, const double *w)
{
    size_t p = dls_platform_count(pl);
    double *x = malloc(p * sizeof *x), t = 0;
    sizes_of(p, d, w, x);
    for (size_t i = 0; i < p; i++)
        t = fmax(t, true_time(pl, i, x[i]));
    free(x);
    return t;
}

static double makespan(const dls_platform *pl, const uint64_t *d)
{
    return makespan_w(pl, d, NULL);
}

/* The optimum: the partitioner on the true models (ordered weighted sets with w). */
static double optimum_w(const dls_platform *pl, uint64_t n, const double *w)
{
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.weights = w;
    pp.ordered = w != NULL;
    dls_partition *res = NULL;
    dls_error err;
    assert_ok(dls_partition_solve(pl, n, &pp, &res, &err), &err);
    double t = makespan_w(pl, dls_partition_elements(res), w);
    dls_partition_free(res);
    return t;
}

static double optimum(const dls_platform *pl, uint64_t n)
{
    return optimum_w(pl, n, NULL);
}

/* The measured times of the current shares: true times times (1 + noise * U[-1, 1]). */
static void measure(const dls_platform *pl, const dls_balance *b, const double *w,
                    double noise, test_rng *r, double *t)
{
    size_t p = dls_balance_count(b);
    double *x = malloc(p * sizeof *x);
    sizes_of(p, dls_balance_shares(b), w, x);
    for (size_t i = 0; i < p; i++) {
        double u = noise > 0 ? test_range(r, -1, 1) : 0;
        t[i] = true_time(pl, i, x[i]) * (1 + noise * u);
    }
    free(x);
}

static dls_balance *create(size_t p, uint64_t n, const dls_balance_params *par)
{
    dls_balance *b = NULL;
    dls_error err;
    assert_ok(dls_balance_create(p, n, par, &b, &err), &err);
    return b;
}

/* What every step must give: shares summing to n, their first elements, the moves from
 * the shares run (the plan's changes, and info.moved), the step count, the measured
 * makespan and imbalance, 0 predicted for a processor without work. */
static void check_step(const dls_balance *b, const uint64_t *before, const double *t,
                       uint64_t steps)
{
    size_t p = dls_balance_count(b);
    const uint64_t *d = dls_balance_shares(b), *first = dls_balance_first(b);
    const double *pred = dls_balance_predicted(b);
    const dls_move_plan *plan = dls_balance_moves(b);
    const int64_t *ch = dls_move_plan_changes(plan);
    dls_balance_info in;
    dls_error err;
    assert_ok(dls_balance_get_info(b, &in, &err), &err);
    assert_true(in.steps == steps);
    assert_reserved_zero(in);
    uint64_t sum = 0, moved = 0;
    double hi = 0, lo = INFINITY;
    assert_int_equal(dls_move_plan_count(plan), p);
    for (size_t i = 0; i < p; i++) {
        assert_true(first[i] == sum);
        sum += d[i];
        assert_true(ch[i] == (int64_t)d[i] - (int64_t)before[i]);
        moved += d[i] != before[i];
        if (d[i] == 0)
            assert_true(pred[i] == 0);
        if (before[i] > 0) {
            hi = fmax(hi, t[i]);
            lo = fmin(lo, t[i]);
        }
    }
    assert_true(sum == dls_balance_total(b));
    assert_true(dls_move_plan_moved(plan) == in.moved);
    assert_int_equal(in.changed, moved > 0);
    assert_int_equal(in.moved > 0, moved > 0);
    assert_true(in.measured_makespan == hi);
    assert_rel_floor(in.measured_imbalance, hi / lo - 1, 1e-12, 1e-12);
}

/* One measured step. */
static void step(dls_balance *b, const dls_platform *pl, const double *w, double noise,
                 test_rng *r)
{
    size_t p = dls_balance_count(b);
    double *t = malloc(p * sizeof *t);
    uint64_t *before = malloc(p * sizeof *before);
    memcpy(before, dls_balance_shares(b), p * sizeof *before);
    measure(pl, b, w, noise, r, t);
    dls_balance_info in;
    dls_error err;
    assert_ok(dls_balance_get_info(b, &in, &err), &err);
    assert_ok(dls_balance_step(b, p, dls_balance_shares(b), t, &err), &err);
    check_step(b, before, t, in.steps + 1);
    free(before);
    free(t);
}

/* K iterations from the balancer's first distribution; ratio[k] the makespan of the
 * distribution after k steps over the optimum. */
static void run(const dls_platform *pl, uint64_t n, const dls_balance_params *par,
                double noise, size_t K, test_rng *r, double *ratio)
{
    dls_balance *b = create(dls_platform_count(pl), n, par);
    double opt = optimum(pl, n);
    for (size_t k = 0; k <= K; k++) {
        ratio[k] = makespan(pl, dls_balance_shares(b)) / opt;
        if (k < K)
            step(b, pl, NULL, noise, r);
    }
    dls_balance_free(b);
}

/* ---------------------------------------------------------------------------------- */
/* Against the optimum */

typedef struct tally {
    size_t ok, diverged, n;
    double worst_last;
} tally;

static int within_after(const double *ratio, size_t K)
{
    for (size_t k = AFTER_STEP; k <= K; k++)
        if (!(ratio[k] <= WITHIN))
            return 0;
    return 1;
}

/* Oscillating: above 2 at every other one of the last six iterations, not at all of
 * them (one of the others below 2). */
static int oscillates(const double *ratio, size_t K)
{
    int high[2] = {1, 1}, low[2] = {0, 0};
    for (size_t k = K - 5; k <= K; k++) {
        high[k % 2] &= ratio[k] > DIVERGED;
        low[k % 2] |= ratio[k] <= DIVERGED;
    }
    return (high[0] && low[1]) || (high[1] && low[0]);
}

TEST(test_against_optimum)
{
    static const double noises[] = {0, 0.02, 0.05, 0.1};
    tally fn[4] = {{0}}, cst[4] = {{0}};
    size_t rescued = 0;
    double ratio[ITERATIONS + 1], cratio[ITERATIONS + 1];
    test_rng r = test_rng_salted(3801);
    for (size_t j = 0; j < PLATFORMS; j++) {
        size_t p = 1 + (size_t)test_below(&r, 32);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        for (int z = 0; z < 4; z++) {
            dls_balance_params par;
            dls_balance_params_init(&par);
            par.noise = noises[z] > 0 ? noises[z] : par.noise;
            test_rng rz = test_rng_salted(3802 + 4 * j + (uint64_t)z), rc = rz;
            run(pl, ELEMENTS, &par, noises[z], ITERATIONS, &rz, ratio);
            par.mode = DLS_BALANCE_CONSTANT;
            run(pl, ELEMENTS, &par, noises[z], ITERATIONS, &rc, cratio);
            fn[z].ok += within_after(ratio, ITERATIONS);
            fn[z].diverged += !(ratio[ITERATIONS] < DIVERGED);
            fn[z].worst_last = fmax(fn[z].worst_last, ratio[ITERATIONS]);
            cst[z].ok += within_after(cratio, ITERATIONS);
            cst[z].diverged += !(cratio[ITERATIONS] < DIVERGED);
            rescued += oscillates(cratio, ITERATIONS) && ratio[ITERATIONS] <= WITHIN;
        }
        dls_platform_free(pl);
    }
    for (int z = 0; z < 4; z++)
        printf("# noise %4.0f%%: functional within 5%% after step %d on %zu/%d, diverged %zu, "
               "worst last ratio %.3f; constant within on %zu, diverged %zu\n",
               100 * noises[z], AFTER_STEP, fn[z].ok, PLATFORMS, fn[z].diverged,
               fn[z].worst_last, cst[z].ok, cst[z].diverged);
    printf("# platforms where the constant rule oscillates and the functional converges: "
           "%zu\n", rescued);
    for (int z = 0; z < 2; z++) {
        if (fn[z].ok * 100 < 85 * PLATFORMS)
            fail_msg("noise %g: within 5%% on %zu of %d platforms (seed %llu)", noises[z],
                     fn[z].ok, PLATFORMS, (unsigned long long)test_seed_value);
        if (fn[z].diverged > 0)
            fail_msg("noise %g: %zu diverged (seed %llu)", noises[z], fn[z].diverged,
                     (unsigned long long)test_seed_value);
    }
    /* 5% and 10%: the worst ratio at the last iteration, measured over seeds 1 to 12 and
     * the default, was at most 1.083 at 5% (30 to 43 of 60 within 5% after step 6) and
     * 1.179 at 10% (4 to 14 of 60); none diverged. Bounds with margin: */
    static const double bound[4] = {0, 0, 1.15, 1.30};
    for (int z = 2; z < 4; z++)
        if (!(fn[z].worst_last < bound[z]))
            fail_msg("noise %g: worst last ratio %g (seed %llu)", noises[z], fn[z].worst_last,
                     (unsigned long long)test_seed_value);
    /* on random platforms the constant rule mostly diverges outright (ratio above 2 at
     * every iteration): the count above is 0 for some seeds, so the oscillation is
     * asserted on the platform built for it below */
}

/* Two processors: one 10 times faster in core that pages (20 times slower) past 55% of
 * the elements, one constant. The constant rule alternates between about 54% on the fast
 * one (in core, ratio 1.45) and 91% (paging, ratio 2.4); the functional mode converges. */
TEST(test_constant_oscillates)
{
    double n = ELEMENTS, ratio[ITERATIONS + 1], cratio[ITERATIONS + 1];
    dls_platform *pl = test_platform_new();
    gen_add(pl, "p", 0, paging_model(10, 20, 0.55 * n));
    gen_add(pl, "p", 1, gen_constant(1));
    for (int z = 0; z < 2; z++) {
        dls_balance_params par;
        dls_balance_params_init(&par);
        test_rng r = test_rng_salted(3803 + (uint64_t)z), rc = r;
        run(pl, ELEMENTS, &par, 0.02 * z, ITERATIONS, &r, ratio);
        par.mode = DLS_BALANCE_CONSTANT;
        run(pl, ELEMENTS, &par, 0.02 * z, ITERATIONS, &rc, cratio);
        if (!oscillates(cratio, ITERATIONS))
            fail_msg("noise %g: the constant rule does not oscillate: last ratios %g %g %g",
                     0.02 * z, cratio[ITERATIONS - 2], cratio[ITERATIONS - 1],
                     cratio[ITERATIONS]);
        if (!within_after(ratio, ITERATIONS))
            fail_msg("noise %g: the functional mode is not within 5%% after step %d: last "
                     "ratio %g", 0.02 * z, AFTER_STEP, ratio[ITERATIONS]);
    }
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Stability, limits, weights, drift, prior, determinism, the worth of a move */

/* Noise 0: once a step keeps the distribution, every later one does too. */
TEST(test_no_oscillation)
{
    test_rng r = test_rng_salted(3810);
    for (int j = 0; j < 20; j++) {
        size_t p = 2 + (size_t)test_below(&r, 15);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        dls_balance *b = create(p, ELEMENTS, NULL);
        uint64_t *kept = NULL;
        for (int k = 0; k < 30; k++) {
            step(b, pl, NULL, 0, &r);
            dls_balance_info in;
            dls_error err;
            assert_ok(dls_balance_get_info(b, &in, &err), &err);
            if (kept != NULL) {
                assert_int_equal(in.changed, 0);
                assert_int_equal(in.moved, 0);
                assert_memory_equal(kept, dls_balance_shares(b), p * sizeof *kept);
            } else if (in.changed == 0) {
                kept = malloc(p * sizeof *kept);
                memcpy(kept, dls_balance_shares(b), p * sizeof *kept);
            }
        }
        if (kept == NULL)
            fail_msg("platform %d (p = %zu) still moving after 30 steps at noise 0 (seed %llu)",
                     j, p, (unsigned long long)test_seed_value);
        free(kept);
        dls_balance_free(b);
        dls_platform_free(pl);
    }
}

static void assert_within_limits(const dls_balance *b, const double *lim)
{
    for (size_t i = 0; i < dls_balance_count(b); i++)
        if ((double)dls_balance_shares(b)[i] > lim[i])
            fail_msg("processor %zu holds %llu elements, its limit is %g", i,
                     (unsigned long long)dls_balance_shares(b)[i], lim[i]);
}

/* Limits on the fast processors, from the parameters and from a prior's limits. */
TEST(test_limits)
{
    test_rng r = test_rng_salted(3811);
    double worst_limited = 0;
    for (int j = 0; j < 10; j++) {
        size_t p = 2 + (size_t)test_below(&r, 10);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        double *lim = malloc(p * sizeof *lim);
        for (size_t i = 0; i < p; i++)
            lim[i] = i == 0 ? INFINITY : floor(ELEMENTS / (double)p * test_range(&r, 0.3, 1.5));
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.limits = lim;
        dls_balance *b = create(p, ELEMENTS, &par);
        /* the prior way: the same limits on a platform of even models */
        dls_platform *prior = test_platform_new();
        for (size_t i = 0; i < p; i++) {
            gen_add(prior, "q", i, gen_constant(1e5));
            if (isfinite(lim[i]))
                gen_limit(prior, i, lim[i]);
        }
        dls_balance_params_init(&par);
        par.prior = prior;
        dls_balance *c = create(p, ELEMENTS, &par);
        dls_platform_free(prior);
        for (int k = 0; k < 15; k++) {
            assert_within_limits(b, lim);
            assert_within_limits(c, lim);
            step(b, pl, NULL, 0.02, &r);
            step(c, pl, NULL, 0.02, &r);
        }
        assert_within_limits(b, lim);
        assert_within_limits(c, lim);
        /* and near the optimum under the same limits (the partitioner on the true models
         * with the limits set on them) */
        for (size_t i = 0; i < p; i++)
            if (isfinite(lim[i]))
                gen_limit(pl, i, lim[i]);
        double opt = optimum(pl, ELEMENTS);
        double rb = makespan(pl, dls_balance_shares(b)) / opt;
        double rc = makespan(pl, dls_balance_shares(c)) / opt;
        worst_limited = fmax(worst_limited, fmax(rb, rc));
        dls_balance_free(b);
        dls_balance_free(c);
        free(lim);
        dls_platform_free(pl);
    }
    /* after 15 steps at 2% noise: the worst ratio measured on seeds 1 to 10 and the default
     * was 1.026 */
    printf("# limits: worst ratio to the limited optimum after 15 steps %.4f\n", worst_limited);
    if (!(worst_limited <= WITHIN))
        fail_msg("limits: ratio %g to the optimum under the same limits after 15 steps (seed "
                 "%llu)", worst_limited, (unsigned long long)test_seed_value);
    /* weighted: the limits bound the weight of each chunk, from the first split on */
    uint64_t n = 1000;
    double w[1000], lim[4] = {100, INFINITY, 150, 400}, x[4];
    for (uint64_t e = 0; e < n; e++)
        w[e] = e < 500 ? 0.5 : 1.5;
    dls_platform *pl = paging_platform(&r, 4, 1000);
    dls_balance_params par;
    dls_balance_params_init(&par);
    par.weights = w;
    par.limits = lim;
    dls_balance *b = create(4, n, &par);
    for (int k = 0; k < 10; k++) {
        sizes_of(4, dls_balance_shares(b), w, x);
        for (size_t i = 0; i < 4; i++)
            if (x[i] > lim[i])
                fail_msg("step %d: processor %zu holds weight %g, its limit is %g", k, i, x[i],
                         lim[i]);
        step(b, pl, w, 0.02, &r);
    }
    dls_balance_free(b);
    dls_platform_free(pl);
}

/* Weighted elements: the sizes the models see are the sums of the weights of contiguous
 * chunks, and the balancer converges to the weighted ordered optimum. */
TEST(test_weights)
{
    test_rng r = test_rng_salted(3812);
    for (int j = 0; j < 6; j++) {
        size_t p = 2 + (size_t)test_below(&r, 6);
        uint64_t n = 2000 + test_below(&r, 2000);
        double *w = malloc(n * sizeof *w), total = 0;
        for (uint64_t e = 0; e < n; e++) {
            w[e] = test_logrange(&r, 0.1, 10);
            total += w[e];
        }
        dls_platform *pl = paging_platform(&r, p, (uint64_t)total);
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.weights = w;
        dls_balance *b = create(p, n, &par);
        double opt = optimum_w(pl, n, w), ratio = INFINITY;
        double *x = malloc(p * sizeof *x);
        for (int k = 0; k < 15; k++) {
            sizes_of(p, dls_balance_shares(b), w, x);
            step(b, pl, w, 0, &r);
            /* each measured model point is the weight of the chunk run */
            for (size_t i = 0; i < p; i++) {
                if (x[i] == 0)
                    continue;
                dls_model *m = NULL;
                dls_error err;
                assert_ok(dls_balance_get_model(b, i, &m, &err), &err);
                size_t np;
                const double *px;
                assert_ok(dls_model_get_points(m, &np, &px, NULL, NULL, NULL), &err);
                int found = 0;
                for (size_t q = 0; q < np; q++)
                    found |= test_close(px[q], x[i], 1e-3, 0);
                if (!found)
                    fail_msg("processor %zu ran weight %g, not among its model's points", i,
                             x[i]);
                dls_model_free(m);
            }
            ratio = makespan_w(pl, dls_balance_shares(b), w) / opt;
        }
        if (!(ratio <= WITHIN))
            fail_msg("weighted case %d (p = %zu, n = %llu): ratio %g after 15 steps (seed %llu)",
                     j, p, (unsigned long long)n, ratio, (unsigned long long)test_seed_value);
        free(x);
        dls_balance_free(b);
        dls_platform_free(pl);
        free(w);
    }
}

/* The platform pl with processor `slow` `factor` times slower. */
static dls_platform *slowed(const dls_platform *pl, size_t slow, double factor)
{
    dls_platform *q = test_platform_new();
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        size_t nl;
        const double *a, *b;
        dls_error err;
        assert_ok(dls_model_get_lines(dls_platform_model(pl, i), &nl, &a, &b), &err);
        double a2[2], b2[2];
        for (size_t l = 0; l < nl; l++) {
            a2[l] = a[l] * (i == slow ? factor : 1);
            b2[l] = b[l] * (i == slow ? factor : 1);
        }
        gen_add(q, "p", i, gen_lines(nl, a2, b2));
    }
    return q;
}

TEST(test_drift)
{
    test_rng r = test_rng_salted(3813);
    int late = 0;
    for (int j = 0; j < 10; j++) {
        size_t p = 3 + (size_t)test_below(&r, 10);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        dls_balance *b = create(p, ELEMENTS, NULL);
        for (int k = 0; k < 15; k++)
            step(b, pl, NULL, 0.01, &r);
        size_t slow = (size_t)test_below(&r, p);
        dls_platform *q = slowed(pl, slow, 3);
        step(b, q, NULL, 0.01, &r);
        dls_balance_info in;
        dls_error err;
        assert_ok(dls_balance_get_info(b, &in, &err), &err);
        size_t nd = 0;
        const size_t *d = dls_balance_drifted(b, &nd);
        assert_int_equal(nd, in.drifted);
        int listed = 0;
        for (size_t k = 0; k < nd; k++)
            listed |= d[k] == slow;
        if (in.drifted < 1 || !listed)
            fail_msg("case %d: processor %zu made 3 times slower, %zu drifted, it %s listed "
                     "(seed %llu)", j, slow, in.drifted, listed ? "is" : "is not",
                     (unsigned long long)test_seed_value);
        double opt = optimum(q, ELEMENTS);
        /* traj[k]: the distribution after k + 1 steps on the slowed platform */
        double traj[8];
        traj[0] = makespan(q, dls_balance_shares(b)) / opt;
        for (int k = 1; k < 8; k++) {
            step(b, q, NULL, 0.01, &r);
            traj[k] = makespan(q, dls_balance_shares(b)) / opt;
        }
        /* the 4th step's distribution within 5%: measured on 347 cases (seeds 1 to 40) on
         * 97% (9 not, the worst 1.96; the 3rd step's on 86%), every one by the 8th step */
        late += !(traj[3] <= WITHIN);
        if (!(traj[3] <= WITHIN) || !(traj[7] <= WITHIN))
            printf("# case %d, processor %zu 3 times slower: ratios %g %g %g %g %g %g %g %g\n",
                   j, slow, traj[0], traj[1], traj[2], traj[3], traj[4], traj[5], traj[6],
                   traj[7]);
        if (!(traj[7] <= WITHIN))
            fail_msg("case %d: ratio %g to the new optimum 8 steps after the drift of "
                     "processor %zu (seed %llu)", j, traj[7], slow,
                     (unsigned long long)test_seed_value);
        dls_balance_free(b);
        dls_platform_free(q);
        dls_platform_free(pl);
    }
    if (late > 3)
        fail_msg("%d of 10 cases not within 5%% of the new optimum at the 4th step after a "
                 "drift (seed %llu)", late, (unsigned long long)test_seed_value);
}

TEST(test_prior)
{
    test_rng r = test_rng_salted(3814);
    for (int j = 0; j < 20; j++) {
        size_t p = 1 + (size_t)test_below(&r, 32);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.prior = pl;
        dls_balance *b = create(p, ELEMENTS, &par);
        assert_rel(makespan(pl, dls_balance_shares(b)) / optimum(pl, ELEMENTS), 1, 0.01);
        dls_balance_free(b);
        dls_platform_free(pl);
    }
    /* with weights: the weighted ordered optimum */
    uint64_t n = 3000;
    double *w = malloc(n * sizeof *w), total = 0;
    for (uint64_t e = 0; e < n; e++) {
        w[e] = test_logrange(&r, 0.1, 10);
        total += w[e];
    }
    for (int j = 0; j < 5; j++) {
        size_t p = 2 + (size_t)test_below(&r, 8);
        dls_platform *pl = paging_platform(&r, p, (uint64_t)total);
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.prior = pl;
        par.weights = w;
        dls_balance *b = create(p, n, &par);
        assert_rel(makespan_w(pl, dls_balance_shares(b), w) / optimum_w(pl, n, w), 1, 0.01);
        dls_balance_free(b);
        dls_platform_free(pl);
    }
    free(w);
}

TEST(test_determinism)
{
    test_rng r = test_rng_salted(3815);
    for (int mode = 0; mode < 2; mode++) {
        dls_platform *pl = paging_platform(&r, 17, ELEMENTS);
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.mode = mode ? DLS_BALANCE_CONSTANT : DLS_BALANCE_FUNCTIONAL;
        dls_balance *a = create(17, ELEMENTS, &par), *b = create(17, ELEMENTS, &par);
        double t[17];
        for (int k = 0; k < 20; k++) {
            assert_memory_equal(dls_balance_shares(a), dls_balance_shares(b),
                                17 * sizeof(uint64_t));
            /* the predictions and figures too, bit for bit (NaN included) */
            assert_memory_equal(dls_balance_predicted(a), dls_balance_predicted(b),
                                17 * sizeof(double));
            dls_balance_info ia, ib;
            assert_int_equal(dls_balance_get_info(a, &ia, NULL), DLS_OK);
            assert_int_equal(dls_balance_get_info(b, &ib, NULL), DLS_OK);
            assert_memory_equal(&ia, &ib, sizeof ia);
            measure(pl, a, NULL, 0.05, &r, t);
            dls_error err;
            assert_ok(dls_balance_step(a, 17, NULL, t, &err), &err);
            assert_ok(dls_balance_step(b, 17, NULL, t, &err), &err);
        }
        dls_balance_free(a);
        dls_balance_free(b);
        dls_platform_free(pl);
    }
}

/* Constant speeds (no memory heterogeneity): the constant rule is exact there, so both
 * modes must reach the optimum of the true models and stay. A gain within the tolerance
 * (and the noise band, both 2% by default) is not taken, so the constant mode gets within
 * 1/(1 - 0.02) of the optimum. The functional mode does not always: beyond a processor's
 * largest point its model assumes twice the last slope (BEYOND_WEIGHT in
 * src/balance/balance.c), so the gain of giving more to a fast processor sitting at its
 * largest size is underestimated and the balancer declares convergence early. Measured
 * (seed 20261122, case 16, p = 9, noise 0): it stops at 1.029 times the optimum with a
 * predicted gain of 1.7% against a true 2.9%. The bound for the default functional mode is
 * therefore the 5% of the issue; with tolerance and noise at 0.1% (mode 2) it must get
 * within 0.3%. The number of steps each needs is printed. */
TEST(test_constant_speeds)
{
    test_rng r = test_rng_salted(3831);
    size_t worst[3] = {0, 0, 0};
    static const double bound[3] = {WITHIN, 1.0205, 1.003};
    double last[3] = {0, 0, 0};
    size_t early = 0;
    for (int j = 0; j < 20; j++) {
        size_t p = 1 + (size_t)test_below(&r, 32);
        double speed[32];
        for (size_t i = 0; i < p; i++)
            speed[i] = test_logrange(&r, 1, 100) * 1e4;
        dls_platform *pl = constant_platform(p, speed);
        double opt = optimum(pl, ELEMENTS);
        for (int mode = 0; mode < 3; mode++) {
            dls_balance_params par;
            dls_balance_params_init(&par);
            par.mode = mode == 1 ? DLS_BALANCE_CONSTANT : DLS_BALANCE_FUNCTIONAL;
            if (mode == 2)
                par.noise = par.tolerance = 0.001;
            dls_balance *b = create(p, ELEMENTS, &par);
            size_t first = SIZE_MAX;
            for (size_t k = 0; k < 15; k++) {
                step(b, pl, NULL, 0, &r);
                double ratio = makespan(pl, dls_balance_shares(b)) / opt;
                if (ratio <= bound[mode] && first == SIZE_MAX)
                    first = k + 1;
                if (first != SIZE_MAX && !(ratio <= bound[mode]))
                    fail_msg("%s mode (%d), case %d (p = %zu): ratio %g at step %zu, within "
                             "%g at step %zu", dls_balance_mode_name(par.mode), mode, j, p,
                             ratio, k + 1, bound[mode], first);
            }
            if (first == SIZE_MAX)
                fail_msg("%s mode (%d), case %d (p = %zu): not within %g of the optimum in 15 "
                         "steps", dls_balance_mode_name(par.mode), mode, j, p, bound[mode]);
            worst[mode] = first > worst[mode] ? first : worst[mode];
            double end = makespan(pl, dls_balance_shares(b)) / opt;
            last[mode] = fmax(last[mode], end);
            early += mode == 0 && end > 1.0205;
            dls_balance_free(b);
        }
        dls_platform_free(pl);
    }
    printf("# constant speeds: reached the optimum (within the tolerance) after at most %zu "
           "steps (functional), %zu (constant), %zu (functional, tolerance 0.1%%); worst last "
           "ratios %.4f, %.4f, %.4f; functional stopped beyond 1/(1 - 0.02) on %zu of 20\n",
           worst[0], worst[1], worst[2], last[0], last[1], last[2], early);
}

/* Constant speeds 1 to 4 from the even split: worth moving unless moving costs more. */
TEST(test_move_worth)
{
    static const double speed[4] = {1e4, 2e4, 3e4, 4e4};
    dls_platform *pl = constant_platform(4, speed);
    test_rng r = test_rng_salted(3816);
    for (int huge = 0; huge < 2; huge++) {
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.move_cost = huge ? 1e6 : 0;
        par.horizon = huge ? 1 : par.horizon;
        dls_balance *b = create(4, 100000, &par);
        uint64_t before[4];
        memcpy(before, dls_balance_shares(b), sizeof before);
        step(b, pl, NULL, 0, &r);
        dls_balance_info in;
        dls_error err;
        assert_ok(dls_balance_get_info(b, &in, &err), &err);
        if (huge) {
            assert_int_equal(in.changed, 0);
            assert_int_equal(in.moved, 0);
            assert_true(in.move_cost > 0);
            assert_true(in.gain > 0);
            assert_memory_equal(before, dls_balance_shares(b), sizeof before);
            assert_int_equal(dls_move_plan_moved(dls_balance_moves(b)), 0);
        } else {
            assert_int_equal(in.changed, 1);
            assert_true(in.moved > 0);
            assert_int_equal(dls_move_plan_moved(dls_balance_moves(b)), in.moved);
            assert_true(dls_balance_shares(b)[3] > dls_balance_shares(b)[0]);
        }
        dls_balance_free(b);
    }
    dls_platform_free(pl);
}

/* A share never grows past trust times the largest size its processor was measured at;
 * max_points bounds the points kept; the constant mode's model is a constant. */
TEST(test_trust_and_points)
{
    test_rng r = test_rng_salted(3817);
    static const double trusts[3] = {1.5, 2, 4};
    for (int j = 0; j < 9; j++) {
        size_t p = 2 + (size_t)test_below(&r, 12);
        dls_platform *pl = paging_platform(&r, p, ELEMENTS);
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.trust = trusts[j % 3];
        par.max_points = 2 + (size_t)j % 4;
        par.mode = j == 8 ? DLS_BALANCE_CONSTANT : DLS_BALANCE_FUNCTIONAL;
        dls_balance *b = create(p, ELEMENTS, &par);
        double *largest = calloc(p, sizeof *largest);
        for (int k = 0; k < 12; k++) {
            for (size_t i = 0; i < p; i++)
                largest[i] = fmax(largest[i], (double)dls_balance_shares(b)[i]);
            step(b, pl, NULL, 0.02, &r);
            for (size_t i = 0; par.mode == DLS_BALANCE_FUNCTIONAL && i < p; i++)
                if ((double)dls_balance_shares(b)[i] > par.trust * largest[i] * (1 + 1e-9) + 1)
                    fail_msg("step %d: processor %zu gets %llu elements, past %g times the "
                             "%g it was measured at", k, i,
                             (unsigned long long)dls_balance_shares(b)[i], par.trust,
                             largest[i]);
            for (size_t i = 0; i < p; i++) {
                dls_model *m = NULL;
                dls_error err;
                assert_ok(dls_balance_get_model(b, i, &m, &err), &err);
                if (par.mode == DLS_BALANCE_CONSTANT) {
                    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_CONSTANT);
                } else {
                    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_POINTS);
                    assert_true(dls_model_count(m) <= par.max_points);
                }
                dls_model_free(m);
            }
        }
        free(largest);
        dls_balance_free(b);
        dls_platform_free(pl);
    }
}

/* The prior's links price a move: each transfer busies both ends for the link's startup
 * plus its rate per element; the cost is the busiest end's. */
TEST(test_move_cost_links)
{
    static const double speed[2] = {1e4, 4e4};
    dls_platform *pl = constant_platform(2, speed);
    dls_platform *prior = test_platform_new();
    for (size_t i = 0; i < 2; i++) {
        gen_add(prior, "q", i, gen_constant(1e4));
        gen_link(prior, i, 0.5, 1e-3);
    }
    test_rng r = test_rng_salted(3819);
    for (int far = 0; far < 2; far++) {
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.prior = prior;
        par.horizon = far ? 1000 : 10;
        dls_balance *b = create(2, 1000, &par);
        assert_true(dls_balance_shares(b)[0] == 500);
        step(b, pl, NULL, 0, &r);
        dls_balance_info in;
        dls_error err;
        assert_ok(dls_balance_get_info(b, &in, &err), &err);
        if (far) { /* worth it over 1000 iterations */
            assert_int_equal(in.changed, 1);
            assert_rel(in.move_cost, 0.5 + 1e-3 * (double)in.moved, 1e-12);
        } else { /* a gain of about 0.03 s per iteration: not over 10 */
            assert_int_equal(in.changed, 0);
            assert_true(in.move_cost > 0.5 && in.gain * 10 < in.move_cost);
        }
        dls_balance_free(b);
    }
    dls_platform_free(prior);
    dls_platform_free(pl);
}

/* use_limits = 0: the limits given are ignored (the fast processor takes more). */
TEST(test_limits_ignored)
{
    static const double speed[2] = {1e4, 4e4}, lim[2] = {INFINITY, 300};
    dls_platform *pl = constant_platform(2, speed);
    test_rng r = test_rng_salted(3818);
    for (int use = 0; use < 2; use++) {
        dls_balance_params par;
        dls_balance_params_init(&par);
        par.limits = lim;
        par.use_limits = use;
        dls_balance *b = create(2, 1000, &par);
        for (int k = 0; k < 8; k++)
            step(b, pl, NULL, 0, &r);
        uint64_t d1 = dls_balance_shares(b)[1];
        if (use)
            assert_true(d1 <= 300);
        else
            assert_true(d1 >= 750 && d1 <= 850); /* the optimum: 800 */
        dls_balance_free(b);
    }
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Refused inputs: the state unchanged */

typedef struct snapshot {
    uint64_t shares[4], first[4];
    double predicted[4];
    dls_balance_info info;
    uint64_t moved;
} snapshot;

static void take(const dls_balance *b, snapshot *s)
{
    dls_error err;
    memset(s, 0, sizeof *s);
    memcpy(s->shares, dls_balance_shares(b), 4 * sizeof *s->shares);
    memcpy(s->first, dls_balance_first(b), 4 * sizeof *s->first);
    memcpy(s->predicted, dls_balance_predicted(b), 4 * sizeof *s->predicted);
    assert_ok(dls_balance_get_info(b, &s->info, &err), &err);
    s->moved = dls_move_plan_moved(dls_balance_moves(b));
}

static void assert_unchanged(const dls_balance *b, const snapshot *before)
{
    snapshot now;
    take(b, &now);
    assert_memory_equal(&now, before, sizeof now);
}

/* The step with times[i] = t (the others right) is refused naming i and the value. */
static void refuse_time(dls_balance *b, const double *good, size_t i, double t,
                        const char *value)
{
    double times[4];
    memcpy(times, good, sizeof times);
    times[i] = t;
    snapshot s;
    take(b, &s);
    dls_error err;
    char who[32];
    snprintf(who, sizeof who, "processor %zu", i);
    assert_fails(dls_balance_step(b, 4, NULL, times, &err), DLS_EINVAL, &err, who);
    if (strstr(err.message, value) == NULL)
        fail_msg("message \"%s\" lacks the value %s", err.message, value);
    assert_non_null(strstr(err.message, "dls_balance_step"));
    assert_unchanged(b, &s);
}

TEST(test_step_refused)
{
    static const double speed[4] = {1e3, 2e3, 3e3, 4e3};
    dls_platform *pl = constant_platform(4, speed);
    static const uint64_t start[4] = {300, 300, 400, 0};
    dls_balance_params par;
    dls_balance_params_init(&par);
    par.start = start;
    dls_balance *b = create(4, 1000, &par);
    test_rng r = test_rng_salted(3820);
    /* before any step, and after one that left processor 3 without work */
    for (int k = 0; k < 2; k++) {
        double good[4];
        measure(pl, b, NULL, 0, &r, good);
        size_t busy = dls_balance_shares(b)[2] > 0 ? 2 : 1;
        refuse_time(b, good, busy, -1.5, "-1.5");
        refuse_time(b, good, busy, NAN, "nan");
        refuse_time(b, good, busy, INFINITY, "inf");
        refuse_time(b, good, busy, 0, "not 0");
        size_t idle = 4;
        for (size_t i = 0; i < 4; i++)
            if (dls_balance_shares(b)[i] == 0)
                idle = i;
        if (idle < 4)
            refuse_time(b, good, idle, 2.5, "2.5");
        snapshot s;
        take(b, &s);
        dls_error err;
        uint64_t ran[4];
        memcpy(ran, dls_balance_shares(b), sizeof ran);
        ran[0] += 7;
        char value[32];
        snprintf(value, sizeof value, "%llu", (unsigned long long)ran[0]);
        assert_fails(dls_balance_step(b, 4, ran, good, &err), DLS_EINVAL, &err, "processor 0");
        assert_non_null(strstr(err.message, value));
        assert_unchanged(b, &s);
        assert_fails(dls_balance_step(b, 5, NULL, good, &err), DLS_EINVAL, &err, "5 times");
        assert_unchanged(b, &s);
        assert_fails(dls_balance_step(b, 3, NULL, good, &err), DLS_EINVAL, &err, "3 times");
        assert_unchanged(b, &s);
        assert_fails(dls_balance_step(b, 4, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
        assert_unchanged(b, &s);
        assert_fails(dls_balance_step(NULL, 4, NULL, good, &err), DLS_EINVAL, &err, "NULL");
        assert_ok(dls_balance_step(b, 4, NULL, good, &err), &err);
        if (k == 0 && idle == 4)
            fail_msg("the start left processor 3 idle, but it has work");
    }
    dls_balance_free(b);
    dls_platform_free(pl);
}

/* dls_balance_create with params changed by `change` is refused with `st`, the message
 * naming `part`, *out untouched. */
#define REFUSE_CREATE(p, n, change, st, part)                                              \
    do {                                                                                   \
        dls_balance_params par;                                                            \
        dls_balance_params_init(&par);                                                     \
        change;                                                                            \
        dls_error err;                                                                     \
        dls_balance *keep = (dls_balance *)&err, *out = keep;                              \
        assert_fails(dls_balance_create((p), (n), &par, &out, &err), (st), &err, (part));  \
        assert_non_null(strstr(err.message, "dls_balance_create"));                        \
        assert_ptr_equal(out, keep);                                                       \
    } while (0)

TEST(test_create_refused)
{
    double lim[4] = {10, 10, 10, INFINITY}, small[4] = {10, 10, 10, 10};
    double zero_lim[4] = {10, 0, 10, 10}, nan_lim[4] = {10, 10, NAN, 10};
    double neg_lim[4] = {-1, 10, 10, 10};
    double w[100];
    for (int e = 0; e < 100; e++)
        w[e] = 1;
    uint64_t start[4] = {25, 25, 25, 24}, over[4] = {50, 50, 50, 0};
    dls_platform *three = test_platform_new();
    for (size_t i = 0; i < 3; i++)
        gen_add(three, "t", i, gen_constant(1));
    REFUSE_CREATE(4, 100, par.mode = (dls_balance_mode)7, DLS_EINVAL, "mode");
    REFUSE_CREATE(4, 100, par.use_limits = 2, DLS_EINVAL, "use_limits");
    REFUSE_CREATE(4, 100, par.noise = -0.01, DLS_EINVAL, "noise");
    REFUSE_CREATE(4, 100, par.noise = 0.5, DLS_EINVAL, "noise");
    REFUSE_CREATE(4, 100, par.noise = NAN, DLS_EINVAL, "noise");
    REFUSE_CREATE(4, 100, par.tolerance = 0, DLS_EINVAL, "tolerance");
    REFUSE_CREATE(4, 100, par.tolerance = 1, DLS_EINVAL, "tolerance");
    REFUSE_CREATE(4, 100, par.move_cost = -1, DLS_EINVAL, "move_cost");
    REFUSE_CREATE(4, 100, par.move_cost = NAN, DLS_EINVAL, "move_cost");
    REFUSE_CREATE(4, 100, par.move_cost = INFINITY, DLS_EINVAL, "move_cost");
    REFUSE_CREATE(4, 100, par.horizon = 0.5, DLS_EINVAL, "horizon");
    REFUSE_CREATE(4, 100, par.horizon = NAN, DLS_EINVAL, "horizon");
    REFUSE_CREATE(4, 100, par.trust = 1, DLS_EINVAL, "trust");
    REFUSE_CREATE(4, 100, par.trust = NAN, DLS_EINVAL, "trust");
    REFUSE_CREATE(4, 100, par.max_points = 1, DLS_EINVAL, "max_points");
    REFUSE_CREATE(4, 100, par.reserved[5] = 1, DLS_EINVAL, "reserved");
    REFUSE_CREATE(4, 100, par.prior = three, DLS_EINVAL, "3 processors");
    REFUSE_CREATE(4, 100, par.start = start, DLS_EINVAL, "99");
    REFUSE_CREATE(4, 100, par.start = over, DLS_EINVAL, "processor 2");
    REFUSE_CREATE(4, 100, par.limits = zero_lim, DLS_EINVAL, "processor 1");
    REFUSE_CREATE(4, 100, par.limits = nan_lim, DLS_EINVAL, "processor 2");
    REFUSE_CREATE(4, 100, par.limits = neg_lim, DLS_EINVAL, "processor 0");
    REFUSE_CREATE(4, 100, (par.weights = w, w[17] = 0), DLS_EINVAL, "element 17");
    REFUSE_CREATE(4, 100, (par.weights = w, w[17] = NAN), DLS_EINVAL, "element 17");
    w[17] = 1;
    REFUSE_CREATE(4, 100, par.limits = small, DLS_EDATA, "40");
    REFUSE_CREATE(0, 100, (void)0, DLS_EINVAL, "processors");
    REFUSE_CREATE(DLS_BALANCE_MAX_PROCESSORS + 1u, 100, (void)0, DLS_EINVAL, "processors");
    REFUSE_CREATE(4, 0, (void)0, DLS_EINVAL, "elements");
    REFUSE_CREATE(4, DLS_PARTITION_MAX_ELEMENTS + 1, (void)0, DLS_EINVAL, "elements");
    dls_error err;
    assert_fails(dls_balance_create(4, 100, NULL, NULL, &err), DLS_EINVAL, &err, "out");
    /* the limits given but ignored: accepted */
    dls_balance_params par;
    dls_balance_params_init(&par);
    par.limits = small;
    par.use_limits = 0;
    dls_balance *b = create(4, 100, &par);
    dls_balance_free(b);
    par.limits = lim;
    par.use_limits = 1;
    b = create(4, 100, &par);
    assert_true(dls_balance_shares(b)[3] >= 70);
    dls_balance_free(b);
    dls_platform_free(three);
}

/* ---------------------------------------------------------------------------------- */
/* Edges */

/* Steps on a constant platform; the last ratio to the optimum. */
static double constant_run(size_t p, const double *speed, uint64_t n, int steps)
{
    dls_platform *pl = constant_platform(p, speed);
    dls_balance *b = create(p, n, NULL);
    test_rng r = test_rng_salted(3830);
    for (int k = 0; k < steps; k++) {
        uint64_t sum = 0;
        for (size_t i = 0; i < p; i++)
            sum += dls_balance_shares(b)[i];
        assert_true(sum == n);
        step(b, pl, NULL, 0, &r);
    }
    double ratio = makespan(pl, dls_balance_shares(b)) / optimum(pl, n);
    dls_balance_free(b);
    dls_platform_free(pl);
    return ratio;
}

TEST(test_edges)
{
    /* before the first step: no figures, no moves, no prediction without a prior */
    dls_balance *fresh = create(3, 10, NULL);
    dls_balance_info in;
    dls_error err;
    assert_ok(dls_balance_get_info(fresh, &in, &err), &err);
    assert_true(in.steps == 0 && isnan(in.measured_makespan) && isnan(in.measured_imbalance));
    assert_true(isnan(in.predicted_current) && isnan(in.predicted_makespan));
    assert_true(dls_move_plan_moved(dls_balance_moves(fresh)) == 0);
    assert_true(isnan(dls_balance_predicted(fresh)[0]));
    static const uint64_t even[3] = {4, 3, 3};
    assert_memory_equal(dls_balance_shares(fresh), even, sizeof even);
    assert_fails(dls_balance_get_info(fresh, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_balance_free(fresh);
    dls_balance_free(NULL);
    static const double one[1] = {1e4}, five[5] = {1, 2, 3, 4, 5};
    assert_rel(constant_run(1, one, 1000, 5), 1, 1e-12);
    assert_rel(constant_run(1, one, 1, 5), 1, 1e-12);
    /* n = 1 over p = 5: the one element stays where it starts (the even split's first
     * processor), as no other processor is ever measured; the balancer does not explore
     * (speeds 1 to 5 keep it on the slowest, ratio 5: reported, not asserted). With the
     * fastest first it is optimal. */
    static const double five_down[5] = {5, 4, 3, 2, 1};
    assert_rel(constant_run(5, five_down, 1, 8), 1, 1e-12);
    assert_true(constant_run(5, five, 1, 8) <= 5);
    /* 3 elements over speeds 1 to 5: the idle processors report 0, yet the three fastest
     * are found */
    dls_platform *pl = constant_platform(5, five);
    dls_balance *b = create(5, 3, NULL);
    test_rng r = test_rng_salted(3831);
    for (int k = 0; k < 12; k++)
        step(b, pl, NULL, 0, &r);
    const uint64_t *d = dls_balance_shares(b);
    if (!(d[0] == 0 && d[1] == 0 && d[2] == 1 && d[3] == 1 && d[4] == 1))
        fail_msg("3 elements over speeds 1..5 end as %llu %llu %llu %llu %llu",
                 (unsigned long long)d[0], (unsigned long long)d[1], (unsigned long long)d[2],
                 (unsigned long long)d[3], (unsigned long long)d[4]);
    dls_balance_free(b);
    dls_platform_free(pl);
    /* a start with every element on the slowest: the others, never measured, are tried */
    static const double four[4] = {1e3, 2e3, 3e3, 4e3};
    static const uint64_t all_first[4] = {1000, 0, 0, 0};
    pl = constant_platform(4, four);
    dls_balance_params par;
    dls_balance_params_init(&par);
    par.start = all_first;
    b = create(4, 1000, &par);
    assert_memory_equal(dls_balance_shares(b), all_first, sizeof all_first);
    for (int k = 0; k < 8; k++)
        step(b, pl, NULL, 0, &r);
    assert_rel(makespan(pl, dls_balance_shares(b)) / optimum(pl, 1000), 1, 0.05);
    dls_balance_free(b);
    dls_platform_free(pl);
    /* extreme magnitudes: slow (1e-6 elements/s) and fast (1e12) processors */
    static const double slow[4] = {1e-6, 2e-6, 3e-6, 4e-6}, fast[4] = {1e12, 2e12, 3e12, 4e12};
    static const double mixed[2] = {1e-6, 1e-5};
    assert_rel(constant_run(4, slow, 1000, 10), 1, 0.05);
    assert_rel(constant_run(4, fast, 1000000000000000ull, 10), 1, 0.05);
    assert_rel(constant_run(2, mixed, 1000, 10), 1, 0.05);
}

/* 10^5 processors, one step (not timed). */
TEST(test_many_processors)
{
    size_t p = 100000;
    uint64_t n = 100 * (uint64_t)p;
    dls_balance *b = create(p, n, NULL);
    double *t = malloc(p * sizeof *t);
    for (size_t i = 0; i < p; i++)
        t[i] = (double)dls_balance_shares(b)[i] / (1e4 * (double)(1 + i % 7));
    dls_error err;
    assert_ok(dls_balance_step(b, p, NULL, t, &err), &err);
    uint64_t sum = 0;
    for (size_t i = 0; i < p; i++)
        sum += dls_balance_shares(b)[i];
    assert_true(sum == n);
    /* the fastest kind gets more than the slowest */
    assert_true(dls_balance_shares(b)[6] > dls_balance_shares(b)[0]);
    free(t);
    dls_balance_free(b);
}

/* ---------------------------------------------------------------------------------- */
/* The models given back */

TEST(test_get_model)
{
    enum { P = 6, K = 12 };
    test_rng r = test_rng_salted(3840);
    dls_platform *pl = paging_platform(&r, P, ELEMENTS);
    dls_balance *b = create(P, ELEMENTS, NULL);
    double xs[K][P], ts[K][P];
    dls_model *m = NULL;
    dls_error err;
    assert_fails(dls_balance_get_model(b, 0, &m, &err), DLS_EINVAL, &err, "processor 0");
    assert_fails(dls_balance_get_model(b, P, &m, &err), DLS_EINVAL, &err, "6 processors");
    assert_null(m);
    for (int k = 0; k < K; k++) {
        for (size_t i = 0; i < P; i++)
            xs[k][i] = (double)dls_balance_shares(b)[i];
        measure(pl, b, NULL, 0.02, &r, ts[k]);
        assert_ok(dls_balance_step(b, P, NULL, ts[k], &err), &err);
        dls_balance_info in;
        assert_ok(dls_balance_get_info(b, &in, &err), &err);
        assert_int_equal(in.drifted, 0); /* 2% noise within the bands: nothing forgotten */
    }
    for (size_t i = 0; i < P; i++) {
        assert_ok(dls_balance_get_model(b, i, &m, &err), &err);
        size_t np;
        const double *x, *s, *lo, *hi;
        assert_ok(dls_model_get_points(m, &np, &x, &s, &lo, &hi), &err);
        assert_non_null(lo);
        /* each measurement belongs to a point within 1e-3 (sizes that close merge, and a
         * merged point's size is their mean, so two points may be that close: then the
         * measurement is in one of their bands and counted for neither) */
        double tsum[K] = {0}, xsum[K] = {0};
        int cnt[K] = {0}, same[K], seen[K] = {0}, ambiguous[K] = {0};
        assert_true(np <= K);
        for (size_t q = 0; q < np; q++)
            same[q] = 1;
        for (int k = 0; k < K; k++) {
            double v = xs[k][i] / ts[k][i];
            size_t near = 0, last = 0;
            int inside = 0;
            for (size_t u = 0; u < np; u++) {
                if (!test_close(xs[k][i], x[u], 1e-3, 0))
                    continue;
                near++;
                last = u;
                seen[u] = 1;
                inside |= v >= lo[u] * (1 - 1e-12) && v <= hi[u] * (1 + 1e-12);
            }
            if (near == 0 || !inside)
                fail_msg("processor %zu: speed %g measured at size %g in no point's band", i,
                         v, xs[k][i]);
            for (size_t u = 0; near > 1 && u < np; u++)
                ambiguous[u] |= test_close(xs[k][i], x[u], 1e-3, 0);
            if (near > 1)
                continue;
            same[last] &= xs[k][i] == x[last];
            tsum[last] += ts[k][i];
            xsum[last] += xs[k][i];
            cnt[last]++;
        }
        for (size_t q = 0; q < np; q++) {
            if (!seen[q])
                fail_msg("processor %zu: model point %g was never measured", i, x[q]);
            assert_true(lo[q] <= s[q] && s[q] <= hi[q]);
            if (ambiguous[q])
                continue;
            assert_rel(x[q], xsum[q] / cnt[q], 1e-9);
            if (same[q]) /* speed = size / mean time */
                assert_rel(s[q], x[q] / (tsum[q] / cnt[q]), 1e-9);
        }
        dls_model_free(m);
    }
    dls_balance_free(b);
    dls_platform_free(pl);
}

TEST_MAIN("balance", test_against_optimum, test_constant_oscillates, test_no_oscillation,
          test_constant_speeds, test_limits, test_weights, test_drift, test_prior, test_determinism, test_move_worth,
          test_trust_and_points, test_move_cost_links, test_limits_ignored,
          test_step_refused, test_create_refused, test_edges, test_many_processors,
          test_get_model)
