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
DLS__HIDDEN void dls__svg_text(dls__buf *o, const char *s);

/* Number of characters of s as dls__svg_text() writes them. */
DLS__HIDDEN size_t dls__svg_text_chars(const char *s);

/* The same as dls__svg_text(), at most max characters: a longer text loses its middle to
 * an ellipsis. */
DLS__HIDDEN void dls__svg_text_max(dls__buf *o, const char *s, size_t max);

/* Numbers written plainly (1000000, 0.009) in [DLS__SVG_PLAIN_MIN, DLS__SVG_PLAIN_MAX), with
 * an exponent outside: a person reads "1000000 units" at a glance, not "1e+06". */
#define DLS__SVG_PLAIN_MIN 1e-4
#define DLS__SVG_PLAIN_MAX 1e15

/* v rounded to sig significant digits (1 to 17), trailing zeros of the fraction dropped:
 * 228644, 0.009, 22.9, 1.5e+20. Writes into buf (32 bytes are always enough). */
DLS__HIDDEN void dls__svg_num(char *buf, size_t size, double v, int sig);

/* Decimals that give the largest magnitude of a column sig significant digits (0 to 9), so
 * that every number of the column has the same decimals and their points line up. */
DLS__HIDDEN int dls__svg_column_decimals(double largest, int sig);

/* A step of 1, 2 or 5 times a power of ten giving about `want` ticks over span > 0. */
DLS__HIDDEN double dls__svg_nice_step(double span, double want);

#endif /* DLSCHED_SVG_TEXT_H */
