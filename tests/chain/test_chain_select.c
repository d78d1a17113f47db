/* The chain solver's SELECT mode (the best set of processors for the send order) against
 * exhaustive search: on 1,200 random platforms of 1 to 12 processors built so that the
 * choice matters (small loads of 5 to 60 units on links with startups of 0.5 to 5 s, 2
 * memory levels, in-core 1e-3 to 1e-2 s per unit; some with intercepts, limits, free links,
 * the originator computing, either send order), the makespan must equal the least over
 * every nonempty subset of positions, in the same order, of that subset's paper LP (solved
 * by the chain's PAPER mode, itself checked against GLPK and lp_solve in test_chain_lp,
 * and by GLPK on a sample), within 1e-12 relative. Every answer is replayed (chk_solve):
 * loads within limits summing to V, the replay equal to the makespan, never worse than the
 * paper's LP. The seed is fixed, overridable (--random-seed N or DLS_TEST_SEED). */
#include "chain_check.h"

/* Under the sanitizers (TEST_SANITIZED) a quarter of them: the same code paths, each
 * instance some 20 times slower; the plain build of every CI run checks all 1,200. */
#ifdef TEST_SANITIZED
#define INSTANCES 300
#else
#define INSTANCES 1200
#endif
#define MAX_PROCS 12
/* The heuristic's test: instances, and the bounds on pieces (the smallest allowed). */
#define FALLBACK_INSTANCES 300
#define FALLBACK_PIECES 16
/* Every this many instances, every subset is also solved by GLPK, whose makespan must agree
 * within GLPK_SLACK: its simplex stops within its own feasibility tolerances, a few 1e-12
 * off either way here (below the exact optimum too, checked in rational arithmetic). */
#define GLPK_EVERY 25
#define GLPK_SLACK 1e-9

/* The chain's PAPER answer for sub (free it with dls__chain_answer_free). */
static dls__chain_answer paper_answer(const dls__star *sub)
{
    dls__chain_params par;
    dls__chain_params_init(&par);
    par.mode = DLS__CHAIN_PAPER;
    dls__chain_answer a;
    dls_error err;
    assert_ok(dls__chain_solve(sub, &par, &a, &err), &err);
    return a;
}

/* The least makespan over the nonempty subsets of st's positions (each its paper LP, by
 * the chain), and by GLPK too when glpk is set (NaN where GLPK fails: skipped). */
static double best_subset(const dls__star *st, int glpk, unsigned long *best_mask)
{
    double best = INFINITY;
    unsigned long all = (1ul << st->m) - 1;
    for (unsigned long mask = 1; mask <= all; mask++) {
        dls__star sub;
        chk_substar(st, mask, &sub);
        dls__chain_answer a = paper_answer(&sub);
        double T = a.makespan;
        if (glpk && !a.infeasible) {
            double g = chk_glpk(&sub);
            if (!isnan(g) && !test_close(g, T, GLPK_SLACK, 0))
                fail_msg("subset %#lx: GLPK %.17g, chain %.17g", mask, g, T);
        }
        if (!a.infeasible && T < best) {
            best = T;
            *best_mask = mask;
        }
        dls__chain_answer_free(&a);
        dls__star_free(&sub);
    }
    return best;
}

/* The least makespan over the paper's LPs of the first 1, 2, 4, ... positions and of all of
 * them (each by the chain's PAPER mode): SELECT's heuristic starts from their best. */
