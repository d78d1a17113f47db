/* The growing text buffer shared by every in-memory writer. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/grow.h"

/* Makes room for `more` bytes and the NUL after them. */
static int reserve(dls__buf *b, size_t more)
{
    if (b->failed)
        return -1;
    if (more > SIZE_MAX - b->len - 1) {
        b->failed = 1;
        return -1;
    }
    char *g = dls__grow(b->s, &b->cap, b->len + more + 1, 1);
    if (g == NULL) {
        b->failed = 1;
        return -1;
    }
    b->s = g;
    return 0;
}

void dls__buf_vput(dls__buf *b, const char *fmt, va_list ap)
{
    if (b->failed)
        return;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
    if (n < 0) {
        b->failed = 1;
    } else if (b->s == NULL || b->len + (size_t)n >= b->cap) {
        if (reserve(b, (size_t)n) == 0)
            vsnprintf(b->s + b->len, b->cap - b->len, fmt, again);
    }
    if (!b->failed && n >= 0)
        b->len += (size_t)n;
    va_end(again);
}

void dls__buf_put(dls__buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dls__buf_vput(b, fmt, ap);
    va_end(ap);
}

void dls__buf_add(dls__buf *b, const char *s, size_t n)
{
    if (reserve(b, n) != 0)
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

char *dls__buf_take(dls__buf *b)
{
    if (!b->failed && b->s == NULL)
        reserve(b, 0);
    if (b->failed) {
        dls__buf_free(b);
        return NULL;
    }
    char *s = b->s;
    s[b->len] = '\0';
    *b = (dls__buf)DLS__BUF_INIT;
    return s;
}

void dls__buf_free(dls__buf *b)
{
    free(b->s);
    *b = (dls__buf)DLS__BUF_INIT;
}
