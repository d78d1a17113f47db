/* Tests of the cross-checks between the LP and the geometric partitioners, of integer
 * schedules and of the exact-shape MIP, against independent methods:
 * - brute force over every whole-unit distribution of tiny loads (the replay written here:
 *   sends in sequence, a processor sent nothing pays nothing) checks the integer MIP;
 * - a fine scan of the split between two processors checks the exact-shape MIP;
 * - the cross-checks themselves run on a few hundred random platforms (fixed seeds) and
 *   must agree on every one. */
#include "gen.h"

/* dls_crosscheck_run() with its records copied out, as the tests read them (the details
 * stay valid until checks_free()). */
typedef struct checks {
    dls_crosscheck *c;
    dls_check_result r[DLS_CHECK_COUNT];
    int agree;
} checks;

static dls_status run_checks(const dls_platform *pl, double V, const dls_crosscheck_params *cp,
                             checks *ck, dls_error *err)
{
    memset(ck, 0, sizeof *ck);
    dls_status st = dls_crosscheck_run(pl, V, cp, &ck->c, err);
    if (st != DLS_OK)
        return st;
    for (int k = 0; k < DLS_CHECK_COUNT; k++)
        ck->r[k] = *dls_crosscheck_result(ck->c, (dls_check_kind)k);
    ck->agree = dls_crosscheck_all_agree(ck->c);
    assert_null(dls_crosscheck_result(ck->c, (dls_check_kind)DLS_CHECK_COUNT));
    assert_null(dls_crosscheck_result(ck->c, (dls_check_kind)-1));
    return DLS_OK;
}

static void checks_free(checks *ck)
{
    dls_crosscheck_free(ck->c);
    ck->c = NULL;
}

/* Under the sanitizers (TEST_SANITIZED) a third of them: the same paths, each platform's
 * MIPs many times slower there (70 s for 300); the plain build checks all 300. */
#ifdef TEST_SANITIZED
#define RANDOM_PLATFORMS 100
#else
#define RANDOM_PLATFORMS 300
#endif

/* The makespan of whole or real loads (platform order = send order), from the definition. */
static double ref_replay(const dls_platform *pl, const double *x)
{
    double clock = 0, mk = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        if (x[i] <= 0)
            continue;
        double S, C;
        assert_ok(dls_platform_link(pl, i, &S, &C), &(dls_error){0});
        clock += S + C * x[i];
        mk = fmax(mk, clock + dls_model_time(dls_platform_model(pl, i), x[i]));
    }
    return mk;
}

/* The best makespan over every whole distribution of n units (within the limits). */
static double brute_integer(const dls_platform *pl, uint64_t n)
{
    size_t p = dls_platform_count(pl);
    double x[6] = {0}, best = INFINITY;
    /* enumerate compositions of n into p parts */
    for (;;) {
        double sum = 0;
        for (size_t i = 0; i + 1 < p; i++)
            sum += x[i];
        if (sum <= (double)n) {
            x[p - 1] = (double)n - sum;
            int ok = 1;
            for (size_t i = 0; i < p; i++)
                ok &= x[i] <= dls_platform_limit(pl, i);
            if (ok)
                best = fmin(best, ref_replay(pl, x));
        }
        size_t i = 0;
        while (i + 1 < p && ++x[i] > (double)n)
            x[i++] = 0;
        if (i + 1 >= p)
            break;
    }
    return best;
}

static void check_schedule_loads(const dls_platform *pl, const dls_schedule *s, double V,
                                 int whole)
{
    double sum = 0;
    const double *ld = dls_schedule_loads(s);
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        assert_true(ld[i] >= 0);
        assert_true(ld[i] <= dls_platform_limit(pl, i));
        if (whole)
            assert_true(ld[i] == floor(ld[i]));
        sum += ld[i];
    }
    assert_rel(sum, V, whole ? 0 : 1e-12);
    /* the reported makespan is the replay of the loads */
    assert_rel(dls_schedule_makespan(s), ref_replay(pl, ld), 1e-12);
}

