/* The makespan as a function of the load (dls_schedule_curve) and the marginal cost dT/dV
 * of dls_schedule_solve, against GLPK: the paper's LP solved at the same loads, and for the
 * selection the best subset of processors (every subset's paper LP by GLPK). */
#include <config.h>

#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"
#include "gen.h"

/* Agreement of the curve with GLPK's makespans (relative). */
#define CURVE_TOL 1e-8
/* dT/dV against GLPK's finite differences of relative step DV_STEP, to DV_TOL plus GLPK's
 * own error (CURVE_TOL of the makespan) divided by the step. */
#define DV_STEP 1e-4
#define DV_TOL 1e-4
/* The second point of a jump of T is checked at a load this much (relative) above it, to
 * JUMP_TOL: T's finite slope there moves it by about that. */
#define JUMP_STEP 1e-10
#define JUMP_TOL 1e-6
/* Points of the curve checked, at most, per platform (besides random loads). */
#define POINTS_CHECKED 24

/* GLPK's paper LP at load V, or INFINITY when the limits cannot hold it. */
static double glpk_paper(const dls_platform *pl, double V)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    par.drop_unused = 0;
    dls_error err;
    dls_schedule *s;
    assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
    double mk = dls_schedule_makespan(s);
    dls_schedule_free(s);
    return mk;
}

/* The best makespan over every nonempty subset of processors (in the platform's order),
 * each by GLPK's paper LP: the selection's optimum, found without the chain. */
static double glpk_best_subset(const dls_platform *pl, double V)
{
    size_t m = dls_platform_count(pl);
    double best = INFINITY;
    dls_error err;
    for (unsigned used = 1; used < (1u << m); used++) {
        dls_platform *sub;
        assert_ok(dls_platform_copy(pl, &sub, &err), &err);
        for (size_t i = m; i-- > 0;)
            if (!(used & (1u << i)))
                assert_ok(dls_platform_remove(sub, i, &err), &err);
        best = fmin(best, glpk_paper(sub, V));
        dls_platform_free(sub);
    }
    return best;
}

static double reference(const dls_platform *pl, double V, int selection)
{
    return selection ? glpk_best_subset(pl, V) : glpk_paper(pl, V);
}

static void check_shape(const dls_curve *c, double lo, double hi)
{
    size_t n = dls_curve_count(c);
    const double *v = dls_curve_loads(c), *t = dls_curve_makespans(c);
    assert_true(n >= 2);
    assert_true(v[0] == lo && v[n - 1] == hi);
    for (size_t i = 1; i < n; i++) {
        assert_true(v[i] >= v[i - 1]);
        assert_true(t[i] >= t[i - 1] * (1 - CURVE_TOL));
    }
    assert_int_equal(dls_curve_exact(c), 1);
}

RANDOM_TEST(test_curve_against_glpk, 501, 40)
{
    int selection = trial % 2;
    size_t m = 1 + test_below(r, selection ? 4 : 6);
    double V = test_logrange(r, 10, 1e6);
    dls_platform *pl = gen_star(r, m, 3, V, trial % 3 == 0);
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.drop_unused = selection;
    double cap = 0;
    for (size_t i = 0; i < m; i++)
        cap += dls_platform_limit(pl, i);
    double lo = V / 20, hi = fmin(2 * V, cap);
    dls_error err;
    dls_curve *c;
    assert_ok(dls_schedule_curve(pl, lo, hi, &par, &c, &err), &err);
    check_shape(c, lo, hi);
    size_t n = dls_curve_count(c);
    const double *v = dls_curve_loads(c), *t = dls_curve_makespans(c);
    /* every bend (the first POINTS_CHECKED), and random loads between */
    for (size_t i = 0; i < n && i < POINTS_CHECKED; i++) {
        /* the second point of a jump (two points of one load) is T's limit from above */
        int above = i > 0 && v[i] == v[i - 1];
        double want = reference(pl, above ? v[i] * (1 + JUMP_STEP) : v[i], selection);
        if (!test_close(t[i], want, above ? JUMP_TOL : CURVE_TOL, 0))
            fail_msg("trial %d (m %zu, %s): point %zu, load %.17g: curve %.17g s, GLPK %.17g s",
                     trial, m, selection ? "selection" : "paper", i, v[i], t[i], want);
    }
    for (int k = 0; k < 4; k++) {
        double load = test_range(r, lo, hi);
        double want = reference(pl, load, selection), got = dls_curve_makespan_at(c, load);
        if (!test_close(got, want, CURVE_TOL, 0))
            fail_msg("trial %d: load %.17g: curve %.17g s, GLPK %.17g s", trial, load, got, want);
    }
    for (size_t i = 1; i < n; i++)
        if (v[i] == v[i - 1])
            assert_true(dls_curve_makespan_at(c, v[i]) == t[i - 1]);
    assert_true(isnan(dls_curve_makespan_at(c, lo / 2)));
    assert_true(isnan(dls_curve_makespan_at(c, hi * 2)));
    /* dT/dV at V against GLPK's differences, where no bend lies within the step */
    int near_bend = 0;
    for (size_t i = 0; i < n; i++)
        near_bend |= fabs(v[i] - V) <= 2 * DV_STEP * V;
    if (!near_bend && V < hi) {
        dls_schedule *s;
        assert_ok(dls_schedule_solve(pl, V, &par, &s, &err), &err);
        dls_schedule_solver_info si;
        assert_ok(dls_schedule_get_solver_info(s, &si, &err), &err);
        double h = DV_STEP * V, mid = dls_schedule_makespan(s);
        double below = (mid - reference(pl, V - h, selection)) / h;
        double above = (reference(pl, V + h, selection) - mid) / h;
        double noise = 2 * CURVE_TOL * mid / h;
        if (!(fabs(si.marginal_left - below) <= DV_TOL * fabs(below) + noise) ||
            !(fabs(si.marginal_right - above) <= DV_TOL * fabs(above) + noise))
            fail_msg("trial %d: dT/dV %.10g / %.10g, GLPK's differences %.10g / %.10g", trial,
                     si.marginal_left, si.marginal_right, below, above);
        dls_schedule_free(s);
    }
    dls_curve_free(c);
    dls_platform_free(pl);
}

