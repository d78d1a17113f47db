/* The best send order as a MIP (src/solver/order_mip.c) against brute force through the
 * public API.
 *
 * On random platforms of 2 to 6 processors built so that the order matters (startups 0 to
 * 2 s, rates 1e-4 to 5e-3 s per unit, one or two memory levels, the second steeper with a
 * negative intercept, limits on about half of them on half of the platforms, free links now
 * and then, loads of 200 to 3000 units; the star's positions in the platform's order or
 * shuffled), the MIP's optimum must equal, within MIP_AGREE:
 * - paper model: the least makespan over every permutation, each solved by
 *   dls_schedule_solve with the order DLS_ORDER_SEQUENCE and drop_unused = 0 (the chain;
 *   GLPK too every GLPK_EVERY platforms);
 * - selection: the least over every permutation with drop_unused = 1 (the chain's exact
 *   selection), which must itself equal the least over every nonempty subset of processors
 *   of the paper model on the sub-platform, over every permutation of the subset (so the
 *   selection is checked without trusting the chain's).
 * Every answer is checked on its own: its order is a permutation, its loads sum to V within
 * the limits, and replaying them through a star built again in that order, and through
 * dls_schedule_evaluate, gives its makespan; the chain in the MIP's order gives it too.
 * Also: two processors by hand (both models), the cutoff `upper`, the time limit (a tiny
 * one on 6 processors stops it, never claiming an optimum), infeasible limits, and every
 * refusal. The seed is fixed, overridable (--random-seed N or DLS_TEST_SEED). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "solver/glpk_guard.h"
#include "solver/solver.h"
#include "star_build.h"

/* Under the sanitizers (TEST_SANITIZED) fewer: the brute force (some 3,400 solves on 6
 * processors) is what takes the time; measured, the whole suite takes 4 s in a plain build
 * and 2 s with 40 platforms under the sanitizers, whose CI stage is near its limit. */
#ifdef TEST_SANITIZED
#define INSTANCES 40
#else
#define INSTANCES 150
#endif
#define MIN_PROCS 2
#define MAX_PROCS 6
/* The MIP against the brute force: GLPK's node LPs hold their rows within 1e-7 (scaled);
 * the answer's loads are the exact LP optimum of the order it found, so what remains is
 * whether it found the best order, which its pruning tolerance (1e-10) decides. */
#define MIP_AGREE 1e-7
/* Exact solvers of one order (the chain, GLPK polished, the subsets' brute force) and the
 * replays of one schedule agree within the tolerance rule. */
#define SOLVERS_AGREE DLS_REL_TOL
/* Every this many platforms, the paper model's brute force also runs GLPK. */
#define GLPK_EVERY 10
/* Generous: 6 processors take milliseconds. */
#define MIP_TIME_LIMIT 60
/* The time-limit test: this many 6-processor platforms, each with this limit (s). */
#define TINY_INSTANCES 10
#define TINY_LIMIT 1e-3

/* ---------------------------------------------------------------------------------- */
/* Platforms */

static dls_platform *gen_order_platform(test_rng *r, size_t m, double V)
{
    dls_platform *pl = test_platform_new();
    double share = V / (double)m;
    gen_limits lim = {(int)test_below(r, 2), 0, 0};
    for (size_t i = 0; i < m; i++) {
        size_t levels = 1 + test_below(r, 2);
        double a[2], b[2];
        b[0] = test_logrange(r, 1e-4, 5e-3);
        a[0] = test_below(r, 3) == 0 ? test_range(r, 0, 1) : 0;
        if (levels == 2) {
            /* steeper past a swap point near a share: a[1] < 0 unless a[0] is large */
            b[1] = b[0] * test_logrange(r, 3, 20);
            double swap = share * test_logrange(r, 0.2, 2);
            a[1] = a[0] + (b[0] - b[1]) * swap;
        }
        gen_add(pl, "p", i, gen_lines(levels, a, b));
        if (test_below(r, 6) != 0)
            gen_link(pl, i, test_range(r, 0, 2), test_logrange(r, 1e-4, 5e-3));
        gen_limits_step(r, pl, i, &lim, share, 0.5, 2);
    }
    gen_limits_end(pl, &lim, V);
    return pl;
}

