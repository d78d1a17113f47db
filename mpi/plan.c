/* dls_mpi_schedule and its plan: the star schedule of a load held by one rank, rounded to
 * whole units on the root and broadcast; the sends in the schedule's order; the measured
 * arrival and finish of every rank. */
#include <config.h>

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_impl.h"

#define FN "dls_mpi_schedule"
/* Loads of at least this many units lose whole units in a double. */
#define UNITS_MAX 0x1p53

struct dls_mpi_plan {
    size_t size;
    int root;
    uint64_t *count, *offset; /* by rank */
    int *order;               /* ranks in send order */
    double *start, *arrival, *finish; /* predicted send start and end, finish, by rank */
    double *sent;             /* the root: when each rank's send began (measured) */
    double makespan;
    dls_schedule *schedule;   /* the root's, before rounding */
    double t0;                /* the clock at the scatter's barrier, s; NAN before */
    int wtime;                /* the clock is MPI_Wtime (global), else the node's own */
    double my_arrival, my_finish;
};

void dls_mpi_plan_free(dls_mpi_plan *plan)
{
    if (plan == NULL)
        return;
    free(plan->count);
    free(plan->offset);
    free(plan->order);
    free(plan->start);
    free(plan->arrival);
    free(plan->finish);
    free(plan->sent);
    dls_schedule_free(plan->schedule);
    free(plan);
}

static dls_mpi_plan *plan_new(size_t p)
{
    dls_mpi_plan *pl = calloc(1, sizeof *pl);
    if (pl == NULL)
        return NULL;
    pl->size = p;
    pl->count = calloc(p, sizeof *pl->count);
    pl->offset = calloc(p, sizeof *pl->offset);
    pl->order = calloc(p, sizeof *pl->order);
    pl->start = calloc(p, sizeof *pl->start);
    pl->sent = calloc(p, sizeof *pl->sent);
    pl->arrival = calloc(p, sizeof *pl->arrival);
    pl->finish = calloc(p, sizeof *pl->finish);
    pl->t0 = pl->my_arrival = pl->my_finish = NAN;
    if (!pl->count || !pl->offset || !pl->order || !pl->start || !pl->sent || !pl->arrival ||
        !pl->finish) {
        dls_mpi_plan_free(pl);
        return NULL;
    }
    return pl;
}

/* The loads rounded to whole units summing to `units`: floors, then one unit more to the
 * largest remainders (lowest index first among equal ones) where the limit allows. -1 when
 * the limits leave no room for a unit. */
static int round_loads(const dls_platform *pf, const double *x, size_t p, uint64_t units,
                       int use_limits, uint64_t *out)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < p; i++) {
        double f = floor(x[i] > 0 ? x[i] : 0);
        out[i] = (uint64_t)f;
        sum += out[i];
    }
    while (sum > units) { /* rounding above V (never by more than p units): take back */
        size_t best = p;
        for (size_t i = 0; i < p; i++)
            if (out[i] > 0 && (best == p || (double)out[i] - x[i] > (double)out[best] - x[best]))
                best = i;
        out[best]--;
        sum--;
    }
    while (sum < units) {
        size_t best = p;
        double rem = -INFINITY;
        for (size_t i = 0; i < p; i++) {
            double r = x[i] - (double)out[i];
            double lim = dls_platform_limit(pf, i);
            if (use_limits && (double)(out[i] + 1) > lim)
                continue;
            if (r > rem) {
                rem = r;
                best = i;
            }
        }
        if (best == p)
            return -1;
        out[best]++;
        sum++;
    }
    return 0;
}

/* A rank and its link's rate, for the rate order. */
typedef struct ranked {
    double rate;
    int rank;
} ranked;

