/* dls_schedule_verify and dls_partition_verify: every schedule dlsched makes verifies (valid,
 * the optimal ones at gap 0); each kind of violation is triggered by a broken copy of a real
 * schedule, and the violation names the processor and the amount, computed here
 * independently from the platform's numbers; the claim readers (JSON, CSV) and every error
 * path; the best-order optimum against every permutation of small random stars. */
#include <config.h>

#include "testutil.h"
#include "gen.h"

/* Amounts of the violations against the ones computed here: rounding of a few sums. */
#define AMOUNT_TOL 1e-9

static const char *const star_examples[] = {"star_cluster.json", "memory_levels.json",
                                            "star_ten.json", "star_two.json"};

/* A claim of everything a schedule says: loads, times, order, load and makespan. */
static dls_claim *claim_of(const dls_platform *pl, const dls_schedule *s)
{
    dls_claim *c = NULL;
    dls_error err;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &c, &err), &err);
    size_t n = dls_schedule_count(s);
    for (size_t i = 0; i < n; i++) {
        double a = dls_schedule_loads(s)[i];
        double ss = a > 0 ? dls_schedule_send_start(s)[i] : NAN;
        double se = a > 0 ? dls_schedule_send_end(s)[i] : NAN;
        double fin = a > 0 ? dls_schedule_finish(s)[i] : NAN;
        double cs = a > 0 ? fin - dls_schedule_compute_time(s)[i] : NAN;
        assert_ok(dls_claim_set(c, i, a, ss, se, cs, fin, &err), &err);
    }
    assert_ok(dls_claim_set_order(c, dls_schedule_sequence(s), n, &err), &err);
    assert_ok(dls_claim_set_total(c, dls_schedule_load(s), &err), &err);
    assert_ok(dls_claim_set_makespan(c, dls_schedule_makespan(s), &err), &err);
    return c;
}

typedef dls_status verify_fn(const dls_platform *, const dls_claim *, const dls_verify_params *,
                             dls_verification **, dls_error *);

/* The verification by fn, which must answer. */
static dls_verification *verify_by(verify_fn *fn, const dls_platform *pl, const dls_claim *c,
                                   const dls_verify_params *p)
{
    dls_verification *v = NULL;
    dls_error err;
    assert_ok(fn(pl, c, p, &v, &err), &err);
    return v;
}

static dls_verification *verify(const dls_platform *pl, const dls_claim *c,
                                const dls_verify_params *p)
{
    return verify_by(dls_schedule_verify, pl, c, p);
}

static void expect_valid(const dls_verification *v, const char *what)
{
    if (!dls_verification_valid(v))
        fail_msg("%s: %zu violations, the first: %s", what, dls_verification_count(v),
                 dls_verification_violation(v, 0)->text);
}

/* Every schedule the solvers make is valid, and an optimal one is at gap 0 from the optimum
 * of its own mode. */
TEST(solver_schedules_verify)
{
    for (size_t e = 0; e < sizeof star_examples / sizeof star_examples[0]; e++) {
        dls_platform *pl = test_example(star_examples[e]);
        for (int mode = 0; mode < 4; mode++) {
            dls_schedule_params sp;
            dls_schedule_params_init(&sp);
            dls_verify_params vp;
            dls_verify_params_init(&vp);
            if (mode == 1)
                sp.order = vp.order = DLS_ORDER_RATE;
            if (mode == 2)
                sp.drop_unused = 0;
            if (mode == 3)
                sp.solver = DLS_SOLVER_GLPK;
            double V = 1000;
            dls_schedule *s = NULL;
            dls_error err;
            assert_ok(dls_schedule_solve(pl, V, &sp, &s, &err), &err);
            dls_claim *c = claim_of(pl, s);
            dls_verification *v = verify(pl, c, &vp);
            char what[128];
            snprintf(what, sizeof what, "%s, mode %d", star_examples[e], mode);
            expect_valid(v, what);
            dls_verify_quality q;
            dls_verification_get_quality(v, &q);
            /* the makespan the schedule really reaches: the last finish of a processor given
             * a load, at the times claimed (the paper's LP charges the processors given
             * nothing a startup, which delays the others, but they finish nothing) */
            double last = 0;
            for (size_t i = 0; i < dls_schedule_count(s); i++)
                if (dls_schedule_loads(s)[i] > 0)
                    last = fmax(last, dls_schedule_finish(s)[i]);
            if (!test_close(q.makespan, last, AMOUNT_TOL, 0))
                fail_msg("%s: verify's makespan %.17g, the last finish %.17g", what, q.makespan,
                         last);
            if (mode == 2)
                assert_rel(q.paper_optimum, dls_schedule_makespan(s), AMOUNT_TOL);
            if (mode == 0 || mode == 1) {
                assert_rel(q.selection_optimum, dls_schedule_makespan(s), AMOUNT_TOL);
                /* the schedule's own order is the mode's order */
                assert_rel(q.own_order_optimum, q.selection_optimum, AMOUNT_TOL);
                if (dls_schedule_envelope_deviation(s) == 0)
                    assert_true(fabs(q.gap) <= AMOUNT_TOL * q.best);
            }
            assert_rel(q.gap, q.makespan - q.best, 1e-12);
            dls_verification_free(v);
            dls_claim_free(c);
            dls_schedule_free(s);
        }
        dls_platform_free(pl);
    }
}

/* The timeline of loads a, sent in platform order, computed here: for the amounts. */
typedef struct line {
    double send_start[8], send_end[8], finish[8], makespan;
} line;

static line replay(const dls_platform *pl, const double *a)
{
    line l;
    double port = 0;
    l.makespan = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        double S = 0, C = 0;
        if (dls_platform_has_link(pl, i))
            dls_platform_link(pl, i, &S, &C);
        l.send_start[i] = port;
        if (a[i] > 0)
            port += S + C * a[i];
        l.send_end[i] = port;
        l.finish[i] = a[i] > 0 ? port + dls_model_time(dls_platform_model(pl, i), a[i]) : 0;
        l.makespan = fmax(l.makespan, l.finish[i]);
    }
    return l;
}

/* A claim of loads a with the replayed times. */
static dls_claim *claim_loads(const dls_platform *pl, const double *a, const line *l)
{
    dls_claim *c = NULL;
    dls_error err;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &c, &err), &err);
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        assert_ok(dls_claim_set(c, i, a[i], l->send_start[i], l->send_end[i], l->send_end[i],
                                l->finish[i], &err), &err);
    assert_ok(dls_claim_set_makespan(c, l->makespan, &err), &err);
    return c;
}

/* The one violation of v: its kind, processor and excess. */
static void expect_one(const dls_verification *v, dls_violation_kind kind, long proc,
                       double excess, const char *name)
{
    if (dls_verification_count(v) != 1)
        fail_msg("%s expected alone, found %zu violations (first: %s)",
                 dls_violation_kind_name(kind), dls_verification_count(v),
                 dls_verification_count(v) ? dls_verification_violation(v, 0)->text : "-");
    const dls_violation *x = dls_verification_violation(v, 0);
    assert_int_equal(x->kind, kind);
    assert_int_equal(x->processor, proc);
    assert_rel(x->excess, excess, AMOUNT_TOL);
    if (name != NULL && strstr(x->text, name) == NULL)
        fail_msg("the message does not name \"%s\": %s", name, x->text);
}

/* The violation tests' case: a four-processor star with a limit (b's, 300), loads
 * {400, 250, 300, 50} and their timeline, a claim of them, and verify parameters with the
 * optimum not asked. */
typedef struct violation_case {
    dls_platform *pl;
    double a[4];
    line l;
    dls_verify_params p;
    dls_claim *c;
} violation_case;

static void violation_case_open(violation_case *k)
{
    k->pl = test_platform_json(
        "{\"processors\": ["
        "{\"name\": \"a\", \"time\": [[0, 0.01]], \"link\": {\"startup\": 0.1, \"rate\": 0.001}},"
        "{\"name\": \"b\", \"time\": [[0, 0.02]], \"link\": {\"startup\": 0.2, \"rate\": 0.002},"
        " \"limit\": 300},"
        "{\"name\": \"c\", \"time\": [[0, 0.015], [-5, 0.03]], \"link\": {\"startup\": 0.1, "
        "\"rate\": 0.001}},"
        "{\"name\": \"d\", \"time\": [[0, 0.05]]}]}");
    const double a[4] = {400, 250, 300, 50};
    memcpy(k->a, a, sizeof a);
    k->l = replay(k->pl, k->a);
    dls_verify_params_init(&k->p);
    k->p.optimum = 0;
    k->c = claim_loads(k->pl, k->a, &k->l);
}

