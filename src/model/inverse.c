/* The inverse of a processing-time function: the largest size a processor finishes within
 * a given time. In the geometric picture of Lastovetsky and Reddy (2007a) this is where the line
 * through the origin with slope 1/t meets the speed graph; partitioners call it p times per step,
 * so it is closed-form on every piece:
 * - between measured points the speed is s_k + m u (u = x - x_k), and x / s(x) = t gives
 *   u = (t s_k - x_k) / (1 - t m), with dx/dt = (s_k - m x_k) / (1 - t m)^2;
 * - beyond the points the speed is constant and x = t s;
 * - time lines: x = min over rising lines of (t - a_l) / b_l. */
#include <config.h>

#include <math.h>

#include "model/model_impl.h"

/* Solves x / s(x) = t on the piece [x0, x1] of a points model where the speed goes from s0
 * to s1 linearly (t(x0) <= t <= t(x1), time increasing on the piece). */
static double solve_segment(double x0, double s0, double x1, double s1, double t, double *deriv)
{
    DLS__ASSERT(x0 < x1);
    double m = (s1 - s0) / (x1 - x0);
    double den = 1 - t * m;
    double u = (t * s0 - x0) / den;
    if (deriv)
        *deriv = (s0 - m * x0) / (den * den);
    double x = x0 + u;
    /* rounding must not leave the piece */
    if (x < x0)
        x = x0;
    if (x > x1)
        x = x1;
    return x;
}

/* Points model whose time increases up to cap: binary search on the knot times. */
static double points_increasing(const dls_model *m, double t, double *deriv)
{
    const double *x = m->size, *s = m->speed;
    size_t n = m->n;
    if (t * s[0] <= x[0]) { /* t <= time(x_0): the constant head */
        if (deriv)
            *deriv = s[0];
        return t * s[0];
    }
    if (x[n - 1] <= t * s[n - 1]) { /* beyond the last point: the constant tail */
        if (deriv)
            *deriv = s[n - 1];
        return t * s[n - 1];
    }
    /* largest k with time(x_k) <= t, i.e. x_k <= t s_k */
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (x[mid] <= t * s[mid])
            lo = mid;
        else
            hi = mid;
    }
    return solve_segment(x[lo], s[lo], x[lo + 1], s[lo + 1], t, deriv);
}

/* Points model in general (the time may fall somewhere below cap): walk the pieces from
 * the one holding cap leftwards to the last place where the time is <= t. */
static double points_general(const dls_model *m, double t, double cap, double *deriv)
{
    const double *x = m->size, *s = m->speed;
    size_t n = m->n;
    if (isfinite(cap) && dls_model_time(m, cap) <= t) {
        if (deriv)
            *deriv = 0;
        return cap;
    }
    /* pieces: 0 = [0, x_0], j = [x_{j-1}, x_j] for 1 <= j < n, n = [x_{n-1}, inf) */
    size_t jc = 0;
    while (jc < n && x[jc] < cap)
        jc++;
    for (size_t j = jc + 1; j-- > 0;) {
        double left = j == 0 ? 0 : x[j - 1];
        double right = j == jc ? cap : x[j];
        if (j != jc && right <= t * s[j]) { /* time(x_j) <= t at the right end */
            if (deriv)
                *deriv = 0;
            return right;
        }
        double tleft = j == 0 ? 0 : left / s[j - 1];
        if (tleft > t)
            continue;
        /* the time rises through t inside this piece */
        if (j == 0 || j == n) {
            double sp = j == 0 ? s[0] : s[n - 1];
            if (deriv)
                *deriv = sp;
            return fmin(t * sp, right);
        }
        return fmin(solve_segment(x[j - 1], s[j - 1], x[j], s[j], t, deriv), right);
    }
    if (deriv)
        *deriv = 0;
    return 0;
}

static double lines_inverse(const dls_model *m, double t, double cap, double *deriv)
{
    if (t < dls__lines_start(m->a, m->n)) { /* even a tiny share takes max(a) seconds */
        if (deriv)
            *deriv = 0;
        return 0;
    }
    double x = INFINITY, slope = 0;
    for (size_t l = 0; l < m->n; l++) {
        if (m->b[l] > 0) {
            double v = (t - m->a[l]) / m->b[l];
            if (v < x) {
                x = v;
                slope = m->b[l];
            }
        }
    }
    if (x >= cap) {
        if (deriv)
            *deriv = 0;
        return cap;
    }
    DLS__ASSERT(slope > 0); /* x < cap is finite: a rising line set it */
    if (deriv)
        *deriv = 1 / slope;
    return x;
}

double dls__size_for_time(const dls_model *m, double t, double cap, double *deriv)
{
    double x, d = 0;
    if (!(t > 0) || !(cap > 0)) {
        if (deriv)
            *deriv = 0;
        return 0;
    }
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        x = t * m->constant;
        d = m->constant;
        break;
    case DLS_MODEL_POINTS:
        if (cap <= m->increasing_to)
            x = points_increasing(m, t, &d);
        else
            x = points_general(m, t, cap, &d);
        break;
    case DLS_MODEL_TIME_LINES:
        x = lines_inverse(m, t, cap, &d);
        break;
    default:
        x = NAN;
        break;
    }
    if (x >= cap) {
        x = cap;
        d = 0;
    }
    if (deriv)
        *deriv = d;
    return x;
}

double dls_model_size_for_time(const dls_model *model, double t, double cap)
{
    if (model == NULL || model->kind == DLS_MODEL_SPEED2D || isnan(t) || t < 0 || isnan(cap) ||
        cap <= 0)
        return NAN;
    if (isinf(t))
        return cap;
    return dls__size_for_time(model, t, cap, NULL);
}

void dls__time_pair(const dls_model *m, double k, double *tk, double *tk1)
{
    if (m->kind == DLS_MODEL_POINTS && m->n >= 2 && k > m->size[0] && k + 1 < m->size[m->n - 1]) {
        /* both sizes usually fall on the same piece: search once */
        size_t j = dls__segment(m->size, m->n, k);
        double x0 = m->size[j], x1 = m->size[j + 1], s0 = m->speed[j], s1 = m->speed[j + 1];
        if (k + 1 < x1) {
            /* the same arithmetic as dls_model_time(), so both give identical times */
            *tk = k / (s0 + (s1 - s0) * ((k - x0) / (x1 - x0)));
            *tk1 = (k + 1) / (s0 + (s1 - s0) * ((k + 1 - x0) / (x1 - x0)));
            return;
        }
    }
    *tk = dls_model_time(m, k);
    *tk1 = dls_model_time(m, k + 1);
}
