/* Performance models of one processor: creation, validation, evaluation, sections. */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "core/names.h"
#include "model/model_impl.h"

/* ---------------------------------------------------------------------------------- */
/* Validation shared with the platform reader                                         */

static int problem(dls__problem *pb, size_t index, int field, const char *fmt, ...)
    DLS__PRINTF(4, 5);

static int problem(dls__problem *pb, size_t index, int field, const char *fmt, ...)
{
    if (pb != NULL) {
        va_list ap;
        va_start(ap, fmt);
        pb->index = index;
        pb->field = field;
        vsnprintf(pb->text, sizeof pb->text, fmt, ap);
        va_end(ap);
    }
    return 1;
}

static const char *sign_word(double v)
{
    return v < 0 ? "a negative" : "a zero";
}

int dls__check_speed(double speed, dls__problem *pb)
{
    if (!isfinite(speed))
        return problem(pb, 0, DLS__FIELD_SPEED, "speed is not a finite number");
    if (speed <= 0)
        return problem(pb, 0, DLS__FIELD_SPEED, "speed must be > 0, not %.10g", speed);
    return 0;
}

int dls__check_points(size_t n, const double *size, const double *speed, const double *low,
                      const double *high, dls__problem *pb)
{
    if (n == 0)
        return problem(pb, 0, DLS__FIELD_WHOLE, "speed points: at least one point is needed");
    if ((low == NULL) != (high == NULL))
        return problem(pb, 0, DLS__FIELD_WHOLE,
                       "speed points: band edges low and high must be given together");
    for (size_t k = 0; k < n; k++) {
        size_t no = k + 1;
        if (!isfinite(size[k]))
            return problem(pb, k, DLS__FIELD_SIZE, "speed point %zu has a size that is not finite", no);
        if (size[k] <= 0)
            return problem(pb, k, DLS__FIELD_SIZE, "speed point %zu has %s size (%.10g)", no,
                           sign_word(size[k]), size[k]);
        if (k > 0 && size[k] <= size[k - 1])
            return problem(pb, k, DLS__FIELD_SIZE,
                           "speed point %zu has size %.10g, not larger than the size %.10g of "
                           "point %zu (sizes must increase strictly)",
                           no, size[k], size[k - 1], k);
        if (!isfinite(speed[k]))
            return problem(pb, k, DLS__FIELD_SPEED, "speed point %zu has a speed that is not finite", no);
        if (speed[k] <= 0)
            return problem(pb, k, DLS__FIELD_SPEED, "speed point %zu has %s speed (%.10g)", no,
                           sign_word(speed[k]), speed[k]);
        if (low != NULL) {
            if (!isfinite(low[k]) || low[k] <= 0)
                return problem(pb, k, DLS__FIELD_LOW,
                               "speed point %zu has a band low edge %.10g that is not > 0", no, low[k]);
            if (low[k] > speed[k])
                return problem(pb, k, DLS__FIELD_LOW,
                               "speed point %zu has a band low edge %.10g above its speed %.10g", no,
                               low[k], speed[k]);
            if (!isfinite(high[k]))
                return problem(pb, k, DLS__FIELD_HIGH,
                               "speed point %zu has a band high edge that is not finite", no);
            if (high[k] < speed[k])
                return problem(pb, k, DLS__FIELD_HIGH,
                               "speed point %zu has a band high edge %.10g below its speed %.10g", no,
                               high[k], speed[k]);
        }
    }
    return 0;
}

double dls__lines_start(const double *a, size_t n)
{
    double amax = a[0];
    for (size_t l = 1; l < n; l++)
        if (a[l] > amax)
            amax = a[l];
    return amax;
}

/* The largest slope of the lines through (0, amax): how the time rises from 0. */
static double start_slope(const double *a, const double *b, size_t n, double amax)
{
    double slope = 0;
    for (size_t l = 0; l < n; l++)
        if (a[l] == amax && b[l] > slope)
            slope = b[l];
    return slope;
}

