/* A malloc that fails on request, for the out-of-memory tests: glibc lets a program
 * replace malloc; sanitizers replace it too, so under them TEST_WRAP_MALLOC is 0 and the
 * tests that need it skip themselves. Set countdown to k to make the k-th allocation from
 * now fail (triggered then becomes 1); live counts the allocations not yet freed.
 * fm_exhaust fails every allocation of a call in turn and checks each failure. Include in
 * one source file of a test program only. */
#ifndef DLSCHED_FAILING_MALLOC_H
#define DLSCHED_FAILING_MALLOC_H

#include <errno.h>
#include <stddef.h>

#include "testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define TEST_WRAP_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TEST_WRAP_MALLOC 0
#endif
#endif
#if !defined(TEST_WRAP_MALLOC)
#if defined(__GLIBC__)
#define TEST_WRAP_MALLOC 1
#else
#define TEST_WRAP_MALLOC 0
#endif
#endif

#if TEST_WRAP_MALLOC
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static long countdown = -1; /* allocations left before the failing one; -1: none fails */
static int triggered;
static int block_realloc_failed; /* the failed allocation was a realloc of an existing block */
static long live;                /* allocations not yet freed */

static int should_fail(void)
{
    if (countdown < 0 || countdown-- > 0)
        return 0;
    countdown = -1;
    triggered = 1;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    if (should_fail())
        return NULL;
    void *p = __libc_malloc(n);
    live += p != NULL;
    return p;
}

void *calloc(size_t a, size_t b)
{
    if (should_fail())
        return NULL;
    void *p = __libc_calloc(a, b);
    live += p != NULL;
    return p;
}

void *realloc(void *old, size_t n)
{
    if (should_fail()) {
        block_realloc_failed = old != NULL;
        return NULL;
    }
    void *p = __libc_realloc(old, n);
    live += p != NULL && old == NULL;
    return p;
}

void free(void *p)
{
    live -= p != NULL;
    __libc_free(p);
}

/* Whether the wrappers are the program's allocator (under valgrind, say, they are not). */
static inline int fm_active(void)
{
    void *(*volatile alloc)(size_t) = malloc; /* or the compiler elides the probe */
    countdown = 0;
    void *probe = alloc(1);
    countdown = -1;
    if (probe == NULL)
        return 1;
    free(probe);
    return 0;
}

/* Skips the calling test (and returns from it) when the wrappers are not the program's
 * allocator: under valgrind, say, there is nothing to do. */
#define FM_SKIP_UNLESS_ACTIVE()                                                            \
    do {                                                                                   \
        if (!fm_active()) {                                                                \
            skip();                                                                        \
            return;                                                                        \
        }                                                                                  \
    } while (0)

/* Run before each call of fm_exhaust, outside the count: GLPK keeps one environment per
 * thread alive between calls by design (and frees it after an internal error), so the
 * solver's callers create it beforehand to count only what the call itself leaves. */
static void (*fm_prepare)(void);

typedef dls_status (*fm_call)(void *ctx, dls_error *err);

/* Runs call(ctx, err) with the k-th allocation failing, for k = 0, 1, ... until it succeeds
 * with no failure injected, which it must; cleanup(ctx) (when not NULL) then releases what
 * it made. A failed call must return DLS_ENOMEM, or `also` where that is not DLS_OK, with
 * that status and a message in err, and must leak nothing: live comes back to where it
 * was (without fm_prepare it must not fall below it either). A call that succeeds in spite
 * of the failed allocation (an optional one, with a fallback) is cleaned up and passed
 * over. Returns the number of allocations failed. */
static inline long fm_exhaust(const char *what, fm_call call, void *ctx,
                              void (*cleanup)(void *ctx), dls_status also)
{
    for (long k = 0;; k++) {
        dls_error err;
        dls_error_clear(&err);
        if (fm_prepare)
            fm_prepare();
        long before = live;
        triggered = 0;
        block_realloc_failed = 0;
        countdown = k;
        dls_status st = call(ctx, &err);
        countdown = -1;
        if (!triggered || st == DLS_OK) {
            if (st != DLS_OK)
                fail_msg("%s: fails without injection: %s", what, err.message);
            if (cleanup)
                cleanup(ctx);
            if (!triggered)
                return k;
            continue;
        }
        if (st != DLS_ENOMEM && (also == DLS_OK || st != also))
            fail_msg("%s: allocation %ld failed gave %s: %s", what, k, dls_status_name(st),
                     err.message);
        if (err.status != st || err.message[0] == '\0')
            fail_msg("%s: allocation %ld: no message for %s", what, k, dls_status_name(st));
        /* GLPK 5.0 unlinks a block from its list before growing it with realloc, so when
         * that realloc fails, glp_free_env cannot free the block: one allocation, lost by
         * GLPK itself on its out-of-memory path */
        long allowed = st == DLS_ESOLVER && block_realloc_failed ? 1 : 0;
        if (live - before > allowed || (fm_prepare == NULL && live < before))
            fail_msg("%s: allocation %ld failed and %ld allocation(s) leaked", what, k,
                     live - before);
    }
}
#endif

#endif /* DLSCHED_FAILING_MALLOC_H */
