/* The one reader of the small text files the commands take (issue 35, items 3 and 15):
 * files of processor names (--order, --sequence), of lines "NAME V1 .. Vk" (--release,
 * --returns) and of numbers (--weights). A file is read whole, a stream (a FIFO, a device)
 * included, up to TOOL_TEXT_FILE_MAX bytes, and refused at its first NUL byte; its lines
 * have no length limit, so a line holds any name a platform takes (DLS_PLATFORM_NAME_MAX
 * bytes); every message is located at FILE:LINE and names the processor and the value. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tool.h"

/* Bytes read from a stream at a time. */
#define TEXT_CHUNK ((size_t)1 << 16)

const char *tool_quote(char *buf, size_t size, const char *s, size_t len)
{
    size_t o = 0;
    buf[o++] = '"';
    const unsigned char *p = (const unsigned char *)s, *end = p + len;
    while (p < end && o + 12 < size) {
        if ((size_t)(p - (const unsigned char *)s) >= TOOL_QUOTE_MAX) {
            o += (size_t)snprintf(buf + o, size - o, "...");
            break;
        }
        size_t k = p[0] == 0 ? 0 : tool_utf8_len(p);
        int control = k == 1 ? (p[0] < 0x20 || p[0] == 0x7f)
                             : k == 2 && p[0] == 0xc2 && p[1] < 0xa0; /* U+0080..U+009F */
        if (k == 0 || control || p + k > end) {
            o += (size_t)snprintf(buf + o, size - o, "\\x%02x", p[0]);
            p++;
        } else {
            memcpy(buf + o, p, k);
            o += k;
            p += k;
        }
    }
    buf[o++] = '"';
    buf[o] = '\0';
    return buf;
}

/* The line of byte at in text (1-based). */
static size_t line_of(const char *text, size_t at)
{
    size_t line = 1;
    for (const char *p = text; (p = memchr(p, '\n', (size_t)(text + at - p))) != NULL; p++)
        line++;
    return line;
}

/* Reads the rest of f into t (the file is path); EXIT_DONE, or an exit status with why. */
static int read_all(FILE *f, const char *path, const char *what, tool_text *t, char *why,
                    size_t size)
{
    /* room for one byte more than the bound, to tell a file of exactly the bound from a
     * longer one, and for the final NUL */
    const size_t most = TOOL_TEXT_FILE_MAX + 2;
    size_t cap = 0;
    for (;;) {
        if (cap - t->len < 2) {
            size_t c = cap < TEXT_CHUNK ? TEXT_CHUNK : 2 * cap;
            c = c < most ? c : most;
            char *g = realloc(t->text, c);
            if (g == NULL) {
                snprintf(why, size, "%s: out of memory", path);
                return EXIT_FAILURE_RUN;
            }
            t->text = g;
            cap = c;
        }
        size_t got = fread(t->text + t->len, 1, cap - 1 - t->len, f);
        const char *nul = memchr(t->text + t->len, '\0', got);
        if (nul != NULL) {
            snprintf(why, size, "%s:%zu: holds a NUL byte: not a text file of %s", path,
                     line_of(t->text, (size_t)(nul - t->text)), what);
            return EXIT_BADINPUT;
        }
        t->len += got;
        if (t->len > TOOL_TEXT_FILE_MAX) {
            snprintf(why, size, "%s: holds more than %zu bytes, the most a file of %s is read "
                     "to (the largest platform file)", path, (size_t)TOOL_TEXT_FILE_MAX, what);
            return EXIT_BADINPUT;
        }
        if (ferror(f)) {
            snprintf(why, size, "%s: cannot read: %s", path, strerror(errno));
            return EXIT_BADINPUT;
        }
        if (got == 0 || feof(f))
            break;
    }
    if (t->text == NULL && (t->text = malloc(1)) == NULL) {
        snprintf(why, size, "%s: out of memory", path);
        return EXIT_FAILURE_RUN;
    }
    t->text[t->len] = '\0';
    return EXIT_DONE;
}

/* Whether standard input was read already: it holds one file, so a second "-" gets nothing. */
static int stdin_taken;

const char *tool_input_name(const char *path)
{
    return tool_is_stdin(path) ? TOOL_STDIN_NAME : path;
}

