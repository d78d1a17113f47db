/* Benchmark of the platforms on which GLPK's simplex used to stall (tests/data/stall/: the
 * issue's two and 17 found by mutating them and the examples; before the limits each ran
 * for minutes with `dlsched schedule FILE --load 100`). For each: the fastest of R runs of
 * the LP schedule (defaults), of the paper's LP alone (drop_unused 0), of the integer
 * schedule with its MIP and of the exact-shape MIP, with the LP's iterations and runs.
 * Goal: every call under 1 s (the test suite's guard is 30 s).
 *
 * usage: bench_stalls [DIR] [--repeat R]     (DIR: tests/data/stall of the source tree)
 */
#include <dirent.h>

#include "benchutil.h"

#define LOAD 100
#define GOAL_S 1.0

typedef struct outcome {
    double best;
    dls_status st;
    unsigned iterations, solves;
} outcome;

/* mode: 0 LP, 1 paper's LP, 2 integer with MIP, 3 exact-shape MIP */
static outcome time_one(const dls_platform *pl, int mode, unsigned repeat)
{
    outcome o = {INFINITY, DLS_OK, 0, 0};
    bench_timer t = BENCH_TIMER;
    for (unsigned r = 0; r < repeat; r++) {
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.drop_unused = mode != 1;
        dls_mip_params mp;
        dls_mip_params_init(&mp);
        mp.exact_shape = mode == 3;
        dls_schedule *s = NULL;
        dls_error err;
        bench_start(&t);
        o.st = mode <= 1   ? dls_schedule_solve(pl, LOAD, &par, &s, &err)
               : mode == 2 ? dls_schedule_solve_integer(pl, LOAD, &par, &mp, &s, &err)
                           : dls_schedule_solve_mip(pl, LOAD, &par, &mp, &s, &err);
        bench_stop(&t);
        if (o.st == DLS_OK) {
            o.iterations = dls_schedule_iterations(s);
            o.solves = dls_schedule_solves(s);
        }
        dls_schedule_free(s);
    }
    o.best = t.best;
    return o;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    const char *dir = NULL;
    unsigned repeat = 5;
    const bench_option opt[] = {{"--repeat", BENCH_UNSIGNED, &repeat}};
    bench_options(argc, argv, opt, 1, &dir, "[DIR] [--repeat R]");
    if (dir == NULL)
        dir = "tests/data/stall";
    DIR *d = opendir(dir);
    if (d == NULL) {
        fprintf(stderr, "bench_stalls: cannot open %s\n", dir);
        return 2;
    }
    char *names[64];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
            names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    printf("%-16s %3s | %10s %6s %5s | %10s | %10s | %10s\n", "platform", "m", "LP (s)", "iter",
           "runs", "paper (s)", "integer (s)", "shape (s)");
    double worst = 0;
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        dls_platform *pl;
        dls_error err;
        bench_check(dls_platform_read_file(path, &pl, &err), &err);
        outcome o[4];
        for (int mode = 0; mode < 4; mode++) {
            o[mode] = time_one(pl, mode, repeat);
            worst = fmax(worst, o[mode].best);
            failures += o[mode].st != DLS_OK;
        }
        printf("%-16s %3zu | %10.6f %6u %5u | %10.6f | %10.6f | %10.6f", names[i],
               dls_platform_count(pl), o[0].best, o[0].iterations, o[0].solves, o[1].best,
               o[2].best, o[3].best);
        for (int mode = 0; mode < 4; mode++)
            if (o[mode].st != DLS_OK)
                printf("  [%d: %s]", mode, dls_status_name(o[mode].st));
        printf("\n");
        dls_platform_free(pl);
        free(names[i]);
    }
    printf("slowest call %.6f s (goal < %g s); %d calls failed\n", worst, GOAL_S, failures);
    return worst < GOAL_S ? 0 : 1;
}
