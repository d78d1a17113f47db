/**
 * @file dlsched/schedule.h
 * @brief Divisible-load scheduling on a star network (Drozdowski and Wolniewicz 2003): the exact
 *        chain solver and the linear program solved with GLPK, the makespan as a function of the
 *        load, and the exact evaluation of any distribution.
 *
 * The model. An originator holds a load of V units and sends each processor its share
 * alpha_i in turn, one send at a time, in a fixed sequence; sending alpha units to processor
 * i takes S_i + C_i alpha seconds (its link). Processor i starts computing when its data has
 * arrived and takes t_i(alpha) seconds, the largest of its time lines a_l + b_l alpha (one per
 * memory level). Sum alpha_i = V and alpha_i <= limit_i. The schedule minimises the makespan,
 * the time the last processor finishes.
 *
 * Processors given by speed models enter through the convex envelope of their time function
 * (dls_model_convex_envelope() on (0, min(limit, V)]); when that function is not convex the
 * schedule says how far the envelope departs from it, and the makespan the true models give.
 *
 * Two solvers (dls_schedule_params::solver). The chain solver (default) solves the problem
 * as a chain of value functions: f_i(W), the most load processors i.. of the sequence can
 * finish in W seconds, from the last processor back to the first. It is exact (to
 * rounding), needs no LP solver and ends in bounded time. GLPK solves the paper's LP with
 * the simplex method; it remains for glp_exact certification, the exports and the MIPs.
 *
 * Processor selection. The paper's LP charges every processor its startup S_i and its
 * smallest compute time, even one that gets no load (dls_schedule_params::drop_unused = 0).
 * By default a processor sent nothing costs nothing. The chain solver then finds the best
 * set of processors for the send order exactly (the chain with "use it or not" at every
 * stage), within a bound on its work (dls_schedule_params::max_pieces) past which it says
 * the set is not proven best and gives a lower bound. GLPK instead drops the processors the
 * LP gives nothing and solves again until every one left gets a share (a heuristic). The
 * makespan of the paper's LP is kept (dls_schedule_paper_makespan()).
 *
 * Magnitudes. The chain computes in a load unit near V and a time unit near a typical
 * makespan, both powers of two. In those units a startup, an intercept, or the time a rate
 * or slope gives the whole load, above 2^500 (about 3e150) is rejected with ::DLS_ERANGE,
 * naming the processor and the value: no double-precision method can add it to the other
 * processors' times. A rate or slope whose time for the whole load is below 2^-500 of the
 * typical time is taken as 0 (dls_schedule_solver_info::flushed counts them).
 *
 * GLPK is embedded safely: its terminal output is off (unless verbose is asked for) and
 * restored afterwards, its internal errors are caught by its error hook instead of aborting
 * the process (the call then fails with ::DLS_ESOLVER; GLPK requires freeing its whole
 * environment in that case, which also destroys any GLPK object the calling thread owns), and
 * every problem object is deleted before the call returns. The answer is checked: loads sum
 * to V, bounds hold, and the makespan recomputed by replaying the loads equals the LP's within
 * the tolerance, or the call fails with ::DLS_ENUMERIC instead of returning a wrong schedule.
 *
 * Limits. Every call ends in bounded time: GLPK gets at most dls_schedule_params::time_limit
 * seconds and dls_schedule_params::iteration_limit simplex iterations for all its runs of one
 * call together (the first solve, the re-solves after dropping processors, repairs,
 * glp_exact), and the MIPs dls_mip_params::time_limit seconds. Running out is reported with
 * ::DLS_ELIMIT ("resource limit exceeded") and a message saying what was tried: which simplex
 * method, how many iterations, how long, how many runs. The iteration limit is what ends a
 * stall: the simplex cycling or oscillating between bases on an LP whose coefficients lie
 * too far apart for double precision. dlsched avoids the cause where it is cheap: a
 * processor that could take no more than 1e-12 of the load by the makespan of a simple
 * distribution (loads in proportion to speed) is given none before the LP is solved, and its
 * coefficients are left out (the note says so).
 */
#ifndef DLSCHED_SCHEDULE_H
#define DLSCHED_SCHEDULE_H

#include <dlsched/common.h>
#include <dlsched/model.h>
#include <dlsched/partition.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The order in which the originator serves the processors: X(NAME, value, text).
 * - GIVEN: the platform's order (default);
 * - RATE: by increasing rate C_i (fastest links first), ties in platform order;
 * - BEST: the order (and, with dls_schedule_params::drop_unused, the set of processors)
 *   that gives the least makespan, searched by dls_schedule_solve(): exactly (a dynamic
 *   programme over the sets of processors already served) up to
 *   dls_schedule_params::order_exact_max processors, or by a rule proven optimal for the
 *   platform at hand; otherwise the best of the rules that apply improved by a local search
 *   (moves of one processor, swaps of neighbours), deterministic, bounded by
 *   dls_schedule_params::order_max_candidates and order_time_limit. The result says how
 *   the order was found, compares it with GIVEN and RATE and gives a lower bound that no
 *   order beats (dls_schedule_get_solver_info()). dls_schedule_solve() only;
 * - SEQUENCE: the order of dls_schedule_params::sequence.
 */
#define DLS_SEND_ORDER_MAP(X) \
    X(GIVEN, 0, "given")      \
    X(RATE, 1, "rate")        \
    X(BEST, 2, "best")        \
    X(SEQUENCE, 3, "sequence")

/** Send order: see ::DLS_SEND_ORDER_MAP. */
typedef enum dls_send_order {
#define DLS_SEND_ORDER_ENUM_(name, value, text) DLS_ORDER_##name = value,
    DLS_SEND_ORDER_MAP(DLS_SEND_ORDER_ENUM_)
#undef DLS_SEND_ORDER_ENUM_
} dls_send_order;
/* The values, one by one (the list above makes them). */
/** @var DLS_ORDER_GIVEN
 *  Value 0, named "given" (::DLS_SEND_ORDER_MAP). */
/** @var DLS_ORDER_RATE
 *  Value 1, named "rate" (::DLS_SEND_ORDER_MAP). */
/** @var DLS_ORDER_BEST
 *  Value 2, named "best" (::DLS_SEND_ORDER_MAP). */
/** @var DLS_ORDER_SEQUENCE
 *  Value 3, named "sequence" (::DLS_SEND_ORDER_MAP). */

/** The name of @p order: "given", "rate", "best" or "sequence"; "unknown" otherwise. A static
 *  string; never freed. */