/* The platform's JSON, printed before a failure so that the instance can be replayed. */
static void show(const dls_platform *pl, double V, const char *what)
{
    char *text = NULL;
    dls_error err;
    if (dls_platform_to_string(pl, &text, &err) == DLS_OK)
        printf("# %s, load %.17g, platform:\n%s\n", what, V, text);
    dls_free(text);
}

/* ---------------------------------------------------------------------------------- */
/* Brute force through the public API */

/* The optimal makespan of the order seq (platform indices): INFINITY when the limits cannot
 * hold V. With selection the chain's set must be proven best. */
static double solve_order(const dls_platform *pl, double V, const size_t *seq, int drop,
                          dls_star_solver solver)
{
    dls_schedule_params par;
    test_sequence_params(&par, seq, dls_platform_count(pl));
    par.drop_unused = drop;
    par.solver = solver;
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
    double T = INFINITY;
    if (dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE) {
        T = dls_schedule_makespan(s);
        dls_schedule_solver_info info;
        assert_ok(dls_schedule_get_solver_info(s, &info, &err), &err);
        if (solver == DLS_SOLVER_CHAIN && !info.optimal)
            fail_msg("the chain's selection is not proven best (%zu pieces)",
                     info.pieces_total);
    }
    dls_schedule_free(s);
    return T;
}

/* The least makespan over every permutation; GLPK's too, which must agree, when glpk. */
static double every_order(const dls_platform *pl, double V, int drop, int glpk)
{
    size_t m = dls_platform_count(pl), seq[MAX_PROCS];
    for (size_t k = 0; k < m; k++)
        seq[k] = k;
    double best = INFINITY;
    do {
        double T = solve_order(pl, V, seq, drop, DLS_SOLVER_CHAIN);
        if (glpk) {
            double G = solve_order(pl, V, seq, drop, DLS_SOLVER_GLPK);
            if (!(isinf(T) && isinf(G)) && !test_close(T, G, SOLVERS_AGREE, 0)) {
                show(pl, V, "the chain and GLPK disagree on one order");
                fail_msg("chain %.17g, GLPK %.17g", T, G);
            }
        }
        best = fmin(best, T);
    } while (test_next_permutation(seq, m));
    return best;
}

/* The least over every nonempty subset of processors of the paper model on the
 * sub-platform, over every order of the subset. */
static double every_subset(const dls_platform *pl, double V)
{
    size_t m = dls_platform_count(pl);
    double best = INFINITY;
    for (unsigned mask = 1; mask < 1u << m; mask++) {
        dls_platform *sub = NULL;
        dls_error err;
        assert_ok(dls_platform_copy(pl, &sub, &err), &err);
        for (size_t i = m; i-- > 0;)
            if (!(mask & 1u << i))
                assert_ok(dls_platform_remove(sub, i, &err), &err);
        best = fmin(best, every_order(sub, V, 0, 0));
        dls_platform_free(sub);
    }
    return best;
}

/* ---------------------------------------------------------------------------------- */
/* The MIP and the checks of its answer */

/* The star of pl, its positions in the platform's order (perm NULL) or in perm's. */
static void star_of(const dls_platform *pl, double V, const size_t *perm, dls__star *st)
{
    dls_schedule_params par;
    if (perm)
        test_sequence_params(&par, perm, dls_platform_count(pl));
    else
        dls_schedule_params_init(&par);
    test_star_build(pl, V, &par, st);
}

/* The answer's schedule checked on its own: a permutation of the positions, loads within
 * the limits summing to V, its makespan what a star built again in its order replays,
 * what dls_schedule_evaluate gives, and the chain's optimum for its order. */
