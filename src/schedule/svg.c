/* The Gantt chart of a schedule as SVG (the parts shared with the multi-installment chart
 * are in svg/gantt.c): the originator's sends on the first lane, then one lane
 * per processor in send order: its data arriving, its computation coloured by the memory
 * level that binds, and its idle time up to the makespan; a time axis in seconds. */
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

/* Wanted number of time ticks. */
#define TICKS 8
/* A send bar shows its processor's name when it has this many pixels per character. */
#define NAME_CHAR_W 8.0

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

/* send, the levels that appear (up to the palette's), speed model, idle */
static void legend(dls__buf *o, const dls_schedule *s, double y)
{
    int maxlevel = 0, speed_models = 0;
    for (size_t i = 0; i < s->p; i++) {
        if (s->level[i] > maxlevel)
            maxlevel = s->level[i];
        if (s->load[i] > 0 && s->level[i] == 0)
            speed_models = 1;
    }
    dls__gantt_key keys[DLS__GANTT_SLOTS + 2];
    size_t n = 0;
    dls__gantt_key_send(&keys[n++]);
    for (int e = 1; e <= maxlevel && e < DLS__GANTT_SLOTS; e++)
        dls__gantt_key_level(&keys[n++], e);
    if (speed_models)
        dls__gantt_key_speed_model(&keys[n++]);
    dls__gantt_key_idle(&keys[n++]);
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
        if (x1 - x0 > NAME_CHAR_W * (double)strlen(name) + 8) {
            dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#333\">",
                         x0 + 4, dls__gantt_lane_y(at) + DLS__GANTT_LANE * 0.65);
            dls__svg_text(o, name);
            dls__buf_put(o, "</text>\n");
        }
    }
}

/* Lane `at`: processor i's data arriving, computing and idle; its label is its name
 * followed by `suffix`. */
