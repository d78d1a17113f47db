/* Tests of the performance models: construction, validation, evaluation, sections and
 * conversions, against evaluators written independently here. */
#include "gen.h"

/* ---------------------------------------------------------------------------------- */
/* Independent reference evaluators (linear scans, other interpolation formulas).       */

static double ref_points_speed(size_t n, const double *x, const double *s, double v)
{
    if (v <= x[0])
        return s[0];
    for (size_t k = 0; k + 1 < n; k++)
        if (v <= x[k + 1])
            return (s[k] * (x[k + 1] - v) + s[k + 1] * (v - x[k])) / (x[k + 1] - x[k]);
    return s[n - 1];
}

static double ref_lines_time(size_t n, const double *a, const double *b, double v)
{
    double t = -INFINITY;
    for (size_t l = 0; l < n; l++)
        t = fmax(t, a[l] + b[l] * v);
    return t;
}

static void ref_locate(const double *g, size_t n, double v, size_t *lo, size_t *hi, double *w)
{
    v = fmin(fmax(v, g[0]), g[n - 1]);
    *lo = *hi = 0;
    *w = 0;
    for (size_t k = 0; k + 1 < n; k++)
        if (v >= g[k] && v <= g[k + 1]) {
            *lo = k;
            *hi = k + 1;
            *w = (v - g[k]) / (g[k + 1] - g[k]);
            return;
        }
    *lo = *hi = n - 1;
}

static double ref_bilinear(size_t nx, const double *x, size_t ny, const double *y,
                           const double *v, double px, double py)
{
    size_t i0, i1, j0, j1;
    double wx, wy;
    ref_locate(x, nx, px, &i0, &i1, &wx);
    ref_locate(y, ny, py, &j0, &j1, &wy);
    return v[i0 * ny + j0] * (1 - wx) * (1 - wy) + v[i1 * ny + j0] * wx * (1 - wy) +
           v[i0 * ny + j1] * (1 - wx) * wy + v[i1 * ny + j1] * wx * wy;
}

/* ---------------------------------------------------------------------------------- */

TEST(test_constant)
{
    dls_error err;
    dls_model *m, *c;
    assert_ok(dls_model_create_constant(2.5e9, &m, &err), &err);
    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_CONSTANT);
    assert_string_equal(dls_model_kind_name(DLS_MODEL_CONSTANT), "constant");
    assert_int_equal(dls_model_dimension(m), 1);
    assert_int_equal(dls_model_count(m), 1);
    assert_false(dls_model_has_bands(m));
    assert_rel(dls_model_constant_speed(m), 2.5e9, 0);
    assert_rel(dls_model_speed(m, 0), 2.5e9, 0);
    assert_rel(dls_model_speed(m, 1e12), 2.5e9, 0);
    assert_rel(dls_model_time(m, 5e9), 2.0, 1e-15);
    assert_rel(dls_model_time(m, 0), 0.0, 0);
    assert_rel(dls_model_speed2d(m, 3, 7), 2.5e9, 0);
    assert_true(isnan(dls_model_speed(m, -1)));
    assert_true(isnan(dls_model_time(m, NAN)));
    assert_int_equal(dls_model_get_points(m, NULL, NULL, NULL, NULL, NULL), DLS_EINVAL);
    assert_int_equal(dls_model_get_lines(m, NULL, NULL, NULL), DLS_EINVAL);
    assert_int_equal(dls_model_get_grid(m, NULL, NULL, NULL, NULL, NULL), DLS_EINVAL);
    assert_ok(dls_model_copy(m, &c, &err), &err);
    assert_true(dls_model_equal(m, c));
    dls_model_free(c);
    assert_ok(dls_model_section(m, 10, &c, &err), &err);
    assert_true(dls_model_equal(m, c));
    dls_model_free(c);
    dls_model_free(m);
}

