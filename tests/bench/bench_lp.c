/* Benchmark of the divisible-load LP (Drozdowski and Wolniewicz 2003) against the number of
 * processors m:
 * - dlsched: the sparse cumulative formulation, scaled, checked and polished
 *   (dls_schedule_solve with the paper's LP kept as it is);
 * - the paper's constraint (1) written literally (dense prefix sums, O(m^2) nonzeros) and
 *   solved by GLPK with its defaults, as a user of the paper would: time, and how far its
 *   "optimal" makespan is from dlsched's and from a replay of its own loads;
 * - lp_solve (its library) on the free MPS file dlsched exports.
 * Each method stops growing m once a solve took more than a minute (the dense one and
 * lp_solve stop earlier, past 20 s, as they grow faster).
 *
 * usage: bench_lp [--max M] [--seed S]
 */
#include <glpk.h>
#include <unistd.h>

#include "benchutil.h"

#ifdef HAVE_LPSOLVE_BENCH
#include <lpsolve/lp_lib.h>
#endif

/* Platforms: bench_star_platform() (benchutil.h), 10^6 units per processor. */

/* The paper's constraint (1) literally, in raw units, solved by GLPK with its defaults.
 * Returns the makespan; *replay gets the makespan its loads really give. */
static double dense_glpk(const dls_platform *pl, double V, double *replay, double *seconds)
{
    size_t m = dls_platform_count(pl);
    glp_term_out(GLP_OFF);
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MIN);
    /* columns: alpha_i, t_i, Cmax */
    glp_add_cols(P, (int)(2 * m + 1));
    for (size_t i = 0; i < 2 * m + 1; i++)
        glp_set_col_bnds(P, (int)i + 1, GLP_LO, 0, 0);
    glp_set_obj_coef(P, (int)(2 * m + 1), 1);
    /* rows: (1) for each i, (2) and (3) for each i, (4) */
    glp_add_rows(P, (int)(3 * m + 1));
    size_t nnz = m * (m + 1) / 2 + 2 * m + 4 * m + m + 1;
    int *ia = malloc((nnz + 1) * sizeof *ia), *ja = malloc((nnz + 1) * sizeof *ja);
    double *ar = malloc((nnz + 1) * sizeof *ar);
    size_t n = 0;
    double sumS = 0;
    for (size_t i = 0; i < m; i++) {
        double S, C;
        dls_platform_link(pl, i, &S, &C);
        sumS += S;
        int r = (int)i + 1;
        /* (1): sum_{j <= i} C_j alpha_j + t_i - Cmax <= -sum_{j <= i} S_j */
        for (size_t j = 0; j <= i; j++) {
            double Sj, Cj;
            dls_platform_link(pl, j, &Sj, &Cj);
            n++;
            ia[n] = r, ja[n] = (int)j + 1, ar[n] = Cj;
        }
        n++;
        ia[n] = r, ja[n] = (int)(m + i) + 1, ar[n] = 1;
        n++;
        ia[n] = r, ja[n] = (int)(2 * m) + 1, ar[n] = -1;
        glp_set_row_bnds(P, r, GLP_UP, 0, -sumS);
        /* (2), (3): a_l + b_l alpha_i <= t_i */
        size_t nl;
        const double *a, *b;
        dls_model_get_lines(dls_platform_model(pl, i), &nl, &a, &b);
        for (size_t l = 0; l < 2; l++) {
            int rr = (int)(m + 2 * i + l) + 1;
            n++;
            ia[n] = rr, ja[n] = (int)i + 1, ar[n] = b[l];
            n++;
            ia[n] = rr, ja[n] = (int)(m + i) + 1, ar[n] = -1;
            glp_set_row_bnds(P, rr, GLP_UP, 0, -a[l]);
        }
        n++;
        ia[n] = (int)(3 * m) + 1, ja[n] = (int)i + 1, ar[n] = 1;
    }
    glp_set_row_bnds(P, (int)(3 * m) + 1, GLP_FX, V, V);
    glp_load_matrix(P, (int)n, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    double t0 = bench_now();
    glp_scale_prob(P, GLP_SF_AUTO);
    int ret = glp_simplex(P, &parm);
    *seconds = bench_now() - t0;
    double cmax = ret == 0 && glp_get_status(P) == GLP_OPT ? glp_get_obj_val(P) : NAN;
    double *loads = malloc(m * sizeof *loads);
    for (size_t i = 0; i < m; i++)
        loads[i] = fmax(0, glp_get_col_prim(P, (int)i + 1));
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.use_limits = 0;
    dls_schedule *s;
    *replay = NAN;
    if (dls_schedule_evaluate(pl, loads, &par, &s, NULL) == DLS_OK) {
        *replay = dls_schedule_makespan(s);
        dls_schedule_free(s);
    }
    free(loads);
    free(ia);
    free(ja);
    free(ar);
    glp_delete_prob(P);
    return cmax;
}

