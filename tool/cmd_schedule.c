/* dlsched schedule, evaluate and export: the divisible-load LP of Drozdowski and Wolniewicz (2003;
 * see References in dlsched(1)). */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* The options of every command of this file; --order takes text, read by tool/order.c
 * once the platform's names are known. */
#define COMMON_OPTS(order_help)                                                              \
    {"order", OPT_STRING, "ORDER", NULL, 0, 0, NULL, order_help},                            \
    TOOL_FLAG("originator-computes",                                                          \
              "processors without a link are the originator's: sent nothing, served first"),  \
    TOOL_FLAG("no-limits", "ignore the processors' limits")
/* --order's explicit forms, in the help. */
#define ORDER_FORMS "NAME,NAME,... or a FILE of names, every processor once"
/* Why evaluate and export refuse --order best. */
#define NO_BEST_ORDER                                                                        \
    "the best order is searched by `dlsched schedule --order best`; give here the order it " \
    "found (its send_order), as NAME,NAME,... or a FILE of names"

/* The MIP is tried by default (--mip auto) on platforms at most this large: its branch and
 * bound grows quickly with the processors. */
#define MIP_AUTO_PROCESSORS 8
/* Two makespans closer than this (relatively) are printed as one: the differences below it
 * are the solver's rounding, not the models'. */
#define SAME_MAKESPAN 1e-9
/* The range of --curve by default: from the load divided by this to the load times the
 * other (at most the capacity), so that the load sits well inside it. */
#define CURVE_FROM_DIVISOR 100
#define CURVE_TO_FACTOR 2

static const tool_opt schedule_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL, "the load to distribute (required)"},
    COMMON_OPTS("send order: given (the platform's), rate (fastest links first), best (the "
                "least makespan, searched), or " ORDER_FORMS),
    TOOL_FLAG("integer",
              "whole-unit loads: the schedule rounded, and the exact MIP on small platforms"),
    TOOL_GROUP("Method"),
    {"solver", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_STAR_SOLVER_MAP),
     "the exact chain solver, or GLPK's simplex (the default with --exact, --integer, "
     "--exact-shape)"},
    TOOL_FLAG("keep-unused",
              "charge every processor its startup, even one given no load"),
    TOOL_FLAG("exact", "certify the optimum with GLPK's exact rational simplex (small platforms)"),
    TOOL_FLAG("exact-shape",
              "the true (non-convex) time of speed models, solved as a MIP, instead of the envelope"),
    {"mip", OPT_CHOICE, NULL, "auto", 0, 0, "auto|yes|no",
     "with --integer: also solve the MIP (auto: with at most " TOOL_STR(MIP_AUTO_PROCESSORS)
     " processors)"},
    {"order-exact-max", OPT_COUNT, "N", NULL, 1, DLS_ORDER_EXACT_MAX, NULL,
     "with --order best: search exactly up to N processors, locally past them"},
    {"order-candidates", OPT_COUNT, "N", NULL, 1, 1e15, NULL,
     "with --order best: the most orders the local search prices (the same on any machine)"},
    {"max-pieces", OPT_COUNT, "N", NULL, 16, 1e15, NULL,
     "pieces the chain solver's exact selection may build; past them, a heuristic's "
     "(said)"},
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, 1e9, NULL,
     "seconds for GLPK (the LP, each MIP) and for the search of --order best"},
    TOOL_GROUP("Makespan as a function of the load"),
    TOOL_FLAG("curve", "print the makespan T(V) exactly from --from to --to, and dT/dV at V"),
    {"from", OPT_DOUBLE, "V0", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "the smallest load of --curve (default V / " TOOL_STR(CURVE_FROM_DIVISOR) ")"},
    {"to", OPT_DOUBLE, "V1", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "the largest load of --curve (default " TOOL_STR(CURVE_TO_FACTOR)
     " V, within the limits)"},
    TOOL_STRING("svg", "FILE", "plot the T(V) of --curve as SVG"),
    TOOL_GROUP("Output"),
    TOOL_STRING("gantt", "FILE", "draw the schedule as an SVG Gantt chart"),
    TOOL_FLAG("verbose", "also say what does not change the answer (a speed model's shape "
              "where no load lies), and let GLPK report its progress"),
    TOOL_DIGITS_OPT,
    TOOL_FLAG("json", "write the schedule as JSON"),
    TOOL_OPT_END,
};

/* Combinations refused: options that would do nothing, or contradict each other. */
static const tool_rule schedule_rules[] = {
    TOOL_NEEDS("mip", "integer"),
    TOOL_NEEDS("from", "curve"),
    TOOL_NEEDS("to", "curve"),
    TOOL_NEEDS("svg", "curve"),
    TOOL_NEEDS("order-exact-max", "order=best"),
    TOOL_NEEDS("order-candidates", "order=best"),
    TOOL_EXCLUDES("curve", "integer|exact-shape|exact|gantt"),
    TOOL_RULE_END,
};

static const tool_opt evaluate_opts[] = {
    TOOL_GROUP("Problem"),
    {"loads", OPT_STRING, "A1,A2,...", NULL, 0, 0, NULL,
     "one load per processor, in platform order (or --measured)"},
    TOOL_STRING("measured", "TIMELINE.json",
                "the loads of a timeline measured in a real run (the JSON of the MPI "
                "layer), predicted and compared"),
    COMMON_OPTS("send order: given (the platform's), rate (fastest links first), or "
                ORDER_FORMS),
    TOOL_GROUP("Output"),
    TOOL_STRING("gantt", "FILE", "draw the timeline as an SVG Gantt chart"),
    TOOL_DIGITS_OPT,
    TOOL_FLAG("json", "write the timeline as JSON"),
    TOOL_OPT_END,
};

static const tool_rule evaluate_rules[] = {
    TOOL_EXCLUDES("loads", "measured"),
    TOOL_RULE_END,
};

static const tool_opt export_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "the load to distribute (required but for simgrid)"},
    COMMON_OPTS("send order: given (the platform's), rate (fastest links first), or "
                ORDER_FORMS),
    TOOL_GROUP("Output"),
    {"format", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_EXPORT_FORMAT_MAP) "simgrid",
     "CPLEX LP, free MPS, GLPK's format, data for lp/star.mod, or a SimGrid platform (required)"},
    TOOL_STRING("output", "FILE", "the file to write (required; - for standard output)"),
    TOOL_ALIAS("o", "output"),
    TOOL_GROUP("SimGrid (--format simgrid)"),
    {"bytes-per-unit", OPT_DOUBLE, "B", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "bytes one unit of load is"},
    {"flops-per-unit", OPT_DOUBLE, "F", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "flops one unit of work is"},
    TOOL_GROUP("Installments (--installments)"),
    TOOL_STRING("installments", "NAME,...|FILE",
                "the multi-installment LP of this sequence (names may repeat) instead"),
    {"window", OPT_COUNT, "W", NULL, 1, DLS_INSTALLMENT_MAX_WINDOW, NULL,
     "chunks a processor with a limit holds at once"},
    TOOL_STRING("release", "FILE", "release times, \"NAME SECONDS\" a line"),
    TOOL_STRING("returns", "FILE",
                "results returned, \"NAME FRACTION STARTUP RATE\" a line"),
    {"return-order", OPT_STRING, "fifo|lifo|NAME,...", NULL, 0, 0, NULL,
     "with --returns: the order results come back in"},
    TOOL_FLAG("two-port", "with --returns: results come back while the sends go on"),
    TOOL_OPT_END,
};

