/* Partitioning sets of weighted elements (paper 002): processor i's time is t_i(W_i), W_i
 * the sum of the weights it gets.
 *
 * - Unordered sets (NP-hard already with constant speeds): largest element first to the
 *   processor where it finishes first, then improving moves and swaps off the bottleneck.
 *   The lower bound is the largest of the continuous optimum, the best time of the
 *   largest element alone, and the best time of the two smallest of the p + 1 largest
 *   elements (two of them share a processor).
 * - Ordered sets in a fixed processor order: exact. For a time bound T, giving each
 *   processor in turn the longest prefix of what remains that it finishes within T decides
 *   feasibility exactly (times increase with the weight), so a bisection over the doubles
 *   between 0 and a feasible bound finds the smallest feasible T: the optimum.
 * - Ordered sets with reordering: every order for a few processors, else the best of a few
 *   natural orders improved by swaps of neighbours. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "partition/partition_impl.h"

/* Unordered sets up to this many element-processor pairs get the exact greedy choice;
 * larger ones fill processors towards their ideal weight instead. */
#define DLS_WEIGHTED_GREEDY_PAIRS 20000000.0
/* Swaps are tried when the bottleneck holds at most this many elements. */
#define DLS_WEIGHTED_SWAP_LIMIT 2000
/* Unordered sets of at most this many elements get an exact branch and bound after the
 * heuristic, within a budget of search nodes; when it finishes, the answer is optimal. */
#define DLS_WEIGHTED_EXACT_ELEMENTS 40
#define DLS_WEIGHTED_EXACT_NODES 2000000
/* Every processor order is tried for ordered sets up to this many processors. */
#define DLS_ORDER_EXHAUSTIVE_MAX 6

typedef struct wctx {
    const dls_model *const *models;
    const double *cap;
    size_t p;
    uint64_t n;
    const double *w;
} wctx;

static double ptime(const wctx *c, size_t i, double weight)
{
    return weight > 0 ? dls_model_time(c->models[i], weight) : 0.0;
}

/* ---------------------------------------------------------------------------------- */
/* Unordered                                                                          */

/* Sorts element indices by decreasing weight, ties by index (a merge sort, so that no
 * state outlives the call and no global is written). */
static void sort_desc(size_t *idx, size_t *tmp, size_t n, const double *w)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    sort_desc(idx, tmp, h, w);
    sort_desc(idx + h, tmp, n - h, w);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        size_t a = idx[i], b = idx[j];
        int take_a = w[a] > w[b] || (w[a] == w[b] && a < b);
        tmp[k++] = take_a ? idx[i++] : idx[j++];
    }
    while (i < h)
        tmp[k++] = idx[i++];
    while (j < n)
        tmp[k++] = idx[j++];
    memcpy(idx, tmp, n * sizeof *idx);
}

/* Best time of a weight alone on any processor that can hold it (INFINITY if none). */
static double best_alone(const wctx *c, double weight)
{
    double best = INFINITY;
    for (size_t i = 0; i < c->p; i++)
        if (weight <= c->cap[i])
            best = fmin(best, ptime(c, i, weight));
    return best;
}

/* Depth-first branch and bound over assignments, elements by decreasing weight: processor
 * times only grow, so a branch whose time reaches the incumbent is cut. */
typedef struct bnb {
    const wctx *c;
    const size_t *idx;   /* elements by decreasing weight */
    double *load;
    size_t *cur, *best;  /* assignment by position in idx */
    double best_t, stop_t;
    size_t nodes;
    int aborted;
} bnb;

static void bnb_search(bnb *s, size_t k, double sofar)
{
    const wctx *c = s->c;
    if (s->aborted || s->best_t <= s->stop_t)
        return;
    if (k == (size_t)c->n) {
        s->best_t = sofar;
        memcpy(s->best, s->cur, (size_t)c->n * sizeof *s->cur);
        return;
    }
    if (++s->nodes > DLS_WEIGHTED_EXACT_NODES) {
        s->aborted = 1;
        return;
    }
    double w = c->w[s->idx[k]];
    for (size_t i = 0; i < c->p; i++) {
        double nl = s->load[i] + w;
        if (nl > c->cap[i])
            continue;
        /* processors with equal load and model behave alike: try one of them */
        int twin = 0;
        for (size_t j = 0; j < i && !twin; j++)
            twin = s->load[j] == s->load[i] && c->cap[j] == c->cap[i] &&
                   dls_model_equal(c->models[j], c->models[i]);
        if (twin)
            continue;
        double t = fmax(sofar, ptime(c, i, nl));
        if (!(t < s->best_t))
            continue;
        s->load[i] = nl;
        s->cur[k] = i;
        bnb_search(s, k + 1, t);
        s->load[i] -= w;
    }
}

