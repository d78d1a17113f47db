/* The tolerance rule (DLS_REL_TOL): limits that hold the load within it are feasible, in
 * every mode, and the loads found then sum to the load; limits short of it by more are
 * infeasible, and the message writes both numbers in full; a load above its limit within
 * the rule is accepted by dls_schedule_evaluate, beyond it refused; whole-unit limits that
 * rounding left a hair below an integer hold that integer.
 *
 * The independent check: when the limits sum to the load every processor must get its
 * whole limit, so the optimum is the timeline of those loads, computed here from the
 * platform's numbers (sends one after the other, then each computes). */
#include <config.h>

#include <float.h>

#include "testutil.h"

/* Makespans compared with the forced one: the stretched limits (by at most DLS_REL_TOL)
 * let the solvers gain a few units in the last places. */
#define TOL_CLOSE DLS_REL_TOL

typedef struct tight {
    size_t n;
    double load; /* each limit is load / n */
} tight;

static const tight tight_cases[] = {{7, 3000}, {7, 30}, {9, 30}, {3, 1}, {11, 1e6}};

/* n processors with startups, rates and one time line each; every limit is `limit`. */
static dls_platform *star(size_t n, double limit)
{
    char text[8192];
    size_t o = (size_t)snprintf(text, sizeof text, "{\"processors\": [");
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(text + o, sizeof text - o,
                              "%s{\"name\": \"p%zu\", \"time\": [[0, %.17g]], \"link\": "
                              "{\"startup\": 0.1, \"rate\": %.17g}, \"limit\": %.17g}",
                              i ? ", " : "", i, 1e-2 * (double)(1 + i),
                              1e-3 * (double)(1 + i % 3), limit);
    snprintf(text + o, sizeof text - o, "]}");
    return test_platform_json(text);
}

/* The makespan of every processor given `each`, sent in the order of the sequence. */
static double forced_makespan(size_t n, double each, const size_t *seq)
{
    double port = 0, makespan = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = seq[k];
        port += 0.1 + 1e-3 * (double)(1 + i % 3) * each;
        double finish = port + 1e-2 * (double)(1 + i) * each;
        makespan = finish > makespan ? finish : makespan;
    }
    return makespan;
}

static long double sum_loads(const dls_schedule *s)
{
    long double sum = 0;
    for (size_t i = 0; i < dls_schedule_count(s); i++)
        sum += dls_schedule_loads(s)[i];
    return sum;
}

static void check_tight(const tight *c, const dls_schedule_params *par, const char *mode)
{
    double limit = c->load / (double)c->n;
    dls_platform *pl = star(c->n, limit);
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, c->load, par, &s, &err), &err);
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE)
        fail_msg("%zu x %.17g/%zu, %s: infeasible: %s", c->n, c->load, c->n, mode,
                 dls_schedule_note(s));
    long double sum = sum_loads(s);
    if (fabsl(sum - c->load) > 4 * DBL_EPSILON * c->load)
        fail_msg("%zu x %.17g/%zu, %s: the loads sum to %.21Lg", c->n, c->load, c->n, mode, sum);
    for (size_t i = 0; i < c->n; i++) {
        double a = dls_schedule_loads(s)[i];
        if (a > limit * (1 + DLS_REL_TOL) || !test_close(a, limit, 1e-9, 0))
            fail_msg("%s: processor %zu has %.17g, its limit %.17g", mode, i, a, limit);
    }
    if (!par->originator_computes) {
        double want = forced_makespan(c->n, limit, dls_schedule_sequence(s));
        if (!test_close(dls_schedule_makespan(s), want, TOL_CLOSE, 0))
            fail_msg("%s: makespan %.17g, the forced loads take %.17g", mode,
                     dls_schedule_makespan(s), want);
    }
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* Seven limits of 3000/7 and their relatives: a schedule in every mode. */
TEST(limits_summing_to_the_load)
{
    for (size_t k = 0; k < sizeof tight_cases / sizeof tight_cases[0]; k++) {
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        check_tight(&tight_cases[k], &par, "chain, best set");
        par.drop_unused = 0;
        check_tight(&tight_cases[k], &par, "chain, paper's LP");
        par.drop_unused = 1;
        par.order = DLS_ORDER_RATE;
        check_tight(&tight_cases[k], &par, "chain, rate order");
        par.order = DLS_ORDER_GIVEN;
        par.originator_computes = 1;
        check_tight(&tight_cases[k], &par, "originator computes");
        par.originator_computes = 0;
        par.solver = DLS_SOLVER_GLPK;
        check_tight(&tight_cases[k], &par, "GLPK");
        par.exact = 1;
        check_tight(&tight_cases[k], &par, "GLPK, exact");
    }
}

