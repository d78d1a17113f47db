/* dlsched check: validate a platform file and report its processors, in the units the file
 * was written in, with every warning the other commands would give for the file. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* Widths of the optional columns: a size ("1023.99 GiB"), the bytes of a unit ("8 B"). */
#define CHECK_BYTES_WIDTH 10
#define CHECK_UNIT_WIDTH 8
/* Sizes are written with the largest binary prefix when they are a whole number of
 * hundredths of it (8 GiB, 1.5 MiB), else with decimal ones (64 GB), to this many digits. */
#define CHECK_DIGITS 4

static const tool_opt check_opts[] = {
    TOOL_GROUP("Output"),
    TOOL_FLAG("json", "write the report as JSON"),
    TOOL_OPT_END,
};

const tool_cmd tool_cmd_check = {
    "check",
    "validate a platform file and show its processors",
    "PLATFORM [OPTIONS]",
    "Reads PLATFORM (- for standard input), checks it against the platform file format\n"
    "(dlsched-platform(5)), and prints one line per processor: model, limit (units) and,\n"
    "when the file gives them, bytes per unit, memory, the link in seconds and bytes per\n"
    "second, and where paging starts. Then every warning the other commands would give\n"
    "for the file, and notes (a time function schedule replaces by its convex envelope,\n"
    "links partition leaves out). Exits 2 on any error, 0 otherwise.",
    check_opts,
    1,
    1,
    cmd_check,
    NULL,
    "dlsched check examples/cluster.json\n"
    "dlsched check examples/star_cluster.json --json\n"
    "dlsched check - < examples/memory_levels.json",
    NULL,
};

/* ---------------------------------------------------------------------------------- */
/* Units a person reads                                                               */

/* "8 GiB", "64 GB", "512 B". */
static const char *fmt_bytes(double b, char *buf, size_t size)
{
    static const char *const bin[] = {"TiB", "GiB", "MiB", "KiB"};
    static const char *const dec[] = {"TB", "GB", "MB", "kB"};
    for (int k = 0; k < 4; k++) {
        double v = ldexp(b, -10 * (4 - k));
        if (v < 1)
            continue;
        if (v * 100 == floor(v * 100)) {
            snprintf(buf, size, "%.*g %s", CHECK_DIGITS + 2, v, bin[k]);
            return buf;
        }
        break;
    }
    for (int k = 0; k < 4; k++) {
        double v = b / pow(1000, 4 - k);
        if (v >= 1) {
            snprintf(buf, size, "%.*g %s", CHECK_DIGITS, v, dec[k]);
            return buf;
        }
    }
    snprintf(buf, size, "%.*g B", CHECK_DIGITS, b);
    return buf;
}

/* "6.25 MB/s", "1.25 GB/s". */
static const char *fmt_bandwidth(double bps, char *buf, size_t size)
{
    static const char *const dec[] = {"TB/s", "GB/s", "MB/s", "kB/s"};
    for (int k = 0; k < 4; k++) {
        double v = bps / pow(1000, 4 - k);
        if (v >= 1) {
            snprintf(buf, size, "%.*g %s", CHECK_DIGITS, v, dec[k]);
            return buf;
        }
    }
    snprintf(buf, size, "%.*g B/s", CHECK_DIGITS, bps);
    return buf;
}

/* "250 us", "2 ms", "1.5 s". */
static const char *fmt_seconds(double s, char *buf, size_t size)
{
    static const char *const unit[] = {"s", "ms", "us", "ns"};
    int k = 0;
    while (k < 3 && s > 0 && s < 1) {
        s *= 1000;
        k++;
    }
    snprintf(buf, size, "%.*g %s", CHECK_DIGITS, s, unit[k]);
    return buf;
}

/* The link in a person's units when the bytes of a unit are known, else in seconds. */
static void describe_link(const dls_platform *pl, size_t i, char *buf, size_t size)
{
    double startup, rate, bpu = dls_platform_bytes_per_unit(pl, i);
    char s[32], r[32];
    if (!dls_platform_has_link(pl, i)) {
        snprintf(buf, size, "none");
        return;
    }
    dls_platform_link(pl, i, &startup, &rate);
    if (!isnan(bpu) && rate > 0)
        snprintf(buf, size, "latency %s, %s", fmt_seconds(startup, s, sizeof s),
                 fmt_bandwidth(bpu / rate, r, sizeof r));
    else
        snprintf(buf, size, "startup %s s, rate %s s/unit", tool_num(startup, s, sizeof s),
                 tool_num(rate, r, sizeof r));
}

