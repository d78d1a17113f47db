/* dlsched installments: multi-installment processing of Drozdowski and Wolniewicz (2003) (the
 * chunk-size range and heuristic, the exact simulation, the sweep), compared with the
 * single-installment LP. */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"

static const tool_opt installments_opts[] = {
    TOOL_GROUP("Problem"),
    {"load", OPT_DOUBLE, "V", NULL, DLS_DOMAIN_MIN, DLS_DOMAIN_MAX, NULL, "the load to distribute (required)"},
    TOOL_FLAG("no-limits", "ignore the processors' limits"),
    TOOL_GROUP("Equal chunks (without --lp)"),
    {"chunk", OPT_STRING, "D|formula|sweep", "formula", 0, 0, NULL,
     "a chunk size D; formula: the published heuristic's size (a sweep when it is undefined "
     "or out of range); or sweep: the best of many sizes"},
    TOOL_FLAG("no-compare", "do not solve the single-installment schedule for comparison"),
    {"gantt-rounds", OPT_COUNT, "N", NULL, 1, 1000, NULL,
     "with --gantt: rounds drawn at each end of a long schedule"},
    TOOL_GROUP("Chunks sized by an LP (--lp)"),
    TOOL_FLAG("lp", "size every chunk by the LP over a searched sequence of installments"),
    {"rounds", OPT_COUNT, "K", NULL, 1, 1e6, NULL,
     "round-robin for exactly 1 to K rounds (default: while rounds help)"},
    {"time-limit", OPT_DOUBLE, "S", NULL, 1e-6, 1e9, NULL, "seconds for the whole search"},
    {"window", OPT_COUNT, "W", NULL, 1, DLS_INSTALLMENT_MAX_WINDOW, NULL,
     "chunks a processor with a limit holds at once"},
    TOOL_FLAG("no-moves", "the round-robin only, no local moves"),
    {"max-lps", OPT_COUNT, "N", NULL, 1, 4e9, NULL,
     "LPs the search solves at most (results independent of the machine's speed)"},
    {"order", OPT_CHOICE, NULL, NULL, 0, 0, "given|rate|best",
     "the single-installment order the round-robin follows"},
    TOOL_STRING("sequence", "NAME,...|FILE",
                "size this sequence of installments (names may repeat) instead of searching"),
    TOOL_STRING("release", "FILE", "release times, one line \"NAME SECONDS\" per processor"),
    TOOL_STRING("returns", "FILE",
                "results returned, one line \"NAME FRACTION STARTUP RATE\" per processor"),
    {"return-order", OPT_STRING, "fifo|lifo|NAME,...", NULL, 0, 0, NULL,
     "with --returns: the order results come back in"},
    TOOL_FLAG("two-port", "with --returns: results come back while the sends go on"),
    {"max-chunks", OPT_COUNT, "N", NULL, 1, DLS_INSTALLMENT_LP_MAX_CHUNKS, NULL,
     "the longest sequence tried"},
    {"exhaustive", OPT_COUNT, "N", NULL, 0, 1e7, NULL,
     "price every sequence of up to L chunks first, while they number at most N"},
    TOOL_FLAG("list", "print every chunk"),
    TOOL_GROUP("Output"),
    TOOL_STRING("gantt", "FILE", "draw the schedule as an SVG Gantt chart"),
    TOOL_FLAG("json", "write the result as JSON"),
    TOOL_DIGITS_OPT,
    TOOL_OPT_END,
};

static const tool_rule installments_rules[] = {
    TOOL_EXCLUDES_WHY("chunk", "lp", "the LP sizes every chunk"),
    TOOL_EXCLUDES_WHY("no-compare", "lp", "--lp compares with the single-installment schedule "
                      "it starts from"),
    TOOL_EXCLUDES_WHY("gantt-rounds", "lp", "the chart of --lp draws every chunk"),
    TOOL_NEEDS("gantt-rounds", "gantt"),
    TOOL_NEEDS("rounds", "lp"),
    TOOL_NEEDS("time-limit", "lp"),
    TOOL_NEEDS("window", "lp"),
    TOOL_NEEDS("no-moves", "lp"),
    TOOL_NEEDS("max-lps", "lp"),
    TOOL_NEEDS("order", "lp"),
    TOOL_NEEDS("sequence", "lp"),
    TOOL_NEEDS("release", "lp"),
    TOOL_NEEDS("returns", "lp"),
    TOOL_NEEDS("return-order", "returns"),
    TOOL_NEEDS("two-port", "returns"),
    TOOL_NEEDS("max-chunks", "lp"),
    TOOL_NEEDS("exhaustive", "lp"),
    TOOL_NEEDS("list", "lp"),
    TOOL_EXCLUDES_WHY("rounds", "sequence", "the sequence given is sized, not searched"),
    TOOL_EXCLUDES_WHY("no-moves", "sequence", "the sequence given is sized, not searched"),
    TOOL_EXCLUDES_WHY("order", "sequence", "the sequence given is sized, not searched"),
    TOOL_EXCLUDES_WHY("exhaustive", "sequence", "the sequence given is sized, not searched"),
    TOOL_RULE_END,
};

