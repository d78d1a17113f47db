/* Benchmark of the chain solver (src/chain) against m, on the random stars of bench_lp.c
 * (2 memory levels, in-core 3e-4 to 3e-3 s per unit, the second level 5 to 20 times
 * slower past a swap point near the equal share, startups 3e-4 to 3e-3 s, rates 3e-7 to
 * 3e-6 s per unit, 10^6 units per processor, the platform's send order), all ratios
 * measured in the same run:
 * - one pass over the models: max_l (a_l + b_l x) for every processor at the equal share;
 * - the chain in PAPER mode (the paper's LP), as a number of passes: goal <= 40 at 10^6;
 * - GLPK on the same LP (dls__lp_solve_star, drop_unused = 0), up to 10^4, and how far its
 *   makespan is from the chain's;
 * - the chain in SELECT mode (the default: the best set of processors), against PAPER:
 *   goal <= 3 at 10^4; whether it was exact, its pieces, its gain over the paper's LP.
 * Every timing is the fastest of several runs (at least 3, or 0.2 s). The benchmark exits
 * 1 when it misses a goal.
 *
 * usage: bench_chain [--max M] [--seed S] [--order given|rate]
 */
#include <config.h>

#include "chain/chain.h"
#include "solver/solver.h"

#include "benchutil.h"

#define GOAL_PASSES 40.0      /* chain PAPER at 10^6, in passes over the models */
#define GOAL_SELECT 3.0       /* SELECT / PAPER at 10^4 */
#define GLPK_MAX 10000        /* GLPK up to this m */
#define GROWTH 100.0          /* the budget's extrapolation to 10 times the size */


/* One pass over the models: every processor's time at x; returns a checksum. */
static double one_pass(const dls__star *st, double x)
{
    double sum = 0;
    for (size_t k = 0; k < st->m; k++) {
        double t = -INFINITY;
        for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
            double v = st->a[l] + st->b[l] * x;
            t = v > t ? v : t;
        }
        sum += t;
    }
    return sum;
}

static volatile double sink;

/* Runs of at least 0.2 s in all and at least 3 (one when a run takes more than SLOW_RUN
 * seconds): the fastest. */
#define SLOW_RUN 1.0
#define TIMED(timer, body)                                                                 \
    do {                                                                                   \
        double t_all_ = 0;                                                                 \
        for (int rep_ = 0; rep_ < 3 || (t_all_ < 0.2 && rep_ < 1000); rep_++) {            \
            bench_start(&(timer));                                                         \
            body;                                                                          \
            t_all_ += bench_stop(&(timer));                                                \
            if ((timer).best > SLOW_RUN)                                                   \
                break;                                                                     \
        }                                                                                  \
    } while (0)

/* A solver whose time, extrapolated quadratically from the size before, would pass this
 * many seconds is not run at the next size (its figures are marked as skipped). */
#define BUDGET 60.0

static void solve(const dls__star *st, dls__chain_mode mode, dls__chain_answer *a)
{
    dls__chain_params par;
    dls__chain_params_init(&par);
    par.mode = mode;
    dls_error err;
    bench_check(dls__chain_solve(st, &par, a, &err), &err);
}

