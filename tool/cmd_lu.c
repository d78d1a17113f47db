/* dlsched lu: column distributions for parallel LU factorization (Lastovetsky and Reddy 2007b), one
 * algorithm or all of them compared with the exact optimum. */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"

static const tool_opt lu_opts[] = {
    TOOL_GROUP("Problem"),
    {"columns", OPT_COUNT, "N", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "number of column panels of the matrix (required)"},
    TOOL_FLAG("no-limits", "ignore the processors' limits"),
    TOOL_GROUP("Method"),
    {"algorithm", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_LU_ALGORITHM_MAP),
     "distribution algorithm"},
    {"heuristic", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_LU_HEURISTIC_MAP),
     "with --algorithm fr: order of a group of columns assigned together"},
    TOOL_FLAG("compare", "run every algorithm; a table of costs, times and gaps to the optimum"),
    {"max-memory", OPT_COUNT, "BYTES", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "memory the exact method may use"},
    {"max-group-states", OPT_COUNT, "N", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "largest exhaustive search of one group"},
    TOOL_GROUP("Output"),
    TOOL_FLAG("owners", "text output: list every column's owner (runs of equal owners)"),
    TOOL_FLAG("quiet", "no progress line"),
    TOOL_DIGITS_OPT,
    TOOL_FLAG("json", "write the result as JSON"),
    TOOL_OPT_END,
};

