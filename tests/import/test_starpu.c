/* StarPU performance model files: reading them (speeds, bands against tabulated Student-t
 * quantiles, selection, regressions, every error with its line), writing them back (the
 * footprints StarPU itself wrote, round trips), and finding a codelet's file. The files
 * StarPU writes itself are tested in tests/import/starpu.sh. */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "dlsched/import.h"

/* Student-t quantiles t(0.975, nu) from the tables (independent of the library's). */
#define T975_2 4.302652729911275
#define T975_5 2.570581835636314
#define T975_9 2.262157162798205

/* The header of a file of ncomb combinations. */
#define HEAD(ncomb) "##################\n# Performance Model Version\n45\n\n# COMBs\n" #ncomb "\n"
/* A combination of one device. */
#define DEV(type, id) "# number of types devices\n1\n# device type\n" #type "\n# device id\n" \
    #id "\n# number of cores\n1\n"
/* An implementation's entry count and empty regressions. */
#define IMPL(n) "#####\n# number of entries\n" #n "\n" \
    "0 0 0 0 nan nan 0 0 0\n# a b c\nnan nan nan\n# not multiple-regression-base\n0\n"

/* One CPU combination with 3 entries, and a CUDA one with two implementations. */
static const char cpu_cuda[] =
    HEAD(2)
    DEV(0, 0) "# number of implementations\n1\n" IMPL(3)
    "# hash size flops mean dev sum sum2 n\n"
    "0000abcd\t1000\t0\t10\t1\t100\t1010\t10\n"
    "0000abce\t4000\t0\t50\t5\t250\t12625\t5\n"
    "0000abcf\t2000\t0\t30\t0\t90\t2700\t3\n"
    "\n"
    DEV(1, 0) "# number of implementations\n2\n" IMPL(2)
    "0000bbbb\t1000\t0\t2\t0.1\t20\t40.1\t10\n"
    "0000bbbc\t8000\t0\t8\t0.5\t80\t642.5\t10\n"
    "\n" IMPL(1)
    "0000cccc\t1000\t0\t4\t0.2\t40\t160.4\t10\n";

static dls_platform *empty(void)
{
    dls_platform *pl = NULL;
    dls_error err;
    assert_ok(dls_platform_create(&pl, &err), &err);
    return pl;
}

static dls_status import(const char *text, const dls_starpu_params *p, dls_platform *pl,
                         dls_import_report **rep, dls_error *err)
{
    return dls_import_starpu_string(text, strlen(text), "model.host", p, pl, rep, err);
}

static void get_points(const dls_platform *pl, const char *name, size_t *n, const double **sz,
                       const double **sp, const double **lo, const double **hi)
{
    size_t i;
    if (!dls_platform_find(pl, name, &i))
        fail_msg("no processor \"%s\"", name);
    assert_int_equal(dls_model_get_points(dls_platform_model(pl, i), n, sz, sp, lo, hi),
                     DLS_OK);
}

/* The band of dls_bench_build from a mean, a population deviation and a count, in us. */
static void band(double size, double mean_us, double dev_us, double n, double t, double *lo,
                 double *hi)
{
    double mean = mean_us * 1e-6, sd = dev_us * 1e-6 * sqrt(n / (n - 1));
    double pi = t * sd * sqrt(1 + 1 / n);
    *lo = size / (mean + pi);
    *hi = size / fmax(mean - pi, mean / 2);
}

