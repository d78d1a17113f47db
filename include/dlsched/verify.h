/**
 * @file verify.h
 * @brief dlsched as the referee: a schedule or a partition written by any tool, checked
 *        against the platform's models, and measured against the optimum.
 *
 * A claim (::dls_claim) is what another scheduler says: each processor's load and, when it
 * says so, when its send starts and ends, when it starts computing and when it finishes,
 * the send order and the makespan. Build one with dls_claim_create() and the setters, or
 * read it from a file: the JSON that `dlsched schedule --json`, `evaluate --json` and
 * `partition --json` write, or a CSV table with a header (`name,load` and optionally
 * `send_start`, `send_end`, `compute_start`, `finish`; rows in send order).
 *
 * dls_schedule_verify() checks everything the star model implies: the loads sum to the
 * load, each within its processor's limit, the sends one after the other on the single
 * port (each lasting S + C x, nothing sent to a processor given nothing), no computing
 * before the data has arrived, each finish under the processor's true model, and the
 * claimed makespan. Every comparison follows the tolerance rule of ::DLS_REL_TOL (times:
 * relative to the makespan). Each violation names the processor, what was expected, what
 * was found and by how much. A valid schedule is then measured against the optimum for
 * the same platform, load and mode: the paper's LP, the best set of processors for the
 * platform's order, and the best set for the claim's own send order.
 */
#ifndef DLSCHED_VERIFY_H
#define DLSCHED_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "dlsched/common.h"
#include "dlsched/platform.h"
#include "dlsched/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a claim is: X(NAME, value, text). SCHEDULE: a star schedule (loads and
 *  timeline); PARTITION: elements per processor and their times; INSTALLMENTS: a
 *  multi-installment schedule (equal chunks round-robin, see dlsched/installment.h): the
 *  chunk size, each processor's total load and finish. */
#define DLS_CLAIM_KIND_MAP(X)         \
    X(SCHEDULE, 0, "schedule")        \
    X(PARTITION, 1, "partition")      \
    X(INSTALLMENTS, 2, "installments")

/** Kind of claim: see ::DLS_CLAIM_KIND_MAP. */
typedef enum dls_claim_kind {
#define DLS_CLAIM_KIND_ENUM_(name, value, text) DLS_CLAIM_##name = value,
    DLS_CLAIM_KIND_MAP(DLS_CLAIM_KIND_ENUM_)
#undef DLS_CLAIM_KIND_ENUM_
} dls_claim_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_CLAIM_SCHEDULE
 *  Value 0, named "schedule" (::DLS_CLAIM_KIND_MAP). */
/** @var DLS_CLAIM_PARTITION
 *  Value 1, named "partition" (::DLS_CLAIM_KIND_MAP). */
/** @var DLS_CLAIM_INSTALLMENTS
 *  Value 2, named "installments" (::DLS_CLAIM_KIND_MAP). */

/** The name of @p kind: "schedule" or "partition"; "unknown" for other values. A static string;
 *  never freed. */
DLS_API const char *dls_claim_kind_name(dls_claim_kind kind);
/** The kind written @p name. @return ::DLS_OK; ::DLS_EINVAL for an unknown name. */
DLS_API dls_status dls_claim_kind_from_name(const char *name, dls_claim_kind *out);

/** A schedule or partition claimed by some tool, for one platform (opaque). */
typedef struct dls_claim dls_claim;

/**
 * An empty claim for @p platform: every load 0, no time given, no order, no makespan.
 * The claim refers to processors by their index in @p platform, which must outlive it.
 * @return ::DLS_OK; ::DLS_EINVAL for NULL arguments or a bad kind; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_claim_create(const dls_platform *platform, dls_claim_kind kind,
                                    dls_claim **out, dls_error *err);

/** Frees a claim; NULL is allowed. */
DLS_API void dls_claim_free(dls_claim *claim);

