/* What every Gantt chart of dlsched shares (the schedule's, in schedule/svg.c, and the
 * multi-installment one, in installment/svg.c): the layout of the lanes, the palette of
 * memory levels, communication and idle time, the bars with their tooltips, the labels
 * written on the bars, the lane labels, the legend and the table under the chart. Lane 0
 * is the originator's (its sends); lane k >= 1 a processor's. The caller converts times
 * to x coordinates and writes inside dls__c_numeric_enter().
 *
 * The chart is read printed or as a PNG, without hovering: every figure that matters is
 * written on it (the tooltips only repeat them), and the three kinds of time differ by
 * more than hue: communication is hatched, computation solid (colour-blind safe colours
 * of Okabe and Ito), idle time near-white with an outline, so that a grey-scale print
 * keeps them apart. */
#ifndef DLSCHED_SVG_GANTT_H
#define DLSCHED_SVG_GANTT_H

#include <stddef.h>

#include "core/buf.h"

/* Layout, in pixels. */
#define DLS__GANTT_WIDTH 1000.0
#define DLS__GANTT_LEFT 170.0      /* lane labels end here, the time axis starts here */
#define DLS__GANTT_RIGHT 30.0
#define DLS__GANTT_TOP 56.0        /* the title and subtitle are above */
#define DLS__GANTT_LANE 24.0
#define DLS__GANTT_LANE_GAP 8.0
#define DLS__GANTT_MIN_BAR 2.0     /* narrowest bar drawn, so that short events stay visible
                                    * (a 0.009 s send in a 50 s chart); the table under the
                                    * chart keeps the true times */
#define DLS__GANTT_LEVEL_LABEL_MIN 24.0 /* a compute bar shows its level ("L1") this wide */

/* The palette: slot 0 for speed models, slots 1..7 for memory levels 1, 2, ... (cycling
 * past 7). */
#define DLS__GANTT_SLOTS 8
/* Communication: dark stripes on white, the pattern that dls__gantt_begin() defines. */
#define DLS__GANTT_COMM_ID "dls-comm"
#define DLS__GANTT_COMM_FILL "url(#" DLS__GANTT_COMM_ID ")"
#define DLS__GANTT_COMM_STRIPE "#444444"
#define DLS__GANTT_IDLE_COLOUR "#f4f4f4"
#define DLS__GANTT_IDLE_EDGE "#bbbbbb"
/* Text on the chart: the label font, and the average advance of one of its characters
 * (for fitting labels into bars). */
#define DLS__GANTT_LABEL_FONT 11.0
#define DLS__GANTT_LABEL_CHAR_W 6.4
/* The table under the chart: row height, and the gap above it. */
#define DLS__GANTT_ROW 16.0
#define DLS__GANTT_TABLE_GAP 28.0

DLS__HIDDEN int dls__gantt_slot(int level);
DLS__HIDDEN const char *dls__gantt_slot_colour(int slot);
DLS__HIDDEN const char *dls__gantt_colour(int level);

/* Top of lane k. */
DLS__HIDDEN double dls__gantt_lane_y(size_t k);

/* The XML prolog, the <svg> element of the given height, the communication pattern and
 * optional <defs> content (elements only), and the white background. The title (bold)
 * and the grey subtitle: the caller opens them, writes their text (escaped) and closes
 * them with dls__gantt_text_close. */
DLS__HIDDEN void dls__gantt_begin(dls__buf *o, double height, const char *defs);
DLS__HIDDEN void dls__gantt_title_open(dls__buf *o);
DLS__HIDDEN void dls__gantt_subtitle_open(dls__buf *o);
DLS__HIDDEN void dls__gantt_text_close(dls__buf *o);

/* The label of lane k (a processor's name, escaped; or the originator's), and a grey
 * note in the lane (e.g. "no load"). */
DLS__HIDDEN void dls__gantt_lane_label(dls__buf *o, size_t k, const char *name);
DLS__HIDDEN void dls__gantt_lane_note(dls__buf *o, size_t k, const char *text);

/* A send on lane k (the originator's: 0, or 1 for a second timeline) over [x, x + w], its
 * tooltip "head NAME: tail" (name escaped). */
DLS__HIDDEN void dls__gantt_send(dls__buf *o, size_t k, double x, double w, const char *head,
                                const char *name, const char *tail_fmt, ...)
    DLS__PRINTF(7, 8);

