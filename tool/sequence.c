/* The sequences of installments, the release times and the results returned of
 * `installments --lp` and `export --installments` (issue 25); their files are read by the
 * one reader of tool/namefile.c (bounded, lines of any length, issue 35). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The chunks read so far. */
typedef struct seq_reader {
    const dls_platform *pl;
    const char *who;
    const char *path; /* the file read, NULL for a list on the command line */
    size_t line;      /* its line */
    size_t *seq, n, cap;
} seq_reader;

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Takes the name s (NUL-terminated, writable): the processor named so, else the one named
 * without the blanks at its ends; nothing when that is empty. */
static int take(seq_reader *r, char *s)
{
    size_t i;
    if (!dls_platform_find(r->pl, s, &i)) {
        while (blank(*s))
            s++;
        char *end = s + strlen(s);
        while (end > s && blank(end[-1]))
            *--end = '\0';
        if (*s == '\0')
            return EXIT_DONE;
        if (!dls_platform_find(r->pl, s, &i)) {
            char q[TOOL_QUOTE_BYTES], at[64] = "";
            if (r->path != NULL)
                snprintf(at, sizeof at, ":%zu", r->line);
            tool_error("%s: %s%s%schunk %zu of the sequence names %s, which is not a processor "
                       "of the platform", r->who, r->path ? r->path : "", at,
                       r->path ? ": " : "", r->n + 1, tool_quote(q, sizeof q, s, strlen(s)));
            return EXIT_BADINPUT;
        }
    }
    if (r->n == DLS_INSTALLMENT_LP_MAX_CHUNKS) {
        char at[64] = "";
        if (r->path != NULL)
            snprintf(at, sizeof at, ":%zu", r->line);
        tool_error("%s: %s%s%sthe sequence holds more than %zu chunks, the most the LP takes",
                   r->who, r->path ? r->path : "", at, r->path ? ": " : "",
                   (size_t)DLS_INSTALLMENT_LP_MAX_CHUNKS);
        return EXIT_BADINPUT;
    }
    size_t *g = tool_grow(r->seq, &r->cap, r->n + 1, sizeof *g);
    if (g == NULL) {
        tool_error("%s: out of memory", r->who);
        return EXIT_FAILURE_RUN;
    }
    r->seq = g;
    r->seq[r->n++] = i;
    return EXIT_DONE;
}

/* Takes the names of text, separated by commas (empty ones skipped). */
static int take_list(seq_reader *r, char *text)
{
    for (char *p = text;;) {
        char *comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        int rc = take(r, p);
        if (rc != EXIT_DONE || comma == NULL)
            return rc;
        p = comma + 1;
    }
}

/* The chunks of a file: a line that is exactly a name names it; other lines are skipped
 * when blank or starting with # (after their blanks), else lists. */
static int take_file(seq_reader *r, const char *path)
{
    char why[TOOL_TEXT_WHY_MAX];
    tool_text t;
    int rc = tool_text_read(path, "processor names", &t, why, sizeof why);
    if (rc != EXIT_DONE) {
        tool_error("%s: %s", r->who, why);
        return rc;
    }
    r->path = path;
    char *line;
    size_t len, i;
    while (rc == EXIT_DONE && (line = tool_text_line(&t, &len)) != NULL) {
        r->line = t.line;
        if (dls_platform_find(r->pl, line, &i)) {
            rc = take(r, line);
            continue;
        }
        const char *b = line;
        while (blank(*b))
            b++;
        if (*b != '\0' && *b != '#')
            rc = take_list(r, line);
    }
    tool_text_free(&t);
    return rc;
}

/* --sequence: a list NAME,NAME,... or a file of names, one a line ('#' lines and blank
 * lines skipped); names may repeat. *seq is malloc'd. Returns EXIT_DONE or an exit
 * status after the message. */
int tool_sequence_read(const char *text, const dls_platform *pl, const char *who, size_t **seq,
                       size_t *n)
{
    seq_reader r = {pl, who, NULL, 0, NULL, 0, 0};
    int rc;
    *seq = NULL;
    *n = 0;
    if (strchr(text, ',') == NULL) {
        rc = take_file(&r, text);
    } else {
        char *copy = strdup(text);
        if (copy == NULL) {
            tool_error("%s: out of memory", who);
            return EXIT_FAILURE_RUN;
        }
        rc = take_list(&r, copy);
        free(copy);
    }
    if (rc == EXIT_DONE && r.n == 0) {
        tool_error("%s: the sequence names no processor", who);
        rc = EXIT_BADINPUT;
    }
    if (rc != EXIT_DONE) {
        free(r.seq);
        return rc;
    }
    *seq = r.seq;
    *n = r.n;
    return EXIT_DONE;
}

