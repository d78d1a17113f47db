/* Internals of the divisible-load scheduler shared by schedule.c (API, star model,
 * replay), lp_star.c (the LP), lp_export.c and svg_gantt.c. */
#ifndef DLSCHED_SCHEDULE_IMPL_H
#define DLSCHED_SCHEDULE_IMPL_H

#include "dlsched/schedule.h"
#include "model/model_impl.h"

/* The star problem with the processors in send order ("positions"). */
typedef struct dls__star {
    size_t m;                 /* positions */
    size_t *proc;             /* platform index of each position */
    double *S, *C, *B;        /* startup (s), rate (s/unit), limit (units, INFINITY: none) */
    size_t *off;              /* lines of position k are off[k] .. off[k+1] - 1 */
    double *a, *b;            /* all lines: a (s), b (s/unit) */
    int *from_speed;          /* the lines are the envelope of a speed model */
    const dls_model **model;  /* the true model of each position */
    double V;                 /* the load */
    double envelope_dev;      /* largest deviation of the envelopes */
} dls__star;

/* Builds the star from a platform (send order, lines, envelopes); appends warnings (one per
 * line) to note. */
DLS_HIDDEN dls_status dls__star_build(const dls_platform *pl, double V,
                                      const dls_schedule_params *par, dls__star *st,
                                      char **note, dls_error *err);
DLS_HIDDEN void dls__star_free(dls__star *st);

/* The timeline of loads alpha (by position) through the star. Inactive positions (active
 * may be NULL: all active) are sent nothing. Active positions with a zero load are sent
 * nothing either, unless charge_unused (the paper's LP charges them S and their smallest
 * compute time). Compute times come from the lines, or from the true models with
 * true_models. Output arrays (by position) may be NULL. Returns the makespan. */
DLS_HIDDEN double dls__replay(const dls__star *st, const double *alpha,
                              const unsigned char *active, int charge_unused, int true_models,
                              double *send_start, double *send_end, double *compute,
                              double *finish, int *level);

/* The LP solution (lp_star.c). */
typedef struct dls__lp_answer {
    double *alpha;            /* by position */
    unsigned char *active;    /* by position: still in the LP */
    double cmax, paper_cmax;
    double residual, kkt_pe, kkt_de;
    unsigned iterations, solves;
    int exact;                /* 0 not asked, 1 confirmed */
} dls__lp_answer;

DLS_HIDDEN dls_status dls__lp_solve_star(const dls__star *st, const dls_schedule_params *par,
                                         dls__lp_answer *ans, dls_error *err);

/* The paper's LP in original units with named rows and columns, as a glp_prob (void * so
 * that this header needs no glpk.h); NULL when out of memory. Call inside a GLPK guard. */
DLS_HIDDEN void *dls__lp_build_named(const dls__star *st);

/* Writes the paper's LP in original units (lp_export.c). */
DLS_HIDDEN dls_status dls__lp_write(const dls__star *st, const dls_platform *pl, int verbose,
                                    dls_export_format format, const char *path, dls_error *err);

/* The mixed-integer programs (lp_mip.c). */
typedef struct dls__mip_spec {
    int integer;          /* whole-unit loads */
    int exact_shape;      /* measured models by their true time, not the envelope */
    int communication;    /* 0: no sends (the geometric problem) */
    int verbose;
    double time_limit;    /* s; 0: none */
    double rel_gap;
    double shape_tol;     /* relative chord error of measured times */
    size_t max_binaries;
    double time_unit;     /* a typical makespan, for scaling */
    const double *start;  /* an incumbent, loads by position, or NULL */
} dls__mip_spec;

typedef struct dls__mip_answer {
    double *alpha;        /* by position */
    double objective;     /* the MIP's makespan (its own model) */
    double bound;         /* best bound on it */
    dls_solution_status status;
    int time_limited;
    size_t binaries, rows, cols;
    double seconds;
} dls__mip_answer;

DLS_HIDDEN dls_status dls__mip_solve_star(const dls__star *st, const dls__mip_spec *spec,
                                          dls__mip_answer *ans, dls_error *err);

struct dls_schedule {
    size_t p;
    double V;
    dls_solution_status status;
    char *note;
    double *load, *send_start, *send_end, *compute, *finish, *idle;
    int *level;
    size_t *seq;
    double makespan, paper_makespan, true_makespan, envelope_dev;
    double residual, kkt_pe, kkt_de, capacity;
    unsigned iterations, solves;
    int exact;
    /* integer and MIP schedules (NaN / -1 when not computed) */
    double lp_makespan, lp_true_makespan, rounded_makespan, mip_makespan, mip_bound;
    double mip_seconds;
    int mip_status;
    size_t mip_binaries;
};

/* Shared by the scheduler's entry points (schedule.c). */
DLS_HIDDEN dls_schedule *dls__schedule_alloc(size_t p, double V);
/* Fills the per-processor timeline from loads by position; sets the makespan. */
DLS_HIDDEN dls_status dls__fill_timeline(dls_schedule *s, const dls__star *st,
                                         const double *alpha, const unsigned char *active,
                                         int charge_unused, int true_models, dls_error *err);
DLS_HIDDEN void dls__fill_idle(dls_schedule *s);
DLS_HIDDEN dls_status dls__schedule_check(const dls_platform *pl, dls_schedule **out,
                                          const dls_schedule_params *par, const char *fn,
                                          dls_error *err);


#endif /* DLSCHED_SCHEDULE_IMPL_H */
