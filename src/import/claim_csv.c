/* Claims in CSV: `name,load[,send_start][,send_end][,compute_start][,finish]`, a header
 * first, one row per processor in send order (or `name,elements[,time]` for a partition).
 * Parsed with libcsv (quotes, delimiters inside names); rows are numbered from the header,
 * which is row 1: they are the file's lines unless a quoted name spans lines. */
#include <config.h>

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "claim/claim_impl.h"
#include "core/locale.h"
#include "import/claim_csv.h"
#include "platform/platform_impl.h"

enum { C_NAME, C_LOAD, C_SS, C_SE, C_CS, C_FIN, C_COLS };
/* The header words of each column: a schedule's, then a partition's (NULL: none). */
static const char *const col_sched[C_COLS] = {"name", "load", "send_start", "send_end",
                                              "compute_start", "finish"};
static const char *const col_part[C_COLS] = {"name", "elements", NULL, NULL, NULL, "time"};
/* Most fields a row may have (a header of unknown columns beyond is refused). Cells have
 * no length limit of their own: a row is kept whole (a name may be DLS_PLATFORM_NAME_MAX
 * bytes), bounded by the file, which dls_claim_read_file() holds to
 * DLS_PLATFORM_FILE_MAX bytes. */
#define CLAIM_FIELDS_MAX 64

typedef struct cctx {
    const char *source;
    const dls_platform *pl;
    dls_error *err;
    dls_status st;
    int row;                    /* 1: the header */
    int partition;
    int at[C_COLS];             /* field index of each column, -1 when absent */
    size_t nf, ncols;           /* fields of this row; of the header */
    /* the row's cells, each NUL-terminated, one after the other in buf (grown as needed):
     * field j at buf + at_off[j], flen[j] bytes */
    char *buf;
    size_t used, cap;
    size_t at_off[CLAIM_FIELDS_MAX], flen[CLAIM_FIELDS_MAX];
    dls_claim *c;
    unsigned char *seen;
    size_t *order, m;
} cctx;

static void failf(cctx *x, dls_status st, long proc, const char *fmt, ...) DLS__PRINTF(4, 5);

static void failf(cctx *x, dls_status st, long proc, const char *fmt, ...)
{
    if (x->st != DLS_OK)
        return;
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    x->st = dls__fail_at(x->err, st, x->row, 1, proc, NULL, "%s:%d: %s", x->source, x->row, what);
}

static void on_field(void *s, size_t len, void *data)
{
    cctx *x = data;
    if (x->st != DLS_OK)
        return;
    if (x->nf == CLAIM_FIELDS_MAX) {
        failf(x, DLS_ESYNTAX, -1, "more than %d fields", CLAIM_FIELDS_MAX);
        return;
    }
    /* len < the text's length, so len + 1 cannot wrap; the buffer doubles */
    if (len + 1 > x->cap - x->used) {
        size_t cap = x->cap ? x->cap : 256;
        while (len + 1 > cap - x->used)
            cap *= 2;
        char *b = realloc(x->buf, cap);
        if (b == NULL) {
            failf(x, DLS_ENOMEM, -1, "out of memory");
            return;
        }
        x->buf = b;
        x->cap = cap;
    }
    if (len > 0)
        memcpy(x->buf + x->used, s, len);
    x->buf[x->used + len] = '\0';
    x->at_off[x->nf] = x->used;
    x->flen[x->nf++] = len;
    x->used += len + 1;
}

/* Field j of the row being read. */
static char *field(cctx *x, size_t j) { return x->buf + x->at_off[j]; }

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

static void header(cctx *x)
{
    for (int k = 0; k < C_COLS; k++)
        x->at[k] = -1;
    for (size_t j = 0; j < x->nf; j++) {
        const char *w = trim(field(x, j));
        int found = -1;
        for (int k = 0; k < C_COLS && found < 0; k++)
            if ((col_sched[k] && strcasecmp(w, col_sched[k]) == 0) ||
                (col_part[k] && strcasecmp(w, col_part[k]) == 0))
                found = k;
        if (found < 0) {
            char q[96];
            dls__quote_name(w, q, sizeof q);
            failf(x, DLS_ESYNTAX, -1, "header: column %zu, \"%s\", is not one of name, load "
                  "(or elements), send_start, send_end, compute_start, finish (or time)",
                  j + 1, q);
            return;
        }
        if (x->at[found] >= 0) {
            failf(x, DLS_ESYNTAX, -1, "header: column \"%s\" appears twice", w);
            return;
        }
        if (found == C_LOAD)
            x->partition = strcasecmp(w, "elements") == 0;
        x->at[found] = (int)j;
    }
    if (x->at[C_NAME] < 0 || x->at[C_LOAD] < 0) {
        failf(x, DLS_ESYNTAX, -1, "header: the columns \"name\" and \"load\" (or \"elements\") "
              "are required");
        return;
    }
    if (x->partition && (x->at[C_SS] >= 0 || x->at[C_SE] >= 0 || x->at[C_CS] >= 0)) {
        failf(x, DLS_ESYNTAX, -1, "header: a partition (\"elements\") has no send or compute "
              "start times");
        return;
    }
    x->st = dls_claim_create(x->pl, x->partition ? DLS_CLAIM_PARTITION : DLS_CLAIM_SCHEDULE,
                             &x->c, x->err);
}

