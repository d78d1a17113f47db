/**
 * @file dlsched/lu.h
 * @brief Column distributions for parallel LU factorization (Lastovetsky and Reddy 2007b, sections
 *        4 and 5; the Variable Group Block of Lastovetsky and Reddy 2005) and their exact optimum.
 *
 * A distribution gives each of the n column panels of a matrix to a processor. At step
 * k (k = 1 .. n-1) of the factorization the trailing matrix has height h = n - k, and
 * processor i updates the c_i columns among k+1 .. n that it owns, taking
 *
 *     T_i(h, c_i) = h c_i / s_i(h, c_i) seconds (0 when c_i = 0),
 *
 * where s_i(x, y) is its speed in updates per second: the 2-D speed of a `speed2d`
 * model, the 1-D speed of x y elements otherwise (so T_i(h, c) = time_i(h c)), or a
 * constant speed. A step costs the largest T_i, and the distribution costs the sum of
 * its steps. A processor's limit, when used, is the largest number of columns it may own.
 */
#ifndef DLSCHED_LU_H
#define DLSCHED_LU_H

#include <dlsched/common.h>
#include <dlsched/partition.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The distribution algorithms: X(NAME, value, text).
 * - GB: Group Block with constant speeds (Lastovetsky and Reddy 2007b, section 4): one group of
 *   columns, repeated, the processors ordered from slowest to fastest inside it;
 * - DP: Dynamic Programming with constant speeds (section 4): optimal for constant speeds;
 * - REVERSE: Reverse with constant speeds (section 4): optimal for constant speeds;
 * - FR: Functional Reverse (section 5.2): optimal when it assigns a column at every step;
 * - FDP: Functional Dynamic Programming (section 5.4);
 * - FGB: Functional Group Block (section 5.3), the Variable Group Block of Lastovetsky and Reddy
 *   (2005);
 * - EXACT: the exact optimum, a shortest path through the vectors of column counts of the
 *   trailing matrix, C(n-1+p, p) states; refused beyond ::dls_lu_params::max_memory.
 */
#define DLS_LU_ALGORITHM_MAP(X) \
    X(GB, 0, "gb")              \
    X(DP, 1, "dp")              \
    X(REVERSE, 2, "reverse")    \
    X(FR, 3, "fr")              \
    X(FDP, 4, "fdp")            \
    X(FGB, 5, "fgb")            \
    X(EXACT, 6, "exact")

/** A distribution algorithm: see ::DLS_LU_ALGORITHM_MAP. */
typedef enum dls_lu_algorithm {
#define DLS_LU_ALGORITHM_ENUM_(name, value, text) DLS_LU_##name = value,
    DLS_LU_ALGORITHM_MAP(DLS_LU_ALGORITHM_ENUM_)
#undef DLS_LU_ALGORITHM_ENUM_
} dls_lu_algorithm;
/* The values, one by one (the list above makes them). */
/** @var DLS_LU_GB
 *  Value 0, named "gb" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_DP
 *  Value 1, named "dp" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_REVERSE
 *  Value 2, named "reverse" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_FR
 *  Value 3, named "fr" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_FDP
 *  Value 4, named "fdp" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_FGB
 *  Value 5, named "fgb" (::DLS_LU_ALGORITHM_MAP). */
/** @var DLS_LU_EXACT
 *  Value 6, named "exact" (::DLS_LU_ALGORITHM_MAP). */

/** Number of algorithms in ::dls_lu_algorithm (their values are 0 .. count - 1). */
#define DLS_LU_ALGORITHM_COUNT 7

/**
 * How Functional Reverse orders a group of columns it could not assign one by one:
 * X(NAME, value, text).
 * - AUTO (default): exhaustive search of the group when its state count is at most 16 times
 *   the evaluations of one cheap order (len p) and within ::dls_lu_params::max_group_states,
 *   otherwise the best of the four cheap orders;
 * - CYCL: one column to each processor in turn, in platform order;
 * - FTOS: processors by decreasing number of columns in the group;
 * - STOF: processors by increasing number of columns in the group;
 * - DFLT: processors in platform order;
 * - EXHAUSTIVE: the best order of the group's columns (a shortest path through the counts
 *   between the two distributions); a group larger than max_group_states is an error.
 */
