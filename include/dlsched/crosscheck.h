/**
 * @file dlsched/crosscheck.h
 * @brief The star scheduler's two solvers (Drozdowski and Wolniewicz 2003), and the geometric
 *        partitioners (Lastovetsky and Reddy 2007a and 2005), checking each other on one platform
 *        and load.
 *
 * Five checks (the schedule's solver is that of dls_crosscheck_params::schedule, the chain
 * by default):
 * - **zero communication**: with every link set to {0, 0}, the LP's makespan equals the
 *   continuous optimum of the geometric problem (every processor that is not at its limit
 *   finishing together, found here by bisection on the common time) when every time
 *   function is convex; otherwise the LP, which works on convex envelopes, must not exceed
 *   it, and the gap and the envelopes' deviation are reported;
 * - **integer optimum**: for a whole-number load, the makespan of the geometric
 *   partitioner's integer distribution equals the optimum of the same problem solved as a
 *   MIP with GLPK (`glp_intopt`, whole loads, the true time at every whole size; real
 *   loads past ::DLS_MIP_INTEGER_MAX, whose bound is then compared); when the partitioner
 *   does not claim optimality (a shape that breaks its assumption), the MIP may only be
 *   better;
 * - **replay**: the LP's schedule replayed through the evaluator gives the LP's makespan
 *   (on the LP's own time lines; the true models' makespan is reported beside it);
 * - **solvers**: the chain solver and GLPK give the same makespan for the paper's LP (every
 *   processor charged), and with processor selection the chain's, exact, is never longer
 *   than GLPK's, which drops unused processors one LP at a time;
 * - **order**: on platforms of at most ::DLS_CHECK_ORDER_MAX processors and 64 time lines
 *   in all (speed models enter through envelopes of many lines), the best send
 *   order (dls_schedule_solve() with ::DLS_ORDER_BEST, in the model of
 *   dls_crosscheck_params::schedule) has the makespan of a MIP for the order solved by GLPK
 *   (a binary per processor and place in the sequence, with the loads, the sends' ends and
 *   the memory levels as rows: every order, and with selection every set, at once); when
 *   the MIP stops at dls_crosscheck_params::mip's time limit, the best order may only be
 *   better than its incumbent and no worse than its bound.
 *
 * A disagreement needs a witness: a distribution, replayed by a method of its own, whose
 * makespan is below the other side's claimed optimum or above its claimed bound. The
 * result names the side that carries the proof (dls_check_result::proven_side) and the
 * detail says which claim it refutes.
 */
#ifndef DLSCHED_CROSSCHECK_H
#define DLSCHED_CROSSCHECK_H

#include <dlsched/common.h>
#include <dlsched/platform.h>
#include <dlsched/schedule.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parameters of dls_crosscheck_run(); fill with dls_crosscheck_params_init(). */
typedef struct dls_crosscheck_params {
    /** The schedule's parameters (send order, limits, ...); defaults of
     *  dls_schedule_params_init(). */
    dls_schedule_params schedule;
    /** Relative tolerance of the real-valued comparisons; in (0, 1e-3]; default 1e-7. */
    double rel_tol;
    /** The integer check's MIP: its parameters (integer and exact_shape are forced to 1;
     *  its time_limit bounds the MIP, the schedule's iteration_limit its relaxation, its
     *  progress callback follows branch and bound). */
    dls_mip_params mip;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(120);
} dls_crosscheck_params;

/** Fills @p params with the defaults. */
DLS_API void dls_crosscheck_params_init(dls_crosscheck_params *params);

/**
 * The checks, in the order they are reported: X(NAME, value, text).
 */
#define DLS_CHECK_KIND_MAP(X)                              \
    X(ZERO_COMMUNICATION, 0, "zero-communication")          \
    X(INTEGER_MIP, 1, "integer-mip")                        \
    X(REPLAY, 2, "replay")                                  \
    X(SOLVERS, 3, "solvers")                                \
    X(ORDER, 4, "order")

/** A check: see ::DLS_CHECK_KIND_MAP. */
typedef enum dls_check_kind {
#define DLS_CHECK_KIND_ENUM_(name, value, text) DLS_CHECK_##name = value,
    DLS_CHECK_KIND_MAP(DLS_CHECK_KIND_ENUM_)
#undef DLS_CHECK_KIND_ENUM_
} dls_check_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_CHECK_ZERO_COMMUNICATION
 *  Value 0, named "zero-communication" (::DLS_CHECK_KIND_MAP). */
