/* Multi-installment processing (Drozdowski and Wolniewicz 2003, section 2): parameters and checks,
 * the chunking of the load and the rotation, the closed-form timeline of round-robin installments,
 * and the schedule object.
 *
 * The closed form. Position k of the rotation receives its chunk of round r at
 * a_k + r R (every chunk before the last has size delta, so every round of sends lasts R),
 * and, with f_{-1} = -inf, finishes it at f_r = max(a_k + r R, f_{r-1}) + tau_k. By
 * induction f_r = a_k + tau_k + r max(R, tau_k): when R >= tau_k each chunk arrives after
 * the previous one is done, otherwise the processor never idles after its first chunk. Only
 * the very last chunk (possibly smaller) is computed apart. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "installment/installment_impl.h"
#include "platform/platform_impl.h"

/* Defaults of dls_installment_params (documented in the header). */
#define DLS__INSTALLMENT_DEFAULT_SNAP_TOL 1e-9
#define DLS__INSTALLMENT_MAX_SNAP_TOL 1e-3
#define DLS__INSTALLMENT_DEFAULT_MAX_CHUNKS 1e12
#define DLS__INSTALLMENT_DEFAULT_GRID 16u
#define DLS__INSTALLMENT_MIN_GRID 2u
#define DLS__INSTALLMENT_MAX_GRID 1000u
#define DLS__INSTALLMENT_DEFAULT_REFINE_POINTS 48u
#define DLS__INSTALLMENT_MAX_REFINE_POINTS 100000u
#define DLS__INSTALLMENT_DEFAULT_REFINE_PASSES 4u
#define DLS__INSTALLMENT_MAX_REFINE_PASSES 100u
/* Processors named one by one in the note about limits; the rest are counted. */
#define DLS__INSTALLMENT_NOTE_NAMES 5

void dls_installment_params_init(dls_installment_params *params)
{
    if (params == NULL)
        return;
    memset(params, 0, sizeof *params);
    params->use_limits = 1;
    params->snap_tol = DLS__INSTALLMENT_DEFAULT_SNAP_TOL;
    params->max_chunks = DLS__INSTALLMENT_DEFAULT_MAX_CHUNKS;
    params->grid_per_decade = DLS__INSTALLMENT_DEFAULT_GRID;
    params->refine_points = DLS__INSTALLMENT_DEFAULT_REFINE_POINTS;
    params->refine_passes = DLS__INSTALLMENT_DEFAULT_REFINE_PASSES;
}

dls_status dls__inst_check_params(const dls_installment_params *par, const char *who,
                                  dls_error *err)
{
    dls_status rs = DLS__CHECK_RESERVED(par, who, dls_installment_params, err);
    if (rs != DLS_OK)
        return rs;
    if (par->use_limits != 0 && par->use_limits != 1)
        return dls__fail(err, DLS_EINVAL, who, "use_limits must be 0 or 1, not %d",
                         par->use_limits);
    if (!(par->snap_tol >= 0 && par->snap_tol <= DLS__INSTALLMENT_MAX_SNAP_TOL))
        return dls__fail(err, DLS_EINVAL, who, "snap_tol must be in [0, %g], not %.10g",
                         DLS__INSTALLMENT_MAX_SNAP_TOL, par->snap_tol);
    if (!(par->max_chunks >= 1 && par->max_chunks <= (double)DLS_INSTALLMENT_MAX_CHUNKS))
        return dls__fail(err, DLS_EINVAL, who, "max_chunks must be in [1, 2^53], not %.10g",
                         par->max_chunks);
    if (par->grid_per_decade < DLS__INSTALLMENT_MIN_GRID ||
        par->grid_per_decade > DLS__INSTALLMENT_MAX_GRID)
        return dls__fail(err, DLS_EINVAL, who, "grid_per_decade must be in [%u, %u], not %u",
                         DLS__INSTALLMENT_MIN_GRID, DLS__INSTALLMENT_MAX_GRID,
                         par->grid_per_decade);
    if (par->refine_points > DLS__INSTALLMENT_MAX_REFINE_POINTS)
        return dls__fail(err, DLS_EINVAL, who, "refine_points must be at most %u, not %u",
                         DLS__INSTALLMENT_MAX_REFINE_POINTS, par->refine_points);
    if (par->refine_passes > DLS__INSTALLMENT_MAX_REFINE_PASSES)
        return dls__fail(err, DLS_EINVAL, who, "refine_passes must be at most %u, not %u",
                         DLS__INSTALLMENT_MAX_REFINE_PASSES, par->refine_passes);
    return DLS_OK;
}

