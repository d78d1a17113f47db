/* Status codes, error records, version: the conventions every module relies on. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/internal.h"

void dls_error_clear(dls_error *err)
{
    if (err == NULL)
        return;
    err->status = DLS_OK;
    err->line = 0;
    err->column = 0;
    err->processor = -1;
    err->message[0] = '\0';
    err->origin[0] = '\0';
    memset(err->reserved, 0, sizeof err->reserved);
}

/* Whether origin may stand in dls_error::origin: a public function's name ("dls_..."), or
 * a module's word (lowercase letters: shared code that several public calls use), short
 * enough for the field. Anything else (a phrase like "order mip") still heads the message
 * but is no origin, so a caller cannot mistake it for a call or a module. */
static int origin_is_name(const char *origin)
{
    size_t n = strlen(origin);
    if (n == 0 || n >= DLS_ERROR_ORIGIN_MAX)
        return 0;
    int public = strncmp(origin, "dls_", 4) == 0;
    for (const char *c = origin; *c; c++)
        if (!(*c >= 'a' && *c <= 'z') && !(public && ((*c >= '0' && *c <= '9') || *c == '_')))
            return 0;
    return 1;
}

/* Whether the origin is a module's word, which the public function's name replaces (a
 * public name has underscores). */
static int origin_is_module(const dls_error *err)
{
    return err->origin[0] != '\0' && strchr(err->origin, '_') == NULL;
}

const char *dls_strerror(dls_status status)
{
    switch (status) {
#define DLS__STATUS_TEXT_(name, value, text) \
    case DLS_##name:                        \
        return text;
        DLS_STATUS_MAP(DLS__STATUS_TEXT_)
#undef DLS__STATUS_TEXT_
    }
    return "unknown status";
}

const char *dls_status_name(dls_status status)
{
    switch (status) {
#define DLS__STATUS_NAME_(name, value, text) \
    case DLS_##name:                        \
        return #name;
        DLS_STATUS_MAP(DLS__STATUS_NAME_)
#undef DLS__STATUS_NAME_
    }
    return "UNKNOWN";
}

const char *dls_version(void)
{
    return PACKAGE_VERSION;
}

int dls_version_number(void)
{
    return DLS_VERSION_NUMBER;
}

void dls_free(void *ptr)
{
    free(ptr);
}

dls_status dls__vfail_at(dls_error *err, dls_status status, int line, int column,
                         long processor, const char *origin, const char *fmt, va_list ap)
{
    if (err == NULL)
        return status;
    /* made aside first: origin and the arguments may be err's own, from a failure passed on */
    char msg[DLS_ERROR_MESSAGE_MAX], from[DLS_ERROR_ORIGIN_MAX] = "";
    size_t head = 0;
    if (origin != NULL && origin[0] != '\0') {
        int h = snprintf(msg, sizeof msg, "%s: ", origin);
        head = h < 0 ? 0 : (size_t)h < sizeof msg ? (size_t)h : sizeof msg - 1;
        if (origin_is_name(origin))
            memcpy(from, origin, strlen(origin) + 1);
    }
    int n = vsnprintf(msg + head, sizeof msg - head, fmt, ap);
    if (n < 0) {
        snprintf(msg, sizeof msg, "%s", dls_strerror(status));
        from[0] = '\0';
    }
    err->status = status;
    err->line = line;
    err->column = column;
    err->processor = processor;
    memcpy(err->message, msg, sizeof msg);
    memcpy(err->origin, from, sizeof from);
    memset(err->reserved, 0, sizeof err->reserved);
    return status;
}

dls_status dls__fail_at(dls_error *err, dls_status status, int line, int column,
                        long processor, const char *origin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls__vfail_at(err, status, line, column, processor, origin, fmt, ap);
    va_end(ap);
    return status;
}

dls_status dls__fail(dls_error *err, dls_status status, const char *origin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls__vfail_at(err, status, 0, 0, -1, origin, fmt, ap);
    va_end(ap);
    return status;
}

dls_status dls__oom(dls_error *err, const char *who)
{
    return dls__fail(err, DLS_ENOMEM, who, "out of memory");
}

const char *dls__error_text(const dls_error *err)
{
    size_t n = strlen(err->origin);
    return n > 0 && strlen(err->message) >= n + 2 ? err->message + n + 2 : err->message;
}