RANDOM_TEST(test_integer_vs_brute_force, 1, 120)
{
    dls_error err;
    size_t p = 2 + (size_t)test_below(r, 2);
    uint64_t n = 1 + test_below(r, p == 2 ? 40 : 14);
    dls_platform *pl = trial % 2 ? gen_star(r, p, 3, (double)n, trial % 4 == 1)
                                 : gen_bumpy(r, p, (double)n);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.integer = 1;
    mp.exact_shape = 1;
    dls_schedule *s;
    assert_ok(dls_schedule_solve_integer(pl, n, NULL, &mp, &s, &err), &err);
    double best = brute_integer(pl, n);
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        assert_true(isinf(best));
    } else {
        check_schedule_loads(pl, s, (double)n, 1);
        /* every whole size is a breakpoint: the MIP's optimum is the true one */
        dls_schedule_mip_info mi;
        assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
        if (!test_close(mi.mip_makespan, best, 1e-12, 0))
            fail_msg("instance %d (p %zu, n %llu): MIP %.17g, brute force %.17g", trial, p,
                     (unsigned long long)n, mi.mip_makespan, best);
        assert_rel(dls_schedule_makespan(s), best, 1e-12);
        assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_OPTIMAL);
        assert_true(mi.rounded_makespan >= best * (1 - 1e-12));
    }
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* Issue 34: integer schedules on platforms without communication are the partitioner's
 * problem, whose integer optimum it finds by another method. At every load from 10 to
 * 10^12 (the MIP once called all of 10^8 units on the slow one of two processors optimal:
 * its loads' reduced costs fell below GLPK's tolerance; past 2^20 whole loads are solved
 * as real and rounded) the integer schedule, with or without the MIP, must take exactly
 * the partitioner's optimal makespan, be optimal with a lower bound at most its makespan,
 * and the cross-check must agree, saying nothing is refuted. */
RANDOM_TEST(test_integer_vs_partitioner, 34, 24)
{
    static const double loads[] = {10, 1e3, 1048576, 1048577, 1e7, 1e8, 1e10, 1e12};
    dls_error err;
    size_t p = 2 + (size_t)test_below(r, 5);
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < p; i++) {
        if (trial == 0) /* the platform: 2e8 and 3e7 units per second */
            gen_add(pl, "c", i, gen_constant(i == 0 ? 2e8 : 3e7));
        else
            gen_add(pl, "c", i, gen_constant(test_logrange(r, 1e3, 1e9)));
        if (trial == 0 && i == 1)
            break;
    }
    for (size_t k = 0; k < sizeof loads / sizeof loads[0]; k++) {
        uint64_t n = (uint64_t)loads[k];
        dls_partition *part;
        assert_ok(dls_partition_solve(pl, n, NULL, &part, &err), &err);
        assert_int_equal(dls_partition_status(part), DLS_SOLUTION_OPTIMAL);
        double geo = dls_partition_makespan(part);
        dls_partition_free(part);
        for (int with_mip = 0; with_mip < 2; with_mip++) {
            dls_mip_params mp;
            dls_mip_params_init(&mp);
            mp.integer = 1;
            dls_schedule *s;
            assert_ok(dls_schedule_solve_integer(pl, n, NULL, with_mip ? &mp : NULL, &s, &err),
                      &err);
            check_schedule_loads(pl, s, (double)n, 1);
            dls_schedule_mip_info mi;
            assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
            if (!test_close(dls_schedule_makespan(s), geo, 1e-12, 0))
                fail_msg("trial %d, %llu units, MIP %d: %.17g s, the partitioner %.17g s",
                         trial, (unsigned long long)n, with_mip, dls_schedule_makespan(s), geo);
            assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_OPTIMAL);
            assert_true(mi.lower_bound <= dls_schedule_makespan(s) * (1 + 1e-12));
            assert_int_equal(mi.mip_relaxed, with_mip && loads[k] > DLS_MIP_INTEGER_MAX);
            dls_schedule_free(s);
        }
        checks ck;
        assert_ok(run_checks(pl, (double)n, NULL, &ck, &err), &err);
        const dls_check_result *ir = &ck.r[DLS_CHECK_INTEGER_MIP];
        if (ir->ran && !ir->agree)
            fail_msg("trial %d, %llu units: %s", trial, (unsigned long long)n, ir->detail);
        assert_int_equal(ir->proven_side, 0);
        checks_free(&ck);
    }
    dls_platform_free(pl);
}

