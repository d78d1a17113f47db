/* mpi_divisible: a divisible load held by rank 0 and processed by every rank of an MPI job,
 * distributed by the star schedule of Drozdowski and Wolniewicz (2003) (dls_mpi_schedule). Rank 0
 * holds V units (blocks of data); each rank filters its units through a checksum. The models are
 * measured in the same run: every rank's speed function for the per-unit work (dls_mpi_bench with a
 * kernel of our own), and the link from rank 0 to each rank (a ping of two sizes). Rank 0
 * sends each rank its units in the schedule's order (dls_mpi_plan_scatter), the ranks say when
 * they are done, and the measured timeline is written beside the predicted one
 * (dls_mpi_plan_write_json). Every unit must be processed exactly once: the sum of the units'
 * checksums, their count and the sum of their indices are compared with one rank's.
 * Uses only the public API (and MPI).
 *
 *   mpicc mpi_divisible.c $(pkg-config --cflags --libs dlsched-mpi) -o mpi_divisible
 *   mpirun -np 4 ./mpi_divisible -V 20000 --hetero --split all -o timeline.json
 *
 * Options:
 *   -V UNITS         the load, in units (default 20000)
 *   --unit-bytes B   bytes of one unit, a multiple of 8 (default 1024)
 *   --rounds R       mixing rounds per 8-byte word of the checksum: the cost of a unit
 *                    (default 8)
 *   --hetero         rank r filters every unit r + 1 times (in its measurements too): a
 *                    reproducible way to give the ranks of one machine different speeds
 *   --split WHAT     fpm (the star schedule of the measured speed functions and links,
 *                    default), even (V / p units each, sent in rank order), constant (the
 *                    star schedule of one speed per rank, measured at --const-units, with the
 *                    same links), or all (the three in turn, with the same measurements)
 *   --budget S       seconds each rank may spend measuring its speed (default 2)
 *   --const-units U  the size at which --split constant measures its single speed (default 16)
 *   --runs K         scatters and computations timed per distribution (default 1): each
 *                    rank's median finish and computation are reported, the makespan is the
 *                    largest of them; on a shared machine one run in a few can lose a
 *                    rank's core to another process for a while, which the median ignores
 *   --max-units U    the largest size a rank measures (default V): each rank holds that many
 *                    units of its own to measure on, which on a thousand simulated ranks is
 *                    more memory than the machine has; beyond it the model extrapolates
 *   -o FILE          the timeline of the first distribution run, measured and predicted, as
 *                    JSON (dls_mpi_plan_write_json)
 *   --measured FILE  the platform measured (speed functions and links), as a platform file
 *   --links FILE     the links from this platform file instead of the ping below: processor
 *                    r's link is rank 0's to rank r, per unit of --unit-bytes, as
 *                    `mpirun -np P dlsched bench --mpi --links --bytes-per-unit B` measures
 *                    them (smpi/flow.sh does so on a simulated cluster)
 *
 * Rank 0 prints the links it measured and, for each distribution, one line per rank and one
 * for the makespan, in key=value form for scripts (tests/bench/bench_mpi.sh):
 *   link rank=1 startup=1.2e-05 rate=3.1e-07
 *   result example=divisible split=fpm rank=1 units=5210 predicted=0.0123 measured=0.0131
 *          predicted_compute=0.0101 compute=0.0104   (on the same line)
 *   makespan example=divisible split=fpm predicted=0.0250 measured=0.0262 error=0.048
 *            predicted_compute=0.0201 compute=0.0213 compute_error=0.060
 * predicted and measured are finish times in seconds from the start of the scatter; predicted
 * is what the distribution's own platform says; the even split has no model of its own and
 * is predicted with the measured speed functions and links as the scatter sends it (the
 * plan's order, rank 0 computing last: dls_schedule_evaluate). error is
 * (measured - predicted) / predicted for the makespans. predicted_compute and compute are the
 * computation alone, predicted (finish - arrival) and measured (from the return of
 * dls_mpi_plan_scatter, which a rank leaves as soon as its data has arrived; rank 0, the
 * root, leaves after its last send and computes its own share only then, whereas the star
 * model's originator and its processor work in parallel). The exit status is 0 when every
 * unit was processed exactly once, 1 when not, 2 for a usage or run error. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpi.h>

#include <dlsched.h>
#include <dlsched/mpi.h>

enum { SPLIT_FPM, SPLIT_EVEN, SPLIT_CONSTANT, SPLIT_COUNT };
static const char *const split_names[SPLIT_COUNT] = {"fpm", "even", "constant"};

typedef struct options {
    uint64_t units;
    size_t unit_bytes;
    int rounds;
    int hetero;
    int split;          /* one of SPLIT_*, or -1 for all */
    double budget;
    double const_units;
    double max_units;
    int runs;
    const char *json;
    const char *links;
    const char *measured;
} options;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v. */
static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_double);
    return count % 2 ? v[count / 2] : 0.5 * (v[count / 2 - 1] + v[count / 2]);
}