static const tool_rule lu_rules[] = {
    TOOL_EXCLUDES("compare", "algorithm"),
    TOOL_EXCLUDES_WHY("owners", "json", "the JSON lists every column's owner"),
    TOOL_EXCLUDES_WHY("owners", "compare", "the comparison lists no owners"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int lu_default(const char *opt, char *buf, size_t size)
{
    dls_lu_params par;
    dls_lu_params_init(&par);
    if (strcmp(opt, "algorithm") == 0)
        return tool_show_text(dls_lu_algorithm_name(par.algorithm), buf, size);
    if (strcmp(opt, "heuristic") == 0)
        return tool_show_text(dls_lu_heuristic_name(par.heuristic), buf, size);
    if (strcmp(opt, "max-memory") == 0)
        return tool_show_number((double)par.max_memory, buf, size);
    if (strcmp(opt, "max-group-states") == 0)
        return tool_show_number((double)par.max_group_states, buf, size);
    return 0;
}

const tool_cmd tool_cmd_lu = {
    "lu",
    "distribute the columns of a matrix for parallel LU factorization",
    "PLATFORM --columns N [OPTIONS]",
    "Gives each of the N column panels of a matrix to a processor for a right-looking LU\n"
    "factorization: at each step every processor updates the columns it owns in the\n"
    "trailing matrix, the step lasts as long as its slowest processor, and the cost is the\n"
    "sum of the steps. gb, dp and reverse use constant speeds; fr, fdp and fgb the\n"
    "functional models; exact finds the optimum (refused past --max-memory). --compare\n"
    "runs them all with each one's gap to the optimum. Exits 1 when the limits cannot hold\n"
    "N columns.",
    lu_opts,
    1,
    1,
    cmd_lu,
    lu_default,
    "dlsched lu examples/lu_cluster.json --columns 100\n"
    "dlsched lu examples/lu_cluster.json --columns 100 --algorithm fr --owners\n"
    "dlsched lu examples/lu_cluster.json --columns 60 --compare",
    lu_rules,
};

/* A progress line appears only after this many seconds: quick runs stay silent. */
#define PROGRESS_DELAY 0.5
/* Width of the progress line, blanked when it is done. */
#define PROGRESS_WIDTH 40
/* Owner runs listed by the text output without --owners. */
#define OWNER_RUNS_SHOWN 12

typedef struct ui {
    int show;
    int dirty;
    const char *what;
    double start;
} ui;

static int progress(double fraction, void *data)
{
    ui *u = data;
    if (tool_interrupted)
        return 1;
    if (!u->show || tool_now() - u->start < PROGRESS_DELAY)
        return 0;
    fprintf(stderr, "\r%s: %5.1f%%   ", u->what, 100 * fraction);
    fflush(stderr);
    u->dirty = 1;
    return 0;
}

static void progress_done(ui *u)
{
    if (u->dirty)
        fprintf(stderr, "\r%*s\r", PROGRESS_WIDTH, "");
    u->dirty = 0;
}

static json_t *result_json(const dls_platform *pl, const dls_lu *r)
{
    uint64_t n = dls_lu_columns(r);
    size_t p = dls_lu_count(r);
    json_t *root = json_object();
    json_object_set_new(root, "columns", json_integer((json_int_t)n));
    json_object_set_new(root, "algorithm",
                        tool_json_text(dls_lu_algorithm_name(dls_lu_get_algorithm(r))));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR)
        json_object_set_new(root, "heuristic",
                            tool_json_text(dls_lu_heuristic_name(dls_lu_get_heuristic(r))));
    json_object_set_new(root, "cost", tool_json_number(dls_lu_cost(r)));
    json_object_set_new(root, "status", tool_json_text(dls_solution_status_name(dls_lu_status(r))));
    json_object_set_new(root, "lower_bound", tool_json_number(dls_lu_lower_bound(r)));
    json_object_set_new(root, "gap", tool_json_number(dls_lu_gap(r)));
    json_object_set_new(root, "groups", json_integer((json_int_t)dls_lu_groups(r)));
    if (dls_lu_note(r)[0])
        json_object_set_new(root, "note", tool_json_text(dls_lu_note(r)));
    json_t *counts = json_object();
    for (size_t i = 0; i < p; i++)
        json_object_set_new(counts, dls_platform_name(pl, i),
                            json_integer((json_int_t)dls_lu_counts(r)[i]));
    json_object_set_new(root, "counts", counts);
    const size_t *own = dls_lu_owners(r);
    json_t *owners = json_array();
    for (uint64_t j = 0; own && j < n; j++)
        json_array_append_new(owners, tool_json_text(dls_platform_name(pl, own[j])));
    json_object_set_new(root, "owners", owners);
    return root;
}

/* Owners as runs: "cpu0 x3, gpu1, cpu0 x2"; at most max_runs unless 0. */
static void print_runs(const dls_platform *pl, const size_t *own, uint64_t n, size_t max_runs)
{
    size_t runs = 0;
    printf("owners of columns 1 ..:");
    for (uint64_t j = 0; j < n;) {
        uint64_t e = j + 1;
        while (e < n && own[e] == own[j])
            e++;
        if (max_runs && runs == max_runs) {
            printf(" ... (--owners or --json for all)");
            break;
        }
        printf("%s %s", runs ? "," : "", dls_platform_name(pl, own[j]));
        if (e - j > 1)
            printf(" x%llu", (unsigned long long)(e - j));
        runs++;
        j = e;
    }
    putchar('\n');
}

/* What the command line asks, read once (lu_request_read); the phases below take it,
 * never the option table. The combinations the table's rules refuse (lu_rules) are refused
 * by the parser already. */
typedef struct lu_request {
    const char *platform;  /* the PLATFORM argument */
    int has_columns;       /* --columns given */
    uint64_t columns;
    int compare, owners, quiet, json, digits;
    int heuristic;         /* --heuristic given */
    dls_lu_params par;     /* the defaults, then the options given */
} lu_request;

static void lu_request_read(const tool_args *args, lu_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = args->pos[0];
    q->has_columns = arg_count(args, "columns", &q->columns);
    q->compare = arg_flag(args, "compare");
    q->owners = arg_flag(args, "owners");
    q->quiet = arg_flag(args, "quiet");
    q->json = arg_flag(args, "json");
    q->digits = tool_digits(args);
    dls_lu_params *par = &q->par;
    dls_lu_params_init(par);
    const char *algorithm = arg_string(args, "algorithm");
    const char *heuristic = arg_string(args, "heuristic");
    if (algorithm != NULL)
        dls_lu_algorithm_from_name(algorithm, &par->algorithm);
    q->heuristic = heuristic != NULL;
    if (heuristic != NULL)
        dls_lu_heuristic_from_name(heuristic, &par->heuristic);
    arg_set_flag(args, "no-limits", &par->use_limits, 0);
    arg_size(args, "max-memory", &par->max_memory);
    arg_size(args, "max-group-states", &par->max_group_states);
}

static void print_result(const lu_request *q, const dls_platform *pl, const dls_lu *r,
                         int all)
{
    uint64_t n = dls_lu_columns(r);
    size_t p = dls_lu_count(r);
    int width = tool_name_width(pl, p);
    char cell[TOOL_CELL_BYTES], a[64], b[64];
    printf("%s: %s over %s, %s", tool_input_name(q->platform),
           tool_count(a, sizeof a, (double)n, "column", "columns"),
           tool_count(b, sizeof b, (double)p, "processor", "processors"),
           dls_lu_algorithm_name(dls_lu_get_algorithm(r)));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR)
        printf(" (heuristic %s)", dls_lu_heuristic_name(dls_lu_get_heuristic(r)));
    putchar('\n');
    tool_column col[2];
    tool_column_init(&col[0], "COLUMNS", q->digits, 0);
    tool_column_init(&col[1], "SHARE (%)", q->digits, TOOL_ZERO_REL * 100);
    col[0].whole = 1;
    for (size_t i = 0; i < p; i++) {
        tool_column_see(&col[0], (double)dls_lu_counts(r)[i]);
        tool_column_see(&col[1], 100.0 * (double)dls_lu_counts(r)[i] / (double)n);
    }
    tool_column_fix(&col[0]);
    tool_column_fix(&col[1]);
    char line[TOOL_CELL_BYTES + 2 * (TOOL_COLUMN_BYTES + 2) + 8];
    char *o = tool_put(tool_put(line, "  ", 0), tool_cell(cell, sizeof cell, "NAME", width), 0);
    o = tool_put_heading(tool_put(o, "  ", 0), &col[0]);
    o = tool_put_heading(tool_put(o, "  ", 0), &col[1]);
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
    for (size_t i = 0; i < p; i++) {
        o = tool_put(tool_put(line, "  ", 0),
                     tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
        o = tool_put_column(tool_put(o, "  ", 0), &col[0], (double)dls_lu_counts(r)[i]);
        o = tool_put_column(tool_put(o, "  ", 0), &col[1],
                            100.0 * (double)dls_lu_counts(r)[i] / (double)n);
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
    printf("cost %.10g s", dls_lu_cost(r));
    if (!isnan(dls_lu_lower_bound(r)))
        printf(", lower bound %.10g s (gap %.3g%%)", dls_lu_lower_bound(r), 100 * dls_lu_gap(r));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR || dls_lu_get_algorithm(r) == DLS_LU_REVERSE)
        printf(", %zu column group%s", dls_lu_groups(r), dls_lu_groups(r) == 1 ? "" : "s");
    printf(", %s\n", dls_solution_status_name(dls_lu_status(r)));
    print_runs(pl, dls_lu_owners(r), n, all ? 0 : OWNER_RUNS_SHOWN);
}

/* Every algorithm's result (NULL, with the reason in why[], where the exact method is out
 * of reach) and its time. */
typedef struct comparison {
    dls_lu *res[DLS_LU_ALGORITHM_COUNT];
    double secs[DLS_LU_ALGORITHM_COUNT];
    char why[DLS_LU_ALGORITHM_COUNT][DLS_ERROR_MESSAGE_MAX];
    double exact, bound;  /* the optimum, the best lower bound; NaN when unknown */
} comparison;

/* Runs every algorithm; returns EXIT_DONE or the exit status of the first failure. */
static int run_all(const dls_platform *pl, uint64_t n, const dls_lu_params *base, ui *u,
                   comparison *c)
{
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu_params par = *base;
        par.algorithm = (dls_lu_algorithm)a;
        u->what = dls_lu_algorithm_name(par.algorithm);
        u->start = tool_now();
        dls_error err;
        dls_error_clear(&err);
        double t0 = tool_now();
        dls_status st = dls_lu_distribute(pl, n, &par, &c->res[a], &err);
        c->secs[a] = tool_now() - t0;
        progress_done(u);
        c->why[a][0] = '\0';
        if (st == DLS_ECANCELED && tool_interrupted)
            return EXIT_INTERRUPTED;
        if (st != DLS_OK) {
            /* the exact method out of reach is part of the answer, not a failure */
            if (st != DLS_ELIMIT)
                return tool_fail(st, &err);
            snprintf(c->why[a], sizeof c->why[a], "%s", err.message);
            c->res[a] = NULL;
            continue;
        }
        if (dls_lu_status(c->res[a]) == DLS_SOLUTION_INFEASIBLE) {
            tool_error("lu: %s", dls_lu_note(c->res[a]));
            return EXIT_INFEASIBLE;
        }
        if (a == DLS_LU_EXACT)
            c->exact = dls_lu_cost(c->res[a]);
        else if (isnan(c->bound) || dls_lu_lower_bound(c->res[a]) > c->bound)
            c->bound = dls_lu_lower_bound(c->res[a]);
    }
    return EXIT_DONE;
}

