/* Output conventions of the program: messages on stderr prefixed "dlsched: ", exit
 * statuses, JSON on stdout. */
#define __STDC_WANT_IEC_60559_BFP_EXT__ 1 /* strfromd (see tool_num) */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* One message on stderr: "dlsched: ", the prefix, the text, a newline. */
static void message(const char *prefix, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

static void message(const char *prefix, const char *fmt, va_list ap)
{
    /* the library's messages, quoted in the program's, lose their function tags here: one
     * place, whatever path they took */
    char text[TOOL_MESSAGE_MAX], user[TOOL_MESSAGE_MAX];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(text, sizeof text, fmt, copy);
    va_end(copy);
    fprintf(stderr, "dlsched: %s", prefix);
    if (n >= 0 && (size_t)n < sizeof text)
        fputs(tool_user_message(text, user, sizeof user), stderr);
    else
        vfprintf(stderr, fmt, ap); /* too long to rewrite: as it is */
    fputc('\n', stderr);
}

void tool_oom(const char *who)
{
    if (who == NULL)
        tool_error("out of memory");
    else
        tool_error("%s: out of memory", who);
}

void tool_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("", fmt, ap);
    va_end(ap);
}

void tool_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("", fmt, ap);
    va_end(ap);
}

void tool_warning(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    message("warning: ", fmt, ap);
    va_end(ap);
}

/* Each non-empty line of text as one message with the given prefix. */
static void message_lines(const char *prefix, const char *text)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > 0)
            fprintf(stderr, "dlsched: %s%.*s\n", prefix, (int)len, line);
        line += len + (line[len] == '\n');
    }
}

void tool_warn_lines(const char *text)
{
    message_lines("warning: ", text);
}

void tool_note_lines(const char *text)
{
    message_lines("note: ", text);
}

int tool_exit_for(dls_status status)
{
    switch (status) {
    case DLS_OK:
        return EXIT_DONE;
    case DLS_EINVAL:
    case DLS_EIO:
    case DLS_ESYNTAX:
    case DLS_EDATA:
    case DLS_ERANGE:
    case DLS_ENOTSUP:
    case DLS_ELIMIT:
        return EXIT_BADINPUT;
    case DLS_ENOMEM:
    case DLS_ESOLVER:
    case DLS_ENUMERIC:
    case DLS_ECANCELED:
    case DLS_EWRITE:
        return EXIT_FAILURE_RUN;
    }
    return EXIT_FAILURE_RUN;
}

/* Words of the library's messages that name its C interface, and what the program's user
 * gives instead (the option that sets the parameter); "" drops them. */
static const struct {
    const char *library;
    const char *tool;
} library_words[] = {
    {", or the replace parameter", ""},
};

const char *tool_user_message(const char *message, char *buf, size_t size)
{
    /* the library tags each message with its function ("dls_import_csv_file: "), for a
     * program's log; a user of dlsched did not call it */
    const char *m = message;
    size_t o = 0;
    while (*m && o + 1 < size) {
        if (strncmp(m, "dls_", 4) == 0 && (m == message || m[-1] == ' ')) {
            size_t t = strspn(m, "abcdefghijklmnopqrstuvwxyz0123456789_");
            if (m[t] == ':' && m[t + 1] == ' ') {
                m += t + 2;
                continue;
            }
        }
        size_t k = 0;
        for (; k < sizeof library_words / sizeof library_words[0]; k++) {
            size_t n = strlen(library_words[k].library);
            if (strncmp(m, library_words[k].library, n) == 0) {
                o += (size_t)snprintf(buf + o, size - o, "%s", library_words[k].tool);
                o = o < size ? o : size - 1;
                m += n;
                break;
            }
        }
        if (k == sizeof library_words / sizeof library_words[0])
            buf[o++] = *m++;
    }
    buf[o] = '\0';
    return buf;
}

int tool_fail(dls_status status, const dls_error *err)
{
    if (err != NULL && err->message[0] != '\0')
        tool_error("%s", err->message); /* in the user's words by message() */
    else
        tool_error("%s", dls_strerror(status));
    return tool_exit_for(status);
}

