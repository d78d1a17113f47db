/* Shared between the 1-D build (bench.c) and the 2-D surface (surface.c) (not installed). */
#ifndef DLSCHED_MEASURE_MEASURE_H
#define DLSCHED_MEASURE_MEASURE_H

#include "core/internal.h"

/* Checks every field of p; the message of a rejected field starts with fn (the public
 * function called) and names the field and its value. The kernel is not looked at. */
DLS__HIDDEN dls_status dls__bench_check_params(const char *fn, const dls_bench_params *p,
                                              dls_error *err);

/* The largest size of kernel k whose memory fits p->memory_fraction of the memory available
 * (whole when k->integer_sizes); k->memory must not be NULL. ::DLS_EIO when /proc/meminfo
 * cannot be read, ::DLS_EINVAL when even p->min_size does not fit. */
DLS__HIDDEN dls_status dls__bench_largest_size(const dls_kernel *k, const dls_bench_params *p,
                                              double *out, dls_error *err);

#endif /* DLSCHED_MEASURE_MEASURE_H */