TEST(test_cpu_and_cuda)
{
    dls_platform *pl = empty();
    dls_import_report *rep = NULL;
    dls_error err;
    assert_ok(import(cpu_cuda, NULL, pl, &rep, &err), &err);
    assert_int_equal(dls_platform_count(pl), 2);
    assert_int_equal(dls_import_report_count(rep), 2);
    const dls_import_item *it = dls_import_report_item(rep, 0);
    assert_string_equal(it->name, "model.cpu0");
    assert_int_equal(it->entries, 3);
    assert_int_equal(it->points, 3);
    assert_rel(it->min_size, 1000, 0);
    assert_rel(it->max_size, 4000, 0);
    assert_null(dls_import_report_item(rep, 2));
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 3);
    /* sorted by size; speed = size / mean */
    assert_rel(sz[0], 1000, 0);
    assert_rel(sz[1], 2000, 0);
    assert_rel(sp[0], 1000 / 10e-6, 1e-15);
    assert_rel(sp[1], 2000 / 30e-6, 1e-15);
    assert_rel(sp[2], 4000 / 50e-6, 1e-15);
    double l, h;
    band(1000, 10, 1, 10, T975_9, &l, &h);
    assert_rel(lo[0], l, 1e-12);
    assert_rel(hi[0], h, 1e-12);
    band(4000, 50, 5, 5, 2.7764451051977987 /* t(0.975, 4) */, &l, &h);
    assert_rel(lo[2], l, 1e-12);
    assert_rel(hi[2], h, 1e-12);
    /* zero deviation: the band is the speed */
    assert_rel(lo[1], sp[1], 1e-15);
    assert_rel(hi[1], sp[1], 1e-15);
    get_points(pl, "model.cuda0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sp[1], 8000 / 8e-6, 1e-15);
    band(8000, 8, 0.5, 10, T975_9, &l, &h);
    assert_rel(lo[1], l, 1e-12);
    assert_string_equal(dls_import_report_notes(rep), "");
    dls_import_report_free(rep);
    dls_platform_free(pl);
}

TEST(test_selection_and_names)
{
    dls_starpu_params p;
    dls_error err;
    dls_starpu_params_init(&p);
    p.arch = "cuda0";
    p.impl = 1;
    dls_platform *pl = empty();
    assert_ok(import(cpu_cuda, &p, pl, NULL, &err), &err);
    assert_int_equal(dls_platform_count(pl), 1);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cuda0_impl1", &n, &sz, &sp, &lo, &hi);
    assert_rel(sp[0], 1000 / 4e-6, 1e-15);
    dls_platform_free(pl);
    /* combK, and one section under a given name */
    p.arch = "comb0";
    p.impl = 0;
    p.name = "fast cpu";
    pl = empty();
    assert_ok(import(cpu_cuda, &p, pl, NULL, &err), &err);
    assert_string_equal(dls_platform_name(pl, 0), "fast cpu");
    dls_platform_free(pl);
    /* several sections under a given name: NAME.ARCH */
    p.arch = NULL;
    p.name = "node3";
    pl = empty();
    assert_ok(import(cpu_cuda, &p, pl, NULL, &err), &err);
    assert_string_equal(dls_platform_name(pl, 0), "node3.cpu0");
    assert_string_equal(dls_platform_name(pl, 1), "node3.cuda0");
    dls_platform_free(pl);
    /* implementation 1 everywhere: the CPU has none, skipped with a note */
    dls_starpu_params_init(&p);
    p.impl = 1;
    pl = empty();
    dls_import_report *rep = NULL;
    assert_ok(import(cpu_cuda, &p, pl, &rep, &err), &err);
    assert_int_equal(dls_platform_count(pl), 1);
    assert_non_null(strstr(dls_import_report_notes(rep), "no implementation 1"));
    dls_import_report_free(rep);
    /* what is not there */
    p.arch = "cpu0";
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "no implementation 1");
    p.arch = "opencl0";
    p.impl = 0;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err,
                 "no combination is \"opencl0\"");
    p.arch = "comb2";
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "no combination");
    dls_platform_free(pl);
}

/* One CPU section of n = 1, 2 and 10 samples. */
static const char few[] =
    HEAD(1) DEV(0, 0) "1\n" IMPL(4)
    "00000004 400 0 0 0 0 0 0\n"
    "00000001 100 0 1 0 1 1 1\n"
    "00000002 200 0 2 0.1 4 8.02 2\n"
    "00000003 300 0 3 0.3 30 90.9 10\n";

