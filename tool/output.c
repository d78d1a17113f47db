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

void tool_warn_lines(const char *text)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > 0)
            tool_warning("%.*s", (int)len, line);
        line += len + (line[len] == '\n');
    }
}

void tool_note_lines(const char *text)
{
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > 0)
            tool_note("note: %.*s", (int)len, line);
        line += len + (line[len] == '\n');
    }
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
    int rc = json_dumpf(value, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(TOOL_JSON_DIGITS));
    json_decref(value);
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
