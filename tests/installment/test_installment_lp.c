/* Tests of installments sized by the LP (issue 25), each against an independent method:
 * - the replay: every schedule simulated again here, chunk by chunk, from its sizes alone
 *   (earliest starts under the window rule), with the loads, bounds and windows checked;
 * - the LP itself: its optimum for a given sequence against lp_solve on the exported free
 *   MPS file, and against glpsol on the exported MathProg model;
 * - the search: brute force over every sequence of up to 5 chunks on small platforms
 *   (each priced by the LP), never worse than the single-installment schedule, never worse
 *   than equal chunks round-robin (the closed form of dls_installment_simulate);
 * - release times, the Gantt chart, the exports, and every error path. */
#include <errno.h>
#include <unistd.h>

#include <lpsolve/lp_lib.h>

#include "gen.h"

/* A random star of p processors for load V: memory levels (gen_star), one in three a
 * constant speed, limits on about half when `limits`. */
static dls_platform *small_star(test_rng *r, size_t p, double V, int limits)
{
    dls_platform *pl = gen_star(r, p, 3, V, limits);
    return pl;
}

static dls_installment *lp_run(const dls_platform *pl, double V,
                               const dls_installment_lp_params *par)
{
    dls_error err;
    dls_installment *s = NULL;
    assert_ok(dls_installment_solve_lp(pl, V, par, &s, &err), &err);
    return s;
}

/* The deepest level of each processor's chunks: 0 without chunks, at least 1 for some
 * processor of a platform with memory levels; the record's tail zero. */
static void check_deepest_levels(const dls_platform *pl, const dls_installment *s)
{
    dls_error err;
    dls_installment_lp_info info;
    memset(&info, 0xa5, sizeof info);
    assert_ok(dls_installment_get_lp_info(s, &info, &err), &err);
    assert_reserved_zero(info);
    assert_non_null(info.deepest_levels);
    int deepest = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++) {
        if (dls_installment_chunk_counts(s)[i] == 0)
            assert_int_equal(info.deepest_levels[i], 0);
        deepest = info.deepest_levels[i] > deepest ? info.deepest_levels[i] : deepest;
    }
    assert_true(deepest >= 1);
}

/* The time of a chunk: the model's, and for an empty chunk of time lines the top of the
 * lines at 0 (the LP charges every chunk of the sequence its intercept). */
static double chunk_time(const dls_model *m, double x)
{
    size_t n;
    const double *a, *b;
    if (x > 0 || dls_model_get_lines(m, &n, &a, &b) != DLS_OK)
        return dls_model_time(m, x);
    double t = a[0];
    for (size_t l = 1; l < n; l++)
        t = fmax(t, a[l]);
    return t;
}

/* The independent replay: the schedule's sizes and sequence, simulated here. */
static void check_replay(const dls_platform *pl, const dls_installment *s, double V,
                         const dls_installment_lp_params *par)
{
    uint64_t n = dls_installment_chunks(s);
    size_t m = dls_platform_count(pl);
    double *fin = malloc(n * sizeof *fin), *size = malloc(n * sizeof *size);
    size_t *proc = malloc(n * sizeof *proc);
    double link = 0, makespan = 0, sum = 0;
    for (uint64_t k = 0; k < n; k++) {
        dls_installment_event ev;
        assert_int_equal(dls_installment_event_at(s, k, &ev, NULL), DLS_OK);
        size_t i = ev.processor;
        assert_true(i < m);
        assert_true(ev.size >= 0);
        proc[k] = i;
        size[k] = ev.size;
        sum += ev.size;
        double S, C, limit = par->use_limits ? dls_platform_limit(pl, i) : INFINITY;
        dls_platform_link(pl, i, &S, &C);
        /* the chunks of i before k, latest first */
        double start = link, held = ev.size, prev_end = -INFINITY;
        unsigned seen = 0;
        for (uint64_t j = k; j-- > 0;)
            if (proc[j] == i) {
                seen++;
                if (seen == 1)
                    prev_end = fin[j];
                if (seen < par->window)
                    held += size[j];
                if (seen == par->window && isfinite(limit))
                    start = fmax(start, fin[j]);
            }
        if (isfinite(limit))
            assert_true(held <= limit * (1 + 1e-9) + 1e-9);
        double arrive = start + S + C * ev.size;
        double cs = fmax(arrive, prev_end);
        if (seen == 0 && par->release != NULL)
            cs = fmax(cs, par->release[i]);
        fin[k] = cs + chunk_time(dls_platform_model(pl, i), ev.size);
        assert_rel_floor(ev.send_start, start, 1e-9, 1e-12);
        assert_rel_floor(ev.send_end, arrive, 1e-9, 1e-12);
        assert_rel_floor(ev.compute_start, cs, 1e-9, 1e-12);
        assert_rel_floor(ev.compute_end, fin[k], 1e-9, 1e-12);
        link = arrive;
        makespan = fmax(makespan, fin[k]);
    }
    /* the results, in return order, after their computation, one at a time, with one port
     * after the last send */
    double back = 0, port = par->two_port ? 0 : link;
    for (uint64_t j = 0; j < n; j++) {
        uint64_t k = par->return_order == DLS_RETURN_GIVEN ? par->return_sequence[j]
                     : par->return_order == DLS_RETURN_LIFO ? n - 1 - j
                                                             : j;
        size_t i = proc[k];
        double rs, re;
        assert_int_equal(dls_installment_return_at(s, k, &rs, &re, NULL), DLS_OK);
        if (par->return_fraction == NULL || !(par->return_fraction[i] > 0)) {
            assert_true(isnan(rs) && isnan(re));
            continue;
        }
        double start = fmax(fmax(fin[k], back), port);
        back = start + par->return_startup[i] + par->return_rate[i] * par->return_fraction[i] * size[k];
        assert_rel_floor(rs, start, 1e-9, 1e-12);
        assert_rel_floor(re, back, 1e-9, 1e-12);
        makespan = fmax(makespan, back);
    }
    assert_rel(sum, V, 1e-9);
    assert_rel(dls_installment_makespan(s), makespan, 1e-9);
    dls_installment_lp_info info;
    assert_int_equal(dls_installment_get_lp_info(s, &info, NULL), DLS_OK);
    assert_rel(info.lp_makespan, makespan, 1e-7);
    free(fin);
    free(size);
    free(proc);
}

