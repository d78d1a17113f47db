/* dlsched bench: measure a speed function on this machine and write it as a platform file.
 * Long work stays visible and safe: a progress line on terminals, every point appended and
 * flushed to a log as soon as it is known, --resume from that log, Ctrl-C stops cleanly,
 * and the platform file is replaced atomically. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

extern char **environ;

/* Smallest size of gemm-rows by default, in rows: below it a run times the call of dgemm
 * more than the product. */
#define GEMM_MIN_ROWS 8
/* The synthetic processor's speed function is given from 1e2 to 1e8 (synthetic_model):
 * its default range of sizes. */
#define SYNTHETIC_MIN_SIZE 1e2
#define SYNTHETIC_MAX_SIZE 1e8
/* The synthetic processor's default relative noise (about what a quiet machine shows) and
 * real seconds per run (none: the times are simulated). */
#define SYNTHETIC_NOISE 0.02
#define SYNTHETIC_DELAY 0.0

static const tool_opt bench_opts[] = {
    {"kernel", OPT_CHOICE, NULL, "gemm-rows", 0, 0, "gemm-rows|lu-update|synthetic",
     "what to measure (synthetic: a simulated processor with a known speed function)"},
    {"exec", OPT_STRING, "'PROGRAM ARGS {size}'", NULL, 0, 0, NULL,
     "time this command per size instead ({size} is replaced; needs --max-size)"},
    {"n", OPT_COUNT, "N", NULL, 1, 1e6, NULL, "gemm-rows: the matrix order n"},
    {"x", OPT_COUNT, "X", NULL, 1, 1e6, NULL, "lu-update: the trailing matrix height in blocks"},
    {"block", OPT_COUNT, "B", NULL, 1, 4096, NULL, "lu-update: the block size"},
    {"surface", OPT_STRING, "V1,V2,...", NULL, 0, 0, NULL,
     "measure a 2-D surface over these values of n (gemm-rows) or x (lu-update)"},
    {"min-size", OPT_DOUBLE, "S", NULL, 1e-300, 1e300, NULL, "smallest size"},
    {"max-size", OPT_DOUBLE, "S", NULL, 1e-300, 1e300, NULL,
     "largest size (default: what fits in half the memory available)"},
    {"precision", OPT_DOUBLE, "P", NULL, 1e-6, 0.99, NULL,
     "relative half-width of the confidence interval of each time"},
    {"max-points", OPT_COUNT, "K", NULL, 2, 100000, NULL, "points measured at most"},
    {"time-budget", OPT_DOUBLE, "SEC", NULL, 0, 1e9, NULL, "stop after this many seconds"},
    {"size-cap", OPT_DOUBLE, "SEC", NULL, 1e-3, 1e9, NULL, "seconds spent at one size at most"},
    {"threads", OPT_COUNT, "N", NULL, 1, 4096, NULL, "OpenBLAS threads"},
    {"output", OPT_STRING, "FILE", NULL, 0, 0, NULL, "write a platform file with one processor"},
    {"o", OPT_STRING, "FILE", NULL, 0, 0, NULL, "same as --output"},
    {"merge", OPT_STRING, "FILE", NULL, 0, 0, NULL,
     "add the processor to this platform file, or replace the one of the same name"},
    {"name", OPT_STRING, "NAME", NULL, 0, 0, NULL, "processor name (default HOST-KERNEL)"},
    {"log", OPT_STRING, "FILE", NULL, 0, 0, NULL,
     "measurement log (default: the output file with .log appended)"},
    {"resume", OPT_FLAG, NULL, NULL, 0, 0, NULL, "continue from the log instead of starting again"},
    {"noise", OPT_DOUBLE, "R", NULL, 0, 0.99, NULL, "synthetic: relative noise of the times"},
    {"delay", OPT_DOUBLE, "SEC", NULL, 0, 59, NULL, "synthetic: real seconds each run takes"},
    {"quiet", OPT_FLAG, NULL, NULL, 0, 0, NULL, "no progress line"},
    {"json", OPT_FLAG, NULL, NULL, 0, 0, NULL, "print the measured points as JSON"},
    TOOL_OPT_END,
};

