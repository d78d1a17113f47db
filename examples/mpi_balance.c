/* mpi_balance: an iterative MPI program balanced while it runs, from the times of its own
 * iterations (issue 38). A Jacobi sweep on N rows of W doubles: the rows are spread over
 * the ranks in 1-D blocks (rank order), each iteration exchanges the halo rows with the
 * neighbours, sweeps the block and times it; a balancer (dls_balance, one per rank, all
 * stepped alike by dls_mpi_balance) turns the times into the next shares, and the rows
 * move between ranks as its plan says (dls_mpi_move). Uses only the public API (and MPI).
 *
 *   mpicc mpi_balance.c $(pkg-config --cflags --libs dlsched-mpi) -o mpi_balance
 *   mpirun -np 4 ./mpi_balance --hetero
 *
 * Options:
 *   -N ROWS           rows of the grid (default 4000)
 *   -W WIDTH          doubles in a row (default 256)
 *   --iterations K    sweeps per strategy (default 30)
 *   --hetero          rank r's rows cost 8^((p-1-r)/(p-1)) times more than the fastest
 *                     rank's (costs 8 to 1: speeds spread 1 to 8), and every rank "pages":
 *                     beyond --page-rows rows of its block, each row costs --page-factor
 *                     times more (a rank whose memory is full)
 *   --paging          the paging alone, without --hetero's costs by rank: for ranks whose
 *                     speeds differ already (the hosts of a simulated cluster)
 *   --page-rows R     the paging point, rows (default the even share, ceil(N / p))
 *   --page-factor K   how much more a row beyond it costs (default 4)
 *   --row-work X      sweeps of a row that a row of the fastest rank costs (default 4: the
 *                     sweep itself, then passes over the row that stand for more work a
 *                     row, so that an iteration is long enough to time)
 *   --move-cost S     seconds it takes to move one row, for the balancers (default 0:
 *                     moving is free; on slow links, the balancer then moves only when the
 *                     gain over its horizon pays for it)
 *   --noise F         the relative noise of the times the balancers expect (default 0.05:
 *                     ranks sharing the cores of a loaded machine)
 *   --strategy S      even, constant, functional, static or all (default all)
 *   --clock C         how a rank times its sweep: cpu (its thread's CPU time: robust on a
 *                     machine where the ranks share cores), wall (MPI_Wtime: what a
 *                     simulator such as SMPI advances, its ranks sharing one thread) or
 *                     auto (default: wall when MPI_Wtime is global, as in a simulator,
 *                     else cpu)
 *   -v                one line per iteration (makespan, shares)
 *
 * The strategies, each from the same start and for the same K sweeps:
 *   even        a static even split, never changed;
 *   constant    the balancer's constant mode: speed = rows / time of the last iteration;
 *   functional  the balancer's functional mode (the default of dls_balance): partial speed
 *               functions from every iteration seen;
 *   static      a static partition of speed functions measured first: each rank times its
 *               sweep at six sizes around the even share (a small benchmark), rank 0
 *               partitions with those points (dls_mpi_partition); the benchmark's time is
 *               counted in the total.
 *
 * Rank 0 prints a table and one line per strategy for scripts:
 *   result strategy=functional balanced_at=6 settled=6 first=0.0123 last=0.0051 best=0.0050
 *          total=0.21 bench=0 moved=1843 sum=4000 checksum=0123456789abcdef shares=270,...
 * first, last and best are makespans (the largest sweep time of an iteration, seconds);
 * balanced_at is the first iteration from which every makespan stays within 5% of the best
 * seen (0: never: on a shared machine the times of the same shares drift by more than
 * that); settled the first iteration run on the final shares (1 for a static split);
 * total is the wall time of the strategy, seconds, bench the part of it
 * spent measuring; moved counts the rows moved; sum the rows held at the end. The checksum
 * is over the final grid: the sweep's result does not depend on the distribution, so every
 * strategy must give the same one. The exit status is 0 when they do and the shares sum to
 * N, 1 when not, 2 for a usage or run error. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <dlsched.h>
#include <dlsched/mpi.h>

enum { S_EVEN, S_CONSTANT, S_FUNCTIONAL, S_STATIC, S_COUNT };
static const char *const strategy_names[S_COUNT] = {"even", "constant", "functional", "static"};

typedef struct options {
    uint64_t rows;
    size_t width;
    int iterations;
    int hetero;         /* 0: equal rows; 1: paging only (--paging); 2: --hetero */
    double page_rows;   /* 0: the even share */
    double page_factor;
    double row_work;
    double noise;
    double move_cost;
    int strategy;       /* one of S_*, or -1 for all */
    int wall;           /* 1: MPI_Wtime; 0: CPU time; -1: auto (until main decides) */
    int verbose;
} options;

