/* The best send order (dls_schedule_params::order = DLS_ORDER_BEST): the order and, with
 * selection, the set of processors that give the least makespan.
 *
 * - A rule where one is proven for the platform, every time linear through the origin and
 *   no limits: without startups every processor is used and serving the links by
 *   increasing rate is optimal (Bharadwaj et al.; Beaumont et al.), equal rates by
 *   increasing slope; with every link the same (startup and rate), serving the fastest
 *   processors first is (Bharadwaj et al., bus networks). Both checked against every
 *   permutation in tests/schedule/test_order_best.c.
 * - Up to order_exact_max processors: the dynamic programme over the sets served last on
 *   the chain's value functions (src/chain/order.c), exact.
 * - Beyond: the rules (the platform's order, increasing rate, the rate with ties by speed,
 *   decreasing speed, increasing cost of an even share) priced by the chain solver, the
 *   best one improved by a local search (swaps of neighbours, then moves of one processor
 *   by a few places, to the front and to the back), first improvement, until no move
 *   improves, the candidates run out or the clock passes the limit. Deterministic: the
 *   moves are tried in a fixed order and only the clock can stop them earlier (said).
 * Every candidate is priced by the chain solver in the schedule's model (the paper's, or
 * the best set for the order), so the order found is never worse than the platform's or
 * the rate order, which are candidates too.
 *
 * The lower bound no order can beat relaxes the single port: every link may send at the
 * same time, so processor k can take any load it finishes alone by T (its startup, its
 * send and its compute in sequence); the least T at which these loads hold V bounds every
 * order's makespan from below. In the paper's model every processor is also charged: the
 * last send ends after every startup, and each processor's startup and smallest compute
 * time fit within T. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/sort.h"
#include "chain/chain.h"
#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"

/* A candidate improves on the incumbent when its makespan is lower by more than this
 * (relative): less is rounding, and a search that chased it could cycle. */
#define DLS__ORDER_IMPROVE_TOL 0x1p-40
/* The exact search's order, solved again, must give its optimum within this (relative) for
 * the order to be called proven best. */
#define DLS__ORDER_EXACT_TOL 1e-9
/* The search's default budget: this many candidates per processor... (a candidate costs
 * a chain solve, some tens of passes over its processors with selection: 3 ms at 100
 * processors, 9 ms at 1000 on the project's machine), within
 * [DLS__ORDER_MIN_CANDIDATES, DLS__ORDER_MAX_CANDIDATES]: about 3 s up to 1000 processors,
 * and at 10^6 the two rules that cost least, so that the search costs a few solves of one
 * order (doc/BENCHMARKS.md). */
#define DLS__ORDER_WORK 3e5
#define DLS__ORDER_MIN_CANDIDATES 2
#define DLS__ORDER_MAX_CANDIDATES 1000
/* Moves of one processor by up to this many places each way (beyond that, to the front
 * and to the back only). */
#define DLS__ORDER_MOVE_REACH 4
/* Bisection steps of the lower bound: each halves the interval, from the known makespan
 * down (2^-40 of it is far below any use of the bound). */
#define DLS__ORDER_BOUND_STEPS 40

/* The search's state: the star in the platform's order, the chain's parameters, what was
 * spent. */
typedef struct search {
    const dls__star *st;
    dls__chain_params cp;
    size_t candidates, budget;
    double deadline;
    int stopped;          /* the clock stopped the search */
    unsigned char *used;  /* by position: given a load by the last order priced */
    unsigned char *kept;  /* ... by the incumbent's */
    size_t *tmp;          /* m positions of scratch */
    dls__chain_suffix *suffix; /* the incumbent's suffixes, when they fit (NULL: each
                                  candidate solved whole) */
    size_t reused;        /* stages the suffixes saved */
    size_t first;         /* positions 0..first-1: the originator's own processors, served
                             first in every order (dls_schedule_params::originator_computes) */
} search;

/* The originator's own processors (positions below s->first) moved to the front of pos,
 * the others in their order: they receive without a send, first, whatever the order. */
