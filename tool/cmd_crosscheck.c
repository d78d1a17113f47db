/* dlsched crosscheck: the LP and the geometric partitioners checking each other. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_opt crosscheck_opts[] = {
    {"load", OPT_DOUBLE, "V", NULL, 1e-300, 1e300, NULL, "the load (required)"},
    {"order", OPT_CHOICE, NULL, "given", 0, 0, "given|rate",
     "send sequence: the platform's order, or by increasing link rate"},
    {"no-limits", OPT_FLAG, NULL, NULL, 0, 0, NULL, "ignore the processors' limits"},
    {"tolerance", OPT_DOUBLE, "R", "1e-7", 1e-16, 1e-3, NULL,
     "relative tolerance of the real-valued comparisons"},
    {"time-limit", OPT_DOUBLE, "S", "60", 1e-3, 1e9, NULL, "seconds for the MIP's search"},
    {"json", OPT_FLAG, NULL, NULL, 0, 0, NULL, "write the results as JSON"},
    {NULL, 0, NULL, NULL, 0, 0, NULL, NULL},
};

const tool_cmd tool_cmd_crosscheck = {
    "crosscheck",
    "the LP and the geometric partitioners checking each other",
    "PLATFORM --load V [--order given|rate] [--no-limits] [--tolerance R] [--json]",
    "Runs three independent comparisons and exits 0 when all agree, 1 otherwise:\n"
    "zero-communication: with every link set to {0, 0}, the LP's makespan equals the\n"
    "geometric continuous optimum when the time functions are convex, and is a lower bound\n"
    "of it otherwise (the gap and the envelopes' deviation are given); integer-mip: for a\n"
    "whole-number load, the geometric partitioner's integer optimum equals the optimum of\n"
    "the same problem solved as a MIP with GLPK; replay: the LP's schedule replayed gives\n"
    "the LP's makespan. A check that cannot run (a load that is not whole, a MIP too large)\n"
    "says why and does not count.",
    crosscheck_opts,
    1,
    1,
    cmd_crosscheck,
};

int cmd_crosscheck(const tool_args *args)
{
    if (!arg_given(args, "load")) {
        tool_error("crosscheck: give the load with --load V");
        return EXIT_BADINPUT;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl;
    dls_status st = dls_platform_read_file(args->pos[0], &pl, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    dls_crosscheck_params par;
    dls_crosscheck_params_init(&par);
    par.schedule.order =
        strcmp(arg_string(args, "order"), "rate") == 0 ? DLS_ORDER_RATE : DLS_ORDER_GIVEN;
    par.schedule.use_limits = !arg_flag(args, "no-limits");
    par.rel_tol = arg_double(args, "tolerance", 1e-7);
    par.mip.time_limit = arg_double(args, "time-limit", 60);
    double V = arg_double(args, "load", 0);
    dls_check_result r[DLS_CHECK_COUNT];
    int agree = 0;
    st = dls_crosscheck(pl, V, &par, r, &agree, &err);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return tool_fail(st, &err);
    }
    int rc = agree ? EXIT_DONE : EXIT_INFEASIBLE;
    if (arg_flag(args, "json")) {
        json_t *root = json_object(), *checks = json_array();
        json_object_set_new(root, "load", json_real(V));
        json_object_set_new(root, "agree", json_boolean(agree));
        for (int k = 0; k < DLS_CHECK_COUNT; k++) {
            json_t *o = json_object();
            json_object_set_new(o, "name", json_string(r[k].name));
            json_object_set_new(o, "ran", json_boolean(r[k].ran));
            json_object_set_new(o, "agree", json_boolean(!r[k].ran || r[k].agree));
            json_object_set_new(o, "first", tool_json_number(r[k].first));
            json_object_set_new(o, "second", tool_json_number(r[k].second));
            json_object_set_new(o, "relative_difference", tool_json_number(r[k].rel_diff));
            json_object_set_new(o, "extra", tool_json_number(r[k].extra));
            json_object_set_new(o, "detail", json_string(r[k].detail));
            json_array_append_new(checks, o);
        }
        json_object_set_new(root, "checks", checks);
        int jr = tool_print_json(root);
        if (jr != EXIT_DONE)
            rc = jr;
    } else {
        printf("%s: load %.10g\n", args->pos[0], V);
        for (int k = 0; k < DLS_CHECK_COUNT; k++)
            printf("  %-19s %-8s %s\n", r[k].name,
                   !r[k].ran ? "skipped" : r[k].agree ? "agree" : "DIFFER", r[k].detail);
        printf("%s\n", agree ? "all checks agree" : "the checks disagree");
    }
    dls_platform_free(pl);
    return rc;
}