static void lane(dls__buf *o, const dls_schedule *s, const dls_platform *pl, double T, size_t i,
                 size_t at, const char *suffix)
{
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
#define X(t) (left + plot_w * ((t) / T))
    char label[DLS_PLATFORM_NAME_MAX + 32];
    snprintf(label, sizeof label, "%s%s", pl->procs[i].name, suffix);
    dls__gantt_lane_label(o, at, label);
    if (!(s->load[i] > 0)) {
        dls__gantt_lane_note(o, at, "no load");
        return;
    }
    double xs = X(s->send_start[i]), xe = X(s->send_end[i]), xf = X(s->finish[i]);
    dls__gantt_transit(o, at, xs, fmax(xe - xs, DLS__GANTT_MIN_BAR));
    dls__gantt_compute(o, at, xe, fmax(xf - xe, DLS__GANTT_MIN_BAR), s->level[i], 0,
                       pl->procs[i].name, "load %.6g, computes %.6g s (%.6g to %.6g)%s",
                       s->load[i], s->compute[i], s->send_end[i], s->finish[i],
                       s->level[i] > 0 ? "" : ", speed model");
    if (X(T) - xf > DLS__GANTT_MIN_BAR)
        dls__gantt_idle(o, at, xf, X(T) - xf);
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

static void draw(dls__buf *o, const dls_schedule *s, const dls_platform *pl)
{
    double T = s->makespan;
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    double axis_y = dls__gantt_lane_y(s->p + 1) + 4;
    dls__gantt_begin(o, axis_y + 80, NULL);
    dls__gantt_title_open(o);
    dls__buf_put(o, "Schedule of a load of %.6g: makespan %.6g s", s->V, T);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    dls__buf_put(o, "%s; sends one at a time on the first lane, then each processor in send "
                    "order", s->status == DLS_SOLUTION_OPTIMAL ? "LP optimum"
                                                               : "evaluated distribution");
    dls__gantt_text_close(o);
    /* grid lines first, under the bars */
    double step = dls__svg_nice_step(T, TICKS);
    grid(o, T, step, axis_y);
    sends(o, s, pl, T, 0, "originator (sends)");
    for (size_t k = 0; k < s->p; k++)
        lane(o, s, pl, T, s->seq[k], k + 1, "");
    time_axis(o, T, step, axis_y);
    dls__gantt_makespan(o, left + plot_w, axis_y);
    legend(o, s, axis_y + 52);
    dls__buf_put(o, "</svg>\n");
}

static dls_status dls_schedule_gantt_to_string_impl(const dls_schedule *s, const dls_platform *pl,
                                                    char **out, dls_error *err)
{
    if (s == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string: NULL argument");
    if (s->p != pl->n)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string: the schedule has %zu processors, "
                         "the platform %zu", s->p, pl->n);
    if (!isfinite(s->makespan) || s->makespan <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_to_string: nothing to draw (%s)",
                         s->status == DLS_SOLUTION_INFEASIBLE ? "the schedule is infeasible"
                                                              : "the makespan is 0");
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_gantt_to_string: out of memory");
    dls__buf o = DLS__BUF_INIT;
    draw(&o, s, pl);
    dls__c_numeric_leave(&loc);
    char *doc = dls__buf_take(&o);
    if (doc == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_gantt_to_string: out of memory");
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
        return dls__fail(err, DLS_EINVAL, "dls_schedule_gantt_write_file: NULL path");
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

static void draw_compare(dls__buf *o, const dls_schedule *pr, const dls_schedule *me,
                         const dls_platform *pl)
{
    double T = fmax(pr->makespan, me->makespan);
    double left = DLS__GANTT_LEFT, plot_w = DLS__GANTT_WIDTH - left - DLS__GANTT_RIGHT;
    size_t lanes = 2 * (pr->p + 1);
    double axis_y = dls__gantt_lane_y(lanes) + 4;
    dls__gantt_begin(o, axis_y + 80, NULL);
    dls__gantt_title_open(o);
    dls__buf_put(o, "Predicted against measured: makespan %.6g s predicted, %.6g s measured "
                    "(%+.1f%%)", pr->makespan, me->makespan,
                 100 * (me->makespan - pr->makespan) / pr->makespan);
    dls__gantt_text_close(o);
    dls__gantt_subtitle_open(o);
    dls__buf_put(o, "each pair of lanes: the prediction (faded) above what was measured, in "
                    "the predicted send order");
    dls__gantt_text_close(o);
    double step = dls__svg_nice_step(T, TICKS);
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
    dls__buf_put(o, "</svg>\n");
}

static dls_status compare_to_string(const dls_schedule *pr, const dls_schedule *me,
                                    const dls_platform *pl, char **out, dls_error *err)
{
    if (pr == NULL || me == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "NULL argument");
    if (pr->p != pl->n || me->p != pl->n)
        return dls__fail(err, DLS_EINVAL, "the schedules have %zu and %zu processors, the "
                         "platform %zu", pr->p, me->p, pl->n);
    if (!(isfinite(pr->makespan) && pr->makespan > 0 && isfinite(me->makespan) &&
          me->makespan > 0))
        return dls__fail(err, DLS_EINVAL, "nothing to draw (makespans %.6g and %.6g)",
                         pr->makespan, me->makespan);
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__fail(err, DLS_ENOMEM, "out of memory");
    dls__buf o = DLS__BUF_INIT;
    draw_compare(&o, pr, me, pl);
    dls__c_numeric_leave(&loc);
    char *doc = dls__buf_take(&o);
    if (doc == NULL)
        return dls__fail(err, DLS_ENOMEM, "out of memory");
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
        return dls__fail(err, DLS_EINVAL, "%s: NULL path", fn);
    char *doc;
    dls_status st = compare_to_string(predicted, measured, platform, &doc, err);
    if (st == DLS_OK) {
        st = dls__write_output(path, doc, strlen(doc), err);
        free(doc);
    }
    return dls__error_retag(err, st, fn);
}
