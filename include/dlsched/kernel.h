/**
 * @file dlsched/kernel.h
 * @brief The kernels that dls_bench_build() measures: the callback type, a simulated kernel
 * with a given speed function, the built-in kernels (OpenBLAS), and the memory available.
 *
 * A kernel runs the work of a problem size once and reports how long it took; the caller's
 * own code becomes a kernel by filling a ::dls_kernel.
 */
#ifndef DLSCHED_KERNEL_H
#define DLSCHED_KERNEL_H

#include <dlsched/common.h>
#include <dlsched/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Runs the work of @p size units once and says how long it took.
 * @param size the problem size, > 0 (whole numbers when the kernel asks for them)
 * @param work receives the amount of work done in the speed's unit (speed = work / time);
 *        for most kernels the size itself
 * @param data the pointer given with the kernel
 * @return the time in seconds (> 0), or a negative number when the run failed
 */
typedef double (*dls_kernel_run)(double size, double *work, void *data);

/** A kernel to measure. */
typedef struct dls_kernel {
    const char *name;         /**< short name, for messages and default processor names */
    dls_kernel_run run;       /**< runs and times one execution */
    void *data;               /**< passed to @ref run */
    int integer_sizes;        /**< 1: sizes are whole numbers (rows, blocks) */
    /** Bytes the kernel needs at a size, or NULL when unknown: with it, the largest size
     *  that fits in the memory available is found. */
    double (*memory)(double size, void *data);
    /** Frees @ref data, or NULL when the caller owns it: set by the library's kernel
     *  constructors, and called by dls_kernel_free(). */
    void (*release)(void *data);
    /** Zero (start from a zeroed record: `{0}`, designated initialisers or memset): room for
     *  later fields. The measurements refuse a kernel whose reserved bytes are not zero. */
    DLS_PARAMS_RESERVED(48);
} dls_kernel;

/** Releases what a kernel constructor (dls_model_kernel_create(), dls_synthetic_kernel_create(),
 *  dls_blas_kernel_create()) allocated, through dls_kernel::release, and clears @p kernel's
 *  data and release; a kernel whose release is NULL (the caller's own) is left as it is.
 *  NULL is allowed. */
DLS_API void dls_kernel_free(dls_kernel *kernel);

/**
 * The memory available to processes in bytes: MemAvailable of /proc/meminfo.
 * @return ::DLS_OK; ::DLS_EIO when it cannot be read.
 */
DLS_API dls_status dls_memory_available(double *bytes, dls_error *err);

/**
 * A simulated kernel whose speed function is @p model: a run at size x reports x / s(x)
 * seconds, perturbed by a relative noise in [-noise, noise] that depends only on the size and
 * the repetition (so builds are reproducible, and a resumed build sees what an uninterrupted
 * one saw), after sleeping @p delay seconds. For tests, demonstrations and simulations.
 * @param model a 1-D model (copied)
 * @param noise in [0, 1)
 * @param delay real seconds per run, in [0, 60)
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_ENOMEM. Release with dls_kernel_free().
 */
DLS_API dls_status dls_model_kernel_create(const dls_model *model, double noise, double delay,
                                           dls_kernel *kernel, dls_error *err);

/** @deprecated Releases what dls_model_kernel_create() allocated: use dls_kernel_free(),
 *  which frees every kernel; kept for one release. */
DLS_API void dls_model_kernel_free(dls_kernel *kernel)
    DLS_DEPRECATED("use dls_kernel_free");

/** Cache steps a synthetic processor can have at most. */
#define DLS_SYNTHETIC_MAX_STEPS 4

/**
 * A synthetic processor with the structures real kernels show, for tests and
 * demonstrations of dls_bench_build(): its speed at size x is
 * speed x rise(x) x steps(x) x block(x) x paging(x), where
 * - rise(x) = x / (x + rise): the smooth rise of a kernel whose start-up costs as much as
 *   `rise` units of work (1 when rise is 0);
 * - steps(x): the speed multiplied by step_factor[k] past step_size[k] (a cache level
 *   left), over a transition step_width wide in log-size;
 * - block(x) = 1 - block_amplitude (P - x) / P, P = x rounded up to a multiple of block:
 *   a blocked kernel that computes its last block whole, fastest at multiples of the
 *   block, the more so the fewer blocks (1 when block is 0);
 * - paging(x): the speed divided by paging_factor past `paging` (a cliff, no transition).
 * Each run reports x / s(x) seconds, times 1 + noise u (u uniform in [-1, 1]), plus
 * tick v seconds (v in [-1, 1]; at least tick in all): the resolution of a clock, which
 * makes runs of a few microseconds unreliable unless repeated in a loop; with
 * min_run_time the run is that loop, as the built-in kernels do: r repetitions timed at
 * once (r x s x-time, its noise and one tick), the time divided by r. The draws depend only on the size and
 * the repetition, so builds are reproducible and a resumed build sees what an uninterrupted
 * one saw. Fill with dls_synthetic_params_init(); NULL means its defaults.
 */
