/* Steps that several commands share: reading the platform, the schedule options, lists of
 * numbers, growing arrays, the clock and Ctrl-C. */
#include <config.h>

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tool.h"

/* Smallest capacity, in elements, that tool_grow gives an empty array: small inputs do not
 * reallocate at every element. */
#define TOOL_GROW_MIN 16

/* Processors whose unusual values are named one by one; past them, a count. */
#define TOOL_UNUSUAL_NAMED 5

int tool_is_stdin(const char *path)
{
    return path != NULL && strcmp(path, "-") == 0;
}

int tool_read_platform_quiet(const char *path, dls_platform **pl)
{
    dls_error err;
    dls_error_clear(&err);
    dls_status st;
    if (tool_is_stdin(path)) {
        tool_text t;
        char why[TOOL_TEXT_WHY_MAX];
        int rc = tool_text_read(path, "platform", &t, why, sizeof why);
        if (rc != EXIT_DONE) {
            tool_error("%s", why);
            return rc;
        }
        st = t.len - t.pos > DLS_PLATFORM_FILE_MAX
                 ? DLS_ELIMIT
                 : dls_platform_read_string(t.text + t.pos, t.len - t.pos, TOOL_STDIN_NAME, pl,
                                            &err);
        tool_text_free(&t);
    } else {
        st = dls_platform_read_file(path, pl, &err);
    }
    if (st != DLS_OK)
        return tool_fail(st, &err);
    return EXIT_DONE;
}

int tool_read_platform(const char *path, dls_platform **pl)
{
    int rc = tool_read_platform_quiet(path, pl);
    if (rc != EXIT_DONE)
        return rc;
    path = tool_input_name(path);
    /* numbers inside the domain but far from what machines do: said, not refused */
    size_t n = dls_platform_count(*pl), named = 0, more = 0;
    for (size_t i = 0; i < n; i++) {
        char why[512];
        if (dls_platform_unusual(*pl, i, why, sizeof why) == 0)
            continue;
        if (named++ < TOOL_UNUSUAL_NAMED)
            tool_warning("%s: processor \"%s\" has %s: a unit mixed up or a failed run? It is "
                         "used as it is", path, dls_platform_name(*pl, i), why);
        else
            more++;
    }
    if (more > 0)
        tool_warning("%s: %zu more %s unusual values", path, more,
                     tool_plural(more, "processor has", "processors have"));
    return EXIT_DONE;
}

dls_status tool_read_claim(const dls_platform *pl, const char *path, dls_claim **c,
                           dls_error *err)
{
    if (!tool_is_stdin(path))
        return dls_claim_read_file(pl, path, c, err);
    tool_text t;
    int rc = tool_text_read(path, "schedule", &t, err->message, sizeof err->message);
    if (rc != EXIT_DONE)
        return rc == EXIT_FAILURE_RUN ? DLS_ENOMEM : DLS_EIO;
    dls_status st = dls_claim_read_string(pl, t.text + t.pos, t.len - t.pos, TOOL_STDIN_NAME, c,
                                          err);
    tool_text_free(&t);
    return st;
}

const char *tool_output(const tool_args *a)
{
    const char *out = arg_string(a, "output");
    return out != NULL ? out : arg_string(a, "o");
}

int tool_is_stdout(const char *path)
{
    return path != NULL && strcmp(path, "-") == 0;
}

int tool_write_stdout(char *doc, const char *what)
{
    size_t n = strlen(doc);
    int bad = fwrite(doc, 1, n, stdout) != n || fflush(stdout) != 0;
    int e = errno;
    dls_free(doc);
    if (bad) {
        tool_error("standard output: cannot write the %s: %s", what, strerror(e));
        return EXIT_FAILURE_RUN;
    }
    return EXIT_DONE;
}

int tool_require_load(const tool_args *a, double *V)
{
    if (arg_double(a, "load", V))
        return 1;
    tool_error("%s: give the load with --load V", a->cmd->name);
    return 0;
}

/* Characters (code points) of a UTF-8 string: what a terminal shows, as far as names go
 * (platform names hold no control characters). */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int tool_name_width(const dls_platform *pl, size_t n)
{
    size_t width = strlen("NAME");
    for (size_t i = 0; i < n && width < TOOL_NAME_COLUMNS; i++) {
        size_t len = chars(dls_platform_name(pl, i));
        if (len > width)
            width = len;
    }
    return (int)(width < TOOL_NAME_COLUMNS ? width : TOOL_NAME_COLUMNS);
}

