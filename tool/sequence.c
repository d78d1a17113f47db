/* The sequences of installments and the release times of `installments --lp` and `export
 * --installments` (issue 25). */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The most bytes read from a sequence or release file: far more than the longest sequence
 * dls_installment_lp takes (DLS_INSTALLMENT_LP_MAX_CHUNKS names), and a bound on what an
 * endless file (a FIFO, a device) can make us read. */
#define TOOL_SEQUENCE_FILE_MAX (64u << 20)

/* --sequence: a list NAME,NAME,... or a file of names, one a line ('#' lines and blank
 * lines skipped); names may repeat. *seq is malloc'd. Returns EXIT_DONE or an exit
 * status after the message. */
int tool_sequence_read(const char *text, const dls_platform *pl, const char *who, size_t **seq,
                       size_t *n)
{
    char *buf = NULL;
    int list = strchr(text, ',') != NULL;
    if (list) {
        buf = strdup(text);
    } else {
        FILE *f = fopen(text, "r");
        if (f == NULL) {
            tool_error("%s: %s: %s", who, text, strerror(errno));
            return EXIT_BADINPUT;
        }
        size_t cap = 0, len = 0;
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
            if (len + got > TOOL_SEQUENCE_FILE_MAX) {
                free(buf);
                fclose(f);
                tool_error("%s: %s: longer than %u bytes", who, text, TOOL_SEQUENCE_FILE_MAX);
                return EXIT_BADINPUT;
            }
            if (len + got + 1 > cap) {
                cap = 2 * (len + got + 1);
                char *g = realloc(buf, cap);
                if (g == NULL) {
                    free(buf);
                    fclose(f);
                    tool_error("%s: out of memory", who);
                    return EXIT_FAILURE_RUN;
                }
                buf = g;
            }
            memcpy(buf + len, chunk, got);
            len += got;
        }
        fclose(f);
        if (buf == NULL)
            buf = strdup("");
        else
            buf[len] = '\0';
    }
    if (buf == NULL) {
        tool_error("%s: out of memory", who);
        return EXIT_FAILURE_RUN;
    }
    size_t cap = 16;
    *n = 0;
    *seq = malloc(cap * sizeof **seq);
    int rc = *seq ? EXIT_DONE : EXIT_FAILURE_RUN;
    if (!list) {
        /* a file: a line that is exactly a name names it; other lines are lists */
        char *line = buf;
        for (char *p = buf;; p++)
            if (*p == '\n' || *p == '\0') {
                char end = *p;
                *p = '\0';
                size_t i;
                if (!dls_platform_find(pl, line, &i))
                    for (char *q = line; q < p; q++)
                        if (*q == ',')
                            *q = '\n';
                *p = end;
                if (end == '\0')
                    break;
                line = p + 1;
            }
    }
    const char *sep = list ? "," : "\n";
    char *save = NULL;
    for (char *tok = strtok_r(buf, sep, &save); tok != NULL && rc == EXIT_DONE;
         tok = strtok_r(NULL, sep, &save)) {
        size_t i;
        if (dls_platform_find(pl, tok, &i)) {
            /* the name as it is */
        } else {
            while (*tok == ' ' || *tok == '\t' || *tok == '\r')
                tok++;
            char *end = tok + strlen(tok);
            while (end > tok && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
                *--end = '\0';
            if (*tok == '\0' || (!list && *tok == '#'))
                continue;
            if (!dls_platform_find(pl, tok, &i)) {
                tool_error("%s: chunk %zu of the sequence names \"%.160s\", which is not a "
                           "processor of the platform", who, *n + 1, tok);
                rc = EXIT_BADINPUT;
                break;
            }
        }
        if (*n == cap) {
            size_t *g = realloc(*seq, 2 * cap * sizeof *g);
            if (g == NULL) {
                rc = EXIT_FAILURE_RUN;
                break;
            }
            *seq = g;
            cap *= 2;
        }
        (*seq)[(*n)++] = i;
    }
    free(buf);
    if (rc == EXIT_DONE && *n == 0) {
        tool_error("%s: the sequence names no processor", who);
        rc = EXIT_BADINPUT;
    }
    if (rc != EXIT_DONE) {
        if (rc == EXIT_FAILURE_RUN)
            tool_error("%s: out of memory", who);
        free(*seq);
        *seq = NULL;
    }
    return rc;
}

/* --release FILE: lines "NAME SECONDS" (the name is everything before the last blank);
 * processors not named are free at 0. */
/* The last blank-separated field of line (cut off it); NULL when there is none. */
static char *last_field(char *line)
{
    char *end = line + strlen(line);
    while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
        *--end = '\0';
    char *p = end;
    while (p > line && p[-1] != ' ' && p[-1] != '\t')
        p--;
    if (p == line || p == end)
        return NULL;
    p[-1] = '\0';
    return p;
}

/* A file of lines "NAME V1 .. Vk" (the name is everything before the last k blank-separated
 * fields; '#' lines and blank lines skipped), each value finite and >= 0: out[j m + i] is
 * value j of processor i, 0 for the processors not named. form is the line's form for
 * messages, what[j] names value j. Returns EXIT_DONE, or an exit status after a message. */
