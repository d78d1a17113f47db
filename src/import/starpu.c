/* StarPU performance model files (format version 45, StarPU 1.3 and 1.4) into processors.
 *
 * The file is the text StarPU's dump_model_file() writes: comment lines start with '#', and
 * the values follow in order: the version; the number of combinations; per combination the
 * number of devices, then per device its type, id and number of cores, then the number of
 * implementations; per implementation the number of history entries, the linear regression
 * (sumlnx sumlnx2 sumlny sumlnxlny alpha beta nsample minx maxx), the non-linear one
 * (a b c), the multiple regression (a count, then as many coefficients), and the entries,
 * one a line: footprint (hex) size [flops] mean dev sum sum2 n, times in microseconds.
 * StarPU reads it with fscanf, so values other than entries may be spread over lines; an
 * entry is one line (fgets). Counts are never trusted for allocation: everything grows as
 * it is read, so that a file can cost no more than its size. */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/grow.h"
#include "core/locale.h"
#include "import/import_impl.h"
#include "platform/platform_impl.h"

/* The one format version StarPU 1.3 and 1.4 write (_STARPU_PERFMODEL_VERSION). */
#define SP_VERSION DLS__STARPU_VERSION
/* Microseconds in a second: StarPU's times are in microseconds. */
#define SP_US_PER_S DLS__STARPU_US_PER_S
/* Device types some StarPU version defines (starpu_worker_archtype), by value; NULL for a
 * value none defines. 3 was MIC in 1.3, 4 Maxeler FPGA in 1.4. */
static const char *const sp_type_name[] = {"cpu", "cuda", "opencl", "mic",
                                           "max_fpga", "mpi_ms", "tcpip_ms", "hip"};
#define SP_NTYPES (sizeof sp_type_name / sizeof sp_type_name[0])

const char *dls__starpu_type_name(long type)
{
    return type >= 0 && (size_t)type < SP_NTYPES ? sp_type_name[type] : NULL;
}

long dls__starpu_type(const char *name, size_t len)
{
    for (size_t t = 0; t < SP_NTYPES; t++)
        if (sp_type_name[t] && strlen(sp_type_name[t]) == len &&
            strncmp(sp_type_name[t], name, len) == 0)
            return (long)t;
    return -1;
}
/* StarPU trusts a regression only over sizes spread by more than this ratio (its
 * VALID_REGRESSION: minx < 9/10 maxx). */
#define SP_REGRESSION_SPREAD 0.9
/* A token longer than this is no number of a model file. */
#define SP_TOKEN_MAX 128

typedef struct sp_entry {
    double size;          /* bytes */
    double mean, dev;     /* microseconds; dev is the population standard deviation */
    double sum, sum2;
    unsigned long n;
    int line;
} sp_entry;

typedef struct sp_impl {
    size_t nentries, cap;
    sp_entry *e;
    double alpha, beta, a, b, c, minx, maxx;
    unsigned long nsample;
    int line;             /* of its entry count */
} sp_impl;

typedef struct sp_dev {
    long type, devid, ncores;
} sp_dev;

typedef struct sp_comb {
    size_t ndev, devcap;
    sp_dev *dev;
    size_t nimpl, implcap;
    sp_impl *impl;
    int line;
    char arch[96];        /* "cpu0", "cpu0_cuda0", as StarPU names the devices */
} sp_comb;

typedef struct sp_model {
    size_t ncomb, cap;
    sp_comb *comb;
} sp_model;

static void sp_model_free(sp_model *m)
{
    for (size_t k = 0; k < m->ncomb; k++) {
        for (size_t i = 0; i < m->comb[k].nimpl; i++)
            free(m->comb[k].impl[i].e);
        free(m->comb[k].impl);
        free(m->comb[k].dev);
    }
    free(m->comb);
    memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------------------------------- */
/* Reading tokens                                                                     */

typedef struct cursor {
    const char *p, *end;
    const char *line_start;
    int line;
    const char *source;
    dls_error *err;
} cursor;

/* Skips blanks, line ends and comment lines (a '#' to the end of its line). */
static void skip(cursor *c)
{
    while (c->p < c->end) {
        char ch = *c->p;
        if (ch == '\n') {
            c->p++;
            c->line++;
            c->line_start = c->p;
        } else if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f') {
            c->p++;
        } else if (ch == '#') {
            while (c->p < c->end && *c->p != '\n')
                c->p++;
        } else {
            return;
        }
    }
}

static int column(const cursor *c, const char *at)
{
    return (int)(at - c->line_start) + 1;
}

static dls_status fail_here(cursor *c, const char *at, dls_status st, const char *fmt, ...)
    DLS__PRINTF(4, 5);