TEST(test_few_samples)
{
    dls_platform *pl = empty();
    dls_import_report *rep = NULL;
    dls_error err;
    assert_ok(import(few, NULL, pl, &rep, &err), &err);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sz[0], 200, 0);
    double l, h;
    band(200, 2, 0.1, 2, 12.706204736174707 /* t(0.975, 1) */, &l, &h);
    assert_rel(lo[0], l, 1e-12);
    assert_int_equal(dls_import_report_item(rep, 0)->few, 2);
    assert_int_equal(dls_import_report_item(rep, 0)->entries, 4);
    assert_non_null(strstr(dls_import_report_notes(rep), "1 of 3 entries with fewer than 2 "
                                                         "samples dropped (size 100)"));
    assert_non_null(strstr(dls_import_report_notes(rep), "1 entry without a sample"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    /* kept: the single sample's band is its speed */
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.keep_few = 1;
    pl = empty();
    assert_ok(import(few, &p, pl, &rep, &err), &err);
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 3);
    assert_rel(lo[0], 100 / 1e-6, 1e-15);
    assert_rel(hi[0], 100 / 1e-6, 1e-15);
    assert_non_null(strstr(dls_import_report_notes(rep), "kept"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    /* a higher threshold; then none left: the section is skipped, nothing usable */
    dls_starpu_params_init(&p);
    p.min_samples = 3;
    pl = empty();
    assert_ok(import(few, &p, pl, NULL, &err), &err);
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 1);
    p.min_samples = 11;
    assert_fails(import(few, &p, pl, NULL, &err), DLS_EDATA, &err, "no section with usable data");
    p.arch = "cpu0";
    assert_fails(import(few, &p, pl, NULL, &err), DLS_EDATA, &err,
                 "no history entry with enough samples");
    assert_int_equal(err.line, 18); /* the section's entry count */
    dls_platform_free(pl);
}

/* Regressions only: non-linear, then linear, then one over too narrow a range. */
#define REG(alpha, beta, nsample, minx, maxx, a, b, c) \
    "#####\n0\n0 0 0 0 " #alpha " " #beta " " #nsample " " #minx " " #maxx "\n" \
    #a " " #b " " #c "\n0\n"

TEST(test_regressions)
{
    static const char nl[] = HEAD(1) DEV(0, 0) "1\n" REG(nan, nan, 20, 1000, 64000, 0.5, 1.2, 3);
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.regression_points = 7;
    dls_platform *pl = empty();
    dls_import_report *rep = NULL;
    dls_error err;
    assert_ok(import(nl, &p, pl, &rep, &err), &err);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 7);
    assert_null(lo);
    assert_rel(sz[0], 1000, 1e-15);
    assert_rel(sz[6], 64000, 1e-15);
    assert_rel(sz[3], 8000, 1e-12); /* geometric: 1000 * 64^(1/2) */
    for (size_t k = 0; k < n; k++)
        assert_rel(sp[k], sz[k] / ((0.5 * pow(sz[k], 1.2) + 3) * 1e-6), 1e-12);
    assert_true(dls_import_report_item(rep, 0)->from_regression);
    assert_non_null(strstr(dls_import_report_notes(rep), "non-linear regression"));
    dls_import_report_free(rep);
    dls_platform_free(pl);

    static const char lin[] = HEAD(1) DEV(1, 2) "1\n" REG(0.01, 0.9, 20, 100, 1000, nan, nan, nan);
    pl = empty();
    assert_ok(import(lin, &p, pl, &rep, &err), &err);
    get_points(pl, "model.cuda2", &n, &sz, &sp, &lo, &hi);
    assert_rel(sp[6], 1000 / (0.01 * pow(1000, 0.9) * 1e-6), 1e-12);
    assert_non_null(strstr(dls_import_report_notes(rep), "linear regression"));
    dls_import_report_free(rep);

    /* sizes too close together for StarPU to trust the regression */
    static const char narrow[] = HEAD(1) DEV(0, 0) "1\n" REG(nan, nan, 20, 950, 1000, 1, 1, 1);
    assert_fails(import(narrow, &p, pl, NULL, &err), DLS_EDATA, &err,
                 "neither a history nor a valid regression");
    dls_platform_free(pl);
}

