/* Building speed functions by measurement: repeated timings with confidence intervals at
 * each size, and the adaptive choice of sizes (see dlsched/bench.h). */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

#include "core/names.h"
#include "core/internal.h"
#include "core/grow.h"
#include "core/stats.h"
#include "measure/measure.h"

/* Defaults of dls_bench_params. */
#define DLS__BENCH_DEFAULT_PRECISION 0.05
#define DLS__BENCH_DEFAULT_MIN_REPS 3
#define DLS__BENCH_DEFAULT_MAX_REPS 50
#define DLS__BENCH_DEFAULT_SIZE_CAP 10.0
#define DLS__BENCH_DEFAULT_INITIAL 5
/* With a time budget, a size is measured only if its warm-up and minimum repetitions,
 * extrapolated from the largest size measured so far, take at most this share of the
 * budget left; a larger end of the range is brought down to what fits. */
#define DLS__BENCH_BUDGET_SHARE 0.25
/* The share of the time budget the build leaves to its held-out sizes. */
#define DLS__BENCH_VALIDATE_SHARE 0.2
/* The top is raised only to a size at least this factor above the one measured (a point
 * for less would spend the budget on what the model already knows). */
#define DLS__BENCH_TOP_STEP 1.25
/* Probes agree with a midpoint when they deviate from the interval's line on the same side
 * by at least this fraction of the midpoint's deviation. */
#define DLS__BENCH_PROBE_AGREE 0.5
/* The upper part of an interval whose midpoint agreed is tested on its own while it spans
 * at least this factor. */
#define DLS__BENCH_SUBTEST 2.0
/* A widened band keeps at least this fraction of the speed as its lower edge. */
#define DLS__BENCH_BAND_FLOOR 1e-3
#define DLS__BENCH_DEFAULT_MAX_POINTS 64
#define DLS__BENCH_DEFAULT_MEMORY_FRACTION 0.5
/* Passes over the points at most. */
#define DLS__BENCH_MAX_PASSES 100
/* Two sizes closer than this (relatively) are the same size, e.g. when resuming. */
#define DLS__BENCH_SAME_SIZE 1e-12
/* The search of the largest size that fits the memory: doubling up to this size at most,
 * then bisection steps at most, until the bracket is this narrow (relatively). */
#define DLS__BENCH_SEARCH_TOP 1e300
#define DLS__BENCH_SEARCH_STEPS 200
#define DLS__BENCH_SEARCH_TOL 1e-12

/* What a measured point is to the build. */
enum { ROLE_TESTED = 0, ROLE_KEPT = 1, ROLE_PROBE = 2 };

struct dls_bench {
    dls_bench_point *points;  /* every point measured, by increasing size */
    unsigned char *kept;      /* the role of each point (ROLE_*) */
    double *blo, *bhi;        /* the band the model gives at each kept point (widened) */
    size_t n, cap;
    dls_model *model;
    double limit;
    dls_bench_stop stop;
    double elapsed;
    double measured_top;      /* the budget brought the largest size down to this (0: no) */
    dls_bench_summary sum;
    dls_bench_check *checks;  /* the held-out sizes */
    size_t nchecks;
};

DLS__ENUM_NAMES(dls_bench_stop, dls_bench_stop, DLS_BENCH_STOP_MAP)

void dls_bench_params_init(dls_bench_params *p)
{
    memset(p, 0, sizeof *p);
    p->min_size = 1;
    p->memory_fraction = DLS__BENCH_DEFAULT_MEMORY_FRACTION;
    p->precision = DLS__BENCH_DEFAULT_PRECISION;
    p->confidence = DLS_BENCH_DEFAULT_CONFIDENCE;
    p->min_reps = DLS__BENCH_DEFAULT_MIN_REPS;
    p->max_reps = DLS__BENCH_DEFAULT_MAX_REPS;
    p->size_time_cap = DLS__BENCH_DEFAULT_SIZE_CAP;
    p->initial_points = DLS__BENCH_DEFAULT_INITIAL;
    p->max_points = DLS__BENCH_DEFAULT_MAX_POINTS;
    p->passes = 1;
    p->accuracy = DLS_BENCH_DEFAULT_ACCURACY;
    p->resolution = DLS_BENCH_DEFAULT_RESOLUTION;
    p->max_model_points = 0;
    p->validate = 0;
}

void dls_bench_free(dls_bench *b)
{
    if (b == NULL)
        return;
    free(b->points);
    free(b->kept);
    free(b->blo);
    free(b->bhi);
    free(b->checks);
    dls_model_free(b->model);
    free(b);
}

const dls_model *dls_bench_model(const dls_bench *b) { return b->model; }
double dls_bench_limit(const dls_bench *b) { return b->limit; }
dls_bench_stop dls_bench_stopped(const dls_bench *b) { return b->stop; }
double dls_bench_elapsed(const dls_bench *b) { return b->elapsed; }

const dls_bench_point *dls_bench_points(const dls_bench *b, size_t *count)
{
    if (count)
        *count = b->n;
    return b->points;
}

dls_status dls_bench_get_summary(const dls_bench *b, dls_bench_summary *out)
{
    if (b == NULL || out == NULL)
        return DLS_EINVAL;
    *out = b->sum;
    return DLS_OK;
}

const dls_bench_check *dls_bench_held_out(const dls_bench *b, size_t *count)
{
    if (count)
        *count = b != NULL ? b->nchecks : 0;
    return b != NULL && b->nchecks > 0 ? b->checks : NULL;
}

dls_status dls_memory_available(double *bytes, dls_error *err)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return dls__fail(err, DLS_EIO, NULL, "/proc/meminfo: cannot open it to find the memory "
                         "available; give the largest size instead");
    char line[256];
    double kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    fclose(f);
    if (!(kb > 0))
        return dls__fail(err, DLS_EIO, NULL, "/proc/meminfo has no MemAvailable line; give the "
                         "largest size instead");
    *bytes = kb * 1024;
    return DLS_OK;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------------------------------- */
/* The build                                                                          */

typedef struct builder {
    const dls_kernel *k;
    const dls_bench_params *par;
    dls_bench *res;
    double start;
    dls_error *err;
    double max_size;
    size_t pending; /* points still expected, for the estimate of the time left */
    /* real seconds per run per unit of size at the largest size measured so far (what
     * the budget pays, whatever time the kernel reports) */
    double real_per_unit, real_size;
    /* the seconds of the budget this phase may use (the build leaves the held-out sizes
     * their share); 0 without a budget */
    double phase_budget;
    size_t model_cap; /* points the model keeps at most */
} builder;

