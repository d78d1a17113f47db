/* dlsched partition: distribute a set of elements over the processors of a platform. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_opt partition_opts[] = {
    TOOL_GROUP("Problem"),
    {"elements", OPT_COUNT, "N", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "number of elements to distribute (up to 2^53)"},
    TOOL_STRING("weights", "FILE", "element weights: numbers separated by white space, or a JSON array"),
    TOOL_FLAG("ordered", "the elements are ordered: each processor gets one contiguous chunk"),
    TOOL_FLAG("reorder", "with --ordered: the chunks may follow another processor order"),
    {"matrix", OPT_COUNT, "N", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "distribute the N rows of an N x N matrix product, 2-D speeds cut at N"},
    TOOL_FLAG("no-limits", "ignore the processors' limits"),
    TOOL_GROUP("Method"),
    TOOL_FLAG("exact", "with --matrix: the exact row programme, whatever the shapes"),
    TOOL_FLAG("geometric", "with --matrix: the geometric algorithm, even where a shape breaks"),
    {"method", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_PARTITION_METHOD_MAP),
     "root finding: safeguarded Newton, or the bisection of Lastovetsky and Reddy (2007) "
     "as published"},
    TOOL_GROUP("Output"),
    TOOL_FLAG("json", "write the result as JSON"),
    TOOL_DIGITS_OPT,
    TOOL_OPT_END,
};

static const tool_rule partition_rules[] = {
    TOOL_NEEDS("exact", "matrix"),
    TOOL_NEEDS("geometric", "matrix"),
    TOOL_EXCLUDES("exact", "geometric"),
    TOOL_NEEDS("reorder", "ordered"),
    TOOL_EXCLUDES("matrix", "elements|weights"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int partition_default(const char *opt, char *buf, size_t size)
{
    dls_partition_params par;
    dls_partition_params_init(&par);
    if (strcmp(opt, "method") == 0)
        return tool_show_text(dls_partition_method_name(par.method),
                              buf, size);
    return 0;
}

const tool_cmd tool_cmd_partition = {
    "partition",
    "distribute a set of elements over the processors",
    "PLATFORM --elements N [OPTIONS]\n"
    "       dlsched partition PLATFORM --weights FILE [OPTIONS]\n"
    "       dlsched partition PLATFORM --matrix N [OPTIONS]",
    "Finds the distribution of N elements that minimises the time of the slowest\n"
    "processor, processor i taking n_i / s_i(n_i) seconds for n_i elements (its speed\n"
    "function), never more than its limit. Equal elements get the exact optimum when\n"
    "every speed function is well shaped (otherwise a valid distribution and a warning).\n"
    "With --weights, weighted elements: a heuristic with a proven lower bound, or the\n"
    "optimum for an ordered set. With --matrix, the rows of an N x N matrix product.\n"
    "Links are not part of this problem (see schedule). Exits 1 when the limits cannot\n"
    "hold the set.",
    partition_opts,
    1,
    1,
    cmd_partition,
    partition_default,
    "dlsched partition examples/memory_levels.json --elements 1000000\n"
    "dlsched partition examples/star_ten.json --elements 1e6 --json\n"
    "dlsched partition examples/striped_mm.json --matrix 500",
    partition_rules,
};

/* What the command line asks, read once (partition_request_read); the phases below take it,
 * never the option table. The combinations the table's rules refuse (partition_rules) are
 * refused by the parser already. */
typedef struct partition_request {
    const char *platform;     /* the PLATFORM argument */
    int striped;              /* --matrix N: rows of a matrix product */
    int has_elements;         /* --elements given */
    uint64_t n;               /* --matrix or --elements, 0 when neither */
    const char *weights;      /* --weights FILE, or NULL */
    int json, digits;
    dls_partition_params par; /* the defaults, then the options given (not the weights) */
} partition_request;

