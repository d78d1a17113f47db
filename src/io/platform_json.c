/* Platform files: reading and writing the JSON contract of dlsched/platform.h with jansson.
 *
 * jansson parses and reports syntax errors with their position; the contract is then
 * checked on the tree, and every error is located in the text by its path (json_locate.c)
 * so that it names file, line and column, the processor and the key. */
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
#include "io/json_locate.h"
#include "io/platform_json.h"
#include "model/model_impl.h"
#include "platform/platform_impl.h"

/* The deepest path the reader names: processors, a processor, its model, a speed2d
 * member, a row, a value (6), with room to spare. */
#define MAX_DEPTH 8
/* Platform files are read in chunks of at least this many bytes. */
#define DLS_READ_CHUNK ((size_t)1 << 16)
/* "Did you mean" hints name a known key within this many edits of an unknown one; keys
 * longer than DLS_HINT_KEY_MAX get no hint (known keys are short, and the distance table
 * stays on the stack). */
#define DLS_HINT_MAX_EDITS 2
#define DLS_HINT_KEY_MAX 32
/* A speed point is [size, speed], or [size, speed, low, high] with its band. */
#define DLS_POINT_WIDTH 2
#define DLS_BANDED_POINT_WIDTH 4

typedef struct reader {
    const char *text;
    size_t len;
    const char *source;
    const dls__limits *lim;
    dls_error *err;
    dls__jstep path[MAX_DEPTH];
    size_t depth;
    long proc;          /* processor being read, -1 outside */
    const char *pname;  /* its name once known */
} reader;

static void push_key(reader *r, const char *key)
{
    DLS_ASSERT(r->depth < MAX_DEPTH);
    r->path[r->depth].key = key;
    r->path[r->depth].index = 0;
    r->depth++;
}

static void push_index(reader *r, size_t index)
{
    DLS_ASSERT(r->depth < MAX_DEPTH);
    r->path[r->depth].key = NULL;
    r->path[r->depth].index = index;
    r->depth++;
}

static void pop(reader *r, size_t n)
{
    DLS_ASSERT(n <= r->depth);
    r->depth -= n;
}

/* Fails with status at the current path (its last key itself when at_key is set). */
static dls_status vfail(reader *r, dls_status status, int at_key, const char *fmt, va_list ap)
    DLS_PRINTF(4, 0);

static dls_status vfail(reader *r, dls_status status, int at_key, const char *fmt, va_list ap)
{
    char what[400];
    vsnprintf(what, sizeof what, fmt, ap);
    int line, column;
    dls__json_locate(r->text, r->len, r->path, r->depth, at_key, &line, &column);
    if (r->proc < 0)
        return dls__fail_at(r->err, status, line, column, -1, "%s:%d:%d: %s", r->source, line,
                            column, what);
    if (r->pname != NULL) {
        char name[128];
        dls__quote_name(r->pname, name, sizeof name);
        return dls__fail_at(r->err, status, line, column, r->proc,
                            "%s:%d:%d: processor \"%s\": %s", r->source, line, column, name,
                            what);
    }
    return dls__fail_at(r->err, status, line, column, r->proc, "%s:%d:%d: processor #%ld: %s",
                        r->source, line, column, r->proc + 1, what);
}

/* Fails with DLS_EDATA at the current path (its last key itself when at_key is set). */
static dls_status fail(reader *r, int at_key, const char *fmt, ...) DLS_PRINTF(3, 4);

static dls_status fail(reader *r, int at_key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls_status st = vfail(r, DLS_EDATA, at_key, fmt, ap);
    va_end(ap);
    return st;
}

/* Fails with DLS_ELIMIT at the current path: the input holds more than a limit allows. */
static dls_status over(reader *r, const char *fmt, ...) DLS_PRINTF(2, 3);

static dls_status over(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls_status st = vfail(r, DLS_ELIMIT, 0, fmt, ap);
    va_end(ap);
    return st;
}