/**
 * What the claim says of processor @p i. Times in seconds from the start of the schedule;
 * NaN for a time the claim does not give (it is then taken as early as the model allows).
 * For a partition, @p load is the number of elements and @p finish the time claimed for
 * them; the other times must be NaN.
 * @return ::DLS_OK; ::DLS_EINVAL for i out of range, a load or time that is not a number
 *         (infinite loads and times are refused too: a claim is about a finite schedule),
 *         a load or time that is neither 0 nor of a magnitude inside the input domain
 *         ([::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]; a negative load is a violation, reported by
 *         the verification), or a time given for a partition; the claim is unchanged then.
 */
DLS_API dls_status dls_claim_set(dls_claim *claim, size_t i, double load, double send_start,
                                 double send_end, double compute_start, double finish,
                                 dls_error *err);

/**
 * The send order: @p m distinct processor indices, first sent first. Processors given a
 * load but left out of it are sent after, by their claimed send start (then index).
 * Without an order, processors are sent by their claimed send start, then index.
 * @return ::DLS_OK; ::DLS_EINVAL for an index out of range or repeated (claim unchanged);
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_claim_set_order(dls_claim *claim, const size_t *order, size_t m,
                                       dls_error *err);

/** The total load the claim says it distributes (NaN: not claimed). For a partition, the
 *  number of elements. @return ::DLS_OK; ::DLS_EINVAL for a value that is not finite and
 *  > 0 inside the input domain ([::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]), or NaN. */
DLS_API dls_status dls_claim_set_total(dls_claim *claim, double total, dls_error *err);

/** The makespan the claim says it reaches, in seconds (NaN: not claimed).
 *  @return ::DLS_OK; ::DLS_EINVAL for a negative or infinite value, or one neither 0 nor
 *  inside the input domain ([::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]). */
DLS_API dls_status dls_claim_set_makespan(dls_claim *claim, double makespan, dls_error *err);

/** The chunk size of a multi-installment claim, in load units, > 0 inside the input
 *  domain ([::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]).
 *  @return ::DLS_OK; ::DLS_EINVAL for another kind of claim or a bad size. */
DLS_API dls_status dls_claim_set_chunk(dls_claim *claim, double chunk, dls_error *err);

/**
 * Which processor holds each element of a partition of weighted elements (the
 * "assignment" of `dlsched partition --weights --json`): @p owner[e] is the index of the
 * processor that holds element e, for e in 0 .. @p n - 1. An element beyond @p n holds
 * no processor (dls_partition_verify() reports it missing). The claim's loads
 * (dls_claim_set()) are from then on the weights the processors hold, in the models' size
 * unit. Replaces an earlier assignment or chunks.
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL claim (or @p owner with @p n > 0), a claim that
 *         is not a partition, more than ::DLS_PARTITION_MAX_ELEMENTS elements, or a
 *         processor out of range (the message names the element and the processor);
 *         ::DLS_ENOMEM. The claim is unchanged on failure.
 */
DLS_API dls_status dls_claim_set_assignment(dls_claim *claim, const size_t *owner, size_t n,
                                            dls_error *err);

/**
 * The chunks of a partition of an ordered set of weighted elements (the "first" and
 * "elements" of `dlsched partition --weights --ordered --json`): processor i holds the
 * elements first[i] .. first[i] + count[i] - 1 (none when count[i] is 0, whatever
 * first[i]). @p p must be the platform's count. As with dls_claim_set_assignment(), the
 * loads are then the weights held, and earlier chunks or an assignment are replaced.
 * @return ::DLS_OK; ::DLS_EINVAL for NULL arguments, a claim that is not a partition, @p p
 *         not the platform's count, or a chunk reaching past ::DLS_PARTITION_MAX_ELEMENTS
 *         (the message names the processor); ::DLS_ENOMEM. The claim is unchanged on
 *         failure.
 */
DLS_API dls_status dls_claim_set_chunks(dls_claim *claim, const uint64_t *first,
                                        const uint64_t *count, size_t p, dls_error *err);

/** The claim's kind. */
DLS_API dls_claim_kind dls_claim_get_kind(const dls_claim *claim);

/**
 * What the claim says of processor @p i (platform order): its load (elements, or weight,
 * for a partition) and its times in seconds, NaN where the claim gives none (outputs may
 * be NULL).
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL claim or an index out of range.
 */
