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
} dls_kernel;

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
 * @return ::DLS_OK; ::DLS_EINVAL; ::DLS_ENOMEM. Release with dls_model_kernel_free().
 */
DLS_API dls_status dls_model_kernel_create(const dls_model *model, double noise, double delay,
                                           dls_kernel *kernel, dls_error *err);

/** Releases what dls_model_kernel_create() allocated. */
DLS_API void dls_model_kernel_free(dls_kernel *kernel);

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
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(48);
} dls_blas_kernel_params;

/** Fills @p params with the defaults. */
DLS_API void dls_blas_kernel_params_init(dls_blas_kernel_params *params);

/**
 * The built-in kernels: X(NAME, value, text).
 * - GEMM_ROWS: the striped matrix product of paper 000: an n1 x n block of rows times an
 *   n x n matrix (cblas_dgemm); size n1 rows; speed in multiply-adds per second,
 *   n1 n^2 / time;
 * - LU_UPDATE: the trailing-matrix update of paper 001: an x by y matrix of b x b blocks
 *   updated by a column of x blocks times a row of y blocks (cblas_dgemm); size y blocks
 *   for the fixed x; speed in block updates per second, x y / time.
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

/** The name of @p kind: "gemm-rows" or "lu-update"; "unknown" otherwise. */
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
 * @param[out] kernel receives the kernel; release it with dls_blas_kernel_free()
 * @return ::DLS_OK; ::DLS_EINVAL for bad parameters; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_blas_kernel_create(dls_blas_kernel_kind kind,
                                          const dls_blas_kernel_params *params,
                                          dls_kernel *kernel, dls_error *err);

/** Releases what dls_blas_kernel_create() allocated. */
DLS_API void dls_blas_kernel_free(dls_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_KERNEL_H */
