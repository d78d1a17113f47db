/* CSV import and export (src/import/csv.c): headers and explicit columns, libcsv's quoting,
 * line ends, delimiters, the grouping of rows into points (checked against statistics
 * computed here), every located error with its exact line and column, all-or-nothing
 * imports, the C locale, and export -> import round trips. */
#include <config.h>

#include <limits.h>
#include <unistd.h>

#include "gen.h"
#include "testutil.h"

#include "core/buf.h"
#include "import/import_impl.h"

/* The source name of the texts below, and the processor it names by default. */
#define SRC "data.csv"
#define SRC_BASE "data"

/* Relative tolerance of values computed two ways (here and in the library). */
#define TOL 1e-12

/* Imports text (strlen) with the given columns (NULL: header) into pl; returns the status
 * and fills err; the report, when rep is not NULL. */
static dls_status import_cols(dls_platform *pl, const char *text, const char *columns,
                              dls_import_report **rep, dls_error *err)
{
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.columns = columns;
    return dls_import_csv_string(text, strlen(text), SRC, &par, pl, rep, err);
}

/* Imports text into a new platform, which it returns; the call must succeed. */
static dls_platform *import_ok(const char *text, const dls_csv_params *par,
                               dls_import_report **rep)
{
    dls_platform *pl = test_platform_new();
    dls_error err;
    assert_ok(dls_import_csv_string(text, strlen(text), SRC, par, pl, rep, &err), &err);
    return pl;
}

/* Processor name's points (n of them, bands or NULL). */
static void points_of(const dls_platform *pl, const char *name, size_t *n, const double **sz,
                      const double **sp, const double **lo, const double **hi)
{
    long i = test_platform_index(pl, name);
    if (i < 0)
        fail_msg("no processor \"%s\"", name);
    assert_int_equal(dls_model_get_points(dls_platform_model(pl, (size_t)i), n, sz, sp, lo,
                                          hi),
                     DLS_OK);
}

/* ---------------------------------------------------------------------------------- */

TEST(test_params_init)
{
    dls_csv_params par;
    memset(&par, 0x5a, sizeof par);
    dls_csv_params_init(&par);
    assert_null(par.columns);
    assert_null(par.name);
    assert_int_equal(par.delimiter, ',');
    dls_bench_params bench;
    dls_bench_params_init(&bench);
    assert_true(par.confidence == bench.confidence);
    assert_int_equal(par.replace, 0);
    assert_reserved_zero(par);
    dls_csv_params_init(NULL); /* allowed, does nothing */
}

