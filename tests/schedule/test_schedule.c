/* Tests of the divisible-load scheduler: the paper's worked example, optimality against an
 * independent method on small platforms (the makespan is a convex function of the loads
 * in the paper's LP, minimised here by nested golden-section searches over a timeline
 * computed independently), processor selection against every subset, exports read back by
 * glpsol, the embedding of GLPK (no output, no abort, no leak over 10,000 calls), and every
 * error path. The comparison with lp_solve is in test_lp_crosscheck.c. */
#include <fcntl.h>
#include <glpk.h>
#include <sys/stat.h>
#include <unistd.h>

#include "solver/glpk_guard.h"
#include "schedule/schedule_impl.h"
#include "gen.h"
#include "solver_output.h"
#include "star_build.h"

/* ---------------------------------------------------------------------------------- */
/* An independent timeline: the paper's model charges every processor of `used` its
 * startup and its smallest compute time, whatever its load. */

static double lines_time(const dls_model *m, double x)
{
    size_t n;
    const double *a, *b;
    assert_ok(dls_model_get_lines(m, &n, &a, &b), &(dls_error){0});
    double t = -INFINITY;
    for (size_t l = 0; l < n; l++)
        t = fmax(t, a[l] + b[l] * x);
    return t;
}

static double ref_makespan(const dls_platform *pl, const double *alpha, unsigned used)
{
    double clock = 0, mk = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        if (!(used & (1u << i)))
            continue;
        double S, C;
        dls_platform_link(pl, i, &S, &C);
        clock += S + C * alpha[i];
        mk = fmax(mk, clock + lines_time(dls_platform_model(pl, i), alpha[i]));
    }
    return mk;
}

/* Golden-section minimum of a convex function on [lo, hi]. */
typedef double (*fn1)(double x, void *ctx);

static double golden(fn1 f, void *ctx, double lo, double hi, double *argmin)
{
    const double g = (sqrt(5.0) - 1) / 2;
    double a = lo, b = hi, c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(c, ctx), fd = f(d, ctx);
    for (int it = 0; it < 120 && b - a > 1e-15 * fmax(1, fabs(b)); it++) {
        if (fc <= fd) {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c, ctx);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d, ctx);
        }
    }
    double best = fmin(fmin(fc, fd), fmin(f(lo, ctx), f(hi, ctx)));
    if (argmin)
        *argmin = fc <= fd ? c : d;
    return best;
}

typedef struct sub {
    const dls_platform *pl;
    unsigned used;
    double V;
    size_t idx[3], n;
    double fixed1;
} sub;

static double lim(const dls_platform *pl, size_t i)
{
    return dls_platform_limit(pl, i);
}

/* Best makespan with the first processor of the subset at x1, over the second's load. */
static double inner(double x2, void *ctx)
{
    sub *s = ctx;
    double alpha[3] = {0, 0, 0};
    alpha[s->idx[0]] = s->fixed1;
    alpha[s->idx[1]] = x2;
    alpha[s->idx[2]] = s->V - s->fixed1 - x2;
    return ref_makespan(s->pl, alpha, s->used);
}

static double outer(double x1, void *ctx)
{
    sub *s = ctx;
    double alpha[3] = {0, 0, 0};
    if (s->n == 1) {
        alpha[s->idx[0]] = s->V;
        return ref_makespan(s->pl, alpha, s->used);
    }
    if (s->n == 2) {
        alpha[s->idx[0]] = x1;
        alpha[s->idx[1]] = s->V - x1;
        return ref_makespan(s->pl, alpha, s->used);
    }
    s->fixed1 = x1;
    double rest = s->V - x1;
    double lo = fmax(0, rest - lim(s->pl, s->idx[2])), hi = fmin(lim(s->pl, s->idx[1]), rest);
    if (lo > hi)
        return INFINITY;
    return golden(inner, s, lo, hi, NULL);
}

/* The optimum of the paper's LP over the processors in `used` (INFINITY if their limits
 * cannot hold V). */
static double ref_optimum(const dls_platform *pl, double V, unsigned used)
{
    sub s = {pl, used, V, {0, 0, 0}, 0, 0};
    double cap = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (used & (1u << i)) {
            s.idx[s.n++] = i;
            cap += lim(pl, i);
        }
    if (cap < V * (1 - 1e-12))
        return INFINITY;
    if (s.n == 1)
        return outer(V, &s);
    double restcap = 0;
    for (size_t k = 1; k < s.n; k++)
        restcap += lim(pl, s.idx[k]);
    double lo = fmax(0, V - restcap), hi = fmin(lim(pl, s.idx[0]), V);
    return golden(outer, &s, lo, hi, NULL);
}