int dls__check_lines(size_t n, const double *a, const double *b, dls__problem *pb)
{
    if (n == 0)
        return problem(pb, 0, DLS__FIELD_WHOLE, "time: at least one line [a, b] is needed");
    for (size_t l = 0; l < n; l++) {
        if (!isfinite(a[l]))
            return problem(pb, l, DLS__FIELD_A, "time line %zu has an intercept that is not finite", l + 1);
        if (!isfinite(b[l]))
            return problem(pb, l, DLS__FIELD_B, "time line %zu has a slope that is not finite", l + 1);
        if (b[l] < 0)
            return problem(pb, l, DLS__FIELD_B,
                           "time line %zu has a negative slope (%.10g): time cannot fall as the "
                           "size grows", l + 1, b[l]);
    }
    double amax = dls__lines_start(a, n);
    /* The time must be positive for every size > 0: near 0 it is max(a), and when that is
     * 0 the lines reaching it must rise. */
    if (amax < 0)
        return problem(pb, 0, DLS__FIELD_WHOLE,
                       "time lines give a negative time for small sizes (the largest intercept "
                       "is %.10g; one line needs an intercept >= 0)", amax);
    if (amax == 0 && start_slope(a, b, n, amax) == 0)
        return problem(pb, 0, DLS__FIELD_WHOLE,
                       "time lines give a zero time for small sizes (a line with intercept 0 "
                       "needs a positive slope)");
    return 0;
}

static int check_axis(size_t n, const double *v, const char *axis, int field, dls__problem *pb)
{
    if (n == 0)
        return problem(pb, 0, field, "speed2d: the %s grid is empty", axis);
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(v[k]) || v[k] <= 0)
            return problem(pb, k, field, "speed2d %s value %zu (%.10g) is not a finite number > 0",
                           axis, k + 1, v[k]);
        if (k > 0 && v[k] <= v[k - 1])
            return problem(pb, k, field,
                           "speed2d %s value %zu (%.10g) is not larger than value %zu (%.10g); "
                           "the grid must increase strictly", axis, k + 1, v[k], k, v[k - 1]);
    }
    return 0;
}

int dls__check_grid(size_t nx, const double *x, size_t ny, const double *y, const double *values,
                    dls__problem *pb)
{
    if (check_axis(nx, x, "x", DLS__FIELD_GRID_X, pb) || check_axis(ny, y, "y", DLS__FIELD_GRID_Y, pb))
        return 1;
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            double v = values[i * ny + j];
            if (!isfinite(v) || v <= 0)
                return problem(pb, i * ny + j, DLS__FIELD_GRID_VALUE,
                               "speed2d value [%zu][%zu] (%.10g) is not a finite speed > 0", i + 1,
                               j + 1, v);
        }
    return 0;
}

/* ---------------------------------------------------------------------------------- */
/* The input domain                                                                   */

/* Whether the magnitude of v lies in the domain (0 is the caller's to allow). */
static int inside(double v)
{
    return fabs(v) >= DLS_DOMAIN_MIN && fabs(v) <= DLS_DOMAIN_MAX;
}

