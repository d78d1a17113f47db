/* dls_mpi_bench: every rank measures its speed function at the same time, with a log of
 * its own to resume from; the platform is assembled alike on every rank. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi_impl.h"

#define FN "dls_mpi_bench"
/* First word and version of a rank's log. */
#define LOG_MAGIC "dlsched-mpi-bench-log"
#define LOG_VERSION 1
/* Longest line of a log (seven numbers in %a, or the header). */
#define LOG_LINE_MAX (MPI_MAX_PROCESSOR_NAME + 256)
/* Sizes are doubled from min_size until the memory formula passes the share, at most this
 * many times, then bisected this many times. */
#define LIMIT_DOUBLINGS 1100
#define LIMIT_BISECTIONS 200

void dls_mpi_bench_params_init(dls_mpi_bench_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    dls_bench_params_init(&params->bench);
    params->memory_limits = 1;
}

/* ---------------------------------------------------------------------------------- */
/* The parameters every rank must share                                               */

/* What is compared between ranks: a name for the message and the value. */
typedef struct field {
    const char *name;
    double value;
} field;

enum { NFIELDS = 22, FIELD_RESUME = 12 };

static void fields_of(const dls_kernel *k, const dls_mpi_bench_params *p, field *f)
{
    const dls_bench_params *b = &p->bench;
    const char *kn = k != NULL && k->name != NULL ? k->name : "";
    field all[NFIELDS] = {
        {"min_size", b->min_size},
        {"max_size", b->max_size},
        {"memory_fraction", b->memory_fraction},
        {"precision", b->precision},
        {"confidence", b->confidence},
        {"min_reps", b->min_reps},
        {"max_reps", b->max_reps},
        {"size_time_cap", b->size_time_cap},
        {"initial_points", (double)b->initial_points},
        {"max_points", (double)b->max_points},
        {"time_budget", b->time_budget},
        {"passes", b->passes},
        {"resume", p->resume},
        {"memory_limits", p->memory_limits},
        {"log (set or NULL)", p->log != NULL},
        /* the hash of the kernel's name, in 52 bits: exact in a double */
        {"kernel name (hash)",
         (double)(dls__mpi_hash(kn, strlen(kn), DLS__MPI_HASH_SEED) >> 12)},
        {"kernel integer_sizes", k != NULL ? k->integer_sizes : 0},
        {"kernel memory formula (set or NULL)", k != NULL && k->memory != NULL},
        {"accuracy", b->accuracy},
        {"resolution", b->resolution},
        {"max_model_points", (double)b->max_model_points},
        {"validate", (double)b->validate},
    };
    memcpy(f, all, sizeof all);
}

/* The same on every rank, from the gathered values: the first field (in rank order) that
 * differs from rank 0's. */
static dls_status compare_fields(const dls__mpi *c, const double *all, const char *hosts,
                                 const field *names, dls_error *err)
{
    for (int r = 1; r < c->size; r++)
        for (int i = 0; i < NFIELDS; i++) {
            double a = all[i], b = all[(size_t)r * NFIELDS + i];
            if (a == b || (isnan(a) && isnan(b)))
                continue;
            return dls__mpi_fail(err, DLS_EINVAL, FN,
                                 "rank %d (%s) has %s = %.17g, rank 0 (%s) has %.17g: every "
                                 "rank must be given the same parameters",
                                 r, hosts + (size_t)r * (MPI_MAX_PROCESSOR_NAME + 1),
                                 names[i].name, b, hosts, a);
        }
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* A rank's log                                                                       */

typedef struct rank_log {
    FILE *f;
    char path[DLS_MPI_PATH_MAX];
    dls_bench_point *old; /* points read back */
    size_t nold;
    /* the caller's callbacks, called after ours */
    int (*on_point)(const dls_bench_point *, void *);
    void *on_point_data;
    dls_bench_run_fn on_run;
    void *on_run_data;
    const dls__mpi *c;
    int aborted;          /* another rank failed: the build was canceled */
    int log_failed;       /* the log could not be appended to */
    int log_errno;
} rank_log;

static void log_header(const dls__mpi *c, unsigned long long params, char *buf, size_t size)
{
    snprintf(buf, size, "%s %d rank=%d host=%s params=%016llx\n", LOG_MAGIC, LOG_VERSION,
             c->rank, c->host, params);
}

static int log_point(const dls_bench_point *pt, void *data)
{
    rank_log *lg = data;
    if (lg->f != NULL) {
        int bad = fprintf(lg->f, "%a %a %a %a %a %a %u\n", pt->size, pt->speed, pt->low,
                          pt->high, pt->time, pt->ci, pt->reps) < 0 ||
                  fflush(lg->f) != 0 || fsync(fileno(lg->f)) != 0;
        if (bad) {
            lg->log_failed = 1;
            lg->log_errno = errno;
            return 1;
        }
    }
    return lg->on_point != NULL ? lg->on_point(pt, lg->on_point_data) : 0;
}

/* Before every run: has another rank failed? (its notice is waiting) */
static int check_abort(const dls_bench_progress *pr, void *data)
{
    rank_log *lg = data;
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, DLS__MPI_TAG_ABORT, lg->c->comm, &flag, MPI_STATUS_IGNORE);
    if (flag) {
        lg->aborted = 1;
        return 1;
    }
    return lg->on_run != NULL ? lg->on_run(pr, lg->on_run_data) : 0;
}

