/* Tests of libdlsched_mpi, run by tests/mpi/run_mpi.sh under mpirun with 3 and 4 ranks:
 * measuring every rank (simulated kernels of different speeds), the platform identical on
 * every rank, logs and resuming, failures on one rank reaching every rank with the same
 * message, parameters that differ between ranks, the partition and the star schedule
 * across ranks (every unit processed exactly once). Each check runs on every rank; the
 * program exits 1 on any rank where one fails (mpirun then fails).
 *
 * Usage: test_mpi TMPDIR (a directory for the logs, shared by the ranks: one host). */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dlsched/mpi.h>

static int rank, size, failures;

static void check_(int ok, const char *what, int line)
{
    if (!ok) {
        fprintf(stderr, "rank %d: test_mpi.c:%d: FAILED: %s\n", rank, line, what);
        failures++;
    }
}
#define CHECK(cond) check_((cond), #cond, __LINE__)

/* The same value on every rank? */
static int same_everywhere(unsigned long long v)
{
    unsigned long long lo, hi;
    MPI_Allreduce(&v, &lo, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&v, &hi, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    return lo == hi;
}

static unsigned long long hash_text(const char *s)
{
    unsigned long long h = 14695981039346656037ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Rank r's true speed function: flat, then falling past a size that grows with r. */
static dls_model *true_model(int r)
{
    double x[3] = {1, 800.0 * (r + 1), 10000};
    double s[3] = {100.0 * (r + 1), 100.0 * (r + 1), 40.0 * (r + 1)};
    dls_model *m = NULL;
    dls_model_create_points(3, x, s, NULL, NULL, &m, NULL);
    return m;
}

static void small_params(dls_mpi_bench_params *p)
{
    dls_mpi_bench_params_init(p);
    p->bench.min_size = 10;
    p->bench.max_size = 4000;
    p->bench.initial_points = 3;
    p->bench.max_points = 9;
    p->bench.min_reps = 2;
    p->bench.max_reps = 3;
}

/* Counts the runs of a build (on_run). */
static int count_run(const dls_bench_progress *pr, void *data)
{
    (void)pr;
    ++*(int *)data;
    return 0;
}

/* The measured platform: one processor a rank, named host:rank, with speeds that follow
 * each rank's function, identical on every rank. */
static void check_measured(const dls_platform *pl, int runs)
{
    CHECK(runs > 0);
    CHECK(dls_platform_count(pl) == (size_t)size);
    char host[MPI_MAX_PROCESSOR_NAME];
    int hl;
    MPI_Get_processor_name(host, &hl);
    for (int r = 0; r < size; r++) {
        char want[MPI_MAX_PROCESSOR_NAME + 16];
        snprintf(want, sizeof want, "%s:%d", host, r);
        CHECK(strcmp(dls_platform_name(pl, (size_t)r), want) == 0);
        const dls_model *m = dls_platform_model(pl, (size_t)r);
        CHECK(dls_model_has_bands(m));
        /* the measured speeds follow rank r's function within the noise (1%) and the
         * interpolation */
        dls_model *t = true_model(r);
        for (double x = 20; x <= 3900; x *= 1.7) {
            double rel = fabs(dls_model_speed(m, x) / dls_model_speed(t, x) - 1);
            CHECK(rel < 0.15);
        }
        dls_model_free(t);
        CHECK(dls_platform_limit(pl, (size_t)r) > 0); /* the largest size measured */
    }
    /* identical on every rank, bit for bit (the JSON text holds every digit) */
    char *text = NULL;
    CHECK(dls_platform_to_string(pl, &text, NULL) == DLS_OK);
    CHECK(same_everywhere(hash_text(text)));
    free(text);
}

/* Resumed from the logs: nothing measured again, the same platform. */
static void check_resumed(dls_kernel *k, dls_mpi_bench_params *p, const dls_platform *pl,
                          int *runs)
{
    dls_error err;
    *runs = 0;
    p->resume = 1;
    dls_platform *again = NULL;
    dls_status st = dls_mpi_bench(MPI_COMM_WORLD, k, p, &again, &err);
    CHECK(st == DLS_OK);
    if (st != DLS_OK)
        fprintf(stderr, "rank %d: %s\n", rank, err.message);
    CHECK(*runs == 0);
    CHECK(again != NULL && dls_platform_equal(pl, again));
    dls_platform_free(again);
}

/* A log written for other parameters is refused on every rank. */
static void check_other_parameters_refused(dls_kernel *k, const char *log)
{
    dls_mpi_bench_params p;
    dls_error err;
    small_params(&p);
    p.log = log;
    p.resume = 1;
    p.bench.precision = 0.02;
    dls_platform *again = NULL;
    dls_status st = dls_mpi_bench(MPI_COMM_WORLD, k, &p, &again, &err);
    CHECK(st == DLS_EDATA);
    CHECK(again == NULL);
    CHECK(strstr(err.message, "rank 0 (") != NULL);
    CHECK(strstr(err.message, "another measurement") != NULL);
    CHECK(same_everywhere(hash_text(err.message)));
}

/* A killed job's last line, half written, is dropped on resume. */
static void check_half_line_dropped(dls_kernel *k, const char *log, const dls_platform *pl)
{
    if (rank == 0) {
        char path[600];
        snprintf(path, sizeof path, "%s.0", log);
        FILE *f = fopen(path, "a");
        CHECK(f != NULL);
        if (f != NULL) {
            fputs("0x1.9p+3 0x1.2", f);
            fclose(f);
        }
    }
    dls_mpi_bench_params p;
    dls_error err;
    small_params(&p);
    p.log = log;
    p.resume = 1;
    int runs = 0;
    p.bench.on_run = count_run;
    p.bench.on_run_data = &runs;
    dls_platform *again = NULL;
    dls_status st = dls_mpi_bench(MPI_COMM_WORLD, k, &p, &again, &err);
    CHECK(st == DLS_OK);
    CHECK(again != NULL && dls_platform_equal(pl, again));
    dls_platform_free(again);
}

static void test_bench(const char *dir)
{
    dls_model *tm = true_model(rank);
    dls_kernel k;
    CHECK(dls_model_kernel_create(tm, 0.01, 0, &k, NULL) == DLS_OK);
    dls_mpi_bench_params p;
    small_params(&p);
    char log[512];
    snprintf(log, sizeof log, "%s/bench", dir);
    p.log = log;
    int runs = 0;
    p.bench.on_run = count_run;
    p.bench.on_run_data = &runs;
    dls_platform *pl = NULL;
    dls_error err;
    dls_status st = dls_mpi_bench(MPI_COMM_WORLD, &k, &p, &pl, &err);
    CHECK(st == DLS_OK);
    if (st != DLS_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, err.message);
        dls_kernel_free(&k);
        dls_model_free(tm);
        return;
    }
    check_measured(pl, runs);
    check_resumed(&k, &p, pl, &runs);
    check_other_parameters_refused(&k, log);
    check_half_line_dropped(&k, log, pl);
    dls_platform_free(pl);
    dls_kernel_free(&k);
    dls_model_free(tm);
}

/* A kernel that fails on one rank. */
static double failing_run(double size_, double *work, void *data)
{
    (void)data;
    *work = size_;
    return -1;
}

static void test_bench_failures(void)
{
    dls_model *tm = true_model(rank);
    dls_kernel k;
    CHECK(dls_model_kernel_create(tm, 0.01, 0.002, &k, NULL) == DLS_OK);
    dls_kernel bad = k;
    bad.run = failing_run;
    dls_mpi_bench_params p;
    small_params(&p);
    dls_platform *pl = NULL;
    dls_error err;

    /* the kernel fails on rank 1: every rank returns rank 1's error */
    dls_status st = dls_mpi_bench(MPI_COMM_WORLD, rank == 1 ? &bad : &k, &p, &pl, &err);
    CHECK(st == DLS_EIO);
    CHECK(pl == NULL);
    CHECK(strstr(err.message, "dls_mpi_bench: rank 1 (") != NULL);
    CHECK(same_everywhere(hash_text(err.message)));
    CHECK(same_everywhere((unsigned long long)st));

    /* parameters that differ on the last rank */
    small_params(&p);
    if (rank == size - 1)
        p.bench.precision = 0.1;
    st = dls_mpi_bench(MPI_COMM_WORLD, &k, &p, &pl, &err);
    CHECK(st == DLS_EINVAL);
    char want[64];
    snprintf(want, sizeof want, "rank %d (", size - 1);
    CHECK(strstr(err.message, want) != NULL);
    CHECK(strstr(err.message, "precision") != NULL);
    CHECK(same_everywhere(hash_text(err.message)));

    /* a bad argument on rank 2 only */
    small_params(&p);
    st = dls_mpi_bench(MPI_COMM_WORLD, rank == 2 ? NULL : &k, &p, &pl, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "rank 2 (") != NULL);
    CHECK(strstr(err.message, "NULL kernel") != NULL);
    CHECK(pl == NULL);

    /* kernels of different names */
    dls_kernel other = k;
    other.name = "other";
    small_params(&p);
    st = dls_mpi_bench(MPI_COMM_WORLD, rank == 1 ? &other : &k, &p, &pl, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "kernel name") != NULL);

    /* a log that cannot be written (its directory does not exist) */
    small_params(&p);
    p.log = "/nonexistent-dir-of-dlsched/log";
    st = dls_mpi_bench(MPI_COMM_WORLD, &k, &p, &pl, &err);
    CHECK(st == DLS_EIO);
    CHECK(strstr(err.message, "cannot write the log") != NULL);
    dls_kernel_free(&k);
    dls_model_free(tm);
}

