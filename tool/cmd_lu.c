/* dlsched lu: column distributions for parallel LU factorization (paper 001), one
 * algorithm or all of them compared with the exact optimum. */
#include <config.h>

#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tool.h"

static const tool_opt lu_opts[] = {
    {"columns", OPT_COUNT, "N", NULL, 1, 9007199254740992.0, NULL,
     "number of column panels of the matrix (required)"},
    {"algorithm", OPT_CHOICE, NULL, "fr", 0, 0, "gb|dp|reverse|fr|fdp|fgb|exact",
     "distribution algorithm"},
    {"heuristic", OPT_CHOICE, NULL, "auto", 0, 0, "auto|cycl|ftos|stof|dflt|exhaustive",
     "Functional Reverse: order of a group of columns assigned together"},
    {"compare", OPT_FLAG, NULL, NULL, 0, 0, NULL,
     "run every algorithm; a table of costs, times and gaps to the optimum"},
    {"no-limits", OPT_FLAG, NULL, NULL, 0, 0, NULL, "ignore the processors' limits"},
    {"max-memory", OPT_COUNT, "BYTES", "1073741824", 1, 9007199254740992.0, NULL,
     "memory the exact method may use"},
    {"max-group-states", OPT_COUNT, "N", "1000000", 1, 9007199254740992.0, NULL,
     "largest exhaustive search of one group"},
    {"owners", OPT_FLAG, NULL, NULL, 0, 0, NULL,
     "text output: list every column's owner (runs of equal owners)"},
    {"quiet", OPT_FLAG, NULL, NULL, 0, 0, NULL, "no progress line"},
    {"json", OPT_FLAG, NULL, NULL, 0, 0, NULL, "write the result as JSON"},
    {NULL, 0, NULL, NULL, 0, 0, NULL, NULL},
};

const tool_cmd tool_cmd_lu = {
    "lu",
    "column distribution for parallel LU factorization (paper 001)",
    "PLATFORM --columns N [--algorithm gb|dp|reverse|fr|fdp|fgb|exact]\n"
    "       [--heuristic auto|cycl|ftos|stof|dflt|exhaustive] [--no-limits] [--json]\n"
    "       dlsched lu PLATFORM --columns N --compare [--json]",
    "Gives each of the N column panels of a matrix to a processor for a right-looking LU\n"
    "factorization. At step k (k = 1 .. N-1) processor i updates the c_i columns it owns\n"
    "among k+1 .. N, of height h = N - k, in h c_i / s_i(h, c_i) seconds (its 2-D speed, or\n"
    "its 1-D speed at h c_i elements, or its constant speed); a step lasts as long as its\n"
    "slowest processor and the cost is the sum of the steps. A limit caps the columns a\n"
    "processor owns. Algorithms: gb, dp and reverse use constant speeds (a functional\n"
    "model's speed at the even share s(N, N/p)); fr, fdp and fgb the functional models;\n"
    "exact finds the optimum by dynamic programming over the column counts of the trailing\n"
    "matrix (C(N-1+p, p) states: refused past --max-memory). --compare runs them all and\n"
    "gives each one's cost, time and gap to the optimum (to the lower bound when the exact\n"
    "method does not fit). Exits 1 when the limits cannot hold N columns.",
    lu_opts,
    1,
    1,
    cmd_lu,
};

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct ui {
    int show;
    int dirty;
    const char *what;
    double start;
} ui;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int progress(double fraction, void *data)
{
    ui *u = data;
    if (interrupted)
        return 1;
    if (!u->show || now() - u->start < 0.5) /* quick runs stay silent */
        return 0;
    fprintf(stderr, "\r%s: %5.1f%%   ", u->what, 100 * fraction);
    fflush(stderr);
    u->dirty = 1;
    return 0;
}

static void progress_done(ui *u)
{
    if (u->dirty)
        fprintf(stderr, "\r%*s\r", 40, "");
    u->dirty = 0;
}

static json_t *result_json(const dls_platform *pl, const dls_lu *r)
{
    uint64_t n = dls_lu_columns(r);
    size_t p = dls_lu_count(r);
    json_t *root = json_object();
    json_object_set_new(root, "columns", json_integer((json_int_t)n));
    json_object_set_new(root, "algorithm",
                        json_string(dls_lu_algorithm_name(dls_lu_get_algorithm(r))));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR)
        json_object_set_new(root, "heuristic",
                            json_string(dls_lu_heuristic_name(dls_lu_get_heuristic(r))));
    json_object_set_new(root, "cost", tool_json_number(dls_lu_cost(r)));
    json_object_set_new(root, "status", json_string(dls_solution_status_name(dls_lu_status(r))));
    json_object_set_new(root, "lower_bound", tool_json_number(dls_lu_lower_bound(r)));
    json_object_set_new(root, "gap", tool_json_number(dls_lu_gap(r)));
    json_object_set_new(root, "groups", json_integer((json_int_t)dls_lu_groups(r)));
    if (dls_lu_note(r)[0])
        json_object_set_new(root, "note", json_string(dls_lu_note(r)));
    json_t *counts = json_object();
    for (size_t i = 0; i < p; i++)
        json_object_set_new(counts, dls_platform_name(pl, i),
                            json_integer((json_int_t)dls_lu_counts(r)[i]));
    json_object_set_new(root, "counts", counts);
    const size_t *own = dls_lu_owners(r);
    json_t *owners = json_array();
    for (uint64_t j = 0; own && j < n; j++)
        json_array_append_new(owners, json_string(dls_platform_name(pl, own[j])));
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

