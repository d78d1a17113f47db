/* Tests of the partitioning of weighted elements against brute force: every contiguous
 * split (ordered sets, with every processor order when reordering is allowed) and every
 * assignment (unordered sets). Weights are whole numbers so that sums are exact. */
#include "testutil.h"

static dls_platform *random_platform(test_rng *r, size_t p, double total, int limits)
{
    dls_error err;
    dls_platform *pl = dls_platform_create();
    for (size_t i = 0; i < p; i++) {
        char name[16];
        snprintf(name, sizeof name, "w%zu", i);
        dls_model *m;
        if (test_below(r, 2)) {
            assert_ok(dls_model_create_constant(test_logrange(r, 0.1, 10), &m, &err), &err);
        } else {
            /* falling speed: time increasing and convex */
            double x[4], s[4], at = test_range(r, 0.5, 2), sp = test_logrange(r, 0.1, 10);
            for (int k = 0; k < 4; k++) {
                x[k] = at;
                s[k] = sp;
                at *= test_range(r, 1.5, 3);
                sp *= test_range(r, 0.3, 1);
            }
            assert_ok(dls_model_create_points(4, x, s, NULL, NULL, &m, &err), &err);
        }
        assert_ok(dls_platform_add(pl, name, m, NULL, &err), &err);
        dls_model_free(m);
        if (limits && test_below(r, 3) == 0)
            assert_ok(dls_platform_set_limit(pl, i, floor(test_range(r, 0.3, 1.2) * total) + 0.5,
                                             &err),
                      &err);
    }
    return pl;
}

static double ptime(const dls_platform *pl, size_t i, double w)
{
    return w > 0 ? dls_model_time(dls_platform_model(pl, i), w) : 0;
}

/* Best makespan over all contiguous splits in the processor order `ord`. */
static double brute_ordered(const dls_platform *pl, const size_t *ord, size_t k, const double *w,
                            size_t from, size_t n, double sofar)
{
    size_t p = dls_platform_count(pl), i = ord[k];
    double best = INFINITY;
    for (size_t to = (k + 1 == p ? n : from); to <= n; to++) {
        double wt = 0;
        for (size_t e = from; e < to; e++)
            wt += w[e];
        if (wt > dls_platform_limit(pl, i))
            break;
        double m = fmax(sofar, ptime(pl, i, wt));
        best = fmin(best, k + 1 == p ? m : brute_ordered(pl, ord, k + 1, w, to, n, m));
    }
    return best;
}

/* Best makespan over all assignments. */
static double brute_unordered(const dls_platform *pl, const double *w, size_t e, size_t n,
                              double *load)
{
    size_t p = dls_platform_count(pl);
    if (e == n) {
        double m = 0;
        for (size_t i = 0; i < p; i++)
            m = fmax(m, ptime(pl, i, load[i]));
        return m;
    }
    double best = INFINITY;
    for (size_t i = 0; i < p; i++) {
        if (load[i] + w[e] > dls_platform_limit(pl, i))
            continue;
        load[i] += w[e];
        best = fmin(best, brute_unordered(pl, w, e + 1, n, load));
        load[i] -= w[e];
    }
    return best;
}

static void check_common(const dls_platform *pl, size_t n, const double *w,
                         const dls_partition *res)
{
    size_t p = dls_platform_count(pl);
    double mk = 0;
    uint64_t count = 0;
    for (size_t i = 0; i < p; i++) {
        double want = ptime(pl, i, dls_partition_sizes(res)[i]);
        assert_true(dls_partition_times(res)[i] == want);
        assert_true(dls_partition_sizes(res)[i] <= dls_platform_limit(pl, i));
        mk = fmax(mk, want);
        count += dls_partition_elements(res)[i];
    }
    assert_true(count == n);
    assert_true(dls_partition_makespan(res) == mk);
    assert_true(dls_partition_lower_bound(res) <= mk);
    double lb = dls_partition_lower_bound(res);
    assert_rel_floor(dls_partition_gap(res), lb > 0 ? (mk - lb) / lb : 0, 1e-12, 1e-300);
    (void)w;
}

