/* Tests of quantities with their unit ("64 GiB", "6.25 MB/s", "250 us") and of what the
 * platform reader builds from them: the link's rate from its bandwidth, the limit or the
 * second time line from the memory (issue 36, item 1). */
#include <string.h>

#include "core/locale.h"
#include "io/platform_units.h"
#include "testutil.h"

/* One quantity: its text, kind, and the double it must read to exactly (or 1 when it must
 * be refused, with a fragment of the reason). */
typedef struct qcase {
    const char *text;
    dls__quantity q;
    double want;
    const char *refused;
} qcase;

static void expect_quantities(const qcase *cases, size_t n)
{
    dls__c_numeric loc;
    assert_int_equal(dls__c_numeric_enter(&loc), 0);
    for (size_t k = 0; k < n; k++) {
        const qcase *c = &cases[k];
        double v = -1;
        char why[300] = "";
        int r = dls__parse_quantity(c->text, strlen(c->text), c->q, &v, why, sizeof why);
        if (c->refused != NULL) {
            if (r == 0 || strstr(why, c->refused) == NULL)
                fail_msg("\"%s\": read as %.17g (%d, %s), expected refused with \"%s\"",
                         c->text, v, r, why, c->refused);
        } else if (r != 0 || v != c->want) {
            fail_msg("\"%s\": %d (%s) %.17g, expected %.17g", c->text, r, why, v, c->want);
        }
    }
    dls__c_numeric_leave(&loc);
}

TEST(test_sizes)
{
    static const qcase cases[] = {
        {"64 GiB", DLS__Q_BYTES, 68719476736.0, NULL},
        {"8 GB", DLS__Q_BYTES, 8e9, NULL},
        {"512 MiB", DLS__Q_BYTES, 536870912.0, NULL},
        {"1.5e9 B", DLS__Q_BYTES, 1.5e9, NULL},
        {"1.5e9B", DLS__Q_BYTES, 1.5e9, NULL},
        {"  2 TiB ", DLS__Q_BYTES, 2199023255552.0, NULL},
        {"0.1 kB", DLS__Q_BYTES, 100, NULL},
        {"3 TB", DLS__Q_BYTES, 3e12, NULL},
        {"1 KiB", DLS__Q_BYTES, 1024, NULL},
        {"-8 GB", DLS__Q_BYTES, -8e9, NULL}, /* the sign is the caller's check */
        {"8 KB", DLS__Q_BYTES, 0, "unknown unit \"KB\""},
        {"8 gb", DLS__Q_BYTES, 0, "give one of B, kB, MB, GB, TB, KiB, MiB, GiB, TiB"},
        {"8", DLS__Q_BYTES, 0, "has no unit"},
        {"GiB", DLS__Q_BYTES, 0, "a number, then its unit"},
        {"", DLS__Q_BYTES, 0, "a number, then its unit"},
        {"1.e3 B", DLS__Q_BYTES, 0, "a number"},
        {".5 GB", DLS__Q_BYTES, 0, "a number"},
        {"1e400 GB", DLS__Q_BYTES, 0, "not a finite number"},
        {"8 GB/s", DLS__Q_BYTES, 0, "unknown unit"},
        {"8 \nGB", DLS__Q_BYTES, 0, "unknown unit \"?GB\""}, /* no raw control character */
    };
    expect_quantities(cases, sizeof cases / sizeof cases[0]);
}

TEST(test_bandwidths)
{
    static const qcase cases[] = {
        {"1 Gbit/s", DLS__Q_BANDWIDTH, 1.25e8, NULL},
        {"6.25 MB/s", DLS__Q_BANDWIDTH, 6.25e6, NULL},
        {"100 Mbit/s", DLS__Q_BANDWIDTH, 1.25e7, NULL},
        {"10 GB/s", DLS__Q_BANDWIDTH, 1e10, NULL},
        {"1 GiB/s", DLS__Q_BANDWIDTH, 1073741824.0, NULL},
        {"8 bit/s", DLS__Q_BANDWIDTH, 1, NULL},
        {"3 kbit/s", DLS__Q_BANDWIDTH, 375, NULL},
        {"2.5 Tbit/s", DLS__Q_BANDWIDTH, 3.125e11, NULL},
        {"1 Gbps", DLS__Q_BANDWIDTH, 0, "Gbit/s"},
        {"1 GB", DLS__Q_BANDWIDTH, 0, "unknown unit \"GB\" for a bandwidth"},
    };
    expect_quantities(cases, sizeof cases / sizeof cases[0]);
}