/* ---------------------------------------------------------------------------------- */

/* The schedule of load V, which must succeed. */
static dls_schedule *solved(const dls_platform *pl, double V, const dls_schedule_params *par)
{
    dls_error err;
    dls_schedule *s;
    assert_ok(dls_schedule_solve(pl, V, par, &s, &err), &err);
    return s;
}

/* The schedule of the given loads, which must succeed. */
static dls_schedule *evaluated(const dls_platform *pl, const double *loads,
                               const dls_schedule_params *par)
{
    dls_error err;
    dls_schedule *s;
    assert_ok(dls_schedule_evaluate(pl, loads, par, &s, &err), &err);
    return s;
}

TEST(test_paper_example)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_schedule *s;
    for (int solver = DLS_SOLVER_CHAIN; solver <= DLS_SOLVER_GLPK; solver++) {
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.solver = (dls_star_solver)solver;
        s = solved(pl, 2, &par);
        assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_OPTIMAL);
        assert_rel(dls_schedule_loads(s)[0], 1.25, 1e-12);
        assert_rel(dls_schedule_loads(s)[1], 0.75, 1e-12);
        assert_rel(dls_schedule_makespan(s), 5.75, 1e-12);
        assert_rel(dls_schedule_paper_makespan(s), 5.75, 1e-12);
        assert_rel(dls_schedule_true_makespan(s), 5.75, 1e-12);
        /* P1 receives until 2.25 and works out of core (level 2), P2 until 4 in core */
        assert_rel(dls_schedule_send_end(s)[0], 2.25, 1e-12);
        assert_rel(dls_schedule_send_start(s)[1], 2.25, 1e-12);
        assert_rel(dls_schedule_send_end(s)[1], 4, 1e-12);
        assert_int_equal(dls_schedule_levels(s)[0], 2);
        assert_int_equal(dls_schedule_levels(s)[1], 1);
        assert_rel_floor(dls_schedule_idle(s)[0], 0, 1e-12, 1);
        assert_true((dls_schedule_iterations(s) > 0) == (solver == DLS_SOLVER_GLPK));
        assert_true(dls_schedule_residual(s) <= 1e-12);
        assert_string_equal(dls_schedule_note(s), "");
        dls_schedule_solver_info info;
        assert_ok(dls_schedule_get_solver_info(s, &info, &err), &err);
        assert_int_equal(info.solver, solver);
        /* GLPK's selection is a heuristic: it does not claim the best set */
        assert_int_equal(info.optimal, solver == DLS_SOLVER_CHAIN);
        assert_int_equal(info.used, 2);
        if (solver == DLS_SOLVER_CHAIN) {
            assert_rel(info.lower_bound, 5.75, 1e-12);
            /* dT/dV against GLPK's makespans a little either side of the load (T is
             * linear there: no bend within 1e-4 of V = 2) */
            const double h = 1e-4;
            double side[2];
            for (int k = 0; k < 2; k++) {
                dls_schedule *t;
                dls_schedule_params g;
                dls_schedule_params_init(&g);
                g.solver = DLS_SOLVER_GLPK;
                assert_ok(dls_schedule_solve(pl, k ? 2 + h : 2 - h, &g, &t, &err), &err);
                side[k] = dls_schedule_makespan(t);
                dls_schedule_free(t);
            }
            assert_rel(info.marginal_left, (5.75 - side[0]) / h, 1e-8);
            assert_rel(info.marginal_right, (side[1] - 5.75) / h, 1e-8);
        } else {
            assert_true(isnan(info.marginal_left));
        }
        dls_schedule_free(s);
    }

    /* standard DLT with in-core speed gives 5/3 and 1/3: really 10.333 */
    const double dlt_core[] = {5.0 / 3, 1.0 / 3};
    s = evaluated(pl, dlt_core, NULL);
    assert_rel(dls_schedule_makespan(s), 31.0 / 3, 1e-12);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_FEASIBLE);
    assert_rel(dls_schedule_idle(s)[1], 31.0 / 3 - 16.0 / 3, 1e-12);
    dls_schedule_free(s);
    /* with the out-of-core speed, 1.095 and 0.905 (23/21 and 19/21): really 5.905 */
    const double dlt_disk[] = {23.0 / 21, 19.0 / 21};
    s = evaluated(pl, dlt_disk, NULL);
    assert_rel(dls_schedule_makespan(s), 4 + 40.0 / 21, 1e-12);
    assert_rel(dls_schedule_makespan(s), 5.905, 1e-3);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* Where the chain's answer fails its own check, GLPK answers the same LP and the schedule
 * says so (issue 34: never exit 3 while another method here answers); past the size GLPK
 * takes over, the chain's failure stands, and says so. */
