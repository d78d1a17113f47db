/* Model building on synthetic processors with the structures real kernels show (issue 24):
 * a smooth rise, cache steps, a speed by the residue modulo a block, a paging cliff, noise
 * of 2% to 20%, runs of microseconds. Each processor is built with the library's defaults
 * (accuracy 5%, at most 12 points in the model) and must converge within the cap, with at
 * least 90% of held-out sizes within the accuracy or the band. The held-out figures are
 * checked here against the processor's true speed too (dls_synthetic_speed), which the
 * build never sees. Also: the stop reasons, the summary, the top of the range under a
 * budget, resumption, dls_bench_validate and every rejected parameter. */
#include <config.h>

#include <time.h>

#include "testutil.h"

/* Share of held-out sizes the model must hold. */
#define HELD_OUT_SHARE 0.9
/* Held-out sizes per processor. */
#define HELD_OUT 20

typedef struct shape {
    const char *name;
    double lo, hi;          /* the range measured */
    dls_synthetic_params p; /* its structure (noise set by the caller) */
} shape;

static shape make_shape(int which)
{
    shape s;
    dls_synthetic_params_init(&s.p);
    s.lo = 1e2;
    s.hi = 1e8;
    switch (which) {
    case 0:
        s.name = "smooth rise";
        s.p.rise = 1e4;
        break;
    case 1:
        s.name = "cache steps";
        s.p.steps = 2;
        s.p.step_size[0] = 1e4;
        s.p.step_factor[0] = 0.7;
        s.p.step_size[1] = 1e6;
        s.p.step_factor[1] = 0.6;
        break;
    case 2:
        s.name = "modulo a block";
        s.lo = 8;
        s.hi = 1e5;
        s.p.rise = 30;
        s.p.block = 32;
        s.p.block_amplitude = 0.25;
        s.p.integer_sizes = 1;
        break;
    case 3:
        s.name = "paging cliff";
        s.p.rise = 1e3;
        s.p.paging = 3e6;
        s.p.paging_factor = 5;
        break;
    case 4:
        s.name = "microsecond runs";
        s.lo = 1;
        s.hi = 1e6;
        s.p.tick = 2e-6;
        s.p.min_run_time = 0.005;
        break;
    default:
        s.name = "all at once";
        s.lo = 8;
        s.p.rise = 3e3;
        s.p.steps = 1;
        s.p.step_size[0] = 1e5;
        s.p.step_factor[0] = 0.7;
        s.p.block = 64;
        s.p.block_amplitude = 0.15;
        s.p.integer_sizes = 1;
        s.p.paging = 2e7;
        s.p.paging_factor = 4;
        s.p.tick = 1e-6;
        s.p.min_run_time = 0.005;
        break;
    }
    return s;
}

/* The kernel of p, and bench params over [lo, hi] with the rest at their defaults. */
static void bench_setup(const dls_synthetic_params *p, double lo, double hi, dls_kernel *k,
                        dls_bench_params *par)
{
    dls_error err;
    assert_ok(dls_synthetic_kernel_create(p, k, &err), &err);
    dls_bench_params_init(par);
    par->min_size = lo;
    par->max_size = hi;
}

/* The build, which must succeed. */
static dls_bench *built(const dls_kernel *k, const dls_bench_params *par)
{
    dls_error err;
    dls_bench *b = NULL;
    assert_ok(dls_bench_build(k, par, &b, &err), &err);
    return b;
}

#define SHAPES 6

/* Builds the processor and checks the account: converged within the caps (every
 * structure alone; all of them at once may stop at a cap, which it must then say), the
 * range measured to its end, and the held-out sizes. */