TEST(test_constant_errors)
{
    dls_error err;
    dls_model *m = (dls_model *)&err; /* must stay untouched */
    dls_model *const before = m;
    assert_fails(dls_model_create_constant(0, &m, &err), DLS_EINVAL, &err, "not 0");
    assert_fails(dls_model_create_constant(-3, &m, &err), DLS_EINVAL, &err, "speed must be > 0");
    assert_fails(dls_model_create_constant(NAN, &m, &err), DLS_EINVAL, &err, "not a finite");
    assert_fails(dls_model_create_constant(INFINITY, &m, &err), DLS_EINVAL, &err, "not a finite");
    assert_fails(dls_model_create_constant(1, NULL, &err), DLS_EINVAL, &err, "out is NULL");
    assert_ptr_equal(m, before);
    assert_string_equal(dls_model_kind_name((dls_model_kind)42), "unknown");
}

TEST(test_points_evaluation)
{
    dls_error err;
    const double x[] = {1e3, 1e6, 4e7}, s[] = {2.1e9, 1.9e9, 2e8};
    dls_model *m;
    assert_ok(dls_model_create_points(3, x, s, NULL, NULL, &m, &err), &err);
    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_POINTS);
    assert_int_equal(dls_model_count(m), 3);
    /* at the points, constant beyond them, linear between */
    for (int k = 0; k < 3; k++)
        assert_rel(dls_model_speed(m, x[k]), s[k], 1e-15);
    assert_rel(dls_model_speed(m, 1), 2.1e9, 0);
    assert_rel(dls_model_speed(m, 0), 2.1e9, 0);
    assert_rel(dls_model_speed(m, 1e9), 2e8, 0);
    assert_rel(dls_model_speed(m, 500500), 2.0e9, 1e-12);
    assert_rel(dls_model_time(m, 1e9), 5.0, 1e-15);
    assert_rel(dls_model_speed2d(m, 1e3, 1e3), 1.9e9, 1e-15);
    size_t n;
    const double *px, *ps, *lo, *hi;
    assert_ok(dls_model_get_points(m, &n, &px, &ps, &lo, &hi), &err);
    assert_int_equal(n, 3);
    assert_rel(px[2], 4e7, 0);
    assert_rel(ps[1], 1.9e9, 0);
    assert_null(lo);
    assert_null(hi);
    dls_model_free(m);

    /* a single point is a constant speed */
    assert_ok(dls_model_create_points(1, x, s, NULL, NULL, &m, &err), &err);
    assert_rel(dls_model_speed(m, 1e-9), 2.1e9, 0);
    assert_rel(dls_model_speed(m, 1e30), 2.1e9, 0);
    dls_model_free(m);
}

/* A points model of n random sizes (into x), at speeds drawn log-uniformly in [lo, hi]
 * (into s). */
static dls_model *random_points(test_rng *r, size_t n, double *x, double *s, double lo,
                                double hi)
{
    gen_sizes(r, n, x);
    for (size_t k = 0; k < n; k++)
        s[k] = test_logrange(r, lo, hi);
    dls_model *m;
    dls_error err;
    assert_ok(dls_model_create_points(n, x, s, NULL, NULL, &m, &err), &err);
    return m;
}

RANDOM_TEST(test_points_random_against_reference, 1, 2000)
{
    size_t n = 1 + test_below(r, 20);
    double x[20], s[20];
    dls_model *m = random_points(r, n, x, s, 1e-2, 1e10);
    for (int q = 0; q < 20; q++) {
        double v = test_range(r, 0, x[n - 1] * 1.5);
        double want = ref_points_speed(n, x, s, v);
        assert_rel(dls_model_speed(m, v), want, 1e-12);
        /* time and speed are two views of one function */
        if (v > 0) {
            assert_rel(dls_model_time(m, v), v / want, 1e-12);
            assert_rel(dls_model_time(m, v) * dls_model_speed(m, v), v, 1e-14);
        }
    }
    dls_model_free(m);
}