static const tool_rule export_rules[] = {
    TOOL_NEEDS("bytes-per-unit", "format=simgrid"),
    TOOL_NEEDS("flops-per-unit", "format=simgrid"),
    TOOL_EXCLUDES_WHY("load", "format=simgrid", "a SimGrid platform holds no load"),
    TOOL_EXCLUDES_WHY("installments", "format=simgrid", "a SimGrid platform holds no LP"),
    TOOL_EXCLUDES_WHY("order", "format=simgrid", "simulate takes the order from the schedule"),
    TOOL_EXCLUDES_WHY("originator-computes", "format=simgrid",
                      "a SimGrid platform holds no LP"),
    TOOL_EXCLUDES_WHY("no-limits", "format=simgrid",
                      "the limits are written as comments, which simulate reads"),
    TOOL_NEEDS("window", "installments"),
    TOOL_NEEDS("release", "installments"),
    TOOL_NEEDS("returns", "installments"),
    TOOL_NEEDS("return-order", "returns"),
    TOOL_NEEDS("two-port", "returns"),
    TOOL_EXCLUDES("installments", "order|originator-computes"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int schedule_default(const char *opt, char *buf, size_t size)
{
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    dls_mip_params mp;
    dls_mip_params_init(&mp);
    if (strcmp(opt, "order") == 0)
        return tool_show_text(dls_send_order_name(par.order), buf, size);
    if (strcmp(opt, "solver") == 0)
        return tool_show_text(dls_star_solver_name(par.solver), buf, size);
    if (strcmp(opt, "max-pieces") == 0)
        return tool_show_text("4 per time line and processor, at least 200000", buf, size);
    if (strcmp(opt, "order-exact-max") == 0)
        return tool_show_number(par.order_exact_max != 0 ? (double)par.order_exact_max
                                                         : DLS_ORDER_DEFAULT_EXACT_MAX,
                                buf, size);
    if (strcmp(opt, "order-candidates") == 0)
        return tool_show_text("2 to 4000, by the platform's size", buf, size);
    dls_simgrid_params sp;
    dls_simgrid_params_init(&sp);
    if (strcmp(opt, "bytes-per-unit") == 0)
        return tool_show_number(sp.bytes_per_unit, buf, size);
    if (strcmp(opt, "flops-per-unit") == 0)
        return tool_show_number(sp.flops_per_unit, buf, size);
    dls_installment_lp_params ip;
    dls_installment_lp_params_init(&ip);
    if (strcmp(opt, "return-order") == 0)
        return tool_show_text(dls_return_order_name(ip.return_order), buf, size);
    if (strcmp(opt, "time-limit") == 0) {
        char lp[32], mip[32], order[32];
        tool_show_number(par.time_limit, lp, sizeof lp);
        tool_show_number(mp.time_limit, mip, sizeof mip);
        tool_show_number(par.order_time_limit, order, sizeof order);
        snprintf(buf, size, "%s for the LP, %s for each MIP, %s for the order search", lp, mip,
                 order);
        return 1;
    }
    return 0;
}

const tool_cmd tool_cmd_schedule = {
    "schedule",
    "divide a load over a star network: loads, send order, makespan",
    "PLATFORM --load V [OPTIONS]",
    "Divides a load V over a star network: the originator sends each processor its share\n"
    "in turn (startup + rate x per send), each computes once its data has arrived, and the\n"
    "makespan is minimised within the processors' limits. The default chain solver is\n"
    "exact; --solver glpk solves the LP with GLPK. Exits 1 when the limits cannot hold V.",
    schedule_opts,
    1,
    1,
    cmd_schedule,
    schedule_default,
    "dlsched schedule examples/star_cluster.json --load 1000\n"
    "dlsched schedule examples/star_cluster.json --load 1000 --order best --json\n"
    "dlsched schedule examples/memory_levels.json --load 5e6 --gantt chart.svg\n"
    "dlsched schedule examples/star_cluster.json --load 1000 --curve --to 5000",
    schedule_rules,
};

const tool_cmd tool_cmd_evaluate = {
    "evaluate",
    "the exact timeline of loads you give, under the true models",
    "PLATFORM --loads A1,A2,... [OPTIONS]\n"
    "       dlsched evaluate PLATFORM --measured TIMELINE.json [OPTIONS]",
    "Replays a distribution: the sends one after the other in the send order, each\n"
    "processor computing once its data has arrived, under its true model. Prints each\n"
    "processor's send, compute, finish and idle times, and the makespan. With --measured,\n"
    "the loads of a measured run, its predicted and measured finishes side by side.\n"
    "--order takes the forms of schedule's, but not best: give the order it found.",
    evaluate_opts,
    1,
    1,
    cmd_evaluate,
    schedule_default,
    "dlsched evaluate examples/star_cluster.json --loads 300,300,200,100,100\n"
    "dlsched evaluate examples/star_cluster.json --loads 300,300,200,100,100 \\\n"
    "    --order rate\n"
    "dlsched evaluate examples/star_two.json --loads 1,1 --json",
    evaluate_rules,
};

const tool_cmd tool_cmd_export = {
    "export",
    "write the scheduling LP for other solvers, or a SimGrid platform",
    "PLATFORM --load V --format lp|mps|glpk|mathprog -o FILE\n"
    "       dlsched export PLATFORM --format simgrid -o FILE [OPTIONS]\n"
    "       dlsched export PLATFORM --load V --installments NAME,... [OPTIONS]",
    "Writes the scheduling LP for the load V in the platform's own units: CPLEX LP, free\n"
    "MPS, GLPK's format, or data for the MathProg model star.mod (installed with dlsched),\n"
    "so that `glpsol -m star.mod -d FILE` solves it. --installments writes the LP that\n"
    "sizes the chunks of a sequence of installments instead. --format simgrid writes the\n"
    "star as a SimGrid platform, for `dlsched simulate`.",
    export_opts,
    1,
    1,
    cmd_export,
    schedule_default,
    "dlsched export examples/star_cluster.json --load 1000 --format lp -o star.lp\n"
    "dlsched export examples/star_cluster.json --load 1000 --format mathprog -o -\n"
    "dlsched export examples/star_cluster.json --format simgrid -o star.xml",
    export_rules,
};

/* The parameters every command of this file takes: the defaults, then what was given
 * (--order's keyword, --no-limits, --originator-computes); an explicit order is applied
 * once read against the platform (tool_order_apply). */
static void read_common(const tool_args *args, dls_schedule_params *par)
{
    dls_schedule_params_init(par);
    tool_schedule_options(args, par);
    arg_set_flag(args, "originator-computes", &par->originator_computes, 1);
}

/* How schedule and evaluate give their answer, read once from the command line. */
typedef struct schedule_output {
    const char *cmd;      /* the command's name, for messages */
    const char *platform; /* the PLATFORM argument */
    const char *gantt;    /* --gantt FILE, or NULL */
    int json, verbose;    /* --json, --verbose (evaluate has no --verbose) */
    int digits;           /* --digits */
} schedule_output;

static void read_output(const tool_args *args, schedule_output *out)
{
    out->cmd = args->cmd->name;
    out->platform = args->pos[0];
    out->gantt = arg_string(args, "gantt");
    out->json = arg_flag(args, "json");
    out->verbose = arg_has(args, "verbose") && arg_flag(args, "verbose");
    out->digits = tool_digits(args);
}

/* The rational certificate (--exact): the numbers as exact fractions, by processor. */
static json_t *certificate_json(const dls_schedule *s, const dls_platform *pl)
{
    json_t *procs = json_array();
    for (size_t i = 0; i < dls_schedule_count(s); i++) {
        const char *ld = dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD, i);
        if (ld == NULL)
            continue; /* not in the LP */
        json_array_append_new(
            procs, json_pack("{s:o,s:s,s:s,s:s}", "name", tool_json_text(dls_platform_name(pl, i)),
                             "load", ld, "finish_weight",
                             dls_schedule_certificate(s, DLS_CERTIFICATE_FINISH_WEIGHT, i),
                             "limit_price",
                             dls_schedule_certificate(s, DLS_CERTIFICATE_LIMIT_PRICE, i)));
    }
    return json_pack("{s:s,s:s,s:o}", "makespan",
                     dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0), "load_price",
                     dls_schedule_certificate(s, DLS_CERTIFICATE_LOAD_PRICE, 0), "processors",
                     procs);
}

/* Whether the report says how the send order was found: when --order asked for the best
 * one or named it (given and rate keep the report they had). */
static int order_reported(const tool_order *ord)
{
    return ord != NULL && (ord->order == DLS_ORDER_BEST || ord->order == DLS_ORDER_SEQUENCE);
}

/* How the send order was found, for the JSON report: "order": {"asked", "file" (an explicit
 * order read from a file), "method", "optimal", "sequence", "given_makespan",
 * "rate_makespan", "lower_bound", "candidates"}; figures not computed are null. */
