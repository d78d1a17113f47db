/* Fuzz target: the command line. The input is an argument vector and up to three files:
 *
 *     schedule            the words of the command line, one a line (a NUL also ends a
 *     f1                  word); argv[0], "dlsched", is added
 *     --load
 *     1e3
 *     %%                  a line "%%" starts a file: the first is f1, then f2 and f3
 *     {"processors": [...]}
 *
 * The program's dispatcher runs in-process on it (tool_main(), exit status returned), its
 * output sent to a sink. Nothing it reads or writes may be outside the target's private
 * directory: every file argument (the positional PLATFORM, and the options whose argument
 * is a FILE: --weights, --gantt, -o/--output, --merge, --log) is rewritten into that
 * directory, keeping only its last component ("/dev/sda" becomes DIR/sda, "f1" DIR/f1);
 * "-" (standard output) is kept for the outputs. So is the value of --order when it names a
 * file of processor names (tool_order_is_file: neither a keyword nor a list). The words are read as tool_parse() reads
 * them, from the same option tables, so that the rewriting never changes how they parse.
 *
 * Restrictions, so that every input ends within a second or so:
 *   - bench runs only with --kernel synthetic (simulated times; the BLAS kernels measure
 *     this machine for minutes), never with --exec (it runs a shell command), never with a
 *     --delay other than 0, and with --max-points at most BENCH_MAX_POINTS; without --log
 *     its default log (dlsched-bench.log in the current directory) is placed in the
 *     private directory;
 *   - validate never runs with --scheduler (a shell command): it stops at its usage error;
 *   - schedule and crosscheck get --time-limit 1 for their MIPs (and schedule's order
 *     search), and no larger value; schedule gets --order-exact-max at most
 *     ORDER_EXACT_MAX (the exact search's memory doubles with each processor);
 *   - balance gets --iterations at most BALANCE_MAX_ITERATIONS (each is a partition);
 *   - lu gets --columns at most LU_MAX_COLUMNS, and --max-memory and --max-group-states at
 *     most LU_MAX_MEMORY and LU_MAX_GROUP_STATES (which it gets by default);
 * an input that asks for more is not run. */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tool.h"

const char dls_fuzz_target[] = "cli";

#define MAX_WORDS 64
#define MAX_FILES 3
/* Longest file name kept from an argument. */
#define NAME_MAX_KEPT 64
#define BENCH_MAX_POINTS 64
#define LU_MAX_COLUMNS 20000
#define LU_MAX_MEMORY 67108864
#define LU_MAX_GROUP_STATES 100000
#define MIP_TIME_LIMIT 1
#define ORDER_EXACT_MAX 16
#define BALANCE_MAX_ITERATIONS 50

/* The largest value an option may have here: an input that gives more is not run. */
typedef struct bound {
    const char *cmd, *opt;
    double max;
} bound;

static const bound bounds[] = {
    {"bench", "max-points", BENCH_MAX_POINTS},
    {"balance", "iterations", BALANCE_MAX_ITERATIONS},
    {"bench", "delay", 0},
    {"schedule", "time-limit", MIP_TIME_LIMIT},
    {"crosscheck", "time-limit", MIP_TIME_LIMIT},
    {"schedule", "order-exact-max", ORDER_EXACT_MAX},
    {"lu", "columns", LU_MAX_COLUMNS},
    {"lu", "max-memory", LU_MAX_MEMORY},
    {"lu", "max-group-states", LU_MAX_GROUP_STATES},
};

/* Options inserted after the command name, before the user's words (which may lower
 * them): the bounds above where the program's default is larger. */
typedef struct preset {
    const char *cmd, *opt, *value;
} preset;

static const preset presets[] = {
    {"schedule", "--time-limit", "1"},
    {"crosscheck", "--time-limit", "1"},
    {"lu", "--max-memory", "67108864"},
    {"lu", "--max-group-states", "100000"},
};

/* One input made ready to run: the words, the rewritten paths they point to. */
typedef struct cmdline {
    char *argv[MAX_WORDS + 8];
    int argc;
    char paths[MAX_WORDS + 2][1200];  /* rewritten words, and the bench log */
    int npaths;
    const char *last[TOOL_MAX_OPTS];  /* the value each option was last given, or NULL */
} cmdline;