/* ---------------------------------------------------------------------------------- */
/* A given sequence: replay, lp_solve, glpsol                                           */

static size_t *random_sequence(test_rng *r, size_t p, size_t n)
{
    size_t *seq = malloc(n * sizeof *seq);
    for (size_t k = 0; k < n; k++)
        seq[k] = (size_t)test_below(r, p);
    return seq;
}

/* The LP of the given chunk sequence, 10 s at most for each solve. */
static void given_sequence(dls_installment_lp_params *par, const size_t *seq, size_t n)
{
    par->sequence = seq;
    par->sequence_length = n;
    par->time_limit = 10;
}

/* Random returns for p processors into buf (3 p): fractions (a third of them 0 when
 * some_zero), startups and rates. */
static void random_returns(test_rng *r, size_t p, int some_zero, double *buf,
                           dls_installment_lp_params *par)
{
    for (size_t i = 0; i < p; i++) {
        buf[i] = some_zero && test_below(r, 3) == 0 ? 0 : test_logrange(r, 0.01, 1);
        buf[p + i] = test_range(r, 0, 1e-2);
        buf[2 * p + i] = test_logrange(r, 1e-7, 1e-5);
    }
    par->return_fraction = buf;
    par->return_startup = buf + p;
    par->return_rate = buf + 2 * p;
}

RANDOM_TEST(test_given_sequence_replays, 2501, 100)
{
    size_t p = 1 + test_below(r, 6), n = 1 + test_below(r, 14);
    double V = test_logrange(r, 1e2, 1e6);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.window = 1 + (unsigned)test_below(r, 3);
    par.time_limit = 10;
    size_t *seq = random_sequence(r, p, n);
    par.sequence = seq;
    par.sequence_length = n;
    double *release = NULL;
    if (trial % 3 == 0) {
        release = malloc(p * sizeof *release);
        for (size_t i = 0; i < p; i++)
            release[i] = test_below(r, 2) ? test_range(r, 0, 2) : 0;
        par.release = release;
    }
    dls_error err;
    dls_installment *s = NULL;
    dls_status st = dls_installment_solve_lp(pl, V, &par, &s, &err);
    if (st == DLS_ERANGE) {
        /* the limits of the processors in the sequence cannot hold V: check that they
         * indeed cannot, with every chunk at its limit */
        double most = 0;
        for (size_t k = 0; k < n; k++)
            most += fmin(dls_platform_limit(pl, seq[k]), V);
        assert_true(most < V * (1 + 1e-6));
    } else {
        assert_ok(st, &err);
        assert_int_equal(dls_installment_chunks(s), n);
        check_replay(pl, s, V, &par);
        dls_installment_free(s);
    }
    free(seq);
    free(release);
    dls_platform_free(pl);
}

/* The LP of a sequence against lp_solve (free MPS) and glpsol (MathProg). */
static int have_glpsol(void)
{
    return system("glpsol --version > /dev/null 2>&1") == 0;
}

