/**
 * @file dlsched/partition.h
 * @brief Geometric partitioning of a set of elements over the processors of a platform
 *        (Lastovetsky and Reddy 2007a, 2006 and 2005).
 *
 * Processor i given x units of work takes t_i(x) = x / s_i(x) seconds (its time function,
 * dlsched/model.h); the makespan of a distribution is the largest of these times. The
 * partitioners minimise it:
 * - equal elements (the default): the optimal distribution of n elements, n up to 2^53,
 *   with counts that are exact integers. Optimal whenever every processor's time is
 *   strictly increasing up to the largest count it could get (the shape assumption of the
 *   functional model: every line through the origin meets the speed graph once); when a
 *   model breaks it, a valid distribution is still returned and the result says that
 *   optimality is not guaranteed;
 * - weighted elements: the time of processor i is t_i(W_i), W_i the sum of the weights it
 *   gets (weights are in the model's size unit). Unordered: a heuristic with a proven lower
 *   bound, so the gap is known. Ordered (contiguous chunks) in the given processor order:
 *   the exact optimum when no time falls as the weight grows, or when a search over the
 *   chunk boundaries fits its budget (about 10^8 time evaluations); otherwise valid chunks
 *   that place every element, reported feasible with a note;
 * - limits: processor i never gets more than its `limit` (in elements, or in weight for
 *   weighted sets); when the limits cannot hold everything the result is infeasible;
 * - striped matrix multiplication (Lastovetsky and Reddy 2007a, section 3.2): rows of an n x n
 *   product, with 2-D speeds cut at the fixed n.
 *
 * Every result gives per processor its elements and predicted time, the makespan, the
 * continuous lower bound and the gap, and the number of root-finding steps.
 */
#ifndef DLSCHED_PARTITION_H
#define DLSCHED_PARTITION_H

#include <stdint.h>

#include <dlsched/common.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest number of elements the partitioners accept: 2^53, so that every count is
 *  exactly representable as a double too. */
#define DLS_PARTITION_MAX_ELEMENTS 9007199254740992ull

/**
 * Root-finding methods for equal elements: X(NAME, value, text).
 * - NEWTON: safeguarded Newton iteration on the common finishing time (default): the same
 *   optimum as Algorithm 1 of Lastovetsky and Reddy (2007a) in a few passes over the models;
 * - BISECTION: Algorithm 1.1 of Lastovetsky and Reddy (2007a) as printed (bisection of the angle
 *   between two lines through the origin), then Algorithm 1.2. Kept for comparison.
 */
#define DLS_PARTITION_METHOD_MAP(X) \
    X(NEWTON, 0, "newton")          \
    X(BISECTION, 1, "bisection")

/** Root-finding method for equal elements: see ::DLS_PARTITION_METHOD_MAP. */
typedef enum dls_partition_method {
#define DLS_PARTITION_METHOD_ENUM_(name, value, text) DLS_PARTITION_##name = value,
    DLS_PARTITION_METHOD_MAP(DLS_PARTITION_METHOD_ENUM_)
#undef DLS_PARTITION_METHOD_ENUM_
} dls_partition_method;
/* The values, one by one (the list above makes them). */
/** @var DLS_PARTITION_NEWTON
 *  Value 0, named "newton" (::DLS_PARTITION_METHOD_MAP). */
/** @var DLS_PARTITION_BISECTION
 *  Value 1, named "bisection" (::DLS_PARTITION_METHOD_MAP). */

/** The name of @p method: "newton" or "bisection"; "unknown" otherwise. A static string; never
 *  freed. */
DLS_API const char *dls_partition_method_name(dls_partition_method method);

/** The method whose dls_partition_method_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_partition_method_from_name(const char *name,
                                                  dls_partition_method *out);

/**
 * How matrix partitions (dls_partition_solve_matrix()) are computed: X(NAME, value, text).
 * - AUTO (default): the geometric algorithm of Lastovetsky and Reddy (2007a) when every processor's
 *   time keeps the shape assumption up to the largest share it could get (it is then optimal), else
 *   the exact row programme;
 * - ALWAYS: the exact row programme;
 * - NEVER: the geometric algorithm, whatever the shapes (a valid distribution, optimal only
 *   when the shapes hold).
 * The exact row programme finds the integer rows r_i minimising max_i t_i(r_i) for any
 * speed functions: about p n time evaluations and a binary search over the times
 * t_i(r), each step a sumset test over the counts 0..n. Among optimal distributions it
 * returns the lexicographically largest (r_1, ..., r_p) in platform order (each processor
 * in turn takes the most rows it can). Its memory and work are bounded: it stores at most
 * 2^23 times (the sum over the processors of 1 + the most rows each could get, at most
 * p (n + 1)), and stops past 2^32 bitset word operations; see
 * dls_partition_solve_matrix() for what happens then.
 */
#define DLS_PARTITION_EXACT_MAP(X) \
    X(AUTO, 0, "auto")             \
    X(ALWAYS, 1, "always")         \
    X(NEVER, 2, "never")