TEST(test_header_and_columns)
{
    /* a header in any case; the names other tools give the columns (issue 34: a "node"
     * column was ignored, and two nodes became one processor averaging both) */
    static const char *const names[] = {"name", "NODE", "host", "Processor", "worker"};
    static const char *const times[] = {"time", "Seconds", "sec", "S"};
    for (size_t k = 0; k < 5; k++) {
        char text[128];
        snprintf(text, sizeof text, "%s,size,%s\nx,100,0.5\ny,300,2.5\n", names[k],
                 times[k % 4]);
        dls_platform *two = import_ok(text, NULL, NULL);
        assert_int_equal(dls_platform_count(two), 2);
        size_t n1;
        const double *s1, *v1, *l1, *h1;
        points_of(two, "y", &n1, &s1, &v1, &l1, &h1);
        assert_int_equal(n1, 1);
        assert_rel(v1[0], 120, TOL);
        dls_platform_free(two);
    }
    /* a column read as nothing is refused, with what is accepted; "-" is ignored */
    dls_platform *bad = test_platform_new();
    dls_error e2;
    assert_fails(dls_import_csv_string("Comment,size,time\nx,100,0.5\n", 28, SRC, NULL, bad,
                                       NULL, &e2),
                 DLS_ESYNTAX, &e2, "data.csv:1:1: header: column 1, \"Comment\", is not a "
                 "column dlsched reads; accepted: size; time (or seconds, sec, s)");
    assert_int_equal(dls_platform_count(bad), 0);
    dls_platform_free(bad);
    dls_import_report *rep;
    dls_platform *pl = import_ok("-,SIZE,Time\nx,100,0.5\ny,300,2.5\n", NULL, &rep);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sz[0], 100, TOL);
    assert_rel(sp[0], 200, TOL);
    assert_rel(sz[1], 300, TOL);
    assert_rel(sp[1], 120, TOL);
    assert_null(lo);
    assert_non_null(strstr(dls_import_report_notes(rep), "data.csv:1:1: column 1, \"-\", "
                                                          "ignored"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    /* rows of one size far apart, without a name column: averaged, and said */
    pl = import_ok("size,time\n100,1\n100,4\n200,2\n", NULL, &rep);
    assert_non_null(strstr(dls_import_report_notes(rep), "at 1 size the rows' times differ by "
                                                          "more than a factor of 2 (at size "
                                                          "100, 4 times: lines 2 and 3)"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    pl = import_ok("-,SIZE,Time\nx,100,0.5\ny,300,2.5\n", NULL, &rep);
    assert_int_equal(dls_import_report_count(rep), 1);
    const dls_import_item *it = dls_import_report_item(rep, 0);
    assert_string_equal(it->name, SRC_BASE);
    assert_string_equal(it->source, "data.csv, 2 rows");
    assert_int_equal(it->entries, 2);
    assert_int_equal(it->points, 2);
    assert_rel(it->min_size, 100, TOL);
    assert_rel(it->max_size, 300, TOL);
    assert_null(dls_import_report_item(rep, 1));
    dls_import_report_free(rep);

    /* explicit columns without a header, with an ignored column and the name first */
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.columns = " Name , - ,size,time";
    dls_platform *p2 = import_ok("gpu,junk,100,0.5\ngpu,junk,300,2.5\n", &par, NULL);
    points_of(p2, "gpu", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sp[1], 120, TOL);
    dls_platform_free(p2);

    /* explicit columns above a header line: the header (size not a number) is skipped */
    par.columns = "size,time";
    par.name = "cpu";
    dls_platform *p3 = import_ok("# measured\nbytes,seconds\n100,0.5\n300,2.5\n", &par, NULL);
    points_of(p3, "cpu", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_int_equal(dls_platform_count(p3), 1);
    dls_platform_free(p3);

    /* explicit columns that differ from the header's: the columns win */
    par.columns = "size,speed";
    dls_platform *p4 = import_ok("size,time\n100,0.5\n", &par, NULL);
    points_of(p4, "cpu", &n, &sz, &sp, &lo, &hi);
    assert_rel(sp[0], 0.5, TOL);
    dls_platform_free(p4);
    dls_platform_free(pl);
}

TEST(test_quoting_and_lines)
{
    /* quoted fields: the delimiter, doubled quotes and line ends inside, spaces kept;
     * CRLF line ends, comments, empty lines, spaces around unquoted fields, rows of empty
     * fields */
    const char *text = "# a comment\r\n"
                       "\r\n"
                       "-,name,size,time\r\n"
                       "\"two\r\nlines, and \"\"quotes\"\"\",\"a,b \"\"c\"\"\",  100 , 0.5\r\n"
                       ",,,\r\n"
                       "   \r\n"
                       "#another\r\n"
                       "x,\" d \",\" 200\",\"1 \"\r\n"
                       "y,  \"a,b \"\"c\"\"\"  ,300,1.5";
    dls_import_report *rep;
    dls_platform *pl = import_ok(text, NULL, &rep);
    assert_int_equal(dls_platform_count(pl), 2);
    assert_string_equal(dls_platform_name(pl, 0), "a,b \"c\"");
    assert_string_equal(dls_platform_name(pl, 1), " d ");
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, "a,b \"c\"", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sp[0], 200, TOL);
    assert_rel(sp[1], 200, TOL);
    points_of(pl, " d ", &n, &sz, &sp, &lo, &hi);
    assert_rel(sz[0], 200, TOL);
    assert_rel(sp[0], 200, TOL);
    assert_string_equal(dls_import_report_item(rep, 0)->source, "data.csv, 2 rows");
    assert_string_equal(dls_import_report_item(rep, 1)->source, "data.csv, 1 row");
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* a byte order mark first is not part of the first column's name, nor a column */
    dls_error err;
    pl = test_platform_new();
    assert_fails(import_cols(pl, "\xEF\xBB\xBFsize,time\n1,x\n", NULL, NULL, &err), DLS_ESYNTAX,
                 &err, "data.csv:2:3:");
    assert_fails(import_cols(pl, "\xEF\xBB\xBF\"size,time\n", NULL, NULL, &err), DLS_ESYNTAX, &err,
                 "data.csv:1:1: malformed quote: the quoted field that starts here");
    assert_ok(import_cols(pl, "\xEF\xBB\xBF# c\nsize,time\n1,2\n", NULL, NULL, &err), &err);
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_rel(sp[0], 0.5, TOL);
    dls_platform_free(pl);

    /* a lone CR ends lines too, and a '#' inside a quoted field's second line is text */
    pl = import_ok("size,time,-\r100,0.5,\"a\r#b\"\r200,1,\r", NULL, NULL);
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    dls_platform_free(pl);
}

TEST(test_delimiters)
{
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.delimiter = ';';
    dls_platform *pl = import_ok("name;size;time\n\"a;b\";100;0.5\nc,d;100;0.25\n", &par, NULL);
    assert_int_equal(dls_platform_count(pl), 2);
    assert_string_equal(dls_platform_name(pl, 0), "a;b");
    assert_string_equal(dls_platform_name(pl, 1), "c,d");
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, "c,d", &n, &sz, &sp, &lo, &hi);
    assert_rel(sp[0], 400, TOL);
    dls_platform_free(pl);

    /* a decimal comma is not a number, even with ';' */
    dls_error err;
    pl = test_platform_new();
    assert_fails(dls_import_csv_string("size;time\n1;0,5\n", 16, SRC, &par, pl, NULL, &err),
                 DLS_ESYNTAX, &err, "data.csv:2:3: column \"time\": \"0,5\" is not a number");

    /* tabs: a delimiter, so never a space to trim */
    par.delimiter = '\t';
    dls_platform_free(pl);
    pl = import_ok("size\ttime\tname\n100\t0.5\t a b \n\t\t\n200\t 2 \t a b \n", &par, NULL);
    points_of(pl, "a b", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sp[1], 100, TOL);
    dls_platform_free(pl);
}

TEST(test_names_and_order)
{
    /* a name column splits processors, in the order first seen; sizes in any order */
    dls_import_report *rep;
    dls_platform *pl = import_ok("size,name,time\n"
                                 "300,gpu,0.1\n"
                                 "100,cpu,1\n"
                                 "100,gpu,0.05\n"
                                 "200,fpga,0.5\n"
                                 "200,cpu,2\n",
                                 NULL, &rep);
    assert_int_equal(dls_platform_count(pl), 3);
    assert_string_equal(dls_platform_name(pl, 0), "gpu");
    assert_string_equal(dls_platform_name(pl, 1), "cpu");
    assert_string_equal(dls_platform_name(pl, 2), "fpga");
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, "gpu", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_rel(sz[0], 100, TOL);
    assert_rel(sp[0], 2000, TOL);
    assert_rel(sp[1], 3000, TOL);
    assert_int_equal(dls_import_report_count(rep), 3);
    for (size_t k = 0; k < 3; k++)
        assert_int_equal(dls_import_report_item(rep, k)->index, k);
    assert_string_equal(dls_import_report_item(rep, 2)->source, "data.csv, 1 row");
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* without a name column: params->name, else the base name without its extension */
    dls_error err;
    pl = test_platform_new();
    assert_ok(dls_import_csv_string("size,time\n1,1\n", 14, "dir.d/run.v2.csv", NULL, pl, NULL,
                                    &err),
              &err);
    assert_string_equal(dls_platform_name(pl, 0), "run.v2");
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.name = "given";
    assert_ok(dls_import_csv_string("size,time\n1,1\n", 14, "x.csv", &par, pl, NULL, &err),
              &err);
    assert_string_equal(dls_platform_name(pl, 1), "given");
    dls_platform_free(pl);
}

/* The sample mean and standard deviation of x[0..n). */
static void mean_sd(const double *x, size_t n, double *mean, double *sd)
{
    double s = 0;
    for (size_t k = 0; k < n; k++)
        s += x[k];
    *mean = s / (double)n;
    double ss = 0;
    for (size_t k = 0; k < n; k++)
        ss += (x[k] - *mean) * (x[k] - *mean);
    *sd = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;
}

TEST(test_one_row_per_run)
{
    /* runs of two sizes, interleaved */
    static const double t1[] = {1.013, 0.987, 1.042, 0.998, 1.021};
    static const double t2[] = {2.385, 2.291, 2.410};
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "size,time\n");
    for (size_t k = 0; k < 5; k++) {
        dls__buf_put(&b, "1000,%.17g\n", t1[k]);
        if (k < 3)
            dls__buf_put(&b, "2500,%.17g\n", t2[k]);
    }
    char *text = dls__buf_take(&b);
    dls_import_report *rep;
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.confidence = 0.9;
    dls_platform *pl = import_ok(text, &par, &rep);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_non_null(lo);
    double mean, sd, s, l, h;
    mean_sd(t1, 5, &mean, &sd);
    dls__import_band(1000, mean, sd, 5, 0.9, &s, &l, &h);
    assert_rel(sp[0], s, TOL);
    assert_rel(lo[0], l, TOL);
    assert_rel(hi[0], h, TOL);
    assert_true(lo[0] < sp[0] && sp[0] < hi[0]);
    mean_sd(t2, 3, &mean, &sd);
    dls__import_band(2500, mean, sd, 3, 0.9, &s, &l, &h);
    assert_rel(sp[1], s, TOL);
    assert_rel(lo[1], l, TOL);
    assert_rel(hi[1], h, TOL);
    assert_int_equal(dls_import_report_item(rep, 0)->entries, 8);
    assert_int_equal(dls_import_report_item(rep, 0)->few, 0);
    assert_string_equal(dls_import_report_notes(rep), "");
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* a size with a single run: its band is its speed alone, and a note */
    size_t len = strlen(text);
    text = realloc(text, len + 32);
    assert_non_null(text);
    strcpy(text + len, "4000,3.5\n");
    pl = import_ok(text, NULL, &rep);
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 3);
    assert_non_null(lo);
    assert_rel(sp[2], 4000 / 3.5, TOL);
    assert_rel(lo[2], sp[2], TOL);
    assert_rel(hi[2], sp[2], TOL);
    assert_int_equal(dls_import_report_item(rep, 0)->few, 1);
    /* one point: "has", "its" (issue 36: plurals right) */
    assert_non_null(strstr(dls_import_report_notes(rep), "processor \"data\": 1 of 3 points "
                                                          "has no band (a single run, line "
                                                          "10): its band is its speed alone"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    free(text);
}

TEST(test_stddev_count_pooling)
{
    /* raw runs split into rows of (mean, sample sd, count): the pooled point must be the
     * one of all the runs together */
    static const double runs[] = {0.512, 0.498, 0.505, 0.531, 0.487, 0.502, 0.519, 0.494, 0.508};
    static const size_t split[] = {4, 1, 4}; /* a row of one run in the middle */
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "size,time,stddev,count\n");
    size_t at = 0;
    for (size_t r = 0; r < 3; r++) {
        double m, sd;
        mean_sd(runs + at, split[r], &m, &sd);
        if (split[r] == 1)
            dls__buf_put(&b, "64,%.17g,,\n", m); /* one run: stddev and count empty */
        else
            dls__buf_put(&b, "64,%.17g,%.17g,%zu\n", m, sd, split[r]);
        at += split[r];
    }
    dls__buf_put(&b, "128,1.25,0.05,10\n"); /* one row: its band directly */
    char *text = dls__buf_take(&b);
    dls_platform *pl = import_ok(text, NULL, NULL);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_non_null(lo);
    double mean, sd, s, l, h;
    mean_sd(runs, 9, &mean, &sd);
    dls__import_band(64, mean, sd, 9, 0.95, &s, &l, &h);
    assert_rel(sp[0], s, TOL);
    assert_rel(lo[0], l, 1e-10);
    assert_rel(hi[0], h, 1e-10);
    dls__import_band(128, 1.25, 0.05, 10, 0.95, &s, &l, &h);
    assert_rel(sp[1], s, TOL);
    assert_rel(lo[1], l, TOL);
    assert_rel(hi[1], h, TOL);
    dls_platform_free(pl);
    free(text);

    /* a row of count 1 (with a deviation that means nothing) gives no spread: noted */
    dls_import_report *rep;
    pl = import_ok("size,time,stddev,count\n64,0.5,0.01,5\n128,1,0.3,1\n", NULL, &rep);
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_non_null(lo);
    assert_rel(lo[1], sp[1], TOL);
    assert_rel(hi[1], sp[1], TOL);
    assert_rel(sp[1], 128, TOL);
    assert_non_null(strstr(dls_import_report_notes(rep), "(a single run, line 3)"));
    assert_int_equal(dls_import_report_item(rep, 0)->few, 1);
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* every size a single run */
    pl = import_ok("size,time\n64,0.5\n128,1\n", NULL, &rep);
    assert_non_null(strstr(dls_import_report_notes(rep), "no point has a band (each size has "
                                                          "a single run)"));
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* counts beyond what an unsigned holds, pooled: the band still comes */
    pl = import_ok("size,time,stddev,count\n1,1,0.1,1e9\n1,1,0.1,1e9\n1,1,0.1,1e9\n"
                   "1,1,0.1,1e9\n1,1,0.1,1e9\n",
                   NULL, NULL);
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_non_null(lo);
    dls__import_band(1, 1, 0.1, UINT_MAX, 0.95, &s, &l, &h);
    assert_rel(lo[0], l, 1e-6);
    dls_platform_free(pl);
}

TEST(test_speed_columns)
{
    dls_import_report *rep;
    dls_platform *pl = import_ok("size,speed,low,high,name\n"
                                 "100,50,40,60,g\n"
                                 "200,80,80,80,g\n"
                                 "50,20,,,h\n"
                                 "100,30,25,31,h\n",
                                 NULL, &rep);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, "g", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    assert_non_null(lo);
    assert_rel(lo[0], 40, TOL);
    assert_rel(hi[0], 60, TOL);
    assert_rel(lo[1], 80, TOL);
    points_of(pl, "h", &n, &sz, &sp, &lo, &hi);
    assert_non_null(lo); /* the point without a band has its speed alone */
    assert_rel(lo[0], sp[0], TOL);
    assert_rel(hi[0], sp[0], TOL);
    assert_rel(sz[0], 50, TOL);
    assert_non_null(strstr(dls_import_report_notes(rep), "processor \"h\": 1 of 2 points has "
                                                          "no band (low and high empty, line "
                                                          "4)"));
    dls_import_report_free(rep);
    dls_platform_free(pl);

    /* speeds without band columns: no note */
    pl = import_ok("size,speed\n100,50\n", NULL, &rep);
    assert_string_equal(dls_import_report_notes(rep), "");
    dls_import_report_free(rep);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Errors */

typedef struct {
    const char *columns; /* NULL: a header */
    const char *text;
    size_t len;          /* 0: strlen(text) */
    dls_status status;
    int line, col;
    const char *part;    /* in the message, after "data.csv:LINE:COL: " */
} bad_case;

static const bad_case bad_cases[] = {
    {NULL, "size,time\n1,2\"3\n", 0, DLS_ESYNTAX, 2, 4, "a quote inside an unquoted field"},
    {NULL, "size,time\n1,\"2\"3\n", 0, DLS_ESYNTAX, 2, 6,
     "malformed quote: '3' after the closing quote of the field that starts at 2:3"},
    {NULL, "size,time\n1,\"2\" \"\n", 0, DLS_ESYNTAX, 2, 7, "after the closing quote"},
    {NULL, "size,time\n1,\"2\n3,4\n", 0, DLS_ESYNTAX, 2, 3, "is never closed"},
    {NULL, "size,\"ti\"me\n", 0, DLS_ESYNTAX, 1, 10, "malformed quote"},
    {NULL, "size,time\n1,abc\n", 0, DLS_ESYNTAX, 2, 3, "column \"time\": \"abc\" is not a number"},
    {NULL, "size,time\n1,1.5s\n", 0, DLS_ESYNTAX, 2, 3, "\"1.5s\" is not a number"},
    {NULL, "size,time\n1,\n", 0, DLS_ESYNTAX, 2, 3, "column \"time\" is empty"},
    {NULL, "size,time\n1,\"\"\n", 0, DLS_ESYNTAX, 2, 3, "column \"time\" is empty"},
    {NULL, "size,time\nx1,1\n", 0, DLS_ESYNTAX, 2, 1, "column \"size\": \"x1\" is not a number"},
    {NULL, "size,time\n1,-2\n", 0, DLS_EDATA, 2, 3, "column \"time\": -2 is not a time"},
    {NULL, "size,time\n1,0\n", 0, DLS_EDATA, 2, 3, "column \"time\": 0 is not a time"},
    {NULL, "size,time\n1,nan\n", 0, DLS_EDATA, 2, 3, "column \"time\": nan is not a finite"},
    {NULL, "size,time\n1, -inf\n", 0, DLS_EDATA, 2, 4, "is not a finite number"},
    {NULL, "size,time\n1,1e999\n", 0, DLS_EDATA, 2, 3, "inf is not a finite number"},
    {NULL, "size,time\n0,1\n", 0, DLS_EDATA, 2, 1, "column \"size\": 0 is not a size"},
    {NULL, "size,time\n-3,1\n", 0, DLS_EDATA, 2, 1, "column \"size\": -3 is not a size"},
    {NULL, "size,time,stddev,count\n1,1,-0.1,3\n", 0, DLS_EDATA, 2, 5,
     "column \"stddev\": -0.10000000000000001 is negative"},
    {NULL, "size,time,stddev,count\n1,1,0.1,0\n", 0, DLS_EDATA, 2, 9,
     "column \"count\": 0 is not a count"},
    {NULL, "size,time,stddev,count\n1,1,0.1,2.5\n", 0, DLS_EDATA, 2, 9,
     "column \"count\": 2.5 is not a whole number"},
    {NULL, "size,time,stddev,count\n1,1,0.1,1e10\n", 0, DLS_EDATA, 2, 9, "is too large a count"},
    {NULL, "size,time,stddev,count\n1,1,0.1,\n", 0, DLS_ESYNTAX, 2, 9, "\"count\" is empty"},
    {NULL, "size,time,stddev,count\n1,1,,3\n", 0, DLS_ESYNTAX, 2, 5, "\"stddev\" is empty"},
    {NULL, "size,time,stddev,count\n1,1,x,3\n", 0, DLS_ESYNTAX, 2, 5, "\"x\" is not a number"},
    {NULL, "size,speed\n1,0\n", 0, DLS_EDATA, 2, 3, "column \"speed\": 0 is not a speed"},
    {NULL, "size,speed,low,high\n1,2,3,4\n", 0, DLS_EDATA, 2, 5,
     "column \"low\": 3 is above the row's speed"},
    {NULL, "size,speed,low,high\n1,2,1,1.5\n", 0, DLS_EDATA, 2, 7,
     "column \"high\": 1.5 is below the row's speed"},
    {NULL, "size,speed,low,high\n1,2,0,3\n", 0, DLS_EDATA, 2, 5, "column \"low\": 0 is not a"},
    {NULL, "size,speed,low,high\n1,2,1,-3\n", 0, DLS_EDATA, 2, 7, "column \"high\": -3 is not"},
    {NULL, "size,speed,low,high\n1,2,1,\n", 0, DLS_ESYNTAX, 2, 7, "column \"high\" is empty"},
    {NULL, "size,speed,low,high\n1,2,,3\n", 0, DLS_ESYNTAX, 2, 5, "column \"low\" is empty"},
    {NULL, "size,speed\n1,2\n# again\n1,3\n", 0, DLS_EDATA, 4, 1,
     "processor \"data\": size 1 appears twice (also line 2)"},
    {NULL, "size,time\n1\n", 0, DLS_ESYNTAX, 2, 2,
     "the row has 1 field where 2 columns are expected: a missing column"},
    {NULL, "size,time\n1,", 0, DLS_ESYNTAX, 2, 3, "column \"time\" is empty"}, /* at the end */
    {NULL, "size,time\n1,2,3\n", 0, DLS_ESYNTAX, 2, 5, "the row has 3 fields where 2 columns"},
    {NULL, "time\n1\n", 0, DLS_ESYNTAX, 1, 1, "header: no \"size\" column"},
    {NULL, "size,time,speed\n", 0, DLS_ESYNTAX, 1, 1, "both a \"time\" and a \"speed\" column"},
    {NULL, "size,name\n", 0, DLS_ESYNTAX, 1, 1, "neither a \"time\" nor a \"speed\" column"},
    {NULL, "size,speed,stddev,count\n", 0, DLS_ESYNTAX, 1, 1, "without a \"time\" column"},
    {NULL, "size,time,stddev\n", 0, DLS_ESYNTAX, 1, 1, "\"stddev\" without \"count\""},
    {NULL, "size,time,high\n", 0, DLS_ESYNTAX, 1, 1, "without a \"speed\" column"},
    {NULL, "size,speed,low\n", 0, DLS_ESYNTAX, 1, 1, "\"low\" without \"high\""},
    {NULL, "size,time,Size\n", 0, DLS_ESYNTAX, 1, 11,
     "column \"size\" appears twice in the header (columns 1 and 3)"},
    {NULL, "", 0, DLS_ESYNTAX, 1, 1, "no header line (the input is empty)"},
    {NULL, "# only\n\n  \n", 0, DLS_ESYNTAX, 4, 1, "no header line"},
    {NULL, "size,time\n", 0, DLS_ESYNTAX, 2, 1, "no data row"},
    {NULL, "size,time\n# x", 0, DLS_ESYNTAX, 2, 4, "no data row"},
    {"size,time", "bytes,seconds\n", 0, DLS_ESYNTAX, 2, 1, "no data row"},
    {"size,time", "1,2\nx,3\n", 0, DLS_ESYNTAX, 2, 1, "column \"size\": \"x\" is not a number"},
    {NULL, "size,time\n1,2\0\n", 15, DLS_ESYNTAX, 2, 4, "a NUL byte"},
    {NULL, "# a\0\nsize,time\n", 15, DLS_ESYNTAX, 1, 4, "a NUL byte"},
    {NULL, "name,size,time\n\"\",1,2\n", 0, DLS_EDATA, 2, 1,
     "column \"name\": the processor name \"\" is empty"},
    {NULL, "name,size,time\n\"a\nb\",1,2\n", 0, DLS_EDATA, 2, 1,
     "the processor name \"a\\u000ab\" has a control character"},
    {NULL, "name,size,time\n\"\xff\",1,2\n", 0, DLS_EDATA, 2, 1, "is not valid UTF-8"},
    /* positions after a quoted field over two lines, CRLF, a lone CR, tabs */
    {NULL, "-,size,time\n\"x\ny\",1,2\n\"z\",1,abc\n", 0, DLS_ESYNTAX, 4, 7, "\"abc\""},
    {NULL, "size,time\r\n1,2\r\n3,x\r\n", 0, DLS_ESYNTAX, 3, 3, "\"x\" is not a number"},
    {NULL, "size,time\r1,x\r", 0, DLS_ESYNTAX, 2, 3, "\"x\" is not a number"},
    {NULL, "size,time\n\n\n  1 ,   -1\n", 0, DLS_EDATA, 4, 9, "-1 is not a time"},
};

static void check_bad(const bad_case *c, dls_platform *pl, const dls_platform *before)
{
    dls_error err;
    dls_import_report *rep = (dls_import_report *)&err; /* must be set to NULL */
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.columns = c->columns;
    size_t len = c->len ? c->len : strlen(c->text);
    dls_error_clear(&err);
    dls_status st = dls_import_csv_string(c->text, len, SRC, &par, pl, &rep, &err);
    char at[64];
    snprintf(at, sizeof at, SRC ":%d:%d: ", c->line, c->col);
    if (st != c->status || err.status != c->status || err.line != c->line ||
        err.column != c->col || strncmp(err.message, at, strlen(at)) != 0 ||
        strstr(err.message, c->part) == NULL)
        fail_msg("input \"%s\": got %s (%d:%d) \"%s\", wanted %s \"%s%s\"", c->text,
                 dls_status_name(st), err.line, err.column, err.message,
                 dls_status_name(c->status), at, c->part);
    assert_null(rep);
    assert_true(dls_platform_equal(pl, before));
}

TEST(test_located_errors)
{
    /* into a platform that already holds a processor: a rejected input changes nothing */
    dls_platform *pl = test_platform_new();
    test_add(pl, "data", gen_constant(3.5));
    dls_error err;
    assert_ok(dls_platform_set_limit(pl, 0, 1e6, &err), &err);
    dls_platform *before;
    assert_ok(dls_platform_copy(pl, &before, &err), &err);
    for (size_t k = 0; k < sizeof bad_cases / sizeof bad_cases[0]; k++)
        check_bad(&bad_cases[k], pl, before);
    dls_platform_free(before);
    dls_platform_free(pl);
}

TEST(test_limits)
{
    dls_platform *pl = test_platform_new();
    dls_error err;
    /* a field longer than any name: refused where it starts */
    size_t big = DLS_PLATFORM_NAME_MAX + 1;
    char *text = malloc(big + 64);
    assert_non_null(text);
    strcpy(text, "name,size,time\n");
    size_t at = strlen(text);
    memset(text + at, 'n', big);
    strcpy(text + at + big, ",1,2\n");
    assert_fails(dls_import_csv_string(text, strlen(text), SRC, NULL, pl, NULL, &err),
                 DLS_ELIMIT, &err, "data.csv:2:1: a field of 4097 bytes, more than the 4096");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 1);
    /* the longest name is fine */
    strcpy(text + at + big - 1, ",1,2\n");
    assert_ok(dls_import_csv_string(text, strlen(text), SRC, NULL, pl, NULL, &err), &err);
    assert_int_equal(strlen(dls_platform_name(pl, 0)), DLS_PLATFORM_NAME_MAX);
    free(text);
    /* more text than an import reads: refused before a byte is looked at */
    assert_fails(dls_import_csv_string("", (size_t)DLS__IMPORT_FILE_MAX + 1, SRC, NULL, pl,
                                       NULL, &err),
                 DLS_ELIMIT, &err, "dls_import_csv_string: data.csv: 1073741825 bytes");
    dls_platform_free(pl);
    /* many processors, interleaved, each of single runs: every one found again by its name,
     * and the notes about them capped (the 25 notes become 20 and a count) */
    char *many = malloc(64 * 1024);
    assert_non_null(many);
    size_t w = (size_t)sprintf(many, "name,size,time\n");
    for (int r = 1; r <= 2; r++)
        for (int k = 0; k < 25; k++)
            w += (size_t)sprintf(many + w, "p%d,%d,%d\n", k, 10 * r, r);
    dls_import_report *rep = NULL;
    pl = import_ok(many, NULL, &rep);
    assert_int_equal(dls_platform_count(pl), 25);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, "p24", &n, &sz, &sp, &lo, &hi);
    assert_int_equal(n, 2);
    const char *notes = dls_import_report_notes(rep);
    assert_int_equal(test_count(notes, "\n"), 20); /* 21 lines */
    assert_non_null(strstr(notes, "data.csv: 5 more notes like these left out"));
    dls_import_report_free(rep);
    dls_platform_free(pl);
    free(many);
}

