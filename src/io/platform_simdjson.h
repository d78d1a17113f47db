/* The platform reader proper (platform_simdjson.cc): the JSON contract of dlsched/platform.h
 * checked while simdjson's On-Demand API walks the text, with no tree. A C interface to one
 * C++ file; nothing thrown leaves it. */
#ifndef DLSCHED_IO_PLATFORM_SIMDJSON_H
#define DLSCHED_IO_PLATFORM_SIMDJSON_H

#include <stddef.h>

#include "platform/platform_impl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes simdjson may read past the end of a text (SIMDJSON_PADDING, checked by the reader):
 * a text with that many allocated bytes after it is read where it lies, any other is
 * copied first. */
#define DLS__JSON_PADDING 64

/* Reads the platform in text (len bytes; capacity bytes allocated at text, capacity >= len)
 * under the limits lim, naming it source in messages. On failure returns the status with err
 * filled: DLS_EDATA or DLS_ELIMIT at LINE:COLUMN for a broken contract, DLS_ESYNTAX for text
 * that simdjson refuses (the caller may replace that message: see platform_json.c),
 * DLS_ENOMEM. */
DLS__HIDDEN dls_status dls__platform_parse(const char *text, size_t len, size_t capacity,
                                          const char *source, const dls__limits *lim,
                                          dls_platform **out, dls_error *err);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_IO_PLATFORM_SIMDJSON_H */
