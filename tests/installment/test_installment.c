/* Tests of multi-installment processing: the paper's setting (formula (5) gives 10^4, one
 * chunk below it, Fig. 10's comparisons with the out-of-core LP at 10^10 and 10^11 units),
 * the closed form against an independent step-by-step simulation on hundreds of random
 * platforms, hand-computed schedules, the chunk-size analysis and its undefined cases, the
 * sweep, the Gantt chart, and every error path (out of memory included, by failing each
 * allocation in turn). */
#include <errno.h>
#include <locale.h>
#include <unistd.h>

#include "gen.h"

/* ---------------------------------------------------------------------------------- */
/* Allocation failures: glibc lets a program replace malloc; sanitizers replace it too,
 * so under them the out-of-memory test is skipped (as in test_plot.c). */

#include "failing_malloc.h"

/* ---------------------------------------------------------------------------------- */
/* Platforms                                                                           */

static void add_lines(dls_platform *pl, const char *name, size_t n, const double *a,
                      const double *b, double S, double C)
{
    gen_link(pl, test_add(pl, name, gen_lines(n, a, b)), S, C);
}

static void add_constant(dls_platform *pl, const char *name, double speed, double S, double C)
{
    gen_link(pl, test_add(pl, name, gen_constant(speed)), S, C);
}

/* The homogeneous system of the paper's section 4: m = 10, C = 9.99e-5, S = 1e-3, in core
 * 0 + 1e-3 x, out of core -9.9e6 + 0.1 x (swap point 1e8). */
#define PAPER_S 1e-3
#define PAPER_C 9.99e-5
static dls_platform *paper_ten(void)
{
    dls_platform *pl = test_platform_new();
    const double a[] = {0, -9.9e6}, b[] = {1e-3, 0.1};
    for (int i = 0; i < 10; i++) {
        char name[8];
        snprintf(name, sizeof name, "P%d", i + 1);
        add_lines(pl, name, 2, a, b, PAPER_S, PAPER_C);
    }
    return pl;
}

static dls_installment *simulate(const dls_platform *pl, double V, double delta,
                                 const dls_installment_params *par)
{
    dls_error err;
    dls_installment *s = NULL;
    assert_ok(dls_installment_simulate(pl, V, delta, par, &s, &err), &err);
    return s;
}

/* The figures of equal chunks (simulate, sweep), which must be there. */
static dls_installment_rounds_info rounds_of(const dls_installment *s)
{
    dls_error err;
    dls_installment_rounds_info r;
    memset(&r, 0xa5, sizeof r);
    assert_ok(dls_installment_get_rounds_info(s, &r, &err), &err);
    assert_reserved_zero(r);
    return r;
}

static double lp_makespan(const dls_platform *pl, double V)
{
    dls_error err;
    dls_schedule *s;
    assert_ok(dls_schedule_solve(pl, V, NULL, &s, &err), &err);
    double T = dls_schedule_makespan(s);
    dls_schedule_free(s);
    return T;
}

/* ---------------------------------------------------------------------------------- */
/* An independent step-by-step simulation: every chunk in turn, the originator's clock
 * advanced by each send, each processor's clock by each computation. */

typedef struct ref_event {
    size_t proc;
    double size, send_start, send_end, compute_start, compute_end;
} ref_event;

typedef struct ref_result {
    size_t nev;
    ref_event *ev;                 /* every chunk */
    double makespan;
    unsigned long long chunks[8];
    double load[8], first[8], finish[8], busy[8];
} ref_result;

/* The time of x units, from the model's definition (lines, constant, points). */
static double ref_time(const dls_model *m, double x)
{
    size_t n;
    const double *a, *b;
    if (dls_model_get_lines(m, &n, &a, &b) == DLS_OK) {
        double t = -INFINITY;
        for (size_t l = 0; l < n; l++)
            t = fmax(t, a[l] + b[l] * x);
        return t;
    }
    if (dls_model_get_kind(m) == DLS_MODEL_CONSTANT)
        return x / dls_model_constant_speed(m);
    return x / dls_model_speed(m, x);
}

/* nchunks chunks: nchunks - 1 of delta and the rest of V. */
static void ref_simulate(const dls_platform *pl, double V, double delta, size_t nchunks,
                         int use_limits, ref_result *r)
{
    size_t n = dls_platform_count(pl), rot[8], p = 0;
    double full = nchunks == 1 ? V : delta;
    for (size_t i = 0; i < n; i++)
        if (!use_limits || dls_platform_limit(pl, i) >= full)
            rot[p++] = i;
    assert_true(p > 0);
    memset(r, 0, sizeof *r);
    r->nev = nchunks;
    r->ev = calloc(nchunks, sizeof *r->ev);
    double clock = 0, free_at[8];
    for (size_t i = 0; i < n; i++) {
        free_at[i] = 0;
        r->first[i] = r->finish[i] = NAN;
    }
    for (size_t j = 0; j < nchunks; j++) {
        size_t i = rot[j % p];
        double x = j + 1 < nchunks ? delta : V - (double)(nchunks - 1) * delta, S, C;
        dls_platform_link(pl, i, &S, &C);
        ref_event *e = &r->ev[j];
        e->proc = i;
        e->size = x;
        e->send_start = clock;
        clock += S + C * x;
        e->send_end = clock;
        e->compute_start = fmax(clock, free_at[i]);
        double t = ref_time(dls_platform_model(pl, i), x);
        e->compute_end = e->compute_start + t;
        free_at[i] = e->compute_end;
        if (r->chunks[i]++ == 0)
            r->first[i] = e->send_end;
        r->finish[i] = e->compute_end;
        r->load[i] += x;
        r->busy[i] += t;
        r->makespan = fmax(r->makespan, e->compute_end);
    }
}

/* ---------------------------------------------------------------------------------- */
/* The paper's setting                                                                 */

TEST(test_paper_formula)
{
    dls_error err;
    dls_platform *pl = paper_ten();
    dls_installment_analysis an;
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.processors, 10);
    assert_rel(an.sum_startup, 10 * PAPER_S, 1e-15);
    assert_rel(an.sum_rate, 10 * PAPER_C, 1e-15);
    /* formula (5): (m S - A1) / (A2 - m C) = 0.01 / 1e-6 */
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_DEFINED);
    assert_rel(an.formula, 1e4, 1e-9);
    assert_int_equal(an.formula_processor, 0);
    assert_true(isnan(an.formula_bad_value));
    assert_true(an.formula_in_range);
    assert_string_equal(an.formula_note, "");
    /* the range: (m S / (A^h - m C), swp) = (0.01 / 0.099001, 1e8) */
    assert_int_equal(an.lower_reason, DLS_INSTALLMENT_DEFINED);
    assert_rel(an.lower, 0.01 / (0.1 - 10 * PAPER_C), 1e-12);
    assert_rel(an.out_of_core_speed, 100, 1e-14);
    assert_rel(an.upper, 1e8, 1e-12);
    assert_int_equal(an.upper_processor, 0);
    assert_int_equal(an.upper_is_limit, 0);
    assert_false(an.range_empty);
    dls_installment_levels lv;
    assert_ok(dls_installment_memory_levels(pl, 3, &lv, &err), &err);
    assert_true(lv.supported);
    assert_true(lv.in_core_a == 0);
    assert_rel(lv.in_core_b, 1e-3, 1e-15);
    assert_rel(lv.out_of_core_b, 0.1, 1e-15);
    assert_rel(lv.swap_point, 1e8, 1e-12);
    dls_platform_free(pl);
}