/* Rounding alone on larger platforms: whole loads, the LP below, and the gap small. */
TEST(test_rounding)
{
    test_rng rng = test_rng_salted(2);
    dls_error err;
    double worst = 0;
    for (int t = 0; t < 60; t++) {
        size_t p = 2 + (size_t)test_below(&rng, 30);
        uint64_t n = 1000 + test_below(&rng, 1000000);
        dls_platform *pl = gen_star(&rng, p, 3, (double)n, t % 3 == 0);
        dls_schedule *s;
        assert_ok(dls_schedule_solve_integer(pl, n, NULL, NULL, &s, &err), &err);
        check_schedule_loads(pl, s, (double)n, 1);
        dls_schedule_mip_info mi;
        assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
        assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_INTEGER);
        double lp = mi.lp_makespan;
        assert_true(dls_schedule_makespan(s) >= lp * (1 - 1e-9));
        assert_int_equal(mi.mip_status, DLS_SOLUTION_NONE);
        assert_true(isnan(mi.mip_makespan) && isnan(mi.mip_bound) && isnan(mi.mip_seconds));
        /* rounding down never raises the makespan, and each of the fewer than p units put
         * back raises it by at most the largest rate plus compute slope */
        double step = 0;
        for (size_t i = 0; i < p; i++) {
            double S, C;
            size_t nl;
            const double *a, *b;
            assert_ok(dls_platform_link(pl, i, &S, &C), &err);
            assert_ok(dls_model_get_lines(dls_platform_model(pl, i), &nl, &a, &b), &err);
            for (size_t l = 0; l < nl; l++)
                step = fmax(step, C + b[l]);
        }
        assert_true(dls_schedule_makespan(s) <= lp + (double)p * step * (1 + 1e-9));
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    printf("# rounding: largest gap to the LP %.3g\n", worst);
}

/* Two processors with bumpy speeds: the exact-shape MIP against a fine scan of the split,
 * refined by golden sections around the best point of the scan. */
