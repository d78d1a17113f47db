/* Tests of the platform object: adding, finding, limits, links, copies; rejected calls
 * leave the platform unchanged. */
#include "testutil.h"
#include "platform/platform_impl.h"

static dls_model *constant(double s)
{
    dls_model *m;
    dls_error err;
    assert_ok(dls_model_create_constant(s, &m, &err), &err);
    return m;
}

TEST(test_add_and_query)
{
    dls_error err;
    dls_platform *p = test_platform_new();
    assert_non_null(p);
    assert_int_equal(dls_platform_count(p), 0);
    dls_model *m = constant(2);
    size_t idx = 99;
    assert_ok(dls_platform_add(p, "cpu0", m, &idx, &err), &err);
    assert_int_equal(idx, 0);
    assert_ok(dls_platform_add(p, "cpu1", m, &idx, &err), &err);
    assert_int_equal(idx, 1);
    dls_model_free(m); /* the platform holds its own copies */
    assert_int_equal(dls_platform_count(p), 2);
    assert_string_equal(dls_platform_name(p, 1), "cpu1");
    assert_rel(dls_model_speed(dls_platform_model(p, 0), 5), 2, 0);
    assert_true(isinf(dls_platform_limit(p, 0)));
    assert_false(dls_platform_has_link(p, 0));
    double s = -1, c = -1;
    assert_ok(dls_platform_link(p, 0, &s, &c), &err);
    assert_rel(s, 0, 0);
    assert_rel(c, 0, 0);
    assert_int_equal(test_platform_index(p, "cpu1"), 1);
    assert_int_equal(test_platform_index(p, "cpu2"), -1);
    assert_null(dls_platform_name(p, 2));
    assert_null(dls_platform_model(p, 2));
    assert_true(isnan(dls_platform_limit(p, 2)));
    assert_int_equal(dls_platform_link(p, 2, &s, &c), DLS_EINVAL);
    dls_platform_free(p);
    dls_platform_free(NULL);
}

TEST(test_limits_and_links)
{
    dls_error err;
    dls_platform *p = test_platform_new();
    test_add(p, "w", constant(1));
    assert_ok(dls_platform_set_limit(p, 0, 5e7, &err), &err);
    assert_rel(dls_platform_limit(p, 0), 5e7, 0);
    /* rejected values leave the previous ones */
    assert_fails(dls_platform_set_limit(p, 0, 0, &err), DLS_EINVAL, &err, "processor \"w\"");
    assert_int_equal(err.processor, 0);
    assert_fails(dls_platform_set_limit(p, 0, -4, &err), DLS_EINVAL, &err, "must be > 0");
    assert_fails(dls_platform_set_limit(p, 0, NAN, &err), DLS_EINVAL, &err, "must be > 0");
    assert_fails(dls_platform_set_limit(p, 3, 1, &err), DLS_EINVAL, &err, "no processor 3");
    assert_rel(dls_platform_limit(p, 0), 5e7, 0);
    assert_ok(dls_platform_set_limit(p, 0, INFINITY, &err), &err);
    assert_true(isinf(dls_platform_limit(p, 0)));

    assert_ok(dls_platform_set_link(p, 0, 1e-3, 1e-6, &err), &err);
    assert_fails(dls_platform_set_link(p, 0, -1, 1, &err), DLS_EINVAL, &err, "startup");
    assert_fails(dls_platform_set_link(p, 0, 1, -1, &err), DLS_EINVAL, &err, "rate");
    assert_fails(dls_platform_set_link(p, 0, INFINITY, 1, &err), DLS_EINVAL, &err, "startup");
    assert_fails(dls_platform_set_link(p, 0, 1, NAN, &err), DLS_EINVAL, &err, "rate");
    assert_fails(dls_platform_set_link(p, 1, 1, 1, &err), DLS_EINVAL, &err, "no processor 1");
    assert_fails(dls_platform_set_link(NULL, 0, 1, 1, &err), DLS_EINVAL, &err, "NULL");
    double s, c;
    assert_true(dls_platform_has_link(p, 0));
    assert_ok(dls_platform_link(p, 0, &s, &c), &err);
    assert_rel(s, 1e-3, 0);
    assert_rel(c, 1e-6, 0);
    dls_platform_free(p);
}

