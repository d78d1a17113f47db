/* Fuzz targets of the files and options added with the newer commands (issue 35): claims,
 * validate manifests, the name files of installments and schedule, the simgrid export and
 * installments --lp with release times and returns. One source, compiled once per target
 * (DLS_FUZZ_COMMAND names it, see fuzz/local.mk). The input is
 *
 *     byte 0      the variant: which options, which file shape, which scheduler
 *     byte 1      a size: the load, or the exponent of an option
 *     the rest    up to four files, each after a line "%%" but the first:
 *                 a platform file (p.json), then the files of the target (a.*, b, c)
 *
 * The property, as in fuzz_command.c: every input ends within DLS_FUZZ_TIMEOUT_S with exit
 * 0, 1 or 2, never a signal, a sanitizer report or exit 3; and besides
 *   - what --json writes to standard output parses as one JSON value;
 *   - a simgrid platform written holds only finite positive speeds and bandwidths;
 *   - validate leaves the suite's files as they were, and nothing in its temporary folder.
 * Searches and validate's schedulers run with --time-limit 1. */
#include <config.h>

#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define STR_(x) #x
#define STR(x) STR_(x)
const char dls_fuzz_target[] = STR(DLS_FUZZ_COMMAND);

#ifndef TOP_BUILDDIR
#define TOP_BUILDDIR "."
#endif

#define MAX_WORDS 32
#define MAX_FILES 4
/* validate: instances run at most (each may take its scheduler's time limit, 1 s) */
#define VALIDATE_FIRST "3"

/* Whether the command runs with --json: its standard output must then parse. */
static int want_json;

typedef struct files {
    const uint8_t *data[MAX_FILES];
    size_t size[MAX_FILES];
    int n;
} files;

/* Splits the text after the two leading bytes at lines "%%". */
static void split(const uint8_t *p, size_t size, files *f)
{
    f->n = 1;
    f->data[0] = p;
    size_t start = 0;
    for (size_t i = 0; i + 3 <= size && f->n < MAX_FILES; i++) {
        if ((i == 0 || p[i - 1] == '\n') && p[i] == '%' && p[i + 1] == '%' &&
            (i + 2 == size || p[i + 2] == '\n')) {
            f->size[f->n - 1] = i - start;
            start = i + 2 < size ? i + 3 : size;
            f->data[f->n++] = p + start;
            i = start - 1;
        }
    }
    f->size[f->n - 1] = size - start;
}

/* The load of a size byte: 10^(b / 16 - 3) x (1 + (b mod 16) / 2), as fuzz_command.c. */
static void load_of(unsigned b, char *buf, size_t size)
{
    double v = 1e-3;
    for (unsigned k = 0; k < b / 16; k++)
        v *= 10;
    v *= 1 + (b % 16) / 2.0;
    snprintf(buf, size, "%.3g", v);
}

/* Writes the files of the input: f[0] as names[0], f[1] as names[1], ...; 0 or -1. */
static int write_files(const files *f, const char *const *names)
{
    for (int k = 0; k < f->n && names[k] != NULL; k++)
        if (dls_fuzz_write(names[k], f->data[k], f->size[k]) != 0)
            return -1;
    return 0;
}

/* Reads a file of the private directory (at most 64 MiB); NULL when there is none. */
static char *slurp(const char *name, size_t *len)
{
    char path[1200];
    FILE *fp = fopen(dls_fuzz_path(name, path, sizeof path), "rb");
    if (fp == NULL)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap && cap < ((size_t)64 << 20)) {
            char *b = realloc(buf, 2 * cap + 1);
            if (b == NULL)
                break;
            buf = b;
            cap *= 2;
        } else if (n == cap) {
            break;
        }
    }
    fclose(fp);
    if (buf != NULL)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* What --json wrote to the standard output (the file out.json) must parse when the run
 * answered. */
