/**
 * @file dlsched/crosscheck.h
 * @brief The divisible-load LP (paper 003) and the geometric partitioners (papers 000 and
 *        004) checking each other on one platform and load.
 *
 * Three checks:
 * - **zero communication**: with every link set to {0, 0}, the LP's makespan equals the
 *   continuous optimum of the geometric problem (every processor that is not at its limit
 *   finishing together, found here by bisection on the common time) when every time
 *   function is convex; otherwise the LP, which works on convex envelopes, must not exceed
 *   it, and the gap and the envelopes' deviation are reported;
 * - **integer optimum**: for a whole-number load, the makespan of the geometric
 *   partitioner's integer distribution equals the optimum of the same problem solved as a
 *   MIP with GLPK (`glp_intopt`, whole loads, the true time at every whole size); when the
 *   partitioner does not claim optimality (a shape that breaks its assumption), the MIP may
 *   only be better;
 * - **replay**: the LP's schedule replayed through the evaluator gives the LP's makespan
 *   (on the LP's own time lines; the true models' makespan is reported beside it).
 */
#ifndef DLSCHED_CROSSCHECK_H
#define DLSCHED_CROSSCHECK_H

#include <dlsched/common.h>
#include <dlsched/platform.h>
#include <dlsched/schedule.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Parameters of dls_crosscheck(); fill with dls_crosscheck_params_init(). */
typedef struct dls_crosscheck_params {
    /** The schedule's parameters (send order, limits, ...); defaults of
     *  dls_schedule_params_init(). */
    dls_schedule_params schedule;
    /** Relative tolerance of the real-valued comparisons; in (0, 1e-3]; default 1e-7. */
    double rel_tol;
    /** The integer check's MIP: its parameters (integer and exact_shape are forced to 1;
     *  its time_limit bounds the MIP, the schedule's iteration_limit its relaxation). */
    dls_mip_params mip;
} dls_crosscheck_params;

/** Fills @p params with the defaults. */
DLS_API void dls_crosscheck_params_init(dls_crosscheck_params *params);

/** The checks, in the order they are reported. */
typedef enum dls_check_kind {
    DLS_CHECK_ZERO_COMMUNICATION = 0,
    DLS_CHECK_INTEGER_MIP = 1,
    DLS_CHECK_REPLAY = 2
} dls_check_kind;

/** Number of checks. */
#define DLS_CHECK_COUNT 3

/** The outcome of one check. */
typedef struct dls_check_result {
    dls_check_kind kind;
    const char *name;  /**< "zero-communication", "integer-mip", "replay" */
    int ran;           /**< 0: skipped (why in @ref detail) */
    int agree;         /**< 1: the two sides agree (or are consistent as a bound) */
    double first;      /**< the LP's makespan, the partitioner's, the LP's (s) */
    double second;     /**< the geometric optimum, the MIP's, the replay's (s) */
    double rel_diff;   /**< (first - second) / second */
    double extra;      /**< zero-communication: the envelopes' largest deviation; integer:
                            the MIP's seconds; replay: the true models' makespan */
    char detail[512];  /**< a sentence on the outcome */
} dls_check_result;

/**
 * Runs the three checks for a load of @p load units.
 * @param params NULL for the defaults
 * @param results array of ::DLS_CHECK_COUNT records to fill
 * @param[out] all_agree receives 1 when every check that ran agrees (may be NULL)
 * @return ::DLS_OK (disagreements are results, not failures); ::DLS_EINVAL for bad
 *         arguments or parameters, a 2-D model or a load that is not finite and > 0;
 *         ::DLS_ESOLVER, ::DLS_ENUMERIC, ::DLS_ELIMIT (an LP past the time or iteration
 *         limit of params->schedule) or ::DLS_ENOMEM from the solvers. A MIP past its
 *         limits skips the integer check, which says why.
 */
DLS_API dls_status dls_crosscheck(const dls_platform *platform, double load,
                                  const dls_crosscheck_params *params,
                                  dls_check_result *results, int *all_agree, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_CROSSCHECK_H */
