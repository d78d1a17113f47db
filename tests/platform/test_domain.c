/* The input domain (issue 20): every number of a platform is 0 where allowed or of
 * magnitude DLS_DOMAIN_MIN to DLS_DOMAIN_MAX. Checked here:
 * - each kind of number at the two ends of the domain is read, and every command's
 *   library call answers on it (a partition, the chain and GLPK, an integer schedule, a
 *   cross-check, an evaluation, installments, an LU distribution): never a failure;
 * - just beyond either end the reader refuses the file at the number (file:line:column,
 *   the processor, the value, the range) and the API refuses the model, limit or link
 *   (EINVAL), the platform left as it was;
 * - dls_platform_unusual() names the numbers far from what machines do, and only those;
 * - a processor too slow to matter gets nothing: a startup of 1e18 s first in the send order
 *   is left out by the chain's selection, which agrees with GLPK's and with every subset
 *   solved in the paper's model (the brute force). */
#include <config.h>

#include "testutil.h"

/* A platform of three processors, one of which carries the number under test. */
static char *platform_text(const char *proc)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "{\"processors\": [\n"
             "{\"name\": \"a\", \"time\": [[0, 1e-3]], \"link\": {\"startup\": 1e-3, \"rate\": 1e-6}},\n"
             "%s,\n"
             "{\"name\": \"c\", \"speed\": 2e3, \"link\": {\"startup\": 2e-3, \"rate\": 2e-6}}\n"
             "]}\n", proc);
    return buf;
}

typedef struct edge {
    const char *proc; /* the processor "x", with %s where the number goes */
    const char *what; /* what the refusal names */
} edge;

static const edge edges[] = {
    {"{\"name\": \"x\", \"speed\": %s}", "speed"},
    {"{\"name\": \"x\", \"speed\": {\"points\": [[%s, 5e2]]}}", "size"},
    {"{\"name\": \"x\", \"speed\": {\"points\": [[1, %s]]}}", "speed"},
    {"{\"name\": \"x\", \"time\": [[%s, 1e-3]]}", "intercept"},
    {"{\"name\": \"x\", \"time\": [[0, %s]]}", "slope"},
    {"{\"name\": \"x\", \"speed\": 1e3, \"limit\": %s}", "limit"},
    {"{\"name\": \"x\", \"speed\": 1e3, \"link\": {\"startup\": %s, \"rate\": 1e-6}}", "startup"},
    {"{\"name\": \"x\", \"speed\": 1e3, \"link\": {\"startup\": 1e-3, \"rate\": %s}}", "rate"},
    {"{\"name\": \"x\", \"speed2d\": {\"x\": [%s], \"y\": [1, 2], \"values\": [[1, 2]]}}",
     "x value"},
};

/* The processor of edge e with the number in place of its %s (a format of the table). */
static void fill(const char *fmt, const char *number, char *out, size_t size)
{
    const char *at = strstr(fmt, "%s");
    snprintf(out, size, "%.*s%s%s", (int)(at - fmt), fmt, number, at + 2);
}

static dls_status read_one(const char *proc_fmt, const char *number, dls_platform **pl,
                           dls_error *err)
{
    char proc[512];
    fill(proc_fmt, number, proc, sizeof proc);
    const char *text = platform_text(proc);
    return dls_platform_read_string(text, strlen(text), "edge.json", pl, err);
}

/* Every computing call on a platform: each must answer (any solution status) or refuse a
 * request it cannot take (an infeasible load, a 2-D model for a star); none may fail. */