/** @var DLS_CHECK_INTEGER_MIP
 *  Value 1, named "integer-mip" (::DLS_CHECK_KIND_MAP). */
/** @var DLS_CHECK_REPLAY
 *  Value 2, named "replay" (::DLS_CHECK_KIND_MAP). */
/** @var DLS_CHECK_SOLVERS
 *  Value 3, named "solvers" (::DLS_CHECK_KIND_MAP). */
/** @var DLS_CHECK_ORDER
 *  Value 4, named "order" (::DLS_CHECK_KIND_MAP). */

/** Number of checks (the kinds are 0 .. DLS_CHECK_COUNT - 1). */
#define DLS_CHECK_COUNT 5

/** The order check runs on platforms of at most this many processors (its MIP grows with
 *  their square, and its branch and bound with their factorial). */
#define DLS_CHECK_ORDER_MAX 8

/** The name of @p kind: "zero-communication", "integer-mip", "replay", "solvers" or "order";
 *  "unknown" otherwise. A static string; never freed. */
DLS_API const char *dls_check_kind_name(dls_check_kind kind);

/** The check whose dls_check_kind_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_check_kind_from_name(const char *name, dls_check_kind *out);

/** The outcome of one check, owned by its ::dls_crosscheck (read-only; later versions may
 *  add fields at the end). */
typedef struct dls_check_result {
    dls_check_kind kind; /**< which check this is */
    int ran;           /**< 0: skipped (why in @ref detail) */
    int agree;         /**< 1: the two sides agree (or are consistent as a bound) */
    double first;      /**< the schedule's makespan, the partitioner's, the schedule's, the
                            chain's paper LP, the best order's (s) */
    double second;     /**< the geometric optimum, the MIP's, the replay's, GLPK's paper LP,
                            the order MIP's (s) */
    double rel_diff;   /**< (first - second) / second */
    double extra;      /**< zero-communication: the envelopes' largest deviation; integer:
                            the MIP's seconds; replay: the true models' makespan; solvers:
                            (chain - GLPK) / GLPK with selection (<= 0 when they agree);
                            order: the order MIP's seconds */
    const char *detail; /**< a sentence on the outcome; never NULL */
    /** Where the sides differ, which one carries the proof: 1 the first, 2 the second, the
     *  side whose figure is reached by a distribution replayed by a method of its own (a
     *  witness) that contradicts the other side's claim (an optimum above it, a bound
     *  below it); 0 when they agree, or when neither side can refute the other (the
     *  detail says so). */
    int proven_side;
} dls_check_result;

/** The outcome of dls_crosscheck_run() (opaque). */
typedef struct dls_crosscheck dls_crosscheck;

/**
 * Runs the five checks for a load of @p load units.
 * @param params NULL for the defaults
 * @param[out] out receives the outcome, to release with dls_crosscheck_free(); unchanged
 *        on failure
 * @return ::DLS_OK (disagreements are results, not failures); ::DLS_EINVAL for bad
 *         arguments or parameters, a 2-D model or a load that is not finite and > 0;
 *         ::DLS_ESOLVER, ::DLS_ENUMERIC, ::DLS_ELIMIT (an LP past the time or iteration
 *         limit of params->schedule) or ::DLS_ENOMEM from the solvers; ::DLS_ECANCELED
 *         when params->mip.progress asked to stop. A MIP past its limits skips the
 *         integer check, which says why.
 */
DLS_API dls_status dls_crosscheck_run(const dls_platform *platform, double load,
                                      const dls_crosscheck_params *params,
                                      dls_crosscheck **out, dls_error *err);

/** Frees an outcome; NULL is allowed. */
DLS_API void dls_crosscheck_free(dls_crosscheck *crosscheck);

/** 1 when every check that ran agrees, 0 otherwise. */
DLS_API int dls_crosscheck_all_agree(const dls_crosscheck *crosscheck);

/** The outcome of check @p kind (valid until the crosscheck is freed); NULL for a kind
 *  outside 0 .. ::DLS_CHECK_COUNT - 1. */
DLS_API const dls_check_result *dls_crosscheck_result(const dls_crosscheck *crosscheck,
                                                      dls_check_kind kind);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_CROSSCHECK_H */
