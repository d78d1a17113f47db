/* Sorting helpers shared by the partitioners, the LU distributions and the plots: indices
 * ordered by a key, ties broken by the index so that every order is deterministic. */
#ifndef DLSCHED_CORE_SORT_H
#define DLSCHED_CORE_SORT_H

#include <stddef.h>

#include "core/internal.h"

/* An index with its sort key. */
typedef struct dls__keyed {
    double key;
    size_t index;
} dls__keyed;

/* Sorts by increasing key, equal keys by increasing index (a stable, total order as long
 * as no key is NaN). */
DLS__HIDDEN void dls__keyed_sort(dls__keyed *a, size_t n);

/* Sorts by decreasing key, equal keys by increasing index. */
DLS__HIDDEN void dls__keyed_sort_down(dls__keyed *a, size_t n);

/* Sorts doubles increasingly (no NaN). */
DLS__HIDDEN void dls__sort_doubles(double *x, size_t n);

#endif /* DLSCHED_CORE_SORT_H */