dls_status dls__inst_check_load(double V, const char *who, dls_error *err)
{
    return dls__domain_load(V, who, err);
}

/* ---------------------------------------------------------------------------------- */
/* The platform                                                                        */

dls_status dls__inst_check_platform(const dls_platform *pl, const char *who, dls_error *err)
{
    if (pl->n == 0)
        return dls__fail(err, DLS_EINVAL, who, "the platform has no processor");
    for (size_t i = 0; i < pl->n; i++)
        if (pl->procs[i].two_d)
            return dls__fail_at(err, DLS_EINVAL, 0, 0, (long)i, who,
                                "processor \"%s\" has a 2-D speed model: multi-installment "
                                "processing needs a speed or time function of one size (take a "
                                "section)", pl->procs[i].name);
    return DLS_OK;
}

double dls__inst_limit(const dls_platform *pl, size_t i, const dls_installment_params *par)
{
    return par->use_limits ? pl->procs[i].limit : INFINITY;
}

double dls__inst_time_level(const dls_model *m, double x, int *level)
{
    size_t n;
    const double *a, *b;
    *level = 0;
    if (dls_model_get_lines(m, &n, &a, &b) != DLS_OK)
        return dls_model_time(m, x);
    double top = -INFINITY;
    for (size_t l = 0; l < n; l++)
        if (a[l] + b[l] * x > top) {
            top = a[l] + b[l] * x;
            *level = (int)l + 1;
        }
    return top;
}

/* The larger of two numbers that are not NaN (fmax is a library call here, in hot loops). */
static inline double larger(double a, double b)
{
    return a > b ? a : b;
}

/* ---------------------------------------------------------------------------------- */
/* The plan at one chunk size                                                          */

void dls__inst_plan_free(dls__inst_plan *plan)
{
    free(plan->proc);
    free(plan->pre);
    free(plan->send);
    free(plan->tau);
    free(plan->M);
    free(plan->level);
    memset(plan, 0, sizeof *plan);
}

int dls__inst_plan_alloc(dls__inst_plan *plan, size_t n)
{
    memset(plan, 0, sizeof *plan);
    if (n == 0)
        n = 1;
    plan->proc = malloc(n * sizeof *plan->proc);
    plan->pre = malloc(n * sizeof *plan->pre);
    plan->send = malloc(n * sizeof *plan->send);
    plan->tau = malloc(n * sizeof *plan->tau);
    plan->M = malloc(n * sizeof *plan->M);
    plan->level = malloc(n * sizeof *plan->level);
    if (!plan->proc || !plan->pre || !plan->send || !plan->tau || !plan->M || !plan->level) {
        dls__inst_plan_free(plan);
        return -1;
    }
    return 0;
}

/* V - q delta with one rounding (the product is exact inside the fma), so that the last
 * chunk keeps its relative accuracy even after 10^10 chunks. */
static double remainder_after(double V, double delta, uint64_t q)
{
    return fma(-(double)q, delta, V);
}