static void own_first(const search *s, size_t *pos, size_t *tmp)
{
    size_t m = s->st->m, k = 0;
    if (s->first == 0)
        return;
    for (size_t i = 0; i < m; i++)
        if (pos[i] < s->first)
            tmp[k++] = pos[i];
    for (size_t i = 0; i < m; i++)
        if (pos[i] >= s->first)
            tmp[k++] = pos[i];
    memcpy(pos, tmp, m * sizeof *pos);
}

/* The makespan of the positions in order pos (the chain's, in the schedule's model); the
 * positions it gives a load are marked in s->used. */
static dls_status price(search *s, const size_t *pos, double *T, dls_error *err)
{
    dls__star perm;
    dls_status st = dls__star_permute(s->st, pos, &perm, err);
    if (st != DLS_OK)
        return st;
    dls__chain_answer a;
    st = dls__chain_solve(&perm, &s->cp, &a, err);
    if (st == DLS_OK) {
        *T = a.infeasible ? INFINITY : a.makespan;
        for (size_t k = 0; k < perm.m; k++)
            s->used[pos[k]] = !a.infeasible && a.alpha[k] > 0;
        dls__chain_answer_free(&a);
    }
    dls__star_free(&perm);
    s->candidates++;
    return st;
}

/* Positions sorted by key (ties by tie, then by position). */
static int sort_positions(size_t m, const double *key, const double *tie, size_t *pos)
{
    dls__keyed *k = malloc((m ? m : 1) * sizeof *k);
    size_t *at = malloc((m ? m : 1) * sizeof *at);
    if (k == NULL || at == NULL) {
        free(k);
        free(at);
        return -1;
    }
    /* the ranks of the ties become the indices that break the key's ties */
    for (size_t i = 0; i < m; i++) {
        k[i].key = tie ? tie[i] : 0;
        k[i].index = i;
    }
    dls__keyed_sort(k, m);
    for (size_t r = 0; r < m; r++)
        at[r] = k[r].index;
    for (size_t r = 0; r < m; r++) {
        k[r].key = key[at[r]];
        k[r].index = r;
    }
    dls__keyed_sort(k, m);
    for (size_t i = 0; i < m; i++)
        pos[i] = at[k[i].index];
    free(k);
    free(at);
    return 0;
}

/* Position k's compute time for x units (its time lines). */
static double line_time(const dls__star *st, size_t k, double x)
{
    double t = -INFINITY;
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++)
        t = fmax(t, st->a[l] + st->b[l] * x);
    return t;
}

/* The rule proven for this star, if any: RULE_RATE when no position has a startup;
 * RULE_SPEED when every link is the same (startup and rate); both need one line through
 * the origin per position and no limit. */
enum { RULE_NONE, RULE_RATE, RULE_SPEED };
static int proven_rule(const dls__star *st)
{
    int no_startup = 1, same_link = 1;
    for (size_t k = 0; k < st->m; k++) {
        if (st->off[k + 1] - st->off[k] != 1 || st->a[st->off[k]] != 0 || isfinite(st->B[k]))
            return RULE_NONE;
        no_startup &= st->S[k] == 0;
        same_link &= st->S[k] == st->S[0] && st->C[k] == st->C[0];
    }
    return no_startup ? RULE_RATE : same_link ? RULE_SPEED : RULE_NONE;
}

/* The most load position k finishes alone by T (its link to itself): 0 when none. */
static double alone(const dls__star *st, size_t k, double T)
{
    double cap = st->B[k];
    for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
        double room = T - st->S[k] - st->a[l], w = st->C[k] + st->b[l];
        double c = room < 0 ? 0 : w > 0 ? room / w : INFINITY;
        cap = fmin(cap, c);
    }
    return cap;
}

/* The least time the port needs to send V in loads of at most cap[k] each, at u[k] seconds
 * per unit (n entries; both arrays are reordered): the cheapest units first, found by
 * selection in O(n) expected time (a sort at 10^6 processors and each bisection step would
 * cost more than the search). */