static dls_status nomem(reader *r)
{
    return dls__fail(r->err, DLS_ENOMEM, "%s: out of memory", r->source);
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "a value";
}

/* "an array of length 3", or the type name for other values. */
static const char *describe(const json_t *v, char *buf, size_t size)
{
    if (!json_is_array(v))
        return type_name(v);
    snprintf(buf, size, "an array of length %zu", json_array_size(v));
    return buf;
}

/* Levenshtein distance, for "did you mean" hints on misspelt keys; SIZE_MAX when a key is
 * longer than DLS_HINT_KEY_MAX. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > DLS_HINT_KEY_MAX || lb > DLS_HINT_KEY_MAX)
        return SIZE_MAX;
    size_t d[DLS_HINT_KEY_MAX + 1][DLS_HINT_KEY_MAX + 1];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

/* Rejects members of obj not in the NULL-terminated list `known`. */
static dls_status check_keys(reader *r, json_t *obj, const char *const *known, const char *where)
{
    const char *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        int ok = 0;
        for (const char *const *k = known; *k && !ok; k++)
            ok = strcmp(key, *k) == 0;
        if (ok)
            continue;
        const char *close = NULL;
        size_t best = DLS_HINT_MAX_EDITS + 1; /* the closest key within reach, first of equals */
        for (const char *const *k = known; *k; k++) {
            size_t d = edit_distance(key, *k);
            if (d < best) {
                best = d;
                close = *k;
            }
        }
        char list[160] = "";
        for (const char *const *k = known; *k; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s\"%s\"", k == known ? "" : ", ", *k);
        }
        push_key(r, key);
        dls_status st;
        if (close)
            st = fail(r, 1, "unknown key \"%s\" in %s (did you mean \"%s\"? known keys: %s)", key,
                      where, close, list);
        else
            st = fail(r, 1, "unknown key \"%s\" in %s (known keys: %s)", key, where, list);
        pop(r, 1);
        return st;
    }
    return DLS_OK;
}

/* Checks that v, called `what` in messages, is an object (else says it must be `shape`)
 * holding only the members in the NULL-terminated list `known`. */
static dls_status check_object(reader *r, json_t *v, const char *what, const char *shape,
                               const char *const *known)
{
    if (!json_is_object(v))
        return fail(r, 0, "%s must be %s, not %s", what, shape, type_name(v));
    return check_keys(r, v, known, what);
}

/* Reads a number; the label naming it is formatted only when it is not one, since files
 * hold millions of numbers. */
static dls_status vget_number(reader *r, json_t *v, double *out, const char *fmt, va_list ap)
    DLS_PRINTF(4, 0);

static dls_status vget_number(reader *r, json_t *v, double *out, const char *fmt, va_list ap)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        if (isfinite(*out))
            return DLS_OK;
    }
    char what[96];
    vsnprintf(what, sizeof what, fmt, ap);
    if (!json_is_number(v))
        return fail(r, 0, "%s must be a number, not %s", what, type_name(v));
    return fail(r, 0, "%s must be a finite number", what);
}

static dls_status get_number(reader *r, json_t *v, double *out, const char *fmt, ...)
    DLS_PRINTF(4, 5);

static dls_status get_number(reader *r, json_t *v, double *out, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls_status st = vget_number(r, v, out, fmt, ap);
    va_end(ap);
    return st;
}

/* get_number() on element k of the array arr, located there. */
static dls_status get_number_at(reader *r, json_t *arr, size_t k, double *out, const char *fmt,
                                ...) DLS_PRINTF(5, 6);

static dls_status get_number_at(reader *r, json_t *arr, size_t k, double *out, const char *fmt,
                                ...)
{
    va_list ap;
    va_start(ap, fmt);
    push_index(r, k);
    dls_status st = vget_number(r, json_array_get(arr, k), out, fmt, ap);
    pop(r, 1);
    va_end(ap);
    return st;
}

