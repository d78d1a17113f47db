/**
 * @file dlsched/import.h
 * @brief Models from where users already have them: StarPU performance model files and CSV
 *        timings, read into platforms and written back.
 *
 * StarPU keeps one text file per codelet (performance model format version 45, written by
 * StarPU 1.3 and 1.4 alike) under `$STARPU_HOME/.starpu/sampling/codelets/45/SYMBOL.HOST`.
 * The file holds combinations of devices (a CPU core, a CUDA device, ...), each with its
 * implementations, each with a regression model and a history: per data size (in bytes,
 * unless the codelet says otherwise), the mean time in microseconds, its deviation (the
 * population standard deviation of the samples) and the number of samples.
 *
 * An imported processor gets a speed point per history entry: speed = size / mean time, in
 * size units per second, with the band of dls_bench_build() (the prediction interval of one
 * more run at the confidence level, Student-t with the entry's sample count). Entries with
 * fewer samples than dls_starpu_params::min_samples are dropped (or kept, flagged, when asked),
 * and the report says how many; entries of no sample (StarPU keeps the first run of a size
 * out of its history, and writes the size with a mean of 0) are always dropped. A section with no usable history but a valid non-linear
 * regression (time = a size^b + c microseconds over its measured range [minx, maxx]) gets
 * points sampled from it, without a band, and the report says so.
 *
 * CSV files give sizes with times (seconds; optionally a standard deviation and a sample
 * count, or one row per run) or with speeds (optionally a band); a `name` column splits the
 * rows into processors. They are read with libcsv (quoted fields, any line ending), with
 * errors located as FILE:LINE:COLUMN.
 *
 * Importing adds processors to a platform the caller owns; when the call fails, the platform
 * is as it was. Exporting writes one processor's points as a StarPU history file (which
 * `starpu_perfmodel_display` shows with the same means and deviations) or as CSV.
 */
#ifndef DLSCHED_IMPORT_H
#define DLSCHED_IMPORT_H

#include <dlsched/bench.h>
#include <dlsched/common.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/** What the sizes of a StarPU model count: the X-macro list of (enumerator, value, name). */
#define DLS_SIZE_UNIT_MAP(X) \
    X(BYTES, 0, "bytes")       /* as StarPU counts them: the bytes of the task's data */ \
    X(ELEMENTS, 1, "elements") /* bytes / element size */

/** The unit of sizes: see ::DLS_SIZE_UNIT_MAP. */
typedef enum dls_size_unit {
#define DLS_SIZE_UNIT_ENUM_(name, value, text) DLS_SIZE_UNIT_##name = value,
    DLS_SIZE_UNIT_MAP(DLS_SIZE_UNIT_ENUM_)
#undef DLS_SIZE_UNIT_ENUM_
} dls_size_unit;
/* The values, one by one (the list above makes them). */
/** @var DLS_SIZE_UNIT_BYTES
 *  As StarPU counts them: the bytes of the task's data. Value 0, named "bytes"
 *  (::DLS_SIZE_UNIT_MAP). */
/** @var DLS_SIZE_UNIT_ELEMENTS
 *  Bytes / element size. Value 1, named "elements" (::DLS_SIZE_UNIT_MAP). */

/** The name of @p unit ("bytes"), or "unknown" for a value outside the enumeration. A static
 *  string; never freed. */
DLS_API const char *dls_size_unit_name(dls_size_unit unit);
/** The unit whose dls_size_unit_name() is @p name.
 *  @return ::DLS_OK; ::DLS_EINVAL for an unknown name (*out unchanged). */
DLS_API dls_status dls_size_unit_from_name(const char *name, dls_size_unit *out);

/** Samples an entry needs by default to be kept: its deviation means something from two. */
#define DLS_IMPORT_DEFAULT_MIN_SAMPLES 2u
/** Points sampled by default from a regression-only section. */
#define DLS_IMPORT_DEFAULT_REGRESSION_POINTS 16u
/** The most points sampled from a regression-only section: the regression is one smooth
 *  power law over the measured sizes, which a few dozen points sampled geometrically already
 *  follow to a fraction of a percent; 10^4 bounds the import's time (tens of milliseconds;
 *  it grows linearly with the count, 40 s for 10^6 under sanitizers). */
#define DLS_IMPORT_MAX_REGRESSION_POINTS 10000u
/** The sample count claimed by default for exported entries: StarPU's calibration minimum
 *  (STARPU_CALIBRATE_MINIMUM), below which its schedulers ignore an entry. */