/* Constant speeds 1, 2, 3, ... */
static dls_platform *constant_platform(int n, int with_links)
{
    dls_platform *pl = NULL;
    dls_platform_create(&pl, NULL);
    for (int i = 0; i < n; i++) {
        dls_model *m = NULL;
        dls_model_create_constant(i + 1.0, &m, NULL);
        char name[16];
        snprintf(name, sizeof name, "r%d", i);
        size_t idx;
        dls_platform_add(pl, name, m, &idx, NULL);
        if (with_links && i > 0)
            dls_platform_set_link(pl, idx, 0.01, 1e-4 * (i + 1), NULL);
        dls_model_free(m);
    }
    return pl;
}

static void test_partition(void)
{
    dls_platform *pl = rank == 0 ? constant_platform(size, 0) : NULL;
    uint64_t n = 1000003, cnt = 0, off = 0;
    uint64_t *all = calloc((size_t)size, sizeof *all);
    dls_error err;
    dls_status st = dls_mpi_partition(MPI_COMM_WORLD, pl, n, NULL, &cnt, &off, all, &err);
    CHECK(st == DLS_OK);
    uint64_t sum = 0, at = 0;
    double speeds = size * (size + 1) / 2.0;
    CHECK(all[rank] == cnt); /* this rank's count is its entry of everyone's */
    for (int r = 0; r < size; r++) {
        if (r == rank)
            CHECK(off == at);
        /* constant speeds: shares proportional to the speeds, within a unit */
        CHECK(fabs((double)all[r] - (double)n * (r + 1) / speeds) <= 1.0);
        sum += all[r];
        at += all[r];
    }
    CHECK(sum == n);
    unsigned long long h = 0;
    for (int r = 0; r < size; r++)
        h = h * 1000003ull + all[r];
    CHECK(same_everywhere(h));
    dls_platform_free(pl);

    /* a platform of the wrong size: every rank fails alike, outputs untouched */
    pl = rank == 0 ? constant_platform(size + 1, 0) : NULL;
    cnt = 77;
    st = dls_mpi_partition(MPI_COMM_WORLD, pl, n, NULL, &cnt, &off, NULL, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(cnt == 77);
    CHECK(strstr(err.message, "rank 0 (") != NULL);
    dls_platform_free(pl);

    /* different n on one rank */
    pl = rank == 0 ? constant_platform(size, 0) : NULL;
    st = dls_mpi_partition(MPI_COMM_WORLD, pl, rank == 1 ? n + 1 : n, NULL, &cnt, &off, NULL,
                           &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "different n") != NULL);
    dls_platform_free(pl);
    free(all);
}