DLS_API const char *dls_send_order_name(dls_send_order order);

/**
 * How the send order of a schedule was found: X(NAME, value, text).
 * - FIXED: as asked (::DLS_ORDER_GIVEN, ::DLS_ORDER_RATE, ::DLS_ORDER_SEQUENCE);
 * - RULE: ::DLS_ORDER_BEST by a rule proven optimal for this platform, where every time is
 *   linear in the load (one line through the origin) and there are no limits: increasing
 *   rate (equal rates by decreasing speed) when no processor has a startup (every
 *   processor is then used, and serving the faster links first is optimal, Bharadwaj et
 *   al.), decreasing speed when every link is the same (startup and rate);
 * - EXACT: ::DLS_ORDER_BEST by the dynamic programme over subsets: proven best;
 * - SEARCH: ::DLS_ORDER_BEST by the rules and the local search: the best found, never worse
 *   than GIVEN or RATE, not proven best (see dls_schedule_solver_info::order_lower_bound).
 */
#define DLS_ORDER_METHOD_MAP(X) \
    X(FIXED, 0, "fixed")        \
    X(RULE, 1, "rule")          \
    X(EXACT, 2, "exact")        \
    X(SEARCH, 3, "search")

/** How an order was found: see ::DLS_ORDER_METHOD_MAP. */
typedef enum dls_order_method {
#define DLS_ORDER_METHOD_ENUM_(name, value, text) DLS_ORDER_METHOD_##name = value,
    DLS_ORDER_METHOD_MAP(DLS_ORDER_METHOD_ENUM_)
#undef DLS_ORDER_METHOD_ENUM_
} dls_order_method;
/* The values, one by one (the list above makes them). */
/** @var DLS_ORDER_METHOD_FIXED
 *  Value 0, named "fixed" (::DLS_ORDER_METHOD_MAP). */
/** @var DLS_ORDER_METHOD_RULE
 *  Value 1, named "rule" (::DLS_ORDER_METHOD_MAP). */
/** @var DLS_ORDER_METHOD_EXACT
 *  Value 2, named "exact" (::DLS_ORDER_METHOD_MAP). */
/** @var DLS_ORDER_METHOD_SEARCH
 *  Value 3, named "search" (::DLS_ORDER_METHOD_MAP). */

/** The name of @p method: "fixed", "rule", "exact" or "search"; "unknown" otherwise. A static
 *  string; never freed. */
DLS_API const char *dls_order_method_name(dls_order_method method);

/** The method whose dls_order_method_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_order_method_from_name(const char *name, dls_order_method *out);

/** The order whose dls_send_order_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_send_order_from_name(const char *name, dls_send_order *out);

/**
 * The solver of the star problem: X(NAME, value, text).
 * - CHAIN: the star problem as a chain of value functions (default): exact, no LP solver,
 *   near-linear in the processors, the exact best set of processors for the send order
 *   (within dls_schedule_params::max_pieces), and the makespan as a function of the load
 *   (dls_schedule_curve());
 * - GLPK: the paper's LP with GLPK's simplex, processors given no load dropped one LP at a
 *   time (a heuristic); the only solver of glp_exact certification
 *   (dls_schedule_params::exact), and the one the MIPs and exports build on.
 */
#define DLS_STAR_SOLVER_MAP(X) \
    X(CHAIN, 0, "chain")       \
    X(GLPK, 1, "glpk")

/** Star solver: see ::DLS_STAR_SOLVER_MAP. */
typedef enum dls_star_solver {
#define DLS_STAR_SOLVER_ENUM_(name, value, text) DLS_SOLVER_##name = value,
    DLS_STAR_SOLVER_MAP(DLS_STAR_SOLVER_ENUM_)
#undef DLS_STAR_SOLVER_ENUM_
} dls_star_solver;
/* The values, one by one (the list above makes them). */
/** @var DLS_SOLVER_CHAIN
 *  Value 0, named "chain" (::DLS_STAR_SOLVER_MAP). */
/** @var DLS_SOLVER_GLPK
 *  Value 1, named "glpk" (::DLS_STAR_SOLVER_MAP). */

/** The name of @p solver: "chain" or "glpk"; "unknown" otherwise. A static string; never freed. */
DLS_API const char *dls_star_solver_name(dls_star_solver solver);

/** The solver whose dls_star_solver_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_star_solver_from_name(const char *name, dls_star_solver *out);

/** The largest time limit accepted by dls_schedule_params and dls_mip_params, in seconds
 *  (about 32 years: a limit, not a wish). */
#define DLS_TIME_LIMIT_MAX 1e9

