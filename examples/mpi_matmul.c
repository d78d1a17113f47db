/* mpi_matmul: the striped matrix product C = A B of paper 000 across the ranks of an MPI job.
 * Every rank measures its speed function for the gemm-rows kernel in the same run
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    options o;
    if (parse(argc, argv, rank, &o) != 0) {
        MPI_Finalize();
        return 2;
    }
    /* ranks share the cores of a node: one OpenBLAS thread each unless told otherwise */
    openblas_set_num_threads(o.threads);
    const int n = o.n;
    const int reps = o.hetero ? rank + 1 : 1;

    dls_error err;
    dls_error_clear(&err);
    dls_blas_kernel_params kp;
    dls_blas_kernel_params_init(&kp);
    kp.fixed = n;
    kp.threads = (unsigned)o.threads;
    repeat_kernel rk = {.reps = reps};
    dls_platform *fpm = NULL, *constant = NULL, *even = NULL;
    double *a = NULL, *b = NULL, *c = NULL, *ref = NULL, *my_a = NULL, *my_c = NULL;
    int rc = 0;
    dls_status st = dls_blas_kernel_create(DLS_KERNEL_GEMM_ROWS, &kp, &rk.inner, &err);
    if (st != DLS_OK) {
        /* every rank fails alike here: the parameters are the same everywhere */
        if (rank == 0)
            fprintf(stderr, "%s\n", err.message);
        MPI_Finalize();
        return 2;
    }
    dls_kernel kernel = {.name = rk.inner.name, .run = repeat_run, .data = &rk,
                         .integer_sizes = rk.inner.integer_sizes,
                         .memory = rk.inner.memory != NULL ? repeat_memory : NULL};

    dls_mpi_bench_params bp;
    dls_mpi_bench_params_init(&bp);
    /* sizes far below a share never matter here, and on a shared machine runs shorter than
     * a time slice would see a core of their own */
    bp.bench.min_size = fmin(o.max_rows, fmax(1, floor(o.n / (16.0 * p))));
    bp.bench.max_size = o.max_rows;
    bp.bench.max_points = 8;
    bp.bench.time_budget = o.budget;
    bp.bench.size_time_cap = o.budget / 4;
    bp.bench.max_reps = 20;
    if (o.platform != NULL) {
        /* measured before, by dlsched bench --mpi: rank 0 reads it (it alone partitions) */
        if (rank == 0) {
            st = dls_platform_read_file(o.platform, &fpm, &err);
            if (st != DLS_OK) {
                fprintf(stderr, "%s\n", err.message);
                rc = 2;
            } else if (dls_platform_count(fpm) != (size_t)p) {
                fprintf(stderr, "mpi_matmul: %s has %zu processors for %d ranks\n", o.platform,
                        dls_platform_count(fpm), p);
                rc = 2;
            }
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc != 0)
            goto done;
    } else {
        st = dls_mpi_bench(MPI_COMM_WORLD, &kernel, &bp, &fpm, &err);
        if (st != DLS_OK) {
            /* collective: every rank has the same message; one prints it */
            if (rank == 0)
                fprintf(stderr, "%s\n", err.message);
            rc = 2;
            goto done;
        }
    }

    /* The single-number model of papers 000 and 004: each rank's speed at one size, measured
     * at the same time on every rank as the speed functions were. */
    int want_constant = o.split == SPLIT_CONSTANT || o.split == -1;
    double speed1 = 0;
    if (want_constant) {
        dls_bench_point pt;
        st = dls_bench_measure(&kernel, &bp.bench, &o.const_rows, 1, &pt, &err);
        speed1 = st == DLS_OK ? pt.speed : -1;
    }
    double *speeds = malloc((size_t)p * sizeof *speeds);
    uint64_t *counts = malloc((size_t)p * sizeof *counts);
    int *sendcounts = malloc((size_t)p * sizeof *sendcounts);
    int *displs = malloc((size_t)p * sizeof *displs);
    double *times = malloc((size_t)p * (size_t)o.runs * sizeof *times);
    double *mine = malloc((size_t)o.runs * sizeof *mine);
    b = malloc((size_t)n * (size_t)n * sizeof *b);
    int ok = speeds && counts && sendcounts && displs && times && mine && b;
    if (rank == 0) {
        a = malloc((size_t)n * (size_t)n * sizeof *a);
        c = malloc((size_t)n * (size_t)n * sizeof *c);
        ref = malloc((size_t)n * (size_t)n * sizeof *ref);
        ok = ok && a && c && ref;
    }
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank == 0)
            fprintf(stderr, "mpi_matmul: out of memory\n");
        rc = 2;
        goto free_all;
    }
    if (want_constant) {
        MPI_Gather(&speed1, 1, MPI_DOUBLE, speeds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            for (int r = 0; r < p; r++)
                if (!(speeds[r] > 0)) {
                    fprintf(stderr, "mpi_matmul: rank %d could not measure its speed at %g rows\n",
                            r, o.const_rows);
                    rc = 2;
                }
            if (rc == 0 && constant_platform(fpm, speeds, &constant, &err) != DLS_OK) {
                fprintf(stderr, "%s\n", err.message);
                rc = 2;
            }
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc != 0)
            goto free_all;
    }
    if (rank == 0) {
        /* equal speeds give equal shares (to one row) */
        for (int r = 0; r < p; r++)
            speeds[r] = 1;
        if (constant_platform(fpm, speeds, &even, &err) != DLS_OK) {
            fprintf(stderr, "%s\n", err.message);
            rc = 2;
        }
        fill(a, (size_t)n * (size_t)n, 1);
        fill(b, (size_t)n * (size_t)n, 2);
        /* the reference: the whole product on one rank */
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0,
                    ref, n);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rc != 0)
        goto free_all;
    MPI_Bcast(b, n * n, MPI_DOUBLE, 0, MPI_COMM_WORLD);

    for (int s = 0; s < SPLIT_COUNT; s++) {
        if (o.split != -1 && o.split != s)
            continue;
        const dls_platform *by = s == SPLIT_FPM ? fpm : s == SPLIT_EVEN ? even : constant;
        uint64_t my_rows = 0, my_first = 0;
        st = dls_mpi_partition(MPI_COMM_WORLD, rank == 0 ? by : NULL, (uint64_t)n, NULL, &my_rows,
                               &my_first, counts, &err);
        if (st != DLS_OK) {
            if (rank == 0)
                fprintf(stderr, "%s\n", err.message);
            rc = 2;
            break;
        }
        for (int r = 0, at = 0; r < p; r++) {
            sendcounts[r] = (int)counts[r] * n;
            displs[r] = at;
            at += sendcounts[r];
        }
        free(my_a);
        free(my_c);
        /* one element at least, so that a rank given no rows still has valid buffers */
        my_a = malloc(((size_t)my_rows * (size_t)n + 1) * sizeof *my_a);
        my_c = malloc(((size_t)my_rows * (size_t)n + 1) * sizeof *my_c);
        ok = my_a != NULL && my_c != NULL;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all_ok) {
            if (rank == 0)
                fprintf(stderr, "mpi_matmul: out of memory\n");
            rc = 2;
            break;
        }
        MPI_Scatterv(a, sendcounts, displs, MPI_DOUBLE, my_a, sendcounts[rank], MPI_DOUBLE, 0,
                     MPI_COMM_WORLD);
        for (int run = 0; run < o.runs; run++) {
            /* the ranks start together, as they measured together */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now();
            for (int i = 0; i < reps && my_rows > 0; i++)
                cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)my_rows, n, n, 1.0,
                            my_a, n, b, n, 0.0, my_c, n);
            mine[run] = now() - t0;
        }
        MPI_Gather(mine, o.runs, MPI_DOUBLE, times, o.runs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        MPI_Gatherv(my_c, sendcounts[rank], MPI_DOUBLE, c, sendcounts, displs, MPI_DOUBLE, 0,
                    MPI_COMM_WORLD);
        if (rank != 0)
            continue;

        /* |C - C_ref| against |A| |B| n eps: the rows were computed by other calls, whose
         * blocking may sum in another order */
        double diff = 0, scale = 0;
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++) {
            diff = fmax(diff, fabs(c[i] - ref[i]));
            scale = fmax(scale, fabs(ref[i]));
        }
        int right = diff <= 1e-12 * (double)n * fmax(scale, 1.0);
        if (!right) {
            fprintf(stderr, "mpi_matmul: split %s: C differs from the one-rank product by %g\n",
                    split_names[s], diff);
            rc = 1;
        }
        /* the makespan of each run, then the median run; each rank's median time */
        double *spans = malloc((size_t)o.runs * sizeof *spans);
        double *col = malloc((size_t)o.runs * sizeof *col);
        if (spans == NULL || col == NULL) {
            free(spans);
            free(col);
            rc = 2;
            continue;
        }
        for (int run = 0; run < o.runs; run++) {
            spans[run] = 0;
            for (int r = 0; r < p; r++)
                spans[run] = fmax(spans[run], times[r * o.runs + run]);
        }
        double measured_span = median(spans, o.runs);
        double predicted_span = 0;
        printf("split %s: %d x %d product, %s\n", split_names[s], n, n,
               right ? "C right" : "C WRONG");
        for (int r = 0; r < p; r++) {
            /* the model's time is rows / speed in seconds per n^2 multiply-adds */
            const dls_platform *model_of = s == SPLIT_EVEN ? fpm : by;
            double predicted =
                (double)n * n * dls_model_time(dls_platform_model(model_of, (size_t)r),
                                               (double)counts[r]);
            predicted_span = fmax(predicted_span, predicted);
            for (int run = 0; run < o.runs; run++)
                col[run] = times[r * o.runs + run];
            printf("result example=matmul split=%s rank=%d name=%s rows=%llu predicted=%.6g "
                   "measured=%.6g\n",
                   split_names[s], r, dls_platform_name(fpm, (size_t)r),
                   (unsigned long long)counts[r], predicted, median(col, o.runs));
        }
        printf("makespan example=matmul split=%s predicted=%.6g measured=%.6g error=%.4f\n",
               split_names[s], predicted_span, measured_span,
               (measured_span - predicted_span) / predicted_span);
        free(spans);
        free(col);
    }
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);

free_all:
    free(speeds);
    free(counts);
    free(sendcounts);
    free(displs);
    free(times);
    free(mine);
done:
    free(a);
    free(b);
    free(c);
    free(ref);
    free(my_a);
    free(my_c);
    dls_platform_free(fpm);
    dls_platform_free(constant);
    dls_platform_free(even);
    dls_kernel_free(&rk.inner);
    MPI_Finalize();
    return rc;
}
