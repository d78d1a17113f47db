/* The makespan as a function of the load, T(V) (dls__chain_curve_build), and the marginal
 * cost dT/dV (the answer's slope_left and slope_right), against solving at many loads
 * independently: in both modes, on random platforms (the cross-check platforms of
 * test_chain_lp for PAPER, small loads on high-latency links for SELECT), T read off the
 * curve at its own points, between them and at random loads must equal the makespan of a
 * separate solve within CURVE_TOL, and the slopes of the curve's pieces on either side of a
 * load must equal the solver's marginal costs there. The seed is fixed, overridable
 * (--random-seed N or DLS_TEST_SEED). */
#include "chain_check.h"

#define PAPER_PLATFORMS 200
#define SELECT_PLATFORMS 300
/* Loads probed per platform, at random, besides the curve's points and midpoints. */
#define PROBES 20
/* T read off the curve against a separate solve (relative): both exact to rounding, the
 * curve interpolating between its points. */
#define CURVE_TOL 1e-9
/* Slopes (relative): differences of nearby makespans. */
#define SLOPE_TOL 1e-6
/* The range of loads: [V / RANGE, V]. */
#define RANGE 20.0

/* T on the curve at load v: the first point at v (the least makespan where T jumps), else
 * the interpolation between the points around v. */
static double curve_at(const dls__chain_curve *cv, double v)
{
    for (size_t i = 0; i < cv->n; i++) {
        if (cv->load[i] == v)
            return cv->makespan[i];
        if (cv->load[i] > v) {
            assert_true(i > 0);
            double t = (v - cv->load[i - 1]) / (cv->load[i] - cv->load[i - 1]);
            return cv->makespan[i - 1] + t * (cv->makespan[i] - cv->makespan[i - 1]);
        }
    }
    fail_msg("load %.17g beyond the curve (up to %.17g)", v, cv->load[cv->n - 1]);
    return NAN;
}

/* The slope of the curve's piece just left (side < 0) or right (side > 0) of v; NaN where
 * no piece of positive length is there, INFINITY across a jump. */
static double curve_slope(const dls__chain_curve *cv, double v, int side)
{
    for (size_t i = 1; i < cv->n; i++) {
        double a = cv->load[i - 1], b = cv->load[i];
        int inside = side > 0 ? a <= v && v < b : a < v && v <= b;
        if (inside)
            return (cv->makespan[i] - cv->makespan[i - 1]) / (b - a);
        if (side > 0 && a == v && b == v && cv->makespan[i] > cv->makespan[i - 1])
            return INFINITY; /* T jumps right of v */
    }
    return NAN;
}

/* The answer at load v (st's load set to v), checked by chk_solve_tol within CURVE_TOL:
 * some probes find the replay of PAPER's loads 1.1e-12 (relative) off its makespan, on a
 * platform with free links and intercepts of -2.8e4 s. */
static void solve_at(dls__star *st, double v, dls__chain_mode mode, dls__chain_answer *a)
{
    double keep = st->V;
    st->V = v;
    chk_solve_tol(st, mode, NULL, a, CURVE_TOL);
    st->V = keep;
}

static void check_slope(double got, double want, const char *side, double v)
{
    if (isnan(want))
        return; /* no piece on that side within the range */
    if (isinf(want) || isinf(got)) {
        if (!(isinf(want) && isinf(got)))
            fail_msg("dT/dV %s of %.17g: solver %.17g, curve %.17g", side, v, got, want);
        return;
    }
    if (!test_close(got, want, SLOPE_TOL, 0))
        fail_msg("dT/dV %s of %.17g: solver %.17g, curve %.17g", side, v, got, want);
}

/* Probes the curve of st over [v_lo, v_hi] in a mode at load v. */
static void probe(dls__star *st, const dls__chain_curve *cv, dls__chain_mode mode, double v,
                  int slopes, double *worst)
{
    dls__chain_answer a;
    solve_at(st, v, mode, &a);
    assert_false(a.infeasible);
    if (!a.exact) {
        dls__chain_answer_free(&a);
        return; /* beyond SELECT's bounds: the curve needs the exact optimum */
    }
    double T = curve_at(cv, v), rel = fabs(T - a.makespan) / a.makespan;
    *worst = fmax(*worst, rel);
    if (!(rel <= CURVE_TOL))
        fail_msg("mode %d, load %.17g: curve %.17g, solve %.17g", (int)mode, v, T, a.makespan);
    /* the marginal costs: inside a piece both sides are its slope */
    if (slopes) {
        check_slope(a.slope_right, curve_slope(cv, v, 1), "right", v);
        check_slope(a.slope_left, curve_slope(cv, v, -1), "left", v);
    }
    dls__chain_answer_free(&a);
}

static void check_curve(test_rng *r, dls__star *st, dls__chain_mode mode, double *worst,
                        size_t *points)
{
    double v_hi = st->V, v_lo = v_hi / RANGE;
    dls__chain_params par;
    dls__chain_params_init(&par);
    par.mode = mode;
    dls__chain_curve cv;
    dls_error err;
    assert_ok(dls__chain_curve_build(st, &par, v_lo, v_hi, &cv, &err), &err);
    assert_true(cv.n >= 2 && cv.exact);
    assert_true(cv.load[0] == v_lo && cv.load[cv.n - 1] == v_hi);
    for (size_t i = 1; i < cv.n; i++)
        if (!(cv.load[i] >= cv.load[i - 1] && cv.makespan[i] >= cv.makespan[i - 1]))
            fail_msg("point %zu of the curve (%.17g, %.17g) falls below the one before "
                     "(%.17g, %.17g)", i, cv.load[i], cv.makespan[i], cv.load[i - 1],
                     cv.makespan[i - 1]);
    *points += cv.n;
    for (size_t i = 0; i < cv.n; i++) {
        probe(st, &cv, mode, cv.load[i], 0, worst);
        if (i + 1 < cv.n && cv.load[i + 1] > cv.load[i])
            probe(st, &cv, mode, 0.5 * (cv.load[i] + cv.load[i + 1]), 1, worst);
    }
    for (int k = 0; k < PROBES; k++)
        probe(st, &cv, mode, test_range(r, v_lo, v_hi), 1, worst);
    dls__chain_curve_free(&cv);
}