TEST(test_bad_params)
{
    dls_platform *pl = test_platform_new();
    dls_platform *before;
    dls_error err;
    assert_ok(dls_platform_copy(pl, &before, &err), &err);
    const char *ok = "size,time\n1,1\n";
    size_t len = strlen(ok);
    dls_csv_params par;
#define BAD(field_set, part)                                                               \
    do {                                                                                   \
        dls_csv_params_init(&par);                                                         \
        field_set;                                                                         \
        assert_fails(dls_import_csv_string(ok, len, SRC, &par, pl, NULL, &err), DLS_EINVAL, \
                     &err, part);                                                          \
        assert_true(dls_platform_equal(pl, before));                                       \
    } while (0)
    BAD(par.reserved[7] = 1, "dls_import_csv_string");
    BAD(par.delimiter = '|', "dls_import_csv_string: the delimiter must be ',', ';' or a tab");
    BAD(par.delimiter = '\0', "not 0x00");
    BAD(par.confidence = 0, "confidence must be in (0, 1), not 0");
    BAD(par.confidence = 1, "confidence must be in (0, 1), not 1");
    BAD(par.confidence = NAN, "confidence must be in (0, 1)");
    BAD(par.name = "", "the name \"\" is empty");
    BAD(par.name = "a\tb", "control character");
    BAD(par.columns = "size,tim", "columns \"size,tim\": column 2, \"tim\", is not a column dlsched reads; accepted: size; "
                 "time (or seconds, sec, s)");
    BAD(par.columns = "", "column 1, \"\", is not a column dlsched reads");
    BAD(par.columns = "size,time,", "column 3, \"\", is not a column dlsched reads");
    BAD(par.columns = "size,time,SIZE", "\"size\" appears twice");
    BAD(par.columns = "size,-,-", "neither a \"time\" nor a \"speed\" column");
    BAD(par.columns = "time,speed", "no \"size\" column");
    BAD(par.columns = "size,time,speed", "both a \"time\" and a \"speed\" column");
    BAD(par.columns = "size,speed,count,stddev", "without a \"time\" column");
    BAD(par.columns = "size,time,count", "\"count\" without \"stddev\"");
    BAD(par.columns = "size,time,low,high", "without a \"speed\" column");
    BAD(par.columns = "size,speed,high", "\"high\" without \"low\"");
#undef BAD
    /* NULL arguments */
    assert_fails(dls_import_csv_string(NULL, 3, SRC, NULL, pl, NULL, &err), DLS_EINVAL, &err,
                 "NULL argument");
    assert_fails(dls_import_csv_string(ok, len, NULL, NULL, pl, NULL, &err), DLS_EINVAL, &err,
                 "NULL argument");
    assert_fails(dls_import_csv_string(ok, len, SRC, NULL, NULL, NULL, &err), DLS_EINVAL, &err,
                 "NULL argument");
    assert_fails(dls_import_csv_file(NULL, NULL, pl, NULL, &err), DLS_EINVAL, &err,
                 "dls_import_csv_file: NULL argument");
    assert_fails(dls_import_csv_file("x.csv", NULL, NULL, NULL, &err), DLS_EINVAL, &err,
                 "NULL argument");
    /* an empty text with a NULL pointer is an empty file */
    assert_fails(dls_import_csv_string(NULL, 0, SRC, NULL, pl, NULL, &err), DLS_ESYNTAX, &err,
                 "no header line");
    assert_true(dls_platform_equal(pl, before));
    /* a NULL error record is allowed */
    assert_int_equal(dls_import_csv_string("size,time\n1,x\n", 14, SRC, NULL, pl, NULL, NULL),
                     DLS_ESYNTAX);
    dls_platform_free(before);
    dls_platform_free(pl);
}

