/* Speed plots of platforms as SVG: every processor's speed function on common axes, with
 * its measured points, bands and limit, a legend right of the plot area. The document is
 * built in memory in one pass over precomputed samples, so that the axes can be chosen
 * from everything that will be drawn before anything is written. */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/plot.h>

#include "core/internal.h"
#include "core/names.h"
#include "core/sort.h"
#include "svg/svg_text.h"

/* ---------------------------------------------------------------------------------- */
/* Constants of the picture                                                            */

/* The axes switch to a logarithmic scale in automatic mode when the values span more
 * than this ratio (two decades). */
#define AUTO_LOG_RATIO 100.0
/* On a logarithmic size axis the range runs from the smallest interesting size divided
 * by this factor to the largest multiplied by it, so that the constant extensions beyond
 * the first and last points are visible. */
#define LOG_SIZE_MARGIN 4.0
/* On a linear size axis the range runs from 0 to the largest interesting size times this. */
#define LINEAR_SIZE_MARGIN 1.25
/* Headroom above the largest speed: 5% of the axis (and below the smallest speed on a log
 * axis). */
#define SPEED_HEADROOM 1.05
/* A log speed axis spans at least this ratio, so that a flat curve gets a few ticks. */
#define MIN_LOG_SPEED_SPAN 10.0
/* Sizes and speeds outside [RANGE_MIN, RANGE_MAX] do not stretch the axes (they are
 * clipped): the margins and ticks around the range then stay normal finite numbers, even
 * with a 5% padding of 500 decades. */
#define RANGE_MIN 1e-250
#define RANGE_MAX 1e250
/* Size used when nothing hints at a size (only constant speeds and no limits). */
#define NO_SIZE_HINT 1.0
/* Number of samples of a curve over the whole plotted width (kinks are added exactly). */
#define SAMPLES 480
/* A sample is dropped when the chord that skips it stays within this many pixels of every
 * sample it skips: nothing visible changes, and linear pieces stay short in the file. */
#define SIMPLIFY_PX 0.05
/* Relative tolerance deciding that a crossing of two time lines lies on their maximum. */
#define ENVELOPE_TOL 1e-12

/* Layout, in pixels (font sizes in pixels too). */
#define FONT 12.0
#define CHAR_W 7.0          /* average advance of a FONT-sized sans-serif character */
#define DIGIT_W 7.6         /* advance of a digit (tick labels are mostly digits) */
#define SMALL_FONT 10.0
#define TITLE_FONT 16.0
#define BASELINE_SHIFT 0.35 /* a line of text is centred this many font sizes above its baseline */
#define BASELINE_DROP 0.85  /* a label hanging under a point has its baseline this far below */
#define MARGIN_TOP 46.0     /* title above the plot area */
#define MARGIN_BOTTOM 58.0  /* tick labels and the axis title below it */
#define MARGIN_RIGHT 14.0   /* after the legend */
#define LEGEND_GAP 22.0     /* between the plot area and the legend */
#define LEGEND_ROW 18.0
#define LEGEND_SWATCH 30.0  /* sample of the line, marker in its middle */
#define LEGEND_MAX_SHARE 0.4  /* of the width, at most, for the legend */
#define LEGEND_MIN_CHARS 10   /* a legend column shows at least this many characters */
#define LEGEND_TEXT_GAP 6.0   /* between the line sample and the label */
#define LEGEND_COL_GAP 12.0   /* after the label */
/* Width of a legend column whose labels have `chars` characters. */
#define LEGEND_COLUMN(chars) (LEGEND_SWATCH + LEGEND_TEXT_GAP + CHAR_W * (double)(chars) + LEGEND_COL_GAP)
#define MIN_PLOT_W 120.0
#define MIN_MARGIN_LEFT 60.0
#define AXIS_TITLE_X 6.0     /* left edge of the (rotated) speed axis title */
#define TICK_LABEL_GAP 4.0   /* between a tick and its label */
#define TICK_LEN 5.0
#define MINOR_TICK_LEN 3.0
#define X_TICK_SPACING 90.0  /* wanted pixels between linear x ticks */
#define Y_TICK_SPACING 75.0
#define X_LABEL_MIN_GAP 12.0 /* between two x tick labels on a log axis */
#define Y_LABEL_MIN_GAP 16.0
#define LIMIT_LABEL_CHARS 24  /* of the processor's name, beside its limit line */
#define LIMIT_LABEL_GAP 16.0  /* between two limit labels, or the second is left out */
#define MARKER_R 3.5
#define BAR_CAP 3.5
#define CURVE_W 2.0
#define SECTION_W 1.6
#define FADED_OPACITY 0.35
#define BAND_OPACITY 0.14
#define MAX_SECTION_LIGHTEN 0.4  /* the last section of a family is mixed this much with white */

/* Okabe & Ito's palette, without its yellow (too pale on white): distinguishable with
 * the common forms of colour blindness. A marker shape per processor as well, so that
 * processors stay apart in grey-scale prints. */
static const unsigned palette[] = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7,
                                   0xE69F00, 0x56B4E9, 0x000000};
#define NCOLOURS (sizeof palette / sizeof palette[0])
enum { MARK_CIRCLE, MARK_SQUARE, MARK_DIAMOND, MARK_TRIANGLE, MARK_TRIANGLE_DOWN, NMARKS };
/* Dashes of the 1-D curves once the colours have all been used, and of 2-D sections: none
 * as short as the dots of an extrapolated range (EXTRA_DASH). */
static const char *const cycle_dash[] = {NULL, "12 4", "6 3", "12 3 3 3"};
#define NDASH (sizeof cycle_dash / sizeof cycle_dash[0])
/* Sections of one 2-D model differ by their dashes as well as by their lightness. */
static const char *const section_dash[] = {"8 4", "16 4", "12 3 3 3", "5 3", "4 2 8 2",
                                           "9 3 2 3 2 3"};
#define NSECTION_DASH (sizeof section_dash / sizeof section_dash[0])
#define LIMIT_DASH "5 4"
/* Beyond the measured sizes (a points model's constant extensions, below its first point
 * and past its last one up to its limit) the curve is a guess: dotted, thinner, lighter. */
#define EXTRA_DASH "1.5 3.5"
#define EXTRA_W 1.6
#define EXTRA_OPACITY 0.7
#define IDENTICAL " (identical)" /* after the names of identical curves in the legend */
#define SECTION_LABEL " at x = "  /* after the processor's name: "gpu0 at x = 1024" */
#define GRID_COLOUR "#e2e2e2"
#define AXIS_COLOUR "#333333"
#define KEY_COLOUR "#555555"

/* The shared buffer and XML text (svg_text.c). */
typedef dls__buf svg;
#define put dls__buf_put
#define put_text dls__svg_text
#define put_text_max dls__svg_text_max
#define text_chars dls__svg_text_chars

/* Numbers are written plainly from PLAIN_MIN to below PLAIN_MAX, with an exponent outside. */
#define PLAIN_MIN 1e-3
#define PLAIN_MAX 1e5

/* A number the way labels show it: "%g" style with at most 4 significant digits (0.5, 250,
 * 15000, 2.5e+09), with an exponent outside [PLAIN_MIN, PLAIN_MAX) or when force_exp is set
 * (so that all the labels of a linear axis look alike). */
