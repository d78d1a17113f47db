/* The Gantt chart of a schedule as SVG (the parts shared with the multi-installment chart
 * are in svg/gantt.c): the originator's sends on the first lane, then one lane
 * per processor in send order: its data arriving, its computation coloured by the memory
 * level that binds with its load written on it, and its idle time up to the makespan; a
 * time axis in seconds, a legend, and a table of the figures under the chart. The
 * subtitle names the method that made the schedule (chain solver, GLPK, MIP, ...). */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_impl.h"
#include "star/star.h"
#include "svg/gantt.h"
#include "svg/svg_text.h"

/* Wanted number of time ticks; a tick label's character width and the least gap between
 * two labels (px), and how many times the step may be widened for them. */
#define TICKS 8
#define TICK_CHAR_W 7.0
#define TICK_GAP 12.0
#define MAX_WIDEN 4
/* A send bar shows its processor's name when it has this many pixels per character. */
#define NAME_CHAR_W 8.0
/* Significant digits of the numbers in the title, on the bars (loads, shares) and in the
 * table (its columns keep the decimals of their largest number). */
#define TITLE_DIGITS 6
#define LABEL_DIGITS 6
#define SHARE_DIGITS 3
#define TABLE_DIGITS 6
/* Makespans within this relative distance are one answer's (which method's answer the
 * integer schedule kept). */
#define SAME_MAKESPAN 1e-9
/* A subtitle this long still has room for "; lanes in send order" on the canvas. */
#define SUBTITLE_CHARS 90

/* The step of the time ticks: about TICKS of them, fewer when their labels ("1.2e+44")
 * would touch. */
static double tick_step(double T)
{
    double plot_w = DLS__GANTT_WIDTH - DLS__GANTT_LEFT - DLS__GANTT_RIGHT;
    double step = dls__svg_nice_step(T, TICKS);
    for (int widen = 0; widen < MAX_WIDEN; widen++) {
        size_t widest = 0;
        for (double t = 0; t <= T * (1 + 1e-9); t += step) {
            char v[32];
            snprintf(v, sizeof v, "%g", t);
            widest = strlen(v) > widest ? strlen(v) : widest;
        }
        if (plot_w * step / T >= TICK_CHAR_W * (double)widest + TICK_GAP)
            break;
        step = dls__svg_nice_step(T, T / step / 2); /* about half as many */
    }
    return step;
}

/* The time axis under the lanes, with its ticks every step seconds. */
static void time_axis(dls__buf *o, double T, double step, double axis_y)
{
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    dls__buf_put(o, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                 left, axis_y, left + plot_w, axis_y);
    for (double t = 0; t <= T * (1 + 1e-9); t += step) {
        double x = left + plot_w * (t / T);
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                     x, axis_y, x, axis_y + 5);
        dls__buf_put(o, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x,
                     axis_y + 18, t);
    }
    dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">time (s)</text>\n",
                 left + plot_w / 2, axis_y + 36);
}

/* send, the levels that appear (up to the palette's), speed model, idle, makespan */
static void legend(dls__buf *o, const dls_schedule *s, double y)
{
    int maxlevel = 0, speed_models = 0;
    for (size_t i = 0; i < s->p; i++) {
        if (s->level[i] > maxlevel)
            maxlevel = s->level[i];
        if (s->level[i] == 0 && (s->load[i] > 0 || s->finish[i] > s->send_end[i]))
            speed_models = 1; /* a computation bar of its colour is drawn */
    }
    dls__gantt_key keys[DLS__GANTT_SLOTS + 3];
    size_t n = 0;
    dls__gantt_key_send(&keys[n++]);
    for (int e = 1; e <= maxlevel && e < DLS__GANTT_SLOTS; e++)
        dls__gantt_key_level(&keys[n++], e);
    if (speed_models)
        dls__gantt_key_speed_model(&keys[n++]);
    dls__gantt_key_idle(&keys[n++]);
    dls__gantt_key_makespan(&keys[n++]);
    dls__gantt_legend(o, y, keys, n);
}