/* Defaults the help shows: the library's, read from its parameters, and the tool's own. */
static int bench_default(const char *opt, char *buf, size_t size)
{
    dls_bench_params par;
    dls_bench_params_init(&par);
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    if (strcmp(opt, "n") == 0)
        return tool_show_number(dls_blas_kernel_default_fixed(DLS_KERNEL_GEMM_ROWS), buf, size);
    if (strcmp(opt, "x") == 0)
        return tool_show_number(dls_blas_kernel_default_fixed(DLS_KERNEL_LU_UPDATE), buf, size);
    if (strcmp(opt, "block") == 0)
        return tool_show_number(bp.block, buf, size);
    if (strcmp(opt, "min-size") == 0)
        return snprintf(buf, size, "%g rows, %g block%s", (double)GEMM_MIN_ROWS, par.min_size,
                        par.min_size == 1 ? "" : "s") > 0;
    if (strcmp(opt, "precision") == 0)
        return tool_show_number(par.precision, buf, size);
    if (strcmp(opt, "max-points") == 0)
        return tool_show_number((double)par.max_points, buf, size);
    if (strcmp(opt, "size-cap") == 0)
        return tool_show_number(par.size_time_cap, buf, size);
    if (strcmp(opt, "noise") == 0)
        return tool_show_number(SYNTHETIC_NOISE, buf, size);
    if (strcmp(opt, "delay") == 0)
        return tool_show_number(SYNTHETIC_DELAY, buf, size);
    return 0;
}

const tool_cmd tool_cmd_bench = {
    "bench",
    "measure this machine's speed function (OpenBLAS kernels or a command)",
    "[--kernel gemm-rows|lu-update|synthetic | --exec 'CMD {size}'] [--surface V1,V2,...]\n"
    "       [--min-size S] [--max-size S] [--precision P] [--max-points K] [--time-budget SEC]\n"
    "       [--threads N] [-o FILE | --merge FILE] [--name NAME] [--log FILE] [--resume]",
    "Times a kernel at a few well-chosen sizes and writes the speed function as a platform\n"
    "file. At each size a warm-up run is discarded and runs are repeated until the Student-t\n"
    "confidence interval of the time is within --precision of the mean (or --size-cap);\n"
    "each point keeps its band of observed speeds. Sizes are chosen adaptively: a few between\n"
    "--min-size and the largest size, then the midpoint of every interval whose straight line\n"
    "does not predict it within its band, until all agree, --max-points or --time-budget.\n"
    "The largest size (from the kernel's memory need and MemAvailable, or --max-size) becomes\n"
    "the processor's limit. gemm-rows: an n1 x n block of rows times an n x n matrix, speed\n"
    "in n1 n^2 multiply-adds per second, size n1. lu-update: x by y blocks of b x b updated\n"
    "by a column times a row of blocks, speed in block updates per second, size y. Every\n"
    "point is appended to the log as soon as it is measured; after Ctrl-C or a crash,\n"
    "--resume continues where it stopped.",
    bench_opts,
    0,
    0,
    cmd_bench,
    bench_default,
};

/* ---------------------------------------------------------------------------------- */
/* Interruption and progress                                                          */

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct ui {
    int show;        /* a terminal and not --quiet */
    int dirty;       /* a progress line is on screen */
    const char *surface_label;
} ui;

