/* The built-in kernels, timed through OpenBLAS's cblas_dgemm:
 * - gemm-rows, the striped matrix product of Lastovetsky and Reddy (2007a): C = A B with A an n1 x
 *   n block of rows and B n x n; n1 n^2 multiply-adds;
 * - lu-update, the trailing-matrix update of Lastovetsky and Reddy (2007b): an x by y matrix of b x
 *   b blocks updated by a column of x blocks times a row of y blocks, C -= A B with A (x b) x b and
 *   B b x (y b); x y block updates.
 * A run's work is counted in the size's unit (a row, a block column: the platform format's
 * x / s(x)), or in the kernel's operations with dls_blas_kernel_params::operations (the
 * 2-D speeds of matrix partitions and LU).
 * Matrices are allocated and filled outside the timed region; only dgemm is timed. They are
 * kept for the next run at the same size. A dgemm shorter than min_run_time is repeated in
 * a loop timed at once, the time divided by the repetitions. */
#include <config.h>

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/names.h"
#include "core/internal.h"

/* Defaults of dls_blas_kernel_params. */
#define DLS__GEMM_DEFAULT_N 1024
#define DLS__LU_DEFAULT_X 16
#define DLS__LU_DEFAULT_BLOCK 32

/* OpenBLAS's own thread count (declared in its cblas.h, not in every cblas.h). */
void openblas_set_num_threads(int num_threads);
int openblas_get_num_threads(void);

typedef struct blas_kernel {
    dls_blas_kernel_kind kind;
    size_t fixed;   /* gemm-rows: n; lu-update: x */
    size_t block;   /* lu-update: b */
    unsigned threads; /* OpenBLAS threads during a run; 0: OpenBLAS's own setting */
    double *A, *B, *C; /* the matrices of the last run, filled */
    size_t m, n, kk;   /* their shape: C (m x n) -= A (m x kk) B (kk x n) */
    double min_run;    /* seconds a run lasts at least */
    unsigned loop;     /* dgemms in a run at this shape (0: not known yet) */
    int operations;    /* work in operations (1) or in the size's unit (0) */
} blas_kernel;

/* Repetitions in a run at most (a dgemm of a nanosecond). */
#define DLS__KERNEL_MAX_LOOP 1000000u

static void release_matrices(blas_kernel *k)
{
    free(k->A);
    free(k->B);
    free(k->C);
    k->A = k->B = k->C = NULL;
    k->m = k->n = k->kk = 0;
}

DLS__ENUM_NAMES(dls_blas_kernel_kind, dls_blas_kernel_kind, DLS_BLAS_KERNEL_KIND_MAP)

void dls_blas_kernel_params_init(dls_blas_kernel_params *p)
{
    memset(p, 0, sizeof *p);
    p->block = DLS__LU_DEFAULT_BLOCK;
    p->min_run_time = DLS_KERNEL_DEFAULT_MIN_RUN_TIME;
}

double dls_blas_kernel_default_fixed(dls_blas_kernel_kind kind)
{
    switch (kind) {
    case DLS_KERNEL_GEMM_ROWS:
        return DLS__GEMM_DEFAULT_N;
    case DLS_KERNEL_LU_UPDATE:
        return DLS__LU_DEFAULT_X;
    }
    return 0;
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Deterministic values in [-1, 1): the speed of dgemm does not depend on them, but NaNs and
 * denormals would slow it down, so no uninitialised memory is multiplied. */
static void fill(double *v, size_t n, unsigned seed)
{
    uint32_t s = 2463534242u ^ seed;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v[i] = (double)s / 2147483648.0 - 1.0;
    }
}

static double gemm_memory(double n1, void *data)
{
    const blas_kernel *k = data;
    double n = (double)k->fixed;
    return 8 * (2 * n1 * n + n * n);
}

static double lu_memory(double y, void *data)
{
    const blas_kernel *k = data;
    double x = (double)k->fixed, b = (double)k->block;
    return 8 * b * b * (x + y + x * y);
}

