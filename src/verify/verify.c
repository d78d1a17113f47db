/* dlsched as the referee: a claimed schedule or partition checked against the platform's
 * models under the tolerance rule (DLS_REL_TOL), then measured against the optima dlsched
 * computes for the same problem. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claim/claim_impl.h"
#include "core/clock.h"
#include "dlsched/installment.h"
#include "core/names.h"
#include "import/claim_csv.h"
#include "import/import_impl.h"
#include "io/claim_json.h"
#include "platform/platform_impl.h"

DLS__ENUM_NAMES(dls_violation_kind, dls_violation_kind, DLS_VIOLATION_KIND_MAP)

/* Largest tolerance accepted: beyond it a verification would pass wrong schedules. */
#define DLS__VERIFY_MAX_TOL 1e-3
/* Violations kept in full; beyond, only counted (a million processors all overloaded). */
#define DLS__VERIFY_MAX_KEPT 10000

struct dls_verification {
    size_t count, kept;
    dls_violation *v;
    dls_verify_quality q;
    char *note;
    char *certificate; /* "p/q" of the paper's optimum (exact), or NULL */
};

void dls_verify_params_init(dls_verify_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    p->load = NAN;
    p->tolerance = DLS_REL_TOL;
    p->use_limits = 1;
    p->optimum = 1;
    p->exact = 0;
    p->order = sp.order;
    p->originator_computes = sp.originator_computes;
    p->matrix = 0;
    p->time_limit = DLS_VERIFY_DEFAULT_TIME_LIMIT;
}

/* The time limit in force: 0 (a reserved tail of earlier versions) is the default. */
static double time_limit_of(const dls_verify_params *p)
{
    return p->time_limit == 0 ? DLS_VERIFY_DEFAULT_TIME_LIMIT : p->time_limit;
}

/* The weighted set and its flags. */
static dls_status check_weights(const dls_verify_params *p, const char *fn, dls_error *err)
{
    if (p->ordered != 0 && p->ordered != 1)
        return dls__fail(err, DLS_EINVAL, fn, "ordered must be 0 or 1, not %d", p->ordered);
    if (p->reorder != 0 && p->reorder != 1)
        return dls__fail(err, DLS_EINVAL, fn, "reorder must be 0 or 1, not %d", p->reorder);
    if (p->reorder && !p->ordered)
        return dls__fail(err, DLS_EINVAL, fn, "reorder applies to ordered sets (ordered = 1)");
    if (p->weights == NULL) {
        if (p->n_weights != 0)
            return dls__fail(err, DLS_EINVAL, fn, "n_weights is %zu but weights is NULL",
                             p->n_weights);
        if (p->ordered)
            return dls__fail(err, DLS_EINVAL, fn, "ordered applies to a set of weighted "
                             "elements: give the weights");
        return DLS_OK;
    }
    if (p->n_weights == 0 || (uint64_t)p->n_weights > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "n_weights must be in 1 .. %llu, not %zu",
                         DLS_PARTITION_MAX_ELEMENTS, p->n_weights);
    if (!isnan(p->load) || p->matrix != 0)
        return dls__fail(err, DLS_EINVAL, fn, "with weights, the load is their sum: load must "
                         "be NaN and matrix 0");
    long double sum = 0;
    char text[160];
    for (size_t e = 0; e < p->n_weights; e++) {
        if (!(isfinite(p->weights[e]) && p->weights[e] > 0))
            return dls__fail(err, DLS_EINVAL, fn, "element %zu weighs %g: weights must be "
                             "finite and > 0", e, p->weights[e]);
        if (dls__domain_value(p->weights[e], "weight", text, sizeof text))
            return dls__fail(err, DLS_EINVAL, fn, "element %zu: %s", e, text);
        sum += p->weights[e];
    }
    if (dls__domain_value((double)sum, "weights' sum", text, sizeof text))
        return dls__fail(err, DLS_EINVAL, fn, "%s", text);
    return DLS_OK;
}

static dls_status check_params(const dls_verify_params *p, const char *fn, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, fn, "dls_verify_params", err);
    if (st != DLS_OK)
        return st;
    if (!(p->tolerance >= DLS_DOMAIN_MIN && p->tolerance <= DLS__VERIFY_MAX_TOL))
        return dls__fail(err, DLS_EINVAL, fn, "tolerance must be in [%g, %g], not %g",
                         DLS_DOMAIN_MIN, DLS__VERIFY_MAX_TOL, p->tolerance);
    if (!(p->time_limit >= 0 && p->time_limit <= DLS_TIME_LIMIT_MAX))
        return dls__fail(err, DLS_EINVAL, fn, "time_limit must be in (0, %g] seconds (0: the "
                         "default, %g), not %g", DLS_TIME_LIMIT_MAX,
                         (double)DLS_VERIFY_DEFAULT_TIME_LIMIT, p->time_limit);
    if (!isnan(p->load) && (st = dls__domain_load(p->load, fn, err)) != DLS_OK)
        return st;
    if (p->use_limits != 0 && p->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, fn, "use_limits must be 0 or 1, not %d", p->use_limits);
    if (p->optimum != 0 && p->optimum != 1)
        return dls__fail(err, DLS_EINVAL, fn, "optimum must be 0 or 1, not %d", p->optimum);
    if (p->exact != 0 && p->exact != 1)
        return dls__fail(err, DLS_EINVAL, fn, "exact must be 0 or 1, not %d", p->exact);
    if (p->originator_computes != 0 && p->originator_computes != 1)
        return dls__fail(err, DLS_EINVAL, fn, "originator_computes must be 0 or 1, not %d",
                         p->originator_computes);
    if (p->best_order != 0 && p->best_order != 1)
        return dls__fail(err, DLS_EINVAL, fn, "best_order must be 0 or 1, not %d", p->best_order);
    if (p->order != DLS_ORDER_GIVEN && p->order != DLS_ORDER_RATE)
        return dls__fail(err, DLS_EINVAL, fn, "order %d is not a dls_send_order", (int)p->order);
    if (p->matrix > DLS_PARTITION_MAX_ELEMENTS)
        return dls__fail(err, DLS_EINVAL, fn, "matrix %llu is beyond %llu",
                         (unsigned long long)p->matrix, DLS_PARTITION_MAX_ELEMENTS);
    return check_weights(p, fn, err);
}

void dls_verification_free(dls_verification *v)
{
    if (v == NULL)
        return;
    free(v->v);
    free(v->note);
    free(v->certificate);
    free(v);
}

const char *dls_verification_certificate(const dls_verification *v)
{
    return v != NULL ? v->certificate : NULL;
}

static dls_verification *verification_new(void)
{
    dls_verification *v = calloc(1, sizeof *v);
    if (v == NULL)
        return NULL;
    dls_verify_quality *q = &v->q;
    q->load = q->makespan = q->claimed_makespan = NAN;
    q->paper_optimum = q->selection_optimum = q->own_order_optimum = NAN;
    q->best = q->gap = q->gap_percent = NAN;
    q->best_order_optimum = q->order_lower_bound = NAN;
    return v;
}

static int vadd(dls_verification *v, dls_violation_kind kind, long proc, long long element,
                double expected, double found, double excess, const char *fmt, va_list ap)
    DLS__PRINTF(8, 0);