TEST(test_seven_fields_merge_multiple_regression)
{
    /* the history line without flops; two footprints of one size (pooled); a multiple
     * regression's coefficients skipped */
    static const char text[] =
        HEAD(1) DEV(0, 0) "1\n#####\n3\n0 0 0 0 nan nan 0 0 0\nnan nan nan\n"
        "# n intercept c1\n2\t1.5\t2.5\n"
        "0000000a 1000 10 1 30 302 3\n"
        "0000000b 1000 0 20 2 20 404 1\n"
        "0000000c 5000 0 50 0 100 5000 2\n";
    dls_platform *pl = empty();
    dls_import_report *rep = NULL;
    dls_error err;
    assert_ok(import(text, NULL, pl, &rep, &err), &err);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    /* samples 3 x mean 10 (dev 1) and 1 x 20 (dev 2): mean 12.5, second moment
     * (3 (1 + 100) + (4 + 400)) / 4 = 176.75, population variance 20.5 */
    assert_rel(sp[0], 1000 / 12.5e-6, 1e-14);
    double l, h;
    band(1000, 12.5, sqrt(20.5), 4, 3.182446305284263 /* t(0.975, 3) */, &l, &h);
    assert_rel(lo[0], l, 1e-12);
    assert_non_null(strstr(dls_import_report_notes(rep), "1 entry merged"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
}

typedef struct broken {
    const char *text;
    dls_status status;
    int line;
    const char *part;
} broken;

TEST(test_broken_files)
{
    static const broken cases[] = {
        {"", DLS_ESYNTAX, 1, "the performance model version"},
        {"# only a comment\n", DLS_ESYNTAX, 2, "truncated"},
        {"44\n1\n", DLS_EDATA, 1, "performance model version 44"},
        {"45\nx\n", DLS_ESYNTAX, 2, "the number of combinations"},
        {HEAD(1) DEV(9, 0), DLS_EDATA, 10, "type 9"},
        {HEAD(1) "0\n", DLS_EDATA, 7, "no device"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(2) "00000001 100 0 1 0.1 10 10.1 10\n", DLS_ESYNTAX, 25,
         "larger than the entries"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 1 0.1 10", DLS_ESYNTAX, 24,
         "found 6 fields"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 nan 0.1 10 10.1 10\n", DLS_EDATA, 24,
         "the mean time must be finite and > 0, not nan"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 0 0.1 10 10.1 10\n", DLS_EDATA, 24,
         "the mean time must be finite and > 0, not 0"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 1 -0.1 10 10.1 10\n", DLS_EDATA, 24,
         "the deviation must be finite and >= 0"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 0 0.1 10 10.1 1\n", DLS_EDATA, 24,
         "the mean time must be finite and > 0, not 0"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 inf 0 0 0 0\n", DLS_EDATA, 24,
         "the mean time must be finite, not inf"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 0 0 1 0.1 10 10.1 3\n", DLS_EDATA, 24,
         "a size of 0 bytes"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "zz 100 0 1 0.1 10 10.1 3\n", DLS_ESYNTAX, 24,
         "hexadecimal"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 1e3 0 1 0.1 10 10.1 3\n", DLS_ESYNTAX, 24,
         "whole"},
        {HEAD(1) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 1 0.1 10 10.1 3\n5\n", DLS_ESYNTAX,
         25, "text after the last combination"},
        {HEAD(1) DEV(0, 0) "1\n#####\n1\n0 0 0 0 nan nan 0 0\n", DLS_ESYNTAX, 19,
         "the linear regression's maxx"},
        {HEAD(1) DEV(0, 0) "1\n#####\n1\n0 0 0 0 nan nan 0 0 0\n1e999 0 0\n", DLS_EDATA, 19,
         "out of range"},
        {"45\n1\n1\n-1\n", DLS_ESYNTAX, 4, "whole number"},
        {"45\n99999999999999999999999\n", DLS_EDATA, 2, "out of range"},
    };
    int failed = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        dls_platform *pl = empty();
        dls_import_report *rep = (dls_import_report *)&rep; /* must become NULL */
        dls_error err;
        dls_error_clear(&err);
        dls_status st = import(cases[k].text, NULL, pl, &rep, &err);
        if (st != cases[k].status || err.line != cases[k].line ||
            !strstr(err.message, cases[k].part) || !strstr(err.message, "model.host:"))
            failed++, print_error("case %zu: %s at line %d: \"%s\" (expected %s at line %d, "
                                  "\"%s\")\n", k, dls_status_name(st), err.line, err.message,
                                  dls_status_name(cases[k].status), cases[k].line,
                                  cases[k].part);
        assert_null(rep);
        assert_int_equal(dls_platform_count(pl), 0);
        dls_platform_free(pl);
    }
    if (failed)
        fail_msg("%d case(s) failed", failed);
    /* a NUL byte, and a word too long for a number */
    dls_platform *pl = empty();
    dls_error err;
    static const char nul[] = "45\n1\0\n";
    assert_fails(dls_import_starpu_string(nul, sizeof nul - 1, "m", NULL, pl, NULL, &err),
                 DLS_ESYNTAX, &err, "NUL byte");
    char longword[400];
    memset(longword, '7', sizeof longword - 1);
    longword[sizeof longword - 1] = '\0';
    assert_fails(import(longword, NULL, pl, NULL, &err), DLS_ESYNTAX, &err, "a word of 399");
    dls_platform_free(pl);
}

TEST(test_state_unchanged_and_replace)
{
    dls_platform *pl = test_example("cluster.json");
    dls_platform *before = NULL;
    dls_error err;
    assert_ok(dls_platform_copy(pl, &before, &err), &err);
    static const char bad[] = HEAD(2) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 1 0 1 1 5\n"
        DEV(1, 0) "1\n" IMPL(1) "00000001 100 0 -1 0 1 1 5\n";
    assert_fails(import(bad, NULL, pl, NULL, &err), DLS_EDATA, &err, "mean time");
    assert_true(dls_platform_equal(pl, before));
    /* a name already there */
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.name = "cpu0";
    p.arch = "cpu0";
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "already in the platform");
    assert_true(dls_platform_equal(pl, before));
    /* two sections that would share a name */
    static const char twice[] = HEAD(2) DEV(0, 0) "1\n" IMPL(1) "00000001 100 0 1 0 1 1 5\n"
        "# number of types devices\n1\n0\n0\n4\n1\n" IMPL(1) "00000001 100 0 1 0 1 1 5\n";
    dls_platform *fresh = empty();
    dls_import_report *rep = NULL;
    assert_ok(import(twice, NULL, fresh, &rep, &err), &err);
    assert_string_equal(dls_platform_name(fresh, 0), "model.cpu0_comb0");
    assert_string_equal(dls_platform_name(fresh, 1), "model.cpu0_comb1");
    dls_import_report_free(rep);
    dls_platform_free(fresh);
    /* replace: the model changes, the limit stays */
    size_t i;
    assert_true(dls_platform_find(pl, "cpu0", &i));
    double limit = dls_platform_limit(pl, i);
    p.replace = 1;
    assert_ok(import(cpu_cuda, &p, pl, NULL, &err), &err);
    assert_int_equal(dls_platform_count(pl), dls_platform_count(before));
    assert_int_equal(dls_model_get_kind(dls_platform_model(pl, i)), DLS_MODEL_POINTS);
    assert_true(dls_platform_limit(pl, i) == limit || (isinf(limit) && isinf(dls_platform_limit(pl, i))));
    dls_platform_free(before);
    dls_platform_free(pl);
}