dls_status dls__bench_check_params(const char *fn, const dls_bench_params *p, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, fn, dls_bench_params, err);
    if (st != DLS_OK)
        return st;
    if (!isfinite(p->min_size) || p->min_size <= 0)
        return dls__fail(err, DLS_EINVAL, fn, "min_size must be > 0, not %.10g", p->min_size);
    if (!isfinite(p->max_size) || p->max_size < 0 || (p->max_size > 0 && p->max_size <= p->min_size))
        return dls__fail(err, DLS_EINVAL, fn, "max_size must be 0 (from the memory) or larger "
                         "than min_size %.10g, not %.10g", p->min_size, p->max_size);
    if (!(p->memory_fraction > 0 && p->memory_fraction <= 1))
        return dls__fail(err, DLS_EINVAL, fn, "memory_fraction must be in (0, 1], not %.10g",
                         p->memory_fraction);
    if (!(p->precision > 0 && p->precision < 1))
        return dls__fail(err, DLS_EINVAL, fn, "precision must be in (0, 1), not %.10g",
                         p->precision);
    if (!(p->confidence > 0 && p->confidence < 1))
        return dls__fail(err, DLS_EINVAL, fn, "confidence must be in (0, 1), not %.10g",
                         p->confidence);
    if (p->min_reps < 2 || p->max_reps < p->min_reps)
        return dls__fail(err, DLS_EINVAL, fn, "need 2 <= min_reps <= max_reps, not %u and %u",
                         p->min_reps, p->max_reps);
    if (!(p->size_time_cap > 0))
        return dls__fail(err, DLS_EINVAL, fn, "size_time_cap must be > 0, not %.10g",
                         p->size_time_cap);
    if (!(p->time_budget >= 0) || !isfinite(p->time_budget))
        return dls__fail(err, DLS_EINVAL, fn, "time_budget must be finite and >= 0, not %.10g",
                         p->time_budget);
    if (p->initial_points < 2 || p->max_points < p->initial_points)
        return dls__fail(err, DLS_EINVAL, fn, "need 2 <= initial_points <= max_points, not %zu "
                         "and %zu", p->initial_points, p->max_points);
    if (p->passes < 1 || p->passes > DLS__BENCH_MAX_PASSES)
        return dls__fail(err, DLS_EINVAL, fn, "passes must be in [1, %d], not %u",
                         DLS__BENCH_MAX_PASSES, p->passes);
    if (p->resume_count > 0 && p->resume == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "resume is NULL with resume_count %zu",
                         p->resume_count);
    if (!(p->accuracy > 0 && p->accuracy < 1))
        return dls__fail(err, DLS_EINVAL, fn, "accuracy must be in (0, 1), not %.10g", p->accuracy);
    if (!(p->resolution > 0 && p->resolution < 1))
        return dls__fail(err, DLS_EINVAL, fn, "resolution must be in (0, 1), not %.10g",
                         p->resolution);
    if (p->max_model_points != 0 &&
        (p->max_model_points < p->initial_points || p->max_model_points > p->max_points))
        return dls__fail(err, DLS_EINVAL, fn, "max_model_points must be 0 (default) or in "
                         "[initial_points %zu, max_points %zu], not %zu", p->initial_points,
                         p->max_points, p->max_model_points);
    if (p->validate > DLS_BENCH_MAX_VALIDATE)
        return dls__fail(err, DLS_EINVAL, fn, "validate must be at most %d, not %zu",
                         DLS_BENCH_MAX_VALIDATE, p->validate);
    return DLS_OK;
}

/* The kernel, then every field of p. */
static dls_status check_params(const char *fn, const dls_kernel *k, const dls_bench_params *p,
                               dls_error *err)
{
    if (k == NULL || k->run == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "NULL kernel");
    for (size_t b = 0; b < sizeof k->reserved; b++)
        if (k->reserved[b] != 0)
            return dls__fail(err, DLS_EINVAL, fn, "the reserved bytes of dls_kernel are not "
                             "zero (byte %zu): start from a zeroed record before setting its "
                             "fields", b);
    dls_status st = dls__bench_check_params(fn, p, err);
    if (st != DLS_OK)
        return st;
    if (p->max_size == 0 && k->memory == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "kernel \"%s\" has no memory formula: give the "
                         "largest size (max_size)", k->name ? k->name : "?");
    return DLS_OK;
}

dls_status dls__bench_largest_size(const dls_kernel *k, const dls_bench_params *p, double *out,
                                   dls_error *err)
{
    DLS__ASSERT(k->memory != NULL);
    double avail;
    dls_status st = dls_memory_available(&avail, err);
    if (st != DLS_OK)
        return st;
    double budget = avail * p->memory_fraction;
    if (!(k->memory(p->min_size, k->data) <= budget))
        return dls__fail(err, DLS_EINVAL, NULL,
                         "kernel \"%s\": even the smallest size %.10g needs "
                         "%.4g bytes, more than %.4g available", k->name, p->min_size,
                         k->memory(p->min_size, k->data), budget);
    double lo = p->min_size, hi = 2 * p->min_size;
    while (k->memory(hi, k->data) <= budget && hi < DLS__BENCH_SEARCH_TOP)
        hi *= 2;
    for (int it = 0; it < DLS__BENCH_SEARCH_STEPS && hi - lo > DLS__BENCH_SEARCH_TOL * hi; it++) {
        double mid = 0.5 * (lo + hi);
        if (k->memory(mid, k->data) <= budget)
            lo = mid;
        else
            hi = mid;
    }
    *out = k->integer_sizes ? floor(lo) : lo;
    return DLS_OK;
}

static double elapsed(const builder *b)
{
    return now() - b->start;
}

/* The phase's share of the budget is spent (the whole budget when the phase has it all). */
static int over_budget(const builder *b)
{
    return b->phase_budget > 0 && elapsed(b) >= b->phase_budget;
}

/* Index of the point at this size, or n when there is none. */
static size_t find_point(const dls_bench *r, double size)
{
    for (size_t i = 0; i < r->n; i++)
        if (fabs(r->points[i].size - size) <= DLS__BENCH_SAME_SIZE * size)
            return i;
    return r->n;
}

static dls_status add_point(builder *b, const dls_bench_point *pt, int role, size_t *index)
{
    dls_bench *r = b->res;
    if (r->n == r->cap) {
        /* the four arrays grow by the same policy from the same capacity */
        size_t cap = r->cap, c2 = r->cap, c3 = r->cap, c4 = r->cap;
        dls_bench_point *np = dls__grow(r->points, &cap, r->n + 1, sizeof *np);
        if (np == NULL)
            return dls__oom(b->err, "dls_bench_build");
        r->points = np;
        unsigned char *nk = dls__grow(r->kept, &c2, r->n + 1, sizeof *nk);
        if (nk == NULL)
            return dls__oom(b->err, "dls_bench_build");
        r->kept = nk;
        double *nl = dls__grow(r->blo, &c3, r->n + 1, sizeof *nl);
        if (nl == NULL)
            return dls__oom(b->err, "dls_bench_build");
        r->blo = nl;
        double *nh = dls__grow(r->bhi, &c4, r->n + 1, sizeof *nh);
        if (nh == NULL)
            return dls__oom(b->err, "dls_bench_build");
        r->bhi = nh;
        cap = cap < c2 ? cap : c2;
        cap = cap < c3 ? cap : c3;
        r->cap = cap < c4 ? cap : c4;
    }
    size_t i = r->n;
    while (i > 0 && r->points[i - 1].size > pt->size) {
        r->points[i] = r->points[i - 1];
        r->kept[i] = r->kept[i - 1];
        r->blo[i] = r->blo[i - 1];
        r->bhi[i] = r->bhi[i - 1];
        i--;
    }
    r->points[i] = *pt;
    r->kept[i] = (unsigned char)role;
    r->blo[i] = pt->low;
    r->bhi[i] = pt->high;
    r->n++;
    if (index)
        *index = i;
    return DLS_OK;
}