/* Reads the points of a log written by this rank on this host for these parameters. A
 * last line without its newline (the job was killed while writing it) is dropped. */
static dls_status read_log(rank_log *lg, const char *header, dls_error *err)
{
    FILE *f = fopen(lg->path, "r");
    if (f == NULL) {
        if (errno == ENOENT)
            return DLS_OK; /* nothing measured yet */
        return dls__mpi_fail(err, DLS_EIO, FN, "%s: cannot open the log to resume: %s",
                             lg->path, strerror(errno));
    }
    char line[LOG_LINE_MAX];
    dls_status st = DLS_OK;
    size_t cap = 0;
    for (int lineno = 1; st == DLS_OK && fgets(line, sizeof line, f) != NULL; lineno++) {
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n') {
            if (!feof(f))
                st = dls__mpi_fail(err, DLS_EDATA, FN, "%s:%d: line too long", lg->path,
                                   lineno);
            break; /* the unfinished last line */
        }
        if (lineno == 1) {
            if (strcmp(line, header) != 0) {
                line[len - 1] = '\0';
                st = dls__mpi_fail(err, DLS_EDATA, FN,
                                   "%s: this log was written for another measurement (its "
                                   "first line is \"%.160s\"; this one would be \"%.*s\"): "
                                   "remove it, or run without resuming",
                                   lg->path, line, (int)strlen(header) - 1, header);
            }
            continue;
        }
        dls_bench_point p;
        char *s = line, *end;
        double v[6];
        int ok = 1;
        for (int i = 0; i < 6 && ok; i++) {
            v[i] = strtod(s, &end);
            ok = end != s;
            s = end;
        }
        unsigned long reps = ok ? strtoul(s, &end, 10) : 0;
        ok = ok && end != s && (*end == '\n') && isfinite(v[0]) && v[0] > 0 &&
             isfinite(v[1]) && v[1] > 0 && reps >= 1 && reps <= 1000000;
        if (!ok) {
            st = dls__mpi_fail(err, DLS_EDATA, FN, "%s:%d: not a point of the log", lg->path,
                               lineno);
            break;
        }
        memset(&p, 0, sizeof p);
        p.size = v[0];
        p.speed = v[1];
        p.low = v[2];
        p.high = v[3];
        p.time = v[4];
        p.ci = v[5];
        p.reps = (unsigned)reps;
        if (lg->nold == cap) {
            size_t nc = cap ? 2 * cap : 16;
            dls_bench_point *np = realloc(lg->old, nc * sizeof *np);
            if (np == NULL) {
                st = dls__mpi_oom(err, FN);
                break;
            }
            lg->old = np;
            cap = nc;
        }
        lg->old[lg->nold++] = p;
    }
    if (st == DLS_OK && ferror(f))
        st = dls__mpi_fail(err, DLS_EIO, FN, "%s: cannot read the log: %s", lg->path,
                           strerror(errno));
    fclose(f);
    return st;
}

