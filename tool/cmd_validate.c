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

/* Default seconds one instance may take. */
#define VALIDATE_DEFAULT_TIME_LIMIT 60
/* How often a running scheduler is looked at, in nanoseconds. */
#define VALIDATE_POLL_NS 2000000L
/* Longest command line after substitution. */
#define VALIDATE_COMMAND_MAX 16384
/* Families shown in the chart and the table (the suite has about fifteen). */
#define VALIDATE_FAMILIES_MAX 64

static const tool_opt validate_opts[] = {
    TOOL_STRING("scheduler", "CMD", "the command to score: {platform} {load} {output} {kind} "
                "{weights} {ordered} {id} are replaced (shell-quoted)"),
    TOOL_STRING("suite", "MANIFEST", "the suite's manifest (default validation/manifest.json)"),
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, 1e6, NULL,
     "seconds one instance may take before it is stopped"},
    TOOL_STRING("family", "NAME", "only the instances of this family"),
    {"first", OPT_COUNT, "N", NULL, 1, 1e9, NULL, "only the first N instances (a quick try)"},
    TOOL_STRING("resume", "LOG", "keep each result in LOG as it comes; results already "
                "there are not run again"),
    TOOL_STRING("svg", "FILE", "draw the scorecard as an SVG chart"),
    TOOL_FLAG("quiet", "no progress line"),
    TOOL_FLAG("json", "write the scorecard as JSON"),
    TOOL_OPT_END,
};

static int validate_default(const char *opt, char *buf, size_t size)
{
    if (strcmp(opt, "time-limit") == 0)
        return tool_show_number(VALIDATE_DEFAULT_TIME_LIMIT, buf, size);
    return 0;
}

const tool_cmd tool_cmd_validate = {
    "validate",
    "score a scheduler over the reference suite: validity and gap to the certified optima",
    "--scheduler CMD [--suite MANIFEST] [--time-limit S] [--family NAME] [--first N]\n"
    "       [--resume LOG] [--svg FILE] [--quiet] [--json]",
    "Runs CMD (through /bin/sh) on every instance of the suite (validation/manifest.json):\n"
    "{platform} is the instance's platform file, {load} its load (or elements, or the\n"
    "matrix order), {kind} schedule, partition, matrix or weighted, {weights} the weights\n"
    "file of a weighted instance (empty otherwise), {ordered} ordered or unordered (whether\n"
    "a weighted set is ordered), {output} the file the scheduler must write: the JSON of\n"
    "dlsched schedule or partition (partition --weights --json, with its \"assignment\" or\n"
    "\"first\", for weighted sets), or a CSV table name,load[,send_start,...]\n"
    "(name,elements for partitions), as `dlsched verify` reads. Each plan is verified\n"
    "against the instance's platform and mode (weighted sets element by element, as\n"
    "`verify --weights` does), and a valid\n"
    "plan's makespan compared with the instance's certified optimum. Prints, per family,\n"
    "how many plans were valid, invalid or failed (no output, a crash, past the time limit),\n"
    "the mean and worst gap to the optimum, and the time taken. Exits 0 when every plan\n"
    "was valid, 1 when not, 2 on bad usage or a suite that cannot be read.",
    validate_opts,
    0,
    0,
    cmd_validate,
    validate_default,
};

/* One instance of the manifest, and what became of it. */
typedef struct instance {
    char *id, *family, *kind, *platform, *weights;
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
        free(s->in[k].kind);
        free(s->in[k].platform);
        free(s->in[k].weights);
    }
    free(s->in);
    free(s->dir);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

/* A path of the manifest, relative to its directory. */
static char *suite_path(const suite *s, const char *rel)
{
    if (rel == NULL)
        return NULL;
    if (rel[0] == '/')
        return strdup(rel);
    size_t n = strlen(s->dir) + strlen(rel) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", s->dir, rel);
    return p;
}