static int vadd(dls_verification *v, dls_violation_kind kind, long proc, long long element,
                double expected, double found, double excess, const char *fmt, va_list ap)
{
    v->count++;
    if (v->kept == DLS__VERIFY_MAX_KEPT)
        return 0;
    dls_violation *g = realloc(v->v, (v->kept + 1) * sizeof *g);
    if (g == NULL)
        return -1;
    v->v = g;
    dls_violation *x = &v->v[v->kept++];
    x->kind = kind;
    x->processor = proc;
    x->element = element;
    x->expected = expected;
    x->found = found;
    x->excess = excess;
    vsnprintf(x->text, sizeof x->text, fmt, ap);
    return 0;
}

/* Records a violation; -1 when out of memory. */
static int add(dls_verification *v, dls_violation_kind kind, long proc, double expected,
               double found, double excess, const char *fmt, ...) DLS__PRINTF(7, 8);

static int add(dls_verification *v, dls_violation_kind kind, long proc, double expected,
               double found, double excess, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vadd(v, kind, proc, -1, expected, found, excess, fmt, ap);
    va_end(ap);
    return rc;
}

/* The same for one element of a weighted set. */
static int add_el(dls_verification *v, dls_violation_kind kind, long proc, uint64_t element,
                  double expected, double found, double excess, const char *fmt, ...)
    DLS__PRINTF(8, 9);

static int add_el(dls_verification *v, dls_violation_kind kind, long proc, uint64_t element,
                  double expected, double found, double excess, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = vadd(v, kind, proc, (long long)element, expected, found, excess, fmt, ap);
    va_end(ap);
    return rc;
}

/* Whether the violations of a range of elements are past what is kept: then only counted
 * (count more of them), so that a hostile chunk of 2^53 elements costs nothing. */
static int room(dls_verification *v, uint64_t count)
{
    if (v->kept < DLS__VERIFY_MAX_KEPT)
        return 1;
    v->count += (size_t)count;
    return 0;
}

/* The claim's send order: its own, then the processors it leaves out that have a load, by
 * claimed send start then index (stable). pos receives n entries; returns how many. */
static int by_start(const void *a, const void *b, const dls_claim *c)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    double si = c->send_start[i], sj = c->send_start[j];
    if (isnan(si) != isnan(sj))
        return isnan(si) ? 1 : -1;
    if (!isnan(si) && si != sj)
        return si < sj ? -1 : 1;
    return (i > j) - (i < j);
}

static size_t send_order(const dls_claim *c, size_t *seq, unsigned char *in)
{
    size_t m = 0;
    memset(in, 0, c->n);
    for (size_t k = 0; k < c->m; k++) {
        seq[m++] = c->order[k];
        in[c->order[k]] = 1;
    }
    size_t first_rest = m;
    for (size_t i = 0; i < c->n; i++)
        if (!in[i] && c->load[i] != 0)
            seq[m++] = i;
    /* insertion sort of the rest by start time: claims without an order are small tables
     * printed by other tools; a large one written in order is already sorted (linear) */
    for (size_t a = first_rest + 1; a < m; a++) {
        size_t x = seq[a], b = a;
        while (b > first_rest && by_start(&seq[b - 1], &x, c) > 0) {
            seq[b] = seq[b - 1];
            b--;
        }
        seq[b] = x;
    }
    return m;
}

/* A failed violation record is out of memory. */
#define ADD(...)                                                                           \
    do {                                                                                   \
        if (add(v, __VA_ARGS__) != 0)                                                      \
            goto nomem;                                                                    \
    } while (0)

/* The loads: none negative, within the limits, summing to the load. */
static int check_loads(const dls_platform *pl, const dls_claim *c, const dls_verify_params *p,
                       int whole, dls_verification *v)
{
    const char *unit = whole ? "elements" : "load";
    long double sum = 0;
    for (size_t i = 0; i < c->n; i++) {
        double a = c->load[i], lim = pl->procs[i].limit;
        const char *name = pl->procs[i].name;
        sum += a;
        if (a < 0)
            ADD(DLS_VIOLATION_NEGATIVE_LOAD, (long)i, 0, a, -a,
                "processor \"%s\": a negative %s, %.10g", name, unit, a);
        if (whole && a != floor(a))
            ADD(DLS_VIOLATION_NOT_WHOLE, (long)i, round(a), a, fabs(a - round(a)),
                "processor \"%s\": %.10g elements, not a whole number", name, a);
        if (p->use_limits && a > lim + p->tolerance * lim)
            ADD(DLS_VIOLATION_LIMIT, (long)i, lim, a, a - lim,
                "processor \"%s\": %s %.*g exceeds its limit %.*g by %.6g", name, unit,
                dls__distinct_digits(a, lim), a, dls__distinct_digits(a, lim), lim, a - lim);
    }
    double V = v->q.load, s = (double)sum;
    if (fabs(s - V) > p->tolerance * V)
        ADD(DLS_VIOLATION_LOAD_SUM, -1, V, s, fabs(s - V),
            "the %s sum to %.*g, not the %.*g to distribute (%s by %.6g)",
            whole ? "elements" : "loads", dls__distinct_digits(s, V), s,
            dls__distinct_digits(s, V), V, s < V ? "short" : "over", fabs(s - V));
    return 0;
nomem:
    return -1;
}

/* The claimed makespan against the real one, which the schedule (or the partition, said
 * by what) reaches: -1 when out of memory. */
static int check_makespan(dls_verification *v, double claimed, double real, double tol,
                          const char *what)
{
    if (!isnan(claimed) && claimed < real - tol * real)
        return add(v, DLS_VIOLATION_MAKESPAN, -1, real, claimed, real - claimed,
                   "the claimed makespan %.10g is below the %.10g the %s reaches (by %.6g s)",
                   claimed, real, what, real - claimed);
    return 0;
}

/* Refuses the processors with a 2-D speed model, where the check needs models of one size:
 * the first met, with fn's name and what to do (tail). */
static dls_status refuse_two_d(const dls_platform *pl, size_t n, const char *fn,
                               const char *tail, dls_error *err)
{
    for (size_t i = 0; i < n; i++)
        if (pl->procs[i].two_d)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, fn, "processor \"%s\" has a "
                                "2-D speed model%s", pl->procs[i].name, tail);
    return DLS_OK;
}

/* One processor's timeline as the model makes it, against what the claim says. */
typedef struct walked {
    double send_start, send_end, compute_start, finish;
} walked;

