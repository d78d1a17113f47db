/* Tests of the LU column distributions, against independent methods:
 * - the cost of every returned distribution is recomputed here from its owners, from
 *   the definition (trailing counts recounted at every step);
 * - brute force over every assignment of the columns checks the exact method;
 * - brute force over every distribution of one step checks the per-step optima that
 *   Reverse, Functional Reverse and Functional DP sum into their lower bounds;
 * - the exact method then checks the algorithms: DP and Reverse must reach it with
 *   constant speeds, every algorithm must stay at or above it, and Functional Reverse
 *   and Functional DP must reach it when a column was assigned at every step
 *   (Proposition 3 of Lastovetsky and Reddy 2007b);
 * - the worked example of Lastovetsky and Reddy (2007b) (Tables 2 and 3) and the heuristic orders
 *   of its Table 4. */
#include "gen.h"

#include "lu/lu_impl.h"

#define CONSTANT_INSTANCES 1200
#define FUNCTIONAL_INSTANCES 800
#define BRUTE_INSTANCES 300

/* ---------------------------------------------------------------------------------- */
/* Independent references                                                             */

/* T_i(h, c) from the definition of the cost model. */
static double ref_time(const dls_platform *pl, size_t i, double h, double c)
{
    if (c == 0)
        return 0;
    const dls_model *m = dls_platform_model(pl, i);
    if (dls_model_dimension(m) == 2)
        return h * c / dls_model_speed2d(m, h, c);
    if (dls_model_get_kind(m) == DLS_MODEL_CONSTANT)
        return h * c / dls_model_constant_speed(m);
    return dls_model_time(m, h * c);
}

/* Cost of owners, recounting the trailing columns of every step from scratch. */
static double ref_cost(const dls_platform *pl, uint64_t n, const size_t *owners)
{
    size_t p = dls_platform_count(pl);
    double sum = 0;
    for (uint64_t k = 1; k < n; k++) {
        double worst = 0;
        for (size_t i = 0; i < p; i++) {
            uint64_t c = 0;
            for (uint64_t j = k; j < n; j++) /* columns k+1 .. n, 0-based k .. n-1 */
                c += owners[j] == i;
            worst = fmax(worst, ref_time(pl, i, (double)(n - k), (double)c));
        }
        sum += worst;
    }
    return sum;
}

static double cap_of(const dls_platform *pl, size_t i, int use_limits)
{
    double lim = dls_platform_limit(pl, i);
    return use_limits && isfinite(lim) ? floor(lim) : INFINITY;
}

static int within_caps(const dls_platform *pl, uint64_t n, const size_t *owners)
{
    size_t p = dls_platform_count(pl);
    for (size_t i = 0; i < p; i++) {
        uint64_t c = 0;
        for (uint64_t j = 0; j < n; j++)
            c += owners[j] == i;
        if ((double)c > cap_of(pl, i, 1))
            return 0;
    }
    return 1;
}

/* Smallest cost over all p^n assignments within the limits. */
static double brute_force(const dls_platform *pl, uint64_t n)
{
    size_t p = dls_platform_count(pl), own[16] = {0};
    double best = INFINITY;
    for (;;) {
        if (within_caps(pl, n, own))
            best = fmin(best, ref_cost(pl, n, own));
        uint64_t j = 0;
        while (j < n && ++own[j] == p)
            own[j++] = 0;
        if (j == n)
            break;
    }
    return best;
}

/* Best max_i T_i(m, c_i) over every distribution of m columns (recursion over the
 * processors). */
static double ref_step(const dls_platform *pl, size_t i, uint64_t m, uint64_t left,
                       double worst)
{
    size_t p = dls_platform_count(pl);
    if (i == p - 1) {
        if ((double)left > cap_of(pl, i, 1))
            return INFINITY;
        return fmax(worst, ref_time(pl, i, (double)m, (double)left));
    }
    double best = INFINITY;
    for (uint64_t c = 0; c <= left && (double)c <= cap_of(pl, i, 1); c++)
        best = fmin(best, ref_step(pl, i + 1, m, left - c,
                                   fmax(worst, ref_time(pl, i, (double)m, (double)c))));
    return best;
}

