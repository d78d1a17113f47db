/* Benchmark of the best send order (dls_schedule_params::order = DLS_ORDER_BEST) against
 * the rate order, for m = 8, 16, 100, 10^3, 10^4 and 10^6 processors: the time of each (the
 * fastest of a few runs below 10^4 processors, one run above), their ratio, the makespans
 * of the platform's order, the rate order and the best order, the gain on the rate order,
 * how the order was found and the gap to the lower bound no order beats.
 *
 * The platforms: two memory levels per processor (a second time line 5 to 20 times
 * steeper past a swap point near the even share), links whose sends take about as long as
 * the computing (the rate scaled with the processors, so that the order matters at every
 * size), startups of 1% to 10% of a processor's share of the computing, selection on (the
 * default). Seeded: the same platforms on every machine.
 *
 * Goals (issue 18): at 16 processors the exact search ends in seconds (EXACT, under
 * GOAL_EXACT_SECONDS); at 10^6 processors the best order takes at most GOAL_RATIO times the
 * rate order. Exits 1 when one is missed, saying which.
 *
 * usage: bench_order [--max M] [--seed N]
 */
#include <config.h>

#include "benchutil.h"

/* The goals. */
#define GOAL_EXACT_SECONDS 30.0
#define GOAL_RATIO 10.0
/* Timed runs below 10^4 processors (the fastest counts). */
#define RUNS 3

static dls_platform *order_platform(size_t m, double V)
{
    dls_platform *pl = bench_platform_new();
    double share = V / (double)m;
    for (size_t i = 0; i < m; i++) {
        char name[32];
        snprintf(name, sizeof name, "p%zu", i);
        double b1;
        dls_model *mo = bench_two_levels(share, &b1);
        /* a send of the whole load takes about the computing of one share */
        double rate = bench_logu(0.3, 3) * 1e-3 / (double)m;
        bench_add(pl, name, mo, bench_logu(0.01, 0.1) * b1 * share, rate);
    }
    return pl;
}

/* Solves in the given order; *seconds: the fastest of runs. */
static dls_schedule *solve(const dls_platform *pl, double V, dls_send_order order, int runs,
                           double *seconds)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.order = order;
    dls_schedule *s = NULL;
    bench_timer t = BENCH_TIMER;
    for (int r = 0; r < runs; r++) {
        dls_schedule_free(s);
        dls_error err;
        bench_start(&t);
        bench_check(dls_schedule_solve(pl, V, &par, &s, &err), &err);
        bench_stop(&t);
    }
    *seconds = t.best;
    return s;
}

int main(int argc, char **argv)
{
    size_t max_m = 1000000;
    bench_option opt[] = {{"--max", BENCH_SIZE, &max_m}};
    bench_options(argc, argv, opt, 1, NULL, "[--max M]");
    static const size_t sizes[] = {8, 16, 100, 1000, 10000, 1000000};
    int failed = 0;
    printf("%8s %10s %10s %7s %14s %14s %14s %9s %8s %10s\n", "m", "rate (s)", "best (s)",
           "ratio", "given (s)", "rate (s)", "best (s)", "gain", "method", "bound gap");
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes && sizes[z] <= max_m; z++) {
        size_t m = sizes[z];
        double V = 1e6 * (double)m;
        dls_platform *pl = order_platform(m, V);
        int runs = m < 10000 ? RUNS : 1;
        double t_rate, t_best;
        dls_schedule *r = solve(pl, V, DLS_ORDER_RATE, runs, &t_rate);
        dls_schedule *b = solve(pl, V, DLS_ORDER_BEST, runs, &t_best);
        dls_schedule_solver_info si;
        dls_error err;
        bench_check(dls_schedule_get_solver_info(b, &si, &err), &err);
        double Tr = dls_schedule_makespan(r), Tb = dls_schedule_makespan(b);
        printf("%8zu %10.3f %10.3f %7.2f %14.6f %14.6f %14.6f %8.3f%% %8s %9.3f%%\n", m, t_rate,
               t_best, t_best / t_rate, si.given_makespan, Tr, Tb, 100 * (Tr - Tb) / Tr,
               dls_order_method_name(si.order_method),
               100 * (Tb - si.order_lower_bound) / Tb);
        if (Tb > Tr * (1 + 1e-12) || Tb > si.given_makespan * (1 + 1e-12)) {
            printf("  FAILED: the best order is worse than the rate or the platform's order\n");
            failed = 1;
        }
        if (m == 16 && (si.order_method != DLS_ORDER_METHOD_EXACT || t_best > GOAL_EXACT_SECONDS)) {
            printf("  GOAL MISSED: 16 processors: the exact search in under %g s (%s, %.3f s)\n",
                   GOAL_EXACT_SECONDS, dls_order_method_name(si.order_method), t_best);
            failed = 1;
        }
        if (m == 1000000 && t_best > GOAL_RATIO * t_rate) {
            printf("  GOAL MISSED: 10^6 processors: the best order in at most %g times the rate "
                   "order's time (%.2f)\n", GOAL_RATIO, t_best / t_rate);
            failed = 1;
        }
        dls_schedule_free(r);
        dls_schedule_free(b);
        dls_platform_free(pl);
        fflush(stdout);
    }
    return failed;
}
