/* The chain solver's PAPER mode against two LP solvers: on 500 random platforms (fixed,
 * overridable seed: 1 to 200 processors, 1 to 4 memory levels, constant speeds, limits,
 * links of rate 0, processors without links, the originator computing or not, both send
 * orders) its makespan must agree with GLPK's (dls__lp_solve_star, the paper's LP) and
 * with lp_solve's (the same LP built here through lp_solve's own API) within 1e-12
 * relative. Each instance must agree within 1e-12 with at least one of them (where GLPK is
 * further off, lp_solve must agree), and neither may find a makespan more than 1e-11
 * below the chain's (lp_solve, even with its
 * tightest tolerances, lands 1e-12 to 2e-12 off on a few instances, one processor among
 * them); every instance off by more than 1e-12 is reported, and cases lp_solve cannot
 * solve are reported one by one, never passed silently. The default method (a greedy try,
 * the sweep where it cannot prove its answer) is the one compared; the sweep alone and
 * policy iteration alone must each agree with GLPK or lp_solve too, so that each of the
 * three exact methods is checked against the LP solvers, on the platforms where the
 * default would not use it as well. */
#include <lpsolve/lp_lib.h>

#include "chain_check.h"

#define INSTANCES 500
/* lp_solve's tolerances here; and how far it may be off (relative) when GLPK agrees with
 * the chain within CHK_TOL: with the tightest tolerances it still lands 1e-12 to 2e-12 off
 * now and then, even on one processor, where the optimum is a formula. */
#define LPS_EPS 1e-12
#define LPS_SLACK 1e-11
/* lp_solve may fail on a few cases; more than this fraction fails the test. */
#define MAX_SOLVER_FAILURES 0.02

/* The paper's LP (cumulative form, as lp/star.mod) by lp_solve, loads in units of V/m and
 * times in units of tau; *ok = 0 when lp_solve does not report an optimum. */
static double lpsolve_star(const dls__star *st, double tau, int *ok)
{
    size_t m = st->m;
    double u = st->V / (double)m;
    int ncols = (int)(2 * m + 1);
    lprec *lp = make_lp(0, ncols);
    assert_non_null(lp);
    set_verbose(lp, CRITICAL);
    set_add_rowmode(lp, TRUE);
    REAL row[4];
    int col[4];
    for (size_t k = 0; k < m; k++) {
        int ca = (int)k + 1, ct = (int)(m + k) + 1, cm = ncols;
        /* T_k - T_{k-1} - C_k alpha_k = S_k */
        int n = 0;
        col[n] = ct, row[n++] = 1;
        if (k > 0)
            col[n] = ct - 1, row[n++] = -1;
        col[n] = ca, row[n++] = -st->C[k] * u / tau;
        add_constraintex(lp, n, row, col, EQ, st->S[k] / tau);
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            col[0] = ct, row[0] = 1;
            col[1] = ca, row[1] = st->b[l] * u / tau;
            col[2] = cm, row[2] = -1;
            add_constraintex(lp, 3, row, col, LE, -st->a[l] / tau);
        }
    }
    REAL *ones = malloc((m + 1) * sizeof *ones);
    int *cols = malloc((m + 1) * sizeof *cols);
    assert_true(ones && cols);
    for (size_t k = 0; k < m; k++) {
        ones[k] = 1;
        cols[k] = (int)k + 1;
    }
    add_constraintex(lp, (int)m, ones, cols, EQ, st->V / u);
    set_add_rowmode(lp, FALSE);
    for (size_t k = 0; k < m; k++)
        if (isfinite(st->B[k]))
            set_upbo(lp, (int)k + 1, st->B[k] / u);
    REAL obj = 1;
    int oc = ncols;
    set_obj_fnex(lp, 1, &obj, &oc);
    set_minim(lp);
    /* its primal and dual feasibility tolerances at 1e-12 (defaults 1e-10 and 1e-9: with
     * them lp_solve is up to 1e-8 off the optimum here) */
    set_epsb(lp, LPS_EPS);
    set_epsd(lp, LPS_EPS);
    set_epsel(lp, LPS_EPS * 1e-2);
    int ret = solve(lp);
    double T = ret == OPTIMAL ? get_objective(lp) * tau : NAN;
    *ok = ret == OPTIMAL;
    if (!*ok)
        printf("#   lp_solve: %s\n", get_statustext(lp, ret));
    delete_lp(lp);
    free(ones);
    free(cols);
    return T;
}