/* The optimum as the manifest writes it: a decimal, or a rational p/q. */
static int read_optimum(json_t *v, double *out)
{
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return 0;
    }
    if (!json_is_string(v))
        return -1;
    const char *s = json_string_value(v);
    char *end;
    double p = strtod(s, &end);
    if (*end == '/') {
        double q = strtod(end + 1, &end);
        if (*end != '\0' || !(q > 0))
            return -1;
        *out = p / q;
        return 0;
    }
    *out = p;
    return *end == '\0' && end != s ? 0 : -1;
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
    if (!json_is_array(list) || json_array_size(list) == 0) {
        tool_error("validate: %s: an \"instances\" array expected (see validation/README.md)",
                   path);
        json_decref(root);
        return -1;
    }
    const char *slash = strrchr(path, '/');
    s->dir = slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    s->in = calloc(json_array_size(list), sizeof *s->in);
    if (s->dir == NULL || s->in == NULL) {
        tool_error("validate: out of memory");
        json_decref(root);
        return -1;
    }
    for (size_t k = 0; k < json_array_size(list); k++) {
        json_t *o = json_array_get(list, k);
        instance *x = &s->in[s->n];
        const char *id = json_string_value(json_object_get(o, "id"));
        const char *kind = json_string_value(json_object_get(o, "kind"));
        const char *plat = json_string_value(json_object_get(o, "platform"));
        json_t *load = json_object_get(o, "load");
        if (load == NULL)
            load = json_object_get(o, "elements");
        if (load == NULL)
            load = json_object_get(o, "matrix");
        int weighted = kind != NULL && strcmp(kind, "weighted") == 0;
        if (id == NULL || kind == NULL || plat == NULL || (!weighted && !json_is_number(load)) ||
            read_optimum(json_object_get(o, "optimum"), &x->optimum) != 0) {
            tool_error("validate: %s: instance %zu: \"id\", \"kind\", \"platform\", the load "
                       "and \"optimum\" are required", path, k);
            json_decref(root);
            return -1;
        }
        x->id = strdup(id);
        x->kind = strdup(kind);
        x->family = dup_or_null(json_string_value(json_object_get(o, "family")));
        if (x->family == NULL)
            x->family = strdup("-");
        x->platform = suite_path(s, plat);
        x->weights = suite_path(s, json_string_value(json_object_get(o, "weights")));
        x->load = load ? json_number_value(load) : NAN;
        json_t *mode = json_object_get(o, "mode");
        const char *order = json_string_value(json_object_get(mode, "order"));
        x->order_rate = order != NULL && strcmp(order, "rate") == 0;
        x->originator = json_is_true(json_object_get(mode, "originator_computes"));
        json_t *sel = json_object_get(mode, "selection");
        x->selection = sel == NULL || json_is_true(sel);
        x->ordered = json_is_true(json_object_get(o, "ordered"));
        if (weighted && x->weights == NULL && json_object_get(o, "weights") != NULL) {
            tool_error("validate: out of memory");
            json_decref(root);
            return -1;
        }
        if (weighted && json_object_get(o, "weights") == NULL) {
            tool_error("validate: %s: instance %zu: a weighted instance needs \"weights\" (a "
                       "file)", path, k);
            json_decref(root);
            return -1;
        }
        s->n++;
        if (x->id == NULL || x->kind == NULL || x->platform == NULL) {
            tool_error("validate: out of memory");
            json_decref(root);
            return -1;
        }
    }
    json_decref(root);
    return 0;
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
static int build_command(const char *tmpl, const instance *x, const char *output, char *cmd,
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
        const char *values[] = {x->platform, load, output, x->kind, x->id,
                                x->weights ? x->weights : "",
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

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Runs cmd under /bin/sh in a process group of its own, its output into log; 0 when it
 * exited 0, 1 when it failed (why says how), 2 when stopped at the time limit. */
static int run_command(const char *cmd, const char *log, double limit, char *why, size_t size)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, size, "cannot start the scheduler: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int in = open("/dev/null", O_RDONLY);
        int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (in >= 0)
            dup2(in, 0);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    double start = now();
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(why, size, "lost the scheduler: %s", strerror(errno));
            return 1;
        }
        if (now() - start > limit) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(why, size, "stopped after the time limit of %g s", limit);
            return 2;
        }
        struct timespec d = {0, VALIDATE_POLL_NS};
        nanosleep(&d, NULL);
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    if (WIFSIGNALED(status))
        snprintf(why, size, "the scheduler died of signal %d", WTERMSIG(status));
    else
        snprintf(why, size, "the scheduler exited with status %d", WEXITSTATUS(status));
    return 1;
}