/* A line "%%" at `p`: the start of a file. */
static int separator_at(const uint8_t *data, size_t size, size_t p)
{
    return (p == 0 || data[p - 1] == '\n') && p + 2 <= size && data[p] == '%' &&
           data[p + 1] == '%' && (p + 2 == size || data[p + 2] == '\n');
}

/* Splits the input into its command line (a NUL-terminated copy in *words, of *wlen bytes)
 * and writes its files. -1 when a file cannot be written. */
static int split(const uint8_t *data, size_t size, char **words, size_t *wlen)
{
    size_t start = 0, end = size;
    int section = 0;
    for (size_t p = 0; p <= size; p++) {
        if (p < size && !separator_at(data, size, p))
            continue;
        /* the section [start, p), less the newline before the separator */
        end = p > start && p < size && data[p - 1] == '\n' ? p - 1 : p;
        if (section == 0) {
            *words = malloc(end - start + 1);
            if (*words == NULL)
                return -1;
            memcpy(*words, data + start, end - start);
            (*words)[end - start] = '\0';
            *wlen = end - start;
        } else if (section <= MAX_FILES) {
            char name[16]; /* "f" and any int */
            snprintf(name, sizeof name, "f%d", section);
            if (dls_fuzz_write(name, data + start, end - start) != 0)
                return -1;
        }
        section++;
        start = p + 3 <= size ? p + 3 : size;
        if (p < size)
            p += 2;
    }
    return 0;
}

/* Cuts the command line into words at newlines and NULs (an empty word between two of them
 * is an empty argument; the end of the text ends the last word). */
static void cut_words(char *words, size_t len, cmdline *c)
{
    c->argv[c->argc++] = "dlsched";
    size_t w = 0;
    for (size_t i = 0; i <= len && c->argc < MAX_WORDS; i++) {
        if (i < len && words[i] != '\n' && words[i] != '\0')
            continue;
        if (i == len && i == w)
            break;
        words[i] = '\0';
        c->argv[c->argc++] = words + w;
        w = i + 1;
    }
    c->argv[c->argc] = NULL;
}

/* The path in the private directory a file argument stands for: its last component, with
 * only letters, digits and ".-_+" kept ("" "." and ".." become "_"). */
static char *private_path(cmdline *c, const char *prefix, const char *arg)
{
    const char *base = strrchr(arg, '/');
    base = base ? base + 1 : arg;
    char name[NAME_MAX_KEPT + 1];
    size_t n = 0;
    for (const char *s = base; *s && n < NAME_MAX_KEPT; s++) {
        char ch = *s;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                 (ch >= '0' && ch <= '9') || ch == '.' || ch == '-' || ch == '_' || ch == '+';
        name[n++] = ok ? ch : '_';
    }
    name[n] = '\0';
    if (n == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        snprintf(name, sizeof name, "_");
    char path[1100];
    char *out = c->paths[c->npaths++];
    snprintf(out, sizeof c->paths[0], "%s%s", prefix, dls_fuzz_path(name, path, sizeof path));
    return out;
}

/* The option a word names, as tool_parse() reads it (prefixes, aliases). */
static int find_opt(const tool_cmd *cmd, const char *name, size_t len)
{
    return tool_option_index(cmd, name, len, 2);
}

static int is_output_option(const char *name)
{
    return strcmp(name, "output") == 0 || strcmp(name, "o") == 0 || strcmp(name, "gantt") == 0;
}

/* Whether option `o` of `cmd` may have this value here (see the restrictions above). */
static int allowed(const tool_cmd *cmd, const tool_opt *o, const char *value)
{
    if (strcmp(cmd->name, "bench") == 0 && strcmp(o->name, "exec") == 0)
        return 0;
    /* validate runs its --scheduler through the shell; without one it stops at once */
    if (strcmp(cmd->name, "validate") == 0 && strcmp(o->name, "scheduler") == 0)
        return 0;
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++)
        if (strcmp(bounds[b].cmd, cmd->name) == 0 && strcmp(bounds[b].opt, o->name) == 0) {
            char *end;
            double v = strtod(value, &end);
            /* not a number: the program refuses it; a larger one is not run */
            if (end != value && v > bounds[b].max)
                return 0;
        }
    return 1;
}

/* Rewrites the words after the command name as tool_parse() reads them: the file arguments
 * into the private directory. Returns 0 when the input may run. */