static void converges(int which, double noise)
{
    shape s = make_shape(which);
    s.p.noise = noise;
    dls_kernel k;
    dls_bench_params par;
    bench_setup(&s.p, s.lo, s.hi, &k, &par);
    par.validate = HELD_OUT;
    dls_bench *b = built(&k, &par);
    dls_bench_summary u;
    assert_int_equal(dls_bench_get_summary(b, &u), DLS_OK);
    size_t nc;
    const dls_bench_check *c = dls_bench_held_out(b, &nc);
    /* the truth at the held-out sizes: the model within the accuracy or its band */
    size_t truth_within = 0;
    for (size_t i = 0; i < nc; i++) {
        double t = dls_synthetic_speed(&k, c[i].size);
        truth_within += fabs(c[i].predicted - t) <= par.accuracy * t ||
                        (t >= c[i].model_low && t <= c[i].model_high);
    }
    printf("# %-16s noise %4.0f%%: %s, %2zu measured, %2zu kept; held out %zu of %zu "
           "within (the truth: %zu), largest error %.3g\n", s.name, 100 * noise,
           dls_bench_stop_name(u.stop), u.measured, u.kept, u.within, u.held_out,
           truth_within, u.held_out_error);
    if (which < SHAPES - 1 && u.stop != DLS_BENCH_CONVERGED)
        fail_msg("%s, noise %g: stopped by %s", s.name, noise, dls_bench_stop_name(u.stop));
    if (u.stop == DLS_BENCH_MAX_POINTS)
        assert_int_equal(u.measured, par.max_points);
    if (u.stop == DLS_BENCH_MODEL_POINTS)
        assert_true(u.fine > 0);
    assert_true(u.kept <= DLS_BENCH_DEFAULT_MODEL_POINTS);
    assert_int_equal(u.kept, dls_model_count(dls_bench_model(b)));
    assert_rel(u.smallest, s.lo, 0);
    assert_rel(u.largest, s.hi, 0);
    assert_false(u.top_by_budget);
    assert_int_equal(u.held_out, HELD_OUT);
    assert_int_equal(nc, HELD_OUT);
    if (!((double)u.within >= HELD_OUT_SHARE * HELD_OUT &&
          (double)truth_within >= HELD_OUT_SHARE * HELD_OUT))
        fail_msg("%s, noise %g: %zu and %zu (the truth) of %d held-out sizes within", s.name,
                 noise, u.within, truth_within, HELD_OUT);
    /* the held-out sizes are new, in the range, increasing, and their figures consistent */
    size_t np;
    const dls_bench_point *pts = dls_bench_points(b, &np);
    assert_int_equal(np, u.measured);
    for (size_t i = 0; i < nc; i++) {
        for (size_t j = 0; j < np; j++)
            assert_true(pts[j].size != c[i].size);
        assert_true(c[i].size >= s.lo && c[i].size <= s.hi);
        assert_true(i == 0 || c[i].size > c[i - 1].size);
        assert_rel(c[i].predicted, dls_model_speed(dls_bench_model(b), c[i].size), 1e-12);
        assert_rel(c[i].error, fabs(c[i].predicted - c[i].speed) / c[i].speed, 1e-12);
        assert_true(c[i].model_low <= c[i].predicted && c[i].predicted <= c[i].model_high);
    }
    /* the model's bands hold every size measured (kept or not) */
    for (size_t j = 0; j < np; j++) {
        double lo, hi, sp = dls_model_speed(dls_bench_model(b), pts[j].size);
        size_t nk;
        const double *x, *ls, *hs;
        dls_model_get_points(dls_bench_model(b), &nk, &x, NULL, &ls, &hs);
        size_t q = 0;
        while (q + 2 < nk && x[q + 1] <= pts[j].size)
            q++;
        double w = (pts[j].size - x[q]) / (x[q + 1] - x[q]);
        lo = ls[q] + (ls[q + 1] - ls[q]) * w;
        hi = hs[q] + (hs[q + 1] - hs[q]) * w;
        int held = (pts[j].speed >= lo * (1 - 1e-12) && pts[j].speed <= hi * (1 + 1e-12)) ||
                   fabs(sp - pts[j].speed) <= par.accuracy * pts[j].speed ||
                   (sp >= pts[j].low && sp <= pts[j].high);
        if (!held)
            fail_msg("%s: size %g measured at %g, the model says %g in [%g, %g]", s.name,
                     pts[j].size, pts[j].speed, sp, lo, hi);
    }
    dls_bench_free(b);
    dls_kernel_free(&k);
}

TEST(test_each_structure_converges)
{
    for (int which = 0; which < SHAPES; which++)
        converges(which, 0.02);
}

TEST(test_noise_up_to_20_percent)
{
    for (int which = 0; which < SHAPES; which++) {
        converges(which, 0.1);
        converges(which, 0.2);
    }
}

/* Microsecond runs without the loop: their times are the clock's noise, so the model is
 * far from the truth at small sizes, which the loop fixes (converges() above). */
TEST(test_short_runs_need_the_loop)
{
    shape s = make_shape(4);
    s.p.min_run_time = 0;
    dls_kernel k;
    dls_bench_params par;
    bench_setup(&s.p, s.lo, s.hi, &k, &par);
    dls_bench *b = built(&k, &par);
    double x = 10, t = dls_synthetic_speed(&k, x);
    double worst = fabs(dls_model_speed(dls_bench_model(b), x) - t) / t;
    printf("# microsecond runs without the loop: the model is %.3g off at size %g\n", worst, x);
    assert_true(worst > 0.5);
    dls_bench_free(b);
    dls_kernel_free(&k);
}

