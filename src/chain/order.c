/* The best send order of a small star, exactly: a dynamic programme over the sets of
 * positions served last.
 *
 * With f_M(W) the most load the positions of the set M can finish in W seconds from the
 * start of the first of their sends, served in the best order (and, in SELECT, the best
 * subset of M used), the first position served is one of M and the rest is served best:
 *     f_M = max over i in M of stage_i(f_{M \ {i}}),   f_{} = 0,
 * stage_i the transform of one position (stage.c: SELECT's, which may also leave i out, or
 * the paper's on any function, CHARGED). The transform is monotone (a larger rest never
 * gives less), so the maximum over the first position is exact, and the optimum is the
 * least T with f_all(T) >= V. The functions are explicit (pwl.c) and cut to times below a
 * known order's makespan, which bounds the optimum; 2^m of them are kept for the forward
 * pass, which reads the order off them: at each step the position whose transform gives
 * the most load, and the time left after its send. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "chain/chain_impl.h"

/* The functions of every set, in one arena: points [off[M], off[M] + cnt[M]). */
typedef struct store {
    double *x, *y, *tail;
    size_t n, cap;
    size_t *off, *cnt;
} store;

static int store_put(store *s, size_t M, const dls__pwl *f)
{
    if (s->n + f->n > s->cap) {
        size_t cap = s->cap ? s->cap : 1024;
        while (cap < s->n + f->n)
            cap *= 2;
        double *x = realloc(s->x, cap * sizeof *x);
        if (x == NULL)
            return -1;
        s->x = x;
        double *y = realloc(s->y, cap * sizeof *y);
        if (y == NULL)
            return -1;
        s->y = y;
        s->cap = cap;
    }
    memcpy(s->x + s->n, f->x, f->n * sizeof *f->x);
    memcpy(s->y + s->n, f->y, f->n * sizeof *f->y);
    s->off[M] = s->n;
    s->cnt[M] = f->n;
    s->tail[M] = f->tail;
    s->n += f->n;
    return 0;
}

static dls__pwl store_view(const store *s, size_t M)
{
    dls__pwl f = {s->cnt[M], 0, s->x + s->off[M], s->y + s->off[M], s->tail[M]};
    return f;
}

static void store_free(store *s)
{
    free(s->x);
    free(s->y);
    free(s->tail);
    free(s->off);
    free(s->cnt);
}

/* Copies f into out (out's storage). */
static int copy_pwl(const dls__pwl *f, dls__pwl *out)
{
    out->n = 0;
    for (size_t i = 0; i < f->n; i++)
        if (dls__pwl_push(out, f->x[i], f->y[i]) != 0)
            return -1;
    out->tail = f->tail;
    return 0;
}

/* Builds f_M for every set M. Returns 1 when done, 0 when a bound (points or the clock)
 * stopped it (*why says which), -1 when out of memory. */