/* Below one chunk only the first processor works: V = 5e3 takes S + C V + 1e-3 V. */
TEST(test_paper_one_chunk)
{
    dls_platform *pl = paper_ten();
    dls_installment *s = simulate(pl, 5e3, 1e4, NULL);
    assert_int_equal(dls_installment_chunks(s), 1);
    assert_int_equal(dls_installment_rounds(s), 1);
    assert_int_equal(rounds_of(s).rotation, 10);
    assert_true(dls_installment_last_chunk(s) == 5e3);
    assert_rel(dls_installment_makespan(s), PAPER_S + PAPER_C * 5e3 + 5, 1e-14);
    assert_rel(rounds_of(s).round_time, 10 * (PAPER_S + PAPER_C * 5e3), 1e-14);
    assert_int_equal(dls_installment_roles(s)[0], DLS_INSTALLMENT_WORKS);
    assert_true(dls_installment_loads(s)[0] == 5e3);
    for (size_t i = 1; i < 10; i++) {
        assert_int_equal(dls_installment_roles(s)[i], DLS_INSTALLMENT_NO_CHUNK);
        assert_int_equal(dls_installment_chunk_counts(s)[i], 0);
        assert_true(dls_installment_loads(s)[i] == 0);
        assert_true(isnan(dls_installment_finish(s)[i]));
        assert_true(isnan(dls_installment_first_arrival(s)[i]));
    }
    assert_non_null(strstr(dls_installment_note(s), "only 1 of the 10 processors"));
    /* the LP spreads the same load over the ten processors */
    assert_true(lp_makespan(pl, 5e3) < dls_installment_makespan(s) / 5);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* Fig. 10. With delta = 1e4 a round lasts R = 10 (S + C delta) = 10 s and a chunk 10 s, so
 * the last processor, first served at R, finishes round r at R + 10 + 10 r. With delta = 5,
 * R = 0.014995 s > t(5) = 0.005 s, and the makespan is (V / 50) R + 0.005. */
TEST(test_paper_fig10)
{
    dls_platform *pl = paper_ten();
    const double loads[] = {1e10, 1e11};
    for (int k = 0; k < 2; k++) {
        double V = loads[k], rounds = V / 1e5, lp = lp_makespan(pl, V);
        dls_installment *big = simulate(pl, V, 1e4, NULL), *small = simulate(pl, V, 5, NULL);
        assert_int_equal(dls_installment_chunks(big), (uint64_t)(V / 1e4));
        assert_int_equal(dls_installment_rounds(big), (uint64_t)rounds);
        assert_rel(dls_installment_makespan(big), 10 + 10 + 10 * (rounds - 1), 1e-12);
        assert_int_equal(dls_installment_chunks(small), (uint64_t)(V / 5));
        assert_rel(rounds_of(small).round_time, 10 * (PAPER_S + 5 * PAPER_C), 1e-14);
        assert_rel(dls_installment_makespan(small), V / 50 * 10 * (PAPER_S + 5 * PAPER_C) + 5e-3,
                   1e-12);
        /* all of it in core, at level 1; the LP has to go out of core */
        assert_int_equal(rounds_of(big).levels[9], 1);
        assert_true(dls_installment_makespan(big) < lp / 50);
        /* delta = 5 beats out-of-core too, but not delta = 1e4 on such loads */
        assert_true(dls_installment_makespan(small) < lp / 20);
        assert_true(dls_installment_makespan(big) < dls_installment_makespan(small));
        /* every processor computes 10 s per 10 s round: no waiting */
        assert_rel_floor(dls_installment_wait(big)[4], 0, 1e-12, dls_installment_makespan(big));
        dls_installment_free(big);
        dls_installment_free(small);
    }
    /* below about 1e5, delta = 5 is better than delta = 1e4, and the in-core LP better than
     * both (one send per processor and a perfect balance) */
    dls_installment *big = simulate(pl, 1e4, 1e4, NULL), *small = simulate(pl, 1e4, 5, NULL);
    assert_rel(dls_installment_makespan(small), 200 * 10 * (PAPER_S + 5 * PAPER_C) + 5e-3, 1e-12);
    assert_true(dls_installment_makespan(small) < dls_installment_makespan(big));
    assert_true(lp_makespan(pl, 1e4) < dls_installment_makespan(small));
    dls_installment_free(big);
    dls_installment_free(small);
    big = simulate(pl, 1e6, 1e4, NULL);
    small = simulate(pl, 1e6, 5, NULL);
    assert_true(dls_installment_makespan(big) < dls_installment_makespan(small));
    dls_installment_free(big);
    dls_installment_free(small);
    /* a chunk beyond the swap point is computed out of core */
    big = simulate(pl, 1e10, 2e8, NULL);
    assert_int_equal(rounds_of(big).levels[0], 2);
    assert_rel(rounds_of(big).chunk_time[0], -9.9e6 + 0.1 * 2e8, 1e-14);
    dls_installment_free(big);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* The closed form against the step-by-step simulation                                 */

static void compare_with_reference(const dls_platform *pl, double V, double delta, size_t N,
                                   int use_limits, const char *what)
{
    dls_error err;
    dls_installment_params par;
    dls_installment_params_init(&par);
    par.use_limits = use_limits;
    dls_installment *s = simulate(pl, V, delta, &par);
    ref_result ref;
    ref_simulate(pl, V, delta, N, use_limits, &ref);
    if (dls_installment_chunks(s) != N)
        fail_msg("%s: %llu chunks, expected %zu", what,
                 (unsigned long long)dls_installment_chunks(s), N);
    double T = ref.makespan, tol = 1e-11;
    assert_rel(dls_installment_makespan(s), T, tol);
    for (size_t j = 0; j < N; j++) {
        dls_installment_event ev;
        assert_ok(dls_installment_event_at(s, j, &ev, &err), &err);
        const ref_event *e = &ref.ev[j];
        if (ev.processor != e->proc || ev.chunk != j)
            fail_msg("%s: chunk %zu goes to %zu, expected %zu", what, j, ev.processor, e->proc);
        assert_rel(ev.size, e->size, 1e-12);
        assert_rel_floor(ev.send_start, e->send_start, tol, T);
        assert_rel_floor(ev.send_end, e->send_end, tol, T);
        assert_rel_floor(ev.compute_start, e->compute_start, tol, T);
        assert_rel_floor(ev.compute_end, e->compute_end, tol, T);
        assert_true(ev.send_start <= ev.send_end && ev.send_end <= ev.compute_start &&
                    ev.compute_start <= ev.compute_end);
    }
    double total = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        assert_int_equal(dls_installment_chunk_counts(s)[i], ref.chunks[i]);
        assert_rel_floor(dls_installment_loads(s)[i], ref.load[i], 1e-12, V);
        assert_rel_floor(dls_installment_busy(s)[i], ref.busy[i], tol, T);
        total += dls_installment_loads(s)[i];
        if (ref.chunks[i] == 0) {
            assert_true(isnan(dls_installment_finish(s)[i]));
            assert_true(dls_installment_roles(s)[i] != DLS_INSTALLMENT_WORKS);
            continue;
        }
        assert_int_equal(dls_installment_roles(s)[i], DLS_INSTALLMENT_WORKS);
        assert_rel_floor(dls_installment_first_arrival(s)[i], ref.first[i], tol, T);
        assert_rel_floor(dls_installment_finish(s)[i], ref.finish[i], tol, T);
        assert_rel_floor(dls_installment_wait(s)[i], ref.finish[i] - ref.first[i] - ref.busy[i],
                         tol, T);
    }
    assert_rel(total, V, 1e-12);
    free(ref.ev);
    dls_installment_free(s);
}

RANDOM_TEST(test_closed_form, 1, 400)
{
    size_t m = 1 + test_below(r, 6);
    /* a dyadic chunk, so that V = n delta is exact when the load is whole chunks */
    double delta = (double)(1 + test_below(r, 4000)) / 64;
    int use_limits;
    dls_platform *pl = gen_chunked(r, m, delta, &use_limits);
    size_t n = test_below(r, 8) == 0 ? 0 : 1 + test_below(r, 150);
    double f = test_below(r, 3) == 0 ? 0 : test_range(r, 0.05, 0.95), V;
    size_t N;
    if (n == 0) { /* less than one chunk */
        V = delta * test_range(r, 0.1, 0.95);
        N = 1;
    } else {
        V = delta * ((double)n + f);
        N = f > 0 ? n + 1 : n;
    }
    char what[64];
    snprintf(what, sizeof what, "case %d (m %zu, %zu chunks)", trial, m, N);
    /* a limit may also stop a lone chunk of V < delta: keep one processor able */
    if (N == 1 && use_limits)
        assert_ok(dls_platform_set_limit(pl, m - 1, INFINITY, &(dls_error){0}),
                  &(dls_error){0});
    compare_with_reference(pl, V, delta, N, use_limits, what);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Hand-computed schedules                                                             */

static void expect_event(const dls_installment *s, uint64_t j, size_t proc, double size,
                         double ss, double se, double cs, double ce)
{
    dls_error err;
    dls_installment_event ev;
    assert_ok(dls_installment_event_at(s, j, &ev, &err), &err);
    assert_int_equal(ev.chunk, j);
    assert_int_equal(ev.processor, proc);
    assert_rel(ev.size, size, 1e-15);
    assert_rel_floor(ev.send_start, ss, 1e-14, 1);
    assert_rel(ev.send_end, se, 1e-14);
    assert_rel(ev.compute_start, cs, 1e-14);
    assert_rel(ev.compute_end, ce, 1e-14);
}

TEST(test_hand_examples)
{
    dls_error err;
    /* Sends faster than computing on P1 (t = x, send 1 + 0.5 x) and P2 (t = 1 + 0.5 x, send
     * 0.5 + 0.25 x); V = 10 in chunks of 3: 3, 3, 3, 1; R = 2.5 + 1.25 = 3.75.
     *   chunk 0 to P1: sent 0 to 2.5, computed 2.5 to 5.5
     *   chunk 1 to P2: sent 2.5 to 3.75, computed 3.75 to 6.25
     *   chunk 2 to P1: sent 3.75 to 6.25, computed 6.25 to 9.25 (it waited for data)
     *   chunk 3 to P2: 1 unit, sent 6.25 to 7, computed 7 to 8.5 */
    dls_platform *pl = test_platform_new();
    const double a1[] = {0}, b1[] = {1}, a2[] = {1}, b2[] = {0.5};
    add_lines(pl, "P1", 1, a1, b1, 1, 0.5);
    add_lines(pl, "P2", 1, a2, b2, 0.5, 0.25);
    dls_installment *s = simulate(pl, 10, 3, NULL);
    assert_int_equal(dls_installment_chunks(s), 4);
    assert_int_equal(dls_installment_rounds(s), 2);
    assert_rel(dls_installment_last_chunk(s), 1, 1e-15);
    assert_rel(rounds_of(s).round_time, 3.75, 1e-15);
    expect_event(s, 0, 0, 3, 0, 2.5, 2.5, 5.5);
    expect_event(s, 1, 1, 3, 2.5, 3.75, 3.75, 6.25);
    expect_event(s, 2, 0, 3, 3.75, 6.25, 6.25, 9.25);
    expect_event(s, 3, 1, 1, 6.25, 7, 7, 8.5);
    assert_rel(dls_installment_makespan(s), 9.25, 1e-15);
    assert_int_equal(dls_installment_chunk_counts(s)[0], 2);
    assert_rel(dls_installment_loads(s)[0], 6, 1e-15);
    assert_rel(dls_installment_loads(s)[1], 4, 1e-15);
    assert_rel(dls_installment_busy(s)[0], 6, 1e-15);
    assert_rel(dls_installment_busy(s)[1], 4, 1e-15);
    assert_rel(dls_installment_first_arrival(s)[1], 3.75, 1e-15);
    assert_rel(dls_installment_finish(s)[1], 8.5, 1e-15);
    assert_rel(dls_installment_wait(s)[0], 0.75, 1e-14);
    assert_rel(dls_installment_wait(s)[1], 0.75, 1e-14);
    assert_rel(rounds_of(s).chunk_time[1], 2.5, 1e-15);
    assert_int_equal(rounds_of(s).levels[0], 1);
    assert_string_equal(dls_installment_note(s), "");
    assert_ok(dls_installment_event_at(s, 3, &(dls_installment_event){0}, &err), &err);
    dls_installment_free(s);
    dls_platform_free(pl);

    /* Computing slower than sending on P1 (t = 2 x, send 0.1 x), P2 at constant speed 1
     * (send 0.2 + 0.1 x); V = 4 in chunks of 1; R = 0.4. P1's second chunk arrives at 0.5
     * but waits until 2.1, so P1 finishes at 0.1 + 2 + 2 = 4.1 without a gap. */
    pl = test_platform_new();
    const double a3[] = {0}, b3[] = {2};
    add_lines(pl, "P1", 1, a3, b3, 0, 0.1);
    add_constant(pl, "P2", 1, 0.2, 0.1);
    s = simulate(pl, 4, 1, NULL);
    expect_event(s, 0, 0, 1, 0, 0.1, 0.1, 2.1);
    expect_event(s, 1, 1, 1, 0.1, 0.4, 0.4, 1.4);
    expect_event(s, 2, 0, 1, 0.4, 0.5, 2.1, 4.1);
    expect_event(s, 3, 1, 1, 0.5, 0.8, 1.4, 2.4);
    assert_rel(dls_installment_makespan(s), 4.1, 1e-15);
    assert_rel_floor(dls_installment_wait(s)[0], 0, 1e-15, 1);
    assert_rel_floor(dls_installment_wait(s)[1], 0, 1e-15, 1);
    assert_int_equal(rounds_of(s).levels[1], 0); /* a speed model */
    dls_installment_free(s);
    dls_platform_free(pl);

    /* The paper's two-processor example (S = C = 1, lines 1 + x and -9 + 10 x), V = 2: one
     * chunk each takes 6 (the LP 5.75); four chunks of 0.5 take 1.5 each to send and 1.5 to
     * compute, 7.5 in all. */
    pl = test_example("star_two.json");
    s = simulate(pl, 2, 1, NULL);
    assert_rel(dls_installment_makespan(s), 6, 1e-15);
    assert_true(lp_makespan(pl, 2) < dls_installment_makespan(s));
    dls_installment_free(s);
    s = simulate(pl, 2, 0.5, NULL);
    expect_event(s, 2, 0, 0.5, 3, 4.5, 4.5, 6);
    assert_rel(dls_installment_makespan(s), 7.5, 1e-15);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* A remainder of 10^-13 chunk joins the last chunk; with snap_tol = 0 it is a chunk. */
TEST(test_snap)
{
    dls_platform *pl = paper_ten();
    double delta = 0.3, V = 10 * delta * (1 + 1e-13);
    dls_installment *s = simulate(pl, V, delta, NULL);
    assert_int_equal(dls_installment_chunks(s), 10);
    assert_rel(dls_installment_last_chunk(s), delta, 1e-11);
    assert_true(dls_installment_last_chunk(s) > delta);
    dls_installment_free(s);
    dls_installment_params par;
    dls_installment_params_init(&par);
    par.snap_tol = 0;
    s = simulate(pl, V, delta, &par);
    assert_int_equal(dls_installment_chunks(s), 11);
    assert_true(dls_installment_last_chunk(s) < 1e-12);
    dls_installment_free(s);
    /* V = n delta computed in floating point is n chunks, whichever way it rounds */
    for (int n = 1; n <= 1000; n++) {
        s = simulate(pl, n * 0.1, 0.1, NULL);
        assert_int_equal(dls_installment_chunks(s), (uint64_t)n);
        dls_installment_free(s);
    }
    /* a limit that cannot take the joined sliver keeps it apart */
    dls_error err;
    assert_ok(dls_platform_set_limit(pl, 9, delta, &err), &err);
    s = simulate(pl, V, delta, NULL);
    assert_int_equal(dls_installment_chunks(s), 11);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* Processors whose limit is below the chunk are left out, with a note. */
TEST(test_limits)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    const double a[] = {0}, b[] = {1};
    add_lines(pl, "big", 1, a, b, 0.5, 0.1);
    add_lines(pl, "tiny", 1, a, b, 0.5, 0.1);
    add_lines(pl, "last", 1, a, b, 0.5, 0.1);
    assert_ok(dls_platform_set_limit(pl, 1, 0.5, &err), &err);
    dls_installment *s = simulate(pl, 4, 1, NULL);
    assert_int_equal(rounds_of(s).rotation, 2);
    assert_int_equal(dls_installment_roles(s)[1], DLS_INSTALLMENT_OVER_LIMIT);
    assert_int_equal(dls_installment_chunk_counts(s)[0], 2);
    assert_int_equal(dls_installment_chunk_counts(s)[2], 2);
    assert_true(isnan(rounds_of(s).chunk_time[1]));
    assert_non_null(strstr(dls_installment_note(s), "processor \"tiny\": its limit 0.5 is below "
                                                    "the chunk size 1"));
    dls_installment_event ev;
    assert_ok(dls_installment_event_at(s, 1, &ev, &err), &err);
    assert_int_equal(ev.processor, 2);
    dls_installment_free(s);
    /* without limits every processor takes chunks */
    dls_installment_params par;
    dls_installment_params_init(&par);
    par.use_limits = 0;
    s = simulate(pl, 4, 1, &par);
    assert_int_equal(rounds_of(s).rotation, 3);
    assert_string_equal(dls_installment_note(s), "");
    dls_installment_free(s);
    /* no processor holds a chunk */
    for (size_t i = 0; i < 3; i++)
        assert_ok(dls_platform_set_limit(pl, i, 0.25 + 0.125 * (double)i, &err), &err);
    s = NULL;
    assert_fails(dls_installment_simulate(pl, 4, 1, NULL, &s, &err), DLS_ERANGE, &err,
                 "no processor can hold a chunk of 1 units: the largest limit is 0.5 (processor "
                 "\"last\")");
    assert_int_equal(err.processor, 2);
    assert_null(s);
    /* but a load that two limits hold is one chunk, for the first of them */
    s = simulate(pl, 0.3, 1, NULL);
    assert_int_equal(dls_installment_chunks(s), 1);
    assert_int_equal(rounds_of(s).rotation, 2);
    assert_int_equal(dls_installment_roles(s)[0], DLS_INSTALLMENT_OVER_LIMIT);
    assert_int_equal(dls_installment_roles(s)[1], DLS_INSTALLMENT_WORKS);
    assert_int_equal(dls_installment_roles(s)[2], DLS_INSTALLMENT_NO_CHUNK);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* The analysis                                                                        */

TEST(test_analysis_general)
{
    dls_error err;
    /* P1: lines 2e-3 x and -1e3 + 1e-2 x (swap point 1e3 / 8e-3 = 125000), S 1e-3, C 1e-4;
     * P2: constant speed 2000 (line 5e-4 x), S 2e-3, C 2e-4. Sum S = 3e-3, sum C = 3e-4.
     * Terms: P1 3e-3 / 1.7e-3, P2 3e-3 / 2e-4 = 15 (the largest). Lower end: out-of-core
     * speed 100 + 2000, 2 / 2100 - 3e-4 per unit. */
    dls_platform *pl = test_platform_new();
    const double a[] = {0, -1e3}, b[] = {2e-3, 1e-2};
    add_lines(pl, "P1", 2, a, b, 1e-3, 1e-4);
    add_constant(pl, "P2", 2000, 2e-3, 2e-4);
    dls_installment_analysis an;
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_DEFINED);
    assert_rel(an.formula, 15, 1e-12);
    assert_int_equal(an.formula_processor, 1);
    assert_rel(an.out_of_core_speed, 2100, 1e-14);
    assert_rel(an.lower, 3e-3 / (2.0 / 2100 - 3e-4), 1e-12);
    assert_rel(an.upper, 125000, 1e-12);
    assert_int_equal(an.upper_processor, 0);
    assert_true(an.formula_in_range);
    dls_installment_levels lv;
    assert_ok(dls_installment_memory_levels(pl, 1, &lv, &err), &err);
    assert_rel(lv.in_core_b, 5e-4, 1e-15);
    assert_true(lv.out_of_core_b == lv.in_core_b && isinf(lv.swap_point));
    /* a limit below the swap point sets the upper end, unless limits are off */
    assert_ok(dls_platform_set_limit(pl, 1, 5e4, &err), &err);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_rel(an.upper, 5e4, 1e-15);
    assert_int_equal(an.upper_processor, 1);
    assert_int_equal(an.upper_is_limit, 1);
    dls_installment_params par;
    dls_installment_params_init(&par);
    par.use_limits = 0;
    assert_ok(dls_installment_analyze(pl, &par, &an, &err), &err);
    assert_rel(an.upper, 125000, 1e-12);
    /* the formula above the upper end */
    assert_ok(dls_platform_set_limit(pl, 1, 10, &err), &err);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_DEFINED);
    assert_false(an.formula_in_range);
    assert_non_null(strstr(an.formula_note, "above the largest worth considering, 10 (the limit "
                                            "of processor \"P2\")"));
    /* ... and an empty range */
    assert_ok(dls_platform_set_limit(pl, 1, 1, &err), &err);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_true(an.range_empty);
    dls_platform_free(pl);
}

TEST(test_analysis_undefined)
{
    dls_error err;
    dls_installment_analysis an;
    /* a numerator: P3 needs 0.05 s to start any chunk, longer than the round's 0.01 s */
    dls_platform *pl = paper_ten();
    const double a[] = {0.05, -9.9e6}, b[] = {1e-3, 0.1};
    dls_model *m;
    assert_ok(dls_model_create_time_lines(2, a, b, &m, &err), &err);
    assert_ok(dls_platform_set_model(pl, 2, m, &err), &err);
    dls_model_free(m);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_NUMERATOR);
    assert_int_equal(an.formula_processor, 2);
    assert_rel(an.formula_bad_value, 0.01 - 0.05, 1e-12);
    assert_true(isnan(an.formula));
    assert_false(an.formula_in_range);
    assert_non_null(strstr(an.formula_note, "processor \"P3\": starting a chunk takes it"));
    assert_int_equal(an.lower_reason, DLS_INSTALLMENT_DEFINED);
    dls_platform_free(pl);

    /* a denominator: with C = 2e-4 a round sends a unit to all ten in 2e-3 s, longer than
     * the 1e-3 s a processor computes it in core */
    pl = paper_ten();
    for (size_t i = 0; i < 10; i++)
        assert_ok(dls_platform_set_link(pl, i, PAPER_S, 2e-4, &err), &err);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_DENOMINATOR);
    assert_int_equal(an.formula_processor, 0);
    assert_rel(an.formula_bad_value, 1e-3 - 2e-3, 1e-12);
    assert_non_null(strstr(an.formula_note, "processor \"P1\": it computes a unit in"));
    assert_int_equal(an.lower_reason, DLS_INSTALLMENT_DEFINED);
    /* the lower end: sending alone slower than out-of-core computing */
    for (size_t i = 0; i < 10; i++)
        assert_ok(dls_platform_set_link(pl, i, PAPER_S, 0.02, &err), &err);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.lower_reason, DLS_INSTALLMENT_DENOMINATOR);
    assert_true(isnan(an.lower));
    assert_false(an.range_empty);
    assert_non_null(strstr(an.lower_note, "the sends are slower than the computing whatever the "
                                          "chunk size"));
    assert_rel(an.upper, 1e8, 1e-12);
    dls_platform_free(pl);

    /* a measured speed function has no memory levels to read */
    pl = paper_ten();
    const double size[] = {1e3, 1e6}, speed[] = {1e3, 5e2};
    assert_ok(dls_model_create_points(2, size, speed, NULL, NULL, &m, &err), &err);
    assert_ok(dls_platform_set_model(pl, 4, m, &err), &err);
    dls_model_free(m);
    assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
    assert_int_equal(an.formula_reason, DLS_INSTALLMENT_NO_LINES);
    assert_int_equal(an.lower_reason, DLS_INSTALLMENT_NO_LINES);
    assert_int_equal(an.formula_processor, 4);
    assert_true(isnan(an.upper) && isnan(an.lower) && isnan(an.formula));
    assert_non_null(strstr(an.formula_note, "processor \"P5\" has a points model"));
    dls_installment_levels lv;
    assert_ok(dls_installment_memory_levels(pl, 4, &lv, &err), &err);
    assert_false(lv.supported);
    assert_true(isnan(lv.swap_point));
    /* it is simulated and swept all the same */
    dls_installment *s = simulate(pl, 1e6, 1e4, NULL);
    double s_at = dls_model_speed(dls_platform_model(pl, 4), 1e4);
    assert_rel(rounds_of(s).chunk_time[4], 1e4 / s_at, 1e-15);
    dls_installment_free(s);
    assert_ok(dls_installment_sweep(pl, 1e6, NULL, &s, &err), &err);
    dls_installment_free(s);
    dls_platform_free(pl);

    assert_string_equal(dls_installment_reason_name(DLS_INSTALLMENT_DEFINED), "defined");
    assert_string_equal(dls_installment_reason_name(DLS_INSTALLMENT_NUMERATOR), "numerator");
    assert_string_equal(dls_installment_reason_name(DLS_INSTALLMENT_DENOMINATOR), "denominator");
    assert_string_equal(dls_installment_reason_name(DLS_INSTALLMENT_NO_LINES), "no lines");
    assert_string_equal(dls_installment_reason_name((dls_installment_reason)42), "unknown");
}

