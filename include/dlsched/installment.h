/**
 * @file dlsched/installment.h
 * @brief Multi-installment divisible-load processing on a star network (Drozdowski and Wolniewicz
 *        2003, sections 2 and 4): the chunk-size range and heuristic, the exact simulation of
 *        round-robin installments, a sweep for the best chunk size, and Gantt charts.
 *
 * The model. The originator holds V load units and sends them in chunks of delta units
 * (the last chunk is the remainder V - (N - 1) delta when delta does not divide V;
 * N = ceil(V / delta)), one send at a time and back to back, in rounds over the processors
 * in platform order: P1, P2, ..., Pp, P1, ... Sending x units to processor i takes
 * S_i + C_i x seconds (its link; {0, 0} when it has none). A processor computes the chunks
 * it receives in arrival order (chunks that arrive while it is busy wait in its buffer); a
 * chunk of x units takes t_i(x) seconds, its 1-D model's dls_model_time() (for time lines,
 * max_l (a_l + b_l x)). The makespan is when the last chunk finishes.
 *
 * Exactness at any chunk count. In a full round every chunk has size delta, so the k-th
 * processor of the rotation receives its chunk of round r at a_k + r R, with
 * R = sum_k (S_k + C_k delta) the round time, and finishes it at
 * a_k + t_k(delta) + r max(R, t_k(delta)) (by induction on
 * f_r = max(a_k + r R, f_{r-1}) + t_k(delta)). Only the last chunk breaks the pattern, and
 * it is handled explicitly. Simulating costs O(p) whatever the number of chunks
 * (2 x 10^10 chunks for V = 10^11 and delta = 5, as in the paper's Fig. 10), and any
 * chunk's times are available in O(1) (dls_installment_event_at()), so a Gantt chart needs
 * no stored events.
 *
 * Limits. A processor holds one chunk at a time while it computes it, so its `limit` (the
 * largest size it can take) must be at least the chunk size: processors whose limit is
 * below delta are left out of the rotation, with a note (with
 * ::dls_installment_params::use_limits = 0 limits are ignored). If no processor can hold a
 * chunk, the simulation fails with ::DLS_ERANGE.
 *
 * Chunk-size analysis (Drozdowski and Wolniewicz 2003, section 2). For each processor the analysis
 * needs its in-core time line A_i1 + A_i2 x (the line on top at small sizes), the slope A_i2^h of
 * the line that takes over at its first kink, and that kink, the swap point (see
 * dls_installment_memory_levels()). Time-line models give them directly; a constant speed s
 * is the single line 0 + x / s with no swap point. Other 1-D models (measured speed points)
 * have no memory levels to read: the analysis reports them as unsupported
 * (::DLS_INSTALLMENT_NO_LINES), although they can be simulated and swept like any model.
 * - Upper end of the range: the smallest swap point over the processors, or the smallest
 *   limit when that is smaller (a chunk must fit in every processor's core, else the
 *   processors with a smaller core compute every chunk out of core; the paper's printed
 *   "max_i swp_i" contradicts its own sentence that delta "cannot exceed the swap point of any
 *   processor", which is the minimum).
 * - Lower end: multi-installment sends m delta units per round of sum_i S_i + delta sum_i C_i
 *   seconds, and beats out-of-core processing at its asymptotic rate 1 / sum_i (1 / A_i2^h)
 *   seconds per unit when (sum S + delta sum C) / (m delta) < 1 / sum (1 / A_i2^h), that is
 *   delta > sum S / (m / sum_i (1 / A_i2^h) - sum C), defined when that denominator is positive.
 *   (The paper's printed general form drops the factor m; its uniform form
 *   m S / (A^h - m C) agrees with this one.)
 * - Heuristic chunk size: a processor should compute during a whole round,
 *   A_i1 + delta A_i2 >= sum_j (S_j + delta C_j), which for all processors gives
 *   delta = max_i (sum S - A_i1) / (A_i2 - sum C); for identical processors this is the paper's
 *   formula (5), delta = (m S - A_1) / (A_2 - m C). Following the paper, it is defined only
 *   when every numerator and every denominator is positive; otherwise the analysis says
 *   which processor and which sign fails.
 * Undefined values are reported in the result (::dls_installment_analysis), not as a failure
 * of the call.
 */
#ifndef DLSCHED_INSTALLMENT_H
#define DLSCHED_INSTALLMENT_H

#include <stdint.h>

#include <dlsched/common.h>
#include <dlsched/model.h>
#include <dlsched/platform.h>
#include <dlsched/schedule.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------- */
/* Parameters                                                                          */

/** The largest number of chunks a simulation accepts: 2^53, so that every chunk index and
 *  every round is exact in a double. */
#define DLS_INSTALLMENT_MAX_CHUNKS 9007199254740992ull