static void fmt_exp(double v, int force_exp, char *buf, size_t size)
{
    if (v == 0 || !isfinite(v)) {
        snprintf(buf, size, "%g", v == 0 ? 0.0 : v);
        return;
    }
    char e[40];
    snprintf(e, sizeof e, "%.3e", v); /* rounds once, correctly: d.ddde+XX */
    int exp10 = atoi(strchr(e, 'e') + 1);
    if (!force_exp && fabs(v) >= PLAIN_MIN && fabs(v) < PLAIN_MAX) {
        snprintf(buf, size, "%.*f", exp10 >= 3 ? 0 : 3 - exp10, atof(e)); /* 4 digits */
        if (strchr(buf, '.')) { /* trim trailing zeros */
            char *end = buf + strlen(buf) - 1;
            while (*end == '0')
                *end-- = '\0';
            if (*end == '.')
                *end = '\0';
        }
        return;
    }
    char *mant_end = strchr(e, 'e');
    if (exp10 == 0 && force_exp) { /* 1e+00 reads badly: the plain form is as short */
        fmt_exp(v, 0, buf, size);
        return;
    }
    char *last = mant_end - 1;
    while (*last == '0')
        last--;
    if (*last == '.')
        last--;
    snprintf(buf, size, "%.*se%c%02d", (int)(last - e + 1), e, exp10 < 0 ? '-' : '+',
             abs(exp10));
}

static void fmt_num(double v, char *buf, size_t size)
{
    fmt_exp(v, 0, buf, size);
}

/* ---------------------------------------------------------------------------------- */
/* Axes                                                                                */

typedef struct axis {
    int log;
    double lo, hi;   /* data range */
    double p0, p1;   /* pixels of lo and hi */
    int exp_labels;  /* every tick label with an exponent (linear axes reaching PLAIN_MAX) */
} axis;

/* Position along the axis as a fraction of its length (outside [0, 1] when outside). */
static double axis_frac(const axis *a, double v)
{
    if (a->log)
        return (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
    return (v - a->lo) / (a->hi - a->lo);
}

static double axis_px(const axis *a, double v)
{
    return a->p0 + (a->p1 - a->p0) * axis_frac(a, v);
}

/* Value at a fraction of the axis. */
static double axis_value(const axis *a, double f)
{
    if (a->log)
        return pow(10, log10(a->lo) + f * (log10(a->hi) - log10(a->lo)));
    return a->lo + f * (a->hi - a->lo);
}

#define nice_step dls__svg_nice_step

#define MAX_TICKS 128

typedef struct tick {
    double v;
    int major;   /* labelled, with a grid line */
} tick;

/* Ticks of an axis whose length is len pixels; label_px is the room a label needs along
 * the axis. Linear axes: multiples of a 1-2-5 step, about one per `spacing` pixels. Log
 * axes: decades (every k-th when crowded) with minor ticks at 2..9, and labels at 2 and 5,
 * or at every multiple, when a decade is long enough. Returns the number of ticks. */
static size_t make_ticks(const axis *a, double len, double spacing, double label_px,
                         tick *t)
{
    size_t n = 0;
    if (!a->log) {
        double step = nice_step(a->hi - a->lo, len / spacing);
        double k0 = ceil(a->lo / step - 1e-9), k1 = floor(a->hi / step + 1e-9);
        for (double k = k0; k <= k1 && n < MAX_TICKS; k++)
            t[n++] = (tick){k * step, 1};
        return n;
    }
    double d0 = floor(log10(a->lo)), d1 = ceil(log10(a->hi));
    double decade_px = len / (log10(a->hi) - log10(a->lo));
    if (!(decade_px > 0) || !isfinite(decade_px) || !isfinite(d0) || !isfinite(d1))
        return 0; /* cannot happen: the ranges are clamped */
    /* which multiples of each decade get a label: the richest choice among 1 only, 1-2-5
     * and all whose closest labels (1 and 2, or 9 and 10) are still label_px apart */
    static const int sets[3][10] = {{1, 0}, {1, 2, 5, 0}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 0}};
    int set = 0;
    if (decade_px * log10(2.0) >= label_px)
        set = 1;
    if (decade_px * log10(10.0 / 9.0) >= label_px)
        set = 2;
    int stride = 1;
    while (decade_px * stride < label_px)
        stride++;
    for (double d = d0; d <= d1 && n < MAX_TICKS; d++) {
        for (int m = 1; m <= 9 && n < MAX_TICKS; m++) {
            double v = m * pow(10, d);
            if (v < a->lo * (1 - 1e-12) || v > a->hi * (1 + 1e-12))
                continue;
            int labelled = 0;
            for (int k = 0; sets[set][k]; k++)
                labelled |= sets[set][k] == m;
            if (m == 1 && set == 0)
                labelled = fmod(d, stride) == 0;
            if (labelled || decade_px > 4 * MINOR_TICK_LEN)
                t[n++] = (tick){v, labelled};
        }
    }
    return n;
}

/* ---------------------------------------------------------------------------------- */
/* What is drawn                                                                        */

/* One curve: a processor's 1-D speed function, or one section of its 2-D one. */
typedef struct curve {
    size_t proc;
    int section;            /* -1 for a 1-D model, else the index of the section */
    size_t nsections;
    double at;              /* the section's x */
    const dls_model *m;     /* the function drawn (the platform's, or `own`) */
    dls_model *own;         /* the section, owned */
    dls_model *low, *high;  /* the interpolated band edges, owned; NULL without bands */
    double limit;           /* INFINITY when none */
    size_t n;               /* samples: sizes x, speeds s, band edges lo, hi */
    double *x, *s, *lo, *hi;
    /* the curve of an identical processor drawn earlier (its twin: the same samples,
     * points and limit), which it is drawn as; -1 when none */
    long same_as;
    size_t twins;           /* curves drawn as this one, itself included */
} curve;

typedef struct plot {
    const dls_platform *pl;
    dls_plot_params par;
    curve *c;
    size_t nc;
    axis ax, ay;
    int any_points, any_bands, any_limit, any_2d, any_extrapolated;
} plot;

static void plot_free(plot *p)
{
    for (size_t k = 0; k < p->nc; k++) {
        dls_model_free(p->c[k].own);
        dls_model_free(p->c[k].low);
        dls_model_free(p->c[k].high);
        free(p->c[k].x);
    }
    free(p->c);
}

static unsigned colour_of(size_t proc)
{
    return palette[proc % NCOLOURS];
}

/* The curve's colour: 2-D sections grow lighter with their x. */
static void curve_colour(const curve *c, char *buf, size_t size)
{
    unsigned rgb = colour_of(c->proc);
    double w = c->section > 0 && c->nsections > 1
                   ? MAX_SECTION_LIGHTEN * c->section / (double)(c->nsections - 1)
                   : 0;
    int r = (int)lround(((rgb >> 16) & 0xff) * (1 - w) + 255 * w);
    int g = (int)lround(((rgb >> 8) & 0xff) * (1 - w) + 255 * w);
    int b = (int)lround((rgb & 0xff) * (1 - w) + 255 * w);
    snprintf(buf, size, "#%02x%02x%02x", r, g, b);
}

static const char *curve_dash(const curve *c)
{
    if (c->section >= 0)
        return section_dash[(size_t)c->section % NSECTION_DASH];
    return cycle_dash[(c->proc / NCOLOURS) % NDASH];
}

/* Measured points of a curve (points models and 2-D sections), NULL when it has none. */
static const double *curve_points(const curve *c, size_t *n, const double **speed,
                                  const double **low, const double **high)
{
    const double *size;
    if (dls_model_get_points(c->m, n, &size, speed, low, high) != DLS_OK)
        return NULL;
    return size;
}

/* Sizes where the curve has a kink: its points, or where time lines take over from one
 * another. Calls f(ctx, size) for each; returns how many. */