/* Defaults the help shows: the library's, read from its parameters. */
static int installments_default(const char *opt, char *buf, size_t size)
{
    dls_installment_gantt_params gp;
    dls_installment_gantt_params_init(&gp);
    dls_installment_lp_params lp;
    dls_installment_lp_params_init(&lp);
    if (strcmp(opt, "gantt-rounds") == 0)
        return tool_show_number(gp.rounds, buf, size);
    if (strcmp(opt, "time-limit") == 0)
        return tool_show_number(lp.time_limit, buf, size);
    if (strcmp(opt, "window") == 0)
        return tool_show_number(lp.window, buf, size);
    if (strcmp(opt, "order") == 0)
        return snprintf(buf, size, "%s", dls_send_order_name(lp.order)) > 0;
    if (strcmp(opt, "return-order") == 0) /* the library's, and what a list needs */
        return snprintf(buf, size, "%s; a list needs --sequence",
                        dls_return_order_name(lp.return_order)) > 0;
    return 0;
}

const tool_cmd tool_cmd_installments = {
    "installments",
    "send the load in rounds of chunks, compared with one round",
    "PLATFORM --load V [OPTIONS]\n"
    "       dlsched installments PLATFORM --load V --lp [OPTIONS]",
    "Sends the load in equal chunks, round after round over the processors in platform\n"
    "order; each processor computes its chunks in arrival order. Prints the range of\n"
    "reasonable chunk sizes and the size the published heuristic gives (Drozdowski and\n"
    "Wolniewicz, 2003), simulates the chunk size chosen exactly, and compares the\n"
    "makespan with the single-installment schedule of `dlsched schedule`.\n"
    "\n"
    "With --lp, every chunk is sized by an LP (GLPK) over a sequence of installments in\n"
    "which a processor may appear several times, searched by round-robin and local moves\n"
    "within --time-limit; it prints the makespan, a lower bound and the gap. --returns\n"
    "brings each chunk's results back to the originator.",
    installments_opts,
    1,
    1,
    cmd_installments,
    installments_default,
    "dlsched installments examples/star_ten.json --load 1e10\n"
    "dlsched installments examples/star_ten.json --load 1e10 --chunk 2e7\n"
    "dlsched installments examples/star_two.json --load 2 --lp --list",
    installments_rules,
};

/* How the chunk size was chosen. */
typedef enum chunk_source { FROM_NUMBER, FROM_FORMULA, FROM_SWEEP } chunk_source;

static const char *const source_name[] = {"given", "formula", "sweep"};

/* The single-installment LP: its makespan, or NaN with the reason in `status`. */
typedef struct lp_result {
    double makespan;
    const char *status;   /* "optimal", "infeasible", "skipped", "failed" */
} lp_result;

/* What the command line asks, read once (installments_request_read); the phases below take
 * it, never the option table (but for the LP's options, mapped by tool_installment_lp_read).
 * The combinations the table's rules refuse (installments_rules) are refused by the parser
 * already. */
typedef struct installments_request {
    const char *platform;  /* the PLATFORM argument */
    double load;           /* --load */
    int lp;                /* --lp */
    const char *chunk;     /* --chunk, or NULL */
    const char *gantt;     /* --gantt FILE, or NULL */
    dls_installment_gantt_params gantt_params; /* --gantt-rounds */
    int no_compare, json, list, digits;
    dls_installment_params par; /* without --lp: the defaults, then --no-limits */
} installments_request;

/* Reads the options into *q; 0 after a message when --load is missing. */
static int installments_request_read(const tool_args *args, installments_request *q)
{
    memset(q, 0, sizeof *q);
    q->platform = args->pos[0];
    if (!tool_require_load(args, &q->load))
        return 0;
    q->lp = arg_flag(args, "lp");
    q->chunk = arg_string(args, "chunk");
    q->gantt = arg_string(args, "gantt");
    dls_installment_gantt_params_init(&q->gantt_params);
    arg_unsigned(args, "gantt-rounds", &q->gantt_params.rounds);
    q->no_compare = arg_flag(args, "no-compare");
    q->json = arg_flag(args, "json");
    q->list = arg_flag(args, "list");
    q->digits = q->digits;
    dls_installment_params_init(&q->par);
    arg_set_flag(args, "no-limits", &q->par.use_limits, 0);
    return 1;
}

static lp_result compare_lp(const dls_platform *pl, double V, int use_limits, int skip)
{
    lp_result r = {NAN, "skipped"};
    if (skip)
        return r;
    dls_schedule_params par;
    dls_schedule_params_init(&par);
    par.use_limits = use_limits;
    dls_schedule *s;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_schedule_solve(pl, V, &par, &s, &err);
    if (st != DLS_OK) {
        tool_warning("single-installment LP: %s", err.message[0] ? err.message : dls_strerror(st));
        r.status = "failed";
        return r;
    }
    if (dls_schedule_status(s) == DLS_SOLUTION_INFEASIBLE) {
        r.status = "infeasible";
    } else {
        r.status = dls_solution_status_name(dls_schedule_status(s));
        r.makespan = dls_schedule_makespan(s);
    }
    dls_schedule_free(s);
    return r;
}