static int rewrite(const tool_cmd *cmd, int first, cmdline *c)
{
    int only_pos = 0;
    for (int i = first; i < c->argc; i++) {
        char *a = c->argv[i];
        if (!only_pos && strcmp(a, "--") == 0) {
            only_pos = 1;
            continue;
        }
        if (only_pos || a[0] != '-' || a[1] == '\0') {
            if (a[0] != '\0')
                c->argv[i] = private_path(c, "", a);  /* PLATFORM */
            continue;
        }
        int dashes = a[1] == '-' ? 2 : 1;
        const char *name = a + dashes;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        int k = tool_option_index(cmd, name, len, dashes);
        if (k < 0 || cmd->opts[k].type == OPT_FLAG)
            continue;  /* refused, or no value */
        const tool_opt *o = &cmd->opts[k];
        int at = eq ? i : i + 1;
        if (at >= c->argc)
            continue;  /* refused: the value is missing */
        const char *value = eq ? eq + 1 : c->argv[at];
        if (!allowed(cmd, o, value))
            return -1;
        int file = o->arg != NULL && strcmp(o->arg, "FILE") == 0 && value[0] != '\0' &&
                   !(is_output_option(o->name) && strcmp(value, "-") == 0);
        /* --order reads a file of processor names when its value is no keyword nor list */
        if (strcmp(o->name, "order") == 0 && tool_order_is_file(value))
            file = 1;
        /* balance --start reads a file of counts unless its value is the keyword even */
        if (strcmp(cmd->name, "balance") == 0 && strcmp(o->name, "start") == 0 &&
            strcmp(value, "even") != 0 && value[0] != '\0')
            file = 1;
        if (file) {
            size_t plen = eq ? (size_t)(eq + 1 - a) : 0;  /* "--gantt=" is kept */
            char prefix[80];
            snprintf(prefix, sizeof prefix, "%.*s", (int)plen, a);
            c->argv[at] = private_path(c, prefix, value);
            value = c->argv[at] + strlen(prefix);
        }
        c->last[k] = value;
        i = at;
    }
    return 0;
}

/* Inserts two words after the command name. */
static void insert(cmdline *c, const char *opt, const char *value)
{
    memmove(c->argv + 4, c->argv + 2, (size_t)(c->argc - 2 + 1) * sizeof c->argv[0]);
    c->argv[2] = (char *)opt;
    c->argv[3] = (char *)value;
    c->argc += 2;
}

/* bench: only the synthetic kernel, and its log in the private directory. */
static int bench_ready(const tool_cmd *cmd, cmdline *c)
{
    int kernel = find_opt(cmd, "kernel", strlen("kernel"));
    if (c->last[kernel] == NULL || strcmp(c->last[kernel], "synthetic") != 0)
        return -1;
    /* where the program puts its log when --log is not given (cmd_bench.c, name_job) */
    const char *out = c->last[find_opt(cmd, "output", strlen("output"))];
    const char *merge = c->last[find_opt(cmd, "merge", strlen("merge"))];
    int logged = c->last[find_opt(cmd, "log", strlen("log"))] != NULL ||
                 (out != NULL && strcmp(out, "-") != 0) || merge != NULL;
    if (!logged)
        insert(c, "--log", private_path(c, "", "dlsched-bench.log"));
    return 0;
}

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    dls_fuzz_clean();
    char *words = NULL;
    size_t wlen = 0;
    static cmdline c;
    memset(&c, 0, sizeof c);
    if (split(data, size, &words, &wlen) != 0) {
        free(words);
        return 0;
    }
    cut_words(words, wlen, &c);
    const tool_cmd *cmd = c.argc > 1 ? tool_find_command(c.argv[1]) : NULL;
    int run = 1;
    if (cmd != NULL) {
        for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++)
            if (strcmp(presets[p].cmd, cmd->name) == 0)
                insert(&c, presets[p].opt, presets[p].value);
        run = rewrite(cmd, 2, &c) == 0;
        if (run && strcmp(cmd->name, "bench") == 0)
            run = bench_ready(cmd, &c) == 0;
    }
    if (run) {
        int rc = dls_fuzz_tool(c.argc, c.argv);
        /* the documented exit statuses; 130 (interrupted) cannot happen here */
        FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2 || rc == 3);
    }
    free(words);
    return 0;
}
