/* The parts every Gantt chart shares: layout, palette, bars, labels, legend and table. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "svg/gantt.h"
#include "svg/svg_text.h"

/* Colours of the memory levels (slot 1 = the fastest) and of speed models (slot 0): Okabe
 * and Ito's palette, told apart with the common forms of colour blindness, then a purple. */
static const char *const slot_colour[DLS__GANTT_SLOTS] = {
    "#0072B2", "#009E73", "#E69F00", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#7F3C8D"};

/* Average advance of a 12 px character, for placing legend entries and table columns. */
#define LABEL_CHAR_W 7.0
/* Colours lighter than this luma (0..255) take black text, darker ones white. */
#define INK_LUMA 140.0
/* Left edge of the table under the chart, and the gap between its columns. */
#define TABLE_LEFT 24.0
#define TABLE_COL_GAP 22.0
/* Room kept free left of the lane labels. */
#define LANE_LABEL_MARGIN 8.0

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
    /* communication: dark stripes on white, which no solid colour of computation and no
     * idle time looks like, in colour or in grey */
    dls__buf_put(o, "<defs><pattern id=\"" DLS__GANTT_COMM_ID "\" width=\"5\" height=\"5\" "
                    "patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
                    "<rect width=\"5\" height=\"5\" fill=\"white\"/><line x1=\"0\" y1=\"0\" "
                    "x2=\"0\" y2=\"5\" stroke=\"" DLS__GANTT_COMM_STRIPE "\" stroke-width=\"3\"/>"
                    "</pattern>%s</defs>\n", defs != NULL ? defs : "");
    dls__buf_put(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
}

void dls__gantt_title_open(dls__buf *o)
{
    dls__buf_put(o, "<text class=\"title\" x=\"%.0f\" y=\"24\" font-size=\"16\" "
                    "font-weight=\"bold\">",
                 DLS__GANTT_LEFT);
}

void dls__gantt_subtitle_open(dls__buf *o)
{
    dls__buf_put(o, "<text class=\"subtitle\" x=\"%.0f\" y=\"42\" fill=\"#555\">", DLS__GANTT_LEFT);
}

void dls__gantt_text_close(dls__buf *o)
{
    dls__buf_put(o, "</text>\n");
}

void dls__gantt_lane_label(dls__buf *o, size_t k, const char *name)
{
    /* cut to the room left of the lanes (the table under the chart has more of it) */
    size_t room = (size_t)((DLS__GANTT_LEFT - 8 - LANE_LABEL_MARGIN) / LABEL_CHAR_W);
    dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">", DLS__GANTT_LEFT - 8,
                 dls__gantt_lane_y(k) + DLS__GANTT_LANE * 0.65);
    dls__svg_text_max(o, name, room);
    if (dls__svg_text_chars(name) > room) {
        dls__buf_put(o, "<title>");
        dls__svg_text(o, name);
        dls__buf_put(o, "</title>");
    }
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
    dls__buf_put(o, "<rect class=\"send\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                    "fill=\"%s\" stroke=\"%s\" stroke-width=\"0.75\"><title>",
                 x, dls__gantt_lane_y(k), w, DLS__GANTT_LANE, DLS__GANTT_COMM_FILL,
                 DLS__GANTT_COMM_STRIPE);
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
    dls__buf_put(o, "<rect class=\"receive\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
                    "fill=\"%s\" stroke=\"%s\" stroke-width=\"0.75\"/>\n", x,
                 y + DLS__GANTT_LANE * 0.3, w, DLS__GANTT_LANE * 0.4, DLS__GANTT_COMM_FILL,
                 DLS__GANTT_COMM_STRIPE);
}

void dls__gantt_compute(dls__buf *o, size_t k, double x, double w, int level, int outlined,
                        int show_level, const char *name, const char *tail_fmt, ...)
{
    double y = dls__gantt_lane_y(k);
    dls__buf_put(o, "<rect class=\"compute\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                    "fill=\"%s\"%s><title>", x, y, w, DLS__GANTT_LANE, dls__gantt_colour(level),
                 outlined ? " stroke=\"white\" stroke-width=\"0.5\"" : "");
    dls__svg_text(o, name);
    dls__buf_put(o, ": ");
    va_list ap;
    va_start(ap, tail_fmt);
    dls__buf_vput(o, tail_fmt, ap);
    va_end(ap);
    dls__buf_put(o, "</title></rect>\n");
    if (show_level && level > 0 && w > DLS__GANTT_LEVEL_LABEL_MIN)
        dls__buf_put(o, "<text x=\"%.1f\" y=\"%.1f\" fill=\"%s\" font-size=\"10\">L%d</text>\n",
                     x + 4, y + DLS__GANTT_LANE * 0.65, dls__gantt_ink(dls__gantt_colour(level)),
                     level);
}