static size_t curve_kinks(const curve *c, void (*f)(void *, double), void *ctx)
{
    size_t n, count = 0;
    const double *size = curve_points(c, &n, NULL, NULL, NULL), *a, *b;
    if (size != NULL) {
        for (size_t k = 0; k < n; k++, count++)
            if (f)
                f(ctx, size[k]);
        return count;
    }
    if (dls_model_get_lines(c->m, &n, &a, &b) != DLS_OK)
        return 0;
    for (size_t l = 0; l < n; l++)
        for (size_t m = l + 1; m < n; m++) {
            if (b[l] == b[m])
                continue;
            double x = (a[m] - a[l]) / (b[l] - b[m]);
            if (!(x > 0) || !isfinite(x))
                continue;
            double t = a[l] + b[l] * x;
            if (t >= dls_model_time(c->m, x) - ENVELOPE_TOL * fabs(t)) {
                count++;
                if (f)
                    f(ctx, x);
            }
        }
    return count;
}

/* Range of interesting sizes. */
typedef struct range {
    double lo, hi;
} range;

static void range_add(void *ctx, double v)
{
    range *r = ctx;
    if (v > 0 && isfinite(v)) {
        r->lo = fmin(r->lo, v);
        r->hi = fmax(r->hi, v);
    }
}

/* The interesting sizes of a curve: its kinks, its limit, and for a time model the size
 * a / b where the speed x / (a + b x) of its line on top near 0 reaches half of 1 / b. */
static void curve_sizes(const curve *c, range *r)
{
    curve_kinks(c, range_add, r);
    size_t n;
    const double *a, *b;
    if (dls_model_get_lines(c->m, &n, &a, &b) == DLS_OK) {
        size_t top = 0;
        for (size_t l = 1; l < n; l++)
            if (a[l] > a[top] || (a[l] == a[top] && b[l] > b[top]))
                top = l;
        if (a[top] > 0 && b[top] > 0)
            range_add(r, a[top] / b[top]);
    }
    range_add(r, c->limit);
}

/* ---------------------------------------------------------------------------------- */
/* Sampling                                                                             */

typedef struct sampler {
    double *x;
    size_t n, cap;
    double from, to;
} sampler;

static void sampler_add(void *ctx, double v)
{
    sampler *s = ctx;
    if (v > s->from && v < s->to && s->n < s->cap)
        s->x[s->n++] = v;
}

/* Samples the curve over the plotted sizes up to its limit: evenly along the axis, plus
 * its kinks exactly. Returns 0, or -1 when out of memory. */
