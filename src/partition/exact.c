/* The exact row programme: the integer distribution of n equal elements (the rows of a
 * striped matrix product) that minimises the makespan max_i t_i(r_i) for any time
 * functions, with no shape assumption.
 *
 * Why this way. The optimum is one of the values t_i(r), and whether a makespan T is
 * reachable is monotone in T, so a binary search over the sorted candidate values finds it
 * exactly. A test at T asks whether counts r_i in A_i(T) = {r <= cap_i : t_i(r) <= T} can
 * sum to n: a sumset reachability over 0..n. Two facts make it cheap:
 * - A_i(T) always holds a prefix [0, x_i] (t_i(0) = 0); when sum x_i >= n the answer is
 *   yes at once. With times that are nearly increasing (the usual case) most tests end
 *   there, in one scan of the stored times;
 * - otherwise A_i(T) is a union of runs of consecutive counts, few of them for measured
 *   models (a 1-D section of a grid is monotone between grid values), and the reachable set
 *   R is a bitset of n + 1 bits: R + [a, b] is R dilated by b - a (log2(b - a + 1)
 *   shift-ORs of (n + 1) / 64 words, by doubling) shifted by a.
 * The naive dynamic programme f_k(m) = min_r max(f_{k-1}(m - r), t_k(r)) costs p n^2
 * evaluations (6.4e9 at n = 10^4, p = 64); this costs p n evaluations, one sort of the
 * candidates below the geometric answer (an upper bound: usually about n of them), and
 * about log2(candidates) tests of O(sum_i runs_i log n * n / 64) word operations at worst.
 * Memory and work are bounded (DLS__EXACT_MAX_CELLS, DLS__EXACT_MAX_WORK); past them the
 * programme stops with DLS_ELIMIT, so that the caller can keep the geometric answer.
 *
 * Ties: among the distributions with the optimal makespan, the lexicographically largest
 * (r_1, ..., r_p) in platform order: each processor in turn takes the most elements it can
 * within the optimum while the others can still take the rest. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/sort.h"
#include "partition/partition_impl.h"

/* The programme stores the time of every count each processor may get, and sorts those
 * below the upper bound: at most this many of each (64 MiB of doubles). The goal size,
 * 10^4 rows over 64 processors, is 6.4e5. */
#define DLS__EXACT_MAX_CELLS ((uint64_t)1 << 23)
/* Bound on the 64-bit word operations of the sumsets over the whole search (a few seconds
 * at worst; realistic cases take far fewer). */
#define DLS__EXACT_MAX_WORK ((uint64_t)1 << 32)

#define WORD_BITS 64

typedef struct exact {
    size_t p;
    uint64_t n;
    size_t W;            /* words of a bitset over 0..n */
    uint64_t last_mask;  /* the bits of the last word that stand for counts <= n */
    const double *time;  /* time[off[i] + r]: t_i(r), r = 0..len[i] - 1 */
    const size_t *off, *len;
    uint64_t work;       /* word operations so far */
    uint64_t *dil;       /* scratch bitset: a dilation */
} exact;

static int bit_get(const uint64_t *b, uint64_t k)
{
    return (int)((b[k / WORD_BITS] >> (k % WORD_BITS)) & 1u);
}

/* dst |= src << s (bits move to larger counts); bits past n are dropped. dst may be src,
 * since the words are written from the top down and each reads only lower ones. */
static void or_shifted(exact *e, uint64_t *dst, const uint64_t *src, uint64_t s)
{
    size_t q = (size_t)(s / WORD_BITS), W = e->W;
    unsigned b = (unsigned)(s % WORD_BITS);
    if (q >= W)
        return;
    for (size_t k = W; k-- > q;) {
        uint64_t v = src[k - q] << b;
        if (b != 0 && k > q)
            v |= src[k - q - 1] >> (WORD_BITS - b);
        dst[k] |= v;
    }
    dst[W - 1] &= e->last_mask;
    e->work += W - q;
}

