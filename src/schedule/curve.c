/* The makespan as a function of the load (dls_schedule_curve): the chain solver's value
 * function of the whole sequence, read as T(V) over a range, and its plot as SVG. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chain/chain.h"
#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"
#include "svg/gantt.h"
#include "svg/svg_text.h"

struct dls_curve {
    size_t n;
    double *load, *makespan;
    int exact;
};

void dls_curve_free(dls_curve *c)
{
    if (c == NULL)
        return;
    free(c->load);
    free(c->makespan);
    free(c);
}

static dls_status dls_schedule_curve_impl(const dls_platform *platform, double load_min,
                                          double load_max, const dls_schedule_params *params,
                                          dls_curve **out, dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve", "NULL argument");
    dls_status st = dls__schedule_params_check(params, err);
    if (st != DLS_OK)
        return st;
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve", "the platform has no processor");
    if (params->solver != DLS_SOLVER_CHAIN)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve", "the curve comes from the chain "
                         "solver's value function, not from %s",
                         dls_star_solver_name(params->solver));
    if (!(load_min > 0) || !(load_max > load_min) || !isfinite(load_max))
        return dls__fail(err, DLS_EINVAL, "dls_schedule_curve", "the range of loads must have 0 < "
                         "load_min < load_max, finite, not [%.10g, %.10g]", load_min, load_max);
    char *note = NULL;
    dls__star star;
    dls__star_opts so = dls__star_opts_from_params(params);
    st = dls__star_build(platform, load_max, &so, 1, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    dls__chain_params cp;
    dls__schedule_chain_params(platform, params, &cp);
    dls__chain_curve cv;
    st = dls__chain_curve_build(&star, &cp, load_min, load_max, &cv, err);
    dls__star_free(&star);
    if (st != DLS_OK)
        return st;
    dls_curve *c = malloc(sizeof *c);
    if (c == NULL) {
        dls__chain_curve_free(&cv);
        return dls__oom(err, "dls_schedule_curve");
    }
    c->n = cv.n;
    c->load = cv.load;
    c->makespan = cv.makespan;
    c->exact = cv.exact;
    *out = c;
    return DLS_OK;
}

dls_status dls_schedule_curve(const dls_platform *platform, double load_min, double load_max,
                              const dls_schedule_params *params, dls_curve **out,
                              dls_error *err)
{
    dls_status st = dls_schedule_curve_impl(platform, load_min, load_max, params, out, err);
    return dls__error_retag(err, st, "dls_schedule_curve");
}

size_t dls_curve_count(const dls_curve *c) { return c->n; }
const double *dls_curve_loads(const dls_curve *c) { return c->load; }
const double *dls_curve_makespans(const dls_curve *c) { return c->makespan; }
int dls_curve_exact(const dls_curve *c) { return c->exact; }

double dls_curve_makespan_at(const dls_curve *c, double load)
{
    if (!(load >= c->load[0] && load <= c->load[c->n - 1]))
        return NAN;
    /* the first point at or above the load: at a jump of T (two points of one load) the
     * first, T at that load itself; the second is T's limit from above */
    size_t lo = 0, hi = c->n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->load[mid] < load)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (c->load[lo] == load || lo == 0)
        return c->makespan[lo];
    double span = c->load[lo] - c->load[lo - 1];
    return c->makespan[lo - 1] +
           (c->makespan[lo] - c->makespan[lo - 1]) * ((load - c->load[lo - 1]) / span);
}

/* ---------------------------------------------------------------------------------- */
/* The curve as SVG                                                                   */

/* Plot area below the title, in pixels (the width is the Gantt charts'). */
#define CURVE_PLOT_H 380.0
#define CURVE_BOTTOM 70.0
/* Wanted ticks per axis. */
#define CURVE_TICKS 8
/* Radius of the points where T bends. */
#define CURVE_DOT 2.5
/* Ticks run to the axis' end plus this much of a step (rounding of the sums). */
#define CURVE_TICK_SLACK 1e-9

typedef struct curve_frame {
    double x0, x1, y0, y1;  /* plot area (pixels; y0 at the bottom) */
    double vmax, tmax;      /* axes from 0 */
} curve_frame;

static double fx(const curve_frame *f, double v) { return f->x0 + (f->x1 - f->x0) * v / f->vmax; }
static double fy(const curve_frame *f, double t) { return f->y0 - (f->y0 - f->y1) * t / f->tmax; }

