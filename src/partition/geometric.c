/* Geometric partitioning of equal elements with functional performance models (Lastovetsky and
 * Reddy 2007a, Algorithm 1; Lastovetsky and Reddy 2005 for limits).
 *
 * The optimum puts every processor that is not at its limit on one line through the
 * origin: they all finish at the same time T. With X_i(T) the largest size processor i
 * finishes within T (the intersection of the line of slope 1/T with its speed graph, see
 * model/inverse.c), the continuous optimum is the root of
 *     F(T) = sum_i min(X_i(T), cap_i) - n,
 * an increasing function. Algorithm 1.1 of the paper brackets it by bisecting the angle
 * between two lines, which costs 30 to 90 passes over the models at realistic sizes;
 * F is smooth between the models' breakpoints, so a safeguarded Newton iteration on T
 * reaches the same root in a handful of passes. Limits are caps inside F, which gives the
 * optimum HMPA (Lastovetsky and Reddy 2005) reaches by re-partitioning. The integer distribution
 * then follows by the greedy completion of Algorithm 1.2 from floor(X_i). */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/heap.h"
#include "core/sort.h"
#include "partition/partition_impl.h"

/* Newton stops once a step moves T by less than this relative amount. */
#define DLS__ROOT_REL_STEP (4 * DBL_EPSILON)
/* The last Newton step is taken without evaluating F again once it moves T by less than
 * this relative amount: its error is then of the order of its square. */
#define DLS__ROOT_REFINE_STEP 1e-10
/* Aiming the last evaluation where the floors sum to n (see dls__continuous_root) pays
 * from this many processors, and is done only when the shift is at most this fraction of
 * the total, so that the step back to the continuous optimum stays exact to rounding. */
#define DLS__ALIGN_MIN_PROCESSORS 64
#define DLS__ALIGN_REL 1e-7
/* From DLS__SAMPLE_MIN_PROCESSORS processors on, the Newton iteration starts from the root
 * of the problem scaled down to a regular sample of DLS__SAMPLE_PROCESSORS of them (a
 * quarter of them at most, so that solving it costs a fraction of a pass), solved to
 * DLS__SAMPLE_REL_TOL. */
#define DLS__SAMPLE_PROCESSORS 2048
#define DLS__SAMPLE_MIN_PROCESSORS (4 * DLS__SAMPLE_PROCESSORS)
#define DLS__SAMPLE_REL_TOL 1e-9
/* Bisection guard: fall back to halving the bracket after this many Newton steps that did
 * not halve |F|. */
#define DLS__ROOT_SLOW_STEPS 2
/* Newton's safeguard multiplies T by this until the root is bracketed, and tries b / this
 * within a bracket [0, b]: a geometric search, since T can be anywhere in the doubles. */
#define DLS__ROOT_EXPAND 4
/* Newton's start when the equal-share guess is not a positive number (no processor can take
 * work at that share): any positive time does, the safeguard brackets the root from it. */
#define DLS__ROOT_FALLBACK_START 1.0
/* Hard bound on root-finding passes (bisection alone converges in about 2100 steps over
 * the full double range; realistic cases take fewer than 10). */
#define DLS__ROOT_MAX_STEPS 3000

/* ---------------------------------------------------------------------------------- */
/* The continuous root                                                                */

/* S(T) = sum_i min(X_i(T), cap_i), filling X. With deriv: S'(T), the derivatives in D (if
 * not NULL), in *moving the part of S from processors whose size still grows with T, and
 * in *frac the expected loss of taking floor(X_i) on those processors. */
static double sum_sizes(const dls_model *const *models, const double *cap, size_t p, double t,
                        double *X, double *D, double *deriv, double *moving, double *frac)
{
    double sum = 0, d = 0, loss = 0, mov = 0;
    for (size_t i = 0; i < p; i++) {
        double di;
        double x = dls__size_for_time(models[i], t, cap[i], &di);
        X[i] = x;
        sum += x;
        d += di;
        if (D)
            D[i] = di;
        if (di > 0) {
            mov += x;
            loss += x < 0.5 ? x : 0.5;
        }
    }
    if (deriv)
        *deriv = d;
    if (moving)
        *moving = mov;
    if (frac)
        *frac = loss;
    return sum;
}

/* Constant speeds: sort the times at which processors reach their caps and walk them,
 * O(p log p). */