static void violation_case_close(violation_case *k)
{
    dls_claim_free(k->c);
    dls_platform_free(k->pl);
}

/* Claims processor i's times shifted: send start, send end, compute start, finish. */
static void claim_times(violation_case *k, size_t i, double ss, double se, double cs,
                        double fin)
{
    dls_error err;
    const line *l = &k->l;
    assert_ok(dls_claim_set(k->c, i, k->a[i], l->send_start[i] + ss, l->send_end[i] + se,
                            l->send_end[i] + cs, l->finish[i] + fin, &err), &err);
}

/* Verifies the case's claim and expects its one violation. */
static void expect_violation(violation_case *k, dls_violation_kind kind, long proc,
                             double excess, const char *name)
{
    dls_verification *v = verify(k->pl, k->c, &k->p);
    expect_one(v, kind, proc, excess, name);
    dls_verification_free(v);
}

/* The replayed loads verify, at the replayed makespan. */
TEST(replayed_loads_are_valid)
{
    violation_case k;
    violation_case_open(&k);
    dls_verification *v = verify(k.pl, k.c, &k.p);
    expect_valid(v, "the replayed loads");
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    assert_rel(q.makespan, k.l.makespan, AMOUNT_TOL);
    dls_verification_free(v);
    violation_case_close(&k);
}

/* The loads do not sum: 1000 claimed, 1010 asked. */
TEST(loads_not_summing_are_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    k.p.load = 1010;
    expect_violation(&k, DLS_VIOLATION_LOAD_SUM, -1, 10, "1000");
    violation_case_close(&k);
}

/* b (limit 300) overloaded by 50, taken from a so that the sum holds; valid without the
 * limits. */
TEST(a_load_over_the_limit_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    double b[4] = {350, 350, 300, 50};
    line lb = replay(k.pl, b);
    dls_claim_free(k.c);
    k.c = claim_loads(k.pl, b, &lb);
    dls_verification *v = verify(k.pl, k.c, &k.p);
    expect_one(v, DLS_VIOLATION_LIMIT, 1, 50, "\"b\"");
    assert_rel(dls_verification_violation(v, 0)->expected, 300, 0);
    dls_verification_free(v);
    k.p.use_limits = 0;
    v = verify(k.pl, k.c, &k.p);
    expect_valid(v, "the same without limits");
    dls_verification_free(v);
    violation_case_close(&k);
}

/* c's send starts 0.05 s before b's has ended. */
TEST(overlapping_sends_are_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    claim_times(&k, 2, -0.05, -0.05, -0.05, -0.05);
    expect_violation(&k, DLS_VIOLATION_SEND_OVERLAP, 2, 0.05, "\"c\"");
    violation_case_close(&k);
}

/* a's send claimed to end 0.02 s before S + C x allow. */
TEST(a_send_too_short_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    claim_times(&k, 0, 0, -0.02, 0, 0);
    expect_violation(&k, DLS_VIOLATION_SEND_DURATION, 0, 0.02, "\"a\"");
    violation_case_close(&k);
}

/* b computes 0.1 s before its data has arrived, and claims the finish that gives. */
TEST(computing_before_the_data_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    claim_times(&k, 1, 0, 0, -0.1, 0);
    expect_violation(&k, DLS_VIOLATION_EARLY_COMPUTE, 1, 0.1, "\"b\"");
    violation_case_close(&k);
}

/* c claims to finish 0.3 s early (its second time line binds). */
TEST(finishing_early_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    claim_times(&k, 2, 0, 0, 0, -0.3);
    dls_verification *v = verify(k.pl, k.c, &k.p);
    expect_one(v, DLS_VIOLATION_FINISH, 2, 0.3, "\"c\"");
    assert_rel(dls_verification_violation(v, 0)->expected, k.l.finish[2], AMOUNT_TOL);
    dls_verification_free(v);
    violation_case_close(&k);
}

/* A makespan claimed 10% below the real one is a violation; within the tolerance rule it
 * is not. */
TEST(a_makespan_too_low_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    dls_error err;
    assert_ok(dls_claim_set_makespan(k.c, 0.9 * k.l.makespan, &err), &err);
    expect_violation(&k, DLS_VIOLATION_MAKESPAN, -1, 0.1 * k.l.makespan, "makespan");
    assert_ok(dls_claim_set_makespan(k.c, k.l.makespan * (1 - 0.5 * DLS_REL_TOL), &err), &err);
    dls_verification *v = verify(k.pl, k.c, &k.p);
    expect_valid(v, "a makespan within the rule");
    dls_verification_free(v);
    violation_case_close(&k);
}

/* A negative load (d's 50 moved to -50, a's raised by 100 to keep the sum). */
TEST(a_negative_load_is_a_violation)
{
    violation_case k;
    violation_case_open(&k);
    double n[4] = {500, 250, 300, -50};
    line ln = replay(k.pl, n);
    dls_claim_free(k.c);
    k.c = claim_loads(k.pl, n, &ln);
    expect_violation(&k, DLS_VIOLATION_NEGATIVE_LOAD, 3, 50, "\"d\"");
    violation_case_close(&k);
}

/* Times not given: taken as early as the model allows, so valid, makespan replayed; an
 * even-handed but poor split has a positive gap to the optimum, which is what the solver
 * finds. */
TEST(loads_without_times_are_replayed)
{
    violation_case k;
    violation_case_open(&k);
    dls_error err;
    dls_claim_free(k.c);
    assert_ok(dls_claim_create(k.pl, DLS_CLAIM_SCHEDULE, &k.c, &err), &err);
    for (size_t i = 0; i < 4; i++)
        assert_ok(dls_claim_set(k.c, i, k.a[i], NAN, NAN, NAN, NAN, &err), &err);
    k.p.optimum = 1;
    dls_verification *v = verify(k.pl, k.c, &k.p);
    expect_valid(v, "loads only");
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    assert_rel(q.makespan, k.l.makespan, AMOUNT_TOL);
    dls_schedule *s = NULL;
    assert_ok(dls_schedule_solve(k.pl, 1000, NULL, &s, &err), &err);
    assert_rel(q.selection_optimum, dls_schedule_makespan(s), AMOUNT_TOL);
    assert_true(q.gap > 0);
    assert_rel(q.gap_percent, 100 * q.gap / q.best, 1e-12);
    dls_schedule_free(s);
    dls_verification_free(v);
    violation_case_close(&k);
}

/* Partitions: the partitioner's answers verify; broken copies do not. */
TEST(partitions)
{
    dls_platform *pl = test_example("star_cluster.json");
    dls_partition *r = NULL;
    dls_error err;
    assert_ok(dls_partition_solve(pl, 1000, NULL, &r, &err), &err);
    dls_claim *c = NULL;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_PARTITION, &c, &err), &err);
    size_t n = dls_platform_count(pl);
    for (size_t i = 0; i < n; i++)
        assert_ok(dls_claim_set(c, i, (double)dls_partition_elements(r)[i], NAN, NAN, NAN,
                                dls_partition_times(r)[i], &err), &err);
    assert_ok(dls_claim_set_makespan(c, dls_partition_makespan(r), &err), &err);
    dls_verification *v = NULL;
    assert_ok(dls_partition_verify(pl, c, NULL, &v, &err), &err);
    expect_valid(v, "the partitioner's answer");
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    assert_rel(q.makespan, dls_partition_makespan(r), AMOUNT_TOL);
    assert_true(fabs(q.gap) <= AMOUNT_TOL * q.best);
    dls_verification_free(v);
    /* a fraction of an element, and a time claimed below the model's */
    double e0 = (double)dls_partition_elements(r)[0];
    assert_ok(dls_claim_set(c, 0, e0 - 0.5, NAN, NAN, NAN, dls_partition_times(r)[0], &err),
              &err);
    dls_verify_params p;
    dls_verify_params_init(&p);
    p.load = 999.5;
    assert_ok(dls_partition_verify(pl, c, &p, &v, &err), &err);
    expect_one(v, DLS_VIOLATION_NOT_WHOLE, 0, 0.5, dls_platform_name(pl, 0));
    dls_verification_free(v);
    double t0 = dls_model_time(dls_platform_model(pl, 0), e0);
    assert_ok(dls_claim_set(c, 0, e0, NAN, NAN, NAN, t0 / 2, &err), &err);
    assert_ok(dls_partition_verify(pl, c, NULL, &v, &err), &err);
    expect_one(v, DLS_VIOLATION_FINISH, 0, t0 / 2, dls_platform_name(pl, 0));
    dls_verification_free(v);
    /* a schedule claim given to the partition check, and the reverse */
    assert_int_equal(dls_schedule_verify(pl, c, NULL, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "partition"));
    dls_claim_free(c);
    dls_partition_free(r);
    dls_platform_free(pl);
}

