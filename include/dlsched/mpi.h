/**
 * @file dlsched/mpi.h
 * @brief dlsched inside MPI programs: measuring every rank in one run, using a
 * distribution or a star schedule across the ranks of a communicator, and balancing an
 * iterative program while it runs.
 *
 * This header belongs to a separate library, libdlsched_mpi (pkg-config module
 * dlsched-mpi), built when configure finds MPI; libdlsched itself never needs MPI. Include
 * it after mpi.h is reachable (it includes <mpi.h> and <dlsched.h>).
 *
 * Conventions, beyond those of dlsched/common.h:
 * - Every function here is collective over its communicator: every rank calls it, with the
 *   same arguments where the documentation says so, and every rank returns the same status
 *   and, on failure, the same message. A failure on one rank (a kernel that fails, a file
 *   that cannot be written, a bad argument seen only there) never leaves the others
 *   waiting: they learn of it at the call's next exchange, and the message names the rank
 *   and its host (`dls_mpi_bench: rank 2 (node07): ...`).
 * - Processor i of a platform used with a communicator is rank i of that communicator.
 * - The functions communicate on a duplicate of the communicator, so that their messages
 *   never meet the caller's.
 * - MPI errors are returned as ::DLS_EIO naming the MPI call (the communicator's error
 *   handler must be MPI_ERRORS_RETURN for that; with MPI's default, MPI_ERRORS_ARE_FATAL,
 *   MPI aborts the job first).
 */
#ifndef DLSCHED_MPI_H
#define DLSCHED_MPI_H

#include <stdint.h>

#include <mpi.h>

#include <dlsched.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------- */
/* Measuring every rank                                                               */

/** Longest path of a rank's log, including the terminating NUL. */
#define DLS_MPI_PATH_MAX 4096

/** Parameters of dls_mpi_bench(); fill with dls_mpi_bench_params_init(). */
typedef struct dls_mpi_bench_params {
    /** How each rank measures: the statistics, sizes and budget of dls_bench_build(), with
     *  its defaults. bench.memory_fraction is the share of a node's available memory that
     *  all the ranks of that node may use together: each rank measures up to its part of
     *  it. on_point, on_run and progress are called on every rank for its own build;
     *  bench.resume must be NULL (resuming is done from the logs, see @ref resume). */
    dls_bench_params bench;
    /** Prefix of the logs: rank r appends each point it measures to the file
     *  "<log>.<r>" as soon as it is known (flushed to disk), with a first line naming the
     *  host, the rank, the kernel and the parameters. NULL (default): no logs. At most
     *  ::DLS_MPI_PATH_MAX - 16 bytes. */
    const char *log;
    /** 1: every rank reads its log back and measures only the sizes it lacks (a job that
     *  crashed or was killed goes on where it stopped); a rank without a log starts from
     *  nothing. A log written for another host, rank, kernel or parameters is refused
     *  (::DLS_EDATA naming it). 0 (default): the logs are started afresh. */
    int resume;
    /** 1 (default): every processor's limit is the largest size whose memory (the
     *  kernel's memory formula) fits in its share of its node's available memory, the
     *  node's memory divided among the ranks on it; without a memory formula, the largest
     *  size measured. 0: no limits. */
    int memory_limits;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(112);
} dls_mpi_bench_params;

/** Fills @p params with the defaults (those of dls_bench_params_init() for bench). */
DLS_API void dls_mpi_bench_params_init(dls_mpi_bench_params *params);

/**
 * Builds the speed function of @p kernel on every rank of @p comm at the same time (so
 * that the contention between the ranks that share a node, for memory bandwidth and
 * caches, is in the models), and assembles the platform on every rank: processor r is rank
 * r, named "HOST:r" (HOST from MPI_Get_processor_name), with a points model with bands
 * (dls_bench_model()) and its memory limit (see dls_mpi_bench_params::memory_limits).
 * Every rank gets a bit-for-bit identical platform.
 *
 * Collective. @p kernel is each rank's own (its data may differ, its name must not);
 * @p params must be equal on every rank (compared first: a difference is ::DLS_EINVAL
 * naming the field, the rank and both values).
 * @param params NULL for the defaults
 * @param[out] out receives the platform (free with dls_platform_free()); unchanged on
 *        failure
 * @return ::DLS_OK; ::DLS_EINVAL for a bad argument or parameter on any rank, or
 *         parameters that differ between ranks; ::DLS_EIO when a run fails, the memory
 *         cannot be read, a log cannot be written or an MPI call fails; ::DLS_EDATA for a
 *         log that cannot be resumed; ::DLS_ECANCELED when a callback asked to stop;
 *         ::DLS_ENOMEM. The status and message are those of the lowest rank that failed,
 *         on every rank; ranks still measuring when another fails stop at their next run
 *         (their points are in their logs).
 */
