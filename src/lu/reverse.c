/* Reverse and Functional Reverse (Lastovetsky and Reddy 2007b, sections 4 and 5.2): the best
 * distribution of every step alone, compared with the next one; a column goes to the only processor
 * that loses one, and when the distributions do not nest, the columns wait until they
 * do and are then ordered by a heuristic (cycl, ftos, stof, dflt) or exhaustively. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu/lu_impl.h"
#include "core/grow.h"
#include "core/sort.h"

/* The auto heuristic searches a group exhaustively when its states are at most this
 * many times the evaluations of one cheap order. */
#define AUTO_EXHAUSTIVE_FACTOR 16.0

typedef struct group_ctx {
    const lu_eval *e;
    uint64_t n;
    size_t p;
    size_t *owners;
    const uint64_t *after;  /* trailing counts after the group (its last step's) */
    uint64_t *vec;          /* scratch of p counts */
    size_t *order;          /* scratch: an order of the group's columns */
    size_t *best;           /* scratch: the best order so far */
    size_t order_cap;
} group_ctx;

/* Cost of the steps inside a group: columns first .. first+len-1 (0-based) ordered as
 * ord; the steps whose trailing matrix starts inside the group. step_cost, when not
 * NULL, receives each of them (indexed by step - 1). */
static double group_cost(group_ctx *g, uint64_t first, uint64_t len, const size_t *ord,
                         double *step_cost)
{
    memcpy(g->vec, g->after, g->p * sizeof *g->vec);
    double sum = 0;
    /* step k (1-based) has trailing columns k+1 .. n: walking back from the last column
     * of the group, after adding column first+t (0-based) the vector is step first+t's */
    for (uint64_t t = len; t-- > 1;) {
        g->vec[ord[t]]++;
        uint64_t step = first + t;
        double h = (double)(g->n - step), worst = 0;
        for (size_t i = 0; i < g->p; i++) {
            double v = dls__lu_time(g->e, i, h, (double)g->vec[i]);
            worst = v > worst ? v : worst;
        }
        if (step_cost)
            step_cost[step - 1] = worst;
        sum += worst;
    }
    return sum;
}

dls_status dls__lu_heuristic_order(dls_lu_heuristic h, size_t p, const uint64_t *delta, size_t *ord,
                                   dls_error *err)
{
    size_t at = 0;
    if (h == DLS_LU_CYCL) {
        uint64_t *left = malloc(p * sizeof *left);
        if (left == NULL)
            return dls__oom(err, "lu");
        memcpy(left, delta, p * sizeof *left);
        for (int more = 1; more;) {
            more = 0;
            for (size_t i = 0; i < p; i++)
                if (left[i] > 0) {
                    ord[at++] = i;
                    more |= --left[i] > 0;
                }
        }
        free(left);
        return DLS_OK;
    }
    dls__keyed *k = malloc(p * sizeof *k);
    if (k == NULL)
        return dls__oom(err, "lu");
    for (size_t i = 0; i < p; i++) {
        k[i].key = (double)delta[i]; /* exact: counts are below 2^53 */
        k[i].index = i;
    }
    if (h == DLS_LU_FTOS)
        dls__keyed_sort_down(k, p);
    else if (h == DLS_LU_STOF)
        dls__keyed_sort(k, p);
    for (size_t r = 0; r < p; r++)
        for (uint64_t c = 0; c < delta[k[r].index]; c++)
            ord[at++] = k[r].index;
    free(k);
    return DLS_OK;
}

/* The box of count vectors between the distribution after a group and the one before it:
 * mixed radix over the r processors that gain columns, their times, and the shortest
 * path's values. */
typedef struct box {
    size_t r, nstates;
    size_t *proc, *stride;
    uint64_t *digit;
    double *f;              /* the best cost to reach each state */
    unsigned short *choice; /* which processor's column it came from */
    double *fixed;          /* largest time of the processors outside the group, per level */
    double *tab;            /* the group's times per level, when tabulated (else NULL) */
    size_t *off, width;     /* where each processor's times start in a row of tab */
} box;

