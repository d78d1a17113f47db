/* Benchmark of the rational certificate (src/solver/certificate.c) against the number of
 * processors m: the time of dls_schedule_solve with params.exact (GLPK's floating-point
 * simplex, then its exact simplex on the LP in the platform's numbers), and of the
 * certificate alone (dls__lp_certify: both passes, the exact checks, the strings), and the
 * size of the certified makespan's fraction. The certificate's work grows with the square
 * of m (its numbers grow along the send chain, with their gcds at every step). No goal is
 * set yet: the figures are recorded (doc/BENCHMARKS.md); fraction-free arithmetic (integers
 * over one denominator, no gcd) is the next step.
 *
 * usage: bench_certificate [--max M]
 */
#include <config.h>

#include <string.h>

#include "benchutil.h"
#include "solver/solver.h"

int main(int argc, char **argv)
{
    size_t max_m = 1000;
    bench_option opt[] = {{"--max", BENCH_SIZE, &max_m}};
    bench_options(argc, argv, opt, 1, NULL, "[--max M]");
    static const size_t sizes[] = {10, 100, 300, 1000};
    printf("%8s %12s %12s %8s %14s\n", "m", "exact (s)", "cert. (s)", "ratio", "digits");
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes && sizes[z] <= max_m; z++) {
        size_t m = sizes[z];
        double V = 1e6 * (double)m;
        dls_platform *pl = bench_star_platform(m, V);
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.solver = DLS_SOLVER_GLPK;
        par.exact = 1;
        par.drop_unused = 0;
        par.time_limit = 600;
        dls_error err;
        dls__star st;
        char *note = NULL;
        dls__star_opts so = dls__star_opts_from_params(&par);
        bench_check(dls__star_build(pl, V, &so, 1, &st, &note, &err), &err);
        free(note);
        dls__lp_answer ans;
        memset(&ans, 0, sizeof ans);
        double t0 = bench_now();
        bench_check(dls__lp_solve_star(&st, &so, &ans, &err), &err);
        double t_exact = bench_now() - t0;
        dls__certificate c;
        t0 = bench_now();
        bench_check(dls__lp_certify(&ans.kept, &ans.basis, 600, &c, &err), &err);
        double t_cert = bench_now() - t0;
        printf("%8zu %12.3f %12.3f %8.2f %14zu\n", m, t_exact, t_cert, t_cert / t_exact,
               strlen(c.makespan));
        dls__certificate_free(&c);
        dls__lp_answer_free(&ans);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    return 0;
}