/* The largest size up to `size` whose measurement fits the share of the budget left,
 * from the real time per unit of the largest size measured so far (the kernels' work, and
 * so their time, grows with the size; the smallest sizes, where a kernel is slowest per
 * unit, would make the top far too low). */
static double affordable(const builder *b, double size)
{
    const dls_bench_params *p = b->par;
    if (!(b->phase_budget > 0) || !(b->real_per_unit > 0))
        return size;
    double per_unit = b->real_per_unit;
    double runs = 1.0 + (double)p->min_reps; /* the warm-up and the minimum repetitions */
    double left = fmax(0, b->phase_budget - elapsed(b));
    double can = DLS__BENCH_BUDGET_SHARE * left / (runs * per_unit);
    return size <= can ? size : can;
}

/* Tells the callers what is measured (on_run) and the fraction done (progress: by the
 * time when an estimate exists, else by the points); nonzero when one of them cancels. */
static int tell(const builder *b, const dls_bench_progress *prog)
{
    const dls_bench_params *p = b->par;
    if (p->on_run != NULL && p->on_run(prog, p->on_run_data) != 0)
        return 1;
    if (p->progress == NULL)
        return 0;
    double f = isfinite(prog->estimated) && prog->elapsed + prog->estimated > 0
                   ? prog->elapsed / (prog->elapsed + prog->estimated)
                   : (double)prog->points / (double)(prog->max_points ? prog->max_points : 1);
    return p->progress(f < 0 ? 0 : f > 1 ? 1 : f, p->progress_data) != 0;
}

/* Measures one size: warm-up, then runs until the confidence interval is tight enough. */
static dls_status measure(builder *b, double size, dls_bench_point *pt)
{
    const dls_bench_params *p = b->par;
    double work, t0 = now();
    double el = elapsed(b), est = NAN;
    if (b->res->n > 0) {
        size_t left = b->pending;
        if (b->res->n + left > p->max_points)
            left = p->max_points > b->res->n ? p->max_points - b->res->n : 0;
        est = el / (double)b->res->n * (double)left;
        if (p->time_budget > 0)
            est = fmin(est, fmax(0, p->time_budget - el));
    }
    dls_bench_progress prog = {b->res->n, p->max_points, size, 0, el, est};
    if (tell(b, &prog) != 0)
        return dls__fail(b->err, DLS_ECANCELED, NULL, "measurement canceled at size %.10g", size);
    if (b->k->run(size, &work, b->k->data) < 0) /* warm-up: caches, page faults, threads */
        return dls__fail(b->err, DLS_EIO, NULL, "kernel \"%s\" failed at size %.10g", b->k->name,
                         size);
    double sum_t = 0, sum_t2 = 0, sum_w = 0, low = INFINITY, high = 0;
    unsigned n = 0;
    double hw = INFINITY;
    /* one noisy size may not take the budget's share of a point (nor size_time_cap) */
    double cap = p->size_time_cap;
    if (b->phase_budget > 0)
        cap = fmin(cap, DLS__BENCH_BUDGET_SHARE * b->phase_budget);
    for (;;) {
        prog.rep = n + 1;
        prog.elapsed = elapsed(b);
        if (tell(b, &prog) != 0)
            return dls__fail(b->err, DLS_ECANCELED, NULL, "measurement canceled at size %.10g",
                             size);
        double t = b->k->run(size, &work, b->k->data);
        if (!(t > 0) || !isfinite(work) || work <= 0)
            return dls__fail(b->err, DLS_EIO, NULL, "kernel \"%s\" failed at size %.10g (run %u)",
                             b->k->name, size, n + 1);
        n++;
        sum_t += t;
        sum_t2 += t * t;
        sum_w += work;
        double speed = work / t;
        low = fmin(low, speed);
        high = fmax(high, speed);
        if (n < 2)
            continue;
        double mean = sum_t / n;
        double var = fmax(0, (sum_t2 - n * mean * mean) / (n - 1));
        hw = dls__t_quantile(0.5 + p->confidence / 2, n - 1) * sqrt(var / n);
        if (n >= p->min_reps &&
            (hw <= p->precision * mean || n >= p->max_reps || now() - t0 >= cap ||
             over_budget(b)))
            break;
    }
    double mean_t = sum_t / n, mean_w = sum_w / n;
    if (size >= b->real_size) {
        b->real_size = size;
        b->real_per_unit = (now() - t0) / (double)(n + 1) / size;
    }
    memset(pt, 0, sizeof *pt);
    pt->size = size;
    pt->time = mean_t;
    pt->ci = hw;
    pt->reps = n;
    pt->speed = mean_w / mean_t;
    /* The band: where the speed of a single new run is expected (the prediction interval
     * of one more time at the confidence level), and at least the speeds observed. With a
     * handful of runs the observed range alone underestimates the fluctuations the papers'
     * speed band is meant to hold. */
    double var = fmax(0, (sum_t2 - n * mean_t * mean_t) / (n - 1));
    double pi = dls__t_quantile(0.5 + p->confidence / 2, n - 1) * sqrt(var * (1 + 1.0 / n));
    pt->low = fmin(fmin(low, pt->speed), mean_w / (mean_t + pi));
    pt->high = fmax(fmax(high, pt->speed), mean_w / fmax(mean_t - pi, mean_t / 2));
    return DLS_OK;
}

/* The point at `size`: from the resumed ones, or measured (and reported to on_point). */
static dls_status obtain_pass(builder *b, double size, unsigned pass, dls_bench_point *pt)
{
    const dls_bench_params *p = b->par;
    /* the pass-th measurement of this size in the resumed log, if there is one */
    unsigned seen = 0;
    for (size_t i = 0; i < p->resume_count; i++)
        if (fabs(p->resume[i].size - size) <= DLS__BENCH_SAME_SIZE * size && seen++ == pass) {
            *pt = p->resume[i];
            memset(pt->reserved, 0, sizeof pt->reserved); /* the caller's log: its bytes */
            return DLS_OK;
        }
    dls_status st = measure(b, size, pt);
    if (st != DLS_OK)
        return st;
    if (p->on_point && p->on_point(pt, p->on_point_data))
        return dls__fail(b->err, DLS_ECANCELED, NULL, "measurement canceled after size %.10g",
                         size);
    return DLS_OK;
}

static dls_status obtain(builder *b, double size, dls_bench_point *pt)
{
    return obtain_pass(b, size, 0, pt);
}

/* Measures a new size and adds it with its role; *index receives its place. */
static dls_status take(builder *b, double size, int role, size_t *index)
{
    dls_bench_point pt;
    dls_status st = obtain(b, size, &pt);
    return st == DLS_OK ? add_point(b, &pt, role, index) : st;
}

/* Merges a later measurement of the same size into a point: the band is the union. */
static void merge_point(dls_bench_point *into, const dls_bench_point *more)
{
    double w1 = into->time * into->reps, w2 = more->time * more->reps;
    double work = into->speed * w1 + more->speed * w2;
    into->time = (w1 + w2) / (into->reps + more->reps);
    into->speed = work / (w1 + w2);
    into->reps += more->reps;
    into->ci = fmax(into->ci, more->ci);
    into->low = fmin(fmin(into->low, more->low), into->speed);
    into->high = fmax(fmax(into->high, more->high), into->speed);
}