/** Parameters of the scheduler; fill with dls_schedule_params_init(). */
typedef struct dls_schedule_params {
    dls_send_order order;     /**< send sequence; default ::DLS_ORDER_GIVEN */
    /** 1: the processors without a `link` are the originator's own: they receive their share
     *  without any send and are served first; 0 (default): every processor is a worker reached
     *  through its link, {0, 0} when it has none. */
    int originator_computes;
    int use_limits;           /**< 1 (default): alpha_i <= limit_i; 0: ignore the limits */
    /** 1 (default): drop the processors that get no load and solve again (see above);
     *  0: the paper's LP as it is. */
    int drop_unused;
    /** 1: solve again with glp_exact (rational arithmetic) and prove the optimum with a
     *  rational certificate (dls_schedule_certificate(), with GMP; up to 1000 processors,
     *  tens of seconds there, within time_limit again); ::DLS_SOLVER_GLPK only,
     *  ::DLS_EINVAL with the chain; 0 (default): no. */
    int exact;
    int verbose;              /**< 1: let GLPK print its progress on standard output */
    /** Relative tolerance of the answer checks (load sum, bounds, replayed makespan);
     *  in (0, 1e-3]; default ::DLS_REL_TOL. */
    double check_tol;
    /** Envelope of speed models; see dls_model_convex_envelope(). */
    dls_envelope_params envelope;
    /** Seconds GLPK may take for all its work in one call (every simplex run, the re-solves
     *  after dropping processors, glp_exact), in (0, ::DLS_TIME_LIMIT_MAX]; default 600 (the
     *  LP of 2 x 10^4 processors takes about a minute). Past it the call fails with
     *  ::DLS_ELIMIT. The integer and MIP entry points give this much to their LP and
     *  dls_mip_params::time_limit to the MIP. */
    double time_limit;
    /** Simplex iterations GLPK may take for all its runs of one call together (and, for the
     *  MIPs, for the relaxation before branch and bound); 0 (default): automatic,
     *  10000 + 20 x (rows + columns of the LP): a healthy solve of the paper's LP takes
     *  about one iteration per processor, this allows 80 or more. Past it the call fails
     *  with ::DLS_ELIMIT. Each run gives the dual simplex a quarter of what is left and the
     *  primal simplex from a fresh basis the rest. */
    unsigned iteration_limit;
    /** The solver: ::DLS_SOLVER_CHAIN (default) or ::DLS_SOLVER_GLPK (see
     *  ::DLS_STAR_SOLVER_MAP). time_limit, iteration_limit, progress and verbose are
     *  GLPK's; the chain's work is bounded by max_pieces. */
    dls_star_solver solver;
    /** The chain's exact selection (drop_unused = 1): the most pieces its value functions
     *  may have, all together; 0 (default): automatic, 4 per time line and processor and at
     *  least 200000 (about 10 MB). The pieces grow with the processors where startups make
     *  selection hard (choosing the best set is NP-hard in general); past the bound the set
     *  is the paper's LP's with the processors it gives nothing dropped, never worse than
     *  the paper's LP, and the schedule says it is not proven best
     *  (dls_schedule_solver_info::selection_exact) with a lower bound. */
    size_t max_pieces;
    /** Called while GLPK solves (about every 0.2 s of simplex work, from GLPK's thread)
     *  with the part of time_limit used; a non-zero return stops the solve, and the call
     *  fails with ::DLS_ECANCELED. The integer and MIP entry points pass it to their LP;
     *  their MIP takes dls_mip_params::progress. NULL (default): none. */
    dls_progress_fn progress;
    void *progress_data;      /**< passed to @ref progress */
    /** ::DLS_ORDER_SEQUENCE: the processors in the order they are served, platform indices,
     *  each processor once (array of dls_schedule_params::sequence_count values, owned by
     *  the caller, read during the call); NULL (default) otherwise. With originator_computes, the
     *  originator's own processors are still served first, in the order given here. */
    const size_t *sequence;
    /** Length of the sequence array: the platform's processor count. */
    size_t sequence_count;
    /** ::DLS_ORDER_BEST: the exact search (over the 2^m sets of processors served) runs up
     *  to this many processors, at most ::DLS_ORDER_EXACT_MAX; 0 (default): automatic,
     *  ::DLS_ORDER_DEFAULT_EXACT_MAX. Past it, or when its value functions outgrow
     *  max_pieces, the local search decides. */
    size_t order_exact_max;
    /** ::DLS_ORDER_BEST: the most candidate orders the local search prices (each one a
     *  chain solve); 0 (default): automatic, about 2 x 10^7 processor evaluations in all,
     *  at least 2 and at most 4000 candidates. The search stops sooner when no move
     *  improves; for the same input it makes the same moves. */
    size_t order_max_candidates;
    /** ::DLS_ORDER_BEST: seconds the order search may take (the exact search and the local
     *  search), in (0, ::DLS_TIME_LIMIT_MAX]; default ::DLS_ORDER_DEFAULT_TIME_LIMIT. The
     *  search that reaches it keeps the best order found and says so in the note (a slower
     *  machine may then stop elsewhere: set order_max_candidates for results that do not
     *  depend on the machine). */
    double order_time_limit;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(80);
} dls_schedule_params;

/** Default of dls_schedule_params::order_exact_max: 16 processors take about a second. */
#define DLS_ORDER_DEFAULT_EXACT_MAX 16
/** Largest dls_schedule_params::order_exact_max (the programme's memory doubles with each
 *  processor). */
#define DLS_ORDER_EXACT_MAX 22
/** Default of dls_schedule_params::order_time_limit, in seconds. */
#define DLS_ORDER_DEFAULT_TIME_LIMIT 60

/** Fills @p params with the defaults. */
DLS_API void dls_schedule_params_init(dls_schedule_params *params);

/** A schedule: the result of dls_schedule_solve() or dls_schedule_evaluate() (opaque). */
typedef struct dls_schedule dls_schedule;

/**
 * The optimal schedule of a load of @p load units over @p platform, by the solver of
 * @p params (the chain by default).
 * @param load total load V, finite and > 0
 * @param params NULL for the defaults
 * @param[out] out receives the schedule, also when infeasible (check dls_schedule_status());
 *        unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for bad arguments or parameters, or a processor with a 2-D
 *         model, or exact with the chain solver; ::DLS_ERANGE for magnitudes the chain
 *         cannot represent (see above); ::DLS_ESOLVER when GLPK fails or reports an
 *         internal error;
 *         ::DLS_ENUMERIC when the answer fails its checks even after a re-solve with tight
 *         tolerances, or glp_exact (params->exact) disagrees where no certificate could
 *         be computed (the certificate, when there is one, decides), or the chain's replayed
 *         makespan departs from its own; ::DLS_ELIMIT when the time or
 *         iteration limit ran out first (the message says what was tried); ::DLS_ECANCELED
 *         when params->progress asked to stop; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_solve(const dls_platform *platform, double load,
                                      const dls_schedule_params *params, dls_schedule **out,
                                      dls_error *err);

/**
 * The exact timeline of a given distribution under the true models (time lines as they are,
 * speed models through x / s(x)): the sends in sequence, each processor computing as soon as
 * its data has arrived. Processors with a zero load are sent nothing.
 * @param loads one load per processor, in platform order, finite and >= 0 (array of
 *        dls_platform_count() values), each within its limit when limits are used
 * @param params NULL for the defaults (order, originator_computes and use_limits apply)
 * @return ::DLS_OK; ::DLS_EINVAL naming the processor and value otherwise; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_evaluate(const dls_platform *platform, const double *loads,
                                         const dls_schedule_params *params, dls_schedule **out,
                                         dls_error *err);

/** Frees a schedule; NULL is allowed. */
DLS_API void dls_schedule_free(dls_schedule *schedule);

/** ::DLS_SOLUTION_OPTIMAL for an optimum (with GLPK's selection: of the last LP, the set
 *  of processors being a heuristic's), ::DLS_SOLUTION_FEASIBLE for an evaluated
 *  distribution or the chain's selection past its bound (not proven best, see
 *  dls_schedule_get_solver_info()), ::DLS_SOLUTION_INFEASIBLE when the limits cannot hold
 *  the load. */
DLS_API dls_solution_status dls_schedule_status(const dls_schedule *schedule);