static double ref_bound(const dls_platform *pl, uint64_t n)
{
    double sum = 0;
    for (uint64_t m = 1; m < n; m++)
        sum += ref_step(pl, 0, m, m, 0);
    return sum;
}

static double capacity(const dls_platform *pl)
{
    double c = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        c += cap_of(pl, i, 1);
    return c;
}

/* Runs one algorithm; checks what holds for every result; returns it. */
static dls_lu *run(const dls_platform *pl, uint64_t n, dls_lu_algorithm alg,
                   dls_lu_heuristic h)
{
    dls_lu_params par;
    dls_lu_params_init(&par);
    par.algorithm = alg;
    par.heuristic = h;
    dls_lu *r = NULL;
    dls_error err;
    assert_ok(dls_lu_distribute(pl, n, &par, &r, &err), &err);
    assert_int_equal(dls_lu_columns(r), n);
    if (dls_lu_status(r) == DLS_SOLUTION_INFEASIBLE || dls_lu_status(r) == DLS_SOLUTION_NOT_FOUND) {
        assert_null(dls_lu_owners(r));
        assert_true(isinf(dls_lu_cost(r)));
        return r;
    }
    const size_t *own = dls_lu_owners(r);
    assert_non_null(own);
    for (uint64_t j = 0; j < n; j++)
        assert_true(own[j] < dls_platform_count(pl));
    assert_true(within_caps(pl, n, own));
    assert_rel_floor(dls_lu_cost(r), ref_cost(pl, n, own), 1e-12, 1e-300);
    const uint64_t *cnt = dls_lu_counts(r);
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        uint64_t c = 0;
        for (uint64_t j = 0; j < n; j++)
            c += own[j] == i;
        assert_int_equal(cnt[i], c);
    }
    double lb = dls_lu_lower_bound(r);
    if (!isnan(lb))
        assert_true(lb <= dls_lu_cost(r) * (1 + 1e-12));
    return r;
}

/* ---------------------------------------------------------------------------------- */
/* Tests                                                                              */

RANDOM_TEST(test_exact_vs_brute_force, 1, BRUTE_INSTANCES)
{
    size_t p = 1 + (size_t)test_below(r, 3);
    uint64_t n = 1 + test_below(r, p == 3 ? 7 : 9);
    if (trial % 10 == 0) {
        p = 4;
        n = 1 + test_below(r, 6);
    }
    dls_platform *pl = gen_lu(r, p, n, trial % 3 != 0, trial % 4 == 0);
    if (capacity(pl) < (double)n) {
        dls_lu *res = run(pl, n, DLS_LU_EXACT, DLS_LU_AUTO);
        assert_int_equal(dls_lu_status(res), DLS_SOLUTION_INFEASIBLE);
        assert_true(isinf(brute_force(pl, n)));
        dls_lu_free(res);
        dls_platform_free(pl);
        return;
    }
    dls_lu *res = run(pl, n, DLS_LU_EXACT, DLS_LU_AUTO);
    assert_int_equal(dls_lu_status(res), DLS_SOLUTION_OPTIMAL);
    assert_rel_floor(dls_lu_cost(res), brute_force(pl, n), 1e-12, 1e-300);
    dls_lu_free(res);
    dls_platform_free(pl);
}

/* A random instance for the exact method: 2 to 4 processors (*p), *n columns (2 + below
 * most4 on 4 processors, else below most), speeds functional or constant, limits or not. */
static dls_platform *lu_trial(test_rng *rng, uint64_t most4, uint64_t most, int functional,
                              int limits, size_t *p, uint64_t *n)
{
    *p = 2 + (size_t)test_below(rng, 3);
    *n = 2 + test_below(rng, *p == 4 ? most4 : most);
    return gen_lu(rng, *p, *n, functional, limits);
}