/* The readers: the JSON dlsched writes, CSV tables, and what they refuse. */
TEST(readers)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": [{\"name\": \"a,\\\"x\\\"\", \"time\": [[0, 0.01]], \"link\": "
        "{\"startup\": 0.1, \"rate\": 0.001}}, {\"name\": \"b\", \"time\": [[0, 0.02]], "
        "\"link\": {\"startup\": 0.1, \"rate\": 0.001}}]}");
    dls_claim *c = NULL;
    dls_error err;
    /* a quoted name holding the delimiter and quotes; rows in send order: b first */
    const char *csv = "name,load,send_start,finish\n"
                      "b,40,0,\n"
                      "\"a,\"\"x\"\"\",60,,\n";
    assert_ok(dls_claim_read_string(pl, csv, strlen(csv), "t.csv", &c, &err), &err);
    dls_verification *v = NULL;
    assert_ok(dls_schedule_verify(pl, c, NULL, &v, &err), &err);
    expect_valid(v, "the CSV claim");
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    /* b first: 0.1 + 0.04 = 0.14, computes 0.8 -> 0.94; a: 0.14 + 0.16 = 0.3, + 0.6 = 0.9 */
    assert_rel(q.makespan, 0.94, 1e-12);
    dls_verification_free(v);
    dls_claim_free(c);

    struct {
        const char *text, *want;
        dls_status st;
    } bad[] = {
        {"name,load\nzz,1\n", "no processor \"zz\"", DLS_EDATA},
        {"name,load\nb,1\nb,2\n", "appears twice", DLS_EDATA},
        {"name,load\nb,x1\n", "\"x1\" is not a finite number", DLS_EDATA},
        {"name,load\nb,inf\n", "not a finite number", DLS_EDATA},
        {"name,size\nb,1\n", "\"size\"", DLS_ESYNTAX},
        {"name,finish\nb,1\n", "\"load\"", DLS_ESYNTAX},
        {"name,load\nb,1,2\n", "3 fields", DLS_ESYNTAX},
        {"name,load\n\"b,1\n", "never closed", DLS_ESYNTAX},
        {"", "no header", DLS_ESYNTAX},
        {"{\"processors\": [{\"name\": \"zz\", \"load\": 1}]}", "no processor \"zz\"",
         DLS_EDATA},
        {"{\"processors\": [{\"name\": \"b\", \"load\": \"1\"}]}", "must be a number",
         DLS_EDATA},
        {"{\"processors\": [{\"name\": \"b\"}]}", "no \"load\"", DLS_EDATA},
        {"{\"send_order\": [\"b\", \"b\"], \"processors\": []}", "already in the order",
         DLS_EINVAL},
        {"{\"processors\": 3}", "\"processors\" array", DLS_EDATA},
        {"{\"processors\": [}", "malformed JSON", DLS_ESYNTAX},
        {"{\"load\": -1, \"processors\": []}", "\"load\" must be", DLS_EDATA},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dls_claim *keep = (dls_claim *)&err; /* any value: must stay */
        c = keep;
        dls_status st = dls_claim_read_string(pl, bad[k].text, strlen(bad[k].text), "t",
                                              &c, &err);
        if (st != bad[k].st || strstr(err.message, bad[k].want) == NULL)
            fail_msg("case %zu: %s (%s), expected %s with \"%s\"", k, dls_status_name(st),
                     err.message, dls_status_name(bad[k].st), bad[k].want);
        assert_ptr_equal(c, keep);
    }
    dls_platform_free(pl);
}

/* Calls refused, state unchanged. */
TEST(errors)
{
    dls_platform *pl = test_example("star_cluster.json");
    dls_platform *other = test_example("star_cluster.json");
    dls_claim *c = NULL;
    dls_error err;
    assert_int_equal(dls_claim_create(pl, (dls_claim_kind)7, &c, &err), DLS_EINVAL);
    assert_null(c);
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &c, &err), &err);
    assert_ok(dls_claim_set(c, 0, 10, NAN, NAN, NAN, NAN, &err), &err);
    assert_int_equal(dls_claim_set(c, 99, 1, NAN, NAN, NAN, NAN, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set(c, 0, NAN, NAN, NAN, NAN, NAN, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set(c, 0, 5, INFINITY, NAN, NAN, NAN, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_total(c, -1, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_makespan(c, INFINITY, &err), DLS_EINVAL);
    size_t dup[2] = {1, 1}, bad[1] = {42};
    assert_int_equal(dls_claim_set_order(c, dup, 2, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "already in the order"));
    assert_int_equal(dls_claim_set_order(c, bad, 1, &err), DLS_EINVAL);
    /* the refused calls left the claim as it was: 10 units on processor 0 */
    dls_verify_params p;
    dls_verify_params_init(&p);
    p.optimum = 0;
    dls_verification *v = NULL;
    assert_ok(dls_schedule_verify(pl, c, &p, &v, &err), &err);
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    assert_rel(q.load, 10, 0);
    dls_verification_free(v);
    /* another platform; bad parameters: refused, *out untouched */
    v = (dls_verification *)&p;
    assert_int_equal(dls_schedule_verify(other, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "another platform"));
    p.tolerance = 0;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "tolerance"));
    p.tolerance = 2e-3;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    dls_verify_params_init(&p);
    p.load = -3;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    dls_verify_params_init(&p);
    p.order = (dls_send_order)9;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    dls_verify_params_init(&p);
    p.best_order = 2;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "best_order must be 0 or 1, not 2"));
    dls_verify_params_init(&p);
    p.reserved[3] = 1;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_ptr_equal(v, (dls_verification *)&p);
    /* names */
    dls_violation_kind k;
    assert_int_equal(dls_violation_kind_from_name("send-overlap", &k), DLS_OK);
    assert_int_equal(k, DLS_VIOLATION_SEND_OVERLAP);
    assert_string_equal(dls_violation_kind_name(DLS_VIOLATION_EARLY_COMPUTE), "early-compute");
    assert_int_equal(dls_violation_kind_from_name("nope", &k), DLS_EINVAL);
    dls_claim_free(c);
    dls_platform_free(other);
    dls_platform_free(pl);
}

/* Multi-installment schedules: every simulation verifies, with the model's makespan; a
 * load moved between processors, a finish and a makespan claimed too early are caught. */