static void curve_axes(dls__buf *o, const curve_frame *f)
{
    double vs = dls__svg_nice_step(f->vmax, CURVE_TICKS), ts = dls__svg_nice_step(f->tmax, CURVE_TICKS);
    for (double v = 0; v <= f->vmax * (1 + CURVE_TICK_SLACK); v += vs) {
        double x = fx(f, v);
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n"
                        "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
                     x, f->y1, x, f->y0 + 5, x, f->y0 + 18, v);
    }
    for (double t = 0; t <= f->tmax * (1 + CURVE_TICK_SLACK); t += ts) {
        double y = fy(f, t);
        dls__buf_put(o, "<line x1=\"%.1f\" y1=\"%.2f\" x2=\"%.1f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n"
                        "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">%g</text>\n",
                     f->x0 - 5, y, f->x1, y, f->x0 - 8, y + 4, t);
    }
    dls__buf_put(o, "<polyline points=\"%.1f,%.1f %.1f,%.1f %.1f,%.1f\" fill=\"none\" "
                    "stroke=\"black\"/>\n", f->x0, f->y1, f->x0, f->y0, f->x1, f->y0);
    dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">load (units)</text>\n",
                 (f->x0 + f->x1) / 2, f->y0 + 38);
    dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 "
                    "%.1f %.1f)\">makespan (s)</text>\n", f->x0 - 70, (f->y0 + f->y1) / 2,
                 f->x0 - 70, (f->y0 + f->y1) / 2);
}

static void curve_draw(dls__buf *o, const dls_curve *c, double mark)
{
    curve_frame f = {DLS__GANTT_LEFT, DLS__GANTT_WIDTH - DLS__GANTT_RIGHT,
                     DLS__GANTT_TOP + CURVE_PLOT_H, DLS__GANTT_TOP, c->load[c->n - 1],
                     c->makespan[c->n - 1]};
    dls__gantt_begin(o, DLS__GANTT_TOP + CURVE_PLOT_H + CURVE_BOTTOM, NULL);
    dls__gantt_title_open(o);
    dls__buf_put(o, "Makespan as a function of the load, %.6g to %.6g units", c->load[0],
                 c->load[c->n - 1]);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    dls__buf_put(o, "%zu points where it bends (dots); linear between them; its slope is "
                    "dT/dV", c->n > 2 ? c->n - 2 : 0);
    dls__gantt_text_close(o);
    curve_axes(o, &f);
    dls__buf_put(o, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
                 dls__gantt_colour(1));
    for (size_t i = 0; i < c->n; i++)
        dls__buf_put(o, "%s%.2f,%.2f", i ? " " : "", fx(&f, c->load[i]), fy(&f, c->makespan[i]));
    dls__buf_put(o, "\"/>\n");
    for (size_t i = 1; i + 1 < c->n; i++)
        dls__buf_put(o, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\"><title>load %.10g: %.10g "
                        "s</title></circle>\n", fx(&f, c->load[i]), fy(&f, c->makespan[i]),
                     CURVE_DOT, c->load[i], c->makespan[i]);
    if (isfinite(mark)) {
        double t = dls_curve_makespan_at(c, mark), x = fx(&f, mark);
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"red\" "
                        "stroke-dasharray=\"4 3\"/>\n<text x=\"%.2f\" y=\"%.1f\" fill=\"red\">"
                        "V = %.6g: %.6g s</text>\n", x, f.y0, x, f.y1, x + 4, f.y1 + 14,
                     mark, t);
    }
    dls__buf_put(o, "</svg>\n");
}

static dls_status curve_svg_impl(const dls_curve *c, double mark, char **out, const char *fn,
                                 dls_error *err)
{
    if (c == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (!(c->makespan[c->n - 1] > 0))
        return dls__fail(err, DLS_EINVAL, fn, "nothing to draw (the makespan is 0)");
    if (!isnan(mark) && !(mark >= c->load[0] && mark <= c->load[c->n - 1]))
        return dls__fail(err, DLS_EINVAL, fn, "the load to mark, %.10g, is outside the curve's "
                         "range [%.10g, %.10g]", mark, c->load[0], c->load[c->n - 1]);
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, fn);
    dls__buf o = DLS__BUF_INIT;
    curve_draw(&o, c, mark);
    dls__c_numeric_leave(&loc);
    char *doc = dls__buf_take(&o);
    if (doc == NULL)
        return dls__oom(err, fn);
    *out = doc;
    return DLS_OK;
}

dls_status dls_curve_svg_to_string(const dls_curve *curve, double mark, char **out,
                                   dls_error *err)
{
    return curve_svg_impl(curve, mark, out, "dls_curve_svg_to_string", err);
}

dls_status dls_curve_svg_write_file(const dls_curve *curve, double mark, const char *path,
                                    dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_curve_svg_write_file", "NULL path");
    char *doc;
    dls_status st = curve_svg_impl(curve, mark, &doc, "dls_curve_svg_write_file", err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, doc, strlen(doc), err);
    free(doc);
    return dls__error_retag(err, st, "dls_curve_svg_write_file");
}