/* Curves of n random platforms in one mode: PAPER on chk_platform (1-30 processors, loads
 * 1e4 to 1e8), SELECT on chk_select_platform (1-10 processors, loads 5 to 60). */
static void random_curves(uint64_t seed, int n, dls__chain_mode mode)
{
    test_rng r = test_rng_salted(seed);
    int paper = mode == DLS__CHAIN_PAPER;
    double worst = 0;
    size_t points = 0;
    for (int trial = 0; trial < n; trial++) {
        size_t m = 1 + test_below(&r, paper ? 30 : 10);
        double V = paper ? test_logrange(&r, 1e4, 1e8) : test_range(&r, 5, 60);
        dls_platform *pl = paper ? chk_platform(&r, m, V) : chk_select_platform(&r, m, V);
        dls__star st;
        chk_star(pl, V, trial % 3 == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN,
                 trial % (paper ? 4 : 5) == 1, &st);
        check_curve(&r, &st, mode, &worst, &points);
        dls__star_free(&st);
        dls_platform_free(pl);
    }
    printf("# %s: %d curves, %zu points, largest relative difference %.3g\n",
           paper ? "PAPER" : "SELECT", n, points, worst);
}

TEST(test_paper_curve)
{
    random_curves(1302, PAPER_PLATFORMS, DLS__CHAIN_PAPER);
}

TEST(test_select_curve)
{
    random_curves(1303, SELECT_PLATFORMS, DLS__CHAIN_SELECT);
}

/* PAPER at scale: a curve of LARGE_M processors, which stage-by-stage value functions
 * (O(m^2) pieces) could not build within the default bound on pieces: it comes from the
 * sweep. Spot-checked at its ends and LARGE_PROBES random loads against a separate solve
 * (with its marginal costs), and at one load against GLPK. */
#define LARGE_M 3000
#define LARGE_PROBES 4

TEST(test_paper_curve_large)
{
    test_rng r = test_rng_salted(1304);
    double V = 1e6 * LARGE_M;
    /* links of rate 1e-5 to 1e-3 s per unit: the link binds, f_1 has a point per position */
    dls_platform *pl = test_platform_new();
    for (size_t i = 0; i < LARGE_M; i++) {
        double a[2] = {0, 0}, b[2];
        b[0] = test_logrange(&r, 1e-4, 1e-2);
        gen_levels(&r, 2, a, b, 1e6 * test_logrange(&r, 0.5, 2), 5, 20, 2, 10);
        gen_add(pl, "n", i, gen_lines(2, a, b));
        gen_link(pl, i, test_logrange(&r, 1e-4, 1e-2), test_logrange(&r, 1e-5, 1e-3));
    }
    dls__star st;
    chk_star(pl, V, DLS_ORDER_GIVEN, 0, &st);
    double v_lo = V / RANGE, worst = 0;
    dls__chain_params par;
    dls__chain_params_init(&par);
    par.mode = DLS__CHAIN_PAPER;
    dls__chain_curve cv;
    dls_error err;
    assert_ok(dls__chain_curve_build(&st, &par, v_lo, V, &cv, &err), &err);
    assert_true(cv.n >= 2 && cv.exact);
    /* more pieces than the default bound of the stage-by-stage path */
    assert_true(cv.pieces_total > DLS__CHAIN_DEFAULT_MIN_WORK);
    for (size_t i = 1; i < cv.n; i++)
        assert_true(cv.load[i] >= cv.load[i - 1] && cv.makespan[i] >= cv.makespan[i - 1]);
    probe(&st, &cv, DLS__CHAIN_PAPER, v_lo, 0, &worst);
    probe(&st, &cv, DLS__CHAIN_PAPER, V, 0, &worst);
    for (int k = 0; k < LARGE_PROBES; k++)
        probe(&st, &cv, DLS__CHAIN_PAPER, test_range(&r, v_lo, V), 1, &worst);
    /* GLPK at a load inside the range */
    double keep = st.V;
    st.V = 0.37 * V;
    double glpk = chk_glpk(&st), rg = NAN;
    st.V = keep;
    if (!isnan(glpk)) {
        double T = curve_at(&cv, 0.37 * V);
        rg = fabs(T - glpk) / glpk;
        if (!(rg <= CURVE_TOL))
            fail_msg("load %.17g: curve %.17g, GLPK %.17g", 0.37 * V, T, glpk);
    }
    printf("# PAPER at %d processors: %zu points, %zu pieces, largest relative difference "
           "%.3g from the solver, %.3g from GLPK\n", LARGE_M, cv.n, cv.pieces_total, worst, rg);
    dls__chain_curve_free(&cv);
    dls__star_free(&st);
    dls_platform_free(pl);
}

TEST_MAIN("chain_curve", test_paper_curve, test_select_curve, test_paper_curve_large)
