/* PAPER's value functions f_m, ..., f_1 in one backward sweep, with the points of the
 * function in a balanced tree and each stage's transform applied lazily.
 *
 * stage.c builds f from g = f_{i+1} point by point: O(points) per stage, and f_i has about
 * one point per position below it (on link-bound platforms), so the whole chain costs
 * O(m^2). But each point of g moves on its own: with Z = W - S and rho where the slope of g
 * falls to 1 / C (stage.c),
 *   a point (r, y) with r < rho becomes (r + S, y)                    (p takes nothing)
 *   a point (r, y) with r >= rho becomes (r + C v(r) + S, y + v(r))    (p takes v(r))
 * and v is affine between its breakpoints (L + 1 pieces at most). So every stage is at
 * most L + 2 affine maps, each applied to a contiguous range of points, of the form
 *   (x, y) -> (A x + B, y + D x + E),   A > 0 (the order of the points is kept),
 * which compose, and which map the slope s of the piece right of a point to (s + D) / A.
 * The points live in a treap (deterministic priorities) whose nodes carry a pending map
 * for their subtree; a stage splits the tree at rho and at v's breakpoints (inserting a
 * point where one is missing), tags the parts, adds the point at rho (the piece of slope
 * 1 / C), merges, and cuts the values at vcap. Cost O(L log n) per stage, O(m L log m) in
 * all, memory O(m L); the result is f_1 and every stage's rho, exactly the functions of
 * stage.c up to rounding. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chain/chain_impl.h"

#define NIL 0u /* node 0 is the empty tree */

typedef struct node {
    double x, y, s;       /* the point and the slope of the piece right of it (its tail) */
    double A, B, D, E;    /* the map pending for the children */
    uint32_t l, r, pri;
    unsigned char tag;    /* a map is pending */
} node;

typedef struct sweep {
    node *t;
    size_t cap, used; /* nodes allocated, slots used (slot 0 is NIL) */
    uint32_t free_list;
    size_t live;      /* nodes in the tree */
    uint64_t rng;
} sweep;

static uint32_t sweep_rand(sweep *w)
{
    /* xorshift64*: deterministic priorities */
    w->rng ^= w->rng >> 12;
    w->rng ^= w->rng << 25;
    w->rng ^= w->rng >> 27;
    return (uint32_t)((w->rng * 0x2545F4914F6CDD1Dull) >> 32);
}

static uint32_t node_new(sweep *w, double x, double y, double s)
{
    uint32_t u;
    if (w->free_list != NIL) {
        u = w->free_list;
        w->free_list = w->t[u].l;
    } else {
        if (w->used == w->cap) {
            size_t cap = w->cap * 2;
            node *t = realloc(w->t, cap * sizeof *t);
            if (t == NULL)
                return NIL;
            w->t = t;
            w->cap = cap;
        }
        u = (uint32_t)w->used++;
    }
    node *q = &w->t[u];
    q->x = x;
    q->y = y;
    q->s = s;
    q->A = 1;
    q->B = q->D = q->E = 0;
    q->l = q->r = NIL;
    q->pri = sweep_rand(w);
    q->tag = 0;
    w->live++;
    return u;
}

/* Applies (x, y) -> (A x + B, y + D x + E) to node u and its subtree (pending there). */
static void apply(sweep *w, uint32_t u, double A, double B, double D, double E)
{
    if (u == NIL)
        return;
    node *q = &w->t[u];
    double x = q->x;
    q->x = A * x + B;
    q->y += D * x + E;
    q->s = (q->s + D) / A;
    if (q->l == NIL && q->r == NIL)
        return;
    if (!q->tag) {
        q->A = A;
        q->B = B;
        q->D = D;
        q->E = E;
        q->tag = 1;
        return;
    }
    /* the new map after the pending one */
    double A1 = q->A, B1 = q->B, D1 = q->D, E1 = q->E;
    q->A = A * A1;
    q->B = A * B1 + B;
    q->D = D1 + D * A1;
    q->E = E1 + D * B1 + E;
}

static void push(sweep *w, uint32_t u)
{
    node *q = &w->t[u];
    if (!q->tag)
        return;
    q->tag = 0;
    apply(w, q->l, q->A, q->B, q->D, q->E);
    apply(w, q->r, q->A, q->B, q->D, q->E);
}

/* Splits u into the points with x < key (*a) and the others (*b). */
static void split_x(sweep *w, uint32_t u, double key, uint32_t *a, uint32_t *b)
{
    if (u == NIL) {
        *a = *b = NIL;
        return;
    }
    push(w, u);
    if (w->t[u].x < key) {
        split_x(w, w->t[u].r, key, &w->t[u].r, b);
        *a = u;
    } else {
        split_x(w, w->t[u].l, key, a, &w->t[u].l);
        *b = u;
    }
}