void dls__gantt_idle(dls__buf *o, size_t k, double x, double w)
{
    dls__buf_put(o, "<rect class=\"idle\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.0f\" "
                    "fill=\"%s\" stroke=\"%s\" stroke-width=\"0.5\"/>\n", x,
                 dls__gantt_lane_y(k), w, DLS__GANTT_LANE, DLS__GANTT_IDLE_COLOUR,
                 DLS__GANTT_IDLE_EDGE);
}

const char *dls__gantt_ink(const char *fill)
{
    unsigned rgb;
    if (fill == NULL || fill[0] != '#' || strlen(fill) != 7 || sscanf(fill + 1, "%x", &rgb) != 1)
        return "black";
    double luma = 0.299 * (rgb >> 16 & 0xff) + 0.587 * (rgb >> 8 & 0xff) + 0.114 * (rgb & 0xff);
    return luma > INK_LUMA ? "black" : "white";
}

void dls__gantt_bar_label(dls__buf *o, size_t k, double bar0, double bar1, double clear_to,
                          double free1, const char *fill, const char *cls, const char *text)
{
    const double pad = 4, lo = DLS__GANTT_LEFT, hi = DLS__GANTT_WIDTH - 2;
    double w = DLS__GANTT_LABEL_CHAR_W * (double)dls__svg_text_chars(text) + 2 * pad;
    double after = fmin(free1, hi) - bar1, y = dls__gantt_lane_y(k);
    double x;
    int end = 0, boxed = 0;
    const char *ink = "black";
    if (bar1 - bar0 >= w) { /* inside the bar, in the ink of its colour */
        x = bar0 + pad;
        ink = dls__gantt_ink(fill);
    } else if (after >= w) {
        x = bar1 + pad;
    } else if (clear_to - lo >= w) { /* in the empty space before the lane's first bar */
        x = clear_to - pad;
        end = 1;
    } else { /* over other bars: on a white box, where there is the most room */
        boxed = 1;
        end = bar0 - lo > after;
        x = end ? bar0 - pad : bar1 + pad;
    }
    /* never past the canvas, whatever the room */
    if (!end && x + w - pad > hi)
        x = hi - w + pad;
    if (end && x - w + pad < 2)
        x = w - pad + 2;
    if (boxed)
        dls__buf_put(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" rx=\"3\" "
                        "fill=\"white\" fill-opacity=\"0.9\" stroke=\"#999\" "
                        "stroke-width=\"0.5\"/>\n", end ? x - w + pad : x - pad,
                     y + DLS__GANTT_LANE * 0.15, w, DLS__GANTT_LANE * 0.7);
    dls__buf_put(o, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" font-size=\"%.0f\" "
                    "text-anchor=\"%s\" fill=\"%s\">", cls, x, y + DLS__GANTT_LANE * 0.65,
                 DLS__GANTT_LABEL_FONT, end ? "end" : "start", ink);
    dls__svg_text(o, text);
    dls__buf_put(o, "</text>\n");
}

void dls__gantt_makespan(dls__buf *o, double x, double axis_y)
{
    dls__buf_put(o, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.1f\" stroke=\"#c00\" "
                    "stroke-dasharray=\"4 3\"/>\n", x, DLS__GANTT_TOP - 4, x, axis_y);
}

void dls__gantt_key_send(dls__gantt_key *k)
{
    k->fill = DLS__GANTT_COMM_FILL;
    k->line = 0;
    snprintf(k->label, sizeof k->label, "send / receive data");
}

void dls__gantt_key_makespan(dls__gantt_key *k)
{
    k->fill = NULL;
    k->line = 1;
    snprintf(k->label, sizeof k->label, "makespan");
}

void dls__gantt_key_level(dls__gantt_key *k, int level)
{
    k->fill = dls__gantt_colour(level);
    k->line = 0;
    snprintf(k->label, sizeof k->label, "level %d%s", level,
             level == 1 ? " (fastest memory)" : "");
}

void dls__gantt_key_speed_model(dls__gantt_key *k)
{
    k->fill = dls__gantt_colour(0);
    k->line = 0;
    snprintf(k->label, sizeof k->label, "speed model");
}

void dls__gantt_key_idle(dls__gantt_key *k)
{
    k->fill = DLS__GANTT_IDLE_COLOUR;
    k->line = 0;
    snprintf(k->label, sizeof k->label, "idle");
}

void dls__gantt_legend(dls__buf *o, double y, const dls__gantt_key *keys, size_t n)
{
    double x = DLS__GANTT_LEFT;
    for (size_t e = 0; e < n; e++) {
        if (keys[e].line)
            dls__buf_put(o, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#c00\" "
                            "stroke-dasharray=\"4 3\"/><text x=\"%.0f\" y=\"%.0f\">", x + 7, y - 2,
                         x + 7, y + 12, x + 18, y + 9);
        else
            dls__buf_put(o, "<rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"10\" fill=\"%s\" "
                            "stroke=\"#888\" stroke-width=\"0.5\"/><text x=\"%.0f\" y=\"%.0f\">",
                         x, y, keys[e].fill, x + 18, y + 9);
        dls__svg_text(o, keys[e].label);
        dls__buf_put(o, "</text>\n");
        x += 18 + LABEL_CHAR_W * (double)strlen(keys[e].label) + 18;
    }
}

