/* The best distribution of the columns of one LU step alone (HSP and HSPF of Lastovetsky and Reddy
 * 2007b): minimise max_i T_i(m, n_i) subject to sum_i n_i = m and the caps.
 *
 * When every c -> T_i(m, c) is nondecreasing, a distribution is optimal exactly when no
 * single move of a column lowers the largest time: max_i T_i(n_i) <= min_j T_j(n_j + 1).
 * The solver therefore starts from the previous step's distribution (the paper's steps
 * differ by one column), adds or removes columns greedily, then moves columns from the
 * slowest to the fastest next one until that holds: a few passes over the models per
 * step instead of a full partitioning. The first solve bisects on the step time.
 * Otherwise (a time that decreases somewhere: cache effects) a step is solved exactly by
 * dynamic programming over the processors when that is cheap enough. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lu/lu_impl.h"

/* A warm start farther than this many columns per processor restarts by bisection. */
#define WARM_COLUMNS_PER_PROC 8

dls_status dls__lu_hspf_init(lu_hspf *s, const lu_eval *e, dls_error *err)
{
    memset(s, 0, sizeof *s);
    s->e = e;
    s->p = e->p;
    s->cap = e->cap;
    s->m = UINT64_MAX;
    s->n = calloc(e->p, sizeof *s->n);
    s->t0 = malloc(e->p * sizeof *s->t0);
    s->t1 = malloc(e->p * sizeof *s->t1);
    if (s->n == NULL || s->t0 == NULL || s->t1 == NULL) {
        dls__lu_hspf_free(s);
        return dls__oom(err, "lu");
    }
    return DLS_OK;
}

void dls__lu_hspf_free(lu_hspf *s)
{
    free(s->n);
    free(s->t0);
    free(s->t1);
    free(s->dp_g);
    free(s->dp_t);
    free(s->dp_choice);
    memset(s, 0, sizeof *s);
}

/* Most columns processor i may take out of m. */
static uint64_t ymax(const lu_hspf *s, size_t i, uint64_t m)
{
    return s->cap[i] < (double)m ? (uint64_t)s->cap[i] : m;
}

static double T(const lu_hspf *s, size_t i, uint64_t m, uint64_t c)
{
    return dls__lu_time(s->e, i, (double)m, (double)c);
}

static void eval_proc(lu_hspf *s, size_t i, uint64_t m)
{
    if (s->n[i] + 1 <= ymax(s, i, m)) {
        dls__lu_time_pair(s->e, i, (double)m, (double)s->n[i], &s->t0[i], &s->t1[i]);
    } else {
        s->t0[i] = T(s, i, m, s->n[i]);
        s->t1[i] = INFINITY;
    }
}

static int within(const lu_hspf *s, size_t i, uint64_t m, uint64_t y, double tau, int strict)
{
    double t = T(s, i, m, y);
    return strict ? t < tau : t <= tau;
}

/* Largest y in [lo, hi] with T_i(y) <= tau (strict: < tau), given that lo qualifies. */
static uint64_t last_within(const lu_hspf *s, size_t i, uint64_t m, uint64_t lo, uint64_t hi,
                            double tau, int strict)
{
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo + 1) / 2;
        if (within(s, i, m, mid, tau, strict))
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The same, searching up from lo by doubling steps: cheap when the answer is near lo,
 * as it is between neighbouring steps. */
static uint64_t last_within_up(const lu_hspf *s, size_t i, uint64_t m, uint64_t lo,
                               uint64_t hi, double tau, int strict)
{
    uint64_t step = 1;
    while (lo < hi) {
        uint64_t y = hi - lo > step ? lo + step : hi;
        if (!within(s, i, m, y, tau, strict))
            return last_within(s, i, m, lo, y - 1, tau, strict);
        lo = y;
        step *= 2;
    }
    return lo;
}

/* Largest y below bad (which fails) with T_i(y) < tau, searching down by doubling steps;
 * y = 0 always qualifies (no column, no time) when tau > 0. */
