/* The balancer of iterative applications (include/dlsched/balance.h).
 *
 * State: per processor the points its iterations measured (size x, and the seconds per
 * unit r = t / x: mean, lowest, highest), all in one pool. A step builds the new pool from
 * the old one and the new times, the models from the new pool, and the next distribution
 * from the models with dls_partition_solve(); only when all of that succeeded does it
 * replace the state, so that a failed step leaves the balancer as it was.
 *
 * The model between measured points (functional mode). A processor's time t(x) is known at
 * its points; between two of them the chord is what a straight line says, and the lines
 * through the neighbouring pairs of points, prolonged into the interval, are what a convex
 * time (a processor that pages beyond its memory) could do at best. The chord alone
 * approaches a knee from one side, one iteration at a time; the neighbours' lines alone
 * overshoot when a slope is measured across the knee. The model takes, for each time T,
 * the middle of the sizes both allow (BRACKET_WEIGHT), which finds the knee in a few
 * iterations. Beyond the largest point it goes half as far as the last slope allows, and
 * never past `trust` times that point. Slopes come only from points at least
 * min_separation apart, so that noise between close sizes does not make a slope up. The
 * result is sampled at its breakpoints into a DLS_MODEL_POINTS model. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "balance/balance_impl.h"
#include "core/names.h"
#include "dlsched/model.h"

/* Where the model sits between the chord (0) and the neighbours' lines (1); 1/2 halves
 * the interval the knee can be in at each iteration (measured on random platforms that
 * page: doc/BENCHMARKS.md). */
#define BRACKET_WEIGHT 0.5
#define BEYOND_WEIGHT 0.5
/* Sizes within this relative distance are one point (their times merge into its band). */
#define SAME_SIZE 1e-3
/* Slopes only from points at least this far apart (relative), and this many times the
 * noise: closer points' slopes are mostly noise. */
#define MIN_SEPARATION 0.015
#define SEPARATION_PER_NOISE 1.5
/* A new time outside its point's band by more than this many times the noise is a drift. */
#define DRIFT_NOISE 3.0
/* Speeds of neighbouring points of a model differ by at most this factor (minus 1), up to
 * MAX_PIECES pieces per segment of the curve. */
#define SPEED_STEP 0.02
#define MAX_PIECES 64
/* Virtual points of one interval at most: its start, the breakpoints, its end. */
#define INTERVAL_POINTS 8

DLS__ENUM_NAMES(dls_balance_mode, dls_balance_mode, DLS_BALANCE_MODE_MAP)

/* A measured point: its size, and the seconds per unit of the times measured there. */
typedef struct bpoint {
    double x;
    double r, r_lo, r_hi;  /* mean, lowest, highest */
    uint64_t seen;         /* the step that measured it last (the oldest is forgotten) */
    uint64_t count;        /* times merged */
} bpoint;

/* The points of every processor: processor i's are pts[off[i]] to pts[off[i + 1]], by
 * size. */
typedef struct pool {
    bpoint *pts;
    size_t *off;  /* p + 1 */
} pool;

struct dls_balance {
    size_t p;
    uint64_t n;
    dls_balance_params par;  /* arrays set to NULL: the copies are below */
    double *limits;          /* p: the user's and the prior's, INFINITY for none */
    double *weights;         /* n, or NULL */
    dls_model **prior;       /* p, or NULL */
    double *startup, *rate;  /* p: each processor's link for moves (rate per unit) */
    pool pts;
    uint64_t *shares, *first;
    double *predicted;
    size_t *drifted, ndrifted;
    dls_move_plan *moves;
    dls_balance_info info;
};

void dls_balance_params_init(dls_balance_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->mode = DLS_BALANCE_FUNCTIONAL;
    params->use_limits = 1;
    params->noise = 0.02;
    params->tolerance = 0.02;
    params->move_cost = 0;
    params->horizon = 10;
    params->trust = 2;
    params->max_points = 64;
}

/* ---------------------------------------------------------------------------------- */
/* Creation                                                                           */

static dls_status check_params(const dls_balance_params *par, size_t p, dls_error *err)
{
    static const char fn[] = "dls_balance_create";
    dls_status st = DLS__CHECK_RESERVED(par, fn, dls_balance_params, err);
    if (st != DLS_OK)
        return st;
    if (par->mode != DLS_BALANCE_FUNCTIONAL && par->mode != DLS_BALANCE_CONSTANT)
        return dls__fail(err, DLS_EINVAL, fn, "unknown mode %d (functional is %d, constant %d)",
                         (int)par->mode, (int)DLS_BALANCE_FUNCTIONAL,
                         (int)DLS_BALANCE_CONSTANT);
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, fn, "use_limits must be 0 or 1, not %d", par->use_limits);
    if (!(par->noise >= 0 && par->noise < 0.5))
        return dls__fail(err, DLS_EINVAL, fn, "noise must be in [0, 0.5), not %.10g", par->noise);
    if (!(par->tolerance > 0 && par->tolerance < 1))
        return dls__fail(err, DLS_EINVAL, fn, "tolerance must be in (0, 1), not %.10g",
                         par->tolerance);
    if (!(par->move_cost >= 0 && par->move_cost <= DLS_DOMAIN_MAX))
        return dls__fail(err, DLS_EINVAL, fn, "move_cost must be seconds per element, >= 0 "
                         "and at most %g, not %.10g", DLS_DOMAIN_MAX, par->move_cost);
    if (!(par->horizon >= 1 && par->horizon <= 1e15))
        return dls__fail(err, DLS_EINVAL, fn, "horizon must be iterations in [1, 1e15], not "
                         "%.10g", par->horizon);
    if (!(par->trust > 1 && par->trust <= 1e6))
        return dls__fail(err, DLS_EINVAL, fn, "trust must be a factor in (1, 1e6], not %.10g",
                         par->trust);
    if (par->max_points < 2 || par->max_points > 1000000)
        return dls__fail(err, DLS_EINVAL, fn, "max_points must be in [2, 1000000], not %zu",
                         par->max_points);
    if (par->prior != NULL && dls_platform_count(par->prior) != p)
        return dls__fail(err, DLS_EINVAL, fn, "the prior platform has %zu processors, the "
                         "balancer %zu", dls_platform_count(par->prior), p);
    return DLS_OK;
}

