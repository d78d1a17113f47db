/* What every Gantt chart of dlsched shares (the schedule's, in schedule/svg.c, and the
 * multi-installment one, in installment/svg.c): the layout of the lanes, the palette of
 * memory levels, sends and idle time, the bars with their tooltips, the lane labels and
 * the legend. Lane 0 is the originator's (its sends); lane k >= 1 a processor's. The
 * caller converts times to x coordinates and writes inside dls__c_numeric_enter(). */
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
#define DLS__GANTT_MIN_BAR 0.5     /* narrowest bar drawn, so that short events stay visible */
#define DLS__GANTT_LEVEL_LABEL_MIN 24.0 /* a compute bar shows its level ("L1") this wide */

/* The palette: slot 0 for speed models, slots 1..7 for memory levels 1, 2, ... (cycling
 * past 7). */
#define DLS__GANTT_SLOTS 8
#define DLS__GANTT_SEND_COLOUR "#bab0ac"
#define DLS__GANTT_IDLE_COLOUR "#eeeeee"

DLS_HIDDEN int dls__gantt_slot(int level);
DLS_HIDDEN const char *dls__gantt_slot_colour(int slot);
DLS_HIDDEN const char *dls__gantt_colour(int level);

/* Top of lane k. */
DLS_HIDDEN double dls__gantt_lane_y(size_t k);

/* The XML prolog, the <svg> element of the given height, optional <defs> content, the
 * white background, the title in bold (plain text, escaped; NULL: none, the caller writes
 * its own between dls__gantt_title_open and dls__gantt_text_close) and the grey
 * subtitle's opening tag, which the caller fills and closes with dls__gantt_text_close. */
DLS_HIDDEN void dls__gantt_begin(dls__buf *o, double height, const char *defs);
DLS_HIDDEN void dls__gantt_title_open(dls__buf *o);
DLS_HIDDEN void dls__gantt_subtitle_open(dls__buf *o);
DLS_HIDDEN void dls__gantt_text_close(dls__buf *o);

/* The label of lane k (a processor's name, escaped; or the originator's), and a grey
 * note in the lane (e.g. "no load"). */
DLS_HIDDEN void dls__gantt_lane_label(dls__buf *o, size_t k, const char *name);
DLS_HIDDEN void dls__gantt_lane_note(dls__buf *o, size_t k, const char *text);

/* A send on lane k (the originator's: 0, or 1 for a second timeline) over [x, x + w], its
 * tooltip "head NAME: tail" (name escaped). */
DLS_HIDDEN void dls__gantt_send(dls__buf *o, size_t k, double x, double w, const char *head,
                                const char *name, const char *tail_fmt, ...)
    DLS_PRINTF(7, 8);

/* Data in transit to lane k's processor (a thin bar). */
DLS_HIDDEN void dls__gantt_transit(dls__buf *o, size_t k, double x, double w);

/* Computation on lane k, coloured by its memory level (0: a speed model), with a white
 * outline when outlined (bars that touch), its tooltip "NAME: tail", and the level's name
 * inside when wide enough. */
DLS_HIDDEN void dls__gantt_compute(dls__buf *o, size_t k, double x, double w, int level,
                                   int outlined, const char *name, const char *tail_fmt, ...)
    DLS_PRINTF(8, 9);

/* Idle time on lane k. */
DLS_HIDDEN void dls__gantt_idle(dls__buf *o, size_t k, double x, double w);

/* The dashed red line of the makespan at x, from the top of the lanes to the axis. */
DLS_HIDDEN void dls__gantt_makespan(dls__buf *o, double x, double axis_y);

/* The legend at height y: entries left to right, each a swatch and a label, placed by the
 * length of their labels. */
typedef struct dls__gantt_key {
    const char *fill;
    char label[48];
} dls__gantt_key;

DLS_HIDDEN void dls__gantt_key_send(dls__gantt_key *k);
DLS_HIDDEN void dls__gantt_key_level(dls__gantt_key *k, int level);
DLS_HIDDEN void dls__gantt_key_speed_model(dls__gantt_key *k);
DLS_HIDDEN void dls__gantt_key_idle(dls__gantt_key *k);
DLS_HIDDEN void dls__gantt_legend(dls__buf *o, double y, const dls__gantt_key *keys, size_t n);

#endif /* DLSCHED_SVG_GANTT_H */