/* out |= R + [a, a + w]: R dilated by w (e->dil, by doubling), then shifted by a. */
static void add_run(exact *e, const uint64_t *R, uint64_t a, uint64_t w, uint64_t *out)
{
    if (w == 0) {
        or_shifted(e, out, R, a);
        return;
    }
    memcpy(e->dil, R, e->W * sizeof *R);
    for (uint64_t span = 1; span <= w;) { /* dil holds R + [0, span - 1] */
        uint64_t s = span <= w + 1 - span ? span : w + 1 - span;
        or_shifted(e, e->dil, e->dil, s);
        span += s;
    }
    or_shifted(e, out, e->dil, a);
}

/* out = R + A_i(T). Returns 0, or -1 when the work bound is passed. */
static int add_processor(exact *e, size_t i, double T, const uint64_t *R, uint64_t *out)
{
    const double *t = e->time + e->off[i];
    size_t len = e->len[i];
    memset(out, 0, e->W * sizeof *out);
    for (size_t a = 0; a < len;) {
        if (!(t[a] <= T)) {
            a++;
            continue;
        }
        size_t b = a;
        while (b + 1 < len && t[b + 1] <= T)
            b++;
        add_run(e, R, a, b - a, out);
        if (e->work > DLS__EXACT_MAX_WORK)
            return -1;
        a = b + 1;
    }
    return 0;
}

/* The prefix [0, x] of A_i(T): the largest x with t_i(0..x) all <= T. */
static uint64_t prefix(const exact *e, size_t i, double T)
{
    const double *t = e->time + e->off[i];
    size_t x = 0;
    while (x + 1 < e->len[i] && t[x + 1] <= T)
        x++;
    return x;
}

/* Whether n elements fit within T: 1 yes, 0 no, -1 past the work bound. R and S are
 * scratch bitsets. */
static int feasible(exact *e, double T, uint64_t *R, uint64_t *S)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < e->p && sum < e->n; i++)
        sum += prefix(e, i, T);
    if (sum >= e->n)
        return 1; /* the prefixes alone hold n */
    memset(R, 0, e->W * sizeof *R);
    R[0] = 1;
    for (size_t i = 0; i < e->p; i++) {
        if (add_processor(e, i, T, R, S) != 0)
            return -1;
        uint64_t *swap = R;
        R = S;
        S = swap;
        if (bit_get(R, e->n))
            return 1; /* the others take nothing */
    }
    return 0;
}

/* The distribution at the optimum T: suffix sets S_k (sums the processors k..p-1 can
 * reach), then each processor in platform order takes the most it can. Returns 0, -1 past
 * the work bound, -2 when n is not reachable (T was not feasible). */
static int reconstruct(exact *e, double T, uint64_t *suffix, uint64_t *count)
{
    size_t p = e->p, W = e->W;
    uint64_t *S = suffix + (p - 1) * W; /* S_{p-1+1} = {0} is slot p - 1 */
    memset(S, 0, W * sizeof *S);
    S[0] = 1;
    /* slot k holds S_{k+1}, for k = 0 .. p - 1 */
    for (size_t k = p - 1; k-- > 0;)
        if (add_processor(e, k + 1, T, suffix + (k + 1) * W, suffix + k * W) != 0)
            return -1;
    uint64_t m = e->n;
    for (size_t k = 0; k < p; k++) {
        const double *t = e->time + e->off[k];
        const uint64_t *next = suffix + k * W;
        uint64_t top = e->len[k] - 1 < m ? e->len[k] - 1 : m;
        uint64_t r = top + 1;
        for (uint64_t c = top + 1; c-- > 0;)
            if (t[c] <= T && bit_get(next, m - c)) {
                r = c;
                break;
            }
        if (r > top)
            return -2;
        count[k] = r;
        m -= r;
    }
    return m == 0 ? 0 : -2;
}