TEST(test_chain_fallback)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    for (int drop = 0; drop < 2; drop++) {
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.drop_unused = drop;
        dls__star st;
        test_star_build(pl, 2, &par, &st);
        dls_schedule *s = dls__schedule_alloc(2, 2);
        assert_non_null(s);
        dls_error_clear(&err);
        snprintf(err.message, sizeof err.message, "the chain's makespan and its replay differ");
        assert_ok(dls__schedule_chain_fallback(pl, &st, &par, s, &err), &err);
        assert_rel(dls_schedule_makespan(s), 5.75, 1e-12);
        assert_rel(dls_schedule_loads(s)[0], 1.25, 1e-12);
        assert_non_null(strstr(dls_schedule_note(s), "the chain solver's answer failed its "
                                                     "check (the chain's makespan and its "
                                                     "replay differ); GLPK's answer"));
        assert_int_equal(s->solver.solver, DLS_SOLVER_GLPK);
        dls_schedule_free(s);
        dls__star_free(&st);
    }
    dls_platform_free(pl);
    /* 20,001 processors: the chain's failure, with why GLPK does not take over */
    pl = test_platform_new();
    for (size_t i = 0; i < 20001; i++)
        gen_add(pl, "p", i, gen_constant(1e3));
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    dls__star st;
    test_star_build(pl, 1e6, &par, &st);
    dls_schedule *s = dls__schedule_alloc(20001, 1e6);
    assert_non_null(s);
    /* a whole record, as a failure leaves it: its origin (none here) is passed on */
    dls_error_clear(&err);
    snprintf(err.message, sizeof err.message, "the chain's check failed");
    assert_int_equal(dls__schedule_chain_fallback(pl, &st, &par, s, &err), DLS_ENUMERIC);
    assert_non_null(strstr(err.message, "the chain's check failed; 20001 processors are too "
                                        "many for GLPK's simplex to take over"));
    dls_schedule_free(s);
    dls__star_free(&st);
    dls_platform_free(pl);
}

/* The paper's LP (every processor charged) against the independent convex minimisation,
 * and the processor selection against every subset. */
