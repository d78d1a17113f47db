/* The differential suite's other paths: the referee on the commands' own answers, the
 * exports solved by glpsol, multi-installment LPs replayed here, measured platforms against
 * the speed function they measured, and the chain at scale (its two exact methods, GLPK). */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff.h"
#include "solver_output.h"
#include "chain/chain.h"
#include "solver/solver.h"

/* Agreement asked of glpsol (GLPK's default tolerances, the model read from text); past
 * it, of glpsol --exact within DIFF_GLPSOL_EXACT, or where that finds nothing, of glpsol
 * within DIFF_GLPSOL_LOOSE (its floating simplex on magnitudes far apart). */
#define DIFF_GLPSOL_TOL 1e-7
#define DIFF_GLPSOL_LOOSE 1e-5
/* glp_exact's own figure is off by up to about 1e-9 (doc/NUMERICS.md: 1.2e-9 below the
 * optimum on a one-processor star; 2.2e-9 on an export of 11 processors with limits
 * holding the load, where the library's rational certificate agrees with the chain). */
#define DIFF_GLPSOL_EXACT 1e-8
/* Agreement asked of the multi-installment LP's replay (its check_tol). */
#define DIFF_INSTALLMENT_TOL 1e-6

/* ---------------------------------------------------------------------------------- */
/* The referee: a schedule and a partition, as the commands give them, verified valid and
 * optimal for their own order. */

static dls_claim *schedule_claim(const dls_platform *pl, const dls_schedule *s, double V)
{
    dls_claim *cl = NULL;
    dls_error err;
    if (dls_claim_create(pl, DLS_CLAIM_SCHEDULE, &cl, &err) != DLS_OK)
        return NULL;
    size_t p = dls_platform_count(pl), used = 0, *order = malloc(p * sizeof *order);
    const double *x = dls_schedule_loads(s), *fin = dls_schedule_finish(s);
    const size_t *seq = dls_schedule_sequence(s);
    for (size_t i = 0; i < p; i++)
        dls_claim_set(cl, i, x[i], x[i] > 0 ? dls_schedule_send_start(s)[i] : NAN,
                      x[i] > 0 ? dls_schedule_send_end(s)[i] : NAN, NAN,
                      x[i] > 0 ? fin[i] : NAN, &err);
    for (size_t k = 0; order && k < p; k++)
        if (x[seq[k]] > 0)
            order[used++] = seq[k];
    if (order)
        dls_claim_set_order(cl, order, used, &err);
    free(order);
    dls_claim_set_total(cl, V, &err);
    dls_claim_set_makespan(cl, dls_schedule_makespan(s), &err);
    return cl;
}

static void verify_schedule(diff_case *c, const dls_platform *pl, double V, dls_star_solver sv)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = sv;
    dls_schedule *s = NULL;
    dls_error err;
    if (dls_schedule_solve(pl, V, &par, &s, &err) != DLS_OK) {
        diff_fail(c, "the schedule (%s) failed: %s", dls_star_solver_name(sv), err.message);
        return;
    }
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        dls_schedule_free(s);
        return;
    }
    dls_claim *cl = schedule_claim(pl, s, V);
    dls_verification *v = NULL;
    if (cl == NULL || dls_schedule_verify(pl, cl, NULL, &v, &err) != DLS_OK) {
        diff_fail(c, "verify of the %s schedule failed: %s", dls_star_solver_name(sv),
                  err.message);
    } else if (!dls_verification_valid(v)) {
        diff_fail(c, "verify calls the %s schedule invalid: %s", dls_star_solver_name(sv),
                  dls_verification_violation(v, 0)->text);
    } else {
        dls_verify_quality q;
        dls_verification_get_quality(v, &q);
        if (!diff_close(q.makespan, dls_schedule_makespan(s), 1e-9))
            diff_fail(c, "verify replays the %s schedule to %.17g, it says %.17g",
                      dls_star_solver_name(sv), q.makespan, dls_schedule_makespan(s));
        /* the chain's schedule is the best set of processors for the send order (verify's
         * other optima, in other orders, may be better) */
        if (sv == DLS_SOLVER_CHAIN && dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL &&
            q.proven && !diff_close(q.makespan, q.selection_optimum, 1e-9))
            diff_fail(c, "verify's best set for the send order takes %.17g, the chain's "
                      "optimum %.17g", q.selection_optimum, q.makespan);
    }
    dls_verification_free(v);
    dls_claim_free(cl);
    dls_schedule_free(s);
}

