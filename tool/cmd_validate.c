/* dlsched validate: the scorecard of any scheduler over the reference suite. Each instance
 * of the manifest is handed to the scheduler's command, its plan verified (dlsched/verify.h)
 * and its makespan compared with the instance's certified optimum; the results are kept in
 * a log as they come (so that a run can resume), then summed up per family, as text, JSON
 * or an SVG chart. */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dlsched/verify.h>

#include "tool.h"

/* The suite's manifest by default (from the source tree's top). */
#define VALIDATE_DEFAULT_SUITE "validation/manifest.json"
/* Default seconds one instance may take. */
#define VALIDATE_DEFAULT_TIME_LIMIT 60
/* Longest command line after substitution. */
#define VALIDATE_COMMAND_MAX 16384
/* Families shown in the chart and the table (the suite has about fifteen). */
#define VALIDATE_FAMILIES_MAX 64

static const tool_opt validate_opts[] = {
    TOOL_GROUP("Suite"),
    TOOL_STRING("scheduler", "CMD", "the command to score: {platform} {load} {output} {kind} "
                "{weights} {ordered} {id} are replaced (shell-quoted)"),
    TOOL_STRING("suite", "MANIFEST", "the suite's manifest"),
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, 1e6, NULL,
     "seconds one instance's scheduler may run: then SIGTERM to its process group, SIGKILL "
     "a second later"},
    TOOL_STRING("family", "NAME", "only the instances of this family"),
    {"first", OPT_COUNT, "N", NULL, 1, 1e9, NULL, "only the first N instances (a quick try)"},
    TOOL_STRING("resume", "LOG", "keep each result in LOG as it comes; results already "
                "there are not run again"),
    TOOL_GROUP("Output"),
    TOOL_STRING("svg", "FILE", "draw the scorecard as an SVG chart"),
    TOOL_FLAG("quiet", "no progress line"),
    TOOL_FLAG("json", "write the scorecard as JSON"),
    TOOL_OPT_END,
};

static int validate_default(const char *opt, char *buf, size_t size)
{
    if (strcmp(opt, "time-limit") == 0)
        return tool_show_number(VALIDATE_DEFAULT_TIME_LIMIT, buf, size);
    if (strcmp(opt, "suite") == 0)
        return tool_show_text(VALIDATE_DEFAULT_SUITE, buf, size);
    return 0;
}

const tool_cmd tool_cmd_validate = {
    "validate",
    "score a scheduler on the reference suite against known optima",
    "--scheduler CMD [OPTIONS]",
    "Runs CMD (through /bin/sh) on every instance of the suite, in a temporary folder of\n"
    "its own and within a time limit. {platform} is the instance's platform file, {load}\n"
    "its load (or elements, or matrix order), {kind} schedule, partition, matrix or\n"
    "weighted, {weights} the weights file of a weighted instance, {ordered} ordered or\n"
    "unordered, {output} the file the scheduler must write, as `dlsched verify` reads it.\n"
    "Each plan is verified and a valid plan's makespan compared with the certified\n"
    "optimum. Prints, per family, how many plans were valid, invalid or failed, and the\n"
    "mean and worst gap. Exits 0 when every plan was valid, 1 when not.",
    validate_opts,
    0,
    0,
    cmd_validate,
    validate_default,
    "dlsched validate --family paper --first 3 \\\n"
    "    --scheduler 'dlsched schedule {platform} --load {load} --json > {output}'\n"
    "dlsched validate --family functional --first 3 --json --scheduler \\\n"
    "    'dlsched partition {platform} --elements {load} --json > {output}'",
    NULL,
};

/* One instance of the manifest, and what became of it. */
typedef struct instance {
    char *id, *family, *platform, *weights;
    const char *kind; /* one of instance_kinds */
    double load, optimum;
    int order_rate, originator, selection;
    int ordered; /* a weighted set whose elements are ordered (contiguous chunks) */
    /* the result */
    int done;
    char status[16]; /* valid, invalid, failed, timeout, skipped */
    double makespan, gap, seconds;
    char why[DLS_ERROR_MESSAGE_MAX + 128];
} instance;

typedef struct suite {
    instance *in;
    size_t n;
    char *dir; /* the manifest's directory, for relative paths */
} suite;

static void suite_free(suite *s)
{
    for (size_t k = 0; k < s->n; k++) {
        free(s->in[k].id);
        free(s->in[k].family);
        free(s->in[k].platform);
        free(s->in[k].weights);
    }
    free(s->in);
    free(s->dir);
}

/* A path of the manifest, relative to its directory. */
static char *suite_path(const suite *s, const char *rel)
{
    if (rel[0] == '/')
        return strdup(rel);
    size_t n = strlen(s->dir) + strlen(rel) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", s->dir, rel);
    return p;
}

/* The kinds of instance, as the manifest names them. */
static const char *const instance_kinds[] = {"schedule", "partition", "matrix", "weighted"};