/* The number in column k of the row (NaN for an empty cell of an optional column). */
static double cell(cctx *x, int k, long proc)
{
    if (x->at[k] < 0)
        return NAN;
    char *s = trim(field(x, (size_t)x->at[k]));
    if (*s == '\0') {
        if (k == C_LOAD)
            failf(x, DLS_EDATA, proc, "processor \"%s\": the %s is empty",
                  dls_platform_name(x->pl, (size_t)proc), x->partition ? "elements" : "load");
        return NAN;
    }
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    const char *what = x->partition && col_part[k] ? col_part[k] : col_sched[k];
    if (end == s || *end != '\0' || !isfinite(v)) {
        char q[96];
        dls__quote_name(s, q, sizeof q);
        failf(x, DLS_EDATA, proc, "processor \"%s\": %s \"%s\" is not a finite number",
              dls_platform_name(x->pl, (size_t)proc), what, q);
        return NAN;
    }
    char text[160];
    if (dls__domain_value(v, k == C_LOAD && x->partition ? "number of elements" : what, text,
                          sizeof text)) {
        failf(x, DLS_EDATA, proc, "processor \"%s\": %s", dls_platform_name(x->pl, (size_t)proc),
              text);
        return NAN;
    }
    return v;
}

/* One processor's row. */
static void body_row(cctx *x)
{
    if (x->nf != x->ncols) {
        failf(x, DLS_ESYNTAX, -1, "the row has %zu field%s, the header %zu (a field holding "
              "the delimiter must be quoted)", x->nf, x->nf == 1 ? "" : "s", x->ncols);
        return;
    }
    const char *name = field(x, (size_t)x->at[C_NAME]);
    size_t i;
    if (!dls_platform_find(x->pl, name, &i)) {
        char q[96];
        dls__quote_name(name, q, sizeof q);
        failf(x, DLS_EDATA, -1, "the platform has no processor \"%s\"", q);
        return;
    }
    if (x->seen[i]) {
        failf(x, DLS_EDATA, (long)i, "processor \"%s\" appears twice", name);
        return;
    }
    x->seen[i] = 1;
    double load = cell(x, C_LOAD, (long)i), ss = cell(x, C_SS, (long)i),
           se = cell(x, C_SE, (long)i), cs = cell(x, C_CS, (long)i),
           fin = cell(x, C_FIN, (long)i);
    if (x->st != DLS_OK)
        return;
    x->st = dls_claim_set(x->c, i, load, ss, se, cs, fin, x->err);
    x->order[x->m++] = i;
}

static void on_row(int term, void *data)
{
    (void)term;
    cctx *x = data;
    if (x->st == DLS_OK && !(x->nf == 0 || (x->nf == 1 && *trim(field(x, 0)) == '\0'))) {
        if (x->c == NULL) {
            x->ncols = x->nf;
            header(x);
        } else {
            body_row(x);
        }
    }
    x->nf = 0;
    x->used = 0;
    x->row++;
}

dls_status dls__claim_read_csv(const char *text, size_t len, const char *source,
                               const dls_platform *pl, dls_claim **out, dls_error *err)
{
    cctx *x = calloc(1, sizeof *x);
    size_t n = dls_platform_count(pl);
    if (x == NULL)
        return dls__oom(err, source);
    x->source = source;
    x->pl = pl;
    x->err = err;
    x->row = 1;
    x->seen = calloc(n ? n : 1, 1);
    x->order = malloc((n ? n : 1) * sizeof *x->order);
    struct csv_parser parser;
    int inited = 0;
    if (x->seen == NULL || x->order == NULL)
        x->st = dls__oom(err, source);
    else if (csv_init(&parser, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI) != 0)
        x->st = dls__oom(err, source);
    else
        inited = 1;
    /* strtod with '.' whatever locale the caller chose (this thread, this call only) */
    dls__c_numeric loc;
    int entered = 0;
    if (x->st == DLS_OK) {
        if (dls__c_numeric_enter(&loc) != 0)
            x->st = dls__oom(err, source);
        else
            entered = 1;
    }
    if (x->st == DLS_OK && memchr(text, '\0', len) != NULL)
        x->st = dls__fail(err, DLS_ESYNTAX, NULL, "%s: a NUL byte: the input is not text", source);
    if (x->st == DLS_OK && csv_parse(&parser, text, len, on_field, on_row, x) != len &&
        x->st == DLS_OK)
        failf(x, csv_error(&parser) == CSV_EPARSE ? DLS_ESYNTAX : DLS_ENOMEM, -1,
              "malformed CSV: %s (a quote inside a field is written twice, and the field "
              "quoted)", csv_strerror(csv_error(&parser)));
    if (x->st == DLS_OK && csv_fini(&parser, on_field, on_row, x) != 0 && x->st == DLS_OK)
        failf(x, DLS_ESYNTAX, -1, "malformed CSV: a quoted field is never closed");
    if (inited)
        csv_free(&parser);
    if (entered)
        dls__c_numeric_leave(&loc);
    if (x->st == DLS_OK && x->c == NULL)
        x->st = dls__fail(err, DLS_ESYNTAX, NULL, "%s: no header: the first row names the columns "
                          "(name,load,...)", source);
    if (x->st == DLS_OK)
        x->st = dls__claim_set_order(x->c, x->order, x->m, source, err);
    char why[DLS_ERROR_MESSAGE_MAX / 2];
    if (x->st == DLS_OK && dls__claim_check_sums(x->c, why, sizeof why) != 0)
        x->st = dls__fail(err, DLS_EDATA, NULL, "%s: %s", source, why);
    dls_status st = x->st;
    if (st == DLS_OK)
        *out = x->c;
    else
        dls_claim_free(x->c);
    free(x->seen);
    free(x->order);
    free(x->buf);
    free(x);
    return st;
}
