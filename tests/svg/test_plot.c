/* Tests of the speed plots: the SVG is well-formed XML with one legend entry per curve,
 * limit lines, error bars, the right scales; it is deterministic, escapes what it must,
 * and every error path fails cleanly (out of memory included, by failing each allocation
 * in turn). */
#include <errno.h>
#include <locale.h>

#include <dlsched/plot.h>

#include "testutil.h"

/* ---------------------------------------------------------------------------------- */
/* Allocation failures: glibc lets a program replace malloc; sanitizers replace it too,
 * so under them the out-of-memory test is skipped. */

#include "failing_malloc.h"

/* ---------------------------------------------------------------------------------- */
/* Helpers                                                                              */

/* The entity at p (byte at) is a predefined one or a character reference. */
static void assert_entity(const char *p, size_t at)
{
    static const char *const ents[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
    int ok = p[1] == '#';
    for (size_t k = 0; k < 5; k++)
        ok |= strncmp(p, ents[k], strlen(ents[k])) == 0;
    if (!ok)
        fail_msg("bad entity at byte %zu: %.12s", at, p);
}

/* The attributes of the tag at byte at of doc, from q: each quoted, no '<' in a value,
 * none in a closing tag. Returns where the tag ends ('>', or the '>' of "/>", *self set). */
static const char *skip_attributes(const char *doc, const char *q, int closing, size_t at,
                                   int *self)
{
    for (;;) {
        while (*q == ' ' || *q == '\n' || *q == '\t')
            q++;
        if (*q == '>')
            return q;
        if (q[0] == '/' && q[1] == '>') {
            *self = 1;
            return q + 1;
        }
        if (closing)
            fail_msg("attributes in a closing tag at byte %zu", at);
        size_t an = strcspn(q, "=> \n");
        if (an == 0 || q[an] != '=' || q[an + 1] != '"')
            fail_msg("unquoted attribute at byte %zu: %.20s", (size_t)(q - doc), q);
        const char *v = q + an + 2, *e = strchr(v, '"');
        assert_non_null(e);
        for (const char *c = v; c < e; c++)
            if (*c == '<')
                fail_msg("'<' in an attribute value at byte %zu", (size_t)(c - doc));
        q = e + 1;
    }
}

/* A small XML checker: tags balance, one root element <svg>, attribute values quoted
 * with no '<' inside, only the predefined entities or character references, no control
 * characters. Fails the test with the position of the first problem. */
static void assert_well_formed(const char *doc)
{
    enum { DEPTH = 64 };
    char stack[DEPTH][32];
    int depth = 0, roots = 0;
    const char *p = doc;
    if (strncmp(p, "<?xml", 5) != 0)
        fail_msg("the document does not start with an XML declaration");
    while (*p) {
        size_t at = (size_t)(p - doc);
        if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r')
            fail_msg("control character 0x%02x at byte %zu", (unsigned char)*p, at);
        if (*p == '&') {
            assert_entity(p, at);
            p++;
            continue;
        }
        if (*p == '>')
            fail_msg("stray '>' at byte %zu", at);
        if (*p != '<') {
            if (depth == 0 && *p != '\n' && *p != ' ')
                fail_msg("text outside the root element at byte %zu", at);
            p++;
            continue;
        }
        if (p[1] == '?') {
            const char *e = strstr(p, "?>");
            assert_non_null(e);
            p = e + 2;
            continue;
        }
        if (strncmp(p, "<!--", 4) == 0) {
            const char *e = strstr(p, "-->");
            assert_non_null(e);
            p = e + 3;
            continue;
        }
        int closing = p[1] == '/';
        const char *name = p + 1 + closing;
        size_t nl = strcspn(name, " \t\n/>");
        if (nl == 0 || nl >= sizeof stack[0])
            fail_msg("bad tag name at byte %zu", at);
        int self = 0;
        const char *q = skip_attributes(doc, name + nl, closing, at, &self);
        if (closing) {
            if (depth == 0 || strlen(stack[depth - 1]) != nl ||
                strncmp(stack[depth - 1], name, nl) != 0)
                fail_msg("</%.*s> at byte %zu closes <%s>", (int)nl, name, at,
                         depth ? stack[depth - 1] : "nothing");
            depth--;
        } else {
            if (depth == 0) {
                roots++;
                if (nl != 3 || strncmp(name, "svg", 3) != 0)
                    fail_msg("the root element is <%.*s>, not <svg>", (int)nl, name);
            }
            if (!self) {
                if (depth == DEPTH)
                    fail_msg("elements nested too deeply");
                memcpy(stack[depth], name, nl);
                stack[depth++][nl] = '\0';
            }
        }
        p = q + 1;
    }
    if (depth != 0)
        fail_msg("<%s> is never closed", stack[depth - 1]);
    if (roots != 1)
        fail_msg("%d root elements", roots);
    if (strstr(doc, "nan") || strstr(doc, "inf"))
        fail_msg("a number is not finite: %s", strstr(doc, "nan") ? strstr(doc, "nan")
                                                                   : strstr(doc, "inf"));
}

static char *plot(const dls_platform *pl, const dls_plot_params *par)
{
    dls_error err;
    char *svg = NULL;
    assert_ok(dls_plot_to_string(pl, par, &svg, &err), &err);
    assert_non_null(svg);
    assert_well_formed(svg);
    return svg;
}

/* Whether the size / speed axis is logarithmic, from its title. */
static int log_x(const char *svg)
{
    return strstr(svg, "size (units), log scale") != NULL;
}

static int log_y(const char *svg)
{
    return strstr(svg, "speed (units/s), log scale") != NULL;
}

/* ---------------------------------------------------------------------------------- */

TEST(test_params_init)
{
    dls_plot_params par;
    memset(&par, 0x5a, sizeof par);
    dls_plot_params_init(&par);
    assert_int_equal(par.x_scale, DLS_PLOT_AUTO);
    assert_int_equal(par.y_scale, DLS_PLOT_AUTO);
    assert_rel(par.width, 900, 0);
    assert_rel(par.height, 560, 0);
    assert_int_equal(par.sections, 6);
    assert_null(par.title);
    assert_null(par.size_unit);
    assert_null(par.speed_unit);
    dls_plot_params_init(NULL); /* allowed, does nothing */
}

/* Each shipped example: its curves, legend, limits and scales. */
TEST(test_examples)
{
    static const struct {
        const char *file;
        size_t entries;  /* one per 1-D processor, one per section of a 2-D one, identical
                          * processors (star_two's P1 and P2) sharing one */
        size_t limits;
        int log_x, log_y;
        size_t extrapolated; /* pieces beyond the measured sizes (points models) */
    } ex[] = {
        {"cluster.json", 3 + 3, 1, 1, 1, 2 + 3 * 2},
        {"memory_levels.json", 4, 2, 1, 1, 2},
        {"star_two.json", 1, 0, 0, 0, 0},
        {"star_cluster.json", 5, 2, 1, 0, 2},
        {"striped_mm.json", 4 + 4, 0, 0, 1, 8 * 2},
    };
    for (size_t e = 0; e < sizeof ex / sizeof ex[0]; e++) {
        dls_platform *pl = test_example(ex[e].file);
        char *svg = plot(pl, NULL);
        assert_int_equal(strncmp(svg, "<?xml", 5), 0);
        assert_non_null(strstr(svg, "</svg>\n"));
        assert_int_equal(test_count(svg, "class=\"legend-entry\""), ex[e].entries);
        assert_int_equal(test_count(svg, "class=\"curve\""), ex[e].entries);
        assert_int_equal(test_count(svg, "<line class=\"limit\""), ex[e].limits);
        assert_int_equal(test_count(svg, "class=\"limit-label\""), ex[e].limits);
        if (test_count(svg, "<path class=\"extrapolated\"") != ex[e].extrapolated)
            fail_msg("%s: %zu extrapolated pieces, expected %zu", ex[e].file,
                     test_count(svg, "<path class=\"extrapolated\""), ex[e].extrapolated);
        assert_int_equal(test_count(svg, "extrapolated (no measurement)</text>"),
                         ex[e].extrapolated > 0);
        assert_int_equal(test_count(svg, "limit (largest size)</text>"), ex[e].limits > 0);
        if (log_x(svg) != ex[e].log_x || log_y(svg) != ex[e].log_y)
            fail_msg("%s: scales %d/%d, expected %d/%d", ex[e].file, log_x(svg), log_y(svg),
                     ex[e].log_x, ex[e].log_y);
        assert_non_null(strstr(svg, ">Speed functions</text>"));
        assert_non_null(strstr(svg, "class=\"axis-title\""));
        assert_non_null(strstr(svg, "size (units)"));
        assert_non_null(strstr(svg, "speed (units/s)"));
        /* every processor by name in the legend */
        for (size_t i = 0; i < dls_platform_count(pl); i++) {
            char label[128];
            const dls_model *m = dls_platform_model(pl, i);
            char twin[128], first[128]; /* or merged: ">P1 = P2 (identical)" */
            snprintf(twin, sizeof twin, " = %s", dls_platform_name(pl, i));
            snprintf(first, sizeof first, ">%s = ", dls_platform_name(pl, i));
            if (dls_model_dimension(m) == 1)
                snprintf(label, sizeof label, ">%s</text>", dls_platform_name(pl, i));
            else
                snprintf(label, sizeof label, ">%s at x = ", dls_platform_name(pl, i));
            if (strstr(svg, label) == NULL && strstr(svg, twin) == NULL &&
                strstr(svg, first) == NULL)
                fail_msg("%s: no legend entry %s", ex[e].file, label);
        }
        dls_free(svg);
        dls_platform_free(pl);
    }
}

/* 2-D models: one section per grid x up to params.sections, spread over the grid. */
TEST(test_sections)
{
    dls_platform *pl = test_example("cluster.json"); /* gpu0: x grid 64, 1024, 8192 */
    char *svg = plot(pl, NULL);
    assert_non_null(strstr(svg, ">gpu0 at x = 64</text>"));
    assert_non_null(strstr(svg, ">gpu0 at x = 1024</text>"));
    assert_non_null(strstr(svg, ">gpu0 at x = 8192</text>"));
    assert_non_null(strstr(svg, "2-D models: y at a fixed x"));
    dls_free(svg);

    dls_plot_params par;
    dls_plot_params_init(&par);
    par.sections = 2;
    svg = plot(pl, &par);
    assert_non_null(strstr(svg, ">gpu0 at x = 64</text>"));
    assert_null(strstr(svg, "at x = 1024"));
    assert_non_null(strstr(svg, ">gpu0 at x = 8192</text>"));
    assert_int_equal(test_count(svg, "class=\"legend-entry\""), 3 + 2);
    dls_free(svg);

    par.sections = 1; /* the middle of the grid */
    svg = plot(pl, &par);
    assert_non_null(strstr(svg, ">gpu0 at x = 1024</text>"));
    /* the legend, and the tooltips of the curve and of its extrapolated ends */
    assert_int_equal(test_count(svg, " at x = "), 2 + 2);
    dls_free(svg);
    dls_platform_free(pl);

    /* more grid values than sections: 6 of 10, first and last included */
    pl = test_platform_json("{\"processors\": [{\"name\": \"g\", \"speed2d\": {"
                   "\"x\": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], \"y\": [10, 20],"
                   "\"values\": [[1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2], [1, 2],"
                   " [1, 2], [1, 2], [1, 2]]}}]}");
    svg = plot(pl, NULL);
    assert_int_equal(test_count(svg, "class=\"legend-entry\""), 6);
    assert_non_null(strstr(svg, ">g at x = 1</text>"));
    assert_non_null(strstr(svg, ">g at x = 10</text>"));
    dls_free(svg);
    dls_platform_free(pl);
}

/* The largest x pixel of the first curve's path. */
static double curve_max_x(const char *svg)
{
    const char *d = strstr(svg, "class=\"curve\" d=\"");
    assert_non_null(d);
    d += strlen("class=\"curve\" d=\"");
    double xmax = -INFINITY;
    while (*d != '"') {
        char *end;
        double x = strtod(d + 1, &end); /* after the M or L */
        double y = strtod(end, &end);
        (void)y;
        xmax = fmax(xmax, x);
        d = end;
    }
    return xmax;
}

static double limit_line_x(const char *svg)
{
    const char *l = strstr(svg, "<line class=\"limit\" x1=\"");
    assert_non_null(l);
    return strtod(l + strlen("<line class=\"limit\" x1=\""), NULL);
}

/* Bands: an error bar per point, a shaded band, the key; the curve stops at the limit and
 * the points beyond it are faded. */
TEST(test_bands_and_limit)
{
    dls_error err;
    const double size[] = {1e3, 1e4, 1e5, 1e6, 1e7, 5e7};
    const double speed[] = {2e9, 1.95e9, 1.7e9, 1.1e9, 5e8, 2e8};
    double low[6], high[6];
    for (size_t k = 0; k < 6; k++) {
        low[k] = speed[k] * 0.95;
        high[k] = speed[k] * 1.05;
    }
    dls_model *m;
    assert_ok(dls_model_create_points(6, size, speed, low, high, &m, &err), &err);
    dls_platform *pl = test_platform_new();
    assert_non_null(pl);
    assert_ok(dls_platform_add(pl, "node", m, NULL, &err), &err);
    dls_model_free(m);

    char *svg = plot(pl, NULL);
    assert_int_equal(test_count(svg, "class=\"error-bar\""), 6);
    assert_int_equal(test_count(svg, "class=\"band\""), 1);
    assert_int_equal(test_count(svg, "class=\"point\""), 6);
    assert_non_null(strstr(svg, "measured band (low to high)</text>"));
    assert_non_null(strstr(svg, "measured point</text>"));
    assert_null(strstr(svg, "class=\"limit\""));
    assert_true(log_x(svg));   /* 1e3 .. 5e7 */
    assert_false(log_y(svg));  /* 1.9e8 .. 2.1e9 */
    dls_free(svg);

    assert_ok(dls_platform_set_limit(pl, 0, 3e7, &err), &err);
    svg = plot(pl, NULL);
    assert_int_equal(test_count(svg, "<line class=\"limit\""), 1);
    assert_non_null(strstr(svg, ">node limit 3e+07</text>"));
    assert_int_equal(test_count(svg, "class=\"point\""), 5);
    assert_int_equal(test_count(svg, "class=\"point beyond-limit\""), 1);
    assert_int_equal(test_count(svg, "class=\"error-bar\""), 6);
    double lx = limit_line_x(svg);
    assert_true(curve_max_x(svg) <= lx + 0.05);
    assert_true(curve_max_x(svg) >= lx - 0.05); /* drawn right up to it */
    dls_free(svg);
    dls_platform_free(pl);
}

/* Automatic scales: logarithmic beyond two decades, linear up to exactly two. */
TEST(test_auto_scales)
{
    static const struct {
        double x0, x1, s0, s1;
        int log_x, log_y;
    } cases[] = {
        {1, 100, 1, 100, 0, 0},
        {1, 100.5, 1, 100, 1, 0},
        {1, 100, 1, 100.5, 0, 1},
        {3.7e-4, 2.9e5, 4.1e3, 2.2e6, 1, 1},
        {10, 20, 5, 5, 0, 0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        dls_error err;
        const double size[] = {cases[c].x0, cases[c].x1}, speed[] = {cases[c].s0, cases[c].s1};
        dls_model *m;
        assert_ok(dls_model_create_points(2, size, speed, NULL, NULL, &m, &err), &err);
        dls_platform *pl = test_platform_new();
        assert_ok(dls_platform_add(pl, "p", m, NULL, &err), &err);
        dls_model_free(m);
        char *svg = plot(pl, NULL);
        if (log_x(svg) != cases[c].log_x || log_y(svg) != cases[c].log_y)
            fail_msg("case %zu: scales %d/%d, expected %d/%d", c, log_x(svg), log_y(svg),
                     cases[c].log_x, cases[c].log_y);
        dls_free(svg);
        dls_platform_free(pl);
    }
}

/* Forced scales override the automatic choice both ways. */
TEST(test_forced_scales)
{
    dls_plot_params par;
    dls_plot_params_init(&par);
    dls_platform *pl = test_example("memory_levels.json");
    par.x_scale = DLS_PLOT_LINEAR;
    par.y_scale = DLS_PLOT_LINEAR;
    char *svg = plot(pl, &par);
    assert_false(log_x(svg));
    assert_false(log_y(svg));
    dls_free(svg);
    dls_platform_free(pl);

    pl = test_example("star_two.json"); /* speed 0 at size 0 must not reach a log axis */
    par.x_scale = DLS_PLOT_LOG;
    par.y_scale = DLS_PLOT_LOG;
    svg = plot(pl, &par);
    assert_true(log_x(svg));
    assert_true(log_y(svg));
    dls_free(svg);
    par.x_scale = DLS_PLOT_LINEAR; /* linear sizes from 0, log speeds: the samples at 0 are
                                    * left out */
    svg = plot(pl, &par);
    assert_false(log_x(svg));
    assert_true(log_y(svg));
    dls_free(svg);
    dls_platform_free(pl);
}

/* Degenerate ranges: one constant processor, one point, extreme magnitudes (values
 * beyond 1e+-250 are clipped rather than stretching the axes). */
TEST(test_degenerate)
{
    dls_plot_params par;
    dls_plot_params_init(&par);
    static const struct {
        const char *json;
        size_t curves; /* 2: 1 on a linear size axis, 0 on a log one */
    } platforms[] = {
        {"{\"processors\": [{\"name\": \"c\", \"speed\": 2.5e9}]}", 1},
        {"{\"processors\": [{\"name\": \"c\", \"speed\": 2.5e9, \"limit\": 1e6}]}", 1},
        {"{\"processors\": [{\"name\": \"p\", \"speed\": {\"points\": [[100, 3]]}}]}", 1},
        {"{\"processors\": [{\"name\": \"t\", \"time\": [[0, 2]]}]}", 1},
        /* the corners of the input domain (beyond them the reader refuses the file) */
        {"{\"processors\": [{\"name\": \"e\", \"speed\": {\"points\": [[1e-60, 1e-60],"
         " [1e60, 1e60]]}}]}", 1},
        {"{\"processors\": [{\"name\": \"h\", \"speed\": 1e60, \"limit\": 1e60}]}", 1},
        {"{\"processors\": [{\"name\": \"s\", \"speed\": 1e-60}]}", 1},
        {"{\"processors\": [{\"name\": \"s\", \"speed\": 1e-60, \"limit\": 1e-60}]}", 1},
    };
    for (size_t k = 0; k < sizeof platforms / sizeof platforms[0]; k++)
        for (int lx = DLS_PLOT_AUTO; lx <= DLS_PLOT_LOG; lx++)
            for (int ly = DLS_PLOT_AUTO; ly <= DLS_PLOT_LOG; ly++) {
                dls_platform *pl = test_platform_json(platforms[k].json);
                par.x_scale = (dls_plot_scale)lx;
                par.y_scale = (dls_plot_scale)ly;
                char *svg = plot(pl, &par);
                assert_int_equal(test_count(svg, "class=\"legend-entry\""), 1);
                size_t want = platforms[k].curves < 2 ? platforms[k].curves : !log_x(svg);
                if (test_count(svg, "class=\"curve\"") != want)
                    fail_msg("platform %zu, scales %d/%d: %zu curves", k, lx, ly,
                             test_count(svg, "class=\"curve\""));
                assert_true(test_count(svg, "class=\"tick-label\"") >= 4);
                dls_free(svg);
                dls_platform_free(pl);
            }
}

/* Names, titles and units are escaped; bytes XML cannot carry become '?'; long legend
 * labels are cut in the middle. */
TEST(test_escaping)
{
    dls_error err;
    dls_model *m;
    assert_ok(dls_model_create_constant(1e9, &m, &err), &err);
    dls_platform *pl = test_platform_new();
    assert_ok(dls_platform_add(pl, "a<b>&\"c\"", m, NULL, &err), &err);
    /* names cannot hold control characters or invalid UTF-8 (the platform's rule), but the
     * title can: the writer drops them */
    assert_int_equal(dls_platform_add(pl, "ctl\x01\x1f" "bad\xff\xc3(", m, NULL, &err),
                     DLS_EINVAL);
    dls_model *m2; /* another speed: identical processors would share one legend entry */
    assert_ok(dls_model_create_constant(2e9, &m2, &err), &err);
    assert_ok(dls_platform_add(pl, "gr\xc3\xbc\xc3\x9f" "e \xe2\x82\xac", m2, NULL, &err), &err);
    dls_model_free(m2);
    assert_ok(dls_platform_add(pl, "node-with-a-very-long-name-that-goes-on-and-on-until-42",
                               m, NULL, &err), &err);
    assert_ok(dls_platform_set_limit(pl, 0, 1e4, &err), &err);
    dls_model_free(m);
    dls_plot_params par;
    dls_plot_params_init(&par);
    par.title = "Speeds of <cluster> & co ctl\x01\x1f" "bad\xff\xc3(";
    par.size_unit = "rows \"r\"";
    par.speed_unit = "rows/s";
    char *svg = plot(pl, &par);
    assert_non_null(strstr(svg, ">a&lt;b&gt;&amp;&quot;c&quot;</text>"));
    assert_non_null(strstr(svg, ">a&lt;b&gt;&amp;&quot;c&quot; limit 10000</text>"));
    assert_null(strstr(svg, "a<b>"));
    assert_non_null(strstr(svg, " ctl?" "?bad?" "?(</text>")); /* no trigraphs */
    assert_non_null(strstr(svg, ">gr\xc3\xbc\xc3\x9f" "e \xe2\x82\xac</text>"));
    assert_non_null(strstr(svg, ">Speeds of &lt;cluster&gt; &amp; co ctl"));
    assert_non_null(strstr(svg, "size (rows &quot;r&quot;)"));
    assert_non_null(strstr(svg, "speed (rows/s)"));
    /* the long name: both ends kept around an ellipsis, the whole name in a tooltip */
    const char *cut = strstr(svg, "\xe2\x80\xa6");
    assert_non_null(cut);
    assert_non_null(strstr(cut, "-42</text>"));
    assert_non_null(strstr(svg, "<title>node-with-a-very-long-name-that-goes-on-and-on-until-42"
                                "</title>"));
    dls_free(svg);
    dls_platform_free(pl);
}

/* The same input gives the same bytes, and NULL parameters mean the defaults. */
TEST(test_determinism)
{
    static const char *const files[] = {"cluster.json", "memory_levels.json", "striped_mm.json"};
    for (size_t f = 0; f < 3; f++) {
        dls_platform *pl = test_example(files[f]), *copy;
        dls_error err;
        assert_ok(dls_platform_copy(pl, &copy, &err), &err);
        dls_plot_params par;
        dls_plot_params_init(&par);
        char *a = plot(pl, NULL), *b = plot(pl, NULL), *c = plot(copy, &par);
        assert_string_equal(a, b);
        assert_string_equal(a, c);
        dls_free(a);
        dls_free(b);
        dls_free(c);
        dls_platform_free(pl);
        dls_platform_free(copy);
    }
}

/* A program that chose a locale with a decimal comma still gets '.' in the numbers. */
static char *plot_of(void *pl)
{
    return plot(pl, NULL);
}

TEST(test_locale)
{
    dls_platform *pl = test_example("cluster.json");
    int found = test_same_under_decimal_comma(plot_of, pl);
    dls_platform_free(pl);
    if (!found)
        skip(); /* no locale with a decimal comma is installed */
}

/* More entries than the legend holds: the last place counts the rest. */
TEST(test_legend_overflow)
{
    dls_error err;
    dls_platform *pl = test_platform_new();
    for (int i = 0; i < 60; i++) {
        const double size[] = {1e3 * (i + 1), 1e6}, speed[] = {1e9 / (i + 1), 5e8 / (i + 1)};
        dls_model *m;
        assert_ok(dls_model_create_points(2, size, speed, NULL, NULL, &m, &err), &err);
        char name[32];
        snprintf(name, sizeof name, "p%02d", i);
        assert_ok(dls_platform_add(pl, name, m, NULL, &err), &err);
        dls_model_free(m);
    }
    dls_plot_params par;
    dls_plot_params_init(&par);
    par.width = DLS_PLOT_MIN_WIDTH;
    par.height = DLS_PLOT_MIN_HEIGHT;
    char *svg = plot(pl, &par);
    assert_non_null(strstr(svg, " more</text>"));
    assert_int_equal(test_count(svg, "class=\"curve\""), 60);
    assert_true(test_count(svg, "class=\"legend-entry\"") < 60);
    dls_free(svg);
    dls_platform_free(pl);
}

TEST(test_bad_arguments_are_refused)
{
    dls_error err;
    char sentinel = 0, *svg = &sentinel;
    dls_platform *pl = test_example("cluster.json");
    assert_fails(dls_plot_to_string(NULL, NULL, &svg, &err), DLS_EINVAL, &err, "NULL");
    assert_fails(dls_plot_to_string(pl, NULL, NULL, &err), DLS_EINVAL, &err, "NULL");
    dls_platform *empty = test_platform_new();
    assert_fails(dls_plot_to_string(empty, NULL, &svg, &err), DLS_EINVAL, &err,
                 "no processor");
    dls_platform_free(empty);

    static const struct {
        int x_scale, y_scale;
        double width, height;
        size_t sections;
        const char *message;
    } bad[] = {
        {3, 0, 900, 560, 6, "x_scale must be DLS_PLOT_AUTO, DLS_PLOT_LINEAR or DLS_PLOT_LOG, "
                            "not 3"},
        {-1, 0, 900, 560, 6, "x_scale"},
        {0, 7, 900, 560, 6, "y_scale must be DLS_PLOT_AUTO, DLS_PLOT_LINEAR or DLS_PLOT_LOG, "
                            "not 7"},
        {0, 0, 0, 560, 6, "width must be"},
        {0, 0, -900, 560, 6, "width"},
        {0, 0, NAN, 560, 6, "width"},
        {0, 0, INFINITY, 560, 6, "width"},
        {0, 0, 319.5, 560, 6, ">= 320 pixels, not 319.5"},
        {0, 0, 900, 0, 6, "height must be"},
        {0, 0, 900, 239, 6, "height"},
        {0, 0, 900, NAN, 6, "height"},
        {0, 0, 900, 560, 0, "sections must be >= 1"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dls_plot_params par;
        dls_plot_params_init(&par);
        par.x_scale = (dls_plot_scale)bad[k].x_scale;
        par.y_scale = (dls_plot_scale)bad[k].y_scale;
        par.width = bad[k].width;
        par.height = bad[k].height;
        par.sections = bad[k].sections;
        assert_fails(dls_plot_to_string(pl, &par, &svg, &err), DLS_EINVAL, &err,
                     bad[k].message);
    }
    assert_ptr_equal(svg, &sentinel); /* untouched by every failure */
    assert_ok(dls_plot_to_string(pl, NULL, &svg, NULL), &err); /* err may be NULL */
    dls_free(svg);
    dls_platform_free(pl);
}

/* Every allocation fails in turn: the call fails with DLS_ENOMEM, leaves its output
 * alone and leaks nothing, until it has room to succeed. */
#if TEST_WRAP_MALLOC
typedef struct oom_ctx {
    const dls_platform *pl;
    char sentinel, *svg;
} oom_ctx;

static dls_status oom_plot(void *p, dls_error *err)
{
    oom_ctx *c = p;
    c->svg = &c->sentinel;
    dls_status st = dls_plot_to_string(c->pl, NULL, &c->svg, err);
    if (st != DLS_OK)
        assert_ptr_equal(c->svg, &c->sentinel);
    return st;
}

static void oom_free(void *p)
{
    dls_free(((oom_ctx *)p)->svg);
}
#endif

TEST(test_out_of_memory)
{
#if TEST_WRAP_MALLOC
    FM_SKIP_UNLESS_ACTIVE();
    static const char *const files[] = {"cluster.json", "memory_levels.json"};
    for (size_t f = 0; f < 2; f++) {
        dls_platform *pl = test_example(files[f]);
        /* bands too: the example has none */
        if (f == 1) {
            dls_error e;
            const double size[] = {1, 10}, speed[] = {2, 3}, low[] = {1, 2}, high[] = {3, 4};
            dls_model *m;
            assert_ok(dls_model_create_points(2, size, speed, low, high, &m, &e), &e);
            assert_ok(dls_platform_add(pl, "banded", m, NULL, &e), &e);
            dls_model_free(m);
        }
        /* (glibc's qsort has a fallback: an optional allocation) */
        oom_ctx c = {pl, 0, NULL};
        long k = fm_exhaust(files[f], oom_plot, &c, oom_free, DLS_OK);
        assert_true(k > 5); /* the call allocates, and each allocation was failed once */
        dls_platform_free(pl);
    }
#else
    skip();
#endif
}

/* Issue 36: identical processors share one curve and one legend entry that names them all
 * (their curves would hide each other); the sizes beyond a points model's measurements
 * (below its first point, past its last one up to its limit) are drawn dotted and light,
 * with a legend key; models known everywhere (time lines, constant speeds) are not. */
TEST(test_identical_and_extrapolated)
{
    dls_platform *pl = test_platform_json(
        "{\"processors\": ["
        "{\"name\": \"xeon-a\", \"speed\": {\"points\": [[1e3, 2e3], [5e4, 6e3], [2e5, 1.2e3]]},"
        " \"limit\": 4e5},"
        "{\"name\": \"gpu\", \"speed\": {\"points\": [[1e4, 9e3], [3e5, 2.2e4]]}},"
        "{\"name\": \"xeon-b\", \"speed\": {\"points\": [[1e3, 2e3], [5e4, 6e3], [2e5, 1.2e3]]},"
        " \"limit\": 4e5},"
        "{\"name\": \"xeon-c\", \"speed\": {\"points\": [[1e3, 2e3], [5e4, 6e3], [2e5, 1.2e3]]},"
        " \"limit\": 3e5},"
        "{\"name\": \"old\", \"time\": [[0, 3e-4], [-135, 1.2e-3]]},"
        "{\"name\": \"old-twin\", \"time\": [[0, 3e-4], [-135, 1.2e-3]]}]}");
    char *svg = plot(pl, NULL);
    assert_non_null(strstr(svg, ">xeon-a = xeon-b (identical)</text>"));
    assert_non_null(strstr(svg, ">old = old-twin (identical)</text>"));
    assert_non_null(strstr(svg, ">xeon-c</text>")); /* another limit: another curve */
    assert_int_equal(test_count(svg, "class=\"legend-entry\""), 4);
    assert_int_equal(test_count(svg, "<path class=\"curve\""), 4);
    assert_int_equal(test_count(svg, "<title>xeon-b"), 0);
    assert_int_equal(test_count(svg, "<line class=\"limit\""), 2); /* xeon-a's, xeon-c's */
    assert_non_null(strstr(svg, ">xeon-a = xeon-b limit 4e+05</text>"));
    /* gpu, xeon-a and xeon-c: before the first point and after the last one */
    assert_int_equal(test_count(svg, "<path class=\"extrapolated\""), 3 * 2);
    assert_int_equal(test_count(svg, "extrapolated (no measurement)</text>"), 1);
    assert_int_equal(test_count(svg, "old, extrapolated"), 0);
    dls_free(svg);
    dls_platform_free(pl);

    pl = test_example("memory_levels.json"); /* time lines only but for the gpu's points */
    svg = plot(pl, NULL);
    assert_int_equal(test_count(svg, "<path class=\"extrapolated\""), 2);
    assert_non_null(strstr(svg, "<title>gpu, extrapolated</title>"));
    dls_free(svg);
    dls_platform_free(pl);
    pl = test_example("star_two.json"); /* no points, nothing extrapolated */
    svg = plot(pl, NULL);
    assert_null(strstr(svg, "extrapolated"));
    assert_non_null(strstr(svg, ">P1 = P2 (identical)</text>"));
    dls_free(svg);
    dls_platform_free(pl);
}

TEST_MAIN("plot", test_params_init, test_examples, test_sections, test_bands_and_limit,
          test_auto_scales, test_forced_scales, test_degenerate, test_escaping,
          test_determinism, test_locale, test_legend_overflow, test_bad_arguments_are_refused, test_out_of_memory,
          test_identical_and_extrapolated)
