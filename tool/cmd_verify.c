/* dlsched verify: a schedule or partition written by any tool, checked against the
 * platform's models and measured against the optimum. A thin layer over dlsched/verify.h. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <dlsched/verify.h>

#include "tool.h"

static const tool_opt verify_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL,
     "the load to distribute (elements for a partition; default: the file's, else the sum)"},
    /* given or rate (tool_order_fixed): the library measures in those */
    {"order", OPT_STRING, "given|rate", NULL, 0, 0, NULL,
     "send order of the optima (the claim's own order is measured too)"},
    TOOL_FLAG("originator-computes", "optima with processors without a link served first"),
    TOOL_FLAG("no-limits", "ignore the processors' limits"),
    {"matrix", OPT_COUNT, "N", NULL, 1, 9007199254740992.0, NULL,
     "a partition of the rows of an N x N matrix product"},
    TOOL_STRING("weights", "FILE", "a partition of weighted elements: their weights, read as "
                "partition --weights reads them; checks which elements each processor holds"),
    TOOL_FLAG("ordered", "with --weights: an ordered set, one contiguous chunk per processor"),
    TOOL_FLAG("reorder", "with --ordered: the chunks may follow another processor order"),
    TOOL_GROUP("Checks"),
    {"tolerance", OPT_DOUBLE, "T", NULL, DLS_DOMAIN_MIN, 1e-3, NULL,
     "relative tolerance of every comparison"},
    TOOL_FLAG("no-optimum", "check only: do not compute the optima"),
    TOOL_FLAG("exact", "certify the optimum with GLPK's exact simplex"),
    TOOL_FLAG("best-order", "a schedule: also measure it against the best send order"),
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-3, DLS_TIME_LIMIT_MAX, NULL,
     "seconds the optima may take (GLPK's exact simplex, the best-order search); past it "
     "the optimum is not certified and the best order is the best found"},
    TOOL_GROUP("Output"),
    TOOL_FLAG("json", "write the verdict as JSON"),
    TOOL_OPT_END,
};

static const tool_rule verify_rules[] = {
    TOOL_NEEDS("ordered", "weights"),
    TOOL_NEEDS("reorder", "ordered"),
    TOOL_EXCLUDES("weights", "load|matrix"),
    TOOL_EXCLUDES_WHY("no-optimum", "exact|best-order|time-limit", "they concern the optima, "
                      "which --no-optimum does not compute"),
    TOOL_RULE_END,
};

static int verify_default(const char *opt, char *buf, size_t size)
{
    dls_verify_params p;
    dls_verify_params_init(&p);
    if (strcmp(opt, "tolerance") == 0)
        return tool_show_number(p.tolerance, buf, size);
    if (strcmp(opt, "order") == 0)
        return tool_show_text(dls_send_order_name(p.order), buf, size);
    if (strcmp(opt, "time-limit") == 0)
        return tool_show_number(p.time_limit, buf, size);
    return 0;
}

const tool_cmd tool_cmd_verify = {
    "verify",
    "check a schedule or partition from any tool; gap to the optimum",
    "PLATFORM SCHEDULE [OPTIONS]",
    "SCHEDULE (- for standard input) is the JSON of dlsched schedule, evaluate, partition\n"
    "or installments, or a CSV table with a header:\n"
    "name,load[,send_start,send_end,compute_start,finish], one row per processor in send\n"
    "order (name,elements[,time]\n"
    "for a partition). A schedule is checked against everything the star model implies\n"
    "(loads, limits, one send at a time, no computing before the data has arrived,\n"
    "finishes, makespan); each violation names the processor, what was expected and what\n"
    "was found. A valid one is measured against the optimum for the same platform and\n"
    "load. Exits 0 when valid, 1 when not, 2 on bad input.",
    verify_opts,
    2,
    2,
    cmd_verify,
    verify_default,
    "dlsched schedule examples/star_cluster.json --load 1000 --json > s.json\n"
    "dlsched verify examples/star_cluster.json s.json\n"
    "dlsched schedule examples/star_cluster.json --load 1000 --json |\n"
    "    dlsched verify examples/star_cluster.json - --best-order",
    verify_rules,
};

static json_t *violation_json(const dls_platform *pl, const dls_violation *x)
{
    return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:o}", "kind", dls_violation_kind_name(x->kind),
                     "processor",
                     x->processor >= 0 ? tool_json_text(dls_platform_name(pl, (size_t)x->processor))
                                       : json_null(),
                     "element", x->element >= 0 ? json_integer((json_int_t)x->element) : json_null(),
                     "expected", tool_json_number(x->expected), "found",
                     tool_json_number(x->found), "excess", tool_json_number(x->excess),
                     "message", tool_json_text(x->text));
}