TEST(test_points_bands)
{
    dls_error err;
    const double x[] = {10, 20}, s[] = {5, 4}, lo[] = {4.5, 3.5}, hi[] = {5.5, 4.0};
    dls_model *m, *c;
    assert_ok(dls_model_create_points(2, x, s, lo, hi, &m, &err), &err);
    assert_true(dls_model_has_bands(m));
    const double *plo, *phi;
    assert_ok(dls_model_get_points(m, NULL, NULL, NULL, &plo, &phi), &err);
    assert_rel(plo[1], 3.5, 0);
    assert_rel(phi[0], 5.5, 0);
    assert_ok(dls_model_copy(m, &c, &err), &err);
    assert_true(dls_model_equal(m, c));
    dls_model_free(c);
    /* the same points without bands are a different model */
    assert_ok(dls_model_create_points(2, x, s, NULL, NULL, &c, &err), &err);
    assert_false(dls_model_equal(m, c));
    dls_model_free(c);
    dls_model_free(m);
}

TEST(test_points_errors)
{
    dls_error err;
    dls_model *m = NULL;
    const double x[] = {1, 2, 3}, s[] = {5, 4, 3};
    const double dec[] = {1, 3, 2}, eq[] = {1, 2, 2}, neg[] = {-1, 2, 3};
    const double sneg[] = {5, -4, 3}, szero[] = {5, 4, 0}, snan[] = {5, NAN, 3};
    const double lo[] = {4, 3, 2}, hi[] = {6, 5, 4}, lo_bad[] = {4, 4.5, 2}, hi_bad[] = {6, 3.9, 4};
    const double lo_zero[] = {0, 3, 2};
    assert_fails(dls_model_create_points(0, x, s, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "at least one point");
    assert_fails(dls_model_create_points(3, dec, s, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "speed point 3 has size 2");
    assert_fails(dls_model_create_points(3, eq, s, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "increase strictly");
    assert_fails(dls_model_create_points(3, neg, s, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "speed point 1 has a negative size");
    assert_fails(dls_model_create_points(3, x, sneg, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "speed point 2 has a negative speed");
    assert_fails(dls_model_create_points(3, x, szero, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "speed point 3 has a zero speed");
    assert_fails(dls_model_create_points(3, x, snan, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "not finite");
    assert_fails(dls_model_create_points(3, x, s, lo, NULL, &m, &err), DLS_EINVAL, &err,
                 "together");
    assert_fails(dls_model_create_points(3, x, s, lo_bad, hi, &m, &err), DLS_EINVAL, &err,
                 "speed point 2 has a band low edge 4.5 above its speed 4");
    assert_fails(dls_model_create_points(3, x, s, lo, hi_bad, &m, &err), DLS_EINVAL, &err,
                 "band high edge 3.9 below its speed 4");
    assert_fails(dls_model_create_points(3, x, s, lo_zero, hi, &m, &err), DLS_EINVAL, &err,
                 "low edge 0 that is not > 0");
    assert_fails(dls_model_create_points(3, NULL, s, NULL, NULL, &m, &err), DLS_EINVAL, &err,
                 "NULL");
    assert_null(m);
}

TEST(test_time_lines)
{
    dls_error err;
    /* Drozdowski and Wolniewicz (2003): in core 1 + x, out of core -9 + 10 x, swap point 10/9 */
    const double a[] = {1, -9}, b[] = {1, 10};
    dls_model *m;
    assert_ok(dls_model_create_time_lines(2, a, b, &m, &err), &err);
    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_TIME_LINES);
    assert_string_equal(dls_model_kind_name(DLS_MODEL_TIME_LINES), "time");
    assert_rel(dls_model_time(m, 1.0), 2.0, 0);
    assert_rel(dls_model_time(m, 10.0 / 9), 1 + 10.0 / 9, 1e-15);
    assert_rel(dls_model_time(m, 2.0), 11.0, 0);
    assert_rel(dls_model_time(m, 5.0 / 3), 1 + 50.0 / 3 - 10, 1e-15);
    assert_rel(dls_model_time(m, 0), 0, 0);
    assert_rel(dls_model_speed(m, 2.0), 2.0 / 11, 1e-15);
    assert_rel(dls_model_speed(m, 0), 0, 0); /* time starts at 1 s: speed tends to 0 */
    assert_rel(dls_model_speed2d(m, 1, 2), 2.0 / 11, 1e-15);
    size_t n;
    const double *pa, *pb;
    assert_ok(dls_model_get_lines(m, &n, &pa, &pb), &err);
    assert_int_equal(n, 2);
    assert_rel(pa[1], -9, 0);
    dls_model *s;
    assert_ok(dls_model_section(m, 4, &s, &err), &err);
    /* section at x: time of y units is time(4 y) / 4 */
    for (double y = 0.1; y < 5; y += 0.37)
        assert_rel(dls_model_time(s, y), dls_model_time(m, 4 * y) / 4, 1e-14);
    dls_model_free(s);
    dls_model_free(m);

    /* a time starting at 0 has a finite speed at 0: 1 / slope */
    const double a0[] = {0, -5}, b0[] = {0.5, 2};
    assert_ok(dls_model_create_time_lines(2, a0, b0, &m, &err), &err);
    assert_rel(dls_model_speed(m, 0), 2.0, 0);
    assert_rel(dls_model_speed(m, 1), 2.0, 0);
    dls_model_free(m);
}

RANDOM_TEST(test_time_lines_random, 2, 1000)
{
    dls_error err;
    size_t n = 1 + test_below(r, 6);
    double a[6], b[6];
    for (size_t l = 0; l < n; l++) {
        a[l] = test_range(r, -100, 100);
        b[l] = test_logrange(r, 1e-6, 10);
    }
    a[test_below(r, n)] = test_range(r, 0, 5); /* positive time near 0 */
    dls_model *m;
    assert_ok(dls_model_create_time_lines(n, a, b, &m, &err), &err);
    for (int q = 0; q < 20; q++) {
        double v = test_logrange(r, 1e-6, 1e6);
        assert_rel(dls_model_time(m, v), ref_lines_time(n, a, b, v), 1e-15);
        assert_rel(dls_model_speed(m, v) * dls_model_time(m, v), v, 1e-14);
    }
    dls_model_free(m);
}

TEST(test_time_lines_errors)
{
    dls_error err;
    dls_model *m = NULL;
    const double a[] = {1, -9}, bneg[] = {1, -10}, a_neg[] = {-1, -9}, b[] = {1, 10};
    const double a_zero[] = {0, -1}, b_flat[] = {0, 3}, anan[] = {NAN, 0};
    assert_fails(dls_model_create_time_lines(0, a, b, &m, &err), DLS_EINVAL, &err, "at least one line");
    assert_fails(dls_model_create_time_lines(2, a, bneg, &m, &err), DLS_EINVAL, &err,
                 "time line 2 has a negative slope");
    assert_fails(dls_model_create_time_lines(2, a_neg, b, &m, &err), DLS_EINVAL, &err,
                 "negative time for small sizes");
    assert_fails(dls_model_create_time_lines(2, a_zero, b_flat, &m, &err), DLS_EINVAL, &err,
                 "zero time for small sizes");
    assert_fails(dls_model_create_time_lines(2, anan, b, &m, &err), DLS_EINVAL, &err,
                 "time line 1 has an intercept that is not finite");
    assert_fails(dls_model_create_time_lines(2, NULL, b, &m, &err), DLS_EINVAL, &err, "NULL");
    assert_null(m);
}

TEST(test_speed2d)
{
    dls_error err;
    const double x[] = {64, 1024, 8192}, y[] = {64, 1024};
    const double v[] = {1e9, 2e9, 3e9, 4e9, 5e9, 5.5e9};
    dls_model *m;
    assert_ok(dls_model_create_speed2d(3, x, 2, y, v, &m, &err), &err);
    assert_int_equal(dls_model_get_kind(m), DLS_MODEL_SPEED2D);
    assert_int_equal(dls_model_dimension(m), 2);
    assert_int_equal(dls_model_count(m), 6);
    assert_rel(dls_model_speed2d(m, 1024, 64), 3e9, 0);
    assert_rel(dls_model_speed2d(m, 8192, 1024), 5.5e9, 0);
    /* middle of a cell: mean of the corners */
    assert_rel(dls_model_speed2d(m, 544, 544), 2.5e9, 1e-15);
    /* clamped outside */
    assert_rel(dls_model_speed2d(m, 1, 1), 1e9, 0);
    assert_rel(dls_model_speed2d(m, 1e9, 1e9), 5.5e9, 0);
    assert_rel(dls_model_speed2d(m, 1e9, 544), 5.25e9, 1e-15);
    /* no 1-D speed or time without a section */
    assert_true(isnan(dls_model_speed(m, 10)));
    assert_true(isnan(dls_model_time(m, 10)));
    assert_true(isnan(dls_model_time(m, 0)));
    assert_true(isnan(dls_model_speed2d(m, -1, 3)));
    size_t nx, ny;
    const double *gx, *gy, *gv;
    assert_ok(dls_model_get_grid(m, &nx, &gx, &ny, &gy, &gv), &err);
    assert_int_equal(nx, 3);
    assert_int_equal(ny, 2);
    assert_rel(gv[5], 5.5e9, 0);
    dls_model *s;
    assert_ok(dls_model_section(m, 4608, &s, &err), &err);
    assert_int_equal(dls_model_get_kind(s), DLS_MODEL_POINTS);
    assert_rel(dls_model_speed(s, 64), 4e9, 1e-15);
    assert_rel(dls_model_speed(s, 1024), 4.75e9, 1e-15);
    assert_rel(dls_model_speed(s, 1e6), 4.75e9, 1e-15);
    dls_model_free(s);
    assert_fails(dls_model_section(m, 0, &s, &err), DLS_EINVAL, &err, "finite number > 0");
    assert_fails(dls_model_section(m, NAN, &s, &err), DLS_EINVAL, &err, "finite number > 0");
    assert_fails(dls_model_sample(m, 1, x, &s, &err), DLS_EINVAL, &err, "take a section first");
    dls_model_free(m);
}

RANDOM_TEST(test_speed2d_random, 3, 500)
{
    dls_error err;
    size_t nx = 1 + test_below(r, 6), ny = 1 + test_below(r, 6);
    double x[6], y[6], v[36];
    gen_sizes(r, nx, x);
    gen_sizes(r, ny, y);
    for (size_t k = 0; k < nx * ny; k++)
        v[k] = test_logrange(r, 1, 1e9);
    dls_model *m;
    assert_ok(dls_model_create_speed2d(nx, x, ny, y, v, &m, &err), &err);
    for (int q = 0; q < 10; q++) {
        double px = test_range(r, 0, x[nx - 1] * 1.3), py = test_range(r, 0, y[ny - 1] * 1.3);
        assert_rel(dls_model_speed2d(m, px, py), ref_bilinear(nx, x, ny, y, v, px, py), 1e-12);
        /* the section at px is the same function of y */
        if (px > 0) {
            dls_model *s;
            assert_ok(dls_model_section(m, px, &s, &err), &err);
            assert_rel(dls_model_speed(s, py), dls_model_speed2d(m, px, py), 1e-12);
            dls_model_free(s);
        }
    }
    dls_model_free(m);
}

TEST(test_speed2d_errors)
{
    dls_error err;
    dls_model *m = NULL;
    const double x[] = {1, 2}, y[] = {1, 2}, xbad[] = {2, 2}, ybad[] = {0, 2};
    const double v[] = {1, 2, 3, 4}, vbad[] = {1, 2, 3, -4};
    assert_fails(dls_model_create_speed2d(0, x, 2, y, v, &m, &err), DLS_EINVAL, &err, "x grid is empty");
    assert_fails(dls_model_create_speed2d(2, xbad, 2, y, v, &m, &err), DLS_EINVAL, &err,
                 "speed2d x value 2 (2) is not larger");
    assert_fails(dls_model_create_speed2d(2, x, 2, ybad, v, &m, &err), DLS_EINVAL, &err,
                 "speed2d y value 1 (0)");
    assert_fails(dls_model_create_speed2d(2, x, 2, y, vbad, &m, &err), DLS_EINVAL, &err,
                 "speed2d value [2][2] (-4)");
    assert_fails(dls_model_create_speed2d(2, x, 2, y, NULL, &m, &err), DLS_EINVAL, &err, "NULL");
    assert_null(m);
}

/* The 2-D speed of a 1-D model is its speed at x * y, and sections are exact. */
RANDOM_TEST(test_sections_of_1d_models, 4, 500)
{
    dls_error err;
    size_t n = 1 + test_below(r, 8);
    double x[8], s[8];
    dls_model *m = random_points(r, n, x, s, 1, 1e6), *sec;
    double fx = test_logrange(r, 0.01, 100);
    assert_ok(dls_model_section(m, fx, &sec, &err), &err);
    for (int q = 0; q < 10; q++) {
        double y = test_range(r, 0, 2 * x[n - 1] / fx);
        assert_rel(dls_model_speed2d(m, fx, y), ref_points_speed(n, x, s, fx * y), 1e-12);
        assert_rel(dls_model_speed(sec, y), dls_model_speed2d(m, fx, y), 1e-12);
    }
    dls_model_free(sec);
    dls_model_free(m);
}

TEST(test_sample)
{
    dls_error err;
    const double a[] = {1, -9}, b[] = {1, 10};
    const double at[] = {0.5, 1, 10.0 / 9, 2, 4};
    dls_model *m, *p;
    assert_ok(dls_model_create_time_lines(2, a, b, &m, &err), &err);
    assert_ok(dls_model_sample(m, 5, at, &p, &err), &err);
    for (int k = 0; k < 5; k++) {
        assert_rel(dls_model_speed(p, at[k]), dls_model_speed(m, at[k]), 1e-15);
        assert_rel(dls_model_time(p, at[k]), dls_model_time(m, at[k]), 1e-14);
    }
    dls_model_free(p);
    const double bad[] = {2, 1};
    assert_fails(dls_model_sample(m, 2, bad, &p, &err), DLS_EINVAL, &err, "increase strictly");
    assert_fails(dls_model_sample(NULL, 2, bad, &p, &err), DLS_EINVAL, &err, "NULL");
    dls_model_free(m);
}

TEST(test_copy_equal_errors)
{
    dls_error err;
    dls_model *m;
    assert_fails(dls_model_copy(NULL, &m, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_model_section(NULL, 1, &m, &err), DLS_EINVAL, &err, "NULL");
    assert_true(dls_model_equal(NULL, NULL));
    const double x[] = {1, 2}, s1[] = {3, 4}, s2[] = {3, 4.000000000000001};
    dls_model *p1, *p2;
    assert_ok(dls_model_create_points(2, x, s1, NULL, NULL, &p1, &err), &err);
    assert_ok(dls_model_create_points(2, x, s2, NULL, NULL, &p2, &err), &err);
    assert_false(dls_model_equal(p1, p2));
    assert_false(dls_model_equal(p1, NULL));
    dls_model_free(p1);
    dls_model_free(p2);
}

TEST_MAIN("model", test_constant, test_constant_errors, test_points_evaluation,
          test_points_random_against_reference, test_points_bands, test_points_errors,
          test_time_lines, test_time_lines_random, test_time_lines_errors, test_speed2d,
          test_speed2d_random, test_speed2d_errors, test_sections_of_1d_models, test_sample,
          test_copy_equal_errors)
