/* LU column distributions with constant speeds (Lastovetsky and Reddy 2007b, section 4): Group
 * Block and Dynamic Programming, and the set partitioning of equal columns they rest on. Reverse
 * shares the code of Functional Reverse (lu_reverse.c) with constant step times. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "lu/lu_impl.h"

void dls__lu_hsp_constant(size_t p, const double *speed, const double *cap, uint64_t m,
                          uint64_t *out)
{
    /* water-filling: share what is left in proportion among the processors not at their
     * cap, clamp, repeat; at most p rounds, then fewer than p columns one by one */
    memset(out, 0, p * sizeof *out);
    uint64_t left = m;
    for (size_t round = 0; round <= p && left > 0; round++) {
        double total = 0;
        for (size_t i = 0; i < p; i++)
            if (speed[i] > 0 && (double)out[i] < cap[i])
                total += speed[i];
        if (!(total > 0))
            break;
        uint64_t given = 0;
        int clamped = 0;
        for (size_t i = 0; i < p; i++) {
            if (!(speed[i] > 0) || !((double)out[i] < cap[i]))
                continue;
            double want = floor((double)left * (speed[i] / total));
            double room = cap[i] - (double)out[i];
            if (want >= room) {
                want = room;
                clamped = 1;
            }
            out[i] += (uint64_t)want;
            given += (uint64_t)want;
        }
        left -= given;
        if (!clamped)
            break;
    }
    while (left > 0) {
        size_t best = p;
        double br = INFINITY;
        for (size_t i = 0; i < p; i++)
            if (speed[i] > 0 && (double)out[i] < cap[i]) {
                double r = (double)(out[i] + 1) / speed[i];
                if (r < br) {
                    br = r;
                    best = i;
                }
            }
        if (best == p)
            break; /* the caps hold fewer than m: the caller checked */
        out[best]++;
        left--;
    }
}

/* Processor indices sorted by increasing key, ties by index. */
dls_status dls__lu_group_block(const lu_eval *e, uint64_t n, size_t *owners, dls_lu *r,
                               dls_error *err)
{
    size_t p = e->p;
    double total = 0, smin = INFINITY;
    for (size_t i = 0; i < p; i++) {
        total += e->speed[i];
        smin = e->speed[i] < smin ? e->speed[i] : smin;
    }
    /* group size floor(1 / min relative speed), doubled when it gives fewer than two
     * columns per processor; never larger than the matrix */
    double g = floor(total / smin);
    if (g < 2.0 * (double)p)
        g = floor(2.0 * total / smin);
    if (!(g <= (double)n))
        g = (double)n;
    uint64_t size = (uint64_t)g;
    uint64_t *d = malloc(p * sizeof *d);
    dls__keyed *order = malloc(p * sizeof *order);
    size_t *pattern = malloc((size_t)size * sizeof *pattern);
    double *nocap = calloc(p, sizeof *nocap);
    if (d == NULL || order == NULL || pattern == NULL || nocap == NULL) {
        free(d);
        free(order);
        free(pattern);
        free(nocap);
        return dls__oom(err, "lu");
    }
    for (size_t i = 0; i < p; i++) {
        nocap[i] = INFINITY;
        order[i].key = e->speed[i];
        order[i].index = i;
    }
    dls__lu_hsp_constant(p, e->speed, nocap, size, d);
    dls__keyed_sort(order, p); /* slowest first */
    uint64_t at = 0;
    for (size_t k = 0; k < p; k++)
        for (uint64_t c = 0; c < d[order[k].index]; c++)
            pattern[at++] = order[k].index;
    for (uint64_t j = 0; j < n; j++)
        owners[j] = pattern[j % size];
    r->groups = (size_t)((n + size - 1) / size);
    memset(d, 0, p * sizeof *d);
    for (uint64_t j = 0; j < n; j++)
        d[owners[j]]++;
    for (size_t i = 0; i < p; i++)
        if ((double)d[i] > e->cap[i]) {
            r->status = DLS_SOLUTION_NOT_FOUND;
            snprintf(r->note, sizeof r->note, "Group Block's groups of %llu columns give "
                     "processor \"%s\" %llu columns, more than its limit of %.0f; use dp or "
                     "reverse, which respect limits", (unsigned long long)size,
                     dls_platform_name(e->pl, i),
                     (unsigned long long)d[i], e->cap[i]);
            break;
        }
    free(d);
    free(order);
    free(pattern);
    free(nocap);
    return DLS_OK;
}

dls_status dls__lu_dp(const lu_eval *e, uint64_t n, size_t *owners, dls_error *err)
{
    size_t p = e->p;
    uint64_t *c = calloc(p, sizeof *c);
    if (c == NULL)
        return dls__oom(err, "lu");
    /* from the last column backwards, each to the processor whose time grows least */
    for (uint64_t k = 1; k <= n; k++) {
        size_t best = 0;
        double br = INFINITY;
        for (size_t i = 0; i < p; i++)
            if ((double)c[i] < e->cap[i]) {
                double ratio = (double)(c[i] + 1) / e->speed[i];
                if (ratio < br) {
                    br = ratio;
                    best = i;
                }
            }
        owners[n - k] = best;
        c[best]++;
    }
    free(c);
    return DLS_OK;
}