typedef struct dls_synthetic_params {
    double speed;       /**< the peak speed, units per second, > 0; default 1e9 */
    double rise;        /**< units of work the start-up costs, >= 0; default 0 */
    size_t steps;       /**< cache steps, 0 .. ::DLS_SYNTHETIC_MAX_STEPS; default 0 */
    /** where each step is, increasing sizes > 0 */
    double step_size[DLS_SYNTHETIC_MAX_STEPS];
    /** the factor of each step, in (0, 10] */
    double step_factor[DLS_SYNTHETIC_MAX_STEPS];
    double step_width;  /**< width of a step in log-size (natural), > 0; default 0.05 */
    double block;       /**< the block of the modulo structure, >= 0 (0: none); default 0 */
    double block_amplitude; /**< the dip between multiples of the block, in [0, 1); default 0 */
    double paging;      /**< the size past which it pages, >= 0 (0: never); default 0 */
    double paging_factor; /**< how much slower it pages, >= 1; default 10 */
    double noise;       /**< relative noise of each run, in [0, 1); default 0 */
    double tick;        /**< absolute noise of each run, seconds, in [0, 1); default 0 */
    double delay;       /**< real seconds each run sleeps, in [0, 60); default 0 */
    int integer_sizes;  /**< 1: whole sizes (the kernel's dls_kernel::integer_sizes) */
    /** Seconds a run lasts at least: a shorter one is repeated in a loop timed at once
     *  (see above), in [0, 10]; default 0 */
    double min_run_time;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(88);
} dls_synthetic_params;

/** Fills @p params with the defaults: a constant 1e9 units per second, exact times. */
DLS_API void dls_synthetic_params_init(dls_synthetic_params *params);

/**
 * Creates the synthetic processor of @p params (see ::dls_synthetic_params).
 * @param[out] kernel receives it; release it with dls_kernel_free()
 * @return ::DLS_OK; ::DLS_EINVAL for a parameter out of its range (the message names it
 *         and its value; @p kernel untouched); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_synthetic_kernel_create(const dls_synthetic_params *params,
                                               dls_kernel *kernel, dls_error *err);

/** The speed of the synthetic processor @p kernel at @p size (no noise): its truth, to
 *  compare a model with. NaN for a kernel that dls_synthetic_kernel_create() did not make. */
DLS_API double dls_synthetic_speed(const dls_kernel *kernel, double size);

/** @deprecated Releases what dls_synthetic_kernel_create() allocated: use dls_kernel_free(),
 *  which frees every kernel; kept for one release. */
DLS_API void dls_synthetic_kernel_free(dls_kernel *kernel)
    DLS_DEPRECATED("use dls_kernel_free");

/* ---------------------------------------------------------------------------------- */
/* The built-in kernels (OpenBLAS)                                                    */

/** Parameters of the built-in kernels. */
typedef struct dls_blas_kernel_params {
    /** gemm-rows: the matrix order n (the rows' length), default 1024; lu-update: the height
     *  x of the trailing matrix in blocks for a 1-D function of its width y (0 for the
     *  default, 16). */
    double fixed;
    unsigned block;      /**< lu-update: block size b, default 32 */
    unsigned threads;    /**< OpenBLAS threads during each run; 0 (default) leaves OpenBLAS's
                          *   setting. OpenBLAS keeps one count for the whole process: it is
                          *   set for the run and set back after it, so other threads that
                          *   call OpenBLAS during a run see this count. */
    /** Seconds a run must last at least, in [0, 10]: a dgemm shorter than this is repeated
     *  in a loop inside one timed region and the time divided by the repetitions, so that a
     *  run is long against the clock's resolution and the start of OpenBLAS's threads;
     *  0 for single calls; default ::DLS_KERNEL_DEFAULT_MIN_RUN_TIME. */
    double min_run_time;
    /** What a run's work (the speed's unit) counts: 0 (default) the size's own unit, rows
     *  of gemm-rows and block columns of lu-update, so that x units take x / s(x) seconds
     *  as the platform format says (dlsched-platform(5)); 1: the kernel's operations,
     *  n1 n^2 multiply-adds of gemm-rows and x y block updates of lu-update, the unit of
     *  the 2-D speeds that matrix partitions (dls_partition_solve_matrix()) and LU
     *  distributions read. */
    int operations;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(36);
} dls_blas_kernel_params;

