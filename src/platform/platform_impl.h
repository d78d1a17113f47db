/* The layout of dls_platform, shared by the platform object and its JSON reader. */
#ifndef DLSCHED_PLATFORM_IMPL_H
#define DLSCHED_PLATFORM_IMPL_H

#include <stdint.h>

#include "core/internal.h"

/* Which of a processor's name and model lie in the platform's store (see struct
 * dls_platform) rather than in allocations of their own. */
enum { DLS__STORED_NAME = 1, DLS__STORED_MODEL = 2 };

typedef struct dls__proc {
    char *name;
    dls_model *model;
    int two_d;        /* the model is 2-D (kept here so that scans need not touch models) */
    double limit;     /* INFINITY when none */
    int has_link;     /* the link was given (a {0, 0} link is still written back) */
    unsigned char stored; /* DLS__STORED_NAME | DLS__STORED_MODEL: not freed one by one */
    double startup;   /* seconds */
    double rate;      /* seconds per unit */
    double release;   /* seconds: the earliest it computes (0: at once) */
    /* results returned: the fraction of a chunk's units, the return's startup (s) and
     * rate (s per result unit); all 0 when nothing returns */
    double ret_frac, ret_startup, ret_rate;
    /* what a person said of it in a platform file (issue 36), kept for dls_platform_memory
     * and the like: bytes of one unit, memory in bytes, how many times slower a unit
     * computes beyond the memory; 0 when not given. The model, limit and link already say
     * what they mean (the second time line, the limit, the rate). */
    double bytes_per_unit, memory, paging;
} dls__proc;

/* A block of the store. */
typedef struct dls__block dls__block;

/* A slot of the name index: a processor's index (DLS__FREE_SLOT: none) and 32 bits of its
 * name's hash, which place it (tag & mask) and spare most comparisons of names. */
typedef struct dls__slot {
    uint32_t proc, tag;
} dls__slot;
#define DLS__FREE_SLOT UINT32_MAX

struct dls_platform {
    size_t n, cap;
    int format;       /* the platform format's version it was read in (dls_platform_format) */
    dls__proc *procs;
    dls__slot *slots; /* name index: open addressing, linear probing */
    size_t nslots;    /* a power of two, or 0 before the first processor */
    /* The store: the names and models of the processors a reader appended
     * (dls__platform_append), side by side in a few large blocks, newest first, freed with
     * the platform: a file of a million processors costs a few dozen allocations instead of
     * two million. A processor removed or given another model leaves its bytes there, so
     * the store never exceeds what the reader put in it. */
    dls__block *store;
};

/* The limits on what one platform may hold (dlsched/platform.h), as a record: the readers
 * and dls_platform_add take them from dls__platform_limits, the tests pass small ones to
 * reach each error without inputs of gigabytes. */
typedef struct dls__limits {
    size_t file_bytes, processors, points, lines, grid_cells;
} dls__limits;

/* The documented limits: DLS_PLATFORM_FILE_MAX, DLS_PLATFORM_MAX_PROCESSORS, ... */
DLS__HIDDEN extern const dls__limits dls__platform_limits;

/* 0 when model is within lim; else 1 with why (size bytes) saying which count exceeds
 * which limit ("its speed model has 1000001 points, more than the 1000000 ..."). */
DLS__HIDDEN int dls__model_over_limit(const dls_model *model, const dls__limits *lim,
                                     char *why, size_t size);

/* dls_platform_add() under the limits lim. */
DLS__HIDDEN dls_status dls__platform_add_within(dls_platform *platform, const char *name,
                                               const dls_model *model, size_t *index,
                                               const dls__limits *lim, dls_error *err);

/* "3.2 GiB", "135 MiB", "512 bytes": a size in bytes as messages give it. */
DLS__HIDDEN void dls__format_bytes(double bytes, char *out, size_t size);

/* Appends a processor for a reader, which checked name (len bytes, with dls__check_name)
 * and model: copies of both go to the platform's store, and the name is looked up once.
 * When a processor is already called name, *dup receives its index and nothing changes;
 * otherwise *dup = -1 and *index (if not NULL) the new processor's index. No limit is
 * checked. Returns DLS_OK either way, or DLS_ENOMEM (nothing changed). */
DLS__HIDDEN dls_status dls__platform_append(dls_platform *p, const char *name, size_t len,
                                           const dls_model *model, size_t *index, long *dup,
                                           dls_error *err);

/* Appends a processor taking ownership of model (only on success); no limit is checked. */
DLS__HIDDEN dls_status dls__platform_add_owned(dls_platform *p, const char *name,
                                              dls_model *model, size_t *index, dls_error *err);

/* The rule for processor names, shared by dls_platform_add and the platform reader: not
 * empty, at most DLS_PLATFORM_NAME_MAX bytes of valid UTF-8, no control character.
 * Returns 0 when name follows it, 1 with why (size bytes) saying what is wrong. */
DLS__HIDDEN int dls__check_name(const char *name, char *why, size_t size);

/* An empty platform, NULL when out of memory (dls_platform_create() without the error
 * record, for the library's own constructors). */
DLS__HIDDEN dls_platform *dls__platform_new(void);

/* Index of the processor called name, -1 when there is none (or NULL arguments). */
DLS__HIDDEN long dls__platform_find(const dls_platform *platform, const char *name);

/* The name (or any text from an input) as a message quotes it: quotes, backslashes, control
 * characters and bytes that are not UTF-8 escaped, cut short to fit out (size bytes). */
DLS__HIDDEN void dls__quote_name(const char *name, char *out, size_t size);

#endif /* DLSCHED_PLATFORM_IMPL_H */