static int sample_curve(curve *c, const axis *ax)
{
    double from = ax->lo, to = fmin(ax->hi, c->limit);
    c->n = 0;
    if (!(to > from))
        return 0; /* the limit is left of the plot */
    size_t kinks = curve_kinks(c, NULL, NULL);
    size_t cap = 1 + (SAMPLES - 1) + kinks + 1; /* from, the even steps, kinks, to */
    c->x = malloc(4 * cap * sizeof *c->x);
    if (c->x == NULL)
        return -1;
    c->s = c->x + cap;
    c->lo = c->s + cap;
    c->hi = c->lo + cap;
    sampler sm = {c->x, 0, cap, from, to};
    double f_to = fmin(axis_frac(ax, to), 1);
    size_t steps = (size_t)ceil(SAMPLES * f_to); /* at most SAMPLES */
    if (steps < 1)
        steps = 1;
    sm.x[sm.n++] = from;
    for (size_t k = 1; k < steps; k++)
        sampler_add(&sm, axis_value(ax, f_to * (double)k / (double)steps));
    curve_kinks(c, sampler_add, &sm);
    sm.x[sm.n++] = to;
    dls__sort_doubles(c->x, sm.n);
    size_t n = 0;
    for (size_t k = 0; k < sm.n; k++)
        if (n == 0 || c->x[k] != c->x[n - 1])
            c->x[n++] = c->x[k];
    c->n = n;
    for (size_t k = 0; k < n; k++) {
        c->s[k] = dls_model_speed(c->m, c->x[k]);
        c->lo[k] = c->low ? dls_model_speed(c->low, c->x[k]) : NAN;
        c->hi[k] = c->high ? dls_model_speed(c->high, c->x[k]) : NAN;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------- */
/* Building the curves                                                                  */

static dls_status add_curves(plot *p, dls_error *err)
{
    size_t np = dls_platform_count(p->pl), total = 0;
    for (size_t i = 0; i < np; i++) {
        size_t nx = 1;
        dls_model_get_grid(dls_platform_model(p->pl, i), &nx, NULL, NULL, NULL, NULL);
        total += nx < p->par.sections ? nx : p->par.sections;
    }
    p->c = calloc(total, sizeof *p->c);
    if (p->c == NULL)
        return dls__oom(err, "dls_plot_to_string");
    for (size_t i = 0; i < np; i++) {
        const dls_model *m = dls_platform_model(p->pl, i);
        double limit = dls_platform_limit(p->pl, i);
        p->any_limit |= isfinite(limit);
        size_t nx;
        const double *gx;
        if (dls_model_get_grid(m, &nx, &gx, NULL, NULL, NULL) == DLS_OK) {
            p->any_2d = 1;
            p->any_points = 1;
            size_t ns = nx < p->par.sections ? nx : p->par.sections;
            for (size_t k = 0; k < ns; k++) {
                /* evenly spread grid indices, first and last included; one: the middle */
                size_t g = ns == 1 ? (nx - 1) / 2 : (k * (nx - 1) + (ns - 1) / 2) / (ns - 1);
                curve *c = &p->c[p->nc];
                *c = (curve){.proc = i, .section = (int)k, .nsections = ns, .at = gx[g],
                             .limit = limit};
                dls_status st = dls_model_section(m, gx[g], &c->own, err);
                if (st != DLS_OK)
                    return st;
                c->m = c->own;
                p->nc++;
            }
            continue;
        }
        curve *c = &p->c[p->nc++];
        *c = (curve){.proc = i, .section = -1, .nsections = 1, .at = NAN, .m = m,
                     .limit = limit};
        size_t n;
        const double *size, *low, *high;
        if (dls_model_get_points(m, &n, &size, NULL, &low, &high) == DLS_OK) {
            p->any_points = 1;
            if (low != NULL && high != NULL) {
                p->any_bands = 1;
                dls_status st = dls_model_create_points(n, size, low, NULL, NULL, &c->low, err);
                if (st == DLS_OK)
                    st = dls_model_create_points(n, size, high, NULL, NULL, &c->high, err);
                if (st != DLS_OK)
                    return st;
            }
        }
    }
    return DLS_OK;
}

static int measured_range(const curve *c, double *first, double *last);

/* Whether two arrays of n numbers (either may be NULL) are equal, NaNs included. */
static int same_numbers(const double *a, const double *b, size_t n)
{
    if (a == NULL || b == NULL)
        return a == b;
    for (size_t k = 0; k < n; k++)
        if (!(a[k] == b[k] || (isnan(a[k]) && isnan(b[k]))))
            return 0;
    return 1;
}

/* Whether curves a and b draw the same thing: samples, band, points and limit. */
static int same_curve(const curve *a, const curve *b)
{
    if (a->section != b->section || (a->section >= 0 && a->at != b->at) ||
        a->limit != b->limit || a->n != b->n || !same_numbers(a->x, b->x, a->n) ||
        !same_numbers(a->s, b->s, a->n) || !same_numbers(a->lo, b->lo, a->n) ||
        !same_numbers(a->hi, b->hi, a->n))
        return 0;
    size_t na, nb;
    const double *sa, *va, *la, *ha, *sb, *vb, *lb, *hb;
    const double *pa = curve_points(a, &na, &va, &la, &ha);
    const double *pb = curve_points(b, &nb, &vb, &lb, &hb);
    if (pa == NULL || pb == NULL)
        return pa == pb;
    sa = pa;
    sb = pb;
    return na == nb && same_numbers(sa, sb, na) && same_numbers(va, vb, na) &&
           same_numbers(la, lb, na) && same_numbers(ha, hb, na);
}

/* Identical processors would hide each other's curves: each curve equal to an earlier one
 * is drawn as it (same_as), and the legend names them together. Also notes whether any
 * curve is extrapolated beyond its measured sizes. Quadratic in the curves, which are
 * few (a legend holds a few dozen). */
static void find_twins(plot *p)
{
    for (size_t k = 0; k < p->nc; k++) {
        curve *c = &p->c[k];
        c->same_as = -1;
        c->twins = 1;
        for (size_t j = 0; j < k && c->same_as < 0; j++)
            if (p->c[j].same_as < 0 && same_curve(&p->c[j], c)) {
                c->same_as = (long)j;
                p->c[j].twins++;
            }
        double first, last;
        if (c->same_as < 0 && c->n > 1 && measured_range(c, &first, &last) &&
            (c->x[0] < first || c->x[c->n - 1] > last))
            p->any_extrapolated = 1;
    }
}

static double clamp_range(double v)
{
    return fmin(fmax(v, RANGE_MIN), RANGE_MAX);
}

/* Chooses the size axis from the interesting sizes. */
static void choose_x(plot *p)
{
    range r = {INFINITY, -INFINITY};
    for (size_t k = 0; k < p->nc; k++)
        curve_sizes(&p->c[k], &r);
    if (!(r.lo <= r.hi))
        r.lo = r.hi = NO_SIZE_HINT;
    r.lo = clamp_range(r.lo);
    r.hi = clamp_range(r.hi);
    axis *a = &p->ax;
    a->log = p->par.x_scale != DLS_PLOT_AUTO ? p->par.x_scale == DLS_PLOT_LOG
                                             : r.hi / r.lo > AUTO_LOG_RATIO;
    if (a->log) {
        a->lo = r.lo / LOG_SIZE_MARGIN;
        a->hi = r.hi * LOG_SIZE_MARGIN;
    } else {
        a->lo = 0;
        a->hi = r.hi * LINEAR_SIZE_MARGIN;
        /* beyond its last kink a time model's speed still falls towards 1 / b: show the
         * fall as far as on a log axis, or up to the processor's limit */
        for (size_t k = 0; k < p->nc; k++) {
            range t = {INFINITY, -INFINITY};
            if (dls_model_get_kind(p->c[k].m) == DLS_MODEL_TIME_LINES &&
                curve_kinks(&p->c[k], range_add, &t) > 0)
                a->hi = fmax(a->hi, fmin(t.hi * LOG_SIZE_MARGIN, p->c[k].limit));
        }
        a->hi = fmin(a->hi, RANGE_MAX * LINEAR_SIZE_MARGIN);
    }
}

/* Chooses the speed axis from the samples and the measured points. On a linear size axis
 * the smallest speed is taken from a quarter of the smallest interesting size on, so
 * that a time model's speed falling to 0 at size 0 does not stretch a log axis. */
static void choose_y(plot *p)
{
    range sizes = {INFINITY, -INFINITY};
    for (size_t k = 0; k < p->nc; k++)
        curve_sizes(&p->c[k], &sizes);
    double from = p->ax.log || !(sizes.lo <= sizes.hi) ? p->ax.lo : sizes.lo / LOG_SIZE_MARGIN;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < p->nc; k++) {
        const curve *c = &p->c[k];
        for (size_t j = 0; j < c->n; j++) {
            double s = c->s[j];
            if (!(s > 0) || !isfinite(s))
                continue;
            hi = fmax(hi, s);
            if (c->x[j] >= from)
                lo = fmin(lo, s);
            if (c->low) {
                hi = fmax(hi, c->hi[j]);
                if (c->x[j] >= from)
                    lo = fmin(lo, c->lo[j]);
            }
        }
        size_t n;
        const double *speed, *low, *high;
        if (curve_points(c, &n, &speed, &low, &high) != NULL)
            for (size_t j = 0; j < n; j++) {
                lo = fmin(lo, low ? low[j] : speed[j]);
                hi = fmax(hi, high ? high[j] : speed[j]);
            }
    }
    if (!(lo <= hi)) /* nothing positive drawn: cannot happen with valid models */
        lo = hi = 1;
    lo = clamp_range(lo);
    hi = clamp_range(hi);
    axis *a = &p->ay;
    a->log = p->par.y_scale != DLS_PLOT_AUTO ? p->par.y_scale == DLS_PLOT_LOG
                                             : hi / lo > AUTO_LOG_RATIO;
    if (a->log) {
        /* headroom as a share of the axis length, below the smallest speed as well, so
         * that no curve runs along the frame */
        double span = fmax(log10(hi) - log10(lo), log10(MIN_LOG_SPEED_SPAN));
        double mid = (log10(hi) + log10(lo)) / 2;
        double pad = (SPEED_HEADROOM - 1) * span;
        a->lo = pow(10, mid - span / 2 - pad);
        a->hi = pow(10, mid + span / 2 + pad);
    } else {
        a->lo = 0;
        a->hi = hi * SPEED_HEADROOM;
    }
}

/* ---------------------------------------------------------------------------------- */
/* Drawing                                                                              */

/* A marker; cls is its class ("point", "point beyond-limit"), or NULL in the legend. */
static void put_marker(svg *o, int shape, double x, double y, const char *colour,
                       double opacity, const char *cls)
{
    double r = MARKER_R;
    char op[64] = "";
    size_t used = 0;
    if (cls)
        used = (size_t)snprintf(op, sizeof op, " class=\"%s\"", cls);
    if (opacity < 1 && used < sizeof op)
        snprintf(op + used, sizeof op - used, " opacity=\"%.2f\"", opacity);
    switch (shape) {
    case MARK_CIRCLE:
        put(o, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"%s/>\n", x, y, r, colour, op);
        break;
    case MARK_SQUARE:
        put(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"%s/>\n",
            x - r * 0.9, y - r * 0.9, 1.8 * r, 1.8 * r, colour, op);
        break;
    case MARK_DIAMOND:
        put(o, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n",
            x, y - 1.3 * r, x + 1.3 * r, y, x, y + 1.3 * r, x - 1.3 * r, y, colour, op);
        break;
    case MARK_TRIANGLE:
        put(o, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n", x, y - 1.3 * r,
            x + 1.2 * r, y + 0.8 * r, x - 1.2 * r, y + 0.8 * r, colour, op);
        break;
    default:
        put(o, "<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"%s/>\n", x, y + 1.3 * r,
            x + 1.2 * r, y - 0.8 * r, x - 1.2 * r, y - 0.8 * r, colour, op);
        break;
    }
}

/* Pixel position of a sample; 0 when it cannot be shown (a speed of 0 on a log axis). */
static int sample_px(const plot *p, double x, double s, double *px, double *py)
{
    if (!isfinite(s) || (p->ay.log && !(s > 0)) || (p->ax.log && !(x > 0)))
        return 0;
    *px = axis_px(&p->ax, x);
    *py = axis_px(&p->ay, s);
    return isfinite(*px) && isfinite(*py);
}

/* Whether every sample strictly between i and k lies within SIMPLIFY_PX of the straight
 * segment from sample i to sample k (all of them drawable). */
static int chord_fits(const plot *p, const double *x, const double *s, size_t i, size_t k)
{
    double ax, ay, bx, by;
    sample_px(p, x[i], s[i], &ax, &ay);
    sample_px(p, x[k], s[k], &bx, &by);
    double dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    for (size_t j = i + 1; j < k; j++) {
        double cx, cy;
        sample_px(p, x[j], s[j], &cx, &cy);
        double t = len2 > 0 ? ((cx - ax) * dx + (cy - ay) * dy) / len2 : 0;
        t = fmin(fmax(t, 0), 1);
        if (hypot(cx - ax - t * dx, cy - ay - t * dy) > SIMPLIFY_PX)
            return 0;
    }
    return 1;
}

static void put_sample(svg *o, const plot *p, const double *x, const double *s, size_t k,
                       char cmd)
{
    double px, py;
    sample_px(p, x[k], s[k], &px, &py);
    put(o, "%c%.1f %.1f", cmd, px, py);
}

/* A polyline through the samples (x[k], s[k]) as path data: a sample is left out when
 * the chord that skips it stays within SIMPLIFY_PX of everything it skips; a sample that
 * cannot be drawn ends the piece, and the next piece starts with a move. */
static void put_path_data(svg *o, const plot *p, const double *x, const double *s, size_t n)
{
    size_t q = 0, last = 0; /* last written sample, last sample seen */
    int open = 0;
    double px, py;
    for (size_t k = 0; k < n; k++) {
        if (!sample_px(p, x[k], s[k], &px, &py)) {
            if (open && last != q)
                put_sample(o, p, x, s, last, 'L');
            open = 0;
            continue;
        }
        if (!open) {
            put_sample(o, p, x, s, k, 'M');
            q = last = k;
            open = 1;
            continue;
        }
        if (!chord_fits(p, x, s, q, k)) {
            put_sample(o, p, x, s, last, 'L');
            q = last;
        }
        last = k;
    }
    if (open && last != q)
        put_sample(o, p, x, s, last, 'L');
}

/* The light band between the interpolated low and high curves. */
static void put_band(svg *o, const plot *p, const curve *c, const char *colour)
{
    if (c->low == NULL || c->n < 2 || c->same_as >= 0)
        return;
    put(o, "<path class=\"band\" d=\"");
    put_path_data(o, p, c->x, c->hi, c->n);
    /* then back along the low edge, closing the outline */
    for (size_t k = c->n; k-- > 0;) {
        double px, py;
        if (sample_px(p, c->x[k], c->lo[k], &px, &py))
            put(o, "L%.1f %.1f", px, py);
    }
    put(o, "Z\" fill=\"%s\" fill-opacity=\"%.2f\" stroke=\"none\"/>\n", colour, BAND_OPACITY);
}

/* The measured range of a curve with points: its first and last point; 0 for curves
 * known everywhere (time lines, constant speeds). */
static int measured_range(const curve *c, double *first, double *last)
{
    size_t n;
    const double *size = curve_points(c, &n, NULL, NULL, NULL);
    if (size == NULL || n == 0)
        return 0;
    *first = size[0];
    *last = size[n - 1];
    return 1;
}

/* The samples of [from, to) of a curve: their first index and count. */
static void sample_span(const curve *c, double from, double to, size_t *k0, size_t *n)
{
    size_t k = 0;
    while (k < c->n && c->x[k] < from)
        k++;
    *k0 = k;
    while (k < c->n && c->x[k] <= to)
        k++;
    *n = k - *k0;
}

/* One piece of a curve: samples k0 .. k0 + n - 1, measured or extrapolated. */
static void put_piece(svg *o, const plot *p, const curve *c, const char *colour, size_t k0,
                      size_t n, int extrapolated)
{
    /* the measured piece is written even as a lone point (a one-point model), with the
     * curve's tooltip; an extrapolated one only when it is a line */
    if (n < (extrapolated ? 2u : 1u))
        return;
    const char *dash = extrapolated ? EXTRA_DASH : curve_dash(c);
    put(o, "<path class=\"%s\" d=\"", extrapolated ? "extrapolated" : "curve");
    put_path_data(o, p, c->x + k0, c->s + k0, n);
    put(o, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" stroke-linejoin=\"round\"",
        colour, extrapolated ? EXTRA_W : c->section >= 0 ? SECTION_W : CURVE_W);
    if (dash)
        put(o, " stroke-dasharray=\"%s\"", dash);
    if (extrapolated)
        put(o, " stroke-linecap=\"round\" stroke-opacity=\"%.2f\"", EXTRA_OPACITY);
    put(o, "><title>");
    put_text(o, dls_platform_name(p->pl, c->proc));
    if (c->section >= 0) {
        char v[32];
        fmt_num(c->at, v, sizeof v);
        put(o, "%s%s", SECTION_LABEL, v);
    }
    put(o, "%s</title></path>\n", extrapolated ? ", extrapolated" : "");
}

/* A curve: measured between its first and last points, extrapolated outside them. */
static void put_curve(svg *o, const plot *p, const curve *c, const char *colour)
{
    if (c->n == 0 || c->same_as >= 0)
        return;
    double first, last;
    size_t k0, n;
    if (!measured_range(c, &first, &last)) {
        put_piece(o, p, c, colour, 0, c->n, 0);
        return;
    }
    /* the pieces share their end samples (the points are samples), so the line is whole */
    sample_span(c, -INFINITY, first, &k0, &n);
    put_piece(o, p, c, colour, k0, n, 1);
    sample_span(c, first, last, &k0, &n);
    put_piece(o, p, c, colour, k0, n, 0);
    sample_span(c, last, INFINITY, &k0, &n);
    put_piece(o, p, c, colour, k0, n, 1);
}

/* Markers and error bars of the measured points; faded beyond the limit. */
static void put_points(svg *o, const plot *p, const curve *c, const char *colour)
{
    size_t n;
    const double *speed, *low, *high;
    const double *size = curve_points(c, &n, &speed, &low, &high);
    if (size == NULL || c->same_as >= 0)
        return;
    for (size_t k = 0; k < n; k++) {
        double opacity = size[k] <= c->limit ? 1 : FADED_OPACITY;
        double px, py, pl_, ph;
        if (low && high && sample_px(p, size[k], low[k], &px, &pl_) &&
            sample_px(p, size[k], high[k], &px, &ph)) {
            put(o, "<path class=\"error-bar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
                   "stroke=\"%s\" stroke-width=\"1.2\" fill=\"none\"", px, pl_, ph, px - BAR_CAP, pl_,
                px + BAR_CAP, px - BAR_CAP, ph, px + BAR_CAP, colour);
            if (opacity < 1)
                put(o, " opacity=\"%.2f\"", opacity);
            put(o, "/>\n");
        }
        if (sample_px(p, size[k], speed[k], &px, &py))
            put_marker(o, (int)(c->proc % NMARKS), px, py, colour, opacity,
                       opacity < 1 ? "point beyond-limit" : "point");
    }
}

/* The legend's words for a curve: its processor's name, or the names of all the identical
 * processors drawn as it ("xeon-a = xeon-b", then " (identical)" with suffix); raw text,
 * not escaped. */
static void curve_names(const plot *p, const curve *c, int suffix, svg *b)
{
    dls__buf_put(b, "%s", dls_platform_name(p->pl, c->proc));
    if (c->twins < 2)
        return;
    for (size_t k = 0; k < p->nc; k++)
        if (p->c[k].same_as >= 0 && &p->c[p->c[k].same_as] == c)
            dls__buf_put(b, " = %s", dls_platform_name(p->pl, p->c[k].proc));
    if (suffix)
        dls__buf_put(b, IDENTICAL);
}

/* The limits as dashed vertical lines (labels 0), or their labels (labels 1), drawn last
 * so that no marker hides them. A label that would overprint the previous one is left
 * out: the legend's key and the colour still tell what the line is. */
static void put_limits(svg *o, const plot *p, double top, double bottom, int labels)
{
    size_t np = dls_platform_count(p->pl), nm = 0;
    dls__keyed *marks = malloc(np * sizeof *marks); /* where each line is, by processor */
    if (marks == NULL) {
        o->failed = 1;
        return;
    }
    for (size_t i = 0; i < np; i++) {
        double limit = dls_platform_limit(p->pl, i);
        int twin = 0; /* drawn by the identical processor's curve, limit and label */
        for (size_t c = 0; c < p->nc; c++)
            twin |= p->c[c].proc == i && p->c[c].same_as >= 0;
        if (!twin && isfinite(limit) && limit >= p->ax.lo && limit <= p->ax.hi)
            marks[nm++] = (dls__keyed){axis_px(&p->ax, limit), i};
    }
    dls__keyed_sort(marks, nm);
    double last_label = -INFINITY;
    for (size_t k = 0; k < nm; k++) {
        size_t i = marks[k].index;
        double x = marks[k].key;
        char colour[8], v[32];
        snprintf(colour, sizeof colour, "#%06x", colour_of(i));
        if (!labels) {
            put(o, "<line class=\"limit\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
                   "stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>\n", x, top, x,
                bottom, colour, LIMIT_DASH);
            continue;
        }
        if (x - last_label < LIMIT_LABEL_GAP)
            continue;
        last_label = x;
        fmt_num(dls_platform_limit(p->pl, i), v, sizeof v);
        /* along the line, reading upwards, at the end of the line away from where the
         * processor's own curve meets it; a white halo keeps it legible over the rest */
        int low = 0;
        for (size_t c = 0; c < p->nc; c++)
            if (p->c[c].proc == i && p->c[c].n > 0) {
                low = axis_frac(&p->ay, p->c[c].s[p->c[c].n - 1]) > 0.5;
                break;
            }
        put(o, "<text class=\"limit-label\" transform=\"translate(%.1f %.1f) rotate(-90)\" "
               "text-anchor=\"%s\" "
               "font-size=\"%.0f\" fill=\"%s\" stroke=\"white\" stroke-width=\"3\" "
               "stroke-linejoin=\"round\" paint-order=\"stroke\">", x - 4,
            low ? bottom - 6 : top + 6, low ? "start" : "end", SMALL_FONT, colour);
        /* the names of identical processors, whose lines are this one */
        const curve *own = NULL;
        for (size_t c = 0; c < p->nc && own == NULL; c++)
            if (p->c[c].proc == i)
                own = &p->c[c];
        svg names = DLS__BUF_INIT;
        if (own != NULL)
            curve_names(p, own, 0, &names);
        put_text_max(o, names.s != NULL ? names.s : dls_platform_name(p->pl, i),
                     LIMIT_LABEL_CHARS);
        o->failed |= names.failed;
        dls__buf_free(&names);
        put(o, " limit %s</text>\n", v);
    }
    free(marks);
}

/* ---------------------------------------------------------------------------------- */
/* Legend                                                                               */

typedef struct entry {
    const curve *c;  /* NULL for the key entries */
    int key;         /* KEY_* */
} entry;

enum { KEY_NONE, KEY_POINT, KEY_BAND, KEY_LIMIT, KEY_EXTRA };

static const char *const key_label[] = {"", "measured point", "measured band (low to high)",
                                        "limit (largest size)",
                                        "extrapolated (no measurement)"};

/* Characters of an entry's label. */
static size_t entry_chars(const plot *p, const entry *e)
{
    if (e->c == NULL)
        return strlen(key_label[e->key]);
    /* what curve_names() writes, counted without writing it */
    size_t n = text_chars(dls_platform_name(p->pl, e->c->proc));
    for (size_t k = 0; k < p->nc && e->c->twins > 1; k++)
        if (p->c[k].same_as >= 0 && &p->c[p->c[k].same_as] == e->c)
            n += strlen(" = ") + text_chars(dls_platform_name(p->pl, p->c[k].proc));
    if (e->c->twins > 1)
        n += strlen(IDENTICAL);
    if (e->c->section >= 0) {
        char v[32];
        fmt_num(e->c->at, v, sizeof v);
        n += strlen(SECTION_LABEL) + strlen(v);
    }
    return n;
}

/* One legend entry with its baseline at y: a sample of the line (with the marker when
 * the curve has points) and its label cut to max_chars characters. */
static void put_entry(svg *o, const plot *p, const entry *e, double x, double y,
                      size_t max_chars)
{
    double mid = y - FONT * BASELINE_SHIFT, cx = x + LEGEND_SWATCH / 2;
    double tx = x + LEGEND_SWATCH + LEGEND_TEXT_GAP;
    if (e->c == NULL) {
        put(o, "<g class=\"legend-key\">");
        switch (e->key) {
        case KEY_POINT:
            put_marker(o, MARK_CIRCLE, cx, mid, KEY_COLOUR, 1, NULL);
            break;
        case KEY_BAND:
            put(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                   "fill-opacity=\"%.2f\"/>", x, mid - 5, LEGEND_SWATCH, 10.0, KEY_COLOUR,
                BAND_OPACITY * 2);
            put(o, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" stroke=\"%s\" "
                   "stroke-width=\"1.2\"/>", cx, mid - 6, mid + 6, cx - BAR_CAP, mid - 6,
                cx + BAR_CAP, cx - BAR_CAP, mid + 6, cx + BAR_CAP, KEY_COLOUR);
            break;
        case KEY_EXTRA:
            put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"%.1f\" stroke-dasharray=\"%s\" stroke-linecap=\"round\" "
                   "stroke-opacity=\"%.2f\"/>", x, mid, x + LEGEND_SWATCH, mid, KEY_COLOUR,
                EXTRA_W, EXTRA_DASH, EXTRA_OPACITY);
            break;
        default:
            put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
                   "stroke-width=\"1.5\" stroke-dasharray=\"%s\"/>", cx, mid - 7, cx, mid + 7,
                KEY_COLOUR, LIMIT_DASH);
            break;
        }
        put(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">%s</text></g>\n", tx, y, KEY_COLOUR,
            key_label[e->key]);
        return;
    }
    const curve *c = e->c;
    svg names = DLS__BUF_INIT;
    curve_names(p, c, 1, &names);
    const char *name = names.s != NULL ? names.s : "";
    char colour[8], v[32] = "";
    curve_colour(c, colour, sizeof colour);
    const char *dash = curve_dash(c);
    put(o, "<g class=\"legend-entry\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
           "y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"", x, mid, x + LEGEND_SWATCH, mid,
        colour, c->section >= 0 ? SECTION_W : CURVE_W);
    if (dash)
        put(o, " stroke-dasharray=\"%s\"", dash);
    put(o, "/>");
    if (curve_points(c, &(size_t){0}, NULL, NULL, NULL) != NULL)
        put_marker(o, (int)(c->proc % NMARKS), cx, mid, colour, 1, NULL);
    size_t suffix = 0;
    if (c->section >= 0) {
        fmt_num(c->at, v, sizeof v);
        suffix = strlen(SECTION_LABEL) + strlen(v);
    }
    put(o, "<text x=\"%.1f\" y=\"%.1f\">", tx, y);
    put_text_max(o, name, max_chars > suffix + LEGEND_MIN_CHARS / 2 ? max_chars - suffix
                                                                  : LEGEND_MIN_CHARS / 2);
    put(o, "%s%s</text>", c->section >= 0 ? SECTION_LABEL : "", v);
    if (text_chars(name) + suffix > max_chars) { /* the whole name when hovering */
        put(o, "<title>");
        put_text(o, name);
        put(o, "</title>");
    }
    put(o, "</g>\n");
    o->failed |= names.failed;
    dls__buf_free(&names);
}

