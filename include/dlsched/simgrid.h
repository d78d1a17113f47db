/**
 * @file dlsched/simgrid.h
 * @brief A star platform as a SimGrid platform file, for replaying schedules in the
 *        simulator that divisible-load research uses.
 *
 * The file (SimGrid's platform format, version 4.1) holds one host for the originator
 * (the master that sends the load), one host per processor, one link per processor
 * (latency = the processor's startup S, bandwidth = bytes_per_unit / C, its rate C in
 * seconds per unit) and the route from the originator to each processor through its link.
 * A processor's host speed is its speed in units per second times flops_per_unit: the
 * constant, the fastest measured point, or the inverse of the smallest slope of its time
 * lines. What a SimGrid host cannot express (time lines with intercepts, memory levels,
 * speed functions, limits) is written as XML comments beside the host, and `dlsched
 * simulate` carries it in its replay (the amount of work it asks each host to execute is
 * the processor's true time times the host's speed). A free link (C = 0) gets a bandwidth
 * of ::DLS_SIMGRID_FREE_BANDWIDTH bytes per second.
 *
 * Writing needs no SimGrid; replaying does (the optional dlsched-simgrid program).
 */
#ifndef DLSCHED_SIMGRID_H
#define DLSCHED_SIMGRID_H

#include <dlsched/common.h>
#include <dlsched/platform.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Bandwidth of a link whose rate is 0 (a free link), bytes per second. */
#define DLS_SIMGRID_FREE_BANDWIDTH 1e30

/** Parameters of dls_platform_simgrid_to_string(); fill with dls_simgrid_params_init(). */
typedef struct dls_simgrid_params {
    /** Bytes one unit of load is, finite and > 0; default 1. */
    double bytes_per_unit;
    /** Floating-point operations one unit of work is, finite and > 0; default 1. */
    double flops_per_unit;
    /** The originator's host id; NULL (default) for "originator" (or "originator-2",
     *  ... when a processor has that name). */
    const char *originator;
    /** Reserved for later parameters: zero (see ::DLS_PARAMS_RESERVED). */
    DLS_PARAMS_RESERVED(40);
} dls_simgrid_params;

/** Fills @p params with the defaults. */
DLS_API void dls_simgrid_params_init(dls_simgrid_params *params);

/**
 * The speed SimGrid's host of processor @p i runs at, in flops per second (see the file
 * comment): what a replay divides the work it asks for by.
 * @return the speed; NaN for a bad index, a NULL platform, a 2-D model or bad parameters.
 */
DLS_API double dls_simgrid_host_speed(const dls_platform *platform, size_t i,
                                      const dls_simgrid_params *params);

/**
 * The id of the originator's host in the file dls_platform_simgrid_to_string() writes with
 * @p params (see dls_simgrid_params::originator): copied into @p buf (@p size bytes).
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument or a buffer too small.
 */
DLS_API dls_status dls_simgrid_originator(const dls_platform *platform,
                                          const dls_simgrid_params *params, char *buf,
                                          size_t size, dls_error *err);

/**
 * Writes @p platform as a SimGrid platform file (XML, version 4.1) into a new string.
 * @param params NULL for the defaults
 * @param[out] out receives the text (free with dls_free()); unchanged on failure
 * @return ::DLS_OK; ::DLS_EINVAL for a NULL argument, bad parameters, an originator id that
 *         is also a processor's name, or a processor with a 2-D model (naming it: SimGrid's
 *         star has one size per host); ::DLS_ENOMEM.
 */
DLS_API dls_status dls_platform_simgrid_to_string(const dls_platform *platform,
                                                  const dls_simgrid_params *params,
                                                  char **out, dls_error *err);

/**
 * Writes @p platform as a SimGrid platform file at @p path, as dls_write_output() writes
 * (the file replaced only once the new one is complete).
 * @return as dls_platform_simgrid_to_string(), and as dls_write_output().
 */
DLS_API dls_status dls_platform_simgrid_write_file(const dls_platform *platform,
                                                   const dls_simgrid_params *params,
                                                   const char *path, dls_error *err);

/** @deprecated The old name of dls_platform_simgrid_to_string(), kept for one release. */
DLS_API dls_status dls_platform_to_simgrid(const dls_platform *platform,
                                           const dls_simgrid_params *params, char **out,
                                           dls_error *err)
    DLS_DEPRECATED("use dls_platform_simgrid_to_string");
/** @deprecated The old name of dls_platform_simgrid_write_file(), kept for one release. */
DLS_API dls_status dls_platform_write_simgrid(const dls_platform *platform,
                                              const dls_simgrid_params *params,
                                              const char *path, dls_error *err)
    DLS_DEPRECATED("use dls_platform_simgrid_write_file");

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_SIMGRID_H */