static json_t *order_json(const dls_platform *pl, const dls_schedule *s, const tool_order *ord)
{
    dls_schedule_solver_info si;
    int known = dls_schedule_get_solver_info(s, &si, NULL) == DLS_OK;
    if (!known) {
        /* an evaluation, integer or MIP schedule: the order was as asked; an infeasible
         * one: no order was searched (method and optimal null for best) */
        memset(&si, 0, sizeof si);
        si.order_method = DLS_ORDER_METHOD_FIXED;
        si.given_makespan = si.rate_makespan = si.order_lower_bound = NAN;
        known = ord->order != DLS_ORDER_BEST;
    }
    const char *asked = ord->order == DLS_ORDER_SEQUENCE ? (ord->file ? "file" : "list")
                                                         : dls_send_order_name(ord->order);
    json_t *seq = json_array();
    const size_t *q = dls_schedule_sequence(s);
    for (size_t k = 0; k < dls_schedule_count(s); k++)
        json_array_append_new(seq, tool_json_text(dls_platform_name(pl, q[k])));
    json_t *o = json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:I}", "asked", asked, "method",
                          known ? json_string(dls_order_method_name(si.order_method))
                                : json_null(),
                          "optimal", known ? json_boolean(si.order_optimal) : json_null(),
                          "sequence", seq, "given_makespan",
                          tool_json_number(si.given_makespan), "rate_makespan",
                          tool_json_number(si.rate_makespan), "lower_bound",
                          tool_json_number(si.order_lower_bound), "candidates",
                          (json_int_t)si.order_candidates);
    if (o != NULL && ord->file != NULL)
        json_object_set_new(o, "file", tool_json_text(ord->file));
    return o;
}

/* mode: 0 LP or evaluation, 1 integer loads, 2 exact shape; ord: --order, or NULL (a
 * measured timeline) */
static json_t *schedule_json(const dls_platform *pl, const dls_schedule *s,
                             const tool_order *ord, int solved, int mode)
{
    size_t p = dls_schedule_count(s);
    json_t *procs = json_array();
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s),
                 *se = dls_schedule_send_end(s), *ct = dls_schedule_compute_time(s),
                 *fin = dls_schedule_finish(s), *idle = dls_schedule_idle(s);
    const int *lvl = dls_schedule_levels(s);
    for (size_t i = 0; i < p; i++)
        json_array_append_new(
            procs, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:i}", "name", dls_platform_name(pl, i),
                             "load", mode == 1 ? json_integer((json_int_t)ld[i]) : tool_json_number(ld[i]), "send_start", tool_json_number(ss[i]),
                             "send_end", tool_json_number(se[i]), "compute_time",
                             tool_json_number(ct[i]), "finish", tool_json_number(fin[i]), "idle",
                             tool_json_number(idle[i]), "level", lvl[i]));
    json_t *order = json_array();
    for (size_t k = 0; k < p; k++)
        json_array_append_new(order,
                              tool_json_text(dls_platform_name(pl, dls_schedule_sequence(s)[k])));
    json_t *root = json_pack(
        "{s:o,s:o,s:s,s:o,s:o,s:o,s:i,s:i,s:o,s:o,s:o}", "load", tool_json_number(dls_schedule_load(s)),
        "makespan", tool_json_number(dls_schedule_makespan(s)), "status",
        dls_solution_status_name(dls_schedule_status(s)), "paper_makespan",
        tool_json_number(dls_schedule_paper_makespan(s)), "true_makespan",
        tool_json_number(dls_schedule_true_makespan(s)), "envelope_deviation",
        tool_json_number(dls_schedule_envelope_deviation(s)), "iterations",
        (int)dls_schedule_iterations(s), "solves", (int)dls_schedule_solves(s), "residual",
        tool_json_number(dls_schedule_residual(s)), "send_order", order, "processors", procs);
    if (solved && mode == 0)
        /* the LP's own makespan, on the envelopes of speed models (the makespan is the
         * loads' under the true models) */
        json_object_set_new(root, "lp_makespan", tool_json_number(dls_schedule_lp_makespan(s)));
    if (solved) {
        json_object_set_new(root, "kkt_primal", tool_json_number(dls_schedule_kkt_primal(s)));
        json_object_set_new(root, "kkt_dual", tool_json_number(dls_schedule_kkt_dual(s)));
    }
    json_object_set_new(root, "kind", tool_json_text(dls_schedule_kind_name(dls_schedule_get_kind(s))));
    dls_schedule_solver_info si;
    if (mode == 0 && dls_schedule_get_solver_info(s, &si, NULL) == DLS_OK) {
        json_object_set_new(root, "solver", tool_json_text(dls_star_solver_name(si.solver)));
        json_object_set_new(root, "optimal", json_boolean(si.optimal));
        json_object_set_new(root, "lower_bound", tool_json_number(si.lower_bound));
        json_object_set_new(root, "used", json_integer((json_int_t)si.used));
        json_object_set_new(root, "marginal_cost",
                            json_pack("{s:o,s:o}", "below", tool_json_number(si.marginal_left),
                                      "above", tool_json_number(si.marginal_right)));
        if (si.solver == DLS_SOLVER_CHAIN && si.selection)
            json_object_set_new(root, "pieces", json_integer((json_int_t)si.pieces_total));
    }
    if (dls_schedule_exact_confirmed(s))
        json_object_set_new(root, "exact_verified", json_true());
    if (dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0) != NULL)
        json_object_set_new(root, "certificate", certificate_json(s, pl));
    dls_schedule_mip_info mi;
    if (mode != 0 && dls_schedule_get_mip_info(s, &mi, NULL) == DLS_OK) {
        double lp = mi.lp_makespan, mk = dls_schedule_makespan(s);
        json_object_set_new(root, "lp_makespan", tool_json_number(lp));
        json_object_set_new(root, "gap", tool_json_number(lp > 0 ? (mk - lp) / lp : NAN));
        json_object_set_new(root, "lp_true_makespan", tool_json_number(mi.lp_true_makespan));
        /* the best bound proven on the optimum (null: none), which makes it optimal */
        json_object_set_new(root, "lower_bound", tool_json_number(mi.lower_bound));
        if (!isnan(mi.rounded_makespan))
            json_object_set_new(root, "rounded_makespan", tool_json_number(mi.rounded_makespan));
        int solved_mip = mi.mip_status != DLS_SOLUTION_NONE;
        json_object_set_new(root, "mip_status",
                            tool_json_text(solved_mip ? dls_solution_status_name(mi.mip_status)
                                                   : "not solved"));
        if (solved_mip) {
            json_object_set_new(root, "mip_makespan", tool_json_number(mi.mip_makespan));
            json_object_set_new(root, "mip_bound", tool_json_number(mi.mip_bound));
            json_object_set_new(root, "mip_seconds", tool_json_number(mi.mip_seconds));
            json_object_set_new(root, "mip_relaxed", json_boolean(mi.mip_relaxed));
        }
    }
    if (order_reported(ord))
        json_object_set_new(root, "order", order_json(pl, s, ord));
    if (dls_schedule_note(s)[0])
        json_object_set_new(root, "note", tool_json_text(dls_schedule_note(s)));
    if (dls_schedule_details(s)[0])
        json_object_set_new(root, "details", tool_json_text(dls_schedule_details(s)));
    return root;
}

/* "; dT/dV X s per unit" (one figure where both sides agree). */
static void print_marginal(const dls_schedule_solver_info *si)
{
    double lo = si->marginal_left, hi = si->marginal_right;
    if (isnan(lo) || isnan(hi))
        return; /* not known (a schedule of a simple distribution) */
    if (fabs(hi - lo) <= SAME_MAKESPAN * fabs(hi))
        printf("; dT/dV %.6g s per unit", hi);
    else
        printf("; dT/dV %.6g s per unit below the load, %.6g above", lo, hi);
}

/* "; the platform's order 6.1 s (0.35 s or 6.09% longer)": another order's makespan against
 * the schedule's T, after "; " for the first (*first set) and ", " for the next; nothing
 * when it was not computed (NaN). */
static void print_other_order(const char *what, double other, double T, int *first)
{
    if (isnan(other))
        return;
    printf("%s%s %.9g s", *first ? "; " : ", ", what, other);
    *first = 0;
    double d = other - T;
    if (fabs(d) <= SAME_MAKESPAN * fabs(T))
        printf(" (the same)");
    else
        printf(" (%.6g s or %.3g%% %s)", fabs(d), 100 * fabs(d) / T, d > 0 ? "longer" : "shorter");
}

/* The line of the text report on the send order, when --order asked for the best one or
 * named it: how it was found, and for best what it gains over the platform's and the rate
 * orders, and how far it can be from the best of all orders. */