const char *tool_cell(char *buf, size_t size, const char *name, int width)
{
    /* a name wider than the column keeps its ends around "...", since names often differ
     * only at their ends (node-01, node-02); the JSON output has every name whole */
    size_t total = chars(name), w = (size_t)width, o = 0, i = 0;
    size_t head = total, tail = 0;
    if (total > w && w > 3) {
        head = (w - 3 + 1) / 2;
        tail = w - 3 - head;
    }
    for (const char *p = name; *p && o + 8 < size; i++) {
        size_t k = 1;
        while (((unsigned char)p[k] & 0xc0) == 0x80)
            k++;
        if (i == head && total > w)
            o += (size_t)snprintf(buf + o, size - o, "...");
        if ((i < head || i >= total - tail) && o + k + 4 < size) {
            memcpy(buf + o, p, k);
            o += k;
        }
        p += k;
    }
    for (size_t shown = total > w ? w : total; shown < w && o + 1 < size; shown++)
        buf[o++] = ' ';
    buf[o] = '\0';
    return buf;
}


/* Whether the number text..end (strtod's syntax) has a nonzero digit before its exponent. */
static int nonzero_mantissa(const char *text, const char *end)
{
    const char *p = text + strspn(text, " \t\n\v\f\r+-");
    int hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    for (p += hex ? 2 : 0; p < end && *p != (hex ? 'p' : 'e') && *p != (hex ? 'P' : 'E'); p++)
        if (*p != '0' && *p != '.')
            return 1;
    return 0;
}

int tool_number(const char *text, double *v)
{
    char *end;
    errno = 0;
    double d = strtod(text, &end);
    if (end == text || *end != '\0')
        return -1;
    if (errno == ERANGE && d == 0 && nonzero_mantissa(text, end))
        d = copysign(DBL_TRUE_MIN, d); /* strtod's underflow ("1e-400"): not 0 */
    *v = d;
    return 0;
}

int tool_in_domain(double v, int zero_ok)
{
    double a = fabs(v);
    return (v == 0 && zero_ok) || (a >= DLS_DOMAIN_MIN && a <= DLS_DOMAIN_MAX);
}

/* Number k of --opt, the text one, for processor name (NULL when the numbers are not
 * per processor): into *v when it is >= 0 and in the domain; else EXIT_BADINPUT after a
 * message. */
static int one_number(const char *who, const char *opt, const char *one, size_t k,
                      const char *name, double *v)
{
    char q[TOOL_QUOTE_BYTES], at[TOOL_QUOTE_BYTES + 64];
    int n = snprintf(at, sizeof at, "number %zu", k);
    if (name != NULL)
        snprintf(at + n, sizeof at - (size_t)n, " (processor %s)",
                 tool_quote(q, sizeof q, name, strlen(name)));
    if (tool_number(one, v) != 0) {
        tool_error("%s: --%s: %s, %s, is not a number (the list is numbers separated by "
                   "commas)", who, opt, at, tool_quote(q, sizeof q, one, strlen(one)));
        return EXIT_BADINPUT;
    }
    if (!(isfinite(*v) && *v >= 0)) {
        tool_error("%s: --%s: %s is %s: each must be finite and >= 0", who, opt, at, one);
        return EXIT_BADINPUT;
    }
    if (!tool_in_domain(*v, 1)) {
        tool_error("%s: --%s: %s, %s, is outside the domain (0 or [%g, %g]) that dlsched "
                   "computes in", who, opt, at, one, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

int tool_parse_numbers(const char *who, const char *opt, const char *text,
                       const dls_platform *pl, double **out, size_t *n)
{
    double *v = NULL;
    size_t cap = 0, k = 0;
    int rc = EXIT_DONE;
    for (const char *c = text; rc == EXIT_DONE;) {
        size_t len = strcspn(c, ",");
        if (len == 0 && c[len] == '\0' && k > 0)
            break; /* one trailing comma */
        char *one = strndup(c, len);
        double *g = one != NULL ? tool_grow(v, &cap, k + 1, sizeof *v) : NULL;
        if (g == NULL) {
            tool_oom(who);
            rc = EXIT_FAILURE_RUN;
        } else {
            v = g;
            rc = one_number(who, opt, one, k + 1, pl ? dls_platform_name(pl, k) : NULL, &v[k]);
            k++;
        }
        free(one);
        if (c[len] == '\0')
            break;
        c += len + 1;
    }
    if (rc != EXIT_DONE) {
        free(v);
        return rc;
    }
    *out = v;
    *n = k;
    return EXIT_DONE;
}

void *tool_grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap > SIZE_MAX / 2 ? SIZE_MAX : 2 * *cap;
    if (c < TOOL_GROW_MIN)
        c = TOOL_GROW_MIN;
    if (c < need)
        c = need;
    if (elem == 0 || c > SIZE_MAX / elem)
        return NULL;
    void *g = realloc(p, c * elem);
    if (g == NULL)
        return NULL;
    *cap = c;
    return g;
}

double tool_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

volatile sig_atomic_t tool_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    tool_interrupted = 1;
}

void tool_catch_sigint(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, old);
}

void tool_release_sigint(const struct sigaction *old)
{
    sigaction(SIGINT, old, NULL);
}
