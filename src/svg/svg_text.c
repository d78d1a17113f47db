/* XML-safe text and tick steps for the SVG writers. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg/svg_text.h"

/* Length of the valid UTF-8 character XML accepts at s, 0 when the bytes are not one
 * (malformed UTF-8, control characters, U+FFFE and U+FFFF). */
static size_t xml_char_len(const unsigned char *s)
{
    unsigned c = s[0];
    if (c < 0x80)
        return c >= 0x20 && c != 0x7f ? 1 : 0;
#define CONT(k) (s[k] >= 0x80 && s[k] <= 0xbf)
    if (c >= 0xc2 && c <= 0xdf)
        return CONT(1) ? 2 : 0;
    if (c >= 0xe0 && c <= 0xef) {
        if (!CONT(1) || !CONT(2) || (c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f))
            return 0;
        if (c == 0xef && s[1] == 0xbf && (s[2] == 0xbe || s[2] == 0xbf))
            return 0;
        return 3;
    }
    if (c >= 0xf0 && c <= 0xf4) {
        if (!CONT(1) || !CONT(2) || !CONT(3) || (c == 0xf0 && s[1] < 0x90) ||
            (c == 0xf4 && s[1] > 0x8f))
            return 0;
        return 4;
    }
#undef CONT
    return 0;
}

size_t dls__svg_text_chars(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; n++) {
        size_t k = xml_char_len(p);
        p += k ? k : 1;
    }
    return n;
}

void dls__svg_text_max(dls__buf *o, const char *s, size_t max)
{
    /* a longer text loses its middle to an ellipsis, since names often differ only at
     * their ends (node-01, node-02) */
    size_t total = max == (size_t)-1 ? 0 : dls__svg_text_chars(s);
    size_t head = (size_t)-1, tail = 0;
    if (max != (size_t)-1 && total > max) {
        size_t keep = max > 0 ? max - 1 : 0;
        head = (keep + 1) / 2;
        tail = keep - head;
    }
    size_t i = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; i++) {
        size_t k = xml_char_len(p);
        if (i == head)
            dls__buf_put(o, "\xe2\x80\xa6"); /* U+2026 HORIZONTAL ELLIPSIS */
        if (i < head || i >= total - tail) {
            switch (k ? *p : '?') {
            case '<': dls__buf_put(o, "&lt;"); break;
            case '>': dls__buf_put(o, "&gt;"); break;
            case '&': dls__buf_put(o, "&amp;"); break;
            case '"': dls__buf_put(o, "&quot;"); break;
            case '?': dls__buf_put(o, "?"); break;
            default: dls__buf_put(o, "%.*s", (int)k, (const char *)p); break;
            }
        }
        p += k ? k : 1;
    }
}

void dls__svg_text(dls__buf *o, const char *s)
{
    dls__svg_text_max(o, s, (size_t)-1);
}

double dls__svg_nice_step(double span, double want)
{
    double raw = span / fmax(want, 1), p = pow(10, floor(log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * p;
}

/* Drops the trailing zeros of a fraction (and its point when nothing is left of it). */
static void trim_fraction(char *s)
{
    char *dot = strchr(s, '.');
    if (dot == NULL)
        return;
    char *e = strpbrk(dot, "eE"), tail[16] = "";
    if (e != NULL) {
        snprintf(tail, sizeof tail, "%s", e);
        *e = '\0';
    }
    char *end = s + strlen(s) - 1;
    while (end > dot && *end == '0')
        *end-- = '\0';
    if (end == dot)
        *end = '\0';
    strcat(s, tail); /* at most what was cut off */
}

void dls__svg_num(char *buf, size_t size, double v, int sig)
{
    sig = sig < 1 ? 1 : sig > 17 ? 17 : sig;
    double a = fabs(v);
    if (v == 0 || !isfinite(v)) {
        snprintf(buf, size, "%g", v == 0 ? 0.0 : v);
        return;
    }
    if (a >= DLS__SVG_PLAIN_MIN && a < DLS__SVG_PLAIN_MAX) {
        /* the exponent after rounding to sig digits (9.9999996 is 10.0000) */
        char e[40];
        snprintf(e, sizeof e, "%.*e", sig - 1, v);
        int exp10 = atoi(strchr(e, 'e') + 1);
        snprintf(buf, size, "%.*f", exp10 >= sig - 1 ? 0 : sig - 1 - exp10, v);
    } else {
        snprintf(buf, size, "%.*e", sig - 1, v);
    }
    trim_fraction(buf);
}

int dls__svg_column_decimals(double largest, int sig)
{
    if (!(largest > 0) || !isfinite(largest))
        return 0;
    int d = sig - 1 - (int)floor(log10(largest));
    return d < 0 ? 0 : d > 9 ? 9 : d;
}