static int build(const dls__cprob *pb, int select, double vcap, double wmax, size_t max_points,
                 double deadline, store *s, const char **why)
{
    size_t m = pb->m, N = (size_t)1 << m;
    dls__pwl h = {0}, acc = {0}, tmp = {0}, scratch[5] = {{0}};
    /* each position's v, built once (the stage functions build it again only for another
     * position: with the envelopes of speed models, thousands of lines, that dominated) */
    dls__vcurve *vc = calloc(m, sizeof *vc);
    int rc = vc ? 1 : -1;
    for (size_t i = 0; i < m && rc == 1; i++) {
        vc[i].r = malloc((pb->max_lines + 2) * sizeof *vc[i].r);
        vc[i].al = malloc((pb->max_lines + 2) * sizeof *vc[i].al);
        if (vc[i].r == NULL || vc[i].al == NULL)
            rc = -1;
    }
    if (rc == 1 && dls__pwl_push(&acc, 0, 0) != 0)
        rc = -1;
    acc.tail = 0;
    if (rc == 1 && store_put(s, 0, &acc) != 0)
        rc = -1;
    for (size_t M = 1; M < N && rc == 1; M++) {
        acc.n = 0;
        for (size_t i = 0; i < m && rc == 1; i++) {
            size_t bit = (size_t)1 << i;
            if (!(M & bit))
                continue;
            dls__pwl g = store_view(s, M ^ bit);
            if (g.n == 0)
                continue; /* the rest cannot be served within the window */
            int r = select ? dls__stage_select(pb, i, &g, vcap, wmax, &vc[i], &h, scratch)
                           : dls__stage_charged(pb, i, &g, vcap, wmax, &vc[i], &h, scratch);
            if (r != 0) {
                rc = -1;
            } else if (h.n == 0) {
                continue;
            } else if (acc.n == 0) {
                rc = copy_pwl(&h, &acc) == 0 ? 1 : -1;
            } else if (dls__pwl_max2(&acc, &h, 0, &tmp) != 0) {
                rc = -1;
            } else {
                dls__pwl t = acc;
                acc = tmp;
                tmp = t;
                dls__pwl_finish(&acc, vcap, wmax);
            }
        }
        if (rc == 1 && store_put(s, M, &acc) != 0)
            rc = -1;
        if (rc == 1 && s->n > max_points) {
            *why = "its value functions outgrew their bound on points";
            rc = 0;
        }
        if (rc == 1 && (M & 63) == 0 && dls__clock_now() > deadline) {
            *why = "the time limit passed";
            rc = 0;
        }
    }
    dls__pwl_free(&h);
    dls__pwl_free(&acc);
    dls__pwl_free(&tmp);
    for (int i = 0; i < 5; i++)
        dls__pwl_free(&scratch[i]);
    for (size_t i = 0; vc && i < m; i++) {
        free(vc[i].r);
        free(vc[i].al);
    }
    free(vc);
    return rc;
}

/* The next choice at W among the positions of M: the one whose transform keeps the most
 * load within reach, used (*use = 1, its send leaving *r) or, in SELECT, left out. Returns
 * m when none can be charged within W. */
static size_t choose(const dls__cprob *pb, int select, const store *s, size_t M, double W,
                     int *use, double *r_out)
{
    size_t m = pb->m, best_i = m;
    double best = -INFINITY;
    for (size_t i = 0; i < m; i++) {
        size_t bit = (size_t)1 << i;
        if (!(M & bit))
            continue;
        dls__pwl g = store_view(s, M ^ bit);
        if (g.n == 0)
            continue;
        double a, r, v = dls__stage_forward(pb, i, &g, W, &a, &r);
        if (select && !(a > 0))
            v = -INFINITY; /* sent nothing: left out instead (below) */
        if (v > best) {
            best = v;
            best_i = i;
            *use = 1;
            *r_out = r;
        }
        double skip = select ? dls__pwl_at(&g, W) : -INFINITY;
        if (skip > best) {
            best = skip;
            best_i = i;
            *use = 0;
        }
    }
    return best_i;
}

/* The order along the functions at makespan T: at each step the first position (or, in
 * SELECT, a position left out) that keeps the most load within reach. */
static void forward(const dls__cprob *pb, int select, const store *s, double T, size_t *seq,
                    size_t *n_used)
{
    size_t m = pb->m, M = ((size_t)1 << m) - 1, used = 0, dropped = 0;
    double W = T;
    while (M != 0) {
        int use = 0;
        double r = W;
        size_t i = choose(pb, select, s, M, W, &use, &r);
        if (i == m) {
            /* the functions put the rest's start exactly at a domain's edge (charged
             * positions sent nothing), which rounding in W - S can miss */
            W *= 1 + DLS__CHAIN_WINDOW_SLACK;
            i = choose(pb, select, s, M, W, &use, &r);
        }
        if (i == m) { /* no choice left: the rest in position order */
            for (size_t k = 0; k < m; k++)
                if (M & ((size_t)1 << k))
                    seq[used++] = k;
            break;
        }
        M ^= (size_t)1 << i;
        if (use) {
            seq[used++] = i;
            W = r;
        } else {
            seq[m - 1 - dropped++] = i;
        }
    }
    /* the left-out positions were filled from the end: put them in position order */
    for (size_t a = used, b = m - 1; a < b; a++, b--) {
        size_t t = seq[a];
        seq[a] = seq[b];
        seq[b] = t;
    }
    *n_used = used;
}

