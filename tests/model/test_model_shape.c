/* Tests of the shape check and of the convex envelope of the time function, against dense
 * sampling and direct convexity probes computed here. */
#include "gen.h"

/* Failing ranges found by sampling the time densely inside every piece. */
static size_t sampled_ranges(const dls_model *m, size_t n, const double *x, dls_shape_issue *out)
{
    size_t count = 0;
    int open = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        int bad = 0;
        double prev = dls_model_time(m, x[k]);
        for (int j = 1; j <= 64; j++) {
            double v = x[k] + (x[k + 1] - x[k]) * j / 64.0;
            double t = dls_model_time(m, v);
            if (!(t > prev))
                bad = 1;
            prev = t;
        }
        if (bad && open) {
            out[count - 1].to = x[k + 1];
        } else if (bad) {
            out[count].from = x[k];
            out[count].to = x[k + 1];
            count++;
        }
        open = bad;
    }
    return count;
}

RANDOM_TEST(test_shape_points_random, 10, 2000)
{
    size_t n = 1 + test_below(r, 12);
    double x[12], s[12];
    int fails[12];
    dls_model *m = gen_shape_pieces(r, n, x, s, fails);
    dls_shape_issue want[12], got[12];
    size_t nw = sampled_ranges(m, n, x, want);
    size_t ng = dls_model_check_shape(m, got, 12);
    assert_int_equal(ng, nw);
    for (size_t k = 0; k < ng; k++) {
        assert_int_equal(got[k].axis, 0);
        assert_true(isnan(got[k].at));
        assert_rel(got[k].from, want[k].from, 0);
        assert_rel(got[k].to, want[k].to, 0);
    }
    /* a smaller buffer still reports the total */
    if (ng > 1) {
        dls_shape_issue one;
        assert_int_equal(dls_model_check_shape(m, &one, 1), ng);
        assert_rel(one.from, want[0].from, 0);
        assert_rel(one.to, want[0].to, 0);
    }
    assert_int_equal(dls_model_check_shape(m, NULL, 0), ng);
    dls_model_free(m);
}

TEST(test_shape_special_cases)
{
    dls_error err;
    dls_model *m;
    dls_shape_issue is[4];
    /* proportional speed: x/s constant on [1, 2] */
    const double x[] = {1, 2, 3}, s[] = {1, 2, 1};
    assert_ok(dls_model_create_points(3, x, s, NULL, NULL, &m, &err), &err);
    assert_int_equal(dls_model_check_shape(m, is, 4), 1);
    assert_rel(is[0].from, 1, 0);
    assert_rel(is[0].to, 2, 0);
    dls_model_free(m);
    /* constant and decreasing speeds always pass */
    assert_ok(dls_model_create_constant(3, &m, &err), &err);
    assert_int_equal(dls_model_check_shape(m, is, 4), 0);
    dls_model_free(m);
    /* time lines: flat while the line of slope 0 is on top */
    const double a1[] = {5, 0}, b1[] = {0, 1};
    assert_ok(dls_model_create_time_lines(2, a1, b1, &m, &err), &err);
    assert_int_equal(dls_model_check_shape(m, is, 4), 1);
    assert_rel(is[0].from, 0, 0);
    assert_rel(is[0].to, 5, 1e-15);
    dls_model_free(m);
    const double a2[] = {5}, b2[] = {0};
    assert_ok(dls_model_create_time_lines(1, a2, b2, &m, &err), &err);
    assert_int_equal(dls_model_check_shape(m, is, 4), 1);
    assert_true(isinf(is[0].to));
    dls_model_free(m);
    const double a3[] = {1, -9}, b3[] = {1, 10};
    assert_ok(dls_model_create_time_lines(2, a3, b3, &m, &err), &err);
    assert_int_equal(dls_model_check_shape(m, is, 4), 0);
    dls_model_free(m);
}