/* The curve up to a load the limits hold within the rule. */
TEST(curve_up_to_tight_limits)
{
    dls_platform *pl = star(7, 3000.0 / 7);
    dls_curve *c = NULL;
    dls_error err;
    assert_ok(dls_schedule_curve(pl, 1, 3000, NULL, &c, &err), &err);
    size_t seq[7] = {0, 1, 2, 3, 4, 5, 6};
    double want = forced_makespan(7, 3000.0 / 7, seq);
    assert_true(test_close(dls_curve_makespan_at(c, 3000), want, TOL_CLOSE, 0));
    dls_curve_free(c);
    dls_platform_free(pl);
}

/* Short of the load by more than the rule: infeasible, both numbers in full. */
TEST(limits_short_beyond_the_rule)
{
    dls_platform *pl = star(7, 3000.0 / 7 * (1 - 2e-9));
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, 3000, NULL, &s, &err), &err);
    assert_int_equal(dls_schedule_status(s), DLS_SOLUTION_INFEASIBLE);
    const char *note = dls_schedule_note(s);
    assert_non_null(strstr(note, "at most 2999.999994,"));
    assert_non_null(strstr(note, "the 3000 to distribute"));
    dls_schedule_free(s);
    /* the curve refuses the same range, with the same numbers */
    dls_curve *c = NULL;
    assert_int_equal(dls_schedule_curve(pl, 1, 3000, NULL, &c, &err), DLS_EINVAL);
    assert_null(c);
    assert_non_null(strstr(err.message, "2999.999994"));
    dls_platform_free(pl);
}

/* dls_schedule_evaluate: a load above its limit by less than the rule is within it. */
TEST(evaluate_applies_the_rule)
{
    dls_platform *pl = star(3, 100);
    double loads[3] = {100 * (1 + 0.5 * DLS_REL_TOL), 50, 0};
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_evaluate(pl, loads, NULL, &s, &err), &err);
    dls_schedule_free(s);
    s = NULL;
    loads[0] = 100 * (1 + 2 * DLS_REL_TOL);
    assert_int_equal(dls_schedule_evaluate(pl, loads, NULL, &s, &err), DLS_EINVAL);
    assert_null(s);
    assert_non_null(strstr(err.message, "\"p0\""));
    assert_non_null(strstr(err.message, "exceeds its limit"));
    dls_platform_free(pl);
}

/* Whole units: a limit a hair below 429 holds 429 elements (partition) and units
 * (integer schedule); 3000/7 holds 428, and seven of them cannot take 3000. */
TEST(whole_units_under_the_rule)
{
    double hair = nextafter(429, 0) - 429 * 1e-12;
    dls_platform *pl = star(7, hair);
    dls_partition *r = NULL;
    dls_error err;
    assert_ok(dls_partition_solve(pl, 7 * 429, NULL, &r, &err), &err);
    assert_int_not_equal(dls_partition_status(r), DLS_SOLUTION_INFEASIBLE);
    for (size_t i = 0; i < 7; i++)
        assert_int_equal(dls_partition_elements(r)[i], 429);
    dls_partition_free(r);
    dls_schedule *s = NULL;
    assert_ok(dls_schedule_solve_integer(pl, 7 * 429, NULL, NULL, &s, &err), &err);
    assert_int_not_equal(dls_schedule_status(s), DLS_SOLUTION_INFEASIBLE);
    for (size_t i = 0; i < 7; i++)
        assert_true(dls_schedule_loads(s)[i] == 429);
    dls_schedule_free(s);
    dls_platform_free(pl);

    pl = star(7, 3000.0 / 7);
    assert_ok(dls_partition_solve(pl, 3000, NULL, &r, &err), &err);
    assert_int_equal(dls_partition_status(r), DLS_SOLUTION_INFEASIBLE);
    assert_non_null(strstr(dls_partition_note(r), "at most 2996 elements"));
    dls_partition_free(r);
    dls_platform_free(pl);
}

TEST_MAIN("tolerance", limits_summing_to_the_load, curve_up_to_tight_limits,
          limits_short_beyond_the_rule, evaluate_applies_the_rule, whole_units_under_the_rule)
