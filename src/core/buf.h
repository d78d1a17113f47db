/* One growing text buffer for every writer that builds a document in memory (SVG
 * pictures, LP and MPS exports, notes). An allocation failure is remembered, not reported
 * at each append: writers append freely and check `failed` once at the end. */
#ifndef DLSCHED_CORE_BUF_H
#define DLSCHED_CORE_BUF_H

#include <stdarg.h>
#include <stddef.h>

#include "core/internal.h"

typedef struct dls__buf {
    char *s;       /* the text so far, NUL-terminated once something was written */
    size_t len;    /* bytes in s, without the NUL */
    size_t cap;    /* bytes allocated */
    int failed;    /* an allocation failed: everything after it was dropped */
} dls__buf;

#define DLS__BUF_INIT {NULL, 0, 0, 0}

/* Appends printf-formatted text, written as the thread's locale says (see core/locale.h). */
DLS__HIDDEN void dls__buf_put(dls__buf *b, const char *fmt, ...) DLS__PRINTF(2, 3);
DLS__HIDDEN void dls__buf_vput(dls__buf *b, const char *fmt, va_list ap) DLS__PRINTF(2, 0);

/* Appends n bytes of s as they are. */
DLS__HIDDEN void dls__buf_add(dls__buf *b, const char *s, size_t n);

/* Hands the text over to the caller (to free), or NULL when an allocation failed (then
 * everything is freed); the buffer is empty afterwards. An empty text is "". */
DLS__HIDDEN char *dls__buf_take(dls__buf *b);

/* Frees the text; the buffer is empty afterwards. */
DLS__HIDDEN void dls__buf_free(dls__buf *b);

#endif /* DLSCHED_CORE_BUF_H */
