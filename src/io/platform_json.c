/* Platform files: reading and writing the JSON contract of dlsched/platform.h.
 *
 * Reading: the text is walked with simdjson's On-Demand API (platform_simdjson.cc), which
 * checks the contract and locates its errors without building a tree. When that walk fails,
 * jansson parses the text once more to tell malformed JSON apart: its diagnosis (message,
 * line and column) is the one reported, and it comes before any contract error, as it did
 * when jansson's tree was the reader. A failed read of a big file can therefore cost what
 * jansson's tree costs; a successful one never builds it.
 *
 * Writing: each processor as a one-line object built and printed by jansson. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/grow.h"
#include "core/pages.h"
#include "core/locale.h"
#include "io/platform_json.h"
#include "io/platform_simdjson.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

/* Platform files are read in chunks of at least this many bytes. */
#define DLS__READ_CHUNK ((size_t)1 << 16)

/* "is 3435973837 bytes (3.2 GiB), more than the 1073741824 (1 GiB)" */
static dls_status too_big(dls_error *err, const char *source, const char *what, double bytes,
                          const dls__limits *lim)
{
    char have[32], most[32];
    dls__format_bytes(bytes, have, sizeof have);
    dls__format_bytes((double)lim->file_bytes, most, sizeof most);
    return dls__fail(err, DLS_ELIMIT, NULL,
                     "%s: %s %.0f bytes (%s), more than the %zu (%s) dlsched " "reads", source,
                     what, bytes, have, lim->file_bytes, most);
}

/* Reads the text (capacity bytes allocated at it) with the simdjson walk; when the walk
 * fails, jansson's diagnosis of malformed JSON takes the place of the walk's message. */
