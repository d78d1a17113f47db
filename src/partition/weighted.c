/* Partitioning sets of weighted elements (Lastovetsky and Reddy 2006): processor i's time is
 * t_i(W_i), W_i the sum of the weights it gets.
 *
 * - Unordered sets (NP-hard already with constant speeds): largest element first to the
 *   processor where it finishes first, then improving moves and swaps off the bottleneck.
 *   The lower bound is the largest of the continuous optimum, the best time of the
 *   largest element alone, and the best time of the two smallest of the p + 1 largest
 *   elements (two of them share a processor).
 * - Ordered sets in a fixed processor order: exact when every time never falls as the
 *   weight grows (the model's increasing_to). For a time bound T, giving each processor in
 *   turn the longest prefix of what remains that it finishes within T then decides
 *   feasibility exactly, so a bisection over the doubles between 0 and a feasible bound
 *   finds the smallest feasible T: the optimum. When some time falls, neither holds in
 *   general: the greedy, keeping only bounds at which it placed everything, gives valid
 *   chunks, optimal when every time falls only above their makespan; else a dynamic
 *   programme over the chunk boundaries is exact, within a budget of time evaluations,
 *   and beyond it the greedy's chunks are reported as not proven optimal.
 * - Ordered sets with reordering: every order for a few processors, else the best of a few
 *   natural orders improved by swaps of neighbours. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/heap.h"
#include "core/sort.h"
#include "partition/partition_impl.h"

/* Unordered sets up to this many element-processor pairs get the exact greedy choice;
 * larger ones fill processors towards their ideal weight instead. */
#define DLS__WEIGHTED_GREEDY_PAIRS 20000000.0
/* Swaps are tried when the bottleneck holds at most this many elements. */
#define DLS__WEIGHTED_SWAP_LIMIT 2000
/* The greedy for large unordered sets looks for room among this many of the processors
 * furthest below their ideal weight (so at most this many heap pops per element) before it
 * falls back to the first processor that can hold the element. */
#define DLS__WEIGHTED_ROOMIEST_TRIES 64
/* Unordered sets of at most this many elements get an exact branch and bound after the
 * heuristic, within a budget of search nodes; when it finishes, the answer is optimal. */
#define DLS__WEIGHTED_EXACT_ELEMENTS 40
#define DLS__WEIGHTED_EXACT_NODES 2000000
/* Ordered sets whose times fall somewhere are solved by dynamic programming when it takes
 * at most this many time evaluations, all processor orders together (p (n + 1)(n + 2) / 2
 * per order; a points model takes some 10 ns, so about a second at worst, and pruning
 * often spares much of it); beyond, the greedy's chunks stand without proof of optimality.
 * For one order: n up to about 14000 on one processor, 7000 on four, 3500 on sixteen. */
#define DLS__ORDERED_DP_PAIRS 1e8
/* Every processor order is tried for ordered sets up to this many processors. */
#define DLS__ORDER_EXHAUSTIVE_MAX 6
/* The continuous optimum of a weighted set (the lower bound and the ideal shares) is
 * solved to this accuracy relative to the total weight: a few digits short of double
 * precision, so that Newton's method stops before it chases rounding. */
#define DLS__WEIGHTED_ROOT_REL_TOL 1e-12

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

/* An unordered set being assigned: the state the heuristic's phases share. */
typedef struct uwork {
    const wctx *c;
    size_t *idx;     /* n: the elements by decreasing weight, ties by index */
    size_t *assign;  /* n: the processor of each element */
    double *load;    /* p: the weight on each processor */
} uwork;