/* "from 1073741824 units (8 GiB), 10x slower", or "none". */
static void describe_paging(const dls_platform *pl, size_t i, char *buf, size_t size)
{
    double from = dls_platform_paging_point(pl, i), mem = dls_platform_memory(pl, i);
    char b[32];
    if (isnan(from))
        snprintf(buf, size, "none");
    else
        snprintf(buf, size, "from %.10g units (%s), %.6gx slower", from,
                 fmt_bytes(mem, b, sizeof b), dls_platform_paging(pl, i));
}

static void describe_model(const dls_model *m, char *buf, size_t size)
{
    char v[32];
    size_t nx, ny;
    switch (dls_model_get_kind(m)) {
    case DLS_MODEL_CONSTANT:
        snprintf(buf, size, "speed %s units/s",
                 tool_num(dls_model_constant_speed(m), v, sizeof v));
        break;
    case DLS_MODEL_POINTS:
        snprintf(buf, size, "%zu point%s%s", dls_model_count(m), dls_model_count(m) == 1 ? "" : "s",
                 dls_model_has_bands(m) ? " with bands" : "");
        break;
    case DLS_MODEL_TIME_LINES: { /* "%zu line%s" (at most 27 bytes), written directly */
        char *o = tool_put_size(buf, dls_model_count(m));
        o = tool_put(o, dls_model_count(m) == 1 ? " line" : " lines", 0);
        *o = '\0';
        break;
    }
    case DLS_MODEL_SPEED2D:
        dls_model_get_grid(m, &nx, NULL, &ny, NULL, NULL);
        snprintf(buf, size, "%zu x %zu grid", nx, ny);
        break;
    }
}

/* ---------------------------------------------------------------------------------- */
/* Warnings and notes                                                                 */

/* x/s(x) not strictly increasing: the shape of the functional model. */
static void shape_issues(const dls_platform *pl, size_t i, json_t *warnings)
{
    const char *name = dls_platform_name(pl, i);
    const dls_model *m = dls_platform_model(pl, i);
    size_t count = dls_model_check_shape(m, NULL, 0);
    dls_shape_issue *issues = count ? malloc(count * sizeof *issues) : NULL;
    if (count && issues == NULL)
        return;
    dls_model_check_shape(m, issues, count);
    for (size_t k = 0; k < count; k++) {
        char text[512], a[32], b[32], at[32];
        tool_num(issues[k].from, a, sizeof a);
        tool_num(issues[k].to, b, sizeof b);
        if (dls_model_dimension(m) == 1)
            snprintf(text, sizeof text,
                     "processor \"%s\": x/s(x) is not strictly increasing for sizes in [%s, %s]: "
                     "a line through the origin meets the speed graph more than once there, so "
                     "partitions may not be optimal", name, a, b);
        else
            snprintf(text, sizeof text,
                     "processor \"%s\": along %s at %s = %s, the time is not strictly increasing "
                     "for %s in [%s, %s]: partitions may not be optimal", name,
                     issues[k].axis ? "y" : "x", issues[k].axis ? "x" : "y",
                     tool_num(issues[k].at, at, sizeof at), issues[k].axis ? "y" : "x", a, b);
        json_array_append_new(warnings, tool_json_text(text));
    }
    free(issues);
}

