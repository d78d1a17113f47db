/* Quantiles of the normal and Student-t distributions, for the confidence intervals of
 * repeated timings. */
#include <config.h>

#include <math.h>

#include "core/stats.h"

double dls__normal_quantile(double p)
{
    /* P. J. Acklam's rational approximation, with one Halley refinement step. */
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                               -2.759285104469687e+02, 1.383577518672690e+02,
                               -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                               -1.556989798598866e+02, 6.680131188771972e+01,
                               -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                               -2.400758277161838e+00, -2.549732539343734e+00,
                               4.374664141464968e+00,  2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                               2.445134137142996e+00, 3.754408661907416e+00};
    const double plow = 0.02425, phigh = 1 - plow;
    double q, r, x;
    if (p < plow) {
        q = sqrt(-2 * log(p));
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    } else if (p <= phigh) {
        q = p - 0.5;
        r = q * q;
        x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
            (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
    } else {
        q = sqrt(-2 * log(1 - p));
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
            ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
    double e = 0.5 * erfc(-x / sqrt(2)) - p;
    double u = e * sqrt(2 * M_PI) * exp(x * x / 2);
    return x - u / (1 + x * u / 2);
}

/* P(T <= t) for Student's t with nu degrees of freedom, t >= 0, by the finite series in
 * theta = atan(t / sqrt(nu)) that integer degrees of freedom allow (Abramowitz and Stegun
 * 26.7.3-4). */
static double t_cdf(double t, unsigned nu)
{
    double th = atan(t / sqrt((double)nu)), c2 = cos(th) * cos(th), s = sin(th);
    double a;
    if (nu % 2 == 1) {
        double term = cos(th), sum = nu > 1 ? term : 0;
        for (unsigned k = 2; k + 1 < nu; k += 2) {
            term *= c2 * k / (k + 1);
            sum += term;
        }
        a = 2 / M_PI * (th + s * sum);
    } else {
        double term = 1, sum = 1;
        for (unsigned k = 1; k + 2 < nu; k += 2) {
            term *= c2 * k / (k + 1);
            sum += term;
        }
        a = s * sum;
    }
    return 0.5 * (1 + a);
}

double dls__t_quantile(double p, unsigned nu)
{
    if (nu == 1)
        return tan(M_PI * (p - 0.5));
    if (nu == 2) {
        double a = 4 * p * (1 - p);
        return 2 * (p - 0.5) * sqrt(2 / a);
    }
    /* bisection on the exact distribution, bracketed around the Cornish-Fisher value */
    double z = dls__normal_quantile(p), z2 = z * z, n = nu;
    double guess = z + (z2 + 1) * z / (4 * n) + ((5 * z2 + 16) * z2 + 3) * z / (96 * n * n);
    /* the series costs nu terms a call: beyond DLS__T_SERIES_NU_MAX degrees of freedom the
     * expansion, one term further, is exact to below 1e-14 (its error is O(z^9 / nu^4)),
     * and a count of samples read from a file (up to 2^32) stays a bounded computation */
    if (nu > DLS__T_SERIES_NU_MAX)
        return guess + (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / (384 * n * n * n);
    double lo = 0, hi = 2 * guess + 1;
    while (t_cdf(hi, nu) < p)
        hi *= 2;
    for (int it = 0; it < 200 && hi - lo > 1e-14 * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (t_cdf(mid, nu) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}