static dls_status constant_root(const dls_model *const *models, const double *cap, size_t p,
                                double total, double *X, dls__root *root, dls_error *err)
{
    dls__keyed *order = malloc(p * sizeof *order); /* key: when processor index is full */
    double *free_speed = malloc((p + 1) * sizeof *free_speed);
    if (order == NULL || free_speed == NULL) {
        free(order);
        free(free_speed);
        return dls__partition_nomem(err);
    }
    for (size_t i = 0; i < p; i++) {
        order[i].key = cap[i] / models[i]->constant;
        order[i].index = i;
    }
    dls__keyed_sort(order, p);
    /* speed of the processors not yet at their caps, summed from the end so that removing
     * a very fast processor does not cancel the digits of the slow ones */
    free_speed[p] = 0;
    for (size_t k = p; k-- > 0;)
        free_speed[k] = free_speed[k + 1] + models[order[k].index]->constant;
    double capped = 0, t = order[p - 1].key; /* everything capped: the last to fill decides */
    for (size_t k = 0; k < p; k++) {
        double cand = (total - capped) / free_speed[k];
        if (cand <= order[k].key) {
            t = cand;
            break;
        }
        capped += cap[order[k].index];
    }
    free(free_speed);
    free(order);
    sum_sizes(models, cap, p, t, X, NULL, NULL, NULL, NULL);
    root->t_eval = t;
    root->t_root = t;
    root->steps = 1;
    return DLS_OK;
}

/* Algorithm 1.1 of Lastovetsky and Reddy (2007a) as printed: bisect the angle between the lines U
 * (through (n/p, max speed)) and L (through (n/p, min speed)) until on every graph the two
 * intersections are less than one element apart. The bisector of two lines through the
 * origin with slopes a and b has the direction of the sum of their unit vectors. */
static dls_status bisection_root(const dls_model *const *models, const double *cap, size_t p,
                                 double total, double *X, dls__root *root, dls_error *err)
{
    double *xu = malloc(p * sizeof *xu), *xl = malloc(p * sizeof *xl);
    if (xu == NULL || xl == NULL) {
        free(xu);
        free(xl);
        return dls__partition_nomem(err);
    }
    double g = total / (double)p;
    double smax = 0, smin = INFINITY;
    for (size_t i = 0; i < p; i++) {
        if (cap[i] <= 0)
            continue;
        double s = dls_model_speed(models[i], fmin(g, cap[i]));
        if (s > smax)
            smax = s;
        if (s < smin)
            smin = s;
    }
    unsigned steps = 1;
    double tu = g / smax, tl = g / smin; /* the slope of a line is 1 / T */
    DLS__ASSERT(smax > 0 && tu <= tl); /* a bracket: some cap is > 0 since capsum > total */
    double su = sum_sizes(models, cap, p, tu, xu, NULL, NULL, NULL, NULL);
    double sl = sum_sizes(models, cap, p, tl, xl, NULL, NULL, NULL, NULL);
    steps += 2;
    while (su > total && steps < DLS__ROOT_MAX_STEPS) { /* outside the paper's assumptions */
        tu /= 2;
        su = sum_sizes(models, cap, p, tu, xu, NULL, NULL, NULL, NULL);
        steps++;
    }
    while (sl < total && steps < DLS__ROOT_MAX_STEPS) {
        tl *= 2;
        sl = sum_sizes(models, cap, p, tl, xl, NULL, NULL, NULL, NULL);
        steps++;
    }
    while (steps < DLS__ROOT_MAX_STEPS) {
        int close = 1;
        for (size_t i = 0; i < p && close; i++)
            if (xl[i] - xu[i] >= 1)
                close = 0;
        if (close)
            break;
        double au = 1 / tu, al = 1 / tl;
        double ru = 1 / hypot(1, au), rl = 1 / hypot(1, al);
        double am = (au * ru + al * rl) / (ru + rl);
        double tm = 1 / am;
        if (!(tm > tu && tm < tl))
            break; /* the angle cannot be split any further in floating point */
        double sm = sum_sizes(models, cap, p, tm, X, NULL, NULL, NULL, NULL);
        steps++;
        if (sm <= total) {
            tu = tm;
            memcpy(xu, X, p * sizeof *X);
        } else {
            tl = tm;
            memcpy(xl, X, p * sizeof *X);
        }
    }
    memcpy(X, xu, p * sizeof *X);
    root->t_eval = tu;
    root->t_root = tu; /* a lower bound: sum X(tu) <= n */
    root->steps = steps;
    free(xu);
    free(xl);
    return DLS_OK;
}