int tool_fail_output(const char *opt, const char *path, dls_status status, const dls_error *err)
{
    if (status != DLS_EIO && status != DLS_EWRITE)
        return tool_fail(status, err); /* not the file's fault: the message says what */
    char buf[DLS_ERROR_MESSAGE_MAX + 64];
    const char *m = err != NULL && err->message[0] != '\0'
                        ? tool_user_message(err->message, buf, sizeof buf)
                        : dls_strerror(status);
    size_t pl = strlen(path);
    /* "--gantt nodir/g.svg: cannot create ...": the option and the value the user typed */
    if (strncmp(m, path, pl) == 0 && m[pl] == ':')
        tool_error("%s %s", opt, m);
    else
        tool_error("%s %s: %s", opt, path, m);
    return tool_exit_for(status);
}

int tool_print_json(json_t *value)
{
    if (value == NULL) {
        /* json_pack refuses a non-finite "f" value as it does a failed allocation */
        tool_error("cannot build the JSON output: a value is not a finite number, or memory "
                   "ran out");
        return EXIT_FAILURE_RUN;
    }
    char *text = tool_json_dumps(value, JSON_INDENT(2));
    json_decref(value);
    if (text == NULL) {
        tool_error("cannot build the JSON output: memory ran out");
        return EXIT_FAILURE_RUN;
    }
    size_t len = strlen(text);
    int rc = fwrite(text, 1, len, stdout) == len ? 0 : -1;
    free(text);
    fputc('\n', stdout);
    if (rc != 0 || fflush(stdout) != 0) {
        tool_error("cannot write the output");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_DONE;
}

json_t *tool_json_number(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

size_t tool_utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t k = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 : s[0] >= 0xe0 && s[0] <= 0xef ? 3
             : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < k; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    /* overlong forms, surrogates, beyond U+10FFFF */
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
        (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
        return 0;
    return k;
}

json_t *tool_json_text(const char *s)
{
    if (s == NULL)
        return json_null();
    json_t *v = json_string(s);
    if (v != NULL)
        return v;
    /* not UTF-8 (a file name, a cell of an input): each stray byte written \xNN, as the
     * library's messages quote them, so the report still parses */
    size_t n = strlen(s), o = 0;
    char *t = malloc(4 * n + 1);
    if (t == NULL)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = tool_utf8_len(p);
        if (k == 0) {
            snprintf(t + o, 5, "\\x%02x", *p++);
            o += 4;
        } else {
            memcpy(t + o, p, k);
            o += k;
            p += k;
        }
    }
    t[o] = '\0';
    v = json_string(t);
    free(t);
    return v;
}

const char *tool_num(double v, char *buf, size_t size)
{
    if (isinf(v))
        snprintf(buf, size, "%s", v > 0 ? "inf" : "-inf");
    else
#ifdef HAVE_STRFROMD
        strfromd(buf, size, "%.6g", v); /* snprintf's text, without its format parsing */
#else
        snprintf(buf, size, "%.6g", v);
#endif
    return buf;
}

int tool_show_number(double v, char *buf, size_t size)
{
    /* as a person writes it: 60, 0.05, 1e-7 (not 1e-07) */
    char text[64];
    snprintf(text, sizeof text, "%.15g", v);
    char *e = strchr(text, 'e');
    if (e != NULL) {
        char *digits = e + 1;
        if (*digits == '+')
            memmove(digits, digits + 1, strlen(digits));
        if (*digits == '-')
            digits++;
        while (digits[0] == '0' && digits[1] != '\0')
            memmove(digits, digits + 1, strlen(digits));
    }
    snprintf(buf, size, "%s", text);
    return 1;
}

int tool_show_text(const char *text, char *buf, size_t size)
{
    snprintf(buf, size, "%s", text);
    return 1;
}

char *tool_put(char *o, const char *s, size_t width)
{
    size_t len = strlen(s);
    memcpy(o, s, len);
    o += len;
    for (; len < width; len++)
        *o++ = ' ';
    return o;
}

char *tool_put_right(char *o, const char *s, size_t width)
{
    size_t len = strlen(s);
    for (; len < width; width--)
        *o++ = ' ';
    memcpy(o, s, len);
    return o + len;
}

char *tool_put_size(char *o, size_t n)
{
    char d[24];
    size_t k = 0;
    do {
        d[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    while (k > 0)
        *o++ = d[--k];
    return o;
}

char *tool_put_g(char *o, double v, int precision, size_t width)
{
    char buf[40];
    const char *fmt = precision == 9 ? "%.9g" : "%.6g";
#ifdef HAVE_STRFROMD
    strfromd(buf, sizeof buf, fmt, v); /* snprintf's text, without its format parsing */
#else
    snprintf(buf, sizeof buf, fmt, v);
#endif
    return tool_put_right(o, buf, width);
}

/* ---------------------------------------------------------------------------------- */
/* Numbers for people (issue 36): tables, plurals, loads, and JSON reals                */

const char *tool_plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

const char *tool_count(char *buf, size_t size, double n, const char *one, const char *many)
{
    char num[48];
    tool_amount(n, num, sizeof num);
    snprintf(buf, size, "%s %s", num, n == 1 ? one : many);
    return buf;
}

/* The exponent of a %g or %e text written as a person writes it: 1e9, 1.5e-7. */
static void tidy_exponent(char *text)
{
    char *e = strchr(text, 'e');
    if (e == NULL)
        return;
    char *digits = e + 1;
    if (*digits == '+')
        memmove(digits, digits + 1, strlen(digits));
    if (*digits == '-')
        digits++;
    while (digits[0] == '0' && digits[1] != '\0')
        memmove(digits, digits + 1, strlen(digits));
}

const char *tool_amount(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
    else if (v == floor(v) && fabs(v) <= TOOL_MAX_WHOLE)
        snprintf(buf, size, "%.0f", v); /* every digit: 1000000000, not 1e+09 */
    else {
        snprintf(buf, size, "%.9g", v);
        tidy_exponent(buf);
    }
    return buf;
}

/* %.*g of v, through strfromd where the C library has it (no format parsing). */
static void put_g(char *buf, size_t size, int digits, double v)
{
#ifdef HAVE_STRFROMD
    /* the formats written out: snprintf's format parsing is slow in this program (see
     * tool_put), and a JSON document of a large platform has millions of numbers */
    static const char *const fmt[18] = {"%.1g", "%.1g", "%.2g", "%.3g", "%.4g", "%.5g",
                                        "%.6g", "%.7g", "%.8g", "%.9g", "%.10g", "%.11g",
                                        "%.12g", "%.13g", "%.14g", "%.15g", "%.16g", "%.17g"};
    strfromd(buf, size, fmt[digits < 1 ? 1 : digits > 17 ? 17 : digits], v);
#else
    snprintf(buf, size, "%.*g", digits, v);
#endif
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

/* Below this, a whole number is written in all its digits (60, 300000); from it on in its
 * shortest %g form (2.5e9, 1e6, 1234567). */
#define PLAIN_WHOLE_MAX 1e6

const char *tool_shortest(double v, char *buf, size_t size)
{
    /* When v reads back from 15 significant digits, %.15g (trailing zeros dropped) is its
     * shortest form: a shorter decimal within half an ulp of v is also the nearest
     * 15-digit one. Else 16 digits, else 17, which always read back. */
    int digits = 17;
    put_g(buf, size, 15, v);
    if (!isfinite(v) || strtod(buf, NULL) == v) {
        int zeros = 0;
        digits = 0;
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
        digits = digits > 0 ? digits : 1;
    } else {
        put_g(buf, size, 16, v);
        if (strtod(buf, NULL) == v)
            digits = 16;
        else if (neighbour16(v, buf, size)) {
            tidy_exponent(buf);
            return buf; /* not whole: whole numbers read back from their 16 digits */
        }
    }
    put_g(buf, size, digits, v);
    tidy_exponent(buf);
    char plain[40];
    /* a whole number in all its digits below 10^6 (60, 300000), and beyond where that is
     * no longer (14394283142184120, not 1.439428314218412e16; but 1e6) */
    if (v == floor(v) && fabs(v) < 1e17) {
#ifdef HAVE_STRFROMD
        strfromd(plain, sizeof plain, "%.0f", v);
#else
        snprintf(plain, sizeof plain, "%.0f", v);
#endif
        if (fabs(v) < PLAIN_WHOLE_MAX || strlen(plain) <= strlen(buf))
            snprintf(buf, size, "%s", plain);
    }
    return buf;
}

/* Whether c may stand in a JSON number. */
static int number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

char *tool_json_shortest_reals(char *text)
{
    /* The reals of a document jansson wrote with 17 digits rewritten in place with the
     * fewest that read back as the same double (never longer: the same double at fewer
     * digits); strings and integers are left as they are. */
    char *in = text, *out = text;
    while (*in) {
        if (*in == '"') {
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
            int real = memchr(in, '.', len) || memchr(in, 'e', len) || memchr(in, 'E', len);
            char tok[64], num[40];
            if (real && len < sizeof tok) {
                memcpy(tok, in, len);
                tok[len] = '\0';
                tool_shortest(strtod(tok, NULL), num, sizeof num);
                if (!strpbrk(num, ".e"))
                    strcat(num, ".0"); /* still a real, as jansson writes 1.0 */
                size_t k = strlen(num);
                if (k <= len) {
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

char *tool_json_dumps(const json_t *value, size_t flags)
{
    char *text = json_dumps(value, flags | JSON_REAL_PRECISION(TOOL_JSON_DIGITS));
    return text ? tool_json_shortest_reals(text) : NULL;
}

/* Columns of numbers ------------------------------------------------------------------ */

/* Past this magnitude, or below the smallest, a column is written in scientific notation:
 * fixed decimals would make it wider than a line. Whole columns stay whole up to 2^53. */
#define COLUMN_FIXED_MAX 1e15
#define COLUMN_FIXED_MIN 1e-4

void tool_column_init(tool_column *c, const char *heading, int digits, double zero)
{
    memset(c, 0, sizeof *c);
    c->heading = heading;
    c->digits = digits < 1 ? 1 : digits > 17 ? 17 : digits;
    c->zero = isfinite(zero) && zero > 0 ? zero : 0;
    c->width = (int)strlen(heading);
}

void tool_column_see(tool_column *c, double v)
{
    if (!isfinite(v) || fabs(v) < c->zero)
        return;
    if (fabs(v) > c->max)
        c->max = fabs(v);
    if (v < 0)
        c->negative = 1;
}

void tool_column_fix(tool_column *c)
{
    double m = c->max;
    if (c->whole && m <= TOOL_MAX_WHOLE) {
        snprintf(c->fmt, sizeof c->fmt, "%%.0f");
        c->quantum = 0.5;
    } else if (m > 0 && (m >= COLUMN_FIXED_MAX || m < COLUMN_FIXED_MIN)) {
        snprintf(c->fmt, sizeof c->fmt, "%%.%de", c->digits - 1);
        c->quantum = 0;
    } else {
        /* as many decimals as make the largest value show `digits` significant ones */
        char probe[64];
        snprintf(probe, sizeof probe, "%.*e", c->digits - 1, m);
        int e = atoi(strchr(probe, 'e') + 1); /* after rounding: 999999.7 is 1.00000e6 */
        int decimals = c->digits - 1 - e;
        if (decimals < 0)
            decimals = 0;
        snprintf(c->fmt, sizeof c->fmt, "%%.%df", decimals);
        c->quantum = 0.5 * pow(10, -decimals);
    }
    char buf[TOOL_COLUMN_BYTES];
    int w = (int)strlen(tool_column_text(c, c->negative ? -c->max : c->max, buf, sizeof buf));
    if (w > c->width)
        c->width = w;
}

const char *tool_column_text(const tool_column *c, double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else if (isinf(v))
        snprintf(buf, size, "%s", v > 0 ? "inf" : "-inf");
    else {
        if (fabs(v) < c->zero || fabs(v) < c->quantum)
            v = 0; /* rounding noise, and no "-0.000" */
#ifdef HAVE_STRFROMD
        strfromd(buf, size, c->fmt, v);
#else
        snprintf(buf, size, c->fmt, v);
#endif
    }
    return buf;
}

char *tool_put_column(char *o, const tool_column *c, double v)
{
    char buf[TOOL_COLUMN_BYTES];
    return tool_put_right(o, tool_column_text(c, v, buf, sizeof buf), (size_t)c->width);
}

char *tool_put_heading(char *o, const tool_column *c)
{
    return tool_put_right(o, c->heading, (size_t)c->width);
}

int tool_digits(const tool_args *a)
{
    unsigned d = TOOL_TABLE_DIGITS;
    arg_unsigned(a, "digits", &d);
    return (int)d;
}
