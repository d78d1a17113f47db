/* dlsched plot: draw the speed functions of a platform's processors as an SVG file. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <dlsched/plot.h>

#include "tool.h"

static const tool_opt plot_opts[] = {
    TOOL_GROUP("Output"),
    TOOL_STRING("output", "FILE", "SVG file to write (required; - for standard output)"),
    TOOL_ALIAS("o", "output"),
    TOOL_STRING("title", "TEXT", "title of the picture"),
    TOOL_GROUP("Axes"),
    {"x-scale", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_PLOT_SCALE_MAP),
     "size axis (auto: logarithmic if sizes span > 2 decades)"},
    {"y-scale", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_PLOT_SCALE_MAP),
     "speed axis (auto: logarithmic if speeds span > 2 decades)"},
    TOOL_OPT_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int plot_default(const char *opt, char *buf, size_t size)
{
    dls_plot_params par;
    dls_plot_params_init(&par);
    if (strcmp(opt, "x-scale") == 0)
        return tool_show_text(dls_plot_scale_name(par.x_scale), buf, size);
    if (strcmp(opt, "y-scale") == 0)
        return tool_show_text(dls_plot_scale_name(par.y_scale), buf, size);
    return 0;
}

const tool_cmd tool_cmd_plot = {
    "plot",
    "draw the processors' speed functions as an SVG picture",
    "PLATFORM -o FILE.svg [OPTIONS]",
    "Draws every processor's speed as a function of the size of its share: measured\n"
    "points as markers (their bands as error bars), constant speeds as horizontal lines,\n"
    "time lines as the speed x / time(x), 2-D models as sections, each limit as a dashed\n"
    "line. Sizes beyond the measured points are extrapolated: dotted and lighter.\n"
    "Identical processors share one curve and one legend entry (\"a = b (identical)\").\n"
    "The file is replaced atomically.",
    plot_opts,
    1,
    1,
    cmd_plot,
    plot_default,
    "dlsched plot examples/cluster.json -o cluster.svg\n"
    "dlsched plot examples/memory_levels.json -o levels.svg --x-scale log\n"
    "dlsched plot examples/lu_cluster.json -o lu.svg --title 'LU cluster'",
    NULL,
};

/* What the command line of `plot` asks, read once (plot_request_read). */
typedef struct plot_request {
    const char *out;      /* -o or --output */
    int out_twice;        /* both given */
    dls_plot_params par;  /* the library's defaults, then the options given */
} plot_request;

/* A scale given as an option (the option checked the name) into *v. */
static void scale_read(const tool_args *args, const char *opt, dls_plot_scale *v)
{
    const char *given = arg_string(args, opt);
    if (given != NULL)
        dls_plot_scale_from_name(given, v);
}

static void plot_request_read(const tool_args *args, plot_request *r)
{
    r->out = tool_output(args);
    r->out_twice = arg_given(args, "output") && arg_given(args, "o");
    dls_plot_params_init(&r->par);
    scale_read(args, "x-scale", &r->par.x_scale);
    scale_read(args, "y-scale", &r->par.y_scale);
    if (arg_given(args, "title"))
        r->par.title = arg_string(args, "title");
}

int cmd_plot(const tool_args *args)
{
    plot_request r;
    plot_request_read(args, &r);
    if (r.out == NULL) {
        tool_error("plot: -o FILE is required (usage: dlsched plot %s)", tool_cmd_plot.usage);
        return EXIT_BADINPUT;
    }
    if (r.out_twice) {
        tool_error("plot: give the output file once, with -o or --output");
        return EXIT_BADINPUT;
    }
    dls_platform *pl = NULL;
    int rc = tool_read_platform(args->pos[0], &pl);
    if (rc != EXIT_DONE)
        return rc;
    dls_error err;
    dls_error_clear(&err);
    dls_status st;
    if (tool_is_stdout(r.out)) {
        char *doc = NULL;
        st = dls_plot_to_string(pl, &r.par, &doc, &err);
        dls_platform_free(pl);
        return st == DLS_OK ? tool_write_stdout(doc, "plot") : tool_fail(st, &err);
    }
    st = dls_plot_write_file(pl, &r.par, r.out, &err);
    dls_platform_free(pl);
    return st == DLS_OK ? EXIT_DONE : tool_fail_output("-o", r.out, st, &err);
}
