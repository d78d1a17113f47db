/* dls_mpi_links: the link from the root to every rank, measured (the Hockney model,
 * S + C x seconds for x bytes). The root measures one rank after the other with
 * dls_bench_build() over message sizes: each run sends x bytes and waits for the rank's
 * empty answer; the run's time is that round trip less half the round trip of an empty
 * message. The line is fitted by least squares; every rank gets every link. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

#define FN "dls_mpi_links"

/* Tags of the measurement on the private communicator (beside those of mpi_impl.h). */
enum { TAG_PING = 11, TAG_ACK = 12, TAG_STOP = 13 };
/* Empty round trips timed for the one-way cost of an empty message; the least is kept. */
#define LINKS_EMPTY_PINGS 31
/* Doubles a link travels as in the broadcast. */
#define LINK_DOUBLES 6

void dls_mpi_links_params_init(dls_mpi_links_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    dls_bench_params_init(&p->bench);
    p->bench.min_size = 1;
    p->bench.max_size = DLS_MPI_LINKS_DEFAULT_MAX_BYTES;
}

/* The root's side of one rank's measurement. */
typedef struct pinger {
    MPI_Comm comm;
    int peer;
    unsigned char *buf;
    size_t cap;
    double empty;   /* half the round trip of an empty message, s */
    int global;     /* MPI_Wtime is one clock for every rank (MPI_WTIME_IS_GLOBAL) */
    int failed;     /* an MPI call failed (code in mpi_code) */
    int mpi_code;
} pinger;

/* One message of `bytes` and its answer, which carries the time the message arrived on the
 * peer; the round trip, and *one_way the arrival less the send's start. */
static double round_trip(pinger *p, size_t bytes, double *one_way)
{
    double t0 = MPI_Wtime(), arrived = 0;
    int rc = MPI_Send(p->buf, (int)bytes, MPI_BYTE, p->peer, TAG_PING, p->comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Recv(&arrived, 1, MPI_DOUBLE, p->peer, TAG_ACK, p->comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
        p->failed = 1;
        p->mpi_code = rc;
        return -1;
    }
    if (one_way != NULL)
        *one_way = arrived - t0;
    return MPI_Wtime() - t0;
}

/* The kernel of dls_bench_build: one message of `size` bytes, its one-way time. */
static double ping_run(double size, double *work, void *data)
{
    pinger *p = data;
    size_t bytes = (size_t)size;
    if (bytes > p->cap) {
        unsigned char *g = realloc(p->buf, bytes);
        if (g == NULL)
            return -1;
        memset(g + p->cap, 0x5a, bytes - p->cap);
        p->buf = g;
        p->cap = bytes;
    }
    double one_way, rtt = round_trip(p, bytes, &one_way);
    if (rtt < 0)
        return -1;
    *work = size;
    /* with one clock for every rank (a simulator's), the arrival less the send; else the
     * round trip less the empty answer's half (never below a nanosecond: the clock) */
    return fmax(p->global ? one_way : rtt - p->empty, 1e-9);
}

/* A rank's side: answers each message until the root says stop. The receive is posted at
 * once, into a buffer of the largest message (probing first would, in a simulator, count
 * the envelope's own latency before the data's). */
static int serve(MPI_Comm comm, int root, size_t max_bytes)
{
    unsigned char *buf = malloc(max_bytes > 0 ? max_bytes : 1);
    if (buf == NULL)
        return MPI_ERR_NO_MEM;
    for (;;) {
        MPI_Status stt;
        int rc = MPI_Recv(buf, (int)max_bytes, MPI_BYTE, root, MPI_ANY_TAG, comm, &stt);
        if (rc != MPI_SUCCESS || stt.MPI_TAG == TAG_STOP)
            return free(buf), rc;
        double arrived = MPI_Wtime();
        rc = MPI_Send(&arrived, 1, MPI_DOUBLE, root, TAG_ACK, comm);
        if (rc != MPI_SUCCESS)
            return free(buf), rc;
    }
}

/* The line through the points (size, time) by least squares on the relative errors (each
 * residual divided by its time: the sizes span decades, and the small messages would
 * otherwise weigh nothing); the band of the ratios of the times to the line. */
static void fit(const dls_bench_point *pts, size_t n, dls_mpi_link *l)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t k = 0; k < n; k++) {
        double x = pts[k].size, y = pts[k].time, w = 1 / (y * y);
        sw += w;
        sx += w * x;
        sy += w * y;
        sxx += w * x * x;
        sxy += w * x * y;
    }
    double d = sw * sxx - sx * sx;
    double C = d > 0 ? (sw * sxy - sx * sy) / d : 0;
    double S = (sy - C * sx) / sw;
    if (C < 0 || S < 0) {
        /* noise beyond the model's reach (a loaded machine): the line through the origin
         * and the largest message, or a constant */
        size_t top = 0;
        for (size_t k = 1; k < n; k++)
            if (pts[k].size > pts[top].size)
                top = k;
        C = C < 0 ? 0 : pts[top].time / pts[top].size;
        S = C == 0 ? sy / sw : 0;
    }
    l->startup = S;
    l->rate = C;
    l->low = INFINITY;
    l->high = 0;
    for (size_t k = 0; k < n; k++) {
        double line = S + C * pts[k].size;
        double ratio = line > 0 ? pts[k].time / line : 1;
        l->low = fmin(l->low, ratio);
        l->high = fmax(l->high, ratio);
    }
    l->points = n;
}

