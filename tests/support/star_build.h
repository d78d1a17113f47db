/* For the test programs that reach the solvers' internals: the star they work on, built as
 * the library builds it. Include after testutil.h (or gen.h). */
#ifndef DLSCHED_TEST_STAR_BUILD_H
#define DLSCHED_TEST_STAR_BUILD_H

#include <stdlib.h>
#include "star/star.h"

/* The star of pl for load V as par asks (the public params, through the internal options);
 * its note is not wanted here. */
static inline void test_star_build(const dls_platform *pl, double V,
                                   const dls_schedule_params *par, dls__star *st)
{
    char *note = NULL;
    dls_error err;
    dls__star_opts so = dls__star_opts_from_params(par);
    assert_ok(dls__star_build(pl, V, &so, 1, st, &note, &err), &err);
    free(note);
}

#endif