/* Walks the sends in order on the single port; fills w (n) and the real makespan. */
static int check_timeline(const dls_platform *pl, const dls_claim *c, const size_t *seq,
                          size_t m, double tol, dls_verification *v, walked *w,
                          double *makespan)
{
    double port = 0, T = 0, claimed_T = c->makespan;
    /* the scale of times: what the schedule takes, or claims (first pass, no checks) */
    for (int pass = 0; pass < 2; pass++) {
        double scale = fmax(T, isnan(claimed_T) ? 0 : claimed_T);
        double eps = tol * scale;
        port = 0;
        T = 0;
        for (size_t k = 0; k < m; k++) {
            size_t i = seq[k];
            const dls__proc *pr = &pl->procs[i];
            double a = c->load[i] > 0 ? c->load[i] : 0;
            double dur = a > 0 ? pr->startup + pr->rate * a : 0;
            double ss = c->send_start[i], se = c->send_end[i], cs = c->compute_start[i],
                   fin = c->finish[i];
            walked *x = &w[i];
            /* a processor sent nothing (or sent for free) does not use the port */
            if (dur > 0) {
                x->send_start = isnan(ss) ? port : ss;
                if (pass && x->send_start < port - eps)
                    ADD(DLS_VIOLATION_SEND_OVERLAP, (long)i, port, x->send_start,
                        port - x->send_start, "processor \"%s\": its send starts at %.10g, "
                        "before the port is free at %.10g (by %.6g s)", pr->name,
                        x->send_start, port, port - x->send_start);
                double model_end = x->send_start + dur;
                if (pass && !isnan(se) && se < model_end - eps)
                    ADD(DLS_VIOLATION_SEND_DURATION, (long)i, model_end, se, model_end - se,
                        "processor \"%s\": its send of %.10g units ends at %.10g, but takes "
                        "S + C x = %.10g s and cannot end before %.10g (by %.6g s)", pr->name,
                        a, se, dur, model_end, model_end - se);
                x->send_end = isnan(se) ? model_end : fmax(se, model_end);
                port = fmax(port, x->send_end);
            } else {
                x->send_start = x->send_end = isnan(ss) ? 0 : ss;
                if (a > 0 && pass && !isnan(se) && se > x->send_end)
                    x->send_end = se; /* a free send may still be claimed to take time */
            }
            double arrival = x->send_end;
            x->compute_start = isnan(cs) ? arrival : cs;
            if (pass && a > 0 && x->compute_start < arrival - eps)
                ADD(DLS_VIOLATION_EARLY_COMPUTE, (long)i, arrival, x->compute_start,
                    arrival - x->compute_start, "processor \"%s\": it starts computing at "
                    "%.10g, before its data has arrived at %.10g (by %.6g s)", pr->name,
                    x->compute_start, arrival, arrival - x->compute_start);
            double t = a > 0 ? dls_model_time(pr->model, a) : 0;
            double model_fin = (a > 0 ? fmax(x->compute_start, arrival) : x->compute_start) + t;
            if (a == 0)
                model_fin = 0;
            if (pass && !isnan(fin) && a > 0 && fin < model_fin - eps)
                ADD(DLS_VIOLATION_FINISH, (long)i, model_fin, fin, model_fin - fin,
                    "processor \"%s\": claimed to finish at %.10g, but its %.10g units take "
                    "%.10g s from %.10g: not before %.10g (by %.6g s)", pr->name, fin, a, t,
                    fmax(x->compute_start, arrival), model_fin, model_fin - fin);
            x->finish = isnan(fin) || a == 0 ? model_fin : fmax(fin, model_fin);
            T = fmax(T, x->finish);
        }
    }
    *makespan = T;
    return check_makespan(v, claimed_T, T, tol, "schedule");
nomem:
    return -1;
}

/* The claim's own send order over every processor: seq[0..m), then the processors it
 * leaves out (in[i] == 0) in index order, into full[0..n); whether that is the platform's
 * own order. */
static int own_sequence(size_t n, const size_t *seq, size_t m, const unsigned char *in,
                        size_t *full)
{
    size_t k = m;
    memcpy(full, seq, m * sizeof *full);
    for (size_t i = 0; i < n && k < n; i++)
        if (!in[i])
            full[k++] = i;
    int identity = 1;
    for (size_t j = 0; j < n && identity; j++)
        identity = full[j] == j;
    return identity;
}

/* Seconds left before the deadline, at least a millisecond: a search handed less stops at
 * once with what it has. */
static double left_of(double deadline)
{
    double left = deadline - dls__clock_now();
    return left > 1e-3 ? left : 1e-3;
}

/* The certificate of the paper's optimum (exact), or the note saying why there is none. */
static dls_status keep_certificate(const dls_schedule *s, dls_verification *v,
                                   dls_error *err)
{
    const char *cert = dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0);
    if (cert != NULL) {
        size_t len = strlen(cert) + 1;
        if ((v->certificate = malloc(len)) == NULL)
            return dls__oom(err, NULL);
        memcpy(v->certificate, cert, len);
    } else if (dls_schedule_note(s)[0] != '\0') {
        dls__note_add(&v->note, "the paper's optimum: %s", dls_schedule_note(s));
    }
    return DLS_OK;
}

/* The paper's LP (every processor used), with GLPK's exact simplex when asked to certify
 * it, within what is left of the time limit. The limit stopping GLPK is no failure: the
 * chain solves the same LP, uncertified, and exact_stopped and the note say so. *proven
 * is cleared when the LP's answer is the speed models' envelope's. */
static dls_status paper_optimum(const dls_platform *pl, const dls_verify_params *p,
                                dls_schedule_params sp, double deadline,
                                dls_verification *v, int *proven, dls_error *err)
{
    dls_schedule *s = NULL;
    dls_status st = DLS_OK;
    sp.drop_unused = 0;
    if (p->exact) {
        sp.solver = DLS_SOLVER_GLPK;
        sp.exact = 1;
        sp.time_limit = left_of(deadline);
        dls_error why;
        dls_error_clear(&why);
        st = dls_schedule_solve(pl, v->q.load, &sp, &s, &why);
        if (st == DLS_ELIMIT) {
            v->q.exact_stopped = 1;
            dls__note_add(&v->note, "the exact simplex could not prove the paper's optimum "
                          "within the time limit of %g s (%s): the paper's optimum is the "
                          "chain solver's, not certified", time_limit_of(p), why.message);
            sp.solver = DLS_SOLVER_CHAIN;
            sp.exact = 0;
        } else if (st == DLS_ESOLVER || st == DLS_ENUMERIC) {
            /* GLPK cannot solve this LP (coefficients too far apart): the chain can */
            v->q.exact_stopped = 1;
            dls__note_add(&v->note, "GLPK could not solve the paper's LP for its exact "
                          "simplex (%s): the paper's optimum is the chain solver's, not "
                          "certified", why.message);
            sp.solver = DLS_SOLVER_CHAIN;
            sp.exact = 0;
            st = DLS_OK;
        } else if (st != DLS_OK) {
            if (err != NULL)
                *err = why;
            return st;
        }
    }
    if (s == NULL && (st = dls_schedule_solve(pl, v->q.load, &sp, &s, err)) != DLS_OK)
        return st;
    v->q.paper_optimum = dls_schedule_lp_makespan(s);
    v->q.exact_confirmed = sp.exact ? dls_schedule_exact_confirmed(s) : 0;
    if (sp.exact)
        st = keep_certificate(s, v, err);
    if (dls_schedule_envelope_deviation(s) > 0)
        *proven = 0;
    dls_schedule_free(s);
    return st;
}

