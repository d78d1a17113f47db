/* Piecewise-linear value functions: nondecreasing on [x[0], inf), upper semicontinuous,
 * with jumps written as two points of the same abscissa (the left limit, then the value).
 * Evaluation, slopes, the least time that reaches a load, the finishing cuts (value cap,
 * time window, merged collinear points), and the upper envelope of two functions. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "core/grow.h"
#include "chain/chain_impl.h"

void dls__pwl_free(dls__pwl *f)
{
    if (f->cap > 0) {
        free(f->x);
        free(f->y);
    }
    f->x = f->y = NULL;
    f->n = f->cap = 0;
}

int dls__pwl_push(dls__pwl *f, double x, double y)
{
    if (f->n == f->cap) {
        size_t cx = f->cap, cy = f->cap;
        double *nx = dls__grow(f->x, &cx, f->n + 1, sizeof *nx);
        if (nx == NULL)
            return -1;
        f->x = nx;
        double *ny = dls__grow(f->y, &cy, f->n + 1, sizeof *ny);
        if (ny == NULL) {
            /* x grew, cap did not: the next push grows x again in place; a first block is
             * not owned yet (cap 0), so it goes now */
            if (f->cap == 0) {
                free(f->x);
                f->x = NULL;
            }
            return -1;
        }
        f->y = ny;
        f->cap = cx < cy ? cx : cy;
    }
    f->x[f->n] = x;
    f->y[f->n] = y;
    f->n++;
    return 0;
}

size_t dls__pwl_find(const dls__pwl *f, double x)
{
    size_t lo = 0, hi = f->n; /* x[lo] <= x (or lo = 0), x[hi] > x (or hi = n) */
    if (f->n == 0 || x < f->x[0])
        return 0;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->x[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

double dls__pwl_at(const dls__pwl *f, double x)
{
    if (f->n == 0 || x < f->x[0])
        return -INFINITY;
    size_t i = dls__pwl_find(f, x);
    if (i == f->n - 1)
        return x == f->x[i] ? f->y[i] : f->y[i] + f->tail * (x - f->x[i]);
    /* x[i] <= x < x[i + 1] */
    double t = (x - f->x[i]) / (f->x[i + 1] - f->x[i]);
    return f->y[i] + t * (f->y[i + 1] - f->y[i]);
}

double dls__pwl_left_limit(const dls__pwl *f, double x)
{
    size_t i = dls__pwl_find(f, x);
    if (f->n == 0 || x != f->x[i])
        return dls__pwl_at(f, x);
    while (i > 0 && f->x[i - 1] == x)
        i--;
    return f->y[i]; /* the first point at x: the left limit of a jump */
}

double dls__pwl_slope_right(const dls__pwl *f, double x)
{
    size_t i = dls__pwl_find(f, x);
    if (i + 1 >= f->n)
        return f->tail;
    return (f->y[i + 1] - f->y[i]) / (f->x[i + 1] - f->x[i]);
}

double dls__pwl_slope_left(const dls__pwl *f, double x)
{
    size_t i = dls__pwl_find(f, x);
    if (x > f->x[i])
        return dls__pwl_slope_right(f, x);
    while (i > 0 && f->x[i - 1] == x)
        i--;
    if (i == 0)
        return INFINITY; /* the domain starts here: nothing can be done in less time */
    return (f->y[i] - f->y[i - 1]) / (f->x[i] - f->x[i - 1]);
}

double dls__pwl_reach(const dls__pwl *f, double v)
{
    size_t n = f->n;
    if (f->y[0] >= v)
        return f->x[0];
    /* the first point at or above v (y nondecreasing up to rounding) */
    size_t lo = 0, hi = n; /* y[lo] < v, y[hi] >= v (or hi = n) */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->y[mid] < v)
            lo = mid;
        else
            hi = mid;
    }
    if (hi == n)
        return f->tail > 0 ? f->x[n - 1] + (v - f->y[n - 1]) / f->tail : INFINITY;
    if (f->x[hi] == f->x[lo])
        return f->x[hi];
    double x = f->x[lo] + (v - f->y[lo]) * ((f->x[hi] - f->x[lo]) / (f->y[hi] - f->y[lo]));
    return fmin(fmax(x, f->x[lo]), f->x[hi]);
}

/* Whether (x1, y1) lies on the chord from (x0, y0) to (x2, y2), within DLS__CHAIN_SLOPE_TOL
 * of the values' scale (the chord's ends have distinct abscissae). */
static int on_chord(double x0, double y0, double x1, double y1, double x2, double y2,
                    double yscale)
{
    if (!(x1 > x0) || !(x2 > x1))
        return 0;
    double t = (x1 - x0) / (x2 - x0), yc = y0 + t * (y2 - y0);
    return fabs(y1 - yc) <= DLS__CHAIN_SLOPE_TOL * fmax(fmax(fabs(y1), fabs(yc)), yscale);
}

