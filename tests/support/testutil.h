/* Helpers shared by the cmocka test programs: the seed of the random instances (which
 * gen.h draws), relative comparisons, and status assertions that print the library's
 * message. */
#ifndef DLSCHED_TESTUTIL_H
#define DLSCHED_TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dlsched.h"

/* ---------------------------------------------------------------------------------- */
/* The seed of the program's random instances (gen.h draws them): --random-seed N on the
 * command line, else DLS_TEST_SEED, else the fixed default; it is printed so that a
 * failure can be replayed. */

static uint64_t test_seed_value = 20261122u;

/* Reads --random-seed N or DLS_TEST_SEED; call first in main(). */
static inline void test_init_seed(int argc, char **argv)
{
    const char *env = getenv("DLS_TEST_SEED");
    if (env != NULL && *env != '\0')
        test_seed_value = strtoull(env, NULL, 0);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--random-seed") == 0)
            test_seed_value = strtoull(argv[i + 1], NULL, 0);
    printf("# random seed %llu (override with --random-seed N or DLS_TEST_SEED=N)\n",
           (unsigned long long)test_seed_value);
}

/* ---------------------------------------------------------------------------------- */
/* Assertions */

/* |a - b| <= tol * max(|a|, |b|, floor); NaN never matches, equal infinities do. */
static inline int test_close(double a, double b, double tol, double floor_)
{
    if (isnan(a) || isnan(b))
        return 0;
    if (a == b)
        return 1;
    double scale = fmax(fmax(fabs(a), fabs(b)), floor_);
    return fabs(a - b) <= tol * scale;
}

#define assert_rel(a, b, tol)                                                              \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!test_close(a_, b_, (tol), 0))                                                 \
            fail_msg("%s = %.17g differs from %s = %.17g by more than %g relative", #a, a_, \
                     #b, b_, (double)(tol));                                               \
    } while (0)

#define assert_rel_floor(a, b, tol, floor_)                                                \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!test_close(a_, b_, (tol), (floor_)))                                          \
            fail_msg("%s = %.17g differs from %s = %.17g by more than %g (floor %g)", #a,  \
                     a_, #b, b_, (double)(tol), (double)(floor_));                         \
    } while (0)

/* The call must succeed; on failure the library's message is shown. */
#define assert_ok(call, errp)                                                              \
    do {                                                                                   \
        dls_status st_ = (call);                                                           \
        if (st_ != DLS_OK)                                                                 \
            fail_msg("%s failed with %s: %s", #call, dls_status_name(st_), (errp)->message); \
    } while (0)

/* The call must fail with the given status and a message containing `part`. */
#define assert_fails(call, want, errp, part)                                               \
    do {                                                                                   \
        dls_error_clear(errp);                                                             \
        dls_status st_ = (call);                                                           \
        if (st_ != (want))                                                                 \
            fail_msg("%s returned %s, expected %s (message: %s)", #call,                   \
                     dls_status_name(st_), dls_status_name(want), (errp)->message);         \
        if ((errp)->status != (want))                                                      \
            fail_msg("%s: the error record holds %s", #call,                               \
                     dls_status_name((errp)->status));                                     \
        if (strstr((errp)->message, (part)) == NULL)                                       \
            fail_msg("%s: message \"%s\" lacks \"%s\"", #call, (errp)->message, (part));   \
    } while (0)

#endif /* DLSCHED_TESTUTIL_H */