static void test_ordered_fixed_brute_force(void **state)
{
    (void)state;
    test_rng r;
    test_rng_init(&r, 200);
    dls_error err;
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    for (int trial = 0; trial < 1500; trial++) {
        size_t p = 1 + test_below(&r, 4), n = 1 + test_below(&r, 9);
        double w[10], total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = (double)(1 + test_below(&r, 9));
            total += w[e];
        }
        dls_platform *pl = random_platform(&r, p, total, trial % 2);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_set(pl, n, &par, &res, &err), &err);
        size_t ord[4] = {0, 1, 2, 3};
        double want = brute_ordered(pl, ord, 0, w, 0, n, 0);
        if (isinf(want)) {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
        } else {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
            check_common(pl, n, w, res);
            /* the chunks are contiguous, in platform order, and cover the set */
            const uint64_t *first = dls_partition_first(res);
            uint64_t at = 0;
            for (size_t i = 0; i < p; i++) {
                assert_true(first[i] == at);
                double wt = 0;
                for (uint64_t e = first[i]; e < first[i] + dls_partition_elements(res)[i]; e++)
                    wt += w[e];
                assert_true(wt == dls_partition_sizes(res)[i]);
                at += dls_partition_elements(res)[i];
            }
            if (dls_partition_makespan(res) != want)
                fail_msg("trial %d: makespan %.17g, brute force %.17g", trial,
                         dls_partition_makespan(res), want);
        }
        dls_partition_free(res);
        dls_platform_free(pl);
    }
}

static int next_perm(size_t *a, size_t n)
{
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, rr = n - 1; l < rr; l++, rr--) {
        t = a[l];
        a[l] = a[rr];
        a[rr] = t;
    }
    return 1;
}

static void test_ordered_reorder_brute_force(void **state)
{
    (void)state;
    test_rng r;
    test_rng_init(&r, 201);
    dls_error err;
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    par.reorder = 1;
    for (int trial = 0; trial < 500; trial++) {
        size_t p = 1 + test_below(&r, 4), n = 1 + test_below(&r, 8);
        double w[10], total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = (double)(1 + test_below(&r, 9));
            total += w[e];
        }
        dls_platform *pl = random_platform(&r, p, total, trial % 2);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_set(pl, n, &par, &res, &err), &err);
        size_t ord[4] = {0, 1, 2, 3};
        double want = INFINITY;
        do
            want = fmin(want, brute_ordered(pl, ord, 0, w, 0, n, 0));
        while (next_perm(ord, p));
        if (isinf(want)) {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
        } else {
            check_common(pl, n, w, res);
            const size_t *order = dls_partition_order(res);
            assert_non_null(order);
            /* the chunks follow the returned order */
            uint64_t at = 0;
            for (size_t k = 0; k < p; k++) {
                assert_true(dls_partition_first(res)[order[k]] == at);
                at += dls_partition_elements(res)[order[k]];
            }
            if (dls_partition_makespan(res) != want)
                fail_msg("trial %d: makespan %.17g, brute force %.17g", trial,
                         dls_partition_makespan(res), want);
        }
        dls_partition_free(res);
        dls_platform_free(pl);
    }
}

static void test_unordered_brute_force(void **state)
{
    (void)state;
    test_rng r;
    test_rng_init(&r, 202);
    dls_error err;
    dls_partition_params par;
    dls_partition_params_init(&par);
    double worst_gap = 0, worst_to_opt = 0;
    for (int trial = 0; trial < 1500; trial++) {
        size_t p = 1 + test_below(&r, 3), n = 1 + test_below(&r, 8);
        double w[10], total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = (double)(1 + test_below(&r, 20));
            total += w[e];
        }
        dls_platform *pl = random_platform(&r, p, total, trial % 2);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_set(pl, n, &par, &res, &err), &err);
        double load[4] = {0, 0, 0, 0};
        double opt = brute_unordered(pl, w, 0, n, load);
        dls_solution_status st = dls_partition_status(res);
        if (st == DLS_SOLUTION_INFEASIBLE) {
            assert_true(isinf(opt)); /* never claimed without proof */
        } else if (st == DLS_SOLUTION_NOT_FOUND) {
            assert_true(isinf(dls_partition_makespan(res)));
        } else {
            check_common(pl, n, w, res);
            /* the assignment is what the sizes say */
            const size_t *as = dls_partition_assignment(res);
            assert_non_null(as);
            double sizes[4] = {0, 0, 0, 0};
            for (size_t e = 0; e < n; e++)
                sizes[as[e]] += w[e];
            for (size_t i = 0; i < p; i++)
                assert_true(sizes[i] == dls_partition_sizes(res)[i]);
            /* lower bound <= optimum <= heuristic */
            double lb = dls_partition_lower_bound(res), mk = dls_partition_makespan(res);
            if (!(lb <= opt * (1 + 1e-12)))
                fail_msg("trial %d: lower bound %.17g above the optimum %.17g", trial, lb, opt);
            assert_true(mk >= opt);
            if (st == DLS_SOLUTION_OPTIMAL)
                assert_true(mk == opt);
            worst_gap = fmax(worst_gap, dls_partition_gap(res));
            worst_to_opt = fmax(worst_to_opt, mk / opt - 1);
        }
        dls_partition_free(res);
        dls_platform_free(pl);
    }
    printf("# unordered heuristic: worst gap to the lower bound %.3g, worst excess over the "
           "optimum %.3g\n", worst_gap, worst_to_opt);
}