/* Opens the log: read back (resume) and appended to, or started with its header. */
static dls_status open_log(rank_log *lg, const dls_mpi_bench_params *p, unsigned long long h,
                           dls_error *err)
{
    char header[LOG_LINE_MAX];
    log_header(lg->c, h, header, sizeof header);
    int n = snprintf(lg->path, sizeof lg->path, "%s.%d", p->log, lg->c->rank);
    if (n < 0 || (size_t)n >= sizeof lg->path)
        return dls__mpi_fail(err, DLS_EINVAL, FN, "the log's path is too long");
    if (p->resume) {
        dls_status st = read_log(lg, header, err);
        if (st != DLS_OK)
            return st;
    }
    int fresh = !p->resume || lg->nold == 0;
    if (fresh) {
        /* an empty or unreadable-header log restarts: the header first */
        lg->f = fopen(lg->path, "w");
    } else {
        lg->f = fopen(lg->path, "a");
    }
    if (lg->f == NULL)
        return dls__mpi_fail(err, DLS_EIO, FN, "%s: cannot write the log: %s", lg->path,
                             strerror(errno));
    if (fresh && (fputs(header, lg->f) < 0 || fflush(lg->f) != 0 || fsync(fileno(lg->f)) != 0))
        return dls__mpi_fail(err, DLS_EIO, FN, "%s: cannot write the log: %s", lg->path,
                             strerror(errno));
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Memory                                                                             */

/* The node's available memory divided among the ranks on it (the node's first rank reads
 * it for all of them); *ranks gets their number. */
static dls_status node_share(const dls__mpi *c, double *share, int *ranks, dls_error *err)
{
    MPI_Comm node;
    int rc = MPI_Comm_split_type(c->comm, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS)
        return dls__mpi_failed(err, FN, "MPI_Comm_split_type", rc);
    int nrank = 0, nsize = 1;
    MPI_Comm_rank(node, &nrank);
    MPI_Comm_size(node, &nsize);
    double v[2] = {0, 0}; /* bytes, status */
    dls_error e;
    if (nrank == 0) {
        dls_status st = dls_memory_available(&v[0], &e);
        v[1] = st;
    }
    rc = MPI_Bcast(v, 2, MPI_DOUBLE, 0, node);
    MPI_Comm_free(&node);
    if (rc != MPI_SUCCESS)
        return dls__mpi_failed(err, FN, "MPI_Bcast", rc);
    if (v[1] != DLS_OK)
        return nrank == 0 ? dls__mpi_fail(err, (dls_status)v[1], FN, "%s", e.message)
                          : dls__mpi_fail(err, (dls_status)v[1], FN,
                                          "the node's first rank cannot read the memory "
                                          "available");
    *share = v[0] / nsize;
    *ranks = nsize;
    return DLS_OK;
}

/* The largest size whose memory fits in `bytes` (kernel with a memory formula); 0 when even
 * the smallest does not. */
static double size_for_memory(const dls_kernel *k, double smallest, double bytes)
{
    if (!(k->memory(smallest, k->data) <= bytes))
        return 0;
    double lo = smallest, hi = smallest;
    for (int i = 0; i < LIMIT_DOUBLINGS && k->memory(hi, k->data) <= bytes; i++) {
        lo = hi;
        hi *= 2;
        if (!isfinite(hi))
            return lo;
    }
    for (int i = 0; i < LIMIT_BISECTIONS && hi - lo > 0.5 * 0x1p-52 * hi; i++) {
        double mid = lo + (hi - lo) / 2;
        if (k->memory(mid, k->data) <= bytes)
            lo = mid;
        else
            hi = mid;
    }
    return k->integer_sizes ? floor(lo) : lo;
}

/* ---------------------------------------------------------------------------------- */
/* The call                                                                           */

/* What a rank sends of its model: point count and limit, then size, speed, low, high. */
static dls_status assemble(const dls__mpi *c, const dls_bench *b, double limit, const char *hosts,
                           dls_platform **out, dls_error *err)
{
    size_t n = 0;
    const double *sz, *sp, *lo, *hi;
    dls_status st = dls_model_get_points(dls_bench_model(b), &n, &sz, &sp, &lo, &hi);
    if (st != DLS_OK || lo == NULL)
        return dls__mpi_fail(err, DLS_EINVAL, FN, "the measured model is not a points model "
                             "with bands");
    int p = c->size;
    double mine[2] = {(double)n, limit};
    double *heads = malloc((size_t)p * 2 * sizeof *heads);
    int *cnt = malloc((size_t)p * sizeof *cnt), *disp = malloc((size_t)p * sizeof *disp);
    double *buf = malloc(4 * n * sizeof *buf), *all = NULL;
    dls_platform *pl = NULL;
    if (heads == NULL || cnt == NULL || disp == NULL || buf == NULL) {
        st = dls__mpi_oom(err, FN);
        goto done;
    }
    int rc = MPI_Allgather(mine, 2, MPI_DOUBLE, heads, 2, MPI_DOUBLE, c->comm);
    if (rc != MPI_SUCCESS) {
        st = dls__mpi_failed(err, FN, "MPI_Allgather", rc);
        goto done;
    }
    size_t total = 0;
    for (int r = 0; r < p; r++) {
        cnt[r] = 4 * (int)heads[2 * r];
        disp[r] = (int)total;
        total += (size_t)cnt[r];
    }
    for (size_t i = 0; i < n; i++) {
        buf[i] = sz[i];
        buf[n + i] = sp[i];
        buf[2 * n + i] = lo[i];
        buf[3 * n + i] = hi[i];
    }
    all = malloc((total ? total : 1) * sizeof *all);
    if (all == NULL) {
        st = dls__mpi_oom(err, FN);
        goto done;
    }
    rc = MPI_Allgatherv(buf, (int)(4 * n), MPI_DOUBLE, all, cnt, disp, MPI_DOUBLE, c->comm);
    if (rc != MPI_SUCCESS) {
        st = dls__mpi_failed(err, FN, "MPI_Allgatherv", rc);
        goto done;
    }
    st = dls_platform_create(&pl, err);
    for (int r = 0; r < p && st == DLS_OK; r++) {
        size_t k = (size_t)heads[2 * r];
        const double *a = all + disp[r];
        dls_model *mo = NULL;
        char name[MPI_MAX_PROCESSOR_NAME + 32];
        snprintf(name, sizeof name, "%s:%d", hosts + (size_t)r * (MPI_MAX_PROCESSOR_NAME + 1), r);
        size_t idx = 0;
        st = dls_model_create_points(k, a, a + k, a + 2 * k, a + 3 * k, &mo, err);
        if (st == DLS_OK)
            st = dls_platform_add(pl, name, mo, &idx, err);
        if (st == DLS_OK && heads[2 * r + 1] > 0)
            st = dls_platform_set_limit(pl, idx, heads[2 * r + 1], err);
        dls_model_free(mo);
    }
done:
    if (st == DLS_OK)
        *out = pl;
    else
        dls_platform_free(pl);
    free(heads);
    free(cnt);
    free(disp);
    free(buf);
    free(all);
    return st;
}

/* Receives the notices of the ranks that failed (each sent one to every other rank), so
 * that none is left in flight when the call returns. */
static void drain_notices(const dls__mpi *c, int sent, MPI_Request *reqs)
{
    int *senders = malloc((size_t)c->size * sizeof *senders);
    if (senders == NULL ||
        MPI_Allgather(&sent, 1, MPI_INT, senders, 1, MPI_INT, c->comm) != MPI_SUCCESS) {
        free(senders);
        return;
    }
    for (int r = 0; r < c->size; r++) {
        if (r == c->rank || !senders[r])
            continue;
        int dummy;
        MPI_Recv(&dummy, 1, MPI_INT, r, DLS__MPI_TAG_ABORT, c->comm, MPI_STATUS_IGNORE);
    }
    if (sent)
        MPI_Waitall(c->size, reqs, MPI_STATUSES_IGNORE);
    free(senders);
}

/* This rank's arguments to dls_mpi_bench, into mine. */
static dls_status check_args(const dls_kernel *kernel, const dls_mpi_bench_params *params,
                             dls_platform **out, dls_error *mine)
{
    if (kernel == NULL || kernel->run == NULL || kernel->name == NULL || out == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "NULL %s",
                             out == NULL ? "output" : kernel == NULL ? "kernel"
                                                  : kernel->run == NULL ? "kernel run function"
                                                                        : "kernel name");
    if (params->bench.resume != NULL || params->bench.resume_count != 0)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "bench.resume must be NULL: the ranks "
                             "resume from their logs (dls_mpi_bench_params::resume)");
    if (params->resume && params->log == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "resume needs a log");
    if (params->log != NULL && strlen(params->log) > DLS_MPI_PATH_MAX - 16)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "the log's prefix is longer than %d bytes",
                             DLS_MPI_PATH_MAX - 16);
    if (params->resume != 0 && params->resume != 1)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "resume is %d (0 or 1)", params->resume);
    if (params->memory_limits != 0 && params->memory_limits != 1)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "memory_limits is %d (0 or 1)",
                             params->memory_limits);
    for (size_t i = 0; i < sizeof params->reserved; i++)
        if (params->reserved[i] != 0)
            return dls__mpi_fail(mine, DLS_EINVAL, FN, "reserved bytes must be zero (use "
                                 "dls_mpi_bench_params_init)");
    return DLS_OK;
}

