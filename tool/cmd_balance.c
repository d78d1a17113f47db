/* dlsched balance: an iterative application simulated on a platform's true models, balanced
 * from its measured times alone (dlsched/balance.h), against the optimum of the full models. */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

/* A distribution is "within" the optimum when its makespan is at most this times it. */
#define BALANCE_WITHIN 1.05
/* Processors whose shares the text table shows as columns, at most. */
#define BALANCE_SHARE_COLUMNS 8
/* Characters of a processor's name over its share column, at most. */
#define BALANCE_NAME_COLUMNS 12
#define BALANCE_ITERATIONS 20
#define BALANCE_SEED 1
#define BALANCE_MAX_ITERATIONS 100000

static const tool_opt balance_opts[] = {
    TOOL_GROUP("Problem"),
    {"elements", OPT_COUNT, "N", NULL, 1, TOOL_MAX_WHOLE, NULL,
     "number of elements the application distributes (up to 2^53)"},
    {"iterations", OPT_COUNT, "K", TOOL_STR(BALANCE_ITERATIONS), 1, BALANCE_MAX_ITERATIONS,
     NULL, "iterations to run"},
    {"start", OPT_STRING, "even|FILE", "even", 0, 0, NULL,
     "the first distribution: the even split, or a FILE of lines \"NAME COUNT\" summing to "
     "N (processors not named get 0)"},
    {"noise", OPT_DOUBLE, "F", "0", 0, 0.5, NULL,
     "relative half-width of the noise on each measured time, uniform in [-F, F] (as "
     "bench --kernel synthetic --noise), below 0.5; when > 0 also the balancer's noise"},
    {"seed", OPT_COUNT, "S", TOOL_STR(BALANCE_SEED), 0, TOOL_MAX_WHOLE, NULL,
     "seed of the noise: the same seed gives the same output"},
    TOOL_GROUP("Balancer"),
    {"mode", OPT_CHOICE, NULL, NULL, 0, 0, TOOL_CHOICES(DLS_BALANCE_MODE_MAP),
     "partial speed functions from every point seen, or the constant-speed rule d / t"},
    {"tolerance", OPT_DOUBLE, "R", NULL, 0, 1, NULL,
     "converged when the predicted imbalance is at most R"},
    {"trust", OPT_DOUBLE, "X", NULL, 1, 1e6, NULL,
     "a share never grows beyond X times the largest size measured"},
    {"move-cost", OPT_DOUBLE, "SEC", NULL, 0, 1e6, NULL,
     "seconds it takes to move one element"},
    {"horizon", OPT_DOUBLE, "H", NULL, 1, 1e9, NULL,
     "iterations a new distribution is expected to serve (a move is worth its cost over "
     "them)"},
    TOOL_GROUP("Output"),
    TOOL_FLAG("json", "write every iteration as JSON: every share, time and move"),
    TOOL_STRING("svg", "FILE", "draw the shares and the makespan by iteration as SVG"),
    TOOL_OPT_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int balance_default(const char *opt, char *buf, size_t size)
{
    dls_balance_params par;
    dls_balance_params_init(&par);
    if (strcmp(opt, "mode") == 0)
        return tool_show_text(dls_balance_mode_name(par.mode), buf, size);
    if (strcmp(opt, "tolerance") == 0)
        return tool_show_number(par.tolerance, buf, size);
    if (strcmp(opt, "trust") == 0)
        return tool_show_number(par.trust, buf, size);
    if (strcmp(opt, "move-cost") == 0)
        return tool_show_number(par.move_cost, buf, size);
    if (strcmp(opt, "horizon") == 0)
        return tool_show_number(par.horizon, buf, size);
    return 0;
}

const tool_cmd tool_cmd_balance = {
    "balance",
    "simulate balancing an iterative application from its own times",
    "PLATFORM --elements N [OPTIONS]",
    "Runs an iterative application on the platform's models, taken as the truth: at each\n"
    "iteration processor i takes the time its model gives for its share, with a relative\n"
    "noise (--noise). The balancer sees only those measured times and gives the next\n"
    "distribution (functional mode: partial speed functions built from the points seen;\n"
    "constant mode: the traditional rule d / t). Each iteration's makespan is compared with\n"
    "the optimum that the partitioner finds on the full models, limits included. Prints\n"
    "per iteration the makespan, its ratio to the optimum, the imbalance, the elements\n"
    "moved and the shares; then from which iteration the makespan stays within 5% of the\n"
    "optimum, and the total time against the optimal distribution's. Exits 1 when the\n"
    "limits cannot hold the elements.",
    balance_opts,
    1,
    1,
    cmd_balance,
    balance_default,
    "dlsched balance examples/memory_levels.json --elements 150000000 --noise 0.02\n"
    "dlsched balance examples/memory_levels.json --elements 150000000 --mode constant\n"
    "dlsched balance examples/cluster.json --elements 1e6 --iterations 10 --svg bal.svg",
    NULL,
};

/* What the command line asks, read once (balance_request_read). */
typedef struct balance_request {
    const char *platform;    /* the PLATFORM argument */
    int has_elements;        /* --elements given */
    uint64_t n;              /* --elements */
    uint64_t iterations;     /* --iterations */
    uint64_t seed;           /* --seed */
    double noise;            /* --noise, the simulated noise */
    const char *start;       /* --start FILE; NULL for the even split */
    const char *svg;         /* --svg FILE, or NULL */
    int json;
    dls_balance_params par;  /* the library's defaults, then the options given */
} balance_request;

static void balance_request_read(const tool_args *args, balance_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = args->pos[0];
    q->has_elements = arg_count(args, "elements", &q->n);
    q->iterations = BALANCE_ITERATIONS;
    arg_count(args, "iterations", &q->iterations);
    q->seed = BALANCE_SEED;
    arg_count(args, "seed", &q->seed);
    arg_double(args, "noise", &q->noise);
    q->start = arg_string(args, "start");
    if (q->start != NULL && strcmp(q->start, "even") == 0)
        q->start = NULL;
    q->svg = arg_string(args, "svg");
    q->json = arg_flag(args, "json");
    dls_balance_params *par = &q->par;
    dls_balance_params_init(par);
    const char *mode = arg_string(args, "mode");
    if (mode != NULL)
        dls_balance_mode_from_name(mode, &par->mode); /* the option checked it */
    if (q->noise > 0)
        par->noise = q->noise;
    arg_double(args, "tolerance", &par->tolerance);
    arg_double(args, "trust", &par->trust);
    arg_double(args, "move-cost", &par->move_cost);
    arg_double(args, "horizon", &par->horizon);
}

/* The usage errors the option table cannot say. */
static int check_request(const balance_request *q)
{
    if (!q->has_elements) {
        tool_error("balance: give --elements N (usage: dlsched balance %s)",
                   tool_cmd_balance.usage);
        return EXIT_BADINPUT;
    }
    if (q->noise >= 0.5) {
        tool_error("balance: --noise must be below 0.5, not %g (a time may not vanish)",
                   q->noise);
        return EXIT_BADINPUT;
    }
    if (q->par.tolerance <= 0 || q->par.tolerance >= 1 || q->par.trust <= 1) {
        tool_error("balance: %s", q->par.trust <= 1 ? "--trust must be above 1"
                                                     : "--tolerance must be in (0, 1)");
        return EXIT_BADINPUT;
    }
    if (q->svg != NULL && tool_is_stdout(q->svg)) {
        tool_error("balance: --svg needs a file (standard output has the report)");
        return EXIT_BADINPUT;
    }
    return EXIT_DONE;
}

/* A platform the simulation can run: 1-D models only (a share is one number). */
static int check_platform(const dls_platform *pl)
{
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (dls_model_dimension(dls_platform_model(pl, i)) != 1) {
            tool_error("balance: processor \"%s\" has a 2-D speed model; balance simulates "
                       "1-D shares (take a section, or use partition --matrix)",
                       dls_platform_name(pl, i));
            return EXIT_BADINPUT;
        }
    return EXIT_DONE;
}

/* --start FILE: lines "NAME COUNT", whole counts summing to N, into *out (p counts). */
static int read_start(const balance_request *q, const dls_platform *pl, uint64_t **out)
{
    *out = NULL;
    if (q->start == NULL)
        return EXIT_DONE;
    const tool_named_spec spec = {"balance", "--start", "NAME COUNT", "starting counts", 1,
                                  {"count"}};
    double *v;
    int rc = tool_named_read(q->start, pl, &spec, &v);
    if (rc != EXIT_DONE)
        return rc;
    size_t p = dls_platform_count(pl);
    uint64_t *d = calloc(p ? p : 1, sizeof *d);
    double sum = 0;
    if (d == NULL) {
        free(v);
        tool_oom("balance: --start");
        return EXIT_FAILURE_RUN;
    }
    for (size_t i = 0; i < p && rc == EXIT_DONE; i++) {
        if (v[i] != floor(v[i]) || v[i] > TOOL_MAX_WHOLE) {
            char num[64];
            tool_error("balance: --start %s: processor \"%s\" has count %s, not a whole "
                       "number of elements", tool_input_name(q->start),
                       dls_platform_name(pl, i), tool_shortest(v[i], num, sizeof num));
            rc = EXIT_BADINPUT;
        }
        d[i] = (uint64_t)v[i];
        sum += v[i];
    }
    if (rc == EXIT_DONE && sum != (double)q->n) {
        tool_error("balance: --start %s: the counts sum to %.17g, not --elements %llu",
                   tool_input_name(q->start), sum, (unsigned long long)q->n);
        rc = EXIT_BADINPUT;
    }
    free(v);
    if (rc != EXIT_DONE)
        free(d);
    else
        *out = d;
    return rc;
}

/* The state of one simulation. */
typedef struct balance_sim {
    const balance_request *q;
    const dls_platform *pl;
    size_t p;
    size_t K;
    double opt;              /* the optimal makespan on the true models, s */
    uint64_t *opt_shares;    /* its distribution */
    dls_balance *b;
    uint64_t rng;            /* the noise's generator (splitmix64) */
    uint64_t *ran;           /* the distribution of the iteration running */
    double *truth, *measured, *predicted; /* per processor, for that iteration */
    double *ratio, *span, *span_measured; /* per iteration */
    uint64_t *history;       /* the K distributions, with --svg (else NULL) */
    uint64_t moved;          /* elements moved in all */
    json_t *json_iterations; /* with --json */
    int share_columns;       /* the shares as columns of the table */
    int width;               /* of each share column */
} balance_sim;

/* A uniform number in [0, 1) (splitmix64: small, fast, the same on every machine). */
static double sim_uniform(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (double)(z >> 11) * 0x1p-53;
}

/* The makespan of distribution d on the true models, s. */
static double true_makespan(const dls_platform *pl, const uint64_t *d)
{
    double t = 0;
    for (size_t i = 0; i < dls_platform_count(pl); i++)
        if (d[i] > 0)
            t = fmax(t, dls_model_time(dls_platform_model(pl, i), (double)d[i]));
    return t;
}

/* The optimum: the partitioner on the true models with their limits. Exit 1 when the limits
 * cannot hold the elements. */
static int sim_optimum(balance_sim *s)
{
    dls_error err;
    dls_error_clear(&err);
    dls_partition *r = NULL;
    dls_status st = dls_partition_solve(s->pl, s->q->n, NULL, &r, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    dls_solution_status sol = dls_partition_status(r);
    if (sol == DLS_SOLUTION_INFEASIBLE || sol == DLS_SOLUTION_NOT_FOUND) {
        tool_error("balance: %s", dls_partition_note(r));
        dls_partition_free(r);
        return EXIT_INFEASIBLE;
    }
    memcpy(s->opt_shares, dls_partition_elements(r), s->p * sizeof *s->opt_shares);
    s->opt = true_makespan(s->pl, s->opt_shares);
    dls_partition_free(r);
    return EXIT_DONE;
}

static void sim_free(balance_sim *s)
{
    dls_balance_free(s->b);
    free(s->opt_shares);
    free(s->ran);
    free(s->truth);
    free(s->measured);
    free(s->predicted);
    free(s->ratio);
    free(s->span);
    free(s->span_measured);
    free(s->history);
    json_decref(s->json_iterations);
}

/* The arrays of a simulation; EXIT_DONE or EXIT_FAILURE_RUN after the message. */
static int sim_alloc(balance_sim *s)
{
    size_t p = s->p, K = s->K;
    s->opt_shares = calloc(p, sizeof *s->opt_shares);
    s->ran = calloc(p, sizeof *s->ran);
    s->truth = calloc(p, sizeof *s->truth);
    s->measured = calloc(p, sizeof *s->measured);
    s->predicted = calloc(p, sizeof *s->predicted);
    s->ratio = calloc(K, sizeof *s->ratio);
    s->span = calloc(K, sizeof *s->span);
    s->span_measured = calloc(K, sizeof *s->span_measured);
    int ok = s->opt_shares && s->ran && s->truth && s->measured && s->predicted && s->ratio &&
             s->span && s->span_measured;
    if (ok && s->q->svg != NULL) {
        ok = p <= SIZE_MAX / sizeof *s->history / K;
        s->history = ok ? malloc(p * K * sizeof *s->history) : NULL;
        ok = s->history != NULL;
    }
    if (ok && s->q->json)
        ok = (s->json_iterations = json_array()) != NULL;
    if (!ok) {
        tool_oom("balance");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_DONE;
}

/* The balancer, seeing nothing of the models: the platform's limits and the options. */
static int sim_create(balance_sim *s, const uint64_t *start)
{
    double *limits = malloc(s->p * sizeof *limits);
    if (limits == NULL) {
        tool_oom("balance");
        return EXIT_FAILURE_RUN;
    }
    for (size_t i = 0; i < s->p; i++)
        limits[i] = dls_platform_limit(s->pl, i);
    dls_balance_params par = s->q->par;
    par.limits = limits;
    par.start = start;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_balance_create(s->p, s->q->n, &par, &s->b, &err);
    free(limits);
    return st == DLS_OK ? EXIT_DONE : tool_fail(st, &err);
}

/* The state column of the table: what the balancer decided after the iteration. */
static const char *state_text(const dls_balance_info *in, char *buf, size_t size)
{
    int n = snprintf(buf, size, "%s%s", in->changed ? "changed" : "kept",
                     in->converged ? " converged" : "");
    if (in->drifted > 0 && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " drift %zu", in->drifted);
    return buf;
}

/* The table's heading: the optimum, then the columns (with the shares when p is small). */
static void text_head(balance_sim *s)
{
    const balance_request *q = s->q;
    char n1[64], n2[64], cell[TOOL_CELL_BYTES];
    printf("%s: %s over %s, %zu %s, %s mode, noise %g (seed %llu)\n",
           tool_input_name(q->platform), tool_count(n1, sizeof n1, (double)q->n, "element",
                                                    "elements"),
           tool_count(n2, sizeof n2, (double)s->p, "processor", "processors"), s->K,
           tool_plural(s->K, "iteration", "iterations"), dls_balance_mode_name(q->par.mode),
           q->noise, (unsigned long long)q->seed);
    printf("optimum: makespan %.9g s (the partitioner on the true models, limits "
           "included)\n", s->opt);
    s->share_columns = s->p <= BALANCE_SHARE_COLUMNS;
    snprintf(n1, sizeof n1, "%llu", (unsigned long long)q->n);
    s->width = (int)strlen(n1) > 9 ? (int)strlen(n1) : 9;
    printf("each line: the distribution an iteration ran (shares in elements), its makespan\n"
           "measured and on the true models, over the optimum, its measured imbalance; then\n"
           "the elements moved for the next iteration and what the balancer decided\n%s",
           s->share_columns ? "" : "(the smallest and largest shares here; --json has every "
                                   "share)\n");
    printf("%5s %13s %13s %9s %14s %17s  %-22s", "ITER", "MAKESPAN (s)", "TRUE (s)",
           "/OPTIMUM", "IMBALANCE (%)", "MOVED (elements)", "STATE");
    if (!s->share_columns) {
        printf(" %*s %*s\n", s->width, "MIN SHARE", s->width, "MAX SHARE");
        return;
    }
    for (size_t i = 0; i < s->p; i++) {
        const char *name = dls_platform_name(s->pl, i);
        int w = s->width < BALANCE_NAME_COLUMNS ? BALANCE_NAME_COLUMNS : s->width;
        if ((int)strlen(name) <= s->width)
            printf(" %*s", s->width, name);
        else
            printf(" %s", tool_cell(cell, sizeof cell, name, w > s->width ? s->width : w));
    }
    putchar('\n');
}

/* One line of the table: iteration k (0-based) and what followed it. */
static void text_row(const balance_sim *s, size_t k, const dls_balance_info *in)
{
    char state[64];
    printf("%5zu %13.6g %13.6g %9.4f %14.6g %17llu  %-22s", k + 1, s->span_measured[k],
           s->span[k], s->ratio[k], 100 * in->measured_imbalance,
           (unsigned long long)in->moved, state_text(in, state, sizeof state));
    if (s->share_columns) {
        for (size_t i = 0; i < s->p; i++)
            printf(" %*llu", s->width, (unsigned long long)s->ran[i]);
    } else {
        uint64_t lo = UINT64_MAX, hi = 0;
        for (size_t i = 0; i < s->p; i++) {
            lo = s->ran[i] < lo ? s->ran[i] : lo;
            hi = s->ran[i] > hi ? s->ran[i] : hi;
        }
        printf(" %*llu %*llu", s->width, (unsigned long long)lo, s->width,
               (unsigned long long)hi);
    }
    putchar('\n');
}

/* The moves from the distribution run to the next one, as JSON (processors by name). */
static json_t *moves_json(const balance_sim *s)
{
    size_t n = 0;
    const dls_move *mv = dls_move_plan_moves(dls_balance_moves(s->b), &n);
    json_t *a = json_array();
    for (size_t j = 0; j < n && a != NULL; j++)
        json_array_append_new(a, json_pack("{s:o,s:o,s:I,s:I}", "from",
                                           tool_json_text(dls_platform_name(s->pl, mv[j].from)),
                                           "to", tool_json_text(dls_platform_name(s->pl, mv[j].to)),
                                           "first", (json_int_t)mv[j].first, "count",
                                           (json_int_t)mv[j].count));
    return a;
}

/* Iteration k (0-based) as JSON: its figures, every processor's share and times, the
 * moves that follow it. */
static json_t *iteration_json(const balance_sim *s, size_t k, const dls_balance_info *in)
{
    json_t *procs = json_array(), *drift = json_array();
    for (size_t i = 0; i < s->p && procs != NULL; i++)
        json_array_append_new(procs, json_pack("{s:o,s:I,s:o,s:o,s:o}", "name",
                                               tool_json_text(dls_platform_name(s->pl, i)),
                                               "elements", (json_int_t)s->ran[i], "time",
                                               tool_json_number(s->measured[i]), "true_time",
                                               tool_json_number(s->truth[i]), "predicted",
                                               tool_json_number(s->predicted[i])));
    size_t nd = 0;
    const size_t *d = dls_balance_drifted(s->b, &nd);
    for (size_t j = 0; j < nd && drift != NULL; j++)
        json_array_append_new(drift, tool_json_text(dls_platform_name(s->pl, d[j])));
    json_t *o = json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:I,s:b,s:b,s:o,s:o}", "iteration",
                          (json_int_t)(k + 1), "makespan",
                          tool_json_number(s->span_measured[k]), "true_makespan",
                          tool_json_number(s->span[k]), "ratio", tool_json_number(s->ratio[k]),
                          "imbalance", tool_json_number(in->measured_imbalance),
                          "predicted_makespan", tool_json_number(in->predicted_makespan),
                          "moved", (json_int_t)in->moved, "changed", in->changed, "converged",
                          in->converged, "drifted", drift, "moves", moves_json(s));
    if (o != NULL)
        json_object_set_new(o, "processors", procs);
    else
        json_decref(procs);
    return o;
}

/* Runs iteration k (0-based): the current distribution on the true models, its measured
 * times given to the balancer, and what it decided printed or recorded. */
static int sim_iteration(balance_sim *s, size_t k)
{
    size_t p = s->p;
    double F = s->q->noise, span = 0, measured = 0;
    memcpy(s->ran, dls_balance_shares(s->b), p * sizeof *s->ran);
    memcpy(s->predicted, dls_balance_predicted(s->b), p * sizeof *s->predicted);
    for (size_t i = 0; i < p; i++) {
        double u = 2 * sim_uniform(&s->rng) - 1; /* drawn for every processor: stable */
        s->truth[i] = s->ran[i] > 0 ? dls_model_time(dls_platform_model(s->pl, i),
                                                     (double)s->ran[i]) : 0;
        s->measured[i] = s->truth[i] * (1 + F * u);
        span = fmax(span, s->truth[i]);
        measured = fmax(measured, s->measured[i]);
    }
    s->span[k] = span;
    s->span_measured[k] = measured;
    s->ratio[k] = s->opt > 0 ? span / s->opt : 1;
    if (s->history != NULL)
        memcpy(s->history + k * p, s->ran, p * sizeof *s->ran);
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_balance_step(s->b, p, s->ran, s->measured, &err);
    dls_balance_info in;
    if (st == DLS_OK)
        st = dls_balance_get_info(s->b, &in, &err);
    if (st != DLS_OK)
        return tool_fail(st, &err);
    s->moved += in.moved;
    if (s->json_iterations == NULL) {
        text_row(s, k, &in);
        return EXIT_DONE;
    }
    json_t *o = iteration_json(s, k, &in);
    if (o == NULL || json_array_append_new(s->json_iterations, o) != 0) {
        tool_oom("balance");
        return EXIT_FAILURE_RUN;
    }
    return EXIT_DONE;
}

/* The first iteration (1-based) from which every makespan is within 5% of the optimum;
 * 0 when the last one is not. */
static size_t settled_from(const balance_sim *s)
{
    size_t k = s->K;
    while (k > 0 && s->ratio[k - 1] <= BALANCE_WITHIN)
        k--;
    return k == s->K ? 0 : k + 1;
}

static double sum_of(const double *v, size_t n)
{
    double t = 0;
    for (size_t k = 0; k < n; k++)
        t += v[k];
    return t;
}

/* Where the makespan settled, in words, in buf. */
static const char *settled_text(const balance_sim *s, char *buf, size_t size)
{
    size_t from = settled_from(s);
    if (from > 0 && from == s->K && s->K > 1)
        snprintf(buf, size, "within 5%% of the optimum at the last iteration only");
    else if (from > 0)
        snprintf(buf, size, "within 5%% of the optimum from iteration %zu on", from);
    else
        snprintf(buf, size, "not within 5%% of the optimum at the last iteration");
    return buf;
}

static void text_summary(const balance_sim *s)
{
    char settled[128];
    printf("%s\n", settled_text(s, settled, sizeof settled));
    double total = sum_of(s->span, s->K), opt_total = s->opt * (double)s->K;
    printf("total time of %zu %s: %.9g s on the true models (%.9g s measured), against "
           "%.9g s with the optimal distribution (%+.2f%%)\n", s->K,
           tool_plural(s->K, "iteration", "iterations"), total, sum_of(s->span_measured, s->K),
           opt_total, opt_total > 0 ? 100 * (total / opt_total - 1) : 0);
    printf("elements moved in all: %llu\n", (unsigned long long)s->moved);
}

/* The whole JSON document (dlsched-json(5), "balance"). */
static int json_report(balance_sim *s)
{
    const balance_request *q = s->q;
    json_t *opt = json_array();
    for (size_t i = 0; i < s->p && opt != NULL; i++)
        json_array_append_new(opt, json_pack("{s:o,s:I}", "name",
                                             tool_json_text(dls_platform_name(s->pl, i)),
                                             "elements", (json_int_t)s->opt_shares[i]));
    size_t from = settled_from(s);
    double total = sum_of(s->span, s->K);
    json_t *summary = json_pack(
        "{s:o,s:o,s:o,s:o,s:I}", "within_from",
        from > 0 ? json_integer((json_int_t)from) : json_null(), "total_time",
        tool_json_number(total), "total_measured", tool_json_number(sum_of(s->span_measured,
                                                                         s->K)),
        "optimal_total_time", tool_json_number(s->opt * (double)s->K), "moved",
        (json_int_t)s->moved);
    json_t *root = json_pack("{s:o,s:I,s:s,s:o,s:I,s:o,s:o,s:{s:o,s:o},s:o,s:o}",
                             "platform", tool_json_text(q->platform), "elements",
                             (json_int_t)q->n, "mode",
                             dls_balance_mode_name(q->par.mode), "noise",
                             tool_json_number(q->noise), "seed", (json_int_t)q->seed, "start",
                             q->start ? tool_json_text(q->start) : json_string("even"),
                             "within", tool_json_number(BALANCE_WITHIN), "optimum",
                             "makespan", tool_json_number(s->opt), "processors", opt,
                             "iterations", s->json_iterations, "summary", summary);
    s->json_iterations = NULL; /* the document holds it now, or json_pack released it */
    if (root == NULL) {
        tool_oom("balance");
        return EXIT_FAILURE_RUN;
    }
    return tool_print_json(root);
}

/* The SVG picture, built in memory and written at once (dls_write_output: atomically). */
typedef struct svg_buf {
    char *s;
    size_t len, cap;
    int oom;
} svg_buf;

static void svg_put(svg_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void svg_put(svg_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = b->oom ? -1 : vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *grown = tool_grow(b->s, &b->cap, b->len + (size_t)n + 1, 1);
    if (grown == NULL) {
        b->oom = 1;
        return;
    }
    b->s = grown;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Text of the user's (a name, a path) in an SVG text: markup escaped, control characters
 * (which XML cannot hold) written '?'. */
static void svg_text(svg_buf *b, const char *t)
{
    for (; *t; t++) {
        unsigned char c = (unsigned char)*t;
        if (c == '<' || c == '>' || c == '&' || c == '"')
            svg_put(b, "%s", c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;"
                                                                          : "&quot;");
        else
            svg_put(b, "%c", c < 0x20 || c == 0x7f ? '?' : (char)c);
    }
}

/* The drawing's frame: the plots' left and right edges, and a panel's top and height. */
#define SVG_LEFT 90.0
#define SVG_RIGHT 620.0
#define SVG_WIDTH 860
#define SVG_TICKS 5
/* The makespan's scale ends at this many times the optimum, at most. */
#define SVG_SCALE_OPTIMA 4

static const char *const svg_colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                         "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
                                         "#bcbd22", "#17becf"};
#define SVG_NCOLORS (sizeof svg_colors / sizeof svg_colors[0])

/* A round step (1, 2 or 5 times a power of 10) that cuts [0, v] in about SVG_TICKS. */
static double svg_step(double v)
{
    double raw = v / SVG_TICKS, p = pow(10, floor(log10(raw))), f = raw / p;
    return p * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

/* A panel's axes: y from 0 to ymax over [top, top + h] (ticks at round values),
 * iterations 1..K along x. */
static void svg_axes(svg_buf *b, size_t K, double top, double h, double ymax,
                     const char *ylabel)
{
    svg_put(b, "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"black\"/>\n", SVG_LEFT,
            top, top + h, SVG_RIGHT);
    double step = svg_step(ymax);
    for (int t = 0; t * step <= ymax * (1 + 1e-9); t++) {
        double y = top + h - h * t * step / ymax;
        svg_put(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.4g</text>\n",
                SVG_LEFT - 6, y + 4, t * step);
    }
    size_t every = K <= 10 ? 1 : (K + 9) / 10;
    double w = (SVG_RIGHT - SVG_LEFT) / (double)K;
    for (size_t k = 1; k <= K; k += every)
        svg_put(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%zu</text>\n",
                SVG_LEFT + w * ((double)k - 0.5), top + h + 16, k);
    svg_put(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">iteration</text>\n",
            (SVG_LEFT + SVG_RIGHT) / 2, top + h + 34);
    svg_put(b, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">"
            "%s</text>\n", SVG_LEFT - 62, top + h / 2, ylabel);
}

/* The top panel: each iteration's distribution as a stacked bar, and the legend. */
static void svg_shares(svg_buf *b, const balance_sim *s, double top, double h)
{
    double n = (double)s->q->n, w = (SVG_RIGHT - SVG_LEFT) / (double)s->K;
    svg_axes(b, s->K, top, h, n, "share (elements)");
    for (size_t k = 0; k < s->K; k++) {
        double below = 0;
        for (size_t i = 0; i < s->p; i++) {
            double d = (double)s->history[k * s->p + i];
            if (d > 0)
                svg_put(b, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                        "fill=\"%s\"/>\n", SVG_LEFT + w * (double)k + w * 0.1,
                        top + h - h * (below + d) / n, w * 0.8, h * d / n,
                        svg_colors[i % SVG_NCOLORS]);
            below += d;
        }
    }
    size_t shown = s->p <= SVG_NCOLORS ? s->p : SVG_NCOLORS;
    for (size_t i = 0; i < shown; i++) {
        double y = top + 14 + 18 * (double)(shown - 1 - i); /* top of the legend: last */
        svg_put(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n"
                "<text x=\"%.1f\" y=\"%.1f\">", SVG_RIGHT + 20, y - 10,
                svg_colors[i % SVG_NCOLORS], SVG_RIGHT + 38, y);
        svg_text(b, dls_platform_name(s->pl, i));
        svg_put(b, "</text>\n");
    }
    if (shown < s->p)
        svg_put(b, "<text x=\"%.1f\" y=\"%.1f\">(colours repeat: %zu processors)</text>\n",
                SVG_RIGHT + 20, top + 14 + 18 * (double)shown, s->p);
}

/* A polyline through one value per iteration. */
static void svg_line(svg_buf *b, const double *v, size_t K, double top, double h, double ymax,
                     const char *style)
{
    double w = (SVG_RIGHT - SVG_LEFT) / (double)K;
    svg_put(b, "<polyline fill=\"none\" %s points=\"", style);
    for (size_t k = 0; k < K; k++) /* above the scale: at its top */
        svg_put(b, "%s%.2f,%.2f", k ? " " : "", SVG_LEFT + w * ((double)k + 0.5),
                top + h - h * fmin(v[k], ymax) / ymax);
    svg_put(b, "\"/>\n");
}

/* The bottom panel: the makespan by iteration (true and measured), the optimum's line. */
static void svg_makespan(svg_buf *b, const balance_sim *s, double top, double h)
{
    double ymax = s->opt, largest = 0;
    for (size_t k = 0; k < s->K; k++)
        largest = fmax(largest, fmax(s->span[k], s->span_measured[k]));
    /* a start far from the optimum would flatten the rest: the scale stops at 4 optima */
    ymax = fmax(ymax, fmin(largest, SVG_SCALE_OPTIMA * s->opt));
    ymax = ymax > 0 ? ymax * 1.05 : 1;
    svg_axes(b, s->K, top, h, ymax, "makespan (s)");
    if (largest > ymax)
        svg_put(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">makespans above %.4g s "
                "drawn at the top (the largest: %.6g s)</text>\n", SVG_RIGHT, top - 6, ymax,
                largest);
    double y = top + h - h * s->opt / ymax;
    svg_put(b, "<path d=\"M%.1f %.2fH%.1f\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n"
            "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">optimum %.6g s</text>\n",
            SVG_LEFT, y, SVG_RIGHT, SVG_RIGHT - 4, y + 14, s->opt);
    svg_line(b, s->span_measured, s->K, top, h, ymax,
             "stroke=\"#7f7f7f\" stroke-dasharray=\"2 3\"");
    svg_line(b, s->span, s->K, top, h, ymax, "stroke=\"#1f77b4\" stroke-width=\"2\"");
    static const char *const key[3][2] = {
        {"stroke=\"#1f77b4\" stroke-width=\"2\"", "makespan (true models)"},
        {"stroke=\"#7f7f7f\" stroke-dasharray=\"2 3\"", "makespan measured"},
        {"stroke=\"#d62728\" stroke-dasharray=\"6 4\"", "optimum"}};
    for (int j = 0; j < 3; j++)
        svg_put(b, "<path d=\"M%.1f %.1fh18\" %s/>\n<text x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                SVG_RIGHT + 20, top + 10 + 18 * j, key[j][0], SVG_RIGHT + 44,
                top + 14 + 18 * j, key[j][1]);
}

/* --svg FILE: both panels, written atomically. */
static int svg_report(const balance_sim *s)
{
    svg_buf b = {NULL, 0, 0, 0};
    double h = 240;
    svg_put(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%.1f\" y=\"24\" font-size=\"14\">dlsched balance: ", SVG_WIDTH, 680,
            SVG_WIDTH, 680, SVG_LEFT);
    svg_text(&b, tool_input_name(s->q->platform));
    svg_put(&b, ", %llu elements, %s mode, noise %g</text>\n",
            (unsigned long long)s->q->n, dls_balance_mode_name(s->q->par.mode), s->q->noise);
    char settled[128];
    svg_put(&b, "<text x=\"%.1f\" y=\"%.1f\">%s; %llu elements moved in all</text>\n",
            SVG_LEFT, 50 + 2 * h + 60 + 56, settled_text(s, settled, sizeof settled),
            (unsigned long long)s->moved);
    svg_shares(&b, s, 50, h);
    svg_makespan(&b, s, 50 + h + 60, h);
    svg_put(&b, "</svg>\n");
    if (b.oom) {
        free(b.s);
        tool_oom("balance: --svg");
        return EXIT_FAILURE_RUN;
    }
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_write_output(s->q->svg, b.s, b.len, &err);
    free(b.s);
    return st == DLS_OK ? EXIT_DONE : tool_fail_output("--svg", s->q->svg, st, &err);
}

/* The simulation proper, on a platform read and checked. */
static int simulate(const balance_request *q, const dls_platform *pl)
{
    balance_sim s;
    memset(&s, 0, sizeof s);
    s.q = q;
    s.pl = pl;
    s.p = dls_platform_count(pl);
    s.K = (size_t)q->iterations;
    s.rng = q->seed;
    uint64_t *start = NULL;
    int rc = sim_alloc(&s);
    if (rc == EXIT_DONE)
        rc = sim_optimum(&s);
    if (rc == EXIT_DONE)
        rc = read_start(q, pl, &start);
    if (rc == EXIT_DONE)
        rc = sim_create(&s, start);
    free(start);
    if (rc == EXIT_DONE && !q->json)
        text_head(&s);
    for (size_t k = 0; k < s.K && rc == EXIT_DONE; k++)
        rc = sim_iteration(&s, k);
    /* the report first: an SVG that cannot be written does not hide it (dlsched(1)) */
    if (rc == EXIT_DONE) {
        if (q->json)
            rc = json_report(&s);
        else
            text_summary(&s);
    }
    if (rc == EXIT_DONE && q->svg != NULL)
        rc = svg_report(&s);
    sim_free(&s);
    return rc;
}

int cmd_balance(const tool_args *args)
{
    balance_request q;
    balance_request_read(args, &q);
    int rc = check_request(&q);
    if (rc != EXIT_DONE)
        return rc;
    dls_platform *pl = NULL;
    rc = tool_read_platform(q.platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    rc = check_platform(pl);
    if (rc == EXIT_DONE)
        rc = simulate(&q, pl);
    dls_platform_free(pl);
    return rc;
}