/* The arrays given: limits, weights and start, each value in its range. */
static dls_status check_arrays(const dls_balance_params *par, size_t p, uint64_t n,
                               dls_error *err)
{
    static const char fn[] = "dls_balance_create";
    for (size_t i = 0; par->limits != NULL && i < p; i++) {
        double l = par->limits[i];
        if (!(l > 0) || (isfinite(l) && (l < DLS_DOMAIN_MIN || l > DLS_DOMAIN_MAX)))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "the limit of processor %zu "
                                "must be > 0 within [%g, %g], or INFINITY, not %.10g", i,
                                DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, l);
    }
    for (uint64_t k = 0; par->weights != NULL && k < n; k++) {
        double w = par->weights[k];
        if (!(w >= DLS_DOMAIN_MIN && w <= DLS_DOMAIN_MAX))
            return dls__fail(err, DLS_EINVAL, fn, "the weight of element %llu must be finite "
                             "and > 0 within [%g, %g], not %.10g", (unsigned long long)k,
                             DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, w);
    }
    if (par->start != NULL) {
        uint64_t sum = 0;
        for (size_t i = 0; i < p; i++) {
            if (par->start[i] > n - sum)
                return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "the start counts add "
                                    "up to more than the %llu elements (at processor %zu)",
                                    (unsigned long long)n, i);
            sum += par->start[i];
        }
        if (sum != n)
            return dls__fail(err, DLS_EINVAL, fn, "the start counts add up to %llu elements, "
                             "not the %llu the balancer shares", (unsigned long long)sum,
                             (unsigned long long)n);
    }
    for (size_t i = 0; par->prior != NULL && i < p; i++)
        if (dls_model_dimension(dls_platform_model(par->prior, i)) != 1)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor %zu (\"%s\") of "
                                "the prior has a 2-D model: cut it first (dls_model_section)",
                                i, dls_platform_name(par->prior, i));
    return DLS_OK;
}

void dls_balance_free(dls_balance *b)
{
    if (b == NULL)
        return;
    free(b->limits);
    free(b->weights);
    if (b->prior != NULL)
        for (size_t i = 0; i < b->p; i++)
            dls_model_free(b->prior[i]);
    free(b->prior);
    free(b->startup);
    free(b->rate);
    free(b->pts.pts);
    free(b->pts.off);
    free(b->shares);
    free(b->first);
    free(b->predicted);
    free(b->drifted);
    dls_move_plan_free(b->moves);
    free(b);
}

/* The copies of what the parameters point to: limits (the user's and the prior's), the
 * weights, the prior's models and links. */
