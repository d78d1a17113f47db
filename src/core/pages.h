/* Large blocks about to be written whole: their pages mapped in bulk rather than one page
 * fault at a time. */
#ifndef DLSCHED_CORE_PAGES_H
#define DLSCHED_CORE_PAGES_H

#include <stddef.h>

#include "core/internal.h"

/* A transparent huge page on x86-64: a block of this size aligned to it is one the kernel
 * can back with a single page. */
#define DLS__HUGE_PAGE ((size_t)2 << 20)

/* Blocks smaller than this are left alone: the pages of small blocks are mostly mapped
 * already (the allocator's heap), and a system call would cost more than their faults. */
#define DLS__PREFAULT_MIN DLS__HUGE_PAGE

/* Asks the kernel to map now every page of the `bytes` bytes at p, which the caller is about
 * to write whole, and with `huge` to back them with transparent huge pages where the system
 * grants them on request. The first write to a fresh 4 KiB page costs a page fault, and a
 * fault can cost 15 microseconds on a virtual machine: a 135 MB platform file read into
 * fresh memory spent half a second in them (doc/BENCHMARKS.md). Only a hint, and it
 * changes no byte: where the advice is unknown (not Linux, Linux before 5.14) or refused,
 * the pages are mapped as they are touched, as without it. Blocks under
 * DLS__PREFAULT_MIN bytes are left alone.
 *
 * No `huge` for a block that realloc is to grow: the advice splits the block's mapping,
 * which glibc's realloc then copies instead of remapping it (still correct, but slow). */
DLS__HIDDEN void dls__prefault(void *p, size_t bytes, int huge);

#endif /* DLSCHED_CORE_PAGES_H */