TEST(test_small_against_reference)
{
    test_rng r = test_rng_salted(300);
    dls_schedule_params keep, drop;
    int missed[2] = {0, 0}, trials = 300;
    for (int trial = 0; trial < 2 * trials; trial++) {
        int solver = trial % 2;
        dls_schedule_params_init(&keep);
        keep.drop_unused = 0;
        keep.solver = (dls_star_solver)solver;
        dls_schedule_params_init(&drop);
        drop.solver = keep.solver;
        size_t m = 1 + test_below(&r, 3);
        double V = test_logrange(&r, 1e3, 1e9);
        dls_platform *pl = gen_star(&r, m, 3, V, trial % 2);
        dls_schedule *s;
        s = solved(pl, V, &keep);
        unsigned all = (1u << m) - 1;
        double want = ref_optimum(pl, V, all);
        if (!test_close(dls_schedule_makespan(s), want, 1e-9, 0))
            fail_msg("trial %d (m %zu): paper LP %.17g, reference %.17g", trial, m,
                     dls_schedule_makespan(s), want);
        dls_schedule_free(s);
        s = solved(pl, V, &drop);
        double best = INFINITY;
        for (unsigned used = 1; used <= all; used++)
            best = fmin(best, ref_optimum(pl, V, used));
        double mk = dls_schedule_makespan(s);
        assert_true(mk >= best * (1 - 1e-9));
        assert_true(mk <= dls_schedule_paper_makespan(s) * (1 + 1e-12));
        assert_rel(dls_schedule_paper_makespan(s), want, 1e-9);
        missed[solver] += mk > best * (1 + 1e-9);
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    printf("# processor selection missed the best subset in %d of %d trials with the chain, "
           "%d with GLPK\n", missed[DLS_SOLVER_CHAIN], trials, missed[DLS_SOLVER_GLPK]);
    /* the chain's selection is exact */
    assert_int_equal(missed[DLS_SOLVER_CHAIN], 0);
}

/* Every solved schedule is a valid timeline: the loads sum to V within the limits, and an
 * independent replay of the loads gives the makespan. */
RANDOM_TEST(test_random_consistency, 301, 200)
{
    size_t m = 1 + test_below(r, trial % 10 == 0 ? 300 : 30);
    double V = test_logrange(r, 1e4, 1e10);
    dls_platform *pl = gen_star(r, m, 4, V, trial % 2);
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.order = trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
    dls_schedule *s;
    s = solved(pl, V, &par);
    const double *ld = dls_schedule_loads(s);
    const size_t *seq = dls_schedule_sequence(s);
    double sum = 0, clock = 0, mk = 0;
    for (size_t k = 0; k < m; k++) {
        size_t i = seq[k];
        assert_true(ld[i] >= 0 && ld[i] <= dls_platform_limit(pl, i) * (1 + 1e-12));
        sum += ld[i];
        if (ld[i] == 0) {
            assert_true(isnan(dls_schedule_send_start(s)[i]));
            continue;
        }
        double S, C;
        dls_platform_link(pl, i, &S, &C);
        assert_rel_floor(dls_schedule_send_start(s)[i], clock, 1e-12, 1e-9);
        clock += S + C * ld[i];
        double fin = clock + lines_time(dls_platform_model(pl, i), ld[i]);
        assert_rel(dls_schedule_finish(s)[i], fin, 1e-12);
        mk = fmax(mk, fin);
        if (par.order == DLS_ORDER_RATE && k > 0) {
            double c0, c1;
            dls_platform_link(pl, seq[k - 1], NULL, &c0);
            dls_platform_link(pl, i, NULL, &c1);
            assert_true(c0 <= c1);
        }
    }
    assert_rel(sum, V, 1e-9);
    assert_rel(dls_schedule_makespan(s), mk, 1e-9);
    assert_true(dls_schedule_residual(s) <= 1e-9);
    assert_true(dls_schedule_kkt_primal(s) <= 1e-6);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST(test_selection_and_order)
{
    /* a processor behind a very slow link gets nothing and is dropped */
    const char *text = "{\"processors\": ["
                       " {\"name\": \"fast\", \"time\": [[0, 1e-3]], \"link\": {\"startup\": 0.01, \"rate\": 1e-6}},"
                       " {\"name\": \"far\", \"time\": [[0, 1e-3]], \"link\": {\"startup\": 1e6, \"rate\": 1e-6}},"
                       " {\"name\": \"local\", \"time\": [[0, 2e-3]]}]}";
    dls_platform *pl = test_platform_json(text);
    dls_schedule *s;
    s = solved(pl, 1e6, NULL);
    assert_rel(dls_schedule_loads(s)[1], 0, 0);
    assert_true(isnan(dls_schedule_send_start(s)[1]));
    assert_true(dls_schedule_makespan(s) < dls_schedule_paper_makespan(s));
    /* "local" got nothing in the paper's LP only because "far" delays it: it comes back */
    assert_true(dls_schedule_loads(s)[2] > 0);
    /* an unused processor is part of the answer, not a note to warn of (issue 36) */
    assert_null(strstr(dls_schedule_note(s), "no load"));
    dls_schedule_free(s);
    /* GLPK drops "far" and solves again */
    dls_schedule_params glpk;
    dls_schedule_params_init(&glpk);
    glpk.solver = DLS_SOLVER_GLPK;
    s = solved(pl, 1e6, &glpk);
    assert_rel(dls_schedule_loads(s)[1], 0, 0);
    assert_true(dls_schedule_loads(s)[2] > 0);
    assert_true(dls_schedule_solves(s) >= 2);
    dls_schedule_free(s);
    /* the originator's own processor (no link) is served first */
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.originator_computes = 1;
    par.order = DLS_ORDER_RATE;
    s = solved(pl, 1e6, &par);
    assert_int_equal(dls_schedule_sequence(s)[0], 2);
    /* "fast" and "far" have the same rate: platform order */
    assert_int_equal(dls_schedule_sequence(s)[1], 0);
    assert_int_equal(dls_schedule_sequence(s)[2], 1);
    assert_rel(dls_schedule_send_start(s)[2], 0, 0);
    assert_rel(dls_schedule_send_end(s)[2], 0, 0);
    dls_schedule_free(s);
    /* evaluate follows the same order */
    const double loads[] = {5e5, 0, 5e5};
    s = evaluated(pl, loads, &par);
    assert_int_equal(dls_schedule_sequence(s)[0], 2);
    assert_rel(dls_schedule_finish(s)[2], 1000, 1e-12);
    assert_rel(dls_schedule_finish(s)[0], 0.01 + 0.5 + 500, 1e-12);
    assert_rel(dls_schedule_makespan(s), 1000, 1e-12);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST(test_infeasible)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    assert_ok(dls_platform_set_limit(pl, 0, 0.5, &err), &err);
    assert_ok(dls_platform_set_limit(pl, 1, 0.7, &err), &err);
    dls_schedule *s;
    s = solved(pl, 2, NULL);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_schedule_note(s), "at most 1.2"));
    assert_true(isinf(dls_schedule_makespan(s)));
    assert_rel(dls_schedule_capacity(s), 1.2, 1e-15);
    char *svg = NULL;
    assert_fails(dls_schedule_gantt_to_string(s, pl, &svg, &err), DLS_EINVAL, &err, "infeasible");
    dls_schedule_free(s);
    /* within the limits: P1 may take only 1.3 */
    assert_ok(dls_platform_set_limit(pl, 0, 1.3, &err), &err);
    s = solved(pl, 2, NULL);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_OPTIMAL);
    assert_true(dls_schedule_loads(s)[0] <= 1.3 + 1e-12);
    dls_schedule_free(s);
    /* ignoring the limits */
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.use_limits = 0;
    assert_ok(dls_platform_set_limit(pl, 0, 0.5, &err), &err);
    s = solved(pl, 2, &par);
    assert_rel(dls_schedule_makespan(s), 5.75, 1e-12);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST(test_speed_models)
{
    dls_error err;
    dls_platform *pl = test_example("memory_levels.json");
    dls_schedule *s;
    s = solved(pl, 1e9, NULL);
    /* the gpu's speed rises with the size: its time is not convex, which is a warning
     * (the note) where the envelope changed the answer, else a detail (issue 36) */
    int changed = dls_schedule_makespan(s) > dls_schedule_lp_makespan(s) * (1 + 1e-9);
    assert_non_null(strstr(changed ? dls_schedule_note(s) : dls_schedule_details(s),
                           "processor \"gpu\""));
    assert_null(strstr(changed ? dls_schedule_details(s) : dls_schedule_note(s),
                       "processor \"gpu\""));
    assert_true(dls_schedule_envelope_deviation(s) > 0.01);
    assert_int_equal(dls_schedule_levels(s)[3], 0);
    /* the envelope is below the true time: the true makespan is not smaller */
    assert_true(dls_schedule_true_makespan(s) >= dls_schedule_makespan(s) * (1 - 1e-12));
    /* evaluating the same loads under the true models gives the true makespan */
    dls_schedule *e;
    assert_ok(dls_schedule_evaluate(pl, dls_schedule_loads(s), NULL, &e, &err), &err);
    assert_rel(dls_schedule_makespan(e), dls_schedule_true_makespan(s), 1e-12);
    dls_schedule_free(e);
    char *svg;
    assert_ok(dls_schedule_gantt_to_string(s, pl, &svg, &err), &err);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "originator (sends)"));
    assert_non_null(strstr(svg, ">new-epyc</text>"));
    assert_non_null(strstr(svg, "time (s)"));
    assert_non_null(strstr(svg, "level 2"));
    assert_non_null(strstr(svg, "speed model"));
    assert_non_null(strstr(svg, "</svg>"));
    /* issue 36: what a print shows without hovering: every load on its lane and in the
     * table, the solver that made the schedule in the subtitle */
    assert_int_equal(test_count(svg, "class=\"load-label\""), dls_schedule_count(s));
    assert_int_equal(test_count(svg, "<g class=\"table\">"), 1);
    assert_non_null(strstr(svg, ">load (units)</text>"));
    assert_non_null(strstr(svg, "class=\"subtitle\" x=\"170\" y=\"42\" fill=\"#555\">optimal, "
                                "chain solver"));
    assert_null(strstr(svg, "LP optimum"));
    for (size_t i = 0; i < dls_schedule_count(s); i++) { /* each load, 6 digits at least */
        double v = dls_schedule_loads(s)[i];
        int found = 0;
        for (const char *at = strstr(svg, "class=\"load-label\""); at != NULL && !found;
             at = strstr(at + 1, "class=\"load-label\"")) {
            const char *text = strstr(strchr(at, '>'), ">load ");
            found = text != NULL && fabs(strtod(text + 6, NULL) - v) <= 1e-5 * v;
        }
        if (!found)
            fail_msg("no label for the load %.17g of processor %zu", v, i);
    }
    dls_free(svg);
    /* GLPK's schedule says so */
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    par.drop_unused = 0;
    dls_schedule_free(s);
    s = solved(pl, 1e9, &par);
    assert_ok(dls_schedule_gantt_to_string(s, pl, &svg, &err), &err);
    assert_non_null(strstr(svg, "GLPK simplex"));
    assert_null(strstr(svg, "chain solver"));
    dls_free(svg);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