dls_status dls__chain_best_order(const dls__star *st, const dls__chain_params *par,
                                 double t_upper, double deadline, size_t *seq, size_t *n_used,
                                 double *T, size_t *points, dls_error *err)
{
    size_t m = st->m;
    *points = 0;
    if (m == 0 || m > DLS__CHAIN_ORDER_MAX || !(t_upper > 0))
        return dls__fail(err, DLS_EINVAL, "schedule", "the exact order search takes 1 to %d "
                         "processors and a known makespan > 0, not %zu and %.10g",
                         DLS__CHAIN_ORDER_MAX, m, t_upper);
    dls__cprob pb;
    dls_status rc = dls__cprob_build(st, st->V, par, &pb, err);
    if (rc != DLS_OK)
        return rc;
    size_t N = (size_t)1 << m;
    store s;
    memset(&s, 0, sizeof s);
    s.off = malloc(N * sizeof *s.off);
    s.cnt = calloc(N, sizeof *s.cnt);
    s.tail = malloc(N * sizeof *s.tail);
    int select = par->mode == DLS__CHAIN_SELECT;
    size_t max_points = par->max_work ? par->max_work : DLS__CHAIN_ORDER_MAX_POINTS;
    const char *why = "";
    int done = s.off && s.cnt && s.tail
                   ? build(&pb, select, pb.V * DLS__CHAIN_VCAP,
                           t_upper / pb.tu * (1 + DLS__CHAIN_WINDOW_SLACK), max_points,
                           deadline, &s, &why)
                   : -1;
    *points = s.n;
    if (done < 0) {
        rc = dls__oom(err, "schedule");
    } else if (done == 0) {
        rc = dls__fail(err, DLS_ELIMIT, "schedule", "the exact order search stopped: %s (%zu "
                       "points of value functions, at most %zu)", why, s.n, max_points);
    } else {
        dls__pwl f = store_view(&s, N - 1);
        double t = f.n ? dls__pwl_reach(&f, pb.V) : INFINITY;
        if (!isfinite(t)) {
            /* the known order reaches V at t_upper: only rounding at the window's end
             * leaves the functions short of it */
            rc = dls__fail(err, DLS_ELIMIT, "schedule", "the exact order search found no order "
                           "below the known makespan %.17g s (rounding at the window's end)",
                           t_upper);
        } else {
            forward(&pb, select, &s, t, seq, n_used);
            *T = t * pb.tu;
        }
    }
    store_free(&s);
    dls__cprob_free(&pb);
    return rc;
}

/* ---------------------------------------------------------------------------------- */
/* Pricing orders that share a suffix with an incumbent                               */

struct dls__chain_suffix {
    dls__cprob pb;
    int select;
    double vcap, wmax;      /* scaled */
    size_t max_points, max_pieces;
    size_t *inc;            /* the incumbent order (positions) */
    dls__pwl *f;            /* f[k]: positions inc[k..m-1], f[m] = 0 */
    dls__pwl work[2], scratch[5];
    dls__vcurve *vc;        /* by position */
    int ready;              /* f holds the incumbent's functions */
};

void dls__chain_suffix_free(dls__chain_suffix *cs)
{
    if (cs == NULL)
        return;
    size_t m = cs->pb.m;
    for (size_t k = 0; cs->f && k <= m; k++)
        dls__pwl_free(&cs->f[k]);
    for (size_t k = 0; cs->vc && k < m; k++) {
        free(cs->vc[k].r);
        free(cs->vc[k].al);
    }
    for (int i = 0; i < 2; i++)
        dls__pwl_free(&cs->work[i]);
    for (int i = 0; i < 5; i++)
        dls__pwl_free(&cs->scratch[i]);
    free(cs->f);
    free(cs->vc);
    free(cs->inc);
    dls__cprob_free(&cs->pb);
    free(cs);
}