DLS_API dls_status dls_claim_get(const dls_claim *claim, size_t i, double *load,
                                 double *send_start, double *send_end, double *compute_start,
                                 double *finish);

/** The claim's send order: @p *m indices of the platform (NULL with 0 when the claim gives
 *  none); owned by the claim, valid until the claim is freed or its order set again. */
DLS_API const size_t *dls_claim_order(const dls_claim *claim, size_t *m);

/** The total the claim distributes; NaN when it states none. */
DLS_API double dls_claim_total(const dls_claim *claim);
/** The makespan the claim states, in seconds; NaN when it states none. */
DLS_API double dls_claim_makespan(const dls_claim *claim);
/** The chunk of an installments claim; NaN when none is set. */
DLS_API double dls_claim_chunk(const dls_claim *claim);

/** @deprecated The old name of dls_claim_order(), kept for one release. Valid until @p claim is
 *  freed or its order set again. */
DLS_API const size_t *dls_claim_get_order(const dls_claim *claim, size_t *m)
    DLS_DEPRECATED("use dls_claim_order");
/** @deprecated The old name of dls_claim_total(), kept for one release. */
DLS_API double dls_claim_get_total(const dls_claim *claim) DLS_DEPRECATED("use dls_claim_total");
/** @deprecated The old name of dls_claim_makespan(), kept for one release. */
DLS_API double dls_claim_get_makespan(const dls_claim *claim)
    DLS_DEPRECATED("use dls_claim_makespan");
/** @deprecated The old name of dls_claim_chunk(), kept for one release. */
DLS_API double dls_claim_get_chunk(const dls_claim *claim) DLS_DEPRECATED("use dls_claim_chunk");

/**
 * Reads a claim for @p platform from the file at @p path: JSON (a document that starts
 * with '{': the output of `dlsched schedule --json`, `evaluate --json` or
 * `partition --json` or `installments --json`; processors by name) or CSV (a header naming the columns `name` and
 * `load` — or `elements` for a partition — and optionally `send_start`, `send_end`,
 * `compute_start`, `finish`; one row per processor, in send order; empty cells are times
 * not given). Processors of the platform missing from the file get load 0. A CSV cell
 * has no length limit of its own (a name may be ::DLS_PLATFORM_NAME_MAX bytes); the file is
 * held to ::DLS_PLATFORM_FILE_MAX bytes.
 * @return ::DLS_OK; ::DLS_ESYNTAX for malformed text (file, line, column); ::DLS_EDATA for a
 *         processor the platform does not have, one named twice, a non-finite number or one
 *         neither 0 nor of a magnitude inside the input domain ([::DLS_DOMAIN_MIN,
 *         ::DLS_DOMAIN_MAX]: loads, times, the total, the makespan, the chunk) (file, line,
 *         processor, value), loads whose sum is outside the domain, a partition's elements
 *         beyond ::DLS_PARTITION_MAX_ELEMENTS, or an installments claim whose chunk divides
 *         its load into ::DLS_INSTALLMENT_MAX_CHUNKS chunks or more (file); ::DLS_EIO;
 *         ::DLS_ELIMIT for a file beyond ::DLS_PLATFORM_FILE_MAX bytes; ::DLS_ENOMEM. @p out
 *         is unchanged on failure.
 */
DLS_API dls_status dls_claim_read_file(const dls_platform *platform, const char *path,
                                       dls_claim **out, dls_error *err);

/** The same from @p len bytes at @p text; @p source names it in messages (NULL: "claim"). */
DLS_API dls_status dls_claim_read_string(const dls_platform *platform, const char *text,
                                         size_t len, const char *source, dls_claim **out,
                                         dls_error *err);

