/* dlsched bench: measure a speed function on this machine and write it as a platform file.
 * Long work stays visible and safe: a progress line on terminals, every point appended and
 * flushed to a log as soon as it is known, --resume from that log, Ctrl-C stops cleanly,
 * and the platform file is replaced atomically. The measurement itself is the library's
 * (dls_bench_build, and dls_bench_build_surface for --surface). */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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
/* Where --exec puts the size in its command. */
#define SIZE_MARK "{size}"
/* The log when no -o, --merge or --log names one. */
#define DEFAULT_LOG "dlsched-bench.log"
/* --links: the largest message by default, bytes (DLS_MPI_LINKS_DEFAULT_MAX_BYTES of
 * dlsched/mpi.h, which this file does not include: it is built without MPI too) */
#define LINK_MAX_BYTES 16777216.0
/* Version of the log format, in its first line: 2 since 1-D speeds of gemm-rows and
 * lu-update count rows and block columns (1: multiply-adds and block updates). */
#define LOG_VERSION 2
/* Longest path of the log, and longest --exec command once {size} is replaced. */
#define LOG_PATH_MAX 4096
#define EXEC_COMMAND_MAX 4096
/* --exec: the start-up of `sh -c :` is timed this many times and the least kept (the fixed
 * cost every run pays; the least, so that no run's own work is subtracted) */
#define EXEC_OVERHEAD_RUNS 7
/* --exec: a run keeps at least this share of its time after the start-up is subtracted
 * (a command as fast as the shell's start-up is counted, not made free) */
#define EXEC_MIN_SHARE 0.1
/* Longest host name in the default processor name; bytes of the processor's name: one more
 * than the longest a platform takes, so that a longer --name is refused, never cut. */
#define HOST_NAME_LEN 128
#define PROCESSOR_NAME_LEN (DLS_PLATFORM_NAME_MAX + 2)
/* The largest matrix order (gemm-rows) or trailing height (lu-update): --n, --x and the
 * values of --surface. */
#define BENCH_DIM_MAX 1e6

static const tool_opt bench_opts[] = {
    TOOL_GROUP("What to measure"),
    {"kernel", OPT_CHOICE, NULL, "gemm-rows", 0, 0,
     TOOL_CHOICES(DLS_BLAS_KERNEL_KIND_MAP) "synthetic",
     "what to measure (synthetic: a simulated processor with a known speed function)"},
    TOOL_STRING("exec", "'PROGRAM ARGS {size}'",
                "time this command per size instead ({size} is replaced; needs --max-size)"),
    {"n", OPT_COUNT, "N", NULL, 1, BENCH_DIM_MAX, NULL, "gemm-rows: the matrix order n"},
    {"x", OPT_COUNT, "X", NULL, 1, BENCH_DIM_MAX, NULL, "lu-update: the trailing matrix height in blocks"},
    {"block", OPT_COUNT, "B", NULL, 1, 4096, NULL, "lu-update: the block size"},
    TOOL_STRING("surface", "V1,V2,...",
                "measure a 2-D surface over these values of n (gemm-rows) or x (lu-update)"),
    {"threads", OPT_COUNT, "N", NULL, 1, 4096, NULL, "OpenBLAS threads"},
    {"noise", OPT_DOUBLE, "R", NULL, 0, 0.99, NULL, "synthetic: relative noise of the times"},
    {"delay", OPT_DOUBLE, "SEC", NULL, 0, 59, NULL, "synthetic: real seconds each run takes"},
    TOOL_GROUP("Sizes and accuracy"),
    {"min-size", OPT_DOUBLE, "S", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL, "smallest size"},
    {"max-size", OPT_DOUBLE, "S", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "largest size (default: what fits in half the memory available)"},
    {"precision", OPT_DOUBLE, "P", NULL, 1e-6, 0.99, NULL,
     "relative half-width of the confidence interval of each time"},
    {"max-points", OPT_COUNT, "K", NULL, 2, 100000, NULL, "points measured at most"},
    {"accuracy", OPT_DOUBLE, "A", NULL, 1e-6, 0.99, NULL,
     "the model's accuracy: a line that predicts within it (or the band) is accepted"},
    {"resolution", OPT_DOUBLE, "R", NULL, 1e-6, 0.99, NULL,
     "sizes closer than a factor 1 + R are not told apart"},
    {"model-points", OPT_COUNT, "K", NULL, 2, 100000, NULL, "points the model keeps at most"},
    {"min-run-time", OPT_DOUBLE, "SEC", NULL, 0, 10, NULL,
     "gemm-rows, lu-update: a shorter dgemm is repeated in a loop, its time divided"},
    {"validate", OPT_COUNT, "K", NULL, 0, 1000, NULL,
     "measure K held-out sizes and compare them with the model"},
    {"time-budget", OPT_DOUBLE, "SEC", NULL, 0, 1e9, NULL, "stop after this many seconds"},
    {"size-cap", OPT_DOUBLE, "SEC", NULL, 1e-3, 1e9, NULL, "seconds spent at one size at most"},
    TOOL_GROUP("Output"),
    TOOL_STRING("output", "FILE", "write a platform file with one processor (- for standard "
                "output)"),
    TOOL_ALIAS("o", "output"),
    TOOL_STRING("merge", "FILE",
                "add the processor to this platform file, or replace the one of the same name"),
    TOOL_STRING("name", "NAME", "processor name (default HOST-KERNEL)"),
    TOOL_STRING("log", "FILE", "measurement log (default: the output file with .log appended)"),
    TOOL_FLAG("resume", "continue from the log instead of starting again"),
    TOOL_FLAG("quiet", "no progress line"),
    TOOL_FLAG("json", "print the measured points as JSON"),
    TOOL_GROUP("MPI (under mpirun)"),
    TOOL_FLAG("mpi", "measure every rank at once, one processor per rank"),
    TOOL_FLAG("links", "with --mpi: also measure the link from rank 0 to every rank"),
    TOOL_FLAG("no-compute", "with --mpi --links: the links alone, no kernel (printed, or "
              "written into the platform of --merge)"),
    {"bytes-per-unit", OPT_DOUBLE, "B", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "with --links: bytes a unit of load is (default: a row of gemm-rows, a block column of "
     "lu-update)"},
    {"link-max-bytes", OPT_DOUBLE, "N", NULL, 1, 1e12, NULL,
     "with --links: the largest message"},
    TOOL_OPT_END,
};

