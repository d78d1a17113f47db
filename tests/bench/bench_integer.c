/* Benchmark of integer schedules (issue: rounding gaps and MIP times for growing platform
 * sizes) and of the exact-shape MIP.
 *
 * For p = 2 .. 64 random star platforms (time lines of two or three memory levels, links
 * and startups of the magnitudes of Drozdowski and Wolniewicz 2003), a whole-unit load: the LP's
 * makespan, the rounded schedule's and its gap, and the exact integer MIP's optimum, time and the
 * rounding's gap to it. Then measured speeds that rise with size (cache effects): the LP's
 * loads under the true models against the exact-shape MIP.
 *
 * usage: bench_integer [--time-limit S] [--seed S]
 */
#include "benchutil.h"

static dls_platform *star(size_t m, double V)
{
    dls_platform *pl = bench_platform_new();
    dls_error err;
    double share = V / (double)m;
    for (size_t i = 0; i < m; i++) {
        size_t levels = 2 + (size_t)(bench_unif() * 2);
        double a[3], b[3], swap = share * bench_logu(0.3, 3);
        b[0] = bench_logu(1e-4, 1e-2);
        a[0] = 0;
        for (size_t l = 1; l < levels; l++) {
            b[l] = b[l - 1] * bench_logu(3, 30);
            a[l] = a[l - 1] + (b[l - 1] - b[l]) * swap;
            swap *= bench_logu(2, 10);
        }
        dls_model *mo;
        bench_check(dls_model_create_time_lines(levels, a, b, &mo, &err), &err);
        char name[32];
        snprintf(name, sizeof name, "n%zu", i);
        bench_add(pl, name, mo, bench_logu(1e-4, 1e-2), bench_logu(1e-7, 1e-5));
    }
    return pl;
}

static dls_platform *bumpy(size_t m, double V)
{
    dls_platform *pl = bench_platform_new();
    dls_error err;
    for (size_t i = 0; i < m; i++) {
        double x[6], s[6], at = V / (double)m * 0.02, sp = bench_logu(1e3, 1e4);
        for (int k = 0; k < 6; k++) {
            x[k] = at;
            s[k] = sp;
            at *= bench_logu(2, 5);
            sp *= k < 2 ? bench_logu(1.5, 3) : bench_logu(0.3, 0.9);
        }
        dls_model *mo;
        bench_check(dls_model_create_points(6, x, s, NULL, NULL, &mo, &err), &err);
        char name[32];
        snprintf(name, sizeof name, "b%zu", i);
        bench_add(pl, name, mo, bench_logu(1e-3, 1e-2), bench_logu(1e-6, 1e-5));
    }
    return pl;
}

int main(int argc, char **argv)
{
    double limit = 60;
    const bench_option opt[] = {{"--time-limit", BENCH_DOUBLE, &limit},
                                {"--seed", BENCH_SEED, NULL}};
    bench_options(argc, argv, opt, 2, NULL, "[--time-limit S] [--seed S]");
    printf("# integer loads on random stars (time lines, 2-3 levels); MIP time limit %g s\n",
           limit);
    printf("%4s %10s %14s %10s %12s %10s %14s %9s %12s\n", "p", "load", "LP (s)",
           "round (ms)", "round gap", "MIP", "MIP opt (s)", "MIP (s)", "round-MIP");
    const size_t sizes[] = {2, 4, 8, 16, 32, 64};
    const double loads[] = {1e3, 1e6};
    for (size_t a = 0; a < sizeof sizes / sizeof sizes[0]; a++)
        for (size_t b = 0; b < 2; b++) {
            size_t p = sizes[a];
            double V = loads[b];
            dls_platform *pl = star(p, V);
            dls_error err;
            dls_schedule *r, *x;
            double t0 = bench_now();
            bench_check(dls_schedule_solve_integer(pl, (uint64_t)V, NULL, NULL, &r, &err), &err);
            double tr = bench_now() - t0;
            dls_mip_params mp;
            dls_mip_params_init(&mp);
            mp.integer = 1;
            mp.time_limit = limit;
            bench_check(dls_schedule_solve_integer(pl, (uint64_t)V, NULL, &mp, &x, &err), &err);
            dls_schedule_mip_info ri, xi;
            bench_check(dls_schedule_get_mip_info(r, &ri, &err), &err);
            bench_check(dls_schedule_get_mip_info(x, &xi, &err), &err);
            double lp = ri.lp_makespan, rm = dls_schedule_makespan(r), mm = xi.mip_makespan;
            printf("%4zu %10.0e %14.9g %10.2f %12.3e %10s %14.9g %9.3f %12.3e\n", p, V, lp,
                   1e3 * tr, (rm - lp) / lp, dls_solution_status_name(xi.mip_status), mm,
                   xi.mip_seconds, (rm - mm) / mm);
            dls_schedule_free(r);
            dls_schedule_free(x);
            dls_platform_free(pl);
        }
    printf("\n# measured speeds rising then falling: envelope LP vs the exact-shape MIP\n");
    printf("%4s %10s %14s %16s %16s %10s %9s\n", "p", "load", "LP (s)", "LP loads true",
           "exact MIP (s)", "status", "MIP (s)");
    const size_t bs[] = {2, 3, 4, 6, 8};
    for (size_t a = 0; a < sizeof bs / sizeof bs[0]; a++) {
        double V = 1e5;
        dls_platform *pl = bumpy(bs[a], V);
        dls_error err;
        dls_mip_params mp;
        dls_mip_params_init(&mp);
        mp.exact_shape = 1;
        mp.time_limit = limit;
        dls_schedule *s;
        dls_status st = dls_schedule_solve_mip(pl, V, NULL, &mp, &s, &err);
        if (st != DLS_OK) {
            printf("%4zu %10.0e  %s\n", bs[a], V, err.message);
            dls_platform_free(pl);
            continue;
        }
        dls_schedule_mip_info si;
        bench_check(dls_schedule_get_mip_info(s, &si, &err), &err);
        printf("%4zu %10.0e %14.9g %16.9g %16.9g %10s %9.3f\n", bs[a], V, si.lp_makespan,
               si.lp_true_makespan, dls_schedule_makespan(s),
               dls_solution_status_name(dls_schedule_status(s)), si.mip_seconds);
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    return 0;
}