/* What one call of dls_mpi_bench holds; released by run_free(). */
typedef struct bench_run {
    dls__mpi c;
    dls_error mine;          /* this rank's failure, before the ranks agree */
    double vals[NFIELDS];    /* this rank's parameters */
    double *allv;            /* every rank's */
    char *hosts;             /* every rank's host name, MPI_MAX_PROCESSOR_NAME + 1 each */
    rank_log lg;
    dls_bench *b;
} bench_run;

static void run_free(bench_run *r)
{
    dls_bench_free(r->b);
    if (r->lg.f != NULL)
        fclose(r->lg.f);
    free(r->lg.old);
    free(r->allv);
    free(r->hosts);
}

/* Checks that every rank has the same parameters, and gathers the host names. Collective:
 * the same status on every rank. */
static dls_status same_everywhere(bench_run *r, const dls_kernel *kernel,
                                  const dls_mpi_bench_params *params, dls_error *err)
{
    dls__mpi *c = &r->c;
    field f[NFIELDS];
    fields_of(kernel, params, f);
    for (int i = 0; i < NFIELDS; i++)
        r->vals[i] = f[i].value;
    size_t hl = MPI_MAX_PROCESSOR_NAME + 1;
    r->allv = malloc((size_t)c->size * NFIELDS * sizeof *r->allv);
    r->hosts = malloc((size_t)c->size * hl);
    dls_status st = DLS_OK;
    if (r->allv == NULL || r->hosts == NULL) {
        st = dls__mpi_oom(&r->mine, FN);
    } else {
        int rc = MPI_Allgather(r->vals, NFIELDS, MPI_DOUBLE, r->allv, NFIELDS, MPI_DOUBLE,
                               c->comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Allgather(c->host, (int)hl, MPI_CHAR, r->hosts, (int)hl, MPI_CHAR,
                               c->comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(&r->mine, FN, "MPI_Allgather", rc);
    }
    st = dls__mpi_agree(c, st, 0, &r->mine, err);
    if (st == DLS_OK)
        st = compare_fields(c, r->allv, r->hosts, f, err); /* alike on every rank */
    return st;
}

/* Every rank measures at once (so that the contention is measured), on its share of its
 * node's memory (*share, in bytes), logging each point; a rank that fails tells the others,
 * which stop at their next run. Collective. */
static dls_status measure_together(bench_run *r, const dls_kernel *kernel,
                                   const dls_mpi_bench_params *params, double *share,
                                   dls_error *err)
{
    dls__mpi *c = &r->c;
    rank_log *lg = &r->lg;
    int ranks_here = 1;
    dls_status st = node_share(c, share, &ranks_here, &r->mine);
    if (st == DLS_OK && params->log != NULL) {
        /* the log's fingerprint: the parameters, whether resuming or not */
        double fp[NFIELDS];
        memcpy(fp, r->vals, sizeof fp);
        fp[FIELD_RESUME] = 0;
        st = open_log(lg, params, dls__mpi_hash(fp, sizeof fp, DLS__MPI_HASH_SEED), &r->mine);
    }
    st = dls__mpi_agree(c, st, 0, &r->mine, err);
    if (st != DLS_OK)
        return st;
    dls_bench_params bp = params->bench;
    bp.memory_fraction = params->bench.memory_fraction / ranks_here;
    lg->on_point = bp.on_point;
    lg->on_point_data = bp.on_point_data;
    lg->on_run = bp.on_run;
    lg->on_run_data = bp.on_run_data;
    bp.on_point = log_point;
    bp.on_point_data = lg;
    bp.on_run = check_abort;
    bp.on_run_data = lg;
    bp.resume = lg->old;
    bp.resume_count = lg->nold;
    MPI_Barrier(c->comm); /* together, so that the contention is measured */
    st = dls_bench_build(kernel, &bp, &r->b, &r->mine);
    if (st == DLS_OK && lg->log_failed)
        st = dls__mpi_fail(&r->mine, DLS_EIO, FN, "%s: cannot append to the log: %s", lg->path,
                           strerror(lg->log_errno));
    else if (st != DLS_OK && lg->log_failed)
        dls__mpi_fail(&r->mine, st = DLS_EIO, FN, "%s: cannot append to the log: %s", lg->path,
                      strerror(lg->log_errno));
    MPI_Request *notices = NULL;
    int sent = 0;
    if (st != DLS_OK && !lg->aborted) {
        /* tell the others, so that they stop at their next run */
        notices = malloc((size_t)c->size * sizeof *notices);
        static const int one = 1;
        for (int k = 0; notices != NULL && k < c->size; k++)
            if (k == c->rank)
                notices[k] = MPI_REQUEST_NULL;
            else
                MPI_Isend(&one, 1, MPI_INT, k, DLS__MPI_TAG_ABORT, c->comm, &notices[k]);
        sent = notices != NULL;
    }
    dls_status agreed = dls__mpi_agree(c, st, lg->aborted, &r->mine, err);
    drain_notices(c, sent, notices);
    free(notices);
    return agreed;
}

dls_status dls_mpi_bench(MPI_Comm comm, const dls_kernel *kernel,
                         const dls_mpi_bench_params *params, dls_platform **out, dls_error *err)
{
    bench_run r;
    memset(&r, 0, sizeof r);
    dls_status st = dls__mpi_open(&r.c, comm, FN, err);
    if (st != DLS_OK)
        return st;
    r.lg.c = &r.c;
    dls_mpi_bench_params defaults;
    if (params == NULL) {
        dls_mpi_bench_params_init(&defaults);
        params = &defaults;
    }
    st = check_args(kernel, params, out, &r.mine);
    st = dls__mpi_agree(&r.c, st, 0, &r.mine, err);
    if (st != DLS_OK) {
        dls__mpi_close(&r.c);
        return st;
    }
    double share = 0;
    st = same_everywhere(&r, kernel, params, err);
    if (st == DLS_OK)
        st = measure_together(&r, kernel, params, &share, err);
    if (st == DLS_OK) {
        /* the limit: this rank's share of its node's memory in the kernel's sizes */
        double limit = 0;
        if (params->memory_limits) {
            if (kernel->memory != NULL)
                limit = size_for_memory(kernel, params->bench.min_size, share);
            if (!(limit > 0))
                limit = dls_bench_limit(r.b);
        }
        dls_platform *pl = NULL;
        st = assemble(&r.c, r.b, limit, r.hosts, &pl, &r.mine);
        st = dls__mpi_agree(&r.c, st, 0, &r.mine, err);
        if (st == DLS_OK)
            *out = pl;
        else
            dls_platform_free(pl);
    }
    run_free(&r);
    dls__mpi_close(&r.c);
    return st;
}