static dls_status fail_here(cursor *c, const char *at, dls_status st, const char *fmt, ...)
{
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dls__fail_at(c->err, st, c->line, column(c, at), -1, NULL, "%s:%d:%d: %s", c->source,
                        c->line, column(c, at), what);
}

/* Text of the file as a message quotes it (escaped, cut short: see dls__quote_name). */
#define SP_QUOTE_MAX 96
static const char *quoted(const char *s, char out[SP_QUOTE_MAX])
{
    dls__quote_name(s, out, SP_QUOTE_MAX);
    return out;
}

/* The next token (a run of non-blank characters), copied NUL-terminated into buf; at the
 * end of the text, a "truncated" failure naming what was expected. */
static dls_status token(cursor *c, const char *what, char *buf, const char **at)
{
    skip(c);
    *at = c->p;
    if (c->p >= c->end)
        return fail_here(c, c->p, DLS_ESYNTAX, "the file ends where %s was expected "
                         "(truncated?)", what);
    const char *s = c->p;
    while (c->p < c->end && !isspace((unsigned char)*c->p))
        c->p++;
    size_t n = (size_t)(c->p - s);
    if (memchr(s, '\0', n))
        return fail_here(c, s + strlen(s), DLS_ESYNTAX, "a NUL byte where %s was expected",
                         what);
    if (n >= SP_TOKEN_MAX)
        return fail_here(c, s, DLS_ESYNTAX, "%s expected, found a word of %zu bytes", what, n);
    memcpy(buf, s, n);
    buf[n] = '\0';
    return DLS_OK;
}

static dls_status read_double(cursor *c, const char *what, double *v)
{
    char buf[SP_TOKEN_MAX], q[SP_QUOTE_MAX];
    const char *at;
    dls_status st = token(c, what, buf, &at);
    if (st != DLS_OK)
        return st;
    char *end;
    errno = 0;
    double x = strtod(buf, &end);
    if (end == buf || *end != '\0')
        return fail_here(c, at, DLS_ESYNTAX, "%s expected, found \"%s\"", what,
                         quoted(buf, q));
    if (errno == ERANGE && isinf(x))
        return fail_here(c, at, DLS_EDATA, "%s \"%s\" is out of range", what, quoted(buf, q));
    *v = x;
    return DLS_OK;
}

