/* The rational certificate of the star LP's optimum (src/solver/certificate.c).
 *
 * Independent checks: two platforms solved by hand (fractions written in the test); on 300
 * random platforms (fixed seed, overridable; 1 to 12 processors, 1 to 3 memory levels,
 * limits, free links, either order) the certified makespan, read back as a fraction, must
 * equal the chain solver's paper LP (an exact method of its own, checked against GLPK and
 * lp_solve in test_chain_lp) and GLPK's floating-point answer within the tolerance rule
 * (the largest differences printed), and the certificate's own loads, summed and
 * replayed through the star's lines, must give the load and the makespan. (tests/validation/
 * certificates.sh compares the fractions digit for digit with the optima rebuilt by
 * validation/refmodel.py from glpsol --exact.) Every refusal of dls__lp_certify is
 * triggered: a platform past the size limit, a basis at a limit the processor lacks, a
 * basis whose rows contradict, a basis that is feasible but not optimal. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "solver/solver.h"
#include "star_build.h"

#define INSTANCES 300
#define AGREE 1e-12
/* The solvers in floating point (the chain, GLPK polished) against the exact optimum: the
 * tolerance rule (doc/NUMERICS.md). The certificates measured the chain up to 6.5e-11 off
 * on these platforms, GLPK up to a few 1e-12: the largest of each is printed. */
#define FLOAT_AGREE DLS_REL_TOL

static dls_platform *by_json(const char *text) { return test_platform_json(text); }

static dls_schedule *certified(const dls_platform *pl, double V, int keep)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    par.exact = 1;
    par.drop_unused = !keep;
    dls_schedule *s = NULL;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
    return s;
}

#ifdef HAVE_GMP
/* p/q as a long double (NAN when it does not fit). */
static long double fraction(const char *s)
{
    char *end;
    long double p = strtold(s, &end);
    if (*end == '\0')
        return p;
    assert_true(*end == '/');
    long double q = strtold(end + 1, NULL);
    return isfinite(p) && isfinite(q) ? p / q : NAN;
}

/* Two equal processors, S = 0, C = 1, t(x) = x, V = 1: 2 a1 = a1 + 2 a2, so a1 = 2/3,
 * a2 = 1/3 and the makespan 4/3; the dual weights: both finish rows bind, mu = dT/dV. */
TEST(test_two_by_hand)
{
    dls_platform *pl = by_json("{\"processors\": ["
                               "{\"name\": \"a\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}},"
                               "{\"name\": \"b\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}}]}");
    dls_schedule *s = certified(pl, 1, 1);
    assert_non_null(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0));
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0), "4/3");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, 0), "2/3");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, 1), "1/3");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD_PRICE, 0), "4/3");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LIMIT_PRICE, 1), "0");
    long double y = fraction(dls_schedule_certificate(s, DLS_CERTIFICATE_FINISH_WEIGHT, 0)) +
                    fraction(dls_schedule_certificate(s, DLS_CERTIFICATE_FINISH_WEIGHT, 1));
    assert_true(fabsl(y - 1) < 1e-18L);
    /* out of range, unknown item, NULL */
    assert_null(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, 2));
    assert_null(dls_schedule_certificate(s, (dls_certificate_item)99, 0));
    assert_null(dls_schedule_certificate(NULL, DLS_CERTIFICATE_MAKESPAN, 0));
    dls_schedule_free(s);
    /* without exact: no certificate */
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, 1, &par, &s, &err), &err);
    assert_null(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0));
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* A limit that binds: a (fast) holds at most 1/4 of V = 1, b does the rest: b's finish
 * 1/4 + 3/4 + 3/4 = 7/4 is the makespan; a's limit price is positive. */
TEST(test_limit_by_hand)
{
    dls_platform *pl = by_json("{\"processors\": ["
                               "{\"name\": \"a\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}, \"limit\": 0.25},"
                               "{\"name\": \"b\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}}]}");
    dls_schedule *s = certified(pl, 1, 1);
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0), "7/4");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, 0), "1/4");
    assert_string_equal(dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, 1), "3/4");
    assert_true(fraction(dls_schedule_certificate(s, DLS_CERTIFICATE_LIMIT_PRICE, 0)) > 0);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* The certificate's loads, replayed in double through the star's lines as the paper's LP
 * charges them (dls__replay): the load sum and the makespan. */