TEST(installments)
{
    const char *files[] = {"star_cluster.json", "memory_levels.json", "star_ten.json"};
    const double loads[] = {1000, 12345.5, 3e7};
    const double chunks[] = {1, 33.3, 1000, 1e6, 5e7};
    dls_error err;
    for (size_t f = 0; f < 3; f++) {
        dls_platform *pl = test_example(files[f]);
        size_t n = dls_platform_count(pl);
        for (size_t l = 0; l < 3; l++)
            for (size_t k = 0; k < 5; k++) {
                dls_installment *s = NULL;
                dls_status st = dls_installment_simulate(pl, loads[l], chunks[k], NULL, &s, &err);
                if (st != DLS_OK)
                    continue; /* too many chunks, or none held by a limit */
                dls_claim *c = NULL;
                assert_ok(dls_claim_create(pl, DLS_CLAIM_INSTALLMENTS, &c, &err), &err);
                assert_ok(dls_claim_set_chunk(c, chunks[k], &err), &err);
                for (size_t i = 0; i < n; i++) {
                    double a = dls_installment_loads(s)[i];
                    double fin = a > 0 ? dls_installment_finish(s)[i] : NAN;
                    assert_ok(dls_claim_set(c, i, a, NAN, NAN, NAN, fin, &err), &err);
                }
                assert_ok(dls_claim_set_makespan(c, dls_installment_makespan(s), &err), &err);
                dls_verify_params p;
                dls_verify_params_init(&p);
                p.optimum = 0;
                p.load = loads[l];
                dls_verification *v = NULL;
                assert_ok(dls_installment_verify(pl, c, &p, &v, &err), &err);
                char what[160];
                snprintf(what, sizeof what, "%s, load %g, chunk %g", files[f], loads[l],
                         chunks[k]);
                expect_valid(v, what);
                dls_verify_quality q;
                dls_verification_get_quality(v, &q);
                if (!test_close(q.makespan, dls_installment_makespan(s), AMOUNT_TOL, 0))
                    fail_msg("%s: makespan %.17g, the simulation's %.17g", what, q.makespan,
                             dls_installment_makespan(s));
                dls_verification_free(v);
                if (f == 0 && l == 1 && k == 1) {
                    /* 10 units moved from the first processor to the second */
                    double a0 = dls_installment_loads(s)[0], a1 = dls_installment_loads(s)[1];
                    assert_ok(dls_claim_set(c, 0, a0 - 10, NAN, NAN, NAN, NAN, &err), &err);
                    assert_ok(dls_claim_set(c, 1, a1 + 10, NAN, NAN, NAN, NAN, &err), &err);
                    assert_ok(dls_installment_verify(pl, c, &p, &v, &err), &err);
                    assert_int_equal(dls_verification_count(v), 2);
                    assert_int_equal(dls_verification_violation(v, 0)->kind,
                                     DLS_VIOLATION_ROUND_ROBIN);
                    assert_rel(dls_verification_violation(v, 0)->excess, 10, AMOUNT_TOL);
                    dls_verification_free(v);
                    /* back, and the third processor claims to finish 1 s early */
                    double f2 = dls_installment_finish(s)[2];
                    assert_ok(dls_claim_set(c, 0, a0, NAN, NAN, NAN, NAN, &err), &err);
                    assert_ok(dls_claim_set(c, 1, a1, NAN, NAN, NAN, NAN, &err), &err);
                    assert_ok(dls_claim_set(c, 2, dls_installment_loads(s)[2], NAN, NAN, NAN,
                                            f2 - 0.01, &err), &err);
                    assert_ok(dls_claim_set_makespan(c, NAN, &err), &err);
                    assert_ok(dls_installment_verify(pl, c, &p, &v, &err), &err);
                    expect_one(v, DLS_VIOLATION_FINISH, 2, 0.01, NULL);
                    dls_verification_free(v);
                    assert_ok(dls_claim_set(c, 2, dls_installment_loads(s)[2], NAN, NAN, NAN,
                                            f2, &err), &err);
                    assert_ok(dls_claim_set_makespan(c, 0.5 * dls_installment_makespan(s), &err),
                              &err);
                    assert_ok(dls_installment_verify(pl, c, &p, &v, &err), &err);
                    expect_one(v, DLS_VIOLATION_MAKESPAN, -1, 0.5 * dls_installment_makespan(s),
                               NULL);
                    dls_verification_free(v);
                }
                dls_claim_free(c);
                dls_installment_free(s);
            }
        dls_platform_free(pl);
    }
}

/* Weighted sets, element by element. */

/* High-entropy weights (no two equal), of the order of the models' sizes scaled by s. */
static double *weights_of(size_t n, double s)
{
    double *w = malloc(n * sizeof *w);
    assert_non_null(w);
    for (size_t e = 0; e < n; e++)
        w[e] = s * (1.385 + fmod(2.718281 * (double)(e + 1), 7.3));
    return w;
}

/* The violations of a kind among those kept, and the first of them. */
static size_t count_kind(const dls_verification *v, dls_violation_kind kind,
                         const dls_violation **first)
{
    size_t k = 0;
    *first = NULL;
    for (size_t j = 0; j < dls_verification_count(v); j++) {
        const dls_violation *x = dls_verification_violation(v, j);
        if (x != NULL && x->kind == kind && k++ == 0)
            *first = x;
    }
    return k;
}

/* Exactly `want` violations of kind, the first on processor proc, element el (-1: none),
 * with the given excess. */
static void expect_kind(const dls_verification *v, dls_violation_kind kind, size_t want,
                        long proc, long long el, double excess)
{
    const dls_violation *x;
    size_t k = count_kind(v, kind, &x);
    if (k != want)
        fail_msg("%zu violations of kind %s, expected %zu (%zu in all; first: %s)", k,
                 dls_violation_kind_name(kind), want, dls_verification_count(v),
                 dls_verification_count(v) ? dls_verification_violation(v, 0)->text : "-");
    if (want == 0)
        return;
    assert_int_equal(x->processor, proc);
    assert_int_equal(x->element, el);
    assert_rel(x->excess, excess, AMOUNT_TOL);
}

/* A claim of the partitioner's answer r: weights held, times (or NaN), its placement. */
static dls_claim *weighted_claim(const dls_platform *pl, const dls_partition *r, int times)
{
    dls_claim *c = NULL;
    dls_error err;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_PARTITION, &c, &err), &err);
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        assert_ok(dls_claim_set(c, i, dls_partition_sizes(r)[i], NAN, NAN, NAN,
                                times ? dls_partition_times(r)[i] : NAN, &err), &err);
    if (dls_partition_first(r) != NULL)
        assert_ok(dls_claim_set_chunks(c, dls_partition_first(r), dls_partition_elements(r),
                                       dls_platform_count(pl), &err), &err);
    else
        assert_ok(dls_claim_set_assignment(c, dls_partition_assignment(r),
                                           (size_t)dls_partition_total(r), &err), &err);
    if (times)
        assert_ok(dls_claim_set_makespan(c, dls_partition_makespan(r), &err), &err);
    return c;
}

static dls_verification *wverify(const dls_platform *pl, const dls_claim *c,
                                 const dls_verify_params *p)
{
    return verify_by(dls_partition_verify, pl, c, p);
}

/* dlsched's own weighted partitions, ordered and not, verify at gap 0 against themselves. */
TEST(weighted_own)
{
    const char *files[] = {"star_cluster.json", "memory_levels.json", "star_ten.json"};
    const double scale[] = {37.5, 1.9e5, 51.3};
    const size_t sizes[] = {10, 57, 400};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int mode = 0; mode < 3; mode++) {
                dls_platform *pl = test_example(files[f]);
                size_t n = sizes[s];
                double *w = weights_of(n, scale[f]);
                dls_partition_params pp;
                dls_partition_params_init(&pp);
                pp.weights = w;
                pp.ordered = mode > 0;
                pp.reorder = mode == 2;
                dls_partition *r = NULL;
                dls_error err;
                assert_ok(dls_partition_solve(pl, n, &pp, &r, &err), &err);
                dls_claim *c = weighted_claim(pl, r, 1);
                dls_verify_params p;
                dls_verify_params_init(&p);
                p.weights = w;
                p.n_weights = n;
                p.ordered = pp.ordered;
                p.reorder = pp.reorder;
                dls_verification *v = wverify(pl, c, &p);
                char what[160];
                snprintf(what, sizeof what, "%s, %zu weights, mode %d", files[f], n, mode);
                expect_valid(v, what);
                dls_verify_quality q;
                dls_verification_get_quality(v, &q);
                long double total = 0;
                for (size_t e = 0; e < n; e++)
                    total += w[e];
                assert_rel(q.load, (double)total, AMOUNT_TOL);
                assert_rel(q.makespan, dls_partition_makespan(r), AMOUNT_TOL);
                assert_rel(q.best, dls_partition_makespan(r), AMOUNT_TOL);
                assert_true(fabs(q.gap) <= AMOUNT_TOL * q.best);
                assert_int_equal(q.proven, dls_partition_status(r) == DLS_SOLUTION_OPTIMAL);
                if (!q.proven)
                    assert_non_null(strstr(dls_verification_note(v), "lower bound"));
                dls_verification_free(v);
                dls_claim_free(c);
                dls_partition_free(r);
                free(w);
                dls_platform_free(pl);
            }
}

