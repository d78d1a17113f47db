/* The layout of dls_model, shared by the files that evaluate models in hot loops. */
#ifndef DLSCHED_MODEL_IMPL_H
#define DLSCHED_MODEL_IMPL_H

#include "core/internal.h"

struct dls_model {
    dls_model_kind kind;
    size_t n;          /* points, lines, or the x grid length of a 2-D model */
    size_t ny;         /* y grid length (2-D only) */
    int bands;         /* points carry [low, high] */
    double constant;   /* constant speed */
    /* The time x / s(x) is strictly increasing on [0, increasing_to] (INFINITY: always);
     * set at creation, so that partitioners know in O(1) which inverse they may use. */
    double increasing_to;
    double *size, *speed, *low, *high;  /* points */
    double *a, *b;                      /* time lines */
    double *gx, *gy, *gv;               /* 2-D grid, values row-major nx by ny */
    double data[];                      /* storage for every array above */
};

/* Largest k with grid[k] <= x, for grid[0] <= x < grid[n - 1] and n >= 2. */
DLS__HIDDEN size_t dls__segment(const double *grid, size_t n, double x);

/* Speed of a points model at x >= 0. */
DLS__HIDDEN double dls__points_speed(const dls_model *m, double x);

/* Speeds of a points model at x1 and x2 with one search when they are close; the same
 * values as two calls of dls__points_speed(). */
DLS__HIDDEN void dls__points_speed_pair(const dls_model *m, double x1, double x2, double *s1,
                                       double *s2);

/* Speeds of a 2-D model at (x, y1) and (x, y2) sharing the search along x; the same values
 * as dls_model_speed2d(). */
DLS__HIDDEN void dls__grid_speed_pair(const dls_model *m, double x, double y1, double y2,
                                     double *s1, double *s2);

/* max_l (a_l + b_l x) of a time model. */
DLS__HIDDEN double dls__lines_time(const dls_model *m, double x);

/* dls_model_convex_envelope(), and *above (may be NULL): the largest relative amount by
 * which the envelope lies above the time function (chords of curved convex pieces; where
 * the time is not convex the envelope bridges below it): a makespan computed on the
 * envelope over 1 + *above is a lower bound of the true one. */
DLS__HIDDEN dls_status dls__model_envelope(const dls_model *model, double xmax,
                                          const dls_envelope_params *params, dls_model **out,
                                          dls_envelope_info *info, double *above,
                                          dls_error *err);

/* max_l a_l of n time lines (n >= 1): the time they give a vanishing share. */
DLS__HIDDEN double dls__lines_start(const double *a, size_t n);

/* Bytes of model, header and data: what dls__model_copy_to needs. */
DLS__HIDDEN size_t dls__model_size(const dls_model *model);

/* Copies model into mem (dls__model_size(model) bytes, aligned for any type) and returns the
 * copy: a model like any other, except that its memory stays the caller's (never
 * dls_model_free it). For the platform, which keeps the models of a file in blocks of its
 * own. */
DLS__HIDDEN dls_model *dls__model_copy_to(void *mem, const dls_model *model);

/* Computes m->increasing_to (shape.c). */
DLS__HIDDEN void dls__set_increasing_extent(dls_model *m);

/* Largest x in [0, cap] with time(x) <= t, and dx/dt there in *deriv (0 at the cap or
 * where the largest such x jumps); inverse.c. cap >= 0, t >= 0. */
DLS__HIDDEN double dls__size_for_time(const dls_model *m, double t, double cap, double *deriv);

/* time(k) and time(k + 1) with one search (k >= 0); inverse.c. */
DLS__HIDDEN void dls__time_pair(const dls_model *m, double k, double *tk, double *tk1);

#endif /* DLSCHED_MODEL_IMPL_H */