TEST(test_params_and_arguments)
{
    dls_platform *pl = empty();
    dls_error err;
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.reserved[3] = 1;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "reserved");
    dls_starpu_params_init(&p);
    p.confidence = 1;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "confidence");
    dls_starpu_params_init(&p);
    p.element_size = 0;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "element_size");
    dls_starpu_params_init(&p);
    p.min_samples = 0;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "min_samples");
    dls_starpu_params_init(&p);
    p.regression_points = 1;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "regression_points");
    /* issue 35, item 17: bounded, the time of an import linear in the count */
    p.regression_points = DLS_IMPORT_MAX_REGRESSION_POINTS + 1;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "[2, 10000]");
    dls_starpu_params_init(&p);
    p.size_unit = (dls_size_unit)7;
    assert_fails(import(cpu_cuda, &p, pl, NULL, &err), DLS_EINVAL, &err, "size_unit");
    assert_fails(dls_import_starpu_string(NULL, 0, "m", NULL, pl, NULL, &err), DLS_EINVAL, &err,
                 "NULL");
    assert_fails(dls_import_starpu_file(NULL, NULL, pl, NULL, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_import_starpu_file("/nonexistent/m.h", NULL, pl, NULL, &err), DLS_EIO, &err,
                 "cannot open");
    assert_fails(dls_import_starpu_file(TOP_SRCDIR, NULL, pl, NULL, &err), DLS_EIO, &err,
                 "directory");
    assert_int_equal(dls_platform_count(pl), 0);
    dls_starpu_params_init(NULL); /* harmless */
    /* unit names */
    dls_size_unit u;
    assert_int_equal(dls_size_unit_from_name("elements", &u), DLS_OK);
    assert_int_equal(u, DLS_SIZE_UNIT_ELEMENTS);
    assert_string_equal(dls_size_unit_name(DLS_SIZE_UNIT_BYTES), "bytes");
    assert_int_equal(dls_size_unit_from_name("words", &u), DLS_EINVAL);
    /* a report's getters on NULL */
    assert_int_equal(dls_import_report_count(NULL), 0);
    assert_string_equal(dls_import_report_notes(NULL), "");
    dls_import_report_free(NULL);
    dls_platform_free(pl);
}