static void every_call(const dls_platform *pl, const char *what)
{
    dls_error err;
    int two_d = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        two_d |= dls_model_dimension(dls_platform_model(pl, i)) == 2;
    dls_partition *part = NULL;
    dls_status st = two_d ? dls_partition_solve_matrix(pl, 64, NULL, &part, &err)
                          : dls_partition_solve(pl, 1000, NULL, &part, &err);
    if (st != DLS_OK)
        fail_msg("%s: partition: %s", what, err.message);
    dls_partition_free(part);
    if (two_d)
        return;
    for (int k = 0; k < 4; k++) {
        dls_schedule_params sp;
        dls_schedule_params_init(&sp);
        sp.solver = k & 1 ? DLS_SOLVER_GLPK : DLS_SOLVER_CHAIN;
        sp.drop_unused = !(k & 2);
        dls_schedule *s = NULL;
        st = dls_schedule_solve(pl, 1000, &sp, &s, &err);
        if (st != DLS_OK)
            fail_msg("%s: schedule (solver %d, selection %d): %s", what, k & 1, !(k & 2),
                     err.message);
        dls_schedule_free(s);
    }
    dls_schedule *s = NULL;
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    mp.time_limit = 2;
    st = dls_schedule_solve_integer(pl, 1000, NULL, &mp, &s, &err);
    if (st != DLS_OK)
        fail_msg("%s: integer schedule: %s", what, err.message);
    dls_schedule_free(s);
    double loads[3] = {300, 300, 400};
    s = NULL;
    st = dls_schedule_evaluate(pl, loads, NULL, &s, &err);
    if (st != DLS_OK && st != DLS_EINVAL) /* EINVAL: a load over a limit */
        fail_msg("%s: evaluate: %s", what, err.message);
    dls_schedule_free(s);
    dls_crosscheck_params cp;
    dls_crosscheck_params_init(&cp);
    cp.mip.time_limit = 2;
    dls_crosscheck *c = NULL;
    st = dls_crosscheck_run(pl, 1000, &cp, &c, &err);
    if (st != DLS_OK)
        fail_msg("%s: crosscheck: %s", what, err.message);
    dls_crosscheck_free(c);
    dls_lu *lu = NULL;
    st = dls_lu_distribute(pl, 64, NULL, &lu, &err);
    if (st != DLS_OK)
        fail_msg("%s: lu: %s", what, err.message);
    dls_lu_free(lu);
    dls_installment *in = NULL;
    st = dls_installment_simulate(pl, 1000, 10, NULL, &in, &err);
    if (st != DLS_OK && st != DLS_EINVAL && st != DLS_ERANGE)
        fail_msg("%s: installments: %s", what, err.message);
    dls_installment_free(in);
}

TEST(test_the_ends_are_computed_on)
{
    static const char *const ends[] = {"1e-60", "1e60"};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        for (int k = 0; k < 2; k++) {
            dls_platform *pl = NULL;
            dls_error err;
            char what[160];
            snprintf(what, sizeof what, "%s = %s", edges[e].what, ends[k]);
            dls_status st = read_one(edges[e].proc, ends[k], &pl, &err);
            if (st != DLS_OK)
                fail_msg("%s refused: %s", what, err.message);
            every_call(pl, what);
            dls_platform_free(pl);
        }
}

TEST(test_beyond_the_ends_is_refused)
{
    static const char *const beyond[] = {"9.9e-61", "1.01e60", "1e308", "1e-308"};
    for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
        for (int k = 0; k < 4; k++) {
            dls_platform *pl = NULL;
            dls_error err;
            dls_status st = read_one(edges[e].proc, beyond[k], &pl, &err);
            if (st != DLS_EDATA || strstr(err.message, "outside the domain") == NULL ||
                strstr(err.message, "edge.json:3:") == NULL ||
                strstr(err.message, "processor \"x\"") == NULL)
                fail_msg("%s = %s: %s (%s)", edges[e].what, beyond[k], dls_status_name(st),
                         err.message);
            assert_null(pl);
        }
}

TEST(test_the_api_refuses_too)
{
    dls_platform *pl = test_platform_json("{\"processors\": [{\"name\": \"p\", \"speed\": 1}]}");
    dls_error err;
    dls_model *m = NULL;
    const double a[1] = {1e70}, b[1] = {1};
    assert_ok(dls_model_create_time_lines(1, a, b, &m, &err), &err); /* a model alone may */
    size_t idx = 7;
    assert_fails(dls_platform_add(pl, "q", m, &idx, &err), DLS_EINVAL, &err,
                 "time line 1: the intercept 1e+70 s is outside the domain");
    assert_int_equal(idx, 7);
    assert_fails(dls_platform_set_model(pl, 0, m, &err), DLS_EINVAL, &err, "outside the domain");
    assert_rel(dls_model_constant_speed(dls_platform_model(pl, 0)), 1, 0);
    assert_fails(dls_platform_set_limit(pl, 0, 1e61, &err), DLS_EINVAL, &err,
                 "the limit 1e+61 is outside the domain");
    assert_true(isinf(dls_platform_limit(pl, 0)));
    assert_fails(dls_platform_set_link(pl, 0, 1e61, 0, &err), DLS_EINVAL, &err, "startup");
    assert_fails(dls_platform_set_link(pl, 0, 0, 1e-61, &err), DLS_EINVAL, &err, "rate");
    assert_ok(dls_platform_set_link(pl, 0, 0, 0, &err), &err); /* 0: a free link */
    assert_ok(dls_platform_set_limit(pl, 0, INFINITY, &err), &err);
    dls_model_free(m);
    dls_platform_free(pl);
}

