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
#define DLS_BENCH_DEFAULT_PRECISION 0.05
#define DLS_BENCH_DEFAULT_MIN_REPS 3
#define DLS_BENCH_DEFAULT_MAX_REPS 50
#define DLS_BENCH_DEFAULT_SIZE_CAP 10.0
#define DLS_BENCH_DEFAULT_INITIAL 5
/* With a time budget, a size is measured only if its warm-up and minimum repetitions,
 * extrapolated from the largest size measured so far, take at most this share of the
 * budget left; a larger end of the range is brought down to what fits. */
#define DLS_BENCH_BUDGET_SHARE 0.25
#define DLS_BENCH_DEFAULT_MAX_POINTS 40
#define DLS_BENCH_DEFAULT_MEMORY_FRACTION 0.5
/* Passes over the points at most. */
#define DLS_BENCH_MAX_PASSES 100
/* Two sizes closer than this (relatively) are the same size, e.g. when resuming. */
#define DLS_BENCH_SAME_SIZE 1e-12
/* The search of the largest size that fits the memory: doubling up to this size at most,
 * then bisection steps at most, until the bracket is this narrow (relatively). */
#define DLS_BENCH_SEARCH_TOP 1e300
#define DLS_BENCH_SEARCH_STEPS 200
#define DLS_BENCH_SEARCH_TOL 1e-12

struct dls_bench {
    dls_bench_point *points;  /* every point measured, by increasing size */
    unsigned char *kept;      /* in the model */
    size_t n, cap;
    dls_model *model;
    double limit;
    dls_bench_stop stop;
    double elapsed;
    double measured_top;      /* the budget brought the largest size down to this (0: no) */
};

DLS__ENUM_NAMES(dls_bench_stop, dls_bench_stop, DLS_BENCH_STOP_MAP)

void dls_bench_params_init(dls_bench_params *p)
{
    memset(p, 0, sizeof *p);
    p->min_size = 1;
    p->memory_fraction = DLS_BENCH_DEFAULT_MEMORY_FRACTION;
    p->precision = DLS_BENCH_DEFAULT_PRECISION;
    p->confidence = DLS_BENCH_DEFAULT_CONFIDENCE;
    p->min_reps = DLS_BENCH_DEFAULT_MIN_REPS;
    p->max_reps = DLS_BENCH_DEFAULT_MAX_REPS;
    p->size_time_cap = DLS_BENCH_DEFAULT_SIZE_CAP;
    p->initial_points = DLS_BENCH_DEFAULT_INITIAL;
    p->max_points = DLS_BENCH_DEFAULT_MAX_POINTS;
    p->passes = 1;
}

