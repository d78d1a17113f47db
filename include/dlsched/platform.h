/**
 * @file dlsched/platform.h
 * @brief A platform: the processors, each with its performance model, optional size
 *        limit and optional link, read from and written to JSON platform files.
 *
 * Platform file contract (JSON):
 * @code
 * {"processors": [
 *   {"name": "cpu0", "speed": 2.5e9},
 *   {"name": "node7", "speed": {"points": [[1e3, 2.1e9], [1e6, 1.9e9], [4e7, 2e8]]}, "limit": 5e7},
 *   {"name": "w1", "time": [[1, 1], [-9, 10]], "link": {"startup": 1, "rate": 1}},
 *   {"name": "gpu0", "speed2d": {"x": [64, 1024], "y": [64, 1024], "values": [[1e9, 2e9], [3e9, 4e9]]}}
 * ]}
 * @endcode
 * - `processors`: non-empty array; `name`: required, unique, non-empty;
 * - exactly one model: `speed` (number > 0, or `{"points": [[size, speed], ...]}` with
 *   sizes > 0 strictly increasing and speeds > 0; a point may carry its measured band as
 *   `[size, speed, low, high]` with 0 < low <= speed <= high), `time` (lines `[a, b]`,
 *   b >= 0) or `speed2d` (`x`, `y` strictly increasing and > 0, `values[i][j]` > 0);
 * - `limit` (optional, > 0): the largest size the processor can take;
 * - `link` (optional): `{"startup": S, "rate": C}`, S >= 0, C >= 0; sending x units
 *   takes S + C x seconds; absent means {0, 0}; or `{"latency": S, "bandwidth": B}` with
 *   B in bytes per second, the rate being bytes_per_unit / B (each said once);
 * - `bytes_per_unit` (optional, for the platform or a processor), `memory` (bytes) and
 *   `paging` (> 1): the memory over the bytes per unit is the limit, or with paging the
 *   size from which a second time line, paging times as steep, takes over (see
 *   dls_platform_memory());
 * - sizes, bandwidths and times may be strings with their unit ("64 GiB", "1 Gbit/s",
 *   "250 us"): dlsched-platform(5);
 * - only finite numbers; unknown keys and duplicate keys are errors.
 *
 * Limits: what one platform may cost. A platform holds at most
 * ::DLS_PLATFORM_MAX_PROCESSORS processors, a speed model at most ::DLS_PLATFORM_MAX_POINTS
 * points, a time model at most ::DLS_PLATFORM_MAX_LINES lines, a 2-D grid at most
 * ::DLS_PLATFORM_MAX_GRID_CELLS values, and a platform file at most
 * ::DLS_PLATFORM_FILE_MAX bytes. Beyond them the readers and dls_platform_add() /
 * dls_platform_set_model() fail with ::DLS_ELIMIT, naming the count and the limit (and, in a
 * file, where). Memory grows linearly with the input: reading a platform file takes about
 * 15 times its size at its peak today (1.9 kB per processor of the form written by
 * dls_platform_write_file(); most of it the JSON tree of the parser, freed when the
 * reader returns), the platform itself about 290 bytes per processor with two time lines
 * (doc/BENCHMARKS.md).
 */
#ifndef DLSCHED_PLATFORM_H
#define DLSCHED_PLATFORM_H

#include <dlsched/common.h>
#include <dlsched/model.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The largest platform file (or text) the readers accept, in bytes: 1 GiB, about eight
 *  million processors of the usual form (a million with two time lines and a link take
 *  135 MB). */
#define DLS_PLATFORM_FILE_MAX ((size_t)1 << 30)
/** The most processors a platform may hold: ten million. */
#define DLS_PLATFORM_MAX_PROCESSORS ((size_t)10000000)
/** The most measured points of one speed model (`speed.points`) in a platform. */
#define DLS_PLATFORM_MAX_POINTS ((size_t)1000000)
/** The most time lines of one processor (`time`). */
#define DLS_PLATFORM_MAX_LINES ((size_t)1000000)
/** The most values of one 2-D speed grid (`speed2d`: x values times y values). */
#define DLS_PLATFORM_MAX_GRID_CELLS ((size_t)10000000)

/** A set of processors (opaque). */
typedef struct dls_platform dls_platform;

