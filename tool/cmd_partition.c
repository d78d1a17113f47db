/* dlsched partition: distribute a set of elements over the processors of a platform. */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_opt partition_opts[] = {
    {"elements", OPT_COUNT, "N", NULL, 0, 9007199254740992.0, NULL,
     "number of elements to distribute (up to 2^53)"},
    {"matrix", OPT_COUNT, "N", NULL, 1, 9007199254740992.0, NULL,
     "distribute the N rows of an N x N matrix product, 2-D speeds cut at N"},
    {"weights", OPT_STRING, "FILE", NULL, 0, 0, NULL,
     "element weights: numbers separated by white space, or a JSON array"},
    {"ordered", OPT_FLAG, NULL, NULL, 0, 0, NULL,
     "the elements are ordered: each processor gets one contiguous chunk"},
    {"reorder", OPT_FLAG, NULL, NULL, 0, 0, NULL,
     "with --ordered: the chunks may follow another processor order"},
    {"no-limits", OPT_FLAG, NULL, NULL, 0, 0, NULL, "ignore the processors' limits"},
    {"method", OPT_CHOICE, NULL, "newton", 0, 0, "newton|bisection",
     "root finding: safeguarded Newton, or Algorithm 1.1 of paper 000 as printed"},
    {"json", OPT_FLAG, NULL, NULL, 0, 0, NULL, "write the result as JSON"},
    {NULL, 0, NULL, NULL, 0, 0, NULL, NULL},
};

const tool_cmd tool_cmd_partition = {
    "partition",
    "distribute a set of elements over the processors",
    "PLATFORM --elements N [--weights FILE] [--ordered] [--reorder] [--no-limits] [--json]\n"
    "       dlsched partition PLATFORM --matrix N [--json]",
    "Finds the distribution of N elements that minimises the time of the slowest processor,\n"
    "processor i taking n_i / s_i(n_i) seconds for n_i elements (its speed function), and\n"
    "never more than its limit. Equal elements get the exact optimum whenever every speed\n"
    "function meets each line through the origin once (otherwise a valid distribution and a\n"
    "warning). With --weights, the sum of its weights is what takes a processor time;\n"
    "unordered weighted sets get a heuristic with a proven lower bound, ordered ones the\n"
    "optimum. The report gives each processor's elements and time, the makespan, the\n"
    "continuous lower bound and the gap. Exits 1 when the limits cannot hold the set.",
    partition_opts,
    1,
    1,
    cmd_partition,
};

