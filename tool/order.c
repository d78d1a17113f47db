/* --order: a keyword (given, rate, best) or the send order itself, as a list of processor
 * names on the command line or a file of them. The rule, in dlsched(1):
 *   1. given, rate and best, exactly, are the keywords;
 *   2. a value holding a comma is a list NAME,NAME,... (one trailing comma allowed, so that
 *      "best," is a processor called best and "gpu0," a list of one);
 *   3. any other value is a FILE (so "./rate" is a file called rate).
 * A file (read by tool_text_read: bounded, a stream included, lines of any length) is read
 * line by line: a line that is exactly a processor's name names it (commas,
 * '#', blanks and all: every name can be written so); other lines lose the blanks at their
 * ends, and are skipped when empty or starting with '#', else split at commas like the list.
 * A name in a list (or in a split line) is the processor named so, or else the one named
 * without the blanks at its ends. Every processor must be named exactly once. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Processors a message names as left out; the others are counted. */
#define MISSING_SHOWN 8

/* Whether text is a keyword of --order (a name of DLS_SEND_ORDER_MAP but "sequence", which
 * stands for the explicit forms); the order in *out when it is. */
static int keyword(const char *text, dls_send_order *out)
{
    dls_send_order o;
    if (dls_send_order_from_name(text, &o) != DLS_OK || o == DLS_ORDER_SEQUENCE)
        return 0;
    *out = o;
    return 1;
}

int tool_order_is_file(const char *value)
{
    dls_send_order o;
    return value[0] != '\0' && !keyword(value, &o) && strchr(value, ',') == NULL;
}

void tool_schedule_options(const tool_args *a, dls_schedule_params *par)
{
    const char *order = arg_string(a, "order");
    if (order != NULL)
        keyword(order, &par->order);
    arg_set_flag(a, "no-limits", &par->use_limits, 0);
}

static int blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The names read so far, and where each processor was named. */
typedef struct reader {
    const tool_args *args;
    const dls_platform *pl;
    const char *file;  /* the file read, NULL for the list on the command line */
    size_t *seq, n;    /* processors in the order named */
    size_t *first;     /* per processor: 0 when not named yet, else where (1-based) */
    size_t line;       /* the file's line */
} reader;

/* Where a name is, for a message: "--order, name 3" or "FILE:7" (", name 2 on the line"
 * when the line holds several). */
static const char *where(const reader *r, size_t pos, int several, char *buf, size_t size)
{
    if (r->file == NULL)
        snprintf(buf, size, "--order, name %zu", pos);
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
 * at its ends. Returns 0, or EXIT_BADINPUT after a message. */
static int take(reader *r, char *s, size_t len, size_t pos, int several)
{
    const char *cmd = r->args->cmd->name;
    char at[TOOL_QUOTE_BYTES + 64], q[TOOL_QUOTE_BYTES];
    size_t i, b = 0, e = len;
    int found = dls_platform_find(r->pl, s, &i);
    if (!found) {
        while (b < e && blank(s[b]))
            b++;
        while (e > b && blank(s[e - 1]))
            e--;
        if (b == e) {
            tool_error("%s: %s is empty (a list is NAME,NAME,..., with one trailing comma "
                       "allowed)", cmd, where(r, pos, several, at, sizeof at));
            return EXIT_BADINPUT;
        }
        char kept = s[e];
        s[e] = '\0';
        found = dls_platform_find(r->pl, s + b, &i);
        s[e] = kept;
    }
    if (!found) {
        tool_error("%s: %s: %s is not a processor of %s%s", cmd,
                   where(r, pos, several, at, sizeof at), tool_quote(q, sizeof q, s + b, e - b),
                   r->args->pos[0],
                   r->file == NULL && names_with_commas(r->pl)
                       ? " (a name holding a comma is written in a FILE, one name per line)"
                       : "");
        return EXIT_BADINPUT;
    }
    size_t here = r->file != NULL ? r->line : pos;
    if (r->first[i] != 0) {
        tool_error("%s: %s: %s is named twice (first %s %zu); each processor is served once",
                   cmd, where(r, pos, several, at, sizeof at),
                   tool_quote(q, sizeof q, dls_platform_name(r->pl, i),
                              strlen(dls_platform_name(r->pl, i))),
                   r->file != NULL ? "on line" : "as name", r->first[i]);
        return EXIT_BADINPUT;
    }
    r->first[i] = here;
    r->seq[r->n++] = i;
    return 0;
}

/* Takes the names of text, separated by commas (one trailing comma allowed). */
static int take_list(reader *r, char *text)
{
    size_t len = strlen(text);
    while (len > 0 && blank(text[len - 1]))
        len--;
    if (len > 0 && text[len - 1] == ',')
        text[--len] = '\0';
    int several = strchr(text, ',') != NULL;
    size_t pos = 1;
    for (char *p = text;; pos++) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        int rc = take(r, p, strlen(p), pos, several);
        if (rc != 0)
            return rc;
        if (comma == NULL)
            return 0;
        p = comma + 1;
    }
}