/* The broken weighted partitions' case: 40 weights on star_cluster, dlsched's partition of
 * them (unordered, or ordered under a limit on processor 0 of half its unordered weight),
 * its claim without times, and verify parameters for the weights. */
typedef struct weighted_case {
    dls_platform *pl;
    size_t np, n;
    double *w;
    dls_partition *r;
    dls_claim *c;
    dls_verify_params p;
} weighted_case;

static void weighted_case_open(weighted_case *k, int ordered)
{
    k->pl = test_example("star_cluster.json");
    k->np = dls_platform_count(k->pl);
    k->n = 40;
    k->w = weights_of(k->n, 37.5);
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.weights = k->w;
    dls_error err;
    assert_ok(dls_partition_solve(k->pl, k->n, &pp, &k->r, &err), &err);
    dls_verify_params_init(&k->p);
    k->p.weights = k->w;
    k->p.n_weights = k->n;
    if (ordered) {
        double W0 = dls_partition_sizes(k->r)[0];
        dls_partition_free(k->r);
        assert_ok(dls_platform_set_limit(k->pl, 0, W0 / 2, &err), &err);
        pp.ordered = 1;
        assert_ok(dls_partition_solve(k->pl, k->n, &pp, &k->r, &err), &err);
        k->p.ordered = 1;
        k->p.use_limits = 0;
    }
    k->c = weighted_claim(k->pl, k->r, 0);
}

static void weighted_case_close(weighted_case *k)
{
    dls_claim_free(k->c);
    dls_partition_free(k->r);
    free(k->w);
    dls_platform_free(k->pl);
}

/* The case's claim with the assignment a[0..count) instead, verified. */
static dls_verification *weighted_case_assign(weighted_case *k, const size_t *a, size_t count)
{
    dls_error err;
    assert_ok(dls_claim_set_assignment(k->c, a, count, &err), &err);
    return wverify(k->pl, k->c, &k->p);
}

/* A test on the weighted errors' case k (a weighted_case *), opened and closed around it. */
#define WEIGHTED_TEST(name, ordered)                                                           \
    static void name##_on(weighted_case *k);                                                  \
    TEST(name)                                                                                 \
    {                                                                                          \
        weighted_case k;                                                                       \
        weighted_case_open(&k, ordered);                                                       \
        name##_on(&k);                                                                         \
        weighted_case_close(&k);                                                               \
    }                                                                                          \
    static void name##_on(weighted_case *k)

/* A copy of the partition's assignment, with room for one element more. */
static size_t *own_assignment(const weighted_case *k)
{
    size_t *a = malloc((k->n + 1) * sizeof *a);
    assert_non_null(a);
    memcpy(a, dls_partition_assignment(k->r), k->n * sizeof *a);
    return a;
}

/* Element 7 moved to another processor: both weights off by its weight. */
WEIGHTED_TEST(a_moved_element_unbalances_two_weights, 0)
{
    size_t *a = own_assignment(k);
    size_t from = a[7], to = (from + 1) % k->np;
    a[7] = to;
    dls_verification *v = weighted_case_assign(k, a, k->n);
    expect_kind(v, DLS_VIOLATION_WEIGHT_SUM, 2, (long)(from < to ? from : to), -1, k->w[7]);
    assert_int_equal(dls_verification_count(v), 2);
    dls_verification_free(v);
    free(a);
}

/* The last element dropped: missing, and its holder short of its weight. */
WEIGHTED_TEST(a_dropped_element_is_missing, 0)
{
    size_t *a = own_assignment(k);
    size_t n = k->n;
    dls_verification *v = weighted_case_assign(k, a, n - 1);
    expect_kind(v, DLS_VIOLATION_ELEMENT_MISSING, 1, -1, (long long)(n - 1), 1);
    expect_kind(v, DLS_VIOLATION_WEIGHT_SUM, 1, (long)a[n - 1], -1, k->w[n - 1]);
    assert_non_null(strstr(dls_verification_violation(v, 0)->text, "element 39"));
    dls_verification_free(v);
    free(a);
}

/* One element beyond the set. */
WEIGHTED_TEST(an_element_beyond_the_set_is_unknown, 0)
{
    size_t *a = own_assignment(k);
    a[k->n] = 2;
    dls_verification *v = weighted_case_assign(k, a, k->n + 1);
    expect_kind(v, DLS_VIOLATION_ELEMENT_UNKNOWN, 1, 2, (long long)k->n, 1);
    assert_int_equal(dls_verification_count(v), 1);
    dls_verification_free(v);
    free(a);
}

/* A claimed weight off by 1e-6 of it (past the tolerance). */
WEIGHTED_TEST(a_claimed_weight_off_is_a_violation, 0)
{
    dls_error err;
    double W0 = dls_partition_sizes(k->r)[0];
    assert_ok(dls_claim_set(k->c, 0, W0 * (1 + 1e-6), NAN, NAN, NAN, NAN, &err), &err);
    dls_verification *v = wverify(k->pl, k->c, &k->p);
    expect_kind(v, DLS_VIOLATION_WEIGHT_SUM, 1, 0, -1, W0 * 1e-6);
    assert_int_equal(dls_verification_count(v), 1);
    dls_verification_free(v);
}

/* A time claimed below the model's at the weight held, by the busiest processor. */
WEIGHTED_TEST(a_weighted_time_too_low_is_a_violation, 0)
{
    dls_error err;
    size_t b = 0;
    for (size_t i = 1; i < k->np; i++)
        if (dls_partition_times(k->r)[i] > dls_partition_times(k->r)[b])
            b = i;
    double Wb = dls_partition_sizes(k->r)[b];
    double tb = dls_model_time(dls_platform_model(k->pl, b), Wb);
    assert_ok(dls_claim_set(k->c, b, Wb, NAN, NAN, NAN, tb * 0.75, &err), &err);
    dls_verification *v = wverify(k->pl, k->c, &k->p);
    expect_kind(v, DLS_VIOLATION_FINISH, 1, (long)b, -1, tb * 0.25);
    dls_verification_free(v);
}

/* A limit below the weight held (the partition was made without it). */
WEIGHTED_TEST(a_weight_over_a_later_limit_is_a_violation, 0)
{
    dls_error err;
    double W0 = dls_partition_sizes(k->r)[0];
    assert_ok(dls_platform_set_limit(k->pl, 0, W0 / 2, &err), &err);
    dls_verification *v = wverify(k->pl, k->c, &k->p);
    expect_kind(v, DLS_VIOLATION_LIMIT, 1, 0, -1, W0 / 2);
    assert_int_equal(dls_verification_count(v), 1);
    dls_verification_free(v);
}

/* Ordered: an unordered partition's assignment is not contiguous. */
WEIGHTED_TEST(a_scattered_assignment_is_not_ordered, 0)
{
    k->p.ordered = 1;
    k->p.use_limits = 0;
    dls_verification *v = wverify(k->pl, k->c, &k->p);
    const dls_violation *x;
    assert_true(count_kind(v, DLS_VIOLATION_CHUNK, &x) > 0);
    dls_verification_free(v);
}

/* The ordered case's chunks, and two processors i0 < i1 whose chunks follow one another,
 * of more than one element each. */
typedef struct chunks {
    uint64_t first[16], count[16];
    size_t i0, i1;
} chunks;

static chunks adjacent_chunks(const weighted_case *k)
{
    chunks ch;
    size_t np = k->np;
    memcpy(ch.first, dls_partition_first(k->r), np * sizeof ch.first[0]);
    memcpy(ch.count, dls_partition_elements(k->r), np * sizeof ch.count[0]);
    size_t i0 = 0, i1 = np;
    for (; i0 + 1 < np && i1 == np; i0++) {
        size_t j = i0 + 1;
        while (j < np && ch.count[j] == 0)
            j++;
        if (ch.count[i0] > 1 && j < np && ch.count[j] > 1)
            i1 = j;
    }
    i0--;
    assert_true(i1 < np && ch.first[i1] == ch.first[i0] + ch.count[i0]);
    ch.i0 = i0;
    ch.i1 = i1;
    return ch;
}