/** The kinds of violation: X(NAME, value, text). */
#define DLS_VIOLATION_KIND_MAP(X)                   \
    X(NEGATIVE_LOAD, 0, "negative-load")            \
    X(LOAD_SUM, 1, "load-sum")                      \
    X(LIMIT, 2, "limit")                            \
    X(SEND_OVERLAP, 3, "send-overlap")              \
    X(SEND_DURATION, 4, "send-duration")            \
    X(EARLY_COMPUTE, 5, "early-compute")            \
    X(FINISH, 6, "finish")                          \
    X(MAKESPAN, 7, "makespan")                      \
    X(NOT_WHOLE, 8, "not-whole")                    \
    X(ROUND_ROBIN, 9, "round-robin")                \
    X(ELEMENT_MISSING, 10, "element-missing")       \
    X(ELEMENT_TWICE, 11, "element-twice")           \
    X(ELEMENT_UNKNOWN, 12, "element-unknown")       \
    X(WEIGHT_SUM, 13, "weight-sum")                 \
    X(CHUNK, 14, "chunk")

/** Kind of violation: see ::DLS_VIOLATION_KIND_MAP.
 * - NEGATIVE_LOAD: a load below 0;
 * - LOAD_SUM: the loads do not sum to the load;
 * - LIMIT: a load above its processor's limit;
 * - SEND_OVERLAP: a send starts before the previous one has ended (single port);
 * - SEND_DURATION: a send claimed to end before S + C x after its start;
 * - EARLY_COMPUTE: computing starts before the data has arrived;
 * - FINISH: a processor claimed to finish before its model allows;
 * - MAKESPAN: a makespan claimed below the one the schedule reaches;
 * - NOT_WHOLE: a partition giving a processor a fraction of an element;
 * - ROUND_ROBIN: a multi-installment claim whose processor gets another load than the
 *   round-robin of its chunks gives it;
 * - ELEMENT_MISSING: an element of the weighted set that no processor holds (processor -1;
 *   also, once, for a claim that does not say which elements each processor holds);
 * - ELEMENT_TWICE: an element held by a second processor (the one named; the text names
 *   the first);
 * - ELEMENT_UNKNOWN: an element placed on a processor beyond the n elements of the set;
 * - WEIGHT_SUM: a processor claimed to hold another weight than the sum of its elements';
 * - CHUNK: an ordered set whose processor's elements are not one contiguous chunk, or
 *   whose chunk comes before the chunk of a processor earlier in the platform's order
 *   (unless dls_verify_params.reorder allows any order). */
typedef enum dls_violation_kind {
#define DLS_VIOLATION_KIND_ENUM_(name, value, text) DLS_VIOLATION_##name = value,
    DLS_VIOLATION_KIND_MAP(DLS_VIOLATION_KIND_ENUM_)
#undef DLS_VIOLATION_KIND_ENUM_
} dls_violation_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_VIOLATION_NEGATIVE_LOAD
 *  Value 0, named "negative-load" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_LOAD_SUM
 *  Value 1, named "load-sum" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_LIMIT
 *  Value 2, named "limit" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_SEND_OVERLAP
 *  Value 3, named "send-overlap" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_SEND_DURATION
 *  Value 4, named "send-duration" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_EARLY_COMPUTE
 *  Value 5, named "early-compute" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_FINISH
 *  Value 6, named "finish" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_MAKESPAN
 *  Value 7, named "makespan" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_NOT_WHOLE
 *  Value 8, named "not-whole" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_ROUND_ROBIN
 *  Value 9, named "round-robin" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_ELEMENT_MISSING
 *  Value 10, named "element-missing" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_ELEMENT_TWICE
 *  Value 11, named "element-twice" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_ELEMENT_UNKNOWN
 *  Value 12, named "element-unknown" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_WEIGHT_SUM
 *  Value 13, named "weight-sum" (::DLS_VIOLATION_KIND_MAP). */
/** @var DLS_VIOLATION_CHUNK
 *  Value 14, named "chunk" (::DLS_VIOLATION_KIND_MAP). */

/** The text of a kind ("send-overlap"); "unknown" for other values. A static string; never
 *  freed. */
DLS_API const char *dls_violation_kind_name(dls_violation_kind kind);
/** The kind written @p name. @return ::DLS_OK; ::DLS_EINVAL for an unknown name. */
DLS_API dls_status dls_violation_kind_from_name(const char *name, dls_violation_kind *out);

