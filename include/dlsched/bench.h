/**
 * @file dlsched/bench.h
 * @brief Building functional performance models by measurement (Lastovetsky and Reddy 2007a, 2007b
 * and 2005).
 *
 * A kernel is timed at a few well-chosen problem sizes. At each size a warm-up run is
 * discarded, then the kernel is repeated until the Student-t confidence interval of the mean
 * time is within a given precision of the mean (or a time cap for that size is reached).
 * The point keeps the mean speed and its band [low, high]: the speeds observed, widened to
 * where a single new run is expected (the prediction interval at the same confidence
 * level). A run must be long enough to time: the built-in kernels repeat a short run in a
 * loop and divide (dls_blas_kernel_params::min_run_time); a kernel of the caller's should
 * do the same.
 *
 * The sizes are chosen adaptively, after the papers' geometric bisection procedure:
 * - the whole reachable range first: a ladder of log-spaced sizes from the smallest upwards,
 *   each run's cost predicted from the largest size measured so far; with a time budget the
 *   top is the largest size a share of the budget affords (the limit itself when it can),
 *   and it is raised again whenever a better estimate affords more;
 * - then the intervals between the model's points, the one of largest error times width (in
 *   log-size, weighted towards the large sizes, where memory levels and paging change the
 *   speed) first: its geometric midpoint is measured, and the interval is accepted when its
 *   straight line predicts the midpoint within the model's accuracy
 *   (dls_bench_params::accuracy) or the midpoint's band, whichever is wider. Otherwise two
 *   probes beside the midpoint (at the size resolution) tell structure the model can follow
 *   (the midpoint becomes a point, both halves are examined in turn) from structure finer
 *   than the resolution (the interval is accepted and the bands of its ends are widened to
 *   hold what was measured there). Intervals narrower than the resolution are not split;
 * - optionally, held-out sizes that the model never saw, measured at the end and compared
 *   with the model (dls_bench_params::validate, dls_bench_held_out()).
 * The build stops when every interval is accepted (converged), or at the cap of points
 * measured, the cap of the model's points, or the time budget; dls_bench_get_summary() says
 * which, the range measured and where the model is extrapolated.
 *
 * Speeds are in the work the kernel reports per second (the built-in kernels: their
 * size's unit, rows or block columns, unless asked for their operations; the caller's
 * units), sizes in the kernel's size unit.
 */
#ifndef DLSCHED_BENCH_H
#define DLSCHED_BENCH_H

#include <dlsched/common.h>
#include <dlsched/kernel.h>
#include <dlsched/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One measured point. */
typedef struct dls_bench_point {
    double size;      /**< problem size */
    double speed;     /**< mean work / mean time, units per second */
    double low;       /**< the band's lower edge: the lowest speed observed or expected */
    double high;      /**< the band's upper edge: the highest speed observed or expected */
    double time;      /**< mean time of one run, seconds */
    double ci;        /**< half-width of the confidence interval of the mean time, seconds */
    unsigned reps;    /**< runs measured (the warm-up not counted) */
    /** Zero; room for later figures, so that the record's size never changes. */
    unsigned char reserved[76];
} dls_bench_point;

/** What is happening, for progress displays. */
typedef struct dls_bench_progress {
    size_t points;         /**< points measured so far */
    size_t max_points;     /**< the cap */
    double size;           /**< size being measured now */
    unsigned rep;          /**< repetition in progress at that size */
    double elapsed;        /**< seconds since the start */
    double estimated;      /**< estimated seconds until the end (NaN when unknown) */
} dls_bench_progress;

/** What dls_bench_params::on_run is told before every run; a nonzero return cancels. */
typedef int (*dls_bench_run_fn)(const dls_bench_progress *progress, void *data);

/** The confidence level of the measurements' intervals and bands by default (also that of the
 *  bands dlsched/import.h derives from other tools' timings). */
#define DLS_BENCH_DEFAULT_CONFIDENCE 0.95