TEST(test_paper_against_glpk_and_lp_solve)
{
    test_rng r = test_rng_salted(1300);
    int solver_failures = 0, glpk_failures = 0, glpk_off = 0, lps_off = 0, greedy = 0;
    double worst_glpk = 0, worst_lps = 0, worst_either = 0, worst_method = 0;
    for (int trial = 0; trial < INSTANCES; trial++) {
        size_t m = 1 + test_below(&r, trial % 5 == 0 ? 200 : 40);
        double V = test_logrange(&r, 1e4, 1e10);
        dls__star st;
        chk_variant var;
        dls_platform *pl = chk_trial(&r, trial, m, V, chk_platform, 4, &st, &var);
        dls__chain_answer a;
        chk_solve(&st, DLS__CHAIN_PAPER, NULL, &a);
        assert_false(a.infeasible);
        double mine = a.makespan, glpk = chk_glpk(&st);
        int ok;
        double lps = lpsolve_star(&st, mine, &ok);
        double rg = isnan(glpk) ? INFINITY : fabs(glpk - mine) / fmax(glpk, mine);
        glpk_failures += isnan(glpk);
        double rl = ok ? fabs(lps - mine) / fmax(lps, mine) : NAN;
        if (!isnan(glpk))
            worst_glpk = fmax(worst_glpk, rg);
        if (ok)
            worst_lps = fmax(worst_lps, rl);
        else
            solver_failures++;
        double best = ok ? fmin(rg, rl) : rg;
        worst_either = fmax(worst_either, best);
        if (ok && rl > CHK_TOL) {
            lps_off++;
            printf("# trial %d (%zu processors, load %.6g): lp_solve %.17g, chain %.17g (%.2g), "
                   "GLPK %.17g (%.2g)\n", trial, m, V, lps, mine, rl, glpk, rg);
        }
        if (rg > CHK_TOL && !isnan(glpk)) {
            glpk_off++;
            printf("# trial %d (%zu processors, load %.6g): GLPK %.17g, chain %.17g (%.2g), "
                   "lp_solve %.17g (%.2g)\n", trial, m, V, glpk, mine, rg, lps, rl);
        }
        /* and no solver finds a makespan more than LPS_SLACK below the chain's (one above
         * it is a solver stopping at a worse vertex, which the other one shows) */
        if (!(best <= CHK_TOL) || (ok && !(lps >= mine * (1 - LPS_SLACK))) ||
            (!isnan(glpk) && !(glpk >= mine * (1 - LPS_SLACK))))
            fail_msg("trial %d (%zu processors, load %.6g, order %d, originator %d): chain "
                     "%.17g, GLPK %.17g, lp_solve %.17g", trial, m, V, (int)var.order, var.orig, mine,
                     glpk, lps);
        /* the default answered by the greedy try: no explicit stage, no sweep (whose stages
         * all count as explicit) */
        greedy += a.explicit_stages == 0;
        static const dls__chain_paper_method alone[] = {DLS__CHAIN_PAPER_SWEEP,
                                                        DLS__CHAIN_PAPER_POLICY};
        for (size_t j = 0; j < sizeof alone / sizeof alone[0]; j++) {
            dls__chain_params par;
            dls__chain_params_init(&par);
            par.paper_method = alone[j];
            dls__chain_answer b;
            chk_solve(&st, DLS__CHAIN_PAPER, &par, &b);
            double d = fabs(b.makespan - mine) / mine;
            double dg = isnan(glpk) ? INFINITY : fabs(glpk - b.makespan) / fmax(glpk, b.makespan);
            double dl = ok ? fabs(lps - b.makespan) / fmax(lps, b.makespan) : INFINITY;
            worst_method = fmax(worst_method, d);
            if (!(fmin(dg, dl) <= CHK_TOL))
                fail_msg("trial %d (%zu processors, load %.6g): method %d alone %.17g, GLPK "
                         "%.17g, lp_solve %.17g, default %.17g", trial, m, V, (int)alone[j],
                         b.makespan, glpk, lps, mine);
            dls__chain_answer_free(&b);
        }
        dls__chain_answer_free(&a);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    printf("# %d instances: largest relative difference from GLPK %.3g, from lp_solve %.3g, "
           "from the closer of the two %.3g; off by more than %g: GLPK on %d, lp_solve on %d; "
           "failed: GLPK on %d, lp_solve on %d\n", INSTANCES, worst_glpk, worst_lps, worst_either,
           CHK_TOL, glpk_off, lps_off, glpk_failures, solver_failures);
    printf("# the default answered by the greedy try on %d, by the sweep on %d; the sweep and "
           "policy iteration alone at most %.3g from it\n", greedy, INSTANCES - greedy,
           worst_method);
    /* both paths of the default are exercised */
    assert_true(greedy > 0 && greedy < INSTANCES);
    assert_true(solver_failures <= MAX_SOLVER_FAILURES * INSTANCES);
    assert_true(glpk_failures <= MAX_SOLVER_FAILURES * INSTANCES);
}

TEST_MAIN("chain_lp", test_paper_against_glpk_and_lp_solve)