static void box_free(box *b)
{
    free(b->proc);
    free(b->stride);
    free(b->digit);
    free(b->f);
    free(b->choice);
    free(b->fixed);
    free(b->tab);
    free(b->off);
}

static int box_alloc(box *b, size_t p, uint64_t len, const uint64_t *delta)
{
    b->proc = malloc(b->r * sizeof *b->proc);
    b->stride = malloc(b->r * sizeof *b->stride);
    b->digit = calloc(b->r, sizeof *b->digit);
    b->f = malloc(b->nstates * sizeof *b->f);
    b->choice = malloc(b->nstates * sizeof *b->choice);
    b->fixed = malloc((size_t)len * sizeof *b->fixed);
    if (!b->proc || !b->stride || !b->digit || !b->f || !b->choice || !b->fixed)
        return -1;
    size_t q = 0, st = 1;
    for (size_t i = 0; i < p; i++)
        if (delta[i] > 0) {
            b->proc[q] = i;
            b->stride[q] = st;
            st *= (size_t)delta[i] + 1;
            q++;
        }
    DLS__ASSERT(q == b->r && st == b->nstates);
    return 0;
}

/* The times that do not depend on the state: the processors outside the group keep
 * their columns (their largest time at each level is computed once), and the group's own
 * times are tabulated per level when that takes fewer evaluations than computing them in
 * every state. */
static void box_times(box *b, const group_ctx *g, uint64_t first, uint64_t len,
                      const uint64_t *delta, size_t max_states)
{
    for (uint64_t j = 1; j < len; j++) {
        double h = (double)(g->n - (first + len - j)), worst = 0;
        for (size_t i = 0; i < g->p; i++)
            if (delta[i] == 0) {
                double v = dls__lu_time(g->e, i, h, (double)g->after[i]);
                worst = v > worst ? v : worst;
            }
        b->fixed[j] = worst;
    }
    b->width = 0;
    for (size_t c = 0; c < b->r; c++)
        b->width += (size_t)delta[b->proc[c]] + 1;
    double cells = (double)len * (double)b->width;
    if (cells > (double)b->nstates * (double)b->r || cells > 4.0 * (double)max_states)
        return;
    b->tab = malloc((size_t)len * b->width * sizeof *b->tab);
    b->off = malloc(b->r * sizeof *b->off);
    if (b->tab == NULL || b->off == NULL) {
        /* not needed: the times are then computed in every state */
        free(b->tab);
        free(b->off);
        b->tab = NULL;
        b->off = NULL;
        return;
    }
    size_t o = 0;
    for (size_t c = 0; c < b->r; c++) {
        b->off[c] = o;
        o += (size_t)delta[b->proc[c]] + 1;
    }
    for (uint64_t j = 1; j < len; j++) {
        double h = (double)(g->n - (first + len - j));
        for (size_t c = 0; c < b->r; c++)
            for (uint64_t a = 0; a <= delta[b->proc[c]] && a <= j; a++)
                b->tab[j * b->width + b->off[c] + a] =
                    dls__lu_time(g->e, b->proc[c], h, (double)(g->after[b->proc[c]] + a));
    }
}

/* The shortest path over the states in increasing index: every predecessor (one column
 * fewer) comes first. */
static void box_paths(box *b, const group_ctx *g, uint64_t first, uint64_t len,
                      const uint64_t *delta)
{
    uint64_t level = 0;
    for (size_t idx = 0; idx < b->nstates; idx++) {
        if (idx == 0) {
            b->f[0] = 0;
            b->choice[0] = 0;
        } else {
            double best = INFINITY;
            unsigned short bq = 0;
            for (size_t c = 0; c < b->r; c++)
                if (b->digit[c] > 0 && b->f[idx - b->stride[c]] < best) {
                    best = b->f[idx - b->stride[c]];
                    bq = (unsigned short)c;
                }
            /* level j (1 .. len-1) is the trailing vector of step first + len - j */
            if (level < len && best < INFINITY) {
                double h = (double)(g->n - (first + len - level)), worst = b->fixed[level];
                for (size_t c = 0; c < b->r; c++) {
                    size_t i = b->proc[c];
                    double v = b->tab ? b->tab[level * b->width + b->off[c] + b->digit[c]]
                                      : dls__lu_time(g->e, i, h, (double)(g->after[i] +
                                                                          b->digit[c]));
                    worst = v > worst ? v : worst;
                }
                best += worst;
            }
            b->f[idx] = best;
            b->choice[idx] = bq;
        }
        /* next state in mixed radix */
        for (size_t c = 0; c < b->r; c++) {
            if (b->digit[c] < delta[b->proc[c]]) {
                b->digit[c]++;
                level++;
                break;
            }
            level -= b->digit[c];
            b->digit[c] = 0;
        }
    }
}