TEST(test_replace)
{
    dls_platform *pl = test_platform_new();
    test_add(pl, "cpu", gen_constant(3.5));
    test_add(pl, "other", gen_constant(1.5));
    dls_error err;
    assert_ok(dls_platform_set_limit(pl, 0, 1e6, &err), &err);
    assert_ok(dls_platform_set_link(pl, 0, 0.25, 1e9, &err), &err);
    dls_platform *before;
    assert_ok(dls_platform_copy(pl, &before, &err), &err);
    const char *text = "name,size,time\nnew,1,1\ncpu,100,0.5\n";
    /* without replace: refused, nothing added (not even "new") */
    assert_fails(import_cols(pl, text, NULL, NULL, &err), DLS_EINVAL, &err,
                 "processor \"cpu\" is already in the platform");
    assert_true(dls_platform_equal(pl, before));
    /* with replace: the model is replaced, the limit and link kept */
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.replace = 1;
    dls_import_report *rep;
    assert_ok(dls_import_csv_string(text, strlen(text), SRC, &par, pl, &rep, &err), &err);
    assert_int_equal(dls_platform_count(pl), 3);
    assert_int_equal(dls_model_get_kind(dls_platform_model(pl, 0)), DLS_MODEL_POINTS);
    assert_rel(dls_platform_limit(pl, 0), 1e6, TOL);
    double startup, rate;
    assert_ok(dls_platform_link(pl, 0, &startup, &rate), &err);
    assert_rel(startup, 0.25, TOL);
    assert_string_equal(dls_platform_name(pl, 2), "new");
    assert_int_equal(dls_import_report_item(rep, 0)->index, 2);
    assert_int_equal(dls_import_report_item(rep, 1)->index, 0);
    dls_import_report_free(rep);
    dls_platform_free(before);
    dls_platform_free(pl);
}