TEST(test_add_errors_leave_platform_unchanged)
{
    dls_error err;
    dls_platform *p = test_platform_new();
    dls_model *m = constant(1);
    assert_ok(dls_platform_add(p, "a", m, NULL, &err), &err);
    assert_fails(dls_platform_add(p, "a", m, NULL, &err), DLS_EINVAL, &err,
                 "a processor named \"a\" already exists");
    assert_int_equal(err.processor, 0);
    assert_fails(dls_platform_add(p, "", m, NULL, &err), DLS_EINVAL, &err, "empty");
    assert_fails(dls_platform_add(p, NULL, m, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_platform_add(p, "b", NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_platform_add(NULL, "b", m, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_int_equal(dls_platform_count(p), 1);
    assert_int_equal(test_platform_index(p, "b"), -1);
    dls_model_free(m);
    dls_platform_free(p);
}

TEST(test_set_model_remove)
{
    dls_error err;
    dls_platform *p = test_platform_new();
    char name[16];
    for (int i = 0; i < 5; i++) {
        snprintf(name, sizeof name, "p%d", i);
        test_add(p, name, constant(i + 1));
    }
    dls_model *m = constant(42);
    assert_ok(dls_platform_set_model(p, 2, m, &err), &err);
    assert_rel(dls_model_constant_speed(dls_platform_model(p, 2)), 42, 0);
    assert_fails(dls_platform_set_model(p, 7, m, &err), DLS_EINVAL, &err, "no processor 7");
    assert_fails(dls_platform_set_model(p, 1, NULL, &err), DLS_EINVAL, &err, "NULL model");
    dls_model_free(m);
    assert_ok(dls_platform_set_limit(p, 3, 77, &err), &err);
    assert_ok(dls_platform_remove(p, 1, &err), &err);
    assert_int_equal(dls_platform_count(p), 4);
    assert_int_equal(test_platform_index(p, "p1"), -1);
    assert_int_equal(test_platform_index(p, "p3"), 2);
    assert_rel(dls_platform_limit(p, 2), 77, 0);
    assert_string_equal(dls_platform_name(p, 3), "p4");
    assert_fails(dls_platform_remove(p, 4, &err), DLS_EINVAL, &err, "no processor 4");
    /* the removed name can be used again */
    test_add(p, "p1", constant(3));
    assert_int_equal(test_platform_index(p, "p1"), 4);
    dls_platform_free(p);
}

TEST(test_copy_and_equal)
{
    dls_error err;
    dls_platform *p = test_platform_new(), *c;
    const double x[] = {1, 10}, s[] = {5, 2};
    dls_model *m;
    assert_ok(dls_model_create_points(2, x, s, NULL, NULL, &m, &err), &err);
    assert_ok(dls_platform_add(p, "a", m, NULL, &err), &err);
    assert_ok(dls_platform_add(p, "b", m, NULL, &err), &err);
    dls_model_free(m);
    assert_ok(dls_platform_set_link(p, 1, 0, 0, &err), &err);
    assert_ok(dls_platform_set_limit(p, 0, 9, &err), &err);
    assert_ok(dls_platform_copy(p, &c, &err), &err);
    assert_true(dls_platform_equal(p, c));
    assert_int_equal(test_platform_index(c, "b"), 1);
    /* an explicit {0, 0} link differs from no link */
    dls_platform *d;
    assert_ok(dls_platform_copy(p, &d, &err), &err);
    assert_ok(dls_platform_remove(d, 1, &err), &err);
    assert_false(dls_platform_equal(p, d));
    assert_ok(dls_platform_set_limit(c, 0, 10, &err), &err);
    assert_false(dls_platform_equal(p, c));
    assert_true(dls_platform_equal(NULL, NULL));
    assert_false(dls_platform_equal(p, NULL));
    assert_fails(dls_platform_copy(NULL, &d, &err), DLS_EINVAL, &err, "NULL");
    dls_platform_free(c);
    dls_platform_free(d);
    dls_platform_free(p);
}

TEST(test_many_processors)
{
    dls_error err;
    dls_platform *p = test_platform_new();
    dls_model *m = constant(1);
    char name[32];
    const int n = 100000;
    for (int i = 0; i < n; i++) {
        snprintf(name, sizeof name, "node%06d", i);
        assert_ok(dls_platform_add(p, name, m, NULL, &err), &err);
    }
    dls_model_free(m);
    assert_int_equal(dls_platform_count(p), n);
    for (int i = 0; i < n; i += 997) {
        snprintf(name, sizeof name, "node%06d", i);
        assert_int_equal(test_platform_index(p, name), i);
    }
    assert_int_equal(test_platform_index(p, "node"), -1);
    dls_platform_free(p);
}

/* The limits of dls_platform_add and dls_platform_set_model: with small limits through the
 * internal form, and the real limit on points with a model of a million and one points
 * (16 MB). The platform is unchanged after each refusal. */
TEST(test_api_limits)
{
    dls_error err;
    dls__limits lim = dls__platform_limits;
    lim.processors = 2;
    lim.points = 3;
    lim.lines = 2;
    lim.grid_cells = 4;
    dls_platform *pl = test_platform_new();
    dls_model *c, *pts, *lines, *grid;
    assert_ok(dls_model_create_constant(2.5, &c, &err), &err);
    const double x[] = {1, 2, 3, 4}, sp[] = {5, 6, 7, 8}, a[] = {0, -1, -3}, b[] = {1, 2, 3};
    const double g[] = {1, 1, 1, 1, 1, 1};
    assert_ok(dls_model_create_points(4, x, sp, NULL, NULL, &pts, &err), &err);
    assert_ok(dls_model_create_time_lines(3, a, b, &lines, &err), &err);
    assert_ok(dls_model_create_speed2d(2, x, 3, x, g, &grid, &err), &err);
    char why[160];
    assert_int_equal(dls__model_over_limit(c, &lim, why, sizeof why), 0);
    assert_int_equal(dls__model_over_limit(pts, &lim, why, sizeof why), 1);
    assert_non_null(strstr(why, "its speed model has 4 points, more than the 3 dlsched takes"));
    assert_int_equal(dls__model_over_limit(lines, &lim, why, sizeof why), 1);
    assert_non_null(strstr(why, "its time model has 3 lines, more than the 2"));
    assert_int_equal(dls__model_over_limit(grid, &lim, why, sizeof why), 1);
    assert_non_null(strstr(why, "its 2-D speed grid has 2 x 3 values, more than the 4"));
    assert_fails(dls__platform_add_within(pl, "p", pts, NULL, &lim, &err), DLS_ELIMIT, &err,
                 "dls_platform_add: processor \"p\": its speed model has 4 points");
    assert_ok(dls__platform_add_within(pl, "c1", c, NULL, &lim, &err), &err);
    assert_ok(dls__platform_add_within(pl, "c2", c, NULL, &lim, &err), &err);
    assert_fails(dls__platform_add_within(pl, "c3", c, NULL, &lim, &err), DLS_ELIMIT, &err,
                 "processor \"c3\": the platform already holds 2 processors, the most dlsched "
                 "takes");
    assert_int_equal(dls_platform_count(pl), 2);
    assert_null(dls_platform_name(pl, 2));

    /* the real limit on points */
    size_t n = DLS_PLATFORM_MAX_POINTS + 1;
    double *size = malloc(n * sizeof *size), *speed = malloc(n * sizeof *speed);
    assert_non_null(size);
    assert_non_null(speed);
    for (size_t k = 0; k < n; k++) {
        size[k] = (double)(k + 1);
        speed[k] = 1e9;
    }
    dls_model *huge;
    assert_ok(dls_model_create_points(n, size, speed, NULL, NULL, &huge, &err), &err);
    assert_fails(dls_platform_add(pl, "huge", huge, NULL, &err), DLS_ELIMIT, &err,
                 "its speed model has 1000001 points, more than the 1000000 dlsched takes");
    assert_fails(dls_platform_set_model(pl, 0, huge, &err), DLS_ELIMIT, &err,
                 "dls_platform_set_model: processor \"c1\": its speed model has 1000001");
    assert_int_equal(dls_model_get_kind(dls_platform_model(pl, 0)), DLS_MODEL_CONSTANT);
    dls_model_free(huge);
    assert_ok(dls_model_create_points(n - 1, size, speed, NULL, NULL, &huge, &err), &err);
    assert_ok(dls_platform_set_model(pl, 0, huge, &err), &err);
    dls_model_free(huge);
    free(size);
    free(speed);
    dls_model_free(c);
    dls_model_free(pts);
    dls_model_free(lines);
    dls_model_free(grid);
    dls_platform_free(pl);
}

TEST_MAIN("platform", test_add_and_query, test_limits_and_links,
          test_add_errors_leave_platform_unchanged, test_set_model_remove, test_copy_and_equal,
          test_many_processors, test_api_limits)