static double round_size(const builder *b, double s)
{
    return b->k->integer_sizes ? nearbyint(s) : s;
}

/* The speed the line between points a and c gives at size x (the model is linear in the
 * size between its points). */
static double line_at(const dls_bench_point *a, const dls_bench_point *c, double x)
{
    return a->speed + (c->speed - a->speed) * ((x - a->size) / (c->size - a->size));
}

/* Whether a line predicting `pred` at the point m holds it: within the accuracy of m's
 * speed, or inside m's band, whichever is wider. */
static int holds(double pred, const dls_bench_point *m, double accuracy)
{
    double lo = fmin(m->low, m->speed * (1 - accuracy));
    double hi = fmax(m->high, m->speed * (1 + accuracy));
    return pred >= lo && pred <= hi;
}

/* m's deviation from the line between a and c, relative to its speed (signed). */
static double deviation(const dls_bench_point *a, const dls_bench_point *c,
                        const dls_bench_point *m)
{
    return (m->speed - line_at(a, c, m->size)) / m->speed;
}

/* Notes the widening of kept point i's band (the summary's figures). */
static void note_widened(dls_bench *r, size_t i, double before_lo, double before_hi)
{
    double s = r->points[i].speed;
    if (!(r->blo[i] < before_lo || r->bhi[i] > before_hi))
        return;
    if (!(before_lo < r->points[i].low || before_hi > r->points[i].high))
        r->sum.widened++; /* the first time */
    double total = fmax(r->points[i].low - r->blo[i], r->bhi[i] - r->points[i].high) / s;
    r->sum.widening = fmax(r->sum.widening, total);
}

/* Widens the model's band at the kept points ia < ic so that the band it gives at point q
 * between them holds q's speed: both ends' edge moved by the shortfall (the band is linear
 * between them too), so the neighbouring intervals widen with them; an end whose lower edge
 * reaches its floor leaves the rest to the other end. */
static void widen(builder *b, size_t ia, size_t ic, const dls_bench_point *q)
{
    dls_bench *r = b->res;
    const dls_bench_point *a = &r->points[ia], *c = &r->points[ic];
    double w = (q->size - a->size) / (c->size - a->size);
    double lo = r->blo[ia] + (r->blo[ic] - r->blo[ia]) * w;
    double hi = r->bhi[ia] + (r->bhi[ic] - r->bhi[ia]) * w;
    double la = r->blo[ia], lc = r->blo[ic], ha = r->bhi[ia], hc = r->bhi[ic];
    if (q->speed < lo) {
        double d = lo - q->speed;
        double fa = DLS__BENCH_BAND_FLOOR * a->speed, fc = DLS__BENCH_BAND_FLOOR * c->speed;
        double nc = fmax(lc - d, fc), na = fmax(la - d, fa);
        /* what one end could not take, the other takes, in proportion to its weight */
        if (w < 1 && na * (1 - w) + nc * w > q->speed)
            na = fmax(fa, (q->speed - nc * w) / (1 - w));
        if (w > 0 && na * (1 - w) + nc * w > q->speed)
            nc = fmax(fc, (q->speed - na * (1 - w)) / w);
        r->blo[ia] = fmin(la, na);
        r->blo[ic] = fmin(lc, nc);
    }
    if (q->speed > hi) {
        r->bhi[ia] += q->speed - hi;
        r->bhi[ic] += q->speed - hi;
    }
    note_widened(r, ia, la, ha);
    note_widened(r, ic, lc, hc);
}

/* ---------------------------------------------------------------------------------- */
/* The intervals between the model's points                                          */

/* A part [ta, tc] of the interval between two kept points a and c, to test against their
 * line at its geometric midpoint; the one of highest priority first. The model is linear in
 * the size, so over a wide interval the line at the geometric midpoint is still close to
 * the lower end's speed: the upper part is tested again on its own (a cliff there would
 * go unseen), down to a factor DLS__BENCH_SUBTEST of width. */
typedef struct interval {
    double a, c;   /* the kept points */
    double ta, tc; /* the part tested */
    double err;    /* the disagreement expected in it: its parent's, or its ends' difference */
    int open;      /* 1 while not examined */
} interval;

typedef struct intervals {
    interval *v;
    size_t n, cap;
} intervals;

static dls_status push_test(builder *b, intervals *q, double a, double c, double ta, double tc,
                            double err)
{
    interval *g = dls__grow(q->v, &q->cap, q->n + 1, sizeof *q->v);
    if (g == NULL)
        return dls__oom(b->err, "dls_bench_build");
    q->v = g;
    q->v[q->n++] = (interval){a, c, ta, tc, err, 1};
    return DLS_OK;
}

static dls_status push_interval(builder *b, intervals *q, double a, double c, double err)
{
    return push_test(b, q, a, c, a, c, err);
}

/* The disagreement expected between two kept points before their midpoint is measured:
 * how much the speed changes across them. */
static double spread(const dls_bench *r, double a, double c)
{
    double sa = r->points[find_point(r, a)].speed, sc = r->points[find_point(r, c)].speed;
    return fabs(sc - sa) / fmax(sa, sc);
}

/* Error times width in log-size, weighted from 1 at the smallest size to 2 at the limit:
 * a partitioner needs the large sizes (where memory levels and paging change the speed)
 * more than the wiggles of the small ones, and no narrow region can take the whole point
 * cap while wide ones wait. */
static double priority(const builder *b, const interval *iv)
{
    double lmin = log(b->par->min_size), lmax = log(b->max_size);
    double mid = 0.5 * (log(iv->ta) + log(iv->tc));
    double weight = 1 + (lmax > lmin ? (mid - lmin) / (lmax - lmin) : 0);
    return weight * fmax(iv->err, b->par->accuracy) * log(iv->tc / iv->ta);
}

/* The open interval of highest priority (the first of equals, for determinism), or n. */
static size_t next_interval(const builder *b, const intervals *q)
{
    size_t best = q->n;
    double bp = -1;
    for (size_t i = 0; i < q->n; i++)
        if (q->v[i].open) {
            double pr = priority(b, &q->v[i]);
            if (pr > bp) {
                bp = pr;
                best = i;
            }
        }
    return best;
}

static size_t count_kept(const dls_bench *r)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++)
        k += r->kept[i] == ROLE_KEPT;
    return k;
}

static size_t count_open(const intervals *q)
{
    size_t k = 0;
    for (size_t i = 0; i < q->n; i++)
        k += q->v[i].open != 0;
    return k;
}

/* The ladder: the smallest size, then log-spaced sizes upwards (initial_points of them
 * over the whole range), each one's cost predicted from the largest measured so far; with a
 * budget, the top is the largest size a share of it affords (res->measured_top). */