TEST(test_locale_ignored)
{
    const char *comma = test_decimal_comma_or_skip();
    if (comma == NULL)
        return;
    printf("# LC_NUMERIC=%s\n", comma);
    dls_platform *pl = import_ok("size,time,stddev,count\n1.5,0.25,0.125,4\n", NULL, NULL);
    size_t n;
    const double *sz, *sp, *lo, *hi;
    points_of(pl, SRC_BASE, &n, &sz, &sp, &lo, &hi);
    assert_rel(sz[0], 1.5, TOL);
    assert_rel(sp[0], 6, TOL);
    dls_error err;
    /* a decimal comma is still not a number */
    assert_fails(import_cols(pl, "size,time\n\"1,5\",1\n", NULL, NULL, &err), DLS_ESYNTAX, &err,
                 "is not a number");
    char *out;
    assert_ok(dls_platform_csv_to_string(pl, 0, &out, &err), &err);
    assert_non_null(strstr(out, ",1.5,6,"));
    /* the process's locale is the caller's again */
    test_decimal_comma_kept();
    dls_platform *back = import_ok(out, NULL, NULL);
    assert_true(dls_platform_equal(pl, back));
    dls_free(out);
    dls_platform_free(back);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Files */

TEST(test_files)
{
    char dir[] = "/tmp/dlsched-csv.XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/timings.gpu.csv", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("size,time\n100,0.5\n200,x\n", f);
    fclose(f);
    dls_platform *pl = test_platform_new();
    dls_error err;
    char want[192];
    snprintf(want, sizeof want, "%s:3:5: column \"time\": \"x\" is not a number", path);
    assert_fails(dls_import_csv_file(path, NULL, pl, NULL, &err), DLS_ESYNTAX, &err, want);
    f = fopen(path, "wb");
    assert_non_null(f);
    fputs("size,time\n100,0.5\n200,2\n", f);
    fclose(f);
    dls_import_report *rep;
    assert_ok(dls_import_csv_file(path, NULL, pl, &rep, &err), &err);
    assert_string_equal(dls_platform_name(pl, 0), "timings.gpu");
    snprintf(want, sizeof want, "%s, 2 rows", path);
    assert_string_equal(dls_import_report_item(rep, 0)->source, want);
    dls_import_report_free(rep);
    /* files that cannot be read */
    assert_fails(dls_import_csv_file(dir, NULL, pl, NULL, &err), DLS_EIO, &err,
                 "is a directory");
    snprintf(want, sizeof want, "%s/none.csv", dir);
    assert_fails(dls_import_csv_file(want, NULL, pl, NULL, &err), DLS_EIO, &err,
                 "cannot open");
    unlink(path);
    rmdir(dir);
    dls_platform_free(pl);
}

/* ---------------------------------------------------------------------------------- */
/* Export */

TEST(test_export)
{
    static const double x[] = {1, 2.5, 1e6};
    static const double s[] = {3.25, 0.1, 7e-3};
    static const double l[] = {3, 0.05, 7e-3};
    static const double h[] = {3.5, 0.1, 1};
    dls_platform *pl = test_platform_new();
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_points(3, x, s, l, h, &m, &err), &err);
    test_add(pl, "plain", m);
    test_add(pl, "a \"quoted\", name", gen_points(3, x, s));
    char *out;
    assert_ok(dls_platform_csv_to_string(pl, 1, &out, &err), &err);
    assert_string_equal(out, "name,size,speed,low,high\n"
                             "\"a \"\"quoted\"\", name\",1,3.25,,\n"
                             "\"a \"\"quoted\"\", name\",2.5,0.1,,\n"
                             "\"a \"\"quoted\"\", name\",1e6,0.007,,\n");
    dls_free(out);
    assert_ok(dls_platform_csv_to_string(pl, 0, &out, &err), &err);
    assert_string_equal(out, "name,size,speed,low,high\n"
                             "plain,1,3.25,3,3.5\n"
                             "plain,2.5,0.1,0.05,0.1\n"
                             "plain,1e6,0.007,0.007,1\n");
    dls_free(out);
    /* everything, read back */
    assert_ok(dls_platform_csv_to_string(pl, (size_t)-1, &out, &err), &err);
    dls_platform *back = import_ok(out, NULL, NULL);
    assert_true(dls_platform_equal(pl, back));
    dls_platform_free(back);
    dls_free(out);

    /* errors */
    assert_fails(dls_platform_csv_to_string(pl, 2, &out, &err), DLS_EINVAL, &err,
                 "dls_platform_csv_to_string: processor 2 is out of range (the platform has 2)");
    test_add(pl, "const", gen_constant(2));
    assert_fails(dls_platform_csv_to_string(pl, (size_t)-1, &out, &err), DLS_EINVAL, &err,
                 "processor \"const\" has a constant model");
    assert_int_equal(err.processor, 2);
    assert_fails(dls_platform_csv_to_string(pl, 2, &out, &err), DLS_EINVAL, &err, "only speed points");
    assert_fails(dls_platform_csv_to_string(NULL, 0, &out, &err), DLS_EINVAL, &err, "NULL argument");
    assert_fails(dls_platform_csv_to_string(pl, 0, NULL, &err), DLS_EINVAL, &err, "NULL argument");
    dls_platform_free(pl);

    /* an empty platform: the header alone */
    pl = test_platform_new();
    assert_ok(dls_platform_csv_to_string(pl, (size_t)-1, &out, &err), &err);
    assert_string_equal(out, "name,size,speed,low,high\n");
    dls_free(out);
    dls_platform_free(pl);
}