/* The exact algorithm's answer on pl; NULL, pl freed with it, where pl cannot hold n. */
static dls_lu *exact_or_free(dls_platform *pl, uint64_t n)
{
    dls_lu *ex = run(pl, n, DLS_LU_EXACT, DLS_LU_AUTO);
    if (dls_lu_status(ex) != DLS_SOLUTION_INFEASIBLE)
        return ex;
    dls_lu_free(ex);
    dls_platform_free(pl);
    return NULL;
}

TEST(test_constant_speeds)
{
    test_rng rng = test_rng_salted(2);
    int infeasible = 0, gb_missing = 0;
    for (int t = 0; t < CONSTANT_INSTANCES; t++) {
        size_t p;
        uint64_t n;
        dls_platform *pl = lu_trial(&rng, 40, 80, 0, t % 3 == 0, &p, &n);
        dls_lu *ex = exact_or_free(pl, n);
        if (ex == NULL) {
            infeasible++;
            continue;
        }
        double best = dls_lu_cost(ex);
        /* with constant speeds the lower bound is the optimum (every step at its best) */
        assert_rel_floor(dls_lu_lower_bound(ex), best, 1e-12, 1e-300);
        const dls_lu_algorithm optimal[] = {DLS_LU_DP, DLS_LU_REVERSE, DLS_LU_FR, DLS_LU_FDP};
        for (size_t a = 0; a < sizeof optimal / sizeof optimal[0]; a++) {
            dls_lu *r = run(pl, n, optimal[a], DLS_LU_AUTO);
            if (!test_close(dls_lu_cost(r), best, 1e-12, 1e-300))
                fail_msg("instance %d (p %zu, n %llu): %s costs %.17g, the optimum %.17g", t, p,
                         (unsigned long long)n, dls_lu_algorithm_name(optimal[a]),
                         dls_lu_cost(r), best);
            assert_int_equal(dls_lu_status(r), DLS_SOLUTION_OPTIMAL);
            dls_lu_free(r);
        }
        const dls_lu_algorithm others[] = {DLS_LU_GB, DLS_LU_FGB};
        for (size_t a = 0; a < 2; a++) {
            dls_lu *r = run(pl, n, others[a], DLS_LU_AUTO);
            if (dls_lu_status(r) == DLS_SOLUTION_NOT_FOUND)
                gb_missing++;
            else
                assert_true(dls_lu_cost(r) >= best * (1 - 1e-12));
            dls_lu_free(r);
        }
        dls_lu_free(ex);
        dls_platform_free(pl);
    }
    printf("# constant speeds: %d instances, %d infeasible, %d Group Block patterns over a "
           "limit\n", CONSTANT_INSTANCES, infeasible, gb_missing);
    assert_true(CONSTANT_INSTANCES - infeasible >= 1000);
}

TEST(test_functional_speeds)
{
    test_rng rng = test_rng_salted(3);
    int assigned_each_step = 0, grouped = 0, bounds_checked = 0;
    for (int t = 0; t < FUNCTIONAL_INSTANCES; t++) {
        size_t p;
        uint64_t n;
        dls_platform *pl = lu_trial(&rng, 24, 40, 1, t % 4 == 0, &p, &n);
        dls_lu *ex = exact_or_free(pl, n);
        if (ex == NULL)
            continue;
        double best = dls_lu_cost(ex);
        dls_lu *fr = run(pl, n, DLS_LU_FR, DLS_LU_AUTO);
        dls_lu *fdp = run(pl, n, DLS_LU_FDP, DLS_LU_AUTO);
        dls_lu *fgb = run(pl, n, DLS_LU_FGB, DLS_LU_AUTO);
        assert_true(dls_lu_cost(fr) >= best * (1 - 1e-12));
        assert_true(dls_lu_cost(fdp) >= best * (1 - 1e-12));
        assert_true(dls_lu_cost(fgb) >= best * (1 - 1e-12));
        /* the per-step optima, by brute force on the smaller instances */
        if (n <= 14 && !isnan(dls_lu_lower_bound(fr))) {
            double lb = ref_bound(pl, n);
            assert_rel_floor(dls_lu_lower_bound(fr), lb, 1e-12, 1e-300);
            assert_rel_floor(dls_lu_lower_bound(fdp), lb, 1e-12, 1e-300);
            bounds_checked++;
        }
        if (dls_lu_groups(fr) == 0 && !isnan(dls_lu_lower_bound(fr))) {
            assigned_each_step++;
            if (!test_close(dls_lu_cost(fr), best, 1e-12, 1e-300))
                fail_msg("instance %d: Functional Reverse assigned a column at every step "
                         "but costs %.17g, the optimum %.17g", t, dls_lu_cost(fr), best);
            assert_int_equal(dls_lu_status(fr), DLS_SOLUTION_OPTIMAL);
            assert_rel_floor(dls_lu_cost(fdp), best, 1e-12, 1e-300);
        } else {
            grouped++;
        }
        dls_lu_free(fr);
        dls_lu_free(fdp);
        dls_lu_free(fgb);
        dls_lu_free(ex);
        dls_platform_free(pl);
    }
    printf("# functional speeds: FR assigned every step on %d instances, grouped on %d; "
           "%d lower bounds checked by brute force\n", assigned_each_step, grouped,
           bounds_checked);
    assert_true(assigned_each_step >= 100);
    assert_true(grouped >= 100);
    assert_true(bounds_checked >= 100);
}

