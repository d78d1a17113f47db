/* A malloc that fails on request, for the out-of-memory tests: glibc lets a program
 * replace malloc; sanitizers replace it too, so under them TEST_WRAP_MALLOC is 0 and the
 * tests that need it skip themselves. Set countdown to k to make the k-th allocation from
 * now fail (triggered then becomes 1); live counts the allocations not yet freed. Include
 * in one test program only once. */
#ifndef DLSCHED_FAILING_MALLOC_H
#define DLSCHED_FAILING_MALLOC_H

#include <errno.h>
#include <stddef.h>

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
static long live;           /* allocations not yet freed */

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
    if (should_fail())
        return NULL;
    void *p = __libc_realloc(old, n);
    live += p != NULL && old == NULL;
    return p;
}

void free(void *p)
{
    live -= p != NULL;
    __libc_free(p);
}
#endif

#endif /* DLSCHED_FAILING_MALLOC_H */
