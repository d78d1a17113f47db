/* Shape check of the functional performance model: is x / s(x) strictly increasing?
 *
 * Between two measured points the speed is linear, s(x) = c + m x, so the time
 * x / s(x) = x / (c + m x) is monotone there (its derivative c / s(x)^2 keeps one sign):
 * comparing the times at the two ends decides the whole piece. Beyond the first and last
 * points the speed is constant and the time grows. */
#include <config.h>

#include <math.h>

#include "model/model_impl.h"

typedef struct shape_sink {
    dls_shape_issue *issues;
    size_t capacity;
    size_t count;
    int open;              /* the last range ends where the next failing piece starts */
    dls_shape_issue last;  /* the last range, kept even when it did not fit */
} shape_sink;

static void record(shape_sink *s, int axis, double at, double from, double to)
{
    if (s->open && s->last.to == from) {
        DLS__ASSERT(s->count > 0); /* an open range was recorded */
        s->last.to = to;
        if (s->count <= s->capacity)
            s->issues[s->count - 1].to = to;
        return;
    }
    s->last.axis = axis;
    s->last.at = at;
    s->last.from = from;
    s->last.to = to;
    if (s->count < s->capacity)
        s->issues[s->count] = s->last;
    s->count++;
    s->open = 1;
}

/* Checks the piecewise-linear speed through (g[k], v[k * stride]) along one axis. */
static void check_sequence(shape_sink *s, int axis, double at, const double *g, size_t n,
                           const double *v, size_t stride)
{
    s->open = 0;
    for (size_t k = 0; k + 1 < n; k++) {
        double s0 = v[k * stride], s1 = v[(k + 1) * stride];
        /* time rises strictly iff g[k+1] / s1 > g[k] / s0 */
        if (g[k + 1] * s0 <= g[k] * s1)
            record(s, axis, at, g[k], g[k + 1]);
        else
            s->open = 0;
    }
}

/* Time lines: max_l (a_l + b_l x) is convex and non-decreasing, so it can only be flat on
 * an initial range, where the top line has slope 0. */
static void check_lines(shape_sink *s, const dls_model *m)
{
    double flat = -INFINITY;
    for (size_t l = 0; l < m->n; l++)
        if (m->b[l] == 0 && m->a[l] > flat)
            flat = m->a[l];
    if (flat == -INFINITY)
        return;
    double end = INFINITY;
    for (size_t l = 0; l < m->n; l++) {
        if (m->b[l] > 0) {
            double cross = (flat - m->a[l]) / m->b[l];
            if (cross < end)
                end = cross;
        }
    }
    if (end > 0) {
        s->open = 0;
        record(s, 0, NAN, 0.0, end);
    }
}

size_t dls_model_check_shape(const dls_model *model, dls_shape_issue *issues, size_t capacity)
{
    shape_sink s = {issues, issues ? capacity : 0, 0, 0, {0, NAN, 0, 0, {0}}};
    switch (model->kind) {
    case DLS_MODEL_CONSTANT:
        break;
    case DLS_MODEL_POINTS:
        check_sequence(&s, 0, NAN, model->size, model->n, model->speed, 1);
        break;
    case DLS_MODEL_TIME_LINES:
        check_lines(&s, model);
        break;
    case DLS_MODEL_SPEED2D:
        for (size_t i = 0; i < model->n; i++)
            check_sequence(&s, 1, model->gx[i], model->gy, model->ny, model->gv + i * model->ny, 1);
        for (size_t j = 0; j < model->ny; j++)
            check_sequence(&s, 0, model->gy[j], model->gx, model->n, model->gv + j, model->ny);
        break;
    }
    return s.count;
}

void dls__set_increasing_extent(dls_model *m)
{
    m->increasing_to = INFINITY;
    switch (m->kind) {
    case DLS_MODEL_CONSTANT:
        break;
    case DLS_MODEL_POINTS:
        for (size_t k = 0; k + 1 < m->n; k++)
            if (m->size[k + 1] * m->speed[k] <= m->size[k] * m->speed[k + 1]) {
                m->increasing_to = m->size[k];
                break;
            }
        break;
    case DLS_MODEL_TIME_LINES: {
        shape_sink s = {NULL, 0, 0, 0, {0, NAN, 0, 0, {0}}};
        check_lines(&s, m);
        if (s.count > 0)
            m->increasing_to = 0; /* flat from the start */
        break;
    }
    case DLS_MODEL_SPEED2D:
        m->increasing_to = NAN; /* no 1-D time before a section */
        break;
    }
}
