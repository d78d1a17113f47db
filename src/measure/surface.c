/* 2-D speed functions by measurement: the sizes are chosen by the adaptive build on the
 * middle row of the surface, then every other row is measured at the same sizes (see
 * dlsched/bench.h). */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "measure/measure.h"

void dls_bench_surface_params_init(dls_bench_surface_params *p)
{
    memset(p, 0, sizeof *p);
    dls_bench_params_init(&p->bench);
}

/* Everything checked before a kernel is created or a callback called. */
static dls_status check_surface(const dls_kernel_family *family, const double *values,
                                size_t count, const dls_bench_surface_params *p, dls_model **out,
                                dls_error *err)
{
    if (out == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface", "NULL result");
    if (family == NULL || family->create == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface", "NULL kernel family (or its "
                         "create function)");
    if (values == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface", "NULL values");
    if (count < 2)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface",
                         "count must be at least 2, not %zu", count);
    for (size_t i = 0; i < count; i++)
        if (!isfinite(values[i]) || values[i] <= 0 || (i > 0 && !(values[i] > values[i - 1])))
            return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface", "value %zu is %.10g; the "
                             "values must be finite, > 0 and increasing", i + 1, values[i]);
    dls_status st = dls__bench_check_params("dls_bench_build_surface", &p->bench, err);
    if (st == DLS_OK)
        st = DLS__CHECK_RESERVED(p, "dls_bench_build_surface", dls_bench_surface_params, err);
    if (st != DLS_OK)
        return st;
    if (p->bench.resume_count > 0 && p->resume_fixed == NULL)
        return dls__fail(err, DLS_EINVAL, "dls_bench_build_surface", "resume_fixed is NULL with "
                         "bench.resume_count %zu (it gives the row of each resumed point)",
                         p->bench.resume_count);
    return DLS_OK;
}

typedef struct surface {
    const dls_kernel_family *family;
    const dls_bench_surface_params *par;
    dls_bench_params row;     /* the parameters of the row being measured */
    dls_bench_point *resume;  /* room for every resumed point, or NULL when there is none */
    size_t rows;
    dls_error *err;
} surface;

/* Announces the row measured at place `index` (the middle row first), narrows the resumed
 * points to it, and creates its kernel: on success, release it with end_row(). */
static dls_status begin_row(surface *s, size_t index, double value, dls_kernel *k)
{
    const dls_bench_surface_params *p = s->par;
    if (p->on_row && p->on_row(index, s->rows, value, p->on_row_data))
        return dls__fail(s->err, DLS_ECANCELED, NULL,
                         "measurement canceled before the row at %.10g", value);
    size_t n = 0;
    for (size_t i = 0; i < p->bench.resume_count; i++)
        if (p->resume_fixed[i] == value)
            s->resume[n++] = p->bench.resume[i];
    s->row.resume = s->resume;
    s->row.resume_count = n;
    memset(k, 0, sizeof *k);
    return s->family->create(value, k, s->family->data, s->err);
}

static void end_row(surface *s, dls_kernel *k)
{
    if (s->family->release)
        s->family->release(k, s->family->data);
}

/* The largest size that fits the memory in every row: the most demanding row decides. */
static dls_status common_largest_size(surface *s, const double *values, double *out)
{
    double top = INFINITY;
    for (size_t r = 0; r < s->rows; r++) {
        dls_kernel k;
        memset(&k, 0, sizeof k);
        dls_status st = s->family->create(values[r], &k, s->family->data, s->err);
        if (st != DLS_OK)
            return st;
        double fit = 0;
        if (k.memory == NULL)
            st = dls__fail(s->err, DLS_EINVAL, "dls_bench_build_surface",
                           "kernel \"%s\" has no memory "
                           "formula: give the largest size (bench.max_size)",
                           k.name ? k.name : "?");
        else
            st = dls__bench_largest_size(&k, &s->row, &fit, s->err);
        end_row(s, &k);
        if (st != DLS_OK)
            return st;
        top = fmin(top, fit);
    }
    *out = top;
    return DLS_OK;
}

/* The middle row, built adaptively; its model's points become the surface's sizes. */
static dls_status middle_row(surface *s, double value, dls_bench **out)
{
    dls_kernel k;
    dls_status st = begin_row(s, 0, value, &k);
    if (st != DLS_OK)
        return st;
    st = dls_bench_build(&k, &s->row, out, s->err);
    end_row(s, &k);
    return st;
}

/* The y grid (the sizes the middle row kept) and the grid of speeds, with the middle row's
 * filled in. */
static dls_status start_grid(surface *s, const dls_bench *mid_row, size_t mid, double **sizes,
                             size_t *ny, double **grid)
{
    const double *ys, *speeds;
    dls_model_get_points(dls_bench_model(mid_row), ny, &ys, &speeds, NULL, NULL);
    if (*ny > SIZE_MAX / sizeof **grid / s->rows)
        return dls__fail(s->err, DLS_ENOMEM, "dls_bench_build_surface",
                         "a grid of %zu x %zu speeds is " "too large", s->rows, *ny);
    *sizes = malloc(*ny * sizeof **sizes);
    *grid = malloc(s->rows * *ny * sizeof **grid);
    if (*sizes == NULL || *grid == NULL)
        return dls__oom(s->err, "dls_bench_build_surface");
    memcpy(*sizes, ys, *ny * sizeof **sizes);
    memcpy(*grid + mid * *ny, speeds, *ny * sizeof **grid);
    return DLS_OK;
}

/* Every row but the middle one, measured at the sizes of the y grid. */
static dls_status other_rows(surface *s, const double *values, size_t mid, const double *sizes,
                             size_t ny, double *grid)
{
    dls_bench_point *pts = malloc(ny * sizeof *pts);
    if (pts == NULL)
        return dls__oom(s->err, "dls_bench_build_surface");
    dls_status st = DLS_OK;
    for (size_t r = 0, place = 1; st == DLS_OK && r < s->rows; r++) {
        if (r == mid)
            continue;
        dls_kernel k;
        st = begin_row(s, place++, values[r], &k);
        if (st != DLS_OK)
            break;
        st = dls_bench_measure(&k, &s->row, sizes, ny, pts, s->err);
        end_row(s, &k);
        for (size_t j = 0; st == DLS_OK && j < ny; j++)
            grid[r * ny + j] = pts[j].speed;
    }
    free(pts);
    return st;
}

dls_status dls_bench_build_surface(const dls_kernel_family *family, const double *values,
                                   size_t count, const dls_bench_surface_params *params,
                                   dls_model **out, dls_error *err)
{
    dls_bench_surface_params defaults;
    if (params == NULL) {
        dls_bench_surface_params_init(&defaults);
        params = &defaults;
    }
    dls_status st = check_surface(family, values, count, params, out, err);
    if (st != DLS_OK)
        return st;
    surface s = {family, params, params->bench, NULL, count, err};
    if (params->bench.resume_count > 0) {
        s.resume = malloc(params->bench.resume_count * sizeof *s.resume);
        if (s.resume == NULL)
            return dls__oom(err, "dls_bench_build_surface");
    }
    if (s.row.max_size == 0)
        st = common_largest_size(&s, values, &s.row.max_size);
    size_t mid = count / 2, ny = 0;
    dls_bench *mid_row = NULL;
    double *sizes = NULL, *grid = NULL;
    if (st == DLS_OK)
        st = middle_row(&s, values[mid], &mid_row);
    if (st == DLS_OK)
        st = start_grid(&s, mid_row, mid, &sizes, &ny, &grid);
    dls_bench_free(mid_row);
    if (st == DLS_OK)
        st = other_rows(&s, values, mid, sizes, ny, grid);
    if (st == DLS_OK)
        st = dls_model_create_speed2d(count, values, ny, sizes, grid, out, err);
    free(sizes);
    free(grid);
    free(s.resume);
    return st;
}
