/* The exact optimum of the LU column distribution.
 *
 * The cost of step k depends only on the vector c of column counts of the trailing
 * matrix (height h = |c| = n - k), and the vector of step k - 1 is the one of step k with
 * one more column for the owner of column k. So the best distribution is a shortest path
 * through the layers m = 1 .. n-1 of count vectors with |c| = m:
 *
 *     f(c) = max_i T_i(m, c_i) + min_{i : c_i > 0} f(c - e_i),    f(0) = 0,
 *
 * and column 1, which no step updates, goes where it costs least at height n. Layer m
 * holds C(m+p-1, p-1) vectors, ranked in lexicographic order; only two layers of values
 * are kept, and each vector stores which processor it came from in ceil(log2 p) bits,
 * from which the columns are read back. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lu/lu_impl.h"

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* C(a, k), or UINT64_MAX when it does not fit. */
static uint64_t binom(uint64_t a, uint64_t k)
{
    if (k > a)
        return 0;
    if (k > a - k)
        k = a - k;
    uint64_t c = 1;
    for (uint64_t i = 1; i <= k; i++) {
        uint64_t g = gcd64(c, i), num = (a - k + i) / (i / g);
        c /= g;
        if (num != 0 && c > UINT64_MAX / num)
            return UINT64_MAX;
        c *= num;
    }
    return c;
}

/* Bits of one predecessor code: 1, 2, 4, 8 or 16. */
static unsigned code_bits(size_t p)
{
    unsigned b = 1;
    while (b < 16 && ((size_t)1 << b) < p)
        b *= 2;
    return b;
}