/* The optima the schedule is measured against, within params->time_limit. */
static dls_status schedule_optima(const dls_platform *pl, const dls_verify_params *p,
                                  const size_t *seq, size_t m, unsigned char *in,
                                  dls_verification *v, dls_error *err)
{
    double deadline = dls__clock_now() + time_limit_of(p);
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.order = p->order;
    sp.originator_computes = p->originator_computes;
    sp.use_limits = p->use_limits;
    double V = v->q.load;
    int proven = 1;
    dls_schedule *s = NULL;
    dls_status st = paper_optimum(pl, p, sp, deadline, v, &proven, err);
    if (st != DLS_OK)
        return st;
    /* the best sets of processors: the chain, exact and bounded by its pieces */
    sp.solver = DLS_SOLVER_CHAIN;
    sp.drop_unused = 1;
    st = dls_schedule_solve(pl, V, &sp, &s, err);
    if (st != DLS_OK)
        return st;
    v->q.selection_optimum = dls_schedule_lp_makespan(s);
    proven = proven && dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL;
    dls_schedule_free(s);
    /* the claim's own order (its processors given a load, in its order, first), solved
     * unless it is the problem just solved: the platform's order, and the mode's (a third
     * of the work at 10^6 processors) */
    size_t n = dls_platform_count(pl);
    size_t *full = malloc((n ? n : 1) * sizeof *full);
    if (full == NULL)
        return dls__oom(err, NULL);
    if (own_sequence(n, seq, m, in, full) && p->order == DLS_ORDER_GIVEN) {
        v->q.own_order_optimum = v->q.selection_optimum;
    } else {
        sp.order = DLS_ORDER_SEQUENCE;
        sp.sequence = full;
        sp.sequence_count = n;
        st = dls_schedule_solve(pl, V, &sp, &s, err);
        sp.sequence = NULL;
        sp.sequence_count = 0;
        if (st != DLS_OK) {
            free(full);
            return st;
        }
        v->q.own_order_optimum = dls_schedule_lp_makespan(s);
        proven = proven && dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL;
        dls_schedule_free(s);
    }
    free(full);
    v->q.best = fmin(v->q.selection_optimum, v->q.own_order_optimum);
    if (p->best_order) {
        /* every order and set of processors, the search never above the mode's order */
        sp.order = DLS_ORDER_BEST;
        sp.order_time_limit = left_of(deadline);
        st = dls_schedule_solve(pl, V, &sp, &s, err);
        if (st != DLS_OK)
            return st;
        dls_schedule_solver_info info;
        dls_schedule_get_solver_info(s, &info, NULL);
        v->q.best_order_optimum = dls_schedule_lp_makespan(s);
        v->q.order_lower_bound = info.order_lower_bound;
        v->q.best_order_proven =
            info.order_optimal && dls_schedule_envelope_deviation(s) <= 0;
        if (info.order_optimal && !v->q.best_order_proven)
            dls__note_add(&v->note, "the best order is exact for the convex envelopes of the "
                          "speed models, not proven for the models themselves");
        dls_schedule_free(s);
        if (v->q.best_order_optimum < v->q.best)
            v->q.best = v->q.best_order_optimum;
        /* the best of every order and set is below every other optimum: proven, it is the
         * optimum whatever the others are */
        proven = v->q.best_order_proven;
    }
    v->q.proven = proven;
    return DLS_OK;
}

static void gap(dls_verification *v)
{
    dls_verify_quality *q = &v->q;
    if (isnan(q->best))
        return;
    q->gap = q->makespan - q->best;
    q->gap_percent = q->best > 0 ? 100 * q->gap / q->best : 0;
}

static dls_status check_claim(const dls_platform *platform, const dls_claim *claim,
                              dls_claim_kind kind, const dls_verify_params **p,
                              dls_verify_params *defaults, dls_verification **out,
                              const char *fn, dls_error *err)
{
    if (platform == NULL || claim == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL argument");
    if (*p == NULL) {
        dls_verify_params_init(defaults);
        *p = defaults;
    }
    dls_status st = check_params(*p, fn, err);
    if (st != DLS_OK)
        return st;
    if (claim->platform != platform || claim->n != dls_platform_count(platform))
        return dls__fail(err, DLS_EINVAL, fn, "the claim was made for another platform (or "
                         "this one has changed since)");
    if (claim->kind != kind)
        return dls__fail(err, DLS_EINVAL, fn, "the claim is a %s, not a %s",
                         dls_claim_kind_name(claim->kind), dls_claim_kind_name(kind));
    if ((*p)->weights != NULL && kind != DLS_CLAIM_PARTITION)
        return dls__fail(err, DLS_EINVAL, fn, "weights apply to partitions");
    if ((*p)->weights != NULL && claim->matrix != 0)
        return dls__fail(err, DLS_EINVAL, fn, "the claim distributes the rows of a matrix, "
                         "not weighted elements");
    return DLS_OK;
}

static double claimed_load(const dls_claim *c, const dls_verify_params *p)
{
    if (!isnan(p->load))
        return p->load;
    if (!isnan(c->total))
        return c->total;
    long double s = 0;
    for (size_t i = 0; i < c->n; i++)
        s += c->load[i];
    return (double)s;
}

/* The load checked against: > 0 and inside the domain (a sum of claimed loads can leave
 * it, 1 + 1e308, where no solver computes). */
static dls_status check_load(double V, const char *fn, dls_error *err)
{
    if (!(V > 0))
        return dls__fail(err, DLS_EINVAL, fn, "the claim distributes no load (its loads sum "
                         "to %.10g): give the load (params->load)", V);
    return dls__domain_load(V, fn, err);
}

/* The schedule claimed against the models (seq, in and w are scratch of c->n each), then,
 * when it is valid, measured against the optima. */
static dls_status check_schedule(const dls_platform *pl, const dls_claim *c,
                                 const dls_verify_params *p, size_t *seq, unsigned char *in,
                                 walked *w, dls_verification *v, dls_error *err)
{
    v->q.load = claimed_load(c, p);
    v->q.claimed_makespan = c->makespan;
    dls_status st = check_load(v->q.load, "dls_schedule_verify", err);
    if (st != DLS_OK)
        return st;
    size_t m = send_order(c, seq, in);
    if (check_loads(pl, c, p, 0, v) != 0 ||
        check_timeline(pl, c, seq, m, p->tolerance, v, w, &v->q.makespan) != 0)
        return dls__oom(err, "dls_schedule_verify");
    if (v->count == 0 && p->optimum) {
        for (size_t k = 0; k < m; k++)
            in[seq[k]] = 1;
        st = schedule_optima(pl, p, seq, m, in, v, err);
        if (st != DLS_OK)
            return st;
        gap(v);
    }
    return DLS_OK;
}

static dls_status dls_schedule_verify_impl(const dls_platform *pl, const dls_claim *c,
                                           const dls_verify_params *p, dls_verification **out,
                                           dls_error *err)
{
    dls_verify_params defaults;
    dls_status st = check_claim(pl, c, DLS_CLAIM_SCHEDULE, &p, &defaults, out,
                                "dls_schedule_verify", err);
    if (st != DLS_OK)
        return st;
    st = refuse_two_d(pl, c->n, "dls_schedule_verify", ": a star schedule needs a model of "
                      "one size", err);
    if (st != DLS_OK)
        return st;
    dls_verification *v = verification_new();
    size_t n = c->n;
    size_t *seq = malloc((n ? n : 1) * sizeof *seq);
    unsigned char *in = malloc(n ? n : 1);
    walked *w = calloc(n ? n : 1, sizeof *w);
    if (v == NULL || seq == NULL || in == NULL || w == NULL)
        st = dls__oom(err, "dls_schedule_verify");
    else
        st = check_schedule(pl, c, p, seq, in, w, v, err);
    free(seq);
    free(in);
    free(w);
    if (st != DLS_OK) {
        dls_verification_free(v);
        return st;
    }
    *out = v;
    return DLS_OK;
}

dls_status dls_schedule_verify(const dls_platform *platform, const dls_claim *claim,
                               const dls_verify_params *params, dls_verification **out,
                               dls_error *err)
{
    return dls_schedule_verify_impl(platform, claim, params, out, err);
}

/* The time of x elements (or rows of an n x n product) on processor i. */
static double part_time(const dls__proc *pr, double x, uint64_t matrix)
{
    if (x <= 0)
        return 0;
    if (matrix == 0)
        return dls_model_time(pr->model, x);
    double nn = (double)matrix;
    double s = pr->two_d ? dls_model_speed2d(pr->model, nn, x) : dls_model_speed(pr->model, nn * x);
    return x * nn * nn / s;
}

/* A processor's elements [lo, hi) of a weighted set, for the sweep over the set. */
typedef struct span {
    uint64_t lo, hi;
    size_t proc;
} span;

static int by_lo(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->lo != y->lo)
        return x->lo < y->lo ? -1 : 1;
    return (x->proc > y->proc) - (x->proc < y->proc);
}