/* Reads weights: a JSON array, or numbers separated by white space ('#' starts a comment). */
static int read_weights(const char *path, double **out, uint64_t *count)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        tool_error("%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1024, n = 0;
    double *w = malloc(cap * sizeof *w);
    int c;
    while ((c = fgetc(f)) != EOF && isspace(c))
        ;
    if (c == '[') {
        ungetc(c, f);
        json_error_t je;
        json_t *arr = json_loadf(f, JSON_DECODE_INT_AS_REAL, &je);
        fclose(f);
        if (arr == NULL) {
            tool_error("%s:%d:%d: malformed JSON: %s", path, je.line, je.column, je.text);
            free(w);
            return -1;
        }
        if (!json_is_array(arr)) {
            tool_error("%s: the weights must be a JSON array of numbers", path);
            json_decref(arr);
            free(w);
            return -1;
        }
        size_t len = json_array_size(arr);
        free(w);
        w = malloc((len ? len : 1) * sizeof *w);
        for (size_t k = 0; w && k < len; k++) {
            json_t *v = json_array_get(arr, k);
            if (!json_is_number(v)) {
                tool_error("%s: weight %zu is not a number", path, k + 1);
                json_decref(arr);
                free(w);
                return -1;
            }
            w[n++] = json_number_value(v);
        }
        json_decref(arr);
    } else {
        if (c != EOF)
            ungetc(c, f);
        char tok[128];
        int line = 1;
        for (;;) {
            c = fgetc(f);
            if (c == EOF)
                break;
            if (c == '\n') {
                line++;
                continue;
            }
            if (isspace(c))
                continue;
            if (c == '#') {
                while ((c = fgetc(f)) != EOF && c != '\n')
                    ;
                line++;
                continue;
            }
            size_t t = 0;
            while (c != EOF && !isspace(c) && t + 1 < sizeof tok) {
                tok[t++] = (char)c;
                c = fgetc(f);
            }
            tok[t] = '\0';
            if (c == '\n')
                ungetc(c, f);
            char *end;
            double v = strtod(tok, &end);
            if (end == tok || *end != '\0') {
                tool_error("%s:%d: \"%s\" is not a number", path, line, tok);
                fclose(f);
                free(w);
                return -1;
            }
            if (n == cap) {
                cap *= 2;
                double *bigger = realloc(w, cap * sizeof *w);
                if (bigger == NULL)
                    break;
                w = bigger;
            }
            w[n++] = v;
        }
        fclose(f);
    }
    if (w == NULL) {
        tool_error("%s: out of memory", path);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        if (!isfinite(w[k]) || w[k] <= 0) {
            tool_error("%s: weight %zu is %g; weights must be finite and > 0", path, k + 1, w[k]);
            free(w);
            return -1;
        }
    *out = w;
    *count = n;
    return 0;
}

static json_t *result_json(const dls_platform *pl, const dls_partition *r, int weighted)
{
    size_t p = dls_partition_count(r);
    const uint64_t *el = dls_partition_elements(r), *first = dls_partition_first(r);
    const double *times = dls_partition_times(r), *sizes = dls_partition_sizes(r);
    json_t *procs = json_array();
    for (size_t i = 0; i < p; i++) {
        json_t *o = json_pack("{s:s,s:I,s:o}", "name", dls_platform_name(pl, i), "elements",
                              (json_int_t)el[i], "time", tool_json_number(times[i]));
        if (weighted)
            json_object_set_new(o, "weight", json_real(sizes[i]));
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
    if (dls_partition_note(r)[0])
        json_object_set_new(root, "note", json_string(dls_partition_note(r)));
    const size_t *order = dls_partition_order(r);
    if (order) {
        json_t *names = json_array();
        for (size_t k = 0; k < p; k++)
            json_array_append_new(names, json_string(dls_platform_name(pl, order[k])));
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

static void print_table(const char *path, const dls_platform *pl, const dls_partition *r,
                        int weighted)
{
    size_t p = dls_partition_count(r);
    const uint64_t *el = dls_partition_elements(r), *first = dls_partition_first(r);
    const double *times = dls_partition_times(r), *sizes = dls_partition_sizes(r);
    size_t width = 4;
    for (size_t i = 0; i < p; i++)
        if (strlen(dls_platform_name(pl, i)) > width)
            width = strlen(dls_platform_name(pl, i));
    printf("%s: %llu elements over %zu processors\n", path,
           (unsigned long long)dls_partition_total(r), p);
    printf("  %-*s  %16s  %14s%s%s\n", (int)width, "NAME", "ELEMENTS", "TIME (s)",
           weighted ? "          WEIGHT" : "", first ? "             FIRST" : "");
    /* one buffered write per line: 10^5 processors print in a blink */
    for (size_t i = 0; i < p; i++) {
        printf("  %-*s  %16llu  %14.6g", (int)width, dls_platform_name(pl, i),
               (unsigned long long)el[i], times[i]);
        if (weighted)
            printf("  %14.6g", sizes[i]);
        if (first)
            printf("  %16llu", (unsigned long long)first[i]);
        putchar('\n');
    }
    const size_t *order = dls_partition_order(r);
    if (order) {
        printf("chunk order:");
        for (size_t k = 0; k < p; k++)
            printf(" %s", dls_platform_name(pl, order[k]));
        putchar('\n');
    }
    printf("makespan %.9g s, lower bound %.9g s (gap %.3g%%), %u steps, %s\n",
           dls_partition_makespan(r), dls_partition_lower_bound(r), 100 * dls_partition_gap(r),
           dls_partition_steps(r), dls_solution_status_name(dls_partition_status(r)));
}

int cmd_partition(const tool_args *args)
{
    const char *path = args->pos[0];
    int json = arg_flag(args, "json");
    int striped = arg_given(args, "matrix");
    const char *wpath = arg_string(args, "weights");
    if (striped && (arg_given(args, "elements") || wpath)) {
        tool_error("partition: --matrix distributes rows: it cannot be combined with --elements "
                   "or --weights");
        return EXIT_BADINPUT;
    }
    if (!striped && !arg_given(args, "elements") && !wpath) {
        tool_error("partition: give --elements N (or --weights FILE, or --matrix N)");
        return EXIT_BADINPUT;
    }
    if (arg_flag(args, "reorder") && !arg_flag(args, "ordered")) {
        tool_error("partition: --reorder applies to ordered sets: add --ordered");
        return EXIT_BADINPUT;
    }
    double *weights = NULL;
    uint64_t n = striped ? arg_count(args, "matrix", 0) : arg_count(args, "elements", 0);
    if (wpath) {
        uint64_t count;
        if (read_weights(wpath, &weights, &count) != 0)
            return EXIT_BADINPUT;
        if (arg_given(args, "elements") && count != n) {
            tool_error("partition: %s holds %llu weights but --elements is %llu", wpath,
                       (unsigned long long)count, (unsigned long long)n);
            free(weights);
            return EXIT_BADINPUT;
        }
        n = count;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl;
    dls_status st = dls_platform_read_file(path, &pl, &err);
    if (st != DLS_OK) {
        free(weights);
        return tool_fail(st, &err);
    }
    dls_partition_params par;
    dls_partition_params_init(&par);
    par.use_limits = !arg_flag(args, "no-limits");
    par.ordered = arg_flag(args, "ordered");
    par.reorder = arg_flag(args, "reorder");
    par.weights = weights;
    par.method = strcmp(arg_string(args, "method"), "bisection") == 0 ? DLS_PARTITION_BISECTION
                                                                      : DLS_PARTITION_NEWTON;
    dls_partition *r;
    st = striped ? dls_partition_striped(pl, n, &par, &r, &err)
                 : dls_partition_set(pl, n, &par, &r, &err);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        free(weights);
        return tool_fail(st, &err);
    }
    dls_solution_status sol = dls_partition_status(r);
    int rc = EXIT_DONE;
    if (sol == DLS_SOLUTION_INFEASIBLE || sol == DLS_SOLUTION_NOT_FOUND) {
        tool_error("partition: %s", dls_partition_note(r));
        rc = EXIT_INFEASIBLE;
        if (json)
            tool_print_json(result_json(pl, r, weights != NULL));
    } else {
        if (dls_partition_note(r)[0])
            tool_warning("%s", dls_partition_note(r));
        if (json)
            rc = tool_print_json(result_json(pl, r, weights != NULL));
        else
            print_table(path, pl, r, weights != NULL);
    }
    dls_partition_free(r);
    dls_platform_free(pl);
    free(weights);
    return rc;
}