static const tool_rule bench_rules[] = {
    TOOL_NEEDS("links", "mpi"),
    TOOL_NEEDS("no-compute", "links"),
    TOOL_NEEDS("bytes-per-unit", "links"),
    TOOL_NEEDS("link-max-bytes", "links"),
    TOOL_EXCLUDES_WHY("output", "merge", "give -o FILE or --merge FILE, not both"),
    TOOL_EXCLUDES_WHY("output", "no-compute", "--no-compute measures the links alone: they are "
                      "printed, or written into the platform file of --merge"),
    TOOL_EXCLUDES("exec", "kernel"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's, read from its parameters, and the tool's own. */
static int bench_default(const char *opt, char *buf, size_t size)
{
    dls_bench_params par;
    dls_bench_params_init(&par);
    dls_blas_kernel_params bp;
    dls_blas_kernel_params_init(&bp);
    if (strcmp(opt, "link-max-bytes") == 0) {
        snprintf(buf, size, "%g MiB", LINK_MAX_BYTES / (1024 * 1024));
        return 1;
    }
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
    if (strcmp(opt, "accuracy") == 0)
        return tool_show_number(par.accuracy, buf, size);
    if (strcmp(opt, "resolution") == 0)
        return tool_show_number(par.resolution, buf, size);
    if (strcmp(opt, "model-points") == 0)
        return tool_show_number(DLS_BENCH_DEFAULT_MODEL_POINTS, buf, size);
    if (strcmp(opt, "min-run-time") == 0)
        return tool_show_number(bp.min_run_time, buf, size);
    if (strcmp(opt, "validate") == 0)
        return tool_show_number((double)par.validate, buf, size);
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
    "measure this machine's speed function (BLAS kernels, a command)",
    "[OPTIONS]\n"
    "       mpirun -np N dlsched bench --mpi [OPTIONS]",
    "Times a kernel at a few well-chosen sizes and writes its speed function as a platform\n"
    "file. Each size is repeated until its time is known within --precision; sizes are\n"
    "added where the model is least accurate, until it predicts every measure within\n"
    "--accuracy, or --max-points, --model-points or --time-budget is reached. The largest\n"
    "size measured becomes the processor's limit. Every point goes to the log as it is\n"
    "measured: after Ctrl-C, --resume continues. Without -o or --merge the platform goes\n"
    "to standard output. With --mpi every rank measures at the same time, one processor a\n"
    "rank.",
    bench_opts,
    0,
    0,
    cmd_bench,
    bench_default,
    "dlsched bench --kernel synthetic -o synthetic.json\n"
    "dlsched bench --kernel gemm-rows --n 128 --max-size 256 -o node.json\n"
    "dlsched bench --exec 'head -c {size} /dev/zero >/dev/null' --max-size 1e7 \\\n"
    "    --time-budget 10 -o cmd.json",
    bench_rules,
};

/* ---------------------------------------------------------------------------------- */
/* What the command line asks                                                         */

typedef enum kernel_kind { KERNEL_GEMM, KERNEL_LU, KERNEL_SYNTHETIC, KERNEL_EXEC } kernel_kind;

/* The options that only some kernels, or only --mpi, read: whether each was given is kept
 * (bench_request.given), so that one given where it does nothing is refused by name. */
typedef enum bench_given {
    GIVEN_N, GIVEN_X, GIVEN_BLOCK, GIVEN_MIN_RUN_TIME, GIVEN_THREADS, GIVEN_NOISE, GIVEN_DELAY,
    GIVEN_KERNEL, GIVEN_MIN_SIZE, GIVEN_MAX_SIZE, GIVEN_MERGE, GIVEN_SURFACE, GIVEN_NAME,
    GIVEN_LINKS, GIVEN_NO_COMPUTE, GIVEN_BYTES_PER_UNIT, GIVEN_LINK_MAX_BYTES, GIVEN_COUNT
} bench_given;
static const char *const given_option[GIVEN_COUNT] = {
    "n", "x", "block", "min-run-time", "threads", "noise", "delay",
    "kernel", "min-size", "max-size", "merge", "surface", "name",
    "links", "no-compute", "bytes-per-unit", "link-max-bytes"};
#define GIVEN(r, k) (((r)->given >> (k)) & 1u)

/* What the command line of `bench` asks, read once (bench_request_read): the checks, the
 * measurement and the report below take it, never the option table. */
typedef struct bench_request {
    int mpi, links, no_compute;   /* --mpi, --links, --no-compute */
    int resume, json, quiet;      /* --resume, --json, --quiet */
    const char *out, *merge;      /* -o and --merge, or NULL */
    const char *kernel;           /* --kernel, or its default */
    const char *exec;             /* --exec, or NULL */
    const char *surface;          /* --surface as given, or NULL */
    const char *name, *log;       /* --name and --log, or NULL */
    double n, x;                  /* --n and --x, or the library's defaults */
    dls_blas_kernel_params blas;  /* the library's defaults, then --block, --threads,
                                   * --min-run-time (fixed: set by the kernel chosen) */
    double noise, delay;          /* the synthetic kernel's */
    double bytes_per_unit;        /* --bytes-per-unit, NAN when not given */
    double link_max_bytes;        /* --link-max-bytes, or LINK_MAX_BYTES */
    dls_bench_params par;         /* the library's defaults, then the options given (the
                                   * kernel's range is applied by bench_params) */
    unsigned given;               /* bits 1 << GIVEN_... */
} bench_request;

static void bench_request_read(const tool_args *a, bench_request *r)
{
    memset(r, 0, sizeof *r);
    for (int k = 0; k < GIVEN_COUNT; k++)
        if (arg_given(a, given_option[k]))
            r->given |= 1u << k;
    r->mpi = arg_flag(a, "mpi");
    r->links = arg_flag(a, "links");
    r->no_compute = arg_flag(a, "no-compute");
    r->resume = arg_flag(a, "resume");
    r->json = arg_flag(a, "json");
    r->quiet = arg_flag(a, "quiet");
    r->out = tool_output(a);
    r->merge = arg_string(a, "merge");
    r->kernel = arg_string(a, "kernel");
    r->exec = arg_string(a, "exec");
    r->surface = arg_string(a, "surface");
    r->name = arg_string(a, "name");
    r->log = arg_string(a, "log");
    r->n = dls_blas_kernel_default_fixed(DLS_KERNEL_GEMM_ROWS);
    r->x = dls_blas_kernel_default_fixed(DLS_KERNEL_LU_UPDATE);
    arg_double(a, "n", &r->n);
    arg_double(a, "x", &r->x);
    dls_blas_kernel_params_init(&r->blas);
    arg_unsigned(a, "block", &r->blas.block);
    arg_unsigned(a, "threads", &r->blas.threads);
    arg_double(a, "min-run-time", &r->blas.min_run_time);
    r->noise = SYNTHETIC_NOISE;
    r->delay = SYNTHETIC_DELAY;
    arg_double(a, "noise", &r->noise);
    arg_double(a, "delay", &r->delay);
    r->bytes_per_unit = NAN;
    arg_double(a, "bytes-per-unit", &r->bytes_per_unit);
    r->link_max_bytes = LINK_MAX_BYTES;
    arg_double(a, "link-max-bytes", &r->link_max_bytes);
    dls_bench_params *par = &r->par;
    dls_bench_params_init(par);
    arg_double(a, "min-size", &par->min_size);
    arg_double(a, "max-size", &par->max_size);
    arg_double(a, "precision", &par->precision);
    arg_size(a, "max-points", &par->max_points);
    arg_double(a, "accuracy", &par->accuracy);
    arg_double(a, "resolution", &par->resolution);
    arg_size(a, "model-points", &par->max_model_points);
    arg_size(a, "validate", &par->validate);
    arg_double(a, "time-budget", &par->time_budget);
    arg_double(a, "size-cap", &par->size_time_cap);
}

/* The job: the request, and what is derived from it. */
typedef struct bench_job {
    const bench_request *req;
    kernel_kind kind;
    const char *kname;            /* --kernel */
    const char *exec;             /* --exec, or NULL */
    const char *out, *merge;      /* -o and --merge, or NULL */
    double *surface;              /* --surface values, or NULL */
    size_t nsurface;
    dls_blas_kernel_params blas;  /* the built-in kernels (fixed: --n or --x) */
    double noise, delay;          /* the synthetic kernel */
    double overhead;              /* --exec: the start-up subtracted from every run, s */
    size_t dominated;             /* --exec: runs that took less than twice the start-up */
    dls_model *synthetic;         /* its speed function */
    char name[PROCESSOR_NAME_LEN];
    char logpath[LOG_PATH_MAX];
} bench_job;

static void job_free(bench_job *job)
{
    free(job->surface);
    dls_model_free(job->synthetic);
}

/* --surface: at least two increasing whole numbers >= 1. */
static int parse_surface(bench_job *job, const char *text)
{
    if (job->kind != KERNEL_GEMM && job->kind != KERNEL_LU) {
        tool_error("bench: --surface applies to the gemm-rows and lu-update kernels");
        return EXIT_BADINPUT;
    }
    int rc = tool_parse_numbers("bench", "surface", text, NULL, &job->surface,
                                &job->nsurface);
    if (rc != EXIT_DONE)
        return rc;
    int ok = job->nsurface >= 2;
    for (size_t i = 0; ok && i < job->nsurface; i++) {
        double v = job->surface[i];
        ok = v >= 1 && v <= BENCH_DIM_MAX && v == floor(v) && (i == 0 || v > job->surface[i - 1]);
    }
    if (!ok) {
        tool_error("bench: --surface must list at least two increasing whole numbers in [1, "
                   "%.0f] (the range of --n and --x), separated by commas", BENCH_DIM_MAX);
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

static double exec_overhead(void);

/* The kernel: --kernel, or --exec with its requirements. */
static int choose_kernel(bench_job *job)
{
    const bench_request *r = job->req;
    job->kname = r->kernel;
    dls_blas_kernel_kind bk;
    if (dls_blas_kernel_kind_from_name(job->kname, &bk) == DLS_OK)
        job->kind = bk == DLS_KERNEL_GEMM_ROWS ? KERNEL_GEMM : KERNEL_LU;
    else
        job->kind = KERNEL_SYNTHETIC; /* the option's choices allow nothing else */
    job->exec = r->exec;
    if (job->exec == NULL)
        return EXIT_DONE;
    if (GIVEN(r, GIVEN_KERNEL)) {
        tool_error("bench: --exec replaces --kernel: give one of them");
        return EXIT_BADINPUT;
    }
    if (strstr(job->exec, SIZE_MARK) == NULL) {
        tool_error("bench: the --exec command must contain {size}, where the size goes");
        return EXIT_BADINPUT;
    }
    if (!GIVEN(r, GIVEN_MAX_SIZE)) {
        tool_error("bench: --exec needs --max-size (the memory a command needs is unknown)");
        return EXIT_BADINPUT;
    }
    job->kind = KERNEL_EXEC;
    job->overhead = exec_overhead();
    return EXIT_DONE;
}

/* The synthetic processor: rising while caches warm up, a plateau, falling when paging. */
static dls_status synthetic_model(dls_model **m, dls_error *err)
{
    static const double x[] = {1e2, 1e3, 1e4, 1e5, 1e6, 3e6, 1e7, 3e7, 1e8};
    static const double s[] = {2e8, 9e8, 1.6e9, 2e9, 2e9, 1.7e9, 9e8, 4e8, 1.5e8};
    return dls_model_create_points(sizeof x / sizeof x[0], x, s, NULL, NULL, m, err);
}

/* Options that one kind of kernel reads: given for another, they would do nothing. */
static int refuse_other_kernels(const bench_request *r, int kind)
{
    static const struct {
        bench_given opt;
        unsigned kinds; /* bits 1 << KERNEL_... */
        const char *for_whom;
    } only[] = {
        {GIVEN_N, 1u << KERNEL_GEMM, "--kernel gemm-rows"},
        {GIVEN_X, 1u << KERNEL_LU, "--kernel lu-update"},
        {GIVEN_BLOCK, 1u << KERNEL_LU, "--kernel lu-update"},
        {GIVEN_MIN_RUN_TIME, 1u << KERNEL_GEMM | 1u << KERNEL_LU, "the OpenBLAS kernels"},
        {GIVEN_THREADS, 1u << KERNEL_GEMM | 1u << KERNEL_LU, "the OpenBLAS kernels"},
        {GIVEN_NOISE, 1u << KERNEL_SYNTHETIC, "--kernel synthetic"},
        {GIVEN_DELAY, 1u << KERNEL_SYNTHETIC, "--kernel synthetic"},
    };
    for (size_t i = 0; i < sizeof only / sizeof only[0]; i++)
        if (GIVEN(r, only[i].opt) && !(only[i].kinds & (1u << kind))) {
            tool_error("bench: --%s applies to %s only, not to %s", given_option[only[i].opt],
                       only[i].for_whom, kind == KERNEL_EXEC ? "--exec" :
                       kind == KERNEL_GEMM ? "--kernel gemm-rows" :
                       kind == KERNEL_LU ? "--kernel lu-update" : "--kernel synthetic");
            return EXIT_BADINPUT;
        }
    return EXIT_DONE;
}

/* The settings of the kernels: the library's defaults, then what was given. */
static int kernel_settings(bench_job *job)
{
    const bench_request *r = job->req;
    if (refuse_other_kernels(r, (int)job->kind) != EXIT_DONE)
        return EXIT_BADINPUT;
    job->blas = r->blas;
    job->blas.fixed = job->kind == KERNEL_LU ? r->x : r->n;
    job->noise = r->noise;
    job->delay = r->delay;
    if (job->kind != KERNEL_SYNTHETIC)
        return EXIT_DONE;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = synthetic_model(&job->synthetic, &err);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}

/* The processor's name, and the log's path. */
static void name_job(bench_job *job)
{
    const bench_request *r = job->req;
    if (r->name) {
        snprintf(job->name, sizeof job->name, "%s", r->name);
    } else {
        char host[HOST_NAME_LEN] = "host";
        gethostname(host, sizeof host - 1);
        host[sizeof host - 1] = '\0';
        snprintf(job->name, sizeof job->name, "%s-%s", host, job->exec ? "exec" : job->kname);
    }
    const char *lp = r->log;
    if (lp == NULL && ((job->out && !tool_is_stdout(job->out)) || job->merge))
        snprintf(job->logpath, sizeof job->logpath, "%s.log", job->out ? job->out : job->merge);
    else
        snprintf(job->logpath, sizeof job->logpath, "%s", lp ? lp : DEFAULT_LOG);
}

/* Reads and checks the command line into job; release it with job_free() in every case. */
static int parse_job(const bench_request *r, bench_job *job)
{
    memset(job, 0, sizeof *job);
    job->req = r;
    job->out = r->out;
    job->merge = r->merge;
    if (job->out && job->merge) {
        tool_error("bench: give -o FILE or --merge FILE, not both");
        return EXIT_BADINPUT;
    }
    int rc = choose_kernel(job);
    if (rc == EXIT_DONE && r->surface)
        rc = parse_surface(job, r->surface);
    if (rc == EXIT_DONE)
        rc = kernel_settings(job);
    if (rc == EXIT_DONE)
        name_job(job);
    return rc;
}

/* ---------------------------------------------------------------------------------- */
/* Kernels                                                                            */

/* Runs `sh -c cmd` and times the whole process; a negative number when it fails. */
static double spawn_timed(const char *cmd)
{
    char *argv[] = {"sh", "-c", (char *)cmd, NULL};
    pid_t pid;
    double t0 = tool_now();
    if (posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, environ) != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    double t = tool_now() - t0;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return -1;
    return t;
}

/* The start-up every --exec run pays: the least of a few runs of `sh -c :`. */
static double exec_overhead(void)
{
    double best = INFINITY;
    for (int i = 0; i < EXEC_OVERHEAD_RUNS; i++) {
        double t = spawn_timed(":");
        if (t > 0 && t < best)
            best = t;
    }
    return isfinite(best) ? best : 0;
}

/* Runs the command with {size} replaced, through /bin/sh, and times the whole process, less
 * the shell's start-up measured before. */
static double exec_run(double size, double *work, void *data)
{
    bench_job *job = data;
    const char *command = job->exec;
    char num[64], cmd[EXEC_COMMAND_MAX];
    snprintf(num, sizeof num, "%.0f", size);
    size_t o = 0;
    for (const char *c = command; *c && o + sizeof num < sizeof cmd;) {
        if (strncmp(c, SIZE_MARK, strlen(SIZE_MARK)) == 0) {
            o += (size_t)snprintf(cmd + o, sizeof cmd - o, "%s", num);
            c += strlen(SIZE_MARK);
        } else {
            cmd[o++] = *c++;
        }
    }
    cmd[o] = '\0';
    double t = spawn_timed(cmd);
    if (t < 0)
        return -1;
    if (t < 2 * job->overhead)
        job->dominated++;
    *work = size;
    return fmax(t - job->overhead, EXEC_MIN_SHARE * t);
}

/* The kernel of the job, its fixed parameter (n or x) at `fixed`. */
static dls_status make_kernel(const bench_job *job, double fixed, dls_kernel *k, dls_error *err)
{
    if (job->kind == KERNEL_EXEC) {
        memset(k, 0, sizeof *k);
        k->name = "exec";
        k->run = exec_run;
        k->data = (void *)job;
        k->integer_sizes = 1;
        return DLS_OK;
    }
    if (job->kind == KERNEL_SYNTHETIC)
        return dls_model_kernel_create(job->synthetic, job->noise, job->delay, k, err);
    dls_blas_kernel_params bp = job->blas;
    bp.fixed = fixed;
    return dls_blas_kernel_create(job->kind == KERNEL_GEMM ? DLS_KERNEL_GEMM_ROWS
                                                           : DLS_KERNEL_LU_UPDATE,
                                  &bp, k, err);
}

static void free_kernel(const bench_job *job, dls_kernel *k)
{
    if (job->kind == KERNEL_SYNTHETIC)
        dls_kernel_free(k);
    else if (job->kind != KERNEL_EXEC)
        dls_kernel_free(k);
}

/* The rows of a surface, for dls_bench_build_surface: 2-D speeds count the kernel's
 * operations (n1 n^2 multiply-adds, x y block updates), as matrix partitions and LU read
 * them. */
static dls_status family_create(double value, dls_kernel *k, void *data, dls_error *err)
{
    const bench_job *job = data;
    if (job->kind != KERNEL_GEMM && job->kind != KERNEL_LU)
        return make_kernel(job, value, k, err);
    dls_blas_kernel_params bp = job->blas;
    bp.fixed = value;
    bp.operations = 1;
    return dls_blas_kernel_create(job->kind == KERNEL_GEMM ? DLS_KERNEL_GEMM_ROWS
                                                           : DLS_KERNEL_LU_UPDATE,
                                  &bp, k, err);
}

static void family_release(dls_kernel *k, void *data)
{
    free_kernel(data, k);
}

/* ---------------------------------------------------------------------------------- */
/* Progress and the log                                                               */

typedef struct monitor {
    int show;           /* a terminal and not --quiet */
    int dirty;          /* a progress line is on screen */
    char label[64];     /* "row 2/5 " while a surface is measured */
    FILE *log;
    const char *logpath;
    double fixed;       /* the row of a surface being measured, or NAN */
} monitor;

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
    monitor *m = data;
    if (tool_interrupted)
        return 1;
    if (!m->show)
        return 0;
    char el[32], eta[32];
    clock_text(p->elapsed, el, sizeof el);
    clock_text(p->estimated, eta, sizeof eta);
    fprintf(stderr, "\r%s[%3zu/%zu %s] size %-10.4g run %-3u elapsed %s%s%s   ", m->label,
            p->points, p->max_points, tool_plural(p->max_points, "point", "points"), p->size,
            p->rep, el,
            isfinite(p->estimated) ? ", about " : "", isfinite(p->estimated) ? eta : "");
    if (isfinite(p->estimated))
        fprintf(stderr, " left");
    fflush(stderr);
    m->dirty = 1;
    return 0;
}

static void progress_done(monitor *m)
{
    if (m->dirty)
        fputc('\n', stderr);
    m->dirty = 0;
}

static int on_row(size_t row, size_t rows, double value, void *data)
{
    monitor *m = data;
    m->fixed = value;
    snprintf(m->label, sizeof m->label, "row %zu/%zu ", row + 1, rows);
    return tool_interrupted;
}

static int log_point(const dls_bench_point *pt, void *data)
{
    monitor *m = data;
    json_t *o = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:i}", "size", pt->size, "speed", pt->speed,
                          "low", pt->low, "high", pt->high, "time", pt->time, "ci", pt->ci,
                          "reps", (int)pt->reps);
    if (o != NULL && isfinite(m->fixed))
        json_object_set_new(o, "fixed", tool_json_number(m->fixed));
    char *text = o ? tool_json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    /* one line per point, on disk before the next measurement starts */
    int failed = text == NULL || fprintf(m->log, "%s\n", text) < 0 || fflush(m->log) != 0 ||
                 fsync(fileno(m->log)) != 0;
    free(text);
    if (failed) {
        tool_error("%s: cannot append to the log: %s", m->logpath, strerror(errno));
        return 1;
    }
    return tool_interrupted;
}

/* The first line of a log: what was measured, so that --resume continues the same thing. */
static json_t *log_header(const bench_job *job)
{
    const char *surface = job->req->surface;
    double n = job->req->n, x = job->req->x;
    return json_pack("{s:i,s:s,s:o,s:I,s:I,s:I,s:o}", "dlsched_bench", LOG_VERSION, "kernel",
                     job->exec ? "exec" : job->kname, "exec",
                     job->exec ? tool_json_text(job->exec) : json_null(), "n", (json_int_t)n, "x",
                     (json_int_t)x, "block", (json_int_t)job->blas.block, "surface",
                     surface ? tool_json_text(surface) : json_null());
}

/* The points read back from a log, each with its row (NaN for a 1-D measurement). */
typedef struct log_points {
    dls_bench_point *points;
    double *fixed;
    size_t n, points_cap, fixed_cap;
} log_points;

/* Appends the point of a log line; returns an exit status after a message. */
static int append_point(const char *path, int lineno, json_t *o, log_points *lp)
{
    dls_bench_point *pg = tool_grow(lp->points, &lp->points_cap, lp->n + 1, sizeof *pg);
    if (pg != NULL)
        lp->points = pg;
    double *fg = pg ? tool_grow(lp->fixed, &lp->fixed_cap, lp->n + 1, sizeof *fg) : NULL;
    if (fg == NULL) {
        tool_error("%s: out of memory while reading the log", path);
        return EXIT_FAILURE_RUN;
    }
    lp->fixed = fg;
    dls_bench_point *p = &lp->points[lp->n];
    memset(p, 0, sizeof *p);
    int reps;
    if (json_unpack(o, "{s:F,s:F,s:F,s:F,s:F,s:F,s:i}", "size", &p->size, "speed", &p->speed,
                    "low", &p->low, "high", &p->high, "time", &p->time, "ci", &p->ci, "reps",
                    &reps) != 0) {
        tool_error("%s:%d: a point lacks a field", path, lineno);
        return EXIT_BADINPUT;
    }
    p->reps = (unsigned)reps;
    json_t *fx = json_object_get(o, "fixed");
    lp->fixed[lp->n++] = fx ? json_number_value(fx) : NAN;
    return EXIT_DONE;
}

/* Whether a log's first line is the header of this measurement. A log of version 1 serves
 * where its speeds meant the same: commands, synthetic kernels and surfaces, whose speeds
 * count the same work in both versions; not a 1-D gemm-rows or lu-update one, whose speeds
 * counted operations. Returns an exit status, after a message. */
static int log_header_matches(const char *path, json_t *old, const json_t *header,
                              const char *line)
{
    json_t *v = json_object_get(old, "dlsched_bench");
    if (json_is_integer(v) && json_integer_value(v) == 1) {
        const char *kernel = json_string_value(json_object_get(header, "kernel"));
        int same_work = json_is_string(json_object_get(header, "surface")) ||
                        (kernel && (strcmp(kernel, "exec") == 0 ||
                                    strcmp(kernel, "synthetic") == 0));
        if (!same_work) {
            tool_error("%s: this log was written by an older dlsched, whose speeds of %s "
                       "counted its operations instead of its size's unit (rows, block "
                       "columns): its points cannot be resumed; remove it and measure again",
                       path, kernel ? kernel : "the kernel");
            return EXIT_BADINPUT;
        }
        json_object_set_new(old, "dlsched_bench", json_integer(LOG_VERSION));
    }
    if (!json_equal(old, header)) {
        tool_error("%s: this log was written for another measurement (its first line "
                   "says %s); remove it, or use another --log", path, line);
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* Reads the points of a log written for the same measurement (the header). Returns an exit
 * status; on failure nothing is left allocated. */
static int read_log(const char *path, const json_t *header, log_points *lp)
{
    memset(lp, 0, sizeof *lp);
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        tool_error("%s: cannot open the log to resume: %s", path, strerror(errno));
        return EXIT_BADINPUT;
    }
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0, rc = EXIT_DONE;
    while (rc == EXIT_DONE && getline(&line, &cap, f) > 0) {
        lineno++;
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (o == NULL) {
            /* a line cut by a crash can only be the last one */
            if (fgetc(f) == EOF)
                break;
            tool_error("%s:%d: not a log line: %s", path, lineno, je.text);
            rc = EXIT_BADINPUT;
        } else if (lineno == 1) {
            rc = log_header_matches(path, o, header, line);
        } else if (json_object_get(o, "summary") == NULL) {
            rc = append_point(path, lineno, o, lp); /* the account of a build is no point */
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
    if (rc == EXIT_DONE && lineno == 0) {
        tool_error("%s: the log is empty", path);
        rc = EXIT_BADINPUT;
    }
    if (rc != EXIT_DONE) {
        free(lp->points);
        free(lp->fixed);
        memset(lp, 0, sizeof *lp);
    }
    return rc;
}

/* Opens the log: read back with --resume and appended to, or started with its header. */
static int open_log(const bench_job *job, monitor *m, log_points *old)
{
    int resume = job->req->resume;
    memset(old, 0, sizeof *old);
    json_t *header = log_header(job);
    if (header == NULL) {
        tool_oom(NULL);
        return EXIT_FAILURE_RUN;
    }
    int rc = resume ? read_log(job->logpath, header, old) : EXIT_DONE;
    if (rc == EXIT_DONE) {
        m->log = fopen(job->logpath, resume ? "a" : "w");
        if (m->log == NULL) {
            tool_error("%s: cannot write the log: %s", job->logpath, strerror(errno));
            rc = EXIT_BADINPUT;
        }
    }
    if (rc == EXIT_DONE && !resume) {
        char *h = json_dumps(header, JSON_COMPACT);
        if (h == NULL || fprintf(m->log, "%s\n", h) < 0 || fflush(m->log) != 0) {
            tool_error("%s: cannot write the log: %s", job->logpath, strerror(errno));
            rc = EXIT_BADINPUT;
        }
        free(h);
    }
    json_decref(header);
    return rc;
}

/* ---------------------------------------------------------------------------------- */
/* The measurement                                                                    */

/* What the measurement gives: the model, its limit (INFINITY for none) and the report. */
typedef struct outcome {
    dls_model *model;
    double limit;
    json_t *report;
} outcome;

/* The parameters: the library's defaults, the kernel's range, then what was given. */
static void bench_params(const bench_job *job, monitor *m, dls_bench_params *par)
{
    const bench_request *r = job->req;
    *par = r->par;
    if (job->kind == KERNEL_GEMM && !GIVEN(r, GIVEN_MIN_SIZE))
        par->min_size = GEMM_MIN_ROWS;
    if (job->kind == KERNEL_SYNTHETIC && !GIVEN(r, GIVEN_MIN_SIZE))
        par->min_size = SYNTHETIC_MIN_SIZE;
    if (job->kind == KERNEL_SYNTHETIC && !GIVEN(r, GIVEN_MAX_SIZE))
        par->max_size = SYNTHETIC_MAX_SIZE;
    par->on_point = log_point;
    par->on_point_data = m;
    par->on_run = progress;
    par->on_run_data = m;
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

static json_t *checks_json(const dls_bench_check *c, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:b}", "size",
                                           c[i].size, "speed", c[i].speed, "low", c[i].low,
                                           "high", c[i].high, "predicted", c[i].predicted,
                                           "model_low", c[i].model_low, "model_high",
                                           c[i].model_high, "error", c[i].error, "within",
                                           c[i].within));
    return a;
}

/* The account of a build, for the JSON report and the log. */
static json_t *summary_json(const dls_bench_summary *u, double accuracy)
{
    return json_pack("{s:s,s:I,s:I,s:f,s:f,s:o,s:b,s:f,s:I,s:f,s:I,s:f,s:I,s:I,s:I,s:f,s:f,"
                     "s:f}",
                     "stop", dls_bench_stop_name(u->stop), "measured", (json_int_t)u->measured,
                     "kept", (json_int_t)u->kept, "smallest", u->smallest, "largest",
                     u->largest, "limit", tool_json_number(u->limit), "top_by_budget",
                     u->top_by_budget, "top_run_time", u->top_run_time, "fine",
                     (json_int_t)u->fine, "fine_error", u->fine_error, "widened",
                     (json_int_t)u->widened, "widening", u->widening, "unexamined",
                     (json_int_t)u->unexamined, "held_out", (json_int_t)u->held_out, "within",
                     (json_int_t)u->within, "held_out_error", u->held_out_error, "accuracy",
                     accuracy, "elapsed", u->elapsed);
}

/* The summary on stderr: what stopped the build, the range measured, where and why the
 * model is extrapolated, the structure it leaves to its bands, the held-out sizes. */
static void print_summary(const dls_bench_summary *u, const dls_bench_params *par,
                          const bench_job *job)
{
    fprintf(stderr, "dlsched: measured %zu %s in %.1f s (stop: %s); the model keeps %zu "
            "%s, measured from %.6g to %.6g (a run of %.3g s there)\n", u->measured,
            tool_plural(u->measured, "size", "sizes"), u->elapsed, dls_bench_stop_name(u->stop),
            u->kept, tool_plural(u->kept, "point", "points"), u->smallest, u->largest,
            u->top_run_time);
    if (u->top_by_budget)
        tool_warning("the time budget afforded sizes up to %.6g; from there to the limit %.6g "
                     "the model keeps the last speed measured (raise --time-budget or lower "
                     "--max-size to measure the whole range)", u->largest, u->limit);
    if (u->fine > 0)
        fprintf(stderr, "dlsched: %zu interval%s with structure the model does not follow "
                "(up to %.3g%% off its line): the bands of %zu point%s widened, up to %.3g%%\n",
                u->fine, u->fine == 1 ? "" : "s", 100 * u->fine_error, u->widened,
                u->widened == 1 ? "" : "s", 100 * u->widening);
    if (u->unexamined > 0)
        fprintf(stderr, "dlsched: %zu interval%s not examined (%s)\n", u->unexamined,
                u->unexamined == 1 ? "" : "s",
                u->stop == DLS_BENCH_CONVERGED ? "narrower than the resolution"
                                               : dls_bench_stop_name(u->stop));
    if (par->validate > 0)
        fprintf(stderr, "dlsched: held out: %zu of %zu size%s within %.3g%% or the band "
                "(largest error %.3g%%)%s\n", u->within, u->held_out,
                u->held_out == 1 ? "" : "s", 100 * par->accuracy, 100 * u->held_out_error,
                u->held_out < par->validate ? "; the budget left no time for the others" : "");
    if (job->overhead > 0)
        fprintf(stderr, "dlsched: each run of the command included a start-up of %.3g ms "
                "(sh -c), subtracted from its time%s\n", 1e3 * job->overhead,
                job->dominated > 0 ? "; some runs took less than twice as long, so their "
                "times are mostly start-up: give the command more work per run" : "");
}

/* The report of a 1-D build, and its summary on stderr. */
static void describe_build(const bench_job *job, const dls_bench *b, const dls_bench_params *par,
                           outcome *res)
{
    size_t np, nc;
    const dls_bench_point *pts = dls_bench_points(b, &np);
    const dls_bench_check *checks = dls_bench_held_out(b, &nc);
    dls_bench_summary u;
    dls_bench_get_summary(b, &u);
    json_object_set_new(res->report, "points", points_json(pts, np));
    json_object_set_new(res->report, "kept", json_integer((json_int_t)dls_model_count(res->model)));
    json_object_set_new(res->report, "stop", tool_json_text(dls_bench_stop_name(dls_bench_stopped(b))));
    json_object_set_new(res->report, "elapsed", tool_json_number(dls_bench_elapsed(b)));
    json_object_set_new(res->report, "summary", summary_json(&u, par->accuracy));
    json_object_set_new(res->report, "held_out", checks_json(checks, nc));
    if (job->overhead > 0)
        json_object_set_new(res->report, "exec_overhead", tool_json_number(job->overhead));
    if (dls_bench_budget_top(b) > 0)
        json_object_set_new(res->report, "budget_top", tool_json_number(dls_bench_budget_top(b)));
    if (!job->req->json)
        print_summary(&u, par, job);
    else if (u.top_by_budget)
        tool_warning("the time budget afforded sizes up to %.6g; from there to the limit %.6g "
                     "the model keeps the last speed measured", u.largest, u.limit);
}

/* The account, appended to the log after the points (--resume skips it). */
static void log_summary(monitor *m, const dls_bench *b, const dls_bench_params *par)
{
    if (m->log == NULL)
        return;
    dls_bench_summary u;
    dls_bench_get_summary(b, &u);
    size_t nc;
    const dls_bench_check *c = dls_bench_held_out(b, &nc);
    json_t *o = json_pack("{s:o,s:o}", "summary", summary_json(&u, par->accuracy), "held_out",
                          checks_json(c, nc));
    char *text = o ? tool_json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (text == NULL || fprintf(m->log, "%s\n", text) < 0 || fflush(m->log) != 0)
        tool_warning("%s: cannot append the summary to the log: %s", m->logpath,
                     strerror(errno));
    free(text);
}

/* A 1-D speed function. */
static dls_status measure_function(const bench_job *job, monitor *m, const dls_bench_params *par,
                                   outcome *res, dls_error *err)
{
    dls_kernel k;
    dls_status st = make_kernel(job, job->blas.fixed, &k, err);
    if (st != DLS_OK)
        return st;
    dls_bench *b = NULL;
    st = dls_bench_build(&k, par, &b, err);
    free_kernel(job, &k);
    progress_done(m);
    if (st == DLS_OK)
        st = dls_model_copy(dls_bench_model(b), &res->model, err);
    if (st == DLS_OK) {
        res->limit = dls_bench_limit(b);
        describe_build(job, b, par, res);
        log_summary(m, b, par);
    }
    dls_bench_free(b);
    return st;
}

/* A 2-D speed function over the --surface values; the resumed points carry their rows. */
static dls_status measure_surface(const bench_job *job, monitor *m, const dls_bench_params *par,
                                  const log_points *old, outcome *res, dls_error *err)
{
    dls_bench_surface_params sp;
    dls_bench_surface_params_init(&sp);
    sp.bench = *par;
    sp.resume_fixed = old->fixed;
    sp.on_row = on_row;
    sp.on_row_data = m;
    dls_kernel_family family = {family_create, family_release, (void *)job};
    dls_status st = dls_bench_build_surface(&family, job->surface, job->nsurface, &sp, &res->model, err);
    progress_done(m);
    if (st == DLS_OK)
        json_object_set_new(res->report, "surface", json_true());
    res->limit = INFINITY; /* a 2-D model has no single largest size */
    return st;
}

/* Writes the processor to -o (a new platform) or --merge (added or replaced); without
 * either, to standard output, or into *in_report (the JSON report's "platform") when it is
 * not NULL. */
static int write_platform(const bench_job *job, const dls_model *model, double limit,
                          json_t **in_report)
{
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl = NULL;
    dls_status st;
    if (job->merge) {
        st = dls_platform_read_file(job->merge, &pl, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
    } else {
        st = dls_platform_create(&pl, &err);
        if (st != DLS_OK)
            return tool_fail(st, &err);
    }
    size_t index;
    if (dls_platform_find(pl, job->name, &index)) {
        st = dls_platform_set_model(pl, index, model, &err);
    } else {
        st = dls_platform_add(pl, job->name, model, &index, &err);
    }
    if (st == DLS_OK && isfinite(limit))
        st = dls_platform_set_limit(pl, index, limit, &err);
    if (st == DLS_OK && !job->merge && (job->out == NULL || tool_is_stdout(job->out))) {
        char *doc = NULL;
        st = dls_platform_to_string(pl, &doc, &err);
        dls_platform_free(pl);
        if (st != DLS_OK)
            return tool_fail(st, &err);
        if (in_report != NULL) {
            *in_report = json_loads(doc, 0, NULL);
            dls_free(doc);
            return *in_report != NULL ? EXIT_DONE : (tool_oom(NULL), EXIT_FAILURE_RUN);
        }
        return tool_write_stdout(doc, "platform");
    }
    if (st == DLS_OK)
        st = dls_platform_write_file(pl, job->merge ? job->merge : job->out, &err);
    dls_platform_free(pl);
    if (st != DLS_OK)
        return tool_fail_output(job->merge ? "--merge" : "-o", job->merge ? job->merge : job->out,
                                st, &err);
    return EXIT_DONE;
}

/* After the measurement: the interruption, the failure, or the platform file and the JSON
 * report. */
static int finish(const bench_job *job, dls_status st, const dls_error *err, outcome *res)
{
    if (st == DLS_ECANCELED && tool_interrupted) {
        tool_error("interrupted: the points measured so far are in %s; run the same command "
                   "with --resume to continue", job->logpath);
        return EXIT_INTERRUPTED;
    }
    if (st != DLS_OK)
        return tool_fail(st, err);
    /* without -o or --merge the platform goes to standard output (into the JSON report
     * with --json), and where it went is said: it is never kept only in the log */
    int json = job->req->json, to_stdout = !job->out && !job->merge;
    json_t *platform = NULL;
    int rc = write_platform(job, res->model, res->limit, to_stdout && json ? &platform : NULL);
    if (rc == EXIT_DONE && to_stdout)
        tool_note("the platform went to standard output%s; -o FILE writes it to a file, "
                  "--merge FILE into a platform (the points are also in the log %s)",
                  json ? ", in the JSON report's \"platform\"" : "", job->logpath);
    if (rc == EXIT_DONE && json) {
        json_object_set_new(res->report, "name", tool_json_text(job->name));
        json_object_set_new(res->report, "limit", tool_json_number(res->limit));
        json_object_set_new(res->report, "log", tool_json_text(job->logpath));
        if (platform != NULL)
            json_object_set_new(res->report, "platform", platform);
        rc = tool_print_json(res->report);
        res->report = NULL;
    } else {
        json_decref(platform);
    }
    return rc;
}

/* Set by main() in a program built with MPI. */
int (*tool_bench_mpi)(const tool_mpi_bench *job) = NULL;

/* --mpi: the combinations of options it refuses; EXIT_DONE when none. links_into: --links
 * --no-compute --merge, the links measured into a platform file written before (by bench
 * --mpi on the same ranks); else the ranks' processors are new. */
static int refuse_mpi_options(const bench_request *r, int links_into)
{
    if (!r->links && (GIVEN(r, GIVEN_BYTES_PER_UNIT) || GIVEN(r, GIVEN_LINK_MAX_BYTES))) {
        tool_error("bench: --bytes-per-unit and --link-max-bytes apply to --mpi --links");
        return EXIT_BADINPUT;
    }
    static const bench_given single[] = {GIVEN_MERGE, GIVEN_SURFACE, GIVEN_NAME};
    for (size_t i = 0; i < sizeof single / sizeof single[0]; i++)
        if (GIVEN(r, single[i]) && !(i == 0 && links_into)) {
            tool_error("bench: --mpi names and writes every rank's processor: --%s does not "
                       "apply", given_option[single[i]]);
            return EXIT_BADINPUT;
        }
    if (r->no_compute && !r->links) {
        tool_error("bench: --no-compute applies to --links");
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* --mpi --links: a unit of load in bytes, what a processor is sent for one unit of work
 * (with --no-compute, of the kernel named, when one is); NAN after a message when unknown. */
static double link_bytes_per_unit(const bench_job *job)
{
    const bench_request *r = job->req;
    int named = !r->no_compute || GIVEN(r, GIVEN_KERNEL);
    double bpu = NAN;
    if (named && job->kind == KERNEL_GEMM)
        bpu = 8 * job->blas.fixed;
    else if (named && job->kind == KERNEL_LU)
        bpu = 8 * job->blas.fixed * (double)job->blas.block * job->blas.block;
    if (GIVEN(r, GIVEN_BYTES_PER_UNIT))
        bpu = r->bytes_per_unit;
    if (isnan(bpu))
        tool_error("bench: --links needs --bytes-per-unit %s (how many bytes a processor "
                   "is sent for one unit of its work)",
                   named ? "for this kernel" : "or the --kernel the platform was measured with");
    return bpu;
}

/* --mpi: every rank of the MPI job measures (tool/cmd_bench_mpi.c). */
static int bench_mpi(const bench_job *job)
{
    const bench_request *r = job->req;
    if (tool_bench_mpi == NULL) {
        tool_error("bench: --mpi: this dlsched was built without MPI (%s)", DLS_MPI_WHY);
        return EXIT_BADINPUT;
    }
    int links_into = r->links && r->no_compute && GIVEN(r, GIVEN_MERGE);
    if (refuse_mpi_options(r, links_into) != EXIT_DONE)
        return EXIT_BADINPUT;
    tool_mpi_bench mj = {NULL, NULL, job->logpath, r->resume, job->out, r->json, r->links,
                         r->no_compute, NAN, r->link_max_bytes, links_into ? r->merge : NULL};
    if (mj.links && (!mj.no_compute || mj.merge != NULL)) {
        mj.bytes_per_unit = link_bytes_per_unit(job);
        if (isnan(mj.bytes_per_unit))
            return EXIT_BADINPUT;
    }
    monitor m = {isatty(2) && !r->quiet, 0, "", NULL, job->logpath, NAN};
    dls_bench_params par;
    bench_params(job, &m, &par);
    par.on_point = NULL; /* the MPI layer keeps each rank's log */
    par.on_point_data = NULL;
    dls_kernel k;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = make_kernel(job, job->blas.fixed, &k, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    mj.kernel = &k;
    mj.bench = &par;
    struct sigaction old_sa;
    tool_catch_sigint(&old_sa);
    int rc = tool_bench_mpi(&mj);
    tool_release_sigint(&old_sa);
    progress_done(&m);
    free_kernel(job, &k);
    return rc;
}

int cmd_bench(const tool_args *a)
{
    bench_request r;
    bench_request_read(a, &r);
    if (!r.mpi) {
        static const bench_given mpi_only[] = {GIVEN_LINKS, GIVEN_NO_COMPUTE,
                                               GIVEN_BYTES_PER_UNIT, GIVEN_LINK_MAX_BYTES};
        for (size_t i = 0; i < sizeof mpi_only / sizeof mpi_only[0]; i++)
            if (GIVEN(&r, mpi_only[i])) {
                tool_error("bench: --%s applies to --mpi (the links from rank 0 to the other "
                           "ranks)", given_option[mpi_only[i]]);
                return EXIT_BADINPUT;
            }
    }
    bench_job job;
    int rc = parse_job(&r, &job);
    if (rc == EXIT_DONE && r.mpi) {
        rc = bench_mpi(&job);
        job_free(&job);
        return rc;
    }
    monitor m = {isatty(2) && !r.quiet, 0, "", NULL, job.logpath, NAN};
    log_points old = {NULL, NULL, 0, 0, 0};
    if (rc == EXIT_DONE)
        rc = open_log(&job, &m, &old);
    outcome res = {NULL, INFINITY, json_object()};
    if (rc == EXIT_DONE && res.report == NULL) {
        tool_oom(NULL);
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_DONE) {
        dls_bench_params par;
        bench_params(&job, &m, &par);
        par.resume = old.points;
        par.resume_count = old.n;
        struct sigaction old_sa;
        tool_catch_sigint(&old_sa);
        dls_error err;
        dls_error_clear(&err);
        dls_status st = job.surface ? measure_surface(&job, &m, &par, &old, &res, &err)
                                    : measure_function(&job, &m, &par, &res, &err);
        tool_release_sigint(&old_sa);
        fclose(m.log);
        m.log = NULL;
        rc = finish(&job, st, &err, &res);
    }
    if (m.log != NULL)
        fclose(m.log);
    json_decref(res.report);
    dls_model_free(res.model);
    free(old.points);
    free(old.fixed);
    job_free(&job);
    return rc;
}