/* The best order of the group: a shortest path through the count vectors between the
 * distribution after the group and the one before it, in mixed radix over the
 * processors that gain columns. states receives the box size; DLS_ELIMIT past max. */
static dls_status exhaustive_order(group_ctx *g, uint64_t first, uint64_t len,
                                   const uint64_t *delta, size_t max_states, size_t *ord,
                                   uint64_t *states, dls_error *err)
{
    box b;
    memset(&b, 0, sizeof b);
    double size = 1;
    for (size_t i = 0; i < g->p; i++)
        if (delta[i] > 0) {
            b.r++;
            size *= (double)(delta[i] + 1);
        }
    *states = size < 1.8e19 ? (uint64_t)size : UINT64_MAX;
    if (size > (double)max_states)
        return dls__fail(err, DLS_ELIMIT, "lu", "exhaustive search of the group of columns %llu "
                         "to %llu needs %.4g states, more than the cap of %zu",
                         (unsigned long long)first + 1, (unsigned long long)(first + len),
                         size, max_states);
    b.nstates = (size_t)size;
    if (box_alloc(&b, g->p, len, delta) != 0) {
        box_free(&b);
        return dls__fail(err, DLS_ENOMEM, "lu", "out of memory for a group of %zu states",
                         b.nstates);
    }
    box_times(&b, g, first, len, delta, max_states);
    box_paths(&b, g, first, len, delta);
    /* from the full box back: the column added last is the group's first */
    size_t idx = b.nstates - 1;
    for (uint64_t t = 0; t < len; t++) {
        unsigned short c = b.choice[idx];
        ord[t] = b.proc[c];
        idx -= b.stride[c];
    }
    DLS__ASSERT(idx == 0);
    box_free(&b);
    return DLS_OK;
}

/* Assigns the columns first .. first+len-1 (0-based) whose counts are delta. */
static dls_status assign_group(group_ctx *g, uint64_t first, uint64_t len,
                               const uint64_t *delta, dls_lu_heuristic h, size_t max_states,
                               dls_lu *r, dls_error *err)
{
    size_t p = g->p;
    if (len == 1) {
        for (size_t i = 0; i < p; i++)
            if (delta[i] == 1)
                g->owners[first] = i;
        return DLS_OK;
    }
    r->groups++;
    size_t ca = g->order_cap, cb = g->order_cap;
    size_t *a = dls__grow(g->order, &ca, (size_t)len, sizeof *a);
    if (a == NULL)
        return dls__oom(err, "lu");
    g->order = a;
    size_t *b = dls__grow(g->best, &cb, (size_t)len, sizeof *b);
    if (b == NULL)
        return dls__oom(err, "lu");
    g->best = b;
    g->order_cap = ca;
    dls_status st;
    if (h == DLS_LU_EXHAUSTIVE || h == DLS_LU_AUTO) {
        uint64_t states;
        dls_error quiet;
        /* auto searches exhaustively when that costs about as much as trying the cheap
         * orders (each evaluates len steps of p processors) */
        double cheap = AUTO_EXHAUSTIVE_FACTOR * (double)len * (double)p;
        size_t cap = h == DLS_LU_AUTO && cheap < (double)max_states ? (size_t)cheap : max_states;
        st = exhaustive_order(g, first, len, delta, cap, g->best, &states,
                              h == DLS_LU_AUTO ? &quiet : err);
        if (st == DLS_OK) {
            r->states += states;
            memcpy(g->owners + first, g->best, (size_t)len * sizeof *g->best);
            return DLS_OK;
        }
        if (h == DLS_LU_EXHAUSTIVE || st != DLS_ELIMIT)
            return h == DLS_LU_AUTO
                       ? dls__fail(err, st, quiet.origin, "%s", dls__error_text(&quiet))
                       : st;
        /* too large: the best of the cheap orders */
        double best = INFINITY;
        for (int k = DLS_LU_CYCL; k <= DLS_LU_DFLT; k++) {
            st = dls__lu_heuristic_order((dls_lu_heuristic)k, p, delta, g->order, err);
            if (st != DLS_OK)
                return st;
            double c = group_cost(g, first, len, g->order, NULL);
            if (c < best) {
                best = c;
                memcpy(g->best, g->order, (size_t)len * sizeof *g->order);
            }
        }
        memcpy(g->owners + first, g->best, (size_t)len * sizeof *g->best);
        return DLS_OK;
    }
    st = dls__lu_heuristic_order(h, p, delta, g->owners + first, err);
    return st;
}