/* Inside Functional Reverse the groups are separate: the exhaustive order minimises
 * each group's steps, so it is never worse than a cheap heuristic. */
TEST(test_heuristics)
{
    test_rng rng = test_rng_salted(4);
    int compared = 0;
    for (int t = 0; t < 300; t++) {
        size_t p = 2 + (size_t)test_below(&rng, 4);
        uint64_t n = 2 + test_below(&rng, 60);
        dls_platform *pl = gen_lu(&rng, p, n, 1, 0);
        dls_lu *ex = run(pl, n, DLS_LU_FR, DLS_LU_EXHAUSTIVE);
        /* auto: per group, the exhaustive order or the best cheap one */
        dls_lu *au = run(pl, n, DLS_LU_FR, DLS_LU_AUTO);
        assert_true(dls_lu_cost(ex) <= dls_lu_cost(au) * (1 + 1e-12));
        for (int h = DLS_LU_CYCL; h <= DLS_LU_DFLT; h++) {
            dls_lu *r = run(pl, n, DLS_LU_FR, (dls_lu_heuristic)h);
            assert_int_equal(dls_lu_groups(r), dls_lu_groups(ex));
            assert_true(dls_lu_cost(ex) <= dls_lu_cost(r) * (1 + 1e-12));
            assert_true(dls_lu_cost(au) <= dls_lu_cost(r) * (1 + 1e-12));
            assert_int_equal(dls_lu_get_heuristic(r), h);
            dls_lu_free(r);
        }
        compared += dls_lu_groups(ex) > 0;
        dls_lu_free(ex);
        dls_lu_free(au);
        dls_platform_free(pl);
    }
    assert_true(compared >= 50);
}

/* Table 4 of Lastovetsky and Reddy (2007b): a group where P1 takes two columns and P3 one. */
TEST(test_heuristic_orders)
{
    const uint64_t delta[3] = {2, 0, 1};
    const size_t want[4][3] = {{0, 2, 0}, {0, 0, 2}, {2, 0, 0}, {0, 0, 2}};
    const dls_lu_heuristic h[4] = {DLS_LU_CYCL, DLS_LU_FTOS, DLS_LU_STOF, DLS_LU_DFLT};
    dls_error err;
    for (int k = 0; k < 4; k++) {
        size_t ord[3];
        assert_ok(dls__lu_heuristic_order(h[k], 3, delta, ord, &err), &err);
        for (int j = 0; j < 3; j++)
            assert_int_equal(ord[j], want[k][j]);
    }
    /* ftos and dflt differ when the larger count is not first */
    const uint64_t d2[3] = {1, 0, 2};
    size_t ord[3];
    assert_ok(dls__lu_heuristic_order(DLS_LU_FTOS, 3, d2, ord, &err), &err);
    assert_int_equal(ord[0], 2);
    assert_int_equal(ord[2], 0);
    assert_ok(dls__lu_heuristic_order(DLS_LU_DFLT, 3, d2, ord, &err), &err);
    assert_int_equal(ord[0], 0);
}