/* Lane `at`: the originator's sends, in send order. */
static void sends(dls__buf *o, const dls_schedule *s, const dls_platform *pl, double T, size_t at,
                  const char *label)
{
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    dls__gantt_lane_label(o, at, label);
    for (size_t k = 0; k < s->p; k++) {
        size_t i = s->seq[k];
        if (!isfinite(s->send_start[i]))
            continue;
        double x0 = left + plot_w * (s->send_start[i] / T);
        double x1 = left + plot_w * (s->send_end[i] / T);
        const char *name = pl->procs[i].name;
        dls__gantt_send(o, at, x0, fmax(x1 - x0, DLS__GANTT_MIN_BAR), "send to ", name,
                        "%.6g to %.6g s", s->send_start[i], s->send_end[i]);
        if (x1 - x0 > NAME_CHAR_W * (double)dls__svg_text_chars(name) + 8) {
            /* a white halo keeps the name legible on the stripes */
            dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"black\" "
                            "stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" "
                            "paint-order=\"stroke\">", x0 + 4,
                         dls__gantt_lane_y(at) + DLS__GANTT_LANE * 0.65);
            dls__svg_text(o, name);
            dls__buf_put(o, "</text>\n");
        }
    }
}

/* "load 228644 (22.9%), level 2": processor i's share, written on its lane. */
static void load_text(const dls_schedule *s, size_t i, char *buf, size_t size)
{
    char ld[32], pc[32];
    dls__svg_num(ld, sizeof ld, s->load[i], LABEL_DIGITS);
    if (!(s->load[i] > 0)) {
        snprintf(buf, size, "load 0: %s", isfinite(s->send_start[i])
                                              ? "sent nothing, its startup still paid"
                                              : "unused");
        return;
    }
    dls__svg_num(pc, sizeof pc, dls__gantt_share(s->load[i], s->V), SHARE_DIGITS);
    int n = snprintf(buf, size, "load %s (%s%%)", ld, pc);
    /* the level in words too: a grey print loses the colour */
    if (s->level[i] > 0 && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, ", level %d", s->level[i]);
}

/* Lane `at`: processor i's data arriving, computing and idle, and its load written on
 * the computation (or beside it); its label is its name followed by `suffix`. Bars too
 * short to see are drawn DLS__GANTT_MIN_BAR wide, inside the plot. */
static void lane(dls__buf *o, const dls_schedule *s, const dls_platform *pl, double T, size_t i,
                 size_t at, const char *suffix)
{
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    double end = left + plot_w;
#define X(t) (left + plot_w * ((t) / T))
    char label[DLS_PLATFORM_NAME_MAX + 32], text[96];
    snprintf(label, sizeof label, "%s%s", pl->procs[i].name, suffix);
    dls__gantt_lane_label(o, at, label);
    load_text(s, i, text, sizeof text);
    if (!isfinite(s->send_start[i])) { /* sent nothing: idle all along, and its label */
        dls__gantt_idle(o, at, left, plot_w);
        dls__gantt_bar_label(o, at, left, end, left, end, DLS__GANTT_IDLE_COLOUR, "load-label",
                             text);
        return;
    }
    double xs = X(s->send_start[i]), xe = X(s->send_end[i]), xf = X(s->finish[i]);
    double ws = fmax(xe - xs, DLS__GANTT_MIN_BAR), wc = fmax(xf - xe, DLS__GANTT_MIN_BAR);
    dls__gantt_transit(o, at, fmin(xs, end - ws), ws);
    double xc = fmin(xe, end - wc);
    if (s->load[i] > 0 || s->finish[i] > s->send_end[i])
        dls__gantt_compute(o, at, xc, wc, s->level[i], 0, 0, pl->procs[i].name,
                           "load %.6g, computes %.6g s (%.6g to %.6g)%s", s->load[i],
                           s->compute[i], s->send_end[i], s->finish[i],
                           s->level[i] > 0 ? "" : ", speed model");
    if (X(T) - xf > DLS__GANTT_MIN_BAR)
        dls__gantt_idle(o, at, xf, X(T) - xf);
    dls__gantt_bar_label(o, at, xc, xc + wc, fmin(xs, xc), end, dls__gantt_colour(s->level[i]),
                         "load-label", text);
#undef X
}

/* Vertical grid lines every step seconds, under the bars. */
static void grid(dls__buf *o, double T, double step, double axis_y)
{
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    for (double t = 0; t <= T * (1 + 1e-9); t += step) {
        double x = left + plot_w * (t / T);
        dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\" "
                        "stroke-width=\"0.5\"/>\n", x, DLS__GANTT_TOP, x, axis_y);
    }
}