/* --release FILE: lines "NAME SECONDS"; processors not named are free at 0. */
int tool_release_read(const char *path, const dls_platform *pl, const char *who, double **out)
{
    const tool_named_spec spec = {who, "--release", "NAME SECONDS", "release times", 1,
                                  {"release time"}};
    return tool_named_read(path, pl, &spec, out);
}

/* --returns FILE: lines "NAME FRACTION STARTUP RATE"; processors not named return nothing. */
int tool_returns_read(const char *path, const dls_platform *pl, const char *who, double **out)
{
    const tool_named_spec spec = {who, "--returns", "NAME FRACTION STARTUP RATE",
                                  "results returned", 3,
                                  {"return fraction", "return startup", "return rate"}};
    return tool_named_read(path, pl, &spec, out);
}

int tool_return_order_read(const char *text, const dls_platform *pl, const size_t *seq,
                           size_t n, const char *who, dls_return_order *order, size_t **perm)
{
    *perm = NULL;
    if (dls_return_order_from_name(text, order) == DLS_OK && *order != DLS_RETURN_GIVEN)
        return EXIT_DONE;
    char q[TOOL_QUOTE_BYTES];
    if (strchr(text, ',') == NULL) {
        tool_error("%s: --return-order must be fifo, lifo or the processors in the order their "
                   "results come back, NAME,NAME,..., not %s", who,
                   tool_quote(q, sizeof q, text, strlen(text)));
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
        tool_error("%s: --return-order names %zu %s, the sequence has %zu", who, m,
                   tool_plural(m, "chunk", "chunks"), n);
        rc = EXIT_BADINPUT;
    }
    /* the j-th time a processor is named, its j-th chunk of the sequence */
    for (size_t j = 0; j < m && rc == EXIT_DONE; j++) {
        size_t k = 0;
        while (k < n && (seq[k] != names[j] || used[k]))
            k++;
        if (k == n) {
            const char *name = dls_platform_name(pl, names[j]);
            tool_error("%s: --return-order names %s more often than the sequence sends it "
                       "chunks", who, tool_quote(q, sizeof q, name, strlen(name)));
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

int tool_installment_lp_read(const tool_args *args, const dls_platform *pl, const char *who,
                             const char *sequence_opt, tool_installment_lp *lp)
{
    memset(lp, 0, sizeof *lp);
    dls_installment_lp_params *par = &lp->par;
    dls_installment_lp_params_init(par);
    arg_set_flag(args, "no-limits", &par->use_limits, 0);
    arg_unsigned(args, "window", &par->window);
    /* the search's options, which installments --lp has and export does not */
    if (arg_has(args, "no-moves")) {
        arg_set_flag(args, "no-moves", &par->moves, 0);
        arg_unsigned(args, "rounds", &par->rounds);
        arg_double(args, "time-limit", &par->time_limit);
        arg_unsigned(args, "max-lps", &par->max_lps);
        arg_size(args, "max-chunks", &par->max_chunks);
        arg_size(args, "exhaustive", &par->exhaustive_max);
        const char *order = arg_string(args, "order");
        if (order != NULL)
            dls_send_order_from_name(order, &par->order);
    }
    int rc = EXIT_DONE;
    const char *text = arg_string(args, sequence_opt);
    if (text != NULL && (rc = tool_sequence_read(text, pl, who, &lp->seq, &lp->n)) == EXIT_DONE) {
        par->sequence = lp->seq;
        par->sequence_length = lp->n;
        /* the chunks the sequence has, within the LP's limit (which refuses a longer one) */
        if (lp->n > par->max_chunks)
            par->max_chunks = lp->n < DLS_INSTALLMENT_LP_MAX_CHUNKS ? lp->n
                                                                    : DLS_INSTALLMENT_LP_MAX_CHUNKS;
    }
    text = arg_string(args, "release");
    if (rc == EXIT_DONE && text != NULL &&
        (rc = tool_release_read(text, pl, who, &lp->release)) == EXIT_DONE)
        par->release = lp->release;
    if (rc == EXIT_DONE)
        rc = tool_returns_apply(args, pl, par->sequence, par->sequence_length, who, par,
                                &lp->ret, &lp->perm);
    return rc;
}

void tool_installment_lp_free(tool_installment_lp *lp)
{
    free(lp->seq);
    free(lp->release);
    free(lp->ret);
    free(lp->perm);
    memset(lp, 0, sizeof *lp);
}