int tool_text_read(const char *path, const char *what, tool_text *t, char *why, size_t size)
{
    memset(t, 0, sizeof *t);
    int from_stdin = tool_is_stdin(path);
    if (from_stdin && stdin_taken) {
        snprintf(why, size, "%s: standard input holds one file, read already: only one input "
                 "can be -", TOOL_STDIN_NAME);
        t->unopened = 1;
        return EXIT_BADINPUT;
    }
    stdin_taken |= from_stdin;
    const char *name = tool_input_name(path);
    FILE *f = from_stdin ? stdin : fopen(path, "rb");
    struct stat sb;
    if (f == NULL || fstat(fileno(f), &sb) != 0) {
        snprintf(why, size, "%s: cannot open: %s", name, strerror(errno));
        if (f != NULL && !from_stdin)
            fclose(f);
        t->unopened = 1;
        return EXIT_BADINPUT;
    }
    int rc = EXIT_DONE;
    if (S_ISDIR(sb.st_mode)) {
        snprintf(why, size, "%s: is a directory, not a file of %s", name, what);
        rc = EXIT_BADINPUT;
    } else if (S_ISREG(sb.st_mode) && !from_stdin &&
               (uintmax_t)sb.st_size > TOOL_TEXT_FILE_MAX) {
        /* refused before reading it */
        snprintf(why, size, "%s: is %jd bytes, more than %zu, the most a file of %s is read "
                 "to (the largest platform file)", name, (intmax_t)sb.st_size,
                 (size_t)TOOL_TEXT_FILE_MAX, what);
        rc = EXIT_BADINPUT;
    } else {
        rc = read_all(f, name, what, t, why, size);
    }
    if (!from_stdin)
        fclose(f);
    if (rc != EXIT_DONE) {
        tool_text_free(t);
        return rc;
    }
    if (t->len >= 3 && memcmp(t->text, "\xef\xbb\xbf", 3) == 0)
        t->pos = 3; /* a byte order mark is not part of the first line */
    return EXIT_DONE;
}

char *tool_text_line(tool_text *t, size_t *len)
{
    if (t->pos >= t->len)
        return NULL;
    char *line = t->text + t->pos;
    char *nl = memchr(line, '\n', t->len - t->pos);
    size_t n = nl != NULL ? (size_t)(nl - line) : t->len - t->pos;
    t->pos += n + (nl != NULL);
    t->line++;
    if (n > 0 && line[n - 1] == '\r')
        n--;
    line[n] = '\0';
    *len = n;
    return line;
}

