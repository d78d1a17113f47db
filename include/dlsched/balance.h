/**
 * @file dlsched/balance.h
 * @brief Balancing an iterative application while it runs, from the times of its own
 *        iterations (no benchmark first), and the plan that moves its elements.
 *
 * An iterative application (a stencil or Jacobi sweep, particle steps, training epochs)
 * gives processor i a share d_i of its n elements at each iteration and times it. The
 * balancer (::dls_balance) takes those times, iteration after iteration, and returns the
 * next distribution. In the functional mode (the default; Clarke, Lastovetsky and Rychkov
 * 2011, after the functional performance model of Lastovetsky and Reddy 2007a) it keeps,
 * per processor, the points seen (size, time; repeated sizes merged into one point with
 * its band), builds from them a partial speed function (a ::DLS_MODEL_POINTS model,
 * constant beyond its points, and never trusted beyond dls_balance_params::trust times the
 * largest size seen), and repartitions with dls_partition_solve(). Between two measured
 * sizes whose times disagree with a straight line through the neighbouring points (the
 * knee of a processor that starts paging), the model takes the middle of what the points
 * allow, so that the knee is found in a few iterations instead of approached from one
 * side. The constant mode is the traditional rule (speed d_i / t_i of the last iteration
 * alone), kept for comparison.
 *
 * Each step also says whether the distribution has converged (no other is predicted to
 * finish sooner by more than the tolerance, or than the bands), whether moving is worth it (the predicted
 * gain over dls_balance_params::horizon iterations against the cost of moving the
 * elements), and which processors drifted (a new time outside the band of the same size:
 * their old points are forgotten). Everything is deterministic: the same inputs give the
 * same distributions.
 *
 * Units: sizes in elements (or in weight, with dls_balance_params::weights), times in
 * seconds.
 */
#ifndef DLSCHED_BALANCE_H
#define DLSCHED_BALANCE_H

#include <stdint.h>

#include <dlsched/common.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest number of processors a balancer takes. */
#define DLS_BALANCE_MAX_PROCESSORS 16777216u

/**
 * How the next distribution is computed: X(NAME, value, text).
 * - FUNCTIONAL (default): partial speed functions from every point seen;
 * - CONSTANT: the traditional rule, each processor's speed d_i / t_i from its last
 *   iteration alone, constant in the size.
 */
#define DLS_BALANCE_MODE_MAP(X)         \
    X(FUNCTIONAL, 0, "functional")      \
    X(CONSTANT, 1, "constant")

/** The balancing rule: see ::DLS_BALANCE_MODE_MAP. */
typedef enum dls_balance_mode {
#define DLS_BALANCE_MODE_ENUM_(name, value, text) DLS_BALANCE_##name = value,
    DLS_BALANCE_MODE_MAP(DLS_BALANCE_MODE_ENUM_)
#undef DLS_BALANCE_MODE_ENUM_
} dls_balance_mode;
/** @var DLS_BALANCE_FUNCTIONAL
 *  Value 0, named "functional" (::DLS_BALANCE_MODE_MAP). */
/** @var DLS_BALANCE_CONSTANT
 *  Value 1, named "constant" (::DLS_BALANCE_MODE_MAP). */

/** The name of @p mode: "functional" or "constant"; "unknown" otherwise. A static string;
 *  never freed. */
DLS_API const char *dls_balance_mode_name(dls_balance_mode mode);

/** The mode whose dls_balance_mode_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out
 *  untouched). */
DLS_API dls_status dls_balance_mode_from_name(const char *name, dls_balance_mode *out);

/** Parameters of a balancer; fill with dls_balance_params_init(). Arrays are copied by
 *  dls_balance_create(). */