static uint64_t last_below_down(const lu_hspf *s, size_t i, uint64_t m, uint64_t bad,
                                double tau)
{
    uint64_t step = 1;
    for (;;) {
        uint64_t y = bad > step ? bad - step : 0;
        if (y == 0 || within(s, i, m, y, tau, 1))
            return last_within(s, i, m, y, bad - 1, tau, 1);
        bad = y;
        step *= 2;
    }
}

/* Number of columns whose time is within tau, over all processors. */
static double count_within(const lu_hspf *s, uint64_t m, double tau)
{
    double total = 0;
    for (size_t i = 0; i < s->p; i++)
        total += (double)last_within(s, i, m, 0, ymax(s, i, m), tau, 0);
    return total;
}

/* The canonical optimal distribution for the optimal step time tau (see lu_impl.h):
 * L_i columns strictly below tau, U_i within tau, the ties to the lowest indices. */
static void canonical(lu_hspf *s, uint64_t m, double tau, int from_current)
{
    uint64_t rest = m;
    for (size_t i = 0; i < s->p; i++) {
        /* from an optimum, only the processors at tau can have columns at tau */
        uint64_t lo = s->n[i];
        if (!from_current)
            lo = last_within(s, i, m, 0, ymax(s, i, m), tau, 1);
        else if (s->t0[i] >= tau && s->n[i] > 0)
            lo = last_below_down(s, i, m, s->n[i], tau);
        if (lo != s->n[i] || !from_current) {
            s->n[i] = lo;
            eval_proc(s, i, m);
        }
        rest -= lo;
    }
    for (size_t i = 0; i < s->p && rest > 0; i++) {
        if (s->t1[i] > tau)
            continue;
        uint64_t up = last_within_up(s, i, m, s->n[i] + 1, ymax(s, i, m), tau, 0);
        uint64_t add = up - s->n[i] < rest ? up - s->n[i] : rest;
        s->n[i] += add;
        rest -= add;
        eval_proc(s, i, m);
    }
}

static size_t argmax_t0(const lu_hspf *s)
{
    size_t a = 0;
    for (size_t i = 1; i < s->p; i++)
        if (s->t0[i] > s->t0[a])
            a = i;
    return a;
}

static size_t argmin_t1(const lu_hspf *s)
{
    size_t b = 0;
    for (size_t i = 1; i < s->p; i++)
        if (s->t1[i] < s->t1[b])
            b = i;
    return b;
}

/* From any distribution: reach m columns, then move columns while that lowers the
 * largest time. Optimal for monotone times. */
static void improve(lu_hspf *s, uint64_t m)
{
    size_t p = s->p;
    uint64_t sum = 0;
    for (size_t i = 0; i < p; i++) {
        uint64_t ym = ymax(s, i, m);
        if (s->n[i] > ym)
            s->n[i] = ym;
        sum += s->n[i];
        eval_proc(s, i, m);
    }
    while (sum > m) {
        size_t a = argmax_t0(s);
        s->n[a]--;
        eval_proc(s, a, m);
        sum--;
    }
    while (sum < m) {
        size_t b = argmin_t1(s);
        s->n[b]++;
        eval_proc(s, b, m);
        sum++;
    }
    for (;;) {
        size_t a = argmax_t0(s), b = argmin_t1(s);
        if (a == b || !(s->t1[b] < s->t0[a]))
            break;
        s->n[a]--;
        s->n[b]++;
        eval_proc(s, a, m);
        eval_proc(s, b, m);
    }
}