/* Whether two makespans are the same answer's (rounding apart). */
static int same_makespan(double a, double b)
{
    return fabs(a - b) <= SAME_MAKESPAN * fmax(fabs(a), fabs(b));
}

/* Which method made the schedule and what it proved, in words: "optimal, chain solver",
 * "optimal, GLPK simplex", "whole-unit loads, optimal: MIP (GLPK branch and bound)". */
static void method_words(const dls_schedule *s, char *buf, size_t size)
{
    const char *verdict = s->status == DLS_SOLUTION_OPTIMAL ? "optimal" : "not proven optimal";
    const dls_schedule_mip_info *m = &s->mip;
    int mip_kept = (m->mip_status == DLS_SOLUTION_OPTIMAL ||
                    m->mip_status == DLS_SOLUTION_FEASIBLE) &&
                   same_makespan(m->mip_makespan, s->makespan);
    switch (s->kind) {
    case DLS_SCHEDULE_LP:
        if (s->solver.solver == DLS_SOLVER_GLPK && s->solver.selection && !s->solver.optimal)
            snprintf(buf, size, "GLPK simplex, %s (processors chosen by a heuristic)%s",
                     s->status == DLS_SOLUTION_OPTIMAL ? "optimal" : "not proven optimal",
                     s->exact ? ", confirmed by the exact simplex" : "");
        else if (s->solver.solver == DLS_SOLVER_GLPK)
            snprintf(buf, size, "%s, GLPK simplex%s",
                     s->status == DLS_SOLUTION_OPTIMAL ? "optimal" : "not proven optimal",
                     s->exact ? ", confirmed by the exact simplex" : "");
        else
            snprintf(buf, size, "%s, chain solver%s",
                     s->status == DLS_SOLUTION_OPTIMAL &&
                             (!s->solver.selection || s->solver.optimal)
                         ? "optimal" : "not proven optimal",
                     s->solver.selection && !s->solver.optimal
                         ? " (the set of processors by a heuristic)" : "");
        break;
    case DLS_SCHEDULE_INTEGER:
        snprintf(buf, size, "whole-unit loads, %s: %s", verdict,
                 same_makespan(m->rounded_makespan, s->makespan) ? "the LP's loads rounded"
                 : mip_kept ? "MIP (GLPK branch and bound)"
                            : "the geometric partitioner's");
        break;
    case DLS_SCHEDULE_MIP:
        snprintf(buf, size, "exact shapes, %s: %s", verdict,
                 mip_kept ? "MIP (GLPK branch and bound)"
                          : "the LP's loads (no better MIP answer)");
        break;
    case DLS_SCHEDULE_EVALUATED:
        snprintf(buf, size, "a given distribution, replayed");
        break;
    default:
        snprintf(buf, size, "measured");
        break;
    }
}

/* The figures of the chart in a table under it, processors in send order, then the
 * total: name, load, share, send start and end, finish. */