static void clock_text(double s, char *buf, size_t n)
{
    if (!isfinite(s) || s < 0) {
        snprintf(buf, n, "?");
        return;
    }
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

static int progress(const dls_bench_progress *p, void *data)
{
    ui *u = data;
    if (interrupted)
        return 1;
    if (!u->show)
        return 0;
    char el[32], eta[32];
    clock_text(p->elapsed, el, sizeof el);
    clock_text(p->estimated, eta, sizeof eta);
    fprintf(stderr, "\r%s[%3zu/%zu points] size %-10.4g run %-3u elapsed %s%s%s   ",
            u->surface_label ? u->surface_label : "", p->points, p->max_points, p->size, p->rep,
            el, isfinite(p->estimated) ? ", about " : "", isfinite(p->estimated) ? eta : "");
    if (isfinite(p->estimated))
        fprintf(stderr, " left");
    fflush(stderr);
    u->dirty = 1;
    return 0;
}

static void progress_done(ui *u)
{
    if (u->dirty)
        fputc('\n', stderr);
    u->dirty = 0;
}

/* ---------------------------------------------------------------------------------- */
/* The log                                                                            */

typedef struct logger {
    FILE *f;
    double fixed;     /* the row of a surface, or NAN */
    const char *path;
} logger;

static int log_point(const dls_bench_point *pt, void *data)
{
    logger *lg = data;
    if (lg->f == NULL)
        return interrupted;
    json_t *o = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:i}", "size", pt->size, "speed", pt->speed,
                          "low", pt->low, "high", pt->high, "time", pt->time, "ci", pt->ci,
                          "reps", (int)pt->reps);
    if (isfinite(lg->fixed))
        json_object_set_new(o, "fixed", json_real(lg->fixed));
    char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(17));
    json_decref(o);
    /* one line per point, on disk before the next measurement starts */
    if (text == NULL || fprintf(lg->f, "%s\n", text) < 0 || fflush(lg->f) != 0 ||
        fsync(fileno(lg->f)) != 0) {
        free(text);
        tool_error("%s: cannot append to the log: %s", lg->path, strerror(errno));
        return 1;
    }
    free(text);
    return interrupted;
}

/* The first line of a log: what was measured, so that --resume continues the same thing. */
static json_t *log_header(const tool_args *a)
{
    const char *exec = arg_string(a, "exec");
    const char *surface = arg_string(a, "surface");
    double n = dls_blas_kernel_default_fixed(DLS_KERNEL_GEMM_ROWS);
    double x = dls_blas_kernel_default_fixed(DLS_KERNEL_LU_UPDATE);
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    arg_double(a, "n", &n);
    arg_double(a, "x", &x);
    arg_unsigned(a, "block", &bp.block);
    return json_pack("{s:i,s:s,s:o,s:I,s:I,s:I,s:o}", "dlsched_bench", 1, "kernel",
                     exec ? "exec" : arg_string(a, "kernel"), "exec",
                     exec ? json_string(exec) : json_null(), "n", (json_int_t)n, "x",
                     (json_int_t)x, "block", (json_int_t)bp.block, "surface",
                     surface ? json_string(surface) : json_null());
}

/* Reads the points of a log written for the same measurement. Returns -1 on error. */
static int read_log(const char *path, json_t *header, dls_bench_point **points, double **fixed,
                    size_t *count)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        tool_error("%s: cannot open the log to resume: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, n = 0, alloc = 0;
    ssize_t len;
    int lineno = 0, rc = 0;
    *points = NULL;
    *fixed = NULL;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (o == NULL) {
            /* a line cut by a crash can only be the last one */
            if (fgetc(f) == EOF)
                break;
            tool_error("%s:%d: not a log line: %s", path, lineno, je.text);
            rc = -1;
            break;
        }
        if (lineno == 1) {
            if (!json_equal(o, header)) {
                tool_error("%s: this log was written for another measurement (its first line "
                           "says %s); remove it, or use another --log", path, line);
                rc = -1;
            }
            json_decref(o);
            if (rc)
                break;
            continue;
        }
        if (n == alloc) {
            alloc = alloc ? 2 * alloc : 64;
            *points = realloc(*points, alloc * sizeof **points);
            *fixed = realloc(*fixed, alloc * sizeof **fixed);
        }
        dls_bench_point *p = &(*points)[n];
        json_t *fx = json_object_get(o, "fixed");
        int ok = json_unpack(o, "{s:F,s:F,s:F,s:F,s:F,s:F,s:i}", "size", &p->size, "speed",
                             &p->speed, "low", &p->low, "high", &p->high, "time", &p->time, "ci",
                             &p->ci, "reps", &p->reps) == 0;
        (*fixed)[n] = fx ? json_number_value(fx) : NAN;
        json_decref(o);
        if (!ok) {
            tool_error("%s:%d: a point lacks a field", path, lineno);
            rc = -1;
            break;
        }
        n++;
    }
    free(line);
    fclose(f);
    if (rc == 0 && lineno == 0) {
        tool_error("%s: the log is empty", path);
        rc = -1;
    }
    *count = n;
    return rc;
}

/* ---------------------------------------------------------------------------------- */
/* Kernels                                                                            */