RANDOM_TEST(test_exact, 302, 20)
{
    dls_error err;
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.exact = 1;
    dls_platform *pl = gen_star(r, 1 + test_below(r, 40), 3, 1e8, trial % 2);
    dls_schedule *s;
    /* glp_exact certifies GLPK's basis: the chain solver refuses it */
    assert_fails(dls_schedule_solve(pl, 1e8, &par, &s, &err), DLS_EINVAL, &err, "GLPK solver");
    par.solver = DLS_SOLVER_GLPK;
    s = solved(pl, 1e8, &par);
    assert_int_equal(dls_schedule_exact_confirmed(s), 1);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* Runs command with the standard output and error going to a file, returns its size. */
static long silent_calls(int count)
{
    char path[] = "/tmp/dls_out_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), errfd = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);
    test_rng r = test_rng_salted(303);
    dls_error err;
    int failures = 0;
    for (int k = 0; k < count; k++) {
        dls_platform *pl = gen_star(&r, 1 + test_below(&r, 6), 3, 1e6, k % 2);
        dls_schedule *s = NULL;
        if (dls_schedule_solve(pl, 1e6, NULL, &s, &err) != DLS_OK)
            failures++;
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    fflush(stdout);
    fflush(stderr);
    dup2(out, 1);
    dup2(errfd, 2);
    close(out);
    close(errfd);
    struct stat sb;
    fstat(fd, &sb);
    close(fd);
    unlink(path);
    assert_int_equal(failures, 0);
    return (long)sb.st_size;
}

TEST(test_glpk_is_silent)
{
    /* 10,000 solves print nothing; the sanitizers check that nothing leaks */
    assert_int_equal(silent_calls(10000), 0);
}

/* Calls GLPK wrongly inside the library's guard. */
static void provoke_glpk_error(void)
{
    dls_error err;
    dls__glpk_guard g;
    volatile int reached = 0;
    dls__glpk_enter(&g, 0);
    if (setjmp(g.env) != 0) {
        dls_status st = dls__glpk_failed(&g, &err, "test");
        assert_int_equal(st, DLS_ESOLVER);
        assert_non_null(strstr(err.message, "test: GLPK internal error"));
        assert_non_null(strstr(err.message, "out of range"));
        reached = 1;
    } else {
        glp_prob *P = glp_create_prob();
        glp_set_col_bnds(P, 7, GLP_LO, 0, 0); /* no column 7: glp_error */
        fail_msg("GLPK did not report the error");
    }
    assert_true(reached);
}

TEST(test_glpk_errors_do_not_abort)
{
    /* a GLPK internal error inside the guard comes back as DLS_ESOLVER */
    for (int k = 0; k < 3; k++)
        provoke_glpk_error();
    /* and GLPK still works afterwards, silently */
    test_glpk_still_works();
    assert_int_equal(silent_calls(10), 0);
}

/* Exports read back by GLPK's own solver reach the library's optimum. */
static double glpsol_value(const char *args, const char *pattern)
{
    return test_glpsol_value(GLPSOL, args, pattern);
}

TEST(test_exports)
{
    if (GLPSOL[0] == '\0') {
        printf("# glpsol not found: exports are written but not solved again\n");
    }
    test_rng r = test_rng_salted(304);
    dls_error err;
    char dir[] = "/tmp/dls_export_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256], args[600];
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.drop_unused = 0;
    for (int trial = 0; trial < 12; trial++) {
        size_t m = 1 + test_below(&r, 25);
        double V = test_logrange(&r, 1e5, 1e9);
        dls_platform *pl = gen_star(&r, m, 3, V, trial % 2);
        dls_schedule *s;
        s = solved(pl, V, &par);
        double want = dls_schedule_paper_makespan(s);
        dls_schedule_free(s);
        snprintf(path, sizeof path, "%s/star.dat", dir);
        assert_ok(dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_MATHPROG, path, &err), &err);
        if (GLPSOL[0]) {
            snprintf(args, sizeof args, "-m %s/lp/star.mod -d %s", TOP_SRCDIR, path);
            assert_rel(glpsol_value(args, "makespan "), want, 1e-7);
        }
        snprintf(path, sizeof path, "%s/star.lp", dir);
        assert_ok(dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_LP, path, &err), &err);
        if (GLPSOL[0]) {
            snprintf(args, sizeof args, "--lp %s -o /dev/stdout", path);
            assert_rel(glpsol_value(args, "Objective:  makespan = "), want, 1e-7);
        }
        snprintf(path, sizeof path, "%s/star.glp", dir);
        assert_ok(dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_GLPK, path, &err), &err);
        if (GLPSOL[0]) {
            snprintf(args, sizeof args, "--glp %s -o /dev/stdout", path);
            assert_rel(glpsol_value(args, "Objective:  makespan = "), want, 1e-7);
        }
        snprintf(path, sizeof path, "%s/star.mps", dir);
        assert_ok(dls_schedule_lp_write_file(pl, V, &par, DLS_EXPORT_MPS, path, &err), &err);
        if (GLPSOL[0]) {
            snprintf(args, sizeof args, "--freemps %s -o /dev/stdout", path);
            assert_rel(glpsol_value(args, "Objective:  makespan = "), want, 1e-7);
        }
        dls_platform_free(pl);
    }
    const char *files[] = {"star.dat", "star.lp", "star.glp", "star.mps"};
    for (int k = 0; k < 4; k++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[k]);
        unlink(path);
    }
    /* an unwritable destination */
    dls_platform *pl = test_example("star_two.json");
    assert_fails(dls_schedule_lp_write_file(pl, 2, NULL, DLS_EXPORT_LP, "/nonexistent/x.lp", &err),
                 DLS_EIO, &err, "/nonexistent/x.lp");
    assert_fails(dls_schedule_lp_write_file(pl, 2, NULL, DLS_EXPORT_MATHPROG, "/nonexistent/x.dat", &err),
                 DLS_EIO, &err, "/nonexistent/x.dat");
    assert_fails(dls_schedule_lp_write_file(pl, 2, NULL, (dls_export_format)9, path, &err), DLS_EINVAL,
                 &err, "format");
    assert_fails(dls_schedule_lp_write_file(pl, -1, NULL, DLS_EXPORT_LP, path, &err), DLS_EINVAL, &err,
                 "load");
    dls_platform_free(pl);
    rmdir(dir);
}