/* The plan's shape: a count for every rank summing to the units, the order a permutation
 * of the ranks, the root's share last and the others in rank order, every other rank's
 * data arriving before the root's. */
static void check_plan_shape(const dls_mpi_plan *plan, int root, uint64_t units)
{
    CHECK(dls_mpi_plan_size(plan) == (size_t)size);
    CHECK((rank == root) == (dls_mpi_plan_schedule(plan) != NULL));
    uint64_t sum = 0;
    for (int r = 0; r < size; r++)
        sum += dls_mpi_plan_count(plan, r);
    CHECK(sum == units);
    /* the order is a permutation of the ranks */
    int *seen = calloc((size_t)size, sizeof *seen);
    for (int k = 0; k < size; k++) {
        int r = dls_mpi_plan_order(plan)[k];
        CHECK(r >= 0 && r < size && !seen[r]);
        if (r >= 0 && r < size)
            seen[r] = 1;
    }
    free(seen);
    CHECK(dls_mpi_plan_makespan(plan) > 0);
    /* the root keeps its share last (one thread: it sends, then computes), the others
     * in rank order (the platform's) */
    int served = 0, prev = -1;
    for (int k = 0; k < size; k++) {
        int r = dls_mpi_plan_order(plan)[k];
        if (dls_mpi_plan_count(plan, r) == 0)
            continue;
        served++;
        if (r != root) {
            CHECK(r > prev);
            prev = r;
        }
    }
    CHECK(served == size);
    CHECK(dls_mpi_plan_order(plan)[size - 1] == root);
    double root_arrival = 0;
    CHECK(dls_mpi_plan_predicted(plan, root, &root_arrival, NULL) == DLS_OK);
    for (int r = 0; r < size; r++) {
        double a = 0;
        dls_mpi_plan_predicted(plan, r, &a, NULL);
        if (r != root)
            CHECK(a <= root_arrival);
    }
}

