/* Synthetic processors with the structures real kernels show (dlsched/kernel.h): smooth
 * rise, cache steps, a blocked kernel's speed by residue, a paging cliff, relative and
 * absolute timing noise. For the tests and demonstrations of dls_bench_build(). */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/internal.h"

/* The kernel's name: also what tells dls_synthetic_speed() a synthetic kernel. */
static const char synthetic_name[] = "synthetic";

/* Largest factor of a step. */
#define DLS__SYNTHETIC_MAX_FACTOR 10.0
/* Largest delay a run may sleep, seconds. */
#define DLS__SYNTHETIC_MAX_DELAY 60.0

typedef struct synthetic {
    dls_synthetic_params p;
    double last_size;
    unsigned rep;
} synthetic;

void dls_synthetic_params_init(dls_synthetic_params *p)
{
    if (p == NULL)
        return;
    memset(p, 0, sizeof *p);
    p->speed = 1e9;
    p->step_width = 0.05;
    p->paging_factor = 10;
}

static double truth(const dls_synthetic_params *p, double x)
{
    double s = p->speed;
    if (p->rise > 0)
        s *= x / (x + p->rise);
    for (size_t k = 0; k < p->steps; k++) {
        /* a logistic transition in log-size, centred on the step */
        double z = (log(x) - log(p->step_size[k])) / p->step_width;
        double w = z > 40 ? 1 : z < -40 ? 0 : 1 / (1 + exp(-z));
        s *= 1 + (p->step_factor[k] - 1) * w;
    }
    if (p->block > 0) {
        /* the last block is computed whole: the share of the padded work wasted */
        double padded = ceil(x / p->block) * p->block;
        s *= 1 - p->block_amplitude * (padded - x) / padded;
    }
    if (p->paging > 0 && x > p->paging)
        s /= p->paging_factor;
    return s;
}

/* A deterministic number in [-1, 1] from a size, a repetition and a stream. */
static double draw(double size, unsigned rep, uint64_t stream)
{
    uint64_t h;
    memcpy(&h, &size, sizeof h);
    h ^= 0x9E3779B97F4A7C15ull * (rep + 1) + stream;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (double)(h >> 11) * 0x1.0p-52 - 1;
}

static double synthetic_run(double size, double *work, void *data)
{
    synthetic *sy = data;
    if (size != sy->last_size) {
        sy->last_size = size;
        sy->rep = 0;
    }
    unsigned rep = sy->rep++;
    const dls_synthetic_params *p = &sy->p;
    double one = size / truth(p, size);
    /* a run shorter than min_run_time is a loop of r, timed at once */
    double r = one < p->min_run_time ? ceil(p->min_run_time / one) : 1;
    double t = (r * one * (1 + p->noise * draw(size, rep, 1)) + p->tick * draw(size, rep, 2));
    if (p->delay > 0) {
        struct timespec ts = {(time_t)p->delay, (long)(1e9 * (p->delay - floor(p->delay)))};
        nanosleep(&ts, NULL);
    }
    *work = size;
    /* a clock that cannot go below its tick: a run shorter than the noise reads as one */
    t = t > p->tick ? t : fmax(p->tick, 1e-300);
    return t / r;
}