static int report_json(const dls_platform *pl, const dls_claim *c, const dls_verification *v,
                       const dls_verify_params *p)
{
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    json_t *list = json_array();
    size_t n = dls_verification_count(v);
    for (size_t k = 0; k < n; k++) {
        const dls_violation *x = dls_verification_violation(v, k);
        if (x != NULL)
            json_array_append_new(list, violation_json(pl, x));
    }
    json_t *root = json_pack(
        "{s:s,s:b,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o}", "kind",
        dls_claim_kind_name(dls_claim_get_kind(c)), "valid", dls_verification_valid(v),
        "violation_count", (json_int_t)n, "violations", list, "load", tool_json_number(q.load),
        "makespan", tool_json_number(q.makespan), "claimed_makespan",
        tool_json_number(q.claimed_makespan), "paper_optimum", tool_json_number(q.paper_optimum),
        "selection_optimum", tool_json_number(q.selection_optimum), "own_order_optimum",
        tool_json_number(q.own_order_optimum), "best", tool_json_number(q.best), "gap",
        tool_json_number(q.gap), "gap_percent", tool_json_number(q.gap_percent), "proven",
        q.proven, "note", tool_json_text(dls_verification_note(v)));
    if (root != NULL && p->best_order && dls_claim_get_kind(c) == DLS_CLAIM_SCHEDULE &&
        !isnan(q.best_order_optimum))
        json_object_set_new(root, "best_order",
                            json_pack("{s:o,s:o,s:b}", "optimum",
                                      tool_json_number(q.best_order_optimum), "lower_bound",
                                      tool_json_number(q.order_lower_bound), "proven",
                                      q.best_order_proven));
    if (root != NULL && !isnan(q.paper_optimum))
        json_object_set_new(root, "exact_confirmed", json_boolean(q.exact_confirmed));
    if (root != NULL && p->exact && !isnan(q.paper_optimum))
        json_object_set_new(root, "exact_stopped", json_boolean(q.exact_stopped));
    if (root != NULL && dls_verification_certificate(v) != NULL)
        json_object_set_new(root, "certified_paper_optimum",
                            json_string(dls_verification_certificate(v)));
    int rc = tool_print_json(root);
    if (rc != EXIT_DONE)
        return rc;
    return dls_verification_valid(v) ? EXIT_DONE : EXIT_INFEASIBLE;
}

static int report_text(const dls_platform *pl, const dls_claim *c, const dls_verification *v,
                       const dls_verify_params *p)
{
    (void)pl;
    dls_verify_quality q;
    dls_verification_get_quality(v, &q);
    size_t n = dls_verification_count(v);
    const char *what = dls_claim_kind_name(dls_claim_get_kind(c));
    if (n > 0) {
        printf("invalid %s: %zu %s\n", what, n, tool_plural(n, "violation", "violations"));
        for (size_t k = 0; k < n; k++) {
            const dls_violation *x = dls_verification_violation(v, k);
            if (x == NULL) {
                printf("  ... and %zu more\n", n - k);
                break;
            }
            printf("  %s: %s\n", dls_violation_kind_name(x->kind), x->text);
        }
        return EXIT_INFEASIBLE;
    }
    char a[48];
    printf("valid %s: %s %s%s, makespan %.10g s", what, p->weights ? "weight" : "load",
           tool_amount(q.load, a, sizeof a), p->weights ? "" : " units", q.makespan);
    if (!isnan(q.claimed_makespan))
        printf(" (claimed %.10g s)", q.claimed_makespan);
    printf("\n");
    if (!isnan(q.paper_optimum))
        printf("paper's LP optimum %.10g s%s\n", q.paper_optimum,
               !p->exact          ? ""
               : q.exact_stopped  ? ", NOT confirmed: the exact simplex did not finish "
                                    "within the time limit (the note says more)"
               : q.exact_confirmed ? ", confirmed by the exact simplex"
                                   : ", NOT confirmed by the exact simplex");
    const char *cert = dls_verification_certificate(v);
    if (cert != NULL && strlen(cert) <= CERT_TEXT_MAX)
        printf("  certified: %s s exactly (a primal and a dual point checked in rational "
               "arithmetic)\n", cert);
    else if (cert != NULL)
        printf("  certified exactly: a fraction of %zu characters (--json)\n", strlen(cert));
    if (!isnan(q.selection_optimum) && dls_claim_get_kind(c) != DLS_CLAIM_INSTALLMENTS)
        printf("best set of processors, %s order: %.10g s\n", dls_send_order_name(p->order),
               q.selection_optimum);
    if (!isnan(q.own_order_optimum))
        printf("best set of processors, the schedule's own order: %.10g s\n",
               q.own_order_optimum);
    if (!isnan(q.best_order_optimum))
        printf("best send order and set of processors: %.10g s (%s; no order below %.10g s)\n",
               q.best_order_optimum, q.best_order_proven ? "proven" : "the best found",
               q.order_lower_bound);
    if (!isnan(q.best))
        printf("gap to the %s %.10g s: %.6g s (%.4g%%)\n",
               q.proven ? "optimum" : "best known", q.best, q.gap, q.gap_percent);
    const char *note = dls_verification_note(v);
    if (note[0])
        tool_warn_lines(note);
    return EXIT_DONE;
}

