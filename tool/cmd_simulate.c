/* dlsched simulate: a schedule replayed in SimGrid. The platform is written as a SimGrid
 * platform (dlsched/simgrid.h), the schedule as the replay's plan (the sends in order, the
 * bytes and the work of each), and dlsched-simgrid (simgrid/replay.cc) runs it in a process
 * of its own: SimGrid's engine starts once per process. Each processor's predicted and
 * simulated arrival and finish are printed, with the makespans. */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dlsched/simgrid.h>
#include <dlsched/verify.h>

#include "tool.h"

extern char **environ;

/* exact: every send and computation of the replay must agree with dlsched's model to this
 * (relative to the makespan) */
#define SIMULATE_EXACT_TOL 1e-9
/* exact: SimGrid's own precision (surf/precision, 1e-9 by default: the comparisons of its
 * solver, not a rounding of the times) */
#define SIMULATE_SURF_PRECISION "1e-15"
/* exact: the bytes of the largest load, a power of two near it; the smaller loads keep 2^50
 * / their share bytes at least, so that a whole number of bytes costs them no more than a
 * relative 2^-50 */
#define SIMULATE_EXACT_BYTES 0x1p50
/* Chunks of a multi-installment schedule the replay takes at most. */
#define SIMULATE_MAX_CHUNKS 100000u
/* Seconds the replay may take by default. */
#define SIMULATE_DEFAULT_TIME_LIMIT 600.0
#define SIMULATE_PATH_MAX 4096

static const tool_opt simulate_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "the load to distribute (default: the file's, else the sum of the loads)"},
    TOOL_GROUP("Simulation"),
    {"network", OPT_CHOICE, NULL, "exact", 0, 0, "exact|realistic",
     "exact: links of startup + rate x (SimGrid's CM02 model, every factor 1); realistic: "
     "SimGrid's TCP model"},
    {"bytes-per-unit", OPT_DOUBLE, "B", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "bytes one unit of load is (needed by --network realistic)"},
    {"flops-per-unit", OPT_DOUBLE, "F", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "flops one unit of work is"},
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, 1e9, NULL, "seconds the replay may take"},
    TOOL_GROUP("Output"),
    TOOL_STRING("gantt", "FILE", "draw the prediction above the simulation (SVG)"),
    TOOL_FLAG("json", "write the comparison as JSON"),
    TOOL_OPT_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int simulate_default(const char *opt, char *buf, size_t size)
{
    dls_simgrid_params sp;
    dls_simgrid_params_init(&sp);
    if (strcmp(opt, "flops-per-unit") == 0)
        return tool_show_number(sp.flops_per_unit, buf, size);
    return 0;
}

static const tool_rule simulate_rules[] = {
    TOOL_NEEDS_WHY("bytes-per-unit", "network=realistic",
                   "--network exact scales the bytes itself, so that no rounding shows"),
    TOOL_RULE_END,
};

const tool_cmd tool_cmd_simulate = {
    "simulate",
    "replay a schedule in SimGrid, compared with the prediction",
    "PLATFORM SCHEDULE [OPTIONS]",
    "SCHEDULE (- for standard input) is the JSON of dlsched schedule, evaluate or\n"
    "installments, or a CSV table name,load in send order. The originator sends in the\n"
    "schedule's order and each processor computes its data under its true model, in\n"
    "SimGrid. --network exact must agree with dlsched's model to 1e-9 of the makespan;\n"
    "--network realistic uses SimGrid's TCP model with real bytes, to show what a plan\n"
    "made with affine links loses. Exits 0 (1 when an exact replay disagrees), 2 on bad\n"
    "input or without SimGrid.",
    simulate_opts,
    2,
    2,
    cmd_simulate,
    simulate_default,
    "dlsched schedule examples/star_cluster.json --load 1000 --json > s.json\n"
    "dlsched simulate examples/star_cluster.json s.json\n"
    "dlsched simulate examples/star_cluster.json s.json --network realistic \\\n"
    "    --bytes-per-unit 8",
    simulate_rules,
};

