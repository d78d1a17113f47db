/* The star problem built from a platform (send order, time lines, envelopes of speed
 * models) and the exact replay of loads through it. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "platform/platform_impl.h"
#include "core/grow.h"
#include "core/sort.h"
#include "star/star.h"

/* Stretched limits exceed the load by this much more (relative), so that the rounding of
 * their sum cannot leave them short again; never beyond the rule itself (a load stays within
 * its limit under dls__within; a shortfall left then is the solvers' rounding). */
#define DLS__STAR_STRETCH_MARGIN 0x1p-40

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

/* Sorts positions [from, m) by increasing link rate, equal rates in platform order (the
 * order of proc before the sort, which is increasing): O(m log m), where the insertion sort
 * it replaces took hours at 10^6 processors. Returns -1 when out of memory. */
static int sort_by_rate(size_t *proc, size_t from, size_t m, const dls_platform *pl)
{
    size_t n = m - from;
    if (n < 2)
        return 0;
    dls__keyed *key = malloc(n * sizeof *key);
    if (key == NULL)
        return -1;
    for (size_t i = 0; i < n; i++) {
        key[i].key = pl->procs[proc[from + i]].rate;
        key[i].index = proc[from + i];
    }
    dls__keyed_sort(key, n);
    for (size_t i = 0; i < n; i++)
        proc[from + i] = key[i].index;
    free(key);
    return 0;
}

dls_status dls__sequence_check(const dls_platform *pl, const size_t *seq, size_t count,
                               const char *fn, dls_error *err)
{
    size_t m = pl->n;
    if (seq == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "the order \"sequence\" needs the sequence (NULL)");
    if (count != m)
        return dls__fail(err, DLS_EINVAL, fn, "the sequence has %zu processor%s, the platform "
                         "%zu: give every processor once", count, count == 1 ? "" : "s", m);
    unsigned char *seen = calloc(m, 1);
    if (seen == NULL)
        return dls__oom(err, fn);
    dls_status st = DLS_OK;
    for (size_t k = 0; k < m && st == DLS_OK; k++) {
        if (seq[k] >= m)
            st = dls__fail(err, DLS_EINVAL, fn, "sequence entry %zu is %zu, not a processor "
                           "index (the platform has %zu)", k, seq[k], m);
        else if (seen[seq[k]]++)
            st = dls__fail_at(err, DLS_EINVAL, 0, 0, (long)seq[k], fn, "processor \"%s\" is "
                              "twice in the sequence (entry %zu)", pl->procs[seq[k]].name, k);
    }
    free(seen);
    return st;
}

dls__star_opts dls__star_opts_from_params(const dls_schedule_params *par)
{
    return (dls__star_opts){
        .order = par->order,
        .sequence = par->sequence,
        .sequence_count = par->sequence_count,
        .originator_computes = par->originator_computes,
        .use_limits = par->use_limits,
        .envelope = par->envelope,
        .drop_unused = par->drop_unused,
        .exact = par->exact,
        .verbose = par->verbose,
        .check_tol = par->check_tol,
        .time_limit = par->time_limit,
        .iteration_limit = par->iteration_limit,
        .progress = par->progress,
        .progress_data = par->progress_data,
    };
}

/* The send order into st->proc: the originator's own processors first when it computes,
 * then the others in the order asked. Returns -1 when out of memory. */
static int send_order(dls__star *st, const dls_platform *pl, const dls__star_opts *par)
{
    size_t m = st->m, k = 0;
    const size_t *seq = par->order == DLS_ORDER_SEQUENCE ? par->sequence : NULL;
    if (par->originator_computes)
        for (size_t j = 0; j < m; j++)
            if (!pl->procs[seq ? seq[j] : j].has_link)
                st->proc[k++] = seq ? seq[j] : j;
    size_t first_worker = k;
    for (size_t j = 0; j < m; j++)
        if (!par->originator_computes || pl->procs[seq ? seq[j] : j].has_link)
            st->proc[k++] = seq ? seq[j] : j;
    if (par->order == DLS_ORDER_RATE)
        return sort_by_rate(st->proc, first_worker, m, pl);
    return 0;
}