static void check_answer(const dls_platform *pl, const dls__star *st, int charge,
                         const dls__order_mip_answer *a)
{
    size_t m = st->m, seq[MAX_PROCS];
    double V = st->V;
    assert_int_equal(a->m, m);
    assert_true(a->count >= 1 && a->count <= m);
    if (charge)
        assert_int_equal(a->count, m);
    unsigned char seen[MAX_PROCS] = {0};
    long double sum = 0;
    for (size_t k = 0; k < m; k++) {
        size_t i = a->order[k];
        assert_true(i < m);
        assert_false(seen[i]);
        seen[i] = 1;
        double x = a->load[i];
        assert_true(x >= 0);
        assert_true(dls__within(x, st->B[i]));
        if (k >= a->count)
            assert_true(x == 0);
        else if (!charge)
            assert_true(x > 0);
        sum += x;
        seq[k] = st->proc[i];
    }
    if (!test_close((double)sum, V, SOLVERS_AGREE, 0))
        fail_msg("the loads sum to %.17Lg, not %.17g", sum, V);
    /* the bound below the optimum, the MIP's own objective near the replay */
    assert_true(a->bound <= a->makespan * (1 + MIP_AGREE));
    assert_rel(a->mip_makespan, a->makespan, MIP_AGREE);

    /* a star built again in the answer's order, replayed */
    dls__star again;
    star_of(pl, V, seq, &again);
    double x[MAX_PROCS];
    unsigned char active[MAX_PROCS];
    for (size_t k = 0; k < m; k++) {
        x[k] = a->load[a->order[k]];
        active[k] = k < a->count;
    }
    double rep = dls__replay(&again, x, active, charge, 0, NULL, NULL, NULL, NULL, NULL);
    assert_rel(rep, a->makespan, SOLVERS_AGREE);
    dls__star_free(&again);

    /* the public evaluation (which sends nothing to a processor given no load: the paper
     * model's charge is then missing, never added) */
    double loads[MAX_PROCS];
    for (size_t i = 0; i < m; i++)
        loads[st->proc[i]] = a->load[i];
    dls_schedule_params par;
    test_sequence_params(&par, seq, m);
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_evaluate(pl, loads, &par, &s, &err), &err);
    double ev = dls_schedule_makespan(s);
    int zero = 0;
    for (size_t i = 0; i < m; i++)
        zero |= loads[i] == 0;
    if (charge && zero)
        assert_true(ev <= a->makespan * (1 + SOLVERS_AGREE));
    else
        assert_rel(ev, a->makespan, SOLVERS_AGREE);
    dls_schedule_free(s);

    /* the chain in the answer's order: the paper model's optimum for it is the answer's;
     * with selection it may only do better on that order, as long as it is the best */
    double chain = solve_order(pl, V, seq, !charge, DLS_SOLVER_CHAIN);
    if (charge)
        assert_rel(chain, a->makespan, SOLVERS_AGREE);
    else
        assert_true(chain <= a->makespan * (1 + SOLVERS_AGREE));
}

/* The MIP's optimum on pl (positions in perm's order, or the platform's), its answer
 * checked. */
static double mip_optimum(const dls_platform *pl, double V, const size_t *perm, int charge,
                          double *seconds)
{
    dls__star st;
    star_of(pl, V, perm, &st);
    dls__order_mip_answer a;
    dls_error err;
    dls_status rc = dls__order_mip_solve(&st, charge, MIP_TIME_LIMIT, INFINITY, &a, &err);
    if (rc != DLS_OK) {
        show(pl, V, charge ? "paper model" : "selection");
        fail_msg("dls__order_mip_solve failed with %s: %s", dls_status_name(rc), err.message);
    }
    if (a.status != DLS_SOLUTION_OPTIMAL || a.time_limited) {
        show(pl, V, charge ? "paper model" : "selection");
        fail_msg("the MIP ended %s%s after %.3g s", dls_solution_status_name(a.status),
                 a.time_limited ? " (time limit)" : "", a.seconds);
    }
    assert_int_equal(a.binaries, st.m * st.m);
    check_answer(pl, &st, charge, &a);
    double T = a.makespan;
    *seconds += a.seconds;
    dls__order_mip_answer_free(&a);
    dls__star_free(&st);
    return T;
}

/* ---------------------------------------------------------------------------------- */
/* Tests */

/* a: S = 0, C = 1, t = x; b: S = 4, C = 1, t = x; V = 2. Order (a, b): a finishes at 2 alpha,
 * b at 8 - alpha, so alpha = 2 (all of V): a at 4, b, served its startup with nothing,
 * at 6. Order (b, a): b at 4 + 2 beta, a at 8 - beta, equal at beta = 4/3: 20/3. The paper
 * model's best is 6 in (a, b); selection serves a alone: 4. The star's positions are
 * given as (b, a), so that the order found is not the positions'. */