/* Fails with a problem the model validators found, at the value it names: `n` steps
 * below the current path. */
static dls_status fail_problem(reader *r, const dls__problem *pb, const dls__jstep *below,
                               size_t n)
{
    for (size_t k = 0; k < n; k++) {
        DLS_ASSERT(r->depth < MAX_DEPTH);
        r->path[r->depth++] = below[k];
    }
    dls_status st = fail(r, 0, "%s", pb->text);
    pop(r, n);
    return st;
}

/* Reads an array of numbers at the current path into a new array. */
static dls_status get_numbers(reader *r, json_t *arr, const char *what, double **out, size_t *n)
{
    if (!json_is_array(arr))
        return fail(r, 0, "%s must be an array of numbers, not %s", what, type_name(arr));
    size_t len = json_array_size(arr);
    if (len == 0)
        return fail(r, 0, "%s is empty", what);
    double *v = malloc(len * sizeof *v);
    if (v == NULL)
        return nomem(r);
    for (size_t k = 0; k < len; k++) {
        dls_status st = get_number_at(r, arr, k, &v[k], "%s value %zu", what, k + 1);
        if (st != DLS_OK) {
            free(v);
            return st;
        }
    }
    *out = v;
    *n = len;
    return DLS_OK;
}

static dls_status read_points(reader *r, json_t *points, dls_model **out)
{
    static const char *const fields[] = {"size", "speed", "band low edge", "band high edge"};
    if (!json_is_array(points))
        return fail(r, 0, "\"points\" must be an array of [size, speed] pairs, not %s",
                    type_name(points));
    size_t n = json_array_size(points);
    if (n == 0)
        return fail(r, 0, "\"points\" is empty: give at least one [size, speed] pair");
    if (n > r->lim->points)
        return over(r, "\"points\" has %zu points, more than the %zu of a speed model "
                    "dlsched reads", n, r->lim->points);
    size_t width = 0;
    double *buf = malloc(DLS_BANDED_POINT_WIDTH * n * sizeof *buf);
    if (buf == NULL)
        return nomem(r);
    double *cols[DLS_BANDED_POINT_WIDTH] = {buf, buf + n, buf + 2 * n, buf + 3 * n};
    dls_status st = DLS_OK;
    for (size_t k = 0; k < n && st == DLS_OK; k++) {
        json_t *p = json_array_get(points, k);
        push_index(r, k);
        size_t w = json_is_array(p) ? json_array_size(p) : 0;
        if (!json_is_array(p) || (w != DLS_POINT_WIDTH && w != DLS_BANDED_POINT_WIDTH)) {
            char what[48];
            st = fail(r, 0, "speed point %zu must be [size, speed] or [size, speed, low, high], "
                      "not %s", k + 1, describe(p, what, sizeof what));
        } else if (width != 0 && w != width) {
            st = fail(r, 0, "speed point %zu has %zu numbers but point 1 has %zu: give every "
                      "point a band [size, speed, low, high] or none", k + 1, w, width);
        } else {
            width = w;
            for (size_t f = 0; f < w && st == DLS_OK; f++)
                st = get_number_at(r, p, f, &cols[f][k], "speed point %zu: the %s", k + 1,
                                   fields[f]);
        }
        pop(r, 1);
    }
    dls__problem pb;
    int banded = width == DLS_BANDED_POINT_WIDTH;
    const double *low = banded ? cols[2] : NULL, *high = banded ? cols[3] : NULL;
    if (st == DLS_OK && dls__check_points(n, cols[0], cols[1], low, high, &pb)) {
        dls__jstep at[2] = {{NULL, pb.index}, {NULL, (size_t)pb.field}};
        st = fail_problem(r, &pb, at, 2);
    }
    if (st == DLS_OK)
        st = dls_model_create_points(n, cols[0], cols[1], low, high, out, r->err);
    free(buf);
    return st;
}

