/* The platform readers under given limits (platform_json.c): dls_platform_read_string and
 * dls_platform_read_file take dls__platform_limits; the tests pass small limits to reach
 * each error without inputs of gigabytes. */
#ifndef DLSCHED_IO_PLATFORM_JSON_H
#define DLSCHED_IO_PLATFORM_JSON_H

#include "platform/platform_impl.h"

DLS__HIDDEN dls_status dls__platform_read_string_within(const char *text, size_t len,
                                                       const char *source,
                                                       const dls__limits *lim,
                                                       dls_platform **out, dls_error *err);
DLS__HIDDEN dls_status dls__platform_read_file_within(const char *path, const dls__limits *lim,
                                                     dls_platform **out, dls_error *err);

#endif /* DLSCHED_IO_PLATFORM_JSON_H */