/* The units (their indices) scattered: every one processed exactly once; the measured
 * times gathered. */
static void check_units_scattered(dls_mpi_plan *plan, int root, uint64_t units)
{
    dls_error err;
    dls_status st;
    /* the units: their indices; every one processed exactly once */
    uint32_t *buf = NULL;
    if (rank == root) {
        buf = malloc(units * sizeof *buf);
        for (uint64_t i = 0; i < units; i++)
            buf[i] = (uint32_t)i;
    }
    uint64_t mine = dls_mpi_plan_count(plan, rank), first = dls_mpi_plan_offset(plan, rank);
    uint32_t *got = malloc((mine ? mine : 1) * sizeof *got);
    st = dls_mpi_plan_scatter(MPI_COMM_WORLD, plan, buf, sizeof *buf, got, &err);
    CHECK(st == DLS_OK);
    unsigned long long local = 0, total = 0, n_local = mine, n_total = 0;
    for (uint64_t i = 0; i < mine; i++) {
        CHECK(got[i] == first + i);
        local += got[i];
    }
    CHECK(dls_mpi_plan_done(plan, NULL) == DLS_OK);
    MPI_Allreduce(&local, &total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&n_local, &n_total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    CHECK(n_total == units);
    CHECK(total == units * (units - 1) / 2);
    double *arr = malloc((size_t)size * sizeof *arr), *fin = malloc((size_t)size * sizeof *fin);
    st = dls_mpi_plan_measured(MPI_COMM_WORLD, plan, arr, fin, &err);
    CHECK(st == DLS_OK);
    for (int r = 0; r < size; r++)
        CHECK(arr[r] >= 0 && fin[r] >= arr[r]);
    free(arr);
    free(fin);
    free(got);
    free(buf);
}

/* The timeline file, on the root: every rank, measured and predicted; without a path on
 * the root every rank fails alike. */
static void check_timeline_json(const dls_mpi_plan *plan, int root, const char *dir)
{
    dls_error err;
    dls_status st;
    /* the timeline file, on the root: every rank, measured and predicted */
    char path[600];
    snprintf(path, sizeof path, "%s/timeline-%d.json", dir, root);
    st = dls_mpi_plan_write_json(MPI_COMM_WORLD, plan, path, &err);
    CHECK(st == DLS_OK);
    if (rank == root) {
        FILE *f = fopen(path, "r");
        char doc[1 << 14];
        size_t len = f != NULL ? fread(doc, 1, sizeof doc - 1, f) : 0;
        doc[len] = '\0';
        if (f != NULL)
            fclose(f);
        CHECK(strstr(doc, "\"predicted_makespan\": ") != NULL);
        CHECK(strstr(doc, "\"kind\": \"measured\"") != NULL);
        for (int r = 0; r < size; r++) {
            char name[64];
            snprintf(name, sizeof name, "{\"name\": \"rank %d\", \"rank\": %d, \"load\": %llu,", r, r,
                     (unsigned long long)dls_mpi_plan_count(plan, r));
            CHECK(strstr(doc, name) != NULL);
        }
    }
    /* no path on the root: every rank fails alike */
    st = dls_mpi_plan_write_json(MPI_COMM_WORLD, plan, NULL, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "no path on the root") != NULL);
}