static dls_status unordered(const wctx *c, const dls_partition_params *par, double t_cont,
                            dls_partition *r, dls_error *err)
{
    size_t p = c->p, n = (size_t)c->n;
    size_t *idx = malloc(n * sizeof *idx), *tmp = malloc(n * sizeof *tmp);
    size_t *assign = malloc(n * sizeof *assign);
    double *load = calloc(p, sizeof *load);
    if (idx == NULL || tmp == NULL || assign == NULL || load == NULL) {
        free(idx);
        free(tmp);
        free(assign);
        free(load);
        return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
    }
    for (size_t e = 0; e < n; e++)
        idx[e] = e;
    sort_desc(idx, tmp, n, c->w);

    /* Lower bounds forced by the largest elements. */
    double lb = t_cont;
    int infeasible = 0;
    double one = best_alone(c, c->w[idx[0]]);
    if (isinf(one))
        infeasible = 1;
    lb = fmax(lb, one);
    if (n > p) {
        double two = best_alone(c, c->w[idx[p - 1]] + c->w[idx[p]]);
        if (isinf(two))
            infeasible = 1;
        lb = fmax(lb, two);
    }

    int found = !infeasible, proven = 0;
    if (found && (double)n * (double)p <= DLS_WEIGHTED_GREEDY_PAIRS) {
        /* largest first, each where it finishes first */
        for (size_t k = 0; k < n && found; k++) {
            size_t e = idx[k], best = p;
            double bt = INFINITY;
            for (size_t i = 0; i < p; i++) {
                double nl = load[i] + c->w[e];
                if (nl > c->cap[i])
                    continue;
                double t = ptime(c, i, nl);
                if (t < bt) {
                    bt = t;
                    best = i;
                }
            }
            if (best == p)
                found = 0;
            else {
                assign[e] = best;
                load[best] += c->w[e];
            }
        }
    } else if (found) {
        /* largest first, to the processor furthest below its ideal weight that can hold
         * it (among the 64 furthest, else the first that can) */
        size_t *items = malloc(p * sizeof *items);
        double *room = malloc(p * sizeof *room);
        if (items == NULL || room == NULL) {
            free(items);
            free(room);
            free(idx);
            free(tmp);
            free(assign);
            free(load);
            return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
        }
        dls__heap h = {items, 0, room, 1};
        for (size_t i = 0; i < p; i++) {
            room[i] = r->ideal[i];
            dls__heap_push(&h, i);
        }
        for (size_t k = 0; k < n && found; k++) {
            size_t e = idx[k];
            size_t tries[64], nt = 0, chosen = p;
            while (h.size > 0 && nt < 64) {
                size_t i = dls__heap_pop(&h);
                tries[nt++] = i;
                if (load[i] + c->w[e] <= c->cap[i]) {
                    chosen = i;
                    break;
                }
            }
            for (size_t i = 0; i < p && chosen == p; i++)
                if (load[i] + c->w[e] <= c->cap[i])
                    chosen = i;
            if (chosen == p) {
                found = 0;
                break;
            }
            assign[e] = chosen;
            load[chosen] += c->w[e];
            room[chosen] -= c->w[e];
            /* the tried processors go back, the chosen one with its new room; a chosen
             * processor found by the scan was never taken out */
            int tried = 0;
            for (size_t t = 0; t < nt; t++) {
                dls__heap_push(&h, tries[t]);
                tried |= tries[t] == chosen;
            }
            if (!tried) {
                /* its key changed while inside the heap: rebuild (rare: only when the 64
                 * roomiest processors were all too full) */
                h.size = 0;
                for (size_t i = 0; i < p; i++)
                    dls__heap_push(&h, i);
            }
        }
        free(items);
        free(room);
    }

    if (found) {
        /* Improving moves and swaps off the bottleneck. */
        double *time = malloc(p * sizeof *time);
        if (time == NULL) {
            free(idx);
            free(tmp);
            free(assign);
            free(load);
            return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
        }
        for (size_t i = 0; i < p; i++)
            time[i] = ptime(c, i, load[i]);
        for (size_t moves = 0; moves < par->max_moves; moves++) {
            size_t b = 0;
            for (size_t i = 1; i < p; i++)
                if (time[i] > time[b])
                    b = i;
            double top = time[b];
            int improved = 0;
            size_t on_b = 0;
            for (size_t e = 0; e < n && !improved; e++) {
                if (assign[e] != b)
                    continue;
                on_b++;
                double wb = load[b] - c->w[e], tb = ptime(c, b, wb);
                if (!(tb < top))
                    continue;
                for (size_t j = 0; j < p && !improved; j++) {
                    if (j == b || load[j] + c->w[e] > c->cap[j])
                        continue;
                    double tj = ptime(c, j, load[j] + c->w[e]);
                    if (tj < top) {
                        assign[e] = j;
                        load[b] = wb;
                        load[j] += c->w[e];
                        time[b] = tb;
                        time[j] = tj;
                        improved = 1;
                    }
                }
            }
            if (!improved && on_b <= DLS_WEIGHTED_SWAP_LIMIT) {
                for (size_t e = 0; e < n && !improved; e++) {
                    if (assign[e] != b)
                        continue;
                    for (size_t f = 0; f < n && !improved; f++) {
                        size_t j = assign[f];
                        if (j == b || !(c->w[f] < c->w[e]))
                            continue;
                        double wb = load[b] - c->w[e] + c->w[f];
                        double wj = load[j] - c->w[f] + c->w[e];
                        if (wb > c->cap[b] || wj > c->cap[j])
                            continue;
                        double tb = ptime(c, b, wb), tj = ptime(c, j, wj);
                        if (tb < top && tj < top) {
                            assign[e] = j;
                            assign[f] = b;
                            load[b] = wb;
                            load[j] = wj;
                            time[b] = tb;
                            time[j] = tj;
                            improved = 1;
                        }
                    }
                }
            }
            if (!improved)
                break;
        }
        free(time);
        if (n <= DLS_WEIGHTED_EXACT_ELEMENTS) {
            /* small sets: search for the optimum, the heuristic's answer as incumbent */
            size_t *cur = malloc(n * sizeof *cur), *best = malloc(n * sizeof *best);
            double *bl = calloc(p, sizeof *bl);
            if (cur == NULL || best == NULL || bl == NULL) {
                free(cur);
                free(best);
                free(bl);
                free(idx);
                free(tmp);
                free(assign);
                free(load);
                return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
            }
            double inc = 0;
            for (size_t i = 0; i < p; i++)
                inc = fmax(inc, ptime(c, i, load[i]));
            for (size_t k = 0; k < n; k++)
                best[k] = assign[idx[k]];
            bnb s = {c, idx, bl, cur, best, inc, lb, 0, 0};
            bnb_search(&s, 0, 0);
            for (size_t k = 0; k < n; k++)
                assign[idx[k]] = best[k];
            proven = !s.aborted;
            free(cur);
            free(best);
            free(bl);
        }
        /* loads summed afresh in element order, so that reported sizes do not carry the
         * rounding of the moves */
        for (size_t i = 0; i < p; i++) {
            r->sizes[i] = 0;
            r->elements[i] = 0;
        }
        for (size_t e = 0; e < n; e++) {
            r->sizes[assign[e]] += c->w[e];
            r->elements[assign[e]]++;
        }
        for (size_t i = 0; i < p; i++)
            r->times[i] = ptime(c, i, r->sizes[i]);
        r->assignment = assign;
        assign = NULL;
    }
    r->lower_bound = lb;
    if (infeasible) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        snprintf(r->note, sizeof r->note,
                 "infeasible: the limits cannot hold the largest elements (one weighs %.10g)",
                 c->w[idx[0]]);
    } else if (!found) {
        r->status = DLS_SOLUTION_NOT_FOUND;
        snprintf(r->note, sizeof r->note,
                 "no assignment within the limits was found (the heuristic ran out of room; "
                 "one may still exist)");
    } else {
        /* optimal when the search finished; else raised to optimal below if the gap is 0 */
        r->status = proven ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
    }
    if (r->status == DLS_SOLUTION_INFEASIBLE || r->status == DLS_SOLUTION_NOT_FOUND) {
        r->makespan = INFINITY;
        r->gap = INFINITY;
        r->metric = NAN;
    }
    free(idx);
    free(tmp);
    free(assign);
    free(load);
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Ordered                                                                            */

