/* What the importers (StarPU model files, CSV) share: the processors they build before any
 * of them reaches the platform, the band rule, the report, and the all-or-nothing commit. */
#ifndef DLSCHED_IMPORT_IMPL_H
#define DLSCHED_IMPORT_IMPL_H

#include <stddef.h>

#include "core/internal.h"
#include "dlsched/import.h"

/* Bytes of an import file at most: the platform files' limit. */
#define DLS__IMPORT_FILE_MAX DLS_PLATFORM_FILE_MAX

/* A processor being built: its points in the order found (sorted and checked by
 * dls__import_commit), with or without bands. */
typedef struct dls__import_proc {
    char *name;            /* owned */
    char *source;          /* owned: where it came from, for the report */
    size_t n, cap;
    double *size, *speed, *low, *high; /* low/high NaN for a point without a band */
    int *line;             /* the input line of each point (0: none), for messages */
    size_t entries;        /* entries or rows read */
    size_t few;            /* entries with too few samples */
    int from_regression;
} dls__import_proc;

/* Appends a point; -1 when out of memory. */
DLS__HIDDEN int dls__import_point(dls__import_proc *p, double size, double speed, double low,
                                 double high, int line);
DLS__HIDDEN void dls__import_proc_free(dls__import_proc *p);
/* Frees procs[0..np) and the array (NULL: nothing). */
DLS__HIDDEN void dls__import_procs_free(dls__import_proc *procs, size_t np);

/* The point of a size from its times: mean and sample standard deviation (seconds) over n
 * samples. speed = size / mean; with n >= 2 the band is where one more run is expected at
 * the confidence level (Student-t, n - 1 degrees of freedom), as dls_bench_build() keeps it:
 * [size / (mean + pi), size / max(mean - pi, mean / 2)], pi = t sd sqrt(1 + 1/n). With
 * n < 2, low and high are NaN (no band). */
DLS__HIDDEN void dls__import_band(double size, double mean, double sd, unsigned n,
                                 double confidence, double *speed, double *low, double *high);

/* The half-width pi of that interval per unit of sd: t_{(1+c)/2, n-1} sqrt(1 + 1/n). */
DLS__HIDDEN double dls__import_band_factor(unsigned n, double confidence);

/* Makes the models of procs[0..np) and puts them in platform, all or none (platform is left
 * as it was on failure): points sorted by size, points of equal size refused (naming their
 * lines), a point's band padded to hold its speed when rounding left it a hair off, and a
 * point without a band given its speed alone as its band when other points have one. A name
 * already in the platform is an error unless replace. notes (may be NULL) goes to the
 * report. fn and source name the call and the input in messages. */
DLS__HIDDEN dls_status dls__import_commit(dls__import_proc *procs, size_t np, int replace,
                                         dls_platform *platform, const char *notes,
                                         dls_import_report **report, const char *fn,
                                         const char *source, dls_error *err);

/* Reads a whole file of at most DLS__IMPORT_FILE_MAX bytes (a stream up to that), NUL-
 * terminated; *text to free. DLS_EIO, DLS_ELIMIT or DLS_ENOMEM with the path. */
DLS__HIDDEN dls_status dls__import_read(const char *path, char **text, size_t *len,
                                       dls_error *err);

/* The base name of path, up to its first '.' (whole: 0) or its last '.' (0 < whole):
 * a new string, or NULL when out of memory. */
DLS__HIDDEN char *dls__import_base_name(const char *path, int last_dot);

/* StarPU's model files: the one format version StarPU 1.3 and 1.4 write
 * (_STARPU_PERFMODEL_VERSION), and their time unit, the microsecond. */
#define DLS__STARPU_VERSION 45
#define DLS__STARPU_US_PER_S 1e6

/* The name StarPU gives a device type ("cpu", "cuda"), NULL for a type no version defines;
 * and the type of the len bytes of name, -1 for none. */
DLS__HIDDEN const char *dls__starpu_type_name(long type);
DLS__HIDDEN long dls__starpu_type(const char *name, size_t len);

/* The texts of dls_platform_csv_to_string() and dls_platform_starpu_to_string() (export.c
 * gives the public pairs); fn names the public call in messages. */
DLS__HIDDEN dls_status dls__platform_csv(const dls_platform *platform, size_t i, char **out,
                                        const char *fn, dls_error *err);
DLS__HIDDEN dls_status dls__platform_starpu(const dls_platform *platform, size_t i,
                                           const dls_starpu_export_params *params, char **out,
                                           const char *fn, dls_error *err);

#endif /* DLSCHED_IMPORT_IMPL_H */