TEST(test_times)
{
    static const qcase cases[] = {
        {"250 us", DLS__Q_SECONDS, 2.5e-4, NULL},
        {"0.1 ms", DLS__Q_SECONDS, 1e-4, NULL}, /* not 0.1 * 1e-3 = 1.0000000000000001e-4 */
        {"2 s", DLS__Q_SECONDS, 2, NULL},
        {"1.5 \xc2\xb5s", DLS__Q_SECONDS, 1.5e-6, NULL},
        {"1.5 \xce\xbcs", DLS__Q_SECONDS, 1.5e-6, NULL},
        {"20 ns", DLS__Q_SECONDS, 2e-8, NULL},
        {"3e-3 s", DLS__Q_SECONDS, 3e-3, NULL},
        {"1 min", DLS__Q_SECONDS, 0, "give one of s, ms, us"},
        {"250 uS", DLS__Q_SECONDS, 0, "unknown unit \"uS\" for a time"},
    };
    expect_quantities(cases, sizeof cases / sizeof cases[0]);
}

/* The reader under a locale whose decimal point is a comma still reads "0.1 ms". */
TEST(test_locale)
{
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL && setlocale(LC_NUMERIC, "fr_FR.UTF-8") == NULL)
        skip();
    static const char text[] =
        "{\"processors\": [{\"name\": \"a\", \"speed\": 1e9, \"link\": {\"latency\": \"0.1 ms\","
        " \"rate\": 1e-9}}]}";
    dls_platform *pl = NULL;
    dls_error err;
    dls_status st = dls_platform_read_string(text, strlen(text), NULL, &pl, &err);
    setlocale(LC_NUMERIC, "C");
    assert_int_equal(st, DLS_OK);
    double s, r;
    dls_platform_link(pl, 0, &s, &r);
    assert_true(s == 1e-4);
    dls_platform_free(pl);
}

static dls_platform *read_ok(const char *text)
{
    dls_platform *pl = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_platform_read_string(text, strlen(text), "t.json", &pl, &err);
    if (st != DLS_OK)
        fail_msg("refused: %s", err.message);
    return pl;
}

/* memory and paging build the line a person would write: continuous at the paging point,
 * paging times as steep; from a constant speed and from one time line. */