static dls_status ladder(builder *b)
{
    const dls_bench_params *p = b->par;
    dls_bench *r = b->res;
    double step = pow(b->max_size / p->min_size, 1.0 / (double)(p->initial_points - 1));
    double s = p->min_size;
    for (size_t j = 0; j < p->initial_points; j++) {
        if (j > 0) {
            double prev = r->points[r->n - 1].size;
            s = j + 1 == p->initial_points ? b->max_size
                                           : round_size(b, p->min_size * pow(step, (double)j));
            if (s > b->max_size)
                s = b->max_size;
            double fit = round_size(b, affordable(b, s));
            if (fit < s) {
                /* the budget's top: the largest affordable size, and the ladder ends */
                if (!(fit > prev * DLS__BENCH_TOP_STEP) && r->n >= 2) {
                    r->measured_top = prev;
                    break;
                }
                s = fmax(fit, round_size(b, prev * DLS__BENCH_TOP_STEP));
                if (s > b->max_size)
                    s = b->max_size;
                r->measured_top = s < b->max_size ? s : 0;
                j = p->initial_points - 1; /* this is the last */
            }
            if (!(s > prev * (1 + DLS__BENCH_SAME_SIZE)))
                continue;
        }
        b->pending = p->initial_points - j + (p->initial_points - 1);
        dls_status st = take(b, s, ROLE_KEPT, NULL);
        if (st != DLS_OK)
            return st;
    }
    if (r->n < 2)
        return dls__fail(b->err, DLS_EINVAL, "dls_bench_build", "no two sizes to measure "
                         "between %.10g and %.10g", p->min_size, b->max_size);
    return DLS_OK;
}

/* When the top is below the limit and a better estimate affords a size well above it:
 * measures it and opens the new interval (*more = 1). */
static dls_status extend_top(builder *b, intervals *q, int *more)
{
    dls_bench *r = b->res;
    *more = 0;
    if (r->measured_top <= 0)
        return DLS_OK;
    double old = r->points[r->n - 1].size;
    double fit = round_size(b, affordable(b, b->max_size));
    if (!(fit >= old * DLS__BENCH_TOP_STEP))
        return DLS_OK;
    b->pending = 2;
    dls_status st = take(b, fit, ROLE_KEPT, NULL);
    if (st != DLS_OK)
        return st;
    r->measured_top = fit < b->max_size ? fit : 0;
    *more = 1;
    return push_interval(b, q, old, fit, spread(r, old, fit));
}

/* The probes beside midpoint m of [a, c]: at the resolution, but no farther than an eighth
 * of the interval's width in log-size, so that they see what m sees and not what the ends
 * see (whole sizes: at least one unit away); NaN where no size is left between m and the
 * interval's end. */
static void probe_sizes(const builder *b, double a, double m, double c, double *lo, double *hi)
{
    double f = fmin(1 + b->par->resolution, pow(c / a, 1.0 / 8));
    *lo = round_size(b, m / f);
    *hi = round_size(b, m * f);
    if (b->k->integer_sizes) {
        *lo = fmin(*lo, m - 1);
        *hi = fmax(*hi, m + 1);
    }
    if (!(*lo > a && *lo < m))
        *lo = NAN;
    if (!(*hi > m && *hi < c))
        *hi = NAN;
}

/* Whether the structure m shows in [a, c] is finer than the resolution: neither probe beside
 * it deviates from the line on the same side by at least half as much (a probe that cannot
 * be placed counts as agreeing, so the midpoint is kept). A step next to m has one probe
 * agreeing, and is kept too. The sizes of the probes measured go to probes[]. */
static dls_status finer_than_resolution(builder *b, size_t ia, size_t ic, size_t im, double ta,
                                        double tc, int *fine, double probes[2],
                                        size_t *nprobes)
{
    dls_bench *r = b->res;
    double a = r->points[ia].size, c = r->points[ic].size, m = r->points[im].size;
    double sz[2];
    probe_sizes(b, ta, m, tc, &sz[0], &sz[1]);
    *fine = 1;
    *nprobes = 0;
    for (int k = 0; k < 2; k++) {
        if (isnan(sz[k]) || r->n >= b->par->max_points ||
            round_size(b, affordable(b, sz[k])) < sz[k]) {
            *fine = 0;
            continue;
        }
        size_t ip = find_point(r, sz[k]);
        if (ip == r->n) { /* a size measured before (rounding) is not measured again */
            dls_status st = take(b, sz[k], ROLE_PROBE, &ip);
            if (st != DLS_OK)
                return st;
        }
        probes[(*nprobes)++] = sz[k];
        /* the new point moved the indices above it */
        ia = find_point(r, a);
        ic = find_point(r, c);
        im = find_point(r, m);
        double dm = deviation(&r->points[ia], &r->points[ic], &r->points[im]);
        double dp = deviation(&r->points[ia], &r->points[ic], &r->points[ip]);
        if (dp * dm > 0 && fabs(dp) >= DLS__BENCH_PROBE_AGREE * fabs(dm))
            *fine = 0;
    }
    return DLS_OK;
}

/* Closes the open intervals with an end at size x; *err receives the largest expected
 * disagreement among them (-1 when none was open). */
static void close_at(intervals *q, double x, double *err)
{
    *err = -1;
    for (size_t i = 0; i < q->n; i++)
        if (q->v[i].open && (q->v[i].a == x || q->v[i].c == x)) {
            q->v[i].open = 0;
            *err = fmax(*err, q->v[i].err);
        }
}

/* The worst deviation from the line between kept points ia and ic of the points measured
 * between them, relative to each one's speed; INFINITY when the line does not hold one of
 * them (within the accuracy or its band). */
static double line_misses(const builder *b, size_t ia, size_t ic)
{
    const dls_bench *r = b->res;
    double worst = 0;
    for (size_t j = ia + 1; j < ic; j++) {
        const dls_bench_point *m = &r->points[j];
        double pred = line_at(&r->points[ia], &r->points[ic], m->size);
        if (!holds(pred, m, b->par->accuracy))
            return INFINITY;
        worst = fmax(worst, fabs(pred - m->speed) / m->speed);
    }
    return worst;
}

/* Drops up to `want` kept points that the model does without: a point whose neighbours'
 * line holds every size measured between them (within the accuracy or its band), the one
 * whose line misses least first. A bisection that closed in on a step keeps every midpoint
 * on the way, most of them on the step's flat sides; this gives their places back. The
 * ends of the range stay, and so do the sizes keep[2] (NaN for none). The intervals still
 * open beside a point dropped become one, open, between its neighbours. Returns the number
 * dropped, or -1 after a failure (ENOMEM) with b->err filled. */
static long prune(builder *b, intervals *q, size_t want, const double keep[2])
{
    dls_bench *r = b->res;
    long dropped = 0;
    while ((size_t)dropped < want) {
        size_t best = r->n, prev = r->n;
        double best_miss = INFINITY;
        size_t ba = 0, bc = 0;
        for (size_t i = 0; i < r->n; i++) {
            if (r->kept[i] != ROLE_KEPT)
                continue;
            size_t c = i + 1;
            while (c < r->n && r->kept[c] != ROLE_KEPT)
                c++;
            double x = r->points[i].size;
            if (prev < r->n && c < r->n && x != keep[0] && x != keep[1]) {
                double miss = line_misses(b, prev, c);
                if (miss < best_miss) {
                    best_miss = miss;
                    best = i;
                    ba = prev;
                    bc = c;
                }
            }
            prev = i;
        }
        if (best == r->n)
            break;
        r->kept[best] = ROLE_TESTED;
        for (size_t j = ba + 1; j < bc; j++)
            widen(b, ba, bc, &r->points[j]);
        double err;
        close_at(q, r->points[best].size, &err);
        if (err >= 0 &&
            push_interval(b, q, r->points[ba].size, r->points[bc].size, err) != DLS_OK)
            return -1;
        dropped++;
    }
    return dropped;
}

