/* XML-safe text and tick steps for the SVG writers. */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