/* A whole number in [0, max]. */
static dls_status read_count(cursor *c, const char *what, unsigned long max, unsigned long *v)
{
    char buf[SP_TOKEN_MAX], q[SP_QUOTE_MAX];
    const char *at;
    dls_status st = token(c, what, buf, &at);
    if (st != DLS_OK)
        return st;
    const char *d = buf;
    if (*d == '+')
        d++;
    if (!isdigit((unsigned char)*d))
        return fail_here(c, at, DLS_ESYNTAX, "%s (a whole number) expected, found \"%s\"",
                         what, quoted(buf, q));
    char *end;
    errno = 0;
    unsigned long long x = strtoull(d, &end, 10);
    if (*end != '\0')
        return fail_here(c, at, DLS_ESYNTAX, "%s (a whole number) expected, found \"%s\"",
                         what, quoted(buf, q));
    if (errno == ERANGE || x > max)
        return fail_here(c, at, DLS_EDATA, "%s %s is out of range (at most %lu)", what, buf,
                         max);
    *v = (unsigned long)x;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The file's structure                                                               */

/* A history entry: one line of 8 fields, or 7 (without flops; StarPU reads both). */
static dls_status read_entry(cursor *c, const char *arch, sp_entry *e)
{
    char qt[SP_QUOTE_MAX];
    skip(c);
    if (c->p >= c->end)
        return fail_here(c, c->p, DLS_ESYNTAX, "the file ends where a history entry of %s was "
                         "expected (truncated, or an entry count larger than the entries?)",
                         arch);
    const char *start = c->p, *eol = memchr(c->p, '\n', (size_t)(c->end - c->p));
    if (eol == NULL)
        eol = c->end;
    char field[8][SP_TOKEN_MAX];
    const char *at[8];
    int nf = 0;
    const char *q = start;
    while (q < eol) {
        while (q < eol && isspace((unsigned char)*q))
            q++;
        if (q >= eol)
            break;
        const char *s = q;
        while (q < eol && !isspace((unsigned char)*q))
            q++;
        size_t n = (size_t)(q - s);
        if (nf == 8)
            return fail_here(c, s, DLS_ESYNTAX, "a history entry of %s has more than 8 fields",
                             arch);
        if (memchr(s, '\0', n))
            return fail_here(c, s, DLS_ESYNTAX, "a NUL byte in a history entry of %s", arch);
        if (n >= SP_TOKEN_MAX)
            return fail_here(c, s, DLS_ESYNTAX, "a field of %zu bytes in a history entry of %s",
                             n, arch);
        memcpy(field[nf], s, n);
        field[nf][n] = '\0';
        at[nf++] = s;
    }
    if (nf != 8 && nf != 7) {
        char line[SP_QUOTE_MAX];
        size_t n = (size_t)(eol - start) < sizeof line ? (size_t)(eol - start) : sizeof line - 1;
        memcpy(line, start, n);
        line[n] = '\0';
        return fail_here(c, start, DLS_ESYNTAX, "a history entry of %s (footprint size flops "
                         "mean dev sum sum2 n) expected, found %d field%s: \"%s\"", arch, nf,
                         nf == 1 ? "" : "s", quoted(line, qt));
    }
    static const char *const name8[] = {"footprint", "size", "flops", "mean", "deviation",
                                        "sum", "sum2", "sample count"};
    static const char *const name7[] = {"footprint", "size", "mean", "deviation", "sum",
                                        "sum2", "sample count"};
    const char *const *name = nf == 8 ? name8 : name7;
    double v[8];
    for (int k = 0; k < nf; k++) {
        char *end;
        errno = 0;
        if (k == 0) {
            (void)strtoul(field[k], &end, 16);
            v[k] = 0;
        } else if (k == 1 || k == nf - 1) {
            if (!isdigit((unsigned char)field[k][0]))
                end = field[k];
            else
                v[k] = (double)strtoull(field[k], &end, 10);
        } else {
            v[k] = strtod(field[k], &end);
        }
        if (end == field[k] || *end != '\0' || errno == ERANGE)
            return fail_here(c, at[k], DLS_ESYNTAX, "history entry of %s: the %s \"%s\" is not "
                             "a%s number", arch, name[k], quoted(field[k], qt),
                             k == 0 ? " hexadecimal" : (k == 1 || k == nf - 1) ? " whole" : "");
    }
    int o = nf == 8 ? 1 : 0; /* offset of mean..n */
    e->size = v[1];
    e->mean = v[2 + o];
    e->dev = v[3 + o];
    e->sum = v[4 + o];
    e->sum2 = v[5 + o];
    e->n = (unsigned long)v[6 + o];
    e->line = c->line;
    /* what dlsched cannot take: StarPU itself asserts the signs */
    const char *bad = NULL;
    int bk = 0;
    if (!(e->size > 0))
        bad = "a size of 0 bytes (a task without data) has no speed", bk = 1;
    else if (!(isfinite(e->mean) && (e->mean > 0 || (e->n == 0 && e->mean == 0))))
        bad = e->n ? "the mean time must be finite and > 0" : "the mean time must be finite",
        bk = 2 + o;
    else if (!(isfinite(e->dev) && e->dev >= 0))
        bad = "the deviation must be finite and >= 0", bk = 3 + o;
    else if (!(isfinite(e->sum) && e->sum >= 0))
        bad = "the sum of the times must be finite and >= 0", bk = 4 + o;
    else if (!(isfinite(e->sum2) && e->sum2 >= 0))
        bad = "the sum of the squared times must be finite and >= 0", bk = 5 + o;
    if (bad)
        return fail_here(c, at[bk], DLS_EDATA, "history entry of %s (size %s): %s, not %s", arch,
                         field[1], bad, field[bk]);
    c->p = eol;
    return DLS_OK;
}

static dls_status read_impl(cursor *c, const char *arch, sp_impl *im)
{
    char what[320];
    unsigned long nentries;
    im->line = (skip(c), c->line);
    snprintf(what, sizeof what, "the number of history entries of %s", arch);
    dls_status st = read_count(c, what, ULONG_MAX, &nentries);
    double sums[4];
    static const char *const reg[] = {"sumlnx", "sumlnx2", "sumlny", "sumlnxlny"};
    for (int k = 0; k < 4 && st == DLS_OK; k++) {
        snprintf(what, sizeof what, "the linear regression's %s of %s", reg[k], arch);
        st = read_double(c, what, &sums[k]);
    }
    if (st == DLS_OK)
        st = read_double(c, "the linear regression's alpha", &im->alpha);
    if (st == DLS_OK)
        st = read_double(c, "the linear regression's beta", &im->beta);
    if (st == DLS_OK)
        st = read_count(c, "the linear regression's sample count", ULONG_MAX, &im->nsample);
    unsigned long minx = 0, maxx = 0;
    if (st == DLS_OK)
        st = read_count(c, "the linear regression's minx", ULONG_MAX, &minx);
    if (st == DLS_OK)
        st = read_count(c, "the linear regression's maxx", ULONG_MAX, &maxx);
    im->minx = (double)minx;
    im->maxx = (double)maxx;
    if (st == DLS_OK)
        st = read_double(c, "the non-linear regression's a", &im->a);
    if (st == DLS_OK)
        st = read_double(c, "the non-linear regression's b", &im->b);
    if (st == DLS_OK)
        st = read_double(c, "the non-linear regression's c", &im->c);
    unsigned long ncoeff = 0;
    if (st == DLS_OK)
        st = read_count(c, "the multiple regression's number of coefficients", ULONG_MAX,
                        &ncoeff);
    /* the multiple regression (of the codelet's own parameters, not of a size) is skipped */
    for (unsigned long k = 0; k < ncoeff && st == DLS_OK; k++) {
        double coeff;
        st = read_double(c, "a coefficient of the multiple regression", &coeff);
    }
    for (unsigned long k = 0; k < nentries && st == DLS_OK; k++) {
        if (im->nentries == im->cap) {
            sp_entry *g = dls__grow(im->e, &im->cap, im->nentries + 1, sizeof *g);
            if (g == NULL)
                return dls__oom(c->err, c->source);
            im->e = g;
        }
        st = read_entry(c, arch, &im->e[im->nentries]);
        if (st == DLS_OK)
            im->nentries++;
    }
    return st;
}

static dls_status read_comb(cursor *c, size_t k, sp_comb *cb)
{
    char what[320];
    unsigned long ndev;
    cb->line = (skip(c), c->line);
    snprintf(what, sizeof what, "the number of devices of combination %zu", k);
    dls_status st = read_count(c, what, ULONG_MAX, &ndev);
    if (st == DLS_OK && ndev == 0)
        return fail_here(c, c->p - 1, DLS_EDATA, "combination %zu has no device", k);
    size_t w = 0;
    for (unsigned long d = 0; d < ndev && st == DLS_OK; d++) {
        if (cb->ndev == cb->devcap) {
            sp_dev *g = dls__grow(cb->dev, &cb->devcap, cb->ndev + 1, sizeof *g);
            if (g == NULL)
                return dls__oom(c->err, c->source);
            cb->dev = g;
        }
        sp_dev *dv = &cb->dev[cb->ndev];
        unsigned long type, devid, ncores;
        snprintf(what, sizeof what, "the type of device %lu of combination %zu", d, k);
        st = read_count(c, what, ULONG_MAX, &type);
        if (st == DLS_OK && (type >= SP_NTYPES || sp_type_name[type] == NULL))
            return fail_here(c, c->p - 1, DLS_EDATA, "device %lu of combination %zu has type "
                             "%lu, which no StarPU version defines (0 to %zu)", d, k, type,
                             SP_NTYPES - 1);
        snprintf(what, sizeof what, "the id of device %lu of combination %zu", d, k);
        if (st == DLS_OK)
            st = read_count(c, what, INT32_MAX, &devid);
        snprintf(what, sizeof what, "the number of cores of device %lu of combination %zu", d,
                 k);
        if (st == DLS_OK)
            st = read_count(c, what, INT32_MAX, &ncores);
        if (st != DLS_OK)
            break;
        dv->type = (long)type;
        dv->devid = (long)devid;
        dv->ncores = (long)ncores;
        cb->ndev++;
        int n = snprintf(cb->arch + w, sizeof cb->arch - w, "%s%s%ld", d ? "_" : "",
                         sp_type_name[type], dv->devid);
        if (n < 0 || (size_t)n >= sizeof cb->arch - w)
            return fail_here(c, c->p - 1, DLS_ELIMIT, "combination %zu has too many devices "
                             "for a processor's name", k);
        w += (size_t)n;
    }
    unsigned long nimpl = 0;
    snprintf(what, sizeof what, "the number of implementations of combination %zu (%s)", k,
             cb->arch);
    if (st == DLS_OK)
        st = read_count(c, what, ULONG_MAX, &nimpl);
    for (unsigned long i = 0; i < nimpl && st == DLS_OK; i++) {
        if (cb->nimpl == cb->implcap) {
            sp_impl *g = dls__grow(cb->impl, &cb->implcap, cb->nimpl + 1, sizeof *g);
            if (g == NULL)
                return dls__oom(c->err, c->source);
            cb->impl = g;
        }
        memset(&cb->impl[cb->nimpl], 0, sizeof cb->impl[cb->nimpl]);
        char arch[200];
        snprintf(arch, sizeof arch, "%s_impl%lu (combination %zu)", cb->arch, i, k);
        cb->nimpl++; /* counted at once, so that its entries are freed on failure */
        st = read_impl(c, arch, &cb->impl[cb->nimpl - 1]);
    }
    return st;
}

static dls_status parse(cursor *c, sp_model *m)
{
    unsigned long version = 0, ncomb = 0;
    dls_status st = read_count(c, "the performance model version", ULONG_MAX, &version);
    if (st == DLS_OK && version != SP_VERSION)
        return fail_here(c, c->p - 1, DLS_EDATA, "performance model version %lu: dlsched reads "
                         "version %d, that of StarPU 1.3 and 1.4", version, SP_VERSION);
    if (st == DLS_OK)
        st = read_count(c, "the number of combinations", ULONG_MAX, &ncomb);
    for (unsigned long k = 0; k < ncomb && st == DLS_OK; k++) {
        if (m->ncomb == m->cap) {
            sp_comb *g = dls__grow(m->comb, &m->cap, m->ncomb + 1, sizeof *g);
            if (g == NULL)
                return dls__oom(c->err, c->source);
            m->comb = g;
        }
        memset(&m->comb[m->ncomb], 0, sizeof m->comb[m->ncomb]);
        m->ncomb++;
        st = read_comb(c, (size_t)k, &m->comb[m->ncomb - 1]);
    }
    if (st == DLS_OK) {
        skip(c);
        if (c->p < c->end)
            return fail_here(c, c->p, DLS_ESYNTAX, "text after the last combination (a count "
                             "smaller than what follows it?)");
    }
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* Into processors                                                                    */

void dls_starpu_params_init(dls_starpu_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->arch = NULL;
    p->impl = 0;
    p->size_unit = DLS_SIZE_UNIT_BYTES;
    p->element_size = DLS_DEFAULT_ELEMENT_SIZE;
    p->name = NULL;
    p->confidence = DLS_BENCH_DEFAULT_CONFIDENCE;
    p->min_samples = DLS_IMPORT_DEFAULT_MIN_SAMPLES;
    p->keep_few = 0;
    p->regression_points = DLS_IMPORT_DEFAULT_REGRESSION_POINTS;
    p->replace = 0;
}

static dls_status check_params(const dls_starpu_params *p, const char *fn, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, fn, dls_starpu_params, err);
    if (st != DLS_OK)
        return st;
    if (p->size_unit != DLS_SIZE_UNIT_BYTES && p->size_unit != DLS_SIZE_UNIT_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "size_unit %d is not a dls_size_unit",
                         (int)p->size_unit);
    if (!(isfinite(p->element_size) && p->element_size > 0))
        return dls__fail(err, DLS_EINVAL, fn, "element_size must be finite and > 0, not %.10g",
                         p->element_size);
    if (!(p->confidence > 0 && p->confidence < 1))
        return dls__fail(err, DLS_EINVAL, fn, "confidence must be in (0, 1), not %.10g",
                         p->confidence);
    if (p->min_samples < 1)
        return dls__fail(err, DLS_EINVAL, fn, "min_samples must be at least 1");
    if (p->regression_points < 2 || p->regression_points > DLS_IMPORT_MAX_REGRESSION_POINTS)
        return dls__fail(err, DLS_EINVAL, fn, "regression_points must be in [2, %u], not %u",
                         DLS_IMPORT_MAX_REGRESSION_POINTS, p->regression_points);
    return DLS_OK;
}

/* Whether the combination is the one params->arch selects (NULL: every one). */
static int selected(const sp_comb *cb, size_t k, const char *arch)
{
    if (arch == NULL)
        return 1;
    char combk[32];
    snprintf(combk, sizeof combk, "comb%zu", k);
    return strcmp(arch, cb->arch) == 0 || strcmp(arch, combk) == 0;
}

/* Merges the entries of equal sizes (StarPU keys entries by footprint: data of different
 * shapes can weigh the same bytes): counts add, and the mean and the population deviation
 * are those of all the samples. Returns the number of entries merged away. */
static size_t merge_equal_sizes(sp_entry *e, size_t n)
{
    size_t w = 0;
    for (size_t r = 0; r < n; r++) {
        size_t j;
        for (j = 0; j < w; j++)
            if (e[j].size == e[r].size)
                break;
        if (j == w) {
            e[w++] = e[r];
            continue;
        }
        double n1 = (double)e[j].n, n2 = (double)e[r].n, N = n1 + n2;
        double m = (n1 * e[j].mean + n2 * e[r].mean) / N;
        double second = (n1 * (e[j].dev * e[j].dev + e[j].mean * e[j].mean) +
                         n2 * (e[r].dev * e[r].dev + e[r].mean * e[r].mean)) / N;
        e[j].mean = m;
        e[j].dev = sqrt(fmax(0, second - m * m));
        e[j].n += e[r].n;
        e[j].sum += e[r].sum;
        e[j].sum2 += e[r].sum2;
    }
    return n - w;
}

static int by_entry_size(const void *a, const void *b)
{
    const sp_entry *x = a, *y = b;
    return (x->size > y->size) - (x->size < y->size);
}

/* The points of one implementation from its history. */
static dls_status from_history(sp_impl *im, const dls_starpu_params *p, double unit,
                               dls__import_proc *pr, dls__buf *notes, const char *fn,
                               dls_error *err)
{
    /* StarPU keeps the first run of a size out of the history ("very often quite bogus"):
     * an entry of no sample (mean 0) says only that the size was seen */
    size_t empty = 0, w = 0;
    for (size_t k = 0; k < im->nentries; k++)
        if (im->e[k].n == 0)
            empty++;
        else
            im->e[w++] = im->e[k];
    size_t merged = merge_equal_sizes(im->e, w);
    size_t n = w - merged;
    qsort(im->e, n, sizeof *im->e, by_entry_size);
    dls__buf few = DLS__BUF_INIT;
    for (size_t k = 0; k < n; k++) {
        const sp_entry *e = &im->e[k];
        double size = e->size / unit;
        if (e->n < p->min_samples) {
            pr->few++;
            dls__buf_put(&few, "%s%.17g", few.len ? ", " : "", size);
            if (!p->keep_few)
                continue;
        }
        double mean = e->mean / SP_US_PER_S;
        /* StarPU's deviation is the samples' population deviation; the band wants the
         * sample standard deviation */
        double sd = e->n > 1 ? e->dev / SP_US_PER_S * sqrt((double)e->n / (double)(e->n - 1))
                             : 0;
        double speed, low, high;
        unsigned cnt = e->n > UINT_MAX ? UINT_MAX : (unsigned)e->n;
        dls__import_band(size, mean, sd, cnt, p->confidence, &speed, &low, &high);
        if (dls__import_point(pr, size, speed, low, high, e->line) != 0) {
            dls__buf_free(&few);
            return dls__oom(err, fn);
        }
    }
    pr->entries = im->nentries;
    size_t few_samples = pr->few;
    pr->few += empty;
    if (empty)
        dls__buf_put(notes, "%s: %zu entr%s without a sample (StarPU keeps the first run of a "
                     "size out of its history) dropped\n", pr->name, empty,
                     empty == 1 ? "y" : "ies");
    if (merged)
        dls__buf_put(notes, "%s: %zu entr%s merged into one of the same size (data of other "
                     "shapes with as many bytes)\n", pr->name, merged, merged == 1 ? "y" : "ies");
    if (few_samples)
        dls__buf_put(notes, "%s: %zu of %zu entr%s with fewer than %u samples %s (size%s %s)%s\n",
                     pr->name, few_samples, n, n == 1 ? "y" : "ies", p->min_samples,
                     p->keep_few ? "kept, their band their speed alone where they have one "
                                   "sample"
                                 : "dropped",
                     few_samples == 1 ? "" : "s", few.s ? few.s : "",
                     p->keep_few ? "" : "; keep them with keep_few (--keep-few)");
    dls__buf_free(&few);
    for (size_t k = 0; k < pr->n && few_samples == 0; k++) /* said above otherwise */
        if (isnan(pr->low[k])) {
            dls__buf_put(notes, "%s: points from single samples have no spread: their band "
                         "is their speed alone\n", pr->name);
            break;
        }
    return DLS_OK;
}

/* Time in microseconds of the regression at x bytes: the non-linear one a x^b + c when
 * valid, else the linear one alpha x^beta; NaN when neither is. */
static double regression_time(const sp_impl *im, int nl, double x)
{
    return nl ? im->a * pow(x, im->b) + im->c : im->alpha * pow(x, im->beta);
}

/* Points sampled from a regression over its measured sizes, when it is usable; returns 1
 * when it was, 0 when not (nothing added). */
static int from_regression(const sp_impl *im, const dls_starpu_params *p, double unit,
                           dls__import_proc *pr, dls__buf *notes, int *nomem)
{
    int spread = im->minx > 0 && im->minx < SP_REGRESSION_SPREAD * im->maxx;
    int nl = isfinite(im->a) && isfinite(im->b) && isfinite(im->c) && spread;
    int lin = !nl && isfinite(im->alpha) && isfinite(im->beta) && im->alpha > 0 && spread;
    if (!nl && !lin)
        return 0;
    unsigned m = p->regression_points;
    size_t added = 0;
    for (unsigned k = 0; k < m; k++) {
        /* geometric spacing: the sizes a model is used at span decades */
        double x = im->minx * pow(im->maxx / im->minx, (double)k / (double)(m - 1));
        if (k == m - 1)
            x = im->maxx;
        double t = regression_time(im, nl, x);
        if (!(isfinite(t) && t > 0))
            continue;
        if (dls__import_point(pr, x / unit, (x / unit) / (t / SP_US_PER_S), NAN, NAN, im->line)) {
            *nomem = 1;
            return 1;
        }
        added++;
    }
    if (added == 0) {
        pr->n = 0;
        return 0;
    }
    pr->from_regression = 1;
    if (nl)
        dls__buf_put(notes, "%s: no history; %zu points sampled from StarPU's non-linear "
                     "regression time = %.6g size^%.6g + %.6g us over its measured sizes "
                     "[%.17g, %.17g] bytes, without a band\n", pr->name, added, im->a, im->b,
                     im->c, im->minx, im->maxx);
    else
        dls__buf_put(notes, "%s: no history; %zu points sampled from StarPU's linear "
                     "regression time = %.6g size^%.6g us over its measured sizes "
                     "[%.17g, %.17g] bytes, without a band\n", pr->name, added, im->alpha,
                     im->beta, im->minx, im->maxx);
    return 1;
}

/* An import under way: the model read, the processors made of its sections, the notes. */
typedef struct sp_import {
    const char *fn, *source;
    const dls_starpu_params *params;
    sp_model m;
    double unit;             /* bytes of a size unit */
    char *symbol;            /* the file's base name, for processors' names */
    dls__import_proc *procs; /* one per combination at most */
    size_t np, chosen;       /* processors made, combinations selected */
    dls__buf notes;
    dls_error *err;
} sp_import;

/* The model file read with C numbers (strtod's decimal point a '.', whatever the locale). */
static dls_status read_model(sp_import *s, const char *text, size_t len)
{
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0)
        return dls__oom(s->err, s->fn);
    cursor c = {text, text + len, text, 1, s->source, s->err};
    dls_status st = parse(&c, &s->m);
    dls__c_numeric_leave(&loc);
    return st;
}