static const char *name_or_null(const dls_platform *pl, long i)
{
    return i >= 0 ? dls_platform_name(pl, (size_t)i) : NULL;
}

static json_t *json_name(const dls_platform *pl, long i)
{
    return i >= 0 ? tool_json_text(dls_platform_name(pl, (size_t)i)) : json_null();
}

static json_t *result_json(const dls_platform *pl, const dls_installment_analysis *an,
                           const dls_installment *s, chunk_source src, const lp_result *lp)
{
    size_t n = dls_installment_count(s);
    const dls_installment_role *role = dls_installment_roles(s);
    const uint64_t *ch = dls_installment_chunk_counts(s);
    const double *ld = dls_installment_loads(s), *fa = dls_installment_first_arrival(s),
                 *fin = dls_installment_finish(s), *busy = dls_installment_busy(s),
                 *wait = dls_installment_wait(s);
    dls_installment_rounds_info eq; /* equal chunks: simulate or sweep */
    if (dls_installment_get_rounds_info(s, &eq, NULL) != DLS_OK)
        return NULL;
    const double *ct = eq.chunk_time;
    const int *lvl = eq.levels;
    json_t *procs = json_array();
    for (size_t i = 0; i < n; i++) {
        dls_installment_levels lv;
        json_t *p = json_pack("{s:s,s:s,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:i}", "name",
                              dls_platform_name(pl, i), "role", dls_installment_role_name(role[i]), "chunks",
                              (json_int_t)ch[i], "load", tool_json_number(ld[i]), "first_arrival",
                              tool_json_number(fa[i]), "finish", tool_json_number(fin[i]), "busy",
                              tool_json_number(busy[i]), "wait", tool_json_number(wait[i]), "chunk_time",
                              tool_json_number(ct[i]), "level", lvl[i]);
        if (p != NULL && dls_installment_memory_levels(pl, i, &lv, NULL) == DLS_OK &&
            lv.supported) {
            json_object_set_new(p, "in_core", json_pack("[o,o]", tool_json_number(lv.in_core_a),
                                                        tool_json_number(lv.in_core_b)));
            json_object_set_new(p, "out_of_core_rate", tool_json_number(lv.out_of_core_b));
            json_object_set_new(p, "swap_point", tool_json_number(lv.swap_point));
        }
        json_array_append_new(procs, p);
    }
    json_t *range = json_pack(
        "{s:o,s:s,s:o,s:o,s:o,s:b}", "lower", tool_json_number(an->lower), "lower_status",
        dls_installment_reason_name(an->lower_reason), "upper", tool_json_number(an->upper),
        "upper_processor", json_name(pl, an->upper_processor), "upper_kind",
        an->upper_processor < 0 ? json_null()
                                : tool_json_text(an->upper_is_limit ? "limit" : "swap point"),
        "empty", an->range_empty);
    if (range != NULL && an->lower_note[0])
        json_object_set_new(range, "note", tool_json_text(an->lower_note));
    json_t *formula = json_pack(
        "{s:o,s:s,s:o,s:o,s:b}", "value", tool_json_number(an->formula), "status",
        dls_installment_reason_name(an->formula_reason), "processor",
        json_name(pl, an->formula_processor), "bad_value", tool_json_number(an->formula_bad_value),
        "in_range", an->formula_in_range);
    if (formula != NULL && an->formula_note[0])
        json_object_set_new(formula, "note", tool_json_text(an->formula_note));
    double T = dls_installment_makespan(s);
    json_t *root = json_pack(
        "{s:o,s:o,s:s,s:o,s:o,s:s,s:o,s:I,s:I,s:o,s:o,s:I,s:o,s:o,s:o}", "load",
        tool_json_number(dls_installment_load(s)), "chunk", tool_json_number(eq.chunk),
        "chunk_source", source_name[src], "makespan", tool_json_number(T),
        "single_installment_makespan", tool_json_number(lp->makespan),
        "single_installment_status", lp->status, "ratio", tool_json_number(T / lp->makespan),
        "rounds", (json_int_t)dls_installment_rounds(s), "chunks",
        (json_int_t)dls_installment_chunks(s), "last_chunk",
        tool_json_number(dls_installment_last_chunk(s)), "round_time",
        tool_json_number(eq.round_time), "rotation",
        (json_int_t)eq.rotation, "range", range, "formula", formula,
        "processors", procs);
    dls_installment_sweep_info sw;
    if (root != NULL && src == FROM_SWEEP &&
        dls_installment_get_sweep_info(s, &sw, NULL) == DLS_OK)
        json_object_set_new(root, "sweep", json_pack("{s:I}", "evaluated",
                                                     (json_int_t)sw.samples));
    if (root != NULL && dls_installment_note(s)[0])
        json_object_set_new(root, "note", tool_json_text(dls_installment_note(s)));
    return root;
}