/** One violation. */
typedef struct dls_violation {
    dls_violation_kind kind; /**< what is violated */
    long processor;   /**< index in the platform; -1 when it concerns no one processor */
    double expected;  /**< the bound the model sets (a limit, the earliest time, the load) */
    double found;     /**< what the claim says */
    double excess;    /**< by how much it is broken, >= 0, in the unit of the values */
    char text[DLS_ERROR_MESSAGE_MAX]; /**< a sentence naming the processor and the numbers */
    /** the element concerned (index in the weighted set, from 0); -1 when it concerns no
     *  one element */
    long long element;
} dls_violation;

/** Parameters of dls_schedule_verify() and dls_partition_verify(). */
typedef struct dls_verify_params {
    /** The load (elements for a partition) the schedule must distribute; NaN (default):
     *  the claim's total, else the sum of its loads. */
    double load;
    /** Relative tolerance of every comparison, in [::DLS_DOMAIN_MIN, 1e-3]; default
     *  ::DLS_REL_TOL. */
    double tolerance;
    int use_limits;           /**< 1 (default): loads within the limits; 0: ignore them */
    /** 1 (default): compute the optima the schedule is measured against; 0: check only. */
    int optimum;
    /** 1: certify the paper's LP optimum with GLPK's rational simplex (glp_exact);
     *  default 0. */
    int exact;
    /** The mode of the optima: send order and originator; defaults as
     *  dls_schedule_params_init() sets them. */
    dls_send_order order;
    int originator_computes; /**< as dls_schedule_params::originator_computes */
    /** For a partition: the n of an n x n matrix product whose rows were distributed (see
     *  dls_partition_solve_matrix()); 0 (default): equal elements. */
    uint64_t matrix;
    /** For a partition of weighted elements: the @ref n_weights weights, finite and > 0, in
     *  the models' size unit (element e weighs weights[e]); NULL (default): the claim's
     *  loads are taken as they are (for a weighted claim, the weight each processor holds,
     *  its elements unchecked, and no optimum). With weights, every element must be held
     *  once, each processor's claimed weight be the sum of its elements', its limit and
     *  times hold at that weight, and the optimum is dls_partition_solve() with these
     *  weights; @ref load must be NaN and @ref matrix 0. Not copied: must live until the
     *  call returns. */
    const double *weights;
    size_t n_weights; /**< number of weights, 1 .. ::DLS_PARTITION_MAX_ELEMENTS; 0 without */
    /** With weights: 1 when the set is ordered and each processor must hold one contiguous
     *  chunk, the chunks following the platform's order; 0 (default): any subsets. */
    int ordered;
    /** With ordered: 1 lets the chunks follow any processor order (as
     *  `partition --ordered --reorder` writes them); 0 (default): the platform's order. */
    int reorder;
    /** For a schedule: 1 also measures it against the best send order (and set of
     *  processors) of dls_schedule_solve() with ::DLS_ORDER_BEST, under that search's
     *  default bounds (exact up to ::DLS_ORDER_DEFAULT_EXACT_MAX processors, otherwise rules
     *  and a local search with a lower bound); the gap is then to the best of every optimum
     *  computed. 0 (default): the optima of the mode's order and of the claim's own order
     *  only (the exact search doubles its cost with each processor, up to seconds at 16). */
    int best_order;
    /** Seconds the optima may take, in (0, ::DLS_TIME_LIMIT_MAX]; 0 (what a reserved tail
     *  of earlier versions holds) and the default: ::DLS_VERIFY_DEFAULT_TIME_LIMIT. One
     *  deadline from the start of the optima: GLPK's simplex and exact simplex (@ref exact)
     *  and the best-order search (@ref best_order) get what is left of it. The checks of
     *  the claim take time linear in its processors (and elements) and the chain solver's
     *  work is bounded by its pieces, so the call ends in bounded time. When the limit
     *  stops the exact simplex, the verification still succeeds: the paper's optimum is
     *  the chain solver's, not certified (dls_verify_quality::exact_confirmed 0,
     *  dls_verify_quality::exact_stopped 1, and the note says so); the verdict on the claim
     *  does not depend on it. When it stops the best-order search, its best order found is
     *  kept, not proven. GLPK's exact simplex looks at the clock only between its
     *  iterations (its first rational factorization ran 131 s past a 30 s limit at 10^4
     *  processors), so it is run on at most 1000 processors, where it ends in seconds;
     *  past that the optimum is the chain's, and exact_stopped says so. (On LP64 the field follows 4 bytes of alignment.) */
    double time_limit;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(24);
} dls_verify_params;