/* The point cap of the model: reached, said, and never exceeded; every interval still
 * examined (their bands widened), and the model's bands hold what was measured. */
TEST(test_model_point_cap)
{
    shape s = make_shape(5);
    dls_kernel k;
    dls_bench_params par;
    bench_setup(&s.p, s.lo, s.hi, &k, &par);
    dls_error err;
    par.max_model_points = 5;
    dls_bench *b = built(&k, &par);
    dls_bench_summary u;
    dls_bench_get_summary(b, &u);
    assert_int_equal(u.stop, DLS_BENCH_MODEL_POINTS);
    assert_int_equal(dls_bench_stopped(b), DLS_BENCH_MODEL_POINTS);
    assert_true(u.kept <= 5);
    assert_true(u.fine > 0 && u.fine_error > par.accuracy);
    assert_true(u.widened > 0 && u.widening > 0);
    assert_string_equal(dls_bench_stop_name(DLS_BENCH_MODEL_POINTS), "model points");
    dls_bench_stop st;
    assert_int_equal(dls_bench_stop_from_name("model points", &st), DLS_OK);
    assert_int_equal(st, DLS_BENCH_MODEL_POINTS);
    dls_bench_free(b);
    /* the cap of points measured comes first when it is lower */
    par.max_model_points = 0;
    par.max_points = 8;
    assert_ok(dls_bench_build(&k, &par, &b, &err), &err);
    dls_bench_get_summary(b, &u);
    assert_int_equal(u.stop, DLS_BENCH_MAX_POINTS);
    assert_int_equal(u.measured, 8);
    dls_bench_free(b);
    dls_kernel_free(&k);
}

/* A kernel whose real time is size x 0.1 ms (it sleeps), as its reported time. */
static double growing_run(double size, double *work, void *data)
{
    (void)data;
    struct timespec ts = {0, (long)(1e5 * size)};
    if (size * 1e-4 >= 1)
        ts = (struct timespec){(time_t)(size * 1e-4), (long)(1e9 * fmod(size * 1e-4, 1))};
    nanosleep(&ts, NULL);
    *work = size;
    return size * 1e-4;
}

/* A budget: the top is the largest size it affords, measured early (a run of a share of
 * the budget), the stop reason says the budget only when the budget stopped the build, and
 * the summary says the model is extrapolated from there. */
TEST(test_budget_top)
{
    dls_synthetic_params sp;
    dls_synthetic_params_init(&sp);
    sp.speed = 1e7;          /* 1e7 units a second: the top 1e8 would take 10 s a run */
    sp.delay = 0.002;        /* every run takes real time too */
    dls_kernel k;
    dls_bench_params par;
    bench_setup(&sp, 1e2, 1e8, &k, &par);
    dls_error err;
    par.time_budget = 0.5;
    dls_bench *b = built(&k, &par);
    dls_bench_summary u;
    dls_bench_get_summary(b, &u);
    printf("# budget 0.5 s, runs of 2 ms: top %g of %g, stop %s, %.2f s\n", u.largest, u.limit,
           dls_bench_stop_name(u.stop), u.elapsed);
    /* the simulated kernel reports its own time, which the budget does not pay: the real
     * time of a run is the delay, so the budget affords the whole range */
    assert_rel(u.largest, 1e8, 0);
    assert_false(u.top_by_budget);
    assert_true(u.stop == DLS_BENCH_CONVERGED || u.stop == DLS_BENCH_BUDGET);
    dls_bench_free(b);
    dls_kernel_free(&k);
    /* runs whose real time grows with the size (the delay stands for it): a budget that
     * affords a few of them brings the top down, and says so */
    dls_synthetic_params_init(&sp);
    sp.delay = 0.004;
    assert_ok(dls_synthetic_kernel_create(&sp, &k, &err), &err);
    dls_kernel grows = k;
    grows.run = growing_run;
    grows.data = &k;
    par.min_size = 1;
    par.max_size = 1e4;
    par.time_budget = 0.6;
    assert_ok(dls_bench_build(&grows, &par, &b, &err), &err);
    dls_bench_get_summary(b, &u);
    printf("# budget 0.6 s, real time growing with the size: top %g of %g (a run of %.3g s), "
           "stop %s, %.2f s\n", u.largest, u.limit, u.top_run_time, dls_bench_stop_name(u.stop),
           u.elapsed);
    assert_true(u.top_by_budget);
    assert_true(u.largest < 1e4 && u.largest > 1);
    assert_rel(dls_bench_budget_top(b), u.largest, 0);
    assert_rel(dls_bench_limit(b), 1e4, 0);
    /* the top run took a share of the budget, not a sliver of it */
    assert_true(u.top_run_time * 4 >= 0.05 * par.time_budget);
    assert_true(u.elapsed < 3 * par.time_budget);
    dls_bench_free(b);
    dls_kernel_free(&k);
}