void dls__pwl_finish(dls__pwl *f, double vcap, double wmax)
{
    size_t n = f->n;
    double *x = f->x, *y = f->y;
    /* the value cap: the function stops rising where it reaches vcap */
    for (size_t i = 0; i < n; i++) {
        if (!(y[i] >= vcap))
            continue;
        if (i > 0 && x[i] > x[i - 1] && y[i] > vcap) {
            double t = (vcap - y[i - 1]) / (y[i] - y[i - 1]);
            x[i] = fmin(fmax(x[i - 1] + t * (x[i] - x[i - 1]), x[i - 1]), x[i]);
        }
        y[i] = vcap;
        n = i + 1;
        f->tail = 0;
        break;
    }
    /* the window: keep the points up to the first one past wmax */
    for (size_t i = 0; i < n; i++) {
        if (!(x[i] > wmax))
            continue;
        /* past the window nothing is asked: the last piece goes on (keeping concavity) */
        n = i + 1;
        if (i > 0)
            f->tail = x[i] > x[i - 1] ? (y[i] - y[i - 1]) / (x[i] - x[i - 1]) : 0;
        break;
    }
    /* merge repeated points (within rounding), empty jumps and collinear points */
    double yscale = DLS__CHAIN_VALUE_FLOOR * vcap;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k > 0 && x[i] - x[k - 1] <= DLS__CHAIN_SLOPE_TOL * fmax(fabs(x[i]), fabs(x[k - 1])) &&
            fabs(y[i] - y[k - 1]) <= DLS__CHAIN_SLOPE_TOL * fmax(fmax(fabs(y[i]), fabs(y[k - 1])), yscale)) {
            y[k - 1] = fmax(y[k - 1], y[i]);
            continue;
        }
        if (k > 1 && on_chord(x[k - 2], y[k - 2], x[k - 1], y[k - 1], x[i], y[i], yscale))
            k--;
        x[k] = x[i];
        y[k] = y[i];
        k++;
    }
    /* a last piece that the tail continues */
    if (k > 1 && x[k - 1] > x[k - 2]) {
        double s = (y[k - 1] - y[k - 2]) / (x[k - 1] - x[k - 2]);
        if (fabs(s - f->tail) <= DLS__CHAIN_SLOPE_TOL * fmax(fabs(s), fabs(f->tail)))
            k--;
    }
    f->n = k;
}

/* ---------------------------------------------------------------------------------- */
/* The upper envelope of two functions                                                */

/* Walks a function (shifted right by `shift`) along increasing abscissae. */
typedef struct walker {
    const dls__pwl *f;
    double shift;
    size_t i; /* first point at or after the current abscissa */
} walker;

/* The left limit (*L) and right limit (*R) of the function at x, -INFINITY outside its
 * domain; x never decreases between calls. */
static void walk_limits(walker *w, double x, double *L, double *R)
{
    const dls__pwl *f = w->f;
    size_t n = f->n;
    double x0 = f->x[0] + w->shift;
    if (x < x0) {
        *L = *R = -INFINITY;
        return;
    }
    while (w->i < n && f->x[w->i] + w->shift < x)
        w->i++;
    size_t i = w->i;
    if (i < n && f->x[i] + w->shift == x) {
        size_t j = i;
        while (j + 1 < n && f->x[j + 1] + w->shift == x)
            j++;
        *L = i == 0 ? -INFINITY : f->y[i];
        *R = f->y[j];
        return;
    }
    if (i == n) {
        double v = f->y[n - 1] + f->tail * (x - (f->x[n - 1] + w->shift));
        *L = *R = v;
        return;
    }
    double xa = f->x[i - 1] + w->shift, xb = f->x[i] + w->shift;
    double v = f->y[i - 1] + (x - xa) / (xb - xa) * (f->y[i] - f->y[i - 1]);
    *L = *R = v;
}

/* The next abscissa of either function after x (INFINITY: none). */
static double next_x(const walker *w, double x)
{
    const dls__pwl *f = w->f;
    size_t i = w->i;
    while (i < f->n && f->x[i] + w->shift <= x)
        i++;
    return i < f->n ? f->x[i] + w->shift : INFINITY;
}

int dls__pwl_max2(const dls__pwl *A, const dls__pwl *B, double shift, dls__pwl *out)
{
    walker wa = {A, 0, 0}, wb = {B, shift, 0};
    out->n = 0;
    double x = fmin(A->x[0], B->x[0] + shift);
    double pa = -INFINITY, pb = -INFINITY; /* right limits at the previous abscissa */
    double px = x;
    int first = 1;
    while (isfinite(x)) {
        double La, Ra, Lb, Rb;
        walk_limits(&wa, x, &La, &Ra);
        walk_limits(&wb, x, &Lb, &Rb);
        if (!first) {
            /* a crossing inside (px, x): both defined, and their order changes */
            double d0 = pa - pb, d1 = La - Lb;
            if (isfinite(d0) && isfinite(d1) && ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0))) {
                double t = d0 / (d0 - d1), xc = px + t * (x - px);
                if (xc > px && xc < x &&
                    dls__pwl_push(out, xc, fmax(pa + t * (La - pa), pb + t * (Lb - pb))) != 0)
                    return -1;
            }
            if (dls__pwl_push(out, x, fmax(La, Lb)) != 0)
                return -1;
        }
        double R = fmax(Ra, Rb);
        if ((first || R != fmax(La, Lb)) && dls__pwl_push(out, x, R) != 0)
            return -1;
        first = 0;
        pa = Ra;
        pb = Rb;
        px = x;
        x = fmin(next_x(&wa, x), next_x(&wb, x));
    }
    /* past the last points: the tails, and where they cross */
    double ta = A->tail, tb = B->tail;
    /* equal at the last abscissa, the steeper tail is above after it */
    out->tail = pa > pb ? ta : pb > pa ? tb : fmax(ta, tb);
    if (isfinite(pa) && isfinite(pb) && pa != pb && ((pa > pb && tb > ta) || (pb > pa && ta > tb))) {
        double xc = px + (pa - pb) / (tb - ta);
        if (dls__pwl_push(out, xc, pa + ta * (xc - px)) != 0)
            return -1;
        out->tail = fmax(ta, tb);
    }
    return 0;
}