static uint64_t splitmix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Unit u: its index in the first word (so that the count check sees which units came),
 * deterministic noise after it. */
static void fill_units(uint64_t *w, uint64_t first, uint64_t count, size_t words)
{
    for (uint64_t u = 0; u < count; u++) {
        uint64_t *unit = w + u * words;
        unit[0] = first + u;
        for (size_t j = 1; j < words; j++)
            unit[j] = splitmix((first + u) * words + j);
    }
}

/* The per-unit work: a checksum whose cost is words x rounds mixing steps. salt makes each
 * repetition a different computation, so that no compiler merges them. */
static uint64_t checksum(const uint64_t *unit, size_t words, int rounds, uint64_t salt)
{
    uint64_t h = 0xCBF29CE484222325ull ^ salt;
    for (size_t j = 0; j < words; j++) {
        uint64_t x = unit[j] ^ salt;
        for (int k = 0; k < rounds; k++)
            x = splitmix(x);
        h = (h ^ x) * 0x100000001B3ull;
    }
    return h;
}

/* The repetitions beyond the first (--hetero) are written here: work that must be done. */
static volatile uint64_t sink;

/* Processes count units, each reps times; returns the sum of their checksums (the first
 * repetition's, the same whatever reps is). */
static uint64_t process(const uint64_t *w, uint64_t count, size_t words, int rounds, int reps)
{
    uint64_t sum = 0;
    for (uint64_t u = 0; u < count; u++) {
        sum += checksum(w + u * words, words, rounds, 0);
        for (int r = 1; r < reps; r++)
            sink = checksum(w + u * words, words, rounds, (uint64_t)r);
    }
    return sum;
}

/* The kernel dls_mpi_bench measures: the same processing on `size` units of its own. */
typedef struct unit_kernel {
    uint64_t *data;     /* options.units units */
    size_t words;
    int rounds, reps;
} unit_kernel;

static double unit_run(double size, double *work, void *data)
{
    const unit_kernel *k = data;
    double t0 = now();
    sink = process(k->data, (uint64_t)size, k->words, k->rounds, k->reps);
    *work = size;
    return now() - t0;
}

static int usage(const char *prog, int rank)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: %s [-V UNITS] [--unit-bytes B] [--rounds R] [--hetero]\n"
                "       [--split fpm|even|constant|all] [--budget S] [--const-units U] [-o FILE]\n"
                "       [--max-units U] [--links FILE] [--measured FILE] [--runs K]\n",
                prog);
    return 2;
}