/* Greedy probe for the order `ord`: each processor takes the longest prefix it finishes
 * within t. Fills the chunk ends (end[k] for the k-th processor of the order) when given.
 * Returns 1 when everything is placed. */
static int probe(const wctx *c, const double *prefix, const size_t *ord, double t, size_t *end)
{
    size_t pos = 0, n = (size_t)c->n;
    for (size_t k = 0; k < c->p; k++) {
        size_t i = ord[k];
        /* largest j in [pos, n] with weight(pos..j) within cap and time within t */
        size_t lo = pos, hi = n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo + 1) / 2;
            double wt = prefix[mid] - prefix[pos];
            if (wt <= c->cap[i] && ptime(c, i, wt) <= t)
                lo = mid;
            else
                hi = mid - 1;
        }
        if (end)
            end[k] = lo;
        pos = lo;
    }
    return pos == n;
}

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double double_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

/* The optimal makespan for one processor order (INFINITY if the order cannot hold the
 * set within the caps), counting its bisection steps; end is scratch of p entries. */
static double order_optimum(const wctx *c, const double *prefix, const size_t *ord, size_t *end,
                            unsigned *steps)
{
    if (!probe(c, prefix, ord, INFINITY, end))
        return INFINITY;
    /* a feasible bound: the makespan of the greedy without a time bound */
    double hi = 0;
    size_t pos = 0;
    for (size_t k = 0; k < c->p; k++) {
        hi = fmax(hi, ptime(c, ord[k], prefix[end[k]] - prefix[pos]));
        pos = end[k];
    }
    /* bisection over the representations of positive doubles, which are ordered */
    uint64_t lo_b = 0, hi_b = bits_of(hi);
    while (hi_b - lo_b > 1) {
        uint64_t mid = lo_b + (hi_b - lo_b) / 2;
        if (probe(c, prefix, ord, double_of(mid), NULL))
            hi_b = mid;
        else
            lo_b = mid;
        (*steps)++;
    }
    return double_of(hi_b);
}