dls_status dls__inst_plan_make(const dls_platform *pl, double V, double delta,
                               const dls_installment_params *par, dls__inst_plan *plan,
                               dls_error *err)
{
    double count = V / delta;
    if (!(count < (double)DLS_INSTALLMENT_MAX_CHUNKS))
        return dls__fail(err, DLS_ERANGE, "installment",
                         "a load of %.10g in chunks of %.10g makes " "%.6g chunks, more than 2^53",
                         V, delta, count);
    /* the rotation: processors that can hold a full chunk (the whole load when it is one) */
    double full = delta < V ? delta : V;
    size_t p = 0, widest = 0;
    for (size_t i = 0; i < pl->n; i++) {
        double lim = dls__inst_limit(pl, i, par);
        if (lim >= full)
            plan->proc[p++] = i;
        if (lim > dls__inst_limit(pl, widest, par))
            widest = i;
    }
    if (p == 0)
        return dls__fail_at(err, DLS_ERANGE, 0, 0, (long)widest, "installment",
                            "no processor can hold a chunk of %.10g units: the "
                            "largest limit is %.10g (processor \"%s\")", full,
                            dls__inst_limit(pl, widest, par), pl->procs[widest].name);
    /* the number of chunks */
    uint64_t N;
    if (delta >= V) {
        N = 1;
    } else {
        uint64_t q = (uint64_t)count;
        double rem = remainder_after(V, delta, q);
        while (rem < 0 && q > 0)
            rem = remainder_after(V, delta, --q);
        while (rem >= delta)
            rem = remainder_after(V, delta, ++q);
        N = rem > 0 ? q + 1 : q;
        if (rem > 0 && rem <= par->snap_tol * delta && q >= 1) {
            /* a sliver: it joins chunk q - 1 unless that makes the chunk too big for the
             * processor receiving it */
            double joined = remainder_after(V, delta, q - 1);
            if (dls__inst_limit(pl, plan->proc[(q - 1) % p], par) >= joined)
                N = q;
        }
    }
    plan->V = V;
    plan->delta = delta;
    plan->N = N;
    plan->p = p;
    plan->rounds = (N + p - 1) / p;
    plan->last = N == 1 ? V : remainder_after(V, delta, N - 1);
    double clock = 0;
    for (size_t k = 0; k < p; k++) {
        const dls__proc *pr = &pl->procs[plan->proc[k]];
        plan->pre[k] = clock;
        plan->send[k] = pr->startup + pr->rate * full;
        plan->tau[k] = dls__inst_time_level(pr->model, full, &plan->level[k]);
        clock += plan->send[k];
    }
    plan->R = clock;
    for (size_t k = 0; k < p; k++)
        plan->M[k] = larger(plan->R, plan->tau[k]);
    const dls__proc *pr = &pl->procs[plan->proc[(N - 1) % p]];
    plan->last_send = pr->startup + pr->rate * plan->last;
    plan->last_time = dls_model_time(pr->model, plan->last);
    return DLS_OK;
}

void dls__inst_event(const dls__inst_plan *plan, uint64_t j, dls_installment_event *ev)
{
    uint64_t r = j / plan->p;
    size_t k = (size_t)(j % plan->p);
    int last = j == plan->N - 1;
    double rr = (double)r;
    memset(ev, 0, sizeof *ev);
    /* a_k + tau_k: the finish of round 0, the origin of the closed form */
    double base = plan->pre[k] + plan->send[k] + plan->tau[k];
    ev->chunk = j;
    ev->round = r;
    ev->processor = plan->proc[k];
    ev->size = last ? plan->last : plan->delta;
    ev->send_start = plan->pre[k] + rr * plan->R;
    ev->send_end = ev->send_start + (last ? plan->last_send : plan->send[k]);
    double start = ev->send_end;
    if (r > 0) {
        double previous = base + (rr - 1) * plan->M[k];
        if (previous > start)
            start = previous;
    }
    ev->compute_start = start;
    /* a full chunk ends where the closed form says; rounding must not put it before its
     * start when its time is below the resolution of the clock */
    ev->compute_end = last ? start + plan->last_time : larger(start, base + rr * plan->M[k]);
}