static double cheapest_fill(double *u, double *cap, size_t n, double V)
{
    double time = 0;
    size_t lo = 0, hi = n;
    unsigned seed = 12345u; /* the pivots' sequence: deterministic */
    while (lo < hi && V > 0) {
        seed = seed * 1103515245u + 12345u;
        size_t pi = lo + (size_t)(seed >> 8) % (hi - lo);
        double pu = u[pi];
        /* three-way partition of [lo, hi): below, equal, above the pivot's cost */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            if (u[i] < pu) {
                double t = u[i]; u[i] = u[lt]; u[lt] = t;
                t = cap[i]; cap[i] = cap[lt]; cap[lt] = t;
                lt++, i++;
            } else if (u[i] > pu) {
                gt--;
                double t = u[i]; u[i] = u[gt]; u[gt] = t;
                t = cap[i]; cap[i] = cap[gt]; cap[gt] = t;
            } else {
                i++;
            }
        }
        double below = 0, below_time = 0;
        for (size_t k = lo; k < lt; k++) {
            below += cap[k];
            below_time += u[k] * cap[k];
        }
        if (below >= V) {
            hi = lt; /* the fill ends among the cheaper ones */
            continue;
        }
        time += below_time;
        V -= below;
        double eq = 0;
        for (size_t k = lt; k < gt; k++)
            eq += cap[k];
        if (eq >= V)
            return time + pu * V;
        time += pu * eq;
        V -= eq;
        lo = gt;
    }
    return V > 0 ? INFINITY : time;
}

double dls__order_bound(const dls__star *st, int charge_all, double upper)
{
    size_t m = st->m;
    double lo = 0, sum_s = 0;
    if (charge_all) {
        /* the last send ends after every startup; every processor is charged */
        double min_a = INFINITY;
        for (size_t k = 0; k < m; k++) {
            double amax = line_time(st, k, 0);
            sum_s += st->S[k];
            min_a = fmin(min_a, amax);
            lo = fmax(lo, st->S[k] + amax);
        }
        lo = fmax(lo, sum_s + min_a);
    }
    double hi = upper;
    double *u = malloc((m ? m : 1) * sizeof *u), *cap = malloc((m ? m : 1) * sizeof *cap);
    if (u == NULL || cap == NULL || !(hi > lo)) {
        free(u);
        free(cap);
        return fmin(lo, upper); /* out of memory: the weaker bound */
    }
    for (int i = 0; i < DLS__ORDER_BOUND_STEPS; i++) {
        double mid = lo + (hi - lo) / 2;
        if (!(mid > lo && mid < hi))
            break;
        /* each processor alone within mid, and the port sending every load within mid:
         * a startup counts in proportion to the load (exact at 0 and at the cap, below the
         * true startup between: a relaxation) unless every processor is charged anyway */
        double held = 0;
        size_t n = 0;
        for (size_t k = 0; k < m; k++) {
            double c = alone(st, k, mid);
            if (!(c > 0))
                continue;
            held += c;
            cap[n] = c;
            u[n++] = st->C[k] + (charge_all || !isfinite(c) ? 0 : st->S[k] / c);
        }
        int feasible = held >= st->V && sum_s + cheapest_fill(u, cap, n, st->V) <= mid;
        if (feasible)
            hi = mid;
        else
            lo = mid;
    }
    free(u);
    free(cap);
    return lo;
}

/* Tries the order cand, equal to the incumbent from position `from` on: the incumbent
 * (best, bestT) takes it when it improves. With the suffixes' value functions (s->suffix)
 * only the stages before `from` are priced, and an improvement rebuilds them. */
