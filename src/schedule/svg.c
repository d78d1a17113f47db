/* Gantt charts of schedules as SVG: the originator's sends on the first lane, then one lane
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
#include "svg/svg_text.h"

/* The shared buffer and XML text of svg_text.c: numbers in the C locale whatever the
 * program's, and names escaped so that any byte string makes valid XML. */
typedef dls__buf svg;
#define put dls__buf_put
#define put_escaped dls__svg_text

/* Colours of the memory levels (1 = fastest), of speed models, of sends and of idle time. */
static const char *const level_colour[] = {"#4e79a7", "#59a14f", "#f28e2b", "#e15759",
                                           "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};
#define SEND_COLOUR "#bab0ac"
#define IDLE_COLOUR "#eeeeee"

static const char *colour_of(int level)
{
    return level <= 0 ? level_colour[0] : level_colour[1 + (level - 1) % 7];
}

dls_status dls_schedule_svg(const dls_schedule *s, const dls_platform *pl, char **out,
                            dls_error *err)
{
    if (s == NULL || pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_svg: NULL argument");
    if (s->p != pl->n)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_svg: the schedule has %zu processors, "
                         "the platform %zu", s->p, pl->n);
    if (!isfinite(s->makespan) || s->makespan <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_svg: nothing to draw (%s)",
                         s->status == DLS_SOLUTION_INFEASIBLE ? "the schedule is infeasible"
                                                              : "the makespan is 0");
    const double left = 170, right = 30, top = 56, lane = 24, gap = 8, width = 1000;
    size_t lanes = s->p + 1;
    double plot_w = width - left - right;
    double axis_y = top + (double)lanes * (lane + gap) + 4;
    int maxlevel = 0, speed_models = 0;
    for (size_t i = 0; i < s->p; i++) {
        if (s->level[i] > maxlevel)
            maxlevel = s->level[i];
        if (s->load[i] > 0 && s->level[i] == 0)
            speed_models = 1;
    }
    double height = axis_y + 80;
    double T = s->makespan;
#define X(t) (left + plot_w * ((t) / T))
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_svg: out of memory");
    svg o = DLS__BUF_INIT;
    put(&o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
        width, height, width, height);
    put(&o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    put(&o, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">Schedule of a load "
            "of %.6g: makespan %.6g s</text>\n", left, s->V, T);
    put(&o, "<text x=\"%.0f\" y=\"42\" fill=\"#555\">%s; sends one at a time on the first lane, "
            "then each processor in send order</text>\n", left,
        s->status == DLS_SOLUTION_OPTIMAL ? "LP optimum" : "evaluated distribution");
    /* grid lines first, under the bars */
    double step = dls__svg_nice_step(T, 8);
    for (double t = 0; t <= T * (1 + 1e-9); t += step)
        put(&o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#ddd\" "
                "stroke-width=\"0.5\"/>\n", X(t), top, X(t), axis_y);
    /* lane 0: the originator's sends */
    double y = top;
    put(&o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">originator (sends)</text>\n",
        left - 8, y + lane * 0.65);
    for (size_t k = 0; k < s->p; k++) {
        size_t i = s->seq[k];
        if (!isfinite(s->send_start[i]))
            continue;
        double x0 = X(s->send_start[i]), x1 = X(s->send_end[i]);
        put(&o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\" "
                "stroke=\"white\" stroke-width=\"0.5\"><title>send to ", x0, y,
            fmax(x1 - x0, 0.5), lane, SEND_COLOUR);
        put_escaped(&o, pl->procs[i].name);
        put(&o, ": %.6g to %.6g s</title></rect>\n", s->send_start[i], s->send_end[i]);
        if (x1 - x0 > 8.0 * (double)strlen(pl->procs[i].name) + 8) {
            put(&o, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"#333\">", x0 + 4,
                y + lane * 0.65);
            put_escaped(&o, pl->procs[i].name);
            put(&o, "</text>\n");
        }
    }
    /* one lane per processor */
    for (size_t k = 0; k < s->p; k++) {
        size_t i = s->seq[k];
        y = top + (double)(k + 1) * (lane + gap);
        put(&o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", left - 8, y + lane * 0.65);
        put_escaped(&o, pl->procs[i].name);
        put(&o, "</text>\n");
        if (!(s->load[i] > 0)) {
            put(&o, "<text x=\"%.0f\" y=\"%.1f\" fill=\"#888\">no load</text>\n", left + 4,
                y + lane * 0.65);
            continue;
        }
        double xs = X(s->send_start[i]), xe = X(s->send_end[i]), xf = X(s->finish[i]);
        put(&o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\" "
                "opacity=\"0.6\"/>\n", xs, y + lane * 0.35, fmax(xe - xs, 0.5), lane * 0.3,
            SEND_COLOUR);
        put(&o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\">"
                "<title>", xe, y, fmax(xf - xe, 0.5), lane, colour_of(s->level[i]));
        put_escaped(&o, pl->procs[i].name);
        put(&o, ": load %.6g, computes %.6g s (%.6g to %.6g)%s</title></rect>\n", s->load[i],
            s->compute[i], s->send_end[i], s->finish[i],
            s->level[i] > 0 ? "" : ", speed model");
        if (s->level[i] > 0 && xf - xe > 24)
            put(&o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"white\" font-size=\"10\">L%d</text>\n",
                xe + 4, y + lane * 0.65, s->level[i]);
        if (X(T) - xf > 0.5)
            put(&o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"/>\n",
                xf, y, X(T) - xf, lane, IDLE_COLOUR);
    }
    /* time axis */
    put(&o, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"black\"/>\n", left,
        axis_y, left + plot_w, axis_y);
    for (double t = 0; t <= T * (1 + 1e-9); t += step) {
        put(&o, "<line x1=\"%.2f\" y1=\"%.1f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"black\"/>\n",
            X(t), axis_y, X(t), axis_y + 5);
        put(&o, "<text x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", X(t),
            axis_y + 18, t);
    }
    put(&o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"middle\">time (s)</text>\n",
        left + plot_w / 2, axis_y + 36);
    put(&o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#c00\" "
            "stroke-dasharray=\"4 3\"/>\n", X(T), top - 4, X(T), axis_y);
    /* legend: entries placed by the length of their labels */
    double lx = left, ly = axis_y + 52;
    char label[48];
    for (int e = -1; e <= maxlevel + 2; e++) {
        const char *fill;
        if (e == -1) {
            fill = SEND_COLOUR;
            snprintf(label, sizeof label, "send");
        } else if (e >= 1 && e <= maxlevel && e <= 7) {
            fill = colour_of(e);
            snprintf(label, sizeof label, "level %d%s", e, e == 1 ? " (fastest memory)" : "");
        } else if (e == maxlevel + 1 && speed_models) {
            fill = colour_of(0);
            snprintf(label, sizeof label, "speed model");
        } else if (e == maxlevel + 2) {
            fill = IDLE_COLOUR;
            snprintf(label, sizeof label, "idle");
        } else {
            continue;
        }
        put(&o, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"10\" fill=\"%s\" "
                "stroke=\"#ccc\" stroke-width=\"0.5\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
            lx, ly, fill, lx + 18, ly + 9, label);
        lx += 18 + 7.0 * (double)strlen(label) + 18;
    }
    put(&o, "</svg>\n");
#undef X
    dls__c_numeric_leave(&loc);
    if (o.failed) {
        free(o.s);
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_svg: out of memory");
    }
    *out = o.s;
    return DLS_OK;
}

dls_status dls_schedule_svg_file(const dls_schedule *s, const dls_platform *pl, const char *path,
                                 dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_svg_file: NULL path");
    char *doc;
    dls_status st = dls_schedule_svg(s, pl, &doc, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_file_atomic(path, doc, strlen(doc), err);
    free(doc);
    return st;
}
