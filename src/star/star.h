/* The star problem of Drozdowski and Wolniewicz (2003), shared by every star scheduler and by the
 * solvers: the processors in send order with their links, limits and time lines (envelopes of speed
 * models), the exact replay of loads through it, and the schedule object that the
 * scheduler's entry points return. */
#ifndef DLSCHED_STAR_STAR_H
#define DLSCHED_STAR_STAR_H

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
    double envelope_above;    /* largest relative amount an envelope lies above its time
                                 function: an optimum on the lines over 1 + this is a lower
                                 bound of the true one */
} dls__star;

/* What the star (dls__star_build) and the solvers' LP (dls__lp_solve_star) take of the
 * caller's choices: the internal face of dls_schedule_params, so that a field added for users
 * does not reshape the internals, nor the other way round. dls__star_opts_from_params()
 * makes it from the public params; callers inside the library that mean something else
 * fill it directly. */
typedef struct dls__star_opts {
    /* the star: the send order and what each position holds */
    dls_send_order order;       /* GIVEN, RATE or SEQUENCE (BEST is the schedule module's) */
    const size_t *sequence;     /* SEQUENCE: platform indices in send order, each once */
    size_t sequence_count;
    int originator_computes;    /* the processors without a link are served first, no send */
    int use_limits;             /* 0: the limits are ignored */
    dls_envelope_params envelope; /* of speed models */
    /* the LP (dls__lp_solve_star only; the star ignores them) */
    int drop_unused;            /* drop the processors given nothing and solve again */
    int exact;                  /* glp_exact and its certificate */
    int verbose;                /* GLPK prints its progress */
    double check_tol;           /* relative tolerance of the answer checks */
    double time_limit;          /* s, for all of GLPK's work in one call */
    unsigned iteration_limit;   /* 0: automatic */
    dls_progress_fn progress;
    void *progress_data;
} dls__star_opts;

/* The one place the public params become the internal options. */
DLS__HIDDEN dls__star_opts dls__star_opts_from_params(const dls_schedule_params *par);

/* Checks an explicit order (dls_schedule_params::sequence): count = the processors, each
 * index once; fn names the caller in messages. */
DLS__HIDDEN dls_status dls__sequence_check(const dls_platform *pl, const size_t *seq,
                                          size_t count, const char *fn, dls_error *err);
/* Builds the star from a platform (send order, lines, envelopes); appends warnings (one per
 * line) to note. With need_lines 0 (evaluations, which use the true models) speed models
 * get no lines. The params par comes from must have been checked. */
DLS__HIDDEN dls_status dls__star_build(const dls_platform *pl, double V,
                                      const dls__star_opts *par, int need_lines,
                                      dls__star *st, char **note, dls_error *err);
DLS__HIDDEN void dls__star_free(dls__star *st);
/* Appends to note what the platform holds that the single-installment schedulers do not
 * model (release times, results returned), so that they are not ignored silently. */
DLS__HIDDEN void dls__star_note_unmodelled(const dls_platform *pl, char **note);
/* The same star served in another order: position k of out is position pos[k] of src (pos
 * a permutation of 0..m-1); the models are shared with src, the rest copied (free out with
 * dls__star_free while src lives). */
DLS__HIDDEN dls_status dls__star_permute(const dls__star *src, const size_t *pos, dls__star *out,
                                        dls_error *err);

/* The timeline of loads alpha (by position) through the star. Inactive positions (active
 * may be NULL: all active) are sent nothing. Active positions with a zero load are sent
 * nothing either, unless charge_unused (the paper's LP charges them S and their smallest
 * compute time). Compute times come from the lines, or from the true models with
 * true_models. Output arrays (by position) may be NULL. Returns the makespan. */
DLS__HIDDEN double dls__replay(const dls__star *st, const double *alpha,
                              const unsigned char *active, int charge_unused, int true_models,
                              double *send_start, double *send_end, double *compute,
                              double *finish, int *level);

struct dls_schedule {
    size_t p;
    double V;
    dls_solution_status status;
    char *note;
    /* explanations that do not change the answer (a speed model's shape the envelope
     * smooths where no load lies): what --verbose shows */
    char *details;
    double *load, *send_start, *send_end, *compute, *finish, *idle;
    int *level;
    size_t *seq;
    /* makespan: the loads' timeline under the true models (a solved schedule's too);
     * lp_makespan: the LP's own, on the convex envelopes of speed models (NaN when no LP
     * was solved) */
    double makespan, paper_makespan, true_makespan, lp_makespan, envelope_dev;
    double residual, kkt_pe, kkt_de, capacity;
    unsigned iterations, solves;
    int exact;
    /* the rational certificate (exact, with GMP): makespan and load price, and per
     * processor (p each, NULL entries where not in the LP) load, finish weight, limit
     * price; all NULL when there is none */
    char *cert_makespan, *cert_load_price;
    char **cert_proc[3];
    dls_schedule_kind kind;
    /* integer and MIP schedules (NaN / DLS_SOLUTION_NONE when not computed) */
    dls_schedule_mip_info mip;
    size_t mip_binaries;
    /* how dls_schedule_solve found it (solver.solver is meaningful for kind LP only) */
    dls_schedule_solver_info solver;
};

/* The schedule object, shared by every star scheduler (result.c). */
DLS__HIDDEN dls_schedule *dls__schedule_alloc(size_t p, double V);
/* Frees the certificate's strings (result.c). */
DLS__HIDDEN void dls__schedule_cert_clear(dls_schedule *s);
/* Fills the per-processor timeline from loads by position; sets the makespan. */
DLS__HIDDEN dls_status dls__fill_timeline(dls_schedule *s, const dls__star *st,
                                         const double *alpha, const unsigned char *active,
                                         int charge_unused, int true_models, dls_error *err);
DLS__HIDDEN void dls__fill_idle(dls_schedule *s);

#endif /* DLSCHED_STAR_STAR_H */
