/* The coefficients of a GLPK matrix, gathered as triplets (row, column, value) before one
 * glp_load_matrix. GLPK reads its arrays from index 1, so index 0 is never written.
 *
 * The arrays belong to the caller's side, not to GLPK's environment: when the guard
 * abandons a GLPK call (glpk_guard.h), nothing gathered here leaks. A put that finds no
 * memory marks the triplets failed and every later put does nothing, so a builder runs
 * through and asks once, at dls__triplets_load. A caller that must not allocate inside
 * GLPK reserves the room first (with the count derived where it is computed); the others
 * let the arrays grow, by doubling (dls__grow): at most twice the entries in memory, and
 * each entry copied a bounded number of times on average. */
#ifndef DLSCHED_SOLVER_TRIPLETS_H
#define DLSCHED_SOLVER_TRIPLETS_H

#include <glpk.h>
#include <stddef.h>

#include "core/internal.h"

typedef struct dls__triplets {
    int *ia, *ja;  /* row and column of entry 1..n */
    double *ar;    /* its value */
    size_t n;      /* entries gathered */
    size_t cap;    /* places in each array, index 0 included */
    int failed;    /* a put found no memory: the matrix is incomplete */
} dls__triplets;

/* Empty triplets, owning nothing. */
DLS__HIDDEN void dls__triplets_init(dls__triplets *t);
/* Room for `entries` entries, so that as many puts allocate nothing. DLS_ENOMEM, or DLS_OK. */
DLS__HIDDEN dls_status dls__triplets_reserve(dls__triplets *t, size_t entries);
/* Forgets the entries (and a failure), keeping the room for the next matrix. */
DLS__HIDDEN void dls__triplets_clear(dls__triplets *t);
/* Adds a(row, col) = value; a zero is left out (GLPK keeps no explicit zeros). */
DLS__HIDDEN void dls__triplets_put(dls__triplets *t, int row, int col, double value);
/* The matrix of P becomes the triplets; DLS_ENOMEM (P untouched) when a put failed. */
DLS__HIDDEN dls_status dls__triplets_load(const dls__triplets *t, glp_prob *P);
/* Frees the arrays; t is then empty, as after dls__triplets_init. */
DLS__HIDDEN void dls__triplets_free(dls__triplets *t);

#endif
