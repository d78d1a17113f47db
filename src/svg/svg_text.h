/* XML-safe text and tick steps for the SVG writers (the Gantt charts of schedule/ and
 * installment/, the plots of plot.c). Documents are built in a dls__buf between
 * dls__c_numeric_enter() and dls__c_numeric_leave(), so that numbers read the same in
 * every locale. */
#ifndef DLSCHED_SVG_TEXT_H
#define DLSCHED_SVG_TEXT_H

#include <stddef.h>

#include "core/buf.h"
#include "core/locale.h"

/* Appends s as XML character data: markup characters escaped, bytes that are not valid
 * UTF-8 or not allowed in XML (control characters) written as '?'. */
DLS_HIDDEN void dls__svg_text(dls__buf *o, const char *s);

/* Number of characters of s as dls__svg_text() writes them. */
DLS_HIDDEN size_t dls__svg_text_chars(const char *s);

/* The same as dls__svg_text(), at most max characters: a longer text loses its middle to
 * an ellipsis. */
DLS_HIDDEN void dls__svg_text_max(dls__buf *o, const char *s, size_t max);

/* A step of 1, 2 or 5 times a power of ten giving about `want` ticks over span > 0. */
DLS_HIDDEN double dls__svg_nice_step(double span, double want);

#endif /* DLSCHED_SVG_TEXT_H */
