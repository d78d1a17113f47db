/* The binary heap of core/heap.h. */
#include <config.h>

#include "core/heap.h"

void dls__heap_init(dls__heap *h, size_t *item, size_t cap, const double *key, size_t stride,
                    int order)
{
    h->item = item;
    h->size = 0;
    h->cap = cap;
    h->key = (const char *)key;
    h->stride = stride;
    h->order = order;
}

static double key_of(const dls__heap *h, size_t i)
{
    return *(const double *)(h->key + i * h->stride);
}

/* Whether item a goes above item b. */
static int before(const dls__heap *h, size_t a, size_t b)
{
    double ka = key_of(h, a), kb = key_of(h, b);
    if (ka != kb)
        return h->order & DLS__HEAP_MAX ? ka > kb : ka < kb;
    return !(h->order & DLS__HEAP_TIES_FREE) && a < b;
}

static void swap(dls__heap *h, size_t a, size_t b)
{
    size_t t = h->item[a];
    h->item[a] = h->item[b];
    h->item[b] = t;
}

void dls__heap_push(dls__heap *h, size_t i)
{
    DLS__ASSERT(h->size < h->cap);
    size_t c = h->size++;
    h->item[c] = i;
    while (c > 0) {
        size_t parent = (c - 1) / 2;
        if (!before(h, h->item[c], h->item[parent]))
            break;
        swap(h, c, parent);
        c = parent;
    }
}

/* Moves item c down to its place. */
static void sift_down(dls__heap *h, size_t c)
{
    for (;;) {
        size_t l = 2 * c + 1, r = l + 1, best = c;
        if (l < h->size && before(h, h->item[l], h->item[best]))
            best = l;
        if (r < h->size && before(h, h->item[r], h->item[best]))
            best = r;
        if (best == c)
            break;
        swap(h, c, best);
        c = best;
    }
}

size_t dls__heap_pop(dls__heap *h)
{
    DLS__ASSERT(h->size > 0);
    size_t top = h->item[0];
    h->item[0] = h->item[--h->size];
    sift_down(h, 0);
    return top;
}

size_t dls__heap_top(const dls__heap *h)
{
    DLS__ASSERT(h->size > 0);
    return h->item[0];
}

void dls__heap_append(dls__heap *h, size_t i)
{
    DLS__ASSERT(h->size < h->cap);
    h->item[h->size++] = i;
}

void dls__heap_build(dls__heap *h)
{
    for (size_t c = h->size / 2; c-- > 0;)
        sift_down(h, c);
}

void dls__heap_clear(dls__heap *h)
{
    h->size = 0;
}