static int parse(int argc, char **argv, int rank, options *o)
{
    *o = (options){.units = 20000, .unit_bytes = 1024, .rounds = 8, .split = SPLIT_FPM,
                   .budget = 2, .const_units = 16, .runs = 1};
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
        if (strcmp(a, "-V") == 0)
            o->units = strtoull(v, NULL, 10);
        else if (strcmp(a, "--unit-bytes") == 0)
            o->unit_bytes = (size_t)strtoull(v, NULL, 10);
        else if (strcmp(a, "--rounds") == 0)
            o->rounds = atoi(v);
        else if (strcmp(a, "--split") == 0) {
            o->split = -2;
            for (int s = 0; s < SPLIT_COUNT; s++)
                if (strcmp(v, split_names[s]) == 0)
                    o->split = s;
            if (strcmp(v, "all") == 0)
                o->split = -1;
            if (o->split == -2)
                return usage(argv[0], rank);
        } else if (strcmp(a, "--budget") == 0)
            o->budget = atof(v);
        else if (strcmp(a, "--const-units") == 0)
            o->const_units = atof(v);
        else if (strcmp(a, "--max-units") == 0)
            o->max_units = atof(v);
        else if (strcmp(a, "-o") == 0)
            o->json = v;
        else if (strcmp(a, "--links") == 0)
            o->links = v;
        else if (strcmp(a, "--measured") == 0)
            o->measured = v;
        else if (strcmp(a, "--runs") == 0)
            o->runs = atoi(v);
        else
            return usage(argv[0], rank);
    }
    /* a unit is whole words; the load stays addressable (and within what MPI sends in one
     * message: dls_mpi_plan_scatter says so otherwise) */
    if (o->units < 1 || o->units > ((uint64_t)1 << 40) || o->unit_bytes < 8
        || o->unit_bytes % 8 != 0 || o->unit_bytes > ((size_t)1 << 20) || o->rounds < 1
        || !(o->budget > 0) || !(o->const_units >= 1) || o->const_units > (double)o->units
        || !(o->max_units >= 0) || o->max_units > (double)o->units || o->runs < 1
        || o->runs > 1000)
        return usage(argv[0], rank);
    if (o->max_units == 0)
        o->max_units = (double)o->units;
    o->max_units = floor(fmax(o->max_units, o->const_units));
    return 0;
}

/* Round trips per size of the link's ping. */
enum { PING_TRIES = 7 };

/* The link to each rank, measured from rank 0: the shortest of a few round trips (a send of
 * x units, a one-byte reply) at two sizes; the rate is the slope between them, the startup
 * what is left at the small size, halved for the reply's own latency. Each try sends other
 * units into another place, as the scatter sends each chunk once: on this kind of machine
 * a region sent again goes several times faster than the first time (the pages are already
 * mapped for the single-copy transfer), which made a ping of one buffer predict sends 30 to
 * 100 times too fast. Rank r's results land in startup[r] and rate[r] on rank 0 (rank 0
 * keeps its own share: no link). */
