/* Shared by the chain solver's test programs: stars built from platforms with a given send
 * order, random platforms for the cross-checks, the star of a subset of positions, the
 * checks every answer must pass (loads sum to V, limits hold, the replay gives the
 * makespan), and the paper's LP solved by GLPK. Include once per program, after gen.h. */
#ifndef DLSCHED_TEST_CHAIN_CHECK_H
#define DLSCHED_TEST_CHAIN_CHECK_H

#include "chain/chain.h"
#include "solver/solver.h"
#include "gen.h"
#include "star_build.h"

/* Relative agreement asked of every makespan, and of the replay of the loads. */
#define CHK_TOL 1e-12

/* The star of pl for load V: order, originator_computes, use_limits as given. */
static inline void chk_star(const dls_platform *pl, double V, dls_send_order order, int orig,
                            dls__star *st)
{
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = order;
    sp.originator_computes = orig;
    sp.drop_unused = 0;
    test_star_build(pl, V, &sp, st);
}

/* The paper's LP by GLPK (drop_unused = 0): its makespan, or NaN when GLPK fails (its
 * answer failing dlsched's own checks, DLS_ENUMERIC, or an error of GLPK's), with why. */
static inline double chk_glpk(const dls__star *st)
{
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.drop_unused = 0;
    dls__lp_answer la;
    memset(&la, 0, sizeof la);
    dls_error err;
    dls__star_opts so = dls__star_opts_from_params(&sp);
    dls_status rc = dls__lp_solve_star(st, &so, &la, &err);
    free(la.alpha);
    free(la.active);
    if (rc == DLS_ENUMERIC || rc == DLS_ESOLVER) {
        printf("#   GLPK: %s\n", err.message);
        return NAN;
    }
    assert_ok(rc, &err);
    return la.cmax;
}

/* The chain's answer in a mode, checked within tol (relative): loads >= 0 within their
 * limits and summing to V, the replay of the loads (charging unused positions in PAPER)
 * equal to the makespan and to the chain's. */
static inline void chk_solve_tol(const dls__star *st, dls__chain_mode mode,
                                 const dls__chain_params *base, dls__chain_answer *a,
                                 double tol)
{
    dls__chain_params par;
    if (base)
        par = *base;
    else
        dls__chain_params_init(&par);
    par.mode = mode;
    dls_error err;
    assert_ok(dls__chain_solve(st, &par, a, &err), &err);
    if (a->infeasible)
        return;
    long double sum = 0;
    for (size_t k = 0; k < st->m; k++) {
        if (!(a->alpha[k] >= 0) || a->alpha[k] > st->B[k] * (1 + tol))
            fail_msg("position %zu: load %.17g outside [0, %.17g]", k, a->alpha[k], st->B[k]);
        sum += a->alpha[k];
    }
    if (!(fabsl(sum - st->V) <= tol * st->V))
        fail_msg("the loads sum to %.17Lg, not %.17g", sum, st->V);
    double replay = dls__replay(st, a->alpha, NULL, mode == DLS__CHAIN_PAPER, 0, NULL, NULL,
                                NULL, NULL, NULL);
    assert_rel(replay, a->makespan, tol);
    assert_rel(a->chain_makespan, a->makespan, tol);
    if (a->exact)
        assert_rel(a->lower_bound, a->makespan, tol);
    else
        assert_true(a->lower_bound <= a->makespan * (1 + tol));
    if (mode == DLS__CHAIN_SELECT)
        assert_true(a->makespan <= a->paper_makespan * (1 + tol));
}

/* chk_solve_tol within CHK_TOL. */
static inline void chk_solve(const dls__star *st, dls__chain_mode mode, const dls__chain_params *base,
                             dls__chain_answer *a)
{
    chk_solve_tol(st, mode, base, a, CHK_TOL);

}

/* The star of the positions of st in mask (bit k: position k), in the same order. */
static inline void chk_substar(const dls__star *st, unsigned long mask, dls__star *sub)
{
    size_t n = 0, nl = 0;
    for (size_t k = 0; k < st->m; k++)
        if (mask >> k & 1) {
            n++;
            nl += st->off[k + 1] - st->off[k];
        }
    memset(sub, 0, sizeof *sub);
    sub->m = n;
    sub->V = st->V;
    sub->proc = malloc(n * sizeof *sub->proc);
    sub->S = malloc(n * sizeof *sub->S);
    sub->C = malloc(n * sizeof *sub->C);
    sub->B = malloc(n * sizeof *sub->B);
    sub->off = malloc((n + 1) * sizeof *sub->off);
    sub->a = malloc((nl + 1) * sizeof *sub->a);
    sub->b = malloc((nl + 1) * sizeof *sub->b);
    sub->from_speed = calloc(n + 1, sizeof *sub->from_speed);
    sub->model = malloc((n + 1) * sizeof *sub->model);
    assert_true(sub->proc && sub->S && sub->C && sub->B && sub->off && sub->a && sub->b &&
                sub->from_speed && sub->model);
    size_t j = 0, l = 0;
    for (size_t k = 0; k < st->m; k++) {
        if (!(mask >> k & 1))
            continue;
        sub->proc[j] = st->proc[k];
        sub->S[j] = st->S[k];
        sub->C[j] = st->C[k];
        sub->B[j] = st->B[k];
        sub->model[j] = st->model[k];
        sub->off[j] = l;
        for (size_t q = st->off[k]; q < st->off[k + 1]; q++, l++) {
            sub->a[l] = st->a[q];
            sub->b[l] = st->b[q];
        }
        j++;
    }
    sub->off[n] = l;
}