static dls_status copy_inputs(dls_balance *b, const dls_balance_params *par, dls_error *err)
{
    static const char fn[] = "dls_balance_create";
    size_t p = b->p;
    b->limits = malloc(p * sizeof *b->limits);
    b->startup = calloc(p, sizeof *b->startup);
    b->rate = malloc(p * sizeof *b->rate);
    if (b->limits == NULL || b->startup == NULL || b->rate == NULL)
        return dls__oom(err, fn);
    for (size_t i = 0; i < p; i++) {
        double l = par->limits ? par->limits[i] : INFINITY;
        if (par->prior != NULL && dls_platform_limit(par->prior, i) < l)
            l = dls_platform_limit(par->prior, i);
        b->limits[i] = par->use_limits ? l : INFINITY;
        b->rate[i] = par->move_cost;
        double s, r;
        if (par->prior != NULL && dls_platform_has_link(par->prior, i) &&
            dls_platform_link(par->prior, i, &s, &r) == DLS_OK) {
            b->startup[i] = s;
            b->rate[i] = r;
        }
    }
    if (par->weights != NULL) {
        b->weights = malloc(b->n * sizeof *b->weights);
        if (b->weights == NULL)
            return dls__oom(err, fn);
        memcpy(b->weights, par->weights, b->n * sizeof *b->weights);
    }
    if (par->prior != NULL) {
        b->prior = calloc(p, sizeof *b->prior);
        if (b->prior == NULL)
            return dls__oom(err, fn);
        for (size_t i = 0; i < p; i++) {
            dls_status st = dls_model_copy(dls_platform_model(par->prior, i), &b->prior[i], err);
            if (st != DLS_OK)
                return st;
        }
    }
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The model of one processor                                                         */

/* A processor's points as the model reads them: the origin, then each point's size and
 * mean time, the times made non-decreasing (a larger share never takes less time; a
 * smaller mean at a larger size is noise). */
typedef struct curve {
    size_t m;           /* points after the origin */
    const double *x;    /* m + 1, x[0] = 0 */
    const double *t;    /* m + 1, t[0] = 0 */
    double min_sep;     /* slopes only from points this far apart (relative) */
} curve;

/* The slope of segment a (points a and a + 1), or 0 when there is none to trust. */
static double slope(const curve *c, long a)
{
    if (a < 0 || (size_t)a + 1 > c->m)
        return 0;
    double dx = c->x[a + 1] - c->x[a];
    if (!(dx > 0) || (a > 0 && dx < c->min_sep * c->x[a + 1]))
        return 0;
    double s = (c->t[a + 1] - c->t[a]) / dx;
    return s > 0 ? s : 0;
}

/* The size the model gives at time T in interval j (t[j - 1] < T <= t[j], 1 <= j <= m):
 * the middle of the chord's size and the largest size the neighbours' lines allow. */
static double interval_size(const curve *c, size_t j, double T)
{
    double x0 = c->x[j - 1], x1 = c->x[j], t0 = c->t[j - 1], t1 = c->t[j];
    if (!(t1 > t0))
        return x1;
    double xc = x0 + (T - t0) * (x1 - x0) / (t1 - t0);
    double low = INFINITY;
    double sl = slope(c, (long)j - 2), sr = slope(c, (long)j);
    if (sl > 0)
        low = x0 + (T - t0) / sl;
    if (sr > 0)
        low = fmin(low, x1 + (T - t1) / sr);
    else if (j == c->m && sl > 0)
        low = fmin(low, x1); /* the last interval: no point beyond says more */
    if (!isfinite(low))
        return xc;
    low = fmin(fmax(low, xc), x1);
    return xc + BRACKET_WEIGHT * (low - xc);
}

/* Appends the value of T where the line x = a0 + a1 T meets x = b0 + b1 T, when it lies in
 * (lo, hi). */
static void meet(double a0, double a1, double b0, double b1, double lo, double hi, double *T,
                 size_t *k)
{
    if (a1 == b1)
        return;
    double v = (b0 - a0) / (a1 - b1);
    if (v > lo && v < hi && *k < INTERVAL_POINTS - 2)
        T[(*k)++] = v;
}

static int by_value(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

/* The breakpoints of interval j in T, sorted: where the chord, the neighbours' lines and
 * the interval's end cross (every piece of interval_size is linear in T between them). */
static size_t interval_breaks(const curve *c, size_t j, double *T)
{
    double x0 = c->x[j - 1], x1 = c->x[j], t0 = c->t[j - 1], t1 = c->t[j];
    size_t k = 0;
    if (!(t1 > t0))
        return 0;
    /* each size as x = a0 + a1 T */
    double c1 = (x1 - x0) / (t1 - t0), c0 = x0 - t0 * c1;
    double sl = slope(c, (long)j - 2), sr = slope(c, (long)j);
    double l1 = sl > 0 ? 1 / sl : 0, l0 = x0 - t0 * l1;
    double r1 = sr > 0 ? 1 / sr : 0, r0 = x1 - t1 * r1;
    if (sl > 0) {
        meet(l0, l1, c0, c1, t0, t1, T, &k);
        meet(l0, l1, x1, 0, t0, t1, T, &k);
    }
    if (sr > 0) {
        meet(r0, r1, c0, c1, t0, t1, T, &k);
        meet(r0, r1, x1, 0, t0, t1, T, &k);
    }
    if (sl > 0 && sr > 0)
        meet(l0, l1, r0, r1, t0, t1, T, &k);
    qsort(T, k, sizeof *T, by_value);
    return k;
}

/* The virtual points of a processor's model (see the head of this file) into xs, ts (room
 * for (m + 1) * INTERVAL_POINTS + 1 each); their count. *cap receives the size beyond which
 * the model is not trusted. */
static size_t model_points(const curve *c, double trust, double *xs, double *ts, double *cap)
{
    size_t k = 0;
    double T[INTERVAL_POINTS];
    for (size_t j = 1; j <= c->m; j++) {
        double t0 = c->t[j - 1], t1 = c->t[j];
        if (j > 1 && t1 > t0) {
            /* the start of the interval, where the neighbours' lines may already allow more
             * than its first point (a jump in size, just after t0) */
            double ts0 = t0 + 1e-9 * (t1 - t0);
            xs[k] = interval_size(c, j, ts0);
            ts[k++] = ts0;
        }
        size_t nb = interval_breaks(c, j, T);
        for (size_t b = 0; b < nb; b++) {
            xs[k] = interval_size(c, j, T[b]);
            ts[k++] = T[b];
        }
        xs[k] = c->x[j];
        ts[k++] = t1;
    }
    /* beyond the last point: half as far as its last slope allows, up to trust times it */
    double xm = c->x[c->m], tm = c->t[c->m];
    double s = slope(c, (long)c->m - 1);
    if (!(s > 0))
        s = tm / xm;
    *cap = trust * xm;
    xs[k] = *cap;
    ts[k++] = tm + (*cap - xm) * s / BEYOND_WEIGHT;
    /* keep sizes increasing and times non-decreasing (a jump's start may repeat a size) */
    size_t w = 0;
    for (size_t r = 0; r < k; r++) {
        if (w > 0 && !(xs[r] > xs[w - 1] * (1 + 1e-12)))
            continue;
        if (w > 0 && ts[r] < ts[w - 1])
            ts[r] = ts[w - 1];
        if (!(ts[r] > 0) || !(xs[r] > 0))
            continue;
        xs[w] = xs[r];
        ts[w++] = ts[r];
    }
    return w;
}

/* Processor i's points of pool q as a curve (into x and t, m + 1 each). */
static curve curve_of(const pool *q, size_t i, double min_sep, double *x, double *t)
{
    const bpoint *pt = q->pts + q->off[i];
    size_t m = q->off[i + 1] - q->off[i];
    x[0] = 0;
    t[0] = 0;
    for (size_t k = 0; k < m; k++) {
        x[k + 1] = pt[k].x;
        t[k + 1] = fmax(pt[k].r * pt[k].x, t[k]);
    }
    return (curve){m, x, t, min_sep};
}

/* Scratch for building one processor's model: room for its curve and virtual points. */
typedef struct scratch {
    size_t room;
    double *cx, *ct, *xs, *sp;
} scratch;

static void scratch_free(scratch *s)
{
    free(s->cx);
    free(s->ct);
    free(s->xs);
    free(s->sp);
}

static int scratch_fit(scratch *s, size_t m)
{
    size_t need = (m + 1) * INTERVAL_POINTS + 2;
    if (need <= s->room)
        return 1;
    scratch_free(s);
    s->cx = malloc(need * sizeof *s->cx);
    s->ct = malloc(need * sizeof *s->ct);
    s->xs = malloc(need * sizeof *s->xs);
    s->sp = malloc(need * sizeof *s->sp);
    s->room = s->cx && s->ct && s->xs && s->sp ? need : 0;
    return s->room > 0;
}

/* Pieces a segment of the curve (x0, t0) to (x1, t1) is cut into, so that speeds between
 * its points, linear in a POINTS model, stay close to the times, linear in the curve. */
static size_t pieces(double x0, double t0, double x1, double t1)
{
    double ratio = (x0 / t0) / (x1 / t1);
    double n = ceil(fabs(log(ratio)) / log(1 + SPEED_STEP));
    return n < 1 ? 1 : n > MAX_PIECES ? MAX_PIECES : (size_t)n;
}

/* The functional model of processor i from the points of q, and the size it is trusted
 * to (*cap). */
static dls_status functional_model(const dls_balance *b, const pool *q, size_t i, scratch *s,
                                   dls_model **out, double *cap, dls_error *err)
{
    size_t m = q->off[i + 1] - q->off[i];
    if (!scratch_fit(s, m))
        return dls__oom(err, "dls_balance_step");
    double min_sep = fmax(MIN_SEPARATION, SEPARATION_PER_NOISE * b->par.noise);
    curve c = curve_of(q, i, min_sep, s->cx, s->ct);
    size_t k = model_points(&c, b->par.trust, s->xs, s->sp, cap);
    /* a POINTS model is linear in speed between its points, the curve linear in time: points
     * added inside each piece until both agree within SPEED_STEP */
    size_t need = 1;
    for (size_t r = 1; r < k; r++)
        need += pieces(s->xs[r - 1], s->sp[r - 1], s->xs[r], s->sp[r]);
    double *x = malloc(2 * need * sizeof *x);
    if (x == NULL)
        return dls__oom(err, "dls_balance_step");
    double *sp = x + need;
    size_t w = 0;
    x[w] = s->xs[0];
    sp[w++] = s->xs[0] / s->sp[0];
    for (size_t r = 1; r < k; r++) {
        double x0 = s->xs[r - 1], t0 = s->sp[r - 1], x1 = s->xs[r], t1 = s->sp[r];
        size_t np = pieces(x0, t0, x1, t1);
        for (size_t u = 1; u <= np; u++) {
            double f = (double)u / (double)np;
            x[w] = u == np ? x1 : x0 + f * (x1 - x0);
            sp[w] = x[w] / (u == np ? t1 : t0 + f * (t1 - t0));
            w++;
        }
    }
    dls_status st = dls_model_create_points(w, x, sp, NULL, NULL, out, err);
    free(x);
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* The points                                                                         */

/* The size processor i's share has: its count, or the weight of its chunk. */
static double share_size(const dls_balance *b, size_t i, const uint64_t *shares,
                         const uint64_t *first)
{
    if (b->weights == NULL)
        return (double)shares[i];
    double w = 0;
    for (uint64_t k = first[i]; k < first[i] + shares[i]; k++)
        w += b->weights[k];
    return w;
}

/* Processor i's points from the old pool with the new time t at size x (x > 0), into out
 * (room for the old count + 1); their count. *drift: 1 when t fell outside the band of
 * the point of the same size (the older points are then dropped). */
static size_t merge_point(const dls_balance *b, size_t i, double x, double t, bpoint *out,
                          int *drift)
{
    const bpoint *old = b->pts.pts + b->pts.off[i];
    size_t m = b->pts.off[i + 1] - b->pts.off[i];
    double r = t / x, nu = b->par.noise;
    uint64_t step = b->info.steps + 1;
    bpoint fresh = {x, r, r, r, step, 1};
    *drift = 0;
    size_t same = m;
    for (size_t k = 0; k < m; k++)
        if (fabs(old[k].x - x) <= SAME_SIZE * fmax(old[k].x, x))
            same = k;
    if (same < m) {
        const bpoint *o = &old[same];
        *drift = r > o->r_lo * (1 + DRIFT_NOISE * nu) * (1 + 1e-12) ||
                 r < o->r_hi * (1 - DRIFT_NOISE * nu) * (1 - 1e-12);
    }
    /* a time that no longer fits the others: less than a smaller size took, or more than a
     * larger one, beyond the noise (a larger share never takes less time), means the
     * processor itself changed */
    for (size_t k = 0; k < m && !*drift; k++) {
        double tk = old[k].x * old[k].r;
        if (k == same)
            continue;
        if (old[k].x < x && tk > t * (1 + DRIFT_NOISE * nu) * (1 + 1e-12))
            *drift = 1;
        if (old[k].x > x && tk * (1 + DRIFT_NOISE * nu) * (1 + 1e-12) < t)
            *drift = 1;
    }
    if (*drift) {
        out[0] = fresh;
        return 1;
    }
    /* copy, merging into the point of the same size, and drop the oldest past max_points */
    size_t n = 0, oldest = m;
    for (size_t k = 0; k < m; k++)
        if (k != same && (oldest == m || old[k].seen < old[oldest].seen))
            oldest = k;
    size_t total = same < m ? m : m + 1;
    int drop = total > b->par.max_points;
    int placed = 0;
    for (size_t k = 0; k < m; k++) {
        if (drop && k == oldest)
            continue;
        if (!placed && same == m && x < old[k].x) {
            out[n++] = fresh;
            placed = 1;
        }
        bpoint v = old[k];
        if (k == same) {
            double c = (double)v.count;
            v.x = (v.x * c + x) / (c + 1);
            v.r_lo = fmin(v.r_lo, r);
            v.r_hi = fmax(v.r_hi, r);
            /* the mean of equal times can round outside them: keep it in its band */
            v.r = fmin(fmax((v.r * c + r) / (c + 1), v.r_lo), v.r_hi);
            v.seen = step;
            v.count++;
        }
        out[n++] = v;
    }
    if (!placed && same == m)
        out[n++] = fresh;
    return n;
}

/* The new pool: the old points with this step's times (processors without work keep
 * theirs). Records the processors that drifted in drifted (*nd of them). */
static dls_status new_pool(const dls_balance *b, const double *times, pool *q, size_t *drifted,
                           size_t *nd, dls_error *err)
{
    size_t p = b->p;
    q->off = malloc((p + 1) * sizeof *q->off);
    q->pts = malloc((b->pts.off[p] + p + 1) * sizeof *q->pts);
    if (q->off == NULL || q->pts == NULL)
        return dls__oom(err, "dls_balance_step");
    size_t at = 0;
    *nd = 0;
    for (size_t i = 0; i < p; i++) {
        q->off[i] = at;
        if (b->shares[i] == 0) {
            size_t m = b->pts.off[i + 1] - b->pts.off[i];
            if (m > 0)
                memcpy(q->pts + at, b->pts.pts + b->pts.off[i], m * sizeof *q->pts);
            at += m;
            continue;
        }
        int drift;
        at += merge_point(b, i, share_size(b, i, b->shares, b->first), times[i], q->pts + at,
                          &drift);
        if (drift)
            drifted[(*nd)++] = i;
    }
    q->off[p] = at;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Models and the next distribution                                                   */

/* The speed a processor with neither points nor prior is given: the median of those
 * measured at this step. Not the smallest: a processor that looks slowest gets no work
 * and is never measured; the median gets it a share, and its first time says more. */
static double fallback_speed(const dls_balance *b, const pool *q, const double *times)
{
    size_t need = 0;
    for (size_t i = 0; i < b->p; i++)
        need += q->off[i + 1] == q->off[i] && b->prior == NULL;
    if (need == 0 || times == NULL)
        return 1;
    double *s = malloc(b->p * sizeof *s);
    size_t k = 0;
    for (size_t i = 0; s != NULL && i < b->p; i++)
        if (b->shares[i] > 0 && times[i] > 0)
            s[k++] = share_size(b, i, b->shares, b->first) / times[i];
    double v = 1;
    if (k > 0) {
        qsort(s, k, sizeof *s, by_value);
        v = k % 2 ? s[k / 2] : (s[k / 2 - 1] + s[k / 2]) / 2;
    }
    free(s);
    return v;
}

/* Processor i's model in the constant mode: its speed at this step, else its last point's,
 * else the prior's model, else the fallback. */
static dls_status constant_model(const dls_balance *b, const pool *q, size_t i,
                                 const double *times, double fallback, dls_model **out,
                                 dls_error *err)
{
    double speed = fallback;
    const bpoint *pt = q->pts + q->off[i];
    size_t m = q->off[i + 1] - q->off[i], last = m;
    for (size_t k = 0; k < m; k++)
        if (last == m || pt[k].seen > pt[last].seen)
            last = k;
    if (times != NULL && b->shares[i] > 0)
        speed = share_size(b, i, b->shares, b->first) / times[i];
    else if (last < m)
        speed = 1 / pt[last].r;
    else if (b->prior != NULL)
        return dls_model_copy(b->prior[i], out, err);
    return dls_model_create_constant(speed, out, err);
}

/* Every processor's model from the points of q (and the prior, and this step's times when
 * not NULL), and the size each may take (caps: its limit, and in the functional mode the
 * size its model is trusted to). */
static dls_status build_models(const dls_balance *b, const pool *q, const double *times,
                               dls_model **models, double *caps, dls_error *err)
{
    double fallback = fallback_speed(b, q, times);
    scratch s = {0, NULL, NULL, NULL, NULL};
    dls_status st = DLS_OK;
    for (size_t i = 0; st == DLS_OK && i < b->p; i++) {
        size_t m = q->off[i + 1] - q->off[i];
        caps[i] = b->limits[i];
        if (b->par.mode == DLS_BALANCE_CONSTANT) {
            st = constant_model(b, q, i, times, fallback, &models[i], err);
        } else if (m > 0) {
            double cap = INFINITY;
            st = functional_model(b, q, i, &s, &models[i], &cap, err);
            caps[i] = fmin(caps[i], cap);
        } else if (b->prior != NULL) {
            st = dls_model_copy(b->prior[i], &models[i], err);
        } else {
            st = dls_model_create_constant(fallback, &models[i], err);
        }
    }
    scratch_free(&s);
    return st;
}

/* The partition of the n elements on the models with the sizes capped; *feasible 0 when
 * the caps cannot hold them. */
static dls_status partition_on(const dls_balance *b, dls_model *const *models,
                               const double *caps, dls_partition **out, dls_error *err)
{
    dls_platform *pl = NULL;
    dls_status st = dls_platform_create(&pl, err);
    char name[32];
    for (size_t i = 0; st == DLS_OK && i < b->p; i++) {
        snprintf(name, sizeof name, "%zu", i);
        st = dls_platform_add(pl, name, models[i], NULL, err);
        if (st == DLS_OK && isfinite(caps[i]))
            st = dls_platform_set_limit(pl, i, fmax(caps[i], DLS_DOMAIN_MIN), err);
    }
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.weights = b->weights;
    par.ordered = b->weights != NULL;
    if (st == DLS_OK)
        st = dls_partition_solve(pl, b->n, &par, out, err);
    dls_platform_free(pl);
    return st;
}

/* The next distribution on the models: within the caps, or within the limits alone when
 * the caps cannot hold the elements. next (p counts) and pred (p times) are filled. */
static dls_status distribute(const dls_balance *b, dls_model *const *models, const double *caps,
                             uint64_t *next, double *pred, dls_error *err)
{
    static const char fn[] = "dls_balance_step";
    dls_partition *r = NULL;
    dls_status st = partition_on(b, models, caps, &r, err);
    if (st == DLS_OK && dls_partition_status(r) == DLS_SOLUTION_INFEASIBLE) {
        dls_partition_free(r);
        r = NULL;
        st = partition_on(b, models, b->limits, &r, err);
    }
    if (st != DLS_OK)
        return dls__error_retag(err, st, fn);
    dls_solution_status ss = dls_partition_status(r);
    if (ss != DLS_SOLUTION_OPTIMAL && ss != DLS_SOLUTION_FEASIBLE) {
        dls__fail(err, DLS_EDATA, fn, "no distribution of the %llu elements within the "
                  "limits: %s", (unsigned long long)b->n, dls_partition_note(r));
        dls_partition_free(r);
        return DLS_EDATA;
    }
    memcpy(next, dls_partition_elements(r), b->p * sizeof *next);
    memcpy(pred, dls_partition_times(r), b->p * sizeof *pred);
    dls_partition_free(r);
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* A step                                                                             */

/* The arguments of a step, before anything changes. */
static dls_status check_step(const dls_balance *b, size_t p, const uint64_t *ran,
                             const double *times, dls_error *err)
{
    static const char fn[] = "dls_balance_step";
    if (b == NULL || times == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "the balancer and the times must not be NULL");
    if (p != b->p)
        return dls__fail(err, DLS_EINVAL, fn, "%zu times given to a balancer of %zu processors "
                         "(the number of processors cannot change: create a new balancer)", p,
                         b->p);
    for (size_t i = 0; i < p; i++) {
        if (ran != NULL && ran[i] != b->shares[i])
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor %zu ran %llu "
                                "elements, but its share is %llu: give the times of the shares "
                                "dls_balance_shares() gave", i, (unsigned long long)ran[i],
                                (unsigned long long)b->shares[i]);
        double t = times[i];
        if (b->shares[i] > 0 && !(t > 0 && t <= DLS_DOMAIN_MAX))
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "the time of processor %zu "
                                "for its %llu elements must be seconds, > 0 and at most %g, not "
                                "%.10g", i, (unsigned long long)b->shares[i], DLS_DOMAIN_MAX,
                                t);
        if (b->shares[i] == 0 && t != 0)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor %zu has no "
                                "elements and cannot have run: its time must be 0, not %.10g",
                                i, t);
    }
    return DLS_OK;
}

/* The largest time over the smallest, minus 1, among the processors with work. */
static double imbalance(size_t p, const uint64_t *shares, const double *t)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < p; i++)
        if (shares[i] > 0) {
            lo = fmin(lo, t[i]);
            hi = fmax(hi, t[i]);
        }
    return lo > 0 && isfinite(lo) ? hi / lo - 1 : NAN;
}

