/* What the importers share: points, the band rule, the report, the all-or-nothing commit,
 * and reading a file. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/grow.h"
#include "core/names.h"
#include "core/stats.h"
#include "import/import_impl.h"
#include "platform/platform_impl.h"

DLS__ENUM_NAMES(dls_size_unit, dls_size_unit, DLS_SIZE_UNIT_MAP)

struct dls_import_report {
    size_t n;
    dls_import_item *items; /* names and sources owned */
    char *notes;            /* never NULL */
};

size_t dls_import_report_count(const dls_import_report *report)
{
    return report ? report->n : 0;
}

const dls_import_item *dls_import_report_item(const dls_import_report *report, size_t k)
{
    return report && k < report->n ? &report->items[k] : NULL;
}

const char *dls_import_report_notes(const dls_import_report *report)
{
    return report ? report->notes : "";
}

void dls_import_report_free(dls_import_report *report)
{
    if (report == NULL)
        return;
    for (size_t k = 0; k < report->n; k++) {
        free((char *)report->items[k].name);
        free((char *)report->items[k].source);
    }
    free(report->items);
    free(report->notes);
    free(report);
}

int dls__import_point(dls__import_proc *p, double size, double speed, double low, double high,
                      int line)
{
    if (p->n == p->cap) {
        /* each array grows to the same capacity; one that fails leaves the others larger,
         * which the next call's equal capacities handle */
        double **a[4] = {&p->size, &p->speed, &p->low, &p->high};
        size_t cap = p->cap;
        for (int k = 0; k < 4; k++) {
            size_t c = p->cap;
            double *g = dls__grow(*a[k], &c, p->n + 1, sizeof(double));
            if (g == NULL)
                return -1;
            *a[k] = g;
            cap = c;
        }
        size_t c = p->cap;
        int *l = dls__grow(p->line, &c, p->n + 1, sizeof(int));
        if (l == NULL)
            return -1;
        p->line = l;
        p->cap = cap < c ? cap : c;
    }
    p->size[p->n] = size;
    p->speed[p->n] = speed;
    p->low[p->n] = low;
    p->high[p->n] = high;
    p->line[p->n] = line;
    p->n++;
    return 0;
}

void dls__import_proc_free(dls__import_proc *p)
{
    if (p == NULL)
        return;
    free(p->name);
    free(p->source);
    free(p->size);
    free(p->speed);
    free(p->low);
    free(p->high);
    free(p->line);
    memset(p, 0, sizeof *p);
}

void dls__import_procs_free(dls__import_proc *procs, size_t np)
{
    if (procs == NULL)
        return;
    for (size_t k = 0; k < np; k++)
        dls__import_proc_free(&procs[k]);
    free(procs);
}

double dls__import_band_factor(unsigned n, double confidence)
{
    if (n < 2)
        return NAN;
    return dls__t_quantile(0.5 + confidence / 2, n - 1) * sqrt(1 + 1.0 / n);
}

void dls__import_band(double size, double mean, double sd, unsigned n, double confidence,
                      double *speed, double *low, double *high)
{
    *speed = size / mean;
    if (n < 2) {
        *low = *high = NAN;
        return;
    }
    double pi = dls__import_band_factor(n, confidence) * sd;
    *low = fmin(*speed, size / (mean + pi));
    *high = fmax(*speed, size / fmax(mean - pi, mean / 2));
}

/* Sorting the points of one processor by size, with their bands and lines. */
typedef struct {
    double size, speed, low, high;
    int line;
} point_rec;

static int by_size(const void *a, const void *b)
{
    const point_rec *x = a, *y = b;
    return (x->size > y->size) - (x->size < y->size);
}