/* The processor of combination k's section: named NAME.ARCH or SYMBOL.ARCH, with _implK
 * and, for two combinations of the same devices (other core counts), _combK. */
static dls_status name_section(const sp_import *s, size_t k, const char *section,
                               dls__import_proc *pr)
{
    const dls_starpu_params *params = s->params;
    const sp_comb *cb = &s->m.comb[k];
    int clash = 0;
    for (size_t j = 0; j < s->m.ncomb; j++)
        if (j != k && strcmp(s->m.comb[j].arch, cb->arch) == 0 &&
            selected(&s->m.comb[j], j, params->arch))
            clash = 1;
    dls__buf nm = DLS__BUF_INIT;
    dls__buf_put(&nm, "%s.%s", params->name ? params->name : s->symbol, cb->arch);
    if (params->impl)
        dls__buf_put(&nm, "_impl%u", params->impl);
    if (clash)
        dls__buf_put(&nm, "_comb%zu", k);
    pr->name = dls__buf_take(&nm);
    pr->source = strdup(section);
    if (pr->name == NULL || pr->source == NULL)
        return dls__oom(s->err, s->fn);
    return DLS_OK;
}

/* The points of an implementation: its history, or without one its regression. */
static dls_status section_points(sp_import *s, sp_impl *im, dls__import_proc *pr)
{
    if (im->nentries > 0)
        return from_history(im, s->params, s->unit, pr, &s->notes, s->fn, s->err);
    int nomem = 0;
    if (from_regression(im, s->params, s->unit, pr, &s->notes, &nomem) && nomem)
        return dls__oom(s->err, s->fn);
    return DLS_OK;
}