static dls_status read_speed(reader *r, json_t *v, dls_model **out)
{
    if (json_is_number(v)) {
        double s = json_number_value(v);
        dls__problem pb;
        if (dls__check_speed(s, &pb))
            return fail(r, 0, "%s", pb.text);
        return dls_model_create_constant(s, out, r->err);
    }
    static const char *const known[] = {"points", NULL};
    dls_status st = check_object(r, v, "\"speed\"", "a number or an object {\"points\": [...]}",
                                 known);
    if (st != DLS_OK)
        return st;
    json_t *points = json_object_get(v, "points");
    if (points == NULL)
        return fail(r, 0, "\"speed\" object has no \"points\"");
    push_key(r, "points");
    st = read_points(r, points, out);
    pop(r, 1);
    return st;
}

static dls_status read_time(reader *r, json_t *v, dls_model **out)
{
    if (!json_is_array(v))
        return fail(r, 0, "\"time\" must be an array of [a, b] lines, not %s", type_name(v));
    size_t n = json_array_size(v);
    if (n == 0)
        return fail(r, 0, "\"time\" is empty: give at least one line [a, b]");
    if (n > r->lim->lines)
        return over(r, "\"time\" has %zu lines, more than the %zu of a time model dlsched "
                    "reads", n, r->lim->lines);
    double *a = malloc(2 * n * sizeof *a);
    if (a == NULL)
        return nomem(r);
    double *b = a + n;
    dls_status st = DLS_OK;
    for (size_t l = 0; l < n && st == DLS_OK; l++) {
        json_t *line = json_array_get(v, l);
        push_index(r, l);
        if (!json_is_array(line) || json_array_size(line) != 2) {
            char what[48];
            st = fail(r, 0, "time line %zu must be an array [a, b] of two numbers, not %s", l + 1,
                      describe(line, what, sizeof what));
        } else {
            st = get_number_at(r, line, 0, &a[l], "time line %zu: the intercept a", l + 1);
            if (st == DLS_OK)
                st = get_number_at(r, line, 1, &b[l], "time line %zu: the slope b", l + 1);
        }
        pop(r, 1);
    }
    dls__problem pb;
    if (st == DLS_OK && dls__check_lines(n, a, b, &pb)) {
        dls__jstep at[2] = {{NULL, pb.index}, {NULL, (size_t)pb.field}};
        st = fail_problem(r, &pb, at, pb.field == DLS__FIELD_WHOLE ? 0 : 2);
    }
    if (st == DLS_OK)
        st = dls_model_create_time_lines(n, a, b, out, r->err);
    free(a);
    return st;
}