/**
 * Creates an empty platform.
 * @param[out] out receives the platform, to release with dls_platform_free()
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL @p out; ::DLS_ENOMEM (@p out untouched).
 */
DLS_API dls_status dls_platform_create(dls_platform **out, dls_error *err);

/** Frees a platform and everything it owns; NULL is allowed. */
DLS_API void dls_platform_free(dls_platform *platform);

/** Creates an independent copy of @p platform.
 *  @return ::DLS_OK; ::DLS_EINVAL for a NULL argument; ::DLS_ENOMEM. */
DLS_API dls_status dls_platform_copy(const dls_platform *platform, dls_platform **out,
                                     dls_error *err);

/** The longest processor name, in bytes. */
#define DLS_PLATFORM_NAME_MAX 4096

/**
 * Appends a processor with no limit and no link.
 *
 * Names are free text: any printable Unicode character, spaces, quotes, backslashes and
 * markup included, since every file dlsched writes escapes them as its format requires.
 * A name must be valid UTF-8, 1 to ::DLS_PLATFORM_NAME_MAX bytes long, and hold no control
 * character (U+0000 to U+001F, U+007F to U+009F), which would break the lines of the text
 * written from it. Platform files follow the same rule.
 * @param name as above, unique within the platform; copied
 * @param model its performance model; copied (the caller keeps ownership of @p model)
 * @param[out] index receives the new processor's 0-based index; may be NULL
 * @return ::DLS_OK; ::DLS_EINVAL for a name that breaks the rule above or is already taken,
 *         or a NULL argument; ::DLS_ELIMIT when the platform already holds
 *         ::DLS_PLATFORM_MAX_PROCESSORS processors or the model exceeds its limit (points,
 *         lines or grid values, see above); ::DLS_ENOMEM. On failure the platform is
 *         unchanged.
 */
DLS_API dls_status dls_platform_add(dls_platform *platform, const char *name,
                                    const dls_model *model, size_t *index, dls_error *err);

/** Replaces the model of processor @p i with a copy of @p model. What the file said of its
 *  paging (dls_platform_paging()) goes with the old model, whose line it built.
 *  @return ::DLS_OK; ::DLS_EINVAL for a bad index or NULL; ::DLS_ELIMIT when the model
 *          exceeds its limit (points, lines or grid values); ::DLS_ENOMEM (platform
 *          unchanged). */
DLS_API dls_status dls_platform_set_model(dls_platform *platform, size_t i,
                                          const dls_model *model, dls_error *err);

/** Removes processor @p i; later processors move down by one.
 *  @return ::DLS_OK; ::DLS_EINVAL for a bad index. */
DLS_API dls_status dls_platform_remove(dls_platform *platform, size_t i, dls_error *err);

/**
 * Sets the largest size processor @p i may take.
 * @param limit finite and > 0 within the input domain (::DLS_DOMAIN_MIN to
 *        ::DLS_DOMAIN_MAX), or INFINITY to remove the limit
 * @return ::DLS_OK; ::DLS_EINVAL for a bad index or value (platform unchanged).
 */
DLS_API dls_status dls_platform_set_limit(dls_platform *platform, size_t i, double limit,
                                          dls_error *err);

/**
 * Sets the link of processor @p i: sending x units to it takes startup + rate * x seconds.
 * @param startup seconds, 0 or in the input domain (::DLS_DOMAIN_MIN to ::DLS_DOMAIN_MAX)
 * @param rate seconds per unit, 0 or in the input domain
 * @return ::DLS_OK; ::DLS_EINVAL for a bad index or value (platform unchanged).
 */
DLS_API dls_status dls_platform_set_link(dls_platform *platform, size_t i, double startup,
                                         double rate, dls_error *err);

/**
 * The unusual numbers of processor @p i: inside the input domain but far from what machines
 * do (times above ::DLS_UNUSUAL_TIME, slopes and rates above ::DLS_UNUSUAL_SLOPE_MAX or
 * nonzero below ::DLS_UNUSUAL_SLOPE_MIN, speeds outside [::DLS_UNUSUAL_SPEED_MIN,
 * ::DLS_UNUSUAL_SPEED_MAX]): often a unit mixed up, a counter overflowed or a failed run
 * recorded as a time. dlsched computes with them (a processor too slow to matter gets no
 * load); the program prints a warning for each processor that has some.
 * @param text receives a sentence naming the first one and how many there are (at most
 *        @p size bytes with the NUL; may be NULL when @p size is 0)
 * @return the number of unusual values (0 for a bad index or a NULL platform)
 */