TEST(test_two_by_hand)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": ["
        "{\"name\": \"a\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}},"
        "{\"name\": \"b\", \"time\": [[0, 1]], \"link\": {\"startup\": 4, \"rate\": 1}}]}");
    const size_t ba[] = {1, 0};
    dls__star st;
    star_of(pl, 2, ba, &st);
    dls__order_mip_answer a;
    dls_error err;
    assert_ok(dls__order_mip_solve(&st, 1, MIP_TIME_LIMIT, INFINITY, &a, &err), &err);
    assert_int_equal(a.status, DLS_SOLUTION_OPTIMAL);
    assert_false(a.time_limited);
    assert_rel(a.makespan, 6, 1e-12);
    assert_rel(a.bound, 6, MIP_AGREE);
    assert_int_equal(a.count, 2);
    assert_int_equal(st.proc[a.order[0]], 0);
    assert_int_equal(st.proc[a.order[1]], 1);
    assert_rel(a.load[a.order[0]], 2, 1e-12);
    assert_true(a.load[a.order[1]] == 0);
    assert_int_equal(a.binaries, 4);
    check_answer(pl, &st, 1, &a);
    dls__order_mip_answer_free(&a);
    assert_null(a.order);

    assert_ok(dls__order_mip_solve(&st, 0, MIP_TIME_LIMIT, INFINITY, &a, &err), &err);
    assert_int_equal(a.status, DLS_SOLUTION_OPTIMAL);
    assert_rel(a.makespan, 4, 1e-12);
    assert_int_equal(a.count, 1);
    assert_int_equal(st.proc[a.order[0]], 0);
    assert_rel(a.load[a.order[0]], 2, 1e-12);
    assert_true(a.load[a.order[1]] == 0);
    check_answer(pl, &st, 0, &a);
    dls__order_mip_answer_free(&a);
    dls__order_mip_answer_free(&a); /* twice: harmless */
    dls__star_free(&st);
    dls_platform_free(pl);
}

RANDOM_TEST(test_random_against_brute_force, 1801, INSTANCES)
{
    size_t m = MIN_PROCS + test_below(r, MAX_PROCS - MIN_PROCS + 1);
    double V = test_range(r, 200, 3000);
    dls_platform *pl = gen_order_platform(r, m, V);
    /* the star's positions in the platform's order, or shuffled */
    size_t perm[MAX_PROCS];
    for (size_t k = 0; k < m; k++)
        perm[k] = k;
    int shuffled = test_below(r, 2);
    for (size_t k = m; shuffled && k > 1; k--) {
        size_t j = test_below(r, k), t = perm[k - 1];
        perm[k - 1] = perm[j];
        perm[j] = t;
    }
    static double seconds[2][MAX_PROCS + 1], worst[2];
    static int counted[MAX_PROCS + 1];
    counted[m]++;

    double paper = every_order(pl, V, 0, trial % GLPK_EVERY == 0);
    double T = mip_optimum(pl, V, shuffled ? perm : NULL, 1, &seconds[1][m]);
    worst[1] = fmax(worst[1], fabs(T - paper) / paper);
    if (!test_close(T, paper, MIP_AGREE, 0)) {
        show(pl, V, "paper model: the MIP and the brute force disagree");
        fail_msg("trial %d (%zu processors): MIP %.17g, every order %.17g", trial, m, T, paper);
    }

    double chain = every_order(pl, V, 1, 0), subsets = every_subset(pl, V);
    if (!test_close(chain, subsets, SOLVERS_AGREE, 0)) {
        show(pl, V, "selection: the chain and the subsets disagree");
        fail_msg("trial %d: every order with the chain's selection %.17g, every subset and "
                 "order %.17g", trial, chain, subsets);
    }
    T = mip_optimum(pl, V, shuffled ? perm : NULL, 0, &seconds[0][m]);
    worst[0] = fmax(worst[0], fabs(T - subsets) / subsets);
    if (!test_close(T, subsets, MIP_AGREE, 0)) {
        show(pl, V, "selection: the MIP and the brute force disagree");
        fail_msg("trial %d (%zu processors): MIP %.17g, every subset and order %.17g", trial,
                 m, T, subsets);
    }
    dls_platform_free(pl);
    if (trial == INSTANCES - 1) {
        printf("# off the brute force at most: paper model %.3g, selection %.3g (relative)\n",
               worst[1], worst[0]);
        for (size_t k = MIN_PROCS; k <= MAX_PROCS; k++)
            if (counted[k])
                printf("# %zu processors, %d platforms: the MIP took %.3g ms (paper) and %.3g "
                       "ms (selection) on average\n", k, counted[k],
                       1e3 * seconds[1][k] / counted[k], 1e3 * seconds[0][k] / counted[k]);
    }
}