static dls_status try_order(search *s, const size_t *cand, size_t from, size_t *best,
                            double *bestT, int *improved, dls_error *err)
{
    double T;
    dls_status st;
    if (s->suffix) {
        st = dls__chain_suffix_price(s->suffix, cand, from, &T, err);
        s->candidates++;
        s->reused += s->st->m - from;
    } else {
        st = price(s, cand, &T, err);
    }
    *improved = st == DLS_OK && T < *bestT * (1 - DLS__ORDER_IMPROVE_TOL);
    if (*improved) {
        memcpy(best, cand, s->st->m * sizeof *best);
        *bestT = T;
        if (s->suffix)
            st = dls__chain_suffix_set(s->suffix, best, &T, err);
        else
            memcpy(s->kept, s->used, s->st->m);
    }
    return st;
}

/* Whether the search must stop: candidates spent or the clock past the deadline. */
static int spent(search *s)
{
    if (s->candidates >= s->budget)
        return 1;
    if (dls__clock_now() > s->deadline) {
        s->stopped = 1;
        return 1;
    }
    return 0;
}

/* The local search from best (its makespan bestT) over its first u positions (the ones
 * used; the rest stay after them). */
static dls_status local_search(search *s, size_t u, size_t *best, double *bestT, size_t *cand,
                               dls_error *err)
{
    size_t m = s->st->m;
    dls_status st = DLS_OK;
    int better = 1;
    while (better && st == DLS_OK && !spent(s)) {
        better = 0;
        /* swaps of neighbours */
        for (size_t k = s->first; k + 1 < u && st == DLS_OK && !spent(s); k++) {
            memcpy(cand, best, m * sizeof *cand);
            size_t t = cand[k];
            cand[k] = cand[k + 1];
            cand[k + 1] = t;
            int imp;
            st = try_order(s, cand, k + 2, best, bestT, &imp, err);
            better |= imp;
        }
        /* moves of one processor: a few places either way, to the front, to the back */
        for (size_t i = s->first; i < u && st == DLS_OK && !spent(s); i++) {
            size_t targets[2 * DLS__ORDER_MOVE_REACH + 2], nt = 0;
            for (size_t d = 2; d <= DLS__ORDER_MOVE_REACH; d++) {
                if (i >= s->first + d)
                    targets[nt++] = i - d;
                if (i + d < u)
                    targets[nt++] = i + d;
            }
            if (i > s->first + DLS__ORDER_MOVE_REACH)
                targets[nt++] = s->first;
            if (i + DLS__ORDER_MOVE_REACH + 1 < u)
                targets[nt++] = u - 1;
            for (size_t t = 0; t < nt && st == DLS_OK && !spent(s); t++) {
                size_t j = targets[t], x = best[i];
                memcpy(cand, best, m * sizeof *cand);
                if (j < i)
                    memmove(cand + j + 1, cand + j, (i - j) * sizeof *cand);
                else
                    memmove(cand + i, cand + i + 1, (j - i) * sizeof *cand);
                cand[j] = x;
                int imp;
                st = try_order(s, cand, (j > i ? j : i) + 1, best, bestT, &imp, err);
                better |= imp;
                if (imp)
                    break; /* best changed under i: on to the next processor */
            }
        }
    }
    return st;
}

/* The search's allocation failures, said one way. */
static dls_status out_of_memory(dls_error *err)
{
    return dls__oom(err, "schedule");
}

/* The rule orders, priced; the best into best, bestT. */
static dls_status rule_orders(search *s, size_t *best, double *bestT, size_t *cand,
                              dls_error *err)
{
    const dls__star *st = s->st;
    size_t m = st->m;
    double *key = malloc(m * sizeof *key), *tie = malloc(m * sizeof *tie);
    dls_status rc = DLS_OK;
    if (key == NULL || tie == NULL)
        rc = out_of_memory(err);
    double share = st->V / (double)m;
    for (int rule = 0; rule < 3 && rc == DLS_OK && !spent(s); rule++) {
        for (size_t k = 0; k < m; k++) {
            double t = line_time(st, k, share);
            switch (rule) {
            case 0: /* increasing rate, equal rates by decreasing speed */
                key[k] = st->C[k];
                tie[k] = t;
                break;
            case 1: /* decreasing speed: the even share's compute time */
                key[k] = t;
                tie[k] = st->C[k];
                break;
            default: /* increasing cost of an even share: startup, send and compute */
                key[k] = st->S[k] + st->C[k] * share + t;
                tie[k] = st->C[k];
                break;
            }
        }
        if (sort_positions(m, key, tie, cand) != 0) {
            rc = out_of_memory(err);
            break;
        }
        own_first(s, cand, s->tmp);
        int imp;
        rc = try_order(s, cand, 0, best, bestT, &imp, err);
    }
    free(key);
    free(tie);
    return rc;
}