dls_status dls__lu_reverse(const lu_eval *e, uint64_t n, dls_lu_heuristic h,
                           size_t max_group_states, lu_progress *pr, size_t *owners,
                           dls_lu *r, dls_error *err)
{
    size_t p = e->p;
    lu_hspf s;
    dls_status st = dls__lu_hspf_init(&s, e, err);
    if (st != DLS_OK)
        return st;
    uint64_t *prev = malloc(p * sizeof *prev);
    uint64_t *delta = malloc(p * sizeof *delta);
    uint64_t *zero = calloc(p, sizeof *zero);
    group_ctx g = {e, n, p, owners, NULL, malloc(p * sizeof(uint64_t)), NULL, NULL, 0};
    if (prev == NULL || delta == NULL || zero == NULL || g.vec == NULL) {
        st = dls__oom(err, "lu");
        goto out;
    }
    st = dls__lu_hspf_solve(&s, n, err);
    if (st != DLS_OK)
        goto out;
    memcpy(prev, s.n, p * sizeof *prev);
    double bound = 0;
    long not_exact = -1;
    uint64_t not_exact_h = 0, wait = 0;
    for (uint64_t k = 1; k <= n; k++) {
        uint64_t m = n - k;
        const uint64_t *next = zero;
        if (m > 0) {
            st = dls__lu_hspf_solve(&s, m, err);
            if (st != DLS_OK)
                goto out;
            next = s.n;
            bound += s.value;
            r->step_cost[k - 1] = s.value; /* unless a group below rewrites it */
            if (!s.exact && not_exact < 0) {
                not_exact = s.not_exact_proc;
                not_exact_h = m;
            }
        }
        int nested = 1;
        for (size_t i = 0; i < p && nested; i++)
            nested = next[i] <= prev[i];
        if (!nested) {
            wait++;
            continue;
        }
        /* columns k - wait .. k (1-based) go together */
        for (size_t i = 0; i < p; i++)
            delta[i] = prev[i] - next[i];
        g.after = next;
        st = assign_group(&g, k - 1 - wait, wait + 1, delta, h, max_group_states, r, err);
        if (st != DLS_OK)
            goto out;
        if (wait > 0)
            group_cost(&g, k - 1 - wait, wait + 1, owners + (k - 1 - wait), r->step_cost);
        memcpy(prev, next, p * sizeof *prev);
        wait = 0;
        st = dls__lu_progress(pr, (double)k / (double)n, err);
        if (st != DLS_OK)
            goto out;
    }
    r->costs_known = 1;
    if (not_exact < 0) {
        r->lower_bound = bound;
    } else {
        r->lower_bound = NAN;
        snprintf(r->note, sizeof r->note, "no lower bound: the time of processor \"%s\" is "
                 "not monotone in its columns at height %llu, and the step is too large to "
                 "solve exactly", dls_platform_name(e->pl, (size_t)not_exact),
                 (unsigned long long)not_exact_h);
    }
out:
    dls__lu_hspf_free(&s);
    free(prev);
    free(delta);
    free(zero);
    free(g.vec);
    free(g.order);
    free(g.best);
    return st;
}