TEST(test_argument_errors)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_schedule *s = NULL;
    dls_schedule_params par;
    assert_fails(dls_schedule_solve(NULL, 1, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_schedule_solve(pl, 0, NULL, &s, &err), DLS_EINVAL, &err, "load");
    assert_fails(dls_schedule_solve(pl, NAN, NULL, &s, &err), DLS_EINVAL, &err, "load");
    assert_fails(dls_schedule_solve(pl, INFINITY, NULL, &s, &err), DLS_EINVAL, &err, "load");
#define SOLVE_REFUSED(change, part)                                                        \
    ASSERT_PARAM_REFUSED(dls_schedule_params_init, par, change,                            \
                         dls_schedule_solve(pl, 1, &par, &s, &err), &err, part)
    SOLVE_REFUSED(par.order = (dls_send_order)5, "order");
    SOLVE_REFUSED(par.check_tol = 0, "check_tol");
    SOLVE_REFUSED(par.exact = 2, "exact");
    SOLVE_REFUSED(par.envelope.max_lines = 1, "envelope");
#undef SOLVE_REFUSED
    const double neg[] = {1, -1}, big[] = {1, 5};
    assert_fails(dls_schedule_evaluate(pl, neg, NULL, &s, &err), DLS_EINVAL, &err,
                 "processor \"P2\": the load must be");
    assert_int_equal(err.processor, 1);
    assert_ok(dls_platform_set_limit(pl, 1, 2, &err), &err);
    assert_fails(dls_schedule_evaluate(pl, big, NULL, &s, &err), DLS_EINVAL, &err,
                 "exceeds its limit 2");
    assert_fails(dls_schedule_evaluate(pl, NULL, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    assert_null(s);
    dls_platform_free(pl);
    /* a 2-D model */
    pl = test_example("cluster.json");
    assert_fails(dls_schedule_solve(pl, 10, NULL, &s, &err), DLS_EINVAL, &err,
                 "processor \"gpu0\" has a 2-D speed model");
    assert_int_equal(err.processor, 3);
    dls_platform_free(pl);
    dls_schedule_free(NULL);
}

/* A measured timeline (dls_schedule_measured) and its chart beside a prediction. */
TEST(test_measured)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json"); /* time lines: two levels */
    /* P2 served first; the loads put P1 out of core (its second line binds past 1) */
    double load[2] = {1.5, 0.5}, ss[2] = {0.5, 0}, se[2] = {2.0, 0.5}, fin[2] = {9.0, 7.5};
    dls_schedule *m = NULL;
    assert_ok(dls_schedule_measured(pl, load, ss, se, fin, &m, &err), &err);
    assert_int_equal(dls_schedule_get_kind(m), DLS_SCHEDULE_MEASURED);
    assert_string_equal(dls_schedule_kind_name(DLS_SCHEDULE_MEASURED), "measured");
    assert_int_equal(dls_schedule_status(m), DLS_SOLUTION_FEASIBLE);
    assert_int_equal(dls_schedule_sequence(m)[0], 1);
    assert_int_equal(dls_schedule_sequence(m)[1], 0);
    assert_true(dls_schedule_makespan(m) == 9.0);
    assert_true(dls_schedule_load(m) == 2.0);
    assert_true(dls_schedule_compute_time(m)[0] == 7.0);
    assert_true(dls_schedule_idle(m)[1] == 1.5);
    /* the level that binds: the independent evaluation of the same loads says it too */
    dls_schedule *p = NULL;
    assert_ok(dls_schedule_evaluate(pl, load, NULL, &p, &err), &err);
    assert_int_equal(dls_schedule_levels(m)[0], dls_schedule_levels(p)[0]);
    assert_int_equal(dls_schedule_levels(m)[1], dls_schedule_levels(p)[1]);

    /* the chart of both: both makespans, every lane */
    char *svg = NULL;
    assert_ok(dls_schedule_gantt_compare_to_string(p, m, pl, &svg, &err), &err);
    assert_non_null(strstr(svg, "Predicted against measured"));
    assert_non_null(strstr(svg, "9 s measured"));
    assert_non_null(strstr(svg, "P1, predicted"));
    assert_non_null(strstr(svg, "P2, measured"));
    dls_free(svg);
    char dir[] = "/tmp/dlsched-cmp-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/c.svg", dir);
    assert_ok(dls_schedule_gantt_compare_write_file(p, m, pl, path, &err), &err);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(rmdir(dir), 0);
    assert_fails(dls_schedule_gantt_compare_write_file(p, m, pl, "/nonexistent/c.svg", &err),
                 DLS_EIO, &err, "dls_schedule_gantt_compare_write_file: /nonexistent/c.svg");
    assert_fails(dls_schedule_gantt_compare_write_file(p, m, pl, NULL, &err), DLS_EINVAL, &err,
                 "NULL path");
    assert_fails(dls_schedule_gantt_compare_to_string(p, NULL, pl, &svg, &err), DLS_EINVAL, &err,
                 "NULL");
    dls_platform *other = test_example("star_ten.json");
    assert_fails(dls_schedule_gantt_compare_to_string(p, m, other, &svg, &err), DLS_EINVAL, &err,
                 "processors");
    dls_platform_free(other);
    dls_schedule_free(p);
    dls_schedule_free(m);

    /* errors name the processor; nothing is returned */
    m = NULL;
    double bad_order[2] = {2.5, 0};
    assert_fails(dls_schedule_measured(pl, load, bad_order, se, fin, &m, &err), DLS_EINVAL, &err,
                 "dls_schedule_measured: processor \"P1\": the times");
    assert_int_equal(err.processor, 0);
    double neg[2] = {1, -1};
    assert_fails(dls_schedule_measured(pl, neg, ss, se, fin, &m, &err), DLS_EINVAL, &err,
                 "processor \"P2\": the load");
    double nan_t[2] = {NAN, 0};
    assert_fails(dls_schedule_measured(pl, load, nan_t, se, fin, &m, &err), DLS_EINVAL, &err,
                 "the times");
    assert_fails(dls_schedule_measured(pl, load, ss, NULL, fin, &m, &err), DLS_EINVAL, &err,
                 "NULL");
    assert_null(m);
    /* a load of 0: its times are not read */
    double some[2] = {2, 0};
    assert_ok(dls_schedule_measured(pl, some, ss, (double[]){2.0, NAN}, (double[]){9.0, NAN}, &m,
                                    &err), &err);
    assert_int_equal(dls_schedule_sequence(m)[0], 0);
    assert_true(dls_schedule_makespan(m) == 9.0);
    dls_schedule_free(m);
    dls_platform_free(pl);
}

TEST_MAIN("schedule", test_paper_example, test_chain_fallback, test_small_against_reference, test_random_consistency,
          test_selection_and_order, test_infeasible, test_speed_models, test_exact,
          test_glpk_errors_do_not_abort, test_exports, test_argument_errors,
          test_glpk_is_silent, test_measured)