/* Splits u into the points with y < key (*a) and the others (*b): f is nondecreasing. */
static void split_y(sweep *w, uint32_t u, double key, uint32_t *a, uint32_t *b)
{
    if (u == NIL) {
        *a = *b = NIL;
        return;
    }
    push(w, u);
    if (w->t[u].y < key) {
        split_y(w, w->t[u].r, key, &w->t[u].r, b);
        *a = u;
    } else {
        split_y(w, w->t[u].l, key, a, &w->t[u].l);
        *b = u;
    }
}

/* Splits u before the first point whose right slope is at most `slope` (the point
 * first_flat finds: the same descent). */
static void split_s(sweep *w, uint32_t u, double slope, uint32_t *a, uint32_t *b)
{
    if (u == NIL) {
        *a = *b = NIL;
        return;
    }
    push(w, u);
    if (!(w->t[u].s <= slope)) {
        split_s(w, w->t[u].r, slope, &w->t[u].r, b);
        *a = u;
    } else {
        split_s(w, w->t[u].l, slope, a, &w->t[u].l);
        *b = u;
    }
}

/* Every point of a before every point of b. */
static uint32_t merge(sweep *w, uint32_t a, uint32_t b)
{
    if (a == NIL)
        return b;
    if (b == NIL)
        return a;
    if (w->t[a].pri > w->t[b].pri) {
        push(w, a);
        w->t[a].r = merge(w, w->t[a].r, b);
        return a;
    }
    push(w, b);
    w->t[b].l = merge(w, a, w->t[b].l);
    return b;
}

static uint32_t first(sweep *w, uint32_t u)
{
    if (u == NIL)
        return NIL;
    for (;;) {
        push(w, u);
        if (w->t[u].l == NIL)
            return u;
        u = w->t[u].l;
    }
}

static uint32_t last(sweep *w, uint32_t u)
{
    if (u == NIL)
        return NIL;
    for (;;) {
        push(w, u);
        if (w->t[u].r == NIL)
            return u;
        u = w->t[u].r;
    }
}

/* The first point whose right slope is at most `slope` (slopes fall: f is concave), or
 * NIL. */
static uint32_t first_flat(sweep *w, uint32_t u, double slope)
{
    uint32_t found = NIL;
    while (u != NIL) {
        push(w, u);
        if (w->t[u].s <= slope) {
            found = u;
            u = w->t[u].l;
        } else {
            u = w->t[u].r;
        }
    }
    return found;
}

/* Returns the nodes of subtree u to the free list. */
static void release(sweep *w, uint32_t u)
{
    /* iterative: the left links become the free list's links */
    while (u != NIL) {
        node *q = &w->t[u];
        if (q->l != NIL) {
            /* rotate the left child up so that the walk needs no stack */
            uint32_t l = q->l;
            q->l = w->t[l].r;
            w->t[l].r = u;
            u = l;
            continue;
        }
        uint32_t next = q->r;
        q->l = w->free_list;
        w->free_list = u;
        w->live--;
        u = next;
    }
}

/* Makes sure that tree *u (all its points at x >= at, or none) starts with a point at
 * `at`, on the piece that `pred` (the point before, or NIL) starts. */
static int ensure_point(sweep *w, uint32_t *u, uint32_t pred, double at)
{
    uint32_t f = first(w, *u);
    if (f != NIL && w->t[f].x == at)
        return 0;
    if (pred == NIL)
        return 0; /* nothing before: the tree starts where it starts */
    const node *p = &w->t[pred];
    uint32_t v = node_new(w, at, p->y + p->s * (at - p->x), p->s);
    if (v == NIL)
        return -1;
    *u = merge(w, v, *u);
    return 0;
}

/* Appends the in-order points of u to f. */
static int flatten(sweep *w, uint32_t u, dls__pwl *f)
{
    if (u == NIL)
        return 0;
    push(w, u);
    if (flatten(w, w->t[u].l, f) != 0 || dls__pwl_push(f, w->t[u].x, w->t[u].y) != 0)
        return -1;
    return flatten(w, w->t[u].r, f);
}

