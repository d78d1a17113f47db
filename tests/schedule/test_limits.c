/* The limits on GLPK's work, and the platforms on which its simplex used to stall.
 *
 * tests/data/stall/ holds the two platforms of the issue and 17 more found by mutating them
 * and the examples (random absurd magnitudes, 3 to 5 processors): each ran for minutes
 * inside GLPK's simplex with `dlsched schedule FILE --load 100` before the limits and the
 * negligible-processor rule of src/solver/lp_star.c. Each must now end with an answer that
 * glp_exact confirms; the integer and exact-shape MIPs and the cross-check on them must end
 * with an answer or a clear error. A call is guarded by a wall clock of GUARD_S seconds, so
 * that a hang fails with the file's name instead of the suite timing out; the times
 * themselves are measured in doc/BENCHMARKS.md, never asserted here. */
#include <config.h>

#include <glpk.h>

#include "testutil.h"
#include "guard.h"
#include "solver/glpk_guard.h"

/* Seconds any one call may take before the test fails: 100 times what they take. */
#define GUARD_S 30
/* The chain's makespan and GLPK's certified one agree this closely (relative). */
#define STALL_AGREE 1e-9
/* The load the stalls were found with. */
#define STALL_LOAD 100


/* A failure must be a clear error: a status of its own and a message that says why. */
static void assert_clear_error(dls_status st, const dls_error *err, const char *path)
{
    if (st != DLS_ELIMIT && st != DLS_ENUMERIC && st != DLS_ESOLVER)
        fail_msg("%s: status %s (%s)", path, dls_status_name(st), err->message);
    assert_true(strlen(err->message) > 20);
}

static dls_platform *read_stall(const char *path)
{
    dls_error err;
    dls_platform *pl;
    assert_ok(dls_platform_read_file(path, &pl, &err), &err);
    return pl;
}

/* A MIP call on a stall platform ended: with a schedule, or with a clear error. */
static void mip_ended(dls_status st, dls_schedule *s, dls_error *err, const char *path)
{
    if (st == DLS_OK)
        assert_true(dls_schedule_makespan(s) > 0);
    else
        assert_clear_error(st, err, path);
    dls_schedule_free(s);
}

/* Solves a stall platform with the solver of par, guarded; fails with the message if the
 * call fails. */
static dls_schedule *stall_solve(const dls_platform *pl, const dls_schedule_params *par,
                                 const char *path)
{
    dls_error err;
    dls_schedule *s = NULL;
    char what[96];
    snprintf(what, sizeof what, "schedule --solver %s%s", dls_star_solver_name(par->solver),
             par->drop_unused ? "" : " --keep-unused");
    test_guard(what, path, GUARD_S);
    dls_status st = dls_schedule_solve(pl, STALL_LOAD, par, &s, &err);
    test_unguard();
    if (st != DLS_OK)
        fail_msg("%s: %s: %s: %s", path, what, dls_status_name(st), err.message);
    assert_true(dls_schedule_makespan(s) > 0);
    return s;
}

/* GLPK's answer certified by glp_exact; the chain's the same for the paper's LP, and never
 * worse with selection (GLPK's selection is a heuristic). */
static void solve_stall(const char *path, void *data)
{
    int *count = data;
    dls_platform *pl = read_stall(path);
    dls_schedule_params glpk, chain;
    dls_schedule_params_init(&glpk);
    glpk.solver = DLS_SOLVER_GLPK;
    glpk.exact = 1;
    dls_schedule_params_init(&chain);
    for (int keep = 0; keep < 2; keep++) {
        glpk.drop_unused = chain.drop_unused = !keep;
        dls_schedule *g = stall_solve(pl, &glpk, path);
        assert_int_equal(dls_schedule_exact_confirmed(g), 1);
        dls_schedule *c = stall_solve(pl, &chain, path);
        double mg = dls_schedule_makespan(g), mc = dls_schedule_makespan(c);
        if (keep && !test_close(mc, mg, STALL_AGREE, 0))
            fail_msg("%s, the paper's LP: chain %.17g s, GLPK (glp_exact) %.17g s", path, mc, mg);
        if (!keep && !(mc <= mg * (1 + STALL_AGREE)))
            fail_msg("%s, selection: chain %.17g s, GLPK %.17g s", path, mc, mg);
        dls_schedule_free(g);
        dls_schedule_free(c);
    }
    dls_platform_free(pl);
    ++*count;
}

