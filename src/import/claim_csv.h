/* Claims (include/dlsched/verify.h) read from a CSV table any program can print. */
#ifndef DLSCHED_IMPORT_CLAIM_CSV_H
#define DLSCHED_IMPORT_CLAIM_CSV_H

#include <stddef.h>

#include "dlsched/verify.h"
#include "core/internal.h"

/* Reads the len bytes at text (named source in messages) as a claim for pl: a header naming
 * `name` and `load` (or `elements`: a partition), optionally `send_start`, `send_end`,
 * `compute_start` and `finish` (`time` in a partition), in any order and case; one row per
 * processor, in send order; an empty cell is a time not given. */
DLS__HIDDEN dls_status dls__claim_read_csv(const char *text, size_t len, const char *source,
                                          const dls_platform *pl, dls_claim **out,
                                          dls_error *err);

#endif /* DLSCHED_IMPORT_CLAIM_CSV_H */
