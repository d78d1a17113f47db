/* dlsched plot: draw the speed functions of a platform's processors as an SVG file. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <dlsched/plot.h>

#include "tool.h"

static const tool_opt plot_opts[] = {
    {"output", OPT_STRING, "FILE", NULL, 0, 0, NULL, "SVG file to write (required; also -o)"},
    {"o", OPT_STRING, "FILE", NULL, 0, 0, NULL, "same as --output"},
    {"log-x", OPT_CHOICE, NULL, "auto", 0, 0, "yes|no|auto",
     "logarithmic size axis (auto: if sizes span > 2 decades)"},
    {"log-y", OPT_CHOICE, NULL, "auto", 0, 0, "yes|no|auto",
     "logarithmic speed axis (auto: if speeds span > 2 decades)"},
    {"title", OPT_STRING, "TEXT", NULL, 0, 0, NULL, "title of the picture"},
    {NULL, 0, NULL, NULL, 0, 0, NULL, NULL},
};

const tool_cmd tool_cmd_plot = {
    "plot",
    "draw the processors' speed functions as an SVG picture",
    "PLATFORM -o FILE.svg [--log-x yes|no|auto] [--log-y yes|no|auto] [--title TEXT]",
    "Reads PLATFORM and draws every processor's speed as a function of the size of its\n"
    "share: measured points as markers (with their bands as error bars), constant speeds\n"
    "as horizontal lines, time lines as the speed x / time(x), 2-D models as sections at\n"
    "grid values of x, and each limit as a dashed vertical line. The file is replaced\n"
    "atomically: it is either the old one or the complete new picture. Exits 2 on bad\n"
    "usage, an unreadable platform or an unwritable file, 3 when out of memory.",
    plot_opts,
    1,
    1,
    cmd_plot,
};

/* -1 automatic, 0 no, 1 yes. */
static int scale_choice(const char *v)
{
    return strcmp(v, "yes") == 0 ? 1 : strcmp(v, "no") == 0 ? 0 : -1;
}

int cmd_plot(const tool_args *args)
{
    const char *out = arg_string(args, "output");
    if (out == NULL)
        out = arg_string(args, "o");
    if (out == NULL) {
        tool_error("plot: -o FILE is required (usage: dlsched plot %s)", tool_cmd_plot.usage);
        return EXIT_BADINPUT;
    }
    if (arg_given(args, "output") && arg_given(args, "o")) {
        tool_error("plot: give the output file once, with -o or --output");
        return EXIT_BADINPUT;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl;
    dls_status st = dls_platform_read_file(args->pos[0], &pl, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    dls_plot_params par;
    dls_plot_params_init(&par);
    par.log_x = scale_choice(arg_string(args, "log-x"));
    par.log_y = scale_choice(arg_string(args, "log-y"));
    par.title = arg_string(args, "title");
    st = dls_platform_plot_svg_file(pl, &par, out, &err);
    dls_platform_free(pl);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}