uint64_t dls__inst_last_of(const dls__inst_plan *plan, size_t k)
{
    return k + plan->p * ((plan->N - 1 - k) / plan->p);
}

double dls__inst_makespan(const dls__inst_plan *plan)
{
    size_t used = plan->N < plan->p ? (size_t)plan->N : plan->p;
    double makespan = 0;
    for (size_t k = 0; k < used; k++) {
        dls_installment_event ev;
        dls__inst_event(plan, dls__inst_last_of(plan, k), &ev);
        if (ev.compute_end > makespan)
            makespan = ev.compute_end;
    }
    return makespan;
}

/* ---------------------------------------------------------------------------------- */
/* The schedule object                                                                 */

void dls_installment_free(dls_installment *s)
{
    if (s == NULL)
        return;
    dls__inst_plan_free(&s->plan);
    free(s->note);
    free(s->role);
    free(s->chunks);
    free(s->load);
    free(s->first);
    free(s->finish);
    free(s->busy);
    free(s->wait);
    free(s->ctime);
    free(s->level);
    free(s->sample_chunk);
    free(s->sample_makespan);
    free(s->ev);
    free(s->ev_level);
    free(s->ret_start);
    free(s->ret_end);
    free(s->lp);
    free(s);
}

static void write_note(dls_installment *s, const dls_platform *pl,
                       const dls_installment_params *par)
{
    size_t out = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->role[i] != DLS_INSTALLMENT_OVER_LIMIT)
            continue;
        if (out++ < DLS__INSTALLMENT_NOTE_NAMES)
            dls__note_add(&s->note, "processor \"%s\": its limit %.6g is below the chunk size "
                          "%.6g: left out of the rotation", pl->procs[i].name,
                          dls__inst_limit(pl, i, par), s->plan.delta);
    }
    if (out > DLS__INSTALLMENT_NOTE_NAMES)
        dls__note_add(&s->note, "%zu more processor%s left out of the rotation for their limit",
                      out - DLS__INSTALLMENT_NOTE_NAMES,
                      out - DLS__INSTALLMENT_NOTE_NAMES == 1 ? "" : "s");
    if (s->plan.N < s->plan.p)
        dls__note_add(&s->note, "the load makes %llu chunk%s: only %llu of the %zu processors in "
                      "the rotation get%s one", (unsigned long long)s->plan.N,
                      s->plan.N == 1 ? "" : "s", (unsigned long long)s->plan.N, s->plan.p,
                      s->plan.N == 1 ? "s" : "");
}