/** Parameters of dls_bench_build(); fill with dls_bench_params_init(). */
typedef struct dls_bench_params {
    double min_size;        /**< smallest size, > 0; default 1 */
    /** Largest size; 0 (default) to derive it from the kernel's memory formula and the memory
     *  available (MemAvailable of /proc/meminfo) times @ref memory_fraction. */
    double max_size;
    double memory_fraction; /**< share of the available memory a run may use; default 0.5 */
    double precision;       /**< relative half-width of the confidence interval; default 0.05 */
    double confidence;      /**< confidence level of that interval, in (0, 1); default
                             *  ::DLS_BENCH_DEFAULT_CONFIDENCE */
    unsigned min_reps;      /**< runs at least, >= 2; default 3 */
    unsigned max_reps;      /**< runs at most; default 50 */
    double size_time_cap;   /**< seconds spent at one size at most; default 10 */
    size_t initial_points;  /**< sizes measured first, >= 2, log-spaced; default 5 */
    size_t max_points;      /**< points measured at most (the model keeps fewer); default 40 */
    double time_budget;     /**< seconds for the whole build, 0 for none; default 0 */
    /** Measure every point this many times, one pass after the other (while the time budget
     *  lasts), each point's band being the union of its passes: the bands then hold the
     *  fluctuations slower than a point's consecutive runs (a machine's load changing), and
     *  intervals are checked again against them. In [1, 100]; default 1. */
    unsigned passes;
    /** Called when a point is known, before the next measurement starts (append it to a log
     *  there); NULL for none. A nonzero return cancels the build. */
    int (*on_point)(const dls_bench_point *point, void *data);
    void *on_point_data; /**< passed to on_point */
    /** Called before every run with what is being measured (for progress displays); NULL
     *  (default) for none. A nonzero return cancels the build. */
    dls_bench_run_fn on_run;
    void *on_run_data;      /**< passed to @ref on_run */
    /** Called before every run with the estimated fraction of the build done; NULL
     *  (default) for none. A nonzero return cancels the build. */
    dls_progress_fn progress;
    void *progress_data;    /**< passed to @ref progress */
    /** Points measured before (read back from a log) that are used instead of measuring their
     *  sizes again; NULL for none. */
    const dls_bench_point *resume;
    size_t resume_count;    /**< length of @ref resume */
    /** The model's accuracy, relative, in (0, 1): an interval is accepted when its straight
     *  line predicts the speed at its midpoint within this fraction or within the
     *  midpoint's band, whichever is wider; default ::DLS_BENCH_DEFAULT_ACCURACY. Apart
     *  from @ref precision (the measurement's), so that precise timings do not make the
     *  model chase structure it cannot follow. */
    double accuracy;
    /** The size resolution, relative, in (0, 1): an interval whose ends are closer than a
     *  factor 1 + resolution is not split, and the probes that tell fine structure from
     *  real structure are measured that far from a midpoint; default
     *  ::DLS_BENCH_DEFAULT_RESOLUTION. */
    double resolution;
    /** Points the model keeps at most, in [@ref initial_points, @ref max_points]; 0 (default)
     *  for ::DLS_BENCH_DEFAULT_MODEL_POINTS (or max_points when smaller). */
    size_t max_model_points;
    /** Held-out sizes measured after the build, log-spaced within the range measured and
     *  apart from every size the build measured, and compared with the model (see
     *  dls_bench_held_out()); at most ::DLS_BENCH_MAX_VALIDATE; default 0. With a time
     *  budget the build leaves them a share of it. */
    size_t validate;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(72);
} dls_bench_params;

/** Default of dls_bench_params::accuracy: 5%, the load imbalance a partition may inherit. */
#define DLS_BENCH_DEFAULT_ACCURACY 0.05
/** Default of dls_bench_params::resolution: sizes 10% apart. */
#define DLS_BENCH_DEFAULT_RESOLUTION 0.1
/** Default of dls_bench_params::max_model_points. */
#define DLS_BENCH_DEFAULT_MODEL_POINTS 12
/** Largest dls_bench_params::validate. */
#define DLS_BENCH_MAX_VALIDATE 1000