/* Resumed after an interruption at any point, the build measures only the rest and ends
 * with the same model, held-out sizes included. */
typedef struct recorder {
    dls_bench_point pts[512];
    size_t n, cancel_after;
} recorder;

static int record(const dls_bench_point *p, void *data)
{
    recorder *r = data;
    r->pts[r->n++] = *p;
    return r->cancel_after && r->n >= r->cancel_after;
}

TEST(test_resume)
{
    shape s = make_shape(3);
    s.p.noise = 0.05;
    dls_kernel k;
    dls_bench_params par;
    bench_setup(&s.p, s.lo, s.hi, &k, &par);
    dls_error err;
    par.validate = 5;
    recorder full = {.n = 0};
    par.on_point = record;
    par.on_point_data = &full;
    dls_bench *ref = NULL;
    assert_ok(dls_bench_build(&k, &par, &ref, &err), &err);
    for (size_t cut = 1; cut < full.n; cut += 5) {
        recorder part = {.n = 0, .cancel_after = cut};
        par.on_point_data = &part;
        par.resume = NULL;
        par.resume_count = 0;
        dls_bench *b = NULL;
        assert_fails(dls_bench_build(&k, &par, &b, &err), DLS_ECANCELED, &err, "canceled");
        recorder rest = {.n = 0};
        par.on_point_data = &rest;
        par.resume = part.pts;
        par.resume_count = part.n;
        assert_ok(dls_bench_build(&k, &par, &b, &err), &err);
        assert_int_equal(part.n + rest.n, full.n);
        assert_true(dls_model_equal(dls_bench_model(b), dls_bench_model(ref)));
        size_t n1, n2;
        const dls_bench_check *c1 = dls_bench_held_out(b, &n1), *c2 = dls_bench_held_out(ref, &n2);
        assert_int_equal(n1, n2);
        for (size_t i = 0; i < n1; i++)
            assert_rel(c1[i].speed, c2[i].speed, 0);
        dls_bench_free(b);
    }
    dls_bench_free(ref);
    dls_kernel_free(&k);
}

/* dls_bench_validate: a model checked on this machine later, at sizes of the caller's. */
TEST(test_validate_call)
{
    shape s = make_shape(1);
    dls_kernel k;
    dls_error err;
    assert_ok(dls_synthetic_kernel_create(&s.p, &k, &err), &err);
    const double x[] = {1e2, 1e4, 1e6, 1e8};
    double sp[4];
    for (int i = 0; i < 4; i++)
        sp[i] = dls_synthetic_speed(&k, x[i]);
    dls_model *m = NULL;
    assert_ok(dls_model_create_points(4, x, sp, NULL, NULL, &m, &err), &err);
    const double sizes[] = {1e3, 3e5, 5e7};
    dls_bench_check c[3];
    assert_ok(dls_bench_validate(&k, m, NULL, sizes, 3, c, &err), &err);
    for (int i = 0; i < 3; i++) {
        double t = dls_synthetic_speed(&k, sizes[i]);
        assert_rel(c[i].size, sizes[i], 0);
        assert_rel(c[i].speed, t, 1e-12); /* no noise: the truth itself */
        assert_rel(c[i].predicted, dls_model_speed(m, sizes[i]), 1e-15);
        assert_int_equal(c[i].within, fabs(c[i].predicted - t) <= 0.05 * t);
    }
    /* a model without bands: its band is its speed */
    assert_rel(c[0].model_low, c[0].predicted, 0);
    assert_fails(dls_bench_validate(&k, NULL, NULL, sizes, 3, c, &err), DLS_EINVAL, &err, "NULL");
    const double bad[] = {1e3, -1};
    assert_fails(dls_bench_validate(&k, m, NULL, bad, 2, c, &err), DLS_EINVAL, &err, "size 2");
    dls_model_free(m);
    dls_kernel_free(&k);
}

/* The synthetic processor's parameters, one broken at a time: the message expected, or
 * NULL past the last case. */