RANDOM_TEST(test_lp_against_other_solvers, 2502, 40)
{
    size_t p = 1 + test_below(r, 5), n = 1 + test_below(r, 10);
    double V = test_logrange(r, 1e2, 1e5);
    dls_platform *pl = small_star(r, p, V, 1);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.window = 1 + (unsigned)test_below(r, 2);
    par.time_limit = 10;
    size_t *seq = random_sequence(r, p, n);
    par.sequence = seq;
    par.sequence_length = n;
    double buf[3 * 8];
    if (trial % 2) {
        random_returns(r, p, 1, buf, &par);
        par.return_order = trial % 4 == 1 ? DLS_RETURN_LIFO : DLS_RETURN_FIFO;
        par.two_port = trial % 8 == 3;
    }
    dls_error err;
    dls_installment *s = NULL;
    dls_status st = dls_installment_solve_lp(pl, V, &par, &s, &err);
    char path[] = "/tmp/dls_mlp_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_ok(dls_installment_lp_write_file(pl, V, &par, DLS_EXPORT_MPS, path, &err), &err);
    lprec *lp = read_freeMPS(path, CRITICAL);
    assert_non_null(lp);
    set_verbose(lp, CRITICAL);
    int ret = solve(lp);
    if (st == DLS_ERANGE) {
        assert_int_equal(ret, INFEASIBLE);
    } else {
        assert_ok(st, &err);
        dls_installment_lp_info info;
        dls_installment_get_lp_info(s, &info, NULL);
        assert_int_equal(ret, OPTIMAL);
        assert_rel(get_objective(lp), info.lp_makespan, 1e-7);
        if (have_glpsol() && trial % 4 == 0) {
            assert_ok(dls_installment_lp_write_file(pl, V, &par, DLS_EXPORT_MATHPROG, path, &err),
                      &err);
            char cmd[200];
            snprintf(cmd, sizeof cmd, "glpsol -m %s 2>&1 | sed -n 's/^makespan //p'", path);
            FILE *f = popen(cmd, "r");
            assert_non_null(f);
            double theirs = NAN;
            assert_int_equal(fscanf(f, "%lf", &theirs), 1);
            pclose(f);
            assert_rel(theirs, info.lp_makespan, 1e-7);
        }
        dls_installment_free(s);
    }
    delete_lp(lp);
    unlink(path);
    free(seq);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* The search                                                                          */

/* Every sequence of up to len chunks over p processors, priced here one by one. */
static double brute_force(const dls_platform *pl, double V, size_t p, size_t len,
                          const dls_installment_lp_params *base)
{
    dls_installment_lp_params par = *base;
    size_t seq[8];
    double best = INFINITY;
    for (size_t n = 1; n <= len; n++) {
        memset(seq, 0, sizeof seq);
        for (;;) {
            par.sequence = seq;
            par.sequence_length = n;
            dls_installment *s = NULL;
            dls_error err;
            dls_status st = dls_installment_solve_lp(pl, V, &par, &s, &err);
            if (st == DLS_OK) {
                best = fmin(best, dls_installment_makespan(s));
                dls_installment_free(s);
            } else {
                assert_int_equal(st, DLS_ERANGE);
            }
            size_t k = n;
            while (k > 0 && seq[k - 1] == p - 1)
                seq[--k] = 0;
            if (k == 0)
                break;
            seq[k - 1]++;
        }
    }
    return best;
}

RANDOM_TEST(test_search_against_brute_force, 2503, 8)
{
    size_t p = 2 + test_below(r, 2), len = p == 2 ? 6 : 5;
    double V = test_logrange(r, 1e3, 1e5);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.time_limit = 60;
    par.max_chunks = len;
    double brute = brute_force(pl, V, p, len, &par);
    dls_installment *s = lp_run(pl, V, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    assert_true(info.exact);
    assert_int_equal(info.exhaustive_length, len);
    /* equal up to the LP's tolerances: sequences within 1e-7 of each other may rank
     * either way */
    assert_rel(dls_installment_makespan(s), brute, 1e-6);
    /* the bound holds for every sequence, of any length */
    assert_true(info.lower_bound <= brute * (1 + 1e-9));
    check_replay(pl, s, V, &par);
    dls_installment_free(s);
    /* the heuristic search alone (no enumeration) is never better than every sequence */
    par.exhaustive_max = 0;
    s = lp_run(pl, V, &par);
    assert_true(dls_installment_makespan(s) >= brute * (1 - 1e-6));
    check_replay(pl, s, V, &par);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* Stars where the startups dominate (each one 0.2 to 5 times a processor's time for an even
 * share), where the lower bound counts each processor's startup, some with release times:
 * the bound is below every sequence of up to 5 chunks (brute force), and above the time
 * the link needs to send the whole load at the best rate after the least startup (the
 * bound that ignores the other startups). */
RANDOM_TEST(test_bound_with_startups_against_brute_force, 2513, 8)
{
    size_t p = 2 + test_below(r, 2), len = p == 2 ? 5 : 4;
    double V = test_logrange(r, 1e2, 1e4);
    dls_platform *pl = small_star(r, p, V, 0);
    double release[3] = {0, 0, 0}, smin = INFINITY, cmin = INFINITY;
    for (size_t i = 0; i < p; i++) {
        double S, C;
        assert_int_equal(dls_platform_link(pl, i, &S, &C), DLS_OK);
        double t = dls_model_time(dls_platform_model(pl, i), V / (double)p);
        S += t * test_logrange(r, 0.2, 5);
        assert_int_equal(dls_platform_set_link(pl, i, S, C, NULL), DLS_OK);
        if (trial % 2)
            release[i] = t * test_logrange(r, 0.01, 1);
        smin = fmin(smin, S);
        cmin = fmin(cmin, C);
    }
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.time_limit = 60;
    par.max_chunks = len;
    par.release = release;
    double brute = brute_force(pl, V, p, len, &par);
    dls_installment *s = lp_run(pl, V, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    assert_true(isfinite(info.lower_bound));
    assert_true(info.lower_bound <= brute * (1 + 1e-9));
    assert_true(info.lower_bound >= (smin + cmin * V) * (1 - 1e-9));
    assert_true(info.gap >= -1e-12 && info.gap < 1);
    check_replay(pl, s, V, &par);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* The schedule of one installment each (dls_schedule_solve), which must succeed. */
static dls_schedule *one_installment(const dls_platform *pl, double V,
                                     const dls_schedule_params *sp)
{
    dls_error err;
    dls_schedule *one;
    assert_ok(dls_schedule_solve(pl, V, sp, &one, &err), &err);
    return one;
}

RANDOM_TEST(test_search_never_worse_than_one_installment, 2504, 8)
{
    size_t p = 2 + test_below(r, 30);
    double V = test_logrange(r, 1e3, 1e6);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.max_lps = 300; /* the same answer on any machine */
    par.time_limit = 60;
    dls_installment *s = lp_run(pl, V, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    double T = dls_installment_makespan(s);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = DLS_ORDER_BEST;
    dls_schedule *one = one_installment(pl, V, &sp);
    if (dls_schedule_status(one) != DLS_SOLUTION_INFEASIBLE) {
        assert_true(T <= dls_schedule_makespan(one) * (1 + 1e-9));
        assert_true(T <= info.single_makespan * (1 + 1e-9));
    }
    assert_true(info.lower_bound <= T * (1 + 1e-12));
    assert_true(info.gap >= -1e-12 && info.gap < 1);
    check_replay(pl, s, V, &par);
    dls_schedule_free(one);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* Round-robin in equal chunks (the closed form) is one of the schedules the LP of the same
 * sequence can choose: the LP is never slower. */
RANDOM_TEST(test_lp_beats_equal_chunks, 2505, 30)
{
    size_t p = 1 + test_below(r, 6), rounds = 1 + test_below(r, 5);
    double V = test_logrange(r, 1e3, 1e6);
    dls_platform *pl = small_star(r, p, V, 0);
    dls_installment *eq;
    dls_error err;
    assert_ok(dls_installment_simulate(pl, V, V / (double)(p * rounds), NULL, &eq, &err), &err);
    assert_int_equal(dls_installment_chunks(eq), p * rounds);
    size_t *seq = malloc(p * rounds * sizeof *seq);
    for (size_t k = 0; k < p * rounds; k++)
        seq[k] = k % p;
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    given_sequence(&par, seq, p * rounds);
    dls_installment *s = lp_run(pl, V, &par);
    assert_true(dls_installment_makespan(s) <= dls_installment_makespan(eq) * (1 + 1e-9));
    check_replay(pl, s, V, &par);
    dls_installment_free(s);
    dls_installment_free(eq);
    free(seq);
    dls_platform_free(pl);
}

/* A hand-checked case: one processor of 1 s per unit, link 0.5 s + 0.5 s per unit, load 2.
 * One chunk: 0.5 + 1 + 2 = 3.5 s. Two chunks x, 2 - x: the first arrives at 0.5 + 0.5 x,
 * the second at 1 + 0.5 x + 0.5 (2 - x) = 2; finish max(0.5 + 1.5 x, 2) + 2 - x, best at
 * x = 1: 3 s. */
TEST(test_hand_case)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"link\": "
        "{\"startup\": 0.5, \"rate\": 0.5}}]}");
    size_t seq[] = {0, 0, 0};
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.sequence = seq;
    par.sequence_length = 1;
    dls_installment *s = lp_run(pl, 2, &par);
    assert_rel(dls_installment_makespan(s), 3.5, 1e-12);
    dls_installment_free(s);
    par.sequence_length = 2;
    s = lp_run(pl, 2, &par);
    assert_rel(dls_installment_makespan(s), 3, 1e-9);
    dls_installment_event ev;
    assert_int_equal(dls_installment_event_at(s, 0, &ev, NULL), DLS_OK);
    assert_rel(ev.size, 1, 1e-9);
    dls_installment_free(s);
    /* release at 10 s: 10 + 2 = 12, whatever the sequence */
    double release[] = {10};
    par.release = release;
    s = lp_run(pl, 2, &par);
    assert_rel(dls_installment_makespan(s), 12, 1e-9);
    dls_installment_free(s);
    /* the search finds the two-chunk answer or better (three chunks: 2.75 s? each extra
     * chunk adds 0.5 s of startup, which the overlap must pay for) */
    par.release = NULL;
    par.sequence = NULL;
    par.sequence_length = 0;
    s = lp_run(pl, 2, &par);
    assert_true(dls_installment_makespan(s) <= 3 * (1 + 1e-9));
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Results returned                                                                    */

/* A fraction of zero everywhere gives exactly the answer without results. */
RANDOM_TEST(test_zero_fraction_is_no_return, 2507, 30)
{
    size_t p = 1 + test_below(r, 5), n = 1 + test_below(r, 10);
    double V = test_logrange(r, 1e2, 1e5);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    size_t *seq = random_sequence(r, p, n);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    given_sequence(&par, seq, n);
    dls_installment *a = NULL, *b = NULL;
    dls_error err;
    dls_status st = dls_installment_solve_lp(pl, V, &par, &a, &err);
    double buf[3 * 8];
    random_returns(r, p, 0, buf, &par);
    for (size_t i = 0; i < p; i++)
        buf[i] = 0;
    par.return_order = trial % 2 ? DLS_RETURN_LIFO : DLS_RETURN_FIFO;
    dls_status st2 = dls_installment_solve_lp(pl, V, &par, &b, &err);
    assert_int_equal(st, st2);
    if (st == DLS_OK) {
        assert_true(dls_installment_makespan(a) == dls_installment_makespan(b));
        for (uint64_t k = 0; k < n; k++) {
            dls_installment_event ea, eb;
            dls_installment_event_at(a, k, &ea, NULL);
            dls_installment_event_at(b, k, &eb, NULL);
            assert_true(ea.size == eb.size && ea.compute_end == eb.compute_end);
        }
    }
    dls_installment_free(a);
    dls_installment_free(b);
    free(seq);
    dls_platform_free(pl);
}

/* LIFO with one installment each and one port is the problem without results with
 * startup S + R and rate C + D f: each processor's window of time nests inside the one
 * of the processor before it. Checked against the paper's LP (GLPK) on the platform with
 * those links, every processor charged as ours charges every chunk. */
RANDOM_TEST(test_lifo_identity, 2508, 60)
{
    size_t p = 1 + test_below(r, 6);
    double V = test_logrange(r, 1e2, 1e6);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    double buf[3 * 8];
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    random_returns(r, p, 0, buf, &par);
    par.return_order = DLS_RETURN_LIFO;
    size_t seq[8];
    for (size_t i = 0; i < p; i++)
        seq[i] = i;
    given_sequence(&par, seq, p);
    dls_installment *s = lp_run(pl, V, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    check_replay(pl, s, V, &par);
    dls_platform *pl2;
    dls_error err;
    assert_ok(dls_platform_copy(pl, &pl2, &err), &err);
    for (size_t i = 0; i < p; i++) {
        double S, C;
        dls_platform_link(pl, i, &S, &C);
        assert_ok(dls_platform_set_link(pl2, i, S + buf[p + i], C + buf[2 * p + i] * buf[i],
                                        &err), &err);
    }
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.solver = DLS_SOLVER_GLPK;
    sp.drop_unused = 0;
    dls_schedule *one = one_installment(pl2, V, &sp);
    assert_rel(info.lp_makespan, dls_schedule_paper_makespan(one), 1e-7);
    dls_schedule_free(one);
    dls_platform_free(pl2);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* Every order and port, replayed independently; two ports never slower than one. */
RANDOM_TEST(test_returns_replay, 2509, 60)
{
    size_t p = 1 + test_below(r, 5), n = 1 + test_below(r, 12);
    double V = test_logrange(r, 1e2, 1e5);
    dls_platform *pl = small_star(r, p, V, trial % 2);
    size_t *seq = random_sequence(r, p, n);
    double buf[3 * 8];
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    random_returns(r, p, 1, buf, &par);
    par.return_order = trial % 2 ? DLS_RETURN_LIFO : DLS_RETURN_FIFO;
    size_t perm[12];
    if (trial % 3 == 2) {
        /* a random order of the chunks */
        for (size_t k = 0; k < n; k++)
            perm[k] = k;
        for (size_t k = n; k > 1; k--) {
            size_t j = (size_t)test_below(r, k), t = perm[k - 1];
            perm[k - 1] = perm[j];
            perm[j] = t;
        }
        par.return_order = DLS_RETURN_GIVEN;
        par.return_sequence = perm;
    }
    given_sequence(&par, seq, n);
    dls_installment *one = NULL, *two = NULL;
    dls_error err;
    dls_status st = dls_installment_solve_lp(pl, V, &par, &one, &err);
    if (st == DLS_OK) {
        check_replay(pl, one, V, &par);
        par.two_port = 1;
        two = lp_run(pl, V, &par);
        check_replay(pl, two, V, &par);
        assert_true(dls_installment_makespan(two) <= dls_installment_makespan(one) * (1 + 1e-7));
    } else {
        assert_int_equal(st, DLS_ERANGE);
    }
    /* the search with results returned (in send order or its reverse) */
    if (par.return_order == DLS_RETURN_GIVEN) {
        par.return_order = DLS_RETURN_FIFO;
        par.return_sequence = NULL;
    }
    par.sequence = NULL;
    par.sequence_length = 0;
    par.max_lps = 80;
    dls_installment_free(two);
    two = lp_run(pl, V, &par);
    check_replay(pl, two, V, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(two, &info, NULL);
    assert_true(dls_installment_makespan(two) <= info.single_makespan * (1 + 1e-9));
    dls_installment_free(one);
    dls_installment_free(two);
    free(seq);
    dls_platform_free(pl);
}

/* Release times and results in the platform file: read, written back, set and read by
 * the API, used by dls_installment_solve_lp as the same values given as parameters, refused at
 * the number when wrong. */
TEST(test_platform_fields)
{
    static const char text[] =
        "{\"processors\": [\n"
        " {\"name\": \"a\", \"speed\": 1, \"link\": {\"startup\": 0.5, \"rate\": 0.5},\n"
        "  \"release\": 2.5, \"return\": {\"fraction\": 0.5, \"startup\": 0.1, \"rate\": 0.25}},\n"
        " {\"name\": \"b\", \"time\": [[0, 2]], \"link\": {\"startup\": 0.25, \"rate\": 0.1}}]}";
    dls_platform *pl = test_platform_json(text);
    assert_true(dls_platform_release(pl, 0) == 2.5 && dls_platform_release(pl, 1) == 0);
    double f, R, D;
    assert_int_equal(dls_platform_get_return(pl, 0, &f, &R, &D), DLS_OK);
    assert_true(f == 0.5 && R == 0.1 && D == 0.25);
    assert_int_equal(dls_platform_get_return(pl, 1, &f, &R, &D), DLS_OK);
    assert_true(f == 0 && R == 0 && D == 0);
    assert_int_equal(dls_platform_get_return(pl, 2, &f, &R, &D), DLS_EINVAL);
    assert_true(isnan(dls_platform_release(pl, 2)));
    /* written back and read again: the same platform */
    dls_error err;
    char *out = NULL;
    assert_ok(dls_platform_to_string(pl, &out, &err), &err);
    dls_platform *again = test_platform_json(out);
    assert_true(dls_platform_equal(pl, again));
    dls_free(out);
    dls_platform_free(again);
    /* the file's values and the same as parameters give the same schedule */
    size_t seq[] = {0, 1, 0};
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.sequence = seq;
    par.sequence_length = 3;
    dls_installment *s1 = lp_run(pl, 10, &par);
    double rel[2] = {2.5, 0}, fr[2] = {0.5, 0}, rs[2] = {0.1, 0}, rr[2] = {0.25, 0};
    dls_platform *plain;
    assert_ok(dls_platform_copy(pl, &plain, &err), &err);
    assert_ok(dls_platform_set_release(plain, 0, 0, &err), &err);
    assert_ok(dls_platform_set_return(plain, 0, 0, 0, 0, &err), &err);
    assert_false(dls_platform_equal(pl, plain));
    par.release = rel;
    par.return_fraction = fr;
    par.return_startup = rs;
    par.return_rate = rr;
    dls_installment *s2 = lp_run(plain, 10, &par);
    assert_true(dls_installment_makespan(s1) == dls_installment_makespan(s2));
    check_replay(pl, s1, 10, &par);
    dls_installment_event ev;
    dls_installment_event_at(s1, 0, &ev, NULL);
    assert_true(ev.compute_start >= 2.5);
    /* parameters win over the file */
    double none[2] = {0, 0};
    par.return_fraction = none;
    par.release = none;
    dls_installment *s3 = lp_run(pl, 10, &par);
    dls_installment *s4 = lp_run(plain, 10, &par);
    assert_true(dls_installment_makespan(s3) == dls_installment_makespan(s4));
    dls_installment_free(s1);
    dls_installment_free(s2);
    dls_installment_free(s3);
    dls_installment_free(s4);
    /* the setters refuse bad values and leave the platform as it was */
    assert_fails(dls_platform_set_release(plain, 0, -1, &err), DLS_EINVAL, &err, "release");
    assert_fails(dls_platform_set_release(plain, 0, NAN, &err), DLS_EINVAL, &err, "release");
    assert_fails(dls_platform_set_release(plain, 0, 1e300, &err), DLS_EINVAL, &err, "domain");
    assert_fails(dls_platform_set_release(plain, 5, 1, &err), DLS_EINVAL, &err, "");
    assert_fails(dls_platform_set_return(plain, 0, -1, 0, 0, &err), DLS_EINVAL, &err,
                 "fraction");
    assert_fails(dls_platform_set_return(plain, 0, 1, INFINITY, 0, &err), DLS_EINVAL, &err,
                 "startup");
    assert_fails(dls_platform_set_return(plain, 0, 1, 0, 1e-300, &err), DLS_EINVAL, &err,
                 "domain");
    assert_true(dls_platform_release(plain, 0) == 0);
    assert_int_equal(dls_platform_get_return(plain, 0, &f, &R, &D), DLS_OK);
    assert_true(f == 0 && R == 0 && D == 0);
    dls_platform_free(plain);
    dls_platform_free(pl);
    /* the reader refuses at the number */
    static const struct {
        const char *text, *part;
    } bad[] = {
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"release\": -1}]}", "1:54"},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"release\": \"x\"}]}",
         "\"release\" \"x\" must be a time"},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"return\": 1}]}", "must be an object"},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"return\": {\"fraction\": 1, "
         "\"startup\": 0}}]}", "has no \"rate\""},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"return\": {\"fraction\": 1, "
         "\"startup\": 0, \"rate\": -2}}]}", "rate must be >= 0"},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"return\": {\"fraction\": 1, "
         "\"startup\": 0, \"rate\": 0, \"back\": 1}}]}", "back"},
        {"{\"processors\": [{\"name\": \"a\", \"speed\": 1, \"return\": {\"fraction\": 1e99, "
         "\"startup\": 0, \"rate\": 0}}]}", "domain"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dls_platform *p = (dls_platform *)&err;
        assert_fails(dls_platform_read_string(bad[k].text, strlen(bad[k].text), "t.json", &p,
                                              &err),
                     DLS_EDATA, &err, bad[k].part);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Output                                                                              */

TEST(test_exports_and_chart)
{
    dls_platform *pl = test_example("memory_levels.json");
    size_t seq[] = {0, 1, 2, 3, 0, 1};
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.sequence = seq;
    par.sequence_length = 6;
    dls_error err;
    const dls_export_format formats[] = {DLS_EXPORT_LP, DLS_EXPORT_MPS, DLS_EXPORT_GLPK,
                                         DLS_EXPORT_MATHPROG};
    for (size_t f = 0; f < 4; f++) {
        char *text = NULL;
        assert_ok(dls_installment_lp_to_string(pl, 1e7, &par, formats[f], &text, &err), &err);
        assert_non_null(strstr(text, "send_6"));
        assert_non_null(strstr(text, "x_1"));
        dls_free(text);
    }
    dls_installment *s = lp_run(pl, 1e7, &par);
    char *svg = NULL;
    assert_ok(dls_installment_gantt_to_string(s, pl, NULL, &svg, &err), &err);
    assert_non_null(strstr(svg, "sized by the LP"));
    assert_int_equal(test_count(svg, "chunk 5 (round 1)"), 2); /* its send and its bar */
    dls_free(svg);
    /* its chunks differ: no chunk size, no round time; the LP's figures instead */
    dls_installment_rounds_info eq = {.chunk = 42};
    assert_fails(dls_installment_get_rounds_info(s, &eq, &err), DLS_EINVAL, &err,
                 "dls_installment_get_rounds_info: the schedule is from "
                 "dls_installment_solve_lp, whose chunks differ");
    assert_non_null(strstr(err.message, "dls_installment_get_lp_info"));
    assert_true(eq.chunk == 42);
    dls_installment_sweep_info sw = {.samples = 42};
    assert_fails(dls_installment_get_sweep_info(s, &sw, &err), DLS_EINVAL, &err,
                 "the schedule is from dls_installment_solve_lp, not from "
                 "dls_installment_sweep");
    assert_int_equal(sw.samples, 42);
    assert_int_equal(dls_installment_rounds(s), 2);
    check_deepest_levels(pl, s);
    dls_installment_free(s);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Errors                                                                              */

/* The arguments and parameters, each one: refused, output untouched. */
TEST(test_errors_of_parameters)
{
    dls_platform *pl = test_example("memory_levels.json");
    dls_installment_lp_params par;
    dls_error err;
    dls_installment *s = (dls_installment *)&err, *keep = s;
    assert_fails(dls_installment_solve_lp(NULL, 1, NULL, &s, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_solve_lp(pl, 1, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_solve_lp(pl, 0, NULL, &s, &err), DLS_EINVAL, &err, "load");
    assert_fails(dls_installment_solve_lp(pl, NAN, NULL, &s, &err), DLS_EINVAL, &err, "load");
#define BAD(field, value, part)                                                            \
    do {                                                                                   \
        dls_installment_lp_params_init(&par);                                              \
        par.field = value;                                                                 \
        assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, part); \
        assert_ptr_equal(s, keep);                                                         \
    } while (0)
    BAD(window, 0, "window");
    BAD(window, DLS_INSTALLMENT_MAX_WINDOW + 1, "window");
    BAD(max_chunks, 0, "max_chunks");
    BAD(time_limit, 0, "time_limit");
    BAD(time_limit, NAN, "time_limit");
    BAD(check_tol, 0, "check_tol");
    BAD(use_limits, 2, "use_limits");
    BAD(moves, -1, "moves");
    BAD(order, DLS_ORDER_SEQUENCE, "order");
    BAD(sequence_length, 3, "without a sequence");
    BAD(exhaustive_max, 100000000, "exhaustive_max");
    BAD(reserved[5], 1, "reserved");
    BAD(two_port, 2, "two_port");
    BAD(return_order, (dls_return_order)3, "return_order");
    BAD(return_order, DLS_RETURN_GIVEN, "return_sequence");
    size_t perm[2] = {1, 1}, two[2] = {0, 0};
    dls_installment_lp_params_init(&par);
    par.return_order = DLS_RETURN_GIVEN;
    par.return_sequence = perm;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "needs a given sequence");
    par.sequence = two;
    par.sequence_length = 2;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "each of the 2 chunks once");
    double frac[4] = {0.5, 0.5, 0.5, 0.5}, rs[4] = {0, 0, 0, 0}, rr[4] = {1e-6, 1e-6, -1, 0};
    BAD(return_fraction, frac, "together");
    dls_installment_lp_params_init(&par);
    par.return_fraction = frac;
    par.return_startup = rs;
    par.return_rate = rr;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "laptop");
    rr[2] = 0;
    frac[0] = NAN;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "fraction");
    assert_ptr_equal(s, keep);
    dls_platform_free(pl);
#undef BAD
}

/* Return orders' names, given sequences, release times, returns' domains, exports, and the
 * LP figures of another computation: refused, output untouched. */
TEST(test_errors_of_sequences_and_exports)
{
    dls_platform *pl = test_example("memory_levels.json");
    dls_installment_lp_params par;
    dls_error err;
    dls_installment *s = (dls_installment *)&err, *keep = s;
    double a, b;
    assert_fails(dls_installment_return_at(NULL, 0, &a, &b, &err), DLS_EINVAL, &err, "NULL");
    const char *names[] = {"fifo", "lifo", "given"};
    for (int o = 0; o < 3; o++) {
        dls_return_order ro;
        assert_int_equal(dls_return_order_from_name(names[o], &ro), DLS_OK);
        assert_string_equal(dls_return_order_name(ro), names[o]);
    }
    dls_return_order ro = DLS_RETURN_LIFO;
    assert_int_equal(dls_return_order_from_name("lilo", &ro), DLS_EINVAL);
    assert_int_equal(ro, DLS_RETURN_LIFO);
    size_t seq[] = {0, 9};
    dls_installment_lp_params_init(&par);
    par.sequence = seq;
    par.sequence_length = 2;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "names processor 9");
    par.sequence_length = 0;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "sequence");
    double release[] = {0, -1, 0, 0};
    dls_installment_lp_params_init(&par);
    par.release = release;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "new-epyc");
    release[1] = INFINITY;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "release");
    /* issue 35, item 9: every value held to the domain the platform's keys have */
    release[1] = 1e-300;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "domain");
    release[1] = 1e61;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err, "domain");
    double fr2[] = {0, 1e-300, 0, 0}, rs2[] = {0, 0.01, 0, 0}, rr2[] = {0, 1e-6, 0, 0};
    dls_installment_lp_params_init(&par);
    par.return_fraction = fr2;
    par.return_startup = rs2;
    par.return_rate = rr2;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "return fraction 1e-300 is outside the domain");
    fr2[1] = 0.5;
    rr2[1] = 1e-61;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "return rate");
    rr2[1] = 1e-6;
    rs2[1] = NAN;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_EINVAL, &err,
                 "return startup");
    /* the laptop alone (limit 5e7) cannot hold 1e8 in one chunk */
    size_t laptop[] = {2};
    dls_installment_lp_params_init(&par);
    par.sequence = laptop;
    par.sequence_length = 1;
    assert_fails(dls_installment_solve_lp(pl, 1e8, &par, &s, &err), DLS_ERANGE, &err,
                 "cannot hold");
    assert_ptr_equal(s, keep);
    /* exports */
    char *text = (char *)&err;
    dls_installment_lp_params_init(&par);
    assert_fails(dls_installment_lp_to_string(pl, 1e6, &par, DLS_EXPORT_LP, &text, &err),
                 DLS_EINVAL, &err, "give one");
    par.sequence = laptop;
    par.sequence_length = 1;
    assert_fails(dls_installment_lp_to_string(pl, 1e6, &par, (dls_export_format)9, &text,
                                              &err), DLS_EINVAL, &err, "format");
    assert_fails(dls_installment_lp_write_file(pl, 1e6, &par, DLS_EXPORT_LP, NULL, &err),
                 DLS_EINVAL, &err, "NULL");
    assert_fails(dls_installment_lp_write_file(pl, 1e6, &par, DLS_EXPORT_LP,
                                               "/nonexistent-dir/x.lp", &err),
                 DLS_EIO, &err, "nonexistent-dir");
    /* the figures of a schedule not from dls_installment_solve_lp */
    dls_installment *eq;
    assert_ok(dls_installment_simulate(pl, 1e6, 1e5, NULL, &eq, &err), &err);
    dls_installment_lp_info info;
    assert_fails(dls_installment_get_lp_info(eq, &info, &err), DLS_EINVAL, &err,
                 "not from dls_installment_solve_lp");
    assert_fails(dls_installment_get_lp_info(NULL, &info, &err), DLS_EINVAL, &err, "NULL");
    assert_non_null(strstr(err.message, "NULL"));
    assert_fails(dls_installment_get_lp_info(eq, &info, &err), DLS_EINVAL, &err,
                 "but from dls_installment_simulate (see dls_installment_get_rounds_info)");
    dls_installment_free(eq);
    dls_platform_free(pl);
}