/* Safeguarded Newton's method on S(T) = target from t. S is increasing and mostly concave
 * (speeds fall with the size, caps flatten it), where Newton's iterates approach the root
 * from below without overshooting; a bracket catches the rest. */
static void newton(const dls_model *const *models, const double *cap, size_t p, double total,
                   double capsum, double t, double ftol, int align, double *X, double *D,
                   dls__root *root)
{
    double a = 0, b = INFINITY, a0 = 0, b0 = INFINITY, prev_f = INFINITY;
    unsigned steps = 0, slow = 0;
    double t_root = t;
    for (;;) {
        double dS, moving, loss;
        double S = sum_sizes(models, cap, p, t, X, D, &dS, &moving, &loss);
        steps++;
        root->t_eval = t;
        /* With many processors, aim where the floors of the sizes sum to the total, so that
         * the integer stage has little left to place; the continuous optimum then follows
         * from one Newton step back, whose error is the square of a tiny shift. */
        double shift = align && p >= DLS__ALIGN_MIN_PROCESSORS && loss <= DLS__ALIGN_REL * total &&
                               total + loss < capsum
                           ? loss : 0;
        double target = total + shift;
        double f = S - target, f0 = S - total;
        if (f0 < 0)
            a0 = t;
        else
            b0 = t;
        /* the continuous optimum: one Newton step back, kept inside its bracket (models
         * breaking the shape assumption make S jump, and the root sits at a jump) */
        t_root = dS > 0 ? t - f0 / dS : t;
        if (!(t_root >= a0 && t_root <= b0))
            t_root = a0;
        if (f == 0 && (shift > 0 || f0 == 0))
            break;
        if (f < 0)
            a = t;
        else
            b = t;
        double next = dS > 0 ? t - f / dS : NAN;
        if (fabs(f) <= ftol && (shift > 0 || fabs(next - t) <= DLS__ROOT_REFINE_STEP * t))
            break;
        slow = fabs(f) > 0.5 * prev_f ? slow + 1 : 0;
        prev_f = fabs(f);
        if (!(next > a && next < b) || slow > DLS__ROOT_SLOW_STEPS) {
            /* safeguard: expand until bracketed, then halve the bracket in log scale */
            if (isinf(b))
                next = DLS__ROOT_EXPAND * t;
            else
                next = a > 0 ? sqrt(a) * sqrt(b) : b / DLS__ROOT_EXPAND;
            slow = 0;
        }
        if (fabs(next - t) <= DLS__ROOT_REL_STEP * t ||
            (isfinite(b) && b - a <= DLS__ROOT_REL_STEP * b) || steps >= DLS__ROOT_MAX_STEPS)
            break;
        t = next;
    }
    root->t_root = t_root > 0 ? t_root : root->t_eval;
    root->steps = steps;
}

/* A start for Newton: the time at which every processor, running at the speed it has for
 * an equal share, would finish its part of the total. */
static double equal_share_guess(const dls_model *const *models, const double *cap, size_t p,
                                size_t stride, double total)
{
    size_t k = 0;
    double speed = 0;
    for (size_t i = 0; i < p; i += stride, k++)
        if (cap[i] > 0)
            speed += dls_model_speed(models[i], fmin(total / (double)p, cap[i]));
    double t = total / (speed * ((double)p / (double)k));
    return t > 0 && isfinite(t) ? t : DLS__ROOT_FALLBACK_START;
}