/* Examines interval iv: its midpoint measured and, if the line does not hold it, probed;
 * kept (two new intervals), or the interval accepted with its ends' bands widened.
 * *capped is set when the model's point cap kept a midpoint out. */
static dls_status examine(builder *b, intervals *q, size_t which, int *capped)
{
    dls_bench *r = b->res;
    interval iv = q->v[which];
    q->v[which].open = 0;
    double mid = round_size(b, sqrt(iv.ta * iv.tc));
    if (!(mid > iv.ta && mid < iv.tc) || iv.tc < iv.ta * (1 + b->par->resolution))
        return DLS_OK; /* at the resolution: not split */
    if (round_size(b, affordable(b, mid)) < mid) {
        r->sum.unexamined++;
        return DLS_OK;
    }
    b->pending = count_open(q) + 1;
    size_t im = find_point(r, mid);
    dls_status st = DLS_OK;
    if (im == r->n) /* a probe of an earlier midpoint may have measured it already */
        st = take(b, mid, ROLE_TESTED, &im);
    if (st != DLS_OK)
        return st;
    size_t ia = find_point(r, iv.a), ic = find_point(r, iv.c);
    const dls_bench_point *pa = &r->points[ia], *pc = &r->points[ic];
    dls_bench_point pm = r->points[im];
    if (holds(line_at(pa, pc, mid), &pm, b->par->accuracy)) {
        widen(b, ia, ic, &pm);
        if (iv.tc >= mid * DLS__BENCH_SUBTEST)
            return push_test(b, q, iv.a, iv.c, mid, iv.tc, iv.err);
        return DLS_OK;
    }
    double err = fabs(deviation(pa, pc, &pm));
    const double ends[2] = {iv.a, iv.c};
    if (count_kept(r) >= b->model_cap && prune(b, q, 1, ends) < 0)
        return DLS_ENOMEM;
    if (count_kept(r) >= b->model_cap) {
        /* no room for another point: the interval keeps its line and its band holds m;
         * the other intervals are still examined, so that their bands say what the model
         * misses there */
        widen(b, ia, ic, &pm);
        r->sum.fine++;
        r->sum.fine_error = fmax(r->sum.fine_error, err);
        *capped = 1;
        return DLS_OK;
    }
    int fine;
    double probes[2];
    size_t np;
    st = finer_than_resolution(b, ia, ic, im, iv.ta, iv.tc, &fine, probes, &np);
    if (st != DLS_OK)
        return st;
    ia = find_point(r, iv.a);
    ic = find_point(r, iv.c);
    im = find_point(r, mid);
    if (fine) {
        widen(b, ia, ic, &r->points[im]);
        for (size_t k = 0; k < np; k++)
            widen(b, ia, ic, &r->points[find_point(r, probes[k])]);
        r->sum.fine++;
        r->sum.fine_error = fmax(r->sum.fine_error, err);
        return DLS_OK;
    }
    r->kept[im] = ROLE_KEPT;
    r->blo[im] = r->points[im].low;
    r->bhi[im] = r->points[im].high;
    st = push_interval(b, q, iv.a, mid, err);
    if (st == DLS_OK)
        st = push_interval(b, q, mid, iv.c, err);
    return st;
}

/* The adaptive choice of sizes after the ladder: the top raised while a better estimate
 * affords it, the intervals examined by priority, until every one is accepted or a cap or
 * the budget stops it. */
static dls_status refine(builder *b)
{
    dls_bench *r = b->res;
    intervals q = {NULL, 0, 0};
    dls_status st = DLS_OK;
    int capped = 0;
    for (size_t i = 0; st == DLS_OK && i + 1 < r->n; i++)
        st = push_interval(b, &q, r->points[i].size, r->points[i + 1].size,
                           spread(r, r->points[i].size, r->points[i + 1].size));
    r->stop = DLS_BENCH_CONVERGED;
    while (st == DLS_OK) {
        if (r->n >= b->par->max_points) {
            r->stop = DLS_BENCH_MAX_POINTS;
            break;
        }
        if (over_budget(b)) {
            r->stop = DLS_BENCH_BUDGET;
            break;
        }
        int more;
        st = extend_top(b, &q, &more);
        if (st != DLS_OK || more)
            continue;
        size_t which = next_interval(b, &q);
        if (which == q.n)
            break;
        st = examine(b, &q, which, &capped);
    }
    if (st == DLS_OK) {
        const double none[2] = {NAN, NAN};
        if (prune(b, &q, SIZE_MAX, none) < 0)
            st = DLS_ENOMEM;
        r->sum.unexamined += count_open(&q);
        /* every interval examined: what kept the model from converging, if anything (the
         * point cap, or midpoints too costly for the budget) */
        if (r->stop == DLS_BENCH_CONVERGED && capped)
            r->stop = DLS_BENCH_MODEL_POINTS;
        else if (r->stop == DLS_BENCH_CONVERGED && r->sum.unexamined > 0)
            r->stop = DLS_BENCH_BUDGET;
    }
    free(q.v);
    return st;
}

/* The kept neighbours of point i (not kept): *a below, *c above; 0 when it has none. */
static int kept_around(const dls_bench *r, size_t i, size_t *a, size_t *c)
{
    size_t lo = i, hi = i;
    while (lo > 0 && r->kept[lo] != ROLE_KEPT)
        lo--;
    while (hi + 1 < r->n && r->kept[hi] != ROLE_KEPT)
        hi++;
    if (r->kept[lo] != ROLE_KEPT || r->kept[hi] != ROLE_KEPT || !(lo < i && i < hi))
        return 0;
    *a = lo;
    *c = hi;
    return 1;
}

/* Later passes: every point measured again, its band the union of all its passes, so that
 * the bands hold fluctuations slower than a point's consecutive runs; then the intervals
 * are checked again against the wider bands, keeping the midpoints the lines no longer hold
 * while the model has room, and widening the bands otherwise. */
static dls_status later_passes(builder *b)
{
    dls_bench *r = b->res;
    dls_status st = DLS_OK;
    for (unsigned pass = 1; st == DLS_OK && pass < b->par->passes && !over_budget(b); pass++) {
        for (size_t i = 0; st == DLS_OK && i < r->n; i++) {
            if (over_budget(b))
                break;
            dls_bench_point more;
            b->pending = r->n - i;
            st = obtain_pass(b, r->points[i].size, pass, &more);
            if (st == DLS_OK) {
                merge_point(&r->points[i], &more);
                if (r->kept[i] == ROLE_KEPT) {
                    r->blo[i] = fmin(r->blo[i], r->points[i].low);
                    r->bhi[i] = fmax(r->bhi[i], r->points[i].high);
                }
            }
        }
        for (size_t i = 0; st == DLS_OK && i < r->n; i++) {
            size_t a, c;
            if (r->kept[i] != ROLE_TESTED || !kept_around(r, i, &a, &c))
                continue;
            const dls_bench_point *m = &r->points[i];
            if (holds(line_at(&r->points[a], &r->points[c], m->size), m, b->par->accuracy))
                widen(b, a, c, m);
            else if (count_kept(r) < b->model_cap) {
                r->kept[i] = ROLE_KEPT;
                r->blo[i] = m->low;
                r->bhi[i] = m->high;
            } else
                widen(b, a, c, m);
        }
    }
    return st;
}