dls_status dls__chain_suffix_create(const dls__star *st, const dls__chain_params *par,
                                    double t_upper, dls__chain_suffix **out, dls_error *err)
{
    dls__chain_suffix *cs = calloc(1, sizeof *cs);
    if (cs == NULL)
        return dls__oom(err, "schedule");
    dls_status rc = dls__cprob_build(st, st->V, par, &cs->pb, err);
    if (rc != DLS_OK) {
        free(cs);
        return rc;
    }
    size_t m = st->m;
    cs->select = par->mode == DLS__CHAIN_SELECT;
    cs->vcap = cs->pb.V * DLS__CHAIN_VCAP;
    cs->wmax = t_upper / cs->pb.tu * (1 + DLS__CHAIN_WINDOW_SLACK);
    /* the selection's own bounds (select.c): within them its answer is exact, and so are
     * these functions; past them the chain's answer is a heuristic's, which these could
     * not reproduce */
    cs->max_points = par->max_work;
    if (cs->max_points == 0) {
        cs->max_points = DLS__CHAIN_DEFAULT_WORK_PER_LINE * st->off[st->m];
        if (cs->max_points < DLS__CHAIN_DEFAULT_MIN_WORK)
            cs->max_points = DLS__CHAIN_DEFAULT_MIN_WORK;
    }
    cs->max_pieces = par->max_pieces;
    cs->inc = malloc(m * sizeof *cs->inc);
    cs->f = calloc(m + 1, sizeof *cs->f);
    cs->vc = calloc(m, sizeof *cs->vc);
    int ok = cs->inc && cs->f && cs->vc;
    for (size_t k = 0; ok && k < m; k++) {
        cs->vc[k].r = malloc((cs->pb.max_lines + 2) * sizeof *cs->vc[k].r);
        cs->vc[k].al = malloc((cs->pb.max_lines + 2) * sizeof *cs->vc[k].al);
        ok = cs->vc[k].r && cs->vc[k].al;
    }
    ok = ok && dls__pwl_push(&cs->f[m], 0, 0) == 0;
    if (!ok) {
        dls__chain_suffix_free(cs);
        return dls__oom(err, "schedule");
    }
    cs->f[m].tail = 0;
    *out = cs;
    return DLS_OK;
}

/* One stage of position p above g into f. */
static int suffix_stage(dls__chain_suffix *cs, size_t p, const dls__pwl *g, dls__pwl *f)
{
    if (g->n == 0) {
        f->n = 0;
        return 0;
    }
    return cs->select ? dls__stage_select(&cs->pb, p, g, cs->vcap, cs->wmax, &cs->vc[p], f,
                                          cs->scratch)
                      : dls__stage_charged(&cs->pb, p, g, cs->vcap, cs->wmax, &cs->vc[p], f,
                                           cs->scratch);
}

/* The makespan (s) read off f_1: INFINITY when V is out of the window's reach. */
static double suffix_reach(const dls__chain_suffix *cs, const dls__pwl *f)
{
    double t = f->n ? dls__pwl_reach(f, cs->pb.V) : INFINITY;
    return t <= cs->wmax ? t * cs->pb.tu : INFINITY;
}

dls_status dls__chain_suffix_set(dls__chain_suffix *cs, const size_t *pos, double *T,
                                 dls_error *err)
{
    size_t m = cs->pb.m, points = 0;
    cs->ready = 0;
    memcpy(cs->inc, pos, m * sizeof *pos);
    for (size_t k = m; k-- > 0;) {
        if (suffix_stage(cs, pos[k], &cs->f[k + 1], &cs->f[k]) != 0)
            return dls__oom(err, "schedule");
        points += cs->f[k].n;
        if (points > cs->max_points || cs->f[k].n > cs->max_pieces)
            return dls__fail(err, DLS_ELIMIT, "schedule", "the value functions of an order need "
                             "more than %zu points (%zu in one)", cs->max_points,
                             cs->max_pieces);
    }
    cs->ready = 1;
    *T = suffix_reach(cs, &cs->f[0]);
    return DLS_OK;
}

dls_status dls__chain_suffix_price(dls__chain_suffix *cs, const size_t *pos, size_t from,
                                   double *T, dls_error *err)
{
    size_t m = cs->pb.m;
    if (!cs->ready || from > m)
        return dls__fail(err, DLS_EINVAL, "schedule", "no incumbent order to price from");
    if (from == 0) {
        *T = suffix_reach(cs, &cs->f[0]);
        return DLS_OK;
    }
    const dls__pwl *g = &cs->f[from];
    int w = 0;
    for (size_t k = from; k-- > 0;) {
        dls__pwl *f = &cs->work[w];
        if (suffix_stage(cs, pos[k], g, f) != 0)
            return dls__oom(err, "schedule");
        g = f;
        w ^= 1;
    }
    *T = suffix_reach(cs, g);
    return DLS_OK;
}