#define DLS_EXPORT_DEFAULT_COUNT 10u
/** Bytes of an element by default (a double), for sizes in elements and for footprints. */
#define DLS_DEFAULT_ELEMENT_SIZE 8.0

/** Parameters of dls_import_starpu_file(); fill with dls_starpu_params_init(). */
typedef struct dls_starpu_params {
    /** The sections to import: NULL (default) for every combination with usable data, or
     *  one as StarPU names its devices ("cpu0", "cuda0", "opencl1", "cpu0_cuda0" for a
     *  combination of several), or "combK" for the K-th combination of the file (0-based). */
    const char *arch;
    /** The implementation to import in each section, 0-based; default 0. */
    unsigned impl;
    /** The unit of the platform's sizes; default ::DLS_SIZE_UNIT_BYTES. */
    dls_size_unit size_unit;
    /** Bytes per element, finite and > 0, with ::DLS_SIZE_UNIT_ELEMENTS; default
     *  ::DLS_DEFAULT_ELEMENT_SIZE. */
    double element_size;
    /** The processor's name; NULL (default) for "SYMBOL.ARCH" (ARCH as in @ref arch, with
     *  "_implK" when K > 0, and "_combK" when two sections would share a name). With
     *  several sections, NAME.ARCH. */
    const char *name;
    /** Confidence level of the band, in (0, 1); default ::DLS_BENCH_DEFAULT_CONFIDENCE. */
    double confidence;
    /** Entries with fewer samples are dropped; >= 1; default ::DLS_IMPORT_DEFAULT_MIN_SAMPLES. */
    unsigned min_samples;
    /** Nonzero: keep the entries with too few samples (with a band only where they have two
     *  samples or more), flagged in the report, instead of dropping them. Default 0. */
    int keep_few;
    /** Points sampled from a regression-only section, in [2,
     *  ::DLS_IMPORT_MAX_REGRESSION_POINTS]; default ::DLS_IMPORT_DEFAULT_REGRESSION_POINTS. */
    unsigned regression_points;
    /** Nonzero: a processor of the same name already in the platform gets the new model
     *  (and keeps its limit and link); zero (default): that is an error. */
    int replace;
    /** Zero (set by the init function): room for later parameters. */
    DLS_PARAMS_RESERVED(64);
} dls_starpu_params;

/** Fills @p params with the defaults. */
DLS_API void dls_starpu_params_init(dls_starpu_params *params);

/** One processor an import added or replaced. */
typedef struct dls_import_item {
    const char *name;      /**< its name in the platform */
    size_t index;          /**< its index in the platform */
    const char *source;    /**< where it came from ("cpu0_impl0, combination 0";
                                "data.csv, 12 rows") */
    size_t entries;        /**< entries (or rows) read for it */
    size_t points;         /**< points of its model */
    size_t few;            /**< entries with fewer than min_samples samples (dropped or kept);
                                for CSV, sizes of a single run (without a band) */
    int from_regression;   /**< 1 when its points were sampled from a regression */
    double min_size;       /**< smallest size of its points, in the platform's unit */
    double max_size;       /**< largest size */
} dls_import_item;

/** What an import did. Opaque; release with dls_import_report_free(). */
typedef struct dls_import_report dls_import_report;

/** Processors added or replaced. */
DLS_API size_t dls_import_report_count(const dls_import_report *report);
/** The @p k-th of them (0-based), or NULL when @p k is out of range. Valid until the report
 *  is freed. */
DLS_API const dls_import_item *dls_import_report_item(const dls_import_report *report,
                                                      size_t k);
/** Warnings and notes, one per line ("" when there are none): entries dropped, points
 *  sampled from a regression, sections skipped. Valid until the report is freed. */
DLS_API const char *dls_import_report_notes(const dls_import_report *report);
/** Frees @p report and everything it returned (names, notes); NULL is allowed. */
DLS_API void dls_import_report_free(dls_import_report *report);

/**
 * Imports a StarPU performance model file into @p platform.
 * @param path the model file
 * @param params NULL for the defaults
 * @param platform receives the processors (unchanged on failure)
 * @param[out] report receives what was done (release with dls_import_report_free()), or
 *        NULL when not wanted; set to NULL on failure
 * @return ::DLS_OK; ::DLS_EIO when the file cannot be read; ::DLS_ESYNTAX naming FILE:LINE
 *         and what was expected when the text is not a StarPU model file (truncated, a
 *         count that does not match what follows, a field that is not a number);
 *         ::DLS_EDATA naming FILE:LINE when it is one with values dlsched cannot take (a
 *         format version other than 45, NaN, zero or negative times of entries with
 *         samples, negative deviations, a device type StarPU does not define); ::DLS_EINVAL for invalid parameters, a section @p params selects that
 *         the file lacks, no usable section, or a name already in the platform (without
 *         replace); ::DLS_ELIMIT beyond the platform's limits; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_import_starpu_file(const char *path, const dls_starpu_params *params,
                                          dls_platform *platform, dls_import_report **report,
                                          dls_error *err);

/** As dls_import_starpu_file(), from @p len bytes of @p text; @p source names it in
 *  messages and gives the default symbol (its base name up to the first '.').
 *  @return as dls_import_starpu_file(), without ::DLS_EIO. */