int dls__shortest_digits(double v)
{
    /* When v reads back from 15 significant digits, %.15g (its trailing zeros dropped) is
     * the shortest form: a shorter decimal within half an ulp of v is also the nearest
     * 15-digit one. So three tries at most, not seventeen (a writer calls this for each
     * number of a million-processor platform). */
    char buf[40];
    snprintf(buf, sizeof buf, "%.15g", v);
    if (!isfinite(v) || strtod(buf, NULL) == v) {
        /* its significant digits: from the first nonzero to the last nonzero */
        int digits = 0, zeros = 0;
        for (const char *c = buf; *c && *c != 'e'; c++) {
            if (*c < '0' || *c > '9' || (digits == 0 && *c == '0'))
                continue;
            if (*c == '0') {
                zeros++;
            } else {
                digits += zeros + 1;
                zeros = 0;
            }
        }
        return digits > 0 ? digits : 1;
    }
    snprintf(buf, sizeof buf, "%.16g", v);
    return strtod(buf, NULL) == v ? 16 : 17;
}

/* v in 16 significant digits that read back as v, where the nearest 16-digit decimal does
 * not but a neighbour of it does (5.684341886080802e-14: the 16-digit grid is finer than
 * the doubles there), written as %g writes; 0 when neither neighbour does. */
static int neighbour16(double v, char *buf, size_t size)
{
    char e16[40];
    snprintf(e16, sizeof e16, "%.15e", fabs(v)); /* d.ddddddddddddddde+XX */
    char digits[20];
    size_t k = 0;
    for (const char *c = e16; *c && *c != 'e' && k < 16; c++)
        if (*c >= '0' && *c <= '9')
            digits[k++] = *c;
    digits[k] = '\0';
    int x = atoi(strchr(e16, 'e') + 1);
    unsigned long long m = strtoull(digits, NULL, 10);
    for (int step = -1; step <= 1; step += 2) {
        unsigned long long n = m + (unsigned long long)(long long)step;
        if (n < 1000000000000000ULL || n > 9999999999999999ULL)
            continue;
        char d[20], text[48];
        snprintf(d, sizeof d, "%llu", n);
        snprintf(text, sizeof text, "%s%c.%se%d", v < 0 ? "-" : "", d[0], d + 1, x);
        if (strtod(text, NULL) != v)
            continue;
        size_t len = 16; /* trailing zeros dropped, as %g does */
        while (len > 1 && d[len - 1] == '0')
            d[--len] = '\0';
        if (x < -4 || x >= 16) {
            snprintf(buf, size, "%s%c%s%se%c%02d", v < 0 ? "-" : "", d[0], len > 1 ? "." : "",
                     d + 1, x < 0 ? '-' : '+', abs(x));
        } else if (x >= 0) {
            char whole[24], frac[24];
            size_t w = (size_t)x + 1;
            snprintf(whole, sizeof whole, "%.*s", (int)(w < len ? w : len), d);
            while (strlen(whole) < w)
                strcat(whole, "0");
            snprintf(frac, sizeof frac, "%s", w < len ? d + w : "");
            snprintf(buf, size, "%s%s%s%s", v < 0 ? "-" : "", whole, frac[0] ? "." : "", frac);
        } else {
            snprintf(buf, size, "%s0.%.*s%s", v < 0 ? "-" : "", -x - 1, "0000", d);
        }
        return 1;
    }
    return 0;
}

/* Below this, a whole number is written in all its digits (60, 300000); from it on in the
 * shorter of that and its shortest %g form (2.5e9, 1e6, 1234567). */
#define PLAIN_WHOLE_MAX 1e6

const char *dls__shortest_text(double v, char *buf, size_t size)
{
    int digits = dls__shortest_digits(v);
    if (digits < 17 || !isfinite(v) || !neighbour16(v, buf, size))
        snprintf(buf, size, "%.*g", digits, v);
    char *e = strchr(buf, 'e'); /* the exponent as a person writes it: 5e-5, 2.5e9 */
    if (e != NULL) {
        char *d = e + 1;
        if (*d == '+')
            memmove(d, d + 1, strlen(d));
        if (*d == '-')
            d++;
        while (d[0] == '0' && d[1] != '\0')
            memmove(d, d + 1, strlen(d));
    }
    /* a whole number in all its digits below 10^6 (60, 300000), and beyond where that is
     * no longer (14394283142184120, not 1.439428314218412e16; but 1e6) */
    char plain[40];
    if (isfinite(v) && v == floor(v) && fabs(v) < 1e17 &&
        (fabs(v) < PLAIN_WHOLE_MAX ||
         (size_t)snprintf(plain, sizeof plain, "%.0f", v) <= strlen(buf)))
        snprintf(buf, size, "%.0f", v);
    return buf;
}