#define DLS_LU_HEURISTIC_MAP(X) \
    X(AUTO, 0, "auto")          \
    X(CYCL, 1, "cycl")          \
    X(FTOS, 2, "ftos")          \
    X(STOF, 3, "stof")          \
    X(DFLT, 4, "dflt")          \
    X(EXHAUSTIVE, 5, "exhaustive")

/** A group-ordering heuristic: see ::DLS_LU_HEURISTIC_MAP. */
typedef enum dls_lu_heuristic {
#define DLS_LU_HEURISTIC_ENUM_(name, value, text) DLS_LU_##name = value,
    DLS_LU_HEURISTIC_MAP(DLS_LU_HEURISTIC_ENUM_)
#undef DLS_LU_HEURISTIC_ENUM_
} dls_lu_heuristic;
/* The values, one by one (the list above makes them). */
/** @var DLS_LU_AUTO
 *  Value 0, named "auto" (::DLS_LU_HEURISTIC_MAP). */
/** @var DLS_LU_CYCL
 *  Value 1, named "cycl" (::DLS_LU_HEURISTIC_MAP). */
/** @var DLS_LU_FTOS
 *  Value 2, named "ftos" (::DLS_LU_HEURISTIC_MAP). */
/** @var DLS_LU_STOF
 *  Value 3, named "stof" (::DLS_LU_HEURISTIC_MAP). */
/** @var DLS_LU_DFLT
 *  Value 4, named "dflt" (::DLS_LU_HEURISTIC_MAP). */
/** @var DLS_LU_EXHAUSTIVE
 *  Value 5, named "exhaustive" (::DLS_LU_HEURISTIC_MAP). */

/** Parameters of dls_lu_distribute(); fill with dls_lu_params_init(). */
typedef struct dls_lu_params {
    dls_lu_algorithm algorithm;  /**< default ::DLS_LU_FR */
    dls_lu_heuristic heuristic;  /**< Functional Reverse only; default ::DLS_LU_AUTO */
    /** 1 (default): a processor owns at most floor(limit) columns; 0: ignore limits. */
    int use_limits;
    /** Memory the exact method may use, in bytes (default 1 GiB). A larger state space
     *  is refused with ::DLS_ELIMIT before any work; see dls_lu_exact_memory(). */
    size_t max_memory;
    /** Largest number of states of one group's exhaustive search (default 10^6). */
    size_t max_group_states;
    /** Called now and then with the fraction of the work done; NULL (default) for none.
     *  A nonzero return stops the computation with ::DLS_ECANCELED. */
    dls_progress_fn progress;
    void *progress_data;     /**< passed to @ref progress */
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(80);
} dls_lu_params;

/** Fills @p params with the defaults. */
DLS_API void dls_lu_params_init(dls_lu_params *params);

/** Name of an algorithm ("gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"), or
 *  "unknown". A static string; never freed. */
DLS_API const char *dls_lu_algorithm_name(dls_lu_algorithm algorithm);

/** Name of a heuristic ("auto", "cycl", "ftos", "stof", "dflt", "exhaustive"), or
 *  "unknown". A static string; never freed. */
DLS_API const char *dls_lu_heuristic_name(dls_lu_heuristic heuristic);

/** Algorithm by name. @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL
 *  argument (@p out untouched). */
DLS_API dls_status dls_lu_algorithm_from_name(const char *name, dls_lu_algorithm *out);

/** Heuristic by name. @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL
 *  argument (@p out untouched). */
DLS_API dls_status dls_lu_heuristic_from_name(const char *name, dls_lu_heuristic *out);

/**
 * Memory the exact method needs for @p n columns over @p p processors: one predecessor
 * code of ceil(log2 p) bits (rounded up to 1, 2, 4, 8 or 16) for each of the
 * C(n-1+p, p) - 1 count vectors, plus two layers of values.
 * @param[out] bytes receives the estimate (SIZE_MAX when it does not fit in a size_t)
 * @param[out] states receives the number of states (may be NULL; UINT64_MAX on overflow)
 * @return ::DLS_OK; ::DLS_EINVAL for NULL @p bytes, p = 0 or p > 65536.
 */
DLS_API dls_status dls_lu_exact_memory(size_t p, uint64_t n, size_t *bytes, uint64_t *states,
                                       dls_error *err);

/** A column distribution (opaque); free with dls_lu_free(). */
typedef struct dls_lu dls_lu;