DLS_API dls_status dls_import_starpu_string(const char *text, size_t len, const char *source,
                                            const dls_starpu_params *params,
                                            dls_platform *platform, dls_import_report **report,
                                            dls_error *err);

/**
 * Finds the model file of a codelet symbol the way StarPU does: in
 * `$STARPU_PERF_MODEL_DIR/codelets/45/`, then under the StarPU home
 * (`$XDG_CACHE_HOME`, `$STARPU_HOME`, then `$HOME`, each followed by
 * `/.starpu/sampling/codelets/45/`), then the directories of `$STARPU_PERF_MODEL_PATH`
 * (separated by ':'). A symbol with a '.' names the file; otherwise the files SYMBOL.HOST
 * are candidates, and the one of this host (`$STARPU_HOSTNAME`, else the host name) wins.
 * @param symbol the codelet's symbol (a file name, without '/')
 * @param[out] path receives the file's path, to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL for an invalid symbol, when nothing is found (naming the
 *         directories searched), or when several files match and none is this host's
 *         (naming them); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_starpu_find(const char *symbol, char **path, dls_error *err);

/** Parameters of dls_import_csv_file(); fill with dls_csv_params_init(). */
typedef struct dls_csv_params {
    /** The columns, separated by commas: "size,time", "size,time,stddev,count",
     *  "size,speed", "size,speed,low,high", with an optional "name" anywhere; a column
     *  named "-" is ignored. "name" may be written "node", "host", "processor" or "worker",
     *  "time" "seconds", "sec" or "s". NULL (default): the first line is a header naming
     *  them (names as these, in any case; any other name is refused with the list of
     *  these, never ignored: it could have told the rows apart). With explicit columns, a
     *  first line whose size field is not a number is taken for a header and skipped. */
    const char *columns;
    /** The processor's name when there is no name column; NULL (default) for the file's
     *  base name without its extension. */
    const char *name;
    /** The field separator: ',' (default), ';' or '\\t'. */
    char delimiter;
    /** Confidence level of the band from stddev and count, in (0, 1); default
     *  ::DLS_BENCH_DEFAULT_CONFIDENCE. */
    double confidence;
    /** As in dls_starpu_params: a processor of the same name gets the new model. */
    int replace;
    /** Zero (set by the init function): room for later parameters. */
    DLS_PARAMS_RESERVED(64);
} dls_csv_params;

/** Fills @p params with the defaults. */
DLS_API void dls_csv_params_init(dls_csv_params *params);

/**
 * Imports timings or speeds from a CSV file into @p platform. Lines starting with '#' are
 * comments; empty lines are skipped. Times are in seconds, sizes in the platform's units,
 * speeds in units per second. Rows of the same processor and size are samples of one point
 * (their mean and spread make its band when the file gives no stddev), so a file of one row
 * per run imports as it is; without a name column, rows of one size whose times differ by
 * more than a factor of 2 are named in the report's notes (several processors averaged?).
 * @param path the CSV file
 * @param params NULL for the defaults
 * @param platform receives the processors (unchanged on failure)
 * @param[out] report as in dls_import_starpu_file()
 * @return ::DLS_OK; ::DLS_EIO when the file cannot be read; ::DLS_ESYNTAX naming
 *         FILE:LINE:COLUMN and what was expected (a malformed quote, a field that is not a
 *         number, a missing column); ::DLS_EDATA naming FILE:LINE:COLUMN for a value that
 *         is (a time or speed not finite and > 0, a negative deviation, a count below 1, a
 *         band that does not hold its speed); ::DLS_EINVAL for invalid
 *         parameters or a name already in the platform; ::DLS_ELIMIT; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_import_csv_file(const char *path, const dls_csv_params *params,
                                       dls_platform *platform, dls_import_report **report,
                                       dls_error *err);

/** As dls_import_csv_file(), from @p len bytes of @p text named @p source in messages.
 *  @return as dls_import_csv_file(), without ::DLS_EIO. */