static json_t *comparison_json(uint64_t n, const comparison *c)
{
    double ref = isnan(c->exact) ? c->bound : c->exact;
    json_t *root = json_object(), *rows = json_array();
    json_object_set_new(root, "columns", json_integer((json_int_t)n));
    json_object_set_new(root, "exact_cost", tool_json_number(c->exact));
    json_object_set_new(root, "lower_bound", tool_json_number(c->bound));
    json_object_set_new(root, "gap_to", tool_json_text(isnan(c->exact) ? "lower_bound" : "exact"));
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        const dls_lu *r = c->res[a];
        json_t *o = json_object();
        json_object_set_new(o, "algorithm",
                            tool_json_text(dls_lu_algorithm_name((dls_lu_algorithm)a)));
        if (r == NULL) {
            json_object_set_new(o, "cost", json_null());
            json_object_set_new(o, "note", tool_json_text(c->why[a]));
        } else {
            double cost = dls_lu_cost(r);
            json_object_set_new(o, "cost", tool_json_number(cost));
            json_object_set_new(o, "seconds", tool_json_number(c->secs[a]));
            json_object_set_new(o, "gap",
                                tool_json_number(ref > 0 ? (cost - ref) / ref : NAN));
            json_object_set_new(o, "status",
                                tool_json_text(dls_solution_status_name(dls_lu_status(r))));
            if (dls_lu_note(r)[0])
                json_object_set_new(o, "note", tool_json_text(dls_lu_note(r)));
        }
        json_array_append_new(rows, o);
    }
    json_object_set_new(root, "results", rows);
    return root;
}

