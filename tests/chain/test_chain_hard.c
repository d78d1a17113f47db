/* Inputs that once made the star scheduler hang (issue 13: GLPK's simplex ran for minutes
 * on two small platforms found by fuzzing the platform reader) and adversarial ones of our
 * own: the chain solver must answer each, in both modes, within the wall-clock guard (a
 * hang fails with the case's name; times are measured by tests/bench/bench_chain), with an
 * answer that passes chk_solve (loads within limits summing to V, the replay equal to the
 * makespan), exact, and in SELECT never worse than the paper's LP; infeasible only where
 * the limits hold less than the load. */
#include "chain_check.h"
#include "guard.h"

/* Seconds one case (eight solves) may take before the test fails: every case here takes
 * milliseconds. */
#define GUARD_S 20

/* Solves pl at load V in both modes, both orders, the originator computing or not. */
static void solve_all(const dls_platform *pl, double V, const char *what)
{
    test_guard("chain solves of", what, GUARD_S);
    for (int variant = 0; variant < 8; variant++) {
        dls__chain_mode mode = variant & 1 ? DLS__CHAIN_SELECT : DLS__CHAIN_PAPER;
        dls_send_order order = variant & 2 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
        int orig = (variant & 4) != 0;
        dls__star st;
        chk_star(pl, V, order, orig, &st);
        dls__chain_answer a;
        chk_solve(&st, mode, NULL, &a);
        if (a.infeasible) {
            /* only where the limits hold less than the load (mutated_15.json at 1e9:
             * 1.6e8), which no schedule can carry */
            if (!(a.capacity < V))
                fail_msg("%s, load %g, variant %d: infeasible with limits holding %.17g",
                         what, V, variant, a.capacity);
            printf("# %s, load %g, variant %d: infeasible, the limits hold %.17g\n", what, V,
                   variant, a.capacity);
            dls__star_free(&st);
            continue;
        }
        assert_true(a.exact);
        printf("# %s, load %g, %s, %s order%s: makespan %.17g\n", what, V,
               mode == DLS__CHAIN_SELECT ? "select" : "paper",
               order == DLS_ORDER_RATE ? "rate" : "given", orig ? ", originator computes" : "",
               a.makespan);
        dls__chain_answer_free(&a);
        dls__star_free(&st);
    }
    test_unguard();
}

/* The two platforms (tests/data/stall/issue_1.json, issue_2.json: a link of 1e7 s
 * per unit beside speeds of 1e9 units per second; a time line of slope 1e24), and the 17
 * mutations of them found since, at loads from 1 to 1e9. */
static void solve_stall_file(const char *path, void *data)
{
    (void)data;
    dls_error err;
    dls_platform *pl;
    assert_ok(dls_platform_read_file(path, &pl, &err), &err);
    const double loads[] = {100, 1, 1e6, 1e9};
    for (size_t k = 0; k < sizeof loads / sizeof loads[0]; k++)
        solve_all(pl, loads[k], path);
    dls_platform_free(pl);
}

TEST(test_fuzz_found)
{
    assert_int_equal(test_each_json("tests/data/stall", solve_stall_file, NULL), 19);
}

/* Adversarial: 64 identical processors (every decision a tie), and the same with limits
 * that hold exactly the load. */
TEST(test_ties)
{
    for (int limited = 0; limited < 2; limited++) {
        dls_platform *pl = test_platform_new();
        const double a[2] = {0, -0.5}, b[2] = {1e-3, 1e-2};
        for (size_t k = 0; k < 64; k++) {
            size_t i = gen_add(pl, "p", k, gen_lines(2, a, b));
            gen_link(pl, i, 0.25, 1e-4);
            if (limited)
                gen_limit(pl, i, 1000.0 / 64);
        }
        solve_all(pl, 1000, limited ? "64 identical, limits holding V" : "64 identical");
        dls_platform_free(pl);
    }
}

