/* Functional Dynamic Programming (Lastovetsky and Reddy 2007b, section 5.4) and Functional Group
 * Block (section 5.3, the Variable Group Block of Lastovetsky and Reddy 2005). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "lu/lu_impl.h"

dls_status dls__lu_fdp(const lu_eval *e, uint64_t n, lu_progress *pr, size_t *owners,
                       dls_lu *r, dls_error *err)
{
    size_t p = e->p;
    lu_hspf s;
    dls_status st = dls__lu_hspf_init(&s, e, err);
    if (st != DLS_OK)
        return st;
    uint64_t *c = calloc(p, sizeof *c);
    if (c == NULL) {
        dls__lu_hspf_free(&s);
        return dls__oom(err, "lu");
    }
    double bound = 0;
    long not_exact = -1;
    uint64_t not_exact_h = 0;
    /* the last k columns go where the best distribution of k columns wants them: to the
     * processor furthest below its share, (c_i + 1) / n_i smallest */
    for (uint64_t k = 1; k <= n; k++) {
        st = dls__lu_hspf_solve(&s, k, err);
        if (st != DLS_OK)
            break;
        if (k < n) {
            bound += s.value;
            if (!s.exact && not_exact < 0) {
                not_exact = s.not_exact_proc;
                not_exact_h = k;
            }
        }
        size_t best = p;
        double br = INFINITY;
        for (size_t i = 0; i < p; i++)
            if (s.n[i] > 0 && (double)c[i] < e->cap[i]) {
                double ratio = (double)(c[i] + 1) / (double)s.n[i];
                if (ratio < br) {
                    br = ratio;
                    best = i;
                }
            }
        if (best == p) { /* cannot happen: some n_i exceeds c_i, both within the cap */
            st = dls__fail(err, DLS_ENUMERIC, "lu", "functional DP found no processor for "
                           "column %llu", (unsigned long long)(n - k + 1));
            break;
        }
        owners[n - k] = best;
        c[best]++;
        if (k < n) { /* c is now the trailing vector of step n - k, at height k */
            int same = 1;
            for (size_t i = 0; i < p && same; i++)
                same = c[i] == s.n[i];
            double worst = same ? s.value : 0;
            for (size_t i = 0; i < p && !same; i++) {
                double v = dls__lu_time(e, i, (double)k, (double)c[i]);
                worst = v > worst ? v : worst;
            }
            r->step_cost[n - k - 1] = worst;
        }
        st = dls__lu_progress(pr, (double)k / (double)n, err);
        if (st != DLS_OK)
            break;
    }
    r->costs_known = 1;
    if (st == DLS_OK && not_exact < 0)
        r->lower_bound = bound;
    else if (st == DLS_OK)
        snprintf(r->note, sizeof r->note, "no lower bound: the time of processor \"%s\" is "
                 "not monotone in its columns at height %llu, and the step is too large to "
                 "solve exactly", dls_platform_name(e->pl, (size_t)not_exact),
                 (unsigned long long)not_exact_h);
    free(c);
    dls__lu_hspf_free(&s);
    return st;
}

dls_status dls__lu_fgb(const lu_eval *e, uint64_t n, size_t *owners, dls_lu *r,
                       dls_error *err)
{
    size_t p = e->p;
    lu_hspf s;
    dls_status st = dls__lu_hspf_init(&s, e, err);
    if (st != DLS_OK)
        return st;
    double *room = malloc(p * sizeof *room);
    double *share = malloc(p * sizeof *share);
    uint64_t *d = malloc(p * sizeof *d);
    dls__keyed *order = malloc(p * sizeof *order);
    if (room == NULL || share == NULL || d == NULL || order == NULL) {
        st = dls__oom(err, "lu");
        goto out;
    }
    memcpy(room, e->cap, p * sizeof *room);
    s.cap = room; /* each group uses up some of the limits */
    uint64_t m = n, col = 0;
    while (m > 0) {
        st = dls__lu_hspf_solve(&s, m, err);
        if (st != DLS_OK)
            goto out;
        /* the group: floor(1 / smallest load index) columns, doubled when that gives
         * fewer than two per working processor, split in proportion to the loads */
        uint64_t nmin = UINT64_MAX;
        size_t active = 0;
        for (size_t i = 0; i < p; i++)
            if (s.n[i] > 0) {
                active++;
                nmin = s.n[i] < nmin ? s.n[i] : nmin;
            }
        uint64_t g = m / nmin;
        if (g < 2 * (uint64_t)active)
            g = 2 * m / nmin;
        if (g > m)
            g = m;
        for (size_t i = 0; i < p; i++)
            share[i] = (double)s.n[i];
        dls__lu_hsp_constant(p, share, room, g, d);
        /* slowest first: the speed each processor shows at this step */
        size_t k = 0;
        for (size_t i = 0; i < p; i++)
            if (d[i] > 0) {
                order[k].key = (double)m * (double)s.n[i] / s.t0[i];
                order[k].index = i;
                k++;
            }
        dls__keyed_sort(order, k);
        for (size_t q = 0; q < k; q++) {
            size_t i = order[q].index;
            for (uint64_t c = 0; c < d[i]; c++)
                owners[col++] = i;
            room[i] -= (double)d[i];
        }
        m -= g;
        r->groups++;
    }
out:
    free(room);
    free(share);
    free(d);
    free(order);
    dls__lu_hspf_free(&s);
    return st;
}