/* Limits that hold V only within the tolerance rule (seven limits of 3000/7 for 3000) are
 * stretched to hold it, by at most DLS_REL_TOL: the solvers then find the loads summing to
 * V, each within its limit under the rule. Returns the factor (1: none).
 * The sum is compensated (Neumaier): a rounded sum can come out at V when the limits' exact
 * sum is short of it (13 limits of 700000/13 sum to 700000.0000000002 rounded, 2.9e-11
 * short exactly), which leaves the LP infeasible in exact arithmetic. */
static double limit_stretch(const dls__star *st, const dls_platform *pl, int use_limits,
                            double V)
{
    double held = 0, comp = 0, stretch = 1;
    for (size_t k = 0; k < st->m && use_limits; k++) {
        double x = pl->procs[st->proc[k]].limit, t = held + x;
        comp += fabs(held) >= fabs(x) ? (held - t) + x : (x - t) + held;
        held = t;
    }
    if ((V - held) - comp > 0 && dls__holds(held, V))
        stretch = fmin(V / held * (1 + DLS__STAR_STRETCH_MARGIN), 1 + DLS_REL_TOL);
    return stretch;
}

/* The envelope of position k's speed model up to its limit or V, into *env; what it
 * changes is said in note. */
static dls_status speed_envelope(dls__star *st, size_t k, const dls__proc *pr,
                                 const dls__star_opts *par, dls_model **env, char **note,
                                 dls_error *err)
{
    dls_envelope_info info;
    double xmax = fmin(st->B[k], st->V), above;
    dls_status stc = dls__model_envelope(pr->model, xmax, &par->envelope, env, &info, &above,
                                         err);
    if (stc != DLS_OK)
        return stc;
    st->from_speed[k] = 1;
    st->envelope_dev = fmax(st->envelope_dev, info.max_rel_dev);
    st->envelope_above = fmax(st->envelope_above, above);
    size_t nl;
    const double *la, *lb;
    dls_model_get_lines(*env, &nl, &la, &lb);
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
    return DLS_OK;
}

/* The time lines of position k (its own, the envelope of its speed model with need_lines,
 * else none) appended to st->a and st->b, which hold *nlines in room for *cap. */
static dls_status position_lines(dls__star *st, size_t k, const dls__proc *pr,
                                 const dls__star_opts *par, int need_lines, size_t *nlines,
                                 size_t *cap, char **note, dls_error *err)
{
    dls_model *env = NULL;
    size_t nl = 0;
    const double *la = NULL, *lb = NULL;
    if (pr->model->kind == DLS_MODEL_TIME_LINES) {
        dls_model_get_lines(pr->model, &nl, &la, &lb);
    } else if (need_lines) {
        dls_status stc = speed_envelope(st, k, pr, par, &env, note, err);
        if (stc != DLS_OK)
            return stc;
        dls_model_get_lines(env, &nl, &la, &lb);
    }
    size_t ca = *cap, cb = *cap;
    double *na = dls__grow(st->a, &ca, *nlines + nl, sizeof *na);
    if (na)
        st->a = na;
    double *nb = na ? dls__grow(st->b, &cb, *nlines + nl, sizeof *nb) : NULL;
    if (nb)
        st->b = nb;
    if (na == NULL || nb == NULL) {
        dls_model_free(env);
        return dls__oom(err, "schedule");
    }
    *cap = ca;
    if (nl > 0) {
        memcpy(st->a + *nlines, la, nl * sizeof *la);
        memcpy(st->b + *nlines, lb, nl * sizeof *lb);
    }
    *nlines += nl;
    dls_model_free(env);
    return DLS_OK;
}