DLS_API dls_status dls_import_csv_string(const char *text, size_t len, const char *source,
                                         const dls_csv_params *params, dls_platform *platform,
                                         dls_import_report **report, dls_error *err);

/** Parameters of dls_platform_starpu_to_string(); fill with dls_starpu_export_params_init(). */
typedef struct dls_starpu_export_params {
    /** The device the section is for: "cpu0" (default), "cuda0", "opencl0", ... as StarPU
     *  names them (one device). */
    const char *arch;
    /** Cores of the device (a parallel CPU worker has several); default 1. */
    unsigned ncores;
    /** The unit of the platform's sizes; StarPU's are bytes. Default ::DLS_SIZE_UNIT_BYTES. */
    dls_size_unit size_unit;
    /** Bytes per element, finite and > 0: converts sizes in elements to bytes, and gives the
     *  element count of the footprint. Default ::DLS_DEFAULT_ELEMENT_SIZE. */
    double element_size;
    /** The sample count written for each entry, >= 2; default ::DLS_EXPORT_DEFAULT_COUNT. */
    unsigned count;
    /** Confidence level the band is read with (the inverse of the import's rule), in (0, 1);
     *  default ::DLS_BENCH_DEFAULT_CONFIDENCE. */
    double confidence;
    /** Zero (set by the init function): room for later parameters. */
    DLS_PARAMS_RESERVED(64);
} dls_starpu_export_params;

/** Fills @p params with the defaults. */
DLS_API void dls_starpu_export_params_init(dls_starpu_export_params *params);

/**
 * Writes processor @p i of @p platform as a StarPU performance model file (version 45, one
 * combination of one device, one implementation): one history entry per point of its model,
 * size in bytes (a whole number), mean time = size / speed in microseconds, deviation from the
 * point's band by the inverse of the import's rule (0 without a band), and the footprint
 * StarPU computes for a task of one vector of size / element_size elements, so that its
 * history-based schedulers find the entries. The regressions are left empty (zero sums, NaN
 * parameters), as StarPU writes them for a history-based model. Importing the file gives the
 * same speeds back, and the same lower band edges (the upper edges follow from them).
 * @param platform the platform
 * @param i the processor, < dls_platform_count()
 * @param params NULL for the defaults
 * @param[out] out receives the text, to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL for invalid parameters, a processor whose model is not
 *         made of points, or a point whose size in bytes is not a whole number (naming it:
 *         give the element size); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_starpu_to_string(const dls_platform *platform, size_t i,
                                                 const dls_starpu_export_params *params,
                                                 char **out, dls_error *err);

/**
 * Writes processor @p i of @p platform as a StarPU performance model file at @p path (the
 * text of dls_platform_starpu_to_string()), as dls_write_output() writes.
 * @return as dls_platform_starpu_to_string(), and as dls_write_output().
 */
DLS_API dls_status dls_platform_starpu_write_file(const dls_platform *platform, size_t i,
                                                  const dls_starpu_export_params *params,
                                                  const char *path, dls_error *err);

/**
 * Writes processors of @p platform as CSV with the header `name,size,speed,low,high`
 * (low and high empty without a band), numbers with 17 significant digits, names quoted
 * when they need it: what dls_import_csv_file() reads back as the same models.
 * @param platform the platform
 * @param i the processor, or (size_t)-1 for every one
 * @param[out] out receives the text, to release with dls_free()
 * @return ::DLS_OK; ::DLS_EINVAL for @p i out of range or a processor whose model is not
 *         made of points; ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_csv_to_string(const dls_platform *platform, size_t i,
                                              char **out, dls_error *err);

/**
 * Writes processors of @p platform as CSV at @p path (the text of
 * dls_platform_csv_to_string()), as dls_write_output() writes.
 * @return as dls_platform_csv_to_string(), and as dls_write_output().
 */
DLS_API dls_status dls_platform_csv_write_file(const dls_platform *platform, size_t i,
                                               const char *path, dls_error *err);

/** @deprecated The old name of dls_platform_csv_to_string(), kept for one release. */
DLS_API dls_status dls_export_csv(const dls_platform *platform, size_t i, char **out,
                                  dls_error *err) DLS_DEPRECATED("use dls_platform_csv_to_string");

/** @deprecated The old name of dls_platform_starpu_to_string(), kept for one release. */
DLS_API dls_status dls_export_starpu(const dls_platform *platform, size_t i,
                                     const dls_starpu_export_params *params, char **out,
                                     dls_error *err)
    DLS_DEPRECATED("use dls_platform_starpu_to_string");

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_IMPORT_H */
