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
 * without the blanks at its ends. Lists and files are read by tool_names_read, the reader
 * of every option of names; here, every processor must be named exactly once. */
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

/* The names read so far, and where each processor was named (the ctx of the names
 * reader). */
typedef struct reader {
    const tool_args *args;
    const dls_platform *pl;
    const char *file;  /* the file read, NULL for the list on the command line */
    size_t *seq, n;    /* processors in the order named */
    size_t *first;     /* per processor: 0 when not named yet, else where (1-based) */
} reader;

/* One processor more of the send order: each is served once. */
static int take_once(tool_names *names, size_t i, const char *where, size_t place)
{
    reader *r = names->ctx;
    char q[TOOL_QUOTE_BYTES];
    if (r->first[i] != 0) {
        const char *name = dls_platform_name(r->pl, i);
        tool_error("%s: %s: %s is named twice (first %s %zu); each processor is served once",
                   names->who, where, tool_quote(q, sizeof q, name, strlen(name)),
                   names->file != NULL ? "on line" : "as name", r->first[i]);
        return EXIT_BADINPUT;
    }
    r->first[i] = place;
    r->seq[r->n++] = i;
    return EXIT_DONE;
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
    reader r = {a, pl, NULL, NULL, 0, NULL};
    r.seq = malloc((p ? p : 1) * sizeof *r.seq);
    r.first = calloc(p ? p : 1, sizeof *r.first);
    int rc = EXIT_DONE;
    if (r.seq == NULL || r.first == NULL) {
        tool_oom(NULL);
        rc = EXIT_FAILURE_RUN;
    } else {
        tool_names names = {a->cmd->name, "--order", a->pos[0], "given, rate or best", pl,
                            take_once, &r, NULL, 0};
        rc = tool_names_read(&names, o->text);
        r.file = names.file;
    }
    if (rc == EXIT_DONE && r.n != p) {
        missing(&r);
        rc = EXIT_BADINPUT;
    }
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