/* upper: the optimum itself keeps it; 1% below it leaves nothing. */
RANDOM_TEST(test_upper, 1802, 10)
{
    size_t m = 4 + test_below(r, 3);
    double V = test_range(r, 200, 3000);
    dls_platform *pl = gen_order_platform(r, m, V);
    dls__star st;
    star_of(pl, V, NULL, &st);
    for (int charge = 0; charge < 2; charge++) {
        double best = every_order(pl, V, !charge, 0);
        dls__order_mip_answer a;
        dls_error err;
        assert_ok(dls__order_mip_solve(&st, charge, MIP_TIME_LIMIT, best, &a, &err), &err);
        assert_int_equal(a.status, DLS_SOLUTION_OPTIMAL);
        assert_rel(a.makespan, best, MIP_AGREE);
        check_answer(pl, &st, charge, &a);
        dls__order_mip_answer_free(&a);
        assert_ok(dls__order_mip_solve(&st, charge, MIP_TIME_LIMIT, 0.99 * best, &a, &err),
                  &err);
        assert_int_equal(a.status, DLS_SOLUTION_INFEASIBLE);
        assert_int_equal(a.count, 0);
        assert_true(isnan(a.makespan));
        dls__order_mip_answer_free(&a);
    }
    dls__star_free(&st);
    dls_platform_free(pl);
}

/* A tiny time limit on 6 processors: stopped, never an optimum claimed; what it found is
 * a schedule no better than the optimum, and its bound no higher. */
TEST(test_time_limit)
{
    test_rng r = test_rng_salted(1803);
    int stopped = 0;
    for (int trial = 0; trial < TINY_INSTANCES; trial++) {
        double V = test_range(&r, 200, 3000);
        dls_platform *pl = gen_order_platform(&r, 6, V);
        dls__star st;
        star_of(pl, V, NULL, &st);
        for (int charge = 0; charge < 2; charge++) {
            dls__order_mip_answer a;
            dls_error err;
            assert_ok(dls__order_mip_solve(&st, charge, TINY_LIMIT, INFINITY, &a, &err), &err);
            /* a limit of 1 ms is GLPK's smallest; its watchdog allows half a second more */
            assert_true(a.seconds < 1 + DLS__GLPK_GRACE_S);
            if (!a.time_limited) {
                /* done within the limit: then it is the optimum */
                assert_int_equal(a.status, DLS_SOLUTION_OPTIMAL);
                dls__order_mip_answer_free(&a);
                continue;
            }
            stopped++;
            assert_true(a.status == DLS_SOLUTION_FEASIBLE || a.status == DLS_SOLUTION_NOT_FOUND);
            double best = every_order(pl, V, !charge, 0);
            assert_true(a.bound >= 0);
            assert_true(a.bound <= best * (1 + MIP_AGREE));
            if (a.status == DLS_SOLUTION_FEASIBLE) {
                assert_true(a.makespan >= best * (1 - MIP_AGREE));
                check_answer(pl, &st, charge, &a);
            } else {
                assert_int_equal(a.count, 0);
                assert_true(isnan(a.makespan));
            }
            dls__order_mip_answer_free(&a);
        }
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    printf("# %d of %d runs stopped by the time limit of %g s\n", stopped,
           2 * TINY_INSTANCES, TINY_LIMIT);
    assert_true(stopped > 0);
}

/* Limits that cannot hold the load: infeasible in both models. */
TEST(test_infeasible)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": ["
        "{\"name\": \"a\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}, \"limit\": 1},"
        "{\"name\": \"b\", \"time\": [[0, 1]], \"link\": {\"startup\": 1, \"rate\": 1}, \"limit\": 2}]}");
    dls__star st;
    star_of(pl, 5, NULL, &st);
    for (int charge = 0; charge < 2; charge++) {
        dls__order_mip_answer a;
        dls_error err;
        assert_ok(dls__order_mip_solve(&st, charge, MIP_TIME_LIMIT, INFINITY, &a, &err), &err);
        assert_int_equal(a.status, DLS_SOLUTION_INFEASIBLE);
        assert_int_equal(a.count, 0);
        assert_true(isnan(a.makespan));
        assert_true(a.load[0] == 0 && a.load[1] == 0);
        dls__order_mip_answer_free(&a);
    }
    dls__star_free(&st);
    dls_platform_free(pl);
}