typedef struct exec_kernel {
    const char *command;
} exec_kernel;

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs the command with {size} replaced, through /bin/sh, and times the whole process. */
static double exec_run(double size, double *work, void *data)
{
    const exec_kernel *k = data;
    char num[64], cmd[4096];
    snprintf(num, sizeof num, "%.0f", size);
    size_t o = 0;
    for (const char *c = k->command; *c && o + 64 < sizeof cmd;) {
        if (strncmp(c, "{size}", 6) == 0) {
            o += (size_t)snprintf(cmd + o, sizeof cmd - o, "%s", num);
            c += 6;
        } else {
            cmd[o++] = *c++;
        }
    }
    cmd[o] = '\0';
    char *argv[] = {"sh", "-c", cmd, NULL};
    pid_t pid;
    double t0 = seconds();
    if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    double t = seconds() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    *work = size;
    return t;
}

/* The synthetic processor: rising while caches warm up, a plateau, falling when paging. */
static dls_status synthetic_model(dls_model **m, dls_error *err)
{
    static const double x[] = {1e2, 1e3, 1e4, 1e5, 1e6, 3e6, 1e7, 3e7, 1e8};
    static const double s[] = {2e8, 9e8, 1.6e9, 2e9, 2e9, 1.7e9, 9e8, 4e8, 1.5e8};
    return dls_model_create_points(sizeof x / sizeof x[0], x, s, NULL, NULL, m, err);
}

typedef struct kernel_maker {
    const tool_args *args;
    exec_kernel exec;
    dls_model *synthetic;
    int kind; /* 0 gemm-rows, 1 lu-update, 2 synthetic, 3 exec */
} kernel_maker;

static dls_status make_kernel(kernel_maker *km, double fixed, dls_kernel *k, dls_error *err)
{
    if (km->kind == 3) {
        memset(k, 0, sizeof *k);
        k->name = "exec";
        k->run = exec_run;
        k->data = &km->exec;
        k->integer_sizes = 1;
        return DLS_OK;
    }
    if (km->kind == 2) {
        double noise = SYNTHETIC_NOISE, delay = SYNTHETIC_DELAY;
        arg_double(km->args, "noise", &noise);
        arg_double(km->args, "delay", &delay);
        return dls_model_kernel_create(km->synthetic, noise, delay, k, err);
    }
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    bp.fixed = fixed;
    arg_unsigned(km->args, "block", &bp.block);
    arg_unsigned(km->args, "threads", &bp.threads);
    return dls_blas_kernel_create(km->kind == 0 ? DLS_KERNEL_GEMM_ROWS : DLS_KERNEL_LU_UPDATE, &bp,
                                  k, err);
}

static void free_kernel(kernel_maker *km, dls_kernel *k)
{
    if (km->kind == 2)
        dls_model_kernel_free(k);
    else if (km->kind < 2)
        dls_blas_kernel_free(k);
}

/* ---------------------------------------------------------------------------------- */

static int parse_list(const char *text, double **out, size_t *n)
{
    size_t cap = 8, k = 0;
    double *v = malloc(cap * sizeof *v);
    const char *c = text;
    while (v && *c) {
        char *end;
        double d = strtod(c, &end);
        if (end == c || !(d >= 1) || d != floor(d) || (*end != ',' && *end != '\0')) {
            free(v);
            return -1;
        }
        if (k == cap) {
            double *g = realloc(v, 2 * cap * sizeof *g);
            if (g == NULL)
                break;
            v = g;
            cap *= 2;
        }
        v[k++] = d;
        c = *end ? end + 1 : end;
    }
    for (size_t i = 1; v && i < k; i++)
        if (v[i] <= v[i - 1]) {
            free(v);
            return -1;
        }
    if (v == NULL || k == 0) {
        free(v);
        return -1;
    }
    *out = v;
    *n = k;
    return 0;
}

static json_t *points_json(const dls_bench_point *p, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:f,s:f,s:f,s:f,s:f,s:i}", "size", p[i].size, "speed",
                                           p[i].speed, "low", p[i].low, "high", p[i].high, "time",
                                           p[i].time, "reps", (int)p[i].reps));
    return a;
}