static void print_comparison(const char *path, const dls_platform *pl, uint64_t n,
                             const comparison *c)
{
    double ref = isnan(c->exact) ? c->bound : c->exact;
    char na[64], nb[64];
    printf("%s: %s over %s\n", path, tool_count(na, sizeof na, (double)n, "column", "columns"),
           tool_count(nb, sizeof nb, (double)dls_platform_count(pl), "processor", "processors"));
    printf("  %-9s  %16s  %10s  %16s  %s\n", "ALGORITHM", "COST (s)", "RUN TIME (s)",
           isnan(c->exact) ? "GAP TO BOUND (%)" : "GAP TO OPT (%)", "STATUS");
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        const char *name = dls_lu_algorithm_name((dls_lu_algorithm)a);
        if (c->res[a] == NULL) {
            printf("  %-9s  %16s  %12s  %16s  not computed\n", name, "-", "-", "-");
            continue;
        }
        double cost = dls_lu_cost(c->res[a]);
        char gap[32] = "-";
        if (isfinite(cost) && ref > 0)
            snprintf(gap, sizeof gap, "%.4g", 100 * (cost - ref) / ref);
        printf("  %-9s  %16.10g  %12.4f  %16s  %s%s\n", name, cost, c->secs[a], gap,
               dls_solution_status_name(dls_lu_status(c->res[a])),
               a <= DLS_LU_REVERSE ? " (constant speeds)" : "");
    }
    if (!isnan(c->bound))
        printf("lower bound (each step at its best alone): %.10g s\n", c->bound);
    if (c->res[DLS_LU_EXACT] == NULL)
        printf("%s\n", c->why[DLS_LU_EXACT]);
}