/* Takes one line of a file (without its end of line). */
static int take_line(reader *r, char *line, size_t len)
{
    size_t i;
    if (dls_platform_find(r->pl, line, &i))
        return take(r, line, len, 1, 0);
    size_t b = 0, e = len;
    while (b < e && blank(line[b]))
        b++;
    while (e > b && blank(line[e - 1]))
        e--;
    if (b == e || line[b] == '#')
        return 0;
    line[e] = '\0';
    return take_list(r, line + b);
}

/* The names of a file, one line at a time. */
static int read_file(reader *r, const char *path)
{
    const char *cmd = r->args->cmd->name;
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
            tool_error("%s: --order %s (a value without a comma is a FILE of names, unless it "
                       "is given, rate or best%s)", cmd, why, hint);
        else
            tool_error("%s: --order %s", cmd, why);
        return rc;
    }
    char *line;
    size_t len;
    while (rc == 0 && (line = tool_text_line(&t, &len)) != NULL) {
        r->line = t.line;
        rc = take_line(r, line, len);
    }
    tool_text_free(&t);
    return rc;
}

/* The processors the order leaves out, named in a message. */
static void missing(const reader *r)
{
    size_t p = dls_platform_count(r->pl), left = p - r->n, shown = 0;
    char list[MISSING_SHOWN * (TOOL_QUOTE_BYTES + 2) + 64], q[TOOL_QUOTE_BYTES];
    size_t o = 0;
    list[0] = '\0';
    for (size_t i = 0; i < p && shown < MISSING_SHOWN; i++)
        if (r->first[i] == 0) {
            const char *name = dls_platform_name(r->pl, i);
            o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", shown ? ", " : "",
                                  tool_quote(q, sizeof q, name, strlen(name)));
            shown++;
        }
    if (left > shown)
        snprintf(list + o, sizeof list - o, " and %zu more", left - shown);
    const char *cmd = r->args->cmd->name;
    if (r->n == 0)
        tool_error("%s: %s holds no processor names (blank lines and # comments only); name "
                   "the %zu %s of %s, one per line", cmd,
                   r->file != NULL ? r->file : "--order", p,
                   tool_plural(p, "processor", "processors"), r->args->pos[0]);
    else
        tool_error("%s: %s leaves out %zu of the %zu processors of %s: %s (name every "
                   "processor once)", cmd, r->file != NULL ? r->file : "--order", left, p,
                   r->args->pos[0], list);
}

int tool_order_read(const tool_args *a, const dls_platform *pl, const char *no_best,
                    tool_order *o)
{
    memset(o, 0, sizeof *o);
    o->order = DLS_ORDER_GIVEN;
    o->text = arg_string(a, "order");
    if (o->text == NULL)
        return EXIT_DONE;
    if (keyword(o->text, &o->order)) {
        if (o->order == DLS_ORDER_BEST && no_best != NULL) {
            tool_error("%s: --order best: %s", a->cmd->name, no_best);
            return EXIT_BADINPUT;
        }
        return EXIT_DONE;
    }
    size_t p = dls_platform_count(pl);
    reader r = {a, pl, NULL, NULL, 0, NULL, 0};
    r.seq = malloc((p ? p : 1) * sizeof *r.seq);
    r.first = calloc(p ? p : 1, sizeof *r.first);
    char *copy = NULL;
    int rc = EXIT_DONE;
    if (r.seq == NULL || r.first == NULL) {
        tool_error("out of memory");
        rc = EXIT_FAILURE_RUN;
    } else if (tool_order_is_file(o->text)) {
        r.file = o->text;
        rc = read_file(&r, o->text);
    } else if ((copy = strdup(o->text)) == NULL) {
        tool_error("out of memory");
        rc = EXIT_FAILURE_RUN;
    } else {
        rc = take_list(&r, copy);
    }
    if (rc == EXIT_DONE && r.n != p) {
        missing(&r);
        rc = EXIT_BADINPUT;
    }
    free(copy);
    free(r.first);
    if (rc != EXIT_DONE) {
        free(r.seq);
        return rc;
    }
    o->order = DLS_ORDER_SEQUENCE;
    o->file = r.file;
    o->sequence = r.seq;
    o->count = p;
    return EXIT_DONE;
}

void tool_order_apply(const tool_order *o, dls_schedule_params *par)
{
    if (o->text == NULL)
        return;
    par->order = o->order;
    par->sequence = o->order == DLS_ORDER_SEQUENCE ? o->sequence : NULL;
    par->sequence_count = o->order == DLS_ORDER_SEQUENCE ? o->count : 0;
}

void tool_order_free(tool_order *o)
{
    free(o->sequence);
    o->sequence = NULL;
}

int tool_order_fixed(const tool_args *a, const char *why_not_best, dls_send_order *order)
{
    const char *text = arg_string(a, "order");
    dls_send_order o;
    if (text == NULL)
        return EXIT_DONE;
    int known = keyword(text, &o);
    if (known && o == DLS_ORDER_BEST) {
        tool_error("%s: --order best: %s", a->cmd->name, why_not_best);
        return EXIT_BADINPUT;
    }
    if (!known) {
        char q[TOOL_QUOTE_BYTES];
        tool_error("%s: --order must be given or rate, not %s (an explicit send order is "
                   "for schedule, evaluate and export)", a->cmd->name,
                   tool_quote(q, sizeof q, text, strlen(text)));
        return EXIT_BADINPUT;
    }
    *order = o;
    return EXIT_DONE;
}