/* "a number", "an object": what a JSON value is, for messages. */
static const char *json_what(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER:
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* Where a manifest's instance is, for its messages: the file, its place, its id. */
typedef struct where {
    const char *path;
    size_t k;
    const char *id;     /* NULL until read */
    const char *within; /* the object of the key in question ("mode"), NULL: the instance */
} where;

static int bad(const where *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(const where *w, const char *fmt, ...)
{
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char id[64 + 8] = "";
    if (w->id)
        snprintf(id, sizeof id, " (\"%.64s\")", w->id);
    tool_error("validate: %s: instances[%zu]%s: %s%s%s%s", w->path, w->k, id,
               w->within ? "\"" : "", w->within ? w->within : "", w->within ? "\": " : "", what);
    return -1;
}

/* The string of key: *out NULL when absent and not required; never empty. */
static int get_string(const where *w, json_t *o, const char *key, int required, const char **out)
{
    json_t *v = json_object_get(o, key);
    *out = NULL;
    if (v == NULL && !required)
        return 0;
    if (v == NULL)
        return bad(w, "\"%s\" is missing (a string)", key);
    if (!json_is_string(v))
        return bad(w, "\"%s\" is %s, not a string", key, json_what(v));
    if (json_string_length(v) == 0)
        return bad(w, "\"%s\" is empty", key);
    if (strlen(json_string_value(v)) != json_string_length(v))
        return bad(w, "\"%s\" holds a NUL character", key);
    *out = json_string_value(v);
    return 0;
}

/* A boolean key: def when absent. */
static int get_bool(const where *w, json_t *o, const char *key, int def, int *out)
{
    json_t *v = json_object_get(o, key);
    if (v != NULL && !json_is_boolean(v))
        return bad(w, "\"%s\" is %s, not true or false", key, json_what(v));
    *out = v ? json_is_true(v) : def;
    return 0;
}

/* Whether v is 0 or within the input domain [DLS_DOMAIN_MIN, DLS_DOMAIN_MAX]. */
static int in_domain(double v, int zero_ok)
{
    return (zero_ok && v == 0) || (v >= DLS_DOMAIN_MIN && v <= DLS_DOMAIN_MAX);
}

/* The optimum as the manifest writes it: a number, a decimal string, or a rational "p/q";
 * 0 or within the domain. */
static int read_optimum(const where *w, json_t *v, double *out)
{
    if (v == NULL || json_is_null(v))
        return bad(w, "\"optimum\" is missing (validate needs a certified optimum)");
    double x = NAN;
    if (json_is_number(v)) {
        x = json_number_value(v);
    } else if (json_is_string(v)) {
        const char *s = json_string_value(v), *at = s;
        char *end = (char *)s;
        /* a decimal as the suite writes it: no spaces, no inf or nan, no hexadecimal */
        int ok = strspn(s, "0123456789+-.eE/") == strlen(s);
        double p = ok ? strtod(at, &end) : NAN, q = 1;
        if (ok && end != at && *end == '/') {
            at = end + 1;
            q = strtod(at, &end);
            ok = end != at && in_domain(q, 0);
        }
        if (ok && end != at && *end == '\0' && isfinite(p))
            x = p / q;
    } else {
        return bad(w, "\"optimum\" is %s, not a number or a decimal string", json_what(v));
    }
    if (!in_domain(x, 1)) {
        char shown[64];
        snprintf(shown, sizeof shown, "%.17g", x);
        return bad(w, "\"optimum\" %s%s%s is not a makespan: 0 or from %g to %g seconds",
                   json_is_string(v) ? "\"" : "",
                   json_is_string(v) ? json_string_value(v) : shown,
                   json_is_string(v) ? "\"" : "", DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    }
    *out = x;
    return 0;
}

/* The instance's size: a schedule's "load", a partition's "elements", a striped matrix's
 * order "matrix" (either key is taken, as manifests have written them); a weighted set's
 * is the number of its weights, read when it runs. */
static int read_size(const where *w, json_t *o, int kind, double *out)
{
    static const char *const keys[] = {"load", "elements", "matrix"};
    const char *key = kind == 1 ? "elements" : kind == 2 ? "matrix" : "load";
    json_t *v = json_object_get(o, key);
    for (size_t j = 0; v == NULL && j < 3; j++)
        if ((v = json_object_get(o, keys[j])) != NULL)
            key = keys[j];
    *out = NAN;
    if (kind == 3)
        return 0;
    if (v == NULL)
        return bad(w, "\"%s\" is missing (a number)", key);
    if (!json_is_number(v))
        return bad(w, "\"%s\" is %s, not a number", key, json_what(v));
    double x = json_number_value(v);
    if (kind == 0 && !in_domain(x, 0))
        return bad(w, "\"load\" %.17g is outside the domain of loads, %g to %g", x,
                   DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    if (kind != 0 && !(x == floor(x) && x >= (kind == 2) && x <= TOOL_MAX_WHOLE))
        return bad(w, "\"%s\" %.17g is not a whole number from %d to 2^53", key, x, kind == 2);
    *out = x;
    return 0;
}

/* The "mode" of a schedule: an object, each key optional. */
static int read_mode(const where *w0, json_t *o, instance *x)
{
    where in_mode = *w0, *w = &in_mode;
    json_t *mode = json_object_get(o, "mode");
    in_mode.within = "mode";
    if (mode != NULL && !json_is_object(mode))
        return bad(w0, "\"mode\" is %s, not an object", json_what(mode));
    const char *order;
    if (get_string(w, mode, "order", 0, &order) != 0)
        return -1;
    if (order != NULL && strcmp(order, "given") != 0 && strcmp(order, "rate") != 0)
        return bad(w, "\"order\" is \"%s\": given or rate expected", order);
    x->order_rate = order != NULL && strcmp(order, "rate") == 0;
    return get_bool(w, mode, "originator_computes", 0, &x->originator) != 0 ||
                   get_bool(w, mode, "selection", 1, &x->selection) != 0
               ? -1
               : 0;
}

/* Reads the k-th instance of the manifest at path into x, every field checked; -1 after a
 * message naming the instance and the field. Strings are the manifest's own (copied by
 * the caller). */
static int read_instance(const where *w0, json_t *o, instance *x, const char **plat,
                         const char **weights)
{
    where w = *w0;
    if (!json_is_object(o))
        return bad(&w, "is %s, not an object", json_what(o));
    const char *id, *kind, *family;
    if (get_string(&w, o, "id", 1, &id) != 0)
        return -1;
    w.id = id;
    if (get_string(&w, o, "kind", 1, &kind) != 0 || get_string(&w, o, "family", 0, &family) != 0 ||
        get_string(&w, o, "platform", 1, plat) != 0)
        return -1;
    int k = 0;
    while (k < 4 && strcmp(kind, instance_kinds[k]) != 0)
        k++;
    if (k == 4)
        return bad(&w, "\"kind\" is \"%s\": schedule, partition, matrix or weighted expected",
                   kind);
    x->kind = instance_kinds[k];
    *weights = NULL;
    if (k == 3 && (get_string(&w, o, "weights", 1, weights) != 0 ||
                   get_bool(&w, o, "ordered", 0, &x->ordered) != 0))
        return -1;
    if (read_size(&w, o, k, &x->load) != 0 || read_mode(&w, o, x) != 0 ||
        read_optimum(&w, json_object_get(o, "optimum"), &x->optimum) != 0)
        return -1;
    x->id = (char *)id;
    x->family = (char *)(family ? family : "-");
    return 0;
}

/* Whether two instances share an id (a resumed run finds results by id): -1 after a
 * message. Sorted copies of the ids, so that a large manifest takes n log n. */
static int cmp_id(const void *a, const void *b)
{
    return strcmp((*(const instance *const *)a)->id, (*(const instance *const *)b)->id);
}

static int unique_ids(const char *path, const suite *s)
{
    const instance **by = malloc((s->n ? s->n : 1) * sizeof *by);
    if (by == NULL) {
        tool_oom("validate");
        return -1;
    }
    for (size_t k = 0; k < s->n; k++)
        by[k] = &s->in[k];
    qsort(by, s->n, sizeof *by, cmp_id);
    int rc = 0;
    for (size_t k = 1; k < s->n && rc == 0; k++)
        if (strcmp(by[k]->id, by[k - 1]->id) == 0) {
            size_t a = (size_t)(by[k - 1] - s->in), b = (size_t)(by[k] - s->in);
            tool_error("validate: %s: instances[%zu] and instances[%zu] have the same \"id\", "
                       "\"%s\"", path, a < b ? a : b, a < b ? b : a, by[k]->id);
            rc = -1;
        }
    free(by);
    return rc;
}

static int load_suite(const char *path, suite *s)
{
    memset(s, 0, sizeof *s);
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (root == NULL) {
        tool_error("validate: %s:%d:%d: %s", path, je.line, je.column, je.text);
        return -1;
    }
    json_t *list = json_object_get(root, "instances");
    json_t *version = json_object_get(root, "version");
    if (version != NULL && !(json_is_number(version) && json_number_value(version) == 1)) {
        tool_error("validate: %s: \"version\" must be 1, the version this dlsched reads", path);
        json_decref(root);
        return -1;
    }
    if (!json_is_array(list) || json_array_size(list) == 0) {
        tool_error("validate: %s: an \"instances\" array expected (see validation/README.md)",
                   path);
        json_decref(root);
        return -1;
    }
    const char *slash = strrchr(path, '/');
    s->dir = slash ? strndup(path, (size_t)(slash - path + (slash == path))) : strdup(".");
    s->in = calloc(json_array_size(list), sizeof *s->in);
    int rc = s->dir == NULL || s->in == NULL ? -2 : 0;
    for (size_t k = 0; rc == 0 && k < json_array_size(list); k++) {
        where w = {path, k, NULL, NULL};
        instance got, *x = &s->in[s->n];
        const char *plat, *weights;
        memset(&got, 0, sizeof got);
        if (read_instance(&w, json_array_get(list, k), &got, &plat, &weights) != 0) {
            rc = -1;
            break;
        }
        *x = got;
        x->id = strdup(got.id);
        x->family = strdup(got.family);
        x->platform = suite_path(s, plat);
        x->weights = weights ? suite_path(s, weights) : NULL;
        s->n++; /* freed by suite_free from here on */
        if (x->id == NULL || x->family == NULL || x->platform == NULL ||
            (weights != NULL && x->weights == NULL))
            rc = -2;
    }
    if (rc == -2)
        tool_oom("validate");
    if (rc == 0)
        rc = unique_ids(path, s);
    json_decref(root);
    return rc == 0 ? 0 : -1;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The most bytes a plan may take for an instance (the scheduler's {output} is read whole):
 * VALIDATE_PLAN_BASE, and per processor VALIDATE_PLAN_PER_PROCESSOR plus twelve times its
 * name's length (named twice, each byte escaped in at most six), and per element of a
 * weighted set VALIDATE_PLAN_PER_ELEMENT; at most DLS_PLATFORM_FILE_MAX. dlsched's own plans
 * take a tenth of it; a larger {output} is refused unread. */
#define VALIDATE_PLAN_BASE ((size_t)4 << 20)
#define VALIDATE_PLAN_PER_PROCESSOR ((size_t)1024)
#define VALIDATE_PLAN_PER_ELEMENT ((size_t)64)

static size_t plan_bound(const dls_platform *pl, uint64_t elements)
{
    double b = (double)VALIDATE_PLAN_BASE + (double)VALIDATE_PLAN_PER_ELEMENT * (double)elements;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        b += (double)VALIDATE_PLAN_PER_PROCESSOR + 12.0 * (double)strlen(dls_platform_name(pl, i));
    return b < (double)DLS_PLATFORM_FILE_MAX ? (size_t)b : DLS_PLATFORM_FILE_MAX;
}

/* What the scheduler is handed for one instance, and what judges its plan. */
typedef struct handed {
    validate_box box;
    char platform[VALIDATE_PATH_MAX], weights[VALIDATE_PATH_MAX], output[VALIDATE_PATH_MAX];
    dls_platform *pl;
    double *w;
    uint64_t nw;
} handed;

/* Copies one of the suite's files (a regular file, bounded) into the box as name. */
static int copy_in(const where *at, const char *what, const char *src, handed *h,
                   const char *name, char *copy)
{
    char why[DLS_ERROR_MESSAGE_MAX], *bytes = NULL;
    size_t len = 0;
    if (validate_read_file(AT_FDCWD, src, 1, DLS_PLATFORM_FILE_MAX, &bytes, &len, why,
                           sizeof why) != 0)
        return bad(at, "the %s file %s %s", what, src, why);
    int rc = validate_box_put(&h->box, name, bytes, len, copy, VALIDATE_PATH_MAX, why, sizeof why);
    if (rc == 0 && h->pl == NULL) {
        dls_error err;
        if (dls_platform_read_string(bytes, len, src, &h->pl, &err) != DLS_OK)
            rc = bad(at, "the suite's platform: %s", err.message);
    } else if (rc != 0) {
        tool_error("validate: %s", why);
    }
    free(bytes);
    return rc;
}

/* The suite's files of x read and copied into a box of its own: the scheduler is handed
 * the copies, never the suite's originals. 0; -1 after a message when the suite's files
 * cannot be read (exit 2); -2 when the box cannot be made (exit 3). */
static int hand_over(const where *at, instance *x, handed *h)
{
    char why[TOOL_WEIGHTS_WHY_MAX];
    memset(h, 0, sizeof *h);
    if (validate_box_open(&h->box, why, sizeof why) != 0) {
        tool_error("validate: %s", why);
        return -2;
    }
    snprintf(h->output, sizeof h->output, "%s/plan", h->box.path);
    if (copy_in(at, "platform", x->platform, h, "platform.json", h->platform) != 0)
        return -1;
    if (x->weights == NULL)
        return 0;
    if (copy_in(at, "weights", x->weights, h, "weights", h->weights) != 0)
        return -1;
    if (tool_read_weights(x->weights, &h->w, &h->nw, why, sizeof why) != 0)
        return bad(at, "the suite's weights: %s", why);
    x->load = (double)h->nw; /* {load}: the number of elements */
    return 0;
}

static void handed_free(handed *h)
{
    char why[VALIDATE_PATH_MAX + 128];
    if (validate_box_close(&h->box, why, sizeof why) != 0)
        tool_warning("validate: %s", why);
    dls_platform_free(h->pl);
    free(h->w);
}

/* Appends s to the command, single-quoted for the shell. */
static size_t put_quoted(char *o, size_t at, size_t size, const char *s)
{
    if (at + 1 < size)
        o[at++] = '\'';
    for (; *s && at + 5 < size; s++) {
        if (*s == '\'') {
            memcpy(o + at, "'\\''", 4);
            at += 4;
        } else {
            o[at++] = *s;
        }
    }
    if (at + 1 < size)
        o[at++] = '\'';
    return at;
}

/* The command for one instance; -1 when it does not fit. */
static int build_command(const char *tmpl, const instance *x, const handed *h, char *cmd,
                         size_t size)
{
    char load[64];
    if (strcmp(x->kind, "schedule") == 0)
        snprintf(load, sizeof load, "%.17g", x->load);
    else
        snprintf(load, sizeof load, "%.0f", x->load);
    size_t at = 0;
    for (const char *p = tmpl; *p; p++) {
        const char *value = NULL;
        size_t skip = 0;
        static const char *const keys[] = {"{platform}", "{load}",    "{output}", "{kind}",
                                           "{id}",       "{weights}", "{ordered}"};
        const char *values[] = {h->platform, load, h->output, x->kind, x->id,
                                x->weights ? h->weights : "",
                                x->ordered ? "ordered" : "unordered"};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0] && value == NULL; k++)
            if (strncmp(p, keys[k], strlen(keys[k])) == 0) {
                value = values[k];
                skip = strlen(keys[k]);
            }
        if (value != NULL) {
            at = put_quoted(cmd, at, size, value);
            p += skip - 1;
        } else if (at + 1 < size) {
            cmd[at++] = *p;
        }
        if (at + 8 >= size)
            return -1;
    }
    cmd[at] = '\0';
    return 0;
}

/* Verifies the plan the scheduler wrote for x (text, len bytes) against the platform h
 * read before the run; fills x's result. */
static void judge(instance *x, const handed *h, const char *text, size_t len)
{
    dls_error err;
    dls_error_clear(&err);
    const dls_platform *pl = h->pl;
    dls_claim *c = NULL;
    if (dls_claim_read_string(pl, text, len, "{output}", &c, &err) != DLS_OK) {
        snprintf(x->status, sizeof x->status, "failed");
        snprintf(x->why, sizeof x->why, "its output: %s", err.message);
        return;
    }
    dls_verify_params p;
    dls_verify_params_init(&p);
    p.optimum = 0; /* the suite's certified optimum is the reference */
    p.load = h->w ? NAN : x->load; /* a weighted set's load is its weights' sum */
    p.weights = h->w;
    p.n_weights = (size_t)h->nw;
    p.ordered = h->w ? x->ordered : 0;
    p.order = x->order_rate ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
    p.originator_computes = x->originator;
    dls_verification *v = NULL;
    dls_status st;
    int part = strcmp(x->kind, "schedule") != 0;
    if (strcmp(x->kind, "matrix") == 0)
        p.matrix = (uint64_t)x->load;
    if (part != (dls_claim_get_kind(c) == DLS_CLAIM_PARTITION)) {
        snprintf(x->status, sizeof x->status, "invalid");
        snprintf(x->why, sizeof x->why, "a %s where a %s was asked for",
                 dls_claim_kind_name(dls_claim_get_kind(c)), part ? "partition" : "schedule");
        st = DLS_OK;
    } else {
        st = part ? dls_partition_verify(pl, c, &p, &v, &err)
                  : dls_schedule_verify(pl, c, &p, &v, &err);
        if (st != DLS_OK) {
            snprintf(x->status, sizeof x->status, "failed");
            snprintf(x->why, sizeof x->why, "%s", err.message);
        } else if (!dls_verification_valid(v)) {
            snprintf(x->status, sizeof x->status, "invalid");
            snprintf(x->why, sizeof x->why, "%zu violation%s; %s", dls_verification_count(v),
                     dls_verification_count(v) == 1 ? "" : "s",
                     dls_verification_violation(v, 0)->text);
        } else {
            dls_verify_quality q;
            dls_verification_get_quality(v, &q);
            snprintf(x->status, sizeof x->status, "valid");
            x->makespan = q.makespan;
            x->gap = x->optimum > 0 ? 100 * (q.makespan - x->optimum) / x->optimum : 0;
        }
    }
    dls_verification_free(v);
    dls_claim_free(c);
}

/* Runs the scheduler's command for x in h's box and judges what it left at {output}: read
 * only from the folder made for it, only a regular file it wrote, only up to the bound. */
static void run_instance(instance *x, const char *sched, double limit, handed *h)
{
    char cmd[VALIDATE_COMMAND_MAX];
    if (build_command(sched, x, h, cmd, sizeof cmd) != 0) {
        snprintf(x->status, sizeof x->status, "failed");
        snprintf(x->why, sizeof x->why, "the command is too long");
        return;
    }
    double t0 = now();
    int r = validate_run(cmd, limit, x->why, sizeof x->why);
    x->seconds = now() - t0;
    if (r != 0) {
        snprintf(x->status, sizeof x->status, r == 2 ? "timeout" : "failed");
        return;
    }
    snprintf(x->status, sizeof x->status, "failed");
    if (!validate_box_intact(&h->box)) {
        snprintf(x->why, sizeof x->why, "the scheduler removed or replaced validate's "
                 "temporary folder %.400s (it may write {output} only)", h->box.path);
        return;
    }
    char why[256], *text = NULL;
    size_t len = 0, max = plan_bound(h->pl, h->nw);
    if (validate_read_file(h->box.fd, "plan", 0, max, &text, &len, why, sizeof why) != 0) {
        struct stat st;
        if (fstatat(h->box.fd, "plan", &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT)
            snprintf(x->why, sizeof x->why, "its output: the scheduler wrote no {output}");
        else if (strncmp(why, "holds", 5) == 0)
            snprintf(x->why, sizeof x->why, "its output: {output} %s for a plan of this "
                     "instance", why);
        else
            snprintf(x->why, sizeof x->why, "its output: {output} %s (a plan is a regular "
                     "file the scheduler writes)", why);
        return;
    }
    judge(x, h, text, len);
    free(text);
}

/* The results of an earlier run, from its log (one JSON object a line). */
static void read_log(const char *path, suite *s)
{
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return;
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, JSON_DECODE_INT_AS_REAL, NULL);
        const char *id = json_string_value(json_object_get(o, "id"));
        const char *status = json_string_value(json_object_get(o, "status"));
        for (size_t k = 0; id && status && k < s->n; k++)
            if (strcmp(s->in[k].id, id) == 0) {
                instance *x = &s->in[k];
                x->done = 1;
                snprintf(x->status, sizeof x->status, "%s", status);
                x->makespan = json_number_value(json_object_get(o, "makespan"));
                x->gap = json_number_value(json_object_get(o, "gap_percent"));
                x->seconds = json_number_value(json_object_get(o, "seconds"));
                snprintf(x->why, sizeof x->why, "%s",
                         json_string_value(json_object_get(o, "why")) ? json_string_value(json_object_get(o, "why")) : "");
                break;
            }
        json_decref(o);
    }
    free(line);
    fclose(f);
}

static json_t *result_json(const instance *x)
{
    int valid = strcmp(x->status, "valid") == 0;
    return json_pack("{s:o,s:s,s:s,s:o,s:o,s:o,s:f,s:o}", "id", tool_json_text(x->id), "family",
                     x->family, "status", x->status, "makespan",
                     valid ? tool_json_number(x->makespan) : json_null(), "optimum",
                     tool_json_number(x->optimum), "gap_percent",
                     valid ? tool_json_number(x->gap) : json_null(), "seconds", x->seconds,
                     "why", tool_json_text(x->why));
}

static void append_log(FILE *log, const instance *x)
{
    json_t *o = result_json(x);
    if (o == NULL)
        return;
    char *text = tool_json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (text != NULL)
        fputs(text, log);
    free(text);
    fputc('\n', log);
    fflush(log);
    fsync(fileno(log));
}

/* Per family. */
typedef struct tally {
    const char *family;
    size_t n, valid, invalid, failed, skipped;
    double gap_sum, gap_max, seconds;
} tally;

static size_t tally_up(const suite *s, const char *only, tally *t, tally *all)
{
    size_t nf = 0;
    memset(all, 0, sizeof *all);
    all->family = "all";
    for (size_t k = 0; k < s->n; k++) {
        const instance *x = &s->in[k];
        if (!x->done)
            continue;
        size_t f = 0;
        while (f < nf && strcmp(t[f].family, x->family) != 0)
            f++;
        if (f == nf) {
            if (nf == VALIDATE_FAMILIES_MAX)
                f = nf - 1; /* the rest count in the last family shown */
            else {
                memset(&t[nf], 0, sizeof t[nf]);
                t[nf++].family = x->family;
            }
        }
        tally *g[2] = {&t[f], all};
        for (int j = 0; j < 2; j++) {
            g[j]->n++;
            g[j]->seconds += x->seconds;
            if (strcmp(x->status, "valid") == 0) {
                g[j]->valid++;
                g[j]->gap_sum += x->gap;
                g[j]->gap_max = fmax(g[j]->gap_max, x->gap);
            } else if (strcmp(x->status, "invalid") == 0) {
                g[j]->invalid++;
            } else if (strcmp(x->status, "skipped") == 0) {
                g[j]->skipped++;
            } else {
                g[j]->failed++;
            }
        }
    }
    (void)only;
    return nf;
}

static void print_table(const tally *t, size_t nf, const tally *all, const char *scheduler)
{
    printf("scorecard of: %s\n", scheduler);
    printf("  %-24s %9s %6s %8s %7s %8s %12s %12s %9s\n", "FAMILY", "INSTANCES", "VALID",
           "INVALID", "FAILED", "SKIPPED", "MEAN GAP %", "WORST GAP %", "TIME s");
    for (size_t f = 0; f <= nf; f++) {
        const tally *g = f < nf ? &t[f] : all;
        if (f == nf)
            printf("  %s\n", "--");
        char mean[32] = "-", worst[32] = "-";
        if (g->valid > 0) {
            snprintf(mean, sizeof mean, "%.4g", g->gap_sum / (double)g->valid);
            snprintf(worst, sizeof worst, "%.4g", g->gap_max);
        }
        printf("  %-24.24s %9zu %6zu %8zu %7zu %8zu %12s %12s %9.2f\n", g->family, g->n,
               g->valid, g->invalid, g->failed, g->skipped, mean, worst, g->seconds);
    }
}

/* Text for SVG: the XML specials escaped. */
static void svg_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else if ((unsigned char)*s >= 0x20)
            fputc(*s, f);
    }
}

/* The chart: per family, the share of valid plans and the mean and worst gap (log axis).
 * 0, -1 when memory runs out, or the exit status of a file that cannot be written. */
static int write_svg(const char *path, const tally *t, size_t nf, const char *scheduler)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL)
        return -1;
    const int row = 26, left = 200, width = 360, top = 60;
    int h = top + row * (int)nf + 40;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
            "width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">\n",
            left + 2 * width + 60, h);
    fprintf(f, "<text x=\"10\" y=\"20\" font-size=\"14\">Scorecard: ");
    svg_text(f, scheduler);
    fprintf(f, "</text>\n<text x=\"%d\" y=\"45\">valid plans (%%)</text>\n"
            "<text x=\"%d\" y=\"45\">gap to the optimum: mean (dark), worst (light), log scale "
            "0.01%% to 1000%%</text>\n", left, left + width + 30);
    for (size_t k = 0; k < nf; k++) {
        const tally *g = &t[k];
        int y = top + row * (int)k;
        fprintf(f, "<text x=\"10\" y=\"%d\">", y + 15);
        svg_text(f, g->family);
        double share = g->n ? (double)g->valid / (double)g->n : 0;
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"#4a8\"/>"
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"#d54\"/>"
                "<text x=\"%d\" y=\"%d\">%zu/%zu</text>\n", left, y, share * (width - 60),
                left + (int)(share * (width - 60)), y, (1 - share) * (width - 60), left + width - 55,
                y + 14, g->valid, g->n);
        if (g->valid > 0) {
            /* log axis from 0.01% to 1000%: five decades */
            double gx[2] = {g->gap_max, g->gap_sum / (double)g->valid};
            const char *fill[2] = {"#9bd", "#36a"};
            for (int j = 0; j < 2; j++) {
                double v = fmin(fmax(gx[j], 1e-2), 1e3);
                double w = (log10(v) + 2) / 5 * width;
                fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"18\" fill=\"%s\"/>\n",
                        left + width + 30, y, w, fill[j]);
            }
            fprintf(f, "<text x=\"%d\" y=\"%d\">%.3g%% / %.3g%%</text>\n", left + 2 * width + 35,
                    y + 14, gx[1], gx[0]);
        }
    }
    fprintf(f, "</svg>\n");
    if (fclose(f) != 0) {
        free(buf);
        return -1;
    }
    dls_error err;
    dls_status st = dls_write_output(path, buf, len, &err);
    free(buf);
    if (st != DLS_OK)
        return tool_fail_output("--svg", path, st, &err);
    return 0;
}