TEST(test_shape_speed2d)
{
    dls_error err;
    dls_model *m;
    /* row x = 2 rises faster than proportionally along y between 10 and 20;
     * column y = 10 does along x between 1 and 2 */
    const double x[] = {1, 2}, y[] = {10, 20};
    const double v[] = {1, 1.5, 3, 7};
    assert_ok(dls_model_create_speed2d(2, x, 2, y, v, &m, &err), &err);
    dls_shape_issue is[8];
    size_t n = dls_model_check_shape(m, is, 8);
    assert_int_equal(n, 3);
    /* along y at x = 2: 20 / 7 <= 10 / 3 */
    assert_int_equal(is[0].axis, 1);
    assert_rel(is[0].at, 2, 0);
    assert_rel(is[0].from, 10, 0);
    assert_rel(is[0].to, 20, 0);
    /* along x at y = 10: 2 / 3 <= 1 / 1, and at y = 20: 2 / 7 <= 1 / 1.5 */
    assert_int_equal(is[1].axis, 0);
    assert_rel(is[1].at, 10, 0);
    assert_int_equal(is[2].axis, 0);
    assert_rel(is[2].at, 20, 0);
    dls_model_free(m);
}

/* ---------------------------------------------------------------------------------- */
/* Envelope                                                                           */

static double env_time(const dls_model *env, double x)
{
    return dls_model_time(env, x);
}

/* A triple probe: is t(x2) above the chord of t over [x1, x3] by more than rel? */
static int concave_at(const dls_model *m, double x1, double x2, double x3, double rel)
{
    double t1 = dls_model_time(m, x1), t2 = dls_model_time(m, x2), t3 = dls_model_time(m, x3);
    double chord = t1 + (t3 - t1) * (x2 - x1) / (x3 - x1);
    return t2 > chord * (1 + rel);
}

static void check_envelope(const dls_model *m, size_t n, const double *x, double xmax,
                           const dls_envelope_params *par)
{
    dls_error err;
    dls_model *env;
    dls_envelope_info info;
    assert_ok(dls_model_convex_envelope(m, xmax, par, &env, &info, &err), &err);
    assert_int_equal(dls_model_get_kind(env), DLS_MODEL_TIME_LINES);
    assert_int_equal(info.lines, dls_model_count(env));
    /* the reported deviation is an upper bound of what sampling finds... */
    double seen = 0;
    for (int j = 1; j <= 3000; j++) {
        double v = xmax * j / 3000.0;
        double t = dls_model_time(m, v), e = env_time(env, v);
        seen = fmax(seen, fabs(t - e) / t);
        /* ...the envelope never rises much above the time... */
        if (!info.truncated && !(e <= t * (1 + 2 * par->rel_tol)))
            fail_msg("envelope %.17g above time %.17g at %.17g (xmax %g, lines %zu of %zu, "
                     "dev %g)", e, t, v, xmax, info.lines, par->max_lines, info.max_rel_dev);
    }
    for (size_t k = 0; k < n; k++)
        if (x[k] < xmax) {
            double t = dls_model_time(m, x[k]);
            seen = fmax(seen, fabs(t - env_time(env, x[k])) / t);
        }
    assert_true(seen <= info.max_rel_dev * (1 + 1e-9) + 1e-13);
    /* ...and it is reached where reported */
    if (info.at > 0 && info.max_rel_dev > 1e-12) {
        double t = dls_model_time(m, info.at);
        assert_rel_floor(fabs(t - env_time(env, info.at)) / t, info.max_rel_dev, 1e-6, 1e-12);
    }
    if (info.convex) {
        /* no probe finds a concave spot, and the refinement met its tolerance */
        for (size_t k = 0; k + 1 < n && x[k + 1] < xmax; k++) {
            double mid = 0.5 * (x[k] + x[k + 1]);
            assert_false(concave_at(m, x[k], mid, x[k + 1], 1e-9));
            double h = 1e-3 * (x[k + 1] - x[k]);
            assert_false(concave_at(m, x[k + 1] - h, x[k + 1], x[k + 1] + h, 1e-9));
        }
        if (!info.truncated)
            assert_true(info.max_rel_dev <= par->rel_tol * (1 + 1e-6));
    } else {
        /* some probe near a point or inside a piece finds the concavity */
        int found = 0;
        for (size_t k = 0; k < n && !found; k++) {
            if (x[k] >= xmax)
                break;
            double right = k + 1 < n ? fmin(x[k + 1], xmax) : xmax;
            double left = k > 0 ? x[k - 1] : 0;
            double h = 1e-3 * fmin(x[k] - left, right - x[k]);
            if (h > 0 && concave_at(m, x[k] - h, x[k], x[k] + h, 0))
                found = 1;
            if (right > x[k] && concave_at(m, x[k], 0.5 * (x[k] + right), right, 0))
                found = 1;
        }
        assert_true(found);
    }
    dls_model_free(env);
}