/* Limits that hold the load exactly, or within rounding (issue 34: "use all the memory
 * there is"): 2 to 12 processors with two memory levels, the limits scaled to sum to
 * V (1 + delta) for delta from -2^-53 to 1e-12, loads 1 to 10^6, a tenth of the links free
 * of startup or rate. Policy iteration once took a step past the point where the last
 * processor reaches its limit, onto the flat top of f_1, and called it the makespan; here
 * every mode and method must answer (chk_solve: the replay equals the makespan) and the
 * paper's LP must equal GLPK's within 1e-9. */
RANDOM_TEST(test_limits_hold_load, 3401, 400)
{
    static const double deltas[] = {0, -0x1p-53, 0x1p-52, 1e-14, 1e-12};
    size_t m = 2 + test_below(r, 11);
    double V = test_logrange(r, 1, 1e6), delta = deltas[test_below(r, 5)], w[12], sum = 0;
    for (size_t i = 0; i < m; i++)
        sum += w[i] = test_range(r, 0.05, 1.05);
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < m; i++) {
        double lim = V * (1 + delta) * w[i] / sum, a[2], b[2];
        b[0] = test_logrange(r, 1e-5, 1e-2);
        a[0] = test_below(r, 5) == 0 ? test_logrange(r, 1e-4, 0.1) : 0;
        gen_levels(r, 2, a, b, lim * test_range(r, 0.2, 1.2), 2, 20, 1, 1);
        size_t k = gen_add(pl, "p", i, gen_lines(2, a, b));
        gen_limit(pl, k, lim);
        if (test_below(r, 10) != 0)
            gen_link(pl, k, test_below(r, 10) == 0 ? 0 : test_logrange(r, 1e-4, 0.1),
                     test_below(r, 10) == 0 ? 0 : test_logrange(r, 1e-7, 1e-4));
    }
    for (int variant = 0; variant < 4; variant++) {
        dls__star st;
        chk_star(pl, V, variant & 1 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN, variant >> 1, &st);
        double glpk = chk_glpk(&st);
        for (int mode = 0; mode < 2; mode++)
            for (int method = 0; method < 3; method++) {
                dls__chain_params par;
                dls__chain_params_init(&par);
                par.paper_method = (dls__chain_paper_method)method;
                dls__chain_answer a;
                chk_solve(&st, mode ? DLS__CHAIN_SELECT : DLS__CHAIN_PAPER, &par, &a);
                assert_false(a.infeasible);
                assert_true(a.exact);
                if (mode == 0 && !isnan(glpk))
                    assert_rel(a.makespan, glpk, 1e-9);
                /* not one unit more fits: the marginal cost to the right is infinite */
                if (delta <= 0 && !isinf(a.slope_right))
                    fail_msg("delta %g, mode %d, method %d: dT/dV %g to the right", delta,
                             mode, method, a.slope_right);
                dls__chain_answer_free(&a);
            }
        dls__star_free(&st);
    }
    dls_platform_free(pl);
}

/* Adversarial: rates and slopes over 20 orders of magnitude in one platform, startups
 * from 0 to 1e3 s, a processor with a time line of slope 1e24 beside ones of 1e-12. */
TEST(test_magnitudes)
{
    test_rng r = test_rng_salted(1304);
    dls_platform *pl = test_platform_new();
    for (size_t k = 0; k < 40; k++) {
        double b0 = test_logrange(&r, 1e-12, 1e8);
        const double a[2] = {test_below(&r, 2) ? 0 : test_logrange(&r, 1e-6, 1e3), -1};
        const double b[2] = {b0, k == 7 ? 1e24 : b0 * 10};
        size_t i = gen_add(pl, "m", k, gen_lines(2, a, b));
        if (k % 5 != 0)
            gen_link(pl, i, k % 3 == 0 ? 0 : test_logrange(&r, 1e-6, 1e3),
                     test_logrange(&r, 1e-12, 1e2));
    }
    const double loads[] = {1e-3, 1, 1e4, 1e9};
    for (size_t k = 0; k < sizeof loads / sizeof loads[0]; k++)
        solve_all(pl, loads[k], "magnitudes");
    dls_platform_free(pl);
}

TEST_MAIN("chain_hard", test_fuzz_found, test_ties, test_limits_hold_load, test_magnitudes)