/* Data in transit to lane k's processor (a thin bar). */
DLS__HIDDEN void dls__gantt_transit(dls__buf *o, size_t k, double x, double w);

/* Computation on lane k, coloured by its memory level (0: a speed model), with a white
 * outline when outlined (bars that touch), its tooltip "NAME: tail", and with show_level
 * the level's name inside when wide enough, in black or white, whichever reads on the
 * colour. */
DLS__HIDDEN void dls__gantt_compute(dls__buf *o, size_t k, double x, double w, int level,
                                   int outlined, int show_level, const char *name,
                                   const char *tail_fmt, ...) DLS__PRINTF(9, 10);

/* Idle time on lane k. */
DLS__HIDDEN void dls__gantt_idle(dls__buf *o, size_t k, double x, double w);

/* A label written on lane k, not only in a tooltip: inside the bar [bar0, bar1] when it
 * fits there, else after it (up to free1, where the lane's drawing ends), else in the
 * empty space [DLS__GANTT_LEFT, clear_to] before the lane's first bar (ending at
 * clear_to), else on a white box over the other bars where there is the most room; never
 * outside the canvas. fill is the bar's colour (the text is black or white to read on
 * it). cls names the text's class (e.g. "load-label"); text is escaped. */
DLS__HIDDEN void dls__gantt_bar_label(dls__buf *o, size_t k, double bar0, double bar1,
                                     double clear_to, double free1, const char *fill,
                                     const char *cls, const char *text);

/* Black or white, whichever reads better on the colour "#rrggbb" (black for other fills). */
DLS__HIDDEN const char *dls__gantt_ink(const char *fill);

/* The dashed red line of the makespan at x, from the top of the lanes to the axis. */
DLS__HIDDEN void dls__gantt_makespan(dls__buf *o, double x, double axis_y);

/* The legend at height y: entries left to right, each a swatch and a label, placed by the
 * length of their labels. */
typedef struct dls__gantt_key {
    const char *fill;
    char label[48];
    int line; /* 1: a dashed red line (the makespan), not a swatch */
} dls__gantt_key;

DLS__HIDDEN void dls__gantt_key_send(dls__gantt_key *k);
DLS__HIDDEN void dls__gantt_key_makespan(dls__gantt_key *k);
DLS__HIDDEN void dls__gantt_key_level(dls__gantt_key *k, int level);
DLS__HIDDEN void dls__gantt_key_speed_model(dls__gantt_key *k);
DLS__HIDDEN void dls__gantt_key_idle(dls__gantt_key *k);
DLS__HIDDEN void dls__gantt_legend(dls__buf *o, double y, const dls__gantt_key *keys, size_t n);

/* The table under the chart at height y: a header row (bold) and rows of cells (row-major,
 * rows x ncols; NULL cells are written "-"). Column 0 is left-aligned text cut to
 * DLS__GANTT_NAME_CHARS characters; the others are right-aligned numbers. Columns are as
 * wide as their widest cell; every other row is shaded, so that the eye follows a row.
 * Returns the height the table takes. */
#define DLS__GANTT_NAME_CHARS 28
DLS__HIDDEN double dls__gantt_table(dls__buf *o, double y, const char *const *heads,
                                   size_t ncols, const char *const *cells, size_t rows);

/* The decimals of a column of n numbers: those giving its largest sig significant digits
 * (dls__svg_column_decimals), less the zeros every number would end with; -1 (each
 * number with an exponent, DLS__GANTT_CELL_DIGITS digits) when the largest is beyond
 * what reads plainly (DLS__SVG_PLAIN_MIN, DLS__SVG_PLAIN_MAX). Numbers that are not
 * finite are left out. */
DLS__HIDDEN int dls__gantt_column_format(const double *v, size_t n, int sig);

/* A table cell: v with the column's decimals (from dls__gantt_column_format), with its
 * sign when sign is set. */
#define DLS__GANTT_CELL_DIGITS 6
DLS__HIDDEN void dls__gantt_cell(char *buf, size_t size, double v, int decimals, int sign);

/* load as a percentage of total (0 when the total is 0). */
DLS__HIDDEN double dls__gantt_share(double load, double total);

/* Height of that table with rows rows (and its header). */
DLS__HIDDEN double dls__gantt_table_height(size_t rows);

#endif /* DLSCHED_SVG_GANTT_H */