static void partition_request_read(const tool_args *args, partition_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = args->pos[0];
    q->striped = arg_count(args, "matrix", &q->n);
    q->has_elements = arg_given(args, "elements");
    if (!q->striped)
        arg_count(args, "elements", &q->n);
    q->weights = arg_string(args, "weights");
    q->json = arg_flag(args, "json");
    q->digits = tool_digits(args);
    dls_partition_params *par = &q->par;
    dls_partition_params_init(par);
    arg_set_flag(args, "no-limits", &par->use_limits, 0);
    arg_set_flag(args, "ordered", &par->ordered, 1);
    arg_set_flag(args, "reorder", &par->reorder, 1);
    if (arg_flag(args, "exact"))
        par->exact = DLS_PARTITION_EXACT_ALWAYS;
    else if (arg_flag(args, "geometric"))
        par->exact = DLS_PARTITION_EXACT_NEVER;
    const char *method = arg_string(args, "method");
    if (method != NULL)
        dls_partition_method_from_name(method, &par->method); /* the option checked it */
}

/* A platform with links: the partition problem leaves the sends out (the data are where
 * they are computed), which the report says with the longest send its shares would take
 * and the command that schedules them. Writes the sentence into buf; 0 when no processor
 * has a link that costs anything. */
static int links_note(const partition_request *q, const dls_platform *pl,
                      const dls_partition *r, char *buf, size_t size)
{
    size_t p = dls_partition_count(r), linked = 0, worst = p;
    const uint64_t *el = dls_partition_elements(r);
    double longest = -1;
    for (size_t i = 0; i < p; i++) {
        double S, C;
        if (!dls_platform_has_link(pl, i) || dls_platform_link(pl, i, &S, &C) != DLS_OK ||
            (S == 0 && C == 0))
            continue;
        linked++;
        double t = el[i] > 0 ? S + C * (double)el[i] : 0;
        if (t > longest) {
            longest = t;
            worst = i;
        }
    }
    if (linked == 0)
        return 0;
    int n = snprintf(buf, size, "%zu of %zu %s %s a link, which the partition "
                     "problem leaves out (the data are taken to be where they are computed)",
                     linked, p, tool_plural(p, "processor", "processors"),
                     tool_plural(linked, "has", "have"));
    if (worst < p && longest > 0 && n > 0 && (size_t)n < size)
        n += snprintf(buf + n, size - (size_t)n, ": sending \"%s\" its %llu %s alone "
                      "would take %.3g s, against a makespan of %.3g s here",
                      dls_platform_name(pl, worst), (unsigned long long)el[worst],
                      tool_plural((size_t)el[worst], "element", "elements"), longest,
                      dls_partition_makespan(r));
    if (n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, "; `dlsched schedule %s --load %llu` schedules "
                 "the sends too", q->platform, (unsigned long long)dls_partition_total(r));
    return 1;
}

static json_t *result_json(const partition_request *q, const dls_platform *pl,
                           const dls_partition *r, int weighted)
{
    size_t p = dls_partition_count(r);
    const uint64_t *el = dls_partition_elements(r), *first = dls_partition_first(r);
    const double *times = dls_partition_times(r), *sizes = dls_partition_sizes(r);
    json_t *procs = json_array();
    for (size_t i = 0; i < p; i++) {
        json_t *o = json_pack("{s:s,s:I,s:o}", "name", dls_platform_name(pl, i), "elements",
                              (json_int_t)el[i], "time", tool_json_number(times[i]));
        if (weighted)
            json_object_set_new(o, "weight", tool_json_number(sizes[i]));
        if (first)
            json_object_set_new(o, "first", json_integer((json_int_t)first[i]));
        json_array_append_new(procs, o);
    }
    json_t *root = json_pack("{s:I,s:o,s:o,s:o,s:s,s:i,s:o,s:b}", "elements",
                             (json_int_t)dls_partition_total(r), "makespan",
                             tool_json_number(dls_partition_makespan(r)), "lower_bound",
                             tool_json_number(dls_partition_lower_bound(r)), "gap",
                             tool_json_number(dls_partition_gap(r)), "status",
                             dls_solution_status_name(dls_partition_status(r)), "steps",
                             (int)dls_partition_steps(r), "metric",
                             tool_json_number(dls_partition_metric_value(r)), "shape_ok",
                             dls_partition_shape_ok(r));
    json_object_set_new(root, "exact", json_boolean(dls_partition_exact_used(r)));
    if (q->striped) /* so that `dlsched verify` knows the rows' cost */
        json_object_set_new(root, "matrix", json_integer((json_int_t)q->n));
    if (dls_partition_note(r)[0])
        json_object_set_new(root, "note", tool_json_text(dls_partition_note(r)));
    char links[1024];
    if (links_note(q, pl, r, links, sizeof links))
        json_object_set_new(root, "links", tool_json_text(links));
    const size_t *order = dls_partition_order(r);
    if (order) {
        json_t *names = json_array();
        for (size_t k = 0; k < p; k++)
            json_array_append_new(names, tool_json_text(dls_platform_name(pl, order[k])));
        json_object_set_new(root, "order", names);
    }
    const size_t *assign = dls_partition_assignment(r);
    if (assign) {
        json_t *a = json_array();
        for (uint64_t e = 0; e < dls_partition_total(r); e++)
            json_array_append_new(a, json_integer((json_int_t)assign[e]));
        json_object_set_new(root, "assignment", a);
    }
    json_object_set_new(root, "processors", procs);
    return root;
}

