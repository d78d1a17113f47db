/* Benchmark of the LU column distributions (issue: Functional Reverse and Functional DP
 * for n = 10^5 columns over p = 64 processors; the exact method for p = 3, n = 2000 and
 * p = 4, n = 300).
 *
 * Goals, as ratios measured in the same run on a shared machine:
 * - FR and FDP each take at most 5 times as long as n passes that evaluate the p models
 *   once (the time of step k's p processors at height n - k);
 * - the exact method runs at those sizes within the default memory cap; its time, its
 *   states and the peak memory are reported, with every algorithm's gap to it.
 * Every timing is the fastest of several repetitions.
 *
 * usage: bench_lu [--columns N] [--processors P] [--repeat R] [--seed S]
 */
#include <sys/resource.h>

#include "benchutil.h"

/* The speed of updating an x-by-y trailing block (in block updates per second) as the
 * LU-update kernel measures it: rising with y while the panel amortizes, then falling
 * when x y no longer fits in memory. */
static double kernel_speed(double peak, double x, double y, double mem)
{
    double warm = y / (y + 4.0), page = x * y <= mem ? 1.0 : pow(mem / (x * y), 0.7);
    return peak * (0.2 + 0.8 * warm) * page;
}

/* A platform of p processors for n columns: racks of identical nodes (every 8th starts
 * a new kind), half with 2-D surfaces on a 6 x 6 grid, half with 12-point 1-D models. */
static dls_platform *make_platform(size_t p, double n)
{
    dls_platform *pl = bench_platform_new();
    dls_error err;
    double peak = 0, mem = 0;
    for (size_t i = 0; i < p; i++) {
        if (i % 8 == 0) {
            peak = 1e5 * (0.3 + 2 * bench_unif());
            mem = n * n / (double)p * (0.3 + 3 * bench_unif());
        }
        dls_model *m;
        if (i % 2 == 0) {
            double gx[6], gy[6], v[36];
            for (int a = 0; a < 6; a++) {
                gx[a] = n * pow(2.0, a - 5);
                gy[a] = fmax(1, n / (double)p * pow(2.0, 2 * a - 4));
            }
            for (int a = 0; a < 6; a++)
                for (int b = 0; b < 6; b++)
                    v[a * 6 + b] = kernel_speed(peak, gx[a], gy[b], mem);
            bench_check(dls_model_create_speed2d(6, gx, 6, gy, v, &m, &err), &err);
        } else {
            /* sizes in elements x y around the even share n^2 / p */
            double x[12], s[12];
            for (int k = 0; k < 12; k++) {
                x[k] = n * n / (double)p * pow(2.0, k - 8);
                s[k] = 0.9 * kernel_speed(peak, n, x[k] / n, mem);
            }
            bench_check(dls_model_create_points(12, x, s, NULL, NULL, &m, &err), &err);
        }
        char name[32];
        snprintf(name, sizeof name, "node%02zu", i);
        bench_add(pl, name, m, NAN, NAN);
    }
    return pl;
}

/* n passes over the models: step k's time of every processor at an even share. */
static double passes(const dls_platform *pl, uint64_t n, double *sink)
{
    size_t p = dls_platform_count(pl);
    const dls_model **m = malloc(p * sizeof *m);
    int *two = malloc(p * sizeof *two);
    for (size_t i = 0; i < p; i++) {
        m[i] = dls_platform_model(pl, i);
        two[i] = dls_model_dimension(m[i]) == 2;
    }
    double t0 = bench_now(), acc = 0;
    for (uint64_t k = 1; k <= n; k++) {
        double h = (double)(n - k + 1), c = ceil(h / (double)p);
        for (size_t i = 0; i < p; i++)
            acc += two[i] ? h * c / dls_model_speed2d(m[i], h, c) : dls_model_time(m[i], h * c);
    }
    double t = bench_now() - t0;
    *sink += acc;
    free(m);
    free(two);
    return t;
}