/* The getters kept one release answer as before: NaN and n = 0 where the computation has
 * no such figure, the records' values where it has. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST(test_deprecated_getters)
{
    dls_error err;
    dls_platform *pl = test_example("memory_levels.json");
    size_t n = dls_platform_count(pl), ns = 7;
    const double *x = NULL, *y = NULL;
    dls_installment *eq, *sw, *lp = lp_run(pl, 1e6, NULL);
    assert_ok(dls_installment_simulate(pl, 1e6, 1e5, NULL, &eq, &err), &err);
    assert_ok(dls_installment_sweep(pl, 1e6, NULL, &sw, &err), &err);
    dls_installment *equal[2] = {eq, sw};
    for (int k = 0; k < 2; k++) {
        dls_installment_rounds_info r;
        assert_ok(dls_installment_get_rounds_info(equal[k], &r, &err), &err);
        assert_true(dls_installment_chunk(equal[k]) == r.chunk);
        assert_true(dls_installment_round_time(equal[k]) == r.round_time);
        assert_int_equal(dls_installment_rotation(equal[k]), r.rotation);
        assert_ptr_equal(dls_installment_chunk_time(equal[k]), r.chunk_time);
        assert_ptr_equal(dls_installment_binding_levels(equal[k]), r.levels);
    }
    dls_installment_sweep_samples(eq, &ns, &x, &y);
    assert_int_equal(ns, 0);
    dls_installment_sweep_info si;
    assert_ok(dls_installment_get_sweep_info(sw, &si, &err), &err);
    dls_installment_sweep_samples(sw, &ns, &x, &y);
    assert_int_equal(ns, si.samples);
    assert_ptr_equal(x, si.chunk);
    assert_ptr_equal(y, si.makespan);
    /* the LP: NaN where its chunks differ, the processors given a chunk, the deepest levels */
    assert_true(isnan(dls_installment_chunk(lp)));
    assert_true(isnan(dls_installment_round_time(lp)));
    size_t given = 0;
    for (size_t i = 0; i < n; i++) {
        given += dls_installment_chunk_counts(lp)[i] > 0;
        assert_true(isnan(dls_installment_chunk_time(lp)[i]));
    }
    assert_int_equal(dls_installment_rotation(lp), given);
    dls_installment_lp_info info;
    assert_ok(dls_installment_get_lp_info(lp, &info, &err), &err);
    assert_ptr_equal(dls_installment_binding_levels(lp), info.deepest_levels);
    ns = 7;
    dls_installment_sweep_samples(lp, &ns, NULL, NULL);
    assert_int_equal(ns, 0);
    dls_installment_free(lp);
    dls_installment_free(sw);
    dls_installment_free(eq);
    dls_platform_free(pl);
}
#pragma GCC diagnostic pop