static void print_result(const char *path, const dls_platform *pl, const dls_lu *r, int all)
{
    uint64_t n = dls_lu_columns(r);
    size_t p = dls_lu_count(r), width = 4;
    for (size_t i = 0; i < p; i++)
        if (strlen(dls_platform_name(pl, i)) > width)
            width = strlen(dls_platform_name(pl, i));
    printf("%s: %llu columns over %zu processors, %s", path, (unsigned long long)n, p,
           dls_lu_algorithm_name(dls_lu_get_algorithm(r)));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR)
        printf(" (heuristic %s)", dls_lu_heuristic_name(dls_lu_get_heuristic(r)));
    putchar('\n');
    printf("  %-*s  %12s  %7s\n", (int)width, "NAME", "COLUMNS", "SHARE");
    for (size_t i = 0; i < p; i++)
        printf("  %-*s  %12llu  %6.2f%%\n", (int)width, dls_platform_name(pl, i),
               (unsigned long long)dls_lu_counts(r)[i],
               100.0 * (double)dls_lu_counts(r)[i] / (double)n);
    printf("cost %.10g s", dls_lu_cost(r));
    if (!isnan(dls_lu_lower_bound(r)))
        printf(", lower bound %.10g s (gap %.3g%%)", dls_lu_lower_bound(r), 100 * dls_lu_gap(r));
    if (dls_lu_get_algorithm(r) == DLS_LU_FR || dls_lu_get_algorithm(r) == DLS_LU_REVERSE)
        printf(", %zu column group%s", dls_lu_groups(r), dls_lu_groups(r) == 1 ? "" : "s");
    printf(", %s\n", dls_solution_status_name(dls_lu_status(r)));
    print_runs(pl, dls_lu_owners(r), n, all ? 0 : 12);
}

static int compare(const char *path, const dls_platform *pl, uint64_t n,
                   const dls_lu_params *base, int json, ui *u)
{
    dls_lu *res[DLS_LU_ALGORITHM_COUNT] = {NULL};
    double secs[DLS_LU_ALGORITHM_COUNT];
    char why[DLS_LU_ALGORITHM_COUNT][DLS_ERROR_MESSAGE_MAX];
    double exact = NAN, bound = NAN;
    int rc = EXIT_DONE;
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
        dls_lu_params par = *base;
        par.algorithm = (dls_lu_algorithm)a;
        u->what = dls_lu_algorithm_name(par.algorithm);
        u->start = now();
        dls_error err;
        dls_error_clear(&err);
        double t0 = now();
        dls_status st = dls_lu_distribute(pl, n, &par, &res[a], &err);
        secs[a] = now() - t0;
        progress_done(u);
        why[a][0] = '\0';
        if (st == DLS_ECANCELED && interrupted) {
            rc = 130;
            break;
        }
        if (st != DLS_OK) {
            /* the exact method out of reach is part of the answer, not a failure */
            if (st != DLS_ELIMIT) {
                rc = tool_fail(st, &err);
                break;
            }
            snprintf(why[a], sizeof why[a], "%s", err.message);
            res[a] = NULL;
            continue;
        }
        if (dls_lu_status(res[a]) == DLS_SOLUTION_INFEASIBLE) {
            tool_error("lu: %s", dls_lu_note(res[a]));
            rc = EXIT_INFEASIBLE;
            break;
        }
        if (a == DLS_LU_EXACT)
            exact = dls_lu_cost(res[a]);
        else if (isnan(bound) || dls_lu_lower_bound(res[a]) > bound)
            bound = dls_lu_lower_bound(res[a]);
    }
    if (rc == EXIT_DONE) {
        double ref = isnan(exact) ? bound : exact;
        if (json) {
            json_t *root = json_object(), *rows = json_array();
            json_object_set_new(root, "columns", json_integer((json_int_t)n));
            json_object_set_new(root, "exact_cost", tool_json_number(exact));
            json_object_set_new(root, "lower_bound", tool_json_number(bound));
            json_object_set_new(root, "gap_to", json_string(isnan(exact) ? "lower_bound"
                                                                         : "exact"));
            for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
                json_t *o = json_object();
                json_object_set_new(o, "algorithm",
                                    json_string(dls_lu_algorithm_name((dls_lu_algorithm)a)));
                if (res[a] == NULL) {
                    json_object_set_new(o, "cost", json_null());
                    json_object_set_new(o, "note", json_string(why[a]));
                } else {
                    double c = dls_lu_cost(res[a]);
                    json_object_set_new(o, "cost", tool_json_number(c));
                    json_object_set_new(o, "seconds", json_real(secs[a]));
                    json_object_set_new(o, "gap", tool_json_number(ref > 0 ? (c - ref) / ref
                                                                           : NAN));
                    json_object_set_new(o, "status", json_string(dls_solution_status_name(
                                                         dls_lu_status(res[a]))));
                    if (dls_lu_note(res[a])[0])
                        json_object_set_new(o, "note", json_string(dls_lu_note(res[a])));
                }
                json_array_append_new(rows, o);
            }
            json_object_set_new(root, "results", rows);
            rc = tool_print_json(root);
        } else {
            printf("%s: %llu columns over %zu processors\n", path, (unsigned long long)n,
                   dls_platform_count(pl));
            printf("  %-9s  %16s  %10s  %12s  %s\n", "ALGORITHM", "COST (s)", "TIME (s)",
                   isnan(exact) ? "GAP TO BOUND" : "GAP TO OPT", "STATUS");
            for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++) {
                const char *name = dls_lu_algorithm_name((dls_lu_algorithm)a);
                if (res[a] == NULL) {
                    printf("  %-9s  %16s  %10s  %12s  not computed\n", name, "-", "-", "-");
                    continue;
                }
                double c = dls_lu_cost(res[a]);
                char gap[32] = "-";
                if (isfinite(c) && ref > 0)
                    snprintf(gap, sizeof gap, "%.4g%%", 100 * (c - ref) / ref);
                printf("  %-9s  %16.10g  %10.4f  %12s  %s%s\n", name, c, secs[a], gap,
                       dls_solution_status_name(dls_lu_status(res[a])),
                       a <= DLS_LU_REVERSE ? " (constant speeds)" : "");
            }
            if (!isnan(bound))
                printf("lower bound (each step at its best alone): %.10g s\n", bound);
            if (res[DLS_LU_EXACT] == NULL)
                printf("%s\n", why[DLS_LU_EXACT]);
        }
    }
    for (int a = 0; a < DLS_LU_ALGORITHM_COUNT; a++)
        dls_lu_free(res[a]);
    return rc;
}

