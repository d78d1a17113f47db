/* The solvers of the star problem with GLPK (the only module that uses GLPK): the LP of
 * Drozdowski and Wolniewicz (2003) (lp_star.c), its exports (lp_export.c), the mixed-integer
 * programs (mip.c), and the best send order as a MIP (order_mip.c). */
#ifndef DLSCHED_SOLVER_SOLVER_H
#define DLSCHED_SOLVER_SOLVER_H

#include "star/star.h"

/* Where the optimal basis puts the LP's variables (lp_star.c fills it with exact). */
typedef struct dls__lp_basis {
    signed char *alpha;    /* by position: 0 basic, -1 at zero, +1 at the limit */
    unsigned char *tight;  /* by line: 1 when its finish row is at its bound */
} dls__lp_basis;

/* The LP solution (lp_star.c). */
typedef struct dls__lp_answer {
    double *alpha;            /* by position */
    unsigned char *active;    /* by position: still in the LP */
    double cmax, paper_cmax;
    double residual, kkt_pe, kkt_de;
    unsigned iterations, solves;
    int exact;                /* 0 not asked, 1 confirmed */
    double exact_cmax;        /* with exact: glp_exact's optimum, as GLPK reports it */
    /* with exact: the LP of the positions kept (its proc gives each one's platform index)
     * and the basis of its exact optimum, for the rational certificate */
    dls__star kept;
    size_t *kept_pos;         /* the position of each of kept's in the star */
    dls__lp_basis basis;
    size_t negligible;        /* processors left out of the matrix as negligible (lp_star.c) */
    size_t hopeless;          /* of them, with selection, those the paper's LP would have used:
                                 its makespan (paper_cmax) is then not the paper's LP's */
    size_t first_negligible;  /* the first of them by position (m: none) */
} dls__lp_answer;

DLS__HIDDEN dls_status dls__lp_solve_star(const dls__star *st, const dls__star_opts *par,
                                         dls__lp_answer *ans, dls_error *err);
/* Frees the arrays of an answer (the answer itself is the caller's). */
DLS__HIDDEN void dls__lp_answer_free(dls__lp_answer *ans);
/* Loads in proportion to each position's speed per unit (1 / (C_k + its steepest line)),
 * within the limits by water-filling, into x (m); the limits must hold V. w (m) and order
 * (m) are scratch. An upper bound's distribution (lp_star.c), and the last resort of
 * schedule.c. */
struct dls__keyed;
DLS__HIDDEN void dls__simple_distribution(const dls__star *st, double *x, double *w,
                                         struct dls__keyed *order);


/* The rational certificate of the LP's optimum (certificate.c): decimal strings "p/q" (or
 * "p"), by position. weight is the dual weight of a processor's finish rows (they sum to
 * 1), limit_price the dual of its limit, load_price the dual of the load row. */
typedef struct dls__certificate {
    size_t m;
    char *makespan, *load_price;
    char **load, **weight, **limit_price;
    double makespan_value;    /* the makespan and the loads as doubles (within an ulp) */
    double *load_value;
} dls__certificate;

/* Computes the certificate of the LP optimum st's basis describes, in rational arithmetic,
 * and checks it (primal and dual feasibility, equal objectives), within `seconds`.
 * DLS_ENOTSUP without GMP, DLS_ELIMIT past its size or time limits, DLS_ENUMERIC when the
 * basis does not give a proof. */
DLS__HIDDEN dls_status dls__lp_certify(const dls__star *st, const dls__lp_basis *basis,
                                      double seconds, dls__certificate *out, dls_error *err);
DLS__HIDDEN void dls__certificate_free(dls__certificate *c);

/* The units of the exported LPs: the platform's own where it is safe, loads in units (1)
 * where the mean share V / m is at most DLS__EXPORT_SHARE_MAX and every rate and slope at
 * least DLS__EXPORT_COEF_MIN (s per unit), times in seconds (1) where the typical time (the
 * startups together, or V over the total speed) lies in [DLS__EXPORT_TIME_MIN,
 * DLS__EXPORT_TIME_MAX]; else powers of two near the mean share and the typical time. In
 * the platform's units, large loads put coefficients many decades from the others' (a rate
 * of 4e-13 s per unit beside a startup of 1e-4 s): glpsol called a point 2% from the
 * optimum optimal, and its MPS reader drops every coefficient below 1e-12; and on a
 * makespan of a millisecond glpsol's presolver called the optimum 0. */
#define DLS__EXPORT_SHARE_MAX 1048576.0
#define DLS__EXPORT_COEF_MIN 1e-9
#define DLS__EXPORT_TIME_MIN 1e-2
#define DLS__EXPORT_TIME_MAX 1e6
DLS__HIDDEN void dls__export_units(const dls__star *st, double *u, double *tau);

