/* The schedule object returned by every star scheduler: allocation, the per-processor
 * timeline filled from loads by position, and the accessors. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/names.h"
#include "star/star.h"

DLS__ENUM_NAMES(dls_schedule_kind, dls_schedule_kind, DLS_SCHEDULE_KIND_MAP)
DLS__ENUM_NAMES(dls_send_order, dls_send_order, DLS_SEND_ORDER_MAP)
DLS__ENUM_NAMES(dls_order_method, dls_order_method, DLS_ORDER_METHOD_MAP)
DLS__ENUM_NAMES(dls_star_solver, dls_star_solver, DLS_STAR_SOLVER_MAP)

/* ---------------------------------------------------------------------------------- */
/* The schedule object                                                                */

void dls_schedule_free(dls_schedule *s)
{
    if (s == NULL)
        return;
    free(s->note);
    free(s->details);
    free(s->load);
    free(s->send_start);
    free(s->send_end);
    free(s->compute);
    free(s->finish);
    free(s->idle);
    free(s->level);
    free(s->seq);
    dls__schedule_cert_clear(s);
    free(s);
}

void dls__schedule_cert_clear(dls_schedule *s)
{
    free(s->cert_makespan);
    free(s->cert_load_price);
    s->cert_makespan = s->cert_load_price = NULL;
    for (int j = 0; j < 3; j++) {
        if (s->cert_proc[j] != NULL)
            for (size_t i = 0; i < s->p; i++)
                free(s->cert_proc[j][i]);
        free(s->cert_proc[j]);
        s->cert_proc[j] = NULL;
    }
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
    s->kind = DLS_SCHEDULE_LP;
    s->lp_makespan = NAN;
    s->mip.lp_makespan = s->mip.rounded_makespan = s->mip.mip_makespan = NAN;
    s->mip.lp_true_makespan = s->mip.mip_bound = s->mip.mip_seconds = NAN;
    s->mip.mip_status = DLS_SOLUTION_NONE;
    s->solver.lower_bound = s->solver.marginal_left = s->solver.marginal_right = NAN;
    s->solver.given_makespan = s->solver.rate_makespan = s->solver.order_lower_bound = NAN;
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
        return dls__oom(err, "schedule");
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

/* ---------------------------------------------------------------------------------- */
/* Accessors                                                                          */

dls_solution_status dls_schedule_status(const dls_schedule *s) { return s->status; }
const char *dls_schedule_note(const dls_schedule *s) { return s->note ? s->note : ""; }

const char *dls_schedule_details(const dls_schedule *s)
{
    return s->details ? s->details : "";
}
size_t dls_schedule_count(const dls_schedule *s) { return s->p; }
double dls_schedule_load(const dls_schedule *s) { return s->V; }
double dls_schedule_makespan(const dls_schedule *s) { return s->makespan; }
double dls_schedule_paper_makespan(const dls_schedule *s) { return s->paper_makespan; }
double dls_schedule_true_makespan(const dls_schedule *s) { return s->true_makespan; }
double dls_schedule_lp_makespan(const dls_schedule *s) { return s->lp_makespan; }
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
int dls_schedule_exact_confirmed(const dls_schedule *s) { return s->exact; }

const char *dls_schedule_certificate(const dls_schedule *s, dls_certificate_item item, size_t i)
{
    if (s == NULL)
        return NULL;
    switch (item) {
    case DLS_CERTIFICATE_MAKESPAN:
        return s->cert_makespan;
    case DLS_CERTIFICATE_LOAD_PRICE:
        return s->cert_load_price;
    case DLS_CERTIFICATE_LOAD:
    case DLS_CERTIFICATE_FINISH_WEIGHT:
    case DLS_CERTIFICATE_LIMIT_PRICE: {
        char **v = s->cert_proc[item - DLS_CERTIFICATE_LOAD];
        return v != NULL && i < s->p ? v[i] : NULL;
    }
    }
    return NULL;
}
double dls_schedule_capacity(const dls_schedule *s) { return s->capacity; }
dls_schedule_kind dls_schedule_get_kind(const dls_schedule *s) { return s->kind; }

dls_status dls_schedule_get_mip_info(const dls_schedule *s, dls_schedule_mip_info *info,
                                     dls_error *err)
{
    if (s == NULL || info == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_get_mip_info", "NULL argument");
    if (s->kind != DLS_SCHEDULE_INTEGER && s->kind != DLS_SCHEDULE_MIP)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_get_mip_info", "the schedule is of kind "
                         "\"%s\", not an integer or MIP schedule",
                         dls_schedule_kind_name(s->kind));
    *info = s->mip;
    return DLS_OK;
}

dls_status dls_schedule_get_solver_info(const dls_schedule *s, dls_schedule_solver_info *info,
                                        dls_error *err)
{
    if (s == NULL || info == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_get_solver_info", "NULL argument");
    if (s->kind != DLS_SCHEDULE_LP)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_get_solver_info", "the schedule is of "
                         "kind \"%s\", not one of dls_schedule_solve",
                         dls_schedule_kind_name(s->kind));
    if (s->status == DLS_SOLUTION_INFEASIBLE)
        return dls__fail(err, DLS_EINVAL, "dls_schedule_get_solver_info", "the schedule is "
                         "infeasible (nothing was solved)");
    *info = s->solver;
    return DLS_OK;
}