/* Errors: a root that is no rank, no units, too many units for the limits. */
static void check_schedule_errors(int root, uint64_t units)
{
    dls_mpi_plan *plan = NULL;
    dls_error err;
    dls_status st;
    st = dls_mpi_schedule(MPI_COMM_WORLD, size, NULL, units, NULL, &plan, &err);
    CHECK(st == DLS_EINVAL && plan == NULL);
    CHECK(strstr(err.message, "is not a rank") != NULL);
    dls_platform *pl = rank == root ? constant_platform(size, 1) : NULL;
    st = dls_mpi_schedule(MPI_COMM_WORLD, root, pl, 0, NULL, &plan, &err);
    CHECK(st == DLS_EINVAL && plan == NULL);
    if (pl != NULL)
        for (int r = 0; r < size; r++)
            dls_platform_set_limit(pl, (size_t)r, 10, NULL);
    st = dls_mpi_schedule(MPI_COMM_WORLD, root, pl, units, NULL, &plan, &err);
    CHECK(st == DLS_EDATA && plan == NULL);
    CHECK(strstr(err.message, "capacity") != NULL);
    CHECK(same_everywhere(hash_text(err.message)));
    dls_platform_free(pl);
}

static void test_schedule(int root, const char *dir)
{
    dls_platform *pl = rank == root ? constant_platform(size, 1) : NULL;
    uint64_t units = 100000;
    if (rank == root) {
        /* for `dlsched evaluate --measured` in run_mpi.sh */
        char ppath[600];
        snprintf(ppath, sizeof ppath, "%s/platform-%d.json", dir, root);
        CHECK(dls_platform_write_file(pl, ppath, NULL) == DLS_OK);
    }
    dls_mpi_plan *plan = NULL;
    dls_error err;
    dls_status st = dls_mpi_schedule(MPI_COMM_WORLD, root, pl, units, NULL, &plan, &err);
    CHECK(st == DLS_OK);
    if (st != DLS_OK) {
        fprintf(stderr, "rank %d: %s\n", rank, err.message);
        dls_platform_free(pl);
        return;
    }
    check_plan_shape(plan, root, units);
    check_units_scattered(plan, root, units);
    check_timeline_json(plan, root, dir);
    dls_mpi_plan_free(plan);
    dls_platform_free(pl);
    check_schedule_errors(root, units);
}

/* ---- balancing while running (issue 38) ---- */

static unsigned long long hash_counts(const uint64_t *v, size_t n)
{
    unsigned long long h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ v[i]) * 1099511628211ull;
    return h;
}

/* Carries out the plan from before to the balancer's shares on arrays of known values
 * (each element is its global index) and checks every element of the new block. */