/* The relative half-width of the bands at the sizes just run: the noise expected, or more
 * where repeated sizes measured more. */
static double band_of(const dls_balance *b, const pool *q)
{
    double band = b->par.noise;
    for (size_t i = 0; i < b->p; i++) {
        if (b->shares[i] == 0)
            continue;
        double x = share_size(b, i, b->shares, b->first);
        for (size_t k = q->off[i]; k < q->off[i + 1]; k++) {
            const bpoint *v = &q->pts[k];
            if (v->count > 1 && fabs(v->x - x) <= SAME_SIZE * fmax(v->x, x))
                band = fmax(band, (v->r_hi - v->r_lo) / (2 * v->r));
        }
    }
    return band;
}

/* Seconds the moves of plan take into *out: each processor's link busy for its transfers,
 * the longest of them. */
static dls_status move_seconds(const dls_balance *b, const dls_move_plan *plan, double *out,
                               dls_error *err)
{
    double *busy = calloc(b->p, sizeof *busy), worst = 0;
    if (busy == NULL)
        return dls__oom(err, "dls_balance_step");
    size_t nm;
    const dls_move *mv = dls_move_plan_moves(plan, &nm);
    for (size_t k = 0; k < nm; k++) {
        size_t e[2] = {mv[k].from, mv[k].to};
        for (int s = 0; s < 2; s++) {
            busy[e[s]] += b->startup[e[s]] + (double)mv[k].count * b->rate[e[s]];
            worst = fmax(worst, busy[e[s]]);
        }
    }
    free(busy);
    *out = worst;
    return DLS_OK;
}