int main(int argc, char **argv)
{
    size_t max_m = 1000000;
    bench_rng_state = 0x9E3779B97F4A7C15ull;
    const bench_option opt[] = {{"--max", BENCH_SIZE, &max_m}, {"--seed", BENCH_SEED, NULL}};
    bench_options(argc, argv, opt, 2, NULL, "[--max M] [--seed S]");
    static const size_t sizes[] = {10, 30, 100, 300, 1000, 3000, 10000, 20000, 30000, 50000};
    int dense_on = 1, lps_on = 1;
#ifndef HAVE_LPSOLVE_BENCH
    lps_on = 0;
#endif
    printf("# the star LP against m (load 10^6 per processor, 2 memory levels); times in s\n");
    printf("%7s | %9s %6s %5s | %9s %10s %10s | %9s %10s\n", "m", "dlsched", "iters", "solves",
           "dense", "vs dlsched", "own replay", "lp_solve", "vs dlsched");
    char path[] = "/tmp/dlsched_bench_lp_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_m; k++) {
        size_t m = sizes[k];
        double V = 1e6 * (double)m;
        dls_platform *pl = bench_star_platform(m, V);
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.drop_unused = 0;
        dls_schedule *s;
        dls_error err;
        double t0 = bench_now();
        if (dls_schedule_solve(pl, V, &par, &s, &err) != DLS_OK) {
            printf("%7zu | dlsched failed: %s\n", m, err.message);
            dls_platform_free(pl);
            break;
        }
        double t_sparse = bench_now() - t0, mine = dls_schedule_makespan(s);
        printf("%7zu | %9.3f %6u %5u |", m, t_sparse, dls_schedule_iterations(s),
               dls_schedule_solves(s));
        dls_schedule_free(s);
        if (dense_on) {
            double replay, secs;
            double dense = dense_glpk(pl, V, &replay, &secs);
            printf(" %9.3f %10.2e %10.2e |", secs, fabs(dense - mine) / mine,
                   fabs(replay - dense) / dense);
            if (secs > 20)
                dense_on = 0;
        } else {
            printf(" %9s %10s %10s |", "-", "-", "-");
        }
#ifdef HAVE_LPSOLVE_BENCH
        if (lps_on && dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_MPS, path, &err) == DLS_OK) {
            t0 = bench_now();
            lprec *lp = read_freeMPS(path, CRITICAL);
            int ret = lp ? solve(lp) : -1;
            double secs = bench_now() - t0;
            if (ret == OPTIMAL)
                printf(" %9.3f %10.2e\n", secs, fabs(get_objective(lp) - mine) / mine);
            else
                printf(" %9.3f %10s\n", secs, lp ? get_statustext(lp, ret) : "read failed");
            if (lp)
                delete_lp(lp);
            if (secs > 20)
                lps_on = 0;
        } else {
            printf(" %9s %10s\n", "-", "-");
        }
#else
        printf(" %9s %10s\n", "n/a", "-");
#endif
        fflush(stdout);
        dls_platform_free(pl);
        if (t_sparse > 60)
            break;
    }
    unlink(path);
    return 0;
}