static void replay_check(const dls_platform *pl, const dls_schedule *s, double V,
                         dls_send_order order, int trial)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.order = order;
    dls__star st;
    test_star_build(pl, V, &par, &st);
    double *x = calloc(st.m, sizeof *x);
    assert_non_null(x);
    long double sum = 0;
    for (size_t k = 0; k < st.m; k++) {
        const char *t = dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, st.proc[k]);
        assert_non_null(t);
        long double v = fraction(t);
        assert_true(v >= 0);
        sum += v;
        x[k] = (double)v;
    }
    if (fabsl(sum - V) > 1e-15L * V)
        fail_msg("trial %d: the certified loads sum to %.21Lg, not %.17g", trial, sum, V);
    double rep = dls__replay(&st, x, NULL, 1, 0, NULL, NULL, NULL, NULL, NULL);
    long double mk = fraction(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0));
    if (!test_close(rep, (double)mk, AGREE, 0))
        fail_msg("trial %d: the certified loads replay to %.17g, the certificate says %.21Lg",
                 trial, rep, mk);
    dls__star_free(&st);
    free(x);
}

TEST(test_random_against_chain)
{
    test_rng r = test_rng_salted(2201);
    int certified_count = 0;
    double worst = 0, worst_glpk = 0;
    int worst_trial = -1;
    for (int trial = 0; trial < INSTANCES; trial++) {
        size_t m = 1 + test_below(&r, 12);
        double V = test_logrange(&r, 1, 1e6);
        dls_platform *pl = gen_star(&r, m, 3, V, trial % 2);
        dls_schedule_params par;
        dls_schedule_params_init(&par);
        par.order = trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
        par.drop_unused = 0;
        dls_schedule *chain = NULL;
        dls_error err;
        assert_ok(dls_schedule_solve(pl, V, &par, &chain, &err), &err);
        par.solver = DLS_SOLVER_GLPK;
        par.exact = 1;
        dls_schedule *s = NULL;
        assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
        const char *cert = dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0);
        if (dls_schedule_status(chain) == DLS_SOLUTION_INFEASIBLE) {
            assert_null(cert);
        } else {
            if (cert == NULL)
                fail_msg("trial %d (%zu processors): no certificate: %s", trial, m,
                         dls_schedule_note(s));
            long double q = fraction(cert);
            double mc = dls_schedule_makespan(chain);
            if (!test_close((double)q, mc, FLOAT_AGREE, 0))
                fail_msg("trial %d: certified %.21Lg, the chain's paper LP %.17g", trial, q, mc);
            if ((double)(fabsl(q - mc) / q) > worst) {
                worst = (double)(fabsl(q - mc) / q);
                worst_trial = trial;
            }
            worst_glpk = fmax(worst_glpk, (double)(fabsl(q - dls_schedule_makespan(s)) / q));
            if (!test_close((double)q, dls_schedule_makespan(s), FLOAT_AGREE, 0))
                fail_msg("trial %d: certified %.21Lg, GLPK's %.17g", trial, q,
                         dls_schedule_makespan(s));
            replay_check(pl, s, V, par.order, trial);
            certified_count++;
        }
        dls_schedule_free(s);
        dls_schedule_free(chain);
        dls_platform_free(pl);
    }
    printf("# %d of %d instances certified; off the exact optimum at most: the chain solver "
           "%.3g (trial %d), GLPK %.3g (relative)\n", certified_count, INSTANCES, worst,
           worst_trial, worst_glpk);
    assert_true(certified_count > INSTANCES / 2);
}

/* A star of m positions with one line each (S = 0, C = 1, t = x), V = m, no limits. */
typedef struct fake {
    dls__star st;
    dls__lp_basis b;
} fake;