static void firsts(size_t p, const uint64_t *shares, uint64_t *first)
{
    uint64_t at = 0;
    for (size_t i = 0; i < p; i++) {
        first[i] = at;
        at += shares[i];
    }
}

/* What a step computes before it is kept. */
typedef struct outcome {
    pool q;
    size_t *drifted, nd;
    dls_model **models;
    double *caps, *pred;
    uint64_t *next, *first;
    dls_move_plan *plan;
    dls_balance_info info;
} outcome;

static void outcome_free(outcome *o, size_t p)
{
    free(o->q.pts);
    free(o->q.off);
    free(o->drifted);
    for (size_t i = 0; o->models != NULL && i < p; i++)
        dls_model_free(o->models[i]);
    free(o->models);
    free(o->caps);
    free(o->pred);
    free(o->next);
    free(o->first);
    dls_move_plan_free(o->plan);
}

static dls_status outcome_alloc(outcome *o, size_t p, dls_error *err)
{
    memset(o, 0, sizeof *o);
    o->drifted = malloc(p * sizeof *o->drifted);
    o->models = calloc(p, sizeof *o->models);
    o->caps = malloc(p * sizeof *o->caps);
    o->pred = malloc(p * sizeof *o->pred);
    o->next = malloc(p * sizeof *o->next);
    o->first = malloc(p * sizeof *o->first);
    if (!o->drifted || !o->models || !o->caps || !o->pred || !o->next || !o->first)
        return dls__oom(err, "dls_balance_step");
    return DLS_OK;
}

