/* Benchmark of the exact row programme of matrix partitions (issue 17): n = 10^4 rows of
 * an n x n product over p = 64 processors whose 2-D speed surfaces break the shape
 * assumption (random speeds on a grid around n, so that the time of r rows rises and falls
 * along the rows).
 *
 * Goal: the exact programme (dls_partition_params.exact = always) within 1 s ("well under a
 * second"); also shown, as ratios from the same run: one pass evaluating every t_i(r),
 * r = 1..n (the p n evaluations the programme cannot avoid), and the geometric algorithm.
 * Every timing is the fastest of several repetitions.
 *
 * With --alternate Y, the adversarial case instead: one grid row at x = n with Y values
 * of y, the speed alternating between about 1e8 and 1e10 from one to the next, so that each
 * set {r : t_i(r) <= T} is a union of up to Y / 2 runs and the tests need the bitsets.
 *
 * usage: bench_partition_exact [--processors P] [--rows N] [--grid G] [--alternate Y]
 *                              [--repeat R] [--seed S]
 */
#include "benchutil.h"

/* The goal, in seconds. */
#define GOAL_SECONDS 1.0

/* A G x G speed grid over x in [n / 4, 4 n] and y in [1, n], speeds log-uniform in
 * [1e8, 1e10] multiply-adds per second: bumpy along y, so the shape breaks. */
static dls_model *make_surface(uint64_t n, size_t g)
{
    double x[64], y[64], v[64 * 64];
    for (size_t k = 0; k < g; k++) {
        x[k] = (double)n / 4 * pow(16, (double)k / (double)(g - 1));
        y[k] = 1 + ((double)n - 1) * (double)k / (double)(g - 1);
    }
    for (size_t k = 0; k < g * g; k++)
        v[k] = bench_logu(1e8, 1e10);
    dls_model *m;
    dls_error err;
    bench_check(dls_model_create_speed2d(g, x, g, y, v, &m, &err), &err);
    return m;
}

/* The adversarial surface of --alternate: y values 1..n, speeds alternating. */
static dls_model *make_alternating(uint64_t n, size_t ny)
{
    double x = (double)n, *y = malloc(ny * sizeof *y), *v = malloc(ny * sizeof *v);
    if (y == NULL || v == NULL) {
        fprintf(stderr, "bench_partition_exact: out of memory\n");
        exit(1);
    }
    for (size_t k = 0; k < ny; k++) {
        y[k] = 1 + ((double)n - 1) * (double)k / (double)(ny - 1);
        v[k] = (k % 2 ? 1e10 : 1e8) * bench_logu(0.5, 2);
    }
    dls_model *m;
    dls_error err;
    bench_check(dls_model_create_speed2d(1, &x, ny, y, v, &m, &err), &err);
    free(y);
    free(v);
    return m;
}

static double solve(const dls_platform *pl, uint64_t n, dls_partition_exact exact,
                    int repeat, dls_partition **keep)
{
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.exact = exact;
    bench_timer t = BENCH_TIMER;
    dls_error err;
    for (int r = 0; r < repeat; r++) {
        dls_partition *res;
        bench_start(&t);
        bench_check(dls_partition_solve_matrix(pl, n, &par, &res, &err), &err);
        bench_stop(&t);
        if (r == 0)
            *keep = res;
        else
            dls_partition_free(res);
    }
    return t.best;
}

int main(int argc, char **argv)
{
    size_t p = 64, g = 8, alternate = 0;
    uint64_t n = 10000;
    int repeat = 5;
    const bench_option opt[] = {{"--processors", BENCH_SIZE, &p},
                                {"--rows", BENCH_COUNT, &n},
                                {"--grid", BENCH_SIZE, &g},
                                {"--alternate", BENCH_SIZE, &alternate},
                                {"--repeat", BENCH_INT, &repeat},
                                {"--seed", BENCH_SEED, NULL}};
    bench_options(argc, argv, opt, 6, NULL,
                  "[--processors P] [--rows N] [--grid G] [--alternate Y] [--repeat R] "
                  "[--seed S]");
    if (g < 2 || g > 64 || n < 2 || p < 1 || repeat < 1 || alternate == 1 ||
        alternate > n) {
        fprintf(stderr, "bench_partition_exact: need 2 <= G <= 64, N >= 2, P >= 1, R >= 1, "
                        "Y = 0 or 2 <= Y <= N\n");
        return 2;
    }
    dls_platform *pl = bench_platform_new();
    for (size_t i = 0; i < p; i++) {
        char name[32];
        snprintf(name, sizeof name, "gpu%02zu", i);
        bench_add(pl, name, alternate ? make_alternating(n, alternate) : make_surface(n, g),
                  NAN, NAN);
    }

    /* one pass over every t_i(r): sections cut at n, as the partitioner does */
    dls_error err;
    bench_timer pass = BENCH_TIMER;
    double sink = 0, nn = (double)n;
    for (int r = 0; r < repeat; r++) {
        bench_start(&pass);
        for (size_t i = 0; i < p; i++) {
            dls_model *sec;
            bench_check(dls_model_section(dls_platform_model(pl, i), nn, &sec, &err), &err);
            for (uint64_t k = 1; k <= n; k++)
                sink += dls_model_time(sec, (double)k);
            dls_model_free(sec);
        }
        bench_stop(&pass);
    }

    dls_partition *geo, *ex;
    double t_geo = solve(pl, n, DLS_PARTITION_EXACT_NEVER, repeat, &geo);
    double t_ex = solve(pl, n, DLS_PARTITION_EXACT_ALWAYS, repeat, &ex);
    if (alternate)
        printf("exact row programme: %llu rows, %zu processors, %zu alternating speeds along "
               "the rows (checksum %.3g)\n", (unsigned long long)n, p, alternate, sink);
    else
        printf("exact row programme: %llu rows, %zu processors, %zux%zu grids (checksum %.3g)\n",
               (unsigned long long)n, p, g, g, sink);
    printf("  one pass over every t_i(r)   %10.2f ms   1\n", 1e3 * pass.best);
    printf("  geometric (exact = never)    %10.2f ms   %.2f passes, makespan %.9g s, %s\n",
           1e3 * t_geo, t_geo / pass.best, dls_partition_makespan(geo),
           dls_solution_status_name(dls_partition_status(geo)));
    printf("  exact row programme (always) %10.2f ms   %.2f passes, makespan %.9g s, %s, "
           "%u steps\n",
           1e3 * t_ex, t_ex / pass.best, dls_partition_makespan(ex),
           dls_solution_status_name(dls_partition_status(ex)), dls_partition_steps(ex));
    printf("  geometric / exact makespan   %.6f\n",
           dls_partition_makespan(geo) / dls_partition_makespan(ex));
    int ok = t_ex <= GOAL_SECONDS && dls_partition_exact_used(ex) &&
             dls_partition_makespan(ex) <= dls_partition_makespan(geo);
    printf("goal: exact within %.1f s: %s\n", GOAL_SECONDS, ok ? "met" : "MISSED");
    dls_partition_free(geo);
    dls_partition_free(ex);
    dls_platform_free(pl);
    return ok ? 0 : 1;
}