static void table(dls__buf *o, const dls_schedule *s, const dls_platform *pl, double y)
{
    static const char *const heads[] = {"processor", "load (units)", "share (%)",
                                        "send start (s)", "send end (s)", "finish (s)"};
    enum { COLS = sizeof heads / sizeof heads[0], W = 32 };
    size_t rows = s->p + 1;
    const char **cells = calloc(rows * COLS, sizeof *cells);
    char *num = malloc(rows * COLS * W);
    if (cells == NULL || num == NULL) {
        free(cells);
        free(num);
        o->failed = 1;
        return;
    }
    double T = s->makespan;
    int dl = dls__gantt_column_format(s->load, s->p, TABLE_DIGITS);
    /* the times of one column of decimals: every send and finish, and the makespan */
    double *times = malloc((3 * s->p + 1) * sizeof *times);
    if (times == NULL) {
        free(cells);
        free(num);
        o->failed = 1;
        return;
    }
    for (size_t i = 0; i < s->p; i++) {
        times[3 * i] = s->send_start[i];
        times[3 * i + 1] = s->send_end[i];
        times[3 * i + 2] = s->finish[i];
    }
    times[3 * s->p] = T;
    int dt = dls__gantt_column_format(times, 3 * s->p + 1, TABLE_DIGITS);
    free(times);
#define CELL(r, c, fmt, ...)                                                                \
    (snprintf(num + ((r) * COLS + (c)) * W, W, fmt, __VA_ARGS__),                           \
     cells[(r) * COLS + (c)] = num + ((r) * COLS + (c)) * W)
#define NUMBER(r, c, d, v, sign)                                                            \
    (dls__gantt_cell(num + ((r) * COLS + (c)) * W, W, (v), (d), (sign)),                    \
     cells[(r) * COLS + (c)] = num + ((r) * COLS + (c)) * W)
    /* times within the tolerance of 0 are 0, not rounding noise */
#define TIME(t) (fabs(t) <= DLS_REL_TOL * T ? 0.0 : (t))
    for (size_t k = 0; k < s->p; k++) {
        size_t i = s->seq[k];
        cells[k * COLS] = pl->procs[i].name;
        NUMBER(k, 1, dl, s->load[i], 0);
        CELL(k, 2, "%.2f", dls__gantt_share(s->load[i], s->V));
        if (isfinite(s->send_start[i])) {
            NUMBER(k, 3, dt, TIME(s->send_start[i]), 0);
            NUMBER(k, 4, dt, TIME(s->send_end[i]), 0);
            NUMBER(k, 5, dt, TIME(s->finish[i]), 0);
        } else {
            cells[k * COLS + 3] = cells[k * COLS + 4] = "-";
            cells[k * COLS + 5] = "unused";
        }
    }
    cells[s->p * COLS] = "total";
    NUMBER(s->p, 1, dl, s->V, 0);
    CELL(s->p, 2, "%s", "100.00");
    NUMBER(s->p, 5, dt, T, 0);
#undef TIME
#undef CELL
#undef NUMBER
    dls__gantt_table(o, y, heads, COLS, cells, rows);
    free(cells);
    free(num);
}

static void draw(dls__buf *o, const dls_schedule *s, const dls_platform *pl)
{
    double T = s->makespan;
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    double axis_y = dls__gantt_lane_y(s->p + 1) + 4;
    double table_y = axis_y + 52 + DLS__GANTT_TABLE_GAP;
    dls__gantt_begin(o, table_y + dls__gantt_table_height(s->p + 1) + 12, NULL);
    dls__gantt_title_open(o);
    char v[32], t[32], words[160];
    dls__svg_num(v, sizeof v, s->V, TITLE_DIGITS);
    dls__svg_num(t, sizeof t, T, TITLE_DIGITS);
    size_t used = 0;
    for (size_t i = 0; i < s->p; i++)
        used += s->load[i] > 0;
    dls__buf_put(o, "Schedule of %s units on %zu of %zu processor%s: makespan %s s", v, used,
                 s->p, s->p == 1 ? "" : "s", t);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    method_words(s, words, sizeof words);
    /* the lanes' order too when the line has room for it */
    dls__buf_put(o, "%s%s", words, strlen(words) <= SUBTITLE_CHARS ? "; lanes in send order" : "");
    dls__gantt_text_close(o);
    /* grid lines first, under the bars */
    double step = tick_step(T);
    grid(o, T, step, axis_y);
    sends(o, s, pl, T, 0, "originator (sends)");
    for (size_t k = 0; k < s->p; k++)
        lane(o, s, pl, T, s->seq[k], k + 1, "");
    time_axis(o, T, step, axis_y);
    dls__gantt_makespan(o, left + plot_w, axis_y);
    legend(o, s, axis_y + 52);
    table(o, s, pl, table_y);
    dls__buf_put(o, "</svg>\n");
}

static dls_status dls_schedule_gantt_to_string_impl(const dls_schedule *s, const dls_platform *pl,
                                                    char **out, dls_error *err)
{
    if (s == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string", "NULL argument");
    if (s->p != pl->n)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string",
                         "the schedule has %zu processors, " "the platform %zu", s->p, pl->n);
    if (!isfinite(s->makespan) || s->makespan <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string", "nothing to draw (%s)",
                         s->status == DLS_SOLUTION_INFEASIBLE ? "the schedule is infeasible"
                                                              : "the makespan is 0");
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, "dls_schedule_gantt_to_string");
    dls__buf o = DLS__BUF_INIT;
    draw(&o, s, pl);
    dls__c_numeric_leave(&loc);
    char *doc = dls__buf_take(&o);
    if (doc == NULL)
        return dls__oom(err, "dls_schedule_gantt_to_string");
    *out = doc;
    return DLS_OK;
}

