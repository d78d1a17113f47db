/* Helpers shared by the cmocka test programs: the seed of the random instances (which
 * gen.h draws), relative comparisons, and status assertions that print the library's
 * message. */
#ifndef DLSCHED_TESTUTIL_H
#define DLSCHED_TESTUTIL_H

#include <dirent.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dlsched.h"

/* ---------------------------------------------------------------------------------- */
/* The seed of the program's random instances (gen.h draws them): --random-seed N on the
 * command line, else DLS_TEST_SEED, else the fixed default; it is printed so that a
 * failure can be replayed. */

#ifndef TEST_DEFAULT_SEED
#define TEST_DEFAULT_SEED 20261122u
#endif
static uint64_t test_seed_value = TEST_DEFAULT_SEED;

/* Reads --random-seed N or DLS_TEST_SEED; call first in main(). */
static inline void test_init_seed(int argc, char **argv)
{
    const char *env = getenv("DLS_TEST_SEED");
    if (env != NULL && *env != '\0')
        test_seed_value = strtoull(env, NULL, 0);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--random-seed") == 0)
            test_seed_value = strtoull(argv[i + 1], NULL, 0);
    printf("# random seed %llu (override with --random-seed N or DLS_TEST_SEED=N)\n",
           (unsigned long long)test_seed_value);
}

/* ---------------------------------------------------------------------------------- */
/* Assertions */

/* |a - b| <= tol * max(|a|, |b|, floor); NaN never matches, equal infinities do. */
static inline int test_close(double a, double b, double tol, double floor_)
{
    if (isnan(a) || isnan(b))
        return 0;
    if (a == b)
        return 1;
    double scale = fmax(fmax(fabs(a), fabs(b)), floor_);
    return fabs(a - b) <= tol * scale;
}

#define assert_rel(a, b, tol)                                                              \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!test_close(a_, b_, (tol), 0))                                                 \
            fail_msg("%s = %.17g differs from %s = %.17g by more than %g relative", #a, a_, \
                     #b, b_, (double)(tol));                                               \
    } while (0)