static void fill_ordered(const wctx *c, const double *prefix, const size_t *ord, double t,
                         dls_partition *r, size_t *end)
{
    probe(c, prefix, ord, t, end);
    size_t pos = 0;
    for (size_t k = 0; k < c->p; k++) {
        size_t i = ord[k];
        r->first[i] = pos;
        r->elements[i] = end[k] - pos;
        r->sizes[i] = prefix[end[k]] - prefix[pos];
        r->times[i] = ptime(c, i, r->sizes[i]);
        pos = end[k];
    }
}

/* Next permutation in lexicographic order; 0 after the last. */
static int next_permutation(size_t *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, rr = n - 1; l < rr; l++, rr--) {
        t = a[l];
        a[l] = a[rr];
        a[rr] = t;
    }
    return 1;
}

static dls_status ordered(const wctx *c, const dls_partition_params *par, dls_partition *r,
                          dls_error *err)
{
    size_t p = c->p, n = (size_t)c->n;
    double *prefix = malloc((n + 1) * sizeof *prefix);
    size_t *ord = calloc(p, sizeof *ord), *best = calloc(p, sizeof *best);
    size_t *end = malloc(p * sizeof *end);
    r->first = malloc(p * sizeof *r->first);
    if (prefix == NULL || ord == NULL || best == NULL || end == NULL || r->first == NULL) {
        free(prefix);
        free(ord);
        free(best);
        free(end);
        return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
    }
    prefix[0] = 0;
    for (size_t e = 0; e < n; e++)
        prefix[e + 1] = prefix[e] + c->w[e];
    for (size_t i = 0; i < p; i++)
        ord[i] = i;
    unsigned steps = 0;
    double best_t = order_optimum(c, prefix, ord, end, &steps);
    memcpy(best, ord, p * sizeof *ord);
    int exact = 1;
    if (par->reorder) {
        if (p <= DLS_ORDER_EXHAUSTIVE_MAX) {
            while (next_permutation(ord, p)) {
                double t = order_optimum(c, prefix, ord, end, &steps);
                if (t < best_t) {
                    best_t = t;
                    memcpy(best, ord, p * sizeof *ord);
                }
            }
        } else {
            exact = 0;
            /* natural orders: by decreasing, then increasing speed at the ideal size */
            for (int dir = 0; dir < 2; dir++) {
                for (size_t i = 0; i < p; i++)
                    ord[i] = i;
                for (size_t a = 1; a < p; a++) { /* insertion sort by speed */
                    size_t v = ord[a], b = a;
                    double sv = dls_model_speed(c->models[v], r->ideal[v]);
                    while (b > 0) {
                        double su = dls_model_speed(c->models[ord[b - 1]], r->ideal[ord[b - 1]]);
                        if (dir == 0 ? su >= sv : su <= sv)
                            break;
                        ord[b] = ord[b - 1];
                        b--;
                    }
                    ord[b] = v;
                }
                double t = order_optimum(c, prefix, ord, end, &steps);
                if (t < best_t) {
                    best_t = t;
                    memcpy(best, ord, p * sizeof *ord);
                }
            }
            /* swaps of neighbours while they help, at most 2p evaluations */
            memcpy(ord, best, p * sizeof *ord);
            for (size_t tries = 0, k = 0; tries < 2 * p; tries++, k = (k + 1) % (p - 1)) {
                size_t t0 = ord[k];
                ord[k] = ord[k + 1];
                ord[k + 1] = t0;
                double t = order_optimum(c, prefix, ord, end, &steps);
                if (t < best_t) {
                    best_t = t;
                    memcpy(best, ord, p * sizeof *ord);
                } else {
                    ord[k + 1] = ord[k];
                    ord[k] = t0;
                }
            }
        }
        r->order = malloc(p * sizeof *r->order);
        if (r->order == NULL) {
            free(prefix);
            free(ord);
            free(best);
            free(end);
            return dls__fail(err, DLS_ENOMEM, "partition: out of memory");
        }
        memcpy(r->order, best, p * sizeof *best);
    }
    r->steps += steps;
    if (isinf(best_t)) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        r->makespan = INFINITY;
        r->gap = INFINITY;
        r->metric = NAN;
        snprintf(r->note, sizeof r->note,
                 "infeasible: no %s of contiguous chunks fits within the limits",
                 par->reorder && exact ? "processor order" : "split");
        if (par->reorder && !exact)
            r->status = DLS_SOLUTION_NOT_FOUND;
    } else {
        fill_ordered(c, prefix, best, best_t, r, end);
        int shape_ok = 1;
        for (size_t i = 0; i < p; i++)
            if (c->models[i]->increasing_to < c->cap[i] &&
                c->models[i]->increasing_to < prefix[n])
                shape_ok = 0;
        r->shape_ok = shape_ok;
        r->status = exact && shape_ok ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
        if (!shape_ok)
            snprintf(r->note, sizeof r->note,
                     "some processor's time is not increasing with the weight: the chunks are "
                     "valid but may not be optimal");
    }
    free(prefix);
    free(ord);
    free(best);
    free(end);
    return DLS_OK;
}