static void fake_init(fake *f, size_t m)
{
    memset(f, 0, sizeof *f);
    f->st.m = m;
    f->st.V = (double)m;
    f->st.S = calloc(m, sizeof(double));
    f->st.C = calloc(m, sizeof(double));
    f->st.B = calloc(m, sizeof(double));
    f->st.a = calloc(m, sizeof(double));
    f->st.b = calloc(m, sizeof(double));
    f->st.off = calloc(m + 1, sizeof(size_t));
    f->b.alpha = calloc(m, 1);
    f->b.tight = calloc(m, 1);
    assert_true(f->st.S && f->st.C && f->st.B && f->st.a && f->st.b && f->st.off && f->b.alpha &&
                f->b.tight);
    for (size_t k = 0; k < m; k++) {
        f->st.C[k] = 1;
        f->st.B[k] = INFINITY;
        f->st.b[k] = 1;
        f->st.off[k + 1] = k + 1;
        f->b.tight[k] = 1;
    }
}

static void fake_free(fake *f)
{
    free(f->st.S);
    free(f->st.C);
    free(f->st.B);
    free(f->st.a);
    free(f->st.b);
    free(f->st.off);
    free(f->b.alpha);
    free(f->b.tight);
}

static void expect_refusal(fake *f, dls_status want, const char *words)
{
    dls__certificate c;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls__lp_certify(&f->st, &f->b, 60, &c, &err);
    assert_int_equal(st, want);
    if (strstr(err.message, words) == NULL)
        fail_msg("expected \"%s\" in: %s", words, err.message);
    assert_null(c.makespan);
    assert_null(c.load);
}

TEST(test_refusals)
{
    fake f;
    /* the reference: every position basic on its line is the optimum */
    fake_init(&f, 3);
    dls__certificate c;
    dls_error err;
    assert_ok(dls__lp_certify(&f.st, &f.b, 60, &c, &err), &err);
    assert_non_null(c.makespan);
    dls__certificate_free(&c);
    assert_null(c.makespan);
    /* at a limit it does not have */
    f.b.alpha[1] = 1;
    expect_refusal(&f, DLS_ENUMERIC, "at a limit it does not have");
    /* every load at zero: the load row says 0 = 3 */
    memset(f.b.alpha, -1, 3);
    memset(f.b.tight, 0, 3);
    expect_refusal(&f, DLS_ENUMERIC, "contradict");
    /* feasible but not optimal: the first position takes everything, the others nothing
     * (their finish rows slack): the dual point cannot match */
    f.b.alpha[0] = 0;
    f.b.tight[0] = 1;
    expect_refusal(&f, DLS_ENUMERIC, "no rational certificate");
    fake_free(&f);
    /* past the size limit */
    fake_init(&f, 1001);
    expect_refusal(&f, DLS_ELIMIT, "1001 processors, more than the 1000");
    fake_free(&f);
    /* past the time limit (none left) */
    fake_init(&f, 100);
    dls_error_clear(&err);
    assert_int_equal(dls__lp_certify(&f.st, &f.b, -1, &c, &err), DLS_ELIMIT);
    assert_non_null(strstr(err.message, "no rational certificate within"));
    assert_null(c.makespan);
    fake_free(&f);
}

TEST_MAIN("certificate", test_two_by_hand, test_limit_by_hand, test_random_against_chain,
          test_refusals)
#else
/* Built without GMP: --exact still confirms the optimum with glp_exact, and the note says
 * why there is no certificate. */
TEST(test_without_gmp)
{
    dls_platform *pl = by_json("{\"processors\": ["
                               "{\"name\": \"a\", \"time\": [[0, 1]], \"link\": {\"startup\": 0, \"rate\": 1}}]}");
    dls_schedule *s = certified(pl, 1, 1);
    assert_true(dls_schedule_exact_confirmed(s));
    assert_null(dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0));
    assert_non_null(strstr(dls_schedule_note(s), "no rational certificate: " DLS_GMP_WHY));
    dls_schedule_free(s);
    dls_platform_free(pl);
}

TEST_MAIN("certificate", test_without_gmp)
#endif