/* The incumbent best takes the order cand (priced T, its used positions in s->used). */
static void take(search *s, size_t *best, double *bestT, const size_t *cand, double T)
{
    *bestT = T;
    memcpy(best, cand, s->st->m * sizeof *best);
    memcpy(s->kept, s->used, s->st->m);
}

/* Sets up the search: its budget, deadline, scratch and the originator's positions. */
static dls_status search_init(search *s, const dls_platform *pl, const dls__star *st,
                              const dls_schedule_params *par, const dls__chain_params *cp,
                              double start, dls_error *err)
{
    size_t m = st->m;
    memset(s, 0, sizeof *s);
    s->st = st;
    s->cp = *cp;
    s->deadline = start + par->order_time_limit;
    s->budget = par->order_max_candidates;
    if (s->budget == 0) {
        double b = DLS__ORDER_WORK / (double)m;
        s->budget = b < DLS__ORDER_MIN_CANDIDATES ? DLS__ORDER_MIN_CANDIDATES
                    : b > DLS__ORDER_MAX_CANDIDATES ? DLS__ORDER_MAX_CANDIDATES
                                                    : (size_t)b;
    }
    s->used = malloc(m);
    s->kept = malloc(m);
    s->tmp = malloc(m * sizeof *s->tmp);
    if (!s->used || !s->kept || !s->tmp)
        return out_of_memory(err);
    /* the star puts the originator's own processors first */
    while (par->originator_computes && s->first < m && !pl->procs[st->proc[s->first]].has_link)
        s->first++;
    return DLS_OK;
}

/* The platform's order and the rate order (the star's own order is the platform's): the
 * references, not the search's candidates; the better one becomes the incumbent. */
static dls_status reference_orders(search *s, size_t *best, double *bestT, size_t *cand,
                                   dls__order_result *res, dls_error *err)
{
    size_t m = s->st->m;
    for (size_t k = 0; k < m; k++)
        best[k] = k;
    dls_status rc = price(s, best, &res->given, err);
    memcpy(s->kept, s->used, m);
    *bestT = res->given;
    if (rc == DLS_OK && sort_positions(m, s->st->C, NULL, cand) != 0)
        rc = out_of_memory(err);
    if (rc == DLS_OK)
        rc = price(s, cand, &res->rate, err);
    if (rc == DLS_OK && res->rate < *bestT)
        take(s, best, bestT, cand, res->rate);
    s->candidates = 0;
    return rc;
}

/* Where a rule is proven for the platform: the rate order, equal rates by increasing slope;
 * or, the links all the same, by increasing slope (decreasing speed): C is the same for all
 * then. Its order is the answer. */
static dls_status rule_order(search *s, size_t *best, double *bestT, size_t *cand,
                             dls__order_result *res, dls_error *err)
{
    const dls__star *st = s->st;
    size_t m = st->m;
    double *b = malloc(m * sizeof *b);
    if (b == NULL)
        return out_of_memory(err);
    for (size_t k = 0; k < m; k++)
        b[k] = st->b[st->off[k]];
    int bad = sort_positions(m, st->C, b, cand);
    free(b);
    if (bad)
        return out_of_memory(err);
    own_first(s, cand, s->tmp);
    dls_status rc = price(s, cand, &res->found, err);
    if (rc != DLS_OK)
        return rc;
    s->candidates = 0;
    memcpy(best, cand, m * sizeof *best);
    *bestT = res->found;
    res->method = DLS_ORDER_METHOD_RULE;
    res->proven = 1;
    return DLS_OK;
}