TEST(test_paging_line)
{
    dls_platform *pl = read_ok(
        "{\"bytes_per_unit\": 8, \"processors\": ["
        "{\"name\": \"c\", \"speed\": 5e7, \"memory\": \"8 GiB\", \"paging\": 10},"
        "{\"name\": \"t\", \"time\": [[20, 1e-8]], \"memory\": \"16 GB\", \"paging\": 3,"
        " \"bytes_per_unit\": \"16 B\"}]}");
    size_t n;
    const double *a, *b;
    double P = 1073741824.0;
    assert_int_equal(dls_model_get_lines(dls_platform_model(pl, 0), &n, &a, &b), DLS_OK);
    assert_int_equal(n, 2);
    assert_true(a[0] == 0 && b[0] == 1 / 5e7 && b[1] == 10 * (1 / 5e7));
    assert_true(a[1] == (1 / 5e7) * P - b[1] * P);
    assert_rel(dls_model_time(dls_platform_model(pl, 0), P), P / 5e7, 1e-15);
    assert_rel(dls_model_time(dls_platform_model(pl, 0), 2 * P), P / 5e7 + 10 * P / 5e7, 1e-15);
    assert_true(dls_platform_paging_point(pl, 0) == P);
    assert_true(dls_platform_memory(pl, 0) == 8 * P && dls_platform_paging(pl, 0) == 10);
    assert_true(isinf(dls_platform_limit(pl, 0)));
    /* one time line: 20 + 1e-8 x up to 1e9 units (30 s), then three times as steep */
    assert_int_equal(dls_model_get_lines(dls_platform_model(pl, 1), &n, &a, &b), DLS_OK);
    assert_int_equal(n, 2);
    double steep = 3 * 1e-8; /* what the reader computes, to the last bit */
    assert_true(b[1] == steep && a[1] == (20 + 1e-8 * 1e9) - steep * 1e9);
    assert_true(fabs(a[1]) <= 1e-12 * 30); /* 30 s at the point, 30 - 3e-8 x beyond: 0 */
    assert_true(dls_platform_bytes_per_unit(pl, 1) == 16 && dls_platform_paging_point(pl, 1) == 1e9);
    /* the copy keeps them; the text written keeps the bytes per unit and reads back */
    dls_platform *cp = NULL;
    assert_int_equal(dls_platform_copy(pl, &cp, NULL), DLS_OK);
    assert_true(dls_platform_paging_point(cp, 0) == P && dls_platform_bytes_per_unit(cp, 1) == 16);
    char *text = NULL;
    assert_int_equal(dls_platform_to_string(pl, &text, NULL), DLS_OK);
    assert_non_null(strstr(text, "\"bytes_per_unit\": 16"));
    assert_null(strstr(text, "paging"));
    dls_platform *back = read_ok(text);
    assert_true(dls_platform_equal(pl, back));
    assert_true(isnan(dls_platform_paging(back, 0)) && dls_platform_bytes_per_unit(back, 0) == 8);
    dls_free(text);
    /* a new model drops the paging the old one's line said, not the memory */
    assert_int_equal(dls_platform_set_model(cp, 0, dls_platform_model(pl, 1), NULL), DLS_OK);
    assert_true(isnan(dls_platform_paging_point(cp, 0)) && dls_platform_memory(cp, 0) == 8 * P);
    dls_platform_free(back);
    dls_platform_free(cp);
    dls_platform_free(pl);
}

/* memory without paging is the limit; a link in bytes per second becomes seconds per unit;
 * a platform built with the API says none of it. */
TEST(test_limit_and_link)
{
    dls_platform *pl = read_ok(
        "{\"processors\": [{\"name\": \"l\", \"speed\": 1e7, \"memory\": \"16 GB\","
        " \"limit\": 2e9, \"link\": {\"latency\": \"3 ms\", \"bandwidth\": \"6.25 MB/s\"}}],"
        " \"bytes_per_unit\": 8}");
    double s, r;
    assert_true(dls_platform_limit(pl, 0) == 2e9);
    dls_platform_link(pl, 0, &s, &r);
    assert_true(s == 3e-3 && r == 1.28e-6);
    assert_true(isnan(dls_platform_paging_point(pl, 0)) && isnan(dls_platform_paging(pl, 0)));
    assert_true(isnan(dls_platform_memory(pl, 7)) && isnan(dls_platform_bytes_per_unit(NULL, 0)));
    dls_platform_free(pl);
    dls_platform *api = NULL;
    dls_model *m = NULL;
    assert_int_equal(dls_platform_create(&api, NULL), DLS_OK);
    assert_int_equal(dls_model_create_constant(1e9, &m, NULL), DLS_OK);
    assert_int_equal(dls_platform_add(api, "x", m, NULL, NULL), DLS_OK);
    assert_true(isnan(dls_platform_bytes_per_unit(api, 0)) && isnan(dls_platform_memory(api, 0)));
    dls_model_free(m);
    dls_platform_free(api);
}

TEST_MAIN("platform_units", test_sizes, test_bandwidths, test_times, test_locale,
          test_paging_line, test_limit_and_link)