static dls_lu *timed(const dls_platform *pl, uint64_t n, dls_lu_algorithm a, int repeat,
                     double *best)
{
    dls_lu_params par;
    dls_lu_params_init(&par);
    par.algorithm = a;
    dls_lu *r = NULL;
    bench_timer t = BENCH_TIMER;
    for (int rep = 0; rep < repeat; rep++) {
        dls_error err;
        dls_lu_free(r);
        bench_start(&t);
        bench_check(dls_lu_distribute(pl, n, &par, &r, &err), &err);
        bench_stop(&t);
    }
    *best = t.best;
    return r;
}

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* The exact method on p processors, n columns, and every algorithm's gap to it. */
static void exact_case(size_t p, uint64_t n)
{
    dls_platform *pl = make_platform(p, (double)n);
    size_t bytes;
    uint64_t states;
    dls_error err;
    bench_check(dls_lu_exact_memory(p, n, &bytes, &states, &err), &err);
    double before = peak_mb(), t;
    dls_lu *ex = timed(pl, n, DLS_LU_EXACT, 1, &t);
    printf("exact p = %zu, n = %-5llu %9.3f s  %llu states, %.0f MB estimated, peak RSS %.0f MB"
           " (was %.0f)\n", p, (unsigned long long)n, t, (unsigned long long)states,
           (double)bytes / 1e6, peak_mb(), before);
    printf("  gaps to the optimum:");
    for (int a = 0; a < DLS_LU_EXACT; a++) {
        double ta;
        dls_lu *r = timed(pl, n, (dls_lu_algorithm)a, 1, &ta);
        printf(" %s %.3g%%", dls_lu_algorithm_name((dls_lu_algorithm)a),
               100 * (dls_lu_cost(r) - dls_lu_cost(ex)) / dls_lu_cost(ex));
        dls_lu_free(r);
    }
    printf("\n");
    dls_lu_free(ex);
    dls_platform_free(pl);
}

int main(int argc, char **argv)
{
    uint64_t n = 100000;
    size_t p = 64;
    int repeat = 3;
    const bench_option opt[] = {{"--columns", BENCH_COUNT, &n},
                                {"--processors", BENCH_SIZE, &p},
                                {"--repeat", BENCH_INT, &repeat},
                                {"--seed", BENCH_SEED, NULL}};
    bench_options(argc, argv, opt, 4, NULL,
                  "[--columns N] [--processors P] [--repeat R] [--seed S]");
    dls_platform *pl = make_platform(p, (double)n);
    double sink = 0, pass = INFINITY;
    for (int rep = 0; rep < repeat; rep++)
        pass = fmin(pass, passes(pl, n, &sink));
    printf("# p = %zu processors (2-D surfaces and 12-point models), n = %llu columns, fastest "
           "of %d runs\n", p, (unsigned long long)n, repeat);
    printf("n passes over the models        %9.3f s\n", pass);
    int ok = 1;
    const dls_lu_algorithm goal[] = {DLS_LU_FR, DLS_LU_FDP};
    for (size_t g = 0; g < 2; g++) {
        double t;
        dls_lu *r = timed(pl, n, goal[g], repeat, &t);
        printf("%-3s                             %9.3f s  %5.2f x n passes  cost %.10g, gap to "
               "bound %.3g%%, %zu groups\n", dls_lu_algorithm_name(goal[g]), t, t / pass,
               dls_lu_cost(r), 100 * dls_lu_gap(r), dls_lu_groups(r));
        printf("goal %s <= 5 x n passes:        %s\n", dls_lu_algorithm_name(goal[g]),
               t <= 5 * pass ? "met" : "MISSED");
        ok &= t <= 5 * pass;
        dls_lu_free(r);
    }
    const dls_lu_algorithm others[] = {DLS_LU_GB, DLS_LU_DP, DLS_LU_REVERSE, DLS_LU_FGB};
    for (size_t g = 0; g < 4; g++) {
        double t;
        dls_lu *r = timed(pl, n, others[g], 1, &t);
        printf("%-7s                         %9.3f s  %5.2f x n passes  cost %.10g\n",
               dls_lu_algorithm_name(others[g]), t, t / pass, dls_lu_cost(r));
        dls_lu_free(r);
    }
    dls_platform_free(pl);
    exact_case(3, 2000);
    exact_case(4, 300);
    if (sink == 42)
        printf("\n");
    return ok ? 0 : 1;
}