/* The root measures rank peer: the empty round trips, then the adaptive build. */
static dls_status measure_one(MPI_Comm comm, int peer, const dls_mpi_links_params *par,
                              dls_mpi_link *l, dls_error *err)
{
    pinger p = {comm, peer, NULL, 0, 0, 0, 0, 0};
    int *global = NULL, flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
    p.global = flag && global != NULL && *global;
    double best = INFINITY;
    for (int k = 0; k < LINKS_EMPTY_PINGS && !p.failed; k++)
        best = fmin(best, round_trip(&p, 0, NULL));
    dls_status st = DLS_OK;
    if (p.failed)
        return dls__mpi_failed(err, FN, "MPI_Send", p.mpi_code);
    p.empty = best / 2;
    dls_kernel k;
    memset(&k, 0, sizeof k);
    k.name = "ping";
    k.run = ping_run;
    k.data = &p;
    k.integer_sizes = 1;
    dls_bench *b = NULL;
    st = dls_bench_build(&k, &par->bench, &b, err);
    if (st != DLS_OK && p.failed)
        st = dls__mpi_failed(err, FN, "MPI_Send", p.mpi_code);
    if (st == DLS_OK) {
        size_t n;
        const dls_bench_point *pts = dls_bench_points(b, &n);
        fit(pts, n, l);
    }
    dls_bench_free(b);
    free(p.buf);
    return st;
}

/* This rank's arguments to dls_mpi_links, into mine. */
static dls_status check_args(const dls__mpi *c, int root, const dls_mpi_links_params *params,
                             const dls_mpi_link *links, dls_error *mine)
{
    if (links == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "NULL links");
    if (root < 0 || root >= c->size)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "root %d is not a rank (the communicator "
                             "has %d)", root, c->size);
    if (params->bench.resume != NULL || params->bench.resume_count != 0)
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "bench.resume must be NULL");
    if (!(params->bench.max_size > 0 && params->bench.max_size <= INT_MAX))
        return dls__mpi_fail(mine, DLS_EINVAL, FN, "bench.max_size (the largest message) must "
                             "be in (0, %d] bytes, not %.10g", INT_MAX, params->bench.max_size);
    for (size_t i = 0; i < sizeof params->reserved; i++)
        if (params->reserved[i] != 0)
            return dls__mpi_fail(mine, DLS_EINVAL, FN, "reserved bytes must be zero (use "
                                 "dls_mpi_links_params_init)");
    return DLS_OK;
}

