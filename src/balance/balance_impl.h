/* Internals of the balance module: the move plans (plan.c) the balancer (balance.c) keeps
 * for each step. */
#ifndef DLSCHED_BALANCE_IMPL_H
#define DLSCHED_BALANCE_IMPL_H

#include "dlsched/balance.h"
#include "dlsched/partition.h"
#include "core/internal.h"

struct dls_move_plan {
    size_t p;
    uint64_t moved;        /* elements that change owner */
    size_t nmoves;
    dls_move *moves;       /* nmoves transfers, by first element; NULL when none */
    int64_t *boundaries;   /* p - 1 (NULL for p = 1) */
    int64_t *changes;      /* p */
};

/* The plan from before to after (p counts each, equal sums, checked by the caller) into a
 * new *out; DLS_ENOMEM after a message naming who. */
DLS__HIDDEN dls_status dls__move_plan_build(size_t p, const uint64_t *before, const uint64_t *after,
                                           const char *who, dls_move_plan **out, dls_error *err);

#endif /* DLSCHED_BALANCE_IMPL_H */
