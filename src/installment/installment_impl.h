/* Internals of multi-installment processing shared by installment.c (parameters, the
 * closed-form simulation, the schedule object), installment_bounds.c (the chunk-size
 * analysis), installment_sweep.c and installment_svg.c. */
#ifndef DLSCHED_INSTALLMENT_IMPL_H
#define DLSCHED_INSTALLMENT_IMPL_H

#include "dlsched/installment.h"
#include "core/internal.h"

/* Checks that the platform has processors and no 2-D model; who names the public call. */
DLS__HIDDEN dls_status dls__inst_check_platform(const dls_platform *pl, const char *who,
                                               dls_error *err);

/* The largest chunk processor i may take: its limit, or INFINITY when limits are off. */
DLS__HIDDEN double dls__inst_limit(const dls_platform *pl, size_t i,
                                  const dls_installment_params *par);

/* Everything the closed form needs at one chunk size. Positions k = 0 .. p-1 are the
 * processors of the rotation in platform order. */
typedef struct dls__inst_plan {
    double V, delta;
    uint64_t N;               /* chunks */
    uint64_t rounds;          /* ceil(N / p) */
    double last;              /* size of chunk N - 1 */
    size_t p;                 /* positions */
    double R;                 /* round time: sum of send[k] */
    size_t *proc;             /* platform index of each position */
    double *pre;              /* start of the send to position k in round 0 */
    double *send;             /* S_k + C_k delta */
    double *tau;              /* t_k(delta) */
    double *M;                /* max(R, tau[k]): the period of position k's finishes */
    int *level;               /* memory level of a full chunk (see dls__inst_level_at) */
    double last_send;         /* S + C last at the position receiving the last chunk */
    double last_time;         /* t(last) there */
} dls__inst_plan;

/* Arrays for n positions; returns 0, or -1 when out of memory (plan left empty). */
DLS__HIDDEN int dls__inst_plan_alloc(dls__inst_plan *plan, size_t n);
DLS__HIDDEN void dls__inst_plan_free(dls__inst_plan *plan);

/* Fills plan for load V (finite, > 0) in chunks of delta (finite, > 0): the chunk count,
 * the rotation, the times. DLS_ERANGE when V / delta has too many chunks or no processor
 * holds a chunk. */
DLS__HIDDEN dls_status dls__inst_plan_make(const dls_platform *pl, double V, double delta,
                                          const dls_installment_params *par,
                                          dls__inst_plan *plan, dls_error *err);

/* The times of chunk j < plan->N, in O(1). */
DLS__HIDDEN void dls__inst_event(const dls__inst_plan *plan, uint64_t j,
                                dls_installment_event *ev);

/* Index of the last chunk of position k < min(p, N). */
DLS__HIDDEN uint64_t dls__inst_last_of(const dls__inst_plan *plan, size_t k);

/* The makespan of a plan, in O(p). */
DLS__HIDDEN double dls__inst_makespan(const dls__inst_plan *plan);

/* The time of x > 0 units, and in *level the 1-based index of the time line on top at x
 * (the first of equal ones), 0 for the other kinds of model: one pass for both. */
DLS__HIDDEN double dls__inst_time_level(const dls_model *m, double x, int *level);

/* Checks parameters; who names the public call. */
DLS__HIDDEN dls_status dls__inst_check_params(const dls_installment_params *par,
                                             const char *who, dls_error *err);

/* Checks a load: finite and > 0. */
DLS__HIDDEN dls_status dls__inst_check_load(double V, const char *who, dls_error *err);

/* Builds the schedule object from a plan; on success the schedule takes the plan's arrays
 * and the plan is left empty, on failure the plan is unchanged. */
DLS__HIDDEN dls_status dls__inst_result(const dls_platform *pl, const dls_installment_params *par,
                                       dls__inst_plan *plan, dls_installment **out,
                                       dls_error *err);

/* Hands sweep samples (n pairs, malloc'ed; ownership moves) to a schedule. */
DLS__HIDDEN void dls__inst_set_samples(dls_installment *s, size_t n, double *chunk,
                                      double *makespan);

struct dls_installment {
    size_t n;                 /* processors of the platform */
    dls__inst_plan plan;      /* the closed form, for dls_installment_event_at() */
    double makespan;
    char *note;
    dls_installment_role *role;
    uint64_t *chunks;
    double *load, *first, *finish, *busy, *wait, *ctime;
    int *level;
    size_t nsamples;
    double *sample_chunk, *sample_makespan;
    /* dls_installment_solve_lp(): the chunks one by one (nev of them, plan.N too), and how they
     * were found; NULL for the closed form */
    dls_installment_event *ev;
    int *ev_level;            /* the memory level of each chunk */
    double *ret_start, *ret_end; /* when each chunk's results come back (NaN: they do not) */
    dls_installment_lp_info *lp;
};

#endif /* DLSCHED_INSTALLMENT_IMPL_H */