static double best_prefix(const dls__star *st)
{
    double best = INFINITY;
    for (size_t k = 1;; k = k * 2 < st->m ? k * 2 : st->m) {
        dls__star sub;
        chk_substar(st, (1ul << k) - 1, &sub);
        dls__chain_answer a = paper_answer(&sub);
        if (!a.infeasible)
            best = fmin(best, a.makespan);
        dls__chain_answer_free(&a);
        dls__star_free(&sub);
        if (k == st->m)
            break;
    }
    return best;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

TEST(test_select_against_every_subset)
{
    test_rng r = test_rng_salted(1301);
    int gains = 0, strict = 0;
    double worst = 0, *gain_of = malloc(INSTANCES * sizeof *gain_of);
    assert_non_null(gain_of);
    for (int trial = 0; trial < INSTANCES; trial++) {
        size_t m = 1 + test_below(&r, MAX_PROCS);
        double V = test_range(&r, 5, 60);
        dls__star st;
        chk_variant var;
        dls_platform *pl = chk_trial(&r, trial, m, V, chk_select_platform, 5, &st, &var);
        dls__chain_answer a;
        chk_solve(&st, DLS__CHAIN_SELECT, NULL, &a);
        unsigned long mask = 0;
        double want = best_subset(&st, trial % GLPK_EVERY == 0, &mask);
        if (a.infeasible) {
            assert_true(isinf(want));
        } else {
            double rel = fabs(a.makespan - want) / want;
            worst = fmax(worst, rel);
            if (!a.exact || !(rel <= CHK_TOL))
                fail_msg("trial %d (%zu processors, load %.6g, order %d, originator %d): "
                         "select %.17g (exact %d), best subset %#lx %.17g, paper %.17g",
                         trial, m, V, (int)var.order, var.orig, a.makespan, a.exact, mask, want,
                         a.paper_makespan);
            double gain = (a.paper_makespan - a.makespan) / a.makespan;
            gain_of[gains++] = gain;
            strict += gain > 1e-9;
        }
        dls__chain_answer_free(&a);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    qsort(gain_of, (size_t)gains, sizeof *gain_of, cmp_double);
    printf("# %d instances: largest relative difference from the best subset %.3g; the best "
           "subset beats the paper's LP on %d; the paper's LP's makespan over the best "
           "subset's, less 1: quartiles %.3g, %.3g, %.3g, largest %.3g\n", INSTANCES, worst,
           strict, gain_of[gains / 4], gain_of[gains / 2], gain_of[3 * gains / 4],
           gain_of[gains - 1]);
    free(gain_of);
    /* the platforms are built so that selection matters: most must show it */
    assert_true(strict >= INSTANCES / 2);
}

/* The heuristic past the bounds: with the smallest bounds on pieces, SELECT must still
 * answer within its guarantees: never worse than the paper's LP of any prefix of 1, 2, 4,
 * ... positions or of all (every such prefix on platforms this small), exact = 0 unless its
 * makespan is the best subset's, and a lower bound at most the best subset's makespan. */
TEST(test_select_fallback_bounds)
{
    test_rng r = test_rng_salted(1305);
    int heuristic = 0, hit = 0;
    double worst_gap = 0;
    for (int trial = 0; trial < FALLBACK_INSTANCES; trial++) {
        size_t m = 2 + test_below(&r, MAX_PROCS - 1);
        double V = test_range(&r, 5, 60);
        dls_platform *pl = chk_select_platform(&r, m, V);
        dls__star st;
        chk_star(pl, V, trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN, trial % 5 == 1, &st);
        dls__chain_params par;
        dls__chain_params_init(&par);
        par.max_pieces = par.max_work = FALLBACK_PIECES;
        dls__chain_answer a;
        chk_solve(&st, DLS__CHAIN_SELECT, &par, &a);
        unsigned long mask = 0;
        double best = best_subset(&st, 0, &mask);
        if (!a.infeasible) {
            double prefix = best_prefix(&st);
            if (!(a.makespan <= prefix * (1 + CHK_TOL)))
                fail_msg("trial %d: select %.17g, above the best prefix's paper LP %.17g",
                         trial, a.makespan, prefix);
            if (!(a.lower_bound <= best * (1 + CHK_TOL)) ||
                !(a.makespan >= best * (1 - CHK_TOL)) || (a.exact && !test_close(a.makespan, best, CHK_TOL, 0)))
                fail_msg("trial %d: select %.17g (exact %d, lower bound %.17g), best subset "
                         "%.17g", trial, a.makespan, a.exact, a.lower_bound, best);
            heuristic += !a.exact;
            hit += a.makespan <= best * (1 + CHK_TOL);
            worst_gap = fmax(worst_gap, (a.makespan - best) / best);
        }
        dls__chain_answer_free(&a);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    printf("# bounds of %d pieces: the heuristic answered %d of %d instances; %d answers are "
           "the best subset's; largest excess over it %.3g\n", FALLBACK_PIECES, heuristic,
           FALLBACK_INSTANCES, hit, worst_gap);
    assert_true(heuristic > 0);
}

TEST_MAIN("chain_select", test_select_against_every_subset, test_select_fallback_bounds)