/** Fills @p params with the defaults. */
DLS_API void dls_bench_params_init(dls_bench_params *params);

/** The outcome of a build (opaque). */
typedef struct dls_bench dls_bench;

/** Why a build stopped: X(NAME, value, text). */
#define DLS_BENCH_STOP_MAP(X)                                                       \
    X(CONVERGED, 0, "converged")    /* every interval agrees with its midpoint */    \
    X(MAX_POINTS, 1, "max points")  /* the point cap was reached */                  \
    X(BUDGET, 2, "time budget")     /* the time budget ran out */                    \
    X(MODEL_POINTS, 3, "model points") /* the model's point cap was reached */

/** Why a measurement stopped: see ::DLS_BENCH_STOP_MAP. */
typedef enum dls_bench_stop {
#define DLS_BENCH_STOP_ENUM_(name, value, text) DLS_BENCH_##name = value,
    DLS_BENCH_STOP_MAP(DLS_BENCH_STOP_ENUM_)
#undef DLS_BENCH_STOP_ENUM_
} dls_bench_stop;
/* The values, one by one (the list above makes them). */
/** @var DLS_BENCH_CONVERGED
 *  Every interval agrees with its midpoint. Value 0, named "converged" (::DLS_BENCH_STOP_MAP). */
/** @var DLS_BENCH_MAX_POINTS
 *  The point cap was reached. Value 1, named "max points" (::DLS_BENCH_STOP_MAP). */
/** @var DLS_BENCH_BUDGET
 *  The time budget ran out. Value 2, named "time budget" (::DLS_BENCH_STOP_MAP). */
/** @var DLS_BENCH_MODEL_POINTS
 *  The model's point cap (dls_bench_params::max_model_points) was reached with intervals
 *  still disagreeing (their ends' bands widened to hold the midpoints). Value 3, named
 *  "model points" (::DLS_BENCH_STOP_MAP). */

/** The name of @p stop: "converged", "max points", "time budget" or "model points";
 *  "unknown" otherwise. A static string; never freed. */
DLS_API const char *dls_bench_stop_name(dls_bench_stop stop);

/** The reason whose dls_bench_stop_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_bench_stop_from_name(const char *name, dls_bench_stop *out);

/**
 * Builds the speed function of @p kernel on this machine.
 * @param[out] out receives the result; unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for bad parameters (including max_size 0 for a kernel
 *         without a memory formula); ::DLS_EIO when /proc/meminfo cannot be read or a run
 *         fails (the message names the size); ::DLS_ECANCELED when a callback asked to stop
 *         (the points measured so far were all passed to on_point); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_bench_build(const dls_kernel *kernel, const dls_bench_params *params,
                                   dls_bench **out, dls_error *err);

/** Frees a result; NULL is allowed. */
DLS_API void dls_bench_free(dls_bench *bench);

/** The model: a points speed model with bands, through the points kept (an interval whose
 *  midpoint agreed keeps only its ends). Owned by the result. Valid until @p bench is freed. */
DLS_API const dls_model *dls_bench_model(const dls_bench *bench);

/** The largest size measured (the upper bound), to use as the processor's limit. */
DLS_API double dls_bench_limit(const dls_bench *bench);

/** Every point measured, by increasing size (kept or not), and their number. Valid until @p bench
 *  is freed. */
DLS_API const dls_bench_point *dls_bench_points(const dls_bench *bench, size_t *count);

/** Why the build stopped. */
DLS_API dls_bench_stop dls_bench_stopped(const dls_bench *bench);

/** With a time budget: the size the budget brought the largest measurement down to (the
 *  model extrapolates the last speed from there up to the limit), or 0 when the range was
 *  measured up to the limit (see also dls_bench_get_summary()). */
DLS_API double dls_bench_budget_top(const dls_bench *bench);

/** Seconds the build took (runs included). */
DLS_API double dls_bench_elapsed(const dls_bench *bench);

