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

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned variant = data[0], arg = data[1];
    dls_fuzz_clean();
    if (dls_fuzz_write("p.json", data + 2, size - 2) != 0)
        return 0;
    char path[1200], num[64], num2[64];
    static char loads[EVALUATE_MAX_PROCESSORS * 24];
    dls_fuzz_path("p.json", path, sizeof path);
    char *argv[MAX_WORDS];
    int argc = 0;
    argv[argc++] = "dlsched";
    const char *cmd = STR(DLS_FUZZ_COMMAND);
    if (strcmp(cmd, "lu") == 0) {
        snprintf(num, sizeof num, "%u", 1 + arg % LU_MAX_COLUMNS);
        argv[argc++] = "lu";
        argv[argc++] = path;
        argv[argc++] = "--columns";
        argv[argc++] = num;
        argv[argc++] = "--algorithm";
        argv[argc++] = (char *)lu_algorithms[variant % 7];
        if (variant & 0x80)
            argv[argc++] = "--compare";
    } else if (strcmp(cmd, "installments") == 0) {
        load_of(arg, num, sizeof num);
        argv[argc++] = "installments";
        argv[argc++] = path;
        argv[argc++] = "--load";
        argv[argc++] = num;
        const char *c = chunks[variant % 3];
        if (variant & 0x20) {
            /* the LP over a searched sequence, bounded in LPs and time, with a window of 1
             * to 3 chunks (bits 2 and 3) */
            static const char *const windows[] = {"1", "2", "3", "2"};
            argv[argc++] = "--lp";
            argv[argc++] = "--max-lps";
            argv[argc++] = "40";
            argv[argc++] = "--time-limit";
            argv[argc++] = "1";
            argv[argc++] = "--window";
            argv[argc++] = (char *)windows[(variant >> 2) % 4];
        } else {
            argv[argc++] = "--chunk";
            if (strcmp(c, "fixed") == 0) {
                /* a chunk from a thousandth of the load to all of it */
                load_of(arg > 48 ? arg - 48 : 0, num2, sizeof num2);
                argv[argc++] = num2;
            } else {
                argv[argc++] = (char *)c;
            }
        }
        if (variant & 0x40)
            argv[argc++] = "--no-limits";
    } else if (strcmp(cmd, "crosscheck") == 0) {
        load_of(arg, num, sizeof num);
        argv[argc++] = "crosscheck";
        argv[argc++] = path;
        argv[argc++] = "--load";
        argv[argc++] = num;
        argv[argc++] = "--time-limit";
        argv[argc++] = "1";
        if (variant & 1)
            argv[argc++] = "--keep-unused";
        if (variant & 2) {
            argv[argc++] = "--order";
            argv[argc++] = "rate";
        }
    } else if (strcmp(cmd, "evaluate") == 0) {
        /* a load for every processor (as many as the file holds when it reads), cycling
         * through the load of the size byte, nothing, and the variant as a whole number */
        size_t p = 4;
        dls_platform *pl = NULL;
        if (dls_platform_read_string((const char *)data + 2, size - 2, "p.json", &pl, NULL) ==
            DLS_OK)
            p = dls_platform_count(pl);
        dls_platform_free(pl);
        if (p > EVALUATE_MAX_PROCESSORS)
            return 0;
        load_of(arg, num, sizeof num);
        size_t o = 0;
        for (size_t i = 0; i < p && o + 80 < sizeof loads; i++)
            o += (size_t)snprintf(loads + o, sizeof loads - o, "%s%s", i ? "," : "",
                                  i % 3 == 0 ? num : i % 3 == 1 ? "0" : (snprintf(num2,
                                  sizeof num2, "%u", variant % 50), num2));
        argv[argc++] = "evaluate";
        argv[argc++] = path;
        argv[argc++] = "--loads";
        argv[argc++] = loads;
        if (variant & 0x80) {
            argv[argc++] = "--order";
            argv[argc++] = "rate";
        }
        if (variant & 0x40)
            argv[argc++] = "--json";
    } else { /* integer schedules */
        load_of(arg, num, sizeof num);
        argv[argc++] = "schedule";
        argv[argc++] = path;
        argv[argc++] = "--load";
        argv[argc++] = num;
        argv[argc++] = "--integer";
        argv[argc++] = "--mip";
        argv[argc++] = variant % 3 == 0 ? "auto" : variant % 3 == 1 ? "yes" : "no";
        argv[argc++] = "--time-limit";
        argv[argc++] = "1";
        if (variant & 0x10)
            argv[argc++] = "--exact-shape";
        if (variant & 0x20)
            argv[argc++] = "--keep-unused";
    }
    argv[argc] = NULL;
    int rc = dls_fuzz_tool(argc, argv);
    /* an answer, an infeasibility or a located rejection; never a failure of the run */
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    return 0;
}