/* Elements [lo, hi) that no processor holds. */
static int missing(dls_verification *v, uint64_t lo, uint64_t hi, const double *w)
{
    for (uint64_t e = lo; e < hi; e++) {
        if (!room(v, hi - e))
            break;
        if (add_el(v, DLS_VIOLATION_ELEMENT_MISSING, -1, e, 1, 0, 1, "element %llu (weight "
                   "%.10g) is held by no processor", (unsigned long long)e, w[e]) != 0)
            return -1;
    }
    return 0;
}

/* Elements [lo, hi) placed on processor i beyond the n of the set. */
static int unknown(const dls_platform *pl, dls_verification *v, size_t i, uint64_t lo,
                   uint64_t hi, uint64_t n)
{
    for (uint64_t e = lo; e < hi; e++) {
        if (!room(v, hi - e))
            break;
        if (add_el(v, DLS_VIOLATION_ELEMENT_UNKNOWN, (long)i, e, (double)n, (double)e,
                   (double)(e - n + 1), "processor \"%s\" holds element %llu, beyond the %llu "
                   "elements of the set", pl->procs[i].name, (unsigned long long)e,
                   (unsigned long long)n) != 0)
            return -1;
    }
    return 0;
}

/* The chunks of a claim (n_span of them, sorted by first element): every element once,
 * none beyond the set; held[i] the weight of what processor i holds. */
static int sweep_chunks(const dls_platform *pl, const double *w, uint64_t n, span *sp, size_t ns, dls_verification *v, double *held)
{
    long double *pre = malloc(((size_t)n + 1) * sizeof *pre);
    if (pre == NULL)
        return -1;
    pre[0] = 0;
    for (uint64_t e = 0; e < n; e++)
        pre[e + 1] = pre[e] + w[e];
    qsort(sp, ns, sizeof *sp, by_lo);
    uint64_t reach = 0;
    size_t owner = 0;
    int rc = 0;
    for (size_t k = 0; k < ns && rc == 0; k++) {
        const span *s = &sp[k];
        uint64_t lo = s->lo < n ? s->lo : n, hi = s->hi < n ? s->hi : n;
        held[s->proc] = (double)(pre[hi] - pre[lo]);
        if (lo > reach)
            rc = missing(v, reach, lo, w);
        /* held already by the chunk that reaches furthest so far */
        uint64_t end = hi < reach ? hi : reach;
        for (uint64_t e = lo; e < end && rc == 0; e++) {
            if (!room(v, end - e))
                break;
            rc = add_el(v, DLS_VIOLATION_ELEMENT_TWICE, (long)s->proc, e, 1, 2, 1,
                        "element %llu is held by processor \"%s\" and again by \"%s\"",
                        (unsigned long long)e, pl->procs[owner].name,
                        pl->procs[s->proc].name);
        }
        if (rc == 0 && s->hi > n)
            rc = unknown(pl, v, s->proc, s->lo > n ? s->lo : n, s->hi, n);
        if (hi > reach) {
            reach = hi;
            owner = s->proc;
        }
    }
    if (rc == 0 && reach < n)
        rc = missing(v, reach, n, w);
    free(pre);
    return rc;
}

/* The placement of a weighted set (params->weights): each element held once, none beyond
 * the set, for ordered sets one chunk per processor in order; held[i] receives the weight
 * processor i really holds, cnt[i] its elements. -1 when out of memory. */
static int check_placement(const dls_platform *pl, const dls_claim *c,
                           const dls_verify_params *p, dls_verification *v, double *held,
                           uint64_t *cnt)
{
    const double *w = p->weights;
    uint64_t n = p->n_weights;
    size_t np = c->n;
    span *sp = malloc((np ? np : 1) * sizeof *sp);
    long double *acc = calloc(np ? np : 1, sizeof *acc);
    if (sp == NULL || acc == NULL)
        goto nomem;
    size_t ns = 0;
    if (c->first != NULL) {
        for (size_t i = 0; i < np; i++) {
            held[i] = 0; /* a processor without a chunk holds nothing */
            cnt[i] = c->count[i];
            if (c->count[i] > 0)
                sp[ns++] = (span){c->first[i], c->first[i] + c->count[i], i};
        }
        if (sweep_chunks(pl, w, n, sp, ns, v, held) != 0)
            goto nomem;
    } else {
        /* an assignment: no element twice by construction; each processor's span */
        for (size_t i = 0; i < np; i++) {
            sp[i] = (span){UINT64_MAX, 0, i};
            cnt[i] = 0;
        }
        for (size_t e = 0; e < c->n_owner; e++) {
            size_t i = c->owner[e];
            cnt[i]++;
            sp[i].lo = e < sp[i].lo ? e : sp[i].lo;
            sp[i].hi = e + 1;
            if (e < n)
                acc[i] += w[e];
            else if (unknown(pl, v, i, e, e + 1, n) != 0)
                goto nomem;
        }
        if ((uint64_t)c->n_owner < n && missing(v, c->n_owner, n, w) != 0)
            goto nomem;
        for (size_t i = 0; i < np; i++) {
            held[i] = (double)acc[i];
            if (p->ordered && cnt[i] > 0 && cnt[i] != sp[i].hi - sp[i].lo &&
                add_el(v, DLS_VIOLATION_CHUNK, (long)i, sp[i].lo, (double)(sp[i].hi - sp[i].lo),
                       (double)cnt[i], (double)(sp[i].hi - sp[i].lo - cnt[i]),
                       "processor \"%s\": its %llu elements are spread over elements %llu to "
                       "%llu, not one contiguous chunk (%llu elements between are others')",
                       pl->procs[i].name, (unsigned long long)cnt[i],
                       (unsigned long long)sp[i].lo, (unsigned long long)(sp[i].hi - 1),
                       (unsigned long long)(sp[i].hi - sp[i].lo - cnt[i])) != 0)
                goto nomem;
        }
    }
    /* the chunks in the platform's order: each after the ones before it */
    if (p->ordered && !p->reorder) {
        uint64_t end = 0;
        size_t before = 0;
        for (size_t i = 0; i < np; i++) {
            /* a processor already reported as not one chunk has no place to check */
            if (cnt[i] == 0 || (c->first == NULL && cnt[i] != sp[i].hi - sp[i].lo))
                continue;
            /* chunks: as claimed; an assignment: sp[i] spans processor i's elements */
            uint64_t lo = c->first ? c->first[i] : sp[i].lo;
            uint64_t hi = c->first ? lo + cnt[i] : sp[i].hi;
            if (lo < end && add_el(v, DLS_VIOLATION_CHUNK, (long)i, lo, (double)end, (double)lo,
                                   (double)(end - lo), "processor \"%s\": its chunk starts at "
                                   "element %llu, before the end (%llu) of the chunk of \"%s\", "
                                   "which comes first in the platform's order",
                                   pl->procs[i].name, (unsigned long long)lo,
                                   (unsigned long long)end, pl->procs[before].name) != 0)
                goto nomem;
            if (hi > end) {
                end = hi;
                before = i;
            }
        }
    }
    free(sp);
    free(acc);
    return 0;
nomem:
    free(sp);
    free(acc);
    return -1;
}