static void print_order(const tool_order *ord, const dls_schedule *s)
{
    if (!order_reported(ord))
        return;
    if (ord->order == DLS_ORDER_SEQUENCE) {
        if (ord->file != NULL)
            printf("send order: as in %s\n", ord->file);
        else
            printf("send order: as listed by --order\n");
        return;
    }
    dls_schedule_solver_info si;
    if (dls_schedule_get_solver_info(s, &si, NULL) != DLS_OK) {
        printf("send order: best\n");
        return;
    }
    printf("send order: best, ");
    switch (si.order_method) {
    case DLS_ORDER_METHOD_EXACT:
        printf("by the exact search");
        break;
    case DLS_ORDER_METHOD_RULE:
        printf("by a rule proven for this platform");
        break;
    case DLS_ORDER_METHOD_SEARCH:
        printf("by the local search over %zu candidate orders", si.order_candidates);
        break;
    default:
        printf("%s", dls_order_method_name(si.order_method));
    }
    printf(" (%s)", si.order_optimal ? "proven best" : "not proven best");
    double T = dls_schedule_makespan(s), lb = si.order_lower_bound;
    int first = 1;
    print_other_order("the platform's order", si.given_makespan, T, &first);
    print_other_order("the rate order", si.rate_makespan, T, &first);
    if (!isnan(lb)) {
        printf("; lower bound %.9g s", lb);
        if (lb > 0)
            printf(" (gap %.6g s, %.3g%%)", T - lb, 100 * (T - lb) / lb);
    }
    printf("\n");
}

/* How many rows ahead print_schedule fetches the numbers of a row. */
#define ROW_AHEAD 16

/* The numeric columns of the schedule's table, in their order. */
enum { COL_LOAD, COL_SHARE, COL_SEND_START, COL_SEND_END, COL_FINISH, COL_COMPUTE, COL_IDLE,
       SCHEDULE_COLS };

/* Whether processor i has nothing to do in the schedule: no load, and no send. */
static int unused(const double *ld, const double *ss, size_t i)
{
    return ld[i] == 0 && !isfinite(ss[i]);
}

/* The columns of print_schedule, each fitted to its values: times are rounding noise below
 * TOOL_ZERO_REL of the makespan, loads below TOOL_ZERO_REL of the load. */
static void schedule_columns(const dls_schedule *s, int digits, int whole, tool_column *col)
{
    size_t p = dls_schedule_count(s);
    double V = dls_schedule_load(s), T = dls_schedule_makespan(s);
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s),
                 *se = dls_schedule_send_end(s), *ct = dls_schedule_compute_time(s),
                 *fin = dls_schedule_finish(s), *idle = dls_schedule_idle(s);
    static const char *const head[SCHEDULE_COLS] = {
        "LOAD (units)", "SHARE (%)", "SEND START (s)", "SEND END (s)", "FINISH (s)",
        "COMPUTE TIME (s)", "IDLE TIME (s)"};
    for (int c = 0; c < SCHEDULE_COLS; c++)
        tool_column_init(&col[c], head[c], digits,
                         TOOL_ZERO_REL * (c == COL_LOAD ? V : c == COL_SHARE ? 100 : T));
    col[COL_LOAD].whole = whole;
    for (size_t i = 0; i < p; i++) {
        tool_column_see(&col[COL_LOAD], ld[i]);
        tool_column_see(&col[COL_SHARE], 100 * ld[i] / V);
        if (unused(ld, ss, i))
            continue;
        tool_column_see(&col[COL_SEND_START], ss[i]);
        tool_column_see(&col[COL_SEND_END], se[i]);
        tool_column_see(&col[COL_FINISH], fin[i]);
        tool_column_see(&col[COL_COMPUTE], ct[i]);
        tool_column_see(&col[COL_IDLE], idle[i]);
    }
    for (int c = 0; c < SCHEDULE_COLS; c++)
        tool_column_fix(&col[c]);
    int room = (int)strlen("unused"); /* the word of an unused processor */
    if (col[COL_FINISH].width < room)
        col[COL_FINISH].width = room;
}

/* One row of print_schedule into line (sized by the caller); returns its end. */
static char *schedule_row(char *o, const dls_schedule *s, const tool_column *col, size_t i)
{
    double V = dls_schedule_load(s);
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s),
                 *se = dls_schedule_send_end(s), *ct = dls_schedule_compute_time(s),
                 *fin = dls_schedule_finish(s), *idle = dls_schedule_idle(s);
    const int *lvl = dls_schedule_levels(s);
    int off = unused(ld, ss, i);
    double v[SCHEDULE_COLS] = {ld[i], 100 * ld[i] / V, ss[i], se[i], fin[i], ct[i], idle[i]};
    for (int c = 0; c < SCHEDULE_COLS; c++) {
        o = tool_put(o, "  ", 0);
        if (off && c == COL_FINISH)
            o = tool_put_right(o, "unused", (size_t)col[c].width);
        else if (c >= COL_SEND_START && (off || !isfinite(v[c])))
            o = tool_put_right(o, "-", (size_t)col[c].width);
        else
            o = tool_put_column(o, &col[c], v[c]);
    }
    o = tool_put(o, "  ", 0);
    if (lvl[i] > 0) {
        char lv[24];
        *tool_put_size(lv, (size_t)lvl[i]) = '\0';
        return tool_put_right(o, lv, 5);
    }
    return tool_put_right(o, "-", 5);
}

/* The lines under the table: what LEVEL means, and the processors left unused. */
static void print_schedule_notes(const dls_schedule *s)
{
    size_t p = dls_schedule_count(s), off = 0, lines = 0;
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s);
    const int *lvl = dls_schedule_levels(s);
    for (size_t i = 0; i < p; i++) {
        off += (size_t)unused(ld, ss, i);
        lines += lvl[i] > 0;
    }
    if (lines > 0)
        printf("LEVEL: the time line of the processor's model in use (1 the first, a higher "
               "one\nonce its memory is full); - for a speed model or an unused processor\n");
    if (off > 0) {
        char n[64];
        printf("%s unused (given no load: %s startup would cost more than %s work saves)",
               tool_count(n, sizeof n, (double)off, "processor", "processors"),
               off == 1 ? "its" : "their", off == 1 ? "its" : "their");
        double paper = dls_schedule_paper_makespan(s);
        if (isfinite(paper) && paper > dls_schedule_makespan(s))
            printf(";\nwith every processor sent a share, each startup paid, the makespan "
                   "would be %.9g s", paper);
        printf("\n");
    }
}