/** Default of dls_blas_kernel_params::min_run_time, seconds: thousands of times the
 *  resolution of the clocks and the wake-up of a thread. */
#define DLS_KERNEL_DEFAULT_MIN_RUN_TIME 0.005
/** Largest min_run_time of the built-in kernels, seconds. */
#define DLS_KERNEL_MAX_MIN_RUN_TIME 10.0

/** Fills @p params with the defaults. */
DLS_API void dls_blas_kernel_params_init(dls_blas_kernel_params *params);

/**
 * The built-in kernels: X(NAME, value, text).
 * - GEMM_ROWS: the striped matrix product of Lastovetsky and Reddy (2007a): an n1 x n block of rows
 *   times an n x n matrix (cblas_dgemm); size n1 rows; speed in rows per second, n1 / time (with
 *   dls_blas_kernel_params::operations, multiply-adds per second, n1 n^2 / time);
 * - LU_UPDATE: the trailing-matrix update of Lastovetsky and Reddy (2007b): an x by y matrix of b x
 *   b blocks updated by a column of x blocks times a row of y blocks (cblas_dgemm); size y blocks
 *   for the fixed x; speed in block columns per second, y / time (with operations, block
 *   updates per second, x y / time).
 */
#define DLS_BLAS_KERNEL_KIND_MAP(X)   \
    X(GEMM_ROWS, 0, "gemm-rows")      \
    X(LU_UPDATE, 1, "lu-update")

/** A built-in kernel: see ::DLS_BLAS_KERNEL_KIND_MAP. */
typedef enum dls_blas_kernel_kind {
#define DLS_BLAS_KERNEL_KIND_ENUM_(name, value, text) DLS_KERNEL_##name = value,
    DLS_BLAS_KERNEL_KIND_MAP(DLS_BLAS_KERNEL_KIND_ENUM_)
#undef DLS_BLAS_KERNEL_KIND_ENUM_
} dls_blas_kernel_kind;
/* The values, one by one (the list above makes them). */
/** @var DLS_KERNEL_GEMM_ROWS
 *  Value 0, named "gemm-rows" (::DLS_BLAS_KERNEL_KIND_MAP). */
/** @var DLS_KERNEL_LU_UPDATE
 *  Value 1, named "lu-update" (::DLS_BLAS_KERNEL_KIND_MAP). */

/** The name of @p kind: "gemm-rows" or "lu-update"; "unknown" otherwise. A static string; never
 *  freed. */
DLS_API const char *dls_blas_kernel_kind_name(dls_blas_kernel_kind kind);

/** The kernel whose dls_blas_kernel_kind_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_blas_kernel_kind_from_name(const char *name, dls_blas_kernel_kind *out);

/**
 * The fixed parameter a built-in kernel takes when dls_blas_kernel_params::fixed is 0:
 * the matrix order n of ::DLS_KERNEL_GEMM_ROWS (1024), the height x in blocks of
 * ::DLS_KERNEL_LU_UPDATE (16).
 * @return that value; 0 for an unknown @p kind.
 */
DLS_API double dls_blas_kernel_default_fixed(dls_blas_kernel_kind kind);

/**
 * Creates a built-in kernel. Its matrices are allocated for each run (the sizes vary) and
 * filled with deterministic values.
 * @param[out] kernel receives the kernel; release it with dls_kernel_free()
 * @return ::DLS_OK; ::DLS_EINVAL for bad parameters; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_blas_kernel_create(dls_blas_kernel_kind kind,
                                          const dls_blas_kernel_params *params,
                                          dls_kernel *kernel, dls_error *err);

/** @deprecated Releases what dls_blas_kernel_create() allocated: use dls_kernel_free(),
 *  which frees every kernel; kept for one release. */
DLS_API void dls_blas_kernel_free(dls_kernel *kernel)
    DLS_DEPRECATED("use dls_kernel_free");

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_KERNEL_H */