/** When matrix partitions use the exact row programme: see ::DLS_PARTITION_EXACT_MAP. */
typedef enum dls_partition_exact {
#define DLS_PARTITION_EXACT_ENUM_(name, value, text) DLS_PARTITION_EXACT_##name = value,
    DLS_PARTITION_EXACT_MAP(DLS_PARTITION_EXACT_ENUM_)
#undef DLS_PARTITION_EXACT_ENUM_
} dls_partition_exact;
/* The values, one by one (the list above makes them). */
/** @var DLS_PARTITION_EXACT_AUTO
 *  Value 0, named "auto" (::DLS_PARTITION_EXACT_MAP). */
/** @var DLS_PARTITION_EXACT_ALWAYS
 *  Value 1, named "always" (::DLS_PARTITION_EXACT_MAP). */
/** @var DLS_PARTITION_EXACT_NEVER
 *  Value 2, named "never" (::DLS_PARTITION_EXACT_MAP). */

/** The name of @p exact: "auto", "always" or "never"; "unknown" otherwise. A static string; never
 *  freed. */
DLS_API const char *dls_partition_exact_name(dls_partition_exact exact);

/** The value whose dls_partition_exact_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_partition_exact_from_name(const char *name, dls_partition_exact *out);

/**
 * A quality metric: the deviation of a distribution from the ideal one.
 * @param p number of processors
 * @param speeds speed of each processor at its ideal size (units per second), length @p p
 * @param actual size each processor got (elements, or weight), length @p p
 * @param ideal ideal size of each processor, the continuous optimum, length @p p
 * @param data the caller's pointer given in ::dls_partition_params
 * @return the deviation (any finite number; smaller is better)
 */
typedef double (*dls_partition_metric)(size_t p, const double *speeds, const double *actual,
                                       const double *ideal, void *data);

/** Parameters of the partitioners; fill with dls_partition_params_init(). */
typedef struct dls_partition_params {
    /** 1 (default): respect each processor's limit; 0: ignore the limits. */
    int use_limits;
    /** 1: the elements form an ordered set and each processor gets one contiguous chunk;
     *  0 (default): any subset. */
    int ordered;
    /** With ordered sets: 1 allows the chunks to follow another processor order than the
     *  platform's; 0 (default) keeps the platform's order. */
    int reorder;
    /** NULL (default) for equal elements; else the n weights, finite and > 0, in the
     *  models' size unit. Not copied: must live until the call returns. */
    const double *weights;
    /** The quality metric; NULL (default) for the weighted Euclidean deviation
     *  sqrt(sum_i r_i (actual_i - ideal_i)^2), r_i the relative speed of processor i at its
     *  ideal size (speeds summing to 1). */
    dls_partition_metric metric;
    void *metric_data;              /**< passed to @ref metric */
    dls_partition_method method;    /**< equal elements: ::DLS_PARTITION_NEWTON (default) */
    /** Upper bound on improvement moves of the weighted heuristics; default 100000. */
    size_t max_moves;
    /** Matrix partitions: when to use the exact row programme, ::DLS_PARTITION_EXACT_AUTO
     *  (default). dls_partition_solve() accepts AUTO and NEVER (both the geometric
     *  algorithm) and rejects ALWAYS. */
    dls_partition_exact exact;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(68);
} dls_partition_params;

/** Fills @p params with the defaults. */
DLS_API void dls_partition_params_init(dls_partition_params *params);

/** The result of a partitioning call (opaque); free with dls_partition_free(). */
typedef struct dls_partition dls_partition;

/**
 * Partitions a set of @p n elements over the processors of @p platform.
 *
 * Every processor needs a 1-D model (a 2-D model must be cut first: see
 * dls_partition_solve_matrix()).
 * @param n number of elements, at most ::DLS_PARTITION_MAX_ELEMENTS (0 is allowed)
 * @param params NULL for the defaults
 * @param[out] out receives the result, also when the problem is infeasible (check
 *        dls_partition_status()); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a bad argument or parameter (a processor with a 2-D
 *         model, a weight that is not finite and > 0, n too large); ::DLS_ENOMEM;
 *         ::DLS_ECANCELED never.
 */
DLS_API dls_status dls_partition_solve(const dls_platform *platform, uint64_t n,
                                       const dls_partition_params *params, dls_partition **out,
                                       dls_error *err);

