/* Benchmark of the geometric partitioner (issue: p = 10^5 processors with 16-point speed
 * functions, n = 10^12 elements).
 *
 * Goals, as ratios measured in the same run on a shared machine:
 * - the partition takes at most 10 times one pass that evaluates every model once;
 * - `dlsched partition` on the platform file takes at most 1.5 times `dlsched check`.
 * Every timing is the fastest of several repetitions.
 *
 * usage: bench_partition [DLSCHED] [--processors P] [--elements N] [--repeat R] [--keep]
 */
#include <sys/wait.h>
#include <unistd.h>

#include "benchutil.h"

/* A 16-point speed function with the measured shapes of Lastovetsky and Reddy (2007a and 2005):
 * rising while caches warm up (less than proportionally), a plateau, then falling as paging starts.
 * */
static dls_model *make_model(double n_per_proc)
{
    double x[16], s[16];
    double peak = 1e8 * exp(2 * bench_unif() - 1) * (0.5 + bench_unif());
    double at = n_per_proc * 1e-4 * (0.5 + bench_unif());
    double swap = n_per_proc * (0.5 + 2 * bench_unif());
    for (int k = 0; k < 16; k++) {
        x[k] = at;
        double rise = fmin(1, 0.3 + 0.7 * pow(at / (n_per_proc * 1e-2), 0.3));
        double fall = at < swap ? 1 : pow(swap / at, 1.5);
        s[k] = peak * rise * fall;
        at *= 2.2;
    }
    dls_model *m;
    dls_error err;
    bench_check(dls_model_create_points(16, x, s, NULL, NULL, &m, &err), &err);
    return m;
}

static double run_command(const char *cmd, int repeat)
{
    bench_timer t = BENCH_TIMER;
    for (int r = 0; r < repeat; r++) {
        bench_start(&t);
        int rc = system(cmd);
        bench_stop(&t);
        if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
            fprintf(stderr, "command failed: %s\n", cmd);
            exit(1);
        }
    }
    return t.best;
}

/* p processors of make_model() for a share of the load each, every seventh with a
 * memory limit around its share. */
static dls_platform *make_platform(size_t p, double share)
{
    dls_platform *pl = bench_platform_new();
    for (size_t i = 0; i < p; i++) {
        char name[32];
        snprintf(name, sizeof name, "node%06zu", i);
        bench_add(pl, name, make_model(share), NAN, NAN);
        if (i % 7 == 0)
            dls_platform_set_limit(pl, i, share * (0.5 + bench_unif()), NULL);
    }
    return pl;
}

/* The program dlsched on pl written to a file: `partition` against `check` (reading the
 * file). Returns whether partition met its goal, -1 when no file could be made. */
static int time_program(const char *dlsched, const dls_platform *pl, uint64_t n, int repeat,
                        int keep)
{
    dls_error err;
    char path[] = "/tmp/dlsched_bench_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        perror("mkstemp");
        return -1;
    }
    close(fd);
    bench_check(dls_platform_write_file(pl, path, &err), &err);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s check %s > /dev/null", dlsched, path);
    double t_check = run_command(cmd, repeat);
    snprintf(cmd, sizeof cmd, "%s partition %s --elements %llu > /dev/null", dlsched, path,
             (unsigned long long)n);
    double t_part = run_command(cmd, repeat);
    printf("dlsched check                   %10.3f ms\n", 1e3 * t_check);
    printf("dlsched partition               %10.3f ms  %5.2f x check\n", 1e3 * t_part,
           t_part / t_check);
    printf("goal partition <= 1.5 x check:  %s\n", t_part <= 1.5 * t_check ? "met" : "MISSED");
    if (keep)
        printf("platform file kept: %s\n", path);
    else
        unlink(path);
    return t_part <= 1.5 * t_check;
}

int main(int argc, char **argv)
{
    const char *dlsched = NULL;
    size_t p = 100000;
    uint64_t n = 1000000000000ull;
    int repeat = 5, keep = 0;
    const bench_option opt[] = {{"--processors", BENCH_SIZE, &p},
                                {"--elements", BENCH_COUNT, &n},
                                {"--repeat", BENCH_INT, &repeat},
                                {"--keep", BENCH_FLAG, &keep}}; /* keep the platform file */
    bench_options(argc, argv, opt, 4, &dlsched,
                  "[DLSCHED] [--processors P] [--elements N] [--repeat R] [--keep]");
    dls_error err;
    double share = (double)n / (double)p;
    dls_platform *pl = make_platform(p, share);

    /* One pass evaluating every model once. */
    bench_timer one_pass = BENCH_TIMER;
    double sink = 0;
    for (int r = 0; r < 5 * repeat; r++) {
        bench_start(&one_pass);
        for (size_t i = 0; i < p; i++)
            sink += dls_model_time(dls_platform_model(pl, i), share * (0.25 + 0.5 * (double)(i & 3)));
        bench_stop(&one_pass);
    }
    double pass = one_pass.best;

    dls_partition_params par;
    dls_partition_params_init(&par);
    double t_newton = INFINITY, t_bisect = INFINITY;
    unsigned steps_newton = 0, steps_bisect = 0;
    double mk_newton = 0, mk_bisect = 0;
    for (int method = 0; method < 2; method++) {
        par.method = method ? DLS_PARTITION_BISECTION : DLS_PARTITION_NEWTON;
        for (int r = 0; r < repeat; r++) {
            dls_partition *res;
            double t0 = bench_now();
            bench_check(dls_partition_solve(pl, n, &par, &res, &err), &err);
            double t = bench_now() - t0;
            if (dls_partition_status(res) != DLS_SOLUTION_OPTIMAL) {
                fprintf(stderr, "unexpected status: %s\n", dls_partition_note(res));
                return 1;
            }
            if (method) {
                t_bisect = fmin(t_bisect, t);
                steps_bisect = dls_partition_steps(res);
                mk_bisect = dls_partition_makespan(res);
            } else {
                t_newton = fmin(t_newton, t);
                steps_newton = dls_partition_steps(res);
                mk_newton = dls_partition_makespan(res);
            }
            dls_partition_free(res);
        }
    }
    printf("# p = %zu processors, 16-point models, n = %.3g elements (fastest of %d runs)\n", p,
           (double)n, repeat);
    printf("one pass over the models        %10.3f ms\n", 1e3 * pass);
    printf("partition (Newton)              %10.3f ms  %5.2f passes  %u steps\n", 1e3 * t_newton,
           t_newton / pass, steps_newton);
    printf("partition (Algorithm 1.1)       %10.3f ms  %5.2f passes  %u steps\n", 1e3 * t_bisect,
           t_bisect / pass, steps_bisect);
    printf("same makespan                   %s (%.17g)\n", mk_newton == mk_bisect ? "yes" : "NO",
           mk_newton);
    int ok = t_newton <= 10 * pass && mk_newton == mk_bisect;
    printf("goal partition <= 10 passes:    %s\n", t_newton <= 10 * pass ? "met" : "MISSED");

    if (dlsched != NULL) {
        int cli_ok = time_program(dlsched, pl, n, repeat, keep);
        if (cli_ok < 0)
            return 1;
        ok = ok && cli_ok;
    }
    if (sink == 42)
        printf("\n");
    dls_platform_free(pl);
    return ok ? 0 : 1;
}
