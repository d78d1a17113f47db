/* Quantities written with their unit in platform files ("64 GiB", "1 Gbit/s", "250 us"):
 * read once into the base unit (bytes, bytes per second, seconds), so that nobody turns
 * 6.25 MB/s into seconds per unit by hand (issue 36). */
#ifndef DLSCHED_IO_PLATFORM_UNITS_H
#define DLSCHED_IO_PLATFORM_UNITS_H

#include <stddef.h>

#include "core/internal.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a quantity measures, and so which units it takes. */
typedef enum dls__quantity {
    DLS__Q_BYTES,     /* B, kB, MB, GB, TB, KiB, MiB, GiB, TiB */
    DLS__Q_BANDWIDTH, /* the sizes per second (MB/s, GiB/s) and bit/s, kbit/s .. Tbit/s */
    DLS__Q_SECONDS    /* s, ms, us (or µs), ns */
} dls__quantity;

/* Reads text (len bytes, not NUL-terminated): a number as JSON writes one, optional spaces,
 * then one of the units of q. Decimal prefixes shift the number's decimal exponent before
 * it is rounded (so "0.1 ms" is the double nearest 1e-4, not 0.1 * 1e-3), binary prefixes
 * and bits are exact powers of two. Returns 0 with *out in the base unit, or 1 with why
 * (size bytes) saying what is wrong and listing the units accepted. Only the syntax is
 * checked here: signs and ranges are the callers' domain checks. Call it under the C
 * numeric locale (dls__c_numeric_enter). */
DLS__HIDDEN int dls__parse_quantity(const char *text, size_t len, dls__quantity q, double *out,
                                   char *why, size_t size);

/* The units of q as a message lists them: "B, kB, MB, ...". */
DLS__HIDDEN const char *dls__quantity_units(dls__quantity q);

#ifdef __cplusplus
}
#endif

#endif /* DLSCHED_IO_PLATFORM_UNITS_H */
