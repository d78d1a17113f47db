/* Tests of model building by measurement, with simulated kernels whose speed function is
 * known (deterministic and fast): the statistics, the accuracy reached against the true
 * function, the economy against uniform grids, points where the function bends, the limits,
 * cancellation and resumption, and the OpenBLAS kernels themselves. */
#include <time.h>

#include "core/stats.h"
#include "testutil.h"

TEST(test_t_quantiles)
{
    /* two-sided 95% and 99% critical values from the tables */
    static const unsigned nu[] = {1, 2, 3, 4, 5, 9, 19, 29, 99};
    static const double t95[] = {12.7062047, 4.30265273, 3.18244631, 2.77644511, 2.57058184,
                                 2.26215716, 2.09302405, 2.04522964, 1.98421695};
    static const double t99[] = {63.6567412, 9.92484320, 5.84090931, 4.60409487, 4.03214298,
                                 3.24983554, 2.86093461, 2.75638590, 2.62640546};
    for (int i = 0; i < 9; i++) {
        assert_rel(dls__t_quantile(0.975, nu[i]), t95[i], 1e-7);
        assert_rel(dls__t_quantile(0.995, nu[i]), t99[i], 1e-7);
    }
    assert_rel(dls__normal_quantile(0.975), 1.959963984540054, 1e-12);
    assert_rel(dls__normal_quantile(0.001), -3.090232306167814, 1e-10);
}

typedef struct recorder {
    dls_bench_point pts[256];
    size_t n;
    size_t cancel_after; /* 0: never */
} recorder;

static int record(const dls_bench_point *p, void *data)
{
    recorder *r = data;
    r->pts[r->n++] = *p;
    return r->cancel_after && r->n >= r->cancel_after;
}

/* Largest relative error of a model against the true function over sizes in [lo, hi]. */
static double max_error(const dls_model *m, const dls_model *truth, double lo, double hi)
{
    double worst = 0;
    for (int i = 0; i <= 2000; i++) {
        double x = lo * pow(hi / lo, i / 2000.0);
        double t = dls_model_speed(truth, x);
        worst = fmax(worst, fabs(dls_model_speed(m, x) - t) / t);
    }
    return worst;
}

/* The smallest uniform (log-spaced) grid whose interpolation of the true function is as
 * accurate as `target`. */
static size_t uniform_points_for(const dls_model *truth, double lo, double hi, double target)
{
    dls_error err;
    for (size_t n = 2; n < 2000; n++) {
        double x[2000], s[2000];
        for (size_t i = 0; i < n; i++) {
            x[i] = lo * pow(hi / lo, (double)i / (double)(n - 1));
            s[i] = dls_model_speed(truth, x[i]);
        }
        dls_model *g;
        assert_ok(dls_model_create_points(n, x, s, NULL, NULL, &g, &err), &err);
        double e = max_error(g, truth, lo, hi);
        dls_model_free(g);
        if (e <= target)
            return n;
    }
    return 2000;
}

/* A simulated processor: a kernel that measures the true speed function with a relative
 * noise and a delay per run (s), and build parameters for the sizes 1e2 to 1e8. */
typedef struct simulated {
    dls_model *truth;
    dls_kernel k;
    dls_bench_params par;
} simulated;

static void sim_open(simulated *sim, double noise, double delay)
{
    dls_error err;
    sim->truth = test_paging_model();
    assert_ok(dls_model_kernel_create(sim->truth, noise, delay, &sim->k, &err), &err);
    dls_bench_params_init(&sim->par);
    sim->par.min_size = 1e2;
    sim->par.max_size = 1e8;
}

static void sim_close(simulated *sim)
{
    dls_kernel_free(&sim->k);
    dls_model_free(sim->truth);
}