/* Many small elements: the heuristic is close to its bound, on both of its paths. */
static void test_unordered_large(void **state)
{
    (void)state;
    test_rng r;
    test_rng_init(&r, 203);
    dls_error err;
    const size_t sizes[] = {100000, 1500000};
    for (int k = 0; k < 2; k++) {
        size_t n = sizes[k], p = 16;
        double *w = malloc(n * sizeof *w), total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = test_logrange(&r, 1, 100);
            total += w[e];
        }
        dls_platform *pl = random_platform(&r, p, total, 0);
        dls_partition_params par;
        dls_partition_params_init(&par);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_set(pl, n, &par, &res, &err), &err);
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_FEASIBLE);
        check_common(pl, n, w, res);
        printf("# %zu elements over %zu processors: gap %.3g\n", n, p, dls_partition_gap(res));
        assert_true(dls_partition_gap(res) < 1e-3);
        dls_partition_free(res);
        dls_platform_free(pl);
        free(w);
    }
}

/* A result with no valid distribution reads as every chunk empty: first, elements, sizes
 * and times all 0 (first is never NULL for ordered sets), and with reordering the
 * platform's order. */
static void check_no_chunks(const dls_partition *res, int reorder)
{
    size_t p = dls_partition_count(res);
    const uint64_t *first = dls_partition_first(res);
    assert_non_null(first);
    for (size_t i = 0; i < p; i++) {
        assert_true(first[i] == 0);
        assert_true(dls_partition_elements(res)[i] == 0);
        assert_true(dls_partition_sizes(res)[i] == 0);
        assert_true(dls_partition_times(res)[i] == 0);
    }
    assert_true(isinf(dls_partition_makespan(res)));
    assert_null(dls_partition_assignment(res));
    const size_t *order = dls_partition_order(res);
    if (!reorder) {
        assert_null(order);
        return;
    }
    assert_non_null(order);
    for (size_t k = 0; k < p; k++)
        assert_true(order[k] == k);
}

static void test_weighted_infeasible(void **state)
{
    (void)state;
    dls_error err;
    dls_platform *pl = dls_platform_create();
    dls_model *m;
    assert_ok(dls_model_create_constant(1, &m, &err), &err);
    assert_ok(dls_platform_add(pl, "a", m, NULL, &err), &err);
    assert_ok(dls_platform_add(pl, "b", m, NULL, &err), &err);
    dls_model_free(m);
    assert_ok(dls_platform_set_limit(pl, 0, 5, &err), &err);
    assert_ok(dls_platform_set_limit(pl, 1, 5, &err), &err);
    const double big[] = {6, 1};
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.weights = big;
    dls_partition *res;
    /* total 7 fits in 10, but the element of 6 fits nowhere */
    assert_ok(dls_partition_set(pl, 2, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "6"));
    dls_partition_free(res);
    /* three elements of 3: two must share a processor, which holds 5 */
    const double three[] = {3, 3, 3};
    par.weights = three;
    assert_ok(dls_partition_set(pl, 3, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    dls_partition_free(res);
    /* total above the capacity */
    const double many[] = {4, 4, 4};
    par.weights = many;
    assert_ok(dls_partition_set(pl, 3, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "total weight"));
    dls_partition_free(res);
    /* 3 4 2 1 fits unordered ({3, 2} and {4, 1}) but not in two chunks of at most 5 */
    const double ord[] = {3, 4, 2, 1};
    par.weights = ord;
    assert_ok(dls_partition_set(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
    dls_partition_free(res);
    par.ordered = 1;
    assert_ok(dls_partition_set(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "contiguous"));
    check_no_chunks(res, 0);
    dls_partition_free(res);
    par.reorder = 1;
    assert_ok(dls_partition_set(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    check_no_chunks(res, 1);
    dls_partition_free(res);
    /* ordered, total above the capacity: refused before any split is tried */
    par.weights = many;
    for (par.reorder = 0; par.reorder <= 1; par.reorder++) {
        assert_ok(dls_partition_set(pl, 3, &par, &res, &err), &err);
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
        check_no_chunks(res, par.reorder);
        dls_partition_free(res);
    }
    dls_platform_free(pl);
}

int main(int argc, char **argv)
{
    test_init_seed(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ordered_fixed_brute_force),
        cmocka_unit_test(test_ordered_reorder_brute_force),
        cmocka_unit_test(test_unordered_brute_force),
        cmocka_unit_test(test_unordered_large),
        cmocka_unit_test(test_weighted_infeasible),
    };
    return cmocka_run_group_tests_name("partition_weighted", tests, NULL, NULL);
}