/* Tables 2 and 3 of Lastovetsky and Reddy (2007b): three processors, nine columns. */
static const char paper_table2[] =
    "{\"processors\": ["
    "{\"name\": \"P1\", \"speed2d\": {\"x\": [1,2,3,4,5,6,7,8], \"y\": [1,2,3,4,5,6,7,8], "
    "\"values\": [[6,6,6,6,6,4,4,4],[6,6,6,6,5,4,3,3],[6,6,6,5,4,3,3,3],[6,6,5,4,3,3,3,3],"
    "[6,5,4,3,3,3,2,2],[4,4,3,3,3,2,1,1],[4,3,3,3,2,1,1,1],[4,3,3,3,2,1,1,1]]}},"
    "{\"name\": \"P2\", \"speed2d\": {\"x\": [1,2,3,4,5,6,7,8], \"y\": [1,2,3,4,5,6,7,8], "
    "\"values\": [[18,18,18,18,18,18,18,2],[18,18,18,18,9,8,8,2],[18,18,18,9,8,8,6,2],"
    "[18,18,9,9,8,6,5,2],[18,9,8,8,6,5,3,1],[18,8,8,6,5,3,2,1],[18,8,8,6,5,3,2,1],"
    "[2,2,2,2,1,1,1,1]]}},"
    "{\"name\": \"P3\", \"speed2d\": {\"x\": [1,2,3,4,5,6,7,8], \"y\": [1,2,3,4,5,6,7,8], "
    "\"values\": [[18,18,18,18,18,18,18,2],[18,18,18,18,15,12,8,2],[18,18,18,12,8,8,8,2],"
    "[18,18,12,9,8,6,6,2],[18,15,8,8,6,5,5,1],[18,12,8,6,5,3,3,1],[18,8,8,6,5,3,2,1],"
    "[2,2,2,2,1,1,1,1]]}}]}";

TEST(test_paper_example)
{
    dls_platform *pl = test_platform_json(paper_table2);
    dls_error err;
    /* the allocation of Table 3 (columns 2 .. 9: P1 P1 P1 P1 P2 P3 P2 P3) */
    const size_t own[9] = {0, 0, 0, 0, 0, 1, 2, 1, 2};
    double cost, steps[8];
    assert_ok(dls_lu_evaluate(pl, 9, own, &cost, steps, &err), &err);
    /* steps 2 .. 8 as printed in Table 3 */
    const double printed[7] = {7, 3, 10.0 / 9, 4.0 / 9, 1.0 / 3, 1.0 / 9, 1.0 / 18};
    for (int k = 0; k < 7; k++)
        assert_rel(steps[k + 1], printed[k], 1e-15);
    /* step 1: P1 updates 4 columns of height 8 at s1(8, 4) = 3, i.e. 32/3; the table
     * prints 8, which Table 2 does not give (s1(8, 3) = 3 would) */
    assert_rel(steps[0], 32.0 / 3, 1e-15);
    assert_rel(cost, ref_cost(pl, 9, own), 1e-15);
    /* the true optimum of these speeds is below that allocation */
    dls_lu *ex = run(pl, 9, DLS_LU_EXACT, DLS_LU_AUTO);
    assert_rel(dls_lu_cost(ex), brute_force(pl, 9), 1e-15);
    assert_true(dls_lu_cost(ex) < cost);
    /* at step 2 Table 3 gives {2, 3, 2} as the best distribution of 7 columns alone, at
     * 14/3; Table 2 makes {1, 3, 3} better: max(7/4, 21/8, 21/8) = 21/8 */
    const size_t table3_step2[9] = {0, 0, 0, 1, 1, 1, 2, 2, 0};
    double steps2[8];
    assert_ok(dls_lu_evaluate(pl, 9, table3_step2, &cost, steps2, &err), &err);
    assert_rel(steps2[1], 14.0 / 3, 1e-15);
    assert_rel(ref_step(pl, 0, 7, 7, 0), 21.0 / 8, 1e-15);
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu *r = run(pl, 9, (dls_lu_algorithm)a, DLS_LU_AUTO);
        assert_true(dls_lu_cost(r) >= dls_lu_cost(ex) * (1 - 1e-15));
        dls_lu_free(r);
    }
    dls_lu_free(ex);
    dls_platform_free(pl);
}