static void print_analysis(const dls_platform *pl, const dls_installment_analysis *an)
{
    char lo[48], up[48];
    const char *upper_name = name_or_null(pl, an->upper_processor);
    tool_amount(an->upper, up, sizeof up);
    if (an->lower_reason == DLS_INSTALLMENT_DEFINED) {
        tool_num(an->lower, lo, sizeof lo);
        printf("chunk sizes worth trying: above %s and up to %s units", lo, up);
    } else if (an->lower_reason == DLS_INSTALLMENT_NO_LINES) {
        printf("chunk sizes worth trying: not known: %s\n", an->lower_note);
        upper_name = NULL;
    } else {
        printf("chunk sizes worth trying: up to %s units; %s", up, an->lower_note);
    }
    if (upper_name != NULL)
        printf(" (above it, \"%s\" %s)", upper_name,
               an->upper_is_limit ? "cannot hold a chunk: its limit"
                                  : "runs out of memory and slows down");
    if (an->lower_reason != DLS_INSTALLMENT_NO_LINES)
        printf("%s\n", an->range_empty ? "; none is" : "");
    if (an->formula_reason == DLS_INSTALLMENT_DEFINED)
        printf("suggested chunk size: %.9g units, the smallest with which no processor waits "
               "for its next chunk (set by \"%s\")%s%s\n", an->formula,
               dls_platform_name(pl, (size_t)an->formula_processor),
               an->formula_in_range ? "" : "; ",
               an->formula_in_range ? "" : an->formula_note);
    else
        printf("suggested chunk size: none: %s\n", an->formula_note);
}

/* The numeric columns of the installments' table, in their order. */
enum { ICOL_CHUNKS, ICOL_LOAD, ICOL_SHARE, ICOL_FIRST, ICOL_FINISH, ICOL_BUSY, ICOL_WAIT,
       ICOL_CHUNK_TIME, ICOL_SWAP, INSTALLMENT_COLS };

/* Row i of the installments' table: its numbers (NaN for none). */
static void installment_values(const dls_platform *pl, const dls_installment *s, size_t i,
                               double *v)
{
    double V = dls_installment_load(s);
    dls_installment_levels levels;
    int swap = dls_installment_memory_levels(pl, i, &levels, NULL) == DLS_OK && levels.supported;
    v[ICOL_CHUNKS] = (double)dls_installment_chunk_counts(s)[i];
    v[ICOL_LOAD] = dls_installment_loads(s)[i];
    v[ICOL_SHARE] = 100 * dls_installment_loads(s)[i] / V;
    v[ICOL_FIRST] = dls_installment_first_arrival(s)[i];
    v[ICOL_FINISH] = dls_installment_finish(s)[i];
    v[ICOL_BUSY] = dls_installment_busy(s)[i];
    v[ICOL_WAIT] = dls_installment_wait(s)[i];
    dls_installment_rounds_info eq; /* none for the LP's chunks */
    v[ICOL_CHUNK_TIME] =
        dls_installment_get_rounds_info(s, &eq, NULL) == DLS_OK ? eq.chunk_time[i] : NAN;
    v[ICOL_SWAP] = swap ? levels.swap_point : NAN;
}

/* The processors' table of an installment schedule; `lp`: the LP's (no role, chunk time,
 * level or swap point). */
