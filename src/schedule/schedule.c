/* The divisible-load scheduler's API: parameters, the star model built from a platform
 * (send order, time lines, envelopes of speed models), the exact replay of loads through
 * it, evaluation of given loads, and the schedule object. The LP itself is in lp_star.c. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_impl.h"
#include "schedule/schedule_impl.h"

/* Default relative tolerance of the answer checks. */
#define DLS_SCHEDULE_DEFAULT_CHECK_TOL 1e-9
/* Largest check tolerance accepted: beyond it a check would not catch wrong optima. */
#define DLS_SCHEDULE_MAX_CHECK_TOL 1e-3

void dls_schedule_params_init(dls_schedule_params *params)
{
    memset(params, 0, sizeof *params);
    params->order = DLS_ORDER_GIVEN;
    params->use_limits = 1;
    params->drop_unused = 1;
    params->check_tol = DLS_SCHEDULE_DEFAULT_CHECK_TOL;
    dls_envelope_params_init(&params->envelope);
}

static dls_status check_params(const dls_schedule_params *par, dls_error *err)
{
    if (par->order != DLS_ORDER_GIVEN && par->order != DLS_ORDER_RATE)
        return dls__fail(err, DLS_EINVAL, "schedule: unknown send order %d", (int)par->order);
    const int *flags[] = {&par->originator_computes, &par->use_limits, &par->drop_unused,
                          &par->exact, &par->verbose};
    const char *names[] = {"originator_computes", "use_limits", "drop_unused", "exact", "verbose"};
    for (int k = 0; k < 5; k++)
        if (*flags[k] != 0 && *flags[k] != 1)
            return dls__fail(err, DLS_EINVAL, "schedule: %s must be 0 or 1, not %d", names[k],
                             *flags[k]);
    if (!(par->check_tol > 0 && par->check_tol <= DLS_SCHEDULE_MAX_CHECK_TOL))
        return dls__fail(err, DLS_EINVAL, "schedule: check_tol must be in (0, %g], not %.10g",
                         DLS_SCHEDULE_MAX_CHECK_TOL, par->check_tol);
    if (!(par->envelope.rel_tol > 0 && par->envelope.rel_tol < 1) || par->envelope.max_lines < 2)
        return dls__fail(err, DLS_EINVAL, "schedule: bad envelope parameters (rel_tol %.10g, "
                         "max_lines %zu)", par->envelope.rel_tol, par->envelope.max_lines);
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The star model                                                                     */

void dls__star_free(dls__star *st)
{
    free(st->proc);
    free(st->S);
    free(st->C);
    free(st->B);
    free(st->off);
    free(st->a);
    free(st->b);
    free(st->from_speed);
    free(st->model);
    memset(st, 0, sizeof *st);
}

/* Stable sort of positions [from, m) by increasing link rate. */
static void sort_by_rate(size_t *proc, size_t from, size_t m, const dls_platform *pl)
{
    for (size_t i = from + 1; i < m; i++) {
        size_t v = proc[i], j = i;
        while (j > from && pl->procs[proc[j - 1]].rate > pl->procs[v].rate) {
            proc[j] = proc[j - 1];
            j--;
        }
        proc[j] = v;
    }
}

/* need_lines: 0 for evaluations, which use the true models (no envelope). */
static dls_status star_build(const dls_platform *pl, double V, const dls_schedule_params *par,
                             int need_lines, dls__star *st, char **note, dls_error *err)
{
    size_t m = pl->n;
    memset(st, 0, sizeof *st);
    st->m = m;
    st->V = V;
    st->proc = malloc(m * sizeof *st->proc);
    st->S = malloc(m * sizeof *st->S);
    st->C = malloc(m * sizeof *st->C);
    st->B = malloc(m * sizeof *st->B);
    st->off = malloc((m + 1) * sizeof *st->off);
    st->from_speed = calloc(m, sizeof *st->from_speed);
    st->model = malloc(m * sizeof *st->model);
    if (!st->proc || !st->S || !st->C || !st->B || !st->off || !st->from_speed || !st->model) {
        dls__star_free(st);
        return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
    }
    /* the sequence: the originator's own processors first when it computes */
    size_t k = 0;
    if (par->originator_computes)
        for (size_t i = 0; i < m; i++)
            if (!pl->procs[i].has_link)
                st->proc[k++] = i;
    size_t first_worker = k;
    for (size_t i = 0; i < m; i++)
        if (!par->originator_computes || pl->procs[i].has_link)
            st->proc[k++] = i;
    if (par->order == DLS_ORDER_RATE)
        sort_by_rate(st->proc, first_worker, m, pl);

    /* time lines of every position */
    size_t cap_lines = 0, nlines = 0;
    dls_status stc = DLS_OK;
    for (k = 0; k < m && stc == DLS_OK; k++) {
        const dls__proc *pr = &pl->procs[st->proc[k]];
        st->S[k] = pr->startup;
        st->C[k] = pr->rate;
        st->B[k] = par->use_limits ? pr->limit : INFINITY;
        st->model[k] = pr->model;
        st->off[k] = nlines;
        if (pr->two_d) {
            stc = dls__fail_at(err, DLS_EINVAL, 0, 0, (long)st->proc[k],
                               "schedule: processor \"%s\" has a 2-D speed model: the scheduler "
                               "needs a speed or time function of one size (take a section)",
                               pr->name);
            break;
        }
        dls_model *env = NULL;
        size_t nl;
        const double *la, *lb;
        if (pr->model->kind == DLS_MODEL_TIME_LINES) {
            dls_model_get_lines(pr->model, &nl, &la, &lb);
        } else if (!need_lines) {
            nl = 0;
            la = lb = NULL;
        } else {
            dls_envelope_info info;
            double xmax = fmin(st->B[k], V);
            stc = dls_model_convex_envelope(pr->model, xmax, &par->envelope, &env, &info, err);
            if (stc != DLS_OK)
                break;
            dls_model_get_lines(env, &nl, &la, &lb);
            st->from_speed[k] = 1;
            st->envelope_dev = fmax(st->envelope_dev, info.max_rel_dev);
            if (!info.convex)
                dls__note_add(note,
                              "processor \"%s\": its time x/s(x) is not convex up to %.6g; the LP "
                              "uses its convex envelope, which is up to %.3g%% faster (at size "
                              "%.6g); the true models' makespan is reported too",
                              pr->name, xmax, 100 * info.max_rel_dev, info.at);
            else if (info.truncated)
                dls__note_add(note,
                              "processor \"%s\": its time function is approximated by %zu lines "
                              "within %.3g%%", pr->name, nl, 100 * info.max_rel_dev);
        }
        if (nlines + nl > cap_lines) {
            size_t cap = 2 * (nlines + nl) + 16;
            double *na = realloc(st->a, cap * sizeof *na);
            if (na)
                st->a = na;
            double *nb = na ? realloc(st->b, cap * sizeof *nb) : NULL;
            if (nb)
                st->b = nb;
            if (na == NULL || nb == NULL) {
                dls_model_free(env);
                stc = dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
                break;
            }
            cap_lines = cap;
        }
        if (nl > 0) {
            memcpy(st->a + nlines, la, nl * sizeof *la);
            memcpy(st->b + nlines, lb, nl * sizeof *lb);
        }
        nlines += nl;
        dls_model_free(env);
    }
    if (stc != DLS_OK) {
        dls__star_free(st);
        return stc;
    }
    st->off[m] = nlines;
    return DLS_OK;
}

dls_status dls__star_build(const dls_platform *pl, double V, const dls_schedule_params *par,
                           dls__star *st, char **note, dls_error *err)
{
    return star_build(pl, V, par, 1, st, note, err);
}

double dls__replay(const dls__star *st, const double *alpha, const unsigned char *active,
                   int charge_unused, int true_models, double *send_start, double *send_end,
                   double *compute, double *finish, int *level)
{
    double clock = 0, makespan = 0;
    for (size_t k = 0; k < st->m; k++) {
        double x = alpha[k];
        int used = (active == NULL || active[k]) && (x > 0 || charge_unused);
        double ss = NAN, se = NAN, ct = 0, fin = 0;
        int lvl = 0;
        if (used) {
            ss = clock;
            se = clock + st->S[k] + st->C[k] * x;
            clock = se;
            /* the line on top: the binding memory level */
            double top = -INFINITY;
            for (size_t l = st->off[k]; l < st->off[k + 1]; l++) {
                double v = st->a[l] + st->b[l] * x;
                if (v > top) {
                    top = v;
                    lvl = (int)(l - st->off[k]) + 1;
                }
            }
            if (true_models)
                ct = x > 0 ? dls_model_time(st->model[k], x) : 0;
            else
                ct = top > 0 ? top : 0;
            if (st->from_speed[k] || x <= 0)
                lvl = 0;
            fin = se + ct;
            if (fin > makespan)
                makespan = fin;
        }
        if (send_start)
            send_start[k] = ss;
        if (send_end)
            send_end[k] = se;
        if (compute)
            compute[k] = ct;
        if (finish)
            finish[k] = fin;
        if (level)
            level[k] = lvl;
    }
    return makespan;
}

/* ---------------------------------------------------------------------------------- */
/* The schedule object                                                                */

void dls_schedule_free(dls_schedule *s)
{
    if (s == NULL)
        return;
    free(s->note);
    free(s->load);
    free(s->send_start);
    free(s->send_end);
    free(s->compute);
    free(s->finish);
    free(s->idle);
    free(s->level);
    free(s->seq);
    free(s);
}

dls_schedule *dls__schedule_alloc(size_t p, double V)
{
    dls_schedule *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->p = p;
    s->V = V;
    s->load = calloc(p, sizeof *s->load);
    s->send_start = calloc(p, sizeof *s->send_start);
    s->send_end = calloc(p, sizeof *s->send_end);
    s->compute = calloc(p, sizeof *s->compute);
    s->finish = calloc(p, sizeof *s->finish);
    s->idle = calloc(p, sizeof *s->idle);
    s->level = calloc(p, sizeof *s->level);
    s->seq = calloc(p, sizeof *s->seq);
    if (!s->load || !s->send_start || !s->send_end || !s->compute || !s->finish || !s->idle ||
        !s->level || !s->seq) {
        dls_schedule_free(s);
        return NULL;
    }
    for (size_t i = 0; i < p; i++)
        s->send_start[i] = s->send_end[i] = NAN;
    s->lp_makespan = s->rounded_makespan = s->mip_makespan = s->mip_bound = NAN;
    s->lp_true_makespan = NAN;
    s->mip_seconds = NAN;
    s->mip_status = -1;
    return s;
}

/* Fills the per-processor timeline from loads by position. */
dls_status dls__fill_timeline(dls_schedule *s, const dls__star *st, const double *alpha,
                                const unsigned char *active, int charge_unused, int true_models,
                                dls_error *err)
{
    size_t m = st->m;
    double *buf = malloc(4 * m * sizeof *buf);
    int *lvl = malloc(m * sizeof *lvl);
    if (buf == NULL || lvl == NULL) {
        free(buf);
        free(lvl);
        return dls__fail(err, DLS_ENOMEM, "schedule: out of memory");
    }
    double mk = dls__replay(st, alpha, active, charge_unused, true_models, buf, buf + m,
                            buf + 2 * m, buf + 3 * m, lvl);
    for (size_t k = 0; k < m; k++) {
        size_t i = st->proc[k];
        s->seq[k] = i;
        s->load[i] = alpha[k] > 0 ? alpha[k] : 0;
        s->send_start[i] = buf[k];
        s->send_end[i] = buf[m + k];
        s->compute[i] = buf[2 * m + k];
        s->finish[i] = buf[3 * m + k];
        s->level[i] = lvl[k];
    }
    s->makespan = mk;
    free(buf);
    free(lvl);
    return DLS_OK;
}

void dls__fill_idle(dls_schedule *s)
{
    for (size_t i = 0; i < s->p; i++)
        s->idle[i] = isfinite(s->makespan) ? fmax(0, s->makespan - s->finish[i]) : 0;
}

dls_status dls__schedule_check(const dls_platform *pl, dls_schedule **out,
                               const dls_schedule_params *par, const char *fn, dls_error *err)
{
    if (pl == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "%s: NULL argument", fn);
    if (pl->n == 0)
        return dls__fail(err, DLS_EINVAL, "%s: the platform has no processor", fn);
    return check_params(par, err);
}

dls_status dls_schedule_solve(const dls_platform *platform, double load,
                              const dls_schedule_params *params, dls_schedule **out,
                              dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_solve", err);
    if (st != DLS_OK)
        return st;
    if (!isfinite(load) || load <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_solve: the load must be a finite number "
                         "> 0, not %.10g", load);
    dls_schedule *s = dls__schedule_alloc(platform->n, load);
    if (s == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_solve: out of memory");
    s->capacity = 0;
    for (size_t i = 0; i < platform->n; i++)
        s->capacity += params->use_limits ? platform->procs[i].limit : INFINITY;
    dls__star star;
    st = dls__star_build(platform, load, params, &star, &s->note, err);
    if (st != DLS_OK) {
        dls_schedule_free(s);
        return st;
    }
    s->envelope_dev = star.envelope_dev;
    if (s->capacity < load) {
        s->status = DLS_SOLUTION_INFEASIBLE;
        s->makespan = s->paper_makespan = s->true_makespan = INFINITY;
        for (size_t k = 0; k < star.m; k++)
            s->seq[k] = star.proc[k];
        dls__note_add(&s->note, "infeasible: the limits hold a load of at most %.10g, less than "
                      "the %.10g to distribute", s->capacity, load);
        dls__star_free(&star);
        *out = s;
        return DLS_OK;
    }
    dls__lp_answer ans;
    memset(&ans, 0, sizeof ans);
    st = dls__lp_solve_star(&star, params, &ans, err);
    if (st == DLS_OK) {
        /* the timeline the LP describes: the paper's charges idle processors when kept */
        st = dls__fill_timeline(s, &star, ans.alpha, ans.active, !params->drop_unused, 0, err);
    }
    if (st == DLS_OK) {
        s->status = DLS_SOLUTION_OPTIMAL;
        s->makespan = ans.cmax;
        s->lp_makespan = ans.cmax;
        s->paper_makespan = ans.paper_cmax;
        s->true_makespan = dls__replay(&star, ans.alpha, ans.active, !params->drop_unused, 1,
                                       NULL, NULL, NULL, NULL, NULL);
        s->residual = ans.residual;
        s->kkt_pe = ans.kkt_pe;
        s->kkt_de = ans.kkt_de;
        s->iterations = ans.iterations;
        s->solves = ans.solves;
        s->exact = ans.exact;
        dls__fill_idle(s);
        size_t dropped = 0;
        for (size_t k = 0; k < star.m; k++)
            dropped += !ans.active[k];
        if (dropped > 0)
            dls__note_add(&s->note, "%zu processor%s got no load and %s sent nothing; the "
                          "paper's LP, which charges every processor its startup, gives %.10g s",
                          dropped, dropped == 1 ? "" : "s", dropped == 1 ? "is" : "are",
                          ans.paper_cmax);
    }
    free(ans.alpha);
    free(ans.active);
    dls__star_free(&star);
    if (st != DLS_OK) {
        dls_schedule_free(s);
        return st;
    }
    *out = s;
    return DLS_OK;
}

dls_status dls_schedule_evaluate(const dls_platform *platform, const double *loads,
                                 const dls_schedule_params *params, dls_schedule **out,
                                 dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__schedule_check(platform, out, params, "dls_schedule_evaluate", err);
    if (st != DLS_OK)
        return st;
    if (loads == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_evaluate: NULL loads");
    double V = 0;
    for (size_t i = 0; i < platform->n; i++) {
        const dls__proc *pr = &platform->procs[i];
        if (!isfinite(loads[i]) || loads[i] < 0)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_schedule_evaluate: "
                                "processor \"%s\": the load must be a finite number >= 0, not "
                                "%.10g", pr->name, loads[i]);
        if (params->use_limits && loads[i] > pr->limit)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, "dls_schedule_evaluate: "
                                "processor \"%s\": the load %.10g exceeds its limit %.10g",
                                pr->name, loads[i], pr->limit);
        V += loads[i];
    }
    dls_schedule *s = dls__schedule_alloc(platform->n, V);
    if (s == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_schedule_evaluate: out of memory");
    dls__star star;
    st = star_build(platform, V, params, 0, &star, &s->note, err);
    double *alpha = NULL;
    if (st == DLS_OK) {
        alpha = calloc(star.m, sizeof *alpha);
        if (alpha == NULL)
            st = dls__fail(err, DLS_ENOMEM, "dls_schedule_evaluate: out of memory");
    }
    if (st == DLS_OK) {
        for (size_t k = 0; k < star.m; k++)
            alpha[k] = loads[star.proc[k]];
        st = dls__fill_timeline(s, &star, alpha, NULL, 0, 1, err);
    }
    if (st == DLS_OK) {
        s->status = DLS_SOLUTION_FEASIBLE;
        s->paper_makespan = s->true_makespan = s->makespan;
        s->capacity = 0;
        for (size_t i = 0; i < platform->n; i++)
            s->capacity += params->use_limits ? platform->procs[i].limit : INFINITY;
        dls__fill_idle(s);
    }
    free(alpha);
    if (star.proc)
        dls__star_free(&star);
    if (st != DLS_OK) {
        dls_schedule_free(s);
        return st;
    }
    *out = s;
    return DLS_OK;
}

dls_status dls_schedule_export(const dls_platform *platform, double load,
                               const dls_schedule_params *params, dls_export_format format,
                               const char *path, dls_error *err)
{
    dls_schedule_params defaults;
    if (params == NULL) {
        dls_schedule_params_init(&defaults);
        params = &defaults;
    }
    if (platform == NULL || path == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_export: NULL argument");
    if (platform->n == 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_export: the platform has no processor");
    dls_status st = check_params(params, err);
    if (st != DLS_OK)
        return st;
    if (!isfinite(load) || load <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_export: the load must be a finite "
                         "number > 0, not %.10g", load);
    if (format < DLS_EXPORT_LP || format > DLS_EXPORT_MATHPROG)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_export: unknown format %d", (int)format);
    dls__star star;
    char *note = NULL;
    st = dls__star_build(platform, load, params, &star, &note, err);
    free(note);
    if (st != DLS_OK)
        return st;
    st = dls__lp_write(&star, platform, params->verbose, format, path, err);
    dls__star_free(&star);
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* Accessors                                                                          */

dls_solution_status dls_schedule_status(const dls_schedule *s) { return s->status; }
const char *dls_schedule_note(const dls_schedule *s) { return s->note ? s->note : ""; }
size_t dls_schedule_count(const dls_schedule *s) { return s->p; }
double dls_schedule_load(const dls_schedule *s) { return s->V; }
double dls_schedule_makespan(const dls_schedule *s) { return s->makespan; }
double dls_schedule_paper_makespan(const dls_schedule *s) { return s->paper_makespan; }
double dls_schedule_true_makespan(const dls_schedule *s) { return s->true_makespan; }
double dls_schedule_envelope_deviation(const dls_schedule *s) { return s->envelope_dev; }
const double *dls_schedule_loads(const dls_schedule *s) { return s->load; }
const double *dls_schedule_send_start(const dls_schedule *s) { return s->send_start; }
const double *dls_schedule_send_end(const dls_schedule *s) { return s->send_end; }
const double *dls_schedule_compute_time(const dls_schedule *s) { return s->compute; }
const double *dls_schedule_finish(const dls_schedule *s) { return s->finish; }
const double *dls_schedule_idle(const dls_schedule *s) { return s->idle; }
const int *dls_schedule_levels(const dls_schedule *s) { return s->level; }
const size_t *dls_schedule_sequence(const dls_schedule *s) { return s->seq; }
unsigned dls_schedule_iterations(const dls_schedule *s) { return s->iterations; }
unsigned dls_schedule_solves(const dls_schedule *s) { return s->solves; }
double dls_schedule_residual(const dls_schedule *s) { return s->residual; }
double dls_schedule_kkt_primal(const dls_schedule *s) { return s->kkt_pe; }
double dls_schedule_kkt_dual(const dls_schedule *s) { return s->kkt_de; }
int dls_schedule_exact_verified(const dls_schedule *s) { return s->exact; }
double dls_schedule_capacity(const dls_schedule *s) { return s->capacity; }
double dls_schedule_lp_makespan(const dls_schedule *s) { return s->lp_makespan; }
double dls_schedule_lp_true_makespan(const dls_schedule *s) { return s->lp_true_makespan; }
double dls_schedule_rounded_makespan(const dls_schedule *s) { return s->rounded_makespan; }
double dls_schedule_mip_makespan(const dls_schedule *s) { return s->mip_makespan; }
double dls_schedule_mip_bound(const dls_schedule *s) { return s->mip_bound; }
double dls_schedule_mip_seconds(const dls_schedule *s) { return s->mip_seconds; }
int dls_schedule_mip_status(const dls_schedule *s) { return s->mip_status; }