TEST(test_stalls_end_with_an_answer)
{
    int count = 0;
    assert_int_equal(test_each_json("tests/data/stall", solve_stall, &count), 19);
    assert_int_equal(count, 19);
}

/* The parameters of GLPK's path, whose limits these tests are about. */
static void glpk_params(dls_schedule_params *par)
{
    dls_schedule_params_init(par);
    par->solver = DLS_SOLVER_GLPK;
}

/* A stall platform, and GLPK's parameters. */
static dls_platform *glpk_stall(const char *path, dls_schedule_params *par)
{
    glpk_params(par);
    return read_stall(path);
}

static void mip_stall(const char *path, void *data)
{
    (void)data;
    dls_error err;
    dls_schedule_params par;
    dls_platform *pl = glpk_stall(path, &par);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.time_limit = 5;
    dls_schedule *s = NULL;
    test_guard("schedule --integer", path, GUARD_S);
    dls_status st = dls_schedule_solve_integer(pl, STALL_LOAD, &par, &mp, &s, &err);
    test_unguard();
    mip_ended(st, s, &err, path);
    s = NULL;
    mp.exact_shape = 1;
    test_guard("schedule --exact-shape", path, GUARD_S);
    st = dls_schedule_solve_mip(pl, STALL_LOAD, &par, &mp, &s, &err);
    test_unguard();
    mip_ended(st, s, &err, path);
    dls_crosscheck_params cp;
    dls_crosscheck_params_init(&cp);
    cp.mip.time_limit = 5;
    dls_crosscheck *c = NULL;
    test_guard("crosscheck", path, GUARD_S);
    st = dls_crosscheck_run(pl, STALL_LOAD, &cp, &c, &err);
    test_unguard();
    if (st != DLS_OK)
        assert_clear_error(st, &err, path);
    dls_crosscheck_free(c);
    dls_platform_free(pl);
}

TEST(test_stalls_in_the_mips_end)
{
    assert_int_equal(test_each_json("tests/data/stall", mip_stall, NULL), 19);
}

/* With too small a budget, each stall platform (and an ordinary one) stops at the limit
 * with DLS_ELIMIT, saying what was tried. */
static void limited(const char *path, void *data)
{
    (void)data;
    dls_error err;
    dls_schedule_params par;
    dls_platform *pl = glpk_stall(path, &par);
    dls_schedule *s = NULL;
    par.iteration_limit = 1;
    test_guard("schedule with 1 iteration", path, GUARD_S);
    dls_status st = dls_schedule_solve(pl, STALL_LOAD, &par, &s, &err);
    test_unguard();
    if (st == DLS_OK) {
        /* one iteration may do, from the advanced basis */
        assert_true(dls_schedule_iterations(s) <= 1);
        dls_schedule_free(s);
    } else {
        assert_int_equal(st, DLS_ELIMIT);
        assert_non_null(strstr(err.message, "within the limits"));
        assert_non_null(strstr(err.message, "of 1 iterations"));
        assert_non_null(strstr(err.message, "simplex"));
    }
    dls_platform_free(pl);
}