/** Warnings and explanations (infeasibility with the capacity, envelope deviations), one
 *  per line; "" when there is nothing to say. Processors given no load are part of the
 *  answer, not a warning: their loads are 0, and dls_schedule_paper_makespan() gives the
 *  makespan with every processor charged. Valid until @p schedule is freed. */
DLS_API const char *dls_schedule_note(const dls_schedule *schedule);

/** Explanations that do not change the answer, one per line; "" when there are none. A
 *  speed model whose time x/s(x) is not convex is scheduled on its convex envelope: where
 *  the loads given lie where the envelope equals the true time (the true models' makespan
 *  equals the LP's), the answer is exact and the model's shape is said here, not in
 *  dls_schedule_note(); where it changes the answer, dls_schedule_note() says so. Valid until
 *  @p schedule is freed. */
DLS_API const char *dls_schedule_details(const dls_schedule *schedule);

/** Number of processors (the platform's). */
DLS_API size_t dls_schedule_count(const dls_schedule *schedule);

/** The total load V. */
DLS_API double dls_schedule_load(const dls_schedule *schedule);

/** The makespan in seconds: when the last processor finishes (INFINITY when infeasible),
 *  under the true models, as the per-processor times are: what the loads will take. For a
 *  solved schedule it equals the LP's (dls_schedule_lp_makespan()) unless a speed model
 *  entered the LP through a convex envelope that departs from its true time at the load it
 *  got. Above the LP's, the schedule is ::DLS_SOLUTION_FEASIBLE, not proven optimal, and its
 *  note says by how much; below it (the envelope's chords over a curved convex piece lie
 *  above the true time, by at most dls_envelope_params::rel_tol) it is optimal within that
 *  accuracy. */
DLS_API double dls_schedule_makespan(const dls_schedule *schedule);

/** The makespan of the LP's own timeline, on the convex envelopes of speed models (s): a
 *  lower bound of the optimum within what the envelopes lie above the true times (see
 *  dls_model_convex_envelope()); NaN for an evaluated, integer or MIP schedule. */
DLS_API double dls_schedule_lp_makespan(const dls_schedule *schedule);

/** The makespan of the paper's LP, before unused processors were dropped (equal to
 *  dls_schedule_makespan() when none was). */
DLS_API double dls_schedule_paper_makespan(const dls_schedule *schedule);

/** The makespan of the loads replayed under the true models: dls_schedule_makespan() (kept
 *  for the callers of earlier versions, where the makespan was the LP's). */
DLS_API double dls_schedule_true_makespan(const dls_schedule *schedule);

/** Largest relative deviation of the envelopes used for speed models (0 when none). */
DLS_API double dls_schedule_envelope_deviation(const dls_schedule *schedule);

/** Per processor, in platform order (arrays of dls_schedule_count() values): the load... Valid
 *  until @p schedule is freed. */
DLS_API const double *dls_schedule_loads(const dls_schedule *schedule);
/** ...when its send starts and ends (NaN for a processor sent nothing)... Valid until @p schedule
 *  is freed. */
DLS_API const double *dls_schedule_send_start(const dls_schedule *schedule);
/** When each processor's send ends (s; NaN for a processor sent nothing), in platform order
 *  (dls_schedule_count() values). Valid until @p schedule is freed. */
DLS_API const double *dls_schedule_send_end(const dls_schedule *schedule);
/** ...its compute time, when it finishes (0 when unused) and its idle time before the
 *  makespan (makespan - finish)... Valid until @p schedule is freed. */
DLS_API const double *dls_schedule_compute_time(const dls_schedule *schedule);
/** When each processor finishes (s; 0 when unused), in platform order
 *  (dls_schedule_count() values). Valid until @p schedule is freed. */
DLS_API const double *dls_schedule_finish(const dls_schedule *schedule);
/** Each processor's idle time before the makespan (makespan - finish, s), in platform
 *  order (dls_schedule_count() values). Valid until @p schedule is freed. */
DLS_API const double *dls_schedule_idle(const dls_schedule *schedule);
/** ...and the memory level that binds: the 1-based index of the time line that gives its
 *  compute time, 0 for speed models and unused processors. Valid until @p schedule is freed. */
DLS_API const int *dls_schedule_levels(const dls_schedule *schedule);

/** The processors in the order they are served (array of dls_schedule_count() indices). Valid until
 *  @p schedule is freed. */
DLS_API const size_t *dls_schedule_sequence(const dls_schedule *schedule);

/** Simplex iterations of all the solves (0 for an evaluation). */
DLS_API unsigned dls_schedule_iterations(const dls_schedule *schedule);

/** Number of LP solves (1 + re-solves after dropping processors or repairing). */
DLS_API unsigned dls_schedule_solves(const dls_schedule *schedule);

/** Largest relative residual of the checks (load sum, bounds, replayed makespan). */
DLS_API double dls_schedule_residual(const dls_schedule *schedule);

/** GLPK's largest relative KKT residuals of the last solve, primal and dual
 *  (glp_check_kkt); 0 for evaluations. */
DLS_API double dls_schedule_kkt_primal(const dls_schedule *schedule);
/** GLPK's largest relative dual KKT residual of the last solve (glp_check_kkt); 0 for
 *  evaluations. See dls_schedule_kkt_primal(). */
DLS_API double dls_schedule_kkt_dual(const dls_schedule *schedule);

/** 1 when glp_exact ran to an optimum (params->exact), 0 otherwise (not asked, or not an
 *  LP schedule). Its basis gives the certificate (dls_schedule_certificate()); without one,
 *  a makespan of glp_exact's that disagrees makes the call fail with ::DLS_ENUMERIC. */
DLS_API int dls_schedule_exact_confirmed(const dls_schedule *schedule);

/** What dls_schedule_certificate() returns. */
typedef enum dls_certificate_item {
    /** The LP's optimal makespan (s); @p i is ignored. */
    DLS_CERTIFICATE_MAKESPAN,
    /** The load processor @p i gets at the certified optimum (units). */
    DLS_CERTIFICATE_LOAD,
    /** The dual weight of processor @p i's finishing rows (>= 0; they sum to 1 over the
     *  processors; dimensionless). */
    DLS_CERTIFICATE_FINISH_WEIGHT,
    /** The dual price of processor @p i's limit (s per unit, >= 0; 0 when it is not at its
     *  limit). */
    DLS_CERTIFICATE_LIMIT_PRICE,
    /** The dual price of the load row (s per unit): the makespan's slope in the load, dT/dV;
     *  @p i is ignored. */
    DLS_CERTIFICATE_LOAD_PRICE
} dls_certificate_item;