RANDOM_TEST(test_envelope_points_random, 11, 400)
{
    dls_error err;
    dls_envelope_params par;
    dls_envelope_params_init(&par);
    if (trial % 3 == 1)
        par.rel_tol = 1e-6;
    if (trial % 5 == 2)
        par.max_lines = 8;
    size_t n = 1 + test_below(r, 10);
    double x[10], s[10];
    x[0] = test_logrange(r, 1, 1e4);
    s[0] = test_logrange(r, 1, 1e9);
    for (size_t k = 1; k < n; k++) {
        x[k] = x[k - 1] * test_range(r, 1.1, 10);
        /* mostly falling speeds (the paging case), sometimes rising ones */
        s[k] = s[k - 1] * (test_unif(r) < 0.75 ? test_range(r, 0.05, 1.0)
                                                 : test_range(r, 1.0, 3.0));
    }
    dls_model *m;
    assert_ok(dls_model_create_points(n, x, s, NULL, NULL, &m, &err), &err);
    double xmax = x[n - 1] * test_range(r, 0.3, 3);
    check_envelope(m, n, x, xmax, &par);
    dls_model_free(m);
}

TEST(test_envelope_known_cases)
{
    dls_error err;
    dls_model *m, *env;
    dls_envelope_info info;
    /* constant speed: one line through the origin */
    assert_ok(dls_model_create_constant(4, &m, &err), &err);
    assert_ok(dls_model_convex_envelope(m, 100, NULL, &env, &info, &err), &err);
    size_t n;
    const double *a, *b;
    assert_ok(dls_model_get_lines(env, &n, &a, &b), &err);
    assert_int_equal(n, 1);
    assert_rel(a[0], 0, 0);
    assert_rel(b[0], 0.25, 0);
    assert_rel(info.max_rel_dev, 0, 0);
    assert_true(info.convex);
    dls_model_free(env);
    dls_model_free(m);

    /* the memory cliff of the platform contract's node7: the time bends down after the
     * last point, so the envelope must bridge below it */
    const double x[] = {1e3, 1e6, 4e7}, s[] = {2.1e9, 1.9e9, 2e8};
    assert_ok(dls_model_create_points(3, x, s, NULL, NULL, &m, &err), &err);
    assert_ok(dls_model_convex_envelope(m, 1e9, NULL, &env, &info, &err), &err);
    assert_false(info.convex);
    assert_true(info.max_rel_dev > 0.01);
    assert_true(env_time(env, 4e7) < dls_model_time(m, 4e7));
    dls_model_free(env);
    /* the speed falls faster per unit before 1e6 than after: a concave kink there too */
    assert_ok(dls_model_convex_envelope(m, 4e7, NULL, &env, &info, &err), &err);
    assert_false(info.convex);
    dls_model_free(env);
    /* up to 1e6 the time is convex and the envelope close */
    assert_ok(dls_model_convex_envelope(m, 1e6, NULL, &env, &info, &err), &err);
    assert_true(info.convex);
    assert_true(info.max_rel_dev <= 1e-4);
    dls_model_free(env);
    dls_model_free(m);
}