TEST(test_adaptive_against_uniform)
{
    simulated sim;
    sim_open(&sim, 0.01, 0);
    dls_error err;
    sim.par.max_points = 80;
    sim.par.max_model_points = 80; /* room to converge: the error is what is measured here */
    dls_bench *b;
    assert_ok(dls_bench_build(&sim.k, &sim.par, &b, &err), &err);
    assert_int_equal(dls_bench_stopped(b), DLS_BENCH_CONVERGED);
    const dls_model *m = dls_bench_model(b);
    assert_true(dls_model_has_bands(m));
    double e = max_error(m, sim.truth, 1e2, 1e8);
    size_t kept = dls_model_count(m), measured;
    dls_bench_points(b, &measured);
    /* the accuracy asked for (5%), plus the measurement noise (1%) */
    assert_true(e <= sim.par.precision + 0.02);
    size_t uniform = uniform_points_for(sim.truth, 1e2, 1e8, e);
    printf("# adaptive: %zu points kept (%zu measured), error %.3g; a uniform grid needs %zu "
           "points for that\n", kept, measured, e, uniform);
    assert_true(kept < uniform);
    /* points where the function bends: near every knot of the truth where the chord of its
     * neighbours misses it by more than twice the precision */
    const double *tx, *ts;
    size_t tn;
    dls_model_get_points(sim.truth, &tn, &tx, &ts, NULL, NULL);
    const double *mx;
    size_t mn;
    dls_model_get_points(m, &mn, &mx, NULL, NULL, NULL);
    int bends = 0;
    for (size_t i = 1; i + 1 < tn; i++) {
        double chord = ts[i - 1] + (ts[i + 1] - ts[i - 1]) * (tx[i] - tx[i - 1]) / (tx[i + 1] - tx[i - 1]);
        if (fabs(chord - ts[i]) <= 2 * sim.par.precision * ts[i])
            continue;
        bends++;
        double best = INFINITY;
        for (size_t j = 0; j < mn; j++)
            best = fmin(best, fabs(log(mx[j] / tx[i])));
        if (!(best <= log(2.0)))
            fail_msg("no point within a factor 2 of the bend at %g", tx[i]);
    }
    assert_true(bends >= 3);
    /* every point within the limits, and the largest size measured */
    const dls_bench_point *pts = dls_bench_points(b, &measured);
    assert_rel(pts[0].size, 1e2, 0);
    assert_rel(pts[measured - 1].size, 1e8, 0);
    assert_rel(dls_bench_limit(b), 1e8, 0);
    for (size_t i = 0; i < measured; i++) {
        assert_true(pts[i].low <= pts[i].speed && pts[i].speed <= pts[i].high);
        assert_true(pts[i].reps >= sim.par.min_reps);
        /* the confidence interval met the precision (or the run hit its cap) */
        assert_true(pts[i].ci <= sim.par.precision * pts[i].time ||
                    pts[i].reps == sim.par.max_reps);
    }
    dls_bench_free(b);
    sim_close(&sim);
}

TEST(test_resume_gives_the_same_model)
{
    simulated sim;
    sim_open(&sim, 0.02, 0);
    dls_error err;
    recorder full = {.n = 0};
    sim.par.on_point = record;
    sim.par.on_point_data = &full;
    dls_bench *ref;
    assert_ok(dls_bench_build(&sim.k, &sim.par, &ref, &err), &err);
    for (size_t cut = 1; cut < full.n; cut += 3) {
        /* a run killed after `cut` points... */
        recorder part = {.n = 0, .cancel_after = cut};
        sim.par.on_point_data = &part;
        sim.par.resume = NULL;
        sim.par.resume_count = 0;
        dls_bench *b = NULL;
        assert_fails(dls_bench_build(&sim.k, &sim.par, &b, &err), DLS_ECANCELED, &err, "canceled");
        assert_null(b);
        assert_int_equal(part.n, cut);
        /* ...resumed from its log measures only the rest, and ends where the full run did */
        recorder rest = {.n = 0};
        sim.par.on_point_data = &rest;
        sim.par.resume = part.pts;
        sim.par.resume_count = part.n;
        assert_ok(dls_bench_build(&sim.k, &sim.par, &b, &err), &err);
        assert_int_equal(part.n + rest.n, full.n);
        assert_true(dls_model_equal(dls_bench_model(b), dls_bench_model(ref)));
        dls_bench_free(b);
    }
    dls_bench_free(ref);
    sim_close(&sim);
}

