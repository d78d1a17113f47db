/* A growing text buffer for SVG documents built in memory, with XML-safe text. Shared by
 * the SVG writers (svg_gantt.c, svg_plot.c, installment_svg.c). */
#ifndef DLSCHED_SVG_TEXT_H
#define DLSCHED_SVG_TEXT_H

#include <locale.h>
#include <stddef.h>

#include "core/internal.h"

typedef struct dls__svg {
    char *s;       /* the document so far, NUL-terminated once something was written */
    size_t len, cap;
    int failed;    /* an allocation failed: everything after it was dropped */
} dls__svg;

/* Appends printf-formatted text. Numbers are written as the thread's locale says: draw
 * between dls__svg_c_locale() and dls__svg_restore_locale(). */
DLS_HIDDEN void dls__svg_put(dls__svg *o, const char *fmt, ...) DLS_PRINTF(2, 3);

/* Appends s as XML character data: markup characters escaped, bytes that are not valid
 * UTF-8 or not allowed in XML (control characters) written as '?'. */
DLS_HIDDEN void dls__svg_text(dls__svg *o, const char *s);

/* Number of characters of s as dls__svg_text() writes them. */
DLS_HIDDEN size_t dls__svg_text_chars(const char *s);

/* The same as dls__svg_text(), at most max characters: a longer text loses its middle to
 * an ellipsis. */
DLS_HIDDEN void dls__svg_text_max(dls__svg *o, const char *s, size_t max);

/* A step of 1, 2 or 5 times a power of ten giving about `want` ticks over span > 0. */
DLS_HIDDEN double dls__svg_nice_step(double span, double want);

/* The calling thread's locale while a document is written in the C numeric locale. */
typedef struct dls__svg_locale {
    locale_t c_numeric, caller;
} dls__svg_locale;

/* Switches the calling thread to the C numeric locale (numbers with a '.' whatever locale
 * the program chose). Returns 0, or -1 when out of memory (nothing changed). */
DLS_HIDDEN int dls__svg_c_locale(dls__svg_locale *h);

/* Gives the thread its locale back. */
DLS_HIDDEN void dls__svg_restore_locale(dls__svg_locale *h);

#endif /* DLSCHED_SVG_TEXT_H */