TEST(test_iteration_limit)
{
    assert_int_equal(test_each_json("tests/data/stall", limited, NULL), 19);
    /* an ordinary platform needs more than 2 iterations */
    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    dls_schedule_params par;
    glpk_params(&par);
    par.iteration_limit = 2;
    dls_schedule *s = NULL;
    assert_fails(dls_schedule_solve(pl, 1e6, &par, &s, &err), DLS_ELIMIT, &err,
                 "the dual simplex");
    assert_non_null(strstr(err.message, "of 2 iterations"));
    assert_null(s);
    /* with room, the same call succeeds, and the automatic limit is far above its needs */
    par.iteration_limit = 0;
    assert_ok(dls_schedule_solve(pl, 1e6, &par, &s, &err), &err);
    assert_true(dls_schedule_iterations(s) < 1000);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST(test_time_limit)
{
    dls_error err;
    dls_platform *pl = test_example("star_cluster.json");
    dls_schedule_params par;
    glpk_params(&par);
    /* a nanosecond: gone before the first run */
    par.time_limit = 1e-9;
    dls_schedule *s = NULL;
    assert_fails(dls_schedule_solve(pl, 1e6, &par, &s, &err), DLS_ELIMIT, &err, "time");
    assert_null(s);
    /* the exact simplex is limited as well */
    par.time_limit = 600;
    par.exact = 1;
    par.iteration_limit = 1;
    assert_fails(dls_schedule_solve(pl, 1e6, &par, &s, &err), DLS_ELIMIT, &err, "limit");
    dls_platform_free(pl);
}

TEST(test_limit_parameters)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_schedule_params par;
    glpk_params(&par);
    assert_rel(par.time_limit, 600, 0);
    assert_int_equal(par.iteration_limit, 0);
    dls_schedule *s = NULL;
    const double bad[] = {0, -1, NAN, INFINITY, 2e9};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        par.time_limit = bad[k];
        assert_fails(dls_schedule_solve(pl, 2, &par, &s, &err), DLS_EINVAL, &err, "time_limit");
        assert_fails(dls_schedule_solve_integer(pl, 2, &par, NULL, &s, &err), DLS_EINVAL, &err,
                     "time_limit");
    }
    glpk_params(&par);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    assert_rel(mp.time_limit, 60, 0);
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        mp.time_limit = bad[k];
        assert_fails(dls_schedule_solve_mip(pl, 2, &par, &mp, &s, &err), DLS_EINVAL, &err,
                     "time_limit");
        dls_crosscheck_params cp;
        dls_crosscheck_params_init(&cp);
        cp.mip.time_limit = bad[k];
        dls_crosscheck *c = NULL;
        assert_fails(dls_crosscheck_run(pl, 2, &cp, &c, &err), DLS_EINVAL, &err, "time_limit");
        assert_null(c);
    }
    assert_null(s);
    dls_platform_free(pl);
}

/* GLPK code that takes no limit (as glp_intopt's node LPs): solves a small LP again and
 * again, printing its progress, until the watchdog stops it. */
static dls_status endless(void *arg, dls__glpk_guard *g, dls_error *err)
{
    (void)err;
    int *runs = arg;
    dls__glpk_stage(g, "an endless loop of simplex runs");
    glp_prob *P = glp_create_prob();
    glp_add_rows(P, 1);
    glp_add_cols(P, 2);
    int ia[] = {0, 1, 1};
    int ja[] = {0, 1, 2};
    double ar[] = {0, 1, 1};
    glp_load_matrix(P, 2, ia, ja, ar);
    glp_set_row_bnds(P, 1, GLP_LO, 1, 0);
    glp_set_col_bnds(P, 1, GLP_LO, 0, 0);
    glp_set_col_bnds(P, 2, GLP_LO, 0, 0);
    glp_set_obj_coef(P, 1, 1);
    glp_set_obj_coef(P, 2, 2);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_ON;
    for (;;) {
        glp_std_basis(P);
        glp_simplex(P, &parm);
        ++*runs;
    }
    return DLS_OK;
}

TEST(test_watchdog)
{
    dls_error err;
    int runs = 0, stopped = 0;
    double t0 = dls__glpk_now();
    dls_status st = dls__glpk_call(0, 0.2, "test", endless, &runs, &stopped, &err);
    double took = dls__glpk_now() - t0;
    assert_int_equal(st, DLS_ELIMIT);
    assert_int_equal(stopped, 1);
    assert_true(runs > 0);
    assert_non_null(strstr(err.message, "test: stopped by the time limit of 0.2 s"));
    assert_non_null(strstr(err.message, "an endless loop of simplex runs"));
    /* the deadline and the grace, with room for a loaded machine */
    assert_true(took < GUARD_S);
    printf("# the watchdog stopped %d runs after %.3f s (limit 0.2 s, grace %g s)\n", runs,
           took, DLS__GLPK_GRACE_S);
    /* GLPK works afterwards, in a fresh environment */
    test_glpk_still_works();
}

TEST_MAIN("limits", test_stalls_end_with_an_answer, test_stalls_in_the_mips_end,
          test_iteration_limit, test_time_limit, test_limit_parameters, test_watchdog)
