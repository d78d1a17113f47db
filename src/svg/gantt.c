/* The parts every Gantt chart shares: layout, palette, bars, labels and legend. */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "svg/gantt.h"
#include "svg/svg_text.h"

/* Colours of the memory levels (slot 1 = the fastest) and of speed models (slot 0). */
static const char *const slot_colour[DLS__GANTT_SLOTS] = {
    "#4e79a7", "#59a14f", "#f28e2b", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"};

/* Average advance of a 12 px character, for placing legend entries. */
#define LABEL_CHAR_W 7.0

int dls__gantt_slot(int level)
{
    return level <= 0 ? 0 : 1 + (level - 1) % (DLS__GANTT_SLOTS - 1);
}

const char *dls__gantt_slot_colour(int slot)
{
    return slot_colour[slot];
}

const char *dls__gantt_colour(int level)
{
    return slot_colour[dls__gantt_slot(level)];
}

double dls__gantt_lane_y(size_t k)
{
    return DLS__GANTT_TOP + (double)k * (DLS__GANTT_LANE + DLS__GANTT_LANE_GAP);
}

void dls__gantt_begin(dls__buf *o, double height, const char *defs)
{
    dls__buf_put(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                    "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
                 DLS__GANTT_WIDTH, height, DLS__GANTT_WIDTH, height);
    if (defs != NULL)
        dls__buf_put(o, "%s", defs);
    dls__buf_put(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void dls__gantt_title_open(dls__buf *o)
{
    dls__buf_put(o, "<text x=\"%.0f\" y=\"24\" font-size=\"16\" font-weight=\"bold\">",
                 DLS__GANTT_LEFT);
}

void dls__gantt_subtitle_open(dls__buf *o)
{
    dls__buf_put(o, "<text x=\"%.0f\" y=\"42\" fill=\"#555\">", DLS__GANTT_LEFT);
}

void dls__gantt_text_close(dls__buf *o)
{
    dls__buf_put(o, "</text>\n");
}

void dls__gantt_lane_label(dls__buf *o, size_t k, const char *name)
{
    dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", DLS__GANTT_LEFT - 8,
                 dls__gantt_lane_y(k) + DLS__GANTT_LANE * 0.65);
    dls__svg_text(o, name);
    dls__buf_put(o, "</text>\n");
}

void dls__gantt_lane_note(dls__buf *o, size_t k, const char *text)
{
    dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\" fill=\"#888\">", DLS__GANTT_LEFT + 4,
                 dls__gantt_lane_y(k) + DLS__GANTT_LANE * 0.65);
    dls__svg_text(o, text);
    dls__buf_put(o, "</text>\n");
}

void dls__gantt_send(dls__buf *o, size_t k, double x, double w, const char *head,
                     const char *name, const char *tail_fmt, ...)
{
    dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\" "
                    "stroke=\"white\" stroke-width=\"0.5\"><title>",
                 x, dls__gantt_lane_y(k), w, DLS__GANTT_LANE, DLS__GANTT_SEND_COLOUR);
    dls__svg_text(o, head);
    dls__svg_text(o, name);
    dls__buf_put(o, ": ");
    va_list ap;
    va_start(ap, tail_fmt);
    dls__buf_vput(o, tail_fmt, ap);
    va_end(ap);
    dls__buf_put(o, "</title></rect>\n");
}

void dls__gantt_transit(dls__buf *o, size_t k, double x, double w)
{
    double y = dls__gantt_lane_y(k);
    dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\" "
                    "opacity=\"0.6\"/>\n", x, y + DLS__GANTT_LANE * 0.35, w,
                 DLS__GANTT_LANE * 0.3, DLS__GANTT_SEND_COLOUR);
}

void dls__gantt_compute(dls__buf *o, size_t k, double x, double w, int level, int outlined,
                        const char *name, const char *tail_fmt, ...)
{
    double y = dls__gantt_lane_y(k);
    dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"%s>"
                    "<title>", x, y, w, DLS__GANTT_LANE, dls__gantt_colour(level),
                 outlined ? " stroke=\"white\" stroke-width=\"0.5\"" : "");
    dls__svg_text(o, name);
    dls__buf_put(o, ": ");
    va_list ap;
    va_start(ap, tail_fmt);
    dls__buf_vput(o, tail_fmt, ap);
    va_end(ap);
    dls__buf_put(o, "</title></rect>\n");
    if (level > 0 && w > DLS__GANTT_LEVEL_LABEL_MIN)
        dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"white\" font-size=\"10\">L%d</text>\n",
                     x + 4, y + DLS__GANTT_LANE * 0.65, level);
}

void dls__gantt_idle(dls__buf *o, size_t k, double x, double w)
{
    dls__buf_put(o, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" fill=\"%s\"/>\n",
                 x, dls__gantt_lane_y(k), w, DLS__GANTT_LANE, DLS__GANTT_IDLE_COLOUR);
}

void dls__gantt_makespan(dls__buf *o, double x, double axis_y)
{
    dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#c00\" "
                    "stroke-dasharray=\"4 3\"/>\n", x, DLS__GANTT_TOP - 4, x, axis_y);
}

void dls__gantt_key_send(dls__gantt_key *k)
{
    k->fill = DLS__GANTT_SEND_COLOUR;
    snprintf(k->label, sizeof k->label, "send");
}

void dls__gantt_key_level(dls__gantt_key *k, int level)
{
    k->fill = dls__gantt_colour(level);
    snprintf(k->label, sizeof k->label, "level %d%s", level,
             level == 1 ? " (fastest memory)" : "");
}

void dls__gantt_key_speed_model(dls__gantt_key *k)
{
    k->fill = dls__gantt_colour(0);
    snprintf(k->label, sizeof k->label, "speed model");
}

void dls__gantt_key_idle(dls__gantt_key *k)
{
    k->fill = DLS__GANTT_IDLE_COLOUR;
    snprintf(k->label, sizeof k->label, "idle");
}

void dls__gantt_legend(dls__buf *o, double y, const dls__gantt_key *keys, size_t n)
{
    double x = DLS__GANTT_LEFT;
    for (size_t e = 0; e < n; e++) {
        dls__buf_put(o, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"10\" fill=\"%s\" "
                        "stroke=\"#ccc\" stroke-width=\"0.5\"/><text x=\"%.0f\" y=\"%.0f\">",
                     x, y, keys[e].fill, x + 18, y + 9);
        dls__svg_text(o, keys[e].label);
        dls__buf_put(o, "</text>\n");
        x += 18 + LABEL_CHAR_W * (double)strlen(keys[e].label) + 18;
    }
}