/** Parameters of the simulation and the sweep; fill with dls_installment_params_init(). */
typedef struct dls_installment_params {
    /** 1 (default): a processor takes chunks only when its limit is at least the chunk size;
     *  0: limits are ignored. */
    int use_limits;
    /** A remainder V - q delta smaller than snap_tol * delta joins the q-th chunk instead of
     *  making a chunk of its own (so that delta = V / n computed in floating point gives n
     *  chunks, not n + 1 with a last one of 10^-15 delta), unless the processor receiving it
     *  cannot hold the larger chunk. In [0, 1e-3]; default 1e-9. */
    double snap_tol;
    /** Sweep: the smallest chunk considered is V / max_chunks (fewer chunks than this are
     *  sent). In [1, ::DLS_INSTALLMENT_MAX_CHUNKS]; default 1e12. */
    double max_chunks;
    /** Sweep: points per decade of the log-spaced grid of chunk sizes, in [2, 1000];
     *  default 16. */
    unsigned grid_per_decade;
    /** Sweep: chunk sizes tried in each refinement pass around the best one so far, in
     *  [0, 100000]; default 48. */
    unsigned refine_points;
    /** Sweep: refinement passes, in [0, 100]; default 4. */
    unsigned refine_passes;
    /** Sweep: called after the grid and after each refinement pass with the part done; a
     *  non-zero return stops the sweep, which fails with ::DLS_ECANCELED. NULL (default):
     *  none. */
    dls_progress_fn progress;
    void *progress_data;      /**< passed to @ref progress */
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(72);
} dls_installment_params;

/** Fills @p params with the defaults. */
DLS_API void dls_installment_params_init(dls_installment_params *params);

/* ---------------------------------------------------------------------------------- */
/* Chunk-size analysis                                                                 */

/**
 * Why a value of the analysis is undefined: X(NAME, value, text).
 * - DEFINED: the value is defined;
 * - NUMERATOR (formula): a processor's numerator sum S - A_i1 is not positive (it needs
 *   longer to start a chunk than a whole round of startups lasts);
 * - DENOMINATOR (formula): a processor's denominator A_i2 - sum C is not positive (it
 *   computes a unit faster than a round sends one unit to every processor, so it idles
 *   whatever delta); (lower bound): m / sum (1 / A_i2^h) - sum C is not positive (the
 *   network alone is slower than out-of-core computing, so no chunk size wins in the long
 *   run);
 * - NO_LINES: a processor's model is neither time lines nor a constant speed.
 */
#define DLS_INSTALLMENT_REASON_MAP(X)   \
    X(DEFINED, 0, "defined")            \
    X(NUMERATOR, 1, "numerator")        \
    X(DENOMINATOR, 2, "denominator")    \
    X(NO_LINES, 3, "no lines")

/** Why a value of the analysis is undefined: see ::DLS_INSTALLMENT_REASON_MAP. */
typedef enum dls_installment_reason {
#define DLS_INSTALLMENT_REASON_ENUM_(name, value, text) DLS_INSTALLMENT_##name = value,
    DLS_INSTALLMENT_REASON_MAP(DLS_INSTALLMENT_REASON_ENUM_)
#undef DLS_INSTALLMENT_REASON_ENUM_
} dls_installment_reason;
/* The values, one by one (the list above makes them). */
/** @var DLS_INSTALLMENT_DEFINED
 *  Value 0, named "defined" (::DLS_INSTALLMENT_REASON_MAP). */
/** @var DLS_INSTALLMENT_NUMERATOR
 *  Value 1, named "numerator" (::DLS_INSTALLMENT_REASON_MAP). */
/** @var DLS_INSTALLMENT_DENOMINATOR
 *  Value 2, named "denominator" (::DLS_INSTALLMENT_REASON_MAP). */
/** @var DLS_INSTALLMENT_NO_LINES
 *  Value 3, named "no lines" (::DLS_INSTALLMENT_REASON_MAP). */

/** The name of @p reason: "defined", "numerator", "denominator" or "no lines"; "unknown"
 *  otherwise. A static string; never freed. */
DLS_API const char *dls_installment_reason_name(dls_installment_reason reason);