dls_status dls__continuous_root(const dls_model *const *models, const double *cap, size_t p,
                                double total, dls_partition_method method, double ftol, int align,
                                double *X, double *D, dls__root *root, dls_error *err)
{
    DLS__ASSERT(total > 0); /* callers handle an empty set before */
    int all_constant = 1;
    double capsum = 0;
    for (size_t i = 0; i < p; i++)
        capsum += cap[i];
    for (size_t i = 0; i < p && all_constant; i++)
        all_constant = models[i]->kind == DLS_MODEL_CONSTANT;
    if (capsum <= total) {
        /* everything at its cap: the slowest processor to fill its cap decides */
        double t = 0;
        for (size_t i = 0; i < p; i++) {
            X[i] = cap[i];
            if (cap[i] > 0)
                t = fmax(t, dls_model_time(models[i], cap[i]));
        }
        root->t_eval = t;
        root->t_root = t;
        root->steps = 1;
        return DLS_OK;
    }
    if (method == DLS_PARTITION_BISECTION)
        return bisection_root(models, cap, p, total, X, root, err);
    if (all_constant)
        return constant_root(models, cap, p, total, X, root, err);

    double t;
    unsigned extra = 0;
    if (p >= DLS__SAMPLE_MIN_PROCESSORS) {
        /* Many processors: solve the problem scaled down to a regular sample of them first;
         * its root starts the full iteration within the sampling error, for about a tenth
         * of a pass. */
        size_t stride = p / DLS__SAMPLE_PROCESSORS, k = (p + stride - 1) / stride;
        const dls_model **sm = malloc(k * sizeof *sm);
        double *sc = malloc(2 * k * sizeof *sc);
        if (sm == NULL || sc == NULL) {
            free(sm);
            free(sc);
            return dls__partition_nomem(err);
        }
        double scap = 0;
        for (size_t j = 0; j < k; j++) {
            sm[j] = models[j * stride];
            sc[j] = cap[j * stride];
            scap += sc[j];
        }
        double stotal = total * (double)k / (double)p;
        if (scap > stotal) {
            dls__root sr;
            double t0 = equal_share_guess(sm, sc, k, 1, stotal);
            newton(sm, sc, k, stotal, scap, t0, stotal * DLS__SAMPLE_REL_TOL, 0, sc + k, NULL, &sr);
            t = sr.t_root;
        } else {
            t = equal_share_guess(models, cap, p, stride, total);
        }
        free(sm);
        free(sc);
    } else {
        t = equal_share_guess(models, cap, p, 1, total);
        extra = 1; /* a full pass */
    }
    newton(models, cap, p, total, capsum, t, ftol, align, X, D, root);
    root->steps += extra;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* The integer distribution                                                           */

/* The d-th smallest (largest with max set) of the finite values v[i]: every one of the d
 * smallest (largest) values of the sequences the greedy draws from lies on this side of it.
 * A bounded heap over one pass; items is scratch of d entries. */
static double threshold(const double *v, size_t p, size_t d, int max, size_t *items)
{
    dls__heap h; /* keeps the d best seen, worst on top */
    dls__heap_init(&h, items, d, v, sizeof *v, max ? DLS__HEAP_MIN : DLS__HEAP_MAX);
    for (size_t i = 0; i < p; i++) {
        if (!isfinite(v[i]) || (max && v[i] <= 0))
            continue;
        if (h.size < d) {
            dls__heap_push(&h, i);
        } else if (max ? v[i] > v[dls__heap_top(&h)] : v[i] < v[dls__heap_top(&h)]) {
            dls__heap_pop(&h);
            dls__heap_push(&h, i);
        }
    }
    return h.size < d ? (max ? 0 : INFINITY) : v[dls__heap_top(&h)];
}

/* The integer distribution being built: count[i] elements on processor i, time[i] the
 * time of that share, next[i] the time with one element more (INFINITY at the cap). */
typedef struct ifill {
    const dls_model *const *models;
    const double *cap;
    size_t p;
    uint64_t *count;
    double *time, *next;
    size_t *items;  /* p: heap scratch */
} ifill;

/* The time of processor i with one element more than count[i], INFINITY past its cap. */
static double time_after(const ifill *f, size_t i)
{
    double k1 = (double)f->count[i] + 1;
    return k1 <= f->cap[i] ? dls_model_time(f->models[i], k1) : INFINITY;
}

/* Starts from floor(X_i), X first moved by D * dt (see dls__integer_fill()); returns the
 * elements placed and sets *shape_ok. */
static uint64_t start_from_floors(ifill *f, double *X, const double *D, double dt, int *shape_ok)
{
    uint64_t total = 0;
    *shape_ok = 1;
    for (size_t i = 0; i < f->p; i++) {
        double k = floor(X[i]);
        if (k > f->cap[i])
            k = f->cap[i];
        if (k < 0)
            k = 0;
        if (dt != 0) /* the ideal size at the continuous optimum, to first order */
            X[i] = fmin(fmax(X[i] + D[i] * dt, 0), f->cap[i]);
        f->count[i] = (uint64_t)k;
        total += f->count[i];
        if (f->models[i]->increasing_to < f->cap[i])
            *shape_ok = 0;
        if (k + 1 <= f->cap[i]) {
            dls__time_pair(f->models[i], k, &f->time[i], &f->next[i]);
        } else {
            f->time[i] = dls_model_time(f->models[i], k);
            f->next[i] = INFINITY;
        }
    }
    return total;
}

/* Algorithm 1.2: each further element goes where it finishes first. The d elements to
 * place all finish by the d-th smallest of the next times, so only processors below that
 * bound enter the heap. Returns the new total. */
static uint64_t fill_up(ifill *f, uint64_t total, uint64_t n)
{
    size_t d = (size_t)(n - total), p = f->p;
    double bound = d < p ? threshold(f->next, p, d, 0, f->items) : INFINITY;
    dls__heap h;
    dls__heap_init(&h, f->items, p, f->next, sizeof *f->next, DLS__HEAP_MIN);
    for (size_t i = 0; i < p; i++)
        if (f->next[i] <= bound)
            dls__heap_append(&h, i);
    dls__heap_build(&h);
    for (; total < n && h.size > 0; total++) {
        size_t i = dls__heap_pop(&h);
        f->count[i]++;
        f->time[i] = f->next[i];
        f->next[i] = time_after(f, i);
        if (f->next[i] <= bound)
            dls__heap_push(&h, i);
    }
    return total;
}

/* Started above the root: takes elements back from the last to finish. Returns the new
 * total. */
static uint64_t take_back(ifill *f, uint64_t total, uint64_t n)
{
    size_t d = (size_t)(total - n), p = f->p;
    double bound = d < p ? threshold(f->time, p, d, 1, f->items) : 0;
    dls__heap h;
    dls__heap_init(&h, f->items, p, f->time, sizeof *f->time, DLS__HEAP_MAX);
    for (size_t i = 0; i < p; i++)
        if (f->count[i] > 0 && f->time[i] >= bound)
            dls__heap_append(&h, i);
    dls__heap_build(&h);
    for (; total > n && h.size > 0; total--) {
        size_t i = dls__heap_pop(&h);
        DLS__ASSERT(f->count[i] > 0); /* only processors with elements enter the heap */
        f->next[i] = f->time[i];
        f->count[i]--;
        f->time[i] = dls_model_time(f->models[i], (double)f->count[i]);
        if (f->count[i] > 0 && f->time[i] >= bound)
            dls__heap_push(&h, i);
    }
    return total;
}

/* Exchange check: optimal for increasing times iff no processor's current time exceeds
 * another's next; fixes the rare violations left by rounding. Bounded, because with models
 * that break the shape assumption exchanges need not converge. */
static void exchange(ifill *f)
{
    for (size_t moves = 0; moves <= f->p; moves++) {
        size_t imax = 0, imin = 0;
        for (size_t i = 1; i < f->p; i++) {
            if (f->time[i] > f->time[imax])
                imax = i;
            if (f->next[i] < f->next[imin])
                imin = i;
        }
        if (!(f->time[imax] > f->next[imin]) || imax == imin || f->count[imax] == 0)
            break;
        f->count[imin]++;
        f->time[imin] = f->next[imin];
        f->next[imin] = time_after(f, imin);
        f->next[imax] = f->time[imax];
        f->count[imax]--;
        f->time[imax] = dls_model_time(f->models[imax], (double)f->count[imax]);
    }
}

dls_status dls__integer_fill(const dls_model *const *models, const double *cap, size_t p,
                             uint64_t n, double *X, double *D, double dt, uint64_t *count,
                             double *time, size_t *items, int *shape_ok, dls_error *err)
{
    /* next shares its storage with D, read first */
    ifill f = {models, cap, p, count, time, D, items};
    uint64_t total = start_from_floors(&f, X, D, dt, shape_ok);
    if (total < n)
        total = fill_up(&f, total, n);
    else if (total > n)
        total = take_back(&f, total, n);
    if (total != n)
        return dls__fail(err, DLS_ENUMERIC, "partition", "the greedy completion placed %llu of "
                         "%llu elements", (unsigned long long)total, (unsigned long long)n);
    exchange(&f);
    return DLS_OK;
}