/** Default of dls_verify_params::time_limit, in seconds: GLPK's default limit in
 *  dls_schedule_params::time_limit, so that `verify --exact` stops where
 *  `schedule --exact` does. */
#define DLS_VERIFY_DEFAULT_TIME_LIMIT 600

/** Fills @p params with the defaults. */
DLS_API void dls_verify_params_init(dls_verify_params *params);

/** The result of a verification (opaque); free with dls_verification_free(). */
typedef struct dls_verification dls_verification;

/**
 * Checks a star schedule claimed for @p platform (see the file comment), and when it is
 * valid and params->optimum is set, solves the same problem to measure it.
 * @param claim a claim of kind ::DLS_CLAIM_SCHEDULE for @p platform
 * @param params NULL for the defaults
 * @param[out] out receives the verification (valid or not); unchanged on failure
 * @return ::DLS_OK (also for an invalid schedule: see dls_verification_valid(); also when
 *         params->time_limit stopped the exact simplex: see dls_verify_quality::exact_stopped);
 *         ::DLS_EINVAL for bad arguments or parameters, a claim of another platform or kind,
 *         a processor with a 2-D model, or a load (params->load, else the claim's total, else
 *         the sum of its loads) that is not > 0 inside the input domain
 *         ([::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]); the statuses of dls_schedule_solve() when an
 *         optimum cannot be computed; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_verify(const dls_platform *platform, const dls_claim *claim,
                                       const dls_verify_params *params,
                                       dls_verification **out, dls_error *err);

/**
 * Checks a partition claimed for @p platform: whole elements, none negative, summing to
 * the number of elements, each processor within its limit, each claimed time not below
 * what the processor's model gives (t(x) = x / s(x), or x n^2 / s(n, x) for the rows of an
 * n x n product), and the claimed makespan. When valid and params->optimum is set, the
 * optimum is dls_partition_solve() (or dls_partition_solve_matrix()).
 *
 * With params->weights (a set of weighted elements), the claim's placement
 * (dls_claim_set_assignment() or dls_claim_set_chunks()) is checked element by element:
 * each element held exactly once, none beyond the set, for an ordered set one contiguous
 * chunk per processor in the platform's order (any order with params->reorder); each
 * processor's claimed weight against the sum of its elements' weights, its limit (in
 * weight) and its claimed time against t_i(W_i) at the weight W_i it really holds, and the
 * makespan. The optimum is dls_partition_solve() with the weights: for unordered sets a
 * heuristic with a proven lower bound, so dls_verify_quality.best is the best answer
 * found and dls_verify_quality.proven says whether it is proven optimal (the note gives
 * the lower bound when it is not).
 * @return as dls_schedule_verify(), for a claim of kind ::DLS_CLAIM_PARTITION;
 *         ::DLS_EINVAL for weights that are not finite and > 0 inside the input domain, or
 *         whose sum is outside it (the message names the element), weights with
 *         params->load or params->matrix, ordered without weights (reorder without
 *         ordered), or elements to distribute beyond ::DLS_PARTITION_MAX_ELEMENTS; the
 *         statuses of dls_partition_solve().
 */
DLS_API dls_status dls_partition_verify(const dls_platform *platform, const dls_claim *claim,
                                        const dls_verify_params *params,
                                        dls_verification **out, dls_error *err);

/**
 * Checks a multi-installment schedule claimed for @p platform (the model of
 * dlsched/installment.h: N = ceil(V / chunk) chunks, the last one the remainder, sent back
 * to back round-robin over the processors whose limit holds a chunk, in platform order,
 * each computed in arrival order): each processor's load against what the round-robin
 * gives it, chunks within the limits, each claimed finish and the makespan against the
 * model's. No optimum is known for this model: the quality gives the single-installment
 * optimum (best set of processors) for reference, and no gap.
 * @return as dls_schedule_verify(), for a claim of kind ::DLS_CLAIM_INSTALLMENTS with its
 *         chunk set; ::DLS_EINVAL (naming the chunk, the load and the count) for a chunk
 *         that divides the load into ::DLS_INSTALLMENT_MAX_CHUNKS (2^53) chunks or more,
 *         beyond which a chunk count is not exact in a double (the replay is a closed form,
 *         linear in the processors, whatever the count).
 */