#ifndef HAVE_SIMGRID
int cmd_simulate(const tool_args *a)
{
    (void)a;
    tool_error("simulate: this dlsched was built without SimGrid (%s)", DLS_SIMGRID_WHY);
    return EXIT_BADINPUT;
}
#else

/* One send of the plan: a processor's load (or one chunk of it), predicted, simulated. */
typedef struct send_rec {
    size_t proc;
    double size, bytes, flops;
    double p_start, p_end, p_compute, p_finish; /* predicted */
    double s_start, s_end, s_compute, s_finish; /* simulated */
} send_rec;

typedef struct run {
    send_rec *s;
    size_t n;
    double p_makespan, s_makespan;
} run;

/* Whether dir/rel names an executable: path gets it (when it fits). */
static int try_replay(const char *dir, const char *rel, char *path, size_t size)
{
    int n = snprintf(path, size, "%s/%s", dir, rel);
    return n > 0 && (size_t)n < size && access(path, X_OK) == 0;
}

/* The replay program: DLSCHED_SIMGRID, else beside this program, else where the build tree
 * puts it when this program runs from its own build tree (tool/dlsched, whose libtool
 * wrapper runs tool/.libs/dlsched or tool/.libs/lt-dlsched: simgrid/dlsched-simgrid), else
 * where it is installed. */
static int find_replay(char *path, size_t size)
{
    const char *env = getenv("DLSCHED_SIMGRID");
    if (env != NULL && *env != '\0') {
        snprintf(path, size, "%s", env);
        return access(path, X_OK) == 0 ? 0 : -1;
    }
    char self[SIMULATE_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    char *slash = n > 0 ? (self[n] = '\0', strrchr(self, '/')) : NULL;
    if (slash != NULL) {
        *slash = '\0'; /* the program's directory */
        if (try_replay(self, "dlsched-simgrid", path, size))
            return 0;
        const char *base = strrchr(self, '/') ? strrchr(self, '/') + 1 : self;
        if (strcmp(base, ".libs") == 0 && try_replay(self, "../../simgrid/dlsched-simgrid",
                                                     path, size))
            return 0;
        if (strcmp(base, "tool") == 0 && try_replay(self, "../simgrid/dlsched-simgrid", path,
                                                    size))
            return 0;
    }
    snprintf(path, size, "%s/dlsched-simgrid", DLS_BINDIR);
    return access(path, X_OK) == 0 ? 0 : -1;
}

/* A host name as one token of the plan: spaces, '%' and control bytes as %XX. */
static void plan_name(FILE *f, const char *name)
{
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p <= ' ' || *p == '%' || *p == 0x7f)
            fprintf(f, "%%%02X", *p);
        else
            fputc(*p, f);
    }
}

/* The sends of a single-installment schedule: the claim's loads in its order, predicted by
 * dlsched's model (dls_schedule_evaluate in that order). */
static int single_plan(const dls_platform *pl, const dls_claim *c, run *r)
{
    size_t p = dls_platform_count(pl), m;
    const size_t *order = dls_claim_order(c, &m);
    double *loads = malloc(p * sizeof *loads);
    size_t *seq = malloc(p * sizeof *seq);
    unsigned char *in = calloc(p, 1);
    r->s = calloc(p, sizeof *r->s);
    if (loads == NULL || seq == NULL || in == NULL || r->s == NULL) {
        free(loads);
        free(seq);
        free(in);
        tool_oom("simulate");
        return EXIT_FAILURE_RUN;
    }
    /* the claim's order, then the others in platform order */
    size_t k = 0;
    for (size_t j = 0; j < m; j++)
        if (!in[order[j]]) {
            in[order[j]] = 1;
            seq[k++] = order[j];
        }
    for (size_t i = 0; i < p; i++)
        if (!in[i])
            seq[k++] = i;
    for (size_t i = 0; i < p; i++)
        dls_claim_get(c, i, &loads[i], NULL, NULL, NULL, NULL);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = DLS_ORDER_SEQUENCE;
    sp.sequence = seq;
    sp.sequence_count = p;
    sp.use_limits = 0; /* what the schedule does, over a limit or not */
    dls_schedule *s = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_schedule_evaluate(pl, loads, &sp, &s, &err);
    int rc = EXIT_DONE;
    if (st != DLS_OK) {
        rc = tool_fail(st, &err);
    } else {
        const double *ss = dls_schedule_send_start(s), *se = dls_schedule_send_end(s);
        const double *ct = dls_schedule_compute_time(s), *fi = dls_schedule_finish(s);
        for (size_t j = 0; j < p; j++) {
            size_t i = seq[j];
            if (!(loads[i] > 0))
                continue;
            send_rec *x = &r->s[r->n++];
            x->proc = i;
            x->size = loads[i];
            x->p_start = ss[i];
            x->p_end = se[i];
            x->p_compute = fi[i] - ct[i];
            x->p_finish = fi[i];
            x->flops = ct[i]; /* times the host's speed below */
        }
        r->p_makespan = dls_schedule_makespan(s);
    }
    dls_schedule_free(s);
    free(loads);
    free(seq);
    free(in);
    return rc;
}

