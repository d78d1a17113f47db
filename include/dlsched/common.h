/**
 * @file dlsched/common.h
 * @brief Status codes, error records and the version query shared by every dlsched module.
 *
 * The API policy (doc/ARCHITECTURE.md gives the reasons; tests/api/ keeps it):
 * - Names: `dls_` / `DLS_` prefixes; functions `dls_<object>_<verb>`; getters
 *   `dls_<object>_<property>` (`get_` only where the property is also a type's name, or
 *   where the call copies into the caller's records and returns a ::dls_status);
 *   documents by `dls_<object>[_<what>]_to_string` and `..._write_file`. Renamed functions
 *   keep their old names for one release, marked ::DLS_DEPRECATED (NEWS lists them).
 * - Status: every call that can fail returns a ::dls_status (::DLS_OK, zero, is success)
 *   and takes a last argument `dls_error *err` that may be NULL; on failure the record
 *   receives the status and a message naming what was wrong (file, line and column,
 *   processor, value); on success it is left untouched. A call that fails leaves its
 *   objects and outputs as they were. No public function returns -1/0/1 as a status: a
 *   yes/no is an `int` that is 0 or 1, an answer's status a ::dls_solution_status.
 * - Messages start with the public function's name (`dls_lu_distribute: ...`); one public
 *   call failing inside another shows both (`dls_crosscheck_run: dls_schedule_solve:
 *   ...`); errors located in an input file start with `FILE:LINE:COLUMN:`.
 * - Lifecycle: every constructor returns a status and its object through an out parameter;
 *   every object has its `_free`, which accepts NULL.
 * - Parameters: `const dls_<what>_params *`, NULL for the defaults, filled by
 *   `dls_<what>_params_init`, range-checked on entry. Every parameter struct, and every
 *   record the library fills in the caller's memory, ends with reserved bytes
 *   (::DLS_PARAMS_RESERVED) so that its size never changes when a field is added; those
 *   of a parameter struct must be zero (init clears them).
 * - Answers that do not apply: NAN (numbers), NULL (arrays), 0 (counts),
 *   ::DLS_SOLUTION_NONE (answer statuses); each getter says which.
 * - Arrays and strings returned by getters (`const` pointers) belong to the object they
 *   come from: they stay valid, unchanged, until that object is freed (or, for an object
 *   that can be changed, such as a ::dls_claim or a ::dls_platform, until the call that
 *   changes what they describe); getters never reuse a buffer from one call to the next.
 *   Buffers returned through `char **out` are the caller's, to free with dls_free().
 * - Enumerations come from one X-macro list `DLS_<ENUM>_MAP(X)` with
 *   `dls_<enum>_name()` ("unknown" outside the list) and `dls_<enum>_from_name()`.
 * - Long calls (LU distributions, measurements, MIPs, the installment sweep, the
 *   cross-check) take a ::dls_progress_fn that can cancel them (::DLS_ECANCELED), and
 *   solvers a time limit.
 * - Threads: the library never prints, never exits and never aborts, and keeps no global
 *   mutable state: objects are independent and may be used from different threads as
 *   long as one object is not used by two threads at once; read-only objects may be
 *   shared.
 * - Versions: the libtool version follows the rules and history in configure.ac (NEWS
 *   keeps the history as a table).
 *
 * What dlsched touches of the process, and how it leaves it:
 * - GLPK: every call that uses GLPK runs it in a thread of its own, whose GLPK
 *   environment is created for the call and freed after it. The calling thread's GLPK
 *   environment (its terminal and error hooks, its terminal switch, its problem objects)
 *   is never read or changed, even when GLPK fails internally.
 * - Locale: writers of numbers (exports, SVG, platform files) switch the calling thread
 *   (uselocale, never setlocale) to the C numeric locale for the duration of the call.
 * - OpenBLAS: the measurement kernels set OpenBLAS's process-wide thread count during a
 *   run only when dls_blas_kernel_params::threads asks for it, and set it back after the
 *   run; other threads calling OpenBLAS meanwhile see that count (the one exception).
 * - Files: outputs are written as described in dls_platform_write_file(); scratch files
 *   for GLPK's writers are made in $TMPDIR and removed before the call returns.
 * - Environment: $TMPDIR is read; nothing is set. No signal handler is installed.
 */