static dls_status read_speed2d(reader *r, json_t *v, dls_model **out)
{
    static const char *const known[] = {"x", "y", "values", NULL};
    dls_status st = check_object(r, v, "\"speed2d\"",
                                 "an object with \"x\", \"y\" and \"values\"", known);
    if (st != DLS_OK)
        return st;
    for (const char *const *k = known; *k; k++)
        if (json_object_get(v, *k) == NULL)
            return fail(r, 0, "\"speed2d\" has no \"%s\"", *k);
    /* the grid's size before any of it is read (values must be x values times y values) */
    json_t *jx = json_object_get(v, "x"), *jy = json_object_get(v, "y");
    size_t gx = json_is_array(jx) ? json_array_size(jx) : 0;
    size_t gy = json_is_array(jy) ? json_array_size(jy) : 0;
    if (gx > 0 && gy > 0 && gx > r->lim->grid_cells / gy)
        return over(r, "\"speed2d\" has %zu x %zu values, more than the %zu of a 2-D grid "
                    "dlsched reads", gx, gy, r->lim->grid_cells);
    double *x = NULL, *y = NULL, *values = NULL;
    size_t nx = 0, ny = 0;
    push_key(r, "x");
    st = get_numbers(r, json_object_get(v, "x"), "speed2d x", &x, &nx);
    pop(r, 1);
    if (st == DLS_OK) {
        push_key(r, "y");
        st = get_numbers(r, json_object_get(v, "y"), "speed2d y", &y, &ny);
        pop(r, 1);
    }
    json_t *rows = json_object_get(v, "values");
    push_key(r, "values");
    if (st == DLS_OK) {
        if (!json_is_array(rows))
            st = fail(r, 0, "speed2d values must be an array of rows, not %s", type_name(rows));
        else if (json_array_size(rows) != nx)
            st = fail(r, 0, "speed2d values has %zu rows but x has %zu values (one row per x)",
                      json_array_size(rows), nx);
    }
    if (st == DLS_OK) {
        values = malloc(nx * ny * sizeof *values);
        if (values == NULL)
            st = nomem(r);
    }
    for (size_t i = 0; i < nx && st == DLS_OK; i++) {
        json_t *row = json_array_get(rows, i);
        push_index(r, i);
        if (!json_is_array(row) || json_array_size(row) != ny) {
            st = fail(r, 0, "speed2d values row %zu must be an array of %zu numbers (one per y)",
                      i + 1, ny);
        } else {
            for (size_t j = 0; j < ny && st == DLS_OK; j++)
                st = get_number_at(r, row, j, &values[i * ny + j], "speed2d value [%zu][%zu]",
                                   i + 1, j + 1);
        }
        pop(r, 1);
    }
    pop(r, 1);
    dls__problem pb;
    if (st == DLS_OK && dls__check_grid(nx, x, ny, y, values, &pb)) {
        if (pb.field == DLS__FIELD_GRID_VALUE) {
            dls__jstep at[3] = {{"values", 0}, {NULL, pb.index / ny}, {NULL, pb.index % ny}};
            st = fail_problem(r, &pb, at, 3);
        } else {
            dls__jstep at[2] = {{pb.field == DLS__FIELD_GRID_X ? "x" : "y", 0}, {NULL, pb.index}};
            st = fail_problem(r, &pb, at, 2);
        }
    }
    if (st == DLS_OK)
        st = dls_model_create_speed2d(nx, x, ny, y, values, out, r->err);
    free(x);
    free(y);
    free(values);
    return st;
}

static dls_status read_link(reader *r, json_t *v, double *startup, double *rate)
{
    static const char *const known[] = {"startup", "rate", NULL};
    dls_status st = check_object(r, v, "\"link\"", "an object {\"startup\": S, \"rate\": C}",
                                 known);
    if (st != DLS_OK)
        return st;
    double *dest[2] = {startup, rate};
    for (int k = 0; k < 2; k++) {
        json_t *f = json_object_get(v, known[k]);
        if (f == NULL)
            return fail(r, 0, "\"link\" has no \"%s\" (give both \"startup\" and \"rate\")", known[k]);
        push_key(r, known[k]);
        st = get_number(r, f, dest[k], "the link %s", known[k]);
        if (st == DLS_OK && *dest[k] < 0)
            st = fail(r, 0, "the link %s must be >= 0, not %.10g", known[k], *dest[k]);
        pop(r, 1);
        if (st != DLS_OK)
            return st;
    }
    return DLS_OK;
}

/* The processor's name, which must be new to the platform: sets r->pname. */
static dls_status read_name(reader *r, json_t *obj, const dls_platform *pl)
{
    json_t *name = json_object_get(obj, "name");
    char why[160];
    if (name == NULL)
        return fail(r, 0, "has no \"name\"");
    push_key(r, "name");
    dls_status st = DLS_OK;
    if (!json_is_string(name))
        st = fail(r, 0, "\"name\" must be a string, not %s", type_name(name));
    else if (json_string_length(name) == 0)
        st = fail(r, 0, "\"name\" is empty");
    else if (strlen(json_string_value(name)) != json_string_length(name))
        st = fail(r, 0, "\"name\" contains a NUL character");
    else if (dls__check_name(json_string_value(name), why, sizeof why) != 0)
        st = fail(r, 0, "\"name\" %s", why);
    if (st == DLS_OK) {
        r->pname = json_string_value(name);
        long dup = dls__platform_find(pl, r->pname);
        if (dup >= 0) {
            char q[128];
            dls__quote_name(r->pname, q, sizeof q);
            st = fail(r, 0, "duplicate name: processor #%ld is also called \"%s\"", dup + 1, q);
        }
    }
    pop(r, 1);
    return st;
}

