/* Shared by the LU column distribution files: the step-time evaluator, the result
 * layout, and the per-step partitioner (HSP / HSPF of Lastovetsky and Reddy 2007b). */
#ifndef DLSCHED_LU_IMPL_H
#define DLSCHED_LU_IMPL_H

#include <stdint.h>

#include "core/internal.h"

/* Relative tolerance under which a cost counts as equal to its lower bound: both are
 * sums of the same step times, so only the summation order may differ. */
#define DLS__LU_BOUND_RTOL 1e-12

/* Work (model evaluations times columns) under which a step whose time functions are not
 * monotone is solved exactly by dynamic programming over the processors. */
#define DLS__LU_STEP_DP_WORK 2000000.0

/* The time T_i(h, c) of every processor: either the platform's models, or constant
 * speeds (the constant-model algorithms, and platforms of constant speeds). */
typedef struct lu_eval {
    const dls_platform *pl;   /* for the processors' names in notes */
    size_t p;
    const dls_model **model;  /* NULL: use speed[] */
    double *speed;            /* constant speeds, when model is NULL */
    int *two_d;
    double *cap;              /* largest number of columns, INFINITY for none */
    /* Monotonicity of c -> T_i(h, c): for 1-D models, the time is nondecreasing on
     * [0, mono_x[i]]; for 2-D ones, row r of the grid is nondecreasing in y on
     * [0, mono_row[i][r]]. INFINITY: everywhere. */
    double *mono_x;
    double **mono_row;
    int all_monotone;         /* every time is nondecreasing everywhere */
} lu_eval;

DLS__HIDDEN dls_status dls__lu_eval_init(lu_eval *e, const dls_platform *pl, int use_limits,
                                        const double *constant_speed, dls_error *err);
DLS__HIDDEN void dls__lu_eval_free(lu_eval *e);

/* T_i(h, c) in seconds; 0 for c = 0. */
DLS__HIDDEN double dls__lu_time(const lu_eval *e, size_t i, double h, double c);

/* T_i(h, c) and T_i(h, c + 1) together, bit for bit as two dls__lu_time() calls. */
DLS__HIDDEN void dls__lu_time_pair(const lu_eval *e, size_t i, double h, double c, double *t0,
                                  double *t1);

/* Whether c -> T_i(h, c) is nondecreasing on 0 .. cmax. */
DLS__HIDDEN int dls__lu_monotone(const lu_eval *e, size_t i, double h, double cmax);

/* The best distribution of the m columns of one step (height m) alone. With monotone
 * step times the result is canonical: every processor gets the columns whose times are
 * below the optimal step time tau, and those at exactly tau go to the lowest indices
 * first; so it does not depend on the starting point, and Functional Reverse and
 * Functional DP see the same distributions. */
typedef struct lu_hspf {
    const lu_eval *e;
    size_t p;
    const double *cap;   /* the caps in force: e->cap unless the caller points elsewhere */
    uint64_t m;          /* columns of the last solve (UINT64_MAX before the first) */
    uint64_t *n;         /* its distribution */
    double *t0, *t1;     /* T_i(m, n_i) and T_i(m, n_i + 1) (INFINITY at the cap) */
    double value;        /* the step time of the distribution: max_i t0[i] */
    int exact;           /* the distribution is proven best for its step */
    long not_exact_proc; /* a processor whose time is not monotone (when !exact) */
    /* scratch of the exact dynamic programme */
    double *dp_g, *dp_t;
    uint32_t *dp_choice;
    size_t dp_rows, dp_tsize;
} lu_hspf;

DLS__HIDDEN dls_status dls__lu_hspf_init(lu_hspf *s, const lu_eval *e, dls_error *err);
DLS__HIDDEN void dls__lu_hspf_free(lu_hspf *s);
/* Solves for m columns (1 <= m <= the caps' total), starting from the previous solve
 * when it is close. */
