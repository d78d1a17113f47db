/* Fuzz targets of the commands that compute on a platform (issue 20): lu with every
 * algorithm, installments with every chunk mode, crosscheck, evaluate and integer
 * schedules. One file, compiled once per command (DLS_FUZZ_COMMAND names it, see
 * fuzz/local.mk). The input is
 *
 *     byte 0      the variant: which algorithm, chunk mode (or installments --lp), order,
 *                 MIP mode
 *     byte 1      a size: the columns, the load's magnitude, the chunk
 *     the rest    a platform file
 *
 * The program's dispatcher runs the command in-process on the platform written into the
 * target's private directory. The property: every input ends (within DLS_FUZZ_TIMEOUT_S,
 * which libFuzzer and the replay enforce) with an answer (exit 0), an infeasibility (1) or
 * a located rejection (2): never a signal, a sanitizer report or exit 3. MIPs and searches
 * run with --time-limit 1, LU distributions with at most LU_MAX_COLUMNS columns. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "dlsched.h"
#include "harness.h"

#define STR_(x) #x
#define STR(x) STR_(x)
const char dls_fuzz_target[] = STR(DLS_FUZZ_COMMAND);

#define LU_MAX_COLUMNS 256
/* evaluate: processors at most (its list of loads is built here) */
#define EVALUATE_MAX_PROCESSORS 512
#define MAX_WORDS 16

static const char *const lu_algorithms[] = {"gb", "dp", "reverse", "fr", "fdp", "fgb", "exact"};
static const char *const chunks[] = {"formula", "sweep", "fixed"};

/* The load of a size byte: 10^(b / 16 - 3) rounded to 3 digits, 1e-3 to 1e13 units (whole
 * from 1 up, so that the integer paths run). */
static void load_of(unsigned b, char *buf, size_t size)
{
    double v = 1e-3;
    for (unsigned k = 0; k < b / 16; k++)
        v *= 10;
    v *= 1 + (b % 16) / 2.0;
    snprintf(buf, size, v >= 1 ? "%.0f" : "%.3g", v);
}

/* The words of one command line; the numbers they name live here too. */
typedef struct words {
    char *argv[MAX_WORDS];
    int argc;
    char num[64], num2[64];
} words;

static void add(words *w, const char *word)
{
    w->argv[w->argc++] = (char *)word;
}

/* The command on the platform file, with the load of the size byte. */
static void command_with_load(words *w, const char *command, const char *path, unsigned arg)
{
    load_of(arg, w->num, sizeof w->num);
    add(w, command);
    add(w, path);
    add(w, "--load");
    add(w, w->num);
}

/* lu: the variant picks the algorithm (and --compare), the size byte the columns. */
static void lu_words(words *w, const char *path, unsigned variant, unsigned arg)
{
    snprintf(w->num, sizeof w->num, "%u", 1 + arg % LU_MAX_COLUMNS);
    add(w, "lu");
    add(w, path);
    add(w, "--columns");
    add(w, w->num);
    add(w, "--algorithm");
    add(w, lu_algorithms[variant % 7]);
    if (variant & 0x80)
        add(w, "--compare");
}

/* installments: the variant picks the chunk mode or the LP, the size byte the load. */
static void installments_words(words *w, const char *path, unsigned variant, unsigned arg)
{
    command_with_load(w, "installments", path, arg);
    const char *c = chunks[variant % 3];
    if (variant & 0x20) {
        /* the LP over a searched sequence, bounded in LPs and time, with a window of 1
         * to 3 chunks (bits 2 and 3) */
        static const char *const windows[] = {"1", "2", "3", "2"};
        add(w, "--lp");
        add(w, "--max-lps");
        add(w, "40");
        add(w, "--time-limit");
        add(w, "1");
        add(w, "--window");
        add(w, windows[(variant >> 2) % 4]);
    } else {
        add(w, "--chunk");
        if (strcmp(c, "fixed") == 0) {
            /* a chunk from a thousandth of the load to all of it */
            load_of(arg > 48 ? arg - 48 : 0, w->num2, sizeof w->num2);
            add(w, w->num2);
        } else {
            add(w, c);
        }
    }
    if (variant & 0x40)
        add(w, "--no-limits");
}

static void crosscheck_words(words *w, const char *path, unsigned variant, unsigned arg)
{
    command_with_load(w, "crosscheck", path, arg);
    add(w, "--time-limit");
    add(w, "1");
    if (variant & 1)
        add(w, "--keep-unused");
    if (variant & 2) {
        add(w, "--order");
        add(w, "rate");
    }
}

/* evaluate: a load for every processor (as many as the file holds when it reads), cycling
 * through the load of the size byte, nothing, and the variant as a whole number. Returns 0
 * when the file has too many processors to try. */
static int evaluate_words(words *w, const char *path, unsigned variant, unsigned arg,
                          const uint8_t *file, size_t file_size)
{
    static char loads[EVALUATE_MAX_PROCESSORS * 24];
    size_t p = 4;
    dls_platform *pl = NULL;
    if (dls_platform_read_string((const char *)file, file_size, "p.json", &pl, NULL) == DLS_OK)
        p = dls_platform_count(pl);
    dls_platform_free(pl);
    if (p > EVALUATE_MAX_PROCESSORS)
        return 0;
    load_of(arg, w->num, sizeof w->num);
    snprintf(w->num2, sizeof w->num2, "%u", variant % 50);
    size_t o = 0;
    for (size_t i = 0; i < p && o + 80 < sizeof loads; i++)
        o += (size_t)snprintf(loads + o, sizeof loads - o, "%s%s", i ? "," : "",
                              i % 3 == 0 ? w->num : i % 3 == 1 ? "0" : w->num2);
    add(w, "evaluate");
    add(w, path);
    add(w, "--loads");
    add(w, loads);
    if (variant & 0x80) {
        add(w, "--order");
        add(w, "rate");
    }
    if (variant & 0x40)
        add(w, "--json");
    return 1;
}

/* integer schedules: the variant picks the MIP mode and the shape options. */
static void integer_words(words *w, const char *path, unsigned variant, unsigned arg)
{
    command_with_load(w, "schedule", path, arg);
    add(w, "--integer");
    add(w, "--mip");
    add(w, variant % 3 == 0 ? "auto" : variant % 3 == 1 ? "yes" : "no");
    add(w, "--time-limit");
    add(w, "1");
    if (variant & 0x10)
        add(w, "--exact-shape");
    if (variant & 0x20)
        add(w, "--keep-unused");
}

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned variant = data[0], arg = data[1];
    dls_fuzz_clean();
    if (dls_fuzz_write("p.json", data + 2, size - 2) != 0)
        return 0;
    char path[1200];
    dls_fuzz_path("p.json", path, sizeof path);
    words w;
    w.argc = 0;
    add(&w, "dlsched");
    const char *cmd = STR(DLS_FUZZ_COMMAND);
    if (strcmp(cmd, "lu") == 0)
        lu_words(&w, path, variant, arg);
    else if (strcmp(cmd, "installments") == 0)
        installments_words(&w, path, variant, arg);
    else if (strcmp(cmd, "crosscheck") == 0)
        crosscheck_words(&w, path, variant, arg);
    else if (strcmp(cmd, "evaluate") == 0) {
        if (!evaluate_words(&w, path, variant, arg, data + 2, size - 2))
            return 0;
    } else
        integer_words(&w, path, variant, arg);
    w.argv[w.argc] = NULL;
    int rc = dls_fuzz_tool(w.argc, w.argv);
    /* an answer, an infeasibility or a located rejection; never a failure of the run */
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    return 0;
}