/* The processor's one model, read from whichever of its keys holds it. */
static dls_status read_model(reader *r, json_t *obj, dls_model **model)
{
    static const char *const kinds[] = {"speed", "time", "speed2d", NULL};
    /* The models in file order, so that the error points at the second one written. */
    const char *model_key = NULL, *key;
    json_t *val;
    json_object_foreach(obj, key, val) {
        int is_model = 0;
        for (const char *const *k = kinds; *k; k++)
            if (strcmp(key, *k) == 0)
                is_model = 1;
        if (!is_model)
            continue;
        if (model_key != NULL) {
            push_key(r, key);
            dls_status st = fail(r, 1, "has two models, \"%s\" and \"%s\": give exactly one",
                                 model_key, key);
            pop(r, 1);
            return st;
        }
        model_key = key;
    }
    if (model_key == NULL)
        return fail(r, 0, "has no model: give one of \"speed\", \"time\" or \"speed2d\"");
    dls_status st;
    json_t *mv = json_object_get(obj, model_key);
    push_key(r, model_key);
    if (strcmp(model_key, "speed") == 0)
        st = read_speed(r, mv, model);
    else if (strcmp(model_key, "time") == 0)
        st = read_time(r, mv, model);
    else
        st = read_speed2d(r, mv, model);
    pop(r, 1);
    return st;
}

static dls_status read_processor(reader *r, json_t *obj, size_t k, dls_platform *pl)
{
    static const char *const known[] = {"name", "speed", "time", "speed2d", "limit", "link", NULL};
    r->proc = (long)k;
    r->pname = NULL;
    if (!json_is_object(obj))
        return fail(r, 0, "must be an object, not %s", type_name(obj));
    dls_status st = read_name(r, obj, pl);
    if (st == DLS_OK)
        st = check_keys(r, obj, known, "a processor");
    dls_model *model = NULL;
    if (st == DLS_OK)
        st = read_model(r, obj, &model);
    if (st != DLS_OK)
        return st;

    double limit = INFINITY, startup = 0, rate = 0;
    json_t *lv = json_object_get(obj, "limit");
    if (lv != NULL) {
        push_key(r, "limit");
        st = get_number(r, lv, &limit, "\"limit\"");
        if (st == DLS_OK && !(limit > 0))
            st = fail(r, 0, "\"limit\" must be > 0, not %.10g", limit);
        pop(r, 1);
    }
    json_t *link = json_object_get(obj, "link");
    if (st == DLS_OK && link != NULL) {
        push_key(r, "link");
        st = read_link(r, link, &startup, &rate);
        pop(r, 1);
    }
    size_t index;
    if (st == DLS_OK)
        st = dls__platform_add_owned(pl, r->pname, model, &index, r->err);
    if (st != DLS_OK) {
        dls_model_free(model);
        return st;
    }
    pl->procs[index].limit = limit;
    pl->procs[index].has_link = link != NULL;
    pl->procs[index].startup = startup;
    pl->procs[index].rate = rate;
    return DLS_OK;
}