static void print_installment_table(const installments_request *q, const dls_platform *pl,
                                    const dls_installment *s, int lp)
{
    size_t n = dls_installment_count(s);
    double V = dls_installment_load(s), T = dls_installment_makespan(s);
    int width = tool_name_width(pl, n), digits = q->digits, role_width = 8;
    static const char *const head[INSTALLMENT_COLS] = {
        "CHUNKS", "LOAD (units)", "SHARE (%)", "FIRST ARRIVAL (s)", "FINISH (s)",
        "BUSY TIME (s)", "WAIT TIME (s)", "CHUNK TIME (s)", "SWAP POINT (units)"};
    int shown[INSTALLMENT_COLS] = {1, 1, 1, 1, 1, 1, 1, !lp, !lp};
    tool_column col[INSTALLMENT_COLS];
    for (int c = 0; c < INSTALLMENT_COLS; c++)
        tool_column_init(&col[c], head[c], digits,
                         TOOL_ZERO_REL * (c == ICOL_LOAD || c == ICOL_SWAP ? V
                                          : c == ICOL_SHARE ? 100 : c == ICOL_CHUNKS ? 0 : T));
    col[ICOL_CHUNKS].whole = 1;
    double v[INSTALLMENT_COLS];
    for (size_t i = 0; i < n; i++) {
        installment_values(pl, s, i, v);
        for (int c = 0; c < INSTALLMENT_COLS; c++)
            tool_column_see(&col[c], v[c]);
    }
    for (int c = 0; c < INSTALLMENT_COLS; c++)
        tool_column_fix(&col[c]);
    const dls_installment_role *role = dls_installment_roles(s);
    dls_installment_rounds_info eq; /* the levels at delta; not shown for the LP's chunks */
    const int *lvl = dls_installment_get_rounds_info(s, &eq, NULL) == DLS_OK ? eq.levels : NULL;
    char cell[TOOL_CELL_BYTES], line[TOOL_CELL_BYTES + INSTALLMENT_COLS * (TOOL_COLUMN_BYTES + 2) + 64];
    char *o = tool_put(line, "  ", 0);
    o = tool_put(o, tool_cell(cell, sizeof cell, "NAME", width), 0);
    if (!lp)
        o = tool_put(tool_put(o, "  ", 0), "ROLE", (size_t)role_width);
    for (int c = 0; c < INSTALLMENT_COLS; c++) {
        if (c == ICOL_SWAP && !lp)
            o = tool_put(o, "  LEVEL", 0);
        if (shown[c])
            o = tool_put_heading(tool_put(o, "  ", 0), &col[c]);
    }
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
    int lines = 0;
    for (size_t i = 0; i < n; i++) {
        installment_values(pl, s, i, v);
        o = tool_put(line, "  ", 0);
        o = tool_put(o, tool_cell(cell, sizeof cell, dls_platform_name(pl, i), width), 0);
        if (!lp)
            o = tool_put(tool_put(o, "  ", 0), dls_installment_role_name(role[i]),
                         (size_t)role_width);
        for (int c = 0; c < INSTALLMENT_COLS; c++) {
            if (c == ICOL_SWAP && !lp) {
                char lv[24] = "-";
                if (lvl[i] > 0)
                    *tool_put_size(lv, (size_t)lvl[i]) = '\0';
                o = tool_put_right(tool_put(o, "  ", 0), lv, 5);
                lines += lvl[i] > 0;
            }
            if (shown[c])
                o = tool_put_column(tool_put(o, "  ", 0), &col[c], v[c]);
        }
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
    if (lines > 0)
        printf("LEVEL: the time line of the processor's model its chunks use (1 the first, a "
               "higher one\nonce its memory is full); - for a speed model or no chunk\n");
}

static void print_result(const installments_request *q, const dls_platform *pl,
                         const dls_installment_analysis *an, const dls_installment *s,
                         chunk_source src, const lp_result *lp)
{
    size_t n = dls_installment_count(s);
    char a[48], b[64], c[64], d[64];
    printf("%s: load %s units over %s, sent in equal chunks round after round\n", tool_input_name(q->platform),
           tool_amount(dls_installment_load(s), a, sizeof a),
           tool_count(b, sizeof b, (double)n, "processor", "processors"));
    print_analysis(pl, an);
    dls_installment_rounds_info eq; /* equal chunks: simulate or sweep */
    dls_installment_sweep_info sw;
    if (dls_installment_get_rounds_info(s, &eq, NULL) != DLS_OK)
        return;
    printf("chunk size: %.9g units (%s", eq.chunk,
           src == FROM_NUMBER ? "given" : src == FROM_FORMULA ? "the suggested one" : "swept");
    if (src == FROM_SWEEP && dls_installment_get_sweep_info(s, &sw, NULL) == DLS_OK)
        printf(": the best of %s simulated",
               tool_count(d, sizeof d, (double)sw.samples, "size", "sizes"));
    printf(")\n");
    uint64_t N = dls_installment_chunks(s), rounds = dls_installment_rounds(s);
    size_t p = eq.rotation;
    /* what a round and a chunk are, in words; a round's time is that of its sends, not of
     * the schedule, which ends with the computing of the last chunks */
    printf("the load is sent as %s in %s over %s: in each round every processor\n"
           "receives one chunk in turn (the last round may be partial; the last chunk holds "
           "%.9g units)\n",
           tool_count(b, sizeof b, (double)N, "chunk", "chunks"),
           tool_count(c, sizeof c, (double)rounds, "round", "rounds"),
           tool_count(d, sizeof d, (double)p, "processor", "processors"),
           dls_installment_last_chunk(s));
    double T = dls_installment_makespan(s);
    if (N < p)
        printf("a full round of sends, a chunk to each of the %zu, would take %.9g s; this load "
               "fills\nonly part of one\n", p, eq.round_time);
    else
        printf("a full round of sends takes %.9g s (the link's time; each processor computes "
               "its chunk\nwhile the next ones are sent)\n", eq.round_time);
    printf("makespan %.9g s: when the last processor finishes its last chunk\n", T);
    if (isfinite(lp->makespan))
        printf("the whole load in a single installment (one chunk a processor, sized by the "
               "LP):\nmakespan %.9g s (%s); this schedule takes %.6g times that\n",
               lp->makespan, lp->status, T / lp->makespan);
    else
        printf("the whole load in a single installment (sized by the LP): %s\n", lp->status);
    print_installment_table(q, pl, s, 0);
}

/* Parses --chunk: a number > 0, "formula" or "sweep". Returns -1 on bad text. */
static int parse_chunk(const char *text, chunk_source *src, double *chunk)
{
    if (strcmp(text, "formula") == 0) {
        *src = FROM_FORMULA;
        return 0;
    }
    if (strcmp(text, "sweep") == 0) {
        *src = FROM_SWEEP;
        return 0;
    }
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || !isfinite(v) || v <= 0)
        return -1;
    *src = FROM_NUMBER;
    *chunk = v;
    return 0;
}

