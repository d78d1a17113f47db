/* Tests of the partitioning of equal elements, against independent exact methods:
 * - a search over the candidate times: the optimal makespan is the smallest time T with
 *   sum_i N_i(T) >= n, N_i(T) the largest count processor i finishes within T, found by
 *   bisection over the doubles with N_i by binary search over counts (no inverse formula,
 *   no Newton);
 * - brute force over every distribution on tiny instances. */
#include "gen.h"

/* Number of random instances; the acceptance asks for at least 10,000. */
#define RANDOM_INSTANCES 10000

typedef struct inst {
    size_t p;
    dls_platform *pl;
    uint64_t n;
} inst;

static double tk(const dls_model *m, uint64_t k)
{
    return k == 0 ? 0.0 : dls_model_time(m, (double)k);
}

static uint64_t capacity_of(const dls_platform *pl, size_t i, uint64_t n)
{
    double lim = dls_platform_limit(pl, i);
    /* the tolerance rule (doc/NUMERICS.md): a limit within DLS_REL_TOL below an integer
     * holds that integer */
    double whole = ceil(lim) - lim <= DLS_REL_TOL * lim ? ceil(lim) : floor(lim);
    return isinf(lim) ? n : (uint64_t)fmin(whole, (double)n);
}

/* Largest k in [0, cap] with t(k) <= T (t increasing). */
static uint64_t ref_count(const dls_model *m, double T, uint64_t cap)
{
    uint64_t lo = 0, hi = cap;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (tk(m, mid) <= T)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double dbl(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The optimal makespan by bisection over the candidate times. */
static double ref_optimum(const dls_platform *pl, uint64_t n)
{
    size_t p = dls_platform_count(pl);
    double hi = 0;
    for (size_t i = 0; i < p; i++)
        hi = fmax(hi, tk(dls_platform_model(pl, i), capacity_of(pl, i, n)));
    uint64_t lo_b = 0, hi_b = bits(hi);
    if (n == 0)
        return 0;
    while (hi_b - lo_b > 1) {
        uint64_t mid = lo_b + (hi_b - lo_b) / 2;
        double T = dbl(mid);
        uint64_t sum = 0;
        for (size_t i = 0; i < p && sum < n; i++)
            sum += ref_count(dls_platform_model(pl, i), T, capacity_of(pl, i, n));
        if (sum >= n)
            hi_b = mid;
        else
            lo_b = mid;
    }
    return dbl(hi_b);
}

/* The continuous optimum by nested bisection (sizes by bisection on x, T by bisection). */
static double ref_size(const dls_model *m, double T, double cap)
{
    if (dls_model_time(m, cap) <= T)
        return cap;
    double lo = 0, hi = fmin(cap, 1);
    while (hi < cap && dls_model_time(m, hi) <= T)
        hi = fmin(cap, 2 * hi);
    for (int it = 0; it < 400 && hi - lo > 1e-15 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (dls_model_time(m, mid) <= T)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double ref_continuous(const dls_platform *pl, uint64_t n)
{
    size_t p = dls_platform_count(pl);
    double lo = 0, hi = 1;
    for (;;) {
        double sum = 0;
        for (size_t i = 0; i < p; i++)
            sum += ref_size(dls_platform_model(pl, i), hi, (double)capacity_of(pl, i, n));
        if (sum >= (double)n)
            break;
        lo = hi;
        hi *= 2;
    }
    for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
        double mid = 0.5 * (lo + hi), sum = 0;
        for (size_t i = 0; i < p; i++)
            sum += ref_size(dls_platform_model(pl, i), mid, (double)capacity_of(pl, i, n));
        if (sum >= (double)n)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

/* Checks one result against the rules and the exact optimum. */
static void check_result(const dls_platform *pl, uint64_t n, const dls_partition *res,
                         int with_limits)
{
    size_t p = dls_platform_count(pl);
    const uint64_t *el = dls_partition_elements(res);
    const double *t = dls_partition_times(res);
    for (size_t i = 0; i < p; i++) {
        if (with_limits)
            assert_true(el[i] <= capacity_of(pl, i, n));
        double want = tk(dls_platform_model(pl, i), el[i]);
        if (t[i] != want)
            fail_msg("processor %zu: time %.17g, model says %.17g", i, t[i], want);
    }
    test_partition_adds_up(res, p, n);
    assert_true(dls_partition_total(res) == n);
    assert_true(dls_partition_lower_bound(res) <= dls_partition_makespan(res));
    assert_true(dls_partition_lower_bound(res) >= 0);
}

/* The partition of n elements, which must succeed. */
static dls_partition *solved(const dls_platform *pl, uint64_t n, const dls_partition_params *par)
{
    dls_error err;
    dls_partition *res;
    assert_ok(dls_partition_solve(pl, n, par, &res, &err), &err);
    return res;
}

static void run_random(int limits, int mixed, uint64_t salt, int count, dls_partition_method method)
{
    test_rng r = test_rng_salted(salt);
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.method = method;
    for (int trial = 0; trial < count; trial++) {
        size_t p = 1 + test_below(&r, trial % 10 == 0 ? 40 : 8);
        uint64_t n = (uint64_t)floor(test_logrange(&r, 1, 1e12));
        dls_platform *pl = gen_shaped(&r, p, n, limits, mixed);
        double capsum = 0;
        for (size_t i = 0; i < p; i++)
            capsum += (double)capacity_of(pl, i, n);
        dls_partition *res = solved(pl, n, &par);
        if (capsum < (double)n) {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
            assert_non_null(strstr(dls_partition_note(res), "infeasible"));
            assert_true(isinf(dls_partition_makespan(res)));
        } else {
            if (dls_partition_status(res) != DLS_SOLUTION_OPTIMAL)
                fail_msg("trial %d: status %s: %s", trial,
                         dls_solution_status_name(dls_partition_status(res)),
                         dls_partition_note(res));
            assert_true(dls_partition_shape_ok(res));
            check_result(pl, n, res, 1);
            double want = ref_optimum(pl, n);
            if (dls_partition_makespan(res) != want)
                fail_msg("trial %d (p %zu, n %llu): makespan %.17g, exact optimum %.17g", trial, p,
                         (unsigned long long)n, dls_partition_makespan(res), want);
            if (trial % 20 == 0) {
                /* the lower bound is the continuous optimum (Algorithm 1.1 stops at the
                 * line U below it) */
                double cont = ref_continuous(pl, n), lb = dls_partition_lower_bound(res);
                if (method == DLS_PARTITION_BISECTION ? !(lb <= cont * (1 + 1e-12))
                                                      : !test_close(lb, fmin(cont, want), 1e-9, 0))
                    fail_msg("trial %d: lower bound %.17g, continuous optimum %.17g", trial,
                             dls_partition_lower_bound(res), cont);
            }
        }
        dls_partition_free(res);
        dls_platform_free(pl);
    }
}

TEST(test_random_no_limits)
{
    run_random(0, 0, 100, RANDOM_INSTANCES * 4 / 10, DLS_PARTITION_NEWTON);
}

TEST(test_random_limits)
{
    run_random(1, 0, 101, RANDOM_INSTANCES * 3 / 10, DLS_PARTITION_NEWTON);
}

TEST(test_random_mixed_models)
{
    run_random(1, 1, 102, RANDOM_INSTANCES * 3 / 10, DLS_PARTITION_NEWTON);
}

TEST(test_random_paper_bisection)
{
    run_random(1, 1, 103, 500, DLS_PARTITION_BISECTION);
}

/* ---------------------------------------------------------------------------------- */
/* Brute force on tiny instances                                                      */

static double brute(const dls_platform *pl, size_t i, uint64_t left, uint64_t n, double sofar)
{
    size_t p = dls_platform_count(pl);
    const dls_model *m = dls_platform_model(pl, i);
    uint64_t cap = capacity_of(pl, i, n);
    if (i + 1 == p)
        return left <= cap ? fmax(sofar, tk(m, left)) : INFINITY;
    double best = INFINITY;
    for (uint64_t k = 0; k <= left && k <= cap; k++)
        best = fmin(best, brute(pl, i + 1, left - k, n, fmax(sofar, tk(m, k))));
    return best;
}

RANDOM_TEST(test_brute_force_tiny, 104, 2000)
{
    size_t p = 1 + test_below(r, 4);
    uint64_t n = test_below(r, 13);
    dls_platform *pl = gen_shaped(r, p, n + 1, trial % 2, 1);
    dls_partition *res = solved(pl, n, NULL);
    double want = brute(pl, 0, n, n, 0);
    if (isinf(want)) {
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    } else {
        check_result(pl, n, res, 1);
        if (dls_partition_makespan(res) != want)
            fail_msg("trial %d: makespan %.17g, brute force %.17g", trial,
                     dls_partition_makespan(res), want);
    }
    dls_partition_free(res);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */

static dls_platform *constants(size_t p, const double *s, const double *lim)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%zu", i);
        dls_model *m;
        assert_ok(dls_model_create_constant(s[i], &m, &err), &err);
        assert_ok(dls_platform_add(pl, name, m, NULL, &err), &err);
        dls_model_free(m);
        if (lim && isfinite(lim[i]))
            assert_ok(dls_platform_set_limit(pl, i, lim[i], &err), &err);
    }
    return pl;
}

TEST(test_constant_speeds)
{
    const double s[] = {3, 2, 1};
    dls_platform *pl = constants(3, s, NULL);
    /* 12 elements at speeds 3:2:1 give 6, 4, 2 and all finish at 2 s */
    dls_partition *res = solved(pl, 12, NULL);
    const uint64_t *el = dls_partition_elements(res);
    assert_true(el[0] == 6 && el[1] == 4 && el[2] == 2);
    assert_rel(dls_partition_makespan(res), 2, 0);
    assert_rel(dls_partition_lower_bound(res), 2, 1e-15);
    assert_rel(dls_partition_gap(res), 0, 0);
    assert_rel(dls_partition_metric_value(res), 0, 1e-12);
    dls_partition_free(res);
    /* 13: the 13th element goes where it finishes first: 7/3 on the fastest */
    res = solved(pl, 13, NULL);
    el = dls_partition_elements(res);
    assert_true(el[0] == 7 && el[1] == 4 && el[2] == 2);
    assert_rel(dls_partition_makespan(res), 7.0 / 3, 1e-15);
    assert_rel(dls_partition_lower_bound(res), 13.0 / 6, 1e-15);
    dls_partition_free(res);
    dls_platform_free(pl);

    /* limits: the fastest holds 2 (Lastovetsky and Reddy 2005); the rest share 10 at speeds 2:1 */
    const double lim[] = {2, INFINITY, INFINITY};
    pl = constants(3, s, lim);
    res = solved(pl, 12, NULL);
    el = dls_partition_elements(res);
    assert_true(el[0] == 2 && el[1] == 7 && el[2] == 3);
    assert_rel(dls_partition_makespan(res), 3.5, 0);
    assert_rel(dls_partition_lower_bound(res), 10.0 / 3, 1e-15);
    assert_rel(dls_partition_capacity(res), INFINITY, 0);
    dls_partition_free(res);
    /* ignoring the limits gives the first answer again */
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.use_limits = 0;
    res = solved(pl, 12, &par);
    assert_true(dls_partition_elements(res)[0] == 6);
    dls_partition_free(res);
    dls_platform_free(pl);
}

TEST(test_infeasible)
{
    const double s[] = {3, 2}, lim[] = {4.5, 5};
    dls_platform *pl = constants(2, s, lim);
    dls_partition *res = solved(pl, 10, NULL);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_rel(dls_partition_capacity(res), 9, 0); /* whole elements: 4 + 5 */
    assert_non_null(strstr(dls_partition_note(res), "at most 9 elements"));
    assert_non_null(strstr(dls_partition_note(res), "fewer than the 10"));
    dls_partition_free(res);
    res = solved(pl, 9, NULL);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
    assert_true(dls_partition_elements(res)[0] == 4 && dls_partition_elements(res)[1] == 5);
    dls_partition_free(res);
    dls_platform_free(pl);
}

TEST(test_huge_counts)
{
    dls_error err;
    const double s[] = {1e9, 3e9, 7e8};
    dls_platform *pl = constants(3, s, NULL);
    dls_partition *res;
    uint64_t n = DLS_PARTITION_MAX_ELEMENTS;
    res = solved(pl, n, NULL);
    check_result(pl, n, res, 0);
    assert_true(dls_partition_makespan(res) == ref_optimum(pl, n));
    dls_partition_free(res);
    assert_fails(dls_partition_solve(pl, n + 1, NULL, &res, &err), DLS_EINVAL, &err, "2^53");
    /* nothing to distribute */
    res = solved(pl, 0, NULL);
    assert_rel(dls_partition_makespan(res), 0, 0);
    assert_true(dls_partition_elements(res)[1] == 0);
    dls_partition_free(res);
    dls_platform_free(pl);
}

/* A model breaking the shape assumption still gives a valid answer, flagged. */
TEST(test_shape_violation)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    const double x[] = {10, 20, 40}, s[] = {1, 4, 4.2};
    dls_model *m;
    assert_ok(dls_model_create_points(3, x, s, NULL, NULL, &m, &err), &err);
    assert_ok(dls_platform_add(pl, "cache", m, NULL, &err), &err);
    dls_model_free(m);
    assert_ok(dls_model_create_constant(2, &m, &err), &err);
    assert_ok(dls_platform_add(pl, "flat", m, NULL, &err), &err);
    dls_model_free(m);
    /* up to 10 elements the dip of "cache" (time falls on [10, 20]) is out of reach */
    for (uint64_t n = 11; n < 60; n++) {
        dls_partition *res = solved(pl, n, NULL);
        check_result(pl, n, res, 0);
        assert_false(dls_partition_shape_ok(res));
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_FEASIBLE);
        assert_non_null(strstr(dls_partition_note(res), "processor \"cache\""));
        assert_true(dls_partition_makespan(res) >= brute(pl, 0, n, n, 0));
        dls_partition_free(res);
    }
    dls_platform_free(pl);
}

TEST(test_ordered_equal)
{
    const double s[] = {1, 2, 3};
    dls_platform *pl = constants(3, s, NULL);
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    dls_partition *res = solved(pl, 12, &par);
    const uint64_t *first = dls_partition_first(res);
    assert_non_null(first);
    assert_true(first[0] == 0 && first[1] == 2 && first[2] == 6);
    assert_null(dls_partition_order(res));
    dls_partition_free(res);
    par.reorder = 1;
    res = solved(pl, 12, &par);
    assert_non_null(dls_partition_order(res));
    dls_partition_free(res);
    dls_platform_free(pl);
    /* no elements, and more than the limits hold: defined arrays, every chunk empty and
     * the platform's order */
    const double lim[] = {2, 3, 4};
    pl = constants(3, s, lim);
    const uint64_t counts[] = {0, 10};
    for (int k = 0; k < 2; k++) {
        res = solved(pl, counts[k], &par);
        assert_int_equal(dls_partition_status(res),
                         counts[k] ? DLS_SOLUTION_INFEASIBLE : DLS_SOLUTION_OPTIMAL);
        first = dls_partition_first(res);
        assert_non_null(first);
        const size_t *order = dls_partition_order(res);
        assert_non_null(order);
        for (size_t i = 0; i < 3; i++) {
            assert_true(first[i] == 0);
            assert_true(dls_partition_elements(res)[i] == 0);
            assert_true(order[i] == i);
        }
        dls_partition_free(res);
    }
    dls_platform_free(pl);
}

static double count_metric_calls;

static double my_metric(size_t p, const double *speeds, const double *actual, const double *ideal,
                        void *data)
{
    count_metric_calls += *(double *)data;
    double d = 0;
    for (size_t i = 0; i < p; i++) {
        assert_true(speeds[i] > 0);
        d = fmax(d, fabs(actual[i] - ideal[i]));
    }
    return d;
}

TEST(test_metric)
{
    const double s[] = {3, 2, 1};
    dls_platform *pl = constants(3, s, NULL);
    dls_partition *res = solved(pl, 13, NULL);
    /* ideal: 6.5, 13/3, 13/6; actual 7, 4, 2; weights 1/2, 1/3, 1/6 */
    double d0 = 7 - 6.5, d1 = 4 - 13.0 / 3, d2 = 2 - 13.0 / 6;
    double want = sqrt(d0 * d0 / 2 + d1 * d1 / 3 + d2 * d2 / 6);
    assert_rel(dls_partition_metric_value(res), want, 1e-12);
    assert_rel(dls_partition_ideal(res)[1], 13.0 / 3, 1e-12);
    dls_partition_free(res);
    dls_partition_params par;
    dls_partition_params_init(&par);
    double one = 1;
    par.metric = my_metric;
    par.metric_data = &one;
    count_metric_calls = 0;
    res = solved(pl, 13, &par);
    assert_rel(count_metric_calls, 1, 0);
    assert_rel(dls_partition_metric_value(res), 0.5, 1e-12);
    dls_partition_free(res);
    dls_platform_free(pl);
}

TEST(test_striped)
{
    dls_error err;
    dls_platform *pl = test_example("striped_mm.json");
    for (uint64_t n = 500; n <= 9000; n += 1300) {
        dls_partition *res;
        assert_ok(dls_partition_solve_matrix(pl, n, NULL, &res, &err), &err);
        const uint64_t *rows = dls_partition_elements(res);
        double mk = 0;
        uint64_t sum = 0;
        for (size_t i = 0; i < 2; i++) {
            /* r rows take r n^2 / s(n, r) seconds */
            double r = (double)rows[i], nn = (double)n;
            double want = rows[i] ? r * nn * nn / dls_model_speed2d(dls_platform_model(pl, i), nn, r)
                                  : 0;
            assert_rel(dls_partition_times(res)[i], want, 1e-12);
            mk = fmax(mk, want);
            sum += rows[i];
        }
        assert_true(sum == n);
        /* optimal: moving one row either way does not help */
        for (size_t from = 0; from < 2; from++) {
            size_t to = 1 - from;
            if (rows[from] == 0)
                continue;
            double nn = (double)n, rf = (double)rows[from] - 1, rt = (double)rows[to] + 1;
            double tf = rf > 0 ? rf * nn * nn / dls_model_speed2d(dls_platform_model(pl, from), nn, rf) : 0;
            double tt = rt * nn * nn / dls_model_speed2d(dls_platform_model(pl, to), nn, rt);
            assert_true(fmax(tf, tt) >= mk * (1 - 1e-12));
        }
        dls_partition_free(res);
    }
    /* a 2-D model cannot take plain elements */
    dls_partition *res = NULL;
    assert_fails(dls_partition_solve(pl, 10, NULL, &res, &err), DLS_EINVAL, &err,
                 "processor \"X1\" has a 2-D speed model");
    assert_int_equal(err.processor, 0);
    assert_fails(dls_partition_solve_matrix(pl, 0, NULL, &res, &err), DLS_EINVAL, &err, "order");
    assert_null(res);
    dls_platform_free(pl);
}

TEST(test_argument_errors)
{
    dls_error err;
    const double s[] = {1, 2};
    dls_platform *pl = constants(2, s, NULL);
    dls_partition *res = NULL;
    dls_partition_params par;
    assert_fails(dls_partition_solve(NULL, 1, NULL, &res, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_partition_solve(pl, 1, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
#define PARTITION_REFUSED(change, part)                                                    \
    ASSERT_PARAM_REFUSED(dls_partition_params_init, par, change,                           \
                         dls_partition_solve(pl, 1, &par, &res, &err), &err, part)
    PARTITION_REFUSED(par.reorder = 1, "ordered");
    PARTITION_REFUSED(par.use_limits = 7, "use_limits");
    PARTITION_REFUSED(par.method = (dls_partition_method)9, "method");
#undef PARTITION_REFUSED
    dls_partition_params_init(&par);
    const double w[] = {1, -2};
    par.weights = w;
    assert_fails(dls_partition_solve(pl, 2, &par, &res, &err), DLS_EINVAL, &err, "weight 2");
    assert_fails(dls_partition_solve_matrix(pl, 2, &par, &res, &err), DLS_EINVAL, &err, "weight");
    /* issue 35: each weight and their sum in the domain */
    const double tiny[] = {1, 1e-300}, huge[] = {8e59, 8e59};
    par.weights = tiny;
    assert_fails(dls_partition_solve(pl, 2, &par, &res, &err), DLS_EINVAL, &err,
                 "weight 2: the weight 1e-300 is outside the domain");
    par.weights = huge;
    assert_fails(dls_partition_solve(pl, 2, &par, &res, &err), DLS_EINVAL, &err, "sum to");
    dls_platform *empty = test_platform_new();
    assert_fails(dls_partition_solve(empty, 1, NULL, &res, &err), DLS_EINVAL, &err, "no processor");
    assert_null(res);
    dls_platform_free(empty);
    dls_platform_free(pl);
    dls_partition_free(NULL);
    assert_string_equal(dls_solution_status_name(DLS_SOLUTION_NOT_FOUND), "not found");
    assert_string_equal(dls_solution_status_name((dls_solution_status)77), "unknown");
}

TEST(test_size_for_time)
{
    test_rng r = test_rng_salted(105);
    for (int trial = 0; trial < 3000; trial++) {
        dls_model *m = gen_shaped_model(&r, (int)test_below(&r, GEN_KINDS), 1e6);
        double T = test_logrange(&r, 1e-9, 1e6);
        double cap = test_below(&r, 3) ? INFINITY : test_logrange(&r, 1, 1e9);
        double x = dls_model_size_for_time(m, T, cap);
        double want = ref_size(m, T, isinf(cap) ? 1e300 : cap);
        assert_rel_floor(x, want, 1e-9, 1e-300);
        dls_model_free(m);
    }
    dls_model *m;
    dls_error err;
    assert_ok(dls_model_create_constant(2, &m, &err), &err);
    assert_rel(dls_model_size_for_time(m, 3, INFINITY), 6, 0);
    assert_rel(dls_model_size_for_time(m, 3, 5), 5, 0);
    assert_rel(dls_model_size_for_time(m, INFINITY, 5), 5, 0);
    assert_true(isnan(dls_model_size_for_time(m, -1, 5)));
    assert_true(isnan(dls_model_size_for_time(m, 1, 0)));
    dls_model_free(m);
    /* a non-monotone time: the largest size within the time, past the dip */
    const double x[] = {10, 20}, s[] = {1, 4};
    assert_ok(dls_model_create_points(2, x, s, NULL, NULL, &m, &err), &err);
    /* time: 10 at x = 10, 5 at x = 20, then x / 4 */
    assert_rel(dls_model_size_for_time(m, 6, INFINITY), 24, 1e-15);
    assert_rel(dls_model_size_for_time(m, 6, 15), 15, 1e-15);    /* time(15) = 15 / 2.5 */
    assert_rel(dls_model_size_for_time(m, 5.5, 15), 5.5, 1e-15); /* back before the dip */
    dls_model_free(m);
}

TEST_MAIN("partition", test_constant_speeds, test_infeasible, test_huge_counts,
          test_shape_violation, test_ordered_equal, test_metric, test_striped,
          test_argument_errors, test_size_for_time, test_brute_force_tiny,
          test_random_no_limits, test_random_limits, test_random_mixed_models,
          test_random_paper_bisection)