static void measure_links(const options *o, const uint64_t *root_data, uint64_t *buf,
                          uint64_t big, int rank, int p, double *startup, double *rate)
{
    const uint64_t sizes[2] = {1, big};
    const size_t words = o->unit_bytes / 8;
    char ack = 0;
    for (int r = 1; r < p; r++) {
        double best[2] = {INFINITY, INFINITY};
        for (int s = 0; s < 2; s++)
            for (int t = 0; t < PING_TRIES; t++) {
                int bytes = (int)(sizes[s] * o->unit_bytes);
                uint64_t at = ((uint64_t)((r - 1) * PING_TRIES + t) * big) % (o->units - big + 1);
                if (rank == 0) {
                    double t0 = now();
                    MPI_Send(root_data + at * words, bytes, MPI_BYTE, r, 0, MPI_COMM_WORLD);
                    MPI_Recv(&ack, 1, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    best[s] = fmin(best[s], now() - t0);
                } else if (rank == r) {
                    MPI_Recv(buf + at * words, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
                    MPI_Send(&ack, 1, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
                }
            }
        if (rank == 0) {
            double c = big > 1 ? fmax(0, (best[1] - best[0]) / (double)(big - 1)) : 0;
            rate[r] = c;
            startup[r] = fmax(0, (best[0] - c) / 2);
        }
    }
}

/* Rank 0: the links of @p path's processors into startup[] and rate[] (rank r's at r). */
static int read_links(const char *path, int p, double *startup, double *rate)
{
    dls_error err;
    dls_platform *pl = NULL;
    if (dls_platform_read_file(path, &pl, &err) != DLS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 2;
    }
    int rc = 0;
    if (dls_platform_count(pl) != (size_t)p) {
        fprintf(stderr, "mpi_divisible: %s has %zu processors for %d ranks\n", path,
                dls_platform_count(pl), p);
        rc = 2;
    }
    for (int r = 1; rc == 0 && r < p; r++)
        if (!dls_platform_has_link(pl, (size_t)r)) {
            fprintf(stderr, "mpi_divisible: %s: processor %s has no link\n", path,
                    dls_platform_name(pl, (size_t)r));
            rc = 2;
        } else
            dls_platform_link(pl, (size_t)r, &startup[r], &rate[r]);
    dls_platform_free(pl);
    return rc;
}

/* Rank 0's platform: the models of @p models (or constant speeds when @p speeds is not
 * NULL), with the links measured (none when @p links is 0). */
static dls_status build_platform(const dls_platform *models, const double *speeds, int links,
                                 const double *startup, const double *rate, dls_platform **out,
                                 dls_error *err)
{
    dls_platform *pl;
    dls_status st = dls_platform_create(&pl, err);
    for (size_t i = 0; st == DLS_OK && i < dls_platform_count(models); i++) {
        dls_model *m = NULL;
        if (speeds != NULL)
            st = dls_model_create_constant(speeds[i], &m, err);
        if (st == DLS_OK)
            st = dls_platform_add(pl, dls_platform_name(models, i),
                                  m != NULL ? m : dls_platform_model(models, i), NULL, err);
        dls_model_free(m);
        if (st == DLS_OK && links && i > 0)
            st = dls_platform_set_link(pl, i, startup[i], rate[i], err);
    }
    if (st == DLS_OK)
        *out = pl;
    else
        dls_platform_free(pl);
    return st;
}

/* Rank 0: what @p platform (the measured models and links) predicts for the loads of
 * @p plan as the scatter runs them: the ranks in the plan's order, rank 0 last with a free
 * link (one thread sends, then computes its own share). Finish and arrival times by rank. */
static dls_status predict_as_run(const dls_platform *platform, const dls_mpi_plan *plan, int p,
                                 const dls_schedule_params *sp, double *arrival,
                                 double *finish, dls_error *err)
{
    const int *order = dls_mpi_plan_order(plan);
    double *loads = malloc((size_t)p * sizeof *loads);
    dls_platform *q = NULL;
    dls_schedule *ev = NULL;
    dls_status st = loads != NULL ? dls_platform_create(&q, err) : DLS_ENOMEM;
    for (int j = 0; st == DLS_OK && j < p; j++) {
        size_t r = (size_t)order[j], at = 0;
        double S = 0, C = 0;
        if (r != 0)
            dls_platform_link(platform, r, &S, &C);
        st = dls_platform_add(q, dls_platform_name(platform, r), dls_platform_model(platform, r),
                              &at, err);
        if (st == DLS_OK)
            st = dls_platform_set_link(q, at, S, C, err);
        loads[j] = (double)dls_mpi_plan_count(plan, (int)r);
    }
    dls_schedule_params par = *sp;
    par.order = DLS_ORDER_GIVEN;
    par.originator_computes = 0;
    if (st == DLS_OK)
        st = dls_schedule_evaluate(q, loads, &par, &ev, err);
    for (int j = 0; st == DLS_OK && j < p; j++) {
        /* the evaluated schedule's positions are q's, the plan's order */
        arrival[order[j]] = dls_schedule_send_end(ev)[j];
        finish[order[j]] = dls_schedule_finish(ev)[j];
    }
    dls_schedule_free(ev);
    dls_platform_free(q);
    free(loads);
    return st;
}

/* Everything one rank holds for the run, freed by job_free(). */
typedef struct job {
    options o;
    int rank, p;
    size_t words;
    int reps;
    uint64_t big;           /* the large ping's units */
    double *startup, *rate; /* rank 0: the links, rank r's at r */
    double *speeds;         /* rank 0: --split constant's speeds */
    double *finish, *compute;           /* rank 0: each rank's median over the runs */
    double *finish_runs, *compute_runs; /* rank 0: runs x p */
    double *column;                     /* runs: one rank's times, for its median */
    double *even_arrival, *even_finish; /* rank 0: the even split's prediction */
    unit_kernel uk;
    uint64_t *load;         /* rank 0: the V units */
    uint64_t *mine;         /* the units a rank receives */
    uint64_t expected_sum;  /* rank 0: the checksums of every unit, on one rank */
    dls_kernel kernel;
    dls_mpi_bench_params bp;
    dls_platform *measured, *plat[SPLIT_COUNT];
} job;

/* Allocates j's buffers and fills the units; returns whether every rank could (collective). */
static int job_alloc(job *j)
{
    const options *o = &j->o;
    size_t p = (size_t)j->p, runs = (size_t)o->runs;
    j->startup = calloc(p, sizeof *j->startup);
    j->rate = calloc(p, sizeof *j->rate);
    j->speeds = calloc(p, sizeof *j->speeds);
    j->finish = calloc(p, sizeof *j->finish);
    j->compute = calloc(p, sizeof *j->compute);
    j->finish_runs = calloc(p * runs, sizeof *j->finish_runs);
    j->compute_runs = calloc(p * runs, sizeof *j->compute_runs);
    j->column = calloc(runs, sizeof *j->column);
    j->even_arrival = calloc(p, sizeof *j->even_arrival);
    j->even_finish = calloc(p, sizeof *j->even_finish);
    /* the kernel's own units (every rank: the ping receives into them too, all V of them),
     * and the load (rank 0) */
    const uint64_t own = o->links != NULL ? (uint64_t)o->max_units : o->units;
    j->uk = (unit_kernel){.data = malloc((size_t)own * o->unit_bytes), .words = j->words,
                          .rounds = o->rounds, .reps = j->reps};
    j->load = j->rank == 0 ? malloc((size_t)o->units * o->unit_bytes) : NULL;
    int ok = j->startup && j->rate && j->speeds && j->finish && j->compute && j->finish_runs
             && j->compute_runs && j->column && j->even_arrival && j->even_finish
             && j->uk.data && (j->rank != 0 || j->load);
    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok)
        return 0;
    /* the kernel's units are not the load's: a rank measures before it has any */
    fill_units(j->uk.data, (uint64_t)1 << 41, own, j->words);
    if (j->rank == 0) {
        fill_units(j->load, 0, o->units, j->words);
        /* the reference: every unit once, on one rank */
        j->expected_sum = process(j->load, o->units, j->words, o->rounds, 1);
    }
    return 1;
}

static void job_free(job *j)
{
    free(j->startup);
    free(j->rate);
    free(j->speeds);
    free(j->finish);
    free(j->compute);
    free(j->finish_runs);
    free(j->compute_runs);
    free(j->column);
    free(j->even_arrival);
    free(j->even_finish);
    free(j->uk.data);
    free(j->load);
    free(j->mine);
    dls_platform_free(j->measured);
    for (int s = 0; s < SPLIT_COUNT; s++)
        dls_platform_free(j->plat[s]);
}

/* Measures every rank's speed function (dls_mpi_bench, collective) and the links (or reads
 * them: --links). Returns the exit status so far, the same on every rank. */
static int measure(job *j, dls_error *err)
{
    const options *o = &j->o;
    j->kernel = (dls_kernel){.name = "unit-checksum", .run = unit_run, .data = &j->uk,
                             .integer_sizes = 1};
    dls_mpi_bench_params *bp = &j->bp;
    dls_mpi_bench_params_init(bp);
    /* sizes far below a share never matter here, and on a shared machine runs shorter than
     * a time slice would see a core of their own */
    bp->bench.min_size = fmin(o->max_units, fmax(1, floor((double)o->units / (16.0 * j->p))));
    bp->bench.max_size = o->max_units;
    bp->bench.max_points = 8;
    bp->bench.time_budget = o->budget;
    bp->bench.size_time_cap = o->budget / 4;
    bp->bench.max_reps = 20;
    /* no memory formula: any rank may take the whole load */
    bp->memory_limits = 0;
    if (dls_mpi_bench(MPI_COMM_WORLD, &j->kernel, bp, &j->measured, err) != DLS_OK) {
        /* collective: every rank has the same message; one prints it */
        if (j->rank == 0)
            fprintf(stderr, "%s\n", err->message);
        return 2;
    }
    int rc = 0;
    if (o->links != NULL) {
        if (j->rank == 0)
            rc = read_links(o->links, j->p, j->startup, j->rate);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else
        measure_links(o, j->load, j->uk.data, j->big, j->rank, j->p, j->startup, j->rate);
    return rc;
}

/* The single-number model of Lastovetsky and Reddy (2007a and 2005): each rank's speed at one size,
 * measured at the same time on every rank as the speed functions were, into rank 0's
 * plat[SPLIT_CONSTANT]. Returns rank 0's exit status so far. */
static int measure_constant(job *j, dls_error *err)
{
    dls_bench_point pt;
    dls_status st = dls_bench_measure(&j->kernel, &j->bp.bench, &j->o.const_units, 1, &pt, err);
    double speed1 = st == DLS_OK ? pt.speed : -1;
    MPI_Gather(&speed1, 1, MPI_DOUBLE, j->speeds, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (j->rank != 0)
        return 0;
    int rc = 0;
    for (int r = 0; r < j->p; r++)
        if (!(j->speeds[r] > 0)) {
            fprintf(stderr, "mpi_divisible: rank %d could not measure its speed at %g units\n",
                    r, j->o.const_units);
            rc = 2;
        }
    if (rc == 0
        && build_platform(j->measured, j->speeds, 1, j->startup, j->rate,
                          &j->plat[SPLIT_CONSTANT], err) != DLS_OK) {
        fprintf(stderr, "%s\n", err->message);
        rc = 2;
    }
    return rc;
}

/* Rank 0: prints the links and builds the fpm and even platforms (and writes --measured).
 * Returns the exit status so far. */
static int build_platforms(job *j, dls_error *err)
{
    for (int r = 1; r < j->p; r++)
        printf("link rank=%d startup=%.3g rate=%.3g\n", r, j->startup[r], j->rate[r]);
    /* equal speeds and free links give equal shares (to one unit) */
    double *ones = j->finish;
    for (int r = 0; r < j->p; r++)
        ones[r] = 1;
    if (build_platform(j->measured, NULL, 1, j->startup, j->rate, &j->plat[SPLIT_FPM], err)
            != DLS_OK
        || build_platform(j->measured, ones, 0, NULL, NULL, &j->plat[SPLIT_EVEN], err)
               != DLS_OK) {
        fprintf(stderr, "%s\n", err->message);
        return 2;
    }
    if (j->o.measured != NULL
        && dls_platform_write_file(j->plat[SPLIT_FPM], j->o.measured, err) != DLS_OK) {
        fprintf(stderr, "%s\n", err->message);
        return 2;
    }
    return 0;
}

/* What the runs of one split add up to on rank 0: the sums of the checksums, the units and
 * their indices, and whether every run's sums were right. */
typedef struct tally {
    uint64_t total[3];
    int right;
} tally;

/* Scatters and processes the units of plan o.runs times (into units, where a rank's share
 * lies), each rank's finish and computation going to rank 0's *_runs; the first run of the
 * first split writes -o. Every rank leaves together, whichever failed. */
static dls_status scatter_runs(job *j, int s, dls_mpi_plan *plan, uint64_t *units, int first,
                               tally *t, dls_error *err)
{
    const uint64_t count = dls_mpi_plan_count(plan, j->rank);
    /* 0 + 1 + ... + (V - 1), modulo 2^64 as the sums are */
    const uint64_t v = j->o.units;
    const uint64_t index_sum = v % 2 == 0 ? (v / 2) * (v - 1) : v * ((v - 1) / 2);
    const size_t p = (size_t)j->p;
    dls_status st = DLS_OK;
    for (int run = 0; run < j->o.runs && st == DLS_OK; run++) {
        st = dls_mpi_plan_scatter(MPI_COMM_WORLD, plan, j->load, j->o.unit_bytes, units, err);
        uint64_t got[3] = {0, count, 0};
        /* the computation alone, from the scatter's return (for rank 0, after its last
         * send: see the note on compute= above) */
        double busy = 0;
        if (st == DLS_OK) {
            double t0 = now();
            got[0] = process(units, count, j->words, j->o.rounds, j->reps);
            for (uint64_t u = 0; u < count; u++)
                got[2] += units[u * j->words];
            busy = now() - t0;
            st = dls_mpi_plan_done(plan, err);
        }
        MPI_Gather(&busy, 1, MPI_DOUBLE, j->compute_runs + (size_t)run * p, 1, MPI_DOUBLE, 0,
                   MPI_COMM_WORLD);
        if (st == DLS_OK)
            st = dls_mpi_plan_measured(MPI_COMM_WORLD, plan, NULL,
                                       j->finish_runs + (size_t)run * p, err);
        if (st == DLS_OK && first && run == 0 && j->o.json != NULL)
            st = dls_mpi_plan_write_json(MPI_COMM_WORLD, plan, j->o.json, err);
        MPI_Reduce(got, t->total, 3, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
        if (j->rank == 0)
            t->right = t->right && t->total[0] == j->expected_sum && t->total[1] == v
                       && t->total[2] == index_sum;
        int ok = st == DLS_OK, all_ok = 0;
        MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
        if (!all_ok && st == DLS_OK) {
            st = err->status = DLS_EINVAL;
            snprintf(err->message, sizeof err->message, "mpi_divisible: split %s: another "
                     "rank failed in run %d", split_names[s], run + 1);
        }
    }
    return st;
}

/* Rank 0: each rank's median finish and computation over the runs. */
static void medians(job *j)
{
    const size_t p = (size_t)j->p;
    for (int r = 0; r < j->p; r++) {
        for (int run = 0; run < j->o.runs; run++)
            j->column[run] = j->finish_runs[(size_t)run * p + (size_t)r];
        j->finish[r] = median(j->column, j->o.runs);
        for (int run = 0; run < j->o.runs; run++)
            j->column[run] = j->compute_runs[(size_t)run * p + (size_t)r];
        j->compute[r] = median(j->column, j->o.runs);
    }
}

/* Rank 0: the result lines of split s and its makespan line. Returns 2 when the even
 * split's prediction failed, else 0. */
static int report(job *j, int s, const dls_mpi_plan *plan, const dls_schedule_params *sp,
                  int right, dls_error *err)
{
    /* the even split has no model: the measured platform predicts its shares, as the
     * scatter sends them */
    int rc = 0, predicted_ok = 1;
    if (s == SPLIT_EVEN
        && predict_as_run(j->plat[SPLIT_FPM], plan, j->p, sp, j->even_arrival, j->even_finish,
                          err) != DLS_OK) {
        fprintf(stderr, "%s\n", err->message);
        rc = 2;
        predicted_ok = 0;
    }
    double predicted_span = 0, measured_span = 0, predicted_busy = 0, busy_span = 0;
    printf("split %s: %llu units, %s\n", split_names[s], (unsigned long long)j->o.units,
           right ? "each processed once" : "WRONG");
    for (int r = 0; r < j->p; r++) {
        double predicted = NAN, arrival = NAN;
        if (s == SPLIT_EVEN && predicted_ok) {
            predicted = j->even_finish[r];
            arrival = j->even_arrival[r];
        } else if (s != SPLIT_EVEN) {
            dls_mpi_plan_predicted(plan, r, &arrival, &predicted);
        }
        if (dls_mpi_plan_count(plan, r) > 0) {
            predicted_span = fmax(predicted_span, predicted);
            measured_span = fmax(measured_span, j->finish[r]);
            predicted_busy = fmax(predicted_busy, predicted - arrival);
            busy_span = fmax(busy_span, j->compute[r]);
        }
        printf("result example=divisible split=%s rank=%d name=%s units=%llu "
               "predicted=%.6g measured=%.6g predicted_compute=%.6g compute=%.6g\n",
               split_names[s], r, dls_platform_name(j->measured, (size_t)r),
               (unsigned long long)dls_mpi_plan_count(plan, r), predicted, j->finish[r],
               predicted - arrival, j->compute[r]);
    }
    printf("makespan example=divisible split=%s predicted=%.6g measured=%.6g error=%.4f "
           "predicted_compute=%.6g compute=%.6g compute_error=%.4f\n",
           split_names[s], predicted_span, measured_span,
           (measured_span - predicted_span) / predicted_span, predicted_busy, busy_span,
           (busy_span - predicted_busy) / predicted_busy);
    return rc;
}

/* Schedules, runs and reports split s. Returns -1 when the splits must stop (*rc set to
 * 2), else 0 with rank 0's *rc raised to 1 for units processed wrongly, 2 for an error. */
static int run_split(job *j, int s, const dls_schedule_params *sp, int first, int *rc,
                     dls_error *err)
{
    const int rank = j->rank;
    dls_mpi_plan *plan = NULL;
    dls_status st = dls_mpi_schedule(MPI_COMM_WORLD, 0, j->plat[s], j->o.units, sp, &plan, err);
    if (st != DLS_OK) {
        if (rank == 0)
            fprintf(stderr, "%s\n", err->message);
        *rc = 2;
        return -1;
    }
    uint64_t count = dls_mpi_plan_count(plan, rank);
    free(j->mine);
    j->mine = rank == 0 || count == 0 ? NULL : malloc((size_t)count * j->o.unit_bytes);
    /* touched before the scatter, as an application's buffers would be: the first touch
     * of fresh pages is no part of the link */
    if (j->mine != NULL)
        memset(j->mine, 0, (size_t)count * j->o.unit_bytes);
    int ok = rank == 0 || count == 0 || j->mine != NULL, all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all_ok) {
        if (rank == 0)
            fprintf(stderr, "mpi_divisible: out of memory\n");
        dls_mpi_plan_free(plan);
        *rc = 2;
        return -1;
    }
    /* rank 0 processes its chunk where it lies */
    uint64_t *units = rank == 0 ? j->load + dls_mpi_plan_offset(plan, 0) * j->words : j->mine;
    tally t = {{0, 0, 0}, 1};
    st = scatter_runs(j, s, plan, units, first, &t, err);
    if (st != DLS_OK) {
        if (rank == 0)
            fprintf(stderr, "%s\n", err->message);
        dls_mpi_plan_free(plan);
        *rc = 2;
        return -1;
    }
    if (rank == 0) {
        medians(j);
        if (!t.right) {
            fprintf(stderr, "mpi_divisible: split %s: %llu units processed (of %llu), the "
                    "checksums or the indices differ from one rank's\n",
                    split_names[s], (unsigned long long)t.total[1],
                    (unsigned long long)j->o.units);
            *rc = 1;
        }
        if (report(j, s, plan, sp, t.right, err) != 0)
            *rc = 2;
    }
    dls_mpi_plan_free(plan);
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
    j.words = o->unit_bytes / 8;
    j.reps = o->hetero ? j.rank + 1 : 1;
    /* the large ping: as large as the tries to every rank can be while each sends other
     * units, within one MPI message */
    j.big = o->units / ((uint64_t)PING_TRIES * (uint64_t)j.p);
    if (j.big < 1)
        j.big = 1;
    if (j.big > (uint64_t)INT32_MAX / o->unit_bytes)
        j.big = (uint64_t)INT32_MAX / o->unit_bytes;
    dls_error err;
    dls_error_clear(&err);
    int rc = 0;
    if (!job_alloc(&j)) {
        if (j.rank == 0)
            fprintf(stderr, "mpi_divisible: out of memory for %llu units of %zu bytes\n",
                    (unsigned long long)o->units, o->unit_bytes);
        rc = 2;
    }
    if (rc == 0)
        rc = measure(&j, &err);
    if (rc == 0) {
        if (o->split == SPLIT_CONSTANT || o->split == -1)
            rc = measure_constant(&j, &err);
        if (j.rank == 0 && rc == 0)
            rc = build_platforms(&j, &err);
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (rc == 0) {
        dls_schedule_params sp;
        dls_schedule_params_init(&sp);
        /* rank 0 computes too, on the share it keeps without a send: dls_mpi_schedule serves
         * it last whatever this says (one thread sends, then computes); the even split's
         * prediction (dls_schedule_evaluate) takes it as the originator's processor,
         * computing from the start */
        sp.originator_computes = 1;
        int first = 1;
        for (int s = 0; s < SPLIT_COUNT; s++) {
            if (o->split != -1 && o->split != s)
                continue;
            if (run_split(&j, s, &sp, first, &rc, &err) != 0)
                break;
            first = 0;
        }
        MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    job_free(&j);
    MPI_Finalize();
    return rc;
}