static int compare(const char *path, const dls_platform *pl, uint64_t n,
                   const dls_lu_params *base, int json, ui *u)
{
    comparison c = {{NULL}, {0}, {{0}}, NAN, NAN};
    int rc = run_all(pl, n, base, u, &c);
    if (rc == EXIT_DONE && json)
        rc = tool_print_json(comparison_json(n, &c));
    else if (rc == EXIT_DONE)
        print_comparison(tool_input_name(path), pl, n, &c);
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++)
        dls_lu_free(c.res[a]);
    return rc;
}

/* One algorithm: its result, or exit 1 when the limits cannot hold the columns. */
static int distribute(const dls_platform *pl, uint64_t n,
                      const dls_lu_params *par, const lu_request *q, ui *u)
{
    int json = q->json;
    u->what = dls_lu_algorithm_name(par->algorithm);
    dls_error err;
    dls_error_clear(&err);
    dls_lu *r;
    dls_status st = dls_lu_distribute(pl, n, par, &r, &err);
    progress_done(u);
    if (st != DLS_OK)
        return st == DLS_ECANCELED && tool_interrupted ? EXIT_INTERRUPTED : tool_fail(st, &err);
    int rc = EXIT_DONE;
    dls_solution_status sol = dls_lu_status(r);
    if (sol == DLS_SOLUTION_INFEASIBLE || sol == DLS_SOLUTION_NOT_FOUND) {
        tool_error("lu: %s", dls_lu_note(r));
        rc = EXIT_INFEASIBLE;
        if (json)
            tool_print_json(result_json(pl, r));
    } else {
        if (dls_lu_note(r)[0])
            tool_warning("%s", dls_lu_note(r));
        if (json)
            rc = tool_print_json(result_json(pl, r));
        else
            print_result(q, pl, r, q->owners);
    }
    dls_lu_free(r);
    return rc;
}

int cmd_lu(const tool_args *args)
{
    lu_request q;
    lu_request_read(args, &q);
    const char *path = q.platform;
    uint64_t n = q.columns;
    if (!q.has_columns) {
        tool_error("lu: give the number of columns: --columns N");
        return EXIT_BADINPUT;
    }
    dls_lu_params par = q.par;
    if (q.heuristic && par.algorithm != DLS_LU_FR) {
        tool_error("lu: --heuristic applies to Functional Reverse (--algorithm fr)");
        return EXIT_BADINPUT;
    }
    dls_platform *pl = NULL;
    int rc = tool_read_platform(path, &pl);
    if (rc != EXIT_DONE)
        return rc;
    ui u = {isatty(2) && !q.quiet, 0, "", tool_now()};
    struct sigaction old_sa;
    tool_catch_sigint(&old_sa);
    par.progress = progress;
    par.progress_data = &u;
    if (q.compare)
        rc = compare(path, pl, n, &par, q.json, &u);
    else
        rc = distribute(pl, n, &par, &q, &u);
    if (rc == EXIT_INTERRUPTED)
        tool_error("lu: interrupted");
    tool_release_sigint(&old_sa);
    dls_platform_free(pl);
    return rc;
}
