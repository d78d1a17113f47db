/* Mapping the pages of large blocks in bulk (see pages.h). */
#include <config.h>

#include <stdint.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "core/pages.h"

void dls__prefault(void *p, size_t bytes, int huge)
{
#if defined(__linux__) && (defined(MADV_HUGEPAGE) || defined(MADV_POPULATE_WRITE))
    if (p == NULL || bytes < DLS__PREFAULT_MIN)
        return;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        return;
    /* madvise takes whole pages: the pages that lie entirely inside the block (a page it
     * shares with another block is left to be faulted in) */
    uintptr_t mask = (uintptr_t)page - 1, from = ((uintptr_t)p + mask) & ~mask;
    uintptr_t to = ((uintptr_t)p + bytes) & ~mask;
    if (to <= from)
        return;
    void *start = (void *)from;
    size_t len = (size_t)(to - from);
    /* failures are harmless (the pages are then faulted in as they are written): ignored */
#ifdef MADV_HUGEPAGE
    if (huge)
        (void)madvise(start, len, MADV_HUGEPAGE);
#endif
#ifdef MADV_POPULATE_WRITE
    (void)madvise(start, len, MADV_POPULATE_WRITE);
#endif
#else
    (void)p;
    (void)bytes;
    (void)huge;
#endif
}