dls_status dls__star_build(const dls_platform *pl, double V, const dls__star_opts *par,
                           int need_lines, dls__star *st, char **note, dls_error *err)
{
    size_t m = pl->n;
    memset(st, 0, sizeof *st); /* the callers free a refused star as an empty one */
    if (par->order == DLS_ORDER_BEST)
        return dls__fail(err, DLS_EINVAL, "schedule", "the best order is searched by "
                         "dls_schedule_solve(); here give the order (given, rate or a sequence)");
    if (par->order == DLS_ORDER_SEQUENCE) {
        dls_status sc = dls__sequence_check(pl, par->sequence, par->sequence_count, "schedule",
                                            err);
        if (sc != DLS_OK)
            return sc;
    }
    st->m = m;
    st->V = V;
    st->proc = malloc(m * sizeof *st->proc);
    st->S = malloc(m * sizeof *st->S);
    st->C = malloc(m * sizeof *st->C);
    st->B = malloc(m * sizeof *st->B);
    st->off = malloc((m + 1) * sizeof *st->off);
    st->from_speed = calloc(m, sizeof *st->from_speed);
    st->model = malloc(m * sizeof *st->model);
    if (!st->proc || !st->S || !st->C || !st->B || !st->off || !st->from_speed ||
        !st->model || send_order(st, pl, par) != 0) {
        dls__star_free(st);
        return dls__oom(err, "schedule");
    }
    double stretch = limit_stretch(st, pl, par->use_limits, V);
    size_t cap_lines = 0, nlines = 0;
    dls_status stc = DLS_OK;
    for (size_t k = 0; k < m && stc == DLS_OK; k++) {
        const dls__proc *pr = &pl->procs[st->proc[k]];
        st->S[k] = pr->startup;
        st->C[k] = pr->rate;
        st->B[k] = par->use_limits ? pr->limit * stretch : INFINITY;
        st->model[k] = pr->model;
        st->off[k] = nlines;
        if (pr->two_d)
            stc = dls__fail_at(err, DLS_EINVAL, 0, 0, (long)st->proc[k], "schedule",
                               "processor \"%s\" has a 2-D speed model: the scheduler "
                               "needs a speed or time function of one size (take a section)",
                               pr->name);
        else
            stc = position_lines(st, k, pr, par, need_lines, &nlines, &cap_lines, note, err);
    }
    if (stc != DLS_OK) {
        dls__star_free(st);
        return stc;
    }
    st->off[m] = nlines;
    return DLS_OK;
}

dls_status dls__star_permute(const dls__star *src, const size_t *pos, dls__star *out,
                             dls_error *err)
{
    size_t m = src->m, nl = src->off[m];
    memset(out, 0, sizeof *out);
    out->m = m;
    out->V = src->V;
    out->envelope_dev = src->envelope_dev;
    out->envelope_above = src->envelope_above;
    out->proc = malloc((m ? m : 1) * sizeof *out->proc);
    out->S = malloc((m ? m : 1) * sizeof *out->S);
    out->C = malloc((m ? m : 1) * sizeof *out->C);
    out->B = malloc((m ? m : 1) * sizeof *out->B);
    out->off = malloc((m + 1) * sizeof *out->off);
    out->a = malloc((nl ? nl : 1) * sizeof *out->a);
    out->b = malloc((nl ? nl : 1) * sizeof *out->b);
    out->from_speed = malloc((m ? m : 1) * sizeof *out->from_speed);
    out->model = malloc((m ? m : 1) * sizeof *out->model);
    if (!out->proc || !out->S || !out->C || !out->B || !out->off || !out->a || !out->b ||
        !out->from_speed || !out->model) {
        dls__star_free(out);
        return dls__oom(err, "schedule");
    }
    size_t l = 0;
    for (size_t k = 0; k < m; k++) {
        size_t q = pos[k];
        out->proc[k] = src->proc[q];
        out->S[k] = src->S[q];
        out->C[k] = src->C[q];
        out->B[k] = src->B[q];
        out->from_speed[k] = src->from_speed[q];
        out->model[k] = src->model[q];
        out->off[k] = l;
        size_t n = src->off[q + 1] - src->off[q];
        memcpy(out->a + l, src->a + src->off[q], n * sizeof *out->a);
        memcpy(out->b + l, src->b + src->off[q], n * sizeof *out->b);
        l += n;
    }
    out->off[m] = l;
    return DLS_OK;
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
            /* with the true models, a processor the paper's LP charges without a load
             * still takes its line's time at 0 (the LP's model of it) */
            if (true_models && x > 0)
                ct = dls_model_time(st->model[k], x);
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


void dls__star_note_unmodelled(const dls_platform *pl, char **note)
{
    size_t busy = 0, returning = 0;
    for (size_t k = 0; k < pl->n; k++) {
        busy += pl->procs[k].release > 0;
        returning += pl->procs[k].ret_frac > 0;
    }
    if (busy > 0)
        dls__note_add(note, "%zu processor%s a release time, which this scheduler does not "
                      "model (dlsched installments --lp does)", busy,
                      busy == 1 ? " has" : "s have");
    if (returning > 0)
        dls__note_add(note, "%zu processor%s results, which this scheduler does not model "
                      "(dlsched installments --lp does)", returning,
                      returning == 1 ? " returns" : "s return");
}