TEST(test_limits)
{
    dls_platform *pl = test_platform_json("{\"processors\": [{\"name\": \"fast\", \"speed\": 10, "
                                     "\"limit\": 3}, {\"name\": \"slow\", \"speed\": 1, "
                                     "\"limit\": 4.9}]}");
    /* 7 columns fit exactly (3 + 4) */
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu *r = run(pl, 7, (dls_lu_algorithm)a, DLS_LU_AUTO);
        if (a == DLS_LU_GB) {
            /* the fixed group gives the fast processor most columns */
            assert_int_equal(dls_lu_status(r), DLS_SOLUTION_NOT_FOUND);
            assert_non_null(strstr(dls_lu_note(r), "limit"));
        } else {
            assert_int_equal(dls_lu_counts(r)[0], 3);
            assert_int_equal(dls_lu_counts(r)[1], 4);
        }
        dls_lu_free(r);
    }
    /* 8 do not */
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu *r = run(pl, 8, (dls_lu_algorithm)a, DLS_LU_AUTO);
        assert_int_equal(dls_lu_status(r), DLS_SOLUTION_INFEASIBLE);
        assert_non_null(strstr(dls_lu_note(r), "at most 7 columns"));
        assert_null(dls_lu_step_costs(r));
        dls_lu_free(r);
    }
    /* unless the limits are ignored */
    dls_lu_params par;
    dls_lu_params_init(&par);
    par.use_limits = 0;
    par.algorithm = DLS_LU_DP;
    dls_lu *r;
    dls_error err;
    assert_ok(dls_lu_distribute(pl, 8, &par, &r, &err), &err);
    assert_int_equal(dls_lu_status(r), DLS_SOLUTION_OPTIMAL);
    dls_lu_free(r);
    dls_platform_free(pl);
}

TEST(test_small_sizes)
{
    dls_platform *pl = test_platform_json("{\"processors\": [{\"name\": \"a\", \"speed\": 2}, "
                                     "{\"name\": \"b\", \"speed\": 3}]}");
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        /* one column: no step updates anything */
        dls_lu *r = run(pl, 1, (dls_lu_algorithm)a, DLS_LU_AUTO);
        assert_true(dls_lu_cost(r) == 0);
        assert_null(dls_lu_step_costs(r));
        dls_lu_free(r);
        r = run(pl, 2, (dls_lu_algorithm)a, DLS_LU_AUTO);
        assert_non_null(dls_lu_step_costs(r));
        if (a != DLS_LU_GB && a != DLS_LU_FGB) /* column 2 to the faster b: 1 / 3 */
            assert_rel(dls_lu_cost(r), 1.0 / 3, 1e-15);
        dls_lu_free(r);
    }
    dls_platform_free(pl);
    /* a single processor takes everything */
    pl = test_platform_json("{\"processors\": [{\"name\": \"solo\", \"speed\": 4}]}");
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu *r = run(pl, 50, (dls_lu_algorithm)a, DLS_LU_AUTO);
        assert_int_equal(dls_lu_counts(r)[0], 50);
        dls_lu_free(r);
    }
    dls_platform_free(pl);
}

RANDOM_TEST(test_larger_runs, 5, 6)
{
    size_t p = 3 + (size_t)test_below(r, 6);
    uint64_t n = 300 + test_below(r, 900);
    dls_platform *pl = gen_lu(r, p, n, 1, trial % 2);
    if (capacity(pl) < (double)n) {
        dls_platform_free(pl);
        return;
    }
    for (int a = 0; a < DLS_LU_EXACT; a++) {
        dls_lu *res = run(pl, n, (dls_lu_algorithm)a, DLS_LU_AUTO);
        dls_lu *again = run(pl, n, (dls_lu_algorithm)a, DLS_LU_AUTO);
        /* deterministic */
        if (dls_lu_owners(res))
            assert_memory_equal(dls_lu_owners(res), dls_lu_owners(again),
                                n * sizeof(size_t));
        dls_lu_free(res);
        dls_lu_free(again);
    }
    dls_platform_free(pl);
}