dls_status dls_schedule_gantt_to_string(const dls_schedule *s, const dls_platform *pl, char **out,
                                        dls_error *err)
{
    dls_status st = dls_schedule_gantt_to_string_impl(s, pl, out, err);
    return dls__error_retag(err, st, "dls_schedule_gantt_to_string");
}

static dls_status dls_schedule_gantt_write_file_impl(const dls_schedule *s, const dls_platform *pl,
                                                     const char *path, dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_write_file", "NULL path");
    char *doc;
    dls_status st = dls_schedule_gantt_to_string(s, pl, &doc, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, doc, strlen(doc), err);
    free(doc);
    return st;
}

dls_status dls_schedule_gantt_write_file(const dls_schedule *s, const dls_platform *pl,
                                         const char *path, dls_error *err)
{
    dls_status st = dls_schedule_gantt_write_file_impl(s, pl, path, err);
    return dls__error_retag(err, st, "dls_schedule_gantt_write_file");
}

/* ---------------------------------------------------------------------------------- */
/* A prediction beside a measurement                                                  */

/* Opacity of the predicted lanes, so that the measured ones stand out. */
#define PREDICTED_OPACITY 0.45

/* Under the comparison: per processor (in the predicted send order) its load and share,
 * its predicted and measured finish and their difference, then the makespans. */
static void compare_table(dls__buf *o, const dls_schedule *pr, const dls_schedule *me,
                          const dls_platform *pl, double y)
{
    static const char *const heads[] = {"processor", "load (units)", "share (%)",
                                        "predicted finish (s)", "measured finish (s)",
                                        "difference (s)"};
    enum { COLS = sizeof heads / sizeof heads[0], W = 32 };
    size_t rows = pr->p + 1;
    const char **cells = calloc(rows * COLS, sizeof *cells);
    char *num = malloc(rows * COLS * W);
    double *times = malloc((2 * pr->p + 2) * sizeof *times);
    if (cells == NULL || num == NULL || times == NULL) {
        free(cells);
        free(num);
        free(times);
        o->failed = 1;
        return;
    }
    for (size_t i = 0; i < pr->p; i++) {
        times[2 * i] = pr->load[i] > 0 ? pr->finish[i] : NAN;
        times[2 * i + 1] = me->load[i] > 0 ? me->finish[i] : NAN;
    }
    times[2 * pr->p] = pr->makespan;
    times[2 * pr->p + 1] = me->makespan;
    int dl = dls__gantt_column_format(pr->load, pr->p, TABLE_DIGITS);
    int dt = dls__gantt_column_format(times, 2 * pr->p + 2, TABLE_DIGITS);
#define CELL(r, c, fmt, ...)                                                                \
    (snprintf(num + ((r) * COLS + (c)) * W, W, fmt, __VA_ARGS__),                           \
     cells[(r) * COLS + (c)] = num + ((r) * COLS + (c)) * W)
#define NUMBER(r, c, d, v, sign)                                                            \
    (dls__gantt_cell(num + ((r) * COLS + (c)) * W, W, (v), (d), (sign)),                    \
     cells[(r) * COLS + (c)] = num + ((r) * COLS + (c)) * W)
    for (size_t k = 0; k < pr->p; k++) {
        size_t i = pr->seq[k];
        cells[k * COLS] = pl->procs[i].name;
        NUMBER(k, 1, dl, pr->load[i], 0);
        CELL(k, 2, "%.2f", dls__gantt_share(pr->load[i], pr->V));
        if (isfinite(times[2 * i]))
            NUMBER(k, 3, dt, times[2 * i], 0);
        if (isfinite(times[2 * i + 1]))
            NUMBER(k, 4, dt, times[2 * i + 1], 0);
        if (isfinite(times[2 * i]) && isfinite(times[2 * i + 1]))
            NUMBER(k, 5, dt, times[2 * i + 1] - times[2 * i], 1);
    }
    cells[pr->p * COLS] = "makespan";
    NUMBER(pr->p, 1, dl, pr->V, 0);
    CELL(pr->p, 2, "%s", "100.00");
    NUMBER(pr->p, 3, dt, pr->makespan, 0);
    NUMBER(pr->p, 4, dt, me->makespan, 0);
    NUMBER(pr->p, 5, dt, me->makespan - pr->makespan, 1);
#undef CELL
#undef NUMBER
    dls__gantt_table(o, y, heads, COLS, cells, rows);
    free(cells);
    free(num);
    free(times);
}