TEST(test_elements)
{
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.size_unit = DLS_SIZE_UNIT_ELEMENTS;
    p.element_size = 8;
    dls_platform *pl = empty();
    dls_error err;
    assert_ok(import(cpu_cuda, &p, pl, NULL, &err), &err);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(pl, "model.cpu0", &n, &sz, &sp, &lo, &hi);
    assert_rel(sz[0], 125, 0);
    assert_rel(sp[0], 125 / 10e-6, 1e-15);
    dls_platform_free(pl);
}

/* The footprints StarPU 1.3.10 wrote for tasks of one vector of doubles (bytes, footprint). */
static const struct {
    double bytes;
    const char *footprint;
} starpu_wrote[] = {{8000, "e40d1b6c"}, {16000, "96e89fef"}, {32000, "0d370ae5"},
                    {64000, "9a3a9ed8"}, {512000, "571f8f18"}};

TEST(test_export_round_trip)
{
    /* a model with bands, in elements of 8 bytes */
    double size[] = {1000, 2000, 4000, 8000, 64000};
    double speed[] = {1e9, 1.5e9, 2e9, 1.2e9, 3e8};
    double low[] = {0.9e9, 1.5e9, 1.8e9, 1.0e9, 2.5e8};
    double high[] = {1.1e9, 1.6e9, 2.2e9, 1.3e9, 3.1e8};
    dls_model *m = NULL;
    dls_error err;
    assert_ok(dls_model_create_points(5, size, speed, low, high, &m, &err), &err);
    dls_platform *pl = empty();
    size_t idx;
    assert_ok(dls_platform_add(pl, "gpu \"a\",b#c", m, &idx, &err), &err);
    dls_model_free(m);
    dls_starpu_export_params ep;
    dls_starpu_export_params_init(&ep);
    ep.size_unit = DLS_SIZE_UNIT_ELEMENTS;
    ep.arch = "cuda1";
    char *text = NULL;
    assert_ok(dls_platform_starpu_to_string(pl, idx, &ep, &text, &err), &err);
    /* StarPU's own footprints for the sizes it wrote */
    for (size_t k = 0; k < sizeof starpu_wrote / sizeof starpu_wrote[0]; k++) {
        char line[64];
        snprintf(line, sizeof line, "\n%s\t%.0f ", starpu_wrote[k].footprint,
                 starpu_wrote[k].bytes);
        if (!strstr(text, line))
            fail_msg("no entry \"%s\" in\n%s", line + 1, text);
    }
    /* back: the same speeds and lower edges */
    dls_starpu_params p;
    dls_starpu_params_init(&p);
    p.size_unit = DLS_SIZE_UNIT_ELEMENTS;
    dls_platform *back = empty();
    dls_import_report *rep = NULL;
    assert_ok(import(text, &p, back, &rep, &err), &err);
    assert_string_equal(dls_platform_name(back, 0), "model.cuda1");
    assert_string_equal(dls_import_report_notes(rep), "");
    size_t n;
    const double *sz, *sp, *lo, *hi;
    get_points(back, "model.cuda1", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 5);
    for (size_t k = 0; k < n; k++) {
        assert_rel(sz[k], size[k], 0);
        assert_rel(sp[k], speed[k], 1e-14);
        assert_rel(lo[k], low[k], 1e-12);
    }
    assert_rel(hi[1], speed[1], 1e-14); /* no downward spread: no upward either */
    dls_import_report_free(rep);
    dls_free(text);
    /* another count and confidence give the same band back when read with them */
    ep.count = 3;
    ep.confidence = 0.9;
    assert_ok(dls_platform_starpu_to_string(pl, idx, &ep, &text, &err), &err);
    assert_non_null(strstr(text, "\t3\n"));
    p.confidence = 0.9;
    dls_platform_free(back);
    back = empty();
    assert_ok(import(text, &p, back, NULL, &err), &err);
    get_points(back, "model.cuda1", &n, &sz, &sp, &lo, &hi);
    assert_rel(lo[0], low[0], 1e-12);
    dls_free(text);
    dls_platform_free(back);
    dls_platform_free(pl);
}