/* ---------------------------------------------------------------------------------- */

DLS__ENUM_NAMES(dls_plot_scale, dls_plot_scale, DLS_PLOT_SCALE_MAP)

void dls_plot_params_init(dls_plot_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->x_scale = DLS_PLOT_AUTO;
    params->y_scale = DLS_PLOT_AUTO;
    params->width = DLS_PLOT_DEFAULT_WIDTH;
    params->height = DLS_PLOT_DEFAULT_HEIGHT;
    params->sections = DLS_PLOT_DEFAULT_SECTIONS;
    params->title = NULL;
    params->size_unit = NULL;
    params->speed_unit = NULL;
}

static dls_status check_params(const dls_plot_params *par, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(par, "dls_plot_to_string", dls_plot_params, err);
    if (st != DLS_OK)
        return st;
    dls_plot_scale known;
    if (dls_plot_scale_from_name(dls_plot_scale_name(par->x_scale), &known) != DLS_OK)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "x_scale must be "
                         "DLS_PLOT_AUTO, DLS_PLOT_LINEAR or DLS_PLOT_LOG, not %d",
                         (int)par->x_scale);
    if (dls_plot_scale_from_name(dls_plot_scale_name(par->y_scale), &known) != DLS_OK)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "y_scale must be "
                         "DLS_PLOT_AUTO, DLS_PLOT_LINEAR or DLS_PLOT_LOG, not %d",
                         (int)par->y_scale);
    if (!isfinite(par->width) || par->width < DLS_PLOT_MIN_WIDTH)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "width must be a finite number "
                         ">= %g pixels, not %g", DLS_PLOT_MIN_WIDTH, par->width);
    if (!isfinite(par->height) || par->height < DLS_PLOT_MIN_HEIGHT)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "height must be a finite number "
                         ">= %g pixels, not %g", DLS_PLOT_MIN_HEIGHT, par->height);
    if (par->sections < 1)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "sections must be >= 1");
    return DLS_OK;
}