#define assert_rel_floor(a, b, tol, floor_)                                                \
    do {                                                                                   \
        double a_ = (a), b_ = (b);                                                         \
        if (!test_close(a_, b_, (tol), (floor_)))                                          \
            fail_msg("%s = %.17g differs from %s = %.17g by more than %g (floor %g)", #a,  \
                     a_, #b, b_, (double)(tol), (double)(floor_));                         \
    } while (0)

/* The call must succeed; on failure the library's message is shown. */
#define assert_ok(call, errp)                                                              \
    do {                                                                                   \
        dls_status st_ = (call);                                                           \
        if (st_ != DLS_OK)                                                                 \
            fail_msg("%s failed with %s: %s", #call, dls_status_name(st_), (errp)->message); \
    } while (0)

/* The call must fail with the given status and a message containing `part`. */
#define assert_fails(call, want, errp, part)                                               \
    do {                                                                                   \
        dls_error_clear(errp);                                                             \
        dls_status st_ = (call);                                                           \
        if (st_ != (want))                                                                 \
            fail_msg("%s returned %s, expected %s (message: %s)", #call,                   \
                     dls_status_name(st_), dls_status_name(want), (errp)->message);         \
        if ((errp)->status != (want))                                                      \
            fail_msg("%s: the error record holds %s", #call,                               \
                     dls_status_name((errp)->status));                                     \
        if (strstr((errp)->message, (part)) == NULL)                                       \
            fail_msg("%s: message \"%s\" lacks \"%s\"", #call, (errp)->message, (part));   \
    } while (0)

/* A record's reserved tail must be all zero bytes. */
#define assert_reserved_zero(rec)                                                          \
    do {                                                                                   \
        for (size_t k_ = 0; k_ < sizeof (rec).reserved; k_++)                              \
            assert_int_equal((rec).reserved[k_], 0);                                       \
    } while (0)

/* ---------------------------------------------------------------------------------- */
/* Platforms, files and text */

/* The shipped example examples/NAME. */
/* The next permutation of a[0..n) in lexicographic order (start from the sorted one);
 * 0 after the last. */
static inline int test_next_permutation(size_t *a, size_t n)
{
    if (n < 2)
        return 0;
    size_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    size_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    size_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (size_t l = i, h = n - 1; l < h; l++, h--) {
        t = a[l];
        a[l] = a[h];
        a[h] = t;
    }
    return 1;
}

static inline dls_platform *test_example(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/examples/%s", TOP_SRCDIR, name);
    dls_error err;
    dls_platform *pl;
    assert_ok(dls_platform_read_file(path, &pl, &err), &err);
    return pl;
}

/* One parameter refused alone: par reset by init, then change applied, and call fails with
 * DLS_EINVAL, the message holding part. */
#define ASSERT_PARAM_REFUSED(init, par, change, call, err, part)                           \
    do {                                                                                   \
        init(&(par));                                                                      \
        change;                                                                            \
        assert_fails(call, DLS_EINVAL, err, part);                                         \
    } while (0)

/* Schedule params at their defaults but for the send order: seq, n platform indices. */
static inline void test_sequence_params(dls_schedule_params *par, const size_t *seq, size_t n)
{
    dls_schedule_params_init(par);
    par->order = DLS_ORDER_SEQUENCE;
    par->sequence = seq;
    par->sequence_count = n;
}

/* GLPK (asked for by name: the chain is the default solver) still solves the paper's
 * two-processor example, 5.75 s, after what a test did to it (an internal error, a
 * watchdog's stop). */
static inline void test_glpk_still_works(void)
{
    dls_platform *pl = test_example("star_two.json");
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.solver = DLS_SOLVER_GLPK;
    dls_schedule *s;
    dls_error err;
    assert_ok(dls_schedule_solve(pl, 2, &par, &s, &err), &err);
    assert_rel(dls_schedule_makespan(s), 5.75, 1e-12);
    dls_schedule_free(s);
    dls_platform_free(pl);
}

/* The speed function of the measurement tests (units per second against the size): rising
 * while caches warm up, a plateau, falling when paging. */
static inline dls_model *test_paging_model(void)
{
    static const double x[] = {1e2, 1e3, 1e4, 1e5, 1e6, 3e6, 1e7, 3e7, 1e8};
    static const double s[] = {2e8, 9e8, 1.6e9, 2e9, 2e9, 1.7e9, 9e8, 4e8, 1.5e8};
    dls_model *m;
    dls_error err;
    assert_ok(dls_model_create_points(9, x, s, NULL, NULL, &m, &err), &err);
    return m;
}

/* A platform from the text of a platform file. */
static inline dls_platform *test_platform_json(const char *text)
{
    dls_error err;
    dls_platform *pl;
    assert_ok(dls_platform_read_string(text, strlen(text), "test.json", &pl, &err), &err);
    return pl;
}

/* An empty platform. */
static inline dls_platform *test_platform_new(void)
{
    dls_error err;
    dls_platform *pl = NULL;
    assert_ok(dls_platform_create(&pl, &err), &err);
    return pl;
}

/* A partition of n elements over p processors adds up: the elements to n, the makespan
 * exactly to the largest time. */
static inline void test_partition_adds_up(const dls_partition *res, size_t p, uint64_t n)
{
    const uint64_t *el = dls_partition_elements(res);
    const double *t = dls_partition_times(res);
    uint64_t sum = 0;
    double mk = 0;
    for (size_t i = 0; i < p; i++) {
        sum += el[i];
        mk = fmax(mk, t[i]);
    }
    assert_true(sum == n);
    assert_true(dls_partition_makespan(res) == mk);
}

/* The index of the processor called name, -1 when there is none. */
static inline long test_platform_index(const dls_platform *pl, const char *name)
{
    size_t i;
    return dls_platform_find(pl, name, &i) ? (long)i : -1;
}

/* Adds model m (which it frees) as processor `name`; returns its index. */
static inline size_t test_add(dls_platform *pl, const char *name, dls_model *m)
{
    dls_error err;
    size_t i;
    assert_ok(dls_platform_add(pl, name, m, &i, &err), &err);
    dls_model_free(m);
    return i;
}

/* How many times needle occurs in hay, without overlaps. */
static inline size_t test_count(const char *hay, const char *needle)
{
    size_t n = 0, len = strlen(needle);
    for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
        n++;
    return n;
}

/* The whole of a file, NUL-terminated; free() it. */
static inline char *test_read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

/* Calls fn(path, data) on every DIR/NAME.json (DIR relative to the source tree); returns
 * how many. */
static inline int test_each_json(const char *dir, void (*fn)(const char *path, void *data),
                                 void *data)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR, dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    struct dirent *e;
    int seen = 0;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s/%s", TOP_SRCDIR, dir, e->d_name);
        fn(path, data);
        seen++;
    }
    closedir(d);
    return seen;
}

/* Switches LC_NUMERIC to a locale whose decimal point is not '.' and returns its name:
 * an installed one, or else one that localedef builds into a temporary directory (found
 * through LOCPATH; removed at exit). NULL (and the "C" locale) when neither works, e.g.
 * without localedef or its sources (Debian's package locales). The caller sets "C" back. */
static char test_locale_dir_[64];

static inline void test_remove_locale_dir_(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_locale_dir_);
    if (system(cmd) != 0)
        fprintf(stderr, "# could not remove %s\n", test_locale_dir_);
}