static dls_status read_root(reader *r, json_t *root, dls_platform *pl)
{
    static const char *const known[] = {"processors", NULL};
    dls_status st = check_object(r, root, "the platform", "a JSON object {\"processors\": [...]}",
                                 known);
    if (st != DLS_OK)
        return st;
    json_t *procs = json_object_get(root, "processors");
    if (procs == NULL)
        return fail(r, 0, "the platform has no \"processors\"");
    push_key(r, "processors");
    if (!json_is_array(procs))
        st = fail(r, 0, "\"processors\" must be an array, not %s", type_name(procs));
    else if (json_array_size(procs) == 0)
        st = fail(r, 0, "\"processors\" is empty: a platform needs at least one processor");
    else if (json_array_size(procs) > r->lim->processors)
        st = over(r, "\"processors\" has %zu processors, more than the %zu dlsched reads",
                  json_array_size(procs), r->lim->processors);
    for (size_t k = 0; st == DLS_OK && k < json_array_size(procs); k++) {
        push_index(r, k);
        st = read_processor(r, json_array_get(procs, k), k, pl);
        pop(r, 1);
        r->proc = -1;
        r->pname = NULL;
    }
    pop(r, 1);
    return st;
}

/* "is 3435973837 bytes (3.2 GiB), more than the 1073741824 (1 GiB)" */
static dls_status too_big(dls_error *err, const char *source, const char *what, double bytes,
                          const dls__limits *lim)
{
    char have[32], most[32];
    dls__format_bytes(bytes, have, sizeof have);
    dls__format_bytes((double)lim->file_bytes, most, sizeof most);
    return dls__fail(err, DLS_ELIMIT, "%s: %s %.0f bytes (%s), more than the %zu (%s) dlsched "
                     "reads", source, what, bytes, have, lim->file_bytes, most);
}

dls_status dls__platform_read_string_within(const char *text, size_t len, const char *source,
                                            const dls__limits *lim, dls_platform **out,
                                            dls_error *err)
{
    if (text == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_read_string: NULL argument");
    if (source == NULL)
        source = "<string>";
    if (len > lim->file_bytes)
        return too_big(err, source, "the platform is", (double)len, lim);
    json_error_t je;
    json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (root == NULL) {
        int line = je.line > 0 ? je.line : 1, column = je.column > 0 ? je.column : 1;
        /* jansson leaves the text empty when its very first allocation fails */
        if (json_error_code(&je) == json_error_out_of_memory || je.text[0] == '\0')
            return dls__fail(err, DLS_ENOMEM, "%s: out of memory while parsing", source);
        return dls__fail_at(err, DLS_ESYNTAX, line, column, -1, "%s:%d:%d: malformed JSON: %s",
                            source, line, column, je.text);
    }
    dls_platform *pl = dls__platform_new();
    if (pl == NULL) {
        json_decref(root);
        return dls__fail(err, DLS_ENOMEM, "%s: out of memory", source);
    }
    reader r = {text, len, source, lim, err, {{NULL, 0}}, 0, -1, NULL};
    dls_status st = read_root(&r, root, pl);
    json_decref(root);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return st;
    }
    *out = pl;
    return DLS_OK;
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
        return dls__fail(err, DLS_EINVAL, "dls_platform_read_file: NULL argument");
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return dls__fail(err, DLS_EIO, "%s: cannot open: %s", path, strerror(errno));
    /* a regular file's size is known before reading it; a stream is read up to the limit */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) &&
        (uintmax_t)sb.st_size > (uintmax_t)lim->file_bytes) {
        fclose(f);
        return too_big(err, path, "the file is", (double)sb.st_size, lim);
    }
    size_t cap = 0, len = 0;
    char *buf = NULL;
    int alloc_failed = 0, over_limit = 0;
    for (;;) {
        if (len > lim->file_bytes) {
            over_limit = 1;
            break;
        }
        size_t want = len + DLS_READ_CHUNK;
        if (want > lim->file_bytes + 1)
            want = lim->file_bytes + 1; /* one byte more tells a stream past the limit */
        char *bigger = dls__grow(buf, &cap, want, 1);
        if (bigger == NULL) {
            alloc_failed = 1;
            break;
        }
        buf = bigger;
        size_t room = (cap < lim->file_bytes + 1 ? cap : lim->file_bytes + 1) - len;
        size_t got = fread(buf + len, 1, room, f);
        len += got;
        if (got < room)
            break;
    }
    dls_status st = DLS_OK;
    if (alloc_failed)
        st = dls__fail(err, DLS_ENOMEM, "%s: out of memory", path);
    else if (ferror(f))
        st = dls__fail(err, DLS_EIO, "%s: read error: %s", path, strerror(errno));
    else if (over_limit || len > lim->file_bytes)
        st = too_big(err, path, "the stream holds at least", (double)len, lim);
    fclose(f);
    if (st == DLS_OK)
        st = dls__platform_read_string_within(buf, len, path, lim, out, err);
    free(buf);
    return st;
}