/* The sends of a multi-installment schedule: its chunks round after round, as
 * dls_installment_simulate() has them. */
static int installment_plan(const dls_platform *pl, const dls_claim *c, double V, run *r)
{
    double chunk = dls_claim_chunk(c);
    dls_installment_params ip;
    dls_installment_params_init(&ip);
    dls_installment *in = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_installment_simulate(pl, V, chunk, &ip, &in, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    uint64_t N = dls_installment_chunks(in);
    if (N > SIMULATE_MAX_CHUNKS) {
        tool_error("simulate: %llu chunks, more than the %u a replay takes: use a larger "
                   "chunk", (unsigned long long)N, SIMULATE_MAX_CHUNKS);
        dls_installment_free(in);
        return EXIT_BADINPUT;
    }
    r->s = calloc((size_t)N, sizeof *r->s);
    if (r->s == NULL) {
        dls_installment_free(in);
        tool_oom("simulate");
        return EXIT_FAILURE_RUN;
    }
    for (uint64_t k = 0; k < N; k++) {
        dls_installment_event ev;
        dls_installment_event_at(in, k, &ev, NULL);
        send_rec *x = &r->s[r->n++];
        x->proc = ev.processor;
        x->size = ev.size;
        x->p_start = ev.send_start;
        x->p_end = ev.send_end;
        x->p_compute = ev.compute_start;
        x->p_finish = ev.compute_end;
        x->flops = ev.compute_end - ev.compute_start;
    }
    r->p_makespan = dls_installment_makespan(in);
    dls_installment_free(in);
    return EXIT_DONE;
}

/* Runs the replay: argv, its output into out, its messages into errf. */
static int spawn_replay(char *const argv[], const char *out, const char *errf, double limit,
                        char *why, size_t size)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int e = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0) {
        snprintf(why, size, "cannot start %s: %s", argv[0], strerror(e));
        return -1;
    }
    double start = tool_now();
    int status;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            snprintf(why, size, "lost the replay: %s", strerror(errno));
            return -1;
        }
        if (tool_now() - start > limit) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            snprintf(why, size, "the replay took more than %g s (--time-limit)", limit);
            return -1;
        }
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    }
    if (WIFSIGNALED(status)) {
        snprintf(why, size, "SimGrid's replay ended with signal %d", WTERMSIG(status));
        return -1;
    }
    if (WEXITSTATUS(status) != 0) {
        snprintf(why, size, "SimGrid's replay failed (exit %d)", WEXITSTATUS(status));
        return -1;
    }
    return 0;
}

/* The last lines of the replay's messages, for a failure's report. */
static void show_messages(const char *errf)
{
    FILE *f = fopen(errf, "r");
    if (f == NULL)
        return;
    char line[1024];
    int shown = 0;
    while (fgets(line, sizeof line, f) != NULL && shown < 20) {
        if (strncmp(line, "  ->", 4) == 0)
            continue; /* SimGrid's backtraces */
        fprintf(stderr, "  %s", line);
        shown++;
    }
    fclose(f);
}