static dls_status check(const dls_synthetic_params *p, dls_error *err)
{
    const char *fn = "dls_synthetic_kernel_create";
    dls_status st = DLS__CHECK_RESERVED(p, fn, dls_synthetic_params, err);
    if (st != DLS_OK)
        return st;
    if (!(isfinite(p->speed) && p->speed > 0))
        return dls__fail(err, DLS_EINVAL, fn, "speed must be finite and > 0, not %.10g", p->speed);
    if (!(isfinite(p->rise) && p->rise >= 0))
        return dls__fail(err, DLS_EINVAL, fn, "rise must be finite and >= 0, not %.10g", p->rise);
    if (p->steps > DLS_SYNTHETIC_MAX_STEPS)
        return dls__fail(err, DLS_EINVAL, fn, "steps must be at most %d, not %zu",
                         DLS_SYNTHETIC_MAX_STEPS, p->steps);
    for (size_t k = 0; k < p->steps; k++) {
        if (!(isfinite(p->step_size[k]) && p->step_size[k] > 0) ||
            (k > 0 && !(p->step_size[k] > p->step_size[k - 1])))
            return dls__fail(err, DLS_EINVAL, fn, "step_size[%zu] is %.10g: sizes must be "
                             "finite, > 0 and increasing", k, p->step_size[k]);
        if (!(p->step_factor[k] > 0 && p->step_factor[k] <= DLS__SYNTHETIC_MAX_FACTOR))
            return dls__fail(err, DLS_EINVAL, fn, "step_factor[%zu] must be in (0, %g], not "
                             "%.10g", k, DLS__SYNTHETIC_MAX_FACTOR, p->step_factor[k]);
    }
    if (!(isfinite(p->step_width) && p->step_width > 0))
        return dls__fail(err, DLS_EINVAL, fn, "step_width must be finite and > 0, not %.10g",
                         p->step_width);
    if (!(isfinite(p->block) && p->block >= 0))
        return dls__fail(err, DLS_EINVAL, fn, "block must be finite and >= 0, not %.10g", p->block);
    if (!(p->block_amplitude >= 0 && p->block_amplitude < 1))
        return dls__fail(err, DLS_EINVAL, fn, "block_amplitude must be in [0, 1), not %.10g",
                         p->block_amplitude);
    if (!(isfinite(p->paging) && p->paging >= 0))
        return dls__fail(err, DLS_EINVAL, fn, "paging must be finite and >= 0, not %.10g",
                         p->paging);
    if (!(isfinite(p->paging_factor) && p->paging_factor >= 1))
        return dls__fail(err, DLS_EINVAL, fn, "paging_factor must be finite and >= 1, not "
                         "%.10g", p->paging_factor);
    if (!(p->noise >= 0 && p->noise < 1))
        return dls__fail(err, DLS_EINVAL, fn, "noise must be in [0, 1), not %.10g", p->noise);
    if (!(p->tick >= 0 && p->tick < 1))
        return dls__fail(err, DLS_EINVAL, fn, "tick must be in [0, 1) s, not %.10g", p->tick);
    if (!(p->delay >= 0 && p->delay < DLS__SYNTHETIC_MAX_DELAY))
        return dls__fail(err, DLS_EINVAL, fn, "delay must be in [0, %g) s, not %.10g",
                         DLS__SYNTHETIC_MAX_DELAY, p->delay);
    if (!(p->min_run_time >= 0 && p->min_run_time <= DLS_KERNEL_MAX_MIN_RUN_TIME))
        return dls__fail(err, DLS_EINVAL, fn, "min_run_time must be in [0, %g] s, not %.10g",
                         DLS_KERNEL_MAX_MIN_RUN_TIME, p->min_run_time);
    if (p->integer_sizes != 0 && p->integer_sizes != 1)
        return dls__fail(err, DLS_EINVAL, fn, "integer_sizes must be 0 or 1, not %d",
                         p->integer_sizes);
    return DLS_OK;
}

dls_status dls_synthetic_kernel_create(const dls_synthetic_params *params, dls_kernel *kernel,
                                       dls_error *err)
{
    dls_synthetic_params defaults;
    if (params == NULL) {
        dls_synthetic_params_init(&defaults);
        params = &defaults;
    }
    if (kernel == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_synthetic_kernel_create", "NULL kernel");
    dls_status st = check(params, err);
    if (st != DLS_OK)
        return st;
    synthetic *sy = calloc(1, sizeof *sy);
    if (sy == NULL)
        return dls__oom(err, "dls_synthetic_kernel_create");
    sy->p = *params;
    sy->last_size = NAN;
    memset(kernel, 0, sizeof *kernel);
    kernel->name = synthetic_name;
    kernel->run = synthetic_run;
    kernel->data = sy;
    kernel->integer_sizes = params->integer_sizes;
    kernel->release = free;
    return DLS_OK;
}

double dls_synthetic_speed(const dls_kernel *kernel, double size)
{
    if (kernel == NULL || kernel->name != synthetic_name || kernel->data == NULL)
        return NAN;
    const synthetic *sy = kernel->data;
    return truth(&sy->p, size);
}

/* The name before issue 37's one free, kept for one release. */
void dls_synthetic_kernel_free(dls_kernel *kernel)
{
    if (kernel != NULL && kernel->name == synthetic_name)
        dls_kernel_free(kernel);
}
