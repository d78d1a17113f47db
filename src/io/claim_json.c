/* Claims in JSON: the documents `dlsched schedule --json`, `evaluate --json` and
 * `partition --json` write, read back as a dls_claim (src/claim) for src/verify. Processors
 * are named; those of the platform the document leaves out get nothing. */
#include <config.h>

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim/claim_impl.h"
#include "io/claim_json.h"
#include "io/json_locate.h"
#include "dlsched/partition.h"
#include "platform/platform_impl.h"

typedef struct reader {
    const char *text, *source;
    size_t len;
    const dls_platform *pl;
    dls_error *err;
} reader;

/* A failure at the value reached by path (depth steps), or at its key. */
static dls_status fail_path(const reader *r, dls_status st, const dls__jstep *path,
                            size_t depth, int at_key, long proc, const char *fmt, ...)
    DLS__PRINTF(7, 8);

static dls_status fail_path(const reader *r, dls_status st, const dls__jstep *path,
                            size_t depth, int at_key, long proc, const char *fmt, ...)
{
    int line = 1, column = 1;
    dls__json_locate(r->text, r->len, path, depth, at_key, &line, &column);
    char what[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dls__fail_at(r->err, st, line, column, proc, NULL, "%s:%d:%d: %s", r->source, line,
                        column, what);
}

/* A number of a processor's object: *v set (NaN for null or absent when optional). */
static dls_status number(const reader *r, json_t *o, const char *key, int required,
                         dls__jstep *path, long proc, double *v)
{
    json_t *x = json_object_get(o, key);
    path[2].key = key;
    if (x == NULL || json_is_null(x)) {
        *v = NAN;
        if (required)
            return fail_path(r, DLS_EDATA, path, 2, 0, proc, "processor \"%s\": no \"%s\"",
                             dls_platform_name(r->pl, (size_t)proc), key);
        return DLS_OK;
    }
    if (!json_is_number(x))
        return fail_path(r, DLS_EDATA, path, 3, 0, proc, "processor \"%s\": \"%s\" must be a "
                         "number", dls_platform_name(r->pl, (size_t)proc), key);
    *v = json_number_value(x);
    char text[160];
    if (dls__domain_value(*v, strcmp(key, "elements") == 0 ? "number of elements" : key, text,
                          sizeof text))
        return fail_path(r, DLS_EDATA, path, 3, 0, proc, "processor \"%s\": %s",
                         dls_platform_name(r->pl, (size_t)proc), text);
    return DLS_OK;
}

/* A number of the document's root (a total, the makespan, the chunk): 0 (when zero is
 * allowed) or inside the input domain; *out untouched on failure. */
static dls_status root_number(const reader *r, json_t *x, const char *key, int zero,
                              double *out)
{
    dls__jstep path[1] = {{key, 0}};
    double v = json_is_number(x) ? json_number_value(x) : NAN;
    if (!(isfinite(v) && (zero ? v >= 0 : v > 0)))
        return fail_path(r, DLS_EDATA, path, 1, 0, -1, "\"%s\" must be a finite number %s",
                         key, zero ? ">= 0 (or null)" : "> 0");
    char text[160];
    if (dls__domain_value(v, key, text, sizeof text))
        return fail_path(r, DLS_EDATA, path, 1, 0, -1, "%s", text);
    *out = v;
    return DLS_OK;
}

/* The index of the processor named by the string x (at path), or a failure. */
static dls_status name_of(const reader *r, json_t *x, const dls__jstep *path, size_t depth,
                          size_t *i)
{
    if (!json_is_string(x))
        return fail_path(r, DLS_EDATA, path, depth, 0, -1, "a processor name (a string) "
                         "expected");
    if (!dls_platform_find(r->pl, json_string_value(x), i)) {
        char q[128];
        dls__quote_name(json_string_value(x), q, sizeof q);
        return fail_path(r, DLS_EDATA, path, depth, 0, -1, "the platform has no processor "
                         "\"%s\"", q);
    }
    return DLS_OK;
}

/* A whole number in 0 .. DLS_PARTITION_MAX_ELEMENTS, or -1. */
static double whole(json_t *x)
{
    double v = json_is_number(x) ? json_number_value(x) : -1;
    return v >= 0 && v <= (double)DLS_PARTITION_MAX_ELEMENTS && v == floor(v) ? v : -1;
}

/* The chunk of processor i of an ordered weighted partition: "first" and "elements". */
static dls_status chunk_of(const reader *r, json_t *o, dls__jstep *path, size_t i,
                           uint64_t *first, uint64_t *count)
{
    static const char *const keys[2] = {"first", "elements"};
    double v[2];
    for (int k = 0; k < 2; k++) {
        path[2].key = keys[k];
        json_t *x = json_object_get(o, keys[k]);
        if (x == NULL)
            return fail_path(r, DLS_EDATA, path, 2, 0, (long)i, "processor \"%s\": no \"%s\" "
                             "(an ordered weighted partition gives each processor's chunk)",
                             dls_platform_name(r->pl, i), keys[k]);
        v[k] = whole(x);
        if (v[k] < 0)
            return fail_path(r, DLS_EDATA, path, 3, 0, (long)i, "processor \"%s\": \"%s\" "
                             "must be a whole number in 0 .. %llu", dls_platform_name(r->pl, i),
                             keys[k], DLS_PARTITION_MAX_ELEMENTS);
    }
    if (v[1] > 0 && v[0] + v[1] > (double)DLS_PARTITION_MAX_ELEMENTS)
        return fail_path(r, DLS_EDATA, path, 3, 0, (long)i, "processor \"%s\": the chunk of "
                         "%.0f elements from %.0f reaches past %llu",
                         dls_platform_name(r->pl, i), v[1], v[0], DLS_PARTITION_MAX_ELEMENTS);
    *first = (uint64_t)v[0];
    *count = (uint64_t)v[1];
    return DLS_OK;
}

/* The "assignment" of an unordered weighted partition: element -> processor index, as
 * many as the document's "elements" when it gives them. */
static dls_status read_assignment(const reader *r, json_t *root, json_t *a, dls_claim *c)
{
    dls__jstep ap[2] = {{"assignment", 0}, {NULL, 0}};
    if (!json_is_array(a))
        return fail_path(r, DLS_EDATA, ap, 1, 0, -1, "\"assignment\" must be an array of "
                         "processor indices, one per element");
    size_t n = json_array_size(a), p = dls_platform_count(r->pl);
    json_t *total = json_object_get(root, "elements");
    if (total != NULL && whole(total) != (double)n)
        return fail_path(r, DLS_EDATA, ap, 1, 0, -1, "\"assignment\" places %zu elements, "
                         "\"elements\" says %.10g", n,
                         json_is_number(total) ? json_number_value(total) : NAN);
    size_t *owner = malloc((n ? n : 1) * sizeof *owner);
    if (owner == NULL)
        return dls__oom(r->err, r->source);
    for (size_t e = 0; e < n; e++) {
        json_t *x = json_array_get(a, e);
        double v = whole(x);
        if (v < 0 || v >= (double)p) {
            ap[1].index = e;
            char what[64] = "a value that is not a number";
            if (json_is_number(x))
                snprintf(what, sizeof what, "%.10g", json_number_value(x));
            dls_status st = fail_path(r, DLS_EDATA, ap, 2, 0, -1, "element %zu: the processor "
                                      "must be an index in 0 .. %zu (the platform's order), "
                                      "not %s", e, p ? p - 1 : 0, what);
            free(owner);
            return st;
        }
        owner[e] = (size_t)v;
    }
    dls_status st = dls_claim_set_assignment(c, owner, n, r->err);
    free(owner);
    return st;
}

/* installments --lp: chunks of their own sizes, one by one, which a claim of loads per
 * processor cannot hold; read as a schedule they would be judged invalid */
static dls_status refuse_installments_lp(const reader *r, json_t *root)
{
    json_t *method = json_object_get(root, "method");
    if (json_is_array(json_object_get(root, "installments")) ||
        (json_is_string(method) && strcmp(json_string_value(method), "lp") == 0)) {
        dls__jstep at[1] = {{json_is_string(method) ? "method" : "installments", 0}};
        return fail_path(r, DLS_EDATA, at, 1, 0, -1, "the JSON of installments --lp (chunks "
                         "sized one by one by the LP) is not a claim verify reads: installments "
                         "--lp replays its own chunks and reports the residual");
    }
    return DLS_OK;
}

/* What the document claims, told by its keys. */
typedef struct shape {
    int partition; /* elements per processor, not loads */
    int weighted;  /* a weighted partition: weights per processor */
    int ordered;   /* a weighted partition by chunks (ordered sets), not by an assignment */
    int inst;      /* installments: a chunk size */
} shape;

static shape shape_of(json_t *root, json_t *procs)
{
    json_t *p0 = json_array_get(procs, 0);
    shape s;
    /* a partition gives elements, a schedule loads, installments a chunk size */
    s.partition = json_object_get(root, "send_order") == NULL && json_array_size(procs) > 0 &&
                  json_object_get(p0, "elements") != NULL;
    s.weighted = s.partition && json_object_get(p0, "weight") != NULL;
    /* which elements each processor holds: chunks (ordered sets) or an assignment */
    s.ordered = s.weighted && json_object_get(p0, "first") != NULL;
    s.inst = !s.partition && json_object_get(root, "chunk") != NULL;
    return s;
}

/* An empty claim of the document's kind, with its chunk size when it has one. */
static dls_status create_claim(const reader *r, json_t *root, const shape *s, dls_claim **out)
{
    dls_claim *c = NULL;
    dls_status st = dls_claim_create(r->pl, s->partition ? DLS_CLAIM_PARTITION
                                             : s->inst    ? DLS_CLAIM_INSTALLMENTS
                                                          : DLS_CLAIM_SCHEDULE,
                                     &c, r->err);
    if (st == DLS_OK && s->inst)
        st = root_number(r, json_object_get(root, "chunk"), "chunk", 0, &c->chunk);
    if (st != DLS_OK) {
        dls_claim_free(c);
        return st;
    }
    c->weighted = s->weighted;
    *out = c;
    return DLS_OK;
}

/* A schedule's times of processor i besides its finish: send start and end, compute
 * start. */
static dls_status read_times(const reader *r, json_t *o, dls__jstep *path, size_t i,
                             double load, double fin, double *ss, double *se, double *cs)
{
    double ct = NAN;
    dls_status st = number(r, o, "send_start", 0, path, (long)i, ss);
    if (st == DLS_OK)
        st = number(r, o, "send_end", 0, path, (long)i, se);
    if (st == DLS_OK)
        st = number(r, o, "compute_start", 0, path, (long)i, cs);
    if (st == DLS_OK)
        st = number(r, o, "compute_time", 0, path, (long)i, &ct);
    /* dlsched writes the compute time, not its start */
    if (st == DLS_OK && isnan(*cs) && !isnan(ct) && !isnan(fin) && load > 0)
        *cs = fin - ct;
    /* a difference below the domain is a start at 0 within any tolerance */
    if (fabs(*cs) < DLS_DOMAIN_MIN)
        *cs = 0;
    return st;
}

/* Per processor of the platform: whether an entry named it, and its chunk. */
typedef struct tally {
    unsigned char *seen;
    uint64_t *first, *count;
} tally;

/* Entry k of "processors" (at path): the processor it names, once, and its numbers. */
static dls_status read_entry(const reader *r, json_t *o, dls__jstep *path, size_t k,
                             const shape *s, tally *t, dls_claim *c)
{
    if (!json_is_object(o))
        return fail_path(r, DLS_EDATA, path, 2, 0, -1, "processor %zu: an object expected", k);
    path[2].key = "name";
    size_t i;
    dls_status st = name_of(r, json_object_get(o, "name"), path, 3, &i);
    if (st != DLS_OK)
        return st;
    if (t->seen[i])
        return fail_path(r, DLS_EDATA, path, 3, 0, (long)i, "processor \"%s\" appears twice",
                         dls_platform_name(r->pl, i));
    t->seen[i] = 1;
    double load, ss = NAN, se = NAN, cs = NAN, fin;
    st = number(r, o, s->weighted ? "weight" : s->partition ? "elements" : "load", 1, path,
                (long)i, &load);
    if (st == DLS_OK && s->ordered)
        st = chunk_of(r, o, path, i, &t->first[i], &t->count[i]);
    if (st == DLS_OK)
        st = number(r, o, s->partition ? "time" : "finish", 0, path, (long)i, &fin);
    if (st == DLS_OK && !s->partition && !s->inst)
        st = read_times(r, o, path, i, load, fin, &ss, &se, &cs);
    if (st != DLS_OK)
        return st;
    path[2].key = s->partition ? "elements" : "load";
    if (!isfinite(load) || !(isnan(fin) || isfinite(fin)))
        return fail_path(r, DLS_EDATA, path, 3, 0, (long)i, "processor \"%s\": not a finite "
                         "number", dls_platform_name(r->pl, i));
    return dls_claim_set(c, i, load, ss, se, cs, fin, r->err);
}

/* The "processors" array, then the chunks of an ordered weighted partition. */
static dls_status read_processors(const reader *r, json_t *procs, const shape *s, dls_claim *c)
{
    dls__jstep path[4] = {{"processors", 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};
    size_t n = dls_platform_count(r->pl);
    tally t = {calloc(n ? n : 1, 1), calloc(n ? n : 1, sizeof *t.first),
               calloc(n ? n : 1, sizeof *t.count)};
    dls_status st = DLS_OK;
    if (t.seen == NULL || t.first == NULL || t.count == NULL)
        st = dls__oom(r->err, r->source);
    for (size_t k = 0; k < json_array_size(procs) && st == DLS_OK; k++) {
        path[1].index = k;
        st = read_entry(r, json_array_get(procs, k), path, k, s, &t, c);
    }
    if (st == DLS_OK && s->ordered)
        st = dls_claim_set_chunks(c, t.first, t.count, n, r->err);
    free(t.seen);
    free(t.first);
    free(t.count);
    return st;
}

/* "send_order": the names of the processors in the order they are sent to. */
static dls_status read_send_order(const reader *r, json_t *order, dls_claim *c)
{
    dls__jstep op[2] = {{"send_order", 0}, {NULL, 0}};
    dls_status st = DLS_OK;
    size_t m = json_array_size(order);
    size_t *idx = malloc((m ? m : 1) * sizeof *idx);
    if (!json_is_array(order))
        st = fail_path(r, DLS_EDATA, op, 1, 0, -1, "\"send_order\" must be an array of names");
    else if (idx == NULL)
        st = dls__oom(r->err, r->source);
    for (size_t k = 0; k < m && st == DLS_OK; k++) {
        op[1].index = k;
        st = name_of(r, json_array_get(order, k), op, 2, &idx[k]);
    }
    if (st == DLS_OK)
        st = dls__claim_set_order(c, idx, m, r->source, r->err);
    free(idx);
    return st;
}

/* A partition's "matrix": the side of the matrix it partitions. */
static dls_status read_matrix(const reader *r, json_t *mx, dls_claim *c)
{
    dls__jstep mp[1] = {{"matrix", 0}};
    double x = json_is_number(mx) ? json_number_value(mx) : -1;
    if (!(x >= 1 && x <= (double)DLS_PARTITION_MAX_ELEMENTS && x == floor(x)))
        return fail_path(r, DLS_EDATA, mp, 1, 0, -1, "\"matrix\" must be a whole number >= 1");
    c->matrix = (uint64_t)x;
    return DLS_OK;
}

/* The root's total (load or elements) and makespan, when the document gives them. */
static dls_status read_totals(const reader *r, json_t *root, const shape *s, dls_claim *c)
{
    /* a weighted partition's "elements" counts elements, not the weight distributed */
    const char *total_key = s->weighted ? "-" : s->partition ? "elements" : "load";
    json_t *t = json_object_get(root, total_key), *mk = json_object_get(root, "makespan");
    dls__jstep tp[1] = {{total_key, 0}};
    dls_status st = DLS_OK;
    if (t != NULL)
        st = root_number(r, t, total_key, 0, &c->total);
    if (st == DLS_OK && s->partition && c->total > (double)DLS_PARTITION_MAX_ELEMENTS)
        st = fail_path(r, DLS_EDATA, tp, 1, 0, -1, "\"elements\" %.10g is more than 2^53 "
                       "(%llu, the most a partition has)", c->total,
                       DLS_PARTITION_MAX_ELEMENTS);
    if (st == DLS_OK && mk != NULL && !json_is_null(mk))
        st = root_number(r, mk, "makespan", 1, &c->makespan);
    return st;
}

/* The loads (or elements) against the totals and the chunk the document states. */
static dls_status check_sums(const reader *r, dls_claim *c)
{
    char why[DLS_ERROR_MESSAGE_MAX / 2];
    int where = dls__claim_check_sums(c, why, sizeof why);
    dls__jstep sp[1] = {{where == 2 ? "chunk" : "processors", 0}};
    if (where != 0)
        return fail_path(r, DLS_EDATA, sp, 1, 0, -1, "%s", why);
    return DLS_OK;
}

static dls_status read_root(const reader *r, json_t *root, dls_claim **out)
{
    json_t *procs = json_object_get(root, "processors");
    if (!json_is_array(procs)) {
        dls__jstep path[1] = {{"processors", 0}};
        return fail_path(r, DLS_EDATA, path, 0, 0, -1, "a \"processors\" array expected (the "
                         "JSON of dlsched schedule, evaluate or partition)");
    }
    dls_status st = refuse_installments_lp(r, root);
    if (st != DLS_OK)
        return st;
    shape s = shape_of(root, procs);
    dls_claim *c = NULL;
    st = create_claim(r, root, &s, &c);
    if (st != DLS_OK)
        return st;
    st = read_processors(r, procs, &s, c);
    json_t *assign = json_object_get(root, "assignment");
    if (st == DLS_OK && s.weighted && !s.ordered && assign != NULL)
        st = read_assignment(r, root, assign, c);
    json_t *order = json_object_get(root, "send_order");
    if (st == DLS_OK && order != NULL)
        st = read_send_order(r, order, c);
    json_t *mx = json_object_get(root, "matrix");
    if (st == DLS_OK && mx != NULL && s.partition)
        st = read_matrix(r, mx, c);
    if (st == DLS_OK)
        st = read_totals(r, root, &s, c);
    if (st == DLS_OK)
        st = check_sums(r, c);
    if (st != DLS_OK) {
        dls_claim_free(c);
        return st;
    }
    *out = c;
    return DLS_OK;
}

dls_status dls__claim_read_json(const char *text, size_t len, const char *source,
                                const dls_platform *pl, dls_claim **out, dls_error *err)
{
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (root == NULL) {
        if (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0')
            return dls__fail(err, DLS_ENOMEM, NULL, "%s: out of memory while parsing", source);
        int line = je.line > 0 ? je.line : 1, column = je.column > 0 ? je.column : 1;
        return dls__fail_at(err, DLS_ESYNTAX, line, column, -1, NULL,
                            "%s:%d:%d: malformed JSON: %s", source, line, column, je.text);
    }
    reader r = {text, source, len, pl, err};
    dls_status st = json_is_object(root)
                        ? read_root(&r, root, out)
                        : dls__fail_at(err, DLS_EDATA, 1, 1, -1, NULL, "%s:1:1: a JSON object "
                                       "expected", source);
    json_decref(root);
    return st;
}
