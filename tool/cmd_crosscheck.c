/* dlsched crosscheck: the LP and the geometric partitioners checking each other. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_opt crosscheck_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL, "the load (required)"},
    /* given or rate (tool_order_fixed): the checks compare solvers in one send order */
    {"order", OPT_STRING, "given|rate", NULL, 0, 0, NULL,
     "send sequence: the platform's order, or by increasing link rate"},
    TOOL_FLAG("no-limits", "ignore the processors' limits"),
    TOOL_GROUP("Method"),
    {"tolerance", OPT_DOUBLE, "R", NULL, 1e-16, 1e-3, NULL,
     "relative tolerance of the real-valued comparisons"},
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, 1e9, NULL,
     "seconds GLPK may take: for each LP's runs together, and for the MIP"},
    TOOL_GROUP("Output"),
    TOOL_FLAG("json", "write the results as JSON"),
    TOOL_OPT_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int crosscheck_default(const char *opt, char *buf, size_t size)
{
    dls_crosscheck_params par;
    dls_crosscheck_params_init(&par);
    if (strcmp(opt, "order") == 0)
        return tool_show_text(dls_send_order_name(par.schedule.order), buf, size);
    if (strcmp(opt, "tolerance") == 0)
        return tool_show_number(par.rel_tol, buf, size);
    if (strcmp(opt, "time-limit") == 0) {
        char lp[32], mip[32];
        tool_show_number(par.schedule.time_limit, lp, sizeof lp);
        tool_show_number(par.mip.time_limit, mip, sizeof mip);
        snprintf(buf, size, "%s for each LP, %s for the MIP", lp, mip);
        return 1;
    }
    return 0;
}

const tool_cmd tool_cmd_crosscheck = {
    "crosscheck",
    "check the schedulers and partitioners against each other",
    "PLATFORM --load V [OPTIONS]",
    "Runs five independent comparisons and exits 0 when all agree, 1 otherwise: without\n"
    "communication, the schedule against the geometric partition; a whole-number load's\n"
    "integer partition against a MIP; the schedule against its replay; the chain solver\n"
    "against GLPK; and, on up to 8 processors, the best send order against a MIP over\n"
    "every order. A check that cannot run says why and does not count.",
    crosscheck_opts,
    1,
    1,
    cmd_crosscheck,
    crosscheck_default,
    "dlsched crosscheck examples/star_cluster.json --load 1000\n"
    "dlsched crosscheck examples/star_two.json --load 2 --order rate --json",
    NULL,
};

static json_t *checks_json(double V, const dls_crosscheck *c)
{
    json_t *root = json_object(), *checks = json_array();
    json_object_set_new(root, "load", tool_json_number(V));
    json_object_set_new(root, "agree", json_boolean(dls_crosscheck_all_agree(c)));
    for (int k = 0; k < DLS_CHECK_COUNT; k++) {
        const dls_check_result *r = dls_crosscheck_result(c, (dls_check_kind)k);
        json_t *o = json_object();
        json_object_set_new(o, "name", tool_json_text(dls_check_kind_name(r->kind)));
        json_object_set_new(o, "ran", json_boolean(r->ran));
        json_object_set_new(o, "agree", json_boolean(!r->ran || r->agree));
        json_object_set_new(o, "first", tool_json_number(r->first));
        json_object_set_new(o, "second", tool_json_number(r->second));
        json_object_set_new(o, "relative_difference", tool_json_number(r->rel_diff));
        json_object_set_new(o, "extra", tool_json_number(r->extra));
        json_object_set_new(o, "detail", tool_json_text(r->detail));
        /* where the sides differ, the one a replayed distribution proves */
        json_object_set_new(o, "proven", r->proven_side == 1   ? tool_json_text("first")
                                         : r->proven_side == 2 ? tool_json_text("second")
                                                               : json_null());
        json_array_append_new(checks, o);
    }
    json_object_set_new(root, "checks", checks);
    return root;
}

static void print_checks(const char *path, double V, const dls_crosscheck *c)
{
    char a[48];
    printf("%s: load %s units\n", path, tool_amount(V, a, sizeof a));
    printf("  %-19s %-8s %s\n", "CHECK", "RESULT", "DETAIL");
    for (int k = 0; k < DLS_CHECK_COUNT; k++) {
        const dls_check_result *r = dls_crosscheck_result(c, (dls_check_kind)k);
        printf("  %-19s %-8s %s\n", dls_check_kind_name(r->kind),
               !r->ran ? "skipped" : r->agree ? "agree" : "DIFFER", r->detail);
    }
    printf("%s\n", dls_crosscheck_all_agree(c) ? "all checks agree" : "the checks disagree");
}

/* What the command line of `crosscheck` asks, read once (crosscheck_request_read). */
typedef struct crosscheck_request {
    double load;                 /* --load */
    int json;                    /* --json */
    dls_crosscheck_params par;   /* the library's defaults, then the options given */
} crosscheck_request;

/* Reads the options into *r; a message and the exit status when one is refused. */
static int crosscheck_request_read(const tool_args *args, crosscheck_request *r)
{
    memset(r, 0, sizeof *r);
    if (!tool_require_load(args, &r->load))
        return EXIT_BADINPUT;
    r->json = arg_flag(args, "json");
    dls_crosscheck_params_init(&r->par);
    int rc = tool_order_fixed(args, "the checks compare the solvers and the partitioners in one "
                              "fixed send order (given or rate); the best order is searched by "
                              "`dlsched schedule --order best`", &r->par.schedule.order);
    if (rc != EXIT_DONE)
        return rc;
    tool_schedule_options(args, &r->par.schedule);
    arg_double(args, "tolerance", &r->par.rel_tol);
    if (arg_double(args, "time-limit", &r->par.mip.time_limit))
        r->par.schedule.time_limit = r->par.mip.time_limit; /* one option for the LPs and the MIP */
    return EXIT_DONE;
}

int cmd_crosscheck(const tool_args *args)
{
    crosscheck_request r;
    int rc = crosscheck_request_read(args, &r);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    rc = tool_read_platform(args->pos[0], &pl);
    if (rc != EXIT_DONE)
        return rc;
    dls_crosscheck *c = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_crosscheck_run(pl, r.load, &r.par, &c, &err);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return tool_fail(st, &err);
    }
    rc = dls_crosscheck_all_agree(c) ? EXIT_DONE : EXIT_INFEASIBLE;
    if (r.json) {
        int jr = tool_print_json(checks_json(r.load, c));
        if (jr != EXIT_DONE)
            rc = jr;
    } else {
        print_checks(tool_input_name(args->pos[0]), r.load, c);
    }
    dls_crosscheck_free(c);
    dls_platform_free(pl);
    return rc;
}
