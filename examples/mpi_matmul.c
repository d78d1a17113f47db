/* mpi_matmul: the striped matrix product C = A B of Lastovetsky and Reddy (2007a) across the ranks
 * of an MPI job. Every rank measures its speed function for the gemm-rows kernel in the same run
 * (dls_mpi_bench: all ranks at once, so that what they share is in the models), the N rows of
 * A are partitioned over the ranks with those models (dls_mpi_partition; processor i is rank
 * i), rank 0 scatters the rows of A and broadcasts B, every rank computes its rows of C with
 * OpenBLAS, and rank 0 gathers C and checks it against the product computed on one rank.
 * Uses only the public API (and MPI and OpenBLAS, with which the program computes).
 *
 *   mpicc mpi_matmul.c $(pkg-config --cflags --libs dlsched-mpi openblas) -o mpi_matmul
 *   mpirun -np 4 ./mpi_matmul -n 384 --hetero --split all
 *
 * Options:
 *   -n N            the matrix order (default 384): A is N x N, so is B
 *   --split WHAT    how the rows are distributed: fpm (the measured speed functions,
 *                   default), even (N / p rows each), constant (one speed per rank, measured
 *                   at a single size: --const-rows), or all (the three in turn, with the same
 *                   measurements)
 *   --hetero        rank r computes every product r + 1 times (in its measurements too): a
 *                   reproducible way to give the ranks of one machine different speeds
 *   --threads LIST  OpenBLAS threads of each rank, comma-separated (rank r takes the r-th
 *                   value, the last one repeated); default 1 everywhere. The other way to
 *                   make ranks differ, on a machine with cores to spare
 *   --budget S      seconds each rank may spend measuring (default 2)
 *   --max-rows R    the largest size measured, in rows (default N)
 *   --const-rows R  the size at which --split constant measures its single speed (default 16)
 *   --runs K        products timed per distribution; the median is reported (default 1)
 *   --platform FILE the speed functions from this platform file instead of measuring them
 *                   in the run: processor r is rank r, measured for gemm-rows with the same
 *                   n, as `mpirun -np P dlsched bench --mpi --kernel gemm-rows --n N` writes
 *                   them (smpi/flow.sh does so on a simulated cluster). The constant speeds
 *                   of --split constant are still measured in the run, at --const-rows
 *
 * Rank 0 prints, for each distribution, one line per rank and one for the makespan, in
 * key=value form for scripts (tests/bench/bench_mpi.sh):
 *   result example=matmul split=fpm rank=1 rows=97 predicted=0.0123 measured=0.0131
 *   makespan example=matmul split=fpm predicted=0.0250 measured=0.0262 error=0.048
 * Times are seconds; predicted is what the distribution's model says (rows n^2 / speed: the
 * gemm-rows speed is in multiply-adds per second, n^2 of them per row); the even split has
 * no model of its own and is predicted with the measured speed functions. error is
 * (measured - predicted) / predicted for the makespans. The exit status is 0 when every
 * product was right, 1 when one was wrong, 2 for a usage or run error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cblas.h>
#include <mpi.h>

#include <dlsched.h>
#include <dlsched/mpi.h>

enum { SPLIT_FPM, SPLIT_EVEN, SPLIT_CONSTANT, SPLIT_COUNT };
static const char *const split_names[SPLIT_COUNT] = {"fpm", "even", "constant"};

typedef struct options {
    int n;
    int split;          /* one of SPLIT_*, or -1 for all */
    int hetero;
    int threads;        /* this rank's */
    double budget;
    double max_rows;
    double const_rows;
    int runs;
    const char *platform;
} options;

/* The measured kernel is the built-in gemm-rows repeated as often as this rank repeats its
 * own product (--hetero), so that the model describes what the rank will really do. */
typedef struct repeat_kernel {
    dls_kernel inner;
    int reps;
} repeat_kernel;

static double repeat_run(double size, double *work, void *data)
{
    const repeat_kernel *k = data;
    double total = 0;
    for (int i = 0; i < k->reps; i++) {
        double t = k->inner.run(size, work, k->inner.data);
        if (t < 0)
            return t;
        total += t;
    }
    return total;
}