/* The root's part: measures the link to each other rank in turn into all (LINK_DOUBLES a
 * rank; its own is no link) and, whatever happens, tells every other rank to stop, so
 * that none waits for ever. */
static dls_status root_measures(const dls__mpi *c, int root, const dls_mpi_links_params *params,
                                double *all, dls_error *mine)
{
    dls_status st = DLS_OK;
    for (int r = 0; r < c->size; r++) {
        double *l = all + (size_t)r * LINK_DOUBLES;
        memset(l, 0, LINK_DOUBLES * sizeof *l);
        l[2] = l[3] = 1;
        if (r == root)
            continue;
        dls_mpi_link one;
        memset(&one, 0, sizeof one);
        if (st == DLS_OK)
            st = measure_one(c->comm, r, params, &one, mine);
        if (st == DLS_OK) {
            l[0] = one.startup;
            l[1] = one.rate;
            l[2] = one.low;
            l[3] = one.high;
            l[4] = (double)one.points;
        }
        int rc = MPI_Send(NULL, 0, MPI_BYTE, r, TAG_STOP, c->comm);
        if (rc != MPI_SUCCESS && st == DLS_OK)
            st = dls__mpi_failed(mine, FN, "MPI_Send", rc);
    }
    return st;
}

dls_status dls_mpi_links(MPI_Comm comm, int root, const dls_mpi_links_params *params,
                         dls_mpi_link *links, dls_error *err)
{
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, FN, err);
    if (st != DLS_OK)
        return st;
    dls_mpi_links_params defaults;
    if (params == NULL) {
        dls_mpi_links_params_init(&defaults);
        params = &defaults;
    }
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    st = check_args(&c, root, params, links, &mine);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st != DLS_OK) {
        dls__mpi_close(&c);
        return st;
    }
    /* which ranks share the root's node */
    size_t hl = MPI_MAX_PROCESSOR_NAME + 1;
    char *hosts = malloc((size_t)c.size * hl);
    double *all = malloc((size_t)c.size * LINK_DOUBLES * sizeof *all);
    if (hosts == NULL || all == NULL)
        st = dls__mpi_oom(&mine, FN);
    else {
        int rc = MPI_Allgather(c.host, (int)hl, MPI_CHAR, hosts, (int)hl, MPI_CHAR, c.comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(&mine, FN, "MPI_Allgather", rc);
    }
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st == DLS_OK) {
        /* one rank after the other: the root measures, the rank answers */
        if (c.rank == root) {
            st = root_measures(&c, root, params, all, &mine);
        } else {
            int rc = serve(c.comm, root, (size_t)params->bench.max_size);
            if (rc != MPI_SUCCESS)
                st = dls__mpi_failed(&mine, FN, "MPI_Recv", rc);
        }
        st = dls__mpi_agree(&c, st, 0, &mine, err);
    }
    if (st == DLS_OK) {
        int rc = MPI_Bcast(all, c.size * LINK_DOUBLES, MPI_DOUBLE, root, c.comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(&mine, FN, "MPI_Bcast", rc);
        st = dls__mpi_agree(&c, st, 0, &mine, err);
    }
    if (st == DLS_OK)
        for (int r = 0; r < c.size; r++) {
            const double *l = all + (size_t)r * LINK_DOUBLES;
            memset(&links[r], 0, sizeof links[r]);
            links[r].startup = l[0];
            links[r].rate = l[1];
            links[r].low = l[2];
            links[r].high = l[3];
            links[r].points = (size_t)l[4];
            links[r].same_node = strcmp(hosts + (size_t)r * hl, hosts + (size_t)root * hl) == 0;
        }
    free(hosts);
    free(all);
    dls__mpi_close(&c);
    return st;
}