DLS_API dls_status dls_mpi_bench(MPI_Comm comm, const dls_kernel *kernel,
                                 const dls_mpi_bench_params *params, dls_platform **out,
                                 dls_error *err);

/** Parameters of dls_mpi_links(); fill with dls_mpi_links_params_init(). */
typedef struct dls_mpi_links_params {
    /** How each link is measured: the sizes (in bytes: min_size, default 1, to max_size,
     *  default ::DLS_MPI_LINKS_DEFAULT_MAX_BYTES), the statistics and the budget (for each
     *  link) of dls_bench_build(), whose adaptive sizes are the messages'. on_point,
     *  on_run and progress apply on the root; resume must be NULL. */
    dls_bench_params bench;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(64);
} dls_mpi_links_params;

/** Default largest message of dls_mpi_links(), bytes (16 MiB). */
#define DLS_MPI_LINKS_DEFAULT_MAX_BYTES 16777216.0

/** Fills @p params with the defaults. */
DLS_API void dls_mpi_links_params_init(dls_mpi_links_params *params);

/** The link from the root to one rank, measured (the Hockney model: a message of x bytes
 *  takes startup + rate x seconds). */
typedef struct dls_mpi_link {
    double startup;    /**< S, seconds (0 for the root itself) */
    double rate;       /**< C, seconds per byte (0 for the root itself) */
    /** The band of the fit: the least ratio of a measured time to the line's (1 for the
     *  root) */
    double low;
    double high;       /**< the largest ratio: see @ref low */
    size_t points;     /**< message sizes measured */
    /** 1 when the rank shares the root's node: its link is MPI's transport within a node
     *  (shared memory), not the network's */
    int same_node;
    /** Zero; room for later figures. */
    unsigned char reserved[28];
} dls_mpi_link;

/**
 * Measures the link from @p root to every rank of @p comm, one rank after the other: the
 * root sends messages of sizes chosen adaptively (dls_bench_build() over message sizes,
 * with repetitions until the confidence interval is tight), the rank answers each with an
 * empty message, and the time of a message is its round trip less half the round trip of
 * an empty one; the line S + C x is fitted to those times by least squares. Collective:
 * every rank calls it with the same @p root and parameters, and every rank gets every
 * link.
 * @param links receives one link per rank of @p comm (an array of its size, on every rank)
 * @return ::DLS_OK; ::DLS_EINVAL for bad arguments (naming the rank); ::DLS_EIO for an MPI
 *         failure; ::DLS_ECANCELED when a callback asked to stop; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_mpi_links(MPI_Comm comm, int root, const dls_mpi_links_params *params,
                                 dls_mpi_link *links, dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Using a distribution                                                               */

/**
 * Partitions @p n equal elements over the ranks of @p comm with dls_partition_solve(),
 * computed once on rank 0 and broadcast, so that every rank gets the same counts bit for
 * bit: rank r gets elements [*my_offset, *my_offset + *my_count) of the ordered set
 * (contiguous chunks in rank order).
 *
 * Collective. @p platform is read on rank 0 only (other ranks may pass NULL) and must have
 * exactly as many processors as @p comm has ranks; @p n and @p params (NULL or not) must be
 * equal on every rank (::DLS_EINVAL otherwise).
 * @param n the number of elements, as dls_partition_solve() takes it
 * @param params NULL for the defaults (weights, metric and ordered sets other than the
 *        platform's order are not supported here: ::DLS_EINVAL)
 * @param[out] my_count this rank's number of elements; unchanged on failure
 * @param[out] my_offset the index of this rank's first element; unchanged on failure
 * @param[out] counts every rank's count, an array of the communicator's size; may be NULL;
 *        unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EDATA when the problem is infeasible (the limits
 *         cannot hold n elements: the message gives the capacity); what
 *         dls_partition_solve() returns on rank 0; ::DLS_EIO for an MPI failure;
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_mpi_partition(MPI_Comm comm, const dls_platform *platform, uint64_t n,
                                     const dls_partition_params *params, uint64_t *my_count,
                                     uint64_t *my_offset, uint64_t *counts, dls_error *err);

/** A star schedule spread over a communicator (opaque); free with dls_mpi_plan_free(). */
typedef struct dls_mpi_plan dls_mpi_plan;