/* Issue 35: the loads of every entry point, and what the simgrid export writes. */
TEST(test_loads_and_products_in_the_domain)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": [{\"name\": \"p\", \"speed\": 1e-60, \"link\": "
        "{\"startup\": 0, \"rate\": 1e60}}, {\"name\": \"q\", \"speed\": 1}]}");
    dls_error err;
    dls_schedule *s = NULL;
    assert_fails(dls_schedule_solve(pl, 1e61, NULL, &s, &err), DLS_EINVAL, &err,
                 "the load 1e+61 is outside the domain");
    assert_fails(dls_schedule_solve(pl, 1e-61, NULL, &s, &err), DLS_EINVAL, &err,
                 "outside the domain");
    assert_null(s);
    const double big[2] = {1e308, 1}, both[2] = {6e59, 6e59}, ends[2] = {0, 1e60};
    assert_fails(dls_schedule_evaluate(pl, big, NULL, &s, &err), DLS_EINVAL, &err,
                 "processor \"p\": the load 1e+308 is outside the domain");
    assert_fails(dls_schedule_evaluate(pl, both, NULL, &s, &err), DLS_EINVAL, &err,
                 "the loads' sum");
    assert_null(s);
    assert_ok(dls_schedule_evaluate(pl, ends, NULL, &s, &err), &err);
    assert_true(isfinite(dls_schedule_makespan(s)));
    dls_schedule_free(s);
    dls_simgrid_params sp;
    dls_simgrid_params_init(&sp);
    char *doc = NULL;
    sp.flops_per_unit = 1e-60; /* 1e-60 x 1e-60: finite and > 0 */
    sp.bytes_per_unit = 1e-60; /* over a rate of 1e60 */
    assert_ok(dls_platform_simgrid_to_string(pl, &sp, &doc, &err), &err);
    assert_null(strstr(doc, "inf"));
    free(doc);
    sp.flops_per_unit = 1e-300;
    assert_fails(dls_platform_simgrid_to_string(pl, &sp, &doc, &err), DLS_EINVAL, &err,
                 "flops_per_unit must be finite and in [1e-60, 1e+60]");
    dls_platform_free(pl);
}

TEST(test_unusual_values)
{
    static const struct {
        const char *proc;
        size_t count;
        const char *first;
    } cases[] = {
        {"{\"name\": \"x\", \"speed\": 1e3}", 0, ""},
        {"{\"name\": \"x\", \"speed\": 1e-7}", 1, "a speed of 1e-07 units per second"},
        {"{\"name\": \"x\", \"speed\": 1e19}", 1, "a speed of 1e+19"},
        {"{\"name\": \"x\", \"time\": [[2e6, 1e-3]]}", 1, "an intercept of 2e+06 s"},
        /* a memory level's large negative intercept is no sign of a mistake */
        {"{\"name\": \"x\", \"time\": [[0, 1e-3], [-3e9, 1e-1]]}", 0, ""},
        {"{\"name\": \"x\", \"time\": [[0, 2e6]]}", 1, "a slope of 2e+06 s per unit"},
        {"{\"name\": \"x\", \"time\": [[0, 1e-20]]}", 1, "a slope of 1e-20 s per unit (less"},
        {"{\"name\": \"x\", \"speed\": 1e3, \"link\": {\"startup\": 2147483648, \"rate\": 1e30}}",
         2, "a link startup of 2.14748e+09 s"},
        {"{\"name\": \"x\", \"speed\": {\"points\": [[1, 1e-9], [2, 1e-8]]}}", 2,
         "a measured speed of 1e-09"},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const char *text = platform_text(cases[k].proc);
        dls_platform *pl = test_platform_json(text);
        char why[256];
        size_t n = dls_platform_unusual(pl, 1, why, sizeof why);
        if (n != cases[k].count || strstr(why, cases[k].first) == NULL)
            fail_msg("case %zu: %zu unusual (%s), expected %zu (%s)", k, n, why,
                     cases[k].count, cases[k].first);
        assert_int_equal(dls_platform_unusual(pl, 0, why, sizeof why), 0);
        assert_int_equal(dls_platform_unusual(pl, 9, why, sizeof why), 0);
        dls_platform_free(pl);
    }
    assert_int_equal(dls_platform_unusual(NULL, 0, NULL, 0), 0);
}

