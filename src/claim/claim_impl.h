/* The claim object (include/dlsched/verify.h): what another scheduler says, per processor of
 * one platform. Filled by the setters, by the JSON reader (src/io/claim_json.c) and by the
 * CSV reader (src/import/claim_csv.c); read by src/verify. */
#ifndef DLSCHED_CLAIM_IMPL_H
#define DLSCHED_CLAIM_IMPL_H

#include "dlsched/verify.h"
#include "core/internal.h"

struct dls_claim {
    const dls_platform *platform;
    size_t n;               /* the platform's count when the claim was made */
    dls_claim_kind kind;
    double total, makespan; /* NaN: not claimed */
    /* n each; NaN where the claim gives no time */
    double *load, *send_start, *send_end, *compute_start, *finish;
    size_t *order;          /* m distinct indices (NULL, m = 0: none given) */
    uint64_t matrix;        /* a partition of the rows of an n x n product; 0: elements */
    double chunk;           /* installments: the chunk size (NaN: not set) */
    /* a partition of weighted elements, as `partition --weights --json` writes it: each
     * processor's load is the weight it holds, not a count */
    int weighted;
    size_t m;
    /* which elements each processor holds, when the claim says (at most one of the two):
     * owner[e] for e < n_owner, or the chunks [first[i], first[i] + count[i]) */
    size_t *owner, n_owner;
    uint64_t *first, *count;
};

/* Sets the order without checks other than the ones dls_claim_set_order makes; used by the
 * readers, which have checked names. */
DLS__HIDDEN dls_status dls__claim_set_order(dls_claim *c, const size_t *order, size_t m,
                                           const char *fn, dls_error *err);

/* What the readers check once the claim is read, so that a verifier never meets a sum it
 * cannot compute with: the loads' sum 0 or inside the input domain (1 + 1e308 is not), a
 * partition's elements at most DLS_PARTITION_MAX_ELEMENTS, and an installments claim's
 * chunk dividing its load (the total, else the sum) into fewer than
 * DLS_INSTALLMENT_MAX_CHUNKS chunks. 0 when they hold; else text receives the sentence and
 * the return says where it lies: 1 the loads, 2 the chunk. */
DLS__HIDDEN int dls__claim_check_sums(const dls_claim *c, char *text, size_t size);

#endif /* DLSCHED_CLAIM_IMPL_H */