/* Each processor's claimed weight against what its elements weigh, and its limit. */
static int check_weights_held(const dls_platform *pl, const dls_claim *c,
                              const dls_verify_params *p, const double *held,
                              const uint64_t *cnt, dls_verification *v)
{
    for (size_t i = 0; i < c->n; i++) {
        double a = c->load[i], W = held[i], lim = pl->procs[i].limit;
        const char *name = pl->procs[i].name;
        if (a < 0)
            ADD(DLS_VIOLATION_NEGATIVE_LOAD, (long)i, 0, a, -a,
                "processor \"%s\": a negative weight, %.10g", name, a);
        else if (fabs(a - W) > p->tolerance * fmax(a, W))
            ADD(DLS_VIOLATION_WEIGHT_SUM, (long)i, W, a, fabs(a - W),
                "processor \"%s\": claimed to hold a weight of %.*g, but its %llu %s "
                "%.*g (%s by %.6g)", name, dls__distinct_digits(a, W), a,
                (unsigned long long)cnt[i], cnt[i] == 1 ? "element weighs" : "elements weigh",
                dls__distinct_digits(a, W), W,
                a < W ? "short" : "over", fabs(a - W));
        if (p->use_limits && W > lim + p->tolerance * lim)
            ADD(DLS_VIOLATION_LIMIT, (long)i, lim, W, W - lim,
                "processor \"%s\": its elements weigh %.*g, beyond its limit %.*g by %.6g",
                name, dls__distinct_digits(W, lim), W, dls__distinct_digits(W, lim), lim,
                W - lim);
    }
    return 0;
nomem:
    return -1;
}

/* The optimum of a weighted set: the partitioner's best and, when it is not proven, its
 * lower bound in the note. */
static dls_status weighted_optimum(const dls_platform *pl, const dls_verify_params *p,
                                   dls_verification *v, dls_error *err)
{
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.use_limits = p->use_limits;
    pp.weights = p->weights;
    pp.ordered = p->ordered;
    pp.reorder = p->reorder;
    dls_partition *r = NULL;
    dls_status st = dls_partition_solve(pl, p->n_weights, &pp, &r, err);
    if (st != DLS_OK)
        return st;
    dls_solution_status sol = dls_partition_status(r);
    if (sol != DLS_SOLUTION_OPTIMAL && sol != DLS_SOLUTION_FEASIBLE) {
        dls__note_add(&v->note, "the partitioner found no partition of the weighted set (%s): "
                      "no optimum to measure against", dls_partition_note(r));
    } else {
        v->q.best = dls_partition_makespan(r);
        v->q.proven = sol == DLS_SOLUTION_OPTIMAL;
        if (!v->q.proven)
            dls__note_add(&v->note, "the partitioner's answer for the weighted set is a "
                          "heuristic's, not proven optimal: its makespan %.10g s, its proven "
                          "lower bound %.10g s (the optimum lies between); the gap is to the "
                          "best answer found%s%s", v->q.best, dls_partition_lower_bound(r),
                          dls_partition_note(r)[0] ? "; " : "", dls_partition_note(r));
        gap(v);
        if (v->q.gap < 0)
            dls__note_add(&v->note, "the claim beats the partitioner's best by %.6g s",
                          -v->q.gap);
    }
    dls_partition_free(r);
    return DLS_OK;
}

/* The elements are counted in 64 bits by the partitioner: a sum past 2^53 is no count. */
static dls_status check_element_count(const dls_claim *c, const dls_verify_params *p,
                                      double load, dls_error *err)
{
    if (p->weights == NULL && !c->weighted &&
        !(load >= 0 && load <= (double)DLS_PARTITION_MAX_ELEMENTS))
        return dls__fail(err, DLS_EINVAL, "dls_partition_verify", "%.10g elements to distribute: "
                         "a partition has 0 to 2^53 (%llu, DLS_PARTITION_MAX_ELEMENTS)", load,
                         DLS_PARTITION_MAX_ELEMENTS);
    return DLS_OK;
}

/* The size of each processor's part: the claimed loads, or with the set of weights, what
 * the placement really gives (held, with cnt the elements per processor). */
typedef struct parts {
    const double *size;
    double *held;
    uint64_t *cnt;
} parts;

/* The parts against the set of weights (params->weights): the placement when the claim
 * gives one; q.load becomes the weights' sum. -1 when out of memory. */
static int check_weighted_parts(const dls_platform *pl, const dls_claim *c,
                                const dls_verify_params *p, dls_verification *v, parts *pt)
{
    long double total = 0;
    for (size_t e = 0; e < p->n_weights; e++)
        total += p->weights[e];
    v->q.load = (double)total;
    pt->held = malloc((c->n ? c->n : 1) * sizeof *pt->held);
    pt->cnt = calloc(c->n ? c->n : 1, sizeof *pt->cnt);
    if (pt->held == NULL || pt->cnt == NULL)
        return -1;
    if (c->owner == NULL && c->first == NULL) {
        if (add(v, DLS_VIOLATION_ELEMENT_MISSING, -1, v->q.load, 0, v->q.load, "the claim "
                "does not say which elements each processor holds (an \"assignment\", or "
                "each processor's \"first\"): none of the %zu elements is placed",
                p->n_weights) != 0)
            return -1;
        return c->weighted ? check_loads(pl, c, p, 0, v) : 0;
    }
    if (check_placement(pl, c, p, v, pt->held, pt->cnt) != 0 ||
        check_weights_held(pl, c, p, pt->held, pt->cnt, v) != 0)
        return -1;
    pt->size = pt->held;
    return 0;
}

/* Each processor's time for its part against its claimed finish, and the makespan the
 * partition reaches. -1 when out of memory. */
static int check_part_times(const dls_platform *pl, const dls_claim *c,
                            const dls_verify_params *p, uint64_t matrix, const double *size,
                            dls_verification *v)
{
    int weighted = c->weighted || p->weights != NULL;
    double T = 0;
    for (size_t i = 0; i < c->n; i++)
        T = fmax(T, part_time(&pl->procs[i], size[i], matrix));
    double eps = p->tolerance * fmax(T, isnan(c->makespan) ? 0 : c->makespan);
    double real = T;
    for (size_t i = 0; i < c->n; i++) {
        double t = part_time(&pl->procs[i], size[i], matrix), fin = c->finish[i];
        if (!isnan(fin) && fin < t - eps && add(v, DLS_VIOLATION_FINISH, (long)i, t, fin, t - fin,
                                                "processor \"%s\": claimed to take %.10g s for "
                                                "%s %.10g, which take%s %.10g s (by %.6g s)",
                                                pl->procs[i].name, fin,
                                                weighted ? "a weight of" : "elements:",
                                                size[i], weighted ? "s" : "", t, t - fin))
            return -1;
        if (!isnan(fin))
            real = fmax(real, fin);
    }
    v->q.makespan = real;
    return check_makespan(v, c->makespan, real, p->tolerance, "partition");
}

/* The optimum of an unweighted partition (of elements or of a matrix's rows). */
static dls_status elements_optimum(const dls_platform *pl, const dls_verify_params *p,
                                   uint64_t matrix, dls_verification *v, dls_error *err)
{
    dls_partition_params pp;
    dls_partition_params_init(&pp);
    pp.use_limits = p->use_limits;
    dls_partition *r = NULL;
    uint64_t n = (uint64_t)v->q.load;
    dls_status st = matrix ? dls_partition_solve_matrix(pl, matrix, &pp, &r, err)
                           : dls_partition_solve(pl, n, &pp, &r, err);
    if (st != DLS_OK)
        return st;
    v->q.best = dls_partition_makespan(r);
    v->q.proven = dls_partition_status(r) == DLS_SOLUTION_OPTIMAL;
    if (!v->q.proven)
        dls__note_add(&v->note, "the partitioner's answer is not proven optimal (%s): the "
                      "gap is to the best answer found", dls_partition_note(r));
    dls_partition_free(r);
    gap(v);
    return DLS_OK;
}