static double repeat_memory(double size, void *data)
{
    const repeat_kernel *k = data;
    return k->inner.memory(size, k->inner.data);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Deterministic entries in [-1, 1) with no pattern the product could hide an error in. */
static void fill(double *m, size_t count, uint64_t seed)
{
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    for (size_t i = 0; i < count; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        m[i] = (double)(x >> 11) * 0x1p-52 - 1.0;
    }
}

static int usage(const char *prog, int rank)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: %s [-n N] [--split fpm|even|constant|all] [--hetero] [--threads LIST]\n"
                "       [--budget S] [--max-rows R] [--const-rows R] [--runs K]\n"
                "       [--platform FILE]\n",
                prog);
    return 2;
}

/* The r-th value of a comma-separated list, the last one repeated. */
static int list_value(const char *list, int r)
{
    int v = atoi(list);
    for (const char *p = list; r > 0; r--) {
        p = strchr(p, ',');
        if (p == NULL)
            break;
        v = atoi(++p);
    }
    return v;
}

static int parse(int argc, char **argv, int rank, options *o)
{
    *o = (options){.n = 384, .split = SPLIT_FPM, .threads = 1, .budget = 2, .const_rows = 16,
                   .runs = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--hetero") == 0) {
            o->hetero = 1;
            continue;
        }
        if (v == NULL)
            return usage(argv[0], rank);
        i++;
        if (strcmp(a, "-n") == 0)
            o->n = atoi(v);
        else if (strcmp(a, "--split") == 0) {
            o->split = -2;
            for (int s = 0; s < SPLIT_COUNT; s++)
                if (strcmp(v, split_names[s]) == 0)
                    o->split = s;
            if (strcmp(v, "all") == 0)
                o->split = -1;
            if (o->split == -2)
                return usage(argv[0], rank);
        } else if (strcmp(a, "--threads") == 0)
            o->threads = list_value(v, rank);
        else if (strcmp(a, "--budget") == 0)
            o->budget = atof(v);
        else if (strcmp(a, "--max-rows") == 0)
            o->max_rows = atof(v);
        else if (strcmp(a, "--const-rows") == 0)
            o->const_rows = atof(v);
        else if (strcmp(a, "--runs") == 0)
            o->runs = atoi(v);
        else if (strcmp(a, "--platform") == 0)
            o->platform = v;
        else
            return usage(argv[0], rank);
    }
    /* MPI counts are ints: N x N doubles must fit one */
    if (o->n < 1 || o->n > 46340 || o->threads < 1 || !(o->budget > 0) || o->runs < 1
        || o->runs > 1000 || !(o->const_rows >= 1) || !(o->max_rows >= 0))
        return usage(argv[0], rank);
    if (o->max_rows == 0)
        o->max_rows = o->n;
    return 0;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

/* Rank 0's platform of constant speeds, one per rank, named as the measured one's. */
static dls_status constant_platform(const dls_platform *like, const double *speeds,
                                    dls_platform **out, dls_error *err)
{
    dls_platform *pl;
    dls_status st = dls_platform_create(&pl, err);
    for (size_t i = 0; st == DLS_OK && i < dls_platform_count(like); i++) {
        dls_model *m;
        st = dls_model_create_constant(speeds[i], &m, err);
        if (st == DLS_OK)
            st = dls_platform_add(pl, dls_platform_name(like, i), m, NULL, err);
        dls_model_free(m);
    }
    if (st == DLS_OK)
        *out = pl;
    else
        dls_platform_free(pl);
    return st;
}

/* Everything one rank holds for the run, freed by job_free(). */
typedef struct job {
    options o;
    int rank, p, n, reps;
    repeat_kernel rk;
    dls_kernel kernel;
    dls_mpi_bench_params bp;
    dls_platform *fpm, *constant, *even; /* rank 0 (fpm: every rank when measured) */
    double *a, *c, *ref;                 /* rank 0: n x n */
    double *b;                           /* n x n */
    double *my_a, *my_c;                 /* this rank's rows */
    double *speeds;                      /* rank 0: one per rank */
    uint64_t *counts;                    /* each rank's rows */
    int *sendcounts, *displs;            /* the same in doubles, for MPI */
    double *times;                       /* rank 0: p x runs */
    double *mine;                        /* runs: this rank's times */
} job;

