/* The scheduler's LP against a second solver: on random platforms (fixed, overridable seeds;
 * 1 to 200 processors, 1 to 4 memory levels, with and without limits) the makespan of the
 * paper's LP must agree with lp_solve solving the exported free MPS file, within 1e-7
 * relative. Cases lp_solve cannot solve are reported one by one, never passed silently. */
#include <unistd.h>

#include <lpsolve/lp_lib.h>

#include "gen.h"
#include "solver_output.h"
#include "lpsolve_read.h"

#define INSTANCES 500
/* lp_solve may fail on a few cases (it says "numerical failure" on some); more than this
 * fraction fails the test. */
#define MAX_SOLVER_FAILURES 0.02

TEST(test_against_lp_solve)
{
    test_rng r = test_rng_salted(400);
    dls_error err;
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.drop_unused = 0; /* the exported model is the paper's LP */
    char path[] = "/tmp/dls_cross_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    int solver_failures = 0;
    double worst = 0;
    for (int trial = 0; trial < INSTANCES; trial++) {
        size_t m = 1 + test_below(&r, trial % 5 == 0 ? 200 : 40);
        double V = test_logrange(&r, 1e4, 1e10);
        dls_platform *pl = gen_star(&r, m, 4, V, trial % 2);
        par.order = trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
        dls_schedule *s;
        assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
        double mine = dls_schedule_paper_makespan(s);
        dls_schedule_free(s);
        assert_ok(dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_MPS, path, &err), &err);
        lprec *lp;
        int ret = test_lpsolve_mps(path, &lp);
        if (ret != OPTIMAL) {
            printf("# lp_solve could not solve trial %d (%zu processors, load %.6g): %s\n", trial,
                   m, V, get_statustext(lp, ret));
            solver_failures++;
        } else {
            double theirs = get_objective(lp) * test_mps_time_unit(path);
            double rel = fabs(theirs - mine) / fmax(fabs(theirs), fabs(mine));
            worst = fmax(worst, rel);
            if (rel > 1e-7)
                fail_msg("trial %d (%zu processors, load %.6g): dlsched %.17g, lp_solve %.17g",
                         trial, m, V, mine, theirs);
        }
        delete_lp(lp);
        dls_platform_free(pl);
    }
    unlink(path);
    printf("# %d instances: largest relative difference %.3g; lp_solve failed on %d\n", INSTANCES,
           worst, solver_failures);
    assert_true(solver_failures <= MAX_SOLVER_FAILURES * INSTANCES);
}

TEST_MAIN("lp_crosscheck", test_against_lp_solve)