/* Time lines that are never on top: usually a typo in a coefficient. */
static void unused_lines(const dls_platform *pl, size_t i, json_t *warnings)
{
    const dls_model *m = dls_platform_model(pl, i);
    size_t nl;
    const double *la, *lb;
    if (dls_model_get_lines(m, &nl, &la, &lb) != DLS_OK || nl < 2)
        return;
    double xmax = dls_platform_limit(pl, i);
    if (!isfinite(xmax))
        xmax = DBL_MAX;
    dls_model *env;
    dls_envelope_info info;
    if (dls_model_convex_envelope(m, xmax, NULL, &env, &info, NULL) != DLS_OK)
        return;
    size_t ne;
    const double *ea, *eb;
    dls_model_get_lines(env, &ne, &ea, &eb);
    for (size_t l = 0; l < nl; l++) {
        int used = 0;
        for (size_t e = 0; e < ne; e++)
            if (ea[e] == la[l] && eb[e] == lb[l])
                used = 1;
        if (!used) {
            char text[256];
            snprintf(text, sizeof text,
                     "processor \"%s\": time line %zu never determines the time for sizes up "
                     "to %s (the other lines are above it)", dls_platform_name(pl, i), l + 1,
                     isfinite(dls_platform_limit(pl, i)) ? "the limit" : "infinity");
            json_array_append_new(warnings, tool_json_text(text));
        }
    }
    dls_model_free(env);
}

/* A speed model whose time is not convex: schedule's LP takes its convex envelope, and
 * says so where that changes the answer at the load asked; here, one line. */
static void envelope_note(const dls_platform *pl, size_t i, json_t *notes)
{
    const dls_model *m = dls_platform_model(pl, i);
    const char *name = dls_platform_name(pl, i);
    if (dls_model_dimension(m) == 2) {
        char text[512];
        snprintf(text, sizeof text, "processor \"%s\" has a 2-D speed model, which `dlsched "
                 "partition` uses as it is; `dlsched schedule` needs a model of one size "
                 "(a section of it)", name);
        json_array_append_new(notes, tool_json_text(text));
        return;
    }
    if (dls_model_get_kind(m) != DLS_MODEL_POINTS)
        return; /* constant speeds and time lines are convex */
    /* beyond the last point the speed is constant: twice its size covers the joint */
    size_t n;
    const double *size;
    dls_model_get_points(m, &n, &size, NULL, NULL, NULL);
    double xmax = fmin(dls_platform_limit(pl, i), 2 * size[n - 1]);
    dls_model *env;
    dls_envelope_info info;
    if (dls_model_convex_envelope(m, xmax, NULL, &env, &info, NULL) != DLS_OK)
        return;
    dls_model_free(env);
    if (info.convex)
        return;
    char text[512];
    snprintf(text, sizeof text, "processor \"%s\": its time x/s(x) is not convex up to %.6g; "
             "`dlsched schedule` sizes loads on its convex envelope, up to %.3g%% faster (at "
             "size %.6g), and warns when that changes the answer at the load asked", name, xmax,
             100 * info.max_rel_dev, info.at);
    json_array_append_new(notes, tool_json_text(text));
}

/* What every command that reads the platform warns of (unusual values, measured by an
 * older bench), and what schedule leaves out (release times, results returned). */
static void read_warnings(const dls_platform *pl, size_t i, json_t *warnings)
{
    const char *name = dls_platform_name(pl, i);
    char why[512], text[800];
    if (dls_platform_unusual(pl, i, why, sizeof why) > 0) {
        snprintf(text, sizeof text, "processor \"%s\" has %s: a unit mixed up or a failed run? "
                 "It is used as it is", name, why);
        json_array_append_new(warnings, tool_json_text(text));
    }
    double frac = 0, t = dls_platform_release(pl, i);
    char v[32];
    if (t > 0) {
        snprintf(text, sizeof text, "processor \"%s\" has a release time (%s s), which `dlsched "
                 "schedule` does not model (`dlsched installments --lp` does)", name,
                 tool_num(t, v, sizeof v));
        json_array_append_new(warnings, tool_json_text(text));
    }
    if (dls_platform_get_return(pl, i, &frac, NULL, NULL) == DLS_OK && frac > 0) {
        snprintf(text, sizeof text, "processor \"%s\" returns results (%s of each unit), which "
                 "`dlsched schedule` does not model (`dlsched installments --lp` does)", name,
                 tool_num(frac, v, sizeof v));
        json_array_append_new(warnings, tool_json_text(text));
    }
}