/**
 * Distributes the @p n rows of an n x n matrix product over the processors (Lastovetsky and Reddy
 * 2007a, section 3.2). Processor i given r rows takes r n^2 / s_i(n, r) seconds, where s_i(x, y)
 * is its 2-D speed in multiply-adds per second with x the matrix order and y the number of
 * rows (for a 1-D model, its speed at n r elements, see the platform contract): each 2-D
 * model is cut at x = n (dls_model_section()) and the rows are partitioned as equal
 * elements, never more than floor(limit) rows on a processor with a limit (when
 * @p params->use_limits is set). @p params->weights must be NULL.
 *
 * @p params->exact chooses the algorithm (::DLS_PARTITION_EXACT_MAP). When the exact row
 * programme ran (dls_partition_exact_used() is 1) the status is ::DLS_SOLUTION_OPTIMAL and
 * the lower bound equals the makespan (gap 0), whatever the shapes; with
 * ::DLS_PARTITION_EXACT_AUTO the note names the processor whose shape made the switch. When
 * AUTO needs the programme but it would pass its bounds, the geometric distribution is kept
 * (status ::DLS_SOLUTION_FEASIBLE) and the note says so.
 * @return as dls_partition_solve(), and ::DLS_EINVAL for an unknown @p params->exact;
 *         ::DLS_ELIMIT when ::DLS_PARTITION_EXACT_ALWAYS asks for the exact row programme
 *         and it would pass its bounds (the message gives the count).
 */
DLS_API dls_status dls_partition_solve_matrix(const dls_platform *platform, uint64_t n,
                                              const dls_partition_params *params,
                                              dls_partition **out, dls_error *err);

/** Frees a result; NULL is allowed. */
DLS_API void dls_partition_free(dls_partition *result);

/** Whether a valid distribution was found, and if it is proven optimal. */
DLS_API dls_solution_status dls_partition_status(const dls_partition *result);

/** 1 when the shape assumption holds on every processor up to the sizes that matter, so
 *  that the geometric distribution of equal elements is optimal; 0 when some model breaks
 *  it (the exact row programme of matrix partitions is optimal either way: see
 *  dls_partition_exact_used()). */
DLS_API int dls_partition_shape_ok(const dls_partition *result);

/** 1 when the rows were placed by the exact row programme (::DLS_PARTITION_EXACT_MAP),
 *  0 when by the geometric algorithm (always 0 for dls_partition_solve()). */
DLS_API int dls_partition_exact_used(const dls_partition *result);

/** A sentence on what limits the answer: the infeasibility (with the total capacity and
 *  n), the processor whose shape breaks the assumption, or "" when there is nothing to say. Valid
 *  until @p result is freed. */
DLS_API const char *dls_partition_note(const dls_partition *result);

/** Number of processors (the platform's count). */
DLS_API size_t dls_partition_count(const dls_partition *result);

/** Number of elements distributed (n). */
DLS_API uint64_t dls_partition_total(const dls_partition *result);

/** Elements of each processor, array of dls_partition_count() values, in platform order. Valid
 *  until @p result is freed. */
DLS_API const uint64_t *dls_partition_elements(const dls_partition *result);

/** Size each processor's time is computed at: its elements, or the sum of its weights;
 *  array of dls_partition_count() values. Valid until @p result is freed. */
DLS_API const double *dls_partition_sizes(const dls_partition *result);

/** Predicted time of each processor in seconds, t_i(size_i), 0 for an empty share; array
 *  of dls_partition_count() values. Valid until @p result is freed. */
DLS_API const double *dls_partition_times(const dls_partition *result);

/** Ordered sets: index of the first element of each processor's chunk (its chunk is
 *  [first, first + elements)); all 0 (every chunk empty) when there is no valid
 *  distribution; NULL for unordered sets. Valid until @p result is freed. */
DLS_API const uint64_t *dls_partition_first(const dls_partition *result);

/** Weighted unordered sets: the processor of each element, array of n indices; NULL
 *  otherwise. Valid until @p result is freed. */
DLS_API const size_t *dls_partition_assignment(const dls_partition *result);

/** The makespan: the largest predicted time, in seconds (INFINITY when infeasible). */
DLS_API double dls_partition_makespan(const dls_partition *result);

/** A lower bound on the optimal makespan: the continuous optimum (every processor that is
 *  not at its limit finishing together), raised for weighted sets by what the largest
 *  elements force. Never above the makespan. */
DLS_API double dls_partition_lower_bound(const dls_partition *result);

/** (makespan - lower bound) / lower bound, or 0 when the lower bound is 0. */
DLS_API double dls_partition_gap(const dls_partition *result);

/** Ideal (continuous) size of each processor, array of dls_partition_count() values. Valid until
 *  @p result is freed. */
DLS_API const double *dls_partition_ideal(const dls_partition *result);

/** The quality metric of the distribution (see ::dls_partition_params). */
DLS_API double dls_partition_metric_value(const dls_partition *result);

/** Number of root-finding steps taken (Newton or bisection iterations, each one pass
 *  over the models; for weighted ordered sets, the bisection steps on the makespan), plus,
 *  when the exact row programme ran, its feasibility tests. */
DLS_API unsigned dls_partition_steps(const dls_partition *result);

/** Sum of the processors' limits in elements (or weight), INFINITY without limits. */
DLS_API double dls_partition_capacity(const dls_partition *result);

/** Ordered sets with reordering: the processors in chunk order (array of
 *  dls_partition_count() indices; 0 .. p-1 when no distribution was found); NULL
 *  otherwise. Valid until @p result is freed. */
DLS_API const size_t *dls_partition_order(const dls_partition *result);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_PARTITION_H */