#ifndef DLSCHED_COMMON_H
#define DLSCHED_COMMON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Marks a symbol exported from the shared library. */
#if defined(DLS_BUILDING_LIBRARY) && defined(__GNUC__)
#define DLS_API __attribute__((visibility("default")))
#else
#define DLS_API
#endif

/**
 * Marks an old name kept for one release after a rename: a call compiles, with a warning
 * that names the new function (NEWS lists the renames). The library defines the old names
 * as thin wrappers of the new ones.
 */
#if defined(__GNUC__) && !defined(DLS_BUILDING_LIBRARY)
#define DLS_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define DLS_DEPRECATED(msg)
#endif

/**
 * The list of status codes: X(NAME, value, description).
 * New codes are only ever appended, so values stay stable across versions.
 */
#define DLS_STATUS_MAP(X)                                                        \
    X(OK, 0, "success")                                                          \
    X(EINVAL, 1, "invalid argument")                                             \
    X(ENOMEM, 2, "out of memory")                                                \
    X(EIO, 3, "input/output error")                                              \
    X(ESYNTAX, 4, "malformed input")                                             \
    X(EDATA, 5, "invalid data")                                                  \
    X(ERANGE, 6, "value out of range")                                           \
    X(ESOLVER, 7, "solver failure")                                              \
    X(ENUMERIC, 8, "numerical failure")                                          \
    X(ELIMIT, 9, "resource limit exceeded")                                      \
    X(ECANCELED, 10, "canceled by the caller")                                   \
    X(ENOTSUP, 11, "not supported for this model")                               \
    X(EWRITE, 12, "output not written")

/** Status returned by every fallible call. */
typedef enum dls_status {
#define DLS_STATUS_ENUM_(name, value, text) DLS_##name = value,
    DLS_STATUS_MAP(DLS_STATUS_ENUM_)
#undef DLS_STATUS_ENUM_
} dls_status;
/* The values, one by one (the list above makes them). */
/** @var DLS_OK
 *  Value 0; dls_strerror() says "success" (::DLS_STATUS_MAP). */
/** @var DLS_EINVAL
 *  Value 1; dls_strerror() says "invalid argument" (::DLS_STATUS_MAP). */
/** @var DLS_ENOMEM
 *  Value 2; dls_strerror() says "out of memory" (::DLS_STATUS_MAP). */
/** @var DLS_EIO
 *  Value 3; dls_strerror() says "input/output error" (::DLS_STATUS_MAP). */
/** @var DLS_ESYNTAX
 *  Value 4; dls_strerror() says "malformed input" (::DLS_STATUS_MAP). */
/** @var DLS_EDATA
 *  Value 5; dls_strerror() says "invalid data" (::DLS_STATUS_MAP). */
/** @var DLS_ERANGE
 *  Value 6; dls_strerror() says "value out of range" (::DLS_STATUS_MAP). */
/** @var DLS_ESOLVER
 *  Value 7; dls_strerror() says "solver failure" (::DLS_STATUS_MAP). */
/** @var DLS_ENUMERIC
 *  Value 8; dls_strerror() says "numerical failure" (::DLS_STATUS_MAP). */
/** @var DLS_ELIMIT
 *  Value 9; dls_strerror() says "resource limit exceeded" (::DLS_STATUS_MAP). */
/** @var DLS_ECANCELED
 *  Value 10; dls_strerror() says "canceled by the caller" (::DLS_STATUS_MAP). */