static void expect_refusal(const dls__star *st, int charge, double limit, double upper,
                           dls_status want, const char *words)
{
    dls__order_mip_answer a;
    dls_error err;
    assert_fails(dls__order_mip_solve(st, charge, limit, upper, &a, &err), want, &err, words);
    assert_null(a.order);
    assert_null(a.load);
    assert_int_equal(a.count, 0);
    dls__order_mip_answer_free(&a);
}

TEST(test_refusals)
{
    dls_platform *pl = test_example("star_two.json");
    dls__star st;
    star_of(pl, 2, NULL, &st);
    dls__order_mip_answer a;
    dls_error err;
    assert_fails(dls__order_mip_solve(&st, 1, 1, INFINITY, NULL, &err), DLS_EINVAL, &err,
                 "the answer is NULL");
    expect_refusal(NULL, 1, 1, INFINITY, DLS_EINVAL, "the star is NULL");
    expect_refusal(&st, 2, 1, INFINITY, DLS_EINVAL, "charge_all must be 0 or 1, not 2");
    expect_refusal(&st, -1, 1, INFINITY, DLS_EINVAL, "charge_all must be 0 or 1, not -1");
    expect_refusal(&st, 1, 0, INFINITY, DLS_EINVAL, "time_limit must be seconds in (0, 1e+09], not 0");
    expect_refusal(&st, 1, -2, INFINITY, DLS_EINVAL, "not -2");
    expect_refusal(&st, 1, NAN, INFINITY, DLS_EINVAL, "not nan");
    expect_refusal(&st, 1, INFINITY, INFINITY, DLS_EINVAL, "not inf");
    expect_refusal(&st, 1, 2e9, INFINITY, DLS_EINVAL, "not 2000000000");
    expect_refusal(&st, 1, 1, 0, DLS_EINVAL, "upper must be a makespan > 0 or INFINITY, not 0");
    expect_refusal(&st, 1, 1, -1, DLS_EINVAL, "not -1");
    expect_refusal(&st, 1, 1, NAN, DLS_EINVAL, "not nan");

    /* damaged stars: no position, too many, a bad link, a bad limit, no lines, a bad line */
    dls__star bad = st;
    bad.m = 0;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_EINVAL, "the star has no processor");
    bad.m = DLS__ORDER_MIP_MAX_POSITIONS + 1;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_ELIMIT, "33 processors, more than the 32");
    bad = st;
    bad.V = NAN;
    expect_refusal(&bad, 0, 1, INFINITY, DLS_EINVAL, "the load must be finite and > 0, not nan");
    double S[2] = {st.S[0], -1}, B[2] = {st.B[0], 0}, A[8];
    size_t off[3] = {0, 0, st.off[2]};
    bad = st;
    bad.S = S;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_EINVAL, "position 1 (processor 1) has a link of "
                   "startup -1 s");
    bad = st;
    bad.B = B;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_EINVAL, "has the limit 0");
    bad = st;
    bad.off = off;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_EINVAL, "position 0 (processor 0) has no time line");
    assert_true(st.off[2] <= 8);
    memcpy(A, st.a, st.off[2] * sizeof *A);
    A[st.off[1]] = INFINITY;
    bad = st;
    bad.a = A;
    expect_refusal(&bad, 1, 1, INFINITY, DLS_EINVAL, "position 1 (processor 1) has the time line inf");

    /* the star untouched by the refusals: it still solves */
    assert_ok(dls__order_mip_solve(&st, 1, 10, INFINITY, &a, &err), &err);
    assert_int_equal(a.status, DLS_SOLUTION_OPTIMAL);
    dls__order_mip_answer_free(&a);
    dls__order_mip_answer_free(NULL);
    dls__star_free(&st);
    dls_platform_free(pl);
}

TEST_MAIN("order_mip", test_two_by_hand, test_random_against_brute_force, test_upper,
          test_time_limit, test_infeasible, test_refusals)