dls_status dls__partition_exact(const dls_model *const *models, const double *cap, size_t p,
                                uint64_t n, double upper, uint64_t *count, double *time,
                                unsigned *tests, dls_error *err)
{
    DLS__ASSERT(n > 0 && p > 0);
    uint64_t cells = 0;
    for (size_t i = 0; i < p; i++)
        cells += (uint64_t)cap[i] + 1; /* caps are whole counts <= n */
    if (cells > DLS__EXACT_MAX_CELLS)
        return dls__fail(err, DLS_ELIMIT, "partition", "the exact row programme would store %llu "
                         "times (counts 0 to the cap of every processor), more than its bound "
                         "%llu", (unsigned long long)cells,
                         (unsigned long long)DLS__EXACT_MAX_CELLS);
    exact e = {0};
    e.p = p;
    e.n = n;
    e.W = (size_t)(n / WORD_BITS + 1);
    unsigned top = (unsigned)(n % WORD_BITS); /* the bit of count n in the last word */
    e.last_mask = top == WORD_BITS - 1 ? ~(uint64_t)0 : (((uint64_t)1 << (top + 1)) - 1);
    double *tt = malloc((size_t)cells * sizeof *tt);
    double *cand = malloc((size_t)cells * sizeof *cand);
    size_t *off = malloc(2 * p * sizeof *off);
    uint64_t *sol = malloc(p * sizeof *sol);
    /* bitsets: two for the tests, one dilation, then p suffix sets */
    uint64_t *bits = calloc((3 + p) * e.W, sizeof *bits);
    if (tt == NULL || cand == NULL || off == NULL || sol == NULL || bits == NULL) {
        free(tt);
        free(cand);
        free(off);
        free(sol);
        free(bits);
        return dls__partition_nomem(err);
    }
    size_t *len = off + p, nc = 0, at = 0;
    for (size_t i = 0; i < p; i++) {
        off[i] = at;
        len[i] = (size_t)cap[i] + 1;
        tt[at] = 0; /* nothing to do takes no time */
        for (size_t r = 1; r < len[i]; r++) {
            double v = dls_model_time(models[i], (double)r);
            tt[at + r] = v;
            if (v <= upper)
                cand[nc++] = v;
        }
        at += len[i];
    }
    e.time = tt;
    e.off = off;
    e.len = len;
    e.dil = bits + 2 * e.W;
    dls__sort_doubles(cand, nc);
    size_t u = 0; /* distinct values */
    for (size_t k = 0; k < nc; k++)
        if (u == 0 || cand[k] != cand[u - 1])
            cand[u++] = cand[k];
    /* the smallest feasible candidate; the last is feasible when upper is a makespan (or
     * INFINITY, the capacity holding n), which reconstruct() confirms */
    size_t lo = 0, hi = u ? u - 1 : 0;
    unsigned ntests = 0;
    int rc = 0;
    while (lo < hi && rc >= 0) {
        size_t mid = lo + (hi - lo) / 2;
        rc = feasible(&e, cand[mid], bits, bits + e.W);
        ntests++;
        if (rc > 0)
            hi = mid;
        else if (rc == 0)
            lo = mid + 1;
    }
    double T = u ? cand[lo] : INFINITY;
    if (rc >= 0 && u > 0)
        rc = reconstruct(&e, T, bits + 3 * e.W, sol);
    dls_status st = DLS_OK;
    if (rc == -1)
        st = dls__fail(err, DLS_ELIMIT, "partition", "the exact row programme passed its bound "
                       "of %llu word operations (%llu rows, %zu processors)",
                       (unsigned long long)DLS__EXACT_MAX_WORK, (unsigned long long)n, p);
    else if (rc == -2 || u == 0)
        st = dls__fail(err, DLS_ENUMERIC, "partition", "the exact row programme found no "
                       "distribution within the upper bound %.17g", upper);
    if (st == DLS_OK) {
        for (size_t i = 0; i < p; i++) {
            count[i] = sol[i];
            time[i] = tt[off[i] + sol[i]];
        }
        *tests = ntests + 1; /* and the reconstruction */
    }
    free(tt);
    free(cand);
    free(off);
    free(sol);
    free(bits);
    return st;
}
