/* Move plans of 1-D block layouts: which elements change owner when the counts change and
 * the order of the processors is kept. Walking both layouts' boundaries together gives the
 * runs of elements whose owner differs; each moves once, from its old owner to its new one,
 * which no plan for the same counts can beat (an element moves exactly when its owner
 * changes, and the owners are fixed by the counts and the order). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "balance/balance_impl.h"
#include "core/internal.h"

void dls_move_plan_free(dls_move_plan *plan)
{
    if (plan == NULL)
        return;
    free(plan->moves);
    free(plan->boundaries);
    free(plan->changes);
    free(plan);
}

/* The runs of elements whose owner changes, into plan->moves (counted first with
 * moves == NULL, then filled). */
static size_t walk(size_t p, const uint64_t *before, const uint64_t *after, dls_move *moves)
{
    size_t i = 0, j = 0, k = 0;
    uint64_t pos = 0, end_i = before[0], end_j = after[0];
    for (;;) {
        /* skip empty blocks: their end is where they start */
        while (i < p && end_i <= pos && i + 1 < p)
            end_i += before[++i];
        while (j < p && end_j <= pos && j + 1 < p)
            end_j += after[++j];
        if (end_i <= pos || end_j <= pos)
            break;
        uint64_t stop = end_i < end_j ? end_i : end_j;
        if (i != j) {
            if (moves != NULL)
                moves[k] = (dls_move){.from = i, .to = j, .first = pos, .count = stop - pos};
            k++;
        }
        pos = stop;
    }
    return k;
}

dls_status dls__move_plan_build(size_t p, const uint64_t *before, const uint64_t *after,
                               const char *who, dls_move_plan **out, dls_error *err)
{
    dls_move_plan *plan = calloc(1, sizeof *plan);
    if (plan == NULL)
        return dls__oom(err, who);
    plan->p = p;
    plan->nmoves = walk(p, before, after, NULL);
    plan->changes = malloc(p * sizeof *plan->changes);
    plan->boundaries = p > 1 ? malloc((p - 1) * sizeof *plan->boundaries) : NULL;
    plan->moves = plan->nmoves > 0 ? calloc(plan->nmoves, sizeof *plan->moves) : NULL;
    if (plan->changes == NULL || (p > 1 && plan->boundaries == NULL) ||
        (plan->nmoves > 0 && plan->moves == NULL)) {
        dls_move_plan_free(plan);
        return dls__oom(err, who);
    }
    walk(p, before, after, plan->moves);
    for (size_t k = 0; k < plan->nmoves; k++)
        plan->moved += plan->moves[k].count;
    /* boundary i: its old and new positions differ by the elements crossing it */
    uint64_t b = 0, a = 0;
    for (size_t i = 0; i < p; i++) {
        plan->changes[i] = (int64_t)after[i] - (int64_t)before[i];
        b += before[i];
        a += after[i];
        if (i + 1 < p)
            plan->boundaries[i] = (int64_t)b - (int64_t)a;
    }
    *out = plan;
    return DLS_OK;
}

dls_status dls_move_plan_create(size_t p, const uint64_t *before, const uint64_t *after,
                                dls_move_plan **out, dls_error *err)
{
    static const char fn[] = "dls_move_plan_create";
    if (p == 0 || before == NULL || after == NULL || out == NULL)
        return dls__fail(err, DLS_EINVAL, fn, "p must be > 0 and the counts and out not NULL");
    uint64_t sb = 0, sa = 0;
    for (size_t i = 0; i < p; i++) {
        if (before[i] > DLS_PARTITION_MAX_ELEMENTS - sb ||
            after[i] > DLS_PARTITION_MAX_ELEMENTS - sa)
            return dls__fail(err, DLS_EINVAL, fn, "the counts add up to more than %llu elements "
                             "(at processor %zu)", (unsigned long long)DLS_PARTITION_MAX_ELEMENTS,
                             i);
        sb += before[i];
        sa += after[i];
    }
    if (sb != sa)
        return dls__fail(err, DLS_EINVAL, fn, "the counts before add up to %llu elements and "
                         "those after to %llu: a plan moves elements, it cannot add or remove "
                         "them", (unsigned long long)sb, (unsigned long long)sa);
    return dls__move_plan_build(p, before, after, fn, out, err);
}

size_t dls_move_plan_count(const dls_move_plan *plan)
{
    return plan ? plan->p : 0;
}

uint64_t dls_move_plan_moved(const dls_move_plan *plan)
{
    return plan ? plan->moved : 0;
}

const dls_move *dls_move_plan_moves(const dls_move_plan *plan, size_t *n)
{
    if (n != NULL)
        *n = plan ? plan->nmoves : 0;
    return plan ? plan->moves : NULL;
}

const int64_t *dls_move_plan_boundaries(const dls_move_plan *plan)
{
    return plan ? plan->boundaries : NULL;
}

const int64_t *dls_move_plan_changes(const dls_move_plan *plan)
{
    return plan ? plan->changes : NULL;
}