/* Combination k, when selected: a processor from its implementation params->impl, or a
 * note (an error when params->arch chose it) saying why it has none. */
static dls_status import_comb(sp_import *s, size_t k)
{
    const dls_starpu_params *params = s->params;
    sp_comb *cb = &s->m.comb[k];
    if (!selected(cb, k, params->arch))
        return DLS_OK;
    s->chosen++;
    char section[192];
    snprintf(section, sizeof section, "%s_impl%u (combination %zu)", cb->arch, params->impl,
             k);
    if (params->impl >= cb->nimpl) {
        if (params->arch)
            return dls__fail(s->err, DLS_EINVAL, s->fn, "%s: combination %zu (%s) has %zu "
                             "implementation%s, no implementation %u", s->source, k,
                             cb->arch, cb->nimpl, cb->nimpl == 1 ? "" : "s", params->impl);
        dls__buf_put(&s->notes, "%s: combination %zu (%s) skipped: it has no implementation "
                     "%u\n", s->source, k, cb->arch, params->impl);
        return DLS_OK;
    }
    dls__import_proc *pr = &s->procs[s->np++]; /* counted at once, so that it is freed */
    dls_status st = name_section(s, k, section, pr);
    sp_impl *im = &cb->impl[params->impl];
    if (st == DLS_OK)
        st = section_points(s, im, pr);
    if (st != DLS_OK || pr->n > 0)
        return st;
    const char *why = im->nentries ? "no history entry with enough samples"
                                   : "neither a history nor a valid regression";
    if (params->arch)
        return dls__fail_at(s->err, DLS_EDATA, im->line, 0, -1, NULL, "%s:%d: %s has %s",
                            s->source, im->line, section, why);
    dls__buf_put(&s->notes, "%s: %s skipped: it has %s\n", s->source, section, why);
    dls__import_proc_free(pr);
    s->np--;
    return DLS_OK;
}

