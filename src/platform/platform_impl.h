/* The layout of dls_platform, shared by the platform object and its JSON reader. */
#ifndef DLSCHED_PLATFORM_IMPL_H
#define DLSCHED_PLATFORM_IMPL_H

#include "core/internal.h"

typedef struct dls__proc {
    char *name;
    dls_model *model;
    int two_d;        /* the model is 2-D (kept here so that scans need not touch models) */
    double limit;     /* INFINITY when none */
    int has_link;     /* the link was given (a {0, 0} link is still written back) */
    double startup;   /* seconds */
    double rate;      /* seconds per unit */
} dls__proc;

struct dls_platform {
    size_t n, cap;
    dls__proc *procs;
    size_t *slots;    /* name index: open addressing, SIZE_MAX marks a free slot */
    size_t nslots;    /* a power of two, or 0 before the first processor */
};

/* The limits on what one platform may hold (dlsched/platform.h), as a record: the readers
 * and dls_platform_add take them from dls__platform_limits, the tests pass small ones to
 * reach each error without inputs of gigabytes. */
typedef struct dls__limits {
    size_t file_bytes, processors, points, lines, grid_cells;
} dls__limits;

/* The documented limits: DLS_PLATFORM_FILE_MAX, DLS_PLATFORM_MAX_PROCESSORS, ... */
DLS_HIDDEN extern const dls__limits dls__platform_limits;

/* 0 when model is within lim; else 1 with why (size bytes) saying which count exceeds
 * which limit ("its speed model has 1000001 points, more than the 1000000 ..."). */
DLS_HIDDEN int dls__model_over_limit(const dls_model *model, const dls__limits *lim,
                                     char *why, size_t size);

/* dls_platform_add() under the limits lim. */
DLS_HIDDEN dls_status dls__platform_add_within(dls_platform *platform, const char *name,
                                               const dls_model *model, size_t *index,
                                               const dls__limits *lim, dls_error *err);

/* "3.2 GiB", "135 MiB", "512 bytes": a size in bytes as messages give it. */
DLS_HIDDEN void dls__format_bytes(double bytes, char *out, size_t size);

/* Appends a processor taking ownership of model (only on success); no limit is checked. */
DLS_HIDDEN dls_status dls__platform_add_owned(dls_platform *p, const char *name,
                                              dls_model *model, size_t *index, dls_error *err);

/* The rule for processor names, shared by dls_platform_add and the platform reader: not
 * empty, at most DLS_PLATFORM_NAME_MAX bytes of valid UTF-8, no control character.
 * Returns 0 when name follows it, 1 with why (size bytes) saying what is wrong. */
DLS_HIDDEN int dls__check_name(const char *name, char *why, size_t size);

/* An empty platform, NULL when out of memory (dls_platform_create() without the error
 * record, for the library's own constructors). */
DLS_HIDDEN dls_platform *dls__platform_new(void);

/* Index of the processor called name, -1 when there is none (or NULL arguments). */
DLS_HIDDEN long dls__platform_find(const dls_platform *platform, const char *name);

/* The name as a message quotes it: quotes, backslashes and control characters escaped, cut
 * short to fit out (size bytes). */
DLS_HIDDEN void dls__quote_name(const char *name, char *out, size_t size);

#endif /* DLSCHED_PLATFORM_IMPL_H */