/* Reads the replay's output back into r. */
static int read_replay(const char *out, run *r)
{
    FILE *f = fopen(out, "r");
    if (f == NULL) {
        tool_error("simulate: %s: %s", out, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    char host[8192];
    size_t k = 0;
    int ok = 1;
    while (ok && k < r->n) {
        send_rec *x = &r->s[k];
        ok = fscanf(f, "%8191s %lf %lf %lf %lf", host, &x->s_start, &x->s_end, &x->s_compute,
                    &x->s_finish) == 5;
        k++;
    }
    ok = ok && fscanf(f, " makespan %lf", &r->s_makespan) == 1;
    fclose(f);
    if (!ok) {
        tool_error("simulate: the replay's output is not what dlsched-simgrid writes");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_DONE;
}

/* The largest difference between prediction and simulation, relative to the makespan. */
static double largest_difference(const run *r)
{
    double d = fabs(r->s_makespan - r->p_makespan);
    for (size_t k = 0; k < r->n; k++) {
        const send_rec *x = &r->s[k];
        d = fmax(d, fabs(x->s_start - x->p_start));
        d = fmax(d, fabs(x->s_end - x->p_end));
        d = fmax(d, fabs(x->s_compute - x->p_compute));
        d = fmax(d, fabs(x->s_finish - x->p_finish));
    }
    return r->p_makespan > 0 ? d / r->p_makespan : d;
}

static int report_text(const dls_platform *pl, const run *r, int exact, double diff)
{
    printf("%zu send%s replayed in SimGrid (%s network)\n", r->n, r->n == 1 ? "" : "s",
           exact ? "exact" : "realistic");
    printf("  %-16s %14s %14s %14s %14s\n", "NAME", "ARRIVAL", "SIMULATED", "FINISH",
           "SIMULATED");
    for (size_t k = 0; k < r->n; k++) {
        const send_rec *x = &r->s[k];
        printf("  %-16s %14.9g %14.9g %14.9g %14.9g\n", dls_platform_name(pl, x->proc),
               x->p_end, x->s_end, x->p_finish, x->s_finish);
    }
    printf("makespan: predicted %.12g s, simulated %.12g s (%+.3g%%)\n", r->p_makespan,
           r->s_makespan, 100 * (r->s_makespan - r->p_makespan) / r->p_makespan);
    printf("largest difference: %.3g of the makespan%s\n", diff,
           exact ? (diff <= SIMULATE_EXACT_TOL ? " (agrees within 1e-9)" : " (DISAGREES beyond 1e-9)")
                 : "");
    return EXIT_DONE;
}

static int report_json(const dls_platform *pl, const run *r, int exact, double diff)
{
    json_t *list = json_array();
    for (size_t k = 0; k < r->n; k++) {
        const send_rec *x = &r->s[k];
        json_array_append_new(
            list, json_pack("{s:o,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "processor",
                            tool_json_text(dls_platform_name(pl, x->proc)), "load", x->size,
                            "send_start", x->p_start, "send_end", x->p_end, "compute_start",
                            x->p_compute, "finish", x->p_finish, "simulated_send_start",
                            x->s_start, "simulated_send_end", x->s_end,
                            "simulated_compute_start", x->s_compute, "simulated_finish",
                            x->s_finish));
    }
    json_t *root = json_pack("{s:s,s:o,s:f,s:f,s:f,s:b}", "network", exact ? "exact" : "realistic",
                             "sends", list, "makespan", r->p_makespan, "simulated_makespan",
                             r->s_makespan, "largest_difference", diff, "agree",
                             !exact || diff <= SIMULATE_EXACT_TOL);
    return tool_print_json(root);
}

/* The simulated timeline as a measured schedule, drawn below the prediction. */
static int draw(const dls_platform *pl, const run *r, const char *path)
{
    size_t p = dls_platform_count(pl);
    double *a = calloc(4 * p, sizeof *a);
    if (a == NULL) {
        tool_oom("simulate");
        return EXIT_FAILURE_RUN;
    }
    double *loads = a, *s0 = a + p, *s1 = a + 2 * p, *fi = a + 3 * p;
    double *pl_loads = malloc(p * sizeof *pl_loads);
    size_t *seq = malloc(p * sizeof *seq);
    int rc = EXIT_DONE;
    if (pl_loads == NULL || seq == NULL) {
        tool_oom("simulate");
        rc = EXIT_FAILURE_RUN;
    }
    for (size_t i = 0; rc == EXIT_DONE && i < p; i++)
        s0[i] = s1[i] = fi[i] = NAN;
    /* a processor's first send starts its lane, its last finish ends it */
    for (size_t k = 0; rc == EXIT_DONE && k < r->n; k++) {
        const send_rec *x = &r->s[k];
        if (!(loads[x->proc] > 0))
            s0[x->proc] = x->s_start;
        loads[x->proc] += x->size;
        s1[x->proc] = x->s_end;
        fi[x->proc] = x->s_finish;
    }
    dls_schedule *meas = NULL, *pred = NULL;
    dls_error err;
    dls_error_clear(&err);
    if (rc == EXIT_DONE) {
        dls_status st = dls_schedule_measured(pl, loads, s0, s1, fi, &meas, &err);
        /* the prediction: the same loads in the same order under dlsched's model */
        size_t k = 0;
        unsigned char *in = calloc(p, 1);
        for (size_t j = 0; in != NULL && j < r->n; j++)
            if (!in[r->s[j].proc]) {
                in[r->s[j].proc] = 1;
                seq[k++] = r->s[j].proc;
            }
        for (size_t i = 0; in != NULL && i < p; i++)
            if (!in[i])
                seq[k++] = i;
        free(in);
        dls_schedule_params sp;
        dls_schedule_params_init(&sp);
        sp.order = DLS_ORDER_SEQUENCE;
        sp.sequence = seq;
        sp.sequence_count = p;
        sp.use_limits = 0;
        if (st == DLS_OK)
            st = dls_schedule_evaluate(pl, loads, &sp, &pred, &err);
        if (st == DLS_OK)
            st = dls_schedule_gantt_compare_write_file(pred, meas, pl, path, &err);
        if (st != DLS_OK)
            rc = tool_fail_output("--gantt", path, st, &err);
    }
    dls_schedule_free(meas);
    dls_schedule_free(pred);
    free(pl_loads);
    free(seq);
    free(a);
    return rc;
}

static void remove_dir(const char *dir, const char *const names[], size_t n)
{
    char path[SIMULATE_PATH_MAX];
    for (size_t k = 0; k < n; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[k]);
        unlink(path);
    }
    rmdir(dir);
}

/* Writes the platform and the plan into dir, runs the replay, reads it back. */
static int replay(const dls_platform *pl, run *r, int exact, const dls_simgrid_params *sp,
                  double limit, const char *dir)
{
    char xml[SIMULATE_PATH_MAX], plan[SIMULATE_PATH_MAX], out[SIMULATE_PATH_MAX];
    char errf[SIMULATE_PATH_MAX], exe[SIMULATE_PATH_MAX], origin[256];
    snprintf(xml, sizeof xml, "%s/platform.xml", dir);
    snprintf(plan, sizeof plan, "%s/plan", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(errf, sizeof errf, "%s/messages", dir);
    if (find_replay(exe, sizeof exe) != 0) {
        tool_error("simulate: dlsched-simgrid (the replay) is not found beside dlsched, in "
                   "the build tree it runs from (simgrid/), nor in %s (configure builds it "
                   "where it finds SimGrid); set DLSCHED_SIMGRID to its path", DLS_BINDIR);
        return EXIT_BADINPUT;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_platform_simgrid_write_file(pl, sp, xml, &err);
    if (st == DLS_OK)
        st = dls_simgrid_originator(pl, sp, origin, sizeof origin, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    FILE *f = fopen(plan, "w");
    if (f == NULL) {
        tool_error("simulate: %s: %s", plan, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    fprintf(f, "dlsched-simgrid-plan 1\noriginator ");
    plan_name(f, origin);
    fputc('\n', f);
    for (size_t k = 0; k < r->n; k++) {
        send_rec *x = &r->s[k];
        double speed = dls_simgrid_host_speed(pl, x->proc, sp);
        /* at least a byte: SimGrid completes an empty message at once, without its latency */
        x->bytes = fmax(1, nearbyint(x->size * sp->bytes_per_unit));
        x->flops *= speed; /* the true time, in the host's flops */
        fprintf(f, "send ");
        plan_name(f, dls_platform_name(pl, x->proc));
        fprintf(f, " %.0f %.17g\n", x->bytes, x->flops);
    }
    if (fclose(f) != 0) {
        tool_error("simulate: %s: %s", plan, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    char *argv[16];
    int argc = 0;
    argv[argc++] = exe;
    argv[argc++] = xml;
    argv[argc++] = plan;
    if (exact) {
        argv[argc++] = "--cfg=network/model:CM02";
        argv[argc++] = "--cfg=network/latency-factor:1";
        argv[argc++] = "--cfg=network/bandwidth-factor:1";
        argv[argc++] = "--cfg=network/crosstraffic:0";
        argv[argc++] = "--cfg=network/TCP-gamma:0";
        argv[argc++] = "--cfg=surf/precision:" SIMULATE_SURF_PRECISION;
    }
    argv[argc++] = "--log=root.thres:critical";
    argv[argc] = NULL;
    char why[512];
    if (spawn_replay(argv, out, errf, limit, why, sizeof why) != 0) {
        tool_error("simulate: %s", why);
        show_messages(errf);
        return EXIT_FAILURE_RUN;
    }
    return read_replay(out, r);
}

/* What the command line asks, read once (simulate_request_read); the phases below take it,
 * never the option table. */
typedef struct simulate_request {
    const char *platform;  /* the PLATFORM argument */
    const char *claim;     /* the SCHEDULE argument ("-": standard input) */
    int exact;             /* --network exact */
    dls_simgrid_params sp; /* --bytes-per-unit, --flops-per-unit */
    double limit;          /* --time-limit */
    int has_load;          /* --load given (else the claim's) */
    double load;
    int json;
    const char *gantt;     /* --gantt FILE, or NULL */
} simulate_request;

/* Reads the options into *q: EXIT_DONE, or EXIT_BADINPUT after a message. */
static int simulate_request_read(const tool_args *a, simulate_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = a->pos[0];
    q->claim = a->pos[1];
    q->exact = strcmp(arg_string(a, "network"), "exact") == 0;
    dls_simgrid_params_init(&q->sp);
    if (!q->exact && !arg_given(a, "bytes-per-unit")) {
        tool_error("simulate: --network realistic needs --bytes-per-unit B: SimGrid's TCP "
                   "model depends on the real message sizes, not on units");
        return EXIT_BADINPUT;
    }
    arg_double(a, "bytes-per-unit", &q->sp.bytes_per_unit);
    arg_double(a, "flops-per-unit", &q->sp.flops_per_unit);
    q->limit = SIMULATE_DEFAULT_TIME_LIMIT;
    arg_double(a, "time-limit", &q->limit);
    q->has_load = arg_double(a, "load", &q->load);
    q->json = arg_flag(a, "json");
    q->gantt = arg_string(a, "gantt");
    return EXIT_DONE;
}

/* A schedule that does not fit its platform is refused before any simulation: EXIT_DONE
 * with the claim's load in *V, or the exit status after a message. */
static int check_claim(const simulate_request *q, const dls_platform *pl, const dls_claim *c,
                       double *V)
{
    dls_claim_kind kind = dls_claim_get_kind(c);
    if (kind != DLS_CLAIM_SCHEDULE && kind != DLS_CLAIM_INSTALLMENTS) {
        tool_error("simulate: %s is a %s: simulate replays star schedules (schedule, evaluate "
                   "or installments)", q->claim, dls_claim_kind_name(kind));
        return EXIT_BADINPUT;
    }
    dls_verify_params vp;
    dls_verify_params_init(&vp);
    vp.optimum = 0;
    vp.use_limits = 0;
    if (q->has_load)
        vp.load = q->load;
    dls_error err;
    dls_error_clear(&err);
    dls_verification *v = NULL;
    dls_status st = kind == DLS_CLAIM_SCHEDULE ? dls_schedule_verify(pl, c, &vp, &v, &err)
                                               : dls_installment_verify(pl, c, &vp, &v, &err);
    int rc = st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
    for (size_t k = 0; rc == EXIT_DONE && k < dls_verification_count(v); k++) {
        const dls_violation *x = dls_verification_violation(v, k);
        if (x != NULL && (x->kind == DLS_VIOLATION_NEGATIVE_LOAD ||
                          x->kind == DLS_VIOLATION_LOAD_SUM)) {
            tool_error("simulate: %s: %s", q->claim, x->text);
            rc = EXIT_BADINPUT;
        }
    }
    dls_verify_quality quality;
    if (v != NULL)
        dls_verification_get_quality(v, &quality);
    *V = v != NULL ? quality.load : NAN;
    dls_verification_free(v);
    return rc;
}

/* Replays the plan r in SimGrid (in a temporary directory, removed afterwards). */
static int simulate_plan(const simulate_request *q, const dls_platform *pl, run *r)
{
    dls_simgrid_params sp = q->sp;
    if (q->exact) {
        /* the largest load as 2^50 bytes (a power of two: no rounding in the scaling) */
        double most = 0;
        for (size_t k = 0; k < r->n; k++)
            most = fmax(most, r->s[k].size);
        int e;
        frexp(SIMULATE_EXACT_BYTES / (most > 0 ? most : 1), &e);
        sp.bytes_per_unit = ldexp(1.0, e - 1);
    }
    char dir[] = "/tmp/dlsched-simulate-XXXXXX";
    if (mkdtemp(dir) == NULL) {
        tool_error("simulate: cannot make a temporary directory: %s", strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    int rc = replay(pl, r, q->exact, &sp, q->limit, dir);
    static const char *const files[] = {"platform.xml", "plan", "out", "messages"};
    remove_dir(dir, files, sizeof files / sizeof files[0]);
    return rc;
}

/* The comparison, then the chart of --gantt (which cannot hide the answer). */
static int simulate_report(const simulate_request *q, const dls_platform *pl, const run *r)
{
    double diff = largest_difference(r);
    int rc = q->json ? report_json(pl, r, q->exact, diff) : report_text(pl, r, q->exact, diff);
    if (rc == EXIT_DONE && q->exact && !(diff <= SIMULATE_EXACT_TOL))
        rc = EXIT_INFEASIBLE;
    /* after the answer, which a chart that cannot be written does not hide */
    fflush(stdout);
    int g = q->gantt != NULL ? draw(pl, r, q->gantt) : EXIT_DONE;
    return rc != EXIT_DONE ? rc : g;
}

int cmd_simulate(const tool_args *a)
{
    simulate_request q;
    int rc = simulate_request_read(a, &q);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    rc = tool_read_platform(q.platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    dls_claim *c = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = tool_read_claim(pl, q.claim, &c, &err);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return tool_fail(st, &err);
    }
    double V = NAN;
    rc = check_claim(&q, pl, c, &V);
    run r;
    memset(&r, 0, sizeof r);
    if (rc == EXIT_DONE)
        rc = dls_claim_get_kind(c) == DLS_CLAIM_SCHEDULE ? single_plan(pl, c, &r)
                                                         : installment_plan(pl, c, V, &r);
    if (rc == EXIT_DONE)
        rc = simulate_plan(&q, pl, &r);
    if (rc == EXIT_DONE)
        rc = simulate_report(&q, pl, &r);
    free(r.s);
    dls_claim_free(c);
    dls_platform_free(pl);
    return rc;
}
#endif /* HAVE_SIMGRID */