static void verify_partition(diff_case *c, const dls_platform *pl, double V)
{
    uint64_t n = (uint64_t)fmin(fmax(1, floor(V)), 9007199254740992.0);
    dls_partition *part = NULL;
    dls_error err;
    if (dls_partition_solve(pl, n, NULL, &part, &err) != DLS_OK) {
        diff_fail(c, "the partition failed: %s", err.message);
        return;
    }
    if (dls_partition_status(part) == DLS_SOLUTION_INFEASIBLE) {
        dls_partition_free(part);
        return;
    }
    dls_claim *cl = NULL;
    dls_verification *v = NULL;
    dls_claim_create(pl, DLS_CLAIM_PARTITION, &cl, &err);
    for (size_t i = 0; cl && i < dls_platform_count(pl); i++)
        dls_claim_set(cl, i, (double)dls_partition_elements(part)[i], NAN, NAN, NAN,
                      dls_partition_times(part)[i], &err);
    if (cl)
        dls_claim_set_total(cl, (double)n, &err);
    if (cl == NULL || dls_partition_verify(pl, cl, NULL, &v, &err) != DLS_OK) {
        diff_fail(c, "verify of the partition failed: %s", err.message);
    } else if (!dls_verification_valid(v)) {
        diff_fail(c, "verify calls the partition invalid: %s",
                  dls_verification_violation(v, 0)->text);
    } else {
        dls_verify_quality q;
        dls_verification_get_quality(v, &q);
        if (dls_partition_status(part) == DLS_SOLUTION_OPTIMAL && q.proven &&
            q.gap_percent > 1e-7)
            diff_fail(c, "verify finds the partition's optimum %.3g%% above the best it knows",
                      q.gap_percent);
    }
    dls_verification_free(v);
    dls_claim_free(cl);
    dls_partition_free(part);
}

void diff_path_verify(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 20), diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    if (pl) {
        verify_schedule(c, pl, sh.load, DLS_SOLVER_CHAIN);
        if (sh.m <= 20)
            verify_schedule(c, pl, sh.load, DLS_SOLVER_GLPK);
        verify_partition(c, pl, sh.load);
    }
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* Exports read back by glpsol: its optimum is the chain's paper LP. */