/* The case's claim with these chunks instead, verified. */
static dls_verification *weighted_case_chunks(weighted_case *k, const chunks *ch)
{
    dls_error err;
    assert_ok(dls_claim_set_chunks(k->c, ch->first, ch->count, k->np, &err), &err);
    return wverify(k->pl, k->c, &k->p);
}

/* A chunk reaching into the next one: an element twice, a weight off, a chunk out of
 * place. */
WEIGHTED_TEST(overlapping_chunks_are_a_violation, 1)
{
    chunks ch = adjacent_chunks(k);
    ch.count[ch.i0]++;
    dls_verification *v = weighted_case_chunks(k, &ch);
    uint64_t e1 = ch.first[ch.i1];
    expect_kind(v, DLS_VIOLATION_ELEMENT_TWICE, 1, (long)ch.i1, (long long)e1, 1);
    expect_kind(v, DLS_VIOLATION_WEIGHT_SUM, 1, (long)ch.i0, -1, k->w[e1]);
    expect_kind(v, DLS_VIOLATION_CHUNK, 1, (long)ch.i1, (long long)e1, 1);
    dls_verification_free(v);
}

/* A gap of one element between two chunks: missing, and a weight short of it. */
WEIGHTED_TEST(a_gap_between_chunks_is_a_violation, 1)
{
    chunks ch = adjacent_chunks(k);
    ch.count[ch.i0]--;
    dls_verification *v = weighted_case_chunks(k, &ch);
    uint64_t gap = ch.first[ch.i0] + ch.count[ch.i0];
    expect_kind(v, DLS_VIOLATION_ELEMENT_MISSING, 1, -1, (long long)gap, 1);
    expect_kind(v, DLS_VIOLATION_WEIGHT_SUM, 1, (long)ch.i0, -1, k->w[gap]);
    assert_int_equal(dls_verification_count(v), 2);
    dls_verification_free(v);
}

/* The chunks of i0 and i1 exchanged (with their weights): out of the platform's order,
 * valid with reorder. */
WEIGHTED_TEST(exchanged_chunks_need_reorder, 1)
{
    chunks ch = adjacent_chunks(k);
    size_t i0 = ch.i0, i1 = ch.i1;
    uint64_t f0 = ch.first[i0], c0 = ch.count[i0], c1 = ch.count[i1];
    ch.first[i1] = f0;
    ch.first[i0] = f0 + c1;
    dls_error err;
    for (size_t j = 0; j < 2; j++) {
        size_t i = j ? i1 : i0;
        double held = 0;
        for (uint64_t e = ch.first[i]; e < ch.first[i] + ch.count[i]; e++)
            held += k->w[e];
        assert_ok(dls_claim_set(k->c, i, held, NAN, NAN, NAN, NAN, &err), &err);
    }
    dls_verification *v = weighted_case_chunks(k, &ch);
    /* i1's chunk starts at f0, before the end of i0's, f0 + c1 + c0 */
    expect_kind(v, DLS_VIOLATION_CHUNK, 1, (long)i1, (long long)f0, (double)(c0 + c1));
    assert_int_equal(dls_verification_count(v), 1);
    dls_verification_free(v);
    k->p.reorder = 1; /* any order of the chunks */
    v = wverify(k->pl, k->c, &k->p);
    expect_valid(v, "exchanged chunks with reorder");
    dls_verification_free(v);
}

/* Without a placement: one violation, the whole set missing. */
WEIGHTED_TEST(a_claim_without_placement_misses_every_element, 1)
{
    k->p.reorder = 1;
    dls_claim *bare = NULL;
    dls_error err;
    assert_ok(dls_claim_create(k->pl, DLS_CLAIM_PARTITION, &bare, &err), &err);
    dls_verification *v = wverify(k->pl, bare, &k->p);
    double total = 0;
    for (size_t e = 0; e < k->n; e++)
        total += k->w[e];
    expect_kind(v, DLS_VIOLATION_ELEMENT_MISSING, 1, -1, -1, total);
    dls_verification_free(v);
    dls_claim_free(bare);
}

/* The weighted errors' platform (a and b) and its five weights, held 3 by a, 2 by b. */
static const char two_of_five[] = "{\"processors\": [{\"name\": \"a\", \"speed\": 2.5}, "
                                  "{\"name\": \"b\", \"time\": [[0, 0.5]]}]}";
static const size_t own_of_five[5] = {0, 1, 0, 1, 0};

/* A valid claim of own_of_five, its weights held 12.875 and 3.25. */
static dls_claim *claim_of_five(const dls_platform *pl)
{
    dls_claim *c = NULL;
    dls_error err;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_PARTITION, &c, &err), &err);
    assert_ok(dls_claim_set(c, 0, 12.875, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set(c, 1, 3.25, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set_assignment(c, own_of_five, 5, &err), &err);
    return c;
}

/* Verify params weighing the five elements by w, which this fills (the caller may change it). */
static void params_of_five(dls_verify_params *p, double w[5])
{
    static const double five[5] = {3.25, 1.5, 4.125, 1.75, 5.5};
    memcpy(w, five, sizeof five);
    dls_verify_params_init(p);
    p->weights = w;
    p->n_weights = 5;
}

/* Refused placements leave the claim as it was; a schedule's claim takes none. */
TEST(refused_placements_leave_the_claim)
{
    dls_platform *pl = test_platform_json(two_of_five);
    double w[5];
    const size_t *own = own_of_five;
    dls_claim *c = claim_of_five(pl);
    dls_error err;
    dls_verify_params p;
    params_of_five(&p, w);
    size_t bad[5] = {0, 1, 2, 1, 0};
    assert_int_equal(dls_claim_set_assignment(c, bad, 5, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "element 2: processor 2 of a platform of 2"));
    uint64_t first[2] = {0, 3}, count[2] = {3, DLS_PARTITION_MAX_ELEMENTS};
    assert_int_equal(dls_claim_set_chunks(c, first, count, 2, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "processor \"b\""));
    assert_int_equal(dls_claim_set_chunks(c, first, count, 1, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_assignment(NULL, own, 5, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_assignment(c, NULL, 5, &err), DLS_EINVAL);
    /* the claim kept its assignment: still valid */
    dls_verification *v = wverify(pl, c, &p);
    expect_valid(v, "the claim after refused placements");
    dls_verification_free(v);
    dls_claim *sc = NULL;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &sc, &err), &err);
    assert_int_equal(dls_claim_set_assignment(sc, own, 5, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_chunks(sc, first, count, 2, &err), DLS_EINVAL);
    dls_claim_free(sc);
    dls_claim_free(c);
    dls_platform_free(pl);
}

/* Refused weighted parameters leave the result pointer as it was. */
TEST(refused_weighted_parameters_leave_the_result)
{
    dls_platform *pl = test_platform_json(two_of_five);
    double w[5];
    dls_claim *c = claim_of_five(pl);
    dls_error err;
    dls_verify_params p;
    params_of_five(&p, w);
    dls_claim *sc = NULL;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &sc, &err), &err);
    dls_verification *v = (dls_verification *)&p;
    dls_verification *keep = v;
    w[3] = -1.75;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "element 3 weighs -1.75"));
    w[3] = 1.75;
    p.load = 5;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    p.load = NAN;
    p.n_weights = 0;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    p.n_weights = 5;
    p.reorder = 1;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "reorder"));
    p.reorder = 0;
    assert_int_equal(dls_schedule_verify(pl, sc, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "weights apply to partitions"));
    dls_verify_params_init(&p);
    p.ordered = 1;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_ptr_equal(v, keep);
    dls_claim_free(sc);
    dls_claim_free(c);
    dls_platform_free(pl);
}