RANDOM_TEST(test_exact_shape_vs_scan, 3, 40)
{
    dls_error err;
    double V = test_logrange(r, 10, 1e5);
    dls_platform *pl = gen_bumpy(r, 2, V);
    double best = INFINITY, at = 0;
    const int grid = 20000;
    for (int k = 0; k <= grid; k++) {
        double x[2] = {V * k / grid, V - V * k / grid};
        double mk = ref_replay(pl, x);
        if (mk < best) {
            best = mk;
            at = x[0];
        }
    }
    double lo = fmax(0, at - V / grid), hi = fmin(V, at + V / grid);
    for (int it = 0; it < 100; it++) {
        double m1 = lo + (hi - lo) * 0.381966, m2 = hi - (hi - lo) * 0.381966;
        double x1[2] = {m1, V - m1}, x2[2] = {m2, V - m2};
        if (ref_replay(pl, x1) < ref_replay(pl, x2))
            hi = m2;
        else
            lo = m1;
        best = fmin(best, fmin(ref_replay(pl, x1), ref_replay(pl, x2)));
    }
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.exact_shape = 1;
    dls_schedule *s;
    assert_ok(dls_schedule_solve_mip(pl, V, NULL, &mp, &s, &err), &err);
    check_schedule_loads(pl, s, V, 0);
    /* optimal up to the chords (1e-4) */
    if (!(dls_schedule_makespan(s) <= best * (1 + 2e-4)))
        fail_msg("instance %d: MIP %.17g, scan %.17g", trial, dls_schedule_makespan(s), best);
    assert_true(dls_schedule_makespan(s) >= best * (1 - 1e-9));
    /* never worse than the LP's loads under the true models */
    dls_schedule_mip_info mi;
    assert_ok(dls_schedule_get_mip_info(s, &mi, &err), &err);
    assert_int_equal(dls_schedule_get_kind(s), DLS_SCHEDULE_MIP);
    assert_true(dls_schedule_makespan(s) <= mi.lp_true_makespan * (1 + 1e-12));
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST(test_crosscheck_random)
{
    test_rng rng = test_rng_salted(4);
    dls_error err;
    int ran[DLS_CHECK_COUNT] = {0};
    for (int t = 0; t < RANDOM_PLATFORMS; t++) {
        /* measured speeds: small loads, where every whole size is a breakpoint of the MIP
         * (exact) and branch and bound is quick; time lines: any load */
        int bumpy = t % 3 == 2;
        size_t p = 2 + (size_t)test_below(&rng, bumpy ? 3 : 5);
        double V = (double)(10 + test_below(&rng, bumpy ? 140 : 3000));
        if (t % 7 == 0)
            V += 0.5; /* not whole: the integer check stands aside */
        dls_platform *pl = bumpy ? gen_bumpy(&rng, p, V)
                                 : gen_star(&rng, p, 3, V, t % 3 == 1);
        checks ck;
        dls_crosscheck_params cp;
        dls_crosscheck_params_init(&cp);
        cp.mip.time_limit = 20;
        assert_ok(run_checks(pl, V, &cp, &ck, &err), &err);
        for (int k = 0; k < DLS_CHECK_COUNT; k++) {
            const dls_check_result *r = &ck.r[k];
            assert_int_equal(r->kind, k);
            if (r->ran && !r->agree)
                fail_msg("platform %d (p %zu, V %.10g): %s: %s", t, p, V,
                         dls_check_kind_name(r->kind), r->detail);
            ran[k] += r->ran;
        }
        assert_true(ck.agree);
        checks_free(&ck);
        dls_platform_free(pl);
    }
    printf("# cross-checks run: zero-communication %d, integer-mip %d, replay %d, solvers %d, "
           "order %d of %d\n", ran[0], ran[1], ran[2], ran[3], ran[4], RANDOM_PLATFORMS);
    assert_true(ran[0] >= RANDOM_PLATFORMS * 9 / 10);
    assert_true(ran[1] >= RANDOM_PLATFORMS * 3 / 4);
    assert_true(ran[2] >= RANDOM_PLATFORMS * 9 / 10);
    assert_true(ran[3] >= RANDOM_PLATFORMS * 9 / 10);
    /* time lines only: the measured speeds' envelopes are too many lines for the MIP */
    assert_true(ran[4] >= RANDOM_PLATFORMS / 2);
}

/* The paper's two-processor example: every check agrees, with exact values. */
TEST(test_crosscheck_paper)
{
    const char *text = "{\"processors\": ["
                       "{\"name\": \"P1\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, \"rate\": 1}},"
                       "{\"name\": \"P2\", \"time\": [[1, 1], [-9, 10]], \"link\": {\"startup\": 1, \"rate\": 1}}]}";
    dls_platform *pl = test_platform_json(text);
    dls_error err;
    checks ck;
    assert_ok(run_checks(pl, 2, NULL, &ck, &err), &err);
    assert_true(ck.agree);
    const dls_check_result *r = ck.r;
    /* without communication each takes 1 unit: 1 + 1 = 2 s */
    assert_rel(r[0].first, 2, 1e-12);
    assert_rel(r[0].second, 2, 1e-12);
    assert_rel(r[1].first, 2, 0);
    assert_rel(r[1].second, 2, 0);
    /* with it, the paper's 5.75 s */
    assert_rel(r[2].first, 5.75, 1e-12);
    assert_rel(r[2].extra, 5.75, 1e-12);
    checks_free(&ck);
    dls_platform_free(pl);
}

/* The error tests' platforms: a and b with a link (1-D), a and g (2-D). */
static dls_platform *two_1d(void)
{
    return test_platform_json("{\"processors\": [{\"name\": \"a\", \"speed\": 2}, "
                              "{\"name\": \"b\", \"speed\": {\"points\": [[1, 1], "
                              "[10, 5], [100, 5]]}, \"link\": {\"startup\": 0.1, "
                              "\"rate\": 0.01}}]}");
}

static dls_platform *with_2d(void)
{
    return test_platform_json("{\"processors\": [{\"name\": \"a\", \"speed\": 2},"
                              " {\"name\": \"g\", \"speed2d\": {\"x\": [1, 2], "
                              "\"y\": [1, 2], \"values\": [[1, 2], [3, 4]]}}]}");
}

/* dls_crosscheck_run refuses bad arguments and parameters, naming itself. */
TEST(test_crosscheck_refuses_bad_arguments)
{
    dls_error err;
    dls_platform *pl2d = with_2d();
    dls_platform *pl = two_1d();
    dls_crosscheck *c = NULL;
    assert_fails(dls_crosscheck_run(pl2d, 10, NULL, &c, &err), DLS_EINVAL, &err,
                 "dls_crosscheck_run: processor \"g\" has a 2-D");
    assert_fails(dls_crosscheck_run(NULL, 10, NULL, &c, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_crosscheck_run(pl, 10, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_crosscheck_run(pl, -1, NULL, &c, &err), DLS_EINVAL, &err, "load");
    assert_fails(dls_crosscheck_run(pl, NAN, NULL, &c, &err), DLS_EINVAL, &err, "load");
    dls_crosscheck_params cp;
    dls_crosscheck_params_init(&cp);
    cp.rel_tol = 0;
    assert_fails(dls_crosscheck_run(pl, 10, &cp, &c, &err), DLS_EINVAL, &err, "rel_tol");
    /* the embedded parameters' checks name the public call */
    dls_crosscheck_params_init(&cp);
    cp.schedule.check_tol = -1;
    assert_fails(dls_crosscheck_run(pl, 10, &cp, &c, &err), DLS_EINVAL, &err,
                 "dls_crosscheck_run: dls_schedule_solve: check_tol");
    dls_crosscheck_params_init(&cp);
    cp.mip.rel_gap = 2;
    assert_fails(dls_crosscheck_run(pl, 10, &cp, &c, &err), DLS_EINVAL, &err,
                 "dls_crosscheck_run: rel_gap");
    assert_null(c);
    dls_platform_free(pl);
    dls_platform_free(pl2d);
}

/* A MIP too large is skipped, not failed. */
TEST(test_crosscheck_skips_a_mip_too_large)
{
    dls_error err;
    dls_platform *pl = two_1d();
    dls_crosscheck_params cp;
    dls_crosscheck_params_init(&cp);
    cp.mip.max_binaries = 1;
    checks ck;
    assert_ok(run_checks(pl, 50, &cp, &ck, &err), &err);
    assert_false(ck.r[DLS_CHECK_INTEGER_MIP].ran);
    assert_non_null(strstr(ck.r[DLS_CHECK_INTEGER_MIP].detail, "binary"));
    checks_free(&ck);
    dls_platform_free(pl);
}

/* The integer and MIP solves refuse bad arguments and parameters, the result left as it
 * was. */
TEST(test_integer_and_mip_refuse_bad_arguments)
{
    dls_error err;
    dls_platform *pl2d = with_2d();
    dls_platform *pl = two_1d();
    int sentinel = 0;
    dls_schedule *s = (dls_schedule *)&sentinel, *keep = s;
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    assert_fails(dls_schedule_solve_integer(pl, 0, NULL, NULL, &s, &err), DLS_EINVAL, &err, "whole");
    assert_fails(dls_schedule_solve_integer(pl2d, 10, NULL, NULL, &s, &err), DLS_EINVAL, &err, "2-D");
    assert_fails(dls_schedule_solve_integer(NULL, 10, NULL, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    mp.time_limit = 0;
    assert_fails(dls_schedule_solve_integer(pl, 10, NULL, &mp, &s, &err), DLS_EINVAL, &err,
                 "time limit");
    /* one bad value each */
    dls_mip_params bad[3];
    static const char *const names[3] = {"rel_gap", "shape_tol", "integer"};
    for (size_t j = 0; j < 3; j++)
        dls_mip_params_init(&bad[j]);
    bad[0].rel_gap = 1;
    bad[1].shape_tol = 0.5;
    bad[2].integer = 2;
    for (size_t j = 0; j < 3; j++)
        assert_fails(dls_schedule_solve_mip(pl, 10, NULL, &bad[j], &s, &err), DLS_EINVAL, &err,
                     names[j]);
    dls_mip_params_init(&mp);
    mp.integer = 1;
    assert_fails(dls_schedule_solve_mip(pl, 10.5, NULL, &mp, &s, &err), DLS_EINVAL, &err, "whole");
    assert_fails(dls_schedule_solve_mip(pl, 0, NULL, NULL, &s, &err), DLS_EINVAL, &err, "load");
    dls_mip_params_init(&mp);
    mp.exact_shape = 1;
    mp.max_binaries = 1;
    assert_fails(dls_schedule_solve_mip(pl, 50, NULL, &mp, &s, &err), DLS_ELIMIT, &err, "binary");
    assert_ptr_equal(s, keep);
    dls_platform_free(pl);
    dls_platform_free(pl2d);
}

/* Limits that no whole-unit split meets are a result (infeasible), not an error. */
TEST(test_integer_infeasible_limits_are_a_result)
{
    dls_error err;
    dls_platform *pl = two_1d();
    dls_schedule *s = NULL;
    assert_ok(dls_platform_set_limit(pl, 0, 3, &err), &err);
    assert_ok(dls_platform_set_limit(pl, 1, 4, &err), &err);
    assert_ok(dls_schedule_solve_integer(pl, 8, NULL, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_schedule_note(s), "whole units"));
    dls_schedule_free(s);
    assert_ok(dls_schedule_solve_integer(pl, 7, NULL, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_loads(s)[0], 3);
    assert_int_equal(dls_schedule_loads(s)[1], 4);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST_MAIN("crosscheck", test_crosscheck_refuses_bad_arguments,
          test_crosscheck_skips_a_mip_too_large, test_integer_and_mip_refuse_bad_arguments,
          test_integer_infeasible_limits_are_a_result, test_crosscheck_paper,
          test_integer_vs_brute_force, test_integer_vs_partitioner, test_rounding,
          test_exact_shape_vs_scan, test_crosscheck_random)