/**
 * The rational certificate of the LP's optimum, computed with params->exact when dlsched
 * was built with GMP: exact rationals written "p/q" in lowest terms, or "p" when whole.
 * The loads (a primal point) and the weights and prices (a dual point) were checked in
 * rational arithmetic: every constraint of the LP holds exactly, every dual constraint
 * too, and the two objectives are equal, which proves the makespan optimal for the LP
 * dlsched builds from the platform's numbers (their doubles taken exactly; limits within
 * ::DLS_REL_TOL of holding the load stretched as doc/NUMERICS.md says). The LP is the
 * paper's (every processor of the send order charged its startup), or with
 * params->drop_unused the one of the processors the schedule keeps.
 *
 * @param i processor index in the platform, < dls_schedule_count(), for the items per
 *          processor
 * @return the number's text, owned by @p schedule and valid until it is freed; NULL
 *         when the schedule has no certificate (not asked, no GMP, past the certificate's
 *         size limits: the note says why), for an unknown @p item, for @p i out of range,
 *         or for a processor that is not in the LP (dropped by params->drop_unused)
 */
DLS_API const char *dls_schedule_certificate(const dls_schedule *schedule,
                                             dls_certificate_item item, size_t i);

/**
 * Which call made a schedule: X(NAME, value, text).
 * - LP: dls_schedule_solve(), the star LP's optimum;
 * - EVALUATED: dls_schedule_evaluate(), a given distribution replayed;
 * - INTEGER: dls_schedule_solve_integer(), whole-unit loads;
 * - MIP: dls_schedule_solve_mip(), the mixed-integer program's optimum.
 */
#define DLS_SCHEDULE_KIND_MAP(X)  \
    X(LP, 0, "lp")                \
    X(EVALUATED, 1, "evaluated")  \
    X(INTEGER, 2, "integer")      \
    X(MIP, 3, "mip")              \
    X(MEASURED, 4, "measured")

/** Kind of schedule: see ::DLS_SCHEDULE_KIND_MAP. */
typedef enum dls_schedule_kind {
#define DLS_SCHEDULE_KIND_ENUM_(name, value, text) DLS_SCHEDULE_##name = value,
    DLS_SCHEDULE_KIND_MAP(DLS_SCHEDULE_KIND_ENUM_)
#undef DLS_SCHEDULE_KIND_ENUM_
} dls_schedule_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_SCHEDULE_LP
 *  Value 0, named "lp" (::DLS_SCHEDULE_KIND_MAP). */
/** @var DLS_SCHEDULE_EVALUATED
 *  Value 1, named "evaluated" (::DLS_SCHEDULE_KIND_MAP). */
/** @var DLS_SCHEDULE_INTEGER
 *  Value 2, named "integer" (::DLS_SCHEDULE_KIND_MAP). */
/** @var DLS_SCHEDULE_MIP
 *  Value 3, named "mip" (::DLS_SCHEDULE_KIND_MAP). */
/** @var DLS_SCHEDULE_MEASURED
 *  Value 4, named "measured" (::DLS_SCHEDULE_KIND_MAP). */

/** The name of @p kind: "lp", "evaluated", "integer", "mip" or "measured"; "unknown" otherwise. A
 *  static string; never freed. */
DLS_API const char *dls_schedule_kind_name(dls_schedule_kind kind);

/** The kind whose dls_schedule_kind_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_schedule_kind_from_name(const char *name, dls_schedule_kind *out);

/** The call that made @p schedule. */
DLS_API dls_schedule_kind dls_schedule_get_kind(const dls_schedule *schedule);

/**
 * The figures of an integer or MIP schedule, beside its own makespan
 * (dls_schedule_makespan()). Filled by dls_schedule_get_mip_info(); the library may add
 * fields in the reserved tail.
 */
typedef struct dls_schedule_mip_info {
    /** The continuous LP's makespan on the same platform (envelopes for speed models), the
     *  reference the gap is measured from (s). */
    double lp_makespan;
    /** The LP's own loads replayed under the true models (s): above lp_makespan where
     *  envelopes differ from measured times. */
    double lp_true_makespan;
    /** Integer schedules: the makespan of the rounded LP schedule (s); NaN for a MIP
     *  schedule. */
    double rounded_makespan;
    /** The MIP's answer replayed under the true models (s); NaN when no MIP was solved or
     *  it found no answer. */
    double mip_makespan;
    /** The best bound branch and bound proved on the MIP's makespan, in its own model (s);
     *  NaN when no MIP was solved. */
    double mip_bound;
    /** Seconds GLPK's branch and bound took; NaN when no MIP was solved. */
    double mip_seconds;
    /** The MIP's outcome: ::DLS_SOLUTION_NONE when no MIP was solved (an integer schedule
     *  without one), ::DLS_SOLUTION_FEASIBLE when the time limit stopped it with an answer
     *  or when its claim of optimality failed the checks (its answer replayed above its
     *  objective, or its bound above a schedule found another way: said in the note),
     *  ::DLS_SOLUTION_NOT_FOUND without an answer. */
    dls_solution_status mip_status;
    /** The best lower bound proven on the optimum (s), by whichever holds the most: the
     *  continuous LP solved exactly by the chain (in the schedule's model), the MIP's
     *  bound where it passed the checks (lowered by the chords' tolerance where the MIP
     *  approximates measured times), the geometric partitioner's integer optimum where the
     *  problem is its own (no communication); NaN when none is known. The schedule is
     *  ::DLS_SOLUTION_OPTIMAL when its makespan is within dls_mip_params::rel_gap of it. */
    double lower_bound;
    /** 1: whole loads beyond ::DLS_MIP_INTEGER_MAX units, where GLPK's integrality
     *  tolerance (absolute) no longer tells whole numbers apart: the MIP was solved with
     *  real loads (its bound still holds the integer problem) and its loads rounded. */
    int mip_relaxed;
    /** Zero; room for later figures. */
    unsigned char reserved[60];
} dls_schedule_mip_info;

/** The largest load for which the MIP keeps whole loads as GLPK integer columns (2^20):
 *  GLPK accepts a value as whole within an absolute 1e-7, which the simplex's rounding
 *  reaches as loads grow (measured on random platforms with links: at 2^22 one MIP in 30
 *  called a feasible problem infeasible, at 2^24 half failed their checks; without links
 *  wrong optima at 10^12). Beyond it the MIP solves real loads and rounds them. */