/* Fills u->idx; -1 when out of memory. */
static int sort_desc(uwork *u)
{
    size_t n = (size_t)u->c->n;
    dls__keyed *k = malloc(n * sizeof *k);
    if (k == NULL)
        return -1;
    for (size_t e = 0; e < n; e++) {
        k[e].key = u->c->w[e];
        k[e].index = e;
    }
    dls__keyed_sort_down(k, n);
    for (size_t e = 0; e < n; e++)
        u->idx[e] = k[e].index;
    free(k);
    return 0;
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

/* The lower bound: the continuous optimum t_cont, the best time of the largest element
 * alone, and with more elements than processors the best time of the two smallest of the
 * p + 1 largest together (two of them share a processor). Sets *infeasible when the caps
 * cannot hold one of these. */
static double lower_bound(const uwork *u, double t_cont, int *infeasible)
{
    const wctx *c = u->c;
    size_t p = c->p;
    double one = best_alone(c, c->w[u->idx[0]]);
    double lb = fmax(t_cont, one);
    *infeasible = isinf(one);
    if ((size_t)c->n > p) {
        DLS__ASSERT(c->w[u->idx[p - 1]] >= c->w[u->idx[p]]); /* idx is sorted */
        double two = best_alone(c, c->w[u->idx[p - 1]] + c->w[u->idx[p]]);
        if (isinf(two))
            *infeasible = 1;
        lb = fmax(lb, two);
    }
    return lb;
}

/* The processor where a weight w added to its load finishes first (the first of equals),
 * p when it fits nowhere. */
static size_t earliest(const uwork *u, double w)
{
    const wctx *c = u->c;
    size_t best = c->p;
    double bt = INFINITY;
    for (size_t i = 0; i < c->p; i++) {
        double nl = u->load[i] + w;
        if (nl > c->cap[i])
            continue;
        double t = ptime(c, i, nl);
        if (t < bt) {
            bt = t;
            best = i;
        }
    }
    return best;
}

/* Largest first, each element to the processor where it finishes first. Returns 0 when one
 * fits nowhere. */
static int place_earliest(uwork *u)
{
    const wctx *c = u->c;
    for (size_t k = 0; k < (size_t)c->n; k++) {
        size_t e = u->idx[k], best = earliest(u, c->w[e]);
        if (best == c->p)
            return 0;
        u->assign[e] = best;
        u->load[best] += c->w[e];
    }
    return 1;
}

/* Places element e for place_roomiest(): h holds the processors by decreasing room (their
 * ideal weight less their load). Returns 0 when e fits nowhere. */
static int place_one_roomiest(uwork *u, dls__heap *h, double *room, size_t e)
{
    const wctx *c = u->c;
    size_t p = c->p, tries[DLS__WEIGHTED_ROOMIEST_TRIES], nt = 0, chosen = p;
    double w = c->w[e];
    while (h->size > 0 && nt < DLS__WEIGHTED_ROOMIEST_TRIES) {
        size_t i = dls__heap_pop(h);
        tries[nt++] = i;
        if (u->load[i] + w <= c->cap[i]) {
            chosen = i;
            break;
        }
    }
    for (size_t i = 0; i < p && chosen == p; i++)
        if (u->load[i] + w <= c->cap[i])
            chosen = i;
    if (chosen == p)
        return 0;
    u->assign[e] = chosen;
    u->load[chosen] += w;
    room[chosen] -= w;
    /* the tried processors go back, the chosen one with its new room; a chosen processor
     * found by the scan was never taken out */
    int tried = 0;
    for (size_t t = 0; t < nt; t++) {
        dls__heap_push(h, tries[t]);
        tried |= tries[t] == chosen;
    }
    if (!tried) {
        /* its key changed while inside the heap: rebuild (rare: only when the roomiest
         * processors tried were all too full) */
        dls__heap_clear(h);
        for (size_t i = 0; i < p; i++)
            dls__heap_push(h, i);
    }
    return 1;
}

/* Largest first, each element to the processor furthest below its ideal weight that can
 * hold it (among the DLS__WEIGHTED_ROOMIEST_TRIES furthest, else the first that can): the
 * greedy for sets too large for place_earliest(). Returns 1 when every element is placed,
 * 0 when one fits nowhere, -1 when out of memory. */
static int place_roomiest(uwork *u, const double *ideal)
{
    size_t p = u->c->p;
    size_t *items = malloc(p * sizeof *items);
    double *room = malloc(p * sizeof *room);
    if (items == NULL || room == NULL) {
        free(items);
        free(room);
        return -1;
    }
    dls__heap h;
    dls__heap_init(&h, items, p, room, sizeof *room, DLS__HEAP_MAX);
    for (size_t i = 0; i < p; i++) {
        room[i] = ideal[i];
        dls__heap_push(&h, i);
    }
    int placed = 1;
    for (size_t k = 0; k < (size_t)u->c->n && placed; k++)
        placed = place_one_roomiest(u, &h, room, u->idx[k]);
    free(items);
    free(room);
    return placed;
}

/* Moves an element off the bottleneck b to another processor when both then finish before
 * b does now: the first such element, to the first such processor. Counts the elements on
 * b in *on_b (all of them when nothing moves). Returns whether one moved. */
static int move_off(uwork *u, double *time, size_t b, size_t *on_b)
{
    const wctx *c = u->c;
    double top = time[b];
    for (size_t e = 0; e < (size_t)c->n; e++) {
        if (u->assign[e] != b)
            continue;
        (*on_b)++;
        double wb = u->load[b] - c->w[e], tb = ptime(c, b, wb);
        if (!(tb < top))
            continue;
        for (size_t j = 0; j < c->p; j++) {
            if (j == b || u->load[j] + c->w[e] > c->cap[j])
                continue;
            double tj = ptime(c, j, u->load[j] + c->w[e]);
            if (tj < top) {
                u->assign[e] = j;
                u->load[b] = wb;
                u->load[j] += c->w[e];
                time[b] = tb;
                time[j] = tj;
                return 1;
            }
        }
    }
    return 0;
}

/* Swaps an element e of the bottleneck b with a lighter element f of another processor j
 * when both then finish before b does now: the first such pair. Returns whether it did. */
static int swap_off(uwork *u, double *time, size_t b)
{
    const wctx *c = u->c;
    size_t n = (size_t)c->n;
    double top = time[b];
    for (size_t e = 0; e < n; e++) {
        if (u->assign[e] != b)
            continue;
        for (size_t f = 0; f < n; f++) {
            size_t j = u->assign[f];
            if (j == b || !(c->w[f] < c->w[e]))
                continue;
            double wb = u->load[b] - c->w[e] + c->w[f];
            double wj = u->load[j] - c->w[f] + c->w[e];
            if (wb > c->cap[b] || wj > c->cap[j])
                continue;
            double tb = ptime(c, b, wb), tj = ptime(c, j, wj);
            if (tb < top && tj < top) {
                u->assign[e] = j;
                u->assign[f] = b;
                u->load[b] = wb;
                u->load[j] = wj;
                time[b] = tb;
                time[j] = tj;
                return 1;
            }
        }
    }
    return 0;
}

/* Improving moves, then swaps, off the bottleneck, at most max_moves of them. Returns -1
 * when out of memory. */
static int improve(uwork *u, size_t max_moves)
{
    const wctx *c = u->c;
    double *time = malloc(c->p * sizeof *time);
    if (time == NULL)
        return -1;
    for (size_t i = 0; i < c->p; i++)
        time[i] = ptime(c, i, u->load[i]);
    for (size_t moves = 0; moves < max_moves; moves++) {
        size_t b = 0, on_b = 0;
        for (size_t i = 1; i < c->p; i++)
            if (time[i] > time[b])
                b = i;
        if (move_off(u, time, b, &on_b))
            continue;
        if (on_b > DLS__WEIGHTED_SWAP_LIMIT || !swap_off(u, time, b))
            break;
    }
    free(time);
    return 0;
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

/* Whether processor i behaves as an earlier one does: the same load, cap and model. */
static int twin_of_earlier(const bnb *s, size_t i)
{
    const wctx *c = s->c;
    for (size_t j = 0; j < i; j++)
        if (s->load[j] == s->load[i] && c->cap[j] == c->cap[i] &&
            dls_model_equal(c->models[j], c->models[i]))
            return 1;
    return 0;
}

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
    if (++s->nodes > DLS__WEIGHTED_EXACT_NODES) {
        s->aborted = 1;
        return;
    }
    double w = c->w[s->idx[k]];
    for (size_t i = 0; i < c->p; i++) {
        double nl = s->load[i] + w;
        /* processors alike behave alike: try the first of them */
        if (nl > c->cap[i] || twin_of_earlier(s, i))
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

/* Small sets: searches for the optimum with the heuristic's assignment as incumbent,
 * stopping early at the lower bound lb. Returns 1 when the search finished (the assignment
 * is then optimal), 0 when it ran out of nodes, -1 when out of memory. */
static int search_exact(uwork *u, double lb)
{
    const wctx *c = u->c;
    size_t p = c->p, n = (size_t)c->n;
    size_t *cur = malloc(n * sizeof *cur), *best = malloc(n * sizeof *best);
    double *bl = calloc(p, sizeof *bl);
    int proven = -1;
    if (cur != NULL && best != NULL && bl != NULL) {
        double inc = 0;
        for (size_t i = 0; i < p; i++)
            inc = fmax(inc, ptime(c, i, u->load[i]));
        for (size_t k = 0; k < n; k++)
            best[k] = u->assign[u->idx[k]];
        bnb s = {c, u->idx, bl, cur, best, inc, lb, 0, 0};
        bnb_search(&s, 0, 0);
        for (size_t k = 0; k < n; k++)
            u->assign[u->idx[k]] = best[k];
        proven = !s.aborted;
    }
    free(cur);
    free(best);
    free(bl);
    return proven;
}

/* The result's arrays from the assignment, the loads summed afresh in element order so
 * that the reported sizes do not carry the rounding of the moves. */
static void fill_unordered(const wctx *c, const size_t *assign, dls_partition *r)
{
    for (size_t i = 0; i < c->p; i++) {
        r->sizes[i] = 0;
        r->elements[i] = 0;
    }
    for (size_t e = 0; e < (size_t)c->n; e++) {
        DLS__ASSERT(assign[e] < c->p);
        r->sizes[assign[e]] += c->w[e];
        r->elements[assign[e]]++;
    }
    for (size_t i = 0; i < c->p; i++)
        r->times[i] = ptime(c, i, r->sizes[i]);
}

/* The solution status and its note. */
static void unordered_status(const uwork *u, int infeasible, int found, int proven,
                             dls_partition *r)
{
    if (infeasible) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        snprintf(r->note, sizeof r->note,
                 "infeasible: the limits cannot hold the largest elements (one weighs %.10g)",
                 u->c->w[u->idx[0]]);
    } else if (!found) {
        r->status = DLS_SOLUTION_NOT_FOUND;
        snprintf(r->note, sizeof r->note,
                 "no assignment within the limits was found (the heuristic ran out of room; "
                 "one may still exist)");
    } else {
        /* optimal when the search finished; else raised to optimal later if the gap is 0 */
        r->status = proven ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
        return;
    }
    r->makespan = INFINITY;
    r->gap = INFINITY;
    r->metric = NAN;
}

static dls_status unordered(const wctx *c, const dls_partition_params *par, double t_cont,
                            dls_partition *r, dls_error *err)
{
    size_t n = (size_t)c->n;
    uwork u = {c, malloc(n * sizeof *u.idx), malloc(n * sizeof *u.assign),
               calloc(c->p, sizeof *u.load)};
    int ok = 0, infeasible = 0, found = 0, proven = 0;
    if (u.idx == NULL || u.assign == NULL || u.load == NULL || sort_desc(&u) != 0)
        goto done;
    r->lower_bound = lower_bound(&u, t_cont, &infeasible);
    if (infeasible)
        found = 0;
    else if ((double)n * (double)c->p <= DLS__WEIGHTED_GREEDY_PAIRS)
        found = place_earliest(&u);
    else
        found = place_roomiest(&u, r->ideal);
    if (found < 0 || (found && improve(&u, par->max_moves) != 0))
        goto done;
    if (found && n <= DLS__WEIGHTED_EXACT_ELEMENTS) {
        proven = search_exact(&u, r->lower_bound);
        if (proven < 0)
            goto done;
    }
    if (found) {
        fill_unordered(c, u.assign, r);
        r->assignment = u.assign;
        u.assign = NULL;
    }
    unordered_status(&u, infeasible, found, proven, r);
    ok = 1;
done:
    free(u.idx);
    free(u.assign);
    free(u.load);
    return ok ? DLS_OK : dls__partition_nomem(err);
}

/* ---------------------------------------------------------------------------------- */
/* Ordered                                                                            */

/* How the chunks of one processor order are found.
 * - Every processor's time never falls as its weight grows, over the weights it could get:
 *   the furthest end a processor reaches within a time bound then rises with its start and
 *   with the bound, so the greedy (each processor in turn takes the longest chunk it
 *   finishes within T) decides feasibility exactly, its longest chunk is found by binary
 *   search, and a bisection on T finds the optimum.
 * - Some time falls somewhere: a processor may finish a longer chunk sooner than a shorter
 *   one, and a shorter chunk early may be what lets the rest fit, so neither the binary
 *   search nor the greedy is exact. The greedy still runs, with a longest-chunk search that
 *   holds for any time and under a bisection that keeps only the bounds at which it placed
 *   everything: its chunks are valid. They are also optimal when every time falls only at
 *   weights that take longer than their makespan (greedy_proven()). Else dynamic
 *   programming over the chunk boundaries finds the optimum, with O(p n^2) time
 *   evaluations per order, within DLS__ORDERED_DP_PAIRS; beyond, the greedy's chunks stand,
 *   and the result says that they may not be optimal. */

/* Largest j in [from, to] with prefix[j] - prefix[from] <= w (from when none further is):
 * the weights being positive, the difference grows with j. */
static size_t last_within(const double *prefix, size_t from, size_t to, double w)
{
    size_t lo = from, hi = to;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        if (prefix[mid] - prefix[from] <= w)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The end of the longest chunk from pos that processor i holds within its cap and finishes
 * within t, for a time that never falls with the weight: binary search. */
static size_t reach_rising(const wctx *c, const double *prefix, size_t i, size_t pos, double t)
{
    size_t lo = pos, hi = (size_t)c->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo + 1) / 2;
        double wt = prefix[mid] - prefix[pos];
        if (wt <= c->cap[i] && ptime(c, i, wt) <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* The same for a time of any shape. The ends are tried from the furthest within the cap
 * down; from one whose time is above t it jumps to the largest weight below it that is
 * finished within t (dls__size_for_time()), so that it crosses each stretch of weights
 * whose time is above t in one step, not element by element. Every end it returns is
 * checked: its time is within t. */
static size_t reach_any(const wctx *c, const double *prefix, size_t i, size_t pos, double t)
{
    size_t j = last_within(prefix, pos, (size_t)c->n, c->cap[i]);
    while (j > pos) {
        double w = prefix[j] - prefix[pos];
        if (ptime(c, i, w) <= t)
            return j;
        /* no weight in (x, w] is finished within t, w itself included */
        double x = dls__size_for_time(c->models[i], t, w, NULL);
        j = last_within(prefix, pos, j - 1, x);
    }
    return pos;
}

typedef size_t (*reach_fn)(const wctx *c, const double *prefix, size_t i, size_t pos,
                           double t);

/* The greedy for the order ord: each processor in turn takes the chunk that reach gives it
 * within t. Fills end (end[k]: where the chunk of the k-th processor of the order ends).
 * Returns 1 when everything is placed; the chunks are then within their caps and their
 * times within t, whatever the shape of the times. */
static int probe(const wctx *c, const double *prefix, const size_t *ord, double t,
                 reach_fn reach, size_t *end)
{
    size_t pos = 0;
    for (size_t k = 0; k < c->p; k++) {
        pos = reach(c, prefix, ord[k], pos, t);
        end[k] = pos;
    }
    return pos == (size_t)c->n;
}

/* The makespan of the chunks that end at end, in the order ord. */
static double chunks_makespan(const wctx *c, const double *prefix, const size_t *ord,
                              const size_t *end)
{
    double m = 0;
    size_t pos = 0;
    for (size_t k = 0; k < c->p; k++) {
        m = fmax(m, ptime(c, ord[k], prefix[end[k]] - prefix[pos]));
        pos = end[k];
    }
    return m;
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

/* Bisection on the makespan over the representations of the positive doubles (which are
 * ordered), from the makespan of the greedy without a time bound down to 0. Only bounds at
 * which the greedy placed everything are kept, and end holds the chunks of the last one,
 * so the answer is valid also where success does not grow with the bound. With
 * reach_rising on times that never fall it is the optimum. Returns the makespan of the
 * chunks in end, or INFINITY when the caps cannot hold the set in this order (the greedy
 * without a time bound decides that exactly: a chunk's weight grows with its length).
 * scratch holds p entries. */
static double order_bisect(const wctx *c, const double *prefix, const size_t *ord,
                           reach_fn reach, size_t *end, size_t *scratch, unsigned *steps)
{
    if (!probe(c, prefix, ord, INFINITY, reach, end))
        return INFINITY;
    double hi = chunks_makespan(c, prefix, ord, end);
    DLS__ASSERT(hi >= 0); /* a time: neither negative nor NaN, or the order of bits fails */
    uint64_t lo_b = 0, hi_b = bits_of(hi);
    while (hi_b - lo_b > 1) {
        uint64_t mid = lo_b + (hi_b - lo_b) / 2;
        if (probe(c, prefix, ord, double_of(mid), reach, scratch)) {
            hi_b = mid;
            memcpy(end, scratch, c->p * sizeof *end);
        } else {
            lo_b = mid;
        }
        (*steps)++;
    }
    return chunks_makespan(c, prefix, ord, end);
}

/* Scratch of the dynamic programming. */
typedef struct dp_work {
    double *next, *cur;  /* n + 1 each: best makespans by first element */
    size_t *choice;      /* p (n + 1): choice[k (n + 1) + a], the end of the k-th chunk
                          * when it starts at a */
} dp_work;

/* The optimum for the order ord for times of any shape, by dynamic programming over the
 * chunk boundaries: best(k, a), the smallest makespan of the elements from a on over the
 * processors k.. of the order, is the smallest over the ends j of the k-th chunk of
 * max(t(a..j), best(k + 1, j)); the last processor takes all that remains. Only makespans
 * below bound matter (the best of the orders tried before): a state that cannot beat it
 * counts as INFINITY, which also spares the time evaluations of the ends that cannot help.
 * Among equal makespans the earlier processors get the longer chunks, as with the greedy.
 * At most p (n + 1)(n + 2) / 2 time evaluations. Fills end and returns the makespan when
 * one below bound exists, else returns INFINITY. */
static double order_dp(const wctx *c, const double *prefix, const size_t *ord, double bound,
                       dp_work *d, size_t *end)
{
    size_t p = c->p, n = (size_t)c->n;
    size_t i = ord[p - 1], *ch = d->choice + (p - 1) * (n + 1);
    for (size_t a = 0; a <= n; a++) {
        double w = prefix[n] - prefix[a], t = w <= c->cap[i] ? ptime(c, i, w) : INFINITY;
        d->next[a] = t < bound ? t : INFINITY;
        ch[a] = n;
    }
    for (size_t k = p - 1; k-- > 0;) {
        i = ord[k];
        ch = d->choice + k * (n + 1);
        /* the first processor starts at element 0 only */
        for (size_t a = 0; a <= (k == 0 ? 0 : n); a++) {
            double best = bound;
            size_t bj = n + 1; /* none */
            for (size_t j = last_within(prefix, a, n, c->cap[i]) + 1; j-- > a;) {
                if (!(d->next[j] < best)) /* max(t, next) cannot beat best */
                    continue;
                double v = fmax(ptime(c, i, prefix[j] - prefix[a]), d->next[j]);
                if (v < best) {
                    best = v;
                    bj = j;
                }
            }
            d->cur[a] = bj <= n ? best : INFINITY;
            ch[a] = bj;
        }
        double *t = d->next;
        d->next = d->cur;
        d->cur = t;
    }
    if (isinf(d->next[0]))
        return INFINITY;
    size_t pos = 0;
    for (size_t k = 0; k < p; k++) {
        pos = d->choice[k * (n + 1) + pos];
        DLS__ASSERT(pos <= n); /* a finite best(k, a) has a chosen end */
        end[k] = pos;
    }
    DLS__ASSERT(pos == n); /* the last chunk ends at n */
    return chunks_makespan(c, prefix, ord, end);
}

/* Whether processor i's time never falls as its weight grows up to the most it can get,
 * min(cap, total). */
static int never_falls(const wctx *c, size_t i, double total)
{
    const dls_model *m = c->models[i];
    /* a maximum of lines whose slopes are >= 0 (checked when the model is made) never
     * falls, in floating point too, even where increasing_to says it is flat */
    if (m->kind == DLS_MODEL_TIME_LINES)
        return 1;
    return !(m->increasing_to < fmin(c->cap[i], total));
}

/* Whether the greedy's chunks of makespan t for an order are optimal although some time
 * falls. They are when, for every processor, the weights up to min(cap, total) that it
 * finishes within t form one interval [0, X] on which its time rises (X at most
 * increasing_to): then for every bound T <= t what each processor can take within T is
 * [0, X(T)] as when times never fall, so the greedy's success at T is exact. The
 * bisection ended with a bound just below t at which the greedy failed: no makespan below
 * t exists. */
static int greedy_proven(const wctx *c, double total, double t)
{
    for (size_t i = 0; i < c->p; i++) {
        if (never_falls(c, i, total))
            continue;
        const dls_model *m = c->models[i];
        if (!(dls__size_for_time(m, t, fmin(c->cap[i], total), NULL) <= m->increasing_to))
            return 0;
    }
    return 1;
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

/* The search over processor orders: the best order so far, its chunks and makespan. */
typedef struct orders {
    const wctx *c;
    const double *prefix;  /* n + 1 prefix sums of the weights */
    int rising;            /* every time never falls: the greedy is exact */
    int dp_fits;           /* the dynamic programme fits its budget for every order */
    int proven;            /* every order evaluated got its optimum */
    int used_dp;           /* some order needed the dynamic programme */
    size_t *ord;           /* p: the order being tried */
    size_t *best;          /* p: the best order so far */
    size_t *end;           /* p: the chunk ends of the order being tried */
    size_t *best_end;      /* p: the chunk ends of the best order */
    size_t *scratch;       /* p */
    dp_work dp;            /* with dp_fits only */
    double best_t;         /* the best order's makespan; INFINITY while none fits */
    unsigned steps;        /* bisection steps, all orders together */
} orders;

/* The makespan of the order in o->ord, its chunks in o->end: the optimum, or with o->proven
 * cleared the greedy's. INFINITY when the order holds no valid split; after the dynamic
 * programme, also when it holds none better than the best order so far. */
static double order_optimum(orders *o)
{
    const wctx *c = o->c;
    if (o->rising)
        return order_bisect(c, o->prefix, o->ord, reach_rising, o->end, o->scratch, &o->steps);
    double t = order_bisect(c, o->prefix, o->ord, reach_any, o->end, o->scratch, &o->steps);
    /* INFINITY is exact: the caps alone decide it */
    if (isinf(t) || greedy_proven(c, o->prefix[(size_t)c->n], t))
        return t;
    if (!o->dp_fits) {
        o->proven = 0;
        return t;
    }
    o->used_dp = 1;
    /* only a makespan below the greedy's and the best order's matters; none below the
     * greedy's means that the greedy's chunks, still in o->end, are optimal */
    double d = order_dp(c, o->prefix, o->ord, fmin(o->best_t, t), &o->dp, o->end);
    return isinf(d) ? t : d;
}

/* Evaluates the order in o->ord and keeps it with its chunks when it beats the best;
 * returns whether it did. */
static int try_order(orders *o)
{
    double t = order_optimum(o);
    if (!(t < o->best_t))
        return 0;
    o->best_t = t;
    memcpy(o->best, o->ord, o->c->p * sizeof *o->ord);
    memcpy(o->best_end, o->end, o->c->p * sizeof *o->end);
    return 1;
}

/* Every order, for a few processors. */
static void reorder_exhaustive(orders *o)
{
    while (next_permutation(o->ord, o->c->p))
        try_order(o);
}

/* o->ord by the processors' speeds at their ideal sizes, decreasing (down) or increasing,
 * ties by index; keyed is scratch of p entries. */
static void order_by_speed(orders *o, const double *ideal, dls__keyed *keyed, int down)
{
    const wctx *c = o->c;
    for (size_t i = 0; i < c->p; i++) {
        keyed[i].key = dls_model_speed(c->models[i], ideal[i]);
        keyed[i].index = i;
    }
    if (down)
        dls__keyed_sort_down(keyed, c->p);
    else
        dls__keyed_sort(keyed, c->p);
    for (size_t i = 0; i < c->p; i++)
        o->ord[i] = keyed[i].index;
}

/* The number of orders reorder_heuristic() evaluates, the platform's order included. */
static double heuristic_orders(size_t p)
{
    return 3 + 2 * (double)p;
}

/* Many processors: the natural orders (by decreasing, then increasing speed at the ideal
 * size), then swaps of neighbours while they help, at most 2p evaluations. */
static void reorder_heuristic(orders *o, const double *ideal, dls__keyed *keyed)
{
    size_t p = o->c->p;
    for (int down = 1; down >= 0; down--) {
        order_by_speed(o, ideal, keyed, down);
        try_order(o);
    }
    memcpy(o->ord, o->best, p * sizeof *o->ord);
    for (size_t tries = 0, k = 0; tries < 2 * p; tries++, k = (k + 1) % (p - 1)) {
        size_t t0 = o->ord[k];
        o->ord[k] = o->ord[k + 1];
        o->ord[k + 1] = t0;
        if (!try_order(o)) {
            o->ord[k + 1] = o->ord[k];
            o->ord[k] = t0;
        }
    }
}

/* The chunks of the best order into the result: first, elements, sizes and times. */
static void fill_ordered(const orders *o, dls_partition *r)
{
    const wctx *c = o->c;
    size_t pos = 0;
    for (size_t k = 0; k < c->p; k++) {
        size_t i = o->best[k];
        DLS__ASSERT(o->best_end[k] >= pos); /* chunks follow each other */
        r->first[i] = pos;
        r->elements[i] = o->best_end[k] - pos;
        r->sizes[i] = o->prefix[o->best_end[k]] - o->prefix[pos];
        r->times[i] = ptime(c, i, r->sizes[i]);
        DLS__ASSERT(r->sizes[i] <= c->cap[i]);
        pos = o->best_end[k];
    }
    DLS__ASSERT(pos == (size_t)c->n); /* every element is placed */
}

/* The status, note and arrays of an ordered result once the best order is known; exact:
 * every order that could be optimal was tried. A result with no valid split keeps the
 * arrays as allocated: every chunk empty, first and elements 0, order the platform's. */
static void ordered_result(const orders *o, const dls_partition_params *par, int exact,
                           dls_partition *r)
{
    const wctx *c = o->c;
    if (isinf(o->best_t)) {
        r->status = DLS_SOLUTION_INFEASIBLE;
        r->makespan = INFINITY;
        r->gap = INFINITY;
        r->metric = NAN;
        snprintf(r->note, sizeof r->note,
                 "infeasible: no %s of contiguous chunks fits within the limits",
                 par->reorder && exact ? "processor order" : "split");
        if (par->reorder && !exact)
            r->status = DLS_SOLUTION_NOT_FOUND;
        return;
    }
    fill_ordered(o, r);
    double total = o->prefix[(size_t)c->n];
    int shape_ok = 1;
    for (size_t i = 0; i < c->p; i++)
        if (c->models[i]->increasing_to < fmin(c->cap[i], total))
            shape_ok = 0;
    r->shape_ok = shape_ok;
    r->status = exact && o->proven ? DLS_SOLUTION_OPTIMAL : DLS_SOLUTION_FEASIBLE;
    const char *scope = !par->reorder ? "for the processor order"
                        : exact       ? "over every processor order"
                                      : "for each processor order tried";
    if (!o->proven)
        snprintf(r->note, sizeof r->note,
                 "some processor's time falls in places as the weight grows, and %llu "
                 "elements over %zu processor%s is beyond the exact search over the chunk "
                 "boundaries: every element is placed and the chunks are valid, but they may "
                 "not be optimal",
                 (unsigned long long)c->n, c->p, c->p == 1 ? "" : "s");
    else if (o->used_dp)
        snprintf(r->note, sizeof r->note,
                 "some processor's time falls in places as the weight grows: the chunks come "
                 "from a search over every chunk boundary, exact %s", scope);
    else if (!o->rising)
        snprintf(r->note, sizeof r->note,
                 "some processor's time falls in places as the weight grows, but only at "
                 "weights that take longer than the makespan: the chunks are exact %s", scope);
    else if (!shape_ok)
        snprintf(r->note, sizeof r->note,
                 "some processor's time is flat in places as the weight grows, but never "
                 "falls: the chunks are still exact %s", scope);
}

static dls_status ordered(const wctx *c, const dls_partition_params *par, dls_partition *r,
                          dls_error *err)
{
    size_t p = c->p, n = (size_t)c->n;
    int heuristic = par->reorder && p > DLS__ORDER_EXHAUSTIVE_MAX;
    double count = 1; /* the orders the search evaluates */
    if (heuristic)
        count = heuristic_orders(p);
    else if (par->reorder)
        for (size_t k = 2; k <= p; k++)
            count *= (double)k;
    double *prefix = malloc((n + 1) * sizeof *prefix);
    orders o = {c, prefix, 1, 0, 1, 0, malloc(p * sizeof *o.ord), malloc(p * sizeof *o.best),
                malloc(p * sizeof *o.end), malloc(p * sizeof *o.best_end),
                malloc(p * sizeof *o.scratch), {NULL, NULL, NULL}, INFINITY, 0};
    dls__keyed *keyed = heuristic ? malloc(p * sizeof *keyed) : NULL;
    int ok = 0;
    /* the result's first and order come allocated (partition.c) */
    DLS__ASSERT(r->first != NULL && (!par->reorder || r->order != NULL));
    if (prefix == NULL || o.ord == NULL || o.best == NULL || o.end == NULL ||
        o.best_end == NULL || o.scratch == NULL || (heuristic && keyed == NULL))
        goto done;
    prefix[0] = 0;
    for (size_t e = 0; e < n; e++)
        prefix[e + 1] = prefix[e] + c->w[e];
    for (size_t i = 0; i < p; i++)
        o.rising &= never_falls(c, i, prefix[n]);
    double pairs = count * (double)p * ((double)n + 1) * ((double)n + 2) / 2;
    o.dp_fits = !o.rising && pairs <= DLS__ORDERED_DP_PAIRS;
    if (o.dp_fits) {
        o.dp.next = malloc((n + 1) * sizeof *o.dp.next);
        o.dp.cur = malloc((n + 1) * sizeof *o.dp.cur);
        o.dp.choice = malloc(p * (n + 1) * sizeof *o.dp.choice);
        if (o.dp.next == NULL || o.dp.cur == NULL || o.dp.choice == NULL)
            goto done;
    }
    for (size_t i = 0; i < p; i++)
        o.ord[i] = i;
    memcpy(o.best, o.ord, p * sizeof *o.ord);
    try_order(&o);
    if (heuristic)
        reorder_heuristic(&o, r->ideal, keyed);
    else if (par->reorder)
        reorder_exhaustive(&o);
    if (par->reorder)
        memcpy(r->order, o.best, p * sizeof *o.best);
    r->steps += o.steps;
    ordered_result(&o, par, !heuristic, r);
    ok = 1;
done:
    free(prefix);
    free(o.ord);
    free(o.best);
    free(o.end);
    free(o.best_end);
    free(o.scratch);
    free(o.dp.next);
    free(o.dp.cur);
    free(o.dp.choice);
    free(keyed);
    return ok ? DLS_OK : dls__partition_nomem(err);
}

dls_status dls__partition_weighted(const dls_model *const *models, const double *cap, size_t p,
                                   uint64_t n, const double *w, const dls_partition_params *par,
                                   dls_partition *r, dls_error *err)
{
    wctx c = {models, cap, p, n, w};
    if (n == 0) {
        r->status = DLS_SOLUTION_OPTIMAL; /* nothing to place: everyone idle is optimal */
        return DLS_OK;
    }
    double total = 0;
    for (uint64_t e = 0; e < n; e++)
        total += w[e];
    dls__root root;
    dls_status st = dls__continuous_root(models, cap, p, total, DLS_PARTITION_NEWTON,
                                         total * DLS__WEIGHTED_ROOT_REL_TOL, 0, r->ideal, NULL,
                                         &root, err);
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
