/* One growth policy for every array that grows as it is filled: geometric (at least
 * doubling, so that n appends cost O(n)), with a floor so that small arrays do not
 * reallocate at every append, and overflow-checked. */
#ifndef DLSCHED_CORE_GROW_H
#define DLSCHED_CORE_GROW_H

#include <stddef.h>

#include "core/internal.h"

/* Smallest capacity, in elements, that a growth gives an empty array. */
#define DLS__GROW_MIN 16

/* Returns p enlarged (or allocated, when p is NULL) to hold at least `need` elements of
 * `elem` bytes, and sets *cap to the new capacity; returns p itself when *cap >= need.
 * Returns NULL, leaving p valid and *cap unchanged, when out of memory or when the size
 * overflows. Use as:
 *     double *g = dls__grow(x, &cap, n + 1, sizeof *x);
 *     if (g == NULL) ...failure...;
 *     x = g; */
DLS__HIDDEN void *dls__grow(void *p, size_t *cap, size_t need, size_t elem);

#endif /* DLSCHED_CORE_GROW_H */