/* The exact search (the chain's dynamic programme), its order solved again: proven best when
 * the two agree; the incumbent takes it when better. Past the search's bound on points it
 * gives way to the local search (said in the note). */
static dls_status exact_order(search *s, size_t *best, double *bestT, size_t *cand,
                              dls__order_result *res, dls_error *err)
{
    dls__chain_params ep = s->cp;
    ep.max_work = 0; /* the order search's own bound on points */
    size_t n_used = 0, points = 0;
    double T = NAN;
    dls_error e;
    dls_error_clear(&e);
    dls_status rc = dls__chain_best_order(s->st, &ep, *bestT, s->deadline, cand, &n_used, &T,
                                          &points, &e);
    res->points = points;
    if (rc == DLS_ELIMIT) {
        dls__note_add(&res->note, "%s; the order is the local search's", e.message);
        return DLS_OK;
    }
    if (rc != DLS_OK) {
        if (err)
            *err = e;
        return rc;
    }
    own_first(s, cand, s->tmp);
    double priced;
    size_t searched = s->candidates;
    rc = price(s, cand, &priced, err);
    s->candidates = searched;
    if (rc != DLS_OK)
        return rc;
    if (priced <= T * (1 + DLS__ORDER_EXACT_TOL)) {
        res->proven = 1;
        res->method = DLS_ORDER_METHOD_EXACT;
        res->found = T;
    } else {
        dls__note_add(&res->note, "the exact order search found %.17g s, but its order solved "
                      "again gives %.17g s: the order is the search's, not proven best", T,
                      priced);
    }
    if (priced < *bestT)
        take(s, best, bestT, cand, priced);
    return DLS_OK;
}

/* With selection, the search orders the processors the incumbent uses; the others stay
 * after them (sent nothing, wherever they are). Returns how many positions the moves
 * range over: u < m when that order is taken, m when not. */
static dls_status used_first(search *s, size_t *best, double *bestT, size_t *cand,
                             size_t *range, dls_error *err)
{
    size_t m = s->st->m, u = 0;
    int charge_all = s->cp.mode == DLS__CHAIN_PAPER;
    for (size_t k = 0; k < m; k++)
        if (best[k] < s->first || s->kept[best[k]] || charge_all)
            cand[u++] = best[k];
    size_t w = u;
    for (size_t k = 0; k < m; k++)
        if (!(best[k] < s->first || s->kept[best[k]] || charge_all))
            cand[w++] = best[k];
    own_first(s, cand, s->tmp);
    *range = m;
    if (u == m || spent(s))
        return DLS_OK;
    /* where the selection is a heuristic's (past its bound on pieces), where the unused
     * ones stand matters to it: the order is taken only when no worse */
    double T;
    dls_status rc = price(s, cand, &T, err);
    if (rc == DLS_OK && T <= *bestT) {
        memcpy(best, cand, m * sizeof *best);
        *bestT = T;
        *range = u;
    }
    return rc;
}

/* The local search from the incumbent. The moves are priced through the incumbent's
 * suffixes where their value functions fit; the order found is then solved whole again,
 * and kept only when no worse than where the moves started (rounding between the two
 * ways). */