typedef struct dls_balance_params {
    /** ::DLS_BALANCE_FUNCTIONAL (default) or ::DLS_BALANCE_CONSTANT. */
    dls_balance_mode mode;
    /** NULL (default), or a platform of exactly p processors, in the balancer's order,
     *  whose 1-D models are the starting point: the first distribution is its partition
     *  (unless @ref start is given), and each processor's model is used until it has been
     *  measured. Its limits count as @ref limits do, and its links give the cost of
     *  moving elements (see @ref move_cost). Not kept: may be freed after the call. */
    const dls_platform *prior;
    /** 1 (default): no processor ever gets more than its limit (@ref limits, or the
     *  prior's); 0: limits ignored. */
    int use_limits;
    /** NULL (default), or p limits, elements (or weight with @ref weights) each processor
     *  may hold at most, > 0 or INFINITY for none. With a prior, the smaller of both. */
    const double *limits;
    /** NULL (default) for equal elements; else the n weights, finite and > 0: processor i
     *  gets one contiguous chunk of elements in processor order and its size is the sum
     *  of its weights (dlsched/partition.h, ordered weighted sets). */
    const double *weights;
    /** NULL (default): the first distribution is the even split (counts differ by at most
     *  one, the larger ones first; when that passes a limit, the partition of equal speeds
     *  within the limits), or the prior's partition; else p counts summing to n (the
     *  application's current distribution, taken as it is). */
    const uint64_t *start;
    /** The relative variation of a measured time expected before repeated sizes measure it
     *  (their bands then decide when larger), in [0, 0.5); default 0.02. A gain smaller
     *  than this share of the makespan is not worth a move. */
    double noise;
    /** Converged when the models predict that no distribution finishes sooner than the one
     *  just run by more than this share of its makespan (or than the band, when wider):
     *  a limit that binds may leave the times unequal at the optimum, so the test is on
     *  the gain, not on the imbalance; in (0, 1), default 0.02. */
    double tolerance;
    /** Seconds it takes to move one element when the prior has no link for a processor
     *  (else the link's rate per unit of the processors a move involves, and its startup
     *  once per transfer); >= 0, default 0 (moving is free). */
    double move_cost;
    /** Iterations a new distribution is expected to serve: a move is worth it when the
     *  predicted gain per iteration times this exceeds the predicted cost of the move;
     *  >= 1, default 10. */
    double horizon;
    /** A processor's share never grows beyond this many times the largest size it has
     *  been measured at (the model is not trusted beyond its points); > 1, default 2.
     *  Ignored while a processor has only its prior model. */
    double trust;
    /** Points kept per processor, the oldest forgotten first; >= 2, default 64. */
    size_t max_points;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(64);
} dls_balance_params;

/** Fills @p params with the defaults. */
DLS_API void dls_balance_params_init(dls_balance_params *params);

/** A balancer (opaque): create with dls_balance_create(), free with dls_balance_free(). */
typedef struct dls_balance dls_balance;

/**
 * Creates a balancer for @p p processors sharing @p n elements.
 * @param p number of processors, 1 to ::DLS_BALANCE_MAX_PROCESSORS
 * @param n number of elements, 1 to ::DLS_PARTITION_MAX_ELEMENTS (dlsched/partition.h)
 * @param params NULL for the defaults
 * @param[out] out receives the balancer, whose first distribution is dls_balance_shares();
 *        unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a bad argument or parameter (the message names it:
 *         a prior with another count of processors or a 2-D model, a start that does not
 *         sum to n, a limit or weight out of range); ::DLS_EDATA when the limits
 *         cannot hold the n elements; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_balance_create(size_t p, uint64_t n, const dls_balance_params *params,
                                      dls_balance **out, dls_error *err);

/** Frees a balancer; NULL is allowed. */
DLS_API void dls_balance_free(dls_balance *balance);

/**
 * One iteration: the measured time of each processor for the share it ran, and the next
 * distribution (dls_balance_shares()), with its moves (dls_balance_moves()) and figures
 * (dls_balance_get_info()).
 * @param p number of processors: must be the balancer's (a change is refused)
 * @param ran NULL, or the p counts the processors ran: they must be the balancer's
 *        current shares (a time belongs to the share it measured)
 * @param times p measured times in seconds: finite and > 0 for a processor with work,
 *        0 for a processor with none
 * @return ::DLS_OK; ::DLS_EINVAL naming the processor and the value (a time negative, NaN,
 *         infinite, zero for a share or nonzero without one; a count that is not the
 *         share given; another p); ::DLS_ENOMEM. On failure the balancer is unchanged.
 */
DLS_API dls_status dls_balance_step(dls_balance *balance, size_t p, const uint64_t *ran,
                                    const double *times, dls_error *err);

/** Number of processors, p. */
DLS_API size_t dls_balance_count(const dls_balance *balance);

/** Number of elements, n. */
DLS_API uint64_t dls_balance_total(const dls_balance *balance);

/** The distribution to run next: p counts summing to n, in processor order. Valid until
 *  the next dls_balance_step() or dls_balance_free(). */
DLS_API const uint64_t *dls_balance_shares(const dls_balance *balance);

/** The first element of each processor's block in a 1-D block layout (processor order):
 *  p values, first[0] = 0. Valid as dls_balance_shares(). */
DLS_API const uint64_t *dls_balance_first(const dls_balance *balance);

/** The time each processor is predicted to take for its next share, seconds, from its
 *  model; NaN for a processor with no model yet (before its first measurement without a
 *  prior); 0 without work. p values, valid as dls_balance_shares(). */
DLS_API const double *dls_balance_predicted(const dls_balance *balance);