/* Writes the processor to -o (a new platform) or --merge (added or replaced). */
static int write_platform(const tool_args *a, const char *name, const dls_model *model,
                          double limit)
{
    const char *out = tool_output(a);
    const char *merge = arg_string(a, "merge");
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl = NULL;
    dls_status st;
    if (merge) {
        st = dls_platform_read_file(merge, &pl, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
    } else {
        pl = dls_platform_create();
        if (pl == NULL) {
            tool_error("out of memory");
            return EXIT_FAILURE_RUN;
        }
    }
    long at = dls_platform_find(pl, name);
    size_t index;
    if (at >= 0) {
        index = (size_t)at;
        st = dls_platform_set_model(pl, index, model, &err);
    } else {
        st = dls_platform_add(pl, name, model, &index, &err);
    }
    if (st == DLS_OK && isfinite(limit))
        st = dls_platform_set_limit(pl, index, limit, &err);
    if (st == DLS_OK)
        st = dls_platform_write_file(pl, merge ? merge : out, &err);
    dls_platform_free(pl);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    return EXIT_DONE;
}

int cmd_bench(const tool_args *a)
{
    const char *out = tool_output(a);
    const char *merge = arg_string(a, "merge");
    if (out && merge) {
        tool_error("bench: give -o FILE or --merge FILE, not both");
        return EXIT_BADINPUT;
    }
    kernel_maker km;
    memset(&km, 0, sizeof km);
    km.args = a;
    const char *kname = arg_string(a, "kernel");
    km.kind = strcmp(kname, "gemm-rows") == 0 ? 0 : strcmp(kname, "lu-update") == 0 ? 1 : 2;
    const char *exec = arg_string(a, "exec");
    if (exec) {
        if (arg_given(a, "kernel")) {
            tool_error("bench: --exec replaces --kernel: give one of them");
            return EXIT_BADINPUT;
        }
        if (strstr(exec, "{size}") == NULL) {
            tool_error("bench: the --exec command must contain {size}, where the size goes");
            return EXIT_BADINPUT;
        }
        if (!arg_given(a, "max-size")) {
            tool_error("bench: --exec needs --max-size (the memory a command needs is unknown)");
            return EXIT_BADINPUT;
        }
        km.kind = 3;
        km.exec.command = exec;
    }
    double *surface = NULL;
    size_t nsurface = 0;
    if (arg_string(a, "surface")) {
        if (km.kind > 1) {
            tool_error("bench: --surface applies to the gemm-rows and lu-update kernels");
            return EXIT_BADINPUT;
        }
        if (parse_list(arg_string(a, "surface"), &surface, &nsurface) != 0 || nsurface < 2) {
            tool_error("bench: --surface must list at least two increasing whole numbers, "
                       "separated by commas");
            return EXIT_BADINPUT;
        }
    }
    dls_error err;
    dls_error_clear(&err);
    if (km.kind == 2 && synthetic_model(&km.synthetic, &err) != DLS_OK)
        return tool_fail(err.status, &err);

    /* the processor's name */
    char name[256];
    if (arg_string(a, "name")) {
        snprintf(name, sizeof name, "%s", arg_string(a, "name"));
    } else {
        char host[128] = "host";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        snprintf(name, sizeof name, "%s-%s", host, exec ? "exec" : kname);
    }

    /* the log */
    char logpath[4096];
    const char *lp = arg_string(a, "log");
    if (lp == NULL && (out || merge))
        snprintf(logpath, sizeof logpath, "%s.log", out ? out : merge);
    else
        snprintf(logpath, sizeof logpath, "%s", lp ? lp : "dlsched-bench.log");
    json_t *header = log_header(a);
    dls_bench_point *old = NULL;
    double *old_fixed = NULL;
    size_t nold = 0;
    if (arg_flag(a, "resume") && read_log(logpath, header, &old, &old_fixed, &nold) != 0) {
        json_decref(header);
        dls_model_free(km.synthetic);
        free(surface);
        return EXIT_BADINPUT;
    }
    logger lg = {fopen(logpath, arg_flag(a, "resume") ? "a" : "w"), NAN, logpath};
    if (lg.f == NULL) {
        tool_error("%s: cannot write the log: %s", logpath, strerror(errno));
        json_decref(header);
        free(old);
        free(old_fixed);
        dls_model_free(km.synthetic);
        free(surface);
        return EXIT_BADINPUT;
    }
    if (!arg_flag(a, "resume")) {
        char *h = json_dumps(header, JSON_COMPACT);
        fprintf(lg.f, "%s\n", h);
        fflush(lg.f);
        free(h);
    }
    json_decref(header);

    ui u = {isatty(2) && !arg_flag(a, "quiet"), 0, NULL};
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old_sa);

    dls_bench_params par;
    dls_bench_params_init(&par);
    if (km.kind == 0)
        par.min_size = GEMM_MIN_ROWS;
    if (km.kind == 2) {
        par.min_size = SYNTHETIC_MIN_SIZE;
        par.max_size = SYNTHETIC_MAX_SIZE;
    }
    arg_double(a, "min-size", &par.min_size);
    arg_double(a, "max-size", &par.max_size);
    arg_double(a, "precision", &par.precision);
    arg_size(a, "max-points", &par.max_points);
    arg_double(a, "time-budget", &par.time_budget);
    arg_double(a, "size-cap", &par.size_time_cap);
    par.on_point = log_point;
    par.on_point_data = &lg;
    par.on_progress = progress;
    par.on_progress_data = &u;

    int rc = EXIT_DONE;
    dls_status st = DLS_OK;
    dls_model *model = NULL;
    double limit = INFINITY;
    json_t *report = json_object();
    double fixed_default = dls_blas_kernel_default_fixed(km.kind == 1 ? DLS_KERNEL_LU_UPDATE
                                                                      : DLS_KERNEL_GEMM_ROWS);
    arg_double(a, km.kind == 1 ? "x" : "n", &fixed_default);
    /* resumed points of one row of the surface (or of the only row) */
    dls_bench_point *resume = malloc((nold ? nold : 1) * sizeof *resume);
    if (surface == NULL) {
        size_t nr = 0;
        for (size_t i = 0; i < nold; i++)
            resume[nr++] = old[i];
        par.resume = resume;
        par.resume_count = nr;
        dls_kernel k;
        st = make_kernel(&km, fixed_default, &k, &err);
        dls_bench *b = NULL;
        if (st == DLS_OK) {
            st = dls_bench_build(&k, &par, &b, &err);
            free_kernel(&km, &k);
        }
        progress_done(&u);
        if (st == DLS_OK) {
            dls_model_copy(dls_bench_model(b), &model, &err);
            limit = dls_bench_limit(b);
            size_t np;
            const dls_bench_point *pts = dls_bench_points(b, &np);
            static const char *const why[] = {"converged", "max points", "time budget"};
            json_object_set_new(report, "points", points_json(pts, np));
            json_object_set_new(report, "kept", json_integer((json_int_t)dls_model_count(model)));
            json_object_set_new(report, "stop", json_string(why[dls_bench_stopped(b)]));
            json_object_set_new(report, "elapsed", json_real(dls_bench_elapsed(b)));
            if (dls_bench_budget_top(b) > 0) {
                json_object_set_new(report, "budget_top", json_real(dls_bench_budget_top(b)));
                tool_warning("the time budget allowed sizes up to %.6g; from there to the "
                             "limit %.6g the model keeps the last speed measured (raise "
                             "--time-budget or lower --max-size to measure the whole range)",
                             dls_bench_budget_top(b), limit);
            }
            if (!arg_flag(a, "json"))
                fprintf(stderr, "dlsched: measured %zu sizes in %.1f s (%s); the model keeps %zu "
                        "points up to %.6g\n", np, dls_bench_elapsed(b),
                        why[dls_bench_stopped(b)], dls_model_count(model), limit);
            dls_bench_free(b);
        }
    } else {
        /* 2-D: choose the sizes on the middle row, then measure every row at them */
        size_t mid = nsurface / 2;
        dls_kernel k;
        double cap = 0;
        arg_double(a, "max-size", &cap);
        if (cap == 0) {
            /* the common largest size: the most demanding row decides */
            double avail;
            st = dls_memory_available(&avail, &err);
            for (size_t r = 0; st == DLS_OK && r < nsurface; r++) {
                st = make_kernel(&km, surface[r], &k, &err);
                if (st != DLS_OK)
                    break;
                double lo = par.min_size, hi = 2 * lo;
                while (k.memory(hi, k.data) <= avail * par.memory_fraction && hi < 1e15)
                    hi *= 2;
                for (int it = 0; it < 100; it++) {
                    double m = 0.5 * (lo + hi);
                    if (k.memory(m, k.data) <= avail * par.memory_fraction)
                        lo = m;
                    else
                        hi = m;
                }
                cap = cap == 0 ? floor(lo) : fmin(cap, floor(lo));
                free_kernel(&km, &k);
            }
            par.max_size = cap;
        }
        double *sizes = NULL;
        size_t ny = 0;
        double *values = NULL;
        if (st == DLS_OK) {
            size_t nr = 0;
            for (size_t i = 0; i < nold; i++)
                if (old_fixed[i] == surface[mid])
                    resume[nr++] = old[i];
            par.resume = resume;
            par.resume_count = nr;
            lg.fixed = surface[mid];
            char label[64];
            snprintf(label, sizeof label, "row 1/%zu ", nsurface);
            u.surface_label = label;
            st = make_kernel(&km, surface[mid], &k, &err);
            dls_bench *b = NULL;
            if (st == DLS_OK) {
                st = dls_bench_build(&k, &par, &b, &err);
                free_kernel(&km, &k);
            }
            if (st == DLS_OK) {
                const double *ys;
                dls_model_get_points(dls_bench_model(b), &ny, &ys, NULL, NULL, NULL);
                sizes = malloc(ny * sizeof *sizes);
                values = malloc(nsurface * ny * sizeof *values);
                memcpy(sizes, ys, ny * sizeof *sizes);
                const double *sp;
                dls_model_get_points(dls_bench_model(b), NULL, NULL, &sp, NULL, NULL);
                memcpy(values + mid * ny, sp, ny * sizeof *sp);
                dls_bench_free(b);
            }
            dls_bench_point *row = st == DLS_OK ? malloc(ny * sizeof *row) : NULL;
            for (size_t r = 0, done = 1; st == DLS_OK && r < nsurface; r++) {
                if (r == mid)
                    continue;
                nr = 0;
                for (size_t i = 0; i < nold; i++)
                    if (old_fixed[i] == surface[r])
                        resume[nr++] = old[i];
                par.resume_count = nr;
                lg.fixed = surface[r];
                snprintf(label, sizeof label, "row %zu/%zu ", ++done, nsurface);
                st = make_kernel(&km, surface[r], &k, &err);
                if (st != DLS_OK)
                    break;
                st = dls_bench_measure(&k, &par, sizes, ny, row, &err);
                free_kernel(&km, &k);
                for (size_t j = 0; st == DLS_OK && j < ny; j++)
                    values[r * ny + j] = row[j].speed;
            }
            free(row);
        }
        progress_done(&u);
        if (st == DLS_OK) {
            /* x = the fixed values (n or x), y = the sizes (rows or blocks) */
            st = dls_model_create_speed2d(nsurface, surface, ny, sizes, values, &model, &err);
            json_object_set_new(report, "surface", json_true());
        }
        free(sizes);
        free(values);
        limit = INFINITY; /* a 2-D model has no single largest size */
    }
    free(resume);
    free(old);
    free(old_fixed);
    sigaction(SIGINT, &old_sa, NULL);
    fclose(lg.f);
    if (st == DLS_ECANCELED && interrupted) {
        tool_error("interrupted: the points measured so far are in %s; run the same command "
                   "with --resume to continue", logpath);
        rc = EXIT_INTERRUPTED;
    } else if (st != DLS_OK) {
        rc = tool_fail(st, &err);
    } else {
        if (out || merge)
            rc = write_platform(a, name, model, limit);
        if (rc == EXIT_DONE && arg_flag(a, "json")) {
            json_object_set_new(report, "name", json_string(name));
            json_object_set_new(report, "limit", tool_json_number(limit));
            json_object_set_new(report, "log", json_string(logpath));
            rc = tool_print_json(report);
            report = NULL;
        }
    }
    json_decref(report);
    dls_model_free(model);
    dls_model_free(km.synthetic);
    free(surface);
    return rc;
}