TEST(test_export_errors)
{
    dls_platform *pl = test_example("cluster.json"); /* constant, points, lines, 2-D */
    dls_error err;
    char *text = (char *)"unchanged";
    assert_fails(dls_platform_starpu_to_string(pl, 0, NULL, &text, &err), DLS_EINVAL, &err, "constant");
    assert_fails(dls_platform_starpu_to_string(pl, 2, NULL, &text, &err), DLS_EINVAL, &err, "model");
    assert_fails(dls_platform_starpu_to_string(pl, 99, NULL, &text, &err), DLS_EINVAL, &err, "does not exist");
    assert_fails(dls_platform_starpu_to_string(NULL, 0, NULL, &text, &err), DLS_EINVAL, &err, "NULL");
    dls_starpu_export_params ep;
#define EXPORT_REFUSED(change, part)                                                       \
    ASSERT_PARAM_REFUSED(dls_starpu_export_params_init, ep, change,                        \
                         dls_platform_starpu_to_string(pl, 1, &ep, &text, &err), &err, part)
    static const char *const bad_arch[] = {"gpu0", "cpu", "0", "cpu-1", "cpu0x", "",
                                           "cpu99999999999"};
    for (size_t k = 0; k < sizeof bad_arch / sizeof bad_arch[0]; k++)
        EXPORT_REFUSED(ep.arch = bad_arch[k], "arch");
    EXPORT_REFUSED(ep.count = 1, "count");
    EXPORT_REFUSED(ep.ncores = 0, "ncores");
    EXPORT_REFUSED(ep.confidence = 0, "confidence");
    EXPORT_REFUSED(ep.element_size = NAN, "element_size");
    EXPORT_REFUSED(ep.size_unit = (dls_size_unit)-1, "size_unit");
    EXPORT_REFUSED(ep.reserved[0] = 1, "reserved");
    /* sizes that are no whole number of bytes */
    dls_starpu_export_params_init(&ep);
    ep.size_unit = DLS_SIZE_UNIT_ELEMENTS;
    ep.element_size = 0.3333;
    assert_fails(dls_platform_starpu_to_string(pl, 1, &ep, &text, &err), DLS_EINVAL, &err,
                 "not a whole number");
#undef EXPORT_REFUSED
    assert_string_equal(text, "unchanged");
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Finding a symbol's file                                                            */

static char tmpdir[] = "/tmp/dls_starpu_find_XXXXXX";

static void put(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void put(const char *fmt, ...)
{
    char path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    /* make the directories on the way */
    for (char *q = path + 1; *q; q++)
        if (*q == '/') {
            *q = '\0';
            mkdir(path, 0700);
            *q = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(cpu_cuda, f);
    fclose(f);
}

static void expect_found(const char *symbol, const char *tail)
{
    char *path = NULL;
    dls_error err;
    assert_ok(dls_starpu_find(symbol, &path, &err), &err);
    size_t n = strlen(path), t = strlen(tail);
    if (n < t || strcmp(path + n - t, tail) != 0)
        fail_msg("found %s, expected .../%s", path, tail);
    dls_free(path);
}

TEST(test_find)
{
    assert_non_null(mkdtemp(tmpdir));
    static const char *const vars[] = {"STARPU_PERF_MODEL_DIR", "STARPU_HOME",
                                       "XDG_CACHE_HOME", "HOME", "STARPU_PERF_MODEL_PATH",
                                       "STARPU_HOSTNAME"};
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
        unsetenv(vars[k]);
    char home[600], sh[600];
    snprintf(home, sizeof home, "%s/home", tmpdir);
    snprintf(sh, sizeof sh, "%s/sh", tmpdir);
    setenv("HOME", home, 1);
    put("%s/.starpu/sampling/codelets/45/gemm.nodeA", home);
    expect_found("gemm", "/home/.starpu/sampling/codelets/45/gemm.nodeA");
    /* a second host's file: ambiguous unless this host's is there */
    put("%s/.starpu/sampling/codelets/45/gemm.nodeB", home);
    char *path = (char *)"x";
    dls_error err;
    setenv("STARPU_HOSTNAME", "nodeC", 1);
    assert_fails(dls_starpu_find("gemm", &path, &err), DLS_EINVAL, &err, "2 model files");
    assert_non_null(strstr(err.message, "gemm.nodeA, "));
    assert_null(path);
    setenv("STARPU_HOSTNAME", "nodeB", 1);
    expect_found("gemm", "gemm.nodeB");
    /* STARPU_HOME comes before HOME, STARPU_PERF_MODEL_DIR before both */
    setenv("STARPU_HOME", sh, 1);
    put("%s/.starpu/sampling/codelets/45/gemm.other", sh);
    expect_found("gemm", "/sh/.starpu/sampling/codelets/45/gemm.other");
    char dir[600];
    snprintf(dir, sizeof dir, "%s/dir", tmpdir);
    setenv("STARPU_PERF_MODEL_DIR", dir, 1);
    put("%s/codelets/45/gemm.x", dir);
    expect_found("gemm", "/dir/codelets/45/gemm.x");
    /* a symbol with a dot names the file; the path list comes last */
    snprintf(dir, sizeof dir, "%s/p1:%s/p2", tmpdir, tmpdir);
    setenv("STARPU_PERF_MODEL_PATH", dir, 1);
    put("%s/p2/codelets/45/my.kernel", tmpdir);
    expect_found("my.kernel", "/p2/codelets/45/my.kernel");
    /* a prefix is no match: "gem" is not "gemm" */
    assert_fails(dls_starpu_find("gem", &path, &err), DLS_EINVAL, &err, "no model file for "
                                                                         "codelet \"gem\"");
    assert_non_null(strstr(err.message, "/p1/codelets/45/"));
    assert_fails(dls_starpu_find("a/b", &path, &err), DLS_EINVAL, &err, "not a codelet symbol");
    assert_fails(dls_starpu_find("", &path, &err), DLS_EINVAL, &err, "not a codelet symbol");
    assert_fails(dls_starpu_find("..", &path, &err), DLS_EINVAL, &err, "not a codelet symbol");
    assert_fails(dls_starpu_find(NULL, &path, &err), DLS_EINVAL, &err, "NULL");
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++)
        unsetenv(vars[k]);
    assert_fails(dls_starpu_find("gemm", &path, &err), DLS_EINVAL, &err, "no directory");
    /* the file found imports */
    setenv("HOME", home, 1);
    setenv("STARPU_HOSTNAME", "nodeA", 1);
    assert_ok(dls_starpu_find("gemm", &path, &err), &err);
    dls_platform *pl = empty();
    assert_ok(dls_import_starpu_file(path, NULL, pl, NULL, &err), &err);
    assert_string_equal(dls_platform_name(pl, 0), "gemm.cpu0");
    dls_platform_free(pl);
    dls_free(path);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    assert_int_equal(system(cmd), 0);
}

TEST_MAIN("import_starpu", test_cpu_and_cuda, test_selection_and_names, test_few_samples,
          test_regressions, test_seven_fields_merge_multiple_regression, test_broken_files,
          test_state_unchanged_and_replace, test_params_and_arguments, test_elements,
          test_export_round_trip, test_export_errors, test_find)