/* Links, which partition leaves out: one note for the platform. */
static void links_note(const dls_platform *pl, json_t *notes)
{
    size_t np = dls_platform_count(pl), linked = 0;
    for (size_t i = 0; i < np; i++) {
        double S, C;
        if (dls_platform_has_link(pl, i) && dls_platform_link(pl, i, &S, &C) == DLS_OK &&
            (S > 0 || C > 0))
            linked++;
    }
    if (linked == 0)
        return;
    char text[400];
    snprintf(text, sizeof text, "%zu of %zu processor%s a link, which `dlsched partition` leaves "
             "out (the data are taken to be where they are computed); `dlsched schedule` "
             "schedules the sends too", linked, np, linked == 1 ? " has" : "s have");
    json_array_append_new(notes, tool_json_text(text));
}

/* ---------------------------------------------------------------------------------- */
/* The report                                                                         */

/* Which optional columns the platform needs. */
typedef struct columns {
    int bytes;   /* bytes per unit and memory */
    int paging;  /* where paging starts */
    size_t link; /* the width of the links, when a column follows them */
} columns;

static columns columns_of(const dls_platform *pl, size_t np)
{
    columns c = {0, 0, strlen("LINK")};
    for (size_t i = 0; i < np; i++) {
        if (!isnan(dls_platform_bytes_per_unit(pl, i)) || !isnan(dls_platform_memory(pl, i)))
            c.bytes = 1;
        if (!isnan(dls_platform_paging(pl, i)))
            c.paging = 1;
    }
    for (size_t i = 0; i < np && c.paging; i++) {
        char link[96];
        describe_link(pl, i, link, sizeof link);
        if (strlen(link) > c.link)
            c.link = strlen(link);
    }
    return c;
}

static void print_header(const char *path, size_t np, int width, columns cols)
{
    char cell[TOOL_CELL_BYTES];
    printf("%s: %zu processor%s\n  %s  %-8s  %-22s  %-13s  ", path, np, np == 1 ? "" : "s",
           tool_cell(cell, sizeof cell, "NAME", width), "MODEL", "DETAILS", "LIMIT (units)");
    if (cols.bytes)
        printf("%-*s  %-*s  ", CHECK_UNIT_WIDTH, "UNIT", CHECK_BYTES_WIDTH, "MEMORY");
    if (cols.paging)
        printf("%-*s  PAGING\n", (int)cols.link, "LINK");
    else
        printf("LINK\n");
}

/* One processor's line, written as one piece (10^6 lines). */
static void print_row(const dls_platform *pl, size_t i, int width, columns cols)
{
    const dls_model *m = dls_platform_model(pl, i);
    double limit = dls_platform_limit(pl, i), bpu = dls_platform_bytes_per_unit(pl, i),
           mem = dls_platform_memory(pl, i);
    char cell[TOOL_CELL_BYTES], details[64], lim[32] = "none", link[96], paging[96],
        unit[32] = "-", memory[32] = "-";
    describe_model(m, details, sizeof details);
    describe_link(pl, i, link, sizeof link);
    if (isfinite(limit))
        tool_num(limit, lim, sizeof lim);
    if (!isnan(bpu))
        fmt_bytes(bpu, unit, sizeof unit);
    if (!isnan(mem))
        fmt_bytes(mem, memory, sizeof memory);
    char line[sizeof cell + sizeof details + sizeof lim + sizeof link + sizeof paging +
              sizeof unit + sizeof memory + 128], *o = line;
    o = tool_put(o, "  ", 0);
    o = tool_put(o, tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
    o = tool_put(o, "  ", 0);
    o = tool_put(o, dls_model_kind_name(dls_model_get_kind(m)), 8);
    o = tool_put(o, "  ", 0);
    o = tool_put(o, details, 22);
    o = tool_put(o, "  ", 0);
    o = tool_put(o, lim, 13);
    o = tool_put(o, "  ", 0);
    if (cols.bytes) {
        o = tool_put(o, unit, CHECK_UNIT_WIDTH);
        o = tool_put(o, "  ", 0);
        o = tool_put(o, memory, CHECK_BYTES_WIDTH);
        o = tool_put(o, "  ", 0);
    }
    if (cols.paging) {
        describe_paging(pl, i, paging, sizeof paging);
        o = tool_put(o, link, cols.link);
        o = tool_put(o, "  ", 0);
        o = tool_put(o, paging, 0);
    } else {
        o = tool_put(o, link, 0);
    }
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
}

static json_t *processor_json(const dls_platform *pl, size_t i, json_t *warnings,
                              json_t *notes)
{
    const dls_model *m = dls_platform_model(pl, i);
    double startup, rate, bpu = dls_platform_bytes_per_unit(pl, i);
    dls_platform_link(pl, i, &startup, &rate);
    json_t *paging = json_null();
    if (!isnan(dls_platform_paging(pl, i)))
        paging = json_pack("{s:o,s:o}", "from", tool_json_number(dls_platform_paging_point(pl, i)),
                           "factor", tool_json_number(dls_platform_paging(pl, i)));
    double bandwidth = !isnan(bpu) && dls_platform_has_link(pl, i) && rate > 0 ? bpu / rate
                                                                               : NAN;
    return json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "name",
                     dls_platform_name(pl, i), "model",
                     dls_model_kind_name(dls_model_get_kind(m)), "count",
                     (json_int_t)dls_model_count(m), "limit",
                     tool_json_number(dls_platform_limit(pl, i)), "link",
                     json_pack("{s:f,s:f,s:o}", "startup", startup, "rate", rate, "bandwidth",
                               tool_json_number(bandwidth)),
                     "bytes_per_unit", tool_json_number(bpu), "memory",
                     tool_json_number(dls_platform_memory(pl, i)), "paging", paging,
                     "warnings", warnings, "notes", notes);
}