/* The optimum a valid partition is measured against, where one can be computed. */
static dls_status partition_optimum(const dls_platform *pl, const dls_claim *c,
                                    const dls_verify_params *p, uint64_t matrix,
                                    dls_verification *v, dls_error *err)
{
    if (p->weights != NULL)
        return weighted_optimum(pl, p, v, err);
    if (c->weighted) {
        dls__note_add(&v->note, "a partition of weighted elements: each processor's time is "
                      "checked for the weight it holds, but not which elements it holds, and "
                      "no optimum is computed (that needs the set of weights: "
                      "params->weights, `verify --weights FILE`)");
        return DLS_OK;
    }
    return elements_optimum(pl, p, matrix, v, err);
}

static dls_status dls_partition_verify_impl(const dls_platform *pl, const dls_claim *c,
                                            const dls_verify_params *p, dls_verification **out,
                                            dls_error *err)
{
    dls_verify_params defaults;
    dls_status st = check_claim(pl, c, DLS_CLAIM_PARTITION, &p, &defaults, out,
                                "dls_partition_verify", err);
    if (st != DLS_OK)
        return st;
    uint64_t matrix = p->matrix ? p->matrix : c->matrix;
    if (matrix == 0 &&
        (st = refuse_two_d(pl, c->n, "dls_partition_verify", ": give the matrix order "
                           "(params->matrix)", err)) != DLS_OK)
        return st;
    dls_verification *v = verification_new();
    if (v == NULL)
        return dls__oom(err, "dls_partition_verify");
    v->q.load = matrix ? (double)matrix : claimed_load(c, p);
    v->q.claimed_makespan = c->makespan;
    st = check_element_count(c, p, v->q.load, err);
    parts pt = {c->load, NULL, NULL};
    int nomem = 0;
    if (st == DLS_OK && p->weights != NULL)
        nomem = check_weighted_parts(pl, c, p, v, &pt) != 0;
    else if (st == DLS_OK)
        nomem = check_loads(pl, c, p, !c->weighted, v) != 0;
    if (st == DLS_OK && !nomem)
        nomem = check_part_times(pl, c, p, matrix, pt.size, v) != 0;
    if (nomem)
        st = dls__oom(err, "dls_partition_verify");
    else if (st == DLS_OK && v->count == 0 && p->optimum)
        st = partition_optimum(pl, c, p, matrix, v, err);
    free(pt.held);
    free(pt.cnt);
    if (st != DLS_OK) {
        dls_verification_free(v);
        return st;
    }
    *out = v;
    return DLS_OK;
}

dls_status dls_partition_verify(const dls_platform *platform, const dls_claim *claim,
                                const dls_verify_params *params, dls_verification **out,
                                dls_error *err)
{
    return dls_partition_verify_impl(platform, claim, params, out, err);
}

/* The round-robin of dlsched/installment.h, computed here from its definition: the
 * rotation, each processor's load and the finish of its last chunk. */
typedef struct rr_plan {
    size_t p, *proc;   /* the rotation, platform indices */
    uint64_t N;        /* chunks */
    double full, last; /* a full chunk, the last one */
} rr_plan;

/* V - q delta with one rounding (the product is exact inside the fma: q < 2^53). */
static double rr_rest(double V, double delta, uint64_t q)
{
    return fma(-(double)q, delta, V);
}

/* Steps that correct floor(V / delta) to the true quotient. Below 2^53 chunks the rounded
 * V / delta is off by less than one chunk, so one step settles it; the bound makes every
 * correcting loop finite by construction, whatever the rounding does. */
#define RR_CORRECT_MAX 4

/* The rotation and the chunks; DLS_EINVAL (named value) for a chunk that makes
 * DLS_INSTALLMENT_MAX_CHUNKS or more, DLS_ENOMEM. */
static dls_status rr_make(const dls_platform *pl, const dls_claim *c,
                          const dls_verify_params *par, double V, rr_plan *r, dls_error *err)
{
    double delta = c->chunk, count = V / delta;
    if (!(count < (double)DLS_INSTALLMENT_MAX_CHUNKS))
        return dls__fail(err, DLS_EINVAL, "dls_installment_verify", "the claim's chunk %.10g "
                         "divides the load %.10g into %.6g chunks, more than 2^53 (%llu, "
                         "DLS_INSTALLMENT_MAX_CHUNKS: the most an installment schedule has)",
                         delta, V, count, DLS_INSTALLMENT_MAX_CHUNKS);
    r->full = delta < V ? delta : V;
    r->proc = malloc((c->n ? c->n : 1) * sizeof *r->proc);
    if (r->proc == NULL)
        return dls__oom(err, "dls_installment_verify");
    r->p = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!par->use_limits || pl->procs[i].limit >= r->full)
            r->proc[r->p++] = i;
    if (delta >= V) {
        r->N = 1;
        r->last = V;
        return DLS_OK;
    }
    uint64_t q = (uint64_t)count;
    double rem = rr_rest(V, delta, q);
    for (int k = 0; k < RR_CORRECT_MAX && rem < 0 && q > 0; k++)
        rem = rr_rest(V, delta, --q);
    for (int k = 0; k < RR_CORRECT_MAX && rem >= delta; k++)
        rem = rr_rest(V, delta, ++q);
    /* a remainder rounded up to delta and stepped past: q chunks fill V within a rounding */
    if (rem < 0 && q > 0)
        rem = 0;
    if (rem < 0 || rem >= delta || q == 0)
        return dls__fail(err, DLS_EINVAL, "dls_installment_verify", "the load %.10g does not "
                         "divide into whole chunks of %.10g in double precision (a remainder "
                         "of %.6g after %llu chunks)", V, delta, rem, (unsigned long long)q);
    r->N = q + (rem > 0);
    r->last = rem > 0 ? rem : delta;
    /* a sliver within the rule joins the chunk before it (as the installment's snap) */
    if (rem > 0 && rem <= par->tolerance * delta && r->p > 0) {
        size_t to = r->proc[(q - 1) % r->p];
        if (!par->use_limits || pl->procs[to].limit >= delta + rem) {
            r->N = q;
            r->last = delta + rem;
        }
    }
    return DLS_OK;
}

/* What the round-robin gives each processor (want, in units) and when its last chunk ends
 * (fin); returns the latest end. Sends of full chunks: position k starts at a_k in every
 * round of R seconds. */
static double rr_finishes(const dls_platform *pl, const rr_plan *r, double *want, double *fin)
{
    double R = 0;
    for (size_t k = 0; k < r->p; k++) {
        const dls__proc *pr = &pl->procs[r->proc[k]];
        R += pr->startup + pr->rate * r->full;
    }
    double a = 0, T = 0;
    uint64_t lastpos = (r->N - 1) % r->p, lastround = (r->N - 1) / r->p;
    for (size_t k = 0; k < r->p; k++) {
        size_t i = r->proc[k];
        const dls__proc *pr = &pl->procs[i];
        double send = pr->startup + pr->rate * r->full;
        double tau = dls_model_time(pr->model, r->full);
        double M = fmax(R, tau);
        uint64_t count = r->N > k ? (r->N - 1 - k) / r->p + 1 : 0;
        if (count > 0) {
            double base = a + send + tau; /* the finish of its chunk of round 0 */
            if (k == lastpos) {
                double rr = (double)lastround;
                double s0 = a + rr * R, s1 = s0 + pr->startup + pr->rate * r->last;
                double start = lastround > 0 ? fmax(s1, base + (rr - 1) * M) : s1;
                fin[i] = start + dls_model_time(pr->model, r->last);
                want[i] = (double)(count - 1) * r->full + r->last;
            } else {
                fin[i] = base + (double)(count - 1) * M;
                want[i] = (double)count * r->full;
            }
            T = fmax(T, fin[i]);
        }
        a += send;
    }
    return T;
}

