/* Internals shared by the partitioners (partition.c, geometric.c, weighted.c). */
#ifndef DLSCHED_PARTITION_IMPL_H
#define DLSCHED_PARTITION_IMPL_H

#include "dlsched/partition.h"
#include "model/model_impl.h"

struct dls_partition {
    size_t p;
    uint64_t n;
    dls_solution_status status;
    int shape_ok;
    int exact_used;       /* the exact row programme placed the elements */
    char note[512];
    uint64_t *elements;   /* p */
    double *sizes;        /* p: elements or weight */
    double *times;        /* p */
    double *ideal;        /* p */
    /* Allocated with the result: zeros, the platform's order, until a valid distribution
     * fills them; with no valid distribution (infeasible, not found) they stay so. */
    uint64_t *first;      /* p, ordered sets only (else NULL): every chunk [0, 0) */
    size_t *order;        /* p, ordered sets with reordering only (else NULL): 0, 1, ... */
    size_t *assignment;   /* n, weighted unordered sets with a valid assignment only */
    double makespan, lower_bound, gap, metric, capacity;
    double t_cont;        /* the continuous optimum, at which ideal was taken */
    unsigned steps;
};

/* The continuous problem: the time T at which sum_i min(X_i(T), cap_i) = total, X_i the
 * inverse of processor i's time (requires sum(cap) >= total > 0). Fills X with the sizes
 * at root->t_eval, D (if not NULL) with their derivatives there, and root->t_root with the
 * continuous optimum. With align, the last evaluation aims where sum floor(X_i) is about
 * total (equal elements), instead of at the root itself. ftol: how far from the target
 * sum the last evaluation may be. */
typedef struct dls__root {
    double t_eval;     /* the T at which X was evaluated */
    double t_root;     /* the continuous optimum */
    unsigned steps;    /* passes over the models */
} dls__root;

DLS__HIDDEN dls_status dls__continuous_root(const dls_model *const *models, const double *cap,
                                           size_t p, double total, dls_partition_method method,
                                           double ftol, int align, double *X, double *D,
                                           dls__root *root, dls_error *err);

/* The optimal integer distribution of n equal elements given the sizes X evaluated near the
 * continuous root (greedy completion of Algorithm 1.2, both directions, then an exchange
 * check); caps are whole numbers. D holds the derivatives of X and is overwritten (it is
 * scratch of p doubles); X is moved by D * dt to the continuous optimum once its floors are
 * taken. items is scratch of p entries. Fills count and time, and *shape_ok with whether
 * every model keeps the shape assumption up to its cap. */
DLS__HIDDEN dls_status dls__integer_fill(const dls_model *const *models, const double *cap,
                                        size_t p, uint64_t n, double *X, double *D, double dt,
                                        uint64_t *count, double *time, size_t *items,
                                        int *shape_ok, dls_error *err);

/* The exact row programme (exact.c): the integer distribution of n > 0 equal elements
 * minimising max_i t_i(count_i), t_i the time of models[i] (t_i(0) = 0), count_i <= cap_i
 * (whole numbers, at most n, summing to at least n), for any shapes. upper: the makespan
 * of a valid distribution (an upper bound that prunes the candidates), or INFINITY. Fills
 * count and time, and *tests with the feasibility tests run; DLS_ELIMIT past its memory or
 * work bound (count and time untouched), DLS_ENOMEM. */
DLS__HIDDEN dls_status dls__partition_exact(const dls_model *const *models, const double *cap,
                                           size_t p, uint64_t n, double upper, uint64_t *count,
                                           double *time, unsigned *tests, dls_error *err);

/* Records that the partitioners ran out of memory; returns DLS_ENOMEM. */
static inline dls_status dls__partition_nomem(dls_error *err)
{
    /* inline, so that the partitioners (geometric.c, weighted.c) need not call back into
     * partition.c, which calls them */
    return dls__oom(err, "partition");
}

/* Weighted sets (weighted.c); fill the result's arrays. */
DLS__HIDDEN dls_status dls__partition_weighted(const dls_model *const *models, const double *cap,
                                              size_t p, uint64_t n, const double *w,
                                              const dls_partition_params *par,
                                              dls_partition *res, dls_error *err);

/* A model whose time is factor times the time of m (speeds divided by factor). */
DLS__HIDDEN dls_status dls__model_scale_time(const dls_model *m, double factor, dls_model **out,
                                            dls_error *err);

#endif /* DLSCHED_PARTITION_IMPL_H */