int main(int argc, char **argv)
{
    size_t max_m = 1000000;
    bench_rng_state = 0x9E3779B97F4A7C15ull;
    int rate = 0;
    const bench_option opt[] = {{"--max", BENCH_SIZE, &max_m}, {"--seed", BENCH_SEED, NULL},
                                {"--rate-order", BENCH_FLAG, &rate}};
    bench_options(argc, argv, opt, 3, NULL, "[--max M] [--seed S] [--rate-order]");
    int failed = 0;
    printf("# the chain solver against m (2 memory levels, load 10^6 per processor, %s send "
           "order); times in s, ratios from the same run\n", rate ? "rate" : "the platform's");
    printf("# pass: one pass over the models; paper: the chain, PAPER mode (x pass: its time in "
           "passes; count: passes counted inside; rounds; expl: explicit stages); glpk: GLPK on "
           "the same LP (x paper, and the relative difference of the makespans); select: the "
           "default mode (x pap: its time over PAPER's; exact; pieces of its value functions, "
           "all and most in one; gain: how much faster its schedule than the paper's LP's; "
           "gap: (makespan - lower bound) / makespan when not exact)\n");
    printf("%8s | %9s | %9s %9s %6s %6s %7s | %9s %8s %9s | %9s %6s %5s %9s %7s %9s %9s\n",
           "m", "pass", "paper", "x pass", "count", "rounds", "expl", "glpk", "x paper",
           "glpk diff", "select", "x pap", "exact", "pieces", "max", "gain", "gap");
    double last_paper = 0, last_select = 0;
    for (size_t m = 10; m <= max_m; m *= 10) {
        double V = 1e6 * (double)m;
        dls_platform *pl = bench_star_platform(m, V);
        dls_schedule_params sp;
        dls_schedule_params_init(&sp);
        sp.drop_unused = 0;
        sp.order = rate ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
        dls__star st;
        char *note = NULL;
        dls_error err;
        dls__star_opts so = dls__star_opts_from_params(&sp);
        bench_check(dls__star_build(pl, V, &so, 1, &st, &note, &err), &err);
        free(note);
        bench_timer tp = BENCH_TIMER, tc = BENCH_TIMER, ts = BENCH_TIMER, tg = BENCH_TIMER;
        TIMED(tp, sink = one_pass(&st, V / (double)m));
        if (last_paper * GROWTH > BUDGET) {
            printf("%8zu | %9.2e | skipped: PAPER would take about %.0f s (budget %.0f s)\n", m,
                   tp.best, last_paper * GROWTH, BUDGET);
            printf("# MISSED: sizes from m = %zu on not solved within the budget\n", m);
            failed = 1;
            dls__star_free(&st);
            dls_platform_free(pl);
            break;
        }
        dls__chain_answer pa, sa;
        TIMED(tc, solve(&st, DLS__CHAIN_PAPER, &pa); dls__chain_answer_free(&pa));
        solve(&st, DLS__CHAIN_PAPER, &pa);
        last_paper = tc.best;
        double passes = tc.best / tp.best;
        printf("%8zu | %9.2e | %9.2e %9.1f %6u %6u %7zu |", m, tp.best, tc.best, passes,
               pa.passes, pa.rounds, pa.explicit_stages);
        if (m <= GLPK_MAX) {
            dls__lp_answer la;
            memset(&la, 0, sizeof la);
            bench_start(&tg);
            dls_status rc = dls__lp_solve_star(&st, &so, &la, &err);
            bench_stop(&tg);
            if (rc == DLS_OK)
                printf(" %9.2e %8.0f %9.1e |", tg.best, tg.best / tc.best,
                       fabs(la.cmax - pa.makespan) / pa.makespan);
            else
                printf(" %9.2e %8s %9s |", tg.best, "failed", dls_status_name(rc));
            free(la.alpha);
            free(la.active);
        } else {
            printf(" %9s %8s %9s |", "-", "-", "-");
        }
        if (last_select * GROWTH > BUDGET) {
            printf(" skipped: SELECT would take about %.0f s\n", last_select * GROWTH);
            dls__chain_answer_free(&pa);
            dls__star_free(&st);
            dls_platform_free(pl);
            continue;
        }
        TIMED(ts, solve(&st, DLS__CHAIN_SELECT, &sa); dls__chain_answer_free(&sa));
        solve(&st, DLS__CHAIN_SELECT, &sa);
        last_select = ts.best;
        double sel = ts.best / tc.best;
        double gap = sa.exact ? 0 : (sa.makespan - sa.lower_bound) / sa.makespan;
        printf(" %9.2e %6.2f %5d %9zu %7zu %9.2e %9.2e\n", ts.best, sel, sa.exact,
               sa.pieces_total, sa.pieces_max, (pa.makespan - sa.makespan) / pa.makespan, gap);
        fflush(stdout);
        if (m == 1000000 && passes > GOAL_PASSES) {
            printf("# MISSED: the chain took %.1f passes at m = 10^6 (goal <= %.0f)\n", passes,
                   GOAL_PASSES);
            failed = 1;
        }
        if (m == 10000 && sel > GOAL_SELECT) {
            printf("# MISSED: SELECT took %.2f times PAPER at m = 10^4 (goal <= %.0f)\n", sel,
                   GOAL_SELECT);
            failed = 1;
        }
        dls__chain_answer_free(&pa);
        dls__chain_answer_free(&sa);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    return failed;
}