/* The JSON of partition --weights --json, unordered and ordered, verifies. */
TEST(weighted_json_claims_verify)
{
    dls_platform *pl = test_platform_json(two_of_five);
    double w[5];
    dls_claim *c = NULL;
    dls_error err;
    dls_verify_params p;
    dls_verification *v;
    const char *good = "{\"elements\": 5, \"assignment\": [0, 1, 0, 1, 0], \"processors\": "
                       "[{\"name\": \"a\", \"elements\": 3, \"weight\": 12.875}, "
                       "{\"name\": \"b\", \"elements\": 2, \"weight\": 3.25}]}";
    assert_ok(dls_claim_read_string(pl, good, strlen(good), "t", &c, &err), &err);
    params_of_five(&p, w);
    v = wverify(pl, c, &p);
    expect_valid(v, "the JSON claim");
    dls_verification_free(v);
    dls_claim_free(c);
    const char *ord = "{\"elements\": 5, \"processors\": [{\"name\": \"a\", \"elements\": 3, "
                      "\"first\": 0, \"weight\": 8.875}, {\"name\": \"b\", \"elements\": 2, "
                      "\"first\": 3, \"weight\": 7.25}]}";
    assert_ok(dls_claim_read_string(pl, ord, strlen(ord), "t", &c, &err), &err);
    p.ordered = 1;
    v = wverify(pl, c, &p);
    expect_valid(v, "the ordered JSON claim");
    dls_verification_free(v);
    dls_claim_free(c);
    dls_platform_free(pl);
}

/* Hostile copies of that JSON are refused, the claim pointer left as it was. */
TEST(hostile_weighted_json_claims_are_refused)
{
    dls_platform *pl = test_platform_json(two_of_five);
    dls_claim *c = NULL;
    dls_error err;
    struct {
        const char *text, *want;
    } hostile[] = {
        {"{\"assignment\": [0, 1, 2, 1, 0], \"processors\": [{\"name\": \"a\", "
         "\"elements\": 3, \"weight\": 1}]}", "t:1:23: element 2: the processor must be an "
         "index in 0 .. 1 (the platform's order), not 2"},
        {"{\"assignment\": [0, -1], \"processors\": [{\"name\": \"a\", \"elements\": 3, "
         "\"weight\": 1}]}", "element 1: the processor must be an index"},
        {"{\"assignment\": [0.5], \"processors\": [{\"name\": \"a\", \"elements\": 3, "
         "\"weight\": 1}]}", "not 0.5"},
        {"{\"assignment\": [\"a\"], \"processors\": [{\"name\": \"a\", \"elements\": 3, "
         "\"weight\": 1}]}", "not a value that is not a number"},
        {"{\"assignment\": 3, \"processors\": [{\"name\": \"a\", \"elements\": 3, "
         "\"weight\": 1}]}", "\"assignment\" must be an array"},
        {"{\"elements\": 4, \"assignment\": [0, 1], \"processors\": [{\"name\": \"a\", "
         "\"elements\": 3, \"weight\": 1}]}", "places 2 elements, \"elements\" says 4"},
        {"{\"processors\": [{\"name\": \"a\", \"elements\": 3, \"weight\": 1, \"first\": "
         "-2}]}", "\"first\" must be a whole number"},
        {"{\"processors\": [{\"name\": \"a\", \"elements\": 3, \"weight\": 1, \"first\": "
         "0}, {\"name\": \"b\", \"elements\": 2, \"weight\": 1}]}", "processor \"b\": no "
         "\"first\""},
        {"{\"processors\": [{\"name\": \"a\", \"elements\": 1.5, \"weight\": 1, \"first\": "
         "0}]}", "\"elements\" must be a whole number"},
    };
    for (size_t k = 0; k < sizeof hostile / sizeof hostile[0]; k++) {
        dls_claim *before = (dls_claim *)&err;
        c = before;
        dls_status st = dls_claim_read_string(pl, hostile[k].text, strlen(hostile[k].text), "t",
                                              &c, &err);
        if (st != DLS_EDATA || strstr(err.message, hostile[k].want) == NULL)
            fail_msg("hostile %zu: %s (%s), expected EDATA with \"%s\"", k,
                     dls_status_name(st), err.message, hostile[k].want);
        assert_ptr_equal(c, before);
    }
    dls_platform_free(pl);
}

/* The least selection optimum over every permutation of the processors, each order solved
 * by the chain as a given sequence: the best order found by brute force, independently of
 * the order search that --best-order runs. */
static double every_order(const dls_platform *pl, double V)
{
    size_t m = dls_platform_count(pl), perm[8];
    for (size_t k = 0; k < m; k++)
        perm[k] = k;
    double best = INFINITY;
    do {
        dls_schedule_params sp;
        test_sequence_params(&sp, perm, m);
        dls_schedule *s = NULL;
        dls_error err;
        assert_ok(dls_schedule_solve(pl, V, &sp, &s, &err), &err);
        best = fmin(best, dls_schedule_makespan(s));
        dls_schedule_free(s);
    } while (test_next_permutation(perm, m));
    return best;
}

/* With best_order, a schedule in the platform's order is measured against the best order
 * and set: the optimum brute force finds over every permutation, proven, the lower bound
 * below it, and the gap to it; without, the figures stay NaN. */
TEST(best_order)
{
    test_rng r = test_rng_salted(1803);
    size_t gaps = 0;
    for (int k = 0; k < 40; k++) {
        size_t m = 2 + (size_t)test_below(&r, 4);
        double V = test_logrange(&r, 100, 5000);
        dls_platform *pl = gen_star(&r, m, 2, V, k % 3 == 0);
        dls_schedule *s = NULL;
        dls_error err;
        assert_ok(dls_schedule_solve(pl, V, NULL, &s, &err), &err);
        dls_claim *c = claim_of(pl, s);
        dls_verify_params vp;
        dls_verify_params_init(&vp);
        dls_verification *v = verify(pl, c, &vp);
        dls_verify_quality q;
        dls_verification_get_quality(v, &q);
        assert_true(isnan(q.best_order_optimum) && isnan(q.order_lower_bound));
        double mode_best = q.best;
        dls_verification_free(v);
        vp.best_order = 1;
        v = verify(pl, c, &vp);
        expect_valid(v, "best order");
        dls_verification_get_quality(v, &q);
        double brute = every_order(pl, V);
        if (!test_close(q.best_order_optimum, brute, AMOUNT_TOL, 0))
            fail_msg("instance %d (%zu processors): best order %.17g, every permutation "
                     "%.17g", k, m, q.best_order_optimum, brute);
        assert_true(q.best_order_proven);
        assert_true(q.proven);
        assert_true(q.order_lower_bound <= q.best_order_optimum * (1 + AMOUNT_TOL));
        assert_true(q.best_order_optimum <= q.selection_optimum * (1 + AMOUNT_TOL));
        assert_rel(q.best, fmin(mode_best, q.best_order_optimum), 1e-15);
        assert_rel(q.gap, q.makespan - q.best, 1e-12);
        if (q.gap_percent > 100 * AMOUNT_TOL)
            gaps++;
        dls_verification_free(v);
        dls_claim_free(c);
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    /* the platforms' order is not the best on most of these stars */
    printf("# best order: %zu of 40 schedules in the platform's order above it\n", gaps);
    assert_true(gaps > 0);
}

/* A claim that names only the processors it gives a load, in an order of its own: its own
 * order's optimum is the best set for that order followed by every other processor in the
 * platform's order, which the solver finds here from the whole sequence (the verifier
 * builds that platform itself). */
TEST(own_order_of_a_subset)
{
    test_rng r = test_rng_salted(1809);
    size_t partial = 0;
    for (int k = 0; k < 30; k++) {
        size_t n = 3 + (size_t)test_below(&r, 6);
        double V = test_logrange(&r, 10, 5000);
        dls_platform *pl = gen_star(&r, n, 2, V, 0);
        size_t perm[8], full[8], used[8], m = 0, at = 0;
        for (size_t i = 0; i < n; i++)
            perm[i] = i;
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)test_below(&r, i), t = perm[i - 1];
            perm[i - 1] = perm[j];
            perm[j] = t;
        }
        dls_schedule_params sp;
        test_sequence_params(&sp, perm, n);
        dls_schedule *s = NULL;
        dls_error err;
        assert_ok(dls_schedule_solve(pl, V, &sp, &s, &err), &err);
        dls_claim *c = NULL;
        assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &c, &err), &err);
        double load[8] = {0};
        for (size_t j = 0; j < n; j++)
            load[dls_schedule_sequence(s)[j]] = dls_schedule_loads(s)[j];
        for (size_t j = 0; j < n; j++)
            if (load[perm[j]] > 0)
                used[m++] = perm[j];
        for (size_t i = 0; i < n; i++)
            assert_ok(dls_claim_set(c, i, load[i], NAN, NAN, NAN, NAN, &err), &err);
        assert_ok(dls_claim_set_order(c, used, m, &err), &err);
        assert_ok(dls_claim_set_total(c, V, &err), &err);
        dls_verification *v = verify(pl, c, NULL);
        expect_valid(v, "a claim of some processors");
        /* the expected order: the claim's, then the others by index */
        for (size_t j = 0; j < m; j++)
            full[at++] = used[j];
        for (size_t i = 0; i < n; i++)
            if (!(load[i] > 0))
                full[at++] = i;
        sp.sequence = full;
        dls_schedule *own = NULL;
        assert_ok(dls_schedule_solve(pl, V, &sp, &own, &err), &err);
        dls_verify_quality q;
        dls_verification_get_quality(v, &q);
        assert_rel(q.own_order_optimum, dls_schedule_makespan(own), AMOUNT_TOL);
        /* the claim is a schedule in its own order: never better than its optimum */
        assert_true(q.own_order_optimum <= q.makespan * (1 + AMOUNT_TOL));
        partial += m < n;
        dls_schedule_free(own);
        dls_verification_free(v);
        dls_claim_free(c);
        dls_schedule_free(s);
        dls_platform_free(pl);
    }
    printf("# own order: %zu of 30 claims name only some of the processors\n", partial);
    assert_true(partial >= 5);
}