static void put_axes(svg *o, const plot *p, double left, double right, double top,
                     double bottom, const tick *xt, size_t nxt, const tick *yt, size_t nyt)
{
    char v[32];
    for (size_t k = 0; k < nxt; k++) {
        double x = axis_px(&p->ax, xt[k].v);
        if (xt[k].major)
            put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
                top, x, bottom, GRID_COLOUR);
    }
    for (size_t k = 0; k < nyt; k++) {
        double y = axis_px(&p->ay, yt[k].v);
        if (yt[k].major)
            put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
                left, y, right, y, GRID_COLOUR);
    }
    put(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
           "stroke=\"%s\"/>\n", left, top, right - left, bottom - top, AXIS_COLOUR);
    for (size_t k = 0; k < nxt; k++) {
        double x = axis_px(&p->ax, xt[k].v);
        double len = xt[k].major ? TICK_LEN : MINOR_TICK_LEN;
        put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x,
            bottom, x, bottom + len, AXIS_COLOUR);
        if (xt[k].major) {
            fmt_exp(xt[k].v, p->ax.exp_labels, v, sizeof v);
            put(o, "<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
                   "%s</text>\n", x,
                bottom + TICK_LEN + TICK_LABEL_GAP + FONT * BASELINE_DROP, v);
        }
    }
    for (size_t k = 0; k < nyt; k++) {
        double y = axis_px(&p->ay, yt[k].v);
        double len = yt[k].major ? TICK_LEN : MINOR_TICK_LEN;
        put(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n",
            left - len, y, left, y, AXIS_COLOUR);
        if (yt[k].major) {
            fmt_exp(yt[k].v, p->ay.exp_labels, v, sizeof v);
            put(o, "<text class=\"tick-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">"
                   "%s</text>\n",
                left - TICK_LEN - TICK_LABEL_GAP, y + FONT * BASELINE_SHIFT, v);
        }
    }
}