/**
 * Distributes @p n column panels over the processors of @p platform.
 *
 * The constant-speed algorithms (gb, dp, reverse) use each processor's constant speed;
 * for a processor with another model they use its speed at the even share of the whole
 * matrix, s_i(n, n / p), as a one-size benchmark would. Whatever the algorithm, the
 * reported cost is that of the true models (the cost model above).
 * @param n number of columns, >= 1
 * @param params NULL for the defaults
 * @param[out] out receives the result, also when no distribution fits the limits (check
 *        dls_lu_status()); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, n = 0, an empty platform or a bad
 *         parameter; ::DLS_ELIMIT when the exact method or an exhaustive group search
 *         would need more than the caps (the message gives the need and the cap);
 *         ::DLS_ECANCELED when the progress callback asked to stop; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_lu_distribute(const dls_platform *platform, uint64_t n,
                                     const dls_lu_params *params, dls_lu **out,
                                     dls_error *err);

/**
 * Cost of a given distribution under the cost model above.
 * @param owners @p n processor indices, owners[j] owning column j + 1
 * @param[out] cost receives the total, in seconds
 * @param[out] step_costs NULL, or an array of n - 1 values receiving the cost of steps
 *        1 .. n-1
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, n = 0 or an owner out of range.
 */
DLS_API dls_status dls_lu_evaluate(const dls_platform *platform, uint64_t n,
                                   const size_t *owners, double *cost, double *step_costs,
                                   dls_error *err);

/** Frees a result; NULL is allowed. */
DLS_API void dls_lu_free(dls_lu *lu);

/** The algorithm that produced the result. */
DLS_API dls_lu_algorithm dls_lu_get_algorithm(const dls_lu *lu);

/** The heuristic used by Functional Reverse (as given in the parameters). */
DLS_API dls_lu_heuristic dls_lu_get_heuristic(const dls_lu *lu);

/** ::DLS_SOLUTION_OPTIMAL when the cost is proven minimal (the exact method, or a cost
 *  equal to the lower bound), ::DLS_SOLUTION_FEASIBLE otherwise, ::DLS_SOLUTION_INFEASIBLE
 *  when the limits hold fewer than n columns, ::DLS_SOLUTION_NOT_FOUND when Group Block's
 *  fixed pattern breaks a limit. */
DLS_API dls_solution_status dls_lu_status(const dls_lu *lu);

/** A sentence on what limits the answer, or "". Valid until @p lu is freed. */
DLS_API const char *dls_lu_note(const dls_lu *lu);

/** Number of columns n. */
DLS_API uint64_t dls_lu_columns(const dls_lu *lu);

/** Number of processors. */
DLS_API size_t dls_lu_count(const dls_lu *lu);

/** Owner of each column: array of n processor indices (owners[j] owns column j + 1);
 *  NULL when there is no distribution (see dls_lu_status()). Valid until @p lu is freed. */
DLS_API const size_t *dls_lu_owners(const dls_lu *lu);

/** Columns owned by each processor: array of dls_lu_count() values (zeros without a
 *  distribution). Valid until @p lu is freed. */
DLS_API const uint64_t *dls_lu_counts(const dls_lu *lu);

/** The cost in seconds (INFINITY without a distribution). */
DLS_API double dls_lu_cost(const dls_lu *lu);

/** Cost of each step k = 1 .. n-1: array of n - 1 values (NULL when n = 1 or without a
 *  distribution). Valid until @p lu is freed. */
DLS_API const double *dls_lu_step_costs(const dls_lu *lu);

/** A lower bound on the optimal cost, or NaN when none was computed: the sum over the
 *  steps of the best distribution of each step alone (Functional Reverse, Functional DP,
 *  any algorithm on a platform of constant speeds), or the optimum itself (exact). */
DLS_API double dls_lu_lower_bound(const dls_lu *lu);

/** (cost - lower bound) / lower bound; NaN without a bound, 0 when the bound is 0. */
DLS_API double dls_lu_gap(const dls_lu *lu);

/** Functional Reverse and Reverse: the number of groups of two or more columns assigned
 *  together (0 when a column was assigned at every step); Group Block and Functional
 *  Group Block: the number of groups; 0 for the other algorithms. */
DLS_API size_t dls_lu_groups(const dls_lu *lu);

/** Number of states the exact method or the exhaustive group searches examined. */
DLS_API uint64_t dls_lu_states(const dls_lu *lu);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_LU_H */