DLS__HIDDEN dls_status dls__lu_hspf_solve(lu_hspf *s, uint64_t m, dls_error *err);

/* The result object. */
struct dls_lu {
    dls_lu_algorithm algorithm;
    dls_lu_heuristic heuristic;
    dls_solution_status status;
    size_t p;
    uint64_t n;
    size_t *owners;      /* NULL without a distribution */
    uint64_t *counts;
    double *step_cost;   /* n - 1 values */
    double cost, lower_bound;
    size_t groups;
    uint64_t states;
    int costs_known;     /* the algorithm filled step_cost (with the evaluator's times) */
    char note[512];
};

/* Progress reporting shared by the algorithms: calls the callback at most every
 * 1/256 of the work. Returns DLS_ECANCELED (with the message) when asked to stop. */
typedef struct lu_progress {
    dls_progress_fn fn;
    void *data;
    double next;
} lu_progress;

DLS__HIDDEN dls_status dls__lu_progress(lu_progress *pr, double fraction, dls_error *err);

/* The cost of owners (n columns) under e: counts receives the columns of each processor,
 * trail is scratch of p values, step_cost (NULL: not wanted) the n - 1 step times, *total
 * their sum (cost.c). */
DLS__HIDDEN void dls__lu_evaluate(const lu_eval *e, uint64_t n, const size_t *owners,
                                 uint64_t *counts, uint64_t *trail, double *step_cost,
                                 double *total);

/* Whether every model of the platform is a constant speed. */
DLS__HIDDEN int dls__lu_all_constant(const dls_platform *pl);

/* The constant speeds the constant-model algorithms use: each processor's speed at the
 * even share s(n, n/p), or its constant speed. speed has p entries. */
DLS__HIDDEN void dls__lu_reference_speeds(const dls_platform *pl, uint64_t n, double *speed);

/* Lower bound of the cost with constant speeds (e->speed), NAN when out of memory. */
DLS__HIDDEN double dls__lu_constant_bound(const lu_eval *e, uint64_t n);

/* The algorithms; owners has n entries to fill (0-based processor indices). */
DLS__HIDDEN dls_status dls__lu_group_block(const lu_eval *e, uint64_t n, size_t *owners,
                                          dls_lu *r, dls_error *err);
DLS__HIDDEN dls_status dls__lu_dp(const lu_eval *e, uint64_t n, size_t *owners,
                                 dls_error *err);
DLS__HIDDEN dls_status dls__lu_reverse(const lu_eval *e, uint64_t n, dls_lu_heuristic h,
                                      size_t max_group_states, lu_progress *pr,
                                      size_t *owners, dls_lu *r, dls_error *err);
DLS__HIDDEN dls_status dls__lu_fdp(const lu_eval *e, uint64_t n, lu_progress *pr,
                                  size_t *owners, dls_lu *r, dls_error *err);
DLS__HIDDEN dls_status dls__lu_fgb(const lu_eval *e, uint64_t n, size_t *owners, dls_lu *r,
                                  dls_error *err);
DLS__HIDDEN dls_status dls__lu_exact(const lu_eval *e, uint64_t n, size_t max_memory,
                                    lu_progress *pr, size_t *owners, dls_lu *r,
                                    dls_error *err);

/* The column order of one of the cheap heuristics (cycl, ftos, stof, dflt) for a group
 * whose processor i takes delta[i] columns: ord receives sum(delta) processor indices. */
DLS__HIDDEN dls_status dls__lu_heuristic_order(dls_lu_heuristic h, size_t p,
                                              const uint64_t *delta, size_t *ord,
                                              dls_error *err);

/* Best distribution of m columns with constant speeds and caps, minimising
 * max_i n_i / speed_i: the proportional floor, then the smallest next ratios. */
DLS__HIDDEN void dls__lu_hsp_constant(size_t p, const double *speed, const double *cap,
                                     uint64_t m, uint64_t *out);

#endif /* DLSCHED_LU_IMPL_H */