/* Random stars for the cross-checks with the paper's LP: m processors with 1 to 4 time
 * lines (the magnitudes of gen_star: in-core 1e-4 to 1e-2 s per unit, each further level 3
 * to 30 times slower, startups 1e-4 to 1e-2 s, rates 1e-7 to 1e-5 s per unit), one in eight
 * with a constant speed instead; about a sixth without a link (the originator's own when
 * it computes, else a free link), a sixth with a link of rate 0, a sixth with startup 0;
 * limits on about half of them on half of the platforms (capacity kept >= V). */
static inline dls_platform *chk_platform(test_rng *r, size_t m, double V)
{
    dls_platform *pl = test_platform_new();
    double share = V / (double)m;
    gen_limits lim = {test_below(r, 2), 0, 0};
    for (size_t i = 0; i < m; i++) {
        if (test_below(r, 8) == 0) {
            gen_add(pl, "c", i, gen_constant(test_logrange(r, 1e2, 1e4)));
        } else {
            size_t levels = 1 + test_below(r, 4);
            double a[8], b[8];
            b[0] = test_logrange(r, 1e-4, 1e-2);
            a[0] = test_below(r, 3) == 0 ? test_logrange(r, 1e-4, 1e-1) : 0;
            gen_levels(r, levels, a, b, share * test_logrange(r, 0.1, 3), 3, 30, 2, 10);
            gen_add(pl, "n", i, gen_lines(levels, a, b));
        }
        switch (test_below(r, 6)) {
        case 0:
            break; /* no link */
        case 1:
            gen_link(pl, i, test_logrange(r, 1e-4, 1e-2), 0);
            break;
        case 2:
            gen_link(pl, i, 0, test_logrange(r, 1e-7, 1e-5));
            break;
        default:
            gen_link(pl, i, test_logrange(r, 1e-4, 1e-2), test_logrange(r, 1e-7, 1e-5));
        }
        gen_limits_step(r, pl, i, &lim, share, 0.3, 3);
    }
    gen_limits_end(pl, &lim, V);
    return pl;
}

/* A platform where selection matters: m processors, 2 levels (in-core 1e-3 to 1e-2 s per
 * unit, the second 3 to 30 times slower past a swap point near the equal share), links
 * with startups 0.5 to 5 s and rates 1e-4 to 1e-2 s per unit; a sixth with a positive
 * intercept, a tenth with a free link (rate 0), limits on a quarter of the platforms. */
static inline dls_platform *chk_select_platform(test_rng *r, size_t m, double V)
{
    dls_platform *pl = test_platform_new();
    double share = V / (double)m;
    gen_limits lim = {test_below(r, 4) == 0, 0, 0};
    for (size_t i = 0; i < m; i++) {
        double a[2], b[2];
        b[0] = test_logrange(r, 1e-3, 1e-2);
        a[0] = test_below(r, 6) == 0 ? test_logrange(r, 0.05, 2) : 0;
        gen_levels(r, 2, a, b, share * test_logrange(r, 0.3, 3), 3, 30, 2, 10);
        gen_add(pl, "w", i, gen_lines(2, a, b));
        double rate = test_below(r, 10) == 0 ? 0 : test_logrange(r, 1e-4, 1e-2);
        gen_link(pl, i, test_logrange(r, 0.5, 5), rate);
        gen_limits_step(r, pl, i, &lim, V, 0.2, 1.5);
    }
    gen_limits_end(pl, &lim, V);
    return pl;
}

/* One random trial: the platform make() draws for m processors and load V (free with
 * dls_platform_free), and its star in *st (free with dls__star_free) in the trial's
 * variant, *var: rate order on every third trial, the originator computing on trials with
 * trial % orig_every == 1. */
typedef struct chk_variant {
    dls_send_order order;
    int orig;
} chk_variant;

static inline dls_platform *chk_trial(test_rng *r, int trial, size_t m, double V,
                                      dls_platform *(*make)(test_rng *, size_t, double),
                                      int orig_every, dls__star *st, chk_variant *var)
{
    dls_platform *pl = make(r, m, V);
    var->order = trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
    var->orig = trial % orig_every == 1;
    chk_star(pl, V, var->order, var->orig, st);
    return pl;
}

#endif /* DLSCHED_TEST_CHAIN_CHECK_H */