static size_t add_sat(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

static size_t mul_sat(size_t a, size_t b)
{
    return a != 0 && b > SIZE_MAX / a ? SIZE_MAX : a * b;
}

static dls_status dls_lu_exact_memory_impl(size_t p, uint64_t n, size_t *bytes, uint64_t *states,
                                           dls_error *err)
{
    if (bytes == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_lu_exact_memory", "NULL argument");
    if (p == 0 || p > 65536)
        return dls__fail(err, DLS_EINVAL, "dls_lu_exact_memory", "%zu processors; the exact "
                         "method takes 1 to 65536", p);
    uint64_t total = n == 0 ? 0 : binom(n - 1 + p, p);
    uint64_t last = n == 0 ? 0 : binom(n + p - 2, p - 1); /* layer n - 1 */
    if (states)
        *states = total;
    if (total == UINT64_MAX || last == UINT64_MAX || total > SIZE_MAX) {
        *bytes = SIZE_MAX;
        return DLS_OK;
    }
    size_t b = mul_sat((size_t)total, code_bits(p)) / 8 + 1;
    b = add_sat(b, mul_sat((size_t)last, 2 * sizeof(double)));
    b = add_sat(b, mul_sat(mul_sat(p, (size_t)n + 1), sizeof(double)));
    b = add_sat(b, mul_sat(mul_sat(p, (size_t)n + p + 1), sizeof(uint64_t)));
    b = add_sat(b, mul_sat((size_t)n + 1, sizeof(uint64_t)));
    *bytes = b;
    return DLS_OK;
}

dls_status dls_lu_exact_memory(size_t p, uint64_t n, size_t *bytes, uint64_t *states,
                               dls_error *err)
{
    dls_status st = dls_lu_exact_memory_impl(p, n, bytes, states, err);
    return dls__error_retag(err, st, "dls_lu_exact_memory");
}

typedef struct exact_ctx {
    size_t p;
    uint64_t n;
    uint64_t *bin;      /* bin[q * stride + a] = C(a, q), q < p, a <= n + p */
    size_t stride;
    unsigned bits;
    unsigned char *code;
    uint64_t *offset;   /* first global index of each layer */
} exact_ctx;

static uint64_t C(const exact_ctx *x, uint64_t a, size_t q) { return x->bin[q * x->stride + a]; }

/* Rank of the prefix c[0 .. p-3] in layer m (the last two counts contribute c[p-2]). */
static uint64_t prefix_rank(const exact_ctx *x, const uint64_t *c, uint64_t m)
{
    uint64_t rank = 0, r = m;
    size_t p = x->p;
    for (size_t j = 0; j + 2 < p; j++) {
        size_t q = p - 1 - j;
        rank += C(x, r + q, q) - C(x, r - c[j] + q, q);
        r -= c[j];
    }
    return rank;
}

static void put_code(exact_ctx *x, uint64_t idx, unsigned v)
{
    if (x->bits == 16) {
        x->code[2 * idx] = (unsigned char)(v & 0xff);
        x->code[2 * idx + 1] = (unsigned char)(v >> 8);
        return;
    }
    uint64_t bit = idx * x->bits;
    unsigned shift = (unsigned)(bit & 7);
    unsigned char mask = (unsigned char)(((1u << x->bits) - 1) << shift);
    x->code[bit >> 3] = (unsigned char)((x->code[bit >> 3] & ~mask) | (v << shift));
}

static unsigned get_code(const exact_ctx *x, uint64_t idx)
{
    if (x->bits == 16)
        return x->code[2 * idx] | (unsigned)x->code[2 * idx + 1] << 8;
    uint64_t bit = idx * x->bits;
    return (x->code[bit >> 3] >> (bit & 7)) & ((1u << x->bits) - 1);
}

/* The scratch of the dynamic programme besides the context: two layers of values, the
 * step times of one layer, a count vector and the predecessors' ranks. */
typedef struct exact_work {
    double *prev, *cur;  /* f of layers m - 1 and m */
    double *t;           /* t[i * (n + 1) + y] = T_i(m, y), INFINITY past the cap */
    uint64_t *c, *pb;
} exact_work;

static void work_free(exact_ctx *x, exact_work *w)
{
    free(w->prev);
    free(w->cur);
    free(w->t);
    free(w->c);
    free(w->pb);
    free(x->bin);
    free(x->offset);
    free(x->code);
}

static int work_alloc(exact_ctx *x, exact_work *w, uint64_t total)
{
    size_t p = x->p;
    uint64_t n = x->n;
    uint64_t lmax = binom(n + p - 2, p - 1); /* the largest layer, n - 1 (1 when n = 1) */
    w->prev = malloc((size_t)lmax * sizeof *w->prev);
    w->cur = malloc((size_t)lmax * sizeof *w->cur);
    w->t = malloc(p * ((size_t)n + 1) * sizeof *w->t);
    w->c = calloc(p, sizeof *w->c);
    w->pb = malloc(p * sizeof *w->pb);
    x->bin = malloc(p * x->stride * sizeof *x->bin);
    x->offset = malloc(((size_t)n + 1) * sizeof *x->offset);
    x->code = calloc(x->bits == 16 ? 2 * (size_t)total : (size_t)(total * x->bits / 8 + 1), 1);
    if (!w->prev || !w->cur || !w->t || !w->c || !w->pb || !x->bin || !x->offset || !x->code)
        return -1;
    for (size_t q = 0; q < p; q++)
        for (size_t a = 0; a < x->stride; a++)
            x->bin[q * x->stride + a] = binom(a, q);
    x->offset[0] = 0;
    for (uint64_t m = 1; m <= n; m++)
        x->offset[m] = x->offset[m - 1] + C(x, m - 1 + p - 1, p - 1);
    w->prev[0] = 0;
    return 0;
}

/* The next prefix c[0 .. p-3] of layer m in lexicographic order (c[0] most significant);
 * 0 when c was the last one. */
static int next_prefix(uint64_t *c, size_t mid, uint64_t m)
{
    if (mid == 0)
        return 0;
    size_t j = mid;
    while (j > 0) {
        j--;
        uint64_t s = 0;
        for (size_t l = 0; l <= j; l++)
            s += c[l];
        if (s < m) {
            c[j]++;
            for (size_t l = j + 1; l < mid; l++)
                c[l] = 0;
            return 1;
        }
    }
    return 0;
}

/* Layer m: f and the predecessor code of every vector, from layer m - 1. */
static void layer(exact_ctx *x, exact_work *w, const lu_eval *e, uint64_t m)
{
    size_t p = x->p, last = p - 1, mid = p - 2;
    uint64_t n = x->n;
    uint64_t *c = w->c, *pb = w->pb;
    const double *prev = w->prev, *t = w->t;
    for (size_t i = 0; i < p; i++)
        for (uint64_t y = 0; y <= m; y++)
            w->t[i * (n + 1) + y] = (double)y > e->cap[i] ? INFINITY
                                                          : dls__lu_time(e, i, (double)m, (double)y);
    const double *tmid = t + mid * (n + 1), *tlast = t + last * (n + 1);
    uint64_t idx = 0, base_code = x->offset[m];
    memset(c, 0, p * sizeof *c);
    do {
        /* one prefix c[0 .. p-3]: its ranks here and, one column fewer, in layer m-1 */
        uint64_t used = 0;
        double pmax = 0;
        for (size_t j = 0; j < mid; j++) {
            used += c[j];
            double v = t[j * (n + 1) + c[j]];
            pmax = v > pmax ? v : pmax;
        }
        uint64_t R = m - used;
        uint64_t same = used < m ? prefix_rank(x, c, m - 1) : 0;
        for (size_t j = 0; j < mid; j++)
            if (c[j] > 0) {
                c[j]--;
                pb[j] = prefix_rank(x, c, m - 1);
                c[j]++;
            }
        for (uint64_t v = 0; v <= R; v++) {
            double cost = fmax(pmax, fmax(tmid[v], tlast[R - v]));
            double best = INFINITY;
            unsigned bi = 0;
            if (cost < INFINITY) {
                for (size_t j = 0; j < mid; j++)
                    if (c[j] > 0 && prev[pb[j] + v] < best) {
                        best = prev[pb[j] + v];
                        bi = (unsigned)j;
                    }
                if (v > 0 && prev[same + v - 1] < best) {
                    best = prev[same + v - 1];
                    bi = (unsigned)mid;
                }
                if (v < R && prev[same + v] < best) {
                    best = prev[same + v];
                    bi = (unsigned)last;
                }
            }
            w->cur[idx] = cost + best;
            put_code(x, base_code + idx, bi);
            idx++;
        }
    } while (next_prefix(c, mid, m));
    DLS__ASSERT(idx == C(x, m + p - 1, p - 1)); /* every vector of the layer, once */
    double *tmp = w->prev;
    w->prev = w->cur;
    w->cur = tmp;
}

/* The best vector of the last layer (n - 1 columns, the lowest rank on ties) into c. */
static void best_last(const exact_ctx *x, const double *f, uint64_t *c)
{
    size_t p = x->p;
    uint64_t n = x->n;
    uint64_t lsize = C(x, n - 1 + p - 1, p - 1), rank = 0;
    if (n > 1)
        for (uint64_t k = 1; k < lsize; k++)
            if (f[k] < f[rank])
                rank = k;
    uint64_t rr = n - 1;
    for (size_t j = 0; j + 1 < p; j++) {
        size_t q = p - 1 - j;
        uint64_t v = 0;
        /* compositions with c_j = v take C(rr - v + q - 1, q - 1) ranks */
        while (rank >= C(x, rr - v + q - 1, q - 1)) {
            rank -= C(x, rr - v + q - 1, q - 1);
            v++;
        }
        c[j] = v;
        rr -= v;
    }
    c[p - 1] = rr;
}

/* Column 1 goes where step 0 (height n) would cost least, given the counts c of the
 * other columns. */
static size_t first_column(const lu_eval *e, uint64_t n, const uint64_t *c)
{
    size_t p = e->p, first = p;
    double fbest = INFINITY;
    for (size_t i = 0; i < p; i++) {
        if (!((double)(c[i] + 1) <= e->cap[i]))
            continue;
        double worst = 0;
        for (size_t l = 0; l < p; l++) {
            double v = dls__lu_time(e, l, (double)n, (double)(c[l] + (l == i)));
            worst = v > worst ? v : worst;
        }
        if (worst < fbest) {
            fbest = worst;
            first = i;
        }
    }
    return first < p ? first : 0;
}

static dls_status check_memory(size_t p, uint64_t n, size_t max_memory, uint64_t *total,
                               dls_error *err)
{
    size_t need;
    dls_status st = dls_lu_exact_memory(p, n, &need, total, err);
    if (st != DLS_OK || need <= max_memory)
        return st;
    if (need == SIZE_MAX)
        return dls__fail(err, DLS_ELIMIT, "lu", "the exact method for %llu columns over %zu "
                         "processors has too many states to count; the memory cap is "
                         "%zu bytes", (unsigned long long)n, p, max_memory);
    return dls__fail(err, DLS_ELIMIT, "lu", "the exact method for %llu columns over %zu "
                     "processors needs %llu states and %.4g MB, more than the memory cap "
                     "of %.4g MB", (unsigned long long)n, p, (unsigned long long)*total,
                     (double)need / 1e6, (double)max_memory / 1e6);
}

dls_status dls__lu_exact(const lu_eval *e, uint64_t n, size_t max_memory, lu_progress *pr,
                         size_t *owners, dls_lu *r, dls_error *err)
{
    size_t p = e->p;
    uint64_t total;
    dls_status st = check_memory(p, n, max_memory, &total, err);
    if (st != DLS_OK)
        return st;
    r->states = total;
    if (p == 1) {
        for (uint64_t j = 0; j < n; j++)
            owners[j] = 0;
        return DLS_OK;
    }
    exact_ctx x = {p, n, NULL, (size_t)n + p + 1, code_bits(p), NULL, NULL};
    exact_work w;
    memset(&w, 0, sizeof w);
    if (work_alloc(&x, &w, total) != 0) {
        size_t need;
        dls_lu_exact_memory(p, n, &need, NULL, NULL);
        work_free(&x, &w);
        return dls__fail(err, DLS_ENOMEM, "lu", "out of memory for the exact method (%.4g MB)",
                         (double)need / 1e6);
    }
    for (uint64_t m = 1; m < n && st == DLS_OK; m++) {
        layer(&x, &w, e, m);
        st = dls__lu_progress(pr, (double)x.offset[m + 1] / (double)total, err);
    }
    if (st == DLS_OK) {
        uint64_t *c = w.c;
        best_last(&x, w.prev, c);
        owners[0] = first_column(e, n, c);
        /* walk back through the layers */
        for (uint64_t m = n - 1; m >= 1; m--) {
            uint64_t k = prefix_rank(&x, c, m) + c[p - 2];
            unsigned i = get_code(&x, x.offset[m] + k);
            owners[n - m] = i;
            c[i]--;
        }
    }
    work_free(&x, &w);
    return st;
}