/* The model of one processor; *model NULL and a message on failure. */
static dls_status make_model(const dls__import_proc *p, const char *fn, const char *source,
                             dls_model **model, dls_error *err)
{
    *model = NULL;
    if (p->n == 0)
        return dls__fail(err, DLS_EDATA, fn, "%s: processor \"%s\" has no point", source,
                         p->name);
    point_rec *r = malloc(p->n * sizeof *r);
    double *v = malloc(4 * p->n * sizeof *v);
    if (r == NULL || v == NULL) {
        free(r);
        free(v);
        return dls__oom(err, fn);
    }
    /* a model has bands on every point or on none: when some points have one, a point
     * without (a single sample: no spread known) gets its speed alone as its band */
    int banded = 0;
    for (size_t k = 0; k < p->n; k++) {
        r[k] = (point_rec){p->size[k], p->speed[k], p->low[k], p->high[k], p->line[k]};
        if (!isnan(p->low[k]))
            banded = 1;
    }
    for (size_t k = 0; k < p->n && banded; k++)
        if (isnan(r[k].low))
            r[k].low = r[k].high = r[k].speed;
    qsort(r, p->n, sizeof *r, by_size);
    dls_status st = DLS_OK;
    for (size_t k = 1; k < p->n; k++)
        if (r[k].size == r[k - 1].size) {
            st = dls__fail_at(err, DLS_EDATA, r[k].line, 0, -1, fn,
                              "%s%s%d: processor \"%s\": size %.17g appears twice%s%d%s", source,
                              r[k].line ? ":" : "", r[k].line, p->name, r[k].size,
                              r[k - 1].line ? " (also line " : "", r[k - 1].line,
                              r[k - 1].line ? ")" : "");
            break;
        }
    if (st == DLS_OK) {
        double *sz = v, *sp = v + p->n, *lo = v + 2 * p->n, *hi = v + 3 * p->n;
        for (size_t k = 0; k < p->n; k++) {
            sz[k] = r[k].size;
            sp[k] = r[k].speed;
            /* a band that rounding left a hair off its speed still holds it */
            lo[k] = fmin(r[k].low, r[k].speed);
            hi[k] = fmax(r[k].high, r[k].speed);
        }
        st = dls_model_create_points(p->n, sz, sp, banded ? lo : NULL, banded ? hi : NULL,
                                     model, err);
        if (st != DLS_OK)
            st = dls__error_retag(err, st, fn);
    }
    free(r);
    free(v);
    return st;
}

static int by_name(const void *a, const void *b)
{
    const dls__import_proc *x = *(const dls__import_proc *const *)a;
    const dls__import_proc *y = *(const dls__import_proc *const *)b;
    return strcmp(x->name, y->name);
}

dls_status dls__import_commit(dls__import_proc *procs, size_t np, int replace,
                              dls_platform *platform, const char *notes,
                              dls_import_report **report, const char *fn, const char *source,
                              dls_error *err)
{
    dls_status st = DLS_OK;
    dls_import_report *rep = calloc(1, sizeof *rep);
    if (rep != NULL) {
        rep->items = calloc(np ? np : 1, sizeof *rep->items);
        rep->notes = strdup(notes ? notes : "");
    }
    if (rep == NULL || rep->items == NULL || rep->notes == NULL) {
        dls_import_report_free(rep);
        return dls__oom(err, fn);
    }
    /* two sections of one input may not make one processor: the names sorted, neighbours
     * compared (a CSV file may hold many processors) */
    if (np > 1) {
        const dls__import_proc **by = malloc(np * sizeof *by);
        if (by == NULL) {
            dls_import_report_free(rep);
            return dls__oom(err, fn);
        }
        for (size_t k = 0; k < np; k++)
            by[k] = &procs[k];
        qsort(by, np, sizeof *by, by_name);
        for (size_t k = 1; k < np; k++)
            if (strcmp(by[k - 1]->name, by[k]->name) == 0) {
                const dls__import_proc *a = by[k - 1] < by[k] ? by[k - 1] : by[k];
                const dls__import_proc *b = a == by[k] ? by[k - 1] : by[k];
                st = dls__fail(err, DLS_EINVAL, fn, "%s: two processors would be called "
                               "\"%s\" (%s; %s)", source, a->name, a->source, b->source);
                break;
            }
        free(by);
    }
    /* the work is done on a copy, which replaces the platform's content at the end */
    dls_platform *work = NULL;
    if (st == DLS_OK) {
        st = dls_platform_copy(platform, &work, err);
        if (st != DLS_OK)
            st = dls__error_retag(err, st, fn);
    }
    for (size_t k = 0; k < np && st == DLS_OK; k++) {
        dls__import_proc *p = &procs[k];
        dls_model *model = NULL;
        st = make_model(p, fn, source, &model, err);
        if (st != DLS_OK)
            break;
        size_t index;
        if (dls_platform_find(work, p->name, &index)) {
            if (!replace)
                st = dls__fail(err, DLS_EINVAL, fn, "processor \"%s\" is already in the "
                               "platform (replace its model on purpose: --merge with "
                               "--replace, or the replace parameter)", p->name);
            else
                st = dls_platform_set_model(work, index, model, err);
        } else {
            st = dls_platform_add(work, p->name, model, &index, err);
        }
        if (st != DLS_OK && err && err->status == st && strncmp(err->message, fn, strlen(fn)))
            st = dls__error_retag(err, st, fn);
        if (st == DLS_OK) {
            dls_import_item *it = &rep->items[rep->n];
            it->name = strdup(p->name);
            it->source = strdup(p->source ? p->source : "");
            it->index = index;
            it->entries = p->entries;
            it->points = p->n;
            it->few = p->few;
            it->from_regression = p->from_regression;
            size_t n;
            const double *sz, *sp, *lo, *hi;
            dls_model_get_points(model, &n, &sz, &sp, &lo, &hi);
            it->min_size = sz[0];
            it->max_size = sz[n - 1];
            rep->n++;
            if (it->name == NULL || it->source == NULL)
                st = dls__oom(err, fn);
        }
        dls_model_free(model);
    }
    if (st == DLS_OK) {
        /* the platform takes the copy's content, the copy the old one (freed) */
        struct dls_platform tmp = *platform;
        *platform = *work;
        *work = tmp;
    }
    dls_platform_free(work);
    if (st != DLS_OK || report == NULL) {
        dls_import_report_free(rep);
        rep = NULL;
    }
    if (report)
        *report = rep;
    return st;
}