TEST(test_curve_errors)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_curve *c = (dls_curve *)&err; /* a sentinel: untouched on failure */
    dls_curve *const sentinel = c;
    assert_fails(dls_schedule_curve(NULL, 1, 2, NULL, &c, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_schedule_curve(pl, 1, 2, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_schedule_curve(pl, 0, 2, NULL, &c, &err), DLS_EINVAL, &err, "load_min");
    assert_fails(dls_schedule_curve(pl, 2, 2, NULL, &c, &err), DLS_EINVAL, &err, "load_min");
    assert_fails(dls_schedule_curve(pl, 1, INFINITY, NULL, &c, &err), DLS_EINVAL, &err,
                 "finite");
    assert_fails(dls_schedule_curve(pl, NAN, 2, NULL, &c, &err), DLS_EINVAL, &err, "load_min");
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    assert_fails(dls_schedule_curve(pl, 1, 2, &par, &c, &err), DLS_EINVAL, &err, "glpk");
    dls_schedule_params_init(&par);
    par.max_pieces = 5;
    assert_fails(dls_schedule_curve(pl, 1, 2, &par, &c, &err), DLS_EINVAL, &err, "max_pieces");
    assert_ptr_equal(c, sentinel);
    /* beyond what the limits hold */
    assert_ok(dls_platform_set_limit(pl, 0, 1, &err), &err);
    assert_ok(dls_platform_set_limit(pl, 1, 1, &err), &err);
    assert_fails(dls_schedule_curve(pl, 1, 3, NULL, &c, &err), DLS_EINVAL, &err, "at most 2");
    assert_ptr_equal(c, sentinel);
    dls_platform_free(pl);
    /* the selection's pieces past a small bound: a clear limit, not a wrong curve */
    test_rng r = test_rng_salted(502);
    pl = gen_star(&r, 60, 3, 1e4, 0);
    dls_schedule_params_init(&par);
    par.max_pieces = 16;
    assert_fails(dls_schedule_curve(pl, 10, 1e4, &par, &c, &err), DLS_ELIMIT, &err, "pieces");
    assert_ptr_equal(c, sentinel);
    /* the paper's model fits whatever the bound */
    par.drop_unused = 0;
    assert_ok(dls_schedule_curve(pl, 10, 1e4, &par, &c, &err), &err);
    check_shape(c, 10, 1e4);
    dls_curve_free(c);
    dls_platform_free(pl);
    dls_curve_free(NULL);
}

TEST(test_curve_svg)
{
    dls_error err;
    dls_platform *pl = test_example("star_two.json");
    dls_curve *c;
    assert_ok(dls_schedule_curve(pl, 0.5, 4, NULL, &c, &err), &err);
    char *svg = NULL;
    assert_ok(dls_curve_svg_to_string(c, 2, &svg, &err), &err);
    assert_non_null(strstr(svg, "<svg"));
    assert_non_null(strstr(svg, "</svg>"));
    assert_non_null(strstr(svg, "V = 2:"));
    /* a dot for every bend between the ends */
    assert_int_equal(test_count(svg, "<circle"), dls_curve_count(c) - 2);
    dls_free(svg);
    assert_ok(dls_curve_svg_to_string(c, NAN, &svg, &err), &err);
    assert_null(strstr(svg, "V = "));
    dls_free(svg);
    svg = NULL;
    assert_fails(dls_curve_svg_to_string(c, 5, &svg, &err), DLS_EINVAL, &err, "outside");
    assert_fails(dls_curve_svg_to_string(NULL, 2, &svg, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_curve_svg_to_string(c, 2, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_null(svg);
    char dir[] = "/tmp/dls_curve_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/curve.svg", dir);
    assert_ok(dls_curve_svg_write_file(c, 2, path, &err), &err);
    char *text = test_read_text(path);
    assert_non_null(strstr(text, "</svg>"));
    free(text);
    /* a directory is refused, naming it */
    assert_fails(dls_curve_svg_write_file(c, 2, dir, &err), DLS_EIO, &err, dir);
    assert_fails(dls_curve_svg_write_file(c, 2, NULL, &err), DLS_EINVAL, &err, "NULL");
    unlink(path);
    rmdir(dir);
    dls_curve_free(c);
    dls_platform_free(pl);
}

TEST_MAIN("curve", test_curve_against_glpk, test_curve_errors, test_curve_svg)