/* The numeric columns of the partition's table, in their order. */
enum { PCOL_ELEMENTS, PCOL_SHARE, PCOL_TIME, PCOL_WEIGHT, PCOL_FIRST, PARTITION_COLS };

static void print_table(const partition_request *q, const dls_platform *pl,
                        const dls_partition *r, int weighted)
{
    size_t p = dls_partition_count(r);
    const uint64_t *el = dls_partition_elements(r), *first = dls_partition_first(r);
    const double *times = dls_partition_times(r), *sizes = dls_partition_sizes(r);
    double N = (double)dls_partition_total(r), T = dls_partition_makespan(r);
    int width = tool_name_width(pl, p), digits = q->digits;
    char cell[TOOL_CELL_BYTES], n1[64], n2[64];
    tool_column col[PARTITION_COLS];
    static const char *const head[PARTITION_COLS] = {"ELEMENTS", "SHARE (%)", "TIME (s)",
                                                     "WEIGHT", "FIRST"};
    int shown[PARTITION_COLS] = {1, 1, 1, weighted, first != NULL};
    for (int c = 0; c < PARTITION_COLS; c++)
        tool_column_init(&col[c], head[c], digits,
                         TOOL_ZERO_REL * (c == PCOL_TIME ? T : c == PCOL_SHARE ? 100 : 0));
    col[PCOL_ELEMENTS].whole = col[PCOL_FIRST].whole = 1; /* elements are whole */
    for (size_t i = 0; i < p; i++) {
        double v[PARTITION_COLS] = {(double)el[i], N > 0 ? 100 * (double)el[i] / N : 0,
                                    times[i], weighted ? sizes[i] : 0,
                                    first ? (double)first[i] : 0};
        for (int c = 0; c < PARTITION_COLS; c++)
            tool_column_see(&col[c], v[c]);
    }
    for (int c = 0; c < PARTITION_COLS; c++)
        tool_column_fix(&col[c]);
    if (col[PCOL_TIME].width < (int)strlen("unused"))
        col[PCOL_TIME].width = (int)strlen("unused");
    printf("%s: %s over %s\n", tool_input_name(q->platform),
           tool_count(n1, sizeof n1, N, "element", "elements"),
           tool_count(n2, sizeof n2, (double)p, "processor", "processors"));
    char line[TOOL_CELL_BYTES + PARTITION_COLS * (TOOL_COLUMN_BYTES + 2) + 8];
    char *o = tool_put(line, "  ", 0);
    o = tool_put(o, tool_cell(cell, sizeof cell, "NAME", width), 0);
    for (int c = 0; c < PARTITION_COLS; c++)
        if (shown[c])
            o = tool_put_heading(tool_put(o, "  ", 0), &col[c]);
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
    /* one write per line: 10^5 processors print in a blink */
    for (size_t i = 0; i < p; i++) {
        double v[PARTITION_COLS] = {(double)el[i], N > 0 ? 100 * (double)el[i] / N : 0,
                                    times[i], weighted ? sizes[i] : 0,
                                    first ? (double)first[i] : 0};
        o = tool_put(line, "  ", 0);
        o = tool_put(o, tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
        for (int c = 0; c < PARTITION_COLS; c++) {
            if (!shown[c])
                continue;
            o = tool_put(o, "  ", 0);
            if (c == PCOL_TIME && el[i] == 0) /* a processor given nothing: a word */
                o = tool_put_right(o, "unused", (size_t)col[c].width);
            else
                o = tool_put_column(o, &col[c], v[c]);
        }
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
    const size_t *order = dls_partition_order(r);
    if (order) {
        printf("chunk order:");
        for (size_t k = 0; k < p; k++)
            printf(" %s", dls_platform_name(pl, order[k]));
        putchar('\n');
    }
    unsigned steps = dls_partition_steps(r);
    printf("makespan %.9g s, lower bound %.9g s (gap %.3g%%), %u %s, %s\n",
           dls_partition_makespan(r), dls_partition_lower_bound(r), 100 * dls_partition_gap(r),
           steps, tool_plural(steps, "step", "steps"),
           dls_solution_status_name(dls_partition_status(r)));
    printf("method: %s\n", dls_partition_exact_used(r) ? "exact row programme" : "geometric");
}

/* The usage error the table's rules cannot say: no set given. */
static int check_request(const partition_request *q)
{
    if (!q->striped && !q->has_elements && !q->weights) {
        tool_error("partition: give --elements N (or --weights FILE, or --matrix N)");
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* The number of elements, and their weights with --weights (NULL otherwise). */
static int read_elements(const partition_request *q, uint64_t *n, double **weights)
{
    *n = q->n;
    *weights = NULL;
    if (q->weights == NULL)
        return EXIT_DONE;
    uint64_t count;
    char why[TOOL_WEIGHTS_WHY_MAX];
    if (tool_read_weights(q->weights, weights, &count, why, sizeof why) != 0) {
        tool_error("%s", why);
        return EXIT_BADINPUT;
    }
    if (q->has_elements && count != *n) {
        tool_error("partition: %s holds %llu %s but --elements is %llu", q->weights,
                   (unsigned long long)count, count == 1 ? "weight" : "weights",
                   (unsigned long long)*n);
        free(*weights);
        *weights = NULL;
        return EXIT_BADINPUT;
    }
    *n = count;
    return EXIT_DONE;
}

/* The report of a result: exit 1 when the set does not fit. */
static int report(const partition_request *q, const dls_platform *pl, const dls_partition *r,
                  int weighted)
{
    dls_solution_status sol = dls_partition_status(r);
    if (sol == DLS_SOLUTION_INFEASIBLE || sol == DLS_SOLUTION_NOT_FOUND) {
        tool_error("partition: %s", dls_partition_note(r));
        if (q->json)
            tool_print_json(result_json(q, pl, r, weighted));
        return EXIT_INFEASIBLE;
    }
    if (dls_partition_note(r)[0])
        tool_warning("%s", dls_partition_note(r));
    char links[1024];
    if (links_note(q, pl, r, links, sizeof links))
        tool_warning("%s", links);
    if (q->json)
        return tool_print_json(result_json(q, pl, r, weighted));
    print_table(q, pl, r, weighted);
    return EXIT_DONE;
}

int cmd_partition(const tool_args *args)
{
    partition_request q;
    partition_request_read(args, &q);
    uint64_t n;
    double *weights;
    int rc = check_request(&q);
    if (rc == EXIT_DONE)
        rc = read_elements(&q, &n, &weights);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    rc = tool_read_platform(q.platform, &pl);
    if (rc != EXIT_DONE) {
        free(weights);
        return rc;
    }
    q.par.weights = weights;
    dls_error err;
    dls_error_clear(&err);
    dls_partition *r;
    dls_status st = q.striped ? dls_partition_solve_matrix(pl, n, &q.par, &r, &err)
                              : dls_partition_solve(pl, n, &q.par, &r, &err);
    if (st != DLS_OK) {
        rc = tool_fail(st, &err);
    } else {
        rc = report(&q, pl, r, weights != NULL);
        dls_partition_free(r);
    }
    dls_platform_free(pl);
    free(weights);
    return rc;
}