DLS_API size_t dls_platform_unusual(const dls_platform *platform, size_t i, char *text,
                                    size_t size);

/** The version of the platform format this library writes (the file's "version"): 2
 *  since `dlsched bench` writes 1-D speeds of its built-in kernels in the size's unit
 *  (rows, block columns) per second; files of version 1 (no "version" key) mean the same
 *  numbers, but those measured by an older `dlsched bench` counted operations
 *  (dlsched-platform(5)). */
#define DLS_PLATFORM_FORMAT 2

/** The version of the platform format @p platform was read in: 1 for a file without
 *  "version", ::DLS_PLATFORM_FORMAT for one built with dls_platform_create() (a copy keeps
 *  its original's); 0 for NULL. Writers write it. */
DLS_API int dls_platform_format(const dls_platform *platform);

/** Number of processors. */
DLS_API size_t dls_platform_count(const dls_platform *platform);

/** Name of processor @p i, or NULL for a bad index. Owned by the platform. Valid until @p platform
 *  is freed, this processor removed, or an import into @p platform succeeds (dls_import_csv_file()
 *  and the like). */
DLS_API const char *dls_platform_name(const dls_platform *platform, size_t i);

/** Model of processor @p i, or NULL for a bad index. Owned by the platform. Valid until @p platform
 *  is freed, this processor removed or its model replaced (dls_platform_set_model()), or an import
 *  into @p platform succeeds. */
DLS_API const dls_model *dls_platform_model(const dls_platform *platform, size_t i);

/** Limit of processor @p i; INFINITY when it has none; NaN for a bad index. */
DLS_API double dls_platform_limit(const dls_platform *platform, size_t i);

/**
 * Sets when processor @p i is free to compute (its "release" in the platform file): busy
 * with earlier work until then. Used by dls_installment_solve_lp().
 * @param release seconds, finite, >= 0 and 0 or within [::DLS_DOMAIN_MIN, ::DLS_DOMAIN_MAX]
 * @return ::DLS_OK; ::DLS_EINVAL for a bad index or value (platform unchanged).
 */
DLS_API dls_status dls_platform_set_release(dls_platform *platform, size_t i, double release,
                                            dls_error *err);

/** Release time of processor @p i (s; 0 unless set); NaN for a bad index. */
DLS_API double dls_platform_release(const dls_platform *platform, size_t i);

/**
 * Sets the results processor @p i returns (its "return" in the platform file): the
 * results of a chunk of x units are fraction x result units, which take startup +
 * rate fraction x seconds to come back to the originator. A fraction of 0: nothing
 * returns. Used by dls_installment_solve_lp().
 * @param fraction result units per unit of load, >= 0
 * @param startup seconds, >= 0
 * @param rate seconds per result unit, >= 0 (each finite and 0 or within the domain)
 * @return ::DLS_OK; ::DLS_EINVAL for a bad index or value (platform unchanged).
 */
DLS_API dls_status dls_platform_set_return(dls_platform *platform, size_t i, double fraction,
                                           double startup, double rate, dls_error *err);

/** The results processor @p i returns (outputs may be NULL; all 0 unless set).
 *  @return ::DLS_OK; ::DLS_EINVAL for a bad index. */
DLS_API dls_status dls_platform_get_return(const dls_platform *platform, size_t i,
                                           double *fraction, double *startup, double *rate);

/** Whether processor @p i has a link set explicitly (1) or the default {0, 0} (0). */
DLS_API int dls_platform_has_link(const dls_platform *platform, size_t i);

/** Link of processor @p i (outputs may be NULL).
 *  @return ::DLS_OK; ::DLS_EINVAL for a bad index. */
DLS_API dls_status dls_platform_link(const dls_platform *platform, size_t i, double *startup,
                                     double *rate);