/** @var DLS_ENOTSUP
 *  Value 11; dls_strerror() says "not supported for this model" (::DLS_STATUS_MAP). */
/** @var DLS_EWRITE
 *  Value 12; dls_strerror() says "output not written" (::DLS_STATUS_MAP). */

/**
 * Ends every parameter struct, and every record the library fills in the caller's memory:
 * bytes kept for fields added in later versions, so that the struct's size (and the ABI)
 * never changes when a field is added. In a parameter struct they must be zero: the
 * `*_params_init` functions clear them, and the calls refuse a struct whose reserved bytes
 * are not (::DLS_EINVAL). In a record the library fills, the library sets them to zero.
 */
#define DLS_PARAMS_RESERVED(bytes) unsigned char reserved[bytes]

/** Capacity of ::dls_error::message, including the terminating NUL. */
#define DLS_ERROR_MESSAGE_MAX 512

/** Capacity of ::dls_error::origin, including the terminating NUL. */
#define DLS_ERROR_ORIGIN_MAX 64

/**
 * What went wrong in a failed call.
 *
 * Fill it with dls_error_clear() before use if you want to tell "no error" apart
 * from a stale one; successful calls do not write to it.
 */
typedef struct dls_error {
    dls_status status;   /**< the status the call returned */
    int line;            /**< 1-based line in the input file, 0 when not about a file */
    int column;          /**< 1-based column in the input file, 0 when not about a file */
    long processor;      /**< 0-based processor index concerned, -1 when none */
    /** The whole message, e.g. `platform.json:14:9: processor "gpu0": speed point 3
     *  has a negative speed`. Never longer than DLS_ERROR_MESSAGE_MAX - 1 bytes. */
    char message[DLS_ERROR_MESSAGE_MAX];
    /** Where the message comes from: the name of the public function that failed
     *  ("dls_schedule_solve"), the one the message starts with; empty when the message
     *  starts with a file position or names no function. Set with the message, so that a
     *  program can tell which call failed without reading the text. */
    char origin[DLS_ERROR_ORIGIN_MAX];
    /** Zero; room for later fields (the record's size stays the same when one is added). */
    DLS_PARAMS_RESERVED(64);
} dls_error;

/** Resets @p err to "no error" (status ::DLS_OK, empty message and origin). NULL is allowed. */
DLS_API void dls_error_clear(dls_error *err);

/** A short English description of @p status ("invalid argument"); never NULL. A static string;
 *  never freed. */
DLS_API const char *dls_strerror(dls_status status);

/** The symbolic name of @p status without prefix ("EINVAL"); never NULL. A static string; never
 *  freed. */
DLS_API const char *dls_status_name(dls_status status);

/**
 * Writes @p len bytes to @p path the way every writer of dlsched does, never destroying what
 * the path names: a regular file or a new path is replaced atomically (a temporary file
 * beside it, synced, renamed, the directory synced; the mode and owner of the file replaced
 * are kept, a new file gets 0666 less the umask); a symbolic link is followed and its target
 * replaced; a character device, FIFO or socket is written to as a stream; a directory or a
 * block device is refused. For the caller's own outputs (libdlsched_mpi's timelines).
 * @param data @p len bytes (may be NULL when @p len is 0)
 * @return ::DLS_OK; ::DLS_EINVAL for an empty or NULL path; ::DLS_EIO when the destination
 *         cannot be written, ::DLS_EWRITE when the data could not be written to it (both
 *         with the path and the system's reason; the file replaced is then intact).
 */
DLS_API dls_status dls_write_output(const char *path, const void *data, size_t len,
                                    dls_error *err);

/** The version of the library actually linked, "MAJOR.MINOR.PATCH". Compare with
 *  DLS_VERSION_STRING from dlsched/version.h to detect header/library mismatches. A static string;
 *  never freed. */
DLS_API const char *dls_version(void);

/** The linked library's version as 10000 * MAJOR + 100 * MINOR + PATCH. */
DLS_API int dls_version_number(void);

