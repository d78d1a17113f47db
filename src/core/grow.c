/* The growth policy of every growing array. */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "core/grow.h"

void *dls__grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap && p != NULL)
        return p;
    if (elem == 0 || need > SIZE_MAX / elem)
        return NULL;
    size_t n = *cap < DLS__GROW_MIN ? DLS__GROW_MIN : *cap;
    while (n < need)
        n = n > SIZE_MAX / 2 ? need : 2 * n;
    if (n > SIZE_MAX / elem)
        n = need;
    void *g = realloc(p, n * elem);
    if (g == NULL)
        return NULL;
    *cap = n;
    return g;
}