/* Whether the labels of a linear axis need exponents: then all of them get one. */
static int needs_exponents(const axis *a, const tick *t, size_t n)
{
    int any = 0;
    for (size_t k = 0; k < n && !a->log; k++)
        any |= t[k].major && t[k].v != 0 && (fabs(t[k].v) >= PLAIN_MAX || fabs(t[k].v) < PLAIN_MIN);
    return any;
}

/* Widest tick label, in pixels. */
static double label_width(const axis *a, const tick *t, size_t n)
{
    double w = 0;
    char v[32];
    for (size_t k = 0; k < n; k++)
        if (t[k].major) {
            fmt_exp(t[k].v, a->exp_labels, v, sizeof v);
            w = fmax(w, DIGIT_W * (double)strlen(v));
        }
    return w;
}

/* Where things go. */
typedef struct layout {
    double left, right, top, bottom;  /* the plot area */
    entry *ent;                       /* legend entries, curves first, then the key */
    size_t ne;
    size_t rows, cols;                /* of the legend */
    double col_w, key_gap;            /* column width; space before the key */
    size_t fit_chars;                 /* characters of a label that fit in a column */
    tick *xt, *yt;
    size_t nxt, nyt;
} layout;

/* Lists the legend entries, places the plot area and the legend, and makes the ticks.
 * Returns 0, or -1 when out of memory. */
static int make_layout(plot *p, layout *l)
{
    const double W = p->par.width, H = p->par.height;
    size_t n = p->nc + (p->any_points != 0) + (p->any_bands != 0) + (p->any_limit != 0) +
               (p->any_extrapolated != 0);
    l->ent = malloc(n * sizeof *l->ent);
    l->yt = malloc(2 * MAX_TICKS * sizeof *l->yt);
    if (l->ent == NULL || l->yt == NULL)
        return -1;
    l->xt = l->yt + MAX_TICKS;
    l->ne = 0;
    size_t curves;
    for (size_t k = 0; k < p->nc; k++)
        if (p->c[k].same_as < 0) /* identical ones share the first one's entry */
            l->ent[l->ne++] = (entry){&p->c[k], KEY_NONE};
    curves = l->ne;
    if (p->any_points)
        l->ent[l->ne++] = (entry){NULL, KEY_POINT};
    if (p->any_extrapolated)
        l->ent[l->ne++] = (entry){NULL, KEY_EXTRA};
    if (p->any_bands)
        l->ent[l->ne++] = (entry){NULL, KEY_BAND};
    if (p->any_limit)
        l->ent[l->ne++] = (entry){NULL, KEY_LIMIT};
    size_t max_chars = 0;
    for (size_t k = 0; k < l->ne; k++) {
        size_t c = entry_chars(p, &l->ent[k]);
        max_chars = c > max_chars ? c : max_chars;
    }

    /* vertical: title, plot, x labels; the y labels' width then sets the left margin */
    l->top = MARGIN_TOP;
    l->bottom = H - MARGIN_BOTTOM;
    p->ay.p0 = l->bottom;
    p->ay.p1 = l->top;
    l->nyt = make_ticks(&p->ay, l->bottom - l->top, Y_TICK_SPACING, FONT + Y_LABEL_MIN_GAP,
                        l->yt);
    p->ay.exp_labels = needs_exponents(&p->ay, l->yt, l->nyt);
    l->left = fmax(MIN_MARGIN_LEFT, AXIS_TITLE_X + FONT + 2 * TICK_LABEL_GAP +
                                        label_width(&p->ay, l->yt, l->nyt) + TICK_LABEL_GAP +
                                        TICK_LEN);

    /* the legend: as many rows as fit beside the plot, columns as needed within
     * LEGEND_MAX_SHARE of the width; the plot takes the rest */
    l->key_gap = l->ne > curves ? LEGEND_ROW / 2 : 0;
    l->rows = (size_t)fmax(1, floor((l->bottom - l->top - l->key_gap) / LEGEND_ROW));
    l->cols = (l->ne + l->rows - 1) / l->rows;
    size_t max_cols = (size_t)fmax(1, floor(LEGEND_MAX_SHARE * W / LEGEND_COLUMN(LEGEND_MIN_CHARS)));
    if (l->cols > max_cols)
        l->cols = max_cols;
    double legend_w = fmin((double)l->cols * LEGEND_COLUMN(max_chars), LEGEND_MAX_SHARE * W);
    l->right = fmax(l->left + MIN_PLOT_W, W - MARGIN_RIGHT - legend_w - LEGEND_GAP);
    legend_w = fmin(legend_w, W - MARGIN_RIGHT - LEGEND_GAP - l->right);
    l->col_w = legend_w / (double)l->cols;
    l->fit_chars = (size_t)fmax(LEGEND_MIN_CHARS / 2,
                                floor((l->col_w - LEGEND_COLUMN(0)) / CHAR_W));

    p->ax.p0 = l->left;
    p->ax.p1 = l->right;
    l->nxt = make_ticks(&p->ax, l->right - l->left, X_TICK_SPACING, 0, l->xt);
    p->ax.exp_labels = needs_exponents(&p->ax, l->xt, l->nxt);
    if (p->ax.log) /* again, leaving out labels that would touch */
        l->nxt = make_ticks(&p->ax, l->right - l->left, X_TICK_SPACING,
                            label_width(&p->ax, l->xt, l->nxt) + X_LABEL_MIN_GAP, l->xt);
    return 0;
}