/* Whether c may stand in a JSON number. */
static int number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

char *dls__json_shortest_reals(char *text)
{
    char *in = text, *out = text;
    while (*in) {
        if (*in == '"') { /* a string, escapes and all */
            *out++ = *in++;
            while (*in && *in != '"') {
                if (*in == '\\' && in[1])
                    *out++ = *in++;
                *out++ = *in++;
            }
            if (*in)
                *out++ = *in++;
            continue;
        }
        if ((*in == '-' || (*in >= '0' && *in <= '9')) && (out == text || !number_char(out[-1]))) {
            size_t len = 0;
            while (number_char(in[len]))
                len++;
            char tok[64], num[48];
            if (len < sizeof tok && (memchr(in, '.', len) || memchr(in, 'e', len) ||
                                     memchr(in, 'E', len))) {
                memcpy(tok, in, len);
                tok[len] = '\0';
                dls__shortest_text(strtod(tok, NULL), num, sizeof num);
                /* a whole number stays as a person wrote it (60, not 60.0): JSON has one
                 * kind of number */
                size_t k = strlen(num);
                if (k <= len) { /* always: the same double in fewer digits */
                    memmove(out, num, k);
                    out += k;
                    in += len;
                    continue;
                }
            }
            memmove(out, in, len);
            out += len;
            in += len;
            continue;
        }
        *out++ = *in++;
    }
    *out = '\0';
    return text;
}

int dls__distinct_digits(double a, double b)
{
    /* each number written in full (the digits that read back to it): two different
     * numbers never look alike, and neither looks like a round number it is not */
    int da = dls__shortest_digits(a), db = dls__shortest_digits(b), d = da > db ? da : db;
    return d > DLS__MESSAGE_DIGITS ? d : DLS__MESSAGE_DIGITS;
}

dls_status dls__check_reserved(const unsigned char *r, size_t n, const char *fn,
                               const char *type, dls_error *err)
{
    for (size_t k = 0; k < n; k++)
        if (r[k] != 0)
            return dls__fail(err, DLS_EINVAL, fn, "the reserved bytes of %s are not zero (byte "
                             "%zu): fill it with %s_init() before setting its fields", type, k,
                             type);
    return DLS_OK;
}

dls_status dls__error_retag(dls_error *err, dls_status status, const char *fn)
{
    if (err == NULL || status == DLS_OK)
        return status;
    if (strcmp(err->origin, fn) == 0)
        return status;
    /* a module's word and ": " give way to fn; another public call's name stays after it */
    size_t skip = origin_is_module(err) ? strlen(err->origin) + 2 : 0;
    const char *rest = err->message + skip;
    size_t fl = strlen(fn);
    /* fn, ": ", then as much of the rest as fits */
    char msg[DLS_ERROR_MESSAGE_MAX];
    size_t cap = sizeof msg - 1, n = fl < cap ? fl : cap;
    memcpy(msg, fn, n);
    for (const char *sep = ": "; *sep && n < cap; sep++)
        msg[n++] = *sep;
    size_t rl = strlen(rest);
    if (rl > cap - n)
        rl = cap - n;
    memcpy(msg + n, rest, rl);
    msg[n + rl] = '\0';
    memcpy(err->message, msg, sizeof msg);
    snprintf(err->origin, sizeof err->origin, "%s", fl < sizeof err->origin ? fn : "");
    return status;
}

void dls__note_add(char **note, const char *fmt, ...)
{
    size_t len0 = *note ? strlen(*note) : 0;
    dls__buf b = {*note, len0, *note ? len0 + 1 : 0, 0};
    if (b.len > 0)
        dls__buf_add(&b, "\n", 1);
    va_list ap;
    va_start(ap, fmt);
    dls__buf_vput(&b, fmt, ap);
    va_end(ap);
    if (b.failed) {
        /* a note is advice: losing a line under memory pressure is acceptable. The note may
         * have moved (the newline's reallocation succeeded): keep the new block, cut back to
         * what it held, since the old one is freed */
        if (*note == NULL) {
            free(b.s);
            return;
        }
        b.s[len0] = '\0';
    }
    *note = b.s;
}

#ifdef DLS_DEBUG
void dls__assert_fail(const char *expr, const char *file, int line, const char *func)
{
    fprintf(stderr, "libdlsched: internal invariant broken at %s:%d in %s(): %s\n", file, line,
            func, expr);
    abort();
}
#endif