/* What the command line asks, read once. */
typedef struct validate_opts {
    const char *scheduler; /* --scheduler, required */
    const char *suite;     /* --suite, or the manifest of the source tree */
    double limit;          /* --time-limit */
    uint64_t first;        /* --first, UINT64_MAX when not given */
    const char *family;    /* --family or NULL */
    const char *log;       /* --resume or NULL */
    const char *svg;       /* --svg or NULL */
    int quiet, json;
} validate_request;

static int validate_request_read(const tool_args *a, validate_request *o)
{
    o->scheduler = arg_string(a, "scheduler");
    if (o->scheduler == NULL) {
        tool_error("validate: --scheduler CMD is required (see dlsched help validate)");
        return EXIT_BADINPUT;
    }
    o->suite = arg_string(a, "suite");
    if (o->suite == NULL)
        o->suite = VALIDATE_DEFAULT_SUITE;
    o->limit = VALIDATE_DEFAULT_TIME_LIMIT;
    arg_double(a, "time-limit", &o->limit);
    o->first = UINT64_MAX;
    arg_count(a, "first", &o->first);
    o->family = arg_string(a, "family");
    o->log = arg_string(a, "resume");
    o->svg = arg_string(a, "svg");
    o->quiet = arg_flag(a, "quiet");
    o->json = arg_flag(a, "json");
    return EXIT_DONE;
}