TEST(test_stops)
{
    simulated sim;
    sim_open(&sim, 0.02, 0);
    dls_error err;
    dls_bench *b;
    /* the point cap */
    sim.par.max_points = 9;
    assert_ok(dls_bench_build(&sim.k, &sim.par, &b, &err), &err);
    assert_int_equal(dls_bench_stopped(b), DLS_BENCH_MAX_POINTS);
    size_t n;
    dls_bench_points(b, &n);
    assert_int_equal(n, 9);
    dls_bench_free(b);
    dls_kernel_free(&sim.k);
    /* the time budget, with runs that take real time */
    assert_ok(dls_model_kernel_create(sim.truth, 0.02, 0.004, &sim.k, &err), &err);
    sim.par.max_points = 40;
    sim.par.time_budget = 0.3;
    assert_ok(dls_bench_build(&sim.k, &sim.par, &b, &err), &err);
    assert_int_equal(dls_bench_stopped(b), DLS_BENCH_BUDGET);
    assert_true(dls_bench_elapsed(b) < 1.0);
    const dls_bench_point *pts = dls_bench_points(b, &n);
    assert_true(n >= 2);
    /* the largest size came down to what the budget could pay for, and says so */
    assert_true(dls_bench_budget_top(b) > sim.par.min_size &&
                dls_bench_budget_top(b) < sim.par.max_size);
    assert_true(pts[n - 1].size <= dls_bench_budget_top(b) * (1 + 1e-9));
    assert_rel(dls_bench_limit(b), sim.par.max_size, 0);
    dls_bench_free(b);
    sim_close(&sim);
}

/* The progress callback sees fractions in [0, 1], and cancels with DLS_ECANCELED. */
typedef struct progress_seen {
    int calls, out_of_range;
    int cancel_at;      /* the call that cancels, 0 for none */
} progress_seen;

static int see_progress(double fraction, void *data)
{
    progress_seen *s = data;
    s->calls++;
    s->out_of_range += !(fraction >= 0 && fraction <= 1);
    return s->cancel_at > 0 && s->calls >= s->cancel_at;
}

TEST(test_progress)
{
    simulated sim;
    sim_open(&sim, 0.02, 0);
    dls_error err;
    dls_bench *b = NULL;
    progress_seen seen = {0, 0, 0};
    sim.par.progress = see_progress;
    sim.par.progress_data = &seen;
    assert_ok(dls_bench_build(&sim.k, &sim.par, &b, &err), &err);
    assert_true(seen.calls > 10);
    assert_int_equal(seen.out_of_range, 0);
    dls_bench_free(b);
    seen = (progress_seen){0, 0, 7};
    b = NULL;
    assert_fails(dls_bench_build(&sim.k, &sim.par, &b, &err), DLS_ECANCELED, &err, "canceled");
    assert_null(b);
    assert_int_equal(seen.calls, 7);
    sim_close(&sim);
}

/* A kernel that needs 8 bytes per unit: the largest size comes from the memory available. */
static double eight_bytes(double size, void *data)
{
    (void)data;
    return 8 * size;
}

static double fail_above(double size, double *work, void *data)
{
    *work = size;
    return size > *(double *)data ? -1 : size * 1e-9;
}