static void check_move(const dls_balance *b, const uint64_t *before)
{
    const uint64_t *after = dls_balance_shares(b);
    uint64_t of = 0, nf = 0;
    for (int r = 0; r < rank; r++) {
        of += before[r];
        nf += after[r];
    }
    uint64_t *old = malloc((before[rank] + 1) * sizeof *old);
    uint64_t *neu = malloc((after[rank] + 1) * sizeof *neu);
    for (uint64_t k = 0; k < before[rank]; k++)
        old[k] = of + k;
    dls_error err;
    dls_status st = dls_mpi_move(MPI_COMM_WORLD, dls_balance_moves(b), before, old, neu,
                                 sizeof *old, &err);
    CHECK(st == DLS_OK);
    if (st != DLS_OK)
        fprintf(stderr, "rank %d: %s\n", rank, err.message);
    int wrong = 0;
    for (uint64_t k = 0; st == DLS_OK && k < after[rank]; k++)
        wrong += neu[k] != nf + k;
    CHECK(wrong == 0);
    free(old);
    free(neu);
}

/* Every rank's input checked, the failure agreed, the balancers left as they were. */
static void check_balance_refused(dls_balance *b)
{
    unsigned long long before = hash_counts(dls_balance_shares(b), (size_t)size);
    dls_balance_info in0, in1;
    dls_balance_get_info(b, &in0, NULL);
    uint64_t share = 77, first = 77;
    dls_error err;
    /* a NaN time on the last rank */
    double t = rank == size - 1 ? NAN : 1.0;
    dls_status st = dls_mpi_balance(MPI_COMM_WORLD, b, t, &share, &first, &err);
    CHECK(st == DLS_EINVAL);
    char want[32];
    snprintf(want, sizeof want, "rank %d (", size - 1);
    CHECK(strstr(err.message, want) != NULL);
    CHECK(strstr(err.message, "nan") != NULL);
    CHECK(same_everywhere(hash_text(err.message)));
    CHECK(share == 77 && first == 77);
    /* a balancer for another count of processors on rank 1 */
    dls_balance *other = NULL;
    if (rank == 1)
        dls_balance_create((size_t)size + 1, 1000, NULL, &other, NULL);
    st = dls_mpi_balance(MPI_COMM_WORLD, rank == 1 ? other : b, 1.0, &share, &first, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "rank 1 (") != NULL);
    CHECK(strstr(err.message, "processors and the communicator") != NULL);
    dls_balance_free(other);
    dls_balance_get_info(b, &in1, NULL);
    CHECK(in1.steps == in0.steps);
    CHECK(hash_counts(dls_balance_shares(b), (size_t)size) == before);
}