static int speed_outside(double v, size_t index, int field, const char *what, dls__problem *pb)
{
    if (inside(v))
        return 0;
    return problem(pb, index, field, "%s %.10g units per second is outside the domain [%g, "
                   "%g] that dlsched computes in", what, v, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
}

static int size_outside(double v, size_t index, int field, const char *what, dls__problem *pb)
{
    if (inside(v))
        return 0;
    return problem(pb, index, field, "%s %.10g is outside the domain [%g, %g] of sizes that "
                   "dlsched computes in", what, v, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
}

int dls__domain_speed(double speed, dls__problem *pb)
{
    return speed_outside(speed, 0, DLS__FIELD_SPEED, "the speed", pb);
}

int dls__domain_points(size_t n, const double *size, const double *speed, const double *low,
                       const double *high, dls__problem *pb)
{
    char what[64];
    for (size_t k = 0; k < n; k++) {
        /* the label is written only for a value outside: models of many points are made in
         * loops (the balancer's, every step) */
        if (!inside(size[k])) {
            snprintf(what, sizeof what, "speed point %zu: the size", k + 1);
            return size_outside(size[k], k, DLS__FIELD_SIZE, what, pb);
        }
        if (!inside(speed[k])) {
            snprintf(what, sizeof what, "speed point %zu: the speed", k + 1);
            return speed_outside(speed[k], k, DLS__FIELD_SPEED, what, pb);
        }
        if (low == NULL)
            continue;
        if (!inside(low[k])) {
            snprintf(what, sizeof what, "speed point %zu: the band's low edge", k + 1);
            return speed_outside(low[k], k, DLS__FIELD_LOW, what, pb);
        }
        if (!inside(high[k])) {
            snprintf(what, sizeof what, "speed point %zu: the band's high edge", k + 1);
            return speed_outside(high[k], k, DLS__FIELD_HIGH, what, pb);
        }
    }
    return 0;
}

int dls__domain_lines(size_t n, const double *a, const double *b, dls__problem *pb)
{
    for (size_t l = 0; l < n; l++) {
        if (a[l] != 0 && !inside(a[l]))
            return problem(pb, l, DLS__FIELD_A, "time line %zu: the intercept %.10g s is "
                           "outside the domain (0 or a magnitude in [%g, %g]) that dlsched "
                           "computes in", l + 1, a[l], DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        if (b[l] != 0 && !inside(b[l]))
            return problem(pb, l, DLS__FIELD_B, "time line %zu: the slope %.10g s per unit is "
                           "outside the domain (0 or [%g, %g]) that dlsched computes in", l + 1,
                           b[l], DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    }
    return 0;
}

int dls__domain_grid(size_t nx, const double *x, size_t ny, const double *y,
                     const double *values, dls__problem *pb)
{
    char what[64];
    for (size_t i = 0; i < nx; i++) {
        snprintf(what, sizeof what, "speed2d x value %zu", i + 1);
        if (size_outside(x[i], i, DLS__FIELD_GRID_X, what, pb))
            return 1;
    }
    for (size_t j = 0; j < ny; j++) {
        snprintf(what, sizeof what, "speed2d y value %zu", j + 1);
        if (size_outside(y[j], j, DLS__FIELD_GRID_Y, what, pb))
            return 1;
    }
    for (size_t i = 0; i < nx; i++)
        for (size_t j = 0; j < ny; j++) {
            snprintf(what, sizeof what, "speed2d value [%zu][%zu]", i + 1, j + 1);
            if (speed_outside(values[i * ny + j], i * ny + j, DLS__FIELD_GRID_VALUE, what, pb))
                return 1;
        }
    return 0;
}

int dls__domain_model(const dls_model *m, dls__problem *pb)
{
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        return dls__domain_speed(m->constant, pb);
    case DLS_MODEL_POINTS:
        return dls__domain_points(m->n, m->size, m->speed, m->low, m->high, pb);
    case DLS_MODEL_SPEED2D:
        return dls__domain_grid(m->n, m->gx, m->ny, m->gy, m->gv, pb);
    case DLS_MODEL_TIME_LINES:
        return dls__domain_lines(m->n, m->a, m->b, pb);
    }
    return 0;
}

int dls__domain_limit(double limit, char *text, size_t size)
{
    if (limit == INFINITY || inside(limit))
        return 0;
    snprintf(text, size, "the limit %.10g is outside the domain [%g, %g] (or none) that "
             "dlsched computes in", limit, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    return 1;
}

int dls__domain_value(double v, const char *what, char *text, size_t size)
{
    if (v == 0 || inside(v))
        return 0;
    snprintf(text, size, "the %s %.10g is outside the domain (0 or [%g, %g]) that dlsched "
             "computes in", what, v, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    return 1;
}

dls_status dls__domain_load(double load, const char *fn, dls_error *err)
{
    if (!(isfinite(load) && load > 0))
        return dls__fail(err, DLS_EINVAL, fn, "the load must be a finite number > 0, not %.10g",
                         load);
    if (!inside(load))
        return dls__fail(err, DLS_EINVAL, fn, "the load %.10g is outside the domain [%g, %g] "
                         "that dlsched computes in", load, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
    return DLS_OK;
}

int dls__domain_link(double startup, double rate, char *text, size_t size)
{
    if (startup != 0 && !inside(startup)) {
        snprintf(text, size, "the link's startup %.10g s is outside the domain (0 or [%g, %g]) "
                 "that dlsched computes in", startup, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return 1;
    }
    if (rate != 0 && !inside(rate)) {
        snprintf(text, size, "the link's rate %.10g s per unit is outside the domain (0 or "
                 "[%g, %g]) that dlsched computes in", rate, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------- */
/* Allocation                                                                         */

/* Number of doubles stored after the struct, by kind and counts. */
static size_t data_length(dls_model_kind kind, size_t n, size_t ny, int bands)
{
    switch (kind) {
    case DLS_MODEL_CONSTANT:
        return 0;
    case DLS_MODEL_POINTS:
        return (bands ? 4 : 2) * n;
    case DLS_MODEL_TIME_LINES:
        return 2 * n;
    case DLS_MODEL_SPEED2D:
        return n + ny + n * ny;
    }
    return 0;
}

/* Points the array fields into the trailing data block. */
static void layout(dls_model *m)
{
    double *d = m->data;
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        break;
    case DLS_MODEL_POINTS:
        m->size = d;
        m->speed = d + m->n;
        if (m->bands) {
            m->low = d + 2 * m->n;
            m->high = d + 3 * m->n;
        }
        break;
    case DLS_MODEL_TIME_LINES:
        m->a = d;
        m->b = d + m->n;
        break;
    case DLS_MODEL_SPEED2D:
        m->gx = d;
        m->gy = d + m->n;
        m->gv = d + m->n + m->ny;
        break;
    }
}

size_t dls__model_size(const dls_model *model)
{
    return sizeof *model +
           data_length(model->kind, model->n, model->ny, model->bands) * sizeof(double);
}

dls_model *dls__model_copy_to(void *mem, const dls_model *model)
{
    dls_model *m = mem;
    memcpy(m, model, dls__model_size(model));
    layout(m); /* the arrays of the copy point into its own data */
    return m;
}

static dls_model *model_alloc(dls_model_kind kind, size_t n, size_t ny, int bands)
{
    size_t len = data_length(kind, n, ny, bands);
    if (len > (SIZE_MAX - sizeof(dls_model)) / sizeof(double))
        return NULL;
    dls_model *m = calloc(1, sizeof *m + len * sizeof(double));
    if (m == NULL)
        return NULL;
    m->kind = kind;
    m->n = n;
    m->ny = ny;
    m->bands = bands;
    layout(m);
    return m;
}

static dls_status out_of_memory(dls_error *err, const char *fn)
{
    return dls__oom(err, fn);
}

dls_status dls_model_create_constant(double speed, dls_model **out, dls_error *err)
{
    dls__problem pb;
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_create_constant", "out is NULL");
    if (dls__check_speed(speed, &pb))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_constant", "%s", pb.text);
    dls_model *m = model_alloc(DLS_MODEL_CONSTANT, 1, 0, 0);
    if (m == NULL)
        return out_of_memory(err, "dls_model_create_constant");
    m->constant = speed;
    dls__set_increasing_extent(m);
    *out = m;
    return DLS_OK;
}

dls_status dls_model_create_points(size_t n, const double *size, const double *speed,
                                   const double *low, const double *high, dls_model **out,
                                   dls_error *err)
{
    dls__problem pb;
    if (out == NULL || (n > 0 && (size == NULL || speed == NULL)))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_points", "NULL argument");
    if (dls__check_points(n, size, speed, low, high, &pb))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_points", "%s", pb.text);
    int bands = low != NULL;
    dls_model *m = model_alloc(DLS_MODEL_POINTS, n, 0, bands);
    if (m == NULL)
        return out_of_memory(err, "dls_model_create_points");
    memcpy(m->size, size, n * sizeof *size);
    memcpy(m->speed, speed, n * sizeof *speed);
    if (bands) {
        memcpy(m->low, low, n * sizeof *low);
        memcpy(m->high, high, n * sizeof *high);
    }
    dls__set_increasing_extent(m);
    *out = m;
    return DLS_OK;
}

dls_status dls_model_create_speed2d(size_t nx, const double *x, size_t ny, const double *y,
                                    const double *values, dls_model **out, dls_error *err)
{
    dls__problem pb;
    if (out == NULL || (nx > 0 && x == NULL) || (ny > 0 && y == NULL) ||
        (nx > 0 && ny > 0 && values == NULL))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_speed2d", "NULL argument");
    if (nx > 0 && ny > SIZE_MAX / nx)
        return dls__fail(err, DLS_EINVAL, "dls_model_create_speed2d", "grid too large");
    if (dls__check_grid(nx, x, ny, y, values, &pb))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_speed2d", "%s", pb.text);
    dls_model *m = model_alloc(DLS_MODEL_SPEED2D, nx, ny, 0);
    if (m == NULL)
        return out_of_memory(err, "dls_model_create_speed2d");
    memcpy(m->gx, x, nx * sizeof *x);
    memcpy(m->gy, y, ny * sizeof *y);
    memcpy(m->gv, values, nx * ny * sizeof *values);
    dls__set_increasing_extent(m);
    *out = m;
    return DLS_OK;
}

dls_status dls_model_create_time_lines(size_t n, const double *a, const double *b,
                                       dls_model **out, dls_error *err)
{
    dls__problem pb;
    if (out == NULL || (n > 0 && (a == NULL || b == NULL)))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_time_lines", "NULL argument");
    if (dls__check_lines(n, a, b, &pb))
        return dls__fail(err, DLS_EINVAL, "dls_model_create_time_lines", "%s", pb.text);
    dls_model *m = model_alloc(DLS_MODEL_TIME_LINES, n, 0, 0);
    if (m == NULL)
        return out_of_memory(err, "dls_model_create_time_lines");
    memcpy(m->a, a, n * sizeof *a);
    memcpy(m->b, b, n * sizeof *b);
    dls__set_increasing_extent(m);
    *out = m;
    return DLS_OK;
}

dls_status dls_model_copy(const dls_model *model, dls_model **out, dls_error *err)
{
    if (model == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_copy", "NULL argument");
    dls_model *m = model_alloc(model->kind, model->n, model->ny, model->bands);
    if (m == NULL)
        return out_of_memory(err, "dls_model_copy");
    m->constant = model->constant;
    m->increasing_to = model->increasing_to;
    memcpy(m->data, model->data,
           data_length(model->kind, model->n, model->ny, model->bands) * sizeof(double));
    *out = m;
    return DLS_OK;
}

void dls_model_free(dls_model *model)
{
    free(model);
}

/* ---------------------------------------------------------------------------------- */
/* Accessors                                                                          */

dls_model_kind dls_model_get_kind(const dls_model *model)
{
    return model->kind;
}

DLS__ENUM_NAMES(dls_model_kind, dls_model_kind, DLS_MODEL_KIND_MAP)

int dls_model_dimension(const dls_model *model)
{
    return model->kind == DLS_MODEL_SPEED2D ? 2 : 1;
}

size_t dls_model_count(const dls_model *model)
{
    return model->kind == DLS_MODEL_SPEED2D ? model->n * model->ny : model->n;
}

int dls_model_has_bands(const dls_model *model)
{
    return model->bands;
}

double dls_model_constant_speed(const dls_model *model)
{
    return model->kind == DLS_MODEL_CONSTANT ? model->constant : NAN;
}

dls_status dls_model_get_points(const dls_model *model, size_t *n, const double **size,
                                const double **speed, const double **low, const double **high)
{
    if (model == NULL || model->kind != DLS_MODEL_POINTS)
        return DLS_EINVAL;
    if (n)
        *n = model->n;
    if (size)
        *size = model->size;
    if (speed)
        *speed = model->speed;
    if (low)
        *low = model->low;
    if (high)
        *high = model->high;
    return DLS_OK;
}

dls_status dls_model_get_lines(const dls_model *model, size_t *n, const double **a,
                               const double **b)
{
    if (model == NULL || model->kind != DLS_MODEL_TIME_LINES)
        return DLS_EINVAL;
    if (n)
        *n = model->n;
    if (a)
        *a = model->a;
    if (b)
        *b = model->b;
    return DLS_OK;
}

dls_status dls_model_get_grid(const dls_model *model, size_t *nx, const double **x, size_t *ny,
                              const double **y, const double **values)
{
    if (model == NULL || model->kind != DLS_MODEL_SPEED2D)
        return DLS_EINVAL;
    if (nx)
        *nx = model->n;
    if (x)
        *x = model->gx;
    if (ny)
        *ny = model->ny;
    if (y)
        *y = model->gy;
    if (values)
        *values = model->gv;
    return DLS_OK;
}

/* ---------------------------------------------------------------------------------- */
/* Evaluation                                                                         */

size_t dls__segment(const double *grid, size_t n, double x)
{
    DLS__ASSERT(n >= 2 && grid[0] <= x && x < grid[n - 1]); /* callers clamp outside */
    size_t lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (grid[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Speed of a points model at x, given k = dls__segment(...) when x is inside. */
static double points_speed_in(const dls_model *m, double x, size_t k)
{
    double x0 = m->size[k], x1 = m->size[k + 1];
    double s0 = m->speed[k], s1 = m->speed[k + 1];
    return s0 + (s1 - s0) * ((x - x0) / (x1 - x0));
}

double dls__points_speed(const dls_model *m, double x)
{
    size_t n = m->n;
    if (x <= m->size[0])
        return m->speed[0];
    if (x >= m->size[n - 1])
        return m->speed[n - 1];
    return points_speed_in(m, x, dls__segment(m->size, n, x));
}

void dls__points_speed_pair(const dls_model *m, double x1, double x2, double *s1, double *s2)
{
    size_t n = m->n;
    if (x1 <= m->size[0] || x1 >= m->size[n - 1] || x2 <= x1) {
        *s1 = dls__points_speed(m, x1);
        *s2 = dls__points_speed(m, x2);
        return;
    }
    size_t k = dls__segment(m->size, n, x1);
    *s1 = points_speed_in(m, x1, k);
    if (x2 >= m->size[n - 1])
        *s2 = m->speed[n - 1];
    else
        *s2 = points_speed_in(m, x2, x2 < m->size[k + 1] ? k : dls__segment(m->size, n, x2));
}

double dls__lines_time(const dls_model *m, double x)
{
    double t = m->a[0] + m->b[0] * x;
    for (size_t l = 1; l < m->n; l++) {
        double v = m->a[l] + m->b[l] * x;
        if (v > t)
            t = v;
    }
    return t;
}

/* Speed of a time model where its time is not positive: zero when the time starts above
 * zero, else the limit at 0, 1 / slope. */
static double lines_speed_near_zero(const dls_model *m, double x)
{
    double amax = dls__lines_start(m->a, m->n);
    if (amax > 0)
        return x > 0 ? x / amax : 0.0;
    return 1.0 / start_slope(m->a, m->b, m->n, amax);
}

double dls_model_speed(const dls_model *model, double x)
{
    if (!(x >= 0))
        return NAN;
    switch (model->kind) {
    case DLS_MODEL_CONSTANT:
        return model->constant;
    case DLS_MODEL_POINTS:
        return dls__points_speed(model, x);
    case DLS_MODEL_TIME_LINES:
        if (x > 0) {
            double t = dls__lines_time(model, x);
            if (t > 0)
                return x / t;
        }
        return lines_speed_near_zero(model, x);
    case DLS_MODEL_SPEED2D:
        return NAN;
    }
    return NAN;
}

double dls_model_time(const dls_model *model, double x)
{
    if (!(x >= 0))
        return NAN;
    if (x == 0)
        return model->kind == DLS_MODEL_SPEED2D ? NAN : 0.0;
    switch (model->kind) {
    case DLS_MODEL_CONSTANT:
        return x / model->constant;
    case DLS_MODEL_POINTS:
        return x / dls__points_speed(model, x);
    case DLS_MODEL_TIME_LINES:
        return dls__lines_time(model, x);
    case DLS_MODEL_SPEED2D:
        return NAN;
    }
    return NAN;
}

/* Clamped position of v on a grid: cell index k and weight w in [0, 1] so that the
 * value is (1 - w) f[k] + w f[k + 1] (k + 1 is not used when n == 1 or w == 0). */
static void grid_position(const double *g, size_t n, double v, size_t *k, double *w)
{
    if (n == 1 || v <= g[0]) {
        *k = 0;
        *w = 0;
    } else if (v >= g[n - 1]) {
        *k = n - 1;
        *w = 0;
    } else {
        size_t c = dls__segment(g, n, v);
        *k = c;
        *w = (v - g[c]) / (g[c + 1] - g[c]);
    }
}

/* Bilinear speed at (x, y), the x position already found. */
static double grid_speed_at(const dls_model *m, size_t i, double wx, double y)
{
    size_t j;
    double wy;
    grid_position(m->gy, m->ny, y, &j, &wy);
    const double *r0 = m->gv + i * m->ny;
    double v0 = r0[j], v1 = r0[j];
    if (wy > 0) {
        v0 = (1 - wy) * r0[j] + wy * r0[j + 1];
    }
    if (wx > 0) {
        const double *r1 = r0 + m->ny;
        v1 = wy > 0 ? (1 - wy) * r1[j] + wy * r1[j + 1] : r1[j];
        return (1 - wx) * v0 + wx * v1;
    }
    return v0;
}

static double grid_speed(const dls_model *m, double x, double y)
{
    size_t i;
    double wx;
    grid_position(m->gx, m->n, x, &i, &wx);
    return grid_speed_at(m, i, wx, y);
}

void dls__grid_speed_pair(const dls_model *m, double x, double y1, double y2, double *s1,
                          double *s2)
{
    size_t i;
    double wx;
    grid_position(m->gx, m->n, x, &i, &wx);
    *s1 = grid_speed_at(m, i, wx, y1);
    *s2 = grid_speed_at(m, i, wx, y2);
}

double dls_model_speed2d(const dls_model *model, double x, double y)
{
    if (!(x >= 0) || !(y >= 0))
        return NAN;
    if (model->kind == DLS_MODEL_SPEED2D)
        return grid_speed(model, x, y);
    return dls_model_speed(model, x * y);
}

dls_status dls_model_section(const dls_model *model, double x, dls_model **out, dls_error *err)
{
    if (model == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_model_section", "NULL argument");
    if (!isfinite(x) || x <= 0)
        return dls__fail(err, DLS_EINVAL, "dls_model_section", "the fixed size must be a finite "
                         "number > 0, not %.10g", x);
    switch (model->kind) {
    case DLS_MODEL_CONSTANT:
        return dls_model_copy(model, out, err);
    case DLS_MODEL_POINTS: {
        dls_model *m = model_alloc(DLS_MODEL_POINTS, model->n, 0, model->bands);
        if (m == NULL)
            return out_of_memory(err, "dls_model_section");
        for (size_t k = 0; k < model->n; k++) {
            m->size[k] = model->size[k] / x;
            m->speed[k] = model->speed[k];
            if (model->bands) {
                m->low[k] = model->low[k];
                m->high[k] = model->high[k];
            }
        }
        dls__problem pb;
        if (dls__check_points(m->n, m->size, m->speed, m->low, m->high, &pb)) {
            dls_model_free(m);
            return dls__fail(err, DLS_ERANGE, "dls_model_section", "at x = %.10g: %s", x, pb.text);
        }
        dls__set_increasing_extent(m);
        *out = m;
        return DLS_OK;
    }
    case DLS_MODEL_TIME_LINES: {
        dls_model *m = model_alloc(DLS_MODEL_TIME_LINES, model->n, 0, 0);
        if (m == NULL)
            return out_of_memory(err, "dls_model_section");
        for (size_t l = 0; l < model->n; l++) {
            m->a[l] = model->a[l] / x;
            m->b[l] = model->b[l];
        }
        dls__set_increasing_extent(m);
        *out = m;
        return DLS_OK;
    }
    case DLS_MODEL_SPEED2D: {
        dls_model *m = model_alloc(DLS_MODEL_POINTS, model->ny, 0, 0);
        if (m == NULL)
            return out_of_memory(err, "dls_model_section");
        size_t i;
        double w;
        grid_position(model->gx, model->n, x, &i, &w);
        const double *r0 = model->gv + i * model->ny;
        for (size_t j = 0; j < model->ny; j++) {
            m->size[j] = model->gy[j];
            m->speed[j] = w > 0 ? (1 - w) * r0[j] + w * r0[j + model->ny] : r0[j];
        }
        dls__set_increasing_extent(m);
        *out = m;
        return DLS_OK;
    }
    }
    return dls__fail(err, DLS_EINVAL, "dls_model_section", "unknown model kind");
}

dls_status dls_model_sample(const dls_model *model, size_t n, const double *size, dls_model **out,
                            dls_error *err)
{
    if (model == NULL || out == NULL || (n > 0 && size == NULL))
        return dls__fail(err, DLS_EINVAL, "dls_model_sample", "NULL argument");
    if (model->kind == DLS_MODEL_SPEED2D)
        return dls__fail(err, DLS_EINVAL, "dls_model_sample", "a 2-D model has no 1-D speed; "
                         "take a section first");
    double *speed = malloc((n ? n : 1) * sizeof *speed);
    if (speed == NULL)
        return out_of_memory(err, "dls_model_sample");
    for (size_t k = 0; k < n; k++)
        speed[k] = isfinite(size[k]) && size[k] > 0 ? dls_model_speed(model, size[k]) : NAN;
    dls_status st = dls_model_create_points(n, size, speed, NULL, NULL, out, err);
    free(speed);
    return st;
}

static int same_values(const double *a, const double *b, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!(a[k] == b[k]))
            return 0;
    return 1;
}

int dls_model_equal(const dls_model *a, const dls_model *b)
{
    if (a == NULL || b == NULL)
        return a == b;
    if (a->kind != b->kind || a->n != b->n || a->ny != b->ny || a->bands != b->bands)
        return 0;
    if (a->kind == DLS_MODEL_CONSTANT)
        return a->constant == b->constant;
    return same_values(a->data, b->data, data_length(a->kind, a->n, a->ny, a->bands));
}
