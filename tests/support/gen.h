/* Random star platforms with the magnitudes of paper 003 and of measured clusters: in-core
 * rates around 1e-3 s per unit, each further memory level 3 to 30 times slower from a swap
 * point near an equal share, startups around 1e-3 s, rates around 1e-6 s per unit. */
#ifndef DLSCHED_GEN_H
#define DLSCHED_GEN_H

#include "testutil.h"

/* A platform of m processors with 1 to max_levels time lines each, for a load V; about
 * half of the processors get a limit when `limits` is set (keeping the capacity >= V). */
static inline dls_platform *star_random(test_rng *r, size_t m, size_t max_levels, double V,
                                        int limits)
{
    dls_error err;
    dls_platform *pl = dls_platform_create();
    double share = V / (double)m, limsum = 0;
    int unlimited = 0;
    for (size_t i = 0; i < m; i++) {
        char name[32];
        snprintf(name, sizeof name, "node%zu", i);
        size_t levels = 1 + test_below(r, max_levels);
        double a[8], b[8];
        b[0] = test_logrange(r, 1e-4, 1e-2);
        a[0] = test_below(r, 3) == 0 ? test_logrange(r, 1e-4, 1e-1) : 0;
        double swap = share * test_logrange(r, 0.1, 3);
        for (size_t l = 1; l < levels; l++) {
            b[l] = b[l - 1] * test_logrange(r, 3, 30);
            /* the new line meets the previous one at the swap point */
            a[l] = a[l - 1] + (b[l - 1] - b[l]) * swap;
            swap *= test_logrange(r, 2, 10);
        }
        dls_model *model;
        assert_ok(dls_model_create_time_lines(levels, a, b, &model, &err), &err);
        assert_ok(dls_platform_add(pl, name, model, NULL, &err), &err);
        dls_model_free(model);
        assert_ok(dls_platform_set_link(pl, i, test_logrange(r, 1e-4, 1e-2),
                                        test_logrange(r, 1e-7, 1e-5), &err),
                  &err);
        if (limits && test_below(r, 2)) {
            double lim = share * test_logrange(r, 0.3, 3);
            assert_ok(dls_platform_set_limit(pl, i, lim, &err), &err);
            limsum += lim;
        } else {
            unlimited = 1;
        }
    }
    if (limits && !unlimited && limsum < V)
        assert_ok(dls_platform_set_limit(pl, 0, INFINITY, &err), &err);
    return pl;
}

#endif /* DLSCHED_GEN_H */