static void job_free(job *j)
{
    free(j->speeds);
    free(j->counts);
    free(j->sendcounts);
    free(j->displs);
    free(j->times);
    free(j->mine);
    free(j->a);
    free(j->b);
    free(j->c);
    free(j->ref);
    free(j->my_a);
    free(j->my_c);
    dls_platform_free(j->fpm);
    dls_platform_free(j->constant);
    dls_platform_free(j->even);
}

/* The speed functions: read from --platform by rank 0, or measured by every rank at once
 * (dls_mpi_bench). Returns the exit status so far, the same on every rank. */
static int measure(job *j, dls_error *err)
{
    const options *o = &j->o;
    dls_mpi_bench_params *bp = &j->bp;
    dls_mpi_bench_params_init(bp);
    /* sizes far below a share never matter here, and on a shared machine runs shorter than
     * a time slice would see a core of their own */
    bp->bench.min_size = fmin(o->max_rows, fmax(1, floor(o->n / (16.0 * j->p))));
    bp->bench.max_size = o->max_rows;
    bp->bench.max_points = 8;
    bp->bench.time_budget = o->budget;
    bp->bench.size_time_cap = o->budget / 4;
    bp->bench.max_reps = 20;
    int rc = 0;
    if (o->platform != NULL) {
        /* measured before, by dlsched bench --mpi: rank 0 reads it (it alone partitions) */
        if (j->rank == 0) {
            if (dls_platform_read_file(o->platform, &j->fpm, err) != DLS_OK) {
                fprintf(stderr, "%s\n", err->message);
                rc = 2;
            } else if (dls_platform_count(j->fpm) != (size_t)j->p) {
                fprintf(stderr, "mpi_matmul: %s has %zu processors for %d ranks\n", o->platform,
                        dls_platform_count(j->fpm), j->p);
                rc = 2;
            }
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else if (dls_mpi_bench(MPI_COMM_WORLD, &j->kernel, bp, &j->fpm, err) != DLS_OK) {
        /* collective: every rank has the same message; one prints it */
        if (j->rank == 0)
            fprintf(stderr, "%s\n", err->message);
        rc = 2;
    }
    return rc;
}

/* Allocates j's buffers; returns whether every rank could (collective). */
static int job_alloc(job *j)
{
    const size_t p = (size_t)j->p, nn = (size_t)j->n * (size_t)j->n;
    j->speeds = malloc(p * sizeof *j->speeds);
    j->counts = malloc(p * sizeof *j->counts);
    j->sendcounts = malloc(p * sizeof *j->sendcounts);
    j->displs = malloc(p * sizeof *j->displs);
    j->times = malloc(p * (size_t)j->o.runs * sizeof *j->times);
    j->mine = malloc((size_t)j->o.runs * sizeof *j->mine);
    j->b = malloc(nn * sizeof *j->b);
    int ok = j->speeds && j->counts && j->sendcounts && j->displs && j->times && j->mine
             && j->b;
    if (j->rank == 0) {
        j->a = malloc(nn * sizeof *j->a);
        j->c = malloc(nn * sizeof *j->c);
        j->ref = malloc(nn * sizeof *j->ref);
        ok = ok && j->a && j->c && j->ref;
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all_ok;
}

/* Rank 0's platform of the speeds every rank measured at --const-rows (speed1 this rank's,
 * -1 when it could not). Returns the exit status so far, the same on every rank. */
static int gather_constant(job *j, double speed1, dls_error *err)
{
    MPI_Gather(&speed1, 1, MPI_DOUBLE, j->speeds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (j->rank == 0) {
        for (int r = 0; r < j->p; r++)
            if (!(j->speeds[r] > 0)) {
                fprintf(stderr, "mpi_matmul: rank %d could not measure its speed at %g rows\n",
                        r, j->o.const_rows);
                rc = 2;
            }
        if (rc == 0 && constant_platform(j->fpm, j->speeds, &j->constant, err) != DLS_OK) {
            fprintf(stderr, "%s\n", err->message);
            rc = 2;
        }
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}

/* Rank 0 builds the even platform, the matrices and the reference product; B goes to every
 * rank. Returns the exit status so far, the same on every rank. */
static int prepare(job *j, dls_error *err)
{
    const int n = j->n;
    int rc = 0;
    if (j->rank == 0) {
        /* equal speeds give equal shares (to one row) */
        for (int r = 0; r < j->p; r++)
            j->speeds[r] = 1;
        if (constant_platform(j->fpm, j->speeds, &j->even, err) != DLS_OK) {
            fprintf(stderr, "%s\n", err->message);
            rc = 2;
        }
        fill(j->a, (size_t)n * (size_t)n, 1);
        fill(j->b, (size_t)n * (size_t)n, 2);
        /* the reference: the whole product on one rank */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, j->a, n, j->b, n,
                    0.0, j->ref, n);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc == 0)
        MPI_Bcast(j->b, n * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return rc;
}

/* Rank 0: checks C of split s (partitioned by `by`) and prints its result and makespan
 * lines. Returns 1 when C is wrong, 2 when out of memory, else 0. */
static int report(job *j, int s, const dls_platform *by)
{
    const int n = j->n, runs = j->o.runs;
    /* |C - C_ref| against |A| |B| n eps: the rows were computed by other calls, whose
     * blocking may sum in another order */
    double diff = 0, scale = 0;
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
        diff = fmax(diff, fabs(j->c[i] - j->ref[i]));
        scale = fmax(scale, fabs(j->ref[i]));
    }
    int rc = 0, right = diff <= 1e-12 * (double)n * fmax(scale, 1.0);
    if (!right) {
        fprintf(stderr, "mpi_matmul: split %s: C differs from the one-rank product by %g\n",
                split_names[s], diff);
        rc = 1;
    }
    /* the makespan of each run, then the median run; each rank's median time */
    double *spans = malloc((size_t)runs * sizeof *spans);
    double *col = malloc((size_t)runs * sizeof *col);
    if (spans == NULL || col == NULL) {
        free(spans);
        free(col);
        return 2;
    }
    for (int run = 0; run < runs; run++) {
        spans[run] = 0;
        for (int r = 0; r < j->p; r++)
            spans[run] = fmax(spans[run], j->times[r * runs + run]);
    }
    double measured_span = median(spans, runs);
    double predicted_span = 0;
    printf("split %s: %d x %d product, %s\n", split_names[s], n, n,
           right ? "C right" : "C WRONG");
    for (int r = 0; r < j->p; r++) {
        /* the model's time is rows / speed in seconds per n^2 multiply-adds */
        const dls_platform *model_of = s == SPLIT_EVEN ? j->fpm : by;
        double predicted =
            (double)n * n * dls_model_time(dls_platform_model(model_of, (size_t)r),
                                           (double)j->counts[r]);
        predicted_span = fmax(predicted_span, predicted);
        for (int run = 0; run < runs; run++)
            col[run] = j->times[r * runs + run];
        printf("result example=matmul split=%s rank=%d name=%s rows=%llu predicted=%.6g "
               "measured=%.6g\n",
               split_names[s], r, dls_platform_name(j->fpm, (size_t)r),
               (unsigned long long)j->counts[r], predicted, median(col, runs));
    }
    printf("makespan example=matmul split=%s predicted=%.6g measured=%.6g error=%.4f\n",
           split_names[s], predicted_span, measured_span,
           (measured_span - predicted_span) / predicted_span);
    free(spans);
    free(col);
    return rc;
}

/* Partitions the rows for split s, scatters A, times o.runs products and gathers C and the
 * times on rank 0, which reports. Returns -1 when the splits must stop (*rc set to 2), else
 * 0 with rank 0's *rc set as report() says when it fails. */
static int run_split(job *j, int s, int *rc, dls_error *err)
{
    const int n = j->n, rank = j->rank;
    const dls_platform *by = s == SPLIT_FPM ? j->fpm : s == SPLIT_EVEN ? j->even : j->constant;
    uint64_t my_rows = 0, my_first = 0;
    if (dls_mpi_partition(MPI_COMM_WORLD, rank == 0 ? by : NULL, (uint64_t)n, NULL, &my_rows,
                          &my_first, j->counts, err) != DLS_OK) {
        if (rank == 0)
            fprintf(stderr, "%s\n", err->message);
        *rc = 2;
        return -1;
    }
    for (int r = 0, at = 0; r < j->p; r++) {
        j->sendcounts[r] = (int)j->counts[r] * n;
        j->displs[r] = at;
        at += j->sendcounts[r];
    }
    free(j->my_a);
    free(j->my_c);
    /* one element at least, so that a rank given no rows still has valid buffers */
    j->my_a = malloc(((size_t)my_rows * (size_t)n + 1) * sizeof *j->my_a);
    j->my_c = malloc(((size_t)my_rows * (size_t)n + 1) * sizeof *j->my_c);
    int ok = j->my_a != NULL && j->my_c != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank == 0)
            fprintf(stderr, "mpi_matmul: out of memory\n");
        *rc = 2;
        return -1;
    }
    MPI_Scatterv(j->a, j->sendcounts, j->displs, MPI_DOUBLE, j->my_a, j->sendcounts[rank],
                 MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int run = 0; run < j->o.runs; run++) {
        /* the ranks start together, as they measured together */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = now();
        for (int i = 0; i < j->reps && my_rows > 0; i++)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)my_rows, n, n, 1.0,
                        j->my_a, n, j->b, n, 0.0, j->my_c, n);
        j->mine[run] = now() - t0;
    }
    MPI_Gather(j->mine, j->o.runs, MPI_DOUBLE, j->times, j->o.runs, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
    MPI_Gatherv(j->my_c, j->sendcounts[rank], MPI_DOUBLE, j->c, j->sendcounts, j->displs,
                MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int r = report(j, s, by);
        if (r != 0)
            *rc = r;
    }
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    job j = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &j.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &j.p);
    if (parse(argc, argv, j.rank, &j.o) != 0) {
        MPI_Finalize();
        return 2;
    }
    const options *o = &j.o;
    /* ranks share the cores of a node: one OpenBLAS thread each unless told otherwise */
    openblas_set_num_threads(o->threads);
    j.n = o->n;
    j.reps = o->hetero ? j.rank + 1 : 1;

    dls_error err;
    dls_error_clear(&err);
    dls_blas_kernel_params kp;
    dls_blas_kernel_params_init(&kp);
    kp.fixed = j.n;
    kp.threads = (unsigned)o->threads;
    j.rk.reps = j.reps;
    if (dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &kp, &j.rk.inner, &err) != DLS_OK) {
        /* every rank fails alike here: the parameters are the same everywhere */
        if (j.rank == 0)
            fprintf(stderr, "%s\n", err.message);
        MPI_Finalize();
        return 2;
    }
    j.kernel = (dls_kernel){.name = j.rk.inner.name, .run = repeat_run, .data = &j.rk,
                            .integer_sizes = j.rk.inner.integer_sizes,
                            .memory = j.rk.inner.memory != NULL ? repeat_memory : NULL};
    int rc = measure(&j, &err);
    /* The single-number model of Lastovetsky and Reddy (2007a and 2005): each rank's speed at one
     * size, measured at the same time on every rank as the speed functions were. */
    int want_constant = o->split == SPLIT_CONSTANT || o->split == -1;
    double speed1 = 0;
    if (rc == 0 && want_constant) {
        dls_bench_point pt;
        dls_status st = dls_bench_measure(&j.kernel, &j.bp.bench, &o->const_rows, 1, &pt, &err);
        speed1 = st == DLS_OK ? pt.speed : -1;
    }
    if (rc == 0 && !job_alloc(&j)) {
        if (j.rank == 0)
            fprintf(stderr, "mpi_matmul: out of memory\n");
        rc = 2;
    }
    if (rc == 0 && want_constant)
        rc = gather_constant(&j, speed1, &err);
    if (rc == 0)
        rc = prepare(&j, &err);
    if (rc == 0) {
        for (int s = 0; s < SPLIT_COUNT; s++)
            if ((o->split == -1 || o->split == s) && run_split(&j, s, &rc, &err) != 0)
                break;
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    job_free(&j);
    dls_kernel_free(&j.rk.inner);
    MPI_Finalize();
    return rc;
}