/* Marks done the instances this run leaves out (--family, --first); returns how many it
 * runs. */
static size_t select_instances(suite *s, const validate_request *o)
{
    size_t todo = 0;
    for (size_t k = 0; k < s->n; k++) {
        instance *x = &s->in[k];
        if (o->family && strcmp(x->family, o->family) != 0)
            x->done = 1, x->status[0] = '\0'; /* not part of this run */
        else if (todo >= o->first)
            x->done = 1, x->status[0] = '\0';
        else
            todo++;
    }
    return todo;
}

/* Runs the instances not done, each result appended to the log as it comes. EXIT_DONE, or
 * the exit status of an instance that could not be handed over. */
static int run_instances(suite *s, const validate_request *o, size_t todo, FILE *log)
{
    int show = !o->quiet && isatty(2);
    size_t ran = 0;
    for (size_t k = 0; k < s->n; k++) {
        instance *x = &s->in[k];
        if (x->done)
            continue;
        where at = {o->suite, k, x->id, NULL};
        handed h;
        int hr = hand_over(&at, x, &h);
        if (hr == 0)
            run_instance(x, o->scheduler, o->limit, &h);
        handed_free(&h);
        if (hr != 0)
            return hr == -1 ? EXIT_BADINPUT : EXIT_FAILURE_RUN;
        x->done = 1;
        ran++;
        if (log)
            append_log(log, x);
        if (show)
            fprintf(stderr, "\rvalidate: %zu/%zu instances (%s)   ", ran, todo, x->id);
    }
    if (show)
        fprintf(stderr, "\n");
    return EXIT_DONE;
}