static int by_rate(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* The platform the root schedules: the other ranks in the order asked (the platform's, or
 * by increasing link rate), then the root's own processor, served last with a free link: one
 * thread sends first and computes its share after. map[k] gets the rank of position k. */
static dls_status root_last(const dls_platform *pf, int root, dls_send_order order,
                            dls_platform **out, int *map, dls_error *err)
{
    size_t p = dls_platform_count(pf), k = 0;
    ranked *rk = malloc(p * sizeof *rk);
    if (rk == NULL)
        return dls__mpi_oom(err, FN);
    for (size_t r = 0; r < p; r++) {
        double S = 0, C = 0;
        if ((int)r == root)
            continue;
        dls_platform_link(pf, r, &S, &C); /* none: a free link, {0, 0} */
        rk[k].rate = C;
        rk[k++].rank = (int)r;
    }
    if (order == DLS_ORDER_RATE)
        qsort(rk, k, sizeof *rk, by_rate);
    for (size_t j = 0; j < k; j++)
        map[j] = rk[j].rank;
    map[k] = root;
    free(rk);
    dls_platform *q = NULL;
    dls_status st = dls_platform_create(&q, err);
    for (size_t j = 0; j < p && st == DLS_OK; j++) {
        size_t r = (size_t)map[j], at = 0;
        double S = 0, C = 0;
        st = dls_platform_add(q, dls_platform_name(pf, r), dls_platform_model(pf, r), &at, err);
        if (st == DLS_OK && isfinite(dls_platform_limit(pf, r)))
            st = dls_platform_set_limit(q, at, dls_platform_limit(pf, r), err);
        if (st == DLS_OK && (int)r != root && dls_platform_has_link(pf, r) &&
            dls_platform_link(pf, r, &S, &C) == DLS_OK)
            st = dls_platform_set_link(q, at, S, C, err);
        if (st == DLS_OK && (int)r == root)
            st = dls_platform_set_link(q, at, 0, 0, err);
    }
    if (st != DLS_OK) {
        dls_platform_free(q);
        return st;
    }
    *out = q;
    return DLS_OK;
}

/* On the root: the schedule (of the platform with the root last), the rounded loads and
 * their predicted timeline, by rank. */
static dls_status plan_on_root(const dls_platform *pf, int root, uint64_t units,
                               const dls_schedule_params *params, dls_mpi_plan *pl,
                               dls_error *err)
{
    size_t p = pl->size;
    dls_schedule_params par;
    if (params != NULL)
        par = *params;
    else
        dls_schedule_params_init(&par);
    int *map = malloc(p * sizeof *map);
    double *rl = malloc(p * sizeof *rl);
    uint64_t *cq = malloc(p * sizeof *cq);
    dls_platform *q = NULL;
    dls_schedule *ev = NULL;
    dls_status st = map && rl && cq ? DLS_OK : dls__mpi_oom(err, FN);
    if (st == DLS_OK)
        st = root_last(pf, root, par.order, &q, map, err);
    /* the order is q's own now, and the root is a worker served last */
    par.order = DLS_ORDER_GIVEN;
    par.originator_computes = 0;
    if (st == DLS_OK)
        st = dls_schedule_solve(q, (double)units, &par, &pl->schedule, err);
    if (st == DLS_OK && dls_schedule_status(pl->schedule) == DLS_SOLUTION_INFEASIBLE)
        st = dls__mpi_fail(err, DLS_EDATA, FN, "the limits cannot hold %llu units "
                           "(capacity %.17g)", (unsigned long long)units,
                           dls_schedule_capacity(pl->schedule));
    if (st == DLS_OK &&
        round_loads(q, dls_schedule_loads(pl->schedule), p, units, par.use_limits, cq) != 0)
        st = dls__mpi_fail(err, DLS_EDATA, FN, "the limits leave no room to round the loads "
                           "to whole units");
    if (st == DLS_OK) {
        for (size_t k = 0; k < p; k++)
            rl[k] = (double)cq[k];
        st = dls_schedule_evaluate(q, rl, &par, &ev, err);
    }
    if (st == DLS_OK) {
        /* back to ranks: position k of q is rank map[k] */
        const size_t *seq = dls_schedule_sequence(ev);
        const double *ss = dls_schedule_send_start(ev), *se = dls_schedule_send_end(ev),
                     *fin = dls_schedule_finish(ev);
        size_t n = 0;
        for (size_t j = 0; j < p; j++) /* served ranks first, in order */
            if (cq[seq[j]] > 0)
                pl->order[n++] = map[seq[j]];
        for (size_t j = 0; j < p; j++)
            if (cq[seq[j]] == 0)
                pl->order[n++] = map[seq[j]];
        for (size_t k = 0; k < p; k++) {
            size_t r = (size_t)map[k];
            pl->count[r] = cq[k];
            pl->start[r] = cq[k] > 0 ? ss[k] : NAN;
            pl->arrival[r] = cq[k] > 0 ? se[k] : NAN;
            pl->finish[r] = cq[k] > 0 ? fin[k] : NAN;
        }
        pl->makespan = dls_schedule_makespan(ev);
    }
    dls_schedule_free(ev);
    dls_platform_free(q);
    free(map);
    free(rl);
    free(cq);
    return st;
}

dls_status dls_mpi_schedule(MPI_Comm comm, int root, const dls_platform *platform,
                            uint64_t units, const dls_schedule_params *params,
                            dls_mpi_plan **out, dls_error *err)
{
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, FN, err);
    if (st != DLS_OK)
        return st;
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    if (out == NULL)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "NULL output");
    else if (root < 0 || root >= c.size)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "root %d is not a rank of the communicator "
                           "(0 to %d)", root, c.size - 1);
    else if (units < 1 || (double)units >= UNITS_MAX)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "units is %llu (1 to 2^53 - 1)",
                           (unsigned long long)units);
    else if (c.rank == root && platform == NULL)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "NULL platform on the root");
    else if (c.rank == root && dls_platform_count(platform) != (size_t)c.size)
        st = dls__mpi_fail(&mine, DLS_EINVAL, FN, "the platform has %zu processors and the "
                           "communicator %d ranks (processor i is rank i)",
                           dls_platform_count(platform), c.size);
    /* root, units and params given or not: alike everywhere */
    unsigned long long mine_h[3] = {(unsigned long long)root, units, params != NULL};
    unsigned long long h = dls__mpi_hash(mine_h, sizeof mine_h, DLS__MPI_HASH_SEED), lo, hi;
    int rc = MPI_Allreduce(&h, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, c.comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Allreduce(&h, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c.comm);
    if (rc != MPI_SUCCESS && st == DLS_OK)
        st = dls__mpi_failed(&mine, FN, "MPI_Allreduce", rc);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st == DLS_OK && lo != hi)
        st = dls__mpi_fail(err, DLS_EINVAL, FN, "the ranks pass different roots, units or "
                           "parameters (NULL on some ranks only)");
    if (st != DLS_OK) {
        dls__mpi_close(&c);
        return st;
    }
    size_t p = (size_t)c.size;
    dls_mpi_plan *pl = plan_new(p);
    if (pl == NULL)
        st = dls__mpi_oom(&mine, FN);
    else
        pl->root = root;
    if (st == DLS_OK && pl != NULL && c.rank == root)
        st = plan_on_root(platform, root, units, params, pl, &mine);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st == DLS_OK && pl != NULL) { /* (the agreement fails where pl is NULL) */
        rc = MPI_Bcast(pl->count, (int)p, MPI_UINT64_T, root, c.comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(pl->order, (int)p, MPI_INT, root, c.comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(pl->start, (int)p, MPI_DOUBLE, root, c.comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(pl->arrival, (int)p, MPI_DOUBLE, root, c.comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(pl->finish, (int)p, MPI_DOUBLE, root, c.comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Bcast(&pl->makespan, 1, MPI_DOUBLE, root, c.comm);
        if (rc != MPI_SUCCESS)
            st = dls__mpi_failed(err, FN, "MPI_Bcast", rc);
    }
    if (st == DLS_OK) {
        uint64_t at = 0;
        for (size_t i = 0; i < p; i++) {
            pl->offset[i] = at;
            at += pl->count[i];
        }
        *out = pl;
    } else {
        dls_mpi_plan_free(pl);
    }
    dls__mpi_close(&c);
    return st;
}

size_t dls_mpi_plan_size(const dls_mpi_plan *plan)
{
    return plan != NULL ? plan->size : 0;
}

uint64_t dls_mpi_plan_count(const dls_mpi_plan *plan, int r)
{
    return plan != NULL && r >= 0 && (size_t)r < plan->size ? plan->count[r] : 0;
}

uint64_t dls_mpi_plan_offset(const dls_mpi_plan *plan, int r)
{
    return plan != NULL && r >= 0 && (size_t)r < plan->size ? plan->offset[r] : 0;
}

const int *dls_mpi_plan_order(const dls_mpi_plan *plan)
{
    return plan != NULL ? plan->order : NULL;
}

dls_status dls_mpi_plan_predicted(const dls_mpi_plan *plan, int r, double *arrival,
                                  double *finish)
{
    if (plan == NULL || r < 0 || (size_t)r >= plan->size)
        return DLS_EINVAL;
    if (arrival != NULL)
        *arrival = plan->arrival[r];
    if (finish != NULL)
        *finish = plan->finish[r];
    return DLS_OK;
}

double dls_mpi_plan_makespan(const dls_mpi_plan *plan)
{
    return plan != NULL ? plan->makespan : NAN;
}

const dls_schedule *dls_mpi_plan_schedule(const dls_mpi_plan *plan)
{
    return plan != NULL ? plan->schedule : NULL;
}

/* ---------------------------------------------------------------------------------- */
/* The sends and the measured times                                                   */

/* This rank's arguments to dls_mpi_plan_scatter, into mine. */
static dls_status check_scatter(const dls__mpi *c, const dls_mpi_plan *plan, const void *sendbuf,
                                size_t unit_bytes, const void *recvbuf, dls_error *mine)
{
    static const char fn[] = "dls_mpi_plan_scatter";
    if (plan == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL plan");
    if (plan->size != (size_t)c->size)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "the plan is for %zu ranks, the "
                             "communicator has %d", plan->size, c->size);
    if (unit_bytes < 1)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "unit_bytes is 0");
    if (c->rank == plan->root && sendbuf == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL sendbuf on the root");
    if (plan->count[c->rank] > 0 && recvbuf == NULL)
        return dls__mpi_fail(mine, DLS_EINVAL, fn, "NULL recvbuf on a rank that gets %llu "
                             "units", (unsigned long long)plan->count[c->rank]);
    for (size_t i = 0; i < plan->size; i++)
        if ((double)plan->count[i] * (double)unit_bytes > (double)INT_MAX)
            return dls__mpi_fail(mine, DLS_ERANGE, fn, "rank %zu's chunk is %llu units of "
                                 "%zu bytes, more than one MPI message holds (%d bytes)",
                                 i, (unsigned long long)plan->count[i], unit_bytes, INT_MAX);
    return DLS_OK;
}

dls_status dls_mpi_plan_scatter(MPI_Comm comm, dls_mpi_plan *plan, const void *sendbuf,
                                size_t unit_bytes, void *recvbuf, dls_error *err)
{
    static const char fn[] = "dls_mpi_plan_scatter";
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, fn, err);
    if (st != DLS_OK)
        return st;
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    st = check_scatter(&c, plan, sendbuf, unit_bytes, recvbuf, &mine);
    st = dls__mpi_agree(&c, st, 0, &mine, err);
    if (st != DLS_OK) {
        dls__mpi_close(&c);
        return st;
    }
    for (size_t i = 0; i < plan->size; i++)
        plan->sent[i] = NAN;
    /* The clock: MPI_Wtime when it is one clock for every rank (a simulator's); else the
     * node's monotonic clock, which every process of a node shares, where MPI_Wtime need
     * not (Open MPI counts it from each process's own start). */
    int global = 0, flag = 0;
    void *attr = NULL;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &attr, &flag);
    if (flag && attr != NULL)
        global = *(int *)attr;
    int rc = MPI_Barrier(c.comm);
    double t0 = dls__mpi_clock(global);
    /* One origin of time for the ranks whose clock is the root's (the root's node, or every
     * rank when the clock is global): each rank's own exit from the barrier differs from
     * the root's by however long it waited to be scheduled, which on a loaded node put
     * arrivals before their sends. The other nodes keep their own exit: their clocks are
     * not comparable. */
    struct {
        double t0;
        char host[MPI_MAX_PROCESSOR_NAME + 1];
    } origin;
    memset(&origin, 0, sizeof origin);
    origin.t0 = t0;
    memcpy(origin.host, c.host, sizeof origin.host);
    if (rc == MPI_SUCCESS)
        rc = MPI_Bcast(&origin, (int)sizeof origin, MPI_BYTE, plan->root, c.comm);
    if (rc == MPI_SUCCESS && (global || strcmp(origin.host, c.host) == 0))
        t0 = origin.t0;
    int me = c.rank;
    if (rc == MPI_SUCCESS && me == plan->root) {
        const char *src = sendbuf;
        for (size_t k = 0; k < plan->size && rc == MPI_SUCCESS; k++) {
            int r = plan->order[k];
            size_t bytes = (size_t)plan->count[r] * unit_bytes;
            if (bytes == 0)
                continue;
            const char *from = src + (size_t)plan->offset[r] * unit_bytes;
            plan->sent[r] = dls__mpi_clock(global) - t0;
            if (r == me) {
                if ((const char *)recvbuf != from)
                    memmove(recvbuf, from, bytes);
                plan->my_arrival = dls__mpi_clock(global) - t0;
            } else {
                /* synchronous: the next send starts once this one is being received, as
                 * the star model serves one processor at a time */
                rc = MPI_Ssend(from, (int)bytes, MPI_BYTE, r, DLS__MPI_TAG_DATA, c.comm);
            }
        }
    } else if (rc == MPI_SUCCESS && plan->count[me] > 0) {
        rc = MPI_Recv(recvbuf, (int)(plan->count[me] * unit_bytes), MPI_BYTE, plan->root,
                      DLS__MPI_TAG_DATA, c.comm, MPI_STATUS_IGNORE);
        plan->my_arrival = dls__mpi_clock(global) - t0;
    } else if (rc == MPI_SUCCESS) {
        plan->my_arrival = 0; /* nothing to wait for */
    }
    /* No agreement after the sends: it would hold every rank until the last send is over,
     * while in the star model (and in the caller's program) a rank computes as soon as its
     * data has arrived. A failed transfer is reported by the ranks it concerns. */
    if (rc != MPI_SUCCESS)
        st = dls__mpi_failed(err, fn, me == plan->root ? "sending the units" : "receiving the units",
                             rc);
    else
        plan->t0 = t0, plan->wtime = global;
    dls__mpi_close(&c);
    return st;
}

dls_status dls_mpi_plan_done(dls_mpi_plan *plan, dls_error *err)
{
    if (plan == NULL || isnan(plan->t0))
        return dls__mpi_fail(err, DLS_EINVAL, "dls_mpi_plan_done",
                             plan == NULL ? "NULL plan" : "the units were not scattered yet");
    plan->my_finish = dls__mpi_clock(plan->wtime) - plan->t0;
    return DLS_OK;
}

/* Every rank's measured arrival and finish, on every rank (all: 2 per rank), after the
 * checks that this rank recorded them; the agreed status. */
static dls_status plan_times(dls__mpi *c, const dls_mpi_plan *plan, int check_path,
                             const char *path, double *all, dls_error *err)
{
    dls_error mine;
    memset(&mine, 0, sizeof mine);
    dls_status st = DLS_OK;
    if (plan == NULL)
        st = dls__mpi_fail(&mine, DLS_EINVAL, c->fn, "NULL plan");
    else if (plan->size != (size_t)c->size)
        st = dls__mpi_fail(&mine, DLS_EINVAL, c->fn, "the plan is for %zu ranks, the "
                           "communicator has %d", plan->size, c->size);
    else if (isnan(plan->my_finish))
        st = dls__mpi_fail(&mine, DLS_EINVAL, c->fn, "this rank did not record its end "
                           "(dls_mpi_plan_done)");
    else if (check_path && c->rank == plan->root && (path == NULL || path[0] == '\0'))
        st = dls__mpi_fail(&mine, DLS_EINVAL, c->fn, "no path on the root");
    else if (all == NULL)
        st = dls__mpi_oom(&mine, c->fn);
    st = dls__mpi_agree(c, st, 0, &mine, err);
    if (st != DLS_OK)
        return st;
    double t[2] = {plan->my_arrival, plan->my_finish};
    int rc = MPI_Allgather(t, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, c->comm);
    return rc == MPI_SUCCESS ? DLS_OK : dls__mpi_failed(err, c->fn, "MPI_Allgather", rc);
}

dls_status dls_mpi_plan_measured(MPI_Comm comm, const dls_mpi_plan *plan, double *arrival,
                                 double *finish, dls_error *err)
{
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, "dls_mpi_plan_measured", err);
    if (st != DLS_OK)
        return st;
    double *all = malloc((size_t)c.size * 2 * sizeof *all);
    st = plan_times(&c, plan, 0, NULL, all, err);
    if (st == DLS_OK)
        for (int r = 0; r < c.size; r++) {
            if (arrival != NULL)
                arrival[r] = all[2 * r];
            if (finish != NULL)
                finish[r] = all[2 * r + 1];
        }
    free(all);
    dls__mpi_close(&c);
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* The timeline as JSON                                                               */

/* A growing text; `failed` once memory ran out. */
typedef struct text {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    for (int tries = 0; tries < 2 && !t->failed; tries++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s != NULL ? t->s + t->len : NULL, t->s != NULL ? t->cap - t->len : 0,
                          fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if (t->s != NULL && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = 2 * (t->cap + (size_t)n + 64);
        char *ns = realloc(t->s, cap);
        if (ns == NULL) {
            t->failed = 1;
            return;
        }
        t->s = ns;
        t->cap = cap;
    }
}

/* A number, or null when it is not finite (JSON has no NaN). */
static void put_num(text *t, const char *key, double v, const char *after)
{
    if (isfinite(v)) {
        /* the fewest digits that read back as v (15 when they do: then the shortest) */
        char num[40];
        for (int digits = 15; digits <= 17; digits++) {
            snprintf(num, sizeof num, "%.*g", digits, v);
            if (strtod(num, NULL) == v)
                break;
        }
        put(t, "\"%s\": %s%s", key, num, after);
    }
    else
        put(t, "\"%s\": null%s", key, after);
}

/* The root's document: measured times m_* by rank, the plan's predictions. */
static void timeline_json(const dls_mpi_plan *pl, const double *m_arr, const double *m_fin,
                          text *t)
{
    size_t p = pl->size;
    double ms = 0;
    uint64_t units = 0;
    for (size_t i = 0; i < p; i++) {
        units += pl->count[i];
        if (pl->count[i] > 0 && m_fin[i] > ms)
            ms = m_fin[i];
    }
    put(t, "{\n  \"load\": %llu,\n  \"root\": %d,\n  ", (unsigned long long)units, pl->root);
    put_num(t, "makespan", ms, ",\n  ");
    put_num(t, "predicted_makespan", pl->makespan, ",\n  ");
    put_num(t, "makespan_error", (ms - pl->makespan) / pl->makespan, ",\n");
    put(t, "  \"status\": \"feasible\",\n  \"kind\": \"measured\",\n  \"send_order\": [");
    for (size_t k = 0, first = 1; k < p; k++)
        if (pl->count[pl->order[k]] > 0) {
            put(t, "%s\"rank %d\"", first ? "" : ", ", pl->order[k]);
            first = 0;
        }
    put(t, "],\n  \"processors\": [\n");
    for (size_t i = 0; i < p; i++) {
        int used = pl->count[i] > 0;
        double ss = used ? pl->sent[i] : NAN, se = used ? m_arr[i] : NAN, fin = m_fin[i];
        put(t, "    {\"name\": \"rank %zu\", \"rank\": %zu, \"load\": %llu, ", i, i,
            (unsigned long long)pl->count[i]);
        put_num(t, "send_start", ss, ", ");
        put_num(t, "send_end", se, ", ");
        put_num(t, "compute_time", used ? fin - se : 0, ", ");
        put_num(t, "finish", used ? fin : 0, ", ");
        put_num(t, "idle", used ? ms - fin : ms, ",\n     \"predicted\": {");
        put_num(t, "send_start", pl->start[i], ", ");
        put_num(t, "send_end", pl->arrival[i], ", ");
        put_num(t, "compute_time", used ? pl->finish[i] - pl->arrival[i] : 0, ", ");
        put_num(t, "finish", used ? pl->finish[i] : 0, "}}");
        put(t, "%s\n", i + 1 < p ? "," : "");
    }
    put(t, "  ]\n}\n");
}

dls_status dls_mpi_plan_write_json(MPI_Comm comm, const dls_mpi_plan *plan, const char *path,
                                   dls_error *err)
{
    dls__mpi c;
    dls_status st = dls__mpi_open(&c, comm, "dls_mpi_plan_write_json", err);
    if (st != DLS_OK)
        return st;
    size_t p = (size_t)c.size;
    double *all = malloc(p * 4 * sizeof *all);
    st = plan_times(&c, plan, 1, path, all, err);
    if (st == DLS_OK) {
        dls_error mine;
        memset(&mine, 0, sizeof mine);
        if (c.rank == plan->root) {
            double *arr = all + 2 * p, *fin = all + 3 * p;
            for (size_t i = 0; i < p; i++) {
                arr[i] = all[2 * i];
                fin[i] = all[2 * i + 1];
            }
            text t = {NULL, 0, 0, 0};
            timeline_json(plan, arr, fin, &t);
            if (t.failed)
                st = dls__mpi_oom(&mine, c.fn);
            else
                st = dls_write_output(path, t.s, t.len, &mine);
            free(t.s);
        }
        st = dls__mpi_agree(&c, st, 0, &mine, err);
    }
    free(all);
    dls__mpi_close(&c);
    return st;
}