/* The chunk size of --chunk formula: formula (5) when it is defined and in the range, else
 * a sweep (*src says which). */
static void formula_or_sweep(const dls_installment_analysis *an, chunk_source *src,
                             double *chunk)
{
    if (an->formula_reason == DLS_INSTALLMENT_DEFINED && an->formula_in_range) {
        *chunk = an->formula;
        return;
    }
    tool_warning("%s: %s; sweeping the chunk size instead",
                 an->formula_reason == DLS_INSTALLMENT_DEFINED
                     ? "the suggested chunk size is not among those worth trying"
                     : "no chunk size can be suggested",
                 an->formula_note);
    *src = FROM_SWEEP;
}

/* The Gantt chart of --gantt, the comparison with the LP, and the report. */
static int report(const installments_request *q, const dls_platform *pl,
                  const dls_installment_analysis *an, const dls_installment *s,
                  chunk_source src)
{
    const char *gantt = q->gantt;
    if (gantt != NULL && tool_is_stdout(gantt)) {
        dls_error err;
        dls_error_clear(&err);
        char *doc = NULL;
        dls_status st = dls_installment_gantt_to_string(s, pl, &q->gantt_params, &doc, &err);
        /* the chart is the output: no report after it */
        return st == DLS_OK ? tool_write_stdout(doc, "Gantt chart") : tool_fail(st, &err);
    }
    lp_result lp = compare_lp(pl, q->load, q->par.use_limits, q->no_compare);
    int rc = EXIT_DONE;
    if (q->json)
        rc = tool_print_json(result_json(pl, an, s, src, &lp));
    else
        print_result(q, pl, an, s, src, &lp);
    if (gantt != NULL) {
        /* after the answer, which a chart that cannot be written does not hide */
        dls_error err;
        dls_error_clear(&err);
        fflush(stdout);
        dls_status st = dls_installment_gantt_write_file(s, pl, &q->gantt_params, gantt, &err);
        if (st != DLS_OK) {
            int g = tool_fail_output("--gantt", gantt, st, &err);
            rc = rc != EXIT_DONE ? rc : g;
        }
    }
    return rc;
}

static json_t *lp_json(const dls_platform *pl, const dls_installment *s,
                       const dls_installment_lp_info *in)
{
    size_t n = dls_installment_count(s);
    const uint64_t *ch = dls_installment_chunk_counts(s);
    const double *ld = dls_installment_loads(s), *fa = dls_installment_first_arrival(s),
                 *fin = dls_installment_finish(s), *busy = dls_installment_busy(s),
                 *wait = dls_installment_wait(s);
    const int *lvl = in->deepest_levels;
    json_t *procs = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(
            procs, json_pack("{s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:i}", "name",
                             tool_json_text(dls_platform_name(pl, i)), "chunks",
                             (json_int_t)ch[i], "load", tool_json_number(ld[i]), "first_arrival",
                             tool_json_number(fa[i]), "finish", tool_json_number(fin[i]),
                             "busy", tool_json_number(busy[i]), "wait", tool_json_number(wait[i]),
                             "deepest_level", lvl[i]));
    json_t *chunks = json_array();
    uint64_t N = dls_installment_chunks(s);
    for (uint64_t k = 0; k < N; k++) {
        dls_installment_event ev;
        if (dls_installment_event_at(s, k, &ev, NULL) != DLS_OK)
            break;
        double rs, re;
        dls_installment_return_at(s, k, &rs, &re, NULL);
        json_array_append_new(
            chunks, json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "processor",
                              tool_json_text(dls_platform_name(pl, ev.processor)), "size",
                              tool_json_number(ev.size), "send_start", tool_json_number(ev.send_start),
                              "send_end", tool_json_number(ev.send_end), "compute_start",
                              tool_json_number(ev.compute_start), "compute_end",
                              tool_json_number(ev.compute_end), "return_start", tool_json_number(rs),
                              "return_end", tool_json_number(re)));
    }
    json_t *root = json_pack(
        "{s:o,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:I,s:I,s:I,s:I,s:b,s:I,s:I,s:o,s:I,s:b,s:o,s:o,s:o}",
        "load",
        tool_json_number(dls_installment_load(s)), "method", "lp", "makespan",
        tool_json_number(dls_installment_makespan(s)), "lp_makespan", tool_json_number(in->lp_makespan),
        "replay_residual", tool_json_number(in->replay_residual), "single_installment_makespan",
        tool_json_number(in->single_makespan), "lower_bound", tool_json_number(in->lower_bound),
        "gap", tool_json_number(in->gap), "chunks", (json_int_t)N, "lps", (json_int_t)in->lps,
        "warm_starts", (json_int_t)in->warm_starts, "exhaustive_length",
        (json_int_t)in->exhaustive_length, "exact", in->exact,
        "rounds_tried", (json_int_t)in->rounds_tried, "best_rounds",
        (json_int_t)in->best_rounds, "moves_gain", tool_json_number(in->moves_gain), "iterations",
        (json_int_t)in->iterations, "limited", in->limited, "seconds", tool_json_number(in->seconds),
        "processors", procs, "installments", chunks);
    if (root != NULL && dls_installment_note(s)[0])
        json_object_set_new(root, "note", tool_json_text(dls_installment_note(s)));
    return root;
}