/** The reason whose dls_installment_reason_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_installment_reason_from_name(const char *name,
                                                    dls_installment_reason *out);

/** The memory levels of one processor as the analysis reads them. */
typedef struct dls_installment_levels {
    /** 1 for time lines and constant speeds; 0 for other 1-D models (the other fields are
     *  then NaN). */
    int supported;
    double in_core_a;     /**< A_i1: intercept of the line on top at small sizes (s) */
    double in_core_b;     /**< A_i2: its slope (s per unit) */
    /** A_i2^h: slope of the line that takes over at the swap point (s per unit); with more
     *  than two levels this is the second one (deeper levels are slower still, so the lower
     *  bound computed from it is the conservative one); equal to in_core_b when there is a
     *  single line. */
    double out_of_core_b;
    /** Where the second line takes over (units); INFINITY with a single line. */
    double swap_point;
    /** Zero: room for later fields (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(24);
} dls_installment_levels;

/**
 * Reads the memory levels of processor @p i of @p platform.
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK (also for unsupported models, with out->supported = 0); ::DLS_EINVAL for
 *         a NULL argument, an index out of range, or a 2-D model (naming the processor);
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_installment_memory_levels(const dls_platform *platform, size_t i,
                                                 dls_installment_levels *out, dls_error *err);

/** Capacity of the explanations in ::dls_installment_analysis, terminating NUL included:
 *  the one size of text the API has in caller-allocated records, that of an error
 *  message. */
#define DLS_INSTALLMENT_NOTE_MAX DLS_ERROR_MESSAGE_MAX

/** The chunk-size range and heuristic of a platform (every processor counts, m of them). */
typedef struct dls_installment_analysis {
    size_t processors;          /**< m */
    double sum_startup;         /**< sum_i S_i (s) */
    double sum_rate;            /**< sum_i C_i (s per unit) */
    /** sum_i 1 / A_i2^h: the processors' total out-of-core speed (units per s; INFINITY when
     *  a slope is 0); NaN when a model is unsupported. */
    double out_of_core_speed;

    /** ::DLS_INSTALLMENT_DEFINED, ::DLS_INSTALLMENT_DENOMINATOR or ::DLS_INSTALLMENT_NO_LINES */
    dls_installment_reason lower_reason;
    /** Chunks larger than this beat out-of-core processing in the long run (units;
     *  exclusive bound; 0 when every startup is 0); NaN when undefined. */
    double lower;
    /** The largest chunk that fits every processor's core: the smallest swap point, or the
     *  smallest limit when smaller (units); INFINITY when there is neither; NaN when a model
     *  is unsupported. */
    double upper;
    long upper_processor;       /**< the processor that sets @ref upper; -1 when none */
    int upper_is_limit;         /**< 1: @ref upper is that processor's limit, 0: its swap point */
    /** 1 when both ends are defined and lower >= upper (no chunk size is recommended). */
    int range_empty;

    dls_installment_reason formula_reason; /**< whether the heuristic is defined, and why not */
    /** The heuristic chunk size max_i (sum S - A_i1) / (A_i2 - sum C) (units); NaN when
     *  undefined. */
    double formula;
    /** The processor whose term is the largest (the one that sets the formula), or the first
     *  one that makes it undefined; -1 when none. */
    long formula_processor;
    /** When the formula is undefined for a sign: the offending numerator (s) or denominator
     *  (s per unit); NaN otherwise. */
    double formula_bad_value;
    /** 1 when the formula is defined, above the lower end (when that is defined) and not
     *  above the upper end; 0 otherwise. */
    int formula_in_range;

    /** Why the lower end is undefined, in a sentence naming the values ("" when defined). */
    char lower_note[DLS_INSTALLMENT_NOTE_MAX];
    /** Why the formula is undefined or outside the range, naming the processor and the value
     *  ("" when it is defined and in range). */
    char formula_note[DLS_INSTALLMENT_NOTE_MAX];
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[128];
} dls_installment_analysis;

/**
 * The chunk-size range and the heuristic chunk size of @p platform (see the file comment).
 * @param params NULL for the defaults (use_limits applies: limits can set the upper end)
 * @param[out] out receives the analysis; unchanged on failure
 * @return ::DLS_OK, also when values are undefined (see the reasons in @p out);
 *         ::DLS_EINVAL for a NULL argument, an empty platform, bad parameters or a 2-D
 *         model (naming the processor); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_installment_analyze(const dls_platform *platform,
                                           const dls_installment_params *params,
                                           dls_installment_analysis *out, dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Simulation                                                                          */

/**
 * A multi-installment schedule (opaque): the result of dls_installment_simulate(),
 * dls_installment_sweep() or dls_installment_solve_lp(). Free with dls_installment_free().
 *
 * One object for the three computations, and every getter below answers for each of them.
 * The figures that only some computations have are read through records, by getters that
 * fail with ::DLS_EINVAL (naming the computation and where to look instead) for the others:
 * - dls_installment_get_rounds_info(): equal chunks sent round after round (simulate, sweep):
 *   the chunk size delta, the round time, the rotation, the chunk time and memory level of
 *   each processor at delta;
 * - dls_installment_get_sweep_info(): the chunk sizes a sweep tried, with their makespans;
 * - dls_installment_get_lp_info(): how dls_installment_solve_lp() found its chunks, and the
 *   deepest memory level each processor's chunks reach.
 * Arrays returned belong to the schedule and stay valid until dls_installment_free().
 */
typedef struct dls_installment dls_installment;

/**
 * Simulates round-robin multi-installment processing of @p load units in chunks of
 * @p chunk units, exactly, in O(p) time whatever the number of chunks.
 * @param load V, finite and > 0
 * @param chunk delta, finite and > 0; delta >= V sends the whole load as one chunk
 * @param params NULL for the defaults
 * @param[out] out receives the schedule; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, a bad load, chunk or parameter, an
 *         empty platform, or a processor with a 2-D model (naming it); ::DLS_ERANGE when
 *         no processor's limit holds a chunk (naming the largest limit) or when V / delta
 *         exceeds ::DLS_INSTALLMENT_MAX_CHUNKS; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_installment_simulate(const dls_platform *platform, double load,
                                            double chunk, const dls_installment_params *params,
                                            dls_installment **out, dls_error *err);

/**
 * Searches the chunk size with the smallest makespan, by exact simulation of every
 * candidate: a log-spaced grid (params->grid_per_decade per decade) from V / max_chunks to
 * the largest useful chunk (V, or the largest limit), the chunk sizes that cut V into
 * whole rounds next to each grid point (delta = V / (p r)), the ends of the range and the
 * heuristic when defined; then params->refine_passes passes of params->refine_points sizes
 * between the neighbours of the best one so far (log-spaced, plus the whole-round sizes
 * there). Ties go to the larger chunk (fewer messages). Deterministic. The result is the
 * simulation at the best chunk size, with the makespans of every size tried
 * (dls_installment_get_sweep_info()).
 * @param load V, finite and > 0
 * @return as dls_installment_simulate(); ::DLS_ERANGE when the largest limit is so small
 *         that every chunk size it admits makes more than ::DLS_INSTALLMENT_MAX_CHUNKS chunks;
 *         ::DLS_ECANCELED when params->progress asked to stop.
 */
DLS_API dls_status dls_installment_sweep(const dls_platform *platform, double load,
                                         const dls_installment_params *params,
                                         dls_installment **out, dls_error *err);

/** Frees a schedule; NULL is allowed. */
DLS_API void dls_installment_free(dls_installment *schedule);

/** Warnings, one per line (processors left out for their limit, processors that get no
 *  chunk); "" when there is nothing to say. Valid until @p schedule is freed. */
DLS_API const char *dls_installment_note(const dls_installment *schedule);

/** Number of processors (the platform's). */
DLS_API size_t dls_installment_count(const dls_installment *schedule);

/** The load V. */
DLS_API double dls_installment_load(const dls_installment *schedule);

/** @deprecated The chunk size delta, NaN for dls_installment_solve_lp(): read
 *  dls_installment_rounds_info::chunk through dls_installment_get_rounds_info(). Kept for
 *  one release. */
DLS_API double dls_installment_chunk(const dls_installment *schedule)
    DLS_DEPRECATED("use dls_installment_get_rounds_info");

/** Size of the last chunk sent. With equal chunks: V - (N - 1) delta, in (0, delta], or
 *  slightly above delta when a remainder below params->snap_tol delta was joined to it; V
 *  when there is one chunk. */
DLS_API double dls_installment_last_chunk(const dls_installment *schedule);

/** Number of chunks N. */
DLS_API uint64_t dls_installment_chunks(const dls_installment *schedule);

/** Number of rounds: the most chunks any one processor receives. With equal chunks sent
 *  round after round this is ceil(N / p), p the rotation (the last round may be
 *  partial). */
DLS_API uint64_t dls_installment_rounds(const dls_installment *schedule);

/** @deprecated The rotation p; for dls_installment_solve_lp() the processors given a chunk:
 *  read dls_installment_rounds_info::rotation through dls_installment_get_rounds_info().
 *  Kept for one release. */
DLS_API size_t dls_installment_rotation(const dls_installment *schedule)
    DLS_DEPRECATED("use dls_installment_get_rounds_info");

/** @deprecated The round time, NaN for dls_installment_solve_lp(): read
 *  dls_installment_rounds_info::round_time through dls_installment_get_rounds_info().
 *  Kept for one release. */
DLS_API double dls_installment_round_time(const dls_installment *schedule)
    DLS_DEPRECATED("use dls_installment_get_rounds_info");

/** The makespan: when the last chunk finishes (s). */
DLS_API double dls_installment_makespan(const dls_installment *schedule);

/** What a processor does in the schedule: X(NAME, value, text). */
#define DLS_INSTALLMENT_ROLE_MAP(X)                                                   \
    X(WORKS, 0, "works")            /* receives at least one chunk */                  \
    X(NO_CHUNK, 1, "no chunk")      /* in the rotation, but the load ends before its turn */ \
    X(OVER_LIMIT, 2, "left out")    /* left out: its limit is below the chunk size */

/** What a processor does in the schedule: see ::DLS_INSTALLMENT_ROLE_MAP. */
typedef enum dls_installment_role {
#define DLS_INSTALLMENT_ROLE_ENUM_(name, value, text) DLS_INSTALLMENT_##name = value,
    DLS_INSTALLMENT_ROLE_MAP(DLS_INSTALLMENT_ROLE_ENUM_)
#undef DLS_INSTALLMENT_ROLE_ENUM_
} dls_installment_role;
/* The values, one by one (the list above makes them). */
/** @var DLS_INSTALLMENT_WORKS
 *  Receives at least one chunk. Value 0, named "works" (::DLS_INSTALLMENT_ROLE_MAP). */
/** @var DLS_INSTALLMENT_NO_CHUNK
 *  In the rotation, but the load ends before its turn. Value 1, named "no chunk"
 *  (::DLS_INSTALLMENT_ROLE_MAP). */
/** @var DLS_INSTALLMENT_OVER_LIMIT
 *  Left out: its limit is below the chunk size. Value 2, named "left out"
 *  (::DLS_INSTALLMENT_ROLE_MAP). */

/** The name of @p role: "works", "no chunk" or "left out"; "unknown" otherwise. A static
 *  string; never freed. */
DLS_API const char *dls_installment_role_name(dls_installment_role role);

/** The role whose dls_installment_role_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_installment_role_from_name(const char *name, dls_installment_role *out);

/** Per processor, in platform order (arrays of dls_installment_count() values, each valid
 *  until @p schedule is freed): its role... */
DLS_API const dls_installment_role *dls_installment_roles(const dls_installment *schedule);
/** ...the number of chunks it receives (valid until @p schedule is freed)... */
DLS_API const uint64_t *dls_installment_chunk_counts(const dls_installment *schedule);
/** ...its load (units; valid until @p schedule is freed)... */
DLS_API const double *dls_installment_loads(const dls_installment *schedule);
/** ...when its first chunk has arrived (s; NaN when it gets none; valid until @p schedule
 *  is freed)... */
DLS_API const double *dls_installment_first_arrival(const dls_installment *schedule);
/** ...when it finishes its last chunk (s; NaN when it gets none; valid until @p schedule
 *  is freed)... */
DLS_API const double *dls_installment_finish(const dls_installment *schedule);
/** ...the time it computes, the sum of its chunks' times (s; valid until @p schedule is
 *  freed)... */
DLS_API const double *dls_installment_busy(const dls_installment *schedule);
/** ...and the time it waits for data between its first arrival and its finish,
 *  finish - first arrival - busy (s; 0 when it gets nothing; valid until @p schedule is
 *  freed). (The chunk time and memory
 *  level at delta are in ::dls_installment_rounds_info, the deepest level of an LP's
 *  chunks in ::dls_installment_lp_info.) */
DLS_API const double *dls_installment_wait(const dls_installment *schedule);
/** @deprecated Per processor t_i(delta), all NaN for dls_installment_solve_lp(): read
 *  dls_installment_rounds_info::chunk_time through dls_installment_get_rounds_info().
 *  Kept for one release. Valid until @p schedule is freed. */
DLS_API const double *dls_installment_chunk_time(const dls_installment *schedule)
    DLS_DEPRECATED("use dls_installment_get_rounds_info");
/** @deprecated Per processor the memory level at delta, or for dls_installment_solve_lp()
 *  the deepest its chunks reach: read dls_installment_rounds_info::levels through
 *  dls_installment_get_rounds_info(), or dls_installment_lp_info::deepest_levels through
 *  dls_installment_get_lp_info(). Kept for one release. Valid until @p schedule is freed. */
DLS_API const int *dls_installment_binding_levels(const dls_installment *schedule)
    DLS_DEPRECATED("use dls_installment_get_rounds_info or dls_installment_get_lp_info");

/** The figures of equal chunks sent round after round: dls_installment_simulate() and
 *  dls_installment_sweep() (read with dls_installment_get_rounds_info()). */
typedef struct dls_installment_rounds_info {
    /** The chunk size delta as given (for a sweep, the best one). */
    double chunk;
    /** The time of a full round of sends, R = sum over the rotation of S_k + C_k delta (s);
     *  with delta >= V, the chunk is V instead of delta here and in @ref chunk_time. */
    double round_time;
    /** Number of processors in the rotation, p (those whose limit holds a chunk; those the
     *  load ends before are in it, with role ::DLS_INSTALLMENT_NO_CHUNK). */
    size_t rotation;
    /** Per processor, in platform order (dls_installment_count() values, belonging to the
     *  schedule): the time of one chunk of delta units, t_i(delta) (s; NaN when left
     *  out). */
    const double *chunk_time;
    /** Per processor (as @ref chunk_time): the memory level of a chunk of delta units, the
     *  1-based index of the time line on top at delta, 0 for other models. */
    const int *levels;
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[64];
} dls_installment_rounds_info;

/**
 * The figures of a schedule of equal chunks, from dls_installment_simulate() or
 * dls_installment_sweep().
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a schedule from
 *         dls_installment_solve_lp() (whose chunks differ: see dls_installment_event_at()
 *         and dls_installment_get_lp_info()).
 */
DLS_API dls_status dls_installment_get_rounds_info(const dls_installment *schedule,
                                              dls_installment_rounds_info *out, dls_error *err);

/** One chunk of a schedule. */
typedef struct dls_installment_event {
    uint64_t chunk;        /**< 0-based index in send order */
    uint64_t round;        /**< 0-based round */
    size_t processor;      /**< platform index of the processor that receives it */
    double size;           /**< units */
    double send_start;     /**< the originator starts sending it (s) */
    double send_end;       /**< it has arrived (s) */
    double compute_start;  /**< the processor starts computing it (s) */
    double compute_end;    /**< and finishes it (s) */
    /** Zero: room for later fields (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(32);
} dls_installment_event;

/**
 * The times of chunk @p index (0-based, in send order), computed in O(1).
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or @p index >= dls_installment_chunks().
 */
DLS_API dls_status dls_installment_event_at(const dls_installment *schedule, uint64_t index,
                                            dls_installment_event *out, dls_error *err);

/** The chunk sizes dls_installment_sweep() tried (read with
 *  dls_installment_get_sweep_info()). */
typedef struct dls_installment_sweep_info {
    size_t samples;           /**< how many sizes were tried */
    /** The sizes, in increasing order (@ref samples values, belonging to the schedule). */
    const double *chunk;
    /** Their makespans (s; INFINITY where no processor could hold the chunk), as
     *  @ref chunk. */
    const double *makespan;
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[64];
} dls_installment_sweep_info;

/**
 * The chunk sizes a schedule from dls_installment_sweep() tried, with their makespans.
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a schedule from
 *         dls_installment_simulate() or dls_installment_solve_lp(), which try one sequence
 *         of chunks (dls_installment_get_lp_info() says how the LP's was found).
 */
DLS_API dls_status dls_installment_get_sweep_info(const dls_installment *schedule,
                                             dls_installment_sweep_info *out, dls_error *err);

/** @deprecated The sizes a sweep tried, *n = 0 for the other computations: read
 *  ::dls_installment_sweep_info through dls_installment_get_sweep_info(). Outputs may be NULL.
 *  Kept for one release. */
DLS_API void dls_installment_sweep_samples(const dls_installment *schedule, size_t *n,
                                           const double **chunk, const double **makespan)
    DLS_DEPRECATED("use dls_installment_get_sweep_info");

/* ---------------------------------------------------------------------------------- */
/* Installments sized by an LP over a searched sequence                                */

/** The order results return in: X(NAME, value, text). */
#define DLS_RETURN_ORDER_MAP(X) \
    X(FIFO, 0, "fifo")          \
    X(LIFO, 1, "lifo")          \
    X(GIVEN, 2, "given")

/** The order results return in: see ::DLS_RETURN_ORDER_MAP. */
typedef enum dls_return_order {
#define DLS_RETURN_ORDER_ENUM_(name, value, text) DLS_RETURN_##name = value,
    DLS_RETURN_ORDER_MAP(DLS_RETURN_ORDER_ENUM_)
#undef DLS_RETURN_ORDER_ENUM_
} dls_return_order;
/* The values, one by one (the list above makes them). */
/** @var DLS_RETURN_FIFO
 *  The results come back in the order the chunks were sent. Value 0, named "fifo"
 *  (::DLS_RETURN_ORDER_MAP). */
/** @var DLS_RETURN_LIFO
 *  The last chunk sent comes back first. Value 1, named "lifo" (::DLS_RETURN_ORDER_MAP). */
/** @var DLS_RETURN_GIVEN
 *  In the order of dls_installment_lp_params::return_sequence. Value 2, named "given"
 *  (::DLS_RETURN_ORDER_MAP). */

/** The name of @p order: "fifo", "lifo" or "given"; "unknown" otherwise. A static string;
 *  never freed. */
DLS_API const char *dls_return_order_name(dls_return_order order);

/** The order whose dls_return_order_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_return_order_from_name(const char *name, dls_return_order *out);

/**
 * Parameters of dls_installment_solve_lp(); fill with dls_installment_lp_params_init().
 *
 * The model (issue 25). The originator sends a sequence of chunks, one send at a time; a
 * processor may appear several times. Chunk k of processor i, of size x_k, takes
 * S_i + C_i x_k to send; its computation starts at the later of its arrival, the end of
 * processor i's previous chunk and processor i's release time, and lasts t_i(x_k), the top
 * of i's time lines at x_k (each chunk in or out of core on its own; speed models through
 * their convex envelope, replayed with their true times). A processor with a limit holds at
 * most `window` chunks at once, together at most its limit: a chunk is sent to it only
 * once the chunk `window` back has been computed. Every chunk of the sequence is sent and
 * computed (a chunk of size 0 still costs its startup and intercept), so the search removes
 * empty chunks. For a given sequence the LP gives the sizes with the smallest makespan; the
 * answer is the replay of those sizes (earliest starts), which must agree with the LP.
 */
typedef struct dls_installment_lp_params {
    /** 1 (default): limits hold (see @ref window); 0: ignored. */
    int use_limits;
    /** Chunks a processor with a limit may hold at once (the one it computes and those
     *  received after it), in [1, ::DLS_INSTALLMENT_MAX_WINDOW]; default 2 (double
     *  buffering). Processors without a limit hold any number. */
    unsigned window;
    /** The sequence searched: 0 (default) round-robin over the base order for 1, 2, ...
     *  rounds while a round helps (two rounds in a row that do not end the search), then the
     *  local moves; K > 0: round-robin for exactly 1 .. K rounds, then the moves. */
    unsigned rounds;
    /** 1 (default): after the round-robin, local moves on the best sequence (remove a chunk,
     *  swap two neighbours, insert a chunk of a processor earlier), each priced by the LP,
     *  while one improves; 0: none. */
    int moves;
    /** The base order of the round-robin: the order of the best single-installment
     *  schedule by the chain solver with this send order (processors it gives nothing are
     *  left out); default ::DLS_ORDER_BEST (not ::DLS_ORDER_SEQUENCE). */
    dls_send_order order;
    /** A sequence to size instead of searching: platform indices in send order, a
     *  processor may repeat (array of @ref sequence_length values, read during the call);
     *  NULL (default): search. */
    const size_t *sequence;
    size_t sequence_length;   /**< length of @ref sequence, in [1, @ref max_chunks] */
    /** Per processor, in platform order, the earliest time it may start computing (s,
     *  finite, >= 0; array of dls_platform_count() values, read during the call); NULL
     *  (default): every processor is free at 0. */
    const double *release;
    /** Results returned to the originator, per processor in platform order (arrays of
     *  dls_platform_count() values, all three or none, read during the call): the
     *  fraction of a chunk's units that comes back as results (>= 0; 0: nothing returns,
     *  no message), the return's startup (s, >= 0) and its rate (s per result unit,
     *  >= 0): the results of a chunk of x units take return_startup + return_rate *
     *  return_fraction * x to come back, after the chunk is computed, one return at a
     *  time, in @ref return_order. The makespan is then when the last result is back.
     *  NULL (default): no results return. */
    const double *return_fraction;
    const double *return_startup;  /**< see @ref return_fraction */
    const double *return_rate;     /**< see @ref return_fraction */
    /** The order the results come back in: ::DLS_RETURN_FIFO (default: the order the
     *  chunks were sent), ::DLS_RETURN_LIFO (the last chunk sent comes back first) or
     *  ::DLS_RETURN_GIVEN (@ref return_sequence; a given @ref sequence only). */
    dls_return_order return_order;
    /** ::DLS_RETURN_GIVEN: the chunks (0-based indices in @ref sequence) in the order their
     *  results come back, each once (array of sequence_length values, read during the
     *  call; chunks whose processor returns nothing are skipped); NULL otherwise. */
    const size_t *return_sequence;
    /** 0 (default): one port, the originator receives results only after its last send;
     *  1: two ports, returns overlap the sends. */
    int two_port;
    /** The longest sequence tried, in [1, ::DLS_INSTALLMENT_LP_MAX_CHUNKS]; default 4096. */
    size_t max_chunks;
    /** LPs solved at most by the search (for results that do not depend on the machine's
     *  speed); 0 (default): no limit but the time. */
    unsigned max_lps;
    /** The search first prices every sequence of 1 .. L chunks over all the processors, L
     *  the longest for which they number at most this many (3 processors: L = 6 for the
     *  default 2048); when L reaches @ref max_chunks the answer is the best of every
     *  sequence that long (dls_installment_lp_info::exact). 0: none. At most 10^7. */
    size_t exhaustive_max;
    /** Seconds for the whole call (the single-installment start, its order search and the
     *  LPs), in (0, ::DLS_TIME_LIMIT_MAX]; default 1. The search that reaches it keeps the
     *  best sequence found and says so in the note; when no LP ended within it, the answer
     *  is the single-installment start (one chunk a processor), said in the note, and with
     *  a given sequence the call fails with ::DLS_ELIMIT. */
    double time_limit;
    /** Relative tolerance between the LP's makespan and the replay's; in (0, 1e-3];
     *  default 1e-6 (the LP's answer is polished with tolerances of 1e-10 on scaled values,
     *  and a chain of thousands of sends adds them up). */
    double check_tol;
    int verbose;              /**< 1: GLPK prints its progress on standard output */
    dls_progress_fn progress; /**< called from GLPK's simplex runs; non-zero stops */
    void *progress_data;      /**< passed to @ref progress */
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(64);
} dls_installment_lp_params;

/** The largest dls_installment_lp_params::window. */
#define DLS_INSTALLMENT_MAX_WINDOW 64
/** The largest dls_installment_lp_params::max_chunks (the LP has some 6 rows a chunk). */
#define DLS_INSTALLMENT_LP_MAX_CHUNKS 100000

/** Fills @p params with the defaults. */
DLS_API void dls_installment_lp_params_init(dls_installment_lp_params *params);

/**
 * Multi-installment processing of @p load units with every chunk sized by an LP, over a
 * sequence searched from round-robin in the best single-installment order (or the one
 * given in params->sequence); see ::dls_installment_lp_params for the model. The result is
 * a schedule like dls_installment_simulate()'s, with its chunks listed one by one
 * (dls_installment_event_at()); dls_installment_get_rounds_info() refuses it (its chunks
 * differ), and dls_installment_get_lp_info() says how it was found. With the search, the
 * answer is never worse than the single-installment schedule it starts from.
 * @param load V, finite and > 0
 * @param params NULL for the defaults
 * @param[out] out receives the schedule; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, a bad load or parameter (naming it),
 *         an empty platform, a 2-D model, or a sequence naming a processor that does not
 *         exist; ::DLS_ERANGE when the sequence given cannot hold the load within the
 *         limits; ::DLS_ELIMIT when the LP of a given sequence did not end within the time
 *         limit, or the single-installment start did not; ::DLS_ESOLVER when
 *         GLPK failed; ::DLS_ECANCELED when params->progress asked to stop;
 *         ::DLS_ENOMEM. Where the replay of the chunks departs from the LP's makespan by
 *         more than check_tol, the times given are the replay's (the direct computation)
 *         and the note says by how much (dls_installment_lp_info::replay_residual).
 */
DLS_API dls_status dls_installment_solve_lp(const dls_platform *platform, double load,
                                            const dls_installment_lp_params *params,
                                            dls_installment **out, dls_error *err);

/** @deprecated The old name of dls_installment_solve_lp(), kept for one release. */
DLS_API dls_status dls_installment_lp(const dls_platform *platform, double load,
                                      const dls_installment_lp_params *params,
                                      dls_installment **out, dls_error *err)
    DLS_DEPRECATED("use dls_installment_solve_lp");

/**
 * When the results of chunk @p index (0-based, in send order) start and end coming back
 * (s); both NaN when nothing returns: no return parameters or a fraction of 0 in
 * dls_installment_solve_lp(), and always for dls_installment_simulate() and
 * dls_installment_sweep(), whose model returns no results. Outputs may be NULL.
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL schedule or an index out of range.
 */
DLS_API dls_status dls_installment_return_at(const dls_installment *schedule, uint64_t index,
                                             double *start, double *end, dls_error *err);

/** How dls_installment_solve_lp() found its schedule. */
typedef struct dls_installment_lp_info {
    double lp_makespan;       /**< the LP's makespan (s) */
    /** |replayed makespan - LP's| / LP's: the replay's agreement (with speed models, the
     *  gap between their envelope and their true times) */
    double replay_residual;
    /** The single-installment schedule the search started from (s); INFINITY when the
     *  limits cannot hold the load in one installment; NaN for a given sequence. */
    double single_makespan;
    /** A lower bound on every multi-installment schedule of the platform (s): each
     *  processor computes its load at the slope of its fastest line with a non-negative
     *  intercept after its first startup (and its release time), and the link carries
     *  every unit after the least startup, or, where stronger, every unit of processor i
     *  at C_i + S_i / cap_i (its startup spread over the most it can compute by then:
     *  each processor given load is sent at least one chunk). */
    double lower_bound;
    double gap;               /**< (makespan - lower_bound) / makespan */
    unsigned lps;             /**< LPs solved */
    unsigned warm_starts;     /**< of them, solved from the basis of the best before */
    /** Every sequence of 1 .. this many chunks was priced (0: none) */
    size_t exhaustive_length;
    /** 1: that covered every sequence of up to dls_installment_lp_params::max_chunks
     *  chunks, so the answer is the best of them all */
    int exact;
    unsigned rounds_tried;    /**< round-robin rounds priced */
    unsigned best_rounds;     /**< the best of them */
    /** Relative gain of the local moves over the best round-robin (0: none). */
    double moves_gain;
    unsigned long iterations; /**< simplex iterations, all LPs together */
    int limited;              /**< 1: the time or LP limit ended the search */
    double seconds;           /**< wall time of the call */
    /** Per processor, in platform order (dls_installment_count() values, belonging to the
     *  schedule): the deepest memory level its chunks reach, the 1-based index of the time
     *  line on top at a chunk's size (0 for other models or no chunk). */
    const int *deepest_levels;
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[64 - sizeof(const int *)];
} dls_installment_lp_info;

/**
 * The figures of a schedule from dls_installment_solve_lp().
 * @param[out] out receives them; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a schedule that did not come from
 *         dls_installment_solve_lp().
 */
DLS_API dls_status dls_installment_get_lp_info(const dls_installment *schedule,
                                               dls_installment_lp_info *out, dls_error *err);

/**
 * Writes the LP that sizes the chunks of params->sequence (required) for @p load units, in
 * original units (loads in units, times in seconds) with named rows and columns, to
 * @p path: CPLEX LP, free MPS and GLPK's format by GLPK's writers, or a MathProg model
 * (every constraint written out). Its optimum is the LP makespan of dls_installment_solve_lp()
 * with the same parameters. Columns x_k (size of chunk k), A_k (its arrival), F_k (its
 * finish) and T; rows send_k, hold_k, arrive_k_l, after_k_l, release_k_l, window_k,
 * makespan_i and load (see ::dls_installment_lp_params). Numbers in the C locale. The file
 * is replaced as dls_schedule_lp_write_file() replaces it.
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, bad parameters, no sequence or an
 *         unknown format; ::DLS_EIO when the destination cannot be written; ::DLS_EWRITE
 *         when the data could not be written to it; ::DLS_ESOLVER; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_installment_lp_write_file(const dls_platform *platform, double load,
                                                 const dls_installment_lp_params *params,
                                                 dls_export_format format, const char *path,
                                                 dls_error *err);

/**
 * The same LP as dls_installment_lp_write_file(), returned as text.
 * @param[out] out receives the text (NUL-terminated), to release with dls_free()
 * @return as dls_installment_lp_write_file(), with ::DLS_EIO for the scratch file GLPK's
 *         writers need (in $TMPDIR).
 */
DLS_API dls_status dls_installment_lp_to_string(const dls_platform *platform, double load,
                                                const dls_installment_lp_params *params,
                                                dls_export_format format, char **out,
                                                dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Gantt charts                                                                        */

/** Parameters of dls_installment_gantt_to_string(); fill with dls_installment_gantt_params_init(). */
typedef struct dls_installment_gantt_params {
    /** When the schedule has more than 2 * rounds rounds, only the first and the last
     *  `rounds` are drawn, on a time axis broken in between; in [1, 1000]; default 3. */
    unsigned rounds;
    /** Title of the picture; NULL for one giving the load, the chunk size and the makespan. */
    const char *title;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(48);
} dls_installment_gantt_params;

/** Fills @p params with the defaults. */
DLS_API void dls_installment_gantt_params_init(dls_installment_gantt_params *params);

/**
 * Draws @p schedule as an SVG Gantt chart in the style of dls_schedule_gantt_to_string(): the
 * originator's sends on the first lane, then one lane per processor in platform order with
 * each chunk as a bar (coloured by its memory level), the data in transit under it, and a
 * time axis in seconds. Long schedules are drawn as their first and last rounds on either
 * side of a break that says how many rounds and seconds are left out; a processor busy with
 * chunks from the left-out rounds shows it as a hatched bar. Each processor's load, share
 * and number of chunks are written on its lane after its last chunk, and a table under the
 * chart lists them with its finish.
 * @param platform the platform simulated (for the names)
 * @param params NULL for the defaults
 * @param[out] svg receives the document, to release with dls_free(); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, bad parameters, or a platform with a
 *         different number of processors; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_installment_gantt_to_string(const dls_installment *schedule,
                                                   const dls_platform *platform,
                                                   const dls_installment_gantt_params *params,
                                                   char **svg, dls_error *err);

/**
 * Draws @p schedule as dls_installment_gantt_to_string() does and writes it to @p path. A regular file (or a new path) is replaced atomically: a temporary file
 * in the same directory, synced and renamed, so that @p path is either its old self or the
 * whole new file; the mode of the file replaced is kept, a new file gets 0666 less the
 * umask. A symbolic link is followed and its target replaced. A character device, FIFO or
 * socket is written to as a stream. A directory or block device is refused.
 * @return as dls_installment_gantt_to_string(), and ::DLS_EIO when the destination cannot be written,
 *         ::DLS_EWRITE when the data could not be written to it (a full device), both
 *         naming the path and the reason.
 */
DLS_API dls_status dls_installment_gantt_write_file(const dls_installment *schedule,
                                                    const dls_platform *platform,
                                                    const dls_installment_gantt_params *params,
                                                    const char *path, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_INSTALLMENT_H */