/* What the command line of `check` asks, read once (check_request_read). */
typedef struct check_request {
    const char *path;  /* the platform file, - for standard input */
    int json;          /* --json */
} check_request;

static void check_request_read(const tool_args *args, check_request *r)
{
    r->path = args->pos[0];
    r->json = arg_flag(args, "json");
}

int cmd_check(const tool_args *args)
{
    check_request r;
    check_request_read(args, &r);
    const char *path = r.path;
    int json = r.json;
    dls_platform *pl = NULL;
    int rc = tool_read_platform_quiet(path, &pl); /* its warnings are in the report */
    if (rc != EXIT_DONE)
        return rc;
    path = tool_input_name(path); /* "<stdin>" for - */

    size_t np = dls_platform_count(pl);
    json_t *procs = json_array();
    json_t *all_warnings = json_array(), *all_notes = json_array();
    int width = tool_name_width(pl, np);
    columns cols = columns_of(pl, np);
    if (!json)
        print_header(path, np, width, cols);
    for (size_t i = 0; i < np; i++) {
        /* the report's warnings: each processor's in JSON, one list for the text */
        json_t *pw = json ? json_array() : all_warnings, *pn = json ? json_array() : all_notes;
        read_warnings(pl, i, pw);
        shape_issues(pl, i, pw);
        unused_lines(pl, i, pw);
        envelope_note(pl, i, pn);
        if (json) {
            json_array_extend(all_warnings, pw);
            json_array_extend(all_notes, pn);
            json_array_append_new(procs, processor_json(pl, i, pw, pn));
        } else {
            print_row(pl, i, width, cols);
        }
    }
    links_note(pl, all_notes);
    size_t nw = json_array_size(all_warnings), nn = json_array_size(all_notes);
    if (json) {
        json_t *report = json_object();
        json_object_set_new(report, "file", tool_json_text(path));
        json_object_set_new(report, "valid", json_true());
        json_object_set_new(report, "processors", procs);
        json_object_set_new(report, "warnings", all_warnings);
        json_object_set_new(report, "notes", all_notes);
        rc = tool_print_json(report);
    } else {
        for (size_t k = 0; k < nw; k++)
            printf("warning: %s\n", json_string_value(json_array_get(all_warnings, k)));
        for (size_t k = 0; k < nn; k++)
            printf("note: %s\n", json_string_value(json_array_get(all_notes, k)));
        printf("%s is valid (%zu warning%s", path, nw, nw == 1 ? "" : "s");
        if (nn > 0)
            printf(", %zu note%s", nn, nn == 1 ? "" : "s");
        printf(")\n");
        json_decref(procs);
        json_decref(all_warnings);
        json_decref(all_notes);
    }
    dls_platform_free(pl);
    return rc;
}
