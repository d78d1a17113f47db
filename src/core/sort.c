/* Deterministic orders by key. */
#include <config.h>

#include <stdlib.h>

#include "core/sort.h"

static int by_index(const dls__keyed *x, const dls__keyed *y)
{
    return (x->index > y->index) - (x->index < y->index);
}

static int up(const void *a, const void *b)
{
    const dls__keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return by_index(x, y);
}

static int down(const void *a, const void *b)
{
    const dls__keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key > y->key ? -1 : 1;
    return by_index(x, y);
}

static int doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void dls__keyed_sort(dls__keyed *a, size_t n)
{
    if (n > 1)
        qsort(a, n, sizeof *a, up);
}

void dls__keyed_sort_down(dls__keyed *a, size_t n)
{
    if (n > 1)
        qsort(a, n, sizeof *a, down);
}

void dls__sort_doubles(double *x, size_t n)
{
    if (n > 1)
        qsort(x, n, sizeof *x, doubles);
}