TEST(test_time_limit)
{
    /* a limit too short for the first LP of a large platform */
    test_rng r;
    test_rng_init(&r, 2506);
    dls_platform *pl = small_star(&r, 400, 1e6, 0);
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.time_limit = 1e-6;
    dls_installment *s = NULL;
    dls_error err;
    dls_status st = dls_installment_solve_lp(pl, 1e6, &par, &s, &err);
    if (st == DLS_OK) {
        /* no LP ended: the single-installment start, said so */
        assert_non_null(strstr(dls_installment_note(s), "before the first LP"));
        dls_installment_lp_info info;
        dls_installment_get_lp_info(s, &info, NULL);
        assert_true(info.limited);
        assert_rel(dls_installment_makespan(s), info.single_makespan, 1e-6);
        dls_installment_free(s);
        s = NULL;
    } else {
        /* or the start itself ran out of time */
        assert_int_equal(st, DLS_ELIMIT);
        assert_null(s);
    }
    /* a given sequence has no start to fall back on */
    size_t *seq = malloc(400 * sizeof *seq);
    for (size_t k = 0; k < 400; k++)
        seq[k] = k;
    par.sequence = seq;
    par.sequence_length = 400;
    assert_fails(dls_installment_solve_lp(pl, 1e6, &par, &s, &err), DLS_ELIMIT, &err, "limit");
    assert_null(s);
    free(seq);
    par.sequence = NULL;
    par.sequence_length = 0;
    /* a limit that ends the search early keeps the best found and says so */
    par.time_limit = 0.3;
    s = lp_run(pl, 1e6, &par);
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    /* the watchdog's grace, the replay, and a loaded machine's slowness */
    assert_true(info.seconds < 0.3 + 2);
    check_replay(pl, s, 1e6, &par);
    dls_installment_free(s);
    dls_platform_free(pl);
}

TEST_MAIN("installment_lp", test_given_sequence_replays, test_lp_against_other_solvers,
          test_search_against_brute_force, test_bound_with_startups_against_brute_force,
          test_search_never_worse_than_one_installment,
          test_lp_beats_equal_chunks, test_hand_case, test_zero_fraction_is_no_return,
          test_lifo_identity, test_returns_replay, test_platform_fields, test_exports_and_chart,
          test_errors_of_parameters, test_errors_of_sequences_and_exports,
          test_deprecated_getters, test_time_limit)
