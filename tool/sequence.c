/* The sequences of installments, the release times and the results returned of
 * `installments --lp` and `export --installments` (issue 25); their files are read by the
 * one reader of tool/namefile.c (bounded, lines of any length, issue 35). */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The chunks read so far (the ctx of the names reader). */
typedef struct seq_reader {
    size_t *seq, n, cap;
} seq_reader;

/* One chunk more: names may repeat, up to the most the LP takes. */
static int take_chunk(tool_names *names, size_t proc, const char *where, size_t place)
{
    (void)place;
    seq_reader *r = names->ctx;
    if (r->n == DLS_INSTALLMENT_LP_MAX_CHUNKS) {
        tool_error("%s: %s: the sequence holds more than %zu chunks, the most the LP takes",
                   names->who, where, (size_t)DLS_INSTALLMENT_LP_MAX_CHUNKS);
        return EXIT_BADINPUT;
    }
    size_t *g = tool_grow(r->seq, &r->cap, r->n + 1, sizeof *g);
    if (g == NULL) {
        tool_oom(names->who);
        return EXIT_FAILURE_RUN;
    }
    r->seq = g;
    r->seq[r->n++] = proc;
    return EXIT_DONE;
}

int tool_sequence_read(const tool_args *args, const char *opt, const dls_platform *pl,
                       size_t **seq, size_t *n)
{
    char dashed[64];
    snprintf(dashed, sizeof dashed, "--%s", opt);
    seq_reader r = {NULL, 0, 0};
    tool_names names = {args->cmd->name, dashed, args->pos[0], NULL, pl, take_chunk, &r,
                        NULL, 0};
    *seq = NULL;
    *n = 0;
    int rc = tool_names_read(&names, arg_string(args, opt));
    if (rc == EXIT_DONE && r.n == 0) {
        tool_error("%s: the sequence names no processor", args->cmd->name);
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

int tool_return_order_read(const tool_args *args, const dls_platform *pl, const size_t *seq,
                           size_t n, dls_return_order *order, size_t **perm)
{
    const char *who = args->cmd->name, *text = arg_string(args, "return-order");
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
    int rc = tool_sequence_read(args, "return-order", pl, &names, &m);
    if (rc != EXIT_DONE)
        return rc;
    size_t *p = malloc((n ? n : 1) * sizeof *p);
    unsigned char *used = calloc(n ? n : 1, 1);
    if (p == NULL || used == NULL) {
        free(names);
        free(p);
        free(used);
        tool_oom(who);
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
        rc = tool_return_order_read(args, pl, seq, n, &par->return_order, perm);
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
    if (text != NULL &&
        (rc = tool_sequence_read(args, sequence_opt, pl, &lp->seq, &lp->n)) == EXIT_DONE) {
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