/** A true account of a build: what stopped it, what was measured, where the model is
 *  extrapolated and why, and how it did on held-out sizes. Filled by
 *  dls_bench_get_summary(); the library may add fields in the reserved tail. */
typedef struct dls_bench_summary {
    dls_bench_stop stop;   /**< what stopped the build */
    size_t measured;       /**< sizes measured for the model (held-out sizes apart) */
    size_t kept;           /**< points the model keeps */
    double smallest;       /**< the smallest size measured */
    double largest;        /**< the largest size measured: the model is measured up to here */
    double limit;          /**< the largest size the kernel may take (dls_bench_limit()) */
    /** 1 when largest < limit because the time budget afforded no larger size (the model
     *  keeps the speed measured at largest from there to the limit); 0 when the limit
     *  itself was measured. */
    int top_by_budget;
    /** Seconds of one run at the largest size (the mean time of its samples). */
    double top_run_time;
    /** Intervals accepted although their midpoint disagreed, because the disagreement was
     *  finer than the resolution or the model's point cap was reached: their ends' bands
     *  were widened to hold what was measured there. */
    size_t fine;
    /** The largest such disagreement, relative to the midpoint's speed; 0 when none. */
    double fine_error;
    /** Model points whose band was widened, and the largest widening, relative to their
     *  speed (0 when none). */
    size_t widened;
    double widening; /**< see @ref widened */
    /** Intervals left unexamined because their midpoint would not fit the time budget, or
     *  because a cap stopped the build first. */
    size_t unexamined;
    /** Held-out sizes measured (dls_bench_params::validate asked for; fewer when the
     *  budget ran out), how many the model predicts within its accuracy or its band, and
     *  the largest relative error |model - measured| / measured among them (0 when none). */
    size_t held_out;
    size_t within;   /**< see @ref held_out */
    double held_out_error; /**< see @ref held_out */
    double elapsed;  /**< seconds the build took */
    /** Zero; room for later figures. */
    unsigned char reserved[120];
} dls_bench_summary;

/** The account of @p bench.
 *  @return ::DLS_OK; ::DLS_EINVAL for a NULL argument (@p out untouched). */
DLS_API dls_status dls_bench_get_summary(const dls_bench *bench, dls_bench_summary *out);

/** A held-out size: what was measured there and what the model says. */
typedef struct dls_bench_check {
    double size;       /**< the size, never one the model was built from */
    double speed;      /**< measured, units per second */
    double low;        /**< the measurement's band (see ::dls_bench_point) */
    double high;       /**< see @ref low */
    double predicted;  /**< the model's speed there */
    double model_low;  /**< the model's band there (the speed itself without bands) */
    double model_high; /**< see @ref model_low */
    double error;      /**< |predicted - speed| / speed */
    /** 1 when the model holds it: error within the accuracy, the measured speed inside the
     *  model's band, or the prediction inside the measurement's band; else 0. */
    int within;
} dls_bench_check;

/** The held-out sizes of the build (dls_bench_params::validate), by increasing size, and
 *  their number; NULL with 0 when none. Owned by the result. Valid until @p bench is freed. */
DLS_API const dls_bench_check *dls_bench_held_out(const dls_bench *bench, size_t *count);

/**
 * Measures @p kernel at the given sizes (as dls_bench_measure()) and compares each with
 * @p model, as the build does with its held-out sizes: to check a model built earlier, or
 * read from a platform file, on this machine now.
 * @param model a 1-D model
 * @param params NULL for the defaults; accuracy decides what is within
 * @param sizes @p count sizes, finite and > 0
 * @param checks receives @p count checks, in the order of @p sizes
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EIO when a run fails; ::DLS_ECANCELED;
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_bench_validate(const dls_kernel *kernel, const dls_model *model,
                                      const dls_bench_params *params, const double *sizes,
                                      size_t count, dls_bench_check *checks, dls_error *err);

/**
 * Measures @p kernel at the given sizes, with the statistics of dls_bench_build() (warm-up,
 * repetitions until the confidence interval is tight enough) but no choice of sizes: to
 * complete a 2-D surface at sizes found for one of its rows, for instance. Points of
 * params->resume are reused; params->on_point, on_run and progress are called.
 * @param sizes @p count sizes, finite and > 0
 * @param points receives @p count points, in the order of @p sizes
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_EIO when a run fails; ::DLS_ECANCELED; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_bench_measure(const dls_kernel *kernel, const dls_bench_params *params,
                                     const double *sizes, size_t count, dls_bench_point *points,
                                     dls_error *err);

/* ---------------------------------------------------------------------------------- */
/* Surfaces: speed functions of two parameters                                        */