/* Writes the paper's LP in original units, with named rows and columns, in CPLEX LP
 * (DLS_EXPORT_LP) or GLPK's format to the file path with GLPK's writers (lp_star.c). */
DLS__HIDDEN dls_status dls__lp_write_named(const dls__star *st, int verbose,
                                          dls_export_format format, const char *path,
                                          dls_error *err);

/* The paper's LP in original units, as the text of the format, appended to out
 * (lp_export.c); numbers in the C locale whatever the caller's. */
struct dls__buf;
DLS__HIDDEN dls_status dls__lp_text(const dls__star *st, const dls_platform *pl, int verbose,
                                   dls_export_format format, struct dls__buf *out,
                                   dls_error *err);


/* The mixed-integer programs (mip.c). */
/* Whole-unit loads on a range of at most this many sizes take the time at every size (the
 * MIP is then exact for measured models; the cross-check relies on it). */
#define DLS__MIP_WHOLE_SIZES 256

typedef struct dls__mip_spec {
    int integer;          /* whole-unit loads */
    int exact_shape;      /* measured models by their true time, not the envelope */
    int communication;    /* 0: no sends (the geometric problem) */
    int verbose;
    double time_limit;    /* s, > 0: the relaxation and branch and bound together */
    unsigned iteration_limit; /* the relaxation's simplex; 0: automatic */
    double rel_gap;
    double shape_tol;     /* relative chord error of measured times */
    size_t max_binaries;
    double time_unit;     /* a typical makespan, for scaling */
    /* a makespan some answer reaches (positions that cannot take a unit within it are left
     * out), INFINITY when none is known; 0 is taken as unknown */
    double upper_bound;
    const double *start;  /* an incumbent, loads by position, or NULL */
    dls_progress_fn progress; /* called during branch and bound, or NULL */
    void *progress_data;
} dls__mip_spec;

typedef struct dls__mip_answer {
    double *alpha;        /* by position (whole numbers unless relaxed) */
    double objective;     /* the MIP's makespan (its own model) */
    double bound;         /* best bound on it */
    dls_solution_status status;
    int time_limited;
    int relaxed;          /* whole loads asked beyond DLS_MIP_INTEGER_MAX: solved as real
                             (the bound holds the integer problem; alpha is to round) */
    /* how far (relative) the MIP's times may lie above the true ones: 0 for time lines,
     * constants and every whole size; what the envelopes lie above the true times
     * (star->envelope_above); the chords' tolerance (spec->shape_tol). A bound on the true
     * optimum is bound / (1 + model_tol). */
    double model_tol;
    size_t binaries, rows, cols;
    double seconds;
} dls__mip_answer;

DLS__HIDDEN dls_status dls__mip_solve_star(const dls__star *st, const dls__mip_spec *spec,
                                          dls__mip_answer *ans, dls_error *err);


/* The best send order as a MIP (order_mip.c): an independent check of the order search on
 * small platforms (Drozdowski 1997's positional formulation). */
/* The most positions it accepts (m^2 binaries). Measured on random platforms (startups 0
 * to 2 s, two memory levels, limits): up to 8 processors within 0.25 s each, either model;
 * from 9 on the paper model now and then runs for more than 20 s (its relaxation's bound
 * stays near the sum of the startups), selection within seconds up to 16. */
#define DLS__ORDER_MIP_MAX_POSITIONS 32

typedef struct dls__order_mip_answer {
    size_t m;              /* the star's positions */
    size_t count;          /* processors in the schedule: all m (charge_all), or those sent
                            * a load (selection); 0 when there is no schedule */
    size_t *order;         /* m positions of the star: the count of the schedule in send
                            * order, then the others in position order */
    double *load;          /* by position (units); 0 for those not in the schedule */
    double makespan;       /* the replay of order and loads through the star (s); NaN when
                            * there is no schedule */
    double mip_makespan;   /* the MIP's own objective (s), within its tolerances of makespan */
    double bound;          /* a lower bound on the optimum over all orders (s): GLPK's, 0 when
                            * it found none; the MIP's objective when optimal */
    dls_solution_status status; /* OPTIMAL; FEASIBLE (stopped by the time limit, the best
                            * found); NOT_FOUND (stopped, none found); INFEASIBLE (the
                            * limits cannot hold V, or no schedule within `upper`) */
    int time_limited;      /* stopped by the time limit */
    int polished;          /* the loads come from the LP of the order found, solved again
                            * with tight tolerances (else from branch and bound) */
    size_t binaries, rows, cols;
    double seconds;
} dls__order_mip_answer;

