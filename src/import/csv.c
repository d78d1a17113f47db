/* CSV timings and speeds, read with libcsv into platforms and written back.
 *
 * libcsv splits the text into fields and rows but knows no positions, comments or numbers.
 * The reader scans the text itself, byte by byte, for what libcsv does not do: it counts
 * lines, notes where each field starts, skips comment lines, refuses NUL bytes, and hands
 * libcsv the bytes in runs, the delimiters and line ends one at a time, so that every
 * callback comes from a known byte. Rows are checked as they come and kept per processor;
 * at the end the rows of each size are made into one point (mean and spread, or pooled
 * means and deviations) and dls__import_commit() puts the models in the platform. */
#include <config.h>

#include <csv.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/grow.h"
#include "core/locale.h"
#include "import/import_impl.h"
#include "platform/platform_impl.h"

/* The longest field, in bytes: a processor name may be that long, and no number needs
 * more. Longer fields are refused rather than buffered without end. */
#define CSV_FIELD_MAX ((size_t)DLS_PLATFORM_NAME_MAX)

/* The largest sample count of a row: far beyond any measurement campaign, and small
 * enough that the counts of many rows still add up exactly in a double. */
#define CSV_COUNT_MAX 1e9

/* The byte order mark some spreadsheets write first in UTF-8 files. */
#define CSV_BOM "\xEF\xBB\xBF"
#define CSV_BOM_LEN 3

/* Notes kept at most: a file of thousands of processors of single runs would otherwise
 * make as many warnings; the rest are counted. */
#define CSV_NOTES_MAX 20

/* Lines a note lists before it says "..." instead. */
#define CSV_NOTE_LINES 5

/* Bytes of a field's text a message quotes. */
#define CSV_QUOTE_MAX 64

/* Bytes of the reason dls__check_name gives for a name it refuses. */
#define CSV_WHY_MAX 160

/* The columns: what each one means. */
typedef enum {
    COL_IGNORE = 0,
    COL_SIZE,
    COL_TIME,
    COL_STDDEV,
    COL_COUNT,
    COL_SPEED,
    COL_LOW,
    COL_HIGH,
    COL_NAME,
    COL_KINDS
} col_kind;

/* Their names in headers and in dls_csv_params::columns ("-": ignored). */
static const char *const col_name[COL_KINDS] = {"-",     "size", "time", "stddev", "count",
                                                "speed", "low",  "high", "name"};

/* Other names of the columns, as other tools write them (any case). */
static const struct {
    const char *alias;
    col_kind kind;
} col_alias[] = {
    {"node", COL_NAME},    {"host", COL_NAME}, {"processor", COL_NAME}, {"worker", COL_NAME},
    {"seconds", COL_TIME}, {"sec", COL_TIME},  {"s", COL_TIME},
};

/* What a header or a column list may name, for messages. */
#define CSV_ACCEPTED "size; time (or seconds, sec, s); stddev; count; speed; low; high; " \
                     "name (or node, host, processor, worker); and - for a column to ignore"

/* Rows of one size, without a name column, whose times differ by more than this factor
 * may come from different processors: said in the report. */
#define CSV_SPREAD_WARN 2.0

/* One field of the row being read: its text (in the row's buffer) and where it starts. */
typedef struct {
    size_t off, len;
    int line, col;
    int quoted;
} field_rec;

/* One data row, checked. Time rows: a = time, b = stddev, c = count (b = 0, c = 1 for a
 * row without them). Speed rows: a = speed, b = low, c = high (NaN without a band). */
typedef struct {
    double size, a, b, c;
    int line, col; /* of the size field */
} row_rec;

/* The rows of one processor, in the order read. */
typedef struct {
    char *name;
    row_rec *rows;
    size_t n, cap;
} proc_rows;

typedef struct {
    const char *fn;      /* the public function, for messages without a position */
    const char *source;  /* the input's name, for located messages */
    char delim;
    double confidence;
    const char *default_name;

    /* the columns: known from the parameters, or from the header once read */
    int have_columns, explicit_columns;
    size_t ncols;       /* the fields of every row */
    long at[COL_KINDS]; /* the column of each kind, -1 when absent */
    int first_row_seen; /* explicit columns: the first row may be a header */

    /* scanning */
    struct csv_parser parser;
    int line;           /* current line, 1-based */
    size_t line_start;  /* offset of its first byte */
    int cur_line, cur_col; /* the byte being fed to libcsv */
    int field_pending;  /* the next field's start is not seen yet */
    int row_fresh;      /* libcsv is between rows: a '#' here starts a comment */
    int start_line, start_col, start_quoted; /* the current field's start */

    /* the row being read */
    char *text;
    size_t text_len, text_cap;
    field_rec *f;
    size_t nf, f_cap;

    /* what was read */
    proc_rows *procs;
    size_t np, p_cap;
    size_t last_proc; /* rows of one processor usually follow each other */
    /* the processors by name: open addressing on a hash of the name, slots holding
     * index + 1 (0: free), at most half full, so that a file of many interleaved
     * processors reads in time linear in its rows */
    size_t *slot;
    size_t nslots;
    size_t data_rows;
    char *notes;
    size_t nnotes, notes_left_out; /* the notes kept, and those beyond CSV_NOTES_MAX */

    /* the first failure: everything after it is skipped */
    dls_status st;
    dls_error *err;
} csv_ctx;

/* ---------------------------------------------------------------------------------- */
/* Failures */