/* Names that need quoting, or look as if they did. */
static const char *const odd_names[] = {
    "comma,name", "say \"hi\"", " leading", "trailing ", "x y", "#hash", "caf\xc3\xa9 \xe6\x97\xa5",
    "semi;colon", "size", "a\"", "\"", "-", "plain", "with  spaces  inside", "'single'",
    "back\\slash",
};
#define N_ODD (sizeof odd_names / sizeof odd_names[0])

TEST(test_export_odd_names)
{
    dls_platform *pl = test_platform_new();
    static const double x[] = {2, 3};
    static const double s[] = {5, 6};
    for (size_t k = 0; k < N_ODD; k++)
        test_add(pl, odd_names[k], gen_points(2, x, s));
    dls_error err;
    char *out;
    assert_ok(dls_platform_csv_to_string(pl, (size_t)-1, &out, &err), &err);
    dls_platform *back = import_ok(out, NULL, NULL);
    for (size_t k = 0; k < N_ODD; k++)
        assert_string_equal(dls_platform_name(back, k), odd_names[k]);
    assert_true(dls_platform_equal(pl, back));
    dls_platform_free(back);
    dls_free(out);
    dls_platform_free(pl);
}

/* Random points platforms, banded or not, with odd names: export then import is the
 * identity. */