#define DLS_MIP_INTEGER_MAX 1048576.0

/**
 * The figures of an integer or MIP schedule.
 * @param[out] info receives them
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a schedule of another kind (see
 *         dls_schedule_get_kind()), @p info untouched.
 */
DLS_API dls_status dls_schedule_get_mip_info(const dls_schedule *schedule,
                                             dls_schedule_mip_info *info, dls_error *err);

/** Sum of the limits of the processors (INFINITY when one has none or limits are off). */
DLS_API double dls_schedule_capacity(const dls_schedule *schedule);

/**
 * How a schedule of dls_schedule_solve() was found. Filled by
 * dls_schedule_get_solver_info(); the library may add fields in the reserved tail.
 */
typedef struct dls_schedule_solver_info {
    /** The solver that made the schedule. */
    dls_star_solver solver;
    /** 1: processors given no load were free (dls_schedule_params::drop_unused); 0: the
     *  paper's LP, every processor charged. */
    int selection;
    /** 1: the makespan is proven optimal for the model (with selection: the best set of
     *  processors for the send order); 0: with selection, the set is a heuristic's (GLPK's
     *  always, the chain's past max_pieces), see lower_bound. */
    int optimal;
    /** The chain's passes over the processors' models (evaluations of every processor's
     *  time); 0 for GLPK. */
    unsigned passes;
    /** A lower bound on the best makespan of the model (s): the makespan itself when
     *  optimal; NaN when there is none (GLPK with selection). */
    double lower_bound;
    /** dT/dV at the load from below and from above, in seconds per unit: what one unit
     *  less or more would change the makespan, INFINITY at the capacity; the chain only,
     *  NaN for GLPK (see dls_schedule_curve() for the whole function). */
    double marginal_left;
    double marginal_right; /**< dT/dV from above: see marginal_left */
    /** Processors given a load. */
    size_t used;
    /** The chain's selection: pieces of all its value functions, and of the largest; 0
     *  otherwise. */
    size_t pieces_total;
    size_t pieces_max; /**< the largest value function's pieces: see pieces_total */
    /** Rates and slopes taken as 0 by the chain's magnitude rule (see above). */
    size_t flushed;
    /** How the send order was found (::DLS_ORDER_METHOD_FIXED unless ::DLS_ORDER_BEST). */
    dls_order_method order_method;
    /** ::DLS_ORDER_BEST: 1 when the order (and set) is proven the best of all orders
     *  (methods EXACT and RULE, the schedule's own selection being exact); 0 otherwise. */
    int order_optimal;
    /** ::DLS_ORDER_BEST: the best makespans (same model and selection) in the platform's
     *  order and in the rate order (s); the schedule's is never above either. NaN
     *  otherwise. */
    double given_makespan;
    double rate_makespan; /**< the best makespan in the rate order: see given_makespan */
    /** ::DLS_ORDER_BEST: a lower bound on the makespan of every order (s): the makespan
     *  itself when order_optimal; else the makespan when every link may send at the same
     *  time (the single port relaxed). NaN otherwise. */
    double order_lower_bound;
    /** ::DLS_ORDER_BEST: candidate orders the search priced (the rules, before the exact
     *  search too, and the local search's moves); 0 for RULE. */
    size_t order_candidates;
    /** Zero; room for later figures. */
    unsigned char reserved[16];
} dls_schedule_solver_info;

/**
 * How a schedule was found.
 * @param[out] info receives the figures
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a schedule not made by
 *         dls_schedule_solve() (see dls_schedule_get_kind()), or an infeasible one; @p info
 *         untouched then.
 */