/* The scorecard as JSON: the families (the last one all of them), then the instances. */
static int print_scorecard_json(const suite *s, const validate_request *o, const tally *t,
                                size_t nf, const tally *all)
{
    json_t *fam = json_array(), *inst = json_array();
    for (size_t f = 0; f <= nf; f++) {
        const tally *g = f < nf ? &t[f] : all;
        json_array_append_new(
            fam, json_pack("{s:s,s:I,s:I,s:I,s:I,s:I,s:o,s:o,s:f}", "family", g->family,
                           "instances", (json_int_t)g->n, "valid", (json_int_t)g->valid,
                           "invalid", (json_int_t)g->invalid, "failed",
                           (json_int_t)g->failed, "skipped", (json_int_t)g->skipped,
                           "mean_gap_percent",
                           g->valid ? tool_json_number(g->gap_sum / (double)g->valid) : json_null(),
                           "worst_gap_percent", g->valid ? tool_json_number(g->gap_max) : json_null(),
                           "seconds", g->seconds));
    }
    for (size_t k = 0; k < s->n; k++)
        if (s->in[k].done)
            json_array_append_new(inst, result_json(&s->in[k]));
    return tool_print_json(json_pack("{s:o,s:o,s:o,s:o}", "scheduler",
                                     tool_json_text(o->scheduler), "suite",
                                     tool_json_text(o->suite), "families", fam, "instances",
                                     inst));
}