/**
 * The kernels of a surface's rows: one kernel for each value of a second parameter, fixed
 * while the size varies (the matrix order n of gemm-rows, the height x of lu-update).
 */
typedef struct dls_kernel_family {
    /** Creates in @p kernel the kernel whose fixed parameter is @p value; returns ::DLS_OK,
     *  or another status with @p err filled (which may be NULL). Required. */
    dls_status (*create)(double value, dls_kernel *kernel, void *data, dls_error *err);
    /** Releases what @ref create made; called once for each kernel created. NULL when there
     *  is nothing to release. */
    void (*release)(dls_kernel *kernel, void *data);
    void *data;   /**< passed to @ref create and @ref release */
} dls_kernel_family;

/** Parameters of dls_bench_build_surface(); fill with dls_bench_surface_params_init(). */
typedef struct dls_bench_surface_params {
    /** How each row is measured: the statistics and the choice of sizes of
     *  dls_bench_build(), with its defaults. max_size 0 (default) takes the largest size
     *  that fits the memory in every row (the most demanding row decides). resume holds the
     *  resumed points of every row, @ref resume_fixed says which. on_point and on_run,
     *  with their counts of points, apply to the row being measured; progress to the whole
     *  surface. */
    dls_bench_params bench;
    /** The row of each resumed point: bench.resume_count values of the fixed parameter
     *  (a point is reused only in the row of exactly that value); NULL when
     *  bench.resume_count is 0 (default). */
    const double *resume_fixed;
    /** Called before each row is measured, with its place @p row in the order of
     *  measurement (0 for the middle row, which is measured first, then the others by
     *  increasing value), the number of rows and the row's value; NULL (default) for none.
     *  A nonzero return cancels. */
    int (*on_row)(size_t row, size_t rows, double value, void *data);
    void *on_row_data;      /**< passed to @ref on_row */
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(232);
} dls_bench_surface_params;

/** Fills @p params with the defaults (those of dls_bench_params_init() for bench). */
DLS_API void dls_bench_surface_params_init(dls_bench_surface_params *params);

/**
 * Builds the 2-D speed function s(x, y) of a family of kernels on this machine: x is the
 * kernels' fixed parameter, y their size. The sizes are chosen by dls_bench_build() on the
 * middle row (values[count / 2]): the points its model keeps become the y grid; every other
 * row is then measured at those sizes with dls_bench_measure(). Each row's kernel is created
 * just before the row is measured and released right after.
 * @param family the kernels of the rows
 * @param values the values of the fixed parameter, @p count finite values > 0, strictly
 *        increasing (the x grid)
 * @param count the number of rows, >= 2
 * @param params NULL for the defaults
 * @param[out] out receives a ::DLS_MODEL_SPEED2D model (speeds in the kernels' units per
 *        second, values[i * ny + j] = s(x[i], y[j])); unchanged on failure
 * @param err receives the message on failure; may be NULL
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, a bad value, or a parameter out of
 *         its range (the message names it and its value; nothing is measured and no kernel
 *         is created), for a kernel without a memory formula when bench.max_size is 0, or
 *         as family->create returns it; ::DLS_EIO when /proc/meminfo cannot be read or a run
 *         fails (the message names the size); ::DLS_ECANCELED when a callback asked to stop
 *         (the points measured so far were all passed to on_point); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_bench_build_surface(const dls_kernel_family *family, const double *values,
                                           size_t count, const dls_bench_surface_params *params,
                                           dls_model **out, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_BENCH_H */