dls_status dls__inst_result(const dls_platform *pl, const dls_installment_params *par,
                            dls__inst_plan *plan, dls_installment **out, dls_error *err)
{
    size_t n = pl->n, p = plan->p;
    dls_installment *s = calloc(1, sizeof *s);
    if (s == NULL)
        return dls__oom(err, "installment");
    s->n = n;
    s->role = malloc(n * sizeof *s->role);
    s->chunks = calloc(n, sizeof *s->chunks);
    s->load = calloc(n, sizeof *s->load);
    s->first = malloc(n * sizeof *s->first);
    s->finish = malloc(n * sizeof *s->finish);
    s->busy = calloc(n, sizeof *s->busy);
    s->wait = calloc(n, sizeof *s->wait);
    s->ctime = malloc(n * sizeof *s->ctime);
    s->level = calloc(n, sizeof *s->level);
    if (!s->role || !s->chunks || !s->load || !s->first || !s->finish || !s->busy || !s->wait ||
        !s->ctime || !s->level) {
        dls_installment_free(s);
        return dls__oom(err, "installment");
    }
    /* the schedule takes the plan over */
    s->plan = *plan;
    memset(plan, 0, sizeof *plan);
    for (size_t i = 0; i < n; i++) {
        s->role[i] = DLS_INSTALLMENT_OVER_LIMIT;
        s->first[i] = s->finish[i] = s->ctime[i] = NAN;
    }
    const dls__inst_plan *pn = &s->plan;
    size_t last_k = (size_t)((pn->N - 1) % p);
    for (size_t k = 0; k < p; k++) {
        size_t i = pn->proc[k];
        s->ctime[i] = pn->tau[k];
        s->level[i] = pn->level[k];
        if (k >= pn->N) {
            s->role[i] = DLS_INSTALLMENT_NO_CHUNK;
            continue;
        }
        s->role[i] = DLS_INSTALLMENT_WORKS;
        uint64_t c = (pn->N - 1 - k) / p + 1;
        s->chunks[i] = c;
        dls_installment_event final;
        dls__inst_event(pn, dls__inst_last_of(pn, k), &final);
        /* the first chunk is the last one only when it is the only one */
        s->first[i] = c == 1 ? final.send_end : pn->pre[k] + pn->send[k];
        s->finish[i] = final.compute_end;
        if (final.compute_end > s->makespan)
            s->makespan = final.compute_end;
        if (k == last_k) {
            s->load[i] = (double)(c - 1) * pn->delta + pn->last;
            s->busy[i] = (double)(c - 1) * pn->tau[k] + pn->last_time;
        } else {
            s->load[i] = (double)c * pn->delta;
            s->busy[i] = (double)c * pn->tau[k];
        }
        s->wait[i] = larger(0, s->finish[i] - s->first[i] - s->busy[i]);
    }
    write_note(s, pl, par);
    *out = s;
    return DLS_OK;
}

void dls__inst_set_samples(dls_installment *s, size_t n, double *chunk, double *makespan)
{
    free(s->sample_chunk);
    free(s->sample_makespan);
    s->nsamples = n;
    s->sample_chunk = chunk;
    s->sample_makespan = makespan;
}