/* The legend, column by column right of the plot; when the entries do not all fit, the
 * last place says how many are left out. */
static void put_legend(svg *o, const plot *p, const layout *l)
{
    double x0 = l->right + LEGEND_GAP, y0 = l->top + FONT;
    size_t capacity = l->rows * l->cols;
    for (size_t k = 0; k < l->ne; k++) {
        if (l->ne > capacity && k == capacity - 1) {
            put(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\">and %zu more</text>\n",
                x0 + (double)(l->cols - 1) * l->col_w,
                y0 + (double)(l->rows - 1) * LEGEND_ROW, KEY_COLOUR, l->ne - k);
            break;
        }
        size_t col = k / l->rows, row = k % l->rows;
        double gap = l->ent[k].c == NULL ? l->key_gap : 0;
        put_entry(o, p, &l->ent[k], x0 + (double)col * l->col_w,
                  y0 + (double)row * LEGEND_ROW + gap, l->fit_chars);
    }
}

static void put_titles(svg *o, const plot *p, const layout *l)
{
    put(o, "<text class=\"title\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
           "font-weight=\"bold\">", l->left, l->top - TITLE_FONT - 2, TITLE_FONT);
    put_text(o, p->par.title ? p->par.title : "Speed functions");
    put(o, "</text>\n");
    put(o, "<text class=\"axis-title\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">size (",
        (l->left + l->right) / 2, l->bottom + TICK_LEN + 3 * FONT + TICK_LABEL_GAP);
    put_text(o, p->par.size_unit ? p->par.size_unit : "units");
    put(o, ")%s%s</text>\n", p->ax.log ? ", log scale" : "",
        p->any_2d ? "; 2-D models: y at a fixed x" : "");
    put(o, "<text class=\"axis-title\" transform=\"translate(%.1f %.1f) rotate(-90)\" "
           "text-anchor=\"middle\">speed (", AXIS_TITLE_X + FONT, (l->top + l->bottom) / 2);
    put_text(o, p->par.speed_unit ? p->par.speed_unit : "units/s");
    put(o, ")%s</text>\n", p->ay.log ? ", log scale" : "");
}

static void put_document(svg *o, const plot *p, const layout *l)
{
    const double W = p->par.width, H = p->par.height;
    put(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
           "viewBox=\"0 0 %g %g\" font-family=\"sans-serif\" font-size=\"%.0f\">\n",
        W, H, W, H, FONT);
    put(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    put(o, "<defs><clipPath id=\"plot-area\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
           "height=\"%.1f\"/></clipPath></defs>\n", l->left, l->top, l->right - l->left,
        l->bottom - l->top);
    put_titles(o, p, l);
    put_axes(o, p, l->left, l->right, l->top, l->bottom, l->xt, l->nxt, l->yt, l->nyt);

    /* bands under the curves, then the curves, the limit lines, the points, and the
     * limits' labels on top of everything */
    char colour[8];
    put(o, "<g clip-path=\"url(#plot-area)\">\n");
    for (size_t k = 0; k < p->nc; k++) {
        curve_colour(&p->c[k], colour, sizeof colour);
        put_band(o, p, &p->c[k], colour);
    }
    for (size_t k = 0; k < p->nc; k++) {
        curve_colour(&p->c[k], colour, sizeof colour);
        put_curve(o, p, &p->c[k], colour);
    }
    put(o, "</g>\n");
    put_limits(o, p, l->top, l->bottom, 0);
    put(o, "<g clip-path=\"url(#plot-area)\">\n");
    for (size_t k = 0; k < p->nc; k++) {
        curve_colour(&p->c[k], colour, sizeof colour);
        put_points(o, p, &p->c[k], colour);
    }
    put(o, "</g>\n");
    put_limits(o, p, l->top, l->bottom, 1);
    put_legend(o, p, l);
    put(o, "</svg>\n");
}

dls_status dls_plot_to_string(const dls_platform *platform, const dls_plot_params *params,
                              char **out, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "NULL argument");
    if (dls_platform_count(platform) == 0)
        return dls__fail(err, DLS_EINVAL, "dls_plot_to_string", "the platform has no processor");
    plot p;
    memset(&p, 0, sizeof p);
    p.pl = platform;
    if (params != NULL)
        p.par = *params;
    else
        dls_plot_params_init(&p.par);
    dls_status st = check_params(&p.par, err);
    if (st != DLS_OK)
        return st;
    /* numbers are written with printf: make its decimal point a '.' whatever locale the
     * calling program chose (for this thread only, and only during this call) */
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, "dls_plot_to_string");
    layout l;
    memset(&l, 0, sizeof l);
    svg o = DLS__BUF_INIT;
    st = add_curves(&p, err);
    if (st == DLS_OK) {
        choose_x(&p);
        for (size_t k = 0; k < p.nc && !o.failed; k++)
            o.failed = sample_curve(&p.c[k], &p.ax) != 0;
        if (!o.failed) {
            find_twins(&p);
            choose_y(&p);
            o.failed = make_layout(&p, &l) != 0;
        }
        if (!o.failed)
            put_document(&o, &p, &l);
        if (o.failed)
            st = dls__oom(err, "dls_plot_to_string");
    }
    free(l.ent);
    free(l.yt);
    plot_free(&p);
    dls__c_numeric_leave(&loc);
    if (st != DLS_OK) {
        free(o.s);
        return st;
    }
    *out = o.s;
    return DLS_OK;
}

dls_status dls_plot_write_file(const dls_platform *platform, const dls_plot_params *params,
                               const char *path, dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_plot_write_file", "NULL path");
    char *doc;
    dls_status st = dls_plot_to_string(platform, params, &doc, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, doc, strlen(doc), err);
    free(doc);
    return st;
}