void diff_path_export(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_count(r, 30), diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    char dir[] = "/tmp/dls_diff_XXXXXX", path[256], args[700];
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.drop_unused = 0;
    dls_schedule *s = NULL;
    dls_error err;
    if (diff_glpsol[0] == '\0') {
        diff_skip(c, "glpsol not found");
    } else if (pl == NULL || mkdtemp(dir) == NULL) {
        diff_fail(c, "no platform or temporary directory");
    } else if (dls_schedule_solve(pl, sh.load, &par, &s, &err) != DLS_OK) {
        diff_fail(c, "the paper's LP failed: %s", err.message);
        rmdir(dir);
    } else {
        double want = dls_schedule_lp_makespan(s);
        static const dls_export_format fmt[] = {DLS_EXPORT_MPS, DLS_EXPORT_MATHPROG};
        int which = (int)diff_below(r, 2);
        snprintf(path, sizeof path, "%s/star.%s", dir, which ? "dat" : "mps");
        if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
            /* nothing to solve */
        } else if (dls_schedule_lp_write_file(pl, sh.load, &par, fmt[which], path, &err) != DLS_OK) {
            diff_fail(c, "the export failed: %s", err.message);
        } else {
            if (which)
                snprintf(args, sizeof args, "--nopresol -m %s/lp/star.mod -d %s", diff_top_srcdir,
                         path);
            else
                snprintf(args, sizeof args, "--nopresol --freemps %s -o /dev/stdout", path);
            const char *pattern = which ? "makespan " : "Objective:  makespan = ";
            double unit = which ? 1 : test_mps_time_unit(path); /* MathProg prints seconds */
            double got = test_glpsol_value(diff_glpsol, args, pattern) * unit;
            if (isnan(got) || !diff_close(got, want, DIFF_GLPSOL_TOL)) {
                /* glpsol's simplex in doubles, on platforms of magnitudes far apart, ends
                 * 1e-6 off: its exact simplex on the same file decides */
                char exact[800];
                snprintf(exact, sizeof exact, "--exact %s", args);
                double e = test_glpsol_value(diff_glpsol, exact, pattern) * unit;
                /* glp_exact reads the decimals as rationals and was seen to call such LPs
                 * infeasible (DIFF_GLPSOL_LOOSE: glpsol's floating answer then) */
                if (isnan(e) && isnan(got))
                    /* glpsol's simplex called a few LPs whose limits hold the load exactly
                     * infeasible, and glp_exact read their decimals so too */
                    diff_skip(c, "glpsol gave no optimum (%s), nor glpsol --exact",
                              which ? "MathProg" : "MPS");
                else if (isnan(e) ? !diff_close(got, want, DIFF_GLPSOL_LOOSE)
                                  : !diff_close(e, want, DIFF_GLPSOL_EXACT))
                    diff_fail(c, "glpsol solves the %s export to %.17g (exactly: %.17g), the "
                              "chain %.17g", which ? "MathProg" : "MPS", got, e, want);
            }
        }
        unlink(path);
        rmdir(dir);
    }
    dls_schedule_free(s);
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* Multi-installment LPs: every chunk replayed here (one send at a time in the LP's order,
 * each processor computing its chunks in turn once arrived and released) finishes when the
 * schedule says, and the last when its makespan says. */

static void installment_replay(diff_case *c, const dls_platform *pl, const dls_installment *s)
{
    size_t p = dls_platform_count(pl);
    double clock = 0, *free_at = calloc(p, sizeof *free_at), makespan = 0;
    uint64_t n = dls_installment_chunks(s);
    for (size_t i = 0; free_at && i < p; i++)
        free_at[i] = dls_platform_release(pl, i);
    for (uint64_t k = 0; free_at && k < n && c->failures == 0; k++) {
        dls_installment_event e;
        dls_error err;
        if (dls_installment_event_at(s, k, &e, &err) != DLS_OK) {
            diff_fail(c, "chunk %llu: %s", (unsigned long long)k, err.message);
            break;
        }
        double S = 0, C = 0;
        if (dls_platform_has_link(pl, e.processor))
            dls_platform_link(pl, e.processor, &S, &C);
        clock += S + C * e.size;
        double start = fmax(clock, free_at[e.processor]);
        /* a chunk the LP leaves empty is still charged, in the LP's model, its startup and
         * its processor's time at size 0+ */
        const dls_model *md = dls_platform_model(pl, e.processor);
        free_at[e.processor] = start + (e.size > 0 ? dls_model_time(md, e.size)
                                                   : diff_least_time(md));
        makespan = fmax(makespan, free_at[e.processor]);
        if (!diff_close(free_at[e.processor], e.compute_end, DIFF_INSTALLMENT_TOL) &&
            fabs(free_at[e.processor] - e.compute_end) > DIFF_INSTALLMENT_TOL * makespan)
            diff_fail(c, "chunk %llu of %.17g units on processor %zu: it ends at %.17g, the "
                      "replay here %.17g", (unsigned long long)k, e.size, e.processor,
                      e.compute_end, free_at[e.processor]);
    }
    if (c->failures == 0 && !diff_close(makespan, dls_installment_makespan(s), DIFF_INSTALLMENT_TOL))
        diff_fail(c, "the installments' makespan %.17g, the replay here %.17g",
                  dls_installment_makespan(s), makespan);
    free(free_at);
}