double dls__gantt_table_height(size_t rows)
{
    return DLS__GANTT_ROW * (double)(rows + 1) + 6;
}

double dls__gantt_table(dls__buf *o, double y, const char *const *heads, size_t ncols,
                        const char *const *cells, size_t rows)
{
    /* columns as wide as their widest cell (the first one cut), one gap apart */
    double x = TABLE_LEFT, right[16];
    size_t nc = ncols < 16 ? ncols : 16;
    for (size_t c = 0; c < nc; c++) {
        size_t chars = dls__svg_text_chars(heads[c]);
        for (size_t r = 0; r < rows; r++) {
            const char *v = cells[r * ncols + c];
            size_t n = v != NULL ? dls__svg_text_chars(v) : 1;
            if (c == 0 && n > DLS__GANTT_NAME_CHARS)
                n = DLS__GANTT_NAME_CHARS;
            chars = n > chars ? n : chars;
        }
        x += LABEL_CHAR_W * (double)chars;
        right[c] = x;
        x += TABLE_COL_GAP;
    }
    double width = x - TABLE_COL_GAP - TABLE_LEFT + 12;
    for (size_t r = 0; r < rows; r += 2) /* shading under every other row */
        dls__buf_put(o, "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.0f\" "
                        "fill=\"#f2f2f2\"/>\n", TABLE_LEFT - 6,
                     y + DLS__GANTT_ROW * (double)(r + 1) + 4, width, DLS__GANTT_ROW);
    dls__buf_put(o, "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#888\" "
                    "stroke-width=\"0.75\"/>\n", TABLE_LEFT - 6, y + DLS__GANTT_ROW + 4,
                 TABLE_LEFT - 6 + width, y + DLS__GANTT_ROW + 4);
    dls__buf_put(o, "<g class=\"table\">\n");
    for (size_t r = 0; r <= rows; r++) {
        double base = y + DLS__GANTT_ROW * (double)r + 12;
        for (size_t c = 0; c < nc; c++) {
            const char *v = r == 0 ? heads[c] : cells[(r - 1) * ncols + c];
            dls__buf_put(o, "<text x=\"%.0f\" y=\"%.1f\"%s%s>",
                         c == 0 ? TABLE_LEFT : right[c], base,
                         c == 0 ? "" : " text-anchor=\"end\"",
                         r == 0 ? " font-weight=\"bold\"" : "");
            if (c == 0 && r > 0)
                dls__svg_text_max(o, v != NULL ? v : "-", DLS__GANTT_NAME_CHARS);
            else
                dls__svg_text(o, v != NULL ? v : "-");
            dls__buf_put(o, "</text>");
        }
        dls__buf_put(o, "\n");
    }
    dls__buf_put(o, "</g>\n");
    return dls__gantt_table_height(rows);
}

int dls__gantt_column_format(const double *v, size_t n, int sig)
{
    double largest = 0;
    for (size_t k = 0; k < n; k++)
        if (isfinite(v[k]))
            largest = fmax(largest, fabs(v[k]));
    if (largest >= DLS__SVG_PLAIN_MAX || (largest > 0 && largest < DLS__SVG_PLAIN_MIN))
        return -1; /* 1e+20 in 21 digits, or 1e-60 as 0.000000000, would say nothing */
    int d = dls__svg_column_decimals(largest, sig);
    /* zeros that every number of the column ends with say nothing: 0.327, not 0.327000 */
    for (; d > 0; d--) {
        for (size_t k = 0; k < n; k++) {
            char b[64];
            if (!isfinite(v[k]))
                continue;
            snprintf(b, sizeof b, "%.*f", d, v[k]);
            if (b[strlen(b) - 1] != '0')
                return d;
        }
    }
    return d;
}

void dls__gantt_cell(char *buf, size_t size, double v, int decimals, int sign)
{
    if (decimals < 0 || !isfinite(v)) {
        dls__svg_num(buf, size, v, DLS__GANTT_CELL_DIGITS);
        if (sign && v > 0 && strlen(buf) + 1 < size) {
            memmove(buf + 1, buf, strlen(buf) + 1);
            buf[0] = '+';
        }
        return;
    }
    snprintf(buf, size, sign ? "%+.*f" : "%.*f", decimals, v);
}

double dls__gantt_share(double load, double total)
{
    return total > 0 && isfinite(total) ? 100 * load / total : 0;
}