/* ---------------------------------------------------------------------------------- */
/* The sweep                                                                           */

TEST(test_sweep_paper)
{
    dls_error err;
    dls_platform *pl = paper_ten();
    const double loads[] = {1e3, 1e4, 1e6, 1e8, 1e10, 1e11};
    for (int k = 0; k < 6; k++) {
        double V = loads[k];
        dls_installment *s;
        assert_ok(dls_installment_sweep(pl, V, NULL, &s, &err), &err);
        double T = dls_installment_makespan(s);
        /* never worse than the formula's chunk, nor than the paper's delta = 5 */
        dls_installment *f = simulate(pl, V, 1e4, NULL), *five = simulate(pl, V, 5, NULL);
        dls_installment_analysis an;
        assert_ok(dls_installment_analyze(pl, NULL, &an, &err), &err);
        dls_installment *g = simulate(pl, V, an.formula, NULL);
        assert_true(T <= dls_installment_makespan(g));
        assert_true(T <= dls_installment_makespan(five));
        assert_true(T <= dls_installment_makespan(f) * (1 + 1e-12));
        /* the samples are sorted, the best of them is the answer */
        dls_installment_sweep_info sw;
        memset(&sw, 0xa5, sizeof sw);
        assert_ok(dls_installment_get_sweep_info(s, &sw, &err), &err);
        assert_reserved_zero(sw);
        size_t n = sw.samples;
        const double *x = sw.chunk, *y = sw.makespan;
        assert_true(n > 200);
        double best = INFINITY;
        for (size_t q = 0; q < n; q++) {
            if (q > 0)
                assert_true(x[q] > x[q - 1]);
            best = fmin(best, y[q]);
        }
        assert_true(best == T);
        /* deterministic */
        dls_installment *again;
        assert_ok(dls_installment_sweep(pl, V, NULL, &again, &err), &err);
        assert_true(rounds_of(again).chunk == rounds_of(s).chunk);
        assert_true(dls_installment_makespan(again) == T);
        dls_installment_free(again);
        dls_installment_free(f);
        dls_installment_free(g);
        dls_installment_free(five);
        dls_installment_free(s);
    }
    dls_installment *s;
    assert_ok(dls_installment_simulate(pl, 1, 1, NULL, &s, &err), &err);
    /* a simulation tried one size: no samples, said so */
    dls_installment_sweep_info sw = {.samples = 7};
    assert_fails(dls_installment_get_sweep_info(s, &sw, &err), DLS_EINVAL, &err,
                 "dls_installment_get_sweep_info: the schedule is from "
                 "dls_installment_simulate");
    assert_int_equal(sw.samples, 7);
    assert_fails(dls_installment_get_sweep_info(NULL, &sw, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_get_rounds_info(s, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_installment_free(s);
    dls_platform_free(pl);
}

RANDOM_TEST(test_sweep_random, 2, 60)
{
    dls_error err;
    dls_installment_params par;
    dls_installment_params_init(&par);
    par.use_limits = 0;
    size_t m = 1 + test_below(r, 6);
    int use_limits;
    dls_platform *pl = gen_chunked(r, m, 1, &use_limits);
    double V = test_logrange(r, 1, 1e6);
    dls_installment *s;
    assert_ok(dls_installment_sweep(pl, V, &par, &s, &err), &err);
    double T = dls_installment_makespan(s);
    /* one round (delta = V / m) and the whole load at once are candidates */
    dls_installment *one = simulate(pl, V, V / (double)m, &par);
    dls_installment *all = simulate(pl, V, V, &par);
    assert_true(T <= dls_installment_makespan(one));
    assert_true(T <= dls_installment_makespan(all));
    dls_installment_analysis an;
    assert_ok(dls_installment_analyze(pl, &par, &an, &err), &err);
    if (an.formula_reason == DLS_INSTALLMENT_DEFINED && an.formula <= V) {
        dls_installment *f = simulate(pl, V, an.formula, &par);
        assert_true(T <= dls_installment_makespan(f));
        dls_installment_free(f);
    }
    dls_installment_free(one);
    dls_installment_free(all);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Gantt charts                                                                        */

static char *svg_of(const dls_installment *s, const dls_platform *pl,
                    const dls_installment_gantt_params *par)
{
    dls_error err;
    char *svg = NULL;
    assert_ok(dls_installment_gantt_to_string(s, pl, par, &svg, &err), &err);
    assert_non_null(svg);
    assert_true(strncmp(svg, "<?xml", 5) == 0);
    assert_non_null(strstr(svg, "</svg>\n"));
    assert_int_equal(test_count(svg, "<text"), test_count(svg, "</text>"));
    assert_int_equal(test_count(svg, "<title>"), test_count(svg, "</title>"));
    return svg;
}

/* svg_of, where `mark` stands `count` times (chunks drawn, hatched backlogs). */
static char *svg_marked(const dls_installment *s, const dls_platform *pl,
                        const dls_installment_gantt_params *par, const char *mark, size_t count)
{
    char *svg = svg_of(s, pl, par);
    assert_int_equal(test_count(svg, mark), count);
    return svg;
}

TEST(test_svg)
{
    dls_error err;
    dls_platform *pl = paper_ten();
    /* a short schedule: every chunk drawn, once on the sends lane */
    dls_installment *s = simulate(pl, 3e5, 1e4, NULL);
    char *svg = svg_marked(s, pl, NULL, "<title>chunk ", 30);
    assert_non_null(strstr(svg, "originator (sends)"));
    assert_non_null(strstr(svg, ">P10</text>"));
    assert_null(strstr(svg, "left out,"));
    assert_non_null(strstr(svg, "makespan 40 s"));
    dls_free(svg);
    dls_installment_free(s);
    /* 2e10 chunks: the first and the last 3 rounds (the sends of round L - 3 fall before the
     * right panel) */
    s = simulate(pl, 1e11, 5, NULL);
    svg = svg_marked(s, pl, NULL, "<title>chunk ", 60);
    assert_non_null(strstr(svg, "1999999994 rounds left out"));
    assert_null(strstr(svg, "dls-earlier-chunks)\"><title>")); /* sends outpace computing */
    dls_free(svg);
    dls_installment_gantt_params par;
    dls_installment_gantt_params_init(&par);
    assert_int_equal(par.rounds, 3);
    assert_null(par.title);
    par.rounds = 1;
    par.title = "a <title> & more";
    svg = svg_marked(s, pl, &par, "<title>chunk ", 20);
    assert_non_null(strstr(svg, "a &lt;title&gt; &amp; more"));
    dls_free(svg);
    dls_installment_free(s);
    /* computing slower than a round: the backlog of left-out rounds is hatched */
    s = simulate(pl, 1e10, 2e4, NULL);
    svg = svg_marked(s, pl, NULL, "dls-earlier-chunks)\"><title>", 10);
    assert_non_null(strstr(svg, "chunks of left-out rounds"));
    dls_free(svg);
    /* written atomically: the file holds the document */
    char path[] = "/tmp/dlsched-inst-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_ok(dls_installment_gantt_write_file(s, pl, NULL, path, &err), &err);
    svg = svg_of(s, pl, NULL);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t len = strlen(svg);
    char *back = malloc(len + 2);
    assert_int_equal(fread(back, 1, len + 1, f), len);
    fclose(f);
    back[len] = '\0';
    assert_string_equal(back, svg);
    free(back);
    dls_free(svg);
    unlink(path);
    assert_fails(dls_installment_gantt_write_file(s, pl, NULL, "/nonexistent/dir/g.svg", &err), DLS_EIO,
                 &err, "/nonexistent/dir/g.svg");
    dls_installment_free(s);
    dls_platform_free(pl);

    /* names are escaped; processors without chunks say why */
    pl = test_platform_new();
    const double a[] = {0}, b[] = {1};
    add_lines(pl, "x<&\"y", 1, a, b, 0.1, 0.1);
    add_lines(pl, "small", 1, a, b, 0.1, 0.1);
    add_lines(pl, "idle", 1, a, b, 0.1, 0.1);
    assert_ok(dls_platform_set_limit(pl, 1, 0.1, &err), &err);
    s = simulate(pl, 1, 1, NULL);
    svg = svg_of(s, pl, NULL);
    assert_non_null(strstr(svg, "x&lt;&amp;&quot;y"));
    assert_null(strstr(svg, "x<&"));
    assert_non_null(strstr(svg, "left out: its limit is below the chunk size"));
    assert_non_null(strstr(svg, "no chunk: the load ends before its turn"));
    dls_free(svg);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* What the chart of the locale test draws. */
typedef struct svg_case {
    const dls_installment *s;
    const dls_platform *pl;
} svg_case;

static char *render_svg(void *ctx)
{
    const svg_case *c = ctx;
    return svg_of(c->s, c->pl, NULL);
}

/* A program that chose a locale with a decimal comma still gets '.' in the numbers. */
TEST(test_svg_locale)
{
    dls_platform *pl = paper_ten();
    dls_installment *s = simulate(pl, 1e6, 1e4, NULL);
    svg_case c = {s, pl};
    int found = test_same_under_decimal_comma(render_svg, &c);
    dls_installment_free(s);
    dls_platform_free(pl);
    if (!found)
        skip(); /* no locale with a decimal comma is installed */
}

/* ---------------------------------------------------------------------------------- */
/* Errors                                                                              */

/* The arguments and parameters of simulate and sweep: refused, output untouched. */
TEST(test_errors_of_arguments)
{
    dls_error err;
    dls_platform *pl = paper_ten();
    dls_installment *sentinel = (dls_installment *)&err, *s = sentinel;
    dls_installment_params par;
    /* simulate */
    assert_fails(dls_installment_simulate(NULL, 1, 1, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_simulate(pl, 1, 1, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    const double bad[] = {0, -1, NAN, INFINITY, -INFINITY};
    for (int k = 0; k < 5; k++) {
        assert_fails(dls_installment_simulate(pl, bad[k], 1, NULL, &s, &err), DLS_EINVAL, &err,
                     "the load must be a finite number > 0");
        assert_fails(dls_installment_simulate(pl, 1, bad[k], NULL, &s, &err), DLS_EINVAL, &err,
                     "the chunk size must be a finite number > 0");
        assert_fails(dls_installment_sweep(pl, bad[k], NULL, &s, &err), DLS_EINVAL, &err,
                     "dls_installment_sweep: the load must be");
    }
    assert_fails(dls_installment_simulate(pl, 1e20, 1, NULL, &s, &err), DLS_ERANGE, &err,
                 "more than 2^53");
    assert_ptr_equal(s, sentinel);
    /* parameters, each one */
    dls_installment_params_init(&par);
    par.use_limits = 2;
    assert_fails(dls_installment_simulate(pl, 1, 1, &par, &s, &err), DLS_EINVAL, &err,
                 "use_limits must be 0 or 1, not 2");
    dls_installment_params_init(&par);
    par.snap_tol = -1e-9;
    assert_fails(dls_installment_simulate(pl, 1, 1, &par, &s, &err), DLS_EINVAL, &err, "snap_tol");
    par.snap_tol = NAN;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err, "snap_tol");
    dls_installment_params_init(&par);
    par.max_chunks = 0.5;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err, "max_chunks");
    par.max_chunks = 1e17;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err, "max_chunks");
    dls_installment_params_init(&par);
    par.grid_per_decade = 1;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err,
                 "grid_per_decade must be in [2, 1000], not 1");
    dls_installment_params_init(&par);
    par.refine_points = 100001;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err, "refine_points");
    dls_installment_params_init(&par);
    par.refine_passes = 101;
    assert_fails(dls_installment_sweep(pl, 1, &par, &s, &err), DLS_EINVAL, &err, "refine_passes");
    assert_fails(dls_installment_analyze(pl, &par, &(dls_installment_analysis){0}, &err),
                 DLS_EINVAL, &err, "dls_installment_analyze: refine_passes");
    assert_ptr_equal(s, sentinel);
    dls_installment_params_init(NULL);
    /* sweep */
    assert_fails(dls_installment_sweep(NULL, 1, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_sweep(pl, 1, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    /* limits so small that any chunk they admit makes more than 2^53 of them */
    dls_platform *narrow = paper_ten();
    for (size_t i = 0; i < 10; i++)
        assert_ok(dls_platform_set_limit(narrow, i, 1e-6, &err), &err);
    assert_fails(dls_installment_sweep(narrow, 1e12, NULL, &s, &err), DLS_ERANGE, &err,
                 "the largest limit, 1e-06, cuts a load of 1e+12 into more than 2^53");
    dls_platform_free(narrow);
    assert_ptr_equal(s, sentinel);
    dls_platform_free(pl);
}

/* The analysis and levels, an empty platform, a 2-D model, events and pictures: refused,
 * outputs untouched. */
TEST(test_errors_of_platforms_and_results)
{
    dls_error err;
    dls_platform *pl = paper_ten();
    dls_installment *sentinel = (dls_installment *)&err, *s = sentinel;
    /* analysis and levels; a rejected call leaves the output as it was */
    dls_installment_analysis an, before;
    memset(&an, 0x5a, sizeof an);
    before = an;
    assert_fails(dls_installment_analyze(NULL, NULL, &an, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_analyze(pl, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_installment_levels lv, lv0;
    memset(&lv, 0x5a, sizeof lv);
    lv0 = lv;
    assert_fails(dls_installment_memory_levels(pl, 10, &lv, &err), DLS_EINVAL, &err,
                 "no processor 10 (the platform has 10)");
    assert_fails(dls_installment_memory_levels(NULL, 0, &lv, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_memory_levels(pl, 0, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_memory_equal(&lv, &lv0, sizeof lv);
    /* an empty platform */
    dls_platform *empty = test_platform_new();
    assert_fails(dls_installment_simulate(empty, 1, 1, NULL, &s, &err), DLS_EINVAL, &err,
                 "the platform has no processor");
    assert_fails(dls_installment_sweep(empty, 1, NULL, &s, &err), DLS_EINVAL, &err,
                 "the platform has no processor");
    assert_fails(dls_installment_analyze(empty, NULL, &an, &err), DLS_EINVAL, &err,
                 "the platform has no processor");
    assert_memory_equal(&an, &before, sizeof an);
    dls_platform_free(empty);
    /* a 2-D model, named */
    dls_platform *two = test_example("cluster.json");
    long gpu = test_platform_index(two, "gpu0");
    assert_true(gpu >= 0);
    assert_fails(dls_installment_simulate(two, 10, 1, NULL, &s, &err), DLS_EINVAL, &err,
                 "processor \"gpu0\" has a 2-D speed model");
    assert_int_equal(err.processor, gpu);
    assert_fails(dls_installment_sweep(two, 10, NULL, &s, &err), DLS_EINVAL, &err,
                 "processor \"gpu0\" has a 2-D speed model");
    assert_fails(dls_installment_analyze(two, NULL, &an, &err), DLS_EINVAL, &err,
                 "processor \"gpu0\" has a 2-D speed model");
    assert_fails(dls_installment_memory_levels(two, (size_t)gpu, &lv, &err), DLS_EINVAL, &err,
                 "processor \"gpu0\" has a 2-D speed model");
    assert_memory_equal(&an, &before, sizeof an);
    assert_memory_equal(&lv, &lv0, sizeof lv);
    dls_platform_free(two);
    assert_ptr_equal(s, sentinel);
    /* events and pictures */
    s = simulate(pl, 10, 1, NULL);
    dls_installment_event ev, ev0;
    memset(&ev, 0x5a, sizeof ev);
    ev0 = ev;
    assert_fails(dls_installment_event_at(s, 10, &ev, &err), DLS_EINVAL, &err,
                 "chunk 10 does not exist (the schedule has 10 chunks)");
    assert_fails(dls_installment_event_at(NULL, 0, &ev, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_event_at(s, 0, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_memory_equal(&ev, &ev0, sizeof ev);
    char *svg = (char *)&err;
    assert_fails(dls_installment_gantt_to_string(NULL, pl, NULL, &svg, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_gantt_to_string(s, NULL, NULL, &svg, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_gantt_to_string(s, pl, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_installment_gantt_params sp;
    dls_installment_gantt_params_init(&sp);
    sp.rounds = 0;
    assert_fails(dls_installment_gantt_to_string(s, pl, &sp, &svg, &err), DLS_EINVAL, &err,
                 "rounds must be in [1, 1000], not 0");
    sp.rounds = 1001;
    assert_fails(dls_installment_gantt_to_string(s, pl, &sp, &svg, &err), DLS_EINVAL, &err, "rounds");
    dls_installment_gantt_params_init(NULL);
    dls_platform *other = test_platform_new();
    const double a[] = {0}, b[] = {1};
    add_lines(other, "one", 1, a, b, 0, 0);
    assert_fails(dls_installment_gantt_to_string(s, other, NULL, &svg, &err), DLS_EINVAL, &err,
                 "the schedule has 10 processors, the platform 1");
    assert_fails(dls_installment_gantt_write_file(s, pl, NULL, NULL, &err), DLS_EINVAL, &err, "NULL path");
    assert_ptr_equal(svg, (char *)&err);
    dls_platform_free(other);
    dls_installment_free(s);
    dls_installment_free(NULL);
    dls_platform_free(pl);
}

/* Every allocation of each call failed in turn: a clean DLS_ENOMEM, outputs untouched, no
 * leak. */
#if TEST_WRAP_MALLOC
typedef struct oom_ctx {
    const dls_platform *pl;
    const dls_installment *s;
    char sentinel;
    void *out;
} oom_ctx;

/* Each call sets c->out only on success (analyze fills a structure of its own). */
static dls_status oom_call(oom_ctx *c, int which, dls_error *err)
{
    dls_installment_analysis an;
    switch (which) {
    case 0:
        return dls_installment_simulate(c->pl, 1e6, 1e4, NULL, (dls_installment **)&c->out, err);
    case 1:
        return dls_installment_sweep(c->pl, 1e6, NULL, (dls_installment **)&c->out, err);
    case 2:
        return dls_installment_analyze(c->pl, NULL, &an, err);
    default:
        return dls_installment_gantt_to_string(c->s, c->pl, NULL, (char **)&c->out, err);
    }
}

#define OOM_CALL(name, which)                                                              \
    static dls_status name(void *p, dls_error *err)                                        \
    {                                                                                      \
        oom_ctx *c = p;                                                                    \
        c->out = &c->sentinel;                                                             \
        dls_status st = oom_call(c, which, err);                                           \
        if (st != DLS_OK)                                                                  \
            assert_ptr_equal(c->out, &c->sentinel);                                        \
        return st;                                                                         \
    }
OOM_CALL(oom_simulate, 0)
OOM_CALL(oom_sweep, 1)
OOM_CALL(oom_analyze, 2)
OOM_CALL(oom_svg, 3)
#undef OOM_CALL

static void oom_free_schedule(void *p)
{
    dls_installment_free(((oom_ctx *)p)->out);
}

static void oom_free_text(void *p)
{
    dls_free(((oom_ctx *)p)->out);
}
#endif

TEST(test_out_of_memory)
{
#if TEST_WRAP_MALLOC
    if (!fm_active()) {
        skip();
        return;
    }
    dls_platform *pl = paper_ten();
    dls_error e;
    assert_ok(dls_platform_set_limit(pl, 3, 10, &e), &e); /* a note to write */
    dls_installment *s = simulate(pl, 1e10, 1e4, NULL);
    /* (a note and glibc's qsort are optional allocations) */
    static const struct {
        const char *name;
        fm_call call;
        void (*cleanup)(void *ctx);
    } calls[] = {
        {"simulate", oom_simulate, oom_free_schedule},
        {"sweep", oom_sweep, oom_free_schedule},
        {"analyze", oom_analyze, NULL},
        {"svg", oom_svg, oom_free_text},
    };
    for (size_t k = 0; k < 4; k++) {
        oom_ctx c = {pl, s, 0, NULL};
        assert_true(fm_exhaust(calls[k].name, calls[k].call, &c, calls[k].cleanup, DLS_OK) >= 2);
    }
    dls_installment_free(s);
    dls_platform_free(pl);
#else
    skip();
#endif
}

TEST_MAIN("installment", test_paper_formula, test_paper_one_chunk, test_paper_fig10,
          test_closed_form, test_hand_examples, test_snap, test_limits, test_analysis_general,
          test_analysis_undefined, test_sweep_paper, test_sweep_random, test_svg,
          test_svg_locale, test_errors_of_arguments, test_errors_of_platforms_and_results,
          test_out_of_memory)