/* Bytes read at a time from a stream. */
#define READ_CHUNK ((size_t)1 << 16)

dls_status dls__import_read(const char *path, char **text, size_t *len, dls_error *err)
{
    *text = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return dls__fail(err, DLS_EIO, NULL, "%s: cannot open: %s", path, strerror(errno));
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
        fclose(f);
        return dls__fail(err, DLS_EIO, NULL, "%s: is a directory", path);
    }
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uintmax_t)sb.st_size > (uintmax_t)DLS__IMPORT_FILE_MAX) {
        fclose(f);
        return dls__fail(err, DLS_ELIMIT, NULL, "%s: the file is %jd bytes, more than the %zu an "
                         "import reads", path, (intmax_t)sb.st_size,
                         (size_t)DLS__IMPORT_FILE_MAX);
    }
    char *buf = NULL;
    size_t cap = 0, n = 0;
    dls_status st = DLS_OK;
    for (;;) {
        if (n > DLS__IMPORT_FILE_MAX) {
            st = dls__fail(err, DLS_ELIMIT, NULL,
                           "%s: the stream holds more than the %zu bytes an " "import reads", path,
                           (size_t)DLS__IMPORT_FILE_MAX);
            break;
        }
        char *g = dls__grow(buf, &cap, n + READ_CHUNK + 1, 1);
        if (g == NULL) {
            st = dls__oom(err, path);
            break;
        }
        buf = g;
        size_t got = fread(buf + n, 1, cap - 1 - n, f);
        n += got;
        if (got == 0 || n < cap - 1) {
            if (ferror(f))
                st = dls__fail(err, DLS_EIO, NULL, "%s: read error: %s", path, strerror(errno));
            else if (!feof(f))
                continue;
            break;
        }
    }
    fclose(f);
    if (st != DLS_OK) {
        free(buf);
        return st;
    }
    if (buf == NULL) {
        buf = malloc(1);
        if (buf == NULL)
            return dls__oom(err, path);
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return DLS_OK;
}

char *dls__import_base_name(const char *path, int last_dot)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    const char *dot = last_dot ? strrchr(b, '.') : strchr(b, '.');
    size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
    char *s = malloc(n + 1);
    if (s == NULL)
        return NULL;
    memcpy(s, b, n);
    s[n] = '\0';
    return s;
}