/**
 * Schedules a divisible load of @p units whole units held by rank @p root over the ranks
 * of @p comm with dls_schedule_solve() (computed on the root, broadcast): the loads rounded
 * to whole units (largest remainders, summing to @p units), the send order, and the
 * predicted timeline of those rounded loads (dls_schedule_evaluate()). Rank r's units are
 * [offset(r), offset(r) + count(r)) of the root's buffer: contiguous chunks in rank order,
 * sent in the schedule's order.
 *
 * The root's own processor is scheduled as what one thread does: the other ranks are served
 * in the order asked (params->order: the platform's, or by increasing link rate), then the
 * root keeps its share, with no send, and computes it after its last send. Its link, if the
 * platform gives one, and params->originator_computes are therefore not used.
 *
 * Collective. @p platform is read on the root only (others may pass NULL) and has one
 * processor per rank; @p root, @p units and whether @p params is NULL must be equal on
 * every rank.
 * @param units the load in whole units, >= 1 and < 2^53
 * @param params NULL for the defaults
 * @param[out] out receives the plan on every rank; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EDATA when the load does not fit in the limits;
 *         what dls_schedule_solve() returns on the root; ::DLS_EIO for an MPI failure;
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_mpi_schedule(MPI_Comm comm, int root, const dls_platform *platform,
                                    uint64_t units, const dls_schedule_params *params,
                                    dls_mpi_plan **out, dls_error *err);

/** Frees a plan; NULL is allowed. Not collective. */
DLS_API void dls_mpi_plan_free(dls_mpi_plan *plan);

/** The number of ranks of the plan's communicator. */
DLS_API size_t dls_mpi_plan_size(const dls_mpi_plan *plan);

/** Rank @p r's number of units (0 for a rank out of range). */
DLS_API uint64_t dls_mpi_plan_count(const dls_mpi_plan *plan, int r);

/** The index of rank @p r's first unit in the root's buffer (0 for a rank out of range). */
DLS_API uint64_t dls_mpi_plan_offset(const dls_mpi_plan *plan, int r);

/** The send order: the ranks, first served first; an array of dls_mpi_plan_size()
 *  values, owned by the plan. Ranks that get no unit are at the end. Valid until @p plan is
 *  freed. */
DLS_API const int *dls_mpi_plan_order(const dls_mpi_plan *plan);

/** The predicted times of rank @p r, in seconds from the first send: when its data has
 *  arrived (*arrival) and when its computation ends (*finish); outputs may be NULL.
 *  @return ::DLS_OK; ::DLS_EINVAL for a rank out of range or a NULL plan. */
DLS_API dls_status dls_mpi_plan_predicted(const dls_mpi_plan *plan, int r, double *arrival,
                                          double *finish);

/** The predicted makespan of the rounded loads, seconds. */
DLS_API double dls_mpi_plan_makespan(const dls_mpi_plan *plan);

/** The schedule computed on the root, before rounding, owned by the plan: on the root
 *  only (NULL on other ranks, which hold the getters' numbers). Its processors are the
 *  platform's reordered as scheduled: the other ranks in the order asked, then the root. Valid
 *  until @p plan is freed. */
DLS_API const dls_schedule *dls_mpi_plan_schedule(const dls_mpi_plan *plan);

/**
 * Sends the units: the root sends each rank its chunk of @p sendbuf in the plan's order,
 * one message after the other (each send completes before the next starts, as the star
 * model assumes); every rank receives its chunk into @p recvbuf and returns as soon as it
 * has it, free to compute while the root serves the others. Each rank records when its data
 * arrived, in seconds since a barrier that starts the scatter: the ranks on the root's
 * host count from the root's exit of the barrier on the host's monotonic clock, the
 * others from their own exit (clocks are not compared across hosts, unless MPI_Wtime is
 * global, as in a simulator: then every rank counts from the root's). The root copies its
 * own chunk at its turn and returns after its last send: with one thread it computes its
 * share only then, whereas the star model's originator and its own processors work in
 * parallel (serve the root last, or give it no share, where that matters).
 *
 * Collective for the checks of the arguments (a bad argument on any rank fails every rank
 * before anything is sent); after that, a failed transfer is reported by the ranks it
 * concerns only, so that no rank waits for the others to return.
 * @param sendbuf the root's units, units x @p unit_bytes bytes (ignored elsewhere)
 * @param unit_bytes bytes of one unit, >= 1, equal on every rank
 * @param recvbuf this rank's count x @p unit_bytes bytes (may be NULL when its count is
 *        0); on the root it may alias its chunk of @p sendbuf
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_ERANGE when a chunk is too large for one MPI
 *         message (more than INT_MAX bytes: use a larger datatype in your own sends);
 *         ::DLS_EIO for an MPI failure.
 */
DLS_API dls_status dls_mpi_plan_scatter(MPI_Comm comm, dls_mpi_plan *plan, const void *sendbuf,
                                        size_t unit_bytes, void *recvbuf, dls_error *err);

/** Records that this rank's computation has ended (seconds since the scatter's barrier).
 *  Not collective. @return ::DLS_OK; ::DLS_EINVAL before dls_mpi_plan_scatter(). */
DLS_API dls_status dls_mpi_plan_done(dls_mpi_plan *plan, dls_error *err);