/** Frees memory returned by the library as a plain buffer (strings from the
 *  `*_to_string` functions). NULL is allowed. */
DLS_API void dls_free(void *ptr);

/**
 * The one relative tolerance of dlsched's comparisons of computed quantities: two numbers
 * that should be equal (the loads' sum and the load, a load and its processor's limit, the
 * limits' sum and the load, a finish time and the makespan, a claimed time and the one the
 * model gives) are taken as equal when they differ by at most DLS_REL_TOL times the larger
 * (for times: times the makespan). So limits that hold the load within it are feasible (the
 * loads are then made to sum to the load exactly), and `dlsched verify` accepts a schedule
 * whose numbers were printed with 10 significant digits. doc/NUMERICS.md explains the
 * choice.
 */
#define DLS_REL_TOL 1e-9

/** The status of @p name as dls_status_name() writes it ("EINVAL").
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_status_from_name(const char *name, dls_status *out);

/**
 * What a computed answer is, apart from whether the call worked (the call's ::dls_status):
 * X(NAME, value, text).
 */
#define DLS_SOLUTION_STATUS_MAP(X)                                                   \
    X(NONE, 0, "none")             /* not computed (a figure the call did not make) */ \
    X(OPTIMAL, 1, "optimal")       /* proven optimal */                              \
    X(FEASIBLE, 2, "feasible")     /* valid, not proven optimal (see the gap) */     \
    X(INFEASIBLE, 3, "infeasible") /* no valid answer exists (limits too small) */   \
    X(NOT_FOUND, 4, "not found")   /* none found, none proven impossible */

/** What a computed answer is: see ::DLS_SOLUTION_STATUS_MAP. */
typedef enum dls_solution_status {
#define DLS_SOLUTION_STATUS_ENUM_(name, value, text) DLS_SOLUTION_##name = value,
    DLS_SOLUTION_STATUS_MAP(DLS_SOLUTION_STATUS_ENUM_)
#undef DLS_SOLUTION_STATUS_ENUM_
} dls_solution_status;
/* The values, one by one (the list above makes them). */
/** @var DLS_SOLUTION_NONE
 *  Not computed (a figure the call did not make). Value 0, named "none"
 *  (::DLS_SOLUTION_STATUS_MAP). */
/** @var DLS_SOLUTION_OPTIMAL
 *  Proven optimal. Value 1, named "optimal" (::DLS_SOLUTION_STATUS_MAP). */
/** @var DLS_SOLUTION_FEASIBLE
 *  Valid, not proven optimal (see the gap). Value 2, named "feasible"
 *  (::DLS_SOLUTION_STATUS_MAP). */
/** @var DLS_SOLUTION_INFEASIBLE
 *  No valid answer exists (limits too small). Value 3, named "infeasible"
 *  (::DLS_SOLUTION_STATUS_MAP). */
/** @var DLS_SOLUTION_NOT_FOUND
 *  None found, none proven impossible. Value 4, named "not found" (::DLS_SOLUTION_STATUS_MAP). */

/** The name of @p status: "optimal", "feasible", "infeasible", "not found" or "none"; "unknown"
 *  otherwise. A static string; never freed. */
DLS_API const char *dls_solution_status_name(dls_solution_status status);

/** The status whose dls_solution_status_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name or a NULL argument (@p out untouched). */
DLS_API dls_status dls_solution_status_from_name(const char *name, dls_solution_status *out);

/**
 * Progress of a long call, and a way to stop it.
 * @param fraction the part of the work done, from 0 to 1
 * @param data the pointer given with the callback
 * @return 0 to go on; any other value cancels the call, which then returns ::DLS_ECANCELED.
 * It is called at most a few hundred times per call, from the calling thread or from a
 * thread the call started (GLPK's), never from two threads at once.
 */
typedef int (*dls_progress_fn)(double fraction, void *data);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_COMMON_H */