static dls_status parse_text(const char *text, size_t len, size_t capacity, const char *source,
                             const dls__limits *lim, dls_platform **out, dls_error *err)
{
    dls_status st = dls__platform_parse(text, len, capacity, source, lim, out, err);
    if (st == DLS_OK || st == DLS_ENOMEM)
        return st;
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (root != NULL) { /* well-formed: the walk's own error stands */
        json_decref(root);
        return st;
    }
    int line = je.line > 0 ? je.line : 1, column = je.column > 0 ? je.column : 1;
    /* jansson leaves the text empty when its very first allocation fails */
    if (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0')
        return dls__fail(err, DLS_ENOMEM, NULL, "%s: out of memory while parsing", source);
    return dls__fail_at(err, DLS_ESYNTAX, line, column, -1, NULL, "%s:%d:%d: malformed JSON: %s",
                        source, line, column, je.text);
}

dls_status dls__platform_read_string_within(const char *text, size_t len, const char *source,
                                            const dls__limits *lim, dls_platform **out,
                                            dls_error *err)
{
    if (text == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_read_string", "NULL argument");
    if (source == NULL)
        source = "<string>";
    if (len > lim->file_bytes)
        return too_big(err, source, "the platform is", (double)len, lim);
    return parse_text(text, len, len, source, lim, out, err);
}

dls_status dls_platform_read_string(const char *text, size_t len, const char *source,
                                    dls_platform **out, dls_error *err)
{
    return dls__platform_read_string_within(text, len, source, &dls__platform_limits, out,
                                            err);
}

dls_status dls__platform_read_file_within(const char *path, const dls__limits *lim,
                                          dls_platform **out, dls_error *err)
{
    if (path == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_read_file", "NULL argument");
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return dls__fail(err, DLS_EIO, NULL, "%s: cannot open: %s", path, strerror(errno));
    /* a regular file's size is known before reading it; a stream is read up to the limit */
    struct stat sb;
    int regular = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode);
    if (regular && (uintmax_t)sb.st_size > (uintmax_t)lim->file_bytes) {
        fclose(f);
        return too_big(err, path, "the file is", (double)sb.st_size, lim);
    }
    /* A regular file is read into one block of its size, and one byte more that tells a
     * file grown meanwhile; a stream in growing chunks. The block always keeps
     * DLS__JSON_PADDING bytes after the text, so that simdjson reads it where it lies. */
    size_t first = DLS__READ_CHUNK;
    if (regular && sb.st_size >= 0)
        first = (size_t)sb.st_size + 1;
    size_t cap = 0, len = 0;
    char *buf = NULL;
    int alloc_failed = 0, over_limit = 0;
    for (;;) {
        if (len > lim->file_bytes) {
            over_limit = 1;
            break;
        }
        size_t want = len + (len == 0 ? first : DLS__READ_CHUNK);
        if (want > lim->file_bytes + 1)
            want = lim->file_bytes + 1; /* one byte more tells a stream past the limit */
        char *bigger = dls__grow(buf, &cap, want + DLS__JSON_PADDING, 1);
        if (bigger == NULL) {
            alloc_failed = 1;
            break;
        }
        buf = bigger;
        /* the pages of a file's bytes mapped at once (a file that grows meanwhile is
         * copied by realloc below, which is merely slower) */
        if (len == 0 && regular)
            dls__prefault(buf, first - 1, 1);
        size_t text_cap = cap - DLS__JSON_PADDING;
        size_t room = (text_cap < lim->file_bytes + 1 ? text_cap : lim->file_bytes + 1) - len;
        size_t got = fread(buf + len, 1, room, f);
        len += got;
        if (got < room)
            break;
    }
    dls_status st = DLS_OK;
    if (alloc_failed)
        st = dls__oom(err, path);
    else if (ferror(f))
        st = dls__fail(err, DLS_EIO, NULL, "%s: read error: %s", path, strerror(errno));
    else if (over_limit || len > lim->file_bytes)
        st = too_big(err, path, "the stream holds at least", (double)len, lim);
    fclose(f);
    if (st == DLS_OK) {
        /* the padding zeroed: simdjson's number parser reads past a number's last digit,
         * and bytes left from the allocation would make its result depend on them */
        memset(buf + len, 0, DLS__JSON_PADDING);
        st = parse_text(buf, len, cap, path, lim, out, err);
    }
    free(buf);
    return st;
}

dls_status dls_platform_read_file(const char *path, dls_platform **out, dls_error *err)
{
    return dls__platform_read_file_within(path, &dls__platform_limits, out, err);
}

/* ---------------------------------------------------------------------------------- */
/* Writing                                                                            */

static json_t *number_array(const double *v, size_t n)
{
    json_t *a = json_array();
    for (size_t k = 0; a && k < n; k++)
        if (json_array_append_new(a, json_real(v[k])) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

static json_t *model_json(const dls_model *m, const char **key)
{
    json_t *v = NULL;
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        *key = "speed";
        return json_real(m->constant);
    case DLS_MODEL_POINTS: {
        *key = "speed";
        json_t *pts = json_array();
        for (size_t k = 0; pts && k < m->n; k++) {
            double row[4] = {m->size[k], m->speed[k], m->bands ? m->low[k] : 0,
                             m->bands ? m->high[k] : 0};
            if (json_array_append_new(pts, number_array(row, m->bands ? 4 : 2)) != 0) {
                json_decref(pts);
                pts = NULL;
            }
        }
        v = pts ? json_pack("{s:o}", "points", pts) : NULL;
        return v;
    }
    case DLS_MODEL_TIME_LINES: {
        *key = "time";
        json_t *lines = json_array();
        for (size_t l = 0; lines && l < m->n; l++) {
            double row[2] = {m->a[l], m->b[l]};
            if (json_array_append_new(lines, number_array(row, 2)) != 0) {
                json_decref(lines);
                lines = NULL;
            }
        }
        return lines;
    }
    case DLS_MODEL_SPEED2D: {
        *key = "speed2d";
        json_t *rows = json_array();
        for (size_t i = 0; rows && i < m->n; i++)
            if (json_array_append_new(rows, number_array(m->gv + i * m->ny, m->ny)) != 0) {
                json_decref(rows);
                rows = NULL;
            }
        json_t *x = number_array(m->gx, m->n), *y = number_array(m->gy, m->ny);
        if (rows == NULL || x == NULL || y == NULL) {
            json_decref(rows);
            json_decref(x);
            json_decref(y);
            return NULL;
        }
        return json_pack("{s:o,s:o,s:o}", "x", x, "y", y, "values", rows);
    }
    }
    return NULL;
}

/* One processor as a one-line JSON object. json_object_set_new() takes over its value even
 * when it fails, so nothing leaks on the error paths. */
static char *proc_text(const dls__proc *p)
{
    const char *key = NULL;
    json_t *obj = json_object();
    if (obj == NULL)
        return NULL;
    int bad = json_object_set_new(obj, "name", json_string(p->name));
    json_t *model = model_json(p->model, &key);
    bad |= json_object_set_new(obj, key, model);
    if (isfinite(p->limit))
        bad |= json_object_set_new(obj, "limit", json_real(p->limit));
    if (p->has_link)
        bad |= json_object_set_new(obj, "link", json_pack("{s:f,s:f}", "startup", p->startup,
                                                          "rate", p->rate));
    if (p->release > 0)
        bad |= json_object_set_new(obj, "release", json_real(p->release));
    if (p->ret_frac > 0 || p->ret_startup > 0 || p->ret_rate > 0)
        bad |= json_object_set_new(obj, "return",
                                   json_pack("{s:f,s:f,s:f}", "fraction", p->ret_frac,
                                             "startup", p->ret_startup, "rate", p->ret_rate));
    /* the bytes of a unit, which describe; "memory" and "paging" are not written back, as
     * the model, limit and link they built are (read again, they would build it twice) */
    if (p->bytes_per_unit > 0)
        bad |= json_object_set_new(obj, "bytes_per_unit", json_real(p->bytes_per_unit));
    /* every number in its own shortest form that reads back the same: what a person
     * typed (5e-5) stays as typed */
    char *text = bad ? NULL : json_dumps(obj, JSON_REAL_PRECISION(17) | JSON_PRESERVE_ORDER);
    json_decref(obj);
    return text ? dls__json_shortest_reals(text) : NULL;
}

dls_status dls_platform_to_string(const dls_platform *platform, char **out, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_to_string", "NULL argument");
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_platform_to_string", "the platform has no "
                         "processor (a platform file needs at least one)");
    static const char head[] = "\"processors\": [\n", indent[] = "    ",
                      next[] = ",\n", tail[] = "\n  ]\n}\n";
    dls__buf b = DLS__BUF_INIT;
    /* the version, from the second format on (a file of the first has none) */
    char version[48] = "{\n  ";
    if (platform->format >= 2)
        snprintf(version, sizeof version, "{\n  \"version\": %d,\n  ", platform->format);
    dls__buf_add(&b, version, strlen(version));
    dls__buf_add(&b, head, sizeof head - 1);
    /* the shortest numbers are read and written by strtod and snprintf: in the C locale,
     * whatever the caller's (jansson's own numbers are locale-proof) */
    dls__c_numeric loc;
    if (dls__c_numeric_enter(&loc) != 0) {
        dls__buf_free(&b);
        return dls__oom(err, "dls_platform_to_string");
    }
    for (size_t i = 0; i < platform->n; i++) {
        char *t = proc_text(&platform->procs[i]);
        if (t == NULL) {
            dls__c_numeric_leave(&loc);
            dls__buf_free(&b);
            return dls__oom(err, "dls_platform_to_string");
        }
        dls__buf_add(&b, indent, sizeof indent - 1);
        dls__buf_add(&b, t, strlen(t));
        if (i + 1 < platform->n)
            dls__buf_add(&b, next, sizeof next - 1);
        free(t);
    }
    dls__c_numeric_leave(&loc);
    dls__buf_add(&b, tail, sizeof tail - 1);
    char *text = dls__buf_take(&b);
    if (text == NULL)
        return dls__oom(err, "dls_platform_to_string");
    *out = text;
    return DLS_OK;
}

dls_status dls_platform_write_file(const dls_platform *platform, const char *path, dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_write_file", "NULL path");
    char *text;
    dls_status st = dls_platform_to_string(platform, &text, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, text, strlen(text), err);
    free(text);
    return st;
}