/* --lp --list: every chunk, in the order it is sent. */
static void print_chunk_list(const installments_request *q, const dls_platform *pl,
                             const dls_installment *s)
{
    uint64_t N = dls_installment_chunks(s);
    size_t n = dls_installment_count(s);
    double V = dls_installment_load(s), T = dls_installment_makespan(s);
    int width = tool_name_width(pl, n), digits = q->digits;
    static const char *const head[7] = {"SIZE (units)", "SEND START (s)", "ARRIVAL (s)",
                                        "COMPUTE START (s)", "FINISH (s)", "RESULTS BACK (s)",
                                        "CHUNK"};
    tool_column col[7];
    for (int c = 0; c < 7; c++)
        tool_column_init(&col[c], head[c], digits, TOOL_ZERO_REL * (c == 0 ? V : T));
    col[6].whole = 1;
    tool_column_see(&col[6], (double)N);
    for (uint64_t k = 0; k < N; k++) {
        dls_installment_event ev;
        if (dls_installment_event_at(s, k, &ev, NULL) != DLS_OK)
            break;
        double re = NAN;
        dls_installment_return_at(s, k, NULL, &re, NULL);
        double v[6] = {ev.size, ev.send_start, ev.send_end, ev.compute_start, ev.compute_end, re};
        for (int c = 0; c < 6; c++)
            tool_column_see(&col[c], v[c]);
    }
    for (int c = 0; c < 7; c++)
        tool_column_fix(&col[c]);
    char cell[TOOL_CELL_BYTES], line[TOOL_CELL_BYTES + 7 * (TOOL_COLUMN_BYTES + 2) + 8];
    char *o = tool_put_heading(tool_put(line, "  ", 0), &col[6]);
    o = tool_put(tool_put(o, "  ", 0), tool_cell(cell, sizeof cell, "TO", width), 0);
    for (int c = 0; c < 6; c++)
        o = tool_put_heading(tool_put(o, "  ", 0), &col[c]);
    *o++ = '\n';
    fwrite(line, 1, (size_t)(o - line), stdout);
    for (uint64_t k = 0; k < N; k++) {
        dls_installment_event ev;
        if (dls_installment_event_at(s, k, &ev, NULL) != DLS_OK)
            break;
        double re = NAN;
        dls_installment_return_at(s, k, NULL, &re, NULL);
        double v[6] = {ev.size, ev.send_start, ev.send_end, ev.compute_start, ev.compute_end, re};
        o = tool_put_column(tool_put(line, "  ", 0), &col[6], (double)(k + 1));
        o = tool_put(tool_put(o, "  ", 0),
                     tool_cell(cell, sizeof cell, dls_platform_name(pl, ev.processor), width), 0);
        for (int c = 0; c < 6; c++)
            o = tool_put_column(tool_put(o, "  ", 0), &col[c], v[c]);
        *o++ = '\n';
        fwrite(line, 1, (size_t)(o - line), stdout);
    }
}

static void print_lp(const installments_request *q, const dls_platform *pl, const dls_installment *s,
                     const dls_installment_lp_info *in, int list)
{
    size_t n = dls_installment_count(s);
    uint64_t N = dls_installment_chunks(s);
    char a[48], b[64], c[64];
    printf("%s: load %s units over %s, sent as %s (installments), each sized by the LP\n",
           tool_input_name(q->platform), tool_amount(dls_installment_load(s), a, sizeof a),
           tool_count(b, sizeof b, (double)n, "processor", "processors"),
           tool_count(c, sizeof c, (double)N, "chunk", "chunks"));
    printf("makespan %.9g s (replayed; the LP's %.9g s, relative residual %.3g)\n",
           dls_installment_makespan(s), in->lp_makespan, in->replay_residual);
    if (isfinite(in->single_makespan))
        printf("single-installment start %.9g s; multi / single = %.6g\n", in->single_makespan,
               dls_installment_makespan(s) / in->single_makespan);
    else if (!isnan(in->single_makespan))
        printf("single-installment start: the limits cannot hold the load in one installment\n");
    if (isfinite(in->lower_bound))
        printf("lower bound %.9g s, gap %.3g%%\n", in->lower_bound, 100 * in->gap);
    if (in->exact)
        printf("search: every sequence of up to %s priced (%u %s in %.3g s): the best "
               "of them\n", tool_count(b, sizeof b, (double)in->exhaustive_length, "chunk",
                                       "chunks"),
               in->lps, tool_plural(in->lps, "LP", "LPs"), in->seconds);
    else if (!isnan(in->single_makespan))
    {
        printf("search: %u %s (%u warm-started) in %.3g s, %lu simplex %s; ", in->lps,
               tool_plural(in->lps, "LP", "LPs"), in->warm_starts, in->seconds, in->iterations,
               tool_plural(in->iterations, "iteration", "iterations"));
        if (in->exhaustive_length > 0)
            printf("every sequence of up to %s; ",
                   tool_count(b, sizeof b, (double)in->exhaustive_length, "chunk", "chunks"));
        printf("round-robin best at %u of %s, moves gained %.3g%%%s\n", in->best_rounds,
               tool_count(c, sizeof c, (double)in->rounds_tried, "round", "rounds"),
               100 * in->moves_gain, in->limited ? "; stopped at a limit" : "");
    }
    print_installment_table(q, pl, s, 1);
    if (list)
        print_chunk_list(q, pl, s);
}