/* The least makespan over every send order (and, without charge_all, every set of
 * processors) of the star st (its positions in any order), with GLPK's branch and bound
 * within time_limit seconds (in (0, DLS_TIME_LIMIT_MAX]). charge_all = 1: the paper's model
 * (every processor served and charged its startup and least compute time, load or not);
 * 0: selection (a processor sent nothing costs nothing). upper: a makespan known to be
 * reachable (s), which cuts the search, or INFINITY. The order and loads are replayed
 * through the star (dls__replay). Returns DLS_OK with ans filled (free it with
 * dls__order_mip_answer_free, also after a failure), whatever the solution status;
 * DLS_EINVAL for bad arguments; DLS_ELIMIT past DLS__ORDER_MIP_MAX_POSITIONS; DLS_ESOLVER when
 * GLPK fails; DLS_ENUMERIC when the replay disagrees with the MIP; DLS_ENOMEM. */
DLS__HIDDEN dls_status dls__order_mip_solve(const dls__star *st, int charge_all,
                                           double time_limit, double upper,
                                           dls__order_mip_answer *ans, dls_error *err);
DLS__HIDDEN void dls__order_mip_answer_free(dls__order_mip_answer *ans);

/* The multi-installment LP over a sequence of installments, and the search over sequences
 * (lp_multi.c). */
typedef struct dls__mlp_spec {
    const dls__star *st;      /* positions: the processors (any order), lines, S, C, B, V */
    const double *release;    /* by position: the earliest compute start (s); NULL: none */
    size_t window;            /* >= 1: chunks a processor with a limit holds at once */
    /* results returned, by position: the fraction of a chunk's units, the return's
     * startup (s) and its rate (s per result unit); NULL: none return */
    const double *ret_frac, *ret_S, *ret_C;
    int ret_lifo;             /* 1: results return last sent, first back; 0: in send order */
    const size_t *ret_perm;   /* else this order of the chunks of seq (search off), or NULL */
    int two_port;             /* 1: returns overlap the sends; 0: after the last send */
    int search;               /* 0: size seq; 1: search from round-robin over base */
    const size_t *seq;        /* the sequence (positions) to size, nseq chunks */
    size_t nseq;
    const size_t *base;       /* the round-robin order (positions, each once), nbase */
    size_t nbase;
    unsigned max_rounds;      /* round-robin rounds tried: 0 automatic, else exactly 1..K */
    int moves;                /* 1: local moves after the round-robin */
    size_t max_chunks;        /* the longest sequence tried */
    unsigned max_lps;         /* LPs solved at most; 0: no limit */
    size_t exhaustive_max;    /* every sequence of 1 .. L chunks is priced first, L the
                                 longest for which they number at most this (0: none) */
    double time_limit;        /* s, > 0 (INFINITY: none) */
    double time_unit;         /* a typical makespan (s), for scaling */
    int verbose;
    dls_progress_fn progress;
    void *progress_data;
} dls__mlp_spec;

typedef struct dls__mlp_answer {
    size_t n;                 /* chunks of the best sequence */
    size_t *seq;              /* its positions */
    double *x;                /* its sizes (units) */
    double makespan;          /* the timeline of the sizes in the LP's model (s); INFINITY:
                                 the sequence cannot hold the load */
    double objective;         /* the LP's own optimum (s), within 1e-5 of makespan */
    unsigned lps;             /* LPs solved */
    unsigned warm;            /* of them, solved from a stored basis */
    size_t exhaustive_length; /* every sequence up to this length was priced */
    int exact;                /* that covered every sequence up to max_chunks */
    unsigned rounds;          /* round-robin rounds tried */
    unsigned best_rounds;     /* the best of them */
    double search_gain;       /* relative gain of the moves over the best round-robin */
    unsigned long iterations; /* simplex iterations */
    int time_limited;         /* a limit (time or LPs) ended the search */
    double seconds;
    char note[512];           /* why the search stopped early; "" otherwise */
} dls__mlp_answer;

DLS__HIDDEN dls_status dls__mlp_solve(const dls__mlp_spec *sp, dls__mlp_answer *ans,
                                     dls_error *err);
DLS__HIDDEN void dls__mlp_answer_free(dls__mlp_answer *ans);
/* The LP of sp->seq in original units with names, as the text of the format (CPLEX LP,
 * free MPS and GLPK's through GLPK's writers, MathProg written here), appended to out;
 * numbers in the C locale. */
DLS__HIDDEN dls_status dls__mlp_text(const dls__mlp_spec *sp, dls_export_format format,
                                    struct dls__buf *out, dls_error *err);

#endif /* DLSCHED_SOLVER_SOLVER_H */