/** What one step found (dls_balance_get_info()). */
typedef struct dls_balance_info {
    /** Steps taken so far (0 after dls_balance_create()). */
    uint64_t steps;
    /** The largest time given to the last step, s (NaN before the first step). */
    double measured_makespan;
    /** The measured imbalance of the last step: largest time over smallest, minus 1,
     *  among processors with work (NaN before the first step). */
    double measured_imbalance;
    /** The predicted makespan of the distribution just run, on the models updated with
     *  its times, s (NaN before the first step). */
    double predicted_current;
    /** The predicted makespan of the next distribution, s (NaN while a processor has no
     *  model). */
    double predicted_makespan;
    /** The predicted imbalance of the next distribution (as @ref measured_imbalance). */
    double predicted_imbalance;
    /** The relative half-width of the bands that decided (dls_balance_params::noise, or
     *  wider when repeated sizes showed more). */
    double band;
    /** The predicted gain per iteration of the distribution computed at the last step
     *  over the one run, s (whether or not it was taken). */
    double gain;
    /** The predicted cost of the moves that distribution needs, s. */
    double move_cost;
    /** Elements that change processor between the distribution run and the next one
     *  (0 when the balancer kept the distribution). */
    uint64_t moved;
    /** 1 when the last step changed the distribution; 0 when it kept it (the gain was
     *  within the band, or not worth the move). */
    int changed;
    /** 1 when the distribution just run has converged: the predicted gain is at most
     *  dls_balance_params::tolerance (or the band) times its predicted makespan. */
    int converged;
    /** Processors whose new time fell outside their band at the same size at the last
     *  step: their older points were forgotten (dls_balance_drifted() lists them). */
    size_t drifted;
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[64];
} dls_balance_info;

/**
 * The figures of the last step.
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument.
 */
DLS_API dls_status dls_balance_get_info(const dls_balance *balance, dls_balance_info *out,
                                        dls_error *err);

/** The processors that drifted at the last step, in increasing order; *n receives their
 *  count (NULL when there are none). Valid as dls_balance_shares(). */
DLS_API const size_t *dls_balance_drifted(const dls_balance *balance, size_t *n);

/**
 * A copy of the model processor @p i has now (its points, with their bands, as a
 * ::DLS_MODEL_POINTS model; the prior's model before its first measurement; a constant
 * model in the constant mode).
 * @param[out] out receives the model (free with dls_model_free()); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a bad index or before any time or prior gives a
 *         model; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_balance_get_model(const dls_balance *balance, size_t i,
                                         dls_model **out, dls_error *err);

/**
 * @name Move plans
 * How elements move from one distribution to the next. In a 1-D block layout processor i
 * holds the elements [first_i, first_i + d_i) in processor order, and keeps that order: an
 * element moves only when its owner changes, directly from its old owner to its new one,
 * so a plan moves the fewest elements any plan can for the new counts. The plan lists
 * those transfers (contiguous runs), the elements crossing each boundary between
 * neighbours, and each processor's change in count (all a layout the application manages
 * itself needs).
 * @{
 */

/** One transfer of a plan: dls_move::count elements starting at global index
 *  dls_move::first go from processor dls_move::from to processor dls_move::to. */
typedef struct dls_move {
    size_t from;     /**< the old owner */
    size_t to;       /**< the new owner */
    uint64_t first;  /**< global index of the first element moved */
    uint64_t count;  /**< elements moved, > 0 */
    /** Zero: room for later fields (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(32);
} dls_move;

/** A move plan (opaque): create with dls_move_plan_create(), free with
 *  dls_move_plan_free(). */
typedef struct dls_move_plan dls_move_plan;

/**
 * The plan that takes a 1-D block layout from the counts @p before to the counts @p after
 * (both p counts with the same sum, at most ::DLS_PARTITION_MAX_ELEMENTS).
 * @param[out] out receives the plan; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for p = 0, a NULL argument or sums that differ (the
 *         message gives both); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_move_plan_create(size_t p, const uint64_t *before, const uint64_t *after,
                                        dls_move_plan **out, dls_error *err);

/** Frees a plan; NULL is allowed. */
DLS_API void dls_move_plan_free(dls_move_plan *plan);

/** Number of processors of the plan, p. */
DLS_API size_t dls_move_plan_count(const dls_move_plan *plan);

/** Elements that change owner (the sum of the transfers' counts). */
DLS_API uint64_t dls_move_plan_moved(const dls_move_plan *plan);

/** The transfers in increasing order of dls_move::first; *n receives their number
 *  (NULL when nothing moves). Valid until @p plan is freed. */
DLS_API const dls_move *dls_move_plan_moves(const dls_move_plan *plan, size_t *n);

/** p - 1 values: the elements crossing the boundary between processors i and i + 1,
 *  positive when they go from i to i + 1, negative from i + 1 to i (NULL for p = 1).
 *  Valid until @p plan is freed. */
DLS_API const int64_t *dls_move_plan_boundaries(const dls_move_plan *plan);

/** p values: each processor's new count minus its old one. Valid until @p plan is
 *  freed. */
DLS_API const int64_t *dls_move_plan_changes(const dls_move_plan *plan);

/** The moves from the distribution run at the last step to the next one (an empty plan
 *  before the first step, or when the distribution was kept). Valid as
 *  dls_balance_shares(). */
DLS_API const dls_move_plan *dls_balance_moves(const dls_balance *balance);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_BALANCE_H */