dls_status dls_platform_read_file(const char *path, dls_platform **out, dls_error *err)
{
    return dls__platform_read_file_within(path, &dls__platform_limits, out, err);
}

/* ---------------------------------------------------------------------------------- */
/* Writing                                                                            */

/* Digits needed so that every number of the processor reads back exactly. */
static int proc_digits(const dls__proc *p)
{
    int d = 1;
#define NEED(v)                              \
    do {                                     \
        int need_ = dls__shortest_digits(v); \
        if (need_ > d)                       \
            d = need_;                       \
    } while (0)
    const dls_model *m = p->model;
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        NEED(m->constant);
        break;
    case DLS_MODEL_POINTS:
        for (size_t k = 0; k < (m->bands ? 4 : 2) * m->n; k++)
            NEED(m->data[k]);
        break;
    case DLS_MODEL_TIME_LINES:
        for (size_t k = 0; k < 2 * m->n; k++)
            NEED(m->data[k]);
        break;
    case DLS_MODEL_SPEED2D:
        for (size_t k = 0; k < m->n + m->ny + m->n * m->ny; k++)
            NEED(m->data[k]);
        break;
    }
    if (isfinite(p->limit))
        NEED(p->limit);
    if (p->has_link) {
        NEED(p->startup);
        NEED(p->rate);
    }
#undef NEED
    return d;
}

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
    char *text = bad ? NULL : json_dumps(obj, JSON_REAL_PRECISION(proc_digits(p)) |
                                                  JSON_PRESERVE_ORDER);
    json_decref(obj);
    return text;
}

dls_status dls_platform_to_string(const dls_platform *platform, char **out, dls_error *err)
{
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_to_string: NULL argument");
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_platform_to_string: the platform has no "
                         "processor (a platform file needs at least one)");
    static const char head[] = "{\n  \"processors\": [\n", indent[] = "    ",
                      next[] = ",\n", tail[] = "\n  ]\n}\n";
    dls__buf b = DLS__BUF_INIT;
    dls__buf_add(&b, head, sizeof head - 1);
    for (size_t i = 0; i < platform->n; i++) {
        char *t = proc_text(&platform->procs[i]);
        if (t == NULL) {
            dls__buf_free(&b);
            return dls__fail(err, DLS_ENOMEM, "dls_platform_to_string: out of memory");
        }
        dls__buf_add(&b, indent, sizeof indent - 1);
        dls__buf_add(&b, t, strlen(t));
        if (i + 1 < platform->n)
            dls__buf_add(&b, next, sizeof next - 1);
        free(t);
    }
    dls__buf_add(&b, tail, sizeof tail - 1);
    char *text = dls__buf_take(&b);
    if (text == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_platform_to_string: out of memory");
    *out = text;
    return DLS_OK;
}

dls_status dls_platform_write_file(const dls_platform *platform, const char *path, dls_error *err)
{
    if (path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_platform_write_file: NULL path");
    char *text;
    dls_status st = dls_platform_to_string(platform, &text, err);
    if (st != DLS_OK)
        return st;
    st = dls__write_output(path, text, strlen(text), err);
    free(text);
    return st;
}