DLS_API dls_status dls_schedule_get_solver_info(const dls_schedule *schedule,
                                                dls_schedule_solver_info *info,
                                                dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* The makespan as a function of the load                                             */

/** The makespan as a function of the load, T(V), over a range (opaque). */
typedef struct dls_curve dls_curve;

/**
 * The optimal makespan T(V) for every load V in [@p load_min, @p load_max] at once, from the
 * chain solver's value function of the whole sequence: T is piecewise linear, and the curve
 * gives exactly the loads where it bends (where the set of processors used, a binding
 * memory level or a limit changes), with T linear between consecutive points. Its slope is
 * the marginal cost dT/dV. Speed models enter through their envelopes on (0, min(limit,
 * load_max)], as in dls_schedule_solve() at load_max.
 * @param load_min, load_max the range, 0 < load_min < load_max <= the capacity (sum of the
 *        limits, under the tolerance rule of ::DLS_REL_TOL), finite
 * @param params NULL for the defaults; the solver must be ::DLS_SOLVER_CHAIN; drop_unused
 *        chooses the model (selection or the paper's LP)
 * @param[out] out receives the curve; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for bad arguments, a range beyond the capacity, or the GLPK
 *         solver; ::DLS_ERANGE for magnitudes beyond the rule above; ::DLS_ELIMIT when the
 *         value function needs more than max_pieces pieces (selection on large platforms:
 *         the paper's model, drop_unused = 0, always fits); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_curve(const dls_platform *platform, double load_min,
                                      double load_max, const dls_schedule_params *params,
                                      dls_curve **out, dls_error *err);

/** Frees a curve; NULL is allowed. */
DLS_API void dls_curve_free(dls_curve *curve);

/** Number of points (>= 2: the ends of the range and every bend between). */
DLS_API size_t dls_curve_count(const dls_curve *curve);

/** The loads of the points, increasing from load_min to load_max (dls_curve_count()
 *  values; two points may share a load where T jumps, a processor's startup: the first
 *  gives T at that load, the second T just above it). Valid until @p curve is freed. */
DLS_API const double *dls_curve_loads(const dls_curve *curve);

/** The makespans at the points, in seconds (dls_curve_count() values, nondecreasing). Valid until
 *  @p curve is freed. */
DLS_API const double *dls_curve_makespans(const dls_curve *curve);

/** T at @p load by the curve (linear between points; at a jump, where two points share a
 *  load, the first: T at that load itself, the second being its limit from above); NaN
 *  outside the range. */
DLS_API double dls_curve_makespan_at(const dls_curve *curve, double load);

/** 1 when the curve is exact for its model (always, today: past the bound the call fails
 *  instead). */
DLS_API int dls_curve_exact(const dls_curve *curve);

/**
 * The curve as an SVG document: T(V) from 0, the points where it bends as dots (their
 * tooltips give the exact figures), and a dashed line at the load @p mark.
 * @param mark a load within the curve's range to mark (the one scheduled), or NaN for none
 * @param[out] out receives the document, to free with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, a mark outside the range or a curve
 *         of makespan 0; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_curve_svg_to_string(const dls_curve *curve, double mark, char **out,
                                           dls_error *err);

/**
 * The same document written to @p path, as dls_schedule_gantt_write_file() writes: a regular
 * file replaced atomically, a device, FIFO or socket written as a stream, a directory or
 * block device refused.
 * @return as dls_curve_svg_to_string(), and ::DLS_EIO when the destination cannot be
 *         written, ::DLS_EWRITE when the data could not be written to it, both naming the
 *         path and the reason.
 */
DLS_API dls_status dls_curve_svg_write_file(const dls_curve *curve, double mark,
                                            const char *path, dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Integer loads and exact shapes (mixed-integer programs)                            */

/** Parameters of the mixed-integer programs; fill with dls_mip_params_init(). */
typedef struct dls_mip_params {
    /** 1: loads are whole units (default for dls_schedule_solve_integer()); 0: real loads. */
    int integer;
    /** 1: speed models enter by their true time x / s(x) (non-convex where speeds rise),
     *  piecewise linear, with one binary per convex run of it; 0 (default): their convex
     *  envelope. */
    int exact_shape;
    /** Seconds for each MIP, its relaxation and GLPK's branch and bound together, in
     *  (0, ::DLS_TIME_LIMIT_MAX]; default 60. When it runs out the best answer so far is
     *  returned with ::DLS_SOLUTION_FEASIBLE and the bound (::DLS_SOLUTION_NOT_FOUND when
     *  there is none yet). GLPK gives the LPs of its tree's nodes no limit of their own: a
     *  watchdog stops one that runs past it, a few seconds late at most (GLPK reports their
     *  progress every 5 s). */
    double time_limit;
    /** Relative gap at which branch and bound stops, in [0, 1); default 1e-9. */
    double rel_gap;
    /** Relative error allowed between a measured time function and its chords; in (0, 0.1];
     *  default 1e-4. Whole-unit loads on a range of at most 256 sizes use every size
     *  instead (exact). */
    double shape_tol;
    /** Larger programs are refused with ::DLS_ELIMIT; default 20000 binaries. */
    size_t max_binaries;
    /** Called while GLPK solves the MIP (its relaxation and branch and bound) with the part
     *  of the time limit used, about every 0.2 s, from GLPK's thread; a non-zero return
     *  stops it and the call fails with ::DLS_ECANCELED. NULL (default): none. */
    dls_progress_fn progress;
    void *progress_data;      /**< passed to @ref progress */
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(72);
} dls_mip_params;

/** Fills @p params with the defaults. */
DLS_API void dls_mip_params_init(dls_mip_params *params);

/**
 * Whole-unit loads: the LP schedule rounded down, then each remaining unit given to the
 * processor whose replayed makespan (sends included) grows least, then single units moved
 * while that lowers the makespan. The LP's makespan is the reference of the gap. Without
 * communication (no links, or links of 0) the problem is the geometric partitioner's,
 * whose integer optimum (dls_partition_solve()) is taken when shorter. When @p mip is not
 * NULL the same problem is also solved as a MIP (integer loads up to
 * ::DLS_MIP_INTEGER_MAX, real loads rounded beyond; a binary per processor for whether it
 * is sent anything), started from the best so far; the schedule returned is the best, and
 * every makespan is kept. It is ::DLS_SOLUTION_OPTIMAL only when within the relative gap
 * (mip->rel_gap, 1e-9 without a MIP) of a lower bound proven by another method
 * (dls_schedule_mip_info::lower_bound): the continuous LP solved by the chain, the MIP's
 * bound once its answer replays to its objective and no schedule found otherwise is below
 * it, the partitioner's proven integer optimum; ::DLS_SOLUTION_FEASIBLE otherwise, the
 * note saying how far from the bound it is, or which claim of GLPK's another method
 * refuted.
 * @param n the load, a whole number of units, 1 .. 2^53
 * @param mip NULL: rounding only; else the MIP's parameters (its `integer` is forced to 1)
 * @return as dls_schedule_solve(), and ::DLS_ELIMIT when the MIP exceeds max_binaries or its
 *         relaxation the iteration limit; ::DLS_ECANCELED when mip->progress asked to stop.
 */
DLS_API dls_status dls_schedule_solve_integer(const dls_platform *platform, uint64_t n,
                                              const dls_schedule_params *params,
                                              const dls_mip_params *mip, dls_schedule **out,
                                              dls_error *err);

/**
 * The optimum of the star schedule as a MIP: the processors used, real or whole loads, and
 * with exact_shape the true (possibly non-convex) time of measured models instead of the
 * envelope the LP uses. The schedule's timeline is replayed under the true models; the LP's
 * makespan and the makespan of the LP's loads under the true models are kept for comparison
 * (dls_schedule_get_mip_info()). Optimal under the rule of dls_schedule_solve_integer():
 * within mip->rel_gap of a lower bound another method checked.
 * @param mip NULL for the defaults
 * @return as dls_schedule_solve(); ::DLS_ELIMIT when the program exceeds max_binaries or its
 *         relaxation the iteration limit; ::DLS_ECANCELED when mip->progress asked to stop.
 */
DLS_API dls_status dls_schedule_solve_mip(const dls_platform *platform, double load,
                                          const dls_schedule_params *params,
                                          const dls_mip_params *mip, dls_schedule **out,
                                          dls_error *err);

/**
 * Formats of dls_schedule_lp_write_file(): X(NAME, value, text).
 * - LP: CPLEX LP (glp_write_lp);
 * - MPS: free MPS, numbers with 17 significant digits;
 * - GLPK: GLPK's own format (glp_write_prob);
 * - MATHPROG: data section for the model lp/star.mod.
 */
#define DLS_EXPORT_FORMAT_MAP(X) \
    X(LP, 0, "lp")               \
    X(MPS, 1, "mps")             \
    X(GLPK, 2, "glpk")           \
    X(MATHPROG, 3, "mathprog")

/** Export format: see ::DLS_EXPORT_FORMAT_MAP. */
typedef enum dls_export_format {
#define DLS_EXPORT_FORMAT_ENUM_(name, value, text) DLS_EXPORT_##name = value,
    DLS_EXPORT_FORMAT_MAP(DLS_EXPORT_FORMAT_ENUM_)
#undef DLS_EXPORT_FORMAT_ENUM_
} dls_export_format;
/* The values, one by one (the list above makes them). */
/** @var DLS_EXPORT_LP
 *  Value 0, named "lp" (::DLS_EXPORT_FORMAT_MAP). */
/** @var DLS_EXPORT_MPS
 *  Value 1, named "mps" (::DLS_EXPORT_FORMAT_MAP). */
/** @var DLS_EXPORT_GLPK
 *  Value 2, named "glpk" (::DLS_EXPORT_FORMAT_MAP). */
/** @var DLS_EXPORT_MATHPROG
 *  Value 3, named "mathprog" (::DLS_EXPORT_FORMAT_MAP). */

/** The name of @p format: "lp", "mps", "glpk" or "mathprog"; "unknown" otherwise. A static string;
 *  never freed. */
DLS_API const char *dls_export_format_name(dls_export_format format);

/** The format whose dls_export_format_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_export_format_from_name(const char *name, dls_export_format *out);

/**
 * Writes the paper's LP for @p load over @p platform (every processor, in send order, in the
 * platform's own units) to @p path, for other solvers and for people. Its optimum is
 * dls_schedule_paper_makespan(). Rows: send_k (the cumulative send times), finish_k_l (one
 * per time line), load; columns alpha_k, T_k (end of the k-th send) and Cmax.
 * Numbers are written in the C locale whatever locale the program chose. A regular file (or a new path) is replaced atomically: a temporary file
 * in the same directory, synced and renamed, so that @p path is either its old self or the
 * whole new file; the mode of the file replaced is kept, a new file gets 0666 less the
 * umask. A symbolic link is followed and its target replaced. A character device, FIFO or
 * socket is written to as a stream. A directory or block device is refused.
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EIO when the destination cannot be written;
 *         ::DLS_EWRITE when the data could not be written to it (a full device), both
 *         naming the path and the reason; ::DLS_ESOLVER; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_lp_write_file(const dls_platform *platform, double load,
                                              const dls_schedule_params *params,
                                              dls_export_format format, const char *path,
                                              dls_error *err);

/**
 * The same LP as dls_schedule_lp_write_file(), returned as text.
 * @param[out] out receives the file's text (NUL-terminated), to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EIO (the scratch file GLPK's writers need, in
 *         $TMPDIR); ::DLS_ESOLVER; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_lp_to_string(const dls_platform *platform, double load,
                                             const dls_schedule_params *params,
                                             dls_export_format format, char **out, dls_error *err);

/**
 * Draws @p schedule as an SVG Gantt chart that reads printed or as a PNG, without hovering:
 * the originator's sends on the first lane, each processor's data arriving and its
 * computation on its own lane (in send order), coloured by the memory level that binds,
 * with its load and share written on the lane ("load 228644 (22.9%), level 2"; "load 0:
 * unused"); a time axis in seconds, a legend, and under the chart a table of each
 * processor's load, share, send start and end, and finish. The subtitle names the method
 * that made the schedule and what it proved ("optimal, chain solver", "optimal, GLPK
 * simplex", "whole-unit loads, optimal: MIP (GLPK branch and bound)", "a given
 * distribution, replayed"). Communication is hatched, computation solid (colour-blind
 * safe colours), idle time near-white and outlined, so that a grey print keeps them apart;
 * a bar shorter than 2 pixels is drawn 2 pixels wide (the table keeps the true times).
 * Elements carry a `class` (`send`, `receive`, `compute`, `idle`, `load-label`, `title`,
 * `subtitle`, `table`) for scripts and style sheets.
 * @param[out] svg receives the document, to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_gantt_to_string(const dls_schedule *schedule,
                                                const dls_platform *platform, char **svg,
                                                dls_error *err);

/**
 * The same chart written to @p path. A regular file (or a new path) is replaced atomically: a temporary file
 * in the same directory, synced and renamed, so that @p path is either its old self or the
 * whole new file; the mode of the file replaced is kept, a new file gets 0666 less the
 * umask. A symbolic link is followed and its target replaced. A character device, FIFO or
 * socket is written to as a stream. A directory or block device is refused.
 * @return as dls_schedule_gantt_to_string(), and ::DLS_EIO when the destination cannot be written,
 *         ::DLS_EWRITE when the data could not be written to it (a full device), both
 *         naming the path and the reason.
 */
DLS_API dls_status dls_schedule_gantt_write_file(const dls_schedule *schedule,
                                                 const dls_platform *platform, const char *path,
                                                 dls_error *err);

/**
 * A schedule holding a timeline that was measured (a real run, e.g. libdlsched_mpi's
 * dls_mpi_plan_measured()), to report and draw beside a prediction: the send order is that
 * of the send starts (processors with no load last), the makespan the latest finish, each
 * computation from the data's arrival to the finish; the memory level shown is the time
 * line that binds at the load (0 for speed models). Status ::DLS_SOLUTION_FEASIBLE, kind
 * ::DLS_SCHEDULE_MEASURED.
 * @param loads, send_start, send_end, finish arrays of dls_platform_count() values in
 *        platform order, seconds from a common origin; for a processor with a load > 0 the
 *        times are finite with 0 <= send_start <= send_end <= finish; for a load of 0 they
 *        are ignored (NaN is fine)
 * @param[out] out receives the schedule; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL naming the processor and value; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_measured(const dls_platform *platform, const double *loads,
                                         const double *send_start, const double *send_end,
                                         const double *finish, dls_schedule **out,
                                         dls_error *err);

/**
 * Draws a predicted and a measured schedule of the same platform on one time axis (SVG):
 * two lanes for the originator's sends and two per processor, the predicted one (faded)
 * above the measured one, in the predicted send order, each with its load written on it;
 * the two makespans marked; under the chart a table of each processor's load, share,
 * predicted and measured finish and their difference.
 * @param[out] svg receives the document, to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL (NULL, or schedules of another number of processors than
 *         the platform, or nothing to draw); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_schedule_gantt_compare_to_string(const dls_schedule *predicted,
                                                        const dls_schedule *measured,
                                                        const dls_platform *platform,
                                                        char **svg, dls_error *err);

/** The same chart written to @p path, as dls_schedule_gantt_write_file() writes.
 *  @return as dls_schedule_gantt_compare_to_string(), and ::DLS_EIO, ::DLS_EWRITE. */
DLS_API dls_status dls_schedule_gantt_compare_write_file(const dls_schedule *predicted,
                                                         const dls_schedule *measured,
                                                         const dls_platform *platform,
                                                         const char *path, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_SCHEDULE_H */