/* Issue 35, items 1, 2 and 8b: every number of a claim 0 or inside the input domain, the
 * load checked against too; an installments claim of 2^53 chunks or more refused at once
 * (its count was corrected in doubles that no longer changed: a hang); the time limit
 * checked on entry, and the exact simplex it stops reported, not failed. */
TEST(domain_and_limits)
{
    dls_platform *pl = test_example("star_two.json");
    dls_claim *c = NULL;
    dls_error err;
    assert_ok(dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &c, &err), &err);
    const double outside[] = {1e61, -1e61, 1e-61, -1e-70};
    for (size_t k = 0; k < 4; k++) {
        assert_int_equal(dls_claim_set(c, 0, outside[k], NAN, NAN, NAN, NAN, &err), DLS_EINVAL);
        assert_non_null(strstr(err.message, "outside the domain"));
        assert_int_equal(err.processor, 0);
        assert_int_equal(dls_claim_set(c, 1, 1, NAN, NAN, NAN, outside[k], &err), DLS_EINVAL);
        assert_non_null(strstr(err.message, "the finish"));
        assert_int_equal(dls_claim_set_makespan(c, fabs(outside[k]), &err), DLS_EINVAL);
    }
    assert_int_equal(dls_claim_set_total(c, 1e61, &err), DLS_EINVAL);
    assert_int_equal(dls_claim_set_total(c, 1e-61, &err), DLS_EINVAL);
    /* each load inside, their sum past 1e60: refused by the verification, not computed */
    assert_ok(dls_claim_set(c, 0, 6e59, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set(c, 1, 6e59, NAN, NAN, NAN, NAN, &err), &err);
    dls_verify_params p;
    dls_verify_params_init(&p);
    p.use_limits = 0;
    dls_verification *v = NULL;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "outside the domain"));
    assert_null(v);
    /* the time limit: 600 s by default, 0 the default too (a reserved tail of old), checked */
    assert_rel(p.time_limit, DLS_VERIFY_DEFAULT_TIME_LIMIT, 0);
    assert_ok(dls_claim_set(c, 1, 1, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set(c, 0, 1, NAN, NAN, NAN, NAN, &err), &err);
    const double bad_limits[] = {-1, 2 * DLS_TIME_LIMIT_MAX, NAN};
    for (size_t k = 0; k < 3; k++) {
        p.time_limit = bad_limits[k];
        assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
        assert_non_null(strstr(err.message, "time_limit must be in"));
    }
    p.time_limit = 0;
    assert_ok(dls_schedule_verify(pl, c, &p, &v, &err), &err);
    dls_verification_free(v);
    p.tolerance = DLS_DOMAIN_MIN / 2;
    assert_int_equal(dls_schedule_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    dls_claim_free(c);
    /* installments: 2e17 chunks refused, 2e15 replayed in closed form */
    assert_ok(dls_claim_create(pl, DLS_CLAIM_INSTALLMENTS, &c, &err), &err);
    assert_int_equal(dls_claim_set_chunk(c, 1e-61, &err), DLS_EINVAL);
    assert_ok(dls_claim_set(c, 0, 1, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set(c, 1, 1, NAN, NAN, NAN, NAN, &err), &err);
    assert_ok(dls_claim_set_chunk(c, 1e-17, &err), &err);
    assert_int_equal(dls_installment_verify(pl, c, NULL, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "more than 2^53"));
    assert_ok(dls_claim_set_chunk(c, 1e-15, &err), &err);
    assert_ok(dls_installment_verify(pl, c, NULL, &v, &err), &err);
    expect_valid(v, "2e15 chunks, one unit on each processor");
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    assert_true(q.makespan > 1e15 && isfinite(q.makespan)); /* a startup of 1 s a chunk */
    dls_verification_free(v);
    dls_claim_free(c);
    /* a partition of more than 2^53 elements (params->load) is no count */
    assert_ok(dls_claim_create(pl, DLS_CLAIM_PARTITION, &c, &err), &err);
    assert_ok(dls_claim_set(c, 0, 1, NAN, NAN, NAN, NAN, &err), &err);
    dls_verify_params_init(&p);
    p.load = 1e20;
    assert_int_equal(dls_partition_verify(pl, c, &p, &v, &err), DLS_EINVAL);
    assert_non_null(strstr(err.message, "2^53"));
    dls_claim_free(c);
    dls_platform_free(pl);
    /* the exact simplex stopped by the limit: the chain's optimum, said not certified */
    dls_platform *big = NULL;
    assert_ok(dls_platform_create(&big, &err), &err);
    for (size_t i = 0; i < 2000; i++) {
        size_t at = gen_add(big, "p", i, gen_constant(1 + (double)(i % 7) / 10));
        gen_link(big, at, 0, 1e-4 * (double)(1 + i % 3));
    }
    assert_ok(dls_claim_create(big, DLS_CLAIM_SCHEDULE, &c, &err), &err);
    for (size_t i = 0; i < 2000; i++)
        assert_ok(dls_claim_set(c, i, 1, NAN, NAN, NAN, NAN, &err), &err);
    dls_verify_params_init(&p);
    p.exact = 1;
    p.time_limit = 0.05;
    assert_ok(dls_schedule_verify(big, c, &p, &v, &err), &err);
    dls_verification_get_quality(v, &q);
    expect_valid(v, "2000 processors, one unit each");
    assert_int_equal(q.exact_stopped, 1);
    assert_int_equal(q.exact_confirmed, 0);
    assert_true(q.paper_optimum > 0);
    assert_null(dls_verification_certificate(v));
    assert_non_null(strstr(dls_verification_note(v), "not certified"));
    dls_verification_free(v);
    dls_claim_free(c);
    dls_platform_free(big);
}

TEST_MAIN("verify", solver_schedules_verify, replayed_loads_are_valid,
          loads_not_summing_are_a_violation, a_load_over_the_limit_is_a_violation,
          overlapping_sends_are_a_violation, a_send_too_short_is_a_violation,
          computing_before_the_data_is_a_violation, finishing_early_is_a_violation,
          a_makespan_too_low_is_a_violation, a_negative_load_is_a_violation,
          loads_without_times_are_replayed, partitions, installments, readers,
          errors, domain_and_limits, weighted_own,
          a_moved_element_unbalances_two_weights, a_dropped_element_is_missing,
          an_element_beyond_the_set_is_unknown, a_claimed_weight_off_is_a_violation,
          a_weighted_time_too_low_is_a_violation, a_weight_over_a_later_limit_is_a_violation,
          a_scattered_assignment_is_not_ordered, overlapping_chunks_are_a_violation,
          a_gap_between_chunks_is_a_violation, exchanged_chunks_need_reorder,
          a_claim_without_placement_misses_every_element,
          refused_placements_leave_the_claim, refused_weighted_parameters_leave_the_result,
          weighted_json_claims_verify, hostile_weighted_json_claims_are_refused, best_order,
          own_order_of_a_subset)