static int read_named_values(const char *path, const dls_platform *pl, const char *who,
                             int k, const char *form, const char *const *what, double **out)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        tool_error("%s: %s: %s", who, path, strerror(errno));
        return EXIT_BADINPUT;
    }
    size_t m = dls_platform_count(pl);
    double *r = calloc((size_t)k * (m ? m : 1), sizeof *r);
    if (r == NULL) {
        fclose(f);
        tool_error("%s: out of memory", who);
        return EXIT_FAILURE_RUN;
    }
    char line[4096];
    unsigned long no = 0;
    size_t bytes = 0;
    int rc = EXIT_DONE;
    while (rc == EXIT_DONE && fgets(line, sizeof line, f) != NULL) {
        no++;
        bytes += strlen(line) + 1;
        if (bytes > TOOL_SEQUENCE_FILE_MAX) {
            tool_error("%s: %s: longer than %u bytes", who, path, TOOL_SEQUENCE_FILE_MAX);
            rc = EXIT_BADINPUT;
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\0' || *p == '#')
            continue;
        char *field[3];
        double v[3];
        int ok = 1;
        for (int j = k - 1; j >= 0 && ok; j--) {
            field[j] = last_field(p);
            char *end = NULL;
            v[j] = field[j] ? strtod(field[j], &end) : NAN;
            ok = field[j] != NULL && end != field[j] && *end == '\0';
        }
        size_t i;
        if (!ok) {
            tool_error("%s:%lu: expected \"%s\"", path, no, form);
            rc = EXIT_BADINPUT;
        } else if (!dls_platform_find(pl, p, &i)) {
            tool_error("%s:%lu: \"%.160s\" is not a processor of the platform", path, no, p);
            rc = EXIT_BADINPUT;
        } else {
            for (int j = 0; j < k && rc == EXIT_DONE; j++)
                if (!(isfinite(v[j]) && v[j] >= 0)) {
                    tool_error("%s:%lu: processor \"%.160s\": the %s must be finite and >= 0, "
                               "not %s", path, no, p, what[j], field[j]);
                    rc = EXIT_BADINPUT;
                }
            for (int j = 0; j < k; j++)
                r[(size_t)j * m + i] = v[j];
        }
    }
    if (rc == EXIT_DONE && ferror(f)) {
        tool_error("%s: %s: read error", who, path);
        rc = EXIT_BADINPUT;
    }
    fclose(f);
    if (rc != EXIT_DONE)
        free(r);
    else
        *out = r;
    return rc;
}

int tool_release_read(const char *path, const dls_platform *pl, const char *who, double **out)
{
    static const char *const what[] = {"release time"};
    return read_named_values(path, pl, who, 1, "NAME SECONDS", what, out);
}

int tool_returns_read(const char *path, const dls_platform *pl, const char *who, double **out)
{
    static const char *const what[] = {"return fraction", "return startup", "return rate"};
    return read_named_values(path, pl, who, 3, "NAME FRACTION STARTUP RATE", what, out);
}

int tool_return_order_read(const char *text, const dls_platform *pl, const size_t *seq,
                           size_t n, const char *who, dls_return_order *order, size_t **perm)
{
    *perm = NULL;
    if (dls_return_order_from_name(text, order) == DLS_OK && *order != DLS_RETURN_GIVEN)
        return EXIT_DONE;
    if (strchr(text, ',') == NULL) {
        tool_error("%s: --return-order must be fifo, lifo or the processors in the order their "
                   "results come back, NAME,NAME,..., not \"%.160s\"", who, text);
        return EXIT_BADINPUT;
    }
    if (seq == NULL) {
        tool_error("%s: --return-order NAME,... needs --sequence (the search changes the "
                   "chunks)", who);
        return EXIT_BADINPUT;
    }
    size_t *names = NULL, m = 0;
    int rc = tool_sequence_read(text, pl, who, &names, &m);
    if (rc != EXIT_DONE)
        return rc;
    size_t *p = malloc((n ? n : 1) * sizeof *p);
    unsigned char *used = calloc(n ? n : 1, 1);
    if (p == NULL || used == NULL) {
        free(names);
        free(p);
        free(used);
        tool_error("%s: out of memory", who);
        return EXIT_FAILURE_RUN;
    }
    if (m != n) {
        tool_error("%s: --return-order names %zu chunks, the sequence has %zu", who, m, n);
        rc = EXIT_BADINPUT;
    }
    /* the j-th time a processor is named, its j-th chunk of the sequence */
    for (size_t j = 0; j < m && rc == EXIT_DONE; j++) {
        size_t k = 0;
        while (k < n && (seq[k] != names[j] || used[k]))
            k++;
        if (k == n) {
            tool_error("%s: --return-order names \"%.160s\" more often than the sequence "
                       "sends it chunks", who, dls_platform_name(pl, names[j]));
            rc = EXIT_BADINPUT;
            break;
        }
        used[k] = 1;
        p[j] = k;
    }
    free(names);
    free(used);
    if (rc != EXIT_DONE) {
        free(p);
        return rc;
    }
    *order = DLS_RETURN_GIVEN;
    *perm = p;
    return EXIT_DONE;
}

int tool_returns_apply(const tool_args *args, const dls_platform *pl, const size_t *seq,
                       size_t n, const char *who, dls_installment_lp_params *par, double **ret,
                       size_t **perm)
{
    *ret = NULL;
    *perm = NULL;
    const char *path = arg_string(args, "returns");
    if (path == NULL) {
        if (arg_given(args, "return-order") || arg_flag(args, "two-port")) {
            tool_error("%s: --return-order and --two-port apply to --returns", who);
            return EXIT_BADINPUT;
        }
        return EXIT_DONE;
    }
    int rc = tool_returns_read(path, pl, who, ret);
    if (rc != EXIT_DONE)
        return rc;
    size_t m = dls_platform_count(pl);
    par->return_fraction = *ret;
    par->return_startup = *ret + m;
    par->return_rate = *ret + 2 * m;
    const char *ro = arg_string(args, "return-order");
    if (ro != NULL)
        rc = tool_return_order_read(ro, pl, seq, n, who, &par->return_order, perm);
    par->return_sequence = *perm;
    arg_set_flag(args, "two-port", &par->two_port, 1);
    return rc;
}