/* The processors made into the platform, all or none; refused when no combination was
 * selected or none gave a processor. */
static dls_status commit_sections(sp_import *s, dls_platform *platform,
                                  dls_import_report **report)
{
    const dls_starpu_params *params = s->params;
    if (s->chosen == 0)
        return dls__fail(s->err, DLS_EINVAL, s->fn, "%s: no combination is \"%s\" (the file has "
                         "%zu: combK or the devices' names)", s->source, params->arch,
                         s->m.ncomb);
    if (s->np == 0)
        return dls__fail(s->err, DLS_EDATA, s->fn, "%s: no section with usable data%s%s",
                         s->source, s->notes.s ? ": " : "", s->notes.s ? s->notes.s : "");
    if (s->np == 1 && params->name) {
        /* one section: the name as given */
        char *nm = strdup(params->name);
        if (nm == NULL)
            return dls__oom(s->err, s->fn);
        free(s->procs[0].name);
        s->procs[0].name = nm;
    }
    if (s->notes.failed)
        return dls__oom(s->err, s->fn);
    return dls__import_commit(s->procs, s->np, params->replace, platform, s->notes.s, report,
                              s->fn, s->source, s->err);
}

static dls_status import_text(const char *text, size_t len, const char *source,
                              const dls_starpu_params *params, dls_platform *platform,
                              dls_import_report **report, const char *fn, dls_error *err)
{
    if (report)
        *report = NULL;
    if (text == NULL || source == NULL || platform == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    dls_starpu_params defaults;
    if (params == NULL) {
        dls_starpu_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = check_params(params, fn, err);
    if (st != DLS_OK)
        return st;
    sp_import s;
    memset(&s, 0, sizeof s); /* the model and the notes empty */
    s.fn = fn;
    s.source = source;
    s.params = params;
    s.err = err;
    st = read_model(&s, text, len);
    if (st == DLS_OK) {
        s.unit = params->size_unit == DLS_SIZE_UNIT_ELEMENTS ? params->element_size : 1;
        s.symbol = dls__import_base_name(source, 0);
        s.procs = calloc(s.m.ncomb ? s.m.ncomb : 1, sizeof *s.procs);
        if (s.symbol == NULL || s.procs == NULL)
            st = dls__oom(err, fn);
    }
    for (size_t k = 0; k < s.m.ncomb && st == DLS_OK; k++)
        st = import_comb(&s, k);
    if (st == DLS_OK)
        st = commit_sections(&s, platform, report);
    dls__import_procs_free(s.procs, s.np);
    free(s.symbol);
    dls__buf_free(&s.notes);
    sp_model_free(&s.m);
    return st;
}

dls_status dls_import_starpu_string(const char *text, size_t len, const char *source,
                                    const dls_starpu_params *params, dls_platform *platform,
                                    dls_import_report **report, dls_error *err)
{
    return import_text(text, len, source, params, platform, report, "dls_import_starpu_string",
                       err);
}

dls_status dls_import_starpu_file(const char *path, const dls_starpu_params *params,
                                  dls_platform *platform, dls_import_report **report,
                                  dls_error *err)
{
    static const char fn[] = "dls_import_starpu_file";
    if (report)
        *report = NULL;
    if (path == NULL || platform == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    char *text;
    size_t len;
    dls_status st = dls__import_read(path, &text, &len, err);
    if (st != DLS_OK)
        return st;
    st = import_text(text, len, path, params, platform, report, fn, err);
    free(text);
    return st;
}