static void fail_at(csv_ctx *x, dls_status st, int line, int col, const char *fmt, ...)
    DLS__PRINTF(5, 6);

/* Records a failure at line:col (the first one wins); the message starts SOURCE:LINE:COL. */
static void fail_at(csv_ctx *x, dls_status st, int line, int col, const char *fmt, ...)
{
    if (x->st != DLS_OK)
        return;
    x->st = st;
    char what[DLS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    dls__fail_at(x->err, st, line, col, -1, NULL, "%s:%d:%d: %s", x->source, line, col, what);
}

static void fail_oom(csv_ctx *x)
{
    if (x->st != DLS_OK)
        return;
    x->st = dls__fail(x->err, DLS_ENOMEM, x->fn, "%s: out of memory", x->source);
}

static void add_note(csv_ctx *x, const char *fmt, ...) DLS__PRINTF(2, 3);

/* The field's text as a message quotes it (escaped, cut short). */
static void quote_text(const char *s, char *out, size_t size)
{
    dls__quote_name(s, out, size < CSV_QUOTE_MAX ? size : CSV_QUOTE_MAX);
}

/* ---------------------------------------------------------------------------------- */
/* Columns */

/* The kind named by the n bytes of s (any case, surrounding spaces ignored); -1 when none. */
static int kind_of(const char *s, size_t n)
{
    while (n > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    for (int k = 0; k < COL_KINDS; k++)
        if (strlen(col_name[k]) == n && strncasecmp(s, col_name[k], n) == 0)
            return k;
    for (size_t a = 0; a < sizeof col_alias / sizeof col_alias[0]; a++)
        if (strlen(col_alias[a].alias) == n && strncasecmp(s, col_alias[a].alias, n) == 0)
            return (int)col_alias[a].kind;
    return -1;
}

/* Whether the set of columns in x->at makes sense; NULL, or what is wrong. */
static const char *columns_problem(const csv_ctx *x)
{
    const long *at = x->at;
    if (at[COL_SIZE] < 0)
        return "no \"size\" column";
    if (at[COL_TIME] >= 0 && at[COL_SPEED] >= 0)
        return "both a \"time\" and a \"speed\" column (give one of them)";
    if (at[COL_TIME] < 0 && at[COL_SPEED] < 0)
        return "neither a \"time\" nor a \"speed\" column";
    if ((at[COL_STDDEV] >= 0 || at[COL_COUNT] >= 0) && at[COL_TIME] < 0)
        return "a \"stddev\" or \"count\" column without a \"time\" column (they describe times)";
    if ((at[COL_STDDEV] >= 0) != (at[COL_COUNT] >= 0))
        return "\"stddev\" without \"count\" or \"count\" without \"stddev\" (a deviation "
               "means nothing without its sample count)";
    if ((at[COL_LOW] >= 0 || at[COL_HIGH] >= 0) && at[COL_SPEED] < 0)
        return "a \"low\" or \"high\" column without a \"speed\" column (they bound speeds)";
    if ((at[COL_LOW] >= 0) != (at[COL_HIGH] >= 0))
        return "\"low\" without \"high\" or \"high\" without \"low\"";
    return NULL;
}

/* Adds column number k of kind kind. */
static void add_column(csv_ctx *x, size_t k, col_kind kind)
{
    x->ncols = k + 1;
    if (kind != COL_IGNORE)
        x->at[kind] = (long)k;
}

/* The columns from dls_csv_params::columns. */
static dls_status parse_column_list(csv_ctx *x, const char *list)
{
    size_t k = 0;
    for (const char *s = list;; k++) {
        const char *e = strchr(s, ',');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        int kind = kind_of(s, n);
        if (kind < 0) {
            char q[CSV_QUOTE_MAX];
            char *tok = strndup(s, n);
            if (tok == NULL)
                return dls__oom(x->err, x->fn);
            quote_text(tok, q, sizeof q);
            free(tok);
            return dls__fail(x->err, DLS_EINVAL, x->fn, "columns \"%s\": column %zu, \"%s\", is "
                             "not a column dlsched reads; accepted: " CSV_ACCEPTED, list,
                             k + 1, q);
        }
        if (kind != COL_IGNORE && x->at[kind] >= 0)
            return dls__fail(x->err, DLS_EINVAL, x->fn, "columns \"%s\": \"%s\" appears twice",
                             list, col_name[kind]);
        add_column(x, k, (col_kind)kind);
        if (e == NULL)
            break;
        s = e + 1;
    }
    const char *why = columns_problem(x);
    if (why != NULL)
        return dls__fail(x->err, DLS_EINVAL, x->fn, "columns \"%s\": %s", list, why);
    x->have_columns = x->explicit_columns = 1;
    return DLS_OK;
}

/* The columns from the header row. */
static void read_header(csv_ctx *x)
{
    for (size_t k = 0; k < x->nf && x->st == DLS_OK; k++) {
        const field_rec *f = &x->f[k];
        int kind = kind_of(x->text + f->off, f->len);
        if (kind < 0) {
            /* a column read as nothing could have told the rows apart (a node's name):
             * refused, never ignored silently */
            char q[CSV_QUOTE_MAX];
            quote_text(x->text + f->off, q, sizeof q);
            fail_at(x, DLS_ESYNTAX, f->line, f->col, "header: column %zu, \"%s\", is not a "
                    "column dlsched reads; accepted: " CSV_ACCEPTED " (or give the columns "
                    "with --columns)", k + 1, q);
            return;
        } else if (kind == COL_IGNORE) {
            add_note(x, "%s:%d:%d: column %zu, \"-\", ignored", x->source, f->line, f->col,
                     k + 1);
        } else if (x->at[kind] >= 0) {
            fail_at(x, DLS_ESYNTAX, f->line, f->col, "column \"%s\" appears twice in the header "
                    "(columns %ld and %zu)", col_name[kind], x->at[kind] + 1, k + 1);
            return;
        }
        add_column(x, k, (col_kind)kind);
    }
    const char *why = columns_problem(x);
    if (why != NULL) {
        fail_at(x, DLS_ESYNTAX, x->f[0].line, 1, "header: %s", why);
        return;
    }
    x->have_columns = 1;
}

/* ---------------------------------------------------------------------------------- */
/* Values */

/* What a numeric field holds. */
typedef enum { NUM_OK, NUM_EMPTY, NUM_BAD } num_kind;

/* Reads field f as a number (in the C locale, which the reader entered): the whole field,
 * surrounding spaces allowed. */
static num_kind read_number(const csv_ctx *x, const field_rec *f, double *v)
{
    const char *s = x->text + f->off, *end = s + f->len;
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    if (s == end)
        return NUM_EMPTY;
    char *stop;
    *v = strtod(s, &stop);
    if (stop == s)
        return NUM_BAD;
    while (stop < end && (*stop == ' ' || *stop == '\t'))
        stop++;
    return stop == end ? NUM_OK : NUM_BAD;
}

/* The number in column kind of the current row; 0, or -1 after a failure. An empty field is
 * allowed (NaN) when empty_ok. */
static int column_number(csv_ctx *x, col_kind kind, int empty_ok, double *v)
{
    const field_rec *f = &x->f[x->at[kind]];
    num_kind r = read_number(x, f, v);
    if (r == NUM_EMPTY && empty_ok) {
        *v = NAN;
        return 0;
    }
    if (r == NUM_EMPTY) {
        fail_at(x, DLS_ESYNTAX, f->line, f->col, "column \"%s\" is empty: a number expected",
                col_name[kind]);
        return -1;
    }
    if (r == NUM_BAD) {
        char q[CSV_QUOTE_MAX];
        quote_text(x->text + f->off, q, sizeof q);
        fail_at(x, DLS_ESYNTAX, f->line, f->col, "column \"%s\": \"%s\" is not a number",
                col_name[kind], q);
        return -1;
    }
    if (!isfinite(*v)) {
        fail_at(x, DLS_EDATA, f->line, f->col, "column \"%s\": %g is not a finite number",
                col_name[kind], *v);
        return -1;
    }
    return 0;
}

/* Refuses value v of column kind unless ok, saying why: "must be > 0". */
static int require(csv_ctx *x, col_kind kind, int ok, double v, const char *why)
{
    if (ok)
        return 0;
    const field_rec *f = &x->f[x->at[kind]];
    fail_at(x, DLS_EDATA, f->line, f->col, "column \"%s\": %.17g %s", col_name[kind], v, why);
    return -1;
}

/* The processor of the current row, added when new; NULL after a failure. */
/* Adds a note, up to CSV_NOTES_MAX of them (then only counts). */
static void add_note(csv_ctx *x, const char *fmt, ...)
{
    if (x->nnotes >= CSV_NOTES_MAX) {
        x->notes_left_out++;
        return;
    }
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    dls__note_add(&x->notes, "%s", line);
    x->nnotes++;
}

/* FNV-1a: names are short, and any spread will do. */
static size_t name_hash(const char *name)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (const unsigned char *q = (const unsigned char *)name; *q; q++)
        h = (h ^ *q) * UINT64_C(1099511628211);
    return (size_t)h;
}

/* Doubles the name index (16 slots at first) and places every processor again; -1 when out
 * of memory (the index unchanged). */
static int grow_slots(csv_ctx *x)
{
    size_t n = x->nslots ? 2 * x->nslots : 16;
    size_t *slot = calloc(n, sizeof *slot);
    if (slot == NULL)
        return -1;
    for (size_t i = 0; i < x->np; i++) {
        size_t k = name_hash(x->procs[i].name) & (n - 1);
        while (slot[k])
            k = (k + 1) & (n - 1);
        slot[k] = i + 1;
    }
    free(x->slot);
    x->slot = slot;
    x->nslots = n;
    return 0;
}

static proc_rows *row_processor(csv_ctx *x)
{
    const char *name = x->default_name;
    if (x->at[COL_NAME] >= 0) {
        const field_rec *f = &x->f[x->at[COL_NAME]];
        name = x->text + f->off;
        char why[CSV_WHY_MAX];
        if (dls__check_name(name, why, sizeof why) != 0) {
            char q[CSV_QUOTE_MAX];
            quote_text(name, q, sizeof q);
            fail_at(x, DLS_EDATA, f->line, f->col, "column \"name\": the processor name \"%s\" "
                    "%s", q, why);
            return NULL;
        }
    }
    if (x->last_proc < x->np && strcmp(x->procs[x->last_proc].name, name) == 0)
        return &x->procs[x->last_proc];
    size_t h = name_hash(name);
    for (size_t k = h & (x->nslots - 1); x->nslots && x->slot[k];
         k = (k + 1) & (x->nslots - 1))
        if (strcmp(x->procs[x->slot[k] - 1].name, name) == 0) {
            x->last_proc = x->slot[k] - 1;
            return &x->procs[x->last_proc];
        }
    if (2 * (x->np + 1) > x->nslots && grow_slots(x) != 0) {
        fail_oom(x);
        return NULL;
    }
    proc_rows *g = dls__grow(x->procs, &x->p_cap, x->np + 1, sizeof *g);
    if (g == NULL) {
        fail_oom(x);
        return NULL;
    }
    x->procs = g;
    proc_rows *p = &x->procs[x->np];
    memset(p, 0, sizeof *p);
    p->name = strdup(name);
    if (p->name == NULL) {
        fail_oom(x);
        return NULL;
    }
    size_t k = h & (x->nslots - 1);
    while (x->slot[k])
        k = (k + 1) & (x->nslots - 1);
    x->slot[k] = x->np + 1;
    x->last_proc = x->np++;
    return p;
}

/* Checks a data row and keeps it. */
static void read_row(csv_ctx *x)
{
    row_rec r;
    const field_rec *fs = &x->f[x->at[COL_SIZE]];
    r.line = fs->line;
    r.col = fs->col;
    if (column_number(x, COL_SIZE, 0, &r.size) != 0 ||
        require(x, COL_SIZE, r.size > 0, r.size, "is not a size: sizes are > 0"))
        return;
    if (x->at[COL_TIME] >= 0) {
        if (column_number(x, COL_TIME, 0, &r.a) != 0 ||
            require(x, COL_TIME, r.a > 0, r.a, "is not a time: times are in seconds, > 0"))
            return;
        r.b = 0;
        r.c = 1;
        if (x->at[COL_STDDEV] >= 0) {
            double sd, n;
            if (column_number(x, COL_STDDEV, 1, &sd) != 0 ||
                column_number(x, COL_COUNT, 1, &n) != 0)
                return;
            /* both empty: one run, as in a file of one row per run */
            if (!(isnan(sd) && isnan(n))) {
                if (column_number(x, COL_STDDEV, 0, &sd) != 0 ||
                    column_number(x, COL_COUNT, 0, &n) != 0 ||
                    require(x, COL_STDDEV, sd >= 0, sd, "is negative: a standard deviation "
                            "is >= 0") ||
                    require(x, COL_COUNT, n >= 1, n, "is not a count: counts are >= 1") ||
                    require(x, COL_COUNT, n == floor(n), n, "is not a whole number") ||
                    require(x, COL_COUNT, n <= CSV_COUNT_MAX, n, "is too large a count"))
                    return;
                r.b = sd;
                r.c = n;
            }
        }
    } else {
        if (column_number(x, COL_SPEED, 0, &r.a) != 0 ||
            require(x, COL_SPEED, r.a > 0, r.a, "is not a speed: speeds are > 0"))
            return;
        r.b = r.c = NAN;
        if (x->at[COL_LOW] >= 0) {
            if (column_number(x, COL_LOW, 1, &r.b) != 0 ||
                column_number(x, COL_HIGH, 1, &r.c) != 0)
                return;
            /* both empty: a point without a band */
            if (!(isnan(r.b) && isnan(r.c))) {
                if (column_number(x, COL_LOW, 0, &r.b) != 0 ||
                    column_number(x, COL_HIGH, 0, &r.c) != 0 ||
                    require(x, COL_LOW, r.b > 0, r.b, "is not a speed: speeds are > 0") ||
                    require(x, COL_HIGH, r.c > 0, r.c, "is not a speed: speeds are > 0") ||
                    require(x, COL_LOW, r.b <= r.a, r.b, "is above the row's speed: the band "
                            "must hold it") ||
                    require(x, COL_HIGH, r.c >= r.a, r.c, "is below the row's speed: the band "
                            "must hold it"))
                    return;
            }
        }
    }
    proc_rows *p = row_processor(x);
    if (p == NULL)
        return;
    row_rec *g = dls__grow(p->rows, &p->cap, p->n + 1, sizeof *g);
    if (g == NULL) {
        fail_oom(x);
        return;
    }
    p->rows = g;
    p->rows[p->n++] = r;
    x->data_rows++;
}

/* ---------------------------------------------------------------------------------- */
/* libcsv's callbacks */

static void on_field(void *s, size_t len, void *data)
{
    csv_ctx *x = data;
    if (x->st != DLS_OK)
        return;
    /* a field libcsv ended without a byte of it seen (an empty last field at the end of
     * the text) starts where it ends */
    if (x->field_pending) {
        x->start_line = x->cur_line;
        x->start_col = x->cur_col;
        x->start_quoted = 0;
    }
    x->field_pending = 1;
    if (len > CSV_FIELD_MAX) {
        fail_at(x, DLS_ELIMIT, x->start_line, x->start_col, "a field of %zu bytes, more than "
                "the %zu a field may have", len, CSV_FIELD_MAX);
        return;
    }
    size_t need = x->text_len + len + 1;
    char *t = dls__grow(x->text, &x->text_cap, need, 1);
    field_rec *f = dls__grow(x->f, &x->f_cap, x->nf + 1, sizeof *f);
    if (t != NULL)
        x->text = t;
    if (f != NULL)
        x->f = f;
    if (t == NULL || f == NULL) {
        fail_oom(x);
        return;
    }
    memcpy(x->text + x->text_len, s, len);
    x->text[x->text_len + len] = '\0';
    x->f[x->nf++] = (field_rec){x->text_len, len, x->start_line, x->start_col,
                                x->start_quoted};
    x->text_len += len + 1;
}

static void on_row(int c, void *data)
{
    (void)c;
    csv_ctx *x = data;
    x->field_pending = 1;
    x->row_fresh = 1;
    if (x->st != DLS_OK)
        return;
    /* a row of empty fields is what spreadsheets write for an empty line */
    int empty = 1;
    for (size_t k = 0; k < x->nf && empty; k++)
        if (x->f[k].len > 0 || x->f[k].quoted)
            empty = 0;
    if (!empty) {
        if (!x->have_columns) {
            read_header(x);
        } else if (x->explicit_columns && !x->first_row_seen && x->nf > (size_t)x->at[COL_SIZE]
                   && read_number(x, &x->f[x->at[COL_SIZE]], &(double){0}) != NUM_OK) {
            /* a header above explicit columns: skipped */
        } else if (x->nf < x->ncols) {
            fail_at(x, DLS_ESYNTAX, x->cur_line, x->cur_col, "the row has %zu field%s where "
                    "%zu column%s expected: a missing column", x->nf, x->nf == 1 ? "" : "s",
                    x->ncols, x->ncols == 1 ? " is" : "s are");
        } else if (x->nf > x->ncols) {
            const field_rec *f = &x->f[x->ncols];
            fail_at(x, DLS_ESYNTAX, f->line, f->col, "the row has %zu fields where %zu "
                    "column%s expected (a field holding the delimiter must be quoted)", x->nf,
                    x->ncols, x->ncols == 1 ? " is" : "s are");
        } else {
            read_row(x);
        }
        x->first_row_seen = 1;
    }
    x->nf = 0;
    x->text_len = 0;
}

/* ---------------------------------------------------------------------------------- */
/* Scanning */

/* Hands bytes [from, to) of text to libcsv; their callbacks see position cur. */
static void feed(csv_ctx *x, const char *text, size_t from, size_t to)
{
    if (from >= to || x->st != DLS_OK)
        return;
    size_t got = csv_parse(&x->parser, text + from, to - from, on_field, on_row, x);
    if (got == to - from || x->st != DLS_OK)
        return;
    int status = csv_error(&x->parser);
    if (status != CSV_EPARSE) {
        x->st = dls__fail(x->err, DLS_ENOMEM, x->fn, "%s: libcsv: %s", x->source,
                          csv_strerror(status));
        return;
    }
    /* the bytes fed at once never hold a line end: the bad byte is on the current line */
    int col = (int)(from + got - x->line_start) + 1;
    if (x->start_quoted)
        fail_at(x, DLS_ESYNTAX, x->line, col, "malformed quote: '%c' after the closing quote "
                "of the field that starts at %d:%d (a quote inside a quoted field is written "
                "twice)", text[from + got], x->start_line, x->start_col);
    else
        fail_at(x, DLS_ESYNTAX, x->line, col, "malformed quote: a quote inside an unquoted "
                "field (quote the whole field and write its quotes twice)");
}

static int is_space(const csv_ctx *x, char c)
{
    return (c == ' ' || c == '\t') && c != x->delim;
}

/* Reads the rows of text into x. */
static void scan(csv_ctx *x, const char *text, size_t len)
{
    size_t start = 0;
    if (len >= CSV_BOM_LEN && memcmp(text, CSV_BOM, CSV_BOM_LEN) == 0) {
        /* not part of the first column's name; columns count from after it, as editors do */
        start = CSV_BOM_LEN;
        x->line_start = start;
    }
    size_t run = start; /* bytes [run, o) are still to be fed */
    for (size_t o = start; o < len && x->st == DLS_OK; o++) {
        char c = text[o];
        int col = (int)(o - x->line_start) + 1;
        if (c == '\0') {
            fail_at(x, DLS_ESYNTAX, x->line, col, "a NUL byte: the input is not text");
            break;
        }
        int eol = c == '\n' || c == '\r';
        if (x->row_fresh && c == '#' && o == x->line_start) {
            /* a comment: up to the line end, which is fed (libcsv skips it between rows) */
            feed(x, text, run, o);
            while (o + 1 < len && text[o + 1] != '\n' && text[o + 1] != '\r') {
                if (text[o + 1] == '\0')
                    break;
                o++;
            }
            run = o + 1;
            continue;
        }
        if (x->field_pending && !is_space(x, c) && !(x->row_fresh && eol)) {
            x->field_pending = 0;
            x->row_fresh = 0;
            x->start_line = x->line;
            x->start_col = col;
            x->start_quoted = c == '"';
        }
        if (c != x->delim && !eol)
            continue;
        feed(x, text, run, o);
        x->cur_line = x->line;
        x->cur_col = col;
        feed(x, text, o, o + 1);
        run = o + 1;
        if (c == '\n' || (c == '\r' && (o + 1 == len || text[o + 1] != '\n'))) {
            x->line++;
            x->line_start = o + 1;
        }
    }
    feed(x, text, run, len);
    if (x->st != DLS_OK)
        return;
    /* the end of the text ends the last row */
    x->cur_line = x->line;
    x->cur_col = (int)(len - x->line_start) + 1;
    if (csv_fini(&x->parser, on_field, on_row, x) != 0)
        fail_at(x, DLS_ESYNTAX, x->start_line, x->start_col, "malformed quote: the quoted "
                "field that starts here is never closed");
}

/* ---------------------------------------------------------------------------------- */
/* Points */

static int by_size_then_line(const void *a, const void *b)
{
    const row_rec *r = a, *s = b;
    if (r->size != s->size)
        return (r->size > s->size) - (r->size < s->size);
    return (r->line > s->line) - (r->line < s->line);
}

/* Appends " N" for each line of lines[0..n) (the first few) to a note. */
static void note_lines(dls__buf *b, const int *lines, size_t n)
{
    for (size_t k = 0; k < n && k < CSV_NOTE_LINES; k++)
        dls__buf_put(b, "%s%d", k ? ", " : "", lines[k]);
    if (n > CSV_NOTE_LINES)
        dls__buf_put(b, ", ...");
}

/* Rows of one size whose times differ by more than CSV_SPREAD_WARN, in a file without a
 * name column: the widest such size of the processor, and how many there are. */
typedef struct spread_seen {
    size_t sizes;
    double ratio, size;
    int line_lo, line_hi;
} spread_seen;

static void note_spread(const proc_rows *p, size_t g0, size_t g1, spread_seen *sp)
{
    const row_rec *r = p->rows;
    size_t lo = g0, hi = g0;
    for (size_t k = g0 + 1; k < g1; k++) {
        if (r[k].a < r[lo].a)
            lo = k;
        if (r[k].a > r[hi].a)
            hi = k;
    }
    double ratio = r[hi].a / r[lo].a;
    if (!(ratio > CSV_SPREAD_WARN))
        return;
    sp->sizes++;
    if (ratio > sp->ratio) {
        sp->ratio = ratio;
        sp->size = r[g0].size;
        sp->line_lo = r[lo].line;
        sp->line_hi = r[hi].line;
    }
}

/* The points of p's rows, into q; DLS_OK or a failure recorded in x. */
static dls_status make_points(csv_ctx *x, proc_rows *p, dls__import_proc *q)
{
    spread_seen spread = {0, 0, 0, 0, 0};
    qsort(p->rows, p->n, sizeof *p->rows, by_size_then_line);
    int by_time = x->at[COL_TIME] >= 0;
    int *bare = malloc(p->n * sizeof *bare); /* lines of the points without a band */
    if (bare == NULL) {
        fail_oom(x);
        return x->st;
    }
    size_t nbare = 0;
    for (size_t g0 = 0, g1; g0 < p->n && x->st == DLS_OK; g0 = g1) {
        const row_rec *r = p->rows;
        for (g1 = g0 + 1; g1 < p->n && r[g1].size == r[g0].size; g1++)
            ;
        double speed, low, high;
        if (by_time) {
            /* pooled: N runs in all, their mean, and the within- and between-row squares */
            double n = 0, sum = 0;
            for (size_t k = g0; k < g1; k++) {
                n += r[k].c;
                sum += r[k].c * r[k].a;
            }
            double mean = sum / n, ss = 0;
            for (size_t k = g0; k < g1; k++) {
                double d = r[k].a - mean;
                ss += (r[k].c - 1) * r[k].b * r[k].b + r[k].c * d * d;
            }
            double sd = n >= 2 ? sqrt(ss / (n - 1)) : 0;
            if (x->at[COL_NAME] < 0 && g1 > g0 + 1)
                note_spread(p, g0, g1, &spread);
            /* beyond UINT_MAX runs, Student's t is the normal quantile anyway */
            unsigned un = n > UINT_MAX ? UINT_MAX : (unsigned)n;
            dls__import_band(r[g0].size, mean, sd, un, x->confidence, &speed, &low, &high);
        } else {
            if (g1 > g0 + 1) {
                fail_at(x, DLS_EDATA, r[g0 + 1].line, r[g0 + 1].col, "processor \"%s\": size "
                        "%.17g appears twice (also line %d): a speed is one point per size",
                        p->name, r[g0].size, r[g0].line);
                break;
            }
            speed = r[g0].a;
            low = r[g0].b;
            high = r[g0].c;
        }
        if (isnan(low))
            bare[nbare++] = r[g0].line;
        if (dls__import_point(q, r[g0].size, speed, low, high, r[g0].line) != 0)
            fail_oom(x);
    }
    /* a point without a band, beside points with one, gets its speed alone as its band
     * (dls__import_commit): say so, unless the file gave no way to have bands */
    if (x->st == DLS_OK && nbare > 0 && (by_time || x->at[COL_LOW] >= 0)) {
        dls__buf b = DLS__BUF_INIT;
        dls__buf_put(&b, "%s: processor \"%s\": ", x->source, p->name);
        if (nbare == q->n)
            dls__buf_put(&b, "no point has a band (%s): the model has no bands", by_time ?
                         "each size has a single run" : "no row gives low and high");
        else {
            dls__buf_put(&b, "%zu of %zu points %s no band (%s, line%s ", nbare, q->n,
                         nbare == 1 ? "has" : "have",
                         by_time ? "a single run" : "low and high empty", nbare > 1 ? "s" : "");
            note_lines(&b, bare, nbare);
            dls__buf_put(&b, "): %s", nbare == 1 ? "its band is its speed alone"
                                                   : "their band is their speed alone");
        }
        char *s = dls__buf_take(&b);
        if (s != NULL)
            add_note(x, "%s", s);
        free(s);
    }
    if (by_time)
        q->few = nbare;
    free(bare);
    if (x->st == DLS_OK && spread.sizes > 0)
        add_note(x, "%s: processor \"%s\": at %zu size%s the rows' times differ by more than "
                 "a factor of %g (at size %.10g, %.3g times: lines %d and %d), and are averaged "
                 "into one point: if they come from different processors, add a column naming "
                 "them (name, node, host, processor or worker)", x->source, p->name,
                 spread.sizes, spread.sizes > 1 ? "s" : "", CSV_SPREAD_WARN, spread.size,
                 spread.ratio, spread.line_lo, spread.line_hi);
    return x->st;
}

/* ---------------------------------------------------------------------------------- */
/* The public calls */

void dls_csv_params_init(dls_csv_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->delimiter = ',';
    params->confidence = DLS_BENCH_DEFAULT_CONFIDENCE;
}

static dls_status check_params(const dls_csv_params *par, const char *fn, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(par, fn, dls_csv_params, err);
    if (st != DLS_OK)
        return st;
    if (par->delimiter != ',' && par->delimiter != ';' && par->delimiter != '\t')
        return dls__fail(err, DLS_EINVAL, fn, "the delimiter must be ',', ';' or a tab, not "
                         "0x%02x", (unsigned)(unsigned char)par->delimiter);
    if (!(par->confidence > 0 && par->confidence < 1))
        return dls__fail(err, DLS_EINVAL, fn, "confidence must be in (0, 1), not %.10g",
                         par->confidence);
    if (par->name != NULL) {
        char why[CSV_WHY_MAX], q[CSV_QUOTE_MAX];
        if (dls__check_name(par->name, why, sizeof why) != 0) {
            quote_text(par->name, q, sizeof q);
            return dls__fail(err, DLS_EINVAL, fn, "the name \"%s\" %s", q, why);
        }
    }
    return DLS_OK;
}

/* The context of an import of source by fn, before anything is read. */
static void ctx_init(csv_ctx *x, const char *fn, const char *source, const dls_csv_params *par,
                     dls_error *err)
{
    memset(x, 0, sizeof *x);
    x->fn = fn;
    x->source = source;
    x->delim = par->delimiter;
    x->confidence = par->confidence;
    x->err = err;
    x->line = 1;
    x->field_pending = x->row_fresh = 1;
    for (int k = 0; k < COL_KINDS; k++)
        x->at[k] = -1;
}

static void ctx_free(csv_ctx *x)
{
    for (size_t k = 0; k < x->np; k++) {
        free(x->procs[k].name);
        free(x->procs[k].rows);
    }
    free(x->procs);
    free(x->slot);
    free(x->text);
    free(x->f);
    free(x->notes);
}

/* The rows of the text, len bytes, by libcsv. */
static dls_status parse_text(csv_ctx *x, const char *text, size_t len)
{
    dls__c_numeric loc;
    /* numbers are read with strtod: make its decimal point a '.' whatever locale the
     * calling program chose (for this thread only, and only during this call) */
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(x->err, x->fn);
    dls_status st;
    /* strict: a stray quote is an error, not text; fini: so is an unclosed one */
    if (csv_init(&x->parser, CSV_STRICT | CSV_APPEND_NULL | CSV_STRICT_FINI)) {
        st = dls__fail(x->err, DLS_ENOMEM, x->fn, "libcsv: cannot start the parser");
    } else {
        csv_set_delim(&x->parser, (unsigned char)x->delim);
        scan(x, text ? text : "", len);
        csv_free(&x->parser);
        st = x->st;
    }
    dls__c_numeric_leave(&loc);
    return st;
}

/* A header and data rows were found, or a failure at the end of the text (len bytes). */
static dls_status check_found(csv_ctx *x, size_t len)
{
    int end_line = x->line, end_col = (int)(len - x->line_start) + 1;
    if (!x->have_columns)
        fail_at(x, DLS_ESYNTAX, end_line, end_col, "no header line (the input is empty): "
                "a line naming the columns expected, or give the columns");
    else if (x->data_rows == 0)
        fail_at(x, DLS_ESYNTAX, end_line, end_col, "no data row: sizes with times or speeds "
                "expected");
    return x->st;
}

/* A processor with its points for each one read, into *out (x->np of them). */
static dls_status make_procs(csv_ctx *x, dls__import_proc **out)
{
    dls__import_proc *q = calloc(x->np, sizeof *q);
    *out = q;
    if (q == NULL)
        fail_oom(x);
    for (size_t k = 0; k < x->np && x->st == DLS_OK; k++) {
        q[k].name = strdup(x->procs[k].name);
        dls__buf b = DLS__BUF_INIT;
        dls__buf_put(&b, "%s, %zu row%s", x->source, x->procs[k].n,
                     x->procs[k].n == 1 ? "" : "s");
        q[k].source = dls__buf_take(&b);
        q[k].entries = x->procs[k].n;
        if (q[k].name == NULL || q[k].source == NULL)
            fail_oom(x);
        else
            make_points(x, &x->procs[k], &q[k]);
    }
    return x->st;
}

/* The import of text, len bytes named source; default_from names the processor when
 * neither a name column nor params->name does (its base name without the extension). */
static dls_status import_text(const char *fn, const char *text, size_t len,
                              const char *source, const dls_csv_params *params,
                              dls_platform *platform, dls_import_report **report,
                              dls_error *err)
{
    dls_csv_params par;
    if (params != NULL)
        par = *params;
    else
        dls_csv_params_init(&par);
    dls_status st = check_params(&par, fn, err);
    if (st != DLS_OK)
        return st;
    if (len > DLS__IMPORT_FILE_MAX)
        return dls__fail(err, DLS_ELIMIT, fn, "%s: %zu bytes, more than the %zu an import "
                         "reads", source, len, (size_t)DLS__IMPORT_FILE_MAX);
    csv_ctx x;
    ctx_init(&x, fn, source, &par, err);
    char *base = NULL;
    if (par.name == NULL) {
        base = dls__import_base_name(source, 1);
        if (base == NULL)
            return dls__oom(err, fn);
    }
    x.default_name = par.name ? par.name : base;
    if (par.columns != NULL)
        st = parse_column_list(&x, par.columns);
    if (st == DLS_OK)
        st = parse_text(&x, text, len);
    if (st == DLS_OK)
        st = check_found(&x, len);
    dls__import_proc *q = NULL;
    if (st == DLS_OK)
        st = make_procs(&x, &q);
    if (st == DLS_OK && x.notes_left_out)
        dls__note_add(&x.notes, "%s: %zu more notes like these left out", source,
                      x.notes_left_out);
    if (st == DLS_OK)
        st = dls__import_commit(q, x.np, par.replace, platform, x.notes, report, fn, source,
                                err);
    dls__import_procs_free(q, x.np);
    ctx_free(&x);
    free(base);
    return st;
}

dls_status dls_import_csv_file(const char *path, const dls_csv_params *params,
                               dls_platform *platform, dls_import_report **report,
                               dls_error *err)
{
    static const char fn[] = "dls_import_csv_file";
    if (report != NULL)
        *report = NULL;
    if (path == NULL || platform == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    char *text;
    size_t len;
    dls_status st = dls__import_read(path, &text, &len, err);
    if (st != DLS_OK)
        return dls__error_retag(err, st, fn);
    st = import_text(fn, text, len, path, params, platform, report, err);
    free(text);
    return st;
}

dls_status dls_import_csv_string(const char *text, size_t len, const char *source,
                                 const dls_csv_params *params, dls_platform *platform,
                                 dls_import_report **report, dls_error *err)
{
    static const char fn[] = "dls_import_csv_string";
    if (report != NULL)
        *report = NULL;
    if ((text == NULL && len > 0) || source == NULL || platform == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    return import_text(fn, text, len, source, params, platform, report, err);
}

/* Whether a name must be quoted to read back as it is: it holds a delimiter (';' too, for
 * readers that take it), a quote or a line end, libcsv would trim its surrounding spaces,
 * or a '#' would make its line a comment. */
static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || s[0] == '#' || s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' ||
        s[n - 1] == '\t')
        return 1;
    return strpbrk(s, ",;\"\r\n") != NULL;
}

static void put_name(dls__buf *b, const char *s)
{
    if (!needs_quotes(s)) {
        dls__buf_add(b, s, strlen(s));
        return;
    }
    dls__buf_add(b, "\"", 1);
    for (const char *q; (q = strchr(s, '"')) != NULL; s = q + 1) {
        dls__buf_add(b, s, (size_t)(q - s));
        dls__buf_add(b, "\"\"", 2);
    }
    dls__buf_add(b, s, strlen(s));
    dls__buf_add(b, "\"", 1);
}

dls_status dls__platform_csv(const dls_platform *platform, size_t i, char **out,
                             const char *fn, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    size_t np = dls_platform_count(platform);
    int all = i == (size_t)-1;
    if (!all && i >= np)
        return dls__fail(err, DLS_EINVAL, fn, "processor %zu is out of range (the platform "
                         "has %zu)", i, np);
    size_t first = all ? 0 : i, last = all ? np : i + 1;
    for (size_t k = first; k < last; k++) {
        const dls_model *m = dls_platform_model(platform, k);
        if (dls_model_get_kind(m) != DLS_MODEL_POINTS) {
            char q[CSV_QUOTE_MAX];
            quote_text(dls_platform_name(platform, k), q, sizeof q);
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)k, fn, "processor \"%s\" has a "
                                "%s model: only speed points are written as CSV", q,
                                dls_model_kind_name(dls_model_get_kind(m)));
        }
    }
    /* numbers are written with printf: make its decimal point a '.' whatever locale the
     * calling program chose (for this thread only, and only during this call) */
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(err, fn);
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "name,size,speed,low,high\n");
    for (size_t k = first; k < last && !b.failed; k++) {
        const char *name = dls_platform_name(platform, k);
        size_t n;
        const double *sz, *sp, *lo, *hi;
        dls_model_get_points(dls_platform_model(platform, k), &n, &sz, &sp, &lo, &hi);
        for (size_t j = 0; j < n && !b.failed; j++) {
            put_name(&b, name);
            /* each number in the fewest digits that read back as the same double */
            char t[4][48];
            dls__buf_put(&b, ",%s,%s", dls__shortest_text(sz[j], t[0], sizeof t[0]),
                         dls__shortest_text(sp[j], t[1], sizeof t[1]));
            if (lo != NULL)
                dls__buf_put(&b, ",%s,%s\n", dls__shortest_text(lo[j], t[2], sizeof t[2]),
                             dls__shortest_text(hi[j], t[3], sizeof t[3]));
            else
                dls__buf_put(&b, ",,\n");
        }
    }
    dls__c_numeric_leave(&loc);
    char *s = dls__buf_take(&b);
    if (s == NULL)
        return dls__oom(err, fn);
    *out = s;
    return DLS_OK;
}