/* The scorecard as text: the table, then the first ten plans that were not valid. */
static void print_scorecard_text(const suite *s, const validate_request *o, const tally *t,
                                 size_t nf, const tally *all)
{
    print_table(t, nf, all, o->scheduler);
    size_t shown = 0;
    for (size_t k = 0; k < s->n && shown < 10; k++)
        if (s->in[k].done && strcmp(s->in[k].status, "valid") != 0 &&
            strcmp(s->in[k].status, "skipped") != 0) {
            printf("%s %s: %s\n", s->in[k].status, s->in[k].id, s->in[k].why);
            shown++;
        }
    if (all->n - all->valid - all->skipped > shown)
        printf("... %zu more not valid (--json lists them all)\n",
               all->n - all->valid - all->skipped - shown);
}

/* The scorecard of the instances run: the chart, then JSON or text; the exit status. */
static int report(suite *s, const validate_request *o)
{
    /* instances left out of this run are not in the scorecard */
    for (size_t k = 0; k < s->n; k++)
        if (s->in[k].status[0] == '\0')
            s->in[k].done = 0;
    tally t[VALIDATE_FAMILIES_MAX], all;
    size_t nf = tally_up(s, o->family, t, &all);
    int rc = all.valid + all.skipped == all.n ? EXIT_DONE : EXIT_INFEASIBLE;
    /* a chart that cannot be written is said, and the scorecard still printed */
    int svg_rc = o->svg != NULL ? write_svg(o->svg, t, nf, o->scheduler) : 0;
    if (svg_rc != 0 && rc == EXIT_DONE)
        rc = svg_rc < 0 ? EXIT_FAILURE_RUN : svg_rc;
    if (o->json) {
        int jrc = print_scorecard_json(s, o, t, nf, &all);
        if (jrc != EXIT_DONE)
            rc = jrc;
    } else {
        print_scorecard_text(s, o, t, nf, &all);
    }
    return rc;
}

int cmd_validate(const tool_args *a)
{
    validate_request o;
    int rc = validate_request_read(a, &o);
    if (rc != EXIT_DONE)
        return rc;
    suite s;
    if (load_suite(o.suite, &s) != 0) {
        suite_free(&s);
        return EXIT_BADINPUT;
    }
    if (o.log)
        read_log(o.log, &s);
    FILE *log = o.log ? fopen(o.log, "ae") /* e: not the scheduler's */ : NULL;
    if (o.log && log == NULL) {
        tool_error("validate: %s: %s", o.log, strerror(errno));
        suite_free(&s);
        return EXIT_BADINPUT;
    }
    size_t todo = select_instances(&s, &o);
    rc = run_instances(&s, &o, todo, log);
    if (log)
        fclose(log);
    if (rc == EXIT_DONE)
        rc = report(&s, &o);
    suite_free(&s);
    return rc;
}