static void draw_compare(dls__buf *o, const dls_schedule *pr, const dls_schedule *me,
                         const dls_platform *pl)
{
    double T = fmax(pr->makespan, me->makespan);
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    size_t lanes = 2 * (pr->p + 1);
    double axis_y = dls__gantt_lane_y(lanes) + 4;
    dls__gantt_begin(o, axis_y + 52 + DLS__GANTT_TABLE_GAP + dls__gantt_table_height(pr->p + 1) +
                            12, NULL);
    dls__gantt_title_open(o);
    dls__buf_put(o, "Predicted against measured: makespan %.6g s predicted, %.6g s measured "
                    "(%+.1f%%)", pr->makespan, me->makespan,
                 100 * (me->makespan - pr->makespan) / pr->makespan);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    dls__buf_put(o, "each pair of lanes: the prediction (faded) above what was measured, in "
                    "the predicted send order");
    dls__gantt_text_close(o);
    double step = tick_step(T);
    grid(o, T, step, axis_y);
    dls__buf_put(o, "<g opacity=\"%.2f\">\n", PREDICTED_OPACITY);
    sends(o, pr, pl, T, 0, "sends, predicted");
    for (size_t k = 0; k < pr->p; k++)
        lane(o, pr, pl, T, pr->seq[k], 2 * (k + 1), ", predicted");
    dls__gantt_makespan(o, left + plot_w * (pr->makespan / T), axis_y);
    dls__buf_put(o, "</g>\n");
    sends(o, me, pl, T, 1, "sends, measured");
    for (size_t k = 0; k < pr->p; k++)
        lane(o, me, pl, T, pr->seq[k], 2 * (k + 1) + 1, ", measured");
    time_axis(o, T, step, axis_y);
    dls__gantt_makespan(o, left + plot_w * (me->makespan / T), axis_y);
    legend(o, pr, axis_y + 52);
    compare_table(o, pr, me, pl, axis_y + 52 + DLS__GANTT_TABLE_GAP);
    dls__buf_put(o, "</svg>\n");
}

static dls_status compare_to_string(const dls_schedule *pr, const dls_schedule *me,
                                    const dls_platform *pl, char **out, dls_error *err)
{
    if (pr == NULL || me == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, NULL, "NULL argument");
    if (pr->p != pl->n || me->p != pl->n)
        return dls__fail(err, DLS_EINVAL, NULL, "the schedules have %zu and %zu processors, the "
                         "platform %zu", pr->p, me->p, pl->n);
    if (!(isfinite(pr->makespan) && pr->makespan > 0 && isfinite(me->makespan) &&
          me->makespan > 0))
        return dls__fail(err, DLS_EINVAL, NULL, "nothing to draw (makespans %.6g and %.6g)",
                         pr->makespan, me->makespan);
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, NULL);
    dls__buf o = DLS__BUF_INIT;
    draw_compare(&o, pr, me, pl);
    dls__c_numeric_leave(&loc);
    char *doc = dls__buf_take(&o);
    if (doc == NULL)
        return dls__oom(err, NULL);
    *out = doc;
    return DLS_OK;
}

dls_status dls_schedule_gantt_compare_to_string(const dls_schedule *predicted,
                                                const dls_schedule *measured,
                                                const dls_platform *platform, char **svg,
                                                dls_error *err)
{
    dls_status st = compare_to_string(predicted, measured, platform, svg, err);
    return dls__error_retag(err, st, "dls_schedule_gantt_compare_to_string");
}

dls_status dls_schedule_gantt_compare_write_file(const dls_schedule *predicted,
                                                 const dls_schedule *measured,
                                                 const dls_platform *platform, const char *path,
                                                 dls_error *err)
{
    static const char fn[] = "dls_schedule_gantt_compare_write_file";
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL path");
    char *doc;
    dls_status st = compare_to_string(predicted, measured, platform, &doc, err);
    if (st == DLS_OK) {
        st = dls__write_output(path, doc, strlen(doc), err);
        free(doc);
    }
    return dls__error_retag(err, st, fn);
}