static dls_status local_order(search *s, size_t *best, double *bestT, size_t *cand,
                              dls__order_result *res, dls_error *err)
{
    size_t m = s->st->m, u;
    dls_status rc = used_first(s, best, bestT, cand, &u, err);
    if (rc != DLS_OK)
        return rc;
    double startT = *bestT;
    memcpy(cand, best, m * sizeof *cand);
    dls_error e;
    dls_error_clear(&e);
    double T;
    if (dls__chain_suffix_create(s->st, &s->cp, *bestT, &s->suffix, &e) == DLS_OK &&
        dls__chain_suffix_set(s->suffix, best, &T, &e) != DLS_OK) {
        dls__chain_suffix_free(s->suffix);
        s->suffix = NULL;
    }
    size_t *from = malloc(m * sizeof *from);
    if (from == NULL)
        return out_of_memory(err);
    memcpy(from, best, m * sizeof *from);
    rc = local_search(s, u, best, bestT, cand, err);
    if (rc == DLS_OK && s->suffix && *bestT < startT) {
        size_t searched = s->candidates;
        rc = price(s, best, bestT, err);
        s->candidates = searched;
        if (rc == DLS_OK && *bestT > startT) {
            memcpy(best, from, m * sizeof *best);
            *bestT = startT;
        }
    }
    free(from);
    res->reused = s->reused;
    return rc;
}

/* The search for a platform no rule settles: the rules' best, then the exact search on
 * platforms small enough, the local search where that gives way. */
static dls_status searched_order(search *s, const dls_schedule_params *par, size_t *best,
                                 double *bestT, size_t *cand, dls__order_result *res,
                                 dls_error *err)
{
    size_t m = s->st->m;
    /* the rules: on small platforms their best narrows the exact search's window, on the
     * others the local search starts from it */
    res->method = DLS_ORDER_METHOD_SEARCH;
    dls_status rc = rule_orders(s, best, bestT, cand, err);
    if (rc != DLS_OK)
        return rc;
    size_t exact_max = par->order_exact_max ? par->order_exact_max : DLS_ORDER_DEFAULT_EXACT_MAX;
    if (m <= exact_max && m <= DLS__CHAIN_ORDER_MAX && !s->stopped) {
        rc = exact_order(s, best, bestT, cand, res, err);
        if (rc != DLS_OK || res->proven)
            return rc;
    }
    if (!s->stopped)
        rc = local_order(s, best, bestT, cand, res, err);
    if (rc != DLS_OK)
        return rc;
    if (s->stopped)
        dls__note_add(&res->note, "the order search stopped at its time limit (%g s) after %zu "
                      "candidates: another machine may stop elsewhere (set "
                      "order_max_candidates for the same answer everywhere)",
                      par->order_time_limit, s->candidates);
    res->found = *bestT;
    return DLS_OK;
}

dls_status dls__order_best(const dls_platform *pl, const dls__star *st,
                           const dls_schedule_params *par, const dls__chain_params *cp,
                           dls__order_result *res, dls_error *err)
{
    size_t m = st->m;
    memset(res, 0, sizeof *res);
    res->given = res->rate = res->bound = res->found = NAN;
    double start = dls__clock_now();
    search s;
    dls_status rc = search_init(&s, pl, st, par, cp, start, err);
    size_t *best = malloc(m * sizeof *best), *cand = malloc(m * sizeof *cand);
    res->seq = malloc(m * sizeof *res->seq);
    if (rc == DLS_OK && (!best || !cand || !res->seq))
        rc = out_of_memory(err);
    double bestT = NAN;
    if (rc == DLS_OK)
        rc = reference_orders(&s, best, &bestT, cand, res, err);
    if (rc == DLS_OK) {
        res->bound = dls__order_bound(st, s.cp.mode == DLS__CHAIN_PAPER, bestT);
        rc = proven_rule(st) != RULE_NONE ? rule_order(&s, best, &bestT, cand, res, err)
                                          : searched_order(&s, par, best, &bestT, cand, res,
                                                           err);
    }
    if (rc == DLS_OK) {
        for (size_t k = 0; k < m; k++)
            res->seq[k] = st->proc[best[k]];
        res->candidates = s.candidates;
        res->seconds = dls__clock_now() - start;
    }
    free(best);
    free(cand);
    free(s.used);
    free(s.kept);
    free(s.tmp);
    dls__chain_suffix_free(s.suffix);
    if (rc != DLS_OK)
        dls__order_result_free(res);
    return rc;
}

void dls__order_result_free(dls__order_result *res)
{
    free(res->seq);
    free(res->note);
    res->seq = NULL;
    res->note = NULL;
}