static void check_json(const char *name, int rc)
{
    size_t n;
    char *text = slurp(name, &n);
    if (text == NULL || (rc != 0 && rc != 1) || n == 0) {
        free(text);
        return;
    }
    json_error_t e;
    json_t *j = json_loadb(text, n, 0, &e);
    if (j == NULL && getenv("DLS_FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "fuzz_%s: %s: %s (line %d)\n", dls_fuzz_target, name, e.text, e.line);
    FUZZ_CHECK(j != NULL);
    json_decref(j);
    free(text);
}

/* Every speed="..." and bandwidth="..." of a simgrid platform: finite and > 0. */
static void check_simgrid(const char *name, int rc)
{
    size_t n;
    char *text = slurp(name, &n);
    if (text == NULL || rc != 0) {
        free(text);
        return;
    }
    static const char *const keys[] = {" speed=\"", " bandwidth=\"", " latency=\""};
    for (int k = 0; k < 3; k++)
        for (const char *p = strstr(text, keys[k]); p != NULL; p = strstr(p + 1, keys[k])) {
            double v = strtod(p + strlen(keys[k]), NULL);
            FUZZ_CHECK(isfinite(v));
            FUZZ_CHECK(k == 2 ? v >= 0 : v > 0);
        }
    free(text);
}

static int run_claim(unsigned variant, const files *f, char **argv)
{
    const char *names[] = {"p.json", variant & 1 ? "a.csv" : "a.json", NULL};
    if (f->n < 2 || write_files(f, names) != 0)
        return -1;
    int argc = 0;
    static char pp[1200], pa[1200];
    argv[argc++] = "dlsched";
    argv[argc++] = "verify";
    argv[argc++] = (char *)dls_fuzz_path(names[0], pp, sizeof pp);
    argv[argc++] = (char *)dls_fuzz_path(names[1], pa, sizeof pa);
    argv[argc++] = "--time-limit";
    argv[argc++] = "1";
    if (variant & 2)
        argv[argc++] = "--exact";
    if (variant & 4)
        argv[argc++] = "--no-optimum";
    if (variant & 8)
        argv[argc++] = "--no-limits";
    if (variant & 16) {
        argv[argc++] = "--json";
        want_json = 1;
    }
    return argc;
}

/* The schedulers validate runs, by the variant: a fair one (dlsched schedule or partition
 * on the instance), and misbehaving ones. PLAN is the input's third file. */
static const char *const schedulers[] = {
    "cp PLAN {output}",
    "case {kind} in schedule) " TOP_BUILDDIR "/tool/dlsched schedule {platform} --load {load} "
    "--json > {output};; partition) " TOP_BUILDDIR "/tool/dlsched partition {platform} "
    "--elements {load} --json > {output};; *) exit 1;; esac",
    "mkfifo {output}",
    "ln -s /dev/zero {output}",
    "mkdir {output}; touch {output}/x",
    "ln -s {platform} {output}; cat PLAN > {output}",
    "rm -rf \"$(dirname {output})\"; cat PLAN",
    "cat PLAN; cat PLAN >&2; cp PLAN {output}",
    "chmod 0 \"$(dirname {output})\"; cp PLAN {output}",
    "sleep 3; cp PLAN {output}",
};
#define N_SCHEDULERS (sizeof schedulers / sizeof schedulers[0])

/* The manifest names its platforms; the target gives it only p.json of its directory.
 * Paths up or out of the directory, and escapes that could spell them, are not run. */
static int manifest_is_local(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' || (p[i] == '.' && i + 1 < n && p[i + 1] == '.'))
            return 0;
        if (p[i] == '"' && i + 1 < n && p[i + 1] == '/')
            return 0;
    }
    return 1;
}

static int run_manifest(unsigned variant, const files *f, char **argv)
{
    const char *names[] = {"p.json", "m.json", "plan", NULL};
    if (f->n < 2 || !manifest_is_local(f->data[1], f->size[1]) || write_files(f, names) != 0)
        return -1;
    if (f->n < 3 && dls_fuzz_write("plan", "", 0) != 0)
        return -1;
    static char pm[1200], plan[1200], cmd[4096];
    dls_fuzz_path("plan", plan, sizeof plan);
    /* every PLAN of the command becomes the plan's path, quoted */
    const char *s = schedulers[variant % N_SCHEDULERS];
    size_t o = 0;
    for (const char *at; (at = strstr(s, "PLAN")) != NULL && o < sizeof cmd; s = at + 4)
        o += (size_t)snprintf(cmd + o, sizeof cmd - o, "%.*s'%s'", (int)(at - s), s, plan);
    if (o < sizeof cmd)
        snprintf(cmd + o, sizeof cmd - o, "%s", s);
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "validate";
    argv[argc++] = "--suite";
    argv[argc++] = (char *)dls_fuzz_path(names[1], pm, sizeof pm);
    argv[argc++] = "--scheduler";
    argv[argc++] = cmd;
    argv[argc++] = "--time-limit";
    argv[argc++] = "1";
    argv[argc++] = "--first";
    argv[argc++] = VALIDATE_FIRST;
    argv[argc++] = "--quiet";
    if (variant & 0x80) {
        argv[argc++] = "--json";
        want_json = 1;
    }
    return argc;
}

/* --returns FILE (the private file `name`, its path in buf) with --two-port and
 * --return-order lifo as bits 2 and 3 of the variant say; the new argc. */
static int returns_options(unsigned variant, const char *name, char *buf, size_t size,
                           char **argv, int argc)
{
    argv[argc++] = "--returns";
    argv[argc++] = (char *)dls_fuzz_path(name, buf, size);
    if (variant & 4)
        argv[argc++] = "--two-port";
    if (variant & 8) {
        argv[argc++] = "--return-order";
        argv[argc++] = "lifo";
    }
    return argc;
}

/* --json when bit 5 of the variant says, its output then checked; the new argc. */
static int json_option(unsigned variant, char **argv, int argc)
{
    if (variant & 32) {
        argv[argc++] = "--json";
        want_json = 1;
    }
    return argc;
}

/* installments --lp with a sequence, release and returns files, or schedule --order FILE. */
static int run_namefiles(unsigned variant, unsigned arg, const files *f, char **argv)
{
    const char *names[] = {"p.json", "a", "b", "c", NULL};
    if (f->n < 2 || write_files(f, names) != 0)
        return -1;
    static char pp[1200], pa[1200], pb[1200], pc[1200], num[64];
    load_of(arg, num, sizeof num);
    int argc = 0;
    argv[argc++] = "dlsched";
    if (variant % 4 == 3) {
        argv[argc++] = "schedule";
        argv[argc++] = (char *)dls_fuzz_path(names[0], pp, sizeof pp);
        argv[argc++] = "--load";
        argv[argc++] = num;
        argv[argc++] = "--order";
        argv[argc++] = (char *)dls_fuzz_path(names[1], pa, sizeof pa);
        argv[argc++] = "--time-limit";
        argv[argc++] = "1";
    } else {
        argv[argc++] = "installments";
        argv[argc++] = (char *)dls_fuzz_path(names[0], pp, sizeof pp);
        argv[argc++] = "--load";
        argv[argc++] = num;
        argv[argc++] = "--lp";
        argv[argc++] = "--sequence";
        argv[argc++] = (char *)dls_fuzz_path(names[1], pa, sizeof pa);
        if ((variant % 4 == 1 || variant % 4 == 2) && f->n >= 3) {
            argv[argc++] = "--release";
            argv[argc++] = (char *)dls_fuzz_path(names[2], pb, sizeof pb);
        }
        if (variant % 4 == 2 && f->n >= 4)
            argc = returns_options(variant, names[3], pc, sizeof pc, argv, argc);
        if (variant & 16)
            argv[argc++] = "--no-limits";
    }
    return json_option(variant, argv, argc);
}

/* An option's value from a byte: 10^(b/2 - 64) x (1 + b mod 2), 1e-64 to 2e63, so that
 * both ends of the domain [1e-60, 1e60] and a little past them are reached. */
static void option_of(unsigned b, char *buf, size_t size)
{
    snprintf(buf, size, "%de%d", 1 + (int)(b % 2), (int)(b / 2) - 64);
}

static int run_simgrid(unsigned variant, unsigned arg, const files *f, char **argv)
{
    const char *names[] = {"p.json", NULL};
    if (write_files(f, names) != 0)
        return -1;
    static char pp[1200], po[1200], b[32], fl[32];
    option_of(arg, b, sizeof b);
    option_of((variant * 7 + arg) & 0xff, fl, sizeof fl);
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "export";
    argv[argc++] = (char *)dls_fuzz_path(names[0], pp, sizeof pp);
    argv[argc++] = "--format";
    argv[argc++] = "simgrid";
    if (variant & 1) {
        argv[argc++] = "--bytes-per-unit";
        argv[argc++] = b;
    }
    if (variant & 2) {
        argv[argc++] = "--flops-per-unit";
        argv[argc++] = fl;
    }
    argv[argc++] = "-o";
    argv[argc++] = (char *)dls_fuzz_path("out.xml", po, sizeof po);
    return argc;
}

/* installments --lp over a searched sequence, with returns (the input's second file) and
 * the platform's own release and return keys, bounded in LPs and time. */
static int run_inst_lp(unsigned variant, unsigned arg, const files *f, char **argv)
{
    const char *names[] = {"p.json", "r", NULL};
    if (write_files(f, names) != 0)
        return -1;
    static char pp[1200], pr[1200], num[64];
    static const char *const windows[] = {"1", "2", "3", "2"};
    load_of(arg, num, sizeof num);
    int argc = 0;
    argv[argc++] = "dlsched";
    argv[argc++] = "installments";
    argv[argc++] = (char *)dls_fuzz_path(names[0], pp, sizeof pp);
    argv[argc++] = "--load";
    argv[argc++] = num;
    argv[argc++] = "--lp";
    argv[argc++] = "--max-lps";
    argv[argc++] = "40";
    argv[argc++] = "--time-limit";
    argv[argc++] = "1";
    argv[argc++] = "--window";
    argv[argc++] = (char *)windows[variant % 4];
    if (f->n >= 2)
        argc = returns_options(variant, names[1], pr, sizeof pr, argv, argc);
    if (variant & 16)
        argv[argc++] = "--no-limits";
    return json_option(variant, argv, argc);
}

/* Whether validate left anything in its temporary folder (TMPDIR is the private "t"). */
static int tmp_is_empty(const char *dir)
{
    DIR *d = opendir(dir);
    if (d == NULL)
        return 1;
    struct dirent *e;
    int empty = 1;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            empty = 0;
    closedir(d);
    return empty;
}

int dls_fuzz_one(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    unsigned variant = data[0], arg = data[1];
    dls_fuzz_clean();
    want_json = 0;
    files f;
    split(data + 2, size - 2, &f);
    char *argv[MAX_WORDS];
    int argc;
    const char *cmd = STR(DLS_FUZZ_COMMAND);
    if (strcmp(cmd, "claim") == 0)
        argc = run_claim(variant, &f, argv);
    else if (strcmp(cmd, "manifest") == 0)
        argc = run_manifest(variant, &f, argv);
    else if (strcmp(cmd, "namefiles") == 0)
        argc = run_namefiles(variant, arg, &f, argv);
    else if (strcmp(cmd, "simgrid") == 0)
        argc = run_simgrid(variant, arg, &f, argv);
    else
        argc = run_inst_lp(variant, arg, &f, argv);
    if (argc < 0)
        return 0;
    argv[argc] = NULL;
    static char tmp[1200];
    int manifest = strcmp(cmd, "manifest") == 0;
    size_t before_n = 0;
    char *before = NULL;
    if (manifest) {
        /* validate's temporary folders go to the private directory's "t", which must be
         * empty afterwards; the suite's platform must be left as it was */
        dls_fuzz_path("t", tmp, sizeof tmp);
        char mk[1300];
        snprintf(mk, sizeof mk, "mkdir -p '%s'", tmp);
        if (system(mk) != 0)
            return 0;
        setenv("TMPDIR", tmp, 1);
        before = slurp("p.json", &before_n);
    }
    int rc = dls_fuzz_tool_out(argc, argv, "out.json");
    if (manifest) {
        unsetenv("TMPDIR");
        size_t after_n = 0;
        char *after = slurp("p.json", &after_n);
        FUZZ_CHECK(before != NULL && after != NULL && before_n == after_n &&
                   memcmp(before, after, before_n) == 0);
        free(before);
        free(after);
        FUZZ_CHECK(tmp_is_empty(tmp));
        rmdir(tmp);
    }
    /* an answer, an infeasibility or a located rejection; never a failure of the run */
    FUZZ_CHECK(rc == 0 || rc == 1 || rc == 2);
    if (want_json)
        check_json("out.json", rc);
    if (strcmp(cmd, "simgrid") == 0)
        check_simgrid("out.xml", rc);
    return 0;
}