static const char *break_synthetic(int i, dls_synthetic_params *p)
{
    switch (i) {
    case 0: p->speed = 0; return "speed must be finite and > 0, not 0";
    case 1: p->rise = -1; return "rise must be finite and >= 0";
    case 2: p->steps = 5; return "steps must be at most 4, not 5";
    case 3:
        p->steps = 2;
        p->step_size[0] = 10;
        p->step_factor[0] = 0.5;
        p->step_size[1] = 5;
        p->step_factor[1] = 0.5;
        return "step_size[1] is 5";
    case 4:
        p->steps = 1;
        p->step_size[0] = 10;
        p->step_factor[0] = 11;
        return "step_factor[0] must be in (0, 10], not 11";
    case 5: p->step_width = 0; return "step_width";
    case 6: p->block = -2; return "block must be";
    case 7: p->block_amplitude = 1; return "block_amplitude must be in [0, 1), not 1";
    case 8: p->paging = NAN; return "paging must be";
    case 9: p->paging_factor = 0.5; return "paging_factor";
    case 10: p->noise = 1; return "noise must be in [0, 1), not 1";
    case 11: p->tick = -1; return "tick";
    case 12: p->delay = 60; return "delay";
    case 13: p->integer_sizes = 2; return "integer_sizes";
    case 14: p->min_run_time = 11; return "min_run_time";
    case 15: p->reserved[0] = 1; return "reserved";
    default: return NULL;
    }
}

/* The build's new parameters, one broken at a time (as break_synthetic). */
static const char *break_build(int i, dls_bench_params *p)
{
    switch (i) {
    case 0: p->accuracy = 0; return "accuracy must be in (0, 1), not 0";
    case 1: p->accuracy = 1; return "accuracy must be in (0, 1), not 1";
    case 2: p->resolution = 0; return "resolution must be in (0, 1), not 0";
    case 3:
        p->max_model_points = 3;
        return "max_model_points must be 0 (default) or in [initial_points 5, max_points 64], "
               "not 3";
    case 4: p->max_model_points = 65; return "not 65";
    case 5: p->validate = 1001; return "validate must be at most 1000, not 1001";
    case 6: p->time_budget = INFINITY; return "time_budget must be finite and >= 0";
    default: return NULL;
    }
}

/* Every parameter out of its range is refused with its name and value, the output left as
 * it was. */
TEST(test_rejected)
{
    dls_kernel k, before;
    memset(&before, 0x5a, sizeof before);
    dls_error err;
    const char *want;
    dls_synthetic_params sp;
    dls_synthetic_params_init(&sp);
    for (int i = 0; (want = break_synthetic(i, &sp)) != NULL; i++) {
        k = before;
        assert_fails(dls_synthetic_kernel_create(&sp, &k, &err), DLS_EINVAL, &err, want);
        assert_memory_equal(&k, &before, sizeof k);
        dls_synthetic_params_init(&sp);
    }
    assert_fails(dls_synthetic_kernel_create(NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_true(isnan(dls_synthetic_speed(NULL, 1)));
    dls_kernel_free(NULL);
    assert_ok(dls_synthetic_kernel_create(NULL, &k, &err), &err);
    assert_rel(dls_synthetic_speed(&k, 123), 1e9, 0);
    dls_bench_params par;
    dls_bench *b = (dls_bench *)&par;
    dls_bench_params_init(&par);
    par.max_size = 1e3;
    for (int i = 0; (want = break_build(i, &par)) != NULL; i++) {
        assert_fails(dls_bench_build(&k, &par, &b, &err), DLS_EINVAL, &err, want);
        assert_ptr_equal(b, (dls_bench *)&par);
        dls_bench_params_init(&par);
        par.max_size = 1e3;
    }
    dls_bench_summary u;
    assert_int_equal(dls_bench_get_summary(NULL, &u), DLS_EINVAL);
    size_t n = 7;
    assert_null(dls_bench_held_out(NULL, &n));
    assert_int_equal(n, 0);
    dls_kernel_free(&k);
    /* the built-in kernels' loop */
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    assert_rel(bp.min_run_time, DLS_KERNEL_DEFAULT_MIN_RUN_TIME, 0);
    bp.min_run_time = -1;
    k = before;
    assert_fails(dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &bp, &k, &err), DLS_EINVAL, &err,
                 "min_run_time must be in [0, 10] s, not -1");
    assert_memory_equal(&k, &before, sizeof k);
}

TEST_MAIN("bench_shapes", test_each_structure_converges, test_noise_up_to_20_percent,
          test_short_runs_need_the_loop, test_model_point_cap, test_budget_top, test_resume,
          test_validate_call, test_rejected)