DLS_API dls_status dls_installment_verify(const dls_platform *platform, const dls_claim *claim,
                                          const dls_verify_params *params,
                                          dls_verification **out, dls_error *err);

/** Frees a verification; NULL is allowed. */
DLS_API void dls_verification_free(dls_verification *v);

/** 1 when no violation was found, else 0. */
DLS_API int dls_verification_valid(const dls_verification *v);

/** Number of violations. */
DLS_API size_t dls_verification_count(const dls_verification *v);

/** Violation @p k (0 .. count-1), in the order found; NULL when out of range. Valid until @p v is
 *  freed. */
DLS_API const dls_violation *dls_verification_violation(const dls_verification *v, size_t k);

/** How the claim measures up, and what it is measured against. Makespans in seconds; NaN
 *  for what was not computed (params->optimum 0, an invalid schedule). */
typedef struct dls_verify_quality {
    double load;              /**< the load checked against */
    double makespan;          /**< the makespan the claimed schedule really reaches */
    double claimed_makespan;  /**< what the claim says; NaN when it says nothing */
    double paper_optimum;     /**< the paper's LP (every processor used, its startup paid) */
    double selection_optimum; /**< the best set of processors for the mode's send order */
    double own_order_optimum; /**< the best set for the claim's own send order */
    double best;              /**< the least of the optima computed */
    double gap;               /**< makespan - best, seconds */
    double gap_percent;       /**< 100 gap / best */
    /** 1 when best is proven optimal (all solvers exact); 0 when it is only the best found
     *  (a heuristic fallback, or speed models whose LP uses their convex envelope) */
    int proven;
    /** With params->exact: 1 when glp_exact confirmed the paper's optimum, else 0 */
    int exact_confirmed;
    /** With params->best_order: the makespan of the best send order and set of processors
     *  found (s), never above selection_optimum; NaN otherwise */
    double best_order_optimum;
    /** With params->best_order: a lower bound on the makespan of every send order (s),
     *  equal to best_order_optimum when best_order_proven; NaN otherwise */
    double order_lower_bound;
    /** With params->best_order: 1 when best_order_optimum is proven the best of all orders
     *  (exact search or a rule proven for the platform), else 0 */
    int best_order_proven;
    /** With params->exact: 1 when dls_verify_params::time_limit (or GLPK's iteration
     *  limit, or the exact simplex's size limit) stopped the exact simplex before it could
     *  prove the paper's optimum, or GLPK failed on the LP; the paper's optimum is then the
     *  chain solver's, not certified, and the note says why. Else 0. */
    int exact_stopped;
    /** Zero; room for later figures. */
    unsigned char reserved[60];
} dls_verify_quality;

/** Copies the figures into @p q. @return ::DLS_OK; ::DLS_EINVAL for NULL arguments. */
DLS_API dls_status dls_verification_get_quality(const dls_verification *v,
                                                dls_verify_quality *q);

/** With params->exact, the rational certificate of the paper's LP optimum (see
 *  dls_schedule_certificate()): the optimal makespan in seconds as an exact fraction "p/q"
 *  (or "p"), proven by a primal and a dual point checked in rational arithmetic.
 *  @return the text, owned by @p v and valid until it is freed; NULL when not asked, or
 *  when no certificate could be had (the note says why: dlsched built without GMP, a
 *  platform past its size limits). */
DLS_API const char *dls_verification_certificate(const dls_verification *v);

/** Notes on the verification ("" when none): times not given and taken from the model,
 *  a partition optimum that is a bound, and the like. Valid until @p v is freed. */
DLS_API const char *dls_verification_note(const dls_verification *v);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_VERIFY_H */