int cmd_lu(const tool_args *args)
{
    const char *path = args->pos[0];
    int json = arg_flag(args, "json");
    if (!arg_given(args, "columns")) {
        tool_error("lu: give the number of columns: --columns N");
        return EXIT_BADINPUT;
    }
    if (arg_flag(args, "compare") && (arg_given(args, "algorithm"))) {
        tool_error("lu: --compare runs every algorithm: drop --algorithm");
        return EXIT_BADINPUT;
    }
    uint64_t n = arg_count(args, "columns", 1);
    dls_lu_params par;
    dls_lu_params_init(&par);
    dls_lu_algorithm_from_name(arg_string(args, "algorithm"), &par.algorithm);
    dls_lu_heuristic_from_name(arg_string(args, "heuristic"), &par.heuristic);
    if (arg_given(args, "heuristic") && par.algorithm != DLS_LU_FR) {
        tool_error("lu: --heuristic applies to Functional Reverse (--algorithm fr)");
        return EXIT_BADINPUT;
    }
    par.use_limits = !arg_flag(args, "no-limits");
    par.max_memory = (size_t)fmin((double)arg_count(args, "max-memory", 1u << 30),
                                  (double)SIZE_MAX);
    par.max_group_states = (size_t)arg_count(args, "max-group-states", 1000000);

    dls_error err;
    dls_error_clear(&err);
    dls_platform *pl;
    dls_status st = dls_platform_read_file(path, &pl, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);

    ui u = {isatty(2) && !arg_flag(args, "quiet"), 0, "", now()};
    struct sigaction sa, old_sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, &old_sa);
    par.on_progress = progress;
    par.on_progress_data = &u;

    int rc;
    if (arg_flag(args, "compare")) {
        rc = compare(path, pl, n, &par, json, &u);
    } else {
        u.what = dls_lu_algorithm_name(par.algorithm);
        dls_lu *r;
        st = dls_lu_distribute(pl, n, &par, &r, &err);
        progress_done(&u);
        if (st != DLS_OK) {
            rc = st == DLS_ECANCELED && interrupted ? 130 : tool_fail(st, &err);
        } else {
            dls_solution_status sol = dls_lu_status(r);
            rc = EXIT_DONE;
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
                    print_result(path, pl, r, arg_flag(args, "owners"));
            }
            dls_lu_free(r);
        }
    }
    if (rc == 130)
        tool_error("lu: interrupted");
    sigaction(SIGINT, &old_sa, NULL);
    dls_platform_free(pl);
    return rc;
}