void diff_path_installments(diff_rng *r, diff_case *c)
{
    /* time lines and constants (the LP's lines are then the true times), links on all */
    diff_shape sh = {1 + (size_t)diff_below(r, 4), diff_load(r), 0, 1, 0, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    dls_error err;
    for (size_t i = 0; pl && i < sh.m; i++) {
        if (!dls_platform_has_link(pl, i))
            dls_platform_set_link(pl, i, 1e-3, 1e-6, &err);
        if (diff_chance(r, 0.3))
            dls_platform_set_release(pl, i, diff_log(r, 1e-4, 10), &err);
    }
    dls_installment_lp_params par;
    dls_installment_lp_params_init(&par);
    par.max_lps = 40;
    par.time_limit = 5;
    dls_installment *s = NULL;
    dls_status st = pl ? dls_installment_solve_lp(pl, sh.load, &par, &s, &err) : DLS_ENOMEM;
    if (st == DLS_ELIMIT || st == DLS_ESOLVER)
        diff_skip(c, "installments --lp: %s", err.message);
    else if (st != DLS_OK)
        diff_fail(c, "installments --lp failed: %s", err.message);
    else
        installment_replay(c, pl, s);
    dls_installment_free(s);
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* Measured platforms: a simulated processor of a known speed function (no noise), measured
 * by the adaptive build; every size measured is the true speed, every point the model
 * keeps is, and where the build converged the model predicts every size it measured
 * within its accuracy. */

void diff_path_bench(diff_rng *r, diff_case *c)
{
    diff_shape sh = {1, diff_log(r, 1e3, 1e9), 1, 0, 0, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    const dls_model *truth = pl ? dls_platform_model(pl, 0) : NULL;
    dls_kernel k;
    dls_error err;
    dls_bench_params par;
    dls_bench_params_init(&par);
    par.min_size = sh.load * 1e-4;
    par.max_size = sh.load;
    par.max_points = 8 + diff_below(r, 24);
    dls_bench *b = NULL;
    if (truth == NULL || dls_model_kernel_create(truth, 0, 0, &k, &err) != DLS_OK) {
        diff_fail(c, "no simulated kernel: %s", truth ? err.message : "no platform");
    } else {
        if (dls_bench_build(&k, &par, &b, &err) != DLS_OK) {
            diff_fail(c, "the build failed: %s", err.message);
        } else {
            size_t n;
            const dls_bench_point *pt = dls_bench_points(b, &n);
            const dls_model *model = dls_bench_model(b);
            int converged = dls_bench_stopped(b) == DLS_BENCH_CONVERGED;
            /* every size measured is the truth (no noise); the model's own points too; a
             * size it dropped (it keeps at most dls_bench_params::model_points) is held
             * within its accuracy only where the build converged before pruning, which the
             * build does not promise: not checked */
            size_t nk;
            const double *ks, *kv;
            dls_model_get_points(model, &nk, &ks, &kv, NULL, NULL);
            for (size_t i = 0; i < n && c->failures == 0; i++) {
                double want = dls_model_speed(truth, pt[i].size);
                if (!diff_close(pt[i].speed, want, 1e-9))
                    diff_fail(c, "size %.17g: measured %.17g, the true speed %.17g",
                              pt[i].size, pt[i].speed, want);
            }
            for (size_t j = 0; j < nk && c->failures == 0; j++) {
                double want = dls_model_speed(truth, ks[j]);
                if (!diff_close(kv[j], want, 1e-9))
                    diff_fail(c, "the model's point at %.17g: %.17g, the true speed %.17g",
                              ks[j], kv[j], want);
            }
            (void)converged;
        }
        dls_kernel_free(&k);
    }
    dls_bench_free(b);
    diff_done(c, pl);
}

/* ---------------------------------------------------------------------------------- */
/* At scale (1,000 to 10^4 processors): the chain's two exact methods for the paper's LP
 * (the backward sweep of value functions, policy iteration) agree and replay, its
 * selection is no longer, and GLPK agrees up to 1,000 processors. */

static double chain_method(const dls__star *st, dls__chain_mode mode, dls__chain_paper_method meth,
                           const char **why)
{
    dls__chain_params par;
    dls__chain_params_init(&par);
    par.mode = mode;
    par.paper_method = meth;
    dls__chain_answer a;
    static dls_error err;
    if (dls__chain_solve(st, &par, &a, &err) != DLS_OK) {
        *why = err.message;
        return NAN;
    }
    double T = a.infeasible ? INFINITY : a.makespan;
    dls__chain_answer_free(&a);
    return T;
}

void diff_path_scale(diff_rng *r, diff_case *c)
{
    diff_shape sh = {diff_chance(r, 0.3) ? 10000 : 1000, diff_load(r), 1, 1, 1, 1, 0};
    dls_platform *pl = diff_case_platform(r, &sh, c);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = diff_chance(r, 0.5) ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
    sp.drop_unused = 0;
    dls__star st;
    char *note = NULL;
    dls_error err;
    dls__star_opts so = dls__star_opts_from_params(&sp);
    if (pl == NULL || dls__star_build(pl, sh.load, &so, 1, &st, &note, &err) != DLS_OK) {
        diff_fail(c, "no star: %s", pl ? err.message : "no platform");
        diff_done(c, pl);
        return;
    }
    free(note);
    const char *why = "";
    double sweep = chain_method(&st, DLS__CHAIN_PAPER, DLS__CHAIN_PAPER_SWEEP, &why);
    double policy = chain_method(&st, DLS__CHAIN_PAPER, DLS__CHAIN_PAPER_POLICY, &why);
    double sel = chain_method(&st, DLS__CHAIN_SELECT, DLS__CHAIN_PAPER_AUTO, &why);
    if (isnan(sweep) || isnan(policy) || isnan(sel))
        diff_fail(c, "the chain failed at scale: %s", why);
    else if (!diff_close(sweep, policy, 1e-9))
        diff_fail(c, "the paper's LP: the sweep %.17g, policy iteration %.17g", sweep, policy);
    else if (!(sel <= sweep * (1 + 1e-9)))
        diff_fail(c, "the selection %.17g is longer than the paper's LP %.17g", sel, sweep);
    if (c->failures == 0 && sh.m <= 1000 && isfinite(sweep)) {
        dls__lp_answer la;
        memset(&la, 0, sizeof la);
        if (dls__lp_solve_star(&st, &so, &la, &err) != DLS_OK) {
            diff_skip(c, "GLPK at scale: %s", err.message);
        } else if (!diff_close(la.cmax, sweep, 1e-9)) {
            /* GLPK's simplex in doubles at 1,000 processors of magnitudes far apart ends
             * 1e-9 off: its exact simplex decides (seconds at this size, and rare) */
            dls_schedule_params ep = sp;
            ep.solver = DLS_SOLVER_GLPK;
            ep.exact = 1;
            dls_schedule *e = NULL;
            double exact = NAN;
            if (dls_schedule_solve(pl, sh.load, &ep, &e, &err) == DLS_OK &&
                dls_schedule_exact_confirmed(e))
                exact = dls_schedule_lp_makespan(e);
            dls_schedule_free(e);
            if (!diff_close(exact, sweep, 1e-11))
                diff_fail(c, "the paper's LP at scale: the chain %.17g, GLPK %.17g (exactly: "
                          "%.17g)", sweep, la.cmax, exact);
        }
        free(la.alpha);
        free(la.active);
    }
    dls__star_free(&st);
    diff_done(c, pl);
}