static double blas_run(double size, double *work, void *data)
{
    blas_kernel *k = data;
    size_t m, n, kk; /* C (m x n) -= A (m x kk) B (kk x n) */
    double alpha, beta;
    if (k->kind == DLS_KERNEL_GEMM_ROWS) {
        m = (size_t)size;
        n = kk = k->fixed;
        alpha = 1;
        beta = 0;
        *work = k->operations ? size * (double)k->fixed * (double)k->fixed : size;
    } else {
        m = k->fixed * k->block;
        n = (size_t)size * k->block;
        kk = k->block;
        alpha = -1;
        beta = 1;
        *work = k->operations ? (double)k->fixed * size : size;
    }
    if (m == 0 || n == 0)
        return -1;
    if (k->m != m || k->n != n || k->kk != kk) {
        release_matrices(k);
        k->A = malloc(m * kk * sizeof *k->A);
        k->B = malloc(kk * n * sizeof *k->B);
        k->C = malloc(m * n * sizeof *k->C);
        if (k->A == NULL || k->B == NULL || k->C == NULL) {
            release_matrices(k);
            return -1;
        }
        fill(k->A, m * kk, 1);
        fill(k->B, kk * n, 2);
        fill(k->C, m * n, 3);
        k->m = m;
        k->n = n;
        k->kk = kk;
        k->loop = 0;
    }
    double *A = k->A, *B = k->B, *C = k->C;
    /* OpenBLAS has one thread count for the whole process: set it for this run only, and
     * give the host program its own back */
    int host_threads = k->threads > 0 ? openblas_get_num_threads() : 0;
    if (k->threads > 0)
        openblas_set_num_threads((int)k->threads);
    if (k->loop == 0) {
        /* the first run at this shape: one dgemm sizes the loop */
        double t0 = seconds();
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)kk, alpha, A,
                    (int)kk, B, (int)n, beta, C, (int)n);
        double t1 = seconds() - t0;
        double r = t1 > 0 && t1 < k->min_run ? ceil(k->min_run / t1) : 1;
        k->loop = r < DLS__KERNEL_MAX_LOOP ? (unsigned)r : DLS__KERNEL_MAX_LOOP;
    }
    double t0 = seconds();
    for (unsigned rep = 0; rep < k->loop; rep++)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)kk, alpha, A,
                    (int)kk, B, (int)n, beta, C, (int)n);
    double t = (seconds() - t0) / k->loop;
    if (k->threads > 0)
        openblas_set_num_threads(host_threads);
    return t > 0 ? t : 1e-9;
}

/* A built-in kernel's data: its matrices, then itself. */
static void blas_release(void *data)
{
    release_matrices(data);
    free(data);
}

dls_status dls_blas_kernel_create(dls_blas_kernel_kind kind, const dls_blas_kernel_params *params,
                                  dls_kernel *kernel, dls_error *err)
{
    dls_blas_kernel_params defaults;
    if (params == NULL) {
        dls_blas_kernel_params_init(&defaults);
        params = &defaults;
    }
    if (kernel == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create", "NULL kernel");
    dls_status rs = DLS__CHECK_RESERVED(params, "dls_blas_kernel_create",
                                        dls_blas_kernel_params, err);
    if (rs != DLS_OK)
        return rs;
    if (kind != DLS_KERNEL_GEMM_ROWS && kind != DLS_KERNEL_LU_UPDATE)
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create", "unknown kernel %d", (int)kind);
    double fixed = params->fixed;
    if (fixed == 0)
        fixed = dls_blas_kernel_default_fixed(kind);
    if (!(fixed >= 1 && fixed <= 1e6) || fixed != floor(fixed))
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create",
                         "the fixed size must be a whole " "number in [1, 1e6], not %.10g", fixed);
    if (params->block < 1 || params->block > 4096)
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create", "the block size must be in "
                         "[1, 4096], not %u", params->block);
    if (!(params->min_run_time >= 0 && params->min_run_time <= DLS_KERNEL_MAX_MIN_RUN_TIME))
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create", "min_run_time must be in "
                         "[0, %g] s, not %.10g", DLS_KERNEL_MAX_MIN_RUN_TIME,
                         params->min_run_time);
    if (params->operations != 0 && params->operations != 1)
        return dls__fail(err, DLS_EINVAL, "dls_blas_kernel_create",
                         "operations must be 0 (work in "
                         "the size's unit) or 1 (in the kernel's operations), not %d",
                         params->operations);
    blas_kernel *k = calloc(1, sizeof *k);
    if (k == NULL)
        return dls__oom(err, "dls_blas_kernel_create");
    k->kind = kind;
    k->fixed = (size_t)fixed;
    k->block = params->block;
    k->threads = params->threads;
    k->min_run = params->min_run_time;
    k->operations = params->operations;
    memset(kernel, 0, sizeof *kernel);
    kernel->name = dls_blas_kernel_kind_name(kind);
    kernel->run = blas_run;
    kernel->data = k;
    kernel->integer_sizes = 1;
    kernel->memory = kind == DLS_KERNEL_GEMM_ROWS ? gemm_memory : lu_memory;
    kernel->release = blas_release;
    return DLS_OK;
}

/* The name before issue 37's one free, kept for one release. */
void dls_blas_kernel_free(dls_kernel *kernel)
{
    if (kernel != NULL && kernel->release == blas_release)
        dls_kernel_free(kernel);
}
