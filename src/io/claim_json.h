/* Claims (include/dlsched/verify.h) read from the JSON dlsched writes. */
#ifndef DLSCHED_IO_CLAIM_JSON_H
#define DLSCHED_IO_CLAIM_JSON_H

#include <stddef.h>

#include "dlsched/verify.h"
#include "core/internal.h"

/* Reads the len bytes at text (named source in messages) as a claim for pl. */
DLS__HIDDEN dls_status dls__claim_read_json(const char *text, size_t len, const char *source,
                                           const dls_platform *pl, dls_claim **out,
                                           dls_error *err);

#endif /* DLSCHED_IO_CLAIM_JSON_H */