/* The answer of --lp: the chart of --gantt -, else the report (JSON or text), then the
 * chart of --gantt FILE, which cannot hide the answer when it fails. */
static int report_lp(const installments_request *q, const dls_platform *pl,
                     const dls_installment *s)
{
    tool_warn_lines(dls_installment_note(s));
    dls_installment_lp_info info;
    dls_installment_get_lp_info(s, &info, NULL);
    const char *gantt = q->gantt;
    dls_installment_gantt_params gp;
    dls_installment_gantt_params_init(&gp);
    dls_error err;
    dls_error_clear(&err);
    dls_status st;
    if (gantt != NULL && tool_is_stdout(gantt)) {
        char *doc = NULL;
        st = dls_installment_gantt_to_string(s, pl, &gp, &doc, &err);
        return st == DLS_OK ? tool_write_stdout(doc, "Gantt chart") : tool_fail(st, &err);
    }
    int rc = EXIT_DONE;
    if (q->json)
        rc = tool_print_json(lp_json(pl, s, &info));
    else
        print_lp(q, pl, s, &info, q->list);
    if (gantt != NULL) {
        fflush(stdout);
        st = dls_installment_gantt_write_file(s, pl, &gp, gantt, &err);
        if (st != DLS_OK) {
            int g = tool_fail_output("--gantt", gantt, st, &err);
            rc = rc != EXIT_DONE ? rc : g;
        }
    }
    return rc;
}

static int cmd_installments_lp(const tool_args *args, const installments_request *q)
{
    dls_platform *pl = NULL;
    int rc = tool_read_platform(q->platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    tool_installment_lp lp;
    rc = tool_installment_lp_read(args, pl, "installments", "sequence", &lp);
    dls_installment *s = NULL;
    dls_error err;
    dls_error_clear(&err);
    if (rc == EXIT_DONE) {
        dls_status st = dls_installment_solve_lp(pl, q->load, &lp.par, &s, &err);
        if (st != DLS_OK)
            rc = tool_fail(st, &err);
    }
    if (rc == EXIT_DONE)
        rc = report_lp(q, pl, s);
    dls_installment_free(s);
    tool_installment_lp_free(&lp);
    dls_platform_free(pl);
    return rc;
}

int cmd_installments(const tool_args *args)
{
    installments_request q;
    if (!installments_request_read(args, &q))
        return EXIT_BADINPUT;
    if (q.lp)
        return cmd_installments_lp(args, &q);
    chunk_source src = FROM_FORMULA;
    double chunk = 0;
    if (parse_chunk(q.chunk, &src, &chunk) != 0) {
        tool_error("installments: --chunk must be a number > 0, formula or sweep, not \"%s\"",
                   q.chunk);
        return EXIT_BADINPUT;
    }
    dls_platform *pl = NULL;
    int rc = tool_read_platform(q.platform, &pl);
    if (rc != EXIT_DONE)
        return rc;
    dls_installment_analysis an;
    dls_installment *s = NULL;
    dls_error err;
    dls_error_clear(&err);
    dls_status st = dls_installment_analyze(pl, &q.par, &an, &err);
    if (st == DLS_OK && src == FROM_FORMULA)
        formula_or_sweep(&an, &src, &chunk);
    if (st == DLS_OK)
        st = src == FROM_SWEEP ? dls_installment_sweep(pl, q.load, &q.par, &s, &err)
                               : dls_installment_simulate(pl, q.load, chunk, &q.par, &s, &err);
    if (st != DLS_OK) {
        dls_platform_free(pl);
        return tool_fail(st, &err);
    }
    tool_warn_lines(dls_installment_note(s));
    if (src == FROM_FORMULA && dls_installment_chunks(s) < dls_platform_count(pl))
        tool_warning("the suggested chunk size is meant for loads of many rounds: --chunk "
                     "sweep finds a better chunk size for this one");
    rc = report(&q, pl, &an, s, src);
    dls_installment_free(s);
    dls_platform_free(pl);
    return rc;
}