static int cancel_at_half(double fraction, void *data)
{
    int *calls = data;
    ++*calls;
    return fraction >= 0.5;
}

/* The three-processor platform of the error tests. */
static dls_platform *three_speeds(void)
{
    return test_platform_json("{\"processors\": [{\"name\": \"a\", \"speed\": 2}, "
                              "{\"name\": \"b\", \"speed\": 3}, {\"name\": \"c\", "
                              "\"speed\": 5}]}");
}

/* dls_lu_distribute(pl, n, par) fails with `want` and a message holding `part`, and leaves
 * the result as it was. */
static void expect_lu_refused(const dls_platform *pl, uint64_t n, const dls_lu_params *par,
                              dls_status want, const char *part, dls_error *err)
{
    static char sentinel;
    dls_lu *r = (dls_lu *)&sentinel;
    assert_fails(dls_lu_distribute(pl, n, par, &r, err), want, err, part);
    assert_ptr_equal(r, (dls_lu *)&sentinel);
}

/* Bad arguments and parameters are refused, the result left as it was. */
TEST(test_bad_arguments_are_refused)
{
    dls_platform *pl = three_speeds();
    dls_lu_params par;
    dls_error err;
    assert_fails(dls_lu_distribute(pl, 5, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    expect_lu_refused(NULL, 5, NULL, DLS_EINVAL, "NULL", &err);
    expect_lu_refused(pl, 0, NULL, DLS_EINVAL, ">= 1", &err);
    dls_lu_params_init(&par);
    par.algorithm = (dls_lu_algorithm)99;
    expect_lu_refused(pl, 5, &par, DLS_EINVAL, "algorithm", &err);
    dls_lu_params_init(&par);
    par.heuristic = (dls_lu_heuristic)-1;
    expect_lu_refused(pl, 5, &par, DLS_EINVAL, "heuristic", &err);
    dls_lu_params_init(&par);
    par.use_limits = 2;
    expect_lu_refused(pl, 5, &par, DLS_EINVAL, "use_limits", &err);
    dls_lu_params_init(&par);
    par.max_group_states = 0;
    expect_lu_refused(pl, 5, &par, DLS_EINVAL, "max_group_states", &err);
    dls_platform *empty = test_platform_new();
    expect_lu_refused(empty, 5, NULL, DLS_EINVAL, "no processor", &err);
    dls_platform_free(empty);
    dls_platform_free(pl);
}

/* The exact method refuses a state space over the memory cap, before any work. */
TEST(test_exact_refuses_over_the_memory_cap)
{
    dls_platform *pl = three_speeds();
    dls_lu_params par;
    dls_error err;
    dls_lu_params_init(&par);
    par.algorithm = DLS_LU_EXACT;
    par.max_memory = 1000;
    expect_lu_refused(pl, 200, &par, DLS_ELIMIT, "memory cap", &err);
    assert_non_null(strstr(err.message, "200 columns over 3 processors"));
    dls_platform_free(pl);
}

/* Every algorithm stops when the progress callback cancels. */
TEST(test_progress_cancels_every_algorithm)
{
    dls_platform *pl = three_speeds();
    dls_lu_params par;
    dls_error err;
    dls_lu_params_init(&par);
    int calls = 0;
    par.progress = cancel_at_half;
    par.progress_data = &calls;
    for (int a = DLS_LU_REVERSE; a <= DLS_LU_EXACT; a++) {
        if (a == DLS_LU_FGB)
            continue;
        par.algorithm = (dls_lu_algorithm)a;
        calls = 0;
        expect_lu_refused(pl, 400, &par, DLS_ECANCELED, "canceled", &err);
        assert_true(calls >= 2);
    }
    dls_platform_free(pl);
}

/* The exhaustive search refuses a group over its cap; auto falls back. */
TEST(test_exhaustive_over_its_cap_refused_auto_falls_back)
{
    dls_platform *fp = test_platform_json(paper_table2);
    dls_lu_params par;
    dls_lu *r = NULL;
    dls_error err;
    dls_lu_params_init(&par);
    par.heuristic = DLS_LU_EXHAUSTIVE;
    par.max_group_states = 2;
    assert_fails(dls_lu_distribute(fp, 9, &par, &r, &err), DLS_ELIMIT, &err, "exhaustive");
    par.heuristic = DLS_LU_AUTO;
    assert_ok(dls_lu_distribute(fp, 9, &par, &r, &err), &err);
    assert_true(dls_lu_groups(r) > 0);
    dls_lu_free(r);
    dls_platform_free(fp);
}

/* dls_lu_evaluate refuses owners out of range, no columns and no platform. */
TEST(test_evaluate_refuses_bad_arguments)
{
    dls_platform *pl = three_speeds();
    dls_error err;
    size_t own[3] = {0, 1, 3};
    double cost;
    assert_fails(dls_lu_evaluate(pl, 3, own, &cost, NULL, &err), DLS_EINVAL, &err,
                 "column 3 has owner 3");
    assert_fails(dls_lu_evaluate(pl, 0, own, &cost, NULL, &err), DLS_EINVAL, &err, ">= 1");
    assert_fails(dls_lu_evaluate(NULL, 3, own, &cost, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_platform_free(pl);
}

/* Algorithm and heuristic names go there and back; unknown ones are refused. */
TEST(test_algorithm_and_heuristic_names)
{
    dls_error err;
    err.message[0] = '\0';
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu_algorithm back;
        assert_ok(dls_lu_algorithm_from_name(dls_lu_algorithm_name((dls_lu_algorithm)a), &back),
                  &err);
        assert_int_equal(back, a);
    }
    for (int h = 0; h <= DLS_LU_EXHAUSTIVE; h++) {
        dls_lu_heuristic back;
        assert_ok(dls_lu_heuristic_from_name(dls_lu_heuristic_name((dls_lu_heuristic)h), &back),
                  &err);
        assert_int_equal(back, h);
    }
    dls_lu_algorithm a;
    dls_lu_heuristic h;
    assert_int_equal(dls_lu_algorithm_from_name("simplex", &a), DLS_EINVAL);
    assert_int_equal(dls_lu_heuristic_from_name(NULL, &h), DLS_EINVAL);
    assert_string_equal(dls_lu_algorithm_name((dls_lu_algorithm)42), "unknown");
}

TEST(test_exact_memory)
{
    size_t bytes;
    uint64_t states;
    dls_error err;
    assert_ok(dls_lu_exact_memory(3, 2000, &bytes, &states, &err), &err);
    assert_int_equal(states, 1335334000ull); /* C(2002, 3) */
    assert_true(bytes > states / 4 && bytes < states / 4 + 100000000);
    assert_ok(dls_lu_exact_memory(4, 300, &bytes, &states, &err), &err);
    assert_int_equal(states, 344291325ull); /* C(303, 4) */
    assert_ok(dls_lu_exact_memory(64, 100000, &bytes, &states, &err), &err);
    assert_true(bytes == SIZE_MAX);
    assert_fails(dls_lu_exact_memory(0, 10, &bytes, NULL, &err), DLS_EINVAL, &err, "processors");
    assert_fails(dls_lu_exact_memory(2, 10, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
}

TEST_MAIN("lu", test_exact_memory, test_bad_arguments_are_refused,
          test_exact_refuses_over_the_memory_cap, test_progress_cancels_every_algorithm,
          test_exhaustive_over_its_cap_refused_auto_falls_back,
          test_evaluate_refuses_bad_arguments, test_algorithm_and_heuristic_names,
          test_small_sizes, test_limits, test_heuristic_orders, test_paper_example,
          test_exact_vs_brute_force, test_constant_speeds, test_functional_speeds,
          test_heuristics, test_larger_runs)