/* Whether to move: the gain per iteration beyond the band, and worth the moves' cost over
 * the horizon (the constant mode, the traditional rule, moves whenever it gains). Keeps
 * the distribution run otherwise. */
static dls_status decide(const dls_balance *b, const double *times, outcome *o, dls_error *err)
{
    dls_balance_info *in = &o->info;
    size_t p = b->p;
    double current = 0;
    for (size_t i = 0; i < p; i++)
        if (b->shares[i] > 0)
            current = fmax(current, dls_model_time(o->models[i],
                                                   share_size(b, i, b->shares, b->first)));
    double next = 0;
    for (size_t i = 0; i < p; i++)
        next = fmax(next, o->pred[i]);
    in->predicted_current = current;
    in->band = band_of(b, &o->q);
    in->gain = current - next;
    dls_status st = dls__move_plan_build(p, b->shares, o->next, "dls_balance_step", &o->plan, err);
    if (st != DLS_OK)
        return st;
    st = move_seconds(b, o->plan, &in->move_cost, err);
    if (st != DLS_OK)
        return st;
    double floor = b->par.mode == DLS_BALANCE_FUNCTIONAL ? in->band * current : 0;
    int worth = in->gain > floor && in->gain * b->par.horizon > in->move_cost;
    in->converged = in->gain <= fmax(b->par.tolerance, in->band) * current;
    if (!worth) {
        memcpy(o->next, b->shares, p * sizeof *o->next);
        for (size_t i = 0; i < p; i++)
            o->pred[i] = b->shares[i] > 0 ? dls_model_time(o->models[i], share_size(
                                                               b, i, b->shares, b->first))
                                          : 0;
        dls_move_plan_free(o->plan);
        o->plan = NULL;
        st = dls__move_plan_build(p, b->shares, o->next, "dls_balance_step", &o->plan, err);
    }
    firsts(p, o->next, o->first);
    in->changed = worth && dls_move_plan_moved(o->plan) > 0;
    in->moved = dls_move_plan_moved(o->plan);
    in->predicted_makespan = 0;
    for (size_t i = 0; i < p; i++)
        in->predicted_makespan = fmax(in->predicted_makespan, o->pred[i]);
    in->predicted_imbalance = imbalance(p, o->next, o->pred);
    in->measured_makespan = 0;
    for (size_t i = 0; i < p; i++)
        in->measured_makespan = fmax(in->measured_makespan, times[i]);
    in->measured_imbalance = imbalance(p, b->shares, times);
    return st;
}