TEST(test_envelope_lines)
{
    test_rng r = test_rng_salted(12);
    dls_error err;
    for (int trial = 0; trial < 500; trial++) {
        size_t n = 1 + test_below(&r, 8);
        double a[8], b[8];
        for (size_t l = 0; l < n; l++) {
            a[l] = test_range(&r, -50, 10);
            b[l] = test_logrange(&r, 1e-3, 100);
        }
        a[0] = test_range(&r, 0.01, 1);
        dls_model *m, *env;
        dls_envelope_info info;
        assert_ok(dls_model_create_time_lines(n, a, b, &m, &err), &err);
        double xmax = test_logrange(&r, 0.1, 1e3);
        assert_ok(dls_model_convex_envelope(m, xmax, NULL, &env, &info, &err), &err);
        assert_rel(info.max_rel_dev, 0, 0);
        assert_true(info.convex);
        assert_true(info.lines <= n);
        for (int q = 0; q < 50; q++) {
            double v = test_range(&r, 1e-9, xmax);
            assert_rel(dls_model_time(env, v), dls_model_time(m, v), 1e-14);
        }
        /* every line kept is on top somewhere in (0, xmax] */
        size_t ne;
        const double *ea, *eb;
        dls_model_get_lines(env, &ne, &ea, &eb);
        for (size_t e = 1; e < ne; e++) {
            double cross = (ea[e - 1] - ea[e]) / (eb[e] - eb[e - 1]);
            assert_true(cross < xmax);
            assert_true(eb[e] > eb[e - 1]);
        }
        dls_model_free(env);
        dls_model_free(m);
    }
    /* Drozdowski and Wolniewicz (2003): both lines matter up to 2 units, only the first up to 1 */
    const double pa[] = {1, -9}, pb[] = {1, 10};
    dls_model *m, *env;
    assert_ok(dls_model_create_time_lines(2, pa, pb, &m, &err), &err);
    assert_ok(dls_model_convex_envelope(m, 2, NULL, &env, NULL, &err), &err);
    assert_int_equal(dls_model_count(env), 2);
    dls_model_free(env);
    assert_ok(dls_model_convex_envelope(m, 1, NULL, &env, NULL, &err), &err);
    assert_int_equal(dls_model_count(env), 1);
    dls_model_free(env);
    dls_model_free(m);
}

TEST(test_envelope_errors)
{
    dls_error err;
    dls_model *m, *env = NULL;
    dls_envelope_params par;
    assert_ok(dls_model_create_constant(4, &m, &err), &err);
    assert_fails(dls_model_convex_envelope(m, 0, NULL, &env, NULL, &err), DLS_EINVAL, &err,
                 "xmax must be");
    assert_fails(dls_model_convex_envelope(m, INFINITY, NULL, &env, NULL, &err), DLS_EINVAL, &err,
                 "xmax must be");
    dls_envelope_params_init(&par);
    par.rel_tol = 0;
    assert_fails(dls_model_convex_envelope(m, 1, &par, &env, NULL, &err), DLS_EINVAL, &err,
                 "rel_tol");
    par.rel_tol = 1;
    assert_fails(dls_model_convex_envelope(m, 1, &par, &env, NULL, &err), DLS_EINVAL, &err,
                 "rel_tol");
    dls_envelope_params_init(&par);
    par.max_lines = 1;
    assert_fails(dls_model_convex_envelope(m, 1, &par, &env, NULL, &err), DLS_EINVAL, &err,
                 "max_lines");
    assert_fails(dls_model_convex_envelope(NULL, 1, NULL, &env, NULL, &err), DLS_EINVAL, &err,
                 "NULL");
    dls_model_free(m);
    const double x[] = {1, 2}, v[] = {1, 2, 3, 4};
    assert_ok(dls_model_create_speed2d(2, x, 2, x, v, &m, &err), &err);
    assert_fails(dls_model_convex_envelope(m, 1, NULL, &env, NULL, &err), DLS_ENOTSUP, &err,
                 "take a section");
    assert_null(env);
    dls_model_free(m);
}

TEST_MAIN("model_shape", test_shape_points_random, test_shape_special_cases, test_shape_speed2d,
          test_envelope_points_random, test_envelope_known_cases, test_envelope_lines,
          test_envelope_errors)