dls_status dls__partition_weighted(const dls_model *const *models, const double *cap, size_t p,
                                   uint64_t n, const double *w, const dls_partition_params *par,
                                   dls_partition *r, dls_error *err)
{
    wctx c = {models, cap, p, n, w};
    if (n == 0)
        return DLS_OK;
    double total = 0;
    for (uint64_t e = 0; e < n; e++)
        total += w[e];
    dls__root root;
    dls_status st = dls__continuous_root(models, cap, p, total, DLS_PARTITION_NEWTON,
                                         total * 1e-12, 0, r->ideal, NULL, &root, err);
    if (st != DLS_OK)
        return st;
    r->steps = root.steps;
    if (root.t_root != root.t_eval)
        for (size_t i = 0; i < p; i++)
            r->ideal[i] = dls__size_for_time(models[i], root.t_root, cap[i], NULL);
    r->lower_bound = root.t_root;
    r->t_cont = root.t_root;
    if (par->ordered)
        st = ordered(&c, par, r, err);
    else
        st = unordered(&c, par, root.t_root, r, err);
    if (st == DLS_OK && r->status == DLS_SOLUTION_FEASIBLE && !par->ordered) {
        double m = 0;
        for (size_t i = 0; i < p; i++)
            m = fmax(m, r->times[i]);
        if (m <= r->lower_bound)
            r->status = DLS_SOLUTION_OPTIMAL;
    }
    return st;
}