/* One stage: the tree holds g = f_{k+1}; afterwards it holds f_k. */
static int stage(sweep *w, uint32_t *root, const dls__cprob *pb, size_t p, double vcap,
                 dls__vcurve *vc, double *rho_out)
{
    double S = pb->S[p], C = pb->C[p];
    uint32_t u = *root, drop, rest;
    /* the domain: rmin = max(amax, start of g) */
    uint32_t f0 = first(w, u);
    double rmin = fmax(pb->amax[p], w->t[f0].x);
    if (rmin > w->t[f0].x) {
        split_x(w, u, rmin, &drop, &rest);
        if (ensure_point(w, &rest, last(w, drop), rmin) != 0)
            return -1;
        release(w, drop);
        u = rest;
    }
    dls__vcurve_build(pb, p, vc);
    double rho = rmin;
    uint32_t pre = NIL, post = u;
    if (C > 0) {
        uint32_t q = first_flat(w, u, 1 / C);
        if (q == NIL) {
            /* g rises faster than the link feeds p everywhere: p takes nothing */
            *rho_out = INFINITY;
            apply(w, u, 1, S, 0, 0);
            *root = u;
            return 0;
        }
        rho = fmax(w->t[q].x, rmin);
        /* split before q, not by abscissa: points a rounding apart need not be in order */
        split_s(w, u, 1 / C, &pre, &post);
        /* the point at rho starts the piece of slope 1 / C (none when p can take nothing
         * at rho: the piece is empty) */
        if (dls__vcurve_at(vc, rho) > 0) {
            uint32_t v = node_new(w, rho, w->t[q].y, 1 / C);
            if (v == NIL)
                return -1;
            pre = merge(w, pre, v);
        }
        apply(w, pre, 1, S, 0, 0);
    }
    *rho_out = rho;
    /* the curve from rho: one map per piece of v */
    size_t nv = vc->n;
    uint32_t out = NIL;
    for (size_t j = 0; j < nv; j++) {
        double lo = vc->r[j], hi = j + 1 < nv ? vc->r[j + 1] : INFINITY;
        if (!(hi > rho))
            continue;
        uint32_t part;
        if (isfinite(hi)) {
            uint32_t after;
            split_x(w, post, hi, &part, &after);
            if (ensure_point(w, &after, last(w, part), hi) != 0)
                return -1;
            post = after;
        } else {
            part = post;
            post = NIL;
        }
        /* v(x) = al_j + s (x - r_j) on this piece (constant past the last point) */
        double s = isfinite(hi) ? (vc->al[j + 1] - vc->al[j]) / (hi - lo) : 0;
        double c0 = vc->al[j] - s * lo;
        apply(w, part, 1 + C * s, S + C * c0, s, c0);
        out = merge(w, out, part);
    }
    u = merge(w, pre, out);
    /* the cap: the function stops rising at vcap */
    uint32_t below, above;
    split_y(w, u, vcap, &below, &above);
    if (above != NIL) {
        uint32_t a = first(w, above), b = last(w, below);
        double xa = w->t[a].x;
        if (b != NIL && xa > w->t[b].x && w->t[a].y > vcap) {
            const node *pb_ = &w->t[b];
            double t = (vcap - pb_->y) / (w->t[a].y - pb_->y);
            xa = fmin(fmax(pb_->x + t * (xa - pb_->x), pb_->x), xa);
        }
        uint32_t v = node_new(w, xa, vcap, 0);
        if (v == NIL)
            return -1;
        release(w, above);
        below = merge(w, below, v);
    }
    *root = below;
    return 0;
}

int dls__paper_sweep(const dls__chain *c, double vcap, double wmax, double *rho, dls__pwl *f1,
                     size_t *pieces_total, size_t *pieces_max)
{
    const dls__cprob *pb = c->pb;
    size_t n = c->n;
    sweep w;
    memset(&w, 0, sizeof w);
    w.cap = 1024;
    w.used = 1;
    w.rng = 0x9E3779B97F4A7C15ull;
    w.t = malloc(w.cap * sizeof *w.t);
    dls__vcurve vc = {0, NULL, NULL, NULL, 0};
    vc.r = malloc((pb->max_lines + 2) * sizeof *vc.r);
    vc.al = malloc((pb->max_lines + 2) * sizeof *vc.al);
    int rc = -1;
    if (w.t == NULL || vc.r == NULL || vc.al == NULL)
        goto out;
    memset(&w.t[0], 0, sizeof w.t[0]);
    /* f_{n+1} = 0 from 0 on */
    uint32_t root = node_new(&w, 0, 0, 0);
    if (root == NIL)
        goto out;
    *pieces_total = *pieces_max = 0;
    for (size_t k = n; k-- > 0;) {
        if (stage(&w, &root, pb, dls__chain_pos(c, k), vcap, &vc, &rho[k]) != 0)
            goto out;
        *pieces_total += w.live;
        if (w.live > *pieces_max)
            *pieces_max = w.live;
    }
    f1->n = 0;
    if (flatten(&w, root, f1) != 0)
        goto out;
    f1->tail = w.t[last(&w, root)].s;
    dls__pwl_finish(f1, vcap, wmax);
    rc = 0;
out:
    free(w.t);
    free(vc.r);
    free(vc.al);
    return rc;
}