/* What the command line asks, read once (verify_request_read); the run below takes it,
 * never the option table. The combinations the table's rules refuse (verify_rules) are
 * refused by the parser already. */
typedef struct verify_request {
    const char *platform;  /* the PLATFORM argument */
    const char *claim;     /* the SCHEDULE argument ("-": standard input) */
    const char *weights;   /* --weights FILE, or NULL */
    int json;
    dls_verify_params par; /* the defaults, then the options given (not the weights) */
} verify_request;

/* Reads the options into *q: EXIT_DONE, or EXIT_BADINPUT after a message on --order. */
static int verify_request_read(const tool_args *a, verify_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = a->pos[0];
    q->claim = a->pos[1];
    q->weights = arg_string(a, "weights");
    q->json = arg_flag(a, "json");
    dls_verify_params *p = &q->par;
    dls_verify_params_init(p);
    arg_double(a, "load", &p->load);
    arg_double(a, "tolerance", &p->tolerance);
    arg_set_flag(a, "originator-computes", &p->originator_computes, 1);
    arg_set_flag(a, "no-limits", &p->use_limits, 0);
    arg_set_flag(a, "no-optimum", &p->optimum, 0);
    arg_set_flag(a, "exact", &p->exact, 1);
    arg_set_flag(a, "best-order", &p->best_order, 1);
    arg_double(a, "time-limit", &p->time_limit);
    uint64_t matrix = 0;
    if (arg_count(a, "matrix", &matrix))
        p->matrix = matrix;
    arg_set_flag(a, "ordered", &p->ordered, 1);
    arg_set_flag(a, "reorder", &p->reorder, 1);
    return tool_order_fixed(a, "the schedule is measured against the optima of one fixed "
                            "send order (given or rate) and of its own order; add "
                            "--best-order to measure it against the best order",
                            &p->order);
}

/* Verifies the claim c by its kind: a partition, installments, else a schedule. */
static int verify_claim(const verify_request *q, const dls_platform *pl, const dls_claim *c)
{
    dls_error err;
    dls_error_clear(&err);
    dls_verification *v = NULL;
    dls_status st;
    switch (dls_claim_get_kind(c)) {
    case DLS_CLAIM_PARTITION:
        st = dls_partition_verify(pl, c, &q->par, &v, &err);
        break;
    case DLS_CLAIM_INSTALLMENTS:
        st = dls_installment_verify(pl, c, &q->par, &v, &err);
        break;
    default:
        st = dls_schedule_verify(pl, c, &q->par, &v, &err);
    }
    int rc;
    if (st == DLS_OK)
        rc = q->json ? report_json(pl, c, v, &q->par) : report_text(pl, c, v, &q->par);
    else
        rc = tool_fail(st, &err);
    dls_verification_free(v);
    return rc;
}

int cmd_verify(const tool_args *a)
{
    verify_request q;
    int rc = verify_request_read(a, &q);
    if (rc != EXIT_DONE)
        return rc;
    double *weights = NULL;
    uint64_t n_weights = 0;
    char why[TOOL_WEIGHTS_WHY_MAX];
    if (q.weights != NULL &&
        tool_read_weights(q.weights, &weights, &n_weights, why, sizeof why) != 0) {
        tool_error("%s", why);
        return EXIT_BADINPUT;
    }
    q.par.weights = weights;
    q.par.n_weights = (size_t)n_weights;
    dls_platform *pl = NULL;
    rc = tool_read_platform(q.platform, &pl);
    if (rc != EXIT_DONE) {
        free(weights);
        return rc;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_claim *c = NULL;
    dls_status st = tool_read_claim(pl, q.claim, &c, &err);
    rc = st == DLS_OK ? verify_claim(&q, pl, c) : tool_fail(st, &err);
    dls_claim_free(c);
    dls_platform_free(pl);
    free(weights);
    return rc;
}