/* Exact minimisation of the largest time for arbitrary step times, O(m sum_i ymax_i). */
static dls_status solve_dp(lu_hspf *s, uint64_t m, dls_error *err)
{
    size_t p = s->p, rows = (size_t)m + 1, tsize = 0;
    for (size_t i = 0; i < p; i++)
        tsize += (size_t)ymax(s, i, m) + 1;
    if (rows > s->dp_rows || tsize > s->dp_tsize) {
        free(s->dp_g);
        free(s->dp_t);
        free(s->dp_choice);
        s->dp_rows = rows > s->dp_rows ? rows : s->dp_rows;
        s->dp_tsize = tsize > s->dp_tsize ? tsize : s->dp_tsize;
        s->dp_g = malloc(2 * s->dp_rows * sizeof *s->dp_g);
        s->dp_t = malloc(s->dp_tsize * sizeof *s->dp_t);
        s->dp_choice = malloc(p * s->dp_rows * sizeof *s->dp_choice);
        if (s->dp_g == NULL || s->dp_t == NULL || s->dp_choice == NULL) {
            s->dp_rows = s->dp_tsize = 0;
            return dls__oom(err, "lu");
        }
    }
    double *g = s->dp_g, *h = s->dp_g + rows;
    g[0] = 0;
    for (size_t k = 1; k < rows; k++)
        g[k] = INFINITY;
    for (size_t i = 0; i < p; i++) {
        uint64_t ym = ymax(s, i, m);
        double *t = s->dp_t;
        for (uint64_t y = 0; y <= ym; y++)
            t[y] = T(s, i, m, y);
        uint32_t *ch = s->dp_choice + i * rows;
        for (size_t k = 0; k < rows; k++) {
            double best = INFINITY;
            uint32_t by = 0;
            uint64_t top = ym < k ? ym : k;
            for (uint64_t y = 0; y <= top; y++) {
                double v = g[k - y] > t[y] ? g[k - y] : t[y];
                if (v < best) {
                    best = v;
                    by = (uint32_t)y;
                }
            }
            h[k] = best;
            ch[k] = by;
        }
        double *tmp = g;
        g = h;
        h = tmp;
    }
    size_t k = rows - 1;
    for (size_t i = p; i-- > 0;) {
        s->n[i] = s->dp_choice[i * rows + k];
        k -= s->n[i];
    }
    for (size_t i = 0; i < p; i++)
        eval_proc(s, i, m);
    return DLS_OK;
}

dls_status dls__lu_hspf_solve(lu_hspf *s, uint64_t m, dls_error *err)
{
    size_t p = s->p;
    double work = 0;
    long bad = -1;
    for (size_t i = 0; i < p && !s->e->all_monotone; i++) {
        uint64_t ym = ymax(s, i, m);
        work += (double)m * (double)(ym + 1);
        if (bad < 0 && !dls__lu_monotone(s->e, i, (double)m, (double)ym))
            bad = (long)i;
    }
    uint64_t prev = s->m;
    s->m = m;
    s->exact = 1;
    s->not_exact_proc = -1;
    if (bad >= 0 && work <= DLS__LU_STEP_DP_WORK) {
        dls_status st = solve_dp(s, m, err);
        if (st != DLS_OK)
            return st;
        s->value = s->t0[argmax_t0(s)];
        return DLS_OK;
    }
    uint64_t dist = prev == UINT64_MAX ? UINT64_MAX : prev > m ? prev - m : m - prev;
    if (dist <= (uint64_t)WARM_COLUMNS_PER_PROC * p + 1) {
        improve(s, m);
        s->value = s->t0[argmax_t0(s)];
        if (bad < 0 && s->value > 0)
            canonical(s, m, s->value, 1);
    } else {
        /* bisection on the step time between 0 (no column) and the largest time at the
         * caps, down to adjacent doubles: the upper end is then the m-th smallest time */
        double lo = 0, hi = 0;
        for (size_t i = 0; i < p; i++) {
            double t = T(s, i, m, ymax(s, i, m));
            hi = t > hi ? t : hi;
        }
        for (;;) {
            double mid = lo + (hi - lo) / 2;
            if (!(mid > lo && mid < hi))
                break;
            if (count_within(s, m, mid) >= (double)m)
                hi = mid;
            else
                lo = mid;
        }
        canonical(s, m, hi, 0);
        if (bad >= 0) /* not monotone: the counts need not add up; repair greedily */
            improve(s, m);
        s->value = s->t0[argmax_t0(s)];
    }
    if (bad >= 0) {
        s->exact = 0;
        s->not_exact_proc = bad;
    }
    return DLS_OK;
}