/* Keeps what the step computed (nothing can fail from here). */
static void commit(dls_balance *b, outcome *o)
{
    free(b->pts.pts);
    free(b->pts.off);
    b->pts = o->q;
    o->q = (pool){NULL, NULL};
    uint64_t *t = b->shares;
    b->shares = o->next;
    o->next = t;
    t = b->first;
    b->first = o->first;
    o->first = t;
    double *d = b->predicted;
    b->predicted = o->pred;
    o->pred = d;
    size_t *z = b->drifted;
    b->drifted = o->drifted;
    b->ndrifted = o->nd;
    o->drifted = z;
    dls_move_plan_free(b->moves);
    b->moves = o->plan;
    o->plan = NULL;
    o->info.steps = b->info.steps + 1;
    o->info.drifted = o->nd;
    b->info = o->info;
}

dls_status dls_balance_step(dls_balance *b, size_t p, const uint64_t *ran, const double *times,
                            dls_error *err)
{
    dls_status st = check_step(b, p, ran, times, err);
    if (st != DLS_OK)
        return st;
    outcome o;
    st = outcome_alloc(&o, p, err);
    if (st == DLS_OK)
        st = new_pool(b, times, &o.q, o.drifted, &o.nd, err);
    if (st == DLS_OK)
        st = build_models(b, &o.q, times, o.models, o.caps, err);
    if (st == DLS_OK)
        st = distribute(b, o.models, o.caps, o.next, o.pred, err);
    if (st == DLS_OK)
        st = decide(b, times, &o, err);
    if (st == DLS_OK)
        commit(b, &o);
    outcome_free(&o, p);
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* Creation, the first distribution, getters                                          */

/* The first distribution: the start given, the prior's partition, or the even split
 * (counts differing by at most one, the larger first; equal speeds within the limits when
 * it passes one). */
static dls_status first_distribution(dls_balance *b, const dls_balance_params *par,
                                     dls_error *err)
{
    size_t p = b->p;
    for (size_t i = 0; i < p; i++)
        b->predicted[i] = NAN;
    if (par->start != NULL) {
        memcpy(b->shares, par->start, p * sizeof *b->shares);
    } else {
        for (size_t i = 0; i < p; i++)
            b->shares[i] = b->n / p + (i < b->n % p);
        firsts(p, b->shares, b->first);
        /* an even split past a limit is replaced by the split of equal speeds within them */
        int over = 0;
        for (size_t i = 0; i < p; i++)
            over |= share_size(b, i, b->shares, b->first) > b->limits[i];
        if (b->prior != NULL || over) {
            outcome o;
            dls_status st = outcome_alloc(&o, p, err);
            for (size_t i = 0; st == DLS_OK && i < p; i++)
                st = b->prior != NULL ? dls_model_copy(b->prior[i], &o.models[i], err)
                                      : dls_model_create_constant(1, &o.models[i], err);
            if (st == DLS_OK)
                st = distribute(b, o.models, b->limits, b->shares, b->predicted, err);
            outcome_free(&o, p);
            if (st != DLS_OK)
                return dls__error_retag(err, st, "dls_balance_create");
            for (size_t i = 0; b->prior == NULL && i < p; i++)
                b->predicted[i] = NAN;
        }
    }
    firsts(p, b->shares, b->first);
    if (b->prior != NULL)
        for (size_t i = 0; i < p; i++)
            b->predicted[i] = b->shares[i] > 0 ? dls_model_time(b->prior[i], share_size(
                                                                    b, i, b->shares, b->first))
                                               : 0;
    return dls__move_plan_build(p, b->shares, b->shares, "dls_balance_create", &b->moves, err);
}

/* Whether the limits can hold the elements at all (the sum of what each may take). */
static dls_status check_capacity(const dls_balance *b, dls_error *err)
{
    double cap = 0, need = (double)b->n;
    if (b->weights != NULL) {
        need = 0;
        for (uint64_t k = 0; k < b->n; k++)
            need += b->weights[k];
    }
    for (size_t i = 0; i < b->p; i++)
        cap += b->limits[i];
    if (cap < need * (1 - 1e-12))
        return dls__fail(err, DLS_EDATA, "dls_balance_create", "the limits hold %.10g in "
                         "all, less than the %.10g the elements need", cap, need);
    return DLS_OK;
}

dls_status dls_balance_create(size_t p, uint64_t n, const dls_balance_params *params,
                              dls_balance **out, dls_error *err)
{
    static const char fn[] = "dls_balance_create";
    dls_balance_params defaults;
    dls_balance_params_init(&defaults);
    const dls_balance_params *par = params ? params : &defaults;
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "out must not be NULL");
    if (p == 0 || p > DLS_BALANCE_MAX_PROCESSORS)
        return dls__fail(err, DLS_EINVAL, fn, "the number of processors must be in [1, %u], not "
                         "%zu", DLS_BALANCE_MAX_PROCESSORS, p);
    if (n == 0 || n > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "the number of elements must be in [1, %llu], not "
                         "%llu", (unsigned long long)DLS_PARTITION_MAX_ELEMENTS,
                         (unsigned long long)n);
    dls_status st = check_params(par, p, err);
    if (st == DLS_OK)
        st = check_arrays(par, p, n, err);
    if (st != DLS_OK)
        return st;
    dls_balance *b = calloc(1, sizeof *b);
    if (b == NULL)
        return dls__oom(err, fn);
    b->p = p;
    b->n = n;
    b->par = *par;
    b->par.prior = NULL;
    b->par.limits = NULL;
    b->par.weights = NULL;
    b->par.start = NULL;
    b->pts.off = calloc(p + 1, sizeof *b->pts.off);
    b->pts.pts = malloc(sizeof *b->pts.pts); /* never NULL: the points are read through it */
    b->shares = malloc(p * sizeof *b->shares);
    b->first = malloc(p * sizeof *b->first);
    b->predicted = malloc(p * sizeof *b->predicted);
    b->drifted = malloc(p * sizeof *b->drifted);
    if (!b->pts.off || !b->pts.pts || !b->shares || !b->first || !b->predicted ||
        !b->drifted)
        st = dls__oom(err, fn);
    if (st == DLS_OK)
        st = copy_inputs(b, par, err);
    if (st == DLS_OK)
        st = check_capacity(b, err);
    if (st == DLS_OK)
        st = first_distribution(b, par, err);
    if (st != DLS_OK) {
        dls_balance_free(b);
        return st;
    }
    b->info = (dls_balance_info){0};
    b->info.measured_makespan = b->info.measured_imbalance = NAN;
    b->info.predicted_current = b->info.gain = b->info.move_cost = NAN;
    b->info.predicted_makespan = b->info.predicted_imbalance = NAN;
    if (b->prior != NULL) {
        b->info.predicted_makespan = 0;
        for (size_t i = 0; i < p; i++)
            b->info.predicted_makespan = fmax(b->info.predicted_makespan, b->predicted[i]);
        b->info.predicted_imbalance = imbalance(p, b->shares, b->predicted);
    }
    b->info.band = par->noise;
    *out = b;
    return DLS_OK;
}

