/* The library's one binary heap: item indices ordered by a key the caller owns, in an
 * array the caller gives (bounded, no allocation, no global state). Used by the greedy
 * partitioners (partition/) and the envelope's refinement (model/envelope.c). */
#ifndef DLSCHED_CORE_HEAP_H
#define DLSCHED_CORE_HEAP_H

#include <stddef.h>

#include "core/internal.h"

/* Orders for dls__heap_init(), or-ed together. */
enum {
    DLS__HEAP_MIN = 0,       /* smallest key on top */
    DLS__HEAP_MAX = 1,       /* largest key on top */
    /* equal keys are left where the sifts put them instead of the smaller index going
     * first: the envelope's order, kept so that its lines do not change */
    DLS__HEAP_TIES_FREE = 2
};

/* The key of item i is the double at (const char *)key + i * stride: a plain array of
 * doubles (stride sizeof(double)) or one field of an array of records. Items are indices
 * below whatever bound the key array has; the heap holds at most cap of them. */
typedef struct dls__heap {
    size_t *item;
    size_t size, cap;
    const char *key;
    size_t stride;
    int order;
} dls__heap;

/* An empty heap over item[0..cap). */
DLS__HIDDEN void dls__heap_init(dls__heap *h, size_t *item, size_t cap, const double *key,
                               size_t stride, int order);
DLS__HIDDEN void dls__heap_push(dls__heap *h, size_t i);
/* Removes and returns the top item (the heap must not be empty). */
DLS__HIDDEN size_t dls__heap_pop(dls__heap *h);
/* The top item without removing it (the heap must not be empty). */
DLS__HIDDEN size_t dls__heap_top(const dls__heap *h);
/* Adds i without ordering: a run of these ends with dls__heap_build(), before any other
 * call, which orders them all in linear time. */
DLS__HIDDEN void dls__heap_append(dls__heap *h, size_t i);
DLS__HIDDEN void dls__heap_build(dls__heap *h);
/* Empties the heap (its items stay the caller's). */
DLS__HIDDEN void dls__heap_clear(dls__heap *h);

#endif /* DLSCHED_CORE_HEAP_H */