/* The table of the schedule: a title, then a line per processor in send order. */
static void print_schedule_table(const char *path, const dls_platform *pl,
                                 const dls_schedule *s, int digits, int mode)
{
    size_t p = dls_schedule_count(s);
    int width = tool_name_width(pl, p);
    char cell[TOOL_CELL_BYTES], amount[48], count[64];
    const double *ld = dls_schedule_loads(s), *ss = dls_schedule_send_start(s),
                 *se = dls_schedule_send_end(s), *ct = dls_schedule_compute_time(s),
                 *fin = dls_schedule_finish(s), *idle = dls_schedule_idle(s);
    const int *lvl = dls_schedule_levels(s);
    tool_column col[SCHEDULE_COLS];
    schedule_columns(s, digits, mode == 1, col);
    printf("%s: load %s units over %s, in send order\n", path,
           tool_amount(dls_schedule_load(s), amount, sizeof amount),
           tool_count(count, sizeof count, (double)p, "processor", "processors"));
    char line[TOOL_CELL_BYTES + SCHEDULE_COLS * (TOOL_COLUMN_BYTES + 2) + 16];
    char *o = tool_put(line, "  ", 0);
    o = tool_put(o, tool_cell(cell, sizeof cell, "NAME", width), 0);
    for (int c = 0; c < SCHEDULE_COLS; c++)
        o = tool_put_heading(tool_put(o, "  ", 0), &col[c]);
    o = tool_put(o, "  LEVEL\n", 0);
    fwrite(line, 1, (size_t)(o - line), stdout);
    /* each line written as one piece without printf (10^6 lines) */
    const size_t *seq = dls_schedule_sequence(s);
    for (size_t k = 0; k < p; k++) {
        size_t i = seq[k];
#if defined(__GNUC__)
        /* rows come in send order, the arrays in platform order: in rate order every row
         * reads seven arrays and a name at random places, each a cache (and TLB) miss;
         * fetching those of a later row now overlaps the misses */
        if (k + ROW_AHEAD < p) {
            size_t j = seq[k + ROW_AHEAD];
            __builtin_prefetch(&ld[j]);
            __builtin_prefetch(&ss[j]);
            __builtin_prefetch(&se[j]);
            __builtin_prefetch(&ct[j]);
            __builtin_prefetch(&fin[j]);
            __builtin_prefetch(&idle[j]);
            __builtin_prefetch(&lvl[j]);
            __builtin_prefetch(dls_platform_name(pl, seq[k + ROW_AHEAD / 2]));
        }
#endif
        o = tool_put(line, "  ", 0);
        o = tool_put(o, tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
        o = schedule_row(o, s, col, i);
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
}

/* The line of the makespan: how it was solved, certified, and the LP's own makespan. */
static void print_makespan(const dls_schedule *s, int solved, int mode)
{
    size_t p = dls_schedule_count(s);
    printf("makespan %.9g s", dls_schedule_makespan(s));
    dls_schedule_solver_info si;
    int chain = mode == 0 && dls_schedule_get_solver_info(s, &si, NULL) == DLS_OK &&
                si.solver == DLS_SOLVER_CHAIN;
    int optimal = dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL;
    if (chain) {
        printf(", %s by the chain solver%s; %zu of %zu %s used",
               optimal ? "optimal" : "not proven optimal",
               si.selection ? (si.optimal ? " (the best set of processors for the order)"
                                          : " (selection past --max-pieces)")
                            : " (the paper's LP)", si.used, p,
               tool_plural(p, "processor", "processors"));
        if (!si.optimal && !isnan(si.lower_bound))
            printf("; lower bound %.9g s", si.lower_bound);
        print_marginal(&si);
    } else if (solved) {
        printf(", %s, %u simplex iterations", dls_solution_status_name(dls_schedule_status(s)),
               dls_schedule_iterations(s));
    }
    if (solved) {
        if (dls_schedule_exact_confirmed(s))
            printf(", confirmed by the exact simplex");
        const char *cert = dls_schedule_certificate(s, DLS_CERTIFICATE_MAKESPAN, 0);
        if (cert != NULL && strlen(cert) <= CERT_TEXT_MAX)
            printf(", certified: %s s exactly", cert);
        else if (cert != NULL)
            printf(", certified exactly (a fraction of %zu characters: --json)", strlen(cert));
        double lp = dls_schedule_lp_makespan(s);
        if (fabs(lp - dls_schedule_makespan(s)) > SAME_MAKESPAN * dls_schedule_makespan(s))
            printf("; the LP, on the speed models' convex envelopes, %.9g s", lp);
    }
    printf("\n");
}

/* The lines of --integer and --exact-shape (mode 1 and 2): the MIP against the LP. */
static void print_mip(const dls_schedule *s, int mode)
{
    dls_schedule_mip_info mi;
    if (mode != 0 && dls_schedule_get_mip_info(s, &mi, NULL) == DLS_OK) {
        double lp = mi.lp_makespan, mk = dls_schedule_makespan(s);
        printf("%s: %.9g s", mode == 1 ? "whole-unit loads" : "exact shapes", mk);
        if (!isnan(mi.lower_bound))
            printf(" (%s: lower bound %.9g s)",
                   dls_schedule_status(s) == DLS_SOLUTION_OPTIMAL ? "optimal" : "not proven",
                   mi.lower_bound);
        printf("; the LP (continuous%s) %.9g s, gap %.4g%%", mode == 2 ? ", envelopes" : "",
               lp, 100 * (mk - lp) / lp);
        if (mode == 2 || fabs(mi.lp_true_makespan - lp) > SAME_MAKESPAN * lp)
            printf("; the LP's loads under the true models %.9g s", mi.lp_true_makespan);
        printf("\n");
        if (!isnan(mi.rounded_makespan))
            printf("rounded LP schedule: %.9g s\n", mi.rounded_makespan);
        if (mi.mip_status != DLS_SOLUTION_NONE)
            printf("MIP: %.9g s (%s, bound %.9g s, %.3f s of branch and bound%s)\n",
                   mi.mip_makespan, dls_solution_status_name(mi.mip_status), mi.mip_bound,
                   mi.mip_seconds, mi.mip_relaxed ? "; real loads, rounded" : "");
    }
}

static void print_schedule(const schedule_output *out, const dls_platform *pl,
                           const dls_schedule *s, const tool_order *ord, int solved, int mode)
{
    print_schedule_table(tool_input_name(out->platform), pl, s, out->digits, mode);
    print_schedule_notes(s);
    print_makespan(s, solved, mode);
    print_order(ord, s);
    print_mip(s, mode);
}

static int write_gantt(const char *file, const dls_schedule *s, const dls_platform *pl)
{
    dls_error err;
    if (tool_is_stdout(file)) {
        char *doc = NULL;
        dls_status st = dls_schedule_gantt_to_string(s, pl, &doc, &err);
        return st == DLS_OK ? tool_write_stdout(doc, "Gantt chart") : tool_fail(st, &err);
    }
    dls_status st = dls_schedule_gantt_write_file(s, pl, file, &err);
    return st == DLS_OK ? EXIT_DONE : tool_fail_output("--gantt", file, st, &err);
}

static int report(const schedule_output *out, const dls_platform *pl, const dls_schedule *s,
                  const tool_order *ord, int solved, int mode)
{
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        tool_error("%s: %s", out->cmd, dls_schedule_note(s));
        if (out->json)
            tool_print_json(schedule_json(pl, s, ord, solved, mode));
        return EXIT_INFEASIBLE;
    }
    tool_warn_lines(dls_schedule_note(s));
    /* (evaluate has no --verbose and never details: it uses the true models) */
    if (dls_schedule_details(s)[0] && out->verbose)
        tool_note_lines(dls_schedule_details(s));
    const char *gantt = out->gantt;
    if (gantt && tool_is_stdout(gantt))
        return write_gantt(gantt, s, pl); /* with --gantt -, the chart is the output */
    int rc = EXIT_DONE;
    if (out->json)
        rc = tool_print_json(schedule_json(pl, s, ord, solved, mode));
    else
        print_schedule(out, pl, s, ord, solved, mode);
    /* the answer first: a chart that cannot be written does not hide it (dlsched(1)) */
    if (gantt) {
        fflush(stdout);
        int g = write_gantt(gantt, s, pl);
        rc = rc != EXIT_DONE ? rc : g;
    }
    return rc;
}

/* What the command line of `schedule` asks, read once (schedule_request_read): the checks,
 * the run and the report below take it, never the option table. The combinations its table's
 * rules refuse (schedule_rules) are refused by the parser already. */
typedef struct schedule_request {
    double load;               /* --load */
    int integer, exact_shape;  /* --integer, --exact-shape */
    int exact;                 /* --exact */
    int curve;                 /* --curve */
    const char *solver;        /* --solver, NULL for the library's (or GLPK with --exact) */
    const char *mip;           /* --mip auto|yes|no */
    int max_pieces;            /* --max-pieces given */
    int time_limit;            /* --time-limit given (in par and mp) */
    double from, to;           /* --from, --to: 0 when not given */
    const char *svg;           /* --svg FILE, or NULL */
    dls_schedule_params par;   /* the library's defaults, then the options given */
    dls_mip_params mp;
    schedule_output out;
} schedule_request;

/* The solver: --solver when given, else GLPK for --exact (which certifies GLPK's basis),
 * else the library's default (the chain). */
static void set_solver(const schedule_request *r, dls_schedule_params *par)
{
    if (r->solver != NULL)
        dls_star_solver_from_name(r->solver, &par->solver);
    else if (r->exact)
        par->solver = DLS_SOLVER_GLPK;
}

/* Reads the options into *r; 0 after a message when --load is missing. */
static int schedule_request_read(const tool_args *args, schedule_request *r)
{
    memset(r, 0, sizeof *r);
    if (!tool_require_load(args, &r->load))
        return 0;
    r->integer = arg_flag(args, "integer");
    r->exact_shape = arg_flag(args, "exact-shape");
    r->exact = arg_flag(args, "exact");
    r->curve = arg_flag(args, "curve");
    r->solver = arg_string(args, "solver");
    r->mip = arg_string(args, "mip");
    r->max_pieces = arg_given(args, "max-pieces");
    arg_double(args, "from", &r->from);
    arg_double(args, "to", &r->to);
    r->svg = arg_string(args, "svg");
    read_output(args, &r->out);
    dls_schedule_params *par = &r->par;
    read_common(args, par);
    arg_size(args, "order-exact-max", &par->order_exact_max);
    arg_size(args, "order-candidates", &par->order_max_candidates);
    arg_set_flag(args, "keep-unused", &par->drop_unused, 0);
    arg_set_flag(args, "exact", &par->exact, 1);
    arg_set_flag(args, "verbose", &par->verbose, 1);
    set_solver(r, par);
    arg_size(args, "max-pieces", &par->max_pieces);
    dls_mip_params_init(&r->mp);
    r->mp.integer = r->integer;
    r->mp.exact_shape = r->exact_shape;
    r->time_limit = arg_double(args, "time-limit", &r->mp.time_limit);
    if (r->time_limit) {
        /* one option for the LP, the MIP and the order search */
        par->time_limit = r->mp.time_limit;
        par->order_time_limit = r->mp.time_limit;
    }
    return 1;
}

/* The schedule of --integer: with the MIP when --mip asks for it; --mip auto falls back to
 * the rounded schedule alone when the MIP is too large. */
static dls_status integer_schedule(const schedule_request *r, const dls_platform *pl,
                                   dls_schedule **s, dls_error *err)
{
    int want = strcmp(r->mip, "yes") == 0 ||
               (strcmp(r->mip, "auto") == 0 && dls_platform_count(pl) <= MIP_AUTO_PROCESSORS);
    uint64_t V = (uint64_t)r->load;
    dls_status st = dls_schedule_solve_integer(pl, V, &r->par, want ? &r->mp : NULL, s, err);
    if (st == DLS_ELIMIT && strcmp(r->mip, "auto") == 0) {
        tool_warning("%s; the rounded schedule alone follows", err->message);
        st = dls_schedule_solve_integer(pl, V, &r->par, NULL, s, err);
    }
    return st;
}

/* Usage errors the table's rules cannot say: the load of --integer, the options of one
 * solver given to the other. */
static int check_request(const schedule_request *r)
{
    if (r->integer && (r->load != floor(r->load) || r->load > TOOL_MAX_WHOLE)) {
        tool_error("schedule: --integer needs a whole number of units as the load, not %.17g",
                   r->load);
        return EXIT_BADINPUT;
    }
    int glpk = r->solver != NULL && strcmp(r->solver, "glpk") == 0;
    if (r->solver != NULL && !glpk && r->exact) {
        tool_error("schedule: --exact certifies GLPK's optimum with its exact simplex: it needs "
                   "--solver glpk");
        return EXIT_BADINPUT;
    }
    if (r->max_pieces && glpk) {
        tool_error("schedule: --max-pieces bounds the chain solver's selection, not GLPK");
        return EXIT_BADINPUT;
    }
    if (r->curve && glpk) {
        tool_error("schedule: --curve comes from the chain solver's value function, not from "
                   "GLPK");
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* Usage errors of --order best, known once the order is read. */
static int check_order_best(const schedule_request *r, const tool_order *ord)
{
    if (ord->order != DLS_ORDER_BEST)
        return EXIT_DONE;
    const char *excluded[] = {"integer", "exact-shape", "curve"};
    int given[] = {r->integer, r->exact_shape, r->curve};
    for (size_t k = 0; k < sizeof excluded / sizeof excluded[0]; k++)
        if (given[k]) {
            tool_error("schedule: --order best and --%s do not go together: the best order is "
                       "searched for the schedule of real loads at V, and --%s works in one "
                       "send order (give it the order --order best found, its send_order, as "
                       "NAME,NAME,... or a FILE)", excluded[k], excluded[k]);
            return EXIT_BADINPUT;
        }
    return EXIT_DONE;
}

static json_t *curve_json(const dls_curve *c, const dls_schedule *s)
{
    size_t n = dls_curve_count(c);
    const double *v = dls_curve_loads(c), *t = dls_curve_makespans(c);
    json_t *points = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(points, json_pack("[o,o]", tool_json_number(v[i]), tool_json_number(t[i])));
    dls_schedule_solver_info si;
    dls_schedule_get_solver_info(s, &si, NULL);
    return json_pack("{s:o,s:o,s:o,s:o,s:b,s:o}", "load", tool_json_number(dls_schedule_load(s)),
                     "makespan", tool_json_number(dls_schedule_makespan(s)), "marginal_cost",
                     json_pack("{s:o,s:o}", "below", tool_json_number(si.marginal_left),
                               "above", tool_json_number(si.marginal_right)),
                     "model", tool_json_text(si.selection ? "selection" : "paper"), "exact",
                     dls_curve_exact(c), "points", points);
}

static void print_curve(const char *path, const dls_curve *c, const dls_schedule *s)
{
    size_t n = dls_curve_count(c);
    const double *v = dls_curve_loads(c), *t = dls_curve_makespans(c);
    dls_schedule_solver_info si;
    dls_schedule_get_solver_info(s, &si, NULL);
    printf("%s: the makespan as a function of the load (%s), %zu %s; linear between "
           "them\n", path, si.selection ? "the best set of processors for each load"
                                        : "the paper's LP", n, tool_plural(n, "point", "points"));
    printf("  %16s  %16s  %22s\n", "LOAD (units)", "MAKESPAN (s)", "dT/dV TO NEXT (s/unit)");
    for (size_t i = 0; i < n; i++) {
        char slope[32] = "";
        if (i + 1 < n && v[i + 1] > v[i])
            snprintf(slope, sizeof slope, "%.9g", (t[i + 1] - t[i]) / (v[i + 1] - v[i]));
        else if (i + 1 < n)
            snprintf(slope, sizeof slope, "jump");
        printf("  %16.10g  %16.10g  %22s\n", v[i], t[i], slope);
    }
    char amount[48];
    printf("at load %s units: makespan %.9g s",
           tool_amount(dls_schedule_load(s), amount, sizeof amount), dls_schedule_makespan(s));
    print_marginal(&si);
    printf("\n");
}

/* --curve: T(V) over the range of --from and --to, with the schedule at V for dT/dV. */
static int run_curve(const schedule_request *r, const dls_platform *pl, const dls_schedule *s)
{
    double V = dls_schedule_load(s);
    double lo = V / CURVE_FROM_DIVISOR, hi = fmin(V * CURVE_TO_FACTOR, dls_schedule_capacity(s));
    if (r->from > 0)
        lo = r->from;
    if (r->to > 0)
        hi = r->to;
    if (!(lo < hi)) {
        tool_error("schedule: --curve needs a range of loads with --from below --to, not "
                   "%.10g to %.10g", lo, hi);
        return EXIT_BADINPUT;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_curve *c = NULL;
    dls_status st = dls_schedule_curve(pl, lo, hi, &r->par, &c, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    tool_warn_lines(dls_schedule_note(s));
    int rc = EXIT_DONE;
    const char *svg = r->svg;
    if (svg) {
        double mark = V >= lo && V <= hi ? V : NAN;
        if (tool_is_stdout(svg)) {
            char *doc = NULL;
            st = dls_curve_svg_to_string(c, mark, &doc, &err);
            rc = st == DLS_OK ? tool_write_stdout(doc, "curve") : tool_fail(st, &err);
            dls_curve_free(c);
            return rc; /* with --svg -, the plot is the output */
        }
    }
    if (r->out.json)
        rc = tool_print_json(curve_json(c, s));
    else
        print_curve(r->out.platform, c, s);
    if (svg) {
        /* after the answer, which a plot that cannot be written does not hide */
        fflush(stdout);
        st = dls_curve_svg_write_file(c, V >= lo && V <= hi ? V : NAN, svg, &err);
        if (st != DLS_OK && rc == EXIT_DONE)
            rc = tool_fail_output("--svg", svg, st, &err);
        else if (st != DLS_OK)
            tool_fail_output("--svg", svg, st, &err);
    }
    dls_curve_free(c);
    return rc;
}

/* Solves the request (its order applied) and reports the schedule or its curve. */
static int run_schedule(const schedule_request *r, const dls_platform *pl, const tool_order *ord)
{
    dls_error err;
    dls_error_clear(&err);
    dls_schedule *s;
    dls_status st = r->exact_shape ? dls_schedule_solve_mip(pl, r->load, &r->par, &r->mp, &s, &err)
                    : r->integer   ? integer_schedule(r, pl, &s, &err)
                                   : dls_schedule_solve(pl, r->load, &r->par, &s, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    int rc;
    if (r->curve && dls_schedule_status(s) != DLS_SOLUTION_INFEASIBLE)
        rc = run_curve(r, pl, s);
    else
        rc = report(&r->out, pl, s, ord, 1, r->integer ? 1 : r->exact_shape ? 2 : 0);
    dls_schedule_free(s);
    return rc;
}

int cmd_schedule(const tool_args *args)
{
    schedule_request r;
    if (!schedule_request_read(args, &r))
        return EXIT_BADINPUT;
    dls_platform *pl = NULL;
    int rc = tool_read_platform(r.out.platform, &pl);
    if (rc == EXIT_DONE)
        rc = check_request(&r);
    tool_order ord;
    if (rc == EXIT_DONE)
        rc = tool_order_read(args, pl, NULL, &ord);
    else
        memset(&ord, 0, sizeof ord);
    if (rc == EXIT_DONE)
        rc = check_order_best(&r, &ord);
    if (rc == EXIT_DONE) {
        tool_order_apply(&ord, &r.par);
        rc = run_schedule(&r, pl, &ord);
    }
    tool_order_free(&ord);
    dls_platform_free(pl);
    return rc;
}

/* A measured timeline: p processors in platform order, each with load, send_start,
 * send_end and finish (null where the load is 0). Arrays of p values. */
static int read_measured(const char *path, size_t p, double *load, double *ss, double *se,
                         double *fin)
{
    json_error_t je;
    json_t *root;
    if (tool_is_stdin(path)) {
        tool_text t;
        char why[TOOL_TEXT_WHY_MAX];
        int rc = tool_text_read(path, "timeline", &t, why, sizeof why);
        if (rc != EXIT_DONE) {
            tool_error("%s", why);
            return rc;
        }
        root = json_loadb(t.text + t.pos, t.len - t.pos, JSON_REJECT_DUPLICATES, &je);
        tool_text_free(&t);
    } else {
        root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    }
    path = tool_input_name(path);
    if (root == NULL) {
        tool_error("%s:%d:%d: %s", path, je.line, je.column, je.text);
        return EXIT_BADINPUT;
    }
    json_t *procs = json_object_get(root, "processors");
    int rc = EXIT_DONE;
    if (!json_is_array(procs) || json_array_size(procs) != p) {
        tool_error("%s: \"processors\" must be an array of %zu %s, one per processor "
                   "of the platform in its order", path, p,
                   tool_plural(p, "timeline", "timelines"));
        rc = EXIT_BADINPUT;
    }
    static const char *const keys[4] = {"load", "send_start", "send_end", "finish"};
    double *dst[4] = {load, ss, se, fin};
    for (size_t i = 0; rc == EXIT_DONE && i < p; i++) {
        json_t *o = json_array_get(procs, i);
        for (int k = 0; k < 4 && rc == EXIT_DONE; k++) {
            json_t *v = json_object_get(o, keys[k]);
            if (json_is_number(v)) {
                dst[k][i] = json_number_value(v);
            } else if (json_is_null(v) && k > 0) {
                dst[k][i] = NAN;
            } else {
                tool_error("%s: processor %zu: \"%s\" must be a number%s", path, i + 1, keys[k],
                           k > 0 ? " (or null when the load is 0)" : "");
                rc = EXIT_BADINPUT;
            }
        }
    }
    json_decref(root);
    return rc;
}

/* --measured: the prediction of the measured loads beside the measurement. */
/* evaluate --measured's table: each processor's finish, predicted and measured. */
/* What the command line of `evaluate` asks, read once. */
typedef struct evaluate_request {
    const char *loads;        /* --loads A1,A2,..., or NULL */
    const char *measured;     /* --measured TIMELINE.json, or NULL */
    dls_schedule_params par;  /* the defaults, then the options given */
    schedule_output out;
} evaluate_request;

static void print_measured(const evaluate_request *r, const dls_platform *pl, const double *load,
                           const dls_schedule *pred, const dls_schedule *meas)
{
    size_t p = dls_platform_count(pl);
    int width = tool_name_width(pl, p), digits = r->out.digits;
    const double *fp = dls_schedule_finish(pred), *fm = dls_schedule_finish(meas);
    double V = 0, T = fmax(dls_schedule_makespan(pred), dls_schedule_makespan(meas));
    for (size_t i = 0; i < p; i++)
        V += load[i];
    tool_column col[4];
    tool_column_init(&col[0], "LOAD (units)", digits, TOOL_ZERO_REL * V);
    tool_column_init(&col[1], "PREDICTED FINISH (s)", digits, TOOL_ZERO_REL * T);
    tool_column_init(&col[2], "MEASURED FINISH (s)", digits, TOOL_ZERO_REL * T);
    tool_column_init(&col[3], "ERROR (%)", 3, 0);
    for (size_t i = 0; i < p; i++) {
        tool_column_see(&col[0], load[i]);
        if (load[i] > 0) {
            tool_column_see(&col[1], fp[i]);
            tool_column_see(&col[2], fm[i]);
            tool_column_see(&col[3], 100 * (fm[i] - fp[i]) / fp[i]);
        }
    }
    for (int c = 0; c < 4; c++)
        tool_column_fix(&col[c]);
    if (col[1].width < (int)strlen("unused"))
        col[1].width = (int)strlen("unused");
    char cell[TOOL_CELL_BYTES], n[64], line[TOOL_CELL_BYTES + 4 * (TOOL_COLUMN_BYTES + 2) + 8];
    printf("%s against %s: %s\n", tool_input_name(r->measured),
           tool_input_name(r->out.platform),
           tool_count(n, sizeof n, (double)p, "processor", "processors"));
    char *o = tool_put(line, "  ", 0);
    o = tool_put(o, tool_cell(cell, sizeof cell, "NAME", width), 0);
    for (int c = 0; c < 4; c++)
        o = tool_put_heading(tool_put(o, "  ", 0), &col[c]);
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
    for (size_t i = 0; i < p; i++) {
        o = tool_put(line, "  ", 0);
        o = tool_put(o, tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
        o = tool_put_column(tool_put(o, "  ", 0), &col[0], load[i]);
        double v[3] = {fp[i], fm[i], 100 * (fm[i] - fp[i]) / fp[i]};
        for (int c = 1; c < 4; c++) {
            o = tool_put(o, "  ", 0);
            if (load[i] > 0)
                o = tool_put_column(o, &col[c], v[c - 1]);
            else
                o = tool_put_right(o, c == 1 ? "unused" : "-", (size_t)col[c].width);
        }
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
}

static int compare_measured(const evaluate_request *r, const dls_platform *pl,
                            const tool_order *ord)
{
    const char *path = r->measured;
    size_t p = dls_platform_count(pl);
    double *buf = malloc(4 * (p ? p : 1) * sizeof *buf);
    if (buf == NULL) {
        tool_oom(NULL);
        return EXIT_FAILURE_RUN;
    }
    double *load = buf, *ss = buf + p, *se = buf + 2 * p, *fin = buf + 3 * p;
    int rc = read_measured(path, p, load, ss, se, fin);
    dls_schedule *pred = NULL, *meas = NULL;
    dls_error err;
    dls_error_clear(&err);
    if (rc == EXIT_DONE) {
        dls_status st = dls_schedule_evaluate(pl, load, &r->par, &pred, &err);
        if (st == DLS_OK)
            st = dls_schedule_measured(pl, load, ss, se, fin, &meas, &err);
        if (st != DLS_OK)
            rc = tool_fail(st, &err);
    }
    const char *gantt = r->out.gantt;
    int gantt_rc = EXIT_DONE; /* a chart that cannot be written: said, the answer still given */
    if (rc == EXIT_DONE && gantt != NULL) {
        dls_status st;
        if (tool_is_stdout(gantt)) {
            char *doc = NULL;
            st = dls_schedule_gantt_compare_to_string(pred, meas, pl, &doc, &err);
            rc = st == DLS_OK ? tool_write_stdout(doc, "chart") : tool_fail(st, &err);
        } else {
            st = dls_schedule_gantt_compare_write_file(pred, meas, pl, gantt, &err);
            if (st != DLS_OK)
                gantt_rc = tool_fail_output("--gantt", gantt, st, &err);
        }
    }
    double Tp = rc == EXIT_DONE ? dls_schedule_makespan(pred) : NAN;
    double Tm = rc == EXIT_DONE ? dls_schedule_makespan(meas) : NAN;
    if (rc == EXIT_DONE && r->out.json) {
        json_t *doc = json_pack("{s:o,s:o,s:o,s:o,s:o}", "predicted", schedule_json(pl, pred, ord, 0, 0),
                                "measured", schedule_json(pl, meas, NULL, 0, 0), "predicted_makespan",
                                tool_json_number(Tp), "measured_makespan", tool_json_number(Tm),
                                "makespan_error", tool_json_number((Tm - Tp) / Tp));
        rc = tool_print_json(doc);
    } else if (rc == EXIT_DONE && !(gantt != NULL && tool_is_stdout(gantt))) {
        print_measured(r, pl, load, pred, meas);
        printf("makespan: predicted %.6g s, measured %.6g s (%+.1f%%)\n", Tp, Tm,
               100 * (Tm - Tp) / Tp);
    }
    dls_schedule_free(pred);
    dls_schedule_free(meas);
    free(buf);
    return rc != EXIT_DONE ? rc : gantt_rc;
}

/* evaluate --loads: the timeline of the loads given, in the order read. */
static int evaluate_loads(const evaluate_request *r, const dls_platform *pl, const tool_order *ord)
{
    size_t p = dls_platform_count(pl), n = 0;
    double *loads = NULL;
    int rc = tool_parse_numbers("evaluate", "loads", r->loads, pl, &loads, &n);
    if (rc != EXIT_DONE) {
        /* said */
    } else if (n != p) {
        tool_error("evaluate: --loads must be %zu %s (one per "
                   "processor, in platform order), not %zu", p,
                   p == 1 ? "number" : "numbers separated by commas", n);
        rc = EXIT_BADINPUT;
    } else {
        dls_error err;
        dls_error_clear(&err);
        dls_schedule *s;
        dls_status st = dls_schedule_evaluate(pl, loads, &r->par, &s, &err);
        rc = st == DLS_OK ? report(&r->out, pl, s, ord, 0, 0) : tool_fail(st, &err);
        if (st == DLS_OK)
            dls_schedule_free(s);
    }
    free(loads);
    return rc;
}

static void evaluate_request_read(const tool_args *args, evaluate_request *r)
{
    r->loads = arg_string(args, "loads");
    r->measured = arg_string(args, "measured");
    read_common(args, &r->par);
    read_output(args, &r->out);
}

int cmd_evaluate(const tool_args *args)
{
    evaluate_request r;
    evaluate_request_read(args, &r);
    if ((r.loads == NULL) == (r.measured == NULL)) {
        tool_error("evaluate: give the loads with --loads A1,A2,... (one per processor), or a "
                   "measured timeline with --measured FILE, one of the two");
        return EXIT_BADINPUT;
    }
    dls_platform *pl = NULL;
    int rc = tool_read_platform(r.out.platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    tool_order ord;
    rc = tool_order_read(args, pl, NO_BEST_ORDER, &ord);
    if (rc == EXIT_DONE) {
        tool_order_apply(&ord, &r.par);
        rc = r.measured != NULL ? compare_measured(&r, pl, &ord) : evaluate_loads(&r, pl, &ord);
    }
    tool_order_free(&ord);
    dls_platform_free(pl);
    return rc;
}

/* What the command line of `export` asks, read once. The options of one output only
 * (--bytes-per-unit of simgrid, --window of --installments) are refused with the others by
 * the table's rules (export_rules). */
typedef struct export_request {
    const char *platform;     /* the PLATFORM argument */
    const char *out;          /* -o FILE or --output FILE, or NULL */
    const char *format;       /* --format, or NULL */
    const char *installments; /* --installments NAME,...|FILE, or NULL */
    int has_load;             /* --load given */
    double load;
    dls_export_format lp_format;  /* --format as an LP format (not simgrid) */
    dls_simgrid_params sp;    /* --format simgrid */
    dls_schedule_params par;  /* the LP's: the defaults, then the options given */
} export_request;

static void export_request_read(const tool_args *args, export_request *r)
{
    memset(r, 0, sizeof *r);
    r->platform = args->pos[0];
    r->out = tool_output(args);
    r->format = arg_string(args, "format");
    r->installments = arg_string(args, "installments");
    r->has_load = arg_double(args, "load", &r->load);
    /* the option parser accepted only the names of DLS_EXPORT_FORMAT_MAP and simgrid */
    r->lp_format = DLS_EXPORT_LP;
    if (r->format != NULL)
        dls_export_format_from_name(r->format, &r->lp_format);
    dls_simgrid_params_init(&r->sp);
    arg_double(args, "bytes-per-unit", &r->sp.bytes_per_unit);
    arg_double(args, "flops-per-unit", &r->sp.flops_per_unit);
    read_common(args, &r->par);
}

/* export --format simgrid: the star as a SimGrid platform (no load needed). */
static int export_simgrid(const export_request *r)
{
    dls_platform *pl = NULL;
    int rc = tool_read_platform(r->platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    dls_error err;
    dls_error_clear(&err);
    dls_status st;
    if (tool_is_stdout(r->out)) {
        char *doc = NULL;
        st = dls_platform_simgrid_to_string(pl, &r->sp, &doc, &err);
        rc = st == DLS_OK ? tool_write_stdout(doc, "SimGrid platform") : tool_fail(st, &err);
    } else {
        st = dls_platform_simgrid_write_file(pl, &r->sp, r->out, &err);
        rc = st == DLS_OK ? EXIT_DONE : tool_fail_output("-o", r->out, st, &err);
    }
    dls_platform_free(pl);
    return rc;
}

/* export --installments: the multi-installment LP of a sequence. */
static int export_installments(const tool_args *args, const export_request *r)
{
    dls_platform *pl = NULL;
    int rc = tool_read_platform(r->platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    tool_installment_lp lp;
    rc = tool_installment_lp_read(args, pl, "export", "installments", &lp);
    if (rc == EXIT_DONE) {
        dls_error err;
        dls_error_clear(&err);
        dls_status st;
        if (tool_is_stdout(r->out)) {
            char *doc = NULL;
            st = dls_installment_lp_to_string(pl, r->load, &lp.par, r->lp_format, &doc, &err);
            rc = st == DLS_OK ? tool_write_stdout(doc, "LP") : tool_fail(st, &err);
        } else {
            st = dls_installment_lp_write_file(pl, r->load, &lp.par, r->lp_format, r->out, &err);
            rc = st == DLS_OK ? EXIT_DONE : tool_fail_output("-o", r->out, st, &err);
        }
    }
    tool_installment_lp_free(&lp);
    dls_platform_free(pl);
    return rc;
}

/* export --format lp|mps|glpk|mathprog: the scheduling LP, in the order read. */
static int export_lp(const tool_args *args, export_request *r)
{
    dls_platform *pl = NULL;
    int rc = tool_read_platform(r->platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    tool_order ord;
    rc = tool_order_read(args, pl, NO_BEST_ORDER, &ord);
    if (rc == EXIT_DONE) {
        tool_order_apply(&ord, &r->par);
        dls_error err;
        dls_error_clear(&err);
        dls_status st;
        if (tool_is_stdout(r->out)) {
            char *doc = NULL;
            st = dls_schedule_lp_to_string(pl, r->load, &r->par, r->lp_format, &doc, &err);
            rc = st == DLS_OK ? tool_write_stdout(doc, "LP") : tool_fail(st, &err);
        } else {
            st = dls_schedule_lp_write_file(pl, r->load, &r->par, r->lp_format, r->out, &err);
            rc = st == DLS_OK ? EXIT_DONE : tool_fail_output("-o", r->out, st, &err);
        }
    }
    tool_order_free(&ord);
    dls_platform_free(pl);
    return rc;
}

int cmd_export(const tool_args *args)
{
    export_request r;
    export_request_read(args, &r);
    if (r.format != NULL && strcmp(r.format, "simgrid") == 0) {
        if (r.out == NULL) {
            tool_error("export: give -o FILE");
            return EXIT_BADINPUT;
        }
        return export_simgrid(&r);
    }
    if (!r.has_load || r.format == NULL || r.out == NULL) {
        tool_error("export: give --load V, --format lp|mps|glpk|mathprog and -o FILE");
        return EXIT_BADINPUT;
    }
    if (r.installments != NULL)
        return export_installments(args, &r);
    return export_lp(args, &r);
}