/* The model's bands made to hold every size measured that its lines do not (within the
 * accuracy or the point's band): a probe or a test beside a point kept later, or a step
 * narrower than the resolution. */
static void hold_measured(builder *b)
{
    dls_bench *r = b->res;
    for (size_t i = 0; i < r->n; i++) {
        size_t a, c;
        if (r->kept[i] == ROLE_KEPT || !kept_around(r, i, &a, &c))
            continue;
        const dls_bench_point *m = &r->points[i];
        double w = (m->size - r->points[a].size) / (r->points[c].size - r->points[a].size);
        double lo = r->blo[a] + (r->blo[c] - r->blo[a]) * w;
        double hi = r->bhi[a] + (r->bhi[c] - r->bhi[a]) * w;
        if (!holds(line_at(&r->points[a], &r->points[c], m->size), m, b->par->accuracy) &&
            !(m->speed >= lo && m->speed <= hi))
            widen(b, a, c, m);
    }
}

/* ---------------------------------------------------------------------------------- */
/* Held-out sizes                                                                     */

/* The model's speed and band at x, from its points (linear between them, constant beyond). */
static void model_at(const dls_model *m, double x, double *s, double *lo, double *hi)
{
    size_t n;
    const double *xs, *ss, *ls, *hs;
    *s = dls_model_speed(m, x);
    *lo = *hi = *s;
    if (dls_model_get_points(m, &n, &xs, &ss, &ls, &hs) != DLS_OK || ls == NULL)
        return;
    if (x <= xs[0]) {
        *lo = ls[0];
        *hi = hs[0];
        return;
    }
    if (x >= xs[n - 1]) {
        *lo = ls[n - 1];
        *hi = hs[n - 1];
        return;
    }
    size_t k = 0;
    while (k + 2 < n && xs[k + 1] <= x)
        k++;
    double w = (x - xs[k]) / (xs[k + 1] - xs[k]);
    *lo = ls[k] + (ls[k + 1] - ls[k]) * w;
    *hi = hs[k] + (hs[k + 1] - hs[k]) * w;
}

/* The check of a measured point against a model. */
static void check_point(const dls_model *m, const dls_bench_point *pt, double accuracy,
                        dls_bench_check *c)
{
    c->size = pt->size;
    c->speed = pt->speed;
    c->low = pt->low;
    c->high = pt->high;
    model_at(m, pt->size, &c->predicted, &c->model_low, &c->model_high);
    c->error = fabs(c->predicted - pt->speed) / pt->speed;
    c->within = holds(c->predicted, pt, accuracy) ||
                (pt->speed >= c->model_low && pt->speed <= c->model_high);
}

/* The held-out sizes: `want` of them log-spaced in the range measured, each at the middle
 * of its share of the range and moved off every size the build measured. */
static size_t held_out_sizes(const builder *b, size_t want, double *sizes)
{
    const dls_bench *r = b->res;
    double lo = log(r->points[0].size), hi = log(r->points[r->n - 1].size);
    size_t n = 0;
    for (size_t j = 0; j < want; j++) {
        double s = round_size(b, exp(lo + (hi - lo) * ((double)j + 0.5) / (double)want));
        /* off the measured sizes: the next free size above, else below */
        for (int tries = 0; tries < 64 && find_point(r, s) < r->n; tries++)
            s = b->k->integer_sizes ? s + (tries % 2 ? -(double)(tries + 1) : (double)(tries + 1))
                                    : s * (1 + 1e-3 * (tries + 1));
        if (find_point(r, s) < r->n || s < r->points[0].size || s > r->points[r->n - 1].size ||
            (n > 0 && !(s > sizes[n - 1])))
            continue;
        sizes[n++] = s;
    }
    return n;
}

static dls_status validate(builder *b)
{
    dls_bench *r = b->res;
    size_t want = b->par->validate;
    if (want == 0)
        return DLS_OK;
    double *sizes = malloc(want * sizeof *sizes);
    r->checks = calloc(want, sizeof *r->checks);
    if (sizes == NULL || r->checks == NULL) {
        free(sizes);
        return dls__oom(b->err, "dls_bench_build");
    }
    size_t n = held_out_sizes(b, want, sizes);
    b->phase_budget = b->par->time_budget; /* the held-out share is theirs now */
    dls_status st = DLS_OK;
    for (size_t j = 0; j < n && st == DLS_OK; j++) {
        if (over_budget(b) || round_size(b, affordable(b, sizes[j])) < sizes[j])
            continue; /* reported: fewer held out than asked */
        dls_bench_point pt;
        b->pending = n - j;
        st = obtain(b, sizes[j], &pt);
        if (st == DLS_OK) {
            check_point(r->model, &pt, b->par->accuracy, &r->checks[r->nchecks]);
            r->sum.within += r->checks[r->nchecks].within != 0;
            r->sum.held_out_error = fmax(r->sum.held_out_error, r->checks[r->nchecks].error);
            r->nchecks++;
        }
    }
    r->sum.held_out = r->nchecks;
    free(sizes);
    return st;
}

/* The model through the kept points, with their (widened) bands. */
static dls_status make_model(builder *b)
{
    dls_bench *r = b->res;
    size_t nk = count_kept(r);
    double *buf = malloc(4 * (nk ? nk : 1) * sizeof *buf);
    if (buf == NULL)
        return dls__oom(b->err, "dls_bench_build");
    double *x = buf, *s = buf + nk, *lo = buf + 2 * nk, *hi = buf + 3 * nk;
    size_t j = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->kept[i] == ROLE_KEPT) {
            x[j] = r->points[i].size;
            s[j] = r->points[i].speed;
            lo[j] = fmin(r->blo[i], s[j]);
            hi[j] = fmax(r->bhi[i], s[j]);
            j++;
        }
    dls_status st = dls_model_create_points(nk, x, s, lo, hi, &r->model, b->err);
    free(buf);
    return st;
}

/* The account of the build, but for the held-out sizes. */
static void summarize(builder *b)
{
    dls_bench *r = b->res;
    dls_bench_summary *u = &r->sum;
    u->stop = r->stop;
    u->measured = r->n;
    u->kept = count_kept(r);
    u->smallest = r->points[0].size;
    u->largest = r->points[r->n - 1].size;
    u->limit = b->max_size;
    u->top_by_budget = u->largest < b->max_size * (1 - DLS__BENCH_SAME_SIZE);
    u->top_run_time = r->points[r->n - 1].time;
    /* a range cut short by the budget is the budget's doing, however well the rest agreed */
    if (u->top_by_budget && r->stop == DLS_BENCH_CONVERGED)
        r->stop = u->stop = DLS_BENCH_BUDGET;
}

