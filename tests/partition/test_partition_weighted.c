/* Tests of the partitioning of weighted elements against brute force: every contiguous
 * split (ordered sets, with every processor order when reordering is allowed) and every
 * assignment (unordered sets). Weights are whole numbers so that sums are exact. */
#include "gen.h"

/* n whole weights from 1 to max (so that sums are exact); returns their sum. */
static double whole_weights(test_rng *r, size_t n, uint64_t max, double *w)
{
    double total = 0;
    for (size_t e = 0; e < n; e++) {
        w[e] = (double)(1 + test_below(r, max));
        total += w[e];
    }
    return total;
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

/* One ordered set of whole weights against brute force over every contiguous split, in
 * the platform's order of the processors, or in every order when `reorder`. */
static void ordered_trial(test_rng *r, int trial, int reorder, uint64_t max_n)
{
    dls_error err;
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    par.reorder = reorder;
    size_t p = 1 + test_below(r, 4), n = 1 + test_below(r, max_n);
    double w[10], total = whole_weights(r, n, 9, w);
    dls_platform *pl = gen_falling(r, p, total, trial % 2);
    par.weights = w;
    dls_partition *res;
    assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
    size_t ord[4] = {0, 1, 2, 3};
    double want = INFINITY;
    do
        want = fmin(want, brute_ordered(pl, ord, 0, w, 0, n, 0));
    while (reorder && test_next_permutation(ord, p));
    if (isinf(want)) {
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    } else {
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
        check_common(pl, n, w, res);
        /* the chunks are contiguous, cover the set, and follow the platform's order (the
         * returned one when reordering) */
        const size_t *order = dls_partition_order(res);
        if (reorder)
            assert_non_null(order);
        const uint64_t *first = dls_partition_first(res);
        uint64_t at = 0;
        for (size_t k = 0; k < p; k++) {
            size_t i = reorder ? order[k] : k;
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

RANDOM_TEST(test_ordered_fixed_brute_force, 200, 1500)
{
    ordered_trial(r, trial, 0, 9);
}

RANDOM_TEST(test_ordered_reorder_brute_force, 201, 500)
{
    ordered_trial(r, trial, 1, 8);
}

TEST(test_unordered_brute_force)
{
    test_rng r = test_rng_salted(202);
    dls_error err;
    dls_partition_params par;
    dls_partition_params_init(&par);
    double worst_gap = 0, worst_to_opt = 0;
    for (int trial = 0; trial < 1500; trial++) {
        size_t p = 1 + test_below(&r, 3), n = 1 + test_below(&r, 8);
        double w[10], total = whole_weights(&r, n, 20, w);
        dls_platform *pl = gen_falling(&r, p, total, trial % 2);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
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
TEST(test_unordered_large)
{
    test_rng r = test_rng_salted(203);
    dls_error err;
    const size_t sizes[] = {100000, 1500000};
    for (int k = 0; k < 2; k++) {
        size_t n = sizes[k], p = 16;
        double *w = malloc(n * sizeof *w), total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = test_logrange(&r, 1, 100);
            total += w[e];
        }
        dls_platform *pl = gen_falling(&r, p, total, 0);
        dls_partition_params par;
        dls_partition_params_init(&par);
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
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

/* ---------------------------------------------------------------------------------- */
/* Ordered sets whose times fall in places                                            */

/* The points model of the reported failure: its time x/s(x) rises to 52.9 s at 271, falls
 * to 37.6 s at 570, rises again. */
static dls_model *falling_model(void)
{
    const double x[] = {3.4918, 270.96, 569.98, 828.43, 1016.38, 1091.94};
    const double s[] = {5.3158, 5.1251, 15.144, 11.146, 11.864, 1.6941};
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_points(6, x, s, NULL, NULL, &m, &err), &err);
    return m;
}

/* One processor with falling_model() and 28 elements of 15: the only split is the whole
 * set, 420, which takes 41.5 s, less than 270 does (52.9 s). The greedy's binary search
 * took time to rise with the weight: it found 15 elements too slow within 41.5 s and
 * stopped at 14, and the result said "feasible" with half the set placed. */
TEST(test_ordered_falling_regression)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    dls_model *m = falling_model();
    assert_ok(dls_platform_add(pl, "a", m, NULL, &err), &err);
    double w[28];
    for (int e = 0; e < 28; e++)
        w[e] = 15.0;
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    par.weights = w;
    dls_partition *res;
    assert_ok(dls_partition_solve(pl, 28, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
    assert_true(dls_partition_elements(res)[0] == 28);
    assert_true(dls_partition_first(res)[0] == 0);
    assert_true(dls_partition_sizes(res)[0] == 420);
    assert_true(dls_partition_makespan(res) == dls_model_time(m, 420));
    assert_int_equal(dls_partition_shape_ok(res), 0);
    assert_non_null(strstr(dls_partition_note(res), "every chunk boundary"));
    dls_partition_free(res);
    dls_model_free(m);
    dls_platform_free(pl);
}

/* A model for the tests of falling times: mostly points with speeds up and down at random
 * (the time falls wherever the speed grows faster than the size), sometimes a maximum of
 * lines with a flat one (a time that is flat, then rises: never falls), or a constant. */
static dls_model *rough_model(test_rng *r, double total)
{
    dls_error err;
    dls_model *m;
    uint64_t kind = test_below(r, 6);
    if (kind == 0) {
        assert_ok(dls_model_create_constant(test_logrange(r, 0.1, 10), &m, &err), &err);
    } else if (kind == 1) {
        const double a[] = {test_range(r, 0.5, 3), 0}, b[] = {0, test_logrange(r, 0.05, 1)};
        assert_ok(dls_model_create_time_lines(2, a, b, &m, &err), &err);
    } else {
        size_t k = 2 + test_below(r, 5);
        double x[6], s[6], at = test_range(r, 0.02, 0.3) * total;
        for (size_t j = 0; j < k; j++) {
            x[j] = at;
            s[j] = test_logrange(r, 0.2, 20);
            at *= test_range(r, 1.2, 2.5);
        }
        assert_ok(dls_model_create_points(k, x, s, NULL, NULL, &m, &err), &err);
    }
    return m;
}

static dls_platform *rough_platform(test_rng *r, size_t p, double total, int limits)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        char name[16];
        snprintf(name, sizeof name, "r%zu", i);
        dls_model *m = rough_model(r, total);
        assert_ok(dls_platform_add(pl, name, m, NULL, &err), &err);
        dls_model_free(m);
        if (limits && test_below(r, 3) == 0)
            assert_ok(dls_platform_set_limit(pl, i, floor(test_range(r, 0.3, 1.2) * total) + 0.5,
                                             &err),
                      &err);
    }
    return pl;
}

/* An ordered result against the best makespan want over the processor orders allowed
 * (INFINITY: no split fits): never better than want, equal to it (relative 1e-12) when it
 * claims optimal, infeasible exactly when want is INFINITY, and every answer it gives
 * places every element in valid contiguous chunks that follow its order. */
static void check_ordered(const dls_platform *pl, size_t n, const double *w,
                          const dls_partition *res, double want, int reorder, const char *what,
                          int trial)
{
    size_t p = dls_platform_count(pl);
    dls_solution_status st = dls_partition_status(res);
    if (isinf(want)) {
        if (st != DLS_SOLUTION_INFEASIBLE)
            fail_msg("%s trial %d: brute force finds no split, the result is %s", what, trial,
                     dls_solution_status_name(st));
        check_no_chunks(res, reorder);
        return;
    }
    if (st != DLS_SOLUTION_OPTIMAL && st != DLS_SOLUTION_FEASIBLE)
        fail_msg("%s trial %d: %s (%s), but brute force finds %.17g", what, trial,
                 dls_solution_status_name(st), dls_partition_note(res), want);
    check_common(pl, n, w, res);
    const size_t *order = dls_partition_order(res);
    if (reorder)
        assert_non_null(order);
    else
        assert_null(order);
    uint64_t at = 0;
    for (size_t k = 0; k < p; k++) {
        size_t i = reorder ? order[k] : k;
        uint64_t first = dls_partition_first(res)[i], count = dls_partition_elements(res)[i];
        assert_true(first == at);
        double wt = 0;
        for (uint64_t e = first; e < first + count; e++)
            wt += w[e];
        assert_rel_floor(dls_partition_sizes(res)[i], wt, 1e-12, 0);
        at += count;
    }
    assert_true(at == n);
    double mk = dls_partition_makespan(res);
    if (mk < want * (1 - 1e-12))
        fail_msg("%s trial %d: makespan %.17g below the brute-force optimum %.17g", what, trial,
                 mk, want);
    if (st == DLS_SOLUTION_OPTIMAL && !test_close(mk, want, 1e-12, 0))
        fail_msg("%s trial %d: claimed optimal with %.17g, brute force finds %.17g (%s)", what,
                 trial, mk, want, dls_partition_note(res));
}

/* Ordered partition parameters, reordering or not. */
static dls_partition_params ordered_params(int reorder)
{
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.ordered = 1;
    par.reorder = reorder;
    return par;
}

/* Random small problems with times that fall, against every split (and every processor
 * order when reordering): both must find the optimum, which the exact search over chunk
 * boundaries does at this size. Weights are whole numbers in half of the trials (sums
 * exact), else any. */
TEST(test_ordered_falling_brute_force)
{
    test_rng r = test_rng_salted(204);
    dls_error err;
    dls_partition_params par = ordered_params(0);
    int falls = 0, by_dp = 0, infeasible = 0;
    const int trials = 1500;
    for (int trial = 0; trial < trials; trial++) {
        size_t p = 1 + test_below(&r, 4), n = 1 + test_below(&r, 10);
        double w[10], total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = trial % 2 ? (double)(1 + test_below(&r, 9)) : test_range(&r, 0.5, 9.5);
            total += w[e];
        }
        dls_platform *pl = rough_platform(&r, p, total, trial % 3 == 0);
        par.weights = w;
        size_t ord[4] = {0, 1, 2, 3};
        double fixed = brute_ordered(pl, ord, 0, w, 0, n, 0), any = INFINITY;
        do
            any = fmin(any, brute_ordered(pl, ord, 0, w, 0, n, 0));
        while (test_next_permutation(ord, p));
        for (par.reorder = 0; par.reorder <= 1; par.reorder++) {
            dls_partition *res;
            assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
            double want = par.reorder ? any : fixed;
            check_ordered(pl, n, w, res, want, par.reorder, par.reorder ? "reorder" : "fixed",
                          trial);
            if (isfinite(want) && dls_partition_status(res) != DLS_SOLUTION_OPTIMAL)
                fail_msg("trial %d: %s, not optimal, on %zu elements (%s)", trial,
                         dls_solution_status_name(dls_partition_status(res)), n,
                         dls_partition_note(res));
            if (!par.reorder) {
                falls += strstr(dls_partition_note(res), "falls") != NULL;
                by_dp += strstr(dls_partition_note(res), "every chunk boundary") != NULL;
                infeasible += isinf(want);
            }
            dls_partition_free(res);
        }
        dls_platform_free(pl);
    }
    printf("# %d problems, %d with a time that falls (%d of them needing the search over "
           "chunk boundaries), %d infeasible in the platform's order\n",
           trials, falls, by_dp, infeasible);
    /* the test is about them, and both proofs of optimality must be exercised */
    assert_true(falls > trials / 2);
    assert_true(by_dp > trials / 4 && falls - by_dp > trials / 20);
}

/* More processors than every order can be tried for: the order comes from a heuristic, so
 * the result may be feasible only, but never better than the best order, and valid. */
TEST(test_ordered_falling_reorder_heuristic)
{
    test_rng r = test_rng_salted(205);
    dls_error err;
    dls_partition_params par = ordered_params(1);
    for (int trial = 0; trial < 10; trial++) {
        size_t p = 7, n = 2 + test_below(&r, 4);
        double w[6], total = 0;
        for (size_t e = 0; e < n; e++) {
            w[e] = (double)(1 + test_below(&r, 9));
            total += w[e];
        }
        dls_platform *pl = rough_platform(&r, p, total, 0);
        par.weights = w;
        size_t ord[7] = {0, 1, 2, 3, 4, 5, 6};
        double want = INFINITY;
        do
            want = fmin(want, brute_ordered(pl, ord, 0, w, 0, n, 0));
        while (test_next_permutation(ord, p));
        dls_partition *res;
        assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
        check_ordered(pl, n, w, res, want, 1, "heuristic order", trial);
        dls_partition_free(res);
        dls_platform_free(pl);
    }
}

/* Too many elements for the search over chunk boundaries: the greedy. With one processor
 * the only split is the whole set; with two, the test tries every boundary. The answer must
 * place every element and never beat the optimum. Where the time falls at weights below
 * the makespan (falling_model() at 420 and near 37 s) it is not proven optimal and says
 * so; where the time falls only at weights that take longer than the makespan, it is
 * optimal. */
TEST(test_ordered_falling_large)
{
    test_rng r = test_rng_salted(206);
    dls_error err;
    const size_t n = 40000; /* p n^2 / 2 well beyond DLS__ORDERED_DP_PAIRS (weighted.c) */
    double *w = malloc(n * sizeof *w), *prefix = malloc((n + 1) * sizeof *prefix);
    assert_non_null(w);
    assert_non_null(prefix);
    for (int k = 0; k < 3; k++) {
        size_t p = k == 0 ? 1 : 2;
        prefix[0] = 0;
        for (size_t e = 0; e < n; e++) {
            /* one processor: 420 in all, into the rise after the fall of falling_model() */
            w[e] = k == 0 ? 420.0 / (double)n : test_range(&r, 0.002, 0.04);
            prefix[e + 1] = prefix[e] + w[e];
        }
        dls_platform *pl = test_platform_new();
        dls_model *m;
        if (k < 2) {
            m = falling_model();
        } else {
            /* 800 s at 800, down to 640 s at 960, rising beyond: the makespan is some 420 s */
            const double x[] = {10, 800, 960}, s[] = {1, 1, 1.5};
            assert_ok(dls_model_create_points(3, x, s, NULL, NULL, &m, &err), &err);
        }
        assert_ok(dls_platform_add(pl, "falls", m, NULL, &err), &err);
        dls_model_free(m);
        if (k == 1) {
            m = rough_model(&r, prefix[n]);
            assert_ok(dls_platform_add(pl, "rough", m, NULL, &err), &err);
            dls_model_free(m);
        } else if (k == 2) {
            assert_ok(dls_model_create_constant(1, &m, &err), &err);
            assert_ok(dls_platform_add(pl, "steady", m, NULL, &err), &err);
            dls_model_free(m);
        }
        double want = INFINITY;
        for (size_t j = p == 1 ? n : 0; j <= n; j++)
            want = fmin(want, fmax(ptime(pl, 0, prefix[j]),
                                   p == 1 ? 0 : ptime(pl, 1, prefix[n] - prefix[j])));
        dls_partition_params par;
        dls_partition_params_init(&par);
        par.ordered = 1;
        par.weights = w;
        dls_partition *res;
        assert_ok(dls_partition_solve(pl, n, &par, &res, &err), &err);
        check_ordered(pl, n, w, res, want, 0, "large", k);
        printf("# %zu elements over %zu processor(s), beyond the search over chunk boundaries: "
               "%s, makespan %.9g, optimum %.9g\n", n, p,
               dls_solution_status_name(dls_partition_status(res)), dls_partition_makespan(res),
               want);
        if (k < 2) {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_FEASIBLE);
            assert_non_null(strstr(dls_partition_note(res), "may not be optimal"));
        } else {
            assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
            assert_non_null(strstr(dls_partition_note(res), "longer than the makespan"));
        }
        if (p == 1)
            assert_true(dls_partition_elements(res)[0] == n);
        dls_partition_free(res);
        dls_platform_free(pl);
    }
    free(w);
    free(prefix);
}

TEST(test_weighted_infeasible)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
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
    assert_ok(dls_partition_solve(pl, 2, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "6"));
    dls_partition_free(res);
    /* three elements of 3: two must share a processor, which holds 5 */
    const double three[] = {3, 3, 3};
    par.weights = three;
    assert_ok(dls_partition_solve(pl, 3, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    dls_partition_free(res);
    /* total above the capacity */
    const double many[] = {4, 4, 4};
    par.weights = many;
    assert_ok(dls_partition_solve(pl, 3, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "total weight"));
    dls_partition_free(res);
    /* 3 4 2 1 fits unordered ({3, 2} and {4, 1}) but not in two chunks of at most 5 */
    const double ord[] = {3, 4, 2, 1};
    par.weights = ord;
    assert_ok(dls_partition_solve(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_OPTIMAL);
    dls_partition_free(res);
    par.ordered = 1;
    assert_ok(dls_partition_solve(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(res), "contiguous"));
    check_no_chunks(res, 0);
    dls_partition_free(res);
    par.reorder = 1;
    assert_ok(dls_partition_solve(pl, 4, &par, &res, &err), &err);
    assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
    check_no_chunks(res, 1);
    dls_partition_free(res);
    /* ordered, total above the capacity: refused before any split is tried */
    par.weights = many;
    for (par.reorder = 0; par.reorder <= 1; par.reorder++) {
        assert_ok(dls_partition_solve(pl, 3, &par, &res, &err), &err);
        assert_int_equal(dls_partition_status(res), DLS_SOLUTION_INFEASIBLE);
        check_no_chunks(res, par.reorder);
        dls_partition_free(res);
    }
    dls_platform_free(pl);
}

TEST_MAIN("partition_weighted", test_ordered_fixed_brute_force,
          test_ordered_reorder_brute_force, test_unordered_brute_force, test_unordered_large,
          test_weighted_infeasible, test_ordered_falling_regression,
          test_ordered_falling_brute_force, test_ordered_falling_reorder_heuristic,
          test_ordered_falling_large)