/**
 * Gathers every rank's measured arrival and finish times on every rank. Collective (after
 * dls_mpi_plan_done() on every rank).
 * @param[out] arrival, finish arrays of the communicator's size, seconds since the
 *        scatter's barrier; either may be NULL
 * @return ::DLS_OK; ::DLS_EINVAL (a rank that did not record its end); ::DLS_EIO.
 */
DLS_API dls_status dls_mpi_plan_measured(MPI_Comm comm, const dls_mpi_plan *plan, double *arrival,
                                         double *finish, dls_error *err);

/**
 * Writes the plan's timeline as JSON on the root (atomically: a temporary file renamed over
 * @p path), in the shape of `dlsched schedule --json`: "load" (units), "makespan" (the
 * measured one: the latest finish), "kind" ("measured"), "send_order" (the ranks' names,
 * "rank R", served first first) and "processors", one per rank with "name", "rank", "load", "send_start",
 * "send_end", "compute_time", "finish" and "idle" as measured (seconds since the scatter's
 * barrier; send_start is when the root began the send, send_end when the rank had its
 * data), and "predicted" holding the same times as the plan predicts them; plus
 * "predicted_makespan" and "makespan_error" ((measured - predicted) / predicted).
 *
 * Collective (after dls_mpi_plan_done() on every rank).
 * @param path significant on the root only
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EIO when the file cannot be written (named);
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_mpi_plan_write_json(MPI_Comm comm, const dls_mpi_plan *plan,
                                           const char *path, dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Balancing an iterative program while it runs                                       */

/**
 * One step of a balancer (dlsched/balance.h) taken alike on every rank: each rank passes
 * the time it measured for its current share, the call gathers every rank's time
 * (MPI_Allgather) and steps every rank's balancer with all of them (dls_balance_step(),
 * which is deterministic), so that every balancer holds the same next distribution, its
 * move plan (dls_balance_moves(), the whole plan on every rank) and its figures
 * (dls_balance_get_info()).
 *
 * Collective. Every rank holds its own balancer, created with p = the communicator's size,
 * the same n and the same parameters, and stepped only through this call (their n and
 * shares are compared first: a difference is ::DLS_EINVAL).
 * @param my_time this rank's time for its current share (dls_balance_shares()[rank]),
 *        seconds: finite and > 0 with work, 0 without
 * @param[out] my_share this rank's next share, elements; unchanged on failure
 * @param[out] my_first the index of its first element in the 1-D block layout (rank
 *        order); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL on every rank when any rank's input is bad (a NaN,
 *         negative or infinite time, a time of 0 for a share or nonzero without one, a
 *         balancer whose p is not the communicator's size, NULL), the message naming
 *         the lowest such rank and its value; ::DLS_EIO for an MPI failure; ::DLS_ENOMEM.
 *         On failure every balancer is unchanged (only running out of memory inside the
 *         step on some ranks but not others could leave them apart: free them then).
 */
DLS_API dls_status dls_mpi_balance(MPI_Comm comm, dls_balance *balance, double my_time,
                                   uint64_t *my_share, uint64_t *my_first, dls_error *err);

/**
 * Carries out a 1-D block move plan (dls_balance_moves() or dls_move_plan_create()): this
 * rank's old block, its @p before[rank] elements contiguous in @p old_buf, becomes its new
 * block in @p new_buf, before[rank] + dls_move_plan_changes()[rank] elements. The elements
 * it keeps are copied locally; the plan's transfers from and to this rank are sent and
 * received with nonblocking MPI_BYTE messages (a transfer over INT_MAX bytes goes in
 * several), all of them posted before any is waited for.
 *
 * The plan gives the transfers and each rank's change in count, not the counts
 * themselves (a rank that neither sends nor receives would have none): hence @p before,
 * the counts the plan starts from, the shares run before the step (copy
 * dls_balance_shares() before dls_mpi_balance()).
 *
 * Collective: @p plan, @p before and @p element_bytes must be equal on every rank
 * (compared first); a bad argument on any rank fails every rank before anything moves.
 * @param before the p counts before the plan, elements
 * @param old_buf this rank's old block (may be NULL when it is empty)
 * @param new_buf room for this rank's new block (may be NULL when it is empty); must not
 *        overlap @p old_buf
 * @param element_bytes bytes of one element, >= 1
 * @return ::DLS_OK; ::DLS_EINVAL (a plan of another count of ranks, counts before that
 *         the plan cannot start from, a NULL buffer for a block that is not empty,
 *         arguments that differ between ranks); ::DLS_ERANGE for blocks larger than the
 *         address space; ::DLS_EIO for an MPI failure; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_mpi_move(MPI_Comm comm, const dls_move_plan *plan,
                                const uint64_t *before, const void *old_buf, void *new_buf,
                                size_t element_bytes, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_MPI_H */