dls_status dls_bench_build(const dls_kernel *kernel, const dls_bench_params *params,
                           dls_bench **out, dls_error *err)
{
    dls_bench_params defaults;
    if (params == NULL) {
        dls_bench_params_init(&defaults);
        params = &defaults;
    }
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build", "NULL result");
    dls_status st = check_params("dls_bench_build", kernel, params, err);
    if (st != DLS_OK)
        return st;
    builder b = {kernel, params, NULL, now(), err, params->max_size, 0, 0, 0, 0, 0};
    b.model_cap = params->max_model_points;
    if (b.model_cap == 0)
        b.model_cap = params->max_points < DLS_BENCH_DEFAULT_MODEL_POINTS
                          ? params->max_points
                          : DLS_BENCH_DEFAULT_MODEL_POINTS;
    if (b.model_cap < params->initial_points)
        b.model_cap = params->initial_points;
    b.phase_budget = params->time_budget * (params->validate > 0 ? 1 - DLS__BENCH_VALIDATE_SHARE : 1);
    if (b.max_size == 0) {
        st = dls__bench_largest_size(kernel, params, &b.max_size, err);
        if (st != DLS_OK)
            return st;
    }
    if (b.max_size <= params->min_size)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build", "the largest size %.10g is not above "
                         "the smallest %.10g", b.max_size, params->min_size);
    b.res = calloc(1, sizeof *b.res);
    if (b.res == NULL)
        return dls__oom(err, "dls_bench_build");
    st = ladder(&b);
    if (st == DLS_OK)
        st = refine(&b);
    if (st == DLS_OK)
        st = later_passes(&b);
    if (st == DLS_OK) {
        hold_measured(&b);
        st = make_model(&b);
    }
    if (st == DLS_OK) {
        summarize(&b);
        st = validate(&b);
    }
    if (st != DLS_OK) {
        dls_bench_free(b.res);
        return st;
    }
    b.res->limit = b.max_size;
    b.res->elapsed = b.res->sum.elapsed = elapsed(&b);
    *out = b.res;
    return DLS_OK;
}

dls_status dls_bench_measure(const dls_kernel *kernel, const dls_bench_params *params,
                             const double *sizes, size_t count, dls_bench_point *points,
                             dls_error *err)
{
    dls_bench_params defaults;
    if (params == NULL) {
        dls_bench_params_init(&defaults);
        params = &defaults;
    }
    if (sizes == NULL || points == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_measure", "NULL argument");
    dls_bench_params p = *params;
    p.max_size = DBL_MAX; /* the sizes are given: no largest size to find */
    dls_status st = check_params("dls_bench_measure", kernel, &p, err);
    if (st != DLS_OK)
        return st;
    builder b = {kernel, &p, NULL, now(), err, INFINITY, count, 0, 0, p.time_budget, 0};
    b.res = calloc(1, sizeof *b.res);
    if (b.res == NULL)
        return dls__oom(err, "dls_bench_measure");
    for (size_t i = 0; i < count && st == DLS_OK; i++) {
        if (!isfinite(sizes[i]) || sizes[i] <= 0)
            st = dls__fail(err, DLS_EINVAL, "dls_bench_measure",
                           "size %zu is %.10g; sizes must be " "finite and > 0", i + 1, sizes[i]);
        else
            st = obtain(&b, sizes[i], &points[i]);
        b.res->n = i + 1; /* progress reports count the points done */
        b.pending = count - i - 1;
    }
    free(b.res);
    return st;
}

dls_status dls_bench_validate(const dls_kernel *kernel, const dls_model *model,
                              const dls_bench_params *params, const double *sizes,
                              size_t count, dls_bench_check *checks, dls_error *err)
{
    if (model == NULL || checks == NULL || sizes == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_validate", "NULL argument");
    if (dls_model_dimension(model) != 1)
        return dls__fail(err, DLS_EINVAL, "dls_bench_validate", "the model must be 1-D");
    dls_bench_params defaults;
    if (params == NULL) {
        dls_bench_params_init(&defaults);
        params = &defaults;
    }
    dls_bench_point *pts = malloc((count ? count : 1) * sizeof *pts);
    if (pts == NULL)
        return dls__oom(err, "dls_bench_validate");
    dls_status st = dls_bench_measure(kernel, params, sizes, count, pts, err);
    if (st == DLS_OK)
        for (size_t i = 0; i < count; i++)
            check_point(model, &pts[i], params->accuracy, &checks[i]);
    free(pts);
    return st;
}

/* ---------------------------------------------------------------------------------- */
/* A simulated kernel                                                                 */

typedef struct model_kernel {
    dls_model *model;
    double noise, delay;
    double last_size;
    unsigned rep;
} model_kernel;

/* A deterministic number in [-1, 1] from a size and a repetition number. */
static double jitter(double size, unsigned rep)
{
    uint64_t h;
    memcpy(&h, &size, sizeof h);
    h ^= 0x9E3779B97F4A7C15ull * (rep + 1);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (double)(h >> 11) * 0x1.0p-52 - 1;
}

static double model_run(double size, double *work, void *data)
{
    model_kernel *mk = data;
    /* the noise depends on the size and the repetition only, so that a resumed build sees
     * exactly what an uninterrupted one saw */
    if (size != mk->last_size) {
        mk->last_size = size;
        mk->rep = 0;
    }
    double t = dls_model_time(mk->model, size) * (1 + mk->noise * jitter(size, mk->rep++));
    if (mk->delay > 0) {
        struct timespec ts = {(time_t)mk->delay, (long)(1e9 * (mk->delay - floor(mk->delay)))};
        nanosleep(&ts, NULL);
    }
    *work = size;
    return t;
}

static void model_kernel_release(void *data)
{
    model_kernel *mk = data;
    dls_model_free(mk->model);
    free(mk);
}

dls_status dls_model_kernel_create(const dls_model *model, double noise, double delay,
                                   dls_kernel *kernel, dls_error *err)
{
    if (model == NULL || kernel == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create", "NULL argument");
    if (dls_model_dimension(model) != 1)
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create", "the model must be 1-D");
    if (!(noise >= 0 && noise < 1) || !(delay >= 0 && delay < 60))
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create", "noise must be in [0, 1) and "
                         "delay in [0, 60) s, not %.10g and %.10g", noise, delay);
    model_kernel *mk = calloc(1, sizeof *mk);
    if (mk == NULL)
        return dls__oom(err, "dls_model_kernel_create");
    dls_status st = dls_model_copy(model, &mk->model, err);
    if (st != DLS_OK) {
        free(mk);
        return st;
    }
    mk->noise = noise;
    mk->delay = delay;
    mk->last_size = NAN;
    memset(kernel, 0, sizeof *kernel);
    kernel->name = "model";
    kernel->run = model_run;
    kernel->data = mk;
    kernel->release = model_kernel_release;
    return DLS_OK;
}

void dls_kernel_free(dls_kernel *kernel)
{
    if (kernel == NULL || kernel->release == NULL)
        return;
    if (kernel->data != NULL)
        kernel->release(kernel->data);
    kernel->data = NULL;
    kernel->release = NULL;
}

/* The name before issue 37's one free, kept for one release. */
void dls_model_kernel_free(dls_kernel *kernel)
{
    if (kernel != NULL && kernel->release == model_kernel_release)
        dls_kernel_free(kernel);
}

double dls_bench_budget_top(const dls_bench *r) { return r->measured_top; }