static dls_status dls_installment_simulate_impl(const dls_platform *platform, double load, double chunk,
                                                const dls_installment_params *params,
                                                dls_installment **out, dls_error *err)
{
    static const char who[] = "dls_installment_simulate";
    dls_installment_params defaults;
    if (platform == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, who, "NULL argument");
    if (params == NULL) {
        dls_installment_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = dls__inst_check_params(params, who, err);
    if (st == DLS_OK)
        st = dls__inst_check_load(load, who, err);
    if (st == DLS_OK && !(isfinite(chunk) && chunk > 0))
        st = dls__fail(err, DLS_EINVAL, who, "the chunk size must be a finite number > 0, not "
                       "%.10g", chunk);
    if (st == DLS_OK)
        st = dls__inst_check_platform(platform, who, err);
    if (st != DLS_OK)
        return st;
    dls__inst_plan plan;
    if (dls__inst_plan_alloc(&plan, platform->n) != 0)
        return dls__oom(err, who);
    st = dls__inst_plan_make(platform, load, chunk, params, &plan, err);
    if (st == DLS_OK)
        st = dls__inst_result(platform, params, &plan, out, err);
    dls__inst_plan_free(&plan);
    return st;
}

dls_status dls_installment_simulate(const dls_platform *platform, double load, double chunk,
                                    const dls_installment_params *params,
                                    dls_installment **out, dls_error *err)
{
    dls_status st = dls_installment_simulate_impl(platform, load, chunk, params, out, err);
    return dls__error_retag(err, st, "dls_installment_simulate");
}

dls_status dls_installment_event_at(const dls_installment *s, uint64_t index,
                                    dls_installment_event *out, dls_error *err)
{
    if (s == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_event_at", "NULL argument");
    if (index >= s->plan.N)
        return dls__fail(err, DLS_EINVAL, "dls_installment_event_at", "chunk %llu does not "
                         "exist (the schedule has %llu chunks)", (unsigned long long)index,
                         (unsigned long long)s->plan.N);
    if (s->ev != NULL)
        *out = s->ev[index];
    else
        dls__inst_event(&s->plan, index, out);
    return DLS_OK;
}

/* The computation a schedule came from, for the messages of the getters that answer only
 * for some (the LP keeps its figures, a sweep its samples). */
static const char *computation(const dls_installment *s)
{
    if (s->lp != NULL)
        return "dls_installment_solve_lp";
    return s->nsamples > 0 ? "dls_installment_sweep" : "dls_installment_simulate";
}

dls_status dls_installment_get_rounds_info(const dls_installment *s,
                                           dls_installment_rounds_info *out, dls_error *err)
{
    if (s == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_rounds_info", "NULL argument");
    if (s->lp != NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_rounds_info", "the schedule is "
                         "from %s, whose chunks differ (see dls_installment_event_at and "
                         "dls_installment_get_lp_info)", computation(s));
    memset(out, 0, sizeof *out);
    out->chunk = s->plan.delta;
    out->round_time = s->plan.R;
    out->rotation = s->plan.p;
    out->chunk_time = s->ctime;
    out->levels = s->level;
    return DLS_OK;
}

dls_status dls_installment_get_sweep_info(const dls_installment *s,
                                          dls_installment_sweep_info *out, dls_error *err)
{
    if (s == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_sweep_info", "NULL argument");
    if (s->nsamples == 0)
        return dls__fail(err, DLS_EINVAL, "dls_installment_get_sweep_info", "the schedule is "
                         "from %s, not from dls_installment_sweep (it tried one %s)",
                         computation(s),
                         s->lp != NULL ? "sequence of chunks; see dls_installment_get_lp_info"
                                       : "chunk size; see dls_installment_get_rounds_info");
    memset(out, 0, sizeof *out);
    out->samples = s->nsamples;
    out->chunk = s->sample_chunk;
    out->makespan = s->sample_makespan;
    return DLS_OK;
}

/* The deprecated getters (one release): NaN or n = 0 where the computation has no such
 * figure. */
void dls_installment_sweep_samples(const dls_installment *s, size_t *n, const double **chunk,
                                   const double **makespan)
{
    if (n)
        *n = s->nsamples;
    if (chunk)
        *chunk = s->sample_chunk;
    if (makespan)
        *makespan = s->sample_makespan;
}

const char *dls_installment_note(const dls_installment *s) { return s->note ? s->note : ""; }
size_t dls_installment_count(const dls_installment *s) { return s->n; }
double dls_installment_load(const dls_installment *s) { return s->plan.V; }
double dls_installment_chunk(const dls_installment *s) { return s->plan.delta; }
double dls_installment_last_chunk(const dls_installment *s) { return s->plan.last; }
uint64_t dls_installment_chunks(const dls_installment *s) { return s->plan.N; }
uint64_t dls_installment_rounds(const dls_installment *s) { return s->plan.rounds; }
size_t dls_installment_rotation(const dls_installment *s) { return s->plan.p; }
double dls_installment_round_time(const dls_installment *s) { return s->plan.R; }
double dls_installment_makespan(const dls_installment *s) { return s->makespan; }
const dls_installment_role *dls_installment_roles(const dls_installment *s) { return s->role; }
const uint64_t *dls_installment_chunk_counts(const dls_installment *s) { return s->chunks; }
const double *dls_installment_loads(const dls_installment *s) { return s->load; }
const double *dls_installment_first_arrival(const dls_installment *s) { return s->first; }
const double *dls_installment_finish(const dls_installment *s) { return s->finish; }
const double *dls_installment_busy(const dls_installment *s) { return s->busy; }
const double *dls_installment_wait(const dls_installment *s) { return s->wait; }
const double *dls_installment_chunk_time(const dls_installment *s) { return s->ctime; }
const int *dls_installment_binding_levels(const dls_installment *s) { return s->level; }