TEST(test_memory_limit_and_failures)
{
    dls_error err;
    double avail;
    assert_ok(dls_memory_available(&avail, &err), &err);
    assert_true(avail > 1e6);
    dls_model *truth = test_paging_model();
    dls_kernel k;
    assert_ok(dls_model_kernel_create(truth, 0, 0, &k, &err), &err);
    k.memory = eight_bytes;
    k.integer_sizes = 1;
    dls_bench_params par;
    dls_bench_params_init(&par);
    par.memory_fraction = 1e-6;
    par.max_points = 6;
    dls_bench *b;
    assert_ok(dls_bench_build(&k, &par, &b, &err), &err);
    /* the largest size fits the share of memory, and is whole */
    double lim = dls_bench_limit(b);
    assert_true(8 * lim <= 1e-6 * avail * 1.001 && 8 * (lim + 1) > 1e-6 * avail * 0.999);
    assert_rel(lim, floor(lim), 0);
    size_t n;
    const dls_bench_point *p = dls_bench_points(b, &n);
    for (size_t i = 0; i < n; i++)
        assert_true(p[i].size <= lim && p[i].size == floor(p[i].size));
    dls_bench_free(b);
    dls_kernel_free(&k);
    dls_model_free(truth);

    /* a failing run is reported with its size */
    double above = 500;
    dls_kernel f = {.name = "flaky", .run = fail_above, .data = &above, .integer_sizes = 1};
    dls_bench_params_init(&par);
    par.max_size = 1000;
    assert_fails(dls_bench_build(&f, &par, &b, &err), DLS_EIO, &err, "kernel \"flaky\" failed at size");
    /* parameters */
    dls_bench_params_init(&par);
    assert_fails(dls_bench_build(&f, &par, &b, &err), DLS_EINVAL, &err, "no memory formula");
    par.max_size = 100;
    par.min_size = 200;
    assert_fails(dls_bench_build(&f, &par, &b, &err), DLS_EINVAL, &err, "max_size");
    /* one bad value each, max_size given */
    dls_bench_params bad[3];
    static const char *const names[3] = {"precision", "min_reps", "initial_points"};
    for (size_t j = 0; j < 3; j++) {
        dls_bench_params_init(&bad[j]);
        bad[j].max_size = 100;
    }
    bad[0].precision = 0;
    bad[1].min_reps = 1;
    bad[2].initial_points = 1;
    for (size_t j = 0; j < 3; j++) {
        par = bad[j];
        assert_fails(dls_bench_build(&f, &par, &b, &err), DLS_EINVAL, &err, names[j]);
    }
    assert_fails(dls_bench_build(NULL, &par, &b, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_model_kernel_create(NULL, 0, 0, &k, &err), DLS_EINVAL, &err, "NULL");
    dls_bench_free(NULL);
}

TEST(test_measure_given_sizes)
{
    simulated sim;
    sim_open(&sim, 0.01, 0);
    dls_error err;
    const double sizes[] = {3e2, 5e4, 2e7};
    dls_bench_point pts[3];
    assert_ok(dls_bench_measure(&sim.k, NULL, sizes, 3, pts, &err), &err);
    for (int i = 0; i < 3; i++) {
        assert_rel(pts[i].size, sizes[i], 0);
        assert_rel(pts[i].speed, dls_model_speed(sim.truth, sizes[i]), 0.011);
    }
    const double bad[] = {1, -1};
    assert_fails(dls_bench_measure(&sim.k, NULL, bad, 2, pts, &err), DLS_EINVAL, &err, "size 2");
    sim_close(&sim);
}

TEST(test_blas_kernels)
{
    dls_error err;
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    bp.fixed = 64;
    dls_kernel k;
    assert_ok(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), &err);
    assert_string_equal(k.name, "gemm-rows");
    /* the work in the size's unit (rows, block columns: the platform format's x / s(x)),
     * or with operations in multiply-adds and block updates (2-D speeds) */
    double work;
    double t = k.run(16, &work, k.data);
    assert_true(t > 0);
    assert_rel(work, 16, 0);
    assert_rel(k.memory(16, k.data), 8 * (2 * 16 * 64 + 64 * 64), 0);
    dls_kernel_free(&k);
    bp.operations = 1;
    assert_ok(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), &err);
    assert_true(k.run(16, &work, k.data) > 0);
    assert_rel(work, 16.0 * 64 * 64, 0);
    dls_kernel_free(&k);
    bp.operations = 2;
    assert_fails(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), DLS_EINVAL, &err,
                 "operations must be 0");
    bp.operations = 0;
    bp.fixed = 4;
    bp.block = 8;
    assert_ok(dls_blas_kernel_create(DLS_KERNEL_LU_UPDATE, &bp, &k, &err), &err);
    t = k.run(3, &work, k.data);
    assert_true(t > 0);
    assert_rel(work, 3, 0);
    dls_kernel_free(&k);
    bp.operations = 1;
    assert_ok(dls_blas_kernel_create(DLS_KERNEL_LU_UPDATE, &bp, &k, &err), &err);
    assert_true(k.run(3, &work, k.data) > 0);
    assert_rel(work, 12, 0);
    assert_rel(k.memory(3, k.data), 8 * 64 * (4 + 3 + 12), 0);
    /* a short real build */
    dls_bench_params par;
    dls_bench_params_init(&par);
    par.max_size = 64;
    par.max_points = 6;
    par.size_time_cap = 0.05;
    dls_bench *b;
    assert_ok(dls_bench_build(&k, &par, &b, &err), &err);
    assert_true(dls_model_count(dls_bench_model(b)) >= 2);
    dls_bench_free(b);
    dls_kernel_free(&k);
    bp.fixed = 0.5;
    assert_fails(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), DLS_EINVAL, &err,
                 "whole number");
    dls_blas_kernel_params_init(&bp);
    bp.block = 0;
    assert_fails(dls_blas_kernel_create(DLS_KERNEL_LU_UPDATE, &bp, &k, &err), DLS_EINVAL, &err,
                 "block");
    assert_fails(dls_blas_kernel_create((dls_blas_kernel_kind)7, NULL, &k, &err), DLS_EINVAL, &err,
                 "unknown");
}

TEST_MAIN("bench", test_t_quantiles, test_adaptive_against_uniform,
          test_resume_gives_the_same_model, test_stops, test_memory_limit_and_failures,
          test_measure_given_sizes, test_blas_kernels, test_progress)
