/* dlsched check: validate a platform file and report its processors and shape warnings. */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

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
    "(dlsched-platform(5)), and prints one line per processor (model, points, limit,\n"
    "link), then every warning about a model's shape. Exits 2 on any error, 0 otherwise.",
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

/* Shape warnings of processor i. */
static void shape_warnings(const dls_platform *pl, size_t i, json_t *warnings)
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

    /* Time lines that are never on top: usually a typo in a coefficient. */
    size_t nl;
    const double *la, *lb;
    if (dls_model_get_lines(m, &nl, &la, &lb) == DLS_OK && nl > 1) {
        double xmax = dls_platform_limit(pl, i);
        if (!isfinite(xmax))
            xmax = DBL_MAX;
        dls_model *env;
        dls_envelope_info info;
        if (dls_model_convex_envelope(m, xmax, NULL, &env, &info, NULL) == DLS_OK) {
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
                             "processor \"%s\": time line %zu never determines the time for "
                             "sizes up to %s (the other lines are above it)", name, l + 1,
                             isfinite(dls_platform_limit(pl, i)) ? "the limit" : "infinity");
                    json_array_append_new(warnings, tool_json_text(text));
                }
            }
            dls_model_free(env);
        }
    }
}

static void describe_model(const dls_model *m, char *buf, size_t size)
{
    char v[32];
    size_t nx, ny;
    switch (dls_model_get_kind(m)) {
    case DLS_MODEL_CONSTANT:
        snprintf(buf, size, "speed %s", tool_num(dls_model_constant_speed(m), v, sizeof v));
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

int cmd_check(const tool_args *args)
{
    const char *path = args->pos[0];
    int json = arg_flag(args, "json");
    dls_platform *pl = NULL;
    int rc = tool_read_platform(path, &pl);
    if (rc != EXIT_DONE)
        return rc;
    path = tool_input_name(path); /* "<stdin>" for - */

    size_t np = dls_platform_count(pl);
    json_t *report = json_object();
    json_t *procs = json_array();
    json_t *all_warnings = json_array();
    int width = tool_name_width(pl, np);
    char cell[TOOL_CELL_BYTES];
    if (!json)
        printf("%s: %zu processor%s\n  %s  %-8s  %-22s  %-10s  %s\n", path, np,
               np == 1 ? "" : "s", tool_cell(cell, sizeof cell, "NAME", width), "MODEL", "DETAILS", "LIMIT", "LINK");
    for (size_t i = 0; i < np; i++) {
        const dls_model *m = dls_platform_model(pl, i);
        const char *name = dls_platform_name(pl, i);
        double limit = dls_platform_limit(pl, i), startup, rate;
        dls_platform_link(pl, i, &startup, &rate);
        char details[64], lim[32] = "none", s[32], r[32], link[80] = "none";
        describe_model(m, details, sizeof details);
        if (isfinite(limit))
            tool_num(limit, lim, sizeof lim);
        if (dls_platform_has_link(pl, i)) { /* "startup %s, rate %s": at most 78 bytes */
            char *o = tool_put(link, "startup ", 0);
            o = tool_put(o, tool_num(startup, s, sizeof s), 0);
            o = tool_put(o, ", rate ", 0);
            o = tool_put(o, tool_num(rate, r, sizeof r), 0);
            *o = '\0';
        }
        /* the report's warnings: each processor's in JSON, one list for the text */
        json_t *pw = json ? json_array() : all_warnings;
        shape_warnings(pl, i, pw);
        if (json) {
            json_array_extend(all_warnings, pw);
            json_t *p = json_pack("{s:s,s:s,s:I,s:o,s:o,s:o}", "name", name, "model",
                                  dls_model_kind_name(dls_model_get_kind(m)), "count",
                                  (json_int_t)dls_model_count(m), "limit", tool_json_number(limit),
                                  "link",
                                  json_pack("{s:f,s:f}", "startup", startup, "rate", rate),
                                  "warnings", pw);
            json_array_append_new(procs, p);
        } else { /* "  %s  %-8s  %-22s  %-10s  %s\n", written as one piece (10^6 lines) */
            char line[sizeof cell + sizeof details + sizeof lim + sizeof link + 64], *o = line;
            o = tool_put(o, "  ", 0);
            o = tool_put(o, tool_cell(cell, sizeof cell, name, width), 0);
            o = tool_put(o, "  ", 0);
            o = tool_put(o, dls_model_kind_name(dls_model_get_kind(m)), 8);
            o = tool_put(o, "  ", 0);
            o = tool_put(o, details, 22);
            o = tool_put(o, "  ", 0);
            o = tool_put(o, lim, 10);
            o = tool_put(o, "  ", 0);
            o = tool_put(o, link, 0);
            *o++ = '\n';
            fwrite(line, 1, (size_t)(o - line), stdout);
        }
    }
    if (json) {
        json_object_set_new(report, "file", tool_json_text(path));
        json_object_set_new(report, "valid", json_true());
        json_object_set_new(report, "processors", procs);
        json_object_set_new(report, "warnings", all_warnings);
        rc = tool_print_json(report);
    } else {
        size_t nw = json_array_size(all_warnings);
        for (size_t k = 0; k < nw; k++)
            printf("warning: %s\n", json_string_value(json_array_get(all_warnings, k)));
        printf("%s is valid (%zu warning%s)\n", path, nw, nw == 1 ? "" : "s");
        json_decref(report);
        json_decref(procs);
        json_decref(all_warnings);
    }
    dls_platform_free(pl);
    return rc;
}
