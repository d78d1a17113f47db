/* GLPK matrix triplets (see triplets.h). */
#include <config.h>

#include <stdlib.h>

#include "core/grow.h"
#include "solver/triplets.h"

void dls__triplets_init(dls__triplets *t)
{
    t->ia = t->ja = NULL;
    t->ar = NULL;
    t->n = t->cap = 0;
    t->failed = 0;
}

dls_status dls__triplets_reserve(dls__triplets *t, size_t entries)
{
    /* the three arrays share one capacity: the least that each obtained */
    size_t need = entries + 1, ci = t->cap, cj = t->cap, cr = t->cap;
    int *ia = dls__grow(t->ia, &ci, need, sizeof *ia);
    if (ia == NULL)
        return DLS_ENOMEM;
    t->ia = ia;
    int *ja = dls__grow(t->ja, &cj, need, sizeof *ja);
    if (ja == NULL)
        return DLS_ENOMEM;
    t->ja = ja;
    double *ar = dls__grow(t->ar, &cr, need, sizeof *ar);
    if (ar == NULL)
        return DLS_ENOMEM;
    t->ar = ar;
    size_t least = ci < cj ? ci : cj;
    t->cap = least < cr ? least : cr;
    return DLS_OK;
}

void dls__triplets_clear(dls__triplets *t)
{
    t->n = 0;
    t->failed = 0;
}

void dls__triplets_put(dls__triplets *t, int row, int col, double value)
{
    if (value == 0 || t->failed)
        return;
    if (t->n + 2 > t->cap && dls__triplets_reserve(t, t->n + 1) != DLS_OK) {
        t->failed = 1;
        return;
    }
    t->n++;
    t->ia[t->n] = row;
    t->ja[t->n] = col;
    t->ar[t->n] = value;
}

dls_status dls__triplets_load(const dls__triplets *t, glp_prob *P)
{
    if (t->failed)
        return DLS_ENOMEM;
    glp_load_matrix(P, (int)t->n, t->ia, t->ja, t->ar);
    return DLS_OK;
}

void dls__triplets_free(dls__triplets *t)
{
    free(t->ia);
    free(t->ja);
    free(t->ar);
    dls__triplets_init(t);
}