RANDOM_TEST(test_random_roundtrip, 0x15c5, 60)
{
    dls_platform *pl = test_platform_new();
    size_t np = 1 + (size_t)test_below(r, 4);
    for (size_t i = 0; i < np; i++) {
        size_t n = 1 + (size_t)test_below(r, 12);
        double x[12], s[12], l[12], h[12];
        double at = test_logrange(r, 1e-3, 1e3);
        for (size_t k = 0; k < n; k++) {
            at *= 1 + test_logrange(r, 1e-9, 10);
            x[k] = at;
            s[k] = test_logrange(r, 1e-6, 1e9);
            l[k] = s[k] * (1 - test_unif(r) * 0.9);
            h[k] = s[k] * (1 + test_unif(r) * 3);
        }
        int banded = test_below(r, 2) == 0;
        dls_model *m;
        dls_error err;
        assert_ok(dls_model_create_points(n, x, s, banded ? l : NULL, banded ? h : NULL, &m,
                                          &err),
                  &err);
        char name[64];
        snprintf(name, sizeof name, "%s%zu", odd_names[test_below(r, N_ODD)], i);
        test_add(pl, name, m);
    }
    dls_error err;
    char *out;
    assert_ok(dls_platform_csv_to_string(pl, (size_t)-1, &out, &err), &err);
    dls_platform *back = import_ok(out, NULL, NULL);
    if (!dls_platform_equal(pl, back))
        fail_msg("trial %d: the platform read back differs; the CSV:\n%s", trial, out);
    dls_platform_free(back);
    dls_free(out);
    dls_platform_free(pl);
}