static inline const char *test_decimal_comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "de_DE",
                                        "fr_FR", "nl_NL.UTF-8"};
    for (int built = 0; built < 2; built++) {
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
            if (setlocale(LC_NUMERIC, names[k]) != NULL &&
                strcmp(localeconv()->decimal_point, ".") != 0)
                return names[k];
        setlocale(LC_NUMERIC, "C");
        if (built || test_locale_dir_[0] != '\0')
            break;
        /* none installed: build de_DE.UTF-8 where only this process looks */
        snprintf(test_locale_dir_, sizeof test_locale_dir_, "/tmp/dlsched-locale.XXXXXX");
        if (mkdtemp(test_locale_dir_) == NULL)
            return NULL;
        atexit(test_remove_locale_dir_);
        char cmd[160];
        snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1",
                 test_locale_dir_);
        if (system(cmd) != 0)
            return NULL;
        setenv("LOCPATH", test_locale_dir_, 1);
        printf("# built the locale de_DE.UTF-8 in %s with localedef\n", test_locale_dir_);
    }
    return NULL;
}

/* test_decimal_comma_locale(), saying that the locale check is skipped where it gives NULL. */
static inline const char *test_decimal_comma_or_skip(void)
{
    const char *comma = test_decimal_comma_locale();
    if (comma == NULL)
        printf("# no locale with a decimal comma here: the locale check is skipped\n");
    return comma;
}

/* The library left the caller's decimal comma in place; back to the "C" locale. */
static inline void test_decimal_comma_kept(void)
{
    assert_string_equal(localeconv()->decimal_point, ",");
    setlocale(LC_NUMERIC, "C");
}

/* render(ctx) gives the same text (freed with dls_free) in the "C" locale and under a
 * decimal comma; 0 when no locale with a decimal comma can be had (the caller then skips,
 * after freeing what it holds). */
static inline int test_same_under_decimal_comma(char *(*render)(void *ctx), void *ctx)
{
    char *c = render(ctx);
    const char *found = test_decimal_comma_locale();
    if (found != NULL) {
        char *l = render(ctx);
        setlocale(LC_NUMERIC, "C");
        assert_string_equal(l, c);
        dls_free(l);
    }
    dls_free(c);
    return found != NULL;
}

/* ---------------------------------------------------------------------------------- */
/* A test: TEST(test_name) { body }; cmocka's state argument is not used. */

#if defined(__GNUC__)
#define TEST_UNUSED_ __attribute__((unused))
#else
#define TEST_UNUSED_
#endif
#define TEST(name) static void name(void **state_ TEST_UNUSED_)

/* main(): reads the seed (test_init_seed), then runs the tests named in the arguments,
 * in that order, as the group `name`. The one way a test program registers its tests;
 * there is no cap on their number: the functions go into an array, and their names are
 * cut out of the stringified list at run time (what cmocka_unit_test would write).
 * A program that wants another default seed defines TEST_DEFAULT_SEED before including
 * this header. stdout is line-buffered so that the log keeps what a crashing test printed. */

#define TEST_MAIN(name, ...)                                                               \
    int main(int argc, char **argv)                                                        \
    {                                                                                      \
        static const CMUnitTestFunction fns_[] = {__VA_ARGS__};                            \
        struct CMUnitTest tests_[sizeof fns_ / sizeof fns_[0]];                            \
        static char names_[] = #__VA_ARGS__;                                               \
        setvbuf(stdout, NULL, _IOLBF, 0);                                                  \
        test_init_seed(argc, argv);                                                        \
        test_fill_(tests_, fns_, sizeof fns_ / sizeof fns_[0], names_);                    \
        return cmocka_run_group_tests_name(name, tests_, NULL, NULL);                      \
    }

/* Fills tests[0..n) with fns and the names in `names` ("a, b, c"), which it cuts up. */
static inline void test_fill_(struct CMUnitTest *tests, const CMUnitTestFunction *fns,
                              size_t n, char *names)
{
    char *p = names;
    for (size_t i = 0; i < n; i++) {
        while (*p == ' ' || *p == ',' || *p == '\n' || *p == '\t')
            p++;
        char *end = p + strcspn(p, ", \n\t");
        char *next = *end != '\0' ? end + 1 : end;
        *end = '\0';
        memset(&tests[i], 0, sizeof tests[i]);
        tests[i].name = p;
        tests[i].test_func = fns[i];
        p = next;
    }
}

#endif /* DLSCHED_TESTUTIL_H */