void dls_bench_free(dls_bench *b)
{
    if (b == NULL)
        return;
    free(b->points);
    free(b->kept);
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

dls_status dls_memory_available(double *bytes, dls_error *err)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return dls__fail(err, DLS_EIO, "/proc/meminfo: cannot open it to find the memory "
                         "available; give the largest size instead");
    char line[256];
    double kb = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %lf kB", &kb) == 1)
            break;
    fclose(f);
    if (!(kb > 0))
        return dls__fail(err, DLS_EIO, "/proc/meminfo has no MemAvailable line; give the "
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
} builder;

dls_status dls__bench_check_params(const char *fn, const dls_bench_params *p, dls_error *err)
{
    dls_status st = DLS__CHECK_RESERVED(p, fn, dls_bench_params, err);
    if (st != DLS_OK)
        return st;
    if (!isfinite(p->min_size) || p->min_size <= 0)
        return dls__fail(err, DLS_EINVAL, "%s: min_size must be > 0, not %.10g", fn, p->min_size);
    if (!isfinite(p->max_size) || p->max_size < 0 || (p->max_size > 0 && p->max_size <= p->min_size))
        return dls__fail(err, DLS_EINVAL, "%s: max_size must be 0 (from the memory) or larger "
                         "than min_size %.10g, not %.10g", fn, p->min_size, p->max_size);
    if (!(p->memory_fraction > 0 && p->memory_fraction <= 1))
        return dls__fail(err, DLS_EINVAL, "%s: memory_fraction must be in (0, 1], not %.10g", fn,
                         p->memory_fraction);
    if (!(p->precision > 0 && p->precision < 1))
        return dls__fail(err, DLS_EINVAL, "%s: precision must be in (0, 1), not %.10g", fn,
                         p->precision);
    if (!(p->confidence > 0 && p->confidence < 1))
        return dls__fail(err, DLS_EINVAL, "%s: confidence must be in (0, 1), not %.10g", fn,
                         p->confidence);
    if (p->min_reps < 2 || p->max_reps < p->min_reps)
        return dls__fail(err, DLS_EINVAL, "%s: need 2 <= min_reps <= max_reps, not %u and %u", fn,
                         p->min_reps, p->max_reps);
    if (!(p->size_time_cap > 0))
        return dls__fail(err, DLS_EINVAL, "%s: size_time_cap must be > 0, not %.10g", fn,
                         p->size_time_cap);
    if (!(p->time_budget >= 0))
        return dls__fail(err, DLS_EINVAL, "%s: time_budget must be >= 0, not %.10g", fn,
                         p->time_budget);
    if (p->initial_points < 2 || p->max_points < p->initial_points)
        return dls__fail(err, DLS_EINVAL, "%s: need 2 <= initial_points <= max_points, not %zu "
                         "and %zu", fn, p->initial_points, p->max_points);
    if (p->passes < 1 || p->passes > DLS_BENCH_MAX_PASSES)
        return dls__fail(err, DLS_EINVAL, "%s: passes must be in [1, %d], not %u", fn,
                         DLS_BENCH_MAX_PASSES, p->passes);
    if (p->resume_count > 0 && p->resume == NULL)
        return dls__fail(err, DLS_EINVAL, "%s: resume is NULL with resume_count %zu", fn,
                         p->resume_count);
    return DLS_OK;
}

/* The kernel, then every field of p. */
static dls_status check_params(const char *fn, const dls_kernel *k, const dls_bench_params *p,
                               dls_error *err)
{
    if (k == NULL || k->run == NULL)
        return dls__fail(err, DLS_EINVAL, "%s: NULL kernel", fn);
    dls_status st = dls__bench_check_params(fn, p, err);
    if (st != DLS_OK)
        return st;
    if (p->max_size == 0 && k->memory == NULL)
        return dls__fail(err, DLS_EINVAL, "%s: kernel \"%s\" has no memory formula: give the "
                         "largest size (max_size)", fn, k->name ? k->name : "?");
    return DLS_OK;
}

dls_status dls__bench_largest_size(const dls_kernel *k, const dls_bench_params *p, double *out,
                                   dls_error *err)
{
    DLS_ASSERT(k->memory != NULL);
    double avail;
    dls_status st = dls_memory_available(&avail, err);
    if (st != DLS_OK)
        return st;
    double budget = avail * p->memory_fraction;
    if (!(k->memory(p->min_size, k->data) <= budget))
        return dls__fail(err, DLS_EINVAL, "kernel \"%s\": even the smallest size %.10g needs "
                         "%.4g bytes, more than %.4g available", k->name, p->min_size,
                         k->memory(p->min_size, k->data), budget);
    double lo = p->min_size, hi = 2 * p->min_size;
    while (k->memory(hi, k->data) <= budget && hi < DLS_BENCH_SEARCH_TOP)
        hi *= 2;
    for (int it = 0; it < DLS_BENCH_SEARCH_STEPS && hi - lo > DLS_BENCH_SEARCH_TOL * hi; it++) {
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

static int over_budget(const builder *b)
{
    return b->par->time_budget > 0 && elapsed(b) >= b->par->time_budget;
}

/* Index of the point at this size, or n when there is none. */
static size_t find_point(const dls_bench *r, double size)
{
    for (size_t i = 0; i < r->n; i++)
        if (fabs(r->points[i].size - size) <= DLS_BENCH_SAME_SIZE * size)
            return i;
    return r->n;
}

static dls_status add_point(builder *b, const dls_bench_point *pt, int kept, size_t *index)
{
    dls_bench *r = b->res;
    if (r->n == r->cap) {
        /* both arrays grow by the same policy from the same capacity */
        size_t cap = r->cap, kcap = r->cap;
        dls_bench_point *np = dls__grow(r->points, &cap, r->n + 1, sizeof *np);
        if (np == NULL)
            return dls__fail(b->err, DLS_ENOMEM, "dls_bench_build: out of memory");
        r->points = np;
        unsigned char *nk = dls__grow(r->kept, &kcap, r->n + 1, sizeof *nk);
        if (nk == NULL)
            return dls__fail(b->err, DLS_ENOMEM, "dls_bench_build: out of memory");
        r->kept = nk;
        r->cap = cap < kcap ? cap : kcap;
    }
    size_t i = r->n;
    while (i > 0 && r->points[i - 1].size > pt->size) {
        r->points[i] = r->points[i - 1];
        r->kept[i] = r->kept[i - 1];
        i--;
    }
    r->points[i] = *pt;
    r->kept[i] = (unsigned char)kept;
    r->n++;
    if (index)
        *index = i;
    return DLS_OK;
}

/* The largest size up to `size` whose measurement fits the share of the budget left,
 * from the time per unit of the largest size measured so far (the kernels' work, and so
 * their time, grows with the size). */
static double affordable(const builder *b, double size)
{
    const dls_bench_params *p = b->par;
    if (!(p->time_budget > 0) || !(b->real_per_unit > 0))
        return size;
    double per_unit = b->real_per_unit;
    double runs = 1.0 + (double)p->min_reps; /* the warm-up and the minimum repetitions */
    double left = fmax(0, p->time_budget - elapsed(b));
    double can = DLS_BENCH_BUDGET_SHARE * left / (runs * per_unit);
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
        return dls__fail(b->err, DLS_ECANCELED, "measurement canceled at size %.10g", size);
    if (b->k->run(size, &work, b->k->data) < 0) /* warm-up: caches, page faults, threads */
        return dls__fail(b->err, DLS_EIO, "kernel \"%s\" failed at size %.10g", b->k->name,
                         size);
    double sum_t = 0, sum_t2 = 0, sum_w = 0, low = INFINITY, high = 0;
    unsigned n = 0;
    double hw = INFINITY;
    for (;;) {
        prog.rep = n + 1;
        prog.elapsed = elapsed(b);
        if (tell(b, &prog) != 0)
            return dls__fail(b->err, DLS_ECANCELED, "measurement canceled at size %.10g", size);
        double t = b->k->run(size, &work, b->k->data);
        if (!(t > 0) || !isfinite(work) || work <= 0)
            return dls__fail(b->err, DLS_EIO, "kernel \"%s\" failed at size %.10g (run %u)",
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
            (hw <= p->precision * mean || n >= p->max_reps || now() - t0 >= p->size_time_cap ||
             over_budget(b)))
            break;
    }
    double mean_t = sum_t / n, mean_w = sum_w / n;
    if (size >= b->real_size) {
        b->real_size = size;
        b->real_per_unit = (now() - t0) / (double)(n + 1) / size;
    }
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
        if (fabs(p->resume[i].size - size) <= DLS_BENCH_SAME_SIZE * size && seen++ == pass) {
            *pt = p->resume[i];
            return DLS_OK;
        }
    dls_status st = measure(b, size, pt);
    if (st != DLS_OK)
        return st;
    if (p->on_point && p->on_point(pt, p->on_point_data))
        return dls__fail(b->err, DLS_ECANCELED, "measurement canceled after size %.10g", size);
    return DLS_OK;
}

static dls_status obtain(builder *b, double size, dls_bench_point *pt)
{
    return obtain_pass(b, size, 0, pt);
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

/* Whether the interval between the kept points a and c may do without its midpoint m: the
 * straight line between them predicts m's speed within m's band (widened to the precision
 * asked for, so that measurements more consistent than that do not make the model chase
 * noise), and m's speed lies within the band the model will give there (the ends' bands
 * interpolated), so that the model's band holds what is measured between its points. */
static int agrees(const dls_bench_point *a, const dls_bench_point *c, const dls_bench_point *m,
                  double precision)
{
    double w = (m->size - a->size) / (c->size - a->size);
    double pred = a->speed + (c->speed - a->speed) * w;
    double lo = fmin(m->low, m->speed * (1 - precision));
    double hi = fmax(m->high, m->speed * (1 + precision));
    double band_lo = a->low + (c->low - a->low) * w, band_hi = a->high + (c->high - a->high) * w;
    return pred >= lo && pred <= hi && m->speed >= band_lo && m->speed <= band_hi;
}

/* The intervals between kept points still to examine, by their sizes: a FIFO, so that
 * coarse intervals are examined before fine ones. */
typedef struct interval {
    double a, c;
} interval;

typedef struct queue {
    interval *v;
    size_t head, tail, cap;
} queue;

static dls_status queue_push(builder *b, queue *q, double a, double c)
{
    if (q->tail == q->cap && q->head > 0) {
        /* compact: the intervals examined are dropped */
        memmove(q->v, q->v + q->head, (q->tail - q->head) * sizeof *q->v);
        q->tail -= q->head;
        q->head = 0;
    }
    interval *g = dls__grow(q->v, &q->cap, q->tail + 1, sizeof *q->v);
    if (g == NULL)
        return dls__fail(b->err, DLS_ENOMEM, "dls_bench_build: out of memory");
    q->v = g;
    q->v[q->tail++] = (interval){a, c};
    return DLS_OK;
}

/* The first sizes, log-spaced: the two ends first, so that even a short budget covers the
 * whole range, then the ones in between. With a time budget the largest end is brought down
 * to what the budget affords (res->measured_top), and the rest of the range is placed below. */
static dls_status measure_initial(builder *b)
{
    const dls_bench_params *p = b->par;
    size_t n0 = p->initial_points;
    double lmin = log(p->min_size), lmax = log(b->max_size);
    dls_status st = DLS_OK;
    for (size_t j = 0; j < n0 && st == DLS_OK; j++) {
        size_t i = j == 0 ? 0 : j == 1 ? n0 - 1 : j - 1;
        double s = i == 0        ? p->min_size
                   : i + 1 == n0 ? b->max_size
                                 : round_size(b, exp(lmin + (lmax - lmin) * i / (n0 - 1)));
        if (i + 1 == n0) {
            double fit = round_size(b, affordable(b, s));
            if (fit < s) {
                s = fit > p->min_size ? fit : p->min_size;
                lmax = log(s);
                b->res->measured_top = s;
            }
        }
        if (s < p->min_size)
            s = p->min_size;
        if (find_point(b->res, s) < b->res->n)
            continue;
        if (b->res->n >= 2 && over_budget(b))
            break;
        b->pending = n0 - j + (n0 - 1); /* the rest, and a midpoint per interval */
        dls_bench_point pt;
        st = obtain(b, s, &pt);
        if (st == DLS_OK)
            st = add_point(b, &pt, 1, NULL);
    }
    return st;
}

/* Examines the queued intervals in turn: the geometric midpoint of each (sizes span decades)
 * is measured; when the ends do not predict it, it is kept and both halves are queued. */
static dls_status bisect(builder *b, queue *q)
{
    dls_bench *r = b->res;
    while (q->head < q->tail) {
        if (r->n >= b->par->max_points) {
            r->stop = DLS_BENCH_MAX_POINTS;
            break;
        }
        if (over_budget(b)) {
            r->stop = DLS_BENCH_BUDGET;
            break;
        }
        interval iv = q->v[q->head++];
        double mid = round_size(b, sqrt(iv.a * iv.c));
        if (!(mid > iv.a && mid < iv.c))
            continue; /* no size left in between */
        size_t ia = find_point(r, iv.a), ic = find_point(r, iv.c);
        b->pending = q->tail - q->head + 1;
        dls_bench_point pt;
        dls_status st = obtain(b, mid, &pt);
        if (st != DLS_OK)
            return st;
        int split = !agrees(&r->points[ia], &r->points[ic], &pt, b->par->precision);
        st = add_point(b, &pt, split, NULL);
        if (st == DLS_OK && split)
            st = queue_push(b, q, iv.a, mid);
        if (st == DLS_OK && split)
            st = queue_push(b, q, mid, iv.c);
        if (st != DLS_OK)
            return st;
    }
    return DLS_OK;
}

/* When the budget brought the top down and the range below has converged with time to
 * spare: measures a larger top, estimated now from the largest size measured, and queues the
 * new interval (*more = 1); otherwise says why the build stops (*more = 0). */
static dls_status extend_top(builder *b, queue *q, int *more)
{
    dls_bench *r = b->res;
    *more = 0;
    if (r->measured_top <= 0 || r->stop != DLS_BENCH_CONVERGED)
        return DLS_OK;
    if (r->n >= b->par->max_points) {
        r->stop = DLS_BENCH_MAX_POINTS;
        return DLS_OK;
    }
    if (over_budget(b)) {
        r->stop = DLS_BENCH_BUDGET; /* the range above measured_top is left out */
        return DLS_OK;
    }
    double old = r->points[r->n - 1].size;
    double fit = round_size(b, affordable(b, b->max_size));
    if (!(fit > old * (1 + DLS_BENCH_SAME_SIZE))) {
        r->stop = DLS_BENCH_BUDGET; /* no larger size fits what is left */
        return DLS_OK;
    }
    b->pending = 2;
    dls_bench_point pt;
    dls_status st = obtain(b, fit, &pt);
    if (st == DLS_OK)
        st = add_point(b, &pt, 1, NULL);
    if (st != DLS_OK)
        return st;
    r->measured_top = fit < b->max_size ? fit : 0;
    *more = 1;
    return queue_push(b, q, old, fit);
}

/* The adaptive choice of sizes after the initial ones: bisection of every interval, and the
 * top extended while the budget allows. */
static dls_status refine(builder *b)
{
    queue q = {NULL, 0, 0, 0};
    dls_status st = DLS_OK;
    for (size_t i = 0; st == DLS_OK && i + 1 < b->res->n; i++)
        st = queue_push(b, &q, b->res->points[i].size, b->res->points[i + 1].size);
    for (int more = 1; st == DLS_OK && more;) {
        st = bisect(b, &q);
        if (st == DLS_OK)
            st = extend_top(b, &q, &more);
    }
    free(q.v);
    return st;
}

/* Later passes: every point measured again, its band the union of all its passes, so that
 * the bands hold fluctuations slower than a point's consecutive runs; then the intervals
 * are checked again against the wider bands, keeping the midpoints that no longer agree. */
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
            if (st == DLS_OK)
                merge_point(&r->points[i], &more);
        }
        for (size_t i = 0; st == DLS_OK && i < r->n; i++) {
            if (r->kept[i])
                continue;
            size_t a = i, c = i;
            while (a > 0 && !r->kept[a])
                a--;
            while (c + 1 < r->n && !r->kept[c])
                c++;
            if (r->kept[a] && r->kept[c] && a < i && i < c &&
                !agrees(&r->points[a], &r->points[c], &r->points[i], b->par->precision))
                r->kept[i] = 1;
        }
    }
    return st;
}

/* The model through the kept points, with their bands. */
static dls_status make_model(builder *b)
{
    dls_bench *r = b->res;
    size_t nk = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->kept[i])
            nk++;
    double *buf = malloc(4 * (nk ? nk : 1) * sizeof *buf);
    if (buf == NULL)
        return dls__fail(b->err, DLS_ENOMEM, "dls_bench_build: out of memory");
    double *x = buf, *s = buf + nk, *lo = buf + 2 * nk, *hi = buf + 3 * nk;
    size_t j = 0;
    for (size_t i = 0; i < r->n; i++)
        if (r->kept[i]) {
            x[j] = r->points[i].size;
            s[j] = r->points[i].speed;
            lo[j] = r->points[i].low;
            hi[j] = r->points[i].high;
            j++;
        }
    dls_status st = dls_model_create_points(nk, x, s, lo, hi, &r->model, b->err);
    free(buf);
    return st;
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
        return dls__fail(err, DLS_EINVAL, "dls_bench_build: NULL result");
    dls_status st = check_params("dls_bench_build", kernel, params, err);
    if (st != DLS_OK)
        return st;
    builder b = {kernel, params, NULL, now(), err, params->max_size, 0, 0, 0};
    if (b.max_size == 0) {
        st = dls__bench_largest_size(kernel, params, &b.max_size, err);
        if (st != DLS_OK)
            return st;
    }
    if (b.max_size <= params->min_size)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build: the largest size %.10g is not above "
                         "the smallest %.10g", b.max_size, params->min_size);
    b.res = calloc(1, sizeof *b.res);
    if (b.res == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_bench_build: out of memory");
    st = measure_initial(&b);
    b.res->stop = DLS_BENCH_CONVERGED;
    if (st == DLS_OK)
        st = refine(&b);
    if (st == DLS_OK)
        st = later_passes(&b);
    if (st == DLS_OK)
        st = make_model(&b);
    if (st != DLS_OK) {
        dls_bench_free(b.res);
        return st;
    }
    b.res->limit = b.max_size;
    b.res->elapsed = elapsed(&b);
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
        return dls__fail(err, DLS_EINVAL, "dls_bench_measure: NULL argument");
    dls_bench_params p = *params;
    p.max_size = DBL_MAX; /* the sizes are given: no largest size to find */
    dls_status st = check_params("dls_bench_measure", kernel, &p, err);
    if (st != DLS_OK)
        return st;
    builder b = {kernel, &p, NULL, now(), err, INFINITY, count, 0, 0};
    b.res = calloc(1, sizeof *b.res);
    if (b.res == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_bench_measure: out of memory");
    for (size_t i = 0; i < count && st == DLS_OK; i++) {
        if (!isfinite(sizes[i]) || sizes[i] <= 0)
            st = dls__fail(err, DLS_EINVAL, "dls_bench_measure: size %zu is %.10g; sizes must be "
                           "finite and > 0", i + 1, sizes[i]);
        else
            st = obtain(&b, sizes[i], &points[i]);
        b.res->n = i + 1; /* progress reports count the points done */
        b.pending = count - i - 1;
    }
    free(b.res);
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

dls_status dls_model_kernel_create(const dls_model *model, double noise, double delay,
                                   dls_kernel *kernel, dls_error *err)
{
    if (model == NULL || kernel == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create: NULL argument");
    if (dls_model_dimension(model) != 1)
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create: the model must be 1-D");
    if (!(noise >= 0 && noise < 1) || !(delay >= 0 && delay < 60))
        return dls__fail(err, DLS_EINVAL, "dls_model_kernel_create: noise must be in [0, 1) and "
                         "delay in [0, 60) s, not %.10g and %.10g", noise, delay);
    model_kernel *mk = calloc(1, sizeof *mk);
    if (mk == NULL)
        return dls__fail(err, DLS_ENOMEM, "dls_model_kernel_create: out of memory");
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
    return DLS_OK;
}

void dls_model_kernel_free(dls_kernel *kernel)
{
    if (kernel == NULL || kernel->data == NULL)
        return;
    model_kernel *mk = kernel->data;
    dls_model_free(mk->model);
    free(mk);
    kernel->data = NULL;
}

double dls_bench_budget_top(const dls_bench *r) { return r->measured_top; }