/* Random runs written one row per run, shuffled, for random processors: each point is
 * the band of the mean and spread of its runs, computed here. */
RANDOM_TEST(test_random_runs, 0x15c6, 40)
{
    enum { PROCS = 3, SIZES = 4, RUNS = 6 };
    double t[PROCS][SIZES][RUNS];
    size_t nrun[PROCS][SIZES];
    size_t order[PROCS * SIZES * RUNS][3], nrows = 0;
    for (size_t p = 0; p < PROCS; p++)
        for (size_t s = 0; s < SIZES; s++) {
            nrun[p][s] = 2 + (size_t)test_below(r, RUNS - 1);
            double base = test_logrange(r, 1e-5, 1e2);
            for (size_t k = 0; k < nrun[p][s]; k++) {
                t[p][s][k] = base * test_range(r, 0.8, 1.25);
                order[nrows][0] = p;
                order[nrows][1] = s;
                order[nrows][2] = k;
                nrows++;
            }
        }
    for (size_t k = nrows; k > 1; k--) { /* shuffle the rows */
        size_t j = (size_t)test_below(r, k);
        for (int c = 0; c < 3; c++) {
            size_t tmp = order[k - 1][c];
            order[k - 1][c] = order[j][c];
            order[j][c] = tmp;
        }
    }
    dls__buf b = DLS__BUF_INIT;
    dls__buf_put(&b, "time;proc;size\n");
    for (size_t k = 0; k < nrows; k++) {
        size_t p = order[k][0], s = order[k][1];
        dls__buf_put(&b, "%.17g;p%zu;%zu\n", t[p][s][order[k][2]], p, 100 * (s + 1));
    }
    char *text = dls__buf_take(&b);
    dls_csv_params par;
    dls_csv_params_init(&par);
    par.delimiter = ';';
    par.columns = "time,name,size";
    par.confidence = test_range(r, 0.5, 0.99);
    dls_platform *pl = import_ok(text, &par, NULL);
    for (size_t p = 0; p < PROCS; p++) {
        char name[8];
        snprintf(name, sizeof name, "p%zu", p);
        size_t n;
        const double *sz, *sp, *lo, *hi;
        points_of(pl, name, &n, &sz, &sp, &lo, &hi);
        assert_int_equal(n, SIZES);
        assert_non_null(lo);
        for (size_t s = 0; s < SIZES; s++) {
            double mean, sd, v, l, h;
            mean_sd(t[p][s], nrun[p][s], &mean, &sd);
            dls__import_band(100.0 * (double)(s + 1), mean, sd, (unsigned)nrun[p][s],
                             par.confidence, &v, &l, &h);
            assert_rel(sz[s], 100.0 * (double)(s + 1), TOL);
            assert_rel(sp[s], v, TOL);
            assert_rel(lo[s], l, 1e-10);
            assert_rel(hi[s], h, 1e-10);
        }
    }
    dls_platform_free(pl);
    free(text);
}

TEST_MAIN("import_csv", test_params_init, test_header_and_columns, test_quoting_and_lines,
          test_delimiters, test_names_and_order, test_one_row_per_run,
          test_stddev_count_pooling, test_speed_columns, test_located_errors, test_limits,
          test_bad_params, test_replace, test_locale_ignored, test_files, test_export,
          test_export_odd_names, test_random_roundtrip, test_random_runs)
