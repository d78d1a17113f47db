/* lp_solve as the tests use it to cross-check an export. Include after testutil.h (cmocka)
 * and <lpsolve/lp_lib.h>. */
#ifndef DLSCHED_TEST_LPSOLVE_READ_H
#define DLSCHED_TEST_LPSOLVE_READ_H

/* The MPS file at path read and solved by lp_solve, quietly: returns solve()'s status;
 * the caller reads the answer from *lp, then deletes it. */
static inline int test_lpsolve_mps(char *path, lprec **lp)
{
    *lp = read_freeMPS(path, CRITICAL);
    assert_non_null(*lp);
    set_verbose(*lp, CRITICAL);
    return solve(*lp);
}

#endif