size_t dls_balance_count(const dls_balance *b)
{
    return b ? b->p : 0;
}

uint64_t dls_balance_total(const dls_balance *b)
{
    return b ? b->n : 0;
}

const uint64_t *dls_balance_shares(const dls_balance *b)
{
    return b ? b->shares : NULL;
}

const uint64_t *dls_balance_first(const dls_balance *b)
{
    return b ? b->first : NULL;
}

const double *dls_balance_predicted(const dls_balance *b)
{
    return b ? b->predicted : NULL;
}

const dls_move_plan *dls_balance_moves(const dls_balance *b)
{
    return b ? b->moves : NULL;
}

const size_t *dls_balance_drifted(const dls_balance *b, size_t *n)
{
    if (n != NULL)
        *n = b ? b->ndrifted : 0;
    return b && b->ndrifted > 0 ? b->drifted : NULL;
}

dls_status dls_balance_get_info(const dls_balance *b, dls_balance_info *out, dls_error *err)
{
    if (b == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_balance_get_info", "the balancer and out must not "
                         "be NULL");
    *out = b->info;
    return DLS_OK;
}

dls_status dls_balance_get_model(const dls_balance *b, size_t i, dls_model **out, dls_error *err)
{
    static const char fn[] = "dls_balance_get_model";
    if (b == NULL || out == NULL || i >= b->p)
        return dls__fail(err, DLS_EINVAL, fn, "a balancer, an index below its %zu processors and "
                         "out are needed", b ? b->p : 0);
    size_t m = b->pts.off[i + 1] - b->pts.off[i];
    if (m == 0 && b->prior == NULL)
        return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor %zu has not been "
                            "measured yet and there is no prior", i);
    if (m == 0)
        return dls_model_copy(b->prior[i], out, err);
    if (b->par.mode == DLS_BALANCE_CONSTANT)
        return constant_model(b, &b->pts, i, NULL, 1, out, err);
    /* the measured points with their bands, as speeds */
    const bpoint *pt = b->pts.pts + b->pts.off[i];
    double *x = malloc(4 * m * sizeof *x);
    if (x == NULL)
        return dls__oom(err, fn);
    double *s = x + m, *lo = s + m, *hi = lo + m;
    for (size_t k = 0; k < m; k++) {
        x[k] = pt[k].x;
        s[k] = 1 / pt[k].r;
        lo[k] = 1 / pt[k].r_hi;
        hi[k] = 1 / pt[k].r_lo;
    }
    dls_status st = dls_model_create_points(m, x, s, lo, hi, out, err);
    free(x);
    return dls__error_retag(err, st, fn);
}