/* Verifies the plan the scheduler wrote for x (w: the weights of a weighted instance, n of
 * them); fills x's result. */
static void judge(instance *x, const char *output, const double *w, size_t n)
{
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl = NULL;
    if (dls_platform_read_file(x->platform, &pl, &err) != DLS_OK) {
        snprintf(x->status, sizeof x->status, "failed");
        snprintf(x->why, sizeof x->why, "the suite's platform: %s", err.message);
        return;
    }
    dls_claim *c = NULL;
    if (dls_claim_read_file(pl, output, &c, &err) != DLS_OK) {
        snprintf(x->status, sizeof x->status, "failed");
        snprintf(x->why, sizeof x->why, "its output: %s", err.message);
        dls_platform_free(pl);
        return;
    }
    dls_verify_params p;
    dls_verify_params_init(&p);
    p.optimum = 0; /* the suite's certified optimum is the reference */
    p.load = w ? NAN : x->load; /* a weighted set's load is its weights' sum */
    p.weights = w;
    p.n_weights = n;
    p.ordered = w ? x->ordered : 0;
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
    dls_platform_free(pl);
}

/* The results of an earlier run, from its log (one JSON object a line). */
static void read_log(const char *path, suite *s)
{
    FILE *f = fopen(path, "r");
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
    json_dumpf(o, log, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
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

/* The chart: per family, the share of valid plans and the mean and worst gap (log axis). */
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
    if (st != DLS_OK) {
        tool_fail(st, &err);
        return -1;
    }
    return 0;
}

int cmd_validate(const tool_args *a)
{
    const char *sched = arg_string(a, "scheduler");
    if (sched == NULL) {
        tool_error("validate: --scheduler CMD is required (see dlsched help validate)");
        return EXIT_BADINPUT;
    }
    const char *path = arg_string(a, "suite");
    if (path == NULL)
        path = "validation/manifest.json";
    double limit = VALIDATE_DEFAULT_TIME_LIMIT;
    arg_double(a, "time-limit", &limit);
    uint64_t first = UINT64_MAX;
    arg_count(a, "first", &first);
    const char *family = arg_string(a, "family");
    const char *logpath = arg_string(a, "resume");
    suite s;
    if (load_suite(path, &s) != 0) {
        suite_free(&s);
        return EXIT_BADINPUT;
    }
    if (logpath)
        read_log(logpath, &s);
    FILE *log = logpath ? fopen(logpath, "a") : NULL;
    if (logpath && log == NULL) {
        tool_error("validate: %s: %s", logpath, strerror(errno));
        suite_free(&s);
        return EXIT_BADINPUT;
    }
    char dir[] = "/tmp/dlsched-validate-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        tool_error("validate: cannot make a temporary directory: %s", strerror(errno));
        if (log)
            fclose(log);
        suite_free(&s);
        return EXIT_FAILURE_RUN;
    }
    int show = !arg_flag(a, "quiet") && isatty(2);
    size_t todo = 0, ran = 0;
    for (size_t k = 0; k < s.n; k++) {
        instance *x = &s.in[k];
        if (family && strcmp(x->family, family) != 0)
            x->done = 1, x->status[0] = '\0'; /* not part of this run */
        else if (todo >= first)
            x->done = 1, x->status[0] = '\0';
        else
            todo++;
    }
    char cmd[VALIDATE_COMMAND_MAX], out[512], errlog[512];
    snprintf(errlog, sizeof errlog, "%s/scheduler.log", dir);
    for (size_t k = 0; k < s.n; k++) {
        instance *x = &s.in[k];
        if (x->done)
            continue;
        snprintf(out, sizeof out, "%s/plan-%zu", dir, k);
        double *w = NULL;
        uint64_t nw = 0;
        char why[TOOL_WEIGHTS_WHY_MAX];
        int weighted = strcmp(x->kind, "weighted") == 0;
        int unread = weighted && tool_read_weights(x->weights, &w, &nw, why, sizeof why) != 0;
        if (weighted && !unread)
            x->load = (double)nw; /* {load}: the number of elements */
        if (unread) {
            snprintf(x->status, sizeof x->status, "failed");
            snprintf(x->why, sizeof x->why, "the suite's weights: %s", why);
        } else if (build_command(sched, x, out, cmd, sizeof cmd) != 0) {
            snprintf(x->status, sizeof x->status, "failed");
            snprintf(x->why, sizeof x->why, "the command is too long");
        } else {
            double t0 = now();
            int r = run_command(cmd, errlog, limit, x->why, sizeof x->why);
            x->seconds = now() - t0;
            if (r == 2)
                snprintf(x->status, sizeof x->status, "timeout");
            else if (r == 1)
                snprintf(x->status, sizeof x->status, "failed");
            else
                judge(x, out, w, (size_t)nw);
        }
        free(w);
        unlink(out);
        x->done = 1;
        ran++;
        if (log)
            append_log(log, x);
        if (show)
            fprintf(stderr, "\rvalidate: %zu/%zu instances (%s)   ", ran, todo, x->id);
    }
    if (show)
        fprintf(stderr, "\n");
    unlink(errlog);
    rmdir(dir);
    if (log)
        fclose(log);
    /* instances left out of this run are not in the scorecard */
    for (size_t k = 0; k < s.n; k++)
        if (s.in[k].status[0] == '\0')
            s.in[k].done = 0;
    tally t[VALIDATE_FAMILIES_MAX], all;
    size_t nf = tally_up(&s, family, t, &all);
    int rc = all.valid + all.skipped == all.n ? EXIT_DONE : EXIT_INFEASIBLE;
    if (arg_given(a, "svg") && write_svg(arg_string(a, "svg"), t, nf, sched) != 0)
        rc = EXIT_FAILURE_RUN;
    if (arg_flag(a, "json")) {
        json_t *fam = json_array(), *inst = json_array();
        for (size_t f = 0; f <= nf; f++) {
            const tally *g = f < nf ? &t[f] : &all;
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
        for (size_t k = 0; k < s.n; k++)
            if (s.in[k].done)
                json_array_append_new(inst, result_json(&s.in[k]));
        int jrc = tool_print_json(json_pack("{s:o,s:o,s:o,s:o}", "scheduler", tool_json_text(sched),
                                            "suite", tool_json_text(path), "families", fam,
                                            "instances", inst));
        if (jrc != EXIT_DONE)
            rc = jrc;
    } else {
        print_table(t, nf, &all, sched);
        size_t shown = 0;
        for (size_t k = 0; k < s.n && shown < 10; k++)
            if (s.in[k].done && strcmp(s.in[k].status, "valid") != 0 &&
                strcmp(s.in[k].status, "skipped") != 0) {
                printf("%s %s: %s\n", s.in[k].status, s.in[k].id, s.in[k].why);
                shown++;
            }
        if (all.n - all.valid - all.skipped > shown)
            printf("... %zu more not valid (--json lists them all)\n",
                   all.n - all.valid - all.skipped - shown);
    }
    suite_free(&s);
    return rc;
}