/* The makespan of the paper's LP on the processors of mask (in platform order), by GLPK. */
static double subset_makespan(const dls_platform *pl, unsigned mask, double V)
{
    dls_platform *sub = test_platform_new();
    dls_error err;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (mask >> i & 1) {
            size_t at;
            assert_ok(dls_platform_add(sub, dls_platform_name(pl, i), dls_platform_model(pl, i),
                                       &at, &err), &err);
            double S, C;
            if (dls_platform_link(pl, i, &S, &C) == DLS_OK)
                assert_ok(dls_platform_set_link(sub, at, S, C, &err), &err);
        }
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.drop_unused = 0;
    sp.solver = DLS_SOLVER_GLPK;
    dls_schedule *s = NULL;
    assert_ok(dls_schedule_solve(sub, V, &sp, &s, &err), &err);
    double T = dls_schedule_makespan(s);
    dls_schedule_free(s);
    dls_platform_free(sub);
    return T;
}

TEST(test_a_processor_too_slow_to_matter)
{
    const char *text =
        "{\"processors\": [\n"
        "{\"name\": \"slow\", \"time\": [[0, 1e-4]], \"link\": {\"startup\": 1e18, \"rate\": 1e-5}},\n"
        "{\"name\": \"b\", \"time\": [[0, 8e-5]], \"link\": {\"startup\": 5e-2, \"rate\": 8e-6}},\n"
        "{\"name\": \"c\", \"time\": [[0, 4e-5], [-60, 4.4e-4]], \"link\": {\"startup\": 2e-2, \"rate\": 4e-6}},\n"
        "{\"name\": \"d\", \"time\": [[0, 3e-4]], \"link\": {\"startup\": 1e-1, \"rate\": 2e-5}}\n"
        "]}\n";
    dls_platform *pl = test_platform_json(text);
    double V = 1e6, best = INFINITY;
    for (unsigned mask = 1; mask < 16; mask++)
        best = fmin(best, subset_makespan(pl, mask, V));
    dls_error err;
    for (int solver = 0; solver < 2; solver++) {
        dls_schedule_params sp;
        dls_schedule_params_init(&sp);
        sp.solver = solver ? DLS_SOLVER_GLPK : DLS_SOLVER_CHAIN;
        dls_schedule *s = NULL;
        assert_ok(dls_schedule_solve(pl, V, &sp, &s, &err), &err);
        assert_rel(dls_schedule_loads(s)[0], 0, 0);
        if (solver == 0) /* the chain's selection is exact; GLPK's a heuristic */
            assert_rel(dls_schedule_makespan(s), best, 1e-9);
        else
            assert_true(dls_schedule_makespan(s) >= best * (1 - 1e-9));
        /* the paper's LP charges the startup of 1e18 s */
        assert_true(dls_schedule_paper_makespan(s) >= 1e18);
        dls_schedule_free(s);
    }
    printf("# a startup of 1e18 s first: the best subset %.10g s, the chain's selection the "
           "same\n", best);
    dls_platform_free(pl);
}

TEST_MAIN("domain", test_the_ends_are_computed_on, test_beyond_the_ends_is_refused,
          test_the_api_refuses_too, test_loads_and_products_in_the_domain, test_unusual_values, test_a_processor_too_slow_to_matter)