void tool_text_free(tool_text *t)
{
    free(t->text);
    memset(t, 0, sizeof *t);
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Cuts the last k blank-separated fields off line (len bytes): field[0..k) and the name
 * before them (the one blank before the first field removed), each NUL-terminated in
 * place. Returns 0 when the line has fewer fields or nothing before them. */
static int split_fields(char *line, size_t len, int k, char **field)
{
    size_t e = len;
    for (int j = k - 1; j >= 0; j--) {
        while (e > 0 && blank(line[e - 1]))
            e--;
        size_t b = e;
        while (b > 0 && !blank(line[b - 1]))
            b--;
        if (b == e || b == 0)
            return 0;
        line[e] = '\0';
        field[j] = line + b;
        e = b - 1;
    }
    line[e] = '\0';
    return 1;
}

/* The processor the name line names: as it is, else without the blanks at its ends (cut
 * in place). 1 with *i when there is one; 0 with the trimmed name in *name. */
static int find_name(const dls_platform *pl, char **name, size_t *i)
{
    if (dls_platform_find(pl, *name, i))
        return 1;
    char *s = *name, *e = s + strlen(s);
    while (blank(*s))
        s++;
    while (e > s && blank(e[-1]))
        *--e = '\0';
    *name = s;
    return *s != '\0' && dls_platform_find(pl, s, i);
}

/* Reading a file of lines "NAME V1 .. Vk". */
typedef struct named_reader {
    const tool_named_spec *spec;
    const dls_platform *pl;
    const char *path;
    size_t line, m;
    size_t *first; /* per processor: the line that named it, 0 when none */
    double *out;   /* value j of processor i at out[j m + i] */
} named_reader;

/* Value j of the line, v read from the text field, for processor name: EXIT_DONE when it is
 * finite, >= 0 and in the domain; else EXIT_BADINPUT after a message. */
static int take_value(const named_reader *r, const char *name, int j, const char *field,
                      double v)
{
    const tool_named_spec *s = r->spec;
    char q[TOOL_QUOTE_BYTES];
    tool_quote(q, sizeof q, name, strlen(name));
    if (!(isfinite(v) && v >= 0)) {
        tool_error("%s: %s %s:%zu: processor %s: the %s must be finite and >= 0, not %s",
                   s->who, s->opt, r->path, r->line, q, s->what[j], field);
        return EXIT_BADINPUT;
    }
    if (!tool_in_domain(v, 1)) {
        tool_error("%s: %s %s:%zu: processor %s: the %s %s is outside the domain (0 or [%g, "
                   "%g]) that dlsched computes in", s->who, s->opt, r->path, r->line, q,
                   s->what[j], field, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* One line (len bytes, NUL-terminated, writable) of a file of "NAME V1 .. Vk". */
static int take_named_line(named_reader *r, char *line, size_t len)
{
    const tool_named_spec *s = r->spec;
    size_t b = 0;
    while (b < len && blank(line[b]))
        b++;
    if (b == len)
        return EXIT_DONE;
    int comment = line[b] == '#';
    char *field[TOOL_NAMED_MAX_VALUES], *name = line, q[TOOL_QUOTE_BYTES];
    double v[TOOL_NAMED_MAX_VALUES];
    int ok = split_fields(line, len, s->k, field);
    for (int j = 0; j < s->k && ok; j++)
        ok = tool_number(field[j], &v[j]) == 0;
    size_t i;
    /* a line that names a processor exactly is read even when it starts with # */
    if (ok && dls_platform_find(r->pl, name, &i))
        comment = 0;
    if (comment)
        return EXIT_DONE;
    if (!ok) {
        tool_error("%s: %s %s:%zu: expected \"%s\"%s", s->who, s->opt, r->path, r->line,
                   s->form, s->k > 1 ? ", the values numbers" : ", the value a number");
        return EXIT_BADINPUT;
    }
    if (!find_name(r->pl, &name, &i)) {
        tool_error("%s: %s %s:%zu: %s is not a processor of the platform (a line is \"%s\")",
                   s->who, s->opt, r->path, r->line, tool_quote(q, sizeof q, name, strlen(name)),
                   s->form);
        return EXIT_BADINPUT;
    }
    const char *pname = dls_platform_name(r->pl, i);
    if (r->first[i] != 0) {
        tool_error("%s: %s %s:%zu: processor %s is named twice (first on line %zu)", s->who,
                   s->opt, r->path, r->line, tool_quote(q, sizeof q, pname, strlen(pname)),
                   r->first[i]);
        return EXIT_BADINPUT;
    }
    for (int j = 0; j < s->k; j++) {
        int rc = take_value(r, pname, j, field[j], v[j]);
        if (rc != EXIT_DONE)
            return rc;
        r->out[(size_t)j * r->m + i] = v[j];
    }
    r->first[i] = r->line;
    return EXIT_DONE;
}

int tool_named_read(const char *path, const dls_platform *pl, const tool_named_spec *spec,
                    double **out)
{
    *out = NULL;
    size_t m = dls_platform_count(pl);
    named_reader r = {spec, pl, path, 0, m, NULL, NULL};
    char why[TOOL_TEXT_WHY_MAX];
    tool_text t;
    int rc = tool_text_read(path, spec->file_holds, &t, why, sizeof why);
    if (rc != EXIT_DONE) {
        tool_error("%s: %s %s", spec->who, spec->opt, why);
        return rc;
    }
    r.first = calloc(m ? m : 1, sizeof *r.first);
    r.out = calloc((size_t)spec->k * (m ? m : 1), sizeof *r.out);
    if (r.first == NULL || r.out == NULL) {
        tool_oom(spec->who);
        rc = EXIT_FAILURE_RUN;
    }
    char *line;
    size_t len;
    while (rc == EXIT_DONE && (line = tool_text_line(&t, &len)) != NULL) {
        r.line = t.line;
        rc = take_named_line(&r, line, len);
    }
    tool_text_free(&t);
    free(r.first);
    if (rc != EXIT_DONE) {
        free(r.out);
        return rc;
    }
    *out = r.out;
    return EXIT_DONE;
}

/* Lists of processor names: the one reader of --order, --sequence, --installments and
 * --return-order (the rule in tool.h, above tool_names). */

static int name_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Where a name is, for a message: "--order, name 3" or "FILE:7" (", name 2 on the line"
 * when the line holds several). */
static const char *names_where(const tool_names *r, size_t pos, int several, char *buf,
                               size_t size)
{
    if (r->file == NULL)
        snprintf(buf, size, "%s, name %zu", r->opt, pos);
    else if (several)
        snprintf(buf, size, "%s:%zu, name %zu on the line", r->file, r->line, pos);
    else
        snprintf(buf, size, "%s:%zu", r->file, r->line);
    return buf;
}

/* Whether some processor's name holds a comma (a list cannot write it). */
static int names_with_commas(const dls_platform *pl)
{
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (strchr(dls_platform_name(pl, i), ',') != NULL)
            return 1;
    return 0;
}

/* Takes the name s[0..len), NUL-terminated at len (the text is the reader's own), the
 * pos-th of its list or line: the processor named so, else the one named without the blanks
 * at its ends; then the caller's take. */
static int names_take(tool_names *r, char *s, size_t len, size_t pos, int several)
{
    char at[TOOL_QUOTE_BYTES + 64], q[TOOL_QUOTE_BYTES];
    size_t i, b = 0, e = len;
    int found = dls_platform_find(r->pl, s, &i);
    if (!found) {
        while (b < e && name_blank(s[b]))
            b++;
        while (e > b && name_blank(s[e - 1]))
            e--;
        if (b == e) {
            tool_error("%s: %s is empty (a list is NAME,NAME,..., with one trailing comma "
                       "allowed)", r->who, names_where(r, pos, several, at, sizeof at));
            return EXIT_BADINPUT;
        }
        char kept = s[e];
        s[e] = '\0';
        found = dls_platform_find(r->pl, s + b, &i);
        s[e] = kept;
    }
    if (!found) {
        tool_error("%s: %s: %s is not a processor of %s%s", r->who,
                   names_where(r, pos, several, at, sizeof at),
                   tool_quote(q, sizeof q, s + b, e - b), r->platform,
                   r->file == NULL && names_with_commas(r->pl)
                       ? " (a name holding a comma is written in a FILE, one name per line)"
                       : "");
        return EXIT_BADINPUT;
    }
    return r->take(r, i, names_where(r, pos, several, at, sizeof at),
                   r->file != NULL ? r->line : pos);
}

/* Takes the names of text, separated by commas (one trailing comma allowed). */
static int names_list(tool_names *r, char *text)
{
    size_t len = strlen(text);
    while (len > 0 && name_blank(text[len - 1]))
        len--;
    if (len > 0 && text[len - 1] == ',')
        text[--len] = '\0';
    int several = strchr(text, ',') != NULL;
    size_t pos = 1;
    for (char *p = text;; pos++) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        int rc = names_take(r, p, strlen(p), pos, several);
        if (rc != EXIT_DONE || comma == NULL)
            return rc;
        p = comma + 1;
    }
}

/* Takes one line of a file (without its end of line). */
static int names_line(tool_names *r, char *line, size_t len)
{
    size_t i;
    if (dls_platform_find(r->pl, line, &i))
        return names_take(r, line, len, 1, 0);
    size_t b = 0, e = len;
    while (b < e && name_blank(line[b]))
        b++;
    while (e > b && name_blank(line[e - 1]))
        e--;
    if (b == e || line[b] == '#')
        return EXIT_DONE;
    line[e] = '\0';
    return names_list(r, line + b);
}

/* The names of a file, one line at a time. */
static int names_file(tool_names *r, const char *path)
{
    char why[TOOL_TEXT_WHY_MAX];
    tool_text t;
    int rc = tool_text_read(path, "processor names", &t, why, sizeof why);
    if (rc != EXIT_DONE) {
        /* the value may have been meant as a keyword or as a list of one name */
        char hint[TOOL_QUOTE_BYTES + 96] = "", q[TOOL_QUOTE_BYTES];
        size_t i;
        if (t.unopened && dls_platform_find(r->pl, path, &i))
            snprintf(hint, sizeof hint, "; %s is a processor: a list of names holds commas, "
                     "and one name alone is written with a trailing comma",
                     tool_quote(q, sizeof q, path, strlen(path)));
        if (t.unopened)
            tool_error("%s: %s %s (a value without a comma is a FILE of names%s%s%s)", r->who,
                       r->opt, why, r->keywords ? ", unless it is " : "",
                       r->keywords ? r->keywords : "", hint);
        else
            tool_error("%s: %s %s", r->who, r->opt, why);
        return rc;
    }
    r->file = path;
    char *line;
    size_t len;
    while (rc == EXIT_DONE && (line = tool_text_line(&t, &len)) != NULL) {
        r->line = t.line;
        rc = names_line(r, line, len);
    }
    tool_text_free(&t);
    return rc;
}

int tool_names_read(tool_names *r, const char *text)
{
    r->file = NULL;
    r->line = 0;
    if (strchr(text, ',') == NULL)
        return names_file(r, text);
    char *copy = strdup(text);
    if (copy == NULL) {
        tool_oom(r->who);
        return EXIT_FAILURE_RUN;
    }
    int rc = names_list(r, copy);
    free(copy);
    return rc;
}