typedef struct app {
    options o;
    int rank, size;
    double cost;        /* this rank's cost of a row, in sweeps of a row */
} app;

/* This rank's block: rows [first, first + count), with a ghost row above and below. */
typedef struct block {
    uint64_t first, count;
    double *u, *v;      /* (count + 2) x width each */
} block;

/* What one strategy gave. */
typedef struct outcome {
    double *makespan;   /* per iteration, s */
    double total, bench;
    uint64_t moved, sum, checksum;
    int settled;        /* the first iteration run on the final shares (1-based) */
    uint64_t *shares;   /* at the end, every rank's */
} outcome;

static volatile double sink;

static double clock_now(const app *a)
{
    struct timespec ts;
    if (!a->o.wall && clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    return MPI_Wtime();
}

static double initial(uint64_t i, size_t j)
{
    return (double)((i * 31 + j * 17) % 101) / 101.0;
}

/* Sweeps of a row that row j of a block costs: the rank's cost, times the paging factor
 * beyond the paging point, counted so that fractions add up over the rows. */
static double cumulative_cost(const app *a, double rows)
{
    if (!a->o.hetero)
        return a->o.row_work * rows;
    double r = a->o.page_rows;
    double cheap = rows < r ? rows : r;
    return a->o.row_work * a->cost * (cheap + a->o.page_factor * (rows > r ? rows - r : 0));
}

/* One Jacobi sweep of the block's rows into v (fixed zeros beyond the grid), then the
 * extra work that makes this rank's rows cost what --hetero says. */
static void sweep(const app *a, double *u, double *v, uint64_t count)
{
    size_t w = a->o.width;
    for (uint64_t i = 1; i <= count; i++) {
        const double *up = u + (i - 1) * w, *me = u + i * w, *dn = u + (i + 1) * w;
        double *out = v + i * w;
        for (size_t j = 0; j < w; j++) {
            double l = j > 0 ? me[j - 1] : 0, r = j + 1 < w ? me[j + 1] : 0;
            out[j] = 0.25 * (up[j] + dn[j] + l + r);
        }
        double c0 = floor(cumulative_cost(a, (double)(i - 1)));
        long extra = (long)(floor(cumulative_cost(a, (double)i)) - c0) - 1;
        double acc = 0;
        for (long k = 0; k < extra; k++)
            for (size_t j = 0; j < w; j++)
                acc = acc * 0.5 + out[j];
        sink = acc;
    }
}

static double *rows_alloc(uint64_t count, size_t w)
{
    double *p = calloc((size_t)(count + 2) * w, sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "mpi_balance: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* The nearest rank below (dir -1) or above (+1) that holds rows; -1 for none. */
static int neighbour(const app *a, const uint64_t *shares, int dir)
{
    for (int r = a->rank + dir; r >= 0 && r < a->size; r += dir)
        if (shares[r] > 0)
            return r;
    return -1;
}

/* The ghost rows from the neighbours' edge rows (zeros at the grid's edges). */
static void halo(const app *a, block *b, const uint64_t *shares)
{
    size_t w = a->o.width;
    memset(b->u, 0, w * sizeof *b->u);
    memset(b->u + (b->count + 1) * w, 0, w * sizeof *b->u);
    if (b->count == 0)
        return;
    int lo = neighbour(a, shares, -1), hi = neighbour(a, shares, +1);
    MPI_Request rq[4];
    int n = 0;
    if (lo >= 0) {
        MPI_Irecv(b->u, (int)w, MPI_DOUBLE, lo, 1, MPI_COMM_WORLD, &rq[n++]);
        MPI_Isend(b->u + w, (int)w, MPI_DOUBLE, lo, 2, MPI_COMM_WORLD, &rq[n++]);
    }
    if (hi >= 0) {
        MPI_Irecv(b->u + (b->count + 1) * w, (int)w, MPI_DOUBLE, hi, 2, MPI_COMM_WORLD,
                  &rq[n++]);
        MPI_Isend(b->u + b->count * w, (int)w, MPI_DOUBLE, hi, 1, MPI_COMM_WORLD, &rq[n++]);
    }
    MPI_Waitall(n, rq, MPI_STATUSES_IGNORE);
}

/* The block [first, first + count) of the initial grid. */
static void block_init(const app *a, block *b, uint64_t first, uint64_t count)
{
    b->first = first;
    b->count = count;
    b->u = rows_alloc(count, a->o.width);
    b->v = rows_alloc(count, a->o.width);
    for (uint64_t i = 0; i < count; i++)
        for (size_t j = 0; j < a->o.width; j++)
            b->u[(i + 1) * a->o.width + j] = initial(first + i, j);
}

static void block_free(block *b)
{
    free(b->u);
    free(b->v);
    b->u = b->v = NULL;
}

/* An order-free checksum of the grid: each row's bits hashed with its global index,
 * summed over every rank (integer sums do not depend on the order). */
static uint64_t checksum(const app *a, const block *b)
{
    uint64_t mine = 0, all = 0;
    for (uint64_t i = 0; i < b->count; i++) {
        uint64_t h = 14695981039346656037ull;
        const unsigned char *p = (const unsigned char *)(b->u + (i + 1) * a->o.width);
        for (size_t k = 0; k < a->o.width * sizeof(double); k++)
            h = (h ^ p[k]) * 1099511628211ull;
        mine += h * (2 * (b->first + i) + 1);
    }
    MPI_Allreduce(&mine, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return all;
}

/* A failed call: its message names it (and the rank, for the collective ones). */
static int fail_run(const app *a, const char *what, const dls_error *err)
{
    if (a->rank == 0)
        fprintf(stderr, "mpi_balance: %s\n", err->message[0] ? err->message : what);
    return 2;
}

/* Moves the rows as the balancer's plan says: the new block replaces the old one. */
static int move_rows(const app *a, dls_balance *bal, const uint64_t *before, block *b,
                     uint64_t *moved)
{
    const dls_move_plan *plan = dls_balance_moves(bal);
    if (dls_move_plan_moved(plan) == 0)
        return 0;
    block nb;
    nb.first = dls_balance_first(bal)[a->rank];
    nb.count = dls_balance_shares(bal)[a->rank];
    nb.u = rows_alloc(nb.count, a->o.width);
    nb.v = rows_alloc(nb.count, a->o.width);
    size_t row = a->o.width * sizeof(double);
    dls_error err;
    if (dls_mpi_move(MPI_COMM_WORLD, plan, before, b->u + a->o.width, nb.u + a->o.width, row,
                     &err) != DLS_OK) {
        block_free(&nb);
        return fail_run(a, "dls_mpi_move", &err);
    }
    *moved += dls_move_plan_moved(plan);
    block_free(b);
    *b = nb;
    return 0;
}

/* Times this rank's sweep at six sizes around the even share and partitions the rows
 * with those points on rank 0 (dls_mpi_partition): the static functional split. */
static int bench_partition(const app *a, uint64_t *shares)
{
    enum { K = 6 };
    static const double at[K] = {0.25, 0.5, 1, 1.5, 2, 3};
    double even = (double)a->o.rows / a->size, x[K], t[K], *all = NULL;
    uint64_t biggest = (uint64_t)ceil(even * at[K - 1]) + K;
    double *u = rows_alloc(biggest, a->o.width), *v = rows_alloc(biggest, a->o.width);
    for (int k = 0; k < K; k++) {
        x[k] = ceil(even * at[k]);
        if (k > 0 && x[k] <= x[k - 1])
            x[k] = x[k - 1] + 1; /* sizes strictly increasing, for a few rows a rank */
        double t0 = clock_now(a);
        sweep(a, u, v, (uint64_t)x[k]);
        t[k] = clock_now(a) - t0;
        if (t[k] <= 0)
            t[k] = 1e-9;
    }
    free(u);
    free(v);
    if (a->rank == 0)
        all = malloc((size_t)a->size * K * sizeof *all);
    MPI_Gather(t, K, MPI_DOUBLE, all, K, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    dls_platform *pl = NULL;
    dls_error err;
    if (a->rank == 0) {
        dls_platform_create(&pl, NULL);
        for (int r = 0; r < a->size; r++) {
            double s[K];
            for (int k = 0; k < K; k++)
                s[k] = x[k] / all[r * K + k];
            dls_model *m = NULL;
            char name[32];
            snprintf(name, sizeof name, "rank%d", r);
            dls_model_create_points(K, x, s, NULL, NULL, &m, NULL);
            dls_platform_add(pl, name, m, NULL, NULL);
            dls_model_free(m);
        }
        free(all);
    }
    uint64_t count = 0, off = 0;
    dls_status st = dls_mpi_partition(MPI_COMM_WORLD, pl, a->o.rows, NULL, &count, &off,
                                      shares, &err);
    dls_platform_free(pl);
    return st == DLS_OK ? 0 : fail_run(a, "dls_mpi_partition", &err);
}

/* The first shares of a strategy (static: measured first) and the balancer it steps. */
static int strategy_start(const app *a, int s, uint64_t *shares, dls_balance **bal,
                          double *bench)
{
    dls_error err;
    *bal = NULL;
    if (s == S_STATIC) {
        double t0 = MPI_Wtime();
        int rc = bench_partition(a, shares);
        *bench = MPI_Wtime() - t0;
        return rc;
    }
    for (int r = 0; r < a->size; r++)
        shares[r] = a->o.rows / a->size + ((uint64_t)r < a->o.rows % a->size);
    if (s == S_EVEN)
        return 0;
    dls_balance_params p;
    dls_balance_params_init(&p);
    p.mode = s == S_CONSTANT ? DLS_BALANCE_CONSTANT : DLS_BALANCE_FUNCTIONAL;
    p.start = shares;
    p.noise = a->o.noise;
    p.move_cost = a->o.move_cost;
    if (dls_balance_create((size_t)a->size, a->o.rows, &p, bal, &err) != DLS_OK)
        return fail_run(a, "dls_balance_create", &err);
    return 0;
}

static void print_iteration(const app *a, int s, int it, double makespan,
                            const uint64_t *shares)
{
    if (!a->o.verbose || a->rank != 0)
        return;
    printf("iteration strategy=%s k=%d makespan=%.6g shares=", strategy_names[s], it + 1,
           makespan);
    for (int r = 0; r < a->size; r++)
        printf("%s%" PRIu64, r ? "," : "", shares[r]);
    printf("\n");
}

/* One strategy: K sweeps from the initial grid, balanced after each if it balances. */
static int run_strategy(const app *a, int s, outcome *out)
{
    uint64_t *shares = out->shares, *before = malloc((size_t)a->size * sizeof *before);
    dls_balance *bal = NULL;
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    int rc = strategy_start(a, s, shares, &bal, &out->bench);
    out->settled = 1;
    block b = {0, 0, NULL, NULL};
    uint64_t first = 0;
    for (int r = 0; r < a->rank; r++)
        first += shares[r];
    if (rc == 0)
        block_init(a, &b, first, shares[a->rank]);
    for (int it = 0; rc == 0 && it < a->o.iterations; it++) {
        halo(a, &b, shares);
        double t0 = clock_now(a);
        sweep(a, b.u, b.v, b.count);
        double t = b.count > 0 ? clock_now(a) - t0 : 0;
        if (b.count > 0 && t <= 0)
            t = 1e-9; /* a clock too coarse for a tiny block */
        double *tmp = b.u;
        b.u = b.v;
        b.v = tmp;
        MPI_Allreduce(&t, &out->makespan[it], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        print_iteration(a, s, it, out->makespan[it], shares);
        if (bal == NULL || it + 1 == a->o.iterations)
            continue;
        dls_error err;
        uint64_t share, at;
        memcpy(before, dls_balance_shares(bal), (size_t)a->size * sizeof *before);
        if (dls_mpi_balance(MPI_COMM_WORLD, bal, t, &share, &at, &err) != DLS_OK)
            rc = fail_run(a, "dls_mpi_balance", &err);
        else
            rc = move_rows(a, bal, before, &b, &out->moved);
        if (dls_move_plan_moved(dls_balance_moves(bal)) > 0)
            out->settled = it + 2;
        if (rc == 0)
            memcpy(shares, dls_balance_shares(bal), (size_t)a->size * sizeof *shares);
    }
    if (rc == 0) {
        MPI_Allreduce(&b.count, &out->sum, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
        out->checksum = checksum(a, &b);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    out->total = MPI_Wtime() - start;
    block_free(&b);
    dls_balance_free(bal);
    free(before);
    return rc;
}

/* The first iteration (1-based) from which every makespan stays within 5% of the best. */
static int balanced_at(const double *m, int k, double *best)
{
    *best = m[0];
    for (int i = 1; i < k; i++)
        if (m[i] < *best)
            *best = m[i];
    int at = 0;
    for (int i = k - 1; i >= 0 && m[i] <= 1.05 * *best; i--)
        at = i + 1;
    return at;
}

static void report(const app *a, int s, const outcome *o)
{
    double best;
    int at = balanced_at(o->makespan, a->o.iterations, &best);
    printf("%-11s %11d %7d %10.4g %10.4g %10.4g %9.3g %9.3g %10" PRIu64 "  %016" PRIx64
           "\n", strategy_names[s], at, o->settled, o->makespan[0], o->makespan[a->o.iterations - 1], best,
           o->total, o->bench, o->moved, o->checksum);
}

static void report_line(const app *a, int s, const outcome *o)
{
    double best;
    int at = balanced_at(o->makespan, a->o.iterations, &best);
    printf("result strategy=%s balanced_at=%d settled=%d first=%.6g last=%.6g best=%.6g total=%.6g "
           "bench=%.6g moved=%" PRIu64 " sum=%" PRIu64 " checksum=%016" PRIx64 " shares=",
           strategy_names[s], at, o->settled, o->makespan[0],
           o->makespan[a->o.iterations - 1], best, o->total, o->bench, o->moved, o->sum, o->checksum);
    for (int r = 0; r < a->size; r++)
        printf("%s%" PRIu64, r ? "," : "", o->shares[r]);
    printf("\n");
}

static int usage(const char *prog, int rank)
{
    if (rank == 0)
        fprintf(stderr, "usage: %s [-N ROWS] [-W WIDTH] [--iterations K] [--hetero]\n"
                "       [--paging] [--page-rows R] [--page-factor K] [--row-work X]\n"
                "       [--move-cost S] [--noise F] [--strategy even|constant|functional|static|all]\n"
                "       [--clock cpu|wall|auto] [-v]\n", prog);
    return 2;
}

static int strategy_from_name(const char *name)
{
    for (int s = 0; s < S_COUNT; s++)
        if (strcmp(name, strategy_names[s]) == 0)
            return s;
    return strcmp(name, "all") == 0 ? -1 : -2;
}

static int parse(int argc, char **argv, int rank, options *o)
{
    *o = (options){4000, 256, 30, 0, 0, 4, 4, 0.05, 0, -1, -1, 0};
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(k, "--hetero") == 0 || strcmp(k, "--paging") == 0) {
            o->hetero = k[2] == 'h' ? 2 : o->hetero > 1 ? 2 : 1;
            continue;
        }
        if (strcmp(k, "-v") == 0) {
            o->verbose = 1;
            continue;
        }
        if (v == NULL)
            return usage(argv[0], rank);
        i++;
        char *end = NULL;
        double x = strtod(v, &end);
        int num = end != v && *end == '\0' && isfinite(x);
        if (strcmp(k, "-N") == 0 && num && x >= 1 && x <= 1e12)
            o->rows = (uint64_t)x;
        else if (strcmp(k, "-W") == 0 && num && x >= 1 && x <= 1e6)
            o->width = (size_t)x;
        else if (strcmp(k, "--iterations") == 0 && num && x >= 1 && x <= 1e6)
            o->iterations = (int)x;
        else if (strcmp(k, "--page-rows") == 0 && num && x > 0)
            o->page_rows = x;
        else if (strcmp(k, "--page-factor") == 0 && num && x >= 1)
            o->page_factor = x;
        else if (strcmp(k, "--row-work") == 0 && num && x >= 1 && x <= 1e6)
            o->row_work = x;
        else if (strcmp(k, "--move-cost") == 0 && num && x >= 0)
            o->move_cost = x;
        else if (strcmp(k, "--noise") == 0 && num && x >= 0 && x < 0.5)
            o->noise = x;
        else if (strcmp(k, "--strategy") == 0 && strategy_from_name(v) > -2)
            o->strategy = strategy_from_name(v);
        else if (strcmp(k, "--clock") == 0 && (!strcmp(v, "cpu") || !strcmp(v, "wall") ||
                                                !strcmp(v, "auto")))
            o->wall = strcmp(v, "auto") == 0 ? -1 : strcmp(v, "wall") == 0;
        else
            return usage(argv[0], rank);
    }
    return 0;
}

/* Runs the strategies asked and checks that they computed the same grid. */
static int run_all(const app *a)
{
    int k = a->o.iterations, rc = 0;
    outcome out[S_COUNT];
    memset(out, 0, sizeof out);
    for (int s = 0; s < S_COUNT && rc == 0; s++) {
        out[s].makespan = calloc((size_t)k, sizeof(double));
        out[s].shares = calloc((size_t)a->size, sizeof(uint64_t));
        if (a->o.strategy < 0 || a->o.strategy == s)
            rc = run_strategy(a, s, &out[s]);
    }
    if (rc == 0 && a->rank == 0) {
        printf("%-11s %11s %7s %10s %10s %10s %9s %9s %10s  %s\n", "strategy", "balanced_at",
               "settled", "first_s", "last_s", "best_s", "total_s", "bench_s", "moved_rows", "checksum");
        for (int s = 0; s < S_COUNT; s++)
            if (a->o.strategy < 0 || a->o.strategy == s)
                report(a, s, &out[s]);
        for (int s = 0; s < S_COUNT; s++)
            if (a->o.strategy < 0 || a->o.strategy == s)
                report_line(a, s, &out[s]);
    }
    int first = a->o.strategy < 0 ? 0 : a->o.strategy;
    for (int s = 0; s < S_COUNT && rc == 0; s++) {
        if (a->o.strategy >= 0 && a->o.strategy != s)
            continue;
        if (out[s].checksum != out[first].checksum || out[s].sum != a->o.rows) {
            if (a->rank == 0)
                fprintf(stderr, "mpi_balance: strategy %s computed another grid (checksum "
                        "%016" PRIx64 ", %" PRIu64 " rows)\n", strategy_names[s],
                        out[s].checksum, out[s].sum);
            rc = 1;
        }
    }
    for (int s = 0; s < S_COUNT; s++) {
        free(out[s].makespan);
        free(out[s].shares);
    }
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    app a;
    MPI_Comm_rank(MPI_COMM_WORLD, &a.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &a.size);
    int rc = parse(argc, argv, a.rank, &a.o);
    if (rc == 0 && a.o.rows < (uint64_t)a.size) {
        if (a.rank == 0)
            fprintf(stderr, "mpi_balance: -N %" PRIu64 " rows for %d ranks: at least one a "
                    "rank\n", a.o.rows, a.size);
        rc = 2;
    }
    if (rc == 0) {
        if (a.o.wall < 0) {
            int *global = NULL, flag = 0;
            MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
            a.o.wall = flag && global != NULL && *global;
        }
        if (a.o.page_rows <= 0)
            a.o.page_rows = ceil((double)a.o.rows / a.size);
        a.cost = a.size > 1 && a.o.hetero == 2 ? pow(8.0, (double)(a.size - 1 - a.rank) / (a.size - 1)) : 1;
        if (a.rank == 0)
            printf("mpi_balance: %d ranks, %" PRIu64 " rows of %zu doubles, %d iterations, "
                   "%s, clock %s\n", a.size, a.o.rows, a.o.width, a.o.iterations,
                   a.o.hetero == 2 ? "hetero (row costs 8 to 1 by rank, paging beyond the "
                   "page rows)" : a.o.hetero ? "paging beyond the page rows" : "homogeneous", a.o.wall ? "wall" : "cpu");
        if (a.rank == 0 && a.o.hetero)
            printf("paging: beyond %.0f rows, each row costs %g times more\n", a.o.page_rows,
                   a.o.page_factor);
        rc = run_all(&a);
    }
    MPI_Finalize();
    return rc;
}