/* The claim against the round-robin's loads and finishes (T the latest), and the makespan
 * it reaches. -1 when out of memory. */
static int rr_compare(const dls_platform *pl, const dls_claim *c, const dls_verify_params *p,
                      const rr_plan *r, const double *want, const double *fin, double T,
                      dls_verification *v)
{
    double V = v->q.load;
    double eps = p->tolerance * fmax(T, isnan(c->makespan) ? 0 : c->makespan);
    for (size_t i = 0; i < c->n; i++) {
        const char *name = pl->procs[i].name;
        if (fabs(c->load[i] - want[i]) > p->tolerance * V &&
            add(v, DLS_VIOLATION_ROUND_ROBIN, (long)i, want[i], c->load[i],
                fabs(c->load[i] - want[i]), "processor \"%s\": the round-robin of %llu "
                "chunks of %.10g gives it %.10g units, the claim %.10g", name,
                (unsigned long long)r->N, r->full, want[i], c->load[i]) != 0)
            return -1;
        double f = c->finish[i];
        if (want[i] > 0 && !isnan(f) && f < fin[i] - eps &&
            add(v, DLS_VIOLATION_FINISH, (long)i, fin[i], f, fin[i] - f,
                "processor \"%s\": claimed to finish at %.10g, but its chunks end at "
                "%.10g (by %.6g s)", name, f, fin[i], fin[i] - f) != 0)
            return -1;
        if (want[i] > 0 && !isnan(f))
            T = fmax(T, f);
    }
    v->q.makespan = T;
    return check_makespan(v, c->makespan, T, p->tolerance, "schedule");
}

/* The claim against the round-robin of its chunk: the load (q.load, the claim's), the
 * rotation (r, the caller frees r->proc), each processor's share and finish (want and fin,
 * c->n each, zeroed). */
static dls_status check_round_robin(const dls_platform *pl, const dls_claim *c,
                                    const dls_verify_params *p, rr_plan *r, double *want,
                                    double *fin, dls_verification *v, dls_error *err)
{
    double V = v->q.load = claimed_load(c, p);
    v->q.claimed_makespan = c->makespan;
    dls_status st;
    if ((st = check_load(V, "dls_installment_verify", err)) != DLS_OK ||
        (st = rr_make(pl, c, p, V, r, err)) != DLS_OK)
        return st;
    /* a limit bounds a chunk here, not a processor's total: the rotation keeps out the
     * processors that cannot hold one, and a load given to them is a round-robin fault */
    dls_verify_params totals = *p;
    totals.use_limits = 0;
    int nomem = check_loads(pl, c, &totals, 0, v) != 0;
    if (!nomem && r->p == 0)
        nomem = add(v, DLS_VIOLATION_LIMIT, -1, r->full, r->full, r->full, "no processor's "
                    "limit holds a chunk of %.10g units", r->full) != 0;
    else if (!nomem)
        nomem = rr_compare(pl, c, p, r, want, fin, rr_finishes(pl, r, want, fin), v) != 0;
    if (nomem)
        return dls__oom(err, "dls_installment_verify");
    return DLS_OK;
}

/* No optimum is known for multi-installment schedules: the single-installment one, for
 * reference. */
static dls_status installment_reference(const dls_platform *pl, const dls_verify_params *p,
                                        dls_verification *v, dls_error *err)
{
    dls_schedule_params sp;
    dls_schedule_params_init(&sp);
    sp.use_limits = p->use_limits;
    dls_schedule *s = NULL;
    dls_status st = dls_schedule_solve(pl, v->q.load, &sp, &s, err);
    if (st != DLS_OK)
        return st;
    v->q.selection_optimum = dls_schedule_lp_makespan(s);
    dls_schedule_free(s);
    dls__note_add(&v->note, "no optimum is known for multi-installment schedules: the "
                  "single-installment optimum (best set of processors) is %.10g s, for "
                  "reference", v->q.selection_optimum);
    return DLS_OK;
}

static dls_status dls_installment_verify_impl(const dls_platform *pl, const dls_claim *c,
                                              const dls_verify_params *p,
                                              dls_verification **out, dls_error *err)
{
    dls_verify_params defaults;
    dls_status st = check_claim(pl, c, DLS_CLAIM_INSTALLMENTS, &p, &defaults, out,
                                "dls_installment_verify", err);
    if (st != DLS_OK)
        return st;
    if (isnan(c->chunk))
        return dls__fail(err, DLS_EINVAL, "dls_installment_verify", "the claim has no chunk "
                         "size (dls_claim_set_chunk)");
    st = refuse_two_d(pl, c->n, "dls_installment_verify", "", err);
    if (st != DLS_OK)
        return st;
    dls_verification *v = verification_new();
    rr_plan r = {0, NULL, 0, 0, 0};
    double *want = calloc(c->n ? c->n : 1, sizeof *want);
    double *fin = calloc(c->n ? c->n : 1, sizeof *fin);
    if (v == NULL || want == NULL || fin == NULL)
        st = dls__oom(err, "dls_installment_verify");
    else
        st = check_round_robin(pl, c, p, &r, want, fin, v, err);
    if (st == DLS_OK && v->count == 0 && p->optimum)
        st = installment_reference(pl, p, v, err);
    free(r.proc);
    free(want);
    free(fin);
    if (st != DLS_OK) {
        dls_verification_free(v);
        return st;
    }
    *out = v;
    return DLS_OK;
}

dls_status dls_installment_verify(const dls_platform *platform, const dls_claim *claim,
                                  const dls_verify_params *params, dls_verification **out,
                                  dls_error *err)
{
    return dls_installment_verify_impl(platform, claim, params, out, err);
}

int dls_verification_valid(const dls_verification *v) { return v->count == 0; }
size_t dls_verification_count(const dls_verification *v) { return v->count; }

const dls_violation *dls_verification_violation(const dls_verification *v, size_t k)
{
    return v != NULL && k < v->kept ? &v->v[k] : NULL;
}

dls_status dls_verification_get_quality(const dls_verification *v, dls_verify_quality *q)
{
    if (v == NULL || q == NULL)
        return DLS_EINVAL;
    *q = v->q;
    return DLS_OK;
}

const char *dls_verification_note(const dls_verification *v)
{
    return v->note ? v->note : "";
}

/* ---------------------------------------------------------------------------------- */
/* Reading claims */

dls_status dls_claim_read_string(const dls_platform *platform, const char *text, size_t len,
                                 const char *source, dls_claim **out, dls_error *err)
{
    if (platform == NULL || text == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_read_string", "NULL argument");
    if (source == NULL)
        source = "claim";
    /* a byte order mark is not part of the text; JSON starts with '{', else CSV */
    if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
        text += 3;
        len -= 3;
    }
    size_t k = 0;
    while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r'))
        k++;
    if (k < len && text[k] == '{')
        return dls__claim_read_json(text, len, source, platform, out, err);
    return dls__claim_read_csv(text, len, source, platform, out, err);
}

dls_status dls_claim_read_file(const dls_platform *platform, const char *path, dls_claim **out,
                               dls_error *err)
{
    if (platform == NULL || path == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_claim_read_file", "NULL argument");
    char *text;
    size_t len;
    dls_status st = dls__import_read(path, &text, &len, err);
    if (st != DLS_OK)
        return st;
    st = dls_claim_read_string(platform, text, len, path, out, err);
    free(text);
    return st;
}