/**
 * @name What a platform file said in a person's units
 * A platform file may describe a processor in bytes instead of units (dlsched-platform(5)):
 * `"bytes_per_unit"` (for the platform or one processor), a link's `"latency"` and
 * `"bandwidth"`, a processor's `"memory"` and `"paging"`. The reader turns them into what
 * the computations use (the link's startup and rate, the limit, a second time line); these
 * getters give back what was said, for reports. A platform built with the API, or read
 * from a file that does not say it, has none of them: each getter then gives NaN, as it
 * does for a bad index or a NULL platform. dls_platform_copy() keeps them;
 * dls_platform_to_string() writes the bytes per unit, and the model, limit and link the
 * other keys built (not "memory" and "paging", which would build the second line twice);
 * dls_platform_equal() does not compare them.
 * @{
 */

/** Bytes of one unit of processor @p i's work (its own `"bytes_per_unit"`, else the
 *  platform's), > 0; NaN when the file gave none. */
DLS_API double dls_platform_bytes_per_unit(const dls_platform *platform, size_t i);

/** Memory of processor @p i in bytes (`"memory"`), > 0; NaN when the file gave none. */
DLS_API double dls_platform_memory(const dls_platform *platform, size_t i);

/** How many times slower a unit computes on processor @p i beyond its memory
 *  (`"paging"`), > 1; NaN when the file gave none (its memory, if any, is then its
 *  limit). */
DLS_API double dls_platform_paging(const dls_platform *platform, size_t i);

/** The size, in units, from which processor @p i pages: its memory divided by its bytes
 *  per unit, where its model's second time line starts; NaN when it has no
 *  `"paging"`. */
DLS_API double dls_platform_paging_point(const dls_platform *platform, size_t i);

/** @} */

/**
 * Looks a processor up by name.
 * @param[out] index receives its 0-based index when there is one (may be NULL)
 * @return 1 when @p platform has a processor called @p name, 0 otherwise (or for a NULL
 *         platform or name; @p index untouched).
 */
DLS_API int dls_platform_find(const dls_platform *platform, const char *name, size_t *index);

/** Whether two platforms are identical: same processors in the same order, with equal
 *  names, models (dls_model_equal()), limits and links. @return 1 or 0. */
DLS_API int dls_platform_equal(const dls_platform *a, const dls_platform *b);

/**
 * Reads a platform file.
 * @param path file to read
 * @param[out] out receives the platform; unchanged on failure
 * @param err on failure, a message of the form
 *        `PATH:LINE:COLUMN: processor "NAME": what is wrong`, with ::dls_error::line,
 *        ::dls_error::column and ::dls_error::processor set
 * @return ::DLS_OK; ::DLS_EIO if the file cannot be read; ::DLS_ESYNTAX for malformed
 *         JSON; ::DLS_EDATA when the JSON breaks the contract; ::DLS_ELIMIT when the file is
 *         larger than ::DLS_PLATFORM_FILE_MAX bytes (checked before reading it; a stream is
 *         read up to that size) or holds more than a limit allows (see above);
 *         ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_read_file(const char *path, dls_platform **out,
                                          dls_error *err);

/**
 * Reads a platform from @p len bytes of JSON text.
 * @param len at most ::DLS_PLATFORM_FILE_MAX
 * @param source name used in error messages (e.g. a file name), or NULL for "<string>"
 * @return as dls_platform_read_file(), without ::DLS_EIO.
 */
DLS_API dls_status dls_platform_read_string(const char *text, size_t len, const char *source,
                                            dls_platform **out, dls_error *err);

/**
 * Writes @p platform as JSON text following the contract; reading it back gives an equal
 * platform (each number in the shortest form that reads back as the same double: 5e-5 as
 * typed, not 5.0000000000000002e-5; whole numbers below 10^6 in all their digits).
 * @param[out] out receives a NUL-terminated string to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL for NULL arguments or an empty platform; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_to_string(const dls_platform *platform, char **out,
                                          dls_error *err);

/**
 * Writes @p platform to the file @p path. A regular file (or a new path) is replaced atomically: a temporary file
 * in the same directory, synced and renamed, so that @p path is either its old self or the
 * whole new file; the mode of the file replaced is kept, a new file gets 0666 less the
 * umask. A symbolic link is followed and its target replaced. A character device, FIFO or
 * socket is written to as a stream. A directory or block device is refused.
 * @return ::DLS_OK; ::DLS_EIO when the destination cannot be written; ::DLS_EWRITE when
 *         the data could not be written to it (a full device), both naming the path and
 *         the reason; ::DLS_EINVAL; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_write_file(const dls_platform *platform, const char *path,
                                           dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_PLATFORM_H */