/* dls_mpi_move's own refusals: counts before that differ on one rank, a NULL buffer. */
static void check_move_refused(const dls_balance *b, const uint64_t *before)
{
    uint64_t *bad = malloc((size_t)size * sizeof *bad);
    memcpy(bad, before, (size_t)size * sizeof *bad);
    if (rank == 2) {
        bad[0]++;
        bad[1]--;
    }
    uint64_t x[1];
    dls_error err;
    dls_status st = dls_mpi_move(MPI_COMM_WORLD, dls_balance_moves(b), bad, x, x, 8, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(same_everywhere(hash_text(err.message)));
    st = dls_mpi_move(MPI_COMM_WORLD, dls_balance_moves(b), before, rank == 0 ? NULL : x, x,
                      8, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(strstr(err.message, "rank 0 (") != NULL && strstr(err.message, "old_buf") != NULL);
    free(bad);
}

/* Every rank steps its own balancer with its own time (a rank's speed times a random
 * factor): the same shares everywhere, summing to n, and the plan moves every element
 * to its new owner. */
static void test_balance(void)
{
    uint64_t n = 10007;
    dls_balance *b = NULL;
    dls_error err;
    CHECK(dls_balance_create((size_t)size, n, NULL, &b, &err) == DLS_OK);
    uint64_t *before = malloc((size_t)size * sizeof *before);
    srand(17u + (unsigned)rank);
    for (int it = 0; it < 6; it++) {
        memcpy(before, dls_balance_shares(b), (size_t)size * sizeof *before);
        uint64_t mine = before[rank];
        double noise = 1 + 0.02 * ((double)rand() / RAND_MAX - 0.5);
        double t = mine > 0 ? (double)mine / (1000.0 * (rank + 1)) * noise : 0;
        uint64_t share = 0, first = 0;
        dls_status st = dls_mpi_balance(MPI_COMM_WORLD, b, t, &share, &first, &err);
        CHECK(st == DLS_OK);
        if (st != DLS_OK) {
            fprintf(stderr, "rank %d: %s\n", rank, err.message);
            break;
        }
        const uint64_t *sh = dls_balance_shares(b);
        uint64_t sum = 0;
        for (int r = 0; r < size; r++)
            sum += sh[r];
        CHECK(sum == n);
        CHECK(share == sh[rank] && first == dls_balance_first(b)[rank]);
        CHECK(same_everywhere(hash_counts(sh, (size_t)size)));
        check_move(b, before);
        if (it == 2)
            check_move_refused(b, before);
    }
    /* the fastest rank (the last) ends with the most elements */
    CHECK(dls_balance_shares(b)[size - 1] > dls_balance_shares(b)[0]);
    check_balance_refused(b);
    free(before);
    dls_balance_free(b);
}

/* A plan of dls_move_plan_create() between two arbitrary layouts, one rank empty before
 * and another after (NULL buffers there), elements of 3 bytes: every byte where it
 * belongs. */
static void test_move_created(void)
{
    uint64_t *before = malloc((size_t)size * sizeof *before);
    uint64_t *after = malloc((size_t)size * sizeof *after);
    uint64_t total = 0;
    for (int r = 0; r < size; r++)
        total += before[r] = r == 0 ? 0 : 100u * (uint64_t)r + 7;
    uint64_t left = total;
    for (int r = 0; r < size; r++) {
        after[r] = r == size - 1 ? 0 : r == size - 2 ? left : total / (uint64_t)(size + 1);
        left -= after[r];
    }
    dls_move_plan *plan = NULL;
    CHECK(dls_move_plan_create((size_t)size, before, after, &plan, NULL) == DLS_OK);
    uint64_t of = 0, nf = 0;
    for (int r = 0; r < rank; r++) {
        of += before[r];
        nf += after[r];
    }
    unsigned char *old = before[rank] ? malloc(before[rank] * 3) : NULL;
    unsigned char *neu = after[rank] ? malloc(after[rank] * 3) : NULL;
    for (uint64_t k = 0; k < before[rank] * 3; k++)
        old[k] = (unsigned char)((of * 3 + k) * 7 + 1);
    dls_error err;
    dls_status st = dls_mpi_move(MPI_COMM_WORLD, plan, before, old, neu, 3, &err);
    CHECK(st == DLS_OK);
    if (st != DLS_OK)
        fprintf(stderr, "rank %d: %s\n", rank, err.message);
    int wrong = 0;
    for (uint64_t k = 0; st == DLS_OK && k < after[rank] * 3; k++)
        wrong += neu[k] != (unsigned char)((nf * 3 + k) * 7 + 1);
    CHECK(wrong == 0);
    /* counts before agreed everywhere but not the plan's own (50 more on each rank): its
     * transfers fall outside the blocks, refused before anything moves */
    uint64_t *other = malloc((size_t)size * sizeof *other);
    for (int r = 0; r < size; r++)
        other[r] = before[r] + 50;
    unsigned char *o2 = malloc((before[rank] + 50) * 3);
    unsigned char *n2 = malloc((after[rank] + 50) * 3);
    st = dls_mpi_move(MPI_COMM_WORLD, plan, other, o2, n2, 3, &err);
    CHECK(st == DLS_EINVAL);
    CHECK(same_everywhere(hash_text(err.message)));
    CHECK(strstr(err.message, "not the plan's") != NULL);
    free(o2);
    free(n2);
    free(other);
    free(old);
    free(neu);
    dls_move_plan_free(plan);
    free(before);
    free(after);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc != 2 || size < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np N test_mpi TMPDIR (N >= 3)\n");
        MPI_Finalize();
        return 2;
    }
    test_bench(argv[1]);
    test_bench_failures();
    test_partition();
    test_schedule(0, argv[1]);
    test_schedule(size - 1, argv[1]);
    test_balance();
    test_move_created();
    int any = 0;
    MPI_Allreduce(&failures, &any, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_mpi: %d ranks, %s (%d failed checks)\n", size, any ? "FAILED" : "ok", any);
    MPI_Finalize();
    return failures ? 1 : 0;
}
